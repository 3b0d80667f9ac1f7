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

use crate::hash::HashMap;

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
    /// The member holding the program-scope variables' buffer address (member 0, offset 0).
    pub program_scope_member: Option<u32>,
}

/// One inlined copy of a function: its arguments and the values its instructions became.
struct Frame {
    args: Vec<Value>,
    /// The source types of the function's parameters.
    param_tys: Vec<Handle<Type>>,
    vals: HashMap<Handle<Inst>, Value>,
    phi_slots: HashMap<Handle<Inst>, Value>,
    /// Pointer variables stored once (`forwarded`): the store's value, once made.
    forwarded: HashMap<Handle<Inst>, Option<Value>>,
    /// Pointer casts only `memcpy` and `memset` use (`byte_views`): the pointer itself.
    byte_views: crate::hash::HashSet<Handle<Inst>>,
    /// 3-vector pointers seen as 4-vector ones (or back) by loads and stores only
    /// (`lane_views`), in memory whose pointers cannot be cast: the pointer itself, each
    /// access shuffled to the lanes it wants.
    lane_views: crate::hash::HashSet<Handle<Inst>>,
    /// Casts of buffer pointers that loads and stores alone use (`buffer_views::casts`):
    /// under descriptors, views of the buffer's own elements.
    buffer_view_casts: crate::hash::HashSet<Handle<Inst>>,
}

pub(super) struct FnBuilder<'l, 'a> {
    pub l: &'l mut Lowerer<'a>,
    pub body: ir::Body,
    pub cur: usize,
    pub kctx: KernelCtx,
    depth: u32,
    void_t: Handle<Type>,
    /// The kernel's private memory, where it is addressed (`addressed`).
    pub(super) arena: Option<super::addressed::Arena>,
    /// Addressed pointers handed to a builtin's lowering, with the (shader-form) type each
    /// points to: the builtin loads, stores and steps through them as through pointers.
    pub(super) views: HashMap<Value, (Handle<Type>, AddressSpace)>,
    /// Storage-buffer pointers seen as another type (`buffer_views`), under descriptors.
    pub(super) buffer_views: HashMap<Value, super::buffer_views::View>,
    /// Program-scope private data in a kernel whose private memory is addressed: the offset
    /// of the kernel's copy in the arena (`private_copy`).
    pub(super) private_copies: HashMap<Handle<ir::Global>, Value>,
    /// Under addressed local memory, a pointer to the kernel's one region of local memory
    /// (an array of words), and the offsets of the program-scope `__local` variables in it.
    pub(super) local_base: Option<Value>,
    pub(super) local_offsets: HashMap<Handle<ir::Global>, u64>,
    /// The Workgroup arrays work-group collectives exchange values through, by value type
    /// (`groups`).
    pub(super) group_scratch: HashMap<Handle<Type>, Handle<ir::Global>>,
}

/// Calls nested deeper than this are taken for recursion (which OpenCL C forbids).
const MAX_INLINE_DEPTH: u32 = 64;

