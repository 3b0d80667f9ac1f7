//! A module's kernel interface read from its own `NonSemantic.ClspvReflection` instructions,
//! as clvk reads it: what the host binds, writes and specializes comes from the module alone
//! (any producer's: ours, clspv's), never from knowledge of how a producer lays things out.
//!
//! The record is the JSON shape the rest of the host takes (the one `--reflection` writes):
//! `kernels[]` (`name`, `push_constant_size`, `required_workgroup_size`, `may_use_printf`,
//! `args[]`), `global_offset`, `workgroup_size_spec_ids`, `work_dim_spec_id`,
//! `literal_samplers`, `printf`, `program_scope_variables`, `required_features`.
//!
//! As in clvk, what the reflection says without naming a kernel (the global offset, the
//! program-scope buffer's address) is the program's: it lies at the same place in every
//! kernel's push constants, and each kernel's push-constant range covers it.

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use crate::R;

/// The reflection's instruction numbers (NonSemantic.ClspvReflection.5).
mod op {
    pub const KERNEL: u32 = 1;
    pub const ARGUMENT_INFO: u32 = 2;
    pub const ARGUMENT_STORAGE_BUFFER: u32 = 3;
    pub const ARGUMENT_UNIFORM: u32 = 4;
    pub const ARGUMENT_POD_STORAGE_BUFFER: u32 = 5;
    pub const ARGUMENT_POD_UNIFORM: u32 = 6;
    pub const ARGUMENT_POD_PUSH_CONSTANT: u32 = 7;
    pub const ARGUMENT_SAMPLED_IMAGE: u32 = 8;
    pub const ARGUMENT_STORAGE_IMAGE: u32 = 9;
    pub const ARGUMENT_SAMPLER: u32 = 10;
    pub const ARGUMENT_WORKGROUP: u32 = 11;
    pub const SPEC_CONSTANT_WORKGROUP_SIZE: u32 = 12;
    pub const SPEC_CONSTANT_WORK_DIM: u32 = 14;
    pub const PUSH_CONSTANT_GLOBAL_OFFSET: u32 = 15;
    pub const LITERAL_SAMPLER: u32 = 23;
    pub const PROPERTY_REQUIRED_WORKGROUP_SIZE: u32 = 24;
    pub const ARGUMENT_POINTER_PUSH_CONSTANT: u32 = 26;
    pub const ARGUMENT_POINTER_UNIFORM: u32 = 27;
    pub const PROGRAM_SCOPE_VARIABLES_STORAGE_BUFFER: u32 = 28;
    pub const IMAGE_CHANNEL_ORDER_PUSH_CONSTANT: u32 = 30;
    pub const IMAGE_CHANNEL_DATA_TYPE_PUSH_CONSTANT: u32 = 31;
    pub const ARGUMENT_STORAGE_TEXEL_BUFFER: u32 = 34;
    pub const ARGUMENT_UNIFORM_TEXEL_BUFFER: u32 = 35;
    pub const PROGRAM_SCOPE_VARIABLE_POINTER_PUSH_CONSTANT: u32 = 37;
    pub const PRINTF_INFO: u32 = 38;
    pub const PRINTF_BUFFER_STORAGE_BUFFER: u32 = 39;
    pub const NORMALIZED_SAMPLER_MASK_PUSH_CONSTANT: u32 = 41;
    pub const WORKGROUP_VARIABLE_SIZE: u32 = 42;
}

/// SPIR-V opcodes read here.
const OP_CAPABILITY: u32 = 17;
const OP_STRING: u32 = 7;
const OP_EXT_INST_IMPORT: u32 = 11;
const OP_EXT_INST: u32 = 12;
const OP_CONSTANT: u32 = 43;
const OP_EXECUTION_MODE_ID: u32 = 331;
/// The execution mode LocalSizeId (needs Vulkan's `maintenance4`).
const LOCAL_SIZE_ID: u32 = 38;

/// A SPIR-V string operand (nul-terminated, little-endian words).
fn string(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// Each instruction of a module: opcode and operand words (after the word count).
fn instructions(words: &[u32]) -> R<Vec<(u32, &[u32])>> {
    let mut out = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        if n == 0 || i + n > words.len() {
            return Err("a malformed module".into());
        }
        out.push((words[i] & 0xffff, &words[i + 1..i + n]));
        i += n;
    }
    Ok(out)
}

