//! Which kept graph a launch takes: one graph per argument set that repeats.
//!
//! Why: setting a kept graph's node to a parameter block it does not hold costs ~0.4 us of host
//! time, and the launch after it ~0.6-0.7 us more, against launching a graph that holds the block
//! already. A chain pays that per node. Launching one of 16 graphs in turn costs what launching
//! one graph again costs (event time; bench/notes/launch-path.md):
//!
//! | nodes | one graph, set each call | 16 graphs in turn |
//! |---|---|---|
//! | 1 | 4.1-6.3 us | 3.6-5.1 us |
//! | 2 | 5.8-8.8 us | 4.5-6.1 us |
//! | 3 | 7.6-9.4 us | 5.4-6.7 us |
//!
//! A call site that cycles among a few argument sets paid the set on every call: a GNN's layers
//! over one A, a solver's handful of vectors, the bench's rotation over copies of the operands.
//! So each (stream, kernels) key keeps a pool of up to [`POOL`] graphs, and a launch:
//! 1. takes the graph that already holds its parameters, if there is one;
//! 2. else, if its argument set was seen before (its fingerprint is among the last [`SEEN`] that
//!    found no graph), gets a graph of its own while the pool has room; instantiating one costs
//!    5-16 us of host time, once;
//! 3. else sets the least recently used graph to it, as one graph per key always did.
//!
//! A call whose arguments never repeat (preprocess, ever-new buffers) thus never instantiates
//! more than a key's first graph. A handle's pools together hold a bounded number of graphs
//! (cache.rs `MAX_POOLED`); at the bound a new one takes the place of the graph launched longest
//! ago in any pool (a key keeps at least one), so that the kernels in use now keep theirs.
//! `OXSPARSE_LAUNCH_POOL=1` keeps one graph per key (for comparisons).
//!
//! The pool is bookkeeping only (generic over what it keeps), so that its choices are tested on
//! the host; `cache.rs` makes, sets and launches the graphs.

/// Graphs a key keeps at most.
pub const POOL: usize = 16;

/// Fingerprints of argument sets that found no graph, remembered per key.
pub const SEEN: usize = 2 * POOL;

/// A handle's pool size: [`POOL`], or its `OXSPARSE_LAUNCH_POOL` (clamped to 1 to POOL).
pub fn pool_size(configured: Option<usize>) -> usize {
    configured.map_or(POOL, |n| n.clamp(1, POOL))
}

/// A kept graph with the fingerprint of the arguments it holds (None: unknown, never matched)
/// and when it was last launched (the handle's launch count).
pub struct Slot<E> {
    pub exec: E,
    pub print: Option<u64>,
    used: u64,
}

/// A key's graphs.
pub struct Pool<E> {
    pub slots: Vec<Slot<E>>,
    seen: Vec<u64>,
    seen_next: usize,
}

/// What a launch does with the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Launch slot i as it is: it holds the launch.
    Holds(usize),
    /// Make a graph of the launch and `push` it.
    Grow,
    /// Set slot i's nodes to the launch, then `mark` it.
    Reuse(usize),
}

impl<E> Pool<E> {
    /// A pool holding the key's first graph, launched at `now` (its arguments count as seen once).
    pub fn new(exec: E, print: Option<u64>, now: u64) -> Pool<E> {
        let mut pool = Pool { slots: vec![Slot { exec, print, used: now }], seen: Vec::with_capacity(SEEN), seen_next: 0 };
        if let Some(p) = print {
            pool.remember(p);
        }
        pool
    }

    /// The choice for a launch at `now` of fingerprint `print` (None: its parameters are
    /// unknown), where `holds(exec)` tells whether a graph holds the launch exactly (the
    /// fingerprint only narrows the search) and `size` how many graphs the pool may grow to (0:
    /// none may be made).
    pub fn pick(&mut self, now: u64, print: Option<u64>, holds: impl Fn(&E) -> bool, size: usize) -> Pick {
        if let Some(p) = print {
            if let Some(i) = self.slots.iter().position(|s| s.print == Some(p) && holds(&s.exec)) {
                self.slots[i].used = now;
                return Pick::Holds(i);
            }
            // A set keeps its place among those seen once it has a graph: if that graph goes, it
            // gets another at its next launch.
            if !self.seen.contains(&p) {
                self.remember(p);
            } else if self.slots.len() < size {
                return Pick::Grow;
            }
        }
        Pick::Reuse(self.oldest(now))
    }

    /// The least recently launched graph, to be set to a launch at `now` (and counted as launched).
    pub fn oldest(&mut self, now: u64) -> usize {
        let i = (0..self.slots.len()).min_by_key(|&i| self.slots[i].used).expect("a pool holds its first graph");
        self.slots[i].used = now;
        i
    }

    /// Adds the graph made at `now` for a `Grow` pick.
    pub fn push(&mut self, exec: E, print: Option<u64>, now: u64) {
        self.slots.push(Slot { exec, print, used: now });
    }

    /// What slot i holds after a `Reuse` pick: the launch's fingerprint once every node is set,
    /// None while it is not known (a set failed).
    pub fn mark(&mut self, i: usize, print: Option<u64>) {
        self.slots[i].print = print;
    }

    /// The graph that may go to make room elsewhere: the one launched longest ago, as (when, slot),
    /// unless it is the pool's last.
    pub fn spare(&self) -> Option<(u64, usize)> {
        if self.slots.len() < 2 {
            return None;
        }
        (0..self.slots.len()).map(|i| (self.slots[i].used, i)).min()
    }

