//! SPV_KHR_untyped_pointers read back (issue 50): every fixture's SPIR-V (ours, SPIR-V 1.4
//! for OpenCL 3.0) rewritten with untyped pointers as a producer using the extension writes
//! it (tests/common/untyped.rs), validated by SPIRV-Tools, then read back by `to-spir`. The
//! execution tier runs them (tests/exec_producers, producer `untyped`).
mod common;

use spir_xlate::{Options, TargetEnv, Translation, VulkanPointers};

fn opencl_1_4() -> Translation {
    Translation::ToSpirv(Options {
        target: TargetEnv::OpenCl30,
        spirv_version: Some((1, 4)),
        ..Default::default()
    })
}

#[test]
fn untyped_pointer_modules_read_back() {
    let mut paths: Vec<_> = std::fs::read_dir("tests/fixtures/modern")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".spir64.bc"))
        .collect();
    paths.sort();
    let (mut read, mut failures, mut async_copies, mut prefetches) = (0, Vec::new(), 0, 0);
    let mut same_signatures = 0;
    for path in &paths {
        let bitcode = std::fs::read(path).unwrap();
        let Ok(typed) = spir_xlate::translate(&bitcode[..], &opencl_1_4()) else {
            continue;
        };
        let words: Vec<u32> = typed
            .bytes
            .chunks(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect();
        let name = path.file_name().unwrap().to_string_lossy();
        let untyped = match common::untyped::untyped(&words) {
            Ok(u) => u,
            Err(e) => {
                failures.push(format!("{name}: not rewritten: {e}"));
                continue;
            }
        };
        let ops = opcodes(&untyped);
        // The SPIRV-Tools linked here predates OpUntypedGroupAsyncCopyKHR.
        let validates = !ops.contains(&spirv::Op::UntypedGroupAsyncCopyKHR);
        if validates {
            if let Err(e) = spir_xlate::internals::spirv::check_input(&untyped) {
                failures.push(format!("{name}: the untyped module is invalid: {e}"));
                continue;
            }
        } else {
            async_copies += 1;
        }
        if !ops
            .iter()
            .any(|op| format!("{op:?}").starts_with("Untyped"))
        {
            // No pointer but the built-in variables'.
            continue;
        }
        let back = Translation::ToSpir(Default::default());
        let spir = match spir_xlate::translate(&untyped[..], &back) {
            Ok(out) => out,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        read += 1;
        // OpUntypedPrefetchKHR is OpenCL's prefetch again (over bytes).
        if ops.contains(&spirv::Op::UntypedPrefetchKHR) {
            let text = spir_xlate::internals::llvm_text(&spir.bytes).unwrap();
            if text.contains("call spir_func void @_Z8prefetch") {
                prefetches += 1;
            } else {
                failures.push(format!("{name}: OpUntypedPrefetchKHR not read as prefetch"));
            }
        }
        // The kernels' parameters come back with the types the typed module gave them
        // (the untyped pass types a parameter by what its function takes it for).
        let typed_back = spir_xlate::translate(&typed.bytes[..], &back).unwrap();
        let kernels = |bitcode: &[u8]| -> Vec<String> {
            let text = spir_xlate::internals::llvm_text(bitcode).unwrap();
            text.lines()
                .filter(|l| l.starts_with("define spir_kernel"))
                .map(|l| l.split('#').next().unwrap_or(l).to_string())
                .collect()
        };
        if kernels(&spir.bytes) == kernels(&typed_back.bytes) {
            same_signatures += 1;
        }
        // The Vulkan lowering takes what the reader made (an internal error would be ours).
        for pointers in [VulkanPointers::Physical, VulkanPointers::Descriptors] {
            let vulkan = Translation::ToSpirv(Options {
                target: TargetEnv::Vulkan12,
                vulkan_pointers: pointers,
                ..Default::default()
            });
            if let Err(e) = spir_xlate::translate(&untyped[..], &vulkan) {
                if matches!(e.kind, spir_xlate::ErrorKind::Internal(_)) {
                    failures.push(format!("{name}: Vulkan {pointers:?}: {e}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} read, failed:\n{}",
        read,
        failures.join("\n")
    );
    assert!(read >= 100, "only {read} modules");
    assert!(
        async_copies >= 3,
        "{async_copies} modules with untyped async copies"
    );
    assert!(
        prefetches >= 3,
        "{prefetches} modules with untyped prefetches"
    );
    assert!(
        same_signatures * 10 >= read * 9,
        "kernel signatures as typed in {same_signatures} of {read} modules"
    );
    eprintln!("kernel signatures as typed in {same_signatures} of {read} modules");
}

/// The opcodes of a module's instructions, in order.
fn opcodes(words: &[u32]) -> Vec<spirv::Op> {
    let mut out = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let (count, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        out.extend(spirv::Op::from_u32(op));
        at += count.max(1);
    }
    out
}
