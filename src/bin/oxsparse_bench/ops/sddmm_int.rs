//! SDDMM-int (issue 60): at every entry of a DLMC-like mask (SpMM-int's weight matrices: vectors of
//! 8 rows sharing their columns, Transformer and ResNet-50 layer shapes, 70/90/98% sparse), the
//! dot product of A's row (m x K) and B's column (K x cols), alpha = 1, beta = 0, at K = 64 and
//! 256, in the same process:
//!
//! * oxsparse: its SR-BCRS object of the mask (vector length 8; its creation is the preprocess,
//!   timed once per copy after one untimed creation) and `oxsparseSDDMM_srBcrs`, int8 A row-major
//!   and B column-major, int32 output over the object's slots;
//! * oxsparse's own FP16 CSR SDDMM (`oxsparseSDDMM`) on the same mask and K: the same int8 values
//!   as FP16 (exact), C and compute FP32, A row-major, B column-major. Reported beside the int8
//!   path as a yardstick (the "x FP16" column: its time over SR-BCRS's; issue 60 asks for 2x), not
//!   in the speedup;
//! * cuSPARSE's CSR SDDMM in FP16 (A and B FP16, C and compute FP32) and in FP32: the speedup is
//!   against the faster. cuSPARSE may refuse FP16 SDDMM; that is reported as unsupported.
//!
//! Every result is checked: the int8 one exactly against the i64 dot products (padding slots 0),
//! the floating ones within 1e-5 of sum |a b| (their sums are integers below 2^24, so exact in
//! practice). GB/s are against the mask as CSR, its output values, A and B once; GFLOP/s count the
//! 2 nnz K integer operations.

use super::prepare::{self, Preprocess};
use super::spmm_int::{dlmc, BLOCK, SHAPES, SPARSITIES, V};
use super::VectorOp;
use crate::api::{
    Descr, Lib, MmArgs, MmDescrs, SrBcrs, BASE_ZERO, INDEX_32I, ORDER_COL, ORDER_ROW, R_16F, R_32F, R_32I, R_8I, SDDMM_DEFAULT,
};
use crate::case::{Call, Case, Checker, Info, Prepared, Variant};
use crate::device::DevBuf;
use crate::half;
use crate::par;
use crate::report::Check;
use crate::timing::{median, time_once};
use crate::Result;
use dlmc::IntCsr;
use oxsparse::ffi::oxsparseHandle_t;
use oxsparse::reference::srbcrs::{CsrInt, SrBcrsHost};
use oxsparse::reference::srbcrs_sddmm::mask_csr;
use std::cell::Cell;
use std::ffi::{c_int, c_void};

pub const NAME: &str = "SDDMM-int";
pub const OP: VectorOp = VectorOp { name: NAME, cases };

/// The reduction depths: a head's width, and a batch of tokens as SpMM-int's N.
const KS: [usize; 2] = [64, 256];
/// Written over the outputs before a checked call: 0x7F7F7F7F, far from any result (and a finite
/// FP32).
const POISON_BYTE: u8 = 0x7F;
/// The label of oxsparse's FP16 CSR SDDMM: a yardstick, not oxsparse's time.
pub const OX_FP16: &str = "oxsparse FP16 CSR";

static ONE: i32 = 1;
static ZERO: i32 = 0;
static ONE_F32: f32 = 1.0;
static ZERO_F32: f32 = 0.0;

/// How a variant runs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Path {
    /// int8 A and B, the SR-BCRS object as the mask, int32 slots.
    SrBcrs,
    /// The mask as CSR with FP32 values; A and B FP16 or FP32.
    CsrF16,
    CsrF32,
}

const fn variant(label: &'static str, code: c_int, extra: bool) -> Variant {
    Variant { label, code, extra }
}

const OXSPARSE: [Variant; 2] = [variant("SR-BCRS V=8", 0, false), variant(OX_FP16, 1, true)];
const CUSPARSE: [Variant; 2] = [variant("CSR FP16", 1, false), variant("CSR FP32", 2, false)];

