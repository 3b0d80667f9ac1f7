//! Execution on Vulkan: our `--target vulkan1.2` modules run by tests/vkhost on the system's
//! Vulkan driver (Mesa lavapipe in CI; an NVIDIA GPU by hand, see README), compared bit for
//! bit with the kernel's OpenCL C source run on the Intel OpenCL runtime on the same inputs.
//! Run as `cargo test --features oracles --test exec_vulkan` with the Intel runtime as the
//! only ICD (see .ci/run) and vkhost built (`cargo build --release --manifest-path
//! tests/vkhost/Cargo.toml`).
//!
//! For every kernel with an `//@exec` line and each of the four fixture shapes, the fixture
//! is translated; a translation that is refused is counted and its reason printed (the
//! lowering refuses what it cannot express yet, by construct), one that succeeds must run
//! and match. `SPIR_XLATE_VULKAN_KEEP=DIR` keeps the modules, inputs, expected outputs and
//! job file in DIR: `vkhost DIR/jobs.json` then replays the whole tier on another machine
//! (how the GPU figures in README were made).
#![cfg(feature = "oracles")]
#[path = "../exec/cl.rs"]
mod cl;
#[path = "../common/mod.rs"]
mod common;
#[path = "../exec/compare.rs"]
mod compare;
#[path = "../exec/spec.rs"]
mod spec;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use compare::{run_spec, seed_of, PRINTED};
use serde_json::json;

/// Kernels whose OpenCL C source the reference driver cannot build (as in exec_intel).
const DRIVER_CRASHES: [&str; 1] = ["loops_phis"];

/// Wrong results a Vulkan driver itself gives: (kernel, device-name substring, why). Such a
/// kernel's runs on that device are reported, not failed; on other devices they must match.
const DRIVER_FAULTS: [(&str, &str, &str); 1] = [(
    "relational_more",
    "llvmpipe",
    "lavapipe (Mesa 25.0.7) computes a division by the constant 0.0 as garbage, not ±inf \
     (a division by a zero read from memory is right)",
)];

/// The fewest fixtures (kernel × shape) that must translate for Vulkan and then run
/// bit-identically: a ratchet, raised as the lowering grows.
const MIN_MATCHING: usize = 100;

