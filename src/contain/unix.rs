//! The Unix side of containment: forking, pipes, the phase cell, limits.

use super::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicPtr, AtomicU8, Ordering};

/// In a contained child, the phase cell it shares with its parent: the `Work` it is doing
/// now. Null in every other process. Set once, by the child itself, right after the fork
/// (the child has one thread); a job contained again inside the child (the validation of
/// what a translation wrote) runs in place under the child's limits, its work written to
/// the cell while it runs, so that a death there is blamed on that work and not on the
/// outer one (without a second fork per file).
pub(super) static PHASE: AtomicPtr<AtomicU8> = AtomicPtr::new(std::ptr::null_mut());

/// Set in a child that serves one job and then exits (`run`'s): what the job no longer needs
/// need not be freed (`super::discard`). Never set in the parent, nor in `migrate`'s workers,
/// which serve many jobs.
pub(super) static ENDING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A byte of memory shared with the children forked after it is made.
pub(super) struct SharedCell(pub(super) *mut AtomicU8);

impl SharedCell {
    pub(super) fn new(work: Work) -> Result<SharedCell> {
        // SAFETY: an anonymous shared mapping of one page, checked before use.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                4096,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(Error::internal(format!(
                "cannot map memory shared with the reader process: {}",
                std::io::Error::last_os_error()
            )));
        }
        let cell = p.cast::<AtomicU8>();
        // SAFETY: the mapping is page-aligned, writable and ours.
        unsafe { (*cell).store(work.code(), Ordering::SeqCst) };
        Ok(SharedCell(cell))
    }

    pub(super) fn work(&self) -> Option<Work> {
        // SAFETY: mapped until `drop`.
        Work::from_code(unsafe { (*self.0).load(Ordering::SeqCst) })
    }
}

impl Drop for SharedCell {
    fn drop(&mut self) {
        // SAFETY: unmapping the page `new` mapped.
        unsafe { libc::munmap(self.0.cast(), 4096) };
    }
}

/// A contained job inside a contained child: in place, the cell saying which work runs.
pub(super) fn nested<T>(
    cell: &AtomicU8,
    work: Work,
    limits: Limits,
    job: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let outer = cell.swap(work.code(), Ordering::SeqCst);
    // This job's memory bound, never above the one the process is under (a migrate
    // worker's per-file bound), restored afterwards.
    let before = address_space_limit();
    let bound = (current_size().saturating_add(limits.memory)).min(before.rlim_cur);
    set_address_space_limit(bound);
    let result = guarded(job);
    set_address_space_limit(before.rlim_cur);
    cell.store(outer, Ordering::SeqCst);
    result
}

/// The process's address-space limit.
fn address_space_limit() -> libc::rlimit {
    let mut rl = libc::rlimit {
        rlim_cur: libc::RLIM_INFINITY,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: `rl` is a valid rlimit for the call to fill.
    unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut rl) };
    rl
}

/// Set the process's soft address-space limit (the hard one stays unlimited, so a later
/// job may raise it again).
fn set_address_space_limit(bytes: u64) {
    let rl = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: a plain system call on this process's limits.
    unsafe { libc::setrlimit(libc::RLIMIT_AS, &rl) };
}

/// The process's address space now, in bytes.
fn current_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0, |pages| pages * page)
}

pub(super) fn pipe() -> Result<[i32; 2]> {
    let mut fds = [0; 2];
    // SAFETY: `fds` is a valid array of two ints.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(Error::internal(format!(
            "cannot make a pipe for the reader process: {}",
            std::io::Error::last_os_error()
        )));
    }
    Ok(fds)
}

pub(super) fn close(fd: i32) {
    // SAFETY: closing a descriptor this module opened.
    unsafe { libc::close(fd) };
}

/// Write all of `bytes` to `fd`, ignoring errors (the parent reports a short message).
pub(super) fn write_all(fd: i32, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: `bytes` is valid for its length.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n <= 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        bytes = &bytes[n as usize..];
    }
}

