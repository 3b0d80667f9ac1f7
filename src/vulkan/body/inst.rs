//! One source instruction in shader form: calls inlined, builtins lowered, memory accesses
//! through forwarded variables, addressed private memory, buffer views or typed pointers,
//! and the few value instructions whose Vulkan form means something else.

use crate::diag::{Error, Result};
use crate::ir::{
    self, AddressSpace, ConstantKind, FloatPredicate, Handle, Inst, Op, Primitive, Type, Value,
};

use super::seam::PrintfArg;
use super::{FnBuilder, Frame};

impl FnBuilder<'_, '_> {
    /// Lower one instruction; its value, if it has one.
    pub(super) fn inst(
        &mut self,
        frame: &mut Frame,
        body: &ir::Body,
        ih: Handle<Inst>,
        inst: &Inst,
    ) -> Result<Option<Value>> {
        match &inst.op {
            Op::DebugDeclare { .. } | Op::DebugValue { .. } => Ok(self.debug_inst(frame, inst)),
            Op::Call { .. } | Op::Builtin { .. } => self.call_inst(frame, body, inst),
            Op::Alloca { .. }
            | Op::Load { .. }
            | Op::Store { .. }
            | Op::Gep { .. }
            | Op::Cast { .. }
            | Op::CopyMemory { .. }
            | Op::FillMemory { .. } => self.memory_inst(frame, body, ih, inst),
            _ => self.value_inst(frame, body, inst),
        }
    }

    /// A debug declaration, its operand moved over where the shader has it as a value of its
    /// own (a variable, a parameter's value, a result): where it does not (private memory
    /// made addressed, a pointer folded away), the declaration is left out, since debug
    /// information must not change the code made.
    fn debug_inst(&mut self, frame: &mut Frame, inst: &Inst) -> Option<Value> {
        let (Op::DebugDeclare { address: v, .. } | Op::DebugValue { value: v, .. }) = &inst.op
        else {
            return None;
        };
        let mapped = match v {
            Value::Inst(h) => frame.vals.get(h).copied()?,
            Value::Param(i) => *frame.args.get(*i as usize)?,
            Value::Const(_) => self.value(frame, *v).ok()?,
        };
        if let Op::DebugDeclare { .. } = inst.op {
            // A declaration names a Function variable of the shader.
            let Value::Inst(a) = mapped else { return None };
            if !matches!(self.body.insts[a].op, Op::Alloca { .. }) {
                return None;
            }
        }
        let mut op = inst.op.clone();
        ir::operands::for_each_operand_mut(&mut op, |x| *x = mapped);
        let void = self.void();
        self.push(void, op);
        None
    }

    /// A call (inlined) or a builtin (lowered by `builtins`, printf by `printf`).
    fn call_inst(
        &mut self,
        frame: &mut Frame,
        body: &ir::Body,
        inst: &Inst,
    ) -> Result<Option<Value>> {
        let src = self.l.src;
        match &inst.op {
            Op::Call { callee, args } => {
                let args = args
                    .iter()
                    .map(|&a| self.value(frame, a))
                    .collect::<Result<Vec<_>>>()?;
                self.inline(*callee, args)
            }
            Op::Builtin {
                builtin:
                    ir::Builtin::ExtInst {
                        op: ir::builtin::OpenclOp::printf,
                        ..
                    },
                args,
            } => {
                // String constants stay strings (the format, `%s` arguments): the host
                // prints them from the module's records.
                let mut printed = Vec::with_capacity(args.len());
                for &a in args {
                    let null_pointer = matches!(a, Value::Const(c)
                        if src.constants[c].kind == ConstantKind::Null
                            && matches!(src.types[src.constants[c].ty], Type::Pointer { .. }));
                    printed.push(match (self.kctx.families.string_of)(src, body, a) {
                        Some(s) => PrintfArg::Str(s),
                        // `%p` of a null pointer, whatever its memory: its address is 0.
                        None if null_pointer => PrintfArg::Value(
                            self.int_const(src.addressing.pointer_bits(), 0),
                        ),
                        // A float printf reads as a double: widened on its bits.
                        None if matches!(a, Value::Inst(h) if frame.printf_widenings.contains(&h)) => {
                            PrintfArg::Widened(self.value(frame, a)?)
                        }
                        None => PrintfArg::Value(self.value(frame, a)?),
                    });
                }
                let ret = self.l.ty(inst.ty)?;
                (self.kctx.families.printf)(self, printed, ret).map(Some)
            }
            Op::Builtin { builtin, args } => {
                let mut lowered = Vec::with_capacity(args.len());
                for &a in args {
                    let v = self.value(frame, a)?;
                    let st = frame.src_ty(src, body, a);
                    lowered.push(if self.l.is_addressed(st) {
                        self.view(v, st)?
                    } else {
                        v
                    });
                }
                (self.kctx.families.builtin)(self, builtin, lowered, inst.ty)
            }
            _ => Err(Error::internal("not a call or a builtin")),
        }
    }

