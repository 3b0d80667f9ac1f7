//! Integer builtins Vulkan has no instruction for: `hadd`, `rotate`, `mul24`, `abs_diff`,
//! `upsample` and the like from shifts and masks (`integer_ops`); `clz`, `ctz` and
//! `popcount` on 32-bit parts; `mul_hi`, `add_sat`, `sub_sat` and `mad_sat` in twice the
//! width, and at 64 bits from 32-bit halves and overflow tests (there is no 128-bit type)
//! (`wide_ops`).

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::diag::{Error, Result};
use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp, CastOp, ConstantKind, Handle, IntPredicate, Type, Value};

use super::E;

/// `clz`, `ctz` and `popcount` through Vulkan's 32-bit instructions.
pub(super) fn bit_count(e: &mut E, op: C, x: Value, ret: Handle<Type>) -> Value {
    let w = e.width(ret);
    let u32t = e.ints(ret, 32);
    let parts: Vec<(Value, u32)> = if w == 64 {
        let sh = e.splat(ret, ConstantKind::Int(32));
        let hi = e.bin(BinaryOp::LShr, ret, x, sh);
        let hi = e.cast(CastOp::Trunc, u32t, hi);
        let lo = e.cast(CastOp::Trunc, u32t, x);
        vec![(hi, 32), (lo, 32)]
    } else if w < 32 {
        vec![(e.cast(CastOp::ZExt, u32t, x), w)]
    } else {
        vec![(x, 32)]
    };
    let count = |e: &mut E, v: Value, bits: u32| -> Value {
        match op {
            C::popcount => e.spirv(S::BitCount, u32t, vec![v]),
            C::clz => {
                // 31 - FindUMsb (-1 for zero), less the bits above a narrow type.
                let msb = e.glsl(G::FindUMsb, u32t, vec![v]);
                let k = e.splat(u32t, ConstantKind::Int(31 - (32 - bits) as u64));
                e.bin(BinaryOp::Sub, u32t, k, msb)
            }
            _ => {
                // FindILsb is -1 for zero: then all the type's bits.
                let lsb = e.glsl(G::FindILsb, u32t, vec![v]);
                let bt = e.bools(u32t);
                let zero = e.splat(u32t, ConstantKind::Int(0));
                let is_zero = e.icmp(IntPredicate::Eq, bt, v, zero);
                let all = e.splat(u32t, ConstantKind::Int(bits as u64));
                e.select(u32t, is_zero, all, lsb)
            }
        }
    };
    let r = if parts.len() == 2 {
        let (hi, lo) = (parts[0].0, parts[1].0);
        let ch = count(e, hi, 32);
        let cl = count(e, lo, 32);
        let thirty_two = e.splat(u32t, ConstantKind::Int(32));
        let bt = e.bools(u32t);
        let zero = e.splat(u32t, ConstantKind::Int(0));
        match op {
            C::popcount => e.bin(BinaryOp::Add, u32t, ch, cl),
            C::clz => {
                let hi_zero = e.icmp(IntPredicate::Eq, bt, hi, zero);
                let low = e.bin(BinaryOp::Add, u32t, thirty_two, cl);
                e.select(u32t, hi_zero, low, ch)
            }
            _ => {
                let lo_zero = e.icmp(IntPredicate::Eq, bt, lo, zero);
                let high = e.bin(BinaryOp::Add, u32t, thirty_two, ch);
                e.select(u32t, lo_zero, high, cl)
            }
        }
    } else {
        count(e, parts[0].0, parts[0].1)
    };
    match w {
        64 => e.cast(CastOp::ZExt, ret, r),
        32 => r,
        _ => e.cast(CastOp::Trunc, ret, r),
    }
}

