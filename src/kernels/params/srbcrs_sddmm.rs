//! Parameter block of the SR-BCRS int8 SDDMM (`kernels/srbcrs_sddmm.cu`): the object's stored
//! vectors are the mask, their slots the output (docs/design/srbcrs.md, "SDDMM").

/// out = alpha * (A B) at every stored slot + beta * out, A (m x k) and B (k x cols) int8 dense,
/// out int32 or FP32 in the object's value order. Dense elements are addressed as
/// `row * row_stride + col * col_stride` (either order).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SrBcrsSddmmParams {
    /// The object's arrays (its values are not read: only which vectors it stores matters).
    pub vec_ptr: u64,
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
    pub vector_rows: i64,
    /// Stride blocks of the object: its vectors / 32.
    pub blocks: i64,
    pub a_row_stride: i64,
    pub a_col_stride: i64,
    pub b_row_stride: i64,
    pub b_col_stride: i64,
    pub vector_length: i32,
    /// 1 when A is row-major and B column-major, both with 16-byte aligned lines (address and
    /// leading dimension multiples of 16): the lines are read 16 bytes at a time; else bytewise.
    pub lines16: i32,
}
