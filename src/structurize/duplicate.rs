//! Copies of a block for one edge into it (`structurize`'s remedy for an edge into another
//! construct). LLVM's jump threading leaves selections that share a tail: `entry` branches
//! to `a` or to `b`, `b` branches to `tail` or to `end`, and `a` also goes to `tail`, so
//! `tail` lies in `b`'s construct and is entered from outside it. Giving the edge `a →
//! tail` a copy of `tail` and of every block `tail` dominates makes each copy a part of one
//! construct, and the function stays structured instead of becoming a dispatch loop (which
//! is slower, and where a barrier follows, wrong: work-items would meet it in different
//! turns of the loop).
//!
//! The copy is sound in the shader form because values cross blocks only where their
//! definition dominates the use: a value the region defines is used only inside it (phis
//! are Function variables by now), and the copy's blocks use the copy's values. A region
//! whose values are used outside it, that holds a phi, or that is large is not copied.

use crate::hash::HashMap;
use crate::ir::{cfg, Block, Body, Handle, Inst, Op, Value};

/// Copies one function may get before it becomes a dispatch loop instead.
pub(super) const MAX_COPIES: usize = 32;

/// Blocks and instructions a copied region may have.
const MAX_BLOCKS: usize = 256;
const MAX_INSTS: usize = 8192;

/// Give edge `from → to` its own copy of `to` and the blocks it dominates; false where
/// that is not done (see the module docs).
pub(super) fn copy_for_edge(body: &mut Body, from: usize, to: usize) -> bool {
    if to == 0 {
        return false;
    }
    let s = super::cfg_edit::succs(body);
    let idom = cfg::dominators(&s, 0);
    let region: Vec<usize> = (0..body.blocks.len())
        .filter(|&b| idom[b].is_some() && cfg::dominates(&idom, to, b))
        .collect();
    let insts: usize = region.iter().map(|&b| body.blocks[b].insts.len()).sum();
    if region.len() > MAX_BLOCKS || insts > MAX_INSTS || region.contains(&from) {
        return false;
    }
    let inside: crate::hash::HashSet<Handle<Inst>> = region
        .iter()
        .flat_map(|&b| body.blocks[b].insts.iter().copied())
        .collect();
    if inside
        .iter()
        .any(|&h| matches!(body.insts[h].op, Op::Phi { .. }))
    {
        return false;
    }
    // Every use of a region's value is inside the region.
    let in_region: crate::hash::HashSet<usize> = region.iter().copied().collect();
    let defined_inside = |v: Value| matches!(v, Value::Inst(h) if inside.contains(&h));
    for (b, block) in body.blocks.iter().enumerate() {
        if in_region.contains(&b) {
            continue;
        }
        let mut escapes = false;
        for &h in &block.insts {
            crate::ir::operands::for_each_use(&body.insts[h].op, |v| escapes |= defined_inside(v));
        }
        crate::ir::operands::terminator_operands(&block.terminator, |v| {
            escapes |= defined_inside(v)
        });
        if escapes {
            return false;
        }
    }
    // The copy: blocks appended, instructions cloned, then operands and targets mapped.
    let first = body.blocks.len();
    let block_map: HashMap<usize, usize> = region
        .iter()
        .enumerate()
        .map(|(i, &b)| (b, first + i))
        .collect();
    let mut inst_map: HashMap<Handle<Inst>, Handle<Inst>> = HashMap::default();
    for &b in &region {
        let mut new_insts = Vec::with_capacity(body.blocks[b].insts.len());
        for &h in &body.blocks[b].insts {
            let copy = body.insts.append(body.insts[h].clone());
            inst_map.insert(h, copy);
            new_insts.push(copy);
        }
        let mut terminator = body.blocks[b].terminator.clone();
        super::cfg_edit::retarget(&mut terminator, |x| block_map.get(&x).copied().unwrap_or(x));
        body.blocks.push(Block {
            terminator_loc: None,
            name: body.blocks[b].name.clone(),
            insts: new_insts,
            terminator,
            construct: None,
        });
    }
    let map = |v: &mut Value| {
        if let Value::Inst(h) = v {
            if let Some(&c) = inst_map.get(h) {
                *h = c;
            }
        }
    };
    for b in first..body.blocks.len() {
        for i in 0..body.blocks[b].insts.len() {
            let h = body.blocks[b].insts[i];
            crate::ir::operands::for_each_operand_mut(&mut body.insts[h].op, map);
        }
        crate::ir::operands::terminator_operands_mut(&mut body.blocks[b].terminator, map);
    }
    let copy_of_to = block_map[&to];
    super::cfg_edit::retarget(&mut body.blocks[from].terminator, |x| {
        if x == to {
            copy_of_to
        } else {
            x
        }
    });
    true
}
