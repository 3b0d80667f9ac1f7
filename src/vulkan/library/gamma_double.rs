//! `tgamma`, `lgamma` and `lgamma_r` of double (OpenCL: tgamma within 16 ulp, lgamma
//! unbounded):
//!
//! * log Γ(z) for z ≥ 10 by Stirling's series in double-double: (z − ½) log z − z + ½ log 2π
//!   + Σ B₂ₖ / (2k (2k − 1) z^(2k−1)), twelve terms (the last is below 2·10^-21 at z = 10).
//! * Below 10, z = x + n with n = ⌈10 − x⌉ and Γ(x) = Γ(z) / (x (x + 1) … (x + n − 1)), the
//!   product in double-double; Γ is e^(log Γ(z)) divided by it, log Γ the logarithm's
//!   difference.
//! * Negative x by reflection: Γ(x) = π / (sin(πx) Γ(1 − x)), log |Γ(x)| = log π −
//!   log |sin(πx)| − log Γ(1 − x), with `sinpi`'s exact reduction.
//! * Poles, infinities and NaN as C99 says (tgamma: ±0 → ±∞, negative integers and −∞ →
//!   NaN; lgamma: non-positive integers and ±∞ → +∞; `lgamma_r`'s sign is +1 there).

use crate::ir::GlslOp as G;

use crate::diag::{Error, Result};
use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp as B, FloatPredicate as P, Value};

use super::double::{add, exp_dd, log_dd, mul_dd_dd, neg, two_sum, Dd};
use super::E;

const HALF_LN_2PI: (f64, f64) = (0.918_938_533_204_672_8, -3.878_294_158_067_241_4e-17);
const LN_PI: (f64, f64) = (1.144_729_885_849_400_2, 1.026_595_116_270_782_6e-17);
/// B₂ₖ / (2k (2k − 1)), k = 1…12.
const STIRLING: [f64; 12] = [
    0.083_333_333_333_333_33,
    -0.002_777_777_777_777_778,
    0.000_793_650_793_650_793_7,
    -0.000_595_238_095_238_095_3,
    0.000_841_750_841_750_841_7,
    -0.001_917_526_917_526_917_6,
    0.006_410_256_410_256_41,
    -0.029_550_653_594_771_242,
    0.179_644_372_368_830_57,
    -1.392_432_216_905_901_1,
    13.402_864_044_168_393,
    -156.848_284_626_002,
];
/// Where Stirling's series starts.
const SHIFT: f64 = 10.0;

/// log Γ(z) in double-double for z ≥ 10 (a double-double z, its low part below z's ulp).
fn stirling(e: &mut E, z: Dd) -> Dd {
    let half = e.dconst(-0.5);
    let zero = e.dconst(0.0);
    let zh = two_sum(e, z.0, half);
    let zh = add(e, zh, (z.1, zero));
    let lz = log_dd(e, z.0);
    // log(z.0 + z.1) = log z.0 + z.1 / z.0.
    let corr = e.dbin(B::FDiv, z.1, z.0);
    let lz = add(e, lz, (corr, zero));
    let p = mul_dd_dd(e, zh, lz);
    let nz = (neg(e, z.0), neg(e, z.1));
    let p = add(e, p, nz);
    let k = (e.dconst(HALF_LN_2PI.0), e.dconst(HALF_LN_2PI.1));
    let p = add(e, p, k);
    let one = e.dconst(1.0);
    let w = e.dbin(B::FDiv, one, z.0);
    let w2 = e.dbin(B::FMul, w, w);
    let s = e.poly(w2, &STIRLING);
    let s = e.dbin(B::FMul, w, s);
    add(e, p, (s, zero))
}

