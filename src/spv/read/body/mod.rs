//! The LLVM-level instructions of a function body. Instructions that become semantic builtins
//! are in `builtins.rs`; function structure and value plumbing in `function.rs`.

use rspirv::dr::{Instruction, Operand};
use spirv::{Decoration, Op as S, Word};

use super::function::{scalar_width, FnState, Local};
use super::{id_operand, literal_operand, result_id, Entity, Reader};
use crate::diag::{Error, Result};
use crate::ir::{
    self, BinaryOp, Builtin, CastOp, ConstantKind, IntPredicate as I, Op, Terminator, Type, Value,
};

mod composite;
mod memory;

impl Reader {
    pub(super) fn instruction(&mut self, st: &mut FnState, inst: &Instruction) -> Result<()> {
        let op = inst.class.opcode;
        let rty = match inst.result_type {
            Some(t) => self.type_of(t)?,
            None => self.m.void_type(),
        };
        if self.operator(st, inst, rty)? {
            return Ok(());
        }
        let name = inst.result_id.and_then(|id| self.name(id));
        let plain = |op, lhs, rhs| Op::Binary {
            op,
            lhs,
            rhs,
            flags: Default::default(),
        };
        match op {
            S::Nop | S::Line | S::NoLine | S::SelectionMerge | S::LoopMerge => {}
            // Lifetime markers only help optimizers; they are dropped (documented lossiness).
            S::LifetimeStart | S::LifetimeStop => {}
            S::Undef => {
                let c = self.m.constant(ir::Constant {
                    ty: rty,
                    kind: ConstantKind::Undef,
                });
                self.define(st, inst, Value::Const(c))?;
            }
            S::CopyObject | S::CopyLogical => {
                let id = id_operand(inst, 0)?;
                let local = match st.locals.get(&id).copied() {
                    Some(l) => l,
                    None => Local::Value(self.operand(st, id)?),
                };
                st.locals.insert(result_id(inst)?, local);
            }
            S::LogicalNot | S::Not => {
                let a = self.operands(st, inst, 0)?;
                // All ones of the result's width: an integer or boolean scalar or vector.
                let width = match self.m.types[self.m.scalar_of(rty)] {
                    Type::Int { width } if (1..=64).contains(&width) => width,
                    Type::Bool => 1,
                    _ => {
                        return Err(Error::malformed(format!(
                            "Op{op:?} whose result type is not an integer or a boolean"
                        )))
                    }
                };
                let ones = self.splat_const(rty, u64::MAX >> (64 - width));
                self.emit(st, inst, rty, plain(BinaryOp::Xor, a[0], ones), name)?;
            }
            S::SNegate => {
                let a = self.operands(st, inst, 0)?;
                let zero = self.splat_const(rty, 0);
                self.emit(st, inst, rty, plain(BinaryOp::Sub, zero, a[0]), name)?;
            }
            S::FNegate => {
                let a = self.operands(st, inst, 0)?;
                self.emit(st, inst, rty, Op::FNeg(a[0]), name)?;
            }
            S::VectorTimesScalar => {
                let a = self.operands(st, inst, 0)?;
                let s = self.splat_value(st, a[1], rty);
                self.emit(st, inst, rty, plain(BinaryOp::FMul, a[0], s), name)?;
            }
            S::Select => {
                let mut a = self.operands(st, inst, 0)?;
                // A condition repeating one boolean is that boolean (splats.rs).
                if let Some(&b) = st.repeated.get(&id_operand(inst, 0)?) {
                    let scalar = self.operand(st, b)?;
                    if self.m.types[self.value_ty(st, scalar)] == Type::Bool {
                        st.looked_through.extend(insert_chain(&st.body, a[0]));
                        a[0] = scalar;
                    }
                }
                let o = self.m.select_op(rty, a[0], a[1], a[2]);
                self.emit(st, inst, rty, o, name)?;
            }
            S::Phi => {
                let mut pairs = Vec::new();
                for i in (0..inst.operands.len()).step_by(2) {
                    pairs.push((id_operand(inst, i)?, id_operand(inst, i + 1)?));
                }
                let v = self.push(
                    st,
                    rty,
                    Op::Phi {
                        incoming: Vec::new(),
                    },
                    name,
                );
                let Value::Inst(h) = v else { unreachable!() };
                st.phis.push((h, pairs));
                self.define(st, inst, v)?;
            }
            S::FunctionCall => {
                let fid = id_operand(inst, 0)?;
                let Some(Entity::Function(callee)) = self.ids.get(&fid).copied() else {
                    return Err(Error::malformed(format!(
                        "OpFunctionCall of %{fid}, not a function"
                    )));
                };
                let args = self.operands(st, inst, 1)?;
                self.emit(st, inst, rty, Op::Call { callee, args }, name)?;
            }
            S::Bitcast
            | S::ConvertPtrToU
            | S::ConvertUToPtr
            | S::PtrCastToGeneric
            | S::GenericCastToPtr
            | S::UConvert
            | S::SConvert
            | S::FConvert
            | S::ConvertFToU
            | S::ConvertFToS
            | S::ConvertSToF
            | S::ConvertUToF
            | S::SatConvertSToU
            | S::SatConvertUToS => self.conversion(st, inst, rty, name)?,
            S::Variable
            | S::Load
            | S::Store
            | S::CopyMemory
            | S::CopyMemorySized
            | S::AccessChain
            | S::InBoundsAccessChain
            | S::PtrAccessChain
            | S::InBoundsPtrAccessChain => self.memory_instruction(st, inst, rty, name)?,
            S::VectorShuffle
            | S::VectorExtractDynamic
            | S::VectorInsertDynamic
            | S::CompositeExtract
            | S::CompositeInsert
            | S::CompositeConstruct => self.composite_instruction(st, inst, rty, name)?,
            op if super::parse::is_terminator(op) => self.terminator_instruction(st, inst)?,
            _ => self.builtin_instruction(st, inst, rty, name)?,
        }
        Ok(())
    }

