//! Launchers for `kernels/srbcrs_spmm.cu`: the SR-BCRS build stages and the int8 SpMM.

use super::params::srbcrs::{SrBcrsBuildParams, SrBcrsSpmmParams};
use super::{grid_for, launch};
use crate::context::Handle;
use crate::error::Result;
use crate::types::DataType;

const FAMILY: &str = "srbcrs_spmm";
/// Vectors per stride block: the k depth of the int8 mma (`STRIDE` in the kernel).
pub const STRIDE: i64 = 32;
/// Threads of a build block (`BUILD_BLOCK`).
const BUILD_BLOCK: u32 = 256;
/// Warps of an SpMM block, one vector row each (`WARPS`).
const WARPS: u32 = 4;
/// Columns of B and C one warp covers (`TILE_N`).
pub const TILE_N: i64 = 64;
/// The most blocks along a grid's y extent (the driver's limit).
pub const MAX_GRID_Y: i64 = 65_535;

/// Writes each vector row's distinct column count into `p.counts`, and 1 into the flag after them
/// when a row's columns are unsorted, repeated or out of range.
pub fn count(h: &Handle, p: &SrBcrsBuildParams) -> Result<()> {
    launch(h, FAMILY, "oxs_srbcrs_count", (grid_for(p.vector_rows as u64, BUILD_BLOCK), 1, 1), BUILD_BLOCK, 0, p)
}

/// Writes the vectors' columns and values (over `p.vec_ptr`; `p.vec_val` must be zeroed).
pub fn fill(h: &Handle, p: &SrBcrsBuildParams) -> Result<()> {
    launch(h, FAMILY, "oxs_srbcrs_fill", (grid_for(p.vector_rows as u64, BUILD_BLOCK), 1, 1), BUILD_BLOCK, 0, p)
}

/// C = alpha A B + beta C; `out` is C's type (CUDA_R_32I or CUDA_R_32F). The caller checked that
/// the grid fits (`n <= TILE_N * MAX_GRID_Y`, `vector_rows <= WARPS * (2^31 - 1)`).
pub fn spmm(h: &Handle, p: &SrBcrsSpmmParams, out: DataType) -> Result<()> {
    let name = if out == DataType::CUDA_R_32I { "oxs_srbcrs_spmm_i8_i32" } else { "oxs_srbcrs_spmm_i8_f32" };
    let grid_x = (p.vector_rows as u64).div_ceil(WARPS as u64) as u32;
    let grid_y = (p.n as u64).div_ceil(TILE_N as u64) as u32;
    launch(h, FAMILY, name, (grid_x, grid_y, 1), WARPS * 32, 0, p)
}

/// A model of one warp of `oxs_srbcrs_spmm_*` on the CPU: the kernel's loads, byte permutes and
/// stores, and the PTX fragment layouts of mma.m16n8k32 s8 (A row-major 16 x 32, B 32 x 8 by
/// column, D 16 x 8), against the reference product. It checks the lane-to-column mapping and the
/// online transpose where no GPU is at hand.
#[cfg(test)]
#[allow(clippy::needless_range_loop)] // lanes and registers indexed as the kernel numbers them
mod warp_model {
    use crate::reference::srbcrs::{csr_times_dense, CsrI8, DenseI8, SrBcrsHost};

    /// `__byte_perm(x, y, s)`: byte i of the result is byte (nibble i of s) of y:x.
    fn byte_perm(x: u32, y: u32, s: u32) -> u32 {
        let both = (y as u64) << 32 | x as u64;
        (0..4).map(|i| (((both >> (8 * ((s >> (4 * i)) & 7))) & 0xff) as u32) << (8 * i)).sum()
    }

    fn transpose4(w: [u32; 4]) -> [u32; 4] {
        let (lo01, lo23) = (byte_perm(w[0], w[1], 0x5140), byte_perm(w[2], w[3], 0x5140));
        let (hi01, hi23) = (byte_perm(w[0], w[1], 0x7362), byte_perm(w[2], w[3], 0x7362));
        [byte_perm(lo01, lo23, 0x5410), byte_perm(lo01, lo23, 0x7632), byte_perm(hi01, hi23, 0x5410), byte_perm(hi01, hi23, 0x7632)]
    }

    fn byte(w: u32, i: usize) -> i64 {
        (w >> (8 * i)) as u8 as i8 as i64
    }

