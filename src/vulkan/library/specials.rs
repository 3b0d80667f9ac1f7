//! The special operands of the math library's functions (zeros, infinities, NaNs, negative
//! bases, the exact multiples of tanpi), as C99 and OpenCL C fix them, for floats of any
//! width: the float and double bodies share them.

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::ir::{BinaryOp, CastOp, ConstantKind, FloatPredicate, IntPredicate, Op, Value};

use super::E;

#[derive(PartialEq)]
pub(super) enum Pow {
    Pow,
    Powr,
}

/// log's answers for 0 (−inf), +inf, x < 0 and NaN (NaN); `r` elsewhere (any float type).
pub(super) fn log_special(e: &mut E, x: Value, r: Value) -> Value {
    let t = e.b.ty_of(x);
    let bt = e.bools(t);
    let zero = e.float_const(t, 0.0);
    let inf = e.float_const(t, f64::INFINITY);
    let ninf = e.float_const(t, f64::NEG_INFINITY);
    let nan = e.float_const(t, f64::NAN);
    let is_zero = e.fcmp(FloatPredicate::Oeq, bt, x, zero);
    let is_inf = e.fcmp(FloatPredicate::Oeq, bt, x, inf);
    let bad = e.fcmp(FloatPredicate::Ult, bt, x, zero);
    let r = e.select(t, is_zero, ninf, r);
    let r = e.select(t, is_inf, inf, r);
    e.select(t, bad, nan, r)
}

/// r with the sign of x (any float type).
pub(super) fn with_sign_of(e: &mut E, r: Value, x: Value) -> Value {
    let t = e.b.ty_of(x);
    let w = e.width(t);
    let it = e.ints(t, w);
    let bt = e.bools(t);
    let bits = e.cast(CastOp::Bitcast, it, x);
    let z = e.splat(it, ConstantKind::Int(0));
    let neg = e.icmp(IntPredicate::Slt, bt, bits, z);
    // A negation, not 0 − r: a zero takes the sign too.
    let nr = e.b.push(t, Op::FNeg(r));
    e.select(t, neg, nr, r)
}

/// `v`, or x itself where x is ±0 (any float type): the odd functions' zeros keep their
/// sign (sin(−0) is −0, which a reduction or a polynomial's sum does not carry).
pub(super) fn zero_keeps(e: &mut E, x: Value, v: Value) -> Value {
    let t = e.b.ty_of(x);
    let bt = e.bools(t);
    let zero = e.float_const(t, 0.0);
    let z = e.fcmp(FloatPredicate::Oeq, bt, x, zero);
    e.select(t, z, x, v)
}

/// `v`, or a zero with the sign of `s` where v is a zero (any float type; OpenCL C 7.5.1:
/// sinpi(n) is +0 for a positive integer n and −0 for a negative one; atan2pi(±0, x > 0)
/// is ±0).
pub(super) fn zero_signed_as(e: &mut E, v: Value, s: Value) -> Value {
    let t = e.b.ty_of(v);
    let bt = e.bools(t);
    let zero = e.float_const(t, 0.0);
    let z = e.fcmp(FloatPredicate::Oeq, bt, v, zero);
    let signed = with_sign_of(e, zero, s);
    e.select(t, z, signed, v)
}

/// `v`, or NaN where x is infinite or NaN (any float type): the trigonometric reductions
/// do not carry those.
pub(super) fn not_finite_nan(e: &mut E, x: Value, v: Value) -> Value {
    let t = e.b.ty_of(x);
    let bt = e.bools(t);
    let inf = e.spirv(S::IsInf, bt, vec![x]);
    let nan = e.spirv(S::IsNan, bt, vec![x]);
    let dflt = super::div_sqrt::default_nan(e, t);
    let v = e.select(t, inf, dflt, v);
    let quiet = e.bin(BinaryOp::FAdd, t, x, x);
    e.select(t, nan, quiet, v)
}

