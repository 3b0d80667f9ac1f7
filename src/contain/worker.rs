//! A contained child that serves jobs, one at a time: [`super::run`]'s child serves one, and
//! `spir-xlate migrate` forks one worker per thread instead of one child per file, starting a
//! new worker only when one dies. A job is named by a number (the worker, forked after the batch was planned, holds the
//! list), sent down a pipe; its answer comes back framed (length, then the result as
//! [`Wire`] encodes it). Containment is the same as [`super::run`]'s: the worker has the
//! address-space limit, each job the time limit, nested jobs run in place with their work in
//! the shared phase cell, and a worker that dies or overruns takes only its job with it: the
//! caller gets the error for that job and spawns another worker for the next.

use std::time::Instant;

use std::sync::atomic::Ordering;

use super::unix::{close, enter_child, guarded, nested, pipe, write_all, Pipes, SharedCell, PHASE};
use super::{death_error, decode_result, encode_result, Wire, Work};
use crate::diag::{Error, ErrorKind, Result};
use crate::options::Limits;

/// `job` in a worker that serves only it (the same fork, limits, phase cell and blame), or in
/// place inside a contained child (`unix::nested`).
pub(super) fn run<T: Wire>(
    work: Work,
    limits: Limits,
    job: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let inside = PHASE.load(Ordering::SeqCst);
    if !inside.is_null() {
        // SAFETY: set by this process, a contained child, to its mapped cell.
        return nested(unsafe { &*inside }, work, limits, job);
    }
    let mut job = Some(job);
    let mut worker = Worker::spawn_once(work, limits, move |_| match job.take() {
        Some(job) => job(),
        None => Err(Error::internal("a contained job was asked for twice")),
    })?;
    worker.call::<T>(0).unwrap_or_else(Err)
}

/// A worker process and its pipes.
pub struct Worker {
    pid: i32,
    jobs: i32,
    results: i32,
    err: i32,
    phase: SharedCell,
    work: Work,
    limits: Limits,
    /// Reaped already (it died, or ran out of time and was killed).
    gone: bool,
    /// A job was sent and its answer not yet read.
    busy: bool,
}

/// The job number that tells an idle worker to leave.
const LEAVE: u64 = u64::MAX;

/// How long an idle worker told to leave is given before it is killed. It leaves at once; the
/// wait matters only under tools that do work at exit (callgrind writing its counts).
const LEAVE_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

impl Worker {
    /// Fork a worker that answers job `n` with `serve(n)` until it is told to leave (when
    /// dropped) or its job pipe closes.
    pub fn spawn<T: Wire>(
        work: Work,
        limits: Limits,
        serve: impl FnMut(u64) -> Result<T>,
    ) -> Result<Worker> {
        Self::fork(work, limits, false, serve)
    }

    /// A worker for one job, which may leave what it allocated unfreed (`contain::discard`).
    pub(super) fn spawn_once<T: Wire>(
        work: Work,
        limits: Limits,
        serve: impl FnMut(u64) -> Result<T>,
    ) -> Result<Worker> {
        Self::fork(work, limits, true, serve)
    }

