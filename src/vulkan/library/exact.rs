//! Exact float builtins made of compares, selects and the bits: `maxmag`, `minmag`,
//! `nextafter` and `nan`; and the `native_*` functions GLSL.std.450 has no one instruction
//! for (their precision is implementation-defined in OpenCL).

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::ir::builtin::OpenclOp as C;
use crate::ir::Value;
use crate::ir::{BinaryOp, CastOp, ConstantKind, FloatPredicate, Handle, Type};

use super::E;

/// `maxmag` / `minmag`: the operand of the larger / smaller magnitude, else fmax / fmin
/// (which also gives the other operand where one is NaN, as OpenCL says).
pub(super) fn by_magnitude(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Value {
    let (x, y) = (args[0], args[1]);
    let ax = e.glsl(G::FAbs, ret, vec![x]);
    let ay = e.glsl(G::FAbs, ret, vec![y]);
    let bt = e.bools(ret);
    let (pred, tie) = if op == C::maxmag {
        (FloatPredicate::Ogt, G::NMax)
    } else {
        (FloatPredicate::Olt, G::NMin)
    };
    let x_wins = e.fcmp(pred, bt, ax, ay);
    let y_wins = e.fcmp(pred, bt, ay, ax);
    let t = e.glsl(tie, ret, vec![x, y]);
    let r = e.select(ret, y_wins, y, t);
    e.select(ret, x_wins, x, r)
}

/// `nextafter(x, y)`: the next float after x towards y (on the bits), y where they are
/// equal, NaN where either is.
pub(super) fn nextafter(e: &mut E, args: &[Value], ret: Handle<Type>) -> Value {
    let (x, y) = (args[0], args[1]);
    let w = e.width(ret);
    let it = e.ints(ret, w);
    let bt = e.bools(ret);
    let bits = e.cast(CastOp::Bitcast, it, x);
    let one = e.splat(it, ConstantKind::Int(1));
    let up = e.bin(BinaryOp::Add, it, bits, one);
    let down = e.bin(BinaryOp::Sub, it, bits, one);
    // Away from zero when y lies beyond x on x's side of zero.
    let zero = e.float_const(ret, 0.0);
    let x_pos = e.fcmp(FloatPredicate::Ogt, bt, x, zero);
    let x_below = e.fcmp(FloatPredicate::Olt, bt, x, y);
    let away = e.spirv(S::LogicalEqual, bt, vec![x_pos, x_below]);
    let stepped = e.select(it, away, up, down);
    let stepped = e.cast(CastOp::Bitcast, ret, stepped);
    // From zero: the smallest subnormal with y's sign.
    let tiny = e.splat(it, ConstantKind::Int(1));
    let tiny = e.cast(CastOp::Bitcast, ret, tiny);
    let tiny = super::copysign(e, ret, tiny, y);
    let x_zero = e.fcmp(FloatPredicate::Oeq, bt, x, zero);
    let r = e.select(ret, x_zero, tiny, stepped);
    let equal = e.fcmp(FloatPredicate::Oeq, bt, x, y);
    let r = e.select(ret, equal, y, r);
    let x_nan = e.spirv(S::IsNan, bt, vec![x]);
    let y_nan = e.spirv(S::IsNan, bt, vec![y]);
    let nan = e.spirv(S::LogicalOr, bt, vec![x_nan, y_nan]);
    let sum = e.bin(BinaryOp::FAdd, ret, x, y);
    e.select(ret, nan, sum, r)
}

/// `nan(nancode)`: a quiet NaN with the code in its low fraction bits.
pub(super) fn nan(e: &mut E, args: &[Value], ret: Handle<Type>) -> Value {
    let w = e.width(ret);
    let it = e.ints(ret, w);
    // The exponent all ones, the quiet bit (the fraction's highest), the code below it.
    let mbits: u64 = match w {
        16 => 10,
        32 => 23,
        _ => 52,
    };
    let quiet_bit = 1u64 << (mbits - 1);
    let quiet = (((1u64 << (w as u64 - 1 - mbits)) - 1) << mbits) | quiet_bit;
    let code_t = e.b.ty_of(args[0]);
    let code = if e.width(code_t) == w {
        args[0]
    } else if e.width(code_t) < w {
        e.cast(CastOp::ZExt, it, args[0])
    } else {
        e.cast(CastOp::Trunc, it, args[0])
    };
    let mask = e.splat(it, ConstantKind::Int(quiet_bit - 1));
    let code = e.bin(BinaryOp::And, it, code, mask);
    let q = e.splat(it, ConstantKind::Int(quiet));
    let bits = e.bin(BinaryOp::Or, it, q, code);
    e.cast(CastOp::Bitcast, ret, bits)
}

/// `logb(x)` (the unbiased exponent as a float) and `ilogb(x)` (as an int): subnormals
/// normalized exactly (`decompose::parts`); logb gives −inf at zero, +inf at infinities and NaN at
/// NaN; ilogb gives FP_ILOGB0 (INT_MIN) at zero and FP_ILOGBNAN (INT_MAX) at NaN and
/// infinities.
pub(super) fn logb(e: &mut E, op: C, x: Value, ret: Handle<Type>) -> Value {
    let xt = e.b.ty_of(x);
    let f = super::decompose::format(e, xt);
    let (et, bt) = (f.et, f.bt);
    let n = super::decompose::parts(e, &f, x).exponent;
    let k = |e: &mut E, v: i64| e.splat(et, ConstantKind::Int(v as u32 as u64));
    let ax = e.glsl(G::FAbs, xt, vec![x]);
    let zero_f = e.float_const(xt, 0.0);
    let is_zero = e.fcmp(FloatPredicate::Oeq, bt, x, zero_f);
    let inf = e.spirv(S::IsInf, bt, vec![x]);
    let nan = e.spirv(S::IsNan, bt, vec![x]);
    if op == C::ilogb {
        let min = k(e, i32::MIN as i64);
        let max = k(e, i32::MAX as i64);
        let special = e.spirv(S::LogicalOr, bt, vec![inf, nan]);
        let n = e.select(et, special, max, n);
        let n = e.select(et, is_zero, min, n);
        return if e.b.ty_of(n) == ret {
            n
        } else {
            e.cast(CastOp::SExt, ret, n)
        };
    }
    let f = e.b.push(
        ret,
        crate::ir::Op::Builtin {
            builtin: crate::vulkan::emit::plain(
                crate::ir::ConvertKind::Int(crate::ir::Sign::Signed),
                crate::ir::ConvertKind::Float,
            ),
            args: vec![n],
        },
    );
    let ninf = e.float_const(ret, f64::NEG_INFINITY);
    let f = e.select(ret, is_zero, ninf, f);
    let f = e.select(ret, inf, ax, f);
    e.select(ret, nan, x, f)
}

/// The `native_*` functions of implementation-defined precision that are one GLSL.std.450
/// instruction and a multiplication or a division.
pub(super) fn native(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Option<Value> {
    Some(match op {
        C::native_exp10 => {
            let k = e.float_const(ret, std::f64::consts::LOG2_10);
            let x = e.bin(BinaryOp::FMul, ret, args[0], k);
            e.glsl(G::Exp2, ret, vec![x])
        }
        C::native_log10 => {
            let l = e.glsl(G::Log2, ret, vec![args[0]]);
            let k = e.float_const(ret, std::f64::consts::LOG10_2);
            e.bin(BinaryOp::FMul, ret, l, k)
        }
        C::native_recip => {
            let one = e.float_const(ret, 1.0);
            e.bin(BinaryOp::FDiv, ret, one, args[0])
        }
        C::native_divide => e.bin(BinaryOp::FDiv, ret, args[0], args[1]),
        _ => return None,
    })
}
