//! fma of double correctly rounded, for drivers whose Fma is not fused (Vulkan does not
//! promise it): Boldo and Melquiond's emulation, with the products whose error would
//! underflow computed scaled up, and a result below the normals rounded once at the
//! subnormals' quantum.
//!
//! * The exact product (uh, ul) (`eft::two_prod`), (th, tl) = c + uh exactly, then
//!   th + (tl + ul rounded to odd) rounded once.
//! * Where |a·b| is below 2^-900 (its error part could underflow) and |c| below 2^700 (else
//!   c + a·b rounds to c), the smaller factor and c are scaled by 2^256 first; a result
//!   that is normal scales back exactly, and one that is subnormal is rounded at the
//!   scaled quantum 2^(256 − 1074): th + K exactly as a pair (K = ±2^(256 − 1022), which
//!   puts the sum in a binade whose ulp is that quantum), its low part and the rest rounded
//!   to odd, the sum rounded once, K taken away exactly.
//! * Where |a·b| passes 2^1000 (or overflows) of finite operands, the larger factor and c
//!   are scaled by 2^-256 and the result back (exactly, or to the overflow a·b + c has).
//! * Where an operand is not finite, or the sum passes the largest double, a·b + c (its
//!   infinities and NaNs are the fused ones; an infinite c with finite factors is c); an
//!   exact zero keeps the sign IEEE gives a·b + c.

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::ir::{BinaryOp as B, CastOp, ConstantKind, FloatPredicate as P, Type, Value};

use super::eft::{fast_two_sum, two_prod, two_sum};
use super::E;

/// The scale of a product whose error would underflow.
const SCALE: i32 = 256;

/// fma(a, b, c) of one double lane.
pub(super) fn fma(e: &mut E, a: Value, b: Value, c: Value) -> Value {
    let bt = e.b.l.out.ty(Type::Bool);
    let (aa, ab) = (e.dglsl(G::FAbs, a), e.dglsl(G::FAbs, b));
    let p = e.dbin(B::FMul, a, b);
    let ap = e.dglsl(G::FAbs, p);
    let ac = e.dglsl(G::FAbs, c);
    let (fa, fb, fc) = (finite(e, a), finite(e, b), finite(e, c));
    let factors = e.and(fa, fb);
    let operands = e.and(factors, fc);
    // Scaled up: a product whose error could underflow, beside a c that can take it.
    let tiny_k = e.dconst(2f64.powi(-900));
    let tiny = e.dcmp(P::Olt, ap, tiny_k);
    let c_k = e.dconst(2f64.powi(700));
    let c_small = e.dcmp(P::Olt, ac, c_k);
    let up = e.and(tiny, c_small);
    // Scaled down: a product past 2^1000 (or past the largest double) of finite operands.
    let huge_k = e.dconst(2f64.powi(1000));
    let huge = e.dcmp(P::Ogt, ap, huge_k);
    let down = e.and(huge, operands);
    // The smaller factor is scaled up, the larger down, and c alike.
    let a_smaller = e.dcmp(P::Ole, aa, ab);
    let b_larger = e.spirv(S::LogicalNot, bt, vec![a_smaller]);
    let (kup, kdown) = (e.dconst(2f64.powi(SCALE)), e.dconst(2f64.powi(-SCALE)));
    let a_up = e.and(up, a_smaller);
    let a_down = e.and(down, b_larger);
    let b_up = e.and(up, b_larger);
    let b_down = e.and(down, a_smaller);
    let a2 = scaled(e, a, (a_up, kup), (a_down, kdown));
    let b2 = scaled(e, b, (b_up, kup), (b_down, kdown));
    let c2 = scaled(e, c, (up, kup), (down, kdown));

    let (uh, ul) = two_prod(e, a2, b2);
    let (th, tl) = two_sum(e, c2, uh);
    let rest = round_to_odd(e, tl, ul);
    let r = e.dbin(B::FAdd, th, rest);
    // Scaled back: exact for a normal result (a subnormal one is rounded at its quantum),
    // or the overflow a·b + c has.
    let r_down = e.dbin(B::FMul, r, kdown);
    let sub = subnormal(e, th, rest);
    let ar = e.dglsl(G::FAbs, r);
    let normal_k = e.dconst(2f64.powi(SCALE - 1022));
    let normal = e.dcmp(P::Oge, ar, normal_k);
    let back = e.dsel(normal, r_down, sub);
    let r_up = e.dbin(B::FMul, r, kup);
    let r = e.dsel(up, back, r);
    let r = e.dsel(down, r_up, r);

    // Non-finite operands, and sums that overflow: the plain formula (an infinite c with
    // finite factors is c: the exact product is finite).
    let plain = e.dbin(B::FAdd, p, c);
    let c_inf = e.spirv(S::IsInf, bt, vec![c]);
    let c_only = e.and(factors, c_inf);
    let plain = e.dsel(c_only, c, plain);
    let fp = finite(e, uh);
    let fc2 = finite(e, c2);
    let ok = e.and(fp, fc2);
    let ft = finite(e, th);
    let ok = e.and(ok, ft);
    // An exact zero result keeps the sign IEEE gives a·b + c.
    let zero = e.dconst(0.0);
    let is_zero = e.dcmp(P::Oeq, r, zero);
    let nz = e.spirv(S::LogicalNot, bt, vec![is_zero]);
    let ok = e.and(ok, nz);
    e.dsel(ok, r, plain)
}

