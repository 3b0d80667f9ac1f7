//! Values used by an instruction must dominate it (cranelift's rule, and LLVM's and SPIR-V's):
//! an operand defined by an instruction of another block is defined in a block that
//! dominates the user's, and one of the same block comes before its user; a phi's incoming
//! value dominates the end of the edge it arrives on; a terminator's operands dominate its
//! block. Only uses in blocks reachable from the entry are checked: unreachable code is
//! dominated by everything (and writers drop it). In a shader-form function a Function
//! variable (`Alloca`) is declared at the entry wherever it is placed, so it dominates every
//! use.
//!
//! A structurizer repair gone wrong shows up here, with its block and instruction, rather
//! than as a consumer's message about words.

use crate::ir::cfg;
use crate::ir::function::{Body, Op, Terminator, Value};
use crate::ir::operands::for_each_operand;

/// Report each use in `body` that its definition does not dominate, through `push` (the
/// block of the use and the message). Instructions in no block are reported elsewhere.
pub(super) fn check(body: &Body, shader: bool, push: &mut dyn FnMut(Option<usize>, String)) {
    let n = body.blocks.len();
    let succ: Vec<Vec<usize>> = body
        .blocks
        .iter()
        .map(|b| {
            b.terminator
                .successors()
                .into_iter()
                .filter(|&s| s < n)
                .collect()
        })
        .collect();
    let idom = cfg::dominators(&succ, 0);
    let reachable = cfg::reachable(n, |b| succ[b].clone());
    // Where each placed instruction is: (block, position).
    let mut place = vec![None; body.insts.len()];
    for (bi, b) in body.blocks.iter().enumerate() {
        for (pos, ih) in b.insts.iter().enumerate() {
            if let Some(p) = place.get_mut(ih.index()) {
                *p = Some((bi, pos));
            }
        }
    }
    // Whether the value `v` is available at position `pos` of block `bi` (`usize::MAX`:
    // its end).
    let available = |v: Value, bi: usize, pos: usize| -> bool {
        let Value::Inst(h) = v else { return true };
        // A shader's Function variables are declared at its entry whatever block holds them
        // (the SPIR-V writer puts every one there).
        if shader && matches!(body.insts.get(h).map(|i| &i.op), Some(Op::Alloca { .. })) {
            return true;
        }
        match place.get(h.index()).copied().flatten() {
            None => true,
            Some((db, dp)) if db == bi => dp < pos,
            Some((db, _)) => reachable[db] && cfg::dominates(&idom, db, bi),
        }
    };
    let name = |v: Value| match v {
        Value::Inst(h) => format!("{h:?}"),
        other => format!("{other:?}"),
    };
    for (bi, b) in body.blocks.iter().enumerate() {
        if !reachable[bi] {
            continue;
        }
        for (pos, &ih) in b.insts.iter().enumerate() {
            let Some(inst) = body.insts.get(ih) else {
                continue;
            };
            if let Op::Phi { incoming } = &inst.op {
                for &(v, from) in incoming {
                    let from = from.0 as usize;
                    if from < n && reachable[from] && !available(v, from, usize::MAX) {
                        push(
                            Some(bi),
                            format!(
                                "phi {ih:?} takes {} from block {from}, where its definition \
                                 does not dominate the edge",
                                name(v)
                            ),
                        );
                    }
                }
                continue;
            }
            for_each_operand(&inst.op, |v| {
                if !available(v, bi, pos) {
                    push(
                        Some(bi),
                        format!(
                            "instruction {ih:?} uses {}, whose definition does not dominate it",
                            name(v)
                        ),
                    );
                }
            });
        }
        let used = match &b.terminator {
            Terminator::CondBranch { cond, .. } => Some(*cond),
            Terminator::Switch { value, .. } => Some(*value),
            Terminator::Return(v) => *v,
            Terminator::Branch(_) | Terminator::Unreachable => None,
        };
        if let Some(v) = used.filter(|&v| !available(v, bi, usize::MAX)) {
            push(
                Some(bi),
                format!(
                    "the terminator uses {}, whose definition does not dominate it",
                    name(v)
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Addressing, BinaryOp, Block, BlockId, Inst, Module};

    fn block(insts: Vec<crate::ir::Handle<Inst>>, terminator: Terminator) -> Block {
        Block {
            terminator_loc: None,
            name: None,
            insts,
            terminator,
            construct: None,
        }
    }

    /// entry: br c, a, b; a: x = p0 + p0; br join; b: br join; join: y = x + x.
    #[test]
    fn a_use_its_definition_does_not_dominate_is_reported() {
        let mut m = Module::new(Addressing::Physical64);
        let i32t = m.int_type(32);
        let mut body = Body::default();
        let add = |lhs, rhs| Op::Binary {
            op: BinaryOp::Add,
            lhs,
            rhs,
            flags: Default::default(),
        };
        let x = body.insts.append(Inst {
            loc: None,
            name: None,
            ty: i32t,
            op: add(Value::Param(0), Value::Param(0)),
        });
        let y = body.insts.append(Inst {
            loc: None,
            name: None,
            ty: i32t,
            op: add(Value::Inst(x), Value::Inst(x)),
        });
        body.blocks = vec![
            block(
                vec![],
                Terminator::CondBranch {
                    cond: Value::Param(1),
                    on_true: BlockId(1),
                    on_false: BlockId(2),
                },
            ),
            block(vec![x], Terminator::Branch(BlockId(3))),
            block(vec![], Terminator::Branch(BlockId(3))),
            block(vec![y], Terminator::Return(Some(Value::Inst(x)))),
        ];
        let mut found = Vec::new();
        check(&body, false, &mut |b, m| found.push((b, m)));
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found.iter().all(|(b, _)| *b == Some(3)), "{found:?}");
        // Defined in the block that dominates the join: no report.
        body.blocks[1].insts.clear();
        body.blocks[0].insts.push(x);
        let mut found = Vec::new();
        check(&body, false, &mut |b, m| found.push((b, m)));
        assert!(found.is_empty(), "{found:?}");
        // A use before its definition in one block.
        body.blocks[0].insts = vec![];
        body.blocks[3].insts = vec![y, x];
        let mut found = Vec::new();
        check(&body, false, &mut |b, m| found.push((b, m)));
        assert_eq!(found.len(), 2, "both operands of y: {found:?}");
    }
}
