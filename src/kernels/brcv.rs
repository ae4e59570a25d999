//! Launchers of BRCV (`kernels/brcv.cu`): the build from CSR rows, in two rounds of memory (the
//! blocks' bands and the rows' far counts first, then, once their totals are read back, the values
//! and far entries), the refresh of the values before each product of CSR SpMM's banded path, and
//! the SpMM. The format: docs/design/brcv.md and `BrcvFormat`.

use super::params::brcv::*;
use super::params::spmm::SpmmRows;
use super::spmm::Types;
use super::{grid_for, launch, vector_ops, BLOCK};
use crate::context::Handle;
use crate::error::{Error, Result};
use crate::kernel_name;
use crate::types::{DataType, IndexType};

const FAMILY: &str = "brcv";
const ALIGN: u64 = 256;

fn align_up(x: u64) -> u64 {
    x.div_ceil(ALIGN) * ALIGN
}

fn index_suffix(t: IndexType) -> &'static str {
    match t {
        IndexType::OXSPARSE_INDEX_64I => "i64",
        _ => "i32",
    }
}

/// Row blocks of an m-row matrix.
pub fn row_blocks(m: i64) -> i64 {
    (m.max(0) as u64).div_ceil(BRCV_ROWS as u64) as i64
}

/// The SpMM's tiles of C's columns for N = `n` and a compute type of `compute_bytes`: (narrow,
/// columns a block takes). A block takes 16 vectors of a B row, 16 bytes each (64 FP32 columns),
/// or, where N fits in 128 bytes of a compute type of at most 8, 8 bytes each (32 FP32 columns):
/// at N = 32 the wide tile would spend half its FMAs on zeros.
pub fn tiling(n: i64, compute_bytes: u64) -> (bool, i64) {
    let bytes = compute_bytes.clamp(1, 16) as i64;
    let narrow = bytes <= 8 && n * bytes <= 128;
    (narrow, if narrow { 128 / bytes } else { 256 / bytes })
}

fn scan_blocks(len: u64) -> u64 {
    len.max(1).div_ceil((BRCV_SCAN_BLOCK * BRCV_SCAN_ROUNDS) as u64)
}

/// The first round's arrays (byte offsets from its start): the blocks' bands, the rows' far
/// offsets, the widest band, the scans' chunk sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StructureLayout {
    pub blocks: i64,
    lo: u64,
    width: u64,
    start: u64,
    far_offsets: u64,
    widest: u64,
    sums: u64,
    pub bytes: u64,
}

impl StructureLayout {
    pub fn new(m: i64) -> StructureLayout {
        let blocks = row_blocks(m);
        let (nb, rows) = (blocks as u64, m.max(0) as u64);
        let mut at = 0u64;
        let mut take = |bytes: u64| {
            let here = at;
            at += align_up(bytes.max(1));
            here
        };
        let lo = take(nb * 8);
        let width = take(nb * 4);
        let start = take((nb + 1) * 8);
        let far_offsets = take((rows + 1) * 8);
        let widest = take(8);
        let sums = take(scan_blocks((nb + 1).max(rows + 1)) * 8);
        StructureLayout { blocks, lo, width, start, far_offsets, widest, sums, bytes: at }
    }

    /// The format over a first round at `at` and a second at `data` (`values` band values and
    /// `far` far entries of `value_bytes` each); `data` 0 before the second round exists.
    #[allow(clippy::too_many_arguments)]
    pub fn format(&self, m: i64, k: i64, at: u64, data: u64, values: u64, far: u64, value_bytes: u64) -> BrcvFormat {
        let (values_at, far_cols, far_values) = DataLayout::new(values, far, value_bytes).offsets();
        let place = |offset: u64| if data == 0 { 0 } else { data + offset };
        BrcvFormat {
            m,
            k,
            blocks: self.blocks,
            lo: at + self.lo,
            width: at + self.width,
            start: at + self.start,
            values: place(values_at),
            far_offsets: at + self.far_offsets,
            far_cols: if far == 0 { 0 } else { place(far_cols) },
            far_values: if far == 0 { 0 } else { place(far_values) },
        }
    }
}

/// The second round: band values, far columns (i64), far values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataLayout {
    values: u64,
    far_cols: u64,
    far_values: u64,
    pub bytes: u64,
}

