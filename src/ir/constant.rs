//! Module-level constants, hash-consed in a `UniqueArena` so equal constants share one handle.

use super::arena::Handle;
use super::function::{CastOp, Function};
use super::module::Global;
use super::types::Type;

/// A constant value of the module: its type and what it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constant {
    /// Its type.
    pub ty: Handle<Type>,
    /// Its value.
    pub kind: ConstantKind,
}

/// Sampler addressing mode, as OpenCL defines it (the values are SPIR-V's
/// SamplerAddressingMode, which the OpenCL sampler bit-field encodes shifted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SamplerAddressing {
    /// Out-of-range coordinates are undefined (`CLK_ADDRESS_NONE`).
    None,
    /// The edge texel (`CLK_ADDRESS_CLAMP_TO_EDGE`).
    ClampToEdge,
    /// The border colour (`CLK_ADDRESS_CLAMP`).
    Clamp,
    /// Wrapped around (`CLK_ADDRESS_REPEAT`, normalized coordinates only).
    Repeat,
    /// Mirrored (`CLK_ADDRESS_MIRRORED_REPEAT`, normalized coordinates only).
    RepeatMirrored,
}

/// Sampler filter mode, as OpenCL defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SamplerFilter {
    /// The nearest texel (`CLK_FILTER_NEAREST`).
    Nearest,
    /// The texels around, weighted (`CLK_FILTER_LINEAR`).
    Linear,
}

/// What a constant is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ConstantKind {
    /// Integer or bool; `bits` holds the value zero-extended from the type's width.
    Int(u64),
    /// Float of any width, as its IEEE bit pattern.
    Float(u64),
    /// All zero bits (a null pointer, a zeroed aggregate).
    Null,
    /// Any value (LLVM `undef`, SPIR-V OpUndef).
    Undef,
    /// A vector, array or struct of constants, in order.
    Composite(Vec<Handle<Constant>>),
    /// The address of a global variable (type: pointer to the global's type).
    GlobalAddress(Handle<Global>),
    /// The address of a function.
    FunctionAddress(Handle<Function>),
    /// A cast of another constant (LLVM constant expression).
    Cast(CastOp, Handle<Constant>),
    /// `getelementptr` over constants; `source` is the pointee type indexed by the first index.
    Gep {
        /// The address stays inside the object.
        inbounds: bool,
        /// The constant address stepped from.
        base: Handle<Constant>,
        /// The steps (integer constants).
        indices: Vec<Handle<Constant>>,
    },
    /// A sampler literal (`CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | ...`).
    Sampler {
        /// Out-of-range coordinates.
        addressing: SamplerAddressing,
        /// Coordinates in [0, 1] rather than texels.
        normalized: bool,
        /// Nearest or linear.
        filter: SamplerFilter,
    },
    /// A specialization constant (`OpSpecConstant*` decorated `SpecId`): `default` (a scalar
    /// Int/Float constant of the same type) unless the consumer specializes `spec_id`.
    /// Composites of them are `Composite`s that hold one.
    Spec {
        /// The SpecId the consumer sets.
        spec_id: u32,
        /// The value without one.
        default: Handle<Constant>,
    },
    /// Shader form only: an integer operation (not a float one) on two integer constants of
    /// the constant's type, one or both specialization constants or results of these
    /// (`OpSpecConstantOp`). The length of the Workgroup array that holds several `__local`
    /// arguments, each sized by the host, is one.
    SpecOp {
        /// The operation: `Add`, `Mul`, a shift, ...
        op: super::function::BinaryOp,
        /// The first operand.
        lhs: Handle<Constant>,
        /// The second operand.
        rhs: Handle<Constant>,
    },
}

impl SamplerAddressing {
    /// The OpenCL sampler bit-field encoding (`CLK_ADDRESS_*`).
    pub fn from_bits(bits: u32) -> Option<Self> {
        Some(match (bits >> 1) & 7 {
            0 => SamplerAddressing::None,
            1 => SamplerAddressing::ClampToEdge,
            2 => SamplerAddressing::Clamp,
            3 => SamplerAddressing::Repeat,
            4 => SamplerAddressing::RepeatMirrored,
            _ => return None,
        })
    }
    /// The OpenCL sampler bit-field encoding (`CLK_ADDRESS_*`).
    pub fn to_bits(self) -> u32 {
        (match self {
            SamplerAddressing::None => 0,
            SamplerAddressing::ClampToEdge => 1,
            SamplerAddressing::Clamp => 2,
            SamplerAddressing::Repeat => 3,
            SamplerAddressing::RepeatMirrored => 4,
        }) << 1
    }
}

/// `CLK_NORMALIZED_COORDS_TRUE` in OpenCL's sampler bit-field.
pub const SAMPLER_NORMALIZED: u64 = 1;
/// The addressing-mode bits of OpenCL's sampler bit-field (`CLK_ADDRESS_*`).
pub const SAMPLER_ADDRESSING_MASK: u64 = 0xe;
/// The filter bits of OpenCL's sampler bit-field.
pub const SAMPLER_FILTER_MASK: u64 = 0x30;
/// `CLK_FILTER_NEAREST`.
pub const SAMPLER_NEAREST: u64 = 0x10;
/// `CLK_FILTER_LINEAR`.
pub const SAMPLER_LINEAR: u64 = 0x20;

/// Decode the OpenCL sampler bit-field (`CLK_NORMALIZED_COORDS_TRUE = 1`, addressing in bits
/// 1..3, `CLK_FILTER_NEAREST = 0x10`, `CLK_FILTER_LINEAR = 0x20`).
pub fn decode_sampler(bits: u32) -> Option<ConstantKind> {
    let filter = match u64::from(bits) & SAMPLER_FILTER_MASK {
        SAMPLER_NEAREST | 0 => SamplerFilter::Nearest,
        SAMPLER_LINEAR => SamplerFilter::Linear,
        _ => return None,
    };
    if bits & !0x3f != 0 {
        return None;
    }
    Some(ConstantKind::Sampler {
        addressing: SamplerAddressing::from_bits(bits)?,
        normalized: bits & 1 != 0,
        filter,
    })
}

/// Inverse of [`decode_sampler`].
pub fn encode_sampler(
    addressing: SamplerAddressing,
    normalized: bool,
    filter: SamplerFilter,
) -> u32 {
    let filter = match filter {
        SamplerFilter::Nearest => SAMPLER_NEAREST,
        SamplerFilter::Linear => SAMPLER_LINEAR,
    };
    addressing.to_bits() | normalized as u32 | filter as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampler_bits_roundtrip() {
        for bits in [
            0x10u32, 0x12, 0x14, 0x16, 0x18, 0x11, 0x13, 0x25, 0x27, 0x29,
        ] {
            let ConstantKind::Sampler {
                addressing,
                normalized,
                filter,
            } = decode_sampler(bits).unwrap()
            else {
                panic!("not a sampler")
            };
            assert_eq!(encode_sampler(addressing, normalized, filter), bits);
        }
        assert!(decode_sampler(0x30).is_none());
        assert!(decode_sampler(0x1e).is_none());
    }
}
