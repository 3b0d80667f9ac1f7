//! A module's functions and global variables as they are made: declared, named, linked,
//! given attributes, blocks, initializers; and the module's target and data layout.

use llvm_sys::core::*;
use llvm_sys::prelude::*;

pub use llvm_sys::LLVMLinkage as Linkage;

use super::checks::{first_class, require, valid_member, Built};
use super::types::cstring;
use super::value::{Block, Type, TypeKind, Value};
use super::{Module, Refused};

/// Where an attribute goes: on the function or on a parameter (counted from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttributePlace {
    /// The function itself.
    Function,
    /// Parameter `n`, counted from 0.
    Param(u32),
}

impl AttributePlace {
    fn index(self) -> u32 {
        match self {
            AttributePlace::Function => u32::MAX,
            AttributePlace::Param(n) => n + 1,
        }
    }
}

/// The attributes that carry a type (`byval(T)`, `sret(T)`, ...).
const TYPE_ATTRIBUTES: &[&str] = &[
    "byval",
    "sret",
    "byref",
    "preallocated",
    "inalloca",
    "elementtype",
];

impl Module {
    /// Set the target triple.
    pub fn set_target(&self, triple: &str) {
        let t = cstring(triple);
        // SAFETY: a live module; the string is copied by LLVM.
        unsafe { LLVMSetTarget(self.raw().1, t.as_ptr()) }
    }

    /// Set the data layout.
    pub fn set_data_layout(&self, layout: &str) {
        let l = cstring(layout);
        // SAFETY: a live module; the string is copied by LLVM.
        unsafe { LLVMSetDataLayout(self.raw().1, l.as_ptr()) }
    }

    /// A new function `name` of function type `ty` (LLVM adds `.N` where the name is taken).
    pub fn add_function<'m>(&'m self, name: &str, ty: Type<'m>) -> Built<Value<'m>> {
        require(
            ty.kind() == TypeKind::LLVMFunctionTypeKind,
            "a function of that type",
            &[ty],
        )?;
        let n = cstring(name);
        // SAFETY: a live module and a function type (checked).
        Ok(unsafe { Value::new_unchecked(LLVMAddFunction(self.raw().1, n.as_ptr(), ty.raw())) })
    }

    /// The module's function `name`, if it has one.
    pub fn function_named(&self, name: &str) -> Option<Value<'_>> {
        let n = cstring(name);
        // SAFETY: a live module; the answer is null or a function of it.
        unsafe { Value::new(LLVMGetNamedFunction(self.raw().1, n.as_ptr())) }
    }

    /// The module's global variable `name`, if it has one.
    pub fn global_named(&self, name: &str) -> Option<Value<'_>> {
        let n = cstring(name);
        // SAFETY: a live module; the answer is null or a global of it.
        unsafe { Value::new(LLVMGetNamedGlobal(self.raw().1, n.as_ptr())) }
    }

    /// A new global variable `name` holding a `ty` in address space `space`.
    pub fn add_global<'m>(&'m self, ty: Type<'m>, name: &str, space: u32) -> Built<Value<'m>> {
        require(valid_member(ty), "a global variable of that type", &[ty])?;
        let n = cstring(name);
        // SAFETY: a live module and a type a variable can hold (checked).
        Ok(unsafe {
            Value::new_unchecked(LLVMAddGlobalInAddressSpace(
                self.raw().1,
                ty.raw(),
                n.as_ptr(),
                space,
            ))
        })
    }

    /// The enum attribute `name` (`nounwind`, `noalias`, ...).
    fn enum_attribute(&self, name: &str) -> Built<LLVMAttributeRef> {
        // SAFETY: the name is read for its length; kind 0 is LLVM's answer for no such
        // attribute (refused below).
        let kind = unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len()) };
        require(
            kind != 0 && !TYPE_ATTRIBUTES.contains(&name),
            "an attribute of that name without a type",
            &[],
        )?;
        // SAFETY: a live context and a known attribute kind that takes no type.
        Ok(unsafe { LLVMCreateEnumAttribute(self.raw().0, kind, 0) })
    }

    /// The integer attribute `name(value)`: `align`, a power of two up to 2^29 (LLVM 14's
    /// largest), the only one the writer sets.
    fn int_attribute(&self, name: &str, value: u64) -> Built<LLVMAttributeRef> {
        require(
            name == "align" && value.is_power_of_two() && value <= 1 << 29,
            "that integer attribute or value",
            &[],
        )?;
        // SAFETY: a live context and a known attribute kind whose value is the alignment in
        // bytes, checked above to be one LLVM represents.
        unsafe {
            let kind = LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len());
            Ok(LLVMCreateEnumAttribute(self.raw().0, kind, value))
        }
    }

    /// The type attribute `name(ty)` (`byval`, `sret`, ...).
    fn type_attribute<'m>(&'m self, name: &str, ty: Type<'m>) -> Built<LLVMAttributeRef> {
        require(
            TYPE_ATTRIBUTES.contains(&name) && first_class(ty),
            "that type attribute",
            &[ty],
        )?;
        // SAFETY: as in `enum_attribute`; the name is one of the type attributes (checked).
        unsafe {
            let kind = LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len());
            Ok(LLVMCreateTypeAttribute(self.raw().0, kind, ty.raw()))
        }
    }
}

