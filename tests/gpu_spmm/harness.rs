//! One point of the parameter matrix (`Case`), its host data and expected C (`Problem`), its upload
//! through the exported descriptor functions (`Gpu`), and SpMM runs through the exported C API.

pub use super::calls::*;
use super::gen;
use super::*;
use crate::common::compare::Tally;
use crate::common::descr::{create_sparse, dn_mat, upload_arrays};
pub use crate::common::sweep::{fit, pick, BASE0, BASE1, COL, DEVICE, H, HOST, I32, I64, N, ROW, SCALARS, T};
use oxsparse::descr::FormatInfo;
use oxsparse::ffi::descr_dense::*;
use oxsparse::ffi::descr_sparse::*;
use oxsparse::ffi::descr_sparse_access::{oxsparseCooSetStridedBatch, oxsparseCsrSetStridedBatch};
use oxsparse::ffi::*;
use oxsparse::reference::spmm::{self as reference, BatchedDense, BatchedSparse};
use oxsparse::reference::vector_ops::{Value, ZERO};
use oxsparse::types::{DataType, DataType::*, IndexBase, IndexType, MathMode, Operation, Order, PointerMode, ReorderMode, SpMMAlg};
use std::ptr::null_mut;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fmt {
    Csr,
    Csc,
    Coo,
    /// BSR with blocks stored in this order.
    Bsr(Order),
    Bell,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pattern {
    /// About a quarter full, rows r % 5 == 3 empty (Blocked-ELL: some empty slots).
    Random,
    /// No stored entries.
    Empty,
    /// This many entries in the middle row, 0 to 3 in the others.
    HeavyRow(i64),
    /// Every row has one entry, all in the middle column.
    OneColumn,
    /// Every position holds an entry (rows of a window share all their columns: the tensor
    /// cores' best case).
    Dense,
    /// Row lengths max / (rank + 1) over a random ranking of the rows (a power-law graph's: a few
    /// long rows, many short ones).
    Skewed(i64),
    /// Rows fall at random into groups of 8, each holding all of its own columns (disjoint
    /// ranges). Stored order hides the groups (~1 entry per (8-row window, column)); data-affinity
    /// reordering finds them: with rows a multiple of 8, every window is one group (8 entries per
    /// pair, past the tensor cores' threshold).
    ShuffledGroups,
    /// A band of this many entries a row around the diagonal, its rows stored in a shuffled
    /// order: rows that share B rows lie far apart as stored (the row-order model's case).
    ShuffledBand(i64),
    /// The band with rows and columns renumbered by one shuffle (square: a mesh numbered without
    /// locality), whose own graph the row-order model walks.
    ShuffledMesh(i64),
}

/// Batch counts of A, B and C; `shared` gives CSR batches one row-offsets array (stride 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Batch {
    pub a: i32,
    pub b: i32,
    pub c: i32,
    pub shared: bool,
}
pub const NO_BATCH: Batch = Batch { a: 1, b: 1, c: 1, shared: false };

/// (A and B, C, compute) value types.
pub type Types = (DataType, DataType, DataType);
pub const F32: Types = (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F);

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
    pub order_b: Order,
    pub order_c: Order,
    /// Elements of padding per line beyond the smallest valid ld.
    pub pad_b: i64,
    pub pad_c: i64,
    pub mode: PointerMode,
    /// Scalars before `fit` to the compute type.
    pub alpha: Value,
    pub beta: Value,
    pub alg: SpMMAlg,
    pub batch: Batch,
    pub preprocess: bool,
    /// The handle's math mode (tensor cores for FP32 when not the default).
    pub math: MathMode,
    /// The handle's reorder mode (preprocess may reorder rows for tensor cores).
    pub reorder: ReorderMode,
    /// BSR block (rows, cols) or Blocked-ELL block size (twice), when not drawn by `blocks`.
    pub block: Option<(i64, i64)>,
    pub seed: u64,
}

