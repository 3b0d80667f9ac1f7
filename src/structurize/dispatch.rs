//! The structurizer's fallback (step 6 of `structurize`): a function whose control flow
//! the natural form cannot express becomes one loop over a switch on a selector variable
//! that holds the number of the next original block. Always structured; slower.

use crate::ir::{self, Block, BlockId, Body, Construct, IntPredicate, Op, Terminator, Value};

use super::cfg_edit::{push, retarget, selector, store_const, Types};

/// Step 6: one loop over a switch on the next block's number.
pub(super) fn dispatch(m: &mut ir::Module, t: &Types, body: &mut Body) {
    let n = body.blocks.len();
    // New blocks first (0 stays the entry), the original ones after them.
    const NEW: usize = 6;
    let (entry, header, switch, sel_merge, cont, exit) = (0, 1, 2, 3, 4, 5);
    let mut old = std::mem::take(&mut body.blocks);
    for b in &mut old {
        retarget(&mut b.terminator, |x| x + NEW);
    }
    let names = [
        "entry",
        "dispatch.header",
        "dispatch.switch",
        "dispatch.next",
        "dispatch.continue",
        "dispatch.exit",
    ];
    for name in names {
        body.blocks.push(Block {
            terminator_loc: None,
            name: Some(name.into()),
            insts: Vec::new(),
            terminator: Terminator::Unreachable,
            construct: None,
        });
    }
    body.blocks.extend(old);
    // Variables stay in the entry block.
    let (vars, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut body.blocks[NEW].insts)
        .into_iter()
        .partition(|&ih| matches!(body.insts[ih].op, Op::Alloca { .. }));
    body.blocks[entry].insts = vars;
    body.blocks[NEW].insts = rest;
    let slot = selector(m, t, body);
    let done = n as u64;
    store_const(m, t, body, entry, slot, 0);
    body.blocks[entry].terminator = Terminator::Branch(BlockId(header as u32));
    body.blocks[header].terminator = Terminator::Branch(BlockId(switch as u32));
    body.blocks[header].construct = Some(Construct::Loop {
        merge: BlockId(exit as u32),
        continue_target: BlockId(cont as u32),
        unroll: false,
    });
    let v = push(
        body,
        switch,
        t.i32,
        Op::Load {
            ptr: slot,
            align: None,
            volatile: false,
        },
    );
    body.blocks[switch].terminator = Terminator::Switch {
        value: v,
        default: BlockId(sel_merge as u32),
        cases: (0..n)
            .map(|i| (i as u64, BlockId((i + NEW) as u32)))
            .collect(),
    };
    body.blocks[switch].construct = Some(Construct::Selection {
        merge: BlockId(sel_merge as u32),
    });
    body.blocks[sel_merge].terminator = Terminator::Branch(BlockId(cont as u32));
    let v = push(
        body,
        cont,
        t.i32,
        Op::Load {
            ptr: slot,
            align: None,
            volatile: false,
        },
    );
    let d = Value::Const(m.int_const(t.i32, done));
    let is_done = push(
        body,
        cont,
        t.bool,
        Op::ICmp {
            pred: IntPredicate::Eq,
            lhs: v,
            rhs: d,
        },
    );
    body.blocks[cont].terminator = Terminator::CondBranch {
        cond: is_done,
        on_true: BlockId(exit as u32),
        on_false: BlockId(header as u32),
    };
    body.blocks[exit].terminator = Terminator::Return(None);
    for b in NEW..NEW + n {
        let term = std::mem::replace(&mut body.blocks[b].terminator, Terminator::Unreachable);
        let next = next_number(m, t, body, (b, &term), NEW, done);
        match next {
            Some(v) => {
                push(
                    body,
                    b,
                    t.void,
                    Op::Store {
                        ptr: slot,
                        value: v,
                        align: None,
                        volatile: false,
                    },
                );
                body.blocks[b].terminator = Terminator::Branch(BlockId(sel_merge as u32));
            }
            None => body.blocks[b].terminator = Terminator::Unreachable,
        }
    }
}

/// The number of the block the dispatch goes to after original block `b`, which ends in
/// `term` (blocks are numbered from `first`): a constant, a select of two, or selects over a
/// switch's cases; `done` after a return; `None` after `unreachable`.
fn next_number(
    m: &mut ir::Module,
    t: &Types,
    body: &mut Body,
    (b, term): (usize, &Terminator),
    first: usize,
    done: u64,
) -> Option<Value> {
    let number = |m: &mut ir::Module, x: &BlockId| {
        Value::Const(m.int_const(t.i32, (x.0 as usize - first) as u64))
    };
    match term {
        Terminator::Branch(x) => Some(number(m, x)),
        Terminator::CondBranch {
            cond,
            on_true,
            on_false,
        } => {
            let (a, c) = (number(m, on_true), number(m, on_false));
            Some(push(
                body,
                b,
                t.i32,
                Op::Select {
                    cond: *cond,
                    on_true: a,
                    on_false: c,
                },
            ))
        }
        Terminator::Switch {
            value,
            default,
            cases,
        } => {
            let vt = match value {
                Value::Inst(h) => body.insts[*h].ty,
                Value::Const(c) => m.constants[*c].ty,
                Value::Param(_) => t.i32,
            };
            let mut x = number(m, default);
            for (c, target) in cases {
                let k = Value::Const(m.int_const(vt, *c));
                let eq = push(
                    body,
                    b,
                    t.bool,
                    Op::ICmp {
                        pred: IntPredicate::Eq,
                        lhs: *value,
                        rhs: k,
                    },
                );
                let y = number(m, target);
                x = push(
                    body,
                    b,
                    t.i32,
                    Op::Select {
                        cond: eq,
                        on_true: y,
                        on_false: x,
                    },
                );
            }
            Some(x)
        }
        Terminator::Return(_) => Some(Value::Const(m.int_const(t.i32, done))),
        Terminator::Unreachable => None,
    }
}
