//! The semantic graph both readers lower into and both writers emit from.
//!
//! Readers normalize (mangled names, metadata, ids are resolved into meaning); writers choose
//! encodings. Nothing in here is a mangled name or a SPIR-V id.

pub mod arena;
pub mod builtin;
pub mod builtin_check;
mod builtin_check_cl20;
pub mod cfg;
pub mod constant;
pub mod fold;
pub mod forwarders;
pub mod function;
pub mod interface;
pub mod kernel;
pub mod module;
pub mod normal;
pub mod opencl_names;
pub mod print;
pub mod spirv_form;
pub mod type_check;
pub mod types;
pub mod typing;
pub mod verify;

pub use arena::{Arena, Handle, UniqueArena};
pub use builtin::{Builtin, ConvertKind, ImageOp, Sign, TexelKind};
pub use constant::{Constant, ConstantKind, SamplerAddressing, SamplerFilter};
pub use function::{
    ArithFlags, BinaryOp, Block, BlockId, Body, CastOp, Construct, FloatPredicate, Function, Inst,
    IntPredicate, Linkage, Op, Param, ParamAttrs, Terminator, Value,
};
pub use kernel::{ArgInfo, Kernel, TypeQualifiers, VecTypeHint};
pub use module::{Addressing, Global, Module, SourceInfo};
pub use types::{Access, AddressSpace, ImageDim, ImageType, Type};
