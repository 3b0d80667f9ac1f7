//! Translation options: the target environment decides the SPIR-V version ceiling.

use std::time::Duration;

/// The printf buffer's size unless `--printf-buffer-size` says otherwise: 1 MiB, the least
/// CL_DEVICE_PRINTF_BUFFER_SIZE an OpenCL full-profile device has.
pub const DEFAULT_PRINTF_BUFFER_SIZE: u32 = 1 << 20;
/// The push-constant bytes unless `--max-push-constants` says otherwise: 128, what Vulkan
/// promises every device (its least `maxPushConstantsSize`).
pub const DEFAULT_PUSH_CONSTANTS: u32 = 128;
/// Seconds a translation may take unless `--time-limit` says otherwise.
pub const DEFAULT_TIME_LIMIT_SECS: u64 = 600;

/// A setting's names, stated once: `SPELLINGS` (each value with the name the command line,
/// the C API and the layer's options give it), and `name` and `parse`, which read it.
macro_rules! spelled {
    ($ty:ident, $what:literal, [$($name:literal => $variant:ident),+ $(,)?]) => {
        impl $ty {
            #[doc = concat!("Each ", $what, " with its name.")]
            pub const SPELLINGS: &'static [(&'static str, Self)] = &[$(($name, $ty::$variant)),+];

            #[doc = concat!("The ", $what, "'s name (`spirv-val --target-env`'s, for targets).")]
            pub fn name(self) -> &'static str {
                name_of(Self::SPELLINGS, self)
            }

            #[doc = concat!("The ", $what, " named `s`.")]
            pub fn parse(s: &str) -> Option<Self> {
                parse_name(Self::SPELLINGS, s)
            }
        }
    };
}

