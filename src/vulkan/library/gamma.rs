//! `erf`, `erfc`, `tgamma`, `lgamma` and `lgamma_r` of half and float, computed in double
//! and rounded once (each lane on its own):
//!
//! * erf by its Taylor series below 2.5 (42 terms: the largest is about 16, so about two of
//!   double's sixteen digits are lost, far below a float's); erfc there as 1 − erf (at most
//!   a factor 2500 of cancellation at 2.5). Above 2.5, erfc by its continued fraction
//!   e^(−x²)/√π · 1/(x + ½/(x + 1/(x + 3/2/…))), 100 levels deep, and erf as 1 − erfc.
//! * Γ by Lanczos' approximation (g = 7, nine coefficients; relative error about 10^-15),
//!   through exp and log so that it neither overflows early nor loses its small values;
//!   reflection Γ(x) Γ(1 − x) = π / sin(πx) below ½. log Γ the same way in logarithms, with
//!   the sign of Γ for `lgamma_r`.

use spirv::{GlslStd450Op as G, Op as S};

use crate::diag::{Error, Result};
use crate::ir::builtin::CLOp as C;
use crate::ir::Value;
use crate::ir::{BinaryOp, ConvertKind, FloatPredicate, Handle, Op, Sign, Type};

use super::exp_log::{exp_d, log_d};
use super::trig::sinpi_d;
use super::E;
use crate::vulkan::emit::plain;

use std::f64::consts::PI;