/// C99's x^y (`powr`'s own for `Powr`) where its operands are special, `r` elsewhere
/// (any float type).
pub(super) fn pow_special(e: &mut E, x: Value, y: Value, r: Value, kind: Pow) -> Value {
    let t = e.b.ty_of(x);
    let bt = e.bools(t);
    let c = |e: &mut E, v: f64| e.float_const(t, v);
    let zero = c(e, 0.0);
    let one = c(e, 1.0);
    let nan = c(e, f64::NAN);
    let inf = c(e, f64::INFINITY);
    let y_zero = e.fcmp(FloatPredicate::Oeq, bt, y, zero);
    let x_one = e.fcmp(FloatPredicate::Oeq, bt, x, one);
    let ay = e.glsl(G::FAbs, t, vec![y]);
    let y_inf = e.fcmp(FloatPredicate::Oeq, bt, ay, inf);
    if kind == Pow::Powr {
        // powr: x < 0, 0^0, inf^0 and 1^inf are NaN.
        let x_neg = e.fcmp(FloatPredicate::Olt, bt, x, zero);
        let x_zero = e.fcmp(FloatPredicate::Oeq, bt, x, zero);
        let x_inf = e.fcmp(FloatPredicate::Oeq, bt, x, inf);
        let zz = e.or(x_zero, x_inf);
        let zz = e.and(zz, y_zero);
        let one_inf = e.and(x_one, y_inf);
        let bad = e.or(x_neg, zz);
        let bad = e.or(bad, one_inf);
        return e.select(t, bad, nan, r);
    }
    // Integral and odd y (odd ones are below 2^p, where halving is exact).
    let ty = e.glsl(G::Trunc, t, vec![y]);
    let y_int = e.fcmp(FloatPredicate::Oeq, bt, ty, y);
    let half = c(e, 0.5);
    let hy = e.bin(BinaryOp::FMul, t, y, half);
    let thy = e.glsl(G::Trunc, t, vec![hy]);
    let y_even = e.fcmp(FloatPredicate::Oeq, bt, thy, hy);
    let not_even = e.spirv(S::LogicalNot, bt, vec![y_even]);
    let y_odd = e.and(y_int, not_even);
    // A negative base: the sign of an odd power, NaN for a non-integral finite one.
    let w = e.width(t);
    let it = e.ints(t, w);
    let bits = e.cast(CastOp::Bitcast, it, x);
    let z = e.splat(it, ConstantKind::Int(0));
    let x_neg = e.icmp(IntPredicate::Slt, bt, bits, z);
    let neg_odd = e.and(x_neg, y_odd);
    // A negation, not 0 − r: (−0)^3 is −0.
    let nr = e.b.push(t, Op::FNeg(r));
    let r = e.select(t, neg_odd, nr, r);
    let x_lt0 = e.fcmp(FloatPredicate::Olt, bt, x, zero);
    let not_int = e.spirv(S::LogicalNot, bt, vec![y_int]);
    let ninf = c(e, f64::NEG_INFINITY);
    let not_ninf = e.fcmp(FloatPredicate::One, bt, x, ninf);
    let x_finite_neg = e.and(x_lt0, not_ninf);
    let y_finite = e.spirv(S::LogicalNot, bt, vec![y_inf]);
    let bad = e.and(x_finite_neg, not_int);
    let bad = e.and(bad, y_finite);
    let r = e.select(t, bad, nan, r);
    // (−1)^±inf, 1^y and x^0 are 1.
    let m1 = c(e, -1.0);
    let x_m1 = e.fcmp(FloatPredicate::Oeq, bt, x, m1);
    let m1_inf = e.and(x_m1, y_inf);
    let ones = e.or(y_zero, x_one);
    let ones = e.or(ones, m1_inf);
    e.select(t, ones, one, r)
}