    /// A binary operator or a comparison (`binary_op`, `int_predicate`, `float_predicate`):
    /// true where `inst` was one.
    fn operator(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
    ) -> Result<bool> {
        let op = inst.class.opcode;
        if op == S::FAdd && self.contraction(st, inst, rty)? {
            return Ok(true);
        }
        let o = if let Some(b) = binary_op(op) {
            let mut a = self.operands(st, inst, 0)?;
            if matches!(
                op,
                S::ShiftLeftLogical | S::ShiftRightLogical | S::ShiftRightArithmetic
            ) {
                // SPIR-V lets the shift amount have another width; LLVM does not.
                a[1] = self.resize_int(st, a[1], rty)?;
            }
            let flags = self.arith_flags(st, result_id(inst)?, rty);
            Op::Binary {
                op: b,
                lhs: a[0],
                rhs: a[1],
                flags,
            }
        } else if let Some(pred) = int_predicate(op) {
            let a = self.operands(st, inst, 0)?;
            if let Some((b, ext)) = self.m.extension_test(&st.body, pred, a[0], a[1]) {
                st.looked_through.push(ext);
                self.define(st, inst, b)?;
                return Ok(true);
            }
            Op::ICmp {
                pred,
                lhs: a[0],
                rhs: a[1],
            }
        } else if let Some(pred) = crate::normal::float_predicate(op) {
            let a = self.operands(st, inst, 0)?;
            Op::FCmp {
                pred,
                lhs: a[0],
                rhs: a[1],
            }
        } else {
            return Ok(false);
        };
        let name = inst.result_id.and_then(|id| self.name(id));
        self.emit(st, inst, rty, o, name)?;
        Ok(true)
    }

