//! Which CUDA-core row kernel preprocess gives a tile plan (or a tensor-core plan whose build chose
//! CUDA cores), and the table it builds for it: whole short rows, short rows in breadth-first
//! order (row_order/), split rows (split_rows/) or warp rows (warp_rows/). Each choice reads
//! op(A)'s structure back from the GPU (a wait), so only preprocess makes it; a plain call runs the
//! tile kernel, which needs no table, or warp rows over a table it builds on the GPU
//! (`warp_rows::takes_plain`), or lets the GPU choose between one of them and whole short rows
//! (plain_choice.rs).

use super::plan::{Plan, TileLayout, WarpRowsLayout};
use super::row_choice::{self, RowsThen};
use super::{c_bytes, column_major_c, direct_c, kernel_types, rows, split_rows_write_c, Call, RowKernel};
use super::{plan, row_order, short_rows, split_rows, warp_rows};
use crate::context::Handle;
use crate::error::Result;
use crate::kernels::params::spmm::*;
use crate::kernels::{self, spmm as k};
use crate::settings::TableBuild;
use crate::types::DataType;

/// Which CUDA-core kernel a tile-kernel plan (or a tensor-core plan whose build chose CUDA cores)
/// runs after this preprocess: measures op(A)'s longest row (one wait for the GPU; not under graph
/// capture, where the tiles stay) when the batches share one structure; every row short takes the
/// short-row kernel, else, where the plan has room for it and split_rows/mod.rs's rule agrees, the
/// split-row table is built (a second wait, for the row offsets). Also says whether whole short
/// rows run in a breadth-first order (their table is then a split-row table of whole rows).
pub(super) fn choose_row_kernel(h: &Handle, call: &Call, p: &Plan, ws: u64, token: u64) -> Result<(RowKernel, bool)> {
    // Forced, as plain calls are, whatever the layout.
    let s = &call.settings.spmm;
    match short_rows::forced(s) {
        Some(true) => return Ok((RowKernel::ShortRows, false)),
        Some(false) => return Ok((RowKernel::Tiles, false)),
        None => {}
    }
    let Some(TileLayout { longest_at: Some(at), split_at, .. }) = p.tiles else { return Ok((RowKernel::Tiles, false)) };
    if kernels::capturing(h)? {
        return Ok((RowKernel::Tiles, false));
    }
    let lp = SpmmLongestRowParams { a: rows(call, p, ws), m: p.dims.m, longest: ws + p.schedule_at as u64 + at as u64 };
    let longest = k::longest_row(h, &lp, p.index)? as i64;
    plan::phase(call.settings.print_plan, "longest row measured (a wait)");
    let nnz = call.a.nnz;
    if call.settings.print_plan {
        eprintln!("oxsparse: SpMM preprocess: longest row {longest} entries, mean {:.1}", nnz as f64 / p.dims.m.max(1) as f64);
    }
    let choice = row_choice::choose(p, nnz, longest, call.device, s);
    if call.settings.print_plan {
        eprintln!("oxsparse: SpMM preprocess: {choice:?}");
    }
    if choice.warp_rows_first {
        if let Some(chosen) = build_warp_rows(h, call, p, ws, token)? {
            if call.settings.print_plan {
                eprintln!("oxsparse: SpMM preprocess: {chosen:?}");
            }
            return Ok((chosen, false));
        }
    }
    let chosen = match (choice.then, split_at) {
        (RowsThen::ShortRows, _) => match order_short_rows(h, call, p, ws, split_at, token)? {
            Some(ordered) => (ordered, true),
            None => (RowKernel::ShortRows, false),
        },
        (RowsThen::SplitRows { shape, pieces }, Some((at, slots))) => {
            let pieces = (pieces.piece, pieces.floor, pieces.grow);
            (build_split_rows(h, call, p, ws, (ws + p.schedule_at as u64 + at as u64, slots), token, (shape, pieces))?, false)
        }
        _ => (RowKernel::Tiles, false),
    };
    if call.settings.print_plan {
        eprintln!("oxsparse: SpMM preprocess: {chosen:?}");
    }
    Ok(chosen)
}

