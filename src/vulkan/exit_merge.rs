//! Loops whose two exits become one: `while (i < n && x <= limit)` as clang rotates it is a
//! header that leaves on one test and a latch that leaves on the other. Each exit is a
//! divergent branch that a GPU's compiler must reconverge inside the loop, every iteration;
//! NVIDIA's took 8% longer on such a loop (mandelbrot on the H200) than on the same loop
//! with one exit. So where the latch only computes (nothing it does can fault or be seen
//! when the loop has already left), the lowering runs it whenever the header runs, and the
//! latch leaves on either test, to a block outside the loop that goes on to the exit the
//! header's test chose, or else the latch's:
//!
//! ```text
//! H: c1 = ...; br c1, X1, B            H: c1 = ...; br B
//! B: ...; c2 = ...; br c2, H, X2  =>   B: ...; c2 = ...; br (c1 | !c2), D, H
//!                                      D: br c1, X1, X2
//! ```
//!
//! Values reach the exits as before: the lowering keeps phis in Function variables, stored
//! on every edge into their block and read only at its start, so the latch's stores for the
//! header's phis (and for X2's) are overwritten before anything reads them on the way out
//! through X1.

use crate::hash::HashMap;

use crate::ir::{self, BinaryOp, CastOp, Op, Terminator, Value};

/// The most instructions a latch may hold to run one extra time on the way out.
const MAX_LATCH: usize = 48;

/// A loop of a header and a latch whose exits are merged (this module's picture).
#[derive(Clone, Copy, Debug)]
pub(super) struct MergedExit {
    /// The header `H`.
    pub header: usize,
    /// The latch `B`.
    pub latch: usize,
    /// Where the latch's test leaves to (`X2`).
    pub latch_exit: usize,
    /// The header's test `c1`.
    pub cond: Value,
    /// The value of `c1` that leaves.
    pub leaves_on: bool,
    /// Where the header's test leaves to (`X1`).
    pub exit: usize,
}

/// The loops of `body` whose exits merge, by header.
pub(super) fn plan(body: &ir::Body) -> HashMap<usize, MergedExit> {
    let n = body.blocks.len();
    let mut preds = vec![Vec::new(); n];
    for (b, block) in body.blocks.iter().enumerate() {
        for s in block.terminator.successors() {
            if !preds[s].contains(&b) {
                preds[s].push(b);
            }
        }
    }
    let mut out = HashMap::default();
    for (h, block) in body.blocks.iter().enumerate() {
        let Terminator::CondBranch {
            cond,
            on_true,
            on_false,
        } = block.terminator
        else {
            continue;
        };
        let (t, f) = (on_true.0 as usize, on_false.0 as usize);
        for (latch, exit, leaves_on) in [(t, f, false), (f, t, true)] {
            let Some(latch_exit) = latch_leaves(body, latch, h) else {
                continue;
            };
            if latch != h
                && exit != h
                && exit != latch
                && latch_exit != latch
                && preds[latch] == [h]
                && speculatable(body, latch)
            {
                out.insert(
                    h,
                    MergedExit {
                        header: h,
                        latch,
                        latch_exit,
                        cond,
                        leaves_on,
                        exit,
                    },
                );
            }
        }
    }
    // A block is the header of one merged loop or the latch of one, never both.
    let latches: Vec<usize> = out.values().map(|m| m.latch).collect();
    out.retain(|h, _| !latches.contains(h));
    out
}

/// Where latch `b` of header `h` leaves to: its terminator branches back to `h` or out.
fn latch_leaves(body: &ir::Body, b: usize, h: usize) -> Option<usize> {
    let Terminator::CondBranch {
        on_true, on_false, ..
    } = body.blocks[b].terminator
    else {
        return None;
    };
    match (on_true.0 as usize, on_false.0 as usize) {
        (x, y) if x == h && y != h => Some(y),
        (x, y) if y == h && x != h => Some(x),
        _ => None,
    }
}

