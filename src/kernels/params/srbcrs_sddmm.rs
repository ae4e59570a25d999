//! Parameter block of the SR-BCRS integer SDDMM (`kernels/srbcrs_sddmm.cu`): the object's stored
//! vectors are the mask, their slots the output (docs/design/srbcrs.md, "SDDMM").

/// out = alpha * (A B) at every stored slot + beta * out, A (m x k) and B (k x cols) int4, int8
/// or int16 dense (the kernel's name gives the pair), out int32 or FP32 in the object's value
/// order. Dense elements are addressed as `row * row_stride + col * col_stride` (either order;
/// int4 two to a byte, the lower element index in the low nibble).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SrBcrsSddmmParams {
    /// The object's arrays (its values are not read: only which vectors it stores matters).
    pub vec_ptr: u64,
    /// i32 per 32 stored vectors (a warp's): their vector row.
    pub warp_row: u64,
    pub vec_col: u64,
    /// `vectors * vector_length` elements of the output type, laid out as the object's values.
    pub out: u64,
    pub a: u64,
    pub b: u64,
    pub alpha: super::Scalar,
    pub beta: super::Scalar,
    /// A's rows (the object's rows) and the reduction depth.
    pub m: i64,
    pub k: i64,
    /// Warps of the grid: the object's vectors / 32.
    pub warps: i64,
    pub a_row_stride: i64,
    pub a_col_stride: i64,
    pub b_row_stride: i64,
    pub b_col_stride: i64,
    pub vector_length: i32,
    /// The object's stride (32, or 64 for int4 objects): the output's value order.
    pub stride: i32,
    /// 1 when A is row-major and B column-major, each with 16-byte aligned lines (address and
    /// leading dimension in bytes): a lane reads its elements of a line in 16-byte loads; else
    /// one by one.
    pub wide_lines: i32,
}
