//! The device's copy bandwidth: the yardstick of SpMV's effective bandwidth (SpMV reads every
//! byte of A once, so a fast SpMV streams memory about as fast as a copy does). Measured once per
//! run, as a device-to-device copy of a large buffer (`cuMemcpyDtoDAsync` on the legacy stream),
//! timed like the operations: CUDA events, median of `runs` copies after `warmup`.

use crate::device::{cu, DevBuf, Gpu};
use crate::report::CopyBandwidth;
use crate::timing;
use crate::Result;
use cudarc::driver::result;

/// The buffer copied: far beyond any L2 cache, so the copy runs at memory speed.
pub const COPY_BYTES: u64 = 1 << 30;
/// The smallest buffer still worth measuring (when memory is short).
const MIN_COPY_BYTES: u64 = 256 << 20;

/// The size copied when `free` bytes of device memory are free: COPY_BYTES, or less so that the
/// two buffers take at most half of the free memory; a multiple of 1 MiB.
pub fn copy_size(free: u64) -> Option<u64> {
    let bytes = COPY_BYTES.min(free / 4) >> 20 << 20;
    (bytes >= MIN_COPY_BYTES).then_some(bytes)
}

/// Copies `bytes` (read + written: twice that moved) taking `median_ms` each, in GB/s (1e9 B).
pub fn gbps(bytes: u64, median_ms: f64) -> f64 {
    2.0 * bytes as f64 / median_ms / 1e6
}

pub fn measure(gpu: &Gpu, warmup: usize, runs: usize) -> Result<CopyBandwidth> {
    let free = gpu.free_bytes()?;
    let bytes = copy_size(free).ok_or(format!("only {} MiB of device memory free", free >> 20))?;
    let (src, dst) = (DevBuf::new(bytes as usize)?, DevBuf::new(bytes as usize)?);
    // Written once, so that the copy reads memory that exists (first touch) and never NaN
    // patterns a compressing memory system could treat specially.
    src.fill(0x5A)?;
    let null = std::ptr::null_mut();
    // At least a few runs even under `--runs 1`: the header number should not be one sample.
    let t = timing::measure(warmup.max(1), runs.max(5), 1, |_| {
        // SAFETY: both buffers hold `bytes` bytes; the legacy stream.
        cu("cuMemcpyDtoDAsync", unsafe { result::memcpy_dtod_async(dst.ptr, src.ptr, bytes as usize, null) })
    })?;
    Ok(CopyBandwidth { bytes, median_ms: t.median_ms, gbps: gbps(bytes, t.median_ms) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_and_rate() {
        assert_eq!(copy_size(80 << 30), Some(COPY_BYTES));
        assert_eq!(copy_size(2 << 30), Some(512 << 20), "two buffers in half the free memory");
        assert_eq!(copy_size((1 << 30) + 12345), Some(256 << 20));
        assert_eq!(copy_size(512 << 20), None);
        assert_eq!(gbps(1 << 30, 1.0), 2.0 * (1u64 << 30) as f64 / 1e6);
    }
}
