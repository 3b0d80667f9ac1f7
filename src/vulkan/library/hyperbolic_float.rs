//! The hyperbolic functions of float and their inverses, in float (halves computed as
//! floats and rounded once), built from exp_log_float.rs's exponentials and logarithms as
//! fdlibm builds them: log1p forms near zero, and e^|x| halved inside its scaling so that
//! sinh and cosh do not overflow before their result does. Within OpenCL's float bounds
//! (4 ulp for sinh, cosh, asinh and acosh; 5 for tanh and atanh).

use spirv::{GlslStd450Op as G, Op as S};

use crate::ir::builtin::CLOp as C;
use crate::ir::{BinaryOp as B, FloatPredicate as P, Type, Value};

use super::exp_log_float::{exp_scaled, expm1, inverse_factorials, log, log1p, Base};
use super::float_ops::{f as fop, fc, fcmp, fg, fsel, ft, is_nan, poly};
use super::specials::with_sign_of;
use super::E;

/// The body of `op` for floats (scalars of one lane), if it is a hyperbolic function.
pub(super) fn math(e: &mut E, op: C, a: &[Value]) -> Option<Value> {
    let x = a[0];
    Some(match op {
        C::sinh => sinh_cosh(e, x, true),
        C::cosh => sinh_cosh(e, x, false),
        C::tanh => tanh(e, x),
        C::asinh => asinh(e, x),
        C::acosh => acosh(e, x),
        C::atanh => atanh(e, x),
        _ => return None,
    })
}

/// sinh or cosh: the odd series of sinh below 1, else (e^|x| ± e^−|x|)/2 with the halving
/// inside e^|x|'s scaling.
fn sinh_cosh(e: &mut E, x: Value, sinh: bool) -> Value {
    let ax = fg(e, G::FAbs, x);
    let half_e = exp_scaled(e, ax, -1);
    let quarter = fc(e, 0.25);
    let inv = fop(e, B::FDiv, quarter, half_e);
    let far = if sinh {
        fop(e, B::FSub, half_e, inv)
    } else {
        fop(e, B::FAdd, half_e, inv)
    };
    if !sinh {
        return far;
    }
    let far = with_sign_of(e, far, x);
    // x + x³·q(x²), q to x^12/13!.
    let x2 = fop(e, B::FMul, x, x);
    let c: Vec<f64> = inverse_factorials(13)
        .into_iter()
        .skip(3)
        .step_by(2)
        .collect();
    let q = poly(e, x2, &c);
    let x3 = fop(e, B::FMul, x2, x);
    let t = fop(e, B::FMul, x3, q);
    let near = fop(e, B::FAdd, x, t);
    let one = fc(e, 1.0);
    let small = fcmp(e, P::Olt, ax, one);
    let r = fsel(e, small, near, far);
    let nan = is_nan(e, x);
    fsel(e, nan, x, r)
}

/// expm1(2x) / (expm1(2x) + 2), ±1 beyond 10.
fn tanh(e: &mut E, x: Value) -> Value {
    let ax = fg(e, G::FAbs, x);
    let two = fc(e, 2.0);
    let x2 = fop(e, B::FMul, ax, two);
    let m = expm1(e, x2);
    let den = fop(e, B::FAdd, m, two);
    let r = fop(e, B::FDiv, m, den);
    let one = fc(e, 1.0);
    let k = fc(e, 10.0);
    let big = fcmp(e, P::Ogt, ax, k);
    let r = fsel(e, big, one, r);
    let r = with_sign_of(e, r, x);
    let nan = is_nan(e, x);
    fsel(e, nan, x, r)
}

/// sign(x)·log1p(|x| + x²/(1 + √(1 + x²))); log|x| + ln 2 beyond 2^12.
fn asinh(e: &mut E, x: Value) -> Value {
    let t = ft(e);
    let ax = fg(e, G::FAbs, x);
    let one = fc(e, 1.0);
    let x2 = fop(e, B::FMul, ax, ax);
    let u = fop(e, B::FAdd, x2, one);
    let s = super::div_sqrt::sqrt(e, u, t);
    let den = fop(e, B::FAdd, one, s);
    let q = fop(e, B::FDiv, x2, den);
    let w = fop(e, B::FAdd, ax, q);
    let mid = log1p(e, w);
    let l = log(e, ax, Base::E);
    let ln2 = fc(e, std::f64::consts::LN_2);
    let far = fop(e, B::FAdd, l, ln2);
    let k = fc(e, 4096.0);
    let big = fcmp(e, P::Ogt, ax, k);
    let r = fsel(e, big, far, mid);
    let r = with_sign_of(e, r, x);
    // Zeros, infinities and NaNs are their own.
    let zero = fc(e, 0.0);
    let inf = fc(e, f64::INFINITY);
    let is_zero = fcmp(e, P::Oeq, ax, zero);
    let is_inf = fcmp(e, P::Oeq, ax, inf);
    let nan = is_nan(e, x);
    let bt = e.b.l.out.ty(Type::Bool);
    let own = e.spirv(S::LogicalOr, bt, vec![is_zero, is_inf]);
    let own = e.spirv(S::LogicalOr, bt, vec![own, nan]);
    fsel(e, own, x, r)
}

