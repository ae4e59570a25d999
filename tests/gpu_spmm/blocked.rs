//! BSR and Blocked-ELL on the block-row kernels (src/ops/spmm/blocked.rs): CUDA cores for every
//! block size and type; tensor cores for FP16 and BF16 blocks of whole fragments (16 to 128 rows)
//! in every math mode, and for FP32 ones in the TF32 mode (within `TF32_REL`) and the
//! FP32-accurate mode (within FP32's bound). Blocks of 1 to 64 rows, square and rectangular, and
//! 128-row ones; N = 1, 7, 33, 130; row- and column-major B and C; opB N and T; beta zero (C
//! poisoned with NaN) or not; BSR block rows without blocks and Blocked-ELL empty slots; block
//! rows long enough for many k chunks; operands that copy 16 bytes at a time (the asynchronous
//! tensor-core kernel). Against the float64 reference, with C's padding checked;
//! every case runs twice and must repeat bit for bit.

use super::harness::*;
use oxsparse::reference::vector_ops::ZERO;
use oxsparse::types::DataType::*;
use oxsparse::types::MathMode;

const DEFAULT: MathMode = MathMode::OXSPARSE_DEFAULT_MATH;
const TF32: MathMode = MathMode::OXSPARSE_TF32_TENSOR_OP_MATH;
const ACCURATE: MathMode = MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH;

/// (rows, cols) of the blocks; Blocked-ELL takes the square ones.
const BLOCKS: [(i64, i64); 12] = [(1, 1), (2, 2), (3, 3), (4, 4), (8, 8), (16, 16), (32, 32), (64, 64), (3, 2), (1, 4), (16, 32), (32, 16)];
const NS: [i64; 4] = [1, 7, 33, 130];
const HALF: [Types; 4] = [
    (CUDA_R_16F, CUDA_R_16F, CUDA_R_32F),
    (CUDA_R_16F, CUDA_R_32F, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F),
    (CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F),
];
const FORMATS: [Fmt; 3] = [Fmt::Bsr(ROW), Fmt::Bsr(COL), Fmt::Bell];

/// A case of `brows` block rows (block row 3 of every 5 empty) and `bcols` block columns; a
/// Blocked-ELL A gets one more column than its blocks cover (k not a multiple of the block).
/// Layouts, opB, N and beta cycle with `i`; `vary` draws the rest.
fn case(fmt: Fmt, block: (i64, i64), (brows, bcols): (i64, i64), types: Types, math: MathMode, i: usize) -> Case {
    let (rb, cb) = block;
    let k = bcols * cb + i64::from(fmt == Fmt::Bell);
    let c = Case {
        op_b: pick(&[N, T], i / 4),
        order_b: pick(&[ROW, COL], i),
        order_c: pick(&[ROW, COL], i / 2),
        types,
        math,
        block: Some(block),
        ..Case::new(fmt, (brows * rb, k, pick(&NS, i / 3)))
    };
    let c = vary(c, 7000 + i);
    Case { beta: if i % 2 == 0 { ZERO } else { (-0.75, 0.25) }, seed: 7000 + i as u64, ..c }
}

fn formats_for(block: (i64, i64)) -> impl Iterator<Item = Fmt> {
    FORMATS.into_iter().filter(move |&f| f != Fmt::Bell || block.0 == block.1)
}

/// The reference comparison, then the same call again: the bits must repeat.
fn check_twice(h: &CHandle, case: &Case) -> Result<(), String> {
    let p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    let first = run(h, &p, &g, case.preprocess)?;
    p.check(&first)?;
    if run(h, &p, &g, case.preprocess)? != first {
        return Err("a second call differs bitwise".into());
    }
    Ok(())
}

pub fn every_block_size_and_type_cases() -> Vec<Case> {
    let types = [F32, (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F), (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F), (CUDA_C_64F, CUDA_C_64F, CUDA_C_64F)];
    let mut cases = Vec::new();
    for block in BLOCKS {
        for fmt in formats_for(block) {
            for t in types.into_iter().chain(HALF) {
                let i = cases.len();
                cases.push(case(fmt, block, (5, 6), t, DEFAULT, i));
            }
        }
    }
    cases
}

