//! `OpenCL.DebugInfo.100` and `NonSemantic.Shader.DebugInfo.100` (ours, llvm-spirv's, other
//! producers'), `OpLine` and `DebugLine` -> the graph's debug information (`ir::debug`).
//!
//! Module-scope debug instructions are collected as they come and read when first named
//! (a struct names its members ahead, a function's `DebugFunction` its OpFunction); in a
//! body, `DebugScope` and a line say where each following instruction of the block comes
//! from. A module with lines but no scopes (OpLine alone) gets a subprogram per function, so
//! its lines are kept. rspirv reads every operand of an OpExtInst as an id: in
//! `OpenCL.DebugInfo.100` the literal ones are the word itself; in the non-semantic set every
//! number is a constant's id.

use rspirv::dr::{Instruction, Operand};
use spirv::{OpenclDebuginfo100Op as D, Word};

use super::function::FnState;
use super::{Entity, Reader};
use crate::hash::HashMap;
use crate::ir::debug::{self as dbg, DebugType, ScopeKind};
use crate::ir::{self, ConstantKind, Handle, Op};
use crate::spv::debug_info::{self as spell, flags, nonsemantic_op, DebugSet};

/// The module's debug instructions and what they became.
#[derive(Default)]
pub(super) struct DebugReader {
    sets: HashMap<Word, DebugSet>,
    /// The module imports `NonSemantic.Shader.DebugInfo.200`: its non-semantic
    /// instructions have that edition's layouts (`spell::edition_200`).
    pub(super) edition_200: bool,
    strings: HashMap<Word, String>,
    insts: HashMap<Word, (DebugSet, u32, Vec<Word>)>,
    files: HashMap<Word, Handle<dbg::SourceFile>>,
    line_files: HashMap<Word, Handle<dbg::SourceFile>>,
    units: HashMap<Word, u32>,
    scopes: HashMap<Word, Option<Handle<dbg::Scope>>>,
    pub(super) types: HashMap<Word, Option<Handle<DebugType>>>,
    vars: HashMap<Word, Option<Handle<dbg::Variable>>>,
    inlined: HashMap<Word, Option<Handle<dbg::Location>>>,
    /// How many `DebugInlinedAt`s said each call site (see `dinlined`).
    call_sites: HashMap<Handle<dbg::Location>, u32>,
    exprs: HashMap<Word, Option<dbg::DebugExpression>>,
    /// Subprograms made for functions that have lines but no scope.
    made_scopes: HashMap<Handle<ir::Function>, Handle<dbg::Scope>>,
    /// The producer an OpModuleProcessed record names.
    producer: Option<String>,
    /// Functions' subprograms, by their DebugFunction (the OpenCL set names the function
    /// there, the non-semantic one with DebugFunctionDefinition).
    function_scopes: Vec<(Word, Word)>,
    /// The DebugGlobalVariables, read once the module's variables are.
    global_vars: Vec<Word>,
}

fn words(ops: &[Operand]) -> Vec<Word> {
    ops.iter()
        .map(|o| match o {
            Operand::IdRef(w) | Operand::LiteralBit32(w) | Operand::LiteralExtInstInteger(w) => *w,
            _ => 0,
        })
        .collect()
}

impl Reader {
    /// The debug set `name` imports, if it is one; its id is recorded.
    pub(super) fn debug_import(&mut self, id: Word, name: &str) -> Option<DebugSet> {
        let set = DebugSet::from_import(name)?;
        self.dbg.sets.insert(id, set);
        self.dbg.edition_200 |= name == spell::NONSEMANTIC_200;
        Some(set)
    }

    /// An OpString (for DebugSource and OpLine).
    pub(super) fn debug_string(&mut self, inst: &Instruction) {
        if let (Some(id), Some(Operand::LiteralString(s))) = (inst.result_id, inst.operands.first())
        {
            self.dbg.strings.insert(id, s.clone());
        }
    }

