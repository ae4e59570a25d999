//! Csr2cscEx2: the CSC form of a CSR matrix (equally, the CSR form of its transpose), stable.
//!
//! Two methods ([`method`]), both deterministic and with the same scratch: one u32 entry number per
//! stored entry plus one i32 per 2048 columns (and a word), where cuSPARSE asks for about 16
//! bytes an entry (docs/design/conversions.md says why each is built as it is).
//! - radix (kernels/csr2csc_radix.cu), wherever its arrays allow: a stable LSD radix sort of the
//!   entry numbers by column, 8 bits a pass, then the rows, values and offsets from the sorted
//!   order; its cost does not depend on how long the columns are.
//! - atomic (kernels/csr2csc.cu): count each column's entries and scan; place the entries of long
//!   columns stably, chunk by chunk, from per-chunk cursors; scatter every other entry into a slot
//!   of its column (an atomic cursor per column), then sort each short column's slots by entry
//!   number and gather the values.

use crate::context::Handle;
use crate::descr::check_aligned;
use crate::error::{invalid, unsupported, Result};
use crate::kernels::csr2csc as k;
use crate::kernels::csr2csc_radix as radix;
use crate::kernels::params::csr2csc::{Csr2cscParams, Csr2cscRadixParams};
use crate::ops::workspace::{align_up, ALIGN};
use crate::types::{Action, Csr2CscAlg, DataType, IndexBase};

/// The arguments of `oxsparseCsr2cscEx2` after the handle, as received (enums still raw).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Csr2cscArgs {
    pub m: i64,
    pub n: i64,
    pub nnz: i64,
    pub csr_val: u64,
    pub csr_row_ptr: u64,
    pub csr_col_ind: u64,
    pub csc_val: u64,
    pub csc_col_ptr: u64,
    pub csc_row_ind: u64,
    pub val_type: i32,
    pub copy_values: i32,
    pub idx_base: i32,
    pub alg: i32,
}

/// What a call enqueues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// m or n is 0: nothing to do, nothing checked beyond sizes and enums (as cuSPARSE).
    Nothing,
    /// No stored entries: every column offset becomes the base.
    BaseOffsets,
    /// The full transpose, with its workspace layout.
    Transpose(Layout),
}

/// Where the scratch arrays lie in the user's buffer (offsets from its aligned start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub perm_at: usize,
    pub chunk_sums_at: usize,
    pub chunks: i64,
    /// Bytes to ask for, with room to align the buffer's start.
    pub bytes: usize,
}

impl Layout {
    fn of(nnz: i64, n: i64) -> Layout {
        let chunks = k::scan_chunks(n);
        let chunk_sums_at = align_up(nnz as usize * 4);
        // The chunk sums, then the count of long columns (the atomic method; the radix method
        // keeps its counts in the output arrays).
        Layout { perm_at: 0, chunk_sums_at, chunks, bytes: ALIGN + chunk_sums_at + align_up((chunks as usize + 1) * 4) }
    }
}

/// How the transpose is computed (docs/design/conversions.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Atomic cursors per column, then each short column's slots sorted (kernels/csr2csc.cu).
    Atomic,
    /// A stable radix sort of the entry numbers by column (kernels/csr2csc_radix.cu); the passes
    /// after the first keep their digit counts at `later_counts` (cscVal or cscColPtr).
    Radix { later_counts: u64 },
}

/// Where the radix passes after the first can keep their counts and totals ([`radix::room`]), if
/// anywhere: cscVal (NUMERIC, 4-byte aligned, large enough) or cscColPtr (when they fit its n + 1
/// words). One pass needs neither (its counts lie in cscRowInd).
fn radix_room(a: &Csr2cscArgs, modes: &Modes) -> Option<u64> {
    let counts = radix::room(a.nnz);
    if counts > a.nnz {
        return None; // the first pass keeps them in an array of nnz words
    }
    if radix::passes(a.n) == 1 {
        return Some(0);
    }
    let value_bytes = a.nnz as u128 * modes.value_type.size_bytes() as u128;
    if modes.numeric && a.csc_val % 4 == 0 && value_bytes >= counts as u128 * 4 {
        Some(a.csc_val)
    } else if counts <= a.n + 1 {
        Some(a.csc_col_ptr)
    } else {
        None
    }
}

/// The method for a call: radix wherever its arrays allow (`OXSPARSE_CSR2CSC_METHOD` = `atomic`
/// forces the other). The radix method was as fast or faster on every matrix measured, down to
/// 2,077 entries (docs/design/conversions.md).
pub fn method(a: &Csr2cscArgs, modes: &Modes, forced: Option<bool>) -> Method {
    match radix_room(a, modes) {
        Some(later_counts) if forced != Some(false) => Method::Radix { later_counts },
        _ => Method::Atomic,
    }
}