#[test]
fn every_block_size_and_type() {
    sweep_with("spmm blocked: every block size and type", &every_block_size_and_type_cases(), check_twice);
}

/// FP32 in the tensor-op modes: tensor cores for blocks of whole fragments, CUDA cores (exact)
/// for the others; 16-bit operands in those modes too (they compute as in the default mode).
pub fn tensor_op_modes_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for block in [(16, 16), (32, 32), (64, 64), (16, 32), (32, 16), (3, 3), (8, 8)] {
        for fmt in formats_for(block) {
            for math in [TF32, ACCURATE] {
                for t in [F32, pick(&HALF, cases.len())] {
                    let i = cases.len();
                    cases.push(case(fmt, block, (5, 6), t, math, 100 + i));
                }
            }
        }
    }
    cases
}

#[test]
fn tensor_op_modes() {
    sweep_with("spmm blocked: tensor-op math modes", &tensor_op_modes_cases(), check_twice);
}

/// Long block rows (many k chunks, ~10 blocks a row over 40 block columns), 128-row blocks (eight
/// slices, one warp each) and blocks 64 columns wide, wide N (several column tiles).
pub fn long_rows_and_tall_blocks_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let shapes: [((i64, i64), (i64, i64)); 6] =
        [((16, 16), (40, 40)), ((32, 32), (12, 24)), ((128, 128), (3, 4)), ((128, 64), (3, 5)), ((16, 64), (20, 8)), ((3, 3), (60, 60))];
    for (block, grid) in shapes {
        for fmt in formats_for(block) {
            for (t, math) in [(pick(&HALF, cases.len()), DEFAULT), (F32, TF32), (F32, ACCURATE), (F32, DEFAULT)] {
                let i = cases.len();
                let c = case(fmt, block, grid, t, math, 200 + i);
                cases.push(Case { n: pick(&[130, 64, 200], i), ..c });
            }
        }
    }
    cases
}

#[test]
fn long_rows_and_tall_blocks() {
    sweep_with("spmm blocked: long block rows and tall blocks", &long_rows_and_tall_blocks_cases(), check_twice);
}

/// The CUDA-core kernel's vector paths: row-major op(B) and C on 16-byte boundaries (no padding),
/// N a multiple of 4 from one lane group of 1 to several column tiles, FEM-like small blocks
/// (contiguous aligned rows at 4 x 4 and 2 x 2, unaligned at 3 x 3) and Blocked-ELL's.
pub fn aligned_narrow_n_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for block in [(3, 3), (4, 4), (2, 2), (6, 6), (16, 16)] {
        for fmt in formats_for(block) {
            for t in [F32, (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F), (CUDA_C_32F, CUDA_C_32F, CUDA_C_32F)] {
                for n in [4, 32, 64, 128, 264] {
                    let i = cases.len();
                    let c = case(fmt, block, (9, 12), t, DEFAULT, 400 + i);
                    cases.push(Case { n, op_b: N, order_b: ROW, order_c: ROW, pad_b: 0, pad_c: 0, ..c });
                }
            }
        }
    }
    cases
}

#[test]
fn aligned_narrow_n() {
    sweep_with("spmm blocked: aligned operands, narrow N", &aligned_narrow_n_cases(), check_twice);
}

/// The copying tensor-core kernels (kernels/spmm_blocked_tc_tma.cu for 16-bit blocks of 16 or 32
/// rows on sm_90, kernels/spmm_blocked_tc_async.cu): 16-bit blocks, and FP32
/// ones in the TF32 mode, of whole fragments whose operands copy 16 bytes at a time (row-major
/// blocks, op(B) row-major on 16-byte rows, N a multiple of 8, k of whole blocks), block rows of
/// one to many chunks (and empty ones), N from one n tile to several column tiles (under and over
/// 128, so both of its walks); B row-major or column-major and transposed, padded or not;
/// column-major BSR blocks in the same sweep take the staged kernel.
pub fn async_copies_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let shapes: [((i64, i64), (i64, i64)); 8] = [
        ((16, 16), (7, 9)),
        ((32, 32), (6, 7)),
        ((64, 64), (5, 4)),
        ((128, 128), (3, 3)),
        ((16, 32), (9, 6)),
        ((32, 16), (5, 12)),
        ((16, 64), (8, 5)),
        ((16, 16), (40, 40)),
    ];
    for (block, (brows, bcols)) in shapes {
        for fmt in formats_for(block) {
            for (t, math) in HALF.map(|t| (t, DEFAULT)).into_iter().chain([(F32, TF32)]) {
                let i = cases.len();
                let c = case(fmt, block, (brows, bcols), t, math, 600 + i);
                // op(B) row-major either way: B row-major, or column-major and transposed.
                let (op_b, order_b) = if i % 3 == 2 { (T, COL) } else { (N, ROW) };
                let n = pick(&[8, 32, 64, 128, 136, 264], i);
                cases.push(Case { k: bcols * block.1, n, op_b, order_b, pad_b: 8 * (i as i64 % 2), ..c });
            }
        }
    }
    cases
}

