//! The expression each instruction computes (its text and precedence: `precedence.rs`).

use super::function::FnWriter;
use super::lanes::{index_const, lane_access, shuffle};
use super::precedence::{Expr, Prec};
use crate::diag::{Error, Result};
use crate::ir::{BlockId, Handle, Inst, Op, Terminator, Type, Value};

impl FnWriter<'_, '_> {
    /// `.m1[2]` for a path of member and element indices into aggregate type `t`.
    pub fn member_path(&mut self, mut t: Handle<Type>, indices: &[u32]) -> Result<String> {
        let m = self.w.m;
        let mut path = String::new();
        for &i in indices {
            match &m.types[t] {
                Type::Struct {
                    members: Some(ms), ..
                } => {
                    path.push_str(&format!(".m{i}"));
                    t = *ms
                        .get(i as usize)
                        .ok_or_else(|| Error::malformed("a member index out of range"))?;
                }
                Type::Array { elem, .. } => {
                    path.push_str(&format!("[{i}]"));
                    t = *elem;
                }
                _ => return Err(Error::malformed("a member path into a non-aggregate")),
            }
        }
        Ok(path)
    }

    /// The expression an instruction computes (`None` for those that computed their
    /// statements already).
    pub fn expression(&mut self, h: Handle<Inst>, op: &Op) -> Result<Option<Expr>> {
        let m = self.w.m;
        let ty = self.body.insts[h].ty;
        Ok(Some(match op {
            Op::Binary {
                op,
                lhs,
                rhs,
                flags,
            } => {
                if flags.fast.any() {
                    self.w.lost(
                        "fast-math relaxations of float arithmetic: OpenCL C says them only as \
                         build options (-cl-fast-relaxed-math and kin), which the program is not \
                         given; it computes strictly"
                            .to_string(),
                    );
                }
                let a = self.operand(*lhs)?;
                let b = self.operand(*rhs)?;
                self.w.binary(*op, ty, a, b)?
            }
            Op::FNeg(v) => {
                let a = self.operand(*v)?;
                Expr::unary("-", &a)
            }
            Op::ICmp { pred, lhs, rhs } => {
                let t = self.type_of(*lhs);
                let a = self.operand(*lhs)?;
                let b = self.operand(*rhs)?;
                self.w.icmp(*pred, t, a, b)?
            }
            Op::FCmp { pred, lhs, rhs } => {
                let t = self.type_of(*lhs);
                let a = self.operand(*lhs)?;
                let b = self.operand(*rhs)?;
                self.w.fcmp(*pred, t, a, b)?
            }
            Op::Cast { op, value } => {
                let from = self.type_of(*value);
                let e = self.operand(*value)?;
                if self.pointer_pun(Value::Inst(h), false).is_some() {
                    self.punned.insert(h, e.clone());
                }
                self.w.cast(*op, from, ty, e)?
            }
            Op::Select {
                cond,
                on_true,
                on_false,
            } => {
                let ct = self.type_of(*cond);
                let c = self.operand(*cond)?;
                let a = self.operand(*on_true)?;
                let b = self.operand(*on_false)?;
                self.select(ct, ty, c, a, b)?
            }
            Op::Load { ptr, volatile, .. } => {
                if let Some((object, p, _)) = self.take_pun(*ptr, *volatile) {
                    let pt = self.type_of(object);
                    let place = self.place(pt, p, false)?;
                    let e = if place.starts_with('*') {
                        Expr {
                            text: place,
                            prec: Prec::Unary,
                        }
                    } else {
                        Expr::atom(place)
                    };
                    return Ok(Some(Expr::cast(&self.w.type_name(ty)?, &e)));
                }
                let pt = self.type_of(*ptr);
                let p = self.operand(*ptr)?;
                let place = self.place(pt, p, *volatile)?;
                if place.starts_with('*') {
                    Expr {
                        text: place,
                        prec: Prec::Unary,
                    }
                } else {
                    Expr::atom(place)
                }
            }
            Op::Gep { base, indices, .. } => {
                let bt = self.type_of(*base);
                let b = self.operand(*base)?;
                let mut idx = Vec::new();
                for &i in indices {
                    let k = index_const(m, i);
                    let e = self.operand(i)?;
                    idx.push((e, k));
                }
                self.w.gep(bt, b, &idx, ty)?
            }
            Op::Call { callee, args } => {
                if let Some(d) = super::imports::builtin_import(&m.functions[*callee]) {
                    let mut a = Vec::new();
                    for &v in args {
                        a.push(self.operand(v)?);
                    }
                    return self.builtin_import_call(&d, args, a, ty).map(Some);
                }
                let mut a = Vec::new();
                for &v in args {
                    let e = self.operand(v)?;
                    a.push(self.plain_pointer(v, e)?);
                }
                // The `__local` variables the callee takes, as the caller holds them.
                let passed = self
                    .w
                    .passed_locals
                    .get(callee)
                    .cloned()
                    .unwrap_or_default();
                for g in passed {
                    let held = self.w.global_name(g)?;
                    a.push(Expr::unary("&", &Expr::atom(held)));
                }
                let name = self.w.functions[callee].clone();
                Expr::call(&name, &a)
            }
            Op::Builtin { builtin, args } => return self.builtin(builtin, args, ty),
            Op::ExtractElement { vector, index } => {
                let vt = self.type_of(*vector);
                let v = self.operand(*vector)?;
                let i = self.operand(*index)?;
                let lane = Expr::atom(lane_access(&v.postfix(), index_const(m, *index), &i));
                match self.w.shape(vt) {
                    (_, super::ops::Shape::Bool) => Expr::binary(&lane, "!=", &Expr::atom("0")),
                    _ => lane,
                }
            }
            Op::Shuffle { a, b, mask } => {
                let at = self.type_of(*a);
                let n = m.lanes(at);
                let ea = self.operand(*a)?;
                let eb = self.operand(*b)?;
                shuffle(&self.w.type_name(ty)?, &ea, &eb, n, mask)
            }
            Op::ExtractValue { aggregate, indices } => {
                let at = self.type_of(*aggregate);
                let a = self.operand(*aggregate)?;
                let path = self.member_path(at, indices)?;
                Expr::atom(format!("{}{path}", a.postfix()))
            }
            Op::CopyMemory { dst, src, .. } if self.copies.contains_key(&h) => {
                let d = self.operand(*dst)?;
                let s = self.operand(*src)?;
                let dt = self.type_of(self.resolve(*dst));
                let st = self.type_of(self.resolve(*src));
                let dp = self.place(dt, d, false)?;
                let sp = self.place(st, s, false)?;
                Expr::atom(format!("{dp} = {sp}"))
            }
            Op::CopyMemory {
                dst,
                src,
                size,
                volatile,
                ..
            } => {
                let dt = self.type_of(*dst);
                let st = self.type_of(*src);
                let zt = self.type_of(*size);
                let d = self.operand(*dst)?;
                let s = self.operand(*src)?;
                let z = self.operand(*size)?;
                let (helper, dp, sp) = self.w.copy_helper(dt, st, zt, *volatile)?;
                Expr::call(&helper, &[Expr::cast(&dp, &d), Expr::cast(&sp, &s), z])
            }
            Op::FillMemory {
                dst,
                byte,
                size,
                volatile,
                ..
            } => {
                let dt = self.type_of(*dst);
                let zt = self.type_of(*size);
                let d = self.operand(*dst)?;
                let b = self.operand(*byte)?;
                let z = self.operand(*size)?;
                let (helper, dp) = self.w.fill_helper(dt, zt, *volatile)?;
                Expr::call(&helper, &[Expr::cast(&dp, &d), b, z])
            }
            Op::Alloca { .. }
            | Op::Phi { .. }
            | Op::Store { .. }
            | Op::InsertElement { .. }
            | Op::InsertValue { .. }
            | Op::DebugDeclare { .. }
            | Op::DebugValue { .. } => return Ok(None),
        }))
    }

