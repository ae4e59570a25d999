//! A plain call (no preprocess) choosing between the short-row and the tile kernel on the GPU.
//!
//! Preprocess measures the longest row and reads it back (short_rows.rs); a plain call must not
//! wait, so it kept the tile kernel, which was 1.3-2x slower than short rows on the matrices
//! whose rows are all short (bench/notes/spmm-plain-and-preprocess.md). Call sites that never preprocess
//! (most of cuSPARSE's users) paid that. Now such a call enqueues three kernels, one chain:
//! 1. `rows_longer_than`: whether some row is longer than short rows take (`short_limit`, the
//!    inverse of `short_rows::takes` for this m and nnz); the verdict is a u64 set to this call's
//!    epoch in the room where preprocess measures the longest row;
//! 2. the short-row kernel, which returns at once on a "long" verdict;
//! 3. the tile kernel, which returns at once on a "short" one; and where C is staged for the
//!    tiles but short rows write a column-major C themselves, C's staging copy, likewise.
//!
//! Where a plain call would run warp rows over a table it builds on the GPU (warp_rows/mod.rs
//! `takes_plain`) they replace the tiles as the long branch, and the first launch of
//! their build, which reads every row's length anyway, gives the verdict in place of step 1.
//!
//! So a plain call takes whole short rows where preprocess's measure would take short rows
//! (bitwise the same as a preprocessed call that runs them whole: the same shape and slices). The
//! chain costs the verdict, the loser's empty launch and two more graph nodes, 5-15 us, so it is
//! taken only where the work is large enough for short rows to repay it
//! (`MIN_WORK`), where whole rows fill half a wave of the kernel's groups (else preprocess cuts
//! them into pieces, which a plain call cannot), and where the mean row does not already exceed
//! the limit; elsewhere the tiles run alone, as before.
//!
//! The verdict is remembered: the short-row kernel's first block leaves it in mapped host memory
//! (`Verdicts`), and a later plain call on the same arrays (the same row offsets and column
//! indices, rows, entries and reading) launches the chosen kernel alone, as a solver's or a
//! training loop's repeated calls do. Both kernels are exact for any rows, so a structure
//! rewritten in place under the same pointers stays right (a remembered choice then only costs
//! time). Callers such as PyTorch and CuPy make a new descriptor for every call over the same
//! arrays: such calls reuse the verdict too (the chain's losing launch, empty as it is, cost a
//! million-row mesh at N = 128 half of its product), but since arrays freed and allocated again
//! may hold another matrix, a verdict reached through another descriptor is learned again every
//! `RELEARN` such calls. `OXSPARSE_SPMM_PLAIN_CHOICE=gpu` takes the chain wherever it applies and
//! never remembers, `=tiles` never chooses (for comparisons).

use super::plan::{Kernel, Plan};
use super::short_rows;
use crate::context::{CacheSlot, Handle, HandleCache};
use crate::error::{Error, Result};
use std::sync::Mutex;

/// Work (entries x n x bytes of B's type) below which a plain call runs the tiles alone: short rows
/// repaid the chain from about 80 MB of work, not below it (measurements:
/// bench/notes/spmm-plain-and-preprocess.md).
pub const MIN_WORK: u64 = 80_000_000;

/// The longest row short rows take in a matrix of `m` rows and `nnz` entries: `short_rows::takes`
/// holds for every longest row up to it and for none above (each of its clauses bounds the
/// longest row from above).
pub fn short_limit(m: i64, nnz: i64) -> i64 {
    let (m, nnz) = (m.max(1), nnz.max(0));
    let long = short_rows::LONG.min(short_rows::SKEW * nnz / m);
    let hidden = short_rows::LONGEST.min(short_rows::SKEW_LONGEST * nnz / m).min(nnz / short_rows::HIDDEN);
    short_rows::ALWAYS.max(long).max(hidden)
}

use crate::settings::{PlainChoice as Setting, Spmm as Settings};

/// The limit a plain call's verdict compares rows with, when it chooses on the GPU: a tile plan
/// (op(B) and C in any layout) whose batches share one structure (the verdict reads batch 0,
/// in the room `longest_at`), with no kernel forced, `MIN_WORK` or more, whole rows that `fill`
/// half a wave (the caller's measure), and a mean row within the limit. None: the tiles run alone.
pub fn limit(p: &Plan, nnz: i64, fill: bool, s: &Settings) -> Option<i64> {
    let Kernel::Tiles { .. } = p.kernel else {
        return None;
    };
    if p.tiles.is_none_or(|t| t.longest_at.is_none()) || short_rows::forced(s).is_some() {
        return None;
    }
    let limit = short_limit(p.dims.m, nnz);
    let work = (nnz.max(0) as u64).saturating_mul(p.dims.n.max(0) as u64).saturating_mul(p.types.ab.size_bytes());
    let worth = match s.plain_choice {
        Setting::Tiles => false,
        Setting::Gpu => true,
        Setting::Rule => work >= MIN_WORK && fill,
    };
    (worth && nnz <= limit.saturating_mul(p.dims.m)).then_some(limit)
}

