//! Images and samplers for a job: an OpenCL image argument (its bytes, OpenCL's channel
//! data type and image type) becomes a Vulkan image in the General layout with a view,
//! filled from a staging buffer and read back the same way after the dispatch. Samplers
//! are made from OpenCL's sampler bits, as clvk makes them: literal samplers as their bits
//! say, and a sampler argument with normalized coordinates where the kernel reads the
//! bits from its `normalized_mask` push-constant word (it normalizes OpenCL's unnormalized
//! coordinates itself), as its bits say otherwise.

use ash::vk;
use serde_json::Value;

use crate::{field, num, one_shot, vkerr, Buffer, Device, R};

pub struct Image {
    pub image: vk::Image,
    pub memory: vk::DeviceMemory,
    pub view: vk::ImageView,
    extent: vk::Extent3D,
    layers: u32,
    /// The bytes a readback gives.
    len: usize,
}

/// OpenCL's `CL_MEM_OBJECT_IMAGE*`: Vulkan's image type, view type and whether arrayed.
fn image_kind(cl_type: u64) -> R<(vk::ImageType, vk::ImageViewType)> {
    Ok(match cl_type {
        0x10F4 => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D),
        0x10F5 => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D_ARRAY),
        0x10F1 => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D),
        0x10F3 => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D_ARRAY),
        0x10F2 => (vk::ImageType::TYPE_3D, vk::ImageViewType::TYPE_3D),
        other => return Err(format!("image type {other:#x} is not supported by vkhost")),
    })
}

/// OpenCL's image format of job argument `given` (its channel order and data type) as a
/// Vulkan format: RGBA of four types, and CL_DEPTH of floats (one channel).
fn format(given: &Value) -> R<vk::Format> {
    let data_type = num(given, "data_type")?;
    if num(given, "order")? == 0x10BD {
        return match data_type {
            0x10DE => Ok(vk::Format::R32_SFLOAT),
            other => Err(format!(
                "depth data type {other:#x} is not supported by vkhost"
            )),
        };
    }
    Ok(match data_type {
        0x10DE => vk::Format::R32G32B32A32_SFLOAT,
        0x10D9 => vk::Format::R32G32B32A32_SINT,
        0x10DC => vk::Format::R32G32B32A32_UINT,
        0x10D2 => vk::Format::R8G8B8A8_UNORM,
        other => {
            return Err(format!(
                "channel data type {other:#x} is not supported by vkhost"
            ))
        }
    })
}

fn range() -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange::default()
        .aspect_mask(vk::ImageAspectFlags::COLOR)
        .level_count(1)
        .layer_count(vk::REMAINING_ARRAY_LAYERS)
}

/// Every access before, every access after: the General layout throughout.
fn barrier(dev: &Device, cmd: vk::CommandBuffer, image: vk::Image, from: vk::ImageLayout) {
    let b = [vk::ImageMemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::MEMORY_WRITE)
        .dst_access_mask(vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE)
        .old_layout(from)
        .new_layout(vk::ImageLayout::GENERAL)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(range())];
    unsafe {
        dev.device.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &b,
        )
    };
}

fn copy_region(img: &Image) -> vk::BufferImageCopy {
    vk::BufferImageCopy::default()
        .image_subresource(
            vk::ImageSubresourceLayers::default()
                .aspect_mask(vk::ImageAspectFlags::COLOR)
                .layer_count(img.layers),
        )
        .image_extent(img.extent)
}

impl Device {
    /// An `image1d_buffer_t` argument: a buffer holding job argument `given`'s texels and a
    /// view of it in their format (bound as a uniform or a storage texel buffer).
    /// Also the texels' length in bytes.
    pub fn texel_buffer(&self, data: &[u8], given: &Value) -> R<(Buffer, vk::BufferView, usize)> {
        if num(given, "cl_type")? != 0x10F6 {
            return Err("a texel buffer argument given an image that is not a 1D buffer".into());
        }
        let fmt = format(given)?;
        let b = self.buffer(data)?;
        let view = unsafe {
            self.device.create_buffer_view(
                &vk::BufferViewCreateInfo::default()
                    .buffer(b.buffer)
                    .format(fmt)
                    .offset(0)
                    .range(data.len() as u64),
                None,
            )
        };
        match view {
            Ok(v) => Ok((b, v, data.len())),
            Err(e) => {
                self.free(b);
                Err(vkerr("vkCreateBufferView")(e))
            }
        }
    }