/// The Vulkan features a capability needs (Vulkan's names), where the host must enable one.
fn capability_feature(cap: u32) -> &'static [&'static str] {
    match cap {
        9 => &["shaderFloat16"],
        10 => &["shaderFloat64"],
        11 => &["shaderInt64"],
        22 => &["shaderInt16"],
        39 => &["shaderInt8"],
        56 => &["shaderStorageImageWriteWithoutFormat"],
        55 => &["shaderStorageImageReadWithoutFormat"],
        4441 => &["variablePointersStorageBuffer"],
        4442 => &["variablePointers"],
        4433 => &["storageBuffer16BitAccess"],
        4435 => &["storagePushConstant16"],
        4448 => &["storageBuffer8BitAccess"],
        4450 => &["storagePushConstant8"],
        5347 => &["bufferDeviceAddress"],
        _ => &[],
    }
}

/// The interface the module's reflection instructions describe, as the host's JSON record.
pub fn read(words: &[u32]) -> R<Value> {
    let insts = instructions(words)?;
    let set = insts
        .iter()
        .find(|(op, ops)| {
            *op == OP_EXT_INST_IMPORT
                && string(&ops[1..]).starts_with("NonSemantic.ClspvReflection")
        })
        .map(|(_, ops)| ops[0])
        .ok_or("the module has no NonSemantic.ClspvReflection instructions")?;
    let mut strings = HashMap::new();
    let mut consts = HashMap::new();
    let mut features: Vec<&str> = Vec::new();
    for (op, ops) in &insts {
        match *op {
            OP_STRING => {
                strings.insert(ops[0], string(&ops[1..]));
            }
            OP_CONSTANT if ops.len() >= 3 => {
                consts.insert(ops[1], ops[2] as u64);
            }
            OP_CAPABILITY => features.extend(capability_feature(ops[0])),
            OP_EXECUTION_MODE_ID if ops.get(1) == Some(&LOCAL_SIZE_ID) => {
                features.push("maintenance4")
            }
            _ => {}
        }
    }
    features.sort_unstable();
    features.dedup();
    let names = Names { strings, consts };
    let mut r = Reader {
        kernels: Vec::new(),
        kernel_of: HashMap::new(),
        module: Map::new(),
        literal_samplers: Vec::new(),
        formats: Vec::new(),
        module_ranges: Vec::new(),
    };
    for (opcode, ops) in &insts {
        if *opcode == OP_EXT_INST && ops.len() >= 4 && ops[2] == set {
            r.instruction(&names, ops[1], ops[3], &ops[4..])?;
        }
    }
    r.finish(features)
}

/// The module's strings and 32-bit constants, by id.
struct Names {
    strings: HashMap<u32, String>,
    consts: HashMap<u32, u64>,
}

/// The record being read, instruction by instruction.
struct Reader {
    kernels: Vec<Map<String, Value>>,
    /// A Kernel instruction's result id -> its index in `kernels`.
    kernel_of: HashMap<u32, usize>,
    /// The record's module-wide entries.
    module: Map<String, Value>,
    literal_samplers: Vec<Value>,
    formats: Vec<Value>,
    /// Push-constant ranges of the program (offset, size): in every kernel's range.
    module_ranges: Vec<(u64, u64)>,
}

