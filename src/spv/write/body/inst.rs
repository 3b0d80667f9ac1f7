//! One instruction of a function body, by family: arithmetic, casts, selects, phis and calls
//! here; comparisons, memory and composites each in a function of their own.

use rspirv::dr::Operand;
use spirv::{Op as S, Word};

use super::super::Writer;
use super::{integer_op, lane_literal, FnCtx};
use crate::diag::{Error, Result};
use crate::hash::HashMap;
use crate::ir::{self, BinaryOp, Op, Type, Value};
use crate::spv::write::policy::AccessChains;

impl Writer<'_> {
    /// `cond ? a : b` of type `ty`. SPIR-V before 1.4 selects only scalars and vectors (and
    /// wants a condition vector as wide as the operands): a struct or array is selected
    /// member by member, so that no version is raised for it.
    fn select(
        &mut self,
        (cond, scalar_cond): (Word, bool),
        a: Word,
        b: Word,
        ty: ir::Handle<Type>,
        rid: Option<Word>,
    ) -> Result<Word> {
        let m = self.m;
        let rty = self.ty(ty)?;
        let members: Vec<ir::Handle<Type>> = match &m.types[ty] {
            Type::Struct {
                members: Some(ms), ..
            } => ms.clone(),
            Type::Array { elem, len } => vec![*elem; *len as usize],
            _ => {
                let lanes = m.lanes(ty);
                let mut c = cond;
                if lanes > 1 && scalar_cond {
                    // The boolean inserted into every lane of an undefined vector
                    // (llvm-spirv-14 reads an OpCompositeConstruct only of constants, and
                    // crashes on others).
                    let bt = self.b.type_bool();
                    let bv = self.b.type_vector(bt, lanes);
                    let mut v = self.emit(S::Undef, Some(bv), None, vec![])?;
                    for lane in 0..lanes {
                        let ops = vec![
                            Operand::IdRef(cond),
                            Operand::IdRef(v),
                            Operand::LiteralBit32(lane),
                        ];
                        v = self.emit(S::CompositeInsert, Some(bv), None, ops)?;
                    }
                    c = v;
                }
                return self.emit(S::Select, Some(rty), rid, Self::ids(&[c, a, b]));
            }
        };
        let mut parts = Vec::with_capacity(members.len());
        for (i, mt) in members.into_iter().enumerate() {
            let t = self.ty(mt)?;
            let part = |w: &mut Self, v: Word| {
                let ops = vec![Operand::IdRef(v), Operand::LiteralBit32(i as u32)];
                w.emit(S::CompositeExtract, Some(t), None, ops)
            };
            let (pa, pb) = (part(self, a)?, part(self, b)?);
            parts.push(self.select((cond, scalar_cond), pa, pb, mt, None)?);
        }
        self.emit(S::CompositeConstruct, Some(rty), rid, Self::ids(&parts))
    }

    pub(super) fn instruction(
        &mut self,
        ctx: &mut FnCtx,
        ih: ir::Handle<ir::Inst>,
        inst: &ir::Inst,
    ) -> Result<()> {
        let m = self.m;
        let rid = ctx.inst_ids.get(&ih).copied();
        let rty = if matches!(m.types[inst.ty], Type::Void) {
            None
        } else {
            Some(self.ty(inst.ty)?)
        };
        match &inst.op {
            Op::Binary {
                op,
                lhs,
                rhs,
                flags,
            } => {
                let is_bool = self.is_bool(inst.ty);
                let code = match op {
                    BinaryOp::And if is_bool => S::LogicalAnd,
                    BinaryOp::Or if is_bool => S::LogicalOr,
                    BinaryOp::Xor if is_bool => S::LogicalNotEqual,
                    BinaryOp::FAdd => S::FAdd,
                    BinaryOp::FSub => S::FSub,
                    BinaryOp::FMul => S::FMul,
                    BinaryOp::FDiv => S::FDiv,
                    BinaryOp::FRem => S::FRem,
                    _ => integer_op(*op)
                        .ok_or_else(|| Error::internal("an integer operation without a code"))?,
                };
                let a = self.value(ctx, *lhs)?;
                let b = self.value(ctx, *rhs)?;
                let id = self.emit(code, rty, rid, Self::ids(&[a, b]))?;
                if matches!(code, S::FAdd | S::FSub | S::FMul | S::FDiv | S::FRem) {
                    self.float_operation(id, flags.fast);
                }
                if self.forms_1_4
                    && (flags.nsw || flags.nuw)
                    && matches!(code, S::IAdd | S::ISub | S::IMul | S::ShiftLeftLogical)
                {
                    self.wraps.push((id, *flags));
                }
            }
            Op::FNeg(x) => {
                let a = self.value(ctx, *x)?;
                let id = self.emit(S::FNegate, rty, rid, Self::ids(&[a]))?;
                self.no_contraction(id);
            }
            Op::Cast { op, value } => self.cast(ctx, *op, *value, inst.ty, rid)?,
            Op::Select {
                cond,
                on_true,
                on_false,
            } => {
                // A select of samplers or images that no sampling consumed (the readers
                // rewrite those into a select of texels): SPIR-V's OpenCL environment cannot
                // select them (OpSelect of an image or sampler needs a bindless extension).
                if matches!(
                    m.types[inst.ty],
                    Type::Sampler | Type::Image(_) | Type::SampledImage(_)
                ) {
                    return Err(Error::unsupported(
                        "a select between samplers or images used other than by a read (SPIR-V's \
                         OpenCL environment cannot select them)",
                    ));
                }
                let c = self.value(ctx, *cond)?;
                let scalar_cond = m.lanes(self.vty(ctx, *cond)) == 1;
                let a = self.value(ctx, *on_true)?;
                let b = self.value(ctx, *on_false)?;
                self.select((c, scalar_cond), a, b, inst.ty, rid)?;
            }
            Op::Phi { incoming } => {
                // LLVM lists a predecessor once per edge, SPIR-V once per block: the n-th
                // entry from one predecessor comes through its n-th edge (`FnCtx::forwarders`).
                let mut ops = Vec::new();
                let mut seen: HashMap<usize, usize> = HashMap::default();
                for (v, b) in incoming {
                    let from = b.0 as usize;
                    let n = seen.entry(from).or_default();
                    let Some(label) = ctx.edge_label(from, ctx.current, *n, ctx.labels[from])
                    else {
                        continue;
                    };
                    *n += 1;
                    ops.push(Operand::IdRef(self.value(ctx, *v)?));
                    ops.push(Operand::IdRef(label));
                }
                self.emit(S::Phi, rty, rid, ops)?;
            }
            Op::Call { callee, args } => {
                let mut ids = vec![self.func_ids[callee]];
                for &a in args {
                    ids.push(self.value(ctx, a)?);
                }
                let ty = match rty {
                    Some(t) => t,
                    None => self.b.type_void(),
                };
                let id = rid.unwrap_or_else(|| self.b.id());
                self.emit(S::FunctionCall, Some(ty), Some(id), Self::ids(&ids))?;
            }
            Op::Builtin { builtin, args } => self.builtin(ctx, builtin, args, inst.ty, rid)?,
            Op::ICmp { .. } | Op::FCmp { .. } => self.comparison(ctx, inst, rid, rty)?,
            Op::Alloca { .. }
            | Op::Load { .. }
            | Op::Store { .. }
            | Op::Gep { .. }
            | Op::CopyMemory { .. }
            | Op::FillMemory { .. } => self.memory(ctx, inst, rid, rty)?,
            Op::ExtractElement { .. }
            | Op::InsertElement { .. }
            | Op::Shuffle { .. }
            | Op::ExtractValue { .. }
            | Op::InsertValue { .. } => self.composite(ctx, inst, rid, rty)?,
            Op::DebugDeclare { .. } | Op::DebugValue { .. } => self.debug_op(ctx, inst)?,
        }
        Ok(())
    }

    /// An integer or float comparison (`OpIEqual`, `OpFOrdLessThan`, ...), pointers compared as
    /// integers.
    fn comparison(
        &mut self,
        ctx: &mut FnCtx,
        inst: &ir::Inst,
        rid: Option<Word>,
        rty: Option<Word>,
    ) -> Result<()> {
        let m = self.m;
        match &inst.op {
            Op::ICmp { pred, lhs, rhs } => {
                use ir::IntPredicate as P;
                let ot = self.vty(ctx, *lhs);
                let mut a = self.value(ctx, *lhs)?;
                let mut b = self.value(ctx, *rhs)?;
                if let Type::Pointer { space, .. } = m.types[ot] {
                    // A device address (Vulkan's PhysicalStorageBuffer) is 64 bits wide
                    // whatever the module's pointer width (a 32-bit SPIR module's too).
                    let bits = match space {
                        ir::AddressSpace::PhysicalStorageBuffer => 64,
                        _ => m.addressing.pointer_bits(),
                    };
                    let it = match m.types.find(&Type::Int { width: bits }) {
                        Some(t) => self.ty(t)?,
                        None => self.b.type_int(bits, 0),
                    };
                    // The integer value of a null pointer is 0 (as LLVM folds it).
                    let is_null = |v: &Value| matches!(v, Value::Const(c) if matches!(m.constants[*c].kind, ir::ConstantKind::Null));
                    for (w, v) in [(&mut a, lhs), (&mut b, rhs)] {
                        *w = if is_null(v) {
                            self.scalar_constant(it, bits, 0)
                        } else {
                            self.emit(S::ConvertPtrToU, Some(it), None, Self::ids(&[*w]))?
                        };
                    }
                }
                let is_bool = self.is_bool(ot);
                let code = match pred {
                    P::Eq if is_bool => S::LogicalEqual,
                    P::Ne if is_bool => S::LogicalNotEqual,
                    P::Eq => S::IEqual,
                    P::Ne => S::INotEqual,
                    P::Ugt => S::UGreaterThan,
                    P::Uge => S::UGreaterThanEqual,
                    P::Ult => S::ULessThan,
                    P::Ule => S::ULessThanEqual,
                    P::Sgt => S::SGreaterThan,
                    P::Sge => S::SGreaterThanEqual,
                    P::Slt => S::SLessThan,
                    P::Sle => S::SLessThanEqual,
                };
                if is_bool && !matches!(pred, P::Eq | P::Ne) {
                    return Err(Error::unsupported("ordered comparison of booleans"));
                }
                self.emit(code, rty, rid, Self::ids(&[a, b]))?;
            }
            Op::FCmp { pred, lhs, rhs } => {
                use ir::FloatPredicate as P;
                let a = self.value(ctx, *lhs)?;
                let b = self.value(ctx, *rhs)?;
                let code = match pred {
                    P::False | P::True => {
                        let t = self.ty(inst.ty)?;
                        let s = self.m.scalar_of(inst.ty);
                        let st = self.ty(s)?;
                        let c = if *pred == P::True {
                            self.b.constant_true(st)
                        } else {
                            self.b.constant_false(st)
                        };
                        let v = if s == inst.ty {
                            c
                        } else {
                            let n = self.m.lanes(inst.ty) as usize;
                            self.b.constant_composite(t, vec![c; n])
                        };
                        self.emit(S::CopyObject, rty, rid, Self::ids(&[v]))?;
                        return Ok(());
                    }
                    P::Oeq => S::FOrdEqual,
                    P::Ogt => S::FOrdGreaterThan,
                    P::Oge => S::FOrdGreaterThanEqual,
                    P::Olt => S::FOrdLessThan,
                    P::Ole => S::FOrdLessThanEqual,
                    P::One => S::FOrdNotEqual,
                    P::Ord => S::Ordered,
                    P::Uno => S::Unordered,
                    P::Ueq => S::FUnordEqual,
                    P::Ugt => S::FUnordGreaterThan,
                    P::Uge => S::FUnordGreaterThanEqual,
                    P::Ult => S::FUnordLessThan,
                    P::Ule => S::FUnordLessThanEqual,
                    P::Une => S::FUnordNotEqual,
                };
                self.emit(code, rty, rid, Self::ids(&[a, b]))?;
            }
            _ => {
                return Err(Error::internal(
                    "an instruction written by the wrong family",
                ))
            }
        }
        Ok(())
    }

    /// A load, a store, an access chain, a copy or fill of memory (variables are declared
    /// with the function).
    fn memory(
        &mut self,
        ctx: &mut FnCtx,
        inst: &ir::Inst,
        rid: Option<Word>,
        rty: Option<Word>,
    ) -> Result<()> {
        match &inst.op {
            Op::Alloca { .. } => {}
            Op::Load {
                ptr,
                align,
                volatile,
            } => {
                let p = self.value(ctx, *ptr)?;
                let mut ops = Self::ids(&[p]);
                ops.extend(Self::memory_access(*align, *volatile));
                self.emit(S::Load, rty, rid, ops)?;
            }
            Op::Store {
                ptr,
                value,
                align,
                volatile,
            } => {
                let p = self.value(ctx, *ptr)?;
                let v = self.value(ctx, *value)?;
                let mut ops = Self::ids(&[p, v]);
                ops.extend(Self::memory_access(*align, *volatile));
                self.emit(S::Store, None, None, ops)?;
            }
            Op::Gep {
                inbounds,
                base,
                indices,
            } => {
                let mut ids = vec![self.value(ctx, *base)?];
                // Logical pointers step only into the object they point to: a leading zero
                // index is dropped and the chain is OpAccessChain (target policy).
                let logical = self.policy.access_chains == AccessChains::LogicalFirst
                    && indices.first().is_some_and(|&i| self.is_zero(i));
                let skip = logical as usize;
                for &i in &indices[skip..] {
                    ids.push(self.value(ctx, i)?);
                }
                // OpInBoundsPtrAccessChain needs Addresses (Kernel): a shader steps over
                // physical pointers with OpPtrAccessChain.
                let shader = self.policy.access_chains == AccessChains::LogicalFirst;
                let code = match (logical, *inbounds && !shader) {
                    (true, _) if *inbounds => S::InBoundsAccessChain,
                    (true, _) => S::AccessChain,
                    (false, true) => S::InBoundsPtrAccessChain,
                    (false, false) => S::PtrAccessChain,
                };
                self.emit(code, rty, rid, Self::ids(&ids))?;
            }
            Op::CopyMemory {
                dst,
                src,
                size,
                align,
                volatile,
            } => {
                let d = self.value(ctx, *dst)?;
                let s = self.value(ctx, *src)?;
                let n = self.value(ctx, *size)?;
                let mut ops = Self::ids(&[d, s, n]);
                ops.extend(Self::memory_access(*align, *volatile));
                self.emit(S::CopyMemorySized, None, None, ops)?;
            }
            Op::FillMemory {
                dst,
                byte,
                size,
                align,
                volatile,
            } => {
                self.fill_memory(ctx, *dst, *byte, *size, *align, *volatile)?;
            }

            _ => {
                return Err(Error::internal(
                    "an instruction written by the wrong family",
                ))
            }
        }
        Ok(())
    }
    /// A debug declaration: `DebugDeclare` of a variable or parameter; of another address,
    /// `DebugValue` of what is read there (SPIR-V declares only variables and parameters).
    fn debug_op(&mut self, ctx: &mut FnCtx, inst: &ir::Inst) -> Result<()> {
        let m = self.m;
        match &inst.op {
            Op::DebugDeclare { var, address, expr } => {
                let place = self.value(ctx, *address)?;
                let body = m.functions[ctx.func].body.as_ref();
                let is_variable = match address {
                    Value::Param(_) => true,
                    Value::Inst(a) => {
                        body.is_some_and(|b| matches!(b.insts[*a].op, Op::Alloca { .. }))
                    }
                    Value::Const(_) => false,
                };
                if is_variable {
                    self.debug_variable(*var, place, expr, true)?;
                } else {
                    // SPIR-V declares only variables and parameters: the value read there.
                    let mut e = vec![crate::ir::debug::ExprOp::Deref];
                    e.extend(expr.iter().copied());
                    self.debug_variable(*var, place, &e, false)?;
                }
            }
            Op::DebugValue { var, value, expr } => {
                let v = self.value(ctx, *value)?;
                self.debug_variable(*var, v, expr, false)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// A lane or member of a vector or aggregate read or replaced, a shuffle.
    fn composite(
        &mut self,
        ctx: &mut FnCtx,
        inst: &ir::Inst,
        rid: Option<Word>,
        rty: Option<Word>,
    ) -> Result<()> {
        let m = self.m;
        match &inst.op {
            Op::ExtractElement { vector, index } => {
                let v = self.value(ctx, *vector)?;
                match lane_literal(m, ctx.func, *vector, *index) {
                    Some(i) => {
                        self.emit(
                            S::CompositeExtract,
                            rty,
                            rid,
                            vec![Operand::IdRef(v), Operand::LiteralBit32(i)],
                        )?;
                    }
                    None => {
                        let i = self.value(ctx, *index)?;
                        self.emit(S::VectorExtractDynamic, rty, rid, Self::ids(&[v, i]))?;
                    }
                }
            }
            Op::InsertElement {
                vector,
                element,
                index,
            } => {
                let v = self.value(ctx, *vector)?;
                let e = self.value(ctx, *element)?;
                match lane_literal(m, ctx.func, *vector, *index) {
                    Some(i) => {
                        self.emit(
                            S::CompositeInsert,
                            rty,
                            rid,
                            vec![
                                Operand::IdRef(e),
                                Operand::IdRef(v),
                                Operand::LiteralBit32(i),
                            ],
                        )?;
                    }
                    _ => {
                        let i = self.value(ctx, *index)?;
                        self.emit(S::VectorInsertDynamic, rty, rid, Self::ids(&[v, e, i]))?;
                    }
                }
            }
            Op::Shuffle { a, b, mask } => {
                let x = self.value(ctx, *a)?;
                let y = self.value(ctx, *b)?;
                let mut ops = Self::ids(&[x, y]);
                ops.extend(
                    mask.iter()
                        .map(|c| Operand::LiteralBit32(c.unwrap_or(0xFFFF_FFFF))),
                );
                self.emit(S::VectorShuffle, rty, rid, ops)?;
            }
            Op::ExtractValue { aggregate, indices } => {
                let a = self.value(ctx, *aggregate)?;
                let mut ops = Self::ids(&[a]);
                ops.extend(indices.iter().map(|&i| Operand::LiteralBit32(i)));
                self.emit(S::CompositeExtract, rty, rid, ops)?;
            }
            Op::InsertValue {
                aggregate,
                element,
                indices,
            } => {
                let a = self.value(ctx, *aggregate)?;
                let e = self.value(ctx, *element)?;
                let mut ops = Self::ids(&[e, a]);
                ops.extend(indices.iter().map(|&i| Operand::LiteralBit32(i)));
                self.emit(S::CompositeInsert, rty, rid, ops)?;
            }
            _ => {
                return Err(Error::internal(
                    "an instruction written by the wrong family",
                ))
            }
        }
        Ok(())
    }
}
