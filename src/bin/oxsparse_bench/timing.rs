//! Timing with CUDA events on the legacy default stream: warm-up calls, then `runs` timed calls,
//! each between two events and waited for before the next, reported as their median. The host
//! time each call takes to return (its enqueueing work, which delays the GPU on an idle stream) is
//! reported beside it.
//!
//! The warm-up calls every copy of the operands at least twice ([`warmup_calls`]), so that what a
//! library does once per argument set (oxsparse's graph per argument set that comes back,
//! src/kernels/graph/pool.rs; whatever cuSPARSE keeps) stays out of the timed calls, as a loop
//! over the same argument sets would have it after its first rounds.
//!
//! Calls rotate among several copies of the operands (see [`copies_for`]) so that a call finds
//! its inputs in L2 only as often as a real workload would, not because the previous timed call
//! just touched them.

use crate::device::{cu, sync};
use crate::Result;
use cudarc::driver::{result, sys};

/// The most copies of the operands a case rotates among.
pub const MAX_COPIES: usize = 16;

/// How many copies of `copy_bytes` of operands to rotate among: enough to cover twice the L2
/// cache, at most MAX_COPIES, and at most half of the free device memory (at least one).
pub fn copies_for(copy_bytes: u64, l2_bytes: u64, free_bytes: u64) -> usize {
    let b = copy_bytes.max(1);
    let want = (2 * l2_bytes).div_ceil(b).clamp(1, MAX_COPIES as u64);
    let fit = (free_bytes / 2 / b).max(1);
    want.min(fit) as usize
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    pub runs: usize,
    /// Median host time of the call itself (from before it is made until it returns).
    pub host_ms: f64,
}

/// Median of a non-empty sample (the mean of the middle two for an even count).
pub fn median(sample: &[f64]) -> f64 {
    assert!(!sample.is_empty(), "median of nothing");
    let mut v = sample.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

pub fn summarize(sample: &[f64], host: &[f64]) -> Timing {
    Timing {
        host_ms: if host.is_empty() { 0.0 } else { median(host) },
        median_ms: median(sample),
        min_ms: sample.iter().copied().fold(f64::INFINITY, f64::min),
        max_ms: sample.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        runs: sample.len(),
    }
}

/// Two events, destroyed on drop.
struct Events {
    start: sys::CUevent,
    stop: sys::CUevent,
}

impl Events {
    fn new() -> Result<Events> {
        let flags = sys::CUevent_flags::CU_EVENT_DEFAULT;
        let start = cu("cuEventCreate", result::event::create(flags))?;
        match result::event::create(flags) {
            Ok(stop) => Ok(Events { start, stop }),
            Err(e) => {
                unsafe { result::event::destroy(start).ok() };
                cu("cuEventCreate", Err(e))
            }
        }
    }
}

impl Drop for Events {
    fn drop(&mut self) {
        for e in [self.start, self.stop] {
            // SAFETY: created in `new`, destroyed once.
            if let Err(err) = unsafe { result::event::destroy(e) } {
                eprintln!("oxsparse-bench: warning: cuEventDestroy failed: {:?}", err.0);
            }
        }
    }
}

/// Event times and host times of timed calls (ms), gathered over one or more passes.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub time: Vec<f64>,
    pub host: Vec<f64>,
}

impl Samples {
    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }
    pub fn summary(&self) -> Timing {
        summarize(&self.time, &self.host)
    }
}

/// The untimed calls before the timed ones: `warmup`, and at least two rounds over the copies
/// (none when `warmup` is 0, as profiling runs ask).
pub fn warmup_calls(warmup: usize, copies: usize) -> usize {
    if warmup == 0 {
        0
    } else {
        warmup.max(2 * copies)
    }
}

/// Runs `call(copy)` [`warmup_calls`] times, then `runs` timed times, rotating over `copies`
/// copies. `call` enqueues one operation on the legacy default stream.
pub fn measure(warmup: usize, runs: usize, copies: usize, call: impl FnMut(usize) -> Result<()>) -> Result<Timing> {
    let mut sample = Samples::default();
    measure_into(warmup, runs, copies, &mut sample, |_| Ok(()), call)?;
    Ok(sample.summary())
}

