//! The code we emit, timed against the best other producer and against the driver's own
//! compiler (issue 48): kernels written as applications write them (bench/gpu/kernels/*.cl,
//! each with `//@bench` lines for a GPU and `//@bench-cpu` lines for CPU devices, in the
//! `//@exec` syntax of tests/exec/spec.rs), built from SPIR by us and from their source by
//! the peers, run on the same inputs with their outputs checked against each other.
//!
//! ```text
//! cargo bench --bench gpu -- [--size cpu|gpu] [--out DIR] [--only K,...] [--repeat N]
//!                            [--vulkan] [--intel] [--baseline SPIR_XLATE]
//!                            [--input-opt O2|none] [--extra DIR] [--kernels DIR]
//! ```
//!
//! A file may be a program of several kernels run one after another on the same buffers
//! (`app_*.cl`: `//@then` lines after its `//@bench` line, as in the execution tiers): every
//! column times the whole program as one, from the start of its first kernel to the end of
//! its last (vkhost: timestamps around the dispatches and the barriers between them; OpenCL:
//! the first kernel's start event to the last one's end).
//!
//! `--kernels DIR` takes the kernels from another folder than bench/gpu/kernels (variants of
//! a kernel written to find what costs its time, built and timed by every column alike).
//!
//! * Always: each kernel's SPIR (clang-14 -O2, as tests/kernels/generate.sh makes the
//!   `modern` fixtures), our Vulkan modules under both pointer strategies
//!   (`to-spirv --target vulkan1.2`), clspv's module of the source (pyclspv), and the
//!   benchmark file `DIR/bench.json` that `vkhost --bench` runs (tests/vkhost/src/bench.rs):
//!   inputs are described, not stored, so the directory can be carried to a GPU machine.
//!   `--baseline` adds the Vulkan modules of another spir-xlate binary (an earlier build:
//!   before and after in one run). `--input-opt none` leaves the SPIR as clang makes it
//!   before LLVM's optimizer: what the input's own optimization does to the driver's code.
//! * `--vulkan`: runs it here with tests/vkhost (built first, `--release`): `DIR/vulkan.json`.
//! * `--intel`: on the Intel CPU OpenCL runtime (`OCL_ICD_VENDORS` as for the execution
//!   tiers), the source built by the driver against our SPIR-V (clCreateProgramWithIL; as
//!   written for OpenCL 3.0 as SPIR-V 1.4, with `--mad fma`, `--mad split` and
//!   `--mad contract-intel`, and as
//!   the default SPIR-V 1.0) and our SPIR (`to-spir`,
//!   as a cl_khr_spir binary), and llvm-spirv-14's SPIR-V of the same SPIR, each run once for its outputs
//!   and then `repeat` times, in ten interleaved rounds, for its kernel time (event
//!   profiling): `DIR/intel.json`. `--extra DIR` times every `DIR/<kernel>.*.spv` beside
//!   them (a module changed by hand: what a change to the translation would gain).
//!
//! * `--native PLATFORM`: only times each kernel's OpenCL C source as that platform's OpenCL
//!   driver builds it (`NVIDIA` on the GPU machine: the native anchor), with event profiling
//!   and the host's clock beside it, warmed up and in `ROUNDS` rounds: `DIR/native.json`.
//!   Nothing is built, so the binary runs where only the driver is.
//!
//! Nothing here is a test: `scripts/status.py` turns the JSON files kept in docs/logs/ into
//! the ratio tables of docs/status.md.
#[path = "../../tests/exec/cl.rs"]
mod cl;
#[path = "../../tests/exec_vulkan/clspv.rs"]
mod clspv;
#[path = "../../tests/common/mod.rs"]
mod common;
mod opencl;
#[allow(dead_code)]
#[path = "../../tests/exec/spec.rs"]
mod spec;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Map, Value};

/// How our SPIR-V for the OpenCL runs is made: for an OpenCL 3.0 runtime, SPIR-V 1.4 (which
/// keeps the input's integer wrap flags; the runtime takes 1.0 to 1.4 at least).
const OPENCL_3: [&str; 4] = ["--target", "opencl3.0", "--spirv-version", "1.4"];