    /// D += A B over the 32 lanes' fragments, as the PTX ISA lays them out.
    fn mma(d: &mut [[i64; 4]; 32], a: &[[u32; 4]; 32], b: &[[u32; 2]; 32]) {
        let (mut am, mut bm) = ([[0i64; 32]; 16], [[0i64; 8]; 32]);
        for lane in 0..32 {
            let (g, t) = (lane / 4, lane % 4);
            for i in 0..4 {
                am[g][4 * t + i] = byte(a[lane][0], i);
                am[g + 8][4 * t + i] = byte(a[lane][1], i);
                am[g][16 + 4 * t + i] = byte(a[lane][2], i);
                am[g + 8][16 + 4 * t + i] = byte(a[lane][3], i);
                bm[4 * t + i][g] = byte(b[lane][0], i);
                bm[16 + 4 * t + i][g] = byte(b[lane][1], i);
            }
        }
        for lane in 0..32 {
            let (g, t) = (lane / 4, lane % 4);
            for (i, (m, n)) in [(g, 2 * t), (g, 2 * t + 1), (g + 8, 2 * t), (g + 8, 2 * t + 1)].into_iter().enumerate() {
                d[lane][i] += (0..32).map(|k| am[m][k] * bm[k][n]).sum::<i64>();
            }
        }
    }

    /// The kernel's C (rows x n, row-major, every entry written once) for B row-major (ld = n).
    fn warp_product(s: &SrBcrsHost, b: &[i8], n: usize) -> Vec<i64> {
        let v = s.vector_length;
        let mut c = vec![i64::MIN; s.rows * n];
        for g in 0..s.vec_ptr.len() - 1 {
            for n0 in (0..n).step_by(super::TILE_N as usize) {
                let mut acc = [[[0i64; 4]; 32]; 4];
                for block in s.vec_ptr[g] as usize / 32..s.vec_ptr[g + 1] as usize / 32 {
                    let (mut a, mut bf) = ([[[0u32; 4]; 32]; 4], [[0u32; 2]; 32]);
                    for lane in 0..32 {
                        let (grp, t) = (lane / 4, lane % 4);
                        let tile = &s.vec_val[block * 32 * v..];
                        let word = |at: usize| u32::from_le_bytes([0, 1, 2, 3].map(|i| tile[at + i] as u8));
                        if grp < v {
                            bf[lane] = [word(grp * 32 + 4 * t), word(grp * 32 + 16 + 4 * t)];
                        }
                        let ks: Vec<usize> =
                            (0..8).map(|j| s.vec_col[block * 32 + if j < 4 { 4 * t + j } else { 12 + 4 * t + j }] as usize).collect();
                        let chunk = |k: usize, half: usize| -> u32 {
                            (0..4)
                                .map(|i| n0 + 8 * grp + 4 * half + i)
                                .map(|col| if col < n { b[k * n + col] as u8 as u32 } else { 0 })
                                .enumerate()
                                .map(|(i, x)| x << (8 * i))
                                .sum()
                        };
                        let t0 = transpose4([0, 1, 2, 3].map(|j| chunk(ks[j], 0)));
                        let t1 = transpose4([0, 1, 2, 3].map(|j| chunk(ks[j], 1)));
                        let t2 = transpose4([4, 5, 6, 7].map(|j| chunk(ks[j], 0)));
                        let t3 = transpose4([4, 5, 6, 7].map(|j| chunk(ks[j], 1)));
                        for i in 0..4 {
                            a[i][lane] = [t0[i], t1[i], t2[i], t3[i]];
                        }
                    }
                    for i in 0..4 {
                        mma(&mut acc[i], &a[i], &bf);
                    }
                }
                for (tile, acc) in acc.iter().enumerate() {
                    for lane in 0..32 {
                        let (grp, t) = (lane / 4, lane % 4);
                        for i in 0..4 {
                            let (r, col) = (2 * t + (i & 1), n0 + 8 * grp + if i >= 2 { 4 } else { 0 } + tile);
                            if r < v && g * v + r < s.rows && col < n {
                                assert_eq!(c[(g * v + r) * n + col], i64::MIN, "C({}, {col}) written twice", g * v + r);
                                c[(g * v + r) * n + col] = acc[lane][i];
                            }
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
        for (rows, cols, n) in [(5, 70, 9), (16, 33, 64), (9, 40, 130)] {
            let (mut ptr, mut ind, mut val) = (vec![0i64], vec![], vec![]);
            for _ in 0..rows {
                for c in 0..cols {
                    if next() % 3 == 0 {
                        ind.push(c as i64);
                        val.push((next() % 255) as u8 as i8);
                    }
                }
                ptr.push(ind.len() as i64);
            }
            let a = CsrI8 { rows, cols, row_ptr: &ptr, col_ind: &ind, values: &val };
            let b: Vec<i8> = (0..cols * n).map(|_| next() as u8 as i8).collect();
            let want = csr_times_dense(&a, &DenseI8 { values: &b, row_stride: n, col_stride: 1 }, n);
            for v in [2, 4, 8] {
                assert_eq!(warp_product(&SrBcrsHost::from_csr(&a, v), &b, n), want, "{rows}x{cols}, n = {n}, V = {v}");
            }
        }
    }
}
