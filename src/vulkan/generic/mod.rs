//! Generic pointers (OpenCL C 2.0's unqualified pointers, C++ for OpenCL's `this` and
//! references) given the address space the program determines for them, before the
//! lowering: a Vulkan shader has no pointer that can point into more than one storage class.
//!
//! The Vulkan lowering inlines every call, so a generic pointer is always one of the pointers
//! it was made from. This pass finds, per function and per combination of its arguments'
//! spaces, which: the values whose types hold a generic pointer are joined into classes by
//! what moves a pointer unchanged (casts, getelementptr, phis, selects, loads and stores of
//! pointer variables, comparisons, calls and returns), and a class takes its space from a
//! cast of a named-space pointer to generic, a parameter of known space or a constant. Each
//! function is specialized for the spaces it is called with (`acc.private`, `acc.global`);
//! kernels keep their handles. The result is a copy of the module in which no reachable value
//! is generic: `to_global`/`to_local`/`to_private` and `get_fence` are answered statically.
//!
//! A pointer that points into two spaces depending on the run (a select or phi of a private
//! and a global pointer) is *tagged* under physical pointers (`tagged.rs`): a 64-bit
//! integer whose top bits say the space, each access a branch to the space's own. The files:
//! `classes.rs` (the classes of values and the spaces they take), `specializer.rs` (the
//! pass's state), `tagged.rs` (tagged pointers); this one the pass itself.
//!
//! Refused, by name: such a pointer under `--vulkan-pointers descriptors` (a buffer has no
//! address there); a generic pointer to a generic pointer; structs and arrays holding
//! generic pointers.

use crate::ir::Primitive as S;

mod classes;
mod specializer;
mod tagged;

use crate::diag::{Error, Result};
use crate::hash::HashMap;
use crate::ir::{
    self, AddressSpace, BinaryOp, Builtin, CastOp, Constant, ConstantKind, Handle, Op, Primitive,
    Terminator, Type, Value,
};
use classes::{place_of, words, Classes, Node, Place};
use specializer::{Sig, Specialized, Specializer};

/// A copy of `m` without reachable generic pointers, or `None` where `m` has none at all.
/// `tagging`: a pointer into spaces that differ by the run is tagged (physical pointers),
/// rather than refused.
pub(super) fn specialize(m: &ir::Module, tagging: bool) -> Result<Option<ir::Module>> {
    let generic = m.types.iter().any(|(_, t)| {
        matches!(
            t,
            Type::Pointer {
                space: AddressSpace::Generic,
                ..
            }
        )
    });
    if !generic {
        return Ok(None);
    }
    let mut s = Specializer {
        src: m,
        out: m.clone(),
        done: HashMap::default(),
        busy: Vec::new(),
        tagging,
    };
    for k in &m.kernels {
        let f = &m.functions[k.function];
        // Device-side enqueue's block literals hold generic pointers; say what has no form.
        if enqueues(m, k.function) {
            return Err(
                Error::unsupported("device-side enqueue has no Vulkan form").in_function(&f.name)
            );
        }
        s.function(k.function, vec![0; f.params.len()])
            .map_err(|e| e.in_function(&f.name))?;
    }
    Ok(Some(s.out))
}

