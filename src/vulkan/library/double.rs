//! The math of double: exponentials, logarithms, powers and roots with double arguments,
//! and a correctly rounded `sqrt` (the hyperbolic functions are hyperbolic.rs's formulas
//! over these). Vulkan has none of these for
//! 64-bit floats but `Sqrt` (whose precision it does not promise), so each is written here,
//! lane by lane, in double and double-double arithmetic:
//!
//! * Double-double values are (hi, lo) pairs of doubles, hi = hi + lo rounded: TwoSum for
//!   sums, Dekker's product (Veltkamp's split) for exact products: Vulkan's `Fma` is not
//!   fused everywhere (lavapipe computes a product and a sum), and the writer's
//!   NoContraction on every float instruction keeps the split's roundings.
//! * `exp_dd`: e^(hi + lo) with x = k·ln 2 + r (k·ln 2's first part exact), e^r by its
//!   Taylor series to r^13 as 1 + (r + r²·q(r)), times 2^k in two exact steps (so a
//!   subnormal result is rounded once). Within about an ulp (OpenCL: 3).
//! * `log_dd`: x = m·2^k with m in [√½, √2), log m = 2 atanh(s), s = (m − 1)/(m + 1) in
//!   double-double, the series' tail in double; plus k·ln 2 in double-double. The error is
//!   far below an ulp of the double result, which is hi.
//! * `pow` is e^(y·log|x|) with the product in double-double (its rounding would otherwise
//!   grow with |y·log x|), `rootn` and `cbrt` e^(log|x| / n) likewise; the special operands
//!   are C99's, shared with the float bodies.
//! * `expm1` is 2^k·(e^r − 1) + (2^k − 1) with e^r − 1 by its series, `log1p` log of 1 + x
//!   in double-double.
//! * `sqrt` is Vulkan's `Sqrt`, one Newton step with an exact residual, then Tuckerman's
//!   test (y·(y − ulp) < x ≤ y·(y + ulp), the products exact) moves it to the correctly
//!   rounded neighbour where it is not.

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp as B, CastOp, ConstantKind, ConvertKind, FloatPredicate as P};
use crate::ir::{Handle, Op, Sign, Type, Value};

use super::specials::{log_special, pow_special, power_ends, rootn_special, with_sign_of, Pow};
use super::E;
use crate::vulkan::emit::plain;

/// A double-double value: hi + lo, |lo| ≤ ulp(hi) / 2 (eft.rs's pair, whose error-free
/// sums and products serve both precisions).
pub(super) use super::eft::Pair as Dd;
pub(super) use super::eft::{add, fast_two_sum, mul as mul_dd_dd, mul_value as mul_dd_d};
pub(super) use super::eft::{two_prod, two_sum};

/// ln 2 in two parts, the first with 32 significant bits (exact times any |k| < 2^21).
const LN2_HI32: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO32: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
/// ln 2, ln 10, log2 e and log10 e as double-doubles (their digits, rounded twice).
pub(super) const LN2: (f64, f64) = (
    f64::from_bits(0x3fe6_2e42_fefa_39ef),
    f64::from_bits(0x3c7a_bc9e_3b39_803f),
);
const LN10: (f64, f64) = (
    f64::from_bits(0x4002_6bb1_bbb5_5516),
    f64::from_bits(0xbcaf_48ad_494e_a3e9),
);
const LOG2E: (f64, f64) = (
    f64::from_bits(0x3ff7_1547_652b_82fe),
    f64::from_bits(0x3c77_77d0_ffda_0d24),
);
const LOG10E: (f64, f64) = (
    f64::from_bits(0x3fdb_cb7b_1526_e50e),
    f64::from_bits(0x3c69_5355_baaa_fad3),
);
/// e^x overflows above this and is 0 below `EXP_UNDER` (half the least subnormal).
const EXP_OVER: f64 = 709.782_712_893_384;
const EXP_UNDER: f64 = -745.133_219_101_941_2;

