//! `to-spirv --target vulkan*` from the command line: the module a Vulkan target gets (Shader,
//! GLCompute, the version the target allows), the reflection JSON, and the errors: a refused
//! construct names itself and leaves no output (also what only the `descriptors` pointer
//! strategy cannot say), `--reflection` without a Vulkan target is a usage error.
use std::path::PathBuf;

mod common;

use common::cli as run;
use common::instructions;

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("vulkan-cli");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{}-{name}", std::process::id()))
}

fn words(path: &PathBuf) -> Vec<u32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// `to-spirv FIXTURE --target vulkan1.2 EXTRA... --reflection`, which must succeed: the
/// module written and the reflection JSON.
fn to_vulkan(fixture: &str, extra: &[&str], name: &str) -> (PathBuf, serde_json::Value) {
    let out = temp(&format!("{name}.spv"));
    let json = temp(&format!("{name}.json"));
    let mut args = vec!["to-spirv", fixture, "--target", "vulkan1.2"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&[
        "-o",
        out.to_str().unwrap(),
        "--reflection",
        json.to_str().unwrap(),
    ]);
    let (code, err) = run(&args);
    assert_eq!(code, 0, "{fixture}: {err}");
    let r = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    (out, r)
}

/// `to-spirv FIXTURE --target vulkan1.2 EXTRA...`, which must refuse it (exit 1, no
/// output): the message.
fn refused(fixture: &str, extra: &[&str], name: &str) -> String {
    let out = temp(&format!("{name}.spv"));
    let mut args = vec!["to-spirv", fixture, "--target", "vulkan1.2"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-o", out.to_str().unwrap()]);
    let (code, err) = run(&args);
    assert_eq!(code, 1, "{fixture}: {err}");
    assert!(!out.exists(), "{fixture}: output despite the error");
    err
}

/// How many NonSemantic.ClspvReflection instructions numbered `n` module `w` holds (only
/// those of that instruction set: another set's OpExtInst may share the number).
fn reflection_count(w: &[u32], n: u32) -> usize {
    let insts = instructions(w);
    let name = |ops: &[u32]| -> String {
        let bytes: Vec<u8> = ops.iter().flat_map(|x| x.to_le_bytes()).collect();
        String::from_utf8_lossy(&bytes)
            .trim_end_matches('\0')
            .to_string()
    };
    let set = insts
        .iter()
        .find(|(op, o)| *op == 11 && name(&o[1..]).starts_with("NonSemantic.ClspvReflection"))
        .map(|(_, o)| o[0])
        .expect("the module imports NonSemantic.ClspvReflection");
    insts
        .iter()
        .filter(|(op, o)| *op == 12 && o.len() > 3 && o[2] == set && o[3] == n)
        .count()
}

#[test]
fn each_vulkan_target_gets_a_compute_module_within_its_version() {
    for (target, max) in [("vulkan1.1", 3), ("vulkan1.2", 5), ("vulkan1.3", 6)] {
        let out = temp(&format!("{target}.spv"));
        let (code, err) = run(&[
            "to-spirv",
            "tests/fixtures/legacy/matmul_tiled.spir64.bc",
            "--target",
            target,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{target}: {err}");
        let w = words(&out);
        let minor = (w[1] >> 8) & 0xff;
        assert!(minor <= max, "{target}: SPIR-V 1.{minor}");
        let insts = instructions(&w);
        let caps: Vec<u32> = insts
            .iter()
            .filter(|(op, _)| *op == 17)
            .map(|(_, o)| o[0])
            .collect();
        assert!(caps.contains(&1), "{target}: no Shader capability");
        assert!(
            !caps.contains(&6) && !caps.contains(&4),
            "{target}: Kernel or Addresses"
        );
        let models: Vec<u32> = insts
            .iter()
            .filter(|(op, _)| *op == 15)
            .map(|(_, o)| o[0])
            .collect();
        assert_eq!(models, vec![5], "{target}: entry points are GLCompute");
        let merges = insts.iter().filter(|(op, _)| *op == 246).count();
        assert!(
            merges >= 1,
            "{target}: the kernel's loop has no OpLoopMerge"
        );
    }
}

#[test]
fn the_reflection_describes_every_argument() {
    let (_, r) = to_vulkan(
        "tests/fixtures/modern/barriers_fences.spir64.bc",
        &[],
        "tiled",
    );
    let k = &r["kernels"][0];
    assert_eq!(k["name"], "barriers_fences");
    let kinds: Vec<&str> = k["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"pointer_push_constant"), "{kinds:?}");
    assert!(kinds.contains(&"workgroup"), "{kinds:?}");
    assert_eq!(r["workgroup_size_spec_ids"], serde_json::json!([0, 1, 2]));
    let features = r["required_features"].as_array().unwrap();
    assert!(features.iter().any(|f| f == "bufferDeviceAddress"));
    // Pointer offsets are 8-byte device addresses inside the push-constant block.
    for a in k["args"].as_array().unwrap() {
        if a["kind"] == "pointer_push_constant" {
            assert_eq!(a["size"], 8);
            assert!(a["offset"].as_u64().unwrap() + 8 <= k["push_constant_size"].as_u64().unwrap());
        }
    }
}

#[test]
fn written_program_scope_variables_live_in_a_buffer_the_host_keeps() {
    // cl20_groups writes @scratch (int[4], no initializer) and only reads @seeds and
    // @table: those become tables, @scratch the program's buffer.
    let (spv, r) = to_vulkan(
        "tests/fixtures/modern/cl20_groups.spir64.bc",
        &[],
        "program-scope",
    );
    let p = &r["program_scope_variables"];
    assert_eq!(p["size"], 16, "{p}");
    assert_eq!(p["data"], "0".repeat(32));
    assert_eq!(
        p["push_constant"],
        serde_json::json!({"offset": 0, "size": 8})
    );
    let w = words(&spv);
    assert_eq!(reflection_count(&w, 37), 1);
    // The read-only tables' values are in the module itself.
    let text = spir_xlate::disassemble(&w).unwrap();
    assert!(
        text.contains("%float_3_5"),
        "table's 3.5 is a constant of the module"
    );
    // Under descriptors the buffer is a storage buffer of set 1
    // (ProgramScopeVariablesStorageBuffer, 28).
    let (spv, r) = to_vulkan(
        "tests/fixtures/modern/cl20_groups.spir64.bc",
        &["--vulkan-pointers", "descriptors"],
        "program-scope-desc",
    );
    let p = &r["program_scope_variables"];
    assert_eq!(
        (p["set"].as_u64(), p["binding"].as_u64()),
        (Some(1), Some(0)),
        "{p}"
    );
    assert_eq!(reflection_count(&words(&spv), 28), 1);
}

#[test]
fn buffer_images_are_texel_buffers() {
    let (spv, r) = to_vulkan(
        "tests/fixtures/modern/image_1d_buffer.spir64.bc",
        &[],
        "texel",
    );
    let kinds: Vec<&str> = r["kernels"][0]["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "uniform_texel_buffer",
            "storage_texel_buffer",
            "uniform_texel_buffer",
            "storage_texel_buffer",
            "storage_texel_buffer",
            "pointer_push_constant"
        ]
    );
    // The module's reflection says the same: ArgumentUniformTexelBuffer (35) and
    // ArgumentStorageTexelBuffer (34) of NonSemantic.ClspvReflection, no image kind (8, 9).
    let w = words(&spv);
    assert_eq!(reflection_count(&w, 35), 2);
    assert_eq!(reflection_count(&w, 34), 3);
    assert_eq!(reflection_count(&w, 8) + reflection_count(&w, 9), 0);
}

#[test]
fn descriptors_bind_each_buffer_argument_and_address_logically() {
    let (out, r) = to_vulkan(
        "tests/fixtures/modern/atomics.spir64.bc",
        &["--vulkan-pointers", "descriptors"],
        "atomics-descriptors",
    );
    let insts = instructions(&words(&out));
    // OpMemoryModel Logical; no PhysicalStorageBufferAddresses (5347).
    assert!(insts.iter().any(|(op, o)| *op == 14 && o[0] == 0));
    assert!(!insts.iter().any(|(op, o)| *op == 17 && o[0] == 5347));
    // Every StorageBuffer (12) variable (59) has a DescriptorSet (34) and a Binding (33).
    let buffers: Vec<u32> = insts
        .iter()
        .filter(|(op, o)| *op == 59 && o.get(2) == Some(&12))
        .map(|(_, o)| o[1])
        .collect();
    let decorated = |id: u32, d: u32| {
        insts
            .iter()
            .any(|(op, o)| *op == 71 && o[0] == id && o[1] == d)
    };
    assert!(!buffers.is_empty());
    for b in &buffers {
        assert!(decorated(*b, 34) && decorated(*b, 33), "%{b}");
    }
    let args = r["kernels"][0]["args"].as_array().unwrap();
    let bindings: Vec<u64> = args
        .iter()
        .filter(|a| a["kind"] == "storage_buffer")
        .map(|a| a["binding"].as_u64().unwrap())
        .collect();
    assert_eq!(bindings.len(), buffers.len());
    assert_eq!(bindings, (0..bindings.len() as u64).collect::<Vec<_>>());
    assert!(!r["required_features"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f == "bufferDeviceAddress"));
}

#[test]
fn values_beyond_the_push_constant_limit_go_to_an_argument_buffer() {
    let (_, r) = to_vulkan(
        "tests/fixtures/modern/large_args.spir64.bc",
        &[],
        "large_args",
    );
    let k = &r["kernels"][0];
    assert!(k["push_constant_size"].as_u64().unwrap() <= 128);
    let args = k["args"].as_array().unwrap();
    let kinds: Vec<&str> = args.iter().map(|a| a["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "pointer_push_constant",
            "pointer_push_constant",
            "pod_storage_buffer",
            "pod_storage_buffer",
            "pod_storage_buffer"
        ]
    );
    // The values keep OpenCL's layout in the buffer: long16 is aligned to 128 bytes.
    assert_eq!(args[3]["offset"], 128);
    assert_eq!(args[4]["offset"], 256);
}

#[test]
fn the_16_bit_byte_swap_is_an_add_of_its_halves() {
    // NVIDIA's driver (580) computes `(x << 8) | (x >> 8)` on 16 bits as zero; the Vulkan
    // lowering writes such an `or` of disjoint halves as an add.
    let (spv, _) = to_vulkan(
        "tests/fixtures/modern/opt_intrinsics.spir64.bc",
        &[],
        "bswap16",
    );
    let insts = instructions(&words(&spv));
    let (shl, shr, or, add, type_int) = (196, 194, 197, 128, 21);
    let ushort: Vec<u32> = insts
        .iter()
        .filter(|(op, o)| *op == type_int && o[1] == 16)
        .map(|(_, o)| o[0])
        .collect();
    let def = |id: u32| insts.iter().find(|(_, o)| o.len() > 1 && o[1] == id);
    let is_swap_half =
        |id: u32, want: u32| def(id).is_some_and(|(op, o)| *op == want && ushort.contains(&o[0]));
    let joins = |join: u32| {
        insts
            .iter()
            .filter(|(op, o)| {
                *op == join
                    && ushort.contains(&o[0])
                    && (is_swap_half(o[2], shl) && is_swap_half(o[3], shr)
                        || is_swap_half(o[2], shr) && is_swap_half(o[3], shl))
            })
            .count()
    };
    assert_eq!(joins(or), 0, "a 16-bit or of shifted halves is left");
    assert!(joins(add) >= 1, "the byte swap of bswap16 is not an add");
}

#[test]
fn printf_writes_records_the_reflection_describes() {
    let (spv, r) = to_vulkan(
        "tests/fixtures/modern/printf_conversions.spir64.bc",
        &["--printf-buffer-size", "4096"],
        "printf",
    );
    let p = &r["printf"];
    // Set 1 holds the module's shared resources; this module has no literal samplers.
    assert_eq!(
        (p["set"].as_u64(), p["binding"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(p["buffer_size"], 4096);
    assert_eq!(r["kernels"][0]["may_use_printf"], true);
    let formats = p["formats"].as_array().unwrap();
    let find = |text: &str| {
        formats
            .iter()
            .find(|f| f["format"].as_str().unwrap().starts_with(text))
            .unwrap_or_else(|| panic!("no format {text:?}: {formats:?}"))
    };
    let sizes = |f: &serde_json::Value| -> Vec<u64> {
        f["arg_sizes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect()
    };
    // int2, short3 (as 4 lanes), float4, uchar8, uchar16, ulong2: OpenCL C's sizes.
    assert_eq!(sizes(find("v2=%v2d")), [8, 8, 16, 8, 16, 16]);
    // Strings are records of their own; a call stores their 4-byte ids; %p of a null
    // pointer is the module's pointer size.
    assert_eq!(sizes(find("s=%s")), [4, 4, 4, 8]);
    assert!(sizes(find("literal")).is_empty());
    assert!(sizes(find("constant")).is_empty());
    let ids: std::collections::BTreeSet<u64> =
        formats.iter().map(|f| f["id"].as_u64().unwrap()).collect();
    assert_eq!(ids.len(), formats.len(), "format ids are not distinct");
    // The module says the same: a PrintfInfo per format and the buffer's binding.
    let w = words(&spv);
    let (printf_info, printf_buffer) = (38, 39);
    assert_eq!(reflection_count(&w, printf_info), formats.len());
    assert_eq!(reflection_count(&w, printf_buffer), 1);
    // A kernel that does not print has no printf buffer.
    let (_, r) = to_vulkan(
        "tests/fixtures/modern/vector_add.spir64.bc",
        &[],
        "noprintf",
    );
    assert!(r["printf"].is_null());
    assert_eq!(r["kernels"][0]["may_use_printf"], false);
    let (code, err) = run(&[
        "to-spirv",
        "tests/fixtures/modern/printf_async.spir64.bc",
        "--target",
        "vulkan1.2",
        "--printf-buffer-size",
        "6",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a printf buffer size"), "{err}");
}

#[test]
fn a_spirv_kernel_module_goes_to_vulkan_too() {
    // `images` asks for its images' channel order and data type, which SPIR-V spells as
    // OpImageQueryOrder/OpImageQueryFormat (found by the fuzzer: an internal error before).
    for fixture in ["vector_add", "images"] {
        let cl = temp(&format!("{fixture}.opencl.spv"));
        let (code, err) = run(&[
            "to-spirv",
            &format!("tests/fixtures/modern/{fixture}.spir64.bc"),
            "-o",
            cl.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let vk = temp(&format!("{fixture}.from-spirv.spv"));
        let (code, err) = run(&[
            "to-spirv",
            cl.to_str().unwrap(),
            "--target",
            "vulkan1.2",
            "-o",
            vk.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{fixture}: {err}");
        assert!(instructions(&words(&vk))
            .iter()
            .any(|(op, o)| *op == 15 && o[0] == 5));
    }
}

#[test]
fn what_vulkan_cannot_take_is_refused_by_name_without_output() {
    let err = refused("tests/fixtures/modern/pipes.spir64.bc", &[], "pipes");
    assert!(
        err.contains("a pipe has no Vulkan form") && err.contains("function 'pipe_write'"),
        "{err}"
    );
    // What logical addressing cannot say is refused under descriptors, by construct and
    // function, and leaves no output.
    let err = refused(
        "tests/fixtures/modern/pointer_arith.spir64.bc",
        &["--vulkan-pointers", "descriptors"],
        "pointer_arith-descriptors",
    );
    assert!(
        err.contains("function 'pointer_arith'")
            && err.contains("a cast of a pointer to a buffer to another pointer type"),
        "{err}"
    );
    let out = temp("vector_add-reflection-only.spv");
    let (code, err) = run(&[
        "to-spirv",
        "tests/fixtures/modern/vector_add.spir64.bc",
        "--reflection",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--reflection"), "{err}");
}

/// Whether a module holds the arena of addressed private memory (its OpName).
fn has_private_arena(w: &[u32]) -> bool {
    let name: Vec<u32> = {
        // The string, its terminating NUL, padded to whole words.
        let mut b = b"private.memory\0".to_vec();
        b.resize(b.len().div_ceil(4) * 4, 0);
        b.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    instructions(w)
        .iter()
        .any(|(op, o)| *op == 5 && o[1..] == name[..])
}

#[test]
fn private_pointers_that_logical_addressing_cannot_say_get_addressed_memory() {
    // Byte views, casts, pointers stepped past their element, selected and merged, unions:
    // every fixture shape translates under both pointer strategies, its private memory one
    // array of words; a kernel whose private pointers need none of it keeps typed variables.
    for (kernel, shape) in [
        ("private_bytes", "modern"),
        ("private_bytes", "legacy-o0"),
        ("private_walk", "legacy"),
        ("private_walk", "o0"),
        ("private_select", "modern"),
        ("private_halves", "o0"),
    ] {
        for strategy in ["physical", "descriptors"] {
            let fixture = format!("tests/fixtures/{shape}/{kernel}.spir64.bc");
            let (out, _) = to_vulkan(
                &fixture,
                &["--vulkan-pointers", strategy],
                &format!("{kernel}-{shape}-{strategy}"),
            );
            assert!(
                has_private_arena(&words(&out)),
                "{fixture} ({strategy}): no arena"
            );
        }
    }
    let (out, _) = to_vulkan(
        "tests/fixtures/o0/private_arrays.spir64.bc",
        &[],
        "private_arrays-typed",
    );
    assert!(!has_private_arena(&words(&out)));
}

#[test]
fn a_kernel_that_reads_no_argument_gets_a_valid_module() {
    // Its push-constant block (the sampler's word) is read by nothing: declared all the same,
    // as a Block (the module is validated before it is written).
    for shape in ["modern", "legacy", "o0", "legacy-o0"] {
        let fixture = format!("tests/fixtures/{shape}/unused_args.spir64.bc");
        let (out, r) = to_vulkan(&fixture, &[], &format!("unused_args-{shape}"));
        assert!(!words(&out).is_empty(), "{fixture}");
        assert_eq!(
            r["kernels"][0]["args"].as_array().map(Vec::len),
            Some(3),
            "{fixture}"
        );
    }
}

/// Generic pointers (OpenCL C 2.0, C++ for OpenCL) take the space the program gives them,
/// at -O2 and -O0; one that points into two spaces depending on the run is refused by name.
#[test]
fn generic_pointers_take_the_space_the_program_gives_them() {
    for fixture in ["generic_inferred", "cpp_classes"] {
        for shape in ["modern", "o0"] {
            let (out, _) = to_vulkan(
                &format!("tests/fixtures/{shape}/{fixture}.spir64.bc"),
                &[],
                &format!("{shape}.{fixture}"),
            );
            assert!(out.exists());
        }
    }
    // A pointer whose space depends on the run is tagged under physical pointers, and
    // refused by name under descriptors (a buffer has no address there).
    for shape in ["modern", "legacy", "o0", "legacy-o0"] {
        for kernel in ["generic_space", "generic_tagged"] {
            let fixture = format!("tests/fixtures/{shape}/{kernel}.spir64.bc");
            to_vulkan(&fixture, &[], &format!("{kernel}-{shape}-tagged"));
            let err = refused(
                &fixture,
                &["--vulkan-pointers", "descriptors"],
                &format!("{kernel}-{shape}-descriptors"),
            );
            assert!(
                err.contains(&format!("function '{kernel}'"))
                    && err.contains("memory depending on the run")
                    && err.contains("physical tags such pointers"),
                "{err}"
            );
        }
    }
}

/// Work-group collectives exchange values through a Workgroup array and need no subgroup
/// support; sub-group ones are Vulkan's subgroup instructions, and the reflection names the
/// subgroup operations a device must support for them.
#[test]
fn collectives_say_which_subgroup_operations_they_need() {
    let (wg, r) = to_vulkan(
        "tests/fixtures/modern/work_group_collectives.spir64.bc",
        &[],
        "wg_collectives",
    );
    assert_eq!(r["subgroup_operations"], serde_json::json!([]));
    // OpName "group.scratch.0": the Workgroup array.
    let w = words(&wg);
    let named = instructions(&w).iter().any(|(op, o)| {
        *op == 5
            && o[1..]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .take_while(|&b| b != 0)
                .collect::<Vec<u8>>()
                .starts_with(b"group.scratch")
    });
    assert!(named, "no group.scratch array");
    let (_, r) = to_vulkan(
        "tests/fixtures/modern/sub_groups.spir64.bc",
        &[],
        "sub_groups",
    );
    assert_eq!(
        r["subgroup_operations"],
        serde_json::json!(["arithmetic", "basic", "shuffle", "vote"])
    );
}

#[test]
fn addressed_local_objects_share_one_array_the_host_sizes_argument_by_argument() {
    // A kernel-scope __local table beside a uchar and a float4 __local argument, all
    // addressed: one Workgroup variable, its length the variables' words plus each
    // argument's, from the specialization constants the host sets (count × elem_size).
    for shape in ["modern", "legacy", "o0", "legacy-o0"] {
        for strategy in ["physical", "descriptors"] {
            let fixture = format!("tests/fixtures/{shape}/local_mixed.spir64.bc");
            let (out, r) = to_vulkan(
                &fixture,
                &["--vulkan-pointers", strategy],
                &format!("local_mixed-{shape}-{strategy}"),
            );
            let insts = instructions(&words(&out));
            // OpVariable (59) whose storage class (operand 2) is Workgroup (4).
            let workgroup = insts
                .iter()
                .filter(|(op, o)| *op == 59 && o[2] == 4)
                .count();
            assert_eq!(workgroup, 1, "{fixture} ({strategy})");
            // OpSpecConstantOp (52) IAdd (128) sums the sizes.
            assert!(
                insts.iter().any(|(op, o)| *op == 52 && o[2] == 128),
                "{fixture} ({strategy}): no sum of sizes"
            );
            let locals: Vec<(u64, u64)> = r["kernels"][0]["args"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|a| a["kind"] == "workgroup")
                .map(|a| {
                    (
                        a["spec_id"].as_u64().unwrap(),
                        a["elem_size"].as_u64().unwrap(),
                    )
                })
                .collect();
            assert_eq!(locals.len(), 2, "{fixture} ({strategy})");
            assert_ne!(locals[0].0, locals[1].0, "{fixture} ({strategy})");
            assert_eq!(
                [locals[0].1, locals[1].1],
                [1, 16],
                "{fixture} ({strategy})"
            );
        }
    }
}

/// Every 32-bit SPIR fixture (`spir`, 32-bit pointers) goes to Vulkan under both pointer
/// strategies, or is refused by name: never an internal error. A device address is 64 bits
/// wide whatever the module's pointer width; the coverage-guided fuzz campaign found a pointer
/// comparison written through 32-bit integers (generic_space.spir.bc, physical), which
/// Vulkan's validation refuses.
#[test]
fn thirty_two_bit_spir_goes_to_vulkan_with_64_bit_addresses() {
    let mut translated = 0;
    for entry in std::fs::read_dir("tests/fixtures/modern").unwrap() {
        let p = entry.unwrap().path();
        if !p.to_string_lossy().ends_with(".spir.bc") {
            continue;
        }
        for vulkan_pointers in [
            spir_xlate::VulkanPointers::Physical,
            spir_xlate::VulkanPointers::Descriptors,
        ] {
            let options = spir_xlate::Options {
                target: spir_xlate::TargetEnv::Vulkan12,
                vulkan_pointers,
                ..Default::default()
            };
            match spir_xlate::internals::translate_to_spirv(p.as_path(), &options) {
                Ok(_) => translated += 1,
                Err(e) => assert!(
                    !matches!(e.kind, spir_xlate::ErrorKind::Internal(_)),
                    "{} ({vulkan_pointers:?}): {e}",
                    p.display()
                ),
            }
        }
    }
    assert!(translated >= 200, "only {translated} translations");
}

/// A typed copy between addressed private memory and a buffer of a huge constant length (a
/// corrupted OpCopyMemorySized size, found by the coverage-guided campaign) is a loop: it was
/// unrolled element by element until the translation ran out of memory.
#[test]
fn a_huge_typed_copy_into_addressed_memory_is_a_loop() {
    let input = "tests/regressions/fuzz-vulkan/huge_typed_copy.spv";
    let out = temp("huge_typed_copy.spv");
    let (code, err) = run(&[
        "to-spirv",
        input,
        "--target",
        "vulkan1.2",
        "--vulkan-pointers",
        "descriptors",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let loops = instructions(&words(&out))
        .iter()
        .filter(|i| i.0 == spir_xlate::spirv_headers::Op::LoopMerge as u32)
        .count();
    assert!(loops >= 1, "no loop in the copy");
}