impl Reader {
    fn instruction(&mut self, names: &Names, result: u32, opcode: u32, ids: &[u32]) -> R<()> {
        let c = |k: usize| -> R<u64> {
            ids.get(k)
                .and_then(|x| names.consts.get(x))
                .copied()
                .ok_or_else(|| {
                    format!("reflection instruction {opcode}: operand {k} is not a constant")
                })
        };
        let s = |k: usize| -> R<String> {
            ids.get(k)
                .and_then(|x| names.strings.get(x))
                .cloned()
                .ok_or_else(|| {
                    format!("reflection instruction {opcode}: operand {k} is not a string")
                })
        };
        let kernel_of = &self.kernel_of;
        let named = ids.first().and_then(|k| kernel_of.get(k)).copied();
        let kernel = || -> R<usize> {
            named.ok_or_else(|| format!("reflection instruction {opcode} names no kernel"))
        };
        let range = |k: usize| -> R<Value> { Ok(json!({"offset": c(k)?, "size": c(k + 1)?})) };
        let binding = |kind: &str| -> R<Value> {
            Ok(json!({"ordinal": c(1)?, "kind": kind, "set": c(2)?, "binding": c(3)?}))
        };
        match opcode {
            op::KERNEL => {
                let mut k = Map::new();
                k.insert("name".into(), json!(s(1)?));
                k.insert("args".into(), json!([]));
                k.insert("required_workgroup_size".into(), Value::Null);
                // Kernel property flags: MayUsePrintf (0x1).
                k.insert("may_use_printf".into(), json!(c(3).unwrap_or(0) & 1 == 1));
                k.insert("ranges".into(), json!([]));
                self.kernel_of.insert(result, self.kernels.len());
                self.kernels.push(k);
            }
            op::ARGUMENT_INFO | op::WORKGROUP_VARIABLE_SIZE => {}
            op::ARGUMENT_STORAGE_BUFFER => {
                let k = kernel()?;
                self.arg(k, binding("storage_buffer")?);
            }
            op::ARGUMENT_UNIFORM => {
                let k = kernel()?;
                self.arg(k, binding("uniform_buffer")?);
            }
            op::ARGUMENT_SAMPLED_IMAGE => {
                let k = kernel()?;
                self.arg(k, binding("sampled_image")?);
            }
            op::ARGUMENT_STORAGE_IMAGE => {
                let k = kernel()?;
                self.arg(k, binding("storage_image")?);
            }
            op::ARGUMENT_UNIFORM_TEXEL_BUFFER => {
                let k = kernel()?;
                self.arg(k, binding("uniform_texel_buffer")?);
            }
            op::ARGUMENT_STORAGE_TEXEL_BUFFER => {
                let k = kernel()?;
                self.arg(k, binding("storage_texel_buffer")?);
            }
            op::ARGUMENT_SAMPLER => {
                let k = kernel()?;
                self.arg(k, binding("sampler")?);
            }
            op::ARGUMENT_POD_STORAGE_BUFFER | op::ARGUMENT_POD_UNIFORM => {
                let k = kernel()?;
                let kind = if opcode == op::ARGUMENT_POD_UNIFORM {
                    "pod_uniform"
                } else {
                    "pod_storage_buffer"
                };
                let mut a = binding(kind)?;
                a["offset"] = json!(c(4)?);
                a["size"] = json!(c(5)?);
                self.arg(k, a);
            }
            op::ARGUMENT_POINTER_UNIFORM => {
                let k = kernel()?;
                let mut a = binding("pointer_uniform")?;
                a["offset"] = json!(c(4)?);
                a["size"] = json!(c(5)?);
                self.arg(k, a);
            }
            op::ARGUMENT_POD_PUSH_CONSTANT | op::ARGUMENT_POINTER_PUSH_CONSTANT => {
                let k = kernel()?;
                let kind = if opcode == op::ARGUMENT_POD_PUSH_CONSTANT {
                    "pod_push_constant"
                } else {
                    "pointer_push_constant"
                };
                self.kernel_range(k, c(2)?, c(3)?);
                self.arg(
                    k,
                    json!({"ordinal": c(1)?, "kind": kind, "offset": c(2)?, "size": c(3)?}),
                );
            }
            op::ARGUMENT_WORKGROUP => {
                let k = kernel()?;
                self.arg(
                    k,
                    json!({"ordinal": c(1)?, "kind": "workgroup", "spec_id": c(2)?,
                           "elem_size": c(3)?}),
                );
            }
            op::IMAGE_CHANNEL_ORDER_PUSH_CONSTANT
            | op::IMAGE_CHANNEL_DATA_TYPE_PUSH_CONSTANT
            | op::NORMALIZED_SAMPLER_MASK_PUSH_CONSTANT => {
                let k = kernel()?;
                let key = match opcode {
                    op::IMAGE_CHANNEL_ORDER_PUSH_CONSTANT => "channel_order",
                    op::IMAGE_CHANNEL_DATA_TYPE_PUSH_CONSTANT => "channel_data_type",
                    _ => "normalized_mask",
                };
                let ordinal = c(1)?;
                self.kernel_range(k, c(2)?, c(3)?);
                let r = range(2)?;
                let arg = self.kernels[k]["args"]
                    .as_array_mut()
                    .and_then(|a| a.iter_mut().find(|a| a["ordinal"] == json!(ordinal)))
                    .ok_or_else(|| format!("push-constant words of argument {ordinal}, which the reflection has not described"))?;
                arg[key] = r;
            }
            op::PROPERTY_REQUIRED_WORKGROUP_SIZE => {
                let k = kernel()?;
                self.kernels[k].insert(
                    "required_workgroup_size".into(),
                    json!([c(1)?, c(2)?, c(3)?]),
                );
            }
            op::SPEC_CONSTANT_WORKGROUP_SIZE => {
                self.module.insert(
                    "workgroup_size_spec_ids".into(),
                    json!([c(0)?, c(1)?, c(2)?]),
                );
            }
            op::SPEC_CONSTANT_WORK_DIM => {
                self.module.insert("work_dim_spec_id".into(), json!(c(0)?));
            }
            op::PUSH_CONSTANT_GLOBAL_OFFSET => {
                self.module_ranges.push((c(0)?, c(1)?));
                self.module.insert("global_offset".into(), range(0)?);
            }
            op::LITERAL_SAMPLER => {
                self.literal_samplers
                    .push(json!({"set": c(0)?, "binding": c(1)?, "mask": c(2)?}));
            }
            op::PROGRAM_SCOPE_VARIABLE_POINTER_PUSH_CONSTANT => {
                self.module_ranges.push((c(0)?, c(1)?));
                let data = s(2)?;
                self.module.insert(
                    "program_scope_variables".into(),
                    json!({"size": data.len() / 2, "data": data, "push_constant": range(0)?}),
                );
            }
            op::PROGRAM_SCOPE_VARIABLES_STORAGE_BUFFER => {
                let data = s(2)?;
                self.module.insert(
                    "program_scope_variables".into(),
                    json!({"size": data.len() / 2, "data": data, "set": c(0)?,
                           "binding": c(1)?}),
                );
            }
            op::PRINTF_INFO => {
                let sizes = (2..ids.len()).map(c).collect::<R<Vec<u64>>>()?;
                self.formats
                    .push(json!({"id": c(0)?, "format": s(1)?, "arg_sizes": sizes}));
            }
            op::PRINTF_BUFFER_STORAGE_BUFFER => {
                self.module.insert(
                    "printf".into(),
                    json!({"set": c(0)?, "binding": c(1)?, "buffer_size": c(2)?}),
                );
            }
            other => {
                return Err(format!(
                    "the module needs reflection instruction {other}, which this host does \
                     not provide"
                ))
            }
        }
        Ok(())
    }