/// The shape split rows take when they write a column-major FP32 C themselves (`direct_c`): narrow
/// groups (32 columns, 32 groups a block) in place of the 64- and 128-column ones. Each group
/// writes its piece's row an element at a time down C's columns; the wide groups' column-major
/// kernel spills (`split_rows_colc_wide_x2`, 32 bytes), and the 64-column ones have no such kernel,
/// so their C was staged. Narrow groups writing C were 9-20% faster than the default shapes
/// (measurements: bench/notes/spmm-column-major.md). A C staged (over
/// `split_rows_write_c`'s bounds) keeps the preferred shape: astro-ph, facebook_pagepage and
/// vsp_befref lost with narrow groups there. A forced shape is taken as it is.
pub(super) fn split_shape_for_c(s: &crate::settings::Spmm, p: &Plan, shape: k::RowShape, longest: i64, nnz: i64) -> k::RowShape {
    let narrow = k::RowShape::Narrow;
    let narrow_takes = split_rows::forced(s) || split_rows::takes(longest, p.dims.m, nnz, narrow.groups_per_block(p.types.ab) as i64);
    if p.types.all(DataType::CUDA_R_32F)
        && column_major_c(p)
        && s.row_shape.is_none()
        && split_rows_write_c(c_bytes(p), p.dims.m, nnz, s.split_c_bytes)
        && narrow.fits(p.types, p.dims.n)
        && narrow_takes
    {
        narrow
    } else {
        shape
    }
}

/// Reads op(A)'s row offsets back, builds the split-row table (split_rows/table.rs) for groups of
/// `shape`, and uploads it with `token` to `at`, which has room for `slots` slots (both copies
/// wait for the GPU). Pieces (`split_rows::build_one_wave`): the shortest from `shortest` entries
/// whose call fits one wave of resident blocks, up to `fallback` (or PIECE where `grow`), else
/// `fallback`. Offsets that do not describe rows within the entries (undefined input) keep the
/// tiles.
fn build_split_rows(
    h: &Handle,
    call: &Call,
    p: &Plan,
    ws: u64,
    (at, slots): (u64, i64),
    token: u64,
    (shape, pieces): (k::RowShape, (i64, i64, bool)),
) -> Result<RowKernel> {
    let Some(offsets) = read_offsets(h, call, p, ws)? else { return Ok(RowKernel::Tiles) };
    let (begins, ends) = rows_of(&offsets);
    let groups = shape.groups_per_block(p.types.ab) as usize;
    let runs = shape.slices(p.dims.n).max(1) * p.dims.batches.max(1) as u64;
    let built = split_rows::build_one_wave(begins, ends, groups, pieces, (runs, short_rows::wave(call.device)), slots);
    plan::phase(call.settings.print_plan, "split-row table built");
    let Some((table, blocks, piece)) = built else {
        // Forced onto a matrix whose plan kept room only for whole rows in another order (its
        // rows too short on average for split rows, row_order/): the tiles, as for a matrix
        // with no room at all. Unforced, the room is sized for the table: a planner bug.
        if split_rows::forced(&call.settings.spmm) {
            return Ok(RowKernel::Tiles);
        }
        return Err(crate::error::Error::Internal(format!("split-row table over its room of {slots} slots")));
    };
    if call.settings.print_plan {
        eprintln!("oxsparse: SpMM preprocess: pieces of at most {piece} entries, {} slots", table.len());
    }
    if blocks == 0 {
        return Err(crate::error::Error::Internal("split-row table of no blocks".into()));
    }
    upload_split_table(h, at, token, &table)?;
    plan::phase(call.settings.print_plan, "split-row table uploaded (a wait)");
    Ok(RowKernel::SplitRows { blocks, shape })
}

/// Uploads a split-row table (split_rows/table.rs's, or row order's whole rows) with `token` to `at` (a
/// wait).
fn upload_split_table(h: &Handle, at: u64, token: u64, table: &[[u64; 2]]) -> Result<()> {
    let header = split_rows::header(token);
    kernels::vector_ops::copy_parts_to_device_and_wait(
        h,
        &split_rows::upload_parts(&header, table).map(|(offset, bytes)| (at + offset as u64, bytes)),
    )
}

