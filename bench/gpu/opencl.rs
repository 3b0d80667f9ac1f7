//! The OpenCL runs of the benchmark: the Intel CPU runtime's columns (`--intel`: the
//! driver's build of the source against our SPIR-V and SPIR and the peer's) and a platform's
//! own build of the source alone (`--native`: the anchor on a GPU's OpenCL).

use std::path::PathBuf;

use serde_json::{json, Map};

use crate::{cl, elem_size, seed, spec, write_json, Kernel, Settings};

/// Every kernel on the Intel runtime: the driver's build of the source, our SPIR-V and our
/// SPIR, and llvm-spirv-14's SPIR-V, each run once (its outputs, against the source's) and
/// `repeat` times in `ROUNDS` interleaved rounds (so that a slow spell of the machine falls
/// on every producer alike).
pub fn intel(s: &Settings, kernels: &[Kernel]) -> Result<(), String> {
    const ROUNDS: usize = 10;
    let dev = cl::Device::profiling("Intel")?;
    let mut results = Vec::new();
    for k in kernels {
        let src = std::fs::read_to_string(&k.source).map_err(|e| e.to_string())?;
        let read = |suffix: &str| {
            std::fs::read(s.out.join(format!("{}.{suffix}", k.name))).map_err(|e| e.to_string())
        };
        let mut programs = vec![
            ("source", dev.program_from_source(&src)),
            (
                "ours-spirv",
                read("opencl.spv").and_then(|b| dev.program_from_il(&b)),
            ),
            (
                "ours-spirv-fma",
                read("opencl-fma.spv").and_then(|b| dev.program_from_il(&b)),
            ),
            (
                "ours-spirv-split",
                read("opencl-split.spv").and_then(|b| dev.program_from_il(&b)),
            ),
            (
                "ours-spirv-contract",
                read("opencl-contract-intel.spv").and_then(|b| dev.program_from_il(&b)),
            ),
            (
                "ours-spirv-1.0",
                read("opencl-1.0.spv").and_then(|b| dev.program_from_il(&b)),
            ),
            (
                "ours-spir",
                read("spir.bc").and_then(|b| dev.program_from_spir(&b)),
            ),
            (
                "input-spir",
                read("bc").and_then(|b| dev.program_from_spir(&b)),
            ),
            (
                "llvm-spirv",
                read("llvm-spirv.spv").and_then(|b| dev.program_from_il(&b)),
            ),
        ];
        for (name, module) in extra_modules(s, &k.name)? {
            programs.push((name, dev.program_from_il(&module)));
        }
        // Per producer: its times so far and how its outputs compare, or why it failed.
        let mut state: Vec<Result<(Vec<f64>, String), String>> = programs
            .iter()
            .map(|_| Ok((Vec::new(), String::new())))
            .collect();
        let mut reference: Option<Vec<(usize, Vec<u8>)>> = None;
        for round in 0..ROUNDS {
            let runs = s.repeat / ROUNDS + usize::from(round < s.repeat % ROUNDS);
            for ((_, program), st) in programs.iter().zip(state.iter_mut()) {
                let Ok((times, agreed)) = st else { continue };
                match program
                    .as_ref()
                    .map_err(|e| e.clone())
                    .and_then(|p| intel_run(&dev, p, k, runs))
                {
                    Err(e) => *st = Err(e),
                    Ok((t, outs)) => {
                        times.extend(t);
                        if round == 0 {
                            *agreed = match &reference {
                                None => {
                                    reference = Some(outs);
                                    "reference".to_string()
                                }
                                Some(want) => agreement(&k.spec, &outs, want),
                            };
                        }
                    }
                }
            }
        }
        let mut rows = Map::new();
        for ((producer, _), st) in programs.iter().zip(state) {
            let row = match st {
                Ok((mut t, agreed)) => {
                    t.sort_by(f64::total_cmp);
                    let median = t.get(t.len() / 2).copied().unwrap_or(0.0);
                    let least = t.first().copied().unwrap_or(0.0);
                    println!(
                        "{} {producer}: {median:.4} ms (least {least:.4}), {agreed}",
                        k.name
                    );
                    json!({"median_ms": median, "least_ms": least, "runs": t.len(),
                           "outputs": agreed})
                }
                Err(e) => {
                    println!("{} {producer}: FAILED {e}", k.name);
                    json!({ "failed": e })
                }
            };
            rows.insert(producer.to_string(), row);
        }
        results.push(json!({"kernel": k.name, "producers": rows}));
    }
    let input = if s.unoptimized {
        "clang-14 before LLVM's optimizer (--input-opt none)"
    } else {
        "clang-14, opt -O2"
    };
    let report = json!({"device": "Intel CPU OpenCL runtime", "repeat": s.repeat,
                        "input": input, "kernels": results});
    write_json(&s.out.join("intel.json"), &report)
}

