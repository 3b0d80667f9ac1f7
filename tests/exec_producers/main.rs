//! Back from other producers' SPIR-V (issue 50): every `//@exec` kernel's modern fixture
//! (`tests/fixtures/modern/*.spir64.bc`) made into SPIR-V by each producer below, read back by
//! `to-spir` into real SPIR, loaded as a `cl_khr_spir` binary on the Intel CPU OpenCL runtime
//! and run against the kernel's OpenCL C source built by the driver, bit for bit (as OpenCL
//! lets the driver build it: compare::References). Run as
//! `cargo test --test exec_producers -- --ignored` with `OCL_ICD_VENDORS` as for exec_intel.
//!
//! Producers:
//! * `dpcpp-1.0`, `dpcpp-1.4`: DPC++'s translator (PyPI `dpcpp-llvm-spirv`, on LLVM 19,
//!   installed by .ci/run into `.oracles/venv`) at the SPIR-V versions it writes;
//! * `dpcpp-ext`: the same at 1.4 with every extension it knows allowed (`--spirv-ext=+all`);
//! * `clang19-dpcpp`: the kernel's source compiled by clang-19 (`-O2`, opaque pointers), then
//!   DPC++'s translator at 1.4: the path of today's toolchains;
//! * `llvm-spirv-14`: the Khronos translator Debian packages (SPIR-V 1.4 by default);
//! * `llvm22-backend-1.4`, `llvm22-backend-1.6`: the kernel's source compiled by clang 22
//!   (`-O2`) straight to SPIR-V by LLVM's own SPIR-V backend (`--target=spirv64v1.X`), as clang
//!   does by default since LLVM 20: the clang of PyPI's `ziglang` (`zig clang`), which has the
//!   backend but no OpenCL headers, so clang-19's resource directory gives `opencl-c-base.h`;
//! * `ours-1.4`, `ours-1.5`, `ours-1.6`: our own `to-spirv --target opencl3.0
//!   --spirv-version X`;
//! * `ours-untyped`: `ours-1.4` with SPV_KHR_untyped_pointers (tests/common/untyped.rs),
//!   checked by the SPIRV-Tools linked in (the spirv-val installed predates the extension).
//!
//! The modules of `llvm-spirv-14`, `dpcpp-1.4` and `llvm22-backend-1.4` are also written as
//! OpenCL C (`to-opencl-c`), built from that source by the driver and run the same way (the
//! road of a driver that takes source only; counted as `<producer> as OpenCL C`). That road
//! is young: what it does not yet build or run right is listed, not failed, and each
//! producer's bit-identical runs must reach `OPENCL_C_RATCHET`, raised as it grows.
//!
//! A module the producer writes and `spirv-val` (OpenCL 2.1+ environment of its version)
//! accepts must read back and run like its source. A module it rejects is the producer's
//! fault: read back it must still run right, or be refused with a located error. A run of a
//! valid module that differs from the source is the producer's change of the kernel when the
//! driver, given the producer's module itself (`clCreateProgramWithIL`), computes exactly what
//! our SPIR of it computes: two readers agree on what the module says. The counts per producer
//! are printed (docs/status.md takes them from the log).
#[path = "../exec/cl.rs"]
mod cl;
#[path = "../common/mod.rs"]
mod common;
#[path = "../exec/compare.rs"]
mod compare;
#[path = "../exec/spec.rs"]
mod spec;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::run_tool;
use compare::{run_spec, seed_of};

/// Kernels the driver cannot build from source (exec_intel's DRIVER_CRASHES).
const DRIVER_CRASHES: [&str; 1] = ["loops_phis"];

/// Kernels whose meaning a producer changes: (kernel, producers, the OpenCL.std instruction
/// that shows it, why). Their runs that differ from the source are reported as the
/// producer's, provided the producer's module still holds that SPIR-V (else the entry is
/// stale and the tier fails).
const PRODUCER_CHANGES: [(&str, &[&str], &str, &str); 1] = [(
    "minmax_float",
    &[
        "dpcpp-1.0",
        "dpcpp-1.4",
        "dpcpp-ext",
        "clang19-dpcpp",
        "llvm-spirv-14",
    ],
    "fmax",
    "the producer writes OpenCL C's max and min as OpenCL.std fmax and fmin, not fmax_common \
     and fmin_common: they differ in the sign of a zero result (the driver's fmax(-0, +0) is \
     -0, its max +0); read back, fmax stays fmax",
)];