impl Frame {
    /// The source type of operand `v` of the function this frame inlines.
    fn src_ty(&self, src: &ir::Module, body: &ir::Body, v: Value) -> Handle<Type> {
        match v {
            Value::Param(i) => self.param_tys[i as usize],
            Value::Inst(h) => body.insts[h].ty,
            Value::Const(c) => src.constants[c].ty,
        }
    }
}

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
            arena: None,
            views: HashMap::default(),
            buffer_views: HashMap::default(),
            private_copies: HashMap::default(),
            local_base: None,
            local_offsets: HashMap::default(),
            group_scratch: HashMap::default(),
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
        let op = self.disjoint_halves(ty, op);
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

    pub(super) fn space_of(&self, ptr: Value) -> Option<AddressSpace> {
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
            param_tys: f.params.iter().map(|p| p.ty).collect(),
            vals: HashMap::default(),
            phi_slots: HashMap::default(),
            forwarded: super::forwarding::single_store_pointers(self.l.src, body)
                .into_keys()
                .map(|a| (a, None))
                .collect(),
            byte_views: super::forwarding::byte_views(body),
            lane_views: super::forwarding::lane_views(self.l.src, body),
            buffer_view_casts: super::buffer_views::casts(self.l.src, body),
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
        let mut first = HashMap::default();
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
            for (pos, &ih) in block.insts.iter().enumerate() {
                let inst = &body.insts[ih];
                let r = match &inst.op {
                    Op::Phi { .. } => {
                        let slot = frame.phi_slots[&ih];
                        Some(self.load(slot, None, false)?)
                    }
                    _ => self.inst(&mut frame, body, ih, inst).map_err(|e| {
                        e.in_block(block.name.as_deref().unwrap_or(&format!("{b}")))
                            .at_value(crate::ir::print::value_label(inst, pos))
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

    /// An operand of a copy or fill: addressed private memory or a pointer.
    fn side(
        &mut self,
        frame: &mut Frame,
        body: &ir::Body,
        v: Value,
    ) -> Result<super::addressed_copy::Side> {
        let st = frame.src_ty(self.l.src, body, v);
        let x = self.value(frame, v)?;
        Ok(if let Some(space) = self.l.addressed_space(st) {
            super::addressed_copy::Side::Addressed(space, x)
        } else {
            super::addressed_copy::Side::Pointer(x)
        })
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
    pub(super) fn constant(&mut self, c: Handle<Constant>) -> Result<Value> {
        let src = self.l.src;
        let k = &src.constants[c];
        let is_pointer = matches!(src.types[k.ty], Type::Pointer { .. });
        match &k.kind {
            // Address expressions on addressed memory: offsets.
            ConstantKind::Gep { base, indices, .. }
                if self.l.is_addressed(src.constants[*base].ty) =>
            {
                let off = self.constant(*base)?;
                let indices = indices
                    .iter()
                    .map(|&i| self.constant(i))
                    .collect::<Result<Vec<_>>>()?;
                self.arena_gep(off, src.constants[*base].ty, &indices)
            }
            ConstantKind::Cast(op, inner)
                if self.l.is_addressed(src.constants[*inner].ty) || self.l.is_addressed(k.ty) =>
            {
                let v = self.constant(*inner)?;
                self.addressed_cast(*op, v, src.constants[*inner].ty, k.ty)
            }
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
            ConstantKind::Sampler { .. } => self.literal_sampler(c),
            // Addressed memory: the null pointer is offset 0, where no object is (private
            // and local memory both begin with bytes no object takes).
            ConstantKind::Null | ConstantKind::Undef if self.l.is_addressed(k.ty) => {
                Ok(self.int_const(32, 0))
            }
            ConstantKind::GlobalAddress(g) if self.l.program_scope_offset(*g).is_some() => {
                self.program_scope_address(*g, k.ty)
            }
            ConstantKind::GlobalAddress(g) if self.l.is_addressed(k.ty) => {
                match self.local_offsets.get(g) {
                    Some(&at) => Ok(self.int_const(32, at)),
                    None if src.globals[*g].space == AddressSpace::Private => self.private_copy(*g),
                    None => Err(Error::internal(
                        "an addressed global that is neither local nor private",
                    )),
                }
            }
            ConstantKind::Null | ConstantKind::Undef if is_pointer => {
                let t = self.l.ty(k.ty)?;
                // A storage-buffer pointer has a null (variable pointers' OpConstantNull).
                if matches!(
                    self.l.out.types[t],
                    Type::Pointer {
                        space: AddressSpace::StorageBuffer,
                        ..
                    }
                ) {
                    let null = self.l.out.constant(Constant {
                        ty: t,
                        kind: ConstantKind::Null,
                    });
                    return Ok(Value::Const(null));
                }
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
    fn inst(
        &mut self,
        frame: &mut Frame,
        body: &ir::Body,
        ih: Handle<Inst>,
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
                        op: ir::builtin::CLOp::printf,
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
                    printed.push(match super::printf::string_of(src, body, a) {
                        Some(s) => super::printf::PrintfArg::Str(s),
                        // `%p` of a null pointer, whatever its memory: its address is 0.
                        None if null_pointer => super::printf::PrintfArg::Value(
                            self.int_const(src.addressing.pointer_bits(), 0),
                        ),
                        None => super::printf::PrintfArg::Value(self.value(frame, a)?),
                    });
                }
                let ret = self.l.ty(inst.ty)?;
                self.printf(printed, ret).map(Some)
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
                super::builtins::lower(self, builtin, lowered, inst.ty)
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
                if frame.byte_views.contains(&ih) {
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
            Op::ICmp { lhs, rhs, .. }
                if matches!(
                    src.types[frame.src_ty(src, body, *lhs)],
                    Type::Pointer { .. }
                ) =>
            {
                // Only device addresses are numbers; logical pointers have no order (and
                // no equality without variable pointers).
                for v in [*lhs, *rhs] {
                    let v = self.value(frame, v)?;
                    if self
                        .space_of(v)
                        .is_some_and(|s| s != AddressSpace::PhysicalStorageBuffer)
                    {
                        return Err(Error::unsupported(
                            "a comparison of pointers to private or local memory, or to a \
                             buffer under --vulkan-pointers descriptors (a Vulkan shader's \
                             logical pointers are not numbers)",
                        ));
                    }
                }
                self.copy_inst(frame, inst)
            }
            _ => self.copy_inst(frame, inst),
        }
    }

    /// `inst` as it is, its operands and type moved over.
    fn copy_inst(&mut self, frame: &mut Frame, inst: &Inst) -> Result<Option<Value>> {
        let src = self.l.src;
        let op = &inst.op;
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
