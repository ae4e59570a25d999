//! Launcher for `kernels/srbcrs_sddmm.cu`: the integer SDDMM on an SR-BCRS object's stored slots.

use super::launch_keyed;
use super::module::{KernelKey, Site};
use super::params::srbcrs_sddmm::SrBcrsSddmmParams;
use crate::context::Handle;
use crate::error::Result;
use crate::kernel_name;
use crate::types::DataType;

const FAMILY: &str = "srbcrs_sddmm";
/// Warps of a block (`WARPS`).
const WARPS: u32 = 2;
/// Vectors a warp computes (`WARP_VECTORS`): every object's stride is a multiple of it.
pub const WARP_VECTORS: i64 = 32;

/// The widest K at which the int4 pairs take their scaled kernels (`s`: int4 widened to 16 times
/// its value, the sums shifted back): each set's scaled sums then stay within int32 (at most
/// 2^15 a product, int16's unsigned low byte by 16 times an int4 included).
pub const MAX_SCALED_K: i64 = 1 << 16;

/// Whether an int4 pair takes its half-step kernel (`h`: 16 elements a lane, 64 k's a step) for
/// this K: where a 128-k step would be half empty or more (K <= 64), and for int16 A up to K = 256,
/// where the full step's registers (125 against 92) cost more than its fewer steps save
/// (`h200-2026-12-02-srbcrs-sddmm-half-steps`).
pub fn half_steps((a_bits, b_bits): (i32, i32), k: i64, scaled: bool) -> bool {
    scaled && b_bits == 4 && (k <= 64 || (a_bits == 16 && k <= 256))
}

/// out = alpha A B at the slots + beta out; `pair` the bits of A's and B's values (4-4, 8-4, 8-8,
/// 16-4, 16-8 or 16-16), `out` the output's type (CUDA_R_32I or CUDA_R_32F). The caller checked
/// that `p.warps > 0` and the grid fits (`warps / WARPS` below 2^31).
pub fn sddmm(h: &Handle, p: &SrBcrsSddmmParams, (a_bits, b_bits): (i32, i32), out: DataType) -> Result<()> {
    let scaled = b_bits == 4 && p.k <= MAX_SCALED_K;
    let half = half_steps((a_bits, b_bits), p.k, scaled);
    // Found by key: a call is a few microseconds, and building the name costs a fraction of one.
    let key = KernelKey::new(Site::SrBcrsSddmm, &[a_bits as u8, b_bits as u8, scaled as u8, half as u8, out as u8]);
    let name = || {
        let (s, h) = (if scaled { "s" } else { "" }, if half { "h" } else { "" });
        kernel_name!("oxs_srbcrs_sddmm_l{a_bits}r{b_bits}{s}{h}_{}", out.kernel_suffix())
    };
    let grid_x = (p.warps as u64).div_ceil(WARPS as u64) as u32;
    launch_keyed(h, FAMILY, key, name, (grid_x, 1, 1), WARPS * 32, 0, p)
}

/// A model of one warp of `oxs_srbcrs_sddmm_*` on the CPU: the kernel's lines as stored (int4
/// nibbles, int8 bytes, int16 halves), its k permutation (lane t's 16 or 32 elements per step
/// feed all its mmas, in k order or even / odd), the widening (scaled or sign-extended) and byte
/// splits into parts, the PTX fragment layouts of mma.m16n8k32 s8/u8 (`int_mma_model`), the
/// weighted sets, their descaling and combination, and the stores in the object's value order,
/// against the reference. It checks the mapping where no GPU is at hand.
#[cfg(test)]
#[allow(clippy::needless_range_loop)] // lanes and registers indexed as the kernel numbers them
mod warp_model {
    use super::super::int_mma_model::{high_bytes, low_bytes, mma, widen_nibbles, widen_nibbles_scaled};
    use crate::reference::srbcrs::{stride, CsrInt, DenseInt, SrBcrsHost};
    use crate::reference::srbcrs_sddmm::srbcrs_sddmm;

    /// `line_load`: `n` elements of a line from `k0` as stored (`n * bits / 32` words, element i
    /// at bits `bits * i` of the words as one little-endian number), zero at k or past.
    fn line_load(line: Option<&dyn Fn(usize) -> i64>, k0: usize, k: usize, bits: usize, n: usize) -> Vec<u32> {
        let mut w = vec![0u32; n * bits / 32];
        if let Some(at) = line {
            for i in (0..n).filter(|i| k0 + i < k) {
                let stored = (at(k0 + i) as u32) & ((1u64 << bits) - 1) as u32;
                w[i * bits / 32] |= stored << (i * bits % 32);
            }
        }
        w
    }

