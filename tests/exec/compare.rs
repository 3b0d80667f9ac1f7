//! Running one kernel spec and comparing outputs, shared by the execution tiers.
#![allow(dead_code)]
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{cl, common, spec};

/// Our SPIR-V for `fixture`, written by the `spir-xlate` binary into `work` (the library links
/// LLVM 14, which must not share a process with a driver's LLVM).
pub fn our_spirv(fixture: &Path, work: &Path) -> Result<PathBuf, String> {
    let spv = work.join(format!("{}.spv", common::fixture_id(fixture)));
    common::run_tool(
        Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
            .arg("to-spirv")
            .arg(fixture)
            .arg("-o")
            .arg(&spv),
    )?;
    Ok(spv)
}

/// The name our OpenCL C of `fixture` is kept under (`SPIR_XLATE_OPENCL_C_KEEP`) and read
/// from (`SPIR_XLATE_OPENCL_C_DIR`).
pub fn opencl_c_file(fixture: &Path) -> String {
    format!("{}.out.cl", common::fixture_id(fixture))
}

/// Our OpenCL C for `fixture` (`to-opencl-c`, by the binary) and the `-cl-std=` option its
/// first line names.
///
/// `SPIR_XLATE_OPENCL_C_KEEP=DIR` also keeps each program in DIR; `SPIR_XLATE_OPENCL_C_DIR=DIR`
/// reads them from there instead of translating (a machine without the tool: the GPU
/// machine, docs/testing.md).
pub fn our_opencl_c(fixture: &Path, work: &Path) -> Result<(String, String), String> {
    let file = opencl_c_file(fixture);
    let cl = match std::env::var_os("SPIR_XLATE_OPENCL_C_DIR") {
        Some(dir) => Path::new(&dir).join(&file),
        None => {
            let cl = work.join(&file);
            common::run_tool(
                Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
                    .arg("to-opencl-c")
                    .arg(fixture)
                    .arg("-o")
                    .arg(&cl),
            )?;
            if let Some(keep) = std::env::var_os("SPIR_XLATE_OPENCL_C_KEEP") {
                std::fs::create_dir_all(&keep).map_err(|e| e.to_string())?;
                std::fs::copy(&cl, Path::new(&keep).join(&file)).map_err(|e| e.to_string())?;
            }
            cl
        }
    };
    let text = std::fs::read_to_string(&cl).map_err(|e| format!("{}: {e}", cl.display()))?;
    let std = text
        .lines()
        .next()
        .and_then(|l| l.split("-cl-std=").nth(1))
        .and_then(|r| r.split(')').next())
        .ok_or_else(|| format!("{}: no -cl-std= on its first line", cl.display()))?
        .to_string();
    Ok((text, format!("-cl-std={std}")))
}

/// The OpenCL C sources of the fixtures (tests/kernels/*.cl), in a stable order.
pub fn kernel_sources() -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = std::fs::read_dir("tests/kernels")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    sources.sort();
    // `SPIR_XLATE_EXEC_ONLY=a,b`: only those kernels' sources, each of which must exist
    // (a misspelt name would otherwise run nothing and pass).
    if let Ok(only) = std::env::var("SPIR_XLATE_EXEC_ONLY") {
        let names: Vec<&str> = only.split(',').map(str::trim).collect();
        sources.retain(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy();
            names.contains(&stem.as_ref())
        });
        assert_eq!(
            sources.len(),
            names.len(),
            "SPIR_XLATE_EXEC_ONLY={only}: not every name is a tests/kernels/*.cl source"
        );
    }
    sources
}

