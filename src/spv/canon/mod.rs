//! A canonical text form of a SPIR-V module, so that two modules that differ only in id
//! numbering, in the order of the type/constant/global section, of decorations, names and
//! debug strings, or of functions compare equal as text.
//!
//! Module-scope ids are named by what they are (`TypeInt(32 0)`, `Constant(TypeInt(32 0) 7)`,
//! `Variable(...)`), so the same type gets the same name wherever it was declared. Plain
//! constants appear only where they are used: declaring one changes nothing. Function
//! contents keep their order; their ids are numbered in order of definition (`p0`, `b1`,
//! `v3`). Decoration groups are expanded onto their targets.

use crate::hash::HashMap;
use std::collections::BTreeSet;
use std::fmt::Write;

use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Op, Word};

use crate::diag::Result;

mod rules;

pub use rules::first_difference;
use rules::{block_order, is_plain_constant, name_target, normalize_zero, strip_unique_suffix};

/// The canonical text of a binary module.
pub fn canonical_text(words: &[u32]) -> Result<String> {
    let m = super::read::parse::sections(words)?;
    Ok(Canon::new(&m).text(&m))
}

struct Canon<'m> {
    defs: HashMap<Word, &'m Instruction>,
    names: HashMap<Word, String>,
    /// Canonical names of module-scope ids, computed on demand.
    global: HashMap<Word, String>,
    /// Function-local ids of the function being printed.
    local: HashMap<Word, String>,
}

impl<'m> Canon<'m> {
    fn new(m: &'m Module) -> Self {
        let mut defs = HashMap::default();
        for i in m
            .types_global_values
            .iter()
            .chain(&m.ext_inst_imports)
            .chain(&m.debug_string_source)
        {
            if let Some(id) = i.result_id {
                defs.insert(id, i);
            }
        }
        let mut names = HashMap::default();
        for n in &m.debug_names {
            if let (Op::Name, Some(Operand::IdRef(id)), Some(Operand::LiteralString(s))) =
                (n.class.opcode, n.operands.first(), n.operands.get(1))
            {
                names.insert(*id, s.clone());
            }
        }
        let mut c = Canon {
            defs,
            names,
            global: HashMap::default(),
            local: HashMap::default(),
        };
        // Functions: by name (OpName, else the entry point's), else by position; entry points
        // first, so a kernel keeps its name when a helper has the same one, and without the
        // `.N` suffix LLVM adds to keep names unique.
        let mut taken = BTreeSet::new();
        let is_entry = |f: &rspirv::dr::Function| {
            let id = f.def.as_ref().and_then(|d| d.result_id);
            m.entry_points
                .iter()
                .any(|e| e.operands.get(1).and_then(|o| o.id_ref_any()) == id)
        };
        let mut order: Vec<(usize, &rspirv::dr::Function)> =
            m.functions.iter().enumerate().collect();
        order.sort_by_key(|(i, f)| (!is_entry(f), *i));
        for (i, f) in order {
            let Some(id) = f.def.as_ref().and_then(|d| d.result_id) else {
                continue;
            };
            let ep_name = m
                .entry_points
                .iter()
                .find_map(|e| match e.operands.get(1..3) {
                    Some([Operand::IdRef(fid), Operand::LiteralString(s)]) if *fid == id => {
                        Some(s.clone())
                    }
                    _ => None,
                });
            let base = c
                .names
                .get(&id)
                .cloned()
                .or(ep_name)
                .unwrap_or_else(|| format!("#{i}"));
            let base = strip_unique_suffix(&base).to_string();
            let mut name = format!("fn {base}");
            while !taken.insert(name.clone()) {
                name.push('\'');
            }
            c.global.insert(id, name);
        }
        // Global variables: by description, disambiguated in order of declaration.
        for i in &m.types_global_values {
            if i.class.opcode == Op::Variable {
                let id = i.result_id.unwrap_or(0);
                let mut name = c.describe(id, &mut Vec::new());
                while !taken.insert(name.clone()) {
                    name.push('\'');
                }
                c.global.insert(id, name);
            }
        }
        c
    }

