//! One graph form for several edges from one block into a block with phis.
//!
//! LLVM lets a block reach a successor through several edges (switch cases sharing a target,
//! both arms of a conditional branch) and lists the predecessor once per edge in the
//! successor's phis, with the same value each time. SPIR-V lists a phi's parent block once, so
//! the SPIR-V writer routes every edge after the first through an empty forwarding block
//! (`spv::write::body`, `FnCtx::forwarders`). Reading such a block back as a block would
//! make the module two graphs; both readers therefore merge it back into the edge it forwards.

use crate::ir::function::{BlockId, Body, Op, Terminator};

impl Body {
    /// Merges every forwarding block back into an edge: a block other than the entry with no
    /// instructions and a `Branch` to a block with phis, reached by one edge from a block
    /// that also branches to that target directly, where each phi takes the same value from
    /// both. The merged edges become repeated edges, the phi entries repeated entries.
    pub fn merge_forwarders(&mut self) {
        let n = self.blocks.len();
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (b, block) in self.blocks.iter().enumerate() {
            for s in block.terminator.successors() {
                preds[s].push(b);
            }
        }
        let mut removed = vec![false; n];
        for b in 1..n {
            let Terminator::Branch(to) = self.blocks[b].terminator else {
                continue;
            };
            let (t, from) = (to.0 as usize, preds[b].first().copied());
            let Some(p) = from else { continue };
            let forwards = self.blocks[b].insts.is_empty()
                && preds[b].len() == 1
                && t != b
                && p != b
                && !removed[p]
                && self.blocks[p].terminator.successors().contains(&t)
                && self.has_phis(t)
                && self.phis_agree(t, b, p);
            if !forwards {
                continue;
            }
            retarget(&mut self.blocks[p].terminator, b, t);
            for &h in &self.blocks[t].insts {
                if let Op::Phi { incoming } = &mut self.insts[h].op {
                    for (_, from) in incoming.iter_mut() {
                        if from.0 as usize == b {
                            *from = BlockId(p as u32);
                        }
                    }
                }
            }
            removed[b] = true;
        }
        if removed.iter().any(|&r| r) {
            self.drop_blocks(&removed);
        }
    }

    fn phis(&self, block: usize) -> impl Iterator<Item = &Vec<(super::Value, BlockId)>> {
        self.blocks[block]
            .insts
            .iter()
            .map_while(|&h| match &self.insts[h].op {
                Op::Phi { incoming } => Some(incoming),
                _ => None,
            })
    }

    fn has_phis(&self, block: usize) -> bool {
        self.phis(block).next().is_some()
    }

    /// Whether every phi of `block` takes one value from both `a` and `b`.
    fn phis_agree(&self, block: usize, a: usize, b: usize) -> bool {
        self.phis(block).all(|incoming| {
            let from = |x: usize| {
                incoming
                    .iter()
                    .find(|(_, f)| f.0 as usize == x)
                    .map(|(v, _)| *v)
            };
            from(a).is_some() && from(a) == from(b)
        })
    }

    /// Removes the `removed` blocks (nothing branches to them any more) and renumbers the rest.
    fn drop_blocks(&mut self, removed: &[bool]) {
        let mut new_index = Vec::with_capacity(removed.len());
        let mut next = 0u32;
        for &r in removed {
            new_index.push(BlockId(next));
            next += u32::from(!r);
        }
        let renumber = |b: BlockId| new_index[b.0 as usize];
        let old = std::mem::take(&mut self.blocks);
        for (mut block, _) in old.into_iter().zip(removed).filter(|(_, &r)| !r) {
            map_targets(&mut block.terminator, renumber);
            for &h in &block.insts {
                if let Op::Phi { incoming } = &mut self.insts[h].op {
                    for (_, from) in incoming.iter_mut() {
                        *from = renumber(*from);
                    }
                }
            }
            self.blocks.push(block);
        }
    }
}

/// Points every edge of `t` to block `from` at block `to` instead.
fn retarget(t: &mut Terminator, from: usize, to: usize) {
    map_targets(t, |b| {
        if b.0 as usize == from {
            BlockId(to as u32)
        } else {
            b
        }
    });
}

/// Replaces every successor `b` of `t` with `f(b)`.
fn map_targets(t: &mut Terminator, f: impl Fn(BlockId) -> BlockId) {
    match t {
        Terminator::Branch(b) => *b = f(*b),
        Terminator::CondBranch {
            on_true, on_false, ..
        } => {
            *on_true = f(*on_true);
            *on_false = f(*on_false);
        }
        Terminator::Switch { default, cases, .. } => {
            *default = f(*default);
            cases.iter_mut().for_each(|(_, b)| *b = f(*b));
        }
        Terminator::Return(_) | Terminator::Unreachable => {}
    }
}