fn vkhost() -> PathBuf {
    std::env::var_os("VKHOST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("tests/vkhost/target/release/vkhost"))
}

/// A local size for a spec without one: the largest power-of-two divisor of each global
/// size, at most 64 work-items in all.
fn default_local(global: &[usize]) -> Vec<usize> {
    let mut left = 64usize;
    global
        .iter()
        .map(|&g| {
            let mut l = 1;
            while g % (l * 2) == 0 && l * 2 <= left {
                l *= 2;
            }
            left /= l;
            l
        })
        .collect()
}

#[test]
fn translated_kernels_run_on_vulkan_as_their_source_runs_on_opencl() {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(run_all)
        .unwrap()
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

fn run_all() {
    let dev = cl::Device::of_platform("Intel").expect("the Intel OpenCL runtime (see .ci/run)");
    let keep = std::env::var_os("SPIR_XLATE_VULKAN_KEEP").map(PathBuf::from);
    let work = keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("spir-xlate-vulkan-{}", std::process::id()))
    });
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let only = std::env::var("SPIR_XLATE_EXEC_ONLY").ok();
    let mut jobs = Vec::new();
    let mut refused: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let (mut translated, mut fixtures) = (0, 0);
    let mut failures = Vec::new();
    for cl_path in compare::kernel_sources() {
        let name = cl_path.file_stem().unwrap().to_string_lossy().into_owned();
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let src = std::fs::read_to_string(&cl_path).unwrap();
        let specs = spec::parse(&src).unwrap_or_else(|e| panic!("{}: {e}", cl_path.display()));
        if specs.is_empty() {
            continue;
        }
        if DRIVER_CRASHES.contains(&name.as_str()) {
            eprintln!("{name}: no reference (the Intel driver cannot build its source)");
            continue;
        }
        let reference = match dev.program_from_source(&src) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: reference build: {e}"));
                continue;
            }
        };
        for dir in common::FIXTURE_DIRS {
            let fixture = Path::new(dir).join(format!("{name}.spir64.bc"));
            let shape = dir.trim_start_matches("tests/fixtures/");
            let id = format!("{shape}.{name}");
            fixtures += 1;
            let spv = work.join(format!("{id}.spv"));
            let json_path = work.join(format!("{id}.json"));
            let out = Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
                .arg("to-spirv")
                .arg(&fixture)
                .args(["--target", "vulkan1.2", "-o"])
                .arg(&spv)
                .arg("--reflection")
                .arg(&json_path)
                .output()
                .expect("run spir-xlate");
            if !out.status.success() {
                let why = String::from_utf8_lossy(&out.stderr);
                let why = why.lines().next().unwrap_or("").to_string();
                if why.contains("internal error") || out.status.code() != Some(1) {
                    failures.push(format!("{id}: {why}"));
                }
                let reason = why
                    .split("unsupported construct: ")
                    .nth(1)
                    .unwrap_or(&why)
                    .to_string();
                refused.entry(reason).or_default().push(id.clone());
                continue;
            }
            translated += 1;
            common::spirv_val_env(&spv, "vulkan1.2").unwrap_or_else(|e| {
                failures.push(format!("{id}: spirv-val: {e}"));
            });
            for s in &specs {
                let seed = seed_of(&s.kernel);
                let expected = match run_spec(&dev, &reference, s, seed) {
                    Ok(e) => e,
                    Err(e) => {
                        failures.push(format!("{name}::{} reference: {e}", s.kernel));
                        continue;
                    }
                };
                let data = spec::arg_data(s, seed).unwrap();
                let job_name = format!("{id}::{}", s.kernel);
                let mut args = Vec::new();
                let mut expect = serde_json::Map::new();
                for (i, a) in data.iter().enumerate() {
                    args.push(match a {
                        spec::ArgData::Buffer { bytes, compare } => {
                            let file = format!("{id}.{}.arg{i}", s.kernel);
                            std::fs::write(work.join(format!("{file}.in")), bytes).unwrap();
                            if *compare {
                                let e = expected.iter().find(|(j, _)| *j == i).map(|x| &x.1);
                                std::fs::write(
                                    work.join(format!("{file}.expected")),
                                    e.cloned().unwrap_or_default(),
                                )
                                .unwrap();
                                expect.insert(format!("{file}.out"), json!(format!("{file}.expected")));
                                json!({"buffer": format!("{file}.in"), "output": format!("{file}.out")})
                            } else {
                                json!({"buffer": format!("{file}.in")})
                            }
                        }
                        spec::ArgData::Local(n) => json!({"local_bytes": n}),
                        spec::ArgData::Scalar(b) => json!({"bytes": b}),
                        spec::ArgData::Image { .. } | spec::ArgData::Sampler { .. } => {
                            failures.push(format!(
                                "{job_name}: translated, but vkhost has no images yet"
                            ));
                            json!(null)
                        }
                    });
                }
                if expected.iter().any(|(i, b)| *i == PRINTED && !b.is_empty()) {
                    failures.push(format!(
                        "{job_name}: the kernel prints, which a Vulkan run cannot show"
                    ));
                }
                let local = s.local.clone().unwrap_or_else(|| default_local(&s.global));
                jobs.push(json!({
                    "name": job_name,
                    "spv": format!("{id}.spv"),
                    "reflection": format!("{id}.json"),
                    "kernel": s.kernel,
                    "global": s.global,
                    "local": local,
                    "args": args,
                    "expect": expect,
                }));
            }
        }
    }
    let job_file = work.join("jobs.json");
    std::fs::write(
        &job_file,
        serde_json::to_vec_pretty(&json!({ "jobs": jobs })).unwrap(),
    )
    .unwrap();
    let run = Command::new(vkhost())
        .arg(&job_file)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e} (build tests/vkhost first)", vkhost().display()));
    let stdout = String::from_utf8_lossy(&run.stdout);
    let device = stdout
        .lines()
        .find_map(|l| l.strip_prefix("device: "))
        .unwrap_or("(no device)")
        .to_string();
    let matched = stdout.lines().filter(|l| l.starts_with("ok ")).count();
    let mut known = Vec::new();
    for l in stdout.lines() {
        if l.starts_with("DIFFERS ") || l.starts_with("FAILED ") {
            let fault = DRIVER_FAULTS
                .iter()
                .find(|(k, dev, _)| device.contains(dev) && l.contains(&format!(".{k}::")));
            match fault {
                Some((_, _, why)) => known.push(format!("{l} (known: {why})")),
                None => failures.push(l.to_string()),
            }
        }
    }
    if run.status.code() != Some(0) && matched == 0 {
        failures.push(format!(
            "vkhost failed: {}",
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    eprintln!("Vulkan ({device}), --target vulkan1.2 --vulkan-pointers physical:");
    eprintln!(
        "  {translated} of {fixtures} fixtures translated and valid; {matched} of {} runs \
         bit-identical to the OpenCL C source on the Intel runtime",
        jobs.len()
    );
    if !known.is_empty() {
        eprintln!(
            "  the driver's own faults ({}):\n    {}",
            known.len(),
            known.join("\n    ")
        );
    }
    eprintln!("  refused, by reason ({} fixtures):", fixtures - translated);
    for (why, ids) in &refused {
        eprintln!("    {} × {why}", ids.len());
    }
    if keep.is_none() {
        let _ = std::fs::remove_dir_all(&work);
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if only.is_none() {
        assert!(
            matched >= MIN_MATCHING,
            "only {matched} runs matched (the ratchet is {MIN_MATCHING})"
        );
    }
}
