//! Batch migration: every SPIR module (or, in reverse, every SPIR-V module) under some files
//! and directories, translated in one process on several threads, the outputs mirroring the
//! input tree (`spir-xlate migrate`).
//!
//! A directory's inputs are recognised by content (the bitcode or SPIR-V magic number), never
//! by extension, and its other files are counted as skipped; a file named by itself is always
//! a job. Each file is one job: the translation runs contained (a worker process per thread,
//! `contain::worker`, replaced when a file kills it), so no input can stop or kill
//! the batch, and its output is written to a temporary file in the destination folder and
//! renamed into place, so a failed file leaves nothing behind. Each job's outcome is a [`FileReport`]: the status,
//! the error message, and for a translated file its kernels, SPIR-V version, capabilities and
//! extensions.
//!
//! ```
//! use spir_xlate::migrate::{migrate, plan, Direction, MigrateOptions};
//! use std::path::PathBuf;
//!
//! let out = std::env::temp_dir().join(format!("spir-xlate-doc-{}", std::process::id()));
//! let options = MigrateOptions::new(Direction::ToSpirv);
//! let batch = plan(&[PathBuf::from("tests/fixtures/modern")], &out, options.direction).unwrap();
//! let reports = migrate(&batch, &options, |_| {});
//! assert!(reports.iter().all(|r| r.status.is_ok()));
//! assert!(out.join("vector_add.spir64.spv").exists());
//! # std::fs::remove_dir_all(&out).unwrap();
//! ```

mod report;
mod shares;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::diag::{io_words, Error, ErrorKind, Result};
use crate::input::{self, Format};
use crate::pipeline;
use crate::{Options, SpirOptions};

pub use report::{merge_reports, report_json, summary_line, FileReport, SpirvFacts, Status};
pub use shares::{content_key, EarlierRun, Shard};

/// Which way a batch translates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// SPIR bitcode → SPIR-V (`.spv`).
    ToSpirv,
    /// SPIR-V → SPIR bitcode (`.bc`).
    ToSpir,
}

impl Direction {
    /// Whether a file's first bytes make it an input of this direction.
    fn accepts(self, magic: &[u8]) -> bool {
        match self {
            Direction::ToSpirv => input::format(magic) == Format::Bitcode,
            Direction::ToSpir => input::format(magic) == Format::Spirv,
        }
    }

    /// Why a file with first bytes `magic` is not an input of this direction, in words.
    fn skip_reason(self, magic: &[u8]) -> String {
        match (input::format(magic), self) {
            (Format::Spirv, Direction::ToSpirv) => {
                "a SPIR-V module, not SPIR (migrate --to spir translates those)".into()
            }
            (Format::Bitcode, Direction::ToSpir) => {
                "LLVM bitcode, not SPIR-V (migrate --to spirv translates that)".into()
            }
            _ => "neither LLVM bitcode nor SPIR-V (by its first bytes)".into(),
        }
    }

    /// The output's extension, and the input extensions it replaces (others are kept and the
    /// output's appended).
    fn extensions(self) -> (&'static str, &'static [&'static str]) {
        match self {
            // The names `to-spirv` and `to-spir` replace, so that one file gets one name.
            Direction::ToSpirv => ("spv", &["bc", "ll", "spir", "spir32", "spir64"]),
            Direction::ToSpir => ("bc", &["spv", "spirv"]),
        }
    }
}

/// How a batch runs.
#[derive(Clone, Debug)]
pub struct MigrateOptions {
    /// Which way the batch translates.
    pub direction: Direction,
    /// Options of each SPIR → SPIR-V translation.
    pub spirv: Options,
    /// Options of each SPIR-V → SPIR translation.
    pub spir: SpirOptions,
    /// Threads (each runs one contained translation at a time); 0 means one per CPU.
    pub jobs: usize,
}

impl MigrateOptions {
    /// A batch in `direction` with default translation options, one thread per CPU.
    pub fn new(direction: Direction) -> Self {
        MigrateOptions {
            direction,
            spirv: Options::default(),
            spir: SpirOptions::default(),
            jobs: 0,
        }
    }

