//! `to-opencl-c`: what it writes, and that a compiler takes it.
//!
//! * Snapshots (`cargo test`): the OpenCL C of a few fixtures lives in
//!   tests/snapshots/<variant>.<kernel>.cl; `SPIR_XLATE_BLESS=1 cargo test --test opencl_c`
//!   rewrites it after an intended change. The output is deterministic (written twice).
//! * Oracle tier (`-- --ignored`, clang-14 as .ci/run installs it): every fixture of every
//!   shape, spir and spir64, is written as OpenCL C and compiled by `clang-14 -Werror` at the
//!   OpenCL C version its first line declares, with the extensions its pragmas enable, for
//!   the fixture's target.
mod common;

use pretty_assertions::assert_eq;
use std::path::{Path, PathBuf};
use std::process::Command;

const SNAPSHOTS: &[(&str, &str)] = &[
    ("modern", "vector_add"),
    ("modern", "control_flow"),
    ("modern", "switch_goto"),
    ("modern", "images"),
    ("modern", "printf_formats"),
    ("legacy-o0", "struct_copy"),
];

fn opencl_c(input: &Path) -> Result<String, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
        .arg("to-opencl-c")
        .arg(input)
        .arg("-o")
        .arg("-")
        .arg("-q")
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    String::from_utf8(out.stdout).map_err(|e| e.to_string())
}