    fn fork<T: Wire>(
        work: Work,
        limits: Limits,
        once: bool,
        mut serve: impl FnMut(u64) -> Result<T>,
    ) -> Result<Worker> {
        let phase = SharedCell::new(work)?;
        let mut fds = Vec::new();
        for _ in 0..3 {
            match pipe() {
                Ok(p) => fds.push(p),
                Err(e) => {
                    fds.iter().flatten().for_each(|&fd| close(fd));
                    return Err(e);
                }
            }
        }
        let ([job_r, job_w], [res_r, res_w], [err_r, err_w]) = (fds[0], fds[1], fds[2]);
        // SAFETY: the child only serves jobs and ends in `_exit`.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            fds.iter().flatten().for_each(|&fd| close(fd));
            return Err(Error::internal(format!(
                "cannot start a contained process: {}",
                std::io::Error::last_os_error()
            )));
        }
        if pid == 0 {
            close(job_w);
            close(res_r);
            close(err_r);
            PHASE.store(phase.0, std::sync::atomic::Ordering::SeqCst);
            super::unix::ENDING.store(once, std::sync::atomic::Ordering::SeqCst);
            enter_child(limits, err_w);
            while let Some(n) = read_u64(job_r).filter(|&n| n != LEAVE) {
                // SAFETY: the cell is mapped for the worker's life.
                unsafe { (*phase.0).store(work.code(), std::sync::atomic::Ordering::SeqCst) };
                let answer = encode_result(&guarded(|| serve(n)));
                write_all(res_w, &(answer.len() as u64).to_le_bytes());
                write_all(res_w, &answer);
            }
            // SAFETY: leave without running the host's destructors or atexit handlers.
            unsafe { libc::_exit(0) }
        }
        close(job_r);
        close(res_w);
        close(err_w);
        Ok(Worker {
            pid,
            jobs: job_w,
            results: res_r,
            err: err_r,
            phase,
            work,
            limits,
            gone: false,
            busy: false,
        })
    }

    /// Job `n`'s result. `Err` when the worker is gone (it died, or overran the time limit
    /// and was killed): the error is the job's, and the worker must be replaced.
    pub fn call<T: Wire>(&mut self, n: u64) -> std::result::Result<Result<T>, Error> {
        write_all(self.jobs, &n.to_le_bytes());
        self.busy = true;
        let deadline = Instant::now() + self.limits.time;
        let mut pipes = Pipes::new(self.results, self.err);
        loop {
            let answer = &pipes.answer;
            if let Some(len) = answer
                .get(..8)
                .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
            {
                if answer.len() as u64 >= 8 + len {
                    self.busy = false;
                    return decode_result::<T>(&answer[8..]).ok_or_else(|| {
                        self.stop();
                        Error::internal("a worker's answer could not be read")
                    });
                }
            }
            // The worker closed its answers, or is gone (another worker forked meanwhile may
            // hold a copy of its pipes, so the end of the pipe is not a sure sign): it died.
            // Its last words are on stderr.
            let status = if pipes.open[0] {
                self.exited()
            } else {
                Some(self.reap())
            };
            if let Some(status) = status {
                let mut stderr = std::mem::take(&mut pipes.stderr);
                self.drain(&mut stderr);
                return Err(self.death(status, &stderr));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.stop();
                return Err(Error::new(ErrorKind::Limit(format!(
                    "the translation did not finish in {} s and was stopped",
                    self.limits.time.as_secs()
                ))));
            }
            // A short wait, to notice a worker that died without closing its pipes.
            pipes.read_ready(left.min(std::time::Duration::from_millis(50)));
            if pipes.stderr_total > super::STDERR_LIMIT {
                self.stop();
                let work = self.phase.work().unwrap_or(self.work);
                let head = match pipes.stderr_head.is_empty() {
                    true => &pipes.stderr,
                    false => &pipes.stderr_head,
                };
                return Err(super::chatty_error(work, head));
            }
        }
    }

    /// Read what a dead worker left on stderr (without waiting for the pipe's end, which
    /// another worker may hold open).
    fn drain(&self, stderr: &mut Vec<u8>) {
        let mut buf = [0u8; 4096];
        loop {
            let mut fd = libc::pollfd {
                fd: self.err,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd; no waiting.
            if unsafe { libc::poll(&mut fd, 1, 0) } <= 0 || fd.revents & libc::POLLIN == 0 {
                return;
            }
            // SAFETY: reading into `buf`, valid for its length.
            let got = unsafe { libc::read(self.err, buf.as_mut_ptr().cast(), buf.len()) };
            if got <= 0 {
                return;
            }
            stderr.extend_from_slice(&buf[..got as usize]);
        }
    }

    /// The exit status, when the worker has ended (it is then reaped).
    fn exited(&mut self) -> Option<i32> {
        let mut status = 0;
        // SAFETY: asking about our own child, without waiting.
        let r = unsafe { libc::waitpid(self.pid, &mut status, libc::WNOHANG) };
        (r == self.pid).then(|| {
            self.gone = true;
            status
        })
    }

    /// The error of the job a dead worker was doing.
    fn death(&mut self, status: i32, stderr: &[u8]) -> Error {
        let signal = libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status));
        let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
        death_error(self.phase.work().unwrap_or(self.work), stderr, signal, code)
    }

    /// Kill the worker and reap it.
    fn stop(&mut self) {
        if !self.gone {
            // SAFETY: killing our own child.
            unsafe { libc::kill(self.pid, libc::SIGKILL) };
            self.reap();
        }
    }

    fn reap(&mut self) -> i32 {
        let mut status = 0;
        if !self.gone {
            // SAFETY: reaping our own child.
            while unsafe { libc::waitpid(self.pid, &mut status, 0) } < 0 {
                if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                    break;
                }
            }
            self.gone = true;
        }
        status
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // An idle worker is told to leave, and leaves by itself (not by its job pipe's end,
        // which another worker forked meanwhile may hold open); a busy or stuck one is killed.
        if !self.gone && !self.busy && self.exited().is_none() {
            write_all(self.jobs, &LEAVE.to_le_bytes());
            let deadline = Instant::now() + LEAVE_GRACE;
            while self.exited().is_none() && Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
        }
        close(self.jobs);
        close(self.results);
        close(self.err);
        self.stop();
    }
}

