//! The legacy index sorts (csrsort, coosort by row) and the matrix descriptor csrsort takes, for
//! both libraries.

use super::{vp, Descr, Kind, Lib};
use crate::Result;
use oxsparse::ffi::{mat_descr as oxm, sort as oxsort};
use std::ffi::c_int;

/// m, n and nnz of a sort, as the C API's `int`s.
pub type Dims = (c_int, c_int, c_int);

impl<'a> Lib<'a> {
    /// A legacy matrix descriptor with the defaults (general, base 0).
    pub fn create_mat_descr(&self) -> Result<Descr<'a>> {
        self.descr(Kind::MatDescr, ("oxsparseCreateMatDescr", "cusparseCreateMatDescr"), |p| unsafe {
            match self {
                Lib::Ox(_) => Ok(oxm::oxsparseCreateMatDescr(p as *mut *mut std::ffi::c_void as _)),
                Lib::Cu(c) => Ok((c.api.cusparseCreateMatDescr()?)(p)),
            }
        })
    }

    pub fn csrsort_buffer_size(&self, (m, n, nnz): Dims, offsets: u64, indices: u64) -> Result<usize> {
        let mut size = 0usize;
        match self {
            Lib::Ox(h) => self.check("oxsparseXcsrsort_bufferSizeExt", unsafe {
                oxsort::oxsparseXcsrsort_bufferSizeExt(*h, m, n, nnz, vp(offsets) as _, vp(indices) as _, &mut size)
            })?,
            Lib::Cu(c) => self.check("cusparseXcsrsort_bufferSizeExt", unsafe {
                (c.api.cusparseXcsrsort_bufferSizeExt()?)(c.handle, m, n, nnz, vp(offsets), vp(indices), &mut size)
            })?,
        }
        Ok(size)
    }

    /// Sorts the column indices of every row in place and permutes `perm` alike.
    pub fn csrsort(&self, (m, n, nnz): Dims, descr: &Descr, offsets: u64, indices: u64, perm: u64, buffer: u64) -> Result<()> {
        match self {
            Lib::Ox(h) => self.check("oxsparseXcsrsort", unsafe {
                oxsort::oxsparseXcsrsort(*h, m, n, nnz, descr.ptr as _, vp(offsets) as _, vp(indices) as _, vp(perm) as _, vp(buffer))
            }),
            Lib::Cu(c) => self.check("cusparseXcsrsort", unsafe {
                (c.api.cusparseXcsrsort()?)(c.handle, m, n, nnz, descr.ptr, vp(offsets), vp(indices), vp(perm), vp(buffer))
            }),
        }
    }

    pub fn coosort_buffer_size(&self, (m, n, nnz): Dims, rows: u64, cols: u64) -> Result<usize> {
        let mut size = 0usize;
        match self {
            Lib::Ox(h) => self.check("oxsparseXcoosort_bufferSizeExt", unsafe {
                oxsort::oxsparseXcoosort_bufferSizeExt(*h, m, n, nnz, vp(rows) as _, vp(cols) as _, &mut size)
            })?,
            Lib::Cu(c) => self.check("cusparseXcoosort_bufferSizeExt", unsafe {
                (c.api.cusparseXcoosort_bufferSizeExt()?)(c.handle, m, n, nnz, vp(rows), vp(cols), &mut size)
            })?,
        }
        Ok(size)
    }

    /// Sorts the COO entries by (row, column) in place, permuting `perm` alike.
    pub fn coosort_by_row(&self, (m, n, nnz): Dims, rows: u64, cols: u64, perm: u64, buffer: u64) -> Result<()> {
        match self {
            Lib::Ox(h) => self.check("oxsparseXcoosortByRow", unsafe {
                oxsort::oxsparseXcoosortByRow(*h, m, n, nnz, vp(rows) as _, vp(cols) as _, vp(perm) as _, vp(buffer))
            }),
            Lib::Cu(c) => self.check("cusparseXcoosortByRow", unsafe {
                (c.api.cusparseXcoosortByRow()?)(c.handle, m, n, nnz, vp(rows), vp(cols), vp(perm), vp(buffer))
            }),
        }
    }
}
