//! The small edits of a function's control flow that the structurizer's steps share
//! (`structurize`, `dispatch`, `duplicate`, `dominance`): successor lists, retargeting a
//! terminator, appending an instruction, and the `i32` selector variable with its stores.

use crate::ir::{self, AddressSpace, BlockId, Body, Handle, Inst, Op, Terminator, Type, Value};

/// Types the structurizer makes values of (selector variables, conditions).
pub(super) struct Types {
    pub i32: Handle<Type>,
    pub bool: Handle<Type>,
    pub void: Handle<Type>,
    pub ptr_i32: Handle<Type>,
}

impl Types {
    pub(super) fn of(m: &mut ir::Module) -> Types {
        let i32 = m.int_type(32);
        Types {
            i32,
            bool: m.ty(Type::Bool),
            void: m.void_type(),
            ptr_i32: m.ty(Type::Pointer {
                pointee: i32,
                space: AddressSpace::Private,
            }),
        }
    }
}

/// Each block's successors, by index.
pub(super) fn succs(body: &Body) -> Vec<Vec<usize>> {
    body.blocks
        .iter()
        .map(|b| b.terminator.successors())
        .collect()
}

/// Point each successor `b` of `t` at `f(b)`.
pub(super) fn retarget(t: &mut Terminator, mut f: impl FnMut(usize) -> usize) {
    let mut m = |b: &mut BlockId| *b = BlockId(f(b.0 as usize) as u32);
    match t {
        Terminator::Branch(b) => m(b),
        Terminator::CondBranch {
            on_true, on_false, ..
        } => {
            m(on_true);
            m(on_false)
        }
        Terminator::Switch { default, cases, .. } => {
            m(default);
            cases.iter_mut().for_each(|(_, b)| m(b));
        }
        Terminator::Return(_) | Terminator::Unreachable => {}
    }
}

/// A new i32 Function variable (in the entry block).
pub(super) fn selector(m: &mut ir::Module, t: &Types, body: &mut Body) -> Value {
    let _ = m;
    let h = body.insts.append(Inst {
        loc: None,
        name: Some("selector".into()),
        ty: t.ptr_i32,
        op: Op::Alloca {
            allocated: t.i32,
            align: None,
        },
    });
    body.blocks[0].insts.insert(0, h);
    Value::Inst(h)
}

/// Append an instruction of type `ty` doing `op` to block `b`.
pub(super) fn push(body: &mut Body, b: usize, ty: Handle<Type>, op: Op) -> Value {
    let h = body.insts.append(Inst {
        loc: None,
        name: None,
        ty,
        op,
    });
    body.blocks[b].insts.push(h);
    Value::Inst(h)
}

/// Store the `i32` constant `k` to `slot` at the end of block `b`.
pub(super) fn store_const(
    m: &mut ir::Module,
    t: &Types,
    body: &mut Body,
    b: usize,
    slot: Value,
    k: u64,
) {
    let c = m.int_const(t.i32, k);
    push(
        body,
        b,
        t.void,
        Op::Store {
            ptr: slot,
            value: Value::Const(c),
            align: None,
            volatile: false,
        },
    );
}
