//! The Vulkan execution tier's host. It runs kernels of a Vulkan module the way the module's
//! own reflection (its `NonSemantic.ClspvReflection` instructions, src/reflect.rs) says
//! their arguments arrive, as clvk does, knowing nothing of the producer, and writes the
//! bytes of the buffers it was asked to read back. Tests drive it (tests/exec_vulkan); it
//! is its own crate, without LLVM, so it can be carried alone to a machine with a GPU.
//!
//! ```text
//! vkhost JOB.json          run every job of a job file
//! vkhost --bench BENCH.json RESULTS.json
//!                          time kernels of several producers (src/bench.rs)
//! vkhost --reflect M.spv   print the interface M.spv's reflection describes, as JSON
//! vkhost --devices         list the Vulkan devices
//! ```
//!
//! A job file holds `{"jobs": [JOB, ...]}`, each job one kernel:
//!
//! ```json
//! {"spv": "k.spv", "kernel": "vector_add",
//!  "global": [64, 1, 1], "local": [16, 1, 1], "offset": [0, 0, 0],
//!  "args": [{"buffer": "a.bin"}, {"buffer": "c.bin", "output": "c.out"},
//!           {"bytes": [1, 0, 0, 0]}, {"local_bytes": 256}],
//!  "expect": {"c.out": "c.expected"}}
//! ```
//!
//! or a program of several dispatches over shared objects, in order (src/job.rs):
//! `{"spv": ..., "objects": [OBJECT, ...], "steps": [{"kernel": ..., "global": ...,
//! "local": ..., "args": [OBJECT INDEX, ...]}, ...], "expect": ...}`.
//!
//! Buffers start with their file's bytes (or with values made here: `"fill"`, see
//! src/inputs.rs); `output` names where the bytes after the run go. The host binds every
//! argument kind clspv's reflection names that OpenCL C kernels use: device addresses and
//! values in push constants, storage buffers, values in a storage or uniform buffer
//! (arguments sharing a binding share one buffer), images, texel buffers, samplers,
//! `__local` sizes; it writes the global offset where the module says, in every kernel's
//! push constants, and sets the work-group size specialization constants for kernels
//! without a required size only (a required size must hold without them).
//! A kernel that prints (`may_use_printf`, and the reflection's `printf`) gets a zeroed
//! printf buffer; the job's `printed: {"output": F, "expected": E}` names where the text it
//! printed goes (its lines sorted: work-items print in no fixed order) and what it must be.
//! `expect_also: [{"as": WHAT, "expect": {...}}]` are other whole sets of outputs the job
//! allows (its line then says `ok NAME (as WHAT)`).
//! With `expect`, the host compares them itself and says which differ (the mode a GPU
//! machine without the rest of the test suite runs). Exit 0 when every job ran (and matched),
//! 1 otherwise; each job prints one line.

use std::ffi::CStr;
use std::path::Path;

use ash::vk;
use serde_json::Value;

mod bench;
mod images;
mod inputs;
mod job;
mod pipeline;
mod printf;
mod reflect;
mod stats;

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
        Some("--reflect") => match args.get(2) {
            Some(file) => print_reflection(Path::new(file)),
            None => Err("usage: vkhost --reflect MODULE.spv".into()),
        },
        Some("--bench") => match (args.get(2), args.get(3), args.get(4).map(String::as_str)) {
            (Some(file), Some(out), robust @ (None | Some("--robust"))) => {
                bench::run(Path::new(file), Path::new(out), robust.is_some())
            }
            _ => Err("usage: vkhost --bench BENCH.json RESULTS.json [--robust]".into()),
        },
        Some(job) => run_file(Path::new(job)),
        None => Err(
            "usage: vkhost JOB.json | vkhost --bench BENCH.json RESULTS.json | vkhost --devices"
                .into(),
        ),
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
    // What the device keeps of IEEE arithmetic where a module asks (SPIR-V's float
    // controls): without SignedZeroInfNanPreserve a compiler may assume no NaN, infinity
    // or signed zero.
    let mut fc = vk::PhysicalDeviceFloatControlsProperties::default();
    let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut fc);
    unsafe {
        g.instance
            .get_physical_device_properties2(g.physical, &mut p2)
    };
    let yes = |b: vk::Bool32| if b != 0 { "yes" } else { "no" };
    println!(
        "float controls: SignedZeroInfNanPreserve 16/32/64 {}/{}/{}, DenormPreserve \
         16/32/64 {}/{}/{}",
        yes(fc.shader_signed_zero_inf_nan_preserve_float16),
        yes(fc.shader_signed_zero_inf_nan_preserve_float32),
        yes(fc.shader_signed_zero_inf_nan_preserve_float64),
        yes(fc.shader_denorm_preserve_float16),
        yes(fc.shader_denorm_preserve_float32),
        yes(fc.shader_denorm_preserve_float64),
    );
    Ok(true)
}

