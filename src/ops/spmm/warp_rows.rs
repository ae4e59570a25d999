//! The warp-row kernel's table (kernels/spmm_warp_rows.cu): preprocess gives op(A)'s rows to
//! warps, a row of at most `whole_max(nnz)` entries whole, a longer one in consecutive pieces of
//! PIECE entries whose sums go to partial rows, which the last piece to arrive adds in piece order
//! (in groups of 16, inside the kernel).
//!
//! Why: the tile kernel pays an entry's column, value and address once per 32-column slice; a warp
//! per row pays them once for 128-256 columns. The rule (`takes`): n a multiple of 128, rows of at
//! most 16 entries on average, op(B) not many times L2 (FP32 also at n = 64: `narrow_n_takes`);
//! from ~80 entries a row, and where op(B) is many times L2, the tiles win. Matrices beyond MAX_NNZ
//! entries with long rows take it too, with rows of up to HUGE_WHOLE entries whole (`huge_takes`).
//! (measurements: bench/notes/spmm-kernels.md, "Warp rows")
//!
//! A plain call cannot read the rows back: where `takes_plain` holds it builds the table on the
//! GPU (kernels/spmm_warp_rows_table.cu; `build_by_class` is its host twin), the long rows
//! first in three classes by length (`long_class`), each in row order, rather than longest first,
//! and runs the same kernel over it.
//!
//! The table, after a 16-byte header whose first u64 is preprocess's token: `items` slots of 16
//! bytes, `begin | len << 48`, then `row` for a whole row or `add slot | (slot + 1) << 32` for a
//! piece of a split row; then `adds` slots, `row` and `first slot | count << 32`. The split rows'
//! pieces come first, longest rows first, then whole rows longer than a piece, then the others in
//! row order. Every row has at least one item (an empty row writes C = beta * C), so the items
//! outnumber the rows and the kernel's grid covers them when the table is not trusted. Arrival
//! counters follow the table (`counter_bytes`), zero when uploaded and after every call. The
//! header's second u64 is 0 in preprocess's table; the GPU's writes its item count there, its
//! adds after all `room.items` slots, and zeroes the counters its split rows use.

use super::plan::ForcedKernel;
use super::split_rows::ceil_div;
use crate::device::{DeviceModel, MemoryClass};
use crate::settings::{Spmm as Settings, TableBuild};
use crate::types::DataType;

/// Entries per item at most: shorter pieces were slower, 64 and 128 tied (arxiv_like).
pub const PIECE: i64 = 64;
/// Rows of at most this many entries on average (7-15 gained 7-18% at N = 256; crocodile's 29 and
/// twitch_FR's 34, which split rows take, tied or lost).
pub const MEAN_MAX: i64 = 16;
/// Matrices of at least this many entries (none smaller was measured; small matrices keep the
/// short- and split-row kernels tuned for their latency), or of at least `min_rows` rows.
pub const MIN_NNZ: i64 = 128 * 1024;
/// Rows enough for two and a half waves of the kernel's warps (a multiprocessor holds
/// WARP_ROWS_BLOCKS_PER_SM blocks of 8 warps): pubmed (19717 rows, 3.1 waves on 132
/// multiprocessors) gained 10-21%, matrices of one or two waves of rows lost (measurements:
/// bench/notes/spmm-kernels.md).
pub fn min_rows(device: &DeviceModel) -> i64 {
    (device.wave(WARP_ROWS_BLOCKS_PER_SM) * 8 * 5 / 2) as i64
}
const WARP_ROWS_BLOCKS_PER_SM: u32 = 6;
/// op(B) of at most this many bytes in FP32 and FP64: arxiv_like N = 256 (173 MB) gained,
/// youtube_like N = 128 (583 MB) lost, where the tile kernel's column slices taken in order keep a
/// slice of B in L2.
pub const B_BYTES_MAX: u64 = 200 << 20;
/// The same for 16-bit op(B), whose tile kernel gathers half as many bytes an instruction:
/// youtube_like FP16 (291 / 583 MB) gained 1.2-1.3x; larger ones were not measured.
pub const B_BYTES_MAX_HALF: u64 = 600 << 20;
/// FP32 and FP64 op(B) at n a multiple of N_MULTIPLE on a device of wide memory (`wide_memory`):
/// on the H200 warp rows beat the tiles on youtube_like (op(B) up to 1.17 GB), where the H100 had
/// tied or lost; at n = 64 they lost there too, so `narrow_n_takes` keeps B_BYTES_MAX
/// (measurements: bench/notes/h200.md).
pub const B_BYTES_MAX_WIDE: u64 = 1200 << 20;
/// Whether the device's memory takes the bounds measured again on wide memory (HBM3e at 4.8 TB/s
/// against HBM3 at 3.35, with 60 MiB of L2 against 50: the op(B) bounds grew with both; devices of
/// other classes keep the bounds first measured; bench/notes/h200.md).
pub fn wide_memory(device: &DeviceModel) -> bool {
    device.memory() == MemoryClass::Wide
}

/// The bound on op(B)'s bytes in `takes`: B_BYTES_MAX_HALF for 16-bit values, else B_BYTES_MAX, or
/// B_BYTES_MAX_WIDE at n a multiple of N_MULTIPLE on a device of wide memory.
fn b_bytes_max(n: i64, value: DataType, device: &DeviceModel) -> u64 {
    if value.size_bytes() == 2 {
        B_BYTES_MAX_HALF
    } else if wide_memory(device) && n % N_MULTIPLE == 0 {
        B_BYTES_MAX_WIDE
    } else {
        B_BYTES_MAX
    }
}
const BEGIN_BITS: u32 = 48;
pub const SLOT_BYTES: usize = 16;
const HEADER_BYTES: usize = 16;

/// `OXSPARSE_SPMM_KERNEL=warp_rows`: preprocess takes this kernel wherever the call fits it (for
/// tests and comparisons).
pub fn forced(s: &Settings) -> bool {
    s.kernel == Some(ForcedKernel::WarpRows)
}

/// Whether a call of these types and layout can run the kernel: FP32 or FP64 throughout, or FP16
/// / BF16 op(A) and op(B) with C of the same type or FP32 and FP32 compute; one batch, n a
/// multiple of a warp's vectors (`warp_rows_variant`: 128 columns, 64 for FP64 and for FP32 in
/// 8-byte vectors). A column-major op(B) or C is staged around it, as around the tiles (the kernel
/// waits for the staged op(B) itself), so column-major calls of the graphs it takes need not fall back
/// to the tiles.
pub fn fits(ab: DataType, c: DataType, compute: DataType, n: i64, batches: i64) -> bool {
    use DataType::*;
    let real = (ab == CUDA_R_32F || ab == CUDA_R_64F) && c == ab && compute == ab;
    let half = (ab == CUDA_R_16F || ab == CUDA_R_16BF) && (c == ab || c == CUDA_R_32F) && compute == CUDA_R_32F;
    (real || half) && crate::kernels::spmm::warp_rows_variant(n, ab).is_some() && batches == 1
}

/// Whether the kernel's B addresses hold: it adds `column * row_bytes` in a 32 x 32 -> 64-bit
/// multiply (kernels/spmm_warp_rows.cu `b_row`), so op(B)'s row stride in bytes and its row count
/// must fit 32 bits. `row_stride` is op(B)'s as the kernel reads it (n where op(B) is staged).
pub fn b_offsets_fit(k: i64, row_stride: i64, value: DataType) -> bool {
    let row_bytes = (row_stride.max(0) as u64).saturating_mul(value.size_bytes());
    k >= 0 && k <= u32::MAX as i64 && row_bytes <= u32::MAX as u64
}

