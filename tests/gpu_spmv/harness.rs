//! One point of the parameter matrix (`Case`), the parameters' vocabulary, and how groups cycle the
//! parameters they do not cross (`vary`). `problem` turns a case into data and runs it.

pub use super::calls::*;
pub use super::problem::*;
use super::*;
pub use crate::common::sweep::{fit, pick, BASE0, BASE1, COL, DEVICE, H, HOST, I32, I64, N, ROW, SCALARS, T};
use oxsparse::reference::vector_ops::Value;
use oxsparse::types::{DataType, DataType::*, IndexBase, IndexType, Operation, Order, PointerMode, SpMVAlg};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fmt {
    Csr,
    Csc,
    Coo,
    /// BSR with blocks stored in this order (block size: `Case::blocks`).
    Bsr(Order),
    /// Sliced-ELL with this slice size.
    Sell(i64),
}

/// Where the entries of op(A) are (the generator transposes them into A's storage for T and H).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pattern {
    /// About a quarter full (at most ~50000 entries), rows i % 5 == 3 empty.
    Random,
    /// No stored entries.
    Empty,
    /// This many entries in the middle row, 0 to 3 in the others.
    HeavyRow(i64),
    /// This many entries in the middle column, 0 to 3 elsewhere in every row.
    HeavyCol(i64),
    /// Every row has one entry, all in the middle column.
    OneColumn,
    /// Row i has `lens[i % lens.len()]` entries: row boundaries exactly where a test wants them.
    Cycle(&'static [i64]),
    /// Row lengths max / (rank + 1) over a random ranking of the rows (a few rows of 10^4 - 10^5).
    PowerLaw(i64),
    /// This many entries per row, in columns drawn with probability ~ 1 / (rank + 1) over a
    /// random ranking of the columns: a few busy columns scattered over x (a power-law graph).
    HotColumns(i64),
    /// Row i has `per_row` entries (fewer near the edges) in columns i - below ..= i + above.
    Band { below: i64, above: i64, per_row: i64 },
    /// Rows of 2-15 entries but every `every`-th (i % every == 5), which has 300-2000: hub rows that
    /// cross many tiles among short rows that fill the others.
    Hubs { every: i64 },
}

/// (A, X, Y, compute) value types.
pub type Types = (DataType, DataType, DataType, DataType);
pub const F32: Types = (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F);
pub const F64: Types = (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F);
pub const C32: Types = (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F, CUDA_C_32F);

#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub fmt: Fmt,
    pub op: Operation,
    /// op(A) is m x k, X has k elements, Y m.
    pub m: i64,
    pub k: i64,
    pub pattern: Pattern,
    /// BSR block (rows, cols); (0, 0) picks one (`blocks`).
    pub block: (i64, i64),
    pub types: Types,
    pub it: IndexType,
    pub base: IndexBase,
    pub mode: PointerMode,
    /// Scalars before `fit` to the compute type.
    pub alpha: Value,
    pub beta: Value,
    pub alg: SpMVAlg,
    /// COO entries sorted by row (else in random order, rows and columns).
    pub coo_sorted: bool,
    pub preprocess: bool,
    pub seed: u64,
}

impl Case {
    pub fn new(fmt: Fmt, (m, k): (i64, i64)) -> Case {
        Case {
            fmt,
            op: N,
            m,
            k,
            pattern: Pattern::Random,
            block: (0, 0),
            types: F32,
            it: I32,
            base: BASE0,
            mode: HOST,
            alpha: (1.5, -0.5),
            beta: (-0.75, 0.25),
            alg: SpMVAlg::OXSPARSE_SPMV_ALG_DEFAULT,
            coo_sorted: true,
            preprocess: false,
            seed: 1,
        }
    }

    /// Stored shape of A.
    pub fn a_shape(&self) -> (i64, i64) {
        if self.op == N {
            (self.m, self.k)
        } else {
            (self.k, self.m)
        }
    }

