//! Parameter blocks of the SpMM kernels (`kernels/spmm.cu`, `kernels/spmm_blocked*.cu`).
//!
//! Every kernel computes C = alpha * op(A) * op(B) + beta * C for one batch per `blockIdx.y`.
//! The dense operands are described after the operation is applied: element (r, c) of op(B) lies
//! at `r * row_stride + c * col_stride`, so transposed and column-major B need no separate kernels.

use super::Scalar;

/// A dense operand as a kernel reads it: (r, c) at `values + batch * batch_stride + r *
/// row_stride + c * col_stride` (strides in elements). `conj` conjugates every element read.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmDense {
    pub values: u64,
    pub row_stride: i64,
    pub col_stride: i64,
    pub batch_stride: i64,
    pub conj: i32,
    pub pad: i32,
}

/// The problem: op(A) is `m x k`, op(B) is `k x n`, C is `m x n`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmShape {
    pub m: i64,
    pub k: i64,
    pub n: i64,
    pub alpha: Scalar,
    pub beta: Scalar,
}

/// op(A) as rows: row r holds entries `offsets[r] - base .. offsets[r + 1] - base`; entry q lies in
/// column `cols[q] - base` and has value `values[perm ? perm[q] : q]` (conjugated when `conj`).
/// `perm` is set when the rows are a view built in the workspace over the user's values.
/// Batch b adds `b * *_batch_stride` elements to each array (0: shared by all batches).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmRows {
    pub offsets: u64,
    pub cols: u64,
    pub values: u64,
    pub perm: u64,
    pub base: i64,
    pub offsets_batch_stride: i64,
    pub cols_batch_stride: i64,
    pub values_batch_stride: i64,
    pub conj: i32,
    pub pad: i32,
}

/// Where the long-row schedule lies in the workspace (all zero when there is none).
///
/// Rows longer than `long_row` entries are cut into chunks of `chunk` entries. Each chunk's
/// partial sum (n values of the compute type) goes to `partials`; the last chunk of a row to
/// finish (counted in `arrivals`, which it resets to 0 for the next call) adds the partials in
/// chunk order and writes C. So the result does not depend on which block ran first.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmSchedule {
    /// Two u32 counters (long rows found, chunks listed), then at byte 8 the u64 token of the
    /// build that wrote this schedule.
    pub counters: u64,
    /// The token this call expects. A buffer whose token differs (reallocated, overwritten) is not
    /// trusted: the row groups then do the long rows themselves, in the same chunk order.
    pub token: u64,
    /// Per long row: (row, first chunk, chunk count) as three i64.
    pub long_rows: u64,
    /// Per chunk: its long-row slot (u32).
    pub chunk_owner: u64,
    /// Per long row: arrivals so far (u32).
    pub arrivals: u64,
    /// Chunk partials, `n` compute values per chunk.
    pub partials: u64,
    pub long_row: i64,
    pub chunk: i64,
    /// Capacity of `long_rows` and `chunk_owner`.
    pub max_long_rows: i64,
    pub max_chunks: i64,
}

/// The row kernels (`oxs_spmm_rows_*` strided, `oxs_spmm_rowvec_*` vectorised,
/// `oxs_spmm_short_rows_*`). Blocks `0 .. row_blocks` work on rows; the vectorised kernel's
/// further blocks work on chunks. The short-row kernel's blocks take `slices_per_block` column
/// slices of `SPMM_TILE_SLICE` one after another (0 elsewhere); `oxs_spmm_split_rows_*` reads its
/// work from the split-row table at `split` (src/ops/spmm/split_rows/table.rs; one batch), trusted when
/// it starts with `split_token`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmRowsParams {
    pub shape: SpmmShape,
    pub a: SpmmRows,
    pub b: SpmmDense,
    pub c: SpmmDense,
    pub sched: SpmmSchedule,
    pub split: u64,
    pub split_token: u64,
    pub row_blocks: u32,
    pub slices_per_block: u32,
    /// The short-row kernel only: whether it runs, when a plain call chose on the GPU.
    pub choice: SpmmChoice,
}

