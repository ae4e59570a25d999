//! Kernel instantiation names (`oxs_<op>_<types>_<index>`) built on the stack: a launch names its
//! kernel on every call, and a `format!` with its heap allocations and nested `String`s was a
//! visible part of a small call's host time (bench/notes/launch-path.md).

use std::fmt;

/// Bytes a name may hold; the longest instantiation name is under 60.
const CAPACITY: usize = 112;

/// A kernel name written with `write!` ([`kernel_name!`]) into an inline buffer. A name that
/// would not fit reads as [`KernelName::TOO_LONG`], which names no kernel, so its launch fails
/// with an error instead of running the wrong kernel.
#[derive(Clone, Copy)]
pub struct KernelName {
    len: u8,
    overflowed: bool,
    bytes: [u8; CAPACITY],
}

impl KernelName {
    pub const TOO_LONG: &'static str = "<kernel name too long>";

    pub fn new() -> KernelName {
        KernelName { len: 0, overflowed: false, bytes: [0; CAPACITY] }
    }

    /// The name (`TOO_LONG` after an overflow).
    pub fn as_str(&self) -> &str {
        if self.overflowed {
            return KernelName::TOO_LONG;
        }
        // Only whole `&str`s are ever copied in (`write_str`), so the bytes are UTF-8.
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or(KernelName::TOO_LONG)
    }

    /// A copy of `name` (for a launch recorded to go out later).
    pub fn copy_of(name: &str) -> KernelName {
        let mut n = KernelName::new();
        fmt::Write::write_str(&mut n, name).ok();
        n
    }
}

impl Default for KernelName {
    fn default() -> Self {
        KernelName::new()
    }
}

impl fmt::Write for KernelName {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let at = self.len as usize;
        if self.overflowed || at + s.len() > CAPACITY {
            self.overflowed = true;
            return Err(fmt::Error);
        }
        self.bytes[at..at + s.len()].copy_from_slice(s.as_bytes());
        self.len = (at + s.len()) as u8;
        Ok(())
    }
}

impl std::ops::Deref for KernelName {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for KernelName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for KernelName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// Type suffixes joined by `_` (`f16_f16_f32`), written straight into a name.
#[derive(Clone, Copy, Debug)]
pub struct Suffixes<const N: usize>(pub [&'static str; N]);

impl<const N: usize> fmt::Display for Suffixes<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("_")?;
            }
            f.write_str(s)?;
        }
        Ok(())
    }
}

/// `format!` for kernel names: the same arguments, a [`KernelName`] instead of a `String`.
#[macro_export]
macro_rules! kernel_name {
    ($($arg:tt)*) => {{
        let mut name = $crate::kernels::name::KernelName::new();
        // An overflow is kept in the name (it then reads as TOO_LONG).
        let _ = ::std::fmt::Write::write_fmt(&mut name, format_args!($($arg)*));
        name
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_as_format_would_write_them() {
        let shape = "_packed";
        let n = kernel_name!("oxs_spmm_split_rows{shape}_{}_{}", Suffixes(["f16", "f16", "f32"]), "i64");
        assert_eq!(n.as_str(), format!("oxs_spmm_split_rows{shape}_{}_{}", "f16_f16_f32", "i64"));
        assert_eq!(KernelName::copy_of(&n).as_str(), n.as_str());
        assert_eq!(kernel_name!("").as_str(), "");
    }

    #[test]
    fn a_name_too_long_reads_as_one_no_kernel_has() {
        let long = "x".repeat(CAPACITY + 1);
        assert_eq!(kernel_name!("{long}").as_str(), KernelName::TOO_LONG);
        assert_eq!(kernel_name!("{}{}", "y".repeat(CAPACITY), "z").as_str(), KernelName::TOO_LONG);
        assert_eq!(kernel_name!("{}", "y".repeat(CAPACITY)).len(), CAPACITY);
    }
}
