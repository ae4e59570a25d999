//! The native BitTCF object (`oxsparseCreateBitTcf`, issue 4): a sparse matrix converted once into
//! the tensor cores' format, data-affinity reordered if asked, in device memory the object owns,
//! with the row order it chose handed back. It is SpMM's preprocessed state in a buffer of its own:
//! `create` plans the call as SpMM would for these operands (the tensor-core plan is required),
//! allocates the workspace and preprocesses into it; `spmm` runs calls over it with new alpha,
//! beta and values (A's values are gathered by every call, as after SpMM_preprocess).
//!
//! FP32 operands take the handle's tensor-op math mode, TF32 if the handle is in the default mode:
//! asking for a BitTCF is asking for tensor cores. The object refers to A's arrays (as a
//! descriptor does): they must outlive it.

use super::{make_plan, plan::Kernel, ActiveBuffer, Call};
use crate::context::{DeviceMemory, Handle};
use crate::descr::{DnMat, SpMat};
use crate::device::DeviceModel;
use crate::error::{invalid, unsupported, Result};
use crate::settings::Settings;
use crate::types::{DataType, MathMode, Operation, ReorderMode, SpMMAlg};
use std::ffi::c_void;

/// Host scalars for the planning calls, which read no scalar (room for a complex double).
static PLANNING_SCALAR: [f64; 2] = [0.0; 2];

pub struct BitTcf {
    op_a: Operation,
    op_b: Operation,
    a: SpMat,
    compute: DataType,
    math: MathMode,
    /// The mode it was made in: part of the plan every call must match.
    reorder: ReorderMode,
    /// The handle's device and settings, which the plan was made for.
    device: DeviceModel,
    settings: Settings,
    memory: DeviceMemory,
    active: ActiveBuffer,
    /// `rows[i]`: the row of op(A) placed at position i (identity when not reordered).
    pub rows: Vec<i64>,
    pub reordered: bool,
    shape: (i64, i64, i64),
    /// The build's choice: tensor cores, or (too few entries per (window, column)) the CUDA-core
    /// tile kernel over the same object. None while a stream capture kept it from being read.
    pub tensor_cores: Option<bool>,
}

impl BitTcf {
    fn call<'a>(&'a self, b: &'a DnMat, c: &'a DnMat, alpha: *const c_void, beta: *const c_void) -> Call<'a> {
        Call {
            op_a: self.op_a,
            op_b: self.op_b,
            a: &self.a,
            b,
            c,
            compute: self.compute,
            alg: SpMMAlg::OXSPARSE_SPMM_ALG_DEFAULT,
            alpha,
            beta,
            math: self.math,
            reorder: self.reorder,
            a_serial: 0,
            device: &self.device,
            settings: &self.settings,
        }
    }

    /// Converts op(A) for SpMMs with operands shaped and laid out like `b` and `c`.
    #[allow(clippy::too_many_arguments)]
    pub fn create(
        h: &Handle,
        op_a: Operation,
        op_b: Operation,
        a: &SpMat,
        b: &DnMat,
        c: &DnMat,
        compute: DataType,
        reorder: ReorderMode,
    ) -> Result<BitTcf> {
        let math = if h.math_mode.tensor_ops() { h.math_mode } else { MathMode::OXSPARSE_TF32_TENSOR_OP_MATH };
        let scalar = PLANNING_SCALAR.as_ptr() as *const c_void;
        let call = Call {
            op_a,
            op_b,
            a,
            b,
            c,
            compute,
            alg: SpMMAlg::OXSPARSE_SPMM_ALG_DEFAULT,
            alpha: scalar,
            beta: scalar,
            math,
            reorder,
            a_serial: 0,
            device: &h.device_model,
            settings: &h.settings,
        };
        let plan = make_plan(&call)?;
        if plan.dims.is_empty() {
            invalid!("a BitTCF needs a non-empty product (m = {}, k = {}, n = {})", plan.dims.m, plan.dims.k, plan.dims.n);
        }
        if !matches!(plan.kernel, Kernel::TensorCore { .. }) {
            unsupported!(
                "these operands do not run on tensor cores (FP32, FP16 or BF16 A and B; one batch; CSR, CSC or COO A; B and C rows in 16-byte vectors; at most 2^31 - 1 entries): plan {:?}",
                plan.kernel
            );
        }
        let memory = DeviceMemory::alloc(h, plan.workspace)?;
        let Some(active) = super::preprocess(h, &call, memory.ptr, || {})? else {
            invalid!("nothing to preprocess");
        };
        let order = super::row_order(h, &call, memory.ptr, &active)?;
        let reordered = order.is_some();
        let rows = match order {
            Some(o) => o.into_iter().map(i64::from).collect(),
            None => (0..plan.dims.m).collect(),
        };
        let tensor_cores = active.decision.tc.choice;
        let shape = (plan.dims.m, plan.dims.k, a.nnz);
        Ok(BitTcf {
            op_a,
            op_b,
            a: a.clone(),
            compute,
            math,
            reorder,
            device: h.device_model,
            settings: h.settings,
            memory,
            active,
            rows,
            reordered,
            shape,
            tensor_cores,
        })
    }

    /// C = alpha op(A) op(B) + beta C over the object; `b` and `c` must have the shapes, types and
    /// layouts the object was made for (their arrays may differ).
    pub fn spmm(&self, h: &Handle, alpha: *const c_void, b: &DnMat, beta: *const c_void, c: &DnMat) -> Result<()> {
        let call = self.call(b, c, alpha, beta);
        super::spmm_preprocessed(h, &call, self.memory.ptr, &self.active)
    }

    /// op(A)'s shape and entries: (m, k, nnz).
    pub fn shape(&self) -> (i64, i64, i64) {
        self.shape
    }

    /// Device memory the object holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.memory.bytes
    }
}
