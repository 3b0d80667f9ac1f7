//! OpenCL's geometric functions. `length`, `distance` and `normalize` of half and float
//! vectors are computed in float (halves widened): the vector scaled by the power of two of
//! its largest component (exact), so that the sum of squares neither overflows nor
//! underflows, then the library's `sqrt` (within an ulp) scaled back; a few ulp in all,
//! within OpenCL's bounds. `cross` per component as a·b − c·d from exact products (eft.rs),
//! about an ulp (of doubles too: GLSL.std.450's Cross takes no 4-vectors). Of double
//! vectors, and the `fast_*` forms (whose precision OpenCL relaxes), the others are
//! GLSL.std.450's Length, Distance and Normalize.

use crate::ir::GlslOp as G;

use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp, ConstantKind, FloatPredicate, Handle, Op, Type, Value};

use super::eft;
use super::E;

pub(super) fn geometric(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Option<Value> {
    let at = e.b.ty_of(args[0]);
    let w = e.width(at);
    let glsl = |e: &mut E, g: G| e.glsl(g, ret, args.to_vec());
    Some(match op {
        C::fast_length => glsl(e, G::Length),
        C::fast_distance => glsl(e, G::Distance),
        C::fast_normalize => glsl(e, G::Normalize),
        C::length | C::distance | C::normalize if w == 64 => glsl(
            e,
            match op {
                C::length => G::Length,
                C::distance => G::Distance,
                _ => G::Normalize,
            },
        ),
        // GLSL.std.450's Cross takes 3-vectors only; OpenCL's also 4-vectors (w = 0).
        C::cross if w == 64 => cross(e, args[0], args[1]),
        C::length => {
            let x = e.widen(args[0]);
            let (l, _, _) = scaled_norm(e, x);
            e.fconvert(ret, l)
        }
        C::distance => {
            let (x, y) = (e.widen(args[0]), e.widen(args[1]));
            let xt = e.b.ty_of(x);
            let d = e.bin(BinaryOp::FSub, xt, x, y);
            let (l, _, _) = scaled_norm(e, d);
            e.fconvert(ret, l)
        }
        C::normalize => {
            // The scaled vector over its scaled norm; a zero vector stays zero (OpenCL's
            // special case).
            let x = e.widen(args[0]);
            let xt = e.b.ty_of(x);
            let (l, xs, ls) = scaled_norm(e, x);
            let lv = e.broadcast(xt, ls);
            let q = super::div_sqrt::div(e, xs, lv, xt);
            let q = e.fconvert(ret, q);
            let ft = e.b.ty_of(l);
            let bt = e.bools(ft);
            let zero = e.float_const(ft, 0.0);
            let is_zero = e.fcmp(FloatPredicate::Oeq, bt, l, zero);
            let rb = e.bools(ret);
            let is_zero = e.broadcast(rb, is_zero);
            let zeros = e.splat(ret, ConstantKind::Float(0));
            e.select(ret, is_zero, zeros, q)
        }
        C::cross => {
            let (x, y) = (e.widen(args[0]), e.widen(args[1]));
            let c = cross(e, x, y);
            e.fconvert(ret, c)
        }
        _ => return None,
    })
}

/// The cross product of the 3- or 4-vectors `x` and `y` (of one type), per component; the
/// fourth lane, if any, is 0.
fn cross(e: &mut E, x: Value, y: Value) -> Value {
    let xt = e.b.ty_of(x);
    let dt = e.b.l.out.scalar_of(xt);
    let lane = |e: &mut E, v: Value, i: u32| {
        let idx = e.b.int_const(32, i as u64);
        e.b.push(
            dt,
            Op::ExtractElement {
                vector: v,
                index: idx,
            },
        )
    };
    let (a, b): (Vec<Value>, Vec<Value>) = (0..3).map(|i| (lane(e, x, i), lane(e, y, i))).unzip();
    let mut parts: Vec<Value> = [(1, 2), (2, 0), (0, 1)]
        .into_iter()
        .map(|(j, k)| {
            // a_j·b_k − a_k·b_j with both products exact: their parts' differences summed.
            let (p, pl) = eft::two_prod(e, a[j], b[k]);
            let (q, ql) = eft::two_prod(e, a[k], b[j]);
            let hi = e.bin(BinaryOp::FSub, dt, p, q);
            let lo = e.bin(BinaryOp::FSub, dt, pl, ql);
            let r = e.bin(BinaryOp::FAdd, dt, hi, lo);
            // Infinite or NaN products: the plain difference (the parts are NaN there).
            let bt = e.b.l.out.ty(crate::ir::Type::Bool);
            let bad = e.spirv(crate::ir::Primitive::IsNan, bt, vec![r]);
            e.select(dt, bad, hi, r)
        })
        .collect();
    // A 4-vector's fourth lane is 0.
    let zero = e.splat(dt, ConstantKind::Float(0));
    parts.resize(e.b.l.out.lanes(xt) as usize, zero);
    e.compose(xt, parts)
}

/// The Euclidean norm of the float vector (or scalar) `x`: (the norm, x scaled by 2^-k,
/// the scaled norm), 2^k the power of two of x's largest component (clamped to ±100).
fn scaled_norm(e: &mut E, x: Value) -> (Value, Value, Value) {
    let xt = e.b.ty_of(x);
    let ft = e.b.l.out.scalar_of(xt);
    let lanes = e.b.l.out.lanes(xt);
    let comps: Vec<Value> = (0..lanes)
        .map(|i| {
            if lanes == 1 {
                return x;
            }
            let idx = e.b.int_const(32, i as u64);
            e.b.push(
                ft,
                Op::ExtractElement {
                    vector: x,
                    index: idx,
                },
            )
        })
        .collect();
    let mut m = e.glsl(G::FAbs, ft, vec![comps[0]]);
    for &c in &comps[1..] {
        let a = e.glsl(G::FAbs, ft, vec![c]);
        m = e.glsl(G::NMax, ft, vec![m, a]);
    }
    let f = super::decompose::format(e, ft);
    let p = super::decompose::parts(e, &f, m);
    let it = f.et;
    let lo = e.splat(it, ConstantKind::Int((-100i32) as u32 as u64));
    let hi = e.splat(it, ConstantKind::Int(100));
    let k = e.glsl(G::SClamp, it, vec![p.exponent, lo, hi]);
    let zero_i = e.splat(it, ConstantKind::Int(0));
    let nk = e.bin(BinaryOp::Sub, it, zero_i, k);
    let down = pow2(e, nk);
    let up = pow2(e, k);
    let mut sum: Option<Value> = None;
    let mut scaled = Vec::with_capacity(comps.len());
    for c in comps {
        let cs = e.bin(BinaryOp::FMul, ft, c, down);
        scaled.push(cs);
        let sq = e.bin(BinaryOp::FMul, ft, cs, cs);
        sum = Some(match sum {
            None => sq,
            Some(s) => e.bin(BinaryOp::FAdd, ft, s, sq),
        });
    }
    let s = sum.unwrap_or_else(|| e.float_const(ft, 0.0));
    let ls = super::div_sqrt::sqrt(e, s, ft);
    let l = e.bin(BinaryOp::FMul, ft, ls, up);
    let xs = e.compose(xt, scaled);
    (l, xs, ls)
}

/// 2^k as a float, for a 32-bit integer k in [-126, 127].
fn pow2(e: &mut E, k: Value) -> Value {
    let it = e.b.ty_of(k);
    let bias = e.splat(it, ConstantKind::Int(127));
    let b = e.bin(BinaryOp::Add, it, k, bias);
    let sh = e.splat(it, ConstantKind::Int(23));
    let b = e.bin(BinaryOp::Shl, it, b, sh);
    let ft = e.b.l.out.ty(crate::ir::Type::Float { width: 32 });
    e.cast(crate::ir::CastOp::Bitcast, ft, b)
}

impl E<'_, '_, '_> {
    /// `v` (half or float, scalar or vector) as float, exactly.
    fn widen(&mut self, v: Value) -> Value {
        let t = self.b.ty_of(v);
        let ft = self.floats(t, 32);
        self.fconvert(ft, v)
    }
}