/// A run's settings.
struct Settings {
    size: String,
    out: PathBuf,
    only: Option<Vec<String>>,
    repeat: usize,
    vulkan: bool,
    intel: bool,
    /// Another spir-xlate (an earlier build) whose Vulkan modules run beside ours, as
    /// `before-physical` and `before-descriptors`.
    baseline: Option<PathBuf>,
    /// The SPIR is left as clang makes it before LLVM's optimizer (`--input-opt none`), not
    /// optimized by `opt -O2` as the fixtures are.
    unoptimized: bool,
    /// `--extra`: a directory of hand-made SPIR-V modules timed beside ours on the Intel
    /// runtime.
    extra: Option<PathBuf>,
    /// Where the kernels' sources are (`--kernels`; bench/gpu/kernels).
    kernels: PathBuf,
    /// `--native`: the OpenCL platform whose build of the source alone is timed.
    native: Option<String>,
}

fn settings() -> Result<Settings, String> {
    let mut s = Settings {
        size: "cpu".into(),
        out: PathBuf::new(),
        only: None,
        repeat: 0,
        vulkan: false,
        intel: false,
        baseline: None,
        unoptimized: false,
        extra: None,
        kernels: PathBuf::from("bench/gpu/kernels"),
        native: None,
    };
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--size" => s.size = value()?,
            "--out" => out = Some(PathBuf::from(value()?)),
            "--only" => s.only = Some(value()?.split(',').map(String::from).collect()),
            "--repeat" => s.repeat = value()?.parse().map_err(|_| "--repeat N")?,
            "--vulkan" => s.vulkan = true,
            "--intel" => s.intel = true,
            "--baseline" => s.baseline = Some(PathBuf::from(value()?)),
            "--extra" => s.extra = Some(PathBuf::from(value()?)),
            "--kernels" => s.kernels = PathBuf::from(value()?),
            "--native" => s.native = Some(value()?),
            "--input-opt" => match value()?.as_str() {
                "O2" => s.unoptimized = false,
                "none" => s.unoptimized = true,
                other => return Err(format!("--input-opt O2|none, not {other}")),
            },
            // What `cargo bench` passes to every benchmark.
            "--bench" => {}
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if !["cpu", "gpu"].contains(&s.size.as_str()) {
        return Err("--size is cpu or gpu".into());
    }
    if s.repeat == 0 {
        s.repeat = if s.size == "gpu" { 50 } else { 10 };
    }
    s.out = out.unwrap_or_else(|| PathBuf::from(format!("target/bench-gpu-{}", s.size)));
    Ok(s)
}

fn main() {
    if let Err(e) = run() {
        eprintln!("bench gpu: {e}");
        std::process::exit(1);
    }
}

/// One benchmark kernel: its source, its spec at the chosen size, and its modules.
struct Kernel {
    name: String,
    source: PathBuf,
    spec: spec::ExecSpec,
}

