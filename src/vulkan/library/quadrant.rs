//! The last step of sin, cos and tan after a reduction to q·π/2 + r, the same in both
//! precisions (trig_float.rs, trig_double.rs): the quadrant picks ±sin r or ±cos r, or
//! sin r / cos r or −cos r / sin r.

use crate::ir::{BinaryOp as B, IntPredicate as I, Op, Type, Value};

use super::E;

/// sin (`shift` 0) or cos (`shift` 1) of q·π/2 + r, from r's sine s and cosine c (either
/// precision): quadrant (q + shift) mod 4 picks s, c, −s or −c.
pub(super) fn quadrant(e: &mut E, s: Value, c: Value, q: Value, shift: i64) -> Value {
    let t = e.b.ty_of(s);
    let i32t = e.b.l.out.int_type(32);
    let bt = e.b.l.out.ty(Type::Bool);
    let k = |e: &mut E, v: i64| Value::Const(e.b.l.out.int_const(i32t, v as u64));
    let sh = k(e, shift);
    let n = e.bin(B::Add, i32t, q, sh);
    let three = k(e, 3);
    let n = e.bin(B::And, i32t, n, three);
    let (one, two, zero) = (k(e, 1), k(e, 2), k(e, 0));
    let odd = e.bin(B::And, i32t, n, one);
    let odd = e.icmp(I::Ne, bt, odd, zero);
    let negative = e.bin(B::And, i32t, n, two);
    let negative = e.icmp(I::Ne, bt, negative, zero);
    let v = e.select(t, odd, c, s);
    let nv = e.b.push(t, Op::FNeg(v));
    e.select(t, negative, nv, v)
}

/// tan of q·π/2 + r from r's sine s and cosine c: s / c, or −c / s in odd quadrants.
pub(super) fn tan_quadrant(e: &mut E, s: Value, c: Value, q: Value) -> Value {
    let t = e.b.ty_of(s);
    let i32t = e.b.l.out.int_type(32);
    let bt = e.b.l.out.ty(Type::Bool);
    let one = Value::Const(e.b.l.out.int_const(i32t, 1));
    let zero = Value::Const(e.b.l.out.int_const(i32t, 0));
    let odd = e.bin(B::And, i32t, q, one);
    let odd = e.icmp(I::Ne, bt, odd, zero);
    let tn = e.bin(B::FDiv, t, s, c);
    let nc = e.b.push(t, Op::FNeg(c));
    let cot = e.bin(B::FDiv, t, nc, s);
    e.select(t, odd, cot, tn)
}
