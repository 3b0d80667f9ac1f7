//! `spir-xlate` command line: I/O and exit codes only; translation lives in the library.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use spir_xlate::{
    diag::Error, translate, ErrorKind, Flavor, KernelInfo, Options, SpirOptions, TargetEnv,
    Translation, VulkanPointers,
};

#[derive(Parser)]
#[command(
    name = "spir-xlate",
    version,
    about = "Translate between SPIR (LLVM bitcode) and SPIR-V"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
        /// No warnings (the facts of the input the output does not keep); errors still print.
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
        /// Write disassembly text (SPIRV-Tools' spirv-dis form) instead of a binary module.
        #[arg(long)]
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
        /// No warnings (the facts of the input the output does not keep); errors still print.
        #[arg(short, long)]
        quiet: bool,
        #[command(flatten)]
        spir: SpirArgs,
        #[command(flatten)]
        limits: LimitArgs,
        /// Write textual LLVM IR (.ll) instead of bitcode.
        #[arg(short = 'S')]
        text: bool,
    },
    /// Translate every SPIR module (by content, not extension) under the given files and
    /// directories, in one process on all cores; the outputs mirror the input tree under
    /// OUT_DIR (`.bc`/`.spir` become `.spv`, other names get `.spv` appended; `--to spir`:
    /// `.spv` becomes `.bc`). One line of summary; exit 0 when every module translated.
    Migrate {
        /// Files and directories to translate (directories recursively).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Where the outputs go (made if missing). `--output` as for the other commands.
        #[arg(
            short,
            long = "output-dir",
            visible_alias = "output",
            value_name = "OUT_DIR"
        )]
        output_dir: PathBuf,
        /// `spirv` (SPIR modules -> SPIR-V) or `spir` (SPIR-V modules -> SPIR).
        #[arg(long, default_value = "spirv", value_parser = parse_direction)]
        to: spir_xlate::migrate::Direction,
        /// Threads; default: one per CPU.
        #[arg(short, long)]
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
        /// Write a JSON report: per file its status (ok, refused, invalid input, output
        /// error, internal error), message, kernels, SPIR-V version, capabilities,
        /// extensions and time.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// No progress bar (there is none when stderr is not a terminal).
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
        #[arg(long, default_value = "opencl2.1", value_parser = parse_target)]
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
struct SpirvArgs {
    /// Consumer environment: opencl2.1 (SPIR-V 1.0), opencl2.2 (<= 1.2), opencl3.0 (<= 1.6),
    /// or a Vulkan compute module: vulkan1.1 (<= 1.3), vulkan1.2 (<= 1.5), vulkan1.3 (<= 1.6).
    /// The input may also be a SPIR-V module (read through the SPIR-V reader).
    #[arg(long, default_value = "opencl2.1", value_parser = parse_target)]
    target: TargetEnv,
    /// Pin the SPIR-V version (e.g. 1.2); must not exceed what --target allows.
    #[arg(long, value_parser = parse_version)]
    spirv_version: Option<(u8, u8)>,
    /// Vulkan targets: how global and constant pointers arrive: `physical` (device
    /// addresses in push constants, PhysicalStorageBuffer64) or `descriptors` (one
    /// storage buffer per pointer argument).
    #[arg(long, default_value = "physical", value_parser = parse_vulkan_pointers)]
    vulkan_pointers: VulkanPointers,
    /// Vulkan targets: the size in bytes of the buffer `printf` writes its records to
    /// (the host allocates it; the reflection says its size). A multiple of 4, at
    /// least 8.
    #[arg(long, default_value_t = 1 << 20, value_parser = parse_printf_buffer_size)]
    printf_buffer_size: u32,
}

impl SpirvArgs {
    /// The options; a `--spirv-version` above what `--target` allows is a usage error.
    fn options(&self, limits: &LimitArgs) -> Options {
        if let Some((major, minor)) = self.spirv_version {
            let (top_major, top_minor) = self.target.max_version();
            if (major, minor) > (top_major, top_minor) {
                Cli::command()
                    .error(
                        clap::error::ErrorKind::ArgumentConflict,
                        format!(
                            "--spirv-version {major}.{minor} is above what --target {} allows \
                             (SPIR-V {top_major}.{top_minor})",
                            self.target.name()
                        ),
                    )
                    .exit();
            }
        }
        Options {
            target: self.target,
            spirv_version: self.spirv_version,
            vulkan_pointers: self.vulkan_pointers,
            printf_buffer_size: Some(self.printf_buffer_size),
            limits: limits.limits(),
        }
    }
}

