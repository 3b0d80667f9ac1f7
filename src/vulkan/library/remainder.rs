//! `fmod`, `remainder` and `remquo` of half and float, exact as OpenCL requires (0 ulp), and
//! `remquo`'s quotient bits as the Intel runtime gives them (the low 31 bits of the rounded
//! quotient's magnitude, with the sign of x/y).
//!
//! Doubles: long division on the significands in 64-bit integers (`long_division_double`).
//!
//! Half and float: long division in double, unrolled: each step divides by y scaled by a power of two that
//! leaves a quotient below 2^28, so that the quotient times the divisor (24 + 28 bits) and
//! the difference are exact in double's 53 bits; a rounded division is corrected by one.
//! Eleven steps cover a float's whole exponent range (276 binades, 27 a step); the twelfth
//! is a margin. The quotient's low 32 bits are summed as the steps find them.

use spirv::{GlslStd450Op as G, Op as S};

use crate::diag::Result;
use crate::ir::builtin::CLOp as C;
use crate::ir::{BinaryOp, CastOp, ConstantKind, ConvertKind, FloatPredicate, Handle};
use crate::ir::{IntPredicate, Op, Sign, Type, Value};

use super::E;
use crate::vulkan::emit::plain;

/// The steps of the long division (see the module's comment).
const STEPS: usize = 12;

/// `fmod`, `remainder` or `remquo` (`op`) of `args`, of type `ret`.
pub(super) fn remainder(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Result<Value> {
    let w = e.width(ret);
    if w == 64 {
        let (r, q) = long_division_double(e, args, ret)?;
        return finish(e, op, args, ret, r, q);
    }
    let dt = e.floats(ret, 64);
    let lt = e.ints(ret, 64);
    let it = e.ints(ret, 32);
    let bt = e.bools(ret);
    let x = e.fconvert(dt, args[0]);
    let y = e.fconvert(dt, args[1]);
    let ax = e.glsl(G::FAbs, dt, vec![x]);
    let ay = e.glsl(G::FAbs, dt, vec![y]);
    let ey = ilogb(e, ay, lt, it);
    let zero_i = e.splat(it, ConstantKind::Int(0));
    let (mut r, mut q) = (ax, zero_i);
    let bias27 = e.splat(it, ConstantKind::Int(27));
    let c32 = e.splat(it, ConstantKind::Int(32));
    let one_d = e.float_const(dt, 1.0);
    let zero_d = e.float_const(dt, 0.0);
    for _ in 0..STEPS {
        let er = ilogb(e, r, lt, it);
        let d = e.bin(BinaryOp::Sub, it, er, ey);
        let d = e.bin(BinaryOp::Sub, it, d, bias27);
        let s = e.glsl(G::SMax, it, vec![d, zero_i]);
        let p2 = pow2(e, s, dt, lt);
        let ys = e.bin(BinaryOp::FMul, dt, ay, p2);
        let k = e.bin(BinaryOp::FDiv, dt, r, ys);
        let k = e.glsl(G::Trunc, dt, vec![k]);
        let ky = e.bin(BinaryOp::FMul, dt, k, ys);
        let r1 = e.bin(BinaryOp::FSub, dt, r, ky);
        // The rounded division may be one off either way.
        let neg = e.fcmp(FloatPredicate::Olt, bt, r1, zero_d);
        let r_up = e.bin(BinaryOp::FAdd, dt, r1, ys);
        let r2 = e.select(dt, neg, r_up, r1);
        let k_down = e.bin(BinaryOp::FSub, dt, k, one_d);
        let k2 = e.select(dt, neg, k_down, k);
        let big = e.fcmp(FloatPredicate::Oge, bt, r2, ys);
        let r_down = e.bin(BinaryOp::FSub, dt, r2, ys);
        r = e.select(dt, big, r_down, r2);
        let k_up = e.bin(BinaryOp::FAdd, dt, k2, one_d);
        let k3 = e.select(dt, big, k_up, k2);
        // The quotient's low 32 bits gain k · 2^s.
        let ku = e.b.push(
            it,
            Op::Builtin {
                builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Unsigned)),
                args: vec![k3],
            },
        );
        let shifted = e.bin(BinaryOp::Shl, it, ku, s);
        let in_word = e.icmp(IntPredicate::Ult, bt, s, c32);
        let shifted = e.select(it, in_word, shifted, zero_i);
        q = e.bin(BinaryOp::Add, it, q, shifted);
    }
    finish(e, op, args, ret, r, q)
}

