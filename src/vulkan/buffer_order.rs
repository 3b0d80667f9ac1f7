//! Comparisons and differences of buffer pointers under `--vulkan-pointers descriptors`.
//!
//! A buffer there has no address, but two pointers to elements of one buffer have an order
//! and a distance, which SPIR-V 1.4 says without numbers: `OpPtrEqual` and `OpPtrNotEqual`
//! for `==` and `!=`, `OpPtrDiff` (a distance in elements) for `<`, `<=`, ... against zero
//! and for `q - p`. Each needs the variablePointersStorageBuffer feature
//! (`super::variable_pointers` lists it).
//!
//! OpenCL C's `q - p` compiles to a subtraction of the two pointers' `ptrtoint`s (divided
//! by the element size afterwards): `differences` finds the `ptrtoint`s whose every use is
//! such a subtraction, and the body lowering keeps them as the pointers themselves.

use crate::diag::{Error, Result};
use crate::hash::HashSet;
use crate::ir::{
    self, AddressSpace, BinaryOp, CastOp, Handle, Inst, IntPredicate, Op, Type, Value,
};

use super::body::FnBuilder;
use super::emit::E;

/// The `ptrtoint`s of pointers whose every use is one side of a subtraction whose other side
/// is such a `ptrtoint` too (`q - p` in OpenCL C).
pub(super) fn differences(body: &ir::Body) -> HashSet<Handle<Inst>> {
    let insts = || body.blocks.iter().flat_map(|b| b.insts.iter().copied());
    let mut set: HashSet<Handle<Inst>> = insts()
        .filter(|&h| {
            matches!(
                body.insts[h].op,
                Op::Cast {
                    op: CastOp::PtrToInt,
                    ..
                }
            )
        })
        .collect();
    // Drop each one with another use until none is left to drop (a subtraction whose other
    // side was dropped is another use).
    loop {
        let mut dropped = HashSet::default();
        let mut other_use = |v: Value| {
            if let Value::Inst(x) = v {
                if set.contains(&x) {
                    dropped.insert(x);
                }
            }
        };
        for b in &body.blocks {
            for &ih in &b.insts {
                match &body.insts[ih].op {
                    Op::Binary {
                        op: BinaryOp::Sub,
                        lhs: Value::Inst(a),
                        rhs: Value::Inst(b),
                        ..
                    } if set.contains(a) && set.contains(b) => {}
                    op => ir::verify::for_each_operand(op, &mut other_use),
                }
            }
            ir::verify::terminator_operands(&b.terminator, &mut other_use);
        }
        if dropped.is_empty() {
            return set;
        }
        set.retain(|h| !dropped.contains(h));
    }
}

impl FnBuilder<'_, '_> {
    /// True for a pointer to an element of a buffer under descriptors (not a view).
    fn buffer_element_pointer(&self, v: Value) -> bool {
        self.space_of(v) == Some(AddressSpace::StorageBuffer) && !self.buffer_views.contains_key(&v)
    }

    /// `a` and `b` as two pointers `OpPtrDiff` and `OpPtrEqual` take, or None where either
    /// is not a pointer to a buffer's element.
    fn buffer_pair(&self, a: Value, b: Value) -> Result<Option<(Value, Value)>> {
        if !self.buffer_element_pointer(a) || !self.buffer_element_pointer(b) {
            return Ok(None);
        }
        if self.ty_of(a) != self.ty_of(b) {
            return Err(Error::unsupported(
                "a comparison or difference of pointers to buffer elements of two types \
                 (under --vulkan-pointers descriptors a buffer has no address; physical \
                 gives it one)",
            ));
        }
        Ok(Some((a, b)))
    }

    /// `q - p` in bytes (the subtraction of two `ptrtoint`s of type `ret`), or None where the
    /// two are not buffer pointers.
    pub(super) fn buffer_difference(
        &mut self,
        q: Value,
        p: Value,
        ret: Handle<Type>,
    ) -> Result<Option<Value>> {
        let Some((q, p)) = self.buffer_pair(q, p)? else {
            return Ok(None);
        };
        let elem = self
            .l
            .out
            .pointee(self.ty_of(q))
            .ok_or_else(|| Error::internal("a buffer pointer without a pointee"))?;
        let size = self.l.out.size_of(elem);
        let d = E { b: self }.spirv(spirv::Op::PtrDiff, ret, vec![q, p]);
        if size == 1 {
            return Ok(Some(d));
        }
        let width = match self.l.out.types[ret] {
            Type::Int { width } => width,
            _ => {
                return Err(Error::internal(
                    "a pointer difference of a non-integer type",
                ))
            }
        };
        let k = self.int_const(width, size);
        Ok(Some(E { b: self }.bin(BinaryOp::Mul, ret, d, k)))
    }

    /// `a pred b` of two buffer pointers, or None where they are not buffer pointers.
    pub(super) fn buffer_compare(
        &mut self,
        pred: IntPredicate,
        a: Value,
        b: Value,
    ) -> Result<Option<Value>> {
        let Some((a, b)) = self.buffer_pair(a, b)? else {
            return Ok(None);
        };
        let bool_t = self.l.out.ty(Type::Bool);
        let mut e = E { b: self };
        let equality = match pred {
            IntPredicate::Eq => Some(spirv::Op::PtrEqual),
            IntPredicate::Ne => Some(spirv::Op::PtrNotEqual),
            _ => None,
        };
        if let Some(op) = equality {
            return Ok(Some(e.spirv(op, bool_t, vec![a, b])));
        }
        // Pointers into one buffer: their order is the sign of their distance.
        let bits = e.b.l.out.addressing.pointer_bits();
        let it = e.b.l.out.int_type(bits);
        let d = e.spirv(spirv::Op::PtrDiff, it, vec![a, b]);
        let signed = match pred {
            IntPredicate::Ugt | IntPredicate::Sgt => IntPredicate::Sgt,
            IntPredicate::Uge | IntPredicate::Sge => IntPredicate::Sge,
            IntPredicate::Ult | IntPredicate::Slt => IntPredicate::Slt,
            _ => IntPredicate::Sle,
        };
        let zero = e.b.int_const(bits, 0);
        Ok(Some(e.icmp(signed, bool_t, d, zero)))
    }
}