/// `--native`: each kernel's source built by `platform`'s driver, warmed up for 300 ms of
/// kernel time, then `repeat` runs in `ROUNDS` rounds: the median and least of the event
/// times and the host's clock per run around each round (its enqueues and the wait). What
/// the driver built is kept as `DIR/<kernel>.native.bin` (PTX on NVIDIA's OpenCL).
pub fn native(s: &Settings, kernels: &[Kernel], platform: &str) -> Result<(), String> {
    const ROUNDS: usize = 5;
    let dev = cl::Device::profiling(platform)?;
    let mut results = Vec::new();
    for k in kernels {
        let src = std::fs::read_to_string(&k.source).map_err(|e| e.to_string())?;
        let timed = dev.program_from_source(&src).and_then(|p| {
            // The driver's code for the source (PTX on NVIDIA), to read beside ours.
            if let Ok(binary) = p.binary() {
                let path = s.out.join(format!("{}.native.bin", k.name));
                std::fs::write(&path, binary).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            let bound = spec::bind(&dev, &k.spec, seed(&k.name))?;
            let steps = launches(k, &bound);
            let run = |n: usize| dev.run_steps_timed(&p, &steps, n);
            let mut warm = 0.0;
            while warm < 300.0 {
                let t = run(10)?;
                warm += t.iter().sum::<f64>().max(1e-3);
            }
            let (mut times, mut host) = (Vec::new(), Vec::new());
            let per_round = s.repeat.div_ceil(ROUNDS).max(1);
            for _ in 0..ROUNDS {
                let start = std::time::Instant::now();
                times.extend(run(per_round)?);
                host.push(start.elapsed().as_secs_f64() * 1e3 / per_round as f64);
            }
            Ok((times, host))
        });
        let row = match timed {
            Ok((mut t, mut host)) => {
                t.sort_by(f64::total_cmp);
                host.sort_by(f64::total_cmp);
                let median = t[t.len() / 2];
                let host = host[host.len() / 2];
                println!(
                    "{} native: {median:.4} ms (least {:.4}; host {host:.4})",
                    k.name, t[0]
                );
                json!({"median_ms": median, "least_ms": t[0], "runs": t.len(), "host_ms": host})
            }
            Err(e) => {
                println!("{} native: FAILED {e}", k.name);
                json!({ "failed": e })
            }
        };
        results.push(json!({"kernel": k.name, "producers": {"native": row}}));
    }
    let report = json!({"device": format!("{platform} OpenCL, the source built by the driver"),
                        "repeat": s.repeat, "kernels": results});
    write_json(&s.out.join("native.json"), &report)
}

/// `--extra`'s modules of kernel `name`, by file name.
fn extra_modules(s: &Settings, name: &str) -> Result<Vec<(&'static str, Vec<u8>)>, String> {
    let Some(dir) = &s.extra else {
        return Ok(Vec::new());
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let f = p.file_name().unwrap_or_default().to_string_lossy();
            f.starts_with(&format!("{name}.")) && f.ends_with(".spv")
        })
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let module = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            // A producer's name lives as long as the run's report.
            let label = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            Ok((&*Box::leak(label.into_boxed_str()), module))
        })
        .collect()
}

/// One program's outputs after one run, and the times of `repeat` more.
type Timed = (Vec<f64>, Vec<(usize, Vec<u8>)>);

fn intel_run(
    dev: &cl::Device,
    p: &cl::Program,
    k: &Kernel,
    repeat: usize,
) -> Result<Timed, String> {
    let bound = spec::bind(dev, &k.spec, seed(&k.name))?;
    let steps = launches(k, &bound);
    dev.run_steps_timed(p, &steps, 0)?;
    let times = dev.run_steps_timed(p, &steps, repeat)?;
    Ok((times, bound.outputs(dev)?))
}

/// The kernels `k` runs in order (one, or a program's several: its `//@then` lines), each
/// over the bound objects its arguments name.
fn launches<'a>(k: &'a Kernel, bound: &'a spec::Bound) -> Vec<cl::Launch<'a>> {
    k.spec
        .steps()
        .into_iter()
        .map(|(kernel, global, local, args)| cl::Launch {
            kernel,
            args: args.iter().map(|&i| &bound.args[i]).collect(),
            global,
            local,
        })
        .collect()
}

/// How `got` compares with `want` (outputs by argument index).
fn agreement(spec: &spec::ExecSpec, got: &[(usize, Vec<u8>)], want: &[(usize, Vec<u8>)]) -> String {
    let mut largest = 0f64;
    let (mut differ, mut total) = (0usize, 0usize);
    for ((i, a), (_, b)) in got.iter().zip(want) {
        let elem = match spec.args.get(*i) {
            Some(spec::ArgSpec::Buffer { elem, .. }) => *elem,
            _ => spec::Elem::F32,
        };
        let size = elem_size(elem);
        total += a.len() / size;
        let float = |x: &[u8]| match elem {
            spec::Elem::F32 => Some(f32::from_le_bytes(x.try_into().unwrap()) as f64),
            spec::Elem::F64 => Some(f64::from_le_bytes(x.try_into().unwrap())),
            _ => None,
        };
        // Near zero a difference counts as absolute: against 2^-20 of the largest value.
        let floor = b
            .chunks_exact(size)
            .filter_map(float)
            .filter(|x| x.is_finite())
            .fold(0f64, |m, x| m.max(x.abs()))
            * 2f64.powi(-20);
        for (x, y) in a.chunks_exact(size).zip(b.chunks_exact(size)) {
            if x == y {
                continue;
            }
            differ += 1;
            let (Some(x), Some(y)) = (float(x), float(y)) else {
                continue;
            };
            let scale = x.abs().max(y.abs()).max(floor).max(f64::MIN_POSITIVE);
            let d = (x - y).abs() / scale;
            largest = largest.max(if d.is_nan() { f64::INFINITY } else { d });
        }
    }
    match (differ, largest > 0.0) {
        (0, _) => "same".into(),
        (n, true) => format!("{n} of {total} differ, by at most {largest:.2e} relative"),
        (n, false) => format!("{n} of {total} differ"),
    }
}