    /// `cond ? a : b`, or `select(b, a, c)` lane by lane for a vector condition.
    fn select(
        &mut self,
        ct: Handle<Type>,
        ty: Handle<Type>,
        c: Expr,
        a: Expr,
        b: Expr,
    ) -> Result<Expr> {
        let (lanes, _) = self.w.shape(ct);
        if lanes == 1 {
            return Ok(Expr::cond(&c, &a, &b));
        }
        let (_, shape) = self.w.shape(ty);
        let c = match shape {
            super::ops::Shape::Int(32) | super::ops::Shape::Float(32) | super::ops::Shape::Bool => {
                c
            }
            super::ops::Shape::Int(w) | super::ops::Shape::Float(w) => {
                let s = super::types::sint_name(w).unwrap_or("int");
                Expr::call(&format!("convert_{s}{lanes}"), &[c])
            }
            super::ops::Shape::Other => {
                return Err(Error::unsupported("a lane-wise select of non-scalars"))
            }
        };
        Ok(Expr::call("select", &[b, a, c]))
    }

    /// The terminator's condition or switch value, and the return statement.
    pub fn terminator_value(&mut self, v: Value) -> Result<Expr> {
        self.operand(v)
    }

    /// The block's label.
    pub fn label(&self, b: BlockId) -> &str {
        &self.block_names[b.0 as usize]
    }

    /// The `return` statement of a block.
    pub fn ret(&mut self, t: &Terminator) -> Result<String> {
        match t {
            Terminator::Return(Some(v)) => {
                let e = self.operand(*v)?;
                Ok(format!("return {};", e.text))
            }
            _ => Ok("return;".into()),
        }
    }
}
