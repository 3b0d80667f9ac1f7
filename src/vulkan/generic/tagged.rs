//! Tagged generic pointers: a generic pointer that points into private, local or global
//! memory depending on the run (`int *g = odd ? &out[i] : &priv[0]`), under physical
//! pointers, where every space has numbers for addresses: a global pointer is its device
//! address, and a private or local pointer whose kernel needs one is a byte offset into the
//! kernel's addressed memory (`addressed/`).
//!
//! Such a pointer is a 64-bit integer, its space in the top two bits:
//!
//! | bits 63–62 | space | bits 61–0 |
//! |---|---|---|
//! | 0 | global (and constant) | the device address (Vulkan devices' addresses are far below 2^62) |
//! | 1 | private | the offset in the work-item's private memory |
//! | 2 | local | the offset in the work-group's local memory |
//!
//! The generic specialization (`mod.rs`) gives such values the type `i64`; this pass
//! then rewrites, in the OpenCL-form graph and before the Vulkan lowering, what reads them:
//!
//! * a cast of a named-space pointer to one is its address with the space's tag;
//!   a cast back is the address without it;
//! * `getelementptr` steps the address (as a global pointer would: one layout for all);
//! * a load, store, atomic or other builtin through one branches on the tag to a copy of
//!   the access through a pointer of each space the class may point into, and a phi joins
//!   their results;
//! * `to_global`/`to_local`/`to_private` compare the tag (NULL where it differs), and
//!   `get_fence` reads it;
//! * selects, phis, comparisons, calls and stores of the value itself need nothing: it is
//!   an integer.

use crate::diag::{Error, Result};
use crate::hash::HashMap;
use crate::ir::Primitive as S;
use crate::ir::{
    self, AddressSpace, BinaryOp, Block, BlockId, Builtin, CastOp, Constant, ConstantKind, Handle,
    Inst, IntPredicate, Op, Terminator, Type, Value,
};

use super::classes::{members, Place, Spaces};
use super::specializer::Specializer;

/// The bits below the tag.
const ADDRESS_MASK: u64 = (1 << 62) - 1;

/// The tag of space `s` (bits 63–62).
fn tag_of(s: AddressSpace) -> u64 {
    match s {
        AddressSpace::Private => 1,
        AddressSpace::Local => 2,
        _ => 0,
    }
}

/// The tagged values of one function: each with its generic pointer type before the
/// rewrite and the spaces it may point into.
#[derive(Default)]
pub(super) struct TaggedValues {
    map: HashMap<Value, (Handle<Type>, Spaces)>,
}

