//! Launcher for `kernels/srbcrs_sddmm.cu`: the int8 SDDMM on an SR-BCRS object's stored slots.

use super::launch;
use super::params::srbcrs_sddmm::SrBcrsSddmmParams;
use crate::context::Handle;
use crate::error::Result;
use crate::types::DataType;

const FAMILY: &str = "srbcrs_sddmm";
/// Warps of a block, one stride block each (`WARPS`).
const WARPS: u32 = 2;

/// out = alpha A B at the slots + beta out; `out` is the output's type (CUDA_R_32I or
/// CUDA_R_32F). The caller checked that `p.blocks > 0` and the grid fits (`blocks / WARPS` below
/// 2^31).
pub fn sddmm(h: &Handle, p: &SrBcrsSddmmParams, out: DataType) -> Result<()> {
    let name = if out == DataType::CUDA_R_32I { "oxs_srbcrs_sddmm_i8_i32" } else { "oxs_srbcrs_sddmm_i8_f32" };
    let grid_x = (p.blocks as u64).div_ceil(WARPS as u64) as u32;
    launch(h, FAMILY, name, (grid_x, 1, 1), WARPS * 32, 0, p)
}

/// A model of one warp of `oxs_srbcrs_sddmm_*` on the CPU: the kernel's lines, its k permutation
/// (lane t's 16 bytes per step feed both mmas), the PTX fragment layouts of mma.m16n8k32 s8 (A
/// row-major 16 x 32, B 32 x 8 by column, D 16 x 8) and its stores, against the reference. It
/// checks the mapping where no GPU is at hand.
#[cfg(test)]
#[allow(clippy::needless_range_loop)] // lanes and registers indexed as the kernel numbers them
mod warp_model {
    use crate::reference::srbcrs::{CsrInt, DenseInt, SrBcrsHost};
    use crate::reference::srbcrs_sddmm::srbcrs_sddmm;

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

    /// `line16`: 16 elements of a line from `k0` as four little-endian words, zero at k or past.
    fn line16(line: Option<&dyn Fn(usize) -> i8>, k0: usize, k: usize) -> [u32; 4] {
        let mut w = [0u32; 4];
        if let Some(at) = line {
            for i in (0..16).filter(|i| k0 + i < k) {
                w[i / 4] |= (at(k0 + i) as u8 as u32) << (8 * (i % 4));
            }
        }
        w
    }

    /// The kernel's output (value order; i64::MIN where never written; 0 written as 0).
    fn warp_sddmm(s: &SrBcrsHost, a: &DenseInt, b: &DenseInt, k: usize) -> Vec<i64> {
        let v = s.vector_length;
        let mut out = vec![i64::MIN; s.vec_col.len() * v];
        for block in 0..s.vec_col.len() / 32 {
            let g = (0..s.vec_ptr.len() - 1).rfind(|&g| s.vec_ptr[g] as usize <= 32 * block).unwrap();
            let mut acc = [[[0i64; 4]; 32]; 2];
            let mut real = [[[false; 2]; 2]; 32];
            for lane in 0..32 {
                for (i, h) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    let at = 32 * block + 16 * i + 8 * h + lane / 4;
                    real[lane][i][h] = at == s.vec_ptr[g] as usize || s.vec_col[at] != s.vec_col[at - 1];
                }
            }
            for k0 in (0..k).step_by(64) {
                // A fragments per tile and mma of the step; B fragments per mma of the step.
                let (mut af, mut bf) = ([[[[0u32; 4]; 32]; 2]; 2], [[[0u32; 2]; 32]; 2]);
                for lane in 0..32 {
                    let (grp, t) = (lane / 4, lane % 4);
                    let at = k0 + 16 * t;
                    let row = g * v + grp;
                    let a_line = |i: usize| a.values[row * a.row_stride + i * a.col_stride] as i8;
                    let r = line16((grp < v && row < s.rows).then_some(&a_line as &dyn Fn(usize) -> i8), at, k);
                    // mma_stage: the step's mma 0 takes words x, y of every line; mma 1 z, w.
                    for step in 0..2 {
                        bf[step][lane] = [r[2 * step], r[2 * step + 1]];
                    }
                    for i in 0..2 {
                        let [v0, v8] = [0, 1].map(|h| {
                            let c = s.vec_col[32 * block + 16 * i + 8 * h + grp] as usize;
                            line16(Some(&|i: usize| b.values[i * b.row_stride + c * b.col_stride] as i8), at, k)
                        });
                        for step in 0..2 {
                            af[i][step][lane] = [v0[2 * step], v8[2 * step], v0[2 * step + 1], v8[2 * step + 1]];
                        }
                    }
                }
                for i in 0..2 {
                    for step in 0..2 {
                        mma(&mut acc[i], &af[i][step], &bf[step]);
                    }
                }
            }
            // store: tile i, lane (group, thread): d[j] at row 2 t + (j & 1) of vector 16 i + 8 (j >> 1) + group.
            for i in 0..2 {
                for lane in 0..32 {
                    let (grp, t) = (lane / 4, lane % 4);
                    for j in 0..4 {
                        let (r, h) = (2 * t + (j & 1), j >> 1);
                        if r >= v {
                            continue;
                        }
                        let at = block * 32 * v + r * 32 + 16 * i + 8 * h + grp;
                        assert_eq!(out[at], i64::MIN, "slot {at} written twice");
                        out[at] = if real[lane][i][h] && g * v + r < s.rows { acc[i][lane][j] } else { 0 };
                    }
                }
            }
        }
        out
    }

    #[test]
    fn one_warp_per_stride_block_computes_every_slot() {
        let mut x = 9876u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (rows, cols, k, a_row_major, b_col_major) in
            [(5, 70, 64, true, true), (16, 40, 33, true, false), (9, 100, 130, false, true), (3, 37, 1, false, false)]
        {
            let (mut ptr, mut ind, mut val) = (vec![0i64], vec![], vec![]);
            for _ in 0..rows {
                for c in 0..cols {
                    if next() % 3 == 0 {
                        ind.push(c as i64);
                        val.push(1);
                    }
                }
                ptr.push(ind.len() as i64);
            }
            let csr = CsrInt { rows, cols, row_ptr: &ptr, col_ind: &ind, values: &val };
            let a_val: Vec<i16> = (0..rows * k).map(|_| next() as u8 as i8 as i16).collect();
            let b_val: Vec<i16> = (0..k * cols).map(|_| next() as u8 as i8 as i16).collect();
            let a = if a_row_major {
                DenseInt { values: &a_val, row_stride: k, col_stride: 1 }
            } else {
                DenseInt { values: &a_val, row_stride: 1, col_stride: rows }
            };
            let b = if b_col_major {
                DenseInt { values: &b_val, row_stride: 1, col_stride: k }
            } else {
                DenseInt { values: &b_val, row_stride: cols, col_stride: 1 }
            };
            for v in [2, 4, 8] {
                let s = SrBcrsHost::from_csr(&csr, v, 8);
                let want: Vec<i64> = srbcrs_sddmm(&s, &a, &b, k).into_iter().map(|x| x.unwrap_or(0)).collect();
                assert_eq!(warp_sddmm(&s, &a, &b, k), want, "{rows}x{cols}, k = {k}, V = {v}");
            }
        }
    }
}