    /// An OpModuleProcessed record: the one that names the debug information's producer
    /// (`spell::PRODUCER_RECORD`) is kept for the compile unit.
    pub(super) fn debug_processed(&mut self, inst: &Instruction) {
        if let Some(Operand::LiteralString(s)) = inst.operands.first() {
            if let Some(p) = s.strip_prefix(spell::PRODUCER_RECORD) {
                self.dbg.producer = Some(p.to_string());
            }
        }
    }

    /// A module-scope OpExtInst: kept, by id, if it is of a debug set.
    pub(super) fn debug_module_inst(&mut self, inst: &Instruction) {
        let w = words(&inst.operands);
        let (Some(id), [set, op, rest @ ..]) = (inst.result_id, &w[..]) else {
            return;
        };
        if let Some(&kind) = self.dbg.sets.get(set) {
            self.dbg.insts.insert(id, (kind, *op, rest.to_vec()));
            if *op == D::DebugGlobalVariable as u32 {
                self.dbg.global_vars.push(id);
            }
            if *op == D::DebugFunction as u32 && kind == DebugSet::OpenCl {
                if let Some(&f) = rest.get(9) {
                    self.dbg.function_scopes.push((id, f));
                }
            }
        }
    }

    /// A number operand: the word itself in the OpenCL set, the constant it names in the
    /// non-semantic one.
    pub(super) fn dnum(&self, kind: DebugSet, w: Option<&Word>) -> u32 {
        let Some(&w) = w else { return 0 };
        match kind {
            DebugSet::OpenCl => w,
            DebugSet::NonSemantic => self.dconst(w).unwrap_or(0) as u32,
        }
    }

    /// The value of an integer constant id.
    pub(super) fn dconst(&self, id: Word) -> Option<u64> {
        match self.ids.get(&id) {
            Some(Entity::Constant(c)) => match self.m.constants[*c].kind {
                ConstantKind::Int(v) => Some(v),
                _ => None,
            },
            _ => None,
        }
    }

    pub(super) fn dstr(&self, id: Option<&Word>) -> String {
        id.and_then(|i| self.dbg.strings.get(i))
            .cloned()
            .unwrap_or_default()
    }

    pub(super) fn dinst(&self, id: Word) -> Option<(DebugSet, u32, Vec<Word>)> {
        self.dbg.insts.get(&id).cloned()
    }

    pub(super) fn dfile(&mut self, id: Option<&Word>) -> Handle<dbg::SourceFile> {
        let Some(&id) = id else {
            return self.m.debug.file("", "", None);
        };
        if let Some(&f) = self.dbg.files.get(&id) {
            return f;
        }
        let f = match self.dinst(id) {
            Some((kind, op, ops)) if op == D::DebugSource as u32 => {
                let path = self.dstr(ops.first());
                let at = match (kind, self.dbg.edition_200) {
                    (DebugSet::NonSemantic, true) => spell::edition_200::SOURCE_TEXT
                        .into_iter()
                        .find(|&i| i + 1 == ops.len()),
                    _ => Some(1),
                };
                // An empty text is none (what a writer must put where it has none).
                let text = at
                    .and_then(|i| ops.get(i))
                    .map(|t| self.dstr(Some(t)))
                    .filter(|t| !t.is_empty());
                file_of_path(&mut self.m.debug, &path, text)
            }
            _ => self.m.debug.file("", "", None),
        };
        self.dbg.files.insert(id, f);
        f
    }

    fn dunit(&mut self, id: Word) -> Option<u32> {
        if let Some(&u) = self.dbg.units.get(&id) {
            return Some(u);
        }
        let (kind, op, ops) = self.dinst(id)?;
        if op != D::DebugCompilationUnit as u32 {
            return None;
        }
        let file = self.dfile(ops.get(2));
        let i = self.m.debug.units.len() as u32;
        let named = ops
            .get(spell::edition_200::UNIT_PRODUCER)
            .filter(|_| kind == DebugSet::NonSemantic && self.dbg.edition_200)
            .map(|p| self.dstr(Some(p)))
            .filter(|p| !p.is_empty());
        self.m.debug.units.push(dbg::CompileUnit {
            file,
            language: spell::language_of(self.dnum(kind, ops.get(3))),
            producer: named.or_else(|| self.dbg.producer.clone()),
            optimized: false,
            dwarf_version: self.dnum(kind, ops.get(1)).clamp(2, 5),
        });
        self.dbg.units.insert(id, i);
        Some(i)
    }

