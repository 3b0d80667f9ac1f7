//! The SPIR-V side: binary modules for OpenCL (Kernel capability).

pub mod canon;
pub mod debug_info;
pub mod fast_math;
pub mod form;
pub mod read;
pub mod validate;
pub mod write;