impl Case {
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
            order_b: COL,
            order_c: COL,
            pad_b: 0,
            pad_c: 0,
            mode: HOST,
            alpha: (1.5, -0.5),
            beta: (-0.75, 0.25),
            alg: SpMMAlg::OXSPARSE_SPMM_ALG_DEFAULT,
            batch: NO_BATCH,
            preprocess: false,
            math: MathMode::OXSPARSE_DEFAULT_MATH,
            reorder: ReorderMode::OXSPARSE_REORDER_NONE,
            block: None,
            seed: 1,
        }
    }

    /// Stored shape of A and of B.
    pub fn a_shape(&self) -> (i64, i64) {
        crate::common::sweep::stored_shape(self.op_a, (self.m, self.k))
    }
    pub fn b_shape(&self) -> (i64, i64) {
        crate::common::sweep::stored_shape(self.op_b, (self.k, self.n))
    }

    /// BSR block (rows, cols), or the Blocked-ELL block size twice: the first of 2, 3, 4 (in an
    /// order rotated by the seed) that divides the shape, else 1; BSR block columns skip the
    /// rotation's first size, so that blocks tend to be rectangular; `block` when set.
    pub fn blocks(&self) -> (i64, i64) {
        if let Some(block) = self.block {
            return block;
        }
        let (rows, cols) = self.a_shape();
        let mut ds = [2, 3, 4];
        ds.rotate_left(self.seed as usize % 3);
        let first = |ok: &dyn Fn(i64) -> bool| ds.iter().copied().find(|&d| ok(d)).unwrap_or(1);
        match self.fmt {
            Fmt::Bell => {
                let bs = first(&|d| rows % d == 0 && cols % d == 0);
                (bs, bs)
            }
            _ => (first(&|d| rows % d == 0), first(&|d| cols % d == 0 && d != ds[0])),
        }
    }

    /// A short description for failure messages.
    pub fn label(&self) -> String {
        let op = |o: Operation| ["N", "T", "H"][o as usize];
        let ord = |o: Order| if o == COL { "col" } else { "row" };
        let (t, ct, comp) = self.types;
        let alg = format!("{:?}", self.alg).replace("OXSPARSE_SPMM_", "");
        format!(
            "{:?}{} op {}{} {}x{}x{} {:?} {}/{}/{} i{} base{} B {}+{} C {}+{} {:?} alpha {:?} beta {:?} {alg} {:?}{} {:?} {:?} seed {}",
            self.fmt,
            self.block.map_or(String::new(), |b| format!(" block {}x{}", b.0, b.1)),
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
            ord(self.order_b),
            self.pad_b,
            ord(self.order_c),
            self.pad_c,
            self.mode,
            self.alpha,
            self.beta,
            self.batch,
            if self.preprocess { " preprocess" } else { "" },
            self.math,
            self.reorder,
            self.seed
        )
    }
}

/// Host data of one case.
pub struct Problem {
    pub case: Case,
    pub alpha: Value,
    pub beta: Value,
    pub a: BatchedSparse,
    pub b: BatchedDense,
    pub b_bytes: Vec<u8>,
    pub c: BatchedDense,
    pub c_bytes: Vec<u8>,
}

impl Problem {
    pub fn new(case: &Case) -> Problem {
        let mut rng = Rng::new(case.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x5EED);
        let (t, ct, compute) = case.types;
        let (alpha, beta) = (fit(compute, case.alpha), fit(compute, case.beta));
        let a = gen::sparse(&mut rng, case);
        let (b, b_bytes) = gen::dense(&mut rng, case.b_shape(), case.order_b, case.pad_b, case.batch.b, t, true);
        let (c, c_bytes) = gen::dense(&mut rng, (case.m, case.n), case.order_c, case.pad_c, case.batch.c, ct, beta != ZERO);
        Problem { case: *case, alpha, beta, a, b, b_bytes, c, c_bytes }
    }

