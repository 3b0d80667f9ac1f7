//! `getelementptr` in shader form: a non-zero first index on a logical pointer folded into the
//! chain that made it, steps on physical pointers (by address where they may be negative:
//! NVIDIA's compiler faults on a negative `OpPtrAccessChain` element), and the index
//! arithmetic they need (widths made to agree, indices added).

use crate::diag::{Error, Result};
use crate::ir::{self, AddressSpace, CastOp, ConstantKind, Handle, Op, Type, Value};

use super::body::FnBuilder;
use super::emit::E;

impl FnBuilder<'_, '_> {
    /// A `getelementptr`. On a logical pointer the first index must be zero; a non-zero one
    /// is folded into the chain that made the pointer when that chain ends in an array
    /// element (`&a[i] + j` is `&a[i + j]`).
    pub(super) fn gep(
        &mut self,
        base: Value,
        indices: Vec<Value>,
        inbounds: bool,
    ) -> Result<Value> {
        if self.view_of(base).is_some() {
            return self.view_gep(base, &indices);
        }
        if let Some(view) = self.buffer_view_of(base) {
            return self.buffer_view_gep(view, &indices);
        }
        let bty = self.ty_of(base);
        let space = self
            .space_of(base)
            .ok_or_else(|| Error::internal("getelementptr on a non-pointer"))?;
        if space != AddressSpace::PhysicalStorageBuffer
            && !indices.first().is_some_and(|&i| self.is_zero(i))
        {
            // A storage-buffer pointer steps over its array with OpPtrAccessChain (variable
            // pointers) where the step cannot be folded into the chain that made it.
            let folded = self.fold_gep(base, indices.clone(), inbounds);
            if space != AddressSpace::StorageBuffer || folded.is_ok() {
                return folded;
            }
        }
        let mut indices = indices;
        if matches!(
            space,
            AddressSpace::PhysicalStorageBuffer | AddressSpace::StorageBuffer
        ) {
            if let Some(step) = indices.first_mut() {
                *step = self.element_step(*step);
            }
        }
        let mut base = base;
        if space == AddressSpace::PhysicalStorageBuffer
            && !indices.first().is_some_and(|&i| self.non_negative(i))
        {
            // NVIDIA's compiler (driver 580) steps a physical pointer wrongly where an
            // `OpPtrAccessChain` element is negative (`p--` walks off the buffer and the
            // device faults), so such a step, or one that may be, is the address's own sum.
            base = self.step_address(base, indices[0]);
            indices[0] = self.int_const(64, 0);
            if indices.len() == 1 {
                return Ok(base);
            }
        }
        if matches!(
            space,
            AddressSpace::Local | AddressSpace::Private | AddressSpace::ModulePrivate
        ) {
            for i in indices.iter_mut().skip(1) {
                *i = self.narrow_index(*i, inbounds);
            }
        }
        let consts = self.l.out.const_indices(&indices);
        self.l.out.struct_indices_as_i32(bty, &mut indices);
        let rt =
            self.l.out.gep_result_type(bty, &consts).ok_or_else(|| {
                Error::internal("a getelementptr whose indices do not fit its type")
            })?;
        Ok(self.push(
            rt,
            Op::Gep {
                inbounds,
                base,
                indices,
            },
        ))
    }

    /// The element step of a `getelementptr` on a buffer pointer as a 64-bit index. LLVM
    /// sign-extends a narrower index (clang writes `p--` as `i32 -1`); SPIR-V does not say
    /// how a driver widens an `OpPtrAccessChain` element, so the widening is ours.
    fn element_step(&mut self, step: Value) -> Value {
        let Type::Int { width } = self.l.out.types[self.ty_of(step)] else {
            return step;
        };
        if width >= 64 {
            return step;
        }
        if let Value::Const(c) = step {
            if let ConstantKind::Int(v) = self.l.out.constants[c].kind {
                let shift = 64 - width;
                return self.int_const(64, (((v << shift) as i64) >> shift) as u64);
            }
        }
        let t = self.l.out.int_type(64);
        self.fit(step, t)
    }

    /// True for an integer constant whose sign bit is clear.
    fn non_negative(&self, v: Value) -> bool {
        let Value::Const(c) = v else {
            return false;
        };
        let (ConstantKind::Int(n), Type::Int { width }) = (
            &self.l.out.constants[c].kind,
            &self.l.out.types[self.l.out.constants[c].ty],
        ) else {
            return false;
        };
        (n >> (width - 1)) & 1 == 0
    }

    /// The physical pointer `step` elements (a 64-bit integer) after `base`, by arithmetic
    /// on its address.
    fn step_address(&mut self, base: Value, step: Value) -> Value {
        let pt = self.ty_of(base);
        let size = self
            .l
            .out
            .pointee(pt)
            .map_or(1, |elem| self.l.out.size_of(elem));
        let it = self.l.out.int_type(64);
        let address = self.cast_to(CastOp::PtrToInt, it, base);
        let k = self.int_const(64, size);
        let mut e = E { b: self };
        let bytes = if size == 1 {
            step
        } else {
            e.bin(ir::BinaryOp::Mul, it, step, k)
        };
        let sum = e.bin(ir::BinaryOp::Add, it, address, bytes);
        self.cast_to(CastOp::IntToPtr, pt, sum)
    }

