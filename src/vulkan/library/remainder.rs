//! `fmod`, `remainder` and `remquo` of half and float, exact as OpenCL requires (0 ulp), and
//! `remquo`'s quotient bits as the Intel runtime gives them (the low 31 bits of the rounded
//! quotient's magnitude, with the sign of x/y).
//!
//! Long division in double, unrolled: each step divides by y scaled by a power of two that
//! leaves a quotient below 2^28, so that the quotient times the divisor (24 + 28 bits) and
//! the difference are exact in double's 53 bits; a rounded division is corrected by one.
//! Eleven steps cover a float's whole exponent range (276 binades, 27 a step); the twelfth
//! is a margin. The quotient's low 32 bits are summed as the steps find them.

use spirv::{GlslStd450Op as G, Op as S};

use crate::diag::{Error, Result};
use crate::ir::builtin::CLOp as C;
use crate::ir::{BinaryOp, CastOp, ConstantKind, ConvertKind, FloatPredicate, Handle};
use crate::ir::{IntPredicate, Op, Sign, Type, Value};

use super::E;
use crate::vulkan::emit::plain;

/// The steps of the long division (see the module's comment).
const STEPS: usize = 12;

/// `fmod`, `remainder` or `remquo` (`op`) of `args`, of type `ret`.
pub(super) fn remainder(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Result<Value> {
    let w = e.width(ret);
    if w == 64 {
        return Err(Error::unsupported(format!(
            "the OpenCL builtin {op:?} of double (the Vulkan builtin library computes it exactly \
             for half and float only)"
        )));
    }
    let dt = e.floats(ret, 64);
    let lt = e.ints(ret, 64);
    let it = e.ints(ret, 32);
    let bt = e.bools(ret);
    let x = e.fconvert(dt, args[0]);
    let y = e.fconvert(dt, args[1]);
    let ax = e.glsl(G::FAbs, dt, vec![x]);
    let ay = e.glsl(G::FAbs, dt, vec![y]);
    let ey = ilogb(e, ay, lt, it);
    let zero_i = e.splat(it, ConstantKind::Int(0));
    let (mut r, mut q) = (ax, zero_i);
    let bias27 = e.splat(it, ConstantKind::Int(27));
    let c32 = e.splat(it, ConstantKind::Int(32));
    let one_d = e.float_const(dt, 1.0);
    let zero_d = e.float_const(dt, 0.0);
    for _ in 0..STEPS {
        let er = ilogb(e, r, lt, it);
        let d = e.bin(BinaryOp::Sub, it, er, ey);
        let d = e.bin(BinaryOp::Sub, it, d, bias27);
        let s = e.glsl(G::SMax, it, vec![d, zero_i]);
        let p2 = pow2(e, s, dt, lt);
        let ys = e.bin(BinaryOp::FMul, dt, ay, p2);
        let k = e.bin(BinaryOp::FDiv, dt, r, ys);
        let k = e.glsl(G::Trunc, dt, vec![k]);
        let ky = e.bin(BinaryOp::FMul, dt, k, ys);
        let r1 = e.bin(BinaryOp::FSub, dt, r, ky);
        // The rounded division may be one off either way.
        let neg = e.fcmp(FloatPredicate::Olt, bt, r1, zero_d);
        let r_up = e.bin(BinaryOp::FAdd, dt, r1, ys);
        let r2 = e.select(dt, neg, r_up, r1);
        let k_down = e.bin(BinaryOp::FSub, dt, k, one_d);
        let k2 = e.select(dt, neg, k_down, k);
        let big = e.fcmp(FloatPredicate::Oge, bt, r2, ys);
        let r_down = e.bin(BinaryOp::FSub, dt, r2, ys);
        r = e.select(dt, big, r_down, r2);
        let k_up = e.bin(BinaryOp::FAdd, dt, k2, one_d);
        let k3 = e.select(dt, big, k_up, k2);
        // The quotient's low 32 bits gain k · 2^s.
        let ku = e.b.push(
            it,
            Op::Builtin {
                builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Unsigned)),
                args: vec![k3],
            },
        );
        let shifted = e.bin(BinaryOp::Shl, it, ku, s);
        let in_word = e.icmp(IntPredicate::Ult, bt, s, c32);
        let shifted = e.select(it, in_word, shifted, zero_i);
        q = e.bin(BinaryOp::Add, it, q, shifted);
    }
    if op != C::fmod {
        // To the nearest multiple, ties to the even quotient.
        let two_r = e.bin(BinaryOp::FAdd, dt, r, r);
        let gt = e.fcmp(FloatPredicate::Ogt, bt, two_r, ay);
        let eq = e.fcmp(FloatPredicate::Oeq, bt, two_r, ay);
        let one_i = e.splat(it, ConstantKind::Int(1));
        let low = e.bin(BinaryOp::And, it, q, one_i);
        let odd = e.icmp(IntPredicate::Ne, bt, low, zero_i);
        let tie_up = e.spirv(S::LogicalAnd, bt, vec![eq, odd]);
        let up = e.spirv(S::LogicalOr, bt, vec![gt, tie_up]);
        let r_less = e.bin(BinaryOp::FSub, dt, r, ay);
        r = e.select(dt, up, r_less, r);
        let q_more = e.bin(BinaryOp::Add, it, q, one_i);
        q = e.select(it, up, q_more, q);
    }
    // The sign of x (from its bits: -0 too), then the special operands.
    let x_neg = sign_bit(e, args[0], bt);
    let neg_r = e.b.push(dt, Op::FNeg(r));
    let r = e.select(dt, x_neg, neg_r, r);
    let r = e.fconvert(ret, r);
    let x_nan = e.spirv(S::IsNan, bt, vec![args[0]]);
    let y_nan = e.spirv(S::IsNan, bt, vec![args[1]]);
    let x_inf = e.spirv(S::IsInf, bt, vec![args[0]]);
    let zero_f = e.float_const(ret, 0.0);
    let y_zero = e.fcmp(FloatPredicate::Oeq, bt, args[1], zero_f);
    let nan = e.spirv(S::LogicalOr, bt, vec![x_nan, y_nan]);
    let nan = e.spirv(S::LogicalOr, bt, vec![nan, x_inf]);
    let nan = e.spirv(S::LogicalOr, bt, vec![nan, y_zero]);
    let x_zero = e.fcmp(FloatPredicate::Oeq, bt, args[0], zero_f);
    let qnan = e.float_const(ret, f64::NAN);
    let r = e.select(ret, x_zero, args[0], r);
    let r = e.select(ret, nan, qnan, r);
    if op == C::remquo {
        let mask = e.splat(it, ConstantKind::Int(0x7fff_ffff));
        let q = e.bin(BinaryOp::And, it, q, mask);
        let y_neg = sign_bit(e, args[1], bt);
        let differ = e.spirv(S::LogicalNotEqual, bt, vec![x_neg, y_neg]);
        let neg_q = e.bin(BinaryOp::Sub, it, zero_i, q);
        let q = e.select(it, differ, neg_q, q);
        let q = e.select(it, nan, zero_i, q);
        let q = e.select(it, x_zero, zero_i, q);
        e.b.store(args[2], q, None, false)?;
    }
    Ok(r)
}

