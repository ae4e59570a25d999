//! Tests of whole calls' plans and of what a call derives from them (C's staging, row shapes, a
//! plain call's long branch), on made-up calls: `plan_on` and its shorthands (row_choice.rs's
//! tests use `plan_on` too).

use super::*;
use crate::descr::sparse::SpArrays;
use crate::types::{IndexBase, IndexType, Order};

/// A CSR FP16 call (FP32 compute) of m x k times k x n with row-major C of leading dimension
/// `ldc`, on made-up device addresses (planning reads none).
fn plan_fp16(ldc: i64) -> Plan {
    plan_fp16_c(ldc, Order::OXSPARSE_ORDER_ROW)
}

/// As `plan_fp16`, C of `order`.
fn plan_fp16_c(ldc: i64, order: Order) -> Plan {
    plan_typed(DataType::CUDA_R_16F, ldc, order)
}

/// A CSR call of 300 x 200 times 200 x 128, A, B and C of `t` (FP32 compute), C of `order` and
/// leading dimension `ldc`, on made-up device addresses.
fn plan_typed(t: DataType, ldc: i64, order: Order) -> Plan {
    plan_in_mode(t, ldc, order, MathMode::OXSPARSE_DEFAULT_MATH)
}

/// As `plan_typed`, with the handle in math mode `math`.
fn plan_in_mode(t: DataType, ldc: i64, order: Order, math: MathMode) -> Plan {
    plan_for(t, (300, 200, 128, 3000), (Order::OXSPARSE_ORDER_ROW, 128), (order, ldc), math)
}

use crate::device::models::*;
use crate::settings::Spmm;

/// The settings a handle has with no variable set.
fn unset() -> Spmm {
    Spmm::default()
}

/// A CSR call of m x k (nnz entries) times k x n of type `t` (FP32 compute), op(B) and C in the
/// given layouts and leading dimensions, on made-up device addresses (planning reads none), on an
/// 132-SM device of standard memory (`plan_on`: on another device).
fn plan_for(t: DataType, dims: (i64, i64, i64, i64), b: (Order, i64), c: (Order, i64), math: MathMode) -> Plan {
    plan_on(t, dims, b, c, math, &hbm3_132())
}

pub(super) fn plan_on(
    t: DataType,
    dims: (i64, i64, i64, i64),
    b: (Order, i64),
    c: (Order, i64),
    math: MathMode,
    device: &DeviceModel,
) -> Plan {
    plan_tuned(t, dims, b, c, math, device, &Settings::default())
}

fn plan_tuned(
    t: DataType,
    (m, k, n, nnz): (i64, i64, i64, i64),
    (order_b, ldb): (Order, i64),
    (order_c, ldc): (Order, i64),
    math: MathMode,
    device: &DeviceModel,
    settings: &Settings,
) -> Plan {
    let arrays = SpArrays { offsets: 0x1000_0000, indices: 0x2000_0000, values: 0x3000_0000 };
    let (i32i, base) = (IndexType::OXSPARSE_INDEX_32I, IndexBase::OXSPARSE_INDEX_BASE_ZERO);
    let a = SpMat::compressed(false, m, k, nnz, arrays, i32i, i32i, base, t).unwrap();
    let b = DnMat::new(k, n, ldb, 0x4000_0000, t, order_b).unwrap();
    let c = DnMat::new(m, n, ldc, 0x5000_0000, t, order_c).unwrap();
    let (alpha, beta) = (1.0f32, 0.0f32);
    let call = Call {
        op_a: Operation::OXSPARSE_OPERATION_NON_TRANSPOSE,
        op_b: Operation::OXSPARSE_OPERATION_NON_TRANSPOSE,
        a: &a,
        b: &b,
        c: &c,
        compute: DataType::CUDA_R_32F,
        alg: SpMMAlg::OXSPARSE_SPMM_ALG_DEFAULT,
        alpha: &alpha as *const f32 as *const c_void,
        beta: &beta as *const f32 as *const c_void,
        math,
        reorder: ReorderMode::OXSPARSE_REORDER_NONE,
        a_serial: 0,
        device,
        settings,
    };
    make_plan(&call).unwrap()
}