impl Specializer<'_> {
    /// How many generic pointers a value of type `t` holds down its pointer chain; refused
    /// for more than one and for aggregates that hold one.
    fn levels(&self, t: Handle<Type>) -> Result<u32> {
        match &self.out.types[t] {
            Type::Pointer { space, pointee } => {
                Ok(u32::from(*space == AddressSpace::Generic) + self.levels(*pointee)?)
            }
            Type::Array { elem, .. } | Type::Vector { elem, .. } => {
                if self.levels(*elem)? > 0 {
                    return Err(Error::unsupported(
                        "an array holding generic pointers (their spaces are not inferred)",
                    ));
                }
                Ok(0)
            }
            Type::Struct {
                members: Some(ms), ..
            } => {
                for &m in ms {
                    if self.levels(m)? > 0 {
                        return Err(Error::unsupported(
                            "a struct holding a generic pointer (its space is not inferred)",
                        ));
                    }
                }
                Ok(0)
            }
            _ => Ok(0),
        }
        .and_then(|n| {
            if n > 1 {
                Err(Error::unsupported(
                    "a generic pointer to a generic pointer (its spaces are not inferred)",
                ))
            } else {
                Ok(n)
            }
        })
    }

    fn generic(&self, t: Handle<Type>) -> Result<bool> {
        Ok(self.levels(t)? > 0)
    }

    /// Type `t` with its generic pointer where `place` says: in a space, or tagged.
    fn retype(&mut self, t: Handle<Type>, place: Place) -> Handle<Type> {
        match place {
            Place::In(s) => self.concrete(t, s),
            Place::Tagged(_) => self.tagged_ty(t),
        }
    }

    /// Type `t` with its generic pointer in space `s`.
    pub(super) fn concrete(&mut self, t: Handle<Type>, s: AddressSpace) -> Handle<Type> {
        match self.out.types[t].clone() {
            Type::Pointer { space, pointee } => {
                let pointee = self.concrete(pointee, s);
                let space = if space == AddressSpace::Generic {
                    s
                } else {
                    space
                };
                self.out.ty(Type::Pointer { space, pointee })
            }
            _ => t,
        }
    }

    /// The named space a constant pointer points into, if it says.
    pub(super) fn const_space(&self, c: Handle<Constant>) -> Option<AddressSpace> {
        let named = |t: Handle<Type>| match self.out.types[t] {
            Type::Pointer { space, .. } if space != AddressSpace::Generic => Some(space),
            _ => None,
        };
        match &self.out.constants[c].kind {
            ConstantKind::GlobalAddress(g) => Some(self.out.globals[*g].space),
            ConstantKind::Cast(_, inner) | ConstantKind::Gep { base: inner, .. } => {
                named(self.out.constants[*inner].ty).or_else(|| self.const_space(*inner))
            }
            _ => None,
        }
    }

    /// Constant `c` with its generic pointer in space `s`.
    pub(super) fn concrete_const(
        &mut self,
        c: Handle<Constant>,
        s: AddressSpace,
    ) -> Handle<Constant> {
        let Constant { ty, kind } = self.out.constants[c].clone();
        let ty = self.concrete(ty, s);
        let kind = match kind {
            ConstantKind::Cast(CastOp::AddrSpaceCast | CastOp::Bitcast, inner) => {
                let inner = self.concrete_const(inner, s);
                if self.out.constants[inner].ty == ty {
                    return inner;
                }
                ConstantKind::Cast(CastOp::Bitcast, inner)
            }
            ConstantKind::Gep {
                base,
                indices,
                inbounds,
            } => ConstantKind::Gep {
                base: self.concrete_const(base, s),
                indices,
                inbounds,
            },
            k => k,
        };
        self.out.constant(Constant { ty, kind })
    }

    /// The node of operand `v` (number `k` of instruction `at`, or of the return) of a
    /// function with `params` and `body`, if its type holds a generic pointer; a constant
    /// that names its space anchors it.
    fn node(
        &self,
        c: &mut Classes,
        f: &ir::Function,
        v: Value,
        at: Node,
        k: usize,
    ) -> Result<Option<Node>> {
        let (n, constant) = match v {
            Value::Param(i) => (Node::Param(i), None),
            Value::Inst(h) => (Node::Inst(h), None),
            Value::Const(ch) => {
                let n = match at {
                    Node::Inst(h) => Node::Use(h, k),
                    _ => Node::RetUse(k),
                };
                (n, Some(ch))
            }
        };
        if !self.generic(value_ty(&self.out, f, v))? {
            return Ok(None);
        }
        c.id(n);
        if let Some(s) = constant.and_then(|ch| self.const_space(ch)) {
            c.anchor(n, s)?;
        }
        Ok(Some(n))
    }

    /// The copy of `f` for its generic parameters' spaces `sig` (`None`: not known), and
    /// the space of its generic result. A kernel is rewritten in place.
    fn function(&mut self, f: Handle<ir::Function>, sig: Sig) -> Result<Specialized> {
        if let Some(&r) = self.done.get(&(f, sig.clone())) {
            return Ok(r);
        }
        let src = self.src;
        let func = &src.functions[f];
        if func.body.is_none() {
            return Ok((f, 0));
        }
        if self.busy.contains(&f) {
            return Err(Error::unsupported(format!(
                "a recursive call of '{}' (OpenCL C forbids recursion)",
                func.name
            )));
        }
        self.busy.push(f);
        let r = self.specialize_body(f, &sig);
        self.busy.pop();
        let r = r.map_err(|e| e.in_function(&func.name))?;
        self.done.insert((f, sig), r);
        Ok(r)
    }

    fn specialize_body(&mut self, f: Handle<ir::Function>, sig: &Sig) -> Result<Specialized> {
        let src = self.src;
        let func = &src.functions[f];
        let body = func.body.as_ref().expect("a definition");
        let mut c = Classes {
            tagging: self.tagging,
            ..Classes::default()
        };
        let calls = self.classes(&mut c, func, sig)?;
        // Calls: each callee specialized for its arguments' spaces, its result's space
        // given to the call; again while that tells more.
        let mut callee_of = HashMap::default();
        loop {
            let mut news = false;
            for &h in &calls {
                let Op::Call { callee, args } = &body.insts[h].op else {
                    continue;
                };
                let mut sig = Vec::with_capacity(args.len());
                for (k, &a) in args.iter().enumerate() {
                    let n = self.node(&mut c, func, a, Node::Inst(h), k)?;
                    sig.push(n.map_or(0, |n| c.get(n)));
                }
                let (nh, ret) = self.function(*callee, sig)?;
                callee_of.insert(h, nh);
                if ret != 0 && self.generic(body.insts[h].ty)? {
                    news |= c.anchor_set(Node::Inst(h), ret)?;
                }
            }
            if !news {
                break;
            }
        }
        let ret_space = c.get(Node::Ret);
        let nf = self.rewrite(&mut c, func, &callee_of)?;
        let h = if func.is_kernel {
            self.out.functions[f] = nf;
            f
        } else {
            self.out.functions.append(nf)
        };
        Ok((h, ret_space))
    }

    /// Join `func`'s generic values into classes and anchor them; its calls.
    fn classes(
        &self,
        c: &mut Classes,
        func: &ir::Function,
        sig: &Sig,
    ) -> Result<Vec<Handle<ir::Inst>>> {
        let src = self.src;
        let body = func.body.as_ref().expect("a definition");
        let named = |t: Handle<Type>| match src.types[t] {
            Type::Pointer { space, .. } if space != AddressSpace::Generic => Some(space),
            _ => None,
        };
        for (i, p) in func.params.iter().enumerate() {
            if self.generic(p.ty)? {
                c.id(Node::Param(i as u32));
                if let Some(&s) = sig.get(i) {
                    c.anchor_set(Node::Param(i as u32), s)?;
                }
            }
        }
        let mut calls = Vec::new();
        for b in &body.blocks {
            for &h in &b.insts {
                let inst = &body.insts[h];
                let me = Node::Inst(h);
                let generic = self.generic(inst.ty)?;
                if generic {
                    c.id(me);
                }
                let mut ops = Vec::new();
                ir::operands::for_each_use(&inst.op, |v| ops.push(v));
                let mut nodes = Vec::with_capacity(ops.len());
                for (k, &v) in ops.iter().enumerate() {
                    nodes.push(self.node(c, func, v, me, k)?);
                }
                match &inst.op {
                    Op::Cast {
                        op: CastOp::Bitcast | CastOp::AddrSpaceCast,
                        value,
                    } => match (generic, nodes[0]) {
                        (true, Some(n)) => c.link(me, n)?,
                        (true, None) => {
                            if let Some(s) = named(value_ty(src, func, *value)) {
                                c.anchor(me, s)?;
                            }
                        }
                        // A cast back from generic: the pointer was in that space (or,
                        // where pointers are tagged, may be).
                        (false, Some(n)) => {
                            if let Some(s) = named(inst.ty) {
                                c.anchor(n, s).map_err(|_| {
                                    Error::unsupported(
                                        "a generic pointer cast to an address space it does not \
                                         point into",
                                    )
                                })?;
                            }
                        }
                        (false, None) => {}
                    },
                    Op::Gep { .. } | Op::Load { .. } | Op::Phi { .. } | Op::Select { .. }
                        if generic =>
                    {
                        for n in nodes.iter().flatten() {
                            c.link(me, *n)?;
                        }
                    }
                    Op::Store { .. } | Op::ICmp { .. } => {
                        if let (Some(a), Some(b)) = (nodes[0], nodes[1]) {
                            c.link(a, b)?;
                        }
                    }
                    Op::Call { .. } => calls.push(h),
                    _ => {}
                }
            }
            if let Terminator::Return(Some(v)) = &b.terminator {
                if let Some(n) = self.node(c, func, *v, Node::Ret, 0)? {
                    c.link(Node::Ret, n)?;
                }
            }
        }
        Ok(calls)
    }

    /// The constant operands of instruction `h` (null, undef, casts of globals) of a generic
    /// type, in the space of their class (a use's own class, else the instruction's).
    fn constant_operands(
        &mut self,
        c: &mut Classes,
        h: Handle<ir::Inst>,
        op: &mut Op,
    ) -> Result<()> {
        let mut k = 0;
        let mut consts = Vec::new();
        ir::operands::for_each_use(op, |v| {
            if let Value::Const(ch) = v {
                consts.push((k, ch));
            }
            k += 1;
        });
        let mut fixed = HashMap::default();
        for (k, ch) in consts {
            if self.generic(self.out.constants[ch].ty)? {
                let mut spaces = c.get(Node::Use(h, k));
                if spaces == 0 {
                    spaces = c.get(Node::Inst(h));
                }
                let nc = match place_of(spaces) {
                    Place::In(s) => self.concrete_const(ch, s),
                    Place::Tagged(_) => self.tagged_const(ch, false)?,
                };
                fixed.insert(k, nc);
            }
        }
        let mut k = 0;
        ir::operands::for_each_operand_mut(op, |v| {
            if let Some(&nc) = fixed.get(&k) {
                *v = Value::Const(nc);
            }
            k += 1;
        });
        Ok(())
    }

    /// `func` with every generic type given its class's space (global where nothing says).
    fn rewrite(
        &mut self,
        c: &mut Classes,
        func: &ir::Function,
        callee_of: &HashMap<Handle<ir::Inst>, Handle<ir::Function>>,
    ) -> Result<ir::Function> {
        let src = self.src;
        let body = func.body.as_ref().expect("a definition");
        let mut tagged = tagged::TaggedValues::default();
        let mut nf = func.clone();
        for (i, p) in nf.params.iter_mut().enumerate() {
            if self.generic(p.ty)? {
                let place = c.place(Node::Param(i as u32));
                tagged.note(&self.out, Value::Param(i as u32), p.ty, place);
                p.ty = self.retype(p.ty, place);
            }
        }
        if self.generic(func.ret)? {
            let place = c.place(Node::Ret);
            nf.ret = self.retype(func.ret, place);
        }
        if !func.is_kernel
            && func
                .params
                .iter()
                .any(|p| self.generic(p.ty).unwrap_or(false))
        {
            let spaces: Vec<&str> = nf
                .params
                .iter()
                .zip(&func.params)
                .filter(|(_, p)| self.generic(p.ty).unwrap_or(false))
                .map(|(n, _)| match self.out.types[n.ty] {
                    Type::Pointer { space, .. } => space_suffix(space),
                    _ => "tagged",
                })
                .collect();
            nf.name = format!("{}.{}", func.name, spaces.join("."));
        }
        let nb = nf.body.as_mut().expect("a definition");
        let u32t = self.out.int_type(32);
        for (h, inst) in body.insts.iter() {
            let me = Node::Inst(h);
            let mut new = inst.clone();
            if self.generic(inst.ty)? {
                let place = c.place(me);
                tagged.note(&self.out, Value::Inst(h), inst.ty, place);
                new.ty = self.retype(inst.ty, place);
            }
            match &mut new.op {
                Op::Alloca { allocated, .. } if self.generic(*allocated)? => {
                    let place = c.place(me);
                    *allocated = self.retype(*allocated, place);
                }
                Op::Cast { op, .. } if *op == CastOp::AddrSpaceCast => *op = CastOp::Bitcast,
                Op::Call { callee, .. } => {
                    if let Some(&nh) = callee_of.get(&h) {
                        *callee = nh;
                    }
                }
                Op::Builtin {
                    builtin:
                        Builtin::Primitive(
                            op @ (S::GenericCastToPtrExplicit | S::GenericPtrMemSemantics),
                        ),
                    args,
                } => {
                    // Answered from the space of the pointer asked about (at run time
                    // where it is tagged: `tagged.rs`).
                    let p = args[0];
                    let from = match self
                        .node(c, func, p, me, 0)?
                        .map_or(Place::In(AddressSpace::Global), |n| c.place(n))
                    {
                        Place::In(s) => s,
                        Place::Tagged(_) => {
                            nb.insts[h] = new;
                            continue;
                        }
                    };
                    new.op = if *op == S::GenericCastToPtrExplicit {
                        let to = match src.types[inst.ty] {
                            Type::Pointer { space, .. } => space,
                            _ => AddressSpace::Global,
                        };
                        // Into another space: NULL, which physical pointers and
                        // addressed memory can hold (logical pointers cannot).
                        let value = if from == to {
                            p
                        } else if self.tagging {
                            Value::Const(self.out.constant(Constant {
                                ty: inst.ty,
                                kind: ConstantKind::Null,
                            }))
                        } else {
                            return Err(Error::unsupported(format!(
                                "to_{} of a pointer into {} (OpenCL gives NULL, which a \
                                 Vulkan shader's logical pointers cannot hold; physical \
                                 pointers can)",
                                space_suffix(to),
                                words(from)
                            )));
                        };
                        Op::Cast {
                            op: CastOp::Bitcast,
                            value,
                        }
                    } else {
                        // OpGenericPtrMemSemantics' storage bits: WorkgroupMemory,
                        // CrossWorkgroupMemory.
                        let bits = match from {
                            AddressSpace::Local => 0x100,
                            AddressSpace::Private => 0,
                            _ => 0x200,
                        };
                        Op::Binary {
                            op: BinaryOp::Or,
                            lhs: Value::Const(self.out.int_const(u32t, bits)),
                            rhs: Value::Const(self.out.int_const(u32t, 0)),
                            flags: Default::default(),
                        }
                    };
                }
                _ => {}
            }
            self.constant_operands(c, h, &mut new.op)?;
            nb.insts[h] = new;
        }
        for b in &mut nb.blocks {
            if let Terminator::Return(Some(Value::Const(ch))) = &mut b.terminator {
                if self.generic(self.out.constants[*ch].ty)? {
                    *ch = match c.place(Node::Ret) {
                        Place::In(s) => self.concrete_const(*ch, s),
                        Place::Tagged(_) => self.tagged_const(*ch, true)?,
                    };
                }
            }
        }
        if !tagged.is_empty() {
            self.untag(&mut nf, &tagged)?;
        }
        Ok(nf)
    }
}

/// Whether kernel `k` or a function it calls enqueues a kernel.
fn enqueues(m: &ir::Module, k: Handle<ir::Function>) -> bool {
    m.reachable_functions(k).into_iter().any(|f| {
        m.functions[f].body.as_ref().is_some_and(|b| {
            b.insts.iter().any(|(_, i)| {
                matches!(
                    i.op,
                    Op::Builtin {
                        builtin: Builtin::Primitive(
                            Primitive::EnqueueKernel | Primitive::EnqueueMarker
                        ),
                        ..
                    }
                )
            })
        })
    })
}

/// The type of `v` in function `f`.
fn value_ty(m: &ir::Module, f: &ir::Function, v: Value) -> Handle<Type> {
    match v {
        Value::Param(i) => f.params[i as usize].ty,
        Value::Inst(h) => f.body.as_ref().expect("a definition").insts[h].ty,
        Value::Const(c) => m.constants[c].ty,
    }
}

fn space_suffix(s: AddressSpace) -> &'static str {
    match s {
        AddressSpace::Private => "private",
        AddressSpace::Local => "local",
        AddressSpace::Constant => "constant",
        _ => "global",
    }
}