/// For a positive double-double x: z = x + n ≥ 10 and the product x (x + 1) … (x + n − 1),
/// both in double-double (the product 1 where x ≥ 10).
fn shifted(e: &mut E, x: Dd) -> (Dd, Dd) {
    let zero = e.dconst(0.0);
    let one = e.dconst(1.0);
    let mut z = x;
    let mut prod = (one, zero);
    for _ in 0..SHIFT as u32 {
        let ten = e.dconst(SHIFT);
        let low = e.dcmp(P::Olt, z.0, ten);
        let times = mul_dd_dd(e, prod, z);
        let next = {
            let s = two_sum(e, z.0, one);
            add(e, s, (z.1, zero))
        };
        prod = (e.dsel(low, times.0, prod.0), e.dsel(low, times.1, prod.1));
        z = (e.dsel(low, next.0, z.0), e.dsel(low, next.1, z.1));
    }
    (z, prod)
}

/// log Γ(x) in double-double for a positive finite double-double x.
fn lgamma_pos(e: &mut E, x: Dd) -> Dd {
    let (z, prod) = shifted(e, x);
    let lg = stirling(e, z);
    let lp = log_dd(e, prod.0);
    let corr = e.dbin(B::FDiv, prod.1, prod.0);
    let zero = e.dconst(0.0);
    let lp = add(e, lp, (corr, zero));
    let nlp = (neg(e, lp.0), neg(e, lp.1));
    add(e, lg, nlp)
}

/// 1 − x exactly, for x < 0 (clamped to [1, `cap`], where the reflection uses it; other
/// lanes select another branch).
fn one_minus(e: &mut E, x: Value, cap: f64) -> Dd {
    let dt = e.dt();
    let one = e.dconst(1.0);
    let cap = e.dconst(cap);
    let nx = neg(e, x);
    let (h, l) = two_sum(e, one, nx);
    let hc = e.glsl(G::FClamp, dt, vec![h, one, cap]);
    let same = e.dcmp(P::Oeq, hc, h);
    let zero = e.dconst(0.0);
    (hc, e.dsel(same, l, zero))
}

/// sin(πx) of a double lane.
fn sinpi(e: &mut E, x: Value) -> Result<Value> {
    let dt = e.dt();
    super::trig_double::trig(e, C::sinpi, &[x], dt)?
        .ok_or_else(|| Error::internal("sinpi of double has no body"))
}

/// (log |Γ(x)|, the sign of Γ(x) as ±1.0) of a double lane.
pub(super) fn lgamma(e: &mut E, x: Value) -> Result<(Value, Value)> {
    let zero = e.dconst(0.0);
    let one = e.dconst(1.0);
    let ax = e.dglsl(G::FAbs, x);
    let neg_x = e.dcmp(P::Olt, x, zero);
    // Each branch on an argument it can take (the other lanes' results are selected away).
    let big = e.dconst(f64::MAX);
    let tiny = e.dconst(f64::MIN_POSITIVE * 0.5);
    let dt = e.dt();
    let xp = e.glsl(G::FClamp, dt, vec![ax, tiny, big]);
    let pos = lgamma_pos(e, (xp, zero));
    let omx = one_minus(e, x, f64::MAX);
    let lg1 = lgamma_pos(e, omx);
    let s = sinpi(e, x)?;
    let as_ = e.dglsl(G::FAbs, s);
    let as_ = e.glsl(G::FMax, dt, vec![as_, tiny]);
    let ls = log_dd(e, as_);
    let lpi = (e.dconst(LN_PI.0), e.dconst(LN_PI.1));
    let nls = (neg(e, ls.0), neg(e, ls.1));
    let refl = add(e, lpi, nls);
    let nlg1 = (neg(e, lg1.0), neg(e, lg1.1));
    let refl = add(e, refl, nlg1);
    let r_pos = e.dbin(B::FAdd, pos.0, pos.1);
    // Huge x: x (log x − 1), whose overflow past 2.55·10^305 is lgamma's (the double-double
    // products would make NaN of it).
    let r_huge = {
        let l = log_dd(e, xp);
        let lm = e.dbin(B::FSub, l.0, one);
        e.dbin(B::FMul, xp, lm)
    };
    let huge_k = e.dconst(1e17);
    let huge = e.dcmp(P::Ogt, x, huge_k);
    let r_pos = e.dsel(huge, r_huge, r_pos);
    let r_neg = e.dbin(B::FAdd, refl.0, refl.1);
    let r = e.dsel(neg_x, r_neg, r_pos);
    // Near 0, log |Γ(x)| = −log |x| − γx + O(x²): below 2^-56 the first term alone (the
    // clamp above cannot take the subnormals).
    let small_k = e.dconst(2f64.powi(-56));
    let small = e.dcmp(P::Olt, ax, small_k);
    let l = super::double::log(e, ax, None);
    let nl = neg(e, l);
    let r = e.dsel(small, nl, r);
    // lgamma(1) and lgamma(2) are +0 (C99 F.9.5.3), which the series comes near only.
    let two = e.dconst(2.0);
    let is_one = e.dcmp(P::Oeq, x, one);
    let is_two = e.dcmp(P::Oeq, x, two);
    let exact = e.or(is_one, is_two);
    let r = e.dsel(exact, zero, r);
    Ok(super::specials::lgamma_ends(e, x, r, s, neg_x))
}

