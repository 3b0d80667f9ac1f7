//! The SPIR-V side: binary modules for OpenCL (Kernel capability).

pub mod canon;
pub mod debug_info;
pub mod fast_math;
pub mod form;
pub mod read;
pub mod validate;
pub mod write;

/// The capabilities a module's words declare (its `OpCapability` instructions, which come
/// first), in order.
pub fn capabilities(words: &[u32]) -> Vec<spirv::Capability> {
    let mut out = Vec::new();
    let mut i = 5;
    while let Some(&first) = words.get(i) {
        let (count, op) = ((first >> 16) as usize, first & 0xffff);
        if op != spirv::Op::Capability as u32 {
            break;
        }
        out.extend(
            words
                .get(i + 1)
                .and_then(|&c| spirv::Capability::from_u32(c)),
        );
        i += count.max(1);
    }
    out
}