fn path(v: Variant) -> Path {
    match v.code {
        0 => Path::SrBcrs,
        1 => Path::CsrF16,
        _ => Path::CsrF32,
    }
}

/// Every shape at every sparsity and K; with `--quick` the first shape only.
fn cases(quick: bool) -> Vec<Box<dyn Case>> {
    let shapes = if quick { &SHAPES[..1] } else { &SHAPES[..] };
    let mut v: Vec<Box<dyn Case>> = Vec::new();
    for &(layer, m, n) in shapes {
        for &k in &KS {
            for &pct in &SPARSITIES {
                let keep = dlmc::kept_columns(n, pct, BLOCK);
                v.push(Box::new(SddmmInt { layer, m, n, k, pct, keep, host: None, copies: Vec::new(), current: Cell::new(None) }));
            }
        }
    }
    v
}

struct SddmmInt {
    layer: &'static str,
    /// The mask's rows and columns (the layer's), and the reduction depth.
    m: usize,
    n: usize,
    k: usize,
    pct: usize,
    /// Columns kept by every row.
    keep: usize,
    host: Option<Host>,
    copies: Vec<Operands>,
    /// The variant last prepared: the one `check` reads the output of.
    current: Cell<Option<Variant>>,
}

struct Host {
    /// The exact dot product and sum |a b| of every mask entry, in CSR order.
    want: Vec<i32>,
    bound: Vec<i32>,
    /// Each CSR entry's slot in the object's value order, and the object's slot count.
    slot: Vec<usize>,
    slots: usize,
}

struct Operands {
    offsets: DevBuf,
    columns: DevBuf,
    values: DevBuf,
    /// A (m x K row-major) and B (K x n column-major) in int8, FP16 and FP32.
    a: [DevBuf; 3],
    b: [DevBuf; 3],
    /// The int32 slots; the CSR paths' FP32 values.
    out: DevBuf,
    c_f32: DevBuf,
}

impl SddmmInt {
    fn nnz(&self) -> usize {
        self.m * self.keep
    }

    fn seed(&self) -> u64 {
        0x5DD1 ^ ((self.m as u64) << 40) ^ ((self.n as u64) << 20) ^ ((self.k as u64) << 8) ^ self.pct as u64
    }

