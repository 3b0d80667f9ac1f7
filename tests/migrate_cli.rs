//! `spir-xlate migrate`: a directory tree in one process, outputs mirroring it, a JSON report,
//! a summary line; a bad file never stops the batch and leaves no output.
use std::path::{Path, PathBuf};

mod common;

use common::cli as run;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spir-xlate-migrate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy(from: &str, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap();
}

#[test]
fn a_tree_with_bad_files_translates_the_rest_and_reports_each() {
    let inp = scratch("in");
    copy(
        "tests/fixtures/modern/vector_add.spir64.bc",
        &inp.join("a/vector_add.bc"),
    );
    // Recognised by content: no extension, and a misleading one.
    copy(
        "tests/fixtures/legacy/images.spir64.bc",
        &inp.join("a/b/images"),
    );
    copy(
        "tests/fixtures/o0/c11_atomics.spir64.bc",
        &inp.join("c11.txt"),
    );
    // LLVM's reader aborts on this one (contained); a truncated module; a text file.
    copy(
        "tests/regressions/bitcode/invalid_abbrev.bc",
        &inp.join("a/abbrev.bc"),
    );
    let good = std::fs::read("tests/fixtures/modern/vector_add.spir64.bc").unwrap();
    std::fs::write(inp.join("a/truncated.bc"), &good[..good.len() / 2]).unwrap();
    std::fs::write(inp.join("notes.md"), "not a module").unwrap();
    // A link to a module is translated; a dangling one is reported, and the batch goes on.
    std::os::unix::fs::symlink(inp.join("a/vector_add.bc"), inp.join("linked.bc")).unwrap();
    std::os::unix::fs::symlink(inp.join("missing.bc"), inp.join("dangling.bc")).unwrap();
    let out = scratch("out");
    let report = out.join("report.json");
    let (code, err) = run(&[
        "migrate",
        inp.to_str().unwrap(),
        "-o",
        out.join("spv").to_str().unwrap(),
        "-j",
        "2",
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("migrate: 7 files: 4 translated, 3 invalid input")
            && err.contains("(1 file skipped: not LLVM bitcode)"),
        "{err}"
    );
    assert!(err.contains("abbrev.bc: malformed input"), "{err}");
    assert!(err.contains("dangling.bc: cannot read input"), "{err}");
    for made in [
        "a/vector_add.spv",
        "a/b/images.spv",
        "c11.txt.spv",
        "linked.spv",
    ] {
        let p = out.join("spv").join(made);
        let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert_eq!(bytes[..4], [0x03, 0x02, 0x23, 0x07], "{made}");
    }
    // Nothing for the bad files, and no temporary files left.
    let mut left = Vec::new();
    for e in walk(&out.join("spv")) {
        left.push(e.strip_prefix(out.join("spv")).unwrap().to_path_buf());
    }
    left.sort();
    assert_eq!(
        left,
        [
            "a/b/images.spv",
            "a/vector_add.spv",
            "c11.txt.spv",
            "linked.spv"
        ]
        .map(PathBuf::from)
        .to_vec()
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let files = json["files"].as_array().unwrap();
    // The seven modules and the one skipped file.
    assert_eq!(files.len(), 8);
    let of = |name: &str| {
        files
            .iter()
            .find(|f| f["input"].as_str().unwrap().ends_with(name))
            .unwrap_or_else(|| panic!("{name} in the report"))
    };
    assert_eq!(of("vector_add.bc")["status"], "ok");
    assert_eq!(of("vector_add.bc")["kernels"][0], "vector_add");
    assert_eq!(of("vector_add.bc")["spirv_version"], "1.0");
    assert!(of("c11.txt")["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c == "GenericPointer"));
    assert_eq!(of("abbrev.bc")["status"], "invalid input");
    assert_eq!(of("truncated.bc")["status"], "invalid input");
    assert!(of("truncated.bc")["message"]
        .as_str()
        .unwrap()
        .contains("truncated.bc"));
    assert_eq!(of("dangling.bc")["status"], "invalid input");
    // A failed file names no output; a translated one does.
    assert!(of("truncated.bc").get("output").is_none());
    assert!(of("vector_add.bc")["output"]
        .as_str()
        .unwrap()
        .ends_with("vector_add.spv"));
    assert_eq!(json["summary"]["ok"], 4);
    assert_eq!(json["summary"]["skipped"], 1);
    // The skipped file is listed, as skipped, with what it is.
    let skipped: Vec<&serde_json::Value> =
        files.iter().filter(|f| f["status"] == "skipped").collect();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(
        skipped[0]["reason"],
        "neither LLVM bitcode nor SPIR-V (by its first bytes)"
    );

    // Back again: every SPIR-V module to SPIR, exit 0.
    let (code, err) = run(&[
        "migrate",
        out.join("spv").to_str().unwrap(),
        "-o",
        out.join("bc").to_str().unwrap(),
        "--to",
        "spir",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("migrate: 4 files: 4 translated"), "{err}");
    for made in [
        "a/vector_add.bc",
        "a/b/images.bc",
        "c11.txt.bc",
        "linked.bc",
    ] {
        let bytes = std::fs::read(out.join("bc").join(made)).unwrap();
        assert_eq!(&bytes[..4], b"BC\xc0\xde", "{made}");
    }
    let _ = std::fs::remove_dir_all(&inp);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn files_named_by_themselves_are_translated_whatever_they_hold() {
    let inp = scratch("named");
    let ll = inp.join("k.ll");
    std::fs::write(
        &ll,
        r#"target triple = "spir64-unknown-unknown"
define spir_kernel void @k(i32 addrspace(1)* %p) {
entry:
  store i32 7, i32 addrspace(1)* %p, align 4
  ret void
}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
"#,
    )
    .unwrap();
    std::fs::write(inp.join("notes.md"), "not a module").unwrap();
    let out = scratch("named-out");
    let (code, err) = run(&[
        "migrate",
        ll.to_str().unwrap(),
        inp.join("notes.md").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("migrate: 2 files: 1 translated, 1 invalid input"),
        "{err}"
    );
    assert!(err.contains("notes.md: malformed input"), "{err}");
    // Named as to-spirv names it: k.ll is k.spv.
    assert!(out.join("k.spv").exists());
    let _ = std::fs::remove_dir_all(&inp);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn output_is_spelled_as_for_the_other_commands() {
    let out = scratch("spelled");
    let (code, err) = run(&[
        "migrate",
        "tests/fixtures/modern/vector_add.spir64.bc",
        "--output",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.join("vector_add.spir64.spv").exists());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn two_inputs_for_one_output_are_an_error_before_anything_is_written() {
    let inp = scratch("clash");
    copy(
        "tests/fixtures/modern/vector_add.spir64.bc",
        &inp.join("k.bc"),
    );
    copy(
        "tests/fixtures/modern/vector_add.spir64.bc",
        &inp.join("k.spir"),
    );
    let out = scratch("clash-out");
    let (code, err) = run(&[
        "migrate",
        inp.to_str().unwrap(),
        "-o",
        out.join("o").to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("would both be written to"), "{err}");
    assert!(!out.join("o").exists());
    let _ = std::fs::remove_dir_all(&inp);
    let _ = std::fs::remove_dir_all(&out);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files.extend(walk(&p));
        } else {
            files.push(p);
        }
    }
    files
}

#[test]
fn an_output_directory_that_cannot_be_made_or_written_is_one_error_before_any_work() {
    let d = scratch("unwritable");
    copy(
        "tests/fixtures/modern/vector_add.spir64.bc",
        &d.join("in/a.bc"),
    );
    copy(
        "tests/fixtures/modern/vector_add.spir64.bc",
        &d.join("in/b.bc"),
    );
    let input = d.join("in");
    // /proc takes no new directory and no file, whoever runs the test (root included).
    for (out, why) in [
        ("/proc/spir-xlate-out", "cannot make this directory"),
        ("/proc/self", "cannot write into this directory"),
    ] {
        let (code, err) = run(&["migrate", input.to_str().unwrap(), "-o", out]);
        assert_eq!(code, 1, "{err}");
        assert_eq!(
            err.lines().count(),
            1,
            "one error, not one per file:\n{err}"
        );
        assert!(err.contains(out) && err.contains(why), "{err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn exit_codes_tell_refused_inputs_from_a_failed_run_and_the_report_is_written_either_way() {
    let d = scratch("exits");
    copy(
        "tests/fixtures/modern/vector_add.spir64.bc",
        &d.join("in/a.bc"),
    );
    copy(
        "tests/fixtures/modern/vector_add.spir64.bc",
        &d.join("in/b.bc"),
    );
    std::fs::write(d.join("in/bad.bc"), b"BC\xc0\xde not bitcode").unwrap();
    let (input, out, report) = (d.join("in"), d.join("out"), d.join("report.json"));
    let args = |extra: &[&str]| {
        let mut a = vec![
            "migrate".to_string(),
            input.to_str().unwrap().to_string(),
            "-o".into(),
            out.to_str().unwrap().to_string(),
            "--report".into(),
            report.to_str().unwrap().to_string(),
            "-q".into(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    // An input that is no module: 1, the rest translated, the report whole.
    let a = args(&[]);
    let (code, err) = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 1, "{err}");
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(
        text.contains("\"invalid input\": 1") && text.contains("\"ok\": 2"),
        "{text}"
    );
    // An output that cannot be written (a directory where the file goes): the run failed, 3.
    std::fs::remove_file(out.join("a.spv")).unwrap();
    std::fs::create_dir(out.join("a.spv")).unwrap();
    std::fs::remove_file(&report).unwrap();
    let a = args(&["--force"]);
    let (code, err) = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 3, "{err}");
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(text.contains("\"output error\": 1"), "{text}");
    let _ = std::fs::remove_dir_all(&d);
}
