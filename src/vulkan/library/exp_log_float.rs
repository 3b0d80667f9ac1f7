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
//! * The hyperbolic functions and their inverses are built from these as fdlibm builds them
//!   (log1p forms near zero, the halving of e^|x| inside its scaling so that sinh and cosh
//!   do not overflow before their result does).
//!
//! The special operands (zeros, infinities, NaNs, negative bases) are C99's, shared with
//! the double library (exp_log.rs).

use spirv::{GlslStd450Op as G, Op as S};

use crate::ir::builtin::CLOp as C;
use crate::ir::{BinaryOp as B, CastOp, ConstantKind, ConvertKind, FloatPredicate as P};
use crate::ir::{Handle, IntPredicate as I, Op, Sign, Type, Value};

use super::eft::{self, Pair};
use super::specials::{log_special, pow_special, rootn_special, with_sign_of, Pow};
use super::E;
use crate::vulkan::emit::plain;

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
        C::sinh => sinh_cosh(e, x, true),
        C::cosh => sinh_cosh(e, x, false),
        C::tanh => tanh(e, x),
        C::asinh => asinh(e, x),
        C::acosh => acosh(e, x),
        C::atanh => atanh(e, x),
        _ => return None,
    })
}

impl E<'_, '_, '_> {
    fn ft(&mut self) -> Handle<Type> {
        self.b.l.out.ty(Type::Float { width: 32 })
    }
    fn fc(&mut self, v: f64) -> Value {
        let t = self.ft();
        self.float_const(t, v)
    }
    fn f(&mut self, op: B, x: Value, y: Value) -> Value {
        let t = self.ft();
        self.bin(op, t, x, y)
    }
    fn fg(&mut self, g: G, x: Value) -> Value {
        let t = self.ft();
        self.glsl(g, t, vec![x])
    }
    fn fcmp1(&mut self, p: P, x: Value, y: Value) -> Value {
        let bt = self.b.l.out.ty(Type::Bool);
        self.fcmp(p, bt, x, y)
    }
    fn fsel(&mut self, c: Value, x: Value, y: Value) -> Value {
        let t = self.ft();
        self.select(t, c, x, y)
    }
    /// x with each of `(below, at_least)`: `x < at` picks `v`.
    fn fmin_c(&mut self, x: Value, lo: f64, hi: f64) -> Value {
        let l = self.fc(lo);
        let h = self.fc(hi);
        let below = self.fcmp1(P::Olt, x, l);
        let above = self.fcmp1(P::Ogt, x, h);
        let x = self.fsel(below, l, x);
        self.fsel(above, h, x)
    }
    fn is_nan(&mut self, x: Value) -> Value {
        let bt = self.b.l.out.ty(Type::Bool);
        self.spirv(S::IsNan, bt, vec![x])
    }
    /// Σ c_i · x^i by Horner's rule.
    fn fpoly(&mut self, x: Value, coeffs: &[f64]) -> Value {
        let mut acc = self.fc(coeffs[coeffs.len() - 1]);
        for &c in coeffs.iter().rev().skip(1) {
            let m = self.f(B::FMul, acc, x);
            let c = self.fc(c);
            acc = self.f(B::FAdd, m, c);
        }
        acc
    }
    /// An integral float as a 32-bit integer.
    fn to_int(&mut self, x: Value) -> Value {
        let it = self.b.l.out.int_type(32);
        self.b.push(
            it,
            Op::Builtin {
                builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
                args: vec![x],
            },
        )
    }
    fn to_float(&mut self, k: Value) -> Value {
        let t = self.ft();
        self.b.push(
            t,
            Op::Builtin {
                builtin: plain(ConvertKind::Int(Sign::Signed), ConvertKind::Float),
                args: vec![k],
            },
        )
    }
}

/// 2^k for a 32-bit integer k in [-126, 127], from the bits.
fn pow2(e: &mut E, k: Value) -> Value {
    let it = e.b.l.out.int_type(32);
    let bias = e.splat(it, ConstantKind::Int(127));
    let b = e.bin(B::Add, it, k, bias);
    let sh = e.splat(it, ConstantKind::Int(23));
    let b = e.bin(B::Shl, it, b, sh);
    let t = e.ft();
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
    let y = e.f(B::FMul, x, s1);
    e.f(B::FMul, y, s2)
}

