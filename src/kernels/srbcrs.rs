//! Launchers for `kernels/srbcrs_spmm.cu`: the SR-BCRS build stages and the integer SpMM.

use super::module::{KernelKey, Site};
use super::params::srbcrs::{SrBcrsBuildParams, SrBcrsSpmmParams};
use super::{grid_for, launch, launch_keyed};
use crate::context::Handle;
use crate::error::Result;
use crate::kernel_name;
use crate::types::DataType;

const FAMILY: &str = "srbcrs_spmm";
/// Threads of a build block (`BUILD_BLOCK`).
const BUILD_BLOCK: u32 = 256;
/// Warps of an SpMM block (`WARPS`): `WARPS / splits` vector rows.
pub const WARPS: u32 = 8;
/// Columns of B and C one warp covers (`TILE_N`).
pub const TILE_N: i64 = 64;
/// Shared memory a warp stashes its sums in: `MAX_V` x `STASH_PITCH` int32.
const STASH_BYTES: u32 = 8 * (TILE_N as u32 + 1) * 4;
/// The most blocks along a grid's y extent (the driver's limit).
pub const MAX_GRID_Y: i64 = 65_535;

/// Sets the flag after `p.counts`' chunk counts to 1 when a source row's columns (a Blocked-ELL
/// block row's block columns) are unsorted, repeated or out of range: a warp per CSR row, a
/// thread per block row.
pub fn validate(h: &Handle, p: &SrBcrsBuildParams) -> Result<()> {
    let items = if p.ell_block == 0 { 32 * p.rows as u64 } else { (p.rows / p.ell_block) as u64 };
    launch(h, FAMILY, "oxs_srbcrs_validate", (grid_for(items, BUILD_BLOCK), 1, 1), BUILD_BLOCK, 0, p)
}

/// Writes each (vector row, chunk)'s distinct column count into `p.counts` (setting the flag, as
/// `validate` does, on a bad row it meets).
pub fn count(h: &Handle, p: &SrBcrsBuildParams) -> Result<()> {
    let items = (p.vector_rows * p.chunks) as u64;
    launch(h, FAMILY, "oxs_srbcrs_count", (grid_for(items, BUILD_BLOCK), 1, 1), BUILD_BLOCK, 0, p)
}

/// Writes the vectors' columns and values from each chunk's start (`p.chunk_start`; `p.vec_col`
/// and `p.vec_val` must be zeroed).
pub fn fill(h: &Handle, p: &SrBcrsBuildParams) -> Result<()> {
    let items = (p.vector_rows * p.chunks) as u64;
    launch(h, FAMILY, "oxs_srbcrs_fill", (grid_for(items, BUILD_BLOCK), 1, 1), BUILD_BLOCK, 0, p)
}

/// Gives each vector row's padding vectors its last column.
pub fn pad(h: &Handle, p: &SrBcrsBuildParams) -> Result<()> {
    launch(h, FAMILY, "oxs_srbcrs_pad", (grid_for(p.vector_rows as u64, BUILD_BLOCK), 1, 1), BUILD_BLOCK, 0, p)
}

/// The longest vector row (in stored vectors) the scaled int4 kernels take: with int4 widened to
/// 16 times its value (256 for int4 x int4), a product is under 2^15 in magnitude, so 2^16 of them
/// sum exactly in int32 before the shift back.
pub const MAX_SCALED_VECTORS: i64 = 1 << 16;

