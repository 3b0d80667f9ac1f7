//! What a translation reads ([`Input`]), and the one place a module's format is told: by its
//! first bytes, never by a file's name ([`format`]).

use std::borrow::Cow;
use std::path::Path;

use crate::diag::{io_words, Error, ErrorKind, Result};

/// SPIR-V's magic number as the first four bytes of a little-endian module.
const SPIRV_LE: [u8; 4] = [0x03, 0x02, 0x23, 0x07];
/// The same in a big-endian module.
const SPIRV_BE: [u8; 4] = [0x07, 0x23, 0x02, 0x03];
/// LLVM bitcode's magic, bare.
const BITCODE: [u8; 4] = *b"BC\xC0\xDE";
/// LLVM bitcode's magic inside a wrapper header (as Apple's tools write it).
const BITCODE_WRAPPER: [u8; 4] = [0xDE, 0xC0, 0x17, 0x0B];

/// A module's format, as its first bytes tell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// A SPIR-V module (either byte order).
    Spirv,
    /// LLVM bitcode (bare or wrapped).
    Bitcode,
    /// Anything else: LLVM IR text, or no module at all (its reader says which).
    Other,
}

/// The format of a module that starts with `bytes` (four are enough).
pub(crate) fn format(bytes: &[u8]) -> Format {
    let starts = |magic: &[u8; 4]| bytes.starts_with(magic);
    if starts(&SPIRV_LE) || starts(&SPIRV_BE) {
        Format::Spirv
    } else if starts(&BITCODE) || starts(&BITCODE_WRAPPER) {
        Format::Bitcode
    } else {
        Format::Other
    }
}

/// The format of the file at `path` ([`Format::Other`] for one that cannot be read: its
/// reader reports why).
pub(crate) fn file_format(path: &Path) -> Format {
    let mut magic = [0u8; 4];
    match std::fs::File::open(path).and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
    {
        Ok(()) => format(&magic),
        Err(_) => Format::Other,
    }
}

/// What a translation reads: a file, or a module already in memory. Converted from a path
/// (`&Path`, `&PathBuf`), bytes (`&[u8]`, `&Vec<u8>`: bitcode, LLVM IR text or SPIR-V) or a
/// SPIR-V module's words (`&[u32]`, `&Vec<u32>`).
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    /// A file, read whole.
    Path(&'a Path),
    /// A module in memory: bitcode, LLVM IR text or SPIR-V (either byte order).
    Bytes(&'a [u8]),
    /// A SPIR-V module's words.
    Words(&'a [u32]),
}

impl<'a> From<&'a Path> for Input<'a> {
    fn from(p: &'a Path) -> Self {
        Input::Path(p)
    }
}

impl<'a> From<&'a std::path::PathBuf> for Input<'a> {
    fn from(p: &'a std::path::PathBuf) -> Self {
        Input::Path(p)
    }
}

impl<'a> From<&'a [u8]> for Input<'a> {
    fn from(b: &'a [u8]) -> Self {
        Input::Bytes(b)
    }
}

impl<'a> From<&'a Vec<u8>> for Input<'a> {
    fn from(b: &'a Vec<u8>) -> Self {
        Input::Bytes(b)
    }
}

impl<'a> From<&'a [u32]> for Input<'a> {
    fn from(w: &'a [u32]) -> Self {
        Input::Words(w)
    }
}

impl<'a> From<&'a Vec<u32>> for Input<'a> {
    fn from(w: &'a Vec<u32>) -> Self {
        Input::Words(w)
    }
}

impl Input<'_> {
    /// The module's bytes (a file is read; words are their little-endian bytes).
    pub(crate) fn bytes(&self) -> Result<Cow<'_, [u8]>> {
        match *self {
            Input::Path(p) => std::fs::read(p)
                .map(Cow::Owned)
                .map_err(|e| Error::new(ErrorKind::Io(io_words(&e)))),
            Input::Bytes(b) => Ok(Cow::Borrowed(b)),
            Input::Words(w) => Ok(Cow::Owned(w.iter().flat_map(|w| w.to_le_bytes()).collect())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_by_content() {
        assert_eq!(format(&[0x03, 0x02, 0x23, 0x07, 0, 0]), Format::Spirv);
        assert_eq!(format(&[0x07, 0x23, 0x02, 0x03]), Format::Spirv);
        assert_eq!(format(b"BC\xC0\xDE\x35"), Format::Bitcode);
        assert_eq!(format(&[0xDE, 0xC0, 0x17, 0x0B]), Format::Bitcode);
        assert_eq!(format(b"; ModuleID"), Format::Other);
        assert_eq!(format(&[0x03, 0x02]), Format::Other);
    }
}
