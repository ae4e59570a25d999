//! Data-affinity reordering: rows (and columns) of a sparse matrix clustered by community, so that
//! rows that share columns land next to each other. On tensor cores this raises the entries per
//! 8-row window's column (issue 4's "nonzeros per tile"): every distinct (window, column) pair
//! is a row of B the tiles read, so fewer pairs means fewer bytes moved for the same products.
//!
//! The algorithm is a community-based hierarchical clustering in the manner of Rabbit Order
//! (Arai et al., IPDPS'16), run on the matrix's bipartite graph (a vertex per row and per column,
//! an edge per entry) so that it serves rectangular and unsymmetric matrices alike:
//!
//! 1. Vertices are visited once each, in increasing degree (ties by number).
//! 2. A visited vertex u merges into the neighbouring community v of largest modularity gain,
//!    `2 W w(u, v) - d(u) d(v)` (W: entries, d: degrees, w: entries between them), if positive.
//!    Its edges then belong to v; neighbours are named through a union-find to their community.
//!    Otherwise u stays a top-level community. The merges form a dendrogram.
//! 3. A depth-first walk of the dendrogram numbers the vertices: every community's members come
//!    out contiguous, sub-communities inside it contiguous too. Rows and columns keep their
//!    relative order of that walk.
//!
//! Each edge is moved when its community merges and de-duplicated when its owner is visited:
//! about O(nnz log n) in practice. Deterministic: the same matrix gives the same order.
//! The core knows nothing of CUDA: callers bring the structure to the host and take the order
//! back (src/ops/spmm/mod.rs).

/// A reordering: `rows[i]` is the original row placed at position i, likewise `cols`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    pub rows: Vec<u32>,
    pub cols: Vec<u32>,
}

/// Clusters the `m x n` matrix whose row r holds the columns `cols[offsets[r] .. offsets[r + 1]]`
/// (0-based; columns outside `0..n` are ignored). Needs `m + n < u32::MAX`.
pub fn cluster(m: usize, n: usize, offsets: &[i64], cols: &[i64]) -> Order {
    let mut g = Graph::bipartite(m, n, offsets, cols);
    let roots = g.merge_communities();
    let walk = g.dendrogram_walk(&roots);
    let rows = walk.iter().copied().filter(|&v| (v as usize) < m).collect();
    let cols = walk.iter().copied().filter(|&v| (v as usize) >= m).map(|v| v - m as u32).collect();
    Order { rows, cols }
}

/// Distinct (window, column) pairs when the rows are taken in `order` (None: as stored) in windows
/// of `window` rows: the B rows a tensor-core SpMM reads. Entries / pairs is the reuse that
/// reordering raises.
pub fn window_pairs(offsets: &[i64], cols: &[i64], order: Option<&[u32]>, window: usize) -> u64 {
    let m = offsets.len().saturating_sub(1);
    let row_at = |i: usize| order.map_or(i, |o| o[i] as usize);
    let mut seen: Vec<i64> = Vec::new();
    let mut pairs = 0u64;
    for w in (0..m).step_by(window.max(1)) {
        seen.clear();
        for i in w..(w + window).min(m) {
            let r = row_at(i);
            seen.extend_from_slice(&cols[offsets[r] as usize..offsets[r + 1] as usize]);
        }
        seen.sort_unstable();
        seen.dedup();
        pairs += seen.len() as u64;
    }
    pairs
}

const NONE: u32 = u32::MAX;

/// The bipartite graph being clustered: vertices 0..m are rows, m..m+n columns.
struct Graph {
    /// Per vertex: its community's neighbours and the entries between them (a community's list is
    /// its root's; merged vertices' lists are moved there).
    adjacency: Vec<Vec<(u32, u32)>>,
    /// Entries touching the vertex, or its community once it is a root that absorbed others.
    degree: Vec<u64>,
    /// Union-find: the community a vertex merged into (itself while a root).
    parent: Vec<u32>,
    /// Dendrogram: each vertex's children as a list, the last merged first (the walk's stack
    /// turns them back into merge order).
    first_child: Vec<u32>,
    next_sibling: Vec<u32>,
    /// Twice the number of entries (the sum of degrees).
    two_w: f64,
}

