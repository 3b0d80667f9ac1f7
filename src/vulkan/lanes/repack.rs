//! Bitcasts between lane shapes (`<8 x i8>` ↔ `i64`, `<16 x i8>` ↔ `<4 x i32>`, ...) for
//! the lanes pass: the source lanes as integers, split or joined with shifts.

use crate::diag::{Error, Result};
use crate::ir::{BinaryOp, CastOp, Handle, Op, Type, Value};

use super::{Outcome, Pass};

impl Pass<'_, '_> {
    /// A bitcast between lane shapes (`<8 x i8>` to `i64`, `<16 x i8>` to `<4 x i32>`, ...):
    /// the source lanes as integers, split or joined with shifts into the result's lanes
    /// (little-endian lane order, as OpenCL's memory).
    pub(super) fn repack(&mut self, value: Value, to: Handle<Type>) -> Result<Outcome> {
        let from = self.ty_of(value);
        let (fe, fn_) = (self.m.scalar_of(from), self.m.lanes(from));
        let (te, tn) = (self.m.scalar_of(to), self.m.lanes(to));
        let width = |p: &Self, t: Handle<Type>| match p.m.types[t] {
            Type::Int { width } | Type::Float { width } => Some(width),
            _ => None,
        };
        let (Some(fw), Some(tw)) = (width(self, fe), width(self, te)) else {
            return Err(Error::unsupported(
                "a bitcast of a vector of more than 4 lanes to or from a non-numeric type",
            ));
        };
        let fi = self.m.int_type(fw);
        let ti = self.m.int_type(tw);
        let as_int = |p: &mut Self, v: Value, t: Handle<Type>, it: Handle<Type>| {
            if t == it {
                v
            } else {
                p.push(
                    it,
                    Op::Cast {
                        op: CastOp::Bitcast,
                        value: v,
                    },
                )
            }
        };
        let src: Vec<Value> = (0..fn_)
            .map(|i| {
                let l = self.lane(value, i);
                as_int(self, l, fe, fi)
            })
            .collect();
        let bin = |p: &mut Self, op: BinaryOp, t: Handle<Type>, a: Value, b: Value| {
            p.push(
                t,
                Op::Binary {
                    op,
                    lhs: a,
                    rhs: b,
                    flags: Default::default(),
                },
            )
        };
        let mut out = Vec::with_capacity(tn as usize);
        if fw <= tw {
            let k = tw / fw;
            for j in 0..tn {
                let mut acc: Option<Value> = None;
                for part in 0..k {
                    let s = src[(j * k + part) as usize];
                    let wide = if fw == tw {
                        s
                    } else {
                        self.push(
                            ti,
                            Op::Cast {
                                op: CastOp::ZExt,
                                value: s,
                            },
                        )
                    };
                    let shifted = if part == 0 {
                        wide
                    } else {
                        let sh = Value::Const(self.m.int_const(ti, (part * fw) as u64));
                        bin(self, BinaryOp::Shl, ti, wide, sh)
                    };
                    acc = Some(match acc {
                        None => shifted,
                        Some(a) => bin(self, BinaryOp::Or, ti, a, shifted),
                    });
                }
                out.push(acc.unwrap_or(Value::Const(self.m.int_const(ti, 0))));
            }
        } else {
            let k = fw / tw;
            for &s in &src {
                for part in 0..k {
                    let shifted = if part == 0 {
                        s
                    } else {
                        let sh = Value::Const(self.m.int_const(fi, (part * tw) as u64));
                        bin(self, BinaryOp::LShr, fi, s, sh)
                    };
                    out.push(self.push(
                        ti,
                        Op::Cast {
                            op: CastOp::Trunc,
                            value: shifted,
                        },
                    ));
                }
            }
        }
        let lanes: Vec<Value> = out
            .into_iter()
            .map(|v| {
                if te == ti {
                    v
                } else {
                    self.push(
                        te,
                        Op::Cast {
                            op: CastOp::Bitcast,
                            value: v,
                        },
                    )
                }
            })
            .collect();
        if tn == 1 {
            return Ok(Outcome::Rename(lanes[0]));
        }
        Ok(self.build(to, lanes.into_iter().map(Some).collect()))
    }
}
