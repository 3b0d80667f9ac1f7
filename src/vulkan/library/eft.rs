//! Error-free transformations of floats of one width, the building blocks of the float and
//! double libraries' extra precision (pairs of floats, double-doubles): a sum or a product
//! as its rounded value and its exact error.
//! Every addition and multiplication is rounded once, as written: the writer's NoContraction
//! on every float instruction of a shader keeps a driver from fusing or reordering them.
//! A pair (hi, lo) stands for hi + lo with |lo| at most half an ulp of hi.

use crate::ir::GlslOp as G;

use crate::ir::{BinaryOp as B, FloatPredicate as P, Handle, Type, Value};

use super::E;

/// hi + lo.
pub(super) type Pair = (Value, Value);

/// a + b exactly (Knuth's TwoSum: any order of magnitudes).
pub(super) fn two_sum(e: &mut E, a: Value, b: Value) -> Pair {
    let t = e.b.ty_of(a);
    let s = e.bin(B::FAdd, t, a, b);
    let bb = e.bin(B::FSub, t, s, a);
    let ab = e.bin(B::FSub, t, s, bb);
    let db = e.bin(B::FSub, t, b, bb);
    let da = e.bin(B::FSub, t, a, ab);
    (s, e.bin(B::FAdd, t, da, db))
}

/// a + b exactly where |a| ≥ |b| (or a is zero) (Dekker's FastTwoSum).
pub(super) fn fast_two_sum(e: &mut E, a: Value, b: Value) -> Pair {
    let t = e.b.ty_of(a);
    let s = e.bin(B::FAdd, t, a, b);
    let z = e.bin(B::FSub, t, s, a);
    (s, e.bin(B::FSub, t, b, z))
}

/// a as hi + lo, each with half the significand's bits (Veltkamp's split). For halves and
/// floats the caller keeps |a| below 2^-(s+1) of the largest finite value (s: half the
/// significand), where (2^s + 1)·a cannot overflow; a double above 2^995 is split scaled
/// down by 2^-60 (so that (2^27 + 1)·a stays below 2^992 up to the largest double) and its
/// parts scaled back (the double library takes any finite operand).
pub(super) fn split(e: &mut E, a: Value) -> Pair {
    let t = e.b.ty_of(a);
    let (factor, wide) = match e.width(t) {
        16 => (33.0, false),        // 2^5 + 1
        32 => (4097.0, false),      // 2^12 + 1
        _ => (134_217_729.0, true), // 2^27 + 1
    };
    if !wide {
        return veltkamp(e, a, factor);
    }
    let bt = e.bools(t);
    let ax = e.glsl(G::FAbs, t, vec![a]);
    let big_k = e.float_const(t, 2f64.powi(995));
    let big = e.fcmp(P::Ogt, bt, ax, big_k);
    let down = e.float_const(t, 2f64.powi(-60));
    let ad = e.bin(B::FMul, t, a, down);
    let a = e.select(t, big, ad, a);
    let (hi, lo) = veltkamp(e, a, factor);
    let up = e.float_const(t, 2f64.powi(60));
    let hu = e.bin(B::FMul, t, hi, up);
    let lu = e.bin(B::FMul, t, lo, up);
    (e.select(t, big, hu, hi), e.select(t, big, lu, lo))
}

/// Veltkamp's split by `factor` = 2^s + 1.
fn veltkamp(e: &mut E, a: Value, factor: f64) -> Pair {
    let t = e.b.ty_of(a);
    let c = e.float_const(t, factor);
    let ca = e.bin(B::FMul, t, c, a);
    let d = e.bin(B::FSub, t, ca, a);
    let hi = e.bin(B::FSub, t, ca, d);
    (hi, e.bin(B::FSub, t, a, hi))
}