    /// BSR block (rows, cols): `block` when set, else the first of 2, 3, 4, 8, 5, 16 (in an order
    /// rotated by the seed) that divides the shape, or 1; the column size skips the rotation's
    /// first size, so that blocks tend to be rectangular.
    pub fn blocks(&self) -> (i64, i64) {
        if self.block != (0, 0) {
            return self.block;
        }
        let (rows, cols) = self.a_shape();
        let mut ds = [2, 3, 4, 8, 5, 16];
        ds.rotate_left(self.seed as usize % 6);
        let first = |ok: &dyn Fn(i64) -> bool| ds.iter().copied().find(|&d| ok(d)).unwrap_or(1);
        (first(&|d| rows % d == 0), first(&|d| cols % d == 0 && d != ds[0]))
    }

    /// A short description for failure messages.
    pub fn label(&self) -> String {
        let (ta, tx, ty, tc) = self.types;
        let alg = format!("{:?}", self.alg).replace("OXSPARSE_SPMV_", "");
        format!(
            "{:?}{} op {} {}x{} {:?} {}/{}/{}/{} i{} base{} {:?} alpha {:?} beta {:?} {alg}{}{} seed {}",
            self.fmt,
            if let Fmt::Bsr(_) = self.fmt { format!(" {:?}", self.blocks()) } else { String::new() },
            ["N", "T", "H"][self.op as usize],
            self.m,
            self.k,
            self.pattern,
            ta.kernel_suffix(),
            tx.kernel_suffix(),
            ty.kernel_suffix(),
            tc.kernel_suffix(),
            self.it.size_bytes() * 8,
            self.base as i32,
            self.mode,
            self.alpha,
            self.beta,
            if self.fmt == Fmt::Coo && !self.coo_sorted { " coo-unsorted" } else { "" },
            if self.preprocess { " preprocess" } else { "" },
            self.seed
        )
    }
}

/// `c` with the parameters a group does not cross drawn (seeded by `i`, independently of the
/// loops that made `c`): scalars, index type, base, pointer mode, algorithm, COO order, preprocess.
pub fn vary(c: Case, i: usize) -> Case {
    let mut rng = Rng::new(0x5EC7_0000 ^ i as u64);
    let mut choose = |n: usize| rng.below(n as u64) as usize;
    let (alpha, beta) = SCALARS[choose(3)];
    let algs = algs_for(c.fmt);
    Case {
        alpha,
        beta,
        it: [I32, I64][choose(2)],
        base: [BASE0, BASE1][choose(2)],
        mode: [HOST, DEVICE][choose(2)],
        alg: algs[choose(algs.len())],
        coo_sorted: choose(2) == 0,
        preprocess: choose(2) == 0,
        seed: i as u64,
        ..c
    }
}

/// The algorithms meant for `fmt`: DEFAULT and the format family's own.
pub fn algs_for(fmt: Fmt) -> Vec<SpMVAlg> {
    use SpMVAlg::*;
    match fmt {
        Fmt::Csr | Fmt::Csc => vec![OXSPARSE_SPMV_ALG_DEFAULT, OXSPARSE_SPMV_CSR_ALG1, OXSPARSE_SPMV_CSR_ALG2],
        Fmt::Coo => vec![OXSPARSE_SPMV_ALG_DEFAULT, OXSPARSE_SPMV_COO_ALG1, OXSPARSE_SPMV_COO_ALG2],
        Fmt::Bsr(_) => vec![OXSPARSE_SPMV_ALG_DEFAULT, OXSPARSE_SPMV_BSR_ALG1],
        Fmt::Sell(_) => vec![OXSPARSE_SPMV_ALG_DEFAULT, OXSPARSE_SPMV_SELL_ALG1],
    }
}

/// The opA values each format accepts.
pub fn ops_for(fmt: Fmt) -> &'static [Operation] {
    match fmt {
        Fmt::Csr | Fmt::Csc | Fmt::Coo => &[N, T, H],
        Fmt::Bsr(_) | Fmt::Sell(_) => &[N],
    }
}
