//! spir-xlate: a bidirectional SPIR <-> SPIR-V translator for OpenCL device code.
//!
//! Readers lower their input into the semantic graph ([`ir`]); writers emit the other side
//! from it. No reader calls a writer.

pub mod diag;
pub mod ir;
pub mod mappings;
pub mod options;
pub mod roundtrip;
pub mod spir;
pub mod spirv;

pub use diag::{Error, ErrorKind, Result};
pub use options::{Flavor, KernelInfo, Options, SpirOptions, TargetEnv};

use std::path::Path;

/// Read SPIR bitcode or LLVM text IR from a file into the graph.
pub fn read_spir(path: &Path) -> Result<ir::Module> {
    spir::read::read_path(path)
}

/// Read a SPIR-V module from a file into the graph.
pub fn read_spirv(path: &Path) -> Result<ir::Module> {
    spirv::read::read(&read_spirv_words(path)?)
}

/// The words of a SPIR-V file (either byte order).
pub fn read_spirv_words(path: &Path) -> Result<Vec<u32>> {
    let bytes = std::fs::read(path).map_err(|e| Error::new(ErrorKind::Io(e.to_string())))?;
    if spir::read::is_bitcode(&bytes) {
        return Err(Error::malformed(
            "this is LLVM bitcode, not a SPIR-V module (use `to-spirv`)",
        ));
    }
    spirv::read::words_from_bytes(&bytes)
}

/// True if the file starts with the SPIR-V magic number (either byte order).
pub fn is_spirv_file(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
        .is_ok()
        && (magic == [0x03, 0x02, 0x23, 0x07] || magic == [0x07, 0x23, 0x02, 0x03])
}

/// Read either input kind (decided by content, not by extension) into the graph.
pub fn read_any(path: &Path) -> Result<ir::Module> {
    if is_spirv_file(path) {
        read_spirv(path)
    } else {
        read_spir(path)
    }
}

/// Translate a SPIR file to SPIR-V words.
pub fn to_spirv(path: &Path, options: &Options) -> Result<Vec<u32>> {
    let module = read_spir(path)?;
    spirv::write::write(&module, options)
}

/// Translate a SPIR-V file to SPIR bitcode (or text).
pub fn to_spir(path: &Path, options: &SpirOptions) -> Result<Vec<u8>> {
    let module = read_spirv(path)?;
    spir::write::write(&module, options)
}

/// SPIR-V disassembly text (rspirv's disassembler) of a module.
pub fn disassemble(words: &[u32]) -> String {
    use rspirv::binary::Disassemble;
    let mut loader = rspirv::dr::Loader::new();
    match rspirv::binary::parse_words(words, &mut loader) {
        Ok(()) => loader.module().disassemble(),
        Err(e) => format!("; cannot disassemble: {e}"),
    }
}
