//! R-MAT power-law graphs, generated on every core: the benchmark's largest graphs (ogbn-products'
//! 124M edges) take minutes on one. Edges are drawn in fixed chunks, each from its own seed, and
//! the CSR form is built per row range, so the graph depends on the seed alone, never on the
//! number of threads.

use crate::matrix::{Csr, Rng, MAX_I32};
use crate::{par, Result};
use std::time::Instant;

/// R-MAT quadrant probabilities (Graph500's): a = top-left, b = top-right, c = bottom-left.
pub const RMAT_ABC: (f64, f64, f64) = (0.57, 0.19, 0.19);

/// Edges drawn per chunk (and per seed).
const EDGES_PER_CHUNK: usize = 1 << 20;

type Triplet = (u32, u32, f32);

/// A `nodes` x `nodes` R-MAT graph of `edges` drawn edges (duplicates summed, so nnz <= edges),
/// with a random vertex permutation so that the heavy rows are not all at the top. Values are
/// uniform in [-1, 1). `log` hears about each phase of a large graph (seconds each).
pub fn rmat(nodes: usize, edges: usize, seed: u64, log: &dyn Fn(&str)) -> Result<Csr> {
    if nodes == 0 || nodes > MAX_I32 || edges > MAX_I32 {
        return Err(format!("R-MAT {nodes}:{edges}: nodes must be in 1..=2^31-1 and edges at most 2^31-1"));
    }
    let t0 = Instant::now();
    let perm = permutation(nodes, &mut Rng::new(seed));
    let chunks = par::map(edges.div_ceil(EDGES_PER_CHUNK), |c| {
        let count = EDGES_PER_CHUNK.min(edges - c * EDGES_PER_CHUNK);
        draw_edges(nodes, count, chunk_seed(seed, c), &perm)
    });
    let big = edges >= 10 * EDGES_PER_CHUNK;
    if big {
        log(&format!("R-MAT {nodes}:{edges}: edges drawn in {:.1} s on {} threads", t0.elapsed().as_secs_f64(), par::threads()));
    }
    let csr = build_csr(nodes, nodes, chunks, 4 * par::threads())?;
    if big {
        log(&format!("R-MAT {nodes}:{edges}: CSR built, {} nnz, {:.1} s in all", csr.nnz(), t0.elapsed().as_secs_f64()));
    }
    Ok(csr)
}

/// The seed of chunk `c`: well mixed, so that neighbouring chunks are unrelated.
fn chunk_seed(seed: u64, c: usize) -> u64 {
    Rng::at(seed ^ 0x5EED_C4A2_0000_0000, c as u64).next_u64()
}

/// `count` edges, each found by descending the quadrants of the 2^scale adjacency matrix, then
/// renamed by `perm`.
fn draw_edges(nodes: usize, count: usize, seed: u64, perm: &[u32]) -> Vec<Triplet> {
    let (a, b, c) = RMAT_ABC;
    let scale = usize::BITS - (nodes - 1).leading_zeros(); // 2^scale >= nodes
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let (mut r, mut col) = (0usize, 0usize);
        for _ in 0..scale {
            let u = rng.unit();
            let (down, right) = if u < a {
                (0, 0)
            } else if u < a + b {
                (0, 1)
            } else if u < a + b + c {
                (1, 0)
            } else {
                (1, 1)
            };
            r = 2 * r + down;
            col = 2 * col + right;
        }
        // Outside the graph when nodes is not a power of two: draw again.
        if r < nodes && col < nodes {
            out.push((perm[r], perm[col], rng.value()));
        }
    }
    out
}

