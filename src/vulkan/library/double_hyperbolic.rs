//! The hyperbolic functions of double and their inverses, built from `double.rs`'s
//! exponential and logarithm so that no two terms cancel: sinh from e^|x| − 1 below 1,
//! cosh and sinh from e^(|x| − ln 2) above (finite as far as the result is), tanh from
//! e^2|x| − 1, asinh and acosh through log1p near their small end and log x + ln 2 past 2^28,
//! atanh as ½ log1p(2|x| / (1 − |x|)).

use spirv::GlslStd450Op as G;

use crate::ir::{BinaryOp as B, FloatPredicate as P, Value};

use super::double::{
    add, exp_dd, expm1, fast_two_sum, log1p, log_dd, neg, not_finite_or_zero, sqrt, two_sum,
    zero_or_nan, LN2,
};
use super::specials::with_sign_of;
use super::E;

/// e^|x| / 2 without overflow where it is finite: e^(|x| − ln 2).
fn half_exp(e: &mut E, ax: Value) -> Value {
    let l = e.dconst(LN2.0);
    let ll = e.dconst(LN2.1);
    let nl = neg(e, l);
    let (h, err) = two_sum(e, ax, nl);
    let err = e.dbin(B::FSub, err, ll);
    let t = fast_two_sum(e, h, err);
    exp_dd(e, t)
}

pub(super) fn sinh(e: &mut E, x: Value) -> Value {
    let ax = e.dglsl(G::FAbs, x);
    // Below 1: (m + m / (m + 1)) / 2 with m = e^|x| − 1 (no cancellation).
    let m = expm1(e, ax);
    let one = e.dconst(1.0);
    let m1 = e.dbin(B::FAdd, m, one);
    let q = e.dbin(B::FDiv, m, m1);
    let s = e.dbin(B::FAdd, m, q);
    let half = e.dconst(0.5);
    let small = e.dbin(B::FMul, s, half);
    // Above: e^|x|/2 − e^−|x|/2, the second term gone past 40.
    let he = half_exp(e, ax);
    let quarter = e.dconst(0.25);
    let inv = e.dbin(B::FDiv, quarter, he);
    let big = e.dbin(B::FSub, he, inv);
    let k = e.dconst(1.0);
    let is_small = e.dcmp(P::Olt, ax, k);
    let r = e.dsel(is_small, small, big);
    odd(e, r, x, zero_or_nan)
}

pub(super) fn cosh(e: &mut E, x: Value) -> Value {
    let ax = e.dglsl(G::FAbs, x);
    // e^|x|/2 + e^−|x|/2 (both positive); below 1, 1 + m²/(2(m + 1)), m = e^|x| − 1.
    let he = half_exp(e, ax);
    let quarter = e.dconst(0.25);
    let inv = e.dbin(B::FDiv, quarter, he);
    let big = e.dbin(B::FAdd, he, inv);
    let m = expm1(e, ax);
    let one = e.dconst(1.0);
    let m1 = e.dbin(B::FAdd, m, one);
    let m2 = e.dbin(B::FMul, m, m);
    let two = e.dconst(2.0);
    let d = e.dbin(B::FMul, m1, two);
    let q = e.dbin(B::FDiv, m2, d);
    let small = e.dbin(B::FAdd, one, q);
    let is_small = e.dcmp(P::Olt, ax, one);
    e.dsel(is_small, small, big)
}

pub(super) fn tanh(e: &mut E, x: Value) -> Value {
    // m / (m + 2) with m = e^2|x| − 1; 1 beyond 22.
    let ax = e.dglsl(G::FAbs, x);
    let two = e.dconst(2.0);
    let x2 = e.dbin(B::FMul, ax, two);
    let m = expm1(e, x2);
    let d = e.dbin(B::FAdd, m, two);
    let r = e.dbin(B::FDiv, m, d);
    let one = e.dconst(1.0);
    let k = e.dconst(22.0);
    let big = e.dcmp(P::Ogt, ax, k);
    let r = e.dsel(big, one, r);
    odd(e, r, x, zero_or_nan)
}

