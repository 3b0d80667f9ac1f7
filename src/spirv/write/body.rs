//! Functions, blocks and instructions, including the semantic builtins.

use crate::hash::HashMap;

use rspirv::dr::{InsertPoint, Instruction, Operand};
use spirv::{Capability, Op as S, Word};

use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::{self, BinaryOp, CastOp, Op, Terminator, Type, Value};

/// The SPIR-V opcode of an LLVM cast between the given types.
pub(super) fn cast_opcode(
    m: &ir::Module,
    op: CastOp,
    from: ir::Handle<Type>,
    to: ir::Handle<Type>,
) -> Result<S> {
    Ok(match op {
        CastOp::Trunc | CastOp::ZExt => S::UConvert,
        CastOp::SExt => S::SConvert,
        CastOp::FPTrunc | CastOp::FPExt => S::FConvert,
        CastOp::FPToUI => S::ConvertFToU,
        CastOp::FPToSI => S::ConvertFToS,
        CastOp::UIToFP => S::ConvertUToF,
        CastOp::SIToFP => S::ConvertSToF,
        CastOp::PtrToInt => S::ConvertPtrToU,
        CastOp::IntToPtr => S::ConvertUToPtr,
        CastOp::Bitcast => S::Bitcast,
        CastOp::AddrSpaceCast => {
            let space = |t| match m.types[t] {
                Type::Pointer { space, .. } => Some(space),
                _ => None,
            };
            match (space(from), space(to)) {
                (_, Some(ir::AddressSpace::Generic)) => S::PtrCastToGeneric,
                (Some(ir::AddressSpace::Generic), _) => S::GenericCastToPtr,
                _ => {
                    return Err(Error::unsupported(
                        "addrspacecast between two named address spaces",
                    ))
                }
            }
        }
    })
}

/// Reverse post-order of the blocks (SPIR-V wants dominators first), then unreachable ones.
fn block_order(body: &ir::Body) -> Vec<usize> {
    ir::cfg::reverse_post_order(body.blocks.len(), |b| {
        body.blocks[b].terminator.successors()
    })
}

pub(super) struct FnCtx {
    func: ir::Handle<ir::Function>,
    params: Vec<Word>,
    inst_ids: HashMap<ir::Handle<ir::Inst>, Word>,
    labels: Vec<Word>,
    /// The block being written.
    current: usize,
    /// Extra edges from a block to the same successor (several switch cases, or both arms of
    /// a conditional branch, reaching one block that has phis). LLVM lists such a predecessor
    /// once per edge, SPIR-V once per block, and consumers (llvm-spirv) rebuild LLVM phis per
    /// block; so every edge after the first goes through its own forwarding block, and each
    /// phi entry gets its own predecessor. Keyed by (from, to) block index.
    forwarders: std::collections::BTreeMap<(usize, usize), Vec<Word>>,
}

impl FnCtx {
    /// The label standing for the `n`-th edge (from 0) from block `from` to block `to`:
    /// `direct` for the first, then that edge's forwarder (see `forwarders`); `None` for an
    /// edge that has none (only the first edge into a block without phis is ever asked for).
    fn edge_label(&self, from: usize, to: usize, n: usize, direct: Word) -> Option<Word> {
        match n {
            0 => Some(direct),
            _ => self.forwarders.get(&(from, to))?.get(n - 1).copied(),
        }
    }
}

