//! The command line's arguments (clap) and the parsers of their values.

use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand};
use spir_xlate::settings;
use spir_xlate::{
    DebugInfoFormat, Flavor, KernelInfo, MadForm, Options, SpirForm, SpirOptions, TargetEnv,
    VulkanPointers,
};

/// What `--version` says, at the top and after every command: the tool's version and the
/// versions of the LLVM and SPIRV-Tools built into it.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (LLVM ",
    env!("SPIR_XLATE_LLVM_VERSION"),
    ", SPIRV-Tools ",
    env!("SPIR_XLATE_SPIRV_TOOLS_VERSION"),
    ")"
);

#[derive(Parser)]
#[command(
    name = "spir-xlate",
    version = VERSION,
    propagate_version = true,
    about = "Translate between SPIR (LLVM bitcode) and SPIR-V"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// SPIR bitcode or LLVM IR text -> SPIR-V.
    ToSpirv {
        /// Input .bc or .ll file (`-` for stdin).
        input: String,
        /// Output file (`-` for stdout). Default: the input's name with .spv (.spvasm with
        /// --text) replacing .bc, .ll, .spir, .spir32 or .spir64, else appended; a default
        /// name that exists is not overwritten without --force. Never the input.
        #[arg(short, long)]
        output: Option<String>,
        /// Overwrite an existing file at the default output name (an input never is).
        #[arg(long)]
        force: bool,
        /// Print errors only: no warnings (the facts of the input the output does not keep).
        #[arg(short, long)]
        quiet: bool,
        #[command(flatten)]
        spirv: SpirvArgs,
        #[command(flatten)]
        limits: LimitArgs,
        /// Vulkan targets: also write the kernel interface (what the module's
        /// NonSemantic.ClspvReflection says) as JSON to this file.
        #[arg(long)]
        reflection: Option<String>,
        /// Write disassembly text (SPIRV-Tools' spirv-dis form) instead of a binary module
        /// (`-S`, as for to-spir and clang).
        #[arg(long, short = 'S')]
        text: bool,
    },
    /// SPIR-V -> SPIR bitcode (or LLVM IR text with -S).
    ToSpir {
        /// Input SPIR-V module (`-` for stdin).
        input: String,
        /// Output file (`-` for stdout). Default: the input's name with .bc (.ll with -S)
        /// replacing .spv or .spirv, else appended; a default name that exists (the SPIR the
        /// module was made from, say) is not overwritten without --force. Never the input.
        #[arg(short, long)]
        output: Option<String>,
        /// Overwrite an existing file at the default output name (an input never is).
        #[arg(long)]
        force: bool,
        /// Print errors only: no warnings (the facts of the input the output does not keep).
        #[arg(short, long)]
        quiet: bool,
        #[command(flatten)]
        spir: SpirArgs,
        #[command(flatten)]
        limits: LimitArgs,
        /// Write textual LLVM IR (.ll) instead of bitcode (`--text`, as for to-spirv).
        #[arg(short = 'S', long)]
        text: bool,
    },
    /// SPIR or SPIR-V (by content) -> OpenCL C source, for drivers that take neither (the
    /// first line says the `-cl-std=` to build it with).
    ToOpenclC {
        /// Input SPIR (.bc, .ll) or SPIR-V module (`-` for stdin).
        input: String,
        /// Output file (`-` for stdout). Default: the input's name with .cl replacing .bc,
        /// .ll, .spir, .spir32, .spir64, .spv or .spirv, else appended; a default name that
        /// exists (the kernel's own source, say) is not overwritten without --force. Never
        /// the input.
        #[arg(short, long)]
        output: Option<String>,
        /// Overwrite an existing file at the default output name (an input never is).
        #[arg(long)]
        force: bool,
        /// Print errors only: no warnings (the facts of the input the output does not keep).
        #[arg(short, long)]
        quiet: bool,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Translate every SPIR module (by content, not extension) under the given files and
    /// directories, in one process on all cores; the outputs mirror the input tree under
    /// OUT_DIR (`.bc`, `.ll`, `.spir`, `.spir32` and `.spir64` become `.spv`, other names get
    /// `.spv` appended; `--to spir`: `.spv` and `.spirv` become `.bc`), as `to-spirv` and
    /// `to-spir` name them. One line of summary; exit 0 when every module translated, 1 when
    /// some inputs were refused or are no modules, 3 when the run failed for a file (an
    /// output not written); the report is written either way.
    Migrate {
        /// Files and directories to translate (directories recursively); with
        /// --merge-reports, the reports to merge.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Where the outputs go (made if missing, in a directory that exists). `--output` as
        /// for the other commands.
        #[arg(
            short,
            long = "output-dir",
            visible_alias = "output",
            value_name = "OUT_DIR",
            required_unless_present = "merge_reports"
        )]
        output_dir: Option<PathBuf>,
        /// Replace outputs that exist already (without it, a run that would overwrite a file
        /// under OUT_DIR that the --since report does not list is refused before it starts).
        #[arg(long)]
        force: bool,
        /// Translate only share K of N (0 <= K < N) of the files, chosen by a hash of each
        /// file's path: N runs with K = 0..N-1 over the same inputs share the tree between
        /// them (a job array's index as K).
        #[arg(long, value_name = "K/N", value_parser = spir_xlate::migrate::Shard::parse)]
        shard: Option<spir_xlate::migrate::Shard>,
        /// The --report of an earlier run into the same OUT_DIR: files it translated from the
        /// same bytes with the same options, whose outputs still exist, are not translated
        /// again (reported as unchanged), and the outputs it wrote may be replaced.
        #[arg(long, value_name = "REPORT")]
        since: Option<PathBuf>,
        /// Translate nothing: merge the given --report files (the shares of one tree) into one
        /// report, written to --report (or printed), as one run over the tree would have
        /// written it.
        #[arg(long, conflicts_with_all = ["force", "shard", "since"])]
        merge_reports: bool,
        /// `spirv` (SPIR modules -> SPIR-V) or `spir` (SPIR-V modules -> SPIR).
        #[arg(long, default_value = "spirv", value_parser = parse_direction)]
        to: spir_xlate::migrate::Direction,
        /// Threads (1 or more); default: one per CPU.
        #[arg(short, long, value_parser = jobs)]
        jobs: Option<usize>,
        /// With --to spirv: as for to-spirv (a Vulkan target writes each module's kernel
        /// interface beside it, `.json`).
        #[command(flatten)]
        spirv: SpirvArgs,
        /// With --to spir: as for to-spir.
        #[command(flatten)]
        spir: SpirArgs,
        #[command(flatten)]
        limits: LimitArgs,
        /// Write a JSON report: per file its status (ok, unchanged, refused, invalid input,
        /// output error, internal error, skipped with the reason), message, content key,
        /// kernels, SPIR-V version, capabilities, extensions and time.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// Print errors only: no progress bar and no summary line (there is no progress bar
        /// when stderr is not a terminal either).
        #[arg(short, long)]
        quiet: bool,
    },
    /// Print the semantic graph of a SPIR or SPIR-V input.
    DumpIr {
        /// Input .bc, .ll or .spv file (`-` for stdin).
        input: String,
    },
    /// Translate to the other side and back and report the first difference (exit 1 if any):
    /// SPIR-V through --flavor spirv-ir, SPIR through SPIR-V (see roundtrip/README.md).
    Roundtrip {
        /// Input .spv, .bc or .ll file (`-` for stdin).
        input: String,
        /// The SPIR-V environment of the SPIR-V side.
        #[arg(long, default_value = TargetEnv::default().name(), value_parser = settings::target)]
        target: TargetEnv,
    },
    /// Print a SPIR-V module in canonical text form (ids named by what they are, type,
    /// decoration and function order normalized), for diffing two modules.
    Canonical {
        /// Input .spv file (`-` for stdin).
        input: String,
    },
}

