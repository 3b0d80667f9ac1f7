//! The checks made before a building call (the safety argument, point 6), and [`Refused`],
//! the answer when one fails.
//!
//! LLVM's C API does not check the operands it is given: its C++ side casts a type to the
//! kind it expects (`cast<VectorType>` in `extractelement`, `cast<IntegerType>` in a constant
//! integer), walks indices into types (`getIndexedType`, which answers null for an index that
//! does not fit, then dereferenced), and folds constants by their types. In a build without
//! LLVM's assertions (Debian's) an ill-typed operand is undefined behaviour there, not an
//! error. So every building call of this room is made only after the checks below passed;
//! what fails them is a [`Refused`] naming the operation and the types.

use std::fmt;

use super::value::{Opcode, Type, TypeKind};

/// A building call this room would not make: its operands do not have the types LLVM
/// requires (for the layer's user an internal fault: its own IR was ill-typed), or what it
/// asks for is past what LLVM 14's C API can build (a limit: [`Refused::is_limit`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    what: String,
    limit: bool,
}

impl Refused {
    pub(super) fn new(what: impl Into<String>) -> Refused {
        Refused {
            what: what.into(),
            limit: false,
        }
    }

    /// A well-typed request past a limit of LLVM's C API (an array longer than a 32-bit
    /// count): the input's size, not a fault of the caller.
    pub(super) fn limit(what: impl Into<String>) -> Refused {
        Refused {
            what: what.into(),
            limit: true,
        }
    }

