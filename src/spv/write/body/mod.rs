//! Functions, blocks and instructions, including the semantic builtins.

use crate::hash::HashMap;

use rspirv::dr::{InsertPoint, Instruction, Operand};
use spirv::{Capability, Op as S, Word};

use super::Writer;

mod inst;
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
                    self.function_variables(&ctx, body)?;
                    self.private_copies(h)?;
                    self.debug_function_definition(h, id)?;
                }
                self.debug_block_start();
                for (pos, &ih) in block.insts.iter().enumerate() {
                    let inst = &body.insts[ih];
                    if matches!(inst.op, Op::Alloca { .. }) {
                        continue;
                    }
                    // Phis come first in a block, before any line or scope.
                    if !matches!(inst.op, Op::Phi { .. }) {
                        self.debug_at(inst.loc)?;
                    }
                    self.instruction(&mut ctx, ih, inst).map_err(|e| {
                        e.in_block(block.name.as_deref().unwrap_or(&format!("{bi}")))
                            .at_value(crate::ir::print::value_label(body, block, pos))
                    })?;
                }
                self.debug_at(block.terminator_loc)?;
                self.merge_instruction(&ctx, block.construct)?;
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

    /// Every Function variable of `body` (its allocas), which SPIR-V wants at the start of
    /// the entry block, with its alignment and, holding a physical pointer, AliasedPointer.
    fn function_variables(&mut self, ctx: &FnCtx, body: &ir::Body) -> Result<()> {
        let m = self.m;
        let restrict_holders = restrict_holders(m, ctx.func);
        for b in &body.blocks {
            for &ih in &b.insts {
                if let Op::Alloca { allocated, align } = &body.insts[ih].op {
                    let pt = self.ty(body.insts[ih].ty)?;
                    let _ = self.ty(*allocated)?;
                    let vid = ctx.inst_ids[&ih];
                    self.b
                        .variable(pt, Some(vid), spirv::StorageClass::Function, None);
                    // A variable holding a physical pointer (or an array of them) says
                    // whether it aliases.
                    if holds_physical_pointer(m, *allocated) {
                        let d = match restrict_holders.contains(&ih) {
                            true => spirv::Decoration::RestrictPointer,
                            false => spirv::Decoration::AliasedPointer,
                        };
                        self.b.decorate(vid, d, []);
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
        Ok(())
    }

    /// The merge instruction a block that heads a structured construct ends with.
    fn merge_instruction(&mut self, ctx: &FnCtx, construct: Option<ir::Construct>) -> Result<()> {
        match construct {
            Some(ir::Construct::Selection { merge }) => self
                .b
                .selection_merge(ctx.labels[merge.0 as usize], spirv::SelectionControl::NONE)
                .map_err(internal)?,
            Some(ir::Construct::Loop {
                merge,
                continue_target,
                unroll,
            }) => self
                .b
                .loop_merge(
                    ctx.labels[merge.0 as usize],
                    ctx.labels[continue_target.0 as usize],
                    match unroll {
                        true => spirv::LoopControl::UNROLL,
                        false => spirv::LoopControl::NONE,
                    },
                    [],
                )
                .map_err(internal)?,
            None => {}
        }
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
        if let Some(n) = a.align {
            self.decorate(id, spirv::Decoration::Alignment, [Operand::LiteralBit32(n)]);
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
    /// contraction, which the graph spells where the source allowed it (`mad` where LLVM had
    /// `fmuladd`, written without NoContraction so that the driver may fuse it).
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

/// The Function variables of entry function `f` that hold a `restrict` buffer's address
/// (`ArgKind::restrict_holder`), decorated RestrictPointer.
fn restrict_holders(m: &ir::Module, f: ir::Handle<ir::Function>) -> Vec<ir::Handle<ir::Inst>> {
    let kernels = m.shader.iter().flat_map(|s| &s.kernels);
    kernels
        .filter(|k| k.entry == f)
        .flat_map(|k| &k.args)
        .filter_map(|a| a.kind.restrict_holder())
        .collect()
}

/// Whether values of type `t` are physical pointers, or arrays of them (what SPIR-V asks a
/// Function variable's AliasedPointer or RestrictPointer of).
fn holds_physical_pointer(m: &ir::Module, mut t: ir::Handle<Type>) -> bool {
    loop {
        match &m.types[t] {
            Type::Array { elem, .. } => t = *elem,
            Type::Pointer {
                space: ir::AddressSpace::PhysicalStorageBuffer,
                ..
            } => return true,
            _ => return false,
        }
    }
}
