//! The trigonometric functions of float, in float (halves computed as floats and rounded
//! once): no Float64 for a kernel without double. Within OpenCL's float bounds (4 ulp for
//! sin, cos, sinpi, cospi; 5 for tan; 6 for tanpi); their inverses are
//! inverse_trig_float.rs's:
//!
//! * Reduction of x to q·π/2 + r, |r| ≤ π/4: below 2^13, Cody–Waite with π/2 in five parts,
//!   four of them exact times the quotient (r within an ulp even where x is closest to a
//!   multiple of π/2); above, in a branch of its own, Payne–Hanek on the float's 24-bit
//!   significand and five 24-bit words of 2/π chosen by its exponent, each product an exact
//!   48-bit integer split at the binary point into quadrant bits and a fraction, the
//!   fractions summed as a pair of floats (eft.rs).
//! * sin r and cos r by their Taylor series (to r^9 and r^10, the truncation below 2^-28),
//!   with r's low part as its first-order term; tan as their quotient.
//! * The `*pi` forms reduce exactly: 2x's nearest integer k, (x − k/2)·π as a pair.

use crate::ir::GlslOp as G;

use crate::diag::Result;
use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp as B, CastOp, ConstantKind, ConvertKind, FloatPredicate as P};
use crate::ir::{Handle, IntPredicate as I, Op, Sign, Type, Value};

use super::eft::{self, Pair};
use super::float_ops::{f, fc, fcmp, fsel, ft, ki, neg, poly, to_int, zero_keeps, zero_signed_as};
use super::specials::not_finite_nan;
use super::E;
use crate::vulkan::emit::plain;

use std::f64::consts::{FRAC_PI_2, PI};

/// π/2 in hexadecimal, its first 200 bits (mpmath).
const PIO2_HEX: &str = "1921FB54442D18469898CC51701B839A252049C1114CF98E804";
/// 2/π in 24-bit words, most significant first.
const TWO_OVER_PI: [u64; 10] = [
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163,
    0xABDEBB,
];
/// Below this, Cody–Waite (the quotient has at most 13 bits).
const CODY_WAITE_LIMIT: f64 = 8192.0;

/// π/2 in Cody–Waite's parts: four of 11 significant bits (exact times a 13-bit quotient),
/// each the leading bits of what the ones before leave, then 24 bits, from `PIO2_HEX`.
fn pio2_parts() -> Vec<f64> {
    let bits: Vec<u8> = PIO2_HEX
        .chars()
        .flat_map(|c| {
            let d = c.to_digit(16).unwrap_or(0) as u8;
            (0..4).rev().map(move |i| (d >> i) & 1)
        })
        .collect();
    // Bit i has the value 2^(3 − i) ("1" is the hex digit 0001).
    let mut at = 0;
    let mut parts = Vec::new();
    for width in [11, 11, 11, 11, 24] {
        while bits[at] == 0 {
            at += 1;
        }
        let v = bits[at..at + width]
            .iter()
            .fold(0u64, |a, &b| (a << 1) | u64::from(b));
        parts.push(v as f64 * 2f64.powi(3 - (at + width - 1) as i32));
        at += width;
    }
    parts
}