    /// The scope a debug id names; `None` for a compile unit's top level or what is no scope.
    fn dscope(&mut self, id: Word) -> Option<Handle<dbg::Scope>> {
        if let Some(&s) = self.dbg.scopes.get(&id) {
            return s;
        }
        self.dbg.scopes.insert(id, None);
        let s = self.dscope_of(id);
        self.dbg.scopes.insert(id, s);
        s
    }

    fn dscope_of(&mut self, id: Word) -> Option<Handle<dbg::Scope>> {
        let (kind, op, ops) = self.dinst(id)?;
        let nums: Vec<u32> = (0..ops.len())
            .map(|i| self.dnum(kind, ops.get(i)))
            .collect();
        let n = |i: usize| nums.get(i).copied().unwrap_or(0);
        let (skind, file, parent) = if op == D::DebugFunction as u32 {
            let fl = n(7);
            let ty = ops.get(1).and_then(|&t| self.dtype(t));
            let file = self.dfile(ops.get(2));
            let parent = ops.get(5).and_then(|&p| self.dscope(p));
            let unit = ops.get(5).and_then(|&p| self.dunit(p));
            let linkage = self.dstr(ops.get(6));
            let sp = dbg::Subprogram {
                name: self.dstr(ops.first()),
                linkage_name: (!linkage.is_empty()).then_some(linkage),
                file,
                line: n(3),
                scope_line: n(8),
                ty,
                unit,
                function: None,
                definition: fl & flags::IS_DEFINITION != 0,
                local: fl & flags::IS_LOCAL != 0,
                optimized: fl & flags::IS_OPTIMIZED != 0,
                prototyped: fl & flags::PROTOTYPED != 0,
                artificial: fl & flags::ARTIFICIAL != 0,
            };
            (ScopeKind::Subprogram(sp), file, parent)
        } else if op == D::DebugLexicalBlock as u32 {
            let file = self.dfile(ops.first());
            let parent = ops.get(3).and_then(|&p| self.dscope(p));
            let k = match ops.get(4) {
                Some(name) => ScopeKind::Namespace {
                    name: self.dstr(Some(name)),
                },
                None => ScopeKind::LexicalBlock {
                    line: n(1),
                    column: n(2),
                },
            };
            (k, file, parent)
        } else if op == D::DebugLexicalBlockDiscriminator as u32 {
            let file = self.dfile(ops.first());
            let parent = ops.get(2).and_then(|&p| self.dscope(p));
            (
                ScopeKind::FileBlock {
                    discriminator: n(1),
                },
                file,
                parent,
            )
        } else if op == D::DebugCompilationUnit as u32 {
            let u = self.dunit(id)?;
            let file = self.m.debug.units[u as usize].file;
            (ScopeKind::Unit(u), file, None)
        } else if op == D::DebugTypeComposite as u32 {
            let t = self.dtype(id)?;
            let file = self.dfile(ops.get(2));
            (ScopeKind::Type(t), file, None)
        } else {
            return None;
        };
        Some(self.m.debug.scopes.append(dbg::Scope {
            kind: skind,
            parent,
            file,
        }))
    }

    fn dvar(&mut self, id: Word) -> Option<Handle<dbg::Variable>> {
        if let Some(&v) = self.dbg.vars.get(&id) {
            return v;
        }
        let v = self.dvar_of(id);
        self.dbg.vars.insert(id, v);
        v
    }

