//! The kernel interface of a shader-form graph: how each OpenCL kernel argument reaches a
//! Vulkan compute entry point. The Vulkan lowering (`crate::vulkan`) makes it; the SPIR-V
//! writer spells it as `NonSemantic.ClspvReflection` instructions (what clvk-style runtimes
//! read) and `crate::vulkan::reflection` as JSON for hosts and people. One record, written
//! twice, so the two can never disagree.
//!
//! The conventions are clspv's (its reflection instruction set names each kind below):
//! a host binds what a kernel's arguments name and sets the specialization constants.

use super::arena::Handle;
use super::constant::Constant;
use super::function::Function;
use super::kernel::ArgInfo;
use super::module::Global;

/// How one kernel argument arrives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A `__global` or `__constant` pointer: the buffer's 64-bit device address, at `offset`
    /// in the kernel's push constants (ClspvReflection ArgumentPointerPushConstant).
    PointerPushConstant {
        /// Byte offset in the push constants.
        offset: u32,
        /// Bytes (8).
        size: u32,
        /// For a `restrict` argument (LLVM `noalias`), the entry function's Function
        /// variable that holds the address, which the writer decorates RestrictPointer:
        /// SPIR-V says Restrict of a physical address only through the variable or
        /// parameter holding it. `None`: the address is used as it arrives.
        restrict_holder: Option<Handle<super::function::Inst>>,
    },
    /// A `__global` or `__constant` pointer under `--vulkan-pointers descriptors`: a storage
    /// buffer bound at (`descriptor_set`, `binding`), the `StorageBuffer` global `global`
    /// (a Block struct whose one member is a runtime array of the pointee)
    /// (ArgumentStorageBuffer).
    StorageBuffer {
        /// The descriptor set (0).
        descriptor_set: u32,
        /// The binding in it.
        binding: u32,
        /// The module's variable bound there.
        global: Handle<Global>,
        /// What the kernel promises about the buffer.
        access: BufferAccess,
    },
    /// A value (scalar, vector, struct) copied into the push constants at `offset`
    /// (ArgumentPodPushConstant).
    PodPushConstant {
        /// Byte offset in the push constants.
        offset: u32,
        /// Bytes.
        size: u32,
    },
    /// A value at its range of the kernel's argument buffer, a storage buffer: where values
    /// go when they and the pointers would pass the 128 bytes of push constants Vulkan
    /// promises (ArgumentPodStorageBuffer).
    PodStorageBuffer(ArgBufferRange),
    /// A value at its range of the kernel's argument buffer when that is a uniform buffer:
    /// where the device addresses went there too (ArgumentPodUniform).
    PodUniform(ArgBufferRange),
    /// A `__global` or `__constant` pointer whose 64-bit device address is at its range of
    /// the kernel's argument buffer, a uniform buffer: where the device addresses alone
    /// would pass the push constants' limit (ArgumentPointerUniform, clspv's `pod-ubo` form).
    PointerUniform {
        /// Where the address is.
        range: ArgBufferRange,
        /// As `PointerPushConstant::restrict_holder`.
        restrict_holder: Option<Handle<super::function::Inst>>,
    },
    /// A `read_only` image: a sampled image (ArgumentSampledImage), or for an
    /// `image1d_buffer_t` a uniform texel buffer (ArgumentUniformTexelBuffer).
    SampledImage(ImageArg),
    /// A `write_only` or `read_write` image: a storage image (ArgumentStorageImage), or for
    /// an `image1d_buffer_t` a storage texel buffer (ArgumentStorageTexelBuffer).
    StorageImage(ImageArg),
    /// A `sampler_t` (ArgumentSampler). The host makes its Vulkan sampler with normalized
    /// coordinates whatever OpenCL's says, and writes OpenCL's sampler bits
    /// (`CLK_NORMALIZED_COORDS_TRUE` 1, `CLK_ADDRESS_*`, `CLK_FILTER_NEAREST` 0x10 /
    /// `CLK_FILTER_LINEAR` 0x20) as a 32-bit word at `normalized_mask` in the push constants
    /// (NormalizedSamplerMaskPushConstant, as clvk does): the kernel normalizes unnormalized
    /// coordinates itself (Vulkan's unnormalized samplers cannot read arrays or 3D images),
    /// to texel centres where the sampler is nearest.
    Sampler {
        /// Where the sampler is bound.
        binding: Binding,
        /// Where the host writes OpenCL's sampler bits.
        normalized_mask: PushConstantRange,
    },
    /// A `__local` pointer: a Workgroup array whose element count is specialization
    /// constant `spec_id` (the host sets it to the argument's size in bytes / `elem_size`)
    /// (ArgumentWorkgroup).
    Workgroup {
        /// The specialization constant of the element count.
        spec_id: u32,
        /// Bytes an element.
        elem_size: u32,
    },
}

