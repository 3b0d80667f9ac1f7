//! Execution on Vulkan: our `--target vulkan1.2` modules run by tests/vkhost on the system's
//! Vulkan driver (Mesa lavapipe in CI; an NVIDIA GPU by hand, see docs/testing.md), compared bit for
//! bit with the kernel's OpenCL C source run on the Intel OpenCL runtime on the same inputs.
//! Run as `cargo test --test exec_vulkan -- --ignored` with the Intel runtime as the
//! only ICD (see .ci/run) and vkhost built (`cargo build --release --manifest-path
//! tests/vkhost/Cargo.toml`).
//!
//! For every kernel with an `//@exec` line, each of the four fixture shapes and both pointer
//! strategies (`--vulkan-pointers physical`, and `descriptors`, whose jobs are named
//! `desc.*`), the fixture is translated; a translation that is refused is counted and its
//! reason printed (the lowering refuses what it cannot express, by construct), one that
//! succeeds must run and match. `SPIR_XLATE_VULKAN_KEEP=DIR` keeps the modules, inputs, expected outputs and
//! job file in DIR: `vkhost DIR/jobs.json` then replays the whole tier on another machine
//! (how the GPU figures in docs/status.md were made: docs/logs/gpu.log).
#[path = "../exec/cl.rs"]
mod cl;
mod clspv;
#[path = "../common/mod.rs"]
mod common;
#[path = "../exec/compare.rs"]
mod compare;
mod reflection;
#[path = "../exec/spec.rs"]
mod spec;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use compare::{seed_of, PRINTED};
use serde_json::json;

/// Fixtures translated for Vulkan 1.3 rather than 1.2: their kernels fix different
/// work-group sizes beside one that takes the host's, which only LocalSizeId keeps (before
/// 1.3 the translation says which size holds only where the host sets the constants).
const VULKAN_1_3: [&str; 1] = ["workgroup_sizes"];

/// Kernels whose OpenCL C source the reference driver cannot build (as in exec_intel).
const DRIVER_CRASHES: [&str; 1] = ["loops_phis"];

/// Results that differ from the reference for reasons of a driver's own: (kernel,
/// device-name substring, why); an empty substring is the reference driver (any device).
/// Such a kernel's runs on that device are reported, not failed (unless what it printed
/// differs too); on other devices they must match.
const DRIVER_FAULTS: [(&str, &str, &str); 19] = [
    // Kernels of subnormal operands and results, measured on an H200 (driver 580).
    ("div_sqrt_wide", "NVIDIA", NVIDIA_FLUSH),
    ("fma_wide", "NVIDIA", NVIDIA_FLUSH),
    ("remainders_wide", "NVIDIA", NVIDIA_FLUSH),
    ("pow_root_tanpi", "NVIDIA", NVIDIA_FLUSH),
    ("printf_formats", "", PRINTF_RETURNS),
    ("printf_conversions", "", PRINTF_RETURNS),
    ("math_special", "", INTEL_HALF_FLUSH),
    ("math_special_pairs", "", INTEL_HALF_FLUSH),
    ("math_special_double", "", JUDGED_DOUBLE),
    // Programs whose later kernels carry a quotient: k-means' centroids (a label flips where
    // two distances tie within an ulp), the Jacobi sweeps' solution.
    ("app_kmeans", "NVIDIA", NVIDIA_DIVISION),
    ("app_solver", "NVIDIA", NVIDIA_DIVISION),
    ("math_special_double_pairs", "", JUDGED_DOUBLE),
    ("image_unorm", "NVIDIA", NVIDIA_UNORM),
    // Its read-write 8-bit normalized texel buffer; the float and integer ones are exact.
    ("image_1d_buffer", "NVIDIA", NVIDIA_UNORM),
    (
        "integer_long",
        "",
        "the Intel runtime's 64-bit mad_sat wraps instead of saturating (checked by hand: \
         where a * 2 - 5 overflows, ours gives the bound OpenCL requires, Intel the wrapped \
         value; both OpenCL tiers agree with Intel because they run Intel's mad_sat)",
    ),
    (
        "generic_space",
        "",
        "the Intel CPU runtime answers to_global, to_local and to_private with the pointer \
         itself whatever space it points into, and get_fence of a private pointer with \
         CLK_GLOBAL_MEM_FENCE (OpenCL C 2.0 says NULL and 0): its results for the run-time \
         spaces differ. Ours were checked against the kernel's semantics by hand, all 64 \
         work-items in each shape (the global and private writes the wrong answers steer \
         differ too)",
    ),
    (
        "relational_more",
        "llvmpipe",
        "lavapipe (Mesa 25.0.7) computes a division by the constant 0.0 as garbage, not ±inf \
         (a division by a zero read from memory is right)",
    ),
    (
        "relational_more",
        "NVIDIA",
        "NVIDIA's driver flushes float denormals (here the constant 1e-39f), which OpenCL \
         allows (CL_FP_DENORM is optional for float); the Intel reference keeps them",
    ),
    (
        "unions_byval",
        "NVIDIA",
        "a sum of two floats read from unions of random bits is NaN for some inputs: NVIDIA's \
         driver (580, measured on an H200) gives the one NaN 0x7fffffff where x86 keeps the \
         operand's payload (OpenCL leaves a NaN's bits open); the other outputs are exact",
    ),
];

