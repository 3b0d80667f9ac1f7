//! The changes the SPIR reader makes to a parsed module before llvm-ir converts it (the half
//! constants' marker calls, `spir/read/half_constants.rs`). Each keeps the module well-typed:
//! what it would make ill-typed it refuses with `None` or `false`.

use llvm_sys::core::*;

use super::value::{Type, TypeKind, Value};
use super::Module;

impl Module {
    /// The module's function `name` if it has one, else a new declaration of it returning
    /// `ret` from `params`. `None` where a function of that name exists with another type.
    pub fn declare_function<'m>(
        &'m self,
        name: &str,
        ret: Type<'m>,
        params: &[Type<'m>],
    ) -> Option<Value<'m>> {
        let fn_ty = self.function_type(ret, params, false).ok()?;
        match self.function_named(name) {
            None => self.add_function(name, fn_ty).ok(),
            Some(f) => (f.global_value_type() == Some(fn_ty)).then_some(f),
        }
    }

    /// A call of `callee` with `args`, inserted right before the instruction `before`. `None`
    /// where `before` is no placed instruction, `callee` no function, or the arguments do not
    /// match its parameters in number and type (the builder's checks).
    pub fn insert_call_before<'m>(
        &'m self,
        before: Value<'m>,
        callee: Value<'m>,
        args: &[Value<'m>],
    ) -> Option<Value<'m>> {
        let b = self.builder();
        b.position_before(before).ok()?;
        b.call(callee, args, "").ok()
    }
}

/// The width in bits of a scalar of kind integer or floating point; `None` for another type.
fn scalar_bits(t: Type) -> Option<u32> {
    match t.kind() {
        TypeKind::LLVMIntegerTypeKind => t.int_width(),
        TypeKind::LLVMHalfTypeKind => Some(16),
        TypeKind::LLVMFloatTypeKind => Some(32),
        TypeKind::LLVMDoubleTypeKind => Some(64),
        _ => None,
    }
}

/// The width in bits of a scalar or vector of scalars.
fn bits(t: Type) -> Option<u64> {
    match t.vector() {
        Some((elem, n)) => Some(u64::from(scalar_bits(elem)?) * u64::from(n)),
        None => scalar_bits(t).map(u64::from),
    }
}

impl<'m> Value<'m> {
    /// The constant's bits as type `to` (a constant bitcast); `None` for a value that is no
    /// constant or a type of another width (both must be scalars or vectors of scalars).
    pub fn const_bitcast(self, to: Type<'m>) -> Option<Value<'m>> {
        // SAFETY: asked of a constant only (point 3), cast to a type of the same width, which
        // is what a bitcast requires.
        unsafe {
            if LLVMIsAConstant(self.raw()).is_null() {
                return None;
            }
            if bits(self.type_of()).is_none() || bits(self.type_of()) != bits(to) {
                return None;
            }
            Value::new(LLVMConstBitCast(self.raw(), to.raw()))
        }
    }

    /// Make `v` the instruction's operand `i`. False (nothing changed) where the value is no
    /// instruction, has no operand `i`, or `v` is of another type than the operand it would
    /// replace.
    pub fn set_operand(self, i: u32, v: Value<'m>) -> bool {
        if self.opcode().is_none() {
            return false;
        }
        let Some(old) = self.operand(i) else {
            return false;
        };
        if old.type_of() != v.type_of() {
            return false;
        }
        // SAFETY: an instruction with an operand `i` (checked above), given a value of the
        // same type.
        unsafe { LLVMSetOperand(self.raw(), i, v.raw()) };
        true
    }
}