/// Print the interface module `path`'s reflection describes (src/reflect.rs).
fn print_reflection(path: &Path) -> R<bool> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let r = reflect::read(&words)?;
    println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default());
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
    /// Buffers live in device-local memory (the benchmark), not in mapped memory.
    device_local: bool,
    /// Nanoseconds per timestamp tick, and the queue's timestamp bits (0: none).
    timestamp_period: f32,
    timestamp_bits: u32,
    /// The size of the device's sub-groups in compute (VkPhysicalDeviceSubgroupProperties).
    subgroup_size: u32,
    /// The driver's statistics of the pipelines it builds, where it offers them and the
    /// benchmark asks (src/stats.rs).
    executables: Option<ash::khr::pipeline_executable_properties::Device>,
}

fn open_device(device_local: bool) -> R<Device> {
    open_device_with(device_local, false)
}

/// `open_device`, with `robustBufferAccess` enabled where `robust` and the device has it
/// (an application may choose it; the benchmark measures both).
fn open_device_with(device_local: bool, robust: bool) -> R<Device> {
    let gpu = open_instance()?;
    let i = &gpu.instance;
    let api = unsafe { i.get_physical_device_properties(gpu.physical) }.api_version;
    let is_1_3 = api >= vk::make_api_version(0, 1, 3, 0);
    let mut f11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut f13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut f11)
        .push_next(&mut f12);
    if is_1_3 {
        f2 = f2.push_next(&mut f13);
    }
    unsafe { i.get_physical_device_features2(gpu.physical, &mut f2) };
    let base = f2.features;
    let mut enabled = Vec::new();
    let mut want = |on: u32, name: &'static str| {
        if on != 0 {
            enabled.push(name);
        }
        on
    };
    if robust && base.robust_buffer_access == 0 {
        return Err("the device has no robustBufferAccess".into());
    }
    let features = vk::PhysicalDeviceFeatures::default()
        .robust_buffer_access(robust && want(base.robust_buffer_access, "robustBufferAccess") != 0)
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
        .uniform_and_storage_buffer16_bit_access(
            want(
                f11.uniform_and_storage_buffer16_bit_access,
                "uniformAndStorageBuffer16BitAccess",
            ) != 0,
        )
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
        .storage_push_constant8(want(f12.storage_push_constant8, "storagePushConstant8") != 0)
        .uniform_and_storage_buffer8_bit_access(
            want(
                f12.uniform_and_storage_buffer8_bit_access,
                "uniformAndStorageBuffer8BitAccess",
            ) != 0,
        );
    // LocalSizeId (a module whose kernels fix different work-group sizes).
    let mut e13 = vk::PhysicalDeviceVulkan13Features::default()
        .maintenance4(is_1_3 && want(f13.maintenance4, "maintenance4") != 0);
    // The benchmark records what the driver's compiler says of each pipeline.
    let offered = unsafe { i.enumerate_device_extension_properties(gpu.physical) }
        .unwrap_or_default()
        .iter()
        .any(|e| e.extension_name_as_c_str() == Ok(stats::EXTENSION));
    let mut exe_features = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
    if device_local && offered {
        let mut f = vk::PhysicalDeviceFeatures2::default().push_next(&mut exe_features);
        unsafe { i.get_physical_device_features2(gpu.physical, &mut f) };
    }
    let capture = exe_features.pipeline_executable_info != 0;
    let extensions = [stats::EXTENSION.as_ptr()];
    let families = unsafe { i.get_physical_device_queue_family_properties(gpu.physical) };
    let family = families
        .iter()
        .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
        .ok_or("no compute queue")? as u32;
    let prio = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(family)
        .queue_priorities(&prio)];
    let mut info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_features(&features)
        .push_next(&mut e11)
        .push_next(&mut e12);
    if is_1_3 {
        info = info.push_next(&mut e13);
    }
    if capture {
        info = info
            .enabled_extension_names(&extensions)
            .push_next(&mut exe_features);
    }
    let device =
        unsafe { i.create_device(gpu.physical, &info, None) }.map_err(vkerr("vkCreateDevice"))?;
    let queue = unsafe { device.get_device_queue(family, 0) };
    let memory = unsafe { i.get_physical_device_memory_properties(gpu.physical) };
    let props = unsafe { i.get_physical_device_properties(gpu.physical) };
    let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
    let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut subgroup);
    unsafe { i.get_physical_device_properties2(gpu.physical, &mut props2) };
    let subgroup_size = subgroup.subgroup_size;
    let executables = capture
        .then(|| ash::khr::pipeline_executable_properties::Device::new(&gpu.instance, &device));
    Ok(Device {
        gpu,
        device,
        queue,
        family,
        memory,
        enabled,
        device_local,
        timestamp_period: props.limits.timestamp_period,
        timestamp_bits: families[family as usize].timestamp_valid_bits,
        subgroup_size,
        executables,
    })
}