/// The reference comparison under the library's choice (on sm_90 the TMA kernel for 16-bit blocks
/// of 16 or 32 rows, else the asynchronous one) and under each copy kernel forced
/// (`OXSPARSE_SPMM_BLOCKED_COPIES`): all sum each k step (16 for 16-bit operands, 8 for TF32) into
/// the same accumulators in the same order, so their results must agree bit for bit.
fn check_both_kernels(h: &CHandle, case: &Case) -> Result<(), String> {
    let p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    h.set_tuning("OXSPARSE_SPMM_BLOCKED_COPIES", None);
    let chosen = run(h, &p, &g, case.preprocess)?;
    p.check(&chosen)?;
    for copies in ["tma", "async", "staged"] {
        h.set_tuning("OXSPARSE_SPMM_BLOCKED_COPIES", Some(copies));
        let forced = run(h, &p, &g, case.preprocess);
        h.set_tuning("OXSPARSE_SPMM_BLOCKED_COPIES", None);
        if forced? != chosen {
            return Err(format!("the {copies} copies' result differs bitwise"));
        }
    }
    if run(h, &p, &g, case.preprocess)? != chosen {
        return Err("a second call differs bitwise".into());
    }
    Ok(())
}

#[test]
fn async_copies() {
    sweep_with("spmm blocked: tensor cores, asynchronous copies", &async_copies_cases(), check_both_kernels);
}

/// BSR of small square blocks on their own kernel (kernels/spmm_bsr_small.cu): FP32 and FP64,
/// blocks of 2 to 4 rows in both block orders, block rows short and long (steps of several blocks
/// with a partial last one, empty block rows), N from half a group's columns to several column
/// tiles (lanes with part of their columns, or none), op(B) row-major in vectors of 4 either way
/// (B row-major, or column-major and transposed), padded or not, C in both orders.
pub fn small_blocks_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for block in [(2, 2), (3, 3), (4, 4)] {
        for fmt in [Fmt::Bsr(ROW), Fmt::Bsr(COL)] {
            for t in [F32, (CUDA_R_64F, CUDA_R_64F, CUDA_R_64F)] {
                for grid in [(9, 12), (40, 40)] {
                    for _ in 0..3 {
                        let i = cases.len();
                        let c = case(fmt, block, grid, t, DEFAULT, 900 + i);
                        let n = pick(&[17, 32, 36, 64, 100, 128, 264], i);
                        let (op_b, order_b) = if i % 3 == 2 { (T, COL) } else { (N, ROW) };
                        // Rows of whole vectors of 4 (the kernel's columns a lane): the leading dimension a multiple of 4.
                        let pad_b = (4 - n % 4) % 4 + 4 * (i as i64 / 2 % 2);
                        cases.push(Case { n, op_b, order_b, pad_b, preprocess: i % 2 == 0, ..c });
                    }
                }
            }
        }
    }
    cases
}

