//! Options by name: each setting of a [`Translation`](crate::Translation) as the command line
//! spells it (`--target vulkan1.2` is the setting `target` with the value `vulkan1.2`), for
//! callers that hold options as text — the command line, the C API, the OpenCL layer
//! ([`Translation::set`](crate::Translation::set)). Each parser answers the value or the
//! message the command line prints for a bad one.

use std::time::Duration;

use crate::options::{
    DebugInfoFormat, Flavor, KernelInfo, MadForm, SpirForm, TargetEnv, VulkanPointers,
};

/// `--target`: the environment that consumes the SPIR-V.
pub fn target(s: &str) -> Result<TargetEnv, String> {
    TargetEnv::parse(s).ok_or_else(|| {
        format!(
            "unknown target '{s}' (expected {})",
            expected(TargetEnv::SPELLINGS)
        )
    })
}

/// `--printf-buffer-size`: bytes, a multiple of 4, at least 8.
pub fn printf_buffer_size(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n) if n >= 8 && n % 4 == 0 => Ok(n),
        _ => Err(format!(
            "`{s}` is not a printf buffer size (bytes: a multiple of 4, at least 8)"
        )),
    }
}

/// `--max-push-constants`: bytes, a multiple of 4, at least 128 (what Vulkan promises).
pub fn max_push_constants(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n) if n >= 128 && n % 4 == 0 => Ok(n),
        _ => Err(format!(
            "`{s}` is not a push-constant size (bytes: a multiple of 4, at least 128, the \
             least maxPushConstantsSize Vulkan allows)"
        )),
    }
}

/// `--debug-info`: `auto`, `opencl`, `nonsemantic` or `none`.
pub fn debug_info(s: &str) -> Result<DebugInfoFormat, String> {
    DebugInfoFormat::parse(s).ok_or_else(|| {
        format!(
            "unknown debug information format '{s}' (expected {})",
            expected(DebugInfoFormat::SPELLINGS)
        )
    })
}

/// `--mad`: `mad`, `fma`, `split`, `contract` or `contract-intel`.
pub fn mad(s: &str) -> Result<MadForm, String> {
    MadForm::parse(s).ok_or_else(|| {
        format!(
            "unknown form of mad '{s}' (expected {})",
            expected(MadForm::SPELLINGS)
        )
    })
}

/// `--vulkan-pointers`: `physical` or `descriptors`.
pub fn vulkan_pointers(s: &str) -> Result<VulkanPointers, String> {
    VulkanPointers::parse(s).ok_or_else(|| {
        format!(
            "unknown pointer strategy '{s}' (expected {})",
            expected(VulkanPointers::SPELLINGS)
        )
    })
}

/// `--flavor`: `spir` or `spirv-ir`.
pub fn flavor(s: &str) -> Result<Flavor, String> {
    Flavor::parse(s).ok_or_else(|| {
        format!(
            "unknown flavor '{s}' (expected {})",
            expected(Flavor::SPELLINGS)
        )
    })
}

/// `--kernel-info`: `both`, `function` or `named`.
pub fn kernel_info(s: &str) -> Result<KernelInfo, String> {
    KernelInfo::parse(s).ok_or_else(|| {
        format!(
            "unknown kernel info place '{s}' (expected {})",
            expected(KernelInfo::SPELLINGS)
        )
    })
}

/// `--spir-form`: `clang` or `spec`.
pub fn spir_form(s: &str) -> Result<SpirForm, String> {
    SpirForm::parse(s).ok_or_else(|| {
        format!(
            "unknown SPIR form '{s}' (expected {})",
            expected(SpirForm::SPELLINGS)
        )
    })
}

/// `--spir-version`: `1.2` or `2.0`.
pub fn spir_version(s: &str) -> Result<(u32, u32), String> {
    match s {
        "1.2" => Ok((1, 2)),
        "2.0" => Ok((2, 0)),
        _ => Err(format!("SPIR {s} does not exist (1.2 or 2.0)")),
    }
}

/// `--spirv-version`: `1.0` to `1.6`.
pub fn spirv_version(s: &str) -> Result<(u8, u8), String> {
    let (a, b) = s.split_once('.').ok_or("expected MAJOR.MINOR, e.g. 1.2")?;
    let v = (
        a.parse::<u8>().map_err(|e| e.to_string())?,
        b.parse::<u8>().map_err(|e| e.to_string())?,
    );
    if v.0 != 1 || v.1 > 6 {
        return Err(format!("SPIR-V {s} does not exist (1.0 to 1.6)"));
    }
    Ok(v)
}

/// `--time-limit`: whole seconds, at least 1.
pub fn time_limit(s: &str) -> Result<Duration, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("a time limit of 0 s leaves no time to translate (give 1 or more)".into()),
        Ok(n) => Ok(Duration::from_secs(n)),
        Err(_) => Err(format!("`{s}` is not a time limit (whole seconds)")),
    }
}

/// A yes/no setting (`text`, `builtins-as-globals`): `true`/`false`, `yes`/`no`, `1`/`0`.
pub fn switch(s: &str) -> Result<bool, String> {
    match s {
        "true" | "yes" | "1" => Ok(true),
        "false" | "no" | "0" => Ok(false),
        _ => Err(format!("`{s}` is not yes or no")),
    }
}

/// A setting's names as a list a message can end with (`a, b or c`).
fn expected<T>(spellings: &[(&'static str, T)]) -> String {
    let names: Vec<&str> = spellings.iter().map(|(n, _)| *n).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Options, SpirOptions, Translation};

    #[test]
    fn options_are_set_by_their_command_line_names() {
        let mut t = Translation::ToSpirv(Options::default());
        t.set("target", "vulkan1.2").unwrap();
        t.set("vulkan-pointers", "descriptors").unwrap();
        t.set("time-limit", "5").unwrap();
        let Translation::ToSpirv(o) = &t else {
            unreachable!()
        };
        assert_eq!(o.target, TargetEnv::Vulkan12);
        assert_eq!(o.vulkan_pointers, VulkanPointers::Descriptors);
        assert_eq!(o.limits.time, Duration::from_secs(5));
        let wrong_side = t.set("flavor", "spir").unwrap_err();
        assert!(wrong_side.contains("to SPIR-V"), "{wrong_side}");
        assert!(t
            .set("target", "opencl9")
            .unwrap_err()
            .contains("unknown target"));

        let mut t = Translation::ToSpir(SpirOptions::default());
        t.set("flavor", "spirv-ir").unwrap();
        t.set("text", "yes").unwrap();
        t.set("spir-version", "2.0").unwrap();
        let Translation::ToSpir(o) = &t else {
            unreachable!()
        };
        assert_eq!(
            (o.flavor, o.text, o.spir_version),
            (Flavor::SpirvIr, true, Some((2, 0)))
        );
        assert!(t.set("text", "maybe").is_err());
    }
}