/// |x| mod |y| and the low 32 bits of the quotient for doubles, lane by lane: long division
/// on the 53-bit significands in 64-bit integers, eleven quotient bits a step (a loop of up
/// to 191 steps over the exponents' difference), the remainder scaled back exactly.
fn long_division_double(e: &mut E, args: &[Value], ret: Handle<Type>) -> Result<(Value, Value)> {
    let lanes = e.b.l.out.lanes(ret);
    let it = e.ints(ret, 32);
    let undef = |e: &mut E, t: Handle<Type>| {
        Value::Const(e.b.l.out.constant(crate::ir::Constant {
            ty: t,
            kind: ConstantKind::Undef,
        }))
    };
    let (mut rv, mut qv) = (undef(e, ret), undef(e, it));
    let lane = |e: &mut E, v: Value, i: u32| {
        if lanes == 1 {
            return v;
        }
        let t = e.b.ty_of(v);
        let et = e.b.l.out.scalar_of(t);
        let index = e.b.int_const(32, u64::from(i));
        e.b.push(et, Op::ExtractElement { vector: v, index })
    };
    for i in 0..lanes {
        let x = lane(e, args[0], i);
        let y = lane(e, args[1], i);
        let (r, q) = long_division_lane(e, x, y)?;
        if lanes == 1 {
            return Ok((r, q));
        }
        let index = e.b.int_const(32, u64::from(i));
        rv = e.b.push(
            ret,
            Op::InsertElement {
                vector: rv,
                element: r,
                index,
            },
        );
        qv = e.b.push(
            it,
            Op::InsertElement {
                vector: qv,
                element: q,
                index,
            },
        );
    }
    Ok((rv, qv))
}

