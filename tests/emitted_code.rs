//! What the Vulkan modules of the fixtures hold beyond their meaning: nothing the kernel
//! did not ask for, and contraction left to the driver where OpenCL C allows it (issue 48).
//!
//! * A kernel whose OpenCL C source has no double gets a module without Float64 and a
//!   reflection that asks no `shaderFloat64`, under both pointer strategies: most mobile GPUs
//!   (and Intel's Arc, and Apple's through MoltenVK) have no 64-bit floats, and the desktop
//!   ones compute them at 1/32 to 1/64 of the float rate.
//! * clang's contraction of `a * b + c` (`llvm.fmuladd`) is a GLSL.std.450 `Fma` without
//!   NoContraction, which the driver may fuse; an explicit `fma()` stays correctly rounded.

mod common;

use std::path::Path;

use spir_xlate::{Options, TargetEnv, VulkanPointers};

fn vulkan(pointers: VulkanPointers) -> Options {
    Options {
        target: TargetEnv::Vulkan12,
        vulkan_pointers: pointers,
        ..Default::default()
    }
}

/// Whether the module declares capability `cap`.
fn declares(words: &[u32], cap: spirv::Capability) -> bool {
    const CAPABILITY: u32 = 17;
    common::instructions(words)
        .iter()
        .any(|(op, ops)| *op == CAPABILITY && ops.first() == Some(&(cap as u32)))
}

#[test]
fn kernels_without_double_get_no_float64() {
    let (mut checked, mut with_double) = (0, 0);
    let mut offenders = Vec::new();
    for dir in [
        "tests/fixtures/modern",
        "tests/fixtures/legacy",
        "tests/fixtures/o0",
    ] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            let Some(name) = file.strip_suffix(".spir64.bc") else {
                continue;
            };
            let Ok(src) =
                std::fs::read_to_string(Path::new("tests/kernels").join(format!("{name}.cl")))
            else {
                continue;
            };
            if src.contains("double") || src.contains("fp64") {
                with_double += 1;
                continue;
            }
            for pointers in [VulkanPointers::Physical, VulkanPointers::Descriptors] {
                // Refusals are the Vulkan tier's business (each names its construct).
                let Ok(out) = spir_xlate::internals::translate_to_spirv(
                    &std::fs::read(&path).unwrap(),
                    &vulkan(pointers),
                ) else {
                    continue;
                };
                checked += 1;
                let asks = out
                    .reflection
                    .as_deref()
                    .is_some_and(|r| r.contains("shaderFloat64"));
                if declares(&out.words, spirv::Capability::Float64) || asks {
                    offenders.push(format!("{dir}/{file} ({pointers:?})"));
                }
            }
        }
    }
    assert!(
        checked >= 500 && with_double >= 20,
        "{checked} modules, {with_double} with double"
    );
    assert!(
        offenders.is_empty(),
        "Float64 without a double in the source: {offenders:#?}"
    );
}

#[test]
fn contraction_is_left_to_the_driver_and_fma_stays_exact() {
    // matmul_tiled's `acc += ta[ly][k] * tb[k][lx]` is clang's llvm.fmuladd.
    let bitcode = std::fs::read("tests/fixtures/modern/matmul_tiled.spir64.bc").unwrap();
    let out =
        spir_xlate::internals::translate_to_spirv(&bitcode, &vulkan(VulkanPointers::Physical))
            .unwrap();
    let text = spir_xlate::disassemble(&out.words).unwrap();
    let fmas: Vec<&str> = text.lines().filter(|l| l.contains(" Fma ")).collect();
    assert!(!fmas.is_empty(), "no Fma for the contracted product");
    for l in &fmas {
        let id = l.split_whitespace().next().unwrap();
        assert!(
            !text.contains(&format!("OpDecorate {id} NoContraction")),
            "the contracted {id} forbids fusion"
        );
    }
    assert!(!declares(&out.words, spirv::Capability::Float64));
    // fma_wide calls fma(): correctly rounded on every device, without a double: the
    // product of the significands in 64-bit integers (library/fma_float.rs).
    let bitcode = std::fs::read("tests/fixtures/modern/fma_wide.spir64.bc").unwrap();
    let out =
        spir_xlate::internals::translate_to_spirv(&bitcode, &vulkan(VulkanPointers::Physical))
            .unwrap();
    let text = spir_xlate::disassemble(&out.words).unwrap();
    assert!(text.contains("OpIMul %ulong"), "no exact product for fma()");
    assert!(!declares(&out.words, spirv::Capability::Float64));
}

