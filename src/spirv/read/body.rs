//! Functions, blocks and the LLVM-level instructions. Instructions that become semantic
//! builtins are in `builtins.rs`.

use std::collections::HashMap;

use rspirv::dr::{Instruction, Operand};
use spirv::{Decoration, Op as S, Word};

use super::{id_operand, literal_operand, result_id, result_type, Entity, FunctionInsts, Reader};
use crate::diag::{Error, Result};
use crate::ir::{
    self, BinaryOp, BlockId, CastOp, ConstantKind, FloatPredicate as F, Inst, IntPredicate as I,
    Op, Terminator, Type, Value,
};

/// What a function-local id stands for.
#[derive(Clone, Copy, Debug)]
pub(super) enum Local {
    Value(Value),
    /// A load of a 3-component builtin variable, kept unmaterialized: extracting a component
    /// of it is one work-item call (`get_global_id(i)`).
    BuiltinVector(spirv::BuiltIn, ir::Handle<Type>),
    /// OpSampledImage: the image and the sampler, consumed by the sampling instruction.
    SampledImage(Value, Value),
}

/// A phi awaiting its operands: (value id, predecessor label) pairs.
pub(super) type PendingPhi = (ir::Handle<Inst>, Vec<(Word, Word)>);

pub(super) struct FnState {
    pub params: Vec<ir::Handle<Type>>,
    pub body: ir::Body,
    pub locals: HashMap<Word, Local>,
    pub labels: HashMap<Word, BlockId>,
    pub current: usize,
    /// Phis with their (value id, block label) pairs, resolved once every id is known.
    pub phis: Vec<PendingPhi>,
}

pub(super) fn scalar_width(m: &ir::Module, t: ir::Handle<Type>) -> u32 {
    match m.types[m.scalar_of(t)] {
        Type::Int { width } | Type::Float { width } => width,
        Type::Bool => 1,
        _ => 0,
    }
}

impl Reader {
    pub(super) fn declare_function(&mut self, insts: FunctionInsts) -> Result<()> {
        let (at, def) = &insts[0];
        let id = result_id(def)?;
        let ret = self.type_of(result_type(def)?)?;
        let fn_ty =
            self.type_of(id_operand(def, 1).map_err(|e| e.at_value(format!("word {at}")))?)?;
        let Type::Function { params: ptys, .. } = self.m.types[fn_ty].clone() else {
            return Err(Error::malformed(format!(
                "word {at}: OpFunction %{id} has a non-function type"
            )));
        };
        let mut params = Vec::new();
        for (pat, p) in insts[1..]
            .iter()
            .take_while(|(_, i)| i.class.opcode == S::FunctionParameter)
        {
            let pid = result_id(p)?;
            let ty = self.type_of(result_type(p)?)?;
            if params.len() >= ptys.len() || ptys[params.len()] != ty {
                return Err(Error::malformed(format!(
                    "word {pat}: OpFunctionParameter %{pid} does not match the function type"
                )));
            }
            params.push(ir::Param {
                name: self.name(pid),
                ty,
                attrs: self.param_attrs(pid),
            });
        }
        if params.len() != ptys.len() {
            return Err(Error::malformed(format!(
                "word {at}: function %{id} declares {} parameters, its type has {}",
                params.len(),
                ptys.len()
            )));
        }
        let has_body = insts.iter().any(|(_, i)| i.class.opcode == S::Label);
        let linkage = self.ann.linkage(id);
        let linkage_kind = match (&linkage, has_body) {
            (_, false) => ir::Linkage::Import,
            (Some((_, spirv::LinkageType::Export)), true) => ir::Linkage::Export,
            _ => ir::Linkage::Internal,
        };
        let entry_name = self
            .ann
            .entry_points
            .iter()
            .find(|e| e.function == id)
            .map(|e| e.name.clone());
        let name = entry_name
            .or_else(|| linkage.map(|(n, _)| n))
            .or_else(|| self.name(id))
            .unwrap_or_else(|| format!("__spirv_function_{id}"));
        let h = self.m.functions.append(ir::Function {
            name,
            ret,
            params,
            is_kernel: false,
            linkage: linkage_kind,
            body: None,
        });
        self.ids.insert(id, Entity::Function(h));
        Ok(())
    }

