//! `spir-xlate` command line: I/O and exit codes only; translation lives in the library.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod args;

/// mimalloc for every allocation of the process, Rust's and (through its `override` of
/// malloc and free) LLVM's and SPIRV-Tools' alike (Cargo.toml says why).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use args::{Cli, Command};
use clap::{CommandFactory, FromArgMatches};
use spir_xlate::{diag::Error, translate, ErrorKind, Options, Translation};

fn main() -> ExitCode {
    // Panics are bugs, but the user still gets one line and exit code 1, never an abort trace.
    std::panic::set_hook(Box::new(|_| {}));
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|c| (c, m)));
    let cli = match parsed {
        Ok((c, matches)) => {
            args::check_applicable(&c, &matches);
            c
        }
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
    /// Whether the input is a SPIR-V module (by its first bytes).
    fn is_spirv(&self) -> bool {
        let magic = |b: &[u8]| {
            b.len() >= 4 && matches!(b[..4], [0x03, 0x02, 0x23, 0x07] | [0x07, 0x23, 0x02, 0x03])
        };
        match &self.stdin {
            Some(bytes) => magic(bytes),
            None => {
                use std::io::Read;
                let mut head = Vec::new();
                std::fs::File::open(&self.path)
                    .and_then(|f| f.take(4).read_to_end(&mut head))
                    .is_ok_and(|_| magic(&head))
            }
        }
    }

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
        let kind = match std::fs::metadata(p) {
            Err(e) => ErrorKind::io(&e),
            Ok(_) => ErrorKind::Io("not a regular file".into()),
        };
        return Err(Error::new(kind).in_file(input));
    }
    Ok(Input {
        path: PathBuf::from(input),
        label: input.to_string(),
        stdin: None,
        _temp: None,
    })
}

fn io_error(file: &str, e: std::io::Error) -> Error {
    Error::new(ErrorKind::io(&e)).in_file(file)
}

fn output_error(file: &str, why: String) -> Error {
    Error::new(ErrorKind::Output(why)).in_file(file)
}

/// Write an output (`-`: standard output) as `spir_xlate::output::write_file` does: a
/// regular file through a temporary file renamed into place (a failed run never leaves a
/// partial output), a link's target likewise, a device or FIFO written through.
fn write_output(out: &str, bytes: &[u8]) -> Result<(), Error> {
    if out == "-" {
        let mut so = std::io::stdout().lock();
        return so
            .write_all(bytes)
            .and_then(|_| so.flush())
            .map_err(|e| Error::new(ErrorKind::output(&e)).in_file("<stdout>"));
    }
    let failed = |e: std::io::Error| Error::new(ErrorKind::output(&e)).in_file(out);
    let dest = Path::new(out);
    if !spir_xlate::output::is_special(dest) {
        let target = spir_xlate::output::link_target(dest).map_err(failed)?;
        if target.is_dir() {
            return Err(output_error(out, "this is a directory".into()));
        }
        let dir = target
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if !dir.is_dir() {
            return Err(output_error(
                out,
                format!("the directory {} does not exist", dir.display()),
            ));
        }
    }
    spir_xlate::output::write_file(dest, bytes, "out").map_err(failed)
}

/// Binary output (`what`) to standard output on a terminal is refused before any work, as
/// clang refuses it: it would only garble the screen.
fn refuse_binary_on_terminal(out: &str, text: bool, what: &str) -> Result<(), Error> {
    use std::io::IsTerminal;
    if out == "-" && !text && std::io::stdout().is_terminal() {
        return Err(output_error(
            "<stdout>",
            format!(
                "{what} is binary and standard output is a terminal: give -o FILE, or -S \
                 for text"
            ),
        ));
    }
    Ok(())
}

