//! Debug information survives every direction (issue 35): for every fixture built with `-g`
//! (tests/fixtures/debug, debug-o0, legacy-debug), the line table of the input — each
//! instruction's line and column, with the lines of the calls it was inlined at — is compared
//! with that of the SPIR-V written (OpenCL.DebugInfo.100, and NonSemantic.Shader.DebugInfo.100
//! for Vulkan), and that of the SPIR written back from the SPIR-V, in both flavors.
//!
//! The tables are read from the disassemblers' text (LLVM's, SPIRV-Tools'), not from this
//! crate's readers. A position is `line:column`, then `@line` for each call it was inlined at
//! (SPIR-V's DebugInlinedAt has a line and no column).

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

type Table = BTreeSet<String>;

const DEBUG_DIRS: [&str; 3] = [
    "tests/fixtures/debug",
    "tests/fixtures/debug-o0",
    "tests/fixtures/legacy-debug",
];

fn debug_fixtures() -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = DEBUG_DIRS
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    all.sort();
    all
}

/// `name: value` fields of an LLVM metadata node's text.
fn field<'t>(node: &'t str, name: &str) -> Option<&'t str> {
    let at = node.find(&format!("{name}: "))? + name.len() + 2;
    let rest = &node[at..];
    let end = rest.find([',', ')']).unwrap_or(rest.len());
    Some(&rest[..end])
}

/// The line table of LLVM IR text: every instruction's `!dbg` location. With `kept_only`,
/// not those of the instructions SPIR-V has no place for: phis (a SPIR-V block's OpPhis come
/// before any OpLine) and `llvm.dbg.label` (the debug sets have no labels).
fn llvm_table(text: &str, kept_only: bool) -> Table {
    let mut nodes: HashMap<&str, &str> = HashMap::new();
    for line in text.lines() {
        if let Some((id, node)) = line.split_once(" = ") {
            if id.starts_with('!') && node.contains("!DILocation(") {
                nodes.insert(id, node);
            }
        }
    }
    let position = |id: &str| -> Option<String> {
        let node = nodes.get(id)?;
        let mut out = format!(
            "{}:{}",
            field(node, "line")?,
            field(node, "column").unwrap_or("0")
        );
        let mut at = field(node, "inlinedAt");
        while let Some(outer) = at {
            let n = nodes.get(outer)?;
            out.push_str(&format!("@{}", field(n, "line")?));
            at = field(n, "inlinedAt");
        }
        Some(out)
    };
    let mut table = Table::new();
    let mut in_function = false;
    for line in text.lines() {
        if line.starts_with("define ") {
            in_function = true;
        } else if line.starts_with('}') {
            in_function = false;
        } else if in_function {
            if kept_only && (line.contains(" = phi ") || line.contains("@llvm.dbg.label(")) {
                continue;
            }
            if let Some(at) = line.rfind("!dbg ") {
                let id = line[at + 5..].split([',', ' ']).next().unwrap();
                table.insert(position(id).unwrap_or_else(|| panic!("no location {id}")));
            }
        }
    }
    table
}

/// The line table of SPIR-V disassembly: each instruction of a function under an OpLine or
/// DebugLine, with the DebugInlinedAt chain of the DebugScope in force.
fn spirv_table(text: &str) -> Table {
    let mut constants: HashMap<&str, &str> = HashMap::new();
    let mut inlined: HashMap<&str, (String, Option<&str>)> = HashMap::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [id, "=", "OpConstant", _, value] = words[..] {
            constants.insert(id, value);
        }
        if words.len() >= 7 && words[2] == "OpExtInst" && words[5] == "DebugInlinedAt" {
            let n = words[6];
            let n = constants.get(n).copied().unwrap_or(n).to_string();
            inlined.insert(words[0], (n, words.get(8).copied()));
        }
    }
    let num = |w: &str| constants.get(w).copied().unwrap_or(w).to_string();
    let mut table = Table::new();
    let (mut in_function, mut line_now, mut chain) = (false, None::<String>, String::new());
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let op = words
            .iter()
            .find(|w| w.starts_with("Op"))
            .copied()
            .unwrap_or("");
        match op {
            "OpFunction" => in_function = true,
            "OpFunctionEnd" => in_function = false,
            "OpLabel" => {
                line_now = None;
                chain.clear();
            }
            "OpLine" => line_now = Some(format!("{}:{}", words[2], words[3])),
            "OpNoLine" => line_now = None,
            "OpExtInst" if in_function => {
                let ext = words.iter().position(|w| *w == "OpExtInst").unwrap();
                match words.get(ext + 3).copied() {
                    Some("DebugScope") => {
                        chain.clear();
                        let mut at = words.get(ext + 5).copied();
                        while let Some(id) = at {
                            let (l, outer) = &inlined[id];
                            chain.push_str(&format!("@{l}"));
                            at = *outer;
                        }
                    }
                    Some("DebugNoScope") => chain.clear(),
                    Some("DebugLine") => {
                        line_now = Some(format!("{}:{}", num(words[ext + 5]), num(words[ext + 7])));
                    }
                    Some("DebugNoLine") => line_now = None,
                    Some("DebugFunctionDefinition") => {}
                    _ => {
                        if let Some(l) = &line_now {
                            table.insert(format!("{l}{chain}"));
                        }
                    }
                }
            }
            _ if in_function && !op.is_empty() && op != "OpFunctionParameter" => {
                if let Some(l) = &line_now {
                    table.insert(format!("{l}{chain}"));
                }
            }
            _ => {}
        }
    }
    table
}

