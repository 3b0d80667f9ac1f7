//! Types of the semantic graph. Integers are signless as in LLVM; signedness is a property of
//! the operations (and of kernel argument info), never of the type. OpenCL opaque objects are
//! first-class variants, not named structs, so no writer has to guess from a type name.

use super::arena::Handle;

/// Where memory lives. One table (mappings/address_spaces.toml) maps each space to its LLVM
/// address-space number, SPIR-V storage class, OpenCL qualifier and mangling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddressSpace {
    Private,
    Global,
    Constant,
    Local,
    Generic,
    /// Builtin input variables (work-item ids); no OpenCL C spelling.
    Input,
    /// Shader form only (the Vulkan lowering, `crate::vulkan`): memory reached through a
    /// 64-bit device address (SPIR-V PhysicalStorageBuffer). OpenCL's global and constant
    /// pointers become these. No SPIR spelling.
    PhysicalStorageBuffer,
    /// Shader form only: the push-constant block a kernel's arguments arrive in.
    PushConstant,
    /// Shader form only: module-scope data private to each invocation (SPIR-V Private), where
    /// OpenCL's program-scope constant tables live in a Vulkan module.
    ModulePrivate,
    /// Shader form only (`--vulkan-pointers descriptors`): a buffer bound through a
    /// descriptor (SPIR-V StorageBuffer), reached through logical pointers. OpenCL's global
    /// and constant pointers become these under that strategy.
    StorageBuffer,
}

impl AddressSpace {
    /// True for the spaces only a shader-form graph (`crate::vulkan`) holds.
    pub fn is_shader_only(self) -> bool {
        matches!(
            self,
            AddressSpace::PhysicalStorageBuffer
                | AddressSpace::PushConstant
                | AddressSpace::ModulePrivate
                | AddressSpace::StorageBuffer
        )
    }
}

/// OpenCL access qualifier of an image or pipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Access {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ImageDim {
    Dim1D,
    Dim2D,
    Dim3D,
    Buffer,
}

/// An OpenCL image type, in SPIR-V's terms (OpTypeImage operands) since those are the complete
/// description; the SPIR spelling (`opencl.image2d_array_depth_t`) is derived from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ImageType {
    pub dim: ImageDim,
    pub depth: bool,
    pub arrayed: bool,
    pub multisampled: bool,
    /// `None` when the input gave no access qualifier (legacy SPIR helper functions).
    pub access: Option<Access>,
}

impl ImageType {
    /// Spatial dimensions: 1 for 1D and buffer images, 2, 3.
    pub fn dims(&self) -> u32 {
        match self.dim {
            ImageDim::Dim1D | ImageDim::Buffer => 1,
            ImageDim::Dim2D => 2,
            ImageDim::Dim3D => 3,
        }
    }

    /// Components of OpImageQuerySize's result: the dimensions, then the array size.
    pub fn size_components(&self) -> u32 {
        self.dims() + self.arrayed as u32
    }
}

/// The lane counts OpenCL C and SPIR-V (with Vector16) have; readers refuse others.
pub const VECTOR_LANES: [u32; 5] = [2, 3, 4, 8, 16];

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Bool,
    Int {
        width: u32,
    },
    Float {
        width: u32,
    },
    Vector {
        elem: Handle<Type>,
        len: u32,
    },
    Array {
        elem: Handle<Type>,
        len: u64,
    },
    /// Shader form only: an array whose length is a specialization constant (`len` is a
    /// `ConstantKind::Spec`), set when the pipeline is made: the Workgroup array behind a
    /// `__local` pointer argument. `default_len` is the spec constant's default.
    SpecArray {
        elem: Handle<Type>,
        len: Handle<super::constant::Constant>,
        default_len: u64,
    },
    /// Shader form only: an array without a length, the last (here: only) member of a
    /// storage buffer's block; its length is the bound buffer's.
    RuntimeArray {
        elem: Handle<Type>,
    },
    /// `members == None` is an opaque struct that is not an OpenCL object.
    Struct {
        name: Option<String>,
        members: Option<Vec<Handle<Type>>>,
        packed: bool,
    },
    Pointer {
        pointee: Handle<Type>,
        space: AddressSpace,
    },
    Function {
        ret: Handle<Type>,
        params: Vec<Handle<Type>>,
        varargs: bool,
    },
    Image(ImageType),
    Sampler,
    SampledImage(ImageType),
    /// Shader form only: an image as a Vulkan descriptor. `storage` images (OpenCL's
    /// write_only and read_write) are read and written texel by texel; the others are
    /// sampled images. `texel` is the kind every read and write of it uses, which Vulkan
    /// fixes in the type (its sampled type).
    ShaderImage {
        image: ImageType,
        texel: super::builtin::TexelKind,
        storage: bool,
    },
    Event,
    DeviceEvent,
    ReserveId,
    Queue,
    Pipe(Access),
    /// Opaque types with no meaning we model (e.g. `opencl.clk_event_t` spelled differently);
    /// kept by name so writers can still declare them.
    Opaque(String),
}

impl Type {
    /// True for OpenCL objects that SPIR encodes as pointers to opaque structs but SPIR-V
    /// encodes as their own type.
    pub fn is_opencl_object(&self) -> bool {
        matches!(
            self,
            Type::Image(_)
                | Type::Sampler
                | Type::SampledImage(_)
                | Type::Event
                | Type::DeviceEvent
                | Type::ReserveId
                | Type::Queue
                | Type::Pipe(_)
        )
    }
}
