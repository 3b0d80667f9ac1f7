//! Builtins that take a float apart and store one part through their pointer argument:
//! `modf`, `fract` and `frexp`. All three are exact, for half, float and double and their
//! vectors.

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::diag::Result;
use crate::ir::{BinaryOp, CastOp, ConstantKind, ConvertKind, Handle, IntPredicate, Op, Sign};
use crate::ir::{FloatPredicate, Type, Value};

use super::{copysign, E};
use crate::vulkan::emit::plain;

/// `modf(x, iptr)`: the integral part to `*iptr` and the rest, with the sign of x;
/// infinities give ±0 and themselves.
pub(super) fn modf(e: &mut E, args: &[Value], ret: Handle<Type>) -> Result<Value> {
    let t = e.glsl(G::Trunc, ret, vec![args[0]]);
    let d = e.bin(BinaryOp::FSub, ret, args[0], t);
    let bt = e.bools(ret);
    let inf = e.spirv(S::IsInf, bt, vec![args[0]]);
    let zero = e.float_const(ret, 0.0);
    let d = e.select(ret, inf, zero, d);
    let r = copysign(e, ret, d, args[0]);
    e.b.store(args[1], t, None, false)?;
    Ok(r)
}

/// `fract(x, iptr)`: fmin(x - floor(x), the largest float below 1), floor(x) to `*iptr`.
pub(super) fn fract(e: &mut E, args: &[Value], ret: Handle<Type>) -> Result<Value> {
    let fl = e.glsl(G::Floor, ret, vec![args[0]]);
    let d = e.bin(BinaryOp::FSub, ret, args[0], fl);
    let below_one = match e.width(ret) {
        16 => e.splat(ret, ConstantKind::Float(0x3bff)),
        32 => e.splat(ret, ConstantKind::Float(0x3f7f_ffff)),
        _ => e.splat(ret, ConstantKind::Float(0x3fef_ffff_ffff_ffff)),
    };
    let r = e.glsl(G::NMin, ret, vec![d, below_one]);
    // A NaN stays NaN (NMin would give the other operand).
    let bt = e.bools(ret);
    let nan = e.spirv(S::IsNan, bt, vec![args[0]]);
    let r = e.select(ret, nan, args[0], r);
    // fract(±∞) is ±0 (OpenCL C 7.5.1); ∞ − ∞ would be NaN.
    let inf = e.spirv(S::IsInf, bt, vec![args[0]]);
    let zero = e.splat(ret, ConstantKind::Float(0));
    let signed_zero = super::specials::with_sign_of(e, zero, args[0]);
    let r = e.select(ret, inf, signed_zero, r);
    e.b.store(args[1], fl, None, false)?;
    Ok(r)
}

/// A float type's format, and the integer types its fields are worked in.
pub(super) struct Format {
    pub width: u32,
    pub mbits: u64,
    pub bias: i64,
    /// The same-width integer type, a 32-bit one and the bool type (lanes as the float's).
    pub it: Handle<Type>,
    pub et: Handle<Type>,
    pub bt: Handle<Type>,
}

/// A float's fields, from its bits.
pub(super) struct Parts {
    /// The sign bit, in place.
    pub sign: Value,
    /// True for zero, infinity and NaN.
    pub special: Value,
    /// x = (1 + fraction / 2^mbits) · 2^exponent, subnormals normalized: `fraction` in the
    /// same-width integer type, `exponent` a 32-bit integer. A subnormal's significand is
    /// converted to a float of the same type (exact: it has fewer bits than the format's
    /// precision), which normalizes it without a float multiplication a device could flush to
    /// zero; its exponent is then corrected by the scale that conversion implied.
    pub fraction: Value,
    pub exponent: Value,
}

pub(super) fn format(e: &mut E, t: Handle<Type>) -> Format {
    let width = e.width(t);
    let (mbits, bias) = match width {
        16 => (10, 15),
        32 => (23, 127),
        _ => (52, 1023),
    };
    Format {
        width,
        mbits,
        bias,
        it: e.ints(t, width),
        et: e.ints(t, 32),
        bt: e.bools(t),
    }
}

