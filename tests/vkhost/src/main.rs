//! The Vulkan execution tier's host. It runs one kernel of a spir-xlate Vulkan module the way
//! the module's reflection (`--reflection` JSON) says its arguments arrive, and writes the
//! bytes of the buffers it was asked to read back. Tests drive it (tests/exec_vulkan); it
//! is its own crate, without LLVM, so it can be carried alone to a machine with a GPU.
//!
//! ```text
//! vkhost JOB.json          run every job of a job file
//! vkhost --devices         list the Vulkan devices
//! ```
//!
//! A job file holds `{"jobs": [JOB, ...]}`, each job:
//!
//! ```json
//! {"spv": "k.spv", "reflection": "k.json", "kernel": "vector_add",
//!  "global": [64, 1, 1], "local": [16, 1, 1],
//!  "args": [{"buffer": "a.bin"}, {"buffer": "c.bin", "output": "c.out"},
//!           {"bytes": [1, 0, 0, 0]}, {"local_bytes": 256}],
//!  "expect": {"c.out": "c.expected"}}
//! ```
//!
//! Buffers start with their file's bytes; `output` names where the bytes after the run go.
//! Besides our own argument kinds the host binds clspv's descriptor-based ones (the test
//! turns a clspv module's reflection into the same JSON): `storage_buffer` (`set`,
//! `binding`), and `pod_uniform` / `pod_storage_buffer` (`set`, `binding`, `offset`, `size`;
//! arguments sharing a binding share one buffer).
//! A kernel that prints (`may_use_printf`, and the reflection's `printf`) gets a zeroed
//! printf buffer; the job's `printed: {"output": F, "expected": E}` names where the text it
//! printed goes (its lines sorted: work-items print in no fixed order) and what it must be.
//! With `expect`, the host compares them itself and says which differ (the mode a GPU
//! machine without the rest of the test suite runs). Exit 0 when every job ran (and matched),
//! 1 otherwise; each job prints one line.

use std::ffi::CStr;
use std::path::{Path, PathBuf};

use ash::vk;
use serde_json::Value;

mod images;
mod printf;

/// What a descriptor binding holds.
#[derive(Clone, Copy)]
enum Resource {
    Buffer(vk::Buffer),
    /// A sampled or storage image's view (General layout).
    Image(vk::ImageView),
    Sampler(vk::Sampler),
    /// An `image1d_buffer_t`'s buffer view (a uniform or storage texel buffer).
    TexelBuffer(vk::BufferView),
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let result = match args.get(1).map(String::as_str) {
        Some("--devices") => devices(),
        Some(job) => run_file(Path::new(job)),
        None => Err("usage: vkhost JOB.json | vkhost --devices".into()),
    };
    match result {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("vkhost: {e}");
            std::process::exit(1);
        }
    }
}

type R<T> = Result<T, String>;

fn vkerr(what: &str) -> impl Fn(vk::Result) -> String + '_ {
    move |e| format!("{what}: {e:?}")
}

struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    physical: vk::PhysicalDevice,
    name: String,
}

