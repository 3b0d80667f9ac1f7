//! Types made in a module's context, and what a type is made of. A constructor that takes
//! other types checks them first (point 6): LLVM's `PointerType::get`, `ArrayType::get`,
//! `VectorType::get`, `StructType::setBody` and `FunctionType::get` assume valid members.

use std::ffi::CString;

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use super::checks::{
    first_class, require, require_members, valid_lane, valid_member, valid_pointee, Built,
};
use super::value::{raw_types, Type, TypeKind};
use super::Module;

/// `s` as a C string, NULs dropped (LLVM names cannot hold one).
pub(super) fn cstring(s: &str) -> CString {
    CString::new(s.replace('\0', "")).unwrap_or_default()
}

impl Module {
    fn ctx_type(&self, make: unsafe extern "C" fn(LLVMContextRef) -> LLVMTypeRef) -> Type<'_> {
        // SAFETY: a live context (point 1); the constructors named below take nothing else.
        unsafe {
            let (ctx, _) = self.raw();
            Type::new(make(ctx))
        }
    }

    /// `void`.
    pub fn void_type(&self) -> Type<'_> {
        self.ctx_type(LLVMVoidTypeInContext)
    }

    /// `half`.
    pub fn half_type(&self) -> Type<'_> {
        self.ctx_type(LLVMHalfTypeInContext)
    }

    /// `float`.
    pub fn float_type(&self) -> Type<'_> {
        self.ctx_type(LLVMFloatTypeInContext)
    }

    /// `double`.
    pub fn double_type(&self) -> Type<'_> {
        self.ctx_type(LLVMDoubleTypeInContext)
    }

    /// The integer type of `bits` bits (1 to 2^24 - 1, LLVM's bounds).
    pub fn int_type(&self, bits: u32) -> Built<Type<'_>> {
        require(
            (1..1 << 24).contains(&bits),
            "an integer type of that width",
            &[],
        )?;
        // SAFETY: a live context; the width is within LLVM's bounds (checked).
        unsafe {
            let (ctx, _) = self.raw();
            Ok(Type::new(LLVMIntTypeInContext(ctx, bits)))
        }
    }

    /// The struct type named `name` in this context, if there is one.
    pub fn type_named(&self, name: &str) -> Option<Type<'_>> {
        let name = cstring(name);
        // SAFETY: a live context; the answer is null or a type of it.
        unsafe {
            let (ctx, _) = self.raw();
            let t = LLVMGetTypeByName2(ctx, name.as_ptr());
            (!t.is_null()).then(|| Type::new(t))
        }
    }

    /// A new opaque struct type named `name` (LLVM adds `.N` where the name is taken); give it
    /// members with [`Type::set_body`].
    pub fn new_named_struct(&self, name: &str) -> Type<'_> {
        let name = cstring(name);
        // SAFETY: a live context; the name is copied by LLVM.
        unsafe {
            let (ctx, _) = self.raw();
            Type::new(LLVMStructCreateNamed(ctx, name.as_ptr()))
        }
    }

    /// The literal (unnamed) struct of `fields`.
    pub fn struct_type<'m>(&'m self, fields: &[Type<'m>], packed: bool) -> Built<Type<'m>> {
        require_members(fields)?;
        let mut raw = raw_types(fields);
        // SAFETY: a live context; valid members (checked), in an array of the length passed.
        unsafe {
            let (ctx, _) = self.raw();
            Ok(Type::new(LLVMStructTypeInContext(
                ctx,
                raw.as_mut_ptr(),
                raw.len() as u32,
                packed as i32,
            )))
        }
    }

    /// The function type returning `ret` from `params`.
    pub fn function_type<'m>(
        &'m self,
        ret: Type<'m>,
        params: &[Type<'m>],
        varargs: bool,
    ) -> Built<Type<'m>> {
        let ret_ok = ret.kind() == TypeKind::LLVMVoidTypeKind || first_class(ret);
        require(ret_ok, "a function returning that type", &[ret])?;
        require(
            params.iter().all(|&p| first_class(p)),
            "a function parameter of that type",
            params,
        )?;
        let mut raw = raw_types(params);
        // SAFETY: valid return and parameter types (checked), in an array of the length passed.
        unsafe {
            Ok(Type::new(LLVMFunctionType(
                ret.raw(),
                raw.as_mut_ptr(),
                raw.len() as u32,
                varargs as i32,
            )))
        }
    }
}

impl<'m> Type<'m> {
    /// The type as LLVM prints it (for messages).
    pub fn text(self) -> String {
        // SAFETY: a live type; the string is LLVM's to dispose of, copied out (point 4).
        unsafe {
            let p = LLVMPrintTypeToString(self.raw());
            if p.is_null() {
                return String::new();
            }
            let s = std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
            LLVMDisposeMessage(p);
            s
        }
    }