    /// New values for A (same pattern), as after the user rewrote them in place.
    pub fn renew_a_values(&mut self, seed: u64) {
        let mut rng = Rng::new(seed);
        let fresh = gen::random(&mut rng, self.case.types.0, self.a.m.values.len());
        self.a.m.values = fresh;
    }

    /// The expected C buffer and the error scale of each entry.
    pub fn expected(&self) -> (Vec<Value>, Vec<f64>) {
        let (op_a, op_b) = (self.case.op_a, self.case.op_b);
        let mut c = self.c.clone();
        reference::spmm(op_a, op_b, self.alpha, &self.a, &self.b, self.beta, &mut c);
        let scale = reference::error_scale(op_a, op_b, self.alpha, &self.a, &self.b, self.beta, &self.c);
        (c.values, scale)
    }

    /// `got` (C's bytes after the run) against the reference; padding must keep its bytes.
    pub fn check(&self, got: &[u8]) -> Result<(), String> {
        let (want, scale) = self.expected();
        let (_, ct, compute) = self.case.types;
        let w = ct.size_bytes() as usize;
        if got.len() != self.c_bytes.len() {
            return Err(format!("C has {} bytes, expected {}", got.len(), self.c_bytes.len()));
        }
        let tol = tolerance(ct, compute, self.case.math, self.case.types);
        let mut logical = vec![false; want.len()];
        let mut tally = Tally::default();
        for b in 0..self.c.count {
            for i in 0..self.c.rows {
                for j in 0..self.c.cols {
                    let at = self.c.index(b, i, j);
                    logical[at] = true;
                    let g = decode_element(ct, &got[at * w..(at + 1) * w]);
                    tally.check(&tol, g, want[at], scale[at], || format!("C[batch {b}][{i}][{j}]"));
                }
            }
        }
        tally.result()?;
        match (0..want.len()).find(|&at| !logical[at] && got[at * w..(at + 1) * w] != self.c_bytes[at * w..(at + 1) * w]) {
            Some(at) => Err(format!("C element {at} outside the matrices (padding) was written")),
            None => Ok(()),
        }
    }
}

/// A problem on the device: A's arrays, B and C, and their descriptors.
pub struct Gpu {
    pub a_arrays: [DevBuf; 3],
    pub b_buf: DevBuf,
    pub c_buf: DevBuf,
    pub a: oxsparseSpMatDescr_t,
    pub b: oxsparseDnMatDescr_t,
    pub c: oxsparseDnMatDescr_t,
}

impl Drop for Gpu {
    fn drop(&mut self) {
        unsafe {
            oxsparseDestroySpMat(self.a);
            oxsparseDestroyDnMat(self.b);
            oxsparseDestroyDnMat(self.c);
        }
    }
}

impl Gpu {
    pub fn upload(p: &Problem) -> Result<Gpu, String> {
        let (case, a) = (&p.case, &p.a.m);
        let a_arrays = upload_arrays(a, case.types.0, case.it);
        let b_buf = DevBuf::from_slice(&p.b_bytes);
        let c_buf = DevBuf::from_slice(&p.c_bytes);
        let mut g = Gpu { a_arrays, b_buf, c_buf, a: null_mut(), b: null_mut(), c: null_mut() };
        unsafe {
            expect(create_sparse(&mut g.a, a, &g.a_arrays, p.a.nnz, (case.types.0, case.it, case.base)), "creating A")?;
            let sb = p.a.batch;
            if sb.count > 1 {
                let s = match a.format {
                    FormatInfo::Coo => oxsparseCooSetStridedBatch(g.a, sb.count, sb.indices_stride),
                    _ => oxsparseCsrSetStridedBatch(g.a, sb.count, sb.offsets_stride, sb.indices_stride),
                };
                expect(s, "setting A's strided batch")?;
            }
            g.b = dn_mat(&p.b, g.b_buf.ptr, case.types.0)?;
            g.c = dn_mat(&p.c, g.c_buf.ptr, case.types.1)?;
        }
        Ok(g)
    }

