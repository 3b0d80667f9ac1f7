//! Trigonometric functions of double, in double-double where one rounding is not enough
//! (see `double.rs` for the arithmetic). Each lane on its own.
//!
//! * Reduction to r = rh + rl in [-π/4, π/4] and a quadrant q: `reduce_double.rs`
//!   (Cody–Waite below 2^20, Payne–Hanek above).
//! * sin r = rh + (rh·z·S(z) + rl·(1 − z/2)) and cos r = t + ((1 − t) − z/2 + z²·C(z) −
//!   rh·rl) with z = rh², t = 1 − z/2 (S, C their Taylor series to r^27 and r^26); tan is
//!   their quotient.
//! * atan t: t = c + u with c = k/8 nearest t (atan c a double-double constant) and
//!   u = (t − c)/(1 + t·c) ≤ 1/16, whose series converges fast; atan2 from min/max of the
//!   operands with C99's special cases, π/2 − a and π − a in double-double; asin and acos
//!   through it with the correctly rounded √((1 − x)(1 + x)).
//! * The `*pi` forms: sinpi and friends reduce exactly (x − k/2 is exact), then r = f·π in
//!   double-double; atanpi and friends divide by π in double-double.

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::diag::Result;
use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp as B, CastOp, ConstantKind};
use crate::ir::{FloatPredicate as P, Handle, IntPredicate, Op, Type, Value};

use super::double::{add, fast_two_sum, sqrt, two_sum, Dd};
use super::reduce_double::{dd_const, mul_dd, neg_dd, reduce, reduce_pi, PI, PIO2};
use super::specials::{not_finite_nan, zero_keeps, zero_signed_as};
use super::E;

const PIO4: (f64, f64) = (
    f64::from_bits(0x3fe9_21fb_5444_2d18),
    f64::from_bits(0x3c81_a626_3314_5c07),
);
const INV_PI: (f64, f64) = (
    f64::from_bits(0x3fd4_5f30_6dc9_c883),
    f64::from_bits(0xbc76_b01e_c541_7056),
);
/// atan(k/8) for k = 1..=8 as double-doubles.
const ATAN_EIGHTHS: [(u64, u64); 8] = [
    (0x3fbf_d5ba_9aac_2f6e, 0xbc4c_d376_8676_0c17),
    (0x3fcf_5b75_f92c_80dd, 0x3c68_ab6e_3cf7_afbd),
    (0x3fd6_f619_41e4_def1, 0xbc7c_63aa_e6f6_e918),
    (0x3fdd_ac67_0561_bb4f, 0x3c7a_2b7f_222f_65e2),
    (0x3fe1_e00b_abde_feb4, 0xbc59_28df_287a_668f),
    (0x3fe4_978f_a326_9ee1, 0x3c72_419a_87f2_a458),
    (0x3fe7_00a7_c578_4634, 0xbc78_c34d_25aa_def6),
    (0x3fe9_21fb_5444_2d18, 0x3c81_a626_3314_5c07),
];

