//! Per-name call counts and, with `OXSPARSE_REPORT=1`, host time and a table printed at exit.
//!
//! A call costs one relaxed atomic add and one relaxed load; the clock is read only when the report
//! is on.

use crate::face::{COUNT, NAMES, ROUTES};
use crate::{say, Route, STATUS_NOT_SUPPORTED};
use std::os::raw::c_int;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

static CALLS: [AtomicU64; COUNT] = [const { AtomicU64::new(0) }; COUNT];
static NANOS: [AtomicU64; COUNT] = [const { AtomicU64::new(0) }; COUNT];
/// Set when a name returned NOT_SUPPORTED for want of an implementation (logged once).
static REFUSED: [AtomicBool; COUNT] = [const { AtomicBool::new(false) }; COUNT];
/// 0: not read yet, 1: off, 2: on.
static STATE: AtomicU8 = AtomicU8::new(0);

/// Counts a call; the start time when the report is on.
#[inline]
pub fn enter(id: usize) -> Option<Instant> {
    CALLS[id].fetch_add(1, Relaxed);
    match STATE.load(Relaxed) {
        1 => None,
        2 => Some(Instant::now()),
        _ => is_on().then(Instant::now),
    }
}

/// Adds the call's host time when the report is on.
#[inline]
pub fn leave(id: usize, clock: Option<Instant>) {
    if let Some(start) = clock {
        NANOS[id].fetch_add(start.elapsed().as_nanos() as u64, Relaxed);
    }
}

/// A name with no implementation here: counted, logged once, NOT_SUPPORTED.
pub fn not_supported(id: usize) -> c_int {
    let clock = enter(id);
    refuse(id, "not implemented by oxsparse and not forwarded (dropin/forwarded.txt)");
    leave(id, clock);
    STATUS_NOT_SUPPORTED
}

/// Logs once that `id` returned NOT_SUPPORTED, and why.
pub fn refuse(id: usize, why: &str) {
    if !REFUSED[id].swap(true, Relaxed) {
        say(&format!("{} returns CUSPARSE_STATUS_NOT_SUPPORTED: {why}", NAMES[id]));
    }
}

/// The number of calls made to `id` so far.
pub fn calls(id: usize) -> u64 {
    CALLS[id].load(Relaxed)
}

/// Whether OXSPARSE_REPORT asks for the report.
pub fn enabled() -> bool {
    match STATE.load(Relaxed) {
        0 => is_on(),
        state => state == 2,
    }
}

/// Reads OXSPARSE_REPORT once; when on, prints the table at exit.
#[cold]
fn is_on() -> bool {
    let on = std::env::var("OXSPARSE_REPORT").is_ok_and(|v| !v.is_empty() && v != "0");
    if STATE.compare_exchange(0, if on { 2 } else { 1 }, Relaxed, Relaxed).is_ok() && on {
        // SAFETY: print_at_exit is an extern "C" fn without arguments that never unwinds.
        unsafe { libc::atexit(print_at_exit) };
    }
    STATE.load(Relaxed) == 2
}

extern "C" fn print_at_exit() {
    let _ = std::panic::catch_unwind(|| say(&table()));
}

/// The report: one row per name called, longest total time first.
pub fn table() -> String {
    let mut rows: Vec<usize> = (0..COUNT).filter(|&id| calls(id) > 0).collect();
    rows.sort_by_key(|&id| std::cmp::Reverse(NANOS[id].load(Relaxed)));
    let mut text = format!(
        "report of libcusparse.so.12 (oxsparse {}, reporting cuSPARSE 12.6.3)\n{:<44} {:>10} {:<14} {:>12}\n",
        crate::face::OXSPARSE_VERSION,
        "function",
        "calls",
        "route",
        "host ms"
    );
    for id in rows {
        let route = match ROUTES[id] {
            _ if REFUSED[id].load(Relaxed) => "not supported",
            Route::Face | Route::Native => "native",
            Route::Forwarded => "forwarded",
            Route::NotSupported => "not supported",
        };
        let ms = NANOS[id].load(Relaxed) as f64 / 1e6;
        text.push_str(&format!("{:<44} {:>10} {:<14} {:>12.3}\n", NAMES[id], calls(id), route, ms));
    }
    text
}
