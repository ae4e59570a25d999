//! The C ABI: the only place with `#[no_mangle] extern "C"` functions.
//!
//! One module per API family. Every exported function has the same shape:
//!
//! ```ignore
//! #[no_mangle]
//! pub unsafe extern "C" fn oxsparseXxx(handle: oxsparseHandle_t, ...) -> oxsparseStatus_t {
//!     guard("oxsparseXxx", || { /* decode arguments, call the safe core */ })
//! }
//! ```
//!
//! `guard` turns the core's `Result` into a status, logs refusals through the logger (src/logger.rs),
//! and catches panics so they never cross the C boundary. Arguments are checked in a fixed order:
//! handle, descriptors, sizes, pointers, enums, type combinations. Objects handed to C are boxed
//! and recorded in a registry under names that never repeat, so a NULL, foreign or destroyed
//! handle or descriptor is refused with a status instead of being dereferenced, however long ago
//! it was destroyed.
//!
//! # Safety
//!
//! The contract of every exported function, as in cuSPARSE: each pointer argument is NULL or valid
//! for what it names. Handles and descriptors are values this library returned (anything else is
//! refused, see above); output pointers are writable for one value of their type; scalars in host
//! pointer mode point to a value of the compute type; device arrays named by descriptors and
//! buffers hold at least the sizes the descriptors and `*_bufferSize` give.

#![allow(non_snake_case)] // parameter names follow the cuSPARSE header

pub mod bittcf;
pub mod brcv;
pub mod coo_csr;
pub mod csr2csc;
pub mod dense_to_sparse;
pub mod descr_dense;
pub mod descr_sparse;
pub mod descr_sparse_access;
pub mod descr_sparse_vector;
pub mod face_access;
pub mod handle;
pub mod legacy_bsr;
pub mod logger;
pub mod mat_descr;
pub mod sddmm;
pub mod sort;
pub mod sparse_to_dense;
pub mod spmm;
pub mod spmv;
pub mod srbcrs;
pub mod types;
pub mod vector_ops;

use crate::error::{Error, Result};
use crate::fast_hash::FastHash;
use crate::types::Status;
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::os::raw::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

pub use types::*;

/// Runs an API call: maps errors to statuses, logs them, and stops panics at the boundary.
pub(crate) fn guard(func: &str, f: impl FnOnce() -> Result<()>) -> oxsparseStatus_t {
    let outcome = catch_unwind(AssertUnwindSafe(f));
    let err = match outcome {
        Ok(Ok(())) => return Status::OXSPARSE_STATUS_SUCCESS as c_int,
        Ok(Err(e)) => e,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Error::Internal(format!("internal panic: {what}"))
        }
    };
    // Logging allocates and may write: a failure there must not cross the boundary either.
    let _ = catch_unwind(AssertUnwindSafe(|| crate::logger::log(crate::logger::Category::Error, func, &err)));
    err.status() as c_int
}

/// Which kind of object a registered handle names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Handle,
    SpVec,
    DnVec,
    SpMat,
    DnMat,
    BitTcf,
    Brcv,
    MatDescr,
    SrBcrs,
}

/// Every live object handed to C: its kind and where it lives, under the value C holds.
///
/// C never gets an object's address. It gets a name drawn from a counter that never repeats (a
/// multiple of 16, so it looks like any aligned pointer), and every call looks the name up here.
/// A destroyed object's name therefore stays refused for the life of the process, even after the
/// allocator has handed its memory to a new object, at the cost of the one lookup every call made
/// already. (Every call looks its arguments up here, hence the fast hasher.)
type Registry = HashMap<usize, (Kind, usize), FastHash>;

static LIVE: Lazy<Mutex<Registry>> = Lazy::new(Default::default);

fn live() -> std::sync::MutexGuard<'static, Registry> {
    LIVE.lock().unwrap_or_else(|p| p.into_inner())
}

/// The next name for an object: never 0, never the same twice (2^60 names before the counter
/// could wrap).
fn fresh_name() -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed) << 4
}

/// Boxes `obj`, records it under a fresh name, and writes the name to `out`.
pub(crate) unsafe fn publish<T>(out: *mut *mut T, kind: Kind, obj: T) -> Result<()> {
    let out = out_ptr(out, "output descriptor")?;
    let name = fresh_name();
    let p = Box::into_raw(Box::new(obj));
    live().insert(name, (kind, p as usize));
    *out = name as *mut T;
    Ok(())
}

/// Borrows a live object of `kind`. NULL is `InvalidValue` (a handle's NULL is `NotInitialized`,
/// as in cuSPARSE); an unknown or destroyed name is `NotInitialized`.
pub(crate) unsafe fn borrow<'a, T>(p: *const T, kind: Kind, what: &str) -> Result<&'a T> {
    live_objects().borrow(p, kind, what)
}

