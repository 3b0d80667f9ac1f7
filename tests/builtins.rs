//! Every OpenCL C 1.2 builtin, every overload, for every target.
//!
//! tests/builtins/generate.py enumerates clang-14's declarations of the builtins (OpenCL C
//! 1.2 with cl_khr_fp64, the atomics extensions and cl_khr_3d_image_writes: 814 functions,
//! 9,669 overloads) and writes one source per function with a kernel per overload. Each is
//! compiled by clang-14 at -O0 (the shape legacy SPIR producers wrote) and -O2, and
//! translated for OpenCL and for Vulkan 1.2 with both pointer strategies; the library
//! validates every module it returns. A translation may fail only where [`REFUSED`] says so
//! and why, and every entry there must still fail, so the list cannot go stale. The
//! overloads with a double are a source of their own (`NAME.fp64`): a Vulkan module of the
//! others must not declare Float64 (most mobile GPUs have none).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

#[path = "common/mod.rs"]
mod common;

use spir_xlate::diag::ErrorKind;
use spir_xlate::{Options, TargetEnv, VulkanPointers};

/// Builtins the Vulkan targets refuse, by name, with the reason: none today (the OpenCL
/// target refuses none either). An entry here must still be refused, at both levels and in
/// both strategies.
const REFUSED: &[(&str, &str)] = &[];

fn targets() -> Vec<(&'static str, Options)> {
    let vulkan = |p| Options {
        target: TargetEnv::parse("vulkan1.2").unwrap(),
        vulkan_pointers: p,
        ..Default::default()
    };
    vec![
        ("opencl2.1", Options::default()),
        ("vulkan1.2 physical", vulkan(VulkanPointers::Physical)),
        ("vulkan1.2 descriptors", vulkan(VulkanPointers::Descriptors)),
    ]
}

fn clang(args: &[&str], what: &str) {
    let out = Command::new("clang-14")
        .args(["-cc1", "-triple", "spir64", "-cl-std=CL1.2"])
        .args(args)
        .output()
        .expect("clang-14 runs");
    assert!(
        out.status.success(),
        "clang-14 {what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The builtins' sources in `dir`: the functions' names, each with its overload count.
fn generate(dir: &Path) -> Vec<(String, usize)> {
    let out = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/builtins/generate.py"))
        .arg(dir)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(dir.join("index.txt"))
        .unwrap()
        .lines()
        .map(|l| {
            let (name, n) = l.split_once(' ').unwrap();
            (name.to_string(), n.parse().unwrap())
        })
        .collect()
}

/// One failed translation: (optimization, builtin, target, message, an internal error?).
type Failure = (String, String, String, String, bool);

#[test]
#[ignore = "oracle tier: needs the tools .ci/run installs (run with -- --ignored)"]
fn every_builtin_lowers_for_every_target() {
    let dir = std::env::temp_dir().join(format!("spir-xlate-builtins-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let names = generate(&dir);
    let overloads: usize = names.iter().map(|(_, n)| n).sum();
    assert!(
        names.len() >= 800 && overloads >= 9000,
        "{} builtins",
        names.len()
    );
    let header = common::resource_dir("clang-14").join("include/opencl-c.h");
    let targets = targets();
    let failures: Mutex<Vec<Failure>> = Mutex::new(Vec::new());
    let mut translated = 0;
    for opt in ["-O0", "-O2"] {
        // The header once, precompiled (as clang's -finclude-default-header would read it).
        let pch = dir.join(format!("opencl-c{opt}.pch"));
        clang(
            &[
                opt,
                "-x",
                "cl",
                "-emit-pch",
                header.to_str().unwrap(),
                "-o",
                pch.to_str().unwrap(),
            ],
            "precompiling opencl-c.h",
        );
        let queue = Mutex::new(names.iter());
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        std::thread::scope(|s| {
            for _ in 0..workers {
                s.spawn(|| loop {
                    let Some((name, _)) = queue.lock().unwrap().next() else {
                        break;
                    };
                    let src = dir.join(format!("{name}.cl"));
                    let bc: PathBuf = dir.join(format!("{name}{opt}.bc"));
                    clang(
                        &[
                            opt,
                            "-include-pch",
                            pch.to_str().unwrap(),
                            "-emit-llvm-bc",
                            src.to_str().unwrap(),
                            "-o",
                            bc.to_str().unwrap(),
                        ],
                        name,
                    );
                    let bitcode = std::fs::read(&bc).unwrap();
                    for (target, options) in &targets {
                        let made = spir_xlate::internals::translate_to_spirv(&bitcode, options);
                        // Without a double in its overloads, a shader needs no Float64.
                        if let Ok(out) = &made {
                            if target.starts_with("vulkan")
                                && !name.ends_with(".fp64")
                                && declares_float64(&out.words)
                            {
                                failures.lock().unwrap().push((
                                    opt.to_string(),
                                    name.clone(),
                                    target.to_string(),
                                    "declares Float64, but no overload has a double".into(),
                                    true,
                                ));
                            }
                        }
                        if let Err(e) = made {
                            let internal = matches!(e.kind, ErrorKind::Internal(_));
                            failures.lock().unwrap().push((
                                opt.to_string(),
                                name.clone(),
                                target.to_string(),
                                e.to_string(),
                                internal,
                            ));
                        }
                    }
                });
            }
        });
        translated += names.len() * targets.len();
    }
    let failures = failures.into_inner().unwrap();
    eprintln!(
        "{} builtins, {overloads} overloads: {} of {translated} translations refused",
        names.len(),
        failures.len()
    );
    let unexpected: Vec<String> = failures
        .iter()
        .filter(|(_, name, target, _, internal)| {
            *internal || target.starts_with("opencl") || !REFUSED.iter().any(|(n, _)| n == name)
        })
        .map(|(opt, name, target, msg, _)| format!("{name} ({opt}, {target}): {msg}"))
        .collect();
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
    // Every listed refusal still happens, for both Vulkan strategies at both levels.
    for (name, why) in REFUSED {
        let n = failures.iter().filter(|f| f.1 == *name).count();
        assert_eq!(
            n, 4,
            "{name} ({why}) is refused {n} times of 4: update REFUSED"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Whether a module declares the Float64 capability.
fn declares_float64(words: &[u32]) -> bool {
    const CAPABILITY: u32 = 17;
    let float64 = spirv::Capability::Float64 as u32;
    common::instructions(words)
        .iter()
        .any(|(op, ops)| *op == CAPABILITY && ops.first() == Some(&float64))
}
