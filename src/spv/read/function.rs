//! Functions: declarations, parameters, blocks lowered in dominator order, and the value
//! plumbing every instruction uses (operand lookup, appending, binding results, splats).

use crate::hash::{HashMap, HashSet};

use rspirv::dr::{Instruction, Operand};
use spirv::{Decoration, Op as S, Word};

use super::{id_operand, result_id, result_type, Entity, FunctionInsts, Reader};
use crate::diag::{Error, Result};
use crate::ir::{self, BlockId, ConstantKind, Inst, Op, Terminator, Type, Value};

#[derive(Clone, Copy, Debug)]
pub(super) enum Local {
    Value(Value),
    /// A load of a 3-component builtin variable, kept unmaterialized: extracting a component
    /// of it is one work-item call (`get_global_id(i)`).
    BuiltinVector(spirv::BuiltIn, ir::Handle<Type>),
    /// OpSampledImage: the image and the sampler, consumed by the sampling instruction.
    SampledImage(Value, Value),
    /// A depth image's texel read or sampled as a 4-vector (SPIR-V's sampling result is a
    /// vector whatever the image): the graph's scalar texel, which extracting component 0
    /// gives; any other use sees a vector whose first component it is.
    DepthTexel(Value, ir::Handle<Type>),
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
    /// Casts that only feed memory copies (memory_casts.rs).
    pub memory_casts: HashSet<Word>,
    /// Instructions a normal form read through (`Module::extension_test`, a repeated select
    /// condition), dropped if unused.
    pub looked_through: Vec<ir::Handle<ir::Inst>>,
    /// Vectors that repeat one id (splats.rs), with the id.
    pub repeated: HashMap<Word, Word>,
    /// The source position in the block being read (`debug.rs`), and the location of the
    /// instruction being read, which every graph instruction made for it carries.
    pub pos: Position,
    pub loc: Option<ir::Handle<ir::Location>>,
    /// The fast-math relaxations of the float operations of each type that have no
    /// FPFastMathMode of their own: the entry point's FPFastMathDefault modes
    /// (SPV_KHR_float_controls2), read for the entry point's own body. The functions it
    /// calls are read strict: they may serve entry points of other defaults.
    pub fast_math_defaults: Vec<(ir::Handle<Type>, ir::FastMath)>,
}