/// The registry, locked once for a call that borrows several objects (SpMM's and SpMV's four):
/// nothing may be created or destroyed while it is held.
pub(crate) struct LiveObjects(std::sync::MutexGuard<'static, Registry>);

pub(crate) fn live_objects() -> LiveObjects {
    LiveObjects(live())
}

impl LiveObjects {
    /// Where the object named `p` lives, if it is a live object of `kind`.
    fn address<T>(&self, p: *const T, kind: Kind, what: &str) -> Result<*mut T> {
        if p.is_null() {
            return Err(match kind {
                Kind::Handle => Error::NotInitialized(format!("{what} is NULL")),
                _ => Error::InvalidValue(format!("{what} is NULL")),
            });
        }
        match self.0.get(&(p as usize)) {
            Some(&(k, address)) if k == kind => Ok(address as *mut T),
            Some(&(k, _)) => Err(Error::InvalidValue(format!("{what} is a {k:?}, not a {kind:?}"))),
            None => Err(Error::NotInitialized(format!("{what} is not initialized or was already destroyed"))),
        }
    }

    /// As [`borrow`].
    pub(crate) unsafe fn borrow<'a, T>(&self, p: *const T, kind: Kind, what: &str) -> Result<&'a T> {
        Ok(&*self.address(p, kind, what)?)
    }
}

/// Mutable version of `borrow`.
pub(crate) unsafe fn borrow_mut<'a, T>(p: *mut T, kind: Kind, what: &str) -> Result<&'a mut T> {
    Ok(&mut *live_objects().address(p as *const T, kind, what)?)
}

/// Unregisters and frees an object. NULL is a no-op, as `free(NULL)` is.
pub(crate) unsafe fn destroy<T>(p: *const T, kind: Kind, what: &str) -> Result<()> {
    if p.is_null() {
        return Ok(());
    }
    let mut live = live_objects();
    let address = live.address(p, kind, what)?;
    live.0.remove(&(p as usize));
    drop(live);
    drop(Box::from_raw(address));
    Ok(())
}

/// Checks an output pointer; NULL is `InvalidValue`.
pub(crate) unsafe fn out_ptr<'a, T>(p: *mut T, what: &str) -> Result<&'a mut T> {
    if p.is_null() {
        return Err(Error::InvalidValue(format!("{what} (output) is NULL")));
    }
    Ok(&mut *p)
}

/// Checks that alpha and beta point somewhere (their type and memory follow the pointer mode).
pub(crate) fn scalars_given<T>(alpha: *const T, beta: *const T) -> Result<()> {
    if alpha.is_null() {
        return Err(Error::InvalidValue("alpha is NULL".into()));
    }
    if beta.is_null() {
        return Err(Error::InvalidValue("beta is NULL".into()));
    }
    Ok(())
}

/// Decodes an enum received from C, naming the argument in the error.
pub(crate) fn decode<T>(v: c_int, what: &str, f: fn(i32) -> Option<T>) -> Result<T> {
    f(v).ok_or_else(|| Error::InvalidValue(format!("{what} has invalid value {v}")))
}

/// A `*_preprocess` call on sparse matrix `a`: holds the matrix's active-buffer lock for the call,
/// hands the operation the closure that drops the earlier state (run once every argument has
/// passed its checks: a refused call leaves that state in force), and keeps what it made,
/// `wrap`ped, as the matrix's active buffer.
pub(crate) fn keep_preprocessed<B>(
    a: &oxsparseSpMatDescr,
    wrap: fn(Box<B>) -> crate::ops::ActiveBuffer,
    preprocess: impl FnOnce(&mut dyn FnMut()) -> Result<Option<B>>,
) -> Result<()> {
    let mut active = a.active.lock().unwrap_or_else(|p| p.into_inner());
    let fresh = preprocess(&mut || *active = None)?;
    *active = fresh.map(|b| wrap(Box::new(b)));
    Ok(())
}

/// Runs a compute call `f` with the state a preprocess left on sparse matrix `a`, as `pick` finds
/// its routine's there (None: none, or another routine's). The state is locked for the call and
/// read in place, as preprocess holds it while it writes.
pub(crate) fn with_preprocessed<B, R>(
    a: &oxsparseSpMatDescr,
    pick: fn(&crate::ops::ActiveBuffer) -> Option<&B>,
    f: impl FnOnce(Option<&B>) -> R,
) -> R {
    let active = a.active.lock().unwrap_or_else(|p| p.into_inner());
    f(active.as_ref().and_then(pick))
}

/// What `pick` reads from the state a preprocess left on `matA` (None: none, or `matA` is not a
/// live sparse matrix).
///
/// # Safety
/// `matA` is NULL or a value this library returned (anything else is refused).
pub(crate) unsafe fn preprocessed<T>(
    matA: oxsparseConstSpMatDescr_t,
    pick: impl FnOnce(&crate::ops::ActiveBuffer) -> Option<T>,
) -> Option<T> {
    let a = borrow(matA, Kind::SpMat, "matA").ok()?;
    let active = a.active.lock().unwrap_or_else(|p| p.into_inner());
    active.as_ref().and_then(pick)
}
