//! Helpers shared by the test crates.
#![allow(dead_code)]
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every fixture shape `tests/kernels/generate.sh` makes (see README): the last three, with
/// debug information, of a representative set of the kernels.
pub const FIXTURE_DIRS: [&str; 7] = [
    "tests/fixtures/modern",
    "tests/fixtures/legacy",
    "tests/fixtures/o0",
    "tests/fixtures/legacy-o0",
    "tests/fixtures/debug",
    "tests/fixtures/debug-o0",
    "tests/fixtures/legacy-debug",
];

/// xorshift64*: a reproducible stream from its seed (input data for the execution tiers, the
/// fuzzer's mutations). The seed must not be 0.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in 0..n (0 for n = 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Run the `spir-xlate` binary: its exit code (-1 for a signal) and its stderr.
pub fn cli(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// All fixtures, in a stable order.
pub fn fixtures() -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = FIXTURE_DIRS
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap_or_else(|e| panic!("{d}: {e}")))
        .map(|e| e.unwrap().path())
        .collect();
    all.sort();
    all
}

/// `<shape>.<name>` for a fixture path, unique across the fixture directories.
pub fn fixture_id(fixture: &Path) -> String {
    format!(
        "{}.{}",
        fixture
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy(),
        fixture.file_stem().unwrap().to_string_lossy()
    )
}

/// SPIR-V words as the bytes of a little-endian binary module.
pub fn spirv_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The words of a little-endian binary SPIR-V module.
pub fn read_spirv(path: &Path) -> Vec<u32> {
    std::fs::read(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Writes SPIR-V words as a little-endian binary module.
pub fn write_spirv(path: &Path, words: &[u32]) {
    std::fs::write(path, spirv_bytes(words)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// Runs a tool; its stderr is the error.
pub fn run_tool(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| {
        format!(
            "cannot run {:?}: {e} (install it: see .ci/run)",
            cmd.get_program()
        )
    })?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{:?}: {}{}",
            cmd.get_program(),
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        ))
    }
}

// Capabilities the OpenCL SPIR-V environment makes optional that spirv-val's OpenCL
// environments reject (the library's in-process validation treats them the same way).
use spir_xlate::internals::spirv::OPTIONAL_CAPABILITIES;

/// `spirv-val --target-env <opencl env>` on `spv`.
///
/// One known gap of spirv-val: for OpenCL environments it accepts only the capabilities the
/// SPIR-V environment spec guarantees plus ImageBasic and Float64, so it rejects Int64Atomics
/// and Float16, which the same spec makes optional (devices with cl_khr_int64_base_atomics,
/// cl_khr_fp16). A module whose only complaint is one of those capabilities is validated again
/// under the universal environment of the same SPIR-V version, so every rule except that
/// capability check still applies.
pub fn spirv_val(spv: &Path, target: &str) -> Result<(), String> {
    let first = run_tool(
        Command::new("spirv-val")
            .args(["--target-env", target])
            .arg(spv),
    );
    match first {
        Err(e)
            if OPTIONAL_CAPABILITIES
                .iter()
                .any(|c| e.contains(&format!("Capability {c} is not allowed by OpenCL"))) =>
        {
            let universal = match target {
                "opencl2.2" => "spv1.2",
                _ => "spv1.0",
            };
            run_tool(
                Command::new("spirv-val")
                    .args(["--target-env", universal])
                    .arg(spv),
            )
            .map_err(|e| format!("(universal {universal} after the optional-capability gap) {e}"))
        }
        r => r,
    }
}

/// (opcode, operands) of every instruction of a SPIR-V module after its header, read from
/// the words (rspirv's loader refuses the module-scope reflection ExtInsts).
#[allow(dead_code)]
pub fn instructions(w: &[u32]) -> Vec<(u32, Vec<u32>)> {
    let mut out = Vec::new();
    let mut i = 5;
    while i < w.len() {
        let n = (w[i] >> 16) as usize;
        out.push((w[i] & 0xffff, w[i + 1..i + n].to_vec()));
        i += n;
    }
    out
}

/// LLVM 14's verifier (`opt -passes=verify`) on a bitcode or .ll file.
#[allow(dead_code)]
pub fn llvm_verify(path: &Path) -> Result<(), String> {
    run_tool(
        Command::new("/usr/lib/llvm-14/bin/opt")
            .args(["-passes=verify", "-disable-output"])
            .arg(path),
    )
}

/// `spirv-val` for a Vulkan target (`vulkan1.2`), with the scalar block layout our Vulkan
/// modules use for buffer memory (the reflection asks hosts for `scalarBlockLayout`).
#[allow(dead_code)]
pub fn spirv_val_env(spv: &Path, target: &str) -> Result<(), String> {
    run_tool(
        Command::new("spirv-val")
            .args(["--target-env", target, "--scalar-block-layout"])
            .arg(spv),
    )
}

std::thread_local! {
    /// Set by the oracle-tier runs of the property tests (`-- --ignored`): every module a
    /// property writes is also checked by the spirv-val binary.
    static SPIRV_VAL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Ask this thread's property runs to check every module with spirv-val too.
#[allow(dead_code)]
pub fn check_with_spirv_val() {
    SPIRV_VAL.with(|v| v.set(true));
}

/// Whether this thread's property runs check every module with spirv-val too.
#[allow(dead_code)]
pub fn checking_with_spirv_val() -> bool {
    SPIRV_VAL.with(|v| v.get())
}

/// `f` of every item, computed on as many threads as the machine has cores, in the items'
/// order. The oracle tiers spend their time waiting on the tools they spawn, one fixture at a
/// time; this keeps every core busy on the long ones.
#[allow(dead_code)]
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers.min(items.len()))
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break mine };
                        mine.push((i, f(item)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Rust's debug text in a message meant for users (the rule is the fuzz campaign's too:
/// `spir_xlate::internals::debug_text`).
#[allow(dead_code)]
pub fn debug_text(message: &str) -> Option<&'static str> {
    spir_xlate::internals::debug_text(message)
}

/// DPC++'s translator in the oracle venv (.ci/run installs it).
pub fn dpcpp() -> PathBuf {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join(".oracles/venv/lib");
    let found = std::fs::read_dir(&lib).ok().and_then(|d| {
        d.flatten()
            .map(|e| {
                e.path()
                    .join("site-packages/dpcpp_llvm_spirv/bin/llvm-spirv")
            })
            .find(|p| p.exists())
    });
    found.expect("DPC++'s llvm-spirv in .oracles/venv (pip install dpcpp-llvm-spirv; .ci/run)")
}

/// The `zig` of PyPI's `ziglang` (installed by .ci/run into `.oracles/venv`): its `zig clang`
/// is clang 22 with LLVM's SPIR-V backend, the producer clang itself uses since LLVM 20.
pub fn zig() -> PathBuf {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join(".oracles/venv/lib");
    let found = std::fs::read_dir(&lib).ok().and_then(|d| {
        d.flatten()
            .map(|e| e.path().join("site-packages/ziglang/zig"))
            .find(|p| p.exists())
    });
    found.expect("zig in .oracles/venv (pip install ziglang; .ci/run)")
}

/// The resource directory of `clang` (`clang-14`, `clang-19`): where its `opencl-c.h` and
/// `opencl-c-base.h` are, under `include/`.
pub fn resource_dir(clang: &str) -> PathBuf {
    let out = Command::new(clang)
        .arg("-print-resource-dir")
        .output()
        .unwrap_or_else(|e| panic!("{clang}: {e}"));
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

pub mod untyped;
