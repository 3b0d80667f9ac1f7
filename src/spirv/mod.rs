//! The SPIR-V side: binary modules for OpenCL (Kernel capability).

pub mod canon;
pub mod read;
pub mod validate;
pub mod write;
