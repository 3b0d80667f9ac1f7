//! Bad input gets a clear error and exit code 1, never a panic or a partial output file.

mod common;

use common::cli as run;

fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("spir-xlate-test-{}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn truncated_bitcode_is_a_clear_error_without_output() {
    let good = std::fs::read("tests/fixtures/modern/vector_add.spir64.bc").unwrap();
    let p = temp("trunc.bc", &good[..good.len() / 2]);
    let out = p.with_extension("spv");
    let (code, err) = run(&["to-spirv", p.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("malformed input"), "{err}");
    assert!(
        err.contains(p.to_str().unwrap()),
        "error names the file: {err}"
    );
    assert!(!out.exists(), "no partial output");
}

#[test]
fn wrong_magic_and_empty_files_are_errors() {
    for (name, bytes) in [
        ("empty.bc", &b""[..]),
        ("junk.bc", &[0xffu8, 0, 1, 2, 3][..]),
        ("spv.bc", &[0x03, 0x02, 0x23, 0x07, 0, 0][..]),
    ] {
        let p = temp(name, bytes);
        let (code, err) = run(&["to-spirv", p.to_str().unwrap(), "-o", "-"]);
        assert_eq!(code, 1, "{name}: {err}");
        assert!(err.starts_with("error: "), "{name}: {err}");
    }
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["to-spirv"]).0, 2);
    assert_eq!(run(&["to-spirv", "x.bc", "--target", "vulkan"]).0, 2);
    assert_eq!(run(&["frobnicate"]).0, 2);
}

#[test]
fn pinned_version_above_target_is_refused() {
    let (code, err) = run(&[
        "to-spirv",
        "tests/fixtures/modern/vector_add.spir64.bc",
        "-o",
        "-",
        "--spirv-version",
        "1.4",
    ]);
    // A usage error, as the other option errors are.
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("opencl2.1") && err.contains("1.4"), "{err}");
}