/// x times the scale of the first of (condition, scale) `first`, `second` whose condition
/// holds, else x.
fn scaled(e: &mut E, x: Value, first: (Value, Value), second: (Value, Value)) -> Value {
    let x1 = e.dbin(B::FMul, x, first.1);
    let x2 = e.dbin(B::FMul, x, second.1);
    let x = e.dsel(second.0, x2, x);
    e.dsel(first.0, x1, x)
}

fn finite(e: &mut E, x: Value) -> Value {
    let ax = e.dglsl(G::FAbs, x);
    let max = e.dconst(f64::MAX);
    e.dcmp(P::Ole, ax, max)
}

/// x + y rounded to odd: the nearest double of the sum whose last bit is 1 where the sum is
/// inexact (an inexact sum with an even last bit moves one unit towards the error).
fn round_to_odd(e: &mut E, x: Value, y: Value) -> Value {
    let i64t = e.b.l.out.int_type(64);
    let bt = e.b.l.out.ty(Type::Bool);
    let (v, ve) = two_sum(e, x, y);
    let zero = e.dconst(0.0);
    let inexact = e.dcmp(P::One, ve, zero);
    let vb = e.cast(CastOp::Bitcast, i64t, v);
    let one = e.splat(i64t, ConstantKind::Int(1));
    let lsb = e.bin(B::And, i64t, vb, one);
    let zero_i = e.splat(i64t, ConstantKind::Int(0));
    let even = e.icmp(crate::ir::IntPredicate::Eq, bt, lsb, zero_i);
    let adjust = e.and(inexact, even);
    // Away from zero when the error has v's sign, towards it otherwise (v ≠ 0 here: a zero
    // sum is exact).
    let v_neg = e.dcmp(P::Olt, v, zero);
    let e_neg = e.dcmp(P::Olt, ve, zero);
    let same = e.spirv(S::LogicalEqual, bt, vec![v_neg, e_neg]);
    let up = e.bin(B::Add, i64t, vb, one);
    let down = e.bin(B::Sub, i64t, vb, one);
    let moved = e.select(i64t, same, up, down);
    let odd = e.select(i64t, adjust, moved, vb);
    let dt = e.dt();
    e.cast(CastOp::Bitcast, dt, odd)
}

/// The scaled sum th + v (v the rest of the sum rounded to odd; the sum below
/// 2^(SCALE − 1022) in magnitude) rounded once at the quantum of the subnormals scaled, and
/// scaled back (exactly: a multiple of the least subnormal).
fn subnormal(e: &mut E, th: Value, v: Value) -> Value {
    // K has the sum's sign (th's, or the rest's where th is 0), so that K + sum stays in
    // K's binade, whose ulp is the quantum.
    let zero = e.dconst(0.0);
    let th_zero = e.dcmp(P::Oeq, th, zero);
    let lead = e.dsel(th_zero, v, th);
    let negative = e.dcmp(P::Olt, lead, zero);
    let kp = e.dconst(2f64.powi(SCALE - 1022));
    let kn = e.dconst(-(2f64.powi(SCALE - 1022)));
    let k = e.dsel(negative, kn, kp);
    let (hi, lo) = fast_two_sum(e, k, th);
    let rest = round_to_odd(e, lo, v);
    let s = e.dbin(B::FAdd, hi, rest);
    let d = e.dbin(B::FSub, s, k);
    let down = e.dconst(2f64.powi(-SCALE));
    e.dbin(B::FMul, d, down)
}