impl DataLayout {
    pub fn new(values: u64, far: u64, value_bytes: u64) -> DataLayout {
        let values_bytes = align_up((values * value_bytes).max(1));
        let far_cols = values_bytes;
        let far_values = far_cols + align_up((far * 8).max(1));
        DataLayout { values: 0, far_cols, far_values, bytes: far_values + align_up((far * value_bytes).max(1)) }
    }

    fn offsets(&self) -> (u64, u64, u64) {
        (self.values, self.far_cols, self.far_values)
    }

    /// Bytes of the band values (zeroed before the scatter).
    pub fn values_bytes(&self) -> u64 {
        self.far_cols
    }
}

/// What the first round found: band values stored, far entries, the widest band.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub values: u64,
    pub far: u64,
    pub widest: u64,
}

/// Exclusive prefix sum, in place, of `len` u64 at `data`.
fn scan(h: &Handle, base: &BrcvBuildParams, data: u64, len: u64, sums: u64) -> Result<()> {
    let blocks = scan_blocks(len);
    let p = BrcvBuildParams { scan_data: data, scan_n: len as i64, scan_sums: sums, scan_blocks: blocks as i64, ..*base };
    let b = BRCV_SCAN_BLOCK;
    launch(h, FAMILY, "oxs_brcv_scan_reduce", (blocks as u32, 1, 1), b, 0, &p)?;
    launch(h, FAMILY, "oxs_brcv_scan_sums", (1, 1, 1), b, 0, &p)?;
    launch(h, FAMILY, "oxs_brcv_scan_apply", (blocks as u32, 1, 1), b, 0, &p)
}

/// The transparent path's screen for op(A)'s CSR rows `a` (m x k, m > 0), in the first round's
/// memory at `at` (laid out by `l`; only its widest-band word is used): a lower bound on the far
/// entries `measure` would find, in one pass over the entries; then waits to read it.
pub fn screen(h: &Handle, a: SpmmRows, (m, k): (i64, i64), index: IndexType, l: &StructureLayout, at: u64) -> Result<u64> {
    if m <= 0 || l.blocks > i32::MAX as i64 {
        return Err(Error::Internal(format!("BRCV screen for m = {m}")));
    }
    let word = at + l.widest;
    vector_ops::zero_device(h, word, 8)?;
    let p = BrcvBuildParams { a, fmt: l.format(m, k, at, 0, 0, 0, 1), widest: word, ..Default::default() };
    launch(h, FAMILY, &kernel_name!("oxs_brcv_screen_{}", index_suffix(index)), (l.blocks as u32, 1, 1), BRCV_ROWS, 0, &p)?;
    let mut v = [0u8; 8];
    vector_ops::copy_to_host_and_wait(h, word, &mut v)?;
    Ok(u64::from_ne_bytes(v))
}

/// Round one for op(A)'s CSR rows `a` (m x k, m > 0) into the memory at `at` (laid out by `l`):
/// the bands, the far offsets and their scans; then waits to read the totals.
pub fn measure(h: &Handle, a: SpmmRows, (m, k): (i64, i64), index: IndexType, l: &StructureLayout, at: u64) -> Result<Totals> {
    if m <= 0 || l.blocks > i32::MAX as i64 {
        return Err(Error::Internal(format!("BRCV build for m = {m}")));
    }
    // The scans' last entries (the totals) and the widest band start at zero.
    vector_ops::zero_device(h, at, l.bytes as usize)?;
    let fmt = l.format(m, k, at, 0, 0, 0, 1);
    let p = BrcvBuildParams { a, fmt, widest: at + l.widest, ..Default::default() };
    launch(h, FAMILY, &kernel_name!("oxs_brcv_extent_{}", index_suffix(index)), (l.blocks as u32, 1, 1), BRCV_ROWS, 0, &p)?;
    scan(h, &p, fmt.start, l.blocks as u64 + 1, at + l.sums)?;
    scan(h, &p, fmt.far_offsets, m as u64 + 1, at + l.sums)?;
    let read = |addr: u64| -> Result<u64> {
        let mut v = [0u8; 8];
        vector_ops::copy_to_host_and_wait(h, addr, &mut v)?;
        Ok(u64::from_ne_bytes(v))
    };
    Ok(Totals { values: read(fmt.start + l.blocks as u64 * 8)?, far: read(fmt.far_offsets + m as u64 * 8)?, widest: read(at + l.widest)? })
}