impl TaggedValues {
    /// Note value `v` of generic pointer type `ty` (in `m`), tagged if `place` says.
    pub(super) fn note(&mut self, m: &ir::Module, v: Value, ty: Handle<Type>, place: Place) {
        let top = matches!(
            m.types[ty],
            Type::Pointer {
                space: AddressSpace::Generic,
                ..
            }
        );
        if let (true, Place::Tagged(s)) = (top, place) {
            self.map.insert(v, (ty, s));
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// What `step` did at a position of a block.
enum Flow {
    /// Go on past `n` more instructions (those inserted before it, and it).
    Past(usize),
    /// The instruction is gone (substituted): the same position holds the next.
    Same,
    /// The block ended here (split); go on with the next block.
    Split,
}

/// Where a value of the function goes in place of another.
type Subst = HashMap<Handle<Inst>, Value>;

impl Specializer<'_> {
    /// Type `t` with its generic pointer tagged: an `i64`.
    pub(super) fn tagged_ty(&mut self, t: Handle<Type>) -> Handle<Type> {
        match self.out.types[t].clone() {
            Type::Pointer {
                space: AddressSpace::Generic,
                ..
            } => self.out.int_type(64),
            Type::Pointer { space, pointee } => {
                let pointee = self.tagged_ty(pointee);
                self.out.ty(Type::Pointer { space, pointee })
            }
            _ => t,
        }
    }

    /// Constant generic pointer `c` of a tagged class: null and undef are `i64` constants;
    /// an address (of a program-scope variable, made generic) stays, for `untag` to compute
    /// where it is read (`in_return`: it is returned, which is refused).
    pub(super) fn tagged_const(
        &mut self,
        c: Handle<Constant>,
        in_return: bool,
    ) -> Result<Handle<Constant>> {
        let i64t = self.out.int_type(64);
        match self.out.constants[c].kind {
            ConstantKind::Null => Ok(self.out.int_const(i64t, 0)),
            ConstantKind::Undef => Ok(self.out.constant(Constant {
                ty: i64t,
                kind: ConstantKind::Undef,
            })),
            _ if in_return => Err(Error::unsupported(
                "the address of a program-scope variable returned as a generic pointer that \
                 points into different spaces depending on the run",
            )),
            _ => Ok(c),
        }
    }

    /// Rewrite what reads `f`'s tagged values (see the module docs).
    pub(super) fn untag(&mut self, f: &mut ir::Function, tagged: &TaggedValues) -> Result<()> {
        let params: Vec<Handle<Type>> = f.params.iter().map(|p| p.ty).collect();
        let Some(body) = f.body.as_mut() else {
            return Ok(());
        };
        let mut u = Untag {
            s: self,
            body,
            params,
            tagged: &tagged.map,
            subst: HashMap::default(),
        };
        let mut bi = 0;
        while bi < u.body.blocks.len() {
            let mut pos = 0;
            while pos < u.body.blocks[bi].insts.len() {
                match u.step(bi, pos)? {
                    Flow::Past(n) => pos += n,
                    Flow::Same => {}
                    Flow::Split => break,
                }
            }
            bi += 1;
        }
        let subst = std::mem::take(&mut u.subst);
        apply(u.body, &subst);
        Ok(())
    }
}

/// Replace every use of a substituted instruction by its value (following chains).
fn apply(body: &mut ir::Body, subst: &Subst) {
    let resolve = |v: &mut Value| {
        while let Value::Inst(h) = *v {
            match subst.get(&h) {
                Some(&to) => *v = to,
                None => break,
            }
        }
    };
    let handles: Vec<Handle<Inst>> = body.insts.iter().map(|(h, _)| h).collect();
    for h in handles {
        ir::operands::for_each_operand_mut(&mut body.insts[h].op, resolve);
    }
    for b in &mut body.blocks {
        ir::operands::terminator_operands_mut(&mut b.terminator, resolve);
    }
}

struct Untag<'a, 'b> {
    s: &'a mut Specializer<'b>,
    body: &'a mut ir::Body,
    /// The function's parameter types (after the specialization).
    params: Vec<Handle<Type>>,
    tagged: &'a HashMap<Value, (Handle<Type>, Spaces)>,
    subst: Subst,
}

impl Untag<'_, '_> {
    fn ty_of(&self, v: Value) -> Handle<Type> {
        match v {
            Value::Param(i) => self.params[i as usize],
            Value::Inst(h) => self.body.insts[h].ty,
            Value::Const(c) => self.s.out.constants[c].ty,
        }
    }

    /// Whether `v` is a tagged value, or a constant one (null or undef, an `i64` where a
    /// pointer is read).
    fn is_tagged(&self, v: Value) -> bool {
        self.tagged.contains_key(&v)
            || matches!(v, Value::Const(c)
                if matches!(self.s.out.types[self.s.out.constants[c].ty], Type::Int { .. }))
    }

    /// Insert an instruction before position `pos` of block `bi`.
    fn insert(&mut self, bi: usize, pos: usize, ty: Handle<Type>, op: Op) -> Value {
        let h = self.body.insts.append(Inst {
            loc: None,
            name: None,
            ty,
            op,
        });
        self.body.blocks[bi].insts.insert(pos, h);
        Value::Inst(h)
    }

    fn i64_const(&mut self, v: u64) -> Value {
        let t = self.s.out.int_type(64);
        Value::Const(self.s.out.int_const(t, v))
    }

    fn binary(op: BinaryOp, lhs: Value, rhs: Value) -> Op {
        Op::Binary {
            op,
            lhs,
            rhs,
            flags: Default::default(),
        }
    }

    fn space_of(&self, t: Handle<Type>) -> Option<AddressSpace> {
        match self.s.out.types[t] {
            Type::Pointer { space, .. } => Some(space),
            _ => None,
        }
    }

    /// The address without its tag, for a pointer into `s` (before position `pos`); the
    /// instructions inserted.
    fn address(&mut self, bi: usize, pos: usize, v: Value, s: AddressSpace) -> (Value, usize) {
        if tag_of(s) == 0 {
            return (v, 0);
        }
        let i64t = self.s.out.int_type(64);
        let mask = self.i64_const(ADDRESS_MASK);
        (
            self.insert(bi, pos, i64t, Self::binary(BinaryOp::And, v, mask)),
            1,
        )
    }

    /// Whether constant `c` is a generic pointer (an address made generic, of a tagged
    /// class: `tagged_const`).
    fn is_generic_const(&self, c: Handle<Constant>) -> bool {
        matches!(
            self.s.out.types[self.s.out.constants[c].ty],
            Type::Pointer {
                space: AddressSpace::Generic,
                ..
            }
        )
    }

    /// Compute constant address `c`, made generic, as a tagged value at the end of block
    /// `bi` (before its terminator) or before position `pos`.
    fn materialize(&mut self, bi: usize, pos: Option<usize>, c: Handle<Constant>) -> Result<Value> {
        let space = self.s.const_space(c).ok_or_else(|| {
            Error::unsupported("a constant generic pointer whose space the module does not say")
        })?;
        let named = self.s.concrete_const(c, space);
        let i64t = self.s.out.int_type(64);
        let at = pos.unwrap_or(self.body.blocks[bi].insts.len());
        let a = self.insert(
            bi,
            at,
            i64t,
            Op::Cast {
                op: CastOp::PtrToInt,
                value: Value::Const(named),
            },
        );
        let tag = self.i64_const(tag_of(space) << 62);
        Ok(self.insert(bi, at + 1, i64t, Self::binary(BinaryOp::Or, a, tag)))
    }

    /// The tag (bits 63–62) of tagged value `v`, computed at position `at` of block `bi`.
    fn tag(&mut self, bi: usize, at: usize, v: Value) -> Value {
        let i64t = self.s.out.int_type(64);
        let sixty_two = self.i64_const(62);
        self.insert(bi, at, i64t, Self::binary(BinaryOp::LShr, v, sixty_two))
    }

    /// Whether `tag` is space `s`'s, computed at position `at` of block `bi`.
    fn tag_is(&mut self, bi: usize, at: usize, tag: Value, s: AddressSpace) -> Value {
        let boolt = self.s.out.ty(Type::Bool);
        let code = self.i64_const(tag_of(s));
        self.insert(
            bi,
            at,
            boolt,
            Op::ICmp {
                pred: IntPredicate::Eq,
                lhs: tag,
                rhs: code,
            },
        )
    }

    /// Rewrite the instruction at position `pos` of block `bi`.
    fn step(&mut self, bi: usize, pos: usize) -> Result<Flow> {
        let h = self.body.blocks[bi].insts[pos];
        let mut inst = self.body.insts[h].clone();
        // Addresses made generic, read as tagged values: computed first (in a phi's
        // predecessor for a phi).
        let mut consts = Vec::new();
        let mut k = 0;
        ir::operands::for_each_use(&inst.op, |v| {
            if let Value::Const(c) = v {
                consts.push((k, c));
            }
            k += 1;
        });
        let mut inserted = 0;
        for (k, c) in consts {
            if !self.is_generic_const(c) {
                continue;
            }
            let v = match &inst.op {
                Op::Phi { incoming } => self.materialize(incoming[k].1 .0 as usize, None, c)?,
                _ => {
                    inserted += 2;
                    self.materialize(bi, Some(pos + inserted - 2), c)?
                }
            };
            let mut n = 0;
            ir::operands::for_each_operand_mut(&mut inst.op, |x| {
                if n == k {
                    *x = v;
                }
                n += 1;
            });
            self.body.insts[h].op = inst.op.clone();
        }
        if inserted > 0 {
            return Ok(Flow::Past(inserted));
        }
        let me = Value::Inst(h);
        match &inst.op {
            Op::Cast {
                op: CastOp::AddrSpaceCast | CastOp::Bitcast,
                value,
            } => {
                let (to, from) = (self.tagged.contains_key(&me), self.is_tagged(*value));
                match (to, from) {
                    (true, true) => self.substitute(bi, pos, h, *value),
                    (true, false) => {
                        // A pointer into a named space, made generic: its address, tagged.
                        let s = self
                            .space_of(self.ty_of(*value))
                            .unwrap_or(AddressSpace::Global);
                        let i64t = self.s.out.int_type(64);
                        let a = self.insert(
                            bi,
                            pos,
                            i64t,
                            Op::Cast {
                                op: CastOp::PtrToInt,
                                value: *value,
                            },
                        );
                        let tag = self.i64_const(tag_of(s) << 62);
                        self.body.insts[h].op = Self::binary(BinaryOp::Or, a, tag);
                        Ok(Flow::Past(2))
                    }
                    (false, true) => {
                        if let Value::Const(_) = value {
                            let null = self.s.out.constant(Constant {
                                ty: inst.ty,
                                kind: ConstantKind::Null,
                            });
                            return self.substitute(bi, pos, h, Value::Const(null));
                        }
                        let s = self.space_of(inst.ty).unwrap_or(AddressSpace::Global);
                        let (a, n) = self.address(bi, pos, *value, s);
                        self.body.insts[h].op = Op::Cast {
                            op: CastOp::IntToPtr,
                            value: a,
                        };
                        Ok(Flow::Past(n + 1))
                    }
                    (false, false) => Ok(Flow::Past(1)),
                }
            }
            Op::Cast {
                op: CastOp::PtrToInt,
                value,
            } if self.tagged.contains_key(value) => {
                if self.s.out.types[inst.ty] == (Type::Int { width: 64 }) {
                    return self.substitute(bi, pos, h, *value);
                }
                self.body.insts[h].op = Op::Cast {
                    op: CastOp::Trunc,
                    value: *value,
                };
                Ok(Flow::Past(1))
            }
            Op::Cast {
                op: CastOp::IntToPtr,
                value,
            } if self.tagged.contains_key(&me) => {
                if self.s.out.types[self.ty_of(*value)] == (Type::Int { width: 64 }) {
                    return self.substitute(bi, pos, h, *value);
                }
                self.body.insts[h].op = Op::Cast {
                    op: CastOp::ZExt,
                    value: *value,
                };
                Ok(Flow::Past(1))
            }
            Op::Gep { base, indices, .. } if self.is_tagged(*base) => {
                self.step_gep(bi, pos, h, *base, indices.clone())
            }
            Op::Builtin {
                builtin:
                    Builtin::Primitive(op @ (S::GenericCastToPtrExplicit | S::GenericPtrMemSemantics)),
                args,
            } if self.is_tagged(args[0]) => self.step_query(bi, pos, h, *op, args[0]),
            Op::Load { ptr, .. } | Op::Store { ptr, .. } if self.is_tagged(*ptr) => {
                self.dispatch(bi, pos, h, 0)
            }
            Op::Builtin { .. } | Op::CopyMemory { .. } | Op::FillMemory { .. } => {
                let mut ops = Vec::new();
                ir::operands::for_each_use(&inst.op, |v| ops.push(v));
                match ops.iter().position(|&v| self.tagged.contains_key(&v)) {
                    Some(k) => self.dispatch(bi, pos, h, k),
                    None => Ok(Flow::Past(1)),
                }
            }
            _ => Ok(Flow::Past(1)),
        }
    }

    /// Drop instruction `h` (at `pos` of `bi`), its uses taking `to`.
    fn substitute(&mut self, bi: usize, pos: usize, h: Handle<Inst>, to: Value) -> Result<Flow> {
        self.body.blocks[bi].insts.remove(pos);
        self.subst.insert(h, to);
        Ok(Flow::Same)
    }

    /// `getelementptr` of a tagged base: stepped as a global pointer would be.
    fn step_gep(
        &mut self,
        bi: usize,
        pos: usize,
        h: Handle<Inst>,
        base: Value,
        indices: Vec<Value>,
    ) -> Result<Flow> {
        let (Some(&(base_ty, _)), Some(&(res_ty, _))) =
            (self.tagged.get(&base), self.tagged.get(&Value::Inst(h)))
        else {
            return Err(Error::unsupported(
                "a step from a null generic pointer that points into different spaces \
                 depending on the run",
            ));
        };
        let gp = self.s.concrete(base_ty, AddressSpace::Global);
        let rp = self.s.concrete(res_ty, AddressSpace::Global);
        let p = self.insert(
            bi,
            pos,
            gp,
            Op::Cast {
                op: CastOp::IntToPtr,
                value: base,
            },
        );
        let q = self.insert(
            bi,
            pos + 1,
            rp,
            Op::Gep {
                inbounds: false,
                base: p,
                indices,
            },
        );
        self.body.insts[h].op = Op::Cast {
            op: CastOp::PtrToInt,
            value: q,
        };
        Ok(Flow::Past(3))
    }

    /// `to_global`/`to_local`/`to_private` (GenericCastToPtrExplicit) and `get_fence`
    /// (GenericPtrMemSemantics) of a tagged pointer: from its tag.
    fn step_query(
        &mut self,
        bi: usize,
        pos: usize,
        h: Handle<Inst>,
        op: S,
        v: Value,
    ) -> Result<Flow> {
        let ty = self.body.insts[h].ty;
        let tag = self.tag(bi, pos, v);
        if op == S::GenericCastToPtrExplicit {
            let to = self.space_of(ty).unwrap_or(AddressSpace::Global);
            let cond = self.tag_is(bi, pos + 1, tag, to);
            let (a, n) = self.address(bi, pos + 2, v, to);
            let p = self.insert(
                bi,
                pos + 2 + n,
                ty,
                Op::Cast {
                    op: CastOp::IntToPtr,
                    value: a,
                },
            );
            let null = self.s.out.constant(Constant {
                ty,
                kind: ConstantKind::Null,
            });
            self.body.insts[h].op = Op::Select {
                cond,
                on_true: p,
                on_false: Value::Const(null),
            };
            return Ok(Flow::Past(4 + n));
        }
        // OpGenericPtrMemSemantics' storage bits: WorkgroupMemory, CrossWorkgroupMemory.
        let local = self.tag_is(bi, pos + 1, tag, AddressSpace::Local);
        let global = self.tag_is(bi, pos + 2, tag, AddressSpace::Global);
        let [zero, wg, cwg] =
            [0u64, 0x100, 0x200].map(|b| Value::Const(self.s.out.int_const(ty, b)));
        let l = self.insert(
            bi,
            pos + 3,
            ty,
            Op::Select {
                cond: local,
                on_true: wg,
                on_false: zero,
            },
        );
        self.body.insts[h].op = Op::Select {
            cond: global,
            on_true: cwg,
            on_false: l,
        };
        Ok(Flow::Past(5))
    }

    fn new_block(&mut self, insts: Vec<Handle<Inst>>, terminator: Terminator) -> usize {
        self.body.blocks.push(Block {
            terminator_loc: None,
            name: None,
            insts,
            terminator,
            construct: None,
        });
        self.body.blocks.len() - 1
    }

    /// Split block `bi` at instruction `h` (position `pos`), whose operand `k` is a tagged
    /// pointer: a copy of it in a block per space, chosen by the tag, joined after.
    fn dispatch(&mut self, bi: usize, pos: usize, h: Handle<Inst>, k: usize) -> Result<Flow> {
        let inst = self.body.insts[h].clone();
        let mut ops = Vec::new();
        ir::operands::for_each_use(&inst.op, |v| ops.push(v));
        let v = ops[k];
        let Some(&(ty, spaces)) = self.tagged.get(&v) else {
            return Err(Error::unsupported(
                "an access through a null generic pointer",
            ));
        };
        // The block's rest, with its terminator, goes to a new block; successors' phis
        // now come from it.
        let rest = self.body.blocks[bi].insts.split_off(pos + 1);
        self.body.blocks[bi].insts.pop();
        let term = std::mem::replace(
            &mut self.body.blocks[bi].terminator,
            Terminator::Unreachable,
        );
        let tail = self.new_block(rest, term);
        for succ in self.body.blocks[tail].terminator.successors() {
            for i in self.body.blocks[succ].insts.clone() {
                if let Op::Phi { incoming } = &mut self.body.insts[i].op {
                    for (_, b) in incoming.iter_mut() {
                        if b.0 as usize == bi {
                            *b = BlockId(tail as u32);
                        }
                    }
                }
            }
        }
        // A block per space: the access through a pointer of that space.
        let mut arms = Vec::new();
        let mut results = Vec::new();
        for s in members(spaces) {
            let arm = self.new_block(Vec::new(), Terminator::Branch(BlockId(tail as u32)));
            let (a, _) = self.address(arm, 0, v, s);
            let pt = self.s.concrete(ty, s);
            let at = self.body.blocks[arm].insts.len();
            let p = self.insert(
                arm,
                at,
                pt,
                Op::Cast {
                    op: CastOp::IntToPtr,
                    value: a,
                },
            );
            let mut op = inst.op.clone();
            let mut n = 0;
            ir::operands::for_each_operand_mut(&mut op, |x| {
                if n == k {
                    *x = p;
                }
                n += 1;
            });
            let at = self.body.blocks[arm].insts.len();
            results.push((self.insert(arm, at, inst.ty, op), BlockId(arm as u32)));
            arms.push((s, arm));
        }
        if !matches!(self.s.out.types[inst.ty], Type::Void) {
            self.body.insts[h].op = Op::Phi { incoming: results };
            self.body.blocks[tail].insts.insert(0, h);
        }
        // The choice: the tag against each space's but the last.
        let at = self.body.blocks[bi].insts.len();
        let tag = self.tag(bi, at, v);
        let mut from = bi;
        for (i, &(s, arm)) in arms.iter().enumerate() {
            if i + 1 == arms.len() {
                break;
            }
            let at = self.body.blocks[from].insts.len();
            let cond = self.tag_is(from, at, tag, s);
            let next = if i + 2 == arms.len() {
                arms[i + 1].1
            } else {
                self.new_block(Vec::new(), Terminator::Unreachable)
            };
            self.body.blocks[from].terminator = Terminator::CondBranch {
                cond,
                on_true: BlockId(arm as u32),
                on_false: BlockId(next as u32),
            };
            from = next;
        }
        Ok(Flow::Split)
    }
}