    /// The options that decide each output, as the text [`content_key`] hashes: the direction
    /// and its translation options (not the thread count).
    pub fn key_text(&self) -> String {
        match self.direction {
            Direction::ToSpirv => format!("{:?} {:?}", self.direction, self.spirv),
            Direction::ToSpir => format!("{:?} {:?}", self.direction, self.spir),
        }
    }
}

/// One file to translate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The module to read.
    pub input: PathBuf,
    /// Where its translation goes (the input tree mirrored under the output directory).
    pub output: PathBuf,
}

/// The files of a batch.
#[derive(Debug, Default)]
pub struct Batch {
    /// The files to translate, in the order they were found.
    pub jobs: Vec<Job>,
    /// Files under the inputs that are not modules of the batch's direction, each with what
    /// it is instead.
    pub skipped: Vec<(PathBuf, String)>,
    /// Files and directories that could not be read (a permission, a broken link), with why:
    /// each is reported as invalid input, and the batch goes on without it.
    pub unreadable: Vec<(PathBuf, String)>,
    /// Jobs an earlier run translated from the same bytes with the same options, each with
    /// its content key ([`Batch::skip_unchanged`]): reported, not translated again.
    pub unchanged: Vec<(Job, String)>,
    /// The facts the earlier run's report gave of each unchanged file's output, which its
    /// report in this run repeats (a `--since` run's report is a full run's).
    pub earlier_facts: crate::hash::HashMap<PathBuf, SpirvFacts>,
}

/// Every input of `direction` under `inputs` (files and directories, recursively, in name
/// order, links followed), each with its output path under `out_dir`: a directory's files
/// keep their path below it and are chosen by content, a file given by itself is always a
/// job and goes to `out_dir` directly. An input that
/// does not exist is an error; an entry below one that cannot be read is left for
/// [`migrate`] to report.
///
/// The output directory is made if missing, but not its parents: a parent that does not exist
/// (a mistyped path) is an error.
pub fn plan(inputs: &[PathBuf], out_dir: &Path, direction: Direction) -> Result<Batch> {
    check_output_dir(out_dir)?;
    let mut batch = Batch::default();
    let mut outputs = crate::hash::HashMap::default();
    for root in inputs {
        let meta = std::fs::metadata(root).map_err(|e| io_error(root, &e))?;
        // A file named by itself is translated whatever it holds (LLVM IR text too, and what
        // is no module gets its error); a directory's files are chosen by content.
        let named = !meta.is_dir();
        let files: Vec<(PathBuf, PathBuf)> = if meta.is_dir() {
            let mut files = Vec::new();
            walk(
                root,
                Path::new(""),
                &mut Vec::new(),
                &mut files,
                &mut batch.unreadable,
            );
            files
        } else {
            let name = root.file_name().map(PathBuf::from).ok_or_else(|| {
                Error::new(ErrorKind::Io("not a file name".into()))
                    .in_file(&root.display().to_string())
            })?;
            vec![(root.clone(), name)]
        };
        for (input, rel) in files {
            match magic(&input) {
                Ok(m) if named || direction.accepts(&m) => {}
                Ok(m) => {
                    batch.skipped.push((input, direction.skip_reason(&m)));
                    continue;
                }
                Err(e) => {
                    batch.unreadable.push((input, crate::diag::io_words(&e)));
                    continue;
                }
            }
            let output = out_dir.join(output_name(&rel, direction));
            if let Some(first) = outputs.insert(output.clone(), input.clone()) {
                // One file named twice (or under two roots that overlap) is translated once.
                let same = |p: &Path| std::fs::canonicalize(p).ok();
                if same(&first).is_some() && same(&first) == same(&input) {
                    continue;
                }
                return Err(Error::new(ErrorKind::Output(format!(
                    "{} and {} would both be written to {}",
                    first.display(),
                    input.display(),
                    output.display()
                ))));
            }
            batch.jobs.push(Job { input, output });
        }
    }
    refuse_outputs_on_inputs(inputs, &batch.jobs)?;
    Ok(batch)
}

