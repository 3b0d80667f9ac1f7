//! Constructs real SPIR modules have and conformance kernels rarely do (tests/constructs/*.cl,
//! compiled by generate.sh beside them): each translates to SPIR-V that validates (in process,
//! before it is written) and back to SPIR that LLVM's verifier accepts.
//!
//! * `extern_decl`: calls to functions only declared (defined in another module): Import
//!   declarations, written before every definition;
//! * `nokernel`: a module without kernels: a library (Linkage, exported functions);
//! * `listnode`: a struct that points to itself (linked list): OpTypeForwardPointer;
//! * `byval_align`: a struct passed by value, `byval align 16`: the alignment is an Alignment
//!   decoration on the parameter, and `align 16` again in SPIR;
//! * `kcall`: a kernel called by another kernel: a `.callee` copy beside the entry point;
//! * `sampler_bits.ll` (legacy SPIR 1.2 by hand): a sampler's bits stored to memory, refused;
//! * `private_string.ll` (legacy SPIR 1.2 by hand): program-scope pointers, as integers, to
//!   data in the private address space: the data becomes constant or global;
//! * `private_table.ll` (legacy SPIR 1.2 by hand): a private-address-space table read through
//!   a byte pointer: under Vulkan, a copy in the kernel's addressed private memory.

mod common;

