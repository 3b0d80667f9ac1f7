//! [`Primitive`]: the operations the graph keeps as themselves — one OpenCL C builtin or
//! one instruction of SPIR-V's core each, whose operands are exactly the builtin's `args`.
//!
//! The set is closed: a reader that meets an operation outside it refuses it, and each
//! writer's `match` on a primitive is exhaustive, so adding one here makes the compiler list
//! every writer that must learn it. The names are the graph's; where SPIR-V has the same
//! operation, its opcode is a row of `mappings/primitives.toml` (`mappings::opcode`), and
//! the OpenCL C spellings live with the OpenCL C writers.
//!
//! The semantics are SPIR-V's, which OpenCL C's builtins of the same name share: a
//! floating-point test (`IsNan`, ...) gives a `Bool` (or a vector of them) where OpenCL C
//! gives an integer, and the readers and writers of OpenCL's form widen or narrow it.

use super::sign::Sign;

/// The signs and form of one of SPIR-V's integer dot products (SPIR-V 1.6 core, before it
/// `SPV_KHR_integer_dot_product`), which the graph keeps as [`Primitive::SDot`],
/// [`Primitive::UDot`], [`Primitive::SUDot`] and their saturating accumulations.
///
/// `args` are the two factors and, for the accumulating forms, the accumulator (of the result
/// type). The factors are either two integer vectors of one type, or two 32-bit integers each
/// holding four 8-bit components, lowest byte first: SPIR-V marks that form with its one packed
/// format (`PackedVectorFormat4x8Bit`), which the graph does not spell, since a scalar factor
/// can only mean it. The products are summed exactly; the plain forms then keep the low bits
/// that fit the result, the accumulating forms add the accumulator and clamp the sum to the
/// result's range (signed unless both factors are unsigned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntegerDot {
    /// The first factor's components are signed (`OpSDot`, `OpSUDot`).
    pub first: Sign,
    /// The second factor's components are signed (`OpSDot` only).
    pub second: Sign,
    /// The saturating accumulation (`Op*DotAccSat`).
    pub accumulate: bool,
}

impl IntegerDot {
    /// Whether the result (and accumulator) is signed: unless both factors are unsigned.
    pub fn signed_result(self) -> bool {
        self.first == Sign::Signed || self.second == Sign::Signed
    }
}

/// The pattern of OpenCL C 2.0's pipe primitives (`read_pipe`, `reserve_write_pipe`, ...),
/// for the exhaustive matches of the writers that hand them to their pipe module as one arm.
macro_rules! pipe_primitives {
    () => {
        $crate::ir::Primitive::ReadPipe
            | $crate::ir::Primitive::WritePipe
            | $crate::ir::Primitive::ReservedReadPipe
            | $crate::ir::Primitive::ReservedWritePipe
            | $crate::ir::Primitive::ReserveReadPipePackets
            | $crate::ir::Primitive::ReserveWritePipePackets
            | $crate::ir::Primitive::CommitReadPipe
            | $crate::ir::Primitive::CommitWritePipe
            | $crate::ir::Primitive::IsValidReserveId
            | $crate::ir::Primitive::GetNumPipePackets
            | $crate::ir::Primitive::GetMaxPipePackets
            | $crate::ir::Primitive::GroupReserveReadPipePackets
            | $crate::ir::Primitive::GroupReserveWritePipePackets
            | $crate::ir::Primitive::GroupCommitReadPipe
            | $crate::ir::Primitive::GroupCommitWritePipe
    };
}
pub(crate) use pipe_primitives;

/// The pattern of OpenCL C 2.0's device-side enqueue and event primitives (`enqueue_kernel`,
/// `get_kernel_work_group_size`, `retain_event`, ...), as [`pipe_primitives`] is the pipes'.
macro_rules! enqueue_primitives {
    () => {
        $crate::ir::Primitive::EnqueueMarker
            | $crate::ir::Primitive::EnqueueKernel
            | $crate::ir::Primitive::GetKernelNDrangeSubGroupCount
            | $crate::ir::Primitive::GetKernelNDrangeMaxSubGroupSize
            | $crate::ir::Primitive::GetKernelWorkGroupSize
            | $crate::ir::Primitive::GetKernelPreferredWorkGroupSizeMultiple
            | $crate::ir::Primitive::RetainEvent
            | $crate::ir::Primitive::ReleaseEvent
            | $crate::ir::Primitive::CreateUserEvent
            | $crate::ir::Primitive::IsValidEvent
            | $crate::ir::Primitive::SetUserEventStatus
            | $crate::ir::Primitive::CaptureEventProfilingInfo
            | $crate::ir::Primitive::GetDefaultQueue
            | $crate::ir::Primitive::BuildNDRange
    };
}
pub(crate) use enqueue_primitives;

/// Declares [`Primitive`] and its list of every variant, from one list.
macro_rules! primitives {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// An operation the graph keeps as itself (see the module's documentation).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Primitive {
            $($(#[$doc])* $name,)*
        }

        impl Primitive {
            /// Every primitive, in declaration order.
            pub const ALL: &'static [Primitive] = &[$(Primitive::$name,)*];
        }
    };
}

