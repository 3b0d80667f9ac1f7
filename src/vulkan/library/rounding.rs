//! Conversions to floating point with a rounding mode other than nearest even, which is all a
//! Vulkan device does: convert to nearest even, convert back exactly, and move the result one
//! unit where it lies on the wrong side of the input for the mode.

use crate::ir::Primitive as S;

use crate::diag::Result;
use crate::ir::{
    BinaryOp, Builtin, CastOp, ConstantKind, ConvertKind, FloatPredicate, Handle, IntPredicate, Op,
    Sign, Type, Value,
};

use super::E;
use crate::vulkan::body::FnBuilder;
use crate::vulkan::emit::plain;

/// FPRoundingMode's numbers (SPIR-V): to nearest even, towards zero, up, down.
const RTE: u32 = 0;
const RTZ: u32 = 1;
const RTP: u32 = 2;

/// `x` (a float, or an integer of at most 32 bits when `from_int` says its sign) converted to
/// the float type `to` rounding with `mode`: the nearest-even conversion, then one step to
/// the neighbour where that went the wrong way (found by converting back, exactly).
pub(in crate::vulkan) fn round_to_from(
    e_b: &mut FnBuilder,
    x: Value,
    to: Handle<Type>,
    mode: u32,
    from_int: Option<Sign>,
) -> Result<Value> {
    let mut e = E { b: e_b };
    match from_int {
        None => Ok(round_to(&mut e, x, to, mode)),
        Some(sign) => {
            let xt = e.b.ty_of(x);
            let f = e.b.push(
                to,
                Op::Builtin {
                    builtin: plain(ConvertKind::Int(sign), ConvertKind::Float),
                    args: vec![x],
                },
            );
            if mode == RTE {
                return Ok(f);
            }
            Ok(int_step(&mut e, x, xt, sign, f, to, mode))
        }
    }
}

/// The nearest-even conversion `f` of the integer `x` corrected for `mode`. The comparison
/// is made in 64-bit integers (unsigned ones for a 64-bit unsigned `x`), where the input
/// and every float in the integers' range are exact; a float outside that range (2^63 or
/// 2^64 reached by rounding up, or a half's infinity) lies beyond the input by itself.
fn int_step(
    e: &mut E,
    x: Value,
    xt: Handle<Type>,
    sign: Sign,
    f: Value,
    to: Handle<Type>,
    mode: u32,
) -> Value {
    let wide_unsigned = e.width(xt) == 64 && sign == Sign::Unsigned;
    let i64t = e.ints(xt, 64);
    let x64 = match (e.width(xt), sign) {
        (64, _) => x,
        (_, Sign::Signed) => e.cast(CastOp::SExt, i64t, x),
        _ => e.cast(CastOp::ZExt, i64t, x),
    };
    let bt = e.bools(to);
    let hi = e.float_const(
        to,
        if wide_unsigned {
            2f64.powi(64)
        } else {
            2f64.powi(63)
        },
    );
    let too_big = e.fcmp(FloatPredicate::Oge, bt, f, hi);
    // -2^63 is exact in float and double and converts back; a half has only -inf below.
    let lo = e.float_const(to, -(2f64.powi(63)));
    let below_pred = if e.width(to) == 16 {
        FloatPredicate::Ole
    } else {
        FloatPredicate::Olt
    };
    let too_small = e.fcmp(below_pred, bt, f, lo);
    let outside = e.spirv(S::LogicalOr, bt, vec![too_big, too_small]);
    let zero_f = e.float_const(to, 0.0);
    let safe = e.select(to, outside, zero_f, f);
    let back_sign = if wide_unsigned {
        Sign::Unsigned
    } else {
        Sign::Signed
    };
    let back = e.b.push(
        i64t,
        Op::Builtin {
            builtin: plain(ConvertKind::Float, ConvertKind::Int(back_sign)),
            args: vec![safe],
        },
    );
    let (gt, lt) = if wide_unsigned {
        (IntPredicate::Ugt, IntPredicate::Ult)
    } else {
        (IntPredicate::Sgt, IntPredicate::Slt)
    };
    let above = e.icmp(gt, bt, back, x64);
    let above = e.select(bt, outside, too_big, above);
    let below = e.icmp(lt, bt, back, x64);
    let below = e.select(bt, outside, too_small, below);
    let negative = if sign == Sign::Signed {
        let zero = e.splat(i64t, ConstantKind::Int(0));
        e.icmp(IntPredicate::Slt, bt, x64, zero)
    } else {
        e.splat(bt, ConstantKind::Int(0))
    };
    step(e, f, to, mode, above, below, negative)
}

/// A float `x` narrowed to `to` with rounding `mode` (see `round_to_from`).
pub(super) fn round_to(e: &mut E, x: Value, to: Handle<Type>, mode: u32) -> Value {
    let f = e.fconvert(to, x);
    if mode == RTE {
        return f;
    }
    let xt = e.b.ty_of(x);
    let back = if e.width(to) == 16 && e.width(xt) == 32 {
        half_to_float_exactly(e, f, xt)
    } else {
        e.fconvert(xt, f)
    };
    let bt = e.bools(xt);
    let above = e.fcmp(FloatPredicate::Ogt, bt, back, x);
    let below = e.fcmp(FloatPredicate::Olt, bt, back, x);
    let zero = e.float_const(xt, 0.0);
    let negative = e.fcmp(FloatPredicate::Olt, bt, x, zero);
    step(e, f, to, mode, above, below, negative)
}

