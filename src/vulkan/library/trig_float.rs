//! The trigonometric functions of float, in float (halves computed as floats and rounded
//! once): no Float64 for a kernel without double. Within OpenCL's float bounds (4 ulp for
//! sin, cos, asin, acos; 5 for tan, atan and the `*pi` forms; 6 for atan2):
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
//! * atan t for t in [0, 1]: c = k/8 the nearest eighth, atan t = atan c + atan u with
//!   u = (t − c)/(1 + tc), |u| ≤ 1/16, by its series to u^7; atan c from a table of pairs.
//!   atan2 with C99's special cases; asin x = x + x³·P(x²) below ½ and
//!   π/2 − 2·asin(√((1 − x)/2)) above, acos from the same two (π/2 and π as pairs).

use spirv::{GlslStd450Op as G, Op as S};

use crate::diag::Result;
use crate::ir::builtin::CLOp as C;
use crate::ir::{BinaryOp as B, CastOp, ConstantKind, ConvertKind, FloatPredicate as P};
use crate::ir::{Handle, IntPredicate as I, Op, Sign, Type, Value};

use super::eft::{self, Pair};
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
                C::tan => (tan_of(e, x, r, q), None),
                _ => (quadrant(e, x, r, q, 0), Some(quadrant(e, x, r, q, 1))),
            }
        }
        C::sinpi | C::cospi | C::tanpi => {
            let (r, q) = reduce_pi(e, x);
            match op {
                C::sinpi => (quadrant(e, x, r, q, 0), None),
                C::cospi => (quadrant(e, x, r, q, 1), None),
                _ => {
                    let t = tan_of(e, x, r, q);
                    (super::specials::tanpi_exact(e, x, q, t), None)
                }
            }
        }
        C::atan | C::atanpi => {
            let one = fc(e, 1.0);
            let t = atan2(e, x, one);
            let v = if op == C::atan { t.0 } else { over_pi(e, t) };
            (v, None)
        }
        C::atan2 | C::atan2pi => {
            let t = atan2(e, x, a[1]);
            let v = if op == C::atan2 { t.0 } else { over_pi(e, t) };
            (v, None)
        }
        C::asin | C::asinpi => {
            let t = asin(e, x);
            let v = if op == C::asin { t.0 } else { over_pi(e, t) };
            (v, None)
        }
        _ => {
            let t = acos(e, x);
            let v = if op == C::acos { t.0 } else { over_pi(e, t) };
            (v, None)
        }
    })
}

fn ft(e: &mut E) -> Handle<Type> {
    e.b.l.out.ty(Type::Float { width: 32 })
}
fn fc(e: &mut E, v: f64) -> Value {
    let t = ft(e);
    e.float_const(t, v)
}
fn f(e: &mut E, op: B, x: Value, y: Value) -> Value {
    let t = ft(e);
    e.bin(op, t, x, y)
}
fn fcmp(e: &mut E, p: P, x: Value, y: Value) -> Value {
    let bt = e.b.l.out.ty(Type::Bool);
    e.fcmp(p, bt, x, y)
}
fn fsel(e: &mut E, c: Value, x: Value, y: Value) -> Value {
    let t = ft(e);
    e.select(t, c, x, y)
}
fn ki(e: &mut E, v: i64) -> Value {
    let t = e.b.l.out.int_type(32);
    e.splat(t, ConstantKind::Int(v as u32 as u64))
}
fn to_int(e: &mut E, x: Value) -> Value {
    let it = e.b.l.out.int_type(32);
    e.b.push(
        it,
        Op::Builtin {
            builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
            args: vec![x],
        },
    )
}
fn neg(e: &mut E, x: Value) -> Value {
    let t = ft(e);
    e.b.push(t, Op::FNeg(x))
}
/// Σ c_i · x^i by Horner's rule.
fn poly(e: &mut E, x: Value, coeffs: &[f64]) -> Value {
    let mut acc = fc(e, coeffs[coeffs.len() - 1]);
    for &c in coeffs.iter().rev().skip(1) {
        let m = f(e, B::FMul, acc, x);
        let c = fc(e, c);
        acc = f(e, B::FAdd, m, c);
    }
    acc
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
    let pi = eft::constant_pair(e, t, PI);
    let r = eft::mul_const(e, (fr, zero), pi);
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
    let i32t = e.b.l.out.int_type(32);
    let bt = e.b.l.out.ty(Type::Bool);
    let s = sin_k(e, r);
    let c = cos_k(e, r);
    let sh = ki(e, shift);
    let q = e.bin(B::Add, i32t, q, sh);
    let three = ki(e, 3);
    let q = e.bin(B::And, i32t, q, three);
    let one = ki(e, 1);
    let two = ki(e, 2);
    let zero = ki(e, 0);
    let odd = e.bin(B::And, i32t, q, one);
    let odd = e.icmp(I::Ne, bt, odd, zero);
    let negative = e.bin(B::And, i32t, q, two);
    let negative = e.icmp(I::Ne, bt, negative, zero);
    let v = fsel(e, odd, c, s);
    let nv = neg(e, v);
    let v = fsel(e, negative, nv, v);
    // sin(±0) is ±0 (r·p keeps it; a negation would not).
    let zf = fc(e, 0.0);
    let r_zero = fcmp(e, P::Oeq, r.0, zf);
    let q0 = e.icmp(I::Eq, bt, q, zero);
    let keep = e.spirv(S::LogicalAnd, bt, vec![r_zero, q0]);
    let v = fsel(e, keep, r.0, v);
    not_finite_nan(e, x, v)
}

/// `v`, or NaN where x is infinite or NaN (the reductions do not carry those).
fn not_finite_nan(e: &mut E, x: Value, v: Value) -> Value {
    let t = ft(e);
    let bt = e.b.l.out.ty(Type::Bool);
    let inf = e.spirv(S::IsInf, bt, vec![x]);
    let nan = e.spirv(S::IsNan, bt, vec![x]);
    let dflt = super::div_sqrt::default_nan(e, t);
    let v = fsel(e, inf, dflt, v);
    let quiet = f(e, B::FAdd, x, x);
    fsel(e, nan, quiet, v)
}

/// tan of q·π/2 + r: sin r / cos r, or −cos r / sin r in odd quadrants.
fn tan_of(e: &mut E, x: Value, r: Pair, q: Value) -> Value {
    let i32t = e.b.l.out.int_type(32);
    let bt = e.b.l.out.ty(Type::Bool);
    let s = sin_k(e, r);
    let c = cos_k(e, r);
    let one = ki(e, 1);
    let zero = ki(e, 0);
    let odd = e.bin(B::And, i32t, q, one);
    let odd = e.icmp(I::Ne, bt, odd, zero);
    let tn = f(e, B::FDiv, s, c);
    let nc = neg(e, c);
    let cot = f(e, B::FDiv, nc, s);
    let v = fsel(e, odd, cot, tn);
    not_finite_nan(e, x, v)
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

/// sin(πx) of one float lane (the gamma functions' reflection).
pub(super) fn sinpi(e: &mut E, x: Value) -> Value {
    let (r, q) = reduce_pi(e, x);
    quadrant(e, x, r, q, 0)
}
