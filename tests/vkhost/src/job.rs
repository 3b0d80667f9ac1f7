//! A job's resources: its module, its kernel's reflection, and every argument made into the
//! buffers, images, samplers, push-constant bytes and specialization constants the
//! reflection asks for, ready for a pipeline.

use std::path::Path;

use ash::vk;
use serde_json::Value;

use crate::inputs::Inputs;
use crate::pipeline::{Binding, Pipeline};
use crate::{dims, field, images, num, Buffer, Device, Resource, R};

/// What a job's kernel runs with.
pub struct Bound {
    pub spv: Vec<u8>,
    pub kernel_name: String,
    pub global: [u32; 3],
    pub local: [u32; 3],
    pub push: Vec<u8>,
    pub pc_size: usize,
    pub specs: Vec<(u32, u32)>,
    /// Buffers, where their bytes go after the run (`output`), and their length.
    pub buffers: Vec<(Buffer, Option<String>, usize)>,
    /// Images and where their texels go afterwards.
    pub images: Vec<(images::Image, Option<String>)>,
    pub samplers: Vec<vk::Sampler>,
    pub views: Vec<vk::BufferView>,
    pub bindings: Vec<Binding>,
    /// The printf buffer (its index in `buffers`) and the reflection's `printf`.
    pub printf: Option<(usize, Value)>,
}

impl Bound {
    pub fn pipeline(&self, dev: &Device) -> R<Pipeline> {
        Pipeline::new(
            dev,
            &self.spv,
            &self.kernel_name,
            &self.push,
            self.pc_size,
            &self.specs,
            &self.bindings,
            self.global,
            self.local,
        )
    }

    pub fn free(self, dev: &Device) {
        for (b, _, _) in self.buffers {
            dev.free(b);
        }
        for (img, _) in self.images {
            dev.free_image(img);
        }
        for s in self.samplers {
            unsafe { dev.device.destroy_sampler(s, None) };
        }
        for v in self.views {
            unsafe { dev.device.destroy_buffer_view(v, None) };
        }
    }
}

/// Where a job argument's bytes go after the dispatch, if they are compared.
fn output_name(given: &Value) -> Option<String> {
    given
        .get("output")
        .and_then(Value::as_str)
        .map(String::from)
}

/// OpenCL's channel order and data type of image argument `given`, into the push
/// constants where the kernel's reflection `a` asks for them.
fn channel_words(a: &Value, given: &Value, push: &mut [u8]) -> R<()> {
    for (word, value) in [
        ("channel_order", "order"),
        ("channel_data_type", "data_type"),
    ] {
        if let Some(at) = a.get(word) {
            let off = num(at, "offset")? as usize;
            let v = num(given, value)? as u32;
            push[off..off + 4].copy_from_slice(&v.to_le_bytes());
        }
    }
    Ok(())
}

/// A by-value job argument's bytes.
fn pod_bytes(given: &Value) -> R<Vec<u8>> {
    Ok(field(given, "bytes")?
        .as_array()
        .ok_or("`bytes` is not a list")?
        .iter()
        .map(|x| x.as_u64().unwrap_or(0) as u8)
        .collect())
}

/// Make job `job`'s resources (files relative to `dir`). On an error, what was made so far
/// is freed.
pub fn bind(dev: &Device, dir: &Path, job: &Value) -> R<Bound> {
    let at = |k: &str| -> R<std::path::PathBuf> {
        Ok(dir.join(
            field(job, k)?
                .as_str()
                .ok_or_else(|| format!("`{k}` is not a path"))?,
        ))
    };
    let spv = std::fs::read(at("spv")?).map_err(|e| format!("spv: {e}"))?;
    let reflection: Value = serde_json::from_slice(
        &std::fs::read(at("reflection")?).map_err(|e| format!("reflection: {e}"))?,
    )
    .map_err(|e| format!("reflection: {e}"))?;
    let kernel_name = field(job, "kernel")?
        .as_str()
        .ok_or("`kernel` is not a name")?
        .to_string();
    for f in field(&reflection, "required_features")?
        .as_array()
        .ok_or("`required_features` is not a list")?
    {
        let f = f.as_str().unwrap_or_default();
        if !dev.enabled.contains(&f) {
            return Err(format!("the device lacks the feature {f}"));
        }
    }
    let kernel = field(&reflection, "kernels")?
        .as_array()
        .ok_or("`kernels` is not a list")?
        .iter()
        .find(|k| k.get("name").and_then(Value::as_str) == Some(kernel_name.as_str()))
        .ok_or_else(|| format!("the reflection has no kernel `{kernel_name}`"))?;
    let global = dims(field(job, "global")?)?;
    let local = match kernel.get("required_workgroup_size") {
        Some(v) if !v.is_null() => dims(v)?,
        _ => match job.get("local") {
            Some(v) if !v.is_null() => dims(v)?,
            _ => [1, 1, 1],
        },
    };
    let pc_size = num(kernel, "push_constant_size")? as usize;
    let mut specs: Vec<(u32, u32)> = (0..3)
        .map(|i| {
            let id = reflection["workgroup_size_spec_ids"][i]
                .as_u64()
                .unwrap_or(i as u64);
            (id as u32, local[i])
        })
        .collect();
    if let Some(d) = reflection.get("work_dim_spec_id").and_then(Value::as_u64) {
        let dims = field(job, "global")?.as_array().map_or(1, |a| a.len()) as u32;
        specs.push((d as u32, dims));
    }
    let mut b = Bound {
        spv,
        kernel_name,
        global,
        local,
        push: vec![0u8; pc_size.max(4)],
        pc_size,
        specs,
        buffers: Vec::new(),
        images: Vec::new(),
        samplers: Vec::new(),
        views: Vec::new(),
        bindings: Vec::new(),
        printf: None,
    };
    match arguments(dev, dir, job, &reflection, kernel, &mut b) {
        Ok(()) => Ok(b),
        Err(e) => {
            b.free(dev);
            Err(e)
        }
    }
}

