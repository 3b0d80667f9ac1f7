//! Our `--reflection` JSON against the module's own `NonSemantic.ClspvReflection`
//! instructions as vkhost reads them (`vkhost --reflect`, the way clvk reads them): the two
//! spellings of one record must agree on everything a host uses.

use std::path::Path;
use std::process::Command;

use serde_json::{Map, Value};

/// The keys of an argument a host uses (ours add the OpenCL names and types).
const ARG_KEYS: [&str; 11] = [
    "ordinal",
    "kind",
    "offset",
    "size",
    "set",
    "binding",
    "spec_id",
    "elem_size",
    "channel_order",
    "channel_data_type",
    "normalized_mask",
];

/// The keys of the module a host uses.
const MODULE_KEYS: [&str; 7] = [
    "global_offset",
    "workgroup_size_spec_ids",
    "work_dim_spec_id",
    "literal_samplers",
    "printf",
    "program_scope_variables",
    "kernels",
];

/// `doc` with only the keys both spellings carry (nulls left out).
fn project(doc: &Value) -> Value {
    let pick = |v: &Value, keys: &[&str]| -> Map<String, Value> {
        keys.iter()
            .filter_map(|k| {
                v.get(*k)
                    .filter(|x| !x.is_null())
                    .map(|x| (k.to_string(), x.clone()))
            })
            .collect()
    };
    let mut m = pick(doc, &MODULE_KEYS);
    let kernels: Vec<Value> = doc["kernels"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|k| {
            let mut out = pick(k, &["name", "required_workgroup_size", "may_use_printf"]);
            let args: Vec<Value> = k["args"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|a| Value::Object(pick(a, &ARG_KEYS)))
                .collect();
            out.insert("args".into(), Value::Array(args));
            Value::Object(out)
        })
        .collect();
    m.insert("kernels".into(), Value::Array(kernels));
    if let Some(l) = m.get_mut("literal_samplers") {
        if l.as_array().is_some_and(Vec::is_empty) {
            m.remove("literal_samplers");
        }
    }
    Value::Object(m)
}

/// Whether module `spv`'s reflection instructions say what its JSON `json` says.
pub fn agrees(vkhost: &Path, spv: &Path, json: &Path) -> Result<(), String> {
    let run = Command::new(vkhost)
        .arg("--reflect")
        .arg(spv)
        .output()
        .map_err(|e| format!("{}: {e} (build tests/vkhost first)", vkhost.display()))?;
    if !run.status.success() {
        return Err(format!(
            "vkhost --reflect: {}",
            String::from_utf8_lossy(&run.stderr).trim()
        ));
    }
    let read: Value = serde_json::from_slice(&run.stdout).map_err(|e| e.to_string())?;
    let ours: Value = serde_json::from_slice(&std::fs::read(json).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let (a, b) = (project(&read), project(&ours));
    if a == b {
        return Ok(());
    }
    let first = MODULE_KEYS
        .iter()
        .find(|k| a.get(**k) != b.get(**k))
        .map_or(String::new(), |k| {
            format!(
                "`{k}`: the instructions say {}, the JSON {}",
                a.get(*k).unwrap_or(&Value::Null),
                b.get(*k).unwrap_or(&Value::Null)
            )
        });
    Err(format!(
        "the reflection instructions and the JSON disagree: {first}"
    ))
}