    /// Takes slot i's graph out (to be destroyed).
    pub fn evict(&mut self, i: usize) -> E {
        self.slots.swap_remove(i).exec
    }

    fn remember(&mut self, p: u64) {
        if self.seen.len() < SEEN {
            self.seen.push(p);
        } else {
            self.seen[self.seen_next] = p;
            self.seen_next = (self.seen_next + 1) % SEEN;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stands for a graph: the fingerprint of what it holds, so that `holds` is exact.
    fn holds(p: u64) -> impl Fn(&u64) -> bool {
        move |e: &u64| *e == p
    }

    /// A pool of stand-in graphs and the launch count, played as cache.rs plays a pool.
    struct Play {
        pool: Pool<u64>,
        now: u64,
    }

    impl Play {
        fn new(first: u64) -> Play {
            Play { pool: Pool::new(first, Some(first), 0), now: 0 }
        }

        /// A launch of argument set `p`: the pick, then what cache.rs does with it.
        fn launch(&mut self, p: u64) -> Pick {
            self.now += 1;
            let pick = self.pool.pick(self.now, Some(p), holds(p), POOL);
            match pick {
                Pick::Holds(_) => {}
                Pick::Grow => self.pool.push(p, Some(p), self.now),
                Pick::Reuse(i) => {
                    self.pool.slots[i].exec = p;
                    self.pool.mark(i, Some(p));
                }
            }
            pick
        }

        fn slot_of(&self, p: u64) -> usize {
            self.pool.slots.iter().position(|s| s.exec == p).expect("held")
        }
    }

    /// A rotation over 16 argument sets: the first round sets the key's one graph, the second
    /// gives each set a graph of its own, and from the third on every launch finds its graph.
    #[test]
    fn a_rotation_gets_a_graph_per_argument_set_from_its_second_round() {
        let mut play = Play::new(100);
        assert_eq!(play.launch(100), Pick::Holds(0));
        for p in 101..116 {
            assert_eq!(play.launch(p), Pick::Reuse(0), "first sight of {p}: the one graph is set");
        }
        let mut grown = 0;
        for p in 100..116 {
            match play.launch(p) {
                Pick::Grow => grown += 1,
                Pick::Holds(_) => assert_eq!(p, 115, "only the set launched last is still held"),
                other => panic!("second sight of {p}: {other:?}"),
            }
        }
        assert_eq!(grown, 15);
        assert_eq!(play.pool.slots.len(), POOL);
        for _ in 0..3 {
            for p in 100..116 {
                assert!(matches!(play.launch(p), Pick::Holds(_)), "{p} has its graph");
            }
        }
    }

    /// Arguments that never repeat (preprocess, new buffers every call) never grow the pool.
    #[test]
    fn arguments_that_never_repeat_keep_one_graph() {
        let mut play = Play::new(1);
        for p in 2..200 {
            assert_eq!(play.launch(p), Pick::Reuse(0));
        }
        assert_eq!(play.pool.slots.len(), 1);
    }

    /// Past the pool's size the least recently used graph is set; without room or without a
    /// fingerprint nothing grows.
    #[test]
    fn a_full_pool_reuses_its_least_recently_used_graph() {
        let mut play = Play::new(0);
        for _ in 0..2 {
            for p in 0..POOL as u64 {
                play.launch(p);
            }
        }
        assert_eq!(play.pool.slots.len(), POOL);
        // Set 5 is the least recently used after launching all but it again.
        for p in (0..POOL as u64).filter(|&p| p != 5) {
            assert!(matches!(play.launch(p), Pick::Holds(_)));
        }
        let five = play.slot_of(5);
        assert_eq!(play.launch(999), Pick::Reuse(five), "a new set takes the least recently used graph");
        assert_eq!(play.launch(999), Pick::Holds(five));
        let mut capped = Play::new(0);
        capped.launch(1);
        assert_eq!(capped.pool.pick(9, Some(0), holds(0), 0), Pick::Reuse(0), "no room: seen before, still set");
        assert_eq!(capped.pool.pick(10, None, |_| true, POOL), Pick::Reuse(0), "no fingerprint: set, never matched");
    }

    /// The graph that may go is the one launched longest ago, never a pool's last; a set whose
    /// graph went gets another at its next launch.
    #[test]
    fn the_spare_graph_is_the_least_recently_launched() {
        let mut play = Play::new(0);
        assert_eq!(play.pool.spare(), None, "a pool keeps its last graph");
        for _ in 0..2 {
            for p in 0..4 {
                play.launch(p);
            }
        }
        for p in [2, 0, 3] {
            play.launch(p);
        }
        let (_, i) = play.pool.spare().expect("four graphs");
        assert_eq!(play.pool.slots[i].exec, 1, "set 1 was launched longest ago");
        assert_eq!(play.pool.evict(i), 1);
        assert_eq!(play.pool.slots.len(), 3);
        assert_eq!(play.launch(1), Pick::Grow, "seen before: a graph again");
    }

    /// A fingerprint that matches a graph which does not hold the launch (a collision) is not
    /// taken: `holds` decides.
    #[test]
    fn a_matching_fingerprint_alone_is_not_enough() {
        let mut pool = Pool::new(7u64, Some(42), 0);
        assert!(!matches!(pool.pick(1, Some(42), holds(8), POOL), Pick::Holds(_)));
        assert!(!matches!(pool.pick(2, Some(42), holds(8), 0), Pick::Holds(_)));
    }
}
