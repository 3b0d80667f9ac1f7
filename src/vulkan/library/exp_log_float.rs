//! The exponential, logarithmic, power, root and hyperbolic functions of float, in float:
//! a kernel without double gets no Float64 (most mobile GPUs have none, and the desktop
//! ones compute it at 1/32 to 1/64 of the float rate). Halves are computed as floats and
//! rounded once. Each function is within OpenCL's bound for float (3 ulp for the
//! exponentials and logarithms, 4 for the hyperbolic ones, 16 for the powers); the
//! reductions keep their extra precision in pairs of floats (eft.rs):
//!
//! * `e^r · 2^k` (`exp_reduced`): |r| ≤ 0.36, Taylor's series to r^7 as 1 + (r + r²q(r)),
//!   scaled by 2^k in two exact steps (a subnormal result is rounded once more). About an ulp.
//! * `exp`: x = k·ln 2 + r with ln 2 in two parts, the first exact times any k. `exp2`:
//!   k = rint(x), r = (x − k)·ln 2. `exp10`: x·log2 10 as a pair, whose integer part is k.
//! * `log`: x = m·2^e, m in [√½, √2), f = m − 1, s = f/(2 + f): log(1 + f) =
//!   f − (f²/2 − s·(f²/2 + R(s²))) with R the series of 2·atanh(s)/s − 2 (fdlibm's form: the
//!   quotient only enters a term below f²/12, so its rounding does not show), plus e·ln 2 in
//!   two parts. `log2` and `log10` scale log m and add e times their constant.
//! * `pow`, `powr`, `pown`, `rootn`: 2^(y·log2 x), log2 x as a pair (its error about
//!   2^-44), the product a pair, so that |y·log2 x| up to 150 loses nothing to rounding.
//!   `cbrt` is rootn's then one Newton step with the residual r³ − x from exact products.
//! * `expm1` and `log1p` avoid the cancellation of e^x − 1 and log(1 + x): the series near
//!   zero, (2^k − 1) + 2^k·p, and log(u) + (x − (u − 1))/u for u = 1 + x rounded.
//! * The hyperbolic functions and their inverses are built from these in
//!   hyperbolic.rs (its formulas shared with double).
//!
//! The special operands (zeros, infinities, NaNs, negative bases) are C99's, shared with
//! the double library (exp_log.rs).

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp as B, CastOp, ConstantKind, FloatPredicate as P};
use crate::ir::{IntPredicate as I, Op, Type, Value};

use super::eft::{self, Pair};
use super::float_ops::{
    clamp_c, f as fop, fc, fcmp, fg, fsel, ft, is_nan, poly, to_float, to_int, zero_keeps,
};
use super::specials::{log_special, pow_special, rootn_special, with_sign_of, Pow};
use super::E;

/// ln 2 in two parts, the first with 15 significant bits (exact times |k| < 512).
const LN2_HI: f64 = 0.693_145_751_953_125;
const LN2_LO: f64 = std::f64::consts::LN_2 - LN2_HI;

/// The body of `op` for floats (scalars of one lane), if this file has one.
pub(super) fn math(e: &mut E, op: C, a: &[Value]) -> Option<Value> {
    let x = a[0];
    Some(match op {
        C::exp => exp(e, x),
        C::exp2 => exp2(e, x),
        C::exp10 => exp10(e, x),
        C::expm1 => expm1(e, x),
        C::log => log(e, x, Base::E),
        C::log2 => log(e, x, Base::Two),
        C::log10 => log(e, x, Base::Ten),
        C::log1p => log1p(e, x),
        C::pow => pow(e, x, a[1], Pow::Pow),
        C::powr => pow(e, x, a[1], Pow::Powr),
        C::pown => pown(e, x, a[1]),
        C::rootn => rootn(e, x, a[1]),
        C::cbrt => cbrt(e, x),
        C::hypot => hypot(e, x, a[1]),
        _ => return None,
    })
}

/// 2^k for a 32-bit integer k in [-126, 127], from the bits.
fn pow2(e: &mut E, k: Value) -> Value {
    let it = e.b.l.out.int_type(32);
    let bias = e.splat(it, ConstantKind::Int(127));
    let b = e.bin(B::Add, it, k, bias);
    let sh = e.splat(it, ConstantKind::Int(23));
    let b = e.bin(B::Shl, it, b, sh);
    let t = ft(e);
    e.cast(CastOp::Bitcast, t, b)
}