const LANCZOS_G: f64 = 7.0;
const LANCZOS: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// The library's body for `op`, if it is one of these (half and float only).
pub(super) fn gamma(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Result<Option<Value>> {
    if e.width(ret) == 64 {
        let complement = match op {
            C::erf => false,
            C::erfc => true,
            C::tgamma | C::lgamma | C::lgamma_r => return gamma_double(e, op, args, ret).map(Some),
            _ => return Ok(None),
        };
        // The series' loop can fail to build (as any store can); the first failure is kept.
        let failed = std::cell::RefCell::new(None);
        let v = e.lanewise(ret, &args[..1], |e, lanes, _| {
            super::erf_double::erf(e, lanes[0], complement).unwrap_or_else(|err| {
                failed.borrow_mut().get_or_insert(err);
                lanes[0]
            })
        });
        return match failed.into_inner() {
            Some(err) => Err(err),
            None => Ok(Some(v)),
        };
    }
    let f: fn(&mut E, &[Value]) -> Value = match op {
        C::erf => |e, a| erf_d(e, a[0], false),
        C::erfc => |e, a| erf_d(e, a[0], true),
        C::tgamma => |e, a| tgamma_d(e, a[0]),
        C::lgamma | C::lgamma_r => |e, a| lgamma_d(e, a[0]).0,
        _ => return Ok(None),
    };
    let lanes = |e: &mut E, f: fn(&mut E, &[Value]) -> Value, t: Handle<Type>| {
        e.lanewise(t, &args[..1], |e, lanes, et| {
            let wide: Vec<Value> = lanes.iter().map(|&v| e.as_double(v)).collect();
            let r = f(e, &wide);
            let rt = e.b.ty_of(r);
            if matches!(e.b.l.out.types[et], Type::Int { .. }) && rt != et {
                e.b.push(
                    et,
                    Op::Builtin {
                        builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
                        args: vec![r],
                    },
                )
            } else {
                e.fconvert(et, r)
            }
        })
    };
    let v = lanes(e, f, ret);
    if op == C::lgamma_r {
        // The sign of Γ to *signp (ints of the result's lanes).
        let st =
            e.b.pointee_of(args[1])
                .ok_or_else(|| Error::internal("lgamma_r's sign output is not a pointer"))?;
        let s = lanes(e, |e, a| lgamma_d(e, a[0]).1, st);
        e.b.store(args[1], s, None, false)?;
    }
    Ok(Some(v))
}

fn erf_series(e: &mut E, x: Value) -> Value {
    // (2/√π) Σ (−1)^n x^(2n+1) / (n! (2n + 1)), in x².
    let mut c = Vec::new();
    let mut fact = 1.0f64;
    for n in 0..42 {
        if n > 0 {
            fact *= n as f64;
        }
        let sign = if n % 2 == 0 { 1.0 } else { -1.0 };
        c.push(sign * 2.0 / PI.sqrt() / (fact * (2 * n + 1) as f64));
    }
    let x2 = e.dbin(BinaryOp::FMul, x, x);
    let p = e.poly(x2, &c);
    e.dbin(BinaryOp::FMul, x, p)
}

/// erfc(x) for x ≥ 2.5 by the continued fraction.
fn erfc_fraction(e: &mut E, x: Value) -> Value {
    let mut t = x;
    for k in (1..=100).rev() {
        let kk = e.dconst(k as f64 / 2.0);
        let q = e.dbin(BinaryOp::FDiv, kk, t);
        t = e.dbin(BinaryOp::FAdd, x, q);
    }
    let x2 = e.dbin(BinaryOp::FMul, x, x);
    let zero = e.dconst(0.0);
    let nx2 = e.dbin(BinaryOp::FSub, zero, x2);
    let ex = exp_d(e, nx2);
    let sp = e.dconst(PI.sqrt());
    let den = e.dbin(BinaryOp::FMul, sp, t);
    e.dbin(BinaryOp::FDiv, ex, den)
}

fn erf_d(e: &mut E, x: Value, complement: bool) -> Value {
    let ax = e.dglsl(G::FAbs, x);
    let series = erf_series(e, x);
    let tail = erfc_fraction(e, ax); // erfc(|x|), meaningful from 2.5 on
    let k = e.dconst(2.5);
    let near = e.dcmp(FloatPredicate::Olt, ax, k);
    let one = e.dconst(1.0);
    let two = e.dconst(2.0);
    let zero = e.dconst(0.0);
    let x_neg = e.dcmp(FloatPredicate::Olt, x, zero);
    if complement {
        // Near zero 1 − erf; far: erfc(|x|), or 2 − erfc(|x|) for x < 0.
        let c_near = e.dbin(BinaryOp::FSub, one, series);
        let c_neg = e.dbin(BinaryOp::FSub, two, tail);
        let far = e.dsel(x_neg, c_neg, tail);
        let r = e.dsel(near, c_near, far);
        // +inf → 0, −inf → 2, NaN → NaN (the fraction of inf is NaN).
        let bt = e.b.l.out.ty(Type::Bool);
        let inf = e.spirv(S::IsInf, bt, vec![x]);
        let lim = e.dsel(x_neg, two, zero);
        e.dsel(inf, lim, r)
    } else {
        let e_far = e.dbin(BinaryOp::FSub, one, tail);
        let ne_far = e.dbin(BinaryOp::FSub, zero, e_far);
        let far = e.dsel(x_neg, ne_far, e_far);
        let r = e.dsel(near, series, far);
        let bt = e.b.l.out.ty(Type::Bool);
        let inf = e.spirv(S::IsInf, bt, vec![x]);
        let mone = e.dconst(-1.0);
        let lim = e.dsel(x_neg, mone, one);
        e.dsel(inf, lim, r)
    }
}

/// Lanczos' sum A(z − 1) for z ≥ ½, and t = z − ½ + g.
fn lanczos(e: &mut E, z: Value) -> (Value, Value) {
    let one = e.dconst(1.0);
    let x = e.dbin(BinaryOp::FSub, z, one);
    let mut a = e.dconst(LANCZOS[0]);
    for (i, &c) in LANCZOS.iter().enumerate().skip(1) {
        let ii = e.dconst(i as f64);
        let d = e.dbin(BinaryOp::FAdd, x, ii);
        let c = e.dconst(c);
        let q = e.dbin(BinaryOp::FDiv, c, d);
        a = e.dbin(BinaryOp::FAdd, a, q);
    }
    let g = e.dconst(LANCZOS_G + 0.5);
    let t = e.dbin(BinaryOp::FAdd, x, g);
    (a, t)
}

/// log Γ(z) for z ≥ ½: ½ log 2π + (z − ½) log t − t + log A.
fn lgamma_pos(e: &mut E, z: Value) -> Value {
    let (a, t) = lanczos(e, z);
    let half = e.dconst(0.5);
    let zh = e.dbin(BinaryOp::FSub, z, half);
    let lt = log_d(e, t);
    let p = e.dbin(BinaryOp::FMul, zh, lt);
    let p = e.dbin(BinaryOp::FSub, p, t);
    let la = log_d(e, a);
    let p = e.dbin(BinaryOp::FAdd, p, la);
    let c = e.dconst(0.5 * (2.0 * PI).ln());
    e.dbin(BinaryOp::FAdd, p, c)
}

fn tgamma_d(e: &mut E, x: Value) -> Value {
    // Γ(z) = exp(log Γ(z)) for z ≥ ½ (beyond 172 the float is long infinite: clamped).
    let half = e.dconst(0.5);
    let one = e.dconst(1.0);
    let cap = e.dconst(172.0);
    let dt = e.dt();
    let xc = e.glsl(G::NMin, dt, vec![x, cap]);
    let lg = lgamma_pos(e, xc);
    let pos = exp_d(e, lg);
    // Below ½: π / (sin(πx) Γ(1 − x)).
    let omx = e.dbin(BinaryOp::FSub, one, x);
    let omx = e.glsl(G::NMin, dt, vec![omx, cap]);
    let lg1 = lgamma_pos(e, omx);
    let g1 = exp_d(e, lg1);
    let s = sinpi_d(e, x);
    let den = e.dbin(BinaryOp::FMul, s, g1);
    let pi = e.dconst(PI);
    let refl = e.dbin(BinaryOp::FDiv, pi, den);
    let low = e.dcmp(FloatPredicate::Olt, x, half);
    let r = e.dsel(low, refl, pos);
    // Poles: ±0 → ±inf; negative integers and −inf → NaN; +inf → +inf.
    let zero = e.dconst(0.0);
    let is_zero = e.dcmp(FloatPredicate::Oeq, x, zero);
    let inf = e.dconst(f64::INFINITY);
    // 1/x: the infinity with the zero's sign.
    let signed_inf = e.dbin(BinaryOp::FDiv, one, x);
    let r = e.dsel(is_zero, signed_inf, r);
    let tr = e.dglsl(G::Trunc, x);
    let int = e.dcmp(FloatPredicate::Oeq, tr, x);
    let neg = e.dcmp(FloatPredicate::Olt, x, zero);
    let bt = e.b.l.out.ty(Type::Bool);
    let pole = e.spirv(S::LogicalAnd, bt, vec![int, neg]);
    let nan = e.dconst(f64::NAN);
    let r = e.dsel(pole, nan, r);
    let pinf = e.dcmp(FloatPredicate::Oeq, x, inf);
    e.dsel(pinf, inf, r)
}

/// (log |Γ(x)|, sign of Γ(x) as a double ±1).
fn lgamma_d(e: &mut E, x: Value) -> (Value, Value) {
    let half = e.dconst(0.5);
    let one = e.dconst(1.0);
    let pos = lgamma_pos(e, x);
    // Below ½: log(π / |sin(πx)|) − log Γ(1 − x).
    let omx = e.dbin(BinaryOp::FSub, one, x);
    let lg1 = lgamma_pos(e, omx);
    let s = sinpi_d(e, x);
    let as_ = e.dglsl(G::FAbs, s);
    let pi = e.dconst(PI);
    let q = e.dbin(BinaryOp::FDiv, pi, as_);
    let lq = log_d(e, q);
    let refl = e.dbin(BinaryOp::FSub, lq, lg1);
    let low = e.dcmp(FloatPredicate::Olt, x, half);
    let r = e.dsel(low, refl, pos);
    lgamma_ends(e, x, r, s, low)
}

/// lgamma's result `r` of double `x` with its poles and ends as C99 says (non-positive
/// integers and ±∞ give +∞, NaN stays NaN), and the sign of Γ(x) as ±1.0: sin(πx)'s (`s`)
/// where the reflection made `r` (`reflected`), +1 elsewhere and at the poles and ends.
/// Shared by the half/float bodies and the double ones (`gamma_double`).
pub(super) fn lgamma_ends(
    e: &mut E,
    x: Value,
    r: Value,
    s: Value,
    reflected: Value,
) -> (Value, Value) {
    let zero = e.dconst(0.0);
    let one = e.dconst(1.0);
    let bt = e.b.l.out.ty(Type::Bool);
    let fl = e.dglsl(G::Floor, x);
    let int = e.dcmp(FloatPredicate::Oeq, fl, x);
    let nonpos = e.dcmp(FloatPredicate::Ole, x, zero);
    let pole = e.spirv(S::LogicalAnd, bt, vec![int, nonpos]);
    let is_inf = e.spirv(S::IsInf, bt, vec![x]);
    let special = e.spirv(S::LogicalOr, bt, vec![pole, is_inf]);
    let inf = e.dconst(f64::INFINITY);
    let r = e.dsel(special, inf, r);
    let nan = e.spirv(S::IsNan, bt, vec![x]);
    let r = e.dsel(nan, x, r);
    let neg_s = e.dcmp(FloatPredicate::Olt, s, zero);
    let mone = e.dconst(-1.0);
    let sg = e.dsel(neg_s, mone, one);
    let sg = e.dsel(reflected, sg, one);
    let sg = e.dsel(special, one, sg);
    (r, sg)
}

/// The gamma functions of double, lane by lane (`gamma_double`); `lgamma_r`'s signs stored
/// as the ints `args[1]` points to.
fn gamma_double(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Result<Value> {
    let failed = std::cell::RefCell::new(None);
    let signs = std::cell::RefCell::new(Vec::new());
    let v = e.lanewise(
        ret,
        &args[..1],
        |e, lanes, _| match super::gamma_double::gamma(e, op, lanes[0]) {
            Ok((r, s)) => {
                signs.borrow_mut().extend(s);
                r
            }
            Err(err) => {
                failed.borrow_mut().get_or_insert(err);
                lanes[0]
            }
        },
    );
    if let Some(err) = failed.into_inner() {
        return Err(err);
    }
    if op == C::lgamma_r {
        let st =
            e.b.pointee_of(args[1])
                .ok_or_else(|| Error::internal("lgamma_r's sign output is not a pointer"))?;
        let et = e.b.l.out.scalar_of(st);
        let ints: Vec<Value> = signs
            .into_inner()
            .into_iter()
            .map(|s| {
                e.b.push(
                    et,
                    Op::Builtin {
                        builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
                        args: vec![s],
                    },
                )
            })
            .collect();
        let s = e.compose(st, ints);
        e.b.store(args[1], s, None, false)?;
    }
    Ok(v)
}