/// A tensor-core plan keeps the rooms of the CUDA-core row kernels (the split-row table, warp
/// rows where they fit) beside its format, so that where the build chooses CUDA cores its
/// preprocessed calls run what the default mode runs, a column-major C included.
#[test]
fn tensor_core_plans_keep_the_cuda_core_rooms() {
    let tf32 = MathMode::OXSPARSE_TF32_TENSOR_OP_MATH;
    let default = plan_typed(DataType::CUDA_R_32F, 128, Order::OXSPARSE_ORDER_ROW);
    let tc = plan_in_mode(DataType::CUDA_R_32F, 128, Order::OXSPARSE_ORDER_ROW, tf32);
    assert!(matches!(tc.kernel, Kernel::TensorCore { .. }), "{:?}", tc.kernel);
    let (d, t) = (default.tiles.unwrap(), tc.tiles.unwrap());
    assert!(d.split_at.is_some() && t.split_at.map(|s| s.1) == d.split_at.map(|s| s.1), "split-row room: {d:?} / {t:?}");
    assert_eq!(tc.warp_rows.is_some(), default.warp_rows.is_some());
    assert!(tc.workspace > default.workspace, "the format comes on top");
    let col = plan_in_mode(DataType::CUDA_R_32F, 300, Order::OXSPARSE_ORDER_COL, tf32);
    assert!(direct_c(&unset(), &col, 3000, RowKernel::ShortRows) && !direct_c(&unset(), &col, 3000, RowKernel::Tiles));
}

/// C staged (rows not 16-byte aligned) runs the kernels with C in the compute type, which has
/// no FP16 two-vector or packed shape: the short-row shape is chosen for those types (the H100
/// tests had caught an internal error from the missing kernel).
#[test]
fn short_row_shapes_follow_the_kernel_types() {
    let direct = plan_fp16(128);
    let staged = plan_fp16(130);
    assert!(matches!(direct.kernel, Kernel::Tiles { stage_c: false, .. }), "{:?}", direct.kernel);
    assert!(matches!(staged.kernel, Kernel::Tiles { stage_c: true, .. }), "{:?}", staged.kernel);
    assert_eq!(kernel_types(&direct).c, DataType::CUDA_R_16F);
    assert_eq!(kernel_types(&staged).c, DataType::CUDA_R_32F);
    assert_eq!(super::short_rows::shape(kernel_types(&direct), 128, true, None), k::RowShape::PackedWide);
    assert_eq!(super::short_rows::shape(kernel_types(&staged), 128, true, None), k::RowShape::Narrow);
}

/// An FP32 call with C of `order` (leading dimension its rows' or columns' count).
fn plan_fp32_c(order: Order) -> Plan {
    plan_typed(DataType::CUDA_R_32F, if order == Order::OXSPARSE_ORDER_ROW { 128 } else { 300 }, order)
}

/// Short rows write a column-major FP32 / FP64 C themselves (split rows while C is small); the
/// tiles, FP16 and a misaligned row-major C keep the staging copy.
#[test]
fn column_major_c_is_written_by_short_rows() {
    let col = plan_fp32_c(Order::OXSPARSE_ORDER_COL);
    assert!(matches!(col.kernel, Kernel::Tiles { stage_c: true, .. }), "{:?}", col.kernel);
    let nnz = 3000;
    assert!(direct_c(&unset(), &col, nnz, RowKernel::ShortRows));
    assert!(!direct_c(&unset(), &col, nnz, RowKernel::Tiles));
    {
        // 300 x 128 FP32: 150 KB, within the bound.
        assert!(direct_c(&unset(), &col, nnz, RowKernel::SplitRows { blocks: 1, shape: k::RowShape::Narrow }));
        assert!(direct_c(&unset(), &col, nnz, RowKernel::SplitRows { blocks: 1, shape: k::RowShape::WideX2 }));
        assert!(
            !direct_c(&unset(), &col, nnz, RowKernel::SplitRows { blocks: 1, shape: k::RowShape::Wide }),
            "no column-major kernel of that shape"
        );
        // Larger C: only with long rows, and never past the second bound.
        let (mb, m) = (1u64 << 20, 20_000i64);
        assert!(split_rows_write_c(4 * mb, m, m, None) && !split_rows_write_c(4 * mb + 1, m, 23 * m, None));
        assert!(split_rows_write_c(16 * mb, m, 24 * m, None) && !split_rows_write_c(16 * mb + 1, m, 100 * m, None));
    }
    assert!(!direct_c(&unset(), &plan_fp32_c(Order::OXSPARSE_ORDER_ROW), nnz, RowKernel::ShortRows), "row-major C is not staged");
    assert!(!direct_c(&unset(), &plan_fp16_c(300, Order::OXSPARSE_ORDER_COL), nnz, RowKernel::ShortRows), "no FP16 column-major kernel");
    assert!(!direct_c(&unset(), &plan_fp16(130), nnz, RowKernel::ShortRows), "a misaligned row-major C stays staged");
}

