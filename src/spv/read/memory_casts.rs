//! The pointer casts that exist only to feed memory copies.
//!
//! OpCopyMemorySized takes any pointer, but producers that come from LLVM (llvm-spirv, our own
//! spirv-ir hop) copy through `i8*` and write an OpBitcast to it before each copy. Such a cast
//! is no part of the copy: the graph's copy takes the pointer itself, as the SPIR reader's
//! does (spir/read/memory_casts.rs), so that a module means one graph from either side.

use crate::hash::{HashMap, HashSet};

use rspirv::dr::{Instruction, Operand};
use spirv::{Op as S, Word};

/// Result ids of the OpBitcasts in a function whose every use is a pointer operand of
/// OpCopyMemory/OpCopyMemorySized (or of OpLifetimeStart/Stop, which the reader drops), with
/// at least one copy among them. Whether each is a cast between pointers in one storage
/// class is the lowering's check.
pub(super) fn memory_casts(insts: &[(usize, Instruction)]) -> HashSet<Word> {
    // Per id: whether some use is not a memory operand, and whether one is a copy.
    let mut uses: HashMap<Word, (bool, bool)> = HashMap::default();
    for (_, inst) in insts {
        let op = inst.class.opcode;
        for (i, operand) in inst.operands.iter().enumerate() {
            let Operand::IdRef(id) = operand else {
                continue;
            };
            let entry = uses.entry(*id).or_default();
            match op {
                S::CopyMemory | S::CopyMemorySized if i < 2 => entry.1 = true,
                S::LifetimeStart | S::LifetimeStop if i == 0 => {}
                _ => entry.0 = true,
            }
        }
    }
    insts
        .iter()
        .filter(|(_, i)| i.class.opcode == S::Bitcast)
        .filter_map(|(_, i)| i.result_id)
        .filter(|id| uses.get(id).is_some_and(|&(other, copy)| copy && !other))
        .collect()
}
