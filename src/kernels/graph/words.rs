//! Copies of kernel parameter blocks as 8-byte words: what a recorded launch sends, and what a
//! kept graph's node was last set to.

/// 8-byte words a recorded parameter block keeps inline: the largest of ours (the tensor-core
/// SpMM's, 384 bytes) fits, so recording a launch allocates nothing.
pub(super) const INLINE_WORDS: usize = 48;

/// A copy of a parameter block, inline or (a larger block) on the heap.
#[allow(clippy::large_enum_variant)] // inline on purpose: recording a launch must not allocate
pub(crate) enum ParamWords {
    Inline { words: [u64; INLINE_WORDS], len: usize },
    Heap(Vec<u64>),
}

impl ParamWords {
    pub(crate) fn copy_of<P: Copy>(params: &P) -> ParamWords {
        let bytes = std::mem::size_of::<P>();
        let mut words = match bytes.div_ceil(8) {
            n if n <= INLINE_WORDS => ParamWords::Inline { words: [0; INLINE_WORDS], len: n },
            n => ParamWords::Heap(vec![0; n]),
        };
        // SAFETY: the destination holds at least `bytes` bytes, aligned to 8 (P is a #[repr(C)]
        // block of at most 8-byte fields).
        unsafe { std::ptr::copy_nonoverlapping(params as *const P as *const u8, words.as_mut_slice().as_mut_ptr() as *mut u8, bytes) };
        words
    }

    /// The block's words (what a launch's argument points to).
    pub(super) fn as_mut_slice(&mut self) -> &mut [u64] {
        match self {
            ParamWords::Inline { words, len } => &mut words[..*len],
            ParamWords::Heap(w) => w,
        }
    }

    pub(crate) fn as_slice(&self) -> &[u64] {
        match self {
            ParamWords::Inline { words, len } => &words[..*len],
            ParamWords::Heap(w) => w,
        }
    }

    /// A copy of words taken before.
    pub(super) fn from_words(w: &[u64]) -> ParamWords {
        if w.len() <= INLINE_WORDS {
            let mut words = [0; INLINE_WORDS];
            words[..w.len()].copy_from_slice(w);
            ParamWords::Inline { words, len: w.len() }
        } else {
            ParamWords::Heap(w.to_vec())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block larger than the inline words is kept whole on the heap.
    #[test]
    fn a_block_beyond_the_inline_words_is_copied_whole() {
        let big: [u64; INLINE_WORDS + 3] = std::array::from_fn(|i| i as u64 * 3 + 1);
        let copy = ParamWords::copy_of(&big);
        assert!(matches!(copy, ParamWords::Heap(_)));
        assert_eq!(copy.as_slice(), &big[..]);
        let small = [5u64, 6];
        assert_eq!(ParamWords::copy_of(&small).as_slice(), &small[..]);
    }
}