/// The high half of a 64-bit product from 32-bit halves (no 128-bit type): the unsigned
/// schoolbook sum, then for signed operands each negative operand's partner subtracted.
pub(super) fn mul_hi_64(e: &mut E, signed: bool, args: &[Value], ret: Handle<Type>) -> Value {
    let (a, b) = (args[0], args[1]);
    let k32 = e.splat(ret, ConstantKind::Int(32));
    let lo_mask = e.splat(ret, ConstantKind::Int(0xffff_ffff));
    let lo = |e: &mut E, v: Value| e.bin(BinaryOp::And, ret, v, lo_mask);
    let hi = |e: &mut E, v: Value| e.bin(BinaryOp::LShr, ret, v, k32);
    let (al, ah, bl, bh) = (lo(e, a), hi(e, a), lo(e, b), hi(e, b));
    let ll = e.bin(BinaryOp::Mul, ret, al, bl);
    let lh = e.bin(BinaryOp::Mul, ret, al, bh);
    let hl = e.bin(BinaryOp::Mul, ret, ah, bl);
    let hh = e.bin(BinaryOp::Mul, ret, ah, bh);
    let ll_hi = hi(e, ll);
    let lh_lo = lo(e, lh);
    let hl_lo = lo(e, hl);
    let mid = e.bin(BinaryOp::Add, ret, ll_hi, lh_lo);
    let mid = e.bin(BinaryOp::Add, ret, mid, hl_lo);
    let carry = hi(e, mid);
    let lh_hi = hi(e, lh);
    let hl_hi = hi(e, hl);
    let r = e.bin(BinaryOp::Add, ret, hh, lh_hi);
    let r = e.bin(BinaryOp::Add, ret, r, hl_hi);
    let r = e.bin(BinaryOp::Add, ret, r, carry);
    if !signed {
        return r;
    }
    let zero = e.splat(ret, ConstantKind::Int(0));
    let bt = e.bools(ret);
    let a_neg = e.icmp(IntPredicate::Slt, bt, a, zero);
    let b_neg = e.icmp(IntPredicate::Slt, bt, b, zero);
    let fix_a = e.select(ret, a_neg, b, zero);
    let fix_b = e.select(ret, b_neg, a, zero);
    let r = e.bin(BinaryOp::Sub, ret, r, fix_a);
    e.bin(BinaryOp::Sub, ret, r, fix_b)
}