/// The value a setting's `SPELLINGS` table names `s`.
fn parse_name<T: Copy>(spellings: &[(&'static str, T)], s: &str) -> Option<T> {
    spellings.iter().find(|(n, _)| *n == s).map(|&(_, v)| v)
}

/// The name a setting's `SPELLINGS` table gives `value` (every value has one).
fn name_of<T: Copy + PartialEq>(spellings: &[(&'static str, T)], value: T) -> &'static str {
    spellings
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("", |&(n, _)| n)
}

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
    /// Vulkan 1.1 compute (SPIR-V up to 1.3), through the Vulkan lowering (`crate::vulkan`).
    Vulkan11,
    /// Vulkan 1.2 compute (SPIR-V up to 1.5).
    Vulkan12,
    /// Vulkan 1.3 compute (SPIR-V up to 1.6).
    Vulkan13,
}

impl TargetEnv {
    /// Highest SPIR-V version (major, minor) the environment accepts.
    pub fn max_version(self) -> (u8, u8) {
        match self {
            TargetEnv::OpenCl21 => (1, 0),
            TargetEnv::OpenCl22 => (1, 2),
            TargetEnv::OpenCl30 => (1, 6),
            TargetEnv::Vulkan11 => (1, 3),
            TargetEnv::Vulkan12 => (1, 5),
            TargetEnv::Vulkan13 => (1, 6),
        }
    }

    /// True for the Vulkan targets: the graph is lowered to shader form before writing.
    pub fn is_vulkan(self) -> bool {
        matches!(
            self,
            TargetEnv::Vulkan11 | TargetEnv::Vulkan12 | TargetEnv::Vulkan13
        )
    }
}

spelled!(TargetEnv, "target", [
        "opencl2.1" => OpenCl21,
        "opencl2.2" => OpenCl22,
        "opencl3.0" => OpenCl30,
        "vulkan1.1" => Vulkan11,
        "vulkan1.2" => Vulkan12,
        "vulkan1.3" => Vulkan13,
]);

/// How OpenCL's global and constant pointers reach a Vulkan kernel (`--vulkan-pointers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum VulkanPointers {
    /// Device addresses (PhysicalStorageBuffer64) passed in push constants: every pointer
    /// cast, pointer arithmetic and pointer in memory OpenCL allows keeps working.
    #[default]
    Physical,
    /// One storage-buffer binding per pointer argument, logical addressing.
    Descriptors,
}

spelled!(VulkanPointers, "pointer strategy", [
        "physical" => Physical,
        "descriptors" => Descriptors,
]);

/// Which instruction set carries debug information in SPIR-V (`--debug-info`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DebugInfoFormat {
    /// What the target's consumers read: `OpenCL.DebugInfo.100` for OpenCL targets,
    /// `NonSemantic.Shader.DebugInfo.100` for Vulkan.
    #[default]
    Auto,
    /// `OpenCL.DebugInfo.100` (llvm-spirv's; OpenCL drivers).
    OpenCl,
    /// `NonSemantic.Shader.DebugInfo.100` (Vulkan tools; newer OpenCL tools).
    NonSemantic,
    /// None: debug information is left out (and the user told).
    None,
}

spelled!(DebugInfoFormat, "debug information format", [
        "auto" => Auto,
        "opencl" => OpenCl,
        "nonsemantic" => NonSemantic,
        "none" => None,
]);

/// How OpenCL C's `mad` is written for OpenCL targets (`--mad`). The graph holds clang's
/// contraction of `a * b + c` (LLVM's `llvm.fmuladd`) as `mad` too: in OpenCL's full profile
/// both are "a fused multiply-add or a product and a sum, each rounded". Vulkan targets
/// always write GLSL.std.450 `Fma` without NoContraction, which means the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MadForm {
    /// OpenCL.std `mad`: the driver chooses (llvm-spirv's form). The Intel CPU runtime
    /// computes it as a product and a sum.
    #[default]
    Mad,
    /// OpenCL.std `fma`: one rounding, the fastest form on a device with fused multiply-add
    /// (every GPU, x86 with FMA3). Read back, it is `fma`.
    Fma,
    /// A product and a sum (OpFMul, OpFAdd), each rounded: never fused. What the Intel CPU
    /// runtime runs fastest in loops that its vectorizer would otherwise leave (it calls
    /// `mad` and `fma` as functions there). Read back, it is the product and the sum.
    Split,
    /// A product and a sum that the driver may fuse: OpFMul and OpFAdd decorated
    /// `FPFastMathMode AllowContract` (SPV_KHR_float_controls2), which is exactly `mad`'s
    /// freedom, in the form a driver's optimizer fuses and vectorizes like any arithmetic.
    /// Only for consumers that take the extension. Read back, it is `mad`.
    Contract,
    /// As [`MadForm::Contract`], through SPV_INTEL_fp_fast_math_mode's
    /// `AllowContractFastINTEL`: the spelling Intel's OpenCL runtimes take (their CPU runtime
    /// refuses SPV_KHR_float_controls2). Read back, it is `mad`.
    ContractIntel,
}

spelled!(MadForm, "form of `mad`", [
        "mad" => Mad,
        "fma" => Fma,
        "split" => Split,
        "contract" => Contract,
        "contract-intel" => ContractIntel,
]);

/// Options of the SPIR -> SPIR-V direction.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The environment that will consume the module (OpenCL 2.1 by default).
    pub target: TargetEnv,
    /// Vulkan targets: the pointer strategy.
    pub vulkan_pointers: VulkanPointers,
    /// Vulkan targets: the printf buffer's size in bytes (`--printf-buffer-size`;
    /// [`DEFAULT_PRINTF_BUFFER_SIZE`] when `None`).
    pub printf_buffer_size: Option<u32>,
    /// Vulkan targets: the push-constant bytes the device has (`maxPushConstantsSize`,
    /// `--max-push-constants`; [`DEFAULT_PUSH_CONSTANTS`] when `None`). A
    /// kernel whose arguments do not fit gets its values in an argument buffer.
    pub max_push_constants: Option<u32>,
    /// Pin the output version; must not exceed the target's maximum.
    pub spirv_version: Option<(u8, u8)>,
    /// The instruction set debug information is written in (`--debug-info`).
    pub debug_info: DebugInfoFormat,
    /// OpenCL targets: how `mad` (and clang's contracted `a * b + c`) is written (`--mad`).
    pub mad: MadForm,
    /// Time and memory the contained reader of untrusted bitcode may use ([`Limits`]).
    pub limits: Limits,
}