pub(super) fn parts(e: &mut E, f: &Format, x: Value) -> Parts {
    let (it, et, bt, mbits, bias) = (f.it, f.et, f.bt, f.mbits, f.bias);
    let t = e.b.ty_of(x);
    let k = |e: &mut E, v: u64| e.splat(it, ConstantKind::Int(v));
    let ke = |e: &mut E, v: i64| e.splat(et, ConstantKind::Int(v as u32 as u64));
    let bits = e.cast(CastOp::Bitcast, it, x);
    let emask = (1u64 << (f.width as u64 - 1 - mbits)) - 1;
    let (shift, emask_v, mmask_v) = (k(e, mbits), k(e, emask), k(e, (1u64 << mbits) - 1));
    let sign = k(e, 1u64 << (f.width - 1));
    let sign = e.bin(BinaryOp::And, it, bits, sign);
    let field = |e: &mut E, b: Value| {
        let s = e.bin(BinaryOp::LShr, it, b, shift);
        e.bin(BinaryOp::And, it, s, emask_v)
    };
    let ex = field(e, bits);
    let man = e.bin(BinaryOp::And, it, bits, mmask_v);
    let zero = k(e, 0);
    let subnormal = e.icmp(IntPredicate::Eq, bt, ex, zero);
    let y = e.b.push(
        t,
        Op::Builtin {
            builtin: plain(ConvertKind::Int(Sign::Unsigned), ConvertKind::Float),
            args: vec![man],
        },
    );
    let ybits = e.cast(CastOp::Bitcast, it, y);
    let src = e.select(it, subnormal, ybits, bits);
    let fraction = e.bin(BinaryOp::And, it, src, mmask_v);
    let exs = field(e, src);
    let exs = match f.width {
        16 => e.cast(CastOp::ZExt, et, exs),
        32 => exs,
        _ => e.cast(CastOp::Trunc, et, exs),
    };
    let unbias = ke(e, bias);
    let exponent = e.bin(BinaryOp::Sub, et, exs, unbias);
    let scale = ke(e, 1 - bias - mbits as i64);
    let none = ke(e, 0);
    let adj = e.select(et, subnormal, scale, none);
    let exponent = e.bin(BinaryOp::Add, et, exponent, adj);
    let top = e.icmp(IntPredicate::Eq, bt, ex, emask_v);
    let no_man = e.icmp(IntPredicate::Eq, bt, man, zero);
    let is_zero = e.spirv(S::LogicalAnd, bt, vec![subnormal, no_man]);
    let special = e.spirv(S::LogicalOr, bt, vec![top, is_zero]);
    Parts {
        sign,
        special,
        fraction,
        exponent,
    }
}

/// `frexp(x, exp)`: the mantissa in [0.5, 1) with the sign of x, and the exponent to `*exp`;
/// zero, infinity and NaN give themselves and exponent 0 (OpenCL's definition). Worked on
/// the bits (`parts`).
pub(super) fn frexp(e: &mut E, args: &[Value], ret: Handle<Type>) -> Result<Value> {
    let x = args[0];
    let f = format(e, ret);
    let p = parts(e, &f, x);
    let one = e.splat(f.et, ConstantKind::Int(1));
    let exp = e.bin(BinaryOp::Add, f.et, p.exponent, one);
    // The mantissa: the fraction under the exponent of 0.5, with x's sign.
    let half_exp = e.splat(f.it, ConstantKind::Int(((f.bias - 1) as u64) << f.mbits));
    let m = e.bin(BinaryOp::Or, f.it, p.fraction, half_exp);
    let m = e.bin(BinaryOp::Or, f.it, m, p.sign);
    let m = e.cast(CastOp::Bitcast, ret, m);
    let r = e.select(ret, p.special, x, m);
    let none = e.splat(f.et, ConstantKind::Int(0));
    let exp = e.select(f.et, p.special, none, exp);
    e.b.store(args[1], exp, None, false)?;
    Ok(r)
}

