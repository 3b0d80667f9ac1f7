//! Execution on Vulkan: our `--target vulkan1.2` modules run by tests/vkhost on the system's
//! Vulkan driver (Mesa lavapipe in CI; an NVIDIA GPU by hand, see docs/testing.md), compared
//! bit for bit with the kernel's OpenCL C source run on the Intel OpenCL runtime on the same inputs.
//! Run as `cargo test --test exec_vulkan -- --ignored` with the Intel runtime as the
//! only ICD (see .ci/run) and vkhost built (`cargo build --release --manifest-path
//! tests/vkhost/Cargo.toml`).
//!
//! For every kernel with an `//@exec` line, each of the four fixture shapes and both pointer
//! strategies (`--vulkan-pointers physical`, and `descriptors`, whose jobs are named
//! `desc.*`), the fixture is translated; a translation that is refused is counted and its
//! reason printed (the lowering refuses what it cannot express, by construct), one that
//! succeeds must run and match (`gather` makes the jobs, `outcome` judges vkhost's run of
//! them, `known` lists what differs for a reason not ours). `SPIR_XLATE_VULKAN_KEEP=DIR`
//! keeps the modules, inputs, expected outputs and job file in DIR: `vkhost DIR/jobs.json`
//! then replays the whole tier on another machine (how the GPU figures in docs/status.md
//! were made: docs/logs/gpu.log).
#[path = "../exec/cl.rs"]
mod cl;
mod clspv;
#[path = "../common/mod.rs"]
mod common;
#[path = "../exec/compare.rs"]
mod compare;
mod gather;
mod known;
mod outcome;
mod reflection;
#[path = "../exec/spec.rs"]
mod spec;

use std::path::{Path, PathBuf};
use std::process::Command;

use compare::{seed_of, PRINTED};
use known::WITHIN;
use serde_json::json;

/// Fixtures translated for Vulkan 1.3 rather than 1.2: their kernels fix different
/// work-group sizes beside one that takes the host's, which only LocalSizeId keeps (before
/// 1.3 the translation says which size holds only where the host sets the constants).
const VULKAN_1_3: [&str; 1] = ["workgroup_sizes"];

/// The pointer strategies, the prefix of their job names, and the fewest fixtures
/// (kernel × shape) that must translate for Vulkan under each and then run bit-identically:
/// a ratchet, raised as the lowering grows.
const STRATEGIES: [(&str, &str, usize); 2] = [("physical", "", 376), ("descriptors", "desc.", 364)];

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
#[ignore = "oracle tier: needs the tools .ci/run installs (run with -- --ignored)"]
fn translated_kernels_run_on_vulkan_as_their_source_runs_on_opencl() {
    compare::on_a_deep_stack(run_all);
}

