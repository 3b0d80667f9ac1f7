//! Vector conditions that only repeat one boolean.
//!
//! LLVM selects between vectors on a scalar condition; SPIR-V before 1.4 wants a condition as
//! wide as the operands, so the SPIR-V writer repeats the boolean: inserted into every lane of
//! an OpUndef (OpCompositeInsert), or with OpCompositeConstruct (earlier versions of ours, and
//! other producers). A select on such a condition is the select on the boolean (one graph
//! form), and the repeated vector is dropped when nothing else uses it.

use crate::hash::HashMap;

use rspirv::dr::{Instruction, Operand};
use spirv::{Op as S, Word};

/// OpCompositeConstruct results whose constituents are one id repeated, with that id. Whether
/// it is a scalar boolean is the lowering's check.
pub(super) fn repeated(insts: &[(usize, Instruction)]) -> HashMap<Word, Word> {
    let mut found = inserted(insts);
    found.extend(constructed(insts));
    found
}

/// Chains of OpCompositeInsert of one id into lanes 0, 1, ... of a function-scope OpUndef:
/// each link with the id (lanes not yet written are undefined, so repeating the id there too
/// keeps the meaning).
fn inserted(insts: &[(usize, Instruction)]) -> HashMap<Word, Word> {
    let undefs: crate::hash::HashSet<Word> = insts
        .iter()
        .filter(|(_, i)| i.class.opcode == S::Undef)
        .filter_map(|(_, i)| i.result_id)
        .collect();
    let mut chains: HashMap<Word, (Word, u32)> = HashMap::default();
    for (_, i) in insts {
        if i.class.opcode != S::CompositeInsert {
            continue;
        }
        let (Some(r), [Operand::IdRef(x), Operand::IdRef(base), Operand::LiteralBit32(lane)]) =
            (i.result_id, &i.operands[..])
        else {
            continue;
        };
        let next = match chains.get(base) {
            Some(&(y, n)) if y == *x && n == *lane => Some((*x, n + 1)),
            None if undefs.contains(base) && *lane == 0 => Some((*x, 1)),
            _ => None,
        };
        if let Some(link) = next {
            chains.insert(r, link);
        }
    }
    chains.into_iter().map(|(r, (x, _))| (r, x)).collect()
}

/// OpCompositeConstruct of one id repeated.
fn constructed(insts: &[(usize, Instruction)]) -> HashMap<Word, Word> {
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
