//! What SpMM, SpMV and SDDMM share: their sparse operand's arrays on the device ([`DeviceCsr`]),
//! and the preparation of a variant ([`with_workspaces`]): one descriptor set per copy of the
//! operands, each with the workspace its library asks for; the preprocess, timed, where the
//! variant runs one; then one call per copy.

use crate::api::{Descr, Lib, BASE_ZERO, INDEX_32I};
use crate::case::{Call, Keep, Prepared};
use crate::device::{sync, DevBuf};
use crate::matrix::Csr;
use crate::timing::{median, time_once};
use crate::Result;
use std::ffi::c_int;

/// A CSR matrix's arrays in device memory, 32-bit offsets and indices, base 0 (SpMM's and SpMV's
/// A, SDDMM's C): one per copy of the operands.
pub struct DeviceCsr {
    offsets: DevBuf,
    indices: DevBuf,
    pub values: DevBuf,
}

impl DeviceCsr {
    /// `a`'s offsets and indices, uploaded beside `values` (uploaded in the case's precision).
    pub fn upload(a: &Csr, values: DevBuf) -> Result<DeviceCsr> {
        Ok(DeviceCsr { offsets: DevBuf::upload(&a.row_ptr)?, indices: DevBuf::upload(&a.col_idx)?, values })
    }

    /// `lib`'s descriptor of `a` over these arrays, its values of `value_type`.
    pub fn descr<'a>(&self, lib: Lib<'a>, a: &Csr, value_type: c_int) -> Result<Descr<'a>> {
        let (o, i, v) = (self.offsets.ptr, self.indices.ptr, self.values.ptr);
        lib.create_csr(a.rows as i64, a.cols as i64, a.nnz() as i64, o, i, v, INDEX_32I, INDEX_32I, BASE_ZERO, value_type)
    }
}

/// A variant's preprocess: the call on one copy's descriptors and workspace, and the fewest calls
/// timed for its median (every copy's is timed, so more when there are more copies).
pub struct Preprocess<'p, D> {
    pub run: &'p dyn Fn(&D, u64) -> Result<()>,
    pub min_samples: usize,
}

/// The calls of a variant over `sets` (copy c's descriptors at c): asks each set's workspace size
/// (`buffer_size`), allocates the workspaces, runs the preprocess if any (one untimed first, so
/// that the times exclude first-use costs such as module loading; its median time is returned),
/// and makes one call per copy of `call` with that copy's descriptors and workspace address (0,
/// NULL, for none).
///
/// A preprocessed variant keeps a plan per copy in its workspace, so each copy gets its own;
/// otherwise the calls, run one after another, share one of the largest size.
pub fn with_workspaces<'s, D: 's>(
    sets: Vec<D>,
    buffer_size: impl Fn(&D) -> Result<usize>,
    preprocess: Option<Preprocess<'_, D>>,
    call: impl Fn(&D, u64) -> Result<()> + Copy + 's,
) -> Result<Prepared<'s>> {
    let sizes = sets.iter().map(buffer_size).collect::<Result<Vec<usize>>>()?;
    let own = preprocess.is_some();
    let buffers: Vec<Option<DevBuf>> = if own {
        sizes.iter().map(|&s| (s > 0).then(|| DevBuf::new(s)).transpose()).collect::<Result<_>>()?
    } else {
        let max = sizes.iter().copied().max().unwrap_or(0);
        vec![(max > 0).then(|| DevBuf::new(max)).transpose()?]
    };
    let ptr = |c: usize| buffers[if own { c } else { 0 }].as_ref().map_or(0, |b| b.ptr);
    let mut preprocess_ms = None;
    if let Some(p) = preprocess {
        (p.run)(&sets[0], ptr(0))?;
        sync("the first preprocess")?;
        let samples = sets.len().max(p.min_samples);
        let mut times = Vec::with_capacity(samples);
        for i in 0..samples {
            let c = i % sets.len();
            times.push(time_once(|| (p.run)(&sets[c], ptr(c)))?);
        }
        preprocess_ms = Some(median(&times));
    }
    let calls = sets
        .into_iter()
        .enumerate()
        .map(|(c, d)| {
            let buffer = ptr(c);
            Box::new(move || call(&d, buffer)) as Call<'s>
        })
        .collect();
    let keep: Vec<Box<dyn Keep + 's>> = vec![Box::new(buffers)];
    Ok(Prepared { calls, resets: Vec::new(), keep, preprocess_ms })
}
