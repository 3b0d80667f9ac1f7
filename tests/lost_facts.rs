//! Facts of the input that the output does not keep are reported, each once, both ways: by
//! the library (`lost`), the CLI (warnings) and `migrate` (the report); a module whose facts
//! are all kept reports none.
mod common;

use spir_xlate::{Options, SpirOptions, TargetEnv};

/// A kernel with debug information, unknown named metadata, an unsigned `vec_type_hint`, a
/// `work_group_size_hint`, a `restrict` (noalias) buffer and a `readnone` parameter.
const LOSSY_IR: &str = r#"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(i32 addrspace(1)* noalias %out, i32 addrspace(1)* readnone %unused) !kernel_arg_addr_space !10 !kernel_arg_access_qual !11 !kernel_arg_type !12 !kernel_arg_base_type !12 !kernel_arg_type_qual !13 !vec_type_hint !14 !work_group_size_hint !15 {
entry:
  store i32 1, i32 addrspace(1)* %out, align 4
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!my.tool.annotations = !{!3}
!opencl.ocl.version = !{!4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.cl", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{!"anything"}
!4 = !{i32 1, i32 2}
!10 = !{i32 1, i32 1}
!11 = !{!"none", !"none"}
!12 = !{!"uint*", !"uint*"}
!13 = !{!"", !""}
!14 = !{<4 x i32> undef, i32 0}
!15 = !{i32 8, i32 1, i32 1}
"#;

fn facts(lost: &[spir_xlate::diag::Lost]) -> Vec<String> {
    lost.iter().map(ToString::to_string).collect()
}

fn has(list: &[String], needle: &str) -> bool {
    list.iter().any(|l| l.contains(needle))
}

#[test]
fn forward_reports_what_spirv_does_not_keep() {
    let out = spir_xlate::internals::translate_to_spirv(LOSSY_IR.as_bytes(), &Options::default())
        .unwrap();
    let lost = facts(&out.lost);
    // Kept: OpenCL.DebugInfo.100.
    assert!(!has(&lost, "debug information"), "{lost:#?}");
    assert!(has(&lost, "`!my.tool.annotations`"), "{lost:#?}");
    assert!(
        has(&lost, "kernel 'k': vec_type_hint of an unsigned type"),
        "{lost:#?}"
    );
    assert!(
        has(&lost, "function 'k': parameter %unused is readnone"),
        "{lost:#?}"
    );
    // Kept by SPIR-V for OpenCL, and meaningless for the device program: not reported.
    assert!(!has(&lost, "work_group_size_hint"), "{lost:#?}");
    assert!(!has(&lost, "llvm.module.flags"), "{lost:#?}");
    assert_eq!(lost.len(), 3, "{lost:#?}");

    // Left out when asked, and said.
    let none = Options {
        debug_info: spir_xlate::DebugInfoFormat::None,
        ..Default::default()
    };
    let out = spir_xlate::internals::translate_to_spirv(LOSSY_IR.as_bytes(), &none).unwrap();
    let lost = facts(&out.lost);
    assert!(
        has(
            &lost,
            "debug information (source lines, variables, types): left out"
        ),
        "{lost:#?}"
    );

    let vulkan = Options {
        target: TargetEnv::parse("vulkan1.2").unwrap(),
        ..Default::default()
    };
    let out = spir_xlate::internals::translate_to_spirv(LOSSY_IR.as_bytes(), &vulkan).unwrap();
    let lost = facts(&out.lost);
    for hint in ["work_group_size_hint", "vec_type_hint is a Kernel-only"] {
        assert!(has(&lost, hint), "{hint}: {lost:#?}");
    }
    // `restrict` is kept (`physical_addresses_keep_restrict`); readnone is what the
    // kernel's code says.
    assert!(!has(&lost, "restrict"), "{lost:#?}");
    assert!(!has(&lost, "%unused"), "{lost:#?}");
    // Kept: NonSemantic.Shader.DebugInfo.100.
    assert!(!has(&lost, "debug information"), "{lost:#?}");
}

/// Under `descriptors` a buffer argument's hints become its variable's decorations
/// (NonWritable, NonReadable, Restrict), and nothing about them is reported.
#[test]
fn descriptors_keep_the_arguments_hints() {
    let options = Options {
        target: TargetEnv::parse("vulkan1.2").unwrap(),
        vulkan_pointers: spir_xlate::VulkanPointers::Descriptors,
        ..Default::default()
    };
    let out = spir_xlate::internals::translate_to_spirv(LOSSY_IR.as_bytes(), &options).unwrap();
    let lost = facts(&out.lost);
    assert!(!has(&lost, "restrict"), "{lost:#?}");
    assert!(!has(&lost, "%unused"), "{lost:#?}");
    let Walked {
        names, decorated, ..
    } = walk(&out.words);
    let named = |name: &str| {
        names
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, id)| id)
            .unwrap_or_else(|| panic!("no variable named {name}"))
    };
    let decorations = |id: u32| {
        let mut d: Vec<&str> = decorated
            .iter()
            .filter(|&&(target, _)| target == id)
            .filter_map(|&(_, d)| match d {
                24 => Some("NonWritable"),
                25 => Some("NonReadable"),
                19 => Some("Restrict"),
                _ => None,
            })
            .collect();
        d.sort();
        d
    };
    assert_eq!(decorations(named("k.out")), ["Restrict"]);
    assert_eq!(
        decorations(named("k.unused")),
        ["NonReadable", "NonWritable"]
    );
}

