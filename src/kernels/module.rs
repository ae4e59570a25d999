//! Embedded fatbins and the per-context cache of loaded modules and kernel functions.
//!
//! Each `kernels/<family>.cu` is compiled by build.rs into one fatbin embedded in the library. A
//! family's module is loaded into a context the first time one of its kernels is launched there.
//!
//! The cache is keyed by the context's unique ID (`cuCtxGetId`), not its address: when the last
//! reference to a primary context goes (the last handle destroyed in a program without the CUDA
//! runtime, or `cudaDeviceReset`), the driver destroys it with its modules, and a new context may
//! reuse the old address. A new ID means a fresh load.

use crate::error::{Error, Result};
use cudarc::driver::{result, sys};
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::ffi::CString;
use std::sync::Mutex;

include!(concat!(env!("OUT_DIR"), "/fatbins.rs"));

/// (context ID, family) -> CUmodule, and context ID -> kernel name -> CUfunction, as addresses.
/// The functions are keyed per context so that a launch finds its kernel by the name it has in
/// hand, without building a key (every call of the library launches at least once).
#[derive(Default)]
struct Cache {
    modules: HashMap<(usize, &'static str), usize>,
    functions: HashMap<usize, HashMap<String, usize>>,
}

static CACHE: Lazy<Mutex<Cache>> = Lazy::new(Default::default);

fn fatbin(family: &str) -> Result<&'static [u8]> {
    match FATBINS.iter().find(|(f, _)| *f == family) {
        Some((_, bytes)) if !bytes.is_empty() => Ok(bytes),
        Some(_) => Err(Error::NotSupported("this build of oxsparse has no GPU kernels (OXSPARSE_NO_KERNELS)".into())),
        None => Err(Error::Internal(format!("no kernel family {family}"))),
    }
}

/// The unique ID of `ctx` (`cuCtxGetId`): a context made again at the same address gets a new one.
///
/// # Safety
/// `ctx` must be a live context.
pub unsafe fn context_id(ctx: sys::CUcontext) -> Result<u64> {
    let mut id: std::os::raw::c_ulonglong = 0;
    // SAFETY: ctx is a live context (the caller holds a handle on it); id is a local out-pointer.
    unsafe { sys::cuCtxGetId(ctx, &mut id) }.result().map_err(|e| Error::from_driver("cuCtxGetId", e))?;
    Ok(id)
}

/// The kernel `name` of `family`, loaded into the current context, whose ID is `context_id`.
///
/// # Safety
/// The context must be live and current on this thread (a handle's bound context).
pub unsafe fn function(context_id: u64, family: &'static str, name: &str) -> Result<sys::CUfunction> {
    let id = context_id as usize;
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(&f) = cache.functions.get(&id).and_then(|names| names.get(name)) {
        return Ok(f as sys::CUfunction);
    }
    let module = match cache.modules.get(&(id, family)) {
        Some(&m) => m as sys::CUmodule,
        None => {
            // The driver wants the image aligned; include_bytes! promises only byte alignment.
            let image: Vec<u64> = fatbin(family)?
                .chunks(8)
                .map(|c| {
                    let mut b = [0u8; 8];
                    b[..c.len()].copy_from_slice(c);
                    u64::from_ne_bytes(b)
                })
                .collect();
            // SAFETY: a complete fatbin image, alive for the duration of the call.
            let m = unsafe { result::module::load_data(image.as_ptr() as *const _) }
                .map_err(|e| Error::from_driver(&format!("loading kernels/{family}.cu"), e))?;
            cache.modules.insert((id, family), m as usize);
            m
        }
    };
    let cname = CString::new(name).map_err(|_| Error::Internal("kernel name with NUL".into()))?;
    // SAFETY: module is loaded in the current context.
    let f = unsafe { result::module::get_function(module, cname) }
        .map_err(|e| Error::from_driver(&format!("kernel {name} in kernels/{family}.cu"), e))?;
    cache.functions.entry(id).or_default().insert(name.to_string(), f as usize);
    Ok(f)
}