    pub fn args(&self, p: &Problem, alpha: &Scalar, beta: &Scalar) -> Args {
        let c = &p.case;
        Args {
            op_a: c.op_a as i32,
            op_b: c.op_b as i32,
            alpha: alpha.ptr(),
            a: self.a,
            b: self.b,
            beta: beta.ptr(),
            c: self.c,
            compute: c.types.2 as i32,
            alg: c.alg as i32,
        }
    }

    /// Uploads `p`'s A values, B and C again (same buffers, same descriptors).
    pub fn rewrite(&self, p: &Problem) {
        write(&self.a_arrays[2], &encode(p.case.types.0, &p.a.m.values));
        write(&self.b_buf, &p.b_bytes);
        write(&self.c_buf, &p.c_bytes);
    }
}

/// Scalars of `p` in its pointer mode (the handle is switched to it).
pub fn scalars(h: &CHandle, p: &Problem) -> (Scalar, Scalar) {
    h.set_mode(p.case.mode);
    h.set_math(p.case.math);
    h.set_reorder(p.case.reorder);
    let compute = p.case.types.2;
    (Scalar::new(p.case.mode, compute, p.alpha), Scalar::new(p.case.mode, compute, p.beta))
}

/// One SpMM on a fresh copy of C: bufferSize, a poisoned workspace of that size, preprocess when
/// asked, SpMM. Returns C's bytes.
pub fn run(h: &CHandle, p: &Problem, g: &Gpu, preprocess: bool) -> Result<Vec<u8>, String> {
    run_keeping_workspace(h, p, g, preprocess).map(|(c, _)| c)
}

/// `run`, returning the workspace's bytes after the call too (empty without one).
pub fn run_keeping_workspace(h: &CHandle, p: &Problem, g: &Gpu, preprocess: bool) -> Result<(Vec<u8>, Vec<u8>), String> {
    write(&g.c_buf, &p.c_bytes);
    let (alpha, beta) = scalars(h, p);
    let args = g.args(p, &alpha, &beta);
    let ws = args.workspace(h)?;
    if preprocess {
        expect(unsafe { args.preprocess(h, ws_ptr(&ws)) }, "SpMM_preprocess")?;
    }
    expect(unsafe { args.spmm(h, ws_ptr(&ws)) }, "SpMM")?;
    Ok((g.c_buf.to_vec(), ws.map_or(Vec::new(), |w| w.to_vec())))
}

/// `p` on the device with its scalars (the handle switched to its modes) and a workspace of the
/// size bufferSize asks for, poisoned, into which preprocess has run. `args` points at the
/// scalars and descriptors held here.
pub struct Preprocessed {
    pub g: Gpu,
    pub args: Args,
    pub ws: Option<DevBuf>,
    _scalars: (Scalar, Scalar),
}