    /// Whether this is a limit of LLVM's C API rather than an ill-typed request.
    pub fn is_limit(&self) -> bool {
        self.limit
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for Refused {}

/// A building call's answer.
pub type Built<T> = Result<T, Refused>;

/// `Ok(())` where `ok`, else a [`Refused`] saying `what` of the types `tys`.
pub(super) fn require(ok: bool, what: &str, tys: &[Type]) -> Built<()> {
    if ok {
        return Ok(());
    }
    let tys: Vec<String> = tys.iter().map(|t| t.text()).collect();
    Err(Refused::new(if tys.is_empty() {
        what.to_string()
    } else {
        format!("{what} ({})", tys.join(", "))
    }))
}

fn is_float_kind(k: TypeKind) -> bool {
    matches!(
        k,
        TypeKind::LLVMHalfTypeKind
            | TypeKind::LLVMBFloatTypeKind
            | TypeKind::LLVMFloatTypeKind
            | TypeKind::LLVMDoubleTypeKind
            | TypeKind::LLVMX86_FP80TypeKind
            | TypeKind::LLVMFP128TypeKind
            | TypeKind::LLVMPPC_FP128TypeKind
    )
}

/// The type itself, or a vector's element type.
pub(super) fn scalar(t: Type) -> Type {
    t.vector().map_or(t, |(e, _)| e)
}

/// An integer or a vector of integers.
pub(super) fn is_int(t: Type) -> bool {
    scalar(t).kind() == TypeKind::LLVMIntegerTypeKind
}

/// A floating-point scalar or a vector of them.
pub(super) fn is_float(t: Type) -> bool {
    is_float_kind(scalar(t).kind())
}

/// A pointer or a vector of pointers.
pub(super) fn is_pointer(t: Type) -> bool {
    scalar(t).kind() == TypeKind::LLVMPointerTypeKind
}

/// `i1` or a vector of `i1`.
pub(super) fn is_bool(t: Type) -> bool {
    scalar(t).int_width() == Some(1)
}

/// Kinds that are no value's type (LLVM's labels, metadata, tokens, AMX tiles, void).
fn is_special(t: Type) -> bool {
    matches!(
        t.kind(),
        TypeKind::LLVMVoidTypeKind
            | TypeKind::LLVMLabelTypeKind
            | TypeKind::LLVMMetadataTypeKind
            | TypeKind::LLVMTokenTypeKind
            | TypeKind::LLVMX86_AMXTypeKind
    )
}

/// `PointerType::isValidElementType`.
pub(super) fn valid_pointee(t: Type) -> bool {
    !is_special(t)
}

/// `ArrayType::isValidElementType` and `StructType::isValidElementType`.
pub(super) fn valid_member(t: Type) -> bool {
    !is_special(t)
        && t.kind() != TypeKind::LLVMFunctionTypeKind
        && t.kind() != TypeKind::LLVMScalableVectorTypeKind
}

/// Each of `fields` a type a struct may hold, else a refusal naming them.
pub(super) fn require_members(fields: &[Type]) -> Built<()> {
    require(
        fields.iter().all(|&f| valid_member(f)),
        "a struct member of that type",
        fields,
    )
}

/// `VectorType::isValidElementType`.
pub(super) fn valid_lane(t: Type) -> bool {
    matches!(
        t.kind(),
        TypeKind::LLVMIntegerTypeKind | TypeKind::LLVMPointerTypeKind
    ) || is_float_kind(t.kind())
}

/// A type a value, a parameter or an operand can have (`Type::isFirstClassType`, void aside).
pub(super) fn first_class(t: Type) -> bool {
    !is_special(t) && t.kind() != TypeKind::LLVMFunctionTypeKind
}

/// The width in bits of a scalar or a vector of scalars (pointers have none here).
fn primitive_bits(t: Type) -> Option<u64> {
    let (elem, n) = t.vector().unwrap_or((t, 1));
    let w = match elem.kind() {
        TypeKind::LLVMIntegerTypeKind => elem.int_width()?,
        TypeKind::LLVMHalfTypeKind | TypeKind::LLVMBFloatTypeKind => 16,
        TypeKind::LLVMFloatTypeKind => 32,
        TypeKind::LLVMDoubleTypeKind => 64,
        _ => return None,
    };
    Some(u64::from(w) * u64::from(n))
}

/// The scalar width of an integer or float (vector) type, for the widening and narrowing
/// casts.
fn lane_bits(t: Type) -> Option<u64> {
    primitive_bits(scalar(t))
}

/// `CastInst::castIsValid`: whether `op` casts a `from` to a `to`.
pub(super) fn cast_is_valid(op: Opcode, from: Type, to: Type) -> bool {
    use Opcode as O;
    if !first_class(from) || !first_class(to) {
        return false;
    }
    // Vector to vector of as many lanes, or scalar to scalar.
    let lanes = |t: Type| t.vector().map(|(_, n)| n);
    if lanes(from) != lanes(to) && op != O::LLVMBitCast {
        return false;
    }
    let narrower =
        |a: Type, b: Type| matches!((lane_bits(a), lane_bits(b)), (Some(x), Some(y)) if x < y);
    match op {
        O::LLVMTrunc => is_int(from) && is_int(to) && narrower(to, from),
        O::LLVMZExt | O::LLVMSExt => is_int(from) && is_int(to) && narrower(from, to),
        O::LLVMFPTrunc => is_float(from) && is_float(to) && narrower(to, from),
        O::LLVMFPExt => is_float(from) && is_float(to) && narrower(from, to),
        O::LLVMUIToFP | O::LLVMSIToFP => is_int(from) && is_float(to),
        O::LLVMFPToUI | O::LLVMFPToSI => is_float(from) && is_int(to),
        O::LLVMPtrToInt => is_pointer(from) && is_int(to),
        O::LLVMIntToPtr => is_int(from) && is_pointer(to),
        O::LLVMAddrSpaceCast => {
            is_pointer(from)
                && is_pointer(to)
                && scalar(from).address_space() != scalar(to).address_space()
        }
        O::LLVMBitCast => match (is_pointer(from), is_pointer(to)) {
            (true, true) => {
                lanes(from) == lanes(to)
                    && scalar(from).address_space() == scalar(to).address_space()
            }
            (false, false) => {
                primitive_bits(from).is_some() && primitive_bits(from) == primitive_bits(to)
            }
            _ => false,
        },
        _ => false,
    }
}

/// How a `getelementptr` or `extractvalue` index is given: its value where it is a constant
/// integer, else only that it is an integer.
#[derive(Clone, Copy)]
pub(super) enum Index {
    /// A constant integer: its value and its width in bits.
    Const(u64, u32),
    /// Any other integer.
    Variable,
}

/// `getIndexedType` for the indices after the first: the type `indices` select inside
/// `ty`, or `None` where one does not fit (a struct member must be an `i32` constant in
/// range; a scalar has no members).
pub(super) fn indexed_type<'m>(ty: Type<'m>, indices: &[Index]) -> Option<Type<'m>> {
    let mut t = ty;
    for &i in indices {
        t = match t.kind() {
            TypeKind::LLVMStructTypeKind => match i {
                Index::Const(k, 32) => t.struct_fields()?.get(usize::try_from(k).ok()?).copied()?,
                _ => return None,
            },
            TypeKind::LLVMArrayTypeKind | TypeKind::LLVMVectorTypeKind => t.element()?,
            _ => return None,
        };
    }
    Some(t)
}
