//! One function as OpenCL C: its signature, where each value lives (part of its user's
//! expression, a variable of its block, or one declared at the top), and its instructions.
//! The shape of the code (`if`, loops, `switch`, `goto`) is `control`'s.

use super::expr::{Expr, Prec};
use super::names::Scope;
use super::types::declare;
use super::Writer;
use crate::diag::{Error, Result};
use crate::hash::{HashMap, HashSet};
use crate::ir::{
    self, AddressSpace, BlockId, ConstantKind, Function, Handle, Inst, Op, Terminator, Type, Value,
};

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
    pub decls: Vec<String>,
    pub block_names: Vec<String>,
    pub labels: HashSet<BlockId>,
    /// The packet type of each pipe parameter.
    pub pipe_packets: HashMap<u32, String>,
    /// Byte copies that copy one object of a type to another of that type: (destination
    /// cast, source cast), written as an assignment.
    copies: HashMap<Handle<Inst>, (Value, Value)>,
}

/// A program-scope variable OpenCL C declares in functions, and the functions that do.
pub type LocalUsers = (Handle<ir::Global>, HashSet<Handle<Function>>);

/// The functions that declare each program-scope variable OpenCL C cannot hold at program
/// scope: a `__local` one in each kernel that uses it (a use from another function is an
/// error), a private one (SPIR 1.2 producers' tables and strings) as a copy in each function
/// that uses it, which is exact for constants and for a variable one kernel alone uses.
pub fn local_variable_users(m: &ir::Module) -> Result<Vec<LocalUsers>> {
    let mut users: Vec<LocalUsers> = Vec::new();
    for (g, gv) in m.globals.iter() {
        if !matches!(gv.space, AddressSpace::Local | AddressSpace::Private) {
            continue;
        }
        let mut set = HashSet::default();
        for (h, f) in m.functions.iter() {
            let Some(body) = &f.body else { continue };
            let mut uses = false;
            for (_, inst) in body.insts.iter() {
                ir::operands::for_each_operand(&inst.op, |v| {
                    if let Value::Const(c) = v {
                        uses |= mentions_global(m, c, g);
                    }
                });
            }
            if uses {
                if !f.is_kernel && gv.space == AddressSpace::Local {
                    return Err(Error::unsupported(format!(
                        "function '{}' uses the __local variable '{}', which OpenCL C can \
                         only declare in a kernel",
                        f.name, gv.name
                    )));
                }
                set.insert(h);
            }
        }
        let one_kernel = set.len() <= 1 && set.iter().all(|&h| m.functions[h].is_kernel);
        if gv.space == AddressSpace::Private && !gv.is_constant && !one_kernel {
            return Err(Error::unsupported(format!(
                "the private program-scope variable '{}', written and used by several functions \
                 (OpenCL C has private variables only in functions)",
                gv.name
            )));
        }
        users.push((g, set));
    }
    Ok(users)
}

fn mentions_global(m: &ir::Module, c: Handle<ir::Constant>, g: Handle<ir::Global>) -> bool {
    match &m.constants[c].kind {
        ConstantKind::GlobalAddress(x) => *x == g,
        ConstantKind::Cast(_, inner) => mentions_global(m, *inner, g),
        ConstantKind::Gep { base, .. } => mentions_global(m, *base, g),
        ConstantKind::Composite(parts) => parts.iter().any(|&p| mentions_global(m, p, g)),
        _ => false,
    }
}

/// Whether an operation has no effect but its value (so it may move into its user).
fn is_pure(op: &Op) -> bool {
    match op {
        Op::Binary { .. }
        | Op::FNeg(_)
        | Op::ICmp { .. }
        | Op::FCmp { .. }
        | Op::Cast { .. }
        | Op::Select { .. }
        | Op::Gep { .. }
        | Op::ExtractElement { .. }
        | Op::Shuffle { .. }
        | Op::ExtractValue { .. }
        | Op::Load {
            volatile: false, ..
        } => true,
        Op::Builtin { builtin, .. } => super::builtins::is_pure(builtin),
        _ => false,
    }
}

/// Operations that mention an operand more than once in their expression.
fn repeats_operands(op: &Op) -> bool {
    matches!(op, Op::Shuffle { .. })
}