/// Split rows writing a column-major FP32 C take narrow groups; a row-major or staged C, and
/// other types, keep the preferred shape.
#[test]
fn split_rows_take_narrow_groups_for_a_column_major_c() {
    use k::RowShape::{Narrow, NarrowX2, WideX2};
    let (nnz, longest) = (30 * 300, 200);
    let col = plan_fp32_c(Order::OXSPARSE_ORDER_COL);
    for shape in [WideX2, NarrowX2, Narrow] {
        assert_eq!(row_kernel::split_shape_for_c(&unset(), &col, shape, longest, nnz), Narrow, "{shape:?}");
    }
    assert_eq!(
        row_kernel::split_shape_for_c(&unset(), &plan_fp32_c(Order::OXSPARSE_ORDER_ROW), WideX2, longest, nnz),
        WideX2,
        "row-major C"
    );
    assert_eq!(row_kernel::split_shape_for_c(&unset(), &plan_fp16_c(300, Order::OXSPARSE_ORDER_COL), WideX2, longest, nnz), WideX2, "FP16");
    // 20000 x 128 FP32 column-major: 10 MB, staged for rows of 15 entries on average.
    let big = |mean: i64| {
        (
            plan_for(
                DataType::CUDA_R_32F,
                (20_000, 200, 128, mean * 20_000),
                (Order::OXSPARSE_ORDER_ROW, 128),
                (Order::OXSPARSE_ORDER_COL, 20_000),
                MathMode::OXSPARSE_DEFAULT_MATH,
            ),
            mean * 20_000,
        )
    };
    let (staged, staged_nnz) = big(15);
    assert_eq!(row_kernel::split_shape_for_c(&unset(), &staged, WideX2, longest, staged_nnz), WideX2, "staged C");
    let (direct, direct_nnz) = big(30);
    assert_eq!(row_kernel::split_shape_for_c(&unset(), &direct, WideX2, longest, direct_nnz), Narrow, "C written directly (long rows)");
}

/// Whole short rows take 64-column groups for a column-major FP32 C beyond the L2 model only.
#[test]
fn whole_rows_take_x2_groups_for_a_column_major_c_beyond_l2() {
    use k::RowShape::{NarrowX2, WideX2};
    let call = |m: i64, order: Order| {
        let ldc = if order == Order::OXSPARSE_ORDER_ROW { 128 } else { m };
        plan_for(
            DataType::CUDA_R_32F,
            (m, 1000, 128, 4 * m),
            (Order::OXSPARSE_ORDER_ROW, 128),
            (order, ldc),
            MathMode::OXSPARSE_DEFAULT_MATH,
        )
    };
    let f32s = k::Types { ab: DataType::CUDA_R_32F, c: DataType::CUDA_R_32F, compute: DataType::CUDA_R_32F };
    // 258569 x 128 FP32 (mdual): 132 MB; 65536 x 128 (delaunay_n16): 33.5 MB.
    assert_eq!(whole_rows_shape(&unset(), &hbm3e_132(), &call(258_569, Order::OXSPARSE_ORDER_COL), f32s, true), NarrowX2);
    assert_eq!(whole_rows_shape(&unset(), &hbm3e_132(), &call(65_536, Order::OXSPARSE_ORDER_COL), f32s, true), WideX2, "C within L2");
    assert_eq!(whole_rows_shape(&unset(), &hbm3e_132(), &call(258_569, Order::OXSPARSE_ORDER_COL), f32s, false), WideX2, "C staged");
    assert_eq!(whole_rows_shape(&unset(), &hbm3e_132(), &call(258_569, Order::OXSPARSE_ORDER_ROW), f32s, false), WideX2, "row-major C");
}

/// An FP32 graph the warp-row rule takes (20000 rows, 250K entries, N = 128) with op(B) and C
/// in the given layouts.
fn plan_graph(order_b: Order, order_c: Order) -> Plan {
    let (m, k, n) = (20_000, 20_000, 128);
    let ld = |order: Order, rows: i64| if order == Order::OXSPARSE_ORDER_ROW { n } else { rows };
    plan_for(
        DataType::CUDA_R_32F,
        (m, k, n, 250_000),
        (order_b, ld(order_b, k)),
        (order_c, ld(order_c, m)),
        MathMode::OXSPARSE_DEFAULT_MATH,
    )
}