/// `ldexp(x, n)`: x · 2^n rounded once (OpenCL: correctly rounded). Float and double are
/// scaled on their bits, so that no device flushes a subnormal result to zero (NVIDIA's
/// does for float multiplications): the significand and exponent of x (a subnormal's
/// normalized through an exact integer conversion, as in `frexp`), the exponent moved by
/// n, and a result below the normal range shifted into a subnormal, rounded to nearest
/// even in integers. A half is scaled in float, exactly, and rounded to half once.
pub(super) fn ldexp(e: &mut E, args: &[Value], ret: Handle<Type>) -> Result<Value> {
    let w = e.width(ret);
    let et = e.ints(ret, 32);
    let n = e.broadcast(et, args[1]);
    if w == 16 {
        let ft = e.floats(ret, 32);
        let x = e.fconvert(ft, args[0]);
        let lo = e.splat(et, ConstantKind::Int((-64i64) as u32 as u64));
        let hi = e.splat(et, ConstantKind::Int(64));
        let n = e.glsl(G::SClamp, et, vec![n, lo, hi]);
        let p = pow2(e, n, ft, 127, 23);
        let y = e.bin(BinaryOp::FMul, ft, x, p);
        return Ok(e.fconvert(ret, y));
    }
    let x = args[0];
    let fmt = format(e, ret);
    let (it, bt, mbits, bias) = (fmt.it, fmt.bt, fmt.mbits, fmt.bias);
    let k = |e: &mut E, v: u64| e.splat(it, ConstantKind::Int(v));
    let ke = |e: &mut E, v: i64| e.splat(et, ConstantKind::Int(v as u32 as u64));
    let to_it = |e: &mut E, v: Value| {
        if w == 32 {
            v
        } else {
            e.cast(CastOp::SExt, it, v)
        }
    };
    let p = parts(e, &fmt, x);
    let (frac, big_e, sign) = (p.fraction, p.exponent, p.sign);
    let shift = k(e, mbits);
    let emask = (1u64 << (w as u64 - 1 - mbits)) - 1;
    let lead = k(e, 1u64 << mbits);
    let sig = e.bin(BinaryOp::Or, it, frac, lead);
    let unbias = ke(e, bias);
    let zero = k(e, 0);
    // Moved by n (clamped far beyond both ends of the range, so the sum cannot wrap).
    let lim = 4 * bias + 2 * mbits as i64;
    let (lo, hi) = (ke(e, -lim), ke(e, lim));
    let n = e.glsl(G::SClamp, et, vec![n, lo, hi]);
    let e2 = e.bin(BinaryOp::Add, et, big_e, n);

    // A normal result: the new exponent over the same fraction.
    let biased = e.bin(BinaryOp::Add, et, e2, unbias);
    let biased = to_it(e, biased);
    let biased = e.bin(BinaryOp::Shl, it, biased, shift);
    let normal = e.bin(BinaryOp::Or, it, biased, frac);
    // Beyond the largest: infinity.
    let inf = k(e, emask << mbits);
    // Below the smallest normal: S shifted right by (1 - bias) - e2, rounded to nearest even
    // (a shift past mbits + 2 leaves less than half the smallest subnormal: zero).
    let min_e = ke(e, 1 - bias);
    let sh = e.bin(BinaryOp::Sub, et, min_e, e2);
    let (one_e, cap) = (ke(e, 1), ke(e, mbits as i64 + 2));
    let sh = e.glsl(G::SClamp, et, vec![sh, one_e, cap]);
    let sh = to_it(e, sh);
    let q = e.bin(BinaryOp::LShr, it, sig, sh);
    let one = k(e, 1);
    let unit = e.bin(BinaryOp::Shl, it, one, sh);
    let rmask = e.bin(BinaryOp::Sub, it, unit, one);
    let rem = e.bin(BinaryOp::And, it, sig, rmask);
    let half = e.bin(BinaryOp::LShr, it, unit, one);
    let above = e.icmp(IntPredicate::Ugt, bt, rem, half);
    let tie = e.icmp(IntPredicate::Eq, bt, rem, half);
    let odd = e.bin(BinaryOp::And, it, q, one);
    let odd = e.icmp(IntPredicate::Ne, bt, odd, zero);
    let tie_odd = e.spirv(S::LogicalAnd, bt, vec![tie, odd]);
    let up = e.spirv(S::LogicalOr, bt, vec![above, tie_odd]);
    let q_up = e.bin(BinaryOp::Add, it, q, one);
    let small = e.select(it, up, q_up, q);

    let bmax = ke(e, bias);
    let over = e.icmp(IntPredicate::Sgt, bt, e2, bmax);
    let under = e.icmp(IntPredicate::Slt, bt, e2, min_e);
    let r = e.select(it, under, small, normal);
    let r = e.select(it, over, inf, r);
    let r = e.bin(BinaryOp::Or, it, r, sign);
    let r = e.cast(CastOp::Bitcast, ret, r);
    // Zero, infinity and NaN are themselves.
    Ok(e.select(ret, p.special, x, r))
}

/// 2^n as a float of `t` (exponent bias `bias`, `mbits` fraction bits), for n in the
/// format's normal range.
fn pow2(e: &mut E, n: Value, t: Handle<Type>, bias: i64, mbits: u64) -> Value {
    let w = e.width(t);
    let ft_int = e.ints(t, w);
    let b = e.splat(ft_int, ConstantKind::Int(bias as u64));
    let sh = e.splat(ft_int, ConstantKind::Int(mbits));
    let v = e.bin(BinaryOp::Add, ft_int, n, b);
    let v = e.bin(BinaryOp::Shl, ft_int, v, sh);
    e.cast(CastOp::Bitcast, t, v)
}

/// A positive normal or subnormal float of any width as m·2^k, m in [√½, √2): (m, k as a
/// float of x's type), both exact.
pub(super) fn mantissa_exponent(e: &mut E, x: Value) -> (Value, Value) {
    let t = e.b.ty_of(x);
    let f = format(e, t);
    let p = parts(e, &f, x);
    let one_bits = e.splat(f.it, ConstantKind::Int((f.bias as u64) << f.mbits));
    let mb = e.bin(BinaryOp::Or, f.it, p.fraction, one_bits);
    let m = e.cast(CastOp::Bitcast, t, mb);
    let ex = e.b.push(
        t,
        Op::Builtin {
            builtin: plain(ConvertKind::Int(Sign::Signed), ConvertKind::Float),
            args: vec![p.exponent],
        },
    );
    let sqrt2 = e.float_const(t, std::f64::consts::SQRT_2);
    let high = e.fcmp(FloatPredicate::Ogt, f.bt, m, sqrt2);
    let half = e.float_const(t, 0.5);
    let mh = e.bin(BinaryOp::FMul, t, m, half);
    let m = e.select(t, high, mh, m);
    let one = e.float_const(t, 1.0);
    let ex1 = e.bin(BinaryOp::FAdd, t, ex, one);
    (m, e.select(t, high, ex1, ex))
}