    /// The canonical name of a module-scope id.
    fn describe(&mut self, id: Word, visiting: &mut Vec<Word>) -> String {
        if let Some(n) = self.global.get(&id) {
            return n.clone();
        }
        if let Some(n) = self.local.get(&id) {
            return n.clone();
        }
        let Some(def) = self.defs.get(&id).copied() else {
            return format!("?{id}");
        };
        if visiting.contains(&id) {
            // A pointer cycle through a struct: name it by its OpName.
            return format!("rec({})", self.names.get(&id).cloned().unwrap_or_default());
        }
        visiting.push(id);
        let mut s = format!("{}(", def.class.opname);
        if let Some(t) = def.result_type {
            s.push_str(&self.describe(t, visiting));
        }
        for o in self.operands_text(def, visiting) {
            s.push(' ');
            s.push_str(&o);
        }
        if matches!(
            def.class.opcode,
            Op::TypeStruct | Op::TypeOpaque | Op::Variable
        ) {
            if let Some(n) = self.names.get(&id) {
                let _ = write!(s, " name={n:?}");
            }
        }
        s.push(')');
        visiting.pop();
        let s = normalize_zero(
            def.class.opcode,
            s,
            def.result_type.map(|t| self.describe(t, visiting)),
        );
        if def.class.opcode != Op::Variable {
            self.global.insert(id, s.clone());
        }
        s
    }

    fn operand(&mut self, o: &Operand, visiting: &mut Vec<Word>) -> String {
        match o.id_ref_any() {
            Some(id) => self.describe(id, visiting),
            None => match o {
                Operand::LiteralString(s) => format!("{s:?}"),
                other => other.to_string(),
            },
        }
    }

    fn line(&mut self, i: &Instruction) -> String {
        let mut s = String::new();
        if let Some(r) = i.result_id {
            let _ = write!(s, "{} = ", self.describe(r, &mut Vec::new()));
        }
        s.push_str(i.class.opname);
        if let Some(t) = i.result_type {
            let _ = write!(s, " : {}", self.describe(t, &mut Vec::new()));
        }
        for o in self.operands_text(i, &mut Vec::new()) {
            s.push(' ');
            s.push_str(&o);
        }
        s
    }

    /// An instruction's operands as text. An extended instruction's operands are all ids to
    /// the binary parser; its set's grammar (rspirv's tables) says which are literals (the
    /// numbers of `OpenCL.DebugInfo.100`), which are printed as numbers, not as whatever id
    /// has that number.
    fn operands_text(&mut self, i: &Instruction, visiting: &mut Vec<Word>) -> Vec<String> {
        let literal = self.ext_literals(i);
        i.operands
            .iter()
            .enumerate()
            .map(|(k, o)| match (literal.get(k), o) {
                (Some(true), Operand::IdRef(w)) => w.to_string(),
                _ => self.operand(o, visiting),
            })
            .collect()
    }

    /// For an OpExtInst of a set rspirv knows, which operands are literals (by index into
    /// the instruction's operands: the set and the opcode come first).
    fn ext_literals(&self, i: &Instruction) -> Vec<bool> {
        use rspirv::grammar::{OperandKind as K, OperandQuantifier as Q};
        if i.class.opcode != Op::ExtInst {
            return Vec::new();
        }
        let (Some(Operand::IdRef(set)), Some(Operand::LiteralExtInstInteger(code))) =
            (i.operands.first(), i.operands.get(1))
        else {
            return Vec::new();
        };
        let name = match self.defs.get(set).and_then(|d| d.operands.first()) {
            Some(Operand::LiteralString(n)) => n.clone(),
            _ => return Vec::new(),
        };
        let Some(grammar) =
            rspirv::grammar::ext_inst_table(&name).and_then(|t| t.lookup_opcode(*code))
        else {
            return Vec::new();
        };
        let mut out = vec![false, false];
        let mut kinds = grammar.operands.iter().peekable();
        while out.len() < i.operands.len() {
            let Some(op) = kinds.peek() else { break };
            out.push(!matches!(op.kind, K::IdRef | K::IdResultType | K::IdResult));
            if op.quantifier != Q::ZeroOrMore {
                kinds.next();
            }
        }
        out
    }