/// Positions without their inlined-at chain.
fn lines_only(t: &Table) -> Table {
    t.iter()
        .map(|p| p.split('@').next().unwrap().to_string())
        .collect()
}

/// Positions of the input whose only instruction becomes no instruction at all: (kernel,
/// position, why).
const NOT_INSTRUCTIONS: [(&str, &str, &str); 2] = [
    (
        "images",
        "2:28",
        "a program-scope sampler's initializer is a constant (OpConstantSampler)",
    ),
    (
        "vectors",
        "5:25",
        "convert_uint4 of an int4 is the same bits: no instruction",
    ),
];

/// The result ids of every `opcode` instruction in SPIR-V disassembly `text`.
fn results_of<'t>(text: &'t str, opcode: &str) -> BTreeSet<&'t str> {
    let def = format!("= {opcode} ");
    text.lines()
        .filter(|l| l.contains(&def))
        .filter_map(|l| l.split_whitespace().next())
        .collect()
}

/// The operands of every `DebugX` extended instruction `name` in disassembly `text`, each
/// as its words.
fn debug_operands<'t>(text: &'t str, name: &str) -> Vec<Vec<&'t str>> {
    let at = format!(" {name} ");
    text.lines()
        .filter_map(|l| l.split(&at).nth(1))
        .map(|ops| ops.split_whitespace().collect())
        .collect()
}

fn spirv_text(fixture: &Path, options: &spir_xlate::Options) -> (Vec<u32>, String) {
    let words = spir_xlate::internals::to_spirv(fixture, options)
        .unwrap_or_else(|e| panic!("{}: {e}", fixture.display()));
    let text = spir_xlate::disassemble(&words).unwrap();
    (words, text)
}