fn run_all() {
    let dev = cl::Device::of_platform("Intel").expect("the Intel OpenCL runtime (see .ci/run)");
    let keep = std::env::var_os("SPIR_XLATE_VULKAN_KEEP").map(PathBuf::from);
    let work = keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("spir-xlate-vulkan-{}", std::process::id()))
    });
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let mut g = gather::Gathered::new();
    for cl_path in compare::kernel_sources() {
        g.source(&dev, &work, &cl_path);
    }
    let job_file = work.join("jobs.json");
    std::fs::write(
        &job_file,
        serde_json::to_vec_pretty(&json!({ "jobs": g.jobs })).unwrap(),
    )
    .unwrap();
    let run = Command::new(vkhost())
        .arg(&job_file)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e} (build tests/vkhost first)", vkhost().display()));
    let stdout = String::from_utf8_lossy(&run.stdout);
    let mut failures = std::mem::take(&mut g.failures);
    let outcome = outcome::Outcome::judge(&stdout, &g, &mut failures);
    if !stdout.contains("device: ") {
        failures.push(format!(
            "vkhost failed: {}",
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    let matched = outcome.report(&g);
    // The math fixtures' results against the correctly rounded ones: OpenCL's bounds hold.
    let reference = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/math_reference.py"))
        .arg("--check")
        .arg(&work)
        .output()
        .expect("python3 (with python3-mpmath, see .ci/run)");
    let judged = String::from_utf8_lossy(&reference.stdout);
    eprintln!(
        "  math against mpmath (scripts/math_reference.py): {}",
        judged.trim_end().replace('\n', "\n  ")
    );
    if !reference.status.success() {
        failures.push(format!(
            "scripts/math_reference.py --check: {judged}{}",
            String::from_utf8_lossy(&reference.stderr)
        ));
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
    if std::env::var_os("SPIR_XLATE_EXEC_ONLY").is_none() {
        for ((strategy, _, min), ok) in STRATEGIES.iter().zip(&matched) {
            assert!(
                ok >= min,
                "only {ok} runs matched under {strategy} (the ratchet is {min})"
            );
        }
    }
}

/// A vkhost job for spec `s` of module `id` (`id.spv`, `id.json` in `work`): the inputs the
/// OpenCL tiers give, and the outputs of the reference run as what to expect.
fn job(
    work: &Path,
    id: &str,
    s: &spec::ExecSpec,
    expected: &gather::Expected,
) -> Result<serde_json::Value, String> {
    if s.device_queue {
        return Err(format!(
            "{id}::{}: a run with an on-device queue (device-side enqueue has no Vulkan form)",
            s.kernel
        ));
    }
    let seed = seed_of(&s.kernel);
    let all_expected = expected.as_ref().map_err(|e| format!("{id}: {e}"))?;
    let expected = &all_expected[0].1;
    // Each compared output: (its index, the name vkhost writes it under, its file's stem).
    let mut compared = Vec::new();
    let data = spec::arg_data(s, seed)?;
    let job_name = format!("{id}::{}", s.kernel);
    let mut args = Vec::new();
    let mut expect = serde_json::Map::new();
    let mut f64_outputs = Vec::new();
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
                    compared.push((i, file.clone()));
                    // Doubles are compared as doubles where a bound applies.
                    let doubles = matches!(
                        s.args.get(i),
                        Some(spec::ArgSpec::Buffer {
                            elem: spec::Elem::F64,
                            ..
                        })
                    );
                    if doubles {
                        f64_outputs.push(format!("{file}.out"));
                    }
                    json!({"buffer": format!("{file}.in"), "output": format!("{file}.out")})
                } else {
                    json!({"buffer": format!("{file}.in")})
                }
            }
            spec::ArgData::Local(n) => json!({"local_bytes": n}),
            spec::ArgData::Scalar(b) => json!({"bytes": b}),
            spec::ArgData::Image {
                bytes,
                format,
                ty,
                dims,
                array,
                write,
            } => {
                let file = format!("{id}.{}.arg{i}", s.kernel);
                std::fs::write(work.join(format!("{file}.in")), bytes).unwrap();
                let mut j = json!({
                    "image": format!("{file}.in"),
                    "order": format.order,
                    "data_type": format.data_type,
                    "cl_type": ty,
                    "dims": dims,
                    "array": array.unwrap_or(0),
                });
                if *write {
                    let e = expected.iter().find(|(j, _)| *j == i).map(|x| &x.1);
                    std::fs::write(
                        work.join(format!("{file}.expected")),
                        e.cloned().unwrap_or_default(),
                    )
                    .unwrap();
                    expect.insert(format!("{file}.out"), json!(format!("{file}.expected")));
                    compared.push((i, file.clone()));
                    j["output"] = json!(format!("{file}.out"));
                }
                j
            }
            spec::ArgData::Pipe { .. } => {
                return Err(format!(
                    "{id}::{}: a pipe argument (no Vulkan form)",
                    s.kernel
                ))
            }
            spec::ArgData::Sampler {
                normalized,
                addressing,
                filter,
            } => json!({"sampler": {
                "normalized": normalized,
                "addressing": addressing,
                "filter": filter,
            }}),
        });
    }
    // What the kernel printed (lines sorted): vkhost formats the printf buffer's records.
    let printed = expected
        .iter()
        .find(|(i, b)| *i == PRINTED && !b.is_empty())
        .map(|(_, text)| {
            let file = format!("{id}.{}.printed", s.kernel);
            std::fs::write(work.join(format!("{file}.expected")), text).unwrap();
            json!({"output": file, "expected": format!("{file}.expected")})
        });
    let within: Vec<serde_json::Value> = WITHIN
        .iter()
        .filter(|(k, ..)| *k == s.kernel)
        .map(|(_, device, bound, relative, why)| {
            json!({"device": device, "bound": bound, "relative": relative, "why": why})
        })
        .collect();
    // The outputs of the other ways OpenCL lets the source be built, each a whole set.
    let mut also = Vec::new();
    for (k, (which, outputs)) in all_expected.iter().enumerate().skip(1) {
        let mut set = serde_json::Map::new();
        for (i, file) in &compared {
            let e = outputs.iter().find(|(j, _)| j == i).map(|x| &x.1);
            let path = format!("{file}.expected{k}");
            std::fs::write(work.join(&path), e.cloned().unwrap_or_default()).unwrap();
            set.insert(format!("{file}.out"), json!(path));
        }
        also.push(json!({"as": which.describe(), "expect": set}));
    }
    // The kernels in order, each over the objects its arguments name: the host binds them
    // as the module's own reflection says.
    let steps: Vec<serde_json::Value> = s
        .steps()
        .into_iter()
        .map(|(kernel, global, local, objects)| {
            let local = local.map_or_else(|| default_local(global), <[usize]>::to_vec);
            json!({"kernel": kernel, "global": global, "local": local, "args": objects})
        })
        .collect();
    Ok(json!({
        "name": job_name,
        "expect_also": also,
        "within": within,
        "spv": format!("{id}.spv"),
        "objects": args,
        "steps": steps,
        "expect": expect,
        "f64_outputs": f64_outputs,
        "printed": printed,
    }))
}
