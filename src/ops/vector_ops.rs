//! The sparse-vector routines: Axpby, Gather, Scatter, Rot, SpVV (X sparse, Y dense).
//!
//! Data types, as cuSPARSE 12.x documents them (generic API, one section per routine):
//!
//! | routine        | X = Y value type                          | compute (scalars, result)        |
//! |----------------|-------------------------------------------|----------------------------------|
//! | Axpby, Rot     | R_32F, R_64F, C_32F, C_64F                | the same                         |
//! |                | R_16F, R_16BF / C_16F, C_16BF             | R_32F / C_32F                    |
//! | Gather         | R_16F, R_16BF, R_32F, R_64F, C_16F, C_16BF, C_32F, C_64F | (none)            |
//! | Scatter        | as Gather, plus R_8I                      | (none)                           |
//! | SpVV           | R_32F, R_64F, C_32F, C_64F                | the same                         |
//! |                | R_8I                                      | R_32I or R_32F                   |
//! |                | R_16F, R_16BF / C_16F, C_16BF             | R_32F / C_32F                    |
//!
//! Indices are 32- or 64-bit, base 0 or 1, distinct, in any order. Everything is asynchronous on
//! the handle's stream except SpVV in host pointer mode, which must hand its result to the host.

use crate::context::Handle;
use crate::descr::{DnVec, SpVec};
use crate::error::{invalid, unsupported, Result};
use crate::kernels::{self, params::Scalar, vector_ops as k, BLOCK};
use crate::types::{DataType, IndexType, Operation, PointerMode};
use std::ffi::c_void;
use DataType::*;

/// Most partial sums SpVV's first pass writes (and blocks it launches); enough to fill a GPU.
pub const SPVV_MAX_PARTIALS: u32 = 1024;

/// The routines without a computeType argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Routine {
    Axpby,
    Gather,
    Scatter,
    Rot,
}

/// Sizes, then pointers: X and Y describe vectors of one length, Y has storage when it has
/// entries, and every scalar argument (`(name, pointer)`) is non-NULL.
pub fn check_operands(x: &SpVec, y: &DnVec, scalars: &[(&str, *const c_void)]) -> Result<()> {
    if x.size != y.size {
        invalid!("vecX has size {} but vecY has size {}", x.size, y.size);
    }
    if y.size > 0 && y.values == 0 {
        invalid!("vecY has {} entries but NULL values", y.size);
    }
    for &(name, p) in scalars {
        if p.is_null() {
            invalid!("{name} is NULL");
        }
    }
    Ok(())
}

/// Index type and value types shared by every routine: 32/64-bit indices, X and Y alike.
fn check_types(x: &SpVec, y: &DnVec) -> Result<()> {
    if x.index_type == IndexType::OXSPARSE_INDEX_16U {
        unsupported!("only the index types OXSPARSE_INDEX_32I and OXSPARSE_INDEX_64I are supported");
    }
    if x.value_type != y.value_type {
        unsupported!("vecX ({:?}) and vecY ({:?}) must have the same value type", x.value_type, y.value_type);
    }
    Ok(())
}

/// The compute type of `routine` on operands of type `t` (for Gather and Scatter, `t` itself:
/// they only move values), or NotSupported.
pub fn compute_type(routine: Routine, t: DataType) -> Result<DataType> {
    let compute = match (routine, t) {
        (_, CUDA_R_32F | CUDA_R_64F | CUDA_C_32F | CUDA_C_64F) => t,
        (Routine::Axpby | Routine::Rot, CUDA_R_16F | CUDA_R_16BF) => CUDA_R_32F,
        (Routine::Axpby | Routine::Rot, CUDA_C_16F | CUDA_C_16BF) => CUDA_C_32F,
        (Routine::Gather | Routine::Scatter, CUDA_R_16F | CUDA_R_16BF | CUDA_C_16F | CUDA_C_16BF) => t,
        (Routine::Scatter, CUDA_R_8I) => t,
        _ => unsupported!("{routine:?} does not support value type {t:?}"),
    };
    Ok(compute)
}

/// Checks a call of `routine` without touching the GPU and returns its compute type.
pub fn plan(routine: Routine, x: &SpVec, y: &DnVec, scalars: &[(&str, *const c_void)]) -> Result<DataType> {
    check_operands(x, y, scalars)?;
    check_types(x, y)?;
    compute_type(routine, x.value_type)
}