/// Preprocess may give such a graph warp rows in every layout: a column-major op(B) or C is
/// staged around the kernel as around the tiles (rather than keeping the tiles).
#[test]
fn warp_rows_have_room_in_every_layout() {
    let (row, col) = (Order::OXSPARSE_ORDER_ROW, Order::OXSPARSE_ORDER_COL);
    for (order_b, order_c) in [(row, row), (col, col), (col, row), (row, col)] {
        let p = plan_graph(order_b, order_c);
        let Kernel::Tiles { stage_b, stage_c, .. } = p.kernel else { panic!("{order_b:?} / {order_c:?}: {:?}", p.kernel) };
        assert_eq!((stage_b, stage_c), (order_b == col, order_c == col), "{order_b:?} / {order_c:?}");
        let layout = p.warp_rows.unwrap_or_else(|| panic!("{order_b:?} / {order_c:?}: no room for warp rows"));
        assert!(
            p.warp_rows_at >= p.stage_c_at && p.warp_rows_at + layout.bytes <= p.workspace,
            "the region lies after the staging scratch, inside the workspace"
        );
    }
}

/// A plain call of 128K entries or more at a multiple of 128 columns takes warp rows over a
/// table it builds (whatever its mean row, so the plan keeps the room for it); smaller
/// matrices and other widths keep the tiles.
#[test]
fn plain_calls_take_warp_rows_by_size_and_width() {
    let row = Order::OXSPARSE_ORDER_ROW;
    let plain = |(m, k, n, nnz): (i64, i64, i64, i64), t: DataType| {
        let p = plan_for(t, (m, k, n, nnz), (row, n), (row, n), MathMode::OXSPARSE_DEFAULT_MATH);
        PlainLong::of(&p, nnz, &hbm3_132(), &Settings::default())
    };
    let f32 = DataType::CUDA_R_32F;
    assert_eq!(plain((6_440, 6_440, 128, 502_504), f32), PlainLong::GpuWarpRows, "fb100_MIT8: 78 a row");
    assert_eq!(plain((6_440, 6_440, 256, 502_504), DataType::CUDA_R_16F), PlainLong::GpuWarpRows, "in 16 bits");
    assert_eq!(plain((6_440, 6_440, 64, 502_504), f32), PlainLong::Tiles, "64 columns");
    assert_eq!(plain((19_717, 19_717, 128, 88_651), f32), PlainLong::Tiles, "pubmed: under 128K entries");
    assert_eq!(plain((1_138_499, 1_138_499, 128, 5_890_944), f32), PlainLong::Tiles, "youtube_like: op(B) of 583 MB");
    assert_eq!(
        plain((1_138_499, 1_138_499, 256, 5_890_944), DataType::CUDA_R_16F),
        PlainLong::GpuWarpRows,
        "youtube_like in 16 bits: chunks of 768 rows"
    );
    // On an H200 op(B) may be larger, at multiples of 128 columns; the plan, made
    // for the same L2, keeps the room.
    let plain_h200 = |(m, k, n, nnz): (i64, i64, i64, i64), t: DataType| {
        let p = plan_on(t, (m, k, n, nnz), (row, n), (row, n), MathMode::OXSPARSE_DEFAULT_MATH, &hbm3e_132());
        PlainLong::of(&p, nnz, &hbm3e_132(), &Settings::default())
    };
    assert_eq!(plain_h200((1_138_499, 1_138_499, 128, 5_890_944), f32), PlainLong::GpuWarpRows, "youtube_like FP32 N = 128 on an H200");
    assert_eq!(plain_h200((1_138_499, 1_138_499, 64, 5_890_944), f32), PlainLong::Tiles, "64 columns");
    assert_eq!(plain_h200((1_138_499, 1_138_499, 512, 5_890_944), f32), PlainLong::Tiles, "op(B) of 2.3 GB");
}

