//! No translation destroys an input: an output that is the input file (by any path, a hard
//! link included) is refused before anything is written, default output names keep
//! distinct inputs apart and never replace an existing file without `--force`, and
//! `migrate` refuses outputs that land on files of its input tree.
use std::path::{Path, PathBuf};

mod common;

use common::cli as run;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spir-xlate-clobber-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const SPIR: &str = "tests/fixtures/modern/vector_add.spir64.bc";

/// A fresh directory `name` holding a copy of the SPIR fixture as `file`: the directory,
/// the copy's path and its bytes.
fn with_spir(name: &str, file: &str) -> (PathBuf, PathBuf, Vec<u8>) {
    let d = scratch(name);
    let bc = d.join(file);
    std::fs::copy(SPIR, &bc).unwrap();
    let bytes = std::fs::read(&bc).unwrap();
    (d, bc, bytes)
}

#[test]
fn going_back_by_default_names_never_replaces_the_original_spir() {
    let (d, bc, original) = with_spir("back", "x.bc");
    assert_eq!(run(&["to-spirv", s(&bc)]).0, 0);
    assert!(d.join("x.spv").exists());
    // x.spv's default name is x.bc, the SPIR it was made from.
    let (code, err) = run(&["to-spir", s(&d.join("x.spv"))]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("x.bc") && err.contains("--force"), "{err}");
    assert_eq!(std::fs::read(&bc).unwrap(), original);
    // Nor does a second run replace the first one's output unasked.
    let (code, err) = run(&["to-spirv", s(&bc)]);
    assert_eq!(code, 1, "{err}");
    // --force replaces a file that is not the input.
    assert_eq!(run(&["to-spir", s(&d.join("x.spv")), "--force"]).0, 0);
    assert_ne!(std::fs::read(&bc).unwrap(), original);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_output_that_is_the_input_is_refused_even_with_force() {
    let (d, bc, original) = with_spir("same", "x.bc");
    std::fs::hard_link(&bc, d.join("link.bc")).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    let dotted = d.join("sub").join("..").join("x.bc");
    for out in [bc.clone(), dotted, d.join("link.bc")] {
        let (code, err) = run(&["to-spirv", s(&bc), "-o", s(&out), "--force"]);
        assert_eq!(code, 1, "{}: {err}", out.display());
        assert!(err.contains("is the input file"), "{err}");
        assert_eq!(std::fs::read(&bc).unwrap(), original);
    }
    // The kernel interface may not be written over the module either.
    let (code, err) = run(&[
        "to-spirv",
        s(&bc),
        "--target",
        "vulkan1.2",
        "-o",
        s(&d.join("k.spv")),
        "--reflection",
        s(&d.join("k.spv")),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(!d.join("k.spv").exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn distinct_inputs_get_distinct_default_outputs() {
    let d = scratch("names");
    for n in ["x.bc32", "x.bc64", "x.bc"] {
        std::fs::copy(SPIR, d.join(n)).unwrap();
        assert_eq!(run(&["to-spirv", s(&d.join(n))]).0, 0, "{n}");
    }
    for made in ["x.bc32.spv", "x.bc64.spv", "x.spv"] {
        assert!(d.join(made).exists(), "{made}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn migrate_into_its_own_input_tree_destroys_nothing() {
    let (d, bc, original) = with_spir("tree", "k.bc");
    // SPIR → SPIR-V beside the inputs: k.spv is new.
    let (code, err) = run(&["migrate", s(&d), "-o", s(&d), "-q"]);
    assert_eq!(code, 0, "{err}");
    // SPIR-V → SPIR beside them: k.spv's output is k.bc, the original.
    let (code, err) = run(&["migrate", "--to", "spir", s(&d), "-o", s(&d), "-q"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("would overwrite"), "{err}");
    assert_eq!(std::fs::read(&bc).unwrap(), original);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_output_that_is_not_a_regular_file_stays_what_it_is() {
    use std::os::unix::fs::FileTypeExt;
    let (d, bc, original) = with_spir("special", "k.bc");
    // A symbolic link: its target is replaced, the link stays a link.
    std::fs::write(d.join("real.spv"), b"old").unwrap();
    std::os::unix::fs::symlink("real.spv", d.join("link.spv")).unwrap();
    assert_eq!(
        run(&["to-spirv", s(&bc), "-o", s(&d.join("link.spv"))]).0,
        0
    );
    let link = std::fs::symlink_metadata(d.join("link.spv")).unwrap();
    assert!(
        link.file_type().is_symlink(),
        "the link was replaced by a file"
    );
    let written = std::fs::read(d.join("real.spv")).unwrap();
    assert_eq!(
        &written[..4],
        &[0x03, 0x02, 0x23, 0x07],
        "the target holds no module"
    );
    // A link to the input is the input.
    std::os::unix::fs::symlink("k.bc", d.join("back.spv")).unwrap();
    let (code, _) = run(&["to-spirv", s(&bc), "-o", s(&d.join("back.spv")), "--force"]);
    assert_eq!(code, 1);
    assert_eq!(std::fs::read(&bc).unwrap(), original);
    // A FIFO is written into (a reader on the other end), not replaced by a file.
    let fifo = d.join("pipe.spv");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    assert_eq!(run(&["to-spirv", s(&bc), "-o", s(&fifo)]).0, 0);
    // Checked before the reader is joined: a replaced FIFO would leave it waiting.
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced by a file");
    let through = reader.join().unwrap();
    assert_eq!(&through[..4], &[0x03, 0x02, 0x23, 0x07]);
    let _ = std::fs::remove_dir_all(&d);
}
