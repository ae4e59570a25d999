//! The index helpers on the CPU: counting, not merging, so they share nothing with the kernels.

/// `Xcoo2csr`: the `m + 1` offsets of row indices (any order, all in `[base, m + base)`): a
/// count per row, then a running sum.
pub fn coo2csr(rows: &[i32], m: usize, base: i32) -> Vec<i32> {
    let mut offsets = vec![0i64; m + 1];
    for &r in rows {
        offsets[(r - base) as usize + 1] += 1;
    }
    for r in 0..m {
        offsets[r + 1] += offsets[r];
    }
    offsets.into_iter().map(|o| (o + base as i64) as i32).collect()
}

/// `Xcsr2coo`: each row's index repeated once per entry of the row.
pub fn csr2coo(offsets: &[i32], base: i32) -> Vec<i32> {
    let mut rows = Vec::new();
    for (r, w) in offsets.windows(2).enumerate() {
        rows.extend(std::iter::repeat_n(r as i32 + base, (w[1] - w[0]) as usize));
    }
    rows
}

/// `CreateIdentityPermutation`: 0, 1, ..., n - 1.
pub fn identity(n: usize) -> Vec<i32> {
    (0..n as i32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases_by_hand() {
        assert_eq!(coo2csr(&[0, 0, 2], 3, 0), [0, 2, 2, 3]);
        assert_eq!(coo2csr(&[1, 1, 3], 3, 1), [1, 3, 3, 4]);
        assert_eq!(coo2csr(&[], 2, 1), [1, 1, 1]);
        assert_eq!(csr2coo(&[0, 2, 2, 3], 0), [0, 0, 2]);
        assert_eq!(csr2coo(&[1, 3, 3, 4], 1), [1, 1, 3]);
        assert_eq!(identity(4), [0, 1, 2, 3]);
    }
}
