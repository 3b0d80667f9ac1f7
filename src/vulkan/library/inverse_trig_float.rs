//! The inverse trigonometric functions of float, in float (halves computed as floats and
//! rounded once), within OpenCL's float bounds (4 ulp for asin and acos, 5 for atan and the
//! `*pi` forms of asin and acos, 6 for atan2 and atan2pi):
//!
//! * atan t for t in [0, 1]: c = k/8 the nearest eighth, atan t = atan c + atan u with
//!   u = (t − c)/(1 + tc), |u| ≤ 1/16, by its series to u^7; atan c from a table of pairs.
//!   atan2 with C99's special cases, the quotient's octant chosen before dividing.
//! * asin x = x + x³·P(x²) below ½ and π/2 − 2·asin(√((1 − x)/2)) above, acos from the
//!   same two (π/2 and π as pairs); NaN beyond ±1.
//! * The `*pi` forms divide the pair by π once, rounded.

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp as B, CastOp, FloatPredicate as P};
use crate::ir::{IntPredicate as I, Type, Value};

use super::eft::{self, Pair};
use super::float_ops::{f, fc, fcmp, fsel, ft, ki, neg, poly, zero_keeps, zero_signed_as};
use super::E;

use std::f64::consts::{FRAC_PI_2, PI};

/// One lane of atan, atan2, asin, acos and their `*pi` forms (`a`: the lane's operands).
pub(super) fn lane(e: &mut E, op: C, a: &[Value]) -> Value {
    let x = a[0];
    let (t, over) = match op {
        C::atan | C::atanpi => {
            let one = fc(e, 1.0);
            (atan2(e, x, one), op == C::atanpi)
        }
        C::atan2 | C::atan2pi => (atan2(e, x, a[1]), op == C::atan2pi),
        C::asin | C::asinpi => (asin(e, x), op == C::asinpi),
        _ => (acos(e, x), op == C::acospi),
    };
    if !over {
        return t.0;
    }
    let v = over_pi(e, t);
    match op {
        // A zero has y's sign (C99 F.9.1.4 for atan2, OpenCL C 7.5.1 for atan2pi).
        C::atan2pi => zero_signed_as(e, v, x),
        C::asinpi | C::atanpi => zero_keeps(e, x, v),
        _ => v,
    }
}

/// t/π for a pair t, rounded.
fn over_pi(e: &mut E, t: Pair) -> Value {
    let ty = ft(e);
    let k = eft::constant_pair(e, ty, 1.0 / PI);
    let r = eft::mul_const(e, t, k);
    r.0
}

/// atan t for 0 ≤ t ≤ 1 as a pair: atan c + atan u, c = k/8, u = (t − c)/(1 + tc).
fn atan_k(e: &mut E, t: Value) -> Pair {
    let ty = ft(e);
    let eight = fc(e, 8.0);
    let t8 = f(e, B::FMul, t, eight);
    let kf = e.glsl(G::RoundEven, ty, vec![t8]);
    let inv8 = fc(e, 0.125);
    let c = f(e, B::FMul, kf, inv8);
    let num = f(e, B::FSub, t, c);
    let tc = f(e, B::FMul, t, c);
    let one = fc(e, 1.0);
    let den = f(e, B::FAdd, one, tc);
    let u = f(e, B::FDiv, num, den);
    let zero = fc(e, 0.0);
    let k0 = fcmp(e, P::Oeq, kf, zero);
    // c = 0: u is t itself (no division's rounding).
    let u = fsel(e, k0, t, u);
    let u2 = f(e, B::FMul, u, u);
    let coeffs: Vec<f64> = (1..5)
        .map(|i| {
            let v = 1.0 / (2 * i + 1) as f64;
            if i % 2 == 1 {
                -v
            } else {
                v
            }
        })
        .collect();
    let p = poly(e, u2, &coeffs);
    let u3 = f(e, B::FMul, u2, u);
    let tail = f(e, B::FMul, u3, p);
    // atan(k/8) as a pair, by a chain of selects.
    let mut hi = fc(e, 0.0);
    let mut lo = fc(e, 0.0);
    for k in 1..=8 {
        let (h, l) = eft::constant_pair(e, ty, (k as f64 / 8.0).atan());
        let kk = fc(e, k as f64);
        let hit = fcmp(e, P::Oeq, kf, kk);
        let hv = fc(e, h);
        let lv = fc(e, l);
        hi = fsel(e, hit, hv, hi);
        lo = fsel(e, hit, lv, lo);
    }
    let rest = f(e, B::FAdd, tail, lo);
    let rest = f(e, B::FAdd, rest, u);
    eft::fast_two_sum(e, hi, rest)
}

