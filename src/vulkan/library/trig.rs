//! Trigonometric functions of half and float, computed in double and rounded once (Vulkan's
//! `sin` and `cos` promise an absolute 2^-11 inside [-π, π] and nothing outside; OpenCL
//! asks 4 ulp everywhere). Each lane on its own (`E::lanewise`).
//!
//! * Reduction to r in [-π/4, π/4] and a quadrant: below 2^19, Cody–Waite with π/2 in four
//!   parts (the first three of 33 bits, exact times the quotient); above, Payne–Hanek on the
//!   float's 24-bit significand and five 24-bit words of 2/π chosen by its exponent: each
//!   product is an exact 48-bit integer, split at the binary point into its quadrant bits
//!   and a fraction, the fractions summed in double-double.
//! * sin r and cos r by their Taylor series (to r^17 and r^18).
//! * atan by two half-angle steps to |t| ≤ tan(π/16) and its series; atan2 with C99's
//!   special cases, asin and acos through it; the `*pi` forms reduce exactly in double.

use spirv::{GlslStd450Op as G, Op as S};

use crate::diag::Result;
use crate::ir::builtin::CLOp as C;
use crate::ir::{BinaryOp, CastOp, ConstantKind, ConvertKind, FloatPredicate, Handle};
use crate::ir::{IntPredicate, Op, Sign, Type, Value};

use super::E;
use crate::vulkan::emit::plain;

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

/// 2/π in 24-bit words, most significant first.
const TWO_OVER_PI: [u64; 10] = [
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163,
    0xABDEBB,
];
/// π/2 in four parts (fdlibm's): the first three have 33 significant bits.
const PIO2: [f64; 4] = [
    f64::from_bits(0x3FF9_21FB_5440_0000),
    f64::from_bits(0x3DD0_B461_1A60_0000),
    f64::from_bits(0x3BA3_198A_2E00_0000),
    f64::from_bits(0x397B_839A_2520_49C1),
];

