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
    self, AddressSpace, BlockId, CastOp, Constant, ConstantKind, Handle, Inst, Op, Terminator,
    Type, Value,
};

use super::types::Lowerer;

mod inst;
pub(super) mod seam;

/// What the work-item lowering needs of the kernel being built.
#[derive(Clone, Copy, Debug)]
pub(super) struct KernelCtx {
    /// The push-constant block and the member holding the global offset.
    pub push_constants: Option<Handle<ir::Global>>,
    pub global_offset_member: Option<u32>,
    /// The member holding the program-scope variables' buffer address (member 0, offset 0).
    pub program_scope_member: Option<u32>,
    /// The families the dispatcher reaches through the seam (`seam.rs`).
    pub families: &'static seam::Families,
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
    /// Casts of buffer pointers that loads and stores alone use (`buffers::views::casts`):
    /// under descriptors, views of the buffer's own elements.
    buffer_view_casts: crate::hash::HashSet<Handle<Inst>>,
    /// `ptrtoint`s only subtracted from each other (`buffers::order::differences`): under
    /// descriptors, buffer pointers whose difference is an `OpPtrDiff`.
    differences: crate::hash::HashSet<Handle<Inst>>,
    /// Float-to-double widenings only `printf` reads (`survey::printf_widenings`): the
    /// float itself, widened on its bits where it is printed.
    printf_widenings: crate::hash::HashSet<Handle<Inst>>,
}

