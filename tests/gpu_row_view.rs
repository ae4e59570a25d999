//! The row view SpMM builds of op(A) (`oxsparse::kernels::row_view`) equals a plain CPU stable
//! conversion, for CSR/CSC-style offsets and COO indices, 32- and 64-bit indices, base 0 and 1,
//! both key choices, and shapes from empty up to 2^20 view rows (three radix passes) and 2M entries.
//!
//! Sources are seeded random: unsorted minor indices inside each line, COO in random order, rows
//! uniform, all in one row, or in a few rows (most rows empty), and, in about half the cases, ~3%
//! of entries with an out-of-range coordinate, which the view must drop. The workspace is poisoned
//! (0xFF) before every build and sits at a 16-byte but not 256-byte aligned address; the bytes
//! around it must come back untouched.

mod common;
use common::values::encode_indices;
use common::*;

use cudarc::driver::{result as cu, sys};
use oxsparse::context::Handle;
use oxsparse::kernels::row_view::{self, Major, RowView, RowViewSource, ALIGN};
use oxsparse::types::IndexType::{self, OXSPARSE_INDEX_32I as I32, OXSPARSE_INDEX_64I as I64};
use std::sync::{PoisonError, RwLock};

/// Taken shared by every test, exclusively by the graph-capture test: a capture in global mode
/// must see no CUDA call from any other thread. (A failed test poisons it; the others go on.)
static CAPTURE: RwLock<()> = RwLock::new(());

const ROWS: [i64; 7] = [0, 1, 7, 33, 300, 70_000, 1 << 20];
/// Bytes checked before and after the workspace.
const GUARD: usize = 4096;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Pattern {
    Uniform,
    OneRow,
    FewRows,
}

#[derive(Clone, Copy, Debug)]
struct Case {
    offsets: bool,
    index: IndexType,
    base: i64,
    key_is_minor: bool,
    out_rows: i64,
    out_cols: i64,
    nnz: usize,
    pattern: Pattern,
    bad: bool,
    seed: u64,
}

/// The 16 storage x index type x base x key choices; shape and pattern vary with `k`.
fn variants(out_rows: i64, nnz: usize, k: u64) -> Vec<Case> {
    let mut v = Vec::new();
    for bits in 0..16u64 {
        // Shape, pattern and bad entries from a hash of the case number, so that they vary
        // independently of the 16 storage choices.
        let j = (k * 16 + bits).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
        v.push(Case {
            offsets: bits & 1 != 0,
            index: if bits & 2 != 0 { I64 } else { I32 },
            base: ((bits >> 2) & 1) as i64,
            key_is_minor: bits & 8 != 0,
            out_rows,
            out_cols: [3, 1000, 70_001, 1][(j % 4) as usize],
            nnz,
            pattern: [Pattern::Uniform, Pattern::OneRow, Pattern::FewRows][(j / 4 % 3) as usize],
            bad: j / 12 % 2 == 1,
            seed: 1000 + k * 16 + bits,
        });
    }
    v
}

/// Stored arrays of a source, as i64 (the index base included).
struct HostSource {
    major: Vec<i64>,
    minor: Vec<i64>,
    lines: i64,
}

fn generate(c: &Case) -> HostSource {
    let mut rng = Rng::new(c.seed);
    let few: Vec<i64> = (0..5).map(|_| rng.below(c.out_rows as u64) as i64).collect();
    let one = few[0];
    // (major, minor) coordinates, 0-based, possibly out of range.
    let (major_dim, minor_dim) = if c.key_is_minor { (c.out_cols, c.out_rows) } else { (c.out_rows, c.out_cols) };
    let mut coords = Vec::with_capacity(c.nnz);
    for _ in 0..c.nnz {
        let row = match c.pattern {
            Pattern::Uniform => rng.below(c.out_rows as u64) as i64,
            Pattern::OneRow => one,
            Pattern::FewRows => few[rng.below(5) as usize],
        };
        let col = rng.below(c.out_cols as u64) as i64;
        let (mut major, mut minor) = if c.key_is_minor { (col, row) } else { (row, col) };
        if c.bad && rng.below(32) == 0 {
            let high = rng.below(2) as i64;
            if rng.below(2) == 0 {
                major = major_dim + high; // offsets cannot express a negative line
                if !c.offsets && rng.below(2) == 0 {
                    major = -1 - high;
                }
            } else {
                minor = if rng.below(2) == 0 { minor_dim + high } else { -1 - high };
            }
        }
        coords.push((major, minor));
    }
    if !c.offsets {
        let (major, minor) = coords.iter().map(|&(a, b)| (a + c.base, b + c.base)).unzip();
        return HostSource { major, minor, lines: 0 };
    }
    // Compressed: entries grouped by line in generation order (so minors unsorted), two spare
    // lines past major_dim for the out-of-range majors.
    let lines = major_dim + 2;
    let mut count = vec![0i64; lines as usize + 1];
    for &(m, _) in &coords {
        count[m as usize + 1] += 1;
    }
    for l in 0..lines as usize {
        count[l + 1] += count[l];
    }
    let mut next = count.clone();
    let mut minor = vec![0i64; c.nnz];
    for &(m, n) in &coords {
        minor[next[m as usize] as usize] = n + c.base;
        next[m as usize] += 1;
    }
    HostSource { major: count.iter().map(|&o| o + c.base).collect(), minor, lines }
}