/// Where the instructions being read come from, in the block being read.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Position {
    pub scope: Option<(
        ir::Handle<ir::debug::Scope>,
        Option<ir::Handle<ir::Location>>,
    )>,
    pub line: Option<(ir::Handle<ir::debug::SourceFile>, u32, u32)>,
    /// The location of both, made when first asked.
    pub loc: Option<ir::Handle<ir::Location>>,
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
            let mut attrs = self.param_attrs(pid, ty);
            // LLVM allows one sret, on the first or second parameter (the result's memory).
            // Not with byval either, nor on a kernel (its calling convention has no result).
            let kernel = self.ann.entry_points.iter().any(|e| e.function == id);
            attrs.sret &= params.len() < 2
                && !params.iter().any(|p: &ir::Param| p.attrs.sret)
                && !attrs.byval
                && !kernel;
            params.push(ir::Param {
                name: self.name(pid),
                ty,
                attrs,
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

    /// The attributes of parameter `id` of type `ty`. An attribute that says nothing about a
    /// parameter of that type (Sext on a pointer, NoAlias on an integer) is dropped: LLVM
    /// refuses it, and SPIR-V gives it no meaning.
    fn param_attrs(&self, id: Word, ty: ir::Handle<Type>) -> ir::ParamAttrs {
        ir::ParamAttrs {
            // SPIR-V's OpenCL environment has no attribute for it.
            writeonly: false,
            // LLVM takes an alignment up to 2^29 (`align` past it is refused by its verifier).
            align: self
                .ann
                .literal(id, Decoration::Alignment)
                .filter(|n| *n <= 1 << 29),
            ..self.decorated_param_attrs(id)
        }
        .applicable_to(&self.m.types[ty])
    }

    fn decorated_param_attrs(&self, id: Word) -> ir::ParamAttrs {
        use spirv::FunctionParameterAttribute as A;
        let mut a = ir::ParamAttrs {
            // A Restrict pointer is the only way to what it points to: LLVM's noalias.
            noalias: self.ann.has(id, Decoration::Restrict),
            ..Default::default()
        };
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
            locals: HashMap::default(),
            labels: HashMap::default(),
            current: 0,
            phis: Vec::new(),
            memory_casts: super::memory_casts::memory_casts(insts),
            looked_through: Vec::new(),
            repeated: super::splats::repeated(insts),
            pos: Default::default(),
            loc: None,
            fast_math_defaults: self.fast_math_defaults(fid)?,
        };
        let mut n_param = 0;
        for (at, inst) in &insts[1..] {
            match inst.class.opcode {
                // Parameters come first (declare_function counted them against the type).
                S::FunctionParameter if st.body.blocks.is_empty() => {
                    st.locals
                        .insert(result_id(inst)?, Local::Value(Value::Param(n_param)));
                    n_param += 1;
                }
                S::FunctionParameter => {
                    return Err(Error::malformed(format!(
                        "word {at}: OpFunctionParameter inside the function body"
                    )))
                }
                S::Label => {
                    let id = result_id(inst)?;
                    st.labels.insert(id, BlockId(st.body.blocks.len() as u32));
                    st.body.blocks.push(ir::Block {
                        terminator_loc: None,
                        name: self.name(id),
                        insts: Vec::new(),
                        terminator: Terminator::Unreachable,
                        construct: None,
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
        let successors = block_successors(&spans, &st.labels);
        for bi in ir::cfg::reverse_post_order(spans.len(), |b| successors[b].clone()) {
            st.current = bi;
            // Lines and scopes end with their block.
            st.pos = Default::default();
            for (at, inst) in &spans[bi][1..] {
                if self.debug_body_inst(&mut st, h, inst) {
                    continue;
                }
                st.loc = self.debug_loc(&mut st, h);
                if super::parse::is_terminator(inst.class.opcode) {
                    st.body.blocks[st.current].terminator_loc = st.loc;
                }
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
        self.resolve_phis(&mut st, &fname)?;
        crate::normal::drop_unused(&mut st.body, &st.looked_through);
        st.body.merge_forwarders();
        self.m.functions[h].body = Some(st.body);
        Ok(())
    }

    /// Each phi's (value, block) pairs, once every id of the function is known: one entry per
    /// edge, as the graph has them.
    fn resolve_phis(&mut self, st: &mut FnState, fname: &str) -> Result<()> {
        let block_of: HashMap<ir::Handle<Inst>, usize> = st
            .body
            .blocks
            .iter()
            .enumerate()
            .flat_map(|(b, blk)| blk.insts.iter().map(move |&i| (i, b)))
            .collect();
        for (ih, incoming) in std::mem::take(&mut st.phis) {
            let mut resolved = Vec::new();
            let here = block_of.get(&ih).copied();
            for (v, l) in incoming {
                let value = self.operand(st, v).map_err(|e| e.in_function(fname))?;
                let block = *st.labels.get(&l).ok_or_else(|| {
                    Error::malformed(format!("OpPhi names %{l}, which is not a block"))
                        .in_function(fname)
                })?;
                // SPIR-V names a parent once; the graph has one entry per edge (a
                // conditional branch with both arms to this block is two). A parent named
                // again with the same value (llvm-spirv-14 writes LLVM's one entry per edge)
                // is that same parent.
                if let Some(&(earlier, _)) = resolved.iter().find(|(_, b)| *b == block) {
                    if earlier != value {
                        return Err(Error::malformed(format!(
                            "OpPhi names block %{l} twice with different values"
                        ))
                        .in_function(fname));
                    }
                    continue;
                }
                let edges = here.map_or(1, |t| {
                    st.body.blocks[block.0 as usize]
                        .terminator
                        .successors()
                        .iter()
                        .filter(|&&s| s == t)
                        .count()
                });
                for _ in 0..edges.max(1) {
                    resolved.push((value, block));
                }
            }
            st.body.insts[ih].op = Op::Phi { incoming: resolved };
        }
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
        let h = st.body.insts.append(Inst {
            loc: st.loc,
            name,
            ty,
            op,
        });
        st.body.blocks[st.current].insts.push(h);
        Value::Inst(h)
    }

    /// The value an id stands for (module-scope constants and globals included).
    pub(super) fn operand(&mut self, st: &mut FnState, id: Word) -> Result<Value> {
        match st.locals.get(&id).copied() {
            Some(Local::Value(v)) => return Ok(v),
            Some(Local::DepthTexel(v, vt)) => {
                let undef = Value::Const(self.m.constant(ir::Constant {
                    ty: vt,
                    kind: ConstantKind::Undef,
                }));
                let i32t = self.m.int_type(32);
                let index = Value::Const(self.m.int_const(i32t, 0));
                let op = Op::InsertElement {
                    vector: undef,
                    element: v,
                    index,
                };
                return Ok(self.push(st, vt, op, None));
            }
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
            // A function as an operand: the invoke kernel of OpEnqueueKernel and OpGetKernel*
            // (the only instructions whose operands name a function; `builtin_instruction`
            // takes no others).
            Some(Entity::Function(f)) => {
                let func = &self.m.functions[f];
                let params = func.params.iter().map(|p| p.ty).collect();
                let fn_ty = self.m.ty(Type::Function {
                    ret: func.ret,
                    params,
                    varargs: false,
                });
                let ty = self.m.ty(Type::Pointer {
                    pointee: fn_ty,
                    space: ir::AddressSpace::Private,
                });
                Ok(Value::Const(self.m.constant(ir::Constant {
                    ty,
                    kind: ConstantKind::FunctionAddress(f),
                })))
            }
            Some(other) => Err(Error::malformed(format!(
                "%{id} is used as a value but is {}",
                other.words()
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
    pub(super) fn operands(
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
        // Vector element operations on constants are constants (as LLVM folds them).
        if let (Some(c), Some(_)) = (self.m.fold(rty, &op), inst.result_id) {
            return self.define(st, inst, Value::Const(c));
        }
        let v = self.push(st, rty, op, name);
        if inst.result_id.is_some() {
            self.define(st, inst, v)?;
        }
        Ok(())
    }

    pub(super) fn block_of(st: &FnState, id: Word) -> Result<BlockId> {
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
}

/// Each block's successors (by index), from its terminator's label operands.
fn block_successors(
    spans: &[&[(usize, Instruction)]],
    labels: &HashMap<Word, BlockId>,
) -> Vec<Vec<usize>> {
    spans
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
                .filter_map(|id| labels.get(id).map(|b| b.0 as usize))
                .collect()
        })
        .collect()
}

impl Reader {
    /// The FPFastMathDefault modes of entry point `fid` (none for another function): each
    /// names a float type and a constant of FPFastMathMode bits.
    fn fast_math_defaults(&self, fid: Word) -> Result<Vec<(ir::Handle<Type>, ir::FastMath)>> {
        let mut defaults = Vec::new();
        for (mode, ids) in self.ann.modes.get(&fid).into_iter().flatten() {
            if *mode != spirv::ExecutionMode::FPFastMathDefault {
                continue;
            }
            let [ty, bits] = ids[..] else {
                return Err(Error::malformed(
                    "FPFastMathDefault without a type and a mode",
                ));
            };
            let mode = spirv::FPFastMathMode::from_bits_truncate(self.int_constant(bits)? as u32);
            defaults.push((self.type_of(ty)?, crate::spv::fast_math::fast_of(mode)));
        }
        Ok(defaults)
    }
}
