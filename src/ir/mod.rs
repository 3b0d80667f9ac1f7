//! The semantic graph both readers lower into and both writers emit from.
//!
//! Every translation is *reader → graph → writer*: the SPIR reader (`crate::spir::read`)
//! and the SPIR-V reader (`crate::spv::read`) resolve their format's spellings — mangled
//! names, `!opencl.*` metadata, result ids, decorations — into meaning here, and the writers
//! choose encodings again. Nothing in this module is a mangled name or a SPIR-V id; the
//! spellings live with the format that owns them (and in `mappings/`). What the graph
//! computes is its own closed sets, each matched exhaustively by every writer: [`Primitive`],
//! [`AtomicOp`], [`GroupOp`], the extended instructions [`OpenclOp`] and [`GlslOp`]
//! (`extended.rs`), conversions by [`ConvertKind`]; their SPIR-V instructions are the SPIR-V
//! room's. Where SPIR-V's enumerants already name a meaning OpenCL shares (a built-in
//! variable, a scope, a rounding mode, a group operation), the graph uses the `spirv` crate's
//! types, which the library re-exports as [`crate::spirv_headers`] and versions as part of its
//! API.
//!
//! # Handles and arenas
//!
//! A [`Module`] owns every node in an arena ([`Arena`], or [`UniqueArena`] where equal
//! nodes are hash-consed so that one [`Handle`] stands for each distinct type or constant).
//! Nodes refer to each other by `Copy` handles, never by references: no lifetimes, no
//! cycles to manage, and a handle is valid exactly for the arena it came from.
//!
//! * `module.types`: [`Type`]s, unique. Integers are signless (signedness belongs to
//!   operations); OpenCL's opaque objects (images, samplers, events, pipes, queues) are
//!   variants of their own, not named structs.
//! * `module.constants`: [`Constant`]s, unique: scalars by bit pattern, composites of other
//!   constants, addresses of globals and functions, constant casts and `getelementptr`s,
//!   sampler literals, specialization constants.
//! * `module.globals`: [`Global`] variables: a name, the type *stored* (the global's address
//!   has type pointer-to-it), an [`AddressSpace`], an optional initializer.
//! * `module.functions`: [`Function`]s, each with typed parameters and, unless it is only
//!   declared, a [`Body`]; `module.kernels` lists the entry points with what OpenCL says of
//!   them ([`Kernel`]: argument names, types as written, qualifiers, work-group sizes).
//!
//! # Values, instructions and blocks
//!
//! A body is in SSA form. `body.insts` is the function's arena of [`Inst`]s (a result type
//! and an [`Op`]); `body.blocks` is the list of [`Block`]s in layout order, the first being
//! the entry, each an ordered list of instruction handles ended by one [`Terminator`]
//! (branch, conditional branch, switch, return, unreachable). A [`BlockId`] is an index
//! into `body.blocks`. An operand is a [`Value`]: a parameter of the enclosing function, an
//! instruction's result, or a constant of the module. Operations are LLVM-level
//! (arithmetic with [`ArithFlags`], compares, casts, loads and stores, `getelementptr`,
//! phis, calls, vector and aggregate element access, `memcpy`/`memset`) plus
//! [`Builtin`]s: what an OpenCL C builtin call *means* (`get_global_id`, an atomic, an
//! OpenCL.std math function, an image read), whichever way either side spells it; among
//! them the closed set of [`Primitive`]s, operations kept as themselves (`dot`, `isnan`,
//! the pipes, device-side enqueue).
//!
//! # Address spaces and the two forms
//!
//! A graph is in one of two forms. The **OpenCL form** is what both readers make and both
//! OpenCL writers take: kernels with parameters, pointers in OpenCL's spaces
//! ([`AddressSpace::Private`], `Global`, `Constant`, `Local`, `Generic`, and `Input` for
//! builtin variables), arbitrary control flow. The **shader form** is what the Vulkan
//! lowering (`crate::vulkan`) makes of it for the Vulkan writer: entry points without
//! parameters whose arguments arrive through descriptors and push constants, as
//! `Module::shader` ([`interface::ShaderInterface`]) records; pointers in the shader-only
//! spaces ([`AddressSpace::is_shader_only`]: `PhysicalStorageBuffer`, `PushConstant`,
//! `ModulePrivate`, `StorageBuffer`, `Uniform`) besides `Private`, `Local` and `Input`;
//! every block that heads a construct marked with its [`Construct`] (structured control flow).
//! `Module::shader` being `Some` is what makes a module shader-form; the verifier
//! ([`crate::verify::verify`]) holds each form to its own rules.
//!
//! # An example
//!
//! The kernel `kernel void bump(global int *p) { *p = *p + 1; }`, built by hand and
//! verified:
//!
//! ```
//! use spir_xlate::ir::*;
//!
//! let mut m = Module::new(Addressing::Physical64);
//! let int = m.int_type(32);
//! let void = m.void_type();
//! let ptr = m.pointer_type(int, AddressSpace::Global);
//! let one = m.int_const(int, 1);
//!
//! let mut body = Body::default();
//! let old = body.insts.append(Inst {
//!     loc: None,
//!     name: Some("old".into()),
//!     ty: int,
//!     op: Op::Load { ptr: Value::Param(0), align: Some(4), volatile: false },
//! });
//! let new = body.insts.append(Inst {
//!     loc: None,
//!     name: Some("new".into()),
//!     ty: int,
//!     op: Op::Binary {
//!         op: BinaryOp::Add,
//!         lhs: Value::Inst(old),
//!         rhs: Value::Const(one),
//!         flags: ArithFlags::default(),
//!     },
//! });
//! let store = body.insts.append(Inst {
//!     loc: None,
//!     name: None,
//!     ty: void,
//!     op: Op::Store { ptr: Value::Param(0), value: Value::Inst(new), align: Some(4), volatile: false },
//! });
//! body.blocks.push(Block {
//!     name: Some("entry".into()),
//!     insts: vec![old, new, store],
//!     terminator: Terminator::Return(None),
//!     terminator_loc: None,
//!     construct: None,
//! });
//! let param = Param { name: Some("p".into()), ty: ptr, attrs: ParamAttrs::default() };
//! let arg = ArgInfo::from_param(&m, ptr, Some("p".into()));
//! let f = m.functions.append(Function {
//!     name: "bump".into(),
//!     ret: void,
//!     params: vec![param],
//!     is_kernel: true,
//!     linkage: Linkage::Export,
//!     body: Some(body),
//! });
//! m.kernels.push(Kernel {
//!     function: f,
//!     args: vec![arg],
//!     reqd_work_group_size: None,
//!     work_group_size_hint: None,
//!     vec_type_hint: None,
//!     reqd_sub_group_size: None,
//!     other_modes: Vec::new(),
//! });
//! assert!(spir_xlate::verify::verify(&m).is_empty());
//! ```
//!
//! # Where things are
//!
//! Each file defines one part of the graph: [`arena`] the handles, [`types`], [`constant`],
//! [`function`] (values, instructions, blocks, terminators), [`builtin`] (what a builtin
//! call means), [`atomic`] (what an atomic does), [`primitive`] (the operations kept as themselves), [`sign`] (the signedness
//! an operation gives an integer), [`kernel`] (what OpenCL says of an entry point), [`interface`] (a Vulkan
//! entry point's interface), [`debug`] (source positions, scopes, variables and the source's
//! types, for debuggers: beside the program, never part of what it computes), [`module`]
//! (the whole). Queries over it: [`typing`] (the type
//! of a value), [`operands`] (the operands of an instruction), [`cfg`](mod@cfg) (successors,
//! dominators, orders). [`print::print_module`] shows a graph as text (what `spir-xlate
//! dump-ir` prints).
//!
//! Not here, by design: the verifier ([`crate::verify`]); the normal forms the two readers
//! share (one graph form for what LLVM and SPIR-V spell two ways, `normal`); and every
//! spelling: OpenCL C names, mangling and SPIR-V operand layouts live with the format that
//! owns them (`spir`, `spirv`), and the tables between them in `mappings/`.

