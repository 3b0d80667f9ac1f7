//! What the driver's compiler says of a pipeline it built (VK_KHR_pipeline_executable_properties):
//! its statistics (registers, local and shared memory, instruction counts, as the driver
//! names them) and, where `VKHOST_PIPELINE_IR` names a folder, the text of its internal
//! representations written there. The benchmark records them beside each producer's times:
//! the driver's evidence of what a module cost, where times alone only say that it did.

use std::ffi::CStr;

use ash::vk;

use crate::Device;

/// The extension's name, enabled on the device where it is offered.
pub const EXTENSION: &CStr = vk::KHR_PIPELINE_EXECUTABLE_PROPERTIES_NAME;

/// The pipeline flags that ask the driver to keep what `read` reads.
pub fn capture_flags(dev: &Device) -> vk::PipelineCreateFlags {
    if dev.executables.is_some() {
        vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
            | vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR
    } else {
        vk::PipelineCreateFlags::empty()
    }
}

/// The statistics of every executable of `pipeline` as `name=value` pairs, and its internal
/// representations written into `VKHOST_PIPELINE_IR` (named after `label`). Empty where the
/// device does not offer the extension.
pub fn read(dev: &Device, pipeline: vk::Pipeline, label: &str) -> Vec<(String, String)> {
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
        if let Some(dir) = std::env::var_os("VKHOST_PIPELINE_IR") {
            write_representations(ext, &exe, &std::path::Path::new(&dir).join(label));
        }
    }
    out
}

/// Each internal representation's text in `{base}.{index}.txt` (the driver's own names
/// head each).
fn write_representations(
    ext: &ash::khr::pipeline_executable_properties::Device,
    exe: &vk::PipelineExecutableInfoKHR,
    base: &std::path::Path,
) {
    let fp = ext.fp();
    let mut count = 0u32;
    let first = unsafe {
        (fp.get_pipeline_executable_internal_representations_khr)(
            ext.device(),
            exe,
            &mut count,
            std::ptr::null_mut(),
        )
    };
    if first != vk::Result::SUCCESS || count == 0 {
        return;
    }
    let mut reps = vec![vk::PipelineExecutableInternalRepresentationKHR::default(); count as usize];
    if unsafe {
        (fp.get_pipeline_executable_internal_representations_khr)(
            ext.device(),
            exe,
            &mut count,
            reps.as_mut_ptr(),
        )
    } != vk::Result::SUCCESS
    {
        return;
    }
    let mut buffers: Vec<Vec<u8>> = reps.iter().map(|r| vec![0u8; r.data_size]).collect();
    for (r, b) in reps.iter_mut().zip(buffers.iter_mut()) {
        r.p_data = b.as_mut_ptr().cast();
    }
    if unsafe {
        (fp.get_pipeline_executable_internal_representations_khr)(
            ext.device(),
            exe,
            &mut count,
            reps.as_mut_ptr(),
        )
    } != vk::Result::SUCCESS
    {
        return;
    }
    let mut all = String::new();
    for (r, b) in reps.iter().zip(&buffers) {
        all.push_str(&format!(
            "=== {} ({})\n",
            text(&r.name),
            text(&r.description)
        ));
        let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
        all.push_str(&String::from_utf8_lossy(&b[..end]));
        all.push('\n');
    }
    let mut path = base.as_os_str().to_owned();
    path.push(format!(".{}.txt", exe.executable_index));
    let _ = std::fs::write(path, all);
}

fn text(chars: &[std::ffi::c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}
