//! [`GroupOp`]: what a work-group or sub-group collective computes over the work-items of
//! its scope (OpenCL C 2.0's `work_group_reduce_add`, cl_khr_subgroups' `sub_group_any`,
//! the cl_khr_subgroup_* extensions' ballots, shuffles and non-uniform reductions). The
//! operands, the scope and the group operation are [`super::Builtin::Group`]'s.
//!
//! The set is closed, one variant per SPIR-V group instruction a collective is: the
//! instructions whose first operand is the execution scope (OpGroup* of the Kernel
//! capability, OpGroupNonUniform* of SPIR-V 1.3 and SPV_KHR_subgroup_rotate). A reader
//! refuses any other; each writer's `match` is exhaustive. The semantics are SPIR-V's: a
//! predicate or boolean result is a `Bool`, where OpenCL C has an `int`. The opcodes are
//! `mappings/group_ops.toml` (`mappings::group_opcode`), the OpenCL C spellings
//! `mappings/groups.toml`.

/// Declares [`GroupOp`] and its list of every variant, from one list.
macro_rules! group_ops {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// A collective (see the module's documentation). The `Group*` forms of OpenCL 2.0
        /// are uniform (every work-item of the scope takes part); the `NonUniform*` forms
        /// are over the active work-items.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GroupOp {
            $($(#[$doc])* $name,)*
        }

        impl GroupOp {
            /// Every collective, in declaration order.
            pub const ALL: &'static [GroupOp] = &[$(GroupOp::$name,)*];
        }
    };
}

group_ops! {
    /// Whether the predicate holds for every work-item (`work_group_all`).
    All,
    /// Whether it holds for any (`work_group_any`).
    Any,
    /// The value of the work-item at the given local id (`work_group_broadcast`).
    Broadcast,
    /// Integer sum (reduce or scan, by the group operation).
    IAdd,
    /// Float sum.
    FAdd,
    /// Float minimum.
    FMin,
    /// Unsigned minimum.
    UMin,
    /// Signed minimum.
    SMin,
    /// Float maximum.
    FMax,
    /// Unsigned maximum.
    UMax,
    /// Signed maximum.
    SMax,
    /// Whether this is the active work-item with the lowest id (`sub_group_elect`).
    NonUniformElect,
    /// Whether the predicate holds for every active work-item.
    NonUniformAll,
    /// Whether it holds for any active work-item.
    NonUniformAny,
    /// Whether the value is the same in every active work-item.
    NonUniformAllEqual,
    /// The value of the given work-item.
    NonUniformBroadcast,
    /// The value of the active work-item with the lowest id.
    NonUniformBroadcastFirst,
    /// The predicate of every work-item as a mask (a `uint4`).
    NonUniformBallot,
    /// Whether this work-item's bit is set in the mask.
    NonUniformInverseBallot,
    /// Whether the given bit is set in the mask.
    NonUniformBallotBitExtract,
    /// The number of bits set in the mask (reduce or scan, by the group operation).
    NonUniformBallotBitCount,
    /// The lowest bit set in the mask.
    NonUniformBallotFindLSB,
    /// The highest bit set in the mask.
    NonUniformBallotFindMSB,
    /// The value of the given work-item.
    NonUniformShuffle,
    /// The value of the work-item whose id is this one's xor the mask.
    NonUniformShuffleXor,
    /// The value of the work-item the given distance below.
    NonUniformShuffleUp,
    /// The value of the work-item the given distance above.
    NonUniformShuffleDown,
    /// Integer sum over the active work-items.
    NonUniformIAdd,
    /// Float sum.
    NonUniformFAdd,
    /// Integer product.
    NonUniformIMul,
    /// Float product.
    NonUniformFMul,
    /// Signed minimum.
    NonUniformSMin,
    /// Unsigned minimum.
    NonUniformUMin,
    /// Float minimum.
    NonUniformFMin,
    /// Signed maximum.
    NonUniformSMax,
    /// Unsigned maximum.
    NonUniformUMax,
    /// Float maximum.
    NonUniformFMax,
    /// Bitwise and.
    NonUniformBitwiseAnd,
    /// Bitwise or.
    NonUniformBitwiseOr,
    /// Bitwise exclusive or.
    NonUniformBitwiseXor,
    /// Logical and of booleans.
    NonUniformLogicalAnd,
    /// Logical or.
    NonUniformLogicalOr,
    /// Logical exclusive or.
    NonUniformLogicalXor,
    /// The value of the given work-item of this one's quad.
    NonUniformQuadBroadcast,
    /// The value of a neighbour in this one's quad (horizontal, vertical or diagonal).
    NonUniformQuadSwap,
    /// The value of the work-item the given distance above, wrapping around (within
    /// clusters of the given size, if one is given).
    NonUniformRotate,
}

impl GroupOp {
    /// Whether the collective takes a group operation (reduce, inclusive or exclusive scan,
    /// clustered reduce) after its scope: the arithmetic ones and the ballot's bit count.
    pub fn takes_group_operation(self) -> bool {
        use GroupOp as G;
        matches!(
            self,
            G::IAdd
                | G::FAdd
                | G::FMin
                | G::UMin
                | G::SMin
                | G::FMax
                | G::UMax
                | G::SMax
                | G::NonUniformBallotBitCount
                | G::NonUniformIAdd
                | G::NonUniformFAdd
                | G::NonUniformIMul
                | G::NonUniformFMul
                | G::NonUniformSMin
                | G::NonUniformUMin
                | G::NonUniformFMin
                | G::NonUniformSMax
                | G::NonUniformUMax
                | G::NonUniformFMax
                | G::NonUniformBitwiseAnd
                | G::NonUniformBitwiseOr
                | G::NonUniformBitwiseXor
                | G::NonUniformLogicalAnd
                | G::NonUniformLogicalOr
                | G::NonUniformLogicalXor
        )
    }

    /// Whether its first operand is a ballot (a `uint4` mask).
    pub fn takes_ballot(self) -> bool {
        use GroupOp as G;
        matches!(
            self,
            G::NonUniformInverseBallot
                | G::NonUniformBallotBitExtract
                | G::NonUniformBallotBitCount
                | G::NonUniformBallotFindLSB
                | G::NonUniformBallotFindMSB
        )
    }

    /// Whether its integer operands are unsigned (the U forms of min and max): where a
    /// spelling needs a sign (IA64 mangling, OpenCL C overloads) these get `uint`, the others
    /// `int`.
    pub fn takes_unsigned(self) -> bool {
        use GroupOp as G;
        matches!(
            self,
            G::UMin | G::UMax | G::NonUniformUMin | G::NonUniformUMax
        )
    }
}
