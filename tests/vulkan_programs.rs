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
fn addresses_past_the_push_constant_limit_go_to_a_uniform_argument_buffer() {
    // react_diffuse: seventeen device addresses (136 bytes) pass 128 bytes by themselves.
    let fixture = "tests/fixtures/modern/app_chem.spir64.bc";
    let step = |r: &serde_json::Value| -> serde_json::Value {
        r["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["name"] == "react_diffuse")
            .unwrap()
            .clone()
    };
    let (text, r, _) = translate(fixture, "vulkan1.2", &[]);
    let k = step(&r);
    let args = k["args"].as_array().unwrap();
    let kinds: Vec<&str> = args.iter().map(|a| a["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds[..17], ["pointer_uniform"; 17], "{kinds:?}");
    assert_eq!(kinds[17..], ["pod_uniform"; 5], "{kinds:?}");
    // One buffer at binding 0, in OpenCL C's layout: the addresses 8 bytes apart, then the
    // values at their natural alignment (the byte, then the short at the next even byte).
    for (i, a) in args.iter().enumerate() {
        assert_eq!((&a["set"], &a["binding"]), (&0.into(), &0.into()), "{a}");
        if i < 17 {
            assert_eq!(a["offset"], 8 * i as u64, "{a}");
        }
    }
    assert_eq!(args[20]["offset"], 148);
    assert_eq!(args[21]["offset"], 150);
    assert!(k["push_constant_size"].as_u64().unwrap() <= 128);
    assert!(text.contains("OpExtInst %void %") && text.contains("ArgumentPointerUniform"));
    // The byte and the short in a uniform buffer need their capabilities and features.
    assert!(text.contains("OpCapability UniformAndStorageBuffer8BitAccess"));
    assert!(
        text.contains("OpCapability StorageUniform16")
            || text.contains("OpCapability UniformAndStorageBuffer16BitAccess")
    );
    let features = r["required_features"].as_array().unwrap();
    for f in [
        "uniformAndStorageBuffer8BitAccess",
        "uniformAndStorageBuffer16BitAccess",
    ] {
        assert!(features.iter().any(|x| x == f), "{f}: {features:?}");
    }
    // The module's other kernels keep their arguments in push constants, and need no
    // uniform buffer feature where no kernel has one.
    for other in r["kernels"].as_array().unwrap() {
        if other["name"] != "react_diffuse" {
            assert!(other["args"]
                .as_array()
                .unwrap()
                .iter()
                .all(|a| !a["kind"].as_str().unwrap().contains("uniform")));
        }
    }
    // With a device's real limit the addresses stay in the push constants (the values go to
    // a storage buffer), and the module asks for no uniform buffer access.
    let (text, r, _) = translate(fixture, "vulkan1.2", &["--max-push-constants", "160"]);
    let kinds: Vec<String> = step(&r)["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds[..17], ["pointer_push_constant"; 17], "{kinds:?}");
    assert_eq!(kinds[17..], ["pod_storage_buffer"; 5], "{kinds:?}");
    assert!(!text.contains("UniformAndStorageBuffer8BitAccess"));
    let features = r["required_features"].as_array().unwrap();
    assert!(!features
        .iter()
        .any(|x| x == "uniformAndStorageBuffer8BitAccess"));
}

#[test]
fn literal_samplers_say_how_the_kernel_gives_coordinates() {
    // A host makes each literal sampler as the reflection's bits say (bit 0: normalized).
    // A sampler constant that only samples 2D images keeps OpenCL's unnormalized bits (the
    // kernel gives its coordinates as they are); one that samples a 3D image, or that -O0
    // passes to a helper function, says normalized (the kernel normalizes them itself).
    let masks = |fixture: &str| -> Vec<u64> {
        let (_, r, _) = translate(fixture, "vulkan1.2", &[]);
        r["literal_samplers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["mask"].as_u64().unwrap())
            .collect()
    };
    // CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST, CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST.
    assert_eq!(
        masks("tests/fixtures/modern/clc_signatures.spir64.bc"),
        [0x12, 0x14]
    );
    assert_eq!(
        masks("tests/fixtures/legacy/clc_signatures.spir64.bc"),
        [0x12, 0x14]
    );
    // CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST on an image3d_t: normalized.
    assert_eq!(masks("tests/fixtures/modern/image_3d.spir64.bc"), [0x15]);
    // s_clamp (CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR) reaches a helper's parameter at -O0.
    assert_eq!(
        masks("tests/fixtures/modern/sampler_constants.spir64.bc"),
        [0x12, 0x24, 0x27, 0x10]
    );
    assert_eq!(
        masks("tests/fixtures/o0/sampler_constants.spir64.bc"),
        [0x12, 0x25, 0x27, 0x10]
    );
}