/// C = alpha rowScale A B + beta C for A of `a_bits` bits and B of type `b` (a pair the kernel
/// file instantiates: B at most as wide as A); `out` is C's type (CUDA_R_32I or CUDA_R_32F);
/// `scaled`: int4 B (and int4 A) widened scaled, for vector rows of at most
/// [`MAX_SCALED_VECTORS`] vectors (the cheaper widening; the kernels without it take any). The
/// caller checked that the grid fits (`n <= TILE_N * MAX_GRID_Y`, `vector_rows <= block_warps /
/// splits * (2^31 - 1)`).
pub fn spmm(h: &Handle, p: &SrBcrsSpmmParams, a_bits: i32, b: DataType, out: DataType, scaled: bool) -> Result<()> {
    let b_bits = match b {
        DataType::CUDA_R_4I => 4,
        DataType::CUDA_R_16I => 16,
        _ => 8,
    };
    let scaled = scaled && b_bits == 4;
    // Found by key: a call is a few microseconds, and building the name costs a fraction of one.
    let key = KernelKey::new(Site::SrBcrsSpmm, &[a_bits as u8, b_bits as u8, scaled as u8, out as u8]);
    let name = || kernel_name!("oxs_srbcrs_spmm_l{a_bits}r{b_bits}{}_{}", if scaled { "s" } else { "" }, out.kernel_suffix());
    let (warps, splits) = (p.block_warps as u32, p.splits as u32);
    let grid_x = (p.vector_rows as u64).div_ceil((warps / splits) as u64) as u32;
    let grid_y = (p.n as u64).div_ceil(TILE_N as u64) as u32;
    // A warp alone on its vector row stores from its registers: no stash.
    let shared = if splits == 1 { 0 } else { warps * STASH_BYTES };
    launch_keyed(h, FAMILY, key, name, (grid_x, grid_y, 1), warps * 32, shared, p)
}

/// A model of one warp of `oxs_srbcrs_spmm_*` on the CPU, for every (A bits, B bits) pair: the
/// kernel's loads, byte and nibble permutes, int16 splits and stores, and the PTX fragment layouts
/// of mma.m16n8k32 s8/u8 and mma.m16n8k64 s4 (A row-major 16 x k, B k x 8 by column, D 16 x 8),
/// against the reference product. It checks the lane-to-column mapping, the online transposes and
/// the emulation of wide operands where no GPU is at hand.
#[cfg(test)]
#[allow(clippy::needless_range_loop)] // lanes and registers indexed as the kernel numbers them
mod warp_model {
    use super::super::int_mma_model::*;
    use crate::reference::srbcrs::{csr_times_dense, stride, CsrInt, DenseInt, SrBcrsHost};

    fn transpose4(w: [u32; 4]) -> [u32; 4] {
        let (lo01, lo23) = (byte_perm(w[0], w[1], 0x5140), byte_perm(w[2], w[3], 0x5140));
        let (hi01, hi23) = (byte_perm(w[0], w[1], 0x7362), byte_perm(w[2], w[3], 0x7362));
        [byte_perm(lo01, lo23, 0x5410), byte_perm(lo01, lo23, 0x7632), byte_perm(hi01, hi23, 0x5410), byte_perm(hi01, hi23, 0x7632)]
    }

    fn transpose8_nibbles(w: &mut [u32; 8]) {
        for j in 0..4 {
            let (a, b) = (w[j], w[j + 4]);
            w[j] = byte_perm(a, b, 0x5410);
            w[j + 4] = byte_perm(a, b, 0x7632);
        }
        for j in [0, 1, 4, 5] {
            let (a, b) = (w[j], w[j + 2]);
            w[j] = byte_perm(a, b, 0x6240);
            w[j + 2] = byte_perm(a, b, 0x7351);
        }
        for j in (0..8).step_by(2) {
            let (a, b) = (w[j], w[j + 1]);
            w[j] = (a & 0x0F0F0F0F) | ((b << 4) & 0xF0F0F0F0);
            w[j + 1] = ((a >> 4) & 0x0F0F0F0F) | (b & 0xF0F0F0F0);
        }
    }

    fn word(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    }