    fn arg(&mut self, k: usize, v: Value) {
        if let Some(a) = self.kernels[k]
            .get_mut("args")
            .and_then(Value::as_array_mut)
        {
            a.push(v);
        }
    }

    /// A push-constant range of kernel `k`'s own.
    fn kernel_range(&mut self, k: usize, offset: u64, size: u64) {
        if let Some(r) = self.kernels[k]
            .get_mut("ranges")
            .and_then(Value::as_array_mut)
        {
            r.push(json!([offset, size]));
        }
    }

    fn finish(mut self, features: Vec<&str>) -> R<Value> {
        // Each kernel's push constants: its own ranges and the program's (clvk's
        // `prepare_push_constant_range` and `init_descriptor_sets`).
        let module_end = self
            .module_ranges
            .iter()
            .map(|(o, s)| o + s)
            .max()
            .unwrap_or(0);
        for k in &mut self.kernels {
            let own = k
                .remove("ranges")
                .and_then(|r| r.as_array().cloned())
                .unwrap_or_default();
            let end = own
                .iter()
                .map(|r| r[0].as_u64().unwrap_or(0) + r[1].as_u64().unwrap_or(0))
                .max()
                .unwrap_or(0)
                .max(module_end);
            k.insert("push_constant_size".into(), json!(end));
        }
        if let Some(p) = self.module.get_mut("printf") {
            p["formats"] = json!(self.formats);
        }
        let mut doc = json!({
            "kernels": self.kernels,
            "literal_samplers": self.literal_samplers,
            "required_features": features,
        });
        for key in [
            "global_offset",
            "workgroup_size_spec_ids",
            "work_dim_spec_id",
            "printf",
            "program_scope_variables",
        ] {
            doc[key] = self.module.remove(key).unwrap_or(Value::Null);
        }
        Ok(doc)
    }
}
