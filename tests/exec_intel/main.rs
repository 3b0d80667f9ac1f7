//! Execution on a real SPIR-V driver: the Intel CPU OpenCL runtime (PyPI `intel-opencl-rt`,
//! installed by .ci/run into `.oracles/venv`; `OCL_ICD_VENDORS` points the loader at it alone).
//! Run as `cargo test --test exec_intel -- --ignored`. For every kernel with an
//! `//@exec` line:
//!
//! * reference: the kernel's OpenCL C source, built by the driver (`-cl-std=` its `//@std`
//!   line, CL1.2 without one);
//! * candidates, for each of the four fixture shapes:
//!   - `spirv`: our SPIR-V (`to-spirv`), loaded directly with `clCreateProgramWithIL`;
//!   - `to-spir`: our real SPIR (`to-spir` of that SPIR-V, clang's form), loaded as a
//!     `cl_khr_spir` binary (image programs included); for the modern shape also
//!     `to-spir --spir-form spec` (the SPIR 1.2/2.0 specifications' letter);
//!   - `opencl-c`: our OpenCL C (`to-opencl-c` of the fixture), built from source with the
//!     `-cl-std=` its first line names;
//!   - `input` (a control, not ours): the SPIR input itself loaded as a binary, which shows
//!     what the driver does with the original asset;
//!
//! all run on identical inputs; every output buffer and written image is compared bit for bit
//! with the reference, as OpenCL lets the driver build it (compare::References: as written,
//! without contraction, or with `mad` fused; which one a run matches is counted). Our
//! candidates must match on every run; the control's figures are printed, and a control
//! that fails where we pass is the point of the tool.
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

use common::run_tool;
use compare::{our_spirv, run_spec, seed_of};

/// Kernels the driver itself cannot build from their OpenCL C source: it crashes the process
/// (so no reference exists). Each is named in the output, never skipped silently.
const DRIVER_CRASHES: [(&str, &str); 1] = [(
    "loops_phis",
    "the driver's own vectorizer (pass vplan-vec) overflows its stack compiling the OpenCL C \
     source",
)];

/// Kernels whose valid SPIR-V the driver cannot build: (kernel, why). The tier checks each
/// run that llvm-spirv-14's SPIR-V of the same fixture is refused too (the fault is the
/// driver's, not our writer's), and reports ours as known; should either build, it fails.
const DRIVER_REFUSES_SPIRV: [(&str, &str); 1] = [(
    "generic_tagged",
    "the driver's SPIR-V reader turns OpAtomicIAdd on a Generic pointer (OpenCL C 2.0's \
     atomic_fetch_add_explicit of an atomic_int *) into atomic_add(volatile __generic int *), \
     which its builtin library lacks (`Symbols not found: _Z10atomic_addPU3AS4Vii`)",
)];

/// Fixture shapes whose *input* SPIR (the control) crashes the driver when it loads it as a
/// binary: (kernel, shape, why). Only the control is left out, and the output says so; our
/// SPIR-V and our to-spir SPIR of the same fixture still run.
const CONTROL_CRASHES: [(&str, &str, &str); 11] = [
    (
        "image_arrays",
        "legacy",
        "the driver crashes (SIGSEGV in its SPIR 1.2 reader) on legacy image-array types",
    ),
    (
        "image_1d_sampled",
        "legacy",
        "the driver crashes (SIGSEGV in its SPIR 1.2 reader) on legacy image-array types",
    ),
    (
        "image_1d_sampled",
        "legacy-o0",
        "the driver crashes (SIGSEGV in its SPIR 1.2 reader) on legacy image-array types",
    ),
    (
        "image_arrays",
        "legacy-o0",
        "the driver crashes (SIGSEGV in its SPIR 1.2 reader) on legacy image-array types",
    ),
    (
        "image_texel_edges",
        "legacy",
        "the driver crashes (SIGSEGV in its SPIR 1.2 reader) on legacy image-array types",
    ),
    (
        "image_texel_edges",
        "legacy-o0",
        "the driver crashes (SIGSEGV in its SPIR 1.2 reader) on legacy image-array types",
    ),
    (
        "images_rw",
        "legacy",
        "the driver crashes (SIGSEGV) loading this module in the legacy shape (`!opencl.kernels`, \
         read_write and depth images); our SPIR 2.0 of it loads and runs",
    ),
    (
        "images_rw",
        "legacy-o0",
        "the driver crashes (SIGSEGV) loading this module in the legacy shape (`!opencl.kernels`, \
         read_write and depth images); our SPIR 2.0 of it loads and runs",
    ),
    (
        "image_1d_buffer",
        "legacy",
        "the driver crashes (SIGSEGV after failing to find its SPIR 1.2 image builtins of \
         `ocl_image1d_buffer`); our SPIR-V and SPIR 2.0 of it load and run",
    ),
    (
        "image_1d_buffer",
        "legacy-o0",
        "the driver crashes (SIGSEGV after failing to find its SPIR 1.2 image builtins of \
         `ocl_image1d_buffer`); our SPIR-V and SPIR 2.0 of it load and run",
    ),
    (
        "device_enqueue",
        "legacy",
        "the driver crashes (SIGSEGV in its vectorizer, pass vplan-vec) on SPIR 2.0's own block \
         encoding (spir_block_bind); our SPIR-V and SPIR 2.0 of it load and run",
    ),
];