/// What `walk` collects of a module's instructions.
struct Walked {
    /// OpName: (name, target).
    names: Vec<(String, u32)>,
    /// OpDecorate without operands past the decoration: (target, decoration).
    decorated: Vec<(u32, u32)>,
    /// OpVariable: (result, storage class).
    variables: Vec<(u32, u32)>,
}

/// Walk the module's instructions.
fn walk(words: &[u32]) -> Walked {
    let mut w = Walked {
        names: Vec::new(),
        decorated: Vec::new(),
        variables: Vec::new(),
    };
    for (opcode, ops) in common::instructions(words) {
        match opcode {
            // OpName: target, then the name as a nul-terminated string.
            5 => {
                let bytes: Vec<u8> = ops[1..].iter().flat_map(|w| w.to_le_bytes()).collect();
                let end = bytes.iter().position(|&b| b == 0).unwrap();
                w.names
                    .push((String::from_utf8_lossy(&bytes[..end]).to_string(), ops[0]));
            }
            // OpVariable: type, result, storage class.
            59 => w.variables.push((ops[1], ops[2])),
            // OpDecorate: target, decoration.
            71 => w.decorated.push((ops[0], ops[1])),
            _ => {}
        }
    }
    w
}

/// Under physical pointers (the default) a `restrict` buffer's address is held in a Function
/// variable decorated RestrictPointer; the kernel's other addresses are AliasedPointer where
/// a variable holds them. Nothing about `restrict` is reported.
#[test]
fn physical_addresses_keep_restrict() {
    const RESTRICT: u32 = 5355;
    const ALIASED: u32 = 5356;
    const FUNCTION: u32 = 7;
    let options = Options {
        target: TargetEnv::parse("vulkan1.2").unwrap(),
        ..Default::default()
    };
    let out = spir_xlate::internals::translate_to_spirv(LOSSY_IR.as_bytes(), &options).unwrap();
    assert!(!has(&facts(&out.lost), "restrict"), "{:#?}", out.lost);
    let w = walk(&out.words);
    let holders: Vec<u32> = w
        .decorated
        .iter()
        .filter(|&&(_, d)| d == RESTRICT)
        .map(|&(t, _)| t)
        .collect();
    // One holder: `%out`'s. `%unused` is not restrict.
    assert_eq!(holders.len(), 1, "{:?}", w.decorated);
    assert!(
        w.variables.contains(&(holders[0], FUNCTION)),
        "{:?}",
        w.variables
    );
    assert!(!w.decorated.contains(&(holders[0], ALIASED)));

    // The kernel's source, with `restrict` on two of three buffers, each kept.
    let fixture = std::fs::read("tests/fixtures/modern/restrict_args.spir64.bc").unwrap();
    let out = spir_xlate::internals::translate_to_spirv(&fixture, &options).unwrap();
    assert!(out.lost.is_empty(), "{:#?}", out.lost);
    let w = walk(&out.words);
    let restrict = w.decorated.iter().filter(|&&(_, d)| d == RESTRICT).count();
    // blur_rows: 2, gemv: 3, axpy_inplace: 2.
    assert_eq!(restrict, 7, "{:?}", w.decorated);
}