    pub(super) fn fold_gep(
        &mut self,
        base: Value,
        indices: Vec<Value>,
        inbounds: bool,
    ) -> Result<Value> {
        let refuse = || {
            Error::unsupported(
                "pointer arithmetic on a pointer to private or local memory beyond the array \
                 element it points to (a Vulkan shader's logical pointers only index into \
                 their object)",
            )
        };
        let Value::Inst(h) = base else {
            return Err(refuse());
        };
        let Op::Gep {
            base: b2,
            indices: i2,
            ..
        } = self.body.insts[h].op.clone()
        else {
            return Err(refuse());
        };
        if i2.len() < 2 {
            return Err(refuse());
        }
        // The step before the last index must be into an array.
        let before = self
            .l
            .out
            .gep_pointee(
                self.ty_of(b2),
                &self.l.out.const_indices(&i2[..i2.len() - 1]),
            )
            .ok_or_else(refuse)?;
        if !matches!(
            self.l.out.types[before],
            Type::Array { .. } | Type::SpecArray { .. } | Type::RuntimeArray { .. }
        ) {
            return Err(refuse());
        }
        let last = *i2.last().unwrap_or(&indices[0]);
        let sum = self.add_indices(last, indices[0]);
        let mut folded = i2[..i2.len() - 1].to_vec();
        folded.push(sum);
        folded.extend_from_slice(&indices[1..]);
        self.gep(b2, folded, inbounds)
    }

    /// `a + b` for two index values of possibly different widths (in the wider one); one
    /// of them where the other is zero.
    pub(super) fn add_indices(&mut self, a: Value, b: Value) -> Value {
        if self.is_zero(a) {
            return b;
        }
        if self.is_zero(b) {
            return a;
        }
        let (a, b, t) = self.same_width(a, b);
        self.push(
            t,
            Op::Binary {
                op: ir::BinaryOp::Add,
                lhs: a,
                rhs: b,
                flags: Default::default(),
            },
        )
    }

    /// `a` and `b` (integers) in the wider of their two types, sign-extended, and that type.
    pub(super) fn same_width(&mut self, a: Value, b: Value) -> (Value, Value, Handle<Type>) {
        let (ta, tb) = (self.ty_of(a), self.ty_of(b));
        let (wa, wb) = (self.int_width(a), self.int_width(b));
        if wa >= wb {
            (a, self.widen(b, ta, wb < wa), ta)
        } else {
            (self.widen(a, tb, true), b, tb)
        }
    }

    /// The width of integer `v` (64 for anything else).
    pub(super) fn int_width(&self, v: Value) -> u32 {
        match self.l.out.types[self.ty_of(v)] {
            Type::Int { width } => width,
            _ => 64,
        }
    }

    /// `v` (an integer) as integer type `ty`: sign-extended or truncated.
    pub(super) fn fit(&mut self, v: Value, ty: Handle<Type>) -> Value {
        let to = match self.l.out.types[ty] {
            Type::Int { width } => width,
            _ => 64,
        };
        match self.int_width(v).cmp(&to) {
            std::cmp::Ordering::Equal => v,
            std::cmp::Ordering::Less => self.widen(v, ty, true),
            std::cmp::Ordering::Greater => self.cast_to(CastOp::Trunc, ty, v),
        }
    }

    pub(super) fn widen(&mut self, v: Value, to: Handle<Type>, needed: bool) -> Value {
        if !needed {
            return v;
        }
        // A constant is widened here, not by an instruction.
        if let Value::Const(c) = v {
            if let (ConstantKind::Int(n), Type::Int { width }) = (
                &self.l.out.constants[c].kind,
                &self.l.out.types[self.l.out.constants[c].ty],
            ) {
                let shift = 64 - width;
                let wide = ((n << shift) as i64 >> shift) as u64;
                let Type::Int { width: to_w } = self.l.out.types[to] else {
                    return v;
                };
                let mask = if to_w >= 64 {
                    u64::MAX
                } else {
                    (1 << to_w) - 1
                };
                return Value::Const(self.l.out.int_const(to, wide & mask));
            }
        }
        self.push(
            to,
            Op::Cast {
                op: CastOp::SExt,
                value: v,
            },
        )
    }

    /// An array index into local or private memory as the 32-bit integer it was widened
    /// from, where it was (`sext`, or `zext` of an in-bounds index: such arrays have fewer
    /// than 2^31 elements): 64-bit index arithmetic costs a GPU two instructions a step.
    fn narrow_index(&mut self, i: Value, inbounds: bool) -> Value {
        let Value::Inst(h) = i else {
            return i;
        };
        let Op::Cast { op, value } = self.body.insts[h].op else {
            return i;
        };
        let narrow = matches!(op, CastOp::SExt) || (op == CastOp::ZExt && inbounds);
        if narrow && self.int_width(value) == 32 && self.int_width(i) == 64 {
            value
        } else {
            i
        }
    }
}
