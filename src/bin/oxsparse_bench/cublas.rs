//! NVIDIA cuBLAS, loaded at run time with `dlopen` as cuSPARSE is (`cusparse.rs`), for one call:
//! the dense int8 GEMM (`cublasGemmEx`, int8 A and B, int32 C and compute) that SpMM-int reports
//! beside the sparse paths. Loaded once, on first use; where it is not found, the variant is
//! reported unsupported with the places tried, and the run goes on.

use crate::Result;
use std::ffi::{c_int, c_void, CString};
use std::rc::Rc;

type P = *mut c_void;
type CP = *const c_void;
type GemmEx = unsafe extern "C" fn(
    P,
    c_int,
    c_int,
    c_int,
    c_int,
    c_int,
    CP,
    CP,
    c_int,
    c_int,
    CP,
    c_int,
    c_int,
    CP,
    P,
    c_int,
    c_int,
    c_int,
    c_int,
) -> c_int;

/// The start of every error when cuBLAS could not be loaded (SpMM-int reports it as unsupported).
pub const NOT_LOADED: &str = "cuBLAS not loaded";

const OP_N: c_int = 0;
const OP_T: c_int = 1;
const R_8I: c_int = 3;
const R_32I: c_int = 10;
const COMPUTE_32I: c_int = 72;
const GEMM_DEFAULT: c_int = -1;

/// The library and one handle (on the legacy default stream, host pointer mode, as cuSPARSE's).
/// The handle lives until the process exits.
pub struct Cublas {
    gemm_ex: GemmEx,
    handle: P,
    /// What was loaded, and `cublasGetVersion` (e.g. 120804).
    pub path: String,
    pub version: c_int,
}

/// Where to look: `OXSPARSE_BENCH_CUBLAS` when set (a path); else beside the cuSPARSE loaded (its
/// folder, and the `nvidia/cublas/lib` of a wheel layout), the loader's search path, and the
/// toolkit's folders; libcublas.so.13 before .12.
fn candidates(cusparse_path: &str) -> Vec<String> {
    if let Ok(p) = std::env::var("OXSPARSE_BENCH_CUBLAS") {
        return vec![p];
    }
    let names = ["libcublas.so.13", "libcublas.so.12"];
    let mut dirs: Vec<String> = Vec::new();
    if let Some(dir) = std::path::Path::new(cusparse_path).parent().filter(|d| !d.as_os_str().is_empty()) {
        dirs.push(dir.display().to_string());
        dirs.push(dir.join("../../cublas/lib").display().to_string());
    }
    dirs.push(String::new());
    for root in [std::env::var("CUDA_HOME").unwrap_or_default(), "/usr/local/cuda".into()] {
        if !root.is_empty() {
            dirs.push(format!("{root}/lib64"));
            dirs.push(format!("{root}/targets/x86_64-linux/lib"));
        }
    }
    dirs.iter().flat_map(|d| names.iter().map(move |n| if d.is_empty() { n.to_string() } else { format!("{d}/{n}") })).collect()
}

thread_local! {
    static LOADED: std::cell::OnceCell<std::result::Result<Rc<Cublas>, String>> = const { std::cell::OnceCell::new() };
}

/// cuBLAS, loaded on the first call (the CUDA context must be current); the same answer after.
pub fn get(cusparse_path: &str) -> Result<Rc<Cublas>> {
    LOADED.with(|l| l.get_or_init(|| load(cusparse_path).map(Rc::new)).clone())
}

fn load(cusparse_path: &str) -> Result<Cublas> {
    let mut tried = Vec::new();
    for path in candidates(cusparse_path) {
        let c = CString::new(path.clone()).map_err(|_| format!("{NOT_LOADED}: bad path {path:?}"))?;
        // SAFETY: dlopen of a shared library; RTLD_LOCAL keeps its symbols to itself. Never
        // dlclosed: CUDA libraries stay until the process exits.
        let lib = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if lib.is_null() {
            tried.push(path);
            continue;
        }
        let cublas = unsafe { init(lib, path) }?;
        eprintln!("oxsparse-bench: cuBLAS {} ({})", cublas.version, cublas.path);
        return Ok(cublas);
    }
    Err(format!("{NOT_LOADED} (set OXSPARSE_BENCH_CUBLAS); tried {}", tried.join(", ")))
}