const JUDGED_DOUBLE: &str = "not a fault of either: every double builtin at its special \
     inputs, where two conforming libraries differ in the last bits; scripts/math_special.py \
     judges every result of ours against the special values OpenCL fixes and the correctly \
     rounded result (OpenCL's table 7.2)";
const INTEL_HALF_FLUSH: &str = "not a fault of either: the Intel runtime's half_ functions \
     flush subnormal operands and results (OpenCL leaves denormals of half_ functions \
     optional) and give half precision (half_divide of the largest float by 1 - 2^-24 is the \
     largest float, ours the correctly rounded infinity); ours keep subnormals. \
     scripts/math_special.py judges every result of ours against what OpenCL fixes";
const NVIDIA_DIVISION: &str = "float division, which OpenCL bounds by 2.5 ulp: NVIDIA's OpFDiv \
     (Vulkan's 2.5 ulp) is not correctly rounded where the Intel runtime's is (bound 2^-21 \
     relative)";

const NVIDIA_FLUSH: &str = "NVIDIA's driver flushes float subnormals, operands and results \
     (OpenCL allows it where a device does not report CL_FP_DENORM), and gives every NaN as \
     0x7fffffff; elsewhere within OpenCL's bounds (its division and square root are not \
     correctly rounded: 2.5 and 3 ulp)";

const NVIDIA_UNORM: &str = "NVIDIA's driver (580) converts 8-bit normalized texels to float 1 \
     ulp below c / 255 (220 of 512 values) and floats to 8-bit normalized texels one unit \
     lower (188 of 512): within the precision OpenCL allows image conversions, not the Intel \
     runtime's results";