/// Kernels a producer breaks: its module, valid SPIR-V, no longer means the source (it may
/// hang the driver), so it is read back but not run: (kernel, producers, why). Each run checks
/// the module still holds the break (an undefined pointer), else the entry is stale.
const PRODUCER_BREAKS: [(&str, &[&str], &str); 5] = [
    ("atom_legacy", &["clang19-dpcpp"], UNDEF_POINTERS),
    ("async_strided", &["clang19-dpcpp"], UNDEF_POINTERS),
    ("constant_tables", &["clang19-dpcpp"], UNDEF_POINTERS),
    ("local_atomics", &["clang19-dpcpp"], UNDEF_POINTERS),
    ("program_scope_vars", &["clang19-dpcpp"], UNDEF_POINTERS),
];

const UNDEF_POINTERS: &str = "DPC++'s translator writes clang-19's constant address \
    arithmetic on a program-scope variable (`getelementptr (i8, ptr addrspace(3) @l, i64 4)`, \
    opaque pointers) as OpUndef: the atomics and loads through it read no memory";

/// The producers, by name.
const PRODUCERS: [&str; 11] = [
    "dpcpp-1.0",
    "dpcpp-1.4",
    "dpcpp-ext",
    "clang19-dpcpp",
    "llvm-spirv-14",
    "llvm22-backend-1.4",
    "llvm22-backend-1.6",
    "ours-1.4",
    "ours-1.5",
    "ours-1.6",
    "ours-untyped",
];

/// The producers whose modules are also run as our OpenCL C of them.
const OPENCL_C_PRODUCERS: [&str; 3] = ["llvm-spirv-14", "dpcpp-1.4", "llvm22-backend-1.4"];

/// The fewest runs of each producer's modules as our OpenCL C that must be bit-identical to
/// the source (or within the precision OpenCL allows): a ratchet.
const OPENCL_C_RATCHET: [(&str, usize); 3] = [
    ("llvm-spirv-14", 132),
    ("dpcpp-1.4", 139),
    ("llvm22-backend-1.4", 126),
];

/// `producer`'s SPIR-V of `fixture` (of the kernel's source `cl`), written to `spv`.
fn produce(producer: &str, (cl, fixture): (&Path, &Path), spv: &Path) -> Result<(), String> {
    let mut cmd;
    match producer {
        "clang19-dpcpp" => {
            let bc = spv.with_extension("clang19.bc");
            let src = std::fs::read_to_string(cl).map_err(|e| e.to_string())?;
            run_tool(
                Command::new("clang-19")
                    .args(["-cc1", "-triple", "spir64-unknown-unknown", "-emit-llvm-bc"])
                    .arg(format!("-cl-std={}", cl::cl_std(&src)))
                    .args(cl::build_options(&src).split_whitespace())
                    .args(["-cl-kernel-arg-info", "-finclude-default-header", "-O2"])
                    .arg(cl)
                    .arg("-o")
                    .arg(&bc),
            )?;
            cmd = Command::new(common::dpcpp());
            cmd.arg("--spirv-max-version=1.4");
            return run_tool(cmd.arg(&bc).arg("-o").arg(spv));
        }
        "llvm22-backend-1.4" | "llvm22-backend-1.6" => {
            let version = producer.trim_start_matches("llvm22-backend-");
            let src = std::fs::read_to_string(cl).map_err(|e| e.to_string())?;
            return run_tool(
                Command::new(common::zig())
                    .arg("clang")
                    .arg(format!("--target=spirv64v{version}"))
                    .arg("-resource-dir")
                    .arg(clang19_resource_dir())
                    .arg(format!("-cl-std={}", cl::cl_std(&src)))
                    .args(cl::build_options(&src).split_whitespace())
                    .args(["-cl-kernel-arg-info", "-O2", "-c"])
                    .arg(cl)
                    .arg("-o")
                    .arg(spv),
            );
        }
        "dpcpp-1.0" | "dpcpp-1.4" | "dpcpp-ext" => {
            cmd = Command::new(common::dpcpp());
            let version = if producer == "dpcpp-1.0" {
                "1.0"
            } else {
                "1.4"
            };
            cmd.arg(format!("--spirv-max-version={version}"));
            if producer == "dpcpp-ext" {
                cmd.arg("--spirv-ext=+all");
            }
        }
        "llvm-spirv-14" => cmd = Command::new("llvm-spirv-14"),
        "ours-untyped" => {
            // Ours at 1.4, its pointers made untyped as a producer of
            // SPV_KHR_untyped_pointers writes them (tests/common/untyped.rs).
            let typed = spv.with_extension("typed.spv");
            produce("ours-1.4", (cl, fixture), &typed)?;
            let words = common::read_spirv(&typed);
            let untyped = common::untyped::untyped(&words)?;
            let bytes: Vec<u8> = untyped.iter().flat_map(|w| w.to_le_bytes()).collect();
            return std::fs::write(spv, bytes).map_err(|e| e.to_string());
        }
        ours => {
            let version = ours.trim_start_matches("ours-");
            cmd = Command::new(env!("CARGO_BIN_EXE_spir-xlate"));
            cmd.args([
                "to-spirv",
                "-q",
                "--target",
                "opencl3.0",
                "--spirv-version",
                version,
            ]);
        }
    }
    run_tool(cmd.arg(fixture).arg("-o").arg(spv))
}