/// The library's body for `op` of half or float arguments, if it is a trigonometric one.
pub(super) fn trig(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Result<Option<Value>> {
    if !matches!(
        op,
        C::sin
            | C::cos
            | C::tan
            | C::sincos
            | C::sinpi
            | C::cospi
            | C::tanpi
            | C::atan
            | C::atan2
            | C::asin
            | C::acos
            | C::atanpi
            | C::atan2pi
            | C::asinpi
            | C::acospi
    ) {
        return Ok(None);
    }
    let ft = e.b.l.out.ty(Type::Float { width: 32 });
    let value_args = if op == C::sincos { &args[..1] } else { args };
    // A lane's reduction can fail to build (as any store can): the first failure is kept.
    let failed = std::cell::RefCell::new(None);
    let cosines = std::cell::RefCell::new(Vec::new());
    let v = e.lanewise(ret, value_args, |e, lanes, et| {
        let wide: Vec<Value> = lanes.iter().map(|&v| e.fconvert(ft, v)).collect();
        match lane(e, op, &wide) {
            Ok((v, c)) => {
                if let Some(c) = c {
                    let c = e.fconvert(et, c);
                    cosines.borrow_mut().push(c);
                }
                e.fconvert(et, v)
            }
            Err(err) => {
                failed.borrow_mut().get_or_insert(err);
                wide[0]
            }
        }
    });
    if let Some(err) = failed.into_inner() {
        return Err(err);
    }
    if op == C::sincos {
        // One reduction serves both: the cosines are stored where the call says.
        let c = e.compose(ret, cosines.into_inner());
        e.b.store(args[1], c, None, false)?;
    }
    Ok(Some(v))
}

/// One lane of `op` (and sincos's cosine).
fn lane(e: &mut E, op: C, a: &[Value]) -> Result<(Value, Option<Value>)> {
    let x = a[0];
    Ok(match op {
        C::sin | C::cos | C::tan | C::sincos => {
            let (r, q) = reduce(e, x)?;
            match op {
                C::sin => (quadrant(e, x, r, q, 0), None),
                C::cos => (quadrant(e, x, r, q, 1), None),
                C::tan => {
                    let t = tan_of(e, x, r, q);
                    (zero_keeps(e, x, t), None)
                }
                _ => (quadrant(e, x, r, q, 0), Some(quadrant(e, x, r, q, 1))),
            }
        }
        C::sinpi | C::cospi | C::tanpi => {
            let (r, q) = reduce_pi(e, x);
            match op {
                C::sinpi => (sinpi(e, x), None),
                C::cospi => {
                    // cospi(n + ½) is +0 (OpenCL C 7.5.1), whichever side the sum lands.
                    let c = quadrant(e, x, r, q, 1);
                    let zero = fc(e, 0.0);
                    (zero_signed_as(e, c, zero), None)
                }
                _ => {
                    let t = tan_of(e, x, r, q);
                    (super::specials::tanpi_exact(e, x, q, t), None)
                }
            }
        }
        _ => (super::inverse_trig_float::lane(e, op, a), None),
    })
}

/// x = q·π/2 + r, |r| ≤ π/4 (a hair more at worst), r as a pair; q modulo 4 matters.
/// Below 2^13, Cody–Waite: each product of the quotient and a part of π/2 is exact and each
/// difference either exact (the two within a factor of two) or of r's own size, so r is
/// within an ulp (the closest a float below 2^13 comes to a multiple of π/2 is 2^-27.8, the
/// parts leave 2^-55 unaccounted). Above, Payne–Hanek, in a branch of its own: only the
/// work-items that need it pay for it.
fn reduce(e: &mut E, x: Value) -> Result<(Pair, Value)> {
    use crate::ir::{BlockId, Terminator};
    let it = e.b.l.out.int_type(32);
    let ty = ft(e);
    let two_over_pi = fc(e, 2.0 / PI);
    let t = f(e, B::FMul, x, two_over_pi);
    let k = e.glsl(G::RoundEven, ty, vec![t]);
    let mut r = x;
    for p in pio2_parts() {
        let p = fc(e, p);
        let kp = f(e, B::FMul, k, p);
        r = f(e, B::FSub, r, kp);
    }
    let q = to_int(e, k);
    let zero = fc(e, 0.0);
    // Large arguments: Payne–Hanek's results replace these.
    let (rv, lv, qv) = (e.b.alloca(ty), e.b.alloca(ty), e.b.alloca(it));
    e.b.store(rv, r, None, false)?;
    e.b.store(lv, zero, None, false)?;
    e.b.store(qv, q, None, false)?;
    let ax = e.glsl(G::FAbs, ty, vec![x]);
    let lim = fc(e, CODY_WAITE_LIMIT);
    let big = fcmp(e, P::Oge, ax, lim);
    let far = e.b.new_block(Some("reduce.large".into()));
    let join = e.b.new_block(Some("reduce.done".into()));
    e.b.terminate(Terminator::CondBranch {
        cond: big,
        on_true: BlockId(far as u32),
        on_false: BlockId(join as u32),
    });
    e.b.cur = far;
    let (big_r, big_q) = payne_hanek(e, x);
    e.b.store(rv, big_r.0, None, false)?;
    e.b.store(lv, big_r.1, None, false)?;
    e.b.store(qv, big_q, None, false)?;
    e.b.terminate(Terminator::Branch(BlockId(join as u32)));
    e.b.cur = join;
    let r = (e.b.load(rv, None, false)?, e.b.load(lv, None, false)?);
    Ok((r, e.b.load(qv, None, false)?))
}

/// Payne–Hanek reduction of a float of magnitude at least 2^13: r as a pair, q.
fn payne_hanek(e: &mut E, x: Value) -> (Pair, Value) {
    let i32t = e.b.l.out.int_type(32);
    let u64t = e.b.l.out.int_type(64);
    let bt = e.b.l.out.ty(Type::Bool);
    let t = ft(e);
    let k64 = |e: &mut E, v: u64| e.splat(u64t, ConstantKind::Int(v));
    // |x| = M · 2^E with M the 24-bit significand (x is normal here).
    let bits = e.cast(CastOp::Bitcast, i32t, x);
    let c23 = ki(e, 23);
    let ex = e.bin(B::LShr, i32t, bits, c23);
    let c255 = ki(e, 255);
    let ex = e.bin(B::And, i32t, ex, c255);
    let mmask = ki(e, (1 << 23) - 1);
    let lead = ki(e, 1 << 23);
    let m = e.bin(B::And, i32t, bits, mmask);
    let m = e.bin(B::Or, i32t, m, lead);
    let m = e.cast(CastOp::ZExt, u64t, m);
    // E = (exponent − 127) − 23.
    let bias = ki(e, 127 + 23);
    let big_e = e.bin(B::Sub, i32t, ex, bias);
    // The first word whose product reaches below 2^2: j0 = max(0, (E + 22) / 24 − 1).
    let c22 = ki(e, 22);
    let c24 = ki(e, 24);
    let one = ki(e, 1);
    let zero = ki(e, 0);
    let j0 = e.bin(B::Add, i32t, big_e, c22);
    let j0 = e.bin(B::SDiv, i32t, j0, c24);
    let j0 = e.bin(B::Sub, i32t, j0, one);
    let j0 = e.glsl(G::SMax, i32t, vec![j0, zero]);
    let mut q = zero;
    let mut acc = (fc(e, 0.0), fc(e, 0.0));
    let three = k64(e, 3);
    let c64 = ki(e, 64);
    let two24 = fc(e, 16_777_216.0);
    for word in 0..5 {
        let tt = ki(e, word);
        let j = e.bin(B::Add, i32t, j0, tt);
        // The word j of 2/π, by a chain of selects.
        let mut w = k64(e, 0);
        for (i, &c) in TWO_OVER_PI.iter().enumerate() {
            let ii = ki(e, i as i64);
            let hit = e.icmp(I::Eq, bt, j, ii);
            let cv = k64(e, c);
            w = e.select(u64t, hit, cv, w);
        }
        let p = e.bin(B::Mul, u64t, m, w); // < 2^48, exact
                                           // Its scale: s = E − 24 (j + 1).
        let j1 = e.bin(B::Add, i32t, j, one);
        let j24 = e.bin(B::Mul, i32t, j1, c24);
        let s = e.bin(B::Sub, i32t, big_e, j24);
        // s ≥ 0 (only 0 or 1 here): quadrant bits (p << s) & 3, no fraction.
        let s_nonneg = e.icmp(I::Sge, bt, s, zero);
        let s_pos = e.glsl(G::SMax, i32t, vec![s, zero]);
        let s_pos64 = e.cast(CastOp::ZExt, u64t, s_pos);
        let shl = e.bin(B::Shl, u64t, p, s_pos64);
        let int_hi = e.bin(B::And, u64t, shl, three);
        // s < 0: quadrant bits (p >> −s) & 3 and the fraction (p mod 2^−s) · 2^s.
        let ns = e.bin(B::Sub, i32t, zero, s);
        let ns = e.glsl(G::SMax, i32t, vec![ns, zero]);
        let wide = e.icmp(I::Sge, bt, ns, c64);
        let c63 = ki(e, 63);
        let ns_c = e.glsl(G::SMin, i32t, vec![ns, c63]);
        let ns64 = e.cast(CastOp::ZExt, u64t, ns_c);
        let shr = e.bin(B::LShr, u64t, p, ns64);
        let z64 = k64(e, 0);
        let shr = e.select(u64t, wide, z64, shr);
        let int_lo = e.bin(B::And, u64t, shr, three);
        let one64 = k64(e, 1);
        let unit = e.bin(B::Shl, u64t, one64, ns64);
        let fmask = e.bin(B::Sub, u64t, unit, one64);
        let all = k64(e, u64::MAX);
        let fmask = e.select(u64t, wide, all, fmask);
        let fr = e.bin(B::And, u64t, p, fmask);
        // The fraction (< 2^48) as two floats of 24 bits each, exact, then scaled by 2^s.
        let c24_64 = k64(e, 24);
        let fr_hi = e.bin(B::LShr, u64t, fr, c24_64);
        let mask24 = k64(e, (1 << 24) - 1);
        let fr_lo = e.bin(B::And, u64t, fr, mask24);
        let to_f = |e: &mut E, v: Value| {
            e.b.push(
                t,
                Op::Builtin {
                    builtin: plain(ConvertKind::Int(Sign::Unsigned), ConvertKind::Float),
                    args: vec![v],
                },
            )
        };
        let fh = to_f(e, fr_hi);
        let fl = to_f(e, fr_lo);
        let fh = f(e, B::FMul, fh, two24);
        let scale = pow2_scaled(e, s);
        let fh = f(e, B::FMul, fh, scale);
        let fl = f(e, B::FMul, fl, scale);
        let zf = fc(e, 0.0);
        let fh = fsel(e, s_nonneg, zf, fh);
        let fl = fsel(e, s_nonneg, zf, fl);
        let int = e.select(u64t, s_nonneg, int_hi, int_lo);
        let int = e.cast(CastOp::Trunc, i32t, int);
        q = e.bin(B::Add, i32t, q, int);
        acc = eft::add(e, acc, (fh, fl));
    }
    // To the nearest quadrant: the fraction left in [-½, ½], times π/2 (as pairs).
    let n = e.glsl(G::RoundEven, t, vec![acc.0]);
    let fh = f(e, B::FSub, acc.0, n);
    let fr = eft::fast_two_sum(e, fh, acc.1);
    let pio2 = eft::constant_pair(e, t, FRAC_PI_2);
    let r = eft::mul_const(e, fr, pio2);
    let ni = to_int(e, n);
    let q = e.bin(B::Add, i32t, q, ni);
    // The sign of x.
    let zf = fc(e, 0.0);
    let is_neg = fcmp(e, P::Olt, x, zf);
    let nr0 = neg(e, r.0);
    let nr1 = neg(e, r.1);
    let r = (fsel(e, is_neg, nr0, r.0), fsel(e, is_neg, nr1, r.1));
    let nq = e.bin(B::Sub, i32t, zero, q);
    let q = e.select(i32t, is_neg, nq, q);
    (r, q)
}

/// 2^s as a float for an integer s in [-200, 0] (in two factors: 2^s may be subnormal or
/// below the floats; the fraction scaled by it is not).
fn pow2_scaled(e: &mut E, s: Value) -> Value {
    let i32t = e.b.l.out.int_type(32);
    let lo = ki(e, -126);
    let s = e.glsl(G::SMax, i32t, vec![s, lo]);
    let bias = ki(e, 127);
    let b = e.bin(B::Add, i32t, s, bias);
    let sh = ki(e, 23);
    let b = e.bin(B::Shl, i32t, b, sh);
    let t = ft(e);
    e.cast(CastOp::Bitcast, t, b)
}

/// x = q·½ + r/π exactly: r = (x − k/2)·π as a pair, q = k mod 4 (k = rint(2x)).
fn reduce_pi(e: &mut E, x: Value) -> (Pair, Value) {
    let t = ft(e);
    // From 2^24 on x is an even integer (2x might overflow): ±0 reduces the same.
    let ax = e.glsl(G::FAbs, t, vec![x]);
    let big = fc(e, 16_777_216.0);
    let even = fcmp(e, P::Oge, ax, big);
    let zero = fc(e, 0.0);
    let signed_zero = f(e, B::FMul, x, zero);
    let x = fsel(e, even, signed_zero, x);
    let two = fc(e, 2.0);
    let x2 = f(e, B::FMul, x, two);
    let k = e.glsl(G::RoundEven, t, vec![x2]);
    let half = fc(e, 0.5);
    let kh = f(e, B::FMul, k, half);
    let fr = f(e, B::FSub, x, kh);
    // A remainder below 2^-64 is scaled up for the product and the pair scaled back: Dekker's
    // split of a float below about 2^-102 has a subnormal low part, which a device that
    // flushes subnormals (NVIDIA's) would drop, leaving the pair 2^-16 off.
    let afr = e.glsl(G::FAbs, t, vec![fr]);
    let limit = fc(e, 2f64.powi(-64));
    let tiny = fcmp(e, P::Olt, afr, limit);
    let (up, down, one) = (fc(e, 2f64.powi(64)), fc(e, 2f64.powi(-64)), fc(e, 1.0));
    let up = fsel(e, tiny, up, one);
    let down = fsel(e, tiny, down, one);
    let fr = f(e, B::FMul, fr, up);
    let pi = eft::constant_pair(e, t, PI);
    let r = eft::mul_const(e, (fr, zero), pi);
    let r = (f(e, B::FMul, r.0, down), f(e, B::FMul, r.1, down));
    // k mod 4 from the float (k may pass 2^31): k − 4·floor(k/4).
    let quarter = fc(e, 0.25);
    let k4 = f(e, B::FMul, k, quarter);
    let k4 = e.glsl(G::Floor, t, vec![k4]);
    let four = fc(e, 4.0);
    let k4 = f(e, B::FMul, k4, four);
    let km = f(e, B::FSub, k, k4);
    (r, to_int(e, km))
}

/// Taylor's coefficients of sin (odd: 1, −1/3!, ...) or cos (even) in powers of r².
fn trig_coefficients(odd: bool, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| {
            let d = if odd { 2 * i + 1 } else { 2 * i };
            let fct: f64 = (1..=d).map(|k| k as f64).product();
            if i % 2 == 0 {
                1.0 / fct
            } else {
                -1.0 / fct
            }
        })
        .collect()
}

