//! The memory instructions of a [`Builder`] (`alloca`, `load`, `store`, `getelementptr`,
//! `llvm.memcpy`, `llvm.memset`), and what is set on an instruction once built: a phi's
//! incoming edges, an access's alignment and volatility. The checks are those of point 6.

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use super::checks::{first_class, indexed_type, require, Built, Index};
use super::constants::gep_indices;
use super::value::{raw_values, Block, Type, TypeKind, Value};
use super::Builder;

impl<'m> Builder<'m> {
    /// An `alloca` of a sized type.
    pub fn alloca(&self, ty: Type<'m>, name: &str) -> Built<Value<'m>> {
        require(
            first_class(ty) && ty.is_sized(),
            "a variable of that type",
            &[ty],
        )?;
        // SAFETY: a sized type (checked; LLVM asks the data layout its alignment).
        self.build(name, |b, n| unsafe { LLVMBuildAlloca(b, ty.raw(), n) })
    }

    /// A `load` of a `ty` from `ptr` (a pointer to `ty`).
    pub fn load(&self, ty: Type<'m>, ptr: Value<'m>, name: &str) -> Built<Value<'m>> {
        let pt = ptr.type_of();
        require(
            pt.kind() == TypeKind::LLVMPointerTypeKind
                && pt.element() == Some(ty)
                && first_class(ty)
                && ty.is_sized(),
            "a load of that type through that pointer",
            &[ty, pt],
        )?;
        // SAFETY: a pointer to the sized type loaded (checked).
        self.build(name, |b, n| unsafe {
            LLVMBuildLoad2(b, ty.raw(), ptr.raw(), n)
        })
    }

    /// A `store` of `v` to `ptr` (a pointer to `v`'s type).
    pub fn store(&self, v: Value<'m>, ptr: Value<'m>) -> Built<Value<'m>> {
        let (vt, pt) = (v.type_of(), ptr.type_of());
        require(
            pt.kind() == TypeKind::LLVMPointerTypeKind
                && pt.element() == Some(vt)
                && first_class(vt)
                && vt.is_sized(),
            "a store of that type through that pointer",
            &[vt, pt],
        )?;
        // SAFETY: a pointer to the sized type stored (checked).
        self.build("", |b, _| unsafe { LLVMBuildStore(b, v.raw(), ptr.raw()) })
    }

    /// `getelementptr elem, base, indices` (`base` a pointer to `elem`).
    pub fn gep(
        &self,
        elem: Type<'m>,
        base: Value<'m>,
        indices: &[Value<'m>],
        inbounds: bool,
        name: &str,
    ) -> Built<Value<'m>> {
        let bt = base.type_of();
        require(
            bt.kind() == TypeKind::LLVMPointerTypeKind && bt.element() == Some(elem),
            "an address into that type through that pointer",
            &[elem, bt],
        )?;
        let idx: Vec<Index> = gep_indices(indices, false)?;
        require(
            !idx.is_empty() && indexed_type(elem, &idx[1..]).is_some(),
            "those indices into that type",
            &[elem],
        )?;
        let mut raw = raw_values(indices);
        let make = if inbounds {
            LLVMBuildInBoundsGEP2
        } else {
            LLVMBuildGEP2
        };
        // SAFETY: a pointer to `elem` and integer indices that select a member at every step
        // (checked), as `getIndexedType` requires.
        self.build(name, |b, n| unsafe {
            make(
                b,
                elem.raw(),
                base.raw(),
                raw.as_mut_ptr(),
                raw.len() as u32,
                n,
            )
        })
    }

    /// `llvm.memcpy` of `size` bytes from `src` to `dst`, both aligned to `align`.
    pub fn memcpy(
        &self,
        dst: Value<'m>,
        src: Value<'m>,
        size: Value<'m>,
        align: u32,
    ) -> Built<Value<'m>> {
        let ok = [dst, src]
            .iter()
            .all(|p| p.type_of().kind() == TypeKind::LLVMPointerTypeKind)
            && size.type_of().int_width().is_some();
        require(
            ok,
            "a memory copy of those operands",
            &[dst.type_of(), src.type_of(), size.type_of()],
        )?;
        // SAFETY: two pointers and an integer size (checked); the intrinsic is declared in the
        // block's module.
        self.build("", |b, _| unsafe {
            LLVMBuildMemCpy(b, dst.raw(), align, src.raw(), align, size.raw())
        })
    }

    /// `llvm.memset` of `size` bytes at `dst` to the `i8` `byte`.
    pub fn memset(
        &self,
        dst: Value<'m>,
        byte: Value<'m>,
        size: Value<'m>,
        align: u32,
    ) -> Built<Value<'m>> {
        let ok = dst.type_of().kind() == TypeKind::LLVMPointerTypeKind
            && byte.type_of().int_width() == Some(8)
            && size.type_of().int_width().is_some();
        require(
            ok,
            "a memory fill of those operands",
            &[dst.type_of(), byte.type_of(), size.type_of()],
        )?;
        // SAFETY: a pointer, a byte and an integer size (checked).
        self.build("", |b, _| unsafe {
            LLVMBuildMemSet(b, dst.raw(), byte.raw(), size.raw(), align)
        })
    }
}

impl<'m> Value<'m> {
    /// Add the incoming `(value, block)` pairs to a phi of their type.
    pub fn add_incoming(self, incoming: &[(Value<'m>, Block<'m>)]) -> Built<()> {
        // SAFETY: the cast answers null for a value that is no phi.
        let is_phi = unsafe { !LLVMIsAPHINode(self.raw()).is_null() };
        require(
            is_phi && incoming.iter().all(|(v, _)| v.type_of() == self.type_of()),
            "incoming values of another type than the phi's",
            &[self.type_of()],
        )?;
        let mut vals = raw_values(&incoming.iter().map(|p| p.0).collect::<Vec<_>>());
        let mut blocks: Vec<LLVMBasicBlockRef> = incoming.iter().map(|p| p.1.raw()).collect();
        // SAFETY: a phi (checked) given values of its type and blocks, two arrays of the count
        // passed.
        unsafe {
            LLVMAddIncoming(
                self.raw(),
                vals.as_mut_ptr(),
                blocks.as_mut_ptr(),
                vals.len() as u32,
            )
        };
        Ok(())
    }

    /// Set the alignment of a load, a store, an alloca or a global.
    pub fn set_alignment(self, align: u32) -> Built<()> {
        // SAFETY: the casts answer null for a value of another kind.
        let ok = unsafe {
            !LLVMIsALoadInst(self.raw()).is_null()
                || !LLVMIsAStoreInst(self.raw()).is_null()
                || !LLVMIsAAllocaInst(self.raw()).is_null()
                || !LLVMIsAGlobalObject(self.raw()).is_null()
        };
        require(ok, "an alignment on a value that has none", &[])?;
        // SAFETY: a value of one of the kinds `setAlignment` takes (checked; others are
        // `llvm_unreachable`).
        unsafe { LLVMSetAlignment(self.raw(), align) };
        Ok(())
    }

    /// Make a load or a store volatile (or not).
    pub fn set_volatile(self, volatile: bool) -> Built<()> {
        // SAFETY: the casts answer null for a value of another kind.
        let ok = unsafe {
            !LLVMIsALoadInst(self.raw()).is_null() || !LLVMIsAStoreInst(self.raw()).is_null()
        };
        require(ok, "volatile on a value that is no load or store", &[])?;
        // SAFETY: a load or a store (checked).
        unsafe { LLVMSetVolatile(self.raw(), volatile as i32) };
        Ok(())
    }
}