/// 1/i! for i = 0..=n.
fn inverse_factorials(n: usize) -> Vec<f64> {
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
    let q = e.fpoly(r, &inverse_factorials(9)[2..]);
    let r2 = e.f(B::FMul, r, r);
    let t = e.f(B::FMul, r2, q);
    e.f(B::FAdd, r, t)
}

/// e^r · 2^k (k a 32-bit integer in [-252, 254]).
fn exp_reduced(e: &mut E, r: Value, k: Value) -> Value {
    let p = expm1_reduced(e, r);
    let one = e.fc(1.0);
    let y = e.f(B::FAdd, one, p);
    scale2(e, y, k)
}

/// x = k·ln 2 + r: (r, k as an integer, k as a float), for |x| ≤ 120.
fn reduce_ln2(e: &mut E, x: Value) -> (Value, Value, Value) {
    let log2e = e.fc(std::f64::consts::LOG2_E);
    let t = e.f(B::FMul, x, log2e);
    let kf = e.fg(G::RoundEven, t);
    let hi = e.fc(LN2_HI);
    let lo = e.fc(LN2_LO);
    let khi = e.f(B::FMul, kf, hi);
    let r = e.f(B::FSub, x, khi);
    let klo = e.f(B::FMul, kf, lo);
    let r = e.f(B::FSub, r, klo);
    let k = e.to_int(kf);
    (r, k, kf)
}

/// e^x with an extra power of two `adj` in its scaling (sinh and cosh halve so).
fn exp_scaled(e: &mut E, x: Value, adj: i64) -> Value {
    let xc = e.fmin_c(x, -110.0, 100.0);
    let (r, k, _) = reduce_ln2(e, xc);
    let k = if adj == 0 {
        k
    } else {
        let it = e.b.l.out.int_type(32);
        let a = e.splat(it, ConstantKind::Int(adj as u32 as u64));
        e.bin(B::Add, it, k, a)
    };
    let res = exp_reduced(e, r, k);
    let nan = e.is_nan(x);
    e.fsel(nan, x, res)
}

pub(super) fn exp(e: &mut E, x: Value) -> Value {
    exp_scaled(e, x, 0)
}

/// 2^(k + f) for a pair t = (hi, lo) with |hi| ≤ 200: k = rint(hi), f = (hi − k) + lo.
pub(super) fn exp2_pair(e: &mut E, t: Pair) -> Value {
    let hi = e.fmin_c(t.0, -160.0, 160.0);
    let kf = e.fg(G::RoundEven, hi);
    let f = e.f(B::FSub, hi, kf);
    let f = e.f(B::FAdd, f, t.1);
    let ln2 = e.fc(std::f64::consts::LN_2);
    let r = e.f(B::FMul, f, ln2);
    let k = e.to_int(kf);
    exp_reduced(e, r, k)
}

fn exp2(e: &mut E, x: Value) -> Value {
    let zero = e.fc(0.0);
    let res = exp2_pair(e, (x, zero));
    let nan = e.is_nan(x);
    e.fsel(nan, x, res)
}

fn exp10(e: &mut E, x: Value) -> Value {
    let t = e.ft();
    let xc = e.fmin_c(x, -50.0, 40.0);
    let k = eft::constant_pair(e, t, std::f64::consts::LOG2_10);
    let zero = e.fc(0.0);
    let p = eft::mul_const(e, (xc, zero), k);
    let res = exp2_pair(e, p);
    let nan = e.is_nan(x);
    e.fsel(nan, x, res)
}