/// A plain call's choice between the short-row and the tile kernel, made on the GPU
/// (src/ops/spmm/plain_choice.rs): `oxs_spmm_rows_longer_than_*` sets the u64 at `at` to `epoch`
/// when some row of op(A) is longer than the short rows take, and each of the two kernels, launched
/// one after the other, returns at once unless the verdict is its own: the tile kernel runs where
/// `runs_if_long` is 1, the short-row kernel where it is 0. `at` 0: no choice, the kernel runs.
/// When `host_at` is not 0 (the short-row kernel's only), block 0 also writes the verdict there,
/// `(epoch & !1) | long`, a u64 of mapped host memory the handle reads on later calls.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmChoice {
    pub at: u64,
    pub epoch: u64,
    pub host_at: u64,
    pub runs_if_long: u32,
    pub pad: u32,
}

/// `oxs_spmm_rows_longer_than_*` (a plain call, before the two kernels of `SpmmChoice`): sets the
/// u64 at `at` to `epoch` when a row of op(A) (batch 0: asked only when the batches share A's
/// structure) has more than `limit` entries; leaves it otherwise (a value of an earlier call's
/// epoch never equals this one's).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmRowsLongerParams {
    pub a: SpmmRows,
    pub m: i64,
    pub limit: i64,
    pub at: u64,
    pub epoch: u64,
}

/// `oxs_spmm_longest_row_*` (preprocess; kernels/spmm_short_rows.cu): the length of op(A)'s
/// longest row (batch 0: asked only when the batches share A's structure), as an atomic maximum
/// into the u64 at `longest`, which the caller zeroes first. The short-row kernel itself,
/// `oxs_spmm_short_rows_*`, takes `SpmmRowsParams` (its schedule unused): grid x over groups of
/// rows, y over runs of `slices_per_block` column slices, z over batches.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmLongestRowParams {
    pub a: SpmmRows,
    pub m: i64,
    pub longest: u64,
}

/// `oxs_spmm_row_sample_*` (preprocess, the row-order model; kernels/spmm_row_sample.cu): the
/// entries of op(A)'s rows `first_row .. first_row + rows` (batch 0) whose column c, within [0, k),
/// the model follows: `(c * hash_multiplier) >> 40 & hash_mask == 0` (src/ops/spmm/row_order/model.rs).
/// With `ids` 0 each row's count goes to the u32 at `counts` + 4 (r - first_row); else row r's
/// columns, in stored order, go to the u32s at `ids` from `offsets[r] - first_id` (`offsets`: a
/// u32 per row of op(A), the counts' running sum).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmRowSampleParams {
    pub a: SpmmRows,
    pub first_row: i64,
    pub rows: i64,
    pub k: i64,
    pub hash_multiplier: u64,
    pub hash_mask: u64,
    pub counts: u64,
    pub offsets: u64,
    pub ids: u64,
    pub first_id: u64,
}

/// `oxs_spmm_find_long_*`: lists the rows longer than `sched.long_row` and their chunks.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmFindLongParams {
    pub a: SpmmRows,
    pub m: i64,
    pub sched: SpmmSchedule,
}

/// BSR or Blocked-ELL A (opA = N) as block rows of `row_block x col_block` blocks
/// (`kernels/spmm_blocked.cu`, `kernels/spmm_blocked_tc.cu`; which of the two formats is the
/// kernel's name, `oxs_spmm_bsr_*` or `oxs_spmm_bell_*`).
/// BSR: `offsets` over block rows, one block-column index per block, blocks stored one after
/// another, row-major inside a block unless `col_major_blocks`.
/// Blocked-ELL (square blocks): block row `br` holds the `ell_slots` slots `br * ell_slots ..`, a
/// block-column index each (-1 after removing the base: an empty slot); the values are
/// `m x (ell_slots * col_block)` row-major.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmBlockedParams {
    pub shape: SpmmShape,
    pub b: SpmmDense,
    pub c: SpmmDense,
    pub offsets: u64,
    pub col_ind: u64,
    pub values: u64,
    pub base: i64,
    pub row_block: i64,
    pub col_block: i64,
    pub ell_slots: i64,
    pub col_major_blocks: i32,
    pub pad: i32,
}