#[test]
fn a_module_that_keeps_everything_reports_nothing() {
    for fixture in [
        "tests/fixtures/modern/vector_add.spir64.bc",
        "tests/fixtures/legacy/images.spir64.bc",
    ] {
        let bitcode = std::fs::read(fixture).unwrap();
        let out = spir_xlate::internals::translate_to_spirv(&bitcode, &Options::default()).unwrap();
        assert!(out.lost.is_empty(), "{fixture}: {:#?}", out.lost);
        let back =
            spir_xlate::internals::translate_to_spir(&out.words, &SpirOptions::default()).unwrap();
        assert!(back.lost.is_empty(), "{fixture}: {:#?}", back.lost);
    }
}

/// Our SPIR-V of `vector_add` with what a SPIR-V producer may add: line information, a
/// processing record, a non-semantic instruction, a decoration the reader does not read
/// (NoContraction) and one it does (Restrict, kept as `noalias`).
fn decorated_spirv() -> Vec<u32> {
    use rspirv::binary::Assemble;
    use rspirv::dr::{Instruction, Operand};
    use spirv::Op;
    let bitcode = std::fs::read("tests/fixtures/modern/vector_add.spir64.bc").unwrap();
    let words = spir_xlate::internals::to_spirv(&bitcode, &Options::default()).unwrap();
    let mut m = rspirv::dr::load_words(&words).unwrap();
    let mut next = m.header.as_ref().unwrap().bound;
    let mut id = || {
        next += 1;
        next - 1
    };
    let (set, file, unit) = (id(), id(), id());
    m.ext_inst_imports.push(Instruction::new(
        Op::ExtInstImport,
        None,
        Some(set),
        vec![Operand::LiteralString("NonSemantic.Test".into())],
    ));
    m.debug_string_source.push(Instruction::new(
        Op::String,
        None,
        Some(file),
        vec![Operand::LiteralString("k.cl".into())],
    ));
    m.debug_module_processed.push(Instruction::new(
        Op::ModuleProcessed,
        None,
        None,
        vec![Operand::LiteralString("test-tool".into())],
    ));
    let void = m
        .types_global_values
        .iter()
        .find(|i| i.class.opcode == Op::TypeVoid)
        .and_then(|i| i.result_id)
        .unwrap();
    let f = &mut m.functions[0];
    let param = f.parameters[0].result_id.unwrap();
    f.blocks[0].instructions.insert(
        0,
        Instruction::new(
            Op::Line,
            None,
            None,
            vec![
                Operand::IdRef(file),
                Operand::LiteralBit32(3),
                Operand::LiteralBit32(1),
            ],
        ),
    );
    f.blocks[0].instructions.insert(
        1,
        Instruction::new(
            Op::ExtInst,
            Some(void),
            Some(unit),
            vec![Operand::IdRef(set), Operand::LiteralExtInstInteger(1)],
        ),
    );
    let fmul = f
        .blocks
        .iter()
        .flat_map(|b| b.instructions.iter())
        .find(|i| matches!(i.class.opcode, Op::FAdd | Op::FMul))
        .and_then(|i| i.result_id)
        .expect("vector_add adds floats");
    for (target, d) in [
        (fmul, spirv::Decoration::NoContraction),
        (param, spirv::Decoration::Restrict),
    ] {
        m.annotations.push(Instruction::new(
            Op::Decorate,
            None,
            None,
            vec![Operand::IdRef(target), Operand::Decoration(d)],
        ));
    }
    m.header.as_mut().unwrap().bound = next;
    m.assemble()
}