    /// The kernel's C (rows x n, row-major, every entry written once, int32 as the kernel wraps it)
    /// for B row-major (ld = n) of `r_bits` bits; `native_s4`: int4 on m16n8k64 s4 (before sm_90)
    /// or on two m16n8k32 s8 of widened nibbles (sm_90); `splits` warps per vector row, each
    /// taking every splits-th stride block, their stashed sums added; `scaled`: int4 widened to 16
    /// times its value, the sums shifted back after the loop (the `s` kernels).
    fn warp_product(s: &SrBcrsHost, b: &[i16], n: usize, r_bits: usize, native_s4: bool, splits: usize, scaled: bool) -> Vec<i64> {
        let widen = |w: u32| if scaled { widen_nibbles_scaled(w) } else { widen_nibbles(w) };
        let descale = match (scaled, s.value_bits, r_bits) {
            (true, 4, _) if !native_s4 => 8,
            (true, 8 | 16, 4) => 4,
            _ => 0,
        };
        let (v, l_bits, st) = (s.vector_length, s.value_bits, stride(s.value_bits));
        let b_elem = |k: usize, col: usize| -> u32 {
            if col < n {
                b[k * n + col] as i32 as u32
            } else {
                0
            }
        };
        let mut c = vec![i64::MIN; s.rows * n];
        for g in 0..s.vec_ptr.len() - 1 {
            for n0 in (0..n).step_by(super::TILE_N as usize) {
                // The vector row's tile: 8 rows x TILE_N columns, the warps' stashes added.
                let mut tile_sum = vec![[0u32; super::TILE_N as usize]; 8];
                for split in 0..splits {
                    // acc[part][tile][lane]: parts by weight, as the kernel keeps them.
                    let mut acc = [[[[0i64; 4]; 32]; 4]; 3];
                    for block in (s.vec_ptr[g] as usize / st + split..s.vec_ptr[g + 1] as usize / st).step_by(splits) {
                        // Per lane: sparse parts (signed high or whole; unsigned low), dense parts' A
                        // fragments per tile.
                        let mut sparse = [[[0u32; 2]; 32]; 2];
                        let mut dense = [[[[0u32; 4]; 32]; 4]; 2];
                        for lane in 0..32 {
                            let (grp, t) = (lane / 4, lane % 4);
                            let n_lane = n0 + 8 * grp;
                            let row = (block * st * v + grp * st) * l_bits / 8; // the tile row, in bytes
                            if grp < v {
                                match l_bits {
                                    16 => {
                                        let (x, y) = (
                                            (word(&s.vec_val, row + 8 * t), word(&s.vec_val, row + 8 * t + 4)),
                                            (word(&s.vec_val, row + 32 + 8 * t), word(&s.vec_val, row + 36 + 8 * t)),
                                        );
                                        sparse[0][lane] = [high_bytes(x.0, x.1), high_bytes(y.0, y.1)];
                                        sparse[1][lane] = [low_bytes(x.0, x.1), low_bytes(y.0, y.1)];
                                    }
                                    _ => sparse[0][lane] = [word(&s.vec_val, row + 4 * t), word(&s.vec_val, row + 16 + 4 * t)],
                                }
                            }
                            if l_bits == 4 {
                                let ks: Vec<usize> = (0..16)
                                    .map(|j| s.vec_col[block * 64 + if j < 8 { 8 * t + j } else { 24 + 8 * t + j }] as usize)
                                    .collect();
                                let chunk = |k: usize| -> u32 { (0..8).map(|i| (b_elem(k, n_lane + i) & 0xF) << (4 * i)).sum() };
                                let mut first: [u32; 8] = std::array::from_fn(|j| chunk(ks[j]));
                                let mut last: [u32; 8] = std::array::from_fn(|j| chunk(ks[8 + j]));
                                transpose8_nibbles(&mut first);
                                transpose8_nibbles(&mut last);
                                for i in 0..4 {
                                    dense[0][i][lane] = [first[i], first[4 + i], last[i], last[4 + i]];
                                }
                                continue;
                            }
                            let ks: Vec<usize> =
                                (0..8).map(|j| s.vec_col[block * 32 + if j < 4 { 4 * t + j } else { 12 + 4 * t + j }] as usize).collect();
                            // B's row k over the lane's 8 columns, as the kernel's 8-element load
                            // gives it and its parts' bytes.
                            let parts = |k: usize| -> [[u32; 2]; 2] {
                                let raw: Vec<u32> = (0..8).map(|i| b_elem(k, n_lane + i)).collect();
                                match r_bits {
                                    4 => [widen((0..8).map(|i| (raw[i] & 0xF) << (4 * i)).sum()), [0, 0]],
                                    8 => [[0, 1].map(|h| (0..4).map(|i| (raw[4 * h + i] & 0xFF) << (8 * i)).sum()), [0, 0]],
                                    _ => {
                                        let q: Vec<u32> = (0..4).map(|w| (raw[2 * w] & 0xFFFF) | (raw[2 * w + 1] << 16)).collect();
                                        [[high_bytes(q[0], q[1]), high_bytes(q[2], q[3])], [low_bytes(q[0], q[1]), low_bytes(q[2], q[3])]]
                                    }
                                }
                            };
                            let chunks: Vec<[[u32; 2]; 2]> = ks.iter().map(|&k| parts(k)).collect();
                            for h in 0..2 {
                                let t0 = transpose4([0, 1, 2, 3].map(|j| chunks[j][h][0]));
                                let t1 = transpose4([0, 1, 2, 3].map(|j| chunks[j][h][1]));
                                let t2 = transpose4([4, 5, 6, 7].map(|j| chunks[j][h][0]));
                                let t3 = transpose4([4, 5, 6, 7].map(|j| chunks[j][h][1]));
                                for i in 0..4 {
                                    dense[h][i][lane] = [t0[i], t1[i], t2[i], t3[i]];
                                }
                            }
                        }
                        for tile in 0..4 {
                            match (l_bits, r_bits) {
                                (4, _) if native_s4 => mma(&mut acc[0][tile], &dense[0][tile], &sparse[0], 4, (true, true)),
                                (4, _) => {
                                    // sm_90: each half of the k's widened to bytes, two s8 mmas.
                                    for (a_at, b_at) in [(0, 0), (2, 1)] {
                                        let a: [[u32; 4]; 32] = std::array::from_fn(|lane| {
                                            let (f, f4) = (widen(dense[0][tile][lane][a_at]), widen(dense[0][tile][lane][a_at + 1]));
                                            [f[0], f4[0], f[1], f4[1]]
                                        });
                                        let b: [[u32; 2]; 32] = std::array::from_fn(|lane| widen(sparse[0][lane][b_at]));
                                        mma(&mut acc[0][tile], &a, &b, 8, (true, true));
                                    }
                                }
                                (8, _) => mma(&mut acc[0][tile], &dense[0][tile], &sparse[0], 8, (true, true)),
                                (_, 16) => {
                                    mma(&mut acc[0][tile], &dense[0][tile], &sparse[0], 8, (true, true));
                                    mma(&mut acc[1][tile], &dense[0][tile], &sparse[1], 8, (true, false));
                                    mma(&mut acc[1][tile], &dense[1][tile], &sparse[0], 8, (false, true));
                                    mma(&mut acc[2][tile], &dense[1][tile], &sparse[1], 8, (false, false));
                                }
                                _ => {
                                    mma(&mut acc[0][tile], &dense[0][tile], &sparse[0], 8, (true, true));
                                    mma(&mut acc[1][tile], &dense[0][tile], &sparse[1], 8, (true, false));
                                }
                            }
                        }
                    }
                    // descale: each int32 sum shifted back (exact: no sum here nears 2^31).
                    for x in acc.iter_mut().flatten().flatten().flatten() {
                        *x = ((*x as i32) >> descale) as i64;
                    }
                    let shifts: &[u32] = match (l_bits, r_bits) {
                        (16, 16) => &[16, 8, 0],
                        (16, _) => &[8, 0],
                        _ => &[0],
                    };
                    // stash: each lane's combined sums at (row, tile column) of the warp's tile.
                    for tile in 0..4 {
                        for lane in 0..32 {
                            let (grp, t) = (lane / 4, lane % 4);
                            for i in 0..4 {
                                let (r, col) = (2 * t + (i & 1), 8 * grp + if i >= 2 { 4 } else { 0 } + tile);
                                let sum = shifts
                                    .iter()
                                    .enumerate()
                                    .fold(0u32, |x, (p, &sh)| x.wrapping_add((acc[p][tile][lane][i] as i32 as u32) << sh));
                                tile_sum[r][col] = tile_sum[r][col].wrapping_add(sum);
                            }
                        }
                    }
                }
                // store: the tile's entries inside C.
                for (r, row) in tile_sum.iter().enumerate() {
                    for (col, &sum) in row.iter().enumerate() {
                        if r < v && g * v + r < s.rows && n0 + col < n {
                            assert_eq!(c[(g * v + r) * n + n0 + col], i64::MIN, "C({}, {}) written twice", g * v + r, n0 + col);
                            c[(g * v + r) * n + n0 + col] = sum as i32 as i64;
                        }
                    }
                }
            }
        }
        c
    }