/// The tensor-core kernel's tile (`kernels/spmm_blocked_tc.cu`): a thread block takes one block
/// row and this many columns of C; its 8 warps split the block row's 16-row slices and the tile's
/// 8-column mma tiles between them.
pub const SPMM_BLOCKED_TC_COLS: u32 = 64;
/// The largest block row the tensor-core kernel stages (8 slices of 16 rows).
pub const SPMM_BLOCKED_TC_MAX_ROWS: u32 = 128;
/// The asynchronous tensor-core kernel's tile (`kernels/spmm_blocked_tc_async.cu`): a thread block
/// takes one block row and this many columns of C, so that A is read once for N up to 128.
pub const SPMM_BLOCKED_TCA_COLS: u32 = 128;
/// The TMA tensor-core kernel's stage (`kernels/spmm_blocked_tc_tma.cu`): two k steps of a block's
/// rows (1 KB each) and of op(B)'s rows (two boxes of 16 x 64, 2 KB each). The launcher gives it
/// dynamic shared memory for its stages, and the kernel keeps that many in flight.
pub const SPMM_BLOCKED_TMA_STAGE: u32 = 10_240;

/// `oxs_spmm_stage_*`: copies a `rows x cols` matrix between a strided operand and a row-major
/// scratch in the workspace, through shared-memory tiles so both sides are read and written
/// coalesced. Stage B copies op(B) as is; stage C writes `alpha * src + beta * dst` into C
/// (`dst` is not read when beta is 0). Batch b is `blockIdx.z`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmStageParams {
    pub src: SpmmDense,
    pub dst: SpmmDense,
    pub rows: i64,
    pub cols: i64,
    pub alpha: Scalar,
    pub beta: Scalar,
    /// Stage C only: whether it runs, when a plain call chose on the GPU (`SpmmChoice`: it copies
    /// the tile kernel's scratch, so it runs where the tiles do).
    pub choice: SpmmChoice,
}

/// The staging copies' tiles (`kernels/spmm_stage.cu`): SPMM_STAGE_TILE x SPMM_STAGE_TILE elements a
/// block.
pub const SPMM_STAGE_TILE: u32 = 64;

/// Threads per block of the tile kernel (`kernels/spmm_tiles.cu`).
pub const SPMM_TILE_BLOCK: u32 = 128;
/// The largest tile, in entries; the plan picks a power of two from `SPMM_TILE_MIN` to this.
pub const SPMM_TILE_MAX: u32 = 1024;
pub const SPMM_TILE_MIN: u32 = 128;
/// Columns of C per block of the tile kernel (one 16-byte vector per lane of a group).
pub const SPMM_TILE_SLICE: u32 = 32;
/// B vectors each lane of the short-row kernel (`kernels/spmm_short_rows.cu`) has in flight: a
/// lane of one vector per entry has this many entries in flight, of two vectors half as many.
pub const SPMM_SHORT_ROWS_UNROLL: u32 = 8;

/// Entries whose B rows each lane of the warp-row kernel (`kernels/spmm_warp_rows.cu`) has in
/// flight (4 with the registers bounded to 6 blocks a multiprocessor beat 8 with
/// 63 registers, arxiv_like FP32 N = 128 102 against 122 us).
pub const SPMM_WARP_ROWS_UNROLL: u32 = 4;
/// Columns of C a warp of the warp-row kernel covers with one 16-byte vector a lane of FP32 (32 x
/// 4); with two vectors a lane, twice as many (other types: src/kernels/spmm.rs `warp_rows_cols`).
pub const SPMM_WARP_ROWS_COLS: u32 = 128;