    /// `lib`'s CSR descriptor of the mask over copy `o` (int8 values for the object, FP32 for
    /// the CSR SDDMM's output).
    fn csr<'a>(&self, lib: Lib<'a>, o: &Operands, int8: bool) -> Result<Descr<'a>> {
        let (m, n, nnz) = (self.m as i64, self.n as i64, self.nnz() as i64);
        let (values, t) = if int8 { (o.values.ptr, R_8I) } else { (o.c_f32.ptr, R_32F) };
        lib.create_csr(m, n, nnz, o.offsets.ptr, o.columns.ptr, values, INDEX_32I, INDEX_32I, BASE_ZERO, t)
    }

    /// A (row-major) and B (column-major) of precision `i` (0 int8, 1 FP16, 2 FP32).
    fn dense<'a>(&self, lib: Lib<'a>, o: &Operands, i: usize) -> Result<(Descr<'a>, Descr<'a>)> {
        let (m, n, k) = (self.m as i64, self.n as i64, self.k as i64);
        let t = [R_8I, R_16F, R_32F][i];
        Ok((lib.create_dn_mat(m, k, k, o.a[i].ptr, t, ORDER_ROW)?, lib.create_dn_mat(k, n, k, o.b[i].ptr, t, ORDER_COL)?))
    }

    /// oxsparse's int8 path: an SR-BCRS object per copy (its creation timed as the preprocess).
    fn prepare_srbcrs<'s>(&'s self, lib: Lib<'s>, h: oxsparseHandle_t) -> Result<Prepared<'s>> {
        let host = self.host.as_ref().ok_or("SDDMM-int prepared before its inputs were made")?;
        let vl = V as c_int;
        let scalars = (&ONE as *const i32 as *const c_void, &ZERO as *const i32 as *const c_void);
        // Untimed first: module loading stays out of the times.
        drop(SrBcrs::create(h, &self.csr(lib, &self.copies[0], true)?, vl)?);
        let mut times = Vec::with_capacity(self.copies.len());
        let mut calls: Vec<Call<'s>> = Vec::with_capacity(self.copies.len());
        for o in &self.copies {
            let mask = self.csr(lib, o, true)?;
            let (a, b) = self.dense(lib, o, 0)?;
            let out = lib.create_dn_vec(host.slots as i64, o.out.ptr, R_32I)?;
            let mut made = None;
            times.push(time_once(|| {
                made = Some(SrBcrs::create(h, &mask, vl)?);
                Ok(())
            })?);
            let object = made.ok_or("oxsparseCreateSrBcrs made nothing")?;
            if object.vectors()? as usize * V != host.slots {
                return Err(format!("the object stores {} slots, the host layout {}", object.vectors()? as usize * V, host.slots));
            }
            object.sddmm_prepare(h, scalars, (&a, &b), &out, R_32I)?;
            calls.push(Box::new(move || object.sddmm(h, scalars, (&a, &b), &out, R_32I)));
        }
        Ok(Prepared { calls, resets: Vec::new(), keep: Vec::new(), preprocess_ms: Some(median(&times)) })
    }

    /// A CSR SDDMM (either library) in FP16 or FP32, FP32 C and compute, preprocessed per copy.
    fn prepare_csr<'s>(&'s self, lib: Lib<'s>, p: Path) -> Result<Prepared<'s>> {
        let i = if p == Path::CsrF16 { 1 } else { 2 };
        let sets = self
            .copies
            .iter()
            .map(|o| {
                let (a, b) = self.dense(lib, o, i)?;
                Ok(MmDescrs { a, b, c: self.csr(lib, o, false)? })
            })
            .collect::<Result<Vec<_>>>()?;
        let run = move |d: &MmDescrs<'s>, buffer: u64| lib.sddmm_preprocess(&args(d), buffer);
        prepare::with_workspaces(
            sets,
            |d| lib.sddmm_buffer_size(&args(d)),
            Some(Preprocess { run: &run, min_samples: 1 }),
            move |d, buffer| lib.sddmm(&args(d), buffer),
        )
    }
}

/// A CSR SDDMM's arguments: alpha = 1, beta = 0, FP32 compute, the default algorithm.
fn args<'d, 'a>(d: &'d MmDescrs<'a>) -> MmArgs<'d, 'a> {
    d.args((&ONE_F32 as *const f32 as *const c_void, &ZERO_F32 as *const f32 as *const c_void), R_32F, SDDMM_DEFAULT)
}

/// The exact dot products and sums of |a b| at the mask's entries: A m x k row-major, B k x n
/// column-major (both lines k-contiguous).
fn reference(mask: &IntCsr, a: &[i8], b_col: &[i8], k: usize) -> (Vec<i32>, Vec<i32>) {
    let rows: Vec<(Vec<i32>, Vec<i32>)> = par::map(mask.rows, |r| {
        let entries = mask.offsets[r] as usize..mask.offsets[r + 1] as usize;
        let a_row = &a[r * k..(r + 1) * k];
        mask.columns[entries]
            .iter()
            .map(|&c| {
                let b_col = &b_col[c as usize * k..(c as usize + 1) * k];
                let dot = a_row.iter().zip(b_col).map(|(&x, &y)| x as i32 * y as i32);
                let abs = a_row.iter().zip(b_col).map(|(&x, &y)| (x as i32 * y as i32).abs());
                (dot.sum::<i32>(), abs.sum::<i32>())
            })
            .unzip()
    });
    let (mut want, mut bound) = (Vec::with_capacity(mask.nnz()), Vec::with_capacity(mask.nnz()));
    for (w, b) in rows {
        want.extend(w);
        bound.extend(b);
    }
    (want, bound)
}