    fn dvar_of(&mut self, id: Word) -> Option<Handle<dbg::Variable>> {
        let (kind, op, ops) = self.dinst(id)?;
        if op != D::DebugLocalVariable as u32 {
            return None;
        }
        let scope = self.dscope(*ops.get(5)?)?;
        let fl = self.dnum(kind, ops.get(6));
        let v = dbg::Variable {
            name: self.dstr(ops.first()),
            ty: self.dtype_opt(ops.get(1)),
            file: self.dfile(ops.get(2)),
            line: self.dnum(kind, ops.get(3)),
            scope,
            arg: ops.get(7).map(|a| self.dnum(kind, Some(a))),
            artificial: fl & flags::ARTIFICIAL != 0,
        };
        Some(self.m.debug.variables.append(v))
    }

    fn dexpr(&mut self, id: Word) -> Option<dbg::DebugExpression> {
        if let Some(e) = self.dbg.exprs.get(&id) {
            return e.clone();
        }
        let e = (|| {
            let (_, op, ops) = self.dinst(id)?;
            if op != D::DebugExpression as u32 {
                return None;
            }
            ops.iter()
                .map(|&o| {
                    let (kind, op, args) = self.dinst(o)?;
                    if op != D::DebugOperation as u32 {
                        return None;
                    }
                    let vals: Vec<u32> = (0..args.len())
                        .map(|i| self.dnum(kind, args.get(i)))
                        .collect();
                    spell::operation_of(*vals.first()?, &vals[1..])
                })
                .collect()
        })();
        self.dbg.exprs.insert(id, e.clone());
        e
    }

    fn dinlined(&mut self, id: Word) -> Option<Handle<dbg::Location>> {
        if let Some(&l) = self.dbg.inlined.get(&id) {
            return l;
        }
        self.dbg.inlined.insert(id, None);
        let l = (|| {
            let (kind, op, ops) = self.dinst(id)?;
            if op != D::DebugInlinedAt as u32 {
                return None;
            }
            // The .200 edition has a column after the line.
            let column = (kind == DebugSet::NonSemantic && self.dbg.edition_200)
                .then(|| self.dnum(kind, ops.get(spell::edition_200::INLINED_COLUMN)));
            let rest = &ops[usize::from(column.is_some())..];
            let scope = self.dscope(*rest.get(1)?)?;
            let inlined_at = match rest.get(2) {
                Some(&outer) => Some(self.dinlined(outer)?),
                None => None,
            };
            let mut at = dbg::Location {
                line: self.dnum(kind, ops.first()),
                column: column.unwrap_or(0),
                scope,
                inlined_at,
            };
            // Two calls on one line inlined (`f(a) + f(b)`) are two `DebugInlinedAt`s that
            // say the same, having no column (but in the .200 edition): the second and later get a discriminator
            // scope of their own, as LLVM tells code on one line apart, so that each stays
            // an instance of its own (its variables too).
            let seen = self
                .dbg
                .call_sites
                .entry(self.m.debug.location(at))
                .or_default();
            *seen += 1;
            if *seen > 1 {
                let discriminator = *seen - 1;
                at.scope = self.m.debug.scopes.append(dbg::Scope {
                    kind: ScopeKind::FileBlock { discriminator },
                    parent: Some(scope),
                    file: self.m.debug.scopes[scope].file,
                });
            }
            Some(self.m.debug.location(at))
        })();
        self.dbg.inlined.insert(id, l);
        l
    }

    /// Tie each `DebugFunction` that names an OpFunction (the OpenCL set) to its function;
    /// read the global variables' descriptions.
    pub(super) fn debug_functions(&mut self) {
        for (sp, f) in std::mem::take(&mut self.dbg.function_scopes) {
            if let Some(Entity::Function(h)) = self.ids.get(&f).copied() {
                self.tie_function(sp, h);
            }
        }
        for id in std::mem::take(&mut self.dbg.global_vars) {
            self.dglobal(id);
        }
    }

