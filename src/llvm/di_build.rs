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
const SCOPES: &[K] = &[
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
const LOCAL_SCOPES: &[K] = &[
    K::LLVMDISubprogramMetadataKind,
    K::LLVMDILexicalBlockMetadataKind,
    K::LLVMDILexicalBlockFileMetadataKind,
];
const TYPES: &[K] = &[
    K::LLVMDIBasicTypeMetadataKind,
    K::LLVMDIDerivedTypeMetadataKind,
    K::LLVMDICompositeTypeMetadataKind,
    K::LLVMDISubroutineTypeMetadataKind,
];

fn is(md: Metadata, kinds: &[K]) -> bool {
    let k = md.kind();
    kinds
        .iter()
        .any(|x| std::mem::discriminant(x) == std::mem::discriminant(&k))
}

fn require(md: Option<Metadata>, kinds: &[K], what: &str) -> Built<()> {
    match md {
        Some(m) if !is(m, kinds) => Err(Refused::new(what)),
        _ => Ok(()),
    }
}

fn raw(md: Option<Metadata>) -> LLVMMetadataRef {
    md.map_or(std::ptr::null_mut(), |m| m.raw())
}

/// (pointer, length) of a string, for the C API.
fn s(text: &str) -> (*const c_char, usize) {
    (text.as_ptr().cast(), text.len())
}

/// DWARF tags the builder takes.
pub mod tag {
    /// `DW_TAG_class_type`.
    pub const CLASS: u32 = 0x02;
    /// `DW_TAG_structure_type`.
    pub const STRUCTURE: u32 = 0x13;
    /// `DW_TAG_union_type`.
    pub const UNION: u32 = 0x17;
    /// `DW_TAG_const_type`.
    pub const CONST: u32 = 0x26;
    /// `DW_TAG_volatile_type`.
    pub const VOLATILE: u32 = 0x35;
    /// `DW_TAG_restrict_type`.
    pub const RESTRICT: u32 = 0x37;
    /// `DW_TAG_atomic_type`.
    pub const ATOMIC: u32 = 0x47;
}

/// LLVM's `DIBuilder` for one module: made by [`Module::di_builder`], finalized and freed when
/// dropped.
pub struct DiBuilder<'m> {
    raw: LLVMDIBuilderRef,
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
    fn md(&self, raw: LLVMMetadataRef) -> Built<Metadata<'m>> {
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
        language: u32,
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
        // SAFETY: a live builder, a file (checked), strings with their lengths; the
        // language is a DWARF language code, which LLVM takes as it is.
        self.md(unsafe {
            LLVMDIBuilderCreateCompileUnit(
                self.raw,
                std::mem::transmute::<u32, LLVMDWARFSourceLanguage>(language),
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

    /// A `!DILexicalBlockFile`: `scope`'s code from another file.
    pub fn lexical_block_file(
        &self,
        scope: Metadata<'m>,
        file: Metadata<'m>,
    ) -> Built<Metadata<'m>> {
        require(Some(scope), LOCAL_SCOPES, "a block's scope")?;
        require(Some(file), &[K::LLVMDIFileMetadataKind], "a block's file")?;
        // SAFETY: as in `function`.
        self.md(unsafe {
            LLVMDIBuilderCreateLexicalBlockFile(self.raw, scope.raw(), file.raw(), 0)
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

    /// A `!DIBasicType`.
    pub fn basic_type(&self, name: &str, size_bits: u64, encoding: u32) -> Built<Metadata<'m>> {
        let (n, nl) = s(name);
        // SAFETY: a live builder; the name with its length.
        self.md(unsafe { LLVMDIBuilderCreateBasicType(self.raw, n, nl, size_bits, encoding, 0) })
    }

    /// A pointer `!DIDerivedType` (`pointee` null: `void *`), in DWARF address space
    /// `space`, if one.
    pub fn pointer_type(
        &self,
        pointee: Option<Metadata<'m>>,
        size_bits: u64,
        space: Option<u32>,
    ) -> Built<Metadata<'m>> {
        require(pointee, TYPES, "a pointer's pointee")?;
        // SAFETY: a live builder; a type (checked) or null. (The C API cannot say "no
        // address space": none is 0, Private in SPIR, as clang writes private pointers.)
        let p = unsafe {
            LLVMDIBuilderCreatePointerType(
                self.raw,
                raw(pointee),
                size_bits,
                0,
                space.unwrap_or(0),
                "".as_ptr().cast(),
                0,
            )
        };
        self.md(p)
    }

    /// A qualified type: `tag` is one of [`tag`]'s qualifiers.
    pub fn qualified_type(&self, qualifier: u32, ty: Option<Metadata<'m>>) -> Built<Metadata<'m>> {
        require(ty, TYPES, "a qualified type")?;
        if ![tag::CONST, tag::VOLATILE, tag::RESTRICT, tag::ATOMIC].contains(&qualifier) {
            return Err(Refused::new("a qualifier DWARF does not have"));
        }
        // SAFETY: a live builder; a type (checked) or null, a qualifier tag.
        self.md(unsafe { LLVMDIBuilderCreateQualifiedType(self.raw, qualifier, raw(ty)) })
    }

    fn subranges(&self, counts: &[Option<u64>]) -> Vec<LLVMMetadataRef> {
        counts
            .iter()
            .map(|c| {
                let n = c.map_or(-1, |c| i64::try_from(c).unwrap_or(i64::MAX));
                // SAFETY: a live builder.
                unsafe { LLVMDIBuilderGetOrCreateSubrange(self.raw, 0, n) }
            })
            .collect()
    }

    /// An array type, of one subrange per dimension (`None`: unknown count), or a vector.
    pub fn array_type(
        &self,
        ty: Option<Metadata<'m>>,
        size_bits: u64,
        counts: &[Option<u64>],
        vector: bool,
    ) -> Built<Metadata<'m>> {
        require(ty, TYPES, "an array's element")?;
        let mut subs = self.subranges(counts);
        // SAFETY: a live builder; a type (checked) or null, an array of subranges of the
        // length passed.
        self.md(unsafe {
            if vector {
                LLVMDIBuilderCreateVectorType(
                    self.raw,
                    size_bits,
                    0,
                    raw(ty),
                    subs.as_mut_ptr(),
                    subs.len() as u32,
                )
            } else {
                LLVMDIBuilderCreateArrayType(
                    self.raw,
                    size_bits,
                    0,
                    raw(ty),
                    subs.as_mut_ptr(),
                    subs.len() as u32,
                )
            }
        })
    }

    /// A struct member `!DIDerivedType`.
    #[allow(clippy::too_many_arguments)]
    pub fn member(
        &self,
        scope: Metadata<'m>,
        name: &str,
        file: Option<Metadata<'m>>,
        line: u32,
        size_bits: u64,
        offset_bits: u64,
        ty: Option<Metadata<'m>>,
    ) -> Built<Metadata<'m>> {
        require(Some(scope), SCOPES, "a member's struct")?;
        require(file, &[K::LLVMDIFileMetadataKind], "a member's file")?;
        require(ty, TYPES, "a member's type")?;
        let (n, nl) = s(name);
        // SAFETY: a live builder; nodes checked; the name with its length.
        self.md(unsafe {
            LLVMDIBuilderCreateMemberType(
                self.raw,
                scope.raw(),
                n,
                nl,
                raw(file),
                line,
                size_bits,
                0,
                offset_bits,
                0,
                raw(ty),
            )
        })
    }

    /// A struct, union or class to be completed: members name it, then
    /// [`DiBuilder::complete`] replaces it with the whole type.
    pub fn forward_composite(
        &self,
        tag: u32,
        name: &str,
        file: Option<Metadata<'m>>,
        line: u32,
        size_bits: u64,
    ) -> Built<Metadata<'m>> {
        require(file, &[K::LLVMDIFileMetadataKind], "a struct's file")?;
        if ![tag::STRUCTURE, tag::UNION, tag::CLASS].contains(&tag) {
            return Err(Refused::new("a composite tag DWARF does not have"));
        }
        let (n, nl) = s(name);
        // SAFETY: a live builder; nodes checked; strings with their lengths.
        self.md(unsafe {
            LLVMDIBuilderCreateReplaceableCompositeType(
                self.raw,
                tag,
                n,
                nl,
                std::ptr::null_mut(),
                raw(file),
                line,
                0,
                size_bits,
                0,
                0,
                "".as_ptr().cast(),
                0,
            )
        })
    }

    /// The whole struct, union or class for `forward` (made by
    /// [`DiBuilder::forward_composite`], which it replaces everywhere).
    #[allow(clippy::too_many_arguments)]
    pub fn complete(
        &self,
        forward: Metadata<'m>,
        tag: u32,
        name: &str,
        file: Option<Metadata<'m>>,
        line: u32,
        size_bits: u64,
        members: &[Metadata<'m>],
        (declaration, identifier): (bool, &str),
    ) -> Built<Metadata<'m>> {
        require(file, &[K::LLVMDIFileMetadataKind], "a struct's file")?;
        require(
            Some(forward),
            &[K::LLVMDICompositeTypeMetadataKind],
            "a struct to complete",
        )?;
        let mut elems: Vec<LLVMMetadataRef> = members.iter().map(|m| m.raw()).collect();
        let (n, nl) = s(name);
        let (i, il) = s(identifier);
        // FlagFwdDecl.
        let flags = if declaration { 1 << 2 } else { 0 };
        // SAFETY: a live builder; nodes checked; arrays and strings with their lengths. The
        // forward node is a temporary one of this builder, replaced once (then freed by
        // LLVM), and not named again.
        unsafe {
            let t = match tag {
                tag::UNION => LLVMDIBuilderCreateUnionType(
                    self.raw,
                    std::ptr::null_mut(),
                    n,
                    nl,
                    raw(file),
                    line,
                    size_bits,
                    0,
                    flags,
                    elems.as_mut_ptr(),
                    elems.len() as u32,
                    0,
                    i,
                    il,
                ),
                _ => LLVMDIBuilderCreateStructType(
                    self.raw,
                    std::ptr::null_mut(),
                    n,
                    nl,
                    raw(file),
                    line,
                    size_bits,
                    0,
                    flags,
                    std::ptr::null_mut(),
                    elems.as_mut_ptr(),
                    elems.len() as u32,
                    0,
                    std::ptr::null_mut(),
                    i,
                    il,
                ),
            };
            let t = self.md(t)?;
            LLVMMetadataReplaceAllUsesWith(forward.raw(), t.raw());
            Ok(t)
        }
    }

    /// An enumeration type of `(name, value)` enumerators.
    #[allow(clippy::too_many_arguments)]
    pub fn enumeration(
        &self,
        name: &str,
        file: Option<Metadata<'m>>,
        line: u32,
        size_bits: u64,
        values: &[(String, i64)],
        base: Option<Metadata<'m>>,
    ) -> Built<Metadata<'m>> {
        require(file, &[K::LLVMDIFileMetadataKind], "an enum's file")?;
        require(base, TYPES, "an enum's base type")?;
        let mut elems: Vec<LLVMMetadataRef> = values
            .iter()
            .map(|(n, v)| {
                let (p, l) = s(n);
                // SAFETY: a live builder; the name with its length.
                unsafe { LLVMDIBuilderCreateEnumerator(self.raw, p, l, *v, 0) }
            })
            .collect();
        let (n, nl) = s(name);
        // SAFETY: a live builder; nodes checked; arrays and strings with their lengths.
        self.md(unsafe {
            LLVMDIBuilderCreateEnumerationType(
                self.raw,
                std::ptr::null_mut(),
                n,
                nl,
                raw(file),
                line,
                size_bits,
                0,
                elems.as_mut_ptr(),
                elems.len() as u32,
                raw(base),
            )
        })
    }

    /// A typedef of `ty` (null: `void`).
    pub fn typedef(
        &self,
        ty: Option<Metadata<'m>>,
        name: &str,
        file: Option<Metadata<'m>>,
        line: u32,
    ) -> Built<Metadata<'m>> {
        require(ty, TYPES, "a typedef's type")?;
        require(file, &[K::LLVMDIFileMetadataKind], "a typedef's file")?;
        let (n, nl) = s(name);
        // SAFETY: a live builder; nodes checked; the name with its length.
        self.md(unsafe {
            LLVMDIBuilderCreateTypedef(
                self.raw,
                raw(ty),
                n,
                nl,
                raw(file),
                line,
                std::ptr::null_mut(),
                0,
            )
        })
    }

    /// A function type: the result, then the parameters (null: `void`).
    pub fn subroutine_type(&self, types: &[Option<Metadata<'m>>]) -> Built<Metadata<'m>> {
        for t in types {
            require(*t, TYPES, "a function type's part")?;
        }
        let mut ts: Vec<LLVMMetadataRef> = types.iter().map(|t| raw(*t)).collect();
        // SAFETY: a live builder; types checked, in an array of the length passed.
        self.md(unsafe {
            LLVMDIBuilderCreateSubroutineType(
                self.raw,
                std::ptr::null_mut(),
                ts.as_mut_ptr(),
                ts.len() as u32,
                0,
            )
        })
    }

    /// A type known by name only.
    pub fn unspecified_type(&self, name: &str) -> Built<Metadata<'m>> {
        let (n, nl) = s(name);
        // SAFETY: a live builder; the name with its length.
        self.md(unsafe { LLVMDIBuilderCreateUnspecifiedType(self.raw, n, nl) })
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