impl<'m> Value<'m> {
    /// The type a global (a function or a variable) holds: a function's function type.
    pub fn global_value_type(self) -> Option<Type<'m>> {
        // SAFETY: asked of a global value only (point 3).
        unsafe {
            let g = LLVMIsAGlobalValue(self.raw());
            (!g.is_null()).then(|| Type::new(LLVMGlobalGetValueType(g)))
        }
    }

    /// A function's parameter `i`; `None` for a value that is no function or has no such
    /// parameter.
    pub fn param(self, i: u32) -> Option<Value<'m>> {
        let f = self.function()?;
        // SAFETY: a function (point 3), asked for a parameter below its count.
        unsafe {
            (i < LLVMCountParams(f))
                .then(|| Value::new(LLVMGetParam(f, i)))
                .flatten()
        }
    }

    /// Name the value (LLVM adds `.N` where a function's or global's name is taken); a value
    /// of type void stays unnamed.
    pub fn set_name(self, name: &str) {
        if self.type_of().kind() == TypeKind::LLVMVoidTypeKind {
            return;
        }
        // SAFETY: a live value that may carry a name (checked); LLVM copies the bytes.
        unsafe { LLVMSetValueName2(self.raw(), name.as_ptr().cast(), name.len()) }
    }

    /// Set a global's linkage.
    pub fn set_linkage(self, linkage: Linkage) -> Built<()> {
        // SAFETY: the cast answers null for a value that is no global.
        let g = unsafe { LLVMIsAGlobalValue(self.raw()) };
        require(!g.is_null(), "a linkage for a value that is no global", &[])?;
        // SAFETY: a global value (checked).
        unsafe { LLVMSetLinkage(g, linkage) };
        Ok(())
    }

    fn global_variable(self) -> Built<LLVMValueRef> {
        // SAFETY: the cast answers null for a value that is no global variable.
        let g = unsafe { LLVMIsAGlobalVariable(self.raw()) };
        require(
            !g.is_null(),
            "a variable's property on a value that is no global variable",
            &[],
        )?;
        Ok(g)
    }

    /// Mark a global variable constant (or not).
    pub fn set_global_constant(self, constant: bool) -> Built<()> {
        let g = self.global_variable()?;
        // SAFETY: a global variable (checked).
        unsafe { LLVMSetGlobalConstant(g, constant as i32) };
        Ok(())
    }

    /// Give a global variable its initial value (a constant of the type it holds).
    pub fn set_initializer(self, init: Value<'m>) -> Built<()> {
        let g = self.global_variable()?;
        require(
            init.is_constant() && Some(init.type_of()) == self.global_value_type(),
            "an initializer of another type than its variable's",
            &[init.type_of()],
        )?;
        // SAFETY: a global variable given a constant of its type (checked).
        unsafe { LLVMSetInitializer(g, init.raw()) };
        Ok(())
    }

    /// Set the calling convention of a function or of a call.
    pub fn set_call_conv(self, cc: u32) -> Built<()> {
        // SAFETY: the casts answer null for values of other kinds; each setter is called on
        // its own kind only.
        unsafe {
            if let Some(f) = self.function() {
                LLVMSetFunctionCallConv(f, cc);
            } else if !LLVMIsACallInst(self.raw()).is_null() {
                LLVMSetInstructionCallConv(self.raw(), cc);
            } else {
                return Err(Refused::new(
                    "a calling convention for a value that is no function or call",
                ));
            }
        }
        Ok(())
    }

    /// How many parameters a function or a call's callee has, for an attribute's place.
    fn attribute_place_fits(self, place: AttributePlace) -> bool {
        let params = self
            .function()
            .map(|_| self.params().count() as u32)
            .or_else(|| self.call().map(|(_, n)| n));
        match (params, place) {
            (None, _) => false,
            (Some(n), AttributePlace::Param(i)) => i < n,
            _ => true,
        }
    }

    fn add_attribute(self, place: AttributePlace, attr: LLVMAttributeRef) -> Built<()> {
        require(
            self.attribute_place_fits(place),
            "an attribute on no parameter",
            &[],
        )?;
        // SAFETY: a function or a call (checked), at a place it has; the attribute is of
        // this module's context.
        unsafe {
            if let Some(f) = self.function() {
                LLVMAddAttributeAtIndex(f, place.index(), attr);
            } else {
                LLVMAddCallSiteAttribute(self.raw(), place.index(), attr);
            }
        }
        Ok(())
    }

    /// Add the attribute `name` (taking no type) to a function or a call at `place`.
    pub fn add_enum_attribute(
        self,
        module: &'m Module,
        place: AttributePlace,
        name: &str,
    ) -> Built<()> {
        self.add_attribute(place, module.enum_attribute(name)?)
    }

    /// Add the integer attribute `name(value)` (`align(16)`) to a function or a call at
    /// `place`.
    pub fn add_int_attribute(
        self,
        module: &'m Module,
        place: AttributePlace,
        name: &str,
        value: u64,
    ) -> Built<()> {
        self.add_attribute(place, module.int_attribute(name, value)?)
    }

    /// Add the type attribute `name(ty)` to a function or a call at `place`.
    pub fn add_type_attribute(
        self,
        module: &'m Module,
        place: AttributePlace,
        name: &str,
        ty: Type<'m>,
    ) -> Built<()> {
        self.add_attribute(place, module.type_attribute(name, ty)?)
    }

    /// A new block named `name` at the end of this function.
    pub fn append_block(self, module: &'m Module, name: &str) -> Built<Block<'m>> {
        let f = self
            .function()
            .ok_or_else(|| Refused::new("a block in a value that is no function"))?;
        let n = cstring(name);
        // SAFETY: a function (checked) of this module's context.
        unsafe {
            Block::new(LLVMAppendBasicBlockInContext(module.raw().0, f, n.as_ptr()))
                .ok_or_else(|| Refused::new("a block LLVM did not make"))
        }
    }
}