    /// `to_parts`: `n / 4` byte words per part, eight elements at a time: int4 widened (scaled:
    /// 16 times the value) in even / odd k order or in k order; int8 permuted to even / odd or
    /// kept; int16's part 0 its signed high bytes, part 1 its unsigned low bytes, in k order.
    fn to_parts(raw: &[u32], bits: usize, n: usize, even_odd: bool, scaled: bool) -> Vec<Vec<u32>> {
        let mut p = vec![vec![0u32; n / 4]; if bits == 16 { 2 } else { 1 }];
        let sign = |x: u32| ((x ^ 0x08080808).wrapping_add(0x78787878)) ^ 0x80808080;
        for j in 0..n / 8 {
            let pair = match (bits, even_odd, scaled) {
                (4, true, true) => [(raw[j] << 4) & 0xF0F0F0F0, raw[j] & 0xF0F0F0F0],
                (4, true, false) => [sign(raw[j] & 0x0F0F0F0F), sign((raw[j] >> 4) & 0x0F0F0F0F)],
                (4, false, true) => widen_nibbles_scaled(raw[j]),
                (4, false, false) => widen_nibbles(raw[j]),
                (8, true, _) => [low_bytes(raw[2 * j], raw[2 * j + 1]), high_bytes(raw[2 * j], raw[2 * j + 1])],
                (8, false, _) => [raw[2 * j], raw[2 * j + 1]],
                _ => {
                    for h in 0..2 {
                        p[0][2 * j + h] = high_bytes(raw[4 * j + 2 * h], raw[4 * j + 2 * h + 1]);
                        p[1][2 * j + h] = low_bytes(raw[4 * j + 2 * h], raw[4 * j + 2 * h + 1]);
                    }
                    continue;
                }
            };
            p[0][2 * j] = pair[0];
            p[0][2 * j + 1] = pair[1];
        }
        p
    }