primitives! {
    // Geometric and relational.
    /// The dot product of two float vectors (`dot`).
    Dot,
    /// Whether any lane of a boolean vector is true.
    Any,
    /// Whether every lane of a boolean vector is true.
    All,
    /// Whether a float is a NaN (`isnan`).
    IsNan,
    /// Whether a float is an infinity (`isinf`).
    IsInf,
    /// Whether a float is neither NaN nor infinite (`isfinite`).
    IsFinite,
    /// Whether a float is normal (`isnormal`).
    IsNormal,
    /// Whether a float's sign bit is set (`signbit`).
    SignBitSet,
    /// `a < b || a > b` of two floats (`islessgreater`).
    LessOrGreater,
    /// Whether neither float is a NaN (`isordered`).
    Ordered,
    /// Whether either float is a NaN (`isunordered`).
    Unordered,
    /// The lanewise and of two booleans.
    LogicalAnd,
    /// The lanewise or of two booleans.
    LogicalOr,
    /// The lanewise negation of a boolean.
    LogicalNot,
    /// Whether two booleans are equal, lanewise.
    LogicalEqual,
    /// Whether two booleans differ, lanewise.
    LogicalNotEqual,
    // Bits and integer arithmetic.
    /// The number of set bits (`popcount`); the result has the operand's type.
    BitCount,
    /// The bits in reverse order (`bit_reverse`, cl_khr_extended_bit_ops).
    BitReverse,
    /// `bitfield_insert(base, insert, offset, count)`.
    BitFieldInsert,
    /// `bitfield_extract_signed(base, offset, count)`.
    BitFieldSExtract,
    /// `bitfield_extract_unsigned(base, offset, count)`.
    BitFieldUExtract,
    /// The float remainder whose sign is the divisor's.
    FMod,
    /// The signed integer remainder whose sign is the divisor's.
    SMod,
    /// A sum and its carry, as a struct of two.
    IAddCarry,
    /// A difference and its borrow, as a struct of two.
    ISubBorrow,
    /// The unsigned full product, low and high halves as a struct of two.
    UMulExtended,
    /// The signed full product, low and high halves as a struct of two.
    SMulExtended,
    /// The integer dot product of signed factors (see [`IntegerDot`]).
    SDot,
    /// The integer dot product of unsigned factors.
    UDot,
    /// The integer dot product of a signed and an unsigned factor.
    SUDot,
    /// [`Primitive::SDot`] added to an accumulator, saturating.
    SDotAccSat,
    /// [`Primitive::UDot`] added to an accumulator, saturating.
    UDotAccSat,
    /// [`Primitive::SUDot`] added to an accumulator, saturating.
    SUDotAccSat,
    // Pointers.
    /// A generic pointer cast to the address space of the result type, or null where it
    /// points elsewhere (`to_global`, `to_local`, `to_private`).
    GenericCastToPtrExplicit,
    /// The fence flags of the memory a generic pointer points to (`get_fence`).
    GenericPtrMemSemantics,
    /// The size in bytes of what a pointer points to.
    SizeOf,
    /// Whether two pointers are equal (the Vulkan lowering's buffer pointers).
    PtrEqual,
    /// Whether two pointers differ (the Vulkan lowering's buffer pointers).
    PtrNotEqual,
    /// The distance between two pointers, in elements (the Vulkan lowering's buffer
    /// pointers).
    PtrDiff,
    /// The operand itself, as a new value (the Vulkan lowering's copies of views).
    CopyObject,
    // Atomics of floats (SPV_EXT_shader_atomic_float_add, _min_max: pointer, scope,
    // semantics, value).
    /// The atomic minimum of a float in memory.
    AtomicFMin,
    /// The atomic maximum of a float in memory.
    AtomicFMax,
    /// The atomic addition to a float in memory.
    AtomicFAdd,
    // Images.
    /// The number of mipmap levels of an image.
    ImageQueryLevels,
    /// The channel data type of an image (`get_image_channel_data_type`, SPIR-V's code).
    ImageQueryFormat,
    /// The channel order of an image (`get_image_channel_order`, SPIR-V's code).
    ImageQueryOrder,
    /// The number of samples of a multisampled image.
    ImageQuerySamples,
    /// An image and a sampler joined (the SPIR-V friendly IR's `__spirv_SampledImage`).
    SampledImage,
    // Pipes (OpenCL C 2.0 §6.13.16).
    /// `read_pipe(p, ptr)`.
    ReadPipe,
    /// `write_pipe(p, ptr)`.
    WritePipe,
    /// `read_pipe(p, reserve_id, index, ptr)`.
    ReservedReadPipe,
    /// `write_pipe(p, reserve_id, index, ptr)`.
    ReservedWritePipe,
    /// `reserve_read_pipe(p, n)`.
    ReserveReadPipePackets,
    /// `reserve_write_pipe(p, n)`.
    ReserveWritePipePackets,
    /// `commit_read_pipe(p, reserve_id)`.
    CommitReadPipe,
    /// `commit_write_pipe(p, reserve_id)`.
    CommitWritePipe,
    /// `is_valid_reserve_id(reserve_id)`.
    IsValidReserveId,
    /// `get_pipe_num_packets(p)`.
    GetNumPipePackets,
    /// `get_pipe_max_packets(p)`.
    GetMaxPipePackets,
    /// `work_group_reserve_read_pipe` and the sub-group form (the scope first).
    GroupReserveReadPipePackets,
    /// `work_group_reserve_write_pipe` and the sub-group form.
    GroupReserveWritePipePackets,
    /// `work_group_commit_read_pipe` and the sub-group form.
    GroupCommitReadPipe,
    /// `work_group_commit_write_pipe` and the sub-group form.
    GroupCommitWritePipe,
    // Device-side enqueue and events (OpenCL C 2.0 §6.13.17).
    /// `enqueue_marker(queue, n, wait_list, event)`.
    EnqueueMarker,
    /// `enqueue_kernel`, SPIR-V's operand order (queue, flags, ND range, events, invoke,
    /// block literal, its size and alignment, local sizes).
    EnqueueKernel,
    /// `get_kernel_sub_group_count_for_ndrange`.
    GetKernelNDrangeSubGroupCount,
    /// `get_kernel_max_sub_group_size_for_ndrange`.
    GetKernelNDrangeMaxSubGroupSize,
    /// `get_kernel_work_group_size`.
    GetKernelWorkGroupSize,
    /// `get_kernel_preferred_work_group_size_multiple`.
    GetKernelPreferredWorkGroupSizeMultiple,
    /// `retain_event(e)`.
    RetainEvent,
    /// `release_event(e)`.
    ReleaseEvent,
    /// `create_user_event()`.
    CreateUserEvent,
    /// `is_valid_event(e)`.
    IsValidEvent,
    /// `set_user_event_status(e, status)`.
    SetUserEventStatus,
    /// `capture_event_profiling_info(e, name, value)`.
    CaptureEventProfilingInfo,
    /// `get_default_queue()`.
    GetDefaultQueue,
    /// `ndrange_1D`/`_2D`/`_3D`: an `ndrange_t` from global size, local size and offset.
    BuildNDRange,
}