#[test]
fn wide_vectors_in_physical_buffers_move_as_words() {
    // vector_ops reads a float8 and writes a float16 through 16-byte aligned buffers: one
    // uint4 access per 16 bytes, not one access per lane (src/vulkan/lanes/words.rs).
    let bitcode = std::fs::read("tests/fixtures/modern/vector_ops.spir64.bc").unwrap();
    let physical =
        spir_xlate::internals::translate_to_spirv(&bitcode, &vulkan(VulkanPointers::Physical))
            .unwrap();
    let text = spir_xlate::disassemble(&physical.words).unwrap();
    let count = |pattern: &str| text.lines().filter(|l| l.contains(pattern)).count();
    assert_eq!(
        count("OpLoad %v4uint"),
        2,
        "the float8 is two uint4 loads:\n{text}"
    );
    let stores = text
        .lines()
        .filter(|l| l.contains("OpStore") && l.ends_with("Aligned 16"))
        .count();
    assert_eq!(stores, 4, "the float16 is four uint4 stores:\n{text}");
    assert_eq!(
        count("OpLoad %float"),
        0,
        "a float lane loaded alone:\n{text}"
    );
    // Storage buffers keep one access per lane: their pointers cannot change pointee.
    let descriptors =
        spir_xlate::internals::translate_to_spirv(&bitcode, &vulkan(VulkanPointers::Descriptors))
            .unwrap();
    let text = spir_xlate::disassemble(&descriptors.words).unwrap();
    assert!(!text.contains("OpLoad %v4uint"), "{text}");
}