/// A plain call in a tensor-op mode runs the tile plan the tensor-core plan holds (its sizes,
/// staging and workspace), and so chooses as a default-mode plain call does, warp rows over a
/// GPU-built table included; plans without tensor cores pass unchanged.
#[test]
fn plain_calls_of_tensor_core_plans_run_the_cuda_core_plan() {
    let row = Order::OXSPARSE_ORDER_ROW;
    for (t, shape, order_c) in [
        (DataType::CUDA_R_32F, (6_440, 6_440, 128, 502_504), row),
        (DataType::CUDA_R_16F, (6_440, 6_440, 256, 502_504), row),
        (DataType::CUDA_R_32F, (2_500, 2_500, 32, 12_349), Order::OXSPARSE_ORDER_COL),
    ] {
        let ldc = if order_c == row { shape.2 } else { shape.0 };
        let default = plan_for(t, shape, (row, shape.2), (order_c, ldc), MathMode::OXSPARSE_DEFAULT_MATH);
        for math in [MathMode::OXSPARSE_TF32_TENSOR_OP_MATH, MathMode::OXSPARSE_FP32_ACCURATE_TENSOR_OP_MATH] {
            let tc = plan_for(t, shape, (row, shape.2), (order_c, ldc), math);
            let Kernel::TensorCore { size, per_block, stage_b, stage_c, .. } = tc.kernel else { panic!("{t:?} {math:?}: {:?}", tc.kernel) };
            let plain = plain_plan(tc.clone(), &Settings::default());
            assert_eq!(plain.kernel, Kernel::Tiles { size, per_block, stage_b, stage_c });
            assert_eq!(plain.kernel, default.kernel, "{t:?} {math:?}: the default mode's kernel");
            assert_eq!((plain.workspace, plain.tc_at, plain.warp_rows_at), (tc.workspace, tc.tc_at, tc.warp_rows_at), "the same layout");
            assert_eq!(
                PlainLong::of(&plain, shape.3, &hbm3_132(), &Settings::default()),
                PlainLong::of(&default, shape.3, &hbm3_132(), &Settings::default()),
                "{t:?} {math:?}: the same long branch"
            );
        }
        assert_eq!(plain_plan(default.clone(), &Settings::default()).kernel, default.kernel);
    }
}

/// Under `OXSPARSE_SPMM_BRCV=rule` a CSR call keeps room for a band (banded.rs) only from a
/// million entries and 16 columns of C on, and not on tensor cores; the room lies past the others,
/// inside the workspace. By default (off) no call keeps any.
#[test]
fn band_room_only_where_the_rule_may_take_it() {
    let (f32, row) = (DataType::CUDA_R_32F, Order::OXSPARSE_ORDER_ROW);
    let math = MathMode::OXSPARSE_DEFAULT_MATH;
    let nnz = 33i64 << 20;
    assert!(plan_for(f32, (1 << 20, 1 << 20, 64, nnz), (row, 64), (row, 64), math).brcv.is_none(), "off by default");
    let mut rule = Settings::default();
    rule.set("OXSPARSE_SPMM_BRCV", Some("rule")).unwrap();
    let plan_for = |t, dims, b, c, math| plan_tuned(t, dims, b, c, math, &hbm3_132(), &rule);
    let big = plan_for(f32, (1 << 20, 1 << 20, 64, nnz), (row, 64), (row, 64), math);
    let room = big.brcv.expect("room for a band");
    assert_eq!((room.values, room.far), (2 * nnz as u64, nnz as u64 / 10));
    assert!(big.brcv_at >= big.warp_rows_at + big.warp_rows.map_or(0, |w| w.bytes), "after the warp rows' room");
    assert!(big.workspace >= big.brcv_at + room.bytes);
    assert!(plan_for(f32, (1000, 1000, 64, 33_000), (row, 64), (row, 64), math).brcv.is_none(), "small");
    assert!(plan_for(f32, (1 << 20, 1 << 20, 8, nnz), (row, 8), (row, 8), math).brcv.is_none(), "narrow");
    let tc = plan_for(f32, (1 << 20, 1 << 20, 64, nnz), (row, 64), (row, 64), MathMode::OXSPARSE_TF32_TENSOR_OP_MATH);
    assert!(matches!(tc.kernel, Kernel::TensorCore { .. }) && tc.brcv.is_none(), "tensor cores: {:?}", tc.kernel);
    let col = plan_for(f32, (1 << 20, 1 << 20, 64, nnz), (Order::OXSPARSE_ORDER_COL, 1 << 20), (Order::OXSPARSE_ORDER_COL, 1 << 20), math);
    assert!(col.brcv.is_some(), "column-major B and C: {:?}", col.kernel);
}