/// The body of `op` with double arguments, if this file has one.
pub(super) fn math(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Option<Value> {
    let f: fn(&mut E, &[Value]) -> Value = match op {
        C::sqrt => |e, a| sqrt(e, a[0]),
        C::rsqrt => |e, a| {
            let s = sqrt(e, a[0]);
            let one = e.dconst(1.0);
            e.dbin(B::FDiv, one, s)
        },
        C::exp => |e, a| {
            let z = e.dconst(0.0);
            exp_dd(e, (a[0], z))
        },
        C::exp2 => |e, a| {
            let x = clamp_exponent(e, a[0]);
            let t = mul_d(e, LN2, x);
            exp_dd(e, t)
        },
        C::exp10 => |e, a| {
            let x = clamp_exponent(e, a[0]);
            let t = mul_d(e, LN10, x);
            exp_dd(e, t)
        },
        C::expm1 => |e, a| expm1(e, a[0]),
        C::log => |e, a| log(e, a[0], None),
        C::log2 => |e, a| log(e, a[0], Some(LOG2E)),
        C::log10 => |e, a| log(e, a[0], Some(LOG10E)),
        C::log1p => |e, a| log1p(e, a[0]),
        C::pow => |e, a| pow(e, a[0], a[1], Pow::Pow),
        C::powr => |e, a| pow(e, a[0], a[1], Pow::Powr),
        C::pown => |e, a| {
            let n = e.as_double(a[1]);
            pow(e, a[0], n, Pow::Pow)
        },
        C::rootn => |e, a| {
            let n = e.as_double(a[1]);
            let r = root(e, a[0], n);
            rootn_special(e, a[0], n, r)
        },
        C::cbrt => |e, a| {
            let three = e.dconst(3.0);
            let r = root(e, a[0], three);
            let r = with_sign_of(e, r, a[0]);
            // Zeros, infinities and NaNs are their own cube roots.
            let passes = not_finite_or_zero(e, a[0]);
            e.dsel(passes, a[0], r)
        },
        C::hypot => |e, a| hypot(e, a[0], a[1]),
        _ => return None,
    };
    Some(e.lanewise(ret, args, |e, lanes, _| f(e, lanes)))
}

/// x clamped to [−4096, 4096] (a NaN stays), where 2^x and 10^x are already 0 or +inf:
/// the double-double product by ln 2 or ln 10 overflows further out.
fn clamp_exponent(e: &mut E, x: Value) -> Value {
    let (lo, hi) = (e.dconst(-4096.0), e.dconst(4096.0));
    let below = e.dcmp(P::Olt, x, lo);
    let above = e.dcmp(P::Ogt, x, hi);
    let x = e.dsel(below, lo, x);
    e.dsel(above, hi, x)
}

pub(super) fn neg(e: &mut E, a: Value) -> Value {
    let dt = e.dt();
    e.b.push(dt, Op::FNeg(a))
}

/// x − a·b, exact where a·b is within a factor of 2 of x (the residual of a quotient or a
/// root): the product's parts subtracted one by one.
fn residual(e: &mut E, x: Value, a: Value, b: Value) -> Value {
    let (p, err) = two_prod(e, a, b);
    let d = e.dbin(B::FSub, x, p);
    e.dbin(B::FSub, d, err)
}

/// A double-double constant times a double.
pub(super) fn mul_d(e: &mut E, k: (f64, f64), x: Value) -> Dd {
    let k = (e.dconst(k.0), e.dconst(k.1));
    mul_dd_d(e, k, x)
}

/// x / n for a double-double x and a double n.
pub(super) fn div_dd_d(e: &mut E, x: Dd, n: Value) -> Dd {
    let q = e.dbin(B::FDiv, x.0, n);
    let rem = residual(e, x.0, q, n);
    let rem = e.dbin(B::FAdd, rem, x.1);
    let ql = e.dbin(B::FDiv, rem, n);
    fast_two_sum(e, q, ql)
}

fn i64t(e: &mut E) -> Handle<Type> {
    e.b.l.out.int_type(64)
}

/// 2^k for an i64 k in the normal range, from the bits.
fn pow2(e: &mut E, k: Value) -> Value {
    let i64t = i64t(e);
    let bias = e.splat(i64t, ConstantKind::Int(1023));
    let b = e.bin(B::Add, i64t, k, bias);
    let sh = e.splat(i64t, ConstantKind::Int(52));
    let b = e.bin(B::Shl, i64t, b, sh);
    let dt = e.dt();
    e.cast(CastOp::Bitcast, dt, b)
}

fn to_i64(e: &mut E, d: Value) -> Value {
    let i64t = i64t(e);
    e.b.push(
        i64t,
        Op::Builtin {
            builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
            args: vec![d],
        },
    )
}

/// v·2^k for an integral double k in [-1100, 1100]: two exact steps, one rounding.
fn scale(e: &mut E, v: Value, k: Value) -> Value {
    let i64t = i64t(e);
    let ki = to_i64(e, k);
    let two = e.splat(i64t, ConstantKind::Int(2));
    let k1 = e.bin(B::SDiv, i64t, ki, two);
    let k2 = e.bin(B::Sub, i64t, ki, k1);
    let s1 = pow2(e, k1);
    let s2 = pow2(e, k2);
    let v = e.dbin(B::FMul, v, s1);
    e.dbin(B::FMul, v, s2)
}

/// k = round(hi / ln 2) and r = hi + lo − k·ln 2.
fn reduce_ln2(e: &mut E, x: Dd) -> (Value, Value) {
    let log2e = e.dconst(LOG2E.0);
    let t = e.dbin(B::FMul, x.0, log2e);
    let k = e.dglsl(G::RoundEven, t);
    let hi = e.dconst(LN2_HI32);
    let lo = e.dconst(LN2_LO32);
    let khi = e.dbin(B::FMul, k, hi);
    let r = e.dbin(B::FSub, x.0, khi);
    let klo = e.dbin(B::FMul, k, lo);
    let r = e.dbin(B::FSub, r, klo);
    let r = e.dbin(B::FAdd, r, x.1);
    (k, r)
}

/// e^r − 1 for |r| ≤ ln 2 / 2 (a little more), by its series: r + r²·q(r).
fn expm1_series(e: &mut E, r: Value) -> Value {
    let q: Vec<f64> = (2..=16)
        .map(|i| 1.0 / (1..=i).map(f64::from).product::<f64>())
        .collect();
    let q = e.poly(r, &q);
    let r2 = e.dbin(B::FMul, r, r);
    let t = e.dbin(B::FMul, r2, q);
    e.dbin(B::FAdd, r, t)
}

/// e^(hi + lo) over the whole range of double.
pub(super) fn exp_dd(e: &mut E, x: Dd) -> Value {
    let over_k = e.dconst(EXP_OVER);
    let under_k = e.dconst(EXP_UNDER);
    let over = e.dcmp(P::Ogt, x.0, over_k);
    let under = e.dcmp(P::Olt, x.0, under_k);
    // Clamped, so that k stays small; the ends are selected below.
    let lim_hi = e.dconst(710.0);
    let lim_lo = e.dconst(-746.0);
    let dt = e.dt();
    let c = e.glsl(G::FClamp, dt, vec![x.0, lim_lo, lim_hi]);
    let zero = e.dconst(0.0);
    let lo = e.dsel(over, zero, x.1);
    let lo = e.dsel(under, zero, lo);
    let (k, r) = reduce_ln2(e, (c, lo));
    let m = expm1_series(e, r);
    let one = e.dconst(1.0);
    let p = e.dbin(B::FAdd, one, m);
    let res = scale(e, p, k);
    let inf = e.dconst(f64::INFINITY);
    let res = e.dsel(over, inf, res);
    let res = e.dsel(under, zero, res);
    let bt = e.b.l.out.ty(Type::Bool);
    let nan = e.spirv(S::IsNan, bt, vec![x.0]);
    e.dsel(nan, x.0, res)
}

pub(super) fn expm1(e: &mut E, x: Value) -> Value {
    // 2^k·(e^r − 1) + (2^k − 1); k = 0 near zero, so no cancellation there.
    let dt = e.dt();
    let lim_hi = e.dconst(710.0);
    let lim_lo = e.dconst(-60.0);
    let c = e.glsl(G::FClamp, dt, vec![x, lim_lo, lim_hi]);
    let zero = e.dconst(0.0);
    let (k, r) = reduce_ln2(e, (c, zero));
    let m = expm1_series(e, r);
    let one = e.dconst(1.0);
    let p2 = scale(e, one, k);
    let a = e.dbin(B::FMul, m, p2);
    let b = e.dbin(B::FSub, p2, one);
    let res = e.dbin(B::FAdd, a, b);
    // Near the overflow threshold 2^k itself overflows: e^x − 1 is e^x there.
    let near_k = e.dconst(700.0);
    let near_over = e.dcmp(P::Ogt, x, near_k);
    let whole = exp_dd(e, (c, zero));
    let res = e.dsel(near_over, whole, res);
    // Past the overflow threshold, +inf; far below zero, −1.
    let over_k = e.dconst(EXP_OVER);
    let over = e.dcmp(P::Ogt, x, over_k);
    let inf = e.dconst(f64::INFINITY);
    let res = e.dsel(over, inf, res);
    let m1 = e.dconst(-1.0);
    let low = e.dcmp(P::Olt, x, lim_lo);
    let res = e.dsel(low, m1, res);
    // Zeros keep their sign; NaN stays NaN.
    let passes = zero_or_nan(e, x);
    e.dsel(passes, x, res)
}

/// True for ±0 and NaN.
pub(super) fn zero_or_nan(e: &mut E, x: Value) -> Value {
    let zero = e.dconst(0.0);
    let z = e.dcmp(P::Oeq, x, zero);
    let bt = e.b.l.out.ty(Type::Bool);
    let nan = e.spirv(S::IsNan, bt, vec![x]);
    e.or(z, nan)
}

/// True for ±0, ±inf and NaN.
pub(super) fn not_finite_or_zero(e: &mut E, x: Value) -> Value {
    let zn = zero_or_nan(e, x);
    let bt = e.b.l.out.ty(Type::Bool);
    let inf = e.spirv(S::IsInf, bt, vec![x]);
    e.or(zn, inf)
}

/// log x in double-double for a positive finite x (subnormals too); the special operands
/// are the callers'.
pub(super) fn log_dd(e: &mut E, x: Value) -> Dd {
    let (m, k) = super::decompose::mantissa_exponent(e, x);
    let one = e.dconst(1.0);
    // f = m − 1 exactly; s = f / (2 + f) in double-double.
    let f = e.dbin(B::FSub, m, one);
    let two = e.dconst(2.0);
    let (dh, dl) = fast_two_sum(e, two, f);
    let sh = e.dbin(B::FDiv, f, dh);
    let rem = residual(e, f, sh, dh);
    let sdl = e.dbin(B::FMul, sh, dl);
    let rem = e.dbin(B::FSub, rem, sdl);
    let sl = e.dbin(B::FDiv, rem, dh);
    // log m = 2s + s³·(2/3 + 2/5 s² + …): the tail in double.
    let s2 = e.dbin(B::FMul, sh, sh);
    let c: Vec<f64> = (1..=11).map(|j| 2.0 / f64::from(2 * j + 1)).collect();
    let t = e.poly(s2, &c);
    let s3 = e.dbin(B::FMul, sh, s2);
    let tail = e.dbin(B::FMul, s3, t);
    let two_sh = e.dbin(B::FMul, sh, two);
    let two_sl = e.dbin(B::FMul, sl, two);
    let low = e.dbin(B::FAdd, two_sl, tail);
    let lm = fast_two_sum(e, two_sh, low);
    let kl = mul_d(e, LN2, k);
    add(e, kl, lm)
}

/// log x (times a double-double constant), with C99's special operands.
pub(super) fn log(e: &mut E, x: Value, times: Option<(f64, f64)>) -> Value {
    let l = log_dd(e, x);
    let r = match times {
        None => l.0,
        Some(k) => {
            let kh = e.dconst(k.0);
            let kl = e.dconst(k.1);
            let (p, err) = two_prod(e, l.0, kh);
            let a = e.dbin(B::FMul, l.1, kh);
            let b = e.dbin(B::FMul, l.0, kl);
            let err = e.dbin(B::FAdd, err, a);
            let err = e.dbin(B::FAdd, err, b);
            e.dbin(B::FAdd, p, err)
        }
    };
    log_special(e, x, r)
}

pub(super) fn log1p(e: &mut E, x: Value) -> Value {
    // log of 1 + x as a double-double: log(hi) + lo / hi.
    let one = e.dconst(1.0);
    let (u, ul) = two_sum(e, one, x);
    let l = log_dd(e, u);
    let c = e.dbin(B::FDiv, ul, u);
    let low = e.dbin(B::FAdd, l.1, c);
    let r = e.dbin(B::FAdd, l.0, low);
    // −1 gives −inf, below it NaN; tiny x (and ±0) is its own log1p.
    let m1 = e.dconst(-1.0);
    let ninf = e.dconst(f64::NEG_INFINITY);
    let nan = e.dconst(f64::NAN);
    let inf = e.dconst(f64::INFINITY);
    let is_m1 = e.dcmp(P::Oeq, x, m1);
    let bad = e.dcmp(P::Ult, x, m1);
    let is_inf = e.dcmp(P::Oeq, x, inf);
    let r = e.dsel(is_m1, ninf, r);
    let r = e.dsel(is_inf, inf, r);
    let r = e.dsel(bad, nan, r);
    let ax = e.dglsl(G::FAbs, x);
    let small_k = e.dconst(2f64.powi(-60));
    let small = e.dcmp(P::Olt, ax, small_k);
    e.dsel(small, x, r)
}

fn pow(e: &mut E, x: Value, y: Value, kind: Pow) -> Value {
    let ax = e.dglsl(G::FAbs, x);
    // log_dd is for positive finite x, and the product is finite for finite y: the other
    // operands' results are C99's (`power_ends`), whatever the exponential gave for them.
    let l = log_dd(e, ax);
    let t = mul_dd_d(e, l, y);
    // Far past the exponential's range (where the double-double product may overflow to
    // NaN) the plain product decides alone.
    let zero = e.dconst(0.0);
    let plain = e.dbin(B::FMul, l.0, y);
    let ap = e.dglsl(G::FAbs, plain);
    let far_k = e.dconst(2048.0);
    let far = e.dcmp(P::Ogt, ap, far_k);
    let th = e.dsel(far, plain, t.0);
    let tl = e.dsel(far, zero, t.1);
    let r = exp_dd(e, (th, tl));
    let r = power_ends(e, ax, y, r);
    pow_special(e, x, y, r, kind)
}

/// |x|^(1/n) for a double n, in double-double up to the exponential (NaN for a NaN x).
fn root(e: &mut E, x: Value, n: Value) -> Value {
    let ax = e.dglsl(G::FAbs, x);
    let l = log_dd(e, ax);
    let t = div_dd_d(e, l, n);
    let r = exp_dd(e, t);
    // 0 and inf: log_dd does not take them.
    let zero = e.dconst(0.0);
    let inf = e.dconst(f64::INFINITY);
    let x0 = e.dcmp(P::Oeq, ax, zero);
    let xi = e.dcmp(P::Oeq, ax, inf);
    let npos = e.dcmp(P::Ogt, n, zero);
    let r0 = e.dsel(npos, zero, inf);
    let ri = e.dsel(npos, inf, zero);
    let r = e.dsel(x0, r0, r);
    let r = e.dsel(xi, ri, r);
    let bt = e.b.l.out.ty(Type::Bool);
    let xn = e.spirv(S::IsNan, bt, vec![x]);
    let quiet = e.dbin(B::FAdd, x, x);
    e.dsel(xn, quiet, r)
}

/// √x correctly rounded.
pub(super) fn sqrt(e: &mut E, x: Value) -> Value {
    let i64t = i64t(e);
    let dt = e.dt();
    // Tiny (and subnormal) x: scaled by 2^256 first, the root by 2^-128 after; huge x by
    // 2^-256 and 2^128 (the residual's square of a root of the largest doubles overflows).
    let tiny_k = e.dconst(2f64.powi(-900));
    let tiny = e.dcmp(P::Olt, x, tiny_k);
    let up = e.dconst(2f64.powi(256));
    let xs = e.dbin(B::FMul, x, up);
    let xs = e.dsel(tiny, xs, x);
    let huge_k = e.dconst(2f64.powi(1000));
    let huge = e.dcmp(P::Ogt, xs, huge_k);
    let down_k = e.dconst(2f64.powi(-256));
    let xd = e.dbin(B::FMul, xs, down_k);
    let xs = e.dsel(huge, xd, xs);
    let y = e.dglsl(G::Sqrt, xs);
    // One Newton step with the exact residual x − y².
    let res = residual(e, xs, y, y);
    let half = e.dconst(0.5);
    let hy = e.dbin(B::FDiv, half, y);
    let step = e.dbin(B::FMul, res, hy);
    let y = e.dbin(B::FAdd, y, step);
    // Tuckerman's test against both neighbours.
    let yb = e.cast(CastOp::Bitcast, i64t, y);
    let one = e.splat(i64t, ConstantKind::Int(1));
    let down = e.bin(B::Sub, i64t, yb, one);
    let down = e.cast(CastOp::Bitcast, dt, down);
    let upb = e.bin(B::Add, i64t, yb, one);
    let upn = e.cast(CastOp::Bitcast, dt, upb);
    // x − y·(y ∓ ulp): exact, so its sign is the comparison's.
    let zero = e.dconst(0.0);
    let below = residual(e, xs, y, down);
    let too_big = e.dcmp(P::Ole, below, zero);
    let above = residual(e, xs, y, upn);
    let too_small = e.dcmp(P::Ogt, above, zero);
    let y = e.dsel(too_small, upn, y);
    let y = e.dsel(too_big, down, y);
    let back = e.dconst(2f64.powi(-128));
    let yt = e.dbin(B::FMul, y, back);
    let y = e.dsel(tiny, yt, y);
    let forth = e.dconst(2f64.powi(128));
    let yh = e.dbin(B::FMul, y, forth);
    let y = e.dsel(huge, yh, y);
    // ±0, +inf and NaN are their own roots; below zero NaN.
    let inf = e.dconst(f64::INFINITY);
    let is_inf = e.dcmp(P::Oeq, x, inf);
    let passes = zero_or_nan(e, x);
    let passes = e.or(passes, is_inf);
    let y = e.dsel(passes, x, y);
    let nan = e.dconst(f64::NAN);
    let negative = e.dcmp(P::Olt, x, zero);
    e.dsel(negative, nan, y)
}

fn hypot(e: &mut E, x: Value, y: Value) -> Value {
    // Both scaled by a power of two that brings the larger near 1, the sum of squares in
    // double-double, its root (the low part as a first-order correction), scaled back.
    let i64t = i64t(e);
    let ax = e.dglsl(G::FAbs, x);
    let ay = e.dglsl(G::FAbs, y);
    let dt = e.dt();
    let big = e.glsl(G::FMax, dt, vec![ax, ay]);
    let bits = e.cast(CastOp::Bitcast, i64t, big);
    let c52 = e.splat(i64t, ConstantKind::Int(52));
    let ex = e.bin(B::LShr, i64t, bits, c52);
    let bias = e.splat(i64t, ConstantKind::Int(1023));
    let ex = e.bin(B::Sub, i64t, ex, bias);
    // Subnormal operands: the exponent field says -1023; a scale of 2^600 keeps it exact.
    // The largest binade (2^1023) scales by 2^-1022, the least power of two `pow2` makes.
    let lim = e.splat(i64t, ConstantKind::Int((-600i64) as u64));
    let ex = e.glsl(G::SMax, i64t, vec![ex, lim]);
    let top = e.splat(i64t, ConstantKind::Int(1022));
    let ex = e.glsl(G::SMin, i64t, vec![ex, top]);
    let zero_i = e.splat(i64t, ConstantKind::Int(0));
    let nex = e.bin(B::Sub, i64t, zero_i, ex);
    let down = pow2(e, nex);
    let xs = e.dbin(B::FMul, ax, down);
    let ys = e.dbin(B::FMul, ay, down);
    let (a, ae) = two_prod(e, xs, xs);
    let (b, be) = two_prod(e, ys, ys);
    let s = add(e, (a, ae), (b, be));
    let r = e.dglsl(G::Sqrt, s.0);
    // One Newton step on the double-double sum.
    let res = residual(e, s.0, r, r);
    let res = e.dbin(B::FAdd, res, s.1);
    let half = e.dconst(0.5);
    let hr = e.dbin(B::FDiv, half, r);
    let step = e.dbin(B::FMul, res, hr);
    let r = e.dbin(B::FAdd, r, step);
    let back = scale_i(e, r, ex);
    // Zero operands give 0 (no 0/0); an infinite one +inf even beside a NaN.
    let zero = e.dconst(0.0);
    let is_zero = e.dcmp(P::Oeq, big, zero);
    let r = e.dsel(is_zero, zero, back);
    let inf = e.dconst(f64::INFINITY);
    let bt = e.b.l.out.ty(Type::Bool);
    let xi = e.spirv(S::IsInf, bt, vec![x]);
    let yi = e.spirv(S::IsInf, bt, vec![y]);
    let either = e.or(xi, yi);
    let nan = e.dconst(f64::NAN);
    let xn = e.spirv(S::IsNan, bt, vec![x]);
    let yn = e.spirv(S::IsNan, bt, vec![y]);
    let any_nan = e.or(xn, yn);
    let r = e.dsel(any_nan, nan, r);
    e.dsel(either, inf, r)
}

/// v·2^k for an i64 k in [-1100, 1100].
fn scale_i(e: &mut E, v: Value, k: Value) -> Value {
    let dt = e.dt();
    let kd = e.b.push(
        dt,
        Op::Builtin {
            builtin: plain(ConvertKind::Int(Sign::Signed), ConvertKind::Float),
            args: vec![k],
        },
    );
    scale(e, v, kd)
}