/// Bytes of a k x n op(B) of `value` (the rules' bound on it).
fn op_b_bytes(k: i64, n: i64, value: DataType) -> u64 {
    (k.max(0) as u64).saturating_mul(n.max(0) as u64).saturating_mul(value.size_bytes())
}

/// Whether the measured rule gives a matrix of `m` rows and `nnz` entries times a k x n op(B) of
/// `value` to this kernel (see the module comment), or the kernel is forced, on a device of
/// `device`'s memory class (`b_bytes_max`). n a multiple of N_MULTIPLE in every type: FP64 then runs two
/// vectors a lane (the bytes a lane of FP32 at 256; its one-vector kernel spills and was not
/// measured); FP32 also at n = 64 (`narrow_n_takes`).
pub fn takes(m: i64, nnz: i64, k: i64, n: i64, value: DataType, device: &DeviceModel, s: &Settings) -> bool {
    let b_bytes = op_b_bytes(k, n, value);
    let b_max = b_bytes_max(n, value, device);
    let large = nnz >= MIN_NNZ || m >= min_rows(device);
    let few_a_row = large && nnz <= MEAN_MAX * m;
    let columns = n % N_MULTIPLE == 0 || narrow_n_takes(nnz, n, value);
    forced(s)
        || (columns && (few_a_row || over_split_rows(m, nnz, n, value)) && b_bytes <= b_max && nnz <= MAX_NNZ)
        || huge_takes(m, nnz, k, n, value, device)
}

/// Matrices of more than MAX_NNZ entries in rows of HUGE_MEAN_MIN or more on average, FP32 or
/// FP64, at the rule's columns, op(B) within HUGE_B_BYTES_MAX (on a device of wide memory also
/// FP16 and BF16, within HUGE_B_BYTES_MAX_WIDE); their rows of up to HUGE_WHOLE
/// entries run whole (`whole_max`): a warp's chain of 4096 entries is short against a kernel of
/// several ms, while at 512 more rows went through partial rows and at 32768 the hub rows' chains
/// outlasted the rest; FP32 proteins_like and reddit_like gained 1.1-1.3x over the tiles. Most of
/// these graphs' entries lie in rows longer than 4096 all the same, so the partial rows' room
/// (`room`) is about what the table uses: nnz / PIECE partial rows of n values. On a device of wide
/// memory (`wide_memory`) the rule also takes FP16 and BF16, op(B) of up to HUGE_B_BYTES_MAX_WIDE
/// and rows of HUGE_MEAN_MIN_WIDE on average: there FP16 gained 1.7-2.3x and FP32 products_like
/// 1.1-1.3x (measurements: bench/notes/spmm-kernels.md "Huge graphs", bench/notes/h200.md).
pub fn huge_takes(m: i64, nnz: i64, k: i64, n: i64, value: DataType, device: &DeviceModel) -> bool {
    use DataType::*;
    let wide = wide_memory(device);
    let b_bytes = op_b_bytes(k, n, value);
    let b_max = if wide { HUGE_B_BYTES_MAX_WIDE } else { HUGE_B_BYTES_MAX };
    let mean_min = if wide { HUGE_MEAN_MIN_WIDE } else { HUGE_MEAN_MIN };
    let typed = matches!(value, CUDA_R_32F | CUDA_R_64F) || (wide && matches!(value, CUDA_R_16F | CUDA_R_16BF));
    let columns = n % N_MULTIPLE == 0 || narrow_n_takes(nnz, n, value);
    typed && columns && nnz > MAX_NNZ && m > 0 && nnz >= mean_min * m && b_bytes <= b_max
}
/// See `huge_takes`: at least a piece a row on average.
pub const HUGE_MEAN_MIN: i64 = PIECE;
/// See `huge_takes`: products_like (48 entries a row) gained on the H200; half a piece is the floor,
/// between it and the 16 a row of `MEAN_MAX` nothing was measured.
pub const HUGE_MEAN_MIN_WIDE: i64 = PIECE / 2;
/// See `huge_takes`: reddit_like's op(B) at FP32 N = 256 (238 MB) gained 8%.
pub const HUGE_B_BYTES_MAX: u64 = 256 << 20;
/// See `huge_takes`: products_like's op(B) at FP32 N = 256 (2.5 GB) gained 12% on the H200.
pub const HUGE_B_BYTES_MAX_WIDE: u64 = 2560 << 20;
/// See `huge_takes`.
pub const HUGE_WHOLE: i64 = 64 * PIECE;

/// FP32 at n = 64 (one slice of the narrow variant, 8-byte vectors) on matrices of at least
/// MIN_NNZ entries: against the current tiles it gains 5-25% there (github_musae 48 -> 38 us);
/// pubmed (88.6K entries) lost, hence the entries' floor. Other multiples of 64 (192, 320, ...) were
/// not measured and keep the tiles (bench/notes/spmm-kernels.md).
pub fn narrow_n_takes(nnz: i64, n: i64, value: DataType) -> bool {
    value == DataType::CUDA_R_32F && n == 64 && nnz >= MIN_NNZ
}

/// Whether a plain call (no preprocess: nothing read back) runs this kernel over a table it builds
/// on the GPU (`build_by_class`; kernels/spmm_warp_rows_table.cu), where it would otherwise run the
/// tiles (alone, or after a verdict of long rows, plain_choice.rs): n a multiple of N_MULTIPLE, at
/// least MIN_NNZ entries, op(B) within what preprocess's rule measured, and the GPU build's bounds
/// (`gpu_counts_fit`). Why: with the tables already built, warp rows beat the tiles at n a multiple
/// of 128 on every matrix of 128K entries or more and lost or tied below (cora, pubmed, film_actor)
/// (measurements: bench/notes/spmm-plain-and-preprocess.md). Unlike preprocess's rule, rows of any
/// mean: preprocess gives rows of more than 16 to split rows, which need a table read back. op(B)'s
/// bound is preprocess's at such n (`b_bytes_max`), which plain calls on the H200 confirmed
/// (bench/notes/h200.md).
/// `OXSPARSE_SPMM_PLAIN_WARP_ROWS=0` / `1` never / always (within the bounds) takes it;
/// `OXSPARSE_SPMM_KERNEL` forcing another row kernel keeps the tiles, forcing this one takes it.
pub fn takes_plain(m: i64, nnz: i64, k: i64, n: i64, value: DataType, device: &DeviceModel, s: &Settings) -> bool {
    let chosen = match (s.kernel, s.plain_warp_rows) {
        (Some(ForcedKernel::WarpRows), _) => true,
        (Some(ForcedKernel::Tiles | ForcedKernel::ShortRows | ForcedKernel::SplitRows), _) => false,
        (_, Some(setting)) => setting,
        _ => n % N_MULTIPLE == 0 && nnz >= MIN_NNZ && op_b_bytes(k, n, value) <= b_bytes_max(n, value, device),
    };
    chosen && gpu_counts_fit(m, nnz)
}