/// The warp-row kernel (`oxs_spmm_warp_rows_*`, kernels/spmm_warp_rows.cu; FP32, FP64, FP16 or
/// BF16, row-major op(B) and C, one batch, n a multiple of the columns of its vectors): a warp
/// per item of the table at `table` (src/ops/spmm/warp_rows/table.rs), trusted when its first u64
/// equals `token`: `items` item slots (a whole row, or a piece of a long row that leaves its sums
/// in partial row `slot` of `partials`, n compute values each), of which the first as many as the
/// header's second u64 says are items where it is not 0 (a table built on the GPU in a room of
/// `items` slots), then `adds` split-row slots, whose pieces the last to arrive adds in piece
/// order, counting arrivals in `counters` (u32, zero between calls: `adds` then one per partial
/// row, times the column slices). Grid x over items (8 a block), y over column slices
/// (src/kernels/spmm.rs `warp_rows_variant`). `choice`: whether it runs, when a plain call chose
/// on the GPU (it runs where `runs_if_long` is 1).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmWarpRowsParams {
    pub shape: SpmmShape,
    pub a: SpmmRows,
    pub b: SpmmDense,
    pub c: SpmmDense,
    pub table: u64,
    pub token: u64,
    pub items: i64,
    pub adds: i64,
    pub partials: u64,
    pub counters: u64,
    pub choice: SpmmChoice,
}

/// `oxs_spmm_warp_rows_{count,write}_*` (a plain call; kernels/spmm_warp_rows_table.cu): the
/// warp-row table built on the GPU (src/ops/spmm/warp_rows/gpu_build.rs `build_by_class`,
/// its host reference). `count`: block b sums the packed counts (`SPMM_WARP_ROWS_*_SHIFT` bits) of its
/// `chunk_rows` rows of op(A) (a multiple of SPMM_WARP_ROWS_CHUNK; `chunks` blocks), and their
/// long whole rows of class 1, into the SPMM_WARP_ROWS_SUM_WORDS u64 at
/// `sums[b * SPMM_WARP_ROWS_SUM_WORDS]`; `write`: each block adds the sums before its own, then
/// writes its rows' items, their split rows' add slots (from slot `items_room` of the table) and
/// zeroes their arrival counters (`adds_room` split-row counters, then the partial rows', `slices`
/// each); block 0 writes the header (`token`, the item count). The longer rows' items come class
/// by class (`long_class`: split rows, then long whole rows, the longer half first), rows of at
/// most `piece` entries whole after them; a row of up to `whole` is a whole item, a longer one
/// pieces of `piece`. `choice` as in `SpmmWarpRowsParams`,
/// but where `verdict_limit` is not 0 `count` gives the verdict instead of obeying it (a plain
/// call's chain, `SpmmRowsLongerParams`): it sets the u64 at `choice.at` to `choice.epoch` when
/// a row has more than `verdict_limit` entries.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmWarpRowsBuildParams {
    pub a: SpmmRows,
    pub m: i64,
    pub piece: i64,
    pub whole: i64,
    pub table: u64,
    pub token: u64,
    pub items_room: i64,
    pub adds_room: i64,
    pub counters: u64,
    pub slices: i64,
    pub sums: u64,
    pub chunks: i64,
    pub chunk_rows: i64,
    pub verdict_limit: i64,
    pub choice: SpmmChoice,
}

/// Pieces of a split row the warp-row kernel adds in one group (its arrival counters: one a split
/// row and one a group, at the group's first partial row).
pub const SPMM_WARP_ROWS_GROUP: u32 = 16;
/// Rows of op(A) per block of the GPU's warp-row table build (`SpmmWarpRowsBuildParams`): one a
/// thread, or a multiple for matrices of many rows (src/ops/spmm/warp_rows/gpu_build.rs `gpu_chunk_rows`).
/// Chunks of 2048 rows (eight rounds of a block's scan, one after another) took the
/// build ~14 us on squirrel (5201 rows, three blocks).
pub const SPMM_WARP_ROWS_CHUNK: u32 = 256;
/// The packed counts of the GPU's table build, one u64 a row and summed: rows longer than a piece
/// in bits 0-20, split rows in bits 21-41, their pieces in bits 42-63 (src/ops/spmm/warp_rows/gpu_build.rs
/// `gpu_counts_fit` bounds the matrices that take it so that no field overflows).
pub const SPMM_WARP_ROWS_SPLIT_SHIFT: u32 = 21;
pub const SPMM_WARP_ROWS_PIECES_SHIFT: u32 = 42;
/// u64 words of a chunk's sums in the GPU's table build: the packed counts above, then the whole
/// rows of class 1 (src/ops/spmm/warp_rows/gpu_build.rs `long_class`; unused where `whole` is a piece).
pub const SPMM_WARP_ROWS_SUM_WORDS: u32 = 2;