#[test]
fn mad_is_written_in_the_form_asked_for_opencl_targets() {
    // matmul_tiled's contracted `acc += ta[ly][k] * tb[k][lx]` is the graph's `mad`.
    let bitcode = std::fs::read("tests/fixtures/modern/matmul_tiled.spir64.bc").unwrap();
    let text = |form: &str| {
        let mut t = spir_xlate::Translation::ToSpirv(Options::default());
        t.set("mad", form).unwrap();
        let out = spir_xlate::translate(&bitcode[..], &t).unwrap();
        let words: Vec<u32> = out
            .bytes
            .chunks(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect();
        spir_xlate::disassemble(&words).unwrap()
    };
    let count = |text: &str, what: &str| text.lines().filter(|l| l.contains(what)).count();
    let (mad, fma, split) = (text("mad"), text("fma"), text("split"));
    assert!(
        count(&mad, " mad ") > 0 && count(&mad, " fma ") == 0,
        "{mad}"
    );
    assert_eq!(count(&fma, " fma "), count(&mad, " mad "), "{fma}");
    assert_eq!(count(&fma, " mad "), 0);
    assert_eq!(
        count(&split, " mad ") + count(&split, " fma "),
        0,
        "{split}"
    );
    assert_eq!(
        count(&split, "OpFMul") - count(&mad, "OpFMul"),
        count(&mad, " mad "),
        "a product for each mad"
    );
    assert_eq!(
        count(&split, "OpFAdd") - count(&mad, "OpFAdd"),
        count(&mad, " mad ")
    );
    // `contract`: the product and the sum, each decorated so the driver may fuse them, in
    // the extension the form names (the same bit in both).
    for (form, ext, cap) in [
        ("contract", "SPV_KHR_float_controls2", "FloatControls2"),
        (
            "contract-intel",
            "SPV_INTEL_fp_fast_math_mode",
            "FPFastMathModeINTEL",
        ),
    ] {
        let c = text(form);
        assert_eq!(count(&c, "OpFMul"), count(&split, "OpFMul"), "{c}");
        assert_eq!(count(&c, "OpFAdd"), count(&split, "OpFAdd"), "{c}");
        assert_eq!(
            count(&c, " FPFastMathMode Allow"),
            2 * count(&mad, " mad "),
            "a product and a sum decorated for each mad: {c}"
        );
        assert!(c.contains(&format!("OpExtension \"{ext}\"")), "{c}");
        assert!(c.contains(&format!("OpCapability {cap}")), "{c}");
        assert!(!split.contains("FPFastMathMode"));
    }
    let mut t = spir_xlate::Translation::ToSpirv(Options::default());
    assert!(t.set("mad", "fused").is_err());
}

#[test]
fn contracted_products_read_back_as_mad() {
    // What `--mad contract-intel` writes, read back by `to-spir`: each decorated product and
    // sum is `mad` again (as written from the SPIR's contractions), and no decoration is
    // reported as lost; `--mad split` reads back as the product and the sum.
    let bitcode = std::fs::read("tests/fixtures/modern/matmul_tiled.spir64.bc").unwrap();
    let back = |form: &str| {
        let mut t = spir_xlate::Translation::ToSpirv(Options::default());
        t.set("mad", form).unwrap();
        let spirv = spir_xlate::translate(&bitcode[..], &t).unwrap();
        let t = spir_xlate::Translation::ToSpir(Default::default());
        let out = spir_xlate::translate(&spirv.bytes[..], &t).unwrap();
        let text = spir_xlate::internals::llvm_text(&out.bytes).unwrap();
        (text, out.lost)
    };
    let (mad, _) = back("mad");
    let (contract, warnings) = back("contract-intel");
    let (split, _) = back("split");
    let calls = |t: &str| t.matches("call spir_func float @_Z3madfff").count();
    assert!(calls(&mad) > 0);
    assert_eq!(calls(&contract), calls(&mad), "{contract}");
    assert_eq!(calls(&split), 0);
    assert_eq!(
        contract.matches(" fmul ").count(),
        mad.matches(" fmul ").count(),
        "a product left behind: {contract}"
    );
    assert!(
        warnings.iter().all(|w| !w.fact.contains("FPFastMathMode")),
        "{warnings:?}"
    );
}

#[test]
fn step_of_a_nan_is_one_on_every_device() {
    // OpenCL C: "0.0 if x < edge, otherwise 1.0"; GLSL's Step lets a driver compare the other
    // way round (x >= edge), which gives 0.0 for a NaN. common_geometric calls step(b, a).
    let bitcode = std::fs::read("tests/fixtures/modern/common_geometric.spir64.bc").unwrap();
    let out =
        spir_xlate::internals::translate_to_spirv(&bitcode, &vulkan(VulkanPointers::Physical))
            .unwrap();
    let text = spir_xlate::disassemble(&out.words).unwrap();
    assert!(!text.contains(" Step "), "GLSL Step for step()");
    assert!(text.contains("OpFOrdLessThan"), "no ordered x < edge");
}

#[test]
fn tests_of_a_lane_mask_are_all_and_any() {
    // LLVM's optimizer tests compares it put in lanes as the bits of an integer: all of
    // them set (`== -1`), any (`!= 0`), none (`== 0`), not all (`!= -1`). Each is OpAll or
    // OpAny of the lanes (negated for the last two), not the bits gathered one lane at a
    // time; a use of the bits themselves still gathers them.
    let ir = r#"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @lanes(<4 x i32> addrspace(1)* %in, i32 addrspace(1)* %out) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %v = load <4 x i32>, <4 x i32> addrspace(1)* %in, align 16
  %c = icmp sgt <4 x i32> %v, zeroinitializer
  %bits = bitcast <4 x i1> %c to i4
  %all = icmp eq i4 %bits, -1
  %any = icmp ne i4 %bits, 0
  %none = icmp eq i4 %bits, 0
  %notall = icmp ne i4 %bits, -1
  %a = zext i1 %all to i32
  %b = zext i1 %any to i32
  %n = zext i1 %none to i32
  %m = zext i1 %notall to i32
  %s1 = shl i32 %b, 1
  %s2 = shl i32 %n, 2
  %s3 = shl i32 %m, 3
  %o1 = or i32 %a, %s1
  %o2 = or i32 %o1, %s2
  %o3 = or i32 %o2, %s3
  store i32 %o3, i32 addrspace(1)* %out, align 4
  ret void
}

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 1}
!2 = !{!"none", !"none"}
!3 = !{!"int4*", !"int*"}
!4 = !{!"", !""}
"#;
    let text = |ir: &str| {
        let out = spir_xlate::internals::to_spirv(ir.as_bytes(), &Options::default()).unwrap();
        spir_xlate::disassemble(&out).unwrap()
    };
    let t = text(ir);
    let count = |what: &str| t.lines().filter(|l| l.contains(what)).count();
    assert_eq!((count("OpAll"), count("OpAny")), (2, 2), "{t}");
    assert_eq!(count("OpLogicalNot"), 2, "{t}");
    assert!(
        t.contains("%all = OpAll") && t.contains("%none = OpLogicalNot"),
        "{t}"
    );
    assert_eq!(
        count("OpCompositeExtract %bool"),
        0,
        "lanes gathered one by one: {t}"
    );
    // The bits stored: gathered lane by lane, as before.
    let stored = ir.replace(
        "%o3 = or i32 %o2, %s3",
        "%z = zext i4 %bits to i32\n  %o3 = or i32 %z, %s3",
    );
    let t = text(&stored);
    assert_eq!(
        t.lines()
            .filter(|l| l.contains("OpCompositeExtract %bool"))
            .count(),
        4,
        "{t}"
    );
}