/// |x|^y (`r`, computed for finite nonzero x and finite y) where x is 0, infinite or NaN or
/// y infinite or NaN (any float type): C99's zeros and infinities of the magnitude, NaN for
/// a NaN operand (`pow_special` then gives the signs and the cases that are 1).
pub(super) fn power_ends(e: &mut E, ax: Value, y: Value, r: Value) -> Value {
    let t = e.b.ty_of(ax);
    let bt = e.bools(t);
    let c = |e: &mut E, v: f64| e.float_const(t, v);
    let (zero, one, inf) = (c(e, 0.0), c(e, 1.0), c(e, f64::INFINITY));
    let x0 = e.fcmp(FloatPredicate::Oeq, bt, ax, zero);
    let xi = e.fcmp(FloatPredicate::Oeq, bt, ax, inf);
    let ay = e.glsl(G::FAbs, t, vec![y]);
    let yi = e.fcmp(FloatPredicate::Oeq, bt, ay, inf);
    let y_pos = e.fcmp(FloatPredicate::Ogt, bt, y, zero);
    let y_neg = e.fcmp(FloatPredicate::Olt, bt, y, zero);
    let small = e.fcmp(FloatPredicate::Olt, bt, ax, one);
    let large = e.fcmp(FloatPredicate::Ogt, bt, ax, one);
    // 0^(y > 0), inf^(y < 0), (|x| < 1)^+inf, (|x| > 1)^-inf are 0; the mirrors inf.
    let parts = [
        (x0, y_pos, zero),
        (x0, y_neg, inf),
        (xi, y_neg, zero),
        (xi, y_pos, inf),
    ];
    let mut r = r;
    for (a, b, v) in parts {
        let hit = e.and(a, b);
        r = e.select(t, hit, v, r);
    }
    let ends = [
        (small, y_pos, zero),
        (small, y_neg, inf),
        (large, y_pos, inf),
        (large, y_neg, zero),
    ];
    for (a, b, v) in ends {
        let hit = e.and(a, b);
        let hit = e.and(hit, yi);
        r = e.select(t, hit, v, r);
    }
    let xn = e.spirv(S::IsNan, bt, vec![ax]);
    let yn = e.spirv(S::IsNan, bt, vec![y]);
    let nan_in = e.or(xn, yn);
    let nan = c(e, f64::NAN);
    e.select(t, nan_in, nan, r)
}

/// OpenCL's rootn where its operands are special (odd roots keep x's sign, even ones of
/// x < 0 and n = 0 are NaN), `r` (|x|^(1/n)) elsewhere; n as a float of x's type.
pub(super) fn rootn_special(e: &mut E, x: Value, n: Value, r: Value) -> Value {
    let t = e.b.ty_of(x);
    let bt = e.bools(t);
    let zero = e.float_const(t, 0.0);
    let nan = e.float_const(t, f64::NAN);
    let half = e.float_const(t, 0.5);
    let hn = e.bin(BinaryOp::FMul, t, n, half);
    let thn = e.glsl(G::Trunc, t, vec![hn]);
    let n_odd = e.fcmp(FloatPredicate::One, bt, thn, hn);
    // An odd root keeps x's sign (zeros and infinities too); an even one of x < 0 is NaN.
    let signed = with_sign_of(e, r, x);
    let r = e.select(t, n_odd, signed, r);
    let x_neg = e.fcmp(FloatPredicate::Olt, bt, x, zero);
    let n_even = e.spirv(S::LogicalNot, bt, vec![n_odd]);
    let bad = e.and(x_neg, n_even);
    let n_zero = e.fcmp(FloatPredicate::Oeq, bt, n, zero);
    let bad = e.or(bad, n_zero);
    e.select(t, bad, nan, r)
}

/// tanpi of `x` (any float type; `t` its quotient of the series, `q` = 2x mod 4) where
/// OpenCL C fixes it at the multiples of ½, whose signs the quotient gets wrong:
/// copysign(0, x) at even integers, copysign(0, −x) at odd ones, +∞ at n + ½ for even n
/// (q 1), −∞ for odd n (q 3).
pub(super) fn tanpi_exact(e: &mut E, x: Value, q: Value, t: Value) -> Value {
    let i32t = e.b.l.out.int_type(32);
    let ft = e.b.ty_of(x);
    let bt = e.bools(ft);
    let c = |e: &mut E, v: f64| e.float_const(ft, v);
    let two = c(e, 2.0);
    let x2 = e.bin(BinaryOp::FMul, ft, x, two);
    let k = e.glsl(G::RoundEven, ft, vec![x2]);
    let on_half = e.fcmp(FloatPredicate::Oeq, bt, x2, k);
    let ax = e.glsl(G::FAbs, ft, vec![x]);
    let inf = c(e, f64::INFINITY);
    let finite = e.fcmp(FloatPredicate::Olt, bt, ax, inf);
    let exact = e.spirv(S::LogicalAnd, bt, vec![on_half, finite]);
    let k = |e: &mut E, v: u64| e.splat(i32t, ConstantKind::Int(v));
    let (one, two) = (k(e, 1), k(e, 2));
    let q_is_2 = e.icmp(IntPredicate::Eq, bt, q, two);
    let nx = e.b.push(ft, Op::FNeg(x));
    let sign = e.select(ft, q_is_2, nx, x);
    let zero = c(e, 0.0);
    let zero = super::copysign(e, ft, zero, sign);
    let q_is_1 = e.icmp(IntPredicate::Eq, bt, q, one);
    let ninf = c(e, f64::NEG_INFINITY);
    let pole = e.select(ft, q_is_1, inf, ninf);
    let odd = e.bin(BinaryOp::And, i32t, q, one);
    let none = k(e, 0);
    let odd = e.icmp(IntPredicate::Ne, bt, odd, none);
    let at_half = e.select(ft, odd, pole, zero);
    e.select(ft, exact, at_half, t)
}