/// How long one input may take (`to-spirv`, `to-spir`, `migrate`).
#[derive(clap::Args)]
struct LimitArgs {
    /// Seconds the translation of an input may take before it is stopped (exit 1).
    #[arg(long, default_value_t = 600)]
    time_limit: u64,
}

impl LimitArgs {
    fn limits(&self) -> spir_xlate::Limits {
        spir_xlate::Limits {
            time: std::time::Duration::from_secs(self.time_limit),
            ..Default::default()
        }
    }
}

/// How SPIR is written (`to-spir`, `migrate --to spir`).
#[derive(clap::Args)]
struct SpirArgs {
    /// Output convention: `spir` (real SPIR: mangled OpenCL C builtins, opencl.* metadata)
    /// or `spirv-ir` (the SPIR-V-friendly LLVM IR of the Khronos translator).
    #[arg(long, default_value = "spir", value_parser = parse_flavor)]
    flavor: Flavor,
    /// SPIR version written in opencl.spir.version (1.2 or 2.0). Default: 2.0 for a
    /// module of OpenCL C 2.0 (or later) source, whose atomics, fences and barriers SPIR
    /// 1.2 cannot spell; 1.2 otherwise.
    #[arg(long, value_parser = parse_spir_version)]
    spir_version: Option<(u32, u32)>,
    /// Where kernel argument info goes: `both` (!opencl.kernels and function
    /// !kernel_arg_*), `function` (for consumers such as PoCL 3.1 that abort on
    /// !opencl.kernels) or `named` (!opencl.kernels only, as SPIR 1.2 producers wrote it).
    #[arg(long, default_value = "both", value_parser = parse_kernel_info)]
    kernel_info: KernelInfo,
    /// With --flavor spirv-ir: builtin variables as `@__spirv_BuiltIn*` globals (loaded)
    /// rather than `__spirv_BuiltIn*` calls.
    #[arg(long)]
    builtins_as_globals: bool,
}

impl SpirArgs {
    /// The options (`text`: LLVM IR text instead of bitcode); `--builtins-as-globals` without
    /// spirv-ir is a usage error.
    fn options(&self, text: bool, limits: &LimitArgs) -> SpirOptions {
        if self.builtins_as_globals && self.flavor != Flavor::SpirvIr {
            Cli::command()
                .error(
                    clap::error::ErrorKind::ArgumentConflict,
                    "--builtins-as-globals only applies to --flavor spirv-ir",
                )
                .exit();
        }
        SpirOptions {
            flavor: self.flavor,
            spir_version: self.spir_version,
            text,
            kernel_info: self.kernel_info,
            builtins_as_globals: self.builtins_as_globals,
            limits: limits.limits(),
        }
    }
}

fn parse_target(s: &str) -> Result<TargetEnv, String> {
    TargetEnv::parse(s).ok_or_else(|| {
        format!(
            "unknown target '{s}' (expected opencl2.1, opencl2.2, opencl3.0, vulkan1.1, \
             vulkan1.2 or vulkan1.3)"
        )
    })
}

fn parse_printf_buffer_size(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n) if n >= 8 && n % 4 == 0 => Ok(n),
        _ => Err(format!(
            "`{s}` is not a printf buffer size (bytes: a multiple of 4, at least 8)"
        )),
    }
}

fn parse_vulkan_pointers(s: &str) -> Result<VulkanPointers, String> {
    VulkanPointers::parse(s)
        .ok_or_else(|| format!("unknown pointer strategy '{s}' (expected physical or descriptors)"))
}

fn parse_direction(s: &str) -> Result<spir_xlate::migrate::Direction, String> {
    match s {
        "spirv" => Ok(spir_xlate::migrate::Direction::ToSpirv),
        "spir" => Ok(spir_xlate::migrate::Direction::ToSpir),
        _ => Err(format!("unknown direction '{s}' (expected spirv or spir)")),
    }
}

