//! Debug information (`ir::debug`) as LLVM debug metadata: one compile unit, a
//! `DISubprogram` per function that has one, `!dbg` locations (with their inlined-at chains),
//! `llvm.dbg.declare`/`llvm.dbg.value` of the variables, and the source's types; built
//! through the LLVM room's `DiBuilder`, and so with DWARF's spellings, which live here.
//!
//! LLVM's verifier has rules of its own (a location belongs to its function's subprogram, a
//! call of a function with a subprogram has a location): a location that would break one is
//! left out, and a call that needs one gets line 0 of its function, as LLVM's own passes do.

use crate::hash::HashMap;

use super::Writer;
use crate::diag::Result;
use crate::ir::debug::{self as dbg, DebugType, ScopeKind};
use crate::ir::{self, Handle};
use crate::llvm::{self, dwarf_tag, DiBuilder, Metadata};

/// What the writer has made of the debug information so far.
pub(super) struct SpirDebug<'a> {
    di: DiBuilder<'a>,
    unit: Metadata<'a>,
    files: HashMap<Handle<dbg::SourceFile>, Metadata<'a>>,
    scopes: HashMap<Handle<dbg::Scope>, Option<Metadata<'a>>>,
    types: HashMap<Handle<DebugType>, Option<Metadata<'a>>>,
    vars: HashMap<Handle<dbg::Variable>, Option<Metadata<'a>>>,
    locs: HashMap<Handle<dbg::Location>, Option<Metadata<'a>>>,
    /// The subprogram of the function being written.
    pub(super) function_sp: Option<Metadata<'a>>,
}

/// DWARF's language of a compile unit's language (another is written as OpenCL C).
fn dwarf_language(l: dbg::SourceLanguage) -> llvm::DwarfLanguage {
    match l {
        dbg::SourceLanguage::OpenClCpp | dbg::SourceLanguage::Cpp => llvm::DwarfLanguage::Cpp,
        dbg::SourceLanguage::C => llvm::DwarfLanguage::C99,
        dbg::SourceLanguage::OpenClC | dbg::SourceLanguage::Other(_) => llvm::DwarfLanguage::OpenCl,
    }
}

/// DWARF's `DW_ATE_*` of an encoding.
fn dwarf_encoding(e: dbg::Encoding) -> u32 {
    match e {
        dbg::Encoding::Address => 0x01,
        dbg::Encoding::Boolean => 0x02,
        dbg::Encoding::Float => 0x04,
        dbg::Encoding::Signed => 0x05,
        dbg::Encoding::SignedChar => 0x06,
        dbg::Encoding::Unsigned => 0x07,
        dbg::Encoding::UnsignedChar => 0x08,
        dbg::Encoding::Unspecified => 0x00,
    }
}

/// A DWARF expression's operations (`DW_OP_*`, `DW_OP_LLVM_fragment`).
fn dwarf_ops(e: &dbg::DebugExpression) -> Vec<u64> {
    let mut out = Vec::new();
    for op in e {
        match *op {
            dbg::ExprOp::Deref => out.push(0x06),
            dbg::ExprOp::Plus => out.push(0x22),
            dbg::ExprOp::Minus => out.push(0x1c),
            dbg::ExprOp::PlusConst(v) => out.extend([0x23, v]),
            dbg::ExprOp::Const(v) => out.extend([0x10, v]),
            dbg::ExprOp::Swap => out.push(0x16),
            dbg::ExprOp::XDeref => out.push(0x18),
            dbg::ExprOp::StackValue => out.push(0x9f),
            dbg::ExprOp::Fragment { offset, size } => out.extend([0x1000, offset, size]),
        }
    }
    out
}

