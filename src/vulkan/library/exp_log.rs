//! Exponentials, logarithms, powers, roots and the hyperbolic functions: the double bodies
//! (double.rs) and the half and float ones (exp_log_float.rs, in float; halves rounded once
//! at the end), the hyperbolic ones of both (hyperbolic.rs over those), each lane on its
//! own (`E::lanewise`). Vulkan's own `exp`, `log` and `pow` are far from OpenCL's 3 and
//! 16 ulp. The `E` shorthands for scalar doubles used by the
//! double bodies live here too.

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp, ConstantKind, FloatPredicate, Handle, Type};
use crate::ir::{ConvertKind, Op, Sign, Value};

use super::hyperbolic::{self, Function};
use super::E;
use crate::vulkan::emit::plain;

/// The library's body for `op` of half or float arguments, if it is one of this family.
pub(super) fn exp_log(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Option<Value> {
    if e.width(ret) == 64 {
        if let Some(h) = Function::of(op) {
            return Some(e.lanewise(ret, args, |e, lanes, _| {
                hyperbolic::body::<hyperbolic::Double>(e, h, lanes[0])
            }));
        }
        return super::double::math(e, op, args, ret);
    }
    if !matches!(
        e.b.l.out.types[e.b.l.out.scalar_of(ret)],
        Type::Float { .. }
    ) {
        return None;
    }
    // Half and float: in float (exp_log_float.rs), halves rounded once at the end.
    let ft = e.b.l.out.ty(Type::Float { width: 32 });
    let missing = std::cell::Cell::new(false);
    let v = e.lanewise(ret, args, |e, lanes, et| {
        let wide: Vec<Value> = lanes
            .iter()
            .map(|&v| match e.b.l.out.types[e.b.ty_of(v)] {
                Type::Float { width: 16 } => e.fconvert(ft, v),
                _ => v,
            })
            .collect();
        let body = super::exp_log_float::math(e, op, &wide).or_else(|| {
            let h = Function::of(op)?;
            Some(hyperbolic::body::<hyperbolic::Float>(e, h, wide[0]))
        });
        match body {
            Some(r) if et == ft => r,
            Some(r) => e.fconvert(et, r),
            None => {
                missing.set(true);
                wide[0]
            }
        }
    });
    (!missing.get()).then_some(v)
}

impl E<'_, '_, '_> {
    pub(super) fn dt(&mut self) -> Handle<Type> {
        self.b.l.out.ty(Type::Float { width: 64 })
    }
    pub(super) fn dconst(&mut self, v: f64) -> Value {
        let dt = self.dt();
        self.splat(dt, ConstantKind::Float(v.to_bits()))
    }
    pub(super) fn dbin(&mut self, op: BinaryOp, x: Value, y: Value) -> Value {
        let dt = self.dt();
        self.bin(op, dt, x, y)
    }
    pub(super) fn dglsl(&mut self, g: G, x: Value) -> Value {
        let dt = self.dt();
        self.glsl(g, dt, vec![x])
    }
    pub(super) fn dcmp(&mut self, p: FloatPredicate, x: Value, y: Value) -> Value {
        let bt = self.b.l.out.ty(Type::Bool);
        self.fcmp(p, bt, x, y)
    }
    pub(super) fn dsel(&mut self, c: Value, x: Value, y: Value) -> Value {
        let dt = self.dt();
        self.select(dt, c, x, y)
    }
    pub(super) fn or(&mut self, x: Value, y: Value) -> Value {
        let bt = self.b.l.out.ty(Type::Bool);
        self.spirv(S::LogicalOr, bt, vec![x, y])
    }
    pub(super) fn and(&mut self, x: Value, y: Value) -> Value {
        let bt = self.b.l.out.ty(Type::Bool);
        self.spirv(S::LogicalAnd, bt, vec![x, y])
    }
    /// A scalar float or integer (taken as signed) as a double.
    pub(super) fn as_double(&mut self, v: Value) -> Value {
        let dt = self.dt();
        let t = self.b.ty_of(v);
        match self.b.l.out.types[t] {
            Type::Float { .. } => self.fconvert(dt, v),
            _ => self.b.push(
                dt,
                Op::Builtin {
                    builtin: plain(ConvertKind::Int(Sign::Signed), ConvertKind::Float),
                    args: vec![v],
                },
            ),
        }
    }
    /// Σ c_i · x^i (coefficients from the constant term up), by Horner's rule.
    pub(super) fn poly(&mut self, x: Value, coeffs: &[f64]) -> Value {
        let dt = self.dt();
        super::float_ops::horner(self, dt, x, coeffs)
    }
}
