//! The OpenCL layer on every `//@exec` kernel: each fixture's SPIR, in the legacy shapes
//! (SPIR 1.2 as its producers wrote it) and clang-14's, loaded as a legacy application loads
//! it (`clCreateProgramWithBinary`, built with `-x spir -spir-std=1.2`) on the Intel CPU
//! runtime through `libspir_xlate_layer.so` with `SPIR_XLATE_LAYER=always`, so that the layer
//! translates it to SPIR-V; every output is compared bit for bit with the kernel's OpenCL C
//! source built by the driver, and what `clGetKernelArgInfo` says of each kernel's arguments
//! with what the driver says of the source built with `-cl-kernel-arg-info`. The driver's
//! own SPIR path on the same binaries is the `exec_intel` tier's control.
//!
//! Needs the runtime as .ci/run installs it and the layer built in the same profile
//! (`cargo build -p spir-xlate-layer`): `cargo test --test exec_layer -- --ignored`.
mod arg_info;
#[path = "../exec/cl.rs"]
mod cl;
#[path = "../common/mod.rs"]
mod common;
#[path = "../exec/compare.rs"]
mod compare;
#[path = "../exec/spec.rs"]
mod spec;

use std::path::{Path, PathBuf};

use compare::{run_spec, seed_of};

/// The kernels whose OpenCL C source crashes the driver (no reference): as in `exec_intel`.
const DRIVER_CRASHES: [&str; 1] = ["loops_phis"];

/// Kernels whose valid SPIR-V the driver cannot build (`exec_intel`'s DRIVER_REFUSES_SPIRV:
/// its SPIR-V reader turns OpAtomicIAdd on a Generic pointer into a builtin its library
/// lacks). Through the layer they fail to build as our SPIR-V does; reported, not failures.
const DRIVER_REFUSES_SPIRV: [&str; 1] = ["generic_tagged"];

/// The fixture shapes run: SPIR 1.2 as legacy producers wrote it, and clang-14's SPIR, each
/// also with debug information (a representative set of the kernels).
const SHAPES: [&str; 7] = [
    "legacy",
    "legacy-o0",
    "modern",
    "o0",
    "debug",
    "debug-o0",
    "legacy-debug",
];

/// How many facts the layer's translation of `bytes` does not keep (it targets the Intel
/// runtime's OpenCL 3.0).
fn lost_facts(bytes: &[u8]) -> usize {
    let options = spir_xlate::Options {
        target: spir_xlate::TargetEnv::OpenCl30,
        ..Default::default()
    };
    spir_xlate::translate(bytes, &spir_xlate::Translation::ToSpirv(options))
        .map_or(0, |out| out.lost.len())
}

/// Whether answer line `ours` differs from the source's `source` only in the argument's
/// name, which a SPIR made without `-cl-kernel-arg-info` does not keep (the layer says
/// CL_KERNEL_ARG_INFO_NOT_AVAILABLE then, as the driver does of such a program).
fn name_only_missing(ours: &str, source: &str) -> bool {
    let head = |l: &str| l.rsplit_once(" name ").map(|(h, _)| h.to_string());
    ours.ends_with(" name (not available)") && head(ours) == head(source)
}

fn layer_path() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("libspir_xlate_layer.so")
}