/// FNV-1a of the kernel name: inputs differ between kernels, not between runs.
pub fn seed_of(kernel: &str) -> u64 {
    kernel.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The index under which `run_spec` returns what the kernel printed (`printf`).
pub const PRINTED: usize = usize::MAX;

/// How a failure names output `i` of `run_spec`.
pub fn output_name(i: usize) -> String {
    match i {
        PRINTED => "the printed output".to_string(),
        i => format!("argument {i}"),
    }
}

/// Run one spec: the compared buffers by argument index, then what the kernel printed
/// (`PRINTED`: its lines sorted, since work-items print in no fixed order).
pub fn run_spec(
    dev: &cl::Device,
    program: &cl::Program,
    s: &spec::ExecSpec,
    seed: u64,
) -> Result<Vec<(usize, Vec<u8>)>, String> {
    let bound = spec::bind(dev, s, seed)?;
    let (ran, printed) = capture_stdout(|| {
        for (kernel, global, local, args) in s.steps() {
            let args: Vec<&cl::Arg> = args.iter().map(|&i| &bound.args[i]).collect();
            dev.run(program, kernel, &args, global, local)?;
        }
        Ok::<(), String>(())
    })?;
    ran?;
    let mut outputs = bound.outputs(dev)?;
    let text = String::from_utf8_lossy(&printed);
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    outputs.push((PRINTED, lines.join("\n").into_bytes()));
    Ok(outputs)
}

/// Run `f` with the process's standard output (file descriptor 1, where drivers print
/// `printf`'s output) going to a file, and return what was written there.
fn capture_stdout<T>(f: impl FnOnce() -> T) -> Result<(T, Vec<u8>), String> {
    use std::os::fd::AsRawFd;
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("spir-xlate-printed-{}-{n}", std::process::id()));
    let file = std::fs::File::create(&path).map_err(|e| e.to_string())?;
    // SAFETY: plain descriptor calls; descriptor 1 is restored before returning.
    let saved = unsafe {
        libc::fflush(std::ptr::null_mut());
        let saved = libc::dup(1);
        libc::dup2(file.as_raw_fd(), 1);
        saved
    };
    let value = f();
    unsafe {
        libc::fflush(std::ptr::null_mut());
        libc::dup2(saved, 1);
        libc::close(saved);
    }
    drop(file);
    let printed = std::fs::read(&path).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&path);
    Ok((value, printed))
}

/// Where outputs `a` and `b` (output `i` of `run_spec`) first differ: the lines, for what
/// was printed; the bytes around it otherwise.
pub fn difference(i: usize, a: &[u8], b: &[u8]) -> String {
    if i != PRINTED {
        return first_difference(a, b);
    }
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    let mut lines = a.lines().zip(b.lines()).filter(|(x, y)| x != y);
    match lines.next() {
        Some((x, y)) => format!("line: reference {x:?} vs {y:?}"),
        None => format!("{} vs {} lines", a.lines().count(), b.lines().count()),
    }
}

pub fn first_difference(a: &[u8], b: &[u8]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => format!(
            "byte {i}: reference {:02x?} vs {:02x?}",
            &a[i & !7..(i & !7) + 8.min(a.len() - (i & !7))],
            &b[i & !7..(i & !7) + 8.min(b.len() - (i & !7))]
        ),
        None => format!("lengths {} vs {}", a.len(), b.len()),
    }
}

/// Each output of `got` that differs from `expected` (`run_spec`'s answers for one kernel),
/// named and located.
pub fn differences(expected: &[(usize, Vec<u8>)], got: &[(usize, Vec<u8>)]) -> Vec<String> {
    expected
        .iter()
        .zip(got)
        .filter(|((_, eb), (_, gb))| eb != gb)
        .map(|((i, eb), (_, gb))| {
            format!("{} differs at {}", output_name(*i), difference(*i, eb, gb))
        })
        .collect()
}

/// The ways OpenCL C lets a kernel's source compute `a * b + c`, each as the driver builds
/// it: as written (the driver contracts where the source allows it), without contraction
/// (`#pragma OPENCL FP_CONTRACT OFF`, and `mad` defined as a product and a sum: each
/// rounded), and with every `mad` fused (`mad` defined as `fma`: OpenCL's full profile
/// implements mad as either). A run that
/// equals one of them bit for bit computes what OpenCL allows; which one a candidate
/// matches is the candidate's (or its driver's) choice, not a difference.
pub struct References {
    source: String,
    /// The source as written.
    pub plain: cl::Program,
    /// Built when first asked for; None inside where the driver cannot build the variant.
    variants: [std::cell::OnceCell<Option<cl::Program>>; 2],
}

/// A run's outputs by argument index (`run_spec`'s answer).
pub type Outputs = Vec<(usize, Vec<u8>)>;

