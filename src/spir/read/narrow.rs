//! Integers of widths SPIR and SPIR-V do not have (`i4`, `i24`, `i31`, `i33`, ...), which
//! LLVM's optimizer makes from plain OpenCL C (a `switch (x & 15)` becomes a switch on an
//! `i4`). The graph has only 8-, 16-, 32- and 64-bit integers: such a value is held in the
//! next of those widths, zero-extended (its upper bits are always 0). Instructions whose
//! result could set the upper bits (add, sub, mul, shl, and the signed ones after they
//! sign-extend their operands) mask their result; those that read the value as signed
//! (ashr, sdiv, srem, signed compares, sext, sitofp, getelementptr indices) sign-extend it
//! within the wider integer first. Such integers in memory (loads, stores, allocas,
//! aggregates) would change the layout and are refused.

use llvm_ir::{Operand, TypeRef};

use super::lowering::FnLowering;
use crate::diag::{Error, Result};
use crate::ir::{self, ArithFlags, BinaryOp, ConstantKind, Op, Type, Value};

use super::types::narrow_bits;

impl FnLowering<'_, '_> {
    /// The narrow width of an operand's LLVM type, if it is one the graph holds wider.
    pub(super) fn narrow_of(&self, op: &Operand) -> Option<u32> {
        let t: TypeRef = llvm_ir::types::Typed::get_type(op, &self.types.llvm_module().types);
        narrow_bits(&t)
    }

    /// The constant `v` of integer type `ty` (splat for vectors).
    fn int_splat(&mut self, ty: ir::Handle<Type>, v: u64) -> Value {
        let scalar = self.m.scalar_of(ty);
        let c = self.m.int_const(scalar, v);
        match self.m.types[ty] {
            Type::Vector { len, .. } => Value::Const(self.m.constant(ir::Constant {
                ty,
                kind: ConstantKind::Composite(vec![c; len as usize]),
            })),
            _ => Value::Const(c),
        }
    }

    fn narrow_binary(&mut self, op: BinaryOp, lhs: Value, rhs: Value) -> Value {
        let ty = self.value_type(lhs);
        let op = Op::Binary {
            op,
            lhs,
            rhs,
            flags: ArithFlags::default(),
        };
        Value::Inst(self.emit(None, ty, op))
    }

    /// `v` with every bit above the low `bits` cleared.
    pub(super) fn clear_high(&mut self, v: Value, bits: u32) -> Value {
        let ty = self.value_type(v);
        let mask = self.int_splat(ty, u64::MAX >> (64 - bits));
        self.narrow_binary(BinaryOp::And, v, mask)
    }

    /// `v` with its low `bits` sign-extended over the whole integer that holds it.
    pub(super) fn sign_extend_low(&mut self, v: Value, bits: u32) -> Value {
        let ty = self.value_type(v);
        let width = match self.m.types[self.m.scalar_of(ty)] {
            Type::Int { width } => width,
            _ => return v,
        };
        if width <= bits {
            return v;
        }
        let s = self.int_splat(ty, u64::from(width - bits));
        let up = self.narrow_binary(BinaryOp::Shl, v, s);
        self.narrow_binary(BinaryOp::AShr, up, s)
    }

    /// A binary operation on `bits`-bit integers held wider: the operands a signed operation
    /// reads are sign-extended, results that may carry into the upper bits are masked.
    pub(super) fn narrow_arith(
        &mut self,
        op: BinaryOp,
        lhs: Value,
        rhs: Value,
        bits: u32,
    ) -> Value {
        use BinaryOp as B;
        let (lhs, rhs) = match op {
            B::AShr => (self.sign_extend_low(lhs, bits), rhs),
            B::SDiv | B::SRem => (
                self.sign_extend_low(lhs, bits),
                self.sign_extend_low(rhs, bits),
            ),
            _ => (lhs, rhs),
        };
        let raw = self.narrow_binary(op, lhs, rhs);
        match op {
            B::And | B::Or | B::Xor | B::LShr | B::UDiv | B::URem => raw,
            _ => self.clear_high(raw, bits),
        }
    }

    /// A cast from or to a narrow integer (`from_bits`/`to_bits`: the narrow widths, `None`
    /// for types the graph has), as the graph's casts between the holding widths.
    pub(super) fn narrow_cast(
        &mut self,
        op: ir::CastOp,
        value: Value,
        to: ir::Handle<Type>,
        from_bits: Option<u32>,
        to_bits: Option<u32>,
    ) -> Result<Value> {
        use ir::CastOp as C;
        let from = self.value_type(value);
        let width = |m: &ir::Module, t: ir::Handle<Type>| match m.types[m.scalar_of(t)] {
            Type::Int { width } => width,
            Type::Bool => 1,
            _ => 0,
        };
        let (fw, tw) = (width(self.m, from), width(self.m, to));
        // The value as the operation reads it: signed operations see the sign-extended value.
        let value = match (op, from_bits) {
            (C::SExt | C::SIToFP, Some(bits)) => self.sign_extend_low(value, bits),
            _ => value,
        };
        let cast = |l: &mut Self, op: C| Value::Inst(l.emit(None, to, Op::Cast { op, value }));
        let result = match op {
            C::Trunc | C::ZExt | C::SExt if fw == tw => value,
            C::Trunc if fw > tw => cast(self, C::Trunc),
            C::ZExt | C::SExt if fw < tw => cast(self, op),
            C::UIToFP | C::SIToFP | C::FPToUI | C::FPToSI | C::PtrToInt | C::IntToPtr => {
                cast(self, op)
            }
            // i24 -> i17 (both held in 32 bits) and the like: the mask below.
            C::Trunc => value,
            _ => {
                return Err(Error::unsupported(format!(
                    "{op:?} of an integer of a width SPIR does not have"
                )))
            }
        };
        // Values of narrow types are kept zero-extended; a zero extension keeps them so.
        Ok(match to_bits {
            Some(bits) if op != C::ZExt => self.clear_high(result, bits),
            _ => result,
        })
    }
}
