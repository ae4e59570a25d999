//! SDDMM on the native SR-BCRS object (issue 60): at every slot the object stores, out = alpha *
//! (A B) + beta * out, A and B int4, int8 or int16 dense (A at least as wide as B), int32
//! accumulation on integer tensor cores, out int32 or FP32 in the object's value order
//! (docs/design/srbcrs.md, "SDDMM"). The object's stored vectors are the mask (every row of a
//! vector at its column); its values and row scale are not read, and its value type only sets
//! the output's order (its stride).

use super::srbcrs::{value_bits, SrBcrs};
use crate::context::Handle;
use crate::descr::{DnMat, DnVec};
use crate::error::{invalid, unsupported, Result};
use crate::kernels::params::srbcrs_sddmm::SrBcrsSddmmParams;
use crate::kernels::srbcrs_sddmm as launch;
use crate::types::{DataType, Order};
use std::ffi::c_void;

/// `(row_stride, col_stride)` of a dense matrix's elements.
fn strides(d: &DnMat) -> (i64, i64) {
    match d.order {
        Order::OXSPARSE_ORDER_ROW => (d.ld, 1),
        Order::OXSPARSE_ORDER_COL => (1, d.ld),
    }
}

/// Whether every line of `d` (rows when row-major, columns when column-major) starts 16-byte
/// aligned, so that a lane reads its elements in 16-byte loads.
fn wide_lines(d: &DnMat, bits: i32) -> bool {
    d.values % 16 == 0 && (d.ld * bits as i64) % 128 == 0
}

impl SrBcrs {
    /// Checks A, B, the output and the compute type; fills everything but the scalars, and gives
    /// the pair of A's and B's bits.
    fn sddmm_plan(&self, h: &Handle, a: &DnMat, b: &DnMat, c: &DnVec, compute: DataType) -> Result<(SrBcrsSddmmParams, (i32, i32))> {
        if h.device != self.device {
            invalid!("the object lives on device {}, the handle on device {}", self.device, h.device);
        }
        if a.rows != self.rows || b.cols != self.cols || a.cols != b.rows {
            invalid!(
                "shapes do not match: the object {}x{}, A {}x{}, B {}x{} (need A {}xK and B Kx{})",
                self.rows,
                self.cols,
                a.rows,
                a.cols,
                b.rows,
                b.cols,
                self.rows,
                self.cols
            );
        }
        let slots = self.vectors * self.vector_length as i64;
        if c.size != slots {
            invalid!("vecC holds {} values, the object {} slots (vectors x vectorLength)", c.size, slots);
        }
        let (a_bits, b_bits) = match (value_bits(a.value_type), value_bits(b.value_type)) {
            (Some(l), Some(r)) if l >= r => (l, r),
            _ => unsupported!(
                "A and B must be int4, int8 or int16 (CUDA_R_4I, CUDA_R_8I, CUDA_R_16I) with A at least as wide as B \
                 (pairs 4-4, 8-4, 8-8, 16-4, 16-8, 16-16), not {:?} and {:?}",
                a.value_type,
                b.value_type
            ),
        };
        if !matches!(compute, DataType::CUDA_R_32I | DataType::CUDA_R_32F) || c.value_type != compute {
            unsupported!(
                "vecC and the compute type must both be CUDA_R_32I or both CUDA_R_32F (vecC {:?}, compute {:?})",
                c.value_type,
                compute
            );
        }
        if a.batch_count != 1 || b.batch_count != 1 {
            unsupported!("A and B must be single matrices (batches {} and {})", a.batch_count, b.batch_count);
        }
        let ((a_row_stride, a_col_stride), (b_row_stride, b_col_stride)) = (strides(a), strides(b));
        // A's rows and B's columns read in vector loads: k-contiguous, aligned lines.
        let wide =
            a.order == Order::OXSPARSE_ORDER_ROW && b.order == Order::OXSPARSE_ORDER_COL && wide_lines(a, a_bits) && wide_lines(b, b_bits);
        let p = SrBcrsSddmmParams {
            vec_ptr: self.vec_ptr,
            warp_row: self.warp_row,
            vec_col: self.vec_col,
            out: c.values,
            a: a.values,
            b: b.values,
            m: self.rows,
            k: a.cols,
            warps: self.vectors / launch::WARP_VECTORS,
            a_row_stride,
            a_col_stride,
            b_row_stride,
            b_col_stride,
            vector_length: self.vector_length,
            stride: self.stride as i32,
            wide_lines: wide as i32,
            ..Default::default()
        };
        Ok((p, (a_bits, b_bits)))
    }

    /// The workspace an SDDMM needs: none (after the same checks as the call).
    pub fn sddmm_buffer_size(&self, h: &Handle, a: &DnMat, b: &DnMat, c: &DnVec, compute: DataType) -> Result<usize> {
        self.sddmm_plan(h, a, b, c, compute).map(|_| 0)
    }

    /// Checks the operands as the call will; there is nothing to precompute.
    pub fn sddmm_preprocess(&self, h: &Handle, a: &DnMat, b: &DnMat, c: &DnVec, compute: DataType) -> Result<()> {
        self.sddmm_plan(h, a, b, c, compute).map(|_| ())
    }

    /// out = alpha A B at the slots + beta out on the handle's stream; alpha and beta of `compute`
    /// type in the handle's pointer mode.
    ///
    /// # Safety
    /// In host pointer mode, `alpha` and `beta` point to values of the compute type.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn sddmm(
        &self,
        h: &Handle,
        alpha: *const c_void,
        a: &DnMat,
        b: &DnMat,
        beta: *const c_void,
        c: &DnVec,
        compute: DataType,
    ) -> Result<()> {
        let (p, pair) = self.sddmm_plan(h, a, b, c, compute)?;
        if p.warps == 0 {
            return Ok(());
        }
        let (alpha, beta) = (crate::kernels::scalar(h, alpha, compute)?, crate::kernels::scalar(h, beta, compute)?);
        launch::sddmm(h, &SrBcrsSddmmParams { alpha, beta, ..p }, pair, compute)
    }
}
