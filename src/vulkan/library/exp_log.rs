//! Exponentials, logarithms, powers, roots and the hyperbolic functions of half and float,
//! computed in double and rounded once (Vulkan's own `exp`, `log` and `pow` are far from
//! OpenCL's 3 and 16 ulp, and GLSL.std.450 has them for 32-bit floats only). Each lane is
//! computed on its own (`E::lanewise`).
//!
//! The double cores (relative error about 2^-50, so the float result is within an ulp of
//! correctly rounded):
//! * `exp_d`: x = k·ln 2 + r, |r| ≤ ln 2 / 2 (ln 2 in two parts, the first exact times k),
//!   e^r by its Taylor series to r^13, times 2^k built from the bits.
//! * `log_d`: x = m·2^e with m in [√½, √2), log m = 2 atanh((m − 1)/(m + 1)) by its series
//!   to s^21, plus e·ln 2.
//! * Small arguments where a formula cancels (`expm1`, `log1p`, `sinh`, `tanh`, `asinh`,
//!   `atanh`) use their own series.
//!
//! The special cases (zeros, infinities, NaNs, negative bases) are C99's, as OpenCL says.

use spirv::{GlslStd450Op as G, Op as S};

use crate::ir::builtin::CLOp as C;
use crate::ir::{BinaryOp, CastOp, ConstantKind, FloatPredicate, Handle, IntPredicate, Type};
use crate::ir::{ConvertKind, Op, Sign, Value};

use super::E;
use crate::vulkan::emit::plain;

/// ln 2 in two parts (fdlibm's): the first with 32 significant bits.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);

