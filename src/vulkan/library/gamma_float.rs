//! `erf`, `erfc`, `tgamma`, `lgamma` and `lgamma_r` of float, in float (halves computed as
//! floats and rounded once). Within OpenCL's bound of 16 ulp (lgamma has none):
//!
//! * erf x below 1 by its Taylor series to x^23 (terms decreasing, no cancellation).
//! * erfc x from 1 on as e^(−x²)·G(1/x)/x, G(t) = (1/t)·e^(1/t²)·erfc(1/t) fitted on two
//!   intervals of t (fits.rs, scripts/float_fits.py), x² as an exact pair so that e^(−x²)
//!   keeps its precision up to x = 10; erfc below 1 is 1 − erf, below −1 2 − erfc(−x), and
//!   erf above 1 is 1 − erfc.
//! * log Γ for x > 0 as a pair: around 2 by its series in z = x − 2 (fits.rs); below 1.5 as
//!   log Γ(2 + (x − 1)) − log x; up to 10 shifted down to [1.5, 2.5) by log Γ(x) =
//!   log Γ(x − n) + log((x − 1)···(x − n)), the product a pair; from 10 on by Stirling's series
//!   with (x − ½)·log x as a pair. Γ is 2^(log2 e · log Γ) of that pair.
//! * Below 0, the reflection Γ(x)·Γ(1 − x) = π / sin(πx) (sin(πx) from trig_float.rs).

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::diag::{Error, Result};
use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp as B, ConvertKind, FloatPredicate as P, Handle, Op, Sign, Type, Value};

use super::eft::{self, Pair};
use super::exp_log_float::{exp, exp2_pair, log2_pair};
use super::fits::{ERFC_FAR, ERFC_MID, LGAMMA_AT_2};
use super::float_ops::{f, fc, fcmp, fsel, ft, neg, poly};
use super::E;
use crate::vulkan::emit::plain;

use std::f64::consts::{LN_2, LOG2_E, PI};