pub(super) struct FnBuilder<'l, 'a> {
    pub l: &'l mut Lowerer<'a>,
    pub body: ir::Body,
    pub cur: usize,
    pub kctx: KernelCtx,
    depth: u32,
    void_t: Handle<Type>,
    /// The `addressed` family's state (`state::Addressed`).
    pub(super) addressed: super::state::Addressed,
    /// The `buffers` family's state, under descriptors (`state::Buffers`).
    pub(super) buffers: super::state::Buffers,
    /// The Workgroup arrays work-group collectives exchange values through, by value type
    /// (`groups`).
    pub(super) group_scratch: HashMap<Handle<Type>, Handle<ir::Global>>,
    /// The source position of the instruction being lowered (inlined where its function
    /// was): what every instruction made for it carries.
    loc: Option<Handle<ir::Location>>,
    /// The location of the call the function being inlined was called at.
    call_loc: Option<Handle<ir::Location>>,
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
            addressed: Default::default(),
            buffers: Default::default(),
            group_scratch: HashMap::default(),
            loc: None,
            call_loc: None,
        };
        b.cur = b.new_block(Some("entry".into()));
        b
    }

    pub fn new_block(&mut self, name: Option<String>) -> usize {
        self.body.blocks.push(ir::Block {
            terminator_loc: None,
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
        let h = self.body.insts.append(Inst {
            loc: self.loc,
            name: None,
            ty,
            op,
        });
        self.body.blocks[self.cur].insts.push(h);
        Value::Inst(h)
    }

    pub fn terminate(&mut self, t: Terminator) {
        self.body.blocks[self.cur].terminator = t;
        self.body.blocks[self.cur].terminator_loc = self.loc;
    }

    /// Take `loc`, a location of the function being inlined, as the position of what is
    /// made next.
    fn locate(&mut self, loc: Option<Handle<ir::Location>>) {
        self.loc = match (loc, self.call_loc) {
            (Some(l), Some(call)) => Some(self.l.out.debug.inlined(l, call)),
            (l, _) => l,
        };
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
        // The callee's code is inlined at the call's location (none at the kernel's own
        // level); the caller's position is back after it.
        let (outer_loc, outer_call) = (self.loc, self.call_loc);
        if !entry_level {
            self.call_loc = self.loc;
        }
        let r = self.inline_body(f, body, args, entry_level);
        self.depth -= 1;
        (self.loc, self.call_loc) = (outer_loc, outer_call);
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
            buffer_view_casts: super::survey::casts(self.l.src, body),
            differences: super::survey::differences(body),
            printf_widenings: super::survey::printf_widenings(self.l.src, body),
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
        let merged = super::exit_merge::plan(body);
        let latch_of: HashMap<usize, usize> = merged.iter().map(|(&h, m)| (m.latch, h)).collect();
        for &b in &order {
            self.cur = first[&b];
            let block = &body.blocks[b];
            for (pos, &ih) in block.insts.iter().enumerate() {
                let inst = &body.insts[ih];
                self.locate(inst.loc);
                let r = match &inst.op {
                    Op::Phi { .. } => {
                        let slot = frame.phi_slots[&ih];
                        Some(self.load(slot, None, false)?)
                    }
                    _ => self.inst(&mut frame, body, ih, inst).map_err(|e| {
                        e.in_block(block.name.as_deref().unwrap_or(&format!("{b}")))
                            .at_value(crate::ir::print::value_label(body, block, pos))
                    })?,
                };
                if let Some(v) = r {
                    frame.vals.insert(ih, v);
                }
            }
            self.locate(block.terminator_loc);
            self.store_phis(&mut frame, body, b)?;
            let to = |x: &BlockId| BlockId(first[&(x.0 as usize)] as u32);
            let t = match &block.terminator {
                // A loop whose exits merge (`exit_merge`): the header goes on to its latch,
                // which leaves on either test.
                Terminator::CondBranch { .. } if merged.contains_key(&b) => {
                    Terminator::Branch(BlockId(first[&merged[&b].latch] as u32))
                }
                Terminator::CondBranch {
                    cond,
                    on_true,
                    on_false,
                } => match latch_of.get(&b) {
                    Some(&h) => {
                        let m = merged[&h];
                        let leaves = (*cond, on_true.0 as usize != h);
                        self.merged_exit(&mut frame, body, m, leaves, &to)?
                    }
                    None => Terminator::CondBranch {
                        cond: self.value(&mut frame, *cond)?,
                        on_true: to(on_true),
                        on_false: to(on_false),
                    },
                },
                Terminator::Branch(x) => Terminator::Branch(to(x)),
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

    /// Each successor of source block `b` takes `b`'s values for its phis (their Function
    /// variables, stored on every edge into the block and read only at its start).
    fn store_phis(&mut self, frame: &mut Frame, body: &ir::Body, b: usize) -> Result<()> {
        let mut seen = Vec::new();
        for s in body.blocks[b].terminator.successors() {
            if seen.contains(&s) {
                continue;
            }
            seen.push(s);
            for &ih in &body.blocks[s].insts {
                let Op::Phi { incoming } = &body.insts[ih].op else {
                    continue;
                };
                if let Some(&(v, _)) = incoming.iter().find(|(_, p)| p.0 as usize == b) {
                    let v = self.value(frame, v)?;
                    let slot = frame.phi_slots[&ih];
                    self.store(slot, v, None, false)?;
                }
            }
        }
        Ok(())
    }

    /// The latch's terminator of a loop whose exits merge (`exit_merge`): leave when the
    /// header's test or the latch's says so (`latch`: its condition, and whether it leaves
    /// when true), to a block that goes to the exit the header's test chose, else the
    /// latch's; otherwise back to the header. `to` maps source blocks to ours.
    fn merged_exit(
        &mut self,
        frame: &mut Frame,
        body: &ir::Body,
        m: super::exit_merge::MergedExit,
        latch: (Value, bool),
        to: &dyn Fn(&BlockId) -> BlockId,
    ) -> Result<Terminator> {
        let bool_t = self.l.out.ty(Type::Bool);
        let mut leaving = |b: &mut Self, cond: Value, leaves_on: bool| -> Result<Value> {
            let c = b.value(frame, cond)?;
            Ok(if leaves_on {
                c
            } else {
                let t = Value::Const(b.l.out.int_const(bool_t, 1));
                b.push(
                    bool_t,
                    Op::Binary {
                        op: ir::BinaryOp::Xor,
                        lhs: c,
                        rhs: t,
                        flags: Default::default(),
                    },
                )
            })
        };
        let header_leaves = leaving(self, m.cond, m.leaves_on)?;
        let latch_leaves = leaving(self, latch.0, latch.1)?;
        let either = self.push(
            bool_t,
            Op::Binary {
                op: ir::BinaryOp::Or,
                lhs: header_leaves,
                rhs: latch_leaves,
                flags: Default::default(),
            },
        );
        let src = m.latch_exit;
        let (here, loc) = (self.cur, self.loc);
        let out = self.new_block(Some("loop.leave".into()));
        self.cur = out;
        if m.exit == src {
            // Both tests leave to one block: its phis take the header's values where the
            // header's test left, else the latch's (which the latch stored over them).
            for &ih in &body.blocks[src].insts {
                let Op::Phi { incoming } = &body.insts[ih].op else {
                    continue;
                };
                let from = |b: usize| incoming.iter().find(|(_, p)| p.0 as usize == b);
                if let (Some(&(vh, _)), Some(&(vl, _))) = (from(m.header), from(m.latch)) {
                    let (vh, vl) = (self.value(frame, vh)?, self.value(frame, vl)?);
                    let t = self.ty_of(vh);
                    let v = self.push(
                        t,
                        Op::Select {
                            cond: header_leaves,
                            on_true: vh,
                            on_false: vl,
                        },
                    );
                    self.store(frame.phi_slots[&ih], v, None, false)?;
                }
            }
        }
        self.terminate(if m.exit == src {
            Terminator::Branch(to(&BlockId(src as u32)))
        } else {
            Terminator::CondBranch {
                cond: header_leaves,
                on_true: to(&BlockId(m.exit as u32)),
                on_false: to(&BlockId(src as u32)),
            }
        });
        (self.cur, self.loc) = (here, loc);
        Ok(Terminator::CondBranch {
            cond: either,
            on_true: BlockId(out as u32),
            on_false: to(&BlockId(m.header as u32)),
        })
    }

    /// A Function variable of type `t` (the writer puts every one in the entry block).
    pub fn alloca(&mut self, t: Handle<Type>) -> Value {
        self.alloca_aligned(t, None)
    }

    /// A Function variable of type `t` (a buffer pointer's gets an index variable beside it,
    /// `buffers::order`).
    pub fn alloca_aligned(&mut self, t: Handle<Type>, align: Option<u32>) -> Value {
        let pt = self.l.out.ty(Type::Pointer {
            pointee: t,
            space: AddressSpace::Private,
        });
        let slot = self.push(
            pt,
            Op::Alloca {
                allocated: t,
                align,
            },
        );
        self.note_pointer_slot(slot);
        slot
    }

    /// An operand of a copy or fill: addressed private memory or a pointer.
    fn side(&mut self, frame: &mut Frame, body: &ir::Body, v: Value) -> Result<super::state::Side> {
        let st = frame.src_ty(self.l.src, body, v);
        let x = self.value(frame, v)?;
        Ok(if let Some(space) = self.l.addressed_space(st) {
            super::state::Side::Addressed(space, x)
        } else {
            super::state::Side::Pointer(x)
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
                match self.local_offset(*g) {
                    Some(at) => Ok(self.int_const(32, at)),
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
}