impl ArgKind {
    /// The entry function's variable holding a `restrict` argument's address, which the
    /// writer decorates RestrictPointer (`PointerPushConstant::restrict_holder`).
    pub fn restrict_holder(&self) -> Option<Handle<super::function::Inst>> {
        match self {
            ArgKind::PointerPushConstant {
                restrict_holder, ..
            }
            | ArgKind::PointerUniform {
                restrict_holder, ..
            } => *restrict_holder,
            _ => None,
        }
    }
}

/// Where one argument lies in a kernel's argument buffer: the buffer bound at
/// (`descriptor_set`, `binding`), the global `global` (a Block struct of every argument
/// there, in OpenCL C's layout), and the argument's bytes in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgBufferRange {
    /// The descriptor set (0).
    pub descriptor_set: u32,
    /// The binding in it (0).
    pub binding: u32,
    /// Byte offset in the argument buffer.
    pub offset: u32,
    /// Bytes.
    pub size: u32,
    /// The module's variable bound there (`StorageBuffer` or `Uniform`).
    pub global: Handle<Global>,
}

/// What a kernel promises about one storage buffer, from its argument's attributes: the
/// writer decorates the buffer's variable NonWritable (LLVM `readonly`), NonReadable
/// (`writeonly`) and Restrict (`noalias`, OpenCL C `restrict`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BufferAccess {
    /// The kernel never writes it (NonWritable).
    pub non_writable: bool,
    /// The kernel never reads it (NonReadable).
    pub non_readable: bool,
    /// No other argument reaches it (Restrict).
    pub restrict: bool,
}

/// A descriptor binding and the `UniformConstant` (or `StorageBuffer`) global bound there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The descriptor set.
    pub descriptor_set: u32,
    /// The binding in it.
    pub binding: u32,
    /// The module's variable bound there.
    pub global: Handle<Global>,
}

/// An image argument: its binding, and where the host writes OpenCL's channel order and
/// channel data type (`CL_RGBA`, `CL_FLOAT`, ... as 32-bit words in the push constants)
/// when the kernel asks for them (ImageArgumentInfoChannelOrderPushConstant,
/// ImageArgumentInfoChannelDataTypePushConstant): a Vulkan image's format is the host's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageArg {
    /// Where the image is bound.
    pub binding: Binding,
    /// Where the host writes `CL_RGBA`, ... when the kernel asks `get_image_channel_order`.
    pub channel_order: Option<PushConstantRange>,
    /// Where the host writes `CL_FLOAT`, ... when the kernel asks the data type.
    pub channel_data_type: Option<PushConstantRange>,
    /// An `image1d_buffer_t`: the host binds a buffer view (a texel buffer), not an image.
    pub texel_buffer: bool,
}

/// One argument of a kernel, in OpenCL's ordinal order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgInterface {
    /// The argument's position in the OpenCL kernel's parameter list.
    pub ordinal: u32,
    /// How it arrives.
    pub kind: ArgKind,
    /// What OpenCL says of it (name, type as written, qualifiers).
    pub info: ArgInfo,
}

/// Where a push-constant block holds a value the host fills in for every dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PushConstantRange {
    /// Byte offset in the kernel's push constants.
    pub offset: u32,
    /// Bytes.
    pub size: u32,
}

/// One kernel's entry point and what its host must supply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInterface {
    /// The kernel's (and the entry point's) name.
    pub name: String,
    /// The entry function (no parameters, returns void).
    pub entry: Handle<Function>,
    /// Every OpenCL argument, in order.
    pub args: Vec<ArgInterface>,
    /// The kernel's push-constant block (a `PushConstant` global holding a struct), if it
    /// has one, and its size in bytes.
    pub push_constants: Option<Handle<Global>>,
    /// The push-constant block's size in bytes (0 without one). Every kernel's block starts
    /// with what the module's kernels share (`ShaderInterface::global_offset`, the
    /// program-scope buffer's address), at the same offsets in each.
    pub push_constant_size: u32,
    /// `reqd_work_group_size` (PropertyRequiredWorkgroupSize): the entry point's LocalSize,
    /// which the work-group size specialization constants do not override unless
    /// `ShaderInterface::workgroup_size` says they must; otherwise the size comes from those
    /// constants.
    pub required_workgroup_size: Option<[u32; 3]>,
    /// The kernel calls `printf` (the Kernel instruction's MayUsePrintf flag): the host
    /// binds the printf buffer and prints it after the dispatch.
    pub may_use_printf: bool,
}

/// A sampler constant: its binding and OpenCL's bits for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiteralSampler {
    /// Where its sampler is bound (descriptor set 1).
    pub binding: Binding,
    /// OpenCL's sampler bits for it.
    pub mask: u32,
}

