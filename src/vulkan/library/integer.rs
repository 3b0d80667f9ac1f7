//! Integer builtins Vulkan has no instruction for at these widths: `clz`, `ctz` and
//! `popcount` on 32-bit parts, and 64-bit `mul_hi`, `add_sat`, `sub_sat` and `mad_sat` from
//! 32-bit halves and overflow tests (there is no 128-bit type).

use spirv::{GlslStd450Op as G, Op as S};

use crate::ir::builtin::CLOp as C;
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

/// 64-bit `add_sat` / `sub_sat` (no wider type): the wrapped result, replaced by the bound it
/// passed where it overflowed.
pub(super) fn saturating_64(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Value {
    let (a, b) = (args[0], args[1]);
    let add = matches!(op, C::s_add_sat | C::u_add_sat);
    let r = e.bin(if add { BinaryOp::Add } else { BinaryOp::Sub }, ret, a, b);
    let bt = e.bools(ret);
    let zero = e.splat(ret, ConstantKind::Int(0));
    if matches!(op, C::u_add_sat | C::u_sub_sat) {
        // Unsigned: a sum below an operand wrapped past the top, a difference above a past 0.
        let (pred, bound) = if add {
            (IntPredicate::Ult, u64::MAX)
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
    let min = e.splat(ret, ConstantKind::Int(1 << 63));
    let max = e.splat(ret, ConstantKind::Int(u64::MAX >> 1));
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