/// Lays out the warp-row table's long rows (warp_rows/table.rs; `long_part`) and uploads them with
/// `token` to the plan's region (a wait), then has the GPU write the short rows' items after them
/// (`kernels::spmm::warp_rows_short_items`, reading the long rows' list from the partial rows'
/// room, free until a call). None (keep choosing) when the offsets do not describe rows within
/// the entries or the table outgrows its room.
fn build_warp_rows(h: &Handle, call: &Call, p: &Plan, ws: u64, token: u64) -> Result<Option<RowKernel>> {
    let Some(layout) = p.warp_rows else { return Ok(None) };
    if warp_rows::table_build(&call.settings.spmm) == TableBuild::Gpu && super::gpu_table_fits(p, call.a.nnz) {
        // The plain call's build (no read back, long rows first by class, `warp_rows::long_class`).
        let build = super::GpuWarpRows::build_params(call, p, (ws, token), p.types.ab, SpmmChoice::default())?;
        k::warp_rows_build(h, &build, p.index)?;
        plan::phase(call.settings.print_plan, "warp-row table built on the GPU");
        if call.settings.print_plan {
            eprintln!("oxsparse: SpMM preprocess: warp rows, the table built on the GPU");
        }
        return Ok(Some(RowKernel::WarpRowsGpuTable));
    }
    let Some(part) = long_part(h, call, p, ws, layout)? else { return Ok(None) };
    plan::phase(call.settings.print_plan, "warp-row table's long rows laid out");
    let (items, t) = (part.items(), &part.table);
    let long_rows: Vec<u8> = part.long_rows.iter().flat_map(|r| r.to_ne_bytes()).collect();
    if !warp_rows::fits_room(items, t, layout.room) || long_rows.len() > layout.bytes - layout.partials_at {
        return Ok(None);
    }
    if call.settings.print_plan {
        eprintln!("oxsparse: SpMM preprocess: warp rows, {items} items, {} split rows, {} partial rows", t.adds.len(), t.partial_rows);
    }
    let at = ws + p.warp_rows_at as u64;
    let long_at = at + layout.partials_at as u64;
    kernels::vector_ops::zero_device(
        h,
        at + layout.counters_at as u64,
        warp_rows::counter_bytes(t.adds.len() as i64, t.partial_rows, p.dims.n, p.types.ab),
    )?;
    let header = warp_rows::header(token);
    let mut parts: Vec<(u64, &[u8])> =
        warp_rows::upload_parts(&header, t, items).iter().map(|&(offset, bytes)| (at + offset as u64, bytes)).collect();
    parts.push((long_at, &long_rows));
    kernels::vector_ops::copy_parts_to_device_and_wait(h, &parts)?;
    let sp = SpmmWarpRowsShortParams {
        a: rows(call, p, ws),
        m: p.dims.m,
        piece: warp_rows::PIECE,
        long_rows: long_at,
        long_count: part.long_rows.len() as i64,
        items: at + warp_rows::item_offset(0) as u64,
        first_item: t.items.len() as i64,
    };
    k::warp_rows_short_items(h, &sp, p.index)?;
    plan::phase(call.settings.print_plan, "warp-row table uploaded (a wait) and its short rows launched");
    Ok(Some(RowKernel::WarpRows { items: items as u32, adds: t.adds.len() as u32 }))
}

