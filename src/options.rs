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
    /// Time and memory the contained reader of untrusted bitcode may use (`crate::contain`).
    pub limits: crate::contain::Limits,
}

impl Options {
    /// The version ceiling: the pinned version, else the target's maximum.
    pub fn version_ceiling(&self) -> (u8, u8) {
        self.spirv_version
            .unwrap_or_else(|| self.target.max_version())
    }
}

/// Which LLVM convention `to-spir` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Flavor {
    /// Real SPIR: mangled OpenCL C builtins, `opencl.*` types and metadata.
    #[default]
    Spir,
    /// The "SPIR-V representation in LLVM" convention (`__spirv_*` builtins, `spirv.*` types).
    SpirvIr,
}

/// Options of the SPIR-V -> SPIR direction.
#[derive(Clone, Debug)]
pub struct SpirOptions {
    pub flavor: Flavor,
    /// `opencl.spir.version` written (1.2 or 2.0); also decides the spelling of barriers.
    pub spir_version: (u32, u32),
    /// Write textual LLVM IR instead of bitcode.
    pub text: bool,
    /// Where kernel argument info and attributes go.
    pub kernel_info: KernelInfo,
    /// spirv-ir flavor: read builtin variables as loads of `@__spirv_BuiltIn*` globals instead
    /// of calls to `__spirv_BuiltIn*` functions.
    pub builtins_as_globals: bool,
}

/// Where SPIR output records kernels and their argument info.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KernelInfo {
    /// `!opencl.kernels` (SPIR 1.2/2.0) and function `!kernel_arg_*` (modern consumers).
    #[default]
    Both,
    /// Only function metadata: for consumers that mis-read `!opencl.kernels` (PoCL 3.1 aborts
    /// on it, even on clang's own SPIR 1.2 output).
    Function,
    /// Only `!opencl.kernels`, as SPIR 1.2 producers wrote it.
    Named,
}

impl Default for SpirOptions {
    fn default() -> Self {
        SpirOptions {
            flavor: Flavor::Spir,
            spir_version: (1, 2),
            text: false,
            kernel_info: KernelInfo::Both,
            builtins_as_globals: false,
        }
    }
}