fn expm1(e: &mut E, x: Value) -> Value {
    let near = expm1_reduced(e, x);
    // (2^k − 1) + 2^k·p: the first term exact for |k| ≤ 24, the sum rounded once.
    let xc = e.fmin_c(x, -30.0, 100.0);
    let (r, k, _) = reduce_ln2(e, xc);
    let p = expm1_reduced(e, r);
    let it = e.b.l.out.int_type(32);
    let lim = e.splat(it, ConstantKind::Int(100));
    let k_small = e.glsl(G::SMin, it, vec![k, lim]);
    let u = pow2(e, k_small);
    let one = e.fc(1.0);
    let um1 = e.f(B::FSub, u, one);
    let up = e.f(B::FMul, u, p);
    let far = e.f(B::FAdd, um1, up);
    // Beyond 88 the exponential itself (the −1 is far below its ulp).
    let big = exp(e, x);
    let k88 = e.fc(88.0);
    let huge = e.fcmp1(P::Ogt, x, k88);
    let far = e.fsel(huge, big, far);
    let ax = e.fg(G::FAbs, x);
    let lim = e.fc(0.34);
    let small = e.fcmp1(P::Olt, ax, lim);
    let r = e.fsel(small, near, far);
    let nan = e.is_nan(x);
    e.fsel(nan, x, r)
}

/// A positive normal or subnormal float as m·2^k, m in [√½, √2): (m, k as a float).
fn mantissa_exponent(e: &mut E, x: Value) -> (Value, Value) {
    let t = e.ft();
    let f = super::decompose::format(e, t);
    let p = super::decompose::parts(e, &f, x);
    let it = f.it;
    let one_bits = e.splat(it, ConstantKind::Int(127 << 23));
    let mb = e.bin(B::Or, it, p.fraction, one_bits);
    let m = e.cast(CastOp::Bitcast, t, mb);
    let ex = e.to_float(p.exponent);
    let sqrt2 = e.fc(std::f64::consts::SQRT_2);
    let high = e.fcmp1(P::Ogt, m, sqrt2);
    let half = e.fc(0.5);
    let mh = e.f(B::FMul, m, half);
    let m = e.fsel(high, mh, m);
    let one = e.fc(1.0);
    let ex1 = e.f(B::FAdd, ex, one);
    (m, e.fsel(high, ex1, ex))
}

/// log(1 + f) for m = 1 + f in [√½, √2) as (f, −(f²/2 − s·(f²/2 + R))) (their sum is the
/// logarithm; the second part carries the quotient's rounding far below the first's ulp).
fn log1p_core(e: &mut E, f: Value) -> (Value, Value) {
    let two = e.fc(2.0);
    let den = e.f(B::FAdd, two, f);
    let s = e.f(B::FDiv, f, den);
    let z = e.f(B::FMul, s, s);
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
    let r = e.fpoly(z, &c);
    let half = e.fc(0.5);
    let ff = e.f(B::FMul, f, f);
    let hfsq = e.f(B::FMul, ff, half);
    let hr = e.f(B::FAdd, hfsq, r);
    let shr = e.f(B::FMul, s, hr);
    let tail = e.f(B::FSub, shr, hfsq);
    (f, tail)
}

#[derive(Clone, Copy, PartialEq)]
enum Base {
    E,
    Two,
    Ten,
}

fn log(e: &mut E, x: Value, base: Base) -> Value {
    let (m, k) = mantissa_exponent(e, x);
    let one = e.fc(1.0);
    let f = e.f(B::FSub, m, one);
    let (f, tail) = log1p_core(e, f);
    let r = match base {
        Base::E => {
            // k·ln2_hi + ((f + (tail + k·ln2_lo))): the exact part first.
            let hi = e.fc(LN2_HI);
            let lo = e.fc(LN2_LO);
            let khi = e.f(B::FMul, k, hi);
            let klo = e.f(B::FMul, k, lo);
            let t = e.f(B::FAdd, tail, klo);
            let t = e.f(B::FAdd, f, t);
            e.f(B::FAdd, khi, t)
        }
        Base::Two | Base::Ten => {
            // (f + tail)·c as a pair's leading part, plus k·d with d = c·ln 2 in two parts.
            let t = e.ft();
            let (c, d) = if base == Base::Two {
                (std::f64::consts::LOG2_E, 1.0)
            } else {
                (std::f64::consts::LOG10_E, std::f64::consts::LOG10_2)
            };
            let lm = eft::fast_two_sum(e, f, tail);
            let kc = eft::constant_pair(e, t, c);
            let (p, q) = eft::mul_const(e, lm, kc);
            let (dh, dl) = eft::constant_pair(e, t, d);
            let dh = e.fc(dh);
            let dl = e.fc(dl);
            let kdh = e.f(B::FMul, k, dh);
            let kdl = e.f(B::FMul, k, dl);
            let (s, err) = eft::two_sum(e, kdh, p);
            let rest = e.f(B::FAdd, q, kdl);
            let rest = e.f(B::FAdd, rest, err);
            e.f(B::FAdd, s, rest)
        }
    };
    log_special(e, x, r)
}

