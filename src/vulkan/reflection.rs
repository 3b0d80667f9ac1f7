//! The kernel interface of a shader-form module (`ir::interface`) as JSON, for hosts and
//! people: the same record the module's `NonSemantic.ClspvReflection` instructions spell.
//!
//! ```json
//! {"kernels": [{"name": "vector_add", "push_constant_size": 40,
//!   "required_workgroup_size": null,
//!   "args": [{"ordinal": 0, "name": "a", "type": "float*", "address_space": "global",
//!             "kind": "pointer_push_constant", "offset": 16, "size": 8}, ...]}],
//!  "global_offset": {"offset": 0, "size": 12},
//!  "workgroup_size_spec_ids": [0, 1, 2], "work_dim_spec_id": null,
//!  "required_features": ["bufferDeviceAddress", "scalarBlockLayout", "shaderInt64"]}
//! ```
//!
//! What the module says once holds for every kernel: `global_offset` is where the host
//! writes the dispatch's global offset in *each* kernel's push constants (absent where no
//! kernel reads it), and `workgroup_size_spec_ids` the specialization constants it sets to
//! the local size for the kernels without `required_workgroup_size` (null where every
//! kernel has one).
//!
//! `kind` is one of `pointer_push_constant` (`offset`, `size`: the buffer's device address),
//! `pod_push_constant` (`offset`, `size`: the value's bytes) and `workgroup` (`spec_id`,
//! `elem_size`: set the specialization constant to the argument's size / `elem_size`).

use serde_json::{json, Value};

use crate::ir::interface::{ArgKind, ProgramScopePlace, ShaderInterface};
use crate::ir::{self};

/// The interface of a lowered module as JSON text (empty interface for other modules).
pub fn json(m: &ir::Module) -> String {
    let empty = ShaderInterface::default();
    let s = m.shader.as_ref().unwrap_or(&empty);
    let kernels: Vec<Value> = s
        .kernels
        .iter()
        .map(|k| {
            let args: Vec<Value> = k
                .args
                .iter()
                .map(|a| {
                    let mut v = json!({
                        "ordinal": a.ordinal,
                        "name": a.info.name,
                        "type": a.info.type_name,
                        "address_space": crate::mappings::space_qualifier(a.info.space)
                            .trim_start_matches("__"),
                        "access": a.info.access.map(|x| ir::Access::qualifier(Some(x))),
                    });
                    let o = v.as_object_mut().expect("an object");
                    match a.kind {
                        ArgKind::PointerPushConstant { offset, size, .. } => {
                            o.insert("kind".into(), json!("pointer_push_constant"));
                            o.insert("offset".into(), json!(offset));
                            o.insert("size".into(), json!(size));
                        }
                        ArgKind::PodPushConstant { offset, size } => {
                            o.insert("kind".into(), json!("pod_push_constant"));
                            o.insert("offset".into(), json!(offset));
                            o.insert("size".into(), json!(size));
                        }
                        ArgKind::Workgroup { spec_id, elem_size } => {
                            o.insert("kind".into(), json!("workgroup"));
                            o.insert("spec_id".into(), json!(spec_id));
                            o.insert("elem_size".into(), json!(elem_size));
                        }
                        ArgKind::StorageBuffer {
                            descriptor_set,
                            binding,
                            ..
                        } => {
                            o.insert("kind".into(), json!("storage_buffer"));
                            o.insert("set".into(), json!(descriptor_set));
                            o.insert("binding".into(), json!(binding));
                        }
                        ArgKind::SampledImage(i) | ArgKind::StorageImage(i) => {
                            let sampled = matches!(a.kind, ArgKind::SampledImage(_));
                            let kind = match (sampled, i.texel_buffer) {
                                (true, false) => "sampled_image",
                                (false, false) => "storage_image",
                                (true, true) => "uniform_texel_buffer",
                                (false, true) => "storage_texel_buffer",
                            };
                            o.insert("kind".into(), json!(kind));
                            o.insert("set".into(), json!(i.binding.descriptor_set));
                            o.insert("binding".into(), json!(i.binding.binding));
                            let range = |r: Option<crate::ir::interface::PushConstantRange>| {
                                r.map(|r| json!({"offset": r.offset, "size": r.size}))
                            };
                            if let Some(r) = range(i.channel_order) {
                                o.insert("channel_order".into(), r);
                            }
                            if let Some(r) = range(i.channel_data_type) {
                                o.insert("channel_data_type".into(), r);
                            }
                        }
                        ArgKind::Sampler {
                            binding: b,
                            normalized_mask: r,
                        } => {
                            o.insert("kind".into(), json!("sampler"));
                            o.insert("set".into(), json!(b.descriptor_set));
                            o.insert("binding".into(), json!(b.binding));
                            o.insert(
                                "normalized_mask".into(),
                                json!({"offset": r.offset, "size": r.size}),
                            );
                        }
                        ArgKind::PodStorageBuffer(r) => buffer_range(o, "pod_storage_buffer", r),
                        ArgKind::PodUniform(r) => buffer_range(o, "pod_uniform", r),
                        ArgKind::PointerUniform { range, .. } => {
                            buffer_range(o, "pointer_uniform", range)
                        }
                    }
                    v
                })
                .collect();
            json!({
                "name": k.name,
                "push_constant_size": k.push_constant_size,
                "required_workgroup_size": k.required_workgroup_size,
                "may_use_printf": k.may_use_printf,
                "args": args,
            })
        })
        .collect();
    let doc = json!({
        "kernels": kernels,
        "workgroup_size_spec_ids": s.workgroup_size.map(|_| s.workgroup_size_spec_ids),
        "global_offset": s.global_offset.map(|r| json!({"offset": r.offset, "size": r.size})),
        "work_dim_spec_id": s.work_dim_spec_id,
        "required_features": s.required_features,
        "subgroup_operations": s.subgroup_operations,
        "printf": s.printf.as_ref().map(|p| json!({
            "set": p.binding.descriptor_set,
            "binding": p.binding.binding,
            "buffer_size": p.buffer_size,
            "formats": p.formats.iter().map(|f| json!({
                "id": f.id,
                "format": f.text,
                "arg_sizes": f.arg_sizes,
            })).collect::<Vec<_>>(),
        })),
        "program_scope_variables": s.program_scope.as_ref().map(|p| {
            let mut v = json!({
                "size": p.data.len(),
                "data": p.data_hex(),
            });
            match p.place {
                ProgramScopePlace::PushConstant(r) => {
                    v["push_constant"] = json!({"offset": r.offset, "size": r.size});
                }
                ProgramScopePlace::StorageBuffer(b) => {
                    v["set"] = json!(b.descriptor_set);
                    v["binding"] = json!(b.binding);
                }
            }
            v
        }),
        "literal_samplers": s.literal_samplers.iter().map(|l| json!({
            "set": l.binding.descriptor_set,
            "binding": l.binding.binding,
            "mask": l.mask,
        })).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// An argument in the argument buffer: its kind, set, binding, offset and size.
fn buffer_range(
    o: &mut serde_json::Map<String, serde_json::Value>,
    kind: &str,
    r: crate::ir::interface::ArgBufferRange,
) {
    o.insert("kind".into(), json!(kind));
    o.insert("set".into(), json!(r.descriptor_set));
    o.insert("binding".into(), json!(r.binding));
    o.insert("offset".into(), json!(r.offset));
    o.insert("size".into(), json!(r.size));
}