impl Graph {
    fn bipartite(m: usize, n: usize, offsets: &[i64], cols: &[i64]) -> Graph {
        let v = m + n;
        let mut adjacency: Vec<Vec<(u32, u32)>> = vec![Vec::new(); v];
        let mut entries = 0u64;
        for r in 0..m {
            let (lo, hi) = (offsets[r].max(0) as usize, offsets[r + 1].max(0) as usize);
            for &c in &cols[lo.min(cols.len())..hi.min(cols.len())] {
                if c >= 0 && (c as usize) < n {
                    let col = (m + c as usize) as u32;
                    adjacency[r].push((col, 1));
                    adjacency[col as usize].push((r as u32, 1));
                    entries += 1;
                }
            }
        }
        let degree = adjacency.iter().map(|a| a.len() as u64).collect();
        Graph {
            adjacency,
            degree,
            parent: (0..v as u32).collect(),
            first_child: vec![NONE; v],
            next_sibling: vec![NONE; v],
            two_w: 2.0 * entries as f64,
        }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        let mut root = x;
        while self.parent[root as usize] != root {
            root = self.parent[root as usize];
        }
        while self.parent[x as usize] != root {
            let next = self.parent[x as usize];
            self.parent[x as usize] = root;
            x = next;
        }
        root
    }

    /// Steps 1 and 2; returns the top-level communities in the order they were settled.
    fn merge_communities(&mut self) -> Vec<u32> {
        let v = self.parent.len();
        let mut visit: Vec<u32> = (0..v as u32).collect();
        visit.sort_by_key(|&x| (self.degree[x as usize], x));
        let mut weight = vec![0u32; v];
        let mut touched: Vec<u32> = Vec::new();
        let mut roots = Vec::new();
        for u in visit {
            // The community's edges, named by community, self-loops dropped, duplicates summed.
            let edges = std::mem::take(&mut self.adjacency[u as usize]);
            for (x, w) in edges {
                let c = self.find(x);
                if c == u {
                    continue;
                }
                if weight[c as usize] == 0 {
                    touched.push(c);
                }
                weight[c as usize] = weight[c as usize].saturating_add(w);
            }
            let du = self.degree[u as usize] as f64;
            let mut best = (0.0f64, NONE);
            for &c in &touched {
                let gain = self.two_w * weight[c as usize] as f64 - du * self.degree[c as usize] as f64;
                if gain > best.0 || (gain == best.0 && gain > 0.0 && c < best.1) {
                    best = (gain, c);
                }
            }
            let compacted: Vec<(u32, u32)> = touched.iter().map(|&c| (c, weight[c as usize])).collect();
            for &c in &touched {
                weight[c as usize] = 0;
            }
            touched.clear();
            match best.1 {
                NONE => {
                    self.adjacency[u as usize] = compacted;
                    roots.push(u);
                }
                target => {
                    self.parent[u as usize] = target;
                    self.degree[target as usize] += self.degree[u as usize];
                    self.adjacency[target as usize].extend(compacted);
                    self.adopt(target, u);
                }
            }
        }
        roots
    }

    fn adopt(&mut self, parent: u32, child: u32) {
        self.next_sibling[child as usize] = self.first_child[parent as usize];
        self.first_child[parent as usize] = child;
    }