impl Case for SddmmInt {
    fn info(&self) -> Info {
        let (m, n, k, nnz) = (self.m as u64, self.n as u64, self.k as u64, self.nnz() as u64);
        let mask = 4 * (m + 1) + 4 * nnz;
        // Per copy: the mask's offsets, columns, int8 and FP32 values; A and B in 1 + 2 + 4 bytes;
        // the int32 slots (the object pads each vector row to 32 vectors) and FP32 values.
        let slots = m * self.keep.div_ceil(32) as u64 * 32;
        Info {
            op: NAME,
            variant: format!("int8 -> int32, K={k}, {}% sparse, V={V}", self.pct),
            input: format!("{} {m}x{n}, {} of {n} columns a row", self.layer, self.keep),
            group: "DLMC-like".into(),
            rows: m,
            cols: n,
            nnz,
            traffic_bytes: mask + 4 * nnz + (m + n) * k,
            copy_bytes: mask + 5 * nnz + 7 * (m + n) * k + 4 * slots,
            flops: 2 * nnz * k,
            set: "generated",
            summary_groups: vec![format!("int8 SDDMM K={k}, 70/90/98% sparse"), format!("int8 SDDMM K={k}, {}% sparse", self.pct)],
            chart_series: None,
        }
    }

    fn variants(&self, lib: Lib) -> Vec<Variant> {
        match lib {
            Lib::Ox(_) => OXSPARSE.to_vec(),
            Lib::Cu(_) => CUSPARSE.to_vec(),
        }
    }

    fn alloc(&mut self, copies: usize) -> Result<()> {
        let (m, n, k, seed) = (self.m, self.n, self.k, self.seed());
        let mask = dlmc::vector_sparse(m, n, V, self.keep, seed);
        let a = dlmc::dense(m, k, seed ^ 0xA);
        let b_col = dlmc::column_major(&dlmc::dense(k, n, seed ^ 0xB), k, n);
        let (want, bound) = reference(&mask, &a, &b_col, k);
        // The object's layout on the host: where each mask entry's slot lies.
        let i64s = |v: &[i32]| v.iter().map(|&x| x as i64).collect::<Vec<i64>>();
        let (ptr, ind) = (i64s(&mask.offsets), i64s(&mask.columns));
        let values: Vec<i16> = mask.values.iter().map(|&x| x as i16).collect();
        let layout = SrBcrsHost::from_csr(&CsrInt { rows: m, cols: n, row_ptr: &ptr, col_ind: &ind, values: &values }, V, 8);
        // Every stored vector's V rows: the object's slots.
        let slot_count = layout.vec_col.len() * V;
        let slots = mask_csr(&layout);
        if slots.row_ptr != ptr || slots.col_ind != ind {
            return Err("the SR-BCRS mask differs from the CSR one (rows of a vector not sharing their columns)".into());
        }
        let half = |v: &[i8]| v.iter().map(|&x| half::from_f32(x as f32)).collect::<Vec<u16>>();
        let float = |v: &[i8]| v.iter().map(|&x| x as f32).collect::<Vec<f32>>();
        for _ in 0..copies {
            self.copies.push(Operands {
                offsets: DevBuf::upload(&mask.offsets)?,
                columns: DevBuf::upload(&mask.columns)?,
                values: DevBuf::upload(&mask.values)?,
                a: [DevBuf::upload(&a)?, DevBuf::upload(&half(&a))?, DevBuf::upload(&float(&a))?],
                b: [DevBuf::upload(&b_col)?, DevBuf::upload(&half(&b_col))?, DevBuf::upload(&float(&b_col))?],
                out: DevBuf::new(4 * slot_count)?,
                c_f32: DevBuf::new(4 * mask.nnz())?,
            });
        }
        self.host = Some(Host { want, bound, slot: slots.slot, slots: slot_count });
        Ok(())
    }

