//! Work spread over every CPU core with scoped std threads: the generators and the SpMM reference
//! would otherwise keep a 16-core GPU host waiting for minutes on one core.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The number of worker threads: every core the process may use.
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `f(0), f(1), ..., f(n - 1)` computed on every core, returned in index order. Each thread takes
/// the next index from a shared counter, so uneven items balance themselves; the result does not
/// depend on the number of threads.
pub fn map<T: Send>(n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let workers = threads().min(n);
    if workers <= 1 {
        return (0..n).map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            return mine;
                        }
                        mine.push((i, f(i)));
                    }
                })
            })
            .collect();
        for h in handles {
            // A worker's panic is the caller's panic, with its own message.
            for (i, v) in h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)) {
                out[i] = Some(v);
            }
        }
    });
    out.into_iter().map(|v| v.expect("every index was computed")).collect()
}

/// Sets `out[i] = f(i)` for every i, on every core (contiguous parts, one per thread).
pub fn fill<T: Send>(out: &mut [T], f: impl Fn(usize) -> T + Sync) {
    let part = out.len().div_ceil(threads()).max(1);
    let f = &f;
    std::thread::scope(|s| {
        for (p, slice) in out.chunks_mut(part).enumerate() {
            s.spawn(move || {
                for (i, x) in slice.iter_mut().enumerate() {
                    *x = f(p * part + i);
                }
            });
        }
    });
}

/// Splits `0..n` into at most `parts` contiguous ranges of nearly equal length (none empty).
pub fn ranges(n: usize, parts: usize) -> Vec<std::ops::Range<usize>> {
    let parts = parts.clamp(1, n.max(1));
    (0..parts).map(|p| n * p / parts..n * (p + 1) / parts).filter(|r| !r.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_keeps_index_order() {
        let v = map(1000, |i| i * i);
        assert!(v.iter().enumerate().all(|(i, &x)| x == i * i));
        assert!(map(0, |i| i).is_empty());
    }

    #[test]
    fn fill_sets_every_element() {
        let mut v = vec![0usize; 12345];
        fill(&mut v, |i| 3 * i);
        assert!(v.iter().enumerate().all(|(i, &x)| x == 3 * i));
        fill(&mut [] as &mut [u8], |_| 1);
    }

    #[test]
    fn ranges_cover_everything_once() {
        for (n, parts) in [(10, 3), (3, 10), (0, 4), (100, 1), (7, 7)] {
            let r = ranges(n, parts);
            assert_eq!(r.iter().map(|r| r.len()).sum::<usize>(), n);
            assert!(r.windows(2).all(|w| w[0].end == w[1].start));
            assert!(r.len() <= parts.max(1));
        }
    }
}
