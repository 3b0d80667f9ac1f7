//! Target policies: what differs between an OpenCL module and a Vulkan compute module in
//! everything *around* the instructions, as data the writer consults. The writer spells what
//! the graph says; a graph for Vulkan has first been lowered to shader form
//! (`crate::vulkan::lower`), so no construct needs a target branch of its own here.

use spirv::{Capability, Decoration, ExecutionModel, MemoryModel};

use crate::options::TargetEnv;

/// How a `getelementptr` is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AccessChains {
    /// Always OpPtrAccessChain (Kernel: every pointer is physical).
    Pointer,
    /// OpAccessChain where the first index is the constant 0 (logical pointers allow nothing
    /// else), OpPtrAccessChain otherwise (physical storage buffers only).
    LogicalFirst,
}

/// Which module-scope variables an entry point lists from SPIR-V 1.4 on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EntryInterface {
    /// Every one (allowed for OpenCL, where listing one it does not use is harmless).
    AllGlobals,
    /// Those its function uses (Vulkan: an entry point may use one push-constant block).
    UsedGlobals,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Policy {
    pub execution_model: ExecutionModel,
    /// Declared in every module.
    pub base_capabilities: &'static [Capability],
    pub memory_model: MemoryModel,
    /// Addressing follows the graph's pointer width (OpenCL), or is Logical, or
    /// PhysicalStorageBuffer64 when the graph holds physical-storage-buffer pointers (Vulkan).
    pub physical_addressing: bool,
    /// The extended set OpenCL builtins use, imported up front.
    pub opencl_std: bool,
    pub access_chains: AccessChains,
    pub entry_interface: EntryInterface,
    /// Kernel-only execution modes (LocalSizeHint, VecTypeHint, ContractionOff, SubgroupSize)
    /// are written; a shader has no spelling for them (docs/conventions.md's lossiness table says so).
    pub kernel_modes: bool,
    /// Types in PhysicalStorageBuffer and PushConstant memory carry Offset / ArrayStride
    /// (and the push-constant block Block): Vulkan requires explicit layout there and forbids
    /// it everywhere else.
    pub explicit_layout: bool,
    /// Floating-point arithmetic is made exact per instruction (NoContraction on every one)
    /// rather than per entry point (the Kernel-only ContractionOff mode).
    pub no_contraction_decorations: bool,
    /// Entry points state that infinities, NaNs and signed zeros are kept
    /// (SignedZeroInfNanPreserve for each float width), as OpenCL requires.
    pub preserve_inf_nan: bool,
    /// The scalar types' capabilities a shader needs to *store* 8- and 16-bit values in
    /// buffers (StorageBuffer8BitAccess, ...), beside Int8/Int16/Float16.
    pub storage_capabilities: bool,
    /// Vectors of 8 and 16 lanes are spelled as arrays of their lanes (a shader's vectors
    /// have at most 4; the Vulkan lowering leaves only lane moves on them, `vulkan::lanes`).
    /// Their layout in memory stays OpenCL's: the array is the vector's size and alignment.
    pub wide_vectors_as_arrays: bool,
}

const KERNEL_CAPS: [Capability; 2] = [Capability::Addresses, Capability::Kernel];
const SHADER_CAPS: [Capability; 1] = [Capability::Shader];

impl Policy {
    pub(crate) fn of(target: TargetEnv) -> Policy {
        if target.is_vulkan() {
            Policy {
                execution_model: ExecutionModel::GLCompute,
                base_capabilities: &SHADER_CAPS,
                memory_model: MemoryModel::GLSL450,
                physical_addressing: false,
                opencl_std: false,
                access_chains: AccessChains::LogicalFirst,
                entry_interface: EntryInterface::UsedGlobals,
                kernel_modes: false,
                explicit_layout: true,
                no_contraction_decorations: true,
                preserve_inf_nan: true,
                storage_capabilities: true,
                wide_vectors_as_arrays: true,
            }
        } else {
            Policy {
                execution_model: ExecutionModel::Kernel,
                base_capabilities: &KERNEL_CAPS,
                memory_model: MemoryModel::OpenCL,
                physical_addressing: true,
                opencl_std: true,
                access_chains: AccessChains::Pointer,
                entry_interface: EntryInterface::AllGlobals,
                kernel_modes: true,
                explicit_layout: false,
                no_contraction_decorations: false,
                preserve_inf_nan: false,
                storage_capabilities: false,
                wide_vectors_as_arrays: false,
            }
        }
    }

    /// Decorations that are hints only and need the Kernel capability: a shader drops them
    /// (alignment is carried by the memory operands and explicit layout instead). Decorations
    /// that change meaning (SaturatedConversion, FPRoundingMode) are never dropped: the
    /// Vulkan lowering expands them, and one that reached a shader would fail validation.
    pub(crate) fn keeps(&self, d: Decoration) -> bool {
        self.execution_model == ExecutionModel::Kernel
            || !matches!(
                d,
                Decoration::Alignment
                    | Decoration::CPacked
                    | Decoration::Constant
                    | Decoration::FuncParamAttr
            )
    }
}