/// The next job number, `None` at the end of the pipe.
fn read_u64(fd: i32) -> Option<u64> {
    let mut bytes = [0u8; 8];
    let mut got = 0;
    while got < 8 {
        // SAFETY: reading into the rest of `bytes`.
        let n = unsafe { libc::read(fd, bytes[got..].as_mut_ptr().cast(), 8 - got) };
        if n > 0 {
            got += n as usize;
        } else if n == 0
            || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
        {
            return None;
        }
    }
    Some(u64::from_le_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_serves_jobs_until_one_kills_it() {
        let limits = Limits::default();
        let mut w = Worker::spawn(Work::ReadBitcode, limits, |n| {
            if n == 3 {
                let msg = b"LLVM ERROR: Invalid abbrev number\n";
                // SAFETY: writing a valid buffer to stderr.
                unsafe { libc::write(2, msg.as_ptr().cast(), msg.len()) };
                std::process::abort()
            }
            if n == 2 {
                return Err(Error::unsupported("two"));
            }
            Ok(vec![n as u32, std::process::id()])
        })
        .unwrap();
        let a: Vec<u32> = w.call(1).unwrap().unwrap();
        let b: Vec<u32> = w.call(5).unwrap().unwrap();
        assert_eq!((a[0], b[0]), (1, 5));
        assert_eq!(a[1], b[1], "one process serves both jobs");
        assert_ne!(a[1], std::process::id());
        let e = w.call::<Vec<u32>>(2).unwrap().unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Unsupported(_)), "{e}");
        let e = w.call::<Vec<u32>>(3).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::Malformed(ref m) if m.contains("Invalid abbrev")),
            "{e}"
        );
    }

    #[test]
    fn a_death_is_seen_promptly_beside_other_workers() {
        let limits = Limits {
            time: std::time::Duration::from_secs(60),
            ..Default::default()
        };
        let serve = |n: u64| -> Result<()> {
            if n == 1 {
                std::process::abort()
            }
            Ok(())
        };
        let mut first = Worker::spawn(Work::ReadBitcode, limits, serve).unwrap();
        // Forked after the first, it holds copies of the first one's descriptors (a worker
        // forked by another thread at the wrong moment holds its answer pipe's write end too,
        // which is why a death is also looked for with waitpid).
        let mut second = Worker::spawn(Work::ReadBitcode, limits, serve).unwrap();
        let started = Instant::now();
        let e = first.call::<()>(1).unwrap_err();
        assert!(
            started.elapsed().as_secs() < 10,
            "seen only at the time limit"
        );
        assert!(matches!(e.kind, ErrorKind::Malformed(_)), "{e}");
        second.call::<()>(0).unwrap().unwrap();
    }

    #[test]
    fn a_worker_past_its_time_is_stopped() {
        let limits = Limits {
            time: std::time::Duration::from_millis(200),
            ..Default::default()
        };
        let mut w = Worker::spawn(Work::ReadBitcode, limits, |_| -> Result<()> {
            loop {
                std::thread::sleep(std::time::Duration::from_secs(1))
            }
        })
        .unwrap();
        let e = w.call::<()>(0).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Limit(_)), "{e}");
    }
}
