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
use crate::spv::debug_info::{self as spell, flags, nonsemantic_op, DebugSet};

/// What the writer has written of the debug information so far.
pub(super) struct DebugWriter {
    set: Word,
    kind: DebugSet,
    none: Option<Word>,
    pub(super) strings: HashMap<String, Word>,
    /// The basic type of no bits written for `void`, and the source of no name written
    /// where the module has no file, once each.
    pub(super) void_type: Option<Word>,
    pub(super) no_file: Option<Word>,
    files: HashMap<Handle<dbg::SourceFile>, Word>,
    units: HashMap<u32, Word>,
    scopes: HashMap<Handle<dbg::Scope>, Word>,
    pub(super) types: HashMap<Handle<DebugType>, Word>,
    /// Types being written: a reference back to one (a struct that points to itself) is
    /// DebugInfoNone where the set allows no forward reference.
    pub(super) open_types: crate::hash::HashSet<Handle<DebugType>>,
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
            void_type: None,
            no_file: None,
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

/// The instruction set `format` writes for `target` (`None` for none): `auto` is what the
/// target's consumers read.
pub(super) fn debug_set(
    format: crate::options::DebugInfoFormat,
    target: crate::options::TargetEnv,
) -> Option<DebugSet> {
    use crate::options::DebugInfoFormat as F;
    match format {
        F::Auto if target.is_vulkan() => Some(DebugSet::NonSemantic),
        F::Auto | F::OpenCl => Some(DebugSet::OpenCl),
        F::NonSemantic => Some(DebugSet::NonSemantic),
        F::None => None,
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

    /// The compile unit's producer, as llvm-spirv records it (`OpModuleProcessed`), where
    /// the module's version has the instruction (1.1) without raising it for this alone.
    pub(super) fn debug_producer(&mut self, version: (u8, u8)) {
        if self.debug.is_none() || version < (1, 1) {
            return;
        }
        if let Some(p) = self.m.debug.units.first().and_then(|u| u.producer.as_ref()) {
            self.b
                .module_processed(format!("{}{p}", spell::PRODUCER_RECORD));
        }
    }

    pub(super) fn dw(&mut self) -> &mut DebugWriter {
        self.debug
            .as_mut()
            .expect("asked only with debug information on")
    }

    pub(super) fn dkind(&self) -> DebugSet {
        self.debug.as_ref().map_or(DebugSet::OpenCl, |d| d.kind)
    }

    /// A number operand: a literal in OpenCL.DebugInfo.100, a constant's id in the
    /// non-semantic set.
    pub(super) fn num(&mut self, n: u32) -> Operand {
        match self.dkind() {
            DebugSet::OpenCl => Operand::LiteralBit32(n),
            DebugSet::NonSemantic => Operand::IdRef(self.u32_const(n)),
        }
    }

    /// A size in bits: always a constant's id (a 32-bit one; sizes past 4 GiB are cut).
    pub(super) fn size(&mut self, bits: u64) -> Operand {
        Operand::IdRef(self.u32_const(bits.min(u64::from(u32::MAX)) as u32))
    }

    pub(super) fn dstring(&mut self, s: &str) -> Word {
        if let Some(&id) = self.dw().strings.get(s) {
            return id;
        }
        let id = self.b.string(s);
        self.dw().strings.insert(s.to_string(), id);
        id
    }

    /// The operands the sets' declarations begin with: name, type, source, line, and the
    /// column (0: the graph keeps a declaration's line only).
    pub(super) fn declared(
        &mut self,
        name: Word,
        ty: Word,
        source: Word,
        line: u32,
    ) -> Vec<Operand> {
        vec![
            Operand::IdRef(name),
            Operand::IdRef(ty),
            Operand::IdRef(source),
            self.num(line),
            self.num(0),
        ]
    }

    /// Write a module-scope debug instruction with result `id`.
    pub(super) fn define(&mut self, id: Word, op: u32, operands: Vec<Operand>) {
        let void = self.b.type_void();
        let set = self.dw().set;
        let mut ops = vec![Operand::IdRef(set), Operand::LiteralExtInstInteger(op)];
        ops.extend(operands);
        let inst = Instruction::new(spirv::Op::ExtInst, Some(void), Some(id), ops);
        self.b.module_mut().types_global_values.push(inst);
    }

    pub(super) fn none(&mut self) -> Word {
        if let Some(id) = self.dw().none {
            return id;
        }
        let id = self.b.id();
        self.define(id, D::DebugInfoNone as u32, vec![]);
        self.dw().none = Some(id);
        id
    }

    pub(super) fn file(&mut self, f: Handle<dbg::SourceFile>) -> Word {
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

    pub(super) fn unit(&mut self, i: u32) -> Word {
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
    pub(super) fn top_scope(&mut self) -> Word {
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

    pub(super) fn parent(&mut self, p: Option<Handle<dbg::Scope>>) -> Word {
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
                let fl = flags::of(&[
                    (sp.definition, flags::IS_DEFINITION),
                    (sp.local, flags::IS_LOCAL),
                    (sp.optimized, flags::IS_OPTIMIZED),
                    (sp.prototyped, flags::PROTOTYPED),
                    (sp.artificial, flags::ARTIFICIAL),
                ]);
                let mut ops = self.declared(name, ty, source, sp.line);
                ops.extend([
                    Operand::IdRef(parent),
                    Operand::IdRef(linkage),
                    self.num(fl),
                    self.num(sp.scope_line),
                ]);
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
            ScopeKind::FileBlock { .. } => {
                // A lexical block of its own file at line 0 says the same, but for the
                // discriminator: SPIRV-Tools takes no DebugLexicalBlockDiscriminator as a
                // scope of code (DebugScope, DebugInlinedAt). The block is a scope of its
                // own, so the code it tells apart stays apart.
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

    fn variable(&mut self, v: Handle<dbg::Variable>) -> Word {
        if let Some(&id) = self.dw().vars.get(&v) {
            return id;
        }
        let var = self.m.debug.variables[v].clone();
        let name = self.dstring(&var.name);
        let ty = self.dtype(var.ty);
        let source = self.file(var.file);
        let parent = self.scope(var.scope);
        let mut ops = self.declared(name, ty, source, var.line);
        ops.extend([
            Operand::IdRef(parent),
            self.num(flags::of(&[(var.artificial, flags::ARTIFICIAL)])),
        ]);
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
    pub(super) fn body_inst(&mut self, op: u32, operands: Vec<Operand>) -> Result<()> {
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
        let inlined = at.inlined_at.map(|i| self.inlined_at(i));
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

    /// A `DebugGlobalVariable` for each of the module's global variables, naming the
    /// OpVariable that holds it (written by now), or none.
    pub(super) fn debug_globals(&mut self) {
        if self.debug.is_none() {
            return;
        }
        for g in self.m.debug.globals.clone() {
            let name = self.dstring(&g.name);
            let ty = self.dtype(g.ty);
            let source = self.file(g.file);
            let parent = self.scope(g.scope);
            let linkage = self.dstring(g.linkage_name.as_deref().unwrap_or(""));
            let variable = match g.global.and_then(|h| self.global_ids.get(&h).copied()) {
                Some(id) => id,
                None => self.none(),
            };
            let fl = flags::of(&[
                (g.local, flags::IS_LOCAL),
                (g.definition, flags::IS_DEFINITION),
            ]);
            let mut ops = self.declared(name, ty, source, g.line);
            ops.extend([
                Operand::IdRef(parent),
                Operand::IdRef(linkage),
                Operand::IdRef(variable),
                self.num(fl),
            ]);
            let id = self.b.id();
            self.define(id, D::DebugGlobalVariable as u32, ops);
        }
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
