//! Vulkan modules of programs of several kernels, from the command line: what the module's
//! reflection says once (the global offset, the work-group size constants) holds for every
//! kernel, required work-group sizes hold without the host's constants, and the push
//! constants keep to the limit asked.
use std::path::PathBuf;

mod common;

use common::cli as run;

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("vulkan-programs");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{}-{name}", std::process::id()))
}

/// `to-spirv FIXTURE --target TARGET EXTRA...`: the module's disassembly, its JSON
/// reflection and what was printed.
fn translate(fixture: &str, target: &str, extra: &[&str]) -> (String, serde_json::Value, String) {
    let name = format!("{}-{target}-{}", fixture.replace('/', "_"), extra.join("_"));
    let out = temp(&format!("{name}.spv"));
    let json = temp(&format!("{name}.json"));
    let mut args = vec!["to-spirv", fixture, "--target", target];
    args.extend_from_slice(extra);
    args.extend_from_slice(&[
        "-o",
        out.to_str().unwrap(),
        "--reflection",
        json.to_str().unwrap(),
    ]);
    let (code, err) = run(&args);
    assert_eq!(code, 0, "{fixture}: {err}");
    let words = common::read_spirv(&out);
    let text = spir_xlate::disassemble(&words).unwrap();
    let r = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    (text, r, err)
}

/// The byte ranges a kernel's arguments take in its push constants.
fn argument_ranges(k: &serde_json::Value) -> Vec<(u64, u64)> {
    k["args"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "pointer_push_constant" || a["kind"] == "pod_push_constant")
        .map(|a| {
            let o = a["offset"].as_u64().unwrap();
            (o, o + a["size"].as_u64().unwrap())
        })
        .collect()
}

#[test]
fn the_global_offset_is_at_one_place_before_every_kernels_arguments() {
    for strategy in ["physical", "descriptors"] {
        let (text, r, _) = translate(
            "tests/fixtures/modern/app_linalg.spir64.bc",
            "vulkan1.2",
            &["--vulkan-pointers", strategy],
        );
        let at = &r["global_offset"];
        let (o, s) = (at["offset"].as_u64().unwrap(), at["size"].as_u64().unwrap());
        assert_eq!(s, 12);
        let kernels = r["kernels"].as_array().unwrap();
        assert!(kernels.len() >= 5);
        for k in kernels {
            for (a, b) in argument_ranges(k) {
                assert!(
                    b <= o || a >= o + s,
                    "{strategy}: {} overlaps the offset",
                    k["name"]
                );
            }
            assert!(k["push_constant_size"].as_u64().unwrap() >= o + s);
        }
        // One reflection instruction says it, for the module.
        assert_eq!(
            text.matches("PushConstantGlobalOffset").count(),
            1,
            "{strategy}"
        );
    }
}

#[test]
fn required_work_group_sizes_hold_without_the_hosts_constants() {
    // One fixed size beside kernels without: the constants' defaults are that size.
    let (text, r, _) = translate(
        "tests/fixtures/modern/app_image.spir64.bc",
        "vulkan1.2",
        &[],
    );
    assert!(text.contains("OpSpecConstant %uint 16"), "defaults of 16");
    assert!(text.contains("LocalSize 16 16 1"));
    assert_eq!(r["workgroup_size_spec_ids"], serde_json::json!([0, 1, 2]));
    // Different fixed sizes beside a kernel without: before 1.3 a fact not kept says which
    // size needs the host's constants; at 1.3 each entry point has its own.
    let fixture = "tests/fixtures/modern/workgroup_sizes.spir64.bc";
    let (text, _, err) = translate(fixture, "vulkan1.2", &[]);
    assert!(text.contains("BuiltIn WorkgroupSize"));
    assert!(
        err.contains("reqd_work_group_size(4, 2, 1) holds only where the host sets"),
        "{err}"
    );
    let (text, r, err) = translate(fixture, "vulkan1.3", &[]);
    assert!(!err.contains("holds only"), "{err}");
    assert!(!text.contains("BuiltIn WorkgroupSize"));
    assert!(text.contains("OpExecutionMode %rows LocalSize 8 1 1"));
    assert!(text.contains("OpExecutionMode %tiles LocalSize 4 2 1"));
    assert!(text.contains("OpExecutionModeId %any_size LocalSizeId"));
    let features = r["required_features"].as_array().unwrap();
    assert!(features.iter().any(|f| f == "maintenance4"));
}

#[test]
fn values_past_the_push_constant_limit_go_to_an_argument_buffer() {
    // integrate: ten device addresses and ten values with the global offset pass 128 bytes.
    let fixture = "tests/fixtures/modern/app_physics.spir64.bc";
    let kinds = |r: &serde_json::Value| -> Vec<String> {
        let k = r["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["name"] == "integrate")
            .unwrap();
        k["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["kind"].as_str().unwrap().to_string())
            .collect()
    };
    let (_, r, _) = translate(fixture, "vulkan1.2", &[]);
    let k = kinds(&r);
    assert_eq!(
        k.iter().filter(|k| *k == "pod_storage_buffer").count(),
        10,
        "{k:?}"
    );
    for kernel in r["kernels"].as_array().unwrap() {
        assert!(kernel["push_constant_size"].as_u64().unwrap() <= 128);
    }
    // With a device's real limit they stay in the push constants.
    let (_, r, _) = translate(fixture, "vulkan1.2", &["--max-push-constants", "256"]);
    assert!(!kinds(&r).iter().any(|k| k == "pod_storage_buffer"));
    // A limit below what Vulkan promises is a usage error.
    let (code, err) = run(&[
        "to-spirv",
        fixture,
        "--target",
        "vulkan1.2",
        "--max-push-constants",
        "64",
        "-o",
        temp("small.spv").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("at least 128"), "{err}");
}

#[test]
fn literal_samplers_say_normalized_coordinates() {
    // The kernel normalizes OpenCL's unnormalized coordinates itself: a host that makes the
    // sampler as the reflection's bits say must make a normalized one.
    let (_, r, _) = translate(
        "tests/fixtures/modern/clc_signatures.spir64.bc",
        "vulkan1.2",
        &[],
    );
    let samplers = r["literal_samplers"].as_array().unwrap();
    assert_eq!(samplers.len(), 2);
    for s in samplers {
        assert_eq!(s["mask"].as_u64().unwrap() & 1, 1, "{s}");
    }
}
