//! The structurizer's last step: a value used in a block its definition no longer dominates
//! (after blocks and edges were added) goes through a Function variable, or, when it is a
//! logical pointer, is made again where it is used from its access chain.

use crate::hash::HashMap;

use crate::diag::{Error, Result};
use crate::ir::{self, cfg, AddressSpace, Body, Handle, Inst, Op, Type, Value};

use super::cfg_edit::succs;

/// Step 7: uses their definitions no longer dominate read a Function variable instead.
pub(super) fn fix_dominance(m: &mut ir::Module, body: &mut Body) -> Result<()> {
    let s = succs(body);
    let idom = cfg::dominators(&s, 0);
    let mut home: HashMap<Handle<Inst>, usize> = HashMap::default();
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
            ir::operands::for_each_use(&body.insts[ih].op, |v| {
                if let Some(d) = bad(v, b) {
                    fixes.push((b, Some(ih), d));
                }
            });
        }
        ir::operands::terminator_operands(&block.terminator, |v| {
            if let Some(d) = bad(v, b) {
                fixes.push((b, None, d));
            }
        });
    }
    if fixes.is_empty() {
        return Ok(());
    }
    let mut f = Fixer {
        m,
        body,
        home,
        idom,
        slots: HashMap::default(),
    };
    for (b, user, d) in fixes {
        let mut at = match user {
            Some(u) => f.body.blocks[b]
                .insts
                .iter()
                .position(|&x| x == u)
                .unwrap_or(0),
            None => f.body.blocks[b].insts.len(),
        };
        let v = f.value_at(Value::Inst(d), b, &mut at)?;
        let replace = |x: &mut Value| {
            if *x == Value::Inst(d) {
                *x = v;
            }
        };
        match user {
            Some(u) => ir::operands::for_each_operand_mut(&mut f.body.insts[u].op, replace),
            None => {
                ir::operands::terminator_operands_mut(&mut f.body.blocks[b].terminator, replace)
            }
        }
    }
    Ok(())
}

struct Fixer<'a> {
    m: &'a mut ir::Module,
    body: &'a mut Body,
    /// The block of each instruction, the original ones and those the fixes add.
    home: HashMap<Handle<Inst>, usize>,
    idom: Vec<Option<usize>>,
    /// The Function variable each value that needed one goes through.
    slots: HashMap<Handle<Inst>, Value>,
}

impl Fixer<'_> {
    /// Whether `v` may be used at position `at` of block `b` as it is.
    fn available(&self, v: Value, b: usize, at: usize) -> bool {
        let Value::Inst(d) = v else { return true };
        if matches!(self.body.insts[d].op, Op::Alloca { .. }) {
            return true;
        }
        match self.home.get(&d) {
            Some(&db) if db == b => self.body.blocks[b].insts[..at].contains(&d),
            Some(&db) => self.idom[b].is_some() && cfg::dominates(&self.idom, db, b),
            None => true,
        }
    }

    /// `v` as usable at position `at` of block `b` (new instructions go there, `at` moves
    /// past them). A logical pointer is made again from its access chain (a shader keeps
    /// such pointers out of variables where it can: variable pointers are an optional
    /// feature and a driver's weak spot); any other value is read from a variable.
    fn value_at(&mut self, v: Value, b: usize, at: &mut usize) -> Result<Value> {
        if self.available(v, b, *at) {
            return Ok(v);
        }
        let Value::Inst(d) = v else { return Ok(v) };
        let Inst { ty, op, name, loc } = self.body.insts[d].clone();
        let logical = matches!(
            self.m.types[ty],
            Type::Pointer { space, .. } if space != AddressSpace::PhysicalStorageBuffer
        );
        if logical {
            let Op::Gep {
                inbounds,
                base,
                indices,
            } = op
            else {
                if matches!(
                    self.m.types[ty],
                    Type::Pointer {
                        space: AddressSpace::StorageBuffer,
                        ..
                    }
                ) {
                    return self.through_variable(d, b, at);
                }
                return Err(Error::unsupported(
                    "a pointer to private or local memory made in one block and used in a \
                     block it no longer dominates after structurizing (it cannot be kept in a \
                     variable)",
                ));
            };
            let base = self.value_at(base, b, at)?;
            let indices = indices
                .into_iter()
                .map(|i| self.value_at(i, b, at))
                .collect::<Result<Vec<_>>>()?;
            let h = self.body.insts.append(Inst {
                loc,
                name,
                ty,
                op: Op::Gep {
                    inbounds,
                    base,
                    indices,
                },
            });
            self.body.blocks[b].insts.insert(*at, h);
            // Later fixes must see where it is (a chain made again in one block is not
            // available in another).
            self.home.insert(h, b);
            *at += 1;
            return Ok(Value::Inst(h));
        }
        self.through_variable(d, b, at)
    }

    /// `d` stored in a Function variable after its definition, and loaded at `at` of `b`.
    fn through_variable(&mut self, d: Handle<Inst>, b: usize, at: &mut usize) -> Result<Value> {
        let ty = self.body.insts[d].ty;
        let slot = match self.slots.get(&d) {
            Some(&s) => s,
            None => {
                let pt = self.m.ty(Type::Pointer {
                    pointee: ty,
                    space: AddressSpace::Private,
                });
                let a = self.body.insts.append(Inst {
                    loc: None,
                    name: None,
                    ty: pt,
                    op: Op::Alloca {
                        allocated: ty,
                        align: None,
                    },
                });
                self.body.blocks[0].insts.insert(0, a);
                if b == 0 {
                    *at += 1;
                }
                let void = self.m.void_type();
                let st = self.body.insts.append(Inst {
                    loc: None,
                    name: None,
                    ty: void,
                    op: Op::Store {
                        ptr: Value::Inst(a),
                        value: Value::Inst(d),
                        align: None,
                        volatile: false,
                    },
                });
                let db = self.home[&d];
                let pos = self.body.blocks[db]
                    .insts
                    .iter()
                    .position(|&x| x == d)
                    .map_or(self.body.blocks[db].insts.len(), |p| p + 1);
                self.body.blocks[db].insts.insert(pos, st);
                self.home.insert(st, db);
                if db == b && pos <= *at {
                    *at += 1;
                }
                self.slots.insert(d, Value::Inst(a));
                Value::Inst(a)
            }
        };
        let ld = self.body.insts.append(Inst {
            loc: None,
            name: None,
            ty,
            op: Op::Load {
                ptr: slot,
                align: None,
                volatile: false,
            },
        });
        self.body.blocks[b].insts.insert(*at, ld);
        self.home.insert(ld, b);
        *at += 1;
        Ok(Value::Inst(ld))
    }
}