/// How SPIR-V is written (`to-spirv`, `migrate`).
#[derive(clap::Args)]
pub(crate) struct SpirvArgs {
    /// Consumer environment: opencl2.1 (SPIR-V 1.0), opencl2.2 (<= 1.2), opencl3.0 (<= 1.6),
    /// or a Vulkan compute module: vulkan1.1 (<= 1.3), vulkan1.2 (<= 1.5), vulkan1.3 (<= 1.6).
    /// The input may also be a SPIR-V module (read through the SPIR-V reader).
    #[arg(long, default_value = TargetEnv::default().name(), value_parser = settings::target)]
    pub(crate) target: TargetEnv,
    /// Pin the SPIR-V version (e.g. 1.2); must not exceed what --target allows.
    #[arg(long, value_parser = settings::spirv_version)]
    pub(crate) spirv_version: Option<(u8, u8)>,
    /// Vulkan targets: how global and constant pointers arrive: `physical` (device
    /// addresses in push constants, PhysicalStorageBuffer64) or `descriptors` (one
    /// storage buffer per pointer argument).
    #[arg(long, default_value = VulkanPointers::default().name(), value_parser = settings::vulkan_pointers)]
    pub(crate) vulkan_pointers: VulkanPointers,
    /// Where the input has debug information (`clang -g`): the instruction set that carries
    /// it: `auto` (OpenCL.DebugInfo.100 for OpenCL targets, NonSemantic.Shader.DebugInfo.100
    /// for Vulkan: what each target's consumers read), `opencl`, `nonsemantic`, or `none`
    /// (left out).
    #[arg(long, default_value = DebugInfoFormat::default().name(), value_parser = settings::debug_info)]
    pub(crate) debug_info: DebugInfoFormat,
    /// OpenCL targets: how OpenCL C's `mad` and clang's contraction of `a * b + c` are
    /// written: `mad` (OpenCL.std mad: the driver chooses fused or not; llvm-spirv's form),
    /// `fma` (one rounding), `split` (a product and a sum, never fused), `contract` (a
    /// product and a sum the driver may fuse: SPV_KHR_float_controls2) or `contract-intel`
    /// (the same through SPV_INTEL_fp_fast_math_mode, which Intel's runtimes take; the
    /// fastest there). OpenCL allows all of them; which runs fastest is the device's
    /// (docs/status.md measures the Intel CPU runtime). Vulkan targets always let the
    /// driver fuse it.
    #[arg(long, default_value = MadForm::default().name(), value_parser = settings::mad)]
    pub(crate) mad: MadForm,
    /// Vulkan targets: the size in bytes of the buffer `printf` writes its records to
    /// (the host allocates it; the reflection says its size). A multiple of 4, at
    /// least 8.
    #[arg(long, default_value_t = spir_xlate::DEFAULT_PRINTF_BUFFER_SIZE, value_parser = settings::printf_buffer_size)]
    pub(crate) printf_buffer_size: u32,
    /// Vulkan targets: the push-constant bytes the device has (its maxPushConstantsSize;
    /// Vulkan promises 128, which many mobile GPUs do not pass). A kernel whose arguments
    /// do not fit gets its values in an argument buffer. A multiple of 4, at least 128.
    #[arg(long, default_value_t = spir_xlate::DEFAULT_PUSH_CONSTANTS, value_parser = settings::max_push_constants)]
    pub(crate) max_push_constants: u32,
}

