//! What a Vulkan module computes with: the GLSL.std.450 instructions and subgroup
//! operations the Vulkan lowering may use.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::item::{read, Item};
use crate::opcodes::GroupVariants;

/// vulkan_glsl.toml and vulkan_subgroups.toml: what a Vulkan module computes with.
pub(crate) fn vulkan_tables() -> Vec<Item> {
    #[derive(Deserialize)]
    struct Glsl {
        glsl: String,
        precision: String,
    }
    #[derive(Deserialize)]
    struct Subgroup {
        vulkan: String,
        operations: String,
    }
    let glsl: BTreeMap<String, Glsl> = read("vulkan_glsl.toml");
    let features: BTreeMap<String, String> = read("vulkan_features.toml");
    let subgroups: BTreeMap<String, Subgroup> = read("vulkan_subgroups.toml");
    let groups = GroupVariants::read();
    vec![
        Item::partial(
            "The SPIR-V capability Vulkan device feature `feature` stands for\n\
             (mappings/vulkan_features.toml).",
            (
                "vulkan_feature_capability",
                "feature: &str",
                "spirv::Capability",
            ),
            features
                .iter()
                .map(|(f, cap)| (format!("{f:?}"), format!("spirv::Capability::{cap}")))
                .collect(),
        ),
        Item::partial(
            "The GLSL.std.450 instruction a Vulkan module computes an OpenCL.std one with, and\n\
             its precision against OpenCL's (mappings/vulkan_glsl.toml).",
            (
                "vulkan_glsl",
                "op: crate::ir::OpenclOp",
                "(crate::ir::GlslOp, &'static str)",
            ),
            glsl.iter()
                .map(|(name, g)| {
                    (
                        format!("crate::ir::OpenclOp::{name}"),
                        format!("(crate::ir::GlslOp::{}, {:?})", g.glsl, g.precision),
                    )
                })
                .collect(),
        ),
        Item::partial(
            "The instruction a Vulkan module computes sub-group collective `op` with, and the\n\
             subgroup operation it needs (mappings/vulkan_subgroups.toml).",
            (
                "vulkan_subgroup",
                "op: crate::ir::GroupOp",
                "(crate::ir::GroupOp, &'static str)",
            ),
            subgroups
                .iter()
                .map(|(name, g)| {
                    (
                        format!("crate::ir::GroupOp::{}", groups.variant(name)),
                        format!(
                            "(crate::ir::GroupOp::{}, {:?})",
                            groups.variant(&g.vulkan),
                            g.operations
                        ),
                    )
                })
                .collect(),
        ),
    ]
}
