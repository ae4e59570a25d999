//! One point of SDDMM's parameter matrix (`Case`), its host data and expected C (`Problem`), and
//! sweeps over cases; the calls themselves are `calls`'.

pub use super::calls::*;
use super::gen;
use super::*;
use crate::common::compare::{Tally, Tolerance};
pub use crate::common::sweep::{fit, pick, BASE0, BASE1, COL, DEVICE, H, HOST, I32, I64, N, ROW, SCALARS, T};
use oxsparse::ops::sddmm::tiles;
use oxsparse::reference::sddmm as reference;
use oxsparse::reference::spmm::{BatchedDense, BatchedSparse};
use oxsparse::reference::vector_ops::{Value, ZERO};
use oxsparse::types::{DataType, DataType::*, IndexBase, IndexType, Operation, Order, PointerMode};

/// C's format: CSR, or BSR with blocks of `rb x cb` stored in `order`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fmt {
    Csr,
    Bsr { rb: i64, cb: i64, order: Order },
}

/// C's pattern, over its rows and columns (CSR) or block rows and block columns (BSR).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pattern {
    /// Rows of 0 to about a third of the columns, rows r % 5 == 3 empty.
    Random,
    /// No stored entries.
    Empty,
    /// Every position stored.
    Full,
    /// Rows r % 97 == 5 (`common::hubs::hub`) of this many entries, the others of 0 to 4.
    Hubs(i64),
    /// Sorted rows (the tiles' ground): the columns within w / 2 of the row's place on the
    /// diagonal (a sliding window); with `holes`, each kept with probability 1/2.
    Window { w: i64, holes: bool },
    /// Sorted rows: blocks of b x b, about a third of each block row's blocks kept, and the
    /// diagonal one.
    Blocks(i64),
}

/// How C's batches share their arrays: each its own, the row offsets shared (stride 0), or the
/// whole structure shared (offsets and indices stride 0: BSR only, as CSR's indices and values
/// have one stride).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Share {
    Own,
    Offsets,
    Structure,
}

/// Batch counts of A, B and C, and how C's batches share their structure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Batch {
    pub a: i32,
    pub b: i32,
    pub c: i32,
    pub share: Share,
}
pub const NO_BATCH: Batch = Batch { a: 1, b: 1, c: 1, share: Share::Own };

/// (A and B, C, compute) value types.
pub type Types = (DataType, DataType, DataType);
pub const F32: Types = (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F);
pub const F64: Types = (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F);
/// Every combination SDDMM accepts (src/ops/sddmm/check.rs).
pub const COMBOS: [Types; 8] = oxsparse::ops::sddmm::check::TYPE_COMBINATIONS;

#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub fmt: Fmt,
    pub op_a: Operation,
    pub op_b: Operation,
    /// op(A) is m x k, op(B) k x n, C m x n.
    pub m: i64,
    pub k: i64,
    pub n: i64,
    pub pattern: Pattern,
    pub types: Types,
    pub it: IndexType,
    pub base: IndexBase,
    pub order_a: Order,
    pub order_b: Order,
    /// Elements of padding per line beyond the smallest ld.
    pub pad_a: i64,
    pub pad_b: i64,
    /// Elements the operand's first value lies past a 256-byte aligned allocation (1: every
    /// 16-byte vector load of a line is off).
    pub shift_a: i64,
    pub shift_b: i64,
    pub mode: PointerMode,
    /// Scalars before `fit` to the compute type.
    pub alpha: Value,
    pub beta: Value,
    pub batch: Batch,
    pub preprocess: bool,
    pub seed: u64,
}

impl Case {
    /// Both operands read in place (A row-major, B column-major), FP32, CSR of 32-bit indices
    /// from 0, host scalars with beta != 0.
    pub fn new(fmt: Fmt, (m, k, n): (i64, i64, i64)) -> Case {
        Case {
            fmt,
            op_a: N,
            op_b: N,
            m,
            k,
            n,
            pattern: Pattern::Random,
            types: F32,
            it: I32,
            base: BASE0,
            order_a: ROW,
            order_b: COL,
            pad_a: 0,
            pad_b: 0,
            shift_a: 0,
            shift_b: 0,
            mode: HOST,
            alpha: (1.5, -0.5),
            beta: (-0.75, 0.25),
            batch: NO_BATCH,
            preprocess: false,
            seed: 1,
        }
    }

    /// Stored shapes of A and B.
    pub fn a_shape(&self) -> (i64, i64) {
        crate::common::sweep::stored_shape(self.op_a, (self.m, self.k))
    }
    pub fn b_shape(&self) -> (i64, i64) {
        crate::common::sweep::stored_shape(self.op_b, (self.k, self.n))
    }

