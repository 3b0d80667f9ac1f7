//! SPIR-V's integer dot products (`OpSDot`, `OpUDot`, `OpSUDot` and their saturating
//! accumulations; see `ir::IntegerDot`), which Vulkan offers only with
//! `VK_KHR_shader_integer_dot_product`: written as products and sums every device runs.
//!
//! Each component is extended by its sign to the working width (the result's, at least 32
//! bits) and the products are summed there: the plain forms keep the sum's low bits, which is
//! what arithmetic modulo a power of two gives whatever the order. The accumulating forms need
//! the exact sum, which the working width holds when the components are narrow enough (four
//! 8-bit products need 18 bits); the accumulator is then added with a clamp to the result's
//! range.

use crate::diag::{Error, Result};
use crate::ir::builtin::OpenclOp as C;
use crate::ir::{BinaryOp, CastOp, ConstantKind, Handle, IntPredicate, IntegerDot, Op, Sign};
use crate::ir::{Type, Value};

use super::E;

/// `d` of `args` (the two factors, then the accumulator) into a `ret`.
pub(crate) fn lower(e: &mut E, d: IntegerDot, args: &[Value], ret: Handle<Type>) -> Result<Value> {
    let rw = e.width(ret);
    let work = e.b.l.out.int_type(rw.max(32));
    let factor_t = e.b.ty_of(args[0]);
    let lanes = e.b.l.out.lanes(factor_t);
    let packed = lanes == 1;
    let (count, component) = if packed {
        (4, 8)
    } else {
        (lanes, e.width(factor_t))
    };
    let components = |e: &mut E, v: Value, s: Sign| -> Vec<Value> {
        (0..count)
            .map(|i| {
                if packed {
                    byte(e, v, i, s, work)
                } else {
                    let index = e.b.int_const(32, i as u64);
                    let et = e.b.l.out.scalar_of(factor_t);
                    let x = e.b.push(et, Op::ExtractElement { vector: v, index });
                    extend(e, x, s, component, work)
                }
            })
            .collect()
    };
    let xs = components(e, args[0], d.first);
    let ys = components(e, args[1], d.second);
    let mut sum = None;
    for (x, y) in xs.into_iter().zip(ys) {
        let p = e.bin(BinaryOp::Mul, work, x, y);
        sum = Some(match sum {
            None => p,
            Some(s) => e.bin(BinaryOp::Add, work, s, p),
        });
    }
    let sum = sum.ok_or_else(|| Error::malformed("an integer dot product of no components"))?;
    if !d.accumulate {
        return Ok(fit(e, sum, rw, ret));
    }
    // The exact sum's bits: two factors' magnitudes, the lanes' carries and a sign.
    let needed = 2 * component + (32 - (count - 1).leading_zeros()) + 1;
    if needed > rw.max(32) {
        return Err(Error::unsupported(format!(
            "a saturating integer dot product of {count} {component}-bit components into a \
             {rw}-bit integer on Vulkan (the exact sum needs wider integers than it has)"
        )));
    }
    let signed = d.signed_result();
    let sign = if signed { Sign::Signed } else { Sign::Unsigned };
    let acc = extend(e, args[2], sign, rw, work);
    let r = if rw < 32 {
        // The working width holds the exact total: clamp it to the result's range.
        let total = e.bin(BinaryOp::Add, work, sum, acc);
        let (lo, hi) = if signed {
            (-(1i64 << (rw - 1)), (1i64 << (rw - 1)) - 1)
        } else {
            (0, (1i64 << rw) - 1)
        };
        let (lt, gt) = if signed {
            (IntPredicate::Slt, IntPredicate::Sgt)
        } else {
            (IntPredicate::Ult, IntPredicate::Ugt)
        };
        let clamp = |e: &mut E, v: Value, bound: i64, pred| {
            let k = e.splat(work, ConstantKind::Int(bound as u64 & 0xffff_ffff));
            let bt = e.bools(work);
            let past = e.icmp(pred, bt, v, k);
            e.select(work, past, k, v)
        };
        let r = clamp(e, total, lo, lt);
        clamp(e, r, hi, gt)
    } else {
        let op = if signed { C::s_add_sat } else { C::u_add_sat };
        super::integer::saturating(e, op, &[sum, acc], work)
    };
    Ok(fit(e, r, rw, ret))
}

/// Byte `i` of the packed `v`, extended by `s` to `t`.
fn byte(e: &mut E, v: Value, i: u32, s: Sign, t: Handle<Type>) -> Value {
    let v = extend(e, v, Sign::Unsigned, 32, t);
    let up = e.splat(t, ConstantKind::Int(u64::from(e.width(t) - 8 - 8 * i)));
    let high = e.bin(BinaryOp::Shl, t, v, up);
    let down = e.splat(t, ConstantKind::Int(u64::from(e.width(t) - 8)));
    let op = if s == Sign::Signed {
        BinaryOp::AShr
    } else {
        BinaryOp::LShr
    };
    e.bin(op, t, high, down)
}

/// `x`, a `from`-bit integer, extended by `s` to `t` (itself where it is that wide).
fn extend(e: &mut E, x: Value, s: Sign, from: u32, t: Handle<Type>) -> Value {
    if from == e.width(t) {
        return x;
    }
    let op = if s == Sign::Signed {
        CastOp::SExt
    } else {
        CastOp::ZExt
    };
    e.cast(op, t, x)
}

/// `v` of the working width as the `rw`-bit result.
fn fit(e: &mut E, v: Value, rw: u32, ret: Handle<Type>) -> Value {
    if rw < 32 {
        e.cast(CastOp::Trunc, ret, v)
    } else {
        v
    }
}