#[test]
fn line_tables_survive_both_ways_and_vulkan() {
    let fixtures = debug_fixtures();
    assert_eq!(fixtures.len(), 45, "15 kernels in 3 debug shapes");
    let dir = std::env::temp_dir().join(format!("spir-xlate-debug-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut kept, mut total) = (0usize, 0usize);
    for fixture in &fixtures {
        let id = format!(
            "{}/{}",
            fixture
                .parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy(),
            fixture.file_name().unwrap().to_string_lossy()
        );
        let text = spir_xlate::internals::llvm_text(&std::fs::read(fixture).unwrap()).unwrap();
        let (input, all) = (llvm_table(&text, true), llvm_table(&text, false));
        assert!(input.len() > 3, "{id}: the fixture has no line table");

        // SPIR -> SPIR-V (OpenCL.DebugInfo.100): no position the input did not have, and
        // the input's positions, but those of instructions no SPIR-V instruction stands for.
        let (words, text) = spirv_text(fixture, &Default::default());
        assert!(text.contains("OpenCL.DebugInfo.100"), "{id}");
        let forward = spirv_table(&text);
        let invented: Vec<_> = forward.difference(&all).collect();
        assert!(
            invented.is_empty(),
            "{id}: positions the input did not have: {invented:?}"
        );
        let name = fixture.file_name().unwrap().to_string_lossy();
        let missing: Vec<_> = input
            .difference(&forward)
            .filter(|p| {
                !NOT_INSTRUCTIONS
                    .iter()
                    .any(|(k, at, _)| name.starts_with(&format!("{k}.")) && at == p)
            })
            .collect();
        assert!(missing.is_empty(), "{id}: positions lost: {missing:?}");
        kept += forward.intersection(&input).count();
        total += input.len();

        // SPIR-V -> SPIR, both flavors: every position of the SPIR-V, and nothing else.
        let spv = dir.join(format!("{}.spv", id.replace('/', ".")));
        common::write_spirv(&spv, &words);
        for flavor in [spir_xlate::Flavor::Spir, spir_xlate::Flavor::SpirvIr] {
            let opts = spir_xlate::SpirOptions {
                flavor,
                text: true,
                ..Default::default()
            };
            let out = spir_xlate::internals::translate_to_spir(&spv, &opts).unwrap();
            assert!(
                !out.lost.iter().any(|l| l.to_string().contains("debug")),
                "{id} to {flavor:?}: {:?}",
                out.lost
            );
            let back = llvm_table(&String::from_utf8(out.bytes).unwrap(), false);
            assert_eq!(back, forward, "{id} back to {flavor:?}");
        }

        // Vulkan (NonSemantic.Shader.DebugInfo.100): helpers are inlined, so positions gain
        // inlined-at chains; their lines and columns are the input's.
        let vulkan = spir_xlate::Options {
            target: spir_xlate::TargetEnv::Vulkan12,
            ..Default::default()
        };
        match spir_xlate::internals::to_spirv(fixture.as_path(), &vulkan) {
            Ok(words) => {
                let text = spir_xlate::disassemble(&words).unwrap();
                assert!(text.contains("NonSemantic.Shader.DebugInfo.100"), "{id}");
                // (A phi's position stays: the load that stands for it in a shader has it.)
                let vk = lines_only(&spirv_table(&text));
                let input_lines = lines_only(&all);
                let invented: Vec<_> = vk.difference(&input_lines).collect();
                assert!(invented.is_empty(), "{id} (Vulkan): {invented:?}");
                assert!(
                    vk.len() * 2 > lines_only(&input).len(),
                    "{id} (Vulkan): {} of {} lines",
                    vk.len(),
                    lines_only(&input).len()
                );
            }
            // Kernels whose construct has no Vulkan form are refused with or without -g.
            Err(e) => assert!(e.to_string().contains("no Vulkan form"), "{id}: {e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{kept} of {total} positions kept");
}

/// The other producer and consumer of OpenCL.DebugInfo.100 (oracle tier: needs
/// llvm-spirv-14): `llvm-spirv-14 -r` reads our debug information back into LLVM debug
/// metadata, and we read its own (into SPIR that LLVM's verifier accepts, with locations).
#[test]
#[ignore]
fn llvm_spirv_reads_ours_and_we_read_its() {
    let dir = std::env::temp_dir().join(format!("spir-xlate-debug-k-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut theirs, mut ours) = (0, 0);
    for fixture in debug_fixtures() {
        let id = fixture
            .to_string_lossy()
            .replace("tests/fixtures/", "")
            .replace('/', ".");
        let (words, _) = spirv_text(&fixture, &Default::default());
        let spv = dir.join(format!("{id}.spv"));
        common::write_spirv(&spv, &words);
        let back = dir.join(format!("{id}.back.bc"));
        let status = std::process::Command::new("llvm-spirv-14")
            .arg("-r")
            .arg(&spv)
            .arg("-o")
            .arg(&back)
            .status()
            .expect("llvm-spirv-14 runs");
        assert!(
            status.success(),
            "{id}: llvm-spirv-14 -r refused our module"
        );
        let text = spir_xlate::internals::llvm_text(&std::fs::read(&back).unwrap()).unwrap();
        assert!(text.contains("!DILocation("), "{id}: no location read back");
        ours += 1;

        // llvm-spirv-14's own module of the fixture, where it makes one (it aborts on some).
        let k = dir.join(format!("{id}.k.spv"));
        let made = std::process::Command::new("llvm-spirv-14")
            .arg(&fixture)
            .arg("-o")
            .arg(&k)
            .stderr(std::process::Stdio::null())
            .status()
            .expect("llvm-spirv-14 runs");
        if !made.success() {
            continue;
        }
        let opts = spir_xlate::SpirOptions {
            text: true,
            ..Default::default()
        };
        let out = spir_xlate::internals::to_spir(&k, &opts)
            .unwrap_or_else(|e| panic!("{id}: llvm-spirv-14's module: {e}"));
        let text = String::from_utf8(out).unwrap();
        let table = llvm_table(&text, false);
        assert!(table.len() > 3, "{id}: llvm-spirv-14's lines not read");
        let input = spir_xlate::internals::llvm_text(&std::fs::read(&fixture).unwrap()).unwrap();
        assert_eq!(
            subrange_counts(&text),
            subrange_counts(&input),
            "{id}: llvm-spirv-14's arrays"
        );
        theirs += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("llvm-spirv-14 read {ours} of our modules; we read {theirs} of its");
    assert!(
        theirs >= 40,
        "only {theirs} of llvm-spirv-14's modules made and read"
    );
}

/// The array dimensions of LLVM IR text: every `DISubrange`'s count, in order of the nodes.
fn subrange_counts(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| Some(field(&l[l.find("!DISubrange(")?..], "count")?.to_string()))
        .collect()
}

/// The compile unit's producer in LLVM IR text.
fn producer(text: &str) -> Option<&str> {
    let at = text.find("!DICompileUnit(")?;
    field(&text[at..], "producer")
}

/// DPC++'s translator (oracle tier: needs its PyPI package) writes each debug fixture with
/// every debug set it knows — OpenCL.DebugInfo.100, NonSemantic.Shader.DebugInfo.100 and
/// its own edition NonSemantic.Shader.DebugInfo.200, whose compile unit names its producer,
/// whose `DebugInlinedAt` has a column and whose arrays name subranges — and we read each
/// back: no position the input did not have and nearly all it had, the same in each set,
/// arrays of the input's dimensions (the translators follow the counts with lower bounds),
/// and the .200 edition's producer.
#[test]
#[ignore]
fn dpcpp_debug_sets_read_back() {
    let dir = std::env::temp_dir().join(format!("spir-xlate-debug-d-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut read, mut refused) = (0, Vec::new());
    let (mut kept, mut total) = (0, 0);
    for fixture in debug_fixtures() {
        let id = fixture
            .to_string_lossy()
            .replace("tests/fixtures/", "")
            .replace('/', ".");
        let input = spir_xlate::internals::llvm_text(&std::fs::read(&fixture).unwrap()).unwrap();
        let (input_table, all) = (llvm_table(&input, true), llvm_table(&input, false));
        let mut tables = Vec::new();
        for version in [
            "ocl-100",
            "nonsemantic-shader-100",
            "nonsemantic-shader-200",
        ] {
            let spv = dir.join(format!("{id}.{version}.spv"));
            common::run_tool(
                std::process::Command::new(common::dpcpp())
                    .arg(format!("--spirv-debug-info-version={version}"))
                    .arg(&fixture)
                    .arg("-o")
                    .arg(&spv),
            )
            .unwrap_or_else(|e| panic!("{id}: DPC++'s translator ({version}): {e}"));
            let opts = spir_xlate::SpirOptions {
                text: true,
                ..Default::default()
            };
            let out = match spir_xlate::internals::translate_to_spir(&spv, &opts) {
                Ok(out) => out,
                Err(e) => {
                    // DPC++ writes a sampler of the legacy form with an addressing mode
                    // of -1 (spirv-val refuses it too): a located error, in words.
                    let e = e.to_string();
                    assert!(common::debug_text(&e).is_none(), "{id}: {e}");
                    assert!(e.contains("word "), "{id}: {e}");
                    refused.push(format!("{id} ({version})"));
                    continue;
                }
            };
            assert!(
                !out.lost.iter().any(|l| l.to_string().contains("debug")),
                "{id} ({version}): {:?}",
                out.lost
            );
            let text = String::from_utf8(out.bytes).unwrap();
            let back = llvm_table(&text, false);
            // Every position is the input's (the producer's modules are most often not
            // valid SPIR-V, which the disassembler refuses: a DebugLine defined twice, a
            // DWARF language code where SPIR-V's belongs), and most of them are kept.
            let invented: Vec<_> = back.difference(&all).collect();
            assert!(invented.is_empty(), "{id} ({version}): {invented:?}");
            kept += back.intersection(&input_table).count();
            total += input_table.len();
            assert_eq!(
                subrange_counts(&text),
                subrange_counts(&input),
                "{id} ({version}): array dimensions"
            );
            if version == "nonsemantic-shader-200" {
                assert_eq!(producer(&text), producer(&input), "{id}: producer");
            }
            tables.push(back);
            read += 1;
        }
        // The three sets' positions are the same.
        for pair in tables.windows(2) {
            assert_eq!(pair[0], pair[1], "{id}: the sets read otherwise");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("read {read} of DPC++'s modules; refused {refused:?}; {kept} of {total} positions");
    assert!(read >= 130, "only {read} of DPC++'s 135 modules read");
    assert!(kept * 100 >= total * 99, "{kept} of {total} positions kept");
    assert!(refused.len() <= 3, "refused: {refused:?}");
}

/// `llvm.dbg.value`s of several values (`DIArgList`, what LLVM's salvaging makes of a value
/// computed from several): one with an `undef` among them is LLVM's kill location, written as
/// a `DebugValue` of an undefined value and not reported; one of several known values is an
/// expression SPIR-V's sets cannot say, written the same way (so the variable does not keep
/// its earlier value there) and reported; an ordinary one is kept. Back in SPIR, both are
/// `llvm.dbg.value(undef)`.
#[test]
fn several_valued_locations_become_unknown_values() {
    const IR: &str = r#"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(i32 addrspace(1)* %out, i32 %a, i32 %b) !dbg !5 {
entry:
  %s = add i32 %a, %b, !dbg !10
  call void @llvm.dbg.value(metadata !DIArgList(i32 %a, i32 undef), metadata !9, metadata !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value)), !dbg !10
  call void @llvm.dbg.value(metadata !DIArgList(i32 %a, i32 %b), metadata !9, metadata !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value)), !dbg !10
  call void @llvm.dbg.value(metadata i32 %s, metadata !9, metadata !DIExpression()), !dbg !10
  store i32 %s, i32 addrspace(1)* %out, align 4, !dbg !10
  ret void, !dbg !10
}

declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.cl", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocalVariable(name: "sum", scope: !5, file: !1, line: 2, type: !8)
!10 = !DILocation(line: 2, column: 3, scope: !5)
"#;
    let out =
        spir_xlate::internals::translate_to_spirv(IR.as_bytes(), &Default::default()).unwrap();
    let lost: Vec<String> = out.lost.iter().map(ToString::to_string).collect();
    assert_eq!(lost.len(), 1, "{lost:#?}");
    assert!(lost[0].contains("1 variable location(s)"), "{lost:#?}");
    let text = spir_xlate::disassemble(&out.words).unwrap();
    let undef = results_of(&text, "OpUndef");
    // DebugValue: variable, value, expression.
    let values = debug_operands(&text, "DebugValue");
    assert_eq!(values.len(), 3, "{text}");
    let unknown = values.iter().filter(|ops| undef.contains(ops[1]));
    assert_eq!(unknown.count(), 2, "{values:#?}\n{undef:?}");

    let back = spir_xlate::internals::translate_to_spir(&out.words, &Default::default()).unwrap();
    let dir = std::env::temp_dir().join(format!("spir-xlate-dbgargs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bc = dir.join("back.bc");
    std::fs::write(&bc, &back.bytes).unwrap();
    common::llvm_verify(&bc).unwrap();
    let ll = std::process::Command::new("llvm-dis-14")
        .arg(&bc)
        .arg("-o")
        .arg("-")
        .output()
        .unwrap();
    let ll = String::from_utf8_lossy(&ll.stdout);
    let undef_values = ll
        .lines()
        .filter(|l| l.contains("@llvm.dbg.value(metadata i32 undef"))
        .count();
    assert_eq!(undef_values, 2, "{ll}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The DWARF of an object `llc-14` makes (for x86-64: SPIR has no object emitter) from the
/// SPIR at `bc`, checked by `llvm-dwarfdump-14 --verify`; returns the count of each scope
/// tag a debugger shows (subprograms that are no mere declaration, inlined calls), and of
/// global variables with an address.
fn dwarf_scopes(bc: &Path, obj: &Path) -> Result<HashMap<String, usize>, String> {
    common::run_tool(
        std::process::Command::new("/usr/lib/llvm-14/bin/llc")
            .args(["-mtriple=x86_64-unknown-linux-gnu", "-filetype=obj", "-o"])
            .arg(obj)
            .arg(bc),
    )?;
    let verify = std::process::Command::new("/usr/lib/llvm-14/bin/llvm-dwarfdump")
        .arg("--verify")
        .arg(obj)
        .output()
        .map_err(|e| e.to_string())?;
    let said = String::from_utf8_lossy(&verify.stdout);
    if !verify.status.success() || !said.contains("No errors.") {
        return Err(format!("llvm-dwarfdump --verify: {said}"));
    }
    let dump = std::process::Command::new("/usr/lib/llvm-14/bin/llvm-dwarfdump")
        .arg("--debug-info")
        .arg(obj)
        .output()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&dump.stdout).to_string();
    let mut counts = HashMap::new();
    // Entries start `0x0000002a:   DW_TAG_...` and run to the next one.
    let starts: Vec<usize> = text.match_indices("\n0x").map(|(i, _)| i + 1).collect();
    for (k, &at) in starts.iter().enumerate() {
        let entry = &text[at..starts.get(k + 1).copied().unwrap_or(text.len())];
        let Some(tag) = entry.split_whitespace().nth(1) else {
            continue;
        };
        let counted = match tag {
            "DW_TAG_subprogram" => !entry.contains("DW_AT_declaration"),
            "DW_TAG_inlined_subroutine" => true,
            _ => false,
        };
        if counted {
            *counts.entry(tag.to_string()).or_default() += 1;
        }
        // A variable at an address of its own: a global one (program scope, a function's
        // `static` or `__local`).
        if tag == "DW_TAG_variable" && entry.contains("DW_OP_addr") {
            *counts.entry("global variables".to_string()).or_default() += 1;
        }
    }
    Ok(counts)
}

/// A DWARF consumer reads our SPIR's debug information: `llvm-dwarfdump --verify` finds no
/// error in the DWARF of an object built from the SPIR we write back from our SPIR-V of each
/// `-g` fixture, and it has the input's functions, inlined calls and global variables (a
/// kernel's `__local` arrays, `__constant` tables), one for one (two calls of one function
/// on one line stay two: SPIR-V's DebugInlinedAt has no column).
#[test]
fn dwarf_of_our_spir_verifies_and_keeps_functions_inlined_calls_and_globals() {
    let fixtures = debug_fixtures();
    let dir = std::env::temp_dir().join(format!("spir-xlate-dwarf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let failures: Vec<String> = common::par_map(&fixtures, |fixture| {
        let id = common::fixture_id(fixture).replace('/', "_");
        let (words, _) = spirv_text(fixture, &Default::default());
        let back = spir_xlate::internals::translate_to_spir(&words, &Default::default())
            .map_err(|e| format!("{id}: to-spir: {e}"))?;
        let bc = dir.join(format!("{id}.bc"));
        std::fs::write(&bc, &back.bytes).unwrap();
        let want = dwarf_scopes(fixture, &dir.join(format!("{id}.in.o")))
            .map_err(|e| format!("{id}, the input: {e}"))?;
        let got =
            dwarf_scopes(&bc, &dir.join(format!("{id}.o"))).map_err(|e| format!("{id}: {e}"))?;
        if got != want {
            return Err(format!("{id}: scopes {got:?}, the input's {want:?}"));
        }
        Ok(())
    })
    .into_iter()
    .filter_map(Result::err)
    .collect();
    std::fs::remove_dir_all(&dir).ok();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A kernel's `__local` arrays are global variables a debugger shows: each
/// `DebugGlobalVariable` names the variable that holds it, in the OpenCL module and in the
/// Vulkan shader (its Workgroup copy) alike.
#[test]
fn global_variables_name_their_variables_for_opencl_and_vulkan() {
    let fixture = Path::new("tests/fixtures/debug/matmul_tiled.spir64.bc");
    let vulkan = spir_xlate::Options {
        target: spir_xlate::TargetEnv::parse("vulkan1.2").unwrap(),
        ..Default::default()
    };
    for options in [Default::default(), vulkan] {
        let (_, text) = spirv_text(fixture, &options);
        let variables = results_of(&text, "OpVariable");
        // DebugGlobalVariable: name, type, source, line, column, parent, linkage name,
        // variable, flags.
        let held: Vec<&str> = debug_operands(&text, "DebugGlobalVariable")
            .iter()
            .map(|ops| ops[7])
            .collect();
        assert_eq!(held.len(), 2, "ta and tb: {text}");
        assert!(
            held.iter().all(|v| variables.contains(v)),
            "{held:?} are not all variables: {text}"
        );
    }
}