/// A half widened to float from its bits, with integer operations: NVIDIA's driver (580)
/// folds a float's conversion to half and back into nothing, which would hide the
/// difference the rounding correction looks for.
fn half_to_float_exactly(e: &mut E, h: Value, ft: Handle<Type>) -> Value {
    let ht = e.b.ty_of(h);
    let h16 = e.ints(ht, 16);
    let u32t = e.ints(ft, 32);
    let bt = e.bools(ft);
    let bits = e.cast(CastOp::Bitcast, h16, h);
    let bits = e.cast(CastOp::ZExt, u32t, bits);
    let k = |e: &mut E, v: u64| e.splat(u32t, ConstantKind::Int(v));
    let (c10, c13, c16, c23) = (k(e, 10), k(e, 13), k(e, 16), k(e, 23));
    let (m1f, m3ff, m8000) = (k(e, 0x1f), k(e, 0x3ff), k(e, 0x8000));
    let sign = e.bin(BinaryOp::And, u32t, bits, m8000);
    let sign = e.bin(BinaryOp::Shl, u32t, sign, c16);
    let ex = e.bin(BinaryOp::LShr, u32t, bits, c10);
    let ex = e.bin(BinaryOp::And, u32t, ex, m1f);
    let man = e.bin(BinaryOp::And, u32t, bits, m3ff);
    let man13 = e.bin(BinaryOp::Shl, u32t, man, c13);
    // Normal: the exponent rebiased (127 - 15).
    let rebias = k(e, 112);
    let fe = e.bin(BinaryOp::Add, u32t, ex, rebias);
    let fe = e.bin(BinaryOp::Shl, u32t, fe, c23);
    let normal = e.bin(BinaryOp::Or, u32t, sign, fe);
    let normal = e.bin(BinaryOp::Or, u32t, normal, man13);
    // Infinity and NaN keep their payload.
    let all_ones = k(e, 0x7f80_0000);
    let special = e.bin(BinaryOp::Or, u32t, sign, all_ones);
    let special = e.bin(BinaryOp::Or, u32t, special, man13);
    // Zero and subnormals: the mantissa times 2^-24, exactly (a normal float).
    let mf = e.b.push(
        ft,
        Op::Builtin {
            builtin: Builtin::Convert {
                from: ConvertKind::Int(Sign::Unsigned),
                to: ConvertKind::Float,
                saturate: false,
                rounding: None,
            },
            args: vec![man],
        },
    );
    let scale = e.float_const(ft, 2f64.powi(-24));
    let small = e.bin(BinaryOp::FMul, ft, mf, scale);
    let small = e.cast(CastOp::Bitcast, u32t, small);
    let small = e.bin(BinaryOp::Or, u32t, small, sign);
    let zero = k(e, 0);
    let is_small = e.icmp(IntPredicate::Eq, bt, ex, zero);
    let is_special = e.icmp(IntPredicate::Eq, bt, ex, m1f);
    let r = e.select(u32t, is_special, special, normal);
    let r = e.select(u32t, is_small, small, r);
    e.cast(CastOp::Bitcast, ft, r)
}

/// `f` (a nearest-even result) moved one unit where it lies on the wrong side of the exact
/// value for `mode`: `above` / `below` say where it lies, `negative` the exact value's sign.
fn step(
    e: &mut E,
    f: Value,
    to: Handle<Type>,
    mode: u32,
    above: Value,
    below: Value,
    negative: Value,
) -> Value {
    let w = e.width(to);
    let it = e.ints(to, w);
    let bt = e.bools(to);
    let bits = e.cast(CastOp::Bitcast, it, f);
    let one = e.splat(it, ConstantKind::Int(1));
    let smaller = e.bin(BinaryOp::Sub, it, bits, one);
    let larger = e.bin(BinaryOp::Add, it, bits, one);
    let sign_bit = e.splat(it, ConstantKind::Int(1u64 << (w - 1)));
    let sign = e.bin(BinaryOp::And, it, bits, sign_bit);
    let zero = e.splat(it, ConstantKind::Int(0));
    let f_negative = e.icmp(IntPredicate::Ne, bt, sign, zero);
    let fixed = match mode {
        RTZ => {
            // Too far from zero: the magnitude one step smaller.
            let not_negative = e.spirv(S::LogicalNot, bt, vec![negative]);
            let up_wrong = e.spirv(S::LogicalAnd, bt, vec![above, not_negative]);
            let down_wrong = e.spirv(S::LogicalAnd, bt, vec![below, negative]);
            let wrong = e.spirv(S::LogicalOr, bt, vec![up_wrong, down_wrong]);
            e.select(it, wrong, smaller, bits)
        }
        RTP => {
            // Below the exact value: the next float up.
            let next = e.select(it, f_negative, smaller, larger);
            e.select(it, below, next, bits)
        }
        _ => {
            // Above the exact value: the next float down.
            let next = e.select(it, f_negative, larger, smaller);
            e.select(it, above, next, bits)
        }
    };
    e.cast(CastOp::Bitcast, to, fixed)
}