#[test]
fn unknown_builtin_names_function_and_call() {
    let ll = r#"target triple = "spir64-unknown-unknown"
declare spir_func i32 @_Z12no_such_funci(i32)
define spir_kernel void @k(i32 addrspace(1)* %p) {
entry:
  %v = call spir_func i32 @_Z12no_such_funci(i32 1)
  store i32 %v, i32 addrspace(1)* %p
  ret void
}
"#;
    let p = temp("unknown.ll", ll.as_bytes());
    let (code, err) = run(&["to-spirv", p.to_str().unwrap(), "-o", "-"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("function 'k'") && err.contains("no_such_func"),
        "{err}"
    );
}

#[test]
fn a_directory_as_input_is_named_as_such() {
    let (code, err) = run(&["to-spirv", "tests", "-o", "-"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("tests: cannot read input: this is a directory"),
        "{err}"
    );
    let (code, err) = run(&["to-spir", "tests/kernels"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("this is a directory"), "{err}");
}

#[test]
fn an_output_in_a_missing_directory_is_an_output_error() {
    let missing = std::env::temp_dir().join(format!("spir-xlate-missing-{}", std::process::id()));
    let out = missing.join("a.spv");
    let (code, err) = run(&[
        "to-spirv",
        "tests/fixtures/modern/vector_add.spir64.bc",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cannot write output"), "{err}");
    assert!(err.contains("does not exist"), "{err}");
    assert!(!err.contains("cannot read input"), "{err}");
    assert!(!missing.exists());
}

/// Bitcode on which LLVM 14's reader calls `report_fatal_error` (abort) or crashes: each is
/// exit 1 with LLVM's reason, never a signal, and no output. The files are fuzzer finds
/// (tests/regressions/bitcode/README.md).
#[test]
fn bitcode_that_makes_llvm_abort_is_a_located_error() {
    let mut seen = 0;
    for entry in std::fs::read_dir("tests/regressions/bitcode").unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_none_or(|e| e != "bc") {
            continue;
        }
        seen += 1;
        let out = std::env::temp_dir().join(format!(
            "spir-xlate-test-{}-{}.spv",
            std::process::id(),
            p.file_stem().unwrap().to_string_lossy()
        ));
        for cmd in ["to-spirv", "dump-ir"] {
            let mut args = vec![cmd, p.to_str().unwrap()];
            if cmd == "to-spirv" {
                args.extend(["-o", out.to_str().unwrap()]);
            }
            let (code, err) = run(&args);
            assert_eq!(code, 1, "{cmd} {}: {err}", p.display());
            assert!(err.starts_with("error: "), "{}: {err}", p.display());
            assert!(err.contains(p.to_str().unwrap()), "names the file: {err}");
            assert!(!out.exists(), "no output for {}", p.display());
        }
        let (_, err) = run(&["to-spirv", p.to_str().unwrap(), "-o", "-"]);
        if let Some(reason) = std::fs::read_to_string(p.with_extension("reason"))
            .ok()
            .map(|r| r.trim().to_string())
        {
            assert!(
                err.contains(&reason),
                "{}: expected '{reason}' in {err}",
                p.display()
            );
        }
    }
    assert!(seen >= 4, "only {seen} regression files");
}

#[test]
fn quiet_silences_warnings_not_errors() {
    // -O0 attributes to Vulkan: hints that are not kept are warned about.
    let fixture = "tests/fixtures/modern/attributes.spir64.bc";
    let args = ["to-spirv", fixture, "--target", "vulkan1.2", "-o", "-"];
    let (code, err) = run(&args);
    assert_eq!(code, 0);
    assert!(err.contains("warning: "), "{err}");
    let (code, err) = run(&[&args[..], &["-q"]].concat());
    assert_eq!((code, err.as_str()), (0, ""));
    let junk = temp("quiet-junk.bc", b"junk");
    let (code, err) = run(&["to-spirv", "-q", junk.to_str().unwrap(), "-o", "-"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("error: "), "{err}");
}

/// The SPIR-V of the `vector_add` fixture, written by the command line to a temporary file.
fn vector_add_spirv(name: &str) -> std::path::PathBuf {
    let spv = std::env::temp_dir().join(format!("spir-xlate-test-{}-{name}", std::process::id()));
    let fixture = "tests/fixtures/modern/vector_add.spir64.bc";
    let (code, err) = run(&["to-spirv", fixture, "-o", spv.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    spv
}

#[test]
fn to_spir_takes_a_time_limit() {
    let spv = vector_add_spirv("tl.spv");
    let spv = spv.to_str().unwrap();
    let (code, err) = run(&["to-spir", spv, "--time-limit", "30", "-o", "-"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(run(&["to-spir", spv, "--time-limit", "soon"]).0, 2);
}

#[test]
fn a_missing_input_is_said_in_words() {
    let (code, err) = run(&["migrate", "/nonexistent/spir", "-o", "/tmp/never-made"]);
    assert_eq!(code, 1);
    assert!(err.contains("no such file or directory"), "{err}");
    assert!(!err.contains("os error"), "{err}");
}

#[test]
fn modules_carry_this_tools_generator_word() {
    let bytes = std::fs::read(vector_add_spirv("gen.spv")).unwrap();
    let generator = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    // No registered tool id (0), this crate's version below: not rspirv's builder.
    assert_eq!(generator >> 16, 0);
    let minor: u32 = env!("CARGO_PKG_VERSION_MINOR").parse().unwrap();
    assert_eq!(generator >> 8 & 0xff, minor);
}

/// Messages name builtins by the SPIR-V instruction they stand for, never by the graph's Rust
/// spelling (`Image(Read(Float))`, `AsyncCopy { strided: true }`, `ControlBarrier { exec: ..`).
#[test]
fn messages_name_builtins_as_spirv_instructions() {
    for (input, named) in [
        (
            "tests/regressions/fuzz-vulkan/read_of_write_only_image.spv",
            "OpImageRead: a read of a write-only image",
        ),
        (
            "tests/regressions/fuzz-vulkan/async_copy_mismatched_pointees.spv",
            "OpGroupAsyncCopy: operands 0 and 1 point to different types",
        ),
        (
            "tests/regressions/fuzz/builtin_operand_type.spv",
            "OpGroupWaitEvents: operand 0 is not an integer",
        ),
        (
            "tests/regressions/fuzz-vulkan/device_control_barrier.spv",
            "an unnamed OpControlBarrier:",
        ),
    ] {
        let (code, err) = run(&["to-spir", input, "-o", "-"]);
        assert_eq!(code, 1, "{input}: {err}");
        assert!(err.contains(named), "{input}: {err}");
        for debug in [" { ", "(Read(", "Some(", "Handle("] {
            assert!(!err.contains(debug), "{input}: Rust debug text in {err}");
        }
    }
}

#[test]
fn to_opencl_c_refuses_bad_input_and_keeps_an_existing_source() {
    let good = std::fs::read("tests/fixtures/modern/vector_add.spir64.bc").unwrap();
    for (name, bytes) in [
        ("clc-trunc.bc", &good[..good.len() / 2]),
        ("clc-junk.spv", &[0x03u8, 0x02, 0x23, 0x07, 0, 0][..]),
    ] {
        let p = temp(name, bytes);
        let out = p.with_extension("cl");
        let (code, err) = run(&[
            "to-opencl-c",
            p.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 1, "{name}: {err}");
        assert!(err.starts_with("error: "), "{name}: {err}");
        assert!(
            err.contains(p.to_str().unwrap()),
            "{name}: the error names the file: {err}"
        );
        assert!(!out.exists(), "{name}: no partial output");
    }
    // The default output name is the kernel's source: never overwritten without --force.
    let p = temp("clc-kernel.bc", &good);
    let source = p.with_extension("cl");
    std::fs::write(&source, "kernel source").unwrap();
    let (code, err) = run(&["to-opencl-c", p.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&source).unwrap(), "kernel source");
    let (code, err) = run(&["to-opencl-c", p.to_str().unwrap(), "--force"]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&source)
        .unwrap()
        .contains("__kernel void vector_add("));
}

#[test]
fn text_and_truncation_errors_are_in_the_user_s_words() {
    let ll = temp("bad.ll", b"define void @f() {\n  bad\n}\n");
    let (code, err) = run(&["to-spirv", ll.to_str().unwrap(), "-o", "-"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("line 2, column 3: expected instruction opcode"),
        "{err}"
    );
    assert!(!err.contains("input:2:3"), "LLVM's buffer name: {err}");
    let good = std::fs::read("tests/fixtures/modern/vector_add.spir64.bc").unwrap();
    let cut = temp("cut.bc", &good[..300]);
    let (code, err) = run(&["to-spirv", cut.to_str().unwrap(), "-o", "-"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("truncated: it ends at byte 300"), "{err}");
    assert!(!err.contains("skip to bit"), "{err}");
    let (code, err) = run(&[
        "migrate",
        "tests/fixtures/modern",
        "-o",
        "-",
        "--since",
        "nope.json",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--since nope.json: the report cannot be read"),
        "{err}"
    );
    for f in [ll, cut] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn every_command_says_its_version_with_llvm_s_and_spirv_tools() {
    for args in [
        &["--version"][..],
        &["to-spirv", "--version"],
        &["migrate", "--version"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
            .args(args)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{args:?}");
        assert!(
            said.contains("LLVM 14.") && said.contains("SPIRV-Tools v"),
            "{args:?}: {said}"
        );
    }
}