/// The view by a plain stable counting sort: (offsets, cols, perm), the used slots only.
fn reference(c: &Case, s: &HostSource) -> (Vec<i64>, Vec<i64>, Vec<i64>) {
    let major: Vec<i64> = if c.offsets {
        let mut m = vec![-1i64; c.nnz];
        for l in 0..s.lines as usize {
            for slot in &mut m[(s.major[l] - c.base) as usize..(s.major[l + 1] - c.base) as usize] {
                *slot = l as i64;
            }
        }
        m
    } else {
        s.major.iter().map(|&i| i - c.base).collect()
    };
    let mut entries = Vec::new(); // (row, col, p) of kept entries, in source order
    for (p, &maj) in major.iter().enumerate() {
        let mnr = s.minor[p] - c.base;
        let (row, col) = if c.key_is_minor { (mnr, maj) } else { (maj, mnr) };
        if (0..c.out_rows).contains(&row) && (0..c.out_cols).contains(&col) {
            entries.push((row, col, p as i64));
        }
    }
    let mut offsets = vec![0i64; c.out_rows as usize + 1];
    for &(r, _, _) in &entries {
        offsets[r as usize + 1] += 1;
    }
    for r in 0..c.out_rows as usize {
        offsets[r + 1] += offsets[r];
    }
    let mut next = offsets.clone();
    let (mut cols, mut perm) = (vec![0i64; entries.len()], vec![0i64; entries.len()]);
    for &(r, col, p) in &entries {
        let q = next[r as usize] as usize;
        next[r as usize] += 1;
        cols[q] = col;
        perm[q] = p;
    }
    (offsets, cols, perm)
}

/// The CPU reference itself against a plain stable sort by row, entry by entry: runs without a GPU.
#[test]
fn reference_is_a_stable_sort_by_row() {
    // All shapes but 2^20 rows, whose offsets alone would make this slow in a debug build.
    for (k, &rows) in ROWS[..6].iter().enumerate() {
        for c in variants(rows, 1000, 200 + k as u64) {
            let s = generate(&c);
            let coords = (0..c.nnz).map(|p| {
                let major = if c.offsets { s.major.partition_point(|&o| o - c.base <= p as i64) as i64 - 1 } else { s.major[p] - c.base };
                let minor = s.minor[p] - c.base;
                if c.key_is_minor {
                    (minor, major)
                } else {
                    (major, minor)
                }
            });
            let mut kept: Vec<(i64, i64, i64)> = coords
                .enumerate()
                .map(|(p, (r, col))| (r, col, p as i64))
                .filter(|&(r, col, _)| (0..c.out_rows).contains(&r) && (0..c.out_cols).contains(&col))
                .collect();
            kept.sort_by_key(|e| e.0);
            let offsets: Vec<i64> = (0..=c.out_rows).map(|r| kept.partition_point(|e| e.0 < r) as i64).collect();
            let want = (offsets, kept.iter().map(|e| e.1).collect(), kept.iter().map(|e| e.2).collect());
            assert!(reference(&c, &s) == want, "{c:?}");
        }
    }
}

/// `n` bytes at device address `ptr`, after all enqueued work.
fn read_bytes(ptr: u64, n: usize) -> Vec<u8> {
    sync();
    let mut v = vec![0u8; n];
    if n > 0 {
        unsafe { cu::memcpy_dtoh_sync(&mut v, ptr) }.expect("cuMemcpyDtoH");
    }
    v
}

