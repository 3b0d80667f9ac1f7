//! `fma` of floats, correctly rounded without a wider float format: a module whose kernel has
//! no double must not declare Float64 (most mobile GPUs have none), and Vulkan's `Fma` need
//! not be fused (lavapipe's is not, for doubles). The product and the sum are exact in 64-bit
//! integers, and the one rounding is done on the bits, as a soft-float library does:
//!
//! * each operand's significand (the leading bit made explicit, subnormals normalized by
//!   `decompose::parts`) and exponent;
//! * the product's 48-bit significand, shifted to bits 61–62, and c's to bit 62; the one with
//!   the smaller exponent is shifted right to the other's, its lost bits kept as a sticky
//!   lowest bit (the other's low bits are zero, so no rounding boundary falls between the
//!   exact and the sticky sum);
//! * their sum or difference, normalized to bit 63, rounded to nearest even at bit 40 (more
//!   for a subnormal result), and assembled; above the largest float it is infinite.
//!
//! Zeros, infinities and NaNs among a and b are the plain `a * b + c` (exact there), an
//! infinite c with finite a and b is c, a NaN c the plain sum (quieted). The main path has
//! no float operation a device that flushes subnormals could change: subnormal operands
//! and results are exact there too.

use crate::ir::GlslOp as G;

use crate::ir::{BinaryOp as B, CastOp, ConstantKind, Handle, IntPredicate as I, Type, Value};

use super::decompose;
use super::E;