/// CSR from triplet chunks (duplicates summed), built in `parts` row ranges at once: every chunk
/// is split by range, each range gathers its pieces in chunk order and sorts them with
/// [`Csr::from_triplets`], so the result is the same for any `parts`.
fn build_csr(rows: usize, cols: usize, chunks: Vec<Vec<Triplet>>, parts: usize) -> Result<Csr> {
    let ranges = par::ranges(rows, parts);
    let starts: Vec<u32> = ranges.iter().map(|r| r.start as u32).collect();
    let buckets: Vec<Vec<Vec<Triplet>>> = par::map(chunks.len(), |c| {
        let mut by_range = vec![Vec::new(); ranges.len()];
        for &(r, col, v) in &chunks[c] {
            let p = starts.partition_point(|&s| s <= r) - 1;
            by_range[p].push((r - starts[p], col, v));
        }
        by_range
    });
    drop(chunks);
    let pieces = par::map(ranges.len(), |p| {
        let mine: Vec<Triplet> = buckets.iter().flat_map(|b| b[p].iter().copied()).collect();
        Csr::from_triplets(ranges[p].len(), cols, mine)
    });
    drop(buckets);
    let mut m = Csr { rows, cols, row_ptr: Vec::with_capacity(rows + 1), col_idx: Vec::new(), values: Vec::new() };
    let nnz: usize = pieces.iter().map(|p| p.as_ref().map_or(0, |p| p.nnz())).sum();
    if nnz > MAX_I32 {
        return Err(format!("{nnz} entries: too many for 32-bit indices"));
    }
    m.col_idx.reserve_exact(nnz);
    m.values.reserve_exact(nnz);
    m.row_ptr.push(0);
    for piece in pieces {
        let piece = piece?;
        let base = m.col_idx.len() as i32;
        m.row_ptr.extend(piece.row_ptr[1..].iter().map(|&p| p + base));
        m.col_idx.extend_from_slice(&piece.col_idx);
        m.values.extend_from_slice(&piece.values);
    }
    Ok(m)
}

/// A uniformly random permutation of 0..n (Fisher-Yates).
fn permutation(n: usize, rng: &mut Rng) -> Vec<u32> {
    let mut p: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        p.swap(i, rng.below(i as u64 + 1) as usize);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::tests::well_formed;

    fn quiet(nodes: usize, edges: usize, seed: u64) -> Csr {
        rmat(nodes, edges, seed, &|_| {}).unwrap()
    }

    #[test]
    fn rmat_is_deterministic_and_well_formed() {
        let a = quiet(1000, 8000, 1);
        assert!(well_formed(&a));
        assert_eq!(a, quiet(1000, 8000, 1));
        assert_ne!(a, quiet(1000, 8000, 2));
        // Duplicates are merged: fewer entries than edges, but most survive at this density.
        assert!(a.nnz() <= 8000 && a.nnz() > 6000, "nnz {}", a.nnz());
    }

    #[test]
    fn rmat_is_skewed() {
        let m = quiet(1 << 12, 1 << 16, 3);
        let mut degrees: Vec<i32> = m.row_ptr.windows(2).map(|w| w[1] - w[0]).collect();
        degrees.sort_unstable();
        let max = *degrees.last().unwrap() as f64;
        let mean = m.nnz() as f64 / m.rows as f64;
        assert!(max > 10.0 * mean, "max degree {max}, mean {mean}");
    }

    #[test]
    fn rmat_handles_tiny_and_odd_sizes() {
        assert!(well_formed(&quiet(1, 5, 0)));
        assert!(well_formed(&quiet(1000, 0, 0)));
        assert!(well_formed(&quiet(513, 5000, 0)));
        assert!(rmat(0, 5, 0, &|_| {}).is_err());
    }

    #[test]
    fn the_csr_does_not_depend_on_the_split() {
        // Several chunks with duplicates across them.
        let perm: Vec<u32> = (0..300).collect();
        let chunks: Vec<Vec<Triplet>> = (0..5).map(|c| draw_edges(300, 2000, c, &perm)).collect();
        let one = build_csr(300, 300, chunks.clone(), 1).unwrap();
        assert!(well_formed(&one));
        let all: Vec<Triplet> = chunks.iter().flatten().copied().collect();
        assert_eq!(one, Csr::from_triplets(300, 300, all).unwrap());
        for parts in [2, 7, 64, 1000] {
            assert_eq!(build_csr(300, 300, chunks.clone(), parts).unwrap(), one, "{parts} parts");
        }
    }

    #[test]
    fn large_graphs_span_several_chunks() {
        let m = quiet(1 << 14, 3 * EDGES_PER_CHUNK / 2, 5);
        assert!(well_formed(&m));
        assert!(m.nnz() > EDGES_PER_CHUNK, "nnz {}", m.nnz());
    }
}
