//! The SPIR-V side: binary modules for OpenCL (Kernel capability).

pub mod write;
