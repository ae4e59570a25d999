//! The native BRCV object (`oxsparseCreateBrcv`, issue 59): a CSR matrix converted once, on the
//! GPU, into its banded form (docs/design/brcv.md): per block of `BRCV_ROWS` rows the band of
//! diagonal offsets its entries span, values stored dense without column indices, and the entries
//! outside the bands as a small CSR of far entries. `spmm` multiplies with it.
//!
//! Unlike BitTCF the object holds copies of A's values: A's arrays may go once it is made, and new
//! values of A need a new object.

use super::check::{Dims, MAX_BATCHES, TYPE_COMBINATIONS};
use crate::context::{DeviceMemory, Handle};
use crate::descr::{DnMat, FormatInfo, SpMat};
use crate::error::{invalid, unsupported, Result};
use crate::kernels::brcv::{self as k, StructureLayout, Totals};
use crate::kernels::params::brcv::{BrcvFormat, SpmmBrcvParams};
use crate::kernels::params::spmm::{SpmmRows, SpmmShape};
use crate::kernels::spmm::Types;
use crate::types::{DataType, IndexType, Operation};
use std::ffi::c_void;

/// The grid's limit in y and z: column tiles and batches.
const GRID_YZ: i64 = 65_535;

pub struct Brcv {
    m: i64,
    k: i64,
    nnz: i64,
    value_type: DataType,
    /// The device the object's memory lies on: calls must come through a handle of it.
    device: i32,
    fmt: BrcvFormat,
    pub totals: Totals,
    _structure: DeviceMemory,
    _data: DeviceMemory,
}

impl Brcv {
    /// Converts `a` (CSR, one batch, 32- or 64-bit indices of one type, any SpMM value type).
    /// Waits for the GPU (it reads the sizes of what it builds), so not under stream capture.
    pub fn create(h: &Handle, a: &SpMat) -> Result<Brcv> {
        if a.format != FormatInfo::Csr {
            unsupported!("a BRCV is made from a CSR matrix, not {:?}", a.format_enum());
        }
        if a.batch.count > 1 {
            unsupported!("a BRCV holds one matrix, not a batch of {}", a.batch.count);
        }
        if a.index_type == IndexType::OXSPARSE_INDEX_16U || a.offset_type != a.index_type {
            unsupported!("offsets and indices must be both OXSPARSE_INDEX_32I or both OXSPARSE_INDEX_64I");
        }
        if !TYPE_COMBINATIONS.iter().any(|&(ab, _, _)| ab == a.value_type) {
            unsupported!("SpMM has no value type {:?}", a.value_type);
        }
        crate::ops::check_extents(&[("matA", a.nnz.max(0) as u128), ("matA's rows", a.rows.max(0) as u128)])?;
        if a.nnz > 0 {
            crate::ops::stored_arrays(a, "matA")?;
        }
        if crate::kernels::capturing(h)? {
            unsupported!("creating a BRCV waits for the GPU, which a stream capture does not allow");
        }
        let (m, cols) = (a.rows, a.cols);
        let layout = StructureLayout::new(m);
        let structure = DeviceMemory::alloc(h, layout.bytes as usize)?;
        let rows = SpmmRows {
            offsets: a.arrays.offsets,
            cols: a.arrays.indices,
            values: a.arrays.values,
            base: a.index_base.offset(),
            ..Default::default()
        };
        let totals = if m > 0 { k::measure(h, rows, (m, cols), a.index_type, &layout, structure.ptr)? } else { Totals::default() };
        let value_bytes = a.value_type.size_bytes();
        let data_layout = k::DataLayout::new(totals.values, totals.far, value_bytes);
        let data = DeviceMemory::alloc(h, data_layout.bytes as usize)?;
        let fmt = layout.format(m, cols, structure.ptr, data.ptr, totals.values, totals.far, value_bytes);
        if m > 0 {
            k::scatter(h, rows, &fmt, data_layout.values_bytes(), a.value_type, a.index_type)?;
        }
        Ok(Brcv { m, k: cols, nnz: a.nnz, value_type: a.value_type, device: h.device, fmt, totals, _structure: structure, _data: data })
    }