/// The warp-row table's long rows, laid out longest first (`warp_rows::long_part`), from the list
/// of them the GPU makes (`TableBuild::Listed`: two small read backs) or, where that list
/// outgrows the partial rows' room or with `TableBuild::Host`, from every row offset read back.
/// None when the offsets do not describe rows within the entries.
fn long_part(h: &Handle, call: &Call, p: &Plan, ws: u64, layout: WarpRowsLayout) -> Result<Option<warp_rows::LongPart>> {
    let (piece, whole) = (warp_rows::PIECE, warp_rows::whole_max(call.a.nnz, call.settings.spmm.warp_rows_whole));
    if warp_rows::table_build(&call.settings.spmm) == TableBuild::Listed {
        match list_long_rows(h, call, p, ws, layout)? {
            Listed::Rows(long) => return Ok(Some(warp_rows::long_part_of(long, p.dims.m as usize, piece, whole))),
            Listed::Invalid => return Ok(None),
            Listed::Overflow => {}
        }
    }
    let Some(offsets) = read_offsets(h, call, p, ws)? else { return Ok(None) };
    let (begins, ends) = rows_of(&offsets);
    Ok(Some(warp_rows::long_part(begins, ends, piece, whole)))
}

/// What the GPU's list of long rows came to.
enum Listed {
    Rows(Vec<warp_rows::LongRow>),
    /// A row lies outside the entries (or there are no offsets).
    Invalid,
    /// More long rows than the room holds.
    Overflow,
}

/// Bytes of the list's two counters (`SpmmWarpRowsListParams`).
const LIST_COUNTERS_BYTES: usize = 16;

/// The rows longer than a piece, listed on the GPU (`kernels::spmm::warp_rows_list_long`) into the
/// partial rows' room (free until a call) and read back: the counters (a wait), then the list (a
/// second). On youtube_like that is about 7500 rows (24 bytes each) against 1.14M row offsets.
fn list_long_rows(h: &Handle, call: &Call, p: &Plan, ws: u64, layout: WarpRowsLayout) -> Result<Listed> {
    let a = rows(call, p, ws);
    if a.offsets == 0 {
        return Ok(Listed::Invalid);
    }
    let room_bytes = layout.bytes.saturating_sub(layout.partials_at).saturating_sub(LIST_COUNTERS_BYTES);
    let room = room_bytes / warp_rows::LISTED_ROW_BYTES;
    if room == 0 {
        return Ok(Listed::Overflow);
    }
    let counters = ws + (p.warp_rows_at + layout.partials_at) as u64;
    kernels::vector_ops::zero_device(h, counters, LIST_COUNTERS_BYTES)?;
    let lp = SpmmWarpRowsListParams {
        a,
        m: p.dims.m,
        nnz: call.a.nnz,
        piece: warp_rows::PIECE,
        counters,
        list: counters + LIST_COUNTERS_BYTES as u64,
        room: room as i64,
    };
    k::warp_rows_list_long(h, &lp, p.index)?;
    let mut words = [0u8; LIST_COUNTERS_BYTES];
    kernels::vector_ops::copy_to_host_and_wait(h, counters, &mut words)?;
    let (count, invalid) = (u64::from_ne_bytes(words[..8].try_into().unwrap()), u64::from_ne_bytes(words[8..].try_into().unwrap()));
    if invalid != 0 {
        return Ok(Listed::Invalid);
    }
    if count > room as u64 {
        return Ok(Listed::Overflow);
    }
    let mut bytes = vec![0u8; count as usize * warp_rows::LISTED_ROW_BYTES];
    if !bytes.is_empty() {
        kernels::vector_ops::copy_to_host_and_wait(h, lp.list, &mut bytes)?;
    }
    plan::phase(call.settings.print_plan, "long rows listed on the GPU and read back (two waits)");
    Ok(Listed::Rows(warp_rows::listed_rows(&bytes)))
}