pub(super) fn asinh(e: &mut E, x: Value) -> Value {
    let ax = e.dglsl(G::FAbs, x);
    let one = e.dconst(1.0);
    // log1p(|x| + x²/(1 + √(1 + x²))), no cancellation; log|x| + ln 2 past 2^28.
    let x2 = e.dbin(B::FMul, ax, ax);
    let u = e.dbin(B::FAdd, x2, one);
    let s = sqrt(e, u);
    let d = e.dbin(B::FAdd, s, one);
    let q = e.dbin(B::FDiv, x2, d);
    let t = e.dbin(B::FAdd, ax, q);
    let small = log1p(e, t);
    let l = log_dd(e, ax);
    let ln2 = (e.dconst(LN2.0), e.dconst(LN2.1));
    let big = add(e, l, ln2).0;
    let k = e.dconst(2f64.powi(28));
    let is_big = e.dcmp(P::Ogt, ax, k);
    let r = e.dsel(is_big, big, small);
    odd(e, r, x, not_finite_or_zero)
}

pub(super) fn acosh(e: &mut E, x: Value) -> Value {
    // log1p(t + √(2t + t²)), t = x − 1 (exact near 1); log x + ln 2 past 2^28.
    let one = e.dconst(1.0);
    let t = e.dbin(B::FSub, x, one);
    let two = e.dconst(2.0);
    let t2 = e.dbin(B::FMul, t, t);
    let tt = e.dbin(B::FMul, t, two);
    let u = e.dbin(B::FAdd, tt, t2);
    let s = sqrt(e, u);
    let v = e.dbin(B::FAdd, t, s);
    let small = log1p(e, v);
    let l = log_dd(e, x);
    let ln2 = (e.dconst(LN2.0), e.dconst(LN2.1));
    let big = add(e, l, ln2).0;
    let k = e.dconst(2f64.powi(28));
    let is_big = e.dcmp(P::Ogt, x, k);
    let r = e.dsel(is_big, big, small);
    let inf = e.dconst(f64::INFINITY);
    let is_inf = e.dcmp(P::Oeq, x, inf);
    let r = e.dsel(is_inf, inf, r);
    let nan = e.dconst(f64::NAN);
    let bad = e.dcmp(P::Ult, x, one);
    e.dsel(bad, nan, r)
}

pub(super) fn atanh(e: &mut E, x: Value) -> Value {
    // ½·log1p(2|x| / (1 − |x|)), the quotient exact enough: 1 − |x| is exact above ½ and
    // below it 2|x| + 2x²/(1 − |x|) avoids the quotient's cancellation.
    let ax = e.dglsl(G::FAbs, x);
    let one = e.dconst(1.0);
    let two = e.dconst(2.0);
    let half = e.dconst(0.5);
    let d = e.dbin(B::FSub, one, ax);
    let a2 = e.dbin(B::FMul, ax, two);
    let big_q = e.dbin(B::FDiv, a2, d);
    let sq = e.dbin(B::FMul, a2, ax);
    let sq = e.dbin(B::FDiv, sq, d);
    let small_q = e.dbin(B::FAdd, a2, sq);
    let is_small = e.dcmp(P::Olt, ax, half);
    let q = e.dsel(is_small, small_q, big_q);
    let l = log1p(e, q);
    let r = e.dbin(B::FMul, l, half);
    let r = with_sign_of(e, r, x);
    let nan = e.dconst(f64::NAN);
    let bad = e.dcmp(P::Ogt, ax, one);
    let r = e.dsel(bad, nan, r);
    let passes = zero_or_nan(e, x);
    e.dsel(passes, x, r)
}

/// An odd function's result: `r` (computed for |x|) with x's sign, and x itself where `passes`
/// says it is its own result (zeros and NaN; infinities too for asinh).
fn odd(e: &mut E, r: Value, x: Value, passes: fn(&mut E, Value) -> Value) -> Value {
    let r = with_sign_of(e, r, x);
    let passes = passes(e, x);
    e.dsel(passes, x, r)
}