impl<'a> Writer<'a> {
    /// Start the module's debug information, if the graph has any.
    pub(super) fn debug_start(&mut self) -> Result<()> {
        let d = &self.m.debug;
        if d.is_empty() {
            return Ok(());
        }
        let di = self.llvm.di_builder();
        let unit = d.units.first();
        let (file, language, producer, optimized) = match unit {
            Some(u) => (
                d.files[u.file].clone(),
                u.language,
                u.producer.clone().unwrap_or_default(),
                u.optimized,
            ),
            None => {
                let f = d.files.iter().next().map(|(_, f)| f.clone());
                let f = f.unwrap_or(dbg::SourceFile {
                    name: String::new(),
                    directory: String::new(),
                    text: None,
                });
                (f, dbg::SourceLanguage::OpenClC, String::new(), false)
            }
        };
        let file = di.file(&file.name, &file.directory)?;
        let unit_md = di.compile_unit(dwarf_language(language), file, &producer, optimized)?;
        self.llvm
            .add_debug_flags(unit.map_or(4, |u| u.dwarf_version));
        self.debug = Some(SpirDebug {
            di,
            unit: unit_md,
            files: HashMap::default(),
            scopes: HashMap::default(),
            types: HashMap::default(),
            vars: HashMap::default(),
            locs: HashMap::default(),
            function_sp: None,
        });
        Ok(())
    }

    /// Describe the module's global variables, each attached to the global that holds it;
    /// one without a type is left out (LLVM's verifier wants one).
    pub(super) fn debug_globals(&mut self) -> Result<()> {
        if self.debug.is_none() {
            return Ok(());
        }
        for g in self.m.debug.globals.clone() {
            let (Some(scope), Some(ty)) = (self.dscope(g.scope)?, self.dtype(g.ty)?) else {
                continue;
            };
            let file = self.dfile(g.file)?;
            let linkage = g.linkage_name.as_deref().unwrap_or("");
            let gve = self
                .sd()
                .di
                .global_variable(scope, &g.name, linkage, file, g.line, ty, g.local)?;
            if let Some(v) = g.global.and_then(|h| self.globals.get(&h).copied()) {
                v.attach_global_debug(gve)?;
            }
        }
        Ok(())
    }

    /// Finish the debug information (before the module is verified and written).
    pub(super) fn debug_finish(&mut self) {
        self.debug = None;
    }