/// `fma(a, b, c)` of one float lane.
pub(super) fn fma(e: &mut E, args: &[Value], t: Handle<Type>) -> Value {
    let (a, b, c) = (args[0], args[1], args[2]);
    let f = decompose::format(e, t);
    let (u32t, i32t, bt) = (f.it, f.et, f.bt);
    let u64t = e.b.l.out.int_type(64);
    let k32 = |e: &mut E, v: u64| e.splat(u32t, ConstantKind::Int(v));
    let ki = |e: &mut E, v: i64| e.splat(i32t, ConstantKind::Int(v as u32 as u64));
    let k64 = |e: &mut E, v: u64| e.splat(u64t, ConstantKind::Int(v));
    let pa = decompose::parts(e, &f, a);
    let pb = decompose::parts(e, &f, b);
    let pc = decompose::parts(e, &f, c);
    // Significands with the leading bit at 23, as 64-bit integers.
    let lead = k32(e, 1 << 23);
    let sig = |e: &mut E, p: &decompose::Parts| {
        let m = e.bin(B::Or, u32t, p.fraction, lead);
        e.cast(CastOp::ZExt, u64t, m)
    };
    let (ma, mb, mc) = (sig(e, &pa), sig(e, &pb), sig(e, &pc));
    // The product at bits 61-62: value = sig_p · 2^(exp_p − 62).
    let p = e.bin(B::Mul, u64t, ma, mb);
    let fifteen = k64(e, 15);
    let sig_p = e.bin(B::Shl, u64t, p, fifteen);
    let one = ki(e, 1);
    let exp_p = e.bin(B::Add, i32t, pa.exponent, pb.exponent);
    let exp_p = e.bin(B::Add, i32t, exp_p, one);
    // c at bit 62 (value = sig_c · 2^(exp_c − 62)); a zero c far below the product.
    let bits_c = e.cast(CastOp::Bitcast, u32t, c);
    let magnitude = k32(e, 0x7fff_ffff);
    let abs_c = e.bin(B::And, u32t, bits_c, magnitude);
    let zero32 = k32(e, 0);
    let c_zero = e.icmp(I::Eq, bt, abs_c, zero32);
    let thirty_nine = k64(e, 39);
    let sig_c = e.bin(B::Shl, u64t, mc, thirty_nine);
    let zero64 = k64(e, 0);
    let sig_c = e.select(u64t, c_zero, zero64, sig_c);
    let far = ki(e, 200);
    let below_p = e.bin(B::Sub, i32t, exp_p, far);
    let exp_c = e.select(i32t, c_zero, below_p, pc.exponent);
    // Align the smaller to the larger exponent.
    let d = e.bin(B::Sub, i32t, exp_p, exp_c);
    let zero_i = ki(e, 0);
    let p_larger = e.icmp(I::Sge, bt, d, zero_i);
    let neg_d = e.bin(B::Sub, i32t, zero_i, d);
    let shift_c = e.select(i32t, p_larger, d, zero_i);
    let shift_p = e.select(i32t, p_larger, zero_i, neg_d);
    let sig_c = shift_right_jam(e, sig_c, shift_c);
    let sig_p = shift_right_jam(e, sig_p, shift_p);
    let exp_z = e.select(i32t, p_larger, exp_p, exp_c);
    // Sum, or difference of magnitudes, and its sign.
    let sign_p = e.bin(B::Xor, u32t, pa.sign, pb.sign);
    let same = e.icmp(I::Eq, bt, sign_p, pc.sign);
    let sum = e.bin(B::Add, u64t, sig_p, sig_c);
    let p_ge = e.icmp(I::Uge, bt, sig_p, sig_c);
    let p_minus = e.bin(B::Sub, u64t, sig_p, sig_c);
    let c_minus = e.bin(B::Sub, u64t, sig_c, sig_p);
    let diff = e.select(u64t, p_ge, p_minus, c_minus);
    let mag = e.select(u64t, same, sum, diff);
    let diff_sign = e.select(u32t, p_ge, sign_p, pc.sign);
    let sign = e.select(u32t, same, sign_p, diff_sign);
    // Normalized to bit 63: value = norm · 2^(exp − 63), exp = exp_z + 1 − lz.
    let lz = leading_zeros(e, mag);
    let lz64 = e.cast(CastOp::ZExt, u64t, lz);
    let norm = e.bin(B::Shl, u64t, mag, lz64);
    let exp = e.bin(B::Add, i32t, exp_z, one);
    let exp = e.bin(B::Sub, i32t, exp, lz);
    // Rounded at bit 40, or higher for a subnormal result (at most all 64 bits go).
    let min_exp = ki(e, -126);
    let below = e.bin(B::Sub, i32t, min_exp, exp);
    let below = e.glsl(G::SMax, i32t, vec![below, zero_i]);
    let forty = ki(e, 40);
    let s = e.bin(B::Add, i32t, below, forty);
    let sixty_four = ki(e, 64);
    // Beyond 64 the value is below half the smallest subnormal: it rounds to zero (with all
    // 64 bits gone, the remainder would look like more than half).
    let vanishes = e.icmp(I::Sgt, bt, s, sixty_four);
    let s = e.glsl(G::SMin, i32t, vec![s, sixty_four]);
    let s_low = e.bin(B::Sub, i32t, s, one);
    let s_low = e.cast(CastOp::ZExt, u64t, s_low);
    let one64 = k64(e, 1);
    let half = e.bin(B::Shl, u64t, one64, s_low);
    // q = norm >> s, rem = norm mod 2^s (in two steps, as s may be 64; the mask wraps to
    // all ones then).
    let q = e.bin(B::LShr, u64t, norm, s_low);
    let q = e.bin(B::LShr, u64t, q, one64);
    let mask = e.bin(B::Shl, u64t, half, one64);
    let mask = e.bin(B::Sub, u64t, mask, one64);
    let rem = e.bin(B::And, u64t, norm, mask);
    let above = e.icmp(I::Ugt, bt, rem, half);
    let tie = e.icmp(I::Eq, bt, rem, half);
    let odd = e.bin(B::And, u64t, q, one64);
    let odd = e.icmp(I::Ne, bt, odd, zero64);
    let tie_up = e.spirv(crate::ir::Primitive::LogicalAnd, bt, vec![tie, odd]);
    let up = e.spirv(crate::ir::Primitive::LogicalOr, bt, vec![above, tie_up]);
    let kept = e.spirv(crate::ir::Primitive::LogicalNot, bt, vec![vanishes]);
    let up = e.spirv(crate::ir::Primitive::LogicalAnd, bt, vec![up, kept]);
    let q = e.cast(CastOp::Trunc, u32t, q);
    let one32 = k32(e, 1);
    let q_up = e.bin(B::Add, u32t, q, one32);
    let q = e.select(u32t, up, q_up, q);
    // The exponent field (q's leading bit adds its 1, and a carry out of q one more); none
    // for a subnormal result, whose q has no leading bit of its own.
    let bias = ki(e, 126);
    let field = e.bin(B::Add, i32t, exp, bias);
    let normal = e.icmp(I::Eq, bt, below, zero_i);
    let field = e.select(i32t, normal, field, zero_i);
    let huge = ki(e, 300);
    let field = e.glsl(G::SMin, i32t, vec![field, huge]);
    let field = e.cast(CastOp::Bitcast, u32t, field);
    let twenty_three = k32(e, 23);
    let field = e.bin(B::Shl, u32t, field, twenty_three);
    let bits = e.bin(B::Add, u32t, field, q);
    let inf = k32(e, 0x7f80_0000);
    let bits = e.glsl(G::UMin, u32t, vec![bits, inf]);
    let bits = e.bin(B::Or, u32t, bits, sign);
    // An exact zero difference is +0 (round to nearest).
    let mag_zero = e.icmp(I::Eq, bt, mag, zero64);
    let bits = e.select(u32t, mag_zero, zero32, bits);
    let r = e.cast(CastOp::Bitcast, t, bits);
    // Zeros, infinities and NaNs.
    let ab = e.bin(B::FMul, t, a, b);
    let plain = e.bin(B::FAdd, t, ab, c);
    let exp_field = k32(e, 0x7f80_0000);
    let c_exp = e.bin(B::And, u32t, bits_c, exp_field);
    let c_not_finite = e.icmp(I::Eq, bt, c_exp, exp_field);
    // An infinite c is the result; a NaN c goes through the plain sum, which quiets it as
    // a fused instruction does.
    let c_nan = e.spirv(crate::ir::Primitive::IsNan, bt, vec![c]);
    let c_result = e.select(t, c_nan, plain, c);
    let r = e.select(t, c_not_finite, c_result, r);
    let ab_special = e.spirv(
        crate::ir::Primitive::LogicalOr,
        bt,
        vec![pa.special, pb.special],
    );
    e.select(t, ab_special, plain, r)
}

