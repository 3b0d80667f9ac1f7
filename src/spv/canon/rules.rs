//! The rules of the canonical text that are not the walk itself: one spelling for each zero,
//! names without their uniquing suffixes, which constants are plain, the order blocks are
//! printed in, and the first difference of two texts.

use rspirv::dr::{Instruction, Operand};
use spirv::{Op, Word};

use crate::hash::HashMap;

/// Zero constants have several spellings that LLVM (and so a round trip through it) does not
/// keep apart: a composite of zeros is `ConstantNull`, and a scalar `ConstantNull` is the
/// constant 0.
pub(super) fn normalize_zero(op: Op, desc: String, ty: Option<String>) -> String {
    let Some(ty) = ty else { return desc };
    let is_zero = |o: &str| {
        o.starts_with("ConstantNull(") || o.ends_with(" 0)") && o.starts_with("Constant(")
    };
    match op {
        Op::ConstantNull if ty.starts_with("TypeInt(") || ty.starts_with("TypeFloat(") => {
            format!("Constant({ty} 0)")
        }
        Op::ConstantComposite => {
            let inner = &desc["ConstantComposite(".len()..desc.len() - 1];
            let parts = split_top(inner.strip_prefix(&ty).unwrap_or(inner));
            if !parts.is_empty() && parts.iter().all(|p| is_zero(p)) {
                format!("ConstantNull({ty})")
            } else {
                desc
            }
        }
        _ => desc,
    }
}

/// Split `a(b c) d` at top-level spaces.
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, ch) in s.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ' ' if depth == 0 => {
                if i > start {
                    out.push(&s[start..i]);
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// `name` without the `.N` LLVM appends to keep function names unique.
pub(super) fn strip_unique_suffix(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((b, n)) if !b.is_empty() && !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => {
            b
        }
        _ => name,
    }
}

/// Constants whose only meaning is their value (specialization constants are an interface).
pub(super) fn is_plain_constant(op: Op) -> bool {
    matches!(
        op,
        Op::Constant
            | Op::ConstantTrue
            | Op::ConstantFalse
            | Op::ConstantNull
            | Op::ConstantComposite
            | Op::ConstantSampler
            | Op::Undef
    )
}

pub(super) fn name_target(n: &Instruction) -> Option<Word> {
    match (n.class.opcode, n.operands.first()) {
        (Op::Name | Op::MemberName, Some(Operand::IdRef(t))) => Some(*t),
        _ => None,
    }
}

/// The blocks of a function in reverse post-order from the entry (successors in operand
/// order), then any unreachable ones in layout order: layout is not part of a module's meaning.
pub(super) fn block_order(f: &rspirv::dr::Function) -> Vec<&rspirv::dr::Block> {
    let index: HashMap<Word, usize> = f
        .blocks
        .iter()
        .enumerate()
        .filter_map(|(i, b)| Some((b.label.as_ref()?.result_id?, i)))
        .collect();
    let succs = |i: usize| -> Vec<usize> {
        let Some(t) = f.blocks[i].instructions.last() else {
            return vec![];
        };
        let targets: Vec<Word> = match t.class.opcode {
            Op::Branch | Op::BranchConditional | Op::Switch => t
                .operands
                .iter()
                .filter_map(|o| match o {
                    Operand::IdRef(id) if index.contains_key(id) => Some(*id),
                    _ => None,
                })
                .collect(),
            _ => vec![],
        };
        targets.iter().map(|id| index[id]).collect()
    };
    crate::ir::cfg::reverse_post_order(f.blocks.len(), succs)
        .into_iter()
        .map(|i| &f.blocks[i])
        .collect()
}

/// The first line where two canonical texts differ, with both versions.
pub fn first_difference(a: &str, b: &str) -> Option<String> {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    for i in 0..la.len().max(lb.len()) {
        let (x, y) = (la.get(i), lb.get(i));
        if x != y {
            return Some(format!(
                "line {}:\n  - {}\n  + {}",
                i + 1,
                x.unwrap_or(&"<end>"),
                y.unwrap_or(&"<end>")
            ));
        }
    }
    None
}
