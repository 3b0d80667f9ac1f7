//! The state the Vulkan lowering's families keep beside its two contexts
//! (`types::Lowerer` for the module, `body::FnBuilder` for a function): data only, with
//! no lowering of its own. The contexts hold it and each family's `impl FnBuilder`
//! (`addressed`, `buffers`, `images`, `printf`, `program_scope`)
//! reads and changes it; it is defined here, below both, so that the contexts do not depend
//! on the families that extend them.

use crate::hash::HashMap;
use crate::ir::interface::PrintfFormat;
use crate::ir::{self, AddressSpace, Handle, Inst, Type, Value};

/// The arena of a kernel whose private memory is addressed.
pub(super) struct Arena {
    /// The Function variable: an array of one word until `finish_arena` sizes it.
    pub var: Handle<Inst>,
    /// Bytes given to objects so far.
    pub bytes: u64,
}

/// What the `addressed` family keeps while it lowers a function (its `impl FnBuilder`s in
/// `addressed/` alone read and change it; others ask it through their methods: `view_of`,
/// `local_offset`).
#[derive(Default)]
pub(super) struct Addressed {
    /// The kernel's private memory, where it is addressed.
    pub arena: Option<Arena>,
    /// Addressed pointers handed to a builtin's lowering, with the (shader-form) type each
    /// points to: the builtin loads, stores and steps through them as through pointers.
    pub views: HashMap<Value, (Handle<Type>, AddressSpace)>,
    /// Program-scope private data in a kernel whose private memory is addressed: the offset
    /// of the kernel's copy in the arena (`private_copy`).
    pub private_copies: HashMap<Handle<ir::Global>, Value>,
    /// Under addressed local memory, a pointer to the kernel's one region of local memory
    /// (an array of words), and the offsets of the program-scope `__local` variables in it.
    pub local_base: Option<Value>,
    pub local_offsets: HashMap<Handle<ir::Global>, u64>,
}

/// What the `buffers` family keeps while it lowers a function under descriptors (its
/// `impl FnBuilder`s in `buffers/` alone read and change it; others ask `buffer_view`).
#[derive(Default)]
pub(super) struct Buffers {
    /// Storage-buffer pointers seen as another type (`buffers::views`).
    pub views: HashMap<Value, View>,
    /// Element indices kept beside the buffer pointers that live in variables
    /// (`buffers::order`).
    pub slots: SlotIndices,
}

/// One side of a copy: addressed private memory (a byte offset) or a pointer.
#[derive(Clone, Copy)]
pub(super) enum Side {
    /// A byte offset into addressed memory of that space.
    Addressed(AddressSpace, Value),
    Pointer(Value),
}

/// How a view reads the buffer's elements.
#[derive(Clone, Copy, Debug)]
pub(super) enum Shape {
    /// `len` consecutive elements make one value of the view's type.
    Lanes { len: u32 },
    /// One element, reinterpreted.
    Pun,
    /// One lane of an element that is a vector of `n` lanes (a power of two).
    Components { n: u32 },
    /// Each scalar of the view's type from the bits of the whole elements it covers.
    Assembled,
}

/// A buffer pointer seen as a pointer to `ty` (shader form).
#[derive(Clone, Copy, Debug)]
pub(super) struct View {
    /// The buffer pointer, to its own element type.
    pub base: Value,
    /// The type the view points to.
    pub ty: Handle<Type>,
    pub shape: Shape,
    /// The view's `getelementptr` step, in buffer elements.
    pub stride: u64,
    /// Components: the lane offset from `base`'s first lane (a pointer-wide integer).
    pub lane: Option<Value>,
}

/// Element indices kept beside the buffer pointers that live in variables: a phi's variable,
/// an inlined function's result, -O0's pointer variables. Each such variable gets an index
/// variable; every store of a pointer whose index is in sight stores that index too, and a
/// load of the pointer loads it. Whether every pointer stored to a variable had its index
/// in sight is known only when the body is done (a loop's back edge comes after the
/// comparison in its header), so a distance written from such indices is listed and made
/// `OpPtrDiff` after all where one did not.
#[derive(Default)]
pub(super) struct SlotIndices {
    pub slots: HashMap<Value, Slot>,
    /// A pointer loaded from a variable of `slots`: the variable, and the index loaded beside.
    pub loads: HashMap<Value, (Value, Value)>,
    pub pending: Vec<Pending>,
}