/// Γ(x) of a double lane.
pub(super) fn tgamma(e: &mut E, x: Value) -> Result<Value> {
    let zero = e.dconst(0.0);
    let one = e.dconst(1.0);
    let dt = e.dt();
    // Beyond 171.62 Γ overflows; the argument is clamped so that the series stays finite.
    let cap = e.dconst(172.0);
    let tiny = e.dconst(f64::MIN_POSITIVE * 0.5);
    let gamma_pos = |e: &mut E, v: Dd| -> Value {
        let (z, prod) = shifted(e, v);
        let lg = stirling(e, z);
        let g = exp_dd(e, lg);
        // g / (prod.0 + prod.1) = g / prod.0 · (1 − prod.1 / prod.0).
        let q = e.dbin(B::FDiv, g, prod.0);
        let c = e.dbin(B::FDiv, prod.1, prod.0);
        let qc = e.dbin(B::FMul, q, c);
        e.dbin(B::FSub, q, qc)
    };
    let xp = e.glsl(G::FClamp, dt, vec![x, tiny, cap]);
    let pos = gamma_pos(e, (xp, zero));
    let omx = one_minus(e, x, 172.0);
    let g1 = gamma_pos(e, omx);
    let s = sinpi(e, x)?;
    let den = e.dbin(B::FMul, s, g1);
    let pi = e.dconst(std::f64::consts::PI);
    let refl = e.dbin(B::FDiv, pi, den);
    // Γ(1 − x) past 171.62: the quotient is a zero of sin(πx)'s sign.
    let huge = e.dbin(B::FSub, one, x);
    let over = e.dcmp(P::Ogt, huge, cap);
    let signed_zero = e.dglsl(G::FSign, s);
    let signed_zero = e.dbin(B::FMul, signed_zero, zero);
    let refl = e.dsel(over, signed_zero, refl);
    let neg_x = e.dcmp(P::Olt, x, zero);
    let r = e.dsel(neg_x, refl, pos);
    let inf = e.dconst(f64::INFINITY);
    let too_big = e.dcmp(P::Ogt, x, cap);
    let r = e.dsel(too_big, inf, r);
    // Near 0, Γ(x) = 1/x − γ + O(x): below 2^-56, 1/x alone is within 2^-55 relative (and
    // overflows, as Γ does, for the subnormals the clamp above cannot take).
    let ax = e.dglsl(G::FAbs, x);
    let small_k = e.dconst(2f64.powi(-56));
    let small = e.dcmp(P::Olt, ax, small_k);
    let recip = e.dbin(B::FDiv, one, x);
    let r = e.dsel(small, recip, r);
    Ok(super::specials::tgamma_ends(e, x, r))
}

/// The library's body for the gamma functions of double `op`, lane by lane; `lgamma_r`
/// stores its sign through `args[1]`.
pub(super) fn gamma(e: &mut E, op: C, x: Value) -> Result<(Value, Option<Value>)> {
    Ok(match op {
        C::tgamma => (tgamma(e, x)?, None),
        _ => {
            let (r, s) = lgamma(e, x)?;
            (r, Some(s))
        }
    })
}
