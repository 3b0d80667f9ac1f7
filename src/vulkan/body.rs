//! Building an entry function's body in shader form: every call inlined, phis turned into
//! Function variables (stored at the end of each predecessor, loaded at the top of the
//! block: the structurizer may then add blocks and edges freely), and each instruction
//! copied with its types moved to Vulkan's storage classes (`types`).
//!
//! Pointer types follow their values, not their declarations: a `getelementptr` into a
//! program-scope table points to Private memory, one into a kernel argument to a physical
//! storage buffer, though OpenCL calls both `__constant`. Logical pointers (Function,
//! Workgroup, Private memory) cannot be cast, stored, selected or stepped over the object
//! they point into; such a construct is refused, naming it.

use std::collections::HashMap;

use crate::diag::{Error, Result};
use crate::ir::{
    self, AddressSpace, BlockId, CastOp, Constant, ConstantKind, FloatPredicate, Handle, Inst, Op,
    Terminator, Type, Value,
};

use super::types::Lowerer;

/// What the work-item lowering needs of the kernel being built.
#[derive(Clone, Copy, Debug)]
pub(super) struct KernelCtx {
    /// The push-constant block and the member holding the global offset.
    pub push_constants: Option<Handle<ir::Global>>,
    pub global_offset_member: Option<u32>,
}

/// One inlined copy of a function: its arguments and the values its instructions became.
struct Frame {
    args: Vec<Value>,
    vals: HashMap<Handle<Inst>, Value>,
    phi_slots: HashMap<Handle<Inst>, Value>,
    /// Pointer variables stored once (`forwarded`): the store's value, once made.
    forwarded: HashMap<Handle<Inst>, Option<Value>>,
    /// Pointer casts only `memcpy` and `memset` use (`byte_views`): the pointer itself.
    byte_views: std::collections::HashSet<Handle<Inst>>,
}

/// Pointer casts whose every use is as the destination or source of a `memcpy` or
/// `memset` (what LLVM makes of a struct copy or a zeroed array: `(i8*)&s`). The copy works
/// on the pointer's own type, so the cast needs no value of its own.
fn byte_views(body: &ir::Body) -> std::collections::HashSet<Handle<Inst>> {
    let casts: std::collections::HashSet<Handle<Inst>> = body
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter().copied())
        .filter(|&h| {
            matches!(
                body.insts[h].op,
                Op::Cast {
                    op: CastOp::Bitcast,
                    ..
                }
            )
        })
        .collect();
    let mut other_use: std::collections::HashSet<Handle<Inst>> = Default::default();
    for b in &body.blocks {
        for &ih in &b.insts {
            match &body.insts[ih].op {
                Op::CopyMemory { dst, src, size, .. } => {
                    for v in [size] {
                        if let Value::Inst(x) = v {
                            other_use.insert(*x);
                        }
                    }
                    let _ = (dst, src);
                }
                Op::FillMemory { byte, size, .. } => {
                    for v in [byte, size] {
                        if let Value::Inst(x) = v {
                            other_use.insert(*x);
                        }
                    }
                }
                op => ir::verify::for_each_operand(op, |v| {
                    if let Value::Inst(x) = v {
                        other_use.insert(x);
                    }
                }),
            }
        }
        ir::verify::terminator_operands(&b.terminator, |v| {
            if let Value::Inst(x) = v {
                other_use.insert(x);
            }
        });
    }
    casts
        .into_iter()
        .filter(|h| !other_use.contains(h))
        .collect()
}

