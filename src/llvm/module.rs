//! [`Module`]: an LLVM context with one module parsed into it, owned and disposed together.

use std::ffi::{c_char, c_void, CStr};
use std::ptr;

use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
use llvm_sys::core::*;
use llvm_sys::prelude::*;

use super::value::Value;

/// How the bytes given to [`Module::parse`] encode the module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceForm {
    /// LLVM bitcode.
    Bitcode,
    /// LLVM IR text.
    Text,
}

/// An LLVM module in a context of its own (the safety argument, point 1: created and
/// disposed of here only).
pub struct Module {
    ctx: LLVMContextRef,
    module: LLVMModuleRef,
    /// What LLVM reported to the context, for its whole life (the handler's sink: boxed, so
    /// that its address stays put when the `Module` moves).
    #[allow(clippy::box_collection)]
    diagnostics: Box<Vec<String>>,
}

extern "C" fn collect_diagnostic(info: LLVMDiagnosticInfoRef, sink: *mut c_void) {
    // SAFETY: `sink` is the boxed `Vec<String>` of the `Module` that owns the context, which
    // lives as long as the context (the handler is called by nothing else); `info` is
    // LLVM's, valid during the call, and the description is LLVM's to dispose of.
    unsafe {
        let messages = &mut *(sink as *mut Vec<String>);
        let d = LLVMGetDiagInfoDescription(info);
        if !d.is_null() {
            messages.push(CStr::from_ptr(d).to_string_lossy().into_owned());
            LLVMDisposeMessage(d);
        }
    }
}

/// Take an LLVM message (possibly null) as a `String`, disposing of LLVM's copy.
///
/// # Safety
/// `msg` is null or a message LLVM allocated for the caller to dispose of.
unsafe fn take_message(msg: *mut c_char) -> Option<String> {
    if msg.is_null() {
        return None;
    }
    let text = CStr::from_ptr(msg).to_string_lossy().into_owned();
    LLVMDisposeMessage(msg);
    Some(text)
}

impl Module {
    /// An empty module named `name` in a new context, to be written (the SPIR writer; its
    /// instructions are made with a [`Builder`](super::Builder)).
    pub fn new(name: &str) -> Module {
        let name = std::ffi::CString::new(name.replace('\0', "")).unwrap_or_default();
        // SAFETY: plain constructors; each handle is owned by the result and disposed of once,
        // in `Drop` (point 1).
        unsafe {
            let ctx = LLVMContextCreate();
            Module {
                ctx,
                module: LLVMModuleCreateWithNameInContext(name.as_ptr(), ctx),
                diagnostics: Box::default(),
            }
        }
    }