    /// A memory instruction: a pointer variable forwarded to its one stored value, addressed
    /// private memory (`addressed`), else typed memory (`typed_memory_inst`).
    fn memory_inst(
        &mut self,
        frame: &mut Frame,
        body: &ir::Body,
        ih: Handle<Inst>,
        inst: &Inst,
    ) -> Result<Option<Value>> {
        let src = self.l.src;
        match &inst.op {
            // A pointer variable stored once: no variable, its loads are the stored value.
            Op::Alloca { .. } if frame.forwarded.contains_key(&ih) => Ok(None),
            Op::Store {
                ptr: Value::Inst(a),
                value,
                ..
            } if frame.forwarded.contains_key(a) => {
                let v = self.value(frame, *value)?;
                frame.forwarded.insert(*a, Some(v));
                Ok(None)
            }
            Op::Load {
                ptr: Value::Inst(a),
                ..
            } if frame.forwarded.contains_key(a) => frame.forwarded[a]
                .map(Some)
                .ok_or_else(|| Error::internal("a forwarded pointer loaded before its store")),
            // Addressed private memory (`addressed`).
            Op::Alloca { allocated, align } if self.l.private_addressed => {
                let t = self.l.ty(*allocated)?;
                self.arena_alloc(t, *align).map(Some)
            }
            Op::Load { ptr, align, .. } if self.l.is_addressed(frame.src_ty(src, body, *ptr)) => {
                let space = self.l.addressed_space(frame.src_ty(src, body, *ptr));
                let off = self.value(frame, *ptr)?;
                let t = self.l.ty(inst.ty)?;
                let align = self.stated_align(*align, t);
                let space = space.unwrap_or(AddressSpace::Private);
                self.addressed_read(space, off, t, align).map(Some)
            }
            Op::Store {
                ptr, value, align, ..
            } if self.l.is_addressed(frame.src_ty(src, body, *ptr)) => {
                let space = self.l.addressed_space(frame.src_ty(src, body, *ptr));
                let off = self.value(frame, *ptr)?;
                let v = self.value(frame, *value)?;
                let t = self.ty_of(v);
                let align = self.stated_align(*align, t);
                let space = space.unwrap_or(AddressSpace::Private);
                self.addressed_write(space, off, v, t, align)?;
                Ok(None)
            }
            Op::Gep { base, indices, .. }
                if self.l.is_addressed(frame.src_ty(src, body, *base)) =>
            {
                let off = self.value(frame, *base)?;
                let idx = indices
                    .iter()
                    .map(|&i| self.value(frame, i))
                    .collect::<Result<Vec<_>>>()?;
                let bt = frame.src_ty(src, body, *base);
                self.arena_gep(off, bt, &idx).map(Some)
            }
            Op::Cast { op, value }
                if self.l.is_addressed(frame.src_ty(src, body, *value))
                    || self.l.is_addressed(inst.ty) =>
            {
                let v = self.value(frame, *value)?;
                let from = frame.src_ty(src, body, *value);
                self.addressed_cast(*op, v, from, inst.ty).map(Some)
            }
            Op::CopyMemory {
                dst,
                src: from,
                size,
                ..
            } if self.l.is_addressed(frame.src_ty(src, body, *dst))
                || self.l.is_addressed(frame.src_ty(src, body, *from)) =>
            {
                let d = self.side(frame, body, *dst)?;
                let s = self.side(frame, body, *from)?;
                let n = self.value(frame, *size)?;
                self.addressed_copy(d, s, n)?;
                Ok(None)
            }
            Op::FillMemory {
                dst, byte, size, ..
            } if self.l.is_addressed(frame.src_ty(src, body, *dst)) => {
                let d = self.side(frame, body, *dst)?;
                let b = self.value(frame, *byte)?;
                let n = self.value(frame, *size)?;
                self.addressed_fill(d, b, n)?;
                Ok(None)
            }
            _ => self.typed_memory_inst(frame, ih, inst),
        }
    }