/// What SpVV enqueues and the workspace it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpvvPlan {
    pub compute: DataType,
    pub conj_x: bool,
    /// Blocks of the first pass, one partial sum each; 0 when nnz is 0 (nothing is launched).
    pub partials: u32,
    /// `partials` partial sums then one result slot (host pointer mode), in the compute type.
    pub buffer_bytes: usize,
}

impl SpvvPlan {
    /// Byte offset in the buffer of the slot that holds the result before it goes to the host.
    pub fn result_slot(&self) -> u64 {
        self.partials as u64 * self.compute.size_bytes()
    }
}

/// Whether SpVV accepts operands of `value` type with `compute` as computeType.
pub fn spvv_supported(value: DataType, compute: DataType) -> bool {
    matches!(
        (value, compute),
        (CUDA_R_32F, CUDA_R_32F)
            | (CUDA_R_64F, CUDA_R_64F)
            | (CUDA_C_32F, CUDA_C_32F)
            | (CUDA_C_64F, CUDA_C_64F)
            | (CUDA_R_8I, CUDA_R_32I | CUDA_R_32F)
            | (CUDA_R_16F | CUDA_R_16BF, CUDA_R_32F)
            | (CUDA_C_16F | CUDA_C_16BF, CUDA_C_32F)
    )
}

/// Checks an SpVV call (and its bufferSize query) without touching the GPU. Every opX is accepted:
/// TRANSPOSE of a vector is the vector itself, CONJUGATE_TRANSPOSE conjugates complex X.
pub fn plan_spvv(op: Operation, x: &SpVec, y: &DnVec, result: *const c_void, compute: DataType) -> Result<SpvvPlan> {
    check_operands(x, y, &[("result", result)])?;
    check_types(x, y)?;
    if !spvv_supported(x.value_type, compute) {
        unsupported!("SpVV does not support value type {:?} with computeType {compute:?}", x.value_type);
    }
    // A pure function of nnz, so bufferSize and SpVV agree and the summation order is fixed.
    let partials = (x.nnz as u64).div_ceil(BLOCK as u64).min(SPVV_MAX_PARTIALS as u64) as u32;
    let buffer_bytes = if partials == 0 { 0 } else { (partials as usize + 1) * compute.size_bytes() as usize };
    let conj_x = op == Operation::OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE && compute.is_complex();
    Ok(SpvvPlan { compute, conj_x, partials, buffer_bytes })
}

/// `Y = alpha * X + beta * Y`; entries of Y that X does not index are scaled by beta.
///
/// # Safety
/// In host pointer mode `alpha` and `beta` point to readable values of the compute type.
pub unsafe fn axpby(h: &Handle, alpha: *const c_void, x: &SpVec, beta: *const c_void, y: &DnVec) -> Result<()> {
    let compute = plan(Routine::Axpby, x, y, &[("alpha", alpha), ("beta", beta)])?;
    if y.size == 0 {
        return Ok(());
    }
    let alpha = kernels::scalar(h, alpha, compute)?;
    let beta = kernels::scalar(h, beta, compute)?;
    // In host mode, beta == 1 needs no pass over Y (the kernel also checks, for device mode).
    if !is_host_one(&beta, compute) {
        k::scale(h, y, beta)?;
    }
    if x.nnz > 0 {
        k::axpy(h, x, y, alpha)?;
    }
    Ok(())
}

/// `X.values[i] = Y[X.indices[i]]`.
pub fn gather(h: &Handle, y: &DnVec, x: &SpVec) -> Result<()> {
    plan(Routine::Gather, x, y, &[])?;
    if x.nnz == 0 {
        return Ok(());
    }
    k::gather(h, y, x)
}

/// `Y[X.indices[i]] = X.values[i]`; other entries of Y are left as they are.
pub fn scatter(h: &Handle, x: &SpVec, y: &DnVec) -> Result<()> {
    plan(Routine::Scatter, x, y, &[])?;
    if x.nnz == 0 {
        return Ok(());
    }
    k::scatter(h, x, y)
}

/// The Givens rotation: `x' = c x + s y`, `y' = c y - s x` for each stored x and its y.
///
/// # Safety
/// In host pointer mode `c_coeff` and `s_coeff` point to readable values of the compute type.
pub unsafe fn rot(h: &Handle, c_coeff: *const c_void, s_coeff: *const c_void, x: &SpVec, y: &DnVec) -> Result<()> {
    let compute = plan(Routine::Rot, x, y, &[("c_coeff", c_coeff), ("s_coeff", s_coeff)])?;
    if x.nnz == 0 {
        return Ok(());
    }
    let c = kernels::scalar(h, c_coeff, compute)?;
    let s = kernels::scalar(h, s_coeff, compute)?;
    k::rot(h, x, y, c, s)
}

