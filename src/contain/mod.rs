//! Containment: run work that reads untrusted bitcode in a forked child process, so that
//! nothing LLVM does inside its bitcode reader can take the calling process down.
//!
//! LLVM 14's reader does not always return an error for bad input: on many corruptions it
//! calls `report_fatal_error` ("Invalid abbrev number", "Unknown specifier in datalayout
//! string", "Type mismatch in constant table!") which prints `LLVM ERROR: ...` and aborts; on
//! some it dereferences garbage; its allocator aborts with "out of memory" when a corrupted
//! length asks for terabytes; and `LLVMContext::diagnose` calls `exit(1)` when no handler is
//! installed. None of that can be caught in-process (the abort happens on the C++ side, and
//! unwinding through LLVM is not possible). A Rust pre-check of the bitstream could reject only
//! the corruptions it knows about; fuzzing keeps finding new paths into `report_fatal_error`.
//!
//! So the library forks: the child does the job (for a translation either way, the whole
//! translation — the SPIR writer builds its module through LLVM's C API, which does not check
//! what it is given; for graph readers, a check read) and sends back its `Result` through a
//! pipe; its stderr goes through a second pipe. The parent turns whatever happened into a `Result`:
//!
//! * the child answered: its result (the error keeps its kind and location);
//! * the child died with `LLVM ERROR: <reason>` on stderr: `malformed input: malformed
//!   bitcode: <reason>` (or a resource limit, for "out of memory");
//! * the child died otherwise (a signal, `exit(1)` from LLVM's default diagnostic handler):
//!   `malformed bitcode` with the last line it printed, or the signal's name;
//! * the child ran past the time limit: it is killed and the error says so.
//!
//! A job contained inside a contained child (a translation validating what it wrote) runs in
//! place, under the child's limits: a second fork per file would cost a fifth of a batch's
//! time. Which work the child is doing is kept in a byte of memory it shares with the parent,
//! so that a death during the inner job is still blamed on that job's work.
//!
//! The child gets an address-space limit (its current size plus [`Limits::memory`]) so that
//! a corrupted length fails an allocation instead of exhausting the machine, and it leaves with
//! `_exit`, running no destructors and no `atexit` handlers of the host.
//!
//! `fork` copies only the calling thread. A child that needs a lock another thread of the host
//! held at the time of the fork would wait forever; glibc's allocator is safe across fork, and
//! the time limit turns any other such wait into an error rather than a hang. On platforms
//! without `fork` the job runs in-process.

#[cfg(unix)]
pub mod worker;

use std::time::Duration;

use crate::diag::{Error, ErrorKind, Location, Result};
use crate::options::Limits;
use crate::options::{MEMORY_FLOOR, MEMORY_PER_INPUT_BYTE};

/// What an out-of-memory error says of the bound.
fn memory_rule() -> String {
    format!(
        "a translation may use {MEMORY_PER_INPUT_BYTE} times its input's size in memory, at \
         least {} GiB",
        MEMORY_FLOOR >> 30
    )
}

/// What the contained job does with LLVM, which decides whose fault a death is: LLVM dying
/// while it reads untrusted bitcode means the bitcode is malformed; dying while it builds our
/// output means a bug of ours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// Reading SPIR bitcode given to us (and maybe more after it).
    ReadBitcode,
    /// Building SPIR bitcode from a graph.
    WriteBitcode,
    /// Validating a SPIR-V module given to us (SPIRV-Tools asserts on some malformed ones).
    ValidateInput,
    /// Validating a SPIR-V module we wrote.
    ValidateOutput,
}

impl Work {
    const ALL: [Work; 4] = [
        Work::ReadBitcode,
        Work::WriteBitcode,
        Work::ValidateInput,
        Work::ValidateOutput,
    ];

    /// The byte a child keeps in its phase cell (see `worker::run`).
    fn code(self) -> u8 {
        Work::ALL.iter().position(|&w| w == self).unwrap_or(0) as u8
    }

    fn from_code(code: u8) -> Option<Work> {
        Work::ALL.get(code as usize).copied()
    }
}

/// A value that crosses the pipe from the child.
pub trait Wire: Sized {
    fn encode(&self, out: &mut Vec<u8>);
    fn decode(bytes: &[u8]) -> Option<Self>;
}

impl Wire for () {
    fn encode(&self, _: &mut Vec<u8>) {}
    fn decode(bytes: &[u8]) -> Option<Self> {
        bytes.is_empty().then_some(())
    }
}

