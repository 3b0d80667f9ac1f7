//! Debug information (`ir::debug`) as `OpenCL.DebugInfo.100` or
//! `NonSemantic.Shader.DebugInfo.100` instructions, with `OpLine`/`DebugLine` and
//! `DebugScope` in function bodies.
//!
//! Module-scope instructions (sources, compile units, types, scopes, variables) are written
//! when first needed, each after what it names, among the types and constants; a struct that
//! points to itself names its pointer before it is written (the sets allow that forward
//! reference, as llvm-spirv writes it). In a block, a `DebugScope` is written where the scope
//! or inlined-at location changes, and a line where the line or column does; each block
//! starts with none in force, as SPIR-V has it.

use rspirv::dr::{Instruction, Operand};
use spirv::{OpenclDebuginfo100Op as D, Word};

use super::Writer;
use crate::diag::Result;
use crate::hash::HashMap;
use crate::ir::debug::{self as dbg, DebugType, ScopeKind};
use crate::ir::{self, Handle};
use crate::spirv::debug_info::{self as spell, flags, nonsemantic_op, DebugSet};

/// What the writer has written of the debug information so far.
pub(super) struct DebugWriter {
    set: Word,
    kind: DebugSet,
    none: Option<Word>,
    strings: HashMap<String, Word>,
    files: HashMap<Handle<dbg::SourceFile>, Word>,
    units: HashMap<u32, Word>,
    scopes: HashMap<Handle<dbg::Scope>, Word>,
    types: HashMap<Handle<DebugType>, Word>,
    /// Types being written: a reference back to one (a struct that points to itself) is
    /// DebugInfoNone where the set allows no forward reference.
    open_types: crate::hash::HashSet<Handle<DebugType>>,
    vars: HashMap<Handle<dbg::Variable>, Word>,
    inlined: HashMap<Handle<dbg::Location>, Word>,
    exprs: HashMap<dbg::DebugExpression, Word>,
    /// In the block being written: the scope and inlined-at in force, and the line.
    scope_now: Option<(Word, Option<Word>)>,
    line_now: Option<(Handle<dbg::SourceFile>, u32, u32)>,
}

impl DebugWriter {
    /// The import of `kind`, made by the caller.
    pub(super) fn new(set: Word, kind: DebugSet) -> Self {
        DebugWriter {
            set,
            kind,
            none: None,
            strings: HashMap::default(),
            files: HashMap::default(),
            units: HashMap::default(),
            scopes: HashMap::default(),
            types: HashMap::default(),
            open_types: Default::default(),
            vars: HashMap::default(),
            inlined: HashMap::default(),
            exprs: HashMap::default(),
            scope_now: None,
            line_now: None,
        }
    }
}

