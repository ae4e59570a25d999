//! SDDMM on the native SR-BCRS object (issue 60): at every slot the object stores, out = alpha *
//! (A B) + beta * out, A and B int8 dense, int32 accumulation on integer tensor cores, out int32
//! or FP32 in the object's value order (docs/design/srbcrs.md, "SDDMM"). The object's stored
//! vectors are the mask (every row of a vector at its column); its values and row scale are not
//! read. The object must hold int8 values (int4 and int16 objects are refused).

use super::srbcrs::SrBcrs;
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

impl SrBcrs {
    /// Checks A, B, the output and the compute type; fills everything but the scalars.
    fn sddmm_plan(&self, h: &Handle, a: &DnMat, b: &DnMat, c: &DnVec, compute: DataType) -> Result<SrBcrsSddmmParams> {
        if h.device != self.device {
            invalid!("the object lives on device {}, the handle on device {}", self.device, h.device);
        }
        // The kernel walks stride-32 blocks of byte vectors: int8 objects only for now.
        if self.value_type != DataType::CUDA_R_8I {
            unsupported!("the SR-BCRS SDDMM takes an object of int8 values (CUDA_R_8I), not {:?}", self.value_type);
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
        if a.value_type != DataType::CUDA_R_8I || b.value_type != DataType::CUDA_R_8I {
            unsupported!("A and B must be int8 (CUDA_R_8I), not {:?} and {:?}", a.value_type, b.value_type);
        }
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
        // A's rows and B's columns read 16 bytes at a time: k-contiguous lines, 16-byte aligned.
        let lines16 = a.order == Order::OXSPARSE_ORDER_ROW
            && b.order == Order::OXSPARSE_ORDER_COL
            && (a.values | b.values) % 16 == 0
            && a.ld % 16 == 0
            && b.ld % 16 == 0;
        Ok(SrBcrsSddmmParams {
            vec_ptr: self.vec_ptr,
            vec_col: self.vec_col,
            out: c.values,
            a: a.values,
            b: b.values,
            m: self.rows,
            k: a.cols,
            vector_rows: self.vector_rows,
            blocks: self.vectors / self.stride,
            a_row_stride,
            a_col_stride,
            b_row_stride,
            b_col_stride,
            vector_length: self.vector_length,
            lines16: lines16 as i32,
            ..Default::default()
        })
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
        let p = self.sddmm_plan(h, a, b, c, compute)?;
        if p.blocks == 0 {
            return Ok(());
        }
        let (alpha, beta) = (crate::kernels::scalar(h, alpha, compute)?, crate::kernels::scalar(h, beta, compute)?);
        launch::sddmm(h, &SrBcrsSddmmParams { alpha, beta, ..p }, compute)
    }
}