/// As [`measure`], appending the timed calls to `sample`; `reset(copy)` is enqueued before every
/// call, ahead of the start event, so that its work is not timed.
pub fn measure_into(
    warmup: usize,
    runs: usize,
    copies: usize,
    sample: &mut Samples,
    mut reset: impl FnMut(usize) -> Result<()>,
    mut call: impl FnMut(usize) -> Result<()>,
) -> Result<()> {
    assert!(runs > 0 && copies > 0);
    let ev = Events::new()?;
    let null: sys::CUstream = std::ptr::null_mut();
    let mut next = 0;
    for _ in 0..warmup_calls(warmup, copies) {
        reset(next)?;
        call(next)?;
        next = (next + 1) % copies;
    }
    sync("the warm-up calls")?;
    for _ in 0..runs {
        reset(next)?;
        // SAFETY: live events, the legacy stream.
        unsafe {
            cu("cuEventRecord", result::event::record(ev.start, null))?;
            let t0 = std::time::Instant::now();
            call(next)?;
            sample.host.push(t0.elapsed().as_secs_f64() * 1e3);
            cu("cuEventRecord", result::event::record(ev.stop, null))?;
            cu("cuEventSynchronize", result::event::synchronize(ev.stop))?;
            sample.time.push(cu("cuEventElapsedTime", result::event::elapsed(ev.start, ev.stop))? as f64);
        }
        next = (next + 1) % copies;
    }
    sync("the timed calls")
}

/// The time of one call that enqueues work on the legacy default stream (a preprocess), between
/// two events on an idle stream: host work inside the call counts too, as it delays the work
/// after it.
pub fn time_once(call: impl FnOnce() -> Result<()>) -> Result<f64> {
    sync("the work before a timed set-up call")?;
    let ev = Events::new()?;
    let null: sys::CUstream = std::ptr::null_mut();
    // SAFETY: live events, the legacy stream.
    unsafe {
        cu("cuEventRecord", result::event::record(ev.start, null))?;
        call()?;
        cu("cuEventRecord", result::event::record(ev.stop, null))?;
        cu("cuEventSynchronize", result::event::synchronize(ev.stop))?;
        Ok(cu("cuEventElapsedTime", result::event::elapsed(ev.start, ev.stop))? as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_warmup_calls_every_copy_twice() {
        assert_eq!(warmup_calls(3, 1), 3);
        assert_eq!(warmup_calls(3, 16), 32);
        assert_eq!(warmup_calls(40, 16), 40);
        assert_eq!(warmup_calls(0, 16), 0, "profiling runs ask for none");
    }

    #[test]
    fn median_of_odd_and_even_samples() {
        assert_eq!(median(&[3.0]), 3.0);
        assert_eq!(median(&[5.0, 1.0, 3.0]), 3.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[1.0, 100.0, 2.0, 2.0, 2.0]), 2.0, "outliers do not move it");
    }

    #[test]
    fn summary_has_min_and_max() {
        let t = summarize(&[0.3, 0.1, 0.2], &[0.01, 0.03, 0.02]);
        assert_eq!(t, Timing { median_ms: 0.2, min_ms: 0.1, max_ms: 0.3, runs: 3, host_ms: 0.02 });
    }

    #[test]
    fn copies_cover_twice_the_l2_within_limits() {
        let l2 = 50 << 20;
        assert_eq!(copies_for(10 << 20, l2, 80 << 30), 10);
        assert_eq!(copies_for(1 << 10, l2, 80 << 30), MAX_COPIES);
        assert_eq!(copies_for(1 << 30, l2, 80 << 30), 1);
        assert_eq!(copies_for(10 << 20, l2, 40 << 20), 2, "at most half the free memory");
        assert_eq!(copies_for(10 << 30, l2, 1 << 30), 1, "at least one");
        assert_eq!(copies_for(0, l2, 1 << 30), MAX_COPIES);
    }
}
