//! The block formats' descriptors, for both libraries: `CreateBsr` and `CreateBlockedEll` over
//! device arrays (32-bit indices, base 0).

use super::{vp, Descr, Kind, Lib, BASE_ZERO, INDEX_32I};
use crate::Result;
use oxsparse::ffi::descr_sparse as oxs;
use std::ffi::{c_int, c_void};

impl<'a> Lib<'a> {
    /// `CreateBsr`: `brows x bcols` blocks of `rb x cb`, `bnnz` of them, stored in `order`.
    #[allow(clippy::too_many_arguments)]
    pub fn create_bsr(
        &self,
        (brows, bcols, bnnz): (i64, i64, i64),
        (rb, cb): (i64, i64),
        offsets: u64,
        col_ind: u64,
        values: u64,
        value_type: c_int,
        order: c_int,
    ) -> Result<Descr<'a>> {
        let (o, i, v) = (vp(offsets), vp(col_ind), vp(values));
        self.descr(Kind::SpMat, ("oxsparseCreateBsr", "cusparseCreateBsr"), |p| unsafe {
            match self {
                Lib::Ox(_) => Ok(oxs::oxsparseCreateBsr(
                    p as *mut *mut c_void as _,
                    brows,
                    bcols,
                    bnnz,
                    rb,
                    cb,
                    o,
                    i,
                    v,
                    INDEX_32I,
                    INDEX_32I,
                    BASE_ZERO,
                    value_type,
                    order,
                )),
                Lib::Cu(c) => Ok((c.api.cusparseCreateBsr()?)(
                    p, brows, bcols, bnnz, rb, cb, o, i, v, INDEX_32I, INDEX_32I, BASE_ZERO, value_type, order,
                )),
            }
        })
    }

    /// `CreateBlockedEll`: a `rows x cols` matrix of `block x block` blocks, `ell_cols` columns of
    /// them a row.
    #[allow(clippy::too_many_arguments)]
    pub fn create_blocked_ell(
        &self,
        rows: i64,
        cols: i64,
        block: i64,
        ell_cols: i64,
        col_ind: u64,
        values: u64,
        value_type: c_int,
    ) -> Result<Descr<'a>> {
        let (i, v) = (vp(col_ind), vp(values));
        self.descr(Kind::SpMat, ("oxsparseCreateBlockedEll", "cusparseCreateBlockedEll"), |p| unsafe {
            match self {
                Lib::Ox(_) => Ok(oxs::oxsparseCreateBlockedEll(
                    p as *mut *mut c_void as _,
                    rows,
                    cols,
                    block,
                    ell_cols,
                    i,
                    v,
                    INDEX_32I,
                    BASE_ZERO,
                    value_type,
                )),
                Lib::Cu(c) => {
                    Ok((c.api.cusparseCreateBlockedEll()?)(p, rows, cols, block, ell_cols, i, v, INDEX_32I, BASE_ZERO, value_type))
                }
            }
        })
    }
}
