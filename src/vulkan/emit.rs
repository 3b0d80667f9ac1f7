//! Shorthands for emitting graph code into the body being built, shared by the builtin
//! lowering and the builtin library.

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::diag::Result;
use crate::ir::{
    BinaryOp, Builtin, CastOp, Constant, ConstantKind, ConvertKind, FloatPredicate, Handle,
    IntPredicate, Op, Type, Value,
};

use super::body::FnBuilder;

/// Shorthands for emitting graph code into the body being built.
pub(super) struct E<'b, 'l, 'a> {
    pub b: &'b mut FnBuilder<'l, 'a>,
}

impl E<'_, '_, '_> {
    pub(super) fn bin(&mut self, op: BinaryOp, t: Handle<Type>, x: Value, y: Value) -> Value {
        self.b.push(
            t,
            Op::Binary {
                op,
                lhs: x,
                rhs: y,
                flags: Default::default(),
            },
        )
    }
    pub(super) fn cast(&mut self, op: CastOp, t: Handle<Type>, v: Value) -> Value {
        // A bitcast of a scalar constant between same-width numbers is a constant.
        if let (CastOp::Bitcast, Value::Const(c)) = (op, v) {
            let m = &self.b.l.out;
            let bits = match m.constants[c].kind {
                ConstantKind::Int(b) | ConstantKind::Float(b) => Some(b),
                _ => None,
            };
            let kind = match m.types[t] {
                Type::Int { .. } => bits.map(ConstantKind::Int),
                Type::Float { .. } => bits.map(ConstantKind::Float),
                _ => None,
            };
            if let Some(kind) = kind.filter(|_| self.width(m.constants[c].ty) == self.width(t)) {
                return Value::Const(self.b.l.out.constant(Constant { ty: t, kind }));
            }
        }
        self.b.push(t, Op::Cast { op, value: v })
    }
    pub(super) fn icmp(
        &mut self,
        pred: IntPredicate,
        t: Handle<Type>,
        x: Value,
        y: Value,
    ) -> Value {
        self.b.push(
            t,
            Op::ICmp {
                pred,
                lhs: x,
                rhs: y,
            },
        )
    }
    pub(super) fn fcmp(
        &mut self,
        pred: FloatPredicate,
        t: Handle<Type>,
        x: Value,
        y: Value,
    ) -> Value {
        self.b.push(
            t,
            Op::FCmp {
                pred,
                lhs: x,
                rhs: y,
            },
        )
    }
    pub(super) fn select(&mut self, t: Handle<Type>, c: Value, x: Value, y: Value) -> Value {
        self.b.push(
            t,
            Op::Select {
                cond: c,
                on_true: x,
                on_false: y,
            },
        )
    }
    pub(super) fn glsl(&mut self, g: G, t: Handle<Type>, args: Vec<Value>) -> Value {
        let double = matches!(
            self.b.l.out.types[self.b.l.out.scalar_of(t)],
            Type::Float { width: 64 }
        );
        if double && matches!(g, G::Trunc | G::RoundEven) && args.len() == 1 {
            return self.integral_double(g, t, args[0]);
        }
        self.b.push(
            t,
            Op::Builtin {
                builtin: Builtin::Glsl(g),
                args,
            },
        )
    }
    /// `Trunc` or `RoundEven` of doubles, from `Floor` and `Ceil`: lavapipe (Mesa 25.0.7,
    /// LLVM 15, 256-bit vectors) returns doubles of magnitude 2^24 and above unchanged from
    /// both, fraction and all (measured), where `Floor` and `Ceil` are right.
    /// trunc(x) = x < 0 ? ceil(x) : floor(x); rint(x) = floor(x), or one more where the
    /// fraction passes one half or is one half above an odd floor, with x's sign (-0.3 to -0).
    fn integral_double(&mut self, g: G, t: Handle<Type>, x: Value) -> Value {
        let bt = self.bools(t);
        let f = self.glsl(G::Floor, t, vec![x]);
        let zero = self.float_const(t, 0.0);
        if g == G::Trunc {
            let c = self.glsl(G::Ceil, t, vec![x]);
            let neg = self.fcmp(FloatPredicate::Olt, bt, x, zero);
            return self.select(t, neg, c, f);
        }
        let half = self.float_const(t, 0.5);
        let one = self.float_const(t, 1.0);
        let d = self.bin(BinaryOp::FSub, t, x, f);
        let up = self.bin(BinaryOp::FAdd, t, f, one);
        let fh = self.bin(BinaryOp::FMul, t, f, half);
        let fhf = self.glsl(G::Floor, t, vec![fh]);
        let even = self.fcmp(FloatPredicate::Oeq, bt, fh, fhf);
        let tie = self.select(t, even, f, up);
        let below = self.fcmp(FloatPredicate::Olt, bt, d, half);
        let above = self.fcmp(FloatPredicate::Ogt, bt, d, half);
        let r = self.select(t, above, up, tie);
        let r = self.select(t, below, f, r);
        // The sign of x (a zero result keeps it), as copysign on the bits.
        let it = self.ints(t, 64);
        let sign = self.splat(it, ConstantKind::Int(1 << 63));
        let rest = self.splat(it, ConstantKind::Int(!(1u64 << 63)));
        let rb = self.cast(CastOp::Bitcast, it, r);
        let xb = self.cast(CastOp::Bitcast, it, x);
        let rm = self.bin(BinaryOp::And, it, rb, rest);
        let xs = self.bin(BinaryOp::And, it, xb, sign);
        let rb = self.bin(BinaryOp::Or, it, rm, xs);
        self.cast(CastOp::Bitcast, t, rb)
    }
    pub(super) fn spirv(&mut self, op: S, t: Handle<Type>, args: Vec<Value>) -> Value {
        self.b.push(
            t,
            Op::Builtin {
                builtin: Builtin::Primitive(op),
                args,
            },
        )
    }
    pub(super) fn fconvert(&mut self, t: Handle<Type>, v: Value) -> Value {
        self.b.push(
            t,
            Op::Builtin {
                builtin: Builtin::Convert {
                    from: ConvertKind::Float,
                    to: ConvertKind::Float,
                    saturate: false,
                    rounding: None,
                },
                args: vec![v],
            },
        )
    }
    /// `f` applied to each lane of `args` (scalars pass as they are) with scalar results of
    /// `t`'s element type, put together as a value of `t`; `f` itself where `t` is scalar.
    pub(super) fn lanewise(
        &mut self,
        t: Handle<Type>,
        args: &[Value],
        f: impl Fn(&mut Self, &[Value], Handle<Type>) -> Value,
    ) -> Value {
        let lanes = self.b.l.out.lanes(t);
        if lanes == 1 {
            return f(self, args, t);
        }
        let elem = self.b.l.out.scalar_of(t);
        let mut parts = Vec::with_capacity(lanes as usize);
        for i in 0..lanes {
            let index = self.b.int_const(32, i as u64);
            let lane_args: Vec<Value> = args
                .iter()
                .map(|&a| {
                    let at = self.b.ty_of(a);
                    if self.b.l.out.lanes(at) == 1 {
                        return a;
                    }
                    let et = self.b.l.out.scalar_of(at);
                    self.b.push(et, Op::ExtractElement { vector: a, index })
                })
                .collect();
            parts.push(f(self, &lane_args, elem));
        }
        self.compose(t, parts)
    }

    /// `parts`, one per lane, put together as a value of `t` (the one part where `t` is a
    /// scalar).
    pub(super) fn compose(&mut self, t: Handle<Type>, parts: Vec<Value>) -> Value {
        if self.b.l.out.lanes(t) == 1 {
            return parts[0];
        }
        let mut acc = Value::Const(self.b.l.out.constant(Constant {
            ty: t,
            kind: ConstantKind::Undef,
        }));
        for (i, element) in parts.into_iter().enumerate() {
            let index = self.b.int_const(32, i as u64);
            acc = self.b.push(
                t,
                Op::InsertElement {
                    vector: acc,
                    element,
                    index,
                },
            );
        }
        acc
    }

    /// `v` (a scalar, or already of `t`'s lanes) as a value of the vector type `t`.
    pub(super) fn broadcast(&mut self, t: Handle<Type>, v: Value) -> Value {
        let lanes = self.b.l.out.lanes(t);
        if self.b.l.out.lanes(self.b.ty_of(v)) == lanes {
            return v;
        }
        let mut acc = Value::Const(self.b.l.out.constant(Constant {
            ty: t,
            kind: ConstantKind::Undef,
        }));
        let it = self.b.l.out.int_type(32);
        for i in 0..lanes {
            let index = Value::Const(self.b.l.out.int_const(it, i as u64));
            acc = self.b.push(
                t,
                Op::InsertElement {
                    vector: acc,
                    element: v,
                    index,
                },
            );
        }
        acc
    }
    /// A scalar constant of `t`'s element type, splat to `t` when it is a vector.
    pub(super) fn splat(&mut self, t: Handle<Type>, kind: ConstantKind) -> Value {
        let m = &mut self.b.l.out;
        let elem = m.scalar_of(t);
        let s = m.constant(Constant { ty: elem, kind });
        if elem == t {
            return Value::Const(s);
        }
        let lanes = m.lanes(t) as usize;
        Value::Const(m.constant(Constant {
            ty: t,
            kind: ConstantKind::Composite(vec![s; lanes]),
        }))
    }
    pub(super) fn width(&self, t: Handle<Type>) -> u32 {
        let m = &self.b.l.out;
        match m.types[m.scalar_of(t)] {
            Type::Int { width } | Type::Float { width } => width,
            _ => 0,
        }
    }
    /// `t` with its element replaced by `elem`.
    pub(super) fn like(&mut self, t: Handle<Type>, elem: Handle<Type>) -> Handle<Type> {
        match self.b.l.out.types[t] {
            Type::Vector { len, .. } => self.b.l.out.ty(Type::Vector { elem, len }),
            _ => elem,
        }
    }
    pub(super) fn bools(&mut self, t: Handle<Type>) -> Handle<Type> {
        let b = self.b.l.out.ty(Type::Bool);
        self.like(t, b)
    }
    pub(super) fn ints(&mut self, t: Handle<Type>, width: u32) -> Handle<Type> {
        let i = self.b.l.out.int_type(width);
        self.like(t, i)
    }
    pub(super) fn floats(&mut self, t: Handle<Type>, width: u32) -> Handle<Type> {
        let f = self.b.l.out.ty(Type::Float { width });
        self.like(t, f)
    }
    pub(super) fn float_const(&mut self, t: Handle<Type>, v: f64) -> Value {
        let bits = match self.width(t) {
            16 => f32_to_f16_bits(v as f32),
            32 => (v as f32).to_bits() as u64,
            _ => v.to_bits(),
        };
        self.splat(t, ConstantKind::Float(bits))
    }

    /// `&p[offset * n + i]` (the element `i` of the `offset`-th group of `n`).
    pub(super) fn element(&mut self, p: Value, offset: Value, n: u32, i: u32) -> Result<Value> {
        let ot = self.b.ty_of(offset);
        // A constant group's index is a constant (a private array a vector is stored into
        // then has constant indices only, which a driver can keep in registers).
        if let Value::Const(c) = offset {
            if let ConstantKind::Int(o) = self.b.l.out.constants[c].kind {
                let width = match self.b.l.out.types[ot] {
                    Type::Int { width } => width,
                    _ => 64,
                };
                let at = o.wrapping_mul(u64::from(n)).wrapping_add(u64::from(i))
                    & (u64::MAX >> (64 - width.clamp(1, 64)));
                let idx = Value::Const(self.b.l.out.int_const(ot, at));
                return self.b.gep(p, vec![idx], true);
            }
        }
        let nn = Value::Const(self.b.l.out.int_const(ot, n as u64));
        let base = self.bin(BinaryOp::Mul, ot, offset, nn);
        let ii = Value::Const(self.b.l.out.int_const(ot, i as u64));
        let idx = self.bin(BinaryOp::Add, ot, base, ii);
        self.b.gep(p, vec![idx], true)
    }
}

/// A plain conversion (no saturation, the default rounding) between two numeric classes.
pub(super) fn plain(from: ConvertKind, to: ConvertKind) -> Builtin {
    Builtin::Convert {
        from,
        to,
        saturate: false,
        rounding: None,
    }
}

/// Round-to-nearest-even half of a float (for the few constants the library needs).
fn f32_to_f16_bits(f: f32) -> u64 {
    let b = f.to_bits();
    let sign = (b >> 16) & 0x8000;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let mant = b & 0x7f_ffff;
    if exp >= 31 {
        return (sign | 0x7c00) as u64;
    }
    if exp <= 0 {
        return sign as u64;
    }
    let mut h = sign | ((exp as u32) << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
        h += 1;
    }
    h as u64
}