/// One `printf` format string, or a string a `printf` prints with `%s`
/// (ClspvReflection PrintfInfo): the id a call stores in the printf buffer before its
/// arguments, and each argument's size in bytes there (a multiple of 4; a string argument
/// is the 4-byte id of its own record).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintfFormat {
    /// The id a record starts with.
    pub id: u32,
    /// The format string (or the `%s` string).
    pub text: String,
    /// The bytes each argument takes in the record.
    pub arg_sizes: Vec<u32>,
}

/// The module's printf buffer (PrintfBufferStorageBuffer): a storage buffer of 32-bit words
/// at `binding`, `buffer_size` bytes, whose word 0 the host zeroes before a dispatch and
/// reads after it (the number of words written after it); the records follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintfInterface {
    /// Where the printf buffer is bound.
    pub binding: Binding,
    /// Its size in bytes.
    pub buffer_size: u32,
    /// Every format string and `%s` string the kernels print.
    pub formats: Vec<PrintfFormat>,
}

/// The buffer of the program-scope `__global` variables kernels write: the host makes it
/// once per program from `data`, the variables' initial bytes, and keeps it for the
/// program's life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramScopeInterface {
    /// How kernels reach it.
    pub place: ProgramScopePlace,
    /// Its initial bytes.
    pub data: Vec<u8>,
}

impl ProgramScopeInterface {
    /// The initial bytes as the reflection spells them (both forms): two lower-case hex
    /// digits a byte.
    pub fn data_hex(&self) -> String {
        self.data.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// How kernels reach the program-scope variables' buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgramScopePlace {
    /// Physical pointers: its 64-bit device address at this range of every kernel's push
    /// constants (ProgramScopeVariablePointerPushConstant).
    PushConstant(PushConstantRange),
    /// `descriptors`: a storage buffer bound here, the `StorageBuffer` global of a Block
    /// struct with one member per variable (ProgramScopeVariablesStorageBuffer).
    StorageBuffer(Binding),
}

/// What a shader-form module says about all of its kernels.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShaderInterface {
    /// Each kernel's entry point and arguments.
    pub kernels: Vec<KernelInterface>,
    /// `get_global_offset`'s three components, as 32-bit unsigned integers
    /// (PushConstantGlobalOffset), where some kernel reads the global offset or global ids:
    /// at this range of *every* kernel's push constants (clspv's reflection says it once for
    /// the module, and a host writes it for each dispatch).
    pub global_offset: Option<PushConstantRange>,
    /// The work-group size of the kernels without a fixed one, as a 3-vector of
    /// specialization constants (ids `workgroup_size_spec_ids`; SpecConstantWorkgroupSize);
    /// `None` where every kernel fixes its own (`reqd_work_group_size`). The writer
    /// decorates it BuiltIn WorkgroupSize, which overrides every entry point's LocalSize
    /// (its defaults are then the one size the fixing kernels agree on), or, with
    /// `workgroup_size_by_id`, names its parts in those kernels' LocalSizeId.
    pub workgroup_size: Option<Handle<Constant>>,
    /// Kernels without a fixed size say theirs with LocalSizeId (SPIR-V 1.2, Vulkan's
    /// `maintenance4`), so that the kernels that fix different sizes keep them.
    pub workgroup_size_by_id: bool,
    /// The specialization-constant ids of the work-group size's x, y and z.
    pub workgroup_size_spec_ids: [u32; 3],
    /// `get_work_dim()`'s specialization constant (SpecConstantWorkDim), if read.
    pub work_dim_spec_id: Option<u32>,
    /// Sampler constants of the module's code (LiteralSampler): each a sampler global at a
    /// binding of descriptor set 1, with OpenCL's sampler bits (CLK_ADDRESS_*,
    /// CLK_FILTER_*, CLK_NORMALIZED_COORDS_*). As for sampler arguments, the host makes it
    /// with normalized coordinates; the kernel normalizes where OpenCL's are not.
    pub literal_samplers: Vec<LiteralSampler>,
    /// The printf buffer and formats, when a kernel prints (bound in descriptor set 1
    /// after the literal samplers).
    pub printf: Option<PrintfInterface>,
    /// The program-scope variables' buffer, when kernels write such variables.
    pub program_scope: Option<ProgramScopeInterface>,
    /// The Vulkan features a device must enable for this module (`bufferDeviceAddress`,
    /// `shaderInt64`, `scalarBlockLayout`, ...), in Vulkan's feature names.
    pub required_features: Vec<String>,
    /// The subgroup operations the module's sub-group functions need the device to support
    /// in compute shaders (VkPhysicalDeviceSubgroupProperties::supportedOperations), by the
    /// flags' names without `VK_SUBGROUP_FEATURE_` and `_BIT`, lower case (`basic`, `vote`,
    /// `arithmetic`, `ballot`, `shuffle`, `shuffle_relative`, `clustered`).
    pub subgroup_operations: Vec<String>,
}
