//! Internal error type and its mapping to the C status codes.
//!
//! Every failure carries a short human-readable reason. The FFI layer turns it into a status and
//! logs `<function>: <reason>` in the logger's Error category (src/logger.rs: stderr by default,
//! when `OXSPARSE_LOG_LEVEL` is 1 or more, as `CUSPARSE_LOG_LEVEL` for cuSPARSE), so a user can
//! see *why* a call was refused.

use crate::types::Status;
use cudarc::driver::sys::cudaError_enum as CUresult;
use cudarc::driver::DriverError;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Null/destroyed handle or descriptor, or no CUDA driver/GPU.
    NotInitialized(String),
    InvalidValue(String),
    NotSupported(String),
    /// A legacy routine given a matrix descriptor whose type it does not take.
    MatrixTypeNotSupported(String),
    ArchMismatch(String),
    AllocFailed(String),
    ExecutionFailed(String),
    Internal(String),
    InsufficientResources(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn status(&self) -> Status {
        match self {
            Error::NotInitialized(_) => Status::OXSPARSE_STATUS_NOT_INITIALIZED,
            Error::InvalidValue(_) => Status::OXSPARSE_STATUS_INVALID_VALUE,
            Error::NotSupported(_) => Status::OXSPARSE_STATUS_NOT_SUPPORTED,
            Error::MatrixTypeNotSupported(_) => Status::OXSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED,
            Error::ArchMismatch(_) => Status::OXSPARSE_STATUS_ARCH_MISMATCH,
            Error::AllocFailed(_) => Status::OXSPARSE_STATUS_ALLOC_FAILED,
            Error::ExecutionFailed(_) => Status::OXSPARSE_STATUS_EXECUTION_FAILED,
            Error::Internal(_) => Status::OXSPARSE_STATUS_INTERNAL_ERROR,
            Error::InsufficientResources(_) => Status::OXSPARSE_STATUS_INSUFFICIENT_RESOURCES,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Error::NotInitialized(m)
            | Error::InvalidValue(m)
            | Error::NotSupported(m)
            | Error::MatrixTypeNotSupported(m)
            | Error::ArchMismatch(m)
            | Error::AllocFailed(m)
            | Error::ExecutionFailed(m)
            | Error::Internal(m)
            | Error::InsufficientResources(m) => m,
        }
    }

    /// Maps a CUDA driver error met while doing `what`.
    pub fn from_driver(what: &str, e: DriverError) -> Error {
        let msg = format!("{what}: CUDA driver error {:?}", e.0);
        match e.0 {
            CUresult::CUDA_ERROR_OUT_OF_MEMORY => Error::AllocFailed(msg),
            CUresult::CUDA_ERROR_NOT_INITIALIZED
            | CUresult::CUDA_ERROR_NO_DEVICE
            | CUresult::CUDA_ERROR_DEINITIALIZED
            | CUresult::CUDA_ERROR_INVALID_DEVICE => Error::NotInitialized(msg),
            CUresult::CUDA_ERROR_NO_BINARY_FOR_GPU | CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION | CUresult::CUDA_ERROR_INVALID_PTX => {
                Error::ArchMismatch(msg)
            }
            CUresult::CUDA_ERROR_LAUNCH_FAILED
            | CUresult::CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
            | CUresult::CUDA_ERROR_LAUNCH_TIMEOUT
            | CUresult::CUDA_ERROR_ILLEGAL_ADDRESS
            | CUresult::CUDA_ERROR_INVALID_VALUE
            | CUresult::CUDA_ERROR_INVALID_HANDLE => Error::ExecutionFailed(msg),
            _ => Error::Internal(msg),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message(), self.status().name())
    }
}

/// `return Err(Error::InvalidValue(format!(...)))` in one line.
macro_rules! invalid {
    ($($arg:tt)*) => { return Err($crate::error::Error::InvalidValue(format!($($arg)*))) };
}
/// `return Err(Error::NotSupported(format!(...)))` in one line.
macro_rules! unsupported {
    ($($arg:tt)*) => { return Err($crate::error::Error::NotSupported(format!($($arg)*))) };
}
pub(crate) use {invalid, unsupported};