/// sin (r_hi + r_lo) for |r| ≤ π/4: r + r³·S(r²) + r_lo.
fn sin_k(e: &mut E, r: Pair) -> Value {
    let r2 = f(e, B::FMul, r.0, r.0);
    let s = poly(e, r2, &trig_coefficients(true, 5)[1..]);
    let r3 = f(e, B::FMul, r2, r.0);
    let t = f(e, B::FMul, r3, s);
    let t = f(e, B::FAdd, t, r.1);
    f(e, B::FAdd, r.0, t)
}

/// cos (r_hi + r_lo) for |r| ≤ π/4: 1 − (r²/2 − r⁴·C(r²) + r_hi·r_lo).
fn cos_k(e: &mut E, r: Pair) -> Value {
    let r2 = f(e, B::FMul, r.0, r.0);
    let c = poly(e, r2, &trig_coefficients(false, 6)[2..]);
    let r4 = f(e, B::FMul, r2, r2);
    let t = f(e, B::FMul, r4, c);
    let half = fc(e, 0.5);
    let h = f(e, B::FMul, r2, half);
    let hl = f(e, B::FMul, r.0, r.1);
    let inner = f(e, B::FSub, h, t);
    let inner = f(e, B::FAdd, inner, hl);
    let one = fc(e, 1.0);
    f(e, B::FSub, one, inner)
}