unsafe fn sym(lib: P, name: &str) -> Result<P> {
    let c = CString::new(name).expect("symbol name");
    let p = libc::dlsym(lib, c.as_ptr());
    if p.is_null() {
        return Err(format!("{NOT_LOADED}: no symbol {name}"));
    }
    Ok(p)
}

unsafe fn init(lib: P, path: String) -> Result<Cublas> {
    type Create = unsafe extern "C" fn(*mut P) -> c_int;
    type Version = unsafe extern "C" fn(P, *mut c_int) -> c_int;
    let create = std::mem::transmute::<P, Create>(sym(lib, "cublasCreate_v2")?);
    let version = std::mem::transmute::<P, Version>(sym(lib, "cublasGetVersion_v2")?);
    let gemm_ex = std::mem::transmute::<P, GemmEx>(sym(lib, "cublasGemmEx")?);
    let mut handle = std::ptr::null_mut();
    check("cublasCreate", create(&mut handle))?;
    let mut v = 0;
    check("cublasGetVersion", version(handle, &mut v))?;
    Ok(Cublas { gemm_ex, handle, path, version: v })
}

/// `Err("<call> failed: cuBLAS status n")` for a non-zero status.
fn check(call: &str, status: c_int) -> Result<()> {
    if status == 0 {
        return Ok(());
    }
    let name = match status {
        1 => "NOT_INITIALIZED",
        3 => "ALLOC_FAILED",
        7 => "INVALID_VALUE",
        8 => "ARCH_MISMATCH",
        13 => "EXECUTION_FAILED",
        14 => "INTERNAL_ERROR",
        15 => "NOT_SUPPORTED",
        _ => "?",
    };
    Err(format!("{call} failed: CUBLAS_STATUS_{name} ({status})"))
}

impl Cublas {
    /// C = A B exactly in int32 (alpha 1, beta 0): A m x k int8 row-major, B k x n int8
    /// column-major, C m x n int32 row-major, all device addresses. Formed as cuBLAS's
    /// column-major C^T = B^T A^T with op(B) = T and op(A) = N, the int8 form every cuBLAS takes;
    /// m, n and k must be multiples of 4 (its leading dimensions k and n).
    pub fn gemm_i8(&self, (m, n, k): (usize, usize, usize), a_row: u64, b_col: u64, c_row: u64) -> Result<()> {
        if m % 4 != 0 || n % 4 != 0 || k % 4 != 0 {
            return Err(format!("cuBLAS's int8 GEMM needs m, n and k multiples of 4 (m {m}, n {n}, k {k})"));
        }
        let (one, zero) = (1i32, 0i32);
        let (mi, ni, ki) = (m as c_int, n as c_int, k as c_int);
        // SAFETY: a live handle; device operands of the sizes above; host scalars outlive the call.
        let status = unsafe {
            (self.gemm_ex)(
                self.handle,
                OP_T,
                OP_N,
                ni,
                mi,
                ki,
                &one as *const i32 as CP,
                b_col as CP,
                R_8I,
                ki,
                a_row as CP,
                R_8I,
                ki,
                &zero as *const i32 as CP,
                c_row as P,
                R_32I,
                ni,
                COMPUTE_32I,
                GEMM_DEFAULT,
            )
        };
        check("cublasGemmEx", status)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn candidates_look_beside_cusparse_first() {
        if std::env::var("OXSPARSE_BENCH_CUBLAS").is_ok() {
            return;
        }
        let c = super::candidates("/x/nvidia/cusparse/lib/libcusparse.so.12");
        assert_eq!(&c[..2], ["/x/nvidia/cusparse/lib/libcublas.so.13", "/x/nvidia/cusparse/lib/libcublas.so.12"]);
        assert_eq!(c[3], "/x/nvidia/cusparse/lib/../../cublas/lib/libcublas.so.12");
        assert!(c.contains(&"libcublas.so.12".to_string()));
        assert!(super::candidates("libcusparse.so.12")[0] == "libcublas.so.13", "a bare name: the loader's path first");
    }
}