    /// Whether op(A)'s rows (op(B)'s columns) lie contiguously in A's (B's) storage, so that the
    /// library reads them in place.
    pub fn in_place(&self) -> (bool, bool) {
        ((self.order_a == ROW) == (self.op_a == N), (self.order_b == COL) == (self.op_b == N))
    }

    pub fn label(&self) -> String {
        let op = |o: Operation| ["N", "T", "H"][o as usize];
        let ord = |o: Order| if o == COL { "col" } else { "row" };
        let (t, ct, comp) = self.types;
        format!(
            "{:?} op {}{} {}x{}x{} {:?} {}/{}/{} i{} base{} A {}+{}>>{} B {}+{}>>{} {:?} alpha {:?} beta {:?} {:?}{} seed {}",
            self.fmt,
            op(self.op_a),
            op(self.op_b),
            self.m,
            self.k,
            self.n,
            self.pattern,
            t.kernel_suffix(),
            ct.kernel_suffix(),
            comp.kernel_suffix(),
            self.it.size_bytes() * 8,
            self.base as i32,
            ord(self.order_a),
            self.pad_a,
            self.shift_a,
            ord(self.order_b),
            self.pad_b,
            self.shift_b,
            self.mode,
            self.alpha,
            self.beta,
            self.batch,
            if self.preprocess { " preprocess" } else { "" },
            self.seed
        )
    }
}

/// C's tolerance (`compare::Tolerance`): 1e-12 of the error scale for FP64 compute, 1e-5 for FP32
/// (k terms summed in FP32: each lane adds at most k / lanes + a few, then a butterfly), plus half
/// an ulp of a 16-bit C: the FP32 result is rounded once into it.
pub fn tolerance((_, c_type, compute): Types) -> Tolerance {
    Tolerance::new(if matches!(compute, CUDA_R_64F | CUDA_C_64F) { 1e-12 } else { 1e-5 }, c_type)
}

/// Host data of one case: A and B (with their bytes), C as the reference holds it (every batch's
/// arrays at their strides, NaN between batches and, when beta == 0, in C itself), C's values as
/// uploaded, and which of them are stored entries (the others lie between batches).
pub struct Problem {
    pub case: Case,
    pub alpha: Value,
    pub beta: Value,
    pub a: BatchedDense,
    pub a_bytes: Vec<u8>,
    pub b: BatchedDense,
    pub b_bytes: Vec<u8>,
    pub c: BatchedSparse,
    pub c_bytes: Vec<u8>,
    pub stored: Vec<bool>,
}

impl Problem {
    pub fn new(case: &Case) -> Problem {
        let mut rng = Rng::new(case.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5DD3);
        let (t, ct, compute) = case.types;
        let (alpha, beta) = (fit(compute, case.alpha), fit(compute, case.beta));
        let (a, a_bytes) = gen::operand(&mut rng, case.a_shape(), case.order_a, case.pad_a, case.batch.a, t);
        let (b, b_bytes) = gen::operand(&mut rng, case.b_shape(), case.order_b, case.pad_b, case.batch.b, t);
        let (mut c, stored) = gen::sparse(&mut rng, case);
        let w = ct.size_bytes() as usize;
        let mut c_bytes = vec![0xFFu8; c.m.values.len() * w];
        for (at, v) in c.m.values.iter_mut().enumerate() {
            if stored[at] && beta != ZERO {
                c_bytes[at * w..(at + 1) * w].copy_from_slice(&encode(ct, &[*v]));
            } else {
                *v = (f64::NAN, f64::NAN);
            }
        }
        Problem { case: *case, alpha, beta, a, a_bytes, b, b_bytes, c, c_bytes, stored }
    }

    /// New values for A, B and C (same layouts), as after the user rewrote them in place; C's
    /// batch gaps keep their poison, and C is poisoned again where beta == 0.
    pub fn renew_values(&mut self, seed: u64) {
        let mut rng = Rng::new(seed);
        let (t, ct, _) = self.case.types;
        let w = ct.size_bytes() as usize;
        for (d, bytes) in [(&mut self.a, &mut self.a_bytes), (&mut self.b, &mut self.b_bytes)] {
            let (shape, count) = ((d.rows, d.cols), d.count as i32);
            (*d, *bytes) = crate::common::gen::dense(&mut rng, shape, d.order, d.ld, count, d.stride, t, true);
        }
        let fresh = crate::common::values::random(&mut rng, ct, self.stored.len());
        for at in (0..self.stored.len()).filter(|&at| self.stored[at]) {
            let v = if self.beta == ZERO { (f64::NAN, f64::NAN) } else { fresh[at] };
            self.c.m.values[at] = v;
            let bytes = if self.beta == ZERO { vec![0xFF; w] } else { encode(ct, &[v]) };
            self.c_bytes[at * w..(at + 1) * w].copy_from_slice(&bytes);
        }
    }