/// clang-19's resource directory, whose `opencl-c-base.h` zig's clang lacks (asked once).
fn clang19_resource_dir() -> &'static Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| common::resource_dir("clang-19"))
}

/// One producer's module of one kernel source, read back, for its runs.
struct Module<'a> {
    dev: &'a cl::Device,
    /// Our SPIR of the module, built by the driver.
    program: &'a cl::Program,
    references: &'a compare::References,
    /// The producer's module.
    spv: &'a Path,
    /// `spirv-val` accepts the module.
    valid: bool,
    /// Why the producer changed the kernel's meaning (PRODUCER_CHANGES), if it did.
    change: Option<&'static str>,
    name: &'a str,
    producer: &'a str,
}

impl Module<'_> {
    /// Run each of the source's kernels, counting the results in `t`.
    fn run(&self, specs: &[spec::ExecSpec], t: &mut Tally, failures: &mut Vec<String>) {
        let (name, producer) = (self.name, self.producer);
        // The driver's own build of the producer's module, made when a run differs.
        let mut direct = None;
        for s in specs {
            let seed = seed_of(&s.kernel);
            t.runs += 1;
            let got = run_spec(self.dev, self.program, s, seed);
            let verdict = got
                .as_ref()
                .map(|g| self.references.matches(self.dev, s, seed, g));
            let agreed = match (&verdict, &got) {
                (Ok(Ok(Err(_))), Ok(ours)) if self.valid && self.change.is_none() => {
                    self.driver_agrees(&mut direct, s, seed, ours)
                }
                _ => false,
            };
            match verdict {
                Ok(Ok(Ok(m))) if m.is_within() => t.within += 1,
                Ok(Ok(Ok(_))) => t.same += 1,
                Ok(Ok(Err(diffs))) if agreed => {
                    t.producer_changed += 1;
                    eprintln!(
                        "{name}::{} ({producer}): differs, the producer's change: the driver, \
                         reading the producer's module itself, computes the same as our SPIR \
                         of it ({})",
                        s.kernel,
                        diffs.join("; ")
                    );
                }
                Ok(Ok(Err(_))) if self.change.is_some() => {
                    t.producer_changed += 1;
                    eprintln!(
                        "{name}::{} ({producer}): differs, the producer's change: {}",
                        s.kernel,
                        self.change.unwrap_or_default()
                    );
                }
                Ok(Ok(Err(diffs))) => failures.push(format!(
                    "{name}::{} ({producer}): {}",
                    s.kernel,
                    diffs.join("; ")
                )),
                Ok(Err(e)) => failures.push(format!("{name}::{} reference: {e}", s.kernel)),
                Err(e) => failures.push(format!("{name}::{} ({producer}): {e}", s.kernel)),
            }
        }
    }

    /// Whether the driver, reading the producer's module itself (clCreateProgramWithIL, built
    /// once into `direct`), computes just what our SPIR of it computed (`ours`): then two
    /// readers agree on what the module says, and a difference from the source is the
    /// producer's change of the kernel's meaning.
    fn driver_agrees(
        &self,
        direct: &mut Option<Result<cl::Program, String>>,
        s: &spec::ExecSpec,
        seed: u64,
        ours: &compare::Outputs,
    ) -> bool {
        let program = direct.get_or_insert_with(|| {
            std::fs::read(self.spv)
                .map_err(|e| e.to_string())
                .and_then(|b| self.dev.program_from_il(&b))
        });
        match program {
            Ok(p) => run_spec(self.dev, p, s, seed).is_ok_and(|d| d == *ours),
            Err(e) => {
                eprintln!(
                    "{} ({}): the driver refuses it: {e}",
                    self.name, self.producer
                );
                false
            }
        }
    }
}

#[derive(Default)]
struct Tally {
    modules: usize,
    invalid: usize,
    read_back: usize,
    refused_invalid: usize,
    runs: usize,
    same: usize,
    /// Runs within the precision OpenCL allows of the source (linear filtering, contraction:
    /// compare::Matched::is_within).
    within: usize,
    /// Runs that differ where the producer changed the kernel's meaning (PRODUCER_CHANGES).
    producer_changed: usize,
    /// Runs not made: the producer broke the kernel (PRODUCER_BREAKS).
    producer_broke: usize,
    versions: BTreeMap<String, usize>,
}

