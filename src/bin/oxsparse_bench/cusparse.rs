//! NVIDIA cuSPARSE, loaded at run time with `dlopen` so the benchmark builds and runs without it.
//!
//! Only the entry points the benchmark calls are looked up. Descriptors and handles are opaque
//! pointers; enums are C `int`s with the same numbers as oxsparse's (that is the point of oxsparse).
//! To measure another operation, add its functions to the `api!` list below and a wrapper in
//! `api.rs`.

use crate::Result;
use std::ffi::{c_char, c_int, c_void, CStr, CString};

type P = *mut c_void;
type CP = *const c_void;

/// Declares the function table: one `Option<unsafe extern "C" fn(...) -> c_int>` field per cuSPARSE
/// function (None when this cuSPARSE lacks it, e.g. a deprecated routine removed later), and a
/// method of the same name that returns the function or an error naming it.
macro_rules! api {
    ($($name:ident($($arg:ty),*);)*) => {
        #[allow(non_snake_case)]
        pub struct Api {
            $($name: Option<unsafe extern "C" fn($($arg),*) -> c_int>,)*
        }

        #[allow(non_snake_case)]
        impl Api {
            /// Looks every function up in the dlopen'd library.
            unsafe fn load(lib: P) -> Api {
                Api {
                    $($name: sym(lib, stringify!($name)).ok().map(|p| std::mem::transmute::<P, unsafe extern "C" fn($($arg),*) -> c_int>(p)),)*
                }
            }

            $(pub fn $name(&self) -> Result<unsafe extern "C" fn($($arg),*) -> c_int> {
                self.$name.ok_or_else(|| format!("this cuSPARSE has no {}", stringify!($name)))
            })*
        }
    };
}

api! {
    cusparseCreate(*mut P);
    cusparseDestroy(P);
    cusparseGetVersion(P, *mut c_int);
    cusparseSetPointerMode(P, c_int);
    cusparseCreateCsr(*mut P, i64, i64, i64, P, P, P, c_int, c_int, c_int, c_int);
    cusparseCreateBlockedEll(*mut P, i64, i64, i64, i64, P, P, c_int, c_int, c_int);
    cusparseCreateBsr(*mut P, i64, i64, i64, i64, i64, P, P, P, c_int, c_int, c_int, c_int, c_int);
    cusparseDestroySpMat(CP);
    cusparseCreateDnMat(*mut P, i64, i64, i64, P, c_int, c_int);
    cusparseDestroyDnMat(CP);
    cusparseCreateSpVec(*mut P, i64, i64, P, P, c_int, c_int, c_int);
    cusparseDestroySpVec(CP);
    cusparseCreateDnVec(*mut P, i64, P, c_int);
    cusparseDestroyDnVec(CP);
    cusparseSparseToDense_bufferSize(P, CP, P, c_int, *mut usize);
    cusparseSparseToDense(P, CP, P, c_int, P);
    cusparseCsr2cscEx2_bufferSize(P, c_int, c_int, c_int, CP, CP, CP, P, P, P, c_int, c_int, c_int, c_int, *mut usize);
    cusparseCsr2cscEx2(P, c_int, c_int, c_int, CP, CP, CP, P, P, P, c_int, c_int, c_int, c_int, P);
    cusparseDenseToSparse_bufferSize(P, CP, P, c_int, *mut usize);
    cusparseDenseToSparse_analysis(P, CP, P, c_int, P);
    cusparseDenseToSparse_convert(P, CP, P, c_int, P);
    cusparseSpMatGetSize(CP, *mut i64, *mut i64, *mut i64);
    cusparseCsrSetPointers(P, P, P, P);
    cusparseGather(P, CP, P);
    cusparseSpVV_bufferSize(P, c_int, CP, CP, CP, c_int, *mut usize);
    cusparseSpVV(P, c_int, CP, CP, P, c_int, P);
    cusparseSpMM_bufferSize(P, c_int, c_int, CP, CP, CP, CP, P, c_int, c_int, *mut usize);
    cusparseSpMM_preprocess(P, c_int, c_int, CP, CP, CP, CP, P, c_int, c_int, P);
    cusparseSpMM(P, c_int, c_int, CP, CP, CP, CP, P, c_int, c_int, P);
    cusparseSpMV_bufferSize(P, c_int, CP, CP, CP, CP, P, c_int, c_int, *mut usize);
    cusparseSpMV_preprocess(P, c_int, CP, CP, CP, CP, P, c_int, c_int, P);
    cusparseSpMV(P, c_int, CP, CP, CP, CP, P, c_int, c_int, P);
    // matA and matB are const dense descriptors, matC a (non-const) sparse one, as cuSPARSE 12.6
    // declares them.
    cusparseSDDMM_bufferSize(P, c_int, c_int, CP, CP, CP, CP, P, c_int, c_int, *mut usize);
    cusparseSDDMM_preprocess(P, c_int, c_int, CP, CP, CP, CP, P, c_int, c_int, P);
    cusparseSDDMM(P, c_int, c_int, CP, CP, CP, CP, P, c_int, c_int, P);
    // The legacy index sorts and the matrix descriptor they take.
    cusparseCreateMatDescr(*mut P);
    cusparseDestroyMatDescr(P);
    cusparseXcsrsort_bufferSizeExt(P, c_int, c_int, c_int, CP, CP, *mut usize);
    cusparseXcsrsort(P, c_int, c_int, c_int, P, CP, P, P, P);
    cusparseXcoosort_bufferSizeExt(P, c_int, c_int, c_int, CP, CP, *mut usize);
    cusparseXcoosortByRow(P, c_int, c_int, c_int, P, P, P, P);
    cusparseXcoo2csr(P, *const c_int, c_int, c_int, *mut c_int, c_int);
    cusparseXcsr2coo(P, *const c_int, c_int, c_int, *mut c_int, c_int);
}