/// What a candidate's outputs equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matched {
    Plain,
    Uncontracted,
    MadFused,
    /// Within `LINEAR_FILTER_BOUND` of the source where a kernel samples with linear
    /// filtering.
    LinearFiltered,
    /// A program of several kernels whose float outputs each lie within `CONTRACTION_BOUND`
    /// of the source as written or built without contraction: OpenCL lets a driver contract
    /// each `a * b + c` (and fuse each `mad`) or not on its own, so a run whose kernels chose
    /// differently equals no one build of the source.
    ContractionMixed,
}

/// How far a float output of a kernel that samples with linear filtering may lie from the
/// source's, relative to its magnitude (to 1 below it). OpenCL does not fix linear
/// filtering's arithmetic bit for bit: the Intel runtime's own results move by a few ulps
/// with how it compiles the calling kernel (the same source built with and without
/// `FP_CONTRACT OFF` differs there on an AVX-512 machine, by up to 2^-18), and GPUs weigh
/// texels with 8-bit fractions.
pub const LINEAR_FILTER_BOUND: f64 = 1.0 / 65536.0;

/// How far a float output of a program of several kernels may lie from the nearer of the
/// source as written and the source without contraction, relative to its magnitude (to 1
/// below it): a few roundings of a product, carried through the kernels after it.
pub const CONTRACTION_BOUND: f64 = 1.0 / 1_048_576.0;

impl Matched {
    pub fn describe(self) -> &'static str {
        match self {
            Matched::Plain => "the source",
            Matched::Uncontracted => "the source without contraction",
            Matched::MadFused => "the source with mad fused",
            Matched::LinearFiltered => "the source within linear filtering's precision",
            Matched::ContractionMixed => {
                "the source within contraction's freedom (its kernels contracted differently)"
            }
        }
    }

    /// Not bit for bit, but within the precision OpenCL allows there.
    pub fn is_within(self) -> bool {
        matches!(self, Matched::LinearFiltered | Matched::ContractionMixed)
    }
}

impl References {
    pub fn build(dev: &cl::Device, source: &str) -> Result<References, String> {
        Ok(References {
            plain: dev.program_from_source(source)?,
            source: source.to_string(),
            variants: Default::default(),
        })
    }

    /// The variant's source: the pragma or the definition after the `//@std` line's place
    /// (the first line), which `cl::cl_std` reads wherever it is.
    fn variant_source(&self, which: Matched) -> Option<String> {
        let head = match which {
            Matched::Plain | Matched::LinearFiltered | Matched::ContractionMixed => return None,
            Matched::Uncontracted if !self.source.contains("mad(") => {
                "#pragma OPENCL FP_CONTRACT OFF\n"
            }
            Matched::Uncontracted => {
                "#pragma OPENCL FP_CONTRACT OFF\n#define mad(a, b, c) ((a) * (b) + (c))\n"
            }
            // Only where the source calls mad.
            Matched::MadFused if !self.source.contains("mad(") => return None,
            Matched::MadFused => "#define mad(a, b, c) fma(a, b, c)\n",
        };
        Some(format!("{head}{}", self.source))
    }

    fn variant(&self, dev: &cl::Device, which: Matched) -> Option<&cl::Program> {
        let slot = match which {
            Matched::Plain => return Some(&self.plain),
            Matched::LinearFiltered | Matched::ContractionMixed => return None,
            Matched::Uncontracted => &self.variants[0],
            Matched::MadFused => &self.variants[1],
        };
        slot.get_or_init(|| {
            self.variant_source(which)
                .and_then(|s| dev.program_from_source(&s).ok())
        })
        .as_ref()
    }

    /// The outputs of spec `s` under each reference that differs from the plain one
    /// (plain first; the variants the driver builds).
    pub fn all_expected(
        &self,
        dev: &cl::Device,
        s: &spec::ExecSpec,
        seed: u64,
    ) -> Result<Vec<(Matched, Outputs)>, String> {
        let plain = run_spec(dev, &self.plain, s, seed)?;
        let mut out = vec![(Matched::Plain, plain)];
        for which in [Matched::Uncontracted, Matched::MadFused] {
            if let Some(p) = self.variant(dev, which) {
                let e = run_spec(dev, p, s, seed)?;
                if out.iter().all(|(_, o)| *o != e) {
                    out.push((which, e));
                }
            }
        }
        Ok(out)
    }