/// `add_sat` / `sub_sat` without a wider type (64 bits, and the integer dot products'
/// saturating sums): the wrapped result, replaced by the bound it passed where it overflowed.
pub(super) fn saturating(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Value {
    let w = e.width(ret);
    let (a, b) = (args[0], args[1]);
    let add = matches!(op, C::s_add_sat | C::u_add_sat);
    let r = e.bin(if add { BinaryOp::Add } else { BinaryOp::Sub }, ret, a, b);
    let bt = e.bools(ret);
    let zero = e.splat(ret, ConstantKind::Int(0));
    if matches!(op, C::u_add_sat | C::u_sub_sat) {
        // Unsigned: a sum below an operand wrapped past the top, a difference above a past 0.
        let (pred, bound) = if add {
            (IntPredicate::Ult, u64::MAX >> (64 - w))
        } else {
            (IntPredicate::Ugt, 0)
        };
        let wrapped = e.icmp(pred, bt, r, a);
        let bound = e.splat(ret, ConstantKind::Int(bound));
        return e.select(ret, wrapped, bound, r);
    }
    // Signed: overflow when the result's sign differs from what the operands' signs allow.
    let ar = e.bin(BinaryOp::Xor, ret, a, r);
    let other = if add {
        e.bin(BinaryOp::Xor, ret, b, r)
    } else {
        e.bin(BinaryOp::Xor, ret, a, b)
    };
    let both = e.bin(BinaryOp::And, ret, ar, other);
    let overflow = e.icmp(IntPredicate::Slt, bt, both, zero);
    let a_neg = e.icmp(IntPredicate::Slt, bt, a, zero);
    let min = e.splat(ret, ConstantKind::Int(1 << (w - 1)));
    let max = e.splat(ret, ConstantKind::Int(u64::MAX >> (65 - w)));
    let bound = e.select(ret, a_neg, min, max);
    e.select(ret, overflow, bound, r)
}

/// 64-bit `mad_sat`: the 128-bit `a * b + c` as (high, low) halves, then the bound it passed
/// where the high half is more than the low half's extension.
pub(super) fn mad_sat_64(e: &mut E, signed: bool, args: &[Value], ret: Handle<Type>) -> Value {
    let (a, b, c) = (args[0], args[1], args[2]);
    let hi = mul_hi_64(e, signed, &[a, b], ret);
    let lo = e.bin(BinaryOp::Mul, ret, a, b);
    let s = e.bin(BinaryOp::Add, ret, lo, c);
    let bt = e.bools(ret);
    let zero = e.splat(ret, ConstantKind::Int(0));
    let one = e.splat(ret, ConstantKind::Int(1));
    let carried = e.icmp(IntPredicate::Ult, bt, s, lo);
    let carry = e.select(ret, carried, one, zero);
    let mut hi = e.bin(BinaryOp::Add, ret, hi, carry);
    if signed {
        // c sign-extended to 128 bits adds all ones to the high half when negative.
        let c_neg = e.icmp(IntPredicate::Slt, bt, c, zero);
        let ones = e.splat(ret, ConstantKind::Int(u64::MAX));
        let ext = e.select(ret, c_neg, ones, zero);
        hi = e.bin(BinaryOp::Add, ret, hi, ext);
        let k63 = e.splat(ret, ConstantKind::Int(63));
        let sign = e.bin(BinaryOp::AShr, ret, s, k63);
        let fits = e.icmp(IntPredicate::Eq, bt, hi, sign);
        let neg = e.icmp(IntPredicate::Slt, bt, hi, zero);
        let min = e.splat(ret, ConstantKind::Int(1 << 63));
        let max = e.splat(ret, ConstantKind::Int(u64::MAX >> 1));
        let bound = e.select(ret, neg, min, max);
        e.select(ret, fits, s, bound)
    } else {
        let fits = e.icmp(IntPredicate::Eq, bt, hi, zero);
        let max = e.splat(ret, ConstantKind::Int(u64::MAX));
        e.select(ret, fits, s, max)
    }
}

/// `hadd`, `rhadd`, `rotate`, `mad_hi`, `clz`, `ctz`, `popcount`, `abs` of unsigned,
/// `mul24`, `mad24`, `abs_diff`, `upsample`.
pub(super) fn integer_ops(
    e: &mut E,
    op: C,
    args: &[Value],
    ret: Handle<Type>,
    w: u32,
) -> Result<Option<Value>> {
    let v = match op {
        C::s_hadd | C::u_hadd | C::s_rhadd | C::u_rhadd => {
            let signed = matches!(op, C::s_hadd | C::s_rhadd);
            let shr = if signed {
                BinaryOp::AShr
            } else {
                BinaryOp::LShr
            };
            let one = e.splat(ret, ConstantKind::Int(1));
            let ha = e.bin(shr, ret, args[0], one);
            let hb = e.bin(shr, ret, args[1], one);
            let both = if matches!(op, C::s_hadd | C::u_hadd) {
                e.bin(BinaryOp::And, ret, args[0], args[1])
            } else {
                e.bin(BinaryOp::Or, ret, args[0], args[1])
            };
            let carry = e.bin(BinaryOp::And, ret, both, one);
            let s = e.bin(BinaryOp::Add, ret, ha, hb);
            e.bin(BinaryOp::Add, ret, s, carry)
        }
        C::rotate => {
            let mask = e.splat(ret, ConstantKind::Int(w as u64 - 1));
            let one = e.splat(ret, ConstantKind::Int(1));
            let i = e.bin(BinaryOp::And, ret, args[1], mask);
            let l = e.bin(BinaryOp::Shl, ret, args[0], i);
            // `v >> (w - i)` as `(v >> 1) >> (w - 1 - i)`: no shift by the width when i is
            // 0, so the two halves have disjoint bits (see `disjoint_halves` for why
            // 16-bit ones are added, not or-ed).
            let back = e.bin(BinaryOp::Sub, ret, mask, i);
            let half = e.bin(BinaryOp::LShr, ret, args[0], one);
            let r = e.bin(BinaryOp::LShr, ret, half, back);
            let join = if w == 16 { BinaryOp::Add } else { BinaryOp::Or };
            e.bin(join, ret, l, r)
        }
        C::s_mad_hi | C::u_mad_hi => {
            let hop = if op == C::s_mad_hi {
                C::s_mul_hi
            } else {
                C::u_mul_hi
            };
            let hi = super::expand(e.b, hop, None, &args[..2], ret)?
                .ok_or_else(|| Error::internal("mul_hi without a body"))?;
            e.bin(BinaryOp::Add, ret, hi, args[2])
        }
        C::clz | C::ctz | C::popcount => bit_count(e, op, args[0], ret),
        C::u_abs => args[0],
        C::s_mul24 | C::u_mul24 | C::s_mad24 | C::u_mad24 => {
            // OpenCL defines them for 24-bit operands; beyond, the low 24 bits are used (as
            // the Intel runtime and GPUs' 24-bit multipliers do).
            let signed = matches!(op, C::s_mul24 | C::s_mad24);
            let low24 = |e: &mut E, v: Value| {
                if signed {
                    let eight = e.splat(ret, ConstantKind::Int(8));
                    let up = e.bin(BinaryOp::Shl, ret, v, eight);
                    e.bin(BinaryOp::AShr, ret, up, eight)
                } else {
                    let m = e.splat(ret, ConstantKind::Int(0xff_ffff));
                    e.bin(BinaryOp::And, ret, v, m)
                }
            };
            let (x, y) = (low24(e, args[0]), low24(e, args[1]));
            let p = e.bin(BinaryOp::Mul, ret, x, y);
            if matches!(op, C::s_mad24 | C::u_mad24) {
                e.bin(BinaryOp::Add, ret, p, args[2])
            } else {
                p
            }
        }
        C::s_abs_diff | C::u_abs_diff => {
            // max - min, in the unsigned result type (exact, however far apart).
            let (mx, mn) = if op == C::s_abs_diff {
                (G::SMax, G::SMin)
            } else {
                (G::UMax, G::UMin)
            };
            let hi = e.glsl(mx, ret, vec![args[0], args[1]]);
            let lo = e.glsl(mn, ret, vec![args[0], args[1]]);
            e.bin(BinaryOp::Sub, ret, hi, lo)
        }
        C::s_upsample | C::u_upsample => {
            // (hi << w) | lo, lo zero-extended.
            let half = e.width(e.b.ty_of(args[0]));
            let hi = e.cast(CastOp::ZExt, ret, args[0]);
            let lo = e.cast(CastOp::ZExt, ret, args[1]);
            let sh = e.splat(ret, ConstantKind::Int(half as u64));
            let hi = e.bin(BinaryOp::Shl, ret, hi, sh);
            e.bin(BinaryOp::Or, ret, hi, lo)
        }
        _ => return Ok(None),
    };
    Ok(Some(v))
}

/// `mul_hi`, `add_sat`, `sub_sat` and `mad_sat`: in twice the width up to 32 bits, from
/// 32-bit halves at 64.
pub(super) fn wide_ops(
    e: &mut E,
    op: C,
    args: &[Value],
    ret: Handle<Type>,
    w: u32,
) -> Result<Option<Value>> {
    let v = match op {
        C::s_mul_hi | C::u_mul_hi if w == 64 => mul_hi_64(e, op == C::s_mul_hi, args, ret),
        C::s_mad_sat | C::u_mad_sat if w == 64 => mad_sat_64(e, op == C::s_mad_sat, args, ret),
        C::s_add_sat | C::u_add_sat | C::s_sub_sat | C::u_sub_sat if w == 64 => {
            saturating(e, op, args, ret)
        }
        C::s_mul_hi | C::u_mul_hi | C::s_add_sat | C::u_add_sat | C::s_sub_sat | C::u_sub_sat
            if w < 64 =>
        {
            let signed = matches!(op, C::s_mul_hi | C::s_add_sat | C::s_sub_sat);
            let ext = if signed { CastOp::SExt } else { CastOp::ZExt };
            let wide = e.ints(ret, 2 * w);
            let x = e.cast(ext, wide, args[0]);
            let y = e.cast(ext, wide, args[1]);
            let r = match op {
                C::s_mul_hi | C::u_mul_hi => {
                    let p = e.bin(BinaryOp::Mul, wide, x, y);
                    let sh = e.splat(wide, ConstantKind::Int(w as u64));
                    e.bin(BinaryOp::AShr, wide, p, sh)
                }
                _ => {
                    let add = matches!(op, C::s_add_sat | C::u_add_sat);
                    let s = e.bin(if add { BinaryOp::Add } else { BinaryOp::Sub }, wide, x, y);
                    let (lo, hi) = bounds_in_twice(w, signed);
                    let lo = e.splat(wide, ConstantKind::Int(lo));
                    let hi = e.splat(wide, ConstantKind::Int(hi));
                    // Unsigned: below zero shows as huge in 2w bits, so clamp signed.
                    let s = e.glsl(G::SMax, wide, vec![s, lo]);
                    e.glsl(G::SMin, wide, vec![s, hi])
                }
            };
            e.cast(CastOp::Trunc, ret, r)
        }
        C::s_mad_sat | C::u_mad_sat if w <= 32 => {
            // In twice the width the product and sum are exact; then clamp.
            let signed = op == C::s_mad_sat;
            let ext = if signed { CastOp::SExt } else { CastOp::ZExt };
            let wide = e.ints(ret, 2 * w);
            let x = e.cast(ext, wide, args[0]);
            let y = e.cast(ext, wide, args[1]);
            let z = e.cast(ext, wide, args[2]);
            let p = e.bin(BinaryOp::Mul, wide, x, y);
            let s = e.bin(BinaryOp::Add, wide, p, z);
            let (lo, hi) = bounds_in_twice(w, signed);
            let (lo, hi) = (
                e.splat(wide, ConstantKind::Int(lo)),
                e.splat(wide, ConstantKind::Int(hi)),
            );
            let (mx, mn) = if signed {
                (G::SMax, G::SMin)
            } else {
                (G::UMax, G::UMin)
            };
            let s = e.glsl(mx, wide, vec![s, lo]);
            let s = e.glsl(mn, wide, vec![s, hi]);
            e.cast(CastOp::Trunc, ret, s)
        }
        _ => return Ok(None),
    };
    Ok(Some(v))
}

/// The least and greatest `w`-bit integers (signed or not), as bits of a `2w`-bit integer:
/// what a result computed in twice the width is clamped to.
fn bounds_in_twice(w: u32, signed: bool) -> (u64, u64) {
    if signed {
        (
            (1u64 << (w - 1)).wrapping_neg() & (u64::MAX >> (64 - 2 * w)),
            (1u64 << (w - 1)) - 1,
        )
    } else {
        (0, u64::MAX >> (64 - w))
    }
}