fn parse_flavor(s: &str) -> Result<Flavor, String> {
    match s {
        "spir" => Ok(Flavor::Spir),
        "spirv-ir" => Ok(Flavor::SpirvIr),
        _ => Err(format!("unknown flavor '{s}' (expected spir or spirv-ir)")),
    }
}

fn parse_kernel_info(s: &str) -> Result<KernelInfo, String> {
    match s {
        "both" => Ok(KernelInfo::Both),
        "function" => Ok(KernelInfo::Function),
        "named" => Ok(KernelInfo::Named),
        _ => Err(format!(
            "unknown kernel info place '{s}' (expected both, function or named)"
        )),
    }
}

fn parse_spir_version(s: &str) -> Result<(u32, u32), String> {
    match s {
        "1.2" => Ok((1, 2)),
        "2.0" => Ok((2, 0)),
        _ => Err(format!("SPIR {s} does not exist (1.2 or 2.0)")),
    }
}

fn parse_version(s: &str) -> Result<(u8, u8), String> {
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

fn main() -> ExitCode {
    // Panics are bugs, but the user still gets one line and exit code 1, never an abort trace.
    std::panic::set_hook(Box::new(|_| {}));
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match std::panic::catch_unwind(|| run(cli)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
        Err(_) => {
            eprintln!("error: internal error (please report): the translator panicked");
            ExitCode::from(1)
        }
    }
}

/// An input path; stdin is copied to a temporary file for the commands that read files
/// (`to-spirv` and `to-spir` translate its bytes).
struct Input {
    path: PathBuf,
    label: String,
    stdin: Option<Vec<u8>>,
    _temp: Option<TempFile>,
}

impl Input {
    /// What the library translates: stdin's bytes, or the file.
    fn source(&self) -> spir_xlate::Input<'_> {
        match &self.stdin {
            Some(bytes) => spir_xlate::Input::Bytes(bytes),
            None => spir_xlate::Input::Path(&self.path),
        }
    }
}

struct TempFile(PathBuf);
impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// `as_file`: the command reads a path, so stdin goes through a temporary file.
fn open_input(input: &str, as_file: bool) -> Result<Input, Error> {
    if input == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| io_error("<stdin>", e))?;
        if !as_file {
            return Ok(Input {
                path: PathBuf::from("-"),
                label: "<stdin>".into(),
                stdin: Some(bytes),
                _temp: None,
            });
        }
        let path = std::env::temp_dir().join(format!("spir-xlate-stdin-{}", std::process::id()));
        std::fs::write(&path, &bytes).map_err(|e| io_error("<stdin>", e))?;
        return Ok(Input {
            path: path.clone(),
            label: "<stdin>".into(),
            stdin: Some(bytes),
            _temp: Some(TempFile(path)),
        });
    }
    let p = Path::new(input);
    if p.is_dir() {
        return Err(Error::new(ErrorKind::Io(
            "this is a directory, not a file (give one module)".into(),
        ))
        .in_file(input));
    }
    if !p.is_file() {
        let why = match std::fs::metadata(p) {
            Err(e) => spir_xlate::diag::io_words(&e),
            Ok(_) => "not a regular file".to_string(),
        };
        return Err(Error::new(ErrorKind::Io(why)).in_file(input));
    }
    Ok(Input {
        path: PathBuf::from(input),
        label: input.to_string(),
        stdin: None,
        _temp: None,
    })
}

fn io_error(file: &str, e: std::io::Error) -> Error {
    Error::new(spir_xlate::ErrorKind::Io(spir_xlate::diag::io_words(&e))).in_file(file)
}

fn output_error(file: &str, why: String) -> Error {
    Error::new(ErrorKind::Output(why)).in_file(file)
}

/// Write through a temporary file in the destination folder and rename it into place, so a
/// failed run never leaves a partial output.
fn write_output(out: &str, bytes: &[u8]) -> Result<(), Error> {
    if out == "-" {
        let mut so = std::io::stdout().lock();
        return so
            .write_all(bytes)
            .and_then(|_| so.flush())
            .map_err(|e| output_error("<stdout>", spir_xlate::diag::io_words(&e)));
    }
    let dest = Path::new(out);
    let dir = dest
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.tmp{}",
        dest.file_name().and_then(|n| n.to_str()).unwrap_or("out"),
        std::process::id()
    ));
    if dest.is_dir() {
        return Err(output_error(out, "this is a directory".into()));
    }
    if !dir.is_dir() {
        return Err(output_error(
            out,
            format!("the directory {} does not exist", dir.display()),
        ));
    }
    let guard = TempFile(tmp.clone());
    std::fs::write(&tmp, bytes).map_err(|e| output_error(out, spir_xlate::diag::io_words(&e)))?;
    std::fs::rename(&tmp, dest).map_err(|e| output_error(out, spir_xlate::diag::io_words(&e)))?;
    std::mem::forget(guard);
    Ok(())
}