/// The unbiased exponent of the (normal or zero) double `v`, as a 32-bit integer.
fn ilogb(e: &mut E, v: Value, lt: Handle<Type>, it: Handle<Type>) -> Value {
    let bits = e.cast(CastOp::Bitcast, lt, v);
    let c52 = e.splat(lt, ConstantKind::Int(52));
    let m = e.splat(lt, ConstantKind::Int(0x7ff));
    let ex = e.bin(BinaryOp::LShr, lt, bits, c52);
    let ex = e.bin(BinaryOp::And, lt, ex, m);
    let ex = e.cast(CastOp::Trunc, it, ex);
    let bias = e.splat(it, ConstantKind::Int(1023));
    e.bin(BinaryOp::Sub, it, ex, bias)
}

/// 2^s as a double, for 0 <= s < 1024.
fn pow2(e: &mut E, s: Value, dt: Handle<Type>, lt: Handle<Type>) -> Value {
    let s = e.cast(CastOp::ZExt, lt, s);
    let bias = e.splat(lt, ConstantKind::Int(1023));
    let c52 = e.splat(lt, ConstantKind::Int(52));
    let b = e.bin(BinaryOp::Add, lt, s, bias);
    let b = e.bin(BinaryOp::Shl, lt, b, c52);
    e.cast(CastOp::Bitcast, dt, b)
}

/// Whether the float `v`'s sign bit is set.
fn sign_bit(e: &mut E, v: Value, bt: Handle<Type>) -> Value {
    let t = e.b.ty_of(v);
    let w = e.width(t);
    let it = e.ints(t, w);
    let bits = e.cast(CastOp::Bitcast, it, v);
    let zero = e.splat(it, ConstantKind::Int(0));
    e.icmp(IntPredicate::Slt, bt, bits, zero)
}
