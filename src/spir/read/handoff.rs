//! One parse of the input serves both views of it (issue 21): llvm-ir converts the module
//! that LLVM already parsed for `metadata.rs`, instead of parsing the bytes again.
//!
//! llvm-ir 0.11 builds its `Module` only from a file it parses itself (`Module::from_bc_path`
//! calls `LLVMParseBitcodeInContext2`); it has no constructor from an `LLVMModuleRef`. So the
//! build links every reference to `LLVMParseBitcodeInContext2` to
//! [`__wrap_LLVMParseBitcodeInContext2`] instead (GNU ld's `--wrap`, `build.rs`), and
//! [`convert`] lends llvm-ir our module for the length of one `from_bc_path` call: the
//! wrapper finds it in this thread's hand-off slot and answers with it, and llvm-ir converts
//! it as if it had parsed it. Its own context, which it then disposes, never owns the module:
//! the module stays the caller's (`metadata::LlvmModule`), which disposes it.
//!
//! Before lending it, [`convert`] takes the module's local value names out of it
//! (`local_names.rs`): llvm-ir would copy each into every use. The module is not read again
//! after the conversion but for its disposal.
//!
//! The slot is set only inside [`convert`] and always emptied before it returns; no input
//! reaches it. Every other call of the wrapper (none in this crate) parses as LLVM does,
//! through `LLVMParseBitcodeInContext`, which returns a parse error instead of reporting it
//! through the context (where LLVM's default handler would exit the process).
//!
//! A binary linked without the wrap (cargo passes build scripts' link arguments to binaries,
//! tests and examples, not to every kind of target, e.g. doc tests) is detected by address,
//! and llvm-ir then reads the module written back as bitcode: the same module, parsed twice.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

use llvm_sys::prelude::*;

use crate::diag::Result;

thread_local! {
    /// The module lent to the `from_bc_path` call running on this thread, if any.
    static LENT: Cell<LLVMModuleRef> = const { Cell::new(std::ptr::null_mut()) };
}

/// What llvm-ir made of a module: its conversion, or its error or panic.
pub(super) type Parsed = std::thread::Result<std::result::Result<llvm_ir::Module, String>>;

/// Stands in for `LLVMParseBitcodeInContext2` wherever the binary was linked with
/// `--wrap=LLVMParseBitcodeInContext2`: the lent module if there is one, else a parse.
///
/// # Safety
/// As `LLVMParseBitcodeInContext2`: a valid context and buffer, and a writable `out`.
#[no_mangle]
pub unsafe extern "C" fn __wrap_LLVMParseBitcodeInContext2(
    ctx: LLVMContextRef,
    buf: LLVMMemoryBufferRef,
    out: *mut LLVMModuleRef,
) -> LLVMBool {
    let lent = LENT.with(|slot| slot.replace(std::ptr::null_mut()));
    if !lent.is_null() {
        *out = lent;
        return 0;
    }
    let mut message: *mut std::ffi::c_char = std::ptr::null_mut();
    #[allow(deprecated)]
    let failed = llvm_sys::bit_reader::LLVMParseBitcodeInContext(ctx, buf, out, &mut message);
    if !message.is_null() {
        llvm_sys::core::LLVMDisposeMessage(message);
    }
    failed
}

/// Whether this binary was linked with the wrap: references to LLVM's function then resolve to
/// ours.
fn wrapped() -> bool {
    let theirs: unsafe extern "C" fn(_, _, _) -> _ =
        llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
    std::ptr::fn_addr_eq(
        theirs,
        __wrap_LLVMParseBitcodeInContext2 as unsafe extern "C" fn(_, _, _) -> _,
    )
}

/// llvm-ir's conversion of `module`, which stays owned by the caller, and the local names
/// taken out of the module before it (`local_names.rs`; none for a binary without the wrap).
/// `bitcode` gives the module's bytes for a binary without the wrap (see the module comment).
pub(super) fn convert(
    module: LLVMModuleRef,
    bitcode: impl FnOnce() -> Vec<u8>,
) -> Result<(Parsed, Vec<super::local_names::Taken>)> {
    if !wrapped() {
        return Ok((reparse(&bitcode())?, Vec::new()));
    }
    // llvm-ir opens a file before it parses; what it holds is never read.
    let file = super::MemFile::new(&[])?;
    // SAFETY: the caller's valid module, used by nothing else during this call.
    let taken = unsafe { super::local_names::take(module) };
    LENT.with(|slot| slot.set(module));
    let parsed = catch_unwind(AssertUnwindSafe(|| {
        llvm_ir::Module::from_bc_path(file.path())
    }));
    // Taken by the wrapper unless llvm-ir failed before parsing (it could not open the file).
    LENT.with(|slot| slot.set(std::ptr::null_mut()));
    Ok((parsed, taken))
}

/// llvm-ir's own parse of `bitcode`, for a binary linked without the wrap.
pub(super) fn reparse(bitcode: &[u8]) -> Result<Parsed> {
    let file = super::MemFile::new(bitcode)?;
    Ok(catch_unwind(AssertUnwindSafe(|| {
        llvm_ir::Module::from_bc_path(file.path())
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn functions(parsed: Parsed) -> Vec<llvm_ir::Function> {
        parsed.expect("no panic").expect("converted").functions
    }

    /// The hand-off and llvm-ir's own parse of the same module agree, on a module whose half
    /// constants were rewritten (the module is changed in memory before llvm-ir sees it).
    #[test]
    fn the_lent_module_converts_as_its_bitcode_parses() {
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
        let lent = functions(convert(module.as_raw(), || unreachable!()).unwrap().0);
        let parsed = functions(reparse(&module.bitcode()).unwrap());
        assert!(!lent.is_empty());
        let text = format!("{lent:?}");
        assert!(
            text.contains(super::super::half_constants::MARKER),
            "{text}"
        );
        assert_eq!(lent, parsed);
    }

    /// Test binaries are linked as the tool is: with the wrap.
    #[test]
    fn the_binary_is_linked_with_the_wrap() {
        assert!(wrapped());
    }
}
