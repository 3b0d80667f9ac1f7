//! Handles borrowed from a [`Module`](super::Module): values (functions, parameters,
//! instructions, constants), their types, and basic blocks. Each is `Copy` and lives as long
//! as the module's borrow (the room's safety argument, point 2).

use std::marker::PhantomData;

use llvm_sys::core::*;
use llvm_sys::prelude::*;

pub use llvm_sys::LLVMOpcode as Opcode;
pub use llvm_sys::LLVMTypeKind as TypeKind;
pub use llvm_sys::LLVMValueKind as ValueKind;

use super::Module;

/// A value of a module: a function, a parameter, an instruction, a constant, ...
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Value<'m> {
    raw: LLVMValueRef,
    module: PhantomData<&'m Module>,
}

/// A type of a module's context.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Type<'m> {
    raw: LLVMTypeRef,
    module: PhantomData<&'m Module>,
}

/// A basic block of a function.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Block<'m> {
    raw: LLVMBasicBlockRef,
    module: PhantomData<&'m Module>,
}

/// The raw values of `vs`, for a C array argument.
pub(super) fn raw_values(vs: &[Value]) -> Vec<LLVMValueRef> {
    vs.iter().map(|v| v.raw()).collect()
}

/// The raw types of `ts`, for a C array argument.
pub(super) fn raw_types(ts: &[Type]) -> Vec<LLVMTypeRef> {
    ts.iter().map(|t| t.raw()).collect()
}

/// The sequence `first`, `next(first)`, ... up to the first null, as handles.
fn chain<R: Copy, H>(
    first: R,
    next: impl Fn(R) -> R,
    is_null: impl Fn(R) -> bool + Copy,
    wrap: impl Fn(R) -> H,
) -> impl Iterator<Item = H> {
    std::iter::successors(Some(first).filter(move |r| !is_null(*r)), move |r| {
        Some(next(*r)).filter(|r| !is_null(*r))
    })
    .map(wrap)
}