fn open_instance() -> R<Gpu> {
    let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
    let app = vk::ApplicationInfo::default().api_version(vk::make_api_version(0, 1, 3, 0));
    let instance = unsafe {
        entry.create_instance(
            &vk::InstanceCreateInfo::default().application_info(&app),
            None,
        )
    }
    .map_err(vkerr("vkCreateInstance"))?;
    let physicals =
        unsafe { instance.enumerate_physical_devices() }.map_err(vkerr("enumerating devices"))?;
    let want = std::env::var("VKHOST_DEVICE").ok();
    let mut chosen = None;
    for p in physicals {
        let props = unsafe { instance.get_physical_device_properties(p) };
        let name = unsafe { CStr::from_ptr(props.device_name.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        if want.as_deref().is_none_or(|w| name.contains(w)) {
            chosen = Some((p, name));
            break;
        }
    }
    let (physical, name) = chosen.ok_or("no Vulkan device (or none matching VKHOST_DEVICE)")?;
    Ok(Gpu {
        _entry: entry,
        instance,
        physical,
        name,
    })
}

fn devices() -> R<bool> {
    let g = open_instance()?;
    let props = unsafe { g.instance.get_physical_device_properties(g.physical) };
    println!(
        "{} (Vulkan {}.{}.{})",
        g.name,
        vk::api_version_major(props.api_version),
        vk::api_version_minor(props.api_version),
        vk::api_version_patch(props.api_version)
    );
    Ok(true)
}

/// The device with every feature a module may need that this one has.
struct Device {
    gpu: Gpu,
    device: ash::Device,
    queue: vk::Queue,
    family: u32,
    memory: vk::PhysicalDeviceMemoryProperties,
    /// Feature names the device enabled (Vulkan's names, as the reflection lists them).
    enabled: Vec<&'static str>,
}

fn open_device() -> R<Device> {
    let gpu = open_instance()?;
    let i = &gpu.instance;
    let mut f11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut f11)
        .push_next(&mut f12);
    unsafe { i.get_physical_device_features2(gpu.physical, &mut f2) };
    let base = f2.features;
    let mut enabled = Vec::new();
    let mut want = |on: u32, name: &'static str| {
        if on != 0 {
            enabled.push(name);
        }
        on
    };
    let features = vk::PhysicalDeviceFeatures::default()
        .shader_int64(want(base.shader_int64, "shaderInt64") != 0)
        .shader_int16(want(base.shader_int16, "shaderInt16") != 0)
        .shader_float64(want(base.shader_float64, "shaderFloat64") != 0)
        .shader_storage_image_write_without_format(
            want(
                base.shader_storage_image_write_without_format,
                "shaderStorageImageWriteWithoutFormat",
            ) != 0,
        )
        .shader_storage_image_read_without_format(
            want(
                base.shader_storage_image_read_without_format,
                "shaderStorageImageReadWithoutFormat",
            ) != 0,
        );
    let mut e11 = vk::PhysicalDeviceVulkan11Features::default()
        .storage_buffer16_bit_access(
            want(f11.storage_buffer16_bit_access, "storageBuffer16BitAccess") != 0,
        )
        .storage_push_constant16(want(f11.storage_push_constant16, "storagePushConstant16") != 0)
        .variable_pointers_storage_buffer(
            want(
                f11.variable_pointers_storage_buffer,
                "variablePointersStorageBuffer",
            ) != 0,
        )
        .variable_pointers(want(f11.variable_pointers, "variablePointers") != 0);
    let mut e12 = vk::PhysicalDeviceVulkan12Features::default()
        .buffer_device_address(want(f12.buffer_device_address, "bufferDeviceAddress") != 0)
        .scalar_block_layout(want(f12.scalar_block_layout, "scalarBlockLayout") != 0)
        .shader_int8(want(f12.shader_int8, "shaderInt8") != 0)
        .shader_float16(want(f12.shader_float16, "shaderFloat16") != 0)
        .storage_buffer8_bit_access(
            want(f12.storage_buffer8_bit_access, "storageBuffer8BitAccess") != 0,
        )
        .storage_push_constant8(want(f12.storage_push_constant8, "storagePushConstant8") != 0);
    let families = unsafe { i.get_physical_device_queue_family_properties(gpu.physical) };
    let family = families
        .iter()
        .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
        .ok_or("no compute queue")? as u32;
    let prio = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(family)
        .queue_priorities(&prio)];
    let info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_features(&features)
        .push_next(&mut e11)
        .push_next(&mut e12);
    let device =
        unsafe { i.create_device(gpu.physical, &info, None) }.map_err(vkerr("vkCreateDevice"))?;
    let queue = unsafe { device.get_device_queue(family, 0) };
    let memory = unsafe { i.get_physical_device_memory_properties(gpu.physical) };
    Ok(Device {
        gpu,
        device,
        queue,
        family,
        memory,
        enabled,
    })
}

struct Buffer {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    size: u64,
    address: u64,
    ptr: *mut u8,
}