impl SpirvArgs {
    /// The options; a `--spirv-version` above what `--target` allows is a usage error of
    /// `command`.
    pub(crate) fn options(&self, command: &str, limits: &LimitArgs) -> Options {
        if let Some((major, minor)) = self.spirv_version {
            let (top_major, top_minor) = self.target.max_version();
            if (major, minor) > (top_major, top_minor) {
                usage_error(
                    command,
                    format!(
                        "--spirv-version {major}.{minor} is above what --target {} allows \
                         (SPIR-V {top_major}.{top_minor})",
                        self.target.name()
                    ),
                );
            }
        }
        Options {
            target: self.target,
            spirv_version: self.spirv_version,
            vulkan_pointers: self.vulkan_pointers,
            debug_info: self.debug_info,
            mad: self.mad,
            printf_buffer_size: Some(self.printf_buffer_size),
            max_push_constants: Some(self.max_push_constants),
            limits: limits.limits(),
        }
    }
}

/// How long one input may take (`to-spirv`, `to-spir`, `migrate`).
#[derive(clap::Args)]
pub(crate) struct LimitArgs {
    /// Seconds the translation of an input may take before it is stopped (exit 1); at
    /// least 1.
    #[arg(
        long,
        default_value_t = spir_xlate::DEFAULT_TIME_LIMIT_SECS,
        value_name = "SECS",
        value_parser = |s: &str| settings::time_limit(s).map(|t| t.as_secs())
    )]
    pub(crate) time_limit: u64,
}

