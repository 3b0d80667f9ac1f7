//! What one execution of the coverage-guided campaign does (scripts/fuzz_campaign.sh runs it;
//! tests/fuzz_readers.rs is the bounded, uninstrumented run of the same rules in `cargo test`).
//!
//! Each target takes the fuzzer's bytes as one input file and drives every road behind its
//! reader. A finding aborts the process (libFuzzer keeps the input as a crash artifact):
//!
//! * a panic anywhere in our code;
//! * an internal error (a bug of ours: the input was read, but what we made of it could not be
//!   written or did not validate);
//! * a SPIR-V module returned as a success that the validator rejects;
//! * a refusal whose message carries Rust debug text instead of words a user knows.
//!
//! Malformed input, unsupported constructs and resource limits are the expected answers. LLVM's
//! bitcode reader runs first in a contained child (as the library always does): its aborts on
//! malformed bitcode are answered there, and only input LLVM accepted is read in this process,
//! where the coverage counters see our reader.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use spir_xlate::{internals, ErrorKind, Flavor, Options, SpirOptions, TargetEnv, VulkanPointers};

/// libFuzzer's panic hook aborts on every panic, also those our reader catches on purpose (the
/// llvm-ir conversion's, on constructs it does not model); ours prints nothing, and a panic
/// that reaches [`run`] aborts there with its message.
fn quiet_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| std::panic::set_hook(Box::new(|_| {})));
}

/// Run one execution; a finding prints what it was and aborts.
fn run(what: &str, job: impl FnOnce() -> Result<(), String>) {
    quiet_panics();
    let finding = match catch_unwind(AssertUnwindSafe(job)) {
        Ok(Ok(())) => return,
        Ok(Err(e)) => e,
        Err(p) => format!("panic: {}", internals::panic_message(p.as_ref())),
    };
    eprintln!("FINDING ({what}): {finding}");
    std::process::abort();
}

/// An error's verdict: an internal error is a finding (when `counts`), so is Rust debug text.
fn judge(stage: &str, e: &spir_xlate::Error, counts: bool) -> Result<(), String> {
    let text = e.to_string();
    if let Some(piece) = internals::debug_text(&text) {
        return Err(format!("{stage}: Rust debug text ({piece}) in: {text}"));
    }
    if counts && matches!(e.kind, ErrorKind::Internal(_)) {
        return Err(format!("{stage}: {text}"));
    }
    Ok(())
}

/// Every writer behind a reader, from its graph: the SPIR-V writer (OpenCL), the Vulkan
/// lowering in both pointer strategies, both SPIR flavors and OpenCL C. `counts` says whether
/// an internal error is ours (input the validator accepts, or any graph of a bitcode reader).
fn write_all(m: &spir_xlate::ir::Module, counts: &dyn Fn() -> bool) -> Result<(), String> {
    let vulkan = TargetEnv::Vulkan12;
    let targets = [
        Options::default(),
        Options {
            target: vulkan,
            vulkan_pointers: VulkanPointers::Physical,
            ..Default::default()
        },
        Options {
            target: vulkan,
            vulkan_pointers: VulkanPointers::Descriptors,
            ..Default::default()
        },
    ];
    for opts in &targets {
        let stage = format!("SPIR-V writer ({})", opts.target.name());
        // Validated in this process, not in a child as the library does: a fork per module
        // would cost most of an execution, and SPIRV-Tools dying on what we wrote is a
        // finding too.
        match internals::assemble_spirv(m, opts) {
            Ok(out) => {
                if let Err(e) = internals::spirv::check(&out.words, opts.target) {
                    if counts() {
                        return Err(format!("{stage}: invalid SPIR-V written: {e}"));
                    }
                }
            }
            Err(e) => judge(&stage, &e, counts())?,
        }
    }
    for flavor in [Flavor::Spir, Flavor::SpirvIr] {
        let opts = SpirOptions {
            flavor,
            ..Default::default()
        };
        if let Err(e) = internals::spir::write(m, &opts) {
            judge(&format!("SPIR writer ({flavor:?} flavor)"), &e, counts())?;
        }
    }
    if let Err(e) = internals::clc::write(m) {
        judge("OpenCL C writer", &e, counts())?;
    }
    Ok(())
}

/// SPIR (bitcode or LLVM IR text): read (LLVM's reader contained first), then every writer.
pub fn spir_reader(bytes: &[u8]) {
    run("SPIR reader", || {
        let m = match internals::read_spir(bytes) {
            Ok(m) => m,
            Err(e) => return judge("SPIR reader", &e, true),
        };
        write_all(&m, &|| true)
    });
}

/// SPIR-V (either byte order): read, then every writer; a writer's internal error counts only
/// when the input is valid SPIR-V (other producers write modules the validator rejects, and
/// the reader takes them).
pub fn spirv_reader(bytes: &[u8]) {
    run("SPIR-V reader", || {
        let Ok(words) = internals::spirv::words_from_bytes(bytes) else {
            return Ok(());
        };
        let m = match internals::spirv::read(&words) {
            Ok(m) => m,
            Err(e) => return judge("SPIR-V reader", &e, false),
        };
        write_all(&m, &|| internals::spirv::check_input(&words).is_ok())
    });
}