/// Where the radix method's first pass writes its side array ([`radix::needs_side`]), if it needs
/// one and cscVal holds it after the later passes' counts (NUMERIC values of 4 bytes or more); 0
/// otherwise, and the second pass gathers the columns.
fn side_array(a: &Csr2cscArgs, modes: &Modes, later_counts: u64) -> u64 {
    let value_words = a.nnz as u128 * modes.value_type.size_bytes() as u128 / 4;
    let fits = value_words >= (radix::room(a.nnz) + radix::side_words(a.nnz)) as u128;
    if later_counts == a.csc_val && later_counts != 0 && radix::needs_side(a.nnz, a.n) && fits {
        later_counts + 4 * radix::room(a.nnz) as u64
    } else {
        0
    }
}

/// The value types cuSPARSE's Csr2cscEx2 lists (values are moved, never read as numbers).
fn supported_value(t: DataType) -> bool {
    !matches!(t, DataType::CUDA_R_32I)
}

fn decode<T>(v: i32, what: &str, f: fn(i32) -> Option<T>) -> Result<T> {
    f(v).ok_or_else(|| crate::error::Error::InvalidValue(format!("{what} has invalid value {v}")))
}

/// The decoded enums of a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modes {
    pub value_type: DataType,
    pub numeric: bool,
    pub base: IndexBase,
    pub alg: Csr2CscAlg,
}

/// Validates the arguments in the API's order (sizes, pointers, enums, type combinations) and
/// decides the launches; touches no GPU memory.
pub fn plan(a: &Csr2cscArgs) -> Result<(Plan, Modes)> {
    if a.m < 0 || a.n < 0 || a.nnz < 0 {
        invalid!("m ({}), n ({}) and nnz ({}) must be >= 0", a.m, a.n, a.nnz);
    }
    let empty = a.m == 0 || a.n == 0;
    if !empty {
        if a.csr_row_ptr == 0 || a.csc_col_ptr == 0 {
            invalid!("csrRowPtr and cscColPtr must not be NULL");
        }
        if a.nnz > 0 && (a.csr_col_ind == 0 || a.csc_row_ind == 0) {
            invalid!("csrColInd and cscRowInd must not be NULL when nnz > 0");
        }
        for (what, p) in
            [("csrRowPtr", a.csr_row_ptr), ("csrColInd", a.csr_col_ind), ("cscColPtr", a.csc_col_ptr), ("cscRowInd", a.csc_row_ind)]
        {
            check_aligned(what, p, 4)?;
        }
    }
    let value_type = decode(a.val_type, "valType", DataType::from_raw)?;
    let action = decode(a.copy_values, "copyValues", Action::from_raw)?;
    let base = decode(a.idx_base, "idxBase", IndexBase::from_raw)?;
    let alg = decode(a.alg, "alg", Csr2CscAlg::from_raw)?;
    let numeric = action == Action::OXSPARSE_ACTION_NUMERIC;
    if !supported_value(value_type) {
        unsupported!("valType {value_type:?} is not supported by Csr2cscEx2");
    }
    let modes = Modes { value_type, numeric, base, alg };
    if empty {
        return Ok((Plan::Nothing, modes));
    }
    if a.nnz == 0 {
        return Ok((Plan::BaseOffsets, modes));
    }
    if numeric {
        if a.csr_val == 0 || a.csc_val == 0 {
            invalid!("csrVal and cscVal must not be NULL with CUSPARSE_ACTION_NUMERIC and nnz > 0");
        }
        check_aligned("csrVal", a.csr_val, value_type.size_bytes())?;
        check_aligned("cscVal", a.csc_val, value_type.size_bytes())?;
    }
    Ok((Plan::Transpose(Layout::of(a.nnz, a.n)), modes))
}

/// `oxsparseCsr2cscEx2_bufferSize`.
pub fn buffer_size(a: &Csr2cscArgs) -> Result<usize> {
    Ok(match plan(a)?.0 {
        Plan::Transpose(l) => l.bytes,
        _ => 0,
    })
}

