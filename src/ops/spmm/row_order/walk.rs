//! The breadth-first walks that order the rows: over the graph of rows and columns
//! (`breadth_first`), or over a square op(A)'s own graph (`breadth_first_square`).

use super::Structure;

/// Rows in breadth-first order over the graph of rows and columns (a row's neighbours are the
/// other rows of its columns), each component from its first unvisited row as stored.
pub fn breadth_first(s: &Structure) -> Vec<u32> {
    // The columns' rows (a counting sort of the entries by column).
    let mut start = vec![0usize; s.k + 1];
    for &c in &s.cols {
        if (c as usize) < s.k {
            start[c as usize + 1] += 1;
        }
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut fill = start.clone();
    let mut rows_of = vec![0u32; start[s.k]];
    for r in 0..s.begins.len() {
        for &c in s.row(r) {
            if (c as usize) < s.k {
                rows_of[fill[c as usize]] = r as u32;
                fill[c as usize] += 1;
            }
        }
    }
    let mut col_seen = vec![false; s.k];
    breadth_first_by(s.begins.len(), |r, queue| {
        for &c in s.row(r) {
            let c = c as usize;
            if c < s.k && !std::mem::replace(&mut col_seen[c], true) {
                rows_of[start[c]..start[c + 1]].iter().for_each(|&r2| queue.visit(r2 as usize));
            }
        }
    })
}

/// Rows in breadth-first order over op(A)'s own graph, for a square op(A) (row r's neighbours are
/// the rows its columns number), each component from its first unvisited row as stored: the
/// Cuthill-McKee order without its sort by degree, whose reverse was measured (row_order/mod.rs).
/// It walks each entry once and builds no transpose, where `breadth_first` walks each twice after
/// building one: 10 against 21-28 ms on mdual, 20 against 104 on wave_squared_2hop (development
/// machine), with the same misses in the model on the meshes of the corpus (mdual, wave,
/// wave_squared_2hop, delaunay_n16, wing, cage11, ct2010, nh2010; 256-1024 bytes a B row).
pub fn breadth_first_square(s: &Structure) -> Vec<u32> {
    let m = s.begins.len();
    breadth_first_by(m, |r, queue| s.row(r).iter().filter(|&&c| (c as usize) < m).for_each(|&c| queue.visit(c as usize)))
}

/// The rows a breadth-first walk has reached, in the order it reached them.
struct Queue {
    seen: Vec<bool>,
    order: Vec<u32>,
}

impl Queue {
    /// Queues row `r` unless it was reached before.
    fn visit(&mut self, r: usize) {
        if !std::mem::replace(&mut self.seen[r], true) {
            self.order.push(r as u32);
        }
    }
}

/// Rows 0 .. m breadth-first, each component from its first unvisited row as stored; `expand(r,
/// queue)` visits row r's neighbours.
fn breadth_first_by(m: usize, mut expand: impl FnMut(usize, &mut Queue)) -> Vec<u32> {
    let mut queue = Queue { seen: vec![false; m], order: Vec::with_capacity(m) };
    for first in 0..m {
        if queue.seen[first] {
            continue;
        }
        let mut head = queue.order.len();
        queue.visit(first);
        while head < queue.order.len() {
            let r = queue.order[head] as usize;
            head += 1;
            expand(r, &mut queue);
        }
    }
    queue.order
}

#[cfg(test)]
mod tests {
    use super::super::tests::shuffled_band;
    use super::*;

    #[test]
    fn breadth_first_orders_every_row_once() {
        let (mut s, _) = shuffled_band(1000, 5);
        // Empty rows and a column outside [0, k).
        s.begins.extend([s.cols.len() as i64; 3]);
        s.cols.push(u32::MAX);
        s.ends.extend([s.cols.len() as i64 - 1, s.cols.len() as i64 - 1, s.cols.len() as i64]);
        let mut order = breadth_first(&s);
        assert_eq!(order.len(), s.begins.len());
        order.sort_unstable();
        assert!(order.iter().enumerate().all(|(i, &r)| i == r as usize), "a permutation");
    }
}