impl Device {
    fn buffer(&self, data: &[u8]) -> R<Buffer> {
        let d = &self.device;
        // Never empty, and room past the end for kernels that read a vector's padding.
        let size = (data.len() as u64).max(16).div_ceil(16) * 16;
        let info = vk::BufferCreateInfo::default().size(size).usage(
            vk::BufferUsageFlags::STORAGE_BUFFER
                | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
                | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
                | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS
                | vk::BufferUsageFlags::TRANSFER_SRC
                | vk::BufferUsageFlags::TRANSFER_DST,
        );
        let buffer = unsafe { d.create_buffer(&info, None) }.map_err(vkerr("vkCreateBuffer"))?;
        let req = unsafe { d.get_buffer_memory_requirements(buffer) };
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let index = (0..self.memory.memory_type_count)
            .find(|&t| {
                req.memory_type_bits & (1 << t) != 0
                    && self.memory.memory_types[t as usize]
                        .property_flags
                        .contains(want)
            })
            .ok_or("no host-visible coherent memory")?;
        let mut flags =
            vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(index)
            .push_next(&mut flags);
        let memory =
            unsafe { d.allocate_memory(&alloc, None) }.map_err(vkerr("vkAllocateMemory"))?;
        unsafe { d.bind_buffer_memory(buffer, memory, 0) }.map_err(vkerr("vkBindBufferMemory"))?;
        let ptr = unsafe { d.map_memory(memory, 0, size, vk::MemoryMapFlags::empty()) }
            .map_err(vkerr("vkMapMemory"))? as *mut u8;
        unsafe {
            std::ptr::write_bytes(ptr, 0, size as usize);
            std::ptr::copy_nonoverlapping(data.as_ptr(), ptr, data.len());
        }
        let address = unsafe {
            d.get_buffer_device_address(&vk::BufferDeviceAddressInfo::default().buffer(buffer))
        };
        Ok(Buffer {
            buffer,
            memory,
            size,
            address,
            ptr,
        })
    }

    fn read(&self, b: &Buffer, len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len.min(b.size as usize)];
        unsafe { std::ptr::copy_nonoverlapping(b.ptr, out.as_mut_ptr(), out.len()) };
        out
    }

    fn free(&self, b: Buffer) {
        unsafe {
            self.device.unmap_memory(b.memory);
            self.device.destroy_buffer(b.buffer, None);
            self.device.free_memory(b.memory, None);
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

fn field<'a>(v: &'a Value, k: &str) -> R<&'a Value> {
    v.get(k).ok_or_else(|| format!("missing `{k}`"))
}

fn num(v: &Value, k: &str) -> R<u64> {
    field(v, k)?
        .as_u64()
        .ok_or_else(|| format!("`{k}` is not a number"))
}

fn dims(v: &Value) -> R<[u32; 3]> {
    let a = v.as_array().ok_or("sizes must be a list")?;
    let mut out = [1u32; 3];
    for (i, x) in a.iter().take(3).enumerate() {
        out[i] = x.as_u64().ok_or("a size is not a number")? as u32;
    }
    Ok(out)
}

fn run_file(path: &Path) -> R<bool> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let dev = open_device()?;
    println!("device: {}", dev.gpu.name);
    let mut all = true;
    for job in field(&doc, "jobs")?
        .as_array()
        .ok_or("`jobs` is not a list")?
    {
        let name = job
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("job")
            .to_string();
        match run_job(&dev, &dir, job) {
            Ok(Outcome::Same) => println!("ok {name}"),
            Ok(Outcome::Within {
                largest,
                bound,
                why,
            }) => {
                println!("WITHIN {name}: largest difference {largest:e} (bound {bound:e}: {why})")
            }
            Ok(Outcome::Differs(diffs)) => {
                all = false;
                println!("DIFFERS {name}: {}", diffs.join("; "));
            }
            Err(e) => {
                all = false;
                println!("FAILED {name}: {e}");
            }
        }
    }
    Ok(all)
}

/// How a job's outputs compare with what it expects.
enum Outcome {
    /// Bit for bit (or nothing asked).
    Same,
    /// Not bit for bit, but every float within the bound the job gives for this device
    /// (`within`: [{device, bound, relative, why}], for results OpenCL bounds or leaves to
    /// the device; `relative`, if there, the magnitude floor of a relative bound).
    Within {
        largest: f32,
        bound: f32,
        why: String,
    },
    /// The outputs that differ.
    Differs(Vec<String>),
}

