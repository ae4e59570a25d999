//! The legacy index sorts on the GPU (`oxsparseXcsrsort`, `Xcscsort`, `XcoosortByRow`,
//! `XcoosortByColumn`, through the C ABI) equal a CPU stable sort, on seeded random inputs:
//! empty and 1 x 1 matrices, odd shapes, rows of 0..100 entries, every tier's edges (4, 8, 16, 32,
//! 64, 128, 512, 4096 entries and one past), hub rows of 10,000+ and 1,000,000 entries, hundreds of long rows (the
//! rank passes), duplicates, already sorted and reversed input, base 0 and 1, P the identity or
//! arbitrary values.
//!
//! The workspace is the size bufferSizeExt reports, poisoned (0xFF); every case runs twice from
//! the same input and both runs must give the same bits as the reference (so also each other); the
//! offsets must come back untouched.

mod common;

#[path = "gpu_sort/cases.rs"]
mod cases;
#[path = "gpu_sort/compressed.rs"]
mod compressed;
#[path = "gpu_sort/coo.rs"]
mod coo;