fn read_indices(t: IndexType, ptr: u64, n: usize) -> Vec<i64> {
    let b = read_bytes(ptr, n * t.size_bytes() as usize);
    match t {
        I32 => b.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap()) as i64).collect(),
        _ => b.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap())).collect(),
    }
}

/// A source on the device and a poisoned workspace at a 16-byte (not 256-byte) aligned address,
/// with `GUARD` poisoned bytes on both sides.
struct Device {
    src: RowViewSource,
    _major: DevBuf,
    _minor: DevBuf,
    buf: DevBuf,
    ws: u64,
    ws_bytes: usize,
}

fn upload(c: &Case, s: &HostSource) -> Device {
    let major = DevBuf::from_slice(&encode_indices(c.index, &s.major));
    let minor = DevBuf::from_slice(&encode_indices(c.index, &s.minor));
    let src = RowViewSource {
        major: if c.offsets { Major::Offsets { ptr: major.ptr, lines: s.lines } } else { Major::Indices { ptr: major.ptr } },
        minor: minor.ptr,
        nnz: c.nnz as i64,
        base: c.base,
        index_type: c.index,
        key_is_minor: c.key_is_minor,
        out_rows: c.out_rows,
        out_cols: c.out_cols,
    };
    let ws_bytes = row_view::workspace_bytes(&src);
    let buf = DevBuf::zeroed(GUARD + ws_bytes + GUARD);
    let ws = buf.ptr + GUARD as u64 + 16 * (1 + c.seed % (ALIGN / 16 - 1));
    buf.poison(0xFF);
    sync(); // the memset runs on the legacy stream; a build on another stream must not overtake it
    Device { src, _major: major, _minor: minor, buf, ws, ws_bytes }
}

impl Device {
    /// The view's arrays: all `out_rows + 1` offsets, all `nnz` slots of cols and perm.
    fn read(&self, v: &RowView) -> (Vec<i64>, Vec<i64>, Vec<i64>) {
        let t = self.src.index_type;
        let n = self.src.nnz as usize;
        (read_indices(t, v.offsets, self.src.out_rows as usize + 1), read_indices(t, v.cols, n), read_indices(t, v.perm, n))
    }

    fn assert_guards_intact(&self, what: &str) {
        let before = (self.ws - self.buf.ptr) as usize;
        let after = self.buf.bytes - before - self.ws_bytes;
        let guards = [read_bytes(self.buf.ptr, before), read_bytes(self.ws + self.ws_bytes as u64, after)];
        assert!(guards.iter().flatten().all(|&b| b == 0xFF), "{what}: wrote outside the workspace");
    }
}

fn check(h: &Handle, c: &Case) {
    let what = format!("{c:?}");
    let s = generate(c);
    let (want_offsets, want_cols, want_perm) = reference(c, &s);
    let d = upload(c, &s);
    let v = row_view::build(h, &d.src, d.ws).unwrap_or_else(|e| panic!("{what}: {e:?}"));
    assert_eq!(v, row_view::layout(&d.src, d.ws), "{what}: layout");
    let (offsets, cols, perm) = d.read(&v);
    let kept = want_cols.len();
    assert_same(&format!("{what}: offsets"), &offsets, &want_offsets);
    assert_same(&format!("{what}: perm"), &perm[..kept], &want_perm);
    assert_same(&format!("{what}: cols"), &cols[..kept], &want_cols);
    d.assert_guards_intact(&what);
}

/// Equal slices, or a panic naming the first difference (the arrays run to millions of entries).
fn assert_same(what: &str, got: &[i64], want: &[i64]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
        let around = i.saturating_sub(3)..(i + 4).min(got.len());
        panic!("{what}: first difference at {i}: got {:?}, want {:?} (from {})", &got[around.clone()], &want[around.clone()], around.start);
    }
}

#[test]
fn small_sources_match_cpu() {
    let _shared = CAPTURE.read().unwrap_or_else(PoisonError::into_inner);
    let Some(h) = gpu("small_sources_match_cpu") else { return };
    for (k, &rows) in ROWS.iter().enumerate() {
        for nnz in [0, 1, 100] {
            for c in variants(rows, nnz, (k * 3 + nnz) as u64) {
                check(&h, &c);
            }
        }
    }
    // No view columns at all: every entry dropped.
    for c in variants(33, 100, 7) {
        check(&h, &Case { out_cols: 0, ..c });
    }
}