pub mod arena;
pub mod atomic;
pub mod builtin;
pub mod cfg;
pub mod constant;
pub mod debug;
pub mod extended;
pub mod function;
pub mod group;
pub mod interface;
pub mod kernel;
pub mod module;
pub mod operands;
pub mod primitive;
pub mod print;
pub mod sign;
pub mod types;
pub mod typing;

pub use arena::{Arena, Handle, UniqueArena};
pub use atomic::AtomicOp;
pub use builtin::{Builtin, ConvertKind, ImageOp, IntegerDot, Sign, TexelKind};
pub use constant::{Constant, ConstantKind, SamplerAddressing, SamplerFilter};
pub use debug::{DebugInfo, Location};
pub use extended::{GlslOp, OpenclOp};
pub use function::{
    ArithFlags, BinaryOp, Block, BlockId, Body, CastOp, Construct, FastMath, FloatPredicate,
    Function, Inst, IntPredicate, Linkage, Op, Param, ParamAttrs, Terminator, Value,
};
pub use group::GroupOp;
pub use kernel::{ArgInfo, Kernel, TypeQualifiers, VecTypeHint};
pub use module::{Addressing, Global, Module, SourceInfo};
pub use primitive::Primitive;
pub use types::{Access, AddressSpace, ImageDim, ImageType, Type};