#[test]
#[ignore = "oracle tier: needs the Intel runtime .ci/run installs and the layer built"]
fn legacy_spir_runs_bit_identically_through_the_layer() {
    let layer = layer_path();
    assert!(
        layer.exists(),
        "{} is missing: build it first (cargo build -p spir-xlate-layer)",
        layer.display()
    );
    let work = std::env::temp_dir().join(format!("spir-xlate-layer-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let log = work.join("layer.log");
    // Set before the first OpenCL call, when the loader reads them.
    std::env::set_var("OPENCL_LAYERS", &layer);
    std::env::set_var("SPIR_XLATE_LAYER", "always");
    std::env::set_var("SPIR_XLATE_CACHE", "off");
    std::env::set_var("SPIR_XLATE_LAYER_LOG", &log);
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || run_all(&log))
        .unwrap()
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
    let _ = std::fs::remove_dir_all(&work);
}

fn run_all(log: &Path) {
    let dev = cl::Device::of_platform("Intel").expect("the Intel OpenCL runtime (see .ci/run)");
    let (mut built, mut runs, mut same, mut failures) = (0, 0, 0, Vec::new());
    let mut within = 0;
    let mut warned = 0;
    let (mut asked, mut answered) = (0, 0);
    for cl_path in compare::kernel_sources() {
        let name = cl_path.file_stem().unwrap().to_string_lossy().into_owned();
        if DRIVER_CRASHES.contains(&name.as_str()) {
            eprintln!("{name}: not run (the driver crashes building its OpenCL C source)");
            continue;
        }
        let src = std::fs::read_to_string(&cl_path).unwrap();
        let specs = spec::parse(&src).unwrap_or_else(|e| panic!("{}: {e}", cl_path.display()));
        if specs.is_empty() {
            continue;
        }
        let references = match compare::References::build(&dev, &src) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: reference build: {e}"));
                continue;
            }
        };
        let with_info = format!(
            "-cl-std={} {} -cl-kernel-arg-info",
            cl::cl_std(&src),
            cl::build_options(&src)
        );
        let described = match dev.program_from_source_with(&src, &with_info) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: build with -cl-kernel-arg-info: {e}"));
                continue;
            }
        };
        let mut kernels: Vec<&str> = specs.iter().map(|s| s.kernel.as_str()).collect();
        kernels.dedup();
        for shape in SHAPES {
            let fixture = Path::new("tests/fixtures")
                .join(shape)
                .join(format!("{name}.spir64.bc"));
            // The debug shapes hold a representative set of the kernels.
            if shape.contains("debug") && !fixture.exists() {
                continue;
            }
            let bytes = std::fs::read(&fixture).unwrap();
            let program = match dev.program_from_spir(&bytes) {
                Ok(p) => {
                    built += 1;
                    // The build log starts with the translation's warnings, one per fact.
                    let shown = dev
                        .build_log(&p)
                        .lines()
                        .filter(|l| l.starts_with("spir-xlate: warning: not kept: "))
                        .count();
                    let expected = lost_facts(&bytes);
                    if shown != expected {
                        failures.push(format!(
                            "{name} ({shape}): the build log shows {shown} warnings, the \
                             translation has {expected}"
                        ));
                    }
                    warned += usize::from(shown > 0);
                    p
                }
                Err(e) if DRIVER_REFUSES_SPIRV.contains(&name.as_str()) => {
                    let first = e.lines().next().unwrap_or_default();
                    eprintln!("{name} ({shape}): refused by the driver as its SPIR-V is: {first}");
                    continue;
                }
                Err(e) => {
                    failures.push(format!("{name} ({shape}): {e}"));
                    continue;
                }
            };
            for k in &kernels {
                asked += 1;
                match (arg_info::of(&program, k), arg_info::of(&described, k)) {
                    (Ok(Some(ours)), Ok(Some(source))) => {
                        let differ: Vec<String> = ours
                            .iter()
                            .zip(&source)
                            .filter(|(a, b)| a != b && !name_only_missing(a, b))
                            .map(|(a, b)| format!("{a} where the source says {b}"))
                            .collect();
                        if ours.len() != source.len() || !differ.is_empty() {
                            failures.push(format!(
                                "{name}::{k} ({shape}): clGetKernelArgInfo: {}",
                                differ.join("; ")
                            ));
                        } else {
                            answered += 1;
                        }
                    }
                    (Ok(None), _) => failures.push(format!(
                        "{name}::{k} ({shape}): clGetKernelArgInfo has no argument info"
                    )),
                    (Err(e), _) | (_, Err(e)) => {
                        failures.push(format!("{name}::{k} ({shape}): clGetKernelArgInfo: {e}"))
                    }
                    (_, Ok(None)) => failures.push(format!(
                        "{name}::{k}: the source built with -cl-kernel-arg-info has no info"
                    )),
                }
            }
            for s in &specs {
                let seed = seed_of(&s.kernel);
                runs += 1;
                // Bit for bit with the source as OpenCL lets the driver build it (within linear
                // filtering's precision where the kernel samples so: compare::LINEAR_FILTER_BOUND).
                let got = run_spec(&dev, &program, s, seed);
                match got.map(|g| references.matches(&dev, s, seed, &g)) {
                    Ok(Ok(Ok(m))) if m.is_within() => within += 1,
                    Ok(Ok(Ok(_))) => same += 1,
                    Ok(Ok(Err(diffs))) => failures.push(format!(
                        "{name}::{} ({shape}): {}",
                        s.kernel,
                        diffs.join("; ")
                    )),
                    Ok(Err(e)) => failures.push(format!("{name}::{} reference: {e}", s.kernel)),
                    Err(e) => failures.push(format!("{name}::{} ({shape}): {e}", s.kernel)),
                }
            }
        }
    }
    let logged = std::fs::read_to_string(log).unwrap_or_default();
    let translated = logged
        .lines()
        .filter(|l| l.contains(": translated in "))
        .count();
    eprintln!(
        "  Layer: {built} programs built from SPIR through the layer ({translated} translated by \
         it); {same} of {runs} runs bit-identical to the source, {within} within the \
         precision OpenCL allows (linear filtering, contraction); {warned} build logs begin with the translation's warnings; clGetKernelArgInfo of {answered} of {asked} kernels as the driver says it of their source"
    );
    assert!(
        warned > 0,
        "no build log showed a warning: the check proves nothing"
    );
    assert!(
        translated >= built && built > 0,
        "the layer translated {translated} binaries for {built} programs: is it loaded?"
    );
    assert!(
        failures.is_empty(),
        "{} failures through the layer:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}