impl<'m> Value<'m> {
    /// A handle for `raw`, or `None` for null.
    ///
    /// # Safety
    /// `raw` is null or a value of a module borrowed for `'m`.
    pub(super) unsafe fn new(raw: LLVMValueRef) -> Option<Value<'m>> {
        (!raw.is_null()).then_some(Value {
            raw,
            module: PhantomData,
        })
    }

    /// A handle for `raw`, which is not null (what LLVM's constructors answer).
    ///
    /// # Safety
    /// `raw` is a value of a module borrowed for `'m`, not null.
    pub(super) unsafe fn new_unchecked(raw: LLVMValueRef) -> Value<'m> {
        Value {
            raw,
            module: PhantomData,
        }
    }

    pub(super) fn raw(self) -> LLVMValueRef {
        self.raw
    }

    /// The value's assembly text as LLVM prints it (a function: its whole definition).
    pub(super) fn printed(self) -> Option<String> {
        // SAFETY: a live value (point 2); the text LLVM prints is copied out and disposed of
        // once (point 4).
        unsafe {
            let p = LLVMPrintValueToString(self.raw);
            if p.is_null() {
                return None;
            }
            let s = std::ffi::CStr::from_ptr(p as *const std::ffi::c_char)
                .to_string_lossy()
                .into_owned();
            LLVMDisposeMessage(p);
            Some(s)
        }
    }

    /// Whether the value is a constant (a global's address included).
    pub fn is_constant(self) -> bool {
        // SAFETY: the cast answers null for a value of another kind.
        unsafe { !LLVMIsAConstant(self.raw).is_null() }
    }

    /// A constant integer's value, zero-extended; `None` for another value or one wider than
    /// 64 bits.
    pub fn const_int_value(self) -> Option<u64> {
        // SAFETY: asked of a constant integer of at most 64 bits only (point 3).
        unsafe {
            let k = LLVMIsAConstantInt(self.raw);
            (!k.is_null() && self.type_of().int_width().is_some_and(|w| w <= 64))
                .then(|| LLVMConstIntGetZExtValue(k))
        }
    }

    /// The block an instruction is in; `None` for another value or an instruction not placed.
    pub fn parent_block(self) -> Option<Block<'m>> {
        // SAFETY: asked of an instruction only (point 3).
        unsafe {
            let i = LLVMIsAInstruction(self.raw);
            if i.is_null() {
                return None;
            }
            Block::new(LLVMGetInstructionParent(i))
        }
    }

    /// The name LLVM holds for the value (empty for an unnamed value), copied out.
    pub fn name(self) -> String {
        let mut len = 0;
        // SAFETY: a live value (point 2); the name is LLVM's, copied before anything can change
        // it (point 4).
        unsafe {
            let p = LLVMGetValueName2(self.raw, &mut len);
            if p.is_null() || len == 0 {
                return String::new();
            }
            String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), len)).into_owned()
        }
    }

    /// Take the value's name out of the module (the value is unnamed afterwards); `None`
    /// where it had none.
    pub fn take_name(self) -> Option<Box<str>> {
        let name = self.name();
        if name.is_empty() {
            return None;
        }
        // SAFETY: a live value; an empty name is valid for every value, and the old name's
        // storage, which LLVM frees, was copied out above (point 4).
        unsafe { LLVMSetValueName2(self.raw, c"".as_ptr(), 0) };
        Some(name.into())
    }

    /// The value's type.
    pub fn type_of(self) -> Type<'m> {
        // SAFETY: a live value; every value has a type of its module's context.
        Type {
            raw: unsafe { LLVMTypeOf(self.raw) },
            module: PhantomData,
        }
    }

    /// The value as a function, if it is one.
    pub(super) fn function(self) -> Option<LLVMValueRef> {
        // SAFETY: a live value; the cast answers null for a value of another kind.
        let f = unsafe { LLVMIsAFunction(self.raw) };
        (!f.is_null()).then_some(f)
    }

    /// A function's parameters, in order (none for a value that is no function).
    pub fn params(self) -> impl Iterator<Item = Value<'m>> {
        // SAFETY: asked of a function only (point 3); the parameters are values of its module.
        let first = self
            .function()
            .map_or(std::ptr::null_mut(), |f| unsafe { LLVMGetFirstParam(f) });
        chain(
            first,
            |p| unsafe { LLVMGetNextParam(p) },
            |p| p.is_null(),
            |raw| Value {
                raw,
                module: PhantomData,
            },
        )
    }

    /// A function's blocks, in order (none for a declaration or a value that is no function).
    pub fn blocks(self) -> impl Iterator<Item = Block<'m>> {
        // SAFETY: asked of a function only (point 3); its blocks belong to its module.
        let first = self.function().map_or(std::ptr::null_mut(), |f| unsafe {
            if LLVMCountBasicBlocks(f) == 0 {
                std::ptr::null_mut()
            } else {
                LLVMGetFirstBasicBlock(f)
            }
        });
        chain(
            first,
            |b| unsafe { LLVMGetNextBasicBlock(b) },
            |b| b.is_null(),
            |raw| Block {
                raw,
                module: PhantomData,
            },
        )
    }

    /// Whether the value is a function with a body.
    pub fn is_definition(self) -> bool {
        // SAFETY: asked of a function only (point 3).
        self.function()
            .is_some_and(|f| unsafe { LLVMCountBasicBlocks(f) } > 0)
    }

    /// The instruction's opcode; `None` for a value that is no instruction.
    pub fn opcode(self) -> Option<Opcode> {
        // SAFETY: the opcode is asked of an instruction only (point 3).
        unsafe {
            let i = LLVMIsAInstruction(self.raw);
            (!i.is_null()).then(|| LLVMGetInstructionOpcode(i))
        }
    }

    /// The value's operand `i`, if it has one there (a user's operands: an instruction's or
    /// a constant expression's).
    pub fn operand(self, i: u32) -> Option<Value<'m>> {
        // SAFETY: the operand count is asked of a user only, and the index is below it
        // (point 3).
        unsafe {
            let user = LLVMIsAUser(self.raw);
            if user.is_null() || i32::try_from(i).map_or(true, |i| i >= LLVMGetNumOperands(user)) {
                return None;
            }
            Value::new(LLVMGetOperand(user, i))
        }
    }

    /// A call's callee and its number of arguments; `None` for a value that is no call.
    pub fn call(self) -> Option<(Value<'m>, u32)> {
        // SAFETY: both are asked of a call instruction only (point 3).
        unsafe {
            let call = LLVMIsACallInst(self.raw);
            if call.is_null() {
                return None;
            }
            Some((
                Value::new(LLVMGetCalledValue(call))?,
                LLVMGetNumArgOperands(call),
            ))
        }
    }

    /// How many operands the value has (0 for a value that is no user).
    pub fn operand_count(self) -> u32 {
        // SAFETY: the count is asked of a user only (point 3).
        unsafe {
            let user = LLVMIsAUser(self.raw);
            if user.is_null() {
                0
            } else {
                LLVMGetNumOperands(user).max(0) as u32
            }
        }
    }

    /// The value's kind (a constant of which sort, an instruction, an argument, ...).
    pub fn kind(self) -> ValueKind {
        // SAFETY: a live value.
        unsafe { LLVMGetValueKind(self.raw) }
    }

    /// A phi's incoming block `i`; `None` for a value that is no phi or has no such edge.
    pub fn incoming_block(self, i: u32) -> Option<Block<'m>> {
        // SAFETY: asked of a phi only, for an edge below its count (point 3).
        unsafe {
            let phi = LLVMIsAPHINode(self.raw);
            if phi.is_null() || i >= LLVMCountIncoming(phi) {
                return None;
            }
            Block::new(LLVMGetIncomingBlock(phi, i))
        }
    }

    /// The values that use this one, once per use.
    pub fn users(self) -> impl Iterator<Item = Value<'m>> {
        // SAFETY: a live value; its uses and their users belong to its module.
        chain(
            unsafe { LLVMGetFirstUse(self.raw) },
            |u| unsafe { LLVMGetNextUse(u) },
            |u| u.is_null(),
            |u| Value {
                raw: unsafe { LLVMGetUser(u) },
                module: PhantomData,
            },
        )
    }
}

