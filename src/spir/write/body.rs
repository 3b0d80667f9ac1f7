//! Functions, blocks and LLVM-level instructions.

use crate::hash::HashMap;

use super::{Writer, CC_SPIR_FUNC, CC_SPIR_KERNEL};
use crate::diag::{Error, Result};
use crate::ir::{self, BinaryOp, CastOp, Op, Terminator, Type, Value};
use crate::llvm::{self, AttributePlace, IntPredicate, Linkage, Opcode, RealPredicate};

pub(super) fn cast_opcode(op: CastOp) -> Opcode {
    use Opcode as O;
    match op {
        CastOp::Trunc => O::LLVMTrunc,
        CastOp::ZExt => O::LLVMZExt,
        CastOp::SExt => O::LLVMSExt,
        CastOp::FPTrunc => O::LLVMFPTrunc,
        CastOp::FPExt => O::LLVMFPExt,
        CastOp::FPToUI => O::LLVMFPToUI,
        CastOp::FPToSI => O::LLVMFPToSI,
        CastOp::UIToFP => O::LLVMUIToFP,
        CastOp::SIToFP => O::LLVMSIToFP,
        CastOp::PtrToInt => O::LLVMPtrToInt,
        CastOp::IntToPtr => O::LLVMIntToPtr,
        CastOp::Bitcast => O::LLVMBitCast,
        CastOp::AddrSpaceCast => O::LLVMAddrSpaceCast,
    }
}

fn binary_opcode(op: BinaryOp) -> Opcode {
    use Opcode as O;
    match op {
        BinaryOp::Add => O::LLVMAdd,
        BinaryOp::Sub => O::LLVMSub,
        BinaryOp::Mul => O::LLVMMul,
        BinaryOp::UDiv => O::LLVMUDiv,
        BinaryOp::SDiv => O::LLVMSDiv,
        BinaryOp::URem => O::LLVMURem,
        BinaryOp::SRem => O::LLVMSRem,
        BinaryOp::Shl => O::LLVMShl,
        BinaryOp::LShr => O::LLVMLShr,
        BinaryOp::AShr => O::LLVMAShr,
        BinaryOp::And => O::LLVMAnd,
        BinaryOp::Or => O::LLVMOr,
        BinaryOp::Xor => O::LLVMXor,
        BinaryOp::FAdd => O::LLVMFAdd,
        BinaryOp::FSub => O::LLVMFSub,
        BinaryOp::FMul => O::LLVMFMul,
        BinaryOp::FDiv => O::LLVMFDiv,
        BinaryOp::FRem => O::LLVMFRem,
    }
}

fn int_predicate(p: ir::IntPredicate) -> IntPredicate {
    use ir::IntPredicate as P;
    use IntPredicate as L;
    match p {
        P::Eq => L::LLVMIntEQ,
        P::Ne => L::LLVMIntNE,
        P::Ugt => L::LLVMIntUGT,
        P::Uge => L::LLVMIntUGE,
        P::Ult => L::LLVMIntULT,
        P::Ule => L::LLVMIntULE,
        P::Sgt => L::LLVMIntSGT,
        P::Sge => L::LLVMIntSGE,
        P::Slt => L::LLVMIntSLT,
        P::Sle => L::LLVMIntSLE,
    }
}

fn float_predicate(p: ir::FloatPredicate) -> RealPredicate {
    use ir::FloatPredicate as P;
    use RealPredicate as L;
    match p {
        P::False => L::LLVMRealPredicateFalse,
        P::Oeq => L::LLVMRealOEQ,
        P::Ogt => L::LLVMRealOGT,
        P::Oge => L::LLVMRealOGE,
        P::Olt => L::LLVMRealOLT,
        P::Ole => L::LLVMRealOLE,
        P::One => L::LLVMRealONE,
        P::Ord => L::LLVMRealORD,
        P::Uno => L::LLVMRealUNO,
        P::Ueq => L::LLVMRealUEQ,
        P::Ugt => L::LLVMRealUGT,
        P::Uge => L::LLVMRealUGE,
        P::Ult => L::LLVMRealULT,
        P::Ule => L::LLVMRealULE,
        P::Une => L::LLVMRealUNE,
        P::True => L::LLVMRealPredicateTrue,
    }
}

