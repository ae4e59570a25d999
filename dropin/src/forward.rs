//! Forwarding to a real cuSPARSE: finding it without ever opening ourselves, resolving its
//! functions, and the shadow objects its functions need in place of ours.
//!
//! The real library is looked for once, at the first forwarded call: `OXSPARSE_CUSPARSE_FALLBACK`
//! (an absolute path; `none` turns forwarding off), else the CUDA toolkit's library folders, else
//! the NVIDIA wheels next to a Python package already loaded in the process. A candidate that is
//! the face is skipped: the same file (device and inode), a byte-for-byte copy, or a path dlopen
//! resolves to the face already loaded (the same `cusparseCreate`). The face has the real library's
//! SONAME, so a bare-name dlopen would return the face itself: it is never used.

use crate::face::{ID_cusparseDestroy, NAMES};
use crate::report::refuse;
use crate::{say, STATUS_INTERNAL_ERROR, STATUS_NOT_SUPPORTED};
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::ffi::{c_void, CStr, CString};
use std::os::raw::{c_char, c_int};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// The real library, opened with RTLD_LOCAL so its names never interpose on ours.
pub struct RealLibrary {
    handle: usize,
    /// Where it was found.
    pub path: String,
}

static REAL: Lazy<Option<RealLibrary>> = Lazy::new(open_real);
/// Resolved addresses by name id: 0 not looked up yet, 1 absent from the real library.
static SYMBOLS: [AtomicUsize; crate::face::COUNT] = [const { AtomicUsize::new(0) }; crate::face::COUNT];
/// Our handle -> the shadow real handle made for it.
static SHADOW_HANDLES: Lazy<Mutex<HashMap<usize, usize>>> = Lazy::new(Default::default);

/// The real library, if one was found.
pub fn real_library() -> Option<&'static RealLibrary> {
    REAL.as_ref()
}

/// Runs a forwarded call: resolves the real function, builds the shadows `call` asks for, and
/// destroys the per-call ones afterwards. Without a real library or function: NOT_SUPPORTED, logged once.
pub fn call(id: usize, call: impl FnOnce(usize, &mut Shadows) -> Result<c_int, c_int>) -> c_int {
    thread_local! {
        static FORWARDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    // NVIDIA's library never calls back into ours (DT_SYMBOLIC, opened RTLD_LOCAL): a library that
    // does is another face, and following it would recurse without end.
    if FORWARDING.with(|f| f.replace(true)) {
        refuse(id, "the library forwarded to called back into the face: it is not NVIDIA's cuSPARSE");
        return STATUS_NOT_SUPPORTED;
    }
    let status = forward_once(id, call);
    FORWARDING.with(|f| f.set(false));
    status
}

fn forward_once(id: usize, call: impl FnOnce(usize, &mut Shadows) -> Result<c_int, c_int>) -> c_int {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let Some(real) = REAL.as_ref() else {
            refuse(id, "no real cuSPARSE found to forward to (OXSPARSE_CUSPARSE_FALLBACK)");
            return STATUS_NOT_SUPPORTED;
        };
        let Some(function) = real.symbol(id) else {
            refuse(id, "the real cuSPARSE does not have it");
            return STATUS_NOT_SUPPORTED;
        };
        let mut shadows = Shadows { real, descriptors: Vec::new(), sparse: Vec::new() };
        let status = call(function, &mut shadows).unwrap_or_else(|status| status);
        if status != 0 {
            return status;
        }
        // What the real library wrote into the shadows of our sparse matrices (C's nnz).
        for &ours in &shadows.sparse {
            if let Err(status) = crate::shadow::write_back(real, ours) {
                return status;
            }
        }
        status
    }));
    outcome.unwrap_or(STATUS_INTERNAL_ERROR)
}