/// Bytes of workspace `spvv` needs for exactly these arguments.
pub fn spvv_buffer_size(op: Operation, x: &SpVec, y: &DnVec, result: *const c_void, compute: DataType) -> Result<usize> {
    Ok(plan_spvv(op, x, y, result, compute)?.buffer_bytes)
}

/// `result = sum op(X.values[i]) * Y[X.indices[i]]`, in the compute type. In host pointer mode the
/// call returns once the value is in `*result` (under stream capture: once the graph has run); in
/// device mode it is written in stream order. The sum is deterministic: a fixed grid for a given
/// nnz, a fixed order inside each block, and one block adding the block sums in order.
///
/// # Safety
/// `result` points to writable memory for a compute-type value (host or device per pointer mode);
/// `buffer` is a device allocation of at least `spvv_buffer_size` bytes.
pub unsafe fn spvv(h: &Handle, op: Operation, x: &SpVec, y: &DnVec, result: *mut c_void, compute: DataType, buffer: u64) -> Result<()> {
    let plan = plan_spvv(op, x, y, result, compute)?;
    let size = compute.size_bytes();
    if plan.buffer_bytes > 0 && buffer == 0 {
        invalid!("externalBuffer is NULL but SpVV needs {} bytes", plan.buffer_bytes);
    }
    if buffer % size != 0 {
        invalid!("externalBuffer {buffer:#x} is not aligned to {size} bytes");
    }
    let device_mode = h.pointer_mode == PointerMode::OXSPARSE_POINTER_MODE_DEVICE;
    if device_mode && result as u64 % size != 0 {
        invalid!("result {result:p} is not aligned to {size} bytes");
    }
    if x.nnz == 0 {
        // The empty sum; all-zero bytes are zero in every compute type.
        if device_mode {
            return k::zero_device(h, result as u64, size as usize);
        }
        std::ptr::write_bytes(result as *mut u8, 0, size as usize);
        return Ok(());
    }
    let slot = buffer + plan.result_slot();
    let out = if device_mode { result as u64 } else { slot };
    k::spvv(h, x, y, compute, plan.conj_x, buffer, plan.partials, out)?;
    if !device_mode {
        k::copy_to_host_and_wait(h, slot, std::slice::from_raw_parts_mut(result as *mut u8, size as usize))?;
    }
    Ok(())
}