/// Write function `h`: its prototype, and its definition if it has a body. `locals` are the
/// `__local` program-scope variables it declares (a kernel's).
pub fn write(
    w: &mut Writer<'_>,
    h: Handle<Function>,
    locals: &[Handle<ir::Global>],
) -> Result<(String, Option<String>)> {
    let m = w.m;
    let f = &m.functions[h];
    let fname = w.functions[&h].clone();
    let mut scope = w.scope.clone();
    let kernel = m.kernels.iter().find(|k| k.function == h);
    let pipe_packets = super::pipes::packet_types(m, f, kernel)?;
    let mut params = Vec::new();
    let mut decl_params = Vec::new();
    for (i, p) in f.params.iter().enumerate() {
        let info = kernel.and_then(|k| k.args.get(i));
        let wanted = info.and_then(|a| a.name.as_deref()).or(p.name.as_deref());
        let name = scope.fresh(wanted, &format!("arg{i}"));
        let mut ty = match (&m.types[p.ty], pipe_packets.get(&(i as u32))) {
            (Type::Pipe(access), Some(packet)) => {
                w.needs.version(2, 0, "pipes");
                let q = match access {
                    ir::Access::WriteOnly => "write_only",
                    _ => "read_only",
                };
                format!("{q} pipe {packet}")
            }
            _ => w.type_name(p.ty)?,
        };
        let mut expr = Expr::atom(name.clone());
        if let (Some(a), Type::Pointer { .. }) = (info, &m.types[p.ty]) {
            // The argument's qualifiers as the source wrote them; the body uses the pointer
            // without them (a cast), as the graph's types do.
            let q = &a.qualifiers;
            if q.is_const || q.is_volatile {
                let plain = ty.clone();
                let star = ty.rfind('*').unwrap_or(ty.len());
                let mut pointee = ty[..star].trim_end().to_string();
                if q.is_volatile {
                    pointee = format!("volatile {pointee}");
                }
                if q.is_const && a.space != AddressSpace::Constant {
                    pointee = format!("const {pointee}");
                }
                ty = format!("{pointee} *");
                if ty != plain {
                    expr = Expr::cast(&plain, &Expr::atom(name.clone()));
                }
            }
            if q.is_restrict {
                ty = format!("{ty}restrict ");
            }
        }
        if let (Some(a), Type::Image(_)) = (info, &m.types[p.ty]) {
            let _ = a;
        }
        decl_params.push(declare(&ty, &name));
        params.push(expr);
    }
    let ret = w.type_name(f.ret)?;
    let mut proto = String::new();
    if f.is_kernel {
        proto.push_str("__kernel ");
        if let Some(k) = kernel {
            proto.push_str(&kernel_attributes(w, k)?);
        }
    }
    let params_text = if decl_params.is_empty() {
        "void".to_string()
    } else {
        decl_params.join(", ")
    };
    proto.push_str(&format!("{ret} {fname}({params_text})"));
    let Some(body) = &f.body else {
        return Ok((proto, None));
    };
    let mut fw = FnWriter {
        w,
        f,
        body,
        scope,
        params,
        kind: HashMap::default(),
        names: HashMap::default(),
        inline: HashMap::default(),
        decls: Vec::new(),
        block_names: Vec::new(),
        labels: HashSet::default(),
        pipe_packets,
        copies: HashMap::default(),
    };
    for &g in locals {
        let gv = &m.globals[g];
        let name = fw.scope.fresh(Some(&gv.name), "local");
        let ty = fw.w.type_name(gv.ty)?;
        let decl = if gv.space == AddressSpace::Local {
            format!("__local {};", declare(&ty, &name))
        } else {
            let init = match gv.init {
                Some(c) => format!(" = {}", fw.w.initializer(c)?),
                None => String::new(),
            };
            format!("{}{init};", declare(&ty, &name))
        };
        fw.decls.push(decl);
        fw.w.globals.insert(g, name);
    }
    fw.place_values()?;
    let code = super::control::write_body(&mut fw)?;
    for &g in locals {
        fw.w.globals.remove(&g);
    }
    let mut text = format!("{proto} {{\n");
    for d in &fw.decls {
        text.push_str(&format!("  {d}\n"));
    }
    text.push_str(&code);
    text.push_str("}\n");
    Ok((proto, Some(text)))
}