    /// A memory instruction on typed (logical or physical) pointers, or on buffer views.
    fn typed_memory_inst(
        &mut self,
        frame: &mut Frame,
        ih: Handle<Inst>,
        inst: &Inst,
    ) -> Result<Option<Value>> {
        match &inst.op {
            Op::Alloca { allocated, align } => {
                let t = self.l.ty(*allocated)?;
                self.check_storable(t, "a variable")?;
                Ok(Some(self.alloca_aligned(t, *align)))
            }
            Op::Load {
                ptr,
                align,
                volatile,
            } => {
                let p = self.value(frame, *ptr)?;
                let x = self.load(p, *align, *volatile)?;
                let want = self.l.ty(inst.ty)?;
                Ok(Some(self.reshape(x, want)))
            }
            Op::Store {
                ptr,
                value,
                align,
                volatile,
            } => {
                let p = self.value(frame, *ptr)?;
                let v = self.value(frame, *value)?;
                let held = self.l.out.pointee(self.ty_of(p)).unwrap_or(self.void_t);
                let v = self.reshape(v, held);
                self.store(p, v, *align, *volatile)?;
                Ok(None)
            }
            Op::Gep {
                inbounds,
                base,
                indices,
            } => {
                let b = self.value(frame, *base)?;
                let idx = indices
                    .iter()
                    .map(|&i| self.value(frame, i))
                    .collect::<Result<Vec<_>>>()?;
                self.gep(b, idx, *inbounds).map(Some)
            }
            Op::Cast { op, value } => {
                let v = self.value(frame, *value)?;
                if frame.byte_views.contains(&ih) || frame.printf_widenings.contains(&ih) {
                    return Ok(Some(v));
                }
                // A buffer pointer only subtracted: kept for `OpPtrDiff` (a device address
                // is a number: cast below).
                if frame.differences.contains(&ih)
                    && self.space_of(v) == Some(AddressSpace::StorageBuffer)
                {
                    return Ok(Some(v));
                }
                let logical = self
                    .space_of(v)
                    .is_some_and(|s| s != AddressSpace::PhysicalStorageBuffer);
                if logical && frame.lane_views.contains(&ih) {
                    return Ok(Some(v));
                }
                if frame.buffer_view_casts.contains(&ih) {
                    if let Some(view) = self.buffer_view(v, inst.ty)? {
                        return Ok(Some(view));
                    }
                }
                self.cast(*op, v, inst.ty).map(Some)
            }
            Op::CopyMemory {
                dst,
                src: from,
                size,
                ..
            } => {
                let d = self.value(frame, *dst)?;
                let s = self.value(frame, *from)?;
                let n = self.value(frame, *size)?;
                self.copy_memory(d, s, n)?;
                Ok(None)
            }
            Op::FillMemory {
                dst, byte, size, ..
            } => {
                let d = self.value(frame, *dst)?;
                let b = self.value(frame, *byte)?;
                let n = self.value(frame, *size)?;
                self.fill_memory(d, b, n)?;
                Ok(None)
            }
            _ => Err(Error::internal("not a memory instruction")),
        }
    }

    /// An instruction that computes a value: most as they are (`copy_inst`), those Vulkan
    /// says otherwise rewritten.
    fn value_inst(
        &mut self,
        frame: &mut Frame,
        body: &ir::Body,
        inst: &Inst,
    ) -> Result<Option<Value>> {
        let src = self.l.src;
        match &inst.op {
            Op::Select {
                cond,
                on_true,
                on_false,
            } => {
                let (c, t, f) = (
                    self.value(frame, *cond)?,
                    self.value(frame, *on_true)?,
                    self.value(frame, *on_false)?,
                );
                let ty = self.ty_of(t);
                if self.holds_logical_pointer(ty, &mut Vec::new()) {
                    return Err(Error::unsupported(
                        "a select between pointers to private or local memory (logical \
                         pointers cannot be chosen at run time)",
                    ));
                }
                Ok(Some(self.push(
                    ty,
                    Op::Select {
                        cond: c,
                        on_true: t,
                        on_false: f,
                    },
                )))
            }
            Op::FCmp {
                pred: pred @ (FloatPredicate::Ord | FloatPredicate::Uno),
                lhs,
                rhs,
            } => {
                // OpOrdered / OpUnordered are Kernel-only: test each operand for NaN.
                let (a, b) = (self.value(frame, *lhs)?, self.value(frame, *rhs)?);
                let t = self.l.ty(inst.ty)?;
                let na = self.push(
                    t,
                    Op::Builtin {
                        builtin: ir::Builtin::Primitive(Primitive::IsNan),
                        args: vec![a],
                    },
                );
                let nb = self.push(
                    t,
                    Op::Builtin {
                        builtin: ir::Builtin::Primitive(Primitive::IsNan),
                        args: vec![b],
                    },
                );
                let either = self.push(
                    t,
                    Op::Builtin {
                        builtin: ir::Builtin::Primitive(Primitive::LogicalOr),
                        args: vec![na, nb],
                    },
                );
                Ok(Some(if *pred == FloatPredicate::Uno {
                    either
                } else {
                    self.push(
                        t,
                        Op::Builtin {
                            builtin: ir::Builtin::Primitive(Primitive::LogicalNot),
                            args: vec![either],
                        },
                    )
                }))
            }
            Op::Phi { .. } => Err(Error::internal("a phi among a block's instructions")),
            Op::ICmp { pred, lhs, rhs }
                if matches!(
                    src.types[frame.src_ty(src, body, *lhs)],
                    Type::Pointer { .. }
                ) =>
            {
                let (a, b) = (self.value(frame, *lhs)?, self.value(frame, *rhs)?);
                if let Some(c) = self.buffer_compare(*pred, a, b)? {
                    return Ok(Some(c));
                }
                // Only device addresses are numbers; other logical pointers have no order
                // (and no equality without variable pointers).
                for v in [a, b] {
                    if self
                        .space_of(v)
                        .is_some_and(|s| s != AddressSpace::PhysicalStorageBuffer)
                    {
                        return Err(Error::unsupported(
                            "a comparison of pointers to private or local memory, or of a \
                             buffer pointer cast to another type under --vulkan-pointers \
                             descriptors (a Vulkan shader's logical pointers are not numbers)",
                        ));
                    }
                }
                self.copy_inst(frame, inst)
            }
            Op::Binary { .. } => self.binary_inst(frame, inst),
            _ => self.copy_inst(frame, inst),
        }
    }

