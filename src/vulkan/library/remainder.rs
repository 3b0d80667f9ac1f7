//! `fmod`, `remainder` and `remquo` of half and float, exact as OpenCL requires (0 ulp), and
//! `remquo`'s quotient bits as the Intel runtime gives them (the low 31 bits of the rounded
//! quotient's magnitude, with the sign of x/y).
//!
//! Long division on the significands in integers of the floats' width (`long_division`:
//! doubles in 64-bit integers, floats in 32-bit ones, halves as floats), the quotient's low
//! 32 bits kept as the steps find them.

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::diag::Result;
use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp, CastOp, ConstantKind, ConvertKind, FloatPredicate, Handle};
use crate::ir::{IntPredicate, Op, Sign, Type, Value};

use super::E;
use crate::vulkan::emit::plain;

/// `fmod`, `remainder` or `remquo` (`op`) of `args`, of type `ret`.
pub(super) fn remainder(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Result<Value> {
    // Halves are divided as floats (exactly: the remainder is a half again).
    let wt = if e.width(ret) == 16 {
        e.floats(ret, 32)
    } else {
        ret
    };
    let x = e.fconvert(wt, args[0]);
    let y = e.fconvert(wt, args[1]);
    let (r, q) = long_division(e, &[x, y], wt)?;
    finish(e, op, args, ret, r, q)
}

/// |x| mod |y| and the low 32 bits of the quotient, lane by lane: long division on the
/// significands in integers of the floats' width (doubles: 53 bits in 64-bit integers,
/// eleven quotient bits a step, a loop of up to 191 steps over the exponents' difference;
/// floats: 24 bits in 32-bit integers, eight bits a step, up to 35 steps), the remainder
/// scaled back exactly.
fn long_division(e: &mut E, args: &[Value], ret: Handle<Type>) -> Result<(Value, Value)> {
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

/// The widths of one format for `long_division_lane`: (significand bits after the leading
/// one, the exponent field's mask, the bias plus those bits, bits a step).
fn division_format(double: bool) -> (u64, u64, i64, i64) {
    if double {
        (52, 0x7ff, 1075, 11)
    } else {
        (23, 0xff, 150, 8)
    }
}

/// One lane of `long_division`.
fn long_division_lane(e: &mut E, x: Value, y: Value) -> Result<(Value, Value)> {
    use crate::ir::{BlockId, Terminator};
    let dt = e.b.ty_of(x);
    let double = e.width(dt) == 64;
    let (mbits, emask_v, bias_v, step_v) = division_format(double);
    let lt = e.b.l.out.int_type(if double { 64 } else { 32 });
    let it = e.b.l.out.int_type(32);
    let bt = e.b.l.out.ty(Type::Bool);
    let k64 = |e: &mut E, v: u64| e.splat(lt, ConstantKind::Int(v));
    let k32 = |e: &mut E, v: i64| e.splat(it, ConstantKind::Int(v as u32 as u64));
    // v = m·2^ex with m the significand (subnormals without the leading bit).
    let parts = |e: &mut E, v: Value| {
        let bits = e.cast(CastOp::Bitcast, lt, v);
        let cm = k64(e, mbits);
        let ef = e.bin(BinaryOp::LShr, lt, bits, cm);
        let emask = k64(e, emask_v);
        let ef = e.bin(BinaryOp::And, lt, ef, emask);
        let ef = if double {
            e.cast(CastOp::Trunc, it, ef)
        } else {
            ef
        };
        let fmask = k64(e, (1 << mbits) - 1);
        let frac = e.bin(BinaryOp::And, lt, bits, fmask);
        let zero = k32(e, 0);
        let normal = e.icmp(IntPredicate::Ne, bt, ef, zero);
        let lead = k64(e, 1 << mbits);
        let with = e.bin(BinaryOp::Or, lt, frac, lead);
        let m = e.select(lt, normal, with, frac);
        let one = k32(e, 1);
        let ef = e.glsl(G::SMax, it, vec![ef, one]);
        let bias = k32(e, bias_v);
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
    let lim = k32(e, if double { 2100 } else { 300 });
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
    let cstep = k32(e, step_v);
    let step = e.glsl(G::SMin, it, vec![n, cstep]);
    let step64 = if double {
        e.cast(CastOp::ZExt, lt, step)
    } else {
        step
    };
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
    let q = if double {
        e.cast(CastOp::Trunc, it, q)
    } else {
        q
    };
    let q = e.select(it, x_small, zero32, q);
    Ok((r, q))
}

/// 2^s as a float of `dt` (its bits `lt`), for an i32 s in the normal range.
fn pow2_signed(e: &mut E, s: Value, dt: Handle<Type>, lt: Handle<Type>) -> Value {
    let double = e.width(dt) == 64;
    let s = if double {
        e.cast(CastOp::SExt, lt, s)
    } else {
        s
    };
    let (bias, shift) = if double { (1023, 52) } else { (127, 23) };
    let bias = e.splat(lt, ConstantKind::Int(bias));
    let cs = e.splat(lt, ConstantKind::Int(shift));
    let b = e.bin(BinaryOp::Add, lt, s, bias);
    let b = e.bin(BinaryOp::Shl, lt, b, cs);
    e.cast(CastOp::Bitcast, dt, b)
}

/// From |x| mod |y| (`r`, in float or double) and the low 32 bits of the quotient (`q`): the nearest
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
    let dt = e.b.ty_of(r);
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

/// Whether the float `v`'s sign bit is set.
fn sign_bit(e: &mut E, v: Value, bt: Handle<Type>) -> Value {
    let t = e.b.ty_of(v);
    let w = e.width(t);
    let it = e.ints(t, w);
    let bits = e.cast(CastOp::Bitcast, it, v);
    let zero = e.splat(it, ConstantKind::Int(0));
    e.icmp(IntPredicate::Slt, bt, bits, zero)
}