/// The reference comparison; the path preprocess records (the small-block kernel); the general
/// block-row kernel (`OXSPARSE_SPMM_BLOCKED_SMALL=off`) must give the same bits, and so must a
/// second call.
fn check_small_blocks(h: &CHandle, case: &Case) -> Result<(), String> {
    use oxsparse::ops::spmm::blocked::BlockedPath;
    use oxsparse::ops::spmm::plan::Kernel;
    let p = Problem::new(case);
    let g = Gpu::upload(&p)?;
    h.set_tuning("OXSPARSE_SPMM_BLOCKED_SMALL", None);
    let pre = preprocessed(h, &p)?;
    let d = unsafe { oxsparse::ffi::spmm::preprocessed_decision(pre.args.a) }.ok_or("preprocess keeps no decision")?;
    let want = Kernel::Bsr(BlockedPath::SmallBlocks { size: case.block.map_or(0, |b| b.0) as u8 });
    if d.plan.kernel != want {
        return Err(format!("the plan runs {:?}, not {want:?}", d.plan.kernel));
    }
    let small = run(h, &p, &g, case.preprocess)?;
    p.check(&small)?;
    h.set_tuning("OXSPARSE_SPMM_BLOCKED_SMALL", Some("off"));
    let general = run(h, &p, &g, case.preprocess);
    h.set_tuning("OXSPARSE_SPMM_BLOCKED_SMALL", None);
    if general? != small {
        return Err("the general block-row kernel's result differs bitwise".into());
    }
    if run(h, &p, &g, case.preprocess)? != small {
        return Err("a second call differs bitwise".into());
    }
    Ok(())
}

#[test]
fn small_blocks() {
    sweep_with("spmm blocked: BSR's small blocks", &small_blocks_cases(), check_small_blocks);
}

/// The kernel a call runs, as preprocess records it (`preprocessed_decision`), for types, math
/// modes, block shapes and the `cuda_cores` forcing, on a handle free of the environment's
/// forcing; each call also matches the reference.
#[test]
fn the_path_follows_types_mode_and_blocks() {
    use oxsparse::ops::spmm::blocked::{BlockedPath, TcPrecision};
    use oxsparse::ops::spmm::plan::Kernel;
    let Some(_gpu) = crate::common::gpu("spmm blocked: the path follows types, mode and blocks") else { return };
    let half = BlockedPath::TensorCores(TcPrecision::Half);
    let cuda = |rows| BlockedPath::CudaCores { rows };
    let (f16, bf16) = (HALF[0], HALF[3]);
    // (types, math mode, block, OXSPARSE_SPMM_KERNEL, the path)
    type Row<'a> = (Types, MathMode, (i64, i64), Option<&'a str>, BlockedPath);
    let table: [Row; 9] = [
        (f16, DEFAULT, (16, 16), None, half),
        (bf16, DEFAULT, (32, 32), None, half),
        (F32, DEFAULT, (16, 16), None, cuda(8)),
        (F32, TF32, (32, 32), None, BlockedPath::TensorCores(TcPrecision::Tf32)),
        (F32, ACCURATE, (64, 64), None, BlockedPath::TensorCores(TcPrecision::Tf32x3)),
        (f16, DEFAULT, (8, 8), None, cuda(8)),
        (f16, TF32, (3, 3), None, cuda(4)),
        (f16, DEFAULT, (16, 16), Some("cuda_cores"), cuda(8)),
        (F32, TF32, (32, 32), Some("cuda_cores"), cuda(8)),
    ];
    let h = CHandle::unforced();
    for (i, &(types, math, block, forced, want)) in table.iter().enumerate() {
        h.set_tuning("OXSPARSE_SPMM_KERNEL", forced);
        for fmt in formats_for(block) {
            let c = Case { preprocess: true, ..case(fmt, block, (5, 6), types, math, 300 + i) };
            let p = Problem::new(&c);
            let pre = preprocessed(&h, &p).unwrap_or_else(|e| panic!("{}: {e}", c.label()));
            let d = unsafe { oxsparse::ffi::spmm::preprocessed_decision(pre.args.a) }.expect("preprocess keeps its decision");
            let expected = if fmt == Fmt::Bell { Kernel::BlockedEll(want) } else { Kernel::Bsr(want) };
            assert_eq!(d.plan.kernel, expected, "{}", c.label());
            let g = Gpu::upload(&p).unwrap();
            p.check(&run(&h, &p, &g, true).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", c.label()));
        }
    }
    h.set_tuning("OXSPARSE_SPMM_KERNEL", None);
}