    fn param_attrs(&self, id: Word) -> ir::ParamAttrs {
        use spirv::FunctionParameterAttribute as A;
        let mut a = ir::ParamAttrs::default();
        for ops in self.ann.get(id, Decoration::FuncParamAttr) {
            if let Some(Operand::FunctionParameterAttribute(attr)) = ops.first() {
                match attr {
                    A::Zext => a.zext = true,
                    A::Sext => a.sext = true,
                    A::ByVal => a.byval = true,
                    A::Sret => a.sret = true,
                    A::NoAlias => a.noalias = true,
                    A::NoCapture => a.nocapture = true,
                    A::NoWrite => a.readonly = true,
                    A::NoReadWrite => a.readnone = true,
                    _ => {}
                }
            }
        }
        a
    }

    pub(super) fn define_function(&mut self, insts: FunctionInsts) -> Result<()> {
        let fid = result_id(&insts[0].1)?;
        let Some(Entity::Function(h)) = self.ids.get(&fid).copied() else {
            return Err(Error::internal("function not declared"));
        };
        let fname = self.m.functions[h].name.clone();
        let mut st = FnState {
            params: self.m.functions[h].params.iter().map(|p| p.ty).collect(),
            body: ir::Body::default(),
            locals: HashMap::new(),
            labels: HashMap::new(),
            current: 0,
            phis: Vec::new(),
        };
        let mut n_param = 0;
        for (_, inst) in &insts[1..] {
            match inst.class.opcode {
                S::FunctionParameter => {
                    st.locals
                        .insert(result_id(inst)?, Local::Value(Value::Param(n_param)));
                    n_param += 1;
                }
                S::Label => {
                    let id = result_id(inst)?;
                    st.labels.insert(id, BlockId(st.body.blocks.len() as u32));
                    st.body.blocks.push(ir::Block {
                        name: self.name(id),
                        insts: Vec::new(),
                        terminator: Terminator::Unreachable,
                    });
                }
                _ => {}
            }
        }
        if st.body.blocks.is_empty() {
            return Ok(());
        }
        // Each block's instructions; blocks are lowered in dominator order (reverse post-order
        // of the CFG), so every non-phi use meets its definition first even when the module
        // lists a block before one that dominates it.
        let mut spans: Vec<&[(usize, Instruction)]> = Vec::new();
        let body_insts = &insts[1..];
        let first_label = body_insts
            .iter()
            .position(|(_, i)| i.class.opcode == S::Label)
            .unwrap_or(body_insts.len());
        if let Some((at, inst)) = body_insts[..first_label]
            .iter()
            .find(|(_, i)| i.class.opcode != S::FunctionParameter)
        {
            return Err(Error::malformed(format!(
                "word {at}: Op{:?} before the first OpLabel",
                inst.class.opcode
            ))
            .in_function(&fname));
        }
        let mut start = first_label;
        for i in first_label + 1..=body_insts.len() {
            let at_end = i == body_insts.len()
                || matches!(body_insts[i].1.class.opcode, S::Label | S::FunctionEnd);
            if at_end && start < i && body_insts[start].1.class.opcode == S::Label {
                spans.push(&body_insts[start..i]);
                start = i;
            }
        }
        let successors: Vec<Vec<usize>> = spans
            .iter()
            .map(|span| {
                let Some((_, term)) = span.last() else {
                    return Vec::new();
                };
                let targets: &[usize] = match term.class.opcode {
                    S::Branch => &[0],
                    S::BranchConditional => &[1, 2],
                    S::Switch => &[],
                    _ => return Vec::new(),
                };
                let mut ids: Vec<Word> = targets
                    .iter()
                    .filter_map(|&i| id_operand(term, i).ok())
                    .collect();
                if term.class.opcode == S::Switch {
                    ids.extend(
                        (1..term.operands.len())
                            .step_by(2)
                            .filter_map(|i| id_operand(term, i).ok()),
                    );
                }
                ids.iter()
                    .filter_map(|id| st.labels.get(id).map(|b| b.0 as usize))
                    .collect()
            })
            .collect();
        for bi in ir::cfg::reverse_post_order(spans.len(), |b| successors[b].clone()) {
            st.current = bi;
            for (at, inst) in &spans[bi][1..] {
                if let Err(e) = self.instruction(&mut st, inst) {
                    let bname = st.body.blocks[st.current]
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("block {}", st.current));
                    return Err(super::locate(e, *at, inst.result_id)
                        .in_block(&bname)
                        .in_function(&fname));
                }
            }
        }
        for (ih, incoming) in std::mem::take(&mut st.phis) {
            let mut resolved = Vec::new();
            for (v, l) in incoming {
                let value = self
                    .operand(&mut st, v)
                    .map_err(|e| e.in_function(&fname))?;
                let block = *st.labels.get(&l).ok_or_else(|| {
                    Error::malformed(format!("OpPhi names %{l}, which is not a block"))
                        .in_function(&fname)
                })?;
                resolved.push((value, block));
            }
            st.body.insts[ih].op = Op::Phi { incoming: resolved };
        }
        self.m.functions[h].body = Some(st.body);
        Ok(())
    }

    /// The type of a value of the function being read.
    pub(super) fn value_ty(&self, st: &FnState, v: Value) -> ir::Handle<Type> {
        match v {
            Value::Param(i) => st.params[i as usize],
            Value::Inst(h) => st.body.insts[h].ty,
            Value::Const(c) => self.m.constants[c].ty,
        }
    }

    /// Append an instruction to the current block.
    pub(super) fn push(
        &mut self,
        st: &mut FnState,
        ty: ir::Handle<Type>,
        op: Op,
        name: Option<String>,
    ) -> Value {
        let h = st.body.insts.append(Inst { name, ty, op });
        st.body.blocks[st.current].insts.push(h);
        Value::Inst(h)
    }

    /// The value an id stands for (module-scope constants and globals included).
    pub(super) fn operand(&mut self, st: &mut FnState, id: Word) -> Result<Value> {
        match st.locals.get(&id).copied() {
            Some(Local::Value(v)) => return Ok(v),
            Some(Local::BuiltinVector(b, vt)) => {
                // A use of the whole vector: one call per component.
                let Type::Vector { elem, len } = self.m.types[vt] else {
                    return Err(Error::internal("builtin vector type"));
                };
                let mut acc = Value::Const(self.m.constant(ir::Constant {
                    ty: vt,
                    kind: ConstantKind::Undef,
                }));
                let i32t = self.m.int_type(32);
                for lane in 0..len {
                    let dim = Value::Const(self.m.int_const(i32t, lane as u64));
                    let c = self.push(
                        st,
                        elem,
                        Op::Builtin {
                            builtin: ir::Builtin::WorkItem(b),
                            args: vec![dim],
                        },
                        None,
                    );
                    acc = self.push(
                        st,
                        vt,
                        Op::InsertElement {
                            vector: acc,
                            element: c,
                            index: dim,
                        },
                        None,
                    );
                }
                st.locals.insert(id, Local::Value(acc));
                return Ok(acc);
            }
            Some(Local::SampledImage(..)) => {
                return Err(Error::unsupported(format!(
                    "%{id}: a sampled image used other than by an image sampling instruction"
                )))
            }
            None => {}
        }
        match self.ids.get(&id).copied() {
            Some(Entity::Constant(c)) => Ok(Value::Const(c)),
            Some(Entity::Global(g)) => {
                let ty = self.type_of(self.result_types[&id])?;
                Ok(Value::Const(self.m.constant(ir::Constant {
                    ty,
                    kind: ConstantKind::GlobalAddress(g),
                })))
            }
            Some(other) => Err(Error::malformed(format!(
                "%{id} is used as a value but is {other:?}"
            ))),
            None => Err(Error::malformed(format!(
                "%{id} is not defined before its use"
            ))),
        }
    }

    /// The values of the id operands at `indices`.
    pub(super) fn operands_at(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        indices: impl IntoIterator<Item = usize>,
    ) -> Result<Vec<Value>> {
        indices
            .into_iter()
            .map(|i| {
                let id = id_operand(inst, i)?;
                self.operand(st, id)
            })
            .collect()
    }

    /// The values of the id operands from `from` on.
    fn operands(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        from: usize,
    ) -> Result<Vec<Value>> {
        self.operands_at(st, inst, from..inst.operands.len())
    }

    pub(super) fn define(&mut self, st: &mut FnState, inst: &Instruction, v: Value) -> Result<()> {
        st.locals.insert(result_id(inst)?, Local::Value(v));
        Ok(())
    }

    /// Append `op` and, if the instruction has a result, bind its id to the value.
    pub(super) fn emit(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        op: Op,
        name: Option<String>,
    ) -> Result<()> {
        let v = self.push(st, rty, op, name);
        if inst.result_id.is_some() {
            self.define(st, inst, v)?;
        }
        Ok(())
    }

    fn block_of(st: &FnState, id: Word) -> Result<BlockId> {
        st.labels
            .get(&id)
            .copied()
            .ok_or_else(|| Error::malformed(format!("%{id} is not a block of this function")))
    }

    /// Splat a scalar value to a vector type (insertelement + shufflevector).
    pub(super) fn splat_value(
        &mut self,
        st: &mut FnState,
        v: Value,
        vt: ir::Handle<Type>,
    ) -> Value {
        let len = self.m.lanes(vt);
        let undef = Value::Const(self.m.constant(ir::Constant {
            ty: vt,
            kind: ConstantKind::Undef,
        }));
        let i32t = self.m.int_type(32);
        let zero = Value::Const(self.m.int_const(i32t, 0));
        let one = self.push(
            st,
            vt,
            Op::InsertElement {
                vector: undef,
                element: v,
                index: zero,
            },
            None,
        );
        self.push(
            st,
            vt,
            Op::Shuffle {
                a: one,
                b: undef,
                mask: vec![Some(0); len as usize],
            },
            None,
        )
    }

    /// A constant of `ty` (scalar or vector) with every lane `bits`.
    pub(super) fn splat_const(&mut self, ty: ir::Handle<Type>, bits: u64) -> Value {
        let s = self.m.scalar_of(ty);
        let kind = match self.m.types[s] {
            Type::Float { .. } => ConstantKind::Float(bits),
            _ => ConstantKind::Int(bits),
        };
        let c = self.m.constant(ir::Constant { ty: s, kind });
        if s == ty {
            return Value::Const(c);
        }
        let n = self.m.lanes(ty) as usize;
        Value::Const(self.m.constant(ir::Constant {
            ty,
            kind: ConstantKind::Composite(vec![c; n]),
        }))
    }

    fn instruction(&mut self, st: &mut FnState, inst: &Instruction) -> Result<()> {
        let op = inst.class.opcode;
        let name = inst.result_id.and_then(|id| self.name(id));
        let rty = match inst.result_type {
            Some(t) => self.type_of(t)?,
            None => self.m.void_type(),
        };
        if let Some(b) = binary_op(op) {
            let mut a = self.operands(st, inst, 0)?;
            if matches!(
                op,
                S::ShiftLeftLogical | S::ShiftRightLogical | S::ShiftRightArithmetic
            ) {
                // SPIR-V lets the shift amount have another width; LLVM does not.
                a[1] = self.resize_int(st, a[1], rty)?;
            }
            let flags = self.arith_flags(result_id(inst)?);
            let o = Op::Binary {
                op: b,
                lhs: a[0],
                rhs: a[1],
                flags,
            };
            return self.emit(st, inst, rty, o, name);
        }
        if let Some(pred) = int_predicate(op) {
            let a = self.operands(st, inst, 0)?;
            let o = Op::ICmp {
                pred,
                lhs: a[0],
                rhs: a[1],
            };
            return self.emit(st, inst, rty, o, name);
        }
        if let Some(pred) = float_predicate(op) {
            let a = self.operands(st, inst, 0)?;
            let o = Op::FCmp {
                pred,
                lhs: a[0],
                rhs: a[1],
            };
            return self.emit(st, inst, rty, o, name);
        }
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
                let ones = self.splat_const(rty, u64::MAX >> (64 - scalar_width(&self.m, rty)));
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
                let a = self.operands(st, inst, 0)?;
                let o = Op::Select {
                    cond: a[0],
                    on_true: a[1],
                    on_false: a[2],
                };
                self.emit(st, inst, rty, o, name)?;
            }
            S::Variable => {
                let Type::Pointer { pointee, .. } = self.m.types[rty] else {
                    return Err(Error::malformed("OpVariable whose type is not a pointer"));
                };
                let id = result_id(inst)?;
                let v = self.push(
                    st,
                    rty,
                    Op::Alloca {
                        allocated: pointee,
                        align: self.ann.literal(id, Decoration::Alignment),
                    },
                    name,
                );
                self.define(st, inst, v)?;
                if let Some(Operand::IdRef(init)) = inst.operands.get(1) {
                    let value = self.operand(st, *init)?;
                    let void = self.m.void_type();
                    self.push(
                        st,
                        void,
                        Op::Store {
                            ptr: v,
                            value,
                            align: None,
                            volatile: false,
                        },
                        None,
                    );
                }
            }
            S::Load => self.load(st, inst, rty, name)?,
            S::Store => {
                let ptr_id = id_operand(inst, 0)?;
                let ptr = self.operand(st, ptr_id)?;
                let value = self.operand(st, id_operand(inst, 1)?)?;
                let (align, volatile) = self.memory_access(inst, 2, ptr_id);
                let void = self.m.void_type();
                self.push(
                    st,
                    void,
                    Op::Store {
                        ptr,
                        value,
                        align,
                        volatile,
                    },
                    None,
                );
            }
            S::CopyMemory | S::CopyMemorySized => {
                let dst_id = id_operand(inst, 0)?;
                let dst = self.operand(st, dst_id)?;
                let src = self.operand(st, id_operand(inst, 1)?)?;
                let (size, access_at) = if op == S::CopyMemorySized {
                    (self.operand(st, id_operand(inst, 2)?)?, 3)
                } else {
                    let pointee = self
                        .m
                        .pointee(self.value_ty(st, dst))
                        .ok_or_else(|| Error::malformed("OpCopyMemory of a non-pointer"))?;
                    let bytes = self.m.size_of(pointee);
                    let st_ty = self.m.size_type();
                    (Value::Const(self.m.int_const(st_ty, bytes)), 2)
                };
                let (align, volatile) = self.memory_access(inst, access_at, dst_id);
                let void = self.m.void_type();
                self.push(
                    st,
                    void,
                    Op::CopyMemory {
                        dst,
                        src,
                        size,
                        align,
                        volatile,
                    },
                    None,
                );
            }
            S::AccessChain
            | S::InBoundsAccessChain
            | S::PtrAccessChain
            | S::InBoundsPtrAccessChain => {
                let base = self.operand(st, id_operand(inst, 0)?)?;
                let mut indices = self.operands(st, inst, 1)?;
                if matches!(op, S::AccessChain | S::InBoundsAccessChain) {
                    let i32t = self.m.int_type(32);
                    indices.insert(0, Value::Const(self.m.int_const(i32t, 0)));
                }
                self.emit(
                    st,
                    inst,
                    rty,
                    Op::Gep {
                        inbounds: matches!(op, S::InBoundsAccessChain | S::InBoundsPtrAccessChain),
                        base,
                        indices,
                    },
                    name,
                )?;
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
            S::VectorShuffle => {
                let a = self.operand(st, id_operand(inst, 0)?)?;
                let b = self.operand(st, id_operand(inst, 1)?)?;
                let mask = (2..inst.operands.len())
                    .map(|i| literal_operand(inst, i).map(|l| (l != u32::MAX).then_some(l)))
                    .collect::<Result<Vec<_>>>()?;
                self.emit(st, inst, rty, Op::Shuffle { a, b, mask }, name)?;
            }
            S::VectorExtractDynamic => {
                let vid = id_operand(inst, 0)?;
                if let Some(Local::BuiltinVector(b, _)) = st.locals.get(&vid).copied() {
                    let idx = self.operand(st, id_operand(inst, 1)?)?;
                    let i32t = self.m.int_type(32);
                    let idx = self.resize_int(st, idx, i32t)?;
                    return self.emit(
                        st,
                        inst,
                        rty,
                        Op::Builtin {
                            builtin: ir::Builtin::WorkItem(b),
                            args: vec![idx],
                        },
                        name,
                    );
                }
                let a = self.operands(st, inst, 0)?;
                self.emit(
                    st,
                    inst,
                    rty,
                    Op::ExtractElement {
                        vector: a[0],
                        index: a[1],
                    },
                    name,
                )?;
            }
            S::VectorInsertDynamic => {
                let a = self.operands(st, inst, 0)?;
                self.emit(
                    st,
                    inst,
                    rty,
                    Op::InsertElement {
                        vector: a[0],
                        element: a[1],
                        index: a[2],
                    },
                    name,
                )?;
            }
            S::CompositeExtract => self.composite_extract(st, inst, rty, name)?,
            S::CompositeInsert => {
                let element = self.operand(st, id_operand(inst, 0)?)?;
                let aggregate = self.operand(st, id_operand(inst, 1)?)?;
                let indices = (2..inst.operands.len())
                    .map(|i| literal_operand(inst, i))
                    .collect::<Result<Vec<_>>>()?;
                let o = if matches!(self.m.types[rty], Type::Vector { .. }) {
                    let i32t = self.m.int_type(32);
                    Op::InsertElement {
                        vector: aggregate,
                        element,
                        index: Value::Const(self.m.int_const(i32t, indices[0] as u64)),
                    }
                } else {
                    Op::InsertValue {
                        aggregate,
                        element,
                        indices,
                    }
                };
                self.emit(st, inst, rty, o, name)?;
            }
            S::CompositeConstruct => self.composite_construct(st, inst, rty, name)?,
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
                                "OpSwitch case literal {other:?}"
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
            _ => self.builtin_instruction(st, inst, rty, name)?,
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

    fn arith_flags(&self, id: Word) -> ir::ArithFlags {
        ir::ArithFlags {
            nsw: self.ann.has(id, Decoration::NoSignedWrap),
            nuw: self.ann.has(id, Decoration::NoUnsignedWrap),
            exact: false,
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
        let i32t = self.m.int_type(32);
        if let Some(Local::BuiltinVector(b, _)) = st.locals.get(&cid).copied() {
            let dim = Value::Const(self.m.int_const(i32t, indices[0] as u64));
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
        let c = self.operand(st, cid)?;
        let o = if matches!(self.m.types[self.value_ty(st, c)], Type::Vector { .. }) {
            let index = Value::Const(self.m.int_const(i32t, indices[0] as u64));
            Op::ExtractElement { vector: c, index }
        } else {
            Op::ExtractValue {
                aggregate: c,
                indices,
            }
        };
        self.emit(st, inst, rty, o, name)
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
        use ir::{ConvertKind as K, Sign};
        let op = inst.class.opcode;
        let id = result_id(inst)?;
        let value = self.operand(st, id_operand(inst, 0)?)?;
        let from_t = self.value_ty(st, value);
        let (fw, tw) = (scalar_width(&self.m, from_t), scalar_width(&self.m, rty));
        let saturate = self.ann.has(id, Decoration::SaturatedConversion)
            || matches!(op, S::SatConvertSToU | S::SatConvertUToS);
        let rounding = self
            .ann
            .get(id, Decoration::FPRoundingMode)
            .find_map(|ops| match ops.first() {
                Some(Operand::FPRoundingMode(r)) => Some(*r),
                _ => None,
            });
        let kinds = match op {
            S::UConvert => Some((K::Int(Sign::Unsigned), K::Int(Sign::Unsigned))),
            S::SConvert => Some((K::Int(Sign::Signed), K::Int(Sign::Signed))),
            S::FConvert => Some((K::Float, K::Float)),
            S::ConvertFToU => Some((K::Float, K::Int(Sign::Unsigned))),
            S::ConvertFToS => Some((K::Float, K::Int(Sign::Signed))),
            S::ConvertSToF => Some((K::Int(Sign::Signed), K::Float)),
            S::ConvertUToF => Some((K::Int(Sign::Unsigned), K::Float)),
            S::SatConvertSToU => Some((K::Int(Sign::Signed), K::Int(Sign::Unsigned))),
            S::SatConvertUToS => Some((K::Int(Sign::Unsigned), K::Int(Sign::Signed))),
            _ => None,
        };
        let o = match kinds {
            Some((from, to)) if saturate || rounding.is_some() => Op::Builtin {
                builtin: ir::Builtin::Convert {
                    from,
                    to,
                    saturate,
                    rounding,
                },
                args: vec![value],
            },
            _ => {
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

fn float_predicate(op: S) -> Option<F> {
    Some(match op {
        S::FOrdEqual => F::Oeq,
        S::FOrdNotEqual => F::One,
        S::FOrdLessThan => F::Olt,
        S::FOrdGreaterThan => F::Ogt,
        S::FOrdLessThanEqual => F::Ole,
        S::FOrdGreaterThanEqual => F::Oge,
        S::FUnordEqual => F::Ueq,
        S::FUnordNotEqual => F::Une,
        S::FUnordLessThan => F::Ult,
        S::FUnordGreaterThan => F::Ugt,
        S::FUnordLessThanEqual => F::Ule,
        S::FUnordGreaterThanEqual => F::Uge,
        S::Ordered => F::Ord,
        S::Unordered => F::Uno,
        _ => return None,
    })
}