/// A buffer the kernel reads and writes. On a host-visible device memory type where the
/// device has one that is also device-local (or where `device_local` is off), mapped;
/// otherwise in device-local memory, filled and read back through a staging buffer (the
/// benchmark's choice: the memory applications use).
struct Buffer {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    size: u64,
    address: u64,
    /// The mapped bytes (host-visible memory), or None.
    ptr: Option<*mut u8>,
}

impl Device {
    /// A buffer holding `data` (zeros after it, to a multiple of 16 bytes).
    fn buffer(&self, data: &[u8]) -> R<Buffer> {
        if !self.device_local {
            return self.staging(data);
        }
        let b = self.make_buffer(data.len(), vk::MemoryPropertyFlags::DEVICE_LOCAL, false)?;
        let staging = self.staging(data)?;
        let r = self.copy(&staging, &b);
        self.free(staging);
        match r {
            Ok(()) => Ok(b),
            Err(e) => {
                self.free(b);
                Err(e)
            }
        }
    }

    /// A host-visible, coherent buffer holding `data`.
    fn staging(&self, data: &[u8]) -> R<Buffer> {
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let b = self.make_buffer(data.len(), want, true)?;
        if let Some(ptr) = b.ptr {
            unsafe {
                std::ptr::write_bytes(ptr, 0, b.size as usize);
                std::ptr::copy_nonoverlapping(data.as_ptr(), ptr, data.len());
            }
        }
        Ok(b)
    }

