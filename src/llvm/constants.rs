//! Constants: integers, floats, aggregates, and the constant expressions (casts, addresses)
//! a module's initializers and operands use. Each is made only from operands of the types
//! LLVM's constant folder assumes (point 6).

use llvm_sys::core::*;

use super::checks::{
    cast_is_valid, first_class, indexed_type, is_float, is_int, require, Built, Index,
};
use super::value::{raw_values, Opcode, Type, TypeKind, Value};
use super::{Module, Refused};

impl Module {
    /// The integer constant `bits` (truncated to the type's width) of integer type `ty`.
    pub fn const_int<'m>(&'m self, ty: Type<'m>, bits: u64) -> Built<Value<'m>> {
        require(
            ty.int_width().is_some(),
            "an integer constant of that type",
            &[ty],
        )?;
        // SAFETY: an integer type (checked), which `ConstantInt::get` casts to.
        Ok(unsafe { Value::new_unchecked(LLVMConstInt(ty.raw(), bits, 0)) })
    }

    /// The `i32` constant `v` (an integer of a width LLVM always has, so it cannot fail).
    pub fn const_u32(&self, v: u32) -> Value<'_> {
        // SAFETY: a live context; `i32` is an integer type.
        unsafe {
            let (ctx, _) = self.raw();
            Value::new_unchecked(LLVMConstInt(LLVMInt32TypeInContext(ctx), u64::from(v), 0))
        }
    }

    /// The floating-point constant `x` of type `ty` (a float or a vector of floats).
    pub fn const_real<'m>(&'m self, ty: Type<'m>, x: f64) -> Built<Value<'m>> {
        require(
            is_float(ty),
            "a floating-point constant of that type",
            &[ty],
        )?;
        // SAFETY: a floating-point type (checked).
        Ok(unsafe { Value::new_unchecked(LLVMConstReal(ty.raw(), x)) })
    }

    /// The zero of `ty` (null for a pointer).
    pub fn const_null<'m>(&'m self, ty: Type<'m>) -> Built<Value<'m>> {
        require(first_class(ty), "a zero of that type", &[ty])?;
        // SAFETY: a type that has values (checked), as `Constant::getNullValue` requires.
        Ok(unsafe { Value::new_unchecked(LLVMConstNull(ty.raw())) })
    }

    /// `undef` of `ty`.
    pub fn undef<'m>(&'m self, ty: Type<'m>) -> Built<Value<'m>> {
        require(first_class(ty), "an undefined value of that type", &[ty])?;
        // SAFETY: a type that has values (checked).
        Ok(unsafe { Value::new_unchecked(LLVMGetUndef(ty.raw())) })
    }

    /// The vector constant of `lanes` (constants of one lane type).
    pub fn const_vector<'m>(&'m self, lanes: &[Value<'m>]) -> Built<Value<'m>> {
        let first = lanes
            .first()
            .ok_or_else(|| Refused::new("a vector of no lanes"))?;
        first.type_of().vector_of(1)?;
        require_constants(lanes, first.type_of())?;
        let mut raw = raw_values(lanes);
        // SAFETY: constants of one valid lane type (checked), in an array of the length passed.
        Ok(unsafe { Value::new_unchecked(LLVMConstVector(raw.as_mut_ptr(), raw.len() as u32)) })
    }

    /// The array constant of `elems`, each of type `elem`.
    pub fn const_array<'m>(&'m self, elem: Type<'m>, elems: &[Value<'m>]) -> Built<Value<'m>> {
        elem.array_of(elems.len() as u64)?;
        require_constants(elems, elem)?;
        let mut raw = raw_values(elems);
        // SAFETY: constants of the valid element type (checked).
        Ok(unsafe {
            Value::new_unchecked(LLVMConstArray(
                elem.raw(),
                raw.as_mut_ptr(),
                raw.len() as u32,
            ))
        })
    }

    /// The literal struct constant of `fields`.
    pub fn const_struct<'m>(&'m self, fields: &[Value<'m>], packed: bool) -> Built<Value<'m>> {
        let tys: Vec<Type> = fields.iter().map(|f| f.type_of()).collect();
        self.struct_type(&tys, packed)?;
        require(
            fields.iter().all(|f| f.is_constant()),
            "a struct constant of non-constants",
            &[],
        )?;
        let mut raw = raw_values(fields);
        // SAFETY: constants of valid member types (checked).
        unsafe {
            let (ctx, _) = self.raw();
            Ok(Value::new_unchecked(LLVMConstStructInContext(
                ctx,
                raw.as_mut_ptr(),
                raw.len() as u32,
                packed as i32,
            )))
        }
    }

    /// The constant of the named struct type `ty` with members `fields`.
    pub fn const_named_struct<'m>(
        &'m self,
        ty: Type<'m>,
        fields: &[Value<'m>],
    ) -> Built<Value<'m>> {
        let members = ty.struct_fields().unwrap_or_default();
        let fits = ty.kind() == TypeKind::LLVMStructTypeKind
            && !ty.is_opaque_struct()
            && members.len() == fields.len()
            && fields
                .iter()
                .zip(&members)
                .all(|(f, &m)| f.is_constant() && f.type_of() == m);
        require(
            fits,
            "a struct constant whose members are not its type's",
            &[ty],
        )?;
        let mut raw = raw_values(fields);
        // SAFETY: constants of the struct's member types, as many as it has (checked).
        Ok(unsafe {
            Value::new_unchecked(LLVMConstNamedStruct(
                ty.raw(),
                raw.as_mut_ptr(),
                raw.len() as u32,
            ))
        })
    }

    /// The constant expression casting `v` to `to` by `op` (a bitcast to `v`'s own type is
    /// `v`).
    pub fn const_cast<'m>(&'m self, op: Opcode, v: Value<'m>, to: Type<'m>) -> Built<Value<'m>> {
        use Opcode as O;
        require(v.is_constant(), "a constant cast of a non-constant", &[])?;
        if op == O::LLVMBitCast && v.type_of() == to {
            return Ok(v);
        }
        require(
            cast_is_valid(op, v.type_of(), to),
            "that constant cast",
            &[v.type_of(), to],
        )?;
        let make = match op {
            O::LLVMTrunc => LLVMConstTrunc,
            O::LLVMZExt => LLVMConstZExt,
            O::LLVMSExt => LLVMConstSExt,
            O::LLVMFPTrunc => LLVMConstFPTrunc,
            O::LLVMFPExt => LLVMConstFPExt,
            O::LLVMFPToUI => LLVMConstFPToUI,
            O::LLVMFPToSI => LLVMConstFPToSI,
            O::LLVMUIToFP => LLVMConstUIToFP,
            O::LLVMSIToFP => LLVMConstSIToFP,
            O::LLVMPtrToInt => LLVMConstPtrToInt,
            O::LLVMIntToPtr => LLVMConstIntToPtr,
            O::LLVMBitCast => LLVMConstBitCast,
            _ => LLVMConstAddrSpaceCast,
        };
        // SAFETY: a constant and a cast LLVM deems valid between the two types (checked, and
        // only cast opcodes pass the check).
        Ok(unsafe { Value::new_unchecked(make(v.raw(), to.raw())) })
    }

    /// The constant address `getelementptr elem, base, indices` (`base` a constant pointer
    /// to `elem`, the indices constant integers).
    pub fn const_gep<'m>(
        &'m self,
        elem: Type<'m>,
        base: Value<'m>,
        indices: &[Value<'m>],
        inbounds: bool,
    ) -> Built<Value<'m>> {
        let bt = base.type_of();
        require(
            base.is_constant()
                && bt.kind() == TypeKind::LLVMPointerTypeKind
                && bt.element() == Some(elem),
            "a constant address into that type",
            &[bt, elem],
        )?;
        let idx = gep_indices(indices, true)?;
        require(
            !idx.is_empty() && indexed_type(elem, &idx[1..]).is_some(),
            "those constant indices",
            &[elem],
        )?;
        let mut raw = raw_values(indices);
        let make = if inbounds {
            LLVMConstInBoundsGEP2
        } else {
            LLVMConstGEP2
        };
        // SAFETY: a constant pointer to `elem` and constant integer indices that select a
        // member at every step (checked), as `getIndexedType` requires.
        Ok(unsafe {
            Value::new_unchecked(make(
                elem.raw(),
                base.raw(),
                raw.as_mut_ptr(),
                raw.len() as u32,
            ))
        })
    }
}

/// Each of `vs` a constant of type `ty`.
fn require_constants(vs: &[Value], ty: Type) -> Built<()> {
    require(
        vs.iter().all(|v| v.is_constant() && v.type_of() == ty),
        "an aggregate constant of members of another type",
        &[ty],
    )
}

/// The indices of a `getelementptr`, each an integer (a constant one where `constant`).
pub(super) fn gep_indices(indices: &[Value], constant: bool) -> Built<Vec<Index>> {
    indices
        .iter()
        .map(|&i| {
            require(
                is_int(i.type_of())
                    && i.type_of().vector().is_none()
                    && (!constant || i.is_constant()),
                "an index of that type",
                &[i.type_of()],
            )?;
            Ok(match i.const_int_value() {
                Some(k) => Index::Const(k, i.type_of().int_width().unwrap_or(0)),
                None => Index::Variable,
            })
        })
        .collect()
}