/// The largest difference between the floats of `got` and `want` (relative to the larger
/// magnitude, or `floor` where that is smaller, when `relative` gives a floor); None where
/// they cannot be compared (lengths, one NaN).
fn largest_difference(got: &[u8], want: &[u8], relative: Option<f32>, f64s: bool) -> Option<f32> {
    if got.len() != want.len() {
        return None;
    }
    let size = if f64s { 8 } else { 4 };
    let f = |c: &[u8]| {
        if f64s {
            f64::from_le_bytes(c.try_into().expect("8 bytes"))
        } else {
            f64::from(f32::from_le_bytes(c.try_into().expect("4 bytes")))
        }
    };
    let relative = relative.map(f64::from);
    let mut largest = 0f64;
    for (a, b) in got.chunks_exact(size).zip(want.chunks_exact(size)) {
        let (a, b) = (f(a), f(b));
        // Equal values (infinities too) and two NaNs agree.
        if a == b || (a.is_nan() && b.is_nan()) {
            continue;
        }
        let mut d = (a - b).abs();
        if let (Some(floor), true) = (relative, d > 0.0) {
            d /= a.abs().max(b.abs()).max(floor);
        }
        if d.is_nan() {
            return None;
        }
        largest = largest.max(d);
    }
    Some(largest as f32)
}