    fn sorted(&mut self, is: &[Instruction]) -> Vec<String> {
        let mut v: Vec<String> = is.iter().map(|i| self.line(i)).collect();
        v.sort();
        v
    }

    fn text(mut self, m: &Module) -> String {
        let mut out = Vec::new();
        if let Some(h) = &m.header {
            out.push(format!(
                "version {}.{}",
                (h.version >> 16) & 0xff,
                (h.version >> 8) & 0xff
            ));
        }
        for section in [
            &m.capabilities,
            &m.extensions,
            &m.ext_inst_imports,
            &m.execution_modes,
            &m.debug_string_source,
            &m.debug_module_processed,
        ] {
            out.extend(self.sorted(section));
        }
        if let Some(mm) = &m.memory_model {
            out.push(self.line(mm));
        }
        let mut eps = Vec::new();
        for e in &m.entry_points {
            // The interface list is a set.
            let mut e = e.clone();
            let (head, iface) = e.operands.split_at(3.min(e.operands.len()));
            let mut iface: Vec<String> = iface
                .iter()
                .map(|o| self.operand(o, &mut Vec::new()))
                .collect();
            iface.sort();
            e.operands = head.to_vec();
            eps.push(format!("{} {}", self.line(&e), iface.join(" ")));
        }
        eps.sort();
        out.extend(eps);
        // Names of module-scope ids here; names of function-local ids with their function.
        let mut names = Vec::new();
        for n in &m.debug_names {
            let Some(t) = name_target(n) else { continue };
            if self.is_local(t) {
                continue;
            }
            let mut n = n.clone();
            if self.global.get(&t).is_some_and(|g| g.starts_with("fn ")) {
                if let Some(Operand::LiteralString(s)) = n.operands.get_mut(1) {
                    *s = strip_unique_suffix(s).to_string();
                }
            }
            names.push(self.line(&n));
        }
        names.sort();
        out.extend(names);
        out.extend(self.decorations(m));
        // Types and variables are their descriptions. Plain constants are described where
        // they are used; a declaration alone says nothing (writers declare scalars they end up
        // not needing, or that only an all-zero composite spelled another way needs).
        let mut globals: Vec<String> = m
            .types_global_values
            .iter()
            .filter(|i| !is_plain_constant(i.class.opcode))
            .filter_map(|i| i.result_id)
            .map(|id| self.describe(id, &mut Vec::new()))
            .collect();
        // A constant declared twice is one constant.
        globals.sort();
        globals.dedup();
        out.extend(globals);
        let mut funcs: Vec<(String, Vec<String>)> = Vec::new();
        for f in &m.functions {
            let lines = self.function_text(m, f);
            funcs.push((lines[0].clone(), lines));
        }
        self.local.clear();
        funcs.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, lines) in funcs {
            out.extend(lines);
        }
        let mut s = out.join("\n");
        s.push('\n');
        s
    }

    /// The lines of one function: its ids numbered in block order (copies are the value they
    /// copy), its instructions, then the names and decorations of its own ids, sorted.
    fn function_text(&mut self, m: &Module, f: &rspirv::dr::Function) -> Vec<String> {
        self.local.clear();
        let blocks = block_order(f);
        let mut n = 0;
        let mut fresh = |prefix: &str| {
            n += 1;
            format!("{prefix}{n}")
        };
        for p in &f.parameters {
            if let Some(id) = p.result_id {
                self.local.insert(id, fresh("p"));
            }
        }
        for &b in &blocks {
            if let Some(id) = b.label.as_ref().and_then(|l| l.result_id) {
                self.local.insert(id, fresh("b"));
            }
            for i in &b.instructions {
                if let Some(id) = i.result_id {
                    if !self.is_copy(i) {
                        self.local.insert(id, fresh("v"));
                    }
                }
            }
        }
        // Copies are the value they copy (LLVM has no copy instruction to keep them in),
        // and their names and decorations go with them.
        let mut copies = crate::hash::HashSet::default();
        for &b in &blocks {
            for i in &b.instructions {
                if self.is_copy(i) {
                    let v = self.operand(&i.operands[0], &mut Vec::new());
                    let id = i.result_id.unwrap_or(0);
                    self.local.insert(id, v);
                    copies.insert(id);
                }
            }
        }
        // Ids whose names and decorations are printed: this function's, copies aside.
        let kept_ids: crate::hash::HashSet<Word> = self
            .local
            .keys()
            .copied()
            .filter(|t| !copies.contains(t))
            .collect();
        let kept = |t: Word| kept_ids.contains(&t);
        let mut lines = Vec::new();
        if let Some(d) = &f.def {
            lines.push(self.line(d));
        }
        for p in &f.parameters {
            lines.push(format!("  {}", self.line(p)));
        }
        for &b in &blocks {
            if let Some(l) = &b.label {
                lines.push(self.line(l));
            }
            for i in &b.instructions {
                if !self.is_copy(i) {
                    lines.push(format!("  {}", self.line(i)));
                }
            }
        }
        let named: Vec<&Instruction> = m
            .debug_names
            .iter()
            .filter(|n| name_target(n).is_some_and(kept))
            .collect();
        let mut local_names: Vec<String> = named
            .iter()
            .map(|n| format!("  ; {}", self.line(n)))
            .collect();
        for a in &m.annotations {
            if a.operands
                .first()
                .and_then(|o| o.id_ref_any())
                .is_some_and(kept)
            {
                local_names.push(format!("  ; {}", self.line(a)));
            }
        }
        local_names.sort();
        lines.extend(local_names);
        lines.push("OpFunctionEnd".into());
        lines
    }

    /// OpCopyObject, and an OpBitcast of a constant to its own type: the value itself.
    fn is_copy(&self, i: &Instruction) -> bool {
        match i.class.opcode {
            Op::CopyObject => true,
            Op::Bitcast => match (
                i.result_type,
                i.operands.first().and_then(|o| o.id_ref_any()),
            ) {
                (Some(t), Some(v)) if self.defs.contains_key(&v) => {
                    let vt = self.defs[&v].result_type;
                    vt == Some(t)
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// True if `id` is defined inside a function (parameter, label or instruction result).
    fn is_local(&self, id: Word) -> bool {
        // Functions and variables are named in `global` from the start.
        !self.defs.contains_key(&id) && !self.global.contains_key(&id)
    }

    /// Decorations as sorted lines, decoration groups expanded onto their targets.
    fn decorations(&mut self, m: &Module) -> Vec<String> {
        let groups: BTreeSet<Word> = m
            .annotations
            .iter()
            .filter(|i| i.class.opcode == Op::DecorationGroup)
            .filter_map(|i| i.result_id)
            .collect();
        let target = |i: &Instruction| match i.operands.first() {
            Some(Operand::IdRef(t)) => Some(*t),
            _ => None,
        };
        let mut lines = Vec::new();
        for i in &m.annotations {
            match i.class.opcode {
                Op::DecorationGroup => {}
                Op::GroupDecorate => {
                    let Some(g) = target(i) else { continue };
                    for t in i.operands[1..].iter().filter_map(|o| o.id_ref_any()) {
                        for d in m
                            .annotations
                            .iter()
                            .filter(|d| d.class.opcode == Op::Decorate && target(d) == Some(g))
                        {
                            let mut d = d.clone();
                            d.operands[0] = Operand::IdRef(t);
                            lines.push(self.line(&d));
                        }
                    }
                }
                _ if target(i).is_some_and(|t| groups.contains(&t) || self.is_local(t)) => {}
                _ => {
                    // A function's linkage name, like its OpName, without LLVM's `.N`.
                    let mut i = i.clone();
                    let is_fn = target(&i)
                        .and_then(|t| self.global.get(&t))
                        .is_some_and(|g| g.starts_with("fn "));
                    if let (true, Some(Operand::LiteralString(s))) = (is_fn, i.operands.get_mut(2))
                    {
                        *s = strip_unique_suffix(s).to_string();
                    }
                    lines.push(self.line(&i))
                }
            }
        }
        lines.sort();
        lines
    }
}

/// Fail with the first difference if two modules are not the same up to ids and order.
#[cfg(test)]
fn assert_same(a: &[u32], b: &[u32]) -> Result<()> {
    let (ta, tb) = (canonical_text(a)?, canonical_text(b)?);
    match first_difference(&ta, &tb) {
        None => Ok(()),
        Some(d) => Err(crate::diag::Error::unsupported(format!(
            "the modules differ (canonical form) at {d}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rspirv::binary::Assemble;
    use rspirv::dr::Builder;

    /// A kernel storing `value` through its pointer argument; `swap` declares the types in
    /// the other order (and so numbers every id differently).
    fn module(value: u32, swap: bool) -> Vec<u32> {
        let mut b = Builder::new();
        b.capability(spirv::Capability::Addresses);
        b.capability(spirv::Capability::Kernel);
        b.memory_model(
            spirv::AddressingModel::Physical64,
            spirv::MemoryModel::OpenCL,
        );
        let (void, int) = if swap {
            let i = b.type_int(32, 0);
            (b.type_void(), i)
        } else {
            let v = b.type_void();
            (v, b.type_int(32, 0))
        };
        let ptr = b.type_pointer(None, spirv::StorageClass::CrossWorkgroup, int);
        let fty = b.type_function(void, [ptr]);
        let c = b.constant_bit32(int, value);
        let f = b
            .begin_function(void, None, spirv::FunctionControl::NONE, fty)
            .unwrap();
        let p = b.function_parameter(ptr).unwrap();
        b.name(p, "out");
        b.begin_block(None).unwrap();
        b.store(p, c, None, []).unwrap();
        b.ret().unwrap();
        b.end_function().unwrap();
        b.entry_point(spirv::ExecutionModel::Kernel, f, "k", []);
        b.module().assemble()
    }

    #[test]
    fn ids_and_declaration_order_do_not_matter() {
        let (a, b) = (module(7, false), module(7, true));
        assert_ne!(a, b, "the two encodings should differ in ids");
        assert_same(&a, &b).unwrap();
        let t = canonical_text(&a).unwrap();
        assert!(t.contains("Store p1 Constant(TypeInt( 32 0) 7)"), "{t}");
        assert!(t.contains("; Name p1 \"out\""), "{t}");
    }

    #[test]
    fn a_different_constant_is_a_difference() {
        let e = assert_same(&module(7, false), &module(8, false)).unwrap_err();
        assert!(e.to_string().contains("Constant(TypeInt( 32 0) 8)"), "{e}");
    }

    #[test]
    fn zero_spellings_and_uniquing_suffixes_are_one() {
        assert_eq!(
            normalize_zero(Op::ConstantNull, "x".into(), Some("TypeInt( 32 0)".into())),
            "Constant(TypeInt( 32 0) 0)"
        );
        let v = "ConstantComposite(TypeVector( TypeInt( 32 0) 2) Constant(TypeInt( 32 0) 0) \
                 ConstantNull(TypeInt( 32 0)))";
        assert_eq!(
            normalize_zero(
                Op::ConstantComposite,
                v.into(),
                Some("TypeVector( TypeInt( 32 0) 2)".into())
            ),
            "ConstantNull(TypeVector( TypeInt( 32 0) 2))"
        );
        assert_eq!(strip_unique_suffix("vector_add.1"), "vector_add");
        assert_eq!(strip_unique_suffix("a.b"), "a.b");
        assert_eq!(strip_unique_suffix("v1.2.3"), "v1.2");
    }
}