/// How preprocess builds its table. `Listed` (the default): the GPU lists the rows longer than a
/// piece (`kernels::spmm::warp_rows_list_long`), the host reads back that list alone, lays those
/// rows out longest first (`long_part_of`) and uploads them, and the GPU writes the short rows'
/// items: the same table as `Host`, which reads every row offset back (several ms of preprocess on
/// the large graphs, mostly the offsets' read back and walk). `Gpu`: the plain call's build
/// (`build_by_class`), no read back at all, long rows by class rather than longest first; its calls
/// tie the host's order but on youtube_like FP16 (2-3% slower), so the longest-first order stays,
/// and `OXSPARSE_SPMM_WARP_ROWS_TABLE=host|gpu` picks the others (for comparisons;
/// bench/notes/spmm-plain-and-preprocess.md).
pub fn table_build(s: &Settings) -> TableBuild {
    s.warp_rows_table
}

/// Chunks of rows at most of the GPU's table build (`gpu_chunks`): each block of its second launch
/// adds the sums of all of them (16 KB at most).
pub const MAX_GPU_CHUNKS: i64 = 2048;

/// Rows a block of the GPU build takes for `m` rows: SPMM_WARP_ROWS_CHUNK (one a thread, one round
/// of the block's scan), or as many multiples of it as keep the chunks within MAX_GPU_CHUNKS
/// (matrices of more than 524288 rows; each further multiple is one more round).
pub fn gpu_chunk_rows(m: i64) -> i64 {
    let chunk = crate::kernels::params::spmm::SPMM_WARP_ROWS_CHUNK as i64;
    chunk * ceil_div(m.max(1), chunk * MAX_GPU_CHUNKS).max(1)
}

/// The GPU build's chunks of rows (`gpu_chunk_rows` each) for `m` rows.
pub fn gpu_chunks(m: i64) -> i64 {
    ceil_div(m.max(0), gpu_chunk_rows(m))
}

/// Whether the GPU build's packed counts (kernels/spmm_warp_rows_table.cu `counts`) hold a matrix
/// of `m` rows and `nnz` entries: rows longer than a piece (fewer than nnz / PIECE) within the
/// field below SPMM_WARP_ROWS_SPLIT_SHIFT, pieces (at most 2 nnz / PIECE) within the top field,
/// and rows numbered in the items' 32 bits.
pub fn gpu_counts_fit(m: i64, nnz: i64) -> bool {
    use crate::kernels::params::spmm::{SPMM_WARP_ROWS_PIECES_SHIFT, SPMM_WARP_ROWS_SPLIT_SHIFT};
    let long_max = 1i64 << SPMM_WARP_ROWS_SPLIT_SHIFT;
    let pieces_max = 1i64 << (64 - SPMM_WARP_ROWS_PIECES_SHIFT);
    m > 0 && nnz > 0 && nnz <= MAX_NNZ && nnz / PIECE < long_max && 2 * ceil_div(nnz, PIECE) < pieces_max && m <= u32::MAX as i64
}

/// Items a table built on the GPU may hold for `m` rows and `nnz` entries (the kernel's grid): a
/// row is one item, a split row (longer than a piece) ceil(len / PIECE) <= 1 + len / PIECE, so at
/// most m + nnz / PIECE.
pub fn gpu_items_bound(m: i64, nnz: i64) -> i64 {
    m.max(0) + nnz.max(0) / PIECE
}

/// The class of a row of `len` entries longer than a piece in the table a plain call builds on the
/// GPU (kernels/spmm_warp_rows_table.cu `long_class`), in table order: 0, a split row (longer than
/// `whole`); 1, a whole row longer than halfway from a piece to `whole`; 2, another whole row.
/// None for a short row. Why: the GPU cannot sort the long rows longest first as the host does
/// (`long_part`), and a whole row is a chain of len / UNROLL trips for one warp: in row order a
/// long one that starts late ends the kernel late (row order was 12-19% slower than the host's;
/// with classes fb100_Cornell5's kernel 127 -> 108 us). Split rows' pieces need no order (a piece
/// is short); a fourth class for the split rows of more than a group of pieces measured nothing
/// (bench/notes/spmm-plain-and-preprocess.md).
pub fn long_class(len: i64, piece: i64, whole: i64) -> Option<usize> {
    match len {
        _ if len <= piece => None,
        _ if len > whole => Some(0),
        _ => Some(if 2 * len > piece + whole { 1 } else { 2 }),
    }
}

/// The long rows' classes (`long_class`).
pub const LONG_CLASSES: usize = 3;

/// Bytes of the GPU build's chunk sums for `m` rows (in the partial rows' room until the kernel).
pub fn gpu_sums_bytes(m: i64) -> usize {
    gpu_chunks(m) as usize * crate::kernels::params::spmm::SPMM_WARP_ROWS_SUM_WORDS as usize * 8
}

/// The table a plain call builds on the GPU (kernels/spmm_warp_rows_table.cu), on the host (its
/// reference): the rows longer than a piece first, class by class (`long_class`) and in row order
/// within a class, each a whole item up to `whole` entries or pieces of `piece` with an add slot
/// (adds and partial rows numbered in row order); then one item per shorter row, in row order.
/// The items and adds are those of `build`, in another order (the same sums, bit for bit).
pub fn build_by_class(begins: &[i64], ends: &[i64], piece: i64, whole: i64) -> Table {
    let len = |r: usize| (ends[r] - begins[r]).max(0);
    let whole = whole.max(piece);
    let mut t = Table::default();
    let mut classes: [Vec<[u64; 2]>; LONG_CLASSES] = Default::default();
    for r in (0..begins.len()).filter(|&r| len(r) > piece) {
        let class = &mut classes[long_class(len(r), piece, whole).expect("a long row has a class")];
        if len(r) <= whole {
            class.push(short_item(begins[r], len(r), r as u64));
            continue;
        }
        let count = ceil_div(len(r), piece);
        let add = t.adds.len() as u64;
        t.adds.push([r as u64, t.partial_rows as u64 | (count as u64) << 32]);
        for i in 0..count {
            let begin = begins[r] + i * piece;
            class.push([begin as u64 | (piece.min(ends[r] - begin) as u64) << BEGIN_BITS, add | ((t.partial_rows + i + 1) as u64) << 32]);
        }
        t.partial_rows += count;
    }
    t.items = classes.concat();
    for r in (0..begins.len()).filter(|&r| len(r) <= piece) {
        t.items.push(short_item(begins[r], len(r), r as u64));
    }
    t
}

/// Whether the kernel takes a matrix that split rows would take (row_kernel.rs asks this where
/// split_rows.rs's rule agrees): 16-bit types at n = 256, where a warp's 16-byte vectors cover a
/// row of C in one pass and split rows' widest groups (`PackedWide`, 128 columns) walk every
/// entry twice, for matrices of at least LONG_ROWS_MIN_ROWS rows of at least LONG_ROWS_MEAN
/// entries on average: there FP16 gained 14-26% (fb100_Cornell5, blogcatalog, crocodile,
/// twitch_DE); fewer rows (5-6K) and shorter rows (15 a row) lost, as did n = 128 on some, and in
/// FP32 split rows stayed as fast or faster (bench/notes/spmm-kernels.md).
pub fn over_split_rows(m: i64, nnz: i64, n: i64, value: DataType) -> bool {
    value.size_bytes() == 2 && n == 256 && m >= LONG_ROWS_MIN_ROWS && nnz >= LONG_ROWS_MEAN * m
}
/// See `over_split_rows`: about one and a half waves of the kernel's warps.
pub const LONG_ROWS_MIN_ROWS: i64 = 8 * 1024;
/// See `over_split_rows`.
pub const LONG_ROWS_MEAN: i64 = 24;

