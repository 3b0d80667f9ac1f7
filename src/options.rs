//! Translation options: the target environment decides the SPIR-V version ceiling.

/// The environment that will consume the SPIR-V.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TargetEnv {
    /// OpenCL 2.1 drivers: SPIR-V 1.0 only.
    #[default]
    OpenCl21,
    /// OpenCL 2.2: up to SPIR-V 1.2.
    OpenCl22,
    /// OpenCL 3.0: up to SPIR-V 1.6.
    OpenCl30,
}

impl TargetEnv {
    /// Highest SPIR-V version (major, minor) the environment accepts.
    pub fn max_version(self) -> (u8, u8) {
        match self {
            TargetEnv::OpenCl21 => (1, 0),
            TargetEnv::OpenCl22 => (1, 2),
            TargetEnv::OpenCl30 => (1, 6),
        }
    }

    /// The name `spirv-val --target-env` uses.
    pub fn name(self) -> &'static str {
        match self {
            TargetEnv::OpenCl21 => "opencl2.1",
            TargetEnv::OpenCl22 => "opencl2.2",
            TargetEnv::OpenCl30 => "opencl3.0",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "opencl2.1" => TargetEnv::OpenCl21,
            "opencl2.2" => TargetEnv::OpenCl22,
            "opencl3.0" => TargetEnv::OpenCl30,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, Default)]
pub struct Options {
    pub target: TargetEnv,
    /// Pin the output version; must not exceed the target's maximum.
    pub spirv_version: Option<(u8, u8)>,
}

impl Options {
    /// The version ceiling: the pinned version, else the target's maximum.
    pub fn version_ceiling(&self) -> (u8, u8) {
        self.spirv_version
            .unwrap_or_else(|| self.target.max_version())
    }
}
