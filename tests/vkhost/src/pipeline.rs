//! A kernel's compute pipeline with its descriptor sets bound to a job's resources, recorded
//! into command buffers once (a test job) or many times (a benchmark); a job's dispatches
//! in order (`Dispatches`).

use ash::vk;

use crate::{vkerr, Device, Resource, R};

/// A (set, descriptor type, what is bound, binding) quadruple.
pub type Binding = (u32, vk::DescriptorType, Resource, u32);

/// A job's pipelines, dispatched in order, each after the memory the one before wrote.
#[derive(Default)]
pub struct Dispatches(pub Vec<Pipeline>);

impl Dispatches {
    /// Record every dispatch, with a barrier between each and the next.
    pub fn record(&self, dev: &Device, cmd: vk::CommandBuffer) {
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                full_barrier(dev, cmd);
            }
            p.record(dev, cmd);
        }
    }

    pub fn destroy(self, dev: &Device) {
        for p in self.0 {
            p.destroy(dev);
        }
    }
}

/// Every memory write before it is seen by every access after it (compute and transfer).
pub fn full_barrier(dev: &Device, cmd: vk::CommandBuffer) {
    let barrier = [vk::MemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::MEMORY_WRITE)
        .dst_access_mask(vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE)];
    unsafe {
        dev.device.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::DependencyFlags::empty(),
            &barrier,
            &[],
            &[],
        )
    };
}

pub struct Pipeline {
    module: vk::ShaderModule,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    dpool: vk::DescriptorPool,
    sets: Vec<vk::DescriptorSet>,
    push: Vec<u8>,
    groups: [u32; 3],
}

impl Pipeline {
    /// The pipeline of `kernel` in `spv`, specialized by `specs` ((id, value) pairs), its
    /// push constants `push` (`pc_size` of them used) and `bindings` bound.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        dev: &Device,
        spv: &[u8],
        kernel: &str,
        push: &[u8],
        pc_size: usize,
        specs: &[(u32, u32)],
        bindings: &[Binding],
        global: [u32; 3],
        local: [u32; 3],
    ) -> R<Pipeline> {
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
        let mut p = Pipeline {
            module,
            set_layouts: Vec::new(),
            layout: vk::PipelineLayout::null(),
            pipeline: vk::Pipeline::null(),
            dpool: vk::DescriptorPool::null(),
            sets: Vec::new(),
            push: push[..pc_size].to_vec(),
            groups: [0, 1, 2].map(|i| global[i] / local[i]),
        };
        match p.build(dev, kernel, pc_size, specs, bindings) {
            Ok(()) => Ok(p),
            Err(e) => {
                p.destroy(dev);
                Err(e)
            }
        }
    }

    fn build(
        &mut self,
        dev: &Device,
        kernel: &str,
        pc_size: usize,
        specs: &[(u32, u32)],
        bindings: &[Binding],
    ) -> R<()> {
        let d = &dev.device;
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .offset(0)
            .size(pc_size.max(4) as u32)];
        // One set layout per set number up to the highest used (empty ones between).
        let nsets = bindings.iter().map(|b| b.0 + 1).max().unwrap_or(0);
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
            self.set_layouts.push(l);
        }
        let mut layout_info =
            vk::PipelineLayoutCreateInfo::default().set_layouts(&self.set_layouts);
        if pc_size > 0 {
            layout_info = layout_info.push_constant_ranges(&ranges);
        }
        self.layout = unsafe { d.create_pipeline_layout(&layout_info, None) }
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
            .module(self.module)
            .name(&name)
            .specialization_info(&spec);
        let pipe_info = [vk::ComputePipelineCreateInfo::default()
            .flags(crate::stats::capture_flags(dev))
            .stage(stage)
            .layout(self.layout)];
        self.pipeline =
            unsafe { d.create_compute_pipelines(vk::PipelineCache::null(), &pipe_info, None) }
                .map_err(|(_, e)| format!("vkCreateComputePipelines: {e:?}"))?[0];
        if nsets > 0 {
            self.bind_sets(dev, nsets, bindings)?;
        }
        Ok(())
    }

    fn bind_sets(&mut self, dev: &Device, nsets: u32, bindings: &[Binding]) -> R<()> {
        let d = &dev.device;
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
        self.dpool = unsafe {
            d.create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(nsets)
                    .pool_sizes(&sizes),
                None,
            )
        }
        .map_err(vkerr("vkCreateDescriptorPool"))?;
        self.sets = unsafe {
            d.allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(self.dpool)
                    .set_layouts(&self.set_layouts),
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
                    .dst_set(self.sets[b.0 as usize])
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
        Ok(())
    }

    /// Record one dispatch of the kernel (its pipeline, sets and push constants bound).
    pub fn record(&self, dev: &Device, cmd: vk::CommandBuffer) {
        let d = &dev.device;
        unsafe {
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            if !self.sets.is_empty() {
                d.cmd_bind_descriptor_sets(
                    cmd,
                    vk::PipelineBindPoint::COMPUTE,
                    self.layout,
                    0,
                    &self.sets,
                    &[],
                );
            }
            if !self.push.is_empty() {
                d.cmd_push_constants(
                    cmd,
                    self.layout,
                    vk::ShaderStageFlags::COMPUTE,
                    0,
                    &self.push,
                );
            }
            d.cmd_dispatch(cmd, self.groups[0], self.groups[1], self.groups[2]);
        }
    }

    /// The driver's pipeline object (what src/stats.rs asks about).
    pub fn handle(&self) -> vk::Pipeline {
        self.pipeline
    }

    pub fn destroy(self, dev: &Device) {
        let d = &dev.device;
        unsafe {
            if self.pipeline != vk::Pipeline::null() {
                d.destroy_pipeline(self.pipeline, None);
            }
            if self.layout != vk::PipelineLayout::null() {
                d.destroy_pipeline_layout(self.layout, None);
            }
            if self.dpool != vk::DescriptorPool::null() {
                d.destroy_descriptor_pool(self.dpool, None);
            }
            for l in self.set_layouts {
                d.destroy_descriptor_set_layout(l, None);
            }
            d.destroy_shader_module(self.module, None);
        }
    }
}