/// The library's body for `op` of half or float arguments, if it is one of this family.
pub(super) fn exp_log(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Option<Value> {
    if e.width(ret) == 64 {
        return super::double::math(e, op, args, ret);
    }
    if !matches!(
        e.b.l.out.types[e.b.l.out.scalar_of(ret)],
        Type::Float { .. }
    ) {
        return None;
    }
    let f: fn(&mut E, &[Value]) -> Value = match op {
        C::exp => |e, a| exp_d(e, a[0]),
        C::exp2 => |e, a| {
            let k = e.dconst(std::f64::consts::LN_2);
            let t = e.dbin(BinaryOp::FMul, a[0], k);
            exp_d(e, t)
        },
        C::exp10 => |e, a| {
            let k = e.dconst(std::f64::consts::LN_10);
            let t = e.dbin(BinaryOp::FMul, a[0], k);
            exp_d(e, t)
        },
        C::expm1 => |e, a| expm1_d(e, a[0]),
        C::log => |e, a| log_d(e, a[0]),
        C::log2 => |e, a| {
            let l = log_d(e, a[0]);
            let k = e.dconst(std::f64::consts::LOG2_E);
            e.dbin(BinaryOp::FMul, l, k)
        },
        C::log10 => |e, a| {
            let l = log_d(e, a[0]);
            let k = e.dconst(std::f64::consts::LOG10_E);
            e.dbin(BinaryOp::FMul, l, k)
        },
        C::log1p => |e, a| log1p_d(e, a[0]),
        C::pow => |e, a| pow_d(e, a[0], a[1], Pow::Pow),
        C::powr => |e, a| pow_d(e, a[0], a[1], Pow::Powr),
        C::pown => |e, a| pow_d(e, a[0], a[1], Pow::Pow),
        C::rootn => |e, a| rootn_d(e, a[0], a[1]),
        C::rsqrt => |e, a| {
            let s = e.dglsl(G::Sqrt, a[0]);
            let one = e.dconst(1.0);
            e.dbin(BinaryOp::FDiv, one, s)
        },
        C::cbrt => |e, a| {
            let ax = e.dglsl(G::FAbs, a[0]);
            let l = log_d(e, ax);
            let three = e.dconst(3.0);
            let l = e.dbin(BinaryOp::FDiv, l, three);
            let r = exp_d(e, l);
            with_sign_of(e, r, a[0])
        },
        C::hypot => |e, a| {
            let x2 = e.dbin(BinaryOp::FMul, a[0], a[0]);
            let y2 = e.dbin(BinaryOp::FMul, a[1], a[1]);
            let s = e.dbin(BinaryOp::FAdd, x2, y2);
            let r = e.dglsl(G::Sqrt, s);
            // An infinite operand gives +inf even beside a NaN.
            let inf = e.dconst(f64::INFINITY);
            let bt = e.b.l.out.ty(Type::Bool);
            let xi = e.spirv(S::IsInf, bt, vec![a[0]]);
            let yi = e.spirv(S::IsInf, bt, vec![a[1]]);
            let either = e.spirv(S::LogicalOr, bt, vec![xi, yi]);
            let dt = e.b.ty_of(r);
            e.select(dt, either, inf, r)
        },
        C::sinh => |e, a| sinh_d(e, a[0]),
        C::cosh => |e, a| {
            let ax = e.dglsl(G::FAbs, a[0]);
            let big = exp_d(e, ax);
            let one = e.dconst(1.0);
            let small = e.dbin(BinaryOp::FDiv, one, big);
            let s = e.dbin(BinaryOp::FAdd, big, small);
            let half = e.dconst(0.5);
            e.dbin(BinaryOp::FMul, s, half)
        },
        C::tanh => |e, a| tanh_d(e, a[0]),
        C::asinh => |e, a| asinh_d(e, a[0]),
        C::acosh => |e, a| {
            // log(x + sqrt(x² − 1)), NaN below 1.
            let x2 = e.dbin(BinaryOp::FMul, a[0], a[0]);
            let one = e.dconst(1.0);
            let d = e.dbin(BinaryOp::FSub, x2, one);
            let s = e.dglsl(G::Sqrt, d);
            let u = e.dbin(BinaryOp::FAdd, a[0], s);
            log_d(e, u)
        },
        C::atanh => |e, a| atanh_d(e, a[0]),
        _ => return None,
    };
    Some(e.lanewise(ret, args, |e, lanes, et| {
        // Arguments to double (integer ones exactly, from their sign), the result back.
        let wide: Vec<Value> = lanes.iter().map(|&v| e.as_double(v)).collect();
        let r = f(e, &wide);
        e.fconvert(et, r)
    }))
}

impl E<'_, '_, '_> {
    pub(super) fn dt(&mut self) -> Handle<Type> {
        self.b.l.out.ty(Type::Float { width: 64 })
    }
    pub(super) fn dconst(&mut self, v: f64) -> Value {
        let dt = self.dt();
        self.splat(dt, ConstantKind::Float(v.to_bits()))
    }
    pub(super) fn dbin(&mut self, op: BinaryOp, x: Value, y: Value) -> Value {
        let dt = self.dt();
        self.bin(op, dt, x, y)
    }
    pub(super) fn dglsl(&mut self, g: G, x: Value) -> Value {
        let dt = self.dt();
        self.glsl(g, dt, vec![x])
    }
    pub(super) fn dcmp(&mut self, p: FloatPredicate, x: Value, y: Value) -> Value {
        let bt = self.b.l.out.ty(Type::Bool);
        self.fcmp(p, bt, x, y)
    }
    pub(super) fn dsel(&mut self, c: Value, x: Value, y: Value) -> Value {
        let dt = self.dt();
        self.select(dt, c, x, y)
    }
    pub(super) fn or(&mut self, x: Value, y: Value) -> Value {
        let bt = self.b.l.out.ty(Type::Bool);
        self.spirv(S::LogicalOr, bt, vec![x, y])
    }
    pub(super) fn and(&mut self, x: Value, y: Value) -> Value {
        let bt = self.b.l.out.ty(Type::Bool);
        self.spirv(S::LogicalAnd, bt, vec![x, y])
    }
    /// A scalar float or integer (taken as signed) as a double.
    pub(super) fn as_double(&mut self, v: Value) -> Value {
        let dt = self.dt();
        let t = self.b.ty_of(v);
        match self.b.l.out.types[t] {
            Type::Float { .. } => self.fconvert(dt, v),
            _ => self.b.push(
                dt,
                Op::Builtin {
                    builtin: plain(ConvertKind::Int(Sign::Signed), ConvertKind::Float),
                    args: vec![v],
                },
            ),
        }
    }
    /// Σ c_i · x^i (coefficients from the constant term up), by Horner's rule.
    pub(super) fn poly(&mut self, x: Value, coeffs: &[f64]) -> Value {
        let mut acc = self.dconst(coeffs[coeffs.len() - 1]);
        for &c in coeffs.iter().rev().skip(1) {
            let m = self.dbin(BinaryOp::FMul, acc, x);
            let c = self.dconst(c);
            acc = self.dbin(BinaryOp::FAdd, m, c);
        }
        acc
    }
}