#[test]
#[ignore = "oracle tier: needs the tools .ci/run installs (run with -- --ignored)"]
fn other_producers_spirv_reads_back_and_runs_like_its_source() {
    compare::on_a_deep_stack(run_all);
}

fn run_all() {
    let dev = cl::Device::of_platform("Intel").expect("the Intel OpenCL runtime (see .ci/run)");
    let work = std::env::temp_dir().join(format!("spir-xlate-producers-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let mut tally: BTreeMap<&str, Tally> = BTreeMap::new();
    // Per producer of OPENCL_C_PRODUCERS: (programs built from our OpenCL C, its runs).
    let mut as_c: BTreeMap<&str, (usize, Tally)> = BTreeMap::new();
    // What the OpenCL C road does not yet do (listed, not failed; see OPENCL_C_RATCHET).
    let mut as_c_gaps: Vec<String> = Vec::new();
    let mut failures = Vec::new();
    let mut kernels = 0;
    for cl_path in compare::kernel_sources() {
        let name = cl_path.file_stem().unwrap().to_string_lossy().into_owned();
        if DRIVER_CRASHES.contains(&name.as_str()) {
            eprintln!("{name}: not run: the driver cannot build its source (exec_intel)");
            continue;
        }
        let src = std::fs::read_to_string(&cl_path).unwrap();
        let specs = spec::parse(&src).unwrap_or_else(|e| panic!("{}: {e}", cl_path.display()));
        let fixture = Path::new("tests/fixtures/modern").join(format!("{name}.spir64.bc"));
        if specs.is_empty() || !fixture.exists() {
            continue;
        }
        kernels += specs.len();
        let references = match compare::References::build(&dev, &src) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: reference build: {e}"));
                continue;
            }
        };
        for producer in PRODUCERS {
            let t = tally.entry(producer).or_default();
            let spv = work.join(format!("{name}.{producer}.spv"));
            if let Err(e) = produce(producer, (&cl_path, &fixture), &spv) {
                // A producer that cannot translate the kernel makes nothing to read back.
                eprintln!("{name} ({producer}): the producer refuses it: {e}");
                continue;
            }
            t.modules += 1;
            // The module, read once: its version and (for the lists above) its disassembly.
            let words = common::read_spirv(&spv);
            let version = words.get(1).copied().unwrap_or_default();
            let (major, minor) = (version >> 16 & 0xff, version >> 8 & 0xff);
            *t.versions.entry(format!("{major}.{minor}")).or_default() += 1;
            // OpenCL's environment in spirv-val stops at 2.2 (SPIR-V 1.2); later versions
            // are checked under the universal environment of their version.
            let env = match (major, minor) {
                (1, 0) => "opencl2.1".to_string(),
                (1, 1 | 2) => "opencl2.2".to_string(),
                _ => format!("spv{major}.{minor}"),
            };
            let valid = if producer == "ours-untyped" {
                // spirv-val 2023.1 predates the extension; the SPIRV-Tools linked in knows it
                // (all but OpUntypedGroupAsyncCopyKHR, opcode 4434, which it calls invalid).
                match spir_xlate::internals::spirv::check_input(&words) {
                    Err(e) if !e.to_string().contains("Invalid opcode: 4434") => Err(e.to_string()),
                    _ => Ok(()),
                }
            } else {
                common::spirv_val(&spv, &env)
            };
            if let Err(e) = &valid {
                t.invalid += 1;
                eprintln!("{name} ({producer}): the producer's module is invalid: {e}");
            }
            let bc = work.join(format!("{name}.{producer}.bc"));
            let back = run_tool(
                Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
                    .args(["to-spir", "-q"])
                    .arg(&spv)
                    .arg("-o")
                    .arg(&bc),
            )
            .and_then(|()| common::llvm_verify(&bc));
            match (back, &valid) {
                (Ok(()), _) => t.read_back += 1,
                (Err(e), Err(_)) => {
                    t.refused_invalid += 1;
                    if let Some(piece) = common::debug_text(&e) {
                        failures.push(format!("{name} ({producer}): debug text ({piece}): {e}"));
                    }
                    eprintln!("{name} ({producer}): invalid, refused: {e}");
                    continue;
                }
                (Err(e), Ok(())) => {
                    failures.push(format!("{name} ({producer}): valid, not read back: {e}"));
                    continue;
                }
            }
            let program = std::fs::read(&bc)
                .map_err(|e| e.to_string())
                .and_then(|bytes| dev.program_from_spir(&bytes));
            let program = match program {
                Ok(p) => p,
                Err(e) => {
                    failures.push(format!("{name} ({producer}): our SPIR of it: {e}"));
                    continue;
                }
            };
            let broken = PRODUCER_BREAKS
                .iter()
                .find(|(k, ps, _)| *k == name && ps.contains(&producer));
            if let Some((_, _, why)) = broken {
                let text = spir_xlate::disassemble(&words).unwrap_or_default();
                if text.contains("OpUndef %_ptr") {
                    t.producer_broke += specs.len();
                    eprintln!("{name} ({producer}): read back, not run: {why}");
                } else {
                    failures.push(format!(
                        "{name} ({producer}): PRODUCER_BREAKS is stale: no undefined pointer"
                    ));
                }
                continue;
            }
            let change = PRODUCER_CHANGES
                .iter()
                .find(|(k, ps, _, _)| *k == name && ps.contains(&producer));
            if let Some((_, _, shows, _)) = change {
                let text = spir_xlate::disassemble(&words).unwrap_or_default();
                let written = text
                    .lines()
                    .any(|l| l.contains("OpExtInst") && l.split_whitespace().any(|w| w == *shows));
                if !written {
                    failures.push(format!(
                        "{name} ({producer}): PRODUCER_CHANGES is stale: no OpenCL.std {shows} \
                         in the module"
                    ));
                }
            }
            let module = Module {
                dev: &dev,
                program: &program,
                references: &references,
                spv: &spv,
                valid: valid.is_ok(),
                change: change.map(|c| c.3),
                name: &name,
                producer,
            };
            module.run(&specs, t, &mut failures);
            if !OPENCL_C_PRODUCERS.contains(&producer) {
                continue;
            }
            let (built, t) = as_c.entry(producer).or_default();
            let program = compare::our_opencl_c(&spv, &work)
                .and_then(|(text, std)| dev.program_from_source_with(&text, &std));
            let label = format!("{producer} as OpenCL C");
            match program {
                Ok(p) => {
                    *built += 1;
                    Module {
                        program: &p,
                        producer: &label,
                        ..module
                    }
                    .run(&specs, t, &mut as_c_gaps);
                }
                Err(e) => as_c_gaps.push(format!("{name} ({label}): {e}")),
            }
        }
    }
    eprintln!(
        "Producers' SPIR-V read back (to-spir) on the Intel OpenCL runtime: {kernels} kernels"
    );
    for (p, t) in &tally {
        let versions: Vec<String> = t
            .versions
            .iter()
            .map(|(v, n)| format!("{n} at {v}"))
            .collect();
        eprintln!(
            "  {p}: {} modules ({}), {} invalid; {} read back, {} invalid refused; {} of {} runs \
             bit-identical to the source, {} within the precision OpenCL allows (linear filtering, contraction), {} changed by \
             the producer, {} not run (broken by the producer)",
            t.modules,
            versions.join(", "),
            t.invalid,
            t.read_back,
            t.refused_invalid,
            t.same,
            t.runs,
            t.within,
            t.producer_changed,
            t.producer_broke
        );
    }
    for (p, (built, t)) in &as_c {
        eprintln!(
            "  {p} as OpenCL C: {built} programs built from our OpenCL C of its modules; {} of \
             {} runs bit-identical to the source, {} within the precision OpenCL allows \
             (linear filtering, contraction), {} changed by the producer",
            t.same, t.runs, t.within, t.producer_changed
        );
    }
    if !as_c_gaps.is_empty() {
        eprintln!(
            "  not yet right as OpenCL C ({}):\n    {}",
            as_c_gaps.len(),
            as_c_gaps.join("\n    ")
        );
    }
    let _ = std::fs::remove_dir_all(&work);
    if std::env::var_os("SPIR_XLATE_EXEC_ONLY").is_none() {
        for (p, min) in OPENCL_C_RATCHET {
            let ok = as_c.get(p).map_or(0, |(_, t)| t.same + t.within);
            assert!(
                ok >= min,
                "{p} as OpenCL C: {ok} runs right (the ratchet is {min})"
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if std::env::var_os("SPIR_XLATE_EXEC_ONLY").is_some() {
        return;
    }
    assert!(kernels >= 40, "only {kernels} kernels have //@exec lines");
    for p in PRODUCERS {
        assert!(
            tally.get(p).is_some_and(|t| t.same > 100),
            "{p}: too few runs compared"
        );
    }
}