    fn make_buffer(&self, len: usize, want: vk::MemoryPropertyFlags, map: bool) -> R<Buffer> {
        let d = &self.device;
        // Never empty, and room past the end for kernels that read a vector's padding.
        let size = (len as u64).max(16).div_ceil(16) * 16;
        let info = vk::BufferCreateInfo::default().size(size).usage(
            vk::BufferUsageFlags::STORAGE_BUFFER
                | vk::BufferUsageFlags::UNIFORM_BUFFER
                | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
                | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
                | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS
                | vk::BufferUsageFlags::TRANSFER_SRC
                | vk::BufferUsageFlags::TRANSFER_DST,
        );
        let buffer = unsafe { d.create_buffer(&info, None) }.map_err(vkerr("vkCreateBuffer"))?;
        let req = unsafe { d.get_buffer_memory_requirements(buffer) };
        let Some(index) = (0..self.memory.memory_type_count).find(|&t| {
            req.memory_type_bits & (1 << t) != 0
                && self.memory.memory_types[t as usize]
                    .property_flags
                    .contains(want)
        }) else {
            unsafe { d.destroy_buffer(buffer, None) };
            return Err(format!("no memory of the kind {want:?}"));
        };
        let mut flags =
            vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(index)
            .push_next(&mut flags);
        let memory = match unsafe { d.allocate_memory(&alloc, None) } {
            Ok(m) => m,
            Err(e) => {
                unsafe { d.destroy_buffer(buffer, None) };
                return Err(vkerr("vkAllocateMemory")(e));
            }
        };
        let mut b = Buffer {
            buffer,
            memory,
            size,
            address: 0,
            ptr: None,
        };
        let bound = unsafe { d.bind_buffer_memory(buffer, memory, 0) }
            .map_err(vkerr("vkBindBufferMemory"))
            .and_then(|()| {
                if map {
                    let p = unsafe { d.map_memory(memory, 0, size, vk::MemoryMapFlags::empty()) }
                        .map_err(vkerr("vkMapMemory"))?;
                    b.ptr = Some(p as *mut u8);
                }
                Ok(())
            });
        if let Err(e) = bound {
            self.free(b);
            return Err(e);
        }
        b.address = unsafe {
            d.get_buffer_device_address(&vk::BufferDeviceAddressInfo::default().buffer(buffer))
        };
        Ok(b)
    }

    /// Copy all of `from` into `to` (of the same size) and wait.
    fn copy(&self, from: &Buffer, to: &Buffer) -> R<()> {
        let region = [vk::BufferCopy::default().size(from.size.min(to.size))];
        one_shot(self, |cmd| unsafe {
            self.device
                .cmd_copy_buffer(cmd, from.buffer, to.buffer, &region)
        })
    }

    /// The first `len` bytes of `b`.
    fn read(&self, b: &Buffer, len: usize) -> R<Vec<u8>> {
        let len = len.min(b.size as usize);
        let Some(ptr) = b.ptr else {
            let host =
                vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
            let staging = self.make_buffer(b.size as usize, host, true)?;
            let r = self
                .copy(b, &staging)
                .and_then(|()| self.read(&staging, len));
            self.free(staging);
            return r;
        };
        let mut out = vec![0u8; len];
        unsafe { std::ptr::copy_nonoverlapping(ptr, out.as_mut_ptr(), len) };
        Ok(out)
    }