/// Destroys the shadow real handle of `handle`, if it has one (our cusparseDestroy).
pub fn forget_handle(handle: usize) {
    let shadow = SHADOW_HANDLES.lock().map(|mut map| map.remove(&handle)).unwrap_or(None);
    if let (Some(shadow), Some(real)) = (shadow, REAL.as_ref()) {
        if let Some(destroy) = real.symbol(ID_cusparseDestroy) {
            // SAFETY: cusparseDestroy(cusparseHandle_t) of a handle the real library made.
            let destroy: unsafe extern "C" fn(usize) -> c_int = unsafe { std::mem::transmute(destroy) };
            unsafe { destroy(shadow) };
        }
    }
}

// Declared as the generated native routes declare them (every argument a usize), so the two
// declarations agree.
extern "C" {
    fn oxsparseGetStream(handle: usize, stream: usize) -> c_int;
    fn oxsparseGetPointerMode(handle: usize, mode: usize) -> c_int;
    fn oxsparseGetMatType(descr: usize) -> c_int;
    fn oxsparseSetMatType(descr: usize, value: usize) -> c_int;
    fn oxsparseGetMatFillMode(descr: usize) -> c_int;
    fn oxsparseGetMatDiagType(descr: usize) -> c_int;
    fn oxsparseGetMatIndexBase(descr: usize) -> c_int;
}

/// The real objects one forwarded call passes in place of ours.
pub struct Shadows<'a> {
    real: &'a RealLibrary,
    /// Real matrix descriptors made for this call, destroyed when it returns.
    descriptors: Vec<usize>,
    /// Our sparse matrices passed as shadows (src/shadow.rs), whose entry counts are copied back.
    sparse: Vec<usize>,
}

impl Shadows<'_> {
    /// The real handle standing for our `handle`, made on first use, with our handle's stream and
    /// pointer mode. A handle of ours that is not valid gives its status.
    pub fn handle(&mut self, handle: usize) -> Result<usize, c_int> {
        let (mut stream, mut mode) = (0usize, 0 as c_int);
        // SAFETY: both write one value through a pointer to a local; a foreign handle is refused.
        check(unsafe { oxsparseGetStream(handle, &mut stream as *mut usize as usize) })?;
        check(unsafe { oxsparseGetPointerMode(handle, &mut mode as *mut c_int as usize) })?;
        let mut map = SHADOW_HANDLES.lock().map_err(|_| STATUS_INTERNAL_ERROR)?;
        let shadow = match map.get(&handle) {
            Some(&shadow) => shadow,
            None => {
                let mut shadow = 0usize;
                // SAFETY: cusparseCreate(cusparseHandle_t*) writes one handle.
                check(unsafe { self.real.named::<unsafe extern "C" fn(*mut usize) -> c_int>("cusparseCreate")?(&mut shadow) })?;
                map.insert(handle, shadow);
                shadow
            }
        };
        // SAFETY: cusparseSetStream(handle, cudaStream_t) and cusparseSetPointerMode(handle, mode).
        unsafe {
            check(self.real.named::<unsafe extern "C" fn(usize, usize) -> c_int>("cusparseSetStream")?(shadow, stream))?;
            check(self.real.named::<unsafe extern "C" fn(usize, c_int) -> c_int>("cusparseSetPointerMode")?(shadow, mode))?;
        }
        Ok(shadow)
    }

    /// A real cusparseMatDescr_t with the four fields of ours, destroyed after the call.
    pub fn mat_descr(&mut self, descr: usize) -> Result<usize, c_int> {
        // SAFETY: the getters read a registry entry (a default for an unknown name); setting the type
        // to its own value changes nothing and is how a NULL or destroyed descriptor is refused.
        let fields = unsafe {
            let matrix_type = oxsparseGetMatType(descr);
            check(oxsparseSetMatType(descr, matrix_type as usize))?;
            [matrix_type, oxsparseGetMatFillMode(descr), oxsparseGetMatDiagType(descr), oxsparseGetMatIndexBase(descr)]
        };
        let mut shadow = 0usize;
        // SAFETY: cusparseCreateMatDescr writes one descriptor; the setters take (descr, int).
        unsafe {
            check(self.real.named::<unsafe extern "C" fn(*mut usize) -> c_int>("cusparseCreateMatDescr")?(&mut shadow))?;
            self.descriptors.push(shadow);
            for (setter, value) in ["cusparseSetMatType", "cusparseSetMatFillMode", "cusparseSetMatDiagType", "cusparseSetMatIndexBase"]
                .into_iter()
                .zip(fields)
            {
                check(self.real.named::<unsafe extern "C" fn(usize, c_int) -> c_int>(setter)?(shadow, value))?;
            }
        }
        Ok(shadow)
    }
}

