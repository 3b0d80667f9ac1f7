//! What the driver's compiler says of a pipeline it built (VK_KHR_pipeline_executable_properties):
//! its statistics (registers, local and shared memory, binary size, as the driver names
//! them). The benchmark records them beside each producer's times: the driver's evidence of
//! what a module cost, where times alone only say that it did. (NVIDIA's driver offers no
//! internal representation of a compute pipeline, so none is asked for.)

use std::ffi::CStr;

use ash::vk;

use crate::Device;

/// The extension's name, enabled on the device where it is offered.
pub const EXTENSION: &CStr = vk::KHR_PIPELINE_EXECUTABLE_PROPERTIES_NAME;

/// The pipeline flags that ask the driver to keep what `read` reads.
pub fn capture_flags(dev: &Device) -> vk::PipelineCreateFlags {
    if dev.executables.is_some() {
        vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
    } else {
        vk::PipelineCreateFlags::empty()
    }
}

/// The statistics of every executable of `pipeline` as `name=value` pairs. Empty where the
/// device does not offer the extension.
pub fn read(dev: &Device, pipeline: vk::Pipeline) -> Vec<(String, String)> {
    let Some(ext) = &dev.executables else {
        return Vec::new();
    };
    let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
    let Ok(executables) = (unsafe { ext.get_pipeline_executable_properties(&info) }) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for index in 0..executables.len() as u32 {
        let exe = vk::PipelineExecutableInfoKHR::default()
            .pipeline(pipeline)
            .executable_index(index);
        for s in unsafe { ext.get_pipeline_executable_statistics(&exe) }.unwrap_or_default() {
            let name = text(&s.name);
            let value = unsafe {
                match s.format {
                    vk::PipelineExecutableStatisticFormatKHR::BOOL32 => s.value.b32.to_string(),
                    vk::PipelineExecutableStatisticFormatKHR::INT64 => s.value.i64.to_string(),
                    vk::PipelineExecutableStatisticFormatKHR::UINT64 => s.value.u64.to_string(),
                    _ => s.value.f64.to_string(),
                }
            };
            out.push((name, value));
        }
    }
    out
}

fn text(chars: &[std::ffi::c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}
