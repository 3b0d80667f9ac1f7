//! spir-xlate: a bidirectional SPIR <-> SPIR-V translator for OpenCL device code.
//!
//! Readers lower their input into the semantic graph ([`ir`]); writers emit the other side
//! from it. No reader calls a writer.

pub mod diag;
pub mod ir;
pub mod mappings;
pub mod options;
pub mod spir;
pub mod spirv;

pub use diag::{Error, ErrorKind, Result};
pub use options::{Options, TargetEnv};

use std::path::Path;

/// Read SPIR bitcode or LLVM text IR from a file into the graph.
pub fn read_spir(path: &Path) -> Result<ir::Module> {
    spir::read::read_path(path)
}

/// Translate a SPIR file to SPIR-V words.
pub fn to_spirv(path: &Path, options: &Options) -> Result<Vec<u32>> {
    let module = read_spir(path)?;
    spirv::write::write(&module, options)
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
