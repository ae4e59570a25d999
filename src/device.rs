//! What the planners know of the GPU: one `DeviceModel` per handle, read from the driver once when
//! the handle is created. Every rule that depends on the machine (waves of resident blocks, how
//! much of op(B) stays in L2, whether memory is wide enough for a kernel to stream more of B)
//! reads it here; no rule names a particular GPU. Unit tests plan on model devices
//! (`DeviceModel::sized`) to check the rules' answers on GPUs the bench does not reach.

use crate::error::{Error, Result};
use cudarc::driver::{result, sys};

/// How fast the device's memory streams, in classes the planner's rules were measured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MemoryClass {
    /// Below 1.2 TB/s (GDDR boards): no rule was measured here; they take the standard bounds.
    Narrow,
    /// 1.2 to 4 TB/s (HBM2e, HBM3): the bounds most rules were first measured with.
    Standard,
    /// 4 TB/s and more (HBM3e): op(B) bounds measured again there, larger where the warp-row
    /// kernels keep their lead (bench/notes/h200.md).
    Wide,
}

impl MemoryClass {
    /// The class of a memory of `bytes_per_s` peak bandwidth (0: unknown, the standard class).
    pub fn of(bytes_per_s: u64) -> MemoryClass {
        match bytes_per_s {
            0 => MemoryClass::Standard,
            b if b < 1_200_000_000_000 => MemoryClass::Narrow,
            b if b < 4_000_000_000_000 => MemoryClass::Standard,
            _ => MemoryClass::Wide,
        }
    }
}

/// The device facts the planners use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceModel {
    /// Compute capability, e.g. (9, 0).
    pub arch: (i32, i32),
    pub sm_count: u32,
    /// Bytes of L2 cache.
    pub l2_bytes: u64,
    /// Shared memory a block may opt into, and a multiprocessor's whole.
    pub shared_per_block: u32,
    pub shared_per_sm: u32,
    /// 32-bit registers of a multiprocessor.
    pub registers_per_sm: u32,
    pub threads_per_sm: u32,
    pub blocks_per_sm: u32,
    /// Peak memory bandwidth in bytes a second (0 when the driver does not say).
    pub memory_bytes_per_s: u64,
}

impl DeviceModel {
    /// Reads the model of `device` from the driver. The size facts must be there; the memory's
    /// clock and width may not be (a bandwidth of 0 then: the standard class).
    pub fn read(device: sys::CUdevice) -> Result<DeviceModel> {
        use sys::CUdevice_attribute::*;
        // SAFETY: `device` is a valid ordinal the caller got from the driver.
        let attr = |a| unsafe { result::device::get_attribute(device, a) };
        let need = |a| attr(a).map_err(|e| Error::from_driver("cuDeviceGetAttribute", e)).map(|v| v.max(0) as u32);
        let clock_khz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE).unwrap_or(0).max(0) as u64;
        let bus_bits = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH).unwrap_or(0).max(0) as u64;
        Ok(DeviceModel {
            arch: (need(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)? as i32, need(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)? as i32),
            sm_count: need(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?.max(1),
            l2_bytes: need(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)? as u64,
            shared_per_block: need(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?,
            shared_per_sm: need(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?,
            registers_per_sm: need(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR)?,
            threads_per_sm: need(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?,
            blocks_per_sm: need(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR)?,
            // Double data rate: two transfers a clock over the bus.
            memory_bytes_per_s: 2 * clock_khz * 1000 * bus_bits / 8,
        })
    }

    /// A model of a device with `sm_count` multiprocessors, `l2_mib` MiB of L2 and
    /// `memory_gb_per_s` of bandwidth, with sm_80-sm_90 limits otherwise: for planning in tests.
    pub fn sized(sm_count: u32, l2_mib: u64, memory_gb_per_s: u64) -> DeviceModel {
        DeviceModel {
            arch: (9, 0),
            sm_count,
            l2_bytes: l2_mib << 20,
            shared_per_block: 227 << 10,
            shared_per_sm: 228 << 10,
            registers_per_sm: 64 << 10,
            threads_per_sm: 2048,
            blocks_per_sm: 32,
            memory_bytes_per_s: memory_gb_per_s * 1_000_000_000,
        }
    }

    pub fn memory(&self) -> MemoryClass {
        MemoryClass::of(self.memory_bytes_per_s)
    }

    /// Blocks of a kernel resident on the whole device at once (one wave), given how many of its
    /// blocks one multiprocessor holds.
    pub fn wave(&self, blocks_per_sm: u32) -> u64 {
        self.sm_count as u64 * blocks_per_sm as u64
    }
}

#[cfg(test)]
pub(crate) mod models {
    //! Devices the rules' tests plan on: sizes as their makers publish them.
    use super::DeviceModel;

    /// 132 SMs, 50 MiB of L2, HBM3 at 3.35 TB/s (H100 SXM: where most rules were fitted).
    pub fn hbm3_132() -> DeviceModel {
        DeviceModel::sized(132, 50, 3350)
    }
    /// 132 SMs, 60 MiB of L2, HBM3e at 4.8 TB/s (H200: the bench's device).
    pub fn hbm3e_132() -> DeviceModel {
        DeviceModel::sized(132, 60, 4800)
    }
    /// 108 SMs, 40 MiB of L2, HBM2e at 2.0 TB/s (A100-sized).
    pub fn hbm2e_108() -> DeviceModel {
        DeviceModel { arch: (8, 0), shared_per_block: 163 << 10, shared_per_sm: 164 << 10, ..DeviceModel::sized(108, 40, 2039) }
    }
    /// 142 SMs, 96 MiB of L2, GDDR6 at 864 GB/s (L40-sized).
    pub fn gddr6_142() -> DeviceModel {
        DeviceModel {
            arch: (8, 9),
            shared_per_block: 99 << 10,
            shared_per_sm: 100 << 10,
            threads_per_sm: 1536,
            blocks_per_sm: 24,
            ..DeviceModel::sized(142, 96, 864)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::models::*;
    use super::*;

    #[test]
    fn memory_classes_follow_bandwidth() {
        let classes = [hbm3_132(), hbm3e_132(), hbm2e_108(), gddr6_142()].map(|d| d.memory());
        assert_eq!(classes, [MemoryClass::Standard, MemoryClass::Wide, MemoryClass::Standard, MemoryClass::Narrow]);
        assert_eq!(MemoryClass::of(0), MemoryClass::Standard, "an unknown bandwidth keeps the standard bounds");
    }

    #[test]
    fn a_wave_counts_every_multiprocessor() {
        assert_eq!(hbm3e_132().wave(8), 1056);
        assert_eq!(hbm2e_108().wave(4), 432);
    }
}