#[test]
fn sources_of_100k_entries_match_cpu() {
    let _shared = CAPTURE.read().unwrap_or_else(PoisonError::into_inner);
    let Some(h) = gpu("sources_of_100k_entries_match_cpu") else { return };
    for (k, &rows) in ROWS.iter().enumerate() {
        for c in variants(rows, 100_000, 50 + k as u64) {
            check(&h, &c);
        }
    }
}

#[test]
fn sources_of_2m_entries_match_cpu() {
    let _shared = CAPTURE.read().unwrap_or_else(PoisonError::into_inner);
    let Some(h) = gpu("sources_of_2m_entries_match_cpu") else { return };
    // One of each storage x index type x key choice, over the multi-pass shapes and one row.
    let all = variants(0, 2_000_000, 90);
    use Pattern::*;
    let picks = [
        (0, 1 << 20, Uniform),
        (3, 70_000, FewRows),
        (5, 300, Uniform),
        (6, 1 << 20, Uniform),
        (9, 7, Uniform),
        (10, 70_000, Uniform),
        (12, 1 << 20, FewRows),
        (15, 33, OneRow),
    ];
    for (i, out_rows, pattern) in picks {
        check(&h, &Case { out_rows, pattern, ..all[i] });
    }
    // All entries in one view row of a transposed CSR: one long column of the source.
    check(&h, &Case { out_rows: 70_000, pattern: Pattern::OneRow, ..all[9] });
}

#[test]
fn rebuild_is_bitwise_identical() {
    let _shared = CAPTURE.read().unwrap_or_else(PoisonError::into_inner);
    let Some(h) = gpu("rebuild_is_bitwise_identical") else { return };
    let all = variants(0, 2_000_000, 120);
    for c in [
        Case { out_rows: 1 << 20, pattern: Pattern::Uniform, ..all[0] },
        Case { out_rows: 70_000, nnz: 100_000, ..all[15] },
        Case { out_rows: 300, pattern: Pattern::OneRow, ..all[6] },
    ] {
        let s = generate(&c);
        let d = upload(&c, &s);
        let first = row_view::build(&h, &d.src, d.ws).unwrap();
        let a = d.read(&first);
        d.buf.poison(0x5A);
        let second = row_view::build(&h, &d.src, d.ws).unwrap();
        assert_eq!(first, second);
        let b = d.read(&second);
        assert_same(&format!("{c:?}: offsets again"), &b.0, &a.0);
        assert_same(&format!("{c:?}: every cols slot again"), &b.1, &a.1);
        assert_same(&format!("{c:?}: every perm slot again"), &b.2, &a.2);
    }
}

/// The whole build is stream-ordered work: captured into a graph (global mode, so any synchronous
/// call would invalidate the capture), the graph's launch writes the view.
#[test]
fn build_under_graph_capture() {
    let _exclusive = CAPTURE.write().unwrap_or_else(PoisonError::into_inner);
    let Some(mut h) = gpu("build_under_graph_capture") else { return };
    let c = Case { out_rows: 70_000, nnz: 100_000, ..variants(0, 0, 140)[5] };
    let s = generate(&c);
    let (want_offsets, want_cols, want_perm) = reference(&c, &s);
    let d = upload(&c, &s);
    unsafe {
        let stream = cu::stream::create(cu::stream::StreamKind::NonBlocking).unwrap();
        h.set_stream(stream as usize).unwrap();
        // A first build outside capture loads the kernels.
        row_view::build(&h, &d.src, d.ws).unwrap();
        cu::stream::synchronize(stream).unwrap();
        d.buf.poison(0xFF);
        sync();
        cu::stream::begin_capture(stream, sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL).unwrap();
        let captured = row_view::build(&h, &d.src, d.ws);
        let graph = cu::stream::end_capture(stream);
        let v = captured.unwrap();
        let graph = graph.expect("the capture was invalidated");
        let exec = cu::graph::instantiate(graph, sys::CUgraphInstantiate_flags(0)).unwrap();
        cu::graph::launch(exec, stream).unwrap();
        cu::stream::synchronize(stream).unwrap();

        let (offsets, cols, perm) = d.read(&v);
        let kept = want_cols.len();
        assert_same("graph: offsets", &offsets, &want_offsets);
        assert_same("graph: perm", &perm[..kept], &want_perm);
        assert_same("graph: cols", &cols[..kept], &want_cols);

        h.set_stream(0).unwrap();
        cu::graph::exec_destroy(exec).unwrap();
        cu::graph::destroy(graph).unwrap();
        cu::stream::destroy(stream).unwrap();
    }
}
