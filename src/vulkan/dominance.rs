//! The structurizer's last step: a value used in a block its definition no longer dominates
//! (after blocks and edges were added) goes through a Function variable.

use std::collections::HashMap;

use crate::diag::{Error, Result};
use crate::ir::{self, cfg, AddressSpace, Body, Handle, Inst, Op, Type, Value};

use super::structurize::succs;

/// Step 7: uses their definitions no longer dominate read a Function variable instead.
pub(super) fn fix_dominance(m: &mut ir::Module, body: &mut Body) -> Result<()> {
    let s = succs(body);
    let idom = cfg::dominators(&s, 0);
    let mut home: HashMap<Handle<Inst>, usize> = HashMap::new();
    for (b, block) in body.blocks.iter().enumerate() {
        for &ih in &block.insts {
            home.insert(ih, b);
        }
    }
    let bad = |v: Value, b: usize| -> Option<Handle<Inst>> {
        let Value::Inst(d) = v else { return None };
        if matches!(body.insts[d].op, Op::Alloca { .. }) {
            return None;
        }
        let db = *home.get(&d)?;
        (db != b && !(idom[b].is_some() && cfg::dominates(&idom, db, b))).then_some(d)
    };
    // (use block, user instruction or None for the terminator, definition)
    let mut fixes: Vec<(usize, Option<Handle<Inst>>, Handle<Inst>)> = Vec::new();
    for (b, block) in body.blocks.iter().enumerate() {
        if idom[b].is_none() {
            continue;
        }
        for &ih in &block.insts {
            ir::verify::for_each_operand(&body.insts[ih].op, |v| {
                if let Some(d) = bad(v, b) {
                    fixes.push((b, Some(ih), d));
                }
            });
        }
        ir::verify::terminator_operands(&block.terminator, |v| {
            if let Some(d) = bad(v, b) {
                fixes.push((b, None, d));
            }
        });
    }
    if fixes.is_empty() {
        return Ok(());
    }
    let mut slots: HashMap<Handle<Inst>, Value> = HashMap::new();
    for (b, user, d) in fixes {
        let ty = body.insts[d].ty;
        if let Type::Pointer { space, .. } = m.types[ty] {
            if !matches!(
                space,
                AddressSpace::PhysicalStorageBuffer | AddressSpace::StorageBuffer
            ) {
                return Err(Error::unsupported(
                    "a pointer to private or local memory made in one block and used in a \
                     block it no longer dominates after structurizing (it cannot be kept in a \
                     variable)",
                ));
            }
        }
        let slot = match slots.get(&d) {
            Some(&s) => s,
            None => {
                let pt = m.ty(Type::Pointer {
                    pointee: ty,
                    space: AddressSpace::Private,
                });
                let a = body.insts.append(Inst {
                    name: None,
                    ty: pt,
                    op: Op::Alloca {
                        allocated: ty,
                        align: None,
                    },
                });
                body.blocks[0].insts.insert(0, a);
                let void = m.void_type();
                let st = body.insts.append(Inst {
                    name: None,
                    ty: void,
                    op: Op::Store {
                        ptr: Value::Inst(a),
                        value: Value::Inst(d),
                        align: None,
                        volatile: false,
                    },
                });
                let db = home[&d];
                let pos = body.blocks[db]
                    .insts
                    .iter()
                    .position(|&x| x == d)
                    .map_or(body.blocks[db].insts.len(), |p| p + 1);
                body.blocks[db].insts.insert(pos, st);
                slots.insert(d, Value::Inst(a));
                Value::Inst(a)
            }
        };
        let ld = body.insts.append(Inst {
            name: None,
            ty,
            op: Op::Load {
                ptr: slot,
                align: None,
                volatile: false,
            },
        });
        let replace = |v: &mut Value| {
            if *v == Value::Inst(d) {
                *v = Value::Inst(ld);
            }
        };
        match user {
            Some(u) => {
                let pos = body.blocks[b]
                    .insts
                    .iter()
                    .position(|&x| x == u)
                    .unwrap_or(0);
                body.blocks[b].insts.insert(pos, ld);
                ir::verify::for_each_operand_mut(&mut body.insts[u].op, replace);
            }
            None => {
                body.blocks[b].insts.push(ld);
                ir::verify::terminator_operands_mut(&mut body.blocks[b].terminator, replace);
            }
        }
    }
    Ok(())
}