/// Run one job and compare its outputs with `expect`.
fn run_job(dev: &Device, dir: &Path, job: &Value) -> R<Outcome> {
    let at = |k: &str| -> R<PathBuf> {
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
        .ok_or("`kernel` is not a name")?;
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
        .find(|k| k.get("name").and_then(Value::as_str) == Some(kernel_name))
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
    let mut push = vec![0u8; pc_size.max(4)];
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
    let job_args = field(job, "args")?
        .as_array()
        .ok_or("`args` is not a list")?;
    let mut buffers: Vec<(Buffer, Option<String>, usize)> = Vec::new();
    // (set, binding) -> descriptor type and the index of its buffer in `buffers`, or POD
    // bytes still to be made into one.
    let mut bound: std::collections::BTreeMap<(u32, u32), (vk::DescriptorType, usize)> =
        Default::default();
    let mut pods: std::collections::BTreeMap<(u32, u32), (vk::DescriptorType, Vec<u8>)> =
        Default::default();
    // Images (with where their texels go afterwards) and samplers, bound by (set, binding).
    let mut images: Vec<(images::Image, Option<String>)> = Vec::new();
    let mut samplers: Vec<vk::Sampler> = Vec::new();
    let mut views: Vec<vk::BufferView> = Vec::new();
    let mut handles: std::collections::BTreeMap<(u32, u32), (vk::DescriptorType, Resource)> =
        Default::default();
    let key_of =
        |a: &Value| -> R<(u32, u32)> { Ok((num(a, "set")? as u32, num(a, "binding")? as u32)) };
    for l in reflection
        .get("literal_samplers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let s = dev.sampler(num(l, "mask")? as u32)?;
        samplers.push(s);
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
        let b = dev.buffer(&bytes)?;
        match p.get("push_constant") {
            Some(at) => {
                let off = num(at, "offset")? as usize;
                push[off..off + 8].copy_from_slice(&b.address.to_le_bytes());
                buffers.push((b, None, bytes.len()));
            }
            None => {
                buffers.push((b, None, bytes.len()));
                bound.insert(
                    key_of(p)?,
                    (vk::DescriptorType::STORAGE_BUFFER, buffers.len() - 1),
                );
            }
        }
    }
    // The printf buffer, zeroed (word 0 counts the words written), where the kernel prints.
    let mut printf_buffer = None;
    let prints = kernel.get("may_use_printf").and_then(Value::as_bool) == Some(true);
    if let Some(p) = reflection.get("printf").filter(|p| prints && !p.is_null()) {
        let size = num(p, "buffer_size")? as usize;
        buffers.push((dev.buffer(&vec![0u8; size])?, None, size));
        bound.insert(
            key_of(p)?,
            (vk::DescriptorType::STORAGE_BUFFER, buffers.len() - 1),
        );
        printf_buffer = Some((buffers.len() - 1, p));
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
                let b = job_buffer(dev, dir, given)?;
                let off = num(a, "offset")? as usize;
                push[off..off + 8].copy_from_slice(&b.0.address.to_le_bytes());
                buffers.push(b);
            }
            "pod_push_constant" => {
                let bytes = pod_bytes(given)?;
                let off = num(a, "offset")? as usize;
                let size = num(a, "size")? as usize;
                let n = bytes.len().min(size);
                push[off..off + n].copy_from_slice(&bytes[..n]);
            }
            "storage_buffer" => {
                buffers.push(job_buffer(dev, dir, given)?);
                let key = (num(a, "set")? as u32, num(a, "binding")? as u32);
                bound.insert(key, (vk::DescriptorType::STORAGE_BUFFER, buffers.len() - 1));
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
                let img = dev.image(dir, given)?;
                let ty = if kind == "sampled_image" {
                    vk::DescriptorType::SAMPLED_IMAGE
                } else {
                    vk::DescriptorType::STORAGE_IMAGE
                };
                handles.insert(key_of(a)?, (ty, Resource::Image(img.view)));
                channel_words(a, given, &mut push)?;
                images.push((img, output_name(given)));
            }
            "uniform_texel_buffer" | "storage_texel_buffer" => {
                let (b, view, len) = dev.texel_buffer(dir, given)?;
                let ty = if kind == "uniform_texel_buffer" {
                    vk::DescriptorType::UNIFORM_TEXEL_BUFFER
                } else {
                    vk::DescriptorType::STORAGE_TEXEL_BUFFER
                };
                handles.insert(key_of(a)?, (ty, Resource::TexelBuffer(view)));
                channel_words(a, given, &mut push)?;
                buffers.push((b, output_name(given), len));
                views.push(view);
            }
            "sampler" => {
                let mask = images::job_sampler_mask(given)?;
                let s = dev.sampler(mask)?;
                samplers.push(s);
                handles.insert(
                    key_of(a)?,
                    (vk::DescriptorType::SAMPLER, Resource::Sampler(s)),
                );
                let at = field(a, "normalized_mask")?;
                let off = num(at, "offset")? as usize;
                push[off..off + 4].copy_from_slice(&mask.to_le_bytes());
            }
            "workgroup" => {
                let bytes = num(given, "local_bytes")?;
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
        let b = dev.buffer(&bytes)?;
        buffers.push((b, None, bytes.len()));
        bound.insert(key, (ty, buffers.len() - 1));
    }
    let mut sets: Vec<(u32, vk::DescriptorType, Resource, u32)> = bound
        .iter()
        .map(|(&(set, binding), &(ty, i))| {
            (set, ty, Resource::Buffer(buffers[i].0.buffer), binding)
        })
        .collect();
    sets.extend(
        handles
            .iter()
            .map(|(&(set, binding), &(ty, r))| (set, ty, r, binding)),
    );
    let result = dispatch(
        dev,
        &spv,
        kernel_name,
        &push,
        pc_size,
        &specs,
        &sets,
        global,
        local,
    );
    let mut diffs = Vec::new();
    // The differing outputs' bytes: (got, wanted, whether they are doubles).
    let mut differing: Vec<(Vec<u8>, Vec<u8>, bool)> = Vec::new();
    let f64_outputs: Vec<&str> = job
        .get("f64_outputs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if result.is_ok() {
        for (b, out, len) in &buffers {
            if let Some(out) = out {
                let bytes = dev.read(b, *len);
                std::fs::write(dir.join(out), &bytes).map_err(|e| format!("{out}: {e}"))?;
                if let Some(exp) = job.get("expect").and_then(|e| e.get(out.as_str())) {
                    let exp = dir.join(exp.as_str().unwrap_or_default());
                    let want =
                        std::fs::read(&exp).map_err(|e| format!("{}: {e}", exp.display()))?;
                    if want != bytes {
                        let first = want.iter().zip(&bytes).position(|(a, b)| a != b);
                        diffs.push(format!("{out} differs (first at byte {first:?})"));
                        differing.push((bytes.clone(), want, f64_outputs.contains(&out.as_str())));
                    }
                }
            }
        }
    }
    if result.is_ok() {
        for (img, out) in &images {
            let Some(out) = out else { continue };
            let bytes = dev.read_image(img)?;
            std::fs::write(dir.join(out), &bytes).map_err(|e| format!("{out}: {e}"))?;
            if let Some(exp) = job.get("expect").and_then(|e| e.get(out.as_str())) {
                let exp = dir.join(exp.as_str().unwrap_or_default());
                let want = std::fs::read(&exp).map_err(|e| format!("{}: {e}", exp.display()))?;
                if want != bytes {
                    let first = want.iter().zip(&bytes).position(|(a, b)| a != b);
                    diffs.push(format!("{out} differs (first at byte {first:?})"));
                    differing.push((bytes.clone(), want, false));
                }
            }
        }
    }
    if let (Ok(()), Some(printed)) = (&result, job.get("printed").filter(|p| !p.is_null())) {
        let text = match printf_buffer {
            Some((i, p)) => printf::print(&dev.read(&buffers[i].0, buffers[i].2), p)?,
            None => String::new(),
        };
        let mut lines: Vec<&str> = text.lines().collect();
        lines.sort_unstable();
        let got = lines.join("\n");
        let out = field(printed, "output")?.as_str().unwrap_or_default();
        std::fs::write(dir.join(out), &got).map_err(|e| format!("{out}: {e}"))?;
        let exp = dir.join(field(printed, "expected")?.as_str().unwrap_or_default());
        let want = std::fs::read(&exp).map_err(|e| format!("{}: {e}", exp.display()))?;
        if want != got.as_bytes() {
            let want = String::from_utf8_lossy(&want);
            let line = want
                .lines()
                .zip(got.lines())
                .find(|(a, b)| a != b)
                .map_or_else(
                    || {
                        format!(
                            "{} lines, expected {}",
                            got.lines().count(),
                            want.lines().count()
                        )
                    },
                    |(a, b)| format!("{b:?}, expected {a:?}"),
                );
            diffs.push(format!("{out} differs: {line}"));
        }
    }
    for (b, _, _) in buffers {
        dev.free(b);
    }
    for (img, _) in images {
        dev.free_image(img);
    }
    for s in samplers {
        unsafe { dev.device.destroy_sampler(s, None) };
    }
    for v in views {
        unsafe { dev.device.destroy_buffer_view(v, None) };
    }
    result?;
    if diffs.is_empty() {
        return Ok(Outcome::Same);
    }
    // A bound this job allows on this device.
    let allowed = job
        .get("within")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|w| {
            w.get("device")
                .and_then(Value::as_str)
                .is_some_and(|d| dev.gpu.name.contains(d))
        });
    if let Some(w) = allowed {
        let bound = w.get("bound").and_then(Value::as_f64).unwrap_or(0.0) as f32;
        // `relative`: the magnitude below which a difference counts as absolute.
        let relative = w.get("relative").and_then(Value::as_f64).map(|f| f as f32);
        let largest = differing
            .iter()
            .map(|(got, want, f64s)| largest_difference(got, want, relative, *f64s))
            .try_fold(0f32, |m, d| d.map(|d| m.max(d)));
        if let Some(largest) = largest.filter(|&l| l <= bound) {
            let why = w
                .get("why")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            return Ok(Outcome::Within {
                largest,
                bound,
                why,
            });
        }
    }
    Ok(Outcome::Differs(diffs))
}