/// A new child's set-up: its stderr to `err_fd`, the default action for the signals a crash
/// raises, its address-space limit.
pub(super) fn enter_child(limits: Limits, err_fd: i32) {
    // SAFETY: a plain system call on descriptors of this process.
    unsafe { libc::dup2(err_fd, 2) };
    // The host's handlers for the signals of an abort (LLVM's fatal errors, a failed
    // allocation) are not the child's: a crash reporter's or a fuzzer's would report an
    // answer the parent reads as the host's own crash. SIGSEGV keeps its handler, which is
    // Rust's stack-overflow report where the host has not replaced it.
    for signal in [libc::SIGABRT, libc::SIGILL, libc::SIGFPE] {
        // SAFETY: restoring a signal's default action in this (single-threaded) child.
        unsafe { libc::signal(signal, libc::SIG_DFL) };
    }
    set_address_space_limit(current_size().saturating_add(limits.memory));
}

/// `job`'s result, a panic being an internal error.
pub(super) fn guarded<T>(job: impl FnOnce() -> Result<T>) -> Result<T> {
    catch_unwind(AssertUnwindSafe(job)).unwrap_or_else(|panic| {
        Err(Error::internal(format!(
            "the translator panicked: {}",
            crate::diag::panic_message(panic.as_ref())
        )))
    })
}

/// A child's answer and stderr pipes, read as data arrives.
pub(super) struct Pipes {
    fds: [i32; 2],
    /// Which of the two are still open.
    pub open: [bool; 2],
    pub answer: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Every byte stderr has carried, kept or not.
    pub stderr_total: u64,
    /// Its first bytes, once `stderr` keeps only its tail.
    pub stderr_head: Vec<u8>,
    /// When stderr was last read: it is read at most every [`STDERR_EVERY`].
    stderr_read: Option<std::time::Instant>,
}

/// How much one read asks for.
const CHUNK: usize = 1 << 16;

/// How often stderr is read while the child runs. LLVM writes its messages unbuffered, a byte
/// at a time: read as it came, a crash printing a long name woke the parent for every byte
/// (three minutes for an 800 KB line). Between reads the pipe's buffer holds what comes (the
/// child waits when it is full), and the answer is read as it arrives all the same.
const STDERR_EVERY: Duration = Duration::from_millis(10);

impl Pipes {
    pub fn new(answer: i32, stderr: i32) -> Pipes {
        Pipes {
            fds: [answer, stderr],
            open: [true, true],
            answer: Vec::new(),
            stderr: Vec::new(),
            stderr_total: 0,
            stderr_head: Vec::new(),
            stderr_read: None,
        }
    }

    /// Wait up to `wait` for data on the open pipes and read what came; `false` when
    /// polling failed.
    pub fn read_ready(&mut self, wait: Duration) -> bool {
        let stderr_due = self
            .stderr_read
            .is_none_or(|at| at.elapsed() >= STDERR_EVERY);
        let mut fds = [0, 1].map(|i| libc::pollfd {
            fd: if self.open[i] && (i == 0 || stderr_due) {
                self.fds[i]
            } else {
                -1
            },
            events: libc::POLLIN,
            revents: 0,
        });
        let ms = wait.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: `fds` is a valid array of two pollfd.
        if unsafe { libc::poll(fds.as_mut_ptr(), 2, ms) } < 0 {
            return std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted;
        }
        for (i, fd) in fds.iter().enumerate() {
            if !self.open[i] || fd.revents == 0 {
                continue;
            }
            let sink = if i == 0 {
                &mut self.answer
            } else {
                self.stderr_read = Some(std::time::Instant::now());
                &mut self.stderr
            };
            // Read straight into the sink's spare capacity (no zeroed buffer per call, no
            // copy: a worker answers thousands of small calls).
            sink.reserve(CHUNK);
            let spare = sink.spare_capacity_mut();
            // SAFETY: `spare` is valid for writes of its length, which `read` does not
            // exceed.
            let got = unsafe { libc::read(fd.fd, spare.as_mut_ptr().cast(), spare.len()) };
            if got > 0 {
                // SAFETY: `read` initialized the first `got` bytes of the spare capacity.
                unsafe { sink.set_len(sink.len() + got as usize) };
                // Keep the tail of stderr only: a chatty child cannot exhaust memory.
                if i == 1 {
                    self.stderr_total += got as u64;
                }
                if i == 1 && self.stderr.len() > 1 << 20 {
                    if self.stderr_head.is_empty() {
                        self.stderr_head = self.stderr[..1 << 12].to_vec();
                    }
                    self.stderr.drain(..self.stderr.len() - (1 << 16));
                }
            } else if got == 0
                || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
            {
                self.open[i] = false;
            }
        }
        true
    }
}
