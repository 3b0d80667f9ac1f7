//! Reading metadata: named metadata of a module, the nodes and strings in it, and the nodes
//! attached to a function; with the constant and attribute queries the SPIR reader asks of
//! what it finds there.

use std::ffi::{c_char, CString};

use llvm_sys::core::*;

use super::value::Value;
use super::Module;

impl Module {
    /// The operands of the named metadata `name` (none where the module has no such node).
    pub fn named_metadata(&self, name: &str) -> Vec<Value<'_>> {
        let Ok(c) = CString::new(name) else {
            return Vec::new();
        };
        // SAFETY: a live module (point 1); the array has room for the count LLVM gave, and
        // each operand is a value of the module's context (point 2).
        unsafe {
            let (_, m) = self.raw();
            let n = LLVMGetNamedMetadataNumOperands(m, c.as_ptr());
            let mut v = vec![std::ptr::null_mut(); n as usize];
            if n > 0 {
                LLVMGetNamedMetadataOperands(m, c.as_ptr(), v.as_mut_ptr());
            }
            v.into_iter().filter_map(|raw| Value::new(raw)).collect()
        }
    }

    /// Whether the module has the named metadata `name` (empty or not).
    pub fn has_named_metadata(&self, name: &str) -> bool {
        // SAFETY: a live module; the name is passed with its length.
        unsafe {
            let (_, m) = self.raw();
            !LLVMGetNamedMetadata(m, name.as_ptr().cast(), name.len()).is_null()
        }
    }

    /// The names of the module's named metadata, in order.
    pub fn named_metadata_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        // SAFETY: a live module; each name is LLVM's, copied out (point 4).
        unsafe {
            let (_, m) = self.raw();
            let mut nm = LLVMGetFirstNamedMetadata(m);
            while !nm.is_null() {
                let mut len = 0usize;
                let p = LLVMGetNamedMetadataName(nm, &mut len);
                if !p.is_null() {
                    let bytes = std::slice::from_raw_parts(p as *const u8, len);
                    out.push(String::from_utf8_lossy(bytes).into_owned());
                }
                nm = LLVMGetNextNamedMetadata(nm);
            }
        }
        out
    }

    /// The context's number for the metadata kind `name` (`!kernel_arg_type`, ...).
    pub fn metadata_kind(&self, name: &str) -> u32 {
        // SAFETY: a live context; the name is passed with its length.
        unsafe {
            let (ctx, _) = self.raw();
            LLVMGetMDKindIDInContext(ctx, name.as_ptr() as *const c_char, name.len() as u32)
        }
    }

    /// The metadata nodes attached to `global` (a function or a global variable), each with
    /// its kind; none for a value that is no global object.
    pub fn attached_metadata<'m>(&'m self, global: Value<'m>) -> Vec<(u32, Value<'m>)> {
        let mut out = Vec::new();
        // SAFETY: asked of a global object only (point 3); the entries are read below their
        // count and disposed of once; each node becomes a value of the module's context.
        unsafe {
            let (ctx, _) = self.raw();
            let g = LLVMIsAGlobalObject(global.raw());
            if g.is_null() {
                return out;
            }
            let mut count = 0usize;
            let entries = LLVMGlobalCopyAllMetadata(g, &mut count);
            for i in 0..count as u32 {
                let kind = LLVMValueMetadataEntriesGetKind(entries, i);
                let node =
                    LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(entries, i));
                out.extend(Value::new(node).map(|node| (kind, node)));
            }
            if !entries.is_null() {
                LLVMDisposeValueMetadataEntries(entries);
            }
        }
        out
    }
}

/// LLVM's number for the enum attribute `name` (`readonly`, ...); 0 for none.
pub fn attribute_kind(name: &str) -> u32 {
    // SAFETY: the name is passed with its length; the call reads nothing else.
    unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len()) }
}

impl<'m> Value<'m> {
    /// A metadata node's operands, in order (`None` for a null operand); empty for a value
    /// that is no node.
    pub fn node_operands(self) -> Vec<Option<Value<'m>>> {
        // SAFETY: asked of a node only (point 3); the array has room for the count LLVM gave.
        unsafe {
            if LLVMIsAMDNode(self.raw()).is_null() {
                return Vec::new();
            }
            let n = LLVMGetMDNodeNumOperands(self.raw());
            let mut v = vec![std::ptr::null_mut(); n as usize];
            if n > 0 {
                LLVMGetMDNodeOperands(self.raw(), v.as_mut_ptr());
            }
            v.into_iter().map(|raw| Value::new(raw)).collect()
        }
    }

    /// A metadata string's text, copied out; `None` for a value that is no string.
    pub fn metadata_string(self) -> Option<String> {
        // SAFETY: asked of a metadata string only (point 3); copied out (point 4).
        unsafe {
            if LLVMIsAMDString(self.raw()).is_null() {
                return None;
            }
            let mut len = 0u32;
            let p = LLVMGetMDString(self.raw(), &mut len);
            if p.is_null() {
                return None;
            }
            let bytes = std::slice::from_raw_parts(p as *const u8, len as usize);
            Some(String::from_utf8_lossy(bytes).into_owned())
        }
    }

    /// An integer constant's value, zero-extended; `None` for a value that is no integer
    /// constant.
    pub fn const_int(self) -> Option<u64> {
        // SAFETY: asked of an integer constant only (point 3).
        unsafe {
            (!LLVMIsAConstantInt(self.raw()).is_null())
                .then(|| LLVMConstIntGetZExtValue(self.raw()))
        }
    }

    /// Whether the value is a function.
    pub fn is_function(self) -> bool {
        self.function().is_some()
    }

    /// Whether the value is a constant expression (a bitcast of a function, in LLVM 3.2's
    /// metadata).
    pub fn is_constant_expr(self) -> bool {
        // SAFETY: a live value; the cast answers null for another kind.
        unsafe { !LLVMIsAConstantExpr(self.raw()).is_null() }
    }

    /// A function's calling convention; `None` for a value that is no function.
    pub fn calling_convention(self) -> Option<u32> {
        // SAFETY: asked of a function only (point 3).
        self.is_function()
            .then(|| unsafe { LLVMGetFunctionCallConv(self.raw()) })
    }

    /// How many parameters a function has (0 for a value that is no function).
    pub fn param_count(self) -> u32 {
        // SAFETY: asked of a function only (point 3).
        if self.is_function() {
            unsafe { LLVMCountParams(self.raw()) }
        } else {
            0
        }
    }

    /// Whether a function's parameter `i` has the enum attribute of kind `kind`
    /// ([`attribute_kind`]); false for a value that is no function or no such parameter.
    pub fn param_has_attribute(self, i: u32, kind: u32) -> bool {
        // SAFETY: asked of a function only, for one of its parameters (point 3); attribute
        // index 0 is the return value, parameters start at 1.
        i < self.param_count()
            && unsafe { !LLVMGetEnumAttributeAtIndex(self.raw(), i + 1, kind).is_null() }
    }
}