/// The library, its function table and one handle (on the legacy default stream, host pointer mode).
pub struct Cusparse {
    pub api: Api,
    error_name: unsafe extern "C" fn(c_int) -> *const c_char,
    pub handle: P,
    /// e.g. 12603 for 12.6.3 (`cusparseGetVersion`).
    pub version: i32,
    /// What was loaded: a file name or path.
    pub path: String,
}

/// Where to look: `OXSPARSE_BENCH_CUSPARSE` when set (a path), else the loader's search path, then
/// the usual toolkit folders.
fn candidates() -> Vec<String> {
    if let Ok(p) = std::env::var("OXSPARSE_BENCH_CUSPARSE") {
        return vec![p];
    }
    let mut v = vec!["libcusparse.so.12".to_string()];
    for root in [std::env::var("CUDA_HOME").unwrap_or_default(), "/usr/local/cuda".into()] {
        if !root.is_empty() {
            v.push(format!("{root}/lib64/libcusparse.so.12"));
            v.push(format!("{root}/targets/x86_64-linux/lib/libcusparse.so.12"));
        }
    }
    v
}

/// Why cuSPARSE is not used: absent (a note, the run goes on with oxsparse alone) or broken.
pub enum LoadError {
    Absent(String),
    Failed(String),
}

impl Cusparse {
    /// Loads the library and creates a handle (call after the CUDA context is current).
    pub fn load() -> std::result::Result<Cusparse, LoadError> {
        let mut tried = Vec::new();
        for path in candidates() {
            let c = CString::new(path.clone()).map_err(|_| LoadError::Absent(format!("bad path {path:?}")))?;
            // SAFETY: dlopen of a shared library; RTLD_LOCAL keeps its symbols to itself.
            let lib = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
            if lib.is_null() {
                tried.push(dlerror());
                continue;
            }
            // The library stays loaded until the process exits: never dlclose CUDA libraries.
            return unsafe { Cusparse::init(lib, path) }.map_err(LoadError::Failed);
        }
        Err(LoadError::Absent(tried.join("; ")))
    }

    unsafe fn init(lib: P, path: String) -> Result<Cusparse> {
        let api = Api::load(lib);
        let error_name = std::mem::transmute::<P, unsafe extern "C" fn(c_int) -> *const c_char>(sym(lib, "cusparseGetErrorName")?);
        let mut cs = Cusparse { api, error_name, handle: std::ptr::null_mut(), version: 0, path };
        let mut h = std::ptr::null_mut();
        cs.check("cusparseCreate", (cs.api.cusparseCreate()?)(&mut h))?;
        cs.handle = h;
        let mut version = 0;
        cs.check("cusparseGetVersion", (cs.api.cusparseGetVersion()?)(h, &mut version))?;
        cs.version = version;
        Ok(cs)
    }

    /// `Err("<call> failed: CUSPARSE_STATUS_... (n)")` for a non-zero status.
    pub fn check(&self, call: &str, status: c_int) -> Result<()> {
        if status == 0 {
            return Ok(());
        }
        // SAFETY: cusparseGetErrorName returns a static string for every code.
        let name = unsafe { CStr::from_ptr((self.error_name)(status)) }.to_string_lossy();
        Err(format!("{call} failed: {name} ({status})"))
    }

    /// "12.6.3"
    pub fn version_string(&self) -> String {
        format!("{}.{}.{}", self.version / 1000, self.version % 1000 / 100, self.version % 100)
    }
}

impl Drop for Cusparse {
    fn drop(&mut self) {
        if !self.handle.is_null() {
            // SAFETY: created in `init`, destroyed once, after every descriptor (see main).
            let r = self.api.cusparseDestroy().and_then(|f| self.check("cusparseDestroy", unsafe { f(self.handle) }));
            if let Err(e) = r {
                eprintln!("oxsparse-bench: warning: {e}");
            }
        }
    }
}

unsafe fn sym(lib: P, name: &str) -> Result<P> {
    let c = CString::new(name).expect("symbol name");
    let p = libc::dlsym(lib, c.as_ptr());
    if p.is_null() {
        return Err(format!("cuSPARSE has no symbol {name}: {}", dlerror()));
    }
    Ok(p)
}

fn dlerror() -> String {
    // SAFETY: dlerror returns NULL or a thread-local message.
    let e = unsafe { libc::dlerror() };
    if e.is_null() {
        "unknown dlopen error".into()
    } else {
        unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
    }
}