/// A buffer holding a job argument's file (`buffer`), and where its bytes go afterwards
/// (`output`).
fn job_buffer(dev: &Device, dir: &Path, given: &Value) -> R<(Buffer, Option<String>, usize)> {
    let path = dir.join(
        field(given, "buffer")?
            .as_str()
            .ok_or("`buffer` is not a path")?,
    );
    let data = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let b = dev.buffer(&data)?;
    let out = given
        .get("output")
        .and_then(Value::as_str)
        .map(String::from);
    Ok((b, out, data.len()))
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

#[allow(clippy::too_many_arguments)]
fn dispatch(
    dev: &Device,
    spv: &[u8],
    kernel: &str,
    push: &[u8],
    pc_size: usize,
    specs: &[(u32, u32)],
    // (set, descriptor type, what is bound, binding)
    bindings: &[(u32, vk::DescriptorType, Resource, u32)],
    global: [u32; 3],
    local: [u32; 3],
) -> R<()> {
    let d = &dev.device;
    if !spv.len().is_multiple_of(4) {
        return Err("the module is not whole words".into());
    }
    let words: Vec<u32> = spv
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    for i in 0..3 {
        if local[i] == 0 || !global[i].is_multiple_of(local[i]) {
            return Err(format!(
                "global size {global:?} is not a multiple of local size {local:?}"
            ));
        }
    }
    let module = unsafe {
        d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)
    }
    .map_err(vkerr("vkCreateShaderModule"))?;
    let ranges = [vk::PushConstantRange::default()
        .stage_flags(vk::ShaderStageFlags::COMPUTE)
        .offset(0)
        .size(pc_size.max(4) as u32)];
    // One set layout per set number up to the highest used (empty ones between).
    let nsets = bindings.iter().map(|b| b.0 + 1).max().unwrap_or(0);
    let mut set_layouts = Vec::new();
    for set in 0..nsets {
        let lb: Vec<vk::DescriptorSetLayoutBinding> = bindings
            .iter()
            .filter(|b| b.0 == set)
            .map(|b| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b.3)
                    .descriptor_type(b.1)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let l = unsafe {
            d.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&lb),
                None,
            )
        }
        .map_err(vkerr("vkCreateDescriptorSetLayout"))?;
        set_layouts.push(l);
    }
    let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
    if pc_size > 0 {
        layout_info = layout_info.push_constant_ranges(&ranges);
    }
    let layout = unsafe { d.create_pipeline_layout(&layout_info, None) }
        .map_err(vkerr("vkCreatePipelineLayout"))?;
    let entries: Vec<vk::SpecializationMapEntry> = specs
        .iter()
        .enumerate()
        .map(|(i, &(id, _))| {
            vk::SpecializationMapEntry::default()
                .constant_id(id)
                .offset(4 * i as u32)
                .size(4)
        })
        .collect();
    let data: Vec<u8> = specs.iter().flat_map(|&(_, v)| v.to_le_bytes()).collect();
    let spec = vk::SpecializationInfo::default()
        .map_entries(&entries)
        .data(&data);
    let name = std::ffi::CString::new(kernel).map_err(|_| "a kernel name with NUL")?;
    let stage = vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::COMPUTE)
        .module(module)
        .name(&name)
        .specialization_info(&spec);
    let pipe_info = [vk::ComputePipelineCreateInfo::default()
        .stage(stage)
        .layout(layout)];
    let pipeline =
        unsafe { d.create_compute_pipelines(vk::PipelineCache::null(), &pipe_info, None) }
            .map_err(|(_, e)| format!("vkCreateComputePipelines: {e:?}"))?[0];
    let groups = [0, 1, 2].map(|i| global[i] / local[i]);
    let mut dpool = vk::DescriptorPool::null();
    let mut sets = Vec::new();
    if nsets > 0 {
        let sizes = [
            vk::DescriptorType::STORAGE_BUFFER,
            vk::DescriptorType::UNIFORM_BUFFER,
            vk::DescriptorType::SAMPLED_IMAGE,
            vk::DescriptorType::STORAGE_IMAGE,
            vk::DescriptorType::SAMPLER,
            vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
            vk::DescriptorType::STORAGE_TEXEL_BUFFER,
        ]
        .map(|ty| {
            vk::DescriptorPoolSize::default()
                .ty(ty)
                .descriptor_count(bindings.len() as u32 + 1)
        });
        dpool = unsafe {
            d.create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(nsets)
                    .pool_sizes(&sizes),
                None,
            )
        }
        .map_err(vkerr("vkCreateDescriptorPool"))?;
        sets = unsafe {
            d.allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(dpool)
                    .set_layouts(&set_layouts),
            )
        }
        .map_err(vkerr("vkAllocateDescriptorSets"))?;
        let infos: Vec<[vk::DescriptorBufferInfo; 1]> = bindings
            .iter()
            .map(|b| {
                let buffer = match b.2 {
                    Resource::Buffer(x) => x,
                    _ => vk::Buffer::null(),
                };
                [vk::DescriptorBufferInfo::default()
                    .buffer(buffer)
                    .offset(0)
                    .range(vk::WHOLE_SIZE)]
            })
            .collect();
        let image_infos: Vec<[vk::DescriptorImageInfo; 1]> = bindings
            .iter()
            .map(|b| {
                let info = vk::DescriptorImageInfo::default();
                [match b.2 {
                    Resource::Image(view) => {
                        info.image_view(view).image_layout(vk::ImageLayout::GENERAL)
                    }
                    Resource::Sampler(s) => info.sampler(s),
                    Resource::Buffer(_) | Resource::TexelBuffer(_) => info,
                }]
            })
            .collect();
        let texel_views: Vec<[vk::BufferView; 1]> = bindings
            .iter()
            .map(|b| match b.2 {
                Resource::TexelBuffer(v) => [v],
                _ => [vk::BufferView::null()],
            })
            .collect();
        let writes: Vec<vk::WriteDescriptorSet> = bindings
            .iter()
            .zip(infos.iter().zip(image_infos.iter().zip(&texel_views)))
            .map(|(b, (info, (image_info, view)))| {
                let w = vk::WriteDescriptorSet::default()
                    .dst_set(sets[b.0 as usize])
                    .dst_binding(b.3)
                    .descriptor_type(b.1);
                match b.2 {
                    Resource::Buffer(_) => w.buffer_info(info),
                    Resource::TexelBuffer(_) => w.texel_buffer_view(view),
                    _ => w.image_info(image_info),
                }
            })
            .collect();
        unsafe { d.update_descriptor_sets(&writes, &[]) };
    }
    let ran = one_shot(dev, |cmd| unsafe {
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
        if !sets.is_empty() {
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, layout, 0, &sets, &[]);
        }
        if pc_size > 0 {
            d.cmd_push_constants(
                cmd,
                layout,
                vk::ShaderStageFlags::COMPUTE,
                0,
                &push[..pc_size],
            );
        }
        d.cmd_dispatch(cmd, groups[0], groups[1], groups[2]);
    });
    unsafe {
        d.destroy_pipeline(pipeline, None);
        d.destroy_pipeline_layout(layout, None);
        if dpool != vk::DescriptorPool::null() {
            d.destroy_descriptor_pool(dpool, None);
        }
        for l in set_layouts {
            d.destroy_descriptor_set_layout(l, None);
        }
        d.destroy_shader_module(module, None);
    }
    ran
}