    /// (rows, columns, entries of A).
    pub fn shape(&self) -> (i64, i64, i64) {
        (self.m, self.k, self.nnz)
    }

    /// C = alpha * op(A) * op(B) + beta * C (opA = N only), on the handle's stream. Checks, in
    /// order: the handle's device, opA, sizes and batches, extents, pointers, value types, the
    /// grid's limits; a refused call changes nothing.
    ///
    /// # Safety
    /// In host pointer mode `alpha` and `beta` point to values of `compute` (the API's contract).
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn spmm(
        &self,
        h: &Handle,
        op_a: Operation,
        op_b: Operation,
        alpha: *const c_void,
        b: &DnMat,
        beta: *const c_void,
        c: &DnMat,
        compute: DataType,
    ) -> Result<()> {
        if h.device != self.device {
            invalid!("the BRCV lies on device {}, the handle on device {}", self.device, h.device);
        }
        if op_a != Operation::OXSPARSE_OPERATION_NON_TRANSPOSE {
            unsupported!("SpMM with a BRCV supports only opA = NON_TRANSPOSE");
        }
        let d = self.dims(op_b, b, c)?;
        let batches = d.batches as i64;
        crate::ops::check_extents(&[
            ("op(B)", crate::ops::product(&[d.k, d.n, batches])),
            ("matC", crate::ops::product(&[d.m, d.n, batches])),
        ])?;
        if c.values == 0 {
            invalid!("matC values are NULL");
        }
        if b.values == 0 && d.k > 0 {
            invalid!("matB values are NULL");
        }
        if b.value_type != self.value_type {
            unsupported!("A ({:?}) and B ({:?}) must have the same value type", self.value_type, b.value_type);
        }
        let types = Types { ab: self.value_type, c: c.value_type, compute };
        if !TYPE_COMBINATIONS.contains(&(types.ab, types.c, types.compute)) {
            unsupported!("A/B {:?}, C {:?}, compute {:?} is not a supported SpMM type combination", types.ab, types.c, types.compute);
        }
        let tiles = (d.n as u64).div_ceil(k::tiling(d.n, compute.size_bytes()).1 as u64) as i64;
        if tiles > GRID_YZ {
            unsupported!("{} columns of C exceed the BRCV kernel's {} column tiles", d.n, GRID_YZ);
        }
        if d.is_empty() {
            return Ok(());
        }
        // SAFETY: the caller's contract.
        let (alpha, beta) = unsafe { (crate::kernels::scalar(h, alpha, compute)?, crate::kernels::scalar(h, beta, compute)?) };
        let p = SpmmBrcvParams {
            shape: SpmmShape { m: d.m, k: d.k, n: d.n, alpha, beta },
            b: super::plan::dense(b, op_b, b.batch_count > 1),
            c: super::plan::dense(c, Operation::OXSPARSE_OPERATION_NON_TRANSPOSE, c.batch_count > 1),
            fmt: self.fmt,
        };
        k::spmm(h, &p, types, d.batches as u32)
    }

    /// Sizes and batches of a call: op(B) k x n, C m x n; B's batches 1 or C's.
    fn dims(&self, op_b: Operation, b: &DnMat, c: &DnMat) -> Result<Dims> {
        let (kb, n) = if op_b == Operation::OXSPARSE_OPERATION_NON_TRANSPOSE { (b.rows, b.cols) } else { (b.cols, b.rows) };
        if kb != self.k {
            invalid!("A is {} x {} but op(B) is {kb} x {n}", self.m, self.k);
        }
        if c.rows != self.m || c.cols != n {
            invalid!("C is {} x {} but A * op(B) is {} x {n}", c.rows, c.cols, self.m);
        }
        if b.batch_count != 1 && b.batch_count != c.batch_count {
            invalid!("batch counts B {}, C {}: B must have 1 or C's", b.batch_count, c.batch_count);
        }
        if c.batch_count as i64 > GRID_YZ.min(MAX_BATCHES as i64) {
            invalid!("{} batches exceed the limit of {MAX_BATCHES}", c.batch_count);
        }
        Ok(Dims { m: self.m, k: self.k, n, batches: c.batch_count })
    }
}