/// On NVIDIA's OpenCL (the GPU machine's run of our OpenCL C, docs/testing.md): kernels whose
/// own source the driver cannot run, or that need what it lacks, so no reference exists:
/// named in the output, never counted. The GPU fault loses the context, so every later
/// program would fail too.
const NVIDIA_SOURCE_FAULTS: [(&str, &str); 5] = [
    (
        "enqueue_global_blocks",
        "NVIDIA's OpenCL has no device-side enqueue (optional in OpenCL 3.0): our OpenCL C \
         of it, which enqueues blocks from the device as the source does, never returned \
         there (H100, 2026-12-05) and stopped every kernel after it",
    ),
    (
        "sampler_flow",
        "NVIDIA's compiler crashes (SIGSEGV) building the kernel's OpenCL C source",
    ),
    (
        "local_two_tiles",
        "the kernel's source faults on the GPU (CL_INVALID_COMMAND_QUEUE): it reads a __local \
         argument through a float4 pointer, and NVIDIA aligns __local arguments less",
    ),
    (
        "local_views",
        "the kernel's source faults on the GPU (CL_INVALID_COMMAND_QUEUE): it reads a __local \
         argument through a float4 pointer, and NVIDIA aligns __local arguments less",
    ),
    (
        "vectors_spaces",
        "the kernel's source faults on the GPU (CL_INVALID_COMMAND_QUEUE): it reads a __local \
         argument through a float16 pointer, and NVIDIA aligns __local arguments less",
    ),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Consumer {
    /// Our SPIR-V through clCreateProgramWithIL.
    Spirv,
    /// Our SPIR (`to-spir`, clang's form) as a binary.
    ToSpir,
    /// Our SPIR to the specification's letter (`to-spir --spir-form spec`: !opencl.kernels,
    /// images without access, i32 samplers) as a binary; the modern shape only (the SPIR
    /// written depends on our SPIR-V, not on the input's shape).
    ToSpirSpec,
    /// Our OpenCL C (`to-opencl-c`), built from source.
    OpenclC,
    /// The input SPIR as a binary (control).
    Input,
}

/// The program bytes a consumer loads for `fixture`.
fn candidate(fixture: &Path, work: &Path, c: Consumer) -> Result<Vec<u8>, String> {
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
    if c == Consumer::Input {
        return read(fixture);
    }
    let spv = our_spirv(fixture, work)?;
    if c == Consumer::Spirv {
        return read(&spv);
    }
    let form = if c == Consumer::ToSpirSpec {
        "spec"
    } else {
        "clang"
    };
    let bc = work.join(format!("{}.{form}.spir.bc", common::fixture_id(fixture)));
    run_tool(
        Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
            .arg("to-spir")
            .arg(format!("--spir-form={form}"))
            .arg(&spv)
            .arg("-o")
            .arg(&bc),
    )?;
    common::llvm_verify(&bc)?;
    read(&bc)
}

#[derive(Default)]
struct Tally {
    built: usize,
    build_failed: usize,
    runs: usize,
    same: usize,
    /// Runs within the precision OpenCL allows of the source: linear filtering's
    /// (compare::LINEAR_FILTER_BOUND), contraction's in a program of several kernels
    /// (compare::CONTRACTION_BOUND).
    within: usize,
    /// The runs that equal each way of building the source (compare::References).
    matched: BTreeMap<&'static str, usize>,
    /// Runs of another producer's module that differ as the producer changed the kernel
    /// (`SPIR_XLATE_EXEC_PRODUCER_CHANGES`).
    changed: usize,
}

/// `SPIR_XLATE_EXEC_PRODUCER=NAME` with `SPIR_XLATE_OPENCL_C_DIR=DIR` (the NVIDIA run of
/// other producers' modules as our OpenCL C, scripts/opencl_c_nvidia.sh): the programs in
/// DIR are our OpenCL C of that producer's modules, so a fixture without one is one the
/// producer made no module of (not run, not counted), and
/// `SPIR_XLATE_EXEC_PRODUCER_CHANGES=FILE` lists the fixtures, one a line, whose module the
/// producer changed, as tests/exec_producers showed on the Intel runtime (the driver, given
/// the producer's module itself, computes what our OpenCL C of it computes). A driver that
/// takes only source cannot show it; their differing runs are counted as the producer's.
struct ProducerRun {
    name: String,
    dir: PathBuf,
    changed: Vec<String>,
}

impl ProducerRun {
    fn from_env() -> Option<ProducerRun> {
        let name = std::env::var("SPIR_XLATE_EXEC_PRODUCER")
            .ok()
            .filter(|p| !p.is_empty())?;
        let dir = PathBuf::from(std::env::var_os("SPIR_XLATE_OPENCL_C_DIR")?);
        let changed = match std::env::var("SPIR_XLATE_EXEC_PRODUCER_CHANGES") {
            Ok(path) => std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{path}: {e}"))
                .lines()
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect(),
            Err(_) => Vec::new(),
        };
        Some(ProducerRun { name, dir, changed })
    }
}

#[test]
#[ignore = "oracle tier: needs the tools .ci/run installs (run with -- --ignored)"]
fn translated_kernels_compute_what_their_source_computes_on_the_intel_runtime() {
    compare::on_a_deep_stack(run_all);
}

fn run_all() {
    // `SPIR_XLATE_EXEC_PLATFORM=NVIDIA` (with SPIR_XLATE_EXEC_CONSUMER=opencl-c): the same
    // comparison on another platform's driver, for the drivers that take only source
    // (docs/testing.md: NVIDIA's OpenCL on the GPU machine).
    let platform = std::env::var("SPIR_XLATE_EXEC_PLATFORM").unwrap_or_else(|_| "Intel".into());
    let open =
        || cl::Device::of_platform(&platform).expect("the Intel OpenCL runtime (see .ci/run)");
    let mut dev = open();
    let producer = ProducerRun::from_env();
    let work = std::env::temp_dir().join(format!("spir-xlate-intel-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let sources = compare::kernel_sources();
    // Each step named before it runs: where the driver itself crashes, the last line says.
    let trace = std::env::var_os("SPIR_XLATE_EXEC_TRACE").is_some();
    // `SPIR_XLATE_EXEC_CONSUMER=opencl-c`: only our OpenCL C (while working on its writer).
    let only_opencl_c = std::env::var("SPIR_XLATE_EXEC_CONSUMER").is_ok_and(|c| c == "opencl-c");
    let mut tally: BTreeMap<Consumer, Tally> = BTreeMap::new();
    let (mut failures, mut control_failures, mut kernels) = (Vec::new(), Vec::new(), 0);
    let mut faulted = false;
    for cl_path in sources {
        let name = cl_path.file_stem().unwrap().to_string_lossy().into_owned();
        let crash = match platform.as_str() {
            "Intel" => DRIVER_CRASHES.iter().find(|(k, _)| *k == name),
            "NVIDIA" => NVIDIA_SOURCE_FAULTS.iter().find(|(k, _)| *k == name),
            _ => None,
        };
        if let Some((_, why)) = crash {
            eprintln!("{name}: not run on {platform}: {why}");
            continue;
        }
        // A kernel that faults the GPU loses the context (CL_INVALID_COMMAND_QUEUE): the
        // next fixture starts on a new one, so that one fault does not fail every later run.
        if std::mem::take(&mut faulted) {
            eprintln!("{name}: a new context (the one before was lost to a fault)");
            dev = open();
        }
        let src = std::fs::read_to_string(&cl_path).unwrap();
        let specs = spec::parse(&src).unwrap_or_else(|e| panic!("{}: {e}", cl_path.display()));
        if specs.is_empty() {
            continue;
        }
        kernels += specs.len();
        if trace {
            eprintln!("{name}: building the OpenCL C source");
        }
        let references = match compare::References::build(&dev, &src) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: reference build: {e}"));
                continue;
            }
        };
        if DRIVER_REFUSES_SPIRV.iter().any(|(k, _)| *k == name) && !only_opencl_c {
            let fixture = Path::new("tests/fixtures/modern").join(format!("{name}.spir64.bc"));
            let spv = work.join(format!("{name}.llvm-spirv.spv"));
            let peer = common::run_tool(
                Command::new("llvm-spirv-14")
                    .arg(&fixture)
                    .arg("-o")
                    .arg(&spv),
            )
            .and_then(|()| std::fs::read(&spv).map_err(|e| e.to_string()))
            .map(|bytes| dev.program_from_il(&bytes).is_ok());
            match peer {
                Ok(false) => {}
                Ok(true) => failures.push(format!(
                    "{name}: llvm-spirv-14's SPIR-V builds on the driver, so its refusal of ours \
                     is not the driver's fault (DRIVER_REFUSES_SPIRV)"
                )),
                Err(e) => failures.push(format!("{name}: llvm-spirv-14: {e}")),
            }
        }
        for dir in common::FIXTURE_DIRS {
            let fixture = Path::new(dir).join(format!("{name}.spir64.bc"));
            // The debug shapes hold a representative set of the kernels.
            if !fixture.exists() {
                continue;
            }
            let shape = dir.trim_start_matches("tests/fixtures/");
            // `SPIR_XLATE_EXEC_SHAPES=modern,o0`: only those fixture shapes.
            if let Ok(shapes) = std::env::var("SPIR_XLATE_EXEC_SHAPES") {
                if !shapes.split(',').any(|s| s.trim() == shape) {
                    continue;
                }
            }
            for consumer in [
                Consumer::Spirv,
                Consumer::ToSpir,
                Consumer::ToSpirSpec,
                Consumer::OpenclC,
                Consumer::Input,
            ] {
                if only_opencl_c && consumer != Consumer::OpenclC {
                    continue;
                }
                if consumer == Consumer::ToSpirSpec && shape != "modern" {
                    continue;
                }
                // The debug shapes' code is the modern ones': OpenCL C (which keeps no debug
                // information) is built from the other four.
                if consumer == Consumer::OpenclC && shape.contains("debug") {
                    continue;
                }
                let t = tally.entry(consumer).or_default();
                if consumer == Consumer::Input {
                    let crash = CONTROL_CRASHES.iter().find(|c| c.0 == name && c.1 == shape);
                    if let Some((_, _, why)) = crash {
                        eprintln!("{name} ({shape}): the input SPIR not loaded: {why}");
                        continue;
                    }
                }
                let unmade = producer.as_ref().filter(|p| {
                    consumer == Consumer::OpenclC
                        && !p.dir.join(compare::opencl_c_file(&fixture)).exists()
                });
                if let Some(p) = unmade {
                    eprintln!(
                        "{name} ({shape}, OpenclC): not run: {} made no module of it",
                        p.name
                    );
                    continue;
                }
                let mut sink = Vec::new();
                if trace {
                    eprintln!("{name} ({shape}, {consumer:?}): building and running");
                }
                let program = if consumer == Consumer::OpenclC {
                    compare::our_opencl_c(&fixture, &work)
                        .and_then(|(text, std)| dev.program_from_source_with(&text, &std))
                } else {
                    candidate(&fixture, &work, consumer).and_then(|bytes| match consumer {
                        Consumer::Spirv => dev.program_from_il(&bytes),
                        _ => dev.program_from_spir(&bytes),
                    })
                };
                let program = match program {
                    Ok(p) => {
                        t.built += 1;
                        Ok(p)
                    }
                    Err(e) => {
                        t.build_failed += 1;
                        let known = DRIVER_REFUSES_SPIRV.iter().find(|(k, _)| *k == name);
                        match known.filter(|_| consumer == Consumer::Spirv) {
                            Some((_, why)) => {
                                eprintln!("{name} ({shape}, Spirv): refused (known: {why})")
                            }
                            None => sink.push(format!("{name} ({shape}, {consumer:?}): {e}")),
                        }
                        Err(())
                    }
                };
                for s in specs.iter().filter(|_| program.is_ok()) {
                    let Ok(program) = &program else { break };
                    let seed = seed_of(&s.kernel);
                    let got = run_spec(&dev, program, s, seed);
                    t.runs += 1;
                    let judged = got.map(|g| (references.matches(&dev, s, seed, &g), g));
                    match judged {
                        Ok((Ok(Ok(m)), g)) => {
                            if g.iter().all(|(_, b)| b.iter().all(|&x| x == 0)) {
                                failures.push(format!(
                                    "{name}::{}: every compared output is zero; the test proves \
                                     nothing",
                                    s.kernel
                                ));
                            }
                            if m.is_within() {
                                t.within += 1;
                            } else {
                                t.same += 1;
                                *t.matched.entry(m.describe()).or_default() += 1;
                            }
                        }
                        Ok((Ok(Err(diffs)), _))
                            if consumer == Consumer::OpenclC
                                && producer.as_ref().is_some_and(|p| p.changed.contains(&name)) =>
                        {
                            t.changed += 1;
                            eprintln!(
                                "{name}::{} ({shape}, {consumer:?}): differs, the producer's \
                                 change (tests/exec_producers on the Intel runtime): {}",
                                s.kernel,
                                diffs.join("; ")
                            );
                        }
                        Ok((Ok(Err(diffs)), _)) => sink.push(format!(
                            "{name}::{} ({shape}, {consumer:?}): {}",
                            s.kernel,
                            diffs.join("; ")
                        )),
                        Ok((Err(e), _)) => {
                            failures.push(format!("{name}::{} reference: {e}", s.kernel))
                        }
                        Err(e) => {
                            // CL_INVALID_COMMAND_QUEUE, CL_OUT_OF_RESOURCES: how NVIDIA's
                            // OpenCL reports a kernel that faulted.
                            faulted |= e.contains("CL status -36") || e.ends_with("CL status -5");
                            sink.push(format!("{name}::{} ({shape}, {consumer:?}): {e}", s.kernel))
                        }
                    }
                }
                if consumer == Consumer::Input {
                    control_failures.extend(sink);
                } else {
                    failures.extend(sink);
                }
            }
        }
    }
    eprintln!("Intel OpenCL runtime: {kernels} kernels");
    for (c, t) in &tally {
        let how: Vec<String> = t
            .matched
            .iter()
            .map(|(k, n)| format!("{n} to {k}"))
            .collect();
        eprintln!(
            "  {c:?}: {} programs built, {} refused by the driver; {} of {} runs bit-identical \
             to the source as OpenCL lets the driver build it ({}), {} within the precision \
             OpenCL allows (linear filtering, contraction){}",
            t.built,
            t.build_failed,
            t.same,
            t.runs,
            how.join(", "),
            t.within,
            if t.changed > 0 {
                format!(", {} changed by the producer", t.changed)
            } else {
                String::new()
            }
        );
    }
    if !control_failures.is_empty() {
        eprintln!(
            "control (the input SPIR loaded as a binary), {} failures:\n  {}",
            control_failures.len(),
            control_failures.join("\n  ")
        );
    }
    let _ = std::fs::remove_dir_all(&work);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if std::env::var_os("SPIR_XLATE_EXEC_ONLY").is_none() {
        assert!(kernels >= 40, "only {kernels} kernels have //@exec lines");
    }
}