/// Where a translation of `input` goes: `-o`'s path, or the input's name with extension
/// `ext` replacing one of `replaces` (else appended: `x.bc32` and `x.bc64` stay apart).
/// Refused before anything is read or written: an output that is the input file (or the
/// other output of the run, `also`), and an existing file at a default name unless
/// `force` (no-clobber: the SPIR a module was made from sits at its default name).
fn output_path(
    input: &str,
    (flag, given): (&str, Option<String>),
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
        return refuse(format!(
            "this is the input file: the output would destroy it (give another {flag})"
        ));
    }
    if also.is_some_and(|a| a != "-" && (a == out || same_file(Path::new(a), Path::new(&out)))) {
        return refuse("the module and the reflection would be written to the same file".into());
    }
    if defaulted && !force && Path::new(&out).exists() {
        return refuse(
            "the default output name exists and is kept (it may be the module this one was \
             made from): give -o another name (--force replaces it)"
                .into(),
        );
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
            let options = spirv.options("to-spirv", &limits);
            let ext = if text { "spvasm" } else { "spv" };
            let replaces = ["bc", "ll", "spir", "spir32", "spir64"];
            let out = output_path(&input, ("-o", output), ext, &replaces, force, None)?;
            refuse_binary_on_terminal(&out, text, "a SPIR-V module")?;
            if let Some(r) = &reflection {
                output_path(
                    &input,
                    ("--reflection", Some(r.clone())),
                    "json",
                    &[],
                    force,
                    Some(&out),
                )?;
            }
            let inp = open_input(&input, false)?;
            if reflection.is_some() && !spirv.target.is_vulkan() {
                args::usage_error(
                    "to-spirv",
                    "--reflection describes a Vulkan module's kernel interface: it needs \
                     --target vulkan1.1, vulkan1.2 or vulkan1.3",
                );
            }
            let translated = translate(inp.source(), &Translation::ToSpirv(options))
                .map_err(|e| e.in_file(&inp.label))?;
            // SPIR-V in: rewritten for the target (a newer version brought down, an OpenCL
            // module made a Vulkan one), which is not what the command's name says.
            if !quiet && inp.is_spirv() {
                eprintln!(
                    "note: {}: this is a SPIR-V module, not SPIR: it is rewritten as SPIR-V for \
                     --target {} (to-spir translates SPIR-V to SPIR)",
                    inp.label,
                    spirv.target.name()
                );
            }
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
            let options = spir.options("to-spir", text, &limits);
            let ext = if text { "ll" } else { "bc" };
            let out = output_path(&input, ("-o", output), ext, &["spv", "spirv"], force, None)?;
            refuse_binary_on_terminal(&out, text, "LLVM bitcode")?;
            let inp = open_input(&input, false)?;
            let translated = translate(inp.source(), &Translation::ToSpir(options))
                .map_err(|e| e.in_file(&inp.label))?;
            if !quiet {
                warn_lost(&inp.label, &translated.lost);
            }
            write_output(&out, &translated.bytes)
        }
        Command::ToOpenclC {
            input,
            output,
            force,
            quiet,
            limits,
        } => {
            let options = spir_xlate::OpenclCOptions {
                limits: limits.limits(),
            };
            let replaces = ["bc", "ll", "spir", "spir32", "spir64", "spv", "spirv"];
            let out = output_path(&input, ("-o", output), "cl", &replaces, force, None)?;
            let inp = open_input(&input, false)?;
            let translated = translate(inp.source(), &Translation::ToOpenclC(options))
                .map_err(|e| e.in_file(&inp.label))?;
            if !quiet {
                warn_lost(&inp.label, &translated.lost);
            }
            write_output(&out, &translated.bytes)
        }
        Command::Migrate {
            inputs,
            merge_reports: true,
            report,
            ..
        } => merge(&inputs, report.as_deref()),
        Command::Migrate {
            inputs,
            output_dir,
            force,
            shard,
            since,
            merge_reports: false,
            to,
            jobs,
            spirv,
            spir,
            limits,
            report,
            quiet,
        } => migrate(MigrateArgs {
            inputs,
            output_dir: output_dir.unwrap_or_default(),
            force,
            shard,
            since,
            options: spir_xlate::migrate::MigrateOptions {
                direction: to,
                spirv: spirv.options("migrate", &limits),
                spir: spir.options("migrate", false, &limits),
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
    force: bool,
    shard: Option<spir_xlate::migrate::Shard>,
    since: Option<PathBuf>,
    options: spir_xlate::migrate::MigrateOptions,
    report: Option<PathBuf>,
    quiet: bool,
}

/// `migrate`: plan, translate with a progress bar on a terminal, report, summarize.
fn migrate(args: MigrateArgs) -> Result<(), Error> {
    use spir_xlate::migrate;
    use std::io::IsTerminal;
    let start = std::time::Instant::now();
    let mut batch = migrate::plan(&args.inputs, &args.output_dir, args.options.direction)?;
    if let Some(shard) = args.shard {
        batch.keep_shard(shard);
    }
    if let Some(report) = &args.since {
        // The report is the option's value: one that cannot be read is the user's slip.
        if let Err(e) = std::fs::File::open(report) {
            let why = match ErrorKind::io(&e) {
                ErrorKind::Io(words) => words,
                other => other.to_string(),
            };
            args::usage_error(
                "migrate",
                format!(
                    "--since {}: the report cannot be read: {why}",
                    report.display()
                ),
            );
        }
    }
    let earlier = args
        .since
        .as_deref()
        .map(migrate::EarlierRun::read)
        .transpose()?;
    if let Some(earlier) = &earlier {
        batch.skip_unchanged(earlier, &args.options.key_text());
    }
    let existing = batch.existing_outputs(earlier.as_ref());
    if let (Some(first), false) = (existing.first(), args.force) {
        let n = existing.len();
        let what = if n == 1 {
            "output exists"
        } else {
            "outputs exist"
        };
        return Err(Error::new(ErrorKind::Output(format!(
            "{n} {what} already and would be overwritten (the first: {}); give --force to \
             replace them, or --since with the earlier run's report to translate only what \
             changed",
            first.display()
        )))
        .in_file(&args.output_dir.display().to_string()));
    }
    migrate::prepare_output_dir(&args.output_dir)?;
    // The bar counts the files translated (the unreadable ones are reported at the end)
    // and says how many failed so far; it stays, full, above the summary line.
    let bar = if args.quiet || !std::io::stderr().is_terminal() {
        indicatif::ProgressBar::hidden()
    } else {
        let bar = indicatif::ProgressBar::new(batch.jobs.len() as u64);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {msg}")
        {
            bar.set_style(style);
        }
        bar
    };
    let failed = std::sync::atomic::AtomicUsize::new(0);
    let reports = migrate::migrate(&batch, &args.options, |r| {
        if !r.status.is_ok() {
            let n = failed.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            bar.set_message(format!("{n} failed"));
        }
        bar.inc(1);
    });
    bar.finish();
    if !bar.is_hidden() {
        eprintln!();
    }
    if let Some(path) = &args.report {
        let json = migrate::report_json(&reports, &batch.skipped);
        write_output(&path.to_string_lossy(), json.as_bytes())?;
    }
    for r in reports.iter().filter(|r| !r.status.is_ok()) {
        eprintln!("{}", r.message.as_deref().unwrap_or_default());
    }
    let seconds = start.elapsed().as_secs_f64();
    if !args.quiet {
        eprintln!(
            "{}",
            migrate::summary_line(&reports, &batch.skipped, args.options.direction, seconds)
        );
    }
    // Each failure and the summary are printed: the exit code alone says which kind of run
    // it was. 1: some inputs were refused or are no modules (the run did its work, and its
    // report is whole, to keep for --since); 3: the run itself failed for a file (an output
    // that could not be written, a fault of ours).
    let run_failed = reports.iter().any(|r| {
        matches!(
            r.status,
            migrate::Status::OutputError | migrate::Status::InternalError
        )
    });
    if run_failed {
        std::process::exit(3);
    }
    if !reports.iter().all(|r| r.status.is_ok()) {
        std::process::exit(1);
    }
    Ok(())
}

/// `migrate --merge-reports`: the shares' reports as one, to `out` or stdout.
fn merge(reports: &[PathBuf], out: Option<&Path>) -> Result<(), Error> {
    let mut texts = Vec::with_capacity(reports.len());
    for r in reports {
        let name = r.display().to_string();
        let text = std::fs::read_to_string(r).map_err(|e| io_error(&name, e))?;
        texts.push((name, text));
    }
    let merged = spir_xlate::migrate::merge_reports(&texts)?;
    let out = out.map_or_else(|| "-".to_string(), |p| p.display().to_string());
    if let Some(input) = reports.iter().find(|r| same_file(r, Path::new(&out))) {
        return Err(output_error(
            &out,
            format!(
                "this is {}, one of the reports merged (give another --report)",
                input.display()
            ),
        ));
    }
    write_output(&out, merged.as_bytes())
}
