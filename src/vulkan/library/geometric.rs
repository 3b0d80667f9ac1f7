//! OpenCL's geometric functions. `length`, `distance` and `normalize` of half and float
//! vectors are computed in double, where the sum of squares neither overflows nor loses
//! bits that matter, and rounded once; `cross` likewise per component (of doubles too:
//! GLSL.std.450's Cross takes no 4-vectors). Of double vectors, and the `fast_*` forms
//! (whose precision OpenCL relaxes), the others are GLSL.std.450's Length, Distance and
//! Normalize.

use spirv::GlslStd450Op as G;

use crate::ir::builtin::CLOp as C;
use crate::ir::{BinaryOp, ConstantKind, FloatPredicate, Handle, Op, Type, Value};

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
            let l = norm(e, x);
            e.fconvert(ret, l)
        }
        C::distance => {
            let (x, y) = (e.widen(args[0]), e.widen(args[1]));
            let xt = e.b.ty_of(x);
            let d = e.bin(BinaryOp::FSub, xt, x, y);
            let l = norm(e, d);
            e.fconvert(ret, l)
        }
        C::normalize => {
            // A zero vector stays zero (OpenCL's special case).
            let x = e.widen(args[0]);
            let xt = e.b.ty_of(x);
            let l = norm(e, x);
            let lv = e.broadcast(xt, l);
            let q = e.bin(BinaryOp::FDiv, xt, x, lv);
            let q = e.fconvert(ret, q);
            let dt = e.b.ty_of(l);
            let bt = e.bools(dt);
            let zero = e.float_const(dt, 0.0);
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
            let p = e.bin(BinaryOp::FMul, dt, a[j], b[k]);
            let q = e.bin(BinaryOp::FMul, dt, a[k], b[j]);
            e.bin(BinaryOp::FSub, dt, p, q)
        })
        .collect();
    // A 4-vector's fourth lane is 0.
    let zero = e.splat(dt, ConstantKind::Float(0));
    parts.resize(e.b.l.out.lanes(xt) as usize, zero);
    e.compose(xt, parts)
}

/// The Euclidean norm of the double vector (or scalar) `x`, in double.
fn norm(e: &mut E, x: Value) -> Value {
    let xt = e.b.ty_of(x);
    let dt = e.b.l.out.scalar_of(xt);
    let lanes = e.b.l.out.lanes(xt);
    if lanes == 1 {
        return e.glsl(G::FAbs, dt, vec![x]);
    }
    let mut sum: Option<Value> = None;
    for i in 0..lanes {
        let idx = e.b.int_const(32, i as u64);
        let c = e.b.push(
            dt,
            Op::ExtractElement {
                vector: x,
                index: idx,
            },
        );
        let sq = e.bin(BinaryOp::FMul, dt, c, c);
        sum = Some(match sum {
            None => sq,
            Some(s) => e.bin(BinaryOp::FAdd, dt, s, sq),
        });
    }
    let s = sum.unwrap_or_else(|| e.float_const(dt, 0.0));
    e.glsl(G::Sqrt, dt, vec![s])
}

impl E<'_, '_, '_> {
    /// `v` (half or float, scalar or vector) converted to double, exactly.
    fn widen(&mut self, v: Value) -> Value {
        let t = self.b.ty_of(v);
        let dt = self.floats(t, 64);
        self.fconvert(dt, v)
    }
}