/// What identifies a matrix's verdict: its structure's arrays and how op(A)'s rows are read from
/// them (`view`: the format, index type and operation), its shape and the limit; and the
/// descriptor that learned it (`serial`: other descriptors reuse it `RELEARN` times, then learn
/// again, since their arrays may have been freed and allocated again for another matrix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub serial: u64,
    pub offsets: u64,
    pub indices: u64,
    pub view: u32,
    pub m: i64,
    pub nnz: i64,
    pub limit: i64,
}

/// What a plain call does about its verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Learned from an earlier call: whether some row is longer than the limit.
    Known { long: bool },
    /// Not learned yet: the chain decides on the GPU; where `host_at` is not 0 its short-row
    /// kernel leaves the verdict there for later calls.
    Chain { host_at: u64 },
}

/// Slots of mapped host memory a handle keeps for verdicts (the oldest is reused).
const SLOTS: usize = 64;
/// Calls that may pass without the verdict arriving before a slot is armed again (a slot taken
/// over by another matrix meanwhile, or a chain captured into a graph that never ran).
const PATIENCE: u32 = 8;
/// Calls through other descriptors than the one that learned a verdict that reuse it before it is
/// learned again (one chain in this many calls: a few us each, against a wrong kernel for at most
/// this many calls where the arrays now hold another matrix).
const RELEARN: u32 = 32;

impl Key {
    /// The same arrays, read the same way, whatever the descriptor.
    fn same_matrix(&self, other: &Key) -> bool {
        Key { serial: other.serial, ..*self } == *other
    }
}

/// Per handle: the verdicts plain calls learned, in a page of mapped pinned host memory
/// (allocated at the first chain, freed with the handle after its work is done).
#[derive(Default)]
pub struct Verdicts {
    inner: Mutex<Option<Learned>>,
    /// Set when the page could not be allocated: plain calls then chain without learning.
    unavailable: std::sync::atomic::AtomicBool,
}

struct Learned {
    host: usize,
    device: u64,
    entries: Vec<Entry>,
    next: usize,
}

struct Entry {
    key: Key,
    /// The epoch (bit 0 cleared) the slot's verdict must carry.
    expect: u64,
    known: Option<bool>,
    waited: u32,
    /// Calls that reused `known` through another descriptor.
    foreign: u32,
}

impl Verdicts {
    /// The verdict of the matrix `key` for a call of `epoch`: known, or to be made by the chain
    /// (which then writes the slot where this call arms it).
    pub fn lookup(&self, h: &Handle, key: Key, epoch: u64) -> Result<Verdict> {
        if h.settings.spmm.plain_choice == Setting::Gpu || key.serial == 0 || self.unavailable.load(std::sync::atomic::Ordering::Relaxed) {
            return Ok(Verdict::Chain { host_at: 0 });
        }
        let mut guard = self.inner.lock().map_err(|_| Error::Internal("the plain-call verdicts' lock was poisoned".into()))?;
        if guard.is_none() {
            // Not while the stream is being captured: allocating pinned memory is not a capturable
            // call (the chain alone works in a graph).
            if crate::kernels::capturing(h)? {
                return Ok(Verdict::Chain { host_at: 0 });
            }
            match Learned::alloc(h) {
                Ok(l) => *guard = Some(l),
                // Learning is an optimisation: without mapped host memory the calls still choose.
                Err(_) => {
                    self.unavailable.store(true, std::sync::atomic::Ordering::Relaxed);
                    return Ok(Verdict::Chain { host_at: 0 });
                }
            }
        }
        Ok(guard.as_mut().expect("allocated above").decide(key, epoch))
    }
}

impl HandleCache for Verdicts {
    const SLOT: CacheSlot = CacheSlot::PlainVerdicts;

    /// Frees the page once the context's work is done (a chain still queued writes into it).
    fn release(&self, _: &Handle) {
        let Ok(mut guard) = self.inner.lock() else {
            return;
        };
        if let Some(l) = guard.take() {
            // SAFETY: the page came from cuMemHostAlloc; after the context's work is done no kernel
            // writes it.
            unsafe {
                cudarc::driver::sys::cuCtxSynchronize();
                cudarc::driver::result::free_host(l.host as *mut std::ffi::c_void).ok();
            }
        }
    }
}

impl Learned {
    fn word(&self, slot: usize) -> u64 {
        // SAFETY: `slot` < SLOTS words of the mapped allocation, written by the GPU as whole u64s.
        unsafe { std::ptr::read_volatile((self.host as *const u64).add(slot)) }
    }