/// Where a translation of `input` goes: `-o`'s path, or the input's name with extension
/// `ext` replacing one of `replaces` (else appended: `x.bc32` and `x.bc64` stay apart).
/// Refused before anything is read or written: an output that is the input file (or the
/// other output of the run, `also`), and an existing file at a default name unless
/// `force` (no-clobber: the SPIR a module was made from sits at its default name).
fn output_path(
    input: &str,
    given: Option<String>,
    ext: &str,
    replaces: &[&str],
    force: bool,
    also: Option<&str>,
) -> Result<String, Error> {
    let defaulted = given.is_none();
    let out = given.unwrap_or_else(|| {
        if input == "-" {
            return "-".into();
        }
        let p = Path::new(input);
        match p.extension().and_then(|e| e.to_str()) {
            Some(e) if replaces.contains(&e) => p.with_extension(ext),
            _ => PathBuf::from(format!("{input}.{ext}")),
        }
        .to_string_lossy()
        .into_owned()
    });
    if out == "-" {
        return Ok(out);
    }
    let refuse = |why: String| Err(output_error(&out, why));
    if input != "-" && same_file(Path::new(input), Path::new(&out)) {
        return refuse(
            "this is the input file: the output would destroy it (give another -o)".into(),
        );
    }
    if also.is_some_and(|a| a != "-" && (a == out || same_file(Path::new(a), Path::new(&out)))) {
        return refuse("the module and the reflection would be written to the same file".into());
    }
    if defaulted && !force && Path::new(&out).exists() {
        return refuse(format!(
            "the default output name exists and is not overwritten (give -o {out}, or --force, \
             to replace it)"
        ));
    }
    Ok(out)
}

/// Whether two paths name one file (through links, `..` and hard links).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    matches!(
        (std::fs::canonicalize(a), std::fs::canonicalize(b)),
        (Ok(x), Ok(y)) if x == y
    )
}

