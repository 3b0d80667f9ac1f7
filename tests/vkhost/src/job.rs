//! A job's resources: its module, the module's own reflection (`reflect`: what a host that
//! follows it literally binds, writes and specializes), and the job's objects made into the
//! buffers, images, samplers, push-constant bytes and specialization constants each
//! dispatch asks for.
//!
//! A job runs one kernel (`kernel`, `global`, `local`, `args`) or a program of several
//! dispatches in order (`objects`, `steps`: each step a `kernel`, `global`, `local` and
//! `args` naming objects by index, as an application keeps its buffers between kernels).
//! An object is made once, at its first use, and every later dispatch sees what the earlier
//! ones left in it; so does the program's buffer of program-scope variables and the printf
//! buffer.

use std::path::Path;

use ash::vk;
use serde_json::Value;

use crate::inputs::Inputs;
use crate::pipeline::{Binding, Dispatches, Pipeline};
use crate::{dims, field, images, num, Buffer, Device, Resource, R};

/// One dispatch of a job.
pub struct Step {
    pub kernel_name: String,
    pub global: [u32; 3],
    pub local: [u32; 3],
    pub push: Vec<u8>,
    pub pc_size: usize,
    pub specs: Vec<(u32, u32)>,
    pub bindings: Vec<Binding>,
}

/// What a job's kernels run with.
pub struct Bound {
    pub spv: Vec<u8>,
    pub steps: Vec<Step>,
    /// Buffers, where their bytes go after the run (`output`), and their length.
    pub buffers: Vec<(Buffer, Option<String>, usize)>,
    /// Images and where their texels go afterwards.
    pub images: Vec<(images::Image, Option<String>)>,
    pub samplers: Vec<vk::Sampler>,
    pub views: Vec<vk::BufferView>,
    /// The printf buffer (its index in `buffers`) and the reflection's `printf`.
    pub printf: Option<(usize, Value)>,
}