    fn prepare<'s>(&'s self, lib: Lib<'s>, v: Variant) -> Result<Prepared<'s>> {
        self.current.set(Some(v));
        match (lib, path(v)) {
            (Lib::Ox(h), Path::SrBcrs) => self.prepare_srbcrs(lib, h),
            (_, p) => self.prepare_csr(lib, p),
        }
    }

    fn poison(&self) -> Result<()> {
        self.copies[0].out.fill(POISON_BYTE)?;
        self.copies[0].c_f32.fill(POISON_BYTE)
    }

    fn check(&self, _lib: Lib) -> Result<Check> {
        let host = self.host.as_ref().ok_or("SDDMM-int checked before its inputs were made")?;
        let o = &self.copies[0];
        let mut checker = Checker::new();
        if self.current.get().map(path) == Some(Path::SrBcrs) {
            let got: Vec<i32> = o.out.download(host.slots)?;
            let mut stored = vec![false; host.slots];
            for (e, &s) in host.slot.iter().enumerate() {
                stored[s] = true;
                checker.value(got[s], host.want[e] as f64, 0.0, || format!("entry {e} (slot {s})"));
            }
            // Padding slots: written 0.
            for (s, _) in stored.iter().enumerate().filter(|(_, &st)| !st) {
                checker.value(got[s], 0.0, 0.0, || format!("padding slot {s}"));
            }
        } else {
            let got: Vec<f32> = o.c_f32.download(self.nnz())?;
            for (e, &g) in got.iter().enumerate() {
                checker.summed(g, host.want[e] as f64, host.bound[e] as f64, 1e-5, 0.0, || format!("entry {e}"));
            }
        }
        Ok(checker.finish(None))
    }

    fn refused(&self, lib: &str, error: &str) -> bool {
        lib == "cuSPARSE" && error.contains("failed: CUSPARSE_STATUS_") && self.current.get().map(path) == Some(Path::CsrF16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_cases_and_their_figures() {
        let cs = cases(false);
        assert_eq!(cs.len(), SHAPES.len() * KS.len() * SPARSITIES.len());
        assert_eq!(cases(true).len(), KS.len() * SPARSITIES.len());
        let i = cs[1].info();
        assert_eq!((i.op, i.rows, i.cols, i.nnz), (NAME, 1024, 1024, 1024 * 96));
        assert_eq!(i.variant, "int8 -> int32, K=64, 90% sparse, V=8");
        assert_eq!(i.flops, 2 * 1024 * 96 * 64);
        assert_eq!(i.traffic_bytes, 4 * 1025 + 8 * 1024 * 96 + 2048 * 64);
        for c in &cs {
            assert!(c.info().copy_bytes < 64 << 20, "{}: small enough to rotate among many copies", c.info().input);
        }
    }

    #[test]
    fn the_variants_and_their_paths() {
        assert_eq!(OXSPARSE.map(path), [Path::SrBcrs, Path::CsrF16]);
        assert_eq!(CUSPARSE.map(path), [Path::CsrF16, Path::CsrF32]);
        assert!(OXSPARSE[1].extra && OXSPARSE[1].label == OX_FP16, "oxsparse's FP16 is a yardstick, not its time");
    }

    #[test]
    fn the_reference_is_the_dot_product_at_each_entry() {
        let mask = dlmc::vector_sparse(16, 40, V, 16, 3);
        let (k, a, b) = (5, dlmc::dense(16, 5, 4), dlmc::dense(5, 40, 5));
        let b_col = dlmc::column_major(&b, k, 40);
        let (want, bound) = reference(&mask, &a, &b_col, k);
        for r in 0..16 {
            for e in mask.offsets[r] as usize..mask.offsets[r + 1] as usize {
                let c = mask.columns[e] as usize;
                let dot: i32 = (0..k).map(|t| a[r * k + t] as i32 * b[t * 40 + c] as i32).sum();
                assert_eq!(want[e], dot);
                assert!(bound[e] >= dot.abs());
            }
        }
    }
}