/// A float operation's fast-math flags (LLVM's `fast`, `nnan`, ...) in LLVM IR text.
fn fast_flags(text: &str, op: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let rest = l.split(" = ").nth(1)?.strip_prefix(op)?.strip_prefix(' ')?;
            let flags: Vec<&str> = rest
                .split(' ')
                .take_while(|w| {
                    [
                        "fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc",
                    ]
                    .contains(w)
                })
                .collect();
            Some(flags.join(" "))
        })
        .collect()
}

#[test]
fn fast_relaxed_math_is_kept_both_ways() {
    // A kernel built with -cl-fast-relaxed-math: each float operation is `fast`, written as
    // FPFastMathMode Fast (SPIR-V 1.0), or with SPV_KHR_float_controls2 (`--mad contract`)
    // as its seven bits (Fast is retired there); read back as `fast` in both flavors; a
    // Vulkan module is strict but for contraction (FPFastMathMode is a Kernel decoration),
    // which is reported; the flags of calls (floor, fmax, fmin) are reported as not held.
    let bitcode = std::fs::read("tests/fixtures/modern/fast_relaxed.spir64.bc").unwrap();
    let input = spir_xlate::internals::llvm_text(&bitcode).unwrap();
    let ops = fast_flags(&input, "fmul");
    assert!(ops.len() >= 4 && ops.iter().all(|f| f == "fast"), "{ops:?}");
    for (form, mode) in [
        ("mad", "FPFastMathMode Fast"),
        (
            "contract",
            "FPFastMathMode NotNaN|NotInf|NSZ|AllowRecip|AllowContract|AllowReassoc|AllowTransform",
        ),
    ] {
        let mut t = spir_xlate::Translation::ToSpirv(Options::default());
        t.set("mad", form).unwrap();
        let spirv = spir_xlate::translate(&bitcode[..], &t).unwrap();
        // The flags of the calls of floor, fmax and fmin are not held (reported).
        assert!(
            matches!(&spirv.lost[..], [l] if l.fact.contains("other than float arithmetic")),
            "{form}: {:?}",
            spirv.lost
        );
        let words: Vec<u32> = spirv
            .bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let text = spir_xlate::disassemble(&words).unwrap();
        let float_ops = ["OpFMul", "OpFAdd", "OpFSub", "OpFDiv"]
            .iter()
            .map(|o| text.matches(&format!("= {o} ")).count())
            .sum::<usize>();
        assert!(float_ops >= 8, "{text}");
        assert_eq!(text.matches(mode).count(), float_ops, "{form}: {text}");
        for flavor in [spir_xlate::Flavor::Spir, spir_xlate::Flavor::SpirvIr] {
            let t = spir_xlate::Translation::ToSpir(spir_xlate::SpirOptions {
                flavor,
                ..Default::default()
            });
            let out = spir_xlate::translate(&spirv.bytes[..], &t).unwrap();
            assert!(out.lost.is_empty(), "{form} {flavor:?}: {:?}", out.lost);
            let back = spir_xlate::internals::llvm_text(&out.bytes).unwrap();
            for op in ["fmul", "fadd", "fsub", "fdiv"] {
                let flags = fast_flags(&back, op);
                assert!(flags.iter().all(|f| f == "fast"), "{form} {op}: {back}");
            }
            assert_eq!(fast_flags(&back, "fmul").len(), ops.len(), "{back}");
        }
    }
    let out =
        spir_xlate::internals::translate_to_spirv(&bitcode, &vulkan(VulkanPointers::Physical))
            .unwrap();
    let text = spir_xlate::disassemble(&out.words).unwrap();
    assert!(!text.contains("FPFastMathMode"), "{text}");
    assert!(
        !text.contains("NoContraction"),
        "contraction was allowed: {text}"
    );
    assert!(
        out.lost.iter().any(|l| l.fact.contains("no NaNs")),
        "{:?}",
        out.lost
    );
}