impl Bound {
    /// Every step's pipeline, in order.
    pub fn pipelines(&self, dev: &Device) -> R<Dispatches> {
        let mut all = Dispatches::default();
        for s in &self.steps {
            match Pipeline::new(
                dev,
                &self.spv,
                &s.kernel_name,
                &s.push,
                s.pc_size,
                &s.specs,
                &s.bindings,
                s.global,
                s.local,
            ) {
                Ok(p) => all.0.push(p),
                Err(e) => {
                    all.destroy(dev);
                    return Err(format!("{}: {e}", s.kernel_name));
                }
            }
        }
        Ok(all)
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

/// Where a job object's bytes go after the run, if they are compared.
fn output_name(given: &Value) -> Option<String> {
    given
        .get("output")
        .and_then(Value::as_str)
        .map(String::from)
}

/// OpenCL's channel order and data type of image object `given`, into the push constants
/// where the kernel's reflection `a` asks for them.
fn channel_words(a: &Value, given: &Value, push: &mut [u8]) -> R<()> {
    for (word, value) in [
        ("channel_order", "order"),
        ("channel_data_type", "data_type"),
    ] {
        if let Some(at) = a.get(word).filter(|w| !w.is_null()) {
            let off = num(at, "offset")? as usize;
            let v = num(given, value)? as u32;
            put(push, off, &v.to_le_bytes())?;
        }
    }
    Ok(())
}

/// Write `bytes` at `off` of the push constants.
fn put(push: &mut [u8], off: usize, bytes: &[u8]) -> R<()> {
    push.get_mut(off..off + bytes.len())
        .ok_or_else(|| format!("push-constant bytes {off}.. lie past the kernel's range"))?
        .copy_from_slice(bytes);
    Ok(())
}

/// A by-value job object's bytes.
fn pod_bytes(given: &Value) -> R<Vec<u8>> {
    Ok(field(given, "bytes")?
        .as_array()
        .ok_or("`bytes` is not a list")?
        .iter()
        .map(|x| x.as_u64().unwrap_or(0) as u8)
        .collect())
}

/// One dispatch a job asks for.
struct StepSpec {
    kernel: String,
    global: [u32; 3],
    /// The number of dimensions the job gives (OpenCL's `work_dim`).
    work_dim: u32,
    local: Option<[u32; 3]>,
    /// The global offset (OpenCL's `global_work_offset`), zero unless given.
    offset: [u32; 3],
    /// The objects of the kernel's arguments, in order.
    args: Vec<usize>,
}

/// The steps of `job`, and its objects: a one-kernel job is one step over its `args`.
fn steps_of(job: &Value) -> R<(Vec<StepSpec>, Vec<Value>)> {
    let step = |s: &Value, default_args: Option<usize>| -> R<StepSpec> {
        let kernel = field(s, "kernel")?
            .as_str()
            .ok_or("`kernel` is not a name")?
            .to_string();
        let local = match s.get("local") {
            Some(v) if !v.is_null() => Some(dims(v)?),
            _ => None,
        };
        let mut offset = [0u32; 3];
        for (i, o) in s
            .get("offset")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .take(3)
            .enumerate()
        {
            offset[i] = o.as_u64().ok_or("an offset is not a number")? as u32;
        }
        let args = match default_args {
            Some(n) => (0..n).collect(),
            None => field(s, "args")?
                .as_array()
                .ok_or("a step's `args` is not a list")?
                .iter()
                .map(|a| {
                    a.as_u64()
                        .map(|a| a as usize)
                        .ok_or("an object index is not a number")
                })
                .collect::<Result<Vec<_>, _>>()?,
        };
        let global = field(s, "global")?;
        Ok(StepSpec {
            kernel,
            global: dims(global)?,
            work_dim: global.as_array().map_or(1, |a| a.len().clamp(1, 3)) as u32,
            local,
            offset,
            args,
        })
    };
    match job.get("steps") {
        Some(steps) => {
            let objects = field(job, "objects")?
                .as_array()
                .ok_or("`objects` is not a list")?
                .clone();
            let steps = steps
                .as_array()
                .ok_or("`steps` is not a list")?
                .iter()
                .map(|s| step(s, None))
                .collect::<R<Vec<_>>>()?;
            Ok((steps, objects))
        }
        None => {
            let objects = field(job, "args")?
                .as_array()
                .ok_or("`args` is not a list")?
                .clone();
            Ok((vec![step(job, Some(objects.len()))?], objects))
        }
    }
}

/// What an object has been made into by its first use.
#[derive(Clone, Copy)]
enum Made {
    /// `buffers[i]`.
    Buffer(usize),
    /// `images[i]`.
    Image(usize),
    /// `buffers[i]` seen through `views[j]`.
    Texels(usize, usize),
}

/// Make job `job`'s resources (files relative to `dir`). On an error, what was made so far
/// is freed.
pub fn bind(dev: &Device, dir: &Path, job: &Value) -> R<Bound> {
    let spv_path = dir.join(field(job, "spv")?.as_str().ok_or("`spv` is not a path")?);
    let spv = std::fs::read(&spv_path).map_err(|e| format!("spv: {e}"))?;
    if !spv.len().is_multiple_of(4) {
        return Err("the module is not whole words".into());
    }
    let words: Vec<u32> = spv
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let reflection = crate::reflect::read(&words)?;
    for f in field(&reflection, "required_features")?
        .as_array()
        .ok_or("`required_features` is not a list")?
    {
        let f = f.as_str().unwrap_or_default();
        if !dev.enabled.contains(&f) {
            return Err(format!("the device lacks the feature {f}"));
        }
    }
    let (steps, objects) = steps_of(job)?;
    let mut b = Bound {
        spv,
        steps: Vec::new(),
        buffers: Vec::new(),
        images: Vec::new(),
        samplers: Vec::new(),
        views: Vec::new(),
        printf: None,
    };
    let made = program(dev, &reflection, &mut b).and_then(|program| {
        let mut ctx = Objects {
            inputs: Inputs::new(dir, job),
            given: &objects,
            made: vec![None; objects.len()],
        };
        for s in &steps {
            let step = dispatch(dev, &reflection, &program, s, &mut ctx, &mut b)
                .map_err(|e| format!("{}: {e}", s.kernel))?;
            b.steps.push(step);
        }
        Ok(())
    });
    match made {
        Ok(()) => Ok(b),
        Err(e) => {
            b.free(dev);
            Err(e)
        }
    }
}

/// What the program's dispatches share: its literal samplers, the program-scope buffer and
/// the printf buffer, each made once.
struct Program {
    /// (set, binding) -> descriptor type and resource.
    shared: Vec<Binding>,
    /// The program-scope buffer's device address and where it goes in the push constants.
    scope_address: Option<(usize, u64)>,
}

fn program(dev: &Device, reflection: &Value, b: &mut Bound) -> R<Program> {
    let mut shared = Vec::new();
    let key_of =
        |a: &Value| -> R<(u32, u32)> { Ok((num(a, "set")? as u32, num(a, "binding")? as u32)) };
    // Literal samplers are made as their OpenCL bits say (clvk's cvk_sampler::create).
    for l in reflection
        .get("literal_samplers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let s = dev.sampler(num(l, "mask")? as u32, false)?;
        b.samplers.push(s);
        let (set, binding) = key_of(l)?;
        shared.push((
            set,
            vk::DescriptorType::SAMPLER,
            Resource::Sampler(s),
            binding,
        ));
    }
    // The program-scope variables' buffer, from their initial bytes, for the program's life.
    let mut scope_address = None;
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
        let (address, handle) = (buf.address, buf.buffer);
        b.buffers.push((buf, None, bytes.len()));
        match p.get("push_constant") {
            Some(at) => scope_address = Some((num(at, "offset")? as usize, address)),
            None => {
                let (set, binding) = key_of(p)?;
                shared.push((
                    set,
                    vk::DescriptorType::STORAGE_BUFFER,
                    Resource::Buffer(handle),
                    binding,
                ));
            }
        }
    }
    // The printf buffer, zeroed (word 0 counts the words written), where the program prints.
    let prints = reflection["kernels"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|k| k.get("may_use_printf").and_then(Value::as_bool) == Some(true));
    if let Some(p) = reflection.get("printf").filter(|p| prints && !p.is_null()) {
        let size = num(p, "buffer_size")? as usize;
        let buf = dev.buffer(&vec![0u8; size])?;
        let handle = buf.buffer;
        b.buffers.push((buf, None, size));
        let (set, binding) = key_of(p)?;
        shared.push((
            set,
            vk::DescriptorType::STORAGE_BUFFER,
            Resource::Buffer(handle),
            binding,
        ));
        b.printf = Some((b.buffers.len() - 1, p.clone()));
    }
    Ok(Program {
        shared,
        scope_address,
    })
}

/// The job's objects and what each has been made into.
struct Objects<'a> {
    inputs: Inputs<'a>,
    given: &'a [Value],
    made: Vec<Option<Made>>,
}