pub(super) struct Slot {
    /// The index variable.
    pub index: Value,
    /// The buffer array every pointer stored here points into.
    pub array: Option<Value>,
    /// A pointer whose index is not in sight was stored here (or one into another array).
    pub lost: bool,
    /// The variables the stored indices were loaded from.
    pub rests_on: Vec<Value>,
}

/// A result (`at`) computed from the indices of pointers `a` and `b` that rests on the index
/// variables of `slots`, and the pointer operation that says it without them.
pub(super) struct Pending {
    pub at: Handle<Inst>,
    pub op: crate::ir::Primitive,
    pub a: Value,
    pub b: Value,
    pub slots: Vec<Value>,
}

/// How a lowered sampler value says whether its coordinates are normalized and whether
/// it filters linearly.
#[derive(Clone, Copy, Debug)]
pub(super) enum SamplerSource {
    /// A sampler constant: known. `direct`: the host's sampler takes OpenCL's unnormalized
    /// coordinates as they are (`super::survey::direct_samplers`); otherwise it is made
    /// normalized and the kernel normalizes.
    Literal {
        normalized: bool,
        linear: bool,
        addressing: ir::SamplerAddressing,
        direct: bool,
    },
    /// A sampler argument: push-constant member `mask` holds OpenCL's sampler bits
    /// (`CLK_NORMALIZED_COORDS_TRUE` 1, the addressing mode in bits 1–3,
    /// `CLK_FILTER_NEAREST` 0x10, `CLK_FILTER_LINEAR` 0x20).
    Argument { mask: u32 },
}

/// The module's printf buffer and formats, as the lowering makes them.
pub(super) struct Printf {
    pub global: Handle<ir::Global>,
    pub formats: Vec<PrintfFormat>,
    pub next_id: u32,
}

/// How far the printf formats had come (`Lowerer::checkpoint`).
#[derive(Clone, Copy)]
pub(super) struct Mark {
    pub formats: usize,
    pub next_id: u32,
}

impl Printf {
    pub(super) fn mark(&self) -> Mark {
        Mark {
            formats: self.formats.len(),
            next_id: self.next_id,
        }
    }
    /// Forget the formats added since `m`.
    pub(super) fn rollback(&mut self, m: Mark) {
        self.formats.truncate(m.formats);
        self.next_id = m.next_id;
    }
}

/// Where the written program-scope `__global` variables live: one buffer the host makes
/// from `data` (their initial bytes, at their offsets) and keeps for the program's life.
/// Under physical pointers every kernel gets its device address in its push constants;
/// under `descriptors` it is the storage buffer `buffer` (set 1, bound after the literal
/// samplers and the printf buffer).
pub(super) struct Layout {
    /// Each variable (of the source module) and its byte offset in the buffer.
    pub vars: Vec<(Handle<ir::Global>, u64)>,
    pub data: Vec<u8>,
    /// Under `descriptors`, the shader-form `StorageBuffer` global (a Block struct whose
    /// member i is variable i).
    pub buffer: Option<Handle<ir::Global>>,
}

/// What every kernel of the module shares in its interface, decided before the first kernel
/// is lowered: clspv's reflection says these once for the module, so they must hold for
/// each kernel alike (a host that follows the reflection literally, as clvk does, writes
/// the global offset at one place for every dispatch).
#[derive(Clone, Copy, Debug)]
pub(super) struct Shared {
    /// Some kernel reads the global offset: it heads every kernel's push constants (after
    /// the program-scope buffer's address), at one offset.
    pub global_offset: bool,
    /// The push-constant bytes the device has (Vulkan promises 128).
    pub push_constant_limit: u64,
    /// How kernels without a fixed work-group size get theirs.
    pub workgroup: WorkgroupPlan,
}

/// The work-group size of kernels without `reqd_work_group_size`: the specialization
/// constants 0, 1, 2 (the host sets them to its local size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum WorkgroupPlan {
    /// Every kernel has a fixed size: no specialization constants, each entry point its
    /// own LocalSize.
    AllFixed,
    /// The constants are decorated BuiltIn WorkgroupSize, which overrides every entry
    /// point's LocalSize, with these defaults (the fixed size where the kernels that have
    /// one agree, else 1, 1, 1).
    Builtin { defaults: [u32; 3] },
    /// Kernels without a fixed size say it with LocalSizeId of the constants, kernels with
    /// one with LocalSize (SPIR-V 1.2+; Vulkan's `maintenance4`): for modules whose kernels
    /// fix different sizes, on Vulkan 1.3.
    ById,
}