/// log2 x for a positive finite x as a pair (error about 2^-44 of the result).
pub(super) fn log2_pair(e: &mut E, x: Value) -> Pair {
    let t = e.ft();
    let (m, k) = mantissa_exponent(e, x);
    let one = e.fc(1.0);
    let f = e.f(B::FSub, m, one);
    // log(1 + f) = f − f²/2 + s·(f²/2 + R): f² exact, the last term small.
    let two = e.fc(2.0);
    let den = e.f(B::FAdd, two, f);
    let s = e.f(B::FDiv, f, den);
    let z = e.f(B::FMul, s, s);
    let c: Vec<f64> = (0..6)
        .map(|i| {
            if i == 0 {
                0.0
            } else {
                2.0 / (2 * i + 1) as f64
            }
        })
        .collect();
    let r = e.fpoly(z, &c);
    let (sq, sq_lo) = eft::two_prod(e, f, f);
    let half = e.fc(0.5);
    let h = e.f(B::FMul, sq, half);
    let h_lo = e.f(B::FMul, sq_lo, half);
    let hr = e.f(B::FAdd, h, r);
    let corr = e.f(B::FMul, s, hr);
    let neg_h = e_neg(e, h);
    let (a, b) = eft::two_sum(e, f, neg_h);
    let b = e.f(B::FSub, b, h_lo);
    let b = e.f(B::FAdd, b, corr);
    let lm = eft::fast_two_sum(e, a, b);
    let log2e = eft::constant_pair(e, t, std::f64::consts::LOG2_E);
    let l2 = eft::mul_const(e, lm, log2e);
    let (s, err) = eft::two_sum(e, k, l2.0);
    let lo = e.f(B::FAdd, err, l2.1);
    eft::fast_two_sum(e, s, lo)
}

fn e_neg(e: &mut E, x: Value) -> Value {
    let t = e.ft();
    e.b.push(t, Op::FNeg(x))
}

/// |x|^y as 2^(y·log2|x|), the product a pair; 0 and ∞ where it underflows or overflows.
fn pow_abs(e: &mut E, x: Value, y_hi: Value, y_lo: Option<Value>) -> Value {
    let ax = e.fg(G::FAbs, x);
    // log2 of 0 or ∞ is not a float pair: they take 1 here and the special cases answer.
    let zero = e.fc(0.0);
    let inf = e.fc(f64::INFINITY);
    let is_zero = e.fcmp1(P::Oeq, ax, zero);
    let is_inf = e.fcmp1(P::Oeq, ax, inf);
    let bt = e.b.l.out.ty(Type::Bool);
    let odd = e.spirv(S::LogicalOr, bt, vec![is_zero, is_inf]);
    let one = e.fc(1.0);
    let safe = e.fsel(odd, one, ax);
    let l = log2_pair(e, safe);
    // |y| beyond 2^30 over- or underflows whatever the base (but 1, answered apart).
    let y = e.fmin_c(y_hi, -1_073_741_824.0, 1_073_741_824.0);
    let (p, q) = eft::two_prod(e, y, l.0);
    let yl = e.f(B::FMul, y, l.1);
    let q = e.f(B::FAdd, q, yl);
    let q = match y_lo {
        Some(lo) => {
            let t = e.f(B::FMul, lo, l.0);
            e.f(B::FAdd, q, t)
        }
        None => q,
    };
    let t = eft::fast_two_sum(e, p, q);
    let r = exp2_pair(e, t);
    // 0^y and ∞^y: 0 or ∞ by the sign of y (the special cases handle the rest).
    let y_neg = e.fcmp1(P::Olt, y_hi, zero);
    let z_pow = e.fsel(y_neg, inf, zero);
    let i_pow = e.fsel(y_neg, zero, inf);
    let r = e.fsel(is_zero, z_pow, r);
    e.fsel(is_inf, i_pow, r)
}