    fn sd(&mut self) -> &mut SpirDebug<'a> {
        self.debug
            .as_mut()
            .expect("asked only with debug information")
    }

    fn dfile(&mut self, f: Handle<dbg::SourceFile>) -> Result<Metadata<'a>> {
        if let Some(&m) = self.sd().files.get(&f) {
            return Ok(m);
        }
        let file = self.m.debug.files[f].clone();
        let md = self.sd().di.file(&file.name, &file.directory)?;
        self.sd().files.insert(f, md);
        Ok(md)
    }

    fn dfile_opt(&mut self, f: Option<Handle<dbg::SourceFile>>) -> Result<Option<Metadata<'a>>> {
        f.map(|f| self.dfile(f)).transpose()
    }

    /// The metadata of a scope; `None` where LLVM has no place for it (a block outside a
    /// function).
    fn dscope(&mut self, h: Handle<dbg::Scope>) -> Result<Option<Metadata<'a>>> {
        if let Some(&m) = self.sd().scopes.get(&h) {
            return Ok(m);
        }
        self.sd().scopes.insert(h, None);
        let s = self.m.debug.scopes[h].clone();
        let file = self.dfile(s.file)?;
        let parent = match s.parent {
            Some(p) => self.dscope(p)?,
            None => None,
        };
        let md = match &s.kind {
            ScopeKind::Unit(_) => Some(self.sd().unit),
            ScopeKind::Subprogram(sp) => {
                let ty = match sp.ty.map(|t| self.m.debug.types[t].clone()) {
                    Some(DebugType::Function { ret, params }) => self.subroutine(ret, &params)?,
                    _ => self.sd().di.subroutine_type(&[None])?,
                };
                let mut flags = 0;
                if sp.prototyped {
                    flags |= 1 << 8;
                }
                if sp.artificial {
                    flags |= 1 << 6;
                }
                let scope = parent.unwrap_or(file);
                let linkage = sp.linkage_name.clone().unwrap_or_default();
                Some(self.sd().di.function(
                    scope,
                    &sp.name,
                    &linkage,
                    file,
                    sp.line,
                    ty,
                    (sp.local, sp.definition, sp.optimized),
                    sp.scope_line,
                    flags,
                )?)
            }
            ScopeKind::LexicalBlock { line, column } => match parent {
                Some(p) if is_local(p) => {
                    Some(self.sd().di.lexical_block(p, file, *line, *column)?)
                }
                _ => None,
            },
            ScopeKind::FileBlock { discriminator } => match parent {
                Some(p) if is_local(p) => {
                    Some(self.sd().di.lexical_block_file(p, file, *discriminator)?)
                }
                _ => None,
            },
            ScopeKind::Namespace { name } => Some(self.sd().di.namespace(parent, name)?),
            ScopeKind::Type(t) => self.dtype(Some(*t))?,
        };
        self.sd().scopes.insert(h, md);
        Ok(md)
    }

    fn subroutine(
        &mut self,
        ret: Option<Handle<DebugType>>,
        params: &[Option<Handle<DebugType>>],
    ) -> Result<Metadata<'a>> {
        let mut types = vec![self.dtype(ret)?];
        for &p in params {
            types.push(self.dtype(p)?);
        }
        Ok(self.sd().di.subroutine_type(&types)?)
    }

    /// The metadata of a source type (`None`: `void`).
    fn dtype(&mut self, t: Option<Handle<DebugType>>) -> Result<Option<Metadata<'a>>> {
        let Some(t) = t else { return Ok(None) };
        if let Some(&m) = self.sd().types.get(&t) {
            return Ok(m);
        }
        self.sd().types.insert(t, None);
        let md = match self.m.debug.types[t].clone() {
            DebugType::Basic {
                name,
                size_bits,
                encoding,
            } => self
                .sd()
                .di
                .basic_type(&name, size_bits, dwarf_encoding(encoding))?,
            DebugType::Pointer {
                base,
                space,
                size_bits,
            } => {
                let base = self.dtype(base)?;
                let space = space.and_then(crate::mappings::space_to_llvm);
                self.sd().di.pointer_type(base, size_bits, space)?
            }
            DebugType::Qualified { qualifier, base } => {
                let base = self.dtype(base)?;
                let tag = match qualifier {
                    dbg::Qualifier::Const => dwarf_tag::CONST,
                    dbg::Qualifier::Volatile => dwarf_tag::VOLATILE,
                    dbg::Qualifier::Restrict => dwarf_tag::RESTRICT,
                    dbg::Qualifier::Atomic => dwarf_tag::ATOMIC,
                };
                self.sd().di.qualified_type(tag, base)?
            }
            DebugType::Array {
                base,
                counts,
                size_bits,
            } => {
                let base = self.dtype(base)?;
                self.sd().di.array_type(base, size_bits, &counts, false)?
            }
            DebugType::Vector {
                base,
                count,
                size_bits,
            } => {
                let base = self.dtype(base)?;
                let counts = [Some(u64::from(count))];
                self.sd().di.array_type(base, size_bits, &counts, true)?
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
                let tag = match kind {
                    dbg::CompositeKind::Struct => dwarf_tag::STRUCTURE,
                    dbg::CompositeKind::Union => dwarf_tag::UNION,
                    dbg::CompositeKind::Class => dwarf_tag::CLASS,
                };
                let file = self.dfile_opt(file)?;
                // Members name their struct, which may name itself through them: a
                // temporary struct first, replaced by the whole one.
                let forward = self
                    .sd()
                    .di
                    .forward_composite(tag, &name, file, line, size_bits)?;
                self.sd().types.insert(t, Some(forward));
                let mut ms = Vec::new();
                for m in &members {
                    let ty = self.dtype(m.ty)?;
                    let mfile = self.dfile_opt(m.file)?;
                    ms.push(self.sd().di.member(
                        forward,
                        &m.name,
                        mfile,
                        m.line,
                        m.size_bits,
                        m.offset_bits,
                        ty,
                    )?);
                }
                let id = identifier.unwrap_or_default();
                self.sd().di.complete(
                    forward,
                    tag,
                    &name,
                    file,
                    line,
                    size_bits,
                    &ms,
                    (declaration, &id),
                )?
            }
            DebugType::Enum {
                name,
                base,
                file,
                line,
                size_bits,
                values,
            } => {
                let base = self.dtype(base)?;
                let file = self.dfile_opt(file)?;
                self.sd()
                    .di
                    .enumeration(&name, file, line, size_bits, &values, base)?
            }
            DebugType::Typedef {
                name,
                base,
                file,
                line,
            } => {
                let base = self.dtype(base)?;
                let file = self.dfile_opt(file)?;
                self.sd().di.typedef(base, &name, file, line)?
            }
            DebugType::Function { ret, params } => self.subroutine(ret, &params)?,
            DebugType::Named { name } => self.sd().di.unspecified_type(&name)?,
        };
        self.sd().types.insert(t, Some(md));
        Ok(Some(md))
    }

    /// Attach `f`'s subprogram to its LLVM function, if it has one and a body.
    pub(super) fn debug_function(
        &mut self,
        h: Handle<ir::Function>,
        v: llvm::Value<'a>,
    ) -> Result<()> {
        if self.debug.is_none() || self.m.functions[h].body.is_none() {
            return Ok(());
        }
        let Some(sp) = self.m.debug.subprogram_for(h) else {
            return Ok(());
        };
        if let Some(md) = self.dscope(sp)? {
            v.set_subprogram(md)?;
        }
        Ok(())
    }

    /// Begin writing the body of `h`: its locations must be in its subprogram.
    pub(super) fn debug_enter(&mut self, h: Handle<ir::Function>) -> Result<()> {
        if self.debug.is_none() {
            return Ok(());
        }
        let sp = match self.m.debug.subprogram_for(h) {
            Some(sp) => self.dscope(sp)?,
            None => None,
        };
        self.sd().function_sp = sp;
        Ok(())
    }

    /// The location of the next instruction built (`None`: none). A call of a function
    /// that has a subprogram gets line 0 where it has none, as LLVM's verifier asks.
    pub(super) fn debug_locate(
        &mut self,
        loc: Option<Handle<dbg::Location>>,
        calls_described: bool,
    ) -> Result<()> {
        if self.debug.is_none() {
            return Ok(());
        }
        let mut md = match loc {
            Some(l) => self.dloc_in_function(l)?,
            None => None,
        };
        if md.is_none() && calls_described {
            if let Some(sp) = self.sd().function_sp {
                md = Some(self.sd().di.location(0, 0, sp, None)?);
            }
        }
        self.b.set_location(md)?;
        Ok(())
    }

    /// A location of the function being written: `None` where its outermost scope is not
    /// the function's subprogram (LLVM's verifier refuses that).
    fn dloc_in_function(&mut self, l: Handle<dbg::Location>) -> Result<Option<Metadata<'a>>> {
        let Some(fsp) = self.sd().function_sp else {
            return Ok(None);
        };
        let d = &self.m.debug;
        let mut outer = l;
        for _ in 0..=d.locations.len() {
            match d.locations[outer].inlined_at {
                Some(o) => outer = o,
                None => break,
            }
        }
        let Some(sp) = d.subprogram_of(d.locations[outer].scope) else {
            return Ok(None);
        };
        if self.dscope(sp)? != Some(fsp) {
            return Ok(None);
        }
        self.dloc(l)
    }

    fn dloc(&mut self, l: Handle<dbg::Location>) -> Result<Option<Metadata<'a>>> {
        if let Some(&m) = self.sd().locs.get(&l) {
            return Ok(m);
        }
        let loc = self.m.debug.locations[l];
        let scope = self.dscope(loc.scope)?.filter(|s| is_local(*s));
        let inlined = match loc.inlined_at {
            Some(i) => match self.dloc(i)? {
                Some(m) => Some(m),
                None => {
                    self.sd().locs.insert(l, None);
                    return Ok(None);
                }
            },
            None => None,
        };
        let md = match scope {
            Some(s) => Some(self.sd().di.location(loc.line, loc.column, s, inlined)?),
            None => None,
        };
        self.sd().locs.insert(l, md);
        Ok(md)
    }

    fn dvar(&mut self, v: Handle<dbg::Variable>) -> Result<Option<Metadata<'a>>> {
        if let Some(&m) = self.sd().vars.get(&v) {
            return Ok(m);
        }
        let var = self.m.debug.variables[v].clone();
        let scope = self.dscope(var.scope)?.filter(|s| is_local(*s));
        let md = match scope {
            Some(scope) => {
                let file = self.dfile(var.file)?;
                let ty = self.dtype(var.ty)?;
                Some(self.sd().di.variable(
                    scope,
                    &var.name,
                    var.arg.unwrap_or(0),
                    file,
                    var.line,
                    ty,
                    var.artificial,
                )?)
            }
            None => None,
        };
        self.sd().vars.insert(v, md);
        Ok(md)
    }

    /// A debug declaration of the graph: `llvm.dbg.declare`/`llvm.dbg.value` at the end of
    /// the current block, where LLVM can say it (its variable and location are of the
    /// function being written); nothing otherwise.
    pub(super) fn debug_declaration(
        &mut self,
        inst: &ir::Inst,
        value: llvm::Value<'a>,
    ) -> Result<()> {
        let (ir::Op::DebugDeclare { var, expr, .. } | ir::Op::DebugValue { var, expr, .. }) =
            &inst.op
        else {
            return Ok(());
        };
        if self.debug.is_none() {
            return Ok(());
        }
        let Some(block) = self.b.insert_block() else {
            return Ok(());
        };
        let Some(vmd) = self.dvar(*var)? else {
            return Ok(());
        };
        // The location: the declaration's, else the variable's line in its own scope (then
        // the function's own variable); its subprogram must be the variable's.
        let d = &self.m.debug;
        let var_sp = d.subprogram_of(d.variables[*var].scope);
        if inst.loc.is_none() {
            let own = match var_sp {
                Some(sp) => self.dscope(sp)?,
                None => None,
            };
            if own.is_none() || own != self.sd().function_sp {
                return Ok(());
            }
        }
        let d = &self.m.debug;
        let loc = match inst.loc {
            Some(l) if d.subprogram_of(d.locations[l].scope) == var_sp => l,
            Some(_) => return Ok(()),
            None => {
                let v = &d.variables[*var];
                let at = dbg::Location {
                    line: v.line,
                    column: 0,
                    scope: v.scope,
                    inlined_at: None,
                };
                match d.locations.find(&at) {
                    Some(l) => l,
                    None => {
                        // A location the graph does not have: made here directly.
                        let Some(scope) = self.dscope(v.scope)?.filter(|s| is_local(*s)) else {
                            return Ok(());
                        };
                        let line = v.line;
                        let md = self.sd().di.location(line, 0, scope, None)?;
                        return self.declare(inst, value, vmd, expr, md, block);
                    }
                }
            }
        };
        let Some(lmd) = self.dloc_in_function(loc)? else {
            return Ok(());
        };
        self.declare(inst, value, vmd, expr, lmd, block)
    }

    fn declare(
        &mut self,
        inst: &ir::Inst,
        value: llvm::Value<'a>,
        var: Metadata<'a>,
        expr: &dbg::DebugExpression,
        loc: Metadata<'a>,
        block: llvm::Block<'a>,
    ) -> Result<()> {
        if self.sd().function_sp.is_none() {
            return Ok(());
        }
        let e = self.sd().di.expression(&dwarf_ops(expr))?;
        let declare = matches!(inst.op, ir::Op::DebugDeclare { .. });
        self.sd()
            .di
            .declare_at_end(declare, value, (var, e, loc), block)?;
        Ok(())
    }
}

/// Whether a scope's metadata is a local scope (a subprogram or a block in one).
fn is_local(m: Metadata) -> bool {
    use llvm::MetadataKind as K;
    matches!(
        m.kind(),
        K::LLVMDISubprogramMetadataKind
            | K::LLVMDILexicalBlockMetadataKind
            | K::LLVMDILexicalBlockFileMetadataKind
    )
}
