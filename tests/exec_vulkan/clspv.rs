//! clspv, the peer Vulkan producer (PyPI `pyclspv`, clspv built into the wheel): a kernel's
//! OpenCL C source compiled with clspv's default options, and the module's
//! `NonSemantic.ClspvReflection` read into the JSON form vkhost takes (the same one our
//! `--reflection` writes, plus clspv's descriptor-based argument kinds).

use std::path::Path;
use std::process::Command;

use serde_json::{json, Map, Value};

/// The Python that has `pyclspv` (.ci/run installs it into .oracles/venv).
fn python() -> String {
    std::env::var("PYCLSPV_PYTHON").unwrap_or_else(|_| ".oracles/venv/bin/python".into())
}

/// clspv's module for an OpenCL C source file, or why clspv refused it.
pub fn compile(source: &Path, out: &Path) -> Result<(), String> {
    let script = "import sys, pyclspv\n\
                  src = open(sys.argv[1]).read()\n\
                  open(sys.argv[2], 'wb').write(pyclspv.compile(src, False))\n";
    // clspv loops forever on some inputs (constant_tables): a minute is plenty.
    let run = Command::new("timeout")
        .arg("60")
        .arg(python())
        .args(["-c", script])
        .arg(source)
        .arg(out)
        .output()
        .map_err(|e| format!("{}: {e} (install pyclspv, see .ci/run)", python()))?;
    if run.status.success() && out.exists() {
        Ok(())
    } else if run.status.code() == Some(124) {
        Err("clspv did not finish within a minute".into())
    } else {
        let err = String::from_utf8_lossy(&run.stderr);
        let line = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("clspv failed")
            .to_string();
        Err(line)
    }
}