    /// Step 3: pre-order walk of every top-level community's dendrogram.
    fn dendrogram_walk(&self, roots: &[u32]) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.parent.len());
        let mut stack = Vec::new();
        for &r in roots {
            stack.push(r);
            while let Some(x) = stack.pop() {
                out.push(x);
                // The list runs last-merged first, so the stack pops children in merge order.
                let mut c = self.first_child[x as usize];
                while c != NONE {
                    stack.push(c);
                    c = self.next_sibling[c as usize];
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::rng::SplitMix64;

    fn is_permutation(p: &[u32], len: usize) -> bool {
        let mut seen = vec![false; len];
        p.len() == len && p.iter().all(|&x| (x as usize) < len && !std::mem::replace(&mut seen[x as usize], true))
    }

    /// `blocks` groups of `rows_per` rows; every row of a group draws `per_row` columns from its
    /// group's own `cols_per` columns. Rows and columns are then shuffled.
    fn shuffled_blocks(blocks: usize, rows_per: usize, cols_per: usize, per_row: usize, seed: u64) -> (usize, usize, Vec<i64>, Vec<i64>) {
        let mut rng = SplitMix64::new(seed);
        let (m, n) = (blocks * rows_per, blocks * cols_per);
        let mut row_perm: Vec<usize> = (0..m).collect();
        let mut col_perm: Vec<usize> = (0..n).collect();
        for i in (1..m).rev() {
            row_perm.swap(i, rng.next_u64() as usize % (i + 1));
        }
        for i in (1..n).rev() {
            col_perm.swap(i, rng.next_u64() as usize % (i + 1));
        }
        let mut rows: Vec<Vec<i64>> = vec![Vec::new(); m];
        for b in 0..blocks {
            for r in 0..rows_per {
                let mut picked: Vec<i64> =
                    (0..per_row).map(|_| col_perm[b * cols_per + rng.next_u64() as usize % cols_per] as i64).collect();
                picked.sort_unstable();
                picked.dedup();
                rows[row_perm[b * rows_per + r]] = picked;
            }
        }
        let mut offsets = vec![0i64];
        let mut cols = Vec::new();
        for r in rows {
            cols.extend(r);
            offsets.push(cols.len() as i64);
        }
        (m, n, offsets, cols)
    }

    #[test]
    fn orders_are_permutations() {
        let (m, n, offsets, cols) = shuffled_blocks(13, 11, 17, 5, 1);
        let o = cluster(m, n, &offsets, &cols);
        assert!(is_permutation(&o.rows, m));
        assert!(is_permutation(&o.cols, n));
        // Empty rows and columns, out-of-range columns, an empty matrix.
        let o = cluster(3, 4, &[0, 0, 2, 2], &[1, 9]);
        assert!(is_permutation(&o.rows, 3) && is_permutation(&o.cols, 4));
        let o = cluster(0, 0, &[0], &[]);
        assert!(o.rows.is_empty() && o.cols.is_empty());
    }

    #[test]
    fn recovers_hidden_blocks() {
        // 40 groups of 16 rows over 24 columns each: in stored (shuffled) order nearly every
        // window's pairs are distinct; clustered, windows fall inside groups and share columns.
        let (m, n, offsets, cols) = shuffled_blocks(40, 16, 24, 6, 7);
        let before = window_pairs(&offsets, &cols, None, 8);
        let o = cluster(m, n, &offsets, &cols);
        let after = window_pairs(&offsets, &cols, Some(&o.rows), 8);
        assert!(after * 2 < before, "pairs {before} -> {after}");
    }

    #[test]
    fn is_deterministic() {
        let (m, n, offsets, cols) = shuffled_blocks(9, 10, 12, 4, 3);
        assert_eq!(cluster(m, n, &offsets, &cols), cluster(m, n, &offsets, &cols));
    }

    #[test]
    fn window_pairs_counts_distinct_columns_per_window() {
        // Rows {0,1}, {1}, {2}, {0}: windows of 2 -> {0,1} + {0,2} = 4 pairs; swapped order
        // (rows 0, 3, 1, 2) -> {0,1} + {1,2} = 4; windows of 4 -> 3.
        let offsets = [0, 2, 3, 4, 5];
        let cols = [0, 1, 1, 2, 0];
        assert_eq!(window_pairs(&offsets, &cols, None, 2), 4);
        assert_eq!(window_pairs(&offsets, &cols, Some(&[0, 3, 1, 2]), 2), 4);
        assert_eq!(window_pairs(&offsets, &cols, None, 4), 3);
    }
}