/// Columns the rule asks for in multiples of: at n = 64 (8-byte vectors) the kernel tied or lost
/// against the tiles but for FP32 on large matrices (`narrow_n_takes`).
pub const N_MULTIPLE: i64 = 128;

/// Entries at most (slots hold 48-bit entry offsets and 32-bit rows and slots; the room below
/// grows with nnz).
pub const MAX_NNZ: i64 = 16_000_000;

/// What the workspace keeps for the table: item slots, add slots, partial rows. A row of up to
/// `whole` entries is one item; a longer one (a split row, of at least whole + 1 entries, so at
/// most nnz / (whole + 1) of them) ceil(len / PIECE) < len / PIECE + 1 items, each a partial row,
/// and one add. So adds <= S = ceil(nnz / (whole + 1)), partial rows <= ceil(nnz / PIECE) + S,
/// items <= m + that. (Bounding by `whole` rather than 2 nnz / PIECE partial rows nearly halves the
/// room: fb100_Cornell5 at N = 256 in FP32 50 -> 29 MB.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    pub items: i64,
    pub adds: i64,
    pub partial_rows: i64,
}

pub fn room(m: i64, nnz: i64, whole: i64) -> Room {
    let nnz = nnz.max(0);
    let splits = ceil_div(nnz, whole.max(PIECE) + 1);
    let pieces = ceil_div(nnz, PIECE) + splits;
    Room { items: m.max(0) + pieces, adds: splits, partial_rows: pieces }
}

/// Bytes of the table for `room` (header and slots).
pub fn table_bytes(room: Room) -> usize {
    HEADER_BYTES + (room.items + room.adds) as usize * SLOT_BYTES
}

/// Bytes of the arrival counters for `adds` split rows of `partial_rows` pieces at n columns: a
/// u32 per split row and per partial row (its group's counter when it starts a group), per column
/// slice of the grid.
pub fn counter_bytes(adds: i64, partial_rows: i64, n: i64, value: DataType) -> usize {
    (adds.max(0) + partial_rows.max(0)) as usize * crate::kernels::spmm::warp_rows_slices(n, value) as usize * 4
}

/// The items and adds for rows `begins[r] .. ends[r]` (entry offsets) in pieces of `piece`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub items: Vec<[u64; 2]>,
    pub adds: Vec<[u64; 2]>,
    pub partial_rows: i64,
}

/// The whole table on the host: the long part, then an item per short row in row order (what
/// `kernels::spmm::warp_rows_short_items` writes on the GPU; this is its reference).
pub fn build(begins: &[i64], ends: &[i64], piece: i64, whole: i64) -> Table {
    let LongPart { mut table, short_rows, .. } = long_part(begins, ends, piece, whole);
    table.items.reserve_exact(short_rows);
    for r in (0..begins.len()).filter(|&r| (ends[r] - begins[r]).max(0) <= piece) {
        table.items.push(short_item(begins[r], (ends[r] - begins[r]).max(0), r as u64));
    }
    table
}

/// The item of a row of at most a piece, taken whole: `begin | len << 48`, `row`.
fn short_item(begin: i64, len: i64, row: u64) -> [u64; 2] {
    [begin as u64 | (len as u64) << BEGIN_BITS, row]
}

/// The rows longer than a piece, as the table lays them out: `table` holds their items (split
/// rows first, then whole rows longer than a piece, each longest first, ties in row order, so
/// that the longest chains start in the first wave and share blocks) and the adds. The short
/// rows' items follow theirs, one per row in row order: `short_rows` of them, the item of row r
/// at `table.items.len() + r - (long rows before r)`; `long_rows` lists the long rows in row order
/// for that rank.
pub struct LongPart {
    pub table: Table,
    pub long_rows: Vec<u32>,
    pub short_rows: usize,
}

impl LongPart {
    /// Items of the whole table.
    pub fn items(&self) -> usize {
        self.table.items.len() + self.short_rows
    }
}

pub fn long_part(begins: &[i64], ends: &[i64], piece: i64, whole: i64) -> LongPart {
    let long = (0..begins.len())
        .filter_map(|r| {
            let len = (ends[r] - begins[r]).max(0);
            (len > piece).then_some(LongRow { begin: begins[r], len, row: r as u32 })
        })
        .collect();
    long_part_of(long, begins.len(), piece, whole)
}

/// A row longer than a piece: its first entry, its length and its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LongRow {
    pub begin: i64,
    pub len: i64,
    pub row: u32,
}

/// Bytes of a listed long row (`kernels::spmm::warp_rows_list_long`: first entry, length, row).
pub const LISTED_ROW_BYTES: usize = crate::kernels::params::spmm::SPMM_WARP_ROWS_LISTED_WORDS as usize * 8;

/// The long rows the GPU listed (`LISTED_ROW_BYTES` each: first entry, length, row).
pub fn listed_rows(bytes: &[u8]) -> Vec<LongRow> {
    let word = |c: &[u8], i: usize| u64::from_ne_bytes(c[8 * i..8 * i + 8].try_into().unwrap());
    bytes
        .chunks_exact(LISTED_ROW_BYTES)
        .map(|c| LongRow { begin: word(c, 0) as i64, len: word(c, 1) as i64, row: word(c, 2) as u32 })
        .collect()
}

/// `long_part` from the long rows alone, in any order, of a matrix of `m` rows: preprocess lists
/// them on the GPU (`kernels::spmm::warp_rows_list_long`, in the order their slots were claimed)
/// rather than reading every row back. The same table: longest first, ties in row order.
pub fn long_part_of(mut long: Vec<LongRow>, m: usize, piece: i64, whole: i64) -> LongPart {
    let item = |begin: i64, len: i64, at: u64, slot: i64| [begin as u64 | (len as u64) << BEGIN_BITS, at | ((slot + 1) as u64) << 32];
    let whole = whole.max(piece);
    long.sort_unstable_by_key(|r| (std::cmp::Reverse(r.len), r.row));
    let mut long_rows: Vec<u32> = long.iter().map(|r| r.row).collect();
    long_rows.sort_unstable();
    // The slots counted first, so that each vector is allocated once at its size.
    let split = |r: &&LongRow| r.len > whole;
    let adds = long.iter().filter(split).count();
    let pieces: i64 = long.iter().filter(split).map(|r| ceil_div(r.len, piece)).sum();
    let mut t = Table { items: Vec::with_capacity(long.len() - adds + pieces as usize), adds: Vec::with_capacity(adds), partial_rows: 0 };
    for r in &long {
        if r.len <= whole {
            t.items.push(item(r.begin, r.len, r.row as u64, -1));
            continue;
        }
        let count = ceil_div(r.len, piece);
        let add = t.adds.len() as u64;
        t.adds.push([r.row as u64, t.partial_rows as u64 | (count as u64) << 32]);
        for i in 0..count {
            let begin = r.begin + i * piece;
            t.items.push(item(begin, piece.min(r.begin + r.len - begin), add, t.partial_rows + i));
        }
        t.partial_rows += count;
    }
    let short_rows = m - long_rows.len();
    LongPart { table: t, long_rows, short_rows }
}