    /// Which reference `got` (the outputs of spec `s`) equals, trying the plain one first;
    /// else the differences from the plain one.
    pub fn matches(
        &self,
        dev: &cl::Device,
        s: &spec::ExecSpec,
        seed: u64,
        got: &[(usize, Vec<u8>)],
    ) -> Result<Result<Matched, Vec<String>>, String> {
        let plain = run_spec(dev, &self.plain, s, seed)?;
        let diffs = differences(&plain, got);
        if diffs.is_empty() {
            return Ok(Ok(Matched::Plain));
        }
        for which in [Matched::Uncontracted, Matched::MadFused] {
            if let Some(p) = self.variant(dev, which) {
                if differences(&run_spec(dev, p, s, seed)?, got).is_empty() {
                    return Ok(Ok(which));
                }
            }
        }
        if self.samples_linearly(s) && within(s, &[&plain], got, LINEAR_FILTER_BOUND) {
            return Ok(Ok(Matched::LinearFiltered));
        }
        if !s.then.is_empty() {
            if let Some(p) = self.variant(dev, Matched::Uncontracted) {
                let uncontracted = run_spec(dev, p, s, seed)?;
                if within(s, &[&plain, &uncontracted], got, CONTRACTION_BOUND) {
                    return Ok(Ok(Matched::ContractionMixed));
                }
            }
        }
        Ok(Err(diffs))
    }

    /// The kernel samples with linear filtering: a literal sampler of the source or a
    /// sampler argument of the spec asks for it.
    fn samples_linearly(&self, s: &spec::ExecSpec) -> bool {
        self.source.contains("CLK_FILTER_LINEAR")
            || s.args
                .iter()
                .any(|a| matches!(a, spec::ArgSpec::Sampler { filter, .. } if *filter == spec::FILTER_LINEAR))
    }
}

/// Every output that differs from each of `expected` is a buffer of floats (or doubles),
/// each of whose elements lies within `bound` of the nearest expected one, relative to its
/// magnitude (to 1 below it); bit patterns that differ in NaN-ness, or outputs of other
/// types, do not.
fn within(s: &spec::ExecSpec, expected: &[&Outputs], got: &[(usize, Vec<u8>)], bound: f64) -> bool {
    let size = |i: usize| match s.args.get(i) {
        Some(spec::ArgSpec::Buffer {
            elem: spec::Elem::F32,
            ..
        }) => Some(4),
        Some(spec::ArgSpec::Buffer {
            elem: spec::Elem::F64,
            ..
        }) => Some(8),
        _ => None,
    };
    let value = |x: &[u8]| match x.len() {
        4 => f32::from_le_bytes([x[0], x[1], x[2], x[3]]) as f64,
        _ => f64::from_le_bytes(x.try_into().unwrap_or([0; 8])),
    };
    let near = |a: &[u8], b: &[u8]| {
        let (a, b) = (value(a), value(b));
        (a - b).abs() <= bound * a.abs().max(b.abs()).max(1.0)
    };
    expected.iter().all(|e| e.len() == got.len())
        && got.iter().enumerate().all(|(k, (i, g))| {
            let options: Vec<&Vec<u8>> = expected.iter().map(|e| &e[k].1).collect();
            if options.contains(&g) {
                return true;
            }
            let Some(n) = size(*i) else { return false };
            g.chunks_exact(n).enumerate().all(|(j, x)| {
                options.iter().any(|o| {
                    o.len() == g.len() && {
                        let y = &o[j * n..j * n + n];
                        x == y || near(x, y)
                    }
                })
            })
        })
}

/// Run a tier's `run_all` on a thread with a 1 GiB stack, its panic passed on: the Intel
/// driver compiles on the calling thread, and its vectorizer recurses deeply (it overflows a
/// test thread's 2 MiB stack on loops_phis).
#[allow(dead_code)]
pub fn on_a_deep_stack(run_all: fn()) {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(run_all)
        .unwrap()
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}