fn pow(e: &mut E, x: Value, y: Value, kind: Pow) -> Value {
    let r = pow_abs(e, x, y, None);
    let nan = e.is_nan(x);
    let ynan = e.is_nan(y);
    let bt = e.b.l.out.ty(Type::Bool);
    let any = e.spirv(S::LogicalOr, bt, vec![nan, ynan]);
    let sum = e.f(B::FAdd, x, y);
    let r = e.fsel(any, sum, r);
    pow_special(e, x, y, r, kind)
}

/// x^n for a 32-bit integer n: n as a pair of floats (exact), the sign from n's parity.
fn pown(e: &mut E, x: Value, n: Value) -> Value {
    let it = e.b.l.out.int_type(32);
    let bt = e.b.l.out.ty(Type::Bool);
    let hi = e.to_float(n);
    let hi_i = e.to_int(hi);
    let rest = e.bin(B::Sub, it, n, hi_i);
    let lo = e.to_float(rest);
    let r = pow_abs(e, x, hi, Some(lo));
    // The sign of an odd power of a negative x; n = 0 gives 1 for every x.
    let one_i = e.splat(it, ConstantKind::Int(1));
    let zero_i = e.splat(it, ConstantKind::Int(0));
    let bit = e.bin(B::And, it, n, one_i);
    let odd = e.icmp(I::Ne, bt, bit, zero_i);
    let signed = with_sign_of(e, r, x);
    let r = e.fsel(odd, signed, r);
    let nan = e.is_nan(x);
    let r = e.fsel(nan, x, r);
    let n_zero = e.icmp(I::Eq, bt, n, zero_i);
    let one = e.fc(1.0);
    e.fsel(n_zero, one, r)
}

/// |x|^(1/n) as 2^(log2|x| / n), the quotient a pair.
fn root_abs(e: &mut E, x: Value, nf: Value) -> Value {
    let ax = e.fg(G::FAbs, x);
    let zero = e.fc(0.0);
    let inf = e.fc(f64::INFINITY);
    let is_zero = e.fcmp1(P::Oeq, ax, zero);
    let is_inf = e.fcmp1(P::Oeq, ax, inf);
    let bt = e.b.l.out.ty(Type::Bool);
    let odd = e.spirv(S::LogicalOr, bt, vec![is_zero, is_inf]);
    let one = e.fc(1.0);
    let safe = e.fsel(odd, one, ax);
    let l = log2_pair(e, safe);
    let q = e.f(B::FDiv, l.0, nf);
    let (p, perr) = eft::two_prod(e, q, nf);
    let d = e.f(B::FSub, l.0, p);
    let d = e.f(B::FSub, d, perr);
    let d = e.f(B::FAdd, d, l.1);
    let ql = e.f(B::FDiv, d, nf);
    let t = eft::fast_two_sum(e, q, ql);
    let r = exp2_pair(e, t);
    let n_neg = e.fcmp1(P::Olt, nf, zero);
    let z_root = e.fsel(n_neg, inf, zero);
    let i_root = e.fsel(n_neg, zero, inf);
    let r = e.fsel(is_zero, z_root, r);
    e.fsel(is_inf, i_root, r)
}

fn rootn(e: &mut E, x: Value, n: Value) -> Value {
    let nf = e.to_float(n);
    let r = root_abs(e, x, nf);
    let nan = e.is_nan(x);
    let r = e.fsel(nan, x, r);
    rootn_special(e, x, nf, r)
}

