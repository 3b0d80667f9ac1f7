//! What the lowering knows of an integer's bits, and the rewrite it makes with it: an `or` of
//! a left and a right shift whose bits cannot overlap is written as an add (NVIDIA's driver
//! miscomputes the 16-bit byte swap written as an `or`). `FnBuilder::push` applies it to
//! every instruction it appends.

use crate::ir::{self, CastOp, ConstantKind, Handle, Op, Type, Value};

use super::body::FnBuilder;

impl FnBuilder<'_, '_> {
    /// An `or` of a left shift and a right shift whose bits cannot overlap (the byte-swap
    /// and rotate idioms) as an add. NVIDIA's driver (580, measured on an H100) computes
    /// the 16-bit byte swap, `(x << 8) | (x >> 8)`, as zero, in 16 bits and in 32 bits
    /// truncated alike; written as an add it computes it right. Every other op is
    /// returned as it is.
    pub(super) fn disjoint_halves(&self, ty: Handle<Type>, op: Op) -> Op {
        let Op::Binary {
            op: ir::BinaryOp::Or,
            lhs,
            rhs,
            flags,
        } = op
        else {
            return op;
        };
        let is_shift = |v: Value, left: bool| {
            let Value::Inst(h) = v else { return false };
            let Op::Binary { op, rhs, .. } = &self.body.insts[h].op else {
                return false;
            };
            self.int_splat(*rhs).is_some()
                && if left {
                    *op == ir::BinaryOp::Shl
                } else {
                    matches!(op, ir::BinaryOp::LShr | ir::BinaryOp::AShr)
                }
        };
        let swap = is_shift(lhs, true) && is_shift(rhs, false)
            || is_shift(lhs, false) && is_shift(rhs, true);
        let op = if swap
            && matches!(self.l.out.types[self.l.out.scalar_of(ty)], Type::Int { .. })
            && self.possible_bits(lhs, 4) & self.possible_bits(rhs, 4) == 0
        {
            ir::BinaryOp::Add
        } else {
            ir::BinaryOp::Or
        };
        Op::Binary {
            op,
            lhs,
            rhs,
            flags,
        }
    }

    /// The value of an integer constant, or of every lane of a vector constant alike.
    fn int_splat(&self, v: Value) -> Option<u64> {
        let Value::Const(c) = v else { return None };
        let out = &self.l.out;
        match &out.constants[c].kind {
            ConstantKind::Int(k) => Some(*k),
            ConstantKind::Composite(lanes) => {
                let first = lanes.first().map(|l| &out.constants[*l].kind)?;
                let ConstantKind::Int(k) = first else {
                    return None;
                };
                lanes
                    .iter()
                    .all(|l| out.constants[*l].kind == *first)
                    .then_some(*k)
            }
            _ => None,
        }
    }

    /// The bits an integer value (of each lane) may have set, looking `depth` definitions
    /// back through shifts by constants, masks and zero extensions.
    fn possible_bits(&self, v: Value, depth: u32) -> u64 {
        let out = &self.l.out;
        let width = match out.types[out.scalar_of(self.ty_of(v))] {
            Type::Int { width } if width <= 64 => width,
            _ => return u64::MAX,
        };
        let all = u64::MAX >> (64 - width);
        if let Some(k) = self.int_splat(v) {
            return k & all;
        }
        let Value::Inst(h) = v else { return all };
        if depth == 0 {
            return all;
        }
        let bits = |x: Value| self.possible_bits(x, depth - 1);
        let shift = |x: Value| self.int_splat(x).filter(|&k| k < u64::from(width));
        match &self.body.insts[h].op {
            Op::Cast {
                op: CastOp::ZExt,
                value,
            } => bits(*value),
            Op::Binary { op, lhs, rhs, .. } => match (op, shift(*rhs)) {
                (ir::BinaryOp::Shl, Some(k)) => (bits(*lhs) << k) & all,
                (ir::BinaryOp::LShr, Some(k)) => bits(*lhs) >> k,
                (ir::BinaryOp::AShr, Some(k)) if bits(*lhs) >> (width - 1) == 0 => bits(*lhs) >> k,
                (ir::BinaryOp::And, _) => bits(*lhs) & bits(*rhs),
                (ir::BinaryOp::Or | ir::BinaryOp::Xor, _) => bits(*lhs) | bits(*rhs),
                _ => all,
            },
            _ => all,
        }
    }
}
