//! The `i8*` casts that exist only because `llvm.memcpy`/`memmove`/`memset` take `i8*`.
//!
//! LLVM's IRBuilder casts a copy's pointers to `i8*` with a `bitcast` instruction when they are
//! not constants; the graph's copy takes any pointer (as SPIR-V's OpCopyMemorySized does), so
//! such a cast is no part of the program. Which casts are used only so needs the use lists
//! llvm-ir does not have: this reads them through llvm-sys, and the body lowering binds each
//! listed cast's name to its operand instead of making an instruction.

use crate::hash::{HashMap, HashSet};

use crate::llvm::{self, Opcode, Value};

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
fn only_feeds_memory_intrinsics(cast: Value) -> bool {
    let mut feeds = false;
    for user in cast.users() {
        let Some((callee, args)) = user.call() else {
            return false;
        };
        let callee = callee.name();
        if callee
            .strip_prefix("llvm.")
            .is_some_and(is_marker_intrinsic)
        {
            continue;
        }
        let n = pointer_args(&callee);
        if n == 0 || (n..args).any(|i| user.operand(i) == Some(cast)) {
            return false;
        }
        feeds = true;
    }
    feeds
}

/// Whether `cast` is a bitcast between pointers in one address space.
fn is_pointer_bitcast(cast: Value) -> bool {
    if cast.opcode() != Some(Opcode::LLVMBitCast) {
        return false;
    }
    let Some(from) = cast.operand(0) else {
        return false;
    };
    let to = cast.type_of().address_space();
    to.is_some() && to == from.type_of().address_space()
}

/// The memory-intrinsic casts of every function in `m`.
pub fn memory_casts(m: &llvm::Module) -> MemoryCasts {
    let mut out = MemoryCasts::default();
    for f in m.functions() {
        let mut found = HashSet::default();
        for (bi, bb) in f.blocks().enumerate() {
            for (ii, inst) in bb.instructions().enumerate() {
                if is_pointer_bitcast(inst) && only_feeds_memory_intrinsics(inst) {
                    found.insert((bi, ii));
                }
            }
        }
        if !found.is_empty() {
            out.insert(f.name(), found);
        }
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