impl Writer<'_> {
    /// Import the debug set the options chose, where the module has debug information.
    pub(super) fn debug_import(&mut self, set: Option<DebugSet>) {
        if self.m.debug.is_empty() {
            return;
        }
        let Some(kind) = set else {
            self.lost.push(crate::diag::Lost::module(
                "debug information (source lines, variables, types): left out \
                 (`--debug-info none`)",
            ));
            return;
        };
        if kind == DebugSet::NonSemantic && self.extensions.insert("SPV_KHR_non_semantic_info") {
            self.b.extension("SPV_KHR_non_semantic_info");
        }
        let id = self.b.ext_inst_import(kind.import_name());
        self.debug = Some(DebugWriter::new(id, kind));
    }

    fn dw(&mut self) -> &mut DebugWriter {
        self.debug
            .as_mut()
            .expect("asked only with debug information on")
    }

    fn dkind(&self) -> DebugSet {
        self.debug.as_ref().map_or(DebugSet::OpenCl, |d| d.kind)
    }

    /// A number operand: a literal in OpenCL.DebugInfo.100, a constant's id in the
    /// non-semantic set.
    fn num(&mut self, n: u32) -> Operand {
        match self.dkind() {
            DebugSet::OpenCl => Operand::LiteralBit32(n),
            DebugSet::NonSemantic => Operand::IdRef(self.u32_const(n)),
        }
    }

    /// A size in bits: always a constant's id (a 32-bit one; sizes past 4 GiB are cut).
    fn size(&mut self, bits: u64) -> Operand {
        Operand::IdRef(self.u32_const(bits.min(u64::from(u32::MAX)) as u32))
    }

    fn dstring(&mut self, s: &str) -> Word {
        if let Some(&id) = self.dw().strings.get(s) {
            return id;
        }
        let id = self.b.string(s);
        self.dw().strings.insert(s.to_string(), id);
        id
    }

    /// Write a module-scope debug instruction with result `id`.
    fn define(&mut self, id: Word, op: u32, operands: Vec<Operand>) {
        let void = self.b.type_void();
        let set = self.dw().set;
        let mut ops = vec![Operand::IdRef(set), Operand::LiteralExtInstInteger(op)];
        ops.extend(operands);
        let inst = Instruction::new(spirv::Op::ExtInst, Some(void), Some(id), ops);
        self.b.module_mut().types_global_values.push(inst);
    }

    fn none(&mut self) -> Word {
        if let Some(id) = self.dw().none {
            return id;
        }
        let id = self.b.id();
        self.define(id, D::DebugInfoNone as u32, vec![]);
        self.dw().none = Some(id);
        id
    }

    fn file(&mut self, f: Handle<dbg::SourceFile>) -> Word {
        if let Some(&id) = self.dw().files.get(&f) {
            return id;
        }
        let file = self.m.debug.files[f].clone();
        let name = self.dstring(&file.path());
        // The text, empty where the input had none: llvm-spirv-14 requires the operand
        // (and SPIRV-Tools takes only a string there).
        let text = self.dstring(file.text.as_deref().unwrap_or(""));
        let ops = vec![Operand::IdRef(name), Operand::IdRef(text)];
        let id = self.b.id();
        self.define(id, D::DebugSource as u32, ops);
        self.dw().files.insert(f, id);
        id
    }

    fn unit(&mut self, i: u32) -> Word {
        if let Some(&id) = self.dw().units.get(&i) {
            return id;
        }
        let u = self.m.debug.units[i as usize].clone();
        let source = self.file(u.file);
        let ops = vec![
            self.num(spell::UNIT_VERSION),
            self.num(u.dwarf_version),
            Operand::IdRef(source),
            match self.dkind() {
                DebugSet::OpenCl => Operand::SourceLanguage(
                    spirv::SourceLanguage::from_u32(spell::language_code(u.language))
                        .unwrap_or(spirv::SourceLanguage::Unknown),
                ),
                DebugSet::NonSemantic => self.num(spell::language_code(u.language)),
            },
        ];
        let id = self.b.id();
        self.define(id, D::DebugCompilationUnit as u32, ops);
        self.dw().units.insert(i, id);
        id
    }

    /// The scope operand of an entity at file level: its compile unit (the first; one
    /// made for the first file where the input had none, as the sets' scopes need one).
    fn top_scope(&mut self) -> Word {
        if !self.m.debug.units.is_empty() {
            return self.unit(0);
        }
        if let Some(&id) = self.dw().units.get(&u32::MAX) {
            return id;
        }
        let source = self.file_or_unit(None);
        let ops = vec![
            self.num(spell::UNIT_VERSION),
            self.num(4),
            Operand::IdRef(source),
            match self.dkind() {
                DebugSet::OpenCl => Operand::SourceLanguage(spirv::SourceLanguage::OpenCL_C),
                DebugSet::NonSemantic => self.num(spirv::SourceLanguage::OpenCL_C as u32),
            },
        ];
        let id = self.b.id();
        self.define(id, D::DebugCompilationUnit as u32, ops);
        self.dw().units.insert(u32::MAX, id);
        id
    }

    fn parent(&mut self, p: Option<Handle<dbg::Scope>>) -> Word {
        match p {
            Some(p) => self.scope(p),
            None => self.top_scope(),
        }
    }

    pub(super) fn scope(&mut self, h: Handle<dbg::Scope>) -> Word {
        if let Some(&id) = self.dw().scopes.get(&h) {
            return id;
        }
        let id = self.b.id();
        self.dw().scopes.insert(h, id);
        let s = self.m.debug.scopes[h].clone();
        match &s.kind {
            ScopeKind::Unit(i) => {
                // The unit itself: its id stands for the scope.
                let u = self.unit(*i);
                self.dw().scopes.insert(h, u);
                return u;
            }
            ScopeKind::Type(t) => {
                let t = self.dtype(Some(*t));
                self.dw().scopes.insert(h, t);
                return t;
            }
            ScopeKind::Subprogram(sp) => {
                let name = self.dstring(&sp.name);
                let ty = match sp.ty.map(|t| self.m.debug.types[t].clone()) {
                    Some(DebugType::Function { ret, params }) => self.function_type(ret, &params),
                    _ => self.function_type(None, &[]),
                };
                let source = self.file(sp.file);
                let parent = self.parent(s.parent);
                let linkage = self.dstring(sp.linkage_name.as_deref().unwrap_or(""));
                let mut fl = 0;
                for (on, bit) in [
                    (sp.definition, flags::IS_DEFINITION),
                    (sp.local, flags::IS_LOCAL),
                    (sp.optimized, flags::IS_OPTIMIZED),
                    (sp.prototyped, flags::PROTOTYPED),
                    (sp.artificial, flags::ARTIFICIAL),
                ] {
                    if on {
                        fl |= bit;
                    }
                }
                let mut ops = vec![
                    Operand::IdRef(name),
                    Operand::IdRef(ty),
                    Operand::IdRef(source),
                    self.num(sp.line),
                    self.num(0),
                    Operand::IdRef(parent),
                    Operand::IdRef(linkage),
                    self.num(fl),
                    self.num(sp.scope_line),
                ];
                if self.dkind() == DebugSet::OpenCl {
                    let f = sp
                        .function
                        .and_then(|f| self.entry_ids.get(&f).or(self.func_ids.get(&f)).copied());
                    let f = match f {
                        Some(f) => f,
                        None => self.none(),
                    };
                    ops.push(Operand::IdRef(f));
                }
                self.define(id, D::DebugFunction as u32, ops);
            }
            ScopeKind::LexicalBlock { line, column } => {
                let source = self.file(s.file);
                let parent = self.parent(s.parent);
                let ops = vec![
                    Operand::IdRef(source),
                    self.num(*line),
                    self.num(*column),
                    Operand::IdRef(parent),
                ];
                self.define(id, D::DebugLexicalBlock as u32, ops);
            }
            ScopeKind::FileBlock => {
                // A lexical block of its own file at line 0 says the same.
                let source = self.file(s.file);
                let parent = self.parent(s.parent);
                let ops = vec![
                    Operand::IdRef(source),
                    self.num(0),
                    self.num(0),
                    Operand::IdRef(parent),
                ];
                self.define(id, D::DebugLexicalBlock as u32, ops);
            }
            ScopeKind::Namespace { name } => {
                // A namespace is a named lexical block in these sets.
                let source = self.file(s.file);
                let parent = self.parent(s.parent);
                let name = self.dstring(name);
                let ops = vec![
                    Operand::IdRef(source),
                    self.num(0),
                    self.num(0),
                    Operand::IdRef(parent),
                    Operand::IdRef(name),
                ];
                self.define(id, D::DebugLexicalBlock as u32, ops);
            }
        }
        id
    }

    /// `DebugTypeFunction` of a result (`None`: `void`, the module's OpTypeVoid, as the sets
    /// have it) and parameters.
    fn function_type(
        &mut self,
        ret: Option<Handle<DebugType>>,
        params: &[Option<Handle<DebugType>>],
    ) -> Word {
        let ret = match ret {
            Some(r) => self.dtype(Some(r)),
            None => self.b.type_void(),
        };
        let mut ops = vec![self.num(0), Operand::IdRef(ret)];
        for &t in params {
            ops.push(Operand::IdRef(self.dtype(t)));
        }
        let id = self.b.id();
        self.define(id, D::DebugTypeFunction as u32, ops);
        id
    }

    /// `void` where a type is required (a pointer's pointee, a variable's type): a basic
    /// type of no bits, as the sets have no void type of their own.
    fn void_type(&mut self) -> Word {
        if let Some(&id) = self.dw().strings.get("\0void") {
            return id;
        }
        let name = self.dstring("void");
        let mut ops = vec![Operand::IdRef(name), self.size(0)];
        ops.push(self.encoding(dbg::Encoding::Unspecified));
        if self.dkind() == DebugSet::NonSemantic {
            ops.push(self.num(0));
        }
        let id = self.b.id();
        self.define(id, D::DebugTypeBasic as u32, ops);
        self.dw().strings.insert("\0void".into(), id);
        id
    }

    fn encoding(&mut self, e: dbg::Encoding) -> Operand {
        match self.dkind() {
            DebugSet::OpenCl => Operand::LiteralBit32(spell::encoding_code(e)),
            DebugSet::NonSemantic => self.num(spell::encoding_code(e)),
        }
    }

    /// Whether `t` is written as a `DebugTypeBasic` (what a typedef or a vector must name
    /// in these sets, as SPIRV-Tools checks them).
    fn written_basic(&self, t: Option<Handle<DebugType>>) -> bool {
        t.is_some_and(|t| matches!(self.m.debug.types[t], DebugType::Basic { .. }))
    }

    /// The id of a source type; `None` (`void`) is [`Self::void_type`]. A type that names
    /// itself through pointers, where the set allows no forward reference, points to `void`
    /// there.
    fn dtype(&mut self, t: Option<Handle<DebugType>>) -> Word {
        let Some(t) = t else { return self.void_type() };
        if let Some(&id) = self.dw().types.get(&t) {
            return id;
        }
        if !self.dw().open_types.insert(t) {
            return self.void_type();
        }
        let id = self.b.id();
        let top = self.top_scope();
        let (op, ops) = match self.m.debug.types[t].clone() {
            DebugType::Basic {
                name,
                size_bits,
                encoding,
            } => {
                let name = self.dstring(&name);
                let mut ops = vec![Operand::IdRef(name), self.size(size_bits)];
                match self.dkind() {
                    DebugSet::OpenCl => {
                        ops.push(Operand::LiteralBit32(spell::encoding_code(encoding)))
                    }
                    DebugSet::NonSemantic => {
                        ops.push(self.num(spell::encoding_code(encoding)));
                        ops.push(self.num(0));
                    }
                }
                (D::DebugTypeBasic, ops)
            }
            DebugType::Pointer { base, space, .. } => {
                let base = self.dtype(base);
                let sc = space.map_or(spirv::StorageClass::Function, |s| {
                    crate::mappings::space_storage_class(s)
                });
                let sc = match self.dkind() {
                    DebugSet::OpenCl => Operand::StorageClass(sc),
                    DebugSet::NonSemantic => self.num(sc as u32),
                };
                (
                    D::DebugTypePointer,
                    vec![Operand::IdRef(base), sc, self.num(0)],
                )
            }
            DebugType::Qualified { qualifier, base } => {
                let base = self.dtype(base);
                let q = self.num(spell::qualifier_code(qualifier));
                (D::DebugTypeQualifier, vec![Operand::IdRef(base), q])
            }
            DebugType::Array { base, counts, .. } => {
                let base = self.dtype(base);
                let mut ops = vec![Operand::IdRef(base)];
                for c in counts {
                    // An unknown count (`[]`) is 1: OpenCL.DebugInfo.100 has no count 0.
                    ops.push(self.size(c.unwrap_or(1).max(1)));
                }
                (D::DebugTypeArray, ops)
            }
            // The sets have vectors of 2 to 4 basic lanes; `float8` and `float16` are arrays.
            DebugType::Vector { base, count, .. }
                if (1..=4).contains(&count) && self.written_basic(base) =>
            {
                let base = self.dtype(base);
                let n = self.num(count);
                (D::DebugTypeVector, vec![Operand::IdRef(base), n])
            }
            DebugType::Vector { base, count, .. } => {
                let base = self.dtype(base);
                let n = self.size(u64::from(count.max(1)));
                (D::DebugTypeArray, vec![Operand::IdRef(base), n])
            }
            // A typedef of anything but a basic type is not one the sets allow: the type it
            // names stands for it.
            DebugType::Typedef { base, .. } if !self.written_basic(base) => {
                self.dw().open_types.remove(&t);
                let id = self.dtype(base);
                self.dw().types.insert(t, id);
                return id;
            }
            DebugType::Typedef {
                name,
                base,
                file,
                line,
            } => {
                let name = self.dstring(&name);
                let base = self.dtype(base);
                let source = self.file_or_unit(file);
                let ops = vec![
                    Operand::IdRef(name),
                    Operand::IdRef(base),
                    Operand::IdRef(source),
                    self.num(line),
                    self.num(0),
                    Operand::IdRef(top),
                ];
                (D::DebugTypedef, ops)
            }
            DebugType::Function { ret, params } => {
                let id = self.function_type(ret, &params);
                self.dw().types.insert(t, id);
                self.dw().open_types.remove(&t);
                return id;
            }
            DebugType::Enum {
                name,
                base,
                file,
                line,
                size_bits,
                values,
            } => {
                let name = self.dstring(&name);
                let base = match base {
                    Some(b) => self.dtype(Some(b)),
                    None => self.none(),
                };
                let source = self.file_or_unit(file);
                let mut ops = vec![
                    Operand::IdRef(name),
                    Operand::IdRef(base),
                    Operand::IdRef(source),
                    self.num(line),
                    self.num(0),
                    Operand::IdRef(top),
                    self.size(size_bits),
                    self.num(0),
                ];
                for (n, v) in values {
                    // Values are 32-bit constants here (an enum's values fit its int).
                    ops.push(Operand::IdRef(self.u32_const(v as u32)));
                    ops.push(Operand::IdRef(self.dstring(&n)));
                }
                (D::DebugTypeEnum, ops)
            }
            DebugType::Composite {
                kind,
                name,
                file,
                line,
                size_bits,
                members,
                declaration,
                identifier,
            } => {
                let name_id = self.dstring(&name);
                let source = self.file_or_unit(file);
                let linkage = self.dstring(identifier.as_deref().unwrap_or(""));
                let tag = match self.dkind() {
                    DebugSet::OpenCl => Operand::LiteralBit32(spell::composite_code(kind)),
                    DebugSet::NonSemantic => self.num(spell::composite_code(kind)),
                };
                let mut ops = vec![
                    Operand::IdRef(name_id),
                    tag,
                    Operand::IdRef(source),
                    self.num(line),
                    self.num(0),
                    Operand::IdRef(top),
                    Operand::IdRef(linkage),
                    self.size(size_bits),
                    self.num(if declaration { flags::FWD_DECL } else { 0 }),
                ];
                match self.dkind() {
                    // Members name their struct, which names them ahead (the one forward
                    // reference the set allows): the struct first, then each member.
                    DebugSet::OpenCl => {
                        let ids: Vec<Word> = members.iter().map(|_| self.b.id()).collect();
                        ops.extend(ids.iter().map(|&m| Operand::IdRef(m)));
                        self.define(id, D::DebugTypeComposite as u32, ops);
                        self.dw().types.insert(t, id);
                        self.dw().open_types.remove(&t);
                        for (m, mid) in members.iter().zip(ids) {
                            self.member(mid, id, m);
                        }
                        return id;
                    }
                    // No forward reference at all: the members first (a pointer back to
                    // the struct among them points to DebugInfoNone).
                    DebugSet::NonSemantic => {
                        for m in &members {
                            let mid = self.b.id();
                            self.member(mid, id, m);
                            ops.push(Operand::IdRef(mid));
                        }
                    }
                }
                (D::DebugTypeComposite, ops)
            }
            DebugType::Named { name } => {
                // A type known by name: an opaque struct, as llvm-spirv writes images.
                let name = self.dstring(&name);
                let source = self.file_or_unit(None);
                let none = self.none();
                let tag = match self.dkind() {
                    DebugSet::OpenCl => Operand::LiteralBit32(1),
                    DebugSet::NonSemantic => self.num(1),
                };
                let ops = vec![
                    Operand::IdRef(name),
                    tag,
                    Operand::IdRef(source),
                    self.num(0),
                    self.num(0),
                    Operand::IdRef(top),
                    Operand::IdRef(name),
                    Operand::IdRef(none),
                    self.num(flags::FWD_DECL),
                ];
                (D::DebugTypeComposite, ops)
            }
        };
        self.define(id, op as u32, ops);
        self.dw().types.insert(t, id);
        self.dw().open_types.remove(&t);
        id
    }

    /// A source file, or where the input named none, the first unit's.
    fn file_or_unit(&mut self, f: Option<Handle<dbg::SourceFile>>) -> Word {
        match f.or_else(|| self.m.debug.units.first().map(|u| u.file)) {
            Some(f) => self.file(f),
            None => {
                let f = self.m.debug.files.iter().next().map(|(h, _)| h);
                match f {
                    Some(f) => self.file(f),
                    // No file at all: a source without a name.
                    None => {
                        if let Some(&id) = self.dw().strings.get("\0nofile") {
                            return id;
                        }
                        let name = self.dstring("");
                        let id = self.b.id();
                        let ops = vec![Operand::IdRef(name), Operand::IdRef(name)];
                        self.define(id, D::DebugSource as u32, ops);
                        self.dw().strings.insert("\0nofile".into(), id);
                        id
                    }
                }
            }
        }
    }

    fn member(&mut self, id: Word, parent: Word, m: &dbg::Member) {
        let name = self.dstring(&m.name);
        let ty = self.dtype(m.ty);
        let source = self.file_or_unit(m.file);
        let mut ops = vec![
            Operand::IdRef(name),
            Operand::IdRef(ty),
            Operand::IdRef(source),
            self.num(m.line),
            self.num(0),
        ];
        if self.dkind() == DebugSet::OpenCl {
            ops.push(Operand::IdRef(parent));
        }
        ops.push(self.size(m.offset_bits));
        ops.push(self.size(m.size_bits));
        ops.push(self.num(0));
        self.define(id, D::DebugTypeMember as u32, ops);
    }

    fn variable(&mut self, v: Handle<dbg::Variable>) -> Word {
        if let Some(&id) = self.dw().vars.get(&v) {
            return id;
        }
        let var = self.m.debug.variables[v].clone();
        let name = self.dstring(&var.name);
        let ty = self.dtype(var.ty);
        let source = self.file(var.file);
        let parent = self.scope(var.scope);
        let mut ops = vec![
            Operand::IdRef(name),
            Operand::IdRef(ty),
            Operand::IdRef(source),
            self.num(var.line),
            self.num(0),
            Operand::IdRef(parent),
            self.num(if var.artificial { flags::ARTIFICIAL } else { 0 }),
        ];
        if let Some(a) = var.arg {
            ops.push(self.num(a));
        }
        let id = self.b.id();
        self.define(id, D::DebugLocalVariable as u32, ops);
        self.dw().vars.insert(v, id);
        id
    }

    fn expression(&mut self, e: &dbg::DebugExpression) -> Word {
        if let Some(&id) = self.dw().exprs.get(e) {
            return id;
        }
        let mut ops = Vec::new();
        for &step in e {
            let (code, args) = spell::operation(step);
            let mut o = match self.dkind() {
                DebugSet::OpenCl => vec![Operand::LiteralBit32(code)],
                DebugSet::NonSemantic => vec![self.num(code)],
            };
            for a in args {
                o.push(self.num(a));
            }
            let id = self.b.id();
            self.define(id, D::DebugOperation as u32, o);
            ops.push(Operand::IdRef(id));
        }
        let id = self.b.id();
        self.define(id, D::DebugExpression as u32, ops);
        self.dw().exprs.insert(e.clone(), id);
        id
    }

    fn inlined_at(&mut self, l: Handle<dbg::Location>) -> Word {
        if let Some(&id) = self.dw().inlined.get(&l) {
            return id;
        }
        let loc = self.m.debug.locations[l];
        let scope = self.scope(loc.scope);
        let mut ops = vec![self.num(loc.line), Operand::IdRef(scope)];
        if let Some(outer) = loc.inlined_at {
            ops.push(Operand::IdRef(self.inlined_at(outer)));
        }
        let id = self.b.id();
        self.define(id, D::DebugInlinedAt as u32, ops);
        self.dw().inlined.insert(l, id);
        id
    }

    /// Write a body-level instruction of the set in the selected block.
    fn body_inst(&mut self, op: u32, operands: Vec<Operand>) -> Result<()> {
        let void = self.b.type_void();
        let set = self.dw().set;
        self.b
            .ext_inst(void, None, set, op, operands)
            .map_err(super::body::internal)?;
        Ok(())
    }

    /// A block starts: no scope and no line in force.
    pub(super) fn debug_block_start(&mut self) {
        if let Some(d) = self.debug.as_mut() {
            d.scope_now = None;
            d.line_now = None;
        }
    }

    /// The source position of the next instruction: a DebugScope and a line where they
    /// change; for an instruction without one, no line (the scope stays in force: a line
    /// needs one, and none is said without a line).
    pub(super) fn debug_at(&mut self, loc: Option<Handle<dbg::Location>>) -> Result<()> {
        if self.debug.is_none() {
            return Ok(());
        }
        let Some(l) = loc else {
            if self.dw().line_now.take().is_some() {
                match self.dkind() {
                    DebugSet::OpenCl => self.b.no_line(),
                    DebugSet::NonSemantic => self.body_inst(nonsemantic_op::NO_LINE, vec![])?,
                }
            }
            return Ok(());
        };
        let at = self.m.debug.locations[l];
        let scope = self.scope(at.scope);
        let inlined = match at.inlined_at {
            Some(i) => Some(self.inlined_at(i)),
            None => None,
        };
        if self.dw().scope_now != Some((scope, inlined)) {
            let mut ops = vec![Operand::IdRef(scope)];
            ops.extend(inlined.map(Operand::IdRef));
            self.body_inst(D::DebugScope as u32, ops)?;
            self.dw().scope_now = Some((scope, inlined));
        }
        let file = self.m.debug.scopes[at.scope].file;
        let line = (file, at.line, at.column);
        if self.dw().line_now != Some(line) {
            self.dw().line_now = Some(line);
            match self.dkind() {
                DebugSet::OpenCl => {
                    let path = self.m.debug.files[file].path();
                    let s = self.dstring(&path);
                    self.b.line(s, at.line, at.column);
                }
                DebugSet::NonSemantic => {
                    let source = self.file(file);
                    let ops = vec![
                        Operand::IdRef(source),
                        self.num(at.line),
                        self.num(at.line),
                        self.num(at.column),
                        self.num(at.column),
                    ];
                    self.body_inst(nonsemantic_op::LINE, ops)?;
                }
            }
        }
        Ok(())
    }

    /// NonSemantic.Shader.DebugInfo.100 ties a function's DebugFunction to its definition
    /// in its entry block.
    pub(super) fn debug_function_definition(
        &mut self,
        f: ir::Handle<ir::Function>,
        id: Word,
    ) -> Result<()> {
        if self.debug.is_none() || self.dkind() != DebugSet::NonSemantic {
            return Ok(());
        }
        let Some(sp) = self.m.debug.subprogram_for(f) else {
            return Ok(());
        };
        let scope = self.scope(sp);
        self.body_inst(
            nonsemantic_op::FUNCTION_DEFINITION,
            vec![Operand::IdRef(scope), Operand::IdRef(id)],
        )
    }

    /// `DebugDeclare`/`DebugValue` of a variable. A declaration of an address that is not a
    /// variable or parameter (SPIR-V's rule) says the same as a value read through it.
    pub(super) fn debug_variable(
        &mut self,
        var: Handle<dbg::Variable>,
        place: Word,
        expr: &dbg::DebugExpression,
        declare: bool,
    ) -> Result<()> {
        if self.debug.is_none() {
            return Ok(());
        }
        let v = self.variable(var);
        let e = self.expression(expr);
        let op = if declare {
            D::DebugDeclare
        } else {
            D::DebugValue
        };
        self.body_inst(
            op as u32,
            vec![Operand::IdRef(v), Operand::IdRef(place), Operand::IdRef(e)],
        )
    }
}
