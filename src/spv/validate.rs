//! In-process validation of every SPIR-V module before it leaves the library.
//!
//! SPIRV-Tools' validator is built into the binary (the `spirv-tools` crate compiles it), so no
//! module is written that `spirv-val` would reject for the chosen target environment. A module
//! that fails is an internal error naming the validator's words and the instruction it points
//! at; the caller gets no bytes.
//!
//! Environments: `opencl2.1` and `opencl2.2` validate under SPIRV-Tools' OpenCL 2.1 / 2.2 full
//! profiles. SPIRV-Tools has no OpenCL 3.0 environment: `opencl3.0` modules validate under the
//! universal environment of their own SPIR-V version.
//!
//! One known gap of SPIRV-Tools' OpenCL environments: they accept only the capabilities the
//! OpenCL SPIR-V environment guarantees (plus ImageBasic and Float64) and so reject
//! Int64Atomics and Float16, which the same environment makes optional (devices with
//! `cl_khr_int64_base_atomics`, `cl_khr_fp16`). A module whose complaint is one of those
//! capabilities is validated again under the universal environment of its version, where every
//! other rule still applies. The oracle tier's `spirv-val` helper does the same.
//!
//! Two of the validator's whole-module routines are quadratic as SPIRV-Tools has them (the
//! search for recursive entry points, and the check that each block follows its dominator,
//! whose dominators it also computes through hash maps). The SPIRV-Tools built here is
//! patched (vendor/spirv-tools-sys, `source/val/validate_linear.cpp`; vendor/README.md) with
//! linear ones over vectors that give the same answers.

use spirv_tools::val::Validator;
use spirv_tools::TargetEnv as ValEnv;

use crate::diag::{Error, Result};
use crate::options::TargetEnv;

/// Capabilities optional in the OpenCL SPIR-V environment that SPIRV-Tools' OpenCL
/// environments reject outright.
pub const OPTIONAL_CAPABILITIES: [&str; 2] = ["Int64Atomics", "Float16"];

/// The universal environment of a module's own version (header word 1: `0x00MMmm00`).
fn universal(words: &[u32]) -> ValEnv {
    match words.get(1).map(|v| (v >> 8) & 0xff) {
        Some(0) | None => ValEnv::Universal_1_0,
        Some(1) => ValEnv::Universal_1_1,
        Some(2) => ValEnv::Universal_1_2,
        Some(3) => ValEnv::Universal_1_3,
        Some(4) => ValEnv::Universal_1_4,
        Some(5) => ValEnv::Universal_1_5,
        _ => ValEnv::Universal_1_6,
    }
}

/// The SPIRV-Tools environment that judges modules for `target`.
fn environment(target: TargetEnv, words: &[u32]) -> ValEnv {
    match target {
        TargetEnv::OpenCl21 => ValEnv::OpenCL_2_1,
        TargetEnv::OpenCl22 => ValEnv::OpenCL_2_2,
        TargetEnv::OpenCl30 => universal(words),
        TargetEnv::Vulkan11 if words.get(1).is_some_and(|v| (v >> 8) & 0xff >= 4) => {
            ValEnv::Vulkan_1_1_Spirv_1_4
        }
        TargetEnv::Vulkan11 => ValEnv::Vulkan_1_1,
        TargetEnv::Vulkan12 => ValEnv::Vulkan_1_2,
        TargetEnv::Vulkan13 => ValEnv::Vulkan_1_3,
    }
}

fn is_vulkan(env: ValEnv) -> bool {
    matches!(
        env,
        ValEnv::Vulkan_1_1 | ValEnv::Vulkan_1_1_Spirv_1_4 | ValEnv::Vulkan_1_2 | ValEnv::Vulkan_1_3
    )
}

/// Validate under one environment; the validator's message (with the instruction it names).
fn run(words: &[u32], env: ValEnv) -> std::result::Result<(), String> {
    let validator = spirv_tools::val::create(Some(env));
    // Vulkan modules lay buffer memory out as OpenCL C does (natural alignment), which is
    // the scalar block layout (VK_EXT_scalar_block_layout, core in Vulkan 1.2): the
    // reflection tells hosts to enable it.
    let options = is_vulkan(env).then(|| spirv_tools::val::ValidatorOptions {
        scalar_block_layout: true,
        ..Default::default()
    });
    validator
        .validate(words, options)
        .map_err(|e| match e.diagnostic {
            Some(d) => {
                let note = d.notes.lines().map(str::trim).find(|l| !l.is_empty());
                match note {
                    Some(n) => format!("{} (at `{n}`)", d.message.trim()),
                    None => d.message.trim().to_string(),
                }
            }
            None => format!("the validator failed ({:?})", e.inner),
        })
}