    /// A binary operation: those whose Vulkan instruction means something else rewritten.
    fn binary_inst(&mut self, frame: &mut Frame, inst: &Inst) -> Result<Option<Value>> {
        match &inst.op {
            Op::Binary {
                op: ir::BinaryOp::SRem,
                lhs,
                rhs,
                ..
            } => {
                // `a - (a / b) * b`: NVIDIA's driver (580, measured on an H100) computes
                // OpSRem on 32-bit integer types without signedness as an unsigned remainder.
                let (a, b) = (self.value(frame, *lhs)?, self.value(frame, *rhs)?);
                let t = self.l.ty(inst.ty)?;
                let bin = |s: &mut Self, op, x, y| {
                    s.push(
                        t,
                        Op::Binary {
                            op,
                            lhs: x,
                            rhs: y,
                            flags: Default::default(),
                        },
                    )
                };
                let q = bin(self, ir::BinaryOp::SDiv, a, b);
                let p = bin(self, ir::BinaryOp::Mul, q, b);
                Ok(Some(bin(self, ir::BinaryOp::Sub, a, p)))
            }
            Op::Binary {
                op: ir::BinaryOp::FDiv,
                lhs,
                rhs,
                ..
            } if matches!(
                self.l.src.types[self.l.src.scalar_of(inst.ty)],
                Type::Float { width: 16 | 32 }
            ) =>
            {
                // OpenCL's division is within 2.5 ulp everywhere; Vulkan's only for divisors
                // between 2^-126 and 2^126 (the library scales the others).
                let (a, b) = (self.value(frame, *lhs)?, self.value(frame, *rhs)?);
                let t = self.l.ty(inst.ty)?;
                Ok(Some((self.kctx.families.divide)(self, a, b, t)))
            }
            Op::Binary {
                op: ir::BinaryOp::Sub,
                lhs: Value::Inst(a),
                rhs: Value::Inst(b),
                ..
            } if frame.differences.contains(a) && frame.differences.contains(b) => {
                let (q, p) = (
                    self.value(frame, Value::Inst(*a))?,
                    self.value(frame, Value::Inst(*b))?,
                );
                let ret = self.l.ty(inst.ty)?;
                match self.buffer_difference(q, p, ret)? {
                    Some(d) => Ok(Some(d)),
                    None => self.copy_inst(frame, inst),
                }
            }
            _ => self.copy_inst(frame, inst),
        }
    }

    /// `inst` as it is, its operands and type moved over.
    fn copy_inst(&mut self, frame: &mut Frame, inst: &Inst) -> Result<Option<Value>> {
        let src = self.l.src;
        let op = &inst.op;
        let mut operands = Vec::new();
        ir::operands::for_each_operand(op, |v| operands.push(v));
        let mut mapped = Vec::with_capacity(operands.len());
        for v in operands {
            mapped.push(self.value(frame, v)?);
        }
        let mut op = op.clone();
        let mut it = mapped.into_iter();
        ir::operands::for_each_operand_mut(&mut op, |v| {
            if let Some(n) = it.next() {
                *v = n;
            }
        });
        let ty = self.l.ty(inst.ty)?;
        let is_void = matches!(src.types[inst.ty], Type::Void);
        let v = self.push(ty, op);
        Ok((!is_void).then_some(v))
    }
}
