//! Execution tier (`cargo test --test exec -- --ignored`, run by .ci/run after installing
//! PoCL, spirv-val and llvm-spirv-14). For every kernel with an `//@exec` line:
//!
//! * reference: the kernel's OpenCL C source, built by PoCL;
//! * candidates: the spir64 fixtures (modern -O2, legacy-shaped, -O0, legacy-shaped -O0), each
//!   translated by us to SPIR-V (validated by spirv-val) and turned back into SPIR bitcode twice:
//!   by `llvm-spirv-14 -r` (an independent reader of our SPIR-V) and by our own `to-spir`
//!   (real SPIR, verified by `opt -passes=verify`); each is loaded with
//!   clCreateProgramWithBinary; and our OpenCL C (`to-opencl-c`), built from source with the
//!   `-cl-std=` its first line names (modern and -O0 shapes);
//!
//! all run on identical inputs; every output buffer and written image must match bit for bit.
mod cl;
#[path = "../common/mod.rs"]
mod common;
mod compare;
mod spec;

use common::{run_tool, spirv_val};
use compare::run_spec;

use std::path::Path;
use std::process::Command;

/// Who turns our SPIR-V back into SPIR for PoCL.
#[derive(Clone, Copy, Debug)]
enum Back {
    /// `llvm-spirv-14 -r`.
    Khronos,
    /// Our `to-spir --flavor spir`.
    Ours,
    /// Not SPIR at all: our OpenCL C, built from source.
    OpenclC,
}

/// Our SPIR-V for `fixture`, validated, and read back to SPIR by `back`.
fn translated_bitcode(fixture: &Path, work: &Path, back: Back) -> Result<Vec<u8>, String> {
    let bc = work.join(format!("{}.{back:?}.bc", common::fixture_id(fixture)));
    let spv = compare::our_spirv(fixture, work)?;
    spirv_val(&spv, "opencl2.1")?;
    match back {
        Back::Khronos => run_tool(
            Command::new("llvm-spirv-14")
                .arg("-r")
                .arg(&spv)
                .arg("-o")
                .arg(&bc),
        )?,
        Back::Ours => {
            run_tool(
                Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
                    .arg("to-spir")
                    .arg(&spv)
                    .arg("-o")
                    .arg(&bc),
            )?;
            common::llvm_verify(&bc)?;
        }
        Back::OpenclC => return Err("OpenCL C is built from source, not as SPIR".into()),
    }
    Ok(std::fs::read(&bc).unwrap())
}

/// A build failure of llvm-spirv-14's SPIR whose only cause is OpenCL.std's `fmax_common` /
/// `fmin_common` (OpenCL C's `max`/`min` of floats), which llvm-spirv-14 reads back as calls
/// of functions by those names that no OpenCL C library has (PoCL names a missing symbol
/// once per process: a later program missing only those fails with an empty log).
fn khronos_misspells_common(error: &str, bc: &[u8]) -> bool {
    let missing: Vec<&str> = error
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Cannot find symbol "))
        .collect();
    let common = |m: &&str| m.contains("fmax_common") || m.contains("fmin_common");
    let text = String::from_utf8_lossy(bc);
    let calls = text.contains("fmax_common") || text.contains("fmin_common");
    calls
        && ((!missing.is_empty() && missing.iter().all(common))
            || (missing.is_empty() && error.trim_end().ends_with("-11:")))
}

/// Kernels PoCL cannot link from any SPIR binary (whoever produced it), with why: named in
/// the output, run by the Intel tier instead.
const POCL_CANNOT_LINK: [(&str, &str); 3] = [
    (
        "half_math",
        "PoCL implements the scalar half_* functions as header macros; its kernel library has \
         none to link",
    ),
    (
        "math_special",
        "it calls every half_* function, which PoCL implements as header macros; its kernel \
         library has none to link",
    ),
    (
        "mem_fences",
        "PoCL's fences are header macros; its kernel library has no mem_fence to link",
    ),
];

/// Programs PoCL computes wrong from any optimized SPIR binary (clang's own -O2 shape, read
/// back by either reader: the control flow is the input's), with why: reported, not failed.
/// Their OpenCL C, whose barrier loops test their guard at the top (src/clc/control.rs),
/// runs right and is compared as every other run.
const POCL_GUARDED_BARRIER_LOOPS: [(&str, &str); 1] = [(
    "app_stencil",
    "clang's loop rotation puts its barrier loops inside `if (steps > 0)`, for which PoCL \
     (3.1) forms no barrier regions: the kernels store nothing. The same binary computes \
     right on the Intel runtime and on Vulkan, and PoCL runs the same code right where the \
     guard is tested at the loop's top (checked by hand on the OpenCL C)",
)];

