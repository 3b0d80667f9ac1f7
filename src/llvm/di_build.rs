//! Building debug information: LLVM's `DIBuilder` behind a safe [`DiBuilder`], and the debug
//! locations and subprograms attached to instructions and functions.
//!
//! The C API casts what it is given to the node class it expects without checking
//! (`unwrapDI<DIScope>`), so every call here first checks the kind of each node it passes
//! (the room's point 6): a scope is a scope, a location's scope a local one, a type a type.
//! What fails is a [`Refused`].

use std::ffi::c_char;

use llvm_sys::core::*;
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;

use super::builder::Builder;
use super::checks::{Built, Refused};
use super::debug_read::MetadataKind as K;
use super::md_build::Metadata;
use super::value::{Block, Value};
use super::Module;

/// The kinds a parameter accepts.
pub(super) const SCOPES: &[K] = &[
    K::LLVMDICompileUnitMetadataKind,
    K::LLVMDIFileMetadataKind,
    K::LLVMDISubprogramMetadataKind,
    K::LLVMDILexicalBlockMetadataKind,
    K::LLVMDILexicalBlockFileMetadataKind,
    K::LLVMDINamespaceMetadataKind,
    K::LLVMDICompositeTypeMetadataKind,
    K::LLVMDIBasicTypeMetadataKind,
    K::LLVMDIDerivedTypeMetadataKind,
    K::LLVMDISubroutineTypeMetadataKind,
];
pub(super) const LOCAL_SCOPES: &[K] = &[
    K::LLVMDISubprogramMetadataKind,
    K::LLVMDILexicalBlockMetadataKind,
    K::LLVMDILexicalBlockFileMetadataKind,
];
pub(super) const TYPES: &[K] = &[
    K::LLVMDIBasicTypeMetadataKind,
    K::LLVMDIDerivedTypeMetadataKind,
    K::LLVMDICompositeTypeMetadataKind,
    K::LLVMDISubroutineTypeMetadataKind,
];

pub(super) fn is(md: Metadata, kinds: &[K]) -> bool {
    let k = md.kind();
    kinds
        .iter()
        .any(|x| std::mem::discriminant(x) == std::mem::discriminant(&k))
}

pub(super) fn require(md: Option<Metadata>, kinds: &[K], what: &str) -> Built<()> {
    match md {
        Some(m) if !is(m, kinds) => Err(Refused::new(what)),
        _ => Ok(()),
    }
}

pub(super) fn raw(md: Option<Metadata>) -> LLVMMetadataRef {
    md.map_or(std::ptr::null_mut(), |m| m.raw())
}

/// (pointer, length) of a string, for the C API.
pub(super) fn s(text: &str) -> (*const c_char, usize) {
    (text.as_ptr().cast(), text.len())
}

/// A compile unit's language, as the C API names the ones written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// `DW_LANG_OpenCL`.
    OpenCl,
    /// `DW_LANG_C_plus_plus` (C++ for OpenCL).
    Cpp,
    /// `DW_LANG_C99`.
    C99,
}

/// LLVM's `DIBuilder` for one module: made by [`Module::di_builder`], finalized and freed when
/// dropped.
pub struct DiBuilder<'m> {
    pub(super) raw: LLVMDIBuilderRef,
    module: &'m Module,
}

impl Drop for DiBuilder<'_> {
    fn drop(&mut self) {
        // SAFETY: made by LLVMCreateDIBuilder for a module still alive (its borrow); finalized
        // (resolving what it left open) and disposed of once.
        unsafe {
            LLVMDIBuilderFinalize(self.raw);
            LLVMDisposeDIBuilder(self.raw);
        }
    }
}