/// The arguments of `kernel` (of `reflection`) as job `job` gives them, into `b`.
fn arguments(
    dev: &Device,
    dir: &Path,
    job: &Value,
    reflection: &Value,
    kernel: &Value,
    b: &mut Bound,
) -> R<()> {
    let mut inputs = Inputs::new(dir, job);
    let job_args = field(job, "args")?
        .as_array()
        .ok_or("`args` is not a list")?;
    // (set, binding) -> descriptor type and the index of its buffer in `buffers`, or POD
    // bytes still to be made into one.
    let mut bound: std::collections::BTreeMap<(u32, u32), (vk::DescriptorType, usize)> =
        Default::default();
    let mut pods: std::collections::BTreeMap<(u32, u32), (vk::DescriptorType, Vec<u8>)> =
        Default::default();
    // Images and samplers, bound by (set, binding).
    let mut handles: std::collections::BTreeMap<(u32, u32), (vk::DescriptorType, Resource)> =
        Default::default();
    let key_of =
        |a: &Value| -> R<(u32, u32)> { Ok((num(a, "set")? as u32, num(a, "binding")? as u32)) };
    let as_masked = reflection
        .get("samplers_as_masked")
        .and_then(Value::as_bool)
        == Some(true);
    for l in reflection
        .get("literal_samplers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let s = dev.sampler(num(l, "mask")? as u32, as_masked)?;
        b.samplers.push(s);
        handles.insert(
            key_of(l)?,
            (vk::DescriptorType::SAMPLER, Resource::Sampler(s)),
        );
    }
    // The program-scope variables' buffer, from their initial bytes: its device address in
    // the push constants, or bound where the reflection says (the program's buffer lives
    // for one job here: one kernel run).
    if let Some(p) = reflection
        .get("program_scope_variables")
        .filter(|p| !p.is_null())
    {
        let hex = field(p, "data")?.as_str().unwrap_or_default();
        let bytes = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16))
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|e| format!("program_scope_variables data: {e}"))?;
        let buf = dev.buffer(&bytes)?;
        match p.get("push_constant") {
            Some(at) => {
                let off = num(at, "offset")? as usize;
                b.push[off..off + 8].copy_from_slice(&buf.address.to_le_bytes());
                b.buffers.push((buf, None, bytes.len()));
            }
            None => {
                b.buffers.push((buf, None, bytes.len()));
                bound.insert(
                    key_of(p)?,
                    (vk::DescriptorType::STORAGE_BUFFER, b.buffers.len() - 1),
                );
            }
        }
    }
    // The printf buffer, zeroed (word 0 counts the words written), where the kernel prints.
    let prints = kernel.get("may_use_printf").and_then(Value::as_bool) == Some(true);
    if let Some(p) = reflection.get("printf").filter(|p| prints && !p.is_null()) {
        let size = num(p, "buffer_size")? as usize;
        b.buffers.push((dev.buffer(&vec![0u8; size])?, None, size));
        bound.insert(
            key_of(p)?,
            (vk::DescriptorType::STORAGE_BUFFER, b.buffers.len() - 1),
        );
        b.printf = Some((b.buffers.len() - 1, p.clone()));
    }
    for a in field(kernel, "args")?
        .as_array()
        .ok_or("kernel `args` is not a list")?
    {
        let ordinal = num(a, "ordinal")? as usize;
        let given = job_args
            .get(ordinal)
            .ok_or_else(|| format!("the job has no argument {ordinal}"))?;
        let kind = field(a, "kind")?.as_str().unwrap_or_default();
        match kind {
            "pointer_push_constant" => {
                let data = inputs.bytes(given, "buffer")?;
                let buf = dev.buffer(&data)?;
                let off = num(a, "offset")? as usize;
                b.push[off..off + 8].copy_from_slice(&buf.address.to_le_bytes());
                b.buffers.push((buf, output_name(given), data.len()));
            }
            "pod_push_constant" => {
                let bytes = pod_bytes(given)?;
                let off = num(a, "offset")? as usize;
                let size = num(a, "size")? as usize;
                let n = bytes.len().min(size);
                b.push[off..off + n].copy_from_slice(&bytes[..n]);
            }
            "storage_buffer" => {
                let data = inputs.bytes(given, "buffer")?;
                b.buffers
                    .push((dev.buffer(&data)?, output_name(given), data.len()));
                let key = (num(a, "set")? as u32, num(a, "binding")? as u32);
                bound.insert(
                    key,
                    (vk::DescriptorType::STORAGE_BUFFER, b.buffers.len() - 1),
                );
            }
            "pod_uniform" | "pod_storage_buffer" => {
                let bytes = pod_bytes(given)?;
                let ty = if kind == "pod_uniform" {
                    vk::DescriptorType::UNIFORM_BUFFER
                } else {
                    vk::DescriptorType::STORAGE_BUFFER
                };
                let key = (num(a, "set")? as u32, num(a, "binding")? as u32);
                let off = num(a, "offset")? as usize;
                let size = num(a, "size")? as usize;
                let entry = pods.entry(key).or_insert((ty, Vec::new()));
                if entry.1.len() < off + size {
                    entry.1.resize(off + size, 0);
                }
                let n = bytes.len().min(size);
                entry.1[off..off + n].copy_from_slice(&bytes[..n]);
            }
            "sampled_image" | "storage_image" => {
                let data = inputs.bytes(given, "image")?;
                let img = dev.image(&data, given)?;
                let ty = if kind == "sampled_image" {
                    vk::DescriptorType::SAMPLED_IMAGE
                } else {
                    vk::DescriptorType::STORAGE_IMAGE
                };
                handles.insert(key_of(a)?, (ty, Resource::Image(img.view)));
                channel_words(a, given, &mut b.push)?;
                b.images.push((img, output_name(given)));
            }
            "uniform_texel_buffer" | "storage_texel_buffer" => {
                let data = inputs.bytes(given, "image")?;
                let (buf, view, len) = dev.texel_buffer(&data, given)?;
                let ty = if kind == "uniform_texel_buffer" {
                    vk::DescriptorType::UNIFORM_TEXEL_BUFFER
                } else {
                    vk::DescriptorType::STORAGE_TEXEL_BUFFER
                };
                handles.insert(key_of(a)?, (ty, Resource::TexelBuffer(view)));
                channel_words(a, given, &mut b.push)?;
                b.buffers.push((buf, output_name(given), len));
                b.views.push(view);
            }
            "sampler" => {
                let mask = images::job_sampler_mask(given)?;
                let s = dev.sampler(mask, as_masked)?;
                b.samplers.push(s);
                handles.insert(
                    key_of(a)?,
                    (vk::DescriptorType::SAMPLER, Resource::Sampler(s)),
                );
                let at = field(a, "normalized_mask")?;
                let off = num(at, "offset")? as usize;
                b.push[off..off + 4].copy_from_slice(&mask.to_le_bytes());
            }
            "workgroup" => {
                let bytes = num(given, "local_bytes")?;
                let elem = num(a, "elem_size")?.max(1);
                b.specs
                    .push((num(a, "spec_id")? as u32, (bytes / elem) as u32));
            }
            other => {
                return Err(format!(
                    "argument kind `{other}` is not supported by vkhost"
                ))
            }
        }
    }
    for (key, (ty, bytes)) in pods {
        let buf = dev.buffer(&bytes)?;
        b.buffers.push((buf, None, bytes.len()));
        bound.insert(key, (ty, b.buffers.len() - 1));
    }
    b.bindings = bound
        .iter()
        .map(|(&(set, binding), &(ty, i))| {
            (set, ty, Resource::Buffer(b.buffers[i].0.buffer), binding)
        })
        .collect();
    b.bindings.extend(
        handles
            .iter()
            .map(|(&(set, binding), &(ty, r))| (set, ty, r, binding)),
    );
    Ok(())
}
