//! LLVM-level operations as OpenCL C expressions. Values are held unsigned (graph integers
//! are signless, and unsigned arithmetic wraps as LLVM's does, where signed overflow would be
//! undefined in C); an operation that reads its operands as signed sees them through a cast
//! (`(int)a / (int)b`, `as_int4(v)`); results narrower than `int` are cast back to their
//! width, since C computes on them as `int`.

use super::precedence::{Expr, Prec};
use super::types::{sint_name, uint_name};
use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::{BinaryOp, CastOp, FloatPredicate, Handle, IntPredicate, Type};

/// The shape of a value's type that operations care about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `bool`.
    Bool,
    /// An integer of this width.
    Int(u32),
    /// A float of this width.
    Float(u32),
    /// Anything else (pointers, aggregates, objects).
    Other,
}

impl Writer<'_> {
    /// The lane count (1 for scalars) and lane shape of a type.
    pub fn shape(&self, t: Handle<Type>) -> (u32, Shape) {
        let m = self.m;
        let (lanes, elem) = match m.types[t] {
            Type::Vector { elem, len } => (len, elem),
            _ => (1, t),
        };
        let s = match m.types[elem] {
            Type::Bool => Shape::Bool,
            Type::Int { width } => Shape::Int(width),
            Type::Float { width } => Shape::Float(width),
            _ => Shape::Other,
        };
        (lanes, s)
    }

    /// `e` (of integer type `t`) read as signed: `(int)e`, `as_int4(e)`.
    pub fn signed(&self, t: Handle<Type>, e: &Expr) -> Result<Expr> {
        let (lanes, s) = self.shape(t);
        let Shape::Int(w) = s else {
            return Ok(e.clone());
        };
        let name = sint_name(w).ok_or_else(|| Error::unsupported(format!("a {w}-bit integer")))?;
        if lanes == 1 {
            if let Some(lit) = signed_literal(w, &e.text) {
                return Ok(lit);
            }
        }
        // A signed kernel argument the body holds unsigned (`(uint)n`) is read as it is.
        let held = uint_name(w).unwrap_or("");
        let n = if lanes > 1 {
            lanes.to_string()
        } else {
            String::new()
        };
        let inner = if lanes == 1 {
            e.text.strip_prefix(&format!("({held})"))
        } else {
            e.text
                .strip_prefix(&format!("as_{held}{n}("))
                .and_then(|r| r.strip_suffix(')'))
        };
        if let Some(p) = inner.filter(|p| self.signed_params.contains(*p)) {
            return Ok(Expr::atom(p));
        }
        Ok(if lanes == 1 {
            Expr::cast(name, e)
        } else {
            Expr::call(&format!("as_{name}{lanes}"), std::slice::from_ref(e))
        })
    }

    /// A signed result `e` (of signed type, shaped as `t`) back to the unsigned holding type.
    pub fn unsigned(&self, t: Handle<Type>, e: &Expr) -> Result<Expr> {
        let (lanes, s) = self.shape(t);
        let Shape::Int(w) = s else {
            return Ok(e.clone());
        };
        let name = uint_name(w).ok_or_else(|| Error::unsupported(format!("a {w}-bit integer")))?;
        Ok(if lanes == 1 {
            Expr::cast(name, e)
        } else {
            Expr::call(&format!("as_{name}{lanes}"), std::slice::from_ref(e))
        })
    }

    /// A scalar integer narrower than `int` computed as `int` by C, cut back to its width.
    fn narrow(&self, t: Handle<Type>, e: Expr) -> Expr {
        match self.shape(t) {
            (1, Shape::Int(w @ (8 | 16))) => Expr::cast(uint_name(w).unwrap_or("uint"), &e),
            _ => e,
        }
    }

    /// `lhs op rhs` for operands and result of type `t`.
    pub fn binary(&mut self, op: BinaryOp, t: Handle<Type>, a: Expr, b: Expr) -> Result<Expr> {
        use BinaryOp as B;
        let (lanes, shape) = self.shape(t);
        let sym = match op {
            B::Add | B::FAdd => "+",
            B::Sub | B::FSub => "-",
            B::Mul | B::FMul => "*",
            B::UDiv | B::SDiv | B::FDiv => "/",
            B::URem | B::SRem => "%",
            B::Shl => "<<",
            B::LShr | B::AShr => ">>",
            B::And => "&",
            B::Or => "|",
            B::Xor => "^",
            B::FRem => return Ok(Expr::call("fmod", &[a, b])),
        };
        if shape == Shape::Bool {
            // Truth values: & | ^ of bools (int vectors of -1/0 for vectors).
            let e = Expr::binary(&a, sym, &b);
            return Ok(if lanes == 1 {
                Expr::cast("bool", &e)
            } else {
                e
            });
        }
        let e = match op {
            B::SDiv | B::SRem => {
                let r = Expr::binary(&self.signed(t, &a)?, sym, &self.signed(t, &b)?);
                self.unsigned(t, &r)?
            }
            B::AShr => {
                let r = Expr::binary(&self.signed(t, &a)?, sym, &b);
                self.unsigned(t, &r)?
            }
            // 16-bit products promoted to int may overflow it: multiply as uint.
            B::Mul if lanes == 1 && shape == Shape::Int(16) => {
                Expr::binary(&Expr::cast("uint", &a), sym, &b)
            }
            _ => Expr::binary(&a, sym, &b),
        };
        Ok(self.narrow(t, e))
    }

    /// An integer comparison of operands of type `t`; the result is `bool` (scalars) or an
    /// int vector of -1/0.
    pub fn icmp(&mut self, pred: IntPredicate, t: Handle<Type>, a: Expr, b: Expr) -> Result<Expr> {
        use IntPredicate as P;
        let (sym, signed) = match pred {
            P::Eq => ("==", false),
            P::Ne => ("!=", false),
            P::Ugt => (">", false),
            P::Uge => (">=", false),
            P::Ult => ("<", false),
            P::Ule => ("<=", false),
            P::Sgt => (">", true),
            P::Sge => (">=", true),
            P::Slt => ("<", true),
            P::Sle => ("<=", true),
        };
        let (a, b) = if signed {
            (self.signed(t, &a)?, self.signed(t, &b)?)
        } else {
            (a, b)
        };
        let e = Expr::binary(&a, sym, &b);
        self.relational_result(t, e)
    }

    /// A relational result (C's int 1/0, or an intN of the operands' lane width holding
    /// -1/0) as the graph's truth value: `bool`, or an int vector.
    pub fn relational_result(&mut self, operand: Handle<Type>, e: Expr) -> Result<Expr> {
        let (lanes, shape) = self.shape(operand);
        let width = match shape {
            Shape::Int(w) | Shape::Float(w) => w,
            _ => 32,
        };
        Ok(match lanes {
            n if n == 1 || width == 32 => e,
            n => Expr::call(&format!("convert_int{n}"), &[e]),
        })
    }

    /// A float comparison of operands of type `t`.
    pub fn fcmp(
        &mut self,
        pred: FloatPredicate,
        t: Handle<Type>,
        a: Expr,
        b: Expr,
    ) -> Result<Expr> {
        use FloatPredicate as P;
        let (lanes, _) = self.shape(t);
        let e = match pred {
            P::False | P::True => {
                let v = pred == P::True;
                return Ok(if lanes == 1 {
                    Expr::atom(if v { "true" } else { "false" })
                } else {
                    Expr::atom(format!("(int{lanes})({})", if v { "-1" } else { "0" }))
                });
            }
            P::Oeq => Expr::binary(&a, "==", &b),
            P::Ogt => Expr::binary(&a, ">", &b),
            P::Oge => Expr::binary(&a, ">=", &b),
            P::Olt => Expr::binary(&a, "<", &b),
            P::Ole => Expr::binary(&a, "<=", &b),
            P::Une => Expr::binary(&a, "!=", &b),
            P::One => Expr::call("islessgreater", &[a, b]),
            P::Ord => Expr::call("isordered", &[a, b]),
            P::Uno => Expr::call("isunordered", &[a, b]),
            P::Ueq => Expr::unary("!", &Expr::call("islessgreater", &[a, b])),
            P::Ugt => Expr::unary("!", &Expr::binary(&a, "<=", &b).paren()),
            P::Uge => Expr::unary("!", &Expr::binary(&a, "<", &b).paren()),
            P::Ult => Expr::unary("!", &Expr::binary(&a, ">=", &b).paren()),
            P::Ule => Expr::unary("!", &Expr::binary(&a, ">", &b).paren()),
        };
        self.relational_result(t, e)
    }

    /// `value` (of type `from`) converted as `op` says to `to`.
    pub fn cast(
        &mut self,
        op: CastOp,
        from: Handle<Type>,
        to: Handle<Type>,
        e: Expr,
    ) -> Result<Expr> {
        use CastOp as C;
        let (lanes, fs) = self.shape(from);
        let (_, ts) = self.shape(to);
        let to_name = self.type_name(to)?;
        let convert = |e: Expr| {
            if lanes == 1 {
                Expr::cast(&to_name, &e)
            } else {
                Expr::call(&format!("convert_{to_name}"), &[e])
            }
        };
        Ok(match op {
            C::Trunc if ts == Shape::Bool => {
                let one = Expr::binary(&e, "&", &Expr::atom("1"));
                if lanes == 1 {
                    Expr::cast("bool", &one)
                } else {
                    Expr::unary("-", &Expr::call(&format!("convert_int{lanes}"), &[one]))
                }
            }
            C::ZExt if fs == Shape::Bool && lanes > 1 => convert(Expr::unary("-", &e)),
            C::SExt if fs == Shape::Bool => {
                if lanes == 1 {
                    let neg = Expr::unary("-", &Expr::cast("int", &e));
                    Expr::cast(&to_name, &neg)
                } else {
                    let (_, Shape::Int(w)) = self.shape(to) else {
                        return Err(Error::internal("a sign extension to a non-integer"));
                    };
                    let s = sint_name(w).unwrap_or("int");
                    self.unsigned(to, &Expr::call(&format!("convert_{s}{lanes}"), &[e]))?
                }
            }
            C::Trunc | C::ZExt | C::FPTrunc | C::FPExt | C::FPToUI | C::UIToFP => convert(e),
            C::SExt | C::SIToFP => {
                let s = self.signed(from, &e)?;
                let r = if lanes == 1 {
                    Expr::cast(&to_name, &s)
                } else if op == C::SExt {
                    let (_, Shape::Int(w)) = self.shape(to) else {
                        return Err(Error::internal("a sign extension to a non-integer"));
                    };
                    let sn = sint_name(w).unwrap_or("int");
                    self.unsigned(to, &Expr::call(&format!("convert_{sn}{lanes}"), &[s]))?
                } else {
                    Expr::call(&format!("convert_{to_name}"), &[s])
                };
                r
            }
            C::FPToSI => {
                let (_, Shape::Int(w)) = self.shape(to) else {
                    return Err(Error::internal(
                        "a float to signed conversion to a non-integer",
                    ));
                };
                let sn = sint_name(w).unwrap_or("int");
                let s = if lanes == 1 {
                    Expr::cast(sn, &e)
                } else {
                    Expr::call(&format!("convert_{sn}{lanes}"), &[e])
                };
                self.unsigned(to, &s)?
            }
            C::PtrToInt | C::IntToPtr => {
                // Through the pointer's width: C warns of a cast between a pointer and a
                // narrower integer.
                let t = if op == C::PtrToInt { to } else { from };
                let bits = self.m.addressing.pointer_bits();
                match self.shape(t) {
                    (1, Shape::Int(w)) if w != bits => {
                        let wide = uint_name(bits).unwrap_or("ulong");
                        Expr::cast(&to_name, &Expr::cast(wide, &e))
                    }
                    _ => Expr::cast(&to_name, &e),
                }
            }
            C::AddrSpaceCast => Expr::cast(&to_name, &e),
            C::Bitcast => {
                let m = self.m;
                if matches!(m.types[to], Type::Pointer { .. }) {
                    Expr::cast(&to_name, &e)
                } else if from == to {
                    e
                } else {
                    Expr::call(&format!("as_{to_name}"), &[e])
                }
            }
        })
    }

    /// The address `base` (a pointer of type `base_ty`) stepped by `indices` (each with its
    /// constant value, if constant): `&p[i].m1[j]`, or `p + i` for one step.
    pub fn gep(
        &mut self,
        base_ty: Handle<Type>,
        base: Expr,
        indices: &[(Expr, Option<i64>)],
        result_ty: Handle<Type>,
    ) -> Result<Expr> {
        let m = self.m;
        let Some(mut cur) = m.pointee(base_ty) else {
            return Err(Error::internal("getelementptr on a non-pointer"));
        };
        let Some(((first, first_k), rest)) = indices.split_first() else {
            return Ok(base);
        };
        let index = |e: &Expr, k: &Option<i64>| match k {
            Some(k) => k.to_string(),
            None => e.text.clone(),
        };
        // `&x` stepped by 0 is `x` itself.
        let target = match base.text.strip_prefix('&') {
            Some(rest) if base.prec == Prec::Unary && !rest.starts_with('&') => {
                Some(rest.to_string())
            }
            _ => None,
        };
        let mut path = match (first_k, &target) {
            (Some(0), Some(t)) => t.clone(),
            (Some(0), None) => format!("(*{})", base.at(Prec::Unary)),
            _ => format!("{}[{}]", base.postfix(), index(first, first_k)),
        };
        if rest.is_empty() {
            return Ok(if *first_k == Some(0) {
                base
            } else {
                Expr::unary("&", &Expr::atom(path))
            });
        }
        for (e, k) in rest {
            match &m.types[cur] {
                Type::Struct {
                    members: Some(ms), ..
                } => {
                    let i = k.ok_or_else(|| {
                        Error::malformed("a struct member index that is not a constant")
                    })? as usize;
                    path.push_str(&format!(".m{i}"));
                    cur = *ms
                        .get(i)
                        .ok_or_else(|| Error::malformed("a struct member index out of range"))?;
                }
                Type::Array { elem, .. } => {
                    path.push_str(&format!("[{}]", index(e, k)));
                    cur = *elem;
                }
                Type::Vector { elem, .. } => {
                    // The address of a lane: through a pointer to the lane type.
                    let lane = self.type_name(*elem)?;
                    let space = match m.types[result_ty] {
                        Type::Pointer { space, .. } => space,
                        _ => return Err(Error::internal("a lane address of a non-pointer")),
                    };
                    let sw = super::types::space_word(space)?.unwrap_or("");
                    path = format!("(({sw} {lane} *)&{path})[{}]", index(e, k));
                    cur = *elem;
                }
                _ => return Err(Error::malformed("getelementptr into a scalar")),
            }
        }
        Ok(Expr::unary("&", &Expr::atom(path)))
    }
}

/// A 32- or 64-bit unsigned literal (`499u`, `0xffffffffu`, `5UL`) as the signed literal of
/// the same bits (`499`, `-1`, `5L`).
fn signed_literal(width: u32, text: &str) -> Option<Expr> {
    let (digits, suffix) = match width {
        32 => (text.strip_suffix('u')?, ""),
        64 => (text.strip_suffix("UL")?, "L"),
        _ => return None,
    };
    let v = match digits.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<u64>().ok()?,
    };
    let s = if width == 32 {
        v as u32 as i32 as i64
    } else {
        v as i64
    };
    // The most negative value has no literal of its own.
    if s == i64::from(i32::MIN) && width == 32 || s == i64::MIN {
        return None;
    }
    Some(if s < 0 {
        Expr::unary("-", &Expr::atom(format!("{}{suffix}", -s)))
    } else {
        Expr::atom(format!("{s}{suffix}"))
    })
}

impl Expr {
    /// The expression parenthesized (an atom).
    pub fn paren(&self) -> Expr {
        Expr::atom(format!("({})", self.text))
    }
}