#[test]
fn every_construct_translates_both_ways() {
    let mut seen = 0;
    let dir = std::env::temp_dir().join(format!("spir-xlate-constructs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir("tests/constructs").unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_none_or(|e| e != "bc") {
            continue;
        }
        seen += 1;
        let words = spir_xlate::internals::to_spirv(&p, &spir_xlate::Options::default())
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let text = spir_xlate::disassemble(&words).unwrap();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("listnode") {
            assert!(text.contains("OpTypeForwardPointer"), "{name}");
        }
        // At -O2 clang inlines the called kernel.
        if name.starts_with("kcall.O0") {
            assert!(text.contains("inner.callee"), "{name}");
        }
        if name.starts_with("nokernel") {
            assert!(
                text.contains("Export") && !text.contains("OpEntryPoint"),
                "{name}"
            );
        }
        if name.starts_with("extern_decl") {
            assert!(text.contains("Import"), "{name}");
        }
        let spv = dir.join(format!("{name}.spv"));
        common::write_spirv(&spv, &words);
        for flavor in [spir_xlate::Flavor::Spir, spir_xlate::Flavor::SpirvIr] {
            let opts = spir_xlate::SpirOptions {
                flavor,
                ..Default::default()
            };
            spir_xlate::internals::to_spir(&spv, &opts)
                .unwrap_or_else(|e| panic!("{name} back to {flavor:?}: {e}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(seen, 10, "5 kernels at -O0 and -O2");
}

/// `sampler_bits.ll`: a legacy SPIR 1.2 kernel that stores its sampler (an `i32` there) to a
/// buffer. A SPIR-V sampler has no bits to read: refused by name and construct, exit 1,
/// no output (it was an internal error: the graph held a sampler stored as an integer).
#[test]
fn the_bits_of_a_sampler_are_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("spir-xlate-sampler-bits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("sampler_bits.spv");
    let (code, err) = common::cli(&[
        "to-spirv",
        "tests/constructs/sampler_bits.ll",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("function 'sampler_bits'")
            && err.contains("the bits of a sampler stored to memory")
            && !err.contains("internal error"),
        "{err}"
    );
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `private_string.ll`: early SPIR 1.2 producers put a string literal and a table in the
/// private address space and pointed program-scope variables at them through `inttoptr
/// (ptrtoint ...)`. SPIR-V's OpenCL environment has no module-scope private storage: the
/// constant string is UniformConstant data, the written table CrossWorkgroup data, and the
/// pointers their addresses (no round trip through an integer). Back to SPIR, the data keeps
/// those address spaces. (It was refused: "the address of private-address-space variable".)
#[test]
fn private_data_pointed_to_from_program_scope_becomes_constant_or_global() {
    let p = std::path::Path::new("tests/constructs/private_string.ll");
    let words = spir_xlate::internals::to_spirv(p, &spir_xlate::Options::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let text = spir_xlate::disassemble(&words).unwrap();
    let var = |name: &str, class: &str| {
        text.lines()
            .any(|l| l.contains(&format!("%{name} = OpVariable")) && l.contains(class))
    };
    assert!(var("_str", "UniformConstant"), "{text}");
    assert!(var("counts", "CrossWorkgroup"), "{text}");
    assert!(!text.contains("ConvertPtrToU"), "{text}");
    let dir =
        std::env::temp_dir().join(format!("spir-xlate-private-string-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spv = dir.join("private_string.spv");
    common::write_spirv(&spv, &words);
    let back = spir_xlate::internals::to_spir(&spv, &spir_xlate::SpirOptions::default())
        .unwrap_or_else(|e| panic!("back to SPIR: {e}"));
    let bc = dir.join("private_string.bc");
    std::fs::write(&bc, back).unwrap();
    let dis = std::process::Command::new("/usr/lib/llvm-14/bin/llvm-dis")
        .arg(&bc)
        .args(["-o", "-"])
        .output()
        .expect("llvm-dis (LLVM 14; see .ci/run)");
    let ll = String::from_utf8_lossy(&dis.stdout).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        ll.contains("@.str = internal addrspace(2) constant"),
        "{ll}"
    );
    assert!(
        ll.contains("@counts = internal addrspace(1) global"),
        "{ll}"
    );
}

/// `private_table.ll`: program-scope private data in a kernel whose private memory is
/// addressed under Vulkan (a byte view of a table) has its copy in the kernel's arena, its
/// initializer stored word by word at entry (it was refused: "program-scope private data in a
/// kernel whose private memory is addressed").
#[test]
fn private_data_in_an_addressed_kernel_is_copied_into_its_private_memory() {
    let p = std::path::Path::new("tests/constructs/private_table.ll");
    let opts = spir_xlate::Options {
        target: spir_xlate::TargetEnv::Vulkan12,
        ..Default::default()
    };
    let words = spir_xlate::internals::to_spirv(p, &opts).unwrap_or_else(|e| panic!("{e}"));
    let text = spir_xlate::disassemble(&words).unwrap();
    assert!(text.contains("\"private.memory\""), "{text}");
    for word in [16909060, 84281096, 151653132, 219025168] {
        assert!(
            text.contains(&format!("%uint_{word} = OpConstant")),
            "{word}: {text}"
        );
    }
}

/// SPIR-V 1.4 and later list every module-scope variable an entry point uses in its
/// interface, the constant byte arrays a `memset` becomes included (they were left out, and
/// the module was refused as invalid for `--target opencl3.0 --spirv-version 1.4`, the
/// OpenCL layer's choice on the Intel runtime).
#[test]
fn fill_constants_are_in_the_interface_from_spirv_1_4() {
    for fixture in [
        "tests/fixtures/modern/memset_memcpy.spir64.bc",
        "tests/fixtures/modern/private_halves.spir64.bc",
    ] {
        for version in [(1, 4), (1, 6)] {
            let options = spir_xlate::Options {
                target: spir_xlate::TargetEnv::OpenCl30,
                spirv_version: Some(version),
                ..Default::default()
            };
            let words = spir_xlate::internals::to_spirv(std::path::Path::new(fixture), &options)
                .unwrap_or_else(|e| panic!("{fixture} as SPIR-V {version:?}: {e}"));
            let text = spir_xlate::disassemble(&words).unwrap();
            assert!(
                text.contains("UniformConstant"),
                "{fixture}: no fill constant"
            );
        }
    }
}

/// A parameter's `align` is kept both ways: SPIR-V's Alignment decoration on the
/// OpFunctionParameter, and `align` in SPIR of either flavor.
#[test]
fn a_parameter_alignment_is_kept_both_ways() {
    let dir = std::env::temp_dir().join(format!("spir-xlate-align-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for o in ["O0", "O2"] {
        let input = format!("tests/constructs/byval_align.{o}.bc");
        let words =
            spir_xlate::internals::to_spirv(std::path::Path::new(&input), &Default::default())
                .unwrap();
        let text = spir_xlate::disassemble(&words).unwrap();
        let param = text
            .lines()
            .find(|l| l.contains("OpFunctionParameter") && l.contains("%s "))
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .unwrap_or_else(|| panic!("{input}: no parameter %s in\n{text}"));
        assert!(
            text.contains(&format!("OpDecorate {param} Alignment 16")),
            "{input}: {param} has no Alignment 16"
        );
        let spv = dir.join(format!("byval_align.{o}.spv"));
        common::write_spirv(&spv, &words);
        for flavor in [spir_xlate::Flavor::Spir, spir_xlate::Flavor::SpirvIr] {
            let opts = spir_xlate::SpirOptions {
                flavor,
                text: true,
                ..Default::default()
            };
            let ll =
                String::from_utf8(spir_xlate::internals::to_spir(&spv, &opts).unwrap()).unwrap();
            assert!(
                ll.lines()
                    .any(|l| l.starts_with("define") && l.contains("byval(%struct.S) align 16 %s")),
                "{input} back to {flavor:?}:\n{ll}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `to-spir`'s LLVM IR text of the SPIR-V `words` (written to a scratch file named by `tag`).
fn spir_text_of(words: &[u32], tag: &str) -> String {
    spir_text_in(words, tag, spir_xlate::SpirForm::Clang)
}

/// As `spir_text_of`, in SPIR form `form`.
fn spir_text_in(words: &[u32], tag: &str, form: spir_xlate::SpirForm) -> String {
    let dir = std::env::temp_dir().join(format!("spir-xlate-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spv = dir.join(format!("{tag}.spv"));
    common::write_spirv(&spv, words);
    let opts = spir_xlate::SpirOptions {
        text: true,
        form,
        ..Default::default()
    };
    let ll = String::from_utf8(spir_xlate::internals::to_spir(&spv, &opts).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    ll
}

/// The input's wrap flags (`add nsw`, which LLVM 14's C API cannot read) are kept where
/// SPIR-V has them: NoSignedWrap from SPIR-V 1.4 on for an OpenCL target, and back to `nsw`
/// in SPIR. Not in SPIR-V 1.0 (the default), and not for Vulkan.
#[test]
fn wrap_flags_are_kept_from_spirv_1_4() {
    let fixture = std::path::Path::new("tests/fixtures/modern/matmul_tiled.spir64.bc");
    let spirv = |target, version| {
        let options = spir_xlate::Options {
            target,
            spirv_version: version,
            ..Default::default()
        };
        let words = spir_xlate::internals::to_spirv(fixture, &options).unwrap();
        (spir_xlate::disassemble(&words).unwrap(), words)
    };
    let (text, words) = spirv(spir_xlate::TargetEnv::OpenCl30, Some((1, 4)));
    let decorated = text.matches("NoSignedWrap").count();
    assert!(decorated > 0, "no NoSignedWrap in\n{text}");
    for (target, version) in [
        (spir_xlate::TargetEnv::OpenCl21, None),
        (spir_xlate::TargetEnv::OpenCl30, None),
        (spir_xlate::TargetEnv::Vulkan12, Some((1, 5))),
    ] {
        let (text, _) = spirv(target, version);
        assert!(!text.contains("Wrap"), "{target:?} {version:?}:\n{text}");
    }
    let ll = spir_text_of(&words, "wrap");
    assert!(
        ll.matches(" nsw ").count() >= decorated,
        "{decorated} decorated, back in SPIR:\n{ll}"
    );
}

/// Integer texels keep their sign from SPIR-V 1.4 on (SignExtend / ZeroExtend image
/// operands, which other producers write too): `read_imageui` and `write_imageui` come back
/// as themselves, not as their signed twins.
#[test]
fn texel_signs_are_kept_from_spirv_1_4() {
    let fixture = std::path::Path::new("tests/fixtures/modern/image_int_formats.spir64.bc");
    let options = spir_xlate::Options {
        target: spir_xlate::TargetEnv::OpenCl30,
        spirv_version: Some((1, 4)),
        ..Default::default()
    };
    let words = spir_xlate::internals::to_spirv(fixture, &options).unwrap();
    let text = spir_xlate::disassemble(&words).unwrap();
    for operand in [
        "Lod|ZeroExtend",
        "Lod|SignExtend",
        " ZeroExtend",
        " SignExtend",
    ] {
        assert!(text.contains(operand), "no {operand} in\n{text}");
    }
    // clang's form names images by access; the specification's does not.
    let clang = spir_text_of(&words, "texels");
    let spec = spir_text_in(&words, "texels-spec", spir_xlate::SpirForm::Spec);
    for (name, access) in [
        ("read_imageui", "ro"),
        ("read_imagei", "ro"),
        ("write_imageui", "wo"),
        ("write_imagei", "wo"),
    ] {
        assert!(
            clang.contains(&format!("{name}14ocl_image2d_{access}")),
            "no {name} in\n{clang}"
        );
        assert!(
            spec.contains(&format!("{name}11ocl_image2d")),
            "no {name} in\n{spec}"
        );
    }
    assert!(
        clang.contains("write_imageui14ocl_image2d_woDv2_iDv4_j"),
        "{clang}"
    );
    assert!(
        spec.contains("write_imageui11ocl_image2dDv2_iDv4_j"),
        "{spec}"
    );
}
