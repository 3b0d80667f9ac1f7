//! A stable, readable text dump of the graph (`spir-xlate dump-ir`, snapshot tests).
//!
//! Types and constants are printed structurally at each use, so the dump does not depend on
//! arena order; instructions are numbered per function in block order.

use crate::hash::HashMap;
use std::fmt::Write;

use super::arena::Handle;
use super::constant::ConstantKind;
use super::function::{Function, Op, Terminator, Value};
use super::module::Module;
use super::types::Type;
use super::Inst;

mod spelling;

/// How an error names instruction `block.insts[pos]` of `body`: its name (`%call`), or for
/// an unnamed one its place ("the block's 3rd instruction"), counting the instructions the
/// source shows (not debug declarations, which a `-g` module has between them).
pub fn value_label(body: &super::Body, block: &super::Block, pos: usize) -> String {
    let inst = &body.insts[block.insts[pos]];
    match &inst.name {
        Some(n) => format!("%{n}"),
        None => {
            let shown = block.insts[..pos].iter();
            let n = shown.filter(|&&h| !body.insts[h].op.is_debug()).count() + 1;
            let suffix = match (n % 10, n % 100) {
                (1, r) if r != 11 => "st",
                (2, r) if r != 12 => "nd",
                (3, r) if r != 13 => "rd",
                _ => "th",
            };
            format!("the block's {n}{suffix} instruction (unnamed)")
        }
    }
}

/// The module as text: types, constants, globals, then each function's blocks with their
/// instructions (what `spir-xlate dump-ir` prints).
pub fn print_module(m: &Module) -> String {
    let mut out = String::new();
    let p = Printer {
        m,
        canonical: false,
    };
    p.module(&mut out);
    out
}

/// The dump in canonical form, for comparing graphs read from different sides: blocks in
/// control-flow order (reverse post-order) and numbered in it, phi operands ordered by block,
/// and vector lane indices as plain numbers (their integer type is a spelling: LLVM's is any
/// width, SPIR-V's a literal).
pub fn canonical_module(m: &Module) -> String {
    let mut out = String::new();
    let p = Printer { m, canonical: true };
    p.module(&mut out);
    out
}

/// A type as the graph dump spells it (`<4 x f32>`, `f32* global`), for messages.
pub fn type_text(m: &Module, t: Handle<Type>) -> String {
    Printer {
        m,
        canonical: false,
    }
    .ty(t)
}

struct Printer<'a> {
    m: &'a Module,
    canonical: bool,
}