    #[test]
    fn one_warp_per_vector_row_and_tile_computes_the_product() {
        let mut x = 12345u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (l_bits, r_bits) in [(4, 4), (8, 4), (8, 8), (16, 4), (16, 8), (16, 16)] {
            let value = |x: u64, bits: usize| ((x as i64) << (64 - bits) >> (64 - bits)) as i16;
            for (rows, cols, n) in [(5, 70, 9), (16, 33, 64), (9, 140, 130)] {
                let (mut ptr, mut ind, mut val) = (vec![0i64], vec![], vec![]);
                for _ in 0..rows {
                    for c in 0..cols {
                        if next() % 3 == 0 {
                            ind.push(c as i64);
                            val.push(value(next(), l_bits));
                        }
                    }
                    ptr.push(ind.len() as i64);
                }
                let a = CsrInt { rows, cols, row_ptr: &ptr, col_ind: &ind, values: &val };
                let b: Vec<i16> = (0..cols * n).map(|_| value(next(), r_bits)).collect();
                let want: Vec<i64> = csr_times_dense(&a, &DenseInt { values: &b, row_stride: n, col_stride: 1 }, n)
                    .iter()
                    .map(|&x| x as i32 as i64)
                    .collect();
                for v in [2, 4, 8] {
                    for (native_s4, splits, scaled) in
                        [(true, 1, false), (false, 1, false), (false, 2, true), (true, 8, true), (false, 1, true)]
                    {
                        let got = warp_product(&SrBcrsHost::from_csr(&a, v, l_bits), &b, n, r_bits, native_s4, splits, scaled);
                        let what = format!(
                            "L{l_bits}-R{r_bits} {rows}x{cols}, n = {n}, V = {v}, native s4 {native_s4}, {splits} splits, scaled {scaled}"
                        );
                        assert_eq!(got, want, "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn nibbles_widen_and_transpose() {
        let w = 0x8F70_1E29u32; // nibbles 9, 2, E, 1, 0, 7, F, 8 from the lowest
        let bytes: Vec<i8> = widen_nibbles(w).iter().flat_map(|x| x.to_le_bytes()).map(|x| x as i8).collect();
        assert_eq!(bytes, vec![-7, 2, -2, 1, 0, 7, -1, -8]);
        let scaled: Vec<i8> = widen_nibbles_scaled(w).iter().flat_map(|x| x.to_le_bytes()).map(|x| x as i8).collect();
        assert_eq!(scaled, bytes.iter().map(|&x| x * 16).collect::<Vec<_>>());
        let mut m: [u32; 8] = std::array::from_fn(|j| (0..8).map(|c| ((j * 8 + c) as u32 & 0xF) << (4 * c)).sum());
        let orig = m;
        transpose8_nibbles(&mut m);
        for j in 0..8 {
            for c in 0..8 {
                assert_eq!((m[c] >> (4 * j)) & 0xF, (orig[j] >> (4 * c)) & 0xF, "({j}, {c})");
            }
        }
    }
}