/// `oxsparseCsr2cscEx2`: enqueues the conversion on the handle's stream.
pub fn csr2csc(h: &Handle, a: &Csr2cscArgs, buffer: u64) -> Result<()> {
    let (plan, modes) = plan(a)?;
    let bytes = match plan {
        Plan::Transpose(l) => l.bytes,
        _ => 0,
    };
    let ws = crate::ops::workspace::start(buffer, bytes, "Csr2cscEx2_bufferSize")?;
    crate::ops::workspace::report(h.settings.print_plan, "Csr2cscEx2", "call", &format_args!("{plan:?}"));
    let base = modes.base.offset();
    let mut p = Csr2cscParams {
        csr_row_ptr: a.csr_row_ptr,
        csr_col_ind: a.csr_col_ind,
        csr_val: a.csr_val,
        csc_val: a.csc_val,
        csc_col_ptr: a.csc_col_ptr,
        csc_row_ind: a.csc_row_ind,
        perm: 0,
        chunk_sums: 0,
        m: a.m,
        n: a.n,
        nnz: a.nnz,
        base,
        chunks: 0,
        long_chunks: k::long_chunks(a.nnz),
        sort_chunk: k::sort_chunk(a.nnz, a.n, h.device_model.sm_count),
        fill: 0,
        numeric: modes.numeric as i32,
    };
    match plan {
        Plan::Nothing => Ok(()),
        Plan::BaseOffsets => {
            p.fill = base as i32;
            k::fill_offsets(h, &p)
        }
        Plan::Transpose(l) => match method(a, &modes, h.settings.convert.csr2csc_radix) {
            Method::Radix { later_counts } => {
                crate::ops::workspace::report(h.settings.print_plan, "Csr2cscEx2", "method", &"radix");
                let q = Csr2cscRadixParams {
                    csr_row_ptr: a.csr_row_ptr,
                    csr_col_ind: a.csr_col_ind,
                    csr_val: a.csr_val,
                    csc_val: a.csc_val,
                    csc_col_ptr: a.csc_col_ptr,
                    csc_row_ind: a.csc_row_ind,
                    m: a.m,
                    n: a.n,
                    nnz: a.nnz,
                    base,
                    numeric: modes.numeric as i32,
                    ..Default::default()
                };
                let arrays = radix::Arrays { perm: ws + l.perm_at as u64, later_counts, side: side_array(a, &modes, later_counts) };
                crate::kernels::graph::batched(h, || radix::transpose(h, &q, arrays, modes.value_type.size_bytes()))
            }
            Method::Atomic => {
                p.perm = ws + l.perm_at as u64;
                p.chunk_sums = ws + l.chunk_sums_at as u64;
                p.chunks = l.chunks;
                crate::kernels::graph::batched(h, || {
                    k::fill_offsets(h, &p)?;
                    k::place_entries(h, &p, modes.value_type.size_bytes())?;
                    k::sort_columns(h, &p, modes.value_type.size_bytes())
                })
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn args(m: i64, n: i64, nnz: i64) -> Csr2cscArgs {
        Csr2cscArgs {
            m,
            n,
            nnz,
            csr_val: 0x1000,
            csr_row_ptr: 0x2000,
            csr_col_ind: 0x3000,
            csc_val: 0x4000,
            csc_col_ptr: 0x5000,
            csc_row_ind: 0x6000,
            val_type: DataType::CUDA_R_32F as i32,
            copy_values: 1,
            idx_base: 0,
            alg: 1,
        }
    }
    fn status(r: Result<(Plan, Modes)>) -> Option<crate::types::Status> {
        r.err().map(|e: Error| e.status())
    }
    use crate::types::Status::*;

    #[test]
    fn scratch_is_four_bytes_an_entry_plus_the_scan() {
        let (p, _) = plan(&args(1000, 3000, 50_000)).unwrap();
        let Plan::Transpose(l) = p else { panic!("{p:?}") };
        assert_eq!(l.chunks, 2, "3001 offsets in chunks of 2048");
        assert_eq!(l.chunk_sums_at, align_up(200_000));
        assert_eq!(l.bytes, ALIGN + align_up(200_000) + ALIGN);
        assert_eq!(buffer_size(&args(1000, 3000, 50_000)).unwrap(), l.bytes);
    }

    #[test]
    fn sort_chunks_follow_the_average_column_and_fill_the_device() {
        let chunks: Vec<i64> = [(1_026_264, 258_569), (667_966, 10_312), (2_118_662, 156_317), (10_556, 2708), (90, 10)]
            .iter()
            .map(|&(nnz, n)| k::sort_chunk(nnz, n, 132))
            .collect();
        assert_eq!(chunks, [256, 16, 128, 8, 8], "mdual, blogcatalog, wave, cora, tiny");
    }

    #[test]
    fn long_chunks_aim_at_2048_entries_within_the_sort_tiers() {
        let chunks: Vec<i64> = [0, 5000, 380_000, 1_000_000, 5_890_944, 15_000_000].iter().map(|&z| k::long_chunks(z)).collect();
        assert_eq!(chunks, [256, 256, 256, 512, 4096, 4096]);
    }

    #[test]
    fn radix_wherever_its_counts_have_room() {
        let modes = |numeric| Modes {
            value_type: DataType::CUDA_R_16F,
            numeric,
            base: IndexBase::OXSPARSE_INDEX_BASE_ZERO,
            alg: Csr2CscAlg::OXSPARSE_CSR2CSC_ALG_DEFAULT,
        };
        let big = args(100_000, 200_000, 1 << 17);
        assert_eq!(method(&big, &modes(true), None), Method::Radix { later_counts: big.csc_val }, "counts in cscVal");
        assert_eq!(method(&big, &modes(false), None), Method::Radix { later_counts: big.csc_col_ptr }, "SYMBOLIC: in cscColPtr");
        let mut odd = big;
        odd.csc_val += 2;
        assert_eq!(method(&odd, &modes(true), None), Method::Radix { later_counts: big.csc_col_ptr }, "cscVal not 4-byte aligned");
        let narrow = args(100_000, 300, 1 << 17);
        assert_eq!(method(&narrow, &modes(false), None), Method::Atomic, "no room: 16,896 words of counts and totals, 301 offsets");
        let small = args(1000, 200, 3000);
        assert_eq!(method(&small, &modes(true), None), Method::Radix { later_counts: 0 }, "one pass");
        assert_eq!(method(&big, &modes(true), Some(false)), Method::Atomic);
        assert_eq!(method(&args(10, 300, 100), &modes(true), Some(true)), Method::Atomic, "256 counts for 100 entries");
    }

    #[test]
    fn empty_shapes_and_no_entries() {
        let mut a = args(0, 5, 0);
        a.csr_row_ptr = 0;
        a.csc_col_ptr = 0;
        assert_eq!(plan(&a).unwrap().0, Plan::Nothing, "m == 0: pointers are not checked");
        assert_eq!(plan(&args(4, 0, 0)).unwrap().0, Plan::Nothing);
        let mut a = args(4, 5, 0);
        (a.csr_val, a.csc_val, a.csr_col_ind, a.csc_row_ind) = (0, 0, 0, 0);
        assert_eq!(plan(&a).unwrap().0, Plan::BaseOffsets);
        assert_eq!(buffer_size(&a).unwrap(), 0);
    }

    #[test]
    fn checks_come_in_order() {
        let mut a = args(-1, 5, 3);
        a.csr_row_ptr = 0;
        a.alg = 9;
        assert_eq!(status(plan(&a)), Some(OXSPARSE_STATUS_INVALID_VALUE), "sizes first");
        let mut a = args(4, 5, 3);
        a.csc_row_ind = 0;
        a.val_type = DataType::CUDA_R_32I as i32;
        assert_eq!(status(plan(&a)), Some(OXSPARSE_STATUS_INVALID_VALUE), "pointers before types");
        for bad in [(99, 1, 0, 1), (0, 2, 0, 1), (0, 1, 2, 1), (0, 1, 0, 0), (0, 1, 0, 3)] {
            let mut a = args(4, 5, 3);
            (a.val_type, a.copy_values, a.idx_base, a.alg) = bad;
            assert_eq!(status(plan(&a)), Some(OXSPARSE_STATUS_INVALID_VALUE), "{bad:?}");
        }
        let mut a = args(4, 5, 3);
        a.val_type = DataType::CUDA_R_32I as i32;
        assert_eq!(status(plan(&a)), Some(OXSPARSE_STATUS_NOT_SUPPORTED));
    }

    #[test]
    fn symbolic_needs_no_values_numeric_does() {
        let mut a = args(4, 5, 3);
        (a.csr_val, a.csc_val, a.copy_values) = (0, 0, 0);
        assert!(plan(&a).is_ok());
        a.copy_values = 1;
        assert_eq!(status(plan(&a)), Some(OXSPARSE_STATUS_INVALID_VALUE));
        let mut a = args(4, 5, 3);
        a.val_type = DataType::CUDA_C_64F as i32;
        a.csc_val = 0x4008;
        assert_eq!(status(plan(&a)), Some(OXSPARSE_STATUS_INVALID_VALUE), "misaligned values");
    }

    #[test]
    fn both_algorithm_values_and_every_listed_type_are_accepted() {
        for alg in [1, 2] {
            for t in DataType::ALL.iter().filter(|t| **t != DataType::CUDA_R_32I) {
                let mut a = args(4, 5, 3);
                (a.alg, a.val_type) = (alg, *t as i32);
                assert!(plan(&a).is_ok(), "{alg} {t:?}");
            }
        }
    }
}
