//! Metadata as it is made: strings, nodes, values wrapped as metadata, named metadata and a
//! global's attachments. Nodes are built as `LLVMMetadataRef` (the value-wrapped API folds a
//! node of one constant operand, `!{i32 1}`, into that constant, which is not a node).

use std::marker::PhantomData;

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use super::checks::{require, Built};
use super::types::cstring;
use super::value::Value;
use super::Module;

/// A metadata string or node of a module's context.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Metadata<'m> {
    raw: LLVMMetadataRef,
    module: PhantomData<&'m Module>,
}

impl std::fmt::Debug for Metadata<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Metadata({:p})", self.raw)
    }
}

impl<'m> Metadata<'m> {
    /// A handle for `raw`, or `None` for null.
    ///
    /// # Safety
    /// `raw` is null or metadata of the context of a module borrowed for `'m`.
    pub(super) unsafe fn new(raw: LLVMMetadataRef) -> Option<Metadata<'m>> {
        (!raw.is_null()).then_some(Metadata {
            raw,
            module: PhantomData,
        })
    }

    pub(super) fn raw(self) -> LLVMMetadataRef {
        self.raw
    }
}

impl Module {
    /// The metadata string `s`.
    pub fn md_string(&self, s: &str) -> Metadata<'_> {
        // SAFETY: a live context; LLVM copies the bytes (their length is passed).
        Metadata {
            raw: unsafe { LLVMMDStringInContext2(self.raw().0, s.as_ptr().cast(), s.len()) },
            module: PhantomData,
        }
    }

    /// The node `!{ops...}`.
    pub fn md_node<'m>(&'m self, ops: &[Metadata<'m>]) -> Metadata<'m> {
        let mut raw: Vec<LLVMMetadataRef> = ops.iter().map(|m| m.raw).collect();
        // SAFETY: a live context; metadata of it, in an array of the length passed.
        Metadata {
            raw: unsafe { LLVMMDNodeInContext2(self.raw().0, raw.as_mut_ptr(), raw.len()) },
            module: PhantomData,
        }
    }

    /// Append `node` to the module's named metadata `name` (made where it is missing).
    pub fn add_named_metadata<'m>(&'m self, name: &str, node: Metadata<'m>) {
        let n = cstring(name);
        // SAFETY: a live module and context; the node is of this context.
        unsafe {
            let (ctx, m) = self.raw();
            LLVMAddNamedMetadataOperand(m, n.as_ptr(), LLVMMetadataAsValue(ctx, node.raw));
        }
    }

    /// The module's named metadata `name`, made empty where it is missing.
    pub fn ensure_named_metadata(&self, name: &str) {
        // SAFETY: a live module; the name's length is passed.
        unsafe { LLVMGetOrInsertNamedMetadata(self.raw().1, name.as_ptr().cast(), name.len()) };
    }
}

impl<'m> Value<'m> {
    /// The value as metadata (`i32 1` in `!{i32 1}`).
    pub fn as_metadata(self) -> Metadata<'m> {
        // SAFETY: a live value; LLVM wraps any value.
        Metadata {
            raw: unsafe { LLVMValueAsMetadata(self.raw()) },
            module: PhantomData,
        }
    }

    /// Attach `!kind node` to a function or a global variable.
    pub fn set_metadata(self, module: &'m Module, kind: &str, node: Metadata<'m>) -> Built<()> {
        // SAFETY: the cast answers null for a value that is no global object.
        let g = unsafe { LLVMIsAGlobalObject(self.raw()) };
        require(
            !g.is_null(),
            "metadata on a value that is no function or variable",
            &[],
        )?;
        // SAFETY: a global object (checked) and a node of this module's context.
        unsafe {
            let id =
                LLVMGetMDKindIDInContext(module.raw().0, kind.as_ptr().cast(), kind.len() as u32);
            LLVMGlobalSetMetadata(g, id, node.raw);
        }
        Ok(())
    }
}