/// The library's body for `op` of half or float arguments, if it is a trigonometric one.
pub(super) fn trig(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Result<Option<Value>> {
    if e.width(ret) == 64 {
        return super::trig_double::trig(e, op, args, ret);
    }
    let f: fn(&mut E, &[Value]) -> Value = match op {
        C::sin | C::sincos => |e, a| {
            let (r, q) = reduce(e, a[0]);
            quadrant(e, r, q, 0)
        },
        C::cos => |e, a| {
            let (r, q) = reduce(e, a[0]);
            quadrant(e, r, q, 1)
        },
        C::tan => |e, a| {
            let (r, q) = reduce(e, a[0]);
            tan_of(e, r, q)
        },
        C::sinpi => |e, a| {
            let (r, q) = reduce_pi(e, a[0]);
            quadrant(e, r, q, 0)
        },
        C::cospi => |e, a| {
            let (r, q) = reduce_pi(e, a[0]);
            quadrant(e, r, q, 1)
        },
        C::tanpi => |e, a| {
            let (r, q) = reduce_pi(e, a[0]);
            let t = tan_of(e, r, q);
            tanpi_exact(e, a[0], q, t)
        },
        C::atan => |e, a| {
            let one = e.dconst(1.0);
            atan2_d(e, a[0], one)
        },
        C::atan2 => |e, a| atan2_d(e, a[0], a[1]),
        C::asin => |e, a| {
            let c = cosine_side(e, a[0]);
            atan2_d(e, a[0], c)
        },
        C::acos => |e, a| {
            let c = cosine_side(e, a[0]);
            atan2_d(e, c, a[0])
        },
        C::atanpi => |e, a| {
            let one = e.dconst(1.0);
            let t = atan2_d(e, a[0], one);
            over_pi(e, t)
        },
        C::atan2pi => |e, a| {
            let t = atan2_d(e, a[0], a[1]);
            over_pi(e, t)
        },
        C::asinpi => |e, a| {
            let c = cosine_side(e, a[0]);
            let t = atan2_d(e, a[0], c);
            over_pi(e, t)
        },
        C::acospi => |e, a| {
            let c = cosine_side(e, a[0]);
            let t = atan2_d(e, c, a[0]);
            over_pi(e, t)
        },
        _ => return Ok(None),
    };
    let value_args = if op == C::sincos { &args[..1] } else { args };
    let lanes = |e: &mut E, f: fn(&mut E, &[Value]) -> Value| {
        e.lanewise(ret, value_args, |e, lanes, et| {
            let wide: Vec<Value> = lanes.iter().map(|&v| e.as_double(v)).collect();
            let r = f(e, &wide);
            e.fconvert(et, r)
        })
    };
    let v = lanes(e, f);
    if op == C::sincos {
        let c = lanes(e, |e, a| {
            let (r, q) = reduce(e, a[0]);
            quadrant(e, r, q, 1)
        });
        e.b.store(args[1], c, None, false)?;
    }
    Ok(Some(v))
}

fn i32t(e: &mut E) -> Handle<Type> {
    e.b.l.out.int_type(32)
}

fn ki(e: &mut E, v: i64) -> Value {
    let t = i32t(e);
    e.splat(t, ConstantKind::Int(v as u32 as u64))
}

/// x (a double holding a float) = q·π/2 + r, |r| ≤ π/4 (a little more at worst).
fn reduce(e: &mut E, x: Value) -> (Value, Value) {
    let dt = e.b.ty_of(x);
    let i32t = i32t(e);
    // Cody–Waite.
    let two_over_pi = e.dconst(2.0 / PI);
    let t = e.dbin(BinaryOp::FMul, x, two_over_pi);
    let k = e.dglsl(G::RoundEven, t);
    let mut r = x;
    for p in PIO2 {
        let p = e.dconst(p);
        let kp = e.dbin(BinaryOp::FMul, k, p);
        r = e.dbin(BinaryOp::FSub, r, kp);
    }
    let small_q = e.b.push(
        i32t,
        Op::Builtin {
            builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
            args: vec![k],
        },
    );
    // Payne–Hanek, for the large arguments.
    let (big_r, big_q) = payne_hanek(e, x);
    let ax = e.dglsl(G::FAbs, x);
    let lim = e.dconst(524_288.0);
    let small = e.dcmp(FloatPredicate::Olt, ax, lim);
    let r = e.select(dt, small, r, big_r);
    let q = e.select(i32t, small, small_q, big_q);
    (r, q)
}

/// Payne–Hanek reduction of the double `x` (holding a float of magnitude at least 2^19).
fn payne_hanek(e: &mut E, x: Value) -> (Value, Value) {
    let dt = e.b.ty_of(x);
    let i32t = i32t(e);
    let u64t = e.b.l.out.int_type(64);
    let bt = e.b.l.out.ty(Type::Bool);
    let k64 = |e: &mut E, v: u64| e.splat(u64t, ConstantKind::Int(v));
    // |x| = M · 2^E with M the float's 24-bit significand: from the double's bits.
    let ax = e.dglsl(G::FAbs, x);
    let bits = e.cast(CastOp::Bitcast, u64t, ax);
    let c52 = k64(e, 52);
    let ex = e.bin(BinaryOp::LShr, u64t, bits, c52);
    let ex = e.cast(CastOp::Trunc, i32t, ex);
    let mmask = k64(e, (1u64 << 52) - 1);
    let lead = k64(e, 1u64 << 52);
    let m = e.bin(BinaryOp::And, u64t, bits, mmask);
    let m = e.bin(BinaryOp::Or, u64t, m, lead);
    let c29 = k64(e, 29);
    let m = e.bin(BinaryOp::LShr, u64t, m, c29); // 24 bits
                                                 // E = (exponent − 1023) − 23.
    let bias = ki(e, 1023 + 23);
    let big_e = e.bin(BinaryOp::Sub, i32t, ex, bias);
    // The first word whose product reaches below 2^2: j0 = max(0, (E + 22) / 24 − 1).
    let c22 = ki(e, 22);
    let c24 = ki(e, 24);
    let one = ki(e, 1);
    let zero = ki(e, 0);
    let j0 = e.bin(BinaryOp::Add, i32t, big_e, c22);
    let j0 = e.bin(BinaryOp::SDiv, i32t, j0, c24);
    let j0 = e.bin(BinaryOp::Sub, i32t, j0, one);
    let j0 = e.glsl(G::SMax, i32t, vec![j0, zero]);
    let mut q = zero;
    let mut hi = e.dconst(0.0);
    let mut lo = e.dconst(0.0);
    let three = k64(e, 3);
    let c64 = ki(e, 64);
    for t in 0..5 {
        let tt = ki(e, t);
        let j = e.bin(BinaryOp::Add, i32t, j0, tt);
        // The word j of 2/π, by a chain of selects.
        let mut w = k64(e, 0);
        for (i, &c) in TWO_OVER_PI.iter().enumerate() {
            let ii = ki(e, i as i64);
            let hit = e.icmp(IntPredicate::Eq, bt, j, ii);
            let cv = k64(e, c);
            w = e.select(u64t, hit, cv, w);
        }
        let p = e.bin(BinaryOp::Mul, u64t, m, w); // < 2^48, exact
                                                  // Its scale: s = E − 24 (j + 1).
        let j1 = e.bin(BinaryOp::Add, i32t, j, one);
        let j24 = e.bin(BinaryOp::Mul, i32t, j1, c24);
        let s = e.bin(BinaryOp::Sub, i32t, big_e, j24);
        // s ≥ 0 (only 0 or 1 here): quadrant bits (p << s) & 3, no fraction.
        let s_nonneg = e.icmp(IntPredicate::Sge, bt, s, zero);
        let s_pos = e.glsl(G::SMax, i32t, vec![s, zero]);
        let s_pos64 = e.cast(CastOp::ZExt, u64t, s_pos);
        let shl = e.bin(BinaryOp::Shl, u64t, p, s_pos64);
        let int_hi = e.bin(BinaryOp::And, u64t, shl, three);
        // s < 0: quadrant bits (p >> −s) & 3 and the fraction (p mod 2^−s) · 2^s.
        let ns = e.bin(BinaryOp::Sub, i32t, zero, s);
        let ns = e.glsl(G::SMax, i32t, vec![ns, zero]);
        let wide = e.icmp(IntPredicate::Sge, bt, ns, c64);
        let c63 = ki(e, 63);
        let ns_c = e.glsl(G::SMin, i32t, vec![ns, c63]);
        let ns64 = e.cast(CastOp::ZExt, u64t, ns_c);
        let shr = e.bin(BinaryOp::LShr, u64t, p, ns64);
        let z64 = k64(e, 0);
        let shr = e.select(u64t, wide, z64, shr);
        let int_lo = e.bin(BinaryOp::And, u64t, shr, three);
        let one64 = k64(e, 1);
        let unit = e.bin(BinaryOp::Shl, u64t, one64, ns64);
        let fmask = e.bin(BinaryOp::Sub, u64t, unit, one64);
        let all = k64(e, u64::MAX);
        let fmask = e.select(u64t, wide, all, fmask);
        let fr = e.bin(BinaryOp::And, u64t, p, fmask);
        let frd = e.b.push(
            dt,
            Op::Builtin {
                builtin: plain(ConvertKind::Int(Sign::Unsigned), ConvertKind::Float),
                args: vec![fr],
            },
        );
        let scale = pow2_i(e, s);
        let frac = e.dbin(BinaryOp::FMul, frd, scale);
        let zd = e.dconst(0.0);
        let frac = e.dsel(s_nonneg, zd, frac);
        let int = e.select(u64t, s_nonneg, int_hi, int_lo);
        let int = e.cast(CastOp::Trunc, i32t, int);
        q = e.bin(BinaryOp::Add, i32t, q, int);
        // Double-double sum of the fractions (TwoSum).
        let sum = e.dbin(BinaryOp::FAdd, hi, frac);
        let bv = e.dbin(BinaryOp::FSub, sum, hi);
        let av = e.dbin(BinaryOp::FSub, sum, bv);
        let eb = e.dbin(BinaryOp::FSub, frac, bv);
        let ea = e.dbin(BinaryOp::FSub, hi, av);
        let err = e.dbin(BinaryOp::FAdd, ea, eb);
        lo = e.dbin(BinaryOp::FAdd, lo, err);
        hi = sum;
    }
    // To the nearest quadrant: the fraction left in [-½, ½], times π/2.
    let n = e.dglsl(G::RoundEven, hi);
    let f = e.dbin(BinaryOp::FSub, hi, n);
    let f = e.dbin(BinaryOp::FAdd, f, lo);
    let pio2 = e.dconst(FRAC_PI_2);
    let r = e.dbin(BinaryOp::FMul, f, pio2);
    let ni = e.b.push(
        i32t,
        Op::Builtin {
            builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
            args: vec![n],
        },
    );
    let q = e.bin(BinaryOp::Add, i32t, q, ni);
    // The sign of x.
    let zd = e.dconst(0.0);
    let neg = e.dcmp(FloatPredicate::Olt, x, zd);
    let nr = e.dbin(BinaryOp::FSub, zd, r);
    let r = e.dsel(neg, nr, r);
    let nq = e.bin(BinaryOp::Sub, i32t, zero, q);
    let q = e.select(i32t, neg, nq, q);
    (r, q)
}

/// 2^s as a double, for an i32 s in the normal range.
fn pow2_i(e: &mut E, s: Value) -> Value {
    let i64t = e.b.l.out.int_type(64);
    let s = e.cast(CastOp::SExt, i64t, s);
    let bias = e.splat(i64t, ConstantKind::Int(1023));
    let b = e.bin(BinaryOp::Add, i64t, s, bias);
    let sh = e.splat(i64t, ConstantKind::Int(52));
    let b = e.bin(BinaryOp::Shl, i64t, b, sh);
    let dt = e.dt();
    e.cast(CastOp::Bitcast, dt, b)
}

/// x = q·½ + r/π exactly (x a double holding a float): r in radians, |r| ≤ π/4.
fn reduce_pi(e: &mut E, x: Value) -> (Value, Value) {
    let i32t = i32t(e);
    let two = e.dconst(2.0);
    let t = e.dbin(BinaryOp::FMul, x, two);
    let k = e.dglsl(G::RoundEven, t);
    let half = e.dconst(0.5);
    let kh = e.dbin(BinaryOp::FMul, k, half);
    let f = e.dbin(BinaryOp::FSub, x, kh);
    let pi = e.dconst(PI);
    let r = e.dbin(BinaryOp::FMul, f, pi);
    // k mod 4 from the double (k may pass 2^31): k − 4·floor(k/4).
    let quarter = e.dconst(0.25);
    let k4 = e.dbin(BinaryOp::FMul, k, quarter);
    let k4 = e.dglsl(G::Floor, k4);
    let four = e.dconst(4.0);
    let k4 = e.dbin(BinaryOp::FMul, k4, four);
    let km = e.dbin(BinaryOp::FSub, k, k4);
    let q = e.b.push(
        i32t,
        Op::Builtin {
            builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
            args: vec![km],
        },
    );
    (r, q)
}

fn sin_k(e: &mut E, r: Value) -> Value {
    let c: Vec<f64> = (0..9)
        .map(|i| {
            let f: f64 = (1..=(2 * i + 1)).map(|k| k as f64).product();
            if i % 2 == 0 {
                1.0 / f
            } else {
                -1.0 / f
            }
        })
        .collect();
    let r2 = e.dbin(BinaryOp::FMul, r, r);
    let p = e.poly(r2, &c);
    e.dbin(BinaryOp::FMul, r, p)
}

fn cos_k(e: &mut E, r: Value) -> Value {
    let c: Vec<f64> = (0..10)
        .map(|i| {
            let f: f64 = (1..=(2 * i)).map(|k| k as f64).product();
            if i % 2 == 0 {
                1.0 / f
            } else {
                -1.0 / f
            }
        })
        .collect();
    let r2 = e.dbin(BinaryOp::FMul, r, r);
    e.poly(r2, &c)
}

/// sin (`shift` 0) or cos (`shift` 1) of q·π/2 + r.
fn quadrant(e: &mut E, r: Value, q: Value, shift: i64) -> Value {
    let i32t = i32t(e);
    let bt = e.b.l.out.ty(Type::Bool);
    let s = sin_k(e, r);
    let c = cos_k(e, r);
    let sh = ki(e, shift);
    let q = e.bin(BinaryOp::Add, i32t, q, sh);
    let three = ki(e, 3);
    let q = e.bin(BinaryOp::And, i32t, q, three);
    let one = ki(e, 1);
    let two = ki(e, 2);
    let odd = e.bin(BinaryOp::And, i32t, q, one);
    let zero = ki(e, 0);
    let odd = e.icmp(IntPredicate::Ne, bt, odd, zero);
    let neg = e.bin(BinaryOp::And, i32t, q, two);
    let neg = e.icmp(IntPredicate::Ne, bt, neg, zero);
    let v = e.dsel(odd, c, s);
    let zd = e.dconst(0.0);
    let nv = e.dbin(BinaryOp::FSub, zd, v);
    let v = e.dsel(neg, nv, v);
    // sin(±0) is ±0 (the kernel's r·p keeps it; the negation above would not).
    let x_zero = e.dcmp(FloatPredicate::Oeq, r, zd);
    let q0 = e.icmp(IntPredicate::Eq, bt, q, zero);
    let keep = e.spirv(S::LogicalAnd, bt, vec![x_zero, q0]);
    e.dsel(keep, r, v)
}

fn tan_of(e: &mut E, r: Value, q: Value) -> Value {
    let i32t = i32t(e);
    let bt = e.b.l.out.ty(Type::Bool);
    let s = sin_k(e, r);
    let c = cos_k(e, r);
    let one = ki(e, 1);
    let odd = e.bin(BinaryOp::And, i32t, q, one);
    let zero = ki(e, 0);
    let odd = e.icmp(IntPredicate::Ne, bt, odd, zero);
    let t = e.dbin(BinaryOp::FDiv, s, c);
    let zd = e.dconst(0.0);
    let nc = e.dbin(BinaryOp::FSub, zd, c);
    let cot = e.dbin(BinaryOp::FDiv, nc, s);
    e.dsel(odd, cot, t)
}

/// tanpi of double `x` (`t` its quotient of the series, `q` = 2x mod 4) where OpenCL C fixes
/// it at the multiples of ½, whose signs the quotient gets wrong: copysign(0, x) at even
/// integers, copysign(0, −x) at odd ones, +∞ at n + ½ for even n (q 1), −∞ for odd n (q 3).
pub(super) fn tanpi_exact(e: &mut E, x: Value, q: Value, t: Value) -> Value {
    let i32t = i32t(e);
    let bt = e.b.l.out.ty(Type::Bool);
    let dt = e.dt();
    let two = e.dconst(2.0);
    let x2 = e.dbin(BinaryOp::FMul, x, two);
    let k = e.dglsl(G::RoundEven, x2);
    let on_half = e.dcmp(FloatPredicate::Oeq, x2, k);
    let ax = e.dglsl(G::FAbs, x);
    let inf = e.dconst(f64::INFINITY);
    let finite = e.dcmp(FloatPredicate::Olt, ax, inf);
    let exact = e.spirv(S::LogicalAnd, bt, vec![on_half, finite]);
    let (one, two) = (ki(e, 1), ki(e, 2));
    let q_is_2 = e.icmp(IntPredicate::Eq, bt, q, two);
    let nx = e.b.push(dt, Op::FNeg(x));
    let sign = e.dsel(q_is_2, nx, x);
    let zero = e.dconst(0.0);
    let zero = super::copysign(e, dt, zero, sign);
    let q_is_1 = e.icmp(IntPredicate::Eq, bt, q, one);
    let ninf = e.dconst(f64::NEG_INFINITY);
    let pole = e.dsel(q_is_1, inf, ninf);
    let odd = e.bin(BinaryOp::And, i32t, q, one);
    let none = ki(e, 0);
    let odd = e.icmp(IntPredicate::Ne, bt, odd, none);
    let at_half = e.dsel(odd, pole, zero);
    e.dsel(exact, at_half, t)
}

/// sqrt((1 − x)(1 + x)), the cosine side of asin and acos.
fn cosine_side(e: &mut E, x: Value) -> Value {
    let one = e.dconst(1.0);
    let a = e.dbin(BinaryOp::FSub, one, x);
    let b = e.dbin(BinaryOp::FAdd, one, x);
    let p = e.dbin(BinaryOp::FMul, a, b);
    e.dglsl(G::Sqrt, p)
}

fn over_pi(e: &mut E, t: Value) -> Value {
    let pi = e.dconst(PI);
    e.dbin(BinaryOp::FDiv, t, pi)
}

/// atan t for 0 ≤ t ≤ 1: two half-angle steps, then the series to t^25.
fn atan_k(e: &mut E, t: Value) -> Value {
    let one = e.dconst(1.0);
    let mut u = t;
    for _ in 0..2 {
        let u2 = e.dbin(BinaryOp::FMul, u, u);
        let v = e.dbin(BinaryOp::FAdd, one, u2);
        let s = e.dglsl(G::Sqrt, v);
        let d = e.dbin(BinaryOp::FAdd, one, s);
        u = e.dbin(BinaryOp::FDiv, u, d);
    }
    let c: Vec<f64> = (0..13)
        .map(|i| {
            if i % 2 == 0 {
                1.0 / (2 * i + 1) as f64
            } else {
                -1.0 / (2 * i + 1) as f64
            }
        })
        .collect();
    let u2 = e.dbin(BinaryOp::FMul, u, u);
    let p = e.poly(u2, &c);
    let a = e.dbin(BinaryOp::FMul, u, p);
    let four = e.dconst(4.0);
    e.dbin(BinaryOp::FMul, a, four)
}

/// atan2(y, x) with C99's special cases.
fn atan2_d(e: &mut E, y: Value, x: Value) -> Value {
    let bt = e.b.l.out.ty(Type::Bool);
    let ax = e.dglsl(G::FAbs, x);
    let ay = e.dglsl(G::FAbs, y);
    let y_le = e.dcmp(FloatPredicate::Ole, ay, ax);
    let dt = e.b.ty_of(ax);
    let lo = e.glsl(G::NMin, dt, vec![ax, ay]);
    let hi = e.glsl(G::NMax, dt, vec![ax, ay]);
    let t = e.dbin(BinaryOp::FDiv, lo, hi);
    let a = atan_k(e, t);
    let pio2 = e.dconst(FRAC_PI_2);
    let comp = e.dbin(BinaryOp::FSub, pio2, a);
    let a = e.dsel(y_le, a, comp);
    // Both zero: 0; both infinite: π/4.
    let zd = e.dconst(0.0);
    let inf = e.dconst(f64::INFINITY);
    let both_zero = {
        let xz = e.dcmp(FloatPredicate::Oeq, ax, zd);
        let yz = e.dcmp(FloatPredicate::Oeq, ay, zd);
        e.spirv(S::LogicalAnd, bt, vec![xz, yz])
    };
    let both_inf = {
        let xi = e.dcmp(FloatPredicate::Oeq, ax, inf);
        let yi = e.dcmp(FloatPredicate::Oeq, ay, inf);
        e.spirv(S::LogicalAnd, bt, vec![xi, yi])
    };
    let a = e.dsel(both_zero, zd, a);
    let pio4 = e.dconst(FRAC_PI_4);
    let a = e.dsel(both_inf, pio4, a);
    // x negative (−0 too): π − a. Then y's sign.
    let i64t = e.b.l.out.int_type(64);
    let zero64 = e.splat(i64t, ConstantKind::Int(0));
    let xb = e.cast(CastOp::Bitcast, i64t, x);
    let x_neg = e.icmp(IntPredicate::Slt, bt, xb, zero64);
    let pi = e.dconst(PI);
    let flipped = e.dbin(BinaryOp::FSub, pi, a);
    let a = e.dsel(x_neg, flipped, a);
    let yb = e.cast(CastOp::Bitcast, i64t, y);
    let y_neg = e.icmp(IntPredicate::Slt, bt, yb, zero64);
    let na = e.dbin(BinaryOp::FSub, zd, a);
    let a = e.dsel(y_neg, na, a);
    // NaN in, NaN out.
    let xn = e.spirv(S::IsNan, bt, vec![x]);
    let yn = e.spirv(S::IsNan, bt, vec![y]);
    let nan = e.spirv(S::LogicalOr, bt, vec![xn, yn]);
    let sum = e.dbin(BinaryOp::FAdd, x, y);
    e.dsel(nan, sum, a)
}

/// sin(πx) in double, for the gamma functions' reflection (x a double holding a float).
pub(super) fn sinpi_d(e: &mut E, x: Value) -> Value {
    let (r, q) = reduce_pi(e, x);
    quadrant(e, r, q, 0)
}