fn kernel_attributes(w: &mut Writer<'_>, k: &ir::Kernel) -> Result<String> {
    let mut s = String::new();
    if let Some([x, y, z]) = k.reqd_work_group_size {
        s.push_str(&format!(
            "__attribute__((reqd_work_group_size({x}, {y}, {z}))) "
        ));
    }
    if let Some([x, y, z]) = k.work_group_size_hint {
        s.push_str(&format!(
            "__attribute__((work_group_size_hint({x}, {y}, {z}))) "
        ));
    }
    if let Some(h) = &k.vec_type_hint {
        let base = match w.m.types[h.elem] {
            Type::Int { width } if h.signed => super::types::sint_name(width).unwrap_or("int"),
            Type::Int { width } => super::types::uint_name(width).unwrap_or("uint"),
            Type::Float { width: 16 } => "half",
            Type::Float { width: 64 } => "double",
            _ => "float",
        };
        let n = if h.len > 1 {
            h.len.to_string()
        } else {
            String::new()
        };
        s.push_str(&format!("__attribute__((vec_type_hint({base}{n}))) "));
    }
    if let Some(n) = k.reqd_sub_group_size {
        w.needs.extension("cl_intel_required_subgroup_size");
        s.push_str(&format!("__attribute__((intel_reqd_sub_group_size({n}))) "));
    }
    Ok(s)
}