/// Variables holding a pointer that are stored exactly once, by a store that dominates every
/// load of them, and used for nothing else: what -O0 code makes of every pointer parameter
/// (`p.addr`). Their loads are the stored value, so the pointer never sits in memory (a
/// shader cannot keep a pointer to private or local memory in a variable).
fn single_store_pointers(m: &ir::Module, body: &ir::Body) -> HashMap<Handle<Inst>, Handle<Inst>> {
    // Per variable: its stores as (block, position, store) and its loads as (block, position).
    type Places = Vec<(usize, usize, Handle<Inst>)>;
    let mut stores: HashMap<Handle<Inst>, Places> = HashMap::new();
    let mut loads: HashMap<Handle<Inst>, Vec<(usize, usize)>> = HashMap::new();
    let mut escaped: std::collections::HashSet<Handle<Inst>> = Default::default();
    let is_candidate = |h: Handle<Inst>| {
        matches!(&body.insts[h].op, Op::Alloca { allocated, .. }
            if matches!(m.types[*allocated], Type::Pointer { .. }))
    };
    for (b, block) in body.blocks.iter().enumerate() {
        for (pos, &ih) in block.insts.iter().enumerate() {
            match &body.insts[ih].op {
                Op::Store {
                    ptr: Value::Inst(a),
                    value,
                    ..
                } if is_candidate(*a) => {
                    stores.entry(*a).or_default().push((b, pos, ih));
                    if let Value::Inst(v) = value {
                        escaped.insert(*v);
                    }
                }
                Op::Load {
                    ptr: Value::Inst(a),
                    ..
                } if is_candidate(*a) => loads.entry(*a).or_default().push((b, pos)),
                op => ir::verify::for_each_operand(op, |v| {
                    if let Value::Inst(x) = v {
                        escaped.insert(x);
                    }
                }),
            }
        }
        ir::verify::terminator_operands(&block.terminator, |v| {
            if let Value::Inst(x) = v {
                escaped.insert(x);
            }
        });
    }
    let succ: Vec<Vec<usize>> = body
        .blocks
        .iter()
        .map(|b| b.terminator.successors())
        .collect();
    let idom = ir::cfg::dominators(&succ, 0);
    stores
        .into_iter()
        .filter(|(a, s)| s.len() == 1 && !escaped.contains(a))
        .filter(|(a, s)| {
            let (sb, spos, _) = s[0];
            loads.get(a).is_none_or(|ls| {
                ls.iter().all(|&(lb, lpos)| {
                    if lb == sb {
                        lpos > spos
                    } else {
                        idom[lb].is_some() && ir::cfg::dominates(&idom, sb, lb)
                    }
                })
            })
        })
        .map(|(a, s)| (a, s[0].2))
        .collect()
}

pub(super) struct FnBuilder<'l, 'a> {
    pub l: &'l mut Lowerer<'a>,
    pub body: ir::Body,
    pub cur: usize,
    pub kctx: KernelCtx,
    depth: u32,
    void_t: Handle<Type>,
}

/// Calls nested deeper than this are taken for recursion (which OpenCL C forbids).
const MAX_INLINE_DEPTH: u32 = 64;

impl<'l, 'a> FnBuilder<'l, 'a> {
    pub fn new(l: &'l mut Lowerer<'a>, kctx: KernelCtx) -> Self {
        let void_t = l.out.void_type();
        let mut b = FnBuilder {
            l,
            body: ir::Body::default(),
            cur: 0,
            kctx,
            depth: 0,
            void_t,
        };
        b.cur = b.new_block(Some("entry".into()));
        b
    }

    pub fn new_block(&mut self, name: Option<String>) -> usize {
        self.body.blocks.push(ir::Block {
            name,
            insts: Vec::new(),
            terminator: Terminator::Unreachable,
            construct: None,
        });
        self.body.blocks.len() - 1
    }

    /// Append an instruction to the current block; its value (meaningless for void ones).
    pub fn push(&mut self, ty: Handle<Type>, op: Op) -> Value {
        let h = self.body.insts.append(Inst { name: None, ty, op });
        self.body.blocks[self.cur].insts.push(h);
        Value::Inst(h)
    }

    pub fn terminate(&mut self, t: Terminator) {
        self.body.blocks[self.cur].terminator = t;
    }

    pub fn void(&mut self) -> Handle<Type> {
        self.l.out.void_type()
    }

    /// The shader-form type of a value of the body being built.
    pub fn ty_of(&self, v: Value) -> Handle<Type> {
        match v {
            Value::Inst(h) => self.body.insts[h].ty,
            Value::Const(c) => self.l.out.constants[c].ty,
            Value::Param(_) => self.void_t,
        }
    }

    pub fn int_const(&mut self, width: u32, v: u64) -> Value {
        let t = self.l.out.int_type(width);
        Value::Const(self.l.out.int_const(t, v))
    }

    pub fn is_zero(&self, v: Value) -> bool {
        matches!(v, Value::Const(c) if matches!(self.l.out.constants[c].kind, ConstantKind::Int(0) | ConstantKind::Null))
    }