    /// A sum of a product that the producer let the driver contract (both decorated
    /// `FPFastMathMode AllowContract`, as `--mad contract` writes `mad` and newer translators
    /// write LLVM's `contract` flag): the graph's `mad`, which means the same. The product
    /// stays for its other uses and is dropped if it has none. False where `inst` is not one.
    fn contraction(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
    ) -> Result<bool> {
        if !self.ann.contractable(result_id(inst)?) {
            return Ok(false);
        }
        let ids = [id_operand(inst, 0)?, id_operand(inst, 1)?];
        let a = self.operands(st, inst, 0)?;
        for (i, &id) in ids.iter().enumerate() {
            let Value::Inst(h) = a[i] else { continue };
            let Op::Binary {
                op: BinaryOp::FMul,
                lhs,
                rhs,
                ..
            } = st.body.insts[h].op
            else {
                continue;
            };
            if !self.ann.contractable(id) {
                continue;
            }
            st.looked_through.push(h);
            let mad = Builtin::ExtInst {
                op: ir::builtin::OpenclOp::mad,
                literal: None,
            };
            let args = vec![lhs, rhs, a[1 - i]];
            let name = inst.result_id.and_then(|id| self.name(id));
            self.emit(st, inst, rty, Op::Builtin { builtin: mad, args }, name)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// A block's terminator.
    fn terminator_instruction(&mut self, st: &mut FnState, inst: &Instruction) -> Result<()> {
        let op = inst.class.opcode;
        match op {
            S::Branch => {
                let t = Self::block_of(st, id_operand(inst, 0)?)?;
                st.body.blocks[st.current].terminator = Terminator::Branch(t);
            }
            S::BranchConditional => {
                let cond = self.operand(st, id_operand(inst, 0)?)?;
                let on_true = Self::block_of(st, id_operand(inst, 1)?)?;
                let on_false = Self::block_of(st, id_operand(inst, 2)?)?;
                st.body.blocks[st.current].terminator = Terminator::CondBranch {
                    cond,
                    on_true,
                    on_false,
                };
            }
            S::Switch => {
                let value = self.operand(st, id_operand(inst, 0)?)?;
                let default = Self::block_of(st, id_operand(inst, 1)?)?;
                let mut cases = Vec::new();
                for i in (2..inst.operands.len()).step_by(2) {
                    let lit = match &inst.operands[i] {
                        Operand::LiteralBit32(v) => *v as u64,
                        Operand::LiteralBit64(v) => *v,
                        other => {
                            return Err(Error::malformed(format!(
                                "OpSwitch with {} for a case literal",
                                super::operand_words(Some(other))
                            )))
                        }
                    };
                    cases.push((lit, Self::block_of(st, id_operand(inst, i + 1)?)?));
                }
                st.body.blocks[st.current].terminator = Terminator::Switch {
                    value,
                    default,
                    cases,
                };
            }
            S::Return => st.body.blocks[st.current].terminator = Terminator::Return(None),
            S::ReturnValue => {
                let v = self.operand(st, id_operand(inst, 0)?)?;
                st.body.blocks[st.current].terminator = Terminator::Return(Some(v));
            }
            S::Unreachable | S::Kill => {
                st.body.blocks[st.current].terminator = Terminator::Unreachable
            }
            _ => return Err(Error::internal("an instruction read by the wrong family")),
        }
        Ok(())
    }

    /// Zero-extend or truncate an integer (vector) to the width of `to`'s scalar.
    pub(super) fn resize_int(
        &mut self,
        st: &mut FnState,
        v: Value,
        to: ir::Handle<Type>,
    ) -> Result<Value> {
        let from_t = self.value_ty(st, v);
        let (fw, tw) = (scalar_width(&self.m, from_t), scalar_width(&self.m, to));
        if fw == tw {
            return Ok(v);
        }
        let ts = self.m.ty(Type::Int { width: tw });
        let target = match self.m.types[from_t] {
            Type::Vector { len, .. } => self.m.ty(Type::Vector { elem: ts, len }),
            _ => ts,
        };
        let op = if fw < tw { CastOp::ZExt } else { CastOp::Trunc };
        Ok(self.push(st, target, Op::Cast { op, value: v }, None))
    }

    /// The flags of arithmetic `id` of type `rty`: its decorations, or for float arithmetic
    /// without an FPFastMathMode the entry point's default for its type.
    fn arith_flags(&self, st: &FnState, id: Word, rty: ir::Handle<Type>) -> ir::ArithFlags {
        let fast = match self.ann.fast_math(id) {
            f if f.any() || self.ann.has(id, Decoration::FPFastMathMode) => f,
            _ => {
                let scalar = self.m.scalar_of(rty);
                st.fast_math_defaults
                    .iter()
                    .find(|(t, _)| *t == scalar)
                    .map_or_else(Default::default, |(_, f)| *f)
            }
        };
        ir::ArithFlags {
            nsw: self.ann.has(id, Decoration::NoSignedWrap),
            nuw: self.ann.has(id, Decoration::NoUnsignedWrap),
            exact: false,
            fast,
        }
    }

    /// (alignment, volatile) from a memory-access operand at `at` and the pointer's
    /// decorations.
    fn memory_access(&self, inst: &Instruction, at: usize, ptr: Word) -> (Option<u32>, bool) {
        let mut align = None;
        let mut volatile = self.ann.has(ptr, Decoration::Volatile);
        if let Some(Operand::MemoryAccess(m)) = inst.operands.get(at) {
            volatile |= m.contains(spirv::MemoryAccess::VOLATILE);
            if m.contains(spirv::MemoryAccess::ALIGNED) {
                if let Some(Operand::LiteralBit32(a)) = inst.operands.get(at + 1) {
                    align = Some(*a);
                }
            }
        }
        (align, volatile)
    }

    /// The graph's alignment for a load or store through `ptr` (`Module::stated_align`).
    fn access_align(&self, st: &FnState, ptr: Value, stated: Option<u32>) -> Option<u32> {
        match self.m.pointee(self.value_ty(st, ptr)) {
            Some(pointee) => self.m.stated_align(pointee, stated),
            None => stated,
        }
    }

    fn load(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        name: Option<String>,
    ) -> Result<()> {
        let ptr_id = id_operand(inst, 0)?;
        if let Some(Entity::BuiltinVar(b, ty)) = self.ids.get(&ptr_id).copied() {
            if matches!(self.m.types[ty], Type::Vector { .. }) {
                st.locals
                    .insert(result_id(inst)?, Local::BuiltinVector(b, ty));
            } else {
                self.emit(
                    st,
                    inst,
                    rty,
                    Op::Builtin {
                        builtin: ir::Builtin::WorkItem(b),
                        args: vec![],
                    },
                    name,
                )?;
            }
            return Ok(());
        }
        let ptr = self.operand(st, ptr_id)?;
        let (align, volatile) = self.memory_access(inst, 1, ptr_id);
        let align = self.access_align(st, ptr, align);
        self.emit(
            st,
            inst,
            rty,
            Op::Load {
                ptr,
                align,
                volatile,
            },
            name,
        )
    }

    fn composite_extract(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        name: Option<String>,
    ) -> Result<()> {
        let cid = id_operand(inst, 0)?;
        let indices = (1..inst.operands.len())
            .map(|i| literal_operand(inst, i))
            .collect::<Result<Vec<_>>>()?;
        if let (Some(Local::DepthTexel(v, _)), [0]) = (st.locals.get(&cid).copied(), &indices[..]) {
            // The texel takes the extract's name (its own result was the vector).
            if let (Value::Inst(h), Some(n)) = (v, name) {
                st.body.insts[h].name.get_or_insert(n);
            }
            st.locals.insert(result_id(inst)?, Local::Value(v));
            return Ok(());
        }
        if let (Some(Local::BuiltinVector(b, _)), Some(&d)) =
            (st.locals.get(&cid).copied(), indices.first())
        {
            let i32t = self.m.int_type(32);
            let dim = Value::Const(self.m.int_const(i32t, d as u64));
            return self.emit(
                st,
                inst,
                rty,
                Op::Builtin {
                    builtin: ir::Builtin::WorkItem(b),
                    args: vec![dim],
                },
                name,
            );
        }
        let aggregate = self.operand(st, cid)?;
        let (mut op, _) =
            crate::normal::extract_path(&mut Steps { r: self, st }, aggregate, &indices)
                .ok_or_else(|| Error::malformed("OpCompositeExtract indices do not fit"))?;
        if let Op::ExtractElement { vector, index } = op {
            if let Some((query, h)) = self.m.query_component(&st.body, vector, index) {
                st.looked_through.push(h);
                op = query;
            }
        }
        self.emit(st, inst, rty, op, name)
    }

    fn composite_construct(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        name: Option<String>,
    ) -> Result<()> {
        let parts = self.operands(st, inst, 0)?;
        let mut acc = Value::Const(self.m.constant(ir::Constant {
            ty: rty,
            kind: ConstantKind::Undef,
        }));
        let i32t = self.m.int_type(32);
        let n = parts.len();
        if let Type::Vector { .. } = self.m.types[rty] {
            // Constituents are scalars or vectors (concatenated); insert lane by lane.
            let mut lane = 0u64;
            for (k, p) in parts.into_iter().enumerate() {
                let pt = self.value_ty(st, p);
                let elems: Vec<Value> = match self.m.types[pt] {
                    Type::Vector { elem, len } => (0..len)
                        .map(|i| {
                            let index = Value::Const(self.m.int_const(i32t, i as u64));
                            self.push(st, elem, Op::ExtractElement { vector: p, index }, None)
                        })
                        .collect(),
                    _ => vec![p],
                };
                let last = k + 1 == n;
                let count = elems.len();
                for (j, e) in elems.into_iter().enumerate() {
                    let index = Value::Const(self.m.int_const(i32t, lane));
                    lane += 1;
                    let nm = if last && j + 1 == count {
                        name.clone()
                    } else {
                        None
                    };
                    acc = self.push(
                        st,
                        rty,
                        Op::InsertElement {
                            vector: acc,
                            element: e,
                            index,
                        },
                        nm,
                    );
                }
            }
        } else {
            for (k, p) in parts.into_iter().enumerate() {
                let nm = if k + 1 == n { name.clone() } else { None };
                acc = self.push(
                    st,
                    rty,
                    Op::InsertValue {
                        aggregate: acc,
                        element: p,
                        indices: vec![k as u32],
                    },
                    nm,
                );
            }
        }
        self.define(st, inst, acc)
    }

    /// Conversions: plain LLVM casts unless saturated or rounded, then `Builtin::Convert`.
    fn conversion(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        name: Option<String>,
    ) -> Result<()> {
        let op = inst.class.opcode;
        let id = result_id(inst)?;
        let value = self.operand(st, id_operand(inst, 0)?)?;
        let from_t = self.value_ty(st, value);
        let (fw, tw) = (scalar_width(&self.m, from_t), scalar_width(&self.m, rty));
        let kinds = crate::mappings::conversion(op);
        let saturate = self.ann.has(id, Decoration::SaturatedConversion)
            || kinds.is_some_and(|(_, _, sat)| sat);
        let rounding = self
            .ann
            .get(id, Decoration::FPRoundingMode)
            .find_map(|ops| match ops.first() {
                Some(Operand::FPRoundingMode(r)) => Some(*r),
                _ => None,
            });
        // A cast that only feeds memory copies is not part of them (memory_casts.rs).
        if op == S::Bitcast && st.memory_casts.contains(&id) && self.m.same_space(from_t, rty) {
            st.locals.insert(id, Local::Value(value));
            return Ok(());
        }
        let o = match kinds {
            Some((from, to, _)) => {
                match self
                    .m
                    .convert_op(rty, (from, to, saturate, rounding), value, from_t)
                {
                    crate::normal::Converted::Op(o) => o,
                    // A conversion that changes nothing is its operand, as a copy is.
                    crate::normal::Converted::Same(v) => {
                        st.locals.insert(id, Local::Value(v));
                        return Ok(());
                    }
                }
            }
            None => {
                let cast = match op {
                    S::Bitcast => CastOp::Bitcast,
                    S::ConvertPtrToU => CastOp::PtrToInt,
                    S::ConvertUToPtr => CastOp::IntToPtr,
                    S::PtrCastToGeneric | S::GenericCastToPtr => CastOp::AddrSpaceCast,
                    S::UConvert if fw < tw => CastOp::ZExt,
                    S::SConvert if fw < tw => CastOp::SExt,
                    S::UConvert | S::SConvert => CastOp::Trunc,
                    S::FConvert if fw < tw => CastOp::FPExt,
                    S::FConvert => CastOp::FPTrunc,
                    S::ConvertFToU => CastOp::FPToUI,
                    S::ConvertFToS => CastOp::FPToSI,
                    S::ConvertSToF => CastOp::SIToFP,
                    S::ConvertUToF => CastOp::UIToFP,
                    _ => return Err(Error::internal(format!("conversion Op{op:?}"))),
                };
                Op::Cast { op: cast, value }
            }
        };
        self.emit(st, inst, rty, o, name)
    }
}

fn binary_op(op: S) -> Option<BinaryOp> {
    Some(match op {
        S::IAdd => BinaryOp::Add,
        S::ISub => BinaryOp::Sub,
        S::IMul => BinaryOp::Mul,
        S::UDiv => BinaryOp::UDiv,
        S::SDiv => BinaryOp::SDiv,
        S::UMod => BinaryOp::URem,
        S::SRem => BinaryOp::SRem,
        S::ShiftLeftLogical => BinaryOp::Shl,
        S::ShiftRightLogical => BinaryOp::LShr,
        S::ShiftRightArithmetic => BinaryOp::AShr,
        S::BitwiseAnd | S::LogicalAnd => BinaryOp::And,
        S::BitwiseOr | S::LogicalOr => BinaryOp::Or,
        S::BitwiseXor | S::LogicalNotEqual => BinaryOp::Xor,
        S::FAdd => BinaryOp::FAdd,
        S::FSub => BinaryOp::FSub,
        S::FMul => BinaryOp::FMul,
        S::FDiv => BinaryOp::FDiv,
        S::FRem => BinaryOp::FRem,
        _ => return None,
    })
}

fn int_predicate(op: S) -> Option<I> {
    Some(match op {
        S::IEqual | S::LogicalEqual | S::PtrEqual => I::Eq,
        S::INotEqual | S::PtrNotEqual => I::Ne,
        S::UGreaterThan => I::Ugt,
        S::UGreaterThanEqual => I::Uge,
        S::ULessThan => I::Ult,
        S::ULessThanEqual => I::Ule,
        S::SGreaterThan => I::Sgt,
        S::SGreaterThanEqual => I::Sge,
        S::SLessThan => I::Slt,
        S::SLessThanEqual => I::Sle,
        _ => return None,
    })
}

/// Aggregate paths (`crate::normal::extract_path`) add their steps to the function's current block.
struct Steps<'a> {
    r: &'a mut Reader,
    st: &'a mut FnState,
}

impl crate::normal::StepSink for Steps<'_> {
    fn module(&mut self) -> &mut ir::Module {
        &mut self.r.m
    }
    fn type_of(&self, v: Value) -> ir::Handle<Type> {
        self.r.value_ty(self.st, v)
    }
    fn push_step(&mut self, ty: ir::Handle<Type>, op: Op) -> Value {
        self.r.push(self.st, ty, op, None)
    }
}

/// The `insertelement` chain that builds `v`, last first: what a repeated condition was
/// lowered to.
fn insert_chain(body: &ir::Body, mut v: Value) -> Vec<ir::Handle<ir::Inst>> {
    let mut chain = Vec::new();
    while let Value::Inst(h) = v {
        let Op::InsertElement { vector, .. } = body.insts[h].op else {
            break;
        };
        chain.push(h);
        v = vector;
    }
    chain
}