    /// An image of job argument `given`'s kind holding `data`.
    pub fn image(&self, data: &[u8], given: &Value) -> R<Image> {
        let d = &self.device;
        let fmt = format(given)?;
        let (ty, view_ty) = image_kind(num(given, "cl_type")?)?;
        let size = crate::dims(field(given, "dims")?)?;
        let layers = num(given, "array").unwrap_or(0).max(1) as u32;
        let extent = vk::Extent3D {
            width: size[0],
            height: if ty == vk::ImageType::TYPE_1D {
                1
            } else {
                size[1]
            },
            depth: if ty == vk::ImageType::TYPE_3D {
                size[2]
            } else {
                1
            },
        };
        let info = vk::ImageCreateInfo::default()
            .image_type(ty)
            .format(fmt)
            .extent(extent)
            .mip_levels(1)
            .array_layers(layers)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(
                vk::ImageUsageFlags::SAMPLED
                    | vk::ImageUsageFlags::STORAGE
                    | vk::ImageUsageFlags::TRANSFER_SRC
                    | vk::ImageUsageFlags::TRANSFER_DST,
            )
            .initial_layout(vk::ImageLayout::UNDEFINED);
        let image = unsafe { d.create_image(&info, None) }.map_err(vkerr("vkCreateImage"))?;
        let req = unsafe { d.get_image_memory_requirements(image) };
        // Device-local memory where the device has it for images (a GPU's first allowed
        // type may be the host's memory, which a kernel reads at the bus's speed).
        let allowed = |t: &u32| req.memory_type_bits & (1 << t) != 0;
        let local = |t: &u32| {
            self.memory.memory_types[*t as usize]
                .property_flags
                .contains(vk::MemoryPropertyFlags::DEVICE_LOCAL)
        };
        let index = (0..self.memory.memory_type_count)
            .filter(allowed)
            .find(local)
            .or_else(|| (0..self.memory.memory_type_count).find(allowed))
            .ok_or("no memory for an image")?;
        let memory = unsafe {
            d.allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(req.size)
                    .memory_type_index(index),
                None,
            )
        }
        .map_err(vkerr("vkAllocateMemory"))?;
        unsafe { d.bind_image_memory(image, memory, 0) }.map_err(vkerr("vkBindImageMemory"))?;
        let view = unsafe {
            d.create_image_view(
                &vk::ImageViewCreateInfo::default()
                    .image(image)
                    .view_type(view_ty)
                    .format(fmt)
                    .subresource_range(range()),
                None,
            )
        }
        .map_err(vkerr("vkCreateImageView"))?;
        let img = Image {
            image,
            memory,
            view,
            extent,
            layers,
            len: data.len(),
        };
        let staging = self.staging(data)?;
        let region = [copy_region(&img)];
        let r = one_shot(self, |cmd| unsafe {
            barrier(self, cmd, image, vk::ImageLayout::UNDEFINED);
            d.cmd_copy_buffer_to_image(
                cmd,
                staging.buffer,
                image,
                vk::ImageLayout::GENERAL,
                &region,
            );
            barrier(self, cmd, image, vk::ImageLayout::GENERAL);
        });
        self.free(staging);
        r.map(|()| img)
    }

    /// An image's texels, rows packed, as OpenCL reads them back.
    pub fn read_image(&self, img: &Image) -> R<Vec<u8>> {
        let staging: Buffer = self.staging(&vec![0u8; img.len])?;
        let region = [copy_region(img)];
        let r = one_shot(self, |cmd| unsafe {
            barrier(self, cmd, img.image, vk::ImageLayout::GENERAL);
            self.device.cmd_copy_image_to_buffer(
                cmd,
                img.image,
                vk::ImageLayout::GENERAL,
                staging.buffer,
                &region,
            );
        });
        let out = self.read(&staging, img.len)?;
        self.free(staging);
        r.map(|()| out)
    }

    pub fn free_image(&self, img: Image) {
        unsafe {
            self.device.destroy_image_view(img.view, None);
            self.device.destroy_image(img.image, None);
            self.device.free_memory(img.memory, None);
        }
    }

    /// A sampler for OpenCL's sampler bits (CLK_ADDRESS_* in bits 1-3, CLK_FILTER_* 0x10 /
    /// 0x20), with normalized coordinates, or where `as_masked` with the coordinates the
    /// bits say (bit 0; a module that does not normalize OpenCL's coordinates itself, as
    /// clspv's).
    /// A sampler of OpenCL's bits `mask`; `normalized`: of normalized coordinates whatever
    /// the bits say.
    pub fn sampler(&self, mask: u32, normalized: bool) -> R<vk::Sampler> {
        let mode = match mask & 0xe {
            4 => vk::SamplerAddressMode::CLAMP_TO_BORDER,
            6 => vk::SamplerAddressMode::REPEAT,
            8 => vk::SamplerAddressMode::MIRRORED_REPEAT,
            // CLK_ADDRESS_NONE leaves reads outside the image undefined.
            _ => vk::SamplerAddressMode::CLAMP_TO_EDGE,
        };
        let filter = if mask & 0x20 != 0 {
            vk::Filter::LINEAR
        } else {
            vk::Filter::NEAREST
        };
        let info = vk::SamplerCreateInfo::default()
            .mag_filter(filter)
            .min_filter(filter)
            .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
            .address_mode_u(mode)
            .address_mode_v(mode)
            .address_mode_w(mode)
            .border_color(vk::BorderColor::FLOAT_TRANSPARENT_BLACK)
            .unnormalized_coordinates(!normalized && mask & 1 == 0);
        unsafe { self.device.create_sampler(&info, None) }.map_err(vkerr("vkCreateSampler"))
    }
}

/// OpenCL's sampler bits for a job's sampler argument (`addressing` 0x1130 + n as the
/// OpenCL host API spells it, `filter` 0x1140 / 0x1141, `normalized`).
pub fn job_sampler_mask(given: &Value) -> R<u32> {
    let s = field(given, "sampler")?;
    let addressing = (num(s, "addressing")? as u32).saturating_sub(0x1130);
    let filter = if num(s, "filter")? == 0x1141 {
        0x20
    } else {
        0x10
    };
    let normalized = s
        .get("normalized")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Ok((addressing * 2) | filter | normalized as u32)
}