/// Γ(x) (`r`, computed for the other operands) at its poles and ends, either precision:
/// ±0 give ±∞, negative integers and −∞ NaN, +∞ gives +∞, and a NaN stays (quieted).
pub(super) fn tgamma_ends(e: &mut E, x: Value, r: Value) -> Value {
    let t = e.b.ty_of(x);
    let bt = e.bools(t);
    let zero = e.float_const(t, 0.0);
    let is_zero = e.fcmp(FloatPredicate::Oeq, bt, x, zero);
    let inf = e.float_const(t, f64::INFINITY);
    let signed_inf = with_sign_of(e, inf, x);
    let r = e.select(t, is_zero, signed_inf, r);
    let tr = e.glsl(G::Trunc, t, vec![x]);
    let int = e.fcmp(FloatPredicate::Oeq, bt, tr, x);
    let negative = e.fcmp(FloatPredicate::Olt, bt, x, zero);
    let pole = e.spirv(S::LogicalAnd, bt, vec![int, negative]);
    let nan = super::div_sqrt::default_nan(e, t);
    let r = e.select(t, pole, nan, r);
    let pinf = e.fcmp(FloatPredicate::Oeq, bt, x, inf);
    let r = e.select(t, pinf, inf, r);
    let xn = e.spirv(S::IsNan, bt, vec![x]);
    let quiet = e.bin(crate::ir::BinaryOp::FAdd, t, x, x);
    e.select(t, xn, quiet, r)
}

/// lgamma's result `r` of `x` (any float type) with its poles and ends as C99 says
/// (non-positive integers and ±∞ give +∞, NaN stays NaN), and the sign of Γ(x) as ±1.0:
/// sin(πx)'s (`s`) where the reflection made `r` (`reflected`), +1 elsewhere and at the
/// poles and ends.
pub(super) fn lgamma_ends(
    e: &mut E,
    x: Value,
    r: Value,
    s: Value,
    reflected: Value,
) -> (Value, Value) {
    let t = e.b.ty_of(x);
    let bt = e.bools(t);
    let zero = e.float_const(t, 0.0);
    let one = e.float_const(t, 1.0);
    let fl = e.glsl(G::Floor, t, vec![x]);
    let int = e.fcmp(FloatPredicate::Oeq, bt, fl, x);
    let nonpos = e.fcmp(FloatPredicate::Ole, bt, x, zero);
    let pole = e.spirv(S::LogicalAnd, bt, vec![int, nonpos]);
    let is_inf = e.spirv(S::IsInf, bt, vec![x]);
    let special = e.spirv(S::LogicalOr, bt, vec![pole, is_inf]);
    let inf = e.float_const(t, f64::INFINITY);
    let r = e.select(t, special, inf, r);
    let nan = e.spirv(S::IsNan, bt, vec![x]);
    let r = e.select(t, nan, x, r);
    let neg_s = e.fcmp(FloatPredicate::Olt, bt, s, zero);
    let mone = e.float_const(t, -1.0);
    let sg = e.select(t, neg_s, mone, one);
    let sg = e.select(t, reflected, sg, one);
    let sg = e.select(t, special, one, sg);
    // Γ(−0) is −∞: its sign −1 (as C libraries give it).
    let is_zero = e.fcmp(FloatPredicate::Oeq, bt, x, zero);
    let zero_sign = with_sign_of(e, one, x);
    let sg = e.select(t, is_zero, zero_sign, sg);
    (r, sg)
}