/// A kernel of float arithmetic with single fast-math flags, and one operation without.
const SINGLE_FLAGS: &str = r#"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @flags(float addrspace(1)* %p) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %a = load float, float addrspace(1)* %p, align 4
  %b = fadd nnan ninf float %a, 1.0
  %c = fsub nsz float %b, %a
  %d = fdiv arcp float %c, 3.0
  %e = fmul contract float %d, %a
  %f = fadd float %e, %a
  store float %f, float addrspace(1)* %p, align 4
  ret void
}

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1}
!2 = !{!"none"}
!3 = !{!"float*"}
!4 = !{!""}
"#;

#[test]
fn single_fast_math_flags_are_kept_where_spirv_can_say_them() {
    let ir = SINGLE_FLAGS;
    // `nnan ninf`, `nsz`, `arcp` are SPIR-V 1.0 bits; `contract` alone has a bit only in the
    // extensions: reported as not kept by default, kept with `--mad contract-intel`.
    let round = |form: &str| {
        let mut t = spir_xlate::Translation::ToSpirv(Options::default());
        t.set("mad", form).unwrap();
        let spirv = spir_xlate::translate(ir.as_bytes(), &t).unwrap();
        let t = spir_xlate::Translation::ToSpir(spir_xlate::SpirOptions {
            flavor: spir_xlate::Flavor::SpirvIr,
            ..Default::default()
        });
        let out = spir_xlate::translate(&spirv.bytes[..], &t).unwrap();
        let back = spir_xlate::internals::llvm_text(&out.bytes).unwrap();
        let flags: Vec<Vec<String>> = ["fadd", "fsub", "fdiv", "fmul"]
            .iter()
            .map(|op| fast_flags(&back, op))
            .collect();
        (flags, spirv.lost)
    };
    let (flags, lost) = round("mad");
    assert_eq!(
        flags,
        [vec!["nnan ninf", ""], vec!["nsz"], vec!["arcp"], vec![""]],
        "default"
    );
    assert!(
        lost.iter()
            .any(|l| l.fact.contains("(contraction)") && l.fact.contains("float_controls2")),
        "{lost:?}"
    );
    let (flags, lost) = round("contract-intel");
    assert_eq!(
        flags,
        [
            vec!["nnan ninf", ""],
            vec!["nsz"],
            vec!["arcp"],
            vec!["contract"]
        ],
        "contract-intel"
    );
    assert!(lost.is_empty(), "{lost:?}");
}

#[test]
fn an_entry_point_s_fast_math_default_relaxes_its_undecorated_operations() {
    // SPV_KHR_float_controls2's FPFastMathDefault (NotNaN|NotInf|NSZ for float) on the
    // kernel: its operation without an FPFastMathMode of its own (`%f = fadd float`) reads
    // back with those flags; the decorated ones keep their own.
    use rspirv::binary::Assemble;
    use rspirv::dr::{Instruction, Operand};
    let mut t = spir_xlate::Translation::ToSpirv(Options::default());
    t.set("mad", "contract").unwrap();
    let spirv = spir_xlate::translate(SINGLE_FLAGS.as_bytes(), &t).unwrap();
    let words: Vec<u32> = spirv
        .bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let mut m = rspirv::dr::load_words(&words).unwrap();
    // The ids of a type, made where the module has none.
    let id_of = |m: &mut rspirv::dr::Module, op: spirv::Op, ops: Vec<Operand>| {
        let found = m
            .types_global_values
            .iter()
            .find(|i| i.class.opcode == op && i.operands == ops)
            .and_then(|i| i.result_id);
        found.unwrap_or_else(|| {
            let id = m.header.as_ref().unwrap().bound;
            m.header.as_mut().unwrap().bound += 1;
            m.types_global_values
                .insert(0, Instruction::new(op, None, Some(id), ops));
            id
        })
    };
    let float = id_of(
        &mut m,
        spirv::Op::TypeFloat,
        vec![Operand::LiteralBit32(32)],
    );
    let uint = id_of(
        &mut m,
        spirv::Op::TypeInt,
        vec![Operand::LiteralBit32(32), Operand::LiteralBit32(0)],
    );
    let kernel = m.entry_points[0].operands[1].unwrap_id_ref();
    let bits = m.header.as_ref().unwrap().bound;
    m.header.as_mut().unwrap().bound += 1;
    m.types_global_values.push(Instruction::new(
        spirv::Op::Constant,
        Some(uint),
        Some(bits),
        vec![Operand::LiteralBit32(7)],
    ));
    m.execution_modes.push(Instruction::new(
        spirv::Op::ExecutionModeId,
        None,
        None,
        vec![
            Operand::IdRef(kernel),
            Operand::ExecutionMode(spirv::ExecutionMode::FPFastMathDefault),
            Operand::IdRef(float),
            Operand::IdRef(bits),
        ],
    ));
    let t = spir_xlate::Translation::ToSpir(spir_xlate::SpirOptions {
        flavor: spir_xlate::Flavor::SpirvIr,
        ..Default::default()
    });
    let out = spir_xlate::translate(&common::spirv_bytes(&m.assemble())[..], &t).unwrap();
    let back = spir_xlate::internals::llvm_text(&out.bytes).unwrap();
    assert_eq!(
        fast_flags(&back, "fadd"),
        ["nnan ninf", "nnan ninf nsz"],
        "{back}"
    );
    assert_eq!(fast_flags(&back, "fsub"), ["nsz"], "{back}");
    assert!(out.lost.is_empty(), "{:?}", out.lost);
}