fn kernels(s: &Settings) -> Result<Vec<Kernel>, String> {
    let tag = if s.size == "gpu" {
        "bench"
    } else {
        "bench-cpu"
    };
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&s.kernels)
        .map_err(|e| format!("{}: {e}", s.kernels.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    paths.sort();
    for source in paths {
        let name = source.file_stem().unwrap().to_string_lossy().into_owned();
        if s.only.as_ref().is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        let text = std::fs::read_to_string(&source).map_err(|e| e.to_string())?;
        let spec = spec::parse_tagged(&text, tag)
            .map_err(|e| format!("{}: {e}", source.display()))?
            .into_iter()
            .next()
            .ok_or_else(|| format!("{}: no //@{tag} line", source.display()))?;
        out.push(Kernel { name, source, spec });
    }
    Ok(out)
}

fn run() -> Result<(), String> {
    let s = settings()?;
    std::fs::create_dir_all(&s.out).map_err(|e| format!("{}: {e}", s.out.display()))?;
    let kernels = kernels(&s)?;
    if let Some(platform) = &s.native {
        return opencl::native(&s, &kernels, platform);
    }
    let mut entries = Vec::new();
    let mut modules = Map::new();
    for k in &kernels {
        let (entry, facts) = build(&s, k)?;
        entries.push(entry);
        modules.insert(k.name.clone(), facts);
    }
    let bench = json!({"repeat": s.repeat, "kernels": entries});
    write_json(&s.out.join("bench.json"), &bench)?;
    write_json(&s.out.join("modules.json"), &Value::Object(modules))?;
    println!(
        "{}: {} kernels",
        s.out.join("bench.json").display(),
        kernels.len()
    );
    if s.vulkan {
        let built = Command::new("cargo")
            .args([
                "build",
                "--release",
                "--manifest-path",
                "tests/vkhost/Cargo.toml",
            ])
            .status()
            .map_err(|e| format!("cargo: {e}"))?;
        if !built.success() {
            return Err("building tests/vkhost failed".into());
        }
        let status = Command::new("tests/vkhost/target/release/vkhost")
            .arg("--bench")
            .arg(s.out.join("bench.json"))
            .arg(s.out.join("vulkan.json"))
            .status()
            .map_err(|e| format!("vkhost: {e}"))?;
        if !status.success() {
            return Err("vkhost --bench failed".into());
        }
    }
    if s.intel {
        opencl::intel(&s, &kernels)?;
    }
    Ok(())
}

fn write_json(path: &Path, v: &Value) -> Result<(), String> {
    std::fs::write(path, serde_json::to_vec_pretty(v).unwrap())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Run a tool; its standard error on failure.
fn tool(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The kernel's SPIR, our modules and clspv's; its entry of the benchmark file and what
/// its modules declare and hold.
fn build(s: &Settings, k: &Kernel) -> Result<(Value, Value), String> {
    let dir = &s.out;
    let raw = dir.join(format!("{}.raw.bc", k.name));
    let bc = dir.join(format!("{}.bc", k.name));
    let src = std::fs::read_to_string(&k.source).map_err(|e| e.to_string())?;
    tool(
        Command::new("clang-14")
            .args(["-cc1", "-triple", "spir64-unknown-unknown", "-emit-llvm-bc"])
            .arg(format!("-cl-std={}", cl::cl_std(&src)))
            .args(["-cl-kernel-arg-info", "-finclude-default-header", "-O2"])
            .args(["-disable-llvm-passes"])
            .arg(&k.source)
            .arg("-o")
            .arg(&raw),
    )?;
    if s.unoptimized {
        std::fs::copy(&raw, &bc).map_err(|e| e.to_string())?;
    } else {
        tool(
            Command::new("/usr/lib/llvm-14/bin/opt")
                .arg("-O2")
                .arg(&raw)
                .arg("-o")
                .arg(&bc),
        )?;
    }
    let ours = env!("CARGO_BIN_EXE_spir-xlate");
    let mut producers = Vec::new();
    let mut facts = Map::new();
    let mut builds = vec![("ours", PathBuf::from(ours))];
    if let Some(b) = &s.baseline {
        builds.push(("before", b.clone()));
    }
    for ((who, bin), strategy) in builds
        .iter()
        .flat_map(|b| ["physical", "descriptors"].map(|st| (b, st)))
    {
        let id = format!("{}.{who}-{strategy}", k.name);
        let spv = dir.join(format!("{id}.spv"));
        let made = tool(
            Command::new(bin)
                .arg("to-spirv")
                .arg(&bc)
                .args([
                    "--target",
                    "vulkan1.2",
                    "--vulkan-pointers",
                    strategy,
                    "--force",
                ])
                .arg("-o")
                .arg(&spv),
        );
        let name = format!("{who}-{strategy}");
        if let Err(e) = made {
            println!("{}: {name}: {e}", k.name);
            facts.insert(name, json!({ "failed": e }));
            continue;
        }
        facts.insert(name.clone(), module_facts(&spv)?);
        producers.push(json!({"name": name, "spv": format!("{id}.spv"),
                              "kernel": k.spec.kernel}));
    }
    let clspv_spv = dir.join(format!("{}.clspv.spv", k.name));
    match clspv::compile(&k.source, &clspv_spv) {
        Ok(()) => {
            facts.insert("clspv".into(), module_facts(&clspv_spv)?);
            producers.push(
                json!({"name": "clspv", "spv": format!("{}.clspv.spv", k.name),
                                  "kernel": k.spec.kernel}),
            );
        }
        Err(e) => {
            println!("{}: clspv: {e}", k.name);
            facts.insert("clspv".into(), json!({ "failed": e }));
        }
    }
    // Our SPIR-V for OpenCL, and our SPIR of it, for the OpenCL runs: SPIR-V 1.4 for an
    // OpenCL 3.0 runtime (llvm-spirv-14's version too), and the default 1.0 beside it.
    let cl_spv = dir.join(format!("{}.opencl.spv", k.name));
    tool(
        Command::new(ours)
            .arg("to-spirv")
            .arg(&bc)
            .args(OPENCL_3)
            .arg("--force")
            .arg("-o")
            .arg(&cl_spv),
    )?;
    tool(
        Command::new(ours)
            .arg("to-spirv")
            .arg(&bc)
            .arg("--force")
            .arg("-o")
            .arg(dir.join(format!("{}.opencl-1.0.spv", k.name))),
    )?;
    facts.insert("ours-opencl".into(), module_facts(&cl_spv)?);
    // The peer's SPIR-V of the same SPIR.
    let peer = tool(
        Command::new("llvm-spirv-14")
            .arg(&bc)
            .arg("-o")
            .arg(dir.join(format!("{}.llvm-spirv.spv", k.name))),
    );
    if let Err(e) = peer {
        println!("{}: llvm-spirv-14: {e}", k.name);
    }
    // ... and ours with mad written as fma, as a product and a sum, and as a product and
    // a sum the driver may contract, in the spelling the Intel runtime takes (`--mad`).
    for form in ["fma", "split", "contract-intel"] {
        tool(
            Command::new(ours)
                .arg("to-spirv")
                .arg(&bc)
                .args(OPENCL_3)
                .args(["--mad", form, "--force", "-o"])
                .arg(dir.join(format!("{}.opencl-{form}.spv", k.name))),
        )?;
    }
    tool(
        Command::new(ours)
            .arg("to-spir")
            .arg(&cl_spv)
            .arg("--force")
            .arg("-o")
            .arg(dir.join(format!("{}.spir.bc", k.name))),
    )?;
    let entry = vulkan_entry(k, producers)?;
    Ok((entry, Value::Object(facts)))
}

/// The number of instructions of a module and the capabilities it declares.
fn module_facts(spv: &Path) -> Result<Value, String> {
    let words = spir_xlate::internals::read_spirv_words(spv).map_err(|e| e.to_string())?;
    let insts = common::instructions(&words);
    let caps: Vec<Value> = insts
        .iter()
        .filter(|(op, _)| *op == 17)
        .filter_map(|(_, ops)| ops.first())
        .filter_map(|&c| spirv::Capability::from_u32(c))
        .map(|c| json!(format!("{c:?}")))
        .collect();
    Ok(json!({"instructions": insts.len(), "capabilities": caps}))
}

/// The element type's name as the specs spell it.
fn elem_name(e: spec::Elem) -> &'static str {
    match e {
        spec::Elem::I(1, true) => "i8",
        spec::Elem::I(1, false) => "u8",
        spec::Elem::I(2, true) => "i16",
        spec::Elem::I(2, false) => "u16",
        spec::Elem::I(4, true) => "i32",
        spec::Elem::I(4, false) => "u32",
        spec::Elem::I(_, true) => "i64",
        spec::Elem::I(_, false) => "u64",
        spec::Elem::F16 => "f16",
        spec::Elem::F32 => "f32",
        spec::Elem::F64 => "f64",
    }
}

/// The kernel's entry of `vkhost --bench`'s file: its arguments described as
/// tests/vkhost/src/inputs.rs makes them (the same values as `spec::arg_data`'s).
fn vulkan_entry(k: &Kernel, producers: Vec<Value>) -> Result<Value, String> {
    let data = spec::arg_data(&k.spec, seed(&k.name))?;
    let mut args = Vec::new();
    let mut outputs = Map::new();
    for (i, (a, d)) in k.spec.args.iter().zip(&data).enumerate() {
        let out = format!("arg{i}");
        args.push(match (a, d) {
            (
                spec::ArgSpec::Buffer {
                    elem,
                    count,
                    fill,
                    compare,
                    range,
                },
                _,
            ) => {
                let mut fill = if *fill {
                    let mut f = json!({"elem": elem_name(*elem), "count": count});
                    if let Some((lo, hi)) = range {
                        f["lo"] = json!(lo);
                        f["hi"] = json!(hi);
                    }
                    json!({ "fill": f })
                } else {
                    json!({"fill": {"zero": count * elem_size(*elem)}})
                };
                if *compare {
                    fill["output"] = json!(out);
                    outputs.insert(out, json!(elem_name(*elem)));
                }
                fill
            }
            (spec::ArgSpec::Local(n), _) => json!({ "local_bytes": n }),
            (spec::ArgSpec::Scalar(v), _) => json!({ "bytes": v }),
            (
                spec::ArgSpec::Image {
                    read,
                    write,
                    channel,
                    ..
                },
                spec::ArgData::Image {
                    bytes,
                    format,
                    ty,
                    dims,
                    array,
                    ..
                },
            ) => {
                let len = bytes.len();
                let fill = match (read, channel.as_str()) {
                    (false, _) => json!({ "zero": len }),
                    (_, "f32" | "depth") => {
                        json!({"elem": "f32", "count": len / 4, "lo": 0.0, "hi": 1.0})
                    }
                    (_, "un8") => json!({"elem": "u8", "count": len}),
                    _ => json!({"elem": "i32", "count": len / 4, "lo": -1000.0, "hi": 1000.0}),
                };
                let mut j = json!({"fill": fill, "order": format.order,
                    "data_type": format.data_type, "cl_type": ty, "dims": dims,
                    "array": array.unwrap_or(0)});
                if *write {
                    j["output"] = json!(out);
                    let elem = if channel == "un8" { "u8" } else { "f32" };
                    outputs.insert(out, json!(elem));
                }
                j
            }
            (
                spec::ArgSpec::Sampler {
                    normalized,
                    addressing,
                    filter,
                },
                _,
            ) => json!({"sampler": {"normalized": normalized, "addressing": addressing,
                                    "filter": filter}}),
            _ => return Err(format!("{}: an argument vkhost cannot make", k.name)),
        });
    }
    let mut entry = json!({
        "name": k.name,
        "seed": seed(&k.name),
        "global": k.spec.global,
        "local": k.spec.local,
        "args": args,
        "outputs": outputs,
        "producers": producers,
    });
    if !k.spec.then.is_empty() {
        // A program of several kernels (its `//@then` lines): vkhost runs the steps in
        // order over the objects their arguments name, and times them as one.
        let steps: Vec<Value> = k
            .spec
            .steps()
            .into_iter()
            .map(|(kernel, global, local, objects)| {
                json!({"kernel": kernel, "global": global, "local": local, "args": objects})
            })
            .collect();
        entry["objects"] = entry["args"].take();
        entry["steps"] = json!(steps);
    }
    Ok(entry)
}

fn elem_size(e: spec::Elem) -> usize {
    match e {
        spec::Elem::I(n, _) => n as usize,
        spec::Elem::F16 => 2,
        spec::Elem::F32 => 4,
        spec::Elem::F64 => 8,
    }
}

/// The inputs' seed: the kernel's name hashed (FNV-1a), as the execution tiers seed theirs.
fn seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}