/// log1p(t + √(2t + t²)) for t = x − 1 up to 2; log(2x − 1/(x + √(x² − 1))) beyond;
/// log x + ln 2 beyond 2^12; NaN below 1.
fn acosh(e: &mut E, x: Value) -> Value {
    let t = ft(e);
    let one = fc(e, 1.0);
    let two = fc(e, 2.0);
    let tt = fop(e, B::FSub, x, one);
    let t2 = fop(e, B::FMul, tt, two);
    let tsq = fop(e, B::FMul, tt, tt);
    let u = fop(e, B::FAdd, t2, tsq);
    let su = super::div_sqrt::sqrt(e, u, t);
    let w = fop(e, B::FAdd, tt, su);
    let near = log1p(e, w);
    let x2 = fop(e, B::FMul, x, x);
    let v = fop(e, B::FSub, x2, one);
    let sv = super::div_sqrt::sqrt(e, v, t);
    let d = fop(e, B::FAdd, x, sv);
    let inv = fop(e, B::FDiv, one, d);
    let twox = fop(e, B::FMul, x, two);
    let arg = fop(e, B::FSub, twox, inv);
    let mid = log(e, arg, Base::E);
    let l = log(e, x, Base::E);
    let ln2 = fc(e, std::f64::consts::LN_2);
    let far = fop(e, B::FAdd, l, ln2);
    let above2 = fcmp(e, P::Ogt, x, two);
    let r = fsel(e, above2, mid, near);
    let k = fc(e, 4096.0);
    let big = fcmp(e, P::Ogt, x, k);
    let r = fsel(e, big, far, r);
    let inf = fc(e, f64::INFINITY);
    let is_inf = fcmp(e, P::Oeq, x, inf);
    let r = fsel(e, is_inf, x, r);
    let bad = fcmp(e, P::Ult, x, one);
    let nan = super::div_sqrt::default_nan(e, t);
    let r = fsel(e, bad, nan, r);
    let xn = is_nan(e, x);
    fsel(e, xn, x, r)
}

/// sign(x)·½·log1p(2|x| + 2x²/(1 − |x|)) below ½, ½·log1p(2|x|/(1 − |x|)) above.
fn atanh(e: &mut E, x: Value) -> Value {
    let t = ft(e);
    let ax = fg(e, G::FAbs, x);
    let one = fc(e, 1.0);
    let two = fc(e, 2.0);
    let half = fc(e, 0.5);
    let om = fop(e, B::FSub, one, ax);
    let ax2 = fop(e, B::FMul, ax, two);
    let sq = fop(e, B::FMul, ax2, ax);
    let q = fop(e, B::FDiv, sq, om);
    let w_near = fop(e, B::FAdd, ax2, q);
    let w_far = fop(e, B::FDiv, ax2, om);
    let small = fcmp(e, P::Olt, ax, half);
    let w = fsel(e, small, w_near, w_far);
    let l = log1p(e, w);
    let r = fop(e, B::FMul, l, half);
    // ±1 give ±∞ (log1p of ∞), beyond 1 NaN.
    let at_one = fcmp(e, P::Oeq, ax, one);
    let inf = fc(e, f64::INFINITY);
    let r = fsel(e, at_one, inf, r);
    let bad = fcmp(e, P::Ogt, ax, one);
    let nan = super::div_sqrt::default_nan(e, t);
    let r = fsel(e, bad, nan, r);
    let r = with_sign_of(e, r, x);
    let zero = fc(e, 0.0);
    let is_zero = fcmp(e, P::Oeq, x, zero);
    let r = fsel(e, is_zero, x, r);
    let xn = is_nan(e, x);
    fsel(e, xn, x, r)
}