impl Primitive {
    /// The integer dot product this is, if it is one.
    pub fn integer_dot(self) -> Option<IntegerDot> {
        use Sign::{Signed as Si, Unsigned as Un};
        let (first, second, accumulate) = match self {
            Primitive::SDot => (Si, Si, false),
            Primitive::UDot => (Un, Un, false),
            Primitive::SUDot => (Si, Un, false),
            Primitive::SDotAccSat => (Si, Si, true),
            Primitive::UDotAccSat => (Un, Un, true),
            Primitive::SUDotAccSat => (Si, Un, true),
            _ => return None,
        };
        Some(IntegerDot {
            first,
            second,
            accumulate,
        })
    }

    /// The floating-point tests, which give a boolean where OpenCL C gives an integer
    /// (`isnan`, `signbit`, `islessgreater`, ...).
    pub fn is_float_test(self) -> bool {
        matches!(
            self,
            Primitive::IsNan
                | Primitive::IsInf
                | Primitive::IsFinite
                | Primitive::IsNormal
                | Primitive::SignBitSet
                | Primitive::LessOrGreater
                | Primitive::Ordered
                | Primitive::Unordered
        )
    }

    /// OpenCL C 2.0's pipe instructions.
    /// OpenCL C 2.0's pipe instructions.
    pub fn is_pipe(self) -> bool {
        matches!(self, pipe_primitives!())
    }

    /// OpenCL C 2.0's device-side enqueue and event instructions.
    /// OpenCL C 2.0's device-side enqueue and event instructions.
    pub fn is_enqueue(self) -> bool {
        matches!(self, enqueue_primitives!())
    }

    /// Whether it computes a value from its operands and does nothing else (see
    /// [`super::Builtin::is_pure`]).
    pub fn is_pure(self) -> bool {
        matches!(
            self,
            Primitive::Dot | Primitive::BitCount | Primitive::Any | Primitive::All
        ) || self.is_float_test()
    }
}

impl IntegerDot {
    /// The primitive for these signs, the factors in the order given: `None` for an unsigned
    /// first factor with a signed second (there is no such form: swap the factors).
    pub fn primitive(self) -> Option<Primitive> {
        Primitive::ALL
            .iter()
            .copied()
            .find(|p| p.integer_dot() == Some(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_dots_both_ways() {
        let dots: Vec<_> = Primitive::ALL
            .iter()
            .filter_map(|p| p.integer_dot().map(|d| (*p, d)))
            .collect();
        assert_eq!(dots.len(), 6);
        for (p, d) in dots {
            assert_eq!(d.primitive(), Some(p));
        }
        let us = IntegerDot {
            first: Sign::Unsigned,
            second: Sign::Signed,
            accumulate: false,
        };
        assert_eq!(us.primitive(), None);
    }
}