    /// Parse `bytes`. LLVM's diagnostics are captured instead of reaching its default handler
    /// (which prints and exits the process), for the module's whole life; the error is their
    /// text, `; `-separated.
    pub fn parse(bytes: &[u8], form: SourceForm) -> Result<Module, String> {
        if form == SourceForm::Bitcode {
            if let Some(count) = super::bitstream::corrupted_count(bytes) {
                return Err(count);
            }
        }
        // SAFETY: the context is new and owned by `owner` (dropped, and so disposed of, on
        // every path); the diagnostic handler's sink is the owner's box, which lives as long
        // as the context; the memory buffer is a copy, disposed of here for bitcode and taken
        // by LLVM for text, as the two parsers document.
        unsafe {
            let mut owner = Module {
                ctx: LLVMContextCreate(),
                module: ptr::null_mut(),
                diagnostics: Box::default(),
            };
            LLVMContextSetDiagnosticHandler(
                owner.ctx,
                Some(collect_diagnostic),
                &mut *owner.diagnostics as *mut Vec<String> as *mut c_void,
            );
            let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
                bytes.as_ptr() as *const c_char,
                bytes.len(),
                c"input".as_ptr(),
            );
            let mut msg: *mut c_char = ptr::null_mut();
            let failed = match form {
                SourceForm::Bitcode => {
                    // The form that returns its error instead of reporting it to the context.
                    #[allow(deprecated)]
                    let r = llvm_sys::bit_reader::LLVMParseBitcodeInContext(
                        owner.ctx,
                        buf,
                        &mut owner.module,
                        &mut msg,
                    );
                    LLVMDisposeMemoryBuffer(buf);
                    r != 0
                }
                SourceForm::Text => {
                    llvm_sys::ir_reader::LLVMParseIRInContext(
                        owner.ctx,
                        buf,
                        &mut owner.module,
                        &mut msg,
                    ) != 0
                }
            };
            owner.diagnostics.extend(take_message(msg));
            for d in owner.diagnostics.iter_mut() {
                *d = in_user_words(d, bytes.len());
            }
            if failed || owner.module.is_null() {
                return Err(if owner.diagnostics.is_empty() {
                    "parse failed".to_string()
                } else {
                    owner.diagnostics.join("; ")
                });
            }
            Ok(owner)
        }
    }

    /// What LLVM said while it parsed the module (its warnings: debug information it
    /// dropped, ...), in order.
    pub fn diagnostics(&self) -> &[String] {
        &self.diagnostics
    }

    /// LLVM's verifier: its report when the module is broken.
    pub fn verify(&self) -> Result<(), String> {
        let mut msg: *mut c_char = ptr::null_mut();
        // SAFETY: a live module (point 1); the message is LLVM's to dispose of.
        unsafe {
            let broken = LLVMVerifyModule(
                self.module,
                LLVMVerifierFailureAction::LLVMReturnStatusAction,
                &mut msg,
            ) != 0;
            let text = take_message(msg).unwrap_or_default();
            if broken {
                Err(text)
            } else {
                Ok(())
            }
        }
    }

    /// The module's target triple.
    pub fn target(&self) -> String {
        // SAFETY: a live module; the triple is LLVM's (never null), copied out (point 4).
        unsafe {
            CStr::from_ptr(LLVMGetTarget(self.module))
                .to_string_lossy()
                .into_owned()
        }
    }

    /// The module's functions, definitions and declarations, in order.
    pub fn functions(&self) -> impl Iterator<Item = Value<'_>> {
        // SAFETY: a live module; each step asks for the next function of a function of it.
        let first = unsafe { Value::new(LLVMGetFirstFunction(self.module)) };
        std::iter::successors(first, |f| unsafe {
            Value::new(LLVMGetNextFunction(f.raw()))
        })
    }

    /// The module's global variables, in order.
    pub fn globals(&self) -> impl Iterator<Item = Value<'_>> {
        // SAFETY: a live module; each step asks for the next global of a global of it.
        let first = unsafe { Value::new(LLVMGetFirstGlobal(self.module)) };
        std::iter::successors(first, |g| unsafe { Value::new(LLVMGetNextGlobal(g.raw())) })
    }

    /// llvm-ir's conversion of this module (vendor/llvm-ir's `from_llvm_module`), or the
    /// panic it raised on a construct it does not model. The module is only read.
    pub fn to_llvm_ir(&self) -> std::thread::Result<llvm_ir::Module> {
        let raw = self.module;
        // SAFETY: a live module, which the conversion only reads and nothing changes or
        // disposes of during it (the `&self` borrow).
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| unsafe {
            llvm_ir::Module::from_llvm_module(raw)
        }))
    }

    /// The module as LLVM IR text.
    pub fn text(&self) -> Vec<u8> {
        // SAFETY: a live module; the string is LLVM's to dispose of.
        unsafe {
            take_message(LLVMPrintModuleToString(self.module))
                .unwrap_or_default()
                .into_bytes()
        }
    }

    /// The module written as bitcode.
    pub fn bitcode(&self) -> Vec<u8> {
        // SAFETY: a live module; the buffer is copied out, then disposed of.
        unsafe {
            let buf = llvm_sys::bit_writer::LLVMWriteBitcodeToMemoryBuffer(self.module);
            let bytes = std::slice::from_raw_parts(
                LLVMGetBufferStart(buf) as *const u8,
                LLVMGetBufferSize(buf),
            )
            .to_vec();
            LLVMDisposeMemoryBuffer(buf);
            bytes
        }
    }

    /// The raw context and module, for this room's other files.
    ///
    /// # Safety
    /// The caller uses them only while `self` is borrowed, disposes of neither, and deletes
    /// nothing in the module.
    pub(super) unsafe fn raw(&self) -> (LLVMContextRef, LLVMModuleRef) {
        (self.ctx, self.module)
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        // SAFETY: each was created by `parse` or `new` and is disposed of only here, the
        // context last (point 1).
        unsafe {
            if !self.module.is_null() {
                LLVMDisposeModule(self.module);
            }
            LLVMContextDispose(self.ctx)
        }
    }
}

/// LLVM's parse message in a user's words: a text position as a line and column (LLVM names
/// the buffer, `input:2:3: error: ...`, where the caller names the file), and a bitcode
/// reader that ran past the end (`can't skip to bit 19232 from 320`) as a truncated file.
fn in_user_words(message: &str, len: usize) -> String {
    if let Some(rest) = message.strip_prefix("input:") {
        let mut parts = rest.splitn(3, ':');
        if let (Some(line), Some(col), Some(what)) = (parts.next(), parts.next(), parts.next()) {
            if line.parse::<u64>().is_ok() && col.parse::<u64>().is_ok() {
                let what = what.trim_start().trim_start_matches("error: ");
                return format!("line {line}, column {col}: {what}");
            }
        }
    }
    let skip = message
        .strip_prefix("can't skip to bit ")
        .and_then(|r| r.split_whitespace().next())
        .and_then(|b| b.parse::<u64>().ok());
    if let Some(bit) = skip {
        return format!(
            "the file is truncated: it ends at byte {len}, where the bitcode goes on to byte {}",
            bit / 8
        );
    }
    message.to_string()
}