/// Validate under one environment without SPIRV-Tools' friendly names: only whether the module
/// is valid. SPIRV-Tools names every id for its messages before it validates, unless told not
/// to, and that costs: a third of all validation on a 100 k-instruction module, and its name
/// mapper is quadratic in how often a name repeats (a module of 500 kernels, each naming
/// `%entry` and its values alike, spent 85% of 6.5 G instructions there). The `spirv-tools`
/// crate does not expose the switch, so this pass calls SPIRV-Tools' C interface itself.
fn valid_unnamed(words: &[u32], env: ValEnv) -> bool {
    use spirv_tools_sys::{diagnostics, shared, val};
    extern "C" {
        // SPIRV-Tools' libspirv.h; compiled into the binary with the rest of SPIRV-Tools.
        fn spvValidatorOptionsSetFriendlyNames(options: *mut val::ValidatorOptions, val: bool);
    }
    // SAFETY: SPIRV-Tools' C interface, used as documented: a context and options created
    // here and destroyed before returning, a binary borrowed for the call, and the
    // diagnostic it may allocate destroyed.
    unsafe {
        let context = shared::context_create(env);
        let options = val::validator_options_create();
        spvValidatorOptionsSetFriendlyNames(options, false);
        if is_vulkan(env) {
            val::validator_options_set_scalar_block_layout(options, true);
        }
        let binary = shared::Binary {
            code: words.as_ptr(),
            size: words.len(),
        };
        let mut diagnostic: *mut diagnostics::Diagnostic = std::ptr::null_mut();
        let result = val::validate_with_options(context, options, &binary, &mut diagnostic);
        diagnostics::diagnostic_destroy(diagnostic);
        val::validator_options_destroy(options);
        shared::context_destroy(context);
        result == shared::SpirvResult::Success
    }
}

/// `words` without OpName and OpMemberName, which only [`valid_unnamed`]'s messages would use:
/// the validator parses and checks each like any instruction (on straight-line code, a name
/// per value doubles its work).
fn without_names(words: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(words.len());
    out.extend_from_slice(&words[..words.len().min(5)]);
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        let op = words[i] & 0xffff;
        if count == 0 || i + count > words.len() {
            // Malformed: leave the rest for the validator to name.
            out.extend_from_slice(&words[i..]);
            break;
        }
        if op != spirv::Op::Name as u32 && op != spirv::Op::MemberName as u32 {
            out.extend_from_slice(&words[i..i + count]);
        }
        i += count;
    }
    out
}

/// Validate under one environment: first without names (see [`valid_unnamed`] and
/// [`without_names`]), and with them for the message when that fails.
fn run_fast(words: &[u32], env: ValEnv) -> std::result::Result<(), String> {
    match valid_unnamed(&without_names(words), env) {
        true => Ok(()),
        false => run(words, env).and(Err(
            "the validator rejected the module without friendly names and accepted it with them"
                .to_string(),
        )),
    }
}

/// Check `words` for `target`; `Err` carries the validator's words, for messages.
pub fn check(words: &[u32], target: TargetEnv) -> std::result::Result<(), String> {
    match run_fast(words, environment(target, words)) {
        Err(e)
            if OPTIONAL_CAPABILITIES
                .iter()
                .any(|c| e.contains(&format!("Capability {c} is not allowed by OpenCL"))) =>
        {
            run_fast(words, universal(words))
        }
        r => r,
    }
}

/// Validate a module the writer made for `target`: an internal error if it is invalid.
/// SPIRV-Tools asserts (aborts) on some malformed modules, and what we write from a
/// malformed input may be one: the validator runs in a contained child (`crate::contain`).
pub fn validate(words: &[u32], target: TargetEnv) -> Result<()> {
    use crate::contain::Work;
    use crate::options::Limits;
    let limits = Limits::default().for_input(words.len() as u64 * 4);
    crate::contain::run(Work::ValidateOutput, limits, || {
        check(words, target).map_err(|e| {
            Error::internal(format!(
                "the SPIR-V written for {} is invalid, so none is written: {e}",
                target.name()
            ))
        })
    })
}

/// Check a module given to us as input: malformed if SPIRV-Tools' validator rejects it in the
/// universal environment of its version (the most permissive one: the reader decides itself
/// what it supports).
///
/// SPIRV-Tools asserts (aborts) on some malformed modules, so untrusted input is validated in
/// a contained child process (`crate::contain`).
pub fn check_input(words: &[u32]) -> Result<()> {
    use crate::contain::Work;
    use crate::options::Limits;
    let limits = Limits::default().for_input(words.len() as u64 * 4);
    crate::contain::run(Work::ValidateInput, limits, || {
        run_fast(words, universal(words))
            .map_err(|e| Error::malformed(format!("the SPIR-V module is invalid: {e}")))
    })
}