/// The output directory is a directory, or can be made as one in a directory that exists.
fn check_output_dir(out_dir: &Path) -> Result<()> {
    let refuse = |why: String| {
        Err(Error::new(ErrorKind::Output(why)).in_file(&out_dir.display().to_string()))
    };
    match std::fs::metadata(out_dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return refuse("this is a file, not a directory".into()),
        Err(_) => {
            let parent = out_dir
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            if !parent.is_dir() {
                return refuse(format!(
                    "the directory {} does not exist (migrate makes the output directory, \
                     not its parents)",
                    parent.display()
                ));
            }
        }
    }
    Ok(())
}

/// Make the output directory `out_dir` where it is missing, and check that files can be
/// written into it: one error before any work, where a directory the run cannot make or
/// write into would fail every file.
pub fn prepare_output_dir(out_dir: &Path) -> Result<()> {
    let refuse = |why: String| {
        Err(Error::new(ErrorKind::Output(why)).in_file(&out_dir.display().to_string()))
    };
    // Shares of one tree start at once: another may have just made it.
    match std::fs::create_dir(out_dir) {
        Err(_) if out_dir.is_dir() => {}
        Err(e) => return refuse(format!("cannot make this directory: {}", io_words(&e))),
        Ok(()) => {}
    }
    let probe = out_dir.join(format!(".spir-xlate-probe-{}", std::process::id()));
    match std::fs::File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => refuse(format!(
            "cannot write into this directory: {}",
            io_words(&e)
        )),
    }
}

/// An output that already exists under one of the inputs (a directory's files are all
/// inputs of the run, translated or skipped) or is an input file would destroy it: the
/// batch is refused before anything is written (`--to spir` into the tree a module's SPIR
/// came from would overwrite that SPIR).
fn refuse_outputs_on_inputs(inputs: &[PathBuf], jobs: &[Job]) -> Result<()> {
    let roots: Vec<PathBuf> = inputs
        .iter()
        .filter_map(|r| std::fs::canonicalize(r).ok())
        .collect();
    for job in jobs {
        let Ok(out) = std::fs::canonicalize(&job.output) else {
            continue; // not there yet: nothing to destroy
        };
        if roots.iter().any(|r| out.starts_with(r)) {
            return Err(Error::new(ErrorKind::Output(format!(
                "the output of {} would overwrite {}, a file of the input (give an output \
                 directory outside the inputs, or remove it first)",
                job.input.display(),
                job.output.display()
            ))));
        }
    }
    Ok(())
}

/// The files under directory `dir` (`rel` below the root), in name order, links followed:
/// (path, path below the root) into `files`. A dangling link, an entry that cannot be read
/// and a link back to a directory being walked (`ancestors`: a cycle) are unreadable
/// entries, with why.
fn walk(
    dir: &Path,
    rel: &Path,
    ancestors: &mut Vec<std::path::PathBuf>,
    files: &mut Vec<(PathBuf, PathBuf)>,
    unreadable: &mut Vec<(PathBuf, String)>,
) {
    let Ok(real) = std::fs::canonicalize(dir) else {
        unreadable.push((dir.to_path_buf(), "cannot resolve this directory".into()));
        return;
    };
    if ancestors.contains(&real) {
        unreadable.push((
            dir.to_path_buf(),
            "a link back to a directory that contains it (a cycle)".into(),
        ));
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            unreadable.push((dir.to_path_buf(), crate::diag::io_words(&e)));
            return;
        }
    };
    let mut names = Vec::new();
    for entry in entries {
        match entry {
            Ok(entry) => names.push(entry.file_name()),
            Err(e) => unreadable.push((dir.to_path_buf(), crate::diag::io_words(&e))),
        }
    }
    names.sort();
    ancestors.push(real);
    for name in names {
        let path = dir.join(&name);
        let below = rel.join(&name);
        // `metadata` follows links: a link to a module is a module.
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => walk(&path, &below, ancestors, files, unreadable),
            Ok(m) if m.is_file() => files.push((path, below)),
            Ok(_) => {}
            Err(e) => unreadable.push((path, crate::diag::io_words(&e))),
        }
    }
    ancestors.pop();
}

fn io_error(path: &Path, e: &std::io::Error) -> Error {
    Error::new(ErrorKind::Io(crate::diag::io_words(e))).in_file(&path.display().to_string())
}