impl Options {
    /// Whether the SPIR-V written keeps the input's integer wrap flags (NoSignedWrap,
    /// NoUnsignedWrap) and integer texels' signedness (SignExtend, ZeroExtend): for an OpenCL
    /// target with the version pinned to 1.4 or later. The version is not raised for them
    /// (that would turn drivers of 1.0 away).
    pub fn keeps_1_4_forms(&self) -> bool {
        !self.target.is_vulkan() && self.spirv_version.is_some_and(|v| v >= (1, 4))
    }

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

spelled!(Flavor, "flavor", [
        "spir" => Spir,
        "spirv-ir" => SpirvIr,
]);

/// Options of the SPIR-V -> SPIR direction.
#[derive(Clone, Debug)]
pub struct SpirOptions {
    /// Real SPIR (the default) or the SPIR-V friendly LLVM IR.
    pub flavor: Flavor,
    /// `opencl.spir.version` written (1.2 or 2.0); also decides the spelling of barriers,
    /// fences and atomics. `None`: 2.0 for a module whose source is OpenCL C 2.0 or later,
    /// 1.2 otherwise.
    pub spir_version: Option<(u32, u32)>,
    /// Write textual LLVM IR instead of bitcode.
    pub text: bool,
    /// How SPIR's two spellings are written: clang's (the default) or the specification's.
    pub form: SpirForm,
    /// Where kernel argument info and attributes go; `None`: where `form` puts them
    /// ([`SpirOptions::kernel_info`]).
    pub kernel_info: Option<KernelInfo>,
    /// spirv-ir flavor: read builtin variables as loads of `@__spirv_BuiltIn*` globals instead
    /// of calls to `__spirv_BuiltIn*` functions.
    pub builtins_as_globals: bool,
    /// Time and memory the contained writer of bitcode may use ([`Limits`]).
    pub limits: Limits,
}

/// Options of a translation to OpenCL C source (`to-opencl-c`).
#[derive(Clone, Debug, Default)]
pub struct OpenclCOptions {
    /// Time and memory the contained translation may use ([`Limits`]).
    pub limits: Limits,
}

/// The two ways SPIR has been spelled: as clang writes it (what the drivers that load SPIR
/// today read) and as the SPIR 1.2/2.0 specifications write it. They differ in where kernels
/// are listed and in the names of image types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SpirForm {
    /// As clang writes SPIR: kernel info as function metadata only, images named by their
    /// access (`%opencl.image2d_ro_t`, mangled `14ocl_image2d_ro`). Loads on every consumer
    /// tested: the Intel runtime's SPIR path and PoCL (which aborts on `!opencl.kernels` and
    /// whose library has only the access-named image builtins).
    #[default]
    Clang,
    /// To the letter of the SPIR 1.2/2.0 specifications, for consumers that read only them:
    /// `!opencl.kernels` beside the function metadata, images without access
    /// (`%opencl.image2d_t`, mangled `11ocl_image2d`).
    Spec,
}

spelled!(SpirForm, "SPIR form", [
        "clang" => Clang,
        "spec" => Spec,
]);

impl SpirOptions {
    /// Where kernel info goes: as asked, else where the form puts it (`Clang`: function
    /// metadata; `Spec`: both places).
    pub fn kernel_info(&self) -> KernelInfo {
        self.kernel_info.unwrap_or(match self.form {
            SpirForm::Clang => KernelInfo::Function,
            SpirForm::Spec => KernelInfo::Both,
        })
    }
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

spelled!(KernelInfo, "place of kernel info", [
        "both" => Both,
        "function" => Function,
        "named" => Named,
]);

impl Default for SpirOptions {
    fn default() -> Self {
        SpirOptions {
            flavor: Flavor::Spir,
            spir_version: None,
            text: false,
            form: SpirForm::Clang,
            kernel_info: None,
            builtins_as_globals: false,
            limits: Limits::default(),
        }
    }
}

/// The time and memory a translation may use. Each translation runs in a child process
/// (the library's containment of LLVM and SPIRV-Tools); the child is killed past `time`, and
/// an allocation past `memory` fails in the child, an error for the caller.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Wall-clock time after which the child is killed.
    pub time: Duration,
    /// Address space the child may add to what it inherits, in bytes.
    pub memory: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: Duration::from_secs(DEFAULT_TIME_LIMIT_SECS),
            memory: 16 << 30,
        }
    }
}

/// How many times its input's size a translation may use in memory, and the least it may
/// use whatever the size (LLVM, the graph, SPIRV-Tools' own view of the words).
pub const MEMORY_PER_INPUT_BYTE: u64 = 512;
/// The memory every translation may use.
pub const MEMORY_FLOOR: u64 = 2 << 30;

impl Limits {
    /// These limits for an input of `len` bytes: memory bounded by what such an input can
    /// need ([`MEMORY_PER_INPUT_BYTE`] times its size, at least [`MEMORY_FLOOR`]), so that a
    /// corrupted length field in a small file fails fast instead of taking the machine's
    /// memory (a 1.6 KB bitcode file once made LLVM's reader grow to 13.6 GB).
    pub fn for_input(self, len: u64) -> Limits {
        Limits {
            memory: self
                .memory
                .min(len.saturating_mul(MEMORY_PER_INPUT_BYTE).max(MEMORY_FLOOR)),
            ..self
        }
    }
}
