//! One function as OpenCL C: its signature, where each value lives (part of its user's
//! expression, a variable of its block, or one declared at the top), and its instructions.
//! The shape of the code (`if`, loops, `switch`, `goto`) is `control`'s.

use super::effects::{is_pure, repeats_operands};
use super::lanes::{index_const, lane_access};
use super::names::Scope;
use super::precedence::{Expr, Prec};
use super::types::declare;
use super::Writer;
use crate::diag::{Error, Result};
use crate::hash::{HashMap, HashSet};
use crate::ir::{self, BlockId, Function, Handle, Inst, Op, Type, Value};

/// Where a value lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Never used and without effect: not written.
    Dead,
    /// Part of its one user's expression.
    Inline,
    /// A variable declared where it is computed (every use is later in its block).
    Local,
    /// A variable declared at the top of the function.
    Hoisted,
    /// An instruction without a result, or whose result no one uses: a statement.
    Stmt,
    /// A private variable (`alloca`): declared at the top, its value is its address.
    Var,
    /// Another value under a second name: a load of a private variable that only ever holds
    /// one image or sampler (OpenCL C has no variables of those types).
    Alias(Value),
}

/// The writer of one function.
pub struct FnWriter<'w, 'm> {
    pub w: &'w mut Writer<'m>,
    pub f: &'m Function,
    pub body: &'m ir::Body,
    scope: Scope,
    params: Vec<Expr>,
    pub kind: HashMap<Handle<Inst>, Kind>,
    names: HashMap<Handle<Inst>, String>,
    inline: HashMap<Handle<Inst>, Expr>,
    /// The object's pointer of each inline pointer pun (`pointer_pun`), for its one user.
    pub punned: HashMap<Handle<Inst>, Expr>,
    pub decls: Vec<String>,
    pub block_names: Vec<String>,
    pub labels: HashSet<BlockId>,
    /// The packet type of each pipe parameter.
    pub pipe_packets: HashMap<u32, String>,
    /// Byte copies that copy one object of a type to another of that type: (destination
    /// cast, source cast), written as an assignment.
    pub copies: HashMap<Handle<Inst>, (Value, Value)>,
    /// Kernel parameters declared as pointers to `const` (the source's qualifier).
    const_params: HashSet<u32>,
    /// Pointers derived from them (steps, casts, selects, phis): their variables are
    /// declared pointers to `const` too, and they are cast where a plain pointer is expected.
    tainted: HashSet<Handle<Inst>>,
}

impl<'w, 'm> FnWriter<'w, 'm> {
    /// The writer of function `f` (whose body is `body`), its names taken in `scope`, its
    /// parameters' expressions `params`.
    pub fn new(
        w: &'w mut Writer<'m>,
        f: &'m Function,
        body: &'m ir::Body,
        scope: Scope,
        params: Vec<Expr>,
        pipe_packets: HashMap<u32, String>,
        const_params: HashSet<u32>,
    ) -> Self {
        FnWriter {
            w,
            f,
            body,
            scope,
            params,
            kind: HashMap::default(),
            names: HashMap::default(),
            inline: HashMap::default(),
            punned: HashMap::default(),
            decls: Vec::new(),
            block_names: Vec::new(),
            labels: HashSet::default(),
            pipe_packets,
            copies: HashMap::default(),
            const_params,
            tainted: HashSet::default(),
        }
    }

    /// Which instructions hold a pointer derived from a `const` parameter.
    fn taint(&mut self) {
        if !self.const_params.is_empty() {
            self.tainted = derived_pointers(self.w.m, self.body, &self.const_params);
        }
    }

    /// Whether a value is a pointer to `const` data (a `const` parameter or derived from one).
    pub fn is_const_pointer(&self, v: Value) -> bool {
        match v {
            Value::Param(i) => self.const_params.contains(&i),
            Value::Inst(h) => match self.kind.get(&h) {
                Some(&Kind::Alias(x)) => self.is_const_pointer(x),
                _ => self.tainted.contains(&h),
            },
            Value::Const(_) => false,
        }
    }