    /// The pointer to this type in address space `space`.
    pub fn pointer_to(self, space: u32) -> Built<Type<'m>> {
        require(valid_pointee(self), "a pointer to that type", &[self])?;
        // SAFETY: a valid pointee (checked).
        Ok(unsafe { Type::new(LLVMPointerType(self.raw(), space)) })
    }

    /// The array of `len` elements of this type.
    pub fn array_of(self, len: u64) -> Built<Type<'m>> {
        require(valid_member(self), "an array of that type", &[self])?;
        let len = u32::try_from(len).map_err(|_| {
            super::Refused::limit(format!(
                "an array of {len} elements (LLVM 14's C API counts them in 32 bits)"
            ))
        })?;
        // SAFETY: a valid element type (checked).
        Ok(unsafe { Type::new(LLVMArrayType(self.raw(), len)) })
    }

    /// The vector of `n` (at least one) elements of this type.
    pub fn vector_of(self, n: u32) -> Built<Type<'m>> {
        require(valid_lane(self) && n > 0, "a vector of that type", &[self])?;
        // SAFETY: a valid lane type and a length (checked).
        Ok(unsafe { Type::new(LLVMVectorType(self.raw(), n)) })
    }

    /// Give an opaque named struct its members.
    pub fn set_body(self, fields: &[Type<'m>], packed: bool) -> Built<()> {
        require(
            self.is_opaque_struct(),
            "members for a type that has them",
            &[self],
        )?;
        require_members(fields)?;
        let mut raw = raw_types(fields);
        // SAFETY: an opaque struct (checked) given valid members (checked).
        unsafe {
            LLVMStructSetBody(
                self.raw(),
                raw.as_mut_ptr(),
                raw.len() as u32,
                packed as i32,
            )
        };
        Ok(())
    }

    /// Whether this is a struct type without members yet.
    pub fn is_opaque_struct(self) -> bool {
        // SAFETY: asked of a struct type only (point 3).
        self.kind() == TypeKind::LLVMStructTypeKind
            && unsafe { LLVMIsOpaqueStruct(self.raw()) != 0 }
    }

    /// Whether values of the type have a size (no opaque struct inside).
    pub fn is_sized(self) -> bool {
        // SAFETY: a live type.
        unsafe { LLVMTypeIsSized(self.raw()) != 0 }
    }

    /// The element type of a pointer, an array or a vector; `None` for another type.
    pub fn element(self) -> Option<Type<'m>> {
        let has = matches!(
            self.kind(),
            TypeKind::LLVMPointerTypeKind
                | TypeKind::LLVMArrayTypeKind
                | TypeKind::LLVMVectorTypeKind
        );
        // SAFETY: asked of a sequential or pointer type only (point 3).
        has.then(|| unsafe { Type::new(LLVMGetElementType(self.raw())) })
    }

    /// An array type's length; `None` for another type.
    pub fn array_len(self) -> Option<u32> {
        // SAFETY: asked of an array type only (point 3).
        (self.kind() == TypeKind::LLVMArrayTypeKind)
            .then(|| unsafe { LLVMGetArrayLength(self.raw()) })
    }

    /// A struct type's member types (none for an opaque one); `None` for another type.
    pub fn struct_fields(self) -> Option<Vec<Type<'m>>> {
        if self.kind() != TypeKind::LLVMStructTypeKind {
            return None;
        }
        // SAFETY: asked of a struct type only, for indices below its count (point 3).
        unsafe {
            let n = LLVMCountStructElementTypes(self.raw());
            Some(
                (0..n)
                    .map(|i| Type::new(LLVMStructGetTypeAtIndex(self.raw(), i)))
                    .collect(),
            )
        }
    }

    /// A function type's return type, parameter types and whether it takes more (varargs);
    /// `None` for another type.
    pub fn signature(self) -> Option<(Type<'m>, Vec<Type<'m>>, bool)> {
        if self.kind() != TypeKind::LLVMFunctionTypeKind {
            return None;
        }
        // SAFETY: asked of a function type only (point 3); the parameter types are read into
        // an array of their count.
        unsafe {
            let n = LLVMCountParamTypes(self.raw()) as usize;
            let mut ps = vec![std::ptr::null_mut(); n];
            LLVMGetParamTypes(self.raw(), ps.as_mut_ptr());
            Some((
                Type::new(LLVMGetReturnType(self.raw())),
                ps.into_iter().map(|p| Type::new(p)).collect(),
                LLVMIsFunctionVarArg(self.raw()) != 0,
            ))
        }
    }
}

impl std::fmt::Debug for Type<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

impl std::fmt::Debug for super::Value<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} %{}", self.type_of().text(), self.name())
    }
}