#[test]
fn opencl_c_matches_its_snapshots() {
    let bless = std::env::var_os("SPIR_XLATE_BLESS").is_some();
    for (variant, kernel) in SNAPSHOTS {
        let input = PathBuf::from(format!("tests/fixtures/{variant}/{kernel}.spir64.bc"));
        let got = opencl_c(&input).unwrap_or_else(|e| panic!("{}: {e}", input.display()));
        let again = opencl_c(&input).unwrap();
        assert_eq!(
            got,
            again,
            "{}: the output is not deterministic",
            input.display()
        );
        let snap = format!("tests/snapshots/{variant}.{kernel}.cl");
        if bless {
            std::fs::write(&snap, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&snap)
            .unwrap_or_else(|e| panic!("{snap}: {e} (create it with SPIR_XLATE_BLESS=1)"));
        assert_eq!(
            want,
            got,
            "{snap} differs from the OpenCL C of {}",
            input.display()
        );
    }
}

#[test]
fn the_first_line_names_the_version_to_build_with() {
    let v12 = opencl_c(Path::new("tests/fixtures/modern/vector_add.spir64.bc")).unwrap();
    assert!(
        v12.starts_with("// OpenCL C 1.2 (build with -cl-std=CL1.2)"),
        "{v12}"
    );
    let v20 = opencl_c(Path::new("tests/fixtures/modern/generic_space.spir64.bc")).unwrap();
    assert!(
        v20.starts_with("// OpenCL C 2.0 (build with -cl-std=CL2.0)"),
        "{v20}"
    );
}

#[test]
#[ignore = "oracle tier: needs clang-14 (run with -- --ignored)"]
fn every_fixture_s_opencl_c_compiles_with_clang_werror() {
    let work = std::env::temp_dir().join(format!("spir-xlate-clc-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let (mut failures, mut compiled) = (Vec::new(), 0);
    let mut fixtures: Vec<PathBuf> = common::FIXTURE_DIRS
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|e| e == "bc"))
        .collect();
    fixtures.sort();
    for input in &fixtures {
        let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
        let (_, target) = stem.rsplit_once('.').unwrap_or((&stem, "spir64"));
        let text = match opencl_c(input) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: {e}", input.display()));
                continue;
            }
        };
        let std = text
            .lines()
            .next()
            .and_then(|l| l.split("-cl-std=").nth(1))
            .and_then(|r| r.split(')').next())
            .unwrap_or("CL1.2")
            .to_string();
        let cl = work.join(format!("{}.{}.cl", common::fixture_id(input), target));
        std::fs::write(&cl, &text).unwrap();
        let mut cmd = Command::new("clang-14");
        cmd.args(["-x", "cl", "-target", target])
            .arg(format!("-cl-std={std}"))
            .args([
                "-Werror",
                "-fsyntax-only",
                "-Xclang",
                "-finclude-default-header",
            ]);
        for line in text.lines() {
            if let Some(ext) = line
                .strip_prefix("#pragma OPENCL EXTENSION ")
                .and_then(|r| r.strip_suffix(" : enable"))
            {
                cmd.arg("-Xclang").arg(format!("-cl-ext=+{ext}"));
            }
        }
        let out = cmd.arg(&cl).output().expect("clang-14 (see .ci/run)");
        if out.status.success() {
            compiled += 1;
        } else {
            failures.push(format!(
                "{}: clang-14 -Werror:\n{}",
                input.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    eprintln!(
        "OpenCL C of {} fixtures: {compiled} compile with clang-14 -Werror",
        fixtures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compiled > 500, "only {compiled} fixtures compiled");
}

#[test]
fn a_local_byte_argument_read_as_floats_is_declared_as_floats() {
    // LLVM 22's SPIR-V backend types no pointer: a kernel's `__local float *` argument
    // arrives as bytes the body casts. NVIDIA's OpenCL places a `__local` argument's memory
    // by its declared type, and floats read through memory declared `char` faulted there
    // (app_physics' bounds_partial, docs/logs/h100/): the argument is declared as what the
    // body reads it as, and the body keeps reading bytes.
    let (signature, out) = kernel_opencl_c(
        "local-bytes",
        "%lptr = OpTypePointer Workgroup %uchar
         %lfptr = OpTypePointer Workgroup %float
         %fty = OpTypeFunction %void %lptr %gfptr",
        "%f = OpBitcast %lfptr %s
         %v = OpLoad %float %f Aligned 4
         OpStore %out %v Aligned 4",
    );
    assert!(signature.contains("__local float *"), "{signature}");
    assert!(
        out.contains("(__local uchar *)"),
        "the body reads bytes no more:\n{out}"
    );
}

#[test]
fn a_local_float_argument_read_as_float4_is_declared_as_float4() {
    // The same where the backend's pointee is a float and the body reads a float4 through
    // it (local_mixed's tile): declared `float *`, NVIDIA placed it 4-byte aligned after a
    // 37-byte argument, and the float4 reads faulted (docs/logs/h100/).
    let (signature, out) = kernel_opencl_c(
        "local-float4",
        "%lptr = OpTypePointer Workgroup %float
         %float4 = OpTypeVector %float 4
         %l4ptr = OpTypePointer Workgroup %float4
         %fty = OpTypeFunction %void %lptr %gfptr",
        "%f = OpBitcast %l4ptr %s
         %v4 = OpLoad %float4 %f Aligned 16
         %v = OpCompositeExtract %float %v4 2
         OpStore %out %v Aligned 4",
    );
    assert!(signature.contains("__local float4 *"), "{signature}");
    assert!(
        out.contains("(__local float *)"),
        "the body reads floats no more:\n{out}"
    );
}

/// Our OpenCL C of a one-kernel module `scratch(%s, __global float *%out)`, assembled from
/// its pointer and function types (`types`: `%lptr`, the type of `%s`, and `%fty`) and its
/// body (`body`, before the return): the kernel's signature line, and the whole text.
fn kernel_opencl_c(tag: &str, types: &str, body: &str) -> (String, String) {
    use spirv_tools::assembler::{Assembler, AssemblerOptions};
    let text = format!(
        "OpCapability Addresses
         OpCapability Kernel
         OpCapability Int8
         OpMemoryModel Physical64 OpenCL
         OpEntryPoint Kernel %k \"scratch\"
         %void = OpTypeVoid
         %uchar = OpTypeInt 8 0
         %float = OpTypeFloat 32
         %gfptr = OpTypePointer CrossWorkgroup %float
         {types}
         %k = OpFunction %void None %fty
         %s = OpFunctionParameter %lptr
         %out = OpFunctionParameter %gfptr
         %e = OpLabel
         {body}
         OpReturn
         OpFunctionEnd"
    );
    let asm = spirv_tools::assembler::create(Some(spirv_tools::TargetEnv::OpenCL_2_1));
    let words = asm
        .assemble(&text, AssemblerOptions::default())
        .unwrap()
        .as_words()
        .to_vec();
    let path = std::env::temp_dir().join(format!("spir-xlate-{tag}-{}.spv", std::process::id()));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let out = opencl_c(&path);
    let _ = std::fs::remove_file(&path);
    let out = out.unwrap();
    let signature = out
        .lines()
        .find(|l| l.starts_with("__kernel void scratch("))
        .unwrap_or_else(|| panic!("no kernel `scratch`:\n{out}"))
        .to_string();
    (signature, out)
}