    /// A `DebugGlobalVariable` (name, type, source, line, column, parent, linkage name,
    /// variable, flags), with the module's variable it names, if it names one.
    fn dglobal(&mut self, id: Word) {
        let Some((kind, _, ops)) = self.dinst(id) else {
            return;
        };
        let Some(scope) = ops.get(5).and_then(|&p| self.dscope(p)) else {
            return;
        };
        let linkage = self.dstr(ops.get(6));
        let fl = self.dnum(kind, ops.get(8));
        let global = match ops.get(7).and_then(|v| self.ids.get(v)) {
            Some(Entity::Global(g)) => Some(*g),
            _ => None,
        };
        let g = dbg::GlobalVariable {
            name: self.dstr(ops.first()),
            linkage_name: (!linkage.is_empty()).then_some(linkage),
            ty: self.dtype_opt(ops.get(1)),
            file: self.dfile(ops.get(2)),
            line: self.dnum(kind, ops.get(3)),
            scope,
            local: fl & flags::IS_LOCAL != 0,
            definition: fl & flags::IS_DEFINITION != 0,
            global,
        };
        self.m.debug.globals.push(g);
    }

    /// A function's own code is in scope `s` (not inlined): where neither `s`'s subprogram
    /// nor the function is tied to another (a DebugFunction whose Function operand is
    /// DebugInfoNone), they are tied.
    fn adopt_subprogram(&mut self, s: Handle<dbg::Scope>, f: Handle<ir::Function>) {
        let d = &mut self.m.debug;
        let Some(sp) = d.subprogram_of(s) else { return };
        if d.subprogram_for(f).is_some() {
            return;
        }
        if let ScopeKind::Subprogram(p) = &mut d.scopes[sp].kind {
            if p.function.is_none() {
                p.function = Some(f);
            }
        }
    }

    fn tie_function(&mut self, sp: Word, f: Handle<ir::Function>) {
        if let Some(s) = self.dscope(sp) {
            if let ScopeKind::Subprogram(p) = &mut self.m.debug.scopes[s].kind {
                p.function = Some(f);
            }
        }
    }

    /// A line or debug instruction in a body of function `f`: whether it was one (it is
    /// then read).
    pub(super) fn debug_body_inst(
        &mut self,
        st: &mut FnState,
        f: Handle<ir::Function>,
        inst: &Instruction,
    ) -> bool {
        match inst.class.opcode {
            spirv::Op::Line => {
                let w = words(&inst.operands);
                if let [file, line, col, ..] = w[..] {
                    let f = self.line_file(file);
                    st.pos.line = Some((f, line, col));
                    st.pos.loc = None;
                }
                true
            }
            spirv::Op::NoLine => {
                st.pos.line = None;
                st.pos.loc = None;
                true
            }
            spirv::Op::ExtInst => {
                let w = words(&inst.operands);
                let [set, op, ref ops @ ..] = w[..] else {
                    return false;
                };
                let Some(&kind) = self.dbg.sets.get(&set) else {
                    return false;
                };
                self.debug_in_body(st, f, kind, op, ops);
                true
            }
            _ => false,
        }
    }

    fn line_file(&mut self, string: Word) -> Handle<dbg::SourceFile> {
        if let Some(&f) = self.dbg.line_files.get(&string) {
            return f;
        }
        let path = self.dstr(Some(&string));
        let f = file_of_path(&mut self.m.debug, &path, None);
        self.dbg.line_files.insert(string, f);
        f
    }

