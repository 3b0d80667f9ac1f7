//! The SPIR side: LLVM 14 bitcode / text IR in SPIR conventions.

pub mod demangle;
pub mod friendly;
pub mod groups;
pub mod mangle;
pub mod opencl_names;
pub mod read;
pub mod write;