impl Module {
    /// A builder of this module's debug information.
    pub fn di_builder(&self) -> DiBuilder<'_> {
        // SAFETY: a live module; the builder is disposed of in Drop, before the module (it
        // borrows it).
        DiBuilder {
            raw: unsafe { LLVMCreateDIBuilder(self.raw().1) },
            module: self,
        }
    }

    /// The module flags debug information needs: "Debug Info Version" (without it LLVM's
    /// reader drops the module's debug information) and "Dwarf Version".
    pub fn add_debug_flags(&self, dwarf_version: u32) {
        // SAFETY: a live module and context; the values are i32 constants of it, wrapped as
        // metadata; the keys are passed with their lengths.
        unsafe {
            let (ctx, m) = self.raw();
            let i32t = LLVMInt32TypeInContext(ctx);
            for (key, value) in [
                ("Debug Info Version", LLVMDebugMetadataVersion()),
                ("Dwarf Version", dwarf_version),
            ] {
                let v = LLVMValueAsMetadata(LLVMConstInt(i32t, u64::from(value), 0));
                LLVMAddModuleFlag(
                    m,
                    llvm_sys::LLVMModuleFlagBehavior::LLVMModuleFlagBehaviorWarning,
                    key.as_ptr().cast(),
                    key.len(),
                    v,
                );
            }
        }
    }

    /// Remove every piece of debug information (locations, declarations, subprograms):
    /// whether there was any.
    pub fn strip_debug_info(&self) -> bool {
        // SAFETY: a live module.
        unsafe { LLVMStripModuleDebugInfo(self.raw().1) != 0 }
    }
}