/// `near` where |x| < `k` (a series, exact there), `far` elsewhere (a formula that cancels
/// near zero).
fn below(e: &mut E, x: Value, k: f64, near: Value, far: Value) -> Value {
    let ax = e.dglsl(G::FAbs, x);
    let k = e.dconst(k);
    let small = e.dcmp(FloatPredicate::Olt, ax, k);
    e.dsel(small, near, far)
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

/// e^x in double for the arguments a float function needs (clamped to ±200, where the float
/// result is long since 0 or infinite); NaN stays NaN.
pub(super) fn exp_d(e: &mut E, x: Value) -> Value {
    let lim = e.dconst(200.0);
    let nlim = e.dconst(-200.0);
    let over = e.dcmp(FloatPredicate::Ogt, x, lim);
    let under = e.dcmp(FloatPredicate::Olt, x, nlim);
    let xc = e.dsel(over, lim, x);
    let xc = e.dsel(under, nlim, xc);
    let log2e = e.dconst(std::f64::consts::LOG2_E);
    let t = e.dbin(BinaryOp::FMul, xc, log2e);
    let k = e.dglsl(G::RoundEven, t);
    let hi = e.dconst(LN2_HI);
    let lo = e.dconst(LN2_LO);
    let khi = e.dbin(BinaryOp::FMul, k, hi);
    let r = e.dbin(BinaryOp::FSub, xc, khi);
    let klo = e.dbin(BinaryOp::FMul, k, lo);
    let r = e.dbin(BinaryOp::FSub, r, klo);
    let p = e.poly(r, &inverse_factorials(13));
    let scale = pow2_d(e, k);
    let res = e.dbin(BinaryOp::FMul, p, scale);
    let bt = e.b.l.out.ty(Type::Bool);
    let nan = e.spirv(S::IsNan, bt, vec![x]);
    e.dsel(nan, x, res)
}

/// 2^k for an integral double k in the normal range.
fn pow2_d(e: &mut E, k: Value) -> Value {
    let i64t = e.b.l.out.int_type(64);
    let ki = e.b.push(
        i64t,
        Op::Builtin {
            builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
            args: vec![k],
        },
    );
    let bias = e.splat(i64t, ConstantKind::Int(1023));
    let b = e.bin(BinaryOp::Add, i64t, ki, bias);
    let sh = e.splat(i64t, ConstantKind::Int(52));
    let b = e.bin(BinaryOp::Shl, i64t, b, sh);
    let dt = e.dt();
    e.cast(CastOp::Bitcast, dt, b)
}

fn expm1_d(e: &mut E, x: Value) -> Value {
    // Near zero the series (no cancellation); elsewhere e^x − 1.
    let mut c = inverse_factorials(14);
    c[0] = 0.0;
    let series = e.poly(x, &c);
    let big = exp_d(e, x);
    let one = e.dconst(1.0);
    let big = e.dbin(BinaryOp::FSub, big, one);
    below(e, x, 0.35, series, big)
}

/// x = m·2^k for a positive normal double x: m in [√½, √2) and k as a double (from the bits).
pub(super) fn mantissa_exponent(e: &mut E, x: Value) -> (Value, Value) {
    let i64t = e.b.l.out.int_type(64);
    let dt = e.dt();
    let bits = e.cast(CastOp::Bitcast, i64t, x);
    let c52 = e.splat(i64t, ConstantKind::Int(52));
    let emask = e.splat(i64t, ConstantKind::Int(0x7ff));
    let ex = e.bin(BinaryOp::LShr, i64t, bits, c52);
    let ex = e.bin(BinaryOp::And, i64t, ex, emask);
    let bias = e.splat(i64t, ConstantKind::Int(1023));
    let ex = e.bin(BinaryOp::Sub, i64t, ex, bias);
    let ed = e.b.push(
        dt,
        Op::Builtin {
            builtin: plain(ConvertKind::Int(Sign::Signed), ConvertKind::Float),
            args: vec![ex],
        },
    );
    let mmask = e.splat(i64t, ConstantKind::Int((1u64 << 52) - 1));
    let one_bits = e.splat(i64t, ConstantKind::Int(1023u64 << 52));
    let mb = e.bin(BinaryOp::And, i64t, bits, mmask);
    let mb = e.bin(BinaryOp::Or, i64t, mb, one_bits);
    let m = e.cast(CastOp::Bitcast, dt, mb);
    // m in [1, 2): above √2, halve it and count one more.
    let sqrt2 = e.dconst(std::f64::consts::SQRT_2);
    let high = e.dcmp(FloatPredicate::Ogt, m, sqrt2);
    let half = e.dconst(0.5);
    let mh = e.dbin(BinaryOp::FMul, m, half);
    let m = e.dsel(high, mh, m);
    let one = e.dconst(1.0);
    let ed1 = e.dbin(BinaryOp::FAdd, ed, one);
    (m, e.dsel(high, ed1, ed))
}

/// log x in double; NaN below zero, −inf at zero, +inf at +inf.
pub(super) fn log_d(e: &mut E, x: Value) -> Value {
    let (m, ed) = mantissa_exponent(e, x);
    let one = e.dconst(1.0);
    let num = e.dbin(BinaryOp::FSub, m, one);
    let den = e.dbin(BinaryOp::FAdd, m, one);
    let s = e.dbin(BinaryOp::FDiv, num, den);
    let s2 = e.dbin(BinaryOp::FMul, s, s);
    let c: Vec<f64> = (0..11).map(|i| 1.0 / (2 * i + 1) as f64).collect();
    let p = e.poly(s2, &c);
    let two = e.dconst(2.0);
    let lm = e.dbin(BinaryOp::FMul, s, p);
    let lm = e.dbin(BinaryOp::FMul, lm, two);
    let hi = e.dconst(LN2_HI);
    let lo = e.dconst(LN2_LO);
    let ehi = e.dbin(BinaryOp::FMul, ed, hi);
    let elo = e.dbin(BinaryOp::FMul, ed, lo);
    let rest = e.dbin(BinaryOp::FAdd, elo, lm);
    let r = e.dbin(BinaryOp::FAdd, ehi, rest);
    log_special(e, x, r)
}

/// log's answers for 0 (−inf), +inf, x < 0 and NaN (NaN); `r` elsewhere.
pub(super) fn log_special(e: &mut E, x: Value, r: Value) -> Value {
    let zero = e.dconst(0.0);
    let inf = e.dconst(f64::INFINITY);
    let ninf = e.dconst(f64::NEG_INFINITY);
    let nan = e.dconst(f64::NAN);
    let is_zero = e.dcmp(FloatPredicate::Oeq, x, zero);
    let is_inf = e.dcmp(FloatPredicate::Oeq, x, inf);
    let bad = e.dcmp(FloatPredicate::Ult, x, zero);
    let r = e.dsel(is_zero, ninf, r);
    let r = e.dsel(is_inf, inf, r);
    e.dsel(bad, nan, r)
}

fn log1p_d(e: &mut E, x: Value) -> Value {
    // Near zero the series x − x²/2 + x³/3 − …; elsewhere log(1 + x), exact in double for a
    // float x of this size.
    let c: Vec<f64> = (0..8)
        .map(|i| {
            if i == 0 {
                0.0
            } else if i % 2 == 1 {
                1.0 / i as f64
            } else {
                -1.0 / i as f64
            }
        })
        .collect();
    let series = e.poly(x, &c);
    let one = e.dconst(1.0);
    let u = e.dbin(BinaryOp::FAdd, one, x);
    let l = log_d(e, u);
    below(e, x, 1.0 / 1_048_576.0, series, l)
}

pub(super) fn with_sign_of(e: &mut E, r: Value, x: Value) -> Value {
    let zero = e.dconst(0.0);
    let i64t = e.b.l.out.int_type(64);
    let bits = e.cast(CastOp::Bitcast, i64t, x);
    let z = e.splat(i64t, ConstantKind::Int(0));
    let bt = e.b.l.out.ty(Type::Bool);
    let neg = e.icmp(IntPredicate::Slt, bt, bits, z);
    let nr = e.dbin(BinaryOp::FSub, zero, r);
    e.dsel(neg, nr, r)
}

#[derive(PartialEq)]
pub(super) enum Pow {
    Pow,
    Powr,
}

/// x^y (C99's special cases; `powr`'s own for `Powr`).
fn pow_d(e: &mut E, x: Value, y: Value, kind: Pow) -> Value {
    let ax = e.dglsl(G::FAbs, x);
    let l = log_d(e, ax);
    let t = e.dbin(BinaryOp::FMul, y, l);
    let r = exp_d(e, t);
    pow_special(e, x, y, r, kind)
}

/// C99's x^y (`powr`'s own for `Powr`) where its operands are special, `r` elsewhere.
pub(super) fn pow_special(e: &mut E, x: Value, y: Value, r: Value, kind: Pow) -> Value {
    let zero = e.dconst(0.0);
    let one = e.dconst(1.0);
    let nan = e.dconst(f64::NAN);
    let inf = e.dconst(f64::INFINITY);
    let y_zero = e.dcmp(FloatPredicate::Oeq, y, zero);
    let x_one = e.dcmp(FloatPredicate::Oeq, x, one);
    let ay = e.dglsl(G::FAbs, y);
    let y_inf = e.dcmp(FloatPredicate::Oeq, ay, inf);
    if kind == Pow::Powr {
        // powr: x < 0, 0^0, inf^0 and 1^inf are NaN.
        let x_neg = e.dcmp(FloatPredicate::Olt, x, zero);
        let x_zero = e.dcmp(FloatPredicate::Oeq, x, zero);
        let x_inf = e.dcmp(FloatPredicate::Oeq, x, inf);
        let zz = e.or(x_zero, x_inf);
        let zz = e.and(zz, y_zero);
        let one_inf = e.and(x_one, y_inf);
        let bad = e.or(x_neg, zz);
        let bad = e.or(bad, one_inf);
        return e.dsel(bad, nan, r);
    }
    // Integral and odd y (odd ones are below 2^53, where halving is exact).
    let ty = e.dglsl(G::Trunc, y);
    let y_int = e.dcmp(FloatPredicate::Oeq, ty, y);
    let half = e.dconst(0.5);
    let hy = e.dbin(BinaryOp::FMul, y, half);
    let thy = e.dglsl(G::Trunc, hy);
    let y_even = e.dcmp(FloatPredicate::Oeq, thy, hy);
    let bt = e.b.l.out.ty(Type::Bool);
    let not_even = e.spirv(S::LogicalNot, bt, vec![y_even]);
    let y_odd = e.and(y_int, not_even);
    // A negative base: the sign of an odd power, NaN for a non-integral finite one.
    let i64t = e.b.l.out.int_type(64);
    let bits = e.cast(CastOp::Bitcast, i64t, x);
    let z = e.splat(i64t, ConstantKind::Int(0));
    let x_neg = e.icmp(IntPredicate::Slt, bt, bits, z);
    let neg_odd = e.and(x_neg, y_odd);
    let nr = e.dbin(BinaryOp::FSub, zero, r);
    let r = e.dsel(neg_odd, nr, r);
    let x_lt0 = e.dcmp(FloatPredicate::Olt, x, zero);
    let not_int = e.spirv(S::LogicalNot, bt, vec![y_int]);
    let x_finite_neg = {
        let ninf = e.dconst(f64::NEG_INFINITY);
        let not_ninf = e.dcmp(FloatPredicate::One, x, ninf);
        e.and(x_lt0, not_ninf)
    };
    let y_finite = e.spirv(S::LogicalNot, bt, vec![y_inf]);
    let bad = e.and(x_finite_neg, not_int);
    let bad = e.and(bad, y_finite);
    let r = e.dsel(bad, nan, r);
    // (−1)^±inf, 1^y and x^0 are 1.
    let m1 = e.dconst(-1.0);
    let x_m1 = e.dcmp(FloatPredicate::Oeq, x, m1);
    let m1_inf = e.and(x_m1, y_inf);
    let ones = e.or(y_zero, x_one);
    let ones = e.or(ones, m1_inf);
    e.dsel(ones, one, r)
}

/// x^(1/n) for an integer n (C99-style special cases of OpenCL's rootn).
fn rootn_d(e: &mut E, x: Value, n: Value) -> Value {
    let ax = e.dglsl(G::FAbs, x);
    let l = log_d(e, ax);
    let t = e.dbin(BinaryOp::FDiv, l, n);
    let r = exp_d(e, t);
    rootn_special(e, x, n, r)
}

/// OpenCL's rootn where its operands are special (odd roots keep x's sign, even ones of
/// x < 0 and n = 0 are NaN), `r` (|x|^(1/n)) elsewhere.
pub(super) fn rootn_special(e: &mut E, x: Value, n: Value, r: Value) -> Value {
    let zero = e.dconst(0.0);
    let nan = e.dconst(f64::NAN);
    let half = e.dconst(0.5);
    let hn = e.dbin(BinaryOp::FMul, n, half);
    let thn = e.dglsl(G::Trunc, hn);
    let n_odd = e.dcmp(FloatPredicate::One, thn, hn);
    // An odd root keeps x's sign (zeros and infinities too); an even one of x < 0 is NaN.
    let signed = with_sign_of(e, r, x);
    let r = e.dsel(n_odd, signed, r);
    let x_neg = e.dcmp(FloatPredicate::Olt, x, zero);
    let bt = e.b.l.out.ty(Type::Bool);
    let n_even = e.spirv(S::LogicalNot, bt, vec![n_odd]);
    let bad = e.and(x_neg, n_even);
    let n_zero = e.dcmp(FloatPredicate::Oeq, n, zero);
    let bad = e.or(bad, n_zero);
    e.dsel(bad, nan, r)
}

fn sinh_d(e: &mut E, x: Value) -> Value {
    // Near zero the odd series; elsewhere (e^x − e^−x) / 2.
    let c: Vec<f64> = inverse_factorials(15)
        .into_iter()
        .enumerate()
        .map(|(i, f)| if i % 2 == 1 { f } else { 0.0 })
        .collect();
    let series = e.poly(x, &c);
    let ex = exp_d(e, x);
    let one = e.dconst(1.0);
    let inv = e.dbin(BinaryOp::FDiv, one, ex);
    let d = e.dbin(BinaryOp::FSub, ex, inv);
    let half = e.dconst(0.5);
    let big = e.dbin(BinaryOp::FMul, d, half);
    below(e, x, 0.5, series, big)
}

fn tanh_d(e: &mut E, x: Value) -> Value {
    // expm1(2x) / (expm1(2x) + 2), ±1 beyond 20.
    let two = e.dconst(2.0);
    let x2 = e.dbin(BinaryOp::FMul, x, two);
    let m = expm1_d(e, x2);
    let den = e.dbin(BinaryOp::FAdd, m, two);
    let r = e.dbin(BinaryOp::FDiv, m, den);
    let one = e.dconst(1.0);
    let sone = with_sign_of(e, one, x);
    let ax = e.dglsl(G::FAbs, x);
    let k = e.dconst(20.0);
    let big = e.dcmp(FloatPredicate::Ogt, ax, k);
    e.dsel(big, sone, r)
}

/// The series of asinh (n = 0, 1, …: (−1)^n (2n)! / (4^n (n!)² (2n + 1)) x^(2n+1)).
fn asinh_series() -> Vec<f64> {
    let mut c = vec![0.0; 18];
    let mut a = 1.0f64; // (2n)! / (4^n (n!)^2)
    for n in 0..9 {
        if n > 0 {
            a *= (2 * n - 1) as f64 / (2 * n) as f64;
        }
        let sign = if n % 2 == 0 { 1.0 } else { -1.0 };
        c[2 * n + 1] = sign * a / (2 * n + 1) as f64;
    }
    c
}

fn asinh_d(e: &mut E, x: Value) -> Value {
    let series = e.poly(x, &asinh_series());
    let ax = e.dglsl(G::FAbs, x);
    let x2 = e.dbin(BinaryOp::FMul, ax, ax);
    let one = e.dconst(1.0);
    let u = e.dbin(BinaryOp::FAdd, x2, one);
    let s = e.dglsl(G::Sqrt, u);
    let v = e.dbin(BinaryOp::FAdd, ax, s);
    let l = log_d(e, v);
    let big = with_sign_of(e, l, x);
    below(e, x, 0.125, series, big)
}

fn atanh_d(e: &mut E, x: Value) -> Value {
    // Near zero x + x³/3 + x⁵/5 + …; elsewhere log((1 + x) / (1 − x)) / 2.
    let c: Vec<f64> = (0..18)
        .map(|i| if i % 2 == 1 { 1.0 / i as f64 } else { 0.0 })
        .collect();
    let series = e.poly(x, &c);
    let one = e.dconst(1.0);
    let num = e.dbin(BinaryOp::FAdd, one, x);
    let den = e.dbin(BinaryOp::FSub, one, x);
    let q = e.dbin(BinaryOp::FDiv, num, den);
    let l = log_d(e, q);
    let half = e.dconst(0.5);
    let big = e.dbin(BinaryOp::FMul, l, half);
    below(e, x, 0.125, series, big)
}