    fn free(&self, b: Buffer) {
        unsafe {
            if b.ptr.is_some() {
                self.device.unmap_memory(b.memory);
            }
            self.device.destroy_buffer(b.buffer, None);
            self.device.free_memory(b.memory, None);
        }
    }
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
    let dev = open_device(false)?;
    println!("device: {}", dev.gpu.name);
    // How the device splits a work-group into sub-groups (a kernel's results over a
    // sub-group depend on it; exec_vulkan compares them only where the reference agrees).
    println!("subgroup size: {}", dev.subgroup_size);
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
            Ok(Outcome::Same(None)) => println!("ok {name}"),
            Ok(Outcome::Same(Some(how))) => println!("ok {name} (as {how})"),
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
    /// Bit for bit (or nothing asked), with what it equals where not the job's `expect`.
    Same(Option<String>),
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
    let bound = job::bind(dev, dir, job)?;
    let result = bound.pipelines(dev).and_then(|p| {
        let r = one_shot(dev, |cmd| p.record(dev, cmd));
        p.destroy(dev);
        r
    });
    let compared = result.and_then(|()| compare_outputs(dev, dir, job, &bound));
    bound.free(dev);
    let (diffs, differing) = compared?;
    if diffs.is_empty() {
        return Ok(Outcome::Same(None));
    }
    // Another set of outputs the job allows (the source as OpenCL also lets a device build
    // it: without contraction, `mad` fused), whole.
    let alternatives: Vec<(&str, &serde_json::Map<String, Value>)> = job
        .get("expect_also")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|also| {
            let how = also.get("as").and_then(Value::as_str).unwrap_or("another");
            also.get("expect")
                .and_then(Value::as_object)
                .map(|s| (how, s))
        })
        .collect();
    for (how, set) in &alternatives {
        if all_equal(dir, set)? {
            return Ok(Outcome::Same(Some(how.to_string())));
        }
    }
    let f64_outputs: Vec<&str> = job
        .get("f64_outputs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
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
        let mut largest = differing
            .iter()
            .map(|(got, want, f64s)| largest_difference(got, want, relative, *f64s))
            .try_fold(0f32, |m, d| d.map(|d| m.max(d)));
        // Or within the bound of another set the job allows, whichever is nearer.
        for (_, set) in &alternatives {
            let mut l = Some(0f32);
            for (out, want) in set.iter() {
                let read = |p: &str| std::fs::read(dir.join(p)).map_err(|e| format!("{p}: {e}"));
                let (g, w) = (read(out)?, read(want.as_str().unwrap_or_default())?);
                let d = if g == w {
                    Some(0.0)
                } else {
                    largest_difference(&g, &w, relative, f64_outputs.contains(&out.as_str()))
                };
                l = l.zip(d).map(|(a, b)| a.max(b));
            }
            largest = match (largest, l) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
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

/// Whether every output written beside the job file (the keys of `set`) equals the file
/// `set` names for it.
fn all_equal(dir: &Path, set: &serde_json::Map<String, Value>) -> R<bool> {
    for (out, want) in set {
        let read = |p: &str| std::fs::read(dir.join(p)).map_err(|e| format!("{p}: {e}"));
        if read(out)? != read(want.as_str().unwrap_or_default())? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The outputs that differ from what the job expects, and their bytes: (got, wanted,
/// whether they are doubles). Each output is written beside the job file.
type Differences = (Vec<String>, Vec<(Vec<u8>, Vec<u8>, bool)>);

fn compare_outputs(dev: &Device, dir: &Path, job: &Value, bound: &job::Bound) -> R<Differences> {
    let mut diffs = Vec::new();
    let mut differing = Vec::new();
    let f64_outputs: Vec<&str> = job
        .get("f64_outputs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut outputs = Vec::new();
    for (b, out, len) in &bound.buffers {
        if let Some(out) = out {
            outputs.push((out, dev.read(b, *len)?));
        }
    }
    for (img, out) in &bound.images {
        if let Some(out) = out {
            outputs.push((out, dev.read_image(img)?));
        }
    }
    for (out, bytes) in outputs {
        std::fs::write(dir.join(out), &bytes).map_err(|e| format!("{out}: {e}"))?;
        if let Some(exp) = job.get("expect").and_then(|e| e.get(out.as_str())) {
            let exp = dir.join(exp.as_str().unwrap_or_default());
            let want = std::fs::read(&exp).map_err(|e| format!("{}: {e}", exp.display()))?;
            if want != bytes {
                let first = want.iter().zip(&bytes).position(|(a, b)| a != b);
                diffs.push(format!("{out} differs (first at byte {first:?})"));
                differing.push((bytes, want, f64_outputs.contains(&out.as_str())));
            }
        }
    }
    if let Some(printed) = job.get("printed").filter(|p| !p.is_null()) {
        let text = match &bound.printf {
            Some((i, p)) => {
                let (b, _, len) = &bound.buffers[*i];
                printf::print(&dev.read(b, *len)?, p)?
            }
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
    Ok((diffs, differing))
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