/// x·2^k for an integer k in [-252, 254]: two exact steps (the second rounds a subnormal).
fn scale2(e: &mut E, x: Value, k: Value) -> Value {
    let it = e.b.l.out.int_type(32);
    let one = e.splat(it, ConstantKind::Int(1));
    let k1 = e.bin(B::AShr, it, k, one);
    let k2 = e.bin(B::Sub, it, k, k1);
    let s1 = pow2(e, k1);
    let s2 = pow2(e, k2);
    let y = fop(e, B::FMul, x, s1);
    fop(e, B::FMul, y, s2)
}

/// 1/i! for i = 0..=n.
pub(super) fn inverse_factorials(n: usize) -> Vec<f64> {
    let mut out = vec![1.0f64];
    let mut f = 1.0f64;
    for i in 1..=n {
        f *= i as f64;
        out.push(1.0 / f);
    }
    out
}

/// e^r − 1 for |r| ≤ 0.36 as r + r²·q(r) (q: the series of (e^r − 1 − r)/r² to r^7).
fn expm1_reduced(e: &mut E, r: Value) -> Value {
    let q = poly(e, r, &inverse_factorials(9)[2..]);
    let r2 = fop(e, B::FMul, r, r);
    let t = fop(e, B::FMul, r2, q);
    fop(e, B::FAdd, r, t)
}

/// e^r · 2^k (k a 32-bit integer in [-252, 254]).
fn exp_reduced(e: &mut E, r: Value, k: Value) -> Value {
    let p = expm1_reduced(e, r);
    let one = fc(e, 1.0);
    let y = fop(e, B::FAdd, one, p);
    scale2(e, y, k)
}

/// x = k·ln 2 + r: (r, k as an integer, k as a float), for |x| ≤ 120.
fn reduce_ln2(e: &mut E, x: Value) -> (Value, Value, Value) {
    let log2e = fc(e, std::f64::consts::LOG2_E);
    let t = fop(e, B::FMul, x, log2e);
    let kf = fg(e, G::RoundEven, t);
    let hi = fc(e, LN2_HI);
    let lo = fc(e, LN2_LO);
    let khi = fop(e, B::FMul, kf, hi);
    let r = fop(e, B::FSub, x, khi);
    let klo = fop(e, B::FMul, kf, lo);
    let r = fop(e, B::FSub, r, klo);
    let k = to_int(e, kf);
    (r, k, kf)
}

/// e^x with an extra power of two `adj` in its scaling (sinh and cosh halve so).
pub(super) fn exp_scaled(e: &mut E, x: Value, adj: i64) -> Value {
    let xc = clamp_c(e, x, -110.0, 100.0);
    let (r, k, _) = reduce_ln2(e, xc);
    let k = if adj == 0 {
        k
    } else {
        let it = e.b.l.out.int_type(32);
        let a = e.splat(it, ConstantKind::Int(adj as u32 as u64));
        e.bin(B::Add, it, k, a)
    };
    let res = exp_reduced(e, r, k);
    let nan = is_nan(e, x);
    fsel(e, nan, x, res)
}

pub(super) fn exp(e: &mut E, x: Value) -> Value {
    exp_scaled(e, x, 0)
}

/// 2^(k + f) for a pair t = (hi, lo) with |hi| ≤ 200: k = rint(hi), f = (hi − k) + lo.
pub(super) fn exp2_pair(e: &mut E, t: Pair) -> Value {
    let hi = clamp_c(e, t.0, -160.0, 160.0);
    // Where hi was clamped, its low part (as large as hi's ulp: 256 for a product near
    // 2^31, as pow's y·log2 x can be) means nothing: 2^±160 over- or underflows alone.
    let clamped = fcmp(e, P::One, hi, t.0);
    let zero = fc(e, 0.0);
    let lo = fsel(e, clamped, zero, t.1);
    let kf = fg(e, G::RoundEven, hi);
    let f = fop(e, B::FSub, hi, kf);
    let f = fop(e, B::FAdd, f, lo);
    let ln2 = fc(e, std::f64::consts::LN_2);
    let r = fop(e, B::FMul, f, ln2);
    let k = to_int(e, kf);
    exp_reduced(e, r, k)
}

fn exp2(e: &mut E, x: Value) -> Value {
    let zero = fc(e, 0.0);
    let res = exp2_pair(e, (x, zero));
    let nan = is_nan(e, x);
    fsel(e, nan, x, res)
}