/// Run every spec of a kernel on `candidate` and judge it against the source's references.
#[allow(clippy::too_many_arguments)]
fn judge_all(
    dev: &cl::Device,
    candidate: &cl::Program,
    specs: &[spec::ExecSpec],
    references: &compare::References,
    name: &str,
    variant: &str,
    runs: &mut usize,
    failures: &mut Vec<String>,
) {
    for s in specs {
        let seed = compare::seed_of(&s.kernel);
        // Bit for bit with the source as OpenCL lets the driver build it (within linear
        // filtering's precision where the kernel samples so: compare::LINEAR_FILTER_BOUND).
        let judge =
            || run_spec(dev, candidate, s, seed).map(|g| (references.matches(dev, s, seed, &g), g));
        let mut verdict = judge();
        *runs += 1;
        // A mismatch is run once more: PoCL has been seen (1 run in ~500) to let two
        // work-items win the same atomic_cmpxchg. Only a mismatch that reproduces
        // fails; every retry is reported.
        if matches!(verdict, Ok((Ok(Err(_)), _))) {
            eprintln!("{name}::{} ({variant}): mismatch, running again", s.kernel);
            verdict = judge();
        }
        match verdict {
            Ok((Ok(Ok(_)), g)) => {
                if g.iter().all(|(_, b)| b.iter().all(|&x| x == 0)) {
                    failures.push(format!(
                        "{name}::{}: every compared output is zero; the test proves nothing",
                        s.kernel
                    ));
                }
            }
            Ok((Ok(Err(diffs)), _)) => {
                let optimized_binary = !variant.contains("OpenclC") && !variant.contains("o0");
                match POCL_GUARDED_BARRIER_LOOPS.iter().find(|(k, _)| *k == name) {
                    Some((_, why)) if optimized_binary => eprintln!(
                        "{name}::{} ({variant}): PoCL's own fault ({why}): {}",
                        s.kernel,
                        diffs.join("; ")
                    ),
                    _ => failures.push(format!(
                        "{name}::{} ({variant}): {}",
                        s.kernel,
                        diffs.join("; ")
                    )),
                }
            }
            Ok((Err(e), _)) => failures.push(format!("{name}::{} reference: {e}", s.kernel)),
            Err(e) => failures.push(format!("{name}::{} ({variant}): {e}", s.kernel)),
        }
    }
}

#[test]
#[ignore = "oracle tier: needs the tools .ci/run installs (run with -- --ignored)"]
fn translated_kernels_compute_what_their_source_computes_on_pocl() {
    let dev = cl::Device::first().expect("an OpenCL device (PoCL)");
    let work = std::env::temp_dir().join(format!("spir-xlate-exec-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let sources = compare::kernel_sources();
    let (mut failures, mut kernels, mut runs) = (Vec::new(), 0, 0);
    let mut khronos_common_gaps = 0;
    for cl_path in sources {
        let name = cl_path.file_stem().unwrap().to_string_lossy().into_owned();
        if let Some((_, why)) = POCL_CANNOT_LINK.iter().find(|(k, _)| *k == name) {
            eprintln!("{name}: not run on PoCL: {why}");
            continue;
        }
        let src = std::fs::read_to_string(&cl_path).unwrap();
        let specs = spec::parse(&src).unwrap_or_else(|e| panic!("{}: {e}", cl_path.display()));
        if specs.is_empty() {
            continue;
        }
        // PoCL's CPU device here compiles OpenCL C 1.2 only (no generic address space, no
        // C11 atomics): OpenCL C 2.0 kernels run on the Intel runtime's tier instead.
        if cl::cl_std(&src) != "CL1.2" {
            eprintln!(
                "{name}: not run on PoCL: its device compiles OpenCL C 1.2 only, the kernel is \
                 {}",
                cl::cl_std(&src)
            );
            continue;
        }
        let references = match compare::References::build(&dev, &src) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: reference build: {e}"));
                continue;
            }
        };
        for (dir, back) in common::FIXTURE_DIRS
            .iter()
            .flat_map(|d| [(d, Back::Khronos), (d, Back::Ours), (d, Back::OpenclC)])
            // OpenCL C (which keeps no debug information nor SPIR's metadata forms) is built
            // from the modern and -O0 shapes here; the Intel tier builds all four.
            .filter(|(d, b)| {
                !matches!(b, Back::OpenclC) || d.ends_with("/modern") || d.ends_with("/o0")
            })
        {
            let variant = format!("{} via {back:?}", dir.trim_start_matches("tests/fixtures/"));
            let fixture = Path::new(dir).join(format!("{name}.spir64.bc"));
            // The debug shapes hold a representative set of the kernels.
            if !fixture.exists() {
                continue;
            }
            let (built, bytes) = if let Back::OpenclC = back {
                let program = compare::our_opencl_c(&fixture, &work)
                    .and_then(|(text, std)| dev.program_from_source_with(&text, &std));
                (program, Vec::new())
            } else {
                let bc = translated_bitcode(&fixture, &work, back);
                let bytes = bc.clone().unwrap_or_default();
                (bc.and_then(|bc| dev.program_from_spir(&bc)), bytes)
            };
            let candidate = match built {
                Ok(p) => p,
                // llvm-spirv-14's fault (asserted, not skipped: the build must fail on exactly
                // that): ours spells them `max`/`min`.
                Err(e) if matches!(back, Back::Khronos) && khronos_misspells_common(&e, &bytes) => {
                    khronos_common_gaps += 1;
                    continue;
                }
                Err(e) => {
                    failures.push(format!("{name} ({variant}): {e}"));
                    continue;
                }
            };
            judge_all(
                &dev,
                &candidate,
                &specs,
                &references,
                &name,
                &variant,
                &mut runs,
                &mut failures,
            );
        }
        kernels += specs.len();
    }
    eprintln!(
        "executed {kernels} kernels, {runs} candidate runs; {khronos_common_gaps} programs \
         llvm-spirv-14 read back with fmax_common/fmin_common calls no library has"
    );
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
