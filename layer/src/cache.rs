//! The translations the layer made, kept across runs: content-addressed files under
//! `$SPIR_XLATE_CACHE` (a folder), else `$XDG_CACHE_HOME/spir-xlate`, else
//! `~/.cache/spir-xlate`; `SPIR_XLATE_CACHE=off` keeps nothing. An entry is named by the
//! translator's version, the options and two independent 64-bit hashes of the binary, so a
//! new version or other options never read an old entry. Entries are written to a temporary
//! file and renamed into place, so concurrent processes see a whole entry or none; each
//! records its program's hashes and length, so that one damaged on disk is translated
//! again, never handed to the driver.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// A translation as the cache keeps it: the program (SPIR-V, or OpenCL C text on the source
/// road) and the facts it does not keep.
pub(crate) struct Entry {
    pub program: Vec<u8>,
    pub lost: Vec<String>,
}

/// The cache folder, or `None` when caching is off or no folder can be named.
fn folder() -> Option<PathBuf> {
    match std::env::var_os("SPIR_XLATE_CACHE") {
        Some(v) if v == "off" => None,
        Some(v) => Some(PathBuf::from(v)),
        None => std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
            .map(|c| c.join("spir-xlate")),
    }
}

/// FNV-1a's usual starting value.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a of `bytes` from `seed`.
pub(crate) fn fnv(seed: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(seed, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The entry's file name for `binary` translated with `options` (their Debug text): the
/// library's content key, which `migrate` records in its reports too.
fn name(binary: &[u8], options: &str) -> String {
    xlate::migrate::content_key(binary, options)
}

/// The first line of an entry's `.lost` file: the program's own hashes, so that an entry
/// damaged on disk (truncated, emptied, bytes flipped) is seen and made again instead of
/// handed to the driver.
fn check_line(program: &[u8]) -> String {
    format!(
        "check {:016x}{:016x} {}",
        fnv(FNV_OFFSET, program),
        fnv(0x6c62_272e_07bb_0142, program),
        program.len()
    )
}

/// The kept translation of `binary` with `options`, if there is one and it is whole (its
/// program's hashes and length are those its entry recorded); `ext` names the program's
/// kind (`spv` for SPIR-V, `cl` for OpenCL C source).
pub(crate) fn get(binary: &[u8], options: &str, ext: &str) -> Option<Entry> {
    let dir = folder()?;
    let stem = name(binary, options);
    let program = std::fs::read(dir.join(format!("{stem}.{ext}"))).ok()?;
    let lost = std::fs::read_to_string(dir.join(format!("{stem}.lost"))).ok()?;
    let mut lines = lost.lines();
    if lines.next()? != check_line(&program) {
        return None;
    }
    Some(Entry {
        program,
        lost: lines.map(str::to_string).collect(),
    })
}

/// Keep `entry` as the translation of `binary` with `options`, its program in a file of
/// extension `ext` (silently not, where the folder cannot be written).
pub(crate) fn put(binary: &[u8], options: &str, ext: &str, entry: &Entry) {
    let Some(dir) = folder() else {
        return;
    };
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let stem = name(binary, options);
    // A temporary name of this process and this write alone (threads of one process may
    // keep the same entry at once); removed where the write fails (a full disk).
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let tmp = |ext: &str| dir.join(format!(".{stem}.{ext}.{}.{n}", std::process::id()));
    let write = |ext: &str, bytes: &[u8]| -> std::io::Result<()> {
        let t = tmp(ext);
        let written = std::fs::File::create(&t)
            .and_then(|mut f| f.write_all(bytes))
            .and_then(|()| std::fs::rename(&t, dir.join(format!("{stem}.{ext}"))));
        if written.is_err() {
            let _ = std::fs::remove_file(&t);
        }
        written
    };
    // The facts first (after the program's check): an entry is read only where its program
    // exists, written last.
    let lost = std::iter::once(check_line(&entry.program))
        .chain(entry.lost.iter().cloned())
        .collect::<Vec<_>>()
        .join("\n");
    if write("lost", lost.as_bytes()).is_ok() {
        let _ = write(ext, &entry.program);
    }
}