/// The first bytes of a file (fewer where it is shorter).
fn magic(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut buf = Vec::with_capacity(8);
    std::fs::File::open(path)?.take(8).read_to_end(&mut buf)?;
    Ok(buf)
}

/// `rel` with the output extension: replacing an input extension, else appended.
fn output_name(rel: &Path, direction: Direction) -> PathBuf {
    let (ext, replaces) = direction.extensions();
    match rel.extension().and_then(|e| e.to_str()) {
        Some(e) if replaces.contains(&e) => rel.with_extension(ext),
        _ => {
            let mut name = rel.as_os_str().to_owned();
            name.push(".");
            name.push(ext);
            PathBuf::from(name)
        }
    }
}

/// Translate every job of `batch` on `options.jobs` threads; `progress` sees each report as
/// its file finishes (from any thread). The reports come back in the jobs' order, then one
/// (invalid input) for each entry that could not be read.
pub fn migrate(
    batch: &Batch,
    options: &MigrateOptions,
    progress: impl Fn(&FileReport) + Sync,
) -> Vec<FileReport> {
    let mut reports = translate_all(&batch.jobs, options, &progress);
    for (path, why) in &batch.unreadable {
        let report = FileReport {
            input: path.clone(),
            output: PathBuf::new(),
            status: Status::InvalidInput,
            message: Some(
                Error::new(ErrorKind::Io(why.clone()))
                    .in_file(&path.display().to_string())
                    .to_string(),
            ),
            facts: None,
            key: None,
            seconds: 0.0,
        };
        progress(&report);
        reports.push(report);
    }
    for (job, key) in &batch.unchanged {
        let report = FileReport {
            input: job.input.clone(),
            output: job.output.clone(),
            status: Status::Unchanged,
            message: None,
            facts: batch.earlier_facts.get(&job.output).cloned(),
            key: Some(key.clone()),
            seconds: 0.0,
        };
        progress(&report);
        reports.push(report);
    }
    reports
}

fn translate_all(
    jobs: &[Job],
    options: &MigrateOptions,
    progress: &(impl Fn(&FileReport) + Sync),
) -> Vec<FileReport> {
    let threads = match options.jobs {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    }
    .clamp(1, jobs.len().max(1));
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<FileReport>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut runner = Runner::new(jobs, options);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    let report = runner.translate(job, i);
                    progress(&report);
                    *slots[i].lock().unwrap_or_else(|p| p.into_inner()) = Some(report);
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .unwrap_or_else(|p| p.into_inner())
                .expect("every job is taken by a thread")
        })
        .collect()
}

/// One thread's translations: through a worker process that serves many files (Unix;
/// replaced when it dies), else each file contained by itself.
struct Runner<'a> {
    jobs: &'a [Job],
    options: &'a MigrateOptions,
    #[cfg(unix)]
    worker: Option<crate::contain::worker::Worker>,
}

impl<'a> Runner<'a> {
    fn new(jobs: &'a [Job], options: &'a MigrateOptions) -> Self {
        Runner {
            jobs,
            options,
            #[cfg(unix)]
            worker: None,
        }
    }

    fn translate(&mut self, job: &Job, index: usize) -> FileReport {
        let start = Instant::now();
        // The key of the bytes translated (read again by the translation: a file replaced in
        // between is keyed as read here, and a later --since translates it again at worst).
        let key = std::fs::read(&job.input)
            .ok()
            .map(|bytes| content_key(&bytes, &self.options.key_text()));
        let result = self.facts(index);
        let seconds = start.elapsed().as_secs_f64();
        let (status, message, facts) = match result {
            Ok(facts) => (Status::Ok, None, Some(facts)),
            Err(e) => {
                let e = e.in_file(&job.input.display().to_string());
                (Status::of(&e.kind), Some(e.to_string()), None)
            }
        };
        FileReport {
            input: job.input.clone(),
            output: job.output.clone(),
            key: key.filter(|_| status.is_ok()),
            status,
            message,
            facts,
            seconds,
        }
    }

