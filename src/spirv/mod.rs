//! The SPIR-V side: binary modules for OpenCL (Kernel capability).

pub mod read;
pub mod write;