impl Shadows<'_> {
    /// The real generic sparse matrix descriptor standing for ours, in step with it (src/shadow.rs).
    pub fn sp_mat(&mut self, ours: usize) -> Result<usize, c_int> {
        let shadow = crate::shadow::sp_mat(self.real, ours)?;
        self.sparse.push(ours);
        Ok(shadow)
    }

    /// The real dense matrix descriptor standing for ours, in step with it.
    pub fn dn_mat(&mut self, ours: usize) -> Result<usize, c_int> {
        crate::shadow::dn_mat(self.real, ours)
    }

    /// The real dense vector descriptor standing for ours, in step with it.
    pub fn dn_vec(&mut self, ours: usize) -> Result<usize, c_int> {
        crate::shadow::dn_vec(self.real, ours)
    }
}

impl Drop for Shadows<'_> {
    fn drop(&mut self) {
        if let Ok(destroy) = self.real.named::<unsafe extern "C" fn(usize) -> c_int>("cusparseDestroyMatDescr") {
            for &descr in &self.descriptors {
                // SAFETY: a descriptor the real library made for this call.
                unsafe { destroy(descr) };
            }
        }
    }
}

fn check(status: c_int) -> Result<(), c_int> {
    if status == 0 {
        Ok(())
    } else {
        Err(status)
    }
}

impl RealLibrary {
    /// The real function for name `id`, resolved once.
    fn symbol(&self, id: usize) -> Option<usize> {
        let known = SYMBOLS[id].load(Relaxed);
        if known > 1 {
            return Some(known);
        }
        if known == 1 {
            return None;
        }
        let address = self.lookup(NAMES[id]).unwrap_or(1);
        SYMBOLS[id].store(address, Relaxed);
        (address > 1).then_some(address)
    }

    /// A real function by name, as the function type `F` (a fn pointer of the real signature).
    pub(crate) fn named<F: Copy>(&self, name: &str) -> Result<F, c_int> {
        assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<usize>());
        match self.lookup(name) {
            // SAFETY: F is the fn pointer type of the real function `name` (callers name both).
            Some(address) => Ok(unsafe { std::mem::transmute_copy::<usize, F>(&address) }),
            None => Err(STATUS_NOT_SUPPORTED),
        }
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        let name = CString::new(name).ok()?;
        // SAFETY: dlsym on a handle dlopen returned, with a NUL-terminated name.
        let address = unsafe { libc::dlsym(self.handle as *mut c_void, name.as_ptr()) } as usize;
        (address != 0).then_some(address)
    }
}

/// Finds and opens the real library; logs what it chose (or why none).
fn open_real() -> Option<RealLibrary> {
    let candidates = match std::env::var("OXSPARSE_CUSPARSE_FALLBACK") {
        Ok(v) if v == "none" || v == "0" => return None,
        Ok(v) if v.starts_with('/') => vec![v],
        Ok(v) if !v.is_empty() => {
            say(&format!("OXSPARSE_CUSPARSE_FALLBACK={v} is not an absolute path: not forwarding"));
            return None;
        }
        _ => default_candidates(),
    };
    let ours = own_file();
    for path in candidates {
        let Ok(meta) = std::fs::metadata(&path) else { continue };
        if ours.as_ref().is_some_and(|(own_path, own)| same_file(own, &meta) || same_bytes(own_path, own, &path, &meta)) {
            continue;
        }
        if let Some(real) = open(&path) {
            if crate::report::enabled() {
                say(&format!("forwarding to {path}"));
            }
            return Some(real);
        }
    }
    None
}