/// SPIRV-Tools' disassembly (what `spirv-dis` prints) of a module.
pub fn disassemble(words: &[u32]) -> Result<String> {
    use spirv_tools::assembler::{Assembler, DisassembleOptions};
    let asm = spirv_tools::assembler::create(Some(universal(words)));
    let options = DisassembleOptions {
        print: false,
        color: false,
        indent: true,
        show_byte_offset: false,
        no_header: false,
        use_friendly_names: true,
        comment: false,
    };
    match asm.disassemble(words, options) {
        Ok(Some(text)) => Ok(text),
        Ok(None) => Err(Error::internal("the disassembler returned no text")),
        Err(e) => Err(Error::internal(format!("cannot disassemble: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header and a capability only: no memory model, which every module needs.
    #[test]
    fn a_module_without_memory_model_is_refused() {
        let words = [0x0723_0203, 0x0001_0000, 0, 10, 0, (2 << 16) | 17, 6];
        let e = validate(&words, TargetEnv::OpenCl21).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("internal error"), "{text}");
        assert!(text.contains("opencl2.1"), "{text}");
    }

    fn assemble(text: &str) -> Vec<u32> {
        use spirv_tools::assembler::{Assembler, AssemblerOptions};
        let asm = spirv_tools::assembler::create(Some(ValEnv::Universal_1_3));
        asm.assemble(text, AssemblerOptions::default())
            .unwrap_or_else(|e| panic!("{e}\n{text}"))
            .as_words()
            .to_vec()
    }

    /// A kernel `k` of one function: OpName lines `names`, an entry block that ends in
    /// `entry` (which may branch on `%c`, a true constant), then `blocks`.
    fn one_function_kernel(names: &str, entry: &str, blocks: &str) -> Vec<u32> {
        assemble(&format!(
            "OpCapability Addresses
             OpCapability Kernel
             OpMemoryModel Physical64 OpenCL
             OpEntryPoint Kernel %k \"k\"
             {names}
             %void = OpTypeVoid
             %bool = OpTypeBool
             %c = OpConstantTrue %bool
             %fn = OpTypeFunction %void
             %k = OpFunction %void None %fn
             %entry = OpLabel
             {entry}
             {blocks}
             OpFunctionEnd"
        ))
    }

    /// A compute shader whose entry point calls `%a`; `calls` adds the other calls.
    fn shader_calling(calls: &str) -> Vec<u32> {
        let mut text = String::from(
            "OpCapability Shader
             OpMemoryModel Logical GLSL450
             OpEntryPoint GLCompute %main \"main\"
             OpExecutionMode %main LocalSize 1 1 1
             %void = OpTypeVoid
             %fn = OpTypeFunction %void
             %main = OpFunction %void None %fn
             %l = OpLabel
             %r = OpFunctionCall %void %a
             OpReturn
             OpFunctionEnd\n",
        );
        // Functions %a, %b, %c, %d; "a>b" makes %a call %b.
        for f in ["a", "b", "c", "d"] {
            text += &format!("%{f} = OpFunction %void None %fn\n%l{f} = OpLabel\n");
            for (i, callee) in calls
                .split_whitespace()
                .filter_map(|c| c.strip_prefix(&format!("{f}>")))
                .enumerate()
            {
                text += &format!("%r{f}{i} = OpFunctionCall %void %{callee}\n");
            }
            text += "OpReturn\nOpFunctionEnd\n";
        }
        assemble(&text)
    }

    /// Vulkan forbids an entry point whose call graph has a cycle. The validator finds those
    /// entry points in linear time (the vendored `validate_linear.cpp`): what it finds must be what
    /// SPIRV-Tools' own search finds (a debug build also compares the two on every call).
    #[test]
    fn recursive_entry_points_are_found() {
        let cyclic = "call graph with cycles";
        for (calls, recursive) in [
            ("a>b b>c c>d", false),
            ("a>b a>c b>d c>d", false),
            ("a>a", true),
            ("a>b b>c c>d d>b", true),
            ("a>b b>a", true),
            ("a>b c>d d>c", false), // a cycle no entry point reaches
            ("a>b c>c", false),
            ("a>b b>c c>d d>c", true),
        ] {
            let result = check(&shader_calling(calls), TargetEnv::Vulkan12);
            match recursive {
                true => assert!(
                    result.as_ref().is_err_and(|e| e.contains(cyclic)),
                    "{calls}: {result:?}"
                ),
                false => assert_eq!(result, Ok(()), "{calls}"),
            }
        }
    }

    /// Two entry points may not share a name and an execution model; the vendored check
    /// keeps the pairs seen in a set (SPIRV-Tools compared each with every earlier one).
    #[test]
    fn entry_points_of_one_name_and_model_are_refused() {
        // Entry points of %a, %b, %c (Kernel) and %g (GLCompute), named by `names`.
        let module = |names: [&str; 4]| {
            let mut text = String::from(
                "OpCapability Addresses\nOpCapability Kernel\nOpCapability Shader\n\
                 OpMemoryModel Physical64 OpenCL\n",
            );
            for (f, name) in ["a", "b", "c", "g"].iter().zip(names) {
                let model = if *f == "g" { "GLCompute" } else { "Kernel" };
                text += &format!("OpEntryPoint {model} %{f} \"{name}\"\n");
            }
            text += "OpExecutionMode %g LocalSize 1 1 1\n\
                     %void = OpTypeVoid\n%fn = OpTypeFunction %void\n";
            for f in ["a", "b", "c", "g"] {
                text += &format!(
                    "%{f} = OpFunction %void None %fn\n%l{f} = OpLabel\nOpReturn\nOpFunctionEnd\n"
                );
            }
            check(&assemble(&text), TargetEnv::OpenCl30)
        };
        let same = "cannot share the same name";
        assert_eq!(module(["x", "y", "z", "g"]), Ok(()));
        let twice = module(["x", "y", "x", "g"]);
        assert!(twice.as_ref().is_err_and(|e| e.contains(same)), "{twice:?}");
        // The same name under another execution model is allowed.
        assert_eq!(module(["x", "y", "z", "x"]), Ok(()));
    }

    /// A kernel's block must come after its immediate dominator in the binary. The check
    /// looks blocks up by place (the vendored `validate_linear.cpp`) rather than searching from the
    /// function's start for each.
    #[test]
    fn a_block_before_its_dominator_is_refused() {
        let kernel = |blocks: &str| one_function_kernel("", "OpBranchConditional %c %a %x", blocks);
        let a = "%a = OpLabel\nOpBranch %b\n";
        let b = "%b = OpLabel\nOpReturn\n";
        let x = "%x = OpLabel\nOpReturn\n";
        assert_eq!(
            check(&kernel(&[a, b, x].concat()), TargetEnv::OpenCl30),
            Ok(())
        );
        assert_eq!(
            check(&kernel(&[x, a, b].concat()), TargetEnv::OpenCl30),
            Ok(())
        );
        let e = check(&kernel(&[b, a, x].concat()), TargetEnv::OpenCl30).unwrap_err();
        assert!(
            e.contains("Block '") && e.contains("appears in the binary before its dominator"),
            "{e}"
        );
    }

    /// Immediate dominators over a loop, a join and unreachable blocks (one of them
    /// branching into reachable code, two on a cycle), as the order check names them; the
    /// patched validator computes them over vectors (`validate_linear.cpp`), and a debug build also
    /// compares every one with SPIRV-Tools' own.
    #[test]
    fn dominators_through_loops_and_unreachable_blocks() {
        let names = "OpName %head \"head\"\nOpName %out \"out\"\nOpName %late \"late\"";
        let kernel =
            |blocks: &[&str]| one_function_kernel(names, "OpBranch %head", &blocks.concat());
        let head = "%head = OpLabel\nOpBranchConditional %c %body %out\n";
        let body = "%body = OpLabel\nOpBranch %head\n";
        let out = "%out = OpLabel\nOpBranchConditional %c %ret %late\n";
        let ret = "%ret = OpLabel\nOpBranch %fin\n";
        let late = "%late = OpLabel\nOpBranch %fin\n";
        let fin = "%fin = OpLabel\nOpReturn\n";
        let lost = "%u1 = OpLabel\nOpBranch %u2\n%u2 = OpLabel\nOpBranch %u1\n";
        let stray = "%u3 = OpLabel\nOpBranch %out\n";
        let good = [head, body, out, ret, late, fin, lost, stray];
        assert_eq!(check(&kernel(&good), TargetEnv::OpenCl30), Ok(()));
        // `fin` is dominated by `out`, not by either of its predecessors (both come after it
        // in the binary); and the stray block's edge into `out` changes nothing: it is not
        // reached.
        assert_eq!(
            check(
                &kernel(&[stray, head, out, fin, ret, late, body, lost]),
                TargetEnv::OpenCl30
            ),
            Ok(())
        );
        // The order check's error names the block and its immediate dominator.
        let refused = |blocks: &[&str], block: &str, dominator: &str| {
            let e = check(&kernel(blocks), TargetEnv::OpenCl30).unwrap_err();
            assert!(
                e.contains(&format!(
                    "[%{block}]' appears in the binary before its dominator '"
                )) && e.contains(&format!("[%{dominator}]'")),
                "{e}"
            );
        };
        refused(&[out, head, body, ret, late, fin, lost], "out", "head");
        refused(&[head, body, late, out, ret, fin, stray], "late", "out");
    }
}