impl<'m> Block<'m> {
    /// A handle for `raw`, or `None` for null.
    ///
    /// # Safety
    /// `raw` is null or a block of a module borrowed for `'m`.
    pub(super) unsafe fn new(raw: LLVMBasicBlockRef) -> Option<Block<'m>> {
        (!raw.is_null()).then_some(Block {
            raw,
            module: PhantomData,
        })
    }

    pub(super) fn raw(self) -> LLVMBasicBlockRef {
        self.raw
    }

    /// The function the block belongs to; `None` for a block outside one.
    pub fn parent(self) -> Option<Value<'m>> {
        // SAFETY: a live block; the answer is null or its function.
        unsafe { Value::new(LLVMGetBasicBlockParent(self.raw)) }
    }

    /// The block's terminator; `None` for a block that has none yet.
    pub fn terminator(self) -> Option<Value<'m>> {
        // SAFETY: a live block; the answer is null or an instruction of it.
        unsafe { Value::new(LLVMGetBasicBlockTerminator(self.raw)) }
    }

    /// The block's instructions, the terminator last.
    pub fn instructions(self) -> impl Iterator<Item = Value<'m>> {
        // SAFETY: a live block; its instructions belong to its module.
        chain(
            unsafe { LLVMGetFirstInstruction(self.raw) },
            |i| unsafe { LLVMGetNextInstruction(i) },
            |i| i.is_null(),
            |raw| Value {
                raw,
                module: PhantomData,
            },
        )
    }

    /// The block as a value (its name is the label's).
    pub fn as_value(self) -> Value<'m> {
        Value {
            // SAFETY: a live block.
            raw: unsafe { LLVMBasicBlockAsValue(self.raw) },
            module: PhantomData,
        }
    }
}

impl<'m> Type<'m> {
    /// A handle for `raw`.
    ///
    /// # Safety
    /// `raw` is a type of the context of a module borrowed for `'m`.
    pub(super) unsafe fn new(raw: LLVMTypeRef) -> Type<'m> {
        Type {
            raw,
            module: PhantomData,
        }
    }

    pub(super) fn raw(self) -> LLVMTypeRef {
        self.raw
    }

    /// An integer type's width in bits; `None` for a type that is no integer.
    pub fn int_width(self) -> Option<u32> {
        // SAFETY: asked of an integer type only (point 3).
        (self.kind() == TypeKind::LLVMIntegerTypeKind)
            .then(|| unsafe { LLVMGetIntTypeWidth(self.raw) })
    }

    /// A vector type's element type and length; `None` for a type that is no vector.
    pub fn vector(self) -> Option<(Type<'m>, u32)> {
        // SAFETY: asked of a vector type only (point 3); its element type is of its context.
        (self.kind() == TypeKind::LLVMVectorTypeKind).then(|| unsafe {
            (
                Type::new(LLVMGetElementType(self.raw)),
                LLVMGetVectorSize(self.raw),
            )
        })
    }

    /// The type's kind.
    pub fn kind(self) -> TypeKind {
        // SAFETY: a live type of the module's context.
        unsafe { LLVMGetTypeKind(self.raw) }
    }

    /// A pointer type's address space; `None` for a type that is no pointer.
    pub fn address_space(self) -> Option<u32> {
        // SAFETY: asked of a pointer type only (point 3).
        (self.kind() == TypeKind::LLVMPointerTypeKind)
            .then(|| unsafe { LLVMGetPointerAddressSpace(self.raw) })
    }
}
