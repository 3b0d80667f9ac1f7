//! Builtins that take a float apart and store one part through their pointer argument:
//! `modf`, `fract` and `frexp`. All three are exact, for half, float and double and their
//! vectors.

use spirv::{GlslStd450Op as G, Op as S};

use crate::diag::Result;
use crate::ir::{BinaryOp, CastOp, ConstantKind, ConvertKind, Handle, IntPredicate, Op, Sign};
use crate::ir::{Type, Value};

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
    e.b.store(args[1], fl, None, false)?;
    Ok(r)
}

/// `frexp(x, exp)`: the mantissa in [0.5, 1) with the sign of x, and the exponent to `*exp`;
/// zero, infinity and NaN give themselves and exponent 0 (OpenCL's definition).
///
/// Worked on the bits. A subnormal's mantissa is converted to a float of the same type
/// (exact: it has fewer bits than the format's precision), which normalizes it without a
/// float multiplication a device could flush to zero; its exponent is then corrected by the
/// scale that conversion implied.
pub(super) fn frexp(e: &mut E, args: &[Value], ret: Handle<Type>) -> Result<Value> {
    let x = args[0];
    let w = e.width(ret);
    let (mbits, bias): (u64, i64) = match w {
        16 => (10, 15),
        32 => (23, 127),
        _ => (52, 1023),
    };
    let emask = (1u64 << (w as u64 - 1 - mbits)) - 1;
    let mmask = (1u64 << mbits) - 1;
    let it = e.ints(ret, w);
    let et = e.ints(ret, 32);
    let bt = e.bools(ret);
    let k = |e: &mut E, v: u64| e.splat(it, ConstantKind::Int(v));
    let ke = |e: &mut E, v: i64| e.splat(et, ConstantKind::Int(v as u32 as u64));

    let bits = e.cast(CastOp::Bitcast, it, x);
    let shift = k(e, mbits);
    let emask_v = k(e, emask);
    let exponent = |e: &mut E, b: Value| {
        let s = e.bin(BinaryOp::LShr, it, b, shift);
        e.bin(BinaryOp::And, it, s, emask_v)
    };
    let ex = exponent(e, bits);
    let mmask_v = k(e, mmask);
    let man = e.bin(BinaryOp::And, it, bits, mmask_v);

    // A subnormal: its mantissa as a (normal) float, m · 2^(1 - bias - mbits) = x.
    let zero = k(e, 0);
    let sub = e.icmp(IntPredicate::Eq, bt, ex, zero);
    let y = e.b.push(
        ret,
        Op::Builtin {
            builtin: plain(ConvertKind::Int(Sign::Unsigned), ConvertKind::Float),
            args: vec![man],
        },
    );
    let ybits = e.cast(CastOp::Bitcast, it, y);
    let src = e.select(it, sub, ybits, bits);

    // The exponent: the biased one less (bias - 1), plus the subnormal's scale.
    let exs = exponent(e, src);
    let exs = match w {
        16 => e.cast(CastOp::ZExt, et, exs),
        32 => exs,
        _ => e.cast(CastOp::Trunc, et, exs),
    };
    let scale = ke(e, 1 - bias - mbits as i64);
    let none = ke(e, 0);
    let adj = e.select(et, sub, scale, none);
    let unbias = ke(e, bias - 1);
    let exp = e.bin(BinaryOp::Sub, et, exs, unbias);
    let exp = e.bin(BinaryOp::Add, et, exp, adj);

    // The mantissa: the source's fraction under the exponent of 0.5, with x's sign.
    let frac = e.bin(BinaryOp::And, it, src, mmask_v);
    let half_exp = k(e, ((bias - 1) as u64) << mbits);
    let m = e.bin(BinaryOp::Or, it, frac, half_exp);
    let sign = k(e, 1u64 << (w - 1));
    let sign = e.bin(BinaryOp::And, it, bits, sign);
    let m = e.bin(BinaryOp::Or, it, m, sign);
    let m = e.cast(CastOp::Bitcast, ret, m);

    // Zero, infinity and NaN: x itself and exponent 0.
    let special_e = e.icmp(IntPredicate::Eq, bt, ex, emask_v);
    let zero_x = e.icmp(IntPredicate::Eq, bt, man, zero);
    let zero_x = e.spirv(S::LogicalAnd, bt, vec![sub, zero_x]);
    let special = e.spirv(S::LogicalOr, bt, vec![special_e, zero_x]);
    let r = e.select(ret, special, x, m);
    let exp = e.select(et, special, none, exp);
    e.b.store(args[1], exp, None, false)?;
    Ok(r)
}