/// sin (`shift` 0) or cos (`shift` 1) of q·π/2 + r; NaN for an infinite or NaN x.
fn quadrant(e: &mut E, x: Value, r: Pair, q: Value, shift: i64) -> Value {
    let s = sin_k(e, r);
    let c = cos_k(e, r);
    let v = super::quadrant::quadrant(e, s, c, q, shift);
    // sin(±0) is ±0 (the reduction's x − 0·π/2 is +0).
    let v = if shift == 0 { zero_keeps(e, x, v) } else { v };
    not_finite_nan(e, x, v)
}

/// tan of q·π/2 + r; NaN for an infinite or NaN x.
fn tan_of(e: &mut E, x: Value, r: Pair, q: Value) -> Value {
    let s = sin_k(e, r);
    let c = cos_k(e, r);
    let v = super::quadrant::tan_quadrant(e, s, c, q);
    not_finite_nan(e, x, v)
}

/// sin(πx) of one float lane (and the gamma functions' reflection): a zero result (x an
/// integer) has x's sign, as OpenCL C 7.5.1 asks.
pub(super) fn sinpi(e: &mut E, x: Value) -> Value {
    let (r, q) = reduce_pi(e, x);
    let s = quadrant(e, x, r, q, 0);
    zero_signed_as(e, s, x)
}