/// Entries of a row that one warp takes whole for a matrix of `nnz` entries: a piece's length more
/// per WHOLE_PER entries, from one piece up to WHOLE_PIECES (`OXSPARSE_SPMM_WARP_ROWS_WHOLE`
/// overrides it for comparisons). A whole row saves its partial rows and their adds but is a chain of
/// len / UNROLL round trips for one warp, which must stay well within the kernel's time, itself
/// about proportional to nnz: arxiv_like (1.14M entries) was fastest with rows of up to 320-512
/// whole, github_musae (578K) up to 192, and ca-CondMat and vsp_model1 (under 400K) one piece
/// (bench/notes/spmm-kernels.md).
pub fn whole_max(nnz: i64, forced: Option<i64>) -> i64 {
    let grown = if nnz > MAX_NNZ { HUGE_WHOLE } else { PIECE * (nnz.max(0) / WHOLE_PER).clamp(1, WHOLE_PIECES) };
    forced.filter(|&w| (1..=MAX_WHOLE).contains(&w)).unwrap_or(grown)
}

/// Entries of the matrix per piece's length that a whole row may hold (see `whole_max`).
pub const WHOLE_PER: i64 = 200_000;
/// Pieces' lengths a whole row holds at most.
pub const WHOLE_PIECES: i64 = 8;
/// The item's 16-bit length field.
const MAX_WHOLE: i64 = u16::MAX as i64;

/// Whether a table of `items` items (`LongPart::items`) and `t`'s adds and partial rows fits its
/// room, and the kernel's 32-bit counts.
pub fn fits_room(items: usize, t: &Table, room: Room) -> bool {
    items as i64 <= room.items.min(i32::MAX as i64)
        && t.adds.len() as i64 <= room.adds.min(i32::MAX as i64)
        && t.partial_rows <= room.partial_rows
}

/// The table's header (the token, then 0) is the split-row table's.
pub use super::split_rows::header;

/// The table as uploaded, in parts at their offsets from its start: the header, the items, the
/// adds. The counters after them (`counter_bytes` at the layout's `counters_at`) are zeroed on
/// the device, not sent: the parts are the table's own bytes, not copied into one buffer (for
/// youtube_like, 18 MB more of fresh pages). With `items` past the table's own (a long part's
/// whole count), the adds go after that many, and the items between are the GPU's to write.
pub fn upload_parts<'a>(header: &'a [u8; HEADER_BYTES], t: &'a Table, items: usize) -> [(usize, &'a [u8]); 3] {
    debug_assert!(items >= t.items.len());
    let bytes = super::split_rows::slots_as_bytes;
    [(0, header), (HEADER_BYTES, bytes(&t.items)), (HEADER_BYTES + items * SLOT_BYTES, bytes(&t.adds))]
}