    /// `Verdicts::lookup` on the page: a key seen before whose verdict arrived is known; a new
    /// key takes a free slot, or the oldest, and arms it for this call's chain.
    fn decide(&mut self, key: Key, epoch: u64) -> Verdict {
        let l = self;
        let expect = epoch & !1;
        let slot = match l.entries.iter().position(|e| e.key.same_matrix(&key)) {
            Some(s) => s,
            None if l.entries.len() < SLOTS => {
                l.entries.push(Entry { key, expect, known: None, waited: 0, foreign: 0 });
                return Verdict::Chain { host_at: l.device + 8 * (l.entries.len() - 1) as u64 };
            }
            None => {
                let s = l.next;
                l.next = (s + 1) % SLOTS;
                l.entries[s] = Entry { key, expect, known: None, waited: 0, foreign: 0 };
                return Verdict::Chain { host_at: l.device + 8 * s as u64 };
            }
        };
        let e = &mut l.entries[slot];
        if let Some(long) = e.known {
            if e.key.serial == key.serial {
                return Verdict::Known { long };
            }
            e.foreign += 1;
            if e.foreign < RELEARN {
                return Verdict::Known { long };
            }
            // Learned again, by this descriptor.
            *e = Entry { key, expect, known: None, waited: 0, foreign: 0 };
            return Verdict::Chain { host_at: l.device + 8 * slot as u64 };
        }
        let word = l.word(slot);
        let e = &mut l.entries[slot];
        if word & !1 == e.expect {
            e.known = Some(word & 1 == 1);
            return Verdict::Known { long: word & 1 == 1 };
        }
        e.waited += 1;
        if e.waited < PATIENCE {
            return Verdict::Chain { host_at: 0 };
        }
        (e.expect, e.waited) = (expect, 0);
        Verdict::Chain { host_at: l.device + 8 * slot as u64 }
    }