    /// The expected values array of C and the error scale of each value.
    pub fn expected(&self) -> (Vec<Value>, Vec<f64>) {
        let (op_a, op_b) = (self.case.op_a, self.case.op_b);
        let mut c = self.c.clone();
        reference::sddmm(op_a, op_b, self.alpha, &self.a, &self.b, self.beta, &mut c);
        let scale = reference::error_scale(op_a, op_b, self.alpha, &self.a, &self.b, self.beta, &self.c);
        (c.m.values, scale)
    }

    /// `got` (C's values after a call) against the reference: every stored value within the
    /// tolerance, every value between batches as uploaded.
    pub fn check(&self, got: &[u8]) -> Result<(), String> {
        self.check_except(got, |_| false)
    }

    /// `check`, without comparing the stored values `skip` names (their bytes may be anything).
    pub fn check_except(&self, got: &[u8], skip: impl Fn(usize) -> bool) -> Result<(), String> {
        let (want, scale) = self.expected();
        let ct = self.case.types.1;
        let w = ct.size_bytes() as usize;
        if got.len() != self.c_bytes.len() {
            return Err(format!("C has {} value bytes, expected {}", got.len(), self.c_bytes.len()));
        }
        let tol = tolerance(self.case.types);
        let mut tally = Tally::default();
        for at in 0..want.len() {
            let g = &got[at * w..(at + 1) * w];
            if !self.stored[at] {
                if g != &self.c_bytes[at * w..(at + 1) * w] {
                    return Err(format!("C's value slot {at}, between batches, was written"));
                }
            } else if !skip(at) {
                tally.check(&tol, decode_element(ct, g), want[at], scale[at], || self.name(at));
            }
        }
        tally.result()
    }

    /// "C value at (batch b, value q)".
    fn name(&self, at: usize) -> String {
        let stride = self.c.batch.values_stride.max(1) as usize;
        let (b, q) = if self.c.batch.count > 1 { (at / stride, at % stride) } else { (0, at) };
        format!("C value {at} (batch {b}, value {q})")
    }

    /// Whether a workspace size fits the contract: 0 when both operands are read in place, more
    /// when one is not and there are products of k > 1 terms to form.
    pub fn check_buffer_size(&self, size: usize) -> Result<(), String> {
        let c = &self.case;
        let (a_in, b_in) = c.in_place();
        let products = c.k > 1 && c.m > 0 && c.n > 0 && self.stored.iter().any(|&s| s);
        // In place, the workspace holds at most the tiles' survey (src/ops/sddmm/tiles.rs).
        let survey_only = oxsparse::ops::workspace::align_up(tiles::SURVEY_BYTES) + oxsparse::ops::workspace::ALIGN;
        if a_in && b_in && size != 0 && size != survey_only {
            return Err(format!("bufferSize {size} though A and B are read in place"));
        }
        if products && !(a_in && b_in) && size == 0 {
            return Err(format!("bufferSize 0 though {} must be copied", if a_in { "B" } else { "A" }));
        }
        Ok(())
    }
}

pub fn run_case(h: &CHandle, case: &Case) -> Result<(), String> {
    let p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    p.check(&run(h, &p, &g, case.preprocess)?)
}

/// Runs every case (a SKIP line without a GPU) and fails listing the first failures.
pub fn sweep(test: &str, cases: &[Case]) {
    sweep_with(test, cases, run_case);
}

/// `sweep` with another check than the reference comparison of one call.
pub fn sweep_with(test: &str, cases: &[Case], check: impl Fn(&CHandle, &Case) -> Result<(), String>) {
    crate::common::sweep::sweep(test, cases, Case::label, check);
}

/// `c` with the parameters a group does not cross drawn (seeded by `i`, independently of the
/// loops that made `c`): scalars (beta == 0 and beta == 1 among them), index type, base, pointer
/// mode, padding of A and B, preprocess or not.
pub fn vary(c: Case, i: usize) -> Case {
    let mut rng = Rng::new(0x5DD_0000 ^ i as u64);
    let mut choose = |n: usize| rng.below(n as u64) as usize;
    let (alpha, beta) = SCALARS[choose(3)];
    let pads = [0, 1, 5, 8];
    Case {
        alpha,
        beta,
        it: [I32, I64][choose(2)],
        base: [BASE0, BASE1][choose(2)],
        mode: [HOST, DEVICE][choose(2)],
        pad_a: pads[choose(4)],
        pad_b: pads[choose(4)],
        preprocess: choose(2) == 1,
        seed: i as u64,
        ..c
    }
}