impl<'m> DiBuilder<'m> {
    pub(super) fn md(&self, raw: LLVMMetadataRef) -> Built<Metadata<'m>> {
        // SAFETY: what the builder answered, metadata of the module's context, or null.
        unsafe { Metadata::new(raw) }.ok_or_else(|| Refused::new("a debug node LLVM did not make"))
    }

    /// `!DIFile(filename, directory)`.
    pub fn file(&self, name: &str, directory: &str) -> Built<Metadata<'m>> {
        let ((n, nl), (d, dl)) = (s(name), s(directory));
        // SAFETY: a live builder; strings passed with their lengths (LLVM copies them).
        self.md(unsafe { LLVMDIBuilderCreateFile(self.raw, n, nl, d, dl) })
    }

    /// The module's one compile unit (a builder makes at most one).
    pub fn compile_unit(
        &self,
        language: Language,
        file: Metadata<'m>,
        producer: &str,
        optimized: bool,
    ) -> Built<Metadata<'m>> {
        require(
            Some(file),
            &[K::LLVMDIFileMetadataKind],
            "a compile unit's file",
        )?;
        let (p, pl) = s(producer);
        let empty = "".as_ptr().cast();
        // SAFETY: a live builder, a file (checked), strings with their lengths, a language
        // of the C API's enumeration.
        self.md(unsafe {
            LLVMDIBuilderCreateCompileUnit(
                self.raw,
                match language {
                    Language::OpenCl => LLVMDWARFSourceLanguage::LLVMDWARFSourceLanguageOpenCL,
                    Language::Cpp => LLVMDWARFSourceLanguage::LLVMDWARFSourceLanguageC_plus_plus,
                    Language::C99 => LLVMDWARFSourceLanguage::LLVMDWARFSourceLanguageC99,
                },
                file.raw(),
                p,
                pl,
                optimized as i32,
                empty,
                0,
                0,
                empty,
                0,
                LLVMDWARFEmissionKind::LLVMDWARFEmissionKindFull,
                0,
                0,
                0,
                empty,
                0,
                empty,
                0,
            )
        })
    }

    /// A `!DISubprogram`.
    #[allow(clippy::too_many_arguments)]
    pub fn function(
        &self,
        scope: Metadata<'m>,
        name: &str,
        linkage: &str,
        file: Metadata<'m>,
        line: u32,
        ty: Metadata<'m>,
        (local, definition, optimized): (bool, bool, bool),
        scope_line: u32,
        flags: i32,
    ) -> Built<Metadata<'m>> {
        require(Some(scope), SCOPES, "a subprogram's scope")?;
        require(
            Some(file),
            &[K::LLVMDIFileMetadataKind],
            "a subprogram's file",
        )?;
        require(
            Some(ty),
            &[K::LLVMDISubroutineTypeMetadataKind],
            "a subprogram's type",
        )?;
        let ((n, nl), (l, ll)) = (s(name), s(linkage));
        // SAFETY: a live builder; nodes of the kinds LLVM casts them to (checked); strings
        // with their lengths.
        self.md(unsafe {
            LLVMDIBuilderCreateFunction(
                self.raw,
                scope.raw(),
                n,
                nl,
                l,
                ll,
                file.raw(),
                line,
                ty.raw(),
                local as i32,
                definition as i32,
                scope_line,
                flags,
                optimized as i32,
            )
        })
    }

    /// A `!DILexicalBlock` in `scope`.
    pub fn lexical_block(
        &self,
        scope: Metadata<'m>,
        file: Metadata<'m>,
        line: u32,
        column: u32,
    ) -> Built<Metadata<'m>> {
        require(Some(scope), LOCAL_SCOPES, "a block's scope")?;
        require(Some(file), &[K::LLVMDIFileMetadataKind], "a block's file")?;
        // SAFETY: as in `function`.
        self.md(unsafe {
            LLVMDIBuilderCreateLexicalBlock(self.raw, scope.raw(), file.raw(), line, column)
        })
    }

    /// A `!DILexicalBlockFile`: `scope`'s code from another file, or told apart by
    /// `discriminator`.
    pub fn lexical_block_file(
        &self,
        scope: Metadata<'m>,
        file: Metadata<'m>,
        discriminator: u32,
    ) -> Built<Metadata<'m>> {
        require(Some(scope), LOCAL_SCOPES, "a block's scope")?;
        require(Some(file), &[K::LLVMDIFileMetadataKind], "a block's file")?;
        // SAFETY: as in `function`.
        self.md(unsafe {
            LLVMDIBuilderCreateLexicalBlockFile(self.raw, scope.raw(), file.raw(), discriminator)
        })
    }

    /// A `!DINamespace`.
    pub fn namespace(&self, scope: Option<Metadata<'m>>, name: &str) -> Built<Metadata<'m>> {
        require(scope, SCOPES, "a namespace's scope")?;
        let (n, nl) = s(name);
        // SAFETY: as in `function`; a null scope is the top level.
        self.md(unsafe { LLVMDIBuilderCreateNameSpace(self.raw, raw(scope), n, nl, 0) })
    }

    /// A `!DILocation`.
    pub fn location(
        &self,
        line: u32,
        column: u32,
        scope: Metadata<'m>,
        inlined_at: Option<Metadata<'m>>,
    ) -> Built<Metadata<'m>> {
        require(Some(scope), LOCAL_SCOPES, "a location's scope")?;
        require(
            inlined_at,
            &[K::LLVMDILocationMetadataKind],
            "a location's inlined-at",
        )?;
        // SAFETY: a live context; a local scope and a location (checked) or null.
        self.md(unsafe {
            LLVMDIBuilderCreateDebugLocation(
                self.module.raw().0,
                line,
                column,
                scope.raw(),
                raw(inlined_at),
            )
        })
    }

    /// A local variable (`arg` 0) or parameter (`arg` from 1).
    #[allow(clippy::too_many_arguments)]
    pub fn variable(
        &self,
        scope: Metadata<'m>,
        name: &str,
        arg: u32,
        file: Metadata<'m>,
        line: u32,
        ty: Option<Metadata<'m>>,
        artificial: bool,
    ) -> Built<Metadata<'m>> {
        require(Some(scope), LOCAL_SCOPES, "a variable's scope")?;
        require(
            Some(file),
            &[K::LLVMDIFileMetadataKind],
            "a variable's file",
        )?;
        require(ty, TYPES, "a variable's type")?;
        let (n, nl) = s(name);
        // FlagArtificial.
        let flags = if artificial { 1 << 6 } else { 0 };
        // SAFETY: a live builder; nodes checked; the name with its length.
        self.md(unsafe {
            if arg > 0 {
                LLVMDIBuilderCreateParameterVariable(
                    self.raw,
                    scope.raw(),
                    n,
                    nl,
                    arg,
                    file.raw(),
                    line,
                    raw(ty),
                    1,
                    flags,
                )
            } else {
                LLVMDIBuilderCreateAutoVariable(
                    self.raw,
                    scope.raw(),
                    n,
                    nl,
                    file.raw(),
                    line,
                    raw(ty),
                    1,
                    flags,
                    0,
                )
            }
        })
    }

    /// A variable of program scope, or a function's `static` or `__local` one
    /// (`!DIGlobalVariableExpression` with an empty expression: the variable is in memory).
    #[allow(clippy::too_many_arguments)]
    pub fn global_variable(
        &self,
        scope: Metadata<'m>,
        name: &str,
        linkage_name: &str,
        file: Metadata<'m>,
        line: u32,
        ty: Metadata<'m>,
        local: bool,
    ) -> Built<Metadata<'m>> {
        require(Some(scope), SCOPES, "a global variable's scope")?;
        require(
            Some(file),
            &[K::LLVMDIFileMetadataKind],
            "a global variable's file",
        )?;
        require(Some(ty), TYPES, "a global variable's type")?;
        let expr = self.expression(&[])?;
        let ((n, nl), (l, ll)) = (s(name), s(linkage_name));
        // SAFETY: a live builder; nodes checked; the names with their lengths; no
        // declaration, alignment unstated.
        self.md(unsafe {
            LLVMDIBuilderCreateGlobalVariableExpression(
                self.raw,
                scope.raw(),
                n,
                nl,
                l,
                ll,
                file.raw(),
                line,
                ty.raw(),
                local as LLVMBool,
                expr.raw(),
                std::ptr::null_mut(),
                0,
            )
        })
    }

    /// A `!DIExpression` of DWARF operations.
    pub fn expression(&self, ops: &[u64]) -> Built<Metadata<'m>> {
        let mut ops = ops.to_vec();
        // SAFETY: a live builder; an array of the length passed (LLVM copies it).
        self.md(unsafe { LLVMDIBuilderCreateExpression(self.raw, ops.as_mut_ptr(), ops.len()) })
    }

    /// `llvm.dbg.declare(storage, var, expr)` (`declare`) or `llvm.dbg.value(...)` at the
    /// end of `block`, at `loc`.
    pub fn declare_at_end(
        &self,
        declare: bool,
        storage: Value<'m>,
        (var, expr, loc): (Metadata<'m>, Metadata<'m>, Metadata<'m>),
        block: Block<'m>,
    ) -> Built<Value<'m>> {
        require(
            Some(var),
            &[K::LLVMDILocalVariableMetadataKind],
            "a declared variable",
        )?;
        require(
            Some(expr),
            &[K::LLVMDIExpressionMetadataKind],
            "a declaration's expression",
        )?;
        require(
            Some(loc),
            &[K::LLVMDILocationMetadataKind],
            "a declaration's location",
        )?;
        if block.parent().is_none() {
            return Err(Refused::new("a declaration outside a function"));
        }
        // SAFETY: a live builder; nodes checked; a value and a block of this module's
        // function.
        let v = unsafe {
            if declare {
                LLVMDIBuilderInsertDeclareAtEnd(
                    self.raw,
                    storage.raw(),
                    var.raw(),
                    expr.raw(),
                    loc.raw(),
                    block.raw(),
                )
            } else {
                LLVMDIBuilderInsertDbgValueAtEnd(
                    self.raw,
                    storage.raw(),
                    var.raw(),
                    expr.raw(),
                    loc.raw(),
                    block.raw(),
                )
            }
        };
        // SAFETY: the call LLVM made, of this module.
        unsafe { Value::new(v) }.ok_or_else(|| Refused::new("a declaration LLVM did not make"))
    }
}