impl Objects<'_> {
    /// Object `i` as a buffer (made from its bytes at its first use).
    fn buffer<'b>(&mut self, dev: &Device, i: usize, b: &'b mut Bound) -> R<&'b Buffer> {
        let n = match self.made[i] {
            Some(Made::Buffer(n)) | Some(Made::Texels(n, _)) => n,
            Some(Made::Image(_)) => return Err(format!("object {i} is an image, not a buffer")),
            None => {
                let given = &self.given[i];
                let data = self.inputs.bytes(given, "buffer")?;
                b.buffers
                    .push((dev.buffer(&data)?, output_name(given), data.len()));
                self.made[i] = Some(Made::Buffer(b.buffers.len() - 1));
                b.buffers.len() - 1
            }
        };
        Ok(&b.buffers[n].0)
    }
}

/// One step's dispatch: its push constants, specialization constants and bindings, from
/// the kernel's reflection and the objects it names.
fn dispatch(
    dev: &Device,
    reflection: &Value,
    program: &Program,
    s: &StepSpec,
    objects: &mut Objects,
    b: &mut Bound,
) -> R<Step> {
    let kernel = field(reflection, "kernels")?
        .as_array()
        .ok_or("`kernels` is not a list")?
        .iter()
        .find(|k| k.get("name").and_then(Value::as_str) == Some(s.kernel.as_str()))
        .ok_or_else(|| format!("the module's reflection has no kernel `{}`", s.kernel))?;
    let required = match kernel.get("required_workgroup_size") {
        Some(v) if !v.is_null() => Some(dims(v)?),
        _ => None,
    };
    // OpenCL's rule: a kernel with a required size runs with it.
    let local = required.or(s.local).unwrap_or([1, 1, 1]);
    let pc_size = num(kernel, "push_constant_size")? as usize;
    let mut push = vec![0u8; pc_size.max(4)];
    let mut specs = Vec::new();
    // The work-group size's specialization constants, for a kernel whose size is not fixed:
    // a kernel with a required size must run with it whatever this host sets.
    if let (Some(ids), None) = (
        reflection
            .get("workgroup_size_spec_ids")
            .and_then(Value::as_array),
        required,
    ) {
        for (i, id) in ids.iter().enumerate().take(3) {
            specs.push((id.as_u64().unwrap_or(i as u64) as u32, local[i]));
        }
    }
    if let Some(d) = reflection.get("work_dim_spec_id").and_then(Value::as_u64) {
        specs.push((d as u32, s.work_dim));
    }
    // What the program shares, written for every dispatch (clvk's
    // update_global_push_constants): the global offset and the program's buffer.
    if let Some(at) = reflection.get("global_offset").filter(|g| !g.is_null()) {
        let off = num(at, "offset")? as usize;
        let bytes: Vec<u8> = s.offset.iter().flat_map(|o| o.to_le_bytes()).collect();
        put(&mut push, off, &bytes)?;
    }
    if let Some((off, address)) = program.scope_address {
        put(&mut push, off, &address.to_le_bytes())?;
    }
    let mut bindings: Vec<Binding> = program.shared.clone();
    // (set, binding) of the values in a buffer, and their bytes.
    let mut pods: std::collections::BTreeMap<(u32, u32), (vk::DescriptorType, Vec<u8>)> =
        Default::default();
    let key_of =
        |a: &Value| -> R<(u32, u32)> { Ok((num(a, "set")? as u32, num(a, "binding")? as u32)) };
    for a in field(kernel, "args")?
        .as_array()
        .ok_or("kernel `args` is not a list")?
    {
        let ordinal = num(a, "ordinal")? as usize;
        let i = *s
            .args
            .get(ordinal)
            .ok_or_else(|| format!("the job gives no argument {ordinal}"))?;
        let given = objects
            .given
            .get(i)
            .ok_or_else(|| format!("the job has no object {i}"))?
            .clone();
        let kind = field(a, "kind")?.as_str().unwrap_or_default();
        match kind {
            "pointer_push_constant" => {
                let address = objects.buffer(dev, i, b)?.address;
                put(
                    &mut push,
                    num(a, "offset")? as usize,
                    &address.to_le_bytes(),
                )?;
            }
            "pod_push_constant" => {
                let bytes = pod_bytes(&given)?;
                let n = bytes.len().min(num(a, "size")? as usize);
                put(&mut push, num(a, "offset")? as usize, &bytes[..n])?;
            }
            "storage_buffer" => {
                let handle = objects.buffer(dev, i, b)?.buffer;
                let (set, binding) = key_of(a)?;
                bindings.push((
                    set,
                    vk::DescriptorType::STORAGE_BUFFER,
                    Resource::Buffer(handle),
                    binding,
                ));
            }
            "pod_uniform" | "pod_storage_buffer" | "pointer_uniform" => {
                let ty = if kind == "pod_storage_buffer" {
                    vk::DescriptorType::STORAGE_BUFFER
                } else {
                    vk::DescriptorType::UNIFORM_BUFFER
                };
                let bytes = if kind == "pointer_uniform" {
                    objects.buffer(dev, i, b)?.address.to_le_bytes().to_vec()
                } else {
                    pod_bytes(&given)?
                };
                let off = num(a, "offset")? as usize;
                let size = num(a, "size")? as usize;
                let entry = pods.entry(key_of(a)?).or_insert((ty, Vec::new()));
                if entry.1.len() < off + size {
                    entry.1.resize(off + size, 0);
                }
                let n = bytes.len().min(size);
                entry.1[off..off + n].copy_from_slice(&bytes[..n]);
            }
            "sampled_image" | "storage_image" => {
                let n = match objects.made[i] {
                    Some(Made::Image(n)) => n,
                    Some(_) => return Err(format!("object {i} is a buffer, not an image")),
                    None => {
                        let data = objects.inputs.bytes(&given, "image")?;
                        let img = dev.image(&data, &given)?;
                        b.images.push((img, output_name(&given)));
                        objects.made[i] = Some(Made::Image(b.images.len() - 1));
                        b.images.len() - 1
                    }
                };
                let ty = if kind == "sampled_image" {
                    vk::DescriptorType::SAMPLED_IMAGE
                } else {
                    vk::DescriptorType::STORAGE_IMAGE
                };
                let (set, binding) = key_of(a)?;
                bindings.push((set, ty, Resource::Image(b.images[n].0.view), binding));
                channel_words(a, &given, &mut push)?;
            }
            "uniform_texel_buffer" | "storage_texel_buffer" => {
                let v = match objects.made[i] {
                    Some(Made::Texels(_, v)) => v,
                    Some(_) => return Err(format!("object {i} is not a texel buffer")),
                    None => {
                        let data = objects.inputs.bytes(&given, "image")?;
                        let (buf, view, len) = dev.texel_buffer(&data, &given)?;
                        b.buffers.push((buf, output_name(&given), len));
                        b.views.push(view);
                        objects.made[i] =
                            Some(Made::Texels(b.buffers.len() - 1, b.views.len() - 1));
                        b.views.len() - 1
                    }
                };
                let ty = if kind == "uniform_texel_buffer" {
                    vk::DescriptorType::UNIFORM_TEXEL_BUFFER
                } else {
                    vk::DescriptorType::STORAGE_TEXEL_BUFFER
                };
                let (set, binding) = key_of(a)?;
                bindings.push((set, ty, Resource::TexelBuffer(b.views[v]), binding));
                channel_words(a, &given, &mut push)?;
            }
            "sampler" => {
                let mask = images::job_sampler_mask(&given)?;
                // Where the kernel reads OpenCL's sampler bits, it normalizes coordinates
                // itself and takes a sampler of normalized coordinates (as clvk gives it).
                let at = a.get("normalized_mask").filter(|m| !m.is_null());
                let s = dev.sampler(mask, at.is_some())?;
                b.samplers.push(s);
                let (set, binding) = key_of(a)?;
                bindings.push((
                    set,
                    vk::DescriptorType::SAMPLER,
                    Resource::Sampler(s),
                    binding,
                ));
                if let Some(at) = at {
                    put(&mut push, num(at, "offset")? as usize, &mask.to_le_bytes())?;
                }
            }
            "workgroup" => {
                let bytes = num(&given, "local_bytes")?;
                let elem = num(a, "elem_size")?.max(1);
                specs.push((num(a, "spec_id")? as u32, (bytes / elem) as u32));
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
        let handle = buf.buffer;
        b.buffers.push((buf, None, bytes.len()));
        bindings.push((key.0, ty, Resource::Buffer(handle), key.1));
    }
    Ok(Step {
        kernel_name: s.kernel.clone(),
        global: s.global,
        local,
        push,
        pc_size,
        specs,
        bindings,
    })
}
