//! The `i8*` casts that exist only because `llvm.memcpy`/`memmove`/`memset` take `i8*`.
//!
//! LLVM's IRBuilder casts a copy's pointers to `i8*` with a `bitcast` instruction when they are
//! not constants; the graph's copy takes any pointer (as SPIR-V's OpCopyMemorySized does), so
//! such a cast is no part of the program. Which casts are used only so needs the use lists
//! llvm-ir does not have: this reads them through llvm-sys, and the body lowering binds each
//! listed cast's name to its operand instead of making an instruction.

use crate::hash::{HashMap, HashSet};

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMOpcode;

/// Per function name, the (block index, instruction index) of each bitcast used only as the
/// pointer operands of memory intrinsics, within one address space.
pub type MemoryCasts = HashMap<String, HashSet<(usize, usize)>>;

/// How many leading arguments of intrinsic `callee` are pointers it reads or writes through.
pub(super) fn pointer_args(callee: &str) -> u32 {
    if callee.starts_with("llvm.memcpy.") || callee.starts_with("llvm.memmove.") {
        2
    } else if callee.starts_with("llvm.memset.") {
        1
    } else {
        0
    }
}

/// Whether every use of `cast` is one of the pointer operands of a memory intrinsic, or a
/// marker the reader drops (`llvm.lifetime.*`, ...), and one is a memory intrinsic.
unsafe fn only_feeds_memory_intrinsics(cast: LLVMValueRef) -> bool {
    let mut feeds = false;
    let mut u = LLVMGetFirstUse(cast);
    while !u.is_null() {
        let user = LLVMGetUser(u);
        if LLVMIsACallInst(user).is_null() {
            return false;
        }
        let callee = super::local_names::value_name(LLVMGetCalledValue(user));
        if callee
            .strip_prefix("llvm.")
            .is_some_and(is_marker_intrinsic)
        {
            u = LLVMGetNextUse(u);
            continue;
        }
        let n = pointer_args(&callee);
        if n == 0 || (n..LLVMGetNumArgOperands(user)).any(|i| LLVMGetOperand(user, i) == cast) {
            return false;
        }
        feeds = true;
        u = LLVMGetNextUse(u);
    }
    feeds
}

/// Whether `cast` is a bitcast between pointers in one address space.
unsafe fn is_pointer_bitcast(cast: LLVMValueRef) -> bool {
    if LLVMGetInstructionOpcode(cast) != LLVMOpcode::LLVMBitCast {
        return false;
    }
    let (to, from) = (LLVMTypeOf(cast), LLVMTypeOf(LLVMGetOperand(cast, 0)));
    let pointer = |t| LLVMGetTypeKind(t) == llvm_sys::LLVMTypeKind::LLVMPointerTypeKind;
    pointer(to)
        && pointer(from)
        && LLVMGetPointerAddressSpace(to) == LLVMGetPointerAddressSpace(from)
}

/// The memory-intrinsic casts of every function in `m`.
///
/// # Safety
/// `m` must be a valid module.
pub unsafe fn memory_casts(m: LLVMModuleRef) -> MemoryCasts {
    let mut out = MemoryCasts::default();
    let mut f = LLVMGetFirstFunction(m);
    while !f.is_null() {
        let mut found = HashSet::default();
        let mut bb = LLVMGetFirstBasicBlock(f);
        let mut bi = 0;
        while !bb.is_null() {
            let mut inst = LLVMGetFirstInstruction(bb);
            let mut ii = 0;
            while !inst.is_null() {
                if is_pointer_bitcast(inst) && only_feeds_memory_intrinsics(inst) {
                    found.insert((bi, ii));
                }
                inst = LLVMGetNextInstruction(inst);
                ii += 1;
            }
            bb = LLVMGetNextBasicBlock(bb);
            bi += 1;
        }
        if !found.is_empty() {
            out.insert(super::local_names::value_name(f), found);
        }
        f = LLVMGetNextFunction(f);
    }
    out
}

/// Intrinsics that mark lifetimes, debug locations or assumptions: nothing in the graph.
pub(super) fn is_marker_intrinsic(intr: &str) -> bool {
    [
        "lifetime.start",
        "lifetime.end",
        "dbg.declare",
        "dbg.value",
        "dbg.label",
        "assume",
        "invariant.start",
        "invariant.end",
        "experimental.noalias.scope.decl",
    ]
    .iter()
    .any(|m| intr == *m || intr.strip_prefix(m).is_some_and(|r| r.starts_with('.')))
}