/// rootn(x, 3), then one Newton step: r − (r³ − |x|)/(3r²), r³ from exact products.
fn cbrt(e: &mut E, x: Value) -> Value {
    let three = e.fc(3.0);
    let r = root_abs(e, x, three);
    let ax = e.fg(G::FAbs, x);
    // r³ − |x| with r² and r²·r as pairs (r is near |x|^(1/3), far from overflow: scaled).
    let (s, _) = mantissa_exponent(e, r);
    let scale = e.f(B::FDiv, s, r);
    let rs = e.f(B::FMul, r, scale);
    // |x|·scale³ one factor at a time (scale³ itself may overflow).
    let axs = e.f(B::FMul, ax, scale);
    let axs = e.f(B::FMul, axs, scale);
    let axs = e.f(B::FMul, axs, scale);
    let (a, b) = eft::two_prod(e, rs, rs);
    let (c, d) = eft::two_prod(e, a, rs);
    let br = e.f(B::FMul, b, rs);
    let d = e.f(B::FAdd, d, br);
    let res = e.f(B::FSub, c, axs);
    let res = e.f(B::FAdd, res, d);
    let r2 = e.f(B::FMul, rs, rs);
    let den = e.f(B::FMul, r2, three);
    let corr = e.f(B::FDiv, res, den);
    let rs = e.f(B::FSub, rs, corr);
    let refined = e.f(B::FDiv, rs, scale);
    // Zeros, infinities and NaNs are their own cube roots; the step needs a normal r.
    let zero = e.fc(0.0);
    let inf = e.fc(f64::INFINITY);
    let is_zero = e.fcmp1(P::Oeq, ax, zero);
    let is_inf = e.fcmp1(P::Oeq, ax, inf);
    let bt = e.b.l.out.ty(Type::Bool);
    let own = e.spirv(S::LogicalOr, bt, vec![is_zero, is_inf]);
    let nan = e.is_nan(x);
    let own = e.spirv(S::LogicalOr, bt, vec![own, nan]);
    let signed = with_sign_of(e, refined, x);
    e.fsel(own, x, signed)
}

/// √(x² + y²) with both scaled by the larger's power of two (no overflow or underflow).
fn hypot(e: &mut E, x: Value, y: Value) -> Value {
    let t = e.ft();
    let ax = e.fg(G::FAbs, x);
    let ay = e.fg(G::FAbs, y);
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
    let xs = e.f(B::FMul, ax, down);
    let ys = e.f(B::FMul, ay, down);
    let x2 = e.f(B::FMul, xs, xs);
    let y2 = e.f(B::FMul, ys, ys);
    let s = e.f(B::FAdd, x2, y2);
    let r = super::div_sqrt::sqrt(e, s, t);
    let up = pow2(e, k);
    let r = e.f(B::FMul, r, up);
    // An infinite operand gives +∞ even beside a NaN; a NaN otherwise NaN.
    let inf = e.fc(f64::INFINITY);
    let bt = e.b.l.out.ty(Type::Bool);
    let xi = e.spirv(S::IsInf, bt, vec![x]);
    let yi = e.spirv(S::IsInf, bt, vec![y]);
    let either = e.spirv(S::LogicalOr, bt, vec![xi, yi]);
    let sum = e.f(B::FAdd, x, y);
    let xn = e.is_nan(x);
    let yn = e.is_nan(y);
    let any_nan = e.spirv(S::LogicalOr, bt, vec![xn, yn]);
    let r = e.fsel(any_nan, sum, r);
    e.fsel(either, inf, r)
}