/// A SPIR-V string operand (nul-terminated, little-endian words).
fn string(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// One instruction of a module: opcode and operand words (after the word count).
fn instructions(words: &[u32]) -> Result<Vec<(u32, &[u32])>, String> {
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

/// The reflection of a clspv module as vkhost's JSON. (rspirv's loader refuses the
/// reflection instructions clspv puts after the functions, so the words are read here.)
pub fn reflection(words: &[u32]) -> Result<Value, String> {
    const STRING: u32 = 7;
    const EXT_INST_IMPORT: u32 = 11;
    const EXT_INST: u32 = 12;
    const CONSTANT: u32 = 43;
    let insts = instructions(words)?;
    let set = insts
        .iter()
        .find(|(op, ops)| {
            *op == EXT_INST_IMPORT && string(&ops[1..]).starts_with("NonSemantic.ClspvReflection")
        })
        .map(|(_, ops)| ops[0])
        .ok_or("no ClspvReflection import")?;
    let mut strings = std::collections::HashMap::new();
    let mut consts = std::collections::HashMap::new();
    for (op, ops) in &insts {
        match *op {
            STRING => {
                strings.insert(ops[0], string(&ops[1..]));
            }
            CONSTANT if ops.len() >= 3 => {
                consts.insert(ops[1], ops[2] as u64);
            }
            _ => {}
        }
    }
    let mut kernels: Vec<Map<String, Value>> = Vec::new();
    let mut kernel_of = std::collections::HashMap::new();
    let mut wg_ids = json!([0, 1, 2]);
    let mut work_dim = Value::Null;
    let mut global_offset = Value::Null;
    let mut literal_samplers = Vec::new();
    for (opcode, ops) in &insts {
        if *opcode != EXT_INST || ops.len() < 4 || ops[2] != set {
            continue;
        }
        let result_id = ops[1];
        let op = &ops[3];
        let ids: Vec<u32> = ops[4..].to_vec();
        let c = |k: usize| -> Result<u64, String> {
            ids.get(k)
                .and_then(|x| consts.get(x))
                .copied()
                .ok_or_else(|| {
                    format!("reflection instruction {op}: operand {k} is not a constant")
                })
        };
        let op = spirv::NonsemanticClspvreflectionOp::from_u32(*op)
            .ok_or_else(|| format!("unknown reflection instruction {op}"))?;
        use spirv::NonsemanticClspvreflectionOp as R;
        let kernel = |kernel_of: &std::collections::HashMap<u32, usize>| -> Result<usize, String> {
            ids.first()
                .and_then(|k| kernel_of.get(k))
                .copied()
                .ok_or_else(|| format!("{op:?} names no kernel"))
        };
        let arg = |kernels: &mut Vec<Map<String, Value>>, k: usize, v: Value| {
            if let Some(a) = kernels[k].get_mut("args").and_then(Value::as_array_mut) {
                a.push(v);
            }
        };
        match op {
            R::Kernel => {
                let name = ids
                    .get(1)
                    .and_then(|x| strings.get(x))
                    .cloned()
                    .ok_or("a kernel without name")?;
                let mut k = Map::new();
                k.insert("name".into(), json!(name));
                k.insert("args".into(), json!([]));
                k.insert("push_constant_size".into(), json!(0));
                k.insert("required_workgroup_size".into(), Value::Null);
                kernel_of.insert(result_id, kernels.len());
                kernels.push(k);
            }
            R::ArgumentInfo | R::WorkgroupVariableSize => {}
            R::ArgumentStorageBuffer => {
                let k = kernel(&kernel_of)?;
                arg(
                    &mut kernels,
                    k,
                    json!({"ordinal": c(1)?, "kind": "storage_buffer", "set": c(2)?, "binding": c(3)?}),
                );
            }
            R::ArgumentPodUniform | R::ArgumentPodStorageBuffer => {
                let k = kernel(&kernel_of)?;
                let kind = if op == R::ArgumentPodUniform {
                    "pod_uniform"
                } else {
                    "pod_storage_buffer"
                };
                arg(
                    &mut kernels,
                    k,
                    json!({"ordinal": c(1)?, "kind": kind, "set": c(2)?, "binding": c(3)?,
                           "offset": c(4)?, "size": c(5)?}),
                );
            }
            R::ArgumentPodPushConstant | R::ArgumentPointerPushConstant => {
                let k = kernel(&kernel_of)?;
                let kind = if op == R::ArgumentPodPushConstant {
                    "pod_push_constant"
                } else {
                    "pointer_push_constant"
                };
                let end = c(2)? + c(3)?;
                let pc = kernels[k]["push_constant_size"].as_u64().unwrap_or(0);
                kernels[k].insert("push_constant_size".into(), json!(pc.max(end)));
                arg(
                    &mut kernels,
                    k,
                    json!({"ordinal": c(1)?, "kind": kind, "offset": c(2)?, "size": c(3)?}),
                );
            }
            R::ArgumentWorkgroup => {
                let k = kernel(&kernel_of)?;
                arg(
                    &mut kernels,
                    k,
                    json!({"ordinal": c(1)?, "kind": "workgroup", "spec_id": c(2)?, "elem_size": c(3)?}),
                );
            }
            R::SpecConstantWorkgroupSize => wg_ids = json!([c(0)?, c(1)?, c(2)?]),
            R::SpecConstantWorkDim => work_dim = json!(c(0)?),
            R::PushConstantGlobalOffset => {
                global_offset = json!({"offset": c(0)?, "size": c(1)?});
            }
            R::PropertyRequiredWorkgroupSize => {
                let k = kernel(&kernel_of)?;
                kernels[k].insert(
                    "required_workgroup_size".into(),
                    json!([c(1)?, c(2)?, c(3)?]),
                );
            }
            R::LiteralSampler => {
                literal_samplers.push(json!({"set": c(0)?, "binding": c(1)?, "mask": c(2)?}));
            }
            R::ArgumentSampledImage | R::ArgumentStorageImage => {
                let k = kernel(&kernel_of)?;
                let kind = if op == R::ArgumentSampledImage {
                    "sampled_image"
                } else {
                    "storage_image"
                };
                arg(
                    &mut kernels,
                    k,
                    json!({"ordinal": c(1)?, "kind": kind, "set": c(2)?, "binding": c(3)?}),
                );
            }
            other => {
                return Err(format!(
                    "the module needs {other:?}, which vkhost does not provide"
                ))
            }
        }
    }
    if let Some(o) = global_offset.get("offset").and_then(Value::as_u64) {
        let end = o + global_offset["size"].as_u64().unwrap_or(12);
        for k in &mut kernels {
            let pc = k["push_constant_size"].as_u64().unwrap_or(0);
            k.insert("push_constant_size".into(), json!(pc.max(end)));
        }
    }
    // clspv's samplers are made as OpenCL's bits say, unnormalized coordinates included
    // (ours normalize coordinates themselves and take normalized samplers).
    Ok(json!({
        "kernels": kernels,
        "workgroup_size_spec_ids": wg_ids,
        "work_dim_spec_id": work_dim,
        "required_features": [],
        "literal_samplers": literal_samplers,
        "samplers_as_masked": true,
    }))
}
