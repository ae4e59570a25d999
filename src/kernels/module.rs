//! Embedded fatbins and the per-context cache of loaded modules and kernel functions.
//!
//! Each `kernels/<family>.cu` is compiled by build.rs into one fatbin embedded in the library. A
//! family's module is loaded into a context the first time one of its kernels is launched there.
//!
//! The cache is keyed by the context's unique ID (`cuCtxGetId`), not its address: when the last
//! reference to a primary context goes (the last handle destroyed in a program without the CUDA
//! runtime, or `cudaDeviceReset`), the driver destroys it with its modules, and a new context may
//! reuse the old address. A new ID means a fresh load.

use super::name::KernelName;
use crate::error::{Error, Result};
use crate::fast_hash::FastHash;
use cudarc::driver::{result, sys};
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::ffi::CString;
use std::sync::Mutex;

include!(concat!(env!("OUT_DIR"), "/fatbins.rs"));

/// (context ID, family) -> CUmodule, and context ID -> kernel name -> CUfunction, as addresses:
/// a launch finds its kernel by the name it has in hand, without building a key. The hottest
/// launches find theirs by (context ID, [`KernelKey`]) instead, with the name kept beside it, so
/// they neither format nor hash a name (bench/notes/launch-path.md). Every call of the library
/// looks here at least once, hence the fast hasher.
#[derive(Default)]
struct Cache {
    modules: HashMap<(usize, &'static str), usize, FastHash>,
    functions: HashMap<usize, HashMap<String, usize, FastHash>, FastHash>,
    keyed: HashMap<(usize, u64), (usize, KernelName), FastHash>,
}

/// A number that names one kernel instantiation of one launch site: the site and what the site's
/// name is made of (shape, value types, index type), a byte each. Two keys are equal only if
/// their names are, as long as every site packs all of its name's parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelKey(pub u64);

/// The launch sites that find their kernel by [`KernelKey`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    SpmmShortRows = 1,
    SpmmWarpRows,
    SpmmTiles,
    SpmvTiles,
    SpmvVector,
    SpmmStage,
    SrBcrsSpmm,
    SrBcrsSddmm,
}

impl KernelKey {
    /// The most parts a key holds.
    pub const PARTS: usize = 6;

    /// Packs `site` and up to [`KernelKey::PARTS`] one-byte parts (and their count).
    pub fn new(site: Site, parts: &[u8]) -> KernelKey {
        assert!(parts.len() <= KernelKey::PARTS, "a kernel key holds at most six parts");
        KernelKey(parts.iter().fold(site as u64, |k, &p| (k << 8) | p as u64) | ((parts.len() as u64) << 56))
    }
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

/// The kernel that `key` stands for, with its name: from the keyed cache, or (the first time)
/// loaded by the name `name()` builds, as [`function`] does.
///
/// # Safety
/// As [`function`].
pub unsafe fn function_keyed(
    context_id: u64,
    family: &'static str,
    key: KernelKey,
    name: impl FnOnce() -> KernelName,
) -> Result<(sys::CUfunction, KernelName)> {
    let at = (context_id as usize, key.0);
    if let Some(&(f, n)) = CACHE.lock().unwrap_or_else(|p| p.into_inner()).keyed.get(&at) {
        return Ok((f as sys::CUfunction, n));
    }
    let n = name();
    // SAFETY: the caller's contract.
    let f = unsafe { function(context_id, family, &n)? };
    CACHE.lock().unwrap_or_else(|p| p.into_inner()).keyed.insert(at, (f as usize, n));
    Ok((f, n))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys of different sites, variants or types differ, as the names they stand for do.
    #[test]
    fn kernel_keys_differ_where_names_do() {
        let mut seen = std::collections::HashSet::new();
        for site in [Site::SpmmShortRows, Site::SpmmWarpRows, Site::SpmmTiles, Site::SpmvTiles, Site::SpmvVector, Site::SpmmStage] {
            for variant in 0..64u8 {
                for t in [0u8, 1, 2, 14] {
                    for index in [2u8, 3] {
                        assert!(seen.insert(KernelKey::new(site, &[variant, t, t, 0, index])), "{site:?} {variant} {t} {index}");
                    }
                }
            }
        }
        // A key with fewer parts is not one with a leading zero part.
        assert_ne!(KernelKey::new(Site::SpmvTiles, &[0, 1]), KernelKey::new(Site::SpmvTiles, &[1]));
    }

    #[test]
    #[should_panic(expected = "at most six parts")]
    fn a_key_takes_at_most_six_parts() {
        KernelKey::new(Site::SpmmTiles, &[1, 2, 3, 4, 5, 6, 7]);
    }
}