/// Kernels whose results OpenCL bounds, or leaves to the device, rather than fixing them
/// bit for bit (linear filtering, math and geometric builtins): (kernel, device-name substring, bound, relative, why). vkhost compares them within
/// `bound` (on each float; of the larger magnitude where `relative`) where they differ, on
/// that device, and says so (`WITHIN`).
const WITHIN: [(&str, &str, f32, Option<f32>, &str); 30] = [
    (
        "roots_wide",
        "",
        1.0 / 2_097_152.0,
        Some(f32::MIN_POSITIVE),
        "sqrt and rsqrt, which OpenCL bounds by 3 and 2 ulp: Vulkan's Sqrt with a step of \
         Heron's (within 1.75 ulp), InverseSqrt (2 ulp) (bound 2^-21 relative)",
    ),
    // lgamma is near zero at 1 and 2, where OpenCL leaves it unbounded: relative to 1 below.
    (
        "double_gamma",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(1.0),
        DOUBLE_ULP,
    ),
    // Judged against the correctly rounded result too (scripts/math_reference.py).
    (
        "double_hyperbolic",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(0.0),
        DOUBLE_ULP,
    ),
    (
        "double_erf",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(0.0),
        DOUBLE_ULP,
    ),
    // Judged against the correctly rounded result too (scripts/math_reference.py).
    (
        "pow_root_tanpi_double",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(0.0),
        DOUBLE_ULP,
    ),
    ("pow_root_tanpi", "", 1.0 / 1048576.0, Some(0.0), MATH_ULP),
    // pown and rootn of floats (16 ulp), ldexp exact.
    ("int_operands", "", 1.0 / 1048576.0, Some(1.0), MATH_ULP),
    (
        "double_math_wide",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(0.0),
        DOUBLE_ULP,
    ),
    // Sums of terms near 1 that cancel: relative to 1 below it.
    (
        "double_trig_wide",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(1.0),
        DOUBLE_ULP,
    ),
    (
        "double_math",
        "",
        1.0 / 281_474_976_710_656.0,
        Some(1.0),
        DOUBLE_ULP,
    ),
    ("exp_log", "", 1.0 / 1048576.0, Some(1.0), MATH_ULP),
    (
        "half_math",
        "",
        1.0 / 512.0,
        Some(1.0),
        "half_* functions, which OpenCL bounds by 8192 ulp: ours are the full-precision \
         ones (bound 2^-9 relative)",
    ),
    ("trig_wide", "", 1.0 / 1048576.0, Some(4.0), MATH_ULP),
    ("trig", "", 1.0 / 1048576.0, Some(4.0), MATH_ULP),
    // A sum of 17 builtins' results as large as 4 that cancels: relative to 4 below it.
    ("math_builtins", "", 1.0 / 1048576.0, Some(4.0), MATH_ULP),
    ("exp_log_wide", "", 1.0 / 1048576.0, Some(1.0), MATH_ULP),
    // Every float builtin at its special inputs, the half_ ones too (8192 ulp).
    (
        "math_special",
        "",
        1.0 / 512.0,
        Some(f32::MIN_POSITIVE),
        MATH_SPECIAL,
    ),
    (
        "math_special_pairs",
        "",
        1.0 / 512.0,
        Some(f32::MIN_POSITIVE),
        MATH_SPECIAL,
    ),
    (
        "vectors",
        "",
        1.0 / 1048576.0,
        Some(0.0),
        "length, distance and normalize, which OpenCL bounds by a few ulp: ours are computed \
         in float (scaled by a power of two) and differ from the Intel runtime's by an ulp or \
         two (bound 2^-20 relative)",
    ),
    (
        "vectors_spaces",
        "NVIDIA",
        1.0 / 1048576.0,
        Some(0.0),
        "dot of float3, whose rounding OpenCL leaves to the device: NVIDIA's driver (580, \
         measured on an H200) rounds it an ulp away from x86's (bound 2^-20 relative)",
    ),
    (
        "common_geometric",
        "",
        1.0 / 256.0,
        Some(0.0),
        "fast_length, fast_distance and fast_normalize (OpenCL relaxes their precision), and \
         mix and smoothstep (left to the device): bound 2^-8 relative",
    ),
    (
        "image_float_coords",
        "llvmpipe",
        2.0 * f32::EPSILON,
        None,
        LINEAR_LAVAPIPE,
    ),
    (
        "sampler_constants",
        "llvmpipe",
        2.0 * f32::EPSILON,
        None,
        LINEAR_LAVAPIPE,
    ),
    // A float division each, NVIDIA's not correctly rounded.
    (
        "packed_views",
        "NVIDIA",
        1.0 / 2_097_152.0,
        Some(f32::MIN_POSITIVE),
        NVIDIA_DIVISION,
    ),
    (
        "vector_ops",
        "NVIDIA",
        1.0 / 2_097_152.0,
        Some(f32::MIN_POSITIVE),
        NVIDIA_DIVISION,
    ),
    // Sums of up to three linear samples (weights 1 and 2): absolute bounds.
    (
        "image_normalized",
        "llvmpipe",
        1.0 / 65536.0,
        None,
        LINEAR_LAVAPIPE,
    ),
    (
        "image_normalized",
        "NVIDIA",
        1.0 / 64.0,
        None,
        LINEAR_NVIDIA,
    ),
    (
        "image_float_coords",
        "NVIDIA",
        1.0 / 256.0,
        None,
        LINEAR_NVIDIA,
    ),
    (
        "sampler_constants",
        "NVIDIA",
        1.0 / 256.0,
        None,
        LINEAR_NVIDIA,
    ),
    (
        "native_half_math",
        "",
        1.0 / 256.0,
        Some(0.0),
        "native_* functions, whose precision OpenCL leaves to the device (a sanity bound: \
         2^-8 relative)",
    ),
];
const PRINTF_RETURNS: &str = "the Intel runtime's printf returns the number of characters \
     it printed, as C's does; OpenCL C's printf returns 0 on success (ours does): the kernel \
     stores the return values (what it printed is compared, and matches)";