    #[cfg(unix)]
    fn facts(&mut self, index: usize) -> Result<SpirvFacts> {
        use crate::contain::{worker::Worker, Work};
        let (jobs, options) = (self.jobs, self.options);
        if self.worker.is_none() {
            let limits = options.spirv.limits;
            let serve = move |n: u64| job_facts(&jobs[n as usize], n as usize, options);
            self.worker = Some(Worker::spawn(Work::ReadBitcode, limits, serve)?);
        }
        let worker = self.worker.as_mut().expect("made above");
        match worker.call::<SpirvFacts>(index as u64) {
            Ok(result) => result,
            Err(gone) => {
                self.worker = None;
                Err(gone)
            }
        }
    }

    #[cfg(not(unix))]
    fn facts(&mut self, index: usize) -> Result<SpirvFacts> {
        job_facts(&self.jobs[index], index, self.options)
    }
}

/// Translate one file and write its output: the facts of its SPIR-V side. In a worker process
/// (or contained by itself where there are none).
fn job_facts(job: &Job, index: usize, options: &MigrateOptions) -> Result<SpirvFacts> {
    match options.direction {
        Direction::ToSpirv => {
            let out = pipeline::translate_to_spirv(&job.input, &options.spirv)?;
            let bytes: Vec<u8> = out.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            write_atomically(&job.output, &bytes, index)?;
            if let Some(json) = &out.reflection {
                write_atomically(&job.output.with_extension("json"), json.as_bytes(), index)?;
            }
            Ok(SpirvFacts {
                lost: out.lost.iter().map(ToString::to_string).collect(),
                ..SpirvFacts::of(&out.words)
            })
        }
        Direction::ToSpir => {
            let words = pipeline::words(&job.input)?;
            let out = pipeline::translate_to_spir(&*words, &options.spir)?;
            write_atomically(&job.output, &out.bytes, index)?;
            Ok(SpirvFacts {
                lost: out.lost.iter().map(ToString::to_string).collect(),
                ..SpirvFacts::of(&words)
            })
        }
    }
}

/// Write `bytes` to `dest` (`output::write_file`: a temporary file renamed into place).
fn write_atomically(dest: &Path, bytes: &[u8], index: usize) -> Result<()> {
    let fail = |e: std::io::Error| {
        Error::new(ErrorKind::Output(e.to_string())).in_file(&dest.display().to_string())
    };
    let dir = dest.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(fail)?;
    crate::output::write_file(dest, bytes, &index.to_string()).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names_replace_known_extensions_only() {
        let d = Direction::ToSpirv;
        assert_eq!(
            output_name(Path::new("a/k.bc"), d),
            PathBuf::from("a/k.spv")
        );
        assert_eq!(
            output_name(Path::new("k.spir64"), d),
            PathBuf::from("k.spv")
        );
        // One rule with `to-spirv`: c.ll is c.spv.
        assert_eq!(output_name(Path::new("c.ll"), d), PathBuf::from("c.spv"));
        assert_eq!(output_name(Path::new("k.o"), d), PathBuf::from("k.o.spv"));
        assert_eq!(output_name(Path::new("k"), d), PathBuf::from("k.spv"));
        let r = Direction::ToSpir;
        assert_eq!(output_name(Path::new("k.spv"), r), PathBuf::from("k.bc"));
        assert_eq!(output_name(Path::new("k.spirv"), r), PathBuf::from("k.bc"));
        assert_eq!(
            output_name(Path::new("k.bin"), r),
            PathBuf::from("k.bin.bc")
        );
    }

    #[test]
    fn inputs_are_recognised_by_content() {
        assert!(Direction::ToSpirv.accepts(b"BC\xc0\xde\x35\x14"));
        assert!(Direction::ToSpirv.accepts(&[0xde, 0xc0, 0x17, 0x0b, 0, 0, 0, 0]));
        assert!(!Direction::ToSpirv.accepts(&[0x03, 0x02, 0x23, 0x07]));
        assert!(Direction::ToSpir.accepts(&[0x03, 0x02, 0x23, 0x07, 0, 0]));
        assert!(!Direction::ToSpir.accepts(b"BC\xc0\xde"));
        assert!(!Direction::ToSpir.accepts(b""));
    }
}