impl Writer<'_> {
    /// Emit function `h` under `id`. `callee_copy` is the non-entry copy of a kernel that
    /// other functions call (SPIR-V forbids calling an entry point): named `<kernel>.callee`,
    /// without linkage.
    pub(super) fn function(
        &mut self,
        h: ir::Handle<ir::Function>,
        id: Word,
        callee_copy: bool,
    ) -> Result<()> {
        let m = self.m;
        let f = &m.functions[h];
        let ret = self.ty(f.ret)?;
        let param_types = f
            .params
            .iter()
            .map(|p| self.ty(p.ty))
            .collect::<Result<Vec<_>>>()?;
        let fn_ty = self.b.type_function(ret, param_types.clone());
        self.b
            .begin_function(ret, Some(id), spirv::FunctionControl::NONE, fn_ty)
            .map_err(internal)?;
        if callee_copy {
            self.b.name(id, format!("{}.callee", f.name));
        } else {
            self.b.name(id, f.name.clone());
        }
        let mut params = Vec::new();
        for (p, &t) in f.params.iter().zip(&param_types) {
            let pid = self.b.function_parameter(t).map_err(internal)?;
            if let Some(n) = &p.name {
                self.b.name(pid, n.clone());
            }
            self.param_decorations(pid, p.attrs);
            if p.attrs.readnone {
                self.lost.push(crate::diag::Lost::at(
                    format!("function '{}'", f.name),
                    format!(
                        "parameter {} is readnone, written as the weaker NoWrite (NoReadWrite \
                         makes llvm-spirv-14 and drivers sharing its reader abort)",
                        p.name
                            .as_deref()
                            .map_or(String::from("(unnamed)"), |n| format!("%{n}"))
                    ),
                ));
            }
            params.push(pid);
        }
        match (&f.body, f.linkage) {
            (None, _) => {
                self.cap(Capability::Linkage);
                self.decorate(
                    id,
                    spirv::Decoration::LinkageAttributes,
                    [
                        Operand::LiteralString(f.name.clone()),
                        Operand::LinkageType(spirv::LinkageType::Import),
                    ],
                );
            }
            (Some(_), ir::Linkage::Export) if !f.is_kernel && !callee_copy => {
                self.cap(Capability::Linkage);
                self.decorate(
                    id,
                    spirv::Decoration::LinkageAttributes,
                    [
                        Operand::LiteralString(f.name.clone()),
                        Operand::LinkageType(spirv::LinkageType::Export),
                    ],
                );
            }
            _ => {}
        }
        if let Some(body) = &f.body {
            let mut ctx = FnCtx {
                func: h,
                params,
                inst_ids: HashMap::default(),
                labels: (0..body.blocks.len()).map(|_| self.b.id()).collect(),
                current: 0,
                forwarders: Default::default(),
            };
            for (from, block) in body.blocks.iter().enumerate() {
                let succ = block.terminator.successors();
                for (i, &to) in succ.iter().enumerate() {
                    let starts_with_phi = body.blocks[to]
                        .insts
                        .first()
                        .is_some_and(|&ih| matches!(body.insts[ih].op, Op::Phi { .. }));
                    if starts_with_phi && succ[..i].contains(&to) {
                        let id = self.b.id();
                        ctx.forwarders.entry((from, to)).or_default().push(id);
                    }
                }
            }
            // Only the instructions blocks hold: a reader may leave dropped ones in the arena.
            for ih in body.blocks.iter().flat_map(|b| b.insts.iter().copied()) {
                let inst = &body.insts[ih];
                if !matches!(m.types[inst.ty], Type::Void) {
                    let id = self.b.id();
                    ctx.inst_ids.insert(ih, id);
                    if let Some(n) = &inst.name {
                        self.b.name(id, n.clone());
                    }
                }
            }
            let order = block_order(body);
            for (pos, &bi) in order.iter().enumerate() {
                let block = &body.blocks[bi];
                ctx.current = bi;
                self.b.begin_block(Some(ctx.labels[bi])).map_err(internal)?;
                if let Some(n) = &block.name {
                    self.b.name(ctx.labels[bi], n.clone());
                }
                if pos == 0 {
                    // SPIR-V wants every function-scope variable at the start of the entry block.
                    for b in &body.blocks {
                        for &ih in &b.insts {
                            if let Op::Alloca { allocated, align } = &body.insts[ih].op {
                                let pt = self.ty(body.insts[ih].ty)?;
                                let _ = self.ty(*allocated)?;
                                let vid = ctx.inst_ids[&ih];
                                self.b
                                    .variable(pt, Some(vid), spirv::StorageClass::Function, None);
                                // A variable holding a physical pointer says whether it aliases.
                                if matches!(
                                    m.types[*allocated],
                                    Type::Pointer {
                                        space: ir::AddressSpace::PhysicalStorageBuffer,
                                        ..
                                    }
                                ) {
                                    self.b.decorate(vid, spirv::Decoration::AliasedPointer, []);
                                }
                                if let Some(a) = align {
                                    self.decorate(
                                        vid,
                                        spirv::Decoration::Alignment,
                                        [Operand::LiteralBit32(*a)],
                                    );
                                }
                            }
                        }
                    }
                }
                if pos == 0 {
                    self.private_copies(h)?;
                }
                for (pos, &ih) in block.insts.iter().enumerate() {
                    let inst = &body.insts[ih];
                    if matches!(inst.op, Op::Alloca { .. }) {
                        continue;
                    }
                    self.instruction(&mut ctx, ih, inst).map_err(|e| {
                        e.in_block(block.name.as_deref().unwrap_or(&format!("{bi}")))
                            .at_value(crate::ir::print::value_label(inst, pos))
                    })?;
                }
                match block.construct {
                    Some(ir::Construct::Selection { merge }) => self
                        .b
                        .selection_merge(
                            ctx.labels[merge.0 as usize],
                            spirv::SelectionControl::NONE,
                        )
                        .map_err(internal)?,
                    Some(ir::Construct::Loop {
                        merge,
                        continue_target,
                    }) => self
                        .b
                        .loop_merge(
                            ctx.labels[merge.0 as usize],
                            ctx.labels[continue_target.0 as usize],
                            spirv::LoopControl::NONE,
                            [],
                        )
                        .map_err(internal)?,
                    None => {}
                }
                self.terminator(&mut ctx, &block.terminator)?;
            }
            for (&(_, to), ids) in &ctx.forwarders {
                for &id in ids {
                    self.b.begin_block(Some(id)).map_err(internal)?;
                    self.b.branch(ctx.labels[to]).map_err(internal)?;
                }
            }
        }
        self.b.end_function().map_err(internal)?;
        Ok(())
    }

    fn param_decorations(&mut self, id: Word, a: ir::ParamAttrs) {
        use spirv::FunctionParameterAttribute as P;
        for (on, attr) in [
            (a.zext, P::Zext),
            (a.sext, P::Sext),
            (a.byval, P::ByVal),
            (a.sret, P::Sret),
            (a.noalias, P::NoAlias),
            (a.nocapture, P::NoCapture),
            // readnone implies readonly, and is written as the weaker NoWrite: NoReadWrite makes
            // the Khronos reader (llvm-spirv-14) abort on an assertion, and drivers share it.
            (a.readonly || a.readnone, P::NoWrite),
        ] {
            if on {
                self.decorate(
                    id,
                    spirv::Decoration::FuncParamAttr,
                    [Operand::FunctionParameterAttribute(attr)],
                );
            }
        }
    }

    pub(super) fn value(&mut self, ctx: &FnCtx, v: Value) -> Result<Word> {
        match v {
            Value::Param(i) => Ok(ctx.params[i as usize]),
            Value::Inst(h) => ctx
                .inst_ids
                .get(&h)
                .copied()
                .ok_or_else(|| Error::internal("use of a void instruction")),
            Value::Const(c) => self.constant(c),
        }
    }

    pub(super) fn vty(&self, ctx: &FnCtx, v: Value) -> ir::Handle<Type> {
        self.m.value_type(&self.m.functions[ctx.func], v)
    }

    /// Emit one instruction into the current block.
    pub(super) fn emit(
        &mut self,
        op: S,
        ty: Option<Word>,
        id: Option<Word>,
        operands: Vec<Operand>,
    ) -> Result<Word> {
        let id = match (ty, id) {
            (Some(_), None) => Some(self.b.id()),
            (_, id) => id,
        };
        self.b
            .insert_into_block(InsertPoint::End, Instruction::new(op, ty, id, operands))
            .map_err(internal)?;
        Ok(id.unwrap_or(0))
    }

    pub(super) fn ids(ws: &[Word]) -> Vec<Operand> {
        ws.iter().map(|&w| Operand::IdRef(w)).collect()
    }

    pub(super) fn memory_access(align: Option<u32>, volatile: bool) -> Vec<Operand> {
        let mut bits = spirv::MemoryAccess::NONE;
        if volatile {
            bits |= spirv::MemoryAccess::VOLATILE;
        }
        if align.is_some() {
            bits |= spirv::MemoryAccess::ALIGNED;
        }
        if bits.is_empty() {
            return vec![];
        }
        let mut ops = vec![Operand::MemoryAccess(bits)];
        if let Some(a) = align {
            ops.push(Operand::LiteralBit32(a));
        }
        ops
    }

    /// Where the target says exactness per instruction (a shader: NoContraction), forbid
    /// every value-changing rewrite of this result. A shader's consumers treat arithmetic
    /// without it as fast-math (NIR rewrites `a - (a - b)` to `b`); OpenCL allows at most
    /// contraction, which the graph already spells (`fma` where LLVM had `fmuladd`).
    pub(super) fn no_contraction(&mut self, id: Word) {
        if self.policy.no_contraction_decorations {
            self.b.decorate(id, spirv::Decoration::NoContraction, []);
        }
    }

    /// True for an integer constant zero.
    fn is_zero(&self, v: Value) -> bool {
        matches!(v, Value::Const(c) if matches!(self.m.constants[c].kind, ir::ConstantKind::Int(0) | ir::ConstantKind::Null))
    }

    fn is_bool(&self, t: ir::Handle<Type>) -> bool {
        matches!(self.m.types[self.m.scalar_of(t)], Type::Bool)
    }

    /// A constant of type `t` (scalar or splat vector) with the given integer/float value.
    pub(super) fn splat(
        &mut self,
        t: ir::Handle<Type>,
        int_value: u64,
        float_value: f64,
    ) -> Result<Word> {
        let scalar = self.m.scalar_of(t);
        let sid = self.ty(scalar)?;
        let s = match self.m.types[scalar] {
            Type::Int { width: 64 } => self.scalar_constant(sid, 64, int_value),
            Type::Int { width } => {
                self.scalar_constant(sid, width, int_value & ((1u64 << width) - 1))
            }
            Type::Float { width: 64 } => self.scalar_constant(sid, 64, float_value.to_bits()),
            Type::Float { width: 32 } => {
                self.scalar_constant(sid, 32, (float_value as f32).to_bits() as u64)
            }
            _ => return Err(Error::internal("splat of a non-numeric type")),
        };
        if scalar == t {
            return Ok(s);
        }
        let n = self.m.lanes(t) as usize;
        let tid = self.ty(t)?;
        Ok(self.b.constant_composite(tid, vec![s; n]))
    }

    fn instruction(
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
            Op::Binary { op, lhs, rhs, .. } => {
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
                    self.no_contraction(id);
                }
            }
            Op::FNeg(x) => {
                let a = self.value(ctx, *x)?;
                let id = self.emit(S::FNegate, rty, rid, Self::ids(&[a]))?;
                self.no_contraction(id);
            }
            Op::ICmp { pred, lhs, rhs } => {
                use ir::IntPredicate as P;
                let ot = self.vty(ctx, *lhs);
                let mut a = self.value(ctx, *lhs)?;
                let mut b = self.value(ctx, *rhs)?;
                if matches!(m.types[ot], Type::Pointer { .. }) {
                    let size_t = m.types.find(&Type::Int {
                        width: m.addressing.pointer_bits(),
                    });
                    let it = match size_t {
                        Some(t) => self.ty(t)?,
                        None => self.b.type_int(m.addressing.pointer_bits(), 0),
                    };
                    // The integer value of a null pointer is 0 (as LLVM folds it).
                    let is_null = |v: &Value| matches!(v, Value::Const(c) if matches!(m.constants[*c].kind, ir::ConstantKind::Null));
                    let bits = m.addressing.pointer_bits();
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
                let mut c = self.value(ctx, *cond)?;
                let ct = self.vty(ctx, *cond);
                let lanes = m.lanes(inst.ty);
                if lanes > 1 && m.lanes(ct) == 1 {
                    // SPIR-V before 1.4 wants a condition vector as wide as the operands: the
                    // boolean inserted into every lane of an undefined vector (llvm-spirv-14
                    // reads an OpCompositeConstruct only of constants, and crashes on others).
                    let bt = self.b.type_bool();
                    let bv = self.b.type_vector(bt, lanes);
                    let mut v = self.emit(S::Undef, Some(bv), None, vec![])?;
                    for lane in 0..lanes {
                        let ops = vec![
                            Operand::IdRef(c),
                            Operand::IdRef(v),
                            Operand::LiteralBit32(lane),
                        ];
                        v = self.emit(S::CompositeInsert, Some(bv), None, ops)?;
                    }
                    c = v;
                }
                let a = self.value(ctx, *on_true)?;
                let b = self.value(ctx, *on_false)?;
                self.emit(S::Select, rty, rid, Self::ids(&[c, a, b]))?;
            }
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
                let logical = self.policy.access_chains
                    == super::policy::AccessChains::LogicalFirst
                    && indices.first().is_some_and(|&i| self.is_zero(i));
                let skip = logical as usize;
                for &i in &indices[skip..] {
                    ids.push(self.value(ctx, i)?);
                }
                // OpInBoundsPtrAccessChain needs Addresses (Kernel): a shader steps over
                // physical pointers with OpPtrAccessChain.
                let shader = self.policy.access_chains == super::policy::AccessChains::LogicalFirst;
                let code = match (logical, *inbounds && !shader) {
                    (true, _) if *inbounds => S::InBoundsAccessChain,
                    (true, _) => S::AccessChain,
                    (false, true) => S::InBoundsPtrAccessChain,
                    (false, false) => S::PtrAccessChain,
                };
                self.emit(code, rty, rid, Self::ids(&ids))?;
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
        }
        Ok(())
    }

    fn cast(
        &mut self,
        ctx: &FnCtx,
        op: CastOp,
        value: Value,
        to: ir::Handle<Type>,
        rid: Option<Word>,
    ) -> Result<()> {
        let m = self.m;
        let from = self.vty(ctx, value);
        let v = self.value(ctx, value)?;
        let t = self.ty(to)?;
        if self.is_bool(from) && !self.is_bool(to) {
            // i1 -> integer or float: select between the two values.
            let (one, zero) = match op {
                CastOp::SExt => (self.splat(to, u64::MAX, 0.0)?, self.splat(to, 0, 0.0)?),
                CastOp::ZExt => (self.splat(to, 1, 0.0)?, self.splat(to, 0, 0.0)?),
                CastOp::UIToFP => (self.splat(to, 0, 1.0)?, self.splat(to, 0, 0.0)?),
                CastOp::SIToFP => (self.splat(to, 0, -1.0)?, self.splat(to, 0, 0.0)?),
                _ => return Err(Error::unsupported(format!("{op:?} from a boolean"))),
            };
            self.emit(S::Select, Some(t), rid, Self::ids(&[v, one, zero]))?;
            return Ok(());
        }
        if self.is_bool(to) && !self.is_bool(from) {
            if op != CastOp::Trunc {
                return Err(Error::unsupported(format!("{op:?} to a boolean")));
            }
            let ft = self.ty(from)?;
            let one = self.splat(from, 1, 0.0)?;
            let zero = self.splat(from, 0, 0.0)?;
            let low = self.emit(S::BitwiseAnd, Some(ft), None, Self::ids(&[v, one]))?;
            self.emit(S::INotEqual, Some(t), rid, Self::ids(&[low, zero]))?;
            return Ok(());
        }
        let code = cast_opcode(m, op, from, to)?;
        // LLVM's addrspacecast may change the pointee too (clang's `i32* -> i8 addrspace(4)*`
        // for a pipe's packet); SPIR-V's casts to and from Generic keep it: cast the space,
        // then the pointee.
        if let (
            CastOp::AddrSpaceCast,
            Type::Pointer { pointee: pf, .. },
            Type::Pointer { pointee: pt, space },
        ) = (op, &m.types[from], &m.types[to])
        {
            if pf != pt {
                let class = crate::mappings::space_storage_class(*space);
                let pointee = self.ty(*pf)?;
                let mid_t = self.b.type_pointer(None, class, pointee);
                let mid = self.emit(code, Some(mid_t), None, Self::ids(&[v]))?;
                self.emit(S::Bitcast, Some(t), rid, Self::ids(&[mid]))?;
                return Ok(());
            }
        }
        self.emit(code, Some(t), rid, Self::ids(&[v]))?;
        Ok(())
    }

    fn terminator(&mut self, ctx: &mut FnCtx, t: &Terminator) -> Result<()> {
        // Every edge after the first to the same phi block goes through its forwarder.
        let from = ctx.current;
        let mut taken: HashMap<usize, usize> = HashMap::default();
        let mut target = |b: &ir::BlockId| -> Word {
            let to = b.0 as usize;
            let n = taken.entry(to).or_default();
            *n += 1;
            let direct = ctx.labels[to];
            ctx.edge_label(from, to, *n - 1, direct).unwrap_or(direct)
        };
        // The builder's terminator methods also close the block.
        match t {
            Terminator::Branch(b) => self.b.branch(target(b)),
            Terminator::CondBranch {
                cond,
                on_true,
                on_false,
            } => {
                let c = self.value(ctx, *cond)?;
                let (t, f) = (target(on_true), target(on_false));
                self.b.branch_conditional(c, t, f, [])
            }
            Terminator::Switch {
                value,
                default,
                cases,
            } => {
                let v = self.value(ctx, *value)?;
                let wide = bit_width(self.m, self.vty(ctx, *value)) == 64;
                let default = target(default);
                let targets: Vec<(Operand, Word)> = cases
                    .iter()
                    .map(|(c, b)| {
                        let lit = if wide {
                            Operand::LiteralBit64(*c)
                        } else {
                            Operand::LiteralBit32(*c as u32)
                        };
                        (lit, target(b))
                    })
                    .collect();
                self.b.switch(v, default, targets)
            }
            Terminator::Return(None) => self.b.ret(),
            Terminator::Return(Some(v)) => {
                let x = self.value(ctx, *v)?;
                self.b.ret_value(x)
            }
            Terminator::Unreachable => self.b.unreachable(),
        }
        .map_err(internal)
    }
}

