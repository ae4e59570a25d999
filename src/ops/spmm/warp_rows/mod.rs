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
//! The rules are here; `table` holds the table's layout, its room and its build on the host,
//! `gpu_build` the GPU build's bounds and its host twin (`build_by_class`).

mod gpu_build;
mod table;

use super::plan::ForcedKernel;
use crate::device::{DeviceModel, MemoryClass};
use crate::settings::{Spmm as Settings, TableBuild};
use crate::types::DataType;
pub use gpu_build::{
    build_by_class, gpu_chunk_rows, gpu_chunks, gpu_counts_fit, gpu_items_bound, gpu_sums_bytes, long_class, LONG_CLASSES, MAX_GPU_CHUNKS,
};
pub use table::{
    build, counter_bytes, fits_room, header, item_offset, listed_rows, long_part, long_part_of, room, table_bytes, upload_parts, LongPart,
    LongRow, Room, Table, LISTED_ROW_BYTES, SLOT_BYTES,
};

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

/// Whether the kernel takes a matrix that split rows would take (row_kernel.rs asks this where
/// split_rows/mod.rs's rule agrees): 16-bit types at n = 256, where a warp's 16-byte vectors cover a
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

/// Entries at most (slots hold 48-bit entry offsets and 32-bit rows and slots; the room
/// (table.rs `room`) grows with nnz).
pub const MAX_NNZ: i64 = 16_000_000;

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

#[cfg(test)]
mod tests {
    use super::table::BEGIN_BITS;
    use super::*;
    use crate::device::models::*;

    /// Decodes an item of `t` as the kernel does: (row, begin, len, slot); a piece names its split
    /// row's add slot, which holds the row.
    pub(super) fn item(t: &Table, s: &[u64; 2]) -> (i64, i64, i64, i64) {
        let (at, slot) = ((s[1] & 0xffff_ffff) as i64, (s[1] >> 32) as i64 - 1);
        let row = if slot < 0 { at } else { t.adds[at as usize][0] as i64 };
        (row, (s[0] & ((1 << BEGIN_BITS) - 1)) as i64, (s[0] >> BEGIN_BITS) as i64, slot)
    }

    pub(super) fn rows(lens: &[i64]) -> (Vec<i64>, Vec<i64>) {
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