/// How many conditional branches of each loop of `words` go to the loop's merge block (its
/// exits; one merge block per loop in our modules), loop by loop.
fn loop_exits(words: &[u32]) -> Vec<usize> {
    const LOOP_MERGE: u32 = 246;
    const BRANCH_CONDITIONAL: u32 = 250;
    let insts = common::instructions(words);
    let merges: Vec<u32> = insts
        .iter()
        .filter(|(op, _)| *op == LOOP_MERGE)
        .map(|(_, ops)| ops[0])
        .collect();
    merges
        .iter()
        .map(|m| {
            insts
                .iter()
                .filter(|(op, ops)| *op == BRANCH_CONDITIONAL && ops[1..3].contains(m))
                .count()
        })
        .collect()
}

#[test]
fn a_loop_of_two_tests_leaves_from_its_latch_alone() {
    // `while (i < n && test)`: clang's rotated loop leaves from its header and from its
    // latch; where the latch only computes, the Vulkan module leaves from the latch alone
    // (a divergent exit fewer each iteration: 8% of mandelbrot's time on the H200).
    let fixture = Path::new("tests/fixtures/modern/escape_time.spir64.bc");
    for pointers in [VulkanPointers::Physical, VulkanPointers::Descriptors] {
        let words = spir_xlate::internals::to_spirv(fixture, &vulkan(pointers)).unwrap();
        assert_eq!(loop_exits(&words), [1, 1], "{pointers:?}");
    }
    // A latch that stores, reads memory or divides keeps its exits: some of loops_phis's
    // loops leave as clang wrote them.
    let words = spir_xlate::internals::to_spirv(
        Path::new("tests/fixtures/modern/loops_phis.spir64.bc"),
        &vulkan(VulkanPointers::Physical),
    )
    .unwrap();
    assert!(
        loop_exits(&words).iter().any(|&n| n >= 2),
        "{:?}",
        loop_exits(&words)
    );
}

#[test]
fn small_counted_loops_are_marked_for_unrolling() {
    // loops_phis.cl: `for (j = 0; j < n; ++j)` (n an argument: a trip count the driver cannot
    // see) is marked Unroll; `while (m != 1 && steps < 200)` and `do ... while (acc < 100)`
    // (constant bounds) are not, nor is any loop at -O0 (its bound a variable's value).
    const LOOP_MERGE: u32 = 246;
    let unrolled = |fixture: &str| -> (usize, usize) {
        let bc = std::fs::read(fixture).unwrap();
        let out = spir_xlate::internals::translate_to_spirv(&bc, &vulkan(VulkanPointers::Physical))
            .unwrap();
        let merges: Vec<u32> = common::instructions(&out.words)
            .into_iter()
            .filter(|(op, _)| *op == LOOP_MERGE)
            .map(|(_, ops)| ops[2])
            .collect();
        let marked = merges
            .iter()
            .filter(|&&c| c == spirv::LoopControl::UNROLL.bits())
            .count();
        (marked, merges.len())
    };
    assert_eq!(
        unrolled("tests/fixtures/modern/loops_phis.spir64.bc"),
        (1, 3)
    );
    assert_eq!(unrolled("tests/fixtures/o0/loops_phis.spir64.bc").0, 0);
}
