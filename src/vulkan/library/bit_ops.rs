//! cl_khr_extended_bit_ops on Vulkan: `bitfield_insert`, `bitfield_extract_signed`,
//! `bitfield_extract_unsigned` and `bit_reverse` (OpBitFieldInsert, OpBitFieldSExtract,
//! OpBitFieldUExtract, OpBitReverse). Vulkan runs those instructions on 32-bit integers only:
//! other widths are shifts and masks lane by lane (`bit_reverse` through the 32-bit
//! instruction). A count of 0 gives the base (insert) or 0 (extracts), as both OpenCL and
//! SPIR-V say; an offset and count past the width are undefined in both.

use crate::ir::Primitive as S;

use crate::ir::{BinaryOp, CastOp, ConstantKind, Handle, IntPredicate, Type, Value};

use super::E;

/// `op` of `args` into a `ret`.
pub(crate) fn lower(e: &mut E, op: S, args: &[Value], ret: Handle<Type>) -> Value {
    if e.width(ret) == 32 {
        return e.spirv(op, ret, args.to_vec());
    }
    e.lanewise(ret, args, |e, a, t| lane(e, op, a, t))
}

/// One lane of `t` (not 32 bits wide).
fn lane(e: &mut E, op: S, a: &[Value], t: Handle<Type>) -> Value {
    let w = e.width(t);
    if op == S::BitReverse {
        return reverse(e, a[0], t);
    }
    let k = |e: &mut E, v: u64| e.splat(t, ConstantKind::Int(v));
    // The offset and count (uints) in the lane's width.
    let fit = |e: &mut E, v: Value| {
        let vw = e.width(e.b.ty_of(v));
        match vw.cmp(&w) {
            std::cmp::Ordering::Less => e.cast(CastOp::ZExt, t, v),
            std::cmp::Ordering::Greater => e.cast(CastOp::Trunc, t, v),
            std::cmp::Ordering::Equal => v,
        }
    };
    let n = a.len();
    let (offset, count) = (fit(e, a[n - 2]), fit(e, a[n - 1]));
    let zero = k(e, 0);
    let bt = e.bools(t);
    let empty = e.icmp(IntPredicate::Eq, bt, count, zero);
    // `count` low ones (for a count of at least 1).
    let ones = k(e, u64::MAX >> (64 - w));
    let width = k(e, u64::from(w));
    let rest = e.bin(BinaryOp::Sub, t, width, count);
    let low = e.bin(BinaryOp::LShr, t, ones, rest);
    let r = match op {
        S::BitFieldInsert => {
            let mask = e.bin(BinaryOp::Shl, t, low, offset);
            let keep = e.bin(BinaryOp::Xor, t, mask, ones);
            let base = e.bin(BinaryOp::And, t, a[0], keep);
            let moved = e.bin(BinaryOp::Shl, t, a[1], offset);
            let field = e.bin(BinaryOp::And, t, moved, mask);
            let r = e.bin(BinaryOp::Or, t, base, field);
            return e.select(t, empty, a[0], r);
        }
        S::BitFieldUExtract => {
            let down = e.bin(BinaryOp::LShr, t, a[0], offset);
            e.bin(BinaryOp::And, t, down, low)
        }
        _ => {
            // The field's top bit to the lane's top, then an arithmetic shift down.
            let above = e.bin(BinaryOp::Sub, t, rest, offset);
            let up = e.bin(BinaryOp::Shl, t, a[0], above);
            e.bin(BinaryOp::AShr, t, up, rest)
        }
    };
    e.select(t, empty, zero, r)
}

/// The bits of `x` (8, 16 or 64 bits) in reverse order, through 32-bit OpBitReverse.
fn reverse(e: &mut E, x: Value, t: Handle<Type>) -> Value {
    let w = e.width(t);
    let u32t = e.ints(t, 32);
    if w < 32 {
        let wide = e.cast(CastOp::ZExt, u32t, x);
        let r = e.spirv(S::BitReverse, u32t, vec![wide]);
        let sh = e.splat(u32t, ConstantKind::Int(u64::from(32 - w)));
        let r = e.bin(BinaryOp::LShr, u32t, r, sh);
        return e.cast(CastOp::Trunc, t, r);
    }
    // 64 bits: each half reversed, the halves swapped.
    let k32 = e.splat(t, ConstantKind::Int(32));
    let lo = e.cast(CastOp::Trunc, u32t, x);
    let hi = e.bin(BinaryOp::LShr, t, x, k32);
    let hi = e.cast(CastOp::Trunc, u32t, hi);
    let rlo = e.spirv(S::BitReverse, u32t, vec![lo]);
    let rhi = e.spirv(S::BitReverse, u32t, vec![hi]);
    let top = e.cast(CastOp::ZExt, t, rlo);
    let top = e.bin(BinaryOp::Shl, t, top, k32);
    let bottom = e.cast(CastOp::ZExt, t, rhi);
    e.bin(BinaryOp::Or, t, top, bottom)
}
