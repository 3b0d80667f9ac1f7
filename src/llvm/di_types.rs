//! Building the source's types through LLVM's `DIBuilder` (`di_build.rs`): basic, pointer,
//! qualified, array and vector types, structs completed after their members, enums, typedefs
//! and function types; each node's kind checked before the C API casts it (the room's point
//! 6).

use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;

use super::checks::{Built, Refused};
use super::debug_read::MetadataKind as K;
use super::di_build::{raw, require, s, DiBuilder, SCOPES, TYPES};
use super::md_build::Metadata;

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

impl<'m> DiBuilder<'m> {
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
}