    fn debug_in_body(
        &mut self,
        st: &mut FnState,
        f: Handle<ir::Function>,
        kind: DebugSet,
        op: u32,
        ops: &[Word],
    ) {
        match op {
            o if o == D::DebugScope as u32 => {
                let scope = ops.first().and_then(|&s| self.dscope(s));
                let inlined = ops.get(1).and_then(|&i| self.dinlined(i));
                if let (Some(s), None) = (scope, inlined) {
                    self.adopt_subprogram(s, f);
                }
                st.pos.scope = scope.map(|s| (s, inlined));
                st.pos.loc = None;
            }
            o if o == D::DebugNoScope as u32 => {
                st.pos.scope = None;
                st.pos.loc = None;
            }
            nonsemantic_op::LINE if kind == DebugSet::NonSemantic => {
                let f = self.dfile(ops.first());
                let line = self.dnum(kind, ops.get(1));
                let col = self.dnum(kind, ops.get(3));
                st.pos.line = Some((f, line, col));
                st.pos.loc = None;
            }
            nonsemantic_op::NO_LINE if kind == DebugSet::NonSemantic => {
                st.pos.line = None;
                st.pos.loc = None;
            }
            nonsemantic_op::FUNCTION_DEFINITION if kind == DebugSet::NonSemantic => {
                if let (Some(&sp), Some(&f)) = (ops.first(), ops.get(1)) {
                    if let Some(Entity::Function(h)) = self.ids.get(&f).copied() {
                        self.tie_function(sp, h);
                    }
                }
            }
            o if o == D::DebugDeclare as u32 || o == D::DebugValue as u32 => {
                st.loc = self.debug_loc(st, f);
                self.debug_declaration(st, o == D::DebugDeclare as u32, ops);
            }
            _ => {}
        }
    }

    fn debug_declaration(&mut self, st: &mut FnState, declare: bool, ops: &[Word]) {
        let (Some(&var), Some(&place), Some(&expr)) = (ops.first(), ops.get(1), ops.get(2)) else {
            return;
        };
        let (Some(var), Some(expr)) = (self.dvar(var), self.dexpr(expr)) else {
            return;
        };
        // An operand this reader has no value for (a global it folded away) is left out.
        let Ok(v) = self.operand(st, place) else {
            return;
        };
        let op = if declare {
            Op::DebugDeclare {
                var,
                address: v,
                expr,
            }
        } else {
            Op::DebugValue {
                var,
                value: v,
                expr,
            }
        };
        let void = self.m.void_type();
        self.push(st, void, op, None);
    }

    /// The location of the instructions being read in function `f`: the scope and line in
    /// force (a line without a scope is in a subprogram made for `f`).
    pub(super) fn debug_loc(
        &mut self,
        st: &mut FnState,
        f: Handle<ir::Function>,
    ) -> Option<Handle<dbg::Location>> {
        if st.pos.loc.is_some() {
            return st.pos.loc;
        }
        let (file, line, column) = st.pos.line?;
        let (scope, inlined_at) = match st.pos.scope {
            Some(s) => s,
            None => (self.made_scope(f, file), None),
        };
        let loc = self.m.debug.location(dbg::Location {
            line,
            column,
            scope,
            inlined_at,
        });
        st.pos.loc = Some(loc);
        Some(loc)
    }

    fn made_scope(
        &mut self,
        f: Handle<ir::Function>,
        file: Handle<dbg::SourceFile>,
    ) -> Handle<dbg::Scope> {
        if let Some(&s) = self.dbg.made_scopes.get(&f) {
            return s;
        }
        let name = self.m.functions[f].name.clone();
        let s = self.m.debug.scopes.append(dbg::Scope {
            kind: ScopeKind::Subprogram(dbg::Subprogram {
                name,
                linkage_name: None,
                file,
                line: 0,
                scope_line: 0,
                ty: None,
                unit: None,
                function: Some(f),
                definition: true,
                local: false,
                optimized: false,
                prototyped: false,
                artificial: false,
            }),
            parent: None,
            file,
        });
        self.dbg.made_scopes.insert(f, s);
        s
    }

    /// Whether the module's debug sets are ones this reader reads (their instructions are
    /// then not reported as dropped).
    pub(super) fn is_debug_set(&self, id: Word) -> bool {
        self.dbg.sets.contains_key(&id)
    }
}

/// A file from the one path SPIR-V gives (`DebugSource`, `OpLine`): its directory and name.
fn file_of_path(
    d: &mut dbg::DebugInfo,
    path: &str,
    text: Option<String>,
) -> Handle<dbg::SourceFile> {
    match path.rsplit_once('/') {
        Some((dir, name)) if !dir.is_empty() => d.file(name, dir, text),
        _ => d.file(path, "", text),
    }
}