/// `ldexp(x, n)`: x · 2^n rounded once (OpenCL: correctly rounded). Float and double scale
/// in at most three multiplications by powers of two, the first two exact (the steps of
/// the classic `scalbn`: by 2^emax while n is above emax, by 2^(emin + precision) while it
/// is below emin); a half is scaled in float, exactly, and rounded to half once.
pub(super) fn ldexp(e: &mut E, args: &[Value], ret: Handle<Type>) -> Result<Value> {
    let w = e.width(ret);
    let it = e.ints(ret, 32);
    let n = e.broadcast(it, args[1]);
    if w == 16 {
        let ft = e.floats(ret, 32);
        let x = e.fconvert(ft, args[0]);
        let lo = e.splat(it, ConstantKind::Int((-64i64) as u32 as u64));
        let hi = e.splat(it, ConstantKind::Int(64));
        let n = e.glsl(G::SClamp, it, vec![n, lo, hi]);
        let p = pow2(e, n, ft, 127, 23);
        let y = e.bin(BinaryOp::FMul, ft, x, p);
        return Ok(e.fconvert(ret, y));
    }
    let (bias, mbits): (i64, u64) = if w == 32 { (127, 23) } else { (1023, 52) };
    let (emax, emin, p) = (bias, 1 - bias, mbits as i64 + 1);
    let bt = e.bools(ret);
    let kc = |e: &mut E, v: i64| e.splat(it, ConstantKind::Int(v as u32 as u64));
    let (emax_v, emin_v) = (kc(e, emax), kc(e, emin));
    let up = e.float_const(ret, 2f64.powi(emax as i32));
    let down = e.float_const(ret, 2f64.powi((emin + p) as i32));
    let (n_up, n_down) = (kc(e, emax), kc(e, emin + p));
    let (mut y, mut n) = (args[0], n);
    for _ in 0..2 {
        let big = e.icmp(IntPredicate::Sgt, bt, n, emax_v);
        let small = e.icmp(IntPredicate::Slt, bt, n, emin_v);
        let y_up = e.bin(BinaryOp::FMul, ret, y, up);
        let y_down = e.bin(BinaryOp::FMul, ret, y, down);
        let y_s = e.select(ret, small, y_down, y);
        y = e.select(ret, big, y_up, y_s);
        let nu = e.bin(BinaryOp::Sub, it, n, n_up);
        let nd = e.bin(BinaryOp::Sub, it, n, n_down);
        let n_s = e.select(it, small, nd, n);
        n = e.select(it, big, nu, n_s);
    }
    let n = e.glsl(G::SClamp, it, vec![n, emin_v, emax_v]);
    let factor = pow2(e, n, ret, bias, mbits);
    Ok(e.bin(BinaryOp::FMul, ret, y, factor))
}

/// 2^n as a float of `t` (exponent bias `bias`, `mbits` fraction bits), for n in the
/// format's normal range.
fn pow2(e: &mut E, n: Value, t: Handle<Type>, bias: i64, mbits: u64) -> Value {
    let w = e.width(t);
    let ft_int = e.ints(t, w);
    let n = if w == 64 {
        e.cast(CastOp::SExt, ft_int, n)
    } else {
        n
    };
    let b = e.splat(ft_int, ConstantKind::Int(bias as u64));
    let sh = e.splat(ft_int, ConstantKind::Int(mbits));
    let v = e.bin(BinaryOp::Add, ft_int, n, b);
    let v = e.bin(BinaryOp::Shl, ft_int, v, sh);
    e.cast(CastOp::Bitcast, t, v)
}