/// log(1 + x) as log(u) + (x − (u − 1))/u, u = 1 + x rounded; the series near zero.
fn log1p(e: &mut E, x: Value) -> Value {
    let one = e.fc(1.0);
    let u = e.f(B::FAdd, one, x);
    let um1 = e.f(B::FSub, u, one);
    let d = e.f(B::FSub, x, um1);
    let c = e.f(B::FDiv, d, u);
    let lu = log(e, u, Base::E);
    let far = e.f(B::FAdd, lu, c);
    // Below 2^-12: x − x²/2 + x³/3 (its next term is under half an ulp).
    let near = e.fpoly(x, &[0.0, 1.0, -0.5, 1.0 / 3.0]);
    let ax = e.fg(G::FAbs, x);
    let k = e.fc(1.0 / 4096.0);
    let small = e.fcmp1(P::Olt, ax, k);
    let r = e.fsel(small, near, far);
    // log1p(∞) = ∞, (−1) = −∞, below −1 NaN (log's own answers for u).
    let inf = e.fc(f64::INFINITY);
    let is_inf = e.fcmp1(P::Oeq, x, inf);
    let r = e.fsel(is_inf, x, r);
    let m1 = e.fc(-1.0);
    let at_m1 = e.fcmp1(P::Ole, x, m1);
    let r = e.fsel(at_m1, lu, r);
    let nan = e.is_nan(x);
    e.fsel(nan, x, r)
}

/// sinh or cosh: the odd series of sinh below 1, else (e^|x| ± e^−|x|)/2 with the halving
/// inside e^|x|'s scaling.
fn sinh_cosh(e: &mut E, x: Value, sinh: bool) -> Value {
    let ax = e.fg(G::FAbs, x);
    let half_e = exp_scaled(e, ax, -1);
    let quarter = e.fc(0.25);
    let inv = e.f(B::FDiv, quarter, half_e);
    let far = if sinh {
        e.f(B::FSub, half_e, inv)
    } else {
        e.f(B::FAdd, half_e, inv)
    };
    if !sinh {
        return far;
    }
    let far = with_sign_of(e, far, x);
    // x + x³·q(x²), q to x^12/13!.
    let x2 = e.f(B::FMul, x, x);
    let c: Vec<f64> = inverse_factorials(13)
        .into_iter()
        .skip(3)
        .step_by(2)
        .collect();
    let q = e.fpoly(x2, &c);
    let x3 = e.f(B::FMul, x2, x);
    let t = e.f(B::FMul, x3, q);
    let near = e.f(B::FAdd, x, t);
    let one = e.fc(1.0);
    let small = e.fcmp1(P::Olt, ax, one);
    let r = e.fsel(small, near, far);
    let nan = e.is_nan(x);
    e.fsel(nan, x, r)
}

/// expm1(2x) / (expm1(2x) + 2), ±1 beyond 10.
fn tanh(e: &mut E, x: Value) -> Value {
    let ax = e.fg(G::FAbs, x);
    let two = e.fc(2.0);
    let x2 = e.f(B::FMul, ax, two);
    let m = expm1(e, x2);
    let den = e.f(B::FAdd, m, two);
    let r = e.f(B::FDiv, m, den);
    let one = e.fc(1.0);
    let k = e.fc(10.0);
    let big = e.fcmp1(P::Ogt, ax, k);
    let r = e.fsel(big, one, r);
    let r = with_sign_of(e, r, x);
    let nan = e.is_nan(x);
    e.fsel(nan, x, r)
}

/// sign(x)·log1p(|x| + x²/(1 + √(1 + x²))); log|x| + ln 2 beyond 2^12.
fn asinh(e: &mut E, x: Value) -> Value {
    let t = e.ft();
    let ax = e.fg(G::FAbs, x);
    let one = e.fc(1.0);
    let x2 = e.f(B::FMul, ax, ax);
    let u = e.f(B::FAdd, x2, one);
    let s = super::div_sqrt::sqrt(e, u, t);
    let den = e.f(B::FAdd, one, s);
    let q = e.f(B::FDiv, x2, den);
    let w = e.f(B::FAdd, ax, q);
    let mid = log1p(e, w);
    let l = log(e, ax, Base::E);
    let ln2 = e.fc(std::f64::consts::LN_2);
    let far = e.f(B::FAdd, l, ln2);
    let k = e.fc(4096.0);
    let big = e.fcmp1(P::Ogt, ax, k);
    let r = e.fsel(big, far, mid);
    let r = with_sign_of(e, r, x);
    // Zeros, infinities and NaNs are their own.
    let zero = e.fc(0.0);
    let inf = e.fc(f64::INFINITY);
    let is_zero = e.fcmp1(P::Oeq, ax, zero);
    let is_inf = e.fcmp1(P::Oeq, ax, inf);
    let nan = e.is_nan(x);
    let bt = e.b.l.out.ty(Type::Bool);
    let own = e.spirv(S::LogicalOr, bt, vec![is_zero, is_inf]);
    let own = e.spirv(S::LogicalOr, bt, vec![own, nan]);
    e.fsel(own, x, r)
}

