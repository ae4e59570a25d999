//! The split-row table's bytes: its size, its header and its parts as uploaded; and the row
//! offsets preprocess reads back, decoded.

use super::SLOT_BYTES;

/// Decodes row offsets of `index_bytes` (4 or 8) bytes each, less `base`: row r is entries
/// offsets[r] .. offsets[r + 1].
pub fn offsets_from_bytes(bytes: &[u8], index_bytes: usize, base: i64) -> Vec<i64> {
    match index_bytes {
        4 => bytes.chunks_exact(4).map(|c| i32::from_ne_bytes(c.try_into().unwrap()) as i64 - base).collect(),
        _ => bytes.chunks_exact(8).map(|c| i64::from_ne_bytes(c.try_into().unwrap()) - base).collect(),
    }
}

/// Bytes of a table of `slots` slots: the token's 16, then the slots.
pub fn table_bytes(slots: i64) -> usize {
    SLOT_BYTES * (1 + slots.max(0) as usize)
}

/// The table's header: `token`, then 0 (one slot's bytes).
pub fn header(token: u64) -> [u8; SLOT_BYTES] {
    let mut h = [0u8; SLOT_BYTES];
    h[..8].copy_from_slice(&token.to_ne_bytes());
    h
}

/// The table as uploaded, in parts at their offsets from its start: the header, then the slots
/// as they lie in memory (not copied into one buffer of the table's bytes: fresh pages, 4 MB for
/// mdual's row-order table; and a byte-wise copy took 0.5 ms of EX5's 2.1 ms preprocess at N =
/// 32).
pub fn upload_parts<'a>(header: &'a [u8; SLOT_BYTES], slots: &'a [[u64; 2]]) -> [(usize, &'a [u8]); 2] {
    [(0, header), (SLOT_BYTES, slots_as_bytes(slots))]
}

/// Table slots as their bytes, in native order (as `to_ne_bytes` gives).
pub fn slots_as_bytes(slots: &[[u64; 2]]) -> &[u8] {
    // SAFETY: `[u64; 2]` has no padding and every byte of it is initialised, so the slots may be
    // read as bytes, for as long as they are borrowed.
    unsafe { std::slice::from_raw_parts(slots.as_ptr().cast::<u8>(), std::mem::size_of_val(slots)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_decode_with_base() {
        let bytes: Vec<u8> = [1i32, 3, 3, 7].iter().flat_map(|v| v.to_ne_bytes()).collect();
        assert_eq!(offsets_from_bytes(&bytes, 4, 1), vec![0, 2, 2, 6]);
        let bytes: Vec<u8> = [0i64, 5].iter().flat_map(|v| v.to_ne_bytes()).collect();
        assert_eq!(offsets_from_bytes(&bytes, 8, 0), vec![0, 5]);
    }
}
