//! spir-xlate: a bidirectional SPIR <-> SPIR-V translator for OpenCL device code.
//!
//! Readers lower their input into the semantic graph ([`ir`]); writers emit the other side
//! from it. No reader calls a writer.

pub mod contain;
pub mod diag;
pub mod ir;
pub mod mappings;
pub mod migrate;
pub mod options;
pub mod roundtrip;
pub mod spir;
pub mod spirv;
pub mod vulkan;

pub use diag::{Error, ErrorKind, Result};
pub use options::{Flavor, KernelInfo, Options, SpirOptions, TargetEnv, VulkanPointers};

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

/// Translate a SPIR file to SPIR-V words (validated for `options.target`). The whole
/// translation runs in a contained child process ([`contain`]): no input can abort the caller.
pub fn to_spirv(path: &Path, options: &Options) -> Result<Vec<u32>> {
    Ok(translate_to_spirv(path, options)?.words)
}

/// A SPIR-V module and, for a Vulkan target, its kernel interface as JSON.
#[derive(Debug)]
pub struct SpirvOutput {
    pub words: Vec<u32>,
    pub reflection: Option<String>,
}

/// Translate a SPIR file, or a SPIR-V module (decided by content), to SPIR-V for
/// `options.target`: for a Vulkan target the graph is lowered to shader form first
/// ([`vulkan::lower`]) and the kernel interface comes back as JSON too.
pub fn translate_to_spirv(path: &Path, options: &Options) -> Result<SpirvOutput> {
    let spirv_input = is_spirv_file(path);
    contain::run(contain::Work::ReadBitcode, options.limits, || {
        let module = if spirv_input {
            read_spirv(path)?
        } else {
            spir::read::read_path_in_process(path)?
        };
        write_spirv(&module, options)
    })
}

/// Write a graph as SPIR-V for `options.target` (lowered to shader form for Vulkan).
pub fn write_spirv(module: &ir::Module, options: &Options) -> Result<SpirvOutput> {
    if !options.target.is_vulkan() {
        return Ok(SpirvOutput {
            words: spirv::write::write(module, options)?,
            reflection: None,
        });
    }
    let shader = vulkan::lower(module, options)?;
    let words = spirv::write::write(&shader, options)?;
    Ok(SpirvOutput {
        words,
        reflection: Some(vulkan::reflection::json(&shader)),
    })
}

/// Translate a SPIR-V file to SPIR bitcode (or text). The translation runs in a contained
/// child process ([`contain`]): LLVM builds the output, and nothing it does can abort the caller.
pub fn to_spir(path: &Path, options: &SpirOptions) -> Result<Vec<u8>> {
    contain::run(
        contain::Work::WriteBitcode,
        contain::Limits::default(),
        || {
            let module = read_spirv(path)?;
            spir::write::write(&module, options)
        },
    )
}

/// SPIR-V disassembly text of a module: SPIRV-Tools' own (what `spirv-dis` prints).
pub fn disassemble(words: &[u32]) -> Result<String> {
    spirv::validate::disassemble(words)
}
