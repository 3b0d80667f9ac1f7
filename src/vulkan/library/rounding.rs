//! Conversions to floating point with a rounding mode other than nearest even, which is all a
//! Vulkan device does: convert to nearest even, convert back exactly, and move the result one
//! unit where it lies on the wrong side of the input for the mode.

use spirv::Op as S;

use crate::diag::{Error, Result};
use crate::ir::{
    BinaryOp, Builtin, CastOp, ConstantKind, ConvertKind, FloatPredicate, Handle, IntPredicate, Op,
    Sign, Type, Value,
};

use super::E;
use crate::vulkan::body::FnBuilder;

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
            if e.width(xt) > 32 {
                return Err(Error::unsupported(
                    "a conversion of a 64-bit integer to floating point with a rounding mode \
                     other than to nearest even (not in the Vulkan builtin library yet)",
                ));
            }
            let kind = ConvertKind::Int(sign);
            let f = e.b.push(
                to,
                Op::Builtin {
                    builtin: Builtin::Convert {
                        from: kind,
                        to: ConvertKind::Float,
                        saturate: false,
                        rounding: None,
                    },
                    args: vec![x],
                },
            );
            if mode == RTE {
                return Ok(f);
            }
            // Compare in 64-bit integers, where both the input and the float fit.
            let i64t = e.ints(xt, 64);
            let ext = if sign == Sign::Signed {
                CastOp::SExt
            } else {
                CastOp::ZExt
            };
            let x64 = e.cast(ext, i64t, x);
            let back = e.b.push(
                i64t,
                Op::Builtin {
                    builtin: Builtin::Convert {
                        from: ConvertKind::Float,
                        to: ConvertKind::Int(Sign::Signed),
                        saturate: false,
                        rounding: None,
                    },
                    args: vec![f],
                },
            );
            let bt = e.bools(xt);
            let above = e.icmp(IntPredicate::Sgt, bt, back, x64);
            let below = e.icmp(IntPredicate::Slt, bt, back, x64);
            let zero = e.splat(i64t, ConstantKind::Int(0));
            let negative = e.icmp(IntPredicate::Slt, bt, x64, zero);
            Ok(step(&mut e, f, to, mode, above, below, negative))
        }
    }
}

/// A float `x` narrowed to `to` with rounding `mode` (see `round_to_from`).
pub(super) fn round_to(e: &mut E, x: Value, to: Handle<Type>, mode: u32) -> Value {
    let f = e.fconvert(to, x);
    if mode == RTE {
        return f;
    }
    let xt = e.b.ty_of(x);
    let back = e.fconvert(xt, f);
    let bt = e.bools(xt);
    let above = e.fcmp(FloatPredicate::Ogt, bt, back, x);
    let below = e.fcmp(FloatPredicate::Olt, bt, back, x);
    let zero = e.float_const(xt, 0.0);
    let negative = e.fcmp(FloatPredicate::Olt, bt, x, zero);
    step(e, f, to, mode, above, below, negative)
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
