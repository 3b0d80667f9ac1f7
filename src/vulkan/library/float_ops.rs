//! Shorthands for the float library's scalar float lanes (exp_log_float.rs, trig_float.rs,
//! inverse_trig_float.rs, gamma_float.rs): constants, arithmetic, compares and selects of
//! 32-bit floats, 32-bit integer constants and conversions, and Horner's rule.

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::ir::{BinaryOp as B, ConstantKind, ConvertKind, FloatPredicate as P};
use crate::ir::{Handle, Op, Sign, Type, Value};

pub(super) use super::specials::{zero_keeps, zero_signed_as};
use super::E;
use crate::vulkan::emit::plain;

pub(super) fn ft(e: &mut E) -> Handle<Type> {
    e.b.l.out.ty(Type::Float { width: 32 })
}
pub(super) fn fc(e: &mut E, v: f64) -> Value {
    let t = ft(e);
    e.float_const(t, v)
}
pub(super) fn f(e: &mut E, op: B, x: Value, y: Value) -> Value {
    let t = ft(e);
    e.bin(op, t, x, y)
}
pub(super) fn fcmp(e: &mut E, p: P, x: Value, y: Value) -> Value {
    let bt = e.b.l.out.ty(Type::Bool);
    e.fcmp(p, bt, x, y)
}
pub(super) fn fsel(e: &mut E, c: Value, x: Value, y: Value) -> Value {
    let t = ft(e);
    e.select(t, c, x, y)
}
pub(super) fn ki(e: &mut E, v: i64) -> Value {
    let t = e.b.l.out.int_type(32);
    e.splat(t, ConstantKind::Int(v as u32 as u64))
}
pub(super) fn to_int(e: &mut E, x: Value) -> Value {
    let it = e.b.l.out.int_type(32);
    e.b.push(
        it,
        Op::Builtin {
            builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
            args: vec![x],
        },
    )
}
pub(super) fn neg(e: &mut E, x: Value) -> Value {
    let t = ft(e);
    e.b.push(t, Op::FNeg(x))
}
/// Σ c_i · x^i by Horner's rule, in float.
pub(super) fn poly(e: &mut E, x: Value, coeffs: &[f64]) -> Value {
    let t = ft(e);
    horner(e, t, x, coeffs)
}
/// Σ c_i · x^i (coefficients from the constant term up) by Horner's rule, in `t` (any float
/// type: the float, double and shared bodies all evaluate their series here).
///
/// Each step is GLSL.std.450 `Fma` without NoContraction: "a product and a sum, fused or
/// each rounded", the driver's choice. Either rounding is within the error the series' fits
/// were made for (the unfused one is what every step rounded before), and a GPU's compiler
/// makes each step one instruction instead of two that NoContraction keeps apart:
/// black_scholes (four erfc, a log and an exp) went from 1.25 to 0.99 of NVIDIA's OpenCL
/// build on the H100 (docs/logs/h100/), and lavapipe runs it as fast as before.
pub(super) fn horner(e: &mut E, t: Handle<Type>, x: Value, coeffs: &[f64]) -> Value {
    let mut acc = e.float_const(t, coeffs[coeffs.len() - 1]);
    for &c in coeffs.iter().rev().skip(1) {
        let c = e.float_const(t, c);
        acc = e.glsl(G::Fma, t, vec![acc, x, c]);
    }
    acc
}
/// A GLSL.std.450 instruction of one float operand.
pub(super) fn fg(e: &mut E, g: G, x: Value) -> Value {
    let t = ft(e);
    e.glsl(g, t, vec![x])
}
/// x clamped to [lo, hi] (a NaN stays).
pub(super) fn clamp_c(e: &mut E, x: Value, lo: f64, hi: f64) -> Value {
    let l = fc(e, lo);
    let h = fc(e, hi);
    let below = fcmp(e, P::Olt, x, l);
    let above = fcmp(e, P::Ogt, x, h);
    let x = fsel(e, below, l, x);
    fsel(e, above, h, x)
}
pub(super) fn is_nan(e: &mut E, x: Value) -> Value {
    let bt = e.b.l.out.ty(Type::Bool);
    e.spirv(S::IsNan, bt, vec![x])
}
/// A 32-bit integer as a float.
pub(super) fn to_float(e: &mut E, k: Value) -> Value {
    let t = ft(e);
    e.b.push(
        t,
        Op::Builtin {
            builtin: plain(ConvertKind::Int(Sign::Signed), ConvertKind::Float),
            args: vec![k],
        },
    )
}
