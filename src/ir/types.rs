//! Types of the semantic graph. Integers are signless as in LLVM; signedness is a property of
//! the operations (and of kernel argument info), never of the type. OpenCL opaque objects are
//! first-class variants, not named structs, so no writer has to guess from a type name.

use super::arena::Handle;

/// Where memory lives. One table (mappings/address_spaces.toml) maps each space to its LLVM
/// address-space number, SPIR-V storage class, OpenCL qualifier and mangling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddressSpace {
    /// A work-item's own memory (OpenCL `__private`: locals, arguments passed by value).
    Private,
    /// Memory every work-item of every work-group sees (`__global` buffers).
    Global,
    /// Read-only global memory (`__constant` buffers and tables).
    Constant,
    /// Memory a work-group shares (`__local`).
    Local,
    /// OpenCL C 2.0's unqualified pointers: private, local or global, decided at run time.
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
    /// Shader form only: a uniform buffer (SPIR-V Uniform), read-only to the kernel: its
    /// argument buffer where the device addresses do not fit the push constants.
    Uniform,
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
                | AddressSpace::Uniform
        )
    }
}

/// OpenCL access qualifier of an image or pipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Access {
    /// `read_only`.
    ReadOnly,
    /// `write_only`.
    WriteOnly,
    /// `read_write`.
    ReadWrite,
}

/// An image's dimensionality (SPIR-V's Dim).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ImageDim {
    /// `image1d_t` (and `image1d_array_t` when arrayed).
    Dim1D,
    /// `image2d_t` (and its array and depth forms).
    Dim2D,
    /// `image3d_t`.
    Dim3D,
    /// `image1d_buffer_t`: a 1D image backed by a buffer.
    Buffer,
}

/// An OpenCL image type, in SPIR-V's terms (OpTypeImage operands) since those are the complete
/// description; the SPIR spelling (`opencl.image2d_array_depth_t`) is derived from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ImageType {
    /// 1D, 2D, 3D or a buffer.
    pub dim: ImageDim,
    /// A depth image (`image2d_depth_t`): reads give one float.
    pub depth: bool,
    /// An array of images (`image2d_array_t`).
    pub arrayed: bool,
    /// A multisampled image (`cl_khr_gl_msaa_sharing`).
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

/// A type. Equal types are one handle (the module's `types` arena is unique).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// No value (a function's result, an instruction without one).
    Void,
    /// A truth value (comparisons, conditions); one byte in memory.
    Bool,
    /// A signless integer of `width` bits (8, 16, 32, 64).
    Int {
        /// Bits.
        width: u32,
    },
    /// An IEEE float of `width` bits (16, 32, 64).
    Float {
        /// Bits.
        width: u32,
    },
    /// `len` lanes of a scalar (`float4`): 2, 3, 4, 8 or 16; a 3-vector takes a 4-vector's
    /// room in memory.
    Vector {
        /// The lane type.
        elem: Handle<Type>,
        /// The lane count.
        len: u32,
    },
    /// `len` elements in a row.
    Array {
        /// The element type.
        elem: Handle<Type>,
        /// The element count.
        len: u64,
    },
    /// Shader form only: an array whose length is a specialization constant (`len` is a
    /// `ConstantKind::Spec`, or a `SpecOp` of them), set when the pipeline is made: the
    /// Workgroup array behind `__local` pointer arguments. `default_len` is the length
    /// the defaults give.
    SpecArray {
        /// The element type.
        elem: Handle<Type>,
        /// The specialization constant giving the length.
        len: Handle<super::constant::Constant>,
        /// Its default.
        default_len: u64,
    },
    /// Shader form only: an array without a length, the last (here: only) member of a
    /// storage buffer's block; its length is the bound buffer's.
    RuntimeArray {
        /// The element type.
        elem: Handle<Type>,
    },
    /// A struct, members at their natural alignment unless `packed`.
    /// `members == None` is an opaque struct that is not an OpenCL object.
    Struct {
        /// The source's name for it (`struct.Particle`), if any.
        name: Option<String>,
        /// The member types in order; `None` for an opaque struct.
        members: Option<Vec<Handle<Type>>>,
        /// No padding between members (`__attribute__((packed))`).
        packed: bool,
    },
    /// A pointer into `space` to a `pointee`.
    Pointer {
        /// What it points to.
        pointee: Handle<Type>,
        /// Where that lives.
        space: AddressSpace,
    },
    /// A function's signature.
    Function {
        /// The result type.
        ret: Handle<Type>,
        /// The parameter types.
        params: Vec<Handle<Type>>,
        /// Takes more arguments than it names (`printf`).
        varargs: bool,
    },
    /// An OpenCL image (`image2d_t`, ...).
    Image(ImageType),
    /// An OpenCL `sampler_t`.
    Sampler,
    /// An image joined with a sampler (SPIR-V OpSampledImage), what a sampled read takes.
    SampledImage(ImageType),
    /// Shader form only: an image as a Vulkan descriptor. `storage` images (OpenCL's
    /// write_only and read_write) are read and written texel by texel; the others are
    /// sampled images. `texel` is the kind every read and write of it uses, which Vulkan
    /// fixes in the type (its sampled type).
    ShaderImage {
        /// The image's shape.
        image: ImageType,
        /// The texel kind every access uses.
        texel: super::builtin::TexelKind,
        /// A storage image (else a sampled one).
        storage: bool,
    },
    /// `event_t` (async copies).
    Event,
    /// `clk_event_t` (device-side enqueue).
    DeviceEvent,
    /// `reserve_id_t` (pipe reservations).
    ReserveId,
    /// `queue_t` (device-side enqueue).
    Queue,
    /// A `pipe` with its access qualifier.
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