impl<'w, 'm> FnWriter<'w, 'm> {
    /// Decide where each value lives, name the variables and the blocks.
    fn place_values(&mut self) -> Result<()> {
        let body = self.body;
        let forwarded = self.object_variables();
        // (user block, position) of every use; phi operands are used at the end of the
        // predecessor they come from.
        let mut uses: HashMap<Handle<Inst>, Vec<(usize, usize)>> = HashMap::default();
        let mut pos: HashMap<Handle<Inst>, (usize, usize)> = HashMap::default();
        for (bi, b) in body.blocks.iter().enumerate() {
            let end = b.insts.len();
            for (ii, &h) in b.insts.iter().enumerate() {
                pos.insert(h, (bi, ii));
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
        let _ = pos;
        for (bi, b) in body.blocks.iter().enumerate() {
            let n = self.scope.fresh(b.name.as_deref(), &format!("bb{bi}"));
            self.block_names.push(n);
            for &h in &b.insts {
                let inst = &body.insts[h];
                match self.kind[&h] {
                    Kind::Hoisted => {
                        let ty = self.w.type_name(inst.ty)?;
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
                let p = self.operand(*ptr)?;
                let v = self.operand(*value)?;
                let pt = self.type_of(*ptr);
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
            let ty = self.w.type_name(self.body.insts[h].ty)?;
            out.push(format!("{} = {};", declare(&ty, &name), value.text));
        } else {
            out.push(format!("{name} = {};", value.text));
        }
        Ok(())
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

    /// `.m1[2]` for a path of member and element indices into aggregate type `t`.
    pub fn member_path(&mut self, mut t: Handle<Type>, indices: &[u32]) -> Result<String> {
        let m = self.w.m;
        let mut path = String::new();
        for &i in indices {
            match &m.types[t] {
                Type::Struct {
                    members: Some(ms), ..
                } => {
                    path.push_str(&format!(".m{i}"));
                    t = *ms
                        .get(i as usize)
                        .ok_or_else(|| Error::malformed("a member index out of range"))?;
                }
                Type::Array { elem, .. } => {
                    path.push_str(&format!("[{i}]"));
                    t = *elem;
                }
                _ => return Err(Error::malformed("a member path into a non-aggregate")),
            }
        }
        Ok(path)
    }

    /// The expression an instruction computes (`None` for those that computed their
    /// statements already).
    fn expression(&mut self, h: Handle<Inst>, op: &Op) -> Result<Option<Expr>> {
        let m = self.w.m;
        let ty = self.body.insts[h].ty;
        Ok(Some(match op {
            Op::Binary { op, lhs, rhs, .. } => {
                let a = self.operand(*lhs)?;
                let b = self.operand(*rhs)?;
                self.w.binary(*op, ty, a, b)?
            }
            Op::FNeg(v) => {
                let a = self.operand(*v)?;
                Expr::unary("-", &a)
            }
            Op::ICmp { pred, lhs, rhs } => {
                let t = self.type_of(*lhs);
                let a = self.operand(*lhs)?;
                let b = self.operand(*rhs)?;
                self.w.icmp(*pred, t, a, b)?
            }
            Op::FCmp { pred, lhs, rhs } => {
                let t = self.type_of(*lhs);
                let a = self.operand(*lhs)?;
                let b = self.operand(*rhs)?;
                self.w.fcmp(*pred, t, a, b)?
            }
            Op::Cast { op, value } => {
                let from = self.type_of(*value);
                let e = self.operand(*value)?;
                self.w.cast(*op, from, ty, e)?
            }
            Op::Select {
                cond,
                on_true,
                on_false,
            } => {
                let ct = self.type_of(*cond);
                let c = self.operand(*cond)?;
                let a = self.operand(*on_true)?;
                let b = self.operand(*on_false)?;
                self.select(ct, ty, c, a, b)?
            }
            Op::Load { ptr, volatile, .. } => {
                let pt = self.type_of(*ptr);
                let p = self.operand(*ptr)?;
                let place = self.place(pt, p, *volatile)?;
                if place.starts_with('*') {
                    Expr {
                        text: place,
                        prec: Prec::Unary,
                    }
                } else {
                    Expr::atom(place)
                }
            }
            Op::Gep { base, indices, .. } => {
                let bt = self.type_of(*base);
                let b = self.operand(*base)?;
                let mut idx = Vec::new();
                for &i in indices {
                    let k = index_const(m, i);
                    let e = self.operand(i)?;
                    idx.push((e, k));
                }
                self.w.gep(bt, b, &idx, ty)?
            }
            Op::Call { callee, args } => {
                let mut a = Vec::new();
                for &v in args {
                    a.push(self.operand(v)?);
                }
                let name = self.w.functions[callee].clone();
                Expr::call(&name, &a)
            }
            Op::Builtin { builtin, args } => return self.builtin(builtin, args, ty),
            Op::ExtractElement { vector, index } => {
                let vt = self.type_of(*vector);
                let v = self.operand(*vector)?;
                let i = self.operand(*index)?;
                let lane = Expr::atom(lane_access(&v.postfix(), index_const(m, *index), &i));
                match self.w.shape(vt) {
                    (_, super::ops::Shape::Bool) => Expr::binary(&lane, "!=", &Expr::atom("0")),
                    _ => lane,
                }
            }
            Op::Shuffle { a, b, mask } => {
                let at = self.type_of(*a);
                let n = m.lanes(at);
                let ea = self.operand(*a)?;
                let eb = self.operand(*b)?;
                shuffle(&self.w.type_name(ty)?, &ea, &eb, n, mask)
            }
            Op::ExtractValue { aggregate, indices } => {
                let at = self.type_of(*aggregate);
                let a = self.operand(*aggregate)?;
                let path = self.member_path(at, indices)?;
                Expr::atom(format!("{}{path}", a.postfix()))
            }
            Op::CopyMemory { dst, src, .. } if self.copies.contains_key(&h) => {
                let d = self.operand(*dst)?;
                let s = self.operand(*src)?;
                let dt = self.type_of(self.resolve(*dst));
                let st = self.type_of(self.resolve(*src));
                let dp = self.place(dt, d, false)?;
                let sp = self.place(st, s, false)?;
                Expr::atom(format!("{dp} = {sp}"))
            }
            Op::CopyMemory {
                dst,
                src,
                size,
                volatile,
                ..
            } => {
                let dt = self.type_of(*dst);
                let st = self.type_of(*src);
                let zt = self.type_of(*size);
                let d = self.operand(*dst)?;
                let s = self.operand(*src)?;
                let z = self.operand(*size)?;
                let (helper, dp, sp) = self.w.copy_helper(dt, st, zt, *volatile)?;
                Expr::call(&helper, &[Expr::cast(&dp, &d), Expr::cast(&sp, &s), z])
            }
            Op::FillMemory {
                dst,
                byte,
                size,
                volatile,
                ..
            } => {
                let dt = self.type_of(*dst);
                let zt = self.type_of(*size);
                let d = self.operand(*dst)?;
                let b = self.operand(*byte)?;
                let z = self.operand(*size)?;
                let (helper, dp) = self.w.fill_helper(dt, zt, *volatile)?;
                Expr::call(&helper, &[Expr::cast(&dp, &d), b, z])
            }
            Op::Alloca { .. }
            | Op::Phi { .. }
            | Op::Store { .. }
            | Op::InsertElement { .. }
            | Op::InsertValue { .. }
            | Op::DebugDeclare { .. }
            | Op::DebugValue { .. } => return Ok(None),
        }))
    }

    /// `cond ? a : b`, or `select(b, a, c)` lane by lane for a vector condition.
    fn select(
        &mut self,
        ct: Handle<Type>,
        ty: Handle<Type>,
        c: Expr,
        a: Expr,
        b: Expr,
    ) -> Result<Expr> {
        let (lanes, _) = self.w.shape(ct);
        if lanes == 1 {
            return Ok(Expr::cond(&c, &a, &b));
        }
        let (_, shape) = self.w.shape(ty);
        let c = match shape {
            super::ops::Shape::Int(32) | super::ops::Shape::Float(32) | super::ops::Shape::Bool => {
                c
            }
            super::ops::Shape::Int(w) | super::ops::Shape::Float(w) => {
                let s = super::types::sint_name(w).unwrap_or("int");
                Expr::call(&format!("convert_{s}{lanes}"), &[c])
            }
            super::ops::Shape::Other => {
                return Err(Error::unsupported("a lane-wise select of non-scalars"))
            }
        };
        Ok(Expr::call("select", &[b, a, c]))
    }

    /// The terminator's condition or switch value, and the return statement.
    pub fn terminator_value(&mut self, v: Value) -> Result<Expr> {
        self.operand(v)
    }

    /// The block's label.
    pub fn label(&self, b: BlockId) -> &str {
        &self.block_names[b.0 as usize]
    }

    /// The `return` statement of a block.
    pub fn ret(&mut self, t: &Terminator) -> Result<String> {
        match t {
            Terminator::Return(Some(v)) => {
                let e = self.operand(*v)?;
                Ok(format!("return {};", e.text))
            }
            _ => Ok("return;".into()),
        }
    }
}

/// The value of an index operand when it is a constant.
pub fn index_const(m: &ir::Module, v: Value) -> Option<i64> {
    match v {
        Value::Const(c) => super::constants::const_index(m, c),
        _ => None,
    }
}

/// `v.s3` for a constant lane, `v[i]` otherwise.
fn lane_access(v: &str, k: Option<i64>, i: &Expr) -> String {
    match k {
        Some(k) if (0..16).contains(&k) => format!("{v}.s{k:x}"),
        _ => format!("{v}[{}]", i.text),
    }
}

/// Lanes of `a` and `b` by `mask`: a swizzle of one source, or a vector literal of
/// swizzles of both.
fn shuffle(ty: &str, a: &Expr, b: &Expr, n: u32, mask: &[Option<u32>]) -> Expr {
    let lanes: Vec<u32> = mask.iter().map(|l| l.unwrap_or(0)).collect();
    if lanes.iter().all(|&l| l < n) {
        let sw: String = lanes.iter().map(|l| format!("{l:x}")).collect();
        return Expr::atom(format!("{}.s{sw}", a.postfix()));
    }
    // Runs of lanes from one source, each a swizzle.
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(bool, String)> = None;
    for &l in &lanes {
        let (from_b, lane) = (l >= n, if l >= n { l - n } else { l });
        match &mut run {
            Some((src, s)) if *src == from_b && s.len() < 16 => s.push_str(&format!("{lane:x}")),
            _ => {
                if let Some((src, s)) = run.take() {
                    parts.push(swizzle(if src { b } else { a }, &s));
                }
                run = Some((from_b, format!("{lane:x}")));
            }
        }
    }
    if let Some((src, s)) = run {
        parts.push(swizzle(if src { b } else { a }, &s));
    }
    Expr::atom(format!("({ty})({})", parts.join(", ")))
}

/// Swizzles of `v` taking `lanes` (hex digits), in pieces of lane counts OpenCL C has.
fn swizzle(v: &Expr, lanes: &str) -> String {
    let mut parts = Vec::new();
    let mut rest = lanes;
    while !rest.is_empty() {
        let n = [16, 8, 4, 3, 2, 1]
            .into_iter()
            .find(|&n| n <= rest.len())
            .unwrap_or(1);
        parts.push(format!("{}.s{}", v.postfix(), &rest[..n]));
        rest = &rest[n..];
    }
    parts.join(", ")
}