/// x >> n with the bits shifted out kept as a sticky lowest bit (x < 2^63, n ≥ 0; every bit
/// goes for n ≥ 63).
fn shift_right_jam(e: &mut E, x: Value, n: Value) -> Value {
    let i32t = e.b.ty_of(n);
    let u64t = e.b.ty_of(x);
    let bt = e.b.l.out.ty(Type::Bool);
    let most = e.splat(i32t, ConstantKind::Int(63));
    let n = e.glsl(G::SMin, i32t, vec![n, most]);
    let n = e.cast(CastOp::ZExt, u64t, n);
    let shifted = e.bin(B::LShr, u64t, x, n);
    let one = e.splat(u64t, ConstantKind::Int(1));
    let bit = e.bin(B::Shl, u64t, one, n);
    let mask = e.bin(B::Sub, u64t, bit, one);
    let lost = e.bin(B::And, u64t, x, mask);
    let zero = e.splat(u64t, ConstantKind::Int(0));
    let sticky = e.icmp(I::Ne, bt, lost, zero);
    let sticky = e.select(u64t, sticky, one, zero);
    e.bin(B::Or, u64t, shifted, sticky)
}

/// The leading zeros of a nonzero 64-bit integer, as a 32-bit integer (from FindUMsb of its
/// halves: GLSL's takes 32-bit integers).
fn leading_zeros(e: &mut E, x: Value) -> Value {
    let u64t = e.b.ty_of(x);
    let u32t = e.b.l.out.int_type(32);
    let bt = e.b.l.out.ty(Type::Bool);
    let k32 = |e: &mut E, v: u64| e.splat(u32t, ConstantKind::Int(v));
    let thirty_two = e.splat(u64t, ConstantKind::Int(32));
    let hi = e.bin(B::LShr, u64t, x, thirty_two);
    let hi = e.cast(CastOp::Trunc, u32t, hi);
    let lo = e.cast(CastOp::Trunc, u32t, x);
    let zero = k32(e, 0);
    let has_hi = e.icmp(I::Ne, bt, hi, zero);
    let msb_hi = e.glsl(G::FindUMsb, u32t, vec![hi]);
    let msb_lo = e.glsl(G::FindUMsb, u32t, vec![lo]);
    let k31 = k32(e, 31);
    let k63 = k32(e, 63);
    let from_hi = e.bin(B::Sub, u32t, k31, msb_hi);
    let from_lo = e.bin(B::Sub, u32t, k63, msb_lo);
    e.select(u32t, has_hi, from_hi, from_lo)
}