/// op(A)'s row offsets read back (a wait), from 0: row r is entries `offsets[r] .. offsets[r +
/// 1]` (begins `&offsets[..m]`, ends `&offsets[1..]`: one vector, where two copies of begins and
/// ends were 16 bytes a row of fresh pages, most of youtube_like's 19-20 ms between the read and
/// its warp-row table). None when there are none, or when they do not describe rows
/// within the nnz entries (such a matrix keeps the kernels that read the offsets themselves).
fn read_offsets(h: &Handle, call: &Call, p: &Plan, ws: u64) -> Result<Option<Vec<i64>>> {
    let a = rows(call, p, ws);
    if a.offsets == 0 {
        return Ok(None);
    }
    let index_bytes = p.index.size_bytes() as usize;
    let mut bytes = vec![0u8; (p.dims.m as usize + 1) * index_bytes];
    kernels::vector_ops::copy_to_host_and_wait(h, a.offsets, &mut bytes)?;
    let offsets = split_rows::offsets_from_bytes(&bytes, index_bytes, a.base);
    let nnz = call.a.nnz;
    let valid =
        offsets.first().is_some_and(|&o| o >= 0) && offsets.last().is_some_and(|&o| o <= nnz) && offsets.windows(2).all(|w| w[0] <= w[1]);
    plan::phase(call.settings.print_plan, "row offsets read back (a wait)");
    Ok(valid.then_some(offsets))
}

/// Begins and ends of the rows `offsets` describe.
fn rows_of(offsets: &[i64]) -> (&[i64], &[i64]) {
    (&offsets[..offsets.len() - 1], &offsets[1..])
}

/// Whole short rows in breadth-first order (row_order/), when op(B) outgrows L2, the plan has
/// room for the table, C is not a column-major one that whole rows write themselves (through
/// shared memory, by runs of consecutive rows), and the model finds the order worth it: reads
/// op(A)'s row offsets and the model's sample back (waits), all its columns only where the sample
/// says an order may pay, uploads a table of whole rows in that order, and returns the split-row
/// kernel over it with the whole-row shape. None keeps the rows as stored.
fn order_short_rows(h: &Handle, call: &Call, p: &Plan, ws: u64, split_at: Option<(usize, i64)>, token: u64) -> Result<Option<RowKernel>> {
    let d = p.dims;
    let Some((at, slots)) = split_at else { return Ok(None) };
    let forced = call.settings.spmm.row_order;
    let shape = short_rows::shape(kernel_types(p), d.n, false, call.settings.spmm.row_shape.map(Into::into));
    let groups = shape.groups_per_block(p.types.ab) as usize;
    if forced == Some(false)
        || !row_order::may_order(d.m, d.k, d.n, p.types.ab.size_bytes(), call.device)
        || direct_c(&call.settings.spmm, p, call.a.nnz, RowKernel::ShortRows)
        || slots < row_order::capacity(d.m, groups as i64)
    {
        return Ok(None);
    }
    if call.a.nnz <= 0 {
        return Ok(None);
    }
    let Some(offsets) = read_offsets(h, call, p, ws)? else { return Ok(None) };
    let row_bytes = d.n as u64 * p.types.ab.size_bytes();
    let mut columns = ColumnReader { h, call, p, ws, bytes: Vec::new() };
    let cache_rows = row_order::cache_rows(row_bytes, call.device);
    let chosen = if forced == Some(true) {
        let structure = columns.structure(&offsets)?;
        row_order::choose(&structure, cache_rows, forced).map(|order| (order, structure))
    } else {
        // The model's sample first, found on the GPU in the table's room (else read a chunk at a
        // time); all the columns only when the stored order misses enough for an order to be
        // worth making (mdual, not wave_squared_2hop).
        let room = ws + p.schedule_at as u64 + at as u64;
        let sample = match sample_on_gpu(h, call, p, ws, room, slots as usize * split_rows::SLOT_BYTES)? {
            Some(sample) => sample,
            None => {
                let (begins, ends) = rows_of(&offsets);
                row_order::Sample::by_chunks(begins, ends, d.k as usize, COLUMN_CHUNK, |first, cols| columns.read(first, cols))?
            }
        };
        plan::phase(call.settings.print_plan, "row-order sample read back (waits)");
        match row_order::stored_misses_to_save(&sample, cache_rows) {
            None => None,
            Some(stored) => {
                let structure = columns.structure(&offsets)?;
                plan::phase(call.settings.print_plan, "column indices read back (waits)");
                row_order::order_if_worth(&structure, &sample, cache_rows, stored).map(|(walk, order)| {
                    if call.settings.print_plan {
                        eprintln!("oxsparse: SpMM preprocess: rows in breadth-first order ({walk:?})");
                    }
                    (order, structure)
                })
            }
        }
    };
    plan::phase(call.settings.print_plan, "row order modelled");
    let Some((order, structure)) = chosen else { return Ok(None) };
    let (table, blocks) = split_rows::whole_rows(&order, &structure.begins, &structure.ends, groups);
    if table.len() as i64 > slots || blocks == 0 {
        return Err(crate::error::Error::Internal(format!("row-order table of {} slots over its room of {slots}", table.len())));
    }
    upload_split_table(h, ws + p.schedule_at as u64 + at as u64, token, &table)?;
    plan::phase(call.settings.print_plan, "row-order table uploaded (a wait)");
    Ok(Some(RowKernel::SplitRows { blocks, shape }))
}