/// log1p(t + √(2t + t²)) for t = x − 1 up to 2; log(2x − 1/(x + √(x² − 1))) beyond;
/// log x + ln 2 beyond 2^12; NaN below 1.
fn acosh(e: &mut E, x: Value) -> Value {
    let t = e.ft();
    let one = e.fc(1.0);
    let two = e.fc(2.0);
    let tt = e.f(B::FSub, x, one);
    let t2 = e.f(B::FMul, tt, two);
    let tsq = e.f(B::FMul, tt, tt);
    let u = e.f(B::FAdd, t2, tsq);
    let su = super::div_sqrt::sqrt(e, u, t);
    let w = e.f(B::FAdd, tt, su);
    let near = log1p(e, w);
    let x2 = e.f(B::FMul, x, x);
    let v = e.f(B::FSub, x2, one);
    let sv = super::div_sqrt::sqrt(e, v, t);
    let d = e.f(B::FAdd, x, sv);
    let inv = e.f(B::FDiv, one, d);
    let twox = e.f(B::FMul, x, two);
    let arg = e.f(B::FSub, twox, inv);
    let mid = log(e, arg, Base::E);
    let l = log(e, x, Base::E);
    let ln2 = e.fc(std::f64::consts::LN_2);
    let far = e.f(B::FAdd, l, ln2);
    let above2 = e.fcmp1(P::Ogt, x, two);
    let r = e.fsel(above2, mid, near);
    let k = e.fc(4096.0);
    let big = e.fcmp1(P::Ogt, x, k);
    let r = e.fsel(big, far, r);
    let inf = e.fc(f64::INFINITY);
    let is_inf = e.fcmp1(P::Oeq, x, inf);
    let r = e.fsel(is_inf, x, r);
    let bad = e.fcmp1(P::Ult, x, one);
    let nan = super::div_sqrt::default_nan(e, t);
    let r = e.fsel(bad, nan, r);
    let xn = e.is_nan(x);
    e.fsel(xn, x, r)
}

/// sign(x)·½·log1p(2|x| + 2x²/(1 − |x|)) below ½, ½·log1p(2|x|/(1 − |x|)) above.
fn atanh(e: &mut E, x: Value) -> Value {
    let t = e.ft();
    let ax = e.fg(G::FAbs, x);
    let one = e.fc(1.0);
    let two = e.fc(2.0);
    let half = e.fc(0.5);
    let om = e.f(B::FSub, one, ax);
    let ax2 = e.f(B::FMul, ax, two);
    let sq = e.f(B::FMul, ax2, ax);
    let q = e.f(B::FDiv, sq, om);
    let w_near = e.f(B::FAdd, ax2, q);
    let w_far = e.f(B::FDiv, ax2, om);
    let small = e.fcmp1(P::Olt, ax, half);
    let w = e.fsel(small, w_near, w_far);
    let l = log1p(e, w);
    let r = e.f(B::FMul, l, half);
    // ±1 give ±∞ (log1p of ∞), beyond 1 NaN.
    let at_one = e.fcmp1(P::Oeq, ax, one);
    let inf = e.fc(f64::INFINITY);
    let r = e.fsel(at_one, inf, r);
    let bad = e.fcmp1(P::Ogt, ax, one);
    let nan = super::div_sqrt::default_nan(e, t);
    let r = e.fsel(bad, nan, r);
    let r = with_sign_of(e, r, x);
    let zero = e.fc(0.0);
    let is_zero = e.fcmp1(P::Oeq, x, zero);
    let r = e.fsel(is_zero, x, r);
    let xn = e.is_nan(x);
    e.fsel(xn, x, r)
}
