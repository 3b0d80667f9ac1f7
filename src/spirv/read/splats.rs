//! Vector conditions that only repeat one boolean.
//!
//! LLVM selects between vectors on a scalar condition; SPIR-V before 1.4 wants a condition as
//! wide as the operands, so the SPIR-V writer repeats the boolean with OpCompositeConstruct.
//! A select on such a condition is the select on the boolean (one graph form), and the
//! repeated vector is dropped when nothing else uses it.

use std::collections::HashMap;

use rspirv::dr::{Instruction, Operand};
use spirv::{Op as S, Word};

/// OpCompositeConstruct results whose constituents are one id repeated, with that id. Whether
/// it is a scalar boolean is the lowering's check.
pub(super) fn repeated(insts: &[(usize, Instruction)]) -> HashMap<Word, Word> {
    insts
        .iter()
        .filter(|(_, i)| i.class.opcode == S::CompositeConstruct && i.operands.len() > 1)
        .filter_map(|(_, i)| {
            let first = match i.operands.first() {
                Some(Operand::IdRef(x)) => *x,
                _ => return None,
            };
            let same = i.operands.iter().all(|o| *o == Operand::IdRef(first));
            Some((i.result_id?, first)).filter(|_| same)
        })
        .collect()
}