const DOUBLE_ULP: &str = "math builtins of double, which OpenCL bounds by 2 to 16 ulp (sqrt \
     correctly rounded): ours are within an ulp or two of the correctly rounded result, the \
     Intel runtime's within its own bound (bound 2^-48 relative, 16 ulp)";
const MATH_ULP: &str = "math builtins, which OpenCL bounds by 2 to 16 ulp: ours (in float) \
     are within OpenCL's bound of the correctly rounded result (scripts/math_reference.py \
     judges each), the Intel runtime's within its own (bound 2^-20 relative, 8 ulp)";
const MATH_SPECIAL: &str = "every float math builtin at signed zeros, subnormals, \
     integers, overflow thresholds, infinities and NaN: scripts/math_special.py judges each \
     result against the special values OpenCL C fixes and the correctly rounded result; the \
     half_ functions (8192 ulp) are the Intel runtime's own (bound 2^-9 relative)";
const LINEAR_LAVAPIPE: &str = "linear filtering, whose precision OpenCL leaves to the device: \
     lavapipe's weights are floats, rounded differently from the Intel runtime's";
const LINEAR_NVIDIA: &str = "linear filtering, whose precision OpenCL leaves to the device: \
     NVIDIA's weights have 8 bits (subTexelPrecisionBits), an error of at most 2^-8 of the \
     texels' difference";

/// The pointer strategies, the prefix of their job names, and the fewest fixtures
/// (kernel × shape) that must translate for Vulkan under each and then run bit-identically:
/// a ratchet, raised as the lowering grows.
const STRATEGIES: [(&str, &str, usize); 2] = [("physical", "", 376), ("descriptors", "desc.", 364)];