impl LimitArgs {
    pub(crate) fn limits(&self) -> spir_xlate::Limits {
        spir_xlate::Limits {
            time: std::time::Duration::from_secs(self.time_limit),
            ..Default::default()
        }
    }
}

/// How SPIR is written (`to-spir`, `migrate --to spir`).
#[derive(clap::Args)]
pub(crate) struct SpirArgs {
    /// Output convention: `spir` (real SPIR: mangled OpenCL C builtins, opencl.* metadata)
    /// or `spirv-ir` (the SPIR-V-friendly LLVM IR of the Khronos translator).
    #[arg(long, default_value = Flavor::default().name(), value_parser = settings::flavor)]
    pub(crate) flavor: Flavor,
    /// SPIR version written in opencl.spir.version (1.2 or 2.0). Default: 2.0 for a
    /// module of OpenCL C 2.0 (or later) source, whose atomics, fences and barriers SPIR
    /// 1.2 cannot spell; 1.2 otherwise.
    #[arg(long, value_parser = settings::spir_version)]
    pub(crate) spir_version: Option<(u32, u32)>,
    /// How SPIR is spelled: `clang` (as clang writes it, what the Intel runtime and PoCL
    /// load: kernel info as function metadata, images named by access, `image2d_ro_t`) or
    /// `spec` (the SPIR 1.2/2.0 specifications' letter: !opencl.kernels too, `image2d_t`).
    #[arg(long, default_value = SpirForm::default().name(), value_parser = settings::spir_form)]
    pub(crate) spir_form: SpirForm,
    /// Where kernel argument info goes, whatever the form: `both` (!opencl.kernels and
    /// function !kernel_arg_*), `function` or `named` (!opencl.kernels only, as SPIR 1.2
    /// producers wrote it). Default: `function` for the clang form, `both` for the spec's.
    #[arg(long, value_parser = settings::kernel_info)]
    pub(crate) kernel_info: Option<KernelInfo>,
    /// With --flavor spirv-ir: builtin variables as `@__spirv_BuiltIn*` globals (loaded)
    /// rather than `__spirv_BuiltIn*` calls.
    #[arg(long)]
    pub(crate) builtins_as_globals: bool,
}

impl SpirArgs {
    /// The options (`text`: LLVM IR text instead of bitcode); `--builtins-as-globals` without
    /// spirv-ir is a usage error of `command`.
    pub(crate) fn options(&self, command: &str, text: bool, limits: &LimitArgs) -> SpirOptions {
        if self.builtins_as_globals && self.flavor != Flavor::SpirvIr {
            usage_error(
                command,
                "--builtins-as-globals only applies to --flavor spirv-ir",
            );
        }
        SpirOptions {
            flavor: self.flavor,
            spir_version: self.spir_version,
            text,
            form: self.spir_form,
            kernel_info: self.kernel_info,
            builtins_as_globals: self.builtins_as_globals,
            limits: limits.limits(),
        }
    }
}