    fn space_of(&self, ptr: Value) -> Option<AddressSpace> {
        match self.l.out.types[self.ty_of(ptr)] {
            Type::Pointer { space, .. } => Some(space),
            _ => None,
        }
    }

    /// Inline function `func` with `args` at the end of the current block; the current
    /// block afterwards is where the call returns to. The kernel itself is "inlined" at
    /// depth 0, where its returns stay returns.
    pub fn inline(
        &mut self,
        func: Handle<ir::Function>,
        args: Vec<Value>,
    ) -> Result<Option<Value>> {
        let src = self.l.src;
        let f = &src.functions[func];
        let body = f.body.as_ref().ok_or_else(|| {
            Error::unsupported(format!(
                "a call to `{}`, which the module declares but does not define",
                f.name
            ))
        })?;
        if self.depth > MAX_INLINE_DEPTH {
            return Err(Error::unsupported(format!(
                "calls nested more than {MAX_INLINE_DEPTH} deep through `{}` (recursion?)",
                f.name
            )));
        }
        let entry_level = self.depth == 0;
        self.depth += 1;
        let r = self.inline_body(f, body, args, entry_level);
        self.depth -= 1;
        r.map_err(|e| {
            if entry_level {
                e
            } else {
                e.in_function(&f.name)
            }
        })
    }

    fn inline_body(
        &mut self,
        f: &ir::Function,
        body: &ir::Body,
        args: Vec<Value>,
        entry_level: bool,
    ) -> Result<Option<Value>> {
        let n = body.blocks.len();
        let succ = |b: usize| body.blocks[b].terminator.successors();
        let reachable = ir::cfg::reachable(n, succ);
        let order: Vec<usize> = ir::cfg::reverse_post_order(n, succ)
            .into_iter()
            .filter(|&b| reachable[b])
            .collect();
        let mut frame = Frame {
            args,
            vals: HashMap::new(),
            phi_slots: HashMap::new(),
            forwarded: single_store_pointers(self.l.src, body)
                .into_keys()
                .map(|a| (a, None))
                .collect(),
            byte_views: byte_views(body),
        };
        // Where the callee returns to, and the variable its result goes through.
        let (cont, ret_slot) = if entry_level {
            (None, None)
        } else {
            let cont = self.new_block(None);
            let slot = match self.l.src.types[f.ret] {
                Type::Void => None,
                _ => {
                    let t = self.l.ty(f.ret)?;
                    Some(self.alloca(t))
                }
            };
            (Some(cont), slot)
        };
        let mut first = HashMap::new();
        for &b in &order {
            let nb = self.new_block(body.blocks[b].name.clone());
            first.insert(b, nb);
        }
        for &b in &order {
            for &ih in &body.blocks[b].insts {
                if let Op::Phi { .. } = body.insts[ih].op {
                    let t = self.l.ty(body.insts[ih].ty)?;
                    self.check_storable(t, "a phi")?;
                    let slot = self.alloca(t);
                    frame.phi_slots.insert(ih, slot);
                }
            }
        }
        self.terminate(Terminator::Branch(BlockId(first[&0] as u32)));
        for &b in &order {
            self.cur = first[&b];
            let block = &body.blocks[b];
            for &ih in &block.insts {
                let inst = &body.insts[ih];
                let r = match &inst.op {
                    Op::Phi { .. } => {
                        let slot = frame.phi_slots[&ih];
                        Some(self.load(slot, None, false)?)
                    }
                    _ => self.inst(&mut frame, ih, inst).map_err(|e| {
                        e.in_block(block.name.as_deref().unwrap_or(&format!("{b}")))
                            .at_value(
                                inst.name
                                    .as_ref()
                                    .map(|n| format!("%{n}"))
                                    .unwrap_or_else(|| format!("instruction {}", ih.index())),
                            )
                    })?,
                };
                if let Some(v) = r {
                    frame.vals.insert(ih, v);
                }
            }
            // Each successor's phis take this predecessor's values.
            let mut seen = Vec::new();
            for s in block.terminator.successors() {
                if seen.contains(&s) {
                    continue;
                }
                seen.push(s);
                for &ih in &body.blocks[s].insts {
                    let Op::Phi { incoming } = &body.insts[ih].op else {
                        continue;
                    };
                    if let Some(&(v, _)) = incoming.iter().find(|(_, p)| p.0 as usize == b) {
                        let v = self.value(&mut frame, v)?;
                        let slot = frame.phi_slots[&ih];
                        self.store(slot, v, None, false)?;
                    }
                }
            }
            let to = |x: &BlockId| BlockId(first[&(x.0 as usize)] as u32);
            let t = match &block.terminator {
                Terminator::Branch(x) => Terminator::Branch(to(x)),
                Terminator::CondBranch {
                    cond,
                    on_true,
                    on_false,
                } => Terminator::CondBranch {
                    cond: self.value(&mut frame, *cond)?,
                    on_true: to(on_true),
                    on_false: to(on_false),
                },
                Terminator::Switch {
                    value,
                    default,
                    cases,
                } => Terminator::Switch {
                    value: self.value(&mut frame, *value)?,
                    default: to(default),
                    cases: cases.iter().map(|(c, x)| (*c, to(x))).collect(),
                },
                Terminator::Return(v) => match cont {
                    None => Terminator::Return(None),
                    Some(cont) => {
                        if let (Some(v), Some(slot)) = (v, ret_slot) {
                            let v = self.value(&mut frame, *v)?;
                            self.store(slot, v, None, false)?;
                        }
                        Terminator::Branch(BlockId(cont as u32))
                    }
                },
                Terminator::Unreachable => Terminator::Unreachable,
            };
            self.terminate(t);
        }
        match cont {
            Some(cont) => {
                self.cur = cont;
                match ret_slot {
                    Some(slot) => self.load(slot, None, false).map(Some),
                    None => Ok(None),
                }
            }
            None => Ok(None),
        }
    }