/// Whether running block `b` when the program would not have changes nothing it can see
/// and cannot fault: arithmetic, comparisons, selections, value shuffles and pure builtins (`Builtin::is_pure`: not the math functions that store a
/// second result through a pointer either), and not too many of them. No memory access,
/// call, barrier or integer division (which NVIDIA's driver computes in a routine of its
/// own).
fn speculatable(body: &ir::Body, b: usize) -> bool {
    let insts = &body.blocks[b].insts;
    insts.len() <= MAX_LATCH
        && insts.iter().all(|&ih| match &body.insts[ih].op {
            Op::Binary { op, .. } => !matches!(
                op,
                BinaryOp::UDiv | BinaryOp::SDiv | BinaryOp::URem | BinaryOp::SRem
            ),
            Op::Cast { op, .. } => !matches!(
                op,
                CastOp::IntToPtr | CastOp::PtrToInt | CastOp::AddrSpaceCast
            ),
            Op::FNeg(_)
            | Op::ICmp { .. }
            | Op::FCmp { .. }
            | Op::Select { .. }
            | Op::Phi { .. }
            | Op::ExtractElement { .. }
            | Op::InsertElement { .. }
            | Op::Shuffle { .. }
            | Op::ExtractValue { .. }
            | Op::InsertValue { .. } => true,
            Op::Builtin { builtin, .. } => builtin.is_pure(),
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BlockId, Body};

    fn block(insts: Vec<ir::Handle<ir::Inst>>, terminator: Terminator) -> ir::Block {
        ir::Block {
            terminator_loc: None,
            name: None,
            insts,
            terminator,
            construct: None,
        }
    }

    fn cond(c: u32, t: u32, f: u32) -> Terminator {
        Terminator::CondBranch {
            cond: Value::Param(c),
            on_true: BlockId(t),
            on_false: BlockId(f),
        }
    }

    /// entry -> H; H: br c0, X1(2), B(3); B: br c1, H, X2(4).
    fn two_exits(latch_insts: Vec<ir::Handle<ir::Inst>>) -> Body {
        Body {
            blocks: vec![
                block(vec![], Terminator::Branch(BlockId(1))),
                block(vec![], cond(0, 2, 3)),
                block(vec![], Terminator::Return(None)),
                block(latch_insts, cond(1, 1, 4)),
                block(vec![], Terminator::Return(None)),
            ],
            ..Default::default()
        }
    }

    #[test]
    fn a_header_and_a_pure_latch_merge_their_exits() {
        let plan = plan(&two_exits(vec![]));
        let m = plan.get(&1).expect("the loop at block 1");
        assert_eq!((m.header, m.latch, m.exit, m.leaves_on), (1, 3, 2, true));
        assert_eq!(m.latch_exit, 4);
        assert_eq!(plan.len(), 1);
    }

    #[test]
    fn a_latch_that_touches_memory_keeps_its_exit() {
        let mut body = two_exits(vec![]);
        let h = body.insts.append(ir::Inst {
            loc: None,
            name: None,
            ty: ir::Handle::new(0),
            op: Op::Store {
                ptr: Value::Param(2),
                value: Value::Param(3),
                align: None,
                volatile: false,
            },
        });
        body.blocks[3].insts.push(h);
        assert!(plan(&body).is_empty());
    }

    #[test]
    fn a_latch_whose_math_stores_a_second_result_keeps_its_exit() {
        let mut body = two_exits(vec![]);
        let h = body.insts.append(ir::Inst {
            loc: None,
            name: None,
            ty: ir::Handle::new(0),
            op: Op::Builtin {
                builtin: ir::Builtin::ExtInst {
                    op: crate::ir::builtin::OpenclOp::sincos,
                    literal: None,
                },
                args: vec![Value::Param(2), Value::Param(3)],
            },
        });
        body.blocks[3].insts.push(h);
        assert!(plan(&body).is_empty());
    }
}