/// True when `s` holds, on the host, exactly 1 of type `compute`.
fn is_host_one(s: &Scalar, compute: DataType) -> bool {
    if s.device != 0 {
        return false;
    }
    match compute {
        CUDA_R_32F => s.host[0] as u32 == 1.0f32.to_bits(),
        CUDA_C_32F => s.host[0] == 1.0f32.to_bits() as u64,
        CUDA_R_64F => s.host[0] == 1.0f64.to_bits(),
        CUDA_C_64F => s.host == [1.0f64.to_bits(), 0],
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::types::IndexBase::*;
    use crate::types::IndexType::*;
    use crate::types::Operation::*;

    const SOME: *const c_void = 0x1000 as *const c_void;

    fn spvec(size: i64, nnz: i64, index_type: IndexType, t: DataType) -> SpVec {
        SpVec::new(size, nnz, 0x10000, 0x20000, index_type, OXSPARSE_INDEX_BASE_ONE, t).unwrap()
    }
    fn dnvec(size: i64, t: DataType) -> DnVec {
        DnVec::new(size, 0x30000, t).unwrap()
    }
    fn is_invalid<T: std::fmt::Debug>(r: Result<T>) -> bool {
        matches!(r, Err(Error::InvalidValue(_)))
    }
    fn is_unsupported<T: std::fmt::Debug>(r: Result<T>) -> bool {
        matches!(r, Err(Error::NotSupported(_)))
    }

    #[test]
    fn compute_types_follow_the_documented_tables() {
        use Routine::*;
        for &t in DataType::ALL {
            let low_real = matches!(t, CUDA_R_16F | CUDA_R_16BF);
            let low_complex = matches!(t, CUDA_C_16F | CUDA_C_16BF);
            let uniform = matches!(t, CUDA_R_32F | CUDA_R_64F | CUDA_C_32F | CUDA_C_64F);
            let arith = if uniform {
                Some(t)
            } else if low_real {
                Some(CUDA_R_32F)
            } else if low_complex {
                Some(CUDA_C_32F)
            } else {
                None
            };
            for r in [Axpby, Rot] {
                assert_eq!(compute_type(r, t).ok(), arith, "{r:?} {t:?}");
            }
            let moves = uniform || low_real || low_complex;
            assert_eq!(compute_type(Gather, t).ok(), moves.then_some(t), "Gather {t:?}");
            assert_eq!(compute_type(Scatter, t).ok(), (moves || t == CUDA_R_8I).then_some(t), "Scatter {t:?}");
        }
        assert!(is_unsupported(compute_type(Gather, CUDA_R_8I)));
        assert!(is_unsupported(compute_type(Scatter, CUDA_R_32I)));
    }

    #[test]
    fn operands_must_agree_in_size_and_have_storage() {
        let x = spvec(10, 3, OXSPARSE_INDEX_32I, CUDA_R_32F);
        assert!(plan(Routine::Gather, &x, &dnvec(10, CUDA_R_32F), &[]).is_ok());
        assert!(is_invalid(plan(Routine::Gather, &x, &dnvec(11, CUDA_R_32F), &[])));
        let no_values = DnVec::new(10, 0, CUDA_R_32F).unwrap();
        assert!(is_invalid(plan(Routine::Scatter, &x, &no_values, &[])));
        let empty = spvec(0, 0, OXSPARSE_INDEX_32I, CUDA_R_32F);
        assert!(plan(Routine::Scatter, &empty, &DnVec::new(0, 0, CUDA_R_32F).unwrap(), &[]).is_ok());
    }

    #[test]
    fn null_scalars_are_invalid_even_for_empty_vectors() {
        let x = spvec(0, 0, OXSPARSE_INDEX_32I, CUDA_R_32F);
        let y = dnvec(0, CUDA_R_32F);
        assert!(plan(Routine::Axpby, &x, &y, &[("alpha", SOME), ("beta", SOME)]).is_ok());
        let r = plan(Routine::Axpby, &x, &y, &[("alpha", SOME), ("beta", std::ptr::null())]);
        assert!(matches!(&r, Err(Error::InvalidValue(m)) if m.contains("beta")), "{r:?}");
        assert!(is_invalid(plan(Routine::Rot, &x, &y, &[("c_coeff", std::ptr::null()), ("s_coeff", SOME)])));
    }

    #[test]
    fn sizes_are_checked_before_types() {
        let x = spvec(10, 3, OXSPARSE_INDEX_32I, CUDA_R_32I);
        assert!(is_invalid(plan(Routine::Gather, &x, &dnvec(9, CUDA_R_32F), &[])));
        assert!(is_unsupported(plan(Routine::Gather, &x, &dnvec(10, CUDA_R_32I), &[])));
    }

    #[test]
    fn mixed_value_types_and_16_bit_indices_are_not_supported() {
        let x = spvec(10, 3, OXSPARSE_INDEX_32I, CUDA_R_32F);
        assert!(is_unsupported(plan(Routine::Scatter, &x, &dnvec(10, CUDA_R_64F), &[])));
        let x16 = spvec(10, 3, OXSPARSE_INDEX_16U, CUDA_R_32F);
        assert!(is_unsupported(plan(Routine::Scatter, &x16, &dnvec(10, CUDA_R_32F), &[])));
        assert!(is_unsupported(plan_spvv(OXSPARSE_OPERATION_NON_TRANSPOSE, &x16, &dnvec(10, CUDA_R_32F), SOME, CUDA_R_32F)));
        assert!(plan(Routine::Scatter, &spvec(10, 3, OXSPARSE_INDEX_64I, CUDA_R_32F), &dnvec(10, CUDA_R_32F), &[]).is_ok());
    }

    #[test]
    fn spvv_type_combinations() {
        let ok = [
            (CUDA_R_32F, CUDA_R_32F),
            (CUDA_R_64F, CUDA_R_64F),
            (CUDA_C_32F, CUDA_C_32F),
            (CUDA_C_64F, CUDA_C_64F),
            (CUDA_R_8I, CUDA_R_32I),
            (CUDA_R_8I, CUDA_R_32F),
            (CUDA_R_16F, CUDA_R_32F),
            (CUDA_R_16BF, CUDA_R_32F),
            (CUDA_C_16F, CUDA_C_32F),
            (CUDA_C_16BF, CUDA_C_32F),
        ];
        for &v in DataType::ALL {
            for &c in DataType::ALL {
                assert_eq!(spvv_supported(v, c), ok.contains(&(v, c)), "{v:?} -> {c:?}");
                let r = plan_spvv(OXSPARSE_OPERATION_NON_TRANSPOSE, &spvec(10, 3, OXSPARSE_INDEX_32I, v), &dnvec(10, v), SOME, c);
                assert_eq!(r.is_ok(), ok.contains(&(v, c)));
                if r.is_err() {
                    assert!(is_unsupported(r));
                }
            }
        }
    }

    #[test]
    fn spvv_needs_a_result_pointer() {
        let x = spvec(10, 3, OXSPARSE_INDEX_32I, CUDA_R_32F);
        let r = plan_spvv(OXSPARSE_OPERATION_NON_TRANSPOSE, &x, &dnvec(10, CUDA_R_32F), std::ptr::null(), CUDA_R_32F);
        assert!(is_invalid(r));
    }

    #[test]
    fn spvv_workspace_is_one_partial_per_block_plus_a_result_slot() {
        let case = |nnz: i64, c: DataType| {
            let t = if c == CUDA_R_32I { CUDA_R_8I } else { c };
            let x = SpVec::new(1 << 40, nnz, 0x10000, 0x20000, OXSPARSE_INDEX_64I, OXSPARSE_INDEX_BASE_ZERO, t).unwrap();
            let p = plan_spvv(OXSPARSE_OPERATION_NON_TRANSPOSE, &x, &DnVec::new(1 << 40, 0x30000, t).unwrap(), SOME, c).unwrap();
            (p.partials, p.buffer_bytes)
        };
        assert_eq!(case(0, CUDA_R_32F), (0, 0));
        assert_eq!(case(1, CUDA_R_32F), (1, 8));
        assert_eq!(case(256, CUDA_C_64F), (1, 32));
        assert_eq!(case(257, CUDA_R_64F), (2, 24));
        assert_eq!(case(100_000, CUDA_R_32I), (391, 392 * 4));
        assert_eq!(case(1 << 35, CUDA_C_32F), (SPVV_MAX_PARTIALS, (SPVV_MAX_PARTIALS as usize + 1) * 8));
    }

    #[test]
    fn spvv_conjugates_only_complex_x_under_conjugate_transpose() {
        let conj = |op, t: DataType| plan_spvv(op, &spvec(10, 3, OXSPARSE_INDEX_32I, t), &dnvec(10, t), SOME, t).unwrap().conj_x;
        assert!(conj(OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE, CUDA_C_32F));
        assert!(!conj(OXSPARSE_OPERATION_TRANSPOSE, CUDA_C_32F));
        assert!(!conj(OXSPARSE_OPERATION_NON_TRANSPOSE, CUDA_C_64F));
        assert!(!conj(OXSPARSE_OPERATION_CONJUGATE_TRANSPOSE, CUDA_R_64F));
    }

    #[test]
    fn host_one_is_recognised_per_compute_type() {
        let host = |bytes: &[u8]| {
            let mut s = Scalar::default();
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), s.host.as_mut_ptr() as *mut u8, bytes.len()) };
            s
        };
        assert!(is_host_one(&host(&1.0f32.to_le_bytes()), CUDA_R_32F));
        assert!(!is_host_one(&host(&2.0f32.to_le_bytes()), CUDA_R_32F));
        assert!(is_host_one(&host(&1.0f64.to_le_bytes()), CUDA_R_64F));
        assert!(is_host_one(&host(&[1.0f32.to_le_bytes(), 0.0f32.to_le_bytes()].concat()), CUDA_C_32F));
        assert!(!is_host_one(&host(&[1.0f32.to_le_bytes(), 1.0f32.to_le_bytes()].concat()), CUDA_C_32F));
        assert!(!is_host_one(&host(&[1.0f64.to_le_bytes(), 0.5f64.to_le_bytes()].concat()), CUDA_C_64F));
        assert!(!is_host_one(&Scalar { host: [0; 2], device: 0x1000 }, CUDA_R_32F), "device scalars are unknown");
    }
}
