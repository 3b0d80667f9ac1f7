//! Semantic builtin operations: what an OpenCL C builtin call *means*, independent of how
//! either side spells it (mangled `_Z13get_global_idj`, `__spirv_BuiltInGlobalInvocationId`,
//! an OpExtInst, an OpAtomicIAdd, ...).

pub use super::atomic::AtomicOp;
pub use super::extended::{GlslOp, OpenclOp};
pub use super::group::GroupOp;
pub use super::primitive::{IntegerDot, Primitive};
pub use super::sign::Sign;
pub use spirv::{BuiltIn, FPRoundingMode, GroupOperation, Scope};

/// The element kind an image read or write works on (`read_imagef/i/ui/h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexelKind {
    /// `float4` texels (`read_imagef`).
    Float,
    /// `half4` texels (`read_imageh`).
    Half,
    /// `int4` texels (`read_imagei`).
    Signed,
    /// `uint4` texels (`read_imageui`).
    Unsigned,
}

/// An image builtin: a read, a sampled read, a write or a query. The image (and sampler)
/// are the first of `Op::Builtin::args`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageOp {
    /// args: image, coord (no sampler: `OpImageRead`).
    Read(TexelKind),
    /// args: image, sampler, coord (`OpSampledImage` + `OpImageSampleExplicitLod`, Lod 0).
    Sample(TexelKind),
    /// args: image, coord, texel [, lod].
    Write(TexelKind),
    /// `get_image_width/height/depth/array_size` (component of the size vector) or
    /// `get_image_dim` (the whole 2- or 4-vector; `component == None`).
    QuerySize {
        /// The component of the size vector (0 width, 1 height, 2 depth or array size);
        /// `None` for the whole vector.
        component: Option<u32>,
    },
    /// `get_image_channel_data_type`: OpenCL's `CL_*` value.
    QueryChannelDataType,
    /// `get_image_channel_order`: OpenCL's `CL_*` value.
    QueryChannelOrder,
}

/// A builtin operation with its operands given separately in `Op::Builtin::args`.
#[derive(Clone, Debug, PartialEq)]
pub enum Builtin {
    /// A work-item query; `args` is `[dim]` for the per-dimension ones, empty otherwise.
    WorkItem(BuiltIn),
    /// An OpenCL.std extended instruction; `literal` is the trailing literal operand some take
    /// (`n` of vloadn/vload_halfn/vloada_halfn, the rounding mode of vstore_half*_r).
    ExtInst {
        /// The instruction.
        op: OpenclOp,
        /// Its trailing literal, where it takes one.
        literal: Option<u32>,
    },
    /// `convert_<T>[_sat][_<rounding>]` and plain value conversions with their semantics.
    Convert {
        /// The source's numeric class.
        from: ConvertKind,
        /// The result's numeric class.
        to: ConvertKind,
        /// Saturating (`_sat`): out-of-range values clamp.
        saturate: bool,
        /// The rounding mode (`_rte`, `_rtz`, ...), where one is stated.
        rounding: Option<FPRoundingMode>,
    },
    /// `barrier`/`work_group_barrier`/`sub_group_barrier`: OpControlBarrier.
    ControlBarrier {
        /// The execution scope (the work-items that wait).
        exec: Scope,
        /// The memory scope.
        mem: Scope,
        /// SPIR-V memory semantics (ordering and storage class bits).
        semantics: u32,
    },
    /// `mem_fence`/`atomic_work_item_fence`: OpMemoryBarrier.
    MemoryBarrier {
        /// The memory scope.
        mem: Scope,
        /// SPIR-V memory semantics (ordering and storage class bits).
        semantics: u32,
    },
    /// An atomic read-modify-write (`OpAtomicIAdd`, ...). For compare-exchange `semantics` is
    /// used for both the equal and unequal case.
    Atomic {
        /// What it does.
        op: AtomicOp,
        /// Its memory scope.
        scope: Scope,
        /// SPIR-V memory semantics.
        semantics: u32,
    },
    /// An image read, write or query.
    Image(ImageOp),
    /// `async_work_group_copy` (args: dst, src, num, event) and the strided form
    /// (args: dst, src, num, stride, event).
    AsyncCopy {
        /// The strided form (`async_work_group_strided_copy`).
        strided: bool,
    },
    /// `wait_group_events(num, list)`.
    WaitEvents,
    /// A work-group or sub-group collective (`work_group_reduce_add`, `sub_group_broadcast`,
    /// `sub_group_non_uniform_scan_inclusive_max`, ...; see [`GroupOp`]). `operation` is
    /// present exactly when the collective takes a group operation
    /// ([`GroupOp::takes_group_operation`]); `args` are the operands after it (value, local
    /// id, cluster size, ...), predicates and results as booleans.
    Group {
        /// What it computes.
        op: GroupOp,
        /// Work-group or sub-group.
        scope: Scope,
        /// Reduce, inclusive or exclusive scan, clustered reduce.
        operation: Option<GroupOperation>,
    },
    /// An operation the graph keeps as itself, whose operands are exactly `args` (`dot`,
    /// `isnan`, the pipes, ...; see [`Primitive`]).
    Primitive(Primitive),
    /// Shader form only (the Vulkan lowering): a GLSL.std.450 extended instruction whose
    /// operands are exactly `args`. OpenCL graphs use [`Builtin::ExtInst`].
    Glsl(GlslOp),
}

impl Builtin {
    /// Whether the builtin computes a value from its operands and does nothing else: no
    /// memory read or written (the vector loads and stores, the math functions that store a
    /// second result through a pointer), no printf or prefetch, no barrier, atomic, image
    /// access or collective. What may move into its user's expression (the OpenCL C writer)
    /// or run where the program would not (the Vulkan lowering's merged loop exits).
    pub fn is_pure(&self) -> bool {
        match self {
            Builtin::WorkItem(_) | Builtin::Convert { .. } => true,
            Builtin::ExtInst { op, .. } => !matches!(
                op,
                OpenclOp::printf
                    | OpenclOp::prefetch
                    | OpenclOp::vstoren
                    | OpenclOp::vstore_half
                    | OpenclOp::vstore_half_r
                    | OpenclOp::vstore_halfn
                    | OpenclOp::vstore_halfn_r
                    | OpenclOp::vstorea_halfn
                    | OpenclOp::vstorea_halfn_r
                    | OpenclOp::vloadn
                    | OpenclOp::vload_half
                    | OpenclOp::vload_halfn
                    | OpenclOp::vloada_halfn
                    | OpenclOp::frexp
                    | OpenclOp::modf
                    | OpenclOp::remquo
                    | OpenclOp::sincos
                    | OpenclOp::fract
                    | OpenclOp::lgamma_r
            ),
            Builtin::Primitive(p) => p.is_pure(),
            _ => false,
        }
    }
}

/// The numeric class of a conversion's source or destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvertKind {
    /// A floating-point value (any width).
    Float,
    /// An integer of the given signedness (any width).
    Int(Sign),
}

impl TexelKind {
    /// The texel kind of an image read's result or write's texel type: SPIR-V does not say
    /// for integers, and OpenCL reads and writes them as the image format says, so signed.
    pub fn of_texel_type(m: &super::Module, t: super::Handle<super::Type>) -> TexelKind {
        match m.types[m.scalar_of(t)] {
            super::Type::Float { width: 16 } => TexelKind::Half,
            super::Type::Float { .. } => TexelKind::Float,
            _ => TexelKind::Signed,
        }
    }
}