fn exp10(e: &mut E, x: Value) -> Value {
    let t = ft(e);
    let xc = clamp_c(e, x, -50.0, 40.0);
    let k = eft::constant_pair(e, t, std::f64::consts::LOG2_10);
    let zero = fc(e, 0.0);
    let p = eft::mul_const(e, (xc, zero), k);
    let res = exp2_pair(e, p);
    let nan = is_nan(e, x);
    fsel(e, nan, x, res)
}

pub(super) fn expm1(e: &mut E, x: Value) -> Value {
    let near = expm1_reduced(e, x);
    // (2^k − 1) + 2^k·p: the first term exact for |k| ≤ 24, the sum rounded once.
    let xc = clamp_c(e, x, -30.0, 100.0);
    let (r, k, _) = reduce_ln2(e, xc);
    let p = expm1_reduced(e, r);
    let it = e.b.l.out.int_type(32);
    let lim = e.splat(it, ConstantKind::Int(100));
    let k_small = e.glsl(G::SMin, it, vec![k, lim]);
    let u = pow2(e, k_small);
    let one = fc(e, 1.0);
    let um1 = fop(e, B::FSub, u, one);
    let up = fop(e, B::FMul, u, p);
    let far = fop(e, B::FAdd, um1, up);
    // Beyond 88 the exponential itself (the −1 is far below its ulp).
    let big = exp(e, x);
    let k88 = fc(e, 88.0);
    let huge = fcmp(e, P::Ogt, x, k88);
    let far = fsel(e, huge, big, far);
    let ax = fg(e, G::FAbs, x);
    let lim = fc(e, 0.34);
    let small = fcmp(e, P::Olt, ax, lim);
    let r = fsel(e, small, near, far);
    let nan = is_nan(e, x);
    let r = fsel(e, nan, x, r);
    zero_keeps(e, x, r)
}