/// One lane of `long_division_double`.
fn long_division_lane(e: &mut E, x: Value, y: Value) -> Result<(Value, Value)> {
    use crate::ir::{BlockId, Terminator};
    let dt = e.b.ty_of(x);
    let lt = e.b.l.out.int_type(64);
    let it = e.b.l.out.int_type(32);
    let bt = e.b.l.out.ty(Type::Bool);
    let k64 = |e: &mut E, v: u64| e.splat(lt, ConstantKind::Int(v));
    let k32 = |e: &mut E, v: i64| e.splat(it, ConstantKind::Int(v as u32 as u64));
    // v = m·2^ex with m the significand (subnormals without the leading bit).
    let parts = |e: &mut E, v: Value| {
        let bits = e.cast(CastOp::Bitcast, lt, v);
        let c52 = k64(e, 52);
        let ef = e.bin(BinaryOp::LShr, lt, bits, c52);
        let emask = k64(e, 0x7ff);
        let ef = e.bin(BinaryOp::And, lt, ef, emask);
        let ef = e.cast(CastOp::Trunc, it, ef);
        let fmask = k64(e, (1 << 52) - 1);
        let frac = e.bin(BinaryOp::And, lt, bits, fmask);
        let zero = k32(e, 0);
        let normal = e.icmp(IntPredicate::Ne, bt, ef, zero);
        let lead = k64(e, 1 << 52);
        let with = e.bin(BinaryOp::Or, lt, frac, lead);
        let m = e.select(lt, normal, with, frac);
        let one = k32(e, 1);
        let ef = e.glsl(G::SMax, it, vec![ef, one]);
        let bias = k32(e, 1075);
        (m, e.bin(BinaryOp::Sub, it, ef, bias))
    };
    let ax = e.glsl(G::FAbs, dt, vec![x]);
    let ay = e.glsl(G::FAbs, dt, vec![y]);
    let (mx, ex) = parts(e, ax);
    let (my, ey) = parts(e, ay);
    // A zero, infinite or NaN divisor: any nonzero one (finish gives those NaN).
    let zero64 = k64(e, 0);
    let one64 = k64(e, 1);
    let y_bad = e.icmp(IntPredicate::Eq, bt, my, zero64);
    let my = e.select(lt, y_bad, one64, my);
    let n = e.bin(BinaryOp::Sub, it, ex, ey);
    let x_small = {
        let zero = k32(e, 0);
        e.icmp(IntPredicate::Slt, bt, n, zero)
    };
    let zero32 = k32(e, 0);
    let lim = k32(e, 2100);
    let n = e.glsl(G::SClamp, it, vec![n, zero32, lim]);
    let m0 = e.bin(BinaryOp::URem, lt, mx, my);
    let q0 = e.bin(BinaryOp::UDiv, lt, mx, my);
    let (mv, qv, nv) = (e.b.alloca(lt), e.b.alloca(lt), e.b.alloca(it));
    e.b.store(mv, m0, None, false)?;
    e.b.store(qv, q0, None, false)?;
    e.b.store(nv, n, None, false)?;
    let head = e.b.new_block(Some("divide.head".into()));
    let body = e.b.new_block(Some("divide.body".into()));
    let exit = e.b.new_block(Some("divide.exit".into()));
    e.b.terminate(Terminator::Branch(BlockId(head as u32)));
    e.b.cur = head;
    let n = e.b.load(nv, None, false)?;
    let more = e.icmp(IntPredicate::Sgt, bt, n, zero32);
    e.b.terminate(Terminator::CondBranch {
        cond: more,
        on_true: BlockId(body as u32),
        on_false: BlockId(exit as u32),
    });
    e.b.cur = body;
    let c11 = k32(e, 11);
    let step = e.glsl(G::SMin, it, vec![n, c11]);
    let step64 = e.cast(CastOp::ZExt, lt, step);
    let m = e.b.load(mv, None, false)?;
    let m = e.bin(BinaryOp::Shl, lt, m, step64);
    let qd = e.bin(BinaryOp::UDiv, lt, m, my);
    let m = e.bin(BinaryOp::URem, lt, m, my);
    let q = e.b.load(qv, None, false)?;
    let q = e.bin(BinaryOp::Shl, lt, q, step64);
    let q = e.bin(BinaryOp::Add, lt, q, qd);
    let n = e.bin(BinaryOp::Sub, it, n, step);
    e.b.store(mv, m, None, false)?;
    e.b.store(qv, q, None, false)?;
    e.b.store(nv, n, None, false)?;
    e.b.terminate(Terminator::Branch(BlockId(head as u32)));
    e.b.cur = exit;
    let m = e.b.load(mv, None, false)?;
    let q = e.b.load(qv, None, false)?;
    // r = m·2^ey: exact (a multiple of y's unit below y), scaled in two normal steps.
    let md = e.b.push(
        dt,
        Op::Builtin {
            builtin: plain(ConvertKind::Int(Sign::Unsigned), ConvertKind::Float),
            args: vec![m],
        },
    );
    let two = k32(e, 2);
    let h1 = e.bin(BinaryOp::SDiv, it, ey, two);
    let h2 = e.bin(BinaryOp::Sub, it, ey, h1);
    let p1 = pow2_signed(e, h1, dt, lt);
    let p2 = pow2_signed(e, h2, dt, lt);
    let r = e.bin(BinaryOp::FMul, dt, md, p1);
    let r = e.bin(BinaryOp::FMul, dt, r, p2);
    let r = e.select(dt, x_small, ax, r);
    let q = e.cast(CastOp::Trunc, it, q);
    let q = e.select(it, x_small, zero32, q);
    Ok((r, q))
}

/// 2^s as a double, for an i32 s in the normal range.
fn pow2_signed(e: &mut E, s: Value, dt: Handle<Type>, lt: Handle<Type>) -> Value {
    let s = e.cast(CastOp::SExt, lt, s);
    let bias = e.splat(lt, ConstantKind::Int(1023));
    let c52 = e.splat(lt, ConstantKind::Int(52));
    let b = e.bin(BinaryOp::Add, lt, s, bias);
    let b = e.bin(BinaryOp::Shl, lt, b, c52);
    e.cast(CastOp::Bitcast, dt, b)
}