    /// The declared type of an instruction's variable: a pointer to `const` where it holds
    /// one derived from a `const` parameter.
    pub fn var_type(&mut self, h: Handle<Inst>) -> Result<String> {
        let ty = self.body.insts[h].ty;
        let name = self.w.type_name(ty)?;
        let m = self.w.m;
        let const_data = self.tainted.contains(&h)
            && matches!(m.types[ty], Type::Pointer { pointee, .. }
                if !matches!(m.types[pointee], Type::Pointer { .. }));
        Ok(if const_data {
            format!("const {name}")
        } else {
            name
        })
    }

    /// `e` as a plain pointer where it is a pointer to `const` (for a store of the pointer,
    /// or an argument of a function that takes a plain one).
    pub fn plain_pointer(&mut self, v: Value, e: Expr) -> Result<Expr> {
        if !self.is_const_pointer(v) {
            return Ok(e);
        }
        let t = self.w.type_name(self.type_of(v))?;
        Ok(Expr::cast(&t, &e))
    }

    /// A fresh name in the function's scope for what the input called `wanted`.
    pub fn fresh_name(&mut self, wanted: &str, fallback: &str) -> String {
        self.scope.fresh(Some(wanted), fallback)
    }

    /// Decide where each value lives, name the variables and the blocks.
    pub fn place_values(&mut self) -> Result<()> {
        let body = self.body;
        self.taint();
        let forwarded = self.object_variables();
        // (user block, position) of every use; phi operands are used at the end of the
        // predecessor they come from.
        let mut uses: HashMap<Handle<Inst>, Vec<(usize, usize)>> = HashMap::default();
        for (bi, b) in body.blocks.iter().enumerate() {
            let end = b.insts.len();
            for (ii, &h) in b.insts.iter().enumerate() {
                let op = &body.insts[h].op;
                let weight = if repeats_operands(op) { 2 } else { 1 };
                if let Op::Phi { incoming } = op {
                    for (v, from) in incoming {
                        if let Value::Inst(u) = v {
                            uses.entry(*u).or_default().push((from.0 as usize, end + 1));
                        }
                    }
                    continue;
                }
                ir::operands::for_each_use(op, |v| {
                    if let Value::Inst(u) = v {
                        for _ in 0..weight {
                            uses.entry(u).or_default().push((bi, ii));
                        }
                    }
                });
            }
            ir::operands::terminator_operands(&b.terminator, |v| {
                if let Value::Inst(u) = v {
                    uses.entry(u).or_default().push((bi, end));
                }
            });
        }
        self.copies = self.typed_copies(&uses);
        let mut aliased: HashMap<Handle<Inst>, Value> = HashMap::default();
        for &(d, s) in self.copies.values() {
            for v in [d, s] {
                if let Value::Inst(c) = v {
                    if let Op::Cast { value, .. } = &body.insts[c].op {
                        aliased.insert(c, *value);
                    }
                }
            }
        }
        for (bi, b) in body.blocks.iter().enumerate() {
            for (ii, &h) in b.insts.iter().enumerate() {
                let inst = &body.insts[h];
                let us = uses.get(&h).map(Vec::as_slice).unwrap_or(&[]);
                let void = matches!(self.w.m.types[inst.ty], Type::Void);
                let kind = match &inst.op {
                    op if op.is_debug() => Kind::Dead,
                    _ if aliased.contains_key(&h) => Kind::Alias(aliased[&h]),
                    Op::Alloca { .. } if forwarded.contains_key(&h) => Kind::Dead,
                    Op::Store {
                        ptr: Value::Inst(p),
                        ..
                    } if forwarded.contains_key(p) => Kind::Dead,
                    Op::Load {
                        ptr: Value::Inst(p),
                        ..
                    } if forwarded.contains_key(p) => Kind::Alias(forwarded[p]),
                    Op::Alloca { .. } => Kind::Var,
                    Op::Phi { .. } => Kind::Hoisted,
                    _ if void => Kind::Stmt,
                    op if us.is_empty() => {
                        if is_pure(op) {
                            Kind::Dead
                        } else {
                            Kind::Stmt
                        }
                    }
                    op if us.len() == 1
                        && us[0].0 == bi
                        && us[0].1 > ii
                        && is_pure(op)
                        && (!matches!(op, Op::Load { .. })
                            || !self.effects_between(bi, ii, us[0].1)) =>
                    {
                        Kind::Inline
                    }
                    _ if us.iter().all(|&(ub, up)| ub == bi && up > ii) => Kind::Local,
                    _ => Kind::Hoisted,
                };
                let kind = match (&inst.op, kind) {
                    (Op::InsertElement { .. } | Op::InsertValue { .. }, Kind::Inline) => {
                        Kind::Local
                    }
                    (_, k) => k,
                };
                self.kind.insert(h, kind);
                if matches!(kind, Kind::Local | Kind::Hoisted | Kind::Var | Kind::Stmt) && !void {
                    let n = self.scope.fresh(inst.name.as_deref(), "t");
                    self.names.insert(h, n);
                }
            }
        }
        for (bi, b) in body.blocks.iter().enumerate() {
            let n = self.scope.fresh(b.name.as_deref(), &format!("bb{bi}"));
            self.block_names.push(n);
            for &h in &b.insts {
                let inst = &body.insts[h];
                match self.kind[&h] {
                    Kind::Hoisted => {
                        let ty = self.var_type(h)?;
                        let d = declare(&ty, &self.names[&h]);
                        self.decls.push(format!("{d};"));
                    }
                    Kind::Var => {
                        let Op::Alloca { allocated, align } = &inst.op else {
                            continue;
                        };
                        let ty = self.w.type_name(*allocated)?;
                        let m = self.w.m;
                        let al = align
                            .filter(|&a| u64::from(a) > m.align_of(*allocated))
                            .map(|a| format!(" __attribute__((aligned({a})))"))
                            .unwrap_or_default();
                        let d = declare(&ty, &self.names[&h]);
                        self.decls.push(format!("{d}{al};"));
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Private variables of an image or sampler type that are stored once, with an argument
    /// or constant, and otherwise only loaded: the value each holds.
    fn object_variables(&self) -> HashMap<Handle<Inst>, Value> {
        let m = self.w.m;
        let body = self.body;
        let mut stored: HashMap<Handle<Inst>, Vec<Value>> = HashMap::default();
        let mut escapes: HashSet<Handle<Inst>> = HashSet::default();
        for (h, inst) in body.insts.iter() {
            if let Op::Alloca { allocated, .. } = &inst.op {
                if m.types[*allocated].is_opencl_object() {
                    stored.entry(h).or_default();
                }
            }
        }
        for (_, inst) in body.insts.iter() {
            match &inst.op {
                Op::Store {
                    ptr: Value::Inst(p),
                    value,
                    ..
                } if stored.contains_key(p) => {
                    stored.entry(*p).or_default().push(*value);
                    if let Value::Inst(v) = value {
                        if stored.contains_key(v) {
                            escapes.insert(*v);
                        }
                    }
                }
                Op::Load { .. } => {}
                op if !op.is_debug() => ir::operands::for_each_operand(op, |v| {
                    if let Value::Inst(v) = v {
                        escapes.insert(v);
                    }
                }),
                _ => {}
            }
        }
        // A stored value may itself be a load of such a variable (-O0 copies an argument's
        // variable into another): resolved until nothing changes.
        let mut forwarded: HashMap<Handle<Inst>, Value> = HashMap::default();
        loop {
            let mut changed = false;
            for (h, vs) in &stored {
                if escapes.contains(h) || forwarded.contains_key(h) {
                    continue;
                }
                let [v] = vs[..] else { continue };
                let v = match v {
                    Value::Inst(l) => match &body.insts[l].op {
                        Op::Load {
                            ptr: Value::Inst(p),
                            ..
                        } => forwarded.get(p).copied(),
                        _ => None,
                    },
                    v => Some(v),
                };
                if let Some(v) = v {
                    forwarded.insert(*h, v);
                    changed = true;
                }
            }
            if !changed {
                return forwarded;
            }
        }
    }

    /// `memcpy` of exactly one object between two pointers of one type, each cast to bytes
    /// for the copy alone: an assignment of the object (`o = src[i];`).
    fn typed_copies(
        &self,
        uses: &HashMap<Handle<Inst>, Vec<(usize, usize)>>,
    ) -> HashMap<Handle<Inst>, (Value, Value)> {
        let m = self.w.m;
        let body = self.body;
        let mut out = HashMap::default();
        for (h, inst) in body.insts.iter() {
            let Op::CopyMemory {
                dst,
                src,
                size: Value::Const(n),
                volatile: false,
                ..
            } = &inst.op
            else {
                continue;
            };
            let Some(n) = super::constants::const_index(m, *n) else {
                continue;
            };
            // The pointee a side copies: through a cast to bytes made for this copy alone.
            let typed = |v: &Value| -> Option<Handle<Type>> {
                if let Value::Inst(c) = v {
                    if let Op::Cast {
                        op: ir::CastOp::Bitcast,
                        value,
                    } = &body.insts[*c].op
                    {
                        let load = matches!(value, Value::Inst(x)
                            if matches!(body.insts[*x].op, Op::Load { .. }));
                        if uses.get(c).map_or(0, Vec::len) != 1 || load {
                            return None;
                        }
                        return m.pointee(m.value_type(self.f, *value));
                    }
                }
                m.pointee(m.value_type(self.f, *v))
            };
            match (typed(dst), typed(src)) {
                (Some(a), Some(b))
                    if a == b
                        && m.size_of(a) == n as u64
                        && matches!(m.types[a], Type::Struct { .. } | Type::Vector { .. }) =>
                {
                    out.insert(h, (*dst, *src));
                }
                _ => {}
            }
        }
        out
    }

    /// Whether an instruction of block `b` after position `from` and before `to` writes
    /// memory or calls.
    fn effects_between(&self, b: usize, from: usize, to: usize) -> bool {
        let insts = &self.body.blocks[b].insts;
        let end = to.min(insts.len());
        insts[from + 1..end].iter().any(|&h| {
            let op = &self.body.insts[h].op;
            !is_pure(op) && !op.is_debug() && !matches!(op, Op::Alloca { .. } | Op::Phi { .. })
        })
    }

    /// The expression of an operand.
    pub fn operand(&mut self, v: Value) -> Result<Expr> {
        match v {
            Value::Param(i) => self
                .params
                .get(i as usize)
                .cloned()
                .ok_or_else(|| Error::malformed(format!("parameter {i} out of range"))),
            Value::Const(c) => self.w.constant(c),
            Value::Inst(h) => match self.kind.get(&h) {
                Some(Kind::Inline) => self
                    .inline
                    .remove(&h)
                    .ok_or_else(|| Error::internal("a value used before it is computed")),
                Some(Kind::Var) => Ok(Expr::unary("&", &Expr::atom(self.names[&h].clone()))),
                Some(&Kind::Alias(v)) => self.operand(v),
                Some(_) => self
                    .names
                    .get(&h)
                    .map(|n| Expr::atom(n.clone()))
                    .ok_or_else(|| Error::internal("a use of a value without a result")),
                None => Err(Error::internal("a use of an instruction of no block")),
            },
        }
    }

    /// A variable of type `ty` declared at the top of the function, for an expression that
    /// needs one (a compare-exchange's expected value).
    pub fn temporary(&mut self, ty: &str, wanted: &str) -> String {
        let name = self.scope.fresh(Some(wanted), "tmp");
        self.decls.push(format!("{};", declare(ty, &name)));
        name
    }

    /// The name of variable `h` (an `alloca` written as a variable).
    pub fn variable_name(&self, h: Handle<Inst>) -> Option<String> {
        self.names.get(&h).cloned()
    }

    /// The value an operand stands for (through loads of variables that hold one image,
    /// sampler or pipe).
    pub fn resolve(&self, v: Value) -> Value {
        match v {
            Value::Inst(h) => match self.kind.get(&h) {
                Some(&Kind::Alias(x)) => self.resolve(x),
                _ => v,
            },
            v => v,
        }
    }

    /// The type of an operand.
    pub fn type_of(&self, v: Value) -> Handle<Type> {
        self.w.m.value_type(self.f, v)
    }

    /// The phi variables of the function an operand's expression reads (through the values
    /// folded into it).
    pub fn phi_reads(&self, v: Value, out: &mut Vec<Handle<Inst>>) {
        let Value::Inst(h) = v else { return };
        match self.kind.get(&h) {
            Some(Kind::Inline) => {
                ir::operands::for_each_use(&self.body.insts[h].op, |u| self.phi_reads(u, out))
            }
            _ if matches!(self.body.insts[h].op, Op::Phi { .. }) => out.push(h),
            _ => {}
        }
    }

    /// The variable name of a value that has one.
    pub fn name_of(&self, h: Handle<Inst>) -> Option<&str> {
        self.names.get(&h).map(String::as_str)
    }

    /// The statements of one instruction (none when it moves into its user).
    pub fn instruction(&mut self, h: Handle<Inst>, out: &mut Vec<String>) -> Result<()> {
        let inst = &self.body.insts[h];
        let kind = self.kind[&h];
        if matches!(kind, Kind::Dead | Kind::Var | Kind::Alias(_))
            || matches!(inst.op, Op::Phi { .. })
        {
            return Ok(());
        }
        let value = match &inst.op {
            Op::Store {
                ptr,
                value,
                volatile,
                ..
            } => {
                let v = self.operand(*value)?;
                let v = self.plain_pointer(*value, v)?;
                let (pt, p, v) = match self.take_pun(*ptr, *volatile) {
                    Some((object, p, held)) => {
                        let held = self.w.type_name(held)?;
                        (self.type_of(object), p, Expr::cast(&held, &v))
                    }
                    None => (self.type_of(*ptr), self.operand(*ptr)?, v),
                };
                let place = self.place(pt, p, *volatile)?;
                out.push(format!("{place} = {};", v.text));
                return Ok(());
            }
            Op::InsertElement {
                vector,
                element,
                index,
            } => {
                let v = self.operand(*vector)?;
                let e = self.operand(*element)?;
                let i = self.operand(*index)?;
                let name = self.names[&h].clone();
                let vt = self.type_of(*vector);
                let e = self.lane_value(vt, e);
                self.assign(h, kind, v, out)?;
                let lane = lane_access(&name, index_const(self.w.m, *index), &i);
                out.push(format!("{lane} = {};", e.text));
                return Ok(());
            }
            Op::InsertValue {
                aggregate,
                element,
                indices,
            } => {
                let a = self.operand(*aggregate)?;
                let e = self.operand(*element)?;
                let name = self.names[&h].clone();
                let at = self.type_of(*aggregate);
                let path = self.member_path(at, indices)?;
                self.assign(h, kind, a, out)?;
                out.push(format!("{name}{path} = {};", e.text));
                return Ok(());
            }
            op => self.expression(h, op)?,
        };
        let Some(value) = value else { return Ok(()) };
        match kind {
            Kind::Inline => {
                self.inline.insert(h, value);
            }
            Kind::Stmt if self.names.contains_key(&h) => self.assign(h, Kind::Local, value, out)?,
            Kind::Stmt => out.push(format!("{};", value.text)),
            _ => self.assign(h, kind, value, out)?,
        }
        Ok(())
    }

    /// `T name = value;` or `name = value;`.
    fn assign(
        &mut self,
        h: Handle<Inst>,
        kind: Kind,
        value: Expr,
        out: &mut Vec<String>,
    ) -> Result<()> {
        let name = self.names[&h].clone();
        if kind == Kind::Local || kind == Kind::Stmt {
            let ty = self.var_type(h)?;
            out.push(format!("{} = {};", declare(&ty, &name), value.text));
        } else {
            out.push(format!("{name} = {};", value.text));
        }
        Ok(())
    }

    /// Where `ptr` casts a pointer to an object that holds a pointer into one that reads it
    /// as another pointer of the same space (`(Node **)&n.next` where `next` is a `uchar *`):
    /// the cast pointer and the pointer type the object holds. A load or store through it
    /// is written on the object itself with the value cast (`n.next = (uchar *)v`): storing
    /// through the cast is type punning, which a driver's alias analysis may reorder (the
    /// Intel runtime read a list's `next` before the store and crashed on it).
    pub fn pointer_pun(&self, ptr: Value, volatile: bool) -> Option<(Value, Handle<Type>)> {
        let m = self.w.m;
        let Value::Inst(c) = ptr else { return None };
        if self.kind.get(&c) != Some(&Kind::Inline) {
            return None;
        }
        let Op::Cast {
            op: ir::CastOp::Bitcast,
            value: object,
        } = self.body.insts[c].op
        else {
            return None;
        };
        let pointee = |t: Handle<Type>| match m.types[t] {
            Type::Pointer { pointee, .. } => Some(pointee),
            _ => None,
        };
        let space = |t: Handle<Type>| match m.types[t] {
            Type::Pointer { space, .. } => Some(space),
            _ => None,
        };
        let read_as = pointee(self.type_of(ptr))?;
        let held = pointee(self.type_of(object))?;
        let same_space = space(read_as).is_some() && space(read_as) == space(held);
        (!volatile && same_space).then_some((object, held))
    }

    /// For a load or store through pointer pun `ptr` (`pointer_pun`): the object's pointer,
    /// its expression (in place of the cast's) and the pointer type the object holds.
    pub fn take_pun(&mut self, ptr: Value, volatile: bool) -> Option<(Value, Expr, Handle<Type>)> {
        let (object, held) = self.pointer_pun(ptr, volatile)?;
        let Value::Inst(c) = ptr else { return None };
        let p = self.punned.remove(&c)?;
        self.inline.remove(&c);
        Some((object, p, held))
    }

    /// The object a pointer of type `pt` designates, as an lvalue (`x`, `p[i].m1`, `*p`).
    pub fn place(&mut self, pt: Handle<Type>, p: Expr, volatile: bool) -> Result<String> {
        if volatile {
            let t = self.w.type_name(pt)?;
            let star = t.rfind('*').unwrap_or(t.len());
            return Ok(format!(
                "*(volatile {} *){}",
                t[..star].trim_end(),
                p.at(Prec::Unary)
            ));
        }
        Ok(match p.text.strip_prefix('&') {
            Some(rest) if p.prec == Prec::Unary && !rest.starts_with('&') => rest.to_string(),
            _ => format!("*{}", p.at(Prec::Unary)),
        })
    }

    /// A lane's value as a vector of that type holds it: a truth value in an int vector is
    /// -1 or 0.
    fn lane_value(&mut self, vt: Handle<Type>, e: Expr) -> Expr {
        match self.w.shape(vt) {
            (n, super::ops::Shape::Bool) if n > 1 => {
                Expr::cond(&e, &Expr::atom("-1"), &Expr::atom("0"))
            }
            _ => e,
        }
    }
}

/// The instructions of `body` that hold a pointer derived from one of the parameters
/// `params` (by steps, casts, selects and phis), grown until no more are found: a block may
/// come before the one its operand is made in.
pub(super) fn derived_pointers(
    m: &ir::Module,
    body: &ir::Body,
    params: &HashSet<u32>,
) -> HashSet<Handle<Inst>> {
    let mut derived: HashSet<Handle<Inst>> = HashSet::default();
    let is_derived = |v: Value, derived: &HashSet<Handle<Inst>>| match v {
        Value::Param(i) => params.contains(&i),
        Value::Inst(h) => derived.contains(&h),
        Value::Const(_) => false,
    };
    loop {
        let mut changed = false;
        for (h, inst) in body.insts.iter() {
            if derived.contains(&h) || !matches!(m.types[inst.ty], Type::Pointer { .. }) {
                continue;
            }
            let from = match &inst.op {
                Op::Gep { base, .. } => is_derived(*base, &derived),
                Op::Cast {
                    op: ir::CastOp::Bitcast | ir::CastOp::AddrSpaceCast,
                    value,
                } => is_derived(*value, &derived),
                Op::Select {
                    on_true, on_false, ..
                } => is_derived(*on_true, &derived) || is_derived(*on_false, &derived),
                Op::Phi { incoming } => incoming.iter().any(|(v, _)| is_derived(*v, &derived)),
                _ => false,
            };
            if from {
                derived.insert(h);
                changed = true;
            }
        }
        if !changed {
            return derived;
        }
    }
}