fn run(cli: Cli) -> Result<(), Error> {
    match cli.command {
        Command::ToSpirv {
            input,
            output,
            force,
            quiet,
            spirv,
            limits,
            reflection,
            text,
        } => {
            let options = spirv.options(&limits);
            let ext = if text { "spvasm" } else { "spv" };
            let replaces = ["bc", "ll", "spir", "spir32", "spir64"];
            let out = output_path(&input, output, ext, &replaces, force, None)?;
            if let Some(r) = &reflection {
                output_path(&input, Some(r.clone()), "json", &[], force, Some(&out))?;
            }
            let inp = open_input(&input, false)?;
            if reflection.is_some() && !spirv.target.is_vulkan() {
                Cli::command()
                    .error(
                        clap::error::ErrorKind::ArgumentConflict,
                        "--reflection describes a Vulkan module's kernel interface: it needs \
                         --target vulkan1.1, vulkan1.2 or vulkan1.3",
                    )
                    .exit();
            }
            let translated = translate(inp.source(), &Translation::ToSpirv(options))
                .map_err(|e| e.in_file(&inp.label))?;
            if !quiet {
                warn_lost(&inp.label, &translated.lost);
            }
            if let (Some(path), Some(json)) = (&reflection, &translated.reflection) {
                write_output(path, json.as_bytes())?;
            }
            let bytes = if text {
                let words: Vec<u32> = translated
                    .bytes
                    .chunks_exact(4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                    .collect();
                spir_xlate::disassemble(&words)
                    .map_err(|e| e.in_file(&inp.label))?
                    .into_bytes()
            } else {
                translated.bytes
            };
            write_output(&out, &bytes)
        }
        Command::ToSpir {
            input,
            output,
            force,
            quiet,
            spir,
            limits,
            text,
        } => {
            let options = spir.options(text, &limits);
            let ext = if text { "ll" } else { "bc" };
            let out = output_path(&input, output, ext, &["spv", "spirv"], force, None)?;
            let inp = open_input(&input, false)?;
            let translated = translate(inp.source(), &Translation::ToSpir(options))
                .map_err(|e| e.in_file(&inp.label))?;
            if !quiet {
                warn_lost(&inp.label, &translated.lost);
            }
            write_output(&out, &translated.bytes)
        }
        Command::Migrate {
            inputs,
            output_dir,
            to,
            jobs,
            spirv,
            spir,
            limits,
            report,
            quiet,
        } => migrate(MigrateArgs {
            inputs,
            output_dir,
            options: spir_xlate::migrate::MigrateOptions {
                direction: to,
                spirv: spirv.options(&limits),
                spir: spir.options(false, &limits),
                jobs: jobs.unwrap_or(0),
            },
            report,
            quiet,
        }),
        Command::DumpIr { input } => {
            let inp = open_input(&input, true)?;
            let m = spir_xlate::inspect::graph(&inp.path).map_err(|e| e.in_file(&inp.label))?;
            write_output("-", spir_xlate::ir::print::print_module(&m).as_bytes())
        }
        Command::Roundtrip { input, target } => {
            let inp = open_input(&input, true)?;
            let options = Options {
                target,
                ..Default::default()
            };
            let checks = spir_xlate::inspect::roundtrip(&inp.path, &options)
                .map_err(|e| e.in_file(&inp.label))?;
            let mut report = String::new();
            let mut changed = Vec::new();
            for c in &checks {
                match &c.difference {
                    None => report.push_str(&format!("{}: {}: same\n", inp.label, c.path)),
                    Some(d) => {
                        changed.push(c.path);
                        report.push_str(&format!("{}: {}: differs at {d}\n", inp.label, c.path));
                    }
                }
            }
            write_output("-", report.as_bytes())?;
            if changed.is_empty() {
                return Ok(());
            }
            Err(Error::new(ErrorKind::RoundTripDiffers(changed.join(", "))).in_file(&inp.label))
        }
        Command::Canonical { input } => {
            let inp = open_input(&input, true)?;
            let text = spir_xlate::inspect::canonical_text(&inp.path)
                .map_err(|e| e.in_file(&inp.label))?;
            write_output("-", text.as_bytes())
        }
    }
}

/// Each fact of the input the output does not keep, as a warning on stderr.
fn warn_lost(file: &str, lost: &[spir_xlate::diag::Lost]) {
    for l in lost {
        eprintln!("warning: {file}: not kept: {l}");
    }
}

struct MigrateArgs {
    inputs: Vec<PathBuf>,
    output_dir: PathBuf,
    options: spir_xlate::migrate::MigrateOptions,
    report: Option<PathBuf>,
    quiet: bool,
}

/// `migrate`: plan, translate with a progress bar on a terminal, report, summarize.
fn migrate(args: MigrateArgs) -> Result<(), Error> {
    use spir_xlate::migrate;
    use std::io::IsTerminal;
    let start = std::time::Instant::now();
    let batch = migrate::plan(&args.inputs, &args.output_dir, args.options.direction)?;
    let bar = if args.quiet || !std::io::stderr().is_terminal() {
        indicatif::ProgressBar::hidden()
    } else {
        let bar = indicatif::ProgressBar::new((batch.jobs.len() + batch.unreadable.len()) as u64);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {wide_msg}")
        {
            bar.set_style(style);
        }
        bar
    };
    let reports = migrate::migrate(&batch, &args.options, |r| {
        if !r.status.is_ok() {
            bar.set_message(format!("{}: {}", r.input.display(), r.status.as_str()));
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    if let Some(path) = &args.report {
        let json = migrate::report_json(&reports, &batch.skipped);
        write_output(&path.to_string_lossy(), json.as_bytes())?;
    }
    for r in reports.iter().filter(|r| !r.status.is_ok()) {
        eprintln!("{}", r.message.as_deref().unwrap_or_default());
    }
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "{}",
        migrate::summary_line(&reports, &batch.skipped, args.options.direction, seconds)
    );
    if !reports.iter().all(|r| r.status.is_ok()) {
        // Each failure and the summary are printed: exit 1 without a further line.
        std::process::exit(1);
    }
    Ok(())
}