fn open(path: &str) -> Option<RealLibrary> {
    let c_path = CString::new(path).ok()?;
    // SAFETY: dlopen of an absolute path, local binding so its names never replace ours.
    let handle = unsafe { libc::dlopen(c_path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        // SAFETY: dlerror returns NULL or a NUL-terminated message.
        let why = unsafe { libc::dlerror() };
        let why = if why.is_null() { String::new() } else { unsafe { CStr::from_ptr(why) }.to_string_lossy().into_owned() };
        say(&format!("cannot open {path}: {why}"));
        return None;
    }
    let real = RealLibrary { handle: handle as usize, path: path.to_string() };
    // Same cusparseCreate as ours: dlopen found the face itself, not the real library.
    if real.lookup("cusparseCreate") == Some(crate::face::cusparseCreate as *const () as usize) {
        // SAFETY: a handle from dlopen above, not used again.
        unsafe { libc::dlclose(handle) };
        return None;
    }
    Some(real)
}

/// The CUDA toolkit's folders, then the NVIDIA wheels of the Python installs whose files are loaded.
fn default_candidates() -> Vec<String> {
    let mut dirs: Vec<String> = Vec::new();
    for var in ["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"] {
        if let Some(root) = std::env::var_os(var) {
            dirs.push(format!("{}/lib64", root.to_string_lossy()));
        }
    }
    dirs.extend(
        ["/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/local/cuda/targets/sbsa-linux/lib"].map(String::from),
    );
    for site in loaded_site_packages() {
        dirs.push(format!("{site}/nvidia/cu13/lib"));
        dirs.push(format!("{site}/nvidia/cusparse/lib"));
    }
    dirs.into_iter().map(|d| format!("{d}/libcusparse.so.12")).collect()
}

/// `.../site-packages` (or dist-packages) folders of the objects loaded in this process.
fn loaded_site_packages() -> Vec<String> {
    unsafe extern "C" fn visit(info: *mut libc::dl_phdr_info, _size: libc::size_t, data: *mut c_void) -> c_int {
        // SAFETY: dl_iterate_phdr passes a valid info whose name is NULL or NUL-terminated, and our Vec.
        let (info, sites) = unsafe { (&*info, &mut *(data as *mut Vec<String>)) };
        if !info.dlpi_name.is_null() {
            let name = unsafe { CStr::from_ptr(info.dlpi_name) }.to_string_lossy();
            for marker in ["/site-packages/", "/dist-packages/"] {
                if let Some(at) = name.find(marker) {
                    let site = name[..at + marker.len() - 1].to_string();
                    if !sites.contains(&site) {
                        sites.push(site);
                    }
                }
            }
        }
        0
    }
    let mut sites: Vec<String> = Vec::new();
    // SAFETY: the callback only reads what it is given and appends to `sites`.
    unsafe { libc::dl_iterate_phdr(Some(visit), &mut sites as *mut Vec<String> as *mut c_void) };
    sites
}

/// The path and metadata of the file this face was loaded from.
fn own_file() -> Option<(String, std::fs::Metadata)> {
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: dladdr fills `info` for an address inside a loaded object.
    if unsafe { libc::dladdr(crate::face::cusparseCreate as *const c_void, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dladdr set dli_fname to a NUL-terminated path.
    let path = unsafe { CStr::from_ptr(info.dli_fname as *const c_char) }.to_string_lossy().into_owned();
    let meta = std::fs::metadata(&path).ok()?;
    Some((path, meta))
}

/// A copy of the face: same size (the real library is an order of magnitude larger), same bytes.
fn same_bytes(own_path: &str, own: &std::fs::Metadata, path: &str, meta: &std::fs::Metadata) -> bool {
    own.len() == meta.len() && matches!((std::fs::read(own_path), std::fs::read(path)), (Ok(a), Ok(b)) if a == b)
}

fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}