    /// A Function variable of type `t` (the writer puts every one in the entry block).
    pub fn alloca(&mut self, t: Handle<Type>) -> Value {
        let pt = self.l.out.ty(Type::Pointer {
            pointee: t,
            space: AddressSpace::Private,
        });
        self.push(
            pt,
            Op::Alloca {
                allocated: t,
                align: None,
            },
        )
    }

    /// Refuse keeping `t` in a variable when it holds a logical pointer.
    fn check_storable(&self, t: Handle<Type>, what: &str) -> Result<()> {
        if self.holds_logical_pointer(t, &mut Vec::new()) {
            return Err(Error::unsupported(format!(
                "{what} of a pointer to private or local memory: a Vulkan shader cannot keep \
                 such a (logical) pointer in a variable"
            )));
        }
        Ok(())
    }

    fn holds_logical_pointer(&self, t: Handle<Type>, seen: &mut Vec<Handle<Type>>) -> bool {
        if seen.contains(&t) {
            return false;
        }
        seen.push(t);
        match &self.l.out.types[t] {
            Type::Pointer { space, .. } => *space != AddressSpace::PhysicalStorageBuffer,
            Type::Array { elem, .. } | Type::Vector { elem, .. } => {
                self.holds_logical_pointer(*elem, seen)
            }
            Type::Struct {
                members: Some(ms), ..
            } => ms.iter().any(|&m| self.holds_logical_pointer(m, seen)),
            _ => false,
        }
    }

    /// The shader-form value of an operand of the function being inlined.
    fn value(&mut self, frame: &mut Frame, v: Value) -> Result<Value> {
        match v {
            Value::Param(i) => frame
                .args
                .get(i as usize)
                .copied()
                .ok_or_else(|| Error::internal("a parameter beyond the call's arguments")),
            Value::Inst(h) => frame
                .vals
                .get(&h)
                .copied()
                .ok_or_else(|| Error::internal("an operand used before its definition")),
            Value::Const(c) => self.constant(c),
        }
    }

    /// A constant operand; address expressions become instructions here.
    fn constant(&mut self, c: Handle<Constant>) -> Result<Value> {
        let src = self.l.src;
        let k = &src.constants[c];
        let is_pointer = matches!(src.types[k.ty], Type::Pointer { .. });
        match &k.kind {
            ConstantKind::Gep {
                inbounds,
                base,
                indices,
            } => {
                let base = self.constant(*base)?;
                let indices = indices
                    .iter()
                    .map(|&i| self.constant(i))
                    .collect::<Result<Vec<_>>>()?;
                self.gep(base, indices, *inbounds)
            }
            ConstantKind::Cast(op, inner) => {
                let v = self.constant(*inner)?;
                self.cast(*op, v, k.ty)
            }
            ConstantKind::Null | ConstantKind::Undef if is_pointer => {
                let t = self.l.ty(k.ty)?;
                if !matches!(
                    self.l.out.types[t],
                    Type::Pointer {
                        space: AddressSpace::PhysicalStorageBuffer,
                        ..
                    }
                ) {
                    return Err(Error::unsupported(
                        "a null pointer to private or local memory (a Vulkan shader's logical \
                         pointers have no null)",
                    ));
                }
                let zero = self.int_const(64, 0);
                Ok(self.push(
                    t,
                    Op::Cast {
                        op: CastOp::IntToPtr,
                        value: zero,
                    },
                ))
            }
            _ => Ok(Value::Const(self.l.constant(c)?)),
        }
    }