impl Printer<'_> {
    fn module(&self, out: &mut String) {
        let m = self.m;
        let _ = writeln!(out, "module {:?}", m.addressing);
        let s = &m.source;
        if let Some((a, b)) = s.spir_version {
            let _ = writeln!(out, "spir_version {a}.{b}");
        }
        if let Some((a, b)) = s.ocl_version {
            let _ = writeln!(out, "ocl_version {a}.{b}");
        }
        let _ = writeln!(
            out,
            "fp_contract {}",
            if s.fp_contract { "on" } else { "off" }
        );
        for (label, list) in [
            ("extensions", &s.used_extensions),
            ("optional_core_features", &s.used_optional_core_features),
            ("compiler_options", &s.compiler_options),
        ] {
            if !list.is_empty() {
                let _ = writeln!(out, "{label} {}", list.join(" "));
            }
        }
        for (_, g) in m.globals.iter() {
            let _ = write!(
                out,
                "global @{} : {} {} {:?}",
                g.name,
                self.space(g.space),
                self.ty(g.ty),
                g.linkage
            );
            if g.is_constant {
                out.push_str(" constant");
            }
            if let Some(a) = g.align {
                let _ = write!(out, " align {a}");
            }
            if let Some(init) = g.init {
                let _ = write!(out, " = {}", self.constant(init));
            }
            out.push('\n');
        }
        for k in &m.kernels {
            let _ = write!(out, "kernel @{}", m.functions[k.function].name);
            if let Some([x, y, z]) = k.reqd_work_group_size {
                let _ = write!(out, " reqd_work_group_size({x},{y},{z})");
            }
            if let Some([x, y, z]) = k.work_group_size_hint {
                let _ = write!(out, " work_group_size_hint({x},{y},{z})");
            }
            if let Some(h) = &k.vec_type_hint {
                let _ = write!(
                    out,
                    " vec_type_hint({}{} x {})",
                    if h.signed { "signed " } else { "" },
                    h.len,
                    self.ty(h.elem)
                );
            }
            if let Some(n) = k.reqd_sub_group_size {
                let _ = write!(out, " reqd_sub_group_size({n})");
            }
            for (mode, lits) in &k.other_modes {
                let _ = write!(out, " {mode:?}{lits:?}");
            }
            out.push('\n');
            for (i, a) in k.args.iter().enumerate() {
                let q = &a.qualifiers;
                let _ = writeln!(
                    out,
                    "  arg {i} {:?}: type {:?} base {:?} space {} access {:?}{}",
                    a.name.as_deref().unwrap_or(""),
                    a.type_name,
                    a.base_type_name.as_deref().unwrap_or(""),
                    self.space(a.space),
                    a.access,
                    q.words()
                        .iter()
                        .map(|w| format!(" {w}"))
                        .collect::<String>(),
                );
            }
        }
        for (_, f) in m.functions.iter() {
            self.function(out, f);
        }
    }

    fn function(&self, out: &mut String, f: &Function) {
        let _ = write!(
            out,
            "{} {:?} @{}(",
            if f.is_kernel { "kernel_fn" } else { "fn" },
            f.linkage,
            f.name
        );
        for (i, p) in f.params.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "%arg{i}");
            if let Some(n) = &p.name {
                let _ = write!(out, " {n:?}");
            }
            let _ = write!(out, ": {}", self.ty(p.ty));
            let a = p.attrs;
            for (on, name) in [
                (a.noalias, "noalias"),
                (a.nocapture, "nocapture"),
                (a.readonly, "readonly"),
                (a.readnone, "readnone"),
                (a.writeonly, "writeonly"),
                (a.byval, "byval"),
                (a.sret, "sret"),
                (a.zext, "zext"),
                (a.sext, "sext"),
            ] {
                if on {
                    let _ = write!(out, " {name}");
                }
            }
            if let Some(n) = a.align {
                let _ = write!(out, " align({n})");
            }
        }
        let _ = write!(out, ") -> {}", self.ty(f.ret));
        let Some(body) = &f.body else {
            out.push_str(" declare\n");
            return;
        };
        out.push_str(" {\n");
        let order: Vec<usize> = if self.canonical {
            super::cfg::reverse_post_order(body.blocks.len(), |b| {
                body.blocks[b].terminator.successors()
            })
        } else {
            (0..body.blocks.len()).collect()
        };
        // The label each block is printed with: its position in `order`.
        let mut label = vec![0; body.blocks.len()];
        for (pos, &b) in order.iter().enumerate() {
            label[b] = pos;
        }
        let bb = |b: super::BlockId| format!("bb{}", label[b.0 as usize]);
        let mut numbers: HashMap<Handle<Inst>, usize> = HashMap::default();
        for &b in &order {
            for &i in &body.blocks[b].insts {
                let n = numbers.len();
                numbers.insert(i, n);
            }
        }
        let v = |val: Value| -> String {
            match val {
                Value::Param(i) => format!("%arg{i}"),
                Value::Inst(h) => format!("%{}", numbers.get(&h).copied().unwrap_or(usize::MAX)),
                Value::Const(c) => self.constant(c),
            }
        };
        for &bi in &order {
            let b = &body.blocks[bi];
            let _ = writeln!(
                out,
                "bb{}{}:",
                label[bi],
                b.name
                    .as_deref()
                    .map(|n| format!(" {n:?}"))
                    .unwrap_or_default()
            );
            for &ih in &b.insts {
                let inst = &body.insts[ih];
                let _ = write!(out, "  ");
                if !matches!(self.m.types[inst.ty], Type::Void) {
                    let _ = write!(out, "%{} = ", numbers[&ih]);
                }
                let _ = write!(out, "{}", self.op(&inst.op, &v, &bb));
                if !matches!(self.m.types[inst.ty], Type::Void) {
                    let _ = write!(out, " : {}", self.ty(inst.ty));
                }
                if let Some(n) = &inst.name {
                    let _ = write!(out, " ; {n}");
                }
                if let Some(l) = inst.loc {
                    let _ = write!(out, " {}", self.loc(l));
                }
                out.push('\n');
            }
            let t = match &b.terminator {
                Terminator::Branch(t) => format!("br {}", bb(*t)),
                Terminator::CondBranch {
                    cond,
                    on_true,
                    on_false,
                } => {
                    format!("br {} {} {}", v(*cond), bb(*on_true), bb(*on_false))
                }
                Terminator::Switch {
                    value,
                    default,
                    cases,
                } => {
                    let cs: Vec<String> = cases
                        .iter()
                        .map(|(c, b)| format!("{c} -> {}", bb(*b)))
                        .collect();
                    format!(
                        "switch {} default {} [{}]",
                        v(*value),
                        bb(*default),
                        cs.join(", ")
                    )
                }
                Terminator::Return(None) => "ret".to_string(),
                Terminator::Return(Some(x)) => format!("ret {}", v(*x)),
                Terminator::Unreachable => "unreachable".to_string(),
            };
            match b.terminator_loc {
                Some(l) => {
                    let _ = writeln!(out, "  {t} {}", self.loc(l));
                }
                None => {
                    let _ = writeln!(out, "  {t}");
                }
            }
        }
        out.push_str("}\n");
    }

    /// A source position as `!line:column`, with `@line:column` for each call it was inlined
    /// at.
    fn loc(&self, l: super::Handle<super::debug::Location>) -> String {
        let d = &self.m.debug;
        let mut out = String::new();
        let mut at = Some(l);
        let mut first = true;
        // Inlined-at chains are finite (each is a new location); the bound stops a cycle.
        for _ in 0..=d.locations.len() {
            let Some(h) = at else { break };
            let loc = d.locations[h];
            let _ = write!(
                out,
                "{}{}:{}",
                if first { "!" } else { "@" },
                loc.line,
                loc.column
            );
            first = false;
            at = loc.inlined_at;
        }
        out
    }

    fn op(
        &self,
        op: &Op,
        v: &dyn Fn(Value) -> String,
        bb: &dyn Fn(super::BlockId) -> String,
    ) -> String {
        // A constant lane index, in canonical form, as a plain number.
        let lane = |x: Value| match x {
            Value::Const(c) if self.canonical => match self.m.constants[c].kind {
                ConstantKind::Int(i) => i.to_string(),
                _ => v(x),
            },
            _ => v(x),
        };
        let list = |vals: &[Value]| vals.iter().map(|&x| v(x)).collect::<Vec<_>>().join(", ");
        match op {
            Op::DebugDeclare { var, address, .. } => format!(
                "debug_declare {:?}, {}",
                self.m.debug.variables[*var].name,
                v(*address)
            ),
            Op::DebugValue { var, value, .. } => format!(
                "debug_value {:?}, {}",
                self.m.debug.variables[*var].name,
                v(*value)
            ),
            Op::Alloca { .. }
            | Op::Load { .. }
            | Op::Store { .. }
            | Op::Gep { .. }
            | Op::CopyMemory { .. }
            | Op::FillMemory { .. } => self.memory_op(op, v).unwrap_or_default(),
            Op::Binary {
                op,
                lhs,
                rhs,
                flags,
            } => {
                let mut f = String::new();
                if flags.nsw {
                    f.push_str(" nsw");
                }
                if flags.nuw {
                    f.push_str(" nuw");
                }
                if flags.exact {
                    f.push_str(" exact");
                }
                let fast = flags.fast;
                if fast == super::FastMath::ALL {
                    f.push_str(" fast");
                } else {
                    for (on, word) in [
                        (fast.no_nans, " nnan"),
                        (fast.no_infs, " ninf"),
                        (fast.no_signed_zeros, " nsz"),
                        (fast.allow_recip, " arcp"),
                        (fast.allow_contract, " contract"),
                        (fast.allow_reassoc, " reassoc"),
                        (fast.approx_func, " afn"),
                    ] {
                        if on {
                            f.push_str(word);
                        }
                    }
                }
                format!("{op:?}{f} {}, {}", v(*lhs), v(*rhs))
            }
            Op::FNeg(x) => format!("FNeg {}", v(*x)),
            Op::ICmp { pred, lhs, rhs } => format!("icmp {pred:?} {}, {}", v(*lhs), v(*rhs)),
            Op::FCmp { pred, lhs, rhs } => format!("fcmp {pred:?} {}, {}", v(*lhs), v(*rhs)),
            Op::Cast { op, value } => format!("{op:?} {}", v(*value)),
            Op::Select {
                cond,
                on_true,
                on_false,
            } => {
                format!("select {}, {}, {}", v(*cond), v(*on_true), v(*on_false))
            }
            Op::Phi { incoming } => {
                let mut parts: Vec<(String, String)> =
                    incoming.iter().map(|(x, b)| (bb(*b), v(*x))).collect();
                if self.canonical {
                    parts.sort();
                }
                let parts: Vec<String> = parts
                    .into_iter()
                    .map(|(b, x)| format!("[{x}, {b}]"))
                    .collect();
                format!("phi {}", parts.join(" "))
            }
            Op::Call { callee, args } => {
                format!("call @{}({})", self.m.functions[*callee].name, list(args))
            }
            Op::Builtin { builtin, args } => format!("builtin {builtin:?}({})", list(args)),
            Op::ExtractElement { vector, index } => {
                format!("extractelement {}, {}", v(*vector), lane(*index))
            }
            Op::InsertElement {
                vector,
                element,
                index,
            } => {
                format!(
                    "insertelement {}, {}, {}",
                    v(*vector),
                    v(*element),
                    lane(*index)
                )
            }
            Op::Shuffle { a, b, mask } => {
                let m: Vec<String> = mask
                    .iter()
                    .map(|x| x.map(|x| x.to_string()).unwrap_or_else(|| "undef".into()))
                    .collect();
                format!("shuffle {}, {}, <{}>", v(*a), v(*b), m.join(","))
            }
            Op::ExtractValue { aggregate, indices } => {
                format!("extractvalue {}, {indices:?}", v(*aggregate))
            }
            Op::InsertValue {
                aggregate,
                element,
                indices,
            } => {
                format!(
                    "insertvalue {}, {}, {indices:?}",
                    v(*aggregate),
                    v(*element)
                )
            }
        }
    }

    /// A memory operation as text (`None` for any other operation).
    fn memory_op(&self, op: &Op, v: &dyn Fn(Value) -> String) -> Option<String> {
        let list = |vals: &[Value]| vals.iter().map(|&x| v(x)).collect::<Vec<_>>().join(", ");
        let align = |a: &Option<u32>| a.map(|a| format!(" align {a}")).unwrap_or_default();
        let vol = |b: bool| if b { " volatile" } else { "" };
        Some(match op {
            Op::Alloca {
                allocated,
                align: a,
            } => format!("alloca {}{}", self.ty(*allocated), align(a)),
            Op::Load {
                ptr,
                align: a,
                volatile,
            } => format!("load{} {}{}", vol(*volatile), v(*ptr), align(a)),
            Op::Store {
                ptr,
                value,
                align: a,
                volatile,
            } => {
                format!(
                    "store{} {}, {}{}",
                    vol(*volatile),
                    v(*value),
                    v(*ptr),
                    align(a)
                )
            }
            Op::Gep {
                inbounds,
                base,
                indices,
            } => format!(
                "gep{} {}, [{}]",
                if *inbounds { " inbounds" } else { "" },
                v(*base),
                list(indices)
            ),
            Op::CopyMemory {
                dst,
                src,
                size,
                align: a,
                volatile,
            } => format!(
                "copymemory{} {}, {}, {}{}",
                vol(*volatile),
                v(*dst),
                v(*src),
                v(*size),
                align(a)
            ),
            Op::FillMemory {
                dst,
                byte,
                size,
                align: a,
                volatile,
            } => format!(
                "fillmemory{} {}, {}, {}{}",
                vol(*volatile),
                v(*dst),
                v(*byte),
                v(*size),
                align(a)
            ),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::debug::{Scope, ScopeKind, Variable};
    use super::super::{Addressing, Block, Body, Inst, Op, Terminator, Value};
    use super::*;

    /// An unnamed instruction is named by its place among the instructions the source
    /// shows: the debug declarations of a `-g` module between them are not counted.
    #[test]
    fn unnamed_instructions_are_counted_without_debug_declarations() {
        let mut m = Module::new(Addressing::Physical64);
        let (void, int) = (m.void_type(), m.int_type(32));
        let file = m.debug.file("k.cl", "/src", None);
        let scope = m.debug.scopes.append(Scope {
            kind: ScopeKind::Unit(0),
            parent: None,
            file,
        });
        let var = m.debug.variables.append(Variable {
            name: "x".into(),
            ty: None,
            file,
            line: 1,
            scope,
            arg: None,
            artificial: false,
        });
        let mut body = Body::default();
        let mut inst = |op: Op, ty| {
            body.insts.append(Inst {
                name: None,
                ty,
                op,
                loc: None,
            })
        };
        let declared = inst(
            Op::DebugValue {
                var,
                value: Value::Param(0),
                expr: Vec::new(),
            },
            void,
        );
        let alloca = |n| Op::Alloca {
            allocated: int,
            align: Some(n),
        };
        let first = inst(alloca(4), int);
        let second = inst(alloca(8), int);
        let block = Block {
            name: None,
            insts: vec![declared, first, declared, second],
            terminator: Terminator::Unreachable,
            terminator_loc: None,
            construct: None,
        };
        assert_eq!(
            value_label(&body, &block, 1),
            "the block's 1st instruction (unnamed)"
        );
        assert_eq!(
            value_label(&body, &block, 3),
            "the block's 2nd instruction (unnamed)"
        );
    }
}