    fn alloc(h: &Handle) -> Result<Learned> {
        use cudarc::driver::sys;
        let _bound = h.bind()?;
        let bytes = SLOTS * 8;
        // SAFETY: a fresh pinned, mapped allocation of `bytes`; zeroed before any kernel sees it.
        let host = unsafe { cudarc::driver::result::malloc_host(bytes, sys::CU_MEMHOSTALLOC_DEVICEMAP | sys::CU_MEMHOSTALLOC_PORTABLE) }
            .map_err(|e| Error::from_driver("allocating the plain-call verdicts' host page", e))?;
        unsafe { std::ptr::write_bytes(host as *mut u8, 0, bytes) };
        let mut device: sys::CUdeviceptr = 0;
        // SAFETY: `host` is a mapped allocation of this context.
        if let Err(e) = unsafe { sys::cuMemHostGetDevicePointer_v2(&mut device, host, 0).result() } {
            unsafe { cudarc::driver::result::free_host(host).ok() };
            return Err(Error::from_driver("mapping the plain-call verdicts' host page", e));
        }
        Ok(Learned { host: host as usize, device, entries: Vec::new(), next: 0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limit is the edge of `short_rows::takes`: it takes the limit and not one entry more,
    /// over shapes from one row to millions, sparse to dense.
    /// The page's bookkeeping, with a plain vector standing for the mapped page and the test
    /// writing what the short-row kernel would: a verdict is learned only from its own epoch, a
    /// full page reuses the oldest slot, and a slot that never answers is armed again.
    #[test]
    fn verdicts_are_learned_from_their_own_epoch() {
        let mut page = vec![0u64; SLOTS];
        let mut l = Learned { host: page.as_mut_ptr() as usize, device: 0x1000, entries: Vec::new(), next: 0 };
        let key = |i: i64| Key { serial: 7, offsets: 0x10_0000 + i as u64, indices: 0x20_0000, view: 0, m: 100, nnz: 1000, limit: 32 };
        let write = |l: &Learned, host_at: u64, word: u64| unsafe {
            std::ptr::write_volatile((l.host as *mut u64).add(((host_at - l.device) / 8) as usize), word)
        };
        // The first call arms slot 0; the next ones chain without arming until the verdict lands.
        let Verdict::Chain { host_at } = l.decide(key(0), 0xabc1) else { panic!("a new key chains") };
        assert_eq!(host_at, 0x1000);
        assert_eq!(l.decide(key(0), 0x5551), Verdict::Chain { host_at: 0 }, "no verdict yet: chain, slot not armed again");
        write(&l, host_at, 0x1231); // another epoch's: ignored
        assert_eq!(l.decide(key(0), 0x7771), Verdict::Chain { host_at: 0 });
        write(&l, host_at, 0xabc0 | 1); // this epoch's: long
        assert_eq!(l.decide(key(0), 0x9991), Verdict::Known { long: true });
        write(&l, host_at, 0); // once known, the page is not read again
        assert_eq!(l.decide(key(0), 0x9993), Verdict::Known { long: true });
        // A second matrix, short.
        let Verdict::Chain { host_at: second } = l.decide(key(1), 0x4441) else { panic!() };
        assert_eq!(second, 0x1008);
        write(&l, second, 0x4440);
        assert_eq!(l.decide(key(1), 0x1), Verdict::Known { long: false });
        // A slot whose verdict never comes is armed again after PATIENCE calls.
        let Verdict::Chain { host_at: third } = l.decide(key(2), 0x2221) else { panic!() };
        for _ in 1..PATIENCE {
            assert_eq!(l.decide(key(2), 0x3331), Verdict::Chain { host_at: 0 });
        }
        assert_eq!(l.decide(key(2), 0x6661), Verdict::Chain { host_at: third }, "armed again for this call");
        write(&l, third, 0x6660);
        assert_eq!(l.decide(key(2), 0x1), Verdict::Known { long: false });
        // A full page reuses slot 0 first: the new key chains and the old one must learn again.
        for i in 3..SLOTS as i64 {
            l.decide(key(i), 0x11);
        }
        assert_eq!(l.decide(key(SLOTS as i64), 0x8881), Verdict::Chain { host_at: 0x1000 });
        assert_eq!(l.decide(key(0), 0x8883), Verdict::Chain { host_at: 0x1008 }, "the evicted key takes the next oldest slot");
        drop(page);
    }

    /// Another descriptor over the same arrays (PyTorch's and CuPy's calls) reuses a verdict, and
    /// learns it again after RELEARN such calls; the descriptor that learned it never does.
    #[test]
    fn other_descriptors_reuse_a_verdict_and_learn_it_again() {
        let mut page = vec![0u64; SLOTS];
        let mut l = Learned { host: page.as_mut_ptr() as usize, device: 0x1000, entries: Vec::new(), next: 0 };
        let key = |serial: u64| Key { serial, offsets: 0x10_0000, indices: 0x20_0000, view: 0, m: 100, nnz: 1000, limit: 32 };
        let write = |l: &Learned, host_at: u64, word: u64| unsafe {
            std::ptr::write_volatile((l.host as *mut u64).add(((host_at - l.device) / 8) as usize), word)
        };
        let Verdict::Chain { host_at } = l.decide(key(1), 0xab1) else { panic!("a new key chains") };
        write(&l, host_at, 0xab0);
        assert_eq!(l.decide(key(1), 0x11), Verdict::Known { long: false });
        for call in 1..RELEARN {
            assert_eq!(l.decide(key(100 + call as u64), 0x11), Verdict::Known { long: false }, "call {call} of a new descriptor");
        }
        let Verdict::Chain { host_at: again } = l.decide(key(999), 0xcd1) else { panic!("learned again") };
        assert_eq!(again, host_at, "in its own slot");
        write(&l, again, 0xcd0 | 1);
        assert_eq!(l.decide(key(999), 0x11), Verdict::Known { long: true }, "the new descriptor's verdict");
        for _ in 0..2 * RELEARN {
            assert_eq!(l.decide(key(999), 0x11), Verdict::Known { long: true }, "its own descriptor never learns again");
        }
        // Other arrays are another matrix whatever the descriptor.
        assert!(matches!(l.decide(Key { indices: 0x30_0000, ..key(999) }, 0x21), Verdict::Chain { .. }));
        drop(page);
    }

    #[test]
    fn the_limit_is_the_edge_of_what_short_rows_take() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |below: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        };
        for _ in 0..20_000 {
            let m = ((next(2_000_000) as i64) >> next(20)) + 1;
            let nnz = (m * next(300) as i64) >> next(6);
            let limit = short_limit(m, nnz);
            assert!(short_rows::takes_by_rule(limit, m, nnz), "limit {limit} at m {m}, nnz {nnz}");
            assert!(!short_rows::takes_by_rule(limit + 1, m, nnz), "limit {limit} + 1 at m {m}, nnz {nnz}");
        }
        // The measured matrices of short_rows.rs: (rows, entries) -> limit.
        assert_eq!(short_limit(2500, 12_349), 79, "cryg2500: 16 x the mean of 4.9");
        assert_eq!(short_limit(6545, 295_680), 256, "EX5: 8 x its mean of 45 is over LONGEST");
        assert_eq!(short_limit(10_312, 667_966), 256, "blogcatalog: its longest row of 3992 goes to the tiles");
        assert_eq!(short_limit(1_000_000, 1000), 32, "rows of 32 entries are short whatever the mean");
    }
}