/// What one pointer strategy did to the fixtures.
#[derive(Default)]
struct Tally {
    fixtures: usize,
    translated: usize,
    refused: BTreeMap<String, Vec<String>>,
}

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
    let mut jobs = Vec::new();
    let mut tallies: Vec<Tally> = STRATEGIES.iter().map(|_| Tally::default()).collect();
    let (mut clspv_compiled, mut clspv_refused, mut sources) = (0, Vec::new(), 0);
    let mut failures = Vec::new();
    // (".file::kernel:", the reference's sub-group size) of the kernels that use sub-groups.
    let mut reference_split: Vec<(String, usize)> = Vec::new();
    for cl_path in compare::kernel_sources() {
        let name = cl_path.file_stem().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(&cl_path).unwrap();
        let specs = spec::parse(&src).unwrap_or_else(|e| panic!("{}: {e}", cl_path.display()));
        if specs.is_empty() {
            continue;
        }
        sources += 1;
        if DRIVER_CRASHES.contains(&name.as_str()) {
            eprintln!("{name}: no reference (the Intel driver cannot build its source)");
            continue;
        }
        let references = match compare::References::build(&dev, &src) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: reference build: {e}"));
                continue;
            }
        };
        // The reference outputs, once per spec, for every module of this source: the source
        // as written first, then as OpenCL also lets a device build it where that differs
        // (without contraction, `mad` fused).
        let expected: Vec<_> = specs
            .iter()
            .map(|s| {
                references
                    .all_expected(&dev, s, seed_of(&s.kernel))
                    .map_err(|e| format!("{name}::{} reference: {e}", s.kernel))
            })
            .collect();
        // OpenCL leaves the sub-group size to the device: the size the reference splits each
        // work-group into, for every kernel of a source that uses sub-groups.
        if src.contains("sub_group") {
            for s in &specs {
                // The work-group the Vulkan run uses: where the spec names none, the
                // global size itself may exceed what a work-group may hold.
                let local = s.local.clone().unwrap_or_else(|| default_local(&s.global));
                match dev.sub_group_size(&references.plain, &s.kernel, &local) {
                    Ok(n) => reference_split.push((format!(".{name}::{}:", s.kernel), n)),
                    Err(e) => failures.push(format!("{name}::{}: {e}", s.kernel)),
                }
            }
        }
        // The peer: clspv's module of the same OpenCL C source.
        let clspv_id = format!("clspv.{name}");
        let clspv_spv = work.join(format!("{clspv_id}.spv"));
        match clspv::compile(&cl_path, &clspv_spv).and_then(|()| {
            common::spirv_val_env(&clspv_spv, "vulkan1.1")
                .map_err(|e| format!("clspv's module is invalid: {e}"))
        }) {
            Ok(()) => {
                clspv_compiled += 1;
                for (s, e) in specs.iter().zip(&expected) {
                    match job(&work, &clspv_id, s, e) {
                        Ok(j) => jobs.push(j),
                        Err(e) => failures.push(e),
                    }
                }
            }
            Err(why) => clspv_refused.push(format!("{name}: {why}")),
        }
        for ((strategy, prefix, _), tally) in STRATEGIES.iter().zip(&mut tallies) {
            for dir in common::FIXTURE_DIRS {
                let fixture = Path::new(dir).join(format!("{name}.spir64.bc"));
                // The debug shapes hold a representative set of the kernels.
                if !fixture.exists() {
                    continue;
                }
                let shape = dir.trim_start_matches("tests/fixtures/");
                let id = format!("{prefix}{shape}.{name}");
                tally.fixtures += 1;
                let spv = work.join(format!("{id}.spv"));
                let json_path = work.join(format!("{id}.json"));
                let target = if VULKAN_1_3.contains(&name.as_str()) {
                    "vulkan1.3"
                } else {
                    "vulkan1.2"
                };
                let out = Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
                    .arg("to-spirv")
                    .arg(&fixture)
                    .args(["--target", target, "--vulkan-pointers", strategy, "-o"])
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
                    tally.refused.entry(reason).or_default().push(id.clone());
                    continue;
                }
                tally.translated += 1;
                common::spirv_val_env(&spv, target).unwrap_or_else(|e| {
                    failures.push(format!("{id}: spirv-val: {e}"));
                });
                reflection::agrees(&vkhost(), &spv, &json_path).unwrap_or_else(|e| {
                    failures.push(format!("{id}: {e}"));
                });
                for (s, e) in specs.iter().zip(&expected) {
                    match job(&work, &id, s, e) {
                        Ok(j) => jobs.push(j),
                        Err(e) => failures.push(e),
                    }
                }
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
    let device_split: Option<usize> = stdout
        .lines()
        .find_map(|l| l.strip_prefix("subgroup size: "))
        .and_then(|n| n.trim().parse().ok());
    let is_clspv = |l: &str| {
        l.split_whitespace()
            .nth(1)
            .is_some_and(|n| n.starts_with("clspv."))
    };
    // A job's strategy, from its name's prefix ("" is physical).
    let strategy_of = |name: &str| {
        STRATEGIES
            .iter()
            .rposition(|(_, p, _)| name.starts_with(p))
            .unwrap_or(0)
    };
    let job_name = |l: &str| l.split_whitespace().nth(1).unwrap_or("").to_string();
    let clspv_matched = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") && is_clspv(l))
        .count();
    let clspv_runs = jobs
        .iter()
        .filter(|j| j["name"].as_str().is_some_and(|n| n.starts_with("clspv.")))
        .count();
    let mut clspv_wrong = Vec::new();
    let mut known = Vec::new();
    let mut within: Vec<Vec<String>> = vec![Vec::new(); STRATEGIES.len()];
    for l in stdout.lines() {
        if (l.starts_with("DIFFERS ") || l.starts_with("FAILED ")) && is_clspv(l) {
            // The peer's losses are its own: reported, never our failure.
            clspv_wrong.push(l.to_string());
            continue;
        }
        if let Some(rest) = l.strip_prefix("WITHIN ").filter(|_| !is_clspv(l)) {
            let name = job_name(l);
            within[strategy_of(name.trim_end_matches(':'))].push(rest.to_string());
            continue;
        }
        if l.starts_with("DIFFERS ") || l.starts_with("FAILED ") {
            // Results over sub-groups compare only where both split a work-group alike.
            let split = reference_split
                .iter()
                .find(|(k, n)| l.contains(k.as_str()) && Some(*n) != device_split)
                .filter(|_| l.starts_with("DIFFERS ") && !l.contains(".printed differs"));
            if let Some((_, n)) = split {
                known.push(format!(
                    "{l} (not a fault: OpenCL leaves the sub-group size to the device; the \
                     reference splits a work-group into sub-groups of {n}, this device into \
                     sub-groups of {}, and the reductions and scans over a sub-group differ \
                     with the split)",
                    device_split.map_or("?".to_string(), |d| d.to_string())
                ));
                continue;
            }
            let fault = DRIVER_FAULTS
                .iter()
                .find(|(k, dev, _)| device.contains(dev) && l.contains(&format!(".{k}::")))
                .filter(|_| !l.contains(".printed differs"));
            match fault {
                Some((_, _, why)) => known.push(format!("{l} (known: {why})")),
                None => failures.push(l.to_string()),
            }
        }
    }
    if !stdout.contains("device: ") {
        failures.push(format!(
            "vkhost failed: {}",
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    eprintln!("Vulkan ({device}), --target vulkan1.2:");
    let mut matched = Vec::new();
    for (i, ((strategy, _, _), t)) in STRATEGIES.iter().zip(&tallies).enumerate() {
        let ours = |n: &str| !n.starts_with("clspv.") && strategy_of(n) == i;
        let runs = jobs
            .iter()
            .filter(|j| j["name"].as_str().is_some_and(ours))
            .count();
        let ok = stdout
            .lines()
            .filter(|l| l.starts_with("ok ") && ours(&job_name(l)))
            .count();
        let as_allowed = stdout
            .lines()
            .filter(|l| l.starts_with("ok ") && l.ends_with(')') && ours(&job_name(l)))
            .count();
        matched.push(ok);
        eprintln!(
            "  ours, --vulkan-pointers {strategy}: {} of {} fixtures translated and valid; \
             {ok} of {runs} runs bit-identical to the OpenCL C source on the Intel runtime \
             ({as_allowed} of them to it built without contraction or with mad fused), {} \
             within the precision OpenCL allows there (WITHIN's bounds)",
            t.translated,
            t.fixtures,
            within[i].len()
        );
        for w in &within[i] {
            eprintln!("    {w}");
        }
    }
    eprintln!(
        "  clspv (pyclspv, default options, from the OpenCL C source): {clspv_compiled} of \
         {sources} sources compiled and valid; {clspv_matched} of {clspv_runs} runs \
         bit-identical"
    );
    // Gaps: kernels clspv runs right from their source that we do not run from the fixture
    // clang -O2 made of it.
    let ok_names = |prefix: &str| -> std::collections::BTreeSet<String> {
        stdout
            .lines()
            .filter_map(|l| l.strip_prefix("ok "))
            .filter_map(|n| n.strip_prefix(prefix))
            .map(|n| n.split("::").next().unwrap_or(n).to_string())
            .collect()
    };
    let (theirs, ours) = (ok_names("clspv."), ok_names("modern."));
    let gaps: Vec<&String> = theirs.difference(&ours).collect();
    let beyond: Vec<&String> = ours.difference(&theirs).collect();
    eprintln!(
        "  kernels clspv runs right and we do not ({}): {gaps:?}\n  kernels we run right and \
         clspv does not ({}): {beyond:?}",
        gaps.len(),
        beyond.len()
    );
    if !clspv_wrong.is_empty() {
        eprintln!("  clspv's wrong runs:\n    {}", clspv_wrong.join("\n    "));
    }
    if !clspv_refused.is_empty() {
        eprintln!("  clspv refused:\n    {}", clspv_refused.join("\n    "));
    }
    if !known.is_empty() {
        eprintln!(
            "  the driver's own faults ({}):\n    {}",
            known.len(),
            known.join("\n    ")
        );
    }
    for ((strategy, _, _), t) in STRATEGIES.iter().zip(&tallies) {
        eprintln!(
            "  refused under {strategy}, by reason ({} fixtures):",
            t.fixtures - t.translated
        );
        for (why, ids) in &t.refused {
            eprintln!("    {} × {why}", ids.len());
        }
    }
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
    expected: &Result<Vec<(compare::Matched, compare::Outputs)>, String>,
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