pub fn preprocessed(h: &CHandle, p: &Problem) -> Result<Preprocessed, String> {
    let g = Gpu::upload(p)?;
    let (alpha, beta) = scalars(h, p);
    // The scalars' values live on the heap or the device: moving them here keeps `args` valid.
    let args = g.args(p, &alpha, &beta);
    let ws = args.workspace(h)?;
    expect(unsafe { args.preprocess(h, ws_ptr(&ws)) }, "SpMM_preprocess")?;
    Ok(Preprocessed { g, args, ws, _scalars: (alpha, beta) })
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
/// loops that made `c`): scalars, index type, base, pointer mode, padding of B and C, algorithm.
pub fn vary(c: Case, i: usize) -> Case {
    let mut rng = Rng::new(0xC0FF_EE00 ^ i as u64);
    let mut choose = |n: usize| rng.below(n as u64) as usize;
    let (alpha, beta) = SCALARS[choose(3)];
    let algs = algs_for(c.fmt);
    Case {
        alpha,
        beta,
        it: [I32, I64][choose(2)],
        base: [BASE0, BASE1][choose(2)],
        mode: [HOST, DEVICE][choose(2)],
        pad_b: [0, 3][choose(2)],
        pad_c: [0, 2, 5][choose(3)],
        alg: algs[choose(algs.len())],
        seed: i as u64,
        ..c
    }
}

/// The algorithms meant for `fmt`: DEFAULT and the format's own.
pub fn algs_for(fmt: Fmt) -> Vec<SpMMAlg> {
    use SpMMAlg::*;
    match fmt {
        Fmt::Csr | Fmt::Csc => vec![OXSPARSE_SPMM_ALG_DEFAULT, OXSPARSE_SPMM_CSR_ALG1, OXSPARSE_SPMM_CSR_ALG2, OXSPARSE_SPMM_CSR_ALG3],
        Fmt::Coo => {
            vec![OXSPARSE_SPMM_ALG_DEFAULT, OXSPARSE_SPMM_COO_ALG1, OXSPARSE_SPMM_COO_ALG2, OXSPARSE_SPMM_COO_ALG3, OXSPARSE_SPMM_COO_ALG4]
        }
        Fmt::Bsr(_) => vec![OXSPARSE_SPMM_ALG_DEFAULT, OXSPARSE_SPMM_BSR_ALG1],
        Fmt::Bell => vec![OXSPARSE_SPMM_ALG_DEFAULT, OXSPARSE_SPMM_BLOCKED_ELL_ALG1],
    }
}

/// The ops each format accepts: (opA list, opB list).
pub fn ops_for(fmt: Fmt) -> (&'static [Operation], &'static [Operation]) {
    match fmt {
        Fmt::Csr | Fmt::Csc | Fmt::Coo => (&[N, T, H], &[N, T, H]),
        Fmt::Bsr(_) => (&[N], &[N, T, H]),
        Fmt::Bell => (&[N], &[N, T]),
    }
}

/// The value types of the vectorised kernels (tiles, short rows, split rows).
pub const VECTORISED_TYPES: [Types; 6] = [
    F32,
    (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F),
    (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F),
    (CUDA_R_16F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F),
];

/// A probe of preprocess's kernel choice: for each (case, differ), a plain and a preprocessed call
/// both match the reference, their bits differ exactly when `differ` (preprocess chose another
/// kernel than the plain call's tiles, which `what` names), and a second preprocessed call repeats
/// the first bit for bit. On a handle of its own, whatever the environment forces.
pub fn probe_choice(what: &str, cases: &[(Case, bool)]) {
    let h = &CHandle::unforced();
    for &(case, differ) in cases {
        let p = Problem::new(&case);
        let g = Gpu::upload(&p).unwrap();
        let plain = run(h, &p, &g, false).unwrap();
        let preprocessed = run(h, &p, &g, true).unwrap();
        p.check(&plain).unwrap_or_else(|e| panic!("{} plain: {e}", case.label()));
        p.check(&preprocessed).unwrap_or_else(|e| panic!("{} preprocessed: {e}", case.label()));
        assert_eq!(plain != preprocessed, differ, "{}: preprocess should {}take {what}", case.label(), if differ { "" } else { "not " });
        assert!(run(h, &p, &g, true).unwrap() == preprocessed, "{}: a second preprocessed call differs bitwise", case.label());
        // The record says the same: a row kernel other than the tiles exactly when the bits differ.
        let pre = super::harness::preprocessed(h, &p).unwrap();
        let d = unsafe { oxsparse::ffi::spmm::preprocessed_decision(pre.args.a) }.expect("preprocess keeps its decision");
        assert_eq!(d.rows != oxsparse::ops::spmm::RowKernel::Tiles, differ, "{}: the decision {d}", case.label());
    }
}