/// log(1 + f) for m = 1 + f in [√½, √2) as (f, −(f²/2 − s·(f²/2 + R))) (their sum is the
/// logarithm; the second part carries the quotient's rounding far below the first's ulp).
fn log1p_core(e: &mut E, f: Value) -> (Value, Value) {
    let two = fc(e, 2.0);
    let den = fop(e, B::FAdd, two, f);
    let s = fop(e, B::FDiv, f, den);
    let z = fop(e, B::FMul, s, s);
    // R(z) = 2z/3 + 2z²/5 + 2z³/7 + 2z⁴/9 + 2z⁵/11.
    let c: Vec<f64> = (0..6)
        .map(|i| {
            if i == 0 {
                0.0
            } else {
                2.0 / (2 * i + 1) as f64
            }
        })
        .collect();
    let r = poly(e, z, &c);
    let half = fc(e, 0.5);
    let ff = fop(e, B::FMul, f, f);
    let hfsq = fop(e, B::FMul, ff, half);
    let hr = fop(e, B::FAdd, hfsq, r);
    let shr = fop(e, B::FMul, s, hr);
    let tail = fop(e, B::FSub, shr, hfsq);
    (f, tail)
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Base {
    E,
    Two,
    Ten,
}

pub(super) fn log(e: &mut E, x: Value, base: Base) -> Value {
    let (m, k) = super::decompose::mantissa_exponent(e, x);
    let one = fc(e, 1.0);
    let f = fop(e, B::FSub, m, one);
    let (f, tail) = log1p_core(e, f);
    let r = match base {
        Base::E => {
            // k·ln2_hi + ((f + (tail + k·ln2_lo))): the exact part first.
            let hi = fc(e, LN2_HI);
            let lo = fc(e, LN2_LO);
            let khi = fop(e, B::FMul, k, hi);
            let klo = fop(e, B::FMul, k, lo);
            let t = fop(e, B::FAdd, tail, klo);
            let t = fop(e, B::FAdd, f, t);
            fop(e, B::FAdd, khi, t)
        }
        Base::Two | Base::Ten => {
            // (f + tail)·c as a pair's leading part, plus k·d with d = c·ln 2 in two parts.
            let t = ft(e);
            let (c, d) = if base == Base::Two {
                (std::f64::consts::LOG2_E, 1.0)
            } else {
                (std::f64::consts::LOG10_E, std::f64::consts::LOG10_2)
            };
            let lm = eft::fast_two_sum(e, f, tail);
            let kc = eft::constant_pair(e, t, c);
            let (p, q) = eft::mul_const(e, lm, kc);
            let (dh, dl) = eft::constant_pair(e, t, d);
            let dh = fc(e, dh);
            let dl = fc(e, dl);
            let kdh = fop(e, B::FMul, k, dh);
            let kdl = fop(e, B::FMul, k, dl);
            let (s, err) = eft::two_sum(e, kdh, p);
            let rest = fop(e, B::FAdd, q, kdl);
            let rest = fop(e, B::FAdd, rest, err);
            fop(e, B::FAdd, s, rest)
        }
    };
    log_special(e, x, r)
}

/// log2 x for a positive finite x as a pair (error about 2^-44 of the result).
pub(super) fn log2_pair(e: &mut E, x: Value) -> Pair {
    let t = ft(e);
    let (m, k) = super::decompose::mantissa_exponent(e, x);
    let one = fc(e, 1.0);
    let f = fop(e, B::FSub, m, one);
    // log(1 + f) = f − f²/2 + s·(f²/2 + R): f² exact, the last term small.
    let two = fc(e, 2.0);
    let den = fop(e, B::FAdd, two, f);
    let s = fop(e, B::FDiv, f, den);
    let z = fop(e, B::FMul, s, s);
    let c: Vec<f64> = (0..6)
        .map(|i| {
            if i == 0 {
                0.0
            } else {
                2.0 / (2 * i + 1) as f64
            }
        })
        .collect();
    let r = poly(e, z, &c);
    let (sq, sq_lo) = eft::two_prod(e, f, f);
    let half = fc(e, 0.5);
    let h = fop(e, B::FMul, sq, half);
    let h_lo = fop(e, B::FMul, sq_lo, half);
    let hr = fop(e, B::FAdd, h, r);
    let corr = fop(e, B::FMul, s, hr);
    let neg_h = e_neg(e, h);
    let (a, b) = eft::two_sum(e, f, neg_h);
    let b = fop(e, B::FSub, b, h_lo);
    let b = fop(e, B::FAdd, b, corr);
    let lm = eft::fast_two_sum(e, a, b);
    let log2e = eft::constant_pair(e, t, std::f64::consts::LOG2_E);
    let l2 = eft::mul_const(e, lm, log2e);
    let (s, err) = eft::two_sum(e, k, l2.0);
    let lo = fop(e, B::FAdd, err, l2.1);
    eft::fast_two_sum(e, s, lo)
}

fn e_neg(e: &mut E, x: Value) -> Value {
    let t = ft(e);
    e.b.push(t, Op::FNeg(x))
}

/// |x|^y as 2^(y·log2|x|), the product a pair; 0 and ∞ where it underflows or overflows.
fn pow_abs(e: &mut E, x: Value, y_hi: Value, y_lo: Option<Value>) -> Value {
    let ax = fg(e, G::FAbs, x);
    // log2 of 0 or ∞ is not a float pair: they take 1 here and the special cases answer.
    let zero = fc(e, 0.0);
    let inf = fc(e, f64::INFINITY);
    let is_zero = fcmp(e, P::Oeq, ax, zero);
    let is_inf = fcmp(e, P::Oeq, ax, inf);
    let bt = e.b.l.out.ty(Type::Bool);
    let odd = e.spirv(S::LogicalOr, bt, vec![is_zero, is_inf]);
    let one = fc(e, 1.0);
    let safe = fsel(e, odd, one, ax);
    let l = log2_pair(e, safe);
    // |y| beyond 2^32 over- or underflows whatever the base (but 1, answered apart): the
    // base nearest 1 has |log2 x| ≥ 2^-24·log2 e, and 2^32 times that is past 2^±160.
    let y = clamp_c(e, y_hi, -4_294_967_296.0, 4_294_967_296.0);
    let (p, q) = eft::two_prod(e, y, l.0);
    let yl = fop(e, B::FMul, y, l.1);
    let q = fop(e, B::FAdd, q, yl);
    let q = match y_lo {
        Some(lo) => {
            let t = fop(e, B::FMul, lo, l.0);
            fop(e, B::FAdd, q, t)
        }
        None => q,
    };
    let t = eft::fast_two_sum(e, p, q);
    let r = exp2_pair(e, t);
    // 0^y and ∞^y: 0 or ∞ by the sign of y (the special cases handle the rest).
    let y_neg = fcmp(e, P::Olt, y_hi, zero);
    let z_pow = fsel(e, y_neg, inf, zero);
    let i_pow = fsel(e, y_neg, zero, inf);
    let r = fsel(e, is_zero, z_pow, r);
    fsel(e, is_inf, i_pow, r)
}

fn pow(e: &mut E, x: Value, y: Value, kind: Pow) -> Value {
    let r = pow_abs(e, x, y, None);
    let nan = is_nan(e, x);
    let ynan = is_nan(e, y);
    let bt = e.b.l.out.ty(Type::Bool);
    let any = e.spirv(S::LogicalOr, bt, vec![nan, ynan]);
    let sum = fop(e, B::FAdd, x, y);
    let r = fsel(e, any, sum, r);
    pow_special(e, x, y, r, kind)
}

/// x^n for a 32-bit integer n: n as a pair of floats (exact), the sign from n's parity.
fn pown(e: &mut E, x: Value, n: Value) -> Value {
    let it = e.b.l.out.int_type(32);
    let bt = e.b.l.out.ty(Type::Bool);
    let hi = to_float(e, n);
    let hi_i = to_int(e, hi);
    let rest = e.bin(B::Sub, it, n, hi_i);
    let lo = to_float(e, rest);
    let r = pow_abs(e, x, hi, Some(lo));
    // The sign of an odd power of a negative x; n = 0 gives 1 for every x.
    let one_i = e.splat(it, ConstantKind::Int(1));
    let zero_i = e.splat(it, ConstantKind::Int(0));
    let bit = e.bin(B::And, it, n, one_i);
    let odd = e.icmp(I::Ne, bt, bit, zero_i);
    let signed = with_sign_of(e, r, x);
    let r = fsel(e, odd, signed, r);
    let nan = is_nan(e, x);
    let r = fsel(e, nan, x, r);
    let n_zero = e.icmp(I::Eq, bt, n, zero_i);
    let one = fc(e, 1.0);
    fsel(e, n_zero, one, r)
}

/// |x|^(1/n) as 2^(log2|x| / n), the quotient a pair.
fn root_abs(e: &mut E, x: Value, nf: Value) -> Value {
    let ax = fg(e, G::FAbs, x);
    let zero = fc(e, 0.0);
    let inf = fc(e, f64::INFINITY);
    let is_zero = fcmp(e, P::Oeq, ax, zero);
    let is_inf = fcmp(e, P::Oeq, ax, inf);
    let bt = e.b.l.out.ty(Type::Bool);
    let odd = e.spirv(S::LogicalOr, bt, vec![is_zero, is_inf]);
    let one = fc(e, 1.0);
    let safe = fsel(e, odd, one, ax);
    let l = log2_pair(e, safe);
    let q = fop(e, B::FDiv, l.0, nf);
    let (p, perr) = eft::two_prod(e, q, nf);
    let d = fop(e, B::FSub, l.0, p);
    let d = fop(e, B::FSub, d, perr);
    let d = fop(e, B::FAdd, d, l.1);
    let ql = fop(e, B::FDiv, d, nf);
    let t = eft::fast_two_sum(e, q, ql);
    let r = exp2_pair(e, t);
    let n_neg = fcmp(e, P::Olt, nf, zero);
    let z_root = fsel(e, n_neg, inf, zero);
    let i_root = fsel(e, n_neg, zero, inf);
    let r = fsel(e, is_zero, z_root, r);
    fsel(e, is_inf, i_root, r)
}

fn rootn(e: &mut E, x: Value, n: Value) -> Value {
    let nf = to_float(e, n);
    let r = root_abs(e, x, nf);
    let nan = is_nan(e, x);
    let r = fsel(e, nan, x, r);
    rootn_special(e, x, nf, r)
}

/// rootn(x, 3), then one Newton step: r − (r³ − |x|)/(3r²), r³ from exact products.
fn cbrt(e: &mut E, x: Value) -> Value {
    let three = fc(e, 3.0);
    let r = root_abs(e, x, three);
    let ax = fg(e, G::FAbs, x);
    // r³ − |x| with r² and r²·r as pairs (r is near |x|^(1/3), far from overflow: scaled).
    let (s, _) = super::decompose::mantissa_exponent(e, r);
    let scale = fop(e, B::FDiv, s, r);
    let rs = fop(e, B::FMul, r, scale);
    // |x|·scale³ one factor at a time (scale³ itself may overflow).
    let axs = fop(e, B::FMul, ax, scale);
    let axs = fop(e, B::FMul, axs, scale);
    let axs = fop(e, B::FMul, axs, scale);
    let (a, b) = eft::two_prod(e, rs, rs);
    let (c, d) = eft::two_prod(e, a, rs);
    let br = fop(e, B::FMul, b, rs);
    let d = fop(e, B::FAdd, d, br);
    let res = fop(e, B::FSub, c, axs);
    let res = fop(e, B::FAdd, res, d);
    let r2 = fop(e, B::FMul, rs, rs);
    let den = fop(e, B::FMul, r2, three);
    let corr = fop(e, B::FDiv, res, den);
    let rs = fop(e, B::FSub, rs, corr);
    let refined = fop(e, B::FDiv, rs, scale);
    // Zeros, infinities and NaNs are their own cube roots; the step needs a normal r.
    let zero = fc(e, 0.0);
    let inf = fc(e, f64::INFINITY);
    let is_zero = fcmp(e, P::Oeq, ax, zero);
    let is_inf = fcmp(e, P::Oeq, ax, inf);
    let bt = e.b.l.out.ty(Type::Bool);
    let own = e.spirv(S::LogicalOr, bt, vec![is_zero, is_inf]);
    let nan = is_nan(e, x);
    let own = e.spirv(S::LogicalOr, bt, vec![own, nan]);
    let signed = with_sign_of(e, refined, x);
    fsel(e, own, x, signed)
}

/// √(x² + y²) with both scaled by the larger's power of two (no overflow or underflow).
fn hypot(e: &mut E, x: Value, y: Value) -> Value {
    let t = ft(e);
    let ax = fg(e, G::FAbs, x);
    let ay = fg(e, G::FAbs, y);
    let m = e.glsl(G::NMax, t, vec![ax, ay]);
    let f = super::decompose::format(e, t);
    let p = super::decompose::parts(e, &f, m);
    let it = e.b.l.out.int_type(32);
    let lo = e.splat(it, ConstantKind::Int((-120i32) as u32 as u64));
    let hi = e.splat(it, ConstantKind::Int(120));
    let k = e.glsl(G::SClamp, it, vec![p.exponent, lo, hi]);
    let zero_i = e.splat(it, ConstantKind::Int(0));
    let nk = e.bin(B::Sub, it, zero_i, k);
    let down = pow2(e, nk);
    let xs = fop(e, B::FMul, ax, down);
    let ys = fop(e, B::FMul, ay, down);
    let x2 = fop(e, B::FMul, xs, xs);
    let y2 = fop(e, B::FMul, ys, ys);
    let s = fop(e, B::FAdd, x2, y2);
    let r = super::div_sqrt::sqrt(e, s, t);
    let up = pow2(e, k);
    let r = fop(e, B::FMul, r, up);
    // An infinite operand gives +∞ even beside a NaN; a NaN otherwise NaN.
    let inf = fc(e, f64::INFINITY);
    let bt = e.b.l.out.ty(Type::Bool);
    let xi = e.spirv(S::IsInf, bt, vec![x]);
    let yi = e.spirv(S::IsInf, bt, vec![y]);
    let either = e.spirv(S::LogicalOr, bt, vec![xi, yi]);
    let sum = fop(e, B::FAdd, x, y);
    let xn = is_nan(e, x);
    let yn = is_nan(e, y);
    let any_nan = e.spirv(S::LogicalOr, bt, vec![xn, yn]);
    let r = fsel(e, any_nan, sum, r);
    fsel(e, either, inf, r)
}

/// log(1 + x) as log(u) + (x − (u − 1))/u, u = 1 + x rounded; the series near zero.
pub(super) fn log1p(e: &mut E, x: Value) -> Value {
    let one = fc(e, 1.0);
    let u = fop(e, B::FAdd, one, x);
    let um1 = fop(e, B::FSub, u, one);
    let d = fop(e, B::FSub, x, um1);
    let c = fop(e, B::FDiv, d, u);
    let lu = log(e, u, Base::E);
    let far = fop(e, B::FAdd, lu, c);
    // Below 2^-12: x − x²/2 + x³/3 (its next term is under half an ulp).
    let near = poly(e, x, &[0.0, 1.0, -0.5, 1.0 / 3.0]);
    let ax = fg(e, G::FAbs, x);
    let k = fc(e, 1.0 / 4096.0);
    let small = fcmp(e, P::Olt, ax, k);
    let r = fsel(e, small, near, far);
    // log1p(∞) = ∞, (−1) = −∞, below −1 NaN (log's own answers for u).
    let inf = fc(e, f64::INFINITY);
    let is_inf = fcmp(e, P::Oeq, x, inf);
    let r = fsel(e, is_inf, x, r);
    let m1 = fc(e, -1.0);
    let at_m1 = fcmp(e, P::Ole, x, m1);
    let r = fsel(e, at_m1, lu, r);
    let nan = is_nan(e, x);
    fsel(e, nan, x, r)
}
