//! One parse of the input serves both views of it (issue 21): llvm-ir converts the module
//! that LLVM already parsed for `metadata.rs`, instead of parsing the bytes again.
//!
//! llvm-ir 0.11 as published builds its `Module` only from a file it parses itself; the copy
//! this crate builds (vendor/llvm-ir, patched as vendor/README.md says) adds
//! `Module::from_llvm_module`, which converts a module LLVM already holds and leaves it to its
//! owner. [`convert`] takes the module's local value names out of it first
//! (`local_names.rs`): llvm-ir would copy each into every use.

use super::local_names::{self, Taken};
use crate::llvm;

/// What llvm-ir made of a module: its conversion, or its panic (on a construct it does not
/// model).
pub(super) type Parsed = std::thread::Result<llvm_ir::Module>;

/// llvm-ir's conversion of `module`, and the local names taken out of the module before it
/// (`local_names.rs`), with the flags of its instructions. The module is not read again after
/// this but for its disposal.
pub(super) fn convert(module: &mut llvm::Module) -> (Parsed, Vec<Taken>) {
    let taken = local_names::take(module);
    (module.to_llvm_ir(), taken)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn functions(parsed: Parsed) -> Vec<llvm_ir::Function> {
        parsed.expect("no panic").functions
    }

    /// llvm-ir converts a module that was changed in memory before it saw it (its half
    /// constants rewritten), and llvm-ir's own parse of that module's bitcode agrees.
    #[test]
    fn the_converted_module_is_the_module_as_changed() {
        let text = r#"
target triple = "spir64-unknown-unknown"
define spir_kernel void @k(half addrspace(1)* %p) {
  %v = load half, half addrspace(1)* %p
  %s = fadd half %v, 0xH3C00
  store half %s, half addrspace(1)* %p
  ret void
}
"#;
        let (_, module) = super::super::metadata::read_metadata(text.as_bytes(), false).unwrap();
        let converted = functions(module.to_llvm_ir());
        let dir = std::env::temp_dir().join(format!("spir-xlate-handoff-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("changed.bc");
        std::fs::write(&path, module.bitcode()).unwrap();
        let parsed = llvm_ir::Module::from_bc_path(&path).unwrap().functions;
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(!converted.is_empty());
        let text = format!("{converted:?}");
        assert!(
            text.contains(super::super::half_constants::MARKER),
            "{text}"
        );
        assert_eq!(converted, parsed);
    }
}