/// Run `record` in a command buffer of its own and wait for it.
fn one_shot(dev: &Device, record: impl FnOnce(vk::CommandBuffer)) -> R<()> {
    let d = &dev.device;
    unsafe {
        let pool = d
            .create_command_pool(
                &vk::CommandPoolCreateInfo::default().queue_family_index(dev.family),
                None,
            )
            .map_err(vkerr("vkCreateCommandPool"))?;
        let cmd = d
            .allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(pool)
                    .command_buffer_count(1),
            )
            .map_err(vkerr("vkAllocateCommandBuffers"))?[0];
        d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .map_err(vkerr("vkBeginCommandBuffer"))?;
        record(cmd);
        d.end_command_buffer(cmd)
            .map_err(vkerr("vkEndCommandBuffer"))?;
        let cmds = [cmd];
        let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
        let fence = d
            .create_fence(&vk::FenceCreateInfo::default(), None)
            .map_err(vkerr("vkCreateFence"))?;
        d.queue_submit(dev.queue, &submit, fence)
            .map_err(vkerr("vkQueueSubmit"))?;
        let waited = d.wait_for_fences(&[fence], true, 60_000_000_000);
        d.destroy_fence(fence, None);
        d.destroy_command_pool(pool, None);
        waited.map_err(vkerr("vkWaitForFences"))?;
    }
    Ok(())
}
