//! Launchers for `kernels/vector_ops.cu` (Axpby, Gather, Scatter, Rot, SpVV), and the two driver
//! calls SpVV needs around them: zeroing a device result, and bringing a result to the host.

use super::name::KernelName;
use super::params::vector_ops::*;
use super::params::Scalar;
use super::{grid_for, launch, BLOCK};
use crate::context::Handle;
use crate::descr::{DnVec, SpVec};
use crate::error::{Error, Result};
use crate::kernel_name;
use crate::types::{DataType, IndexType};
use cudarc::driver::result;

const FAMILY: &str = "vector_ops";

fn index_suffix(t: IndexType) -> Result<&'static str> {
    match t {
        IndexType::OXSPARSE_INDEX_32I => Ok("i32"),
        IndexType::OXSPARSE_INDEX_64I => Ok("i64"),
        IndexType::OXSPARSE_INDEX_16U => Err(Error::Internal("16-bit indices reached a vector kernel".into())),
    }
}

/// `oxs_<op>_<value>_<index>`.
fn name(op: &str, x: &SpVec) -> Result<KernelName> {
    Ok(kernel_name!("oxs_{op}_{}_{}", x.value_type.kernel_suffix(), index_suffix(x.index_type)?))
}

/// Grid of a grid-stride loop over the `nnz` stored entries of X.
fn nnz_grid(x: &SpVec) -> (u32, u32, u32) {
    (grid_for(x.nnz as u64, BLOCK), 1, 1)
}

/// Axpby's first pass: `Y = beta * Y` over all of Y.
pub fn scale(h: &Handle, y: &DnVec, beta: Scalar) -> Result<()> {
    let p = VecScaleParams { beta, size: y.size, y_values: y.values };
    let kernel = kernel_name!("oxs_axpby_scale_{}", y.value_type.kernel_suffix());
    launch(h, FAMILY, &kernel, (grid_for(y.size as u64, BLOCK), 1, 1), BLOCK, 0, &p)
}

/// Axpby's second pass: `Y[X.indices] += alpha * X.values`.
pub fn axpy(h: &Handle, x: &SpVec, y: &DnVec, alpha: Scalar) -> Result<()> {
    let p = VecAxpyParams { alpha, nnz: x.nnz, base: x.index_base.offset(), x_indices: x.indices, x_values: x.values, y_values: y.values };
    launch(h, FAMILY, &name("axpby", x)?, nnz_grid(x), BLOCK, 0, &p)
}

fn move_params(x: &SpVec, y: &DnVec) -> VecMoveParams {
    VecMoveParams { nnz: x.nnz, base: x.index_base.offset(), x_indices: x.indices, x_values: x.values, y_values: y.values }
}

/// `X.values = Y[X.indices]`.
pub fn gather(h: &Handle, y: &DnVec, x: &SpVec) -> Result<()> {
    launch(h, FAMILY, &name("gather", x)?, nnz_grid(x), BLOCK, 0, &move_params(x, y))
}

/// `Y[X.indices] = X.values`.
pub fn scatter(h: &Handle, x: &SpVec, y: &DnVec) -> Result<()> {
    launch(h, FAMILY, &name("scatter", x)?, nnz_grid(x), BLOCK, 0, &move_params(x, y))
}

/// The Givens rotation (c, s) on X.values and Y[X.indices].
pub fn rot(h: &Handle, x: &SpVec, y: &DnVec, c: Scalar, s: Scalar) -> Result<()> {
    let p = VecRotParams { c, s, nnz: x.nnz, base: x.index_base.offset(), x_indices: x.indices, x_values: x.values, y_values: y.values };
    launch(h, FAMILY, &name("rot", x)?, nnz_grid(x), BLOCK, 0, &p)
}