/// Where the short rows' items go: the byte offset of item `first` from the table's start.
pub fn item_offset(first: usize) -> usize {
    HEADER_BYTES + first * SLOT_BYTES
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::models::*;

    /// Decodes an item of `t` as the kernel does: (row, begin, len, slot); a piece names its split
    /// row's add slot, which holds the row.
    fn item(t: &Table, s: &[u64; 2]) -> (i64, i64, i64, i64) {
        let (at, slot) = ((s[1] & 0xffff_ffff) as i64, (s[1] >> 32) as i64 - 1);
        let row = if slot < 0 { at } else { t.adds[at as usize][0] as i64 };
        (row, (s[0] & ((1 << BEGIN_BITS) - 1)) as i64, (s[0] >> BEGIN_BITS) as i64, slot)
    }

    fn rows(lens: &[i64]) -> (Vec<i64>, Vec<i64>) {
        let mut begins = Vec::new();
        let mut at = 0;
        for &l in lens {
            begins.push(at);
            at += l;
        }
        let ends = begins.iter().zip(lens).map(|(b, l)| b + l).collect();
        (begins, ends)
    }

    #[test]
    fn every_entry_lies_in_one_item_and_pieces_are_added_in_order() {
        // Seeded lengths of many shapes: empty rows, rows of exactly PIECE, one hub row.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut lens: Vec<i64> = (0..500)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                [0, 1, 5, 63, 64, 65, 130, 7][(state >> 60) as usize % 8]
            })
            .collect();
        lens.push(10_000);
        let (begins, ends) = rows(&lens);
        for (piece, whole) in [(4, 4), (16, 16), (PIECE, PIECE), (16, 100), (PIECE, 5 * PIECE)] {
            let t = build(&begins, &ends, piece, whole);
            let nnz: i64 = lens.iter().sum();
            assert!(
                fits_room(t.items.len(), &t, room(lens.len() as i64, nnz, whole)) || piece < PIECE,
                "room for pieces of {piece}, whole rows to {whole}"
            );
            let mut covered = vec![0u8; nnz as usize];
            let mut rows_seen = vec![0usize; lens.len()];
            for s in &t.items {
                let (r, b, l, slot) = item(&t, s);
                assert!(l <= if slot < 0 { whole } else { piece } && b >= begins[r as usize] && b + l <= ends[r as usize]);
                assert!(slot >= 0 || l == lens[r as usize], "a whole row is one item");
                assert!(slot < 0 || lens[r as usize] > whole, "only rows longer than `whole` are cut");
                rows_seen[r as usize] += 1;
                covered[b as usize..(b + l) as usize].iter_mut().for_each(|c| *c += 1);
            }
            assert!(covered.iter().all(|&c| c == 1), "each entry once (pieces of {piece})");
            assert!(rows_seen.iter().all(|&n| n >= 1), "every row, empty ones too, has an item");
            // Each add's pieces are consecutive slots holding the row's pieces in entry order.
            for a in &t.adds {
                let (row, first, count) = (a[0] as i64, (a[1] & 0xffff_ffff) as i64, (a[1] >> 32) as i64);
                let mut pieces: Vec<(i64, i64)> =
                    t.items.iter().map(|s| item(&t, s)).filter(|i| i.0 == row && i.3 >= 0).map(|i| (i.3, i.1)).collect();
                pieces.sort();
                assert_eq!(pieces.len() as i64, count);
                assert!(pieces.iter().enumerate().all(|(i, p)| p.0 == first + i as i64));
                assert!(pieces.windows(2).all(|w| w[0].1 < w[1].1), "slot order is entry order");
            }
            let whole = t.items.iter().map(|s| item(&t, s)).filter(|i| i.3 < 0).count();
            assert_eq!(whole + t.adds.len(), lens.len());
            // Pieces come first, the longest split rows first; whole rows after, in row order.
            let kinds: Vec<bool> = t.items.iter().map(|s| item(&t, s).3 >= 0).collect();
            assert!(kinds.windows(2).all(|w| w[0] || !w[1]), "pieces before whole rows");
            let counts: Vec<u64> = t.adds.iter().map(|a| a[1] >> 32).collect();
            assert!(counts.windows(2).all(|w| w[0] >= w[1]), "longest split rows first");
            // Then whole rows longer than a piece, longest first; then the rest in row order.
            let whole_rows: Vec<(i64, i64)> = t.items.iter().map(|s| item(&t, s)).filter(|i| i.3 < 0).map(|i| (i.0, i.2)).collect();
            let long = whole_rows.iter().take_while(|w| w.1 > piece).count();
            assert!(whole_rows[..long].windows(2).all(|w| w[0].1 >= w[1].1), "long whole rows longest first");
            assert!(whole_rows[long..].iter().all(|w| w.1 <= piece), "long whole rows before the others");
            assert!(whole_rows[long..].windows(2).all(|w| w[0].0 < w[1].0), "short rows in row order");
        }
    }

    #[test]
    fn room_bounds_the_worst_rows() {
        // Rows of whole + 1 entries make the most split rows, and rows of a piece more than a
        // multiple of PIECE the most pieces per entry.
        for whole in [PIECE, 2 * PIECE, 5 * PIECE, 8 * PIECE] {
            for (m, len) in [(1000, whole + 1), (1000, PIECE + 1), (100, 3 * whole + 1), (10, 1_000_000), (7, 0), (3, PIECE), (500, whole)]
            {
                let (begins, ends) = rows(&vec![len; m]);
                let t = build(&begins, &ends, PIECE, whole);
                assert!(fits_room(t.items.len(), &t, room(m as i64, len * m as i64, whole)), "{m} rows of {len}, whole {whole}");
            }
            // Mixed lengths, seeded.
            let mut state = 0x5EED_0000u64 + whole as u64;
            let lens: Vec<i64> = (0..3000)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    [0, 3, whole, whole + 1, whole + PIECE + 1, 2 * whole + 1, 10 * whole][(state >> 59) as usize % 7]
                })
                .collect();
            let (begins, ends) = rows(&lens);
            let nnz: i64 = lens.iter().sum();
            for t in [build(&begins, &ends, PIECE, whole), build_by_class(&begins, &ends, PIECE, whole)] {
                assert!(fits_room(t.items.len(), &t, room(lens.len() as i64, nnz, whole)), "mixed rows, whole {whole}");
            }
        }
        // Fewer partial rows than the older bound (2 nnz / PIECE) at the larger wholes.
        assert!(room(18_660, 1_581_554, whole_max(1_581_554, None)).partial_rows < 2 * 1_581_554 / PIECE * 6 / 10);
    }

    #[test]
    fn parts_lay_out_the_table() {
        let (begins, ends) = rows(&[3, 200]);
        let t = build(&begins, &ends, PIECE, PIECE);
        assert_eq!((t.items.len(), t.adds.len(), t.partial_rows), (5, 1, 4));
        let h = header(42);
        let parts = upload_parts(&h, &t, t.items.len());
        let mut image = vec![0u8; table_bytes(Room { items: 5, adds: 1, partial_rows: 4 })];
        for (at, bytes) in parts {
            image[at..at + bytes.len()].copy_from_slice(bytes);
        }
        assert_eq!(u64::from_ne_bytes(image[..8].try_into().unwrap()), 42);
        let slot = |i: usize| [0, 8].map(|o| u64::from_ne_bytes(image[HEADER_BYTES + 16 * i + o..][..8].try_into().unwrap()));
        assert!((0..5).all(|i| slot(i) == t.items[i]) && slot(5) == t.adds[0], "items, then adds, in native order");
        // Two slices of 256 columns: (1 split row + 4 partial rows) x 2 counters, zeroed on the device.
        assert_eq!(counter_bytes(t.adds.len() as i64, t.partial_rows, 512, DataType::CUDA_R_32F), 5 * 2 * 4);
    }

    /// The long part, then a short item per short row at its rank past the long rows, is the
    /// table.
    #[test]
    fn the_long_part_and_the_ranks_make_the_table() {
        for lens in [vec![3, 200, 0, 64, 65, 10_000, 129, 7, 7, 500], vec![], vec![0; 5], vec![1000; 40], vec![1, 2, 3]] {
            let (begins, ends) = rows(&lens);
            for whole in [PIECE, 3 * PIECE] {
                let t = build(&begins, &ends, PIECE, whole);
                let part = long_part(&begins, &ends, PIECE, whole);
                assert_eq!(part.items(), t.items.len());
                assert!(part.long_rows.windows(2).all(|w| w[0] < w[1]), "long rows in row order");
                let mut items = part.table.items.clone();
                items.resize(part.items(), [0, 0]);
                for r in (0..lens.len()).filter(|&r| lens[r] <= PIECE) {
                    let rank = r - part.long_rows.partition_point(|&l| (l as usize) < r);
                    items[part.table.items.len() + rank] = short_item(begins[r], lens[r], r as u64);
                }
                assert_eq!(
                    (items, &part.table.adds, part.table.partial_rows),
                    (t.items.clone(), &t.adds, t.partial_rows),
                    "{lens:?}, whole {whole}"
                );
            }
        }
    }

    /// The long rows listed in any order (as the GPU's slots are claimed) lay out the long part
    /// of the walk over every row: ties in length in row order, the long rows' list ascending.
    #[test]
    fn long_rows_in_any_order_lay_out_the_same_long_part() {
        for lens in [vec![3, 200, 0, 65, 65, 10_000, 129, 7, 200, 500, 65], vec![], vec![1000; 40], vec![1, 2, 3]] {
            let (begins, ends) = rows(&lens);
            for whole in [PIECE, 3 * PIECE] {
                let want = long_part(&begins, &ends, PIECE, whole);
                let mut long: Vec<LongRow> = (0..lens.len())
                    .filter(|&r| lens[r] > PIECE)
                    .map(|r| LongRow { begin: begins[r], len: lens[r], row: r as u32 })
                    .collect();
                long.reverse();
                let third = long.len() / 3;
                long.rotate_left(third);
                let bytes: Vec<u8> =
                    long.iter().flat_map(|r| [r.begin as u64, r.len as u64, r.row as u64]).flat_map(|w| w.to_ne_bytes()).collect();
                let got = long_part_of(listed_rows(&bytes), lens.len(), PIECE, whole);
                // The long rows' first items in table order: lengths descending, ties in row order.
                let firsts: Vec<(i64, usize)> = got
                    .table
                    .items
                    .iter()
                    .filter_map(|it| {
                        let (begin, slot) = (it[0] & ((1u64 << BEGIN_BITS) - 1), it[1] >> 32);
                        let row = if slot == 0 { it[1] as usize } else { got.table.adds[(it[1] & 0xffff_ffff) as usize][0] as usize };
                        (begin as i64 == begins[row]).then_some((-lens[row], row))
                    })
                    .collect();
                assert!(firsts.windows(2).all(|w| w[0] < w[1]), "{lens:?}, whole {whole}: long rows not longest first, ties in row order");
                assert_eq!(
                    (&got.table.items, &got.table.adds, got.table.partial_rows),
                    (&want.table.items, &want.table.adds, want.table.partial_rows),
                    "{lens:?}, whole {whole}"
                );
                assert_eq!((&got.long_rows, got.short_rows), (&want.long_rows, want.short_rows), "{lens:?}, whole {whole}");
            }
        }
    }

    /// The classes split the long rows by length, longest first: split rows, then whole rows
    /// beyond and within halfway between a piece and `whole`.
    #[test]
    fn long_rows_fall_in_their_classes() {
        let class = |len| long_class(len, PIECE, 3 * PIECE);
        assert_eq!([0, PIECE].map(class), [None, None]);
        assert_eq!([PIECE + 1, 2 * PIECE, 2 * PIECE + 1, 3 * PIECE].map(class), [Some(2), Some(2), Some(1), Some(1)]);
        assert_eq!([3 * PIECE + 1, 100 * PIECE, i64::MAX / 2].map(class), [Some(0), Some(0), Some(0)]);
        assert_eq!(long_class(PIECE + 1, PIECE, PIECE), Some(0), "no whole long rows where whole is a piece");
        assert_eq!(gpu_sums_bytes(1), 16);
    }

    /// The class-order table (the GPU's) holds the same rows and pieces as `build`'s: the same
    /// whole items, the same pieces of each split row in the same order, the same adds up to
    /// their slots; long rows first, class by class, in row order within a class; within the
    /// room and the GPU's grid bound.
    #[test]
    fn the_class_order_table_holds_the_built_tables_items() {
        for lens in [vec![3, 200, 0, 64, 65, 10_000, 129, 7, 7, 500], vec![], vec![0; 5], vec![1000; 40], vec![1, 2, 3], vec![65; 100]] {
            let (begins, ends) = rows(&lens);
            let nnz: i64 = lens.iter().sum();
            for whole in [PIECE, 3 * PIECE] {
                let (t, g) = (build(&begins, &ends, PIECE, whole), build_by_class(&begins, &ends, PIECE, whole));
                assert_eq!((g.items.len(), g.adds.len(), g.partial_rows), (t.items.len(), t.adds.len(), t.partial_rows), "{lens:?}");
                assert!(g.items.len() as i64 <= gpu_items_bound(lens.len() as i64, nnz), "{lens:?}: over the grid's bound");
                assert!(fits_room(g.items.len(), &g, room(lens.len() as i64, nnz, whole)), "{lens:?}: over the room");
                // Each item decoded to (row, begin, len, piece index within its row or -1).
                let decode = |t: &Table| {
                    let mut v: Vec<(i64, i64, i64, i64)> = t
                        .items
                        .iter()
                        .map(|s| {
                            let (r, b, l, slot) = item(t, s);
                            let first =
                                if slot < 0 { 0 } else { (t.adds.iter().find(|a| a[0] as i64 == r).unwrap()[1] & 0xffff_ffff) as i64 };
                            (r, b, l, if slot < 0 { -1 } else { slot - first })
                        })
                        .collect();
                    v.sort();
                    v
                };
                assert_eq!(decode(&g), decode(&t), "{lens:?}, whole {whole}");
                let long: Vec<bool> = g.items.iter().map(|s| item(&g, s).2 > PIECE || item(&g, s).3 >= 0).collect();
                assert!(long.windows(2).all(|w| w[0] || !w[1]), "{lens:?}: long rows first");
                // Long rows class by class, in row order within a class; then the short ones.
                let keyed: Vec<(usize, i64)> = g
                    .items
                    .iter()
                    .map(|s| (long_class(lens[item(&g, s).0 as usize], PIECE, whole).unwrap_or(LONG_CLASSES), item(&g, s).0))
                    .collect();
                assert!(keyed.windows(2).all(|w| w[0] <= w[1]), "{lens:?}, whole {whole}: classes, then row order");
                let short = keyed.iter().filter(|k| k.0 == LONG_CLASSES).count();
                assert_eq!(short, long.iter().filter(|&&x| !x).count(), "{lens:?}: the short rows have no class");
            }
        }
        assert!(gpu_counts_fit(1, MAX_NNZ) && !gpu_counts_fit(1, MAX_NNZ + 1) && !gpu_counts_fit(0, 10) && !gpu_counts_fit(10, 0));
        let chunk = crate::kernels::params::spmm::SPMM_WARP_ROWS_CHUNK as i64;
        assert_eq!((gpu_chunk_rows(1), gpu_chunks(1), gpu_chunks(257)), (chunk, 1, 2));
        assert_eq!((gpu_chunk_rows(MAX_GPU_CHUNKS * chunk), gpu_chunk_rows(MAX_GPU_CHUNKS * chunk + 1)), (chunk, 2 * chunk));
        for m in [1, 255, 256, 1_138_499, 5_000_000, u32::MAX as i64] {
            assert!(
                gpu_chunks(m) <= MAX_GPU_CHUNKS && gpu_chunks(m) * gpu_chunk_rows(m) >= m && gpu_chunk_rows(m) % chunk == 0,
                "{m} rows"
            );
        }
    }

    /// The vectors are allocated once at their size.
    #[test]
    fn tables_are_allocated_at_their_size() {
        for lens in [vec![3, 200, 0, 64, 65, 10_000, 129], vec![], vec![0; 5], vec![1000; 40]] {
            let (begins, ends) = rows(&lens);
            for whole in [PIECE, 3 * PIECE, 8 * PIECE] {
                let t = build(&begins, &ends, PIECE, whole);
                assert_eq!((t.items.len(), t.adds.len()), (t.items.capacity(), t.adds.capacity()), "{lens:?}, whole {whole}");
            }
        }
    }

    #[test]
    fn b_addresses_fit_32_bit_products() {
        let (f32, f64) = (DataType::CUDA_R_32F, DataType::CUDA_R_64F);
        assert!(b_offsets_fit(169_343, 256, f32) && b_offsets_fit(u32::MAX as i64, (1 << 30) - 1, f32));
        assert!(!b_offsets_fit(1000, 1 << 30, f32), "a row stride of 4 GiB");
        assert!(b_offsets_fit(1000, (1 << 29) - 1, f64) && !b_offsets_fit(1000, 1 << 29, f64));
        assert!(!b_offsets_fit(u32::MAX as i64 + 1, 128, f32), "more rows than 32 bits number");
    }

    #[test]
    fn whole_rows_grow_with_the_matrix() {
        assert_eq!(whole_max(0, None), PIECE);
        assert_eq!([whole_max(0, Some(3 * PIECE)), whole_max(0, Some(MAX_WHOLE + 1))], [3 * PIECE, PIECE], "forced within MAX_WHOLE");
        assert_eq!(whole_max(186_936, None), PIECE, "ca-CondMat");
        assert_eq!(whole_max(578_006, None), 2 * PIECE, "github_musae");
        assert_eq!(whole_max(1_136_257, None), 5 * PIECE, "arxiv_like");
        assert_eq!(whole_max(16_000_000, None), WHOLE_PIECES * PIECE);
        assert_eq!(whole_max(56_627_196, None), HUGE_WHOLE, "proteins_like: beyond MAX_NNZ");
    }

    #[test]
    fn the_rule_follows_the_lab() {
        let f32 = DataType::CUDA_R_32F;
        assert!(fits(f32, f32, f32, 128, 1) && fits(f32, f32, f32, 512, 1));
        assert!(fits(f32, f32, f32, 64, 1) && fits(f32, f32, f32, 192, 1), "8-byte vectors");
        assert!(!fits(f32, f32, f32, 32, 1) && !fits(f32, f32, f32, 128, 2));
        let f64 = DataType::CUDA_R_64F;
        assert!(fits(f64, f64, f64, 64, 1) && fits(f64, f64, f64, 128, 1) && !fits(f64, f64, f64, 32, 1));
        assert!(!fits(f64, f64, f32, 128, 1) && !fits(f32, f32, f64, 128, 1), "one type throughout");
        let (f16, bf16) = (DataType::CUDA_R_16F, DataType::CUDA_R_16BF);
        assert!(fits(f16, f16, f32, 128, 1) && fits(f16, f32, f32, 256, 1) && fits(bf16, bf16, f32, 384, 1));
        assert!(!fits(f16, f16, f32, 64, 1) && !fits(f16, f16, f16, 128, 1) && !fits(f16, bf16, f32, 128, 1));
        // Standard memory's bounds; `wide_memory_takes_more` has wide memory's.
        let takes =
            |m: i64, nnz: i64, k: i64, n: i64, value: DataType| super::takes(m, nnz, k, n, value, &hbm3_132(), &Settings::default());
        assert!(takes(169_343, 1_128_870, 169_343, 256, f32), "arxiv_like");
        assert!(takes(37_700, 578_006, 37_700, 256, f32) && takes(23_133, 186_936, 23_133, 512, f32), "github_musae, ca-CondMat");
        assert!(takes(169_343, 1_128_870, 169_343, 128, f32), "N = 128 since the adds run inside the kernel");
        assert!(!takes(11_631, 341_691, 11_631, 256, f32), "crocodile: 29 a row");
        assert!(!takes(18_660, 1_581_554, 18_660, 256, f32), "fb100_Cornell5: 85 a row");
        assert!(!takes(1_138_499, 5_890_944, 1_138_499, 256, f32), "youtube_like: B of 1.2 GB");
        assert!(!takes(2_708, 10_556, 2_708, 256, f32), "cora: small");
        assert!(takes(169_343, 1_128_870, 169_343, 128, f64) && !takes(169_343, 1_128_870, 169_343, 64, f64), "FP64: two vectors a lane");
        assert!(
            takes(169_343, 1_128_870, 169_343, 64, f32) && takes(37_700, 578_006, 37_700, 64, f32),
            "FP32 at 64 columns: arxiv_like, github_musae"
        );
        assert!(!takes(169_343, 1_128_870, 169_343, 192, f32), "FP32 at 192 columns: not measured");
        assert!(!takes(19_717, 88_651, 19_717, 64, f32) && takes(19_717, 88_651, 19_717, 128, f32), "pubmed: N = 64 lost, under MIN_NNZ");
        assert!(!takes(169_343, 1_128_870, 169_343, 64, f16), "16-bit: no narrow variant");
        assert!(takes(19_717, 88_651, 19_717, 128, f32) && takes(19_717, 88_651, 19_717, 256, f16), "pubmed: three waves of rows");
        assert!(
            !takes(10_680, 48_632, 10_680, 128, f32) && !takes(7_600, 53_411, 7_600, 256, f16),
            "PGPgiantcompo, film_actor: fewer rows"
        );
        assert!(
            takes(1_138_499, 5_890_944, 1_138_499, 256, f16) && takes(1_138_499, 5_890_944, 1_138_499, 128, DataType::CUDA_R_16BF),
            "youtube_like in 16 bits"
        );
        assert!(
            !takes(1_138_499, 5_890_944, 1_138_499, 128, f32) && !takes(1_138_499, 5_890_944, 1_138_499, 512, f16),
            "B beyond what was measured"
        );
        assert!(
            over_split_rows(18_660, 1_581_554, 256, f16) && takes(18_660, 1_581_554, 18_660, 256, f16),
            "fb100_Cornell5 in FP16 at 256"
        );
        assert!(
            !over_split_rows(18_660, 1_581_554, 128, f16) && !over_split_rows(18_660, 1_581_554, 256, f32),
            "at 128, and in FP32, split rows"
        );
        assert!(
            !over_split_rows(5_180, 373_172, 256, f16) && !over_split_rows(22_470, 341_825, 256, f16),
            "fb100_JohnsHopkins55: fewer rows; facebook_pagepage: shorter"
        );
        let (proteins, reddit, products) = ((132_534, 56_627_196), (232_965, 78_363_366), (2_449_029, 116_600_650));
        for n in [64, 128, 256] {
            assert!(
                takes(proteins.0, proteins.1, proteins.0, n, f32) && takes(reddit.0, reddit.1, reddit.0, n, f32),
                "huge long rows at N = {n}"
            );
        }
        assert!(
            !takes(proteins.0, proteins.1, proteins.0, 32, f32) && !takes(proteins.0, proteins.1, proteins.0, 256, f16),
            "N = 32; 16-bit: not measured"
        );
        assert!(
            takes(proteins.0, proteins.1, proteins.0, 128, f64) && !takes(reddit.0, reddit.1, reddit.0, 256, f64),
            "FP64; reddit's B of 477 MB"
        );
        assert!(!takes(products.0, products.1, products.0, 64, f32), "products_like: B of 627 MB");
        assert!(!takes(1_000_000, 20_000_000, 1_000_000, 128, f32), "20 a row: not measured");
    }

    #[test]
    fn wide_memory_takes_more() {
        assert!(!wide_memory(&hbm3_132()) && wide_memory(&hbm3e_132()), "HBM3 keeps the first bounds, HBM3e takes its own");
        assert!(!wide_memory(&hbm2e_108()) && !wide_memory(&gddr6_142()), "narrower memories keep the first bounds");
        let (f32, f64, f16, bf16) = (DataType::CUDA_R_32F, DataType::CUDA_R_64F, DataType::CUDA_R_16F, DataType::CUDA_R_16BF);
        let youtube = (1_138_499, 5_890_944);
        let (hbm3, hbm3e) = (hbm3_132(), hbm3e_132());
        let on = |d: DeviceModel, (m, nnz): (i64, i64), n: i64, value: DataType| takes(m, nnz, m, n, value, &d, &Settings::default());
        for n in [128, 256] {
            assert!(on(hbm3e, youtube, n, f32) && !on(hbm3, youtube, n, f32), "youtube_like FP32 N = {n}: gained on the H200 only");
        }
        assert!(on(hbm3e, youtube, 128, f64) && !on(hbm3, youtube, 128, f64), "youtube_like FP64 N = 128");
        assert!(!on(hbm3e, youtube, 64, f32), "youtube_like FP32 N = 64 (8-byte vectors) lost on the H200 too");
        assert!(!on(hbm3e, youtube, 512, f32) && !on(hbm3e, youtube, 256, f64), "op(B) of 2.3 GB: not measured");
        assert!(on(hbm3e, youtube, 256, f16) && !on(hbm3e, youtube, 512, f16), "16-bit keeps its bound");
        let (proteins, reddit, products) = ((132_534, 56_627_196), (232_965, 78_363_366), (2_449_029, 116_600_650));
        for n in [128, 256] {
            for g in [proteins, reddit, products] {
                assert!(on(hbm3e, g, n, f16) && on(hbm3e, g, n, bf16), "huge graphs in 16 bits at N = {n} on the H200");
            }
            assert!(!on(hbm3, proteins, n, f16), "16-bit huge graphs: not measured on the H100");
        }
        assert!(!on(hbm3e, proteins, 64, f16), "16-bit at N = 64: no variant");
        for n in [64, 128, 256] {
            assert!(on(hbm3e, products, n, f32) && !on(hbm3, products, n, f32), "products_like FP32 N = {n}");
        }
        assert!(!on(hbm3e, products, 512, f32) && !on(hbm3e, products, 32, f32), "op(B) of 5 GB; N = 32");
        assert!(on(hbm3e, reddit, 256, f64) && !on(hbm3, reddit, 256, f64), "reddit_like FP64 N = 256 (477 MB)");
        assert!(!on(hbm3e, (1_000_000, 20_000_000), 128, f32), "20 a row: not measured");
        assert!(!on(hbm3, (400_000, 20_000_000), 128, f32) && on(hbm3e, (400_000, 20_000_000), 128, f32), "50 a row");
    }
}