#[test]
fn reverse_reports_what_spir_does_not_keep() {
    let words = decorated_spirv();
    let text = SpirOptions {
        text: true,
        ..Default::default()
    };
    let out = spir_xlate::internals::translate_to_spir(&words, &text).unwrap();
    let lost = facts(&out.lost);
    // Kept: an OpLine without a debug scope is a line of its function's own subprogram.
    assert!(!has(&lost, "OpLine"), "{lost:#?}");
    assert!(has(&lost, "OpModuleProcessed"), "{lost:#?}");
    assert!(has(&lost, "extended set NonSemantic.Test"), "{lost:#?}");
    assert!(
        has(&lost, "decoration NoContraction on 1 id(s)"),
        "{lost:#?}"
    );
    assert!(!has(&lost, "Restrict"), "{lost:#?}");
    assert_eq!(lost.len(), 3, "{lost:#?}");
    let ir = String::from_utf8(out.bytes).unwrap();
    assert!(
        ir.contains("!DILocation(line: 3, column: 1, scope: ")
            && ir.contains("!DIFile(filename: \"k.cl\""),
        "{ir}"
    );
    let define = ir.lines().find(|l| l.starts_with("define")).unwrap();
    assert!(
        define.contains("noalias"),
        "Restrict is kept as noalias: {define}"
    );
}

#[test]
fn the_cli_warns_and_migrate_reports() {
    let dir = std::env::temp_dir().join(format!("spir-xlate-lost-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("k.ll");
    std::fs::write(&input, LOSSY_IR).unwrap();
    let spv = dir.join("k.spv");
    let (code, stderr) = common::cli(&[
        "to-spirv",
        input.to_str().unwrap(),
        "-o",
        spv.to_str().unwrap(),
        "--debug-info",
        "none",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("warning: ") && stderr.contains("k.ll: not kept: debug information"),
        "{stderr}"
    );

    let report = dir.join("report.json");
    let (code, stderr) = common::cli(&[
        "migrate",
        input.to_str().unwrap(),
        "-o",
        dir.join("out").to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("1 of them with facts not kept"), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let lost = json["files"][0]["lost"].as_array().unwrap();
    assert_eq!(lost.len(), 3, "{json:#}");
    assert_eq!(json["summary"]["with facts not kept"], 1, "{json:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Debug information older than LLVM 3.4's format (no "Debug Info Version" flag, as LLVM 3.2
/// producers of SPIR 1.2 wrote it) is dropped by LLVM's reader before ours sees it: the
/// translation says so instead of losing it silently.
#[test]
fn debug_information_llvm_drops_is_reported() {
    let old = LOSSY_IR.replace("!llvm.module.flags = !{!2}\n", "");
    assert_ne!(old, LOSSY_IR);
    let out =
        spir_xlate::internals::translate_to_spirv(old.as_bytes(), &Options::default()).unwrap();
    let lost = facts(&out.lost);
    assert!(
        has(&lost, "debug information in the format of LLVM before 3.4"),
        "{lost:#?}"
    );
    // With the flag, nothing of the kind is said.
    let out = spir_xlate::internals::translate_to_spirv(LOSSY_IR.as_bytes(), &Options::default())
        .unwrap();
    assert!(!has(&facts(&out.lost), "before 3.4"));
}