/// The library's body for `op` of half or float arguments, if it is one of these.
pub(super) fn gamma(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Result<Option<Value>> {
    let f: fn(&mut E, Value) -> (Value, Value) = match op {
        C::erf => |e, x| (erf(e, x), x),
        C::erfc => |e, x| (erfc(e, x), x),
        C::tgamma => |e, x| (tgamma(e, x), x),
        C::lgamma | C::lgamma_r => lgamma,
        _ => return Ok(None),
    };
    let ft = e.b.l.out.ty(Type::Float { width: 32 });
    let lanes = |e: &mut E, sign: bool, t: Handle<Type>| {
        e.lanewise(t, &args[..1], |e, lanes, et| {
            let x = e.fconvert(ft, lanes[0]);
            let (r, s) = f(e, x);
            let v = if sign { s } else { r };
            if matches!(e.b.l.out.types[et], Type::Int { .. }) {
                e.b.push(
                    et,
                    Op::Builtin {
                        builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
                        args: vec![v],
                    },
                )
            } else {
                e.fconvert(et, v)
            }
        })
    };
    let v = lanes(e, false, ret);
    if op == C::lgamma_r {
        // The sign of Γ to *signp (ints of the result's lanes).
        let st =
            e.b.pointee_of(args[1])
                .ok_or_else(|| Error::internal("lgamma_r's sign output is not a pointer"))?;
        let s = lanes(e, true, st);
        e.b.store(args[1], s, None, false)?;
    }
    Ok(Some(v))
}

fn pair_const(e: &mut E, v: f64) -> Pair {
    let t = ft(e);
    let (h, l) = eft::constant_pair(e, t, v);
    (fc(e, h), fc(e, l))
}
fn neg_pair(e: &mut E, p: Pair) -> Pair {
    (neg(e, p.0), neg(e, p.1))
}
fn sel_pair(e: &mut E, c: Value, x: Pair, y: Pair) -> Pair {
    (fsel(e, c, x.0, y.0), fsel(e, c, x.1, y.1))
}

/// erf x for |x| ≤ 1: (2/√π) Σ (−1)^n x^(2n+1) / (n! (2n + 1)), to n = 11.
fn erf_near(e: &mut E, x: Value) -> Value {
    let mut c = Vec::new();
    let mut fact = 1.0f64;
    for n in 0..12 {
        if n > 0 {
            fact *= n as f64;
        }
        let sign = if n % 2 == 0 { 1.0 } else { -1.0 };
        c.push(sign * 2.0 / PI.sqrt() / (fact * (2 * n + 1) as f64));
    }
    let x2 = f(e, B::FMul, x, x);
    let p = poly(e, x2, &c);
    f(e, B::FMul, x, p)
}

/// erfc a for a ≥ 1: e^(−a²)·G(1/a)/a (0 once it underflows).
fn erfc_far(e: &mut E, a: Value) -> Value {
    let one = fc(e, 1.0);
    let t = f(e, B::FDiv, one, a);
    let g = |e: &mut E, fit: &(f64, f64, [f64; 10])| {
        let mid = fc(e, fit.0);
        let inv = fc(e, 1.0 / fit.1);
        let u = f(e, B::FSub, t, mid);
        let u = f(e, B::FMul, u, inv);
        poly(e, u, &fit.2)
    };
    let far = g(e, &ERFC_FAR);
    let mid = g(e, &ERFC_MID);
    let half = fc(e, 0.5);
    let is_far = fcmp(e, P::Ole, t, half);
    let gv = fsel(e, is_far, far, mid);
    // e^(−a²) with a² = s + l exactly: e^(−s)·(1 − l). Beyond 11 it is 0 (and a² large).
    let eleven = fc(e, 11.0);
    let ty = ft(e);
    let ac = e.glsl(G::NMin, ty, vec![a, eleven]);
    let (s, l) = eft::two_prod(e, ac, ac);
    let ns = neg(e, s);
    let ex = exp(e, ns);
    let ml = f(e, B::FSub, one, l);
    let ex = f(e, B::FMul, ex, ml);
    let r = f(e, B::FMul, ex, gv);
    let r = f(e, B::FMul, r, t);
    let zero = fc(e, 0.0);
    let gone = fcmp(e, P::Oge, a, eleven);
    fsel(e, gone, zero, r)
}

fn erf(e: &mut E, x: Value) -> Value {
    let t = ft(e);
    let ax = e.glsl(G::FAbs, t, vec![x]);
    let near = erf_near(e, x);
    let c = erfc_far(e, ax);
    let one = fc(e, 1.0);
    let far = f(e, B::FSub, one, c);
    let far = super::copysign(e, t, far, x);
    let small = fcmp(e, P::Ole, ax, one);
    let r = fsel(e, small, near, far);
    // ±∞ give ±1 (far already); NaN stays NaN.
    let bt = e.b.l.out.ty(Type::Bool);
    let nan = e.spirv(S::IsNan, bt, vec![x]);
    let quiet = f(e, B::FAdd, x, x);
    fsel(e, nan, quiet, r)
}

fn erfc(e: &mut E, x: Value) -> Value {
    let t = ft(e);
    let ax = e.glsl(G::FAbs, t, vec![x]);
    let one = fc(e, 1.0);
    let two = fc(e, 2.0);
    let en = erf_near(e, x);
    let near = f(e, B::FSub, one, en);
    let c = erfc_far(e, ax);
    let zero = fc(e, 0.0);
    let x_neg = fcmp(e, P::Olt, x, zero);
    let c_neg = f(e, B::FSub, two, c);
    let far = fsel(e, x_neg, c_neg, c);
    let small = fcmp(e, P::Ole, ax, one);
    let r = fsel(e, small, near, far);
    let bt = e.b.l.out.ty(Type::Bool);
    let nan = e.spirv(S::IsNan, bt, vec![x]);
    let quiet = f(e, B::FAdd, x, x);
    fsel(e, nan, quiet, r)
}

/// log x as a pair (log2 x as a pair times ln 2).
fn ln_pair(e: &mut E, x: Value) -> Pair {
    let t = ft(e);
    let l2 = log2_pair(e, x);
    let ln2 = eft::constant_pair(e, t, LN_2);
    eft::mul_const(e, l2, ln2)
}

/// (hi, lo) · f for a float f.
fn mul_pair(e: &mut E, p: Pair, x: Value) -> Pair {
    let (h, l) = eft::two_prod(e, p.0, x);
    let pl = f(e, B::FMul, p.1, x);
    let l = f(e, B::FAdd, l, pl);
    eft::fast_two_sum(e, h, l)
}

/// log Γ(2 + z) for |z| ≤ ½ and z = z_hi + z_lo: the series at z_hi plus c_1·z_lo.
fn lgamma_at_2(e: &mut E, z: Pair) -> Value {
    let s = poly(e, z.0, &LGAMMA_AT_2);
    let s = f(e, B::FMul, s, z.0);
    let c1 = fc(e, LGAMMA_AT_2[0]);
    let d = f(e, B::FMul, c1, z.1);
    f(e, B::FAdd, s, d)
}

/// log Γ(x) for x > 0 as a pair (inf beyond the floats).
fn lgamma_pos(e: &mut E, x: Value) -> Pair {
    let zero = fc(e, 0.0);
    let one = fc(e, 1.0);
    let two = fc(e, 2.0);
    // Below 1.5: log Γ(2 + (x − 1)) − log x.
    let m1 = neg(e, one);
    let z1 = eft::two_sum(e, x, m1);
    let s1 = lgamma_at_2(e, z1);
    let lx = ln_pair(e, x);
    let nlx = neg_pair(e, lx);
    let low = eft::add(e, (s1, zero), nlx);
    // [1.5, 2.5]: the series at x − 2.
    let z2 = f(e, B::FSub, x, two);
    let s2 = lgamma_at_2(e, (z2, zero));
    let mid = (s2, zero);
    // (2.5, 10): n = floor(x − 1.5) steps down, the product (x − 1)···(x − n) as a pair.
    let k15 = fc(e, 1.5);
    let xm = f(e, B::FSub, x, k15);
    let ty = ft(e);
    let n = e.glsl(G::Floor, ty, vec![xm]);
    let mut prod = (one, zero);
    for i in 1..=8 {
        let fi = fc(e, i as f64);
        let factor = f(e, B::FSub, x, fi);
        let used = fcmp(e, P::Ole, fi, n);
        let factor = fsel(e, used, factor, one);
        prod = mul_pair(e, prod, factor);
    }
    let y = f(e, B::FSub, x, n);
    let z3 = f(e, B::FSub, y, two);
    let s3 = lgamma_at_2(e, (z3, zero));
    let lp = ln_pair(e, prod.0);
    let corr = f(e, B::FDiv, prod.1, prod.0);
    let lp = eft::add(e, lp, (corr, zero));
    let shifted = eft::add(e, (s3, zero), lp);
    // From 10: (x − ½)·log x − x + ½·log 2π + 1/(12x) − 1/(360x³) + 1/(1260x⁵) − 1/(1680x⁷).
    let half = fc(e, 0.5);
    let xh = f(e, B::FSub, x, half);
    let big_lim = fc(e, 2f64.powi(100));
    let xs = e.glsl(G::NMin, ty, vec![x, big_lim]);
    let xhs = e.glsl(G::NMin, ty, vec![xh, big_lim]);
    let lxs = ln_pair(e, xs);
    let a = mul_pair(e, lxs, xhs);
    let nx = neg(e, xs);
    let a = eft::add(e, a, (nx, zero));
    let c = pair_const(e, 0.5 * (2.0 * PI).ln());
    let a = eft::add(e, a, c);
    let inv = f(e, B::FDiv, one, xs);
    let inv2 = f(e, B::FMul, inv, inv);
    let st = poly(
        e,
        inv2,
        &[1.0 / 12.0, -1.0 / 360.0, 1.0 / 1260.0, -1.0 / 1680.0],
    );
    let st = f(e, B::FMul, st, inv);
    let stirling = eft::add(e, a, (st, zero));
    // Beyond 2^100 in plain floats: x·(log x − 1), infinite from about 4·10^36.
    let lg = super::exp_log_float::math(e, C::log, &[x]).unwrap_or(x);
    let lg1 = f(e, B::FSub, lg, one);
    let huge_v = f(e, B::FMul, x, lg1);
    let huge = fcmp(e, P::Ogt, x, big_lim);
    let k10 = fc(e, 10.0);
    let k25 = fc(e, 2.5);
    let below15 = fcmp(e, P::Olt, x, k15);
    let upto25 = fcmp(e, P::Ole, x, k25);
    let below10 = fcmp(e, P::Olt, x, k10);
    let r = sel_pair(e, below10, shifted, stirling);
    let r = sel_pair(e, upto25, mid, r);
    let r = sel_pair(e, below15, low, r);
    sel_pair(e, huge, (huge_v, zero), r)
}

/// (log |Γ(x)|, the sign of Γ(x) as ±1).
fn lgamma(e: &mut E, x: Value) -> (Value, Value) {
    let t = ft(e);
    let one = fc(e, 1.0);
    let ax = e.glsl(G::FAbs, t, vec![x]);
    let pos = lgamma_pos(e, ax);
    // Below 0: log(π / |sin πx|) − log Γ(1 − x).
    let omx = f(e, B::FSub, one, x);
    let lg1 = lgamma_pos(e, omx);
    let s = super::trig_float::sinpi(e, x);
    let as_ = e.glsl(G::FAbs, t, vec![s]);
    let pi = fc(e, PI);
    let q = f(e, B::FDiv, pi, as_);
    let lq = super::exp_log_float::math(e, C::log, &[q]).unwrap_or(q);
    let refl = f(e, B::FSub, lq, lg1.0);
    let zero = fc(e, 0.0);
    let low = fcmp(e, P::Olt, x, zero);
    // Above −2^-24, log Γ(|x|) (−log|x| to within 2γ|x|, far below its ulp): π / sin πx
    // would overflow there.
    let tiny = fc(e, -(2f64.powi(-24)));
    let reflect = fcmp(e, P::Olt, x, tiny);
    let r = fsel(e, reflect, refl, pos.0);
    super::specials::lgamma_ends(e, x, r, s, low)
}

fn tgamma(e: &mut E, x: Value) -> Value {
    let t = ft(e);
    let one = fc(e, 1.0);
    let zero = fc(e, 0.0);
    // Γ(x) = 2^(log2 e · log Γ(x)) for x > 0 (infinite beyond 35.05).
    let cap = fc(e, 36.0);
    let xc = e.glsl(G::NMin, t, vec![x, cap]);
    let tiny = fc(e, f64::MIN_POSITIVE);
    let xc = e.glsl(G::NMax, t, vec![xc, tiny]);
    let lg = lgamma_pos(e, xc);
    let log2e = eft::constant_pair(e, t, LOG2_E);
    let l2 = eft::mul_const(e, lg, log2e);
    let pos = exp2_pair(e, l2);
    // Below 0: π / (sin(πx)·Γ(1 − x)).
    let omx = f(e, B::FSub, one, x);
    let omx = e.glsl(G::NMin, t, vec![omx, cap]);
    let lg1 = lgamma_pos(e, omx);
    let l21 = eft::mul_const(e, lg1, log2e);
    let g1 = exp2_pair(e, l21);
    let s = super::trig_float::sinpi(e, x);
    let den = f(e, B::FMul, s, g1);
    let pi = fc(e, PI);
    let refl = f(e, B::FDiv, pi, den);
    let low = fcmp(e, P::Olt, x, zero);
    let r = fsel(e, low, refl, pos);
    super::specials::tgamma_ends(e, x, r)
}