/// The row-order model's sample found on the GPU (`kernels::spmm::row_sample`) in the
/// `room_bytes` at `room`, or None when it does not fit there.
fn sample_on_gpu(h: &Handle, call: &Call, p: &Plan, ws: u64, room: u64, room_bytes: usize) -> Result<Option<row_order::Sample>> {
    let (multiplier, mask) = row_order::SAMPLE_HASH;
    let params =
        SpmmRowSampleParams { a: rows(call, p, ws), k: p.dims.k, hash_multiplier: multiplier, hash_mask: mask, ..Default::default() };
    let found = k::row_sample(h, &params, p.dims.m, p.index, room, room_bytes)?;
    Ok(found.map(|(offsets, cols)| row_order::Sample::of_followed(p.dims.k as usize, &offsets, &cols)))
}

/// Entries of op(A)'s columns read back at a time for the row-order model: through one buffer of
/// 1-2 MB, where a whole read took a second buffer of all the columns' bytes (wave_squared_2hop:
/// 44 MB, whose read back took 16-22 ms).
const COLUMN_CHUNK: usize = 1 << 18;

/// Reads op(A)'s columns back for the row-order model, through one reused buffer.
struct ColumnReader<'a> {
    h: &'a Handle,
    call: &'a Call<'a>,
    p: &'a Plan,
    ws: u64,
    bytes: Vec<u8>,
}

impl ColumnReader<'_> {
    /// Columns `first ..` into `cols` (a wait), as columns of op(B): u32::MAX for one outside
    /// [0, k).
    fn read(&mut self, first: usize, cols: &mut [u32]) -> Result<()> {
        let a = rows(self.call, self.p, self.ws);
        let index_bytes = self.p.index.size_bytes() as usize;
        self.bytes.resize(cols.len() * index_bytes, 0);
        kernels::vector_ops::copy_to_host_and_wait(self.h, a.cols + (first * index_bytes) as u64, &mut self.bytes)?;
        let k = self.p.dims.k;
        let column = |c: i64| if (0..k).contains(&(c - a.base)) { (c - a.base) as u32 } else { u32::MAX };
        match index_bytes {
            4 => cols
                .iter_mut()
                .zip(self.bytes.chunks_exact(4))
                .for_each(|(c, b)| *c = column(i32::from_ne_bytes(b.try_into().unwrap()) as i64)),
            _ => cols.iter_mut().zip(self.bytes.chunks_exact(8)).for_each(|(c, b)| *c = column(i64::from_ne_bytes(b.try_into().unwrap()))),
        }
        Ok(())
    }

    /// op(A)'s whole structure, over the rows `offsets` describe (columns before the first row's
    /// stay u32::MAX; no row reads them).
    fn structure(&mut self, offsets: &[i64]) -> Result<row_order::Structure> {
        let (begins, ends) = rows_of(offsets);
        let (begins, ends) = (begins.to_vec(), ends.to_vec());
        let (first, last) = (offsets[0] as usize, offsets[offsets.len() - 1] as usize);
        let mut cols = vec![u32::MAX; last];
        let mut at = first;
        while at < last {
            let n = (last - at).min(COLUMN_CHUNK);
            self.read(at, &mut cols[at..at + n])?;
            at += n;
        }
        Ok(row_order::Structure { begins, ends, cols, k: self.p.dims.k as usize })
    }
}