impl<'m> Value<'m> {
    /// Attach a global variable's description `gve` (`!dbg`) to a global variable.
    pub fn attach_global_debug(self, gve: Metadata<'m>) -> Built<()> {
        require(
            Some(gve),
            &[K::LLVMDIGlobalVariableExpressionMetadataKind],
            "a global variable's description",
        )?;
        // SAFETY: the kind of metadata `dbg` is, asked of LLVM by name.
        let dbg = unsafe { LLVMGetMDKindID(c"dbg".as_ptr(), 3) };
        // SAFETY: asked of a global variable only; the description checked above.
        unsafe {
            if LLVMIsAGlobalVariable(self.raw()).is_null() {
                return Err(Refused::new(
                    "a variable's description on no global variable",
                ));
            }
            LLVMGlobalSetMetadata(self.raw(), dbg, gve.raw());
        }
        Ok(())
    }

    /// Attach the subprogram `sp` to a function.
    pub fn set_subprogram(self, sp: Metadata<'m>) -> Built<()> {
        require(
            Some(sp),
            &[K::LLVMDISubprogramMetadataKind],
            "a function's subprogram",
        )?;
        if !self.is_function() {
            return Err(Refused::new("a subprogram on a value that is no function"));
        }
        // SAFETY: a function and a subprogram (checked).
        unsafe { LLVMSetSubprogram(self.raw(), sp.raw()) };
        Ok(())
    }
}

impl<'m> Builder<'m> {
    /// The location every instruction built next carries (`None`: none).
    pub fn set_location(&self, loc: Option<Metadata<'m>>) -> Built<()> {
        require(
            loc,
            &[K::LLVMDILocationMetadataKind],
            "an instruction's location",
        )?;
        // SAFETY: a live builder; a location (checked) or null (no location).
        unsafe { LLVMSetCurrentDebugLocation2(self.raw_builder(), raw(loc)) };
        Ok(())
    }
}