/// SpVV, both passes: `partials` blocks each write one partial sum at `buffer`, then one block adds
/// them in order and writes the `compute`-typed result to the device address `out`.
#[allow(clippy::too_many_arguments)]
pub fn spvv(h: &Handle, x: &SpVec, y: &DnVec, compute: DataType, conj_x: bool, buffer: u64, partials: u32, out: u64) -> Result<()> {
    let first = SpvvPartialParams {
        nnz: x.nnz,
        base: x.index_base.offset(),
        x_indices: x.indices,
        x_values: x.values,
        y_values: y.values,
        partials: buffer,
        conj_x: conj_x as i32,
    };
    let kernel = kernel_name!("oxs_spvv_{}_{}_{}", x.value_type.kernel_suffix(), compute.kernel_suffix(), index_suffix(x.index_type)?);
    launch(h, FAMILY, &kernel, (partials, 1, 1), BLOCK, 0, &first)?;
    let second = SpvvFinishParams { count: partials as i64, partials: buffer, out };
    launch(h, FAMILY, &kernel_name!("oxs_spvv_finish_{}", compute.kernel_suffix()), (1, 1, 1), BLOCK, 0, &second)
}

/// Enqueues zeroing `bytes` bytes at the device address `dst` on the handle's stream.
pub fn zero_device(h: &Handle, dst: u64, bytes: usize) -> Result<()> {
    super::graph::flush(h)?;
    let _bound = h.bind()?;
    // SAFETY: the caller's device pointer to at least `bytes` bytes, written in stream order.
    unsafe { result::memset_d8_async(dst, 0, bytes, h.cu_stream()) }.map_err(|e| Error::from_driver("cuMemsetD8Async", e))
}

/// Copies `src` to the device address `dst` after the work already on the handle's stream, and
/// waits until it has landed (so `src` may go at once). Not for use under graph capture.
pub fn copy_to_device_and_wait(h: &Handle, dst: u64, src: &[u8]) -> Result<()> {
    super::graph::flush(h)?;
    let _bound = h.bind()?;
    let stream = h.cu_stream();
    // SAFETY: `dst` holds at least `src.len()` bytes (the caller's workspace layout); the wait
    // keeps `src` borrowed until the copy is complete.
    unsafe {
        result::memcpy_htod_async(dst, src, stream).map_err(|e| Error::from_driver("cuMemcpyHtoDAsync", e))?;
        result::stream::synchronize(stream).map_err(|e| Error::from_driver("cuStreamSynchronize", e))
    }
}

/// Copies each `(dst, src)` part to its device address after the work already on the handle's
/// stream, and waits once until all have landed. Not for use under graph capture.
pub fn copy_parts_to_device_and_wait(h: &Handle, parts: &[(u64, &[u8])]) -> Result<()> {
    super::graph::flush(h)?;
    let _bound = h.bind()?;
    let stream = h.cu_stream();
    // SAFETY: each `dst` holds at least its part's bytes (the caller's workspace layout); the wait
    // keeps every part borrowed until its copy is complete.
    unsafe {
        for (dst, src) in parts.iter().filter(|(_, src)| !src.is_empty()) {
            result::memcpy_htod_async(*dst, src, stream).map_err(|e| Error::from_driver("cuMemcpyHtoDAsync", e))?;
        }
        result::stream::synchronize(stream).map_err(|e| Error::from_driver("cuStreamSynchronize", e))
    }
}

/// Copies `dst.len()` bytes from the device address `src` to `dst` after the work already on the
/// handle's stream, and waits until they have arrived. While the stream is being captured into a
/// CUDA graph nothing may wait: the copy becomes a node of the graph and lands when it runs (how
/// NVIDIA's graph_capture sample uses SpVV with a host result).
pub fn copy_to_host_and_wait(h: &Handle, src: u64, dst: &mut [u8]) -> Result<()> {
    super::graph::flush(h)?;
    let _bound = h.bind()?;
    let stream = h.cu_stream();
    let capturing = super::capturing(h)?;
    // SAFETY: `src` holds at least `dst.len()` bytes. Outside capture the wait below keeps `dst`
    // borrowed until the copy is complete; under capture the caller's pointer is recorded, as the
    // caller asked by capturing a call with a host result.
    unsafe {
        result::memcpy_dtoh_async(dst, src, stream).map_err(|e| Error::from_driver("cuMemcpyDtoHAsync", e))?;
        if capturing {
            return Ok(());
        }
        result::stream::synchronize(stream).map_err(|e| Error::from_driver("cuStreamSynchronize", e))
    }
}