/// a·b exactly (Dekker's product), for a and b that `split` takes and a product whose error
/// does not underflow. Where a double factor passes 2^995 the error is that of the product
/// with it scaled by 2^-64, scaled back (exact: the partial products of the halves of a
/// factor near the largest double could round past it).
pub(super) fn two_prod(e: &mut E, a: Value, b: Value) -> Pair {
    let t = e.b.ty_of(a);
    if e.width(t) == 64 {
        let bt = e.bools(t);
        let big_k = e.float_const(t, 2f64.powi(995));
        let aa = e.glsl(G::FAbs, t, vec![a]);
        let ab = e.glsl(G::FAbs, t, vec![b]);
        let a_big = e.fcmp(P::Ogt, bt, aa, big_k);
        let b_big = e.fcmp(P::Ogt, bt, ab, big_k);
        let down = e.float_const(t, 2f64.powi(-64));
        let ad = e.bin(B::FMul, t, a, down);
        let bd = e.bin(B::FMul, t, b, down);
        let a2 = e.select(t, a_big, ad, a);
        let b2 = e.select(t, b_big, bd, b);
        let p = e.bin(B::FMul, t, a, b);
        let (_, err) = dekker(e, a2, b2);
        // Each scaled factor took 2^-64 from the error.
        let up = e.float_const(t, 2f64.powi(64));
        let eu = e.bin(B::FMul, t, err, up);
        let err = e.select(t, a_big, eu, err);
        let eu = e.bin(B::FMul, t, err, up);
        return (p, e.select(t, b_big, eu, err));
    }
    dekker(e, a, b)
}

/// Dekker's product of a and b as they are.
fn dekker(e: &mut E, a: Value, b: Value) -> Pair {
    let t = e.b.ty_of(a);
    let p = e.bin(B::FMul, t, a, b);
    let (ah, al) = split(e, a);
    let (bh, bl) = split(e, b);
    let hh = e.bin(B::FMul, t, ah, bh);
    let err = e.bin(B::FSub, t, hh, p);
    let hl = e.bin(B::FMul, t, ah, bl);
    let err = e.bin(B::FAdd, t, err, hl);
    let lh = e.bin(B::FMul, t, al, bh);
    let err = e.bin(B::FAdd, t, err, lh);
    let ll = e.bin(B::FMul, t, al, bl);
    (p, e.bin(B::FAdd, t, err, ll))
}

/// (hi, lo)·k for a pair constant k = (k_hi, k_lo): the product's leading part exact, the
/// cross terms rounded (a relative error of about 2^-2p).
pub(super) fn mul_const(e: &mut E, x: Pair, k: (f64, f64)) -> Pair {
    let t = e.b.ty_of(x.0);
    let (kh, kl) = (e.float_const(t, k.0), e.float_const(t, k.1));
    let (p, q) = two_prod(e, x.0, kh);
    let a = e.bin(B::FMul, t, x.0, kl);
    let b = e.bin(B::FMul, t, x.1, kh);
    let ab = e.bin(B::FAdd, t, a, b);
    let q = e.bin(B::FAdd, t, q, ab);
    fast_two_sum(e, p, q)
}

/// (hi, lo)·y for a pair x and a value y: the leading product exact, lo·y rounded.
pub(super) fn mul_value(e: &mut E, x: Pair, y: Value) -> Pair {
    let t = e.b.ty_of(y);
    let (p, err) = two_prod(e, x.0, y);
    let low = e.bin(B::FMul, t, x.1, y);
    let err = e.bin(B::FAdd, t, err, low);
    fast_two_sum(e, p, err)
}

/// x·y for two pairs: the leading product exact, the cross terms rounded.
pub(super) fn mul(e: &mut E, x: Pair, y: Pair) -> Pair {
    let t = e.b.ty_of(x.0);
    let (p, err) = two_prod(e, x.0, y.0);
    let a = e.bin(B::FMul, t, x.0, y.1);
    let b = e.bin(B::FMul, t, x.1, y.0);
    let err = e.bin(B::FAdd, t, err, a);
    let err = e.bin(B::FAdd, t, err, b);
    fast_two_sum(e, p, err)
}

/// (hi, lo) + (hi', lo') (both pairs; the result normalized).
pub(super) fn add(e: &mut E, x: Pair, y: Pair) -> Pair {
    let t = e.b.ty_of(x.0);
    let (s, err) = two_sum(e, x.0, y.0);
    let lo = e.bin(B::FAdd, t, x.1, y.1);
    let err = e.bin(B::FAdd, t, err, lo);
    fast_two_sum(e, s, err)
}

/// A constant of `t` split into a pair: its value rounded to `t`, then the rest rounded.
pub(super) fn constant_pair(e: &E, t: Handle<Type>, v: f64) -> (f64, f64) {
    let hi = match e.width(t) {
        32 => v as f32 as f64,
        _ => v,
    };
    (hi, v - hi)
}