    /// Lower one instruction; its value, if it has one.
    fn inst(&mut self, frame: &mut Frame, ih: Handle<Inst>, inst: &Inst) -> Result<Option<Value>> {
        let src = self.l.src;
        match &inst.op {
            Op::Call { callee, args } => {
                let args = args
                    .iter()
                    .map(|&a| self.value(frame, a))
                    .collect::<Result<Vec<_>>>()?;
                self.inline(*callee, args)
            }
            Op::Builtin { builtin, args } => {
                let args = args
                    .iter()
                    .map(|&a| self.value(frame, a))
                    .collect::<Result<Vec<_>>>()?;
                super::builtins::lower(self, builtin, args, inst.ty)
            }
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
            Op::Alloca { allocated, align } => {
                let t = self.l.ty(*allocated)?;
                self.check_storable(t, "a variable")?;
                let pt = self.l.out.ty(Type::Pointer {
                    pointee: t,
                    space: AddressSpace::Private,
                });
                Ok(Some(self.push(
                    pt,
                    Op::Alloca {
                        allocated: t,
                        align: *align,
                    },
                )))
            }
            Op::Load {
                ptr,
                align,
                volatile,
            } => {
                let p = self.value(frame, *ptr)?;
                self.load(p, *align, *volatile).map(Some)
            }
            Op::Store {
                ptr,
                value,
                align,
                volatile,
            } => {
                let p = self.value(frame, *ptr)?;
                let v = self.value(frame, *value)?;
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
                if frame.byte_views.contains(&ih) {
                    return Ok(Some(v));
                }
                self.cast(*op, v, inst.ty).map(Some)
            }
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
                        builtin: ir::Builtin::Spirv(spirv::Op::IsNan),
                        args: vec![a],
                    },
                );
                let nb = self.push(
                    t,
                    Op::Builtin {
                        builtin: ir::Builtin::Spirv(spirv::Op::IsNan),
                        args: vec![b],
                    },
                );
                let either = self.push(
                    t,
                    Op::Builtin {
                        builtin: ir::Builtin::Spirv(spirv::Op::LogicalOr),
                        args: vec![na, nb],
                    },
                );
                Ok(Some(if *pred == FloatPredicate::Uno {
                    either
                } else {
                    self.push(
                        t,
                        Op::Builtin {
                            builtin: ir::Builtin::Spirv(spirv::Op::LogicalNot),
                            args: vec![either],
                        },
                    )
                }))
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
                // OpenCL's division is within 2.5 ulp everywhere (and infinite by zero);
                // Vulkan's only for divisors between 2^-126 and 2^126. In double it is
                // correctly rounded, and rounding that to float keeps it so.
                let (a, b) = (self.value(frame, *lhs)?, self.value(frame, *rhs)?);
                let t = self.l.ty(inst.ty)?;
                let f64t = self.l.out.ty(Type::Float { width: 64 });
                let wide = match self.l.out.types[t] {
                    Type::Vector { len, .. } => self.l.out.ty(Type::Vector { elem: f64t, len }),
                    _ => f64t,
                };
                let conv = |s: &mut Self, v: Value, to: Handle<Type>| {
                    s.push(
                        to,
                        Op::Builtin {
                            builtin: ir::Builtin::Convert {
                                from: ir::ConvertKind::Float,
                                to: ir::ConvertKind::Float,
                                saturate: false,
                                rounding: None,
                            },
                            args: vec![v],
                        },
                    )
                };
                let (x, y) = (conv(self, a, wide), conv(self, b, wide));
                let q = self.push(
                    wide,
                    Op::Binary {
                        op: ir::BinaryOp::FDiv,
                        lhs: x,
                        rhs: y,
                        flags: Default::default(),
                    },
                );
                Ok(Some(conv(self, q, t)))
            }
            Op::Phi { .. } => Err(Error::internal("a phi among a block's instructions")),
            op => {
                // Everything else keeps its form: operands and type moved over.
                let mut operands = Vec::new();
                ir::verify::for_each_operand(op, |v| operands.push(v));
                let mut mapped = Vec::with_capacity(operands.len());
                for v in operands {
                    mapped.push(self.value(frame, v)?);
                }
                let mut op = op.clone();
                let mut it = mapped.into_iter();
                ir::verify::for_each_operand_mut(&mut op, |v| {
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
    }

    /// Natural alignment of `t`, for memory operands that must state one (physical storage
    /// buffers) where the input gave none.
    fn natural_align(&self, t: Handle<Type>) -> u32 {
        self.l.out.align_of(t) as u32
    }

    /// A load. Through laid-out memory (buffers, push constants) an aggregate is loaded
    /// member by member: that memory has its own, explicitly laid-out SPIR-V types.
    pub fn load(&mut self, ptr: Value, align: Option<u32>, volatile: bool) -> Result<Value> {
        let pt = self.ty_of(ptr);
        let Type::Pointer { pointee, space } = self.l.out.types[pt] else {
            return Err(Error::internal("a load through a non-pointer"));
        };
        let laid = matches!(
            space,
            AddressSpace::PhysicalStorageBuffer | AddressSpace::PushConstant
        );
        if laid && self.is_aggregate(pointee) {
            let undef = self.l.out.constant(Constant {
                ty: pointee,
                kind: ConstantKind::Undef,
            });
            let mut agg = Value::Const(undef);
            for path in self.leaves(pointee) {
                let p = self.leaf_pointer(ptr, &path)?;
                let x = self.load(p, None, volatile)?;
                agg = self.push(
                    pointee,
                    Op::InsertValue {
                        aggregate: agg,
                        element: x,
                        indices: path,
                    },
                );
            }
            return Ok(agg);
        }
        let align = match space {
            AddressSpace::PhysicalStorageBuffer => {
                Some(align.unwrap_or_else(|| self.natural_align(pointee)))
            }
            _ => align,
        };
        Ok(self.push(
            pointee,
            Op::Load {
                ptr,
                align,
                volatile,
            },
        ))
    }

    pub fn store(
        &mut self,
        ptr: Value,
        value: Value,
        align: Option<u32>,
        volatile: bool,
    ) -> Result<()> {
        let pt = self.ty_of(ptr);
        let Type::Pointer { pointee, space } = self.l.out.types[pt] else {
            return Err(Error::internal("a store through a non-pointer"));
        };
        if self.ty_of(value) != pointee {
            return Err(Error::unsupported(
                "a store of a pointer into memory declared for another kind of pointer (in a \
                 Vulkan shader a pointer to a program-scope table and one to a buffer differ)",
            ));
        }
        let laid = matches!(
            space,
            AddressSpace::PhysicalStorageBuffer | AddressSpace::PushConstant
        );
        if laid && self.is_aggregate(pointee) {
            for path in self.leaves(pointee) {
                let p = self.leaf_pointer(ptr, &path)?;
                let lt = self.leaf_type(pointee, &path);
                let x = self.push(
                    lt,
                    Op::ExtractValue {
                        aggregate: value,
                        indices: path,
                    },
                );
                self.store(p, x, None, volatile)?;
            }
            return Ok(());
        }
        let align = match space {
            AddressSpace::PhysicalStorageBuffer => {
                Some(align.unwrap_or_else(|| self.natural_align(pointee)))
            }
            _ => align,
        };
        let void = self.void();
        self.push(
            void,
            Op::Store {
                ptr,
                value,
                align,
                volatile,
            },
        );
        Ok(())
    }

    fn is_aggregate(&self, t: Handle<Type>) -> bool {
        matches!(
            self.l.out.types[t],
            Type::Array { .. } | Type::Struct { .. }
        )
    }

    /// Index paths to every non-aggregate part of `t` (members, elements).
    fn leaves(&self, t: Handle<Type>) -> Vec<Vec<u32>> {
        match &self.l.out.types[t] {
            Type::Array { elem, len } => (0..*len as u32)
                .flat_map(|i| {
                    self.leaves(*elem).into_iter().map(move |mut p| {
                        p.insert(0, i);
                        p
                    })
                })
                .collect(),
            Type::Struct {
                members: Some(ms), ..
            } => ms
                .iter()
                .enumerate()
                .flat_map(|(i, &m)| {
                    self.leaves(m).into_iter().map(move |mut p| {
                        p.insert(0, i as u32);
                        p
                    })
                })
                .collect(),
            _ => vec![vec![]],
        }
    }

    fn leaf_type(&self, t: Handle<Type>, path: &[u32]) -> Handle<Type> {
        path.iter().fold(t, |t, &i| match &self.l.out.types[t] {
            Type::Array { elem, .. } => *elem,
            Type::Struct {
                members: Some(ms), ..
            } => ms[i as usize],
            _ => t,
        })
    }

    fn leaf_pointer(&mut self, ptr: Value, path: &[u32]) -> Result<Value> {
        let mut idx = vec![self.int_const(32, 0)];
        let pointee = self
            .l
            .out
            .pointee(self.ty_of(ptr))
            .unwrap_or_else(|| self.ty_of(ptr));
        let mut t = pointee;
        for &i in path {
            let width = match self.l.out.types[t] {
                Type::Struct { .. } => 32,
                _ => self.l.out.addressing.pointer_bits(),
            };
            idx.push(self.int_const(width, i as u64));
            t = self.leaf_type(t, &[i]);
        }
        self.gep(ptr, idx, true)
    }

    /// A `getelementptr`. On a logical pointer the first index must be zero; a non-zero one
    /// is folded into the chain that made the pointer when that chain ends in an array
    /// element (`&a[i] + j` is `&a[i + j]`).
    pub fn gep(&mut self, base: Value, indices: Vec<Value>, inbounds: bool) -> Result<Value> {
        let bty = self.ty_of(base);
        let space = self
            .space_of(base)
            .ok_or_else(|| Error::internal("getelementptr on a non-pointer"))?;
        if space != AddressSpace::PhysicalStorageBuffer
            && !indices.first().is_some_and(|&i| self.is_zero(i))
        {
            return self.fold_gep(base, indices, inbounds);
        }
        let consts = self.l.out.const_indices(&indices);
        let mut indices = indices;
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

    fn fold_gep(&mut self, base: Value, indices: Vec<Value>, inbounds: bool) -> Result<Value> {
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
            Type::Array { .. } | Type::SpecArray { .. }
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

    /// `a + b` for two index values of possibly different widths (in the wider one).
    fn add_indices(&mut self, a: Value, b: Value) -> Value {
        let (ta, tb) = (self.ty_of(a), self.ty_of(b));
        let w = |s: &Self, t| match s.l.out.types[t] {
            Type::Int { width } => width,
            _ => 64,
        };
        let (wa, wb) = (w(self, ta), w(self, tb));
        let (a, b, t) = if wa >= wb {
            let b = self.widen(b, ta, wb < wa);
            (a, b, ta)
        } else {
            let a = self.widen(a, tb, true);
            (a, b, tb)
        };
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

    fn widen(&mut self, v: Value, to: Handle<Type>, needed: bool) -> Value {
        if !needed {
            return v;
        }
        self.push(
            to,
            Op::Cast {
                op: CastOp::SExt,
                value: v,
            },
        )
    }

    /// A cast; `src_ty` is the input's result type.
    fn cast(&mut self, op: CastOp, v: Value, src_ty: Handle<Type>) -> Result<Value> {
        let from_space = self.space_of(v);
        let rt = match op {
            CastOp::Bitcast if from_space.is_some() => {
                let space = from_space.unwrap_or(AddressSpace::Private);
                let pointee = match self.l.src.pointee(src_ty) {
                    Some(p) if matches!(self.l.src.types[p], Type::Void) => self.l.out.int_type(8),
                    Some(p) => self.l.ty(p)?,
                    None => return Err(Error::internal("a pointer bitcast to a non-pointer")),
                };
                let rt = self.l.out.ty(Type::Pointer { pointee, space });
                if rt == self.ty_of(v) {
                    return Ok(v);
                }
                if space != AddressSpace::PhysicalStorageBuffer {
                    return Err(Error::unsupported(
                        "a cast of a pointer to private or local memory to another pointer \
                         type (a Vulkan shader's logical pointers keep their type)",
                    ));
                }
                rt
            }
            CastOp::PtrToInt if from_space != Some(AddressSpace::PhysicalStorageBuffer) => {
                return Err(Error::unsupported(
                    "the address of private or local memory as an integer (a Vulkan shader's \
                     logical pointers have none)",
                ))
            }
            CastOp::AddrSpaceCast => {
                return Err(Error::unsupported(
                    "an address-space cast (generic pointers have no Vulkan form yet)",
                ))
            }
            // Device addresses are 64 bits wide whatever OpenCL's pointer width.
            CastOp::PtrToInt | CastOp::IntToPtr => {
                let rt = self.l.ty(src_ty)?;
                let u64t = self.l.out.int_type(64);
                let narrow = |s: &Self, t: Handle<Type>| matches!(s.l.out.types[t], Type::Int { width } if width < 64);
                if op == CastOp::PtrToInt && narrow(self, rt) {
                    let wide = self.push(u64t, Op::Cast { op, value: v });
                    return Ok(self.push(
                        rt,
                        Op::Cast {
                            op: CastOp::Trunc,
                            value: wide,
                        },
                    ));
                }
                if op == CastOp::IntToPtr && narrow(self, self.ty_of(v)) {
                    let wide = self.push(
                        u64t,
                        Op::Cast {
                            op: CastOp::ZExt,
                            value: v,
                        },
                    );
                    return self.cast(op, wide, src_ty);
                }
                rt
            }
            _ => self.l.ty(src_ty)?,
        };
        if op == CastOp::IntToPtr
            && !matches!(
                self.l.out.types[rt],
                Type::Pointer {
                    space: AddressSpace::PhysicalStorageBuffer,
                    ..
                }
            )
        {
            return Err(Error::unsupported(
                "an integer made into a pointer to private or local memory",
            ));
        }
        Ok(self.push(rt, Op::Cast { op, value: v }))
    }

    /// `memcpy` of a whole object to an object of the same type, member by member.
    fn copy_memory(&mut self, dst: Value, src: Value, size: Value) -> Result<()> {
        let (dt, st) = (self.ty_of(dst), self.ty_of(src));
        let (Some(dp), Some(sp)) = (self.l.out.pointee(dt), self.l.out.pointee(st)) else {
            return Err(Error::internal("a memcpy between non-pointers"));
        };
        let n = match size {
            Value::Const(c) => match self.l.out.constants[c].kind {
                ConstantKind::Int(n) => Some(n),
                _ => None,
            },
            _ => None,
        };
        if dp != sp || n != Some(self.l.out.size_of(dp)) {
            return Err(Error::unsupported(
                "a memcpy other than of one whole object to an object of the same type \
                 (a Vulkan shader copies typed values)",
            ));
        }
        for path in self.leaves(dp) {
            let s = self.leaf_pointer(src, &path)?;
            let x = self.load(s, None, false)?;
            let d = self.leaf_pointer(dst, &path)?;
            self.store(d, x, None, false)?;
        }
        Ok(())
    }

    /// `memset` of a whole object with zero bytes.
    fn fill_memory(&mut self, dst: Value, byte: Value, size: Value) -> Result<()> {
        let dt = self.ty_of(dst);
        let dp = self
            .l
            .out
            .pointee(dt)
            .ok_or_else(|| Error::internal("a memset of a non-pointer"))?;
        let konst = |s: &Self, v: Value| match v {
            Value::Const(c) => match s.l.out.constants[c].kind {
                ConstantKind::Int(n) => Some(n),
                ConstantKind::Null => Some(0),
                _ => None,
            },
            _ => None,
        };
        if konst(self, byte) != Some(0) || konst(self, size) != Some(self.l.out.size_of(dp)) {
            return Err(Error::unsupported(
                "a memset other than zeroing one whole object (a Vulkan shader stores typed \
                 values)",
            ));
        }
        for path in self.leaves(dp) {
            let lt = self.leaf_type(dp, &path);
            let zero = self.l.out.constant(Constant {
                ty: lt,
                kind: ConstantKind::Null,
            });
            let d = self.leaf_pointer(dst, &path)?;
            self.store(d, Value::Const(zero), None, false)?;
        }
        Ok(())
    }
}
