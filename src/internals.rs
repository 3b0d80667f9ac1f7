//! The stages under [`translate`](crate::translate), open to the crate's own tests and
//! benchmarks with the `internals` feature (the integration tests turn it on through a
//! dev-dependency on the crate itself). **Not part of the versioned API**: anything here may
//! change in any release. A library user translates with [`crate::translate`] and looks
//! inside with [`crate::inspect`].

use crate::diag::Result;
use crate::input::Input;
use crate::options::{Options, SpirOptions};
use crate::{ir, pipeline, spir as spir_room, spv};

pub use crate::pipeline::{
    assemble_spirv, translate_to_spir, translate_to_spirv, SpirOutput, SpirvOutput,
};

/// The message a caught panic carried (`panic!` with a string or a format).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    crate::diag::panic_message(payload)
}

/// Rust's debug text in a message meant for users (`Some(IdRef(41))`, `Handle(3)`,
/// `ImageOperands(LOD | SIGN_EXTEND)`, `Foo { a: 1 }`): the first such piece found, if any.
/// The tests and the fuzz campaign judge refusals by it. LLVM's struct types (`{ i32, i8* }`,
/// `<{ i32 }>`), which a message may quote, are not Rust's: a struct's debug text names its
/// fields (`Name { field: ...`).
pub fn debug_text(message: &str) -> Option<&'static str> {
    const PIECES: [&str; 10] = [
        "Some(",
        "None)",
        "Ok(",
        "Err(",
        "IdRef(",
        "Handle(",
        "LiteralBit",
        "LiteralString(",
        "Operands(",
        "\\\"",
    ];
    if let Some(piece) = PIECES.into_iter().find(|p| message.contains(p)) {
        return Some(piece);
    }
    // `Name { field: ` or `Name { .. }`.
    message.match_indices(" { ").find_map(|(i, _)| {
        let named = message[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        let rest = &message[i + 3..];
        let field = rest
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .filter(|f| !f.is_empty())
            .is_some_and(|f| rest[f.len()..].starts_with(": "));
        (named && (field || rest.starts_with(".. }"))).then_some("Name { field: ...")
    })
}

/// SPIR (a file or bytes) to validated SPIR-V words (`translate_to_spirv`'s module).
pub fn to_spirv<'a>(input: impl Into<Input<'a>>, options: &Options) -> Result<Vec<u32>> {
    Ok(pipeline::translate_to_spirv(input, options)?.words)
}

/// SPIR-V (a file, bytes or words) to SPIR bitcode or text (`translate_to_spir`'s module).
pub fn to_spir<'a>(input: impl Into<Input<'a>>, options: &SpirOptions) -> Result<Vec<u8>> {
    Ok(pipeline::translate_to_spir(input, options)?.bytes)
}

/// Write a graph as SPIR-V for `options.target` (lowered to shader form for Vulkan).
pub fn write_spirv(module: &ir::Module, options: &Options) -> Result<SpirvOutput> {
    let out = pipeline::assemble_spirv(module, options)?;
    spv::validate::validate(&out.words, options.target)?;
    Ok(out)
}

/// The graph of a SPIR module (a file or bytes), LLVM's reader contained.
pub fn read_spir<'a>(input: impl Into<Input<'a>>) -> Result<ir::Module> {
    spir_room::read::read_bytes(&input.into().bytes()?)
}

/// The graph of a SPIR-V module (a file, bytes or words).
pub fn read_spirv<'a>(input: impl Into<Input<'a>>) -> Result<ir::Module> {
    spv::read::read(&pipeline::words(input)?)
}

/// The words of a SPIR-V module (a file, bytes or words; either byte order).
pub fn read_spirv_words<'a>(input: impl Into<Input<'a>>) -> Result<Vec<u32>> {
    Ok(pipeline::words(input)?.into_owned())
}

/// The SPIR writer, from a graph (no containment: for graphs the verifier accepts).
pub mod spir {
    pub use crate::spir::write::write;
}

/// The SPIR-V room's stages: its reader, writer, validator and canonical form.
pub mod spirv {
    pub use crate::spv::canon::{canonical_text, first_difference};
    pub use crate::spv::read::{read, words_from_bytes};
    pub use crate::spv::validate::{check, check_input, OPTIONAL_CAPABILITIES};
    pub use crate::spv::write::write;
}

/// The OpenCL C writer, from a graph.
pub mod clc {
    pub use crate::clc::write;
}

/// The structurizer (its property tests build graphs for it).
pub mod structurize {
    pub use crate::structurize::{structurize, Form};
}

/// The readers' normal forms (the property tests' generator builds conversions with them).
pub mod normal {
    pub use crate::normal::Converted;
}

/// LLVM's own text of a bitcode module (its disassembler, not this crate's reader): for tests
/// that compare what the input said with what a translation wrote.
pub fn llvm_text(bitcode: &[u8]) -> std::result::Result<String, String> {
    let m = crate::llvm::Module::parse(bitcode, crate::llvm::SourceForm::Bitcode)?;
    Ok(String::from_utf8_lossy(&m.text()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::debug_text;

    #[test]
    fn rust_debug_text_is_told_from_llvm_struct_types() {
        assert!(debug_text("at Loc { line: 3, col: 4 }").is_some());
        assert!(debug_text("a View { .. } here").is_some());
        assert!(debug_text("operand Some(IdRef(4))").is_some());
        assert!(debug_text("a call to (i32, <{ i32, i8 addrspace(4)* }>*)").is_none());
        assert!(debug_text("a global of type { i32, float }").is_none());
    }
}