/// Round two: the band values (zeroed first: holes are zeros) and the far entries of `fmt`, from
/// `a`'s values of type `value`.
pub fn scatter(h: &Handle, a: SpmmRows, fmt: &BrcvFormat, values_bytes: u64, value: DataType, index: IndexType) -> Result<()> {
    vector_ops::zero_device(h, fmt.values, values_bytes as usize)?;
    let p = BrcvBuildParams { a, fmt: *fmt, ..Default::default() };
    let name = kernel_name!("oxs_brcv_scatter_{}_{}", value.kernel_suffix(), index_suffix(index));
    launch(h, FAMILY, &name, (grid_for(fmt.m.max(1) as u64, BLOCK), 1, 1), BLOCK, 0, &p)
}

/// The transparent path's refresh before every product (src/ops/spmm/banded.rs): each block's band
/// zeroed and A's entries, with the values `a` has now, scattered again into the band and far
/// entries `fmt` (measured by preprocess from the same structure). A block of
/// `BRCV_REFRESH_THREADS` per row block (its band built in shared memory, a warp a row at a
/// time), no memset: it goes out in the call's launch batch.
pub fn refresh(h: &Handle, a: SpmmRows, fmt: &BrcvFormat, value: DataType, index: IndexType) -> Result<()> {
    let p = BrcvBuildParams { a, fmt: *fmt, ..Default::default() };
    let name = kernel_name!("oxs_brcv_refresh_{}_{}", value.kernel_suffix(), index_suffix(index));
    launch(h, FAMILY, &name, (fmt.blocks as u32, 1, 1), BRCV_REFRESH_THREADS, 0, &p)
}

/// The SpMM over the whole of C: row blocks x column tiles x `batches` (each at most the grid's
/// limits, which the caller checked).
pub fn spmm(h: &Handle, p: &SpmmBrcvParams, types: Types, batches: u32) -> Result<()> {
    let (narrow, cols) = tiling(p.shape.n, types.compute.size_bytes());
    let tiles = (p.shape.n as u64).div_ceil(cols as u64);
    let name = kernel_name!("oxs_spmm_brcv_{}{}", if narrow { "narrow_" } else { "" }, types.suffix());
    launch(h, FAMILY, &name, (p.fmt.blocks as u32, tiles as u32, batches), BRCV_THREADS, 0, p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_hold_256_or_128_bytes_of_a_b_row() {
        assert_eq!(tiling(128, 4), (false, 64));
        assert_eq!(tiling(33, 4), (false, 64));
        assert_eq!(tiling(32, 4), (true, 32));
        assert_eq!(tiling(1, 4), (true, 32));
        assert_eq!(tiling(16, 8), (true, 16));
        assert_eq!(tiling(17, 8), (false, 32));
        assert_eq!(tiling(1, 16), (false, 16), "16-byte types: wide tiles only");
        assert_eq!(row_blocks(0), 0);
        assert_eq!(row_blocks(1), 1);
        assert_eq!(row_blocks(64), 1);
        assert_eq!(row_blocks(65), 2);
    }

    #[test]
    fn layouts_hold_their_arrays() {
        let l = StructureLayout::new(1000);
        assert_eq!(l.blocks, 16);
        let f = l.format(1000, 900, 1 << 20, 0, 0, 0, 4);
        assert_eq!((f.values, f.far_cols, f.far_values), (0, 0, 0), "no second round yet");
        assert!(f.lo >= 1 << 20 && f.width >= f.lo + 16 * 8 && f.start >= f.width + 16 * 4);
        assert!(f.far_offsets >= f.start + 17 * 8 && (1 << 20) + l.bytes >= f.far_offsets + 1001 * 8);
        let d = DataLayout::new(64 * 33 * 16, 10, 4);
        assert!(d.values_bytes() >= 64 * 33 * 16 * 4);
        let g = l.format(1000, 900, 1 << 20, 1 << 30, 64 * 33 * 16, 10, 4);
        assert_eq!(g.values, 1 << 30);
        assert!(g.far_cols >= g.values + 64 * 33 * 16 * 4 && g.far_values >= g.far_cols + 80);
        assert!((1 << 30) + d.bytes >= g.far_values + 40);
        assert_eq!(l.format(1000, 900, 0, 1 << 30, 5, 0, 4).far_cols, 0, "no far entries: none read");
        // Every address a multiple of the alignment, for vector-friendly arrays.
        for x in [f.lo, f.width, f.start, f.far_offsets, g.far_cols, g.far_values] {
            assert_eq!(x % ALIGN, 0);
        }
    }
}
