//! Division, `sqrt` and `rsqrt` of halves and floats, in float: what Vulkan promises of its
//! own instructions, with the cases it leaves out made good, and no double.
//!
//! * `x / y`: Vulkan's OpFDiv is within 2.5 ulp (OpenCL's bound for float division) only
//!   for |y| in [2^-126, 2^126]. Outside it, both operands are scaled by the same power of
//!   two, which brings y into the range and leaves the quotient as it was: 2^-2 above (x·2^-2
//!   loses bits only where x is below 2^-124, and the quotient then rounds to zero either
//!   way), 2^24 below (x·2^24 overflows only where the quotient does). One rounding, so the
//!   quotient is correctly rounded wherever the device's division is. Halves are divided
//!   as floats (2.5 ulp of a float is far within half's 1 ulp).
//! * `sqrt`: Vulkan's `Sqrt` is "inherited from 1/inversesqrt", about 4.5 ulp in the worst
//!   case; OpenCL allows 3. One step of Heron's, (s + x/s)/2, squares the root's relative
//!   error away and leaves the rounding of its three operations: within 1.75 ulp by
//!   Vulkan's own bounds (the quotient's 2.5 ulp halved), the correctly rounded root on a
//!   device whose Sqrt and division are (lavapipe, NVIDIA, nearly always). Zeros and +∞
//!   are their own roots, a NaN is quieted, negative x gives NaN.
//! * `rsqrt`: Vulkan's `InverseSqrt` is within 2 ulp, OpenCL's bound, for x > 0; ±0 gives
//!   ±∞ and a negative x or a NaN NaN here, where Vulkan leaves them undefined.

use crate::ir::GlslOp as G;

use crate::ir::{BinaryOp as B, FloatPredicate as P, Handle, Type, Value};

use super::E;

/// `x / y` of halves or floats (scalars or vectors of `t`) within 2.5 ulp everywhere.
pub(crate) fn div(e: &mut E, x: Value, y: Value, t: Handle<Type>) -> Value {
    if e.width(t) == 16 {
        let ft = e.floats(t, 32);
        let (xf, yf) = (e.fconvert(ft, x), e.fconvert(ft, y));
        let q = div(e, xf, yf, ft);
        return e.fconvert(t, q);
    }
    let bt = e.bools(t);
    let ay = e.glsl(G::FAbs, t, vec![y]);
    let top = e.float_const(t, 2f64.powi(126));
    let bottom = e.float_const(t, 2f64.powi(-126));
    let big = e.fcmp(P::Ogt, bt, ay, top);
    let small = e.fcmp(P::Olt, bt, ay, bottom);
    let one = e.float_const(t, 1.0);
    let down = e.float_const(t, 0.25);
    let up = e.float_const(t, 2f64.powi(24));
    let k = e.select(t, small, up, one);
    let k = e.select(t, big, down, k);
    let xk = e.bin(B::FMul, t, x, k);
    let yk = e.bin(B::FMul, t, y, k);
    e.bin(B::FDiv, t, xk, yk)
}

/// `sqrt(x)` of one float lane, within an ulp.
pub(crate) fn sqrt(e: &mut E, x: Value, t: Handle<Type>) -> Value {
    let bt = e.bools(t);
    let c = |e: &mut E, v: f64| e.float_const(t, v);
    // Heron's step: (s + x/s)/2, the quotient's divisor always in Vulkan's range.
    let s = e.glsl(G::Sqrt, t, vec![x]);
    let q = e.bin(B::FDiv, t, x, s);
    let sum = e.bin(B::FAdd, t, s, q);
    let half = c(e, 0.5);
    let root = e.bin(B::FMul, t, sum, half);
    // ±0, +∞ and NaN are their own roots; a negative x has none.
    let zero = c(e, 0.0);
    let inf = c(e, f64::INFINITY);
    let is_zero = e.fcmp(P::Oeq, bt, x, zero);
    let is_inf = e.fcmp(P::Oeq, bt, x, inf);
    let not_num = e.spirv(crate::ir::Primitive::IsNan, bt, vec![x]);
    let own = e.spirv(crate::ir::Primitive::LogicalOr, bt, vec![is_zero, is_inf]);
    let negative = e.fcmp(P::Olt, bt, x, zero);
    let nan = default_nan(e, t);
    let r = e.select(t, negative, nan, root);
    let r = e.select(t, own, x, r);
    // A NaN goes through the device's Sqrt, which quiets it as OpenCL's sqrt does.
    e.select(t, not_num, s, r)
}

/// `rsqrt(x)` of halves or floats: GLSL InverseSqrt (2 ulp) where x > 0 (Vulkan leaves the
/// rest undefined); elsewhere, on the bits, ±∞ for ±0 and the default NaN (below) for a
/// negative x or a NaN.
pub(crate) fn rsqrt(e: &mut E, x: Value, t: Handle<Type>) -> Value {
    let bt = e.bools(t);
    let it = e.ints(t, 32);
    let r = e.glsl(G::InverseSqrt, t, vec![x]);
    let zero = e.float_const(t, 0.0);
    let bits = e.cast(crate::ir::CastOp::Bitcast, it, x);
    let k = |e: &mut E, v: u64| e.splat(it, crate::ir::ConstantKind::Int(v));
    let sign = k(e, 0x8000_0000);
    let sign = e.bin(B::And, it, bits, sign);
    let is_zero = e.fcmp(P::Oeq, bt, x, zero);
    let (inf, nan) = (k(e, 0x7f80_0000), k(e, 0xffc0_0000));
    let special = e.select(it, is_zero, inf, nan);
    let special = e.bin(B::Or, it, special, sign);
    let special = e.cast(crate::ir::CastOp::Bitcast, t, special);
    let positive = e.fcmp(P::Ogt, bt, x, zero);
    e.select(t, positive, r, special)
}

/// The NaN an invalid operation gives where no operand is a NaN. OpenCL leaves its bits to
/// the device; this is the one x86 and lavapipe make (sign set, quiet bit), so that the
/// tiers compare bits with the Intel runtime's.
pub(super) fn default_nan(e: &mut E, t: Handle<Type>) -> Value {
    let (w, nan) = match e.width(t) {
        64 => (64, 0xfff8_0000_0000_0000),
        _ => (32, 0xffc0_0000),
    };
    let it = e.ints(t, w);
    let bits = e.splat(it, crate::ir::ConstantKind::Int(nan));
    e.cast(crate::ir::CastOp::Bitcast, t, bits)
}
