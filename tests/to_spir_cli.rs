//! `to-spir`: a valid module becomes SPIR; every kind of malformed SPIR-V is a clear error with
//! the word offset (and id), exit code 1, and no output file.
use std::path::PathBuf;
use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("spir-xlate-tospir-{}-{name}", std::process::id()))
}

/// Our SPIR-V for a fixture, as words.
fn module(fixture: &str) -> Vec<u32> {
    let spv = temp(&format!("{fixture}.spv"));
    let (code, _, err) = run(&[
        "to-spirv",
        &format!("tests/fixtures/modern/{fixture}.spir64.bc"),
        "-o",
        spv.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    std::fs::read(&spv)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Word offset of the first instruction with `opcode`.
fn find(words: &[u32], opcode: u32) -> usize {
    let mut at = 5;
    while at < words.len() {
        if words[at] & 0xffff == opcode {
            return at;
        }
        at += (words[at] >> 16) as usize;
    }
    panic!("no opcode {opcode}");
}

/// Run to-spir on `words`; expect exit 1, an error containing every `needles`, no output.
fn expect_error(name: &str, words: &[u32], needles: &[&str]) {
    let input = temp(&format!("{name}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&input, bytes).unwrap();
    let output = temp(&format!("{name}.bc"));
    let (code, _, err) = run(&[
        "to-spir",
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{name}: {err}");
    assert!(err.starts_with("error: "), "{name}: {err}");
    assert!(
        err.contains(input.to_str().unwrap()),
        "{name}: names the file: {err}"
    );
    for n in needles {
        assert!(err.contains(n), "{name}: expected '{n}' in: {err}");
    }
    assert!(!output.exists(), "{name}: no partial output");
}

const OP_LOAD: u32 = 61;
const OP_CAPABILITY: u32 = 17;

#[test]
fn valid_module_becomes_spir_text_with_kernel_info() {
    let words = module("vector_add");
    let input = temp("ok.spv");
    std::fs::write(
        &input,
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let (code, out, err) = run(&["to-spir", input.to_str().unwrap(), "-S", "-o", "-"]);
    assert_eq!(code, 0, "{err}");
    for needle in [
        "target triple = \"spir64-unknown-unknown\"",
        "define spir_kernel void @vector_add(",
        "call spir_func i64 @_Z13get_global_idj(i32 0)",
        "!kernel_arg_addr_space",
        "!kernel_arg_type !",
        "!{!\"float*\", !\"float*\", !\"float*\"}",
        "!opencl.spir.version = !{",
    ] {
        assert!(out.contains(needle), "missing {needle} in:\n{out}");
    }
    // clang's form (the default) lists no kernels in !opencl.kernels; the specification's
    // form does, and keeps the function metadata too; --kernel-info overrides either.
    assert!(!out.contains("!opencl.kernels"), "{out}");
    let spec = |extra: &[&str]| {
        let mut args = vec!["to-spir", input.to_str().unwrap(), "-S", "-o", "-"];
        args.extend_from_slice(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let out = spec(&["--spir-form", "spec"]);
    assert!(out.contains("!opencl.kernels"), "{out}");
    assert!(
        out.contains("!{!\"kernel_arg_type\", !\"float*\", !\"float*\", !\"float*\"}"),
        "{out}"
    );
    assert!(out.contains("!kernel_arg_addr_space !"), "{out}");
    let out = spec(&["--spir-form", "spec", "--kernel-info", "named"]);
    assert!(out.contains("!opencl.kernels") && !out.contains("!kernel_arg_addr_space !"));
    let out = spec(&["--kernel-info", "both"]);
    assert!(out.contains("!opencl.kernels") && out.contains("!kernel_arg_addr_space !"));
    // Default output name: the input with .bc (a file an earlier run of a process with the
    // same id left there would be kept, not overwritten).
    let _ = std::fs::remove_file(input.with_extension("bc"));
    let (code, _, err) = run(&["to-spir", input.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(input.with_extension("bc").exists());
    let _ = std::fs::remove_file(input.with_extension("bc"));
}

#[test]
fn bad_magic_and_short_files() {
    let mut w = module("vector_add");
    w[0] = 0x1234_5678;
    expect_error("magic", &w, &["not a SPIR-V module", "word 0"]);
    expect_error("short", &[0x0723_0203, 0x0001_0000], &["truncated"]);
}

#[test]
fn truncated_instruction_names_its_word() {
    let w = module("vector_add");
    let at = find(&w, OP_LOAD);
    expect_error("trunc", &w[..at + 2], &["truncated", &format!("word {at}")]);
}

#[test]
fn word_count_zero_names_its_word() {
    let mut w = module("vector_add");
    let at = find(&w, OP_CAPABILITY);
    w[at] = OP_CAPABILITY;
    expect_error("count0", &w, &["word count 0", &format!("word {at}")]);
}

#[test]
fn unknown_opcode_names_its_word() {
    let mut w = module("vector_add");
    let at = find(&w, OP_CAPABILITY);
    w[at] = (w[at] & 0xffff_0000) | 0x7ff0;
    expect_error(
        "opcode",
        &w,
        &["unknown opcode 32752", &format!("word {at}")],
    );
}

#[test]
fn undefined_id_names_word_and_id() {
    let mut w = module("vector_add");
    let at = find(&w, OP_LOAD);
    w[at + 3] = w[3] + 100; // beyond the id bound
    expect_error(
        "undef-id",
        &w,
        &[
            &format!("word {at}"),
            &format!("%{}", w[3] + 100),
            "not defined",
        ],
    );
}

#[test]
fn mistyped_id_names_word_and_id() {
    let mut w = module("vector_add");
    let at = find(&w, OP_LOAD);
    w[at + 3] = w[at + 1]; // the pointer operand names the result type
    expect_error(
        "mistyped",
        &w,
        &[
            &format!("word {at}"),
            "used as a value but is a type",
            "function 'vector_add'",
        ],
    );
}

#[test]
fn bitcode_given_to_to_spir_is_refused() {
    let (code, _, err) = run(&[
        "to-spir",
        "tests/fixtures/modern/vector_add.spir64.bc",
        "-o",
        "-",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("use `to-spirv`"), "{err}");
}

/// `--flavor spirv-ir` spells the convention: `__spirv_*` builtins, `spirv.*` types, sampler
/// initializer calls, `!spirv.*` metadata.
#[test]
fn spirv_ir_flavor_spells_the_convention() {
    let cases: &[(&str, &[&str])] = &[
        (
            "images",
            &[
                "%spirv.Image._void_1_0_0_0_0_0_0 addrspace(1)*",
                "%spirv.Sampler addrspace(2)*",
                "@_Z20__spirv_SampledImagePU3AS133__spirv_Image__void_1_0_0_0_0_0_0PU3AS215__spirv_Sampler",
                "__spirv_ImageSampleExplicitLod_Rfloat4",
                "@__translate_sampler_initializer(i32 18)",
                "@_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)",
                "__spirv_ImageQueryOrder",
                "!spirv.MemoryModel = !{",
                "!{i32 2, i32 2}",
                "!spirv.Source = !{",
                "!{i32 3, i32 102000}",
                "!kernel_arg_access_qual",
            ],
        ),
        (
            "attributes",
            &[
                "!spirv.ExecutionMode = !{",
                "@attributes, i32 17, i32 8, i32 4, i32 1}",
                "@attributes, i32 18, i32 8, i32 4, i32 1}",
                "@attributes, i32 30, i32 262149}",
            ],
        ),
        (
            "convert_vectors",
            &[
                "__spirv_ConvertFToS_Rint4_sat_rte",
                "__spirv_SatConvertSToU_Ruchar8",
                "__spirv_ConvertFToU_Ruchar8_sat",
            ],
        ),
        ("vload_half_modes", &["__spirv_ocl_vload_halfn__Rfloat4", "__spirv_ocl_vstore_half_r"]),
        ("atomics", &["__spirv_AtomicCompareExchangePU3AS1iiiiii", "__spirv_AtomicIAdd"]),
    ];
    for (fixture, needles) in cases {
        let input = temp(&format!("{fixture}.ir.spv"));
        let words = module(fixture);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&input, bytes).unwrap();
        let (code, text, err) = run(&[
            "to-spir",
            "--flavor",
            "spirv-ir",
            "-S",
            input.to_str().unwrap(),
            "-o",
            "-",
        ]);
        assert_eq!(code, 0, "{fixture}: {err}");
        for n in *needles {
            assert!(text.contains(n), "{fixture}: no '{n}' in\n{text}");
        }
        assert!(!text.contains("opencl.image"), "{fixture}: SPIR type names");
        assert!(
            !text.contains("!opencl.kernels"),
            "{fixture}: SPIR kernel list"
        );
    }
}

/// The spirv-ir output reads back into the very graph the SPIR-V gave (both forms of builtin
/// variables), so `to-spirv` on it writes the same module. (Fixtures with all-zero vector
/// constants are left to the canonical comparison of the oracle tier: LLVM folds them to
/// `zeroinitializer`, so the graph holds a null constant where the SPIR-V had a composite.)
#[test]
fn spirv_ir_output_reads_back_to_the_same_graph() {
    use spir_xlate::ir::print::print_module;
    for fixture in [
        "vector_add",
        "attributes",
        "images",
        "atomics",
        "convert_vectors",
        "async_strided",
        "vload_half_modes",
        "printf_formats",
        "workitem_queries",
        "sampler_constants",
        "barriers_fences",
        "switch_goto",
        "struct_copy",
    ] {
        let spv = temp(&format!("{fixture}.rt.spv"));
        let words = module(fixture);
        std::fs::write(
            &spv,
            words
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>(),
        )
        .unwrap();
        let want = print_module(&spir_xlate::internals::read_spirv(&spv).unwrap());
        for globals in [false, true] {
            let opts = spir_xlate::SpirOptions {
                flavor: spir_xlate::Flavor::SpirvIr,
                builtins_as_globals: globals,
                ..Default::default()
            };
            let bc = spir_xlate::internals::to_spir(&spv, &opts).unwrap();
            let ir = temp(&format!("{fixture}.{globals}.ir.bc"));
            std::fs::write(&ir, bc).unwrap();
            let got = print_module(&spir_xlate::internals::read_spir(&ir).unwrap());
            pretty_assertions::assert_eq!(want, got, "{fixture} (builtins as globals: {globals})");
        }
    }
}

#[test]
fn builtins_as_globals_needs_the_spirv_ir_flavor() {
    let (code, _, err) = run(&["to-spir", "--builtins-as-globals", "x.spv"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--flavor spirv-ir"), "{err}");
}

/// A kernel that prints a string, written as LLVM's SPIR-V backend (clang 22) writes it:
/// printf's format is the string's variable itself, a pointer to `uchar[n]`, where
/// OpenCL.std asks for a pointer to `char` (spirv-val rejects the module). The address is
/// the same, so `to-spir` reads it as the string's first character; a format that points to
/// anything but chars is refused in words.
fn printf_of(format_elem_bits: u32) -> Vec<u8> {
    use rspirv::dr::{Builder, Operand};
    use rspirv::spirv::{
        AddressingModel, Capability, Decoration, ExecutionModel, FunctionControl, MemoryModel,
        StorageClass,
    };
    let mut b = Builder::new();
    b.set_version(1, 4);
    for c in [
        Capability::Addresses,
        Capability::Kernel,
        Capability::Int8,
        Capability::Int16,
    ] {
        b.capability(c);
    }
    b.memory_model(AddressingModel::Physical64, MemoryModel::OpenCL);
    let cl = b.ext_inst_import("OpenCL.std");
    let void = b.type_void();
    let elem = b.type_int(format_elem_bits, 0);
    let uint = b.type_int(32, 0);
    let text = b"hi\n\0";
    let len = b.constant_bit32(uint, text.len() as u32);
    let array = b.type_array(elem, len);
    let chars: Vec<u32> = text
        .iter()
        .map(|&c| b.constant_bit32(elem, u32::from(c)))
        .collect();
    let init = b.constant_composite(array, chars);
    let pointer = b.type_pointer(None, StorageClass::UniformConstant, array);
    let string = b.variable(pointer, None, StorageClass::UniformConstant, Some(init));
    b.decorate(string, Decoration::Constant, []);
    let fn_type = b.type_function(void, []);
    let f = b
        .begin_function(void, None, FunctionControl::NONE, fn_type)
        .unwrap();
    b.begin_block(None).unwrap();
    let printf = rspirv::spirv::OpenclStd100Op::printf as u32;
    b.ext_inst(uint, None, cl, printf, [Operand::IdRef(string)])
        .unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    b.entry_point(ExecutionModel::Kernel, f, "hello", [string]);
    use rspirv::binary::Assemble;
    b.module()
        .assemble()
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

#[test]
fn a_string_given_as_printfs_format_is_read_as_its_first_character() {
    let spir = spir_xlate::internals::to_spir(&printf_of(8)[..], &Default::default()).unwrap();
    let text = spir_xlate::internals::llvm_text(&spir).unwrap();
    let call = text
        .lines()
        .find(|l| l.contains("call") && l.contains("@printf"))
        .unwrap_or_else(|| panic!("no printf call in:\n{text}"));
    assert!(
        call.contains("getelementptr inbounds ([4 x i8], [4 x i8] addrspace(2)*"),
        "{call}"
    );
    // A "string" of 16-bit numbers is no format: refused in words, naming printf.
    let e = spir_xlate::internals::to_spir(&printf_of(16)[..], &Default::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("printf") && !e.contains("internal error"), "{e}");
}