/// Per-function state while writing a body.
pub(super) struct FnCtx<'a> {
    pub func: ir::Handle<ir::Function>,
    pub llfn: llvm::Value<'a>,
    pub values: HashMap<ir::Handle<ir::Inst>, llvm::Value<'a>>,
    pub blocks: Vec<llvm::Block<'a>>,
}

impl<'a> Writer<'a> {
    /// A variable of type `t` in the function's entry block, where LLVM's passes expect
    /// allocas, after the ones already there (keeping the graph's order); the builder stays
    /// where it was.
    pub(super) fn entry_alloca(
        &mut self,
        fc: &FnCtx<'a>,
        t: llvm::Type<'a>,
        name: &str,
    ) -> Result<llvm::Value<'a>> {
        let entry = fc.blocks[0];
        let here = self
            .b
            .insert_block()
            .ok_or_else(|| Error::internal("a variable made outside a block"))?;
        let first = entry
            .instructions()
            .find(|i| i.opcode() != Some(Opcode::LLVMAlloca));
        match first {
            Some(i) => self.b.position_before(i)?,
            None => self.b.position_at_end(entry),
        }
        let v = self.b.alloca(t, name);
        self.b.position_at_end(here);
        Ok(v?)
    }

    pub(super) fn declare_function(&mut self, h: ir::Handle<ir::Function>) -> Result<()> {
        let f = &self.m.functions[h];
        let ret = self.ty(f.ret)?;
        let ps = f
            .params
            .iter()
            .map(|p| self.ty(p.ty))
            .collect::<Result<Vec<_>>>()?;
        let fty = self.llvm.function_type(ret, &ps, false)?;
        let v = self.llvm.add_function(&f.name, fty)?;
        self.debug_function(h, v)?;
        v.set_call_conv(if f.is_kernel {
            CC_SPIR_KERNEL
        } else {
            CC_SPIR_FUNC
        })?;
        if f.linkage == ir::Linkage::Internal && !f.is_kernel {
            v.set_linkage(Linkage::LLVMInternalLinkage)?;
        }
        v.add_enum_attribute(self.llvm, AttributePlace::Function, "nounwind")?;
        for (i, p) in f.params.iter().enumerate() {
            let pv = v
                .param(i as u32)
                .ok_or_else(|| Error::internal("a parameter LLVM does not have"))?;
            if let Some(n) = &p.name {
                pv.set_name(n);
            }
            let a = p.attrs;
            let place = AttributePlace::Param(i as u32);
            // Memory attributes only mean something on LLVM pointers (a SPIR-V sampler
            // parameter with NoWrite is an i32 in SPIR).
            let is_ptr = pv.type_of().kind() == llvm::TypeKind::LLVMPointerTypeKind;
            for (on, name) in [
                (a.noalias && is_ptr, "noalias"),
                (a.nocapture && is_ptr, "nocapture"),
                (a.readonly && is_ptr, "readonly"),
                (a.readnone && is_ptr, "readnone"),
                (a.writeonly && is_ptr, "writeonly"),
                (a.zext, "zeroext"),
                (a.sext, "signext"),
            ] {
                if on {
                    v.add_enum_attribute(self.llvm, place, name)?;
                }
            }
            if let Some(n) = a.align.filter(|_| is_ptr) {
                v.add_int_attribute(self.llvm, place, "align", n.into())?;
            }
            for (on, name) in [(a.byval, "byval"), (a.sret, "sret")] {
                if on {
                    let pointee = self
                        .m
                        .pointee(p.ty)
                        .ok_or_else(|| Error::malformed(format!("{name} on a non-pointer")))?;
                    let pt = self.ty(pointee)?;
                    v.add_type_attribute(self.llvm, place, name, pt)?;
                }
            }
        }
        self.funcs.insert(h, v);
        Ok(())
    }

    pub(super) fn define_function(&mut self, h: ir::Handle<ir::Function>) -> Result<()> {
        let f = &self.m.functions[h];
        let Some(body) = &f.body else {
            return Ok(());
        };
        let llfn = self.funcs[&h];
        let mut fc = FnCtx {
            func: h,
            llfn,
            values: HashMap::default(),
            blocks: body
                .blocks
                .iter()
                .map(|b| {
                    // Unnamed blocks stay unnamed (LLVM numbers them): a name invented here
                    // would come back as an OpName the input never had.
                    let name = b.name.as_deref().unwrap_or_default();
                    llfn.append_block(self.llvm, name)
                })
                .collect::<llvm::Built<Vec<_>>>()?,
        };
        let order = ir::cfg::reverse_post_order(body.blocks.len(), |b| {
            body.blocks[b].terminator.successors()
        });
        let mut phis = Vec::new();
        self.debug_enter(h)?;
        for bi in order {
            let block = &body.blocks[bi];
            self.b.position_at_end(fc.blocks[bi]);
            for &ih in &block.insts {
                let inst = &body.insts[ih];
                if let Op::DebugDeclare { address: v, .. } | Op::DebugValue { value: v, .. } =
                    &inst.op
                {
                    let v = self.value(&mut fc, *v)?;
                    self.debug_declaration(inst, v)?;
                    continue;
                }
                let described = matches!(&inst.op, Op::Call { callee, .. }
                    if self.m.debug.subprogram_for(*callee).is_some());
                self.debug_locate(inst.loc, described)?;
                let v = self
                    .instruction(&mut fc, inst)
                    .map_err(|e| e.at_value(inst_label(inst)))?;
                // What LLVM built must have the graph's type: later instructions are built on
                // it.
                if !matches!(self.m.types[inst.ty], Type::Void) && v.type_of() != self.ty(inst.ty)?
                {
                    return Err(Error::internal(
                        "the SPIR spelling of this instruction has another type than the graph's",
                    )
                    .at_value(inst_label(inst)));
                }
                if let Op::Phi { incoming } = &inst.op {
                    phis.push((v, incoming));
                }
                fc.values.insert(ih, v);
            }
            self.debug_locate(block.terminator_loc, false)?;
            self.terminator(&mut fc, &block.terminator)?;
        }
        self.debug_locate(None, false)?;
        for (phi, incoming) in phis {
            let mut pairs = Vec::new();
            for (v, b) in incoming {
                if matches!(v, Value::Const(k) if matches!(self.m.constants[*k].kind, ir::ConstantKind::Sampler { .. }))
                    && self.samplers_are_objects()
                {
                    return Err(Error::unsupported(
                        "a phi of sampler constants (a sampler here is a call, which a phi \
                         cannot take; --spir-form spec writes samplers as i32 constants)",
                    ));
                }
                pairs.push((self.value(&mut fc, *v)?, fc.blocks[b.0 as usize]));
            }
            phi.add_incoming(&pairs)?;
        }
        Ok(())
    }

    pub(super) fn value(&mut self, fc: &mut FnCtx<'a>, v: Value) -> Result<llvm::Value<'a>> {
        match v {
            Value::Param(i) => fc
                .llfn
                .param(i)
                .ok_or_else(|| Error::internal("a parameter the function does not have")),
            Value::Inst(h) => fc
                .values
                .get(&h)
                .copied()
                .ok_or_else(|| Error::internal("a value used before its definition")),
            Value::Const(c) => match self.m.constants[c].kind {
                ir::ConstantKind::Sampler {
                    addressing,
                    normalized,
                    filter,
                } if self.samplers_are_objects() => self
                    .friendly_sampler(ir::constant::encode_sampler(addressing, normalized, filter)),
                ir::ConstantKind::Spec { spec_id, default }
                    if self.opts.flavor == crate::options::Flavor::SpirvIr =>
                {
                    self.friendly_spec_constant(spec_id, default)
                }
                _ => self.constant(c),
            },
        }
    }

    pub(super) fn vty(&self, fc: &FnCtx, v: Value) -> ir::Handle<Type> {
        self.m.value_type(&self.m.functions[fc.func], v)
    }

    fn values(&mut self, fc: &mut FnCtx<'a>, vs: &[Value]) -> Result<Vec<llvm::Value<'a>>> {
        vs.iter().map(|&v| self.value(fc, v)).collect()
    }

    fn instruction(&mut self, fc: &mut FnCtx<'a>, inst: &ir::Inst) -> Result<llvm::Value<'a>> {
        let is_void = matches!(self.m.types[inst.ty], Type::Void);
        let name = if is_void {
            ""
        } else {
            inst.name.as_deref().unwrap_or("")
        };
        let rt = self.ty(inst.ty)?;
        Ok(match &inst.op {
            Op::DebugDeclare { .. } | Op::DebugValue { .. } => {
                return Err(Error::internal(
                    "debug declarations: not yet written to SPIR",
                ))
            }
            Op::Binary {
                op,
                lhs,
                rhs,
                flags,
            } => {
                let (l, r) = (self.value(fc, *lhs)?, self.value(fc, *rhs)?);
                let v = self.b.binary(binary_opcode(*op), l, r, name)?;
                // Every flag the instruction's kind has (both wrap flags at once, which the
                // C API's builders cannot give).
                let flags = llvm::InstFlags {
                    nsw: flags.nsw,
                    nuw: flags.nuw,
                    exact: flags.exact,
                    fast: fast_math_flags(flags.fast),
                };
                if flags.any() {
                    v.set_inst_flags(flags);
                }
                v
            }
            Op::FNeg(x) => {
                let x = self.value(fc, *x)?;
                self.b.fneg(x, name)?
            }
            Op::ICmp { pred, lhs, rhs } => {
                let (l, r) = (self.value(fc, *lhs)?, self.value(fc, *rhs)?);
                self.b.icmp(int_predicate(*pred), l, r, name)?
            }
            Op::FCmp { pred, lhs, rhs } => {
                let (l, r) = (self.value(fc, *lhs)?, self.value(fc, *rhs)?);
                self.b.fcmp(float_predicate(*pred), l, r, name)?
            }
            Op::Cast { op, value } => {
                let v = self.value(fc, *value)?;
                let pointers = v.type_of().kind() == llvm::TypeKind::LLVMPointerTypeKind
                    && rt.kind() == llvm::TypeKind::LLVMPointerTypeKind;
                if *op == CastOp::Bitcast && pointers {
                    // A SPIR-V bitcast may change the storage class too (LLVM needs an
                    // addrspacecast for that part).
                    self.b.pointer_cast(v, rt, name)?
                } else {
                    self.b.cast(cast_opcode(*op), v, rt, name)?
                }
            }
            Op::Select {
                cond,
                on_true,
                on_false,
            } => {
                let cv = self.value(fc, *cond)?;
                let t = self.value(fc, *on_true)?;
                let f = self.value(fc, *on_false)?;
                self.b.select(cv, t, f, name)?
            }
            Op::Phi { .. } => self.b.phi(rt, name)?,
            Op::Call { callee, args } => {
                let f = self.funcs[callee];
                let cf = &self.m.functions[*callee];
                let mut a = self.values(fc, args)?;
                // An i32 sampler passed where a sampler object is wanted.
                for (i, p) in cf.params.iter().enumerate() {
                    if matches!(self.m.types[p.ty], Type::Sampler)
                        && self.samplers_are_objects()
                        && a[i].type_of().kind() == llvm::TypeKind::LLVMIntegerTypeKind
                    {
                        a[i] = self.translate_sampler(a[i])?;
                    }
                }
                let call = self.b.call(f, &a, name)?;
                call.set_call_conv(if cf.is_kernel {
                    CC_SPIR_KERNEL
                } else {
                    CC_SPIR_FUNC
                })?;
                call
            }
            Op::Builtin { builtin, args } => {
                let a = self.values(fc, args)?;
                let tys: Vec<_> = args.iter().map(|&v| self.vty(fc, v)).collect();
                self.builtin(fc, builtin, args, &a, &tys, inst.ty, name)?
            }
            Op::Alloca { .. }
            | Op::Load { .. }
            | Op::Store { .. }
            | Op::Gep { .. }
            | Op::CopyMemory { .. }
            | Op::FillMemory { .. } => self.memory_inst(fc, inst, rt, name)?,
            Op::ExtractElement { .. }
            | Op::InsertElement { .. }
            | Op::Shuffle { .. }
            | Op::ExtractValue { .. }
            | Op::InsertValue { .. } => self.composite_inst(fc, inst, name)?,
        })
    }

    /// A variable, a load, a store, a `getelementptr`, a copy or fill of memory.
    fn memory_inst(
        &mut self,
        fc: &mut FnCtx<'a>,
        inst: &ir::Inst,
        rt: llvm::Type<'a>,
        name: &str,
    ) -> Result<llvm::Value<'a>> {
        Ok(match &inst.op {
            Op::Alloca { allocated, align } => {
                let t = self.ty(*allocated)?;
                let v = self.entry_alloca(fc, t, name)?;
                if let Some(a) = align {
                    v.set_alignment(*a)?;
                }
                v
            }
            Op::Load {
                ptr,
                align,
                volatile,
            } => {
                let p = self.value(fc, *ptr)?;
                let v = self.b.load(rt, p, name)?;
                if let Some(a) = align {
                    v.set_alignment(*a)?;
                }
                v.set_volatile(*volatile)?;
                v
            }
            Op::Store {
                ptr,
                value,
                align,
                volatile,
            } => {
                let p = self.value(fc, *ptr)?;
                let v = self.value(fc, *value)?;
                let s = self.b.store(v, p)?;
                if let Some(a) = align {
                    s.set_alignment(*a)?;
                }
                s.set_volatile(*volatile)?;
                s
            }
            Op::Gep {
                inbounds,
                base,
                indices,
            } => {
                let bt = self.vty(fc, *base);
                let pointee = self
                    .m
                    .pointee(bt)
                    .ok_or_else(|| Error::malformed("getelementptr of a non-pointer"))?;
                let pt = match self.m.types[pointee] {
                    Type::Void => self.llvm.int_type(8)?,
                    _ => self.ty(pointee)?,
                };
                let bv = self.value(fc, *base)?;
                let is = self.values(fc, indices)?;
                self.b.gep(pt, bv, &is, *inbounds, name)?
            }
            Op::CopyMemory {
                dst,
                src,
                size,
                align,
                volatile,
            } => {
                let d = self.value(fc, *dst)?;
                let s = self.value(fc, *src)?;
                let z = self.value(fc, *size)?;
                let call = self.b.memcpy(d, s, z, align.unwrap_or(1))?;
                self.set_volatile_arg(call, *volatile)?
            }
            Op::FillMemory {
                dst,
                byte,
                size,
                align,
                volatile,
            } => {
                let d = self.value(fc, *dst)?;
                let v = self.value(fc, *byte)?;
                let z = self.value(fc, *size)?;
                let call = self.b.memset(d, v, z, align.unwrap_or(1))?;
                self.set_volatile_arg(call, *volatile)?
            }
            _ => {
                return Err(Error::internal(
                    "an instruction written by the wrong family",
                ))
            }
        })
    }

    /// A lane or member of a vector or aggregate read or replaced, a shuffle.
    fn composite_inst(
        &mut self,
        fc: &mut FnCtx<'a>,
        inst: &ir::Inst,
        name: &str,
    ) -> Result<llvm::Value<'a>> {
        Ok(match &inst.op {
            Op::ExtractElement { vector, index } => {
                let v = self.value(fc, *vector)?;
                let i = self.value(fc, *index)?;
                self.b.extract_element(v, i, name)?
            }
            Op::InsertElement {
                vector,
                element,
                index,
            } => {
                let v = self.value(fc, *vector)?;
                let e = self.value(fc, *element)?;
                let i = self.value(fc, *index)?;
                self.b.insert_element(v, e, i, name)?
            }
            Op::Shuffle { a, b, mask } => {
                let av = self.value(fc, *a)?;
                let bv = self.value(fc, *b)?;
                self.b.shuffle(self.llvm, av, bv, mask, name)?
            }
            Op::ExtractValue { aggregate, indices } => {
                let mut v = self.value(fc, *aggregate)?;
                for (k, &i) in indices.iter().enumerate() {
                    let nm = if k + 1 == indices.len() { name } else { "" };
                    v = self.b.extract_value(v, i, nm)?;
                }
                v
            }
            Op::InsertValue {
                aggregate,
                element,
                indices,
            } => {
                let agg = self.value(fc, *aggregate)?;
                let e = self.value(fc, *element)?;
                let Some((_, outer)) = indices.split_last() else {
                    return Err(Error::malformed("insertvalue without an index"));
                };
                // Nested: extract the inner aggregates, insert bottom-up.
                let mut path = vec![agg];
                for &i in outer {
                    let last = path[path.len() - 1];
                    path.push(self.b.extract_value(last, i, "")?);
                }
                let mut cur = e;
                for (k, &i) in indices.iter().enumerate().rev() {
                    let nm = if k == 0 { name } else { "" };
                    cur = self.b.insert_value(path[k], cur, i, nm)?;
                }
                cur
            }
            _ => {
                return Err(Error::internal(
                    "an instruction written by the wrong family",
                ))
            }
        })
    }

    /// A memory intrinsic call made volatile: LLVM's C API builds only non-volatile ones, and
    /// the flag is the call's fourth argument (`i1 isvolatile`).
    fn set_volatile_arg(&self, call: llvm::Value<'a>, volatile: bool) -> Result<llvm::Value<'a>> {
        if volatile {
            let yes = self.llvm.const_int(self.llvm.int_type(1)?, 1)?;
            if !call.set_operand(3, yes) {
                return Err(Error::internal(
                    "a memory intrinsic without its volatile flag",
                ));
            }
        }
        Ok(call)
    }

    fn terminator(&mut self, fc: &mut FnCtx<'a>, t: &Terminator) -> Result<()> {
        match t {
            Terminator::Branch(to) => {
                self.b.br(fc.blocks[to.0 as usize])?;
            }
            Terminator::CondBranch {
                cond,
                on_true,
                on_false,
            } => {
                let cv = self.value(fc, *cond)?;
                self.b.cond_br(
                    cv,
                    fc.blocks[on_true.0 as usize],
                    fc.blocks[on_false.0 as usize],
                )?;
            }
            Terminator::Switch {
                value,
                default,
                cases,
            } => {
                let v = self.value(fc, *value)?;
                let cases: Vec<_> = cases
                    .iter()
                    .map(|(lit, to)| (*lit, fc.blocks[to.0 as usize]))
                    .collect();
                self.b
                    .switch(self.llvm, v, fc.blocks[default.0 as usize], &cases)?;
            }
            Terminator::Return(None) => {
                self.b.ret_void()?;
            }
            Terminator::Return(Some(v)) => {
                let v = self.value(fc, *v)?;
                self.b.ret(v)?;
            }
            Terminator::Unreachable => {
                self.b.unreachable()?;
            }
        }
        Ok(())
    }
}

/// How an error names the instruction: its value name, else what it does.
fn inst_label(inst: &ir::Inst) -> String {
    match (&inst.name, &inst.op) {
        (Some(n), _) => format!("%{n}"),
        (None, Op::Builtin { builtin, .. }) => {
            format!("an unnamed {}", crate::verify::builtin_name(builtin))
        }
        (None, op) => {
            let debug = format!("{op:?}");
            let kind = debug.split([' ', '(', '{']).next().unwrap_or("instruction");
            format!("an unnamed {kind}")
        }
    }
}

/// LLVM's fast-math flags for what the graph's float operation may relax.
fn fast_math_flags(f: ir::FastMath) -> llvm::FastMathFlags {
    llvm::FastMathFlags {
        reassoc: f.allow_reassoc,
        nnan: f.no_nans,
        ninf: f.no_infs,
        nsz: f.no_signed_zeros,
        arcp: f.allow_recip,
        contract: f.allow_contract,
        afn: f.approx_func,
    }
}