/// atan2(y, x) with C99's special cases, as a pair (the `*pi` forms divide it).
fn atan2(e: &mut E, y: Value, x: Value) -> Pair {
    let ty = ft(e);
    let bt = e.b.l.out.ty(Type::Bool);
    let ax = e.glsl(G::FAbs, ty, vec![x]);
    let ay = e.glsl(G::FAbs, ty, vec![y]);
    let y_le = fcmp(e, P::Ole, ay, ax);
    let lo = e.glsl(G::NMin, ty, vec![ax, ay]);
    let hi = e.glsl(G::NMax, ty, vec![ax, ay]);
    let t = f(e, B::FDiv, lo, hi);
    let a = atan_k(e, t);
    // y > x: π/2 − a (pairs).
    let pio2 = eft::constant_pair(e, ty, FRAC_PI_2);
    let p2 = (fc(e, pio2.0), fc(e, pio2.1));
    let na = (neg(e, a.0), neg(e, a.1));
    let comp = eft::add(e, p2, na);
    let a = (fsel(e, y_le, a.0, comp.0), fsel(e, y_le, a.1, comp.1));
    // Both zero: 0; both infinite: π/4.
    let zf = fc(e, 0.0);
    let inf = fc(e, f64::INFINITY);
    let xz = fcmp(e, P::Oeq, ax, zf);
    let yz = fcmp(e, P::Oeq, ay, zf);
    let both_zero = e.spirv(S::LogicalAnd, bt, vec![xz, yz]);
    let xi = fcmp(e, P::Oeq, ax, inf);
    let yi = fcmp(e, P::Oeq, ay, inf);
    let both_inf = e.spirv(S::LogicalAnd, bt, vec![xi, yi]);
    let a = (fsel(e, both_zero, zf, a.0), fsel(e, both_zero, zf, a.1));
    let pio4 = eft::constant_pair(e, ty, std::f64::consts::FRAC_PI_4);
    let (q0, q1) = (fc(e, pio4.0), fc(e, pio4.1));
    let a = (fsel(e, both_inf, q0, a.0), fsel(e, both_inf, q1, a.1));
    // x negative (−0 too): π − a. Then y's sign.
    let i32t = e.b.l.out.int_type(32);
    let z = ki(e, 0);
    let xb = e.cast(CastOp::Bitcast, i32t, x);
    let x_neg = e.icmp(I::Slt, bt, xb, z);
    let pi = eft::constant_pair(e, ty, PI);
    let pp = (fc(e, pi.0), fc(e, pi.1));
    let na = (neg(e, a.0), neg(e, a.1));
    let flipped = eft::add(e, pp, na);
    let a = (
        fsel(e, x_neg, flipped.0, a.0),
        fsel(e, x_neg, flipped.1, a.1),
    );
    let yb = e.cast(CastOp::Bitcast, i32t, y);
    let y_neg = e.icmp(I::Slt, bt, yb, z);
    let na = (neg(e, a.0), neg(e, a.1));
    let a = (fsel(e, y_neg, na.0, a.0), fsel(e, y_neg, na.1, a.1));
    // NaN in, NaN out.
    let xn = e.spirv(S::IsNan, bt, vec![x]);
    let yn = e.spirv(S::IsNan, bt, vec![y]);
    let nan = e.spirv(S::LogicalOr, bt, vec![xn, yn]);
    let sum = f(e, B::FAdd, x, y);
    (fsel(e, nan, sum, a.0), fsel(e, nan, zf, a.1))
}

/// asin s for 0 ≤ s ≤ ½: s + s³·P(s²) (Taylor's series to s^17) as a pair (s, s³P).
fn asin_k(e: &mut E, s: Value) -> Pair {
    let mut c = Vec::new();
    let mut a = 1.0f64; // (2n)! / (4^n (n!)²)
    for n in 1..9 {
        a *= (2 * n - 1) as f64 / (2 * n) as f64;
        c.push(a / (2 * n + 1) as f64);
    }
    let s2 = f(e, B::FMul, s, s);
    let p = poly(e, s2, &c);
    let s3 = f(e, B::FMul, s2, s);
    let tail = f(e, B::FMul, s3, p);
    eft::fast_two_sum(e, s, tail)
}