/// From |x| mod |y| (`r`, in double) and the low 32 bits of the quotient (`q`): the nearest
/// remainder for `remainder` and `remquo`, x's sign, the special operands, and `remquo`'s
/// quotient stored.
fn finish(
    e: &mut E,
    op: C,
    args: &[Value],
    ret: Handle<Type>,
    r: Value,
    q: Value,
) -> Result<Value> {
    let dt = e.floats(ret, 64);
    let it = e.ints(ret, 32);
    let bt = e.bools(ret);
    let zero_i = e.splat(it, ConstantKind::Int(0));
    let (mut r, mut q) = (r, q);
    let y = e.fconvert(dt, args[1]);
    let ay = e.glsl(G::FAbs, dt, vec![y]);
    if op != C::fmod {
        // To the nearest multiple, ties to the even quotient: r against y − r (2r could
        // overflow; y − r is exact where r ≥ y/2, and rounding keeps y − r > r below).
        let rest = e.bin(BinaryOp::FSub, dt, ay, r);
        let gt = e.fcmp(FloatPredicate::Ogt, bt, r, rest);
        let eq = e.fcmp(FloatPredicate::Oeq, bt, r, rest);
        let one_i = e.splat(it, ConstantKind::Int(1));
        let low = e.bin(BinaryOp::And, it, q, one_i);
        let odd = e.icmp(IntPredicate::Ne, bt, low, zero_i);
        let tie_up = e.spirv(S::LogicalAnd, bt, vec![eq, odd]);
        let up = e.spirv(S::LogicalOr, bt, vec![gt, tie_up]);
        let r_less = e.bin(BinaryOp::FSub, dt, r, ay);
        r = e.select(dt, up, r_less, r);
        let q_more = e.bin(BinaryOp::Add, it, q, one_i);
        q = e.select(it, up, q_more, q);
    }
    // The sign of x (from its bits: -0 too), then the special operands.
    let x_neg = sign_bit(e, args[0], bt);
    let neg_r = e.b.push(dt, Op::FNeg(r));
    let r = e.select(dt, x_neg, neg_r, r);
    let r = e.fconvert(ret, r);
    let x_nan = e.spirv(S::IsNan, bt, vec![args[0]]);
    let y_nan = e.spirv(S::IsNan, bt, vec![args[1]]);
    let x_inf = e.spirv(S::IsInf, bt, vec![args[0]]);
    let zero_f = e.float_const(ret, 0.0);
    let y_zero = e.fcmp(FloatPredicate::Oeq, bt, args[1], zero_f);
    let nan = e.spirv(S::LogicalOr, bt, vec![x_nan, y_nan]);
    let nan = e.spirv(S::LogicalOr, bt, vec![nan, x_inf]);
    let nan = e.spirv(S::LogicalOr, bt, vec![nan, y_zero]);
    let x_zero = e.fcmp(FloatPredicate::Oeq, bt, args[0], zero_f);
    let qnan = e.float_const(ret, f64::NAN);
    let r = e.select(ret, x_zero, args[0], r);
    let r = e.select(ret, nan, qnan, r);
    if op == C::remquo {
        let mask = e.splat(it, ConstantKind::Int(0x7fff_ffff));
        let q = e.bin(BinaryOp::And, it, q, mask);
        let y_neg = sign_bit(e, args[1], bt);
        let differ = e.spirv(S::LogicalNotEqual, bt, vec![x_neg, y_neg]);
        let neg_q = e.bin(BinaryOp::Sub, it, zero_i, q);
        let q = e.select(it, differ, neg_q, q);
        let q = e.select(it, nan, zero_i, q);
        let q = e.select(it, x_zero, zero_i, q);
        e.b.store(args[2], q, None, false)?;
    }
    Ok(r)
}

/// The unbiased exponent of the (normal or zero) double `v`, as a 32-bit integer.
fn ilogb(e: &mut E, v: Value, lt: Handle<Type>, it: Handle<Type>) -> Value {
    let bits = e.cast(CastOp::Bitcast, lt, v);
    let c52 = e.splat(lt, ConstantKind::Int(52));
    let m = e.splat(lt, ConstantKind::Int(0x7ff));
    let ex = e.bin(BinaryOp::LShr, lt, bits, c52);
    let ex = e.bin(BinaryOp::And, lt, ex, m);
    let ex = e.cast(CastOp::Trunc, it, ex);
    let bias = e.splat(it, ConstantKind::Int(1023));
    e.bin(BinaryOp::Sub, it, ex, bias)
}

/// 2^s as a double, for 0 <= s < 1024.
fn pow2(e: &mut E, s: Value, dt: Handle<Type>, lt: Handle<Type>) -> Value {
    let s = e.cast(CastOp::ZExt, lt, s);
    let bias = e.splat(lt, ConstantKind::Int(1023));
    let c52 = e.splat(lt, ConstantKind::Int(52));
    let b = e.bin(BinaryOp::Add, lt, s, bias);
    let b = e.bin(BinaryOp::Shl, lt, b, c52);
    e.cast(CastOp::Bitcast, dt, b)
}

/// Whether the float `v`'s sign bit is set.
fn sign_bit(e: &mut E, v: Value, bt: Handle<Type>) -> Value {
    let t = e.b.ty_of(v);
    let w = e.width(t);
    let it = e.ints(t, w);
    let bits = e.cast(CastOp::Bitcast, it, v);
    let zero = e.splat(it, ConstantKind::Int(0));
    e.icmp(IntPredicate::Slt, bt, bits, zero)
}