/// The literal lane of a vector access when `index` is a constant inside the vector: what
/// OpCompositeExtract/Insert can spell. Otherwise (a run-time index, or a constant past the
/// end, whose result LLVM calls poison) the access is OpVectorExtract/InsertDynamic, which SPIR-V
/// allows with an undefined result.
pub(super) fn lane_literal(
    m: &ir::Module,
    func: ir::Handle<ir::Function>,
    vector: Value,
    index: Value,
) -> Option<u32> {
    let Value::Const(c) = index else {
        return None;
    };
    let ir::ConstantKind::Int(i) = m.constants[c].kind else {
        return None;
    };
    let lanes = m.lanes(m.value_type(&m.functions[func], vector));
    (i < u64::from(lanes)).then_some(i as u32)
}

pub(super) fn bit_width(m: &ir::Module, t: ir::Handle<Type>) -> u32 {
    match m.types[m.scalar_of(t)] {
        Type::Int { width } | Type::Float { width } => width,
        Type::Bool => 1,
        _ => 0,
    }
}

pub(super) fn internal(e: rspirv::dr::Error) -> Error {
    Error::internal(format!("SPIR-V builder: {e:?}"))
}

/// The SPIR-V opcode of an integer (or bitwise) operation; `None` for a float one.
pub(super) fn integer_op(op: BinaryOp) -> Option<S> {
    Some(match op {
        BinaryOp::Add => S::IAdd,
        BinaryOp::Sub => S::ISub,
        BinaryOp::Mul => S::IMul,
        BinaryOp::UDiv => S::UDiv,
        BinaryOp::SDiv => S::SDiv,
        BinaryOp::URem => S::UMod,
        BinaryOp::SRem => S::SRem,
        BinaryOp::Shl => S::ShiftLeftLogical,
        BinaryOp::LShr => S::ShiftRightLogical,
        BinaryOp::AShr => S::ShiftRightArithmetic,
        BinaryOp::And => S::BitwiseAnd,
        BinaryOp::Or => S::BitwiseOr,
        BinaryOp::Xor => S::BitwiseXor,
        BinaryOp::FAdd | BinaryOp::FSub | BinaryOp::FMul | BinaryOp::FDiv | BinaryOp::FRem => {
            return None
        }
    })
}
