//! Where a translation's output goes, and how it gets there ([`write_file`]): never a
//! partial file, and never a file that is not one.
//!
//! A regular file (or a name that does not exist yet) is written as a temporary file beside
//! it and renamed into place, so that a failed or interrupted run leaves the old file or
//! none, never half of the new one. Anything else is written through, as a shell's `>`
//! would: a device (`/dev/null`, `/dev/stdout`), a FIFO or a terminal stays what it is
//! (renaming a file over `/dev/null` made it a regular file). A symbolic link is followed
//! to the file it names, which is replaced; the link stays a link.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The links a chain of symbolic links may have before it is taken for a loop (Linux's
/// `MAXSYMLINKS`).
const MAX_LINKS: usize = 40;

/// The file `path` names after its symbolic links: the path itself where it is none, the
/// final target where it is one (which need not exist yet: a dangling link names the
/// file to create).
pub fn link_target(path: &Path) -> std::io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Whether `path` (through its links) is something other than a regular file or a
/// directory: written through, not replaced.
pub fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Write `bytes` to `dest`: through a temporary file renamed over the target of its links
/// (its permissions kept where it exists), or straight into it where it is not a regular
/// file (`is_special`). `tag` tells apart the temporary files of writers running at once.
pub fn write_file(dest: &Path, bytes: &[u8], tag: &str) -> std::io::Result<()> {
    if is_special(dest) {
        let mut f = std::fs::OpenOptions::new().write(true).open(dest)?;
        return f.write_all(bytes).and_then(|()| f.flush());
    }
    let target = link_target(dest)?;
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let tmp = dir.join(format!(".{name}.tmp{}-{tag}", std::process::id()));
    let written = std::fs::write(&tmp, bytes)
        .and_then(|()| match std::fs::metadata(&target) {
            Ok(m) => std::fs::set_permissions(&tmp, m.permissions()),
            Err(_) => Ok(()),
        })
        .and_then(|()| std::fs::rename(&tmp, &target));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("spir-xlate-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_link_is_followed_and_stays_a_link() {
        let d = scratch("link");
        std::fs::write(d.join("real.spv"), b"old").unwrap();
        std::os::unix::fs::symlink("real.spv", d.join("link.spv")).unwrap();
        write_file(&d.join("link.spv"), b"new", "t").unwrap();
        assert!(std::fs::symlink_metadata(d.join("link.spv"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(d.join("real.spv")).unwrap(), b"new");
        // A dangling link names the file to make.
        std::os::unix::fs::symlink("made.spv", d.join("dangling.spv")).unwrap();
        write_file(&d.join("dangling.spv"), b"made", "t").unwrap();
        assert_eq!(std::fs::read(d.join("made.spv")).unwrap(), b"made");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_device_is_written_through_and_a_loop_of_links_refused() {
        use std::os::unix::fs::FileTypeExt;
        write_file(Path::new("/dev/null"), b"bytes", "t").unwrap();
        let kind = std::fs::metadata("/dev/null").unwrap().file_type();
        assert!(kind.is_char_device(), "/dev/null was replaced");
        let d = scratch("loop");
        std::os::unix::fs::symlink("b", d.join("a")).unwrap();
        std::os::unix::fs::symlink("a", d.join("b")).unwrap();
        assert!(write_file(&d.join("a"), b"x", "t").is_err());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_regular_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let d = scratch("perm");
        let f = d.join("out.cl");
        std::fs::write(&f, b"old").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_file(&f, b"new", "t").unwrap();
        assert_eq!(
            std::fs::metadata(&f).unwrap().permissions().mode() & 0o777,
            0o640
        );
        assert_eq!(std::fs::read(&f).unwrap(), b"new");
        let _ = std::fs::remove_dir_all(&d);
    }
}
