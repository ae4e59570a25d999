//! The library's log: where refused calls, errors and (at higher levels) kernel launches are
//! reported, as cuSPARSE's logger. One process-wide state behind the `oxsparseLogger*` functions
//! (src/ffi/logger.rs), initialised from `OXSPARSE_LOG_LEVEL`, `OXSPARSE_LOG_MASK` and
//! `OXSPARSE_LOG_FILE` on first use (docs/tuning.md).
//!
//! A message has one category, a bit of the mask: Error 1, Trace 2 (calls that launch kernels),
//! Hints 4, Info 8, API trace 16. Level L (0 to 5) enables the categories 1 to L, so its mask is
//! `2^L - 1`; a mask set afterwards replaces it. A message whose bit is set goes to the callback
//! when one is set, else to the output: stderr (the default), a file opened by path, or a C
//! `FILE*` the caller owns. `oxsparseLoggerForceDisable` silences the log for the rest of the
//! process. Every function is thread-safe: the mask is an atomic read on every check, the rest
//! sits behind one lock, never held while a callback runs (it may call the logger itself).

use once_cell::sync::Lazy;
use std::ffi::CString;
use std::io::Write;
use std::os::raw::{c_char, c_int};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

/// A message's category: its bit in the mask (cuSPARSE's values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    Error = 1,
    Trace = 2,
    Hints = 4,
    Info = 8,
    ApiTrace = 16,
}

impl Category {
    /// The level that first enables this category (1 to 5), what a callback receives.
    pub fn level(self) -> c_int {
        (self as u32).trailing_zeros() as c_int + 1
    }
}

/// The highest level and the widest mask.
pub const MAX_LEVEL: c_int = 5;
pub const ALL_CATEGORIES: c_int = 31;

/// What a callback receives: level (1 to 5), the function the message is about, the message.
pub type Callback = unsafe extern "C" fn(c_int, *const c_char, *const c_char);

/// Where messages go when no callback is set.
enum Output {
    Stderr,
    /// A file opened by path (`oxsparseLoggerOpenFile`, `OXSPARSE_LOG_FILE`): ours to close.
    Owned(std::fs::File),
    /// The caller's `FILE*` (`oxsparseLoggerSetFile`): written and flushed, never closed.
    Borrowed(usize),
}

struct State {
    /// The mask the level and mask settings give (in force unless disabled).
    mask: u32,
    disabled: bool,
    output: Output,
    callback: Option<Callback>,
}

/// The mask in force (0 once disabled): the one read on every check, set with the state.
static IN_FORCE: AtomicU32 = AtomicU32::new(0);

static STATE: Lazy<Mutex<State>> = Lazy::new(|| {
    let s = from_env();
    publish_mask(&s);
    Mutex::new(s)
});

/// `2^level - 1` for a level in 0..=5.
pub fn level_mask(level: c_int) -> u32 {
    (1u32 << level.clamp(0, MAX_LEVEL)) - 1
}

fn from_env() -> State {
    let number = |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse::<i64>().ok());
    let mut mask = number("OXSPARSE_LOG_LEVEL").map_or(0, |l| level_mask(l.clamp(0, MAX_LEVEL as i64) as c_int));
    if let Some(m) = number("OXSPARSE_LOG_MASK") {
        mask = (m.clamp(0, ALL_CATEGORIES as i64)) as u32;
    }
    let output = match std::env::var("OXSPARSE_LOG_FILE") {
        // `%i` stands for the process id, as in cuSPARSE; a file that cannot be made leaves stderr.
        Ok(path) if !path.is_empty() => {
            std::fs::File::create(path.replace("%i", &std::process::id().to_string())).map_or(Output::Stderr, Output::Owned)
        }
        _ => Output::Stderr,
    };
    State { mask, disabled: false, output, callback: None }
}

fn state() -> std::sync::MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Whether messages of `category` are logged now.
pub fn enabled(category: Category) -> bool {
    // The environment is read once, before the first check.
    Lazy::force(&STATE);
    IN_FORCE.load(Ordering::Relaxed) & category as u32 != 0
}

fn publish_mask(s: &State) {
    IN_FORCE.store(if s.disabled { 0 } else { s.mask }, Ordering::Relaxed);
}

/// Sets the level (0 to 5): its mask replaces the mask in force. Returns false for another value.
pub fn set_level(level: c_int) -> bool {
    if !(0..=MAX_LEVEL).contains(&level) {
        return false;
    }
    let mut s = state();
    s.mask = level_mask(level);
    publish_mask(&s);
    true
}

/// Sets the mask (a combination of the category bits, 0 to 31). Returns false for another value.
pub fn set_mask(mask: c_int) -> bool {
    if !(0..=ALL_CATEGORIES).contains(&mask) {
        return false;
    }
    let mut s = state();
    s.mask = mask as u32;
    publish_mask(&s);
    true
}

/// Silences the log for the rest of the process; later settings are kept but take no effect.
pub fn force_disable() {
    let mut s = state();
    s.disabled = true;
    publish_mask(&s);
}

/// Sets (or with None, removes) the callback.
pub fn set_callback(callback: Option<Callback>) {
    state().callback = callback;
}

/// Sends the output to a file made (or truncated) at `path`; on failure nothing changes.
pub fn open_file(path: &std::path::Path) -> std::io::Result<()> {
    let file = std::fs::File::create(path)?;
    state().output = Output::Owned(file);
    Ok(())
}

/// Sends the output to the caller's `FILE*`, which must stay open while it is the output.
pub fn set_file(file: *mut libc::FILE) {
    state().output = Output::Borrowed(file as usize);
}

/// Logs `message` about `func` if `category` is enabled. Never fails: a write that fails is dropped.
pub fn log(category: Category, func: &str, message: impl std::fmt::Display) {
    if !enabled(category) {
        return;
    }
    let message = message.to_string();
    let mut s = state();
    if let Some(callback) = s.callback {
        drop(s);
        let text = |t: &str| CString::new(t.replace('\0', " ")).unwrap_or_default();
        let (func, message) = (text(func), text(&message));
        // SAFETY: the caller registered a function of this signature; the strings live for the call.
        unsafe { callback(category.level(), func.as_ptr(), message.as_ptr()) };
        return;
    }
    let line = format!("oxsparse: {func}: {message}\n");
    match &mut s.output {
        Output::Stderr => drop(std::io::stderr().write_all(line.as_bytes())),
        Output::Owned(f) => drop(f.write_all(line.as_bytes()).and_then(|_| f.flush())),
        Output::Borrowed(f) => {
            let f = *f as *mut libc::FILE;
            // SAFETY: the caller keeps the FILE open while it is the output (the API's contract);
            // the lock keeps lines whole.
            unsafe {
                libc::fwrite(line.as_ptr() as *const libc::c_void, 1, line.len(), f);
                libc::fflush(f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_enable_every_category_up_to_theirs() {
        assert_eq!(level_mask(0), 0);
        assert_eq!(level_mask(1), Category::Error as u32);
        assert_eq!(level_mask(3), 7);
        assert_eq!(level_mask(5), 31);
        let levels: Vec<c_int> =
            [Category::Error, Category::Trace, Category::Hints, Category::Info, Category::ApiTrace].iter().map(|c| c.level()).collect();
        assert_eq!(levels, [1, 2, 3, 4, 5]);
        for c in [Category::Error, Category::Trace, Category::Hints, Category::Info, Category::ApiTrace] {
            assert_ne!(level_mask(c.level()) & c as u32, 0, "{c:?} at its own level");
            assert_eq!(level_mask(c.level() - 1) & c as u32, 0, "{c:?} below its level");
        }
    }
}