impl Wire for Vec<u8> {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self);
    }
    fn decode(bytes: &[u8]) -> Option<Self> {
        Some(bytes.to_vec())
    }
}

/// The facts lost, before the rest of an output (a count, then each place and fact).
pub(crate) fn put_lost(out: &mut Vec<u8>, lost: &[crate::diag::Lost]) {
    out.extend((lost.len() as u64).to_le_bytes());
    for l in lost {
        put_opt(out, &l.place);
        put(out, &l.fact);
    }
}

pub(crate) fn take_lost(bytes: &mut &[u8]) -> Option<Vec<crate::diag::Lost>> {
    let (n, rest) = bytes.split_at_checked(8)?;
    let n = u64::from_le_bytes(n.try_into().ok()?);
    let mut r = Reader(rest);
    let mut lost = Vec::new();
    for _ in 0..n {
        lost.push(crate::diag::Lost {
            place: r.opt()?,
            fact: r.string()?,
        });
    }
    *bytes = r.0;
    Some(lost)
}

impl Wire for Vec<u32> {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend(self.iter().flat_map(|w| w.to_le_bytes()));
    }
    fn decode(bytes: &[u8]) -> Option<Self> {
        bytes.len().is_multiple_of(4).then(|| {
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
    }
}

/// Free `value`, unless this process is a contained child that ends with the job it is doing:
/// there the memory goes with the process, and freeing a large module's pieces one by one
/// only costs time (clang's `-disable-free` does the same). Its destructor does not run, so
/// only for values whose destructors free memory and nothing else; and only at the end of a
/// job: memory not freed is not reused, so discarding what is followed by more work raises
/// the peak (measured: forward on a 1 M-instruction module went from 771 MB to 1.45 GB).
pub fn discard<T>(value: T) {
    if ending() {
        std::mem::forget(value);
    }
}

/// Whether this process is a contained child that ends after its job (see [`discard`]).
pub fn ending() -> bool {
    #[cfg(unix)]
    {
        unix::ENDING.load(std::sync::atomic::Ordering::Relaxed)
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Run `job` contained (see the module documentation) and return its result.
pub fn run<T: Wire>(work: Work, limits: Limits, job: impl FnOnce() -> Result<T>) -> Result<T> {
    #[cfg(unix)]
    {
        worker::run(work, limits, job)
    }
    #[cfg(not(unix))]
    {
        let _ = (work, limits);
        job()
    }
}

// --- the result message: tag byte, then length-prefixed strings ---------------------------

fn put(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn put_opt(out: &mut Vec<u8>, s: &Option<String>) {
    match s {
        Some(s) => {
            out.push(1);
            put(out, s);
        }
        None => out.push(0),
    }
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }
    fn string(&mut self) -> Option<String> {
        let (len, rest) = self.0.split_at_checked(8)?;
        let len = usize::try_from(u64::from_le_bytes(len.try_into().ok()?)).ok()?;
        let (s, rest) = rest.split_at_checked(len)?;
        self.0 = rest;
        String::from_utf8(s.to_vec()).ok()
    }
    fn opt(&mut self) -> Option<Option<String>> {
        match self.byte()? {
            0 => Some(None),
            _ => self.string().map(Some),
        }
    }
}

fn encode_error(e: &Error, out: &mut Vec<u8>) {
    let strings: Vec<&str> = match &e.kind {
        ErrorKind::Io(s)
        | ErrorKind::Malformed(s)
        | ErrorKind::Unsupported(s)
        | ErrorKind::RoundTripDiffers(s)
        | ErrorKind::Limit(s)
        | ErrorKind::Output(s)
        | ErrorKind::Internal(s) => vec![s],
        ErrorKind::UnknownBuiltin { name, demangled } => vec![name, demangled],
        ErrorKind::VersionTooLow {
            construct,
            needs,
            target,
            allowed,
        } => vec![construct, needs, target, allowed],
    };
    out.push(match e.kind {
        ErrorKind::Io(_) => 0,
        ErrorKind::Malformed(_) => 1,
        ErrorKind::Unsupported(_) => 2,
        ErrorKind::UnknownBuiltin { .. } => 3,
        ErrorKind::VersionTooLow { .. } => 4,
        ErrorKind::RoundTripDiffers(_) => 5,
        ErrorKind::Internal(_) => 6,
        ErrorKind::Limit(_) => 7,
        ErrorKind::Output(_) => 8,
    });
    for s in strings {
        put(out, s);
    }
    let l = &e.location;
    for s in [&l.file, &l.function, &l.block, &l.value] {
        put_opt(out, s);
    }
}

fn decode_error(r: &mut Reader) -> Option<Error> {
    let tag = r.byte()?;
    let kind = match tag {
        0 => ErrorKind::Io(r.string()?),
        1 => ErrorKind::Malformed(r.string()?),
        2 => ErrorKind::Unsupported(r.string()?),
        3 => ErrorKind::UnknownBuiltin {
            name: r.string()?,
            demangled: r.string()?,
        },
        4 => ErrorKind::VersionTooLow {
            construct: r.string()?,
            needs: r.string()?,
            target: r.string()?,
            allowed: r.string()?,
        },
        5 => ErrorKind::RoundTripDiffers(r.string()?),
        6 => ErrorKind::Internal(r.string()?),
        7 => ErrorKind::Limit(r.string()?),
        8 => ErrorKind::Output(r.string()?),
        _ => return None,
    };
    let location = Location {
        file: r.opt()?,
        function: r.opt()?,
        block: r.opt()?,
        value: r.opt()?,
    };
    Some(Error {
        kind,
        location: Box::new(location),
    })
}

/// The message a child sends: `0` and the value, or `1` and the error.
fn encode_result<T: Wire>(r: &Result<T>) -> Vec<u8> {
    let mut out = Vec::new();
    match r {
        Ok(v) => {
            out.push(0);
            v.encode(&mut out);
        }
        Err(e) => {
            out.push(1);
            encode_error(e, &mut out);
        }
    }
    out
}

fn decode_result<T: Wire>(bytes: &[u8]) -> Option<Result<T>> {
    let (&tag, rest) = bytes.split_first()?;
    match tag {
        0 => T::decode(rest).map(Ok),
        1 => {
            let mut r = Reader(rest);
            let e = decode_error(&mut r)?;
            r.0.is_empty().then_some(Err(e))
        }
        _ => None,
    }
}

/// What a child that did not answer left behind (its stderr, the signal that ended it or its
/// exit status): an error naming LLVM's reason when it gave one.
/// The most a contained job may print on stderr before it is stopped. LLVM's messages are a
/// few lines; a corrupted metadata string of 800 KB, which LLVM's verifier quotes a byte at
/// a time (a system call each) and more than once, took a minute and more to print before
/// the reader crashed.
pub(super) const STDERR_LIMIT: u64 = 1 << 20;

/// The error of a job stopped for printing more than [`STDERR_LIMIT`] bytes on stderr, the
/// first line it printed quoted (cut short).
fn chatty_error(work: Work, stderr: &[u8]) -> Error {
    let text = String::from_utf8_lossy(stderr);
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| format!(", the first line: {}", bounded(l)))
        .unwrap_or_default();
    let what = format!(
        "printed more than {} MB of messages and was stopped{first}",
        STDERR_LIMIT >> 20
    );
    match work {
        Work::ReadBitcode => Error::malformed(format!(
            "malformed bitcode: LLVM's bitcode reader {what} (a corrupted string or name, \
             quoted by LLVM's verifier, is the usual cause)"
        )),
        Work::ValidateInput => Error::malformed(format!("the SPIR-V validator {what}")),
        Work::WriteBitcode => Error::internal(format!("LLVM, building the SPIR module, {what}")),
        Work::ValidateOutput => {
            Error::internal(format!("the SPIR-V validator, on what we wrote, {what}"))
        }
    }
}

fn death_error(work: Work, stderr: &[u8], signal: Option<i32>, code: Option<i32>) -> Error {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if let Some(reason) = lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("LLVM ERROR: "))
    {
        let reason = &bounded(reason);
        return match work {
            Work::ReadBitcode if reason.contains("out of memory") => {
                Error::new(ErrorKind::Limit(format!(
                    "LLVM ran out of memory reading this input ({reason}; {}); a corrupted \
                     length field is the usual cause",
                    memory_rule()
                )))
            }
            Work::ReadBitcode => Error::malformed(format!("malformed bitcode: {reason}")),
            Work::WriteBitcode => {
                Error::internal(format!("LLVM failed building the SPIR module: {reason}"))
            }
            Work::ValidateInput => Error::malformed(format!("the SPIR-V validator: {reason}")),
            Work::ValidateOutput => {
                Error::internal(format!("the SPIR-V validator, on what we wrote: {reason}"))
            }
        };
    }
    if lines.iter().any(|l| l.contains("has overflowed its stack")) {
        return Error::internal(
            "the translator ran out of stack (a type, constant or expression nested too deeply)",
        );
    }
    if lines
        .iter()
        .any(|l| l.starts_with("memory allocation of") && l.ends_with("failed"))
    {
        return Error::new(ErrorKind::Limit(format!(
            "the translator ran out of memory on this input ({})",
            memory_rule()
        )));
    }
    let how = match (signal, code) {
        (Some(s), _) => format!("crashed ({})", signal_name(s)),
        (None, Some(c)) => format!("exited with status {c}"),
        _ => "ended without an answer".into(),
    };
    let said = lines
        .last()
        .map(|l| format!(": {}", bounded(l.strip_prefix("error: ").unwrap_or(l))))
        .unwrap_or_default();
    match work {
        Work::ReadBitcode => Error::malformed(format!(
            "malformed bitcode: LLVM's bitcode reader {how}{said}"
        )),
        Work::WriteBitcode => Error::internal(format!(
            "the translator {how} building the SPIR module{said}"
        )),
        Work::ValidateInput => Error::malformed(format!(
            "the SPIR-V module is invalid: the validator {how} on it{said}"
        )),
        Work::ValidateOutput => Error::internal(format!(
            "the SPIR-V validator {how} on the module we wrote{said}"
        )),
    }
}

/// A line the child printed, as a message quotes it: at most [`QUOTED_CHARS`] characters (a
/// crashing reader may print a name of a megabyte), the cut said.
fn bounded(line: &str) -> String {
    match line.char_indices().nth(QUOTED_CHARS) {
        Some((at, _)) => format!("{} [... {} more bytes]", &line[..at], line.len() - at),
        None => line.to_string(),
    }
}

/// The most characters of a child's line a message quotes.
const QUOTED_CHARS: usize = 300;

fn signal_name(s: i32) -> String {
    let name = match s {
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        _ => return format!("signal {s}"),
    };
    name.into()
}

#[cfg(unix)]
mod unix;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_childs_long_line_is_quoted_cut() {
        let long = "x".repeat(100_000);
        let e = death_error(Work::ReadBitcode, long.as_bytes(), Some(11), None);
        let text = e.to_string();
        assert!(text.len() < 500, "{} bytes", text.len());
        assert!(text.contains("[... 99700 more bytes]"), "{text}");
        let short = death_error(Work::ReadBitcode, b"bad record", Some(11), None);
        assert!(
            short.to_string().ends_with("(SIGSEGV): bad record"),
            "{short}"
        );
    }

    #[test]
    fn memory_is_bounded_by_the_input_size() {
        let l = Limits::default();
        assert_eq!(l.for_input(1600).memory, MEMORY_FLOOR);
        assert_eq!(
            l.for_input(10 << 20).memory,
            (10 << 20) * MEMORY_PER_INPUT_BYTE
        );
        // Never above what the caller allowed.
        assert_eq!(l.for_input(1 << 40).memory, l.memory);
    }

    #[cfg(unix)]
    #[test]
    fn a_nested_job_cannot_allocate_past_its_bound() {
        // A job that asks for 4 GiB under a 2 GiB bound fails as out of memory, and the
        // process's own limit comes back afterwards.
        let r = run(Work::ReadBitcode, Limits::default().for_input(16), || {
            let mut v: Vec<u8> = Vec::new();
            Ok(vec![u32::from(v.try_reserve_exact(4 << 30).is_ok())])
        });
        assert_eq!(r.unwrap(), vec![0]);
    }

    #[test]
    fn results_cross_the_pipe() {
        let words = run(Work::ReadBitcode, Limits::default(), || {
            Ok(vec![1u32, 2, 0x0723_0203])
        })
        .unwrap();
        assert_eq!(words, vec![1, 2, 0x0723_0203]);
        let e = run::<()>(Work::ReadBitcode, Limits::default(), || {
            Err(Error::unsupported("x").in_function("k").at_value("%v"))
        })
        .unwrap_err();
        assert_eq!(e, Error::unsupported("x").in_function("k").at_value("%v"));
    }

    #[test]
    fn an_abort_in_the_child_is_an_error_with_llvms_reason() {
        let e = run::<()>(Work::ReadBitcode, Limits::default(), || {
            // As LLVM prints it: straight to file descriptor 2 (the test harness captures
            // `eprintln!`).
            let msg = b"LLVM ERROR: Invalid abbrev number\n";
            // SAFETY: writing a valid buffer to stderr.
            unsafe { libc::write(2, msg.as_ptr().cast(), msg.len()) };
            std::process::abort()
        })
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "error: malformed input: malformed bitcode: Invalid abbrev number"
        );
    }

    /// A handler the host installed for SIGABRT (a crash reporter's, a fuzzer's) does not run
    /// in the child: LLVM's abort there is the parent's answer to read.
    #[test]
    fn the_hosts_abort_handler_does_not_run_in_the_child() {
        extern "C" fn host_handler(_: libc::c_int) {
            // SAFETY: leaving the process from a signal handler.
            unsafe { libc::_exit(42) }
        }
        // SAFETY: installing and then restoring this process's SIGABRT action.
        let before = unsafe {
            libc::signal(
                libc::SIGABRT,
                host_handler as *const () as libc::sighandler_t,
            )
        };
        let e = run::<()>(Work::ReadBitcode, Limits::default(), || {
            // SAFETY: ends this (child) process, as LLVM's report_fatal_error does.
            unsafe { libc::abort() }
        })
        .unwrap_err();
        // SAFETY: as above.
        unsafe { libc::signal(libc::SIGABRT, before) };
        assert!(e.to_string().contains("SIGABRT"), "{e}");
    }

    #[test]
    fn a_crash_while_writing_is_ours_not_the_inputs() {
        let e = run::<()>(Work::WriteBitcode, Limits::default(), || {
            // SAFETY: ends this (child) process, as a crash inside LLVM would (Rust's own
            // SIGSEGV handler, for stack overflows, is put back to the default first).
            unsafe {
                libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                libc::raise(libc::SIGSEGV)
            };
            unreachable!()
        })
        .unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::Internal(ref m) if m.contains("SIGSEGV")),
            "{e}"
        );
    }

    #[test]
    fn a_job_contained_inside_a_child_runs_in_place_and_is_blamed_for_its_own_death() {
        // A result passes through both levels, and no second child is made.
        let outer = std::process::id();
        let pids = run(Work::ReadBitcode, Limits::default(), || {
            let child = std::process::id();
            let nested = run(Work::ValidateOutput, Limits::default(), || {
                Ok(vec![std::process::id()])
            })?;
            Ok(vec![child, nested[0]])
        })
        .unwrap();
        assert_ne!(pids[0], outer);
        assert_eq!(pids[0], pids[1]);
        // Dying in the nested job blames its work (our output), not the outer one (the input).
        let e = run::<()>(Work::ReadBitcode, Limits::default(), || {
            run::<()>(Work::ValidateOutput, Limits::default(), || {
                let msg = b"LLVM ERROR: an assertion\n";
                // SAFETY: writing a valid buffer to stderr.
                unsafe { libc::write(2, msg.as_ptr().cast(), msg.len()) };
                std::process::abort()
            })
        })
        .unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Internal(_)), "{e}");
        // After the nested job the outer work is blamed again.
        let e = run::<()>(Work::ReadBitcode, Limits::default(), || {
            run::<()>(Work::ValidateOutput, Limits::default(), || Ok(()))?;
            let msg = b"LLVM ERROR: Invalid abbrev number\n";
            // SAFETY: writing a valid buffer to stderr.
            unsafe { libc::write(2, msg.as_ptr().cast(), msg.len()) };
            std::process::abort()
        })
        .unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Malformed(_)), "{e}");
    }

    #[test]
    fn a_panic_in_the_child_is_an_internal_error() {
        let e = run::<()>(Work::ReadBitcode, Limits::default(), || panic!("boom")).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::Internal(ref m) if m.contains("boom")),
            "{e}"
        );
    }

    #[test]
    fn a_child_past_its_time_is_stopped() {
        let limits = Limits {
            time: Duration::from_millis(200),
            ..Default::default()
        };
        let e = run::<()>(Work::ReadBitcode, limits, || loop {
            std::thread::sleep(Duration::from_secs(1))
        })
        .unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Limit(_)), "{e}");
    }
}
