//! oxsparse: GPU sparse linear algebra behind a cuSPARSE-compatible C ABI.
//!
//! Layers, from the C boundary down (each module's docs say more):
//!
//! * [`ffi`]: the exported `oxsparse*` functions; argument decoding, panic catching, statuses.
//! * [`descr`]: descriptors of the user's sparse and dense operands (safe Rust, no C types).
//! * [`ops`]: the operations (checks, quick returns, choice of kernel) over descriptors.
//! * [`kernels`]: launchers that fill a parameter block and enqueue a kernel from `kernels/*.cu`.
//! * [`reference`]: plain CPU implementations of every operation, the oracle for tests.
//!
//! [`context`] holds the handle's device, context and stream; [`types`] the enums shared by all;
//! [`fast_hash`] the hasher of the maps on a call's host path; [`logger`] where messages go.

pub mod context;
pub mod descr;
pub mod device;
pub mod error;
pub mod fast_hash;
pub mod ffi;
pub mod kernels;
pub mod logger;
pub mod ops;
pub mod reference;
pub mod settings;
pub mod types;

/// (major, minor, patch) from Cargo.toml.
pub const VERSION: (i32, i32, i32) = (0, 1, 0);
/// `major * 1000 + minor * 100 + patch`, what `oxsparseGetVersion` reports.
pub const VERSION_NUMBER: i32 = VERSION.0 * 1000 + VERSION.1 * 100 + VERSION.2;

#[cfg(test)]
mod tests {
    #[test]
    fn version_matches_cargo() {
        let v = env!("CARGO_PKG_VERSION");
        assert_eq!(v, format!("{}.{}.{}", super::VERSION.0, super::VERSION.1, super::VERSION.2));
    }
}