/// The body of `op` with double arguments, if this file has one.
pub(super) fn trig(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Result<Option<Value>> {
    // The reductions carry neither infinities, NaNs nor the sign of zero: the ends are
    // OpenCL C's (7.5.1) after them.
    let f: fn(&mut E, &[Value]) -> Value = match op {
        C::sin | C::sincos => |e, a| {
            let (r, q) = reduce(e, a[0]);
            let v = quadrant(e, r, q, 0);
            let v = zero_keeps(e, a[0], v);
            not_finite_nan(e, a[0], v)
        },
        C::cos => |e, a| {
            let (r, q) = reduce(e, a[0]);
            let v = quadrant(e, r, q, 1);
            not_finite_nan(e, a[0], v)
        },
        C::tan => |e, a| {
            let (r, q) = reduce(e, a[0]);
            let v = tan_of(e, r, q);
            let v = zero_keeps(e, a[0], v);
            not_finite_nan(e, a[0], v)
        },
        // sinpi(n) is a zero of n's sign, cospi(n + ½) +0.
        C::sinpi => |e, a| {
            let x = integral_mod_2(e, a[0]);
            let (r, q) = reduce_pi(e, x);
            let v = quadrant(e, r, q, 0);
            let v = zero_signed_as(e, v, a[0]);
            not_finite_nan(e, a[0], v)
        },
        C::cospi => |e, a| {
            let x = integral_mod_2(e, a[0]);
            let (r, q) = reduce_pi(e, x);
            let v = quadrant(e, r, q, 1);
            let zero = e.dconst(0.0);
            let v = zero_signed_as(e, v, zero);
            not_finite_nan(e, a[0], v)
        },
        C::tanpi => |e, a| {
            let x = integral_mod_2(e, a[0]);
            let (r, q) = reduce_pi(e, x);
            let t = tan_of(e, r, q);
            let v = super::specials::tanpi_exact(e, a[0], q, t);
            not_finite_nan(e, a[0], v)
        },
        C::atan => |e, a| {
            let one = e.dconst(1.0);
            atan2(e, a[0], one, false)
        },
        C::atan2 => |e, a| atan2(e, a[0], a[1], false),
        C::asin => |e, a| {
            let c = cosine_side(e, a[0]);
            atan2(e, a[0], c, false)
        },
        C::acos => |e, a| {
            let c = cosine_side(e, a[0]);
            atan2(e, c, a[0], false)
        },
        C::atanpi => |e, a| {
            let one = e.dconst(1.0);
            atan2(e, a[0], one, true)
        },
        C::atan2pi => |e, a| atan2(e, a[0], a[1], true),
        C::asinpi => |e, a| {
            let c = cosine_side(e, a[0]);
            atan2(e, a[0], c, true)
        },
        C::acospi => |e, a| {
            let c = cosine_side(e, a[0]);
            atan2(e, c, a[0], true)
        },
        _ => return Ok(None),
    };
    let value_args = if op == C::sincos { &args[..1] } else { args };
    let v = e.lanewise(ret, value_args, |e, lanes, _| f(e, lanes));
    if op == C::sincos {
        let c = e.lanewise(ret, value_args, |e, a, _| {
            let (r, q) = reduce(e, a[0]);
            let v = quadrant(e, r, q, 1);
            not_finite_nan(e, a[0], v)
        });
        e.b.store(args[1], c, None, false)?;
    }
    Ok(Some(v))
}

/// x, or for |x| ≥ 2^52 (an integer) x modulo 2 (exact: x/2 and its integral part are),
/// which the `*pi` functions' reduction takes where it could not take x.
fn integral_mod_2(e: &mut E, x: Value) -> Value {
    let ax = e.dglsl(G::FAbs, x);
    let big_k = e.dconst(2f64.powi(52));
    let big = e.dcmp(P::Oge, ax, big_k);
    let half = e.dconst(0.5);
    let h = e.dbin(B::FMul, x, half);
    let th = e.dglsl(G::Trunc, h);
    let two = e.dconst(2.0);
    let even = e.dbin(B::FMul, th, two);
    let m = e.dbin(B::FSub, x, even);
    e.dsel(big, m, x)
}

/// (sin r, cos r) of a double-double r in [-π/4, π/4].
fn sin_cos(e: &mut E, r: Dd) -> (Value, Value) {
    let fact = |n: u32| (1..=n).map(f64::from).product::<f64>();
    let s: Vec<f64> = (1..=13)
        .map(|i| {
            let v = 1.0 / fact(2 * i + 1);
            if i % 2 == 1 {
                -v
            } else {
                v
            }
        })
        .collect();
    let c: Vec<f64> = (2..=13)
        .map(|i| {
            let v = 1.0 / fact(2 * i);
            if i % 2 == 1 {
                -v
            } else {
                v
            }
        })
        .collect();
    let (rh, rl) = r;
    let z = e.dbin(B::FMul, rh, rh);
    let half = e.dconst(0.5);
    let hz = e.dbin(B::FMul, z, half);
    let one = e.dconst(1.0);
    // sin.
    let sp = e.poly(z, &s);
    let rz = e.dbin(B::FMul, rh, z);
    let tail = e.dbin(B::FMul, rz, sp);
    let corr = e.dbin(B::FSub, one, hz);
    let corr = e.dbin(B::FMul, rl, corr);
    let tail = e.dbin(B::FAdd, tail, corr);
    let sin = e.dbin(B::FAdd, rh, tail);
    // cos.
    let cp = e.poly(z, &c);
    let z2 = e.dbin(B::FMul, z, z);
    let high = e.dbin(B::FMul, z2, cp);
    let rr = e.dbin(B::FMul, rh, rl);
    let high = e.dbin(B::FSub, high, rr);
    let t = e.dbin(B::FSub, one, hz);
    let d = e.dbin(B::FSub, one, t);
    let d = e.dbin(B::FSub, d, hz);
    let d = e.dbin(B::FAdd, d, high);
    let cos = e.dbin(B::FAdd, t, d);
    (sin, cos)
}

/// sin (`shift` 0) or cos (`shift` 1) of q·π/2 + r.
fn quadrant(e: &mut E, r: Dd, q: Value, shift: i64) -> Value {
    let (s, c) = sin_cos(e, r);
    super::quadrant::quadrant(e, s, c, q, shift)
}

fn tan_of(e: &mut E, r: Dd, q: Value) -> Value {
    let (s, c) = sin_cos(e, r);
    super::quadrant::tan_quadrant(e, s, c, q)
}

/// √((1 − x)(1 + x)), the cosine side of asin and acos.
fn cosine_side(e: &mut E, x: Value) -> Value {
    let one = e.dconst(1.0);
    let a = e.dbin(B::FSub, one, x);
    let b = e.dbin(B::FAdd, one, x);
    let p = e.dbin(B::FMul, a, b);
    sqrt(e, p)
}

/// atan t for 0 ≤ t ≤ 1 as a double-double.
fn atan_dd(e: &mut E, t: Value) -> Dd {
    let eight = e.dconst(8.0);
    let t8 = e.dbin(B::FMul, t, eight);
    let k = e.dglsl(G::RoundEven, t8);
    let eighth = e.dconst(0.125);
    let c = e.dbin(B::FMul, k, eighth);
    let num = e.dbin(B::FSub, t, c);
    let tc = e.dbin(B::FMul, t, c);
    let one = e.dconst(1.0);
    let den = e.dbin(B::FAdd, one, tc);
    let u = e.dbin(B::FDiv, num, den);
    let coeffs: Vec<f64> = (1..=13)
        .map(|n| {
            let v = 1.0 / f64::from(2 * n + 1);
            if n % 2 == 1 {
                -v
            } else {
                v
            }
        })
        .collect();
    let z = e.dbin(B::FMul, u, u);
    let p = e.poly(z, &coeffs);
    let uz = e.dbin(B::FMul, u, z);
    let tail = e.dbin(B::FMul, uz, p);
    let au = e.dbin(B::FAdd, u, tail);
    // atan(k/8) by a chain of selects.
    let zd = e.dconst(0.0);
    let (mut ch, mut cl) = (zd, zd);
    for (i, &(h, l)) in ATAN_EIGHTHS.iter().enumerate() {
        let ki = e.dconst((i + 1) as f64);
        let hit = e.dcmp(P::Oeq, k, ki);
        let hv = e.dconst(f64::from_bits(h));
        let lv = e.dconst(f64::from_bits(l));
        ch = e.dsel(hit, hv, ch);
        cl = e.dsel(hit, lv, cl);
    }
    let (s, err) = two_sum(e, ch, au);
    let err = e.dbin(B::FAdd, err, cl);
    fast_two_sum(e, s, err)
}

/// atan2(y, x) (divided by π for the `*pi` forms) with C99's special cases.
fn atan2(e: &mut E, y: Value, x: Value, over_pi: bool) -> Value {
    let bt = e.b.l.out.ty(Type::Bool);
    let dt = e.dt();
    let ax = e.dglsl(G::FAbs, x);
    let ay = e.dglsl(G::FAbs, y);
    let y_le = e.dcmp(P::Ole, ay, ax);
    let lo = e.glsl(G::NMin, dt, vec![ax, ay]);
    let hi = e.glsl(G::NMax, dt, vec![ax, ay]);
    let t = e.dbin(B::FDiv, lo, hi);
    let a = atan_dd(e, t);
    let pio2 = dd_const(e, PIO2);
    let na = neg_dd(e, a);
    let comp = add(e, pio2, na);
    let a = (e.dsel(y_le, a.0, comp.0), e.dsel(y_le, a.1, comp.1));
    // Both zero: 0; both infinite: π/4.
    let zd = e.dconst(0.0);
    let inf = e.dconst(f64::INFINITY);
    let xz = e.dcmp(P::Oeq, ax, zd);
    let yz = e.dcmp(P::Oeq, ay, zd);
    let both_zero = e.and(xz, yz);
    let xi = e.dcmp(P::Oeq, ax, inf);
    let yi = e.dcmp(P::Oeq, ay, inf);
    let both_inf = e.and(xi, yi);
    let a = (e.dsel(both_zero, zd, a.0), e.dsel(both_zero, zd, a.1));
    let pio4 = dd_const(e, PIO4);
    let a = (e.dsel(both_inf, pio4.0, a.0), e.dsel(both_inf, pio4.1, a.1));
    // x negative (−0 too): π − a.
    let i64t = e.b.l.out.int_type(64);
    let zero64 = e.splat(i64t, ConstantKind::Int(0));
    let xb = e.cast(CastOp::Bitcast, i64t, x);
    let x_neg = e.icmp(IntPredicate::Slt, bt, xb, zero64);
    let pi = dd_const(e, PI);
    let na = neg_dd(e, a);
    let flipped = add(e, pi, na);
    let a = (e.dsel(x_neg, flipped.0, a.0), e.dsel(x_neg, flipped.1, a.1));
    let a = if over_pi {
        let q = mul_dd(e, a, INV_PI);
        e.dbin(B::FAdd, q.0, q.1)
    } else {
        e.dbin(B::FAdd, a.0, a.1)
    };
    // y's sign; NaN in, NaN out.
    let yb = e.cast(CastOp::Bitcast, i64t, y);
    let y_neg = e.icmp(IntPredicate::Slt, bt, yb, zero64);
    let na = e.b.push(dt, Op::FNeg(a));
    let a = e.dsel(y_neg, na, a);
    let xn = e.spirv(S::IsNan, bt, vec![x]);
    let yn = e.spirv(S::IsNan, bt, vec![y]);
    let nan = e.or(xn, yn);
    let sum = e.dbin(B::FAdd, x, y);
    e.dsel(nan, sum, a)
}