/// `oxs_spmm_warp_rows_short_items_*` (preprocess; kernels/spmm_warp_rows_table.cu): the items
/// of op(A)'s rows of at most `piece` entries (src/ops/spmm/warp_rows/table.rs `LongPart`): row r's,
/// `begin | len << 48` and `r`, goes to slot `first_item + r - (long rows before r)` of the 16-byte
/// slots at `items`, the long rows being the `long_count` u32 row numbers, ascending, at
/// `long_rows`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmWarpRowsShortParams {
    pub a: SpmmRows,
    pub m: i64,
    pub piece: i64,
    pub long_rows: u64,
    pub long_count: i64,
    pub items: u64,
    pub first_item: i64,
}

/// `oxs_spmm_warp_rows_list_long_*` (preprocess; kernels/spmm_warp_rows_table.cu): lists op(A)'s
/// rows of more than `piece` entries for the host, which sorts them longest first and lays out
/// their items (src/ops/spmm/warp_rows/table.rs `long_part_of`) without reading every row back.
/// `counters` holds two u64, zero before the launch: the rows listed, and a flag set where a row
/// does not lie within the `nnz` entries (its end before its begin, or outside 0 .. nnz). Up to
/// `room` rows go to `list`, SPMM_WARP_ROWS_LISTED_WORDS u64 each: the row's first entry, its
/// length, the row; the order among them depends on timing (slots are claimed with an atomic),
/// which the host's sort takes away.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmWarpRowsListParams {
    pub a: SpmmRows,
    pub m: i64,
    pub nnz: i64,
    pub piece: i64,
    pub counters: u64,
    pub list: u64,
    pub room: i64,
}

/// u64 words of a row in `SpmmWarpRowsListParams`'s list (first entry, length, row).
pub const SPMM_WARP_ROWS_LISTED_WORDS: u32 = 3;

/// The tiles of op(A)'s entries: tile t holds entries `t * size .. min((t + 1) * size, nnz)` of
/// every batch. A row crossing tile edges leaves partial sums (`n` compute values per batch and
/// tile): `tail[t]` is the share of the tile where the row starts, `head[t]` the share of a tile
/// the row runs through. `ready` holds a u64 flag per (batch, tile, column slice), set to `epoch`
/// (new for every call) once the tile's partials for that slice are written; the tile where the
/// row ends waits for the flags and adds the partials in tile order. Unused (may be 0) when
/// `count` is 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmTiles {
    pub count: i64,
    pub size: i64,
    /// Column slices each block of the tile kernel takes, one after another (grid y is
    /// `ceil(slices / slices_per_block)`).
    pub slices_per_block: i64,
    pub nnz: i64,
    pub head: u64,
    pub tail: u64,
    pub ready: u64,
    pub epoch: u64,
    /// Built by preprocess when all batches share A's structure (else 0): `rows[t]` (i64, t in
    /// `0..=count`) is the first row starting at or after entry `t * size`, so a block need not
    /// search the offsets. Trusted only when the u64 at `token_at` equals `token` (a buffer
    /// overwritten or reallocated since preprocess is not).
    pub rows: u64,
    pub token_at: u64,
    pub token: u64,
    /// When not 0, the address of a u32 set by the tensor-core build: the kernel does nothing
    /// when it is non-zero (the tensor cores take the call).
    pub skip_if_set: u64,
    /// Whether the kernel runs, when a plain call chose on the GPU (`SpmmChoice`).
    pub choice: SpmmChoice,
}

/// `oxs_spmm_tiles_*`: grid x over tiles, y over runs of `slices_per_block` column slices of
/// `SPMM_TILE_SLICE`, z over batches.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpmmTilesParams {
    pub shape: SpmmShape,
    pub a: SpmmRows,
    pub b: SpmmDense,
    pub c: SpmmDense,
    pub tiles: SpmmTiles,
}