    /// The kernel's output for A of `la` bits and B of `lb` bits, int4 widened scaled or not
    /// (value order; i64::MIN where never written; 0 written as 0; the sets combined exactly,
    /// not wrapped).
    fn warp_sddmm(s: &SrBcrsHost, a: &DenseInt, b: &DenseInt, k: usize, (la, lb): (usize, usize), scaled: bool) -> Vec<i64> {
        let (v, st) = (s.vector_length, stride(s.value_bits));
        // ELEMS, EVEN_ODD and the descaling shift of the pair's kernel.
        let n = if la == 4 || lb == 4 { 32 } else { 16 };
        let even_odd = la <= 8 && lb == 4;
        let descale = if scaled { 4 * ((la == 4) as u32 + (lb == 4) as u32) } else { 0 };
        let mut out = vec![i64::MIN; s.vec_col.len() * v];
        for warp in 0..s.vec_col.len() / 32 {
            let first = 32 * warp;
            let g = (0..s.vec_ptr.len() - 1).rfind(|&g| s.vec_ptr[g] as usize <= first).unwrap();
            // acc[set][tile]: set = how many int16 high parts the pair multiplies.
            let mut acc = [[[[0i64; 4]; 32]; 2]; 3];
            let mut real = [[[false; 2]; 2]; 32];
            for lane in 0..32 {
                for (i, h) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    let at = first + 16 * i + 8 * h + lane / 4;
                    real[lane][i][h] = at == s.vec_ptr[g] as usize || s.vec_col[at] != s.vec_col[at - 1];
                }
            }
            for k0 in (0..k).step_by(4 * n) {
                // Per lane: the A row's parts, and each tile's vectors g and g + 8's parts.
                let mut rows = vec![vec![]; 32];
                let mut cols = vec![[[vec![], vec![]], [vec![], vec![]]]; 32];
                for lane in 0..32 {
                    let (grp, t) = (lane / 4, lane % 4);
                    let at = k0 + n * t;
                    let row = g * v + grp;
                    let a_line = |i: usize| a.at(row, i);
                    let raw = line_load((grp < v && row < s.rows).then_some(&a_line as &dyn Fn(usize) -> i64), at, k, la, n);
                    rows[lane] = to_parts(&raw, la, n, even_odd, scaled);
                    for i in 0..2 {
                        for h in 0..2 {
                            let c = s.vec_col[first + 16 * i + 8 * h + grp] as usize;
                            let raw = line_load(Some(&|i: usize| b.at(i, c)), at, k, lb, n);
                            cols[lane][i][h] = to_parts(&raw, lb, n, even_odd, scaled);
                        }
                    }
                }
                for i in 0..2 {
                    for pa in 0..rows[0].len() {
                        for pb in 0..cols[0][0][0].len() {
                            let set = (la == 16 && pa == 0) as usize + (lb == 16 && pb == 0) as usize;
                            // mma_parts: mma s takes words 2 s, 2 s + 1 of every part.
                            for step in 0..n / 8 {
                                let (mut af, mut bf) = ([[0u32; 4]; 32], [[0u32; 2]; 32]);
                                for lane in 0..32 {
                                    let (v0, v8) = (&cols[lane][i][0][pb], &cols[lane][i][1][pb]);
                                    af[lane] = [v0[2 * step], v8[2 * step], v0[2 * step + 1], v8[2 * step + 1]];
                                    bf[lane] = [rows[lane][pa][2 * step], rows[lane][pa][2 * step + 1]];
                                }
                                mma(&mut acc[set][i], &af, &bf, 8, (pb == 0, pa == 0));
                            }
                        }
                    }
                }
            }
            // store: tile i, lane (group, thread): d[j] at row 2 t + (j & 1) of vector
            // first + 16 i + 8 (j >> 1) + group, at (q / S) S V + r S + q % S.
            let in_block = first % st;
            for i in 0..2 {
                for lane in 0..32 {
                    let (grp, t) = (lane / 4, lane % 4);
                    for j in 0..4 {
                        let (r, h) = (2 * t + (j & 1), j >> 1);
                        if r >= v {
                            continue;
                        }
                        let at = (first - in_block) * v + in_block + r * st + 16 * i + 8 * h + grp;
                        assert_eq!(out[at], i64::MIN, "slot {at} written twice");
                        let value = (0..3)
                            .map(|set| {
                                let sum = acc[set][i][lane][j];
                                assert_eq!(sum % (1 << descale), 0, "a scaled sum is a multiple of the scale");
                                (sum >> descale) << (8 * set)
                            })
                            .sum();
                        out[at] = if real[lane][i][h] && g * v + r < s.rows { value } else { 0 };
                    }
                }
            }
        }
        out
    }

    #[test]
    fn one_warp_per_32_vectors_computes_every_slot_for_every_pair() {
        let mut x = 9876u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        // A value of `bits` bits over its full range.
        let full = |r: u64, bits: usize| ((r % (1 << bits)) as i64 - (1 << (bits - 1))) as i16;
        let pairs = [(4, 4), (8, 4), (8, 8), (16, 4), (16, 8), (16, 16)];
        for (t, (rows, cols, k, a_row_major, b_col_major)) in
            [(5, 70, 64, true, true), (16, 40, 33, true, false), (9, 100, 300, false, true), (3, 37, 1, false, false)]
                .into_iter()
                .enumerate()
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
            for (p, (la, lb)) in pairs.into_iter().enumerate() {
                let a_val: Vec<i16> = (0..rows * k).map(|_| full(next(), la)).collect();
                let b_val: Vec<i16> = (0..k * cols).map(|_| full(next(), lb)).collect();
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
                    // The object's type only sets its stride (64 for int4): both orders.
                    let object_bits = [8, 4, 16][(t + p + v) % 3];
                    let s = SrBcrsHost::from_csr(&csr, v, object_bits);
                    let want: Vec<i64> = srbcrs_sddmm(&s, &a, &b, k).into_iter().map(|x| x.unwrap_or(0)).collect();
                    for scaled in [false, true].into_iter().filter(|&sc| !sc || lb == 4) {
                        let got = warp_sddmm(&s, &a, &b, k, (la, lb), scaled);
                        assert_eq!(got, want, "{rows}x{cols}, k = {k}, V = {v}, L{la}-R{lb}, scaled {scaled}, int{object_bits} object");
                    }
                }
            }
        }
    }

    #[test]
    fn half_steps_go_to_small_k_and_int4_b_only() {
        for k in [1, 33, 64] {
            for pair in [(4, 4), (8, 4), (16, 4)] {
                assert!(super::half_steps(pair, k, true), "{pair:?} at K = {k}");
                assert!(!super::half_steps(pair, k, false), "{pair:?} at K = {k}, sign-extending");
            }
        }
        for k in [65, 256] {
            assert!(super::half_steps((16, 4), k, true));
            assert!(!super::half_steps((8, 4), k, true) && !super::half_steps((4, 4), k, true));
        }
        assert!(!super::half_steps((16, 4), 257, true));
        for pair in [(8, 8), (16, 8), (16, 16)] {
            assert!(!super::half_steps(pair, 64, true));
        }
    }
}