/// For |x| > ½: (z, asin √z) with z = (1 − |x|)/2 (exact), √z within an ulp.
fn half_angle(e: &mut E, ax: Value) -> Pair {
    let ty = ft(e);
    let one = fc(e, 1.0);
    let half = fc(e, 0.5);
    let d = f(e, B::FSub, one, ax);
    let z = f(e, B::FMul, d, half);
    let s = super::div_sqrt::sqrt(e, z, ty);
    asin_k(e, s)
}

/// asin x as a pair; NaN beyond ±1.
fn asin(e: &mut E, x: Value) -> Pair {
    let ty = ft(e);
    let ax = e.glsl(G::FAbs, ty, vec![x]);
    let near = asin_k(e, ax);
    // π/2 − 2·asin √((1 − |x|)/2).
    let w = half_angle(e, ax);
    let two = fc(e, 2.0);
    let w2 = (f(e, B::FMul, w.0, two), f(e, B::FMul, w.1, two));
    let pio2 = eft::constant_pair(e, ty, FRAC_PI_2);
    let p2 = (fc(e, pio2.0), fc(e, pio2.1));
    let nw = (neg(e, w2.0), neg(e, w2.1));
    let far = eft::add(e, p2, nw);
    let half = fc(e, 0.5);
    let small = fcmp(e, P::Ole, ax, half);
    let a = (fsel(e, small, near.0, far.0), fsel(e, small, near.1, far.1));
    let a = signed_pair(e, a, x);
    domain(e, x, ax, a)
}

/// acos x as a pair: π/2 − asin x within ½, 2·asin √((1 − x)/2) above, π − that below.
fn acos(e: &mut E, x: Value) -> Pair {
    let ty = ft(e);
    let ax = e.glsl(G::FAbs, ty, vec![x]);
    let near = asin_k(e, ax);
    let near = signed_pair(e, near, x);
    let pio2 = eft::constant_pair(e, ty, FRAC_PI_2);
    let p2 = (fc(e, pio2.0), fc(e, pio2.1));
    let nn = (neg(e, near.0), neg(e, near.1));
    let mid = eft::add(e, p2, nn);
    let w = half_angle(e, ax);
    let two = fc(e, 2.0);
    let w2 = (f(e, B::FMul, w.0, two), f(e, B::FMul, w.1, two));
    let pi = eft::constant_pair(e, ty, PI);
    let pp = (fc(e, pi.0), fc(e, pi.1));
    let nw = (neg(e, w2.0), neg(e, w2.1));
    let below = eft::add(e, pp, nw);
    let zf = fc(e, 0.0);
    let x_neg = fcmp(e, P::Olt, x, zf);
    let far = (fsel(e, x_neg, below.0, w2.0), fsel(e, x_neg, below.1, w2.1));
    let half = fc(e, 0.5);
    let small = fcmp(e, P::Ole, ax, half);
    let a = (fsel(e, small, mid.0, far.0), fsel(e, small, mid.1, far.1));
    domain(e, x, ax, a)
}

/// The pair with x's sign (its sign bit: −0 too).
fn signed_pair(e: &mut E, a: Pair, x: Value) -> Pair {
    let i32t = e.b.l.out.int_type(32);
    let bt = e.b.l.out.ty(Type::Bool);
    let xb = e.cast(CastOp::Bitcast, i32t, x);
    let z = ki(e, 0);
    let x_neg = e.icmp(I::Slt, bt, xb, z);
    let na = (neg(e, a.0), neg(e, a.1));
    (fsel(e, x_neg, na.0, a.0), fsel(e, x_neg, na.1, a.1))
}

/// NaN beyond ±1 and for NaN; asin(±0) = ±0.
fn domain(e: &mut E, x: Value, ax: Value, a: Pair) -> Pair {
    let ty = ft(e);
    let bt = e.b.l.out.ty(Type::Bool);
    let one = fc(e, 1.0);
    let out = fcmp(e, P::Ogt, ax, one);
    let nan = super::div_sqrt::default_nan(e, ty);
    let h = fsel(e, out, nan, a.0);
    let xn = e.spirv(S::IsNan, bt, vec![x]);
    let quiet = f(e, B::FAdd, x, x);
    let h = fsel(e, xn, quiet, h);
    let zf = fc(e, 0.0);
    let l = fsel(e, out, zf, a.1);
    let l = fsel(e, xn, zf, l);
    (h, l)
}