fn jobs(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("0 threads translate nothing (give 1 or more)".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}` is not a number of threads")),
    }
}

/// The options of each side: what applies to SPIR-V (`to-spirv`, `migrate --to spirv`),
/// to Vulkan targets alone, to OpenCL targets alone, and to SPIR (`to-spir`, `migrate --to
/// spir`), by their ids in the argument matches.
const SPIRV_OPTIONS: [&str; 7] = [
    "target",
    "spirv_version",
    "vulkan_pointers",
    "debug_info",
    "mad",
    "printf_buffer_size",
    "max_push_constants",
];
const VULKAN_OPTIONS: [&str; 3] = [
    "vulkan_pointers",
    "printf_buffer_size",
    "max_push_constants",
];
const OPENCL_OPTIONS: [&str; 1] = ["mad"];
const SPIR_OPTIONS: [&str; 5] = [
    "flavor",
    "spir_version",
    "spir_form",
    "kernel_info",
    "builtins_as_globals",
];

/// An option the user gave that does not apply to what the command does is a usage error,
/// as `--reflection` without a Vulkan target is: `--mad` with a Vulkan target,
/// `--vulkan-pointers` with an OpenCL one, SPIR options with `migrate --to spirv` and
/// SPIR-V options with `--to spir`, `-o` or the translation's options with
/// `--merge-reports`.
pub(crate) fn check_applicable(cli: &Cli, matches: &clap::ArgMatches) {
    let Some((name, sub)) = matches.subcommand() else {
        return;
    };
    let given = |id: &str| {
        sub.try_get_raw(id).ok().flatten().is_some()
            && sub.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
    };
    let flag = |id: &str| format!("--{}", id.replace('_', "-"));
    let refuse = |ids: &[&str], why: &str| {
        if let Some(id) = ids.iter().find(|id| given(id)) {
            usage_error(name, format!("{} {why}", flag(id)));
        }
    };
    let target = match &cli.command {
        Command::ToSpirv { spirv, .. } => Some(spirv.target),
        Command::Migrate {
            spirv,
            to: spir_xlate::migrate::Direction::ToSpirv,
            merge_reports: false,
            ..
        } => Some(spirv.target),
        _ => None,
    };
    if let Command::Migrate {
        to, merge_reports, ..
    } = &cli.command
    {
        if *merge_reports {
            let all: Vec<&str> = ["output_dir", "to", "jobs", "time_limit"]
                .into_iter()
                .chain(SPIRV_OPTIONS)
                .chain(SPIR_OPTIONS)
                .collect();
            refuse(
                &all,
                "does not apply to --merge-reports, which translates nothing (the merged \
                 report goes to --report, or to standard output)",
            );
        } else if *to == spir_xlate::migrate::Direction::ToSpir {
            refuse(&SPIRV_OPTIONS, "applies to --to spirv, not --to spir");
        } else {
            refuse(&SPIR_OPTIONS, "applies to --to spir, not --to spirv");
        }
    }
    match target {
        Some(t) if t.is_vulkan() => refuse(
            &OPENCL_OPTIONS,
            "applies to OpenCL targets (a Vulkan target always lets the driver fuse `a * b + \
             c`)",
        ),
        Some(_) => refuse(
            &VULKAN_OPTIONS,
            "applies to Vulkan targets (--target vulkan1.1, vulkan1.2 or vulkan1.3)",
        ),
        None => {}
    }
}

pub(crate) fn parse_direction(s: &str) -> Result<spir_xlate::migrate::Direction, String> {
    match s {
        "spirv" => Ok(spir_xlate::migrate::Direction::ToSpirv),
        "spir" => Ok(spir_xlate::migrate::Direction::ToSpir),
        _ => Err(format!("unknown direction '{s}' (expected spirv or spir)")),
    }
}

/// A usage error found after parsing (options that conflict), printed as clap prints its
/// own: with the usage of `command` (the subcommand, e.g. `to-spirv`), exit code 2.
pub(crate) fn usage_error(command: &str, message: impl std::fmt::Display) -> ! {
    let mut root = Cli::command();
    root.build();
    let kind = clap::error::ErrorKind::ArgumentConflict;
    match root.find_subcommand_mut(command) {
        Some(sub) => sub.error(kind, message).exit(),
        None => root.error(kind, message).exit(),
    }
}
