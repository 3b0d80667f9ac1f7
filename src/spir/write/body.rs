//! Functions, blocks and LLVM-level instructions.

use std::ffi::CStr;

use crate::hash::HashMap;

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMIntPredicate, LLVMOpcode, LLVMRealPredicate};

use super::{c, Writer, CC_SPIR_FUNC, CC_SPIR_KERNEL};
use crate::diag::{Error, Result};
use crate::ir::{self, BinaryOp, CastOp, Op, Terminator, Type, Value};

pub(super) fn cast_opcode(op: CastOp) -> LLVMOpcode {
    use LLVMOpcode as O;
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

fn binary_opcode(op: BinaryOp) -> LLVMOpcode {
    use LLVMOpcode as O;
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

fn int_predicate(p: ir::IntPredicate) -> LLVMIntPredicate {
    use ir::IntPredicate as P;
    use LLVMIntPredicate as L;
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

fn float_predicate(p: ir::FloatPredicate) -> LLVMRealPredicate {
    use ir::FloatPredicate as P;
    use LLVMRealPredicate as L;
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
pub(super) struct FnCtx {
    pub func: ir::Handle<ir::Function>,
    pub llfn: LLVMValueRef,
    pub values: HashMap<ir::Handle<ir::Inst>, LLVMValueRef>,
    pub blocks: Vec<LLVMBasicBlockRef>,
}

impl Writer<'_> {
    /// A variable of type `t` in the function's entry block, where LLVM's passes expect
    /// allocas, after the ones already there (keeping the graph's order); the builder stays
    /// where it was.
    pub(super) fn entry_alloca(
        &mut self,
        fc: &FnCtx,
        t: LLVMTypeRef,
        name: &std::ffi::CStr,
    ) -> LLVMValueRef {
        unsafe {
            let b = self.builder;
            let entry = fc.blocks[0];
            let here = LLVMGetInsertBlock(b);
            let mut first = LLVMGetFirstInstruction(entry);
            while !first.is_null() && !LLVMIsAAllocaInst(first).is_null() {
                first = LLVMGetNextInstruction(first);
            }
            if first.is_null() {
                LLVMPositionBuilderAtEnd(b, entry);
            } else {
                LLVMPositionBuilderBefore(b, first);
            }
            let v = LLVMBuildAlloca(b, t, name.as_ptr());
            LLVMPositionBuilderAtEnd(b, here);
            v
        }
    }

    pub(super) fn enum_attr(&self, name: &str) -> LLVMAttributeRef {
        unsafe {
            let kind = LLVMGetEnumAttributeKindForName(name.as_ptr() as *const _, name.len());
            LLVMCreateEnumAttribute(self.ctx, kind, 0)
        }
    }

    pub(super) fn declare_function(&mut self, h: ir::Handle<ir::Function>) -> Result<()> {
        let f = &self.m.functions[h];
        let ret = self.ty(f.ret)?;
        let mut ps = f
            .params
            .iter()
            .map(|p| self.ty(p.ty))
            .collect::<Result<Vec<_>>>()?;
        let v = unsafe {
            let fty = LLVMFunctionType(ret, ps.as_mut_ptr(), ps.len() as u32, 0);
            let v = LLVMAddFunction(self.module, c(&f.name).as_ptr(), fty);
            LLVMSetFunctionCallConv(
                v,
                if f.is_kernel {
                    CC_SPIR_KERNEL
                } else {
                    CC_SPIR_FUNC
                },
            );
            if f.linkage == ir::Linkage::Internal && !f.is_kernel {
                LLVMSetLinkage(v, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
            }
            LLVMAddAttributeAtIndex(v, u32::MAX, self.enum_attr("nounwind"));
            v
        };
        for (i, p) in f.params.iter().enumerate() {
            let pv = unsafe { LLVMGetParam(v, i as u32) };
            if let Some(n) = &p.name {
                unsafe { LLVMSetValueName2(pv, n.as_ptr() as *const _, n.len()) };
            }
            let a = p.attrs;
            let idx = i as u32 + 1;
            // Memory attributes only mean something on LLVM pointers (a SPIR-V sampler
            // parameter with NoWrite is an i32 in SPIR).
            let is_ptr = unsafe {
                LLVMGetTypeKind(LLVMTypeOf(pv)) == llvm_sys::LLVMTypeKind::LLVMPointerTypeKind
            };
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
                    unsafe { LLVMAddAttributeAtIndex(v, idx, self.enum_attr(name)) };
                }
            }
            for (on, name) in [(a.byval, "byval"), (a.sret, "sret")] {
                if on {
                    let pointee = self
                        .m
                        .pointee(p.ty)
                        .ok_or_else(|| Error::malformed(format!("{name} on a non-pointer")))?;
                    let pt = self.ty(pointee)?;
                    unsafe {
                        let kind =
                            LLVMGetEnumAttributeKindForName(name.as_ptr() as *const _, name.len());
                        let attr = LLVMCreateTypeAttribute(self.ctx, kind, pt);
                        LLVMAddAttributeAtIndex(v, idx, attr);
                    }
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
                    let name = b.name.clone().unwrap_or_default();
                    unsafe { LLVMAppendBasicBlockInContext(self.ctx, llfn, c(&name).as_ptr()) }
                })
                .collect(),
        };
        let order = ir::cfg::reverse_post_order(body.blocks.len(), |b| {
            body.blocks[b].terminator.successors()
        });
        let mut phis = Vec::new();
        for bi in order {
            let block = &body.blocks[bi];
            unsafe { LLVMPositionBuilderAtEnd(self.builder, fc.blocks[bi]) };
            for &ih in &block.insts {
                let inst = &body.insts[ih];
                let v = self
                    .instruction(&mut fc, inst)
                    .map_err(|e| e.at_value(inst_label(inst)))?;
                // What LLVM built must have the graph's type: later instructions are built on
                // it, and LLVM's C API does not check their operands (it crashes instead).
                if !matches!(self.m.types[inst.ty], Type::Void)
                    && unsafe { LLVMTypeOf(v) } != self.ty(inst.ty)?
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
            self.terminator(&mut fc, &block.terminator)?;
        }
        for (phi, incoming) in phis {
            let mut vals = Vec::new();
            let mut blocks = Vec::new();
            for (v, b) in incoming {
                if matches!(v, Value::Const(k) if matches!(self.m.constants[*k].kind, ir::ConstantKind::Sampler { .. }))
                    && self.opts.flavor == crate::options::Flavor::SpirvIr
                {
                    return Err(Error::unsupported(
                        "a phi of sampler constants in --flavor spirv-ir (a sampler there is \
                         a call, which a phi cannot take)",
                    ));
                }
                vals.push(self.value(&mut fc, *v)?);
                blocks.push(fc.blocks[b.0 as usize]);
            }
            unsafe {
                LLVMAddIncoming(
                    phi,
                    vals.as_mut_ptr(),
                    blocks.as_mut_ptr(),
                    vals.len() as u32,
                )
            };
        }
        Ok(())
    }

    pub(super) fn value(&mut self, fc: &mut FnCtx, v: Value) -> Result<LLVMValueRef> {
        match v {
            Value::Param(i) => Ok(unsafe { LLVMGetParam(fc.llfn, i) }),
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
                } if self.opts.flavor == crate::options::Flavor::SpirvIr => self
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

    fn values(&mut self, fc: &mut FnCtx, vs: &[Value]) -> Result<Vec<LLVMValueRef>> {
        vs.iter().map(|&v| self.value(fc, v)).collect()
    }

    fn instruction(&mut self, fc: &mut FnCtx, inst: &ir::Inst) -> Result<LLVMValueRef> {
        let b = self.builder;
        let is_void = matches!(self.m.types[inst.ty], Type::Void);
        let name = if is_void {
            c("")
        } else {
            c(inst.name.as_deref().unwrap_or(""))
        };
        let n = name.as_ptr();
        let rt = self.ty(inst.ty)?;
        // SAFETY: as in `memory_inst`: the builder, values and types are this writer's, and
        // `name` outlives the calls.
        Ok(unsafe {
            match &inst.op {
                Op::Binary {
                    op,
                    lhs,
                    rhs,
                    flags,
                } => {
                    let (l, r) = (self.value(fc, *lhs)?, self.value(fc, *rhs)?);
                    match (op, flags.nsw, flags.nuw) {
                        (BinaryOp::Add, true, _) => LLVMBuildNSWAdd(b, l, r, n),
                        (BinaryOp::Add, _, true) => LLVMBuildNUWAdd(b, l, r, n),
                        (BinaryOp::Sub, true, _) => LLVMBuildNSWSub(b, l, r, n),
                        (BinaryOp::Sub, _, true) => LLVMBuildNUWSub(b, l, r, n),
                        (BinaryOp::Mul, true, _) => LLVMBuildNSWMul(b, l, r, n),
                        (BinaryOp::Mul, _, true) => LLVMBuildNUWMul(b, l, r, n),
                        (BinaryOp::SDiv, _, _) if flags.exact => LLVMBuildExactSDiv(b, l, r, n),
                        _ => LLVMBuildBinOp(b, binary_opcode(*op), l, r, n),
                    }
                }
                Op::FNeg(x) => {
                    let x = self.value(fc, *x)?;
                    LLVMBuildFNeg(b, x, n)
                }
                Op::ICmp { pred, lhs, rhs } => {
                    let (l, r) = (self.value(fc, *lhs)?, self.value(fc, *rhs)?);
                    LLVMBuildICmp(b, int_predicate(*pred), l, r, n)
                }
                Op::FCmp { pred, lhs, rhs } => {
                    let (l, r) = (self.value(fc, *lhs)?, self.value(fc, *rhs)?);
                    LLVMBuildFCmp(b, float_predicate(*pred), l, r, n)
                }
                Op::Cast { op, value } => {
                    let v = self.value(fc, *value)?;
                    let pointers = LLVMGetTypeKind(LLVMTypeOf(v))
                        == llvm_sys::LLVMTypeKind::LLVMPointerTypeKind
                        && LLVMGetTypeKind(rt) == llvm_sys::LLVMTypeKind::LLVMPointerTypeKind;
                    if *op == CastOp::Bitcast && pointers {
                        // A SPIR-V bitcast may change the storage class too (LLVM needs an
                        // addrspacecast for that part).
                        LLVMBuildPointerCast(b, v, rt, n)
                    } else {
                        LLVMBuildCast(b, cast_opcode(*op), v, rt, n)
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
                    LLVMBuildSelect(b, cv, t, f, n)
                }
                Op::Phi { .. } => LLVMBuildPhi(b, rt, n),
                Op::Call { callee, args } => {
                    let f = self.funcs[callee];
                    let cf = &self.m.functions[*callee];
                    let fty = LLVMGlobalGetValueType(f);
                    let mut a = self.values(fc, args)?;
                    // A SPIR-style i32 sampler passed where spirv-ir wants a sampler object.
                    for (i, p) in cf.params.iter().enumerate() {
                        if matches!(self.m.types[p.ty], Type::Sampler)
                            && self.opts.flavor == crate::options::Flavor::SpirvIr
                            && LLVMGetTypeKind(LLVMTypeOf(a[i]))
                                == llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind
                        {
                            a[i] = self.translate_sampler(a[i])?;
                        }
                    }
                    let call = LLVMBuildCall2(b, fty, f, a.as_mut_ptr(), a.len() as u32, n);
                    LLVMSetInstructionCallConv(
                        call,
                        if cf.is_kernel {
                            CC_SPIR_KERNEL
                        } else {
                            CC_SPIR_FUNC
                        },
                    );
                    call
                }
                Op::Builtin { builtin, args } => {
                    let a = self.values(fc, args)?;
                    let tys: Vec<_> = args.iter().map(|&v| self.vty(fc, v)).collect();
                    self.builtin(fc, builtin, args, &a, &tys, inst.ty, &name)?
                }
                Op::Alloca { .. }
                | Op::Load { .. }
                | Op::Store { .. }
                | Op::Gep { .. }
                | Op::CopyMemory { .. }
                | Op::FillMemory { .. } => self.memory_inst(fc, inst, rt, &name)?,
                Op::ExtractElement { .. }
                | Op::InsertElement { .. }
                | Op::Shuffle { .. }
                | Op::ExtractValue { .. }
                | Op::InsertValue { .. } => self.composite_inst(fc, inst, &name)?,
            }
        })
    }

    /// A variable, a load, a store, a `getelementptr`, a copy or fill of memory.
    fn memory_inst(
        &mut self,
        fc: &mut FnCtx,
        inst: &ir::Inst,
        rt: LLVMTypeRef,
        name: &CStr,
    ) -> Result<LLVMValueRef> {
        let b = self.builder;
        let n = name.as_ptr();
        // SAFETY: `b` is this writer's builder, placed in the function being written; every
        // value and type given to LLVM was made in this writer's context (`value`, `ty`),
        // and `n` points to a NUL-terminated name that outlives the calls.
        Ok(unsafe {
            match &inst.op {
                Op::Alloca { allocated, align } => {
                    let t = self.ty(*allocated)?;
                    let v = self.entry_alloca(fc, t, name);
                    if let Some(a) = align {
                        LLVMSetAlignment(v, *a);
                    }
                    v
                }
                Op::Load {
                    ptr,
                    align,
                    volatile,
                } => {
                    let p = self.value(fc, *ptr)?;
                    let v = LLVMBuildLoad2(b, rt, p, n);
                    if let Some(a) = align {
                        LLVMSetAlignment(v, *a);
                    }
                    LLVMSetVolatile(v, *volatile as i32);
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
                    let s = LLVMBuildStore(b, v, p);
                    if let Some(a) = align {
                        LLVMSetAlignment(s, *a);
                    }
                    LLVMSetVolatile(s, *volatile as i32);
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
                        Type::Void => LLVMInt8TypeInContext(self.ctx),
                        _ => self.ty(pointee)?,
                    };
                    let bv = self.value(fc, *base)?;
                    let mut is = self.values(fc, indices)?;
                    if *inbounds {
                        LLVMBuildInBoundsGEP2(b, pt, bv, is.as_mut_ptr(), is.len() as u32, n)
                    } else {
                        LLVMBuildGEP2(b, pt, bv, is.as_mut_ptr(), is.len() as u32, n)
                    }
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
                    let a = align.unwrap_or(1);
                    self.set_volatile_arg(LLVMBuildMemCpy(b, d, a, s, a, z), *volatile)
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
                    let call = LLVMBuildMemSet(b, d, v, z, align.unwrap_or(1));
                    self.set_volatile_arg(call, *volatile)
                }
                _ => {
                    return Err(Error::internal(
                        "an instruction written by the wrong family",
                    ))
                }
            }
        })
    }

    /// A lane or member of a vector or aggregate read or replaced, a shuffle.
    fn composite_inst(
        &mut self,
        fc: &mut FnCtx,
        inst: &ir::Inst,
        name: &CStr,
    ) -> Result<LLVMValueRef> {
        let b = self.builder;
        let n = name.as_ptr();
        // SAFETY: `b` is this writer's builder, placed in the function being written; every
        // value and type given to LLVM was made in this writer's context (`value`, `ty`),
        // and `n` points to a NUL-terminated name that outlives the calls.
        Ok(unsafe {
            match &inst.op {
                Op::ExtractElement { vector, index } => {
                    let v = self.value(fc, *vector)?;
                    let i = self.value(fc, *index)?;
                    LLVMBuildExtractElement(b, v, i, n)
                }
                Op::InsertElement {
                    vector,
                    element,
                    index,
                } => {
                    let v = self.value(fc, *vector)?;
                    let e = self.value(fc, *element)?;
                    let i = self.value(fc, *index)?;
                    LLVMBuildInsertElement(b, v, e, i, n)
                }
                Op::Shuffle { a, b: bb, mask } => {
                    let av = self.value(fc, *a)?;
                    let bv = self.value(fc, *bb)?;
                    let i32t = LLVMInt32TypeInContext(self.ctx);
                    let mut m: Vec<_> = mask
                        .iter()
                        .map(|l| match l {
                            Some(l) => LLVMConstInt(i32t, *l as u64, 0),
                            None => LLVMGetUndef(i32t),
                        })
                        .collect();
                    let mv = LLVMConstVector(m.as_mut_ptr(), m.len() as u32);
                    LLVMBuildShuffleVector(b, av, bv, mv, n)
                }
                Op::ExtractValue { aggregate, indices } => {
                    let mut v = self.value(fc, *aggregate)?;
                    for (k, &i) in indices.iter().enumerate() {
                        let nm = if k + 1 == indices.len() {
                            n
                        } else {
                            c"".as_ptr()
                        };
                        v = LLVMBuildExtractValue(b, v, i, nm);
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
                    // Nested: extract the inner aggregates, insert bottom-up.
                    let mut path = vec![agg];
                    for &i in &indices[..indices.len() - 1] {
                        let last = *path.last().unwrap();
                        path.push(LLVMBuildExtractValue(b, last, i, c"".as_ptr()));
                    }
                    let mut cur = e;
                    for (k, &i) in indices.iter().enumerate().rev() {
                        let nm = if k == 0 { n } else { c"".as_ptr() };
                        cur = LLVMBuildInsertValue(b, path[k], cur, i, nm);
                    }
                    cur
                }
                _ => {
                    return Err(Error::internal(
                        "an instruction written by the wrong family",
                    ))
                }
            }
        })
    }

    /// A memory intrinsic call made volatile: LLVM's C API builds only non-volatile ones, and
    /// the flag is the call's fourth argument (`i1 isvolatile`).
    unsafe fn set_volatile_arg(&self, call: LLVMValueRef, volatile: bool) -> LLVMValueRef {
        if volatile {
            LLVMSetOperand(call, 3, LLVMConstInt(LLVMInt1TypeInContext(self.ctx), 1, 0));
        }
        call
    }

    fn terminator(&mut self, fc: &mut FnCtx, t: &Terminator) -> Result<()> {
        let b = self.builder;
        unsafe {
            match t {
                Terminator::Branch(to) => {
                    LLVMBuildBr(b, fc.blocks[to.0 as usize]);
                }
                Terminator::CondBranch {
                    cond,
                    on_true,
                    on_false,
                } => {
                    let cv = self.value(fc, *cond)?;
                    LLVMBuildCondBr(
                        b,
                        cv,
                        fc.blocks[on_true.0 as usize],
                        fc.blocks[on_false.0 as usize],
                    );
                }
                Terminator::Switch {
                    value,
                    default,
                    cases,
                } => {
                    let v = self.value(fc, *value)?;
                    let vt = LLVMTypeOf(v);
                    let s =
                        LLVMBuildSwitch(b, v, fc.blocks[default.0 as usize], cases.len() as u32);
                    for (lit, to) in cases {
                        LLVMAddCase(s, LLVMConstInt(vt, *lit, 0), fc.blocks[to.0 as usize]);
                    }
                }
                Terminator::Return(None) => {
                    LLVMBuildRetVoid(b);
                }
                Terminator::Return(Some(v)) => {
                    let v = self.value(fc, *v)?;
                    LLVMBuildRet(b, v);
                }
                Terminator::Unreachable => {
                    LLVMBuildUnreachable(b);
                }
            }
        }
        Ok(())
    }
}

/// How an error names the instruction: its value name, else what it does.
fn inst_label(inst: &ir::Inst) -> String {
    match (&inst.name, &inst.op) {
        (Some(n), _) => format!("%{n}"),
        (None, Op::Builtin { builtin, .. }) => format!("an unnamed {builtin:?}"),
        (None, op) => {
            let debug = format!("{op:?}");
            let kind = debug.split([' ', '(', '{']).next().unwrap_or("instruction");
            format!("an unnamed {kind}")
        }
    }
}
