//! Snapshot tests of the graph dump (`spir-xlate dump-ir`): the expected text lives in
//! tests/snapshots/<variant>.<kernel>.ir; `SPIR_XLATE_BLESS=1 cargo test --test snapshots`
//! rewrites it after an intended change. A difference fails with a readable diff.
use pretty_assertions::assert_eq;
use std::path::Path;

const CASES: &[(&str, &str)] = &[
    ("modern", "vector_add"),
    ("modern", "attributes"),
    ("modern", "images"),
    ("modern", "sampler_constants"),
    ("modern", "atomics_int"),
    ("modern", "switch_goto"),
    ("modern", "vload_half_modes"),
    ("modern", "convert_vectors"),
    ("modern", "printf_formats"),
    ("modern", "struct_copy"),
    ("modern", "async_strided"),
    ("modern", "constant_tables"),
    ("legacy", "images"),
    ("legacy", "attributes"),
];

#[test]
fn graph_dumps_match_their_snapshots() {
    let bless = std::env::var_os("SPIR_XLATE_BLESS").is_some();
    for (variant, kernel) in CASES {
        let input = format!("tests/fixtures/{variant}/{kernel}.spir64.bc");
        let module = spir_xlate::internals::read_spir(Path::new(&input))
            .unwrap_or_else(|e| panic!("{input}: {e}"));
        let got = spir_xlate::ir::print::print_module(&module);
        let again = spir_xlate::ir::print::print_module(
            &spir_xlate::internals::read_spir(Path::new(&input)).unwrap(),
        );
        assert_eq!(got, again, "{input}: the dump is not deterministic");
        let snap = format!("tests/snapshots/{variant}.{kernel}.ir");
        if bless {
            std::fs::create_dir_all("tests/snapshots").unwrap();
            std::fs::write(&snap, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&snap)
            .unwrap_or_else(|e| panic!("{snap}: {e} (create it with SPIR_XLATE_BLESS=1)"));
        assert_eq!(want, got, "{snap} differs from the dump of {input}");
    }
}

/// Kernels whose emitted modules are kept as snapshots (tests/snapshots/emitted/): one of each
/// family the writers treat apart (buffers, images and samplers, atomics, control flow that
/// needs structuring, printf, a many-argument program of several kernels, a two-exit loop).
const EMITTED: &[&str] = &[
    "vector_add",
    "images",
    "atomics_int",
    "switch_goto",
    "printf_formats",
    "app_chem",
    "escape_time",
];

/// Every text form a writer emits for one fixture, by snapshot name: the SPIR-V for OpenCL and
/// for Vulkan in both pointer strategies (disassembled, with the reflection), and the SPIR and
/// SPIR-V friendly LLVM IR written back from our SPIR-V.
fn emitted_forms(kernel: &str) -> Vec<(String, String)> {
    use spir_xlate::{Options, SpirForm, SpirOptions, TargetEnv, VulkanPointers};
    let input = format!("tests/fixtures/modern/{kernel}.spir64.bc");
    let spirv = |options: &Options| {
        spir_xlate::internals::translate_to_spirv(Path::new(&input), options)
            .unwrap_or_else(|e| panic!("{input}: {e}"))
    };
    let opencl = spirv(&Options::default());
    let mut forms = vec![(
        "opencl.spvasm".to_string(),
        spir_xlate::disassemble(&opencl.words).unwrap(),
    )];
    for (name, vulkan_pointers) in [
        ("physical", VulkanPointers::Physical),
        ("descriptors", VulkanPointers::Descriptors),
    ] {
        let options = Options {
            target: TargetEnv::Vulkan12,
            vulkan_pointers,
            ..Default::default()
        };
        // A kernel the strategy refuses has no snapshot of that strategy.
        let Ok(out) = spir_xlate::internals::translate_to_spirv(Path::new(&input), &options) else {
            continue;
        };
        forms.push((
            format!("vulkan-{name}.spvasm"),
            spir_xlate::disassemble(&out.words).unwrap(),
        ));
        forms.push((
            format!("vulkan-{name}.json"),
            out.reflection.expect("a Vulkan module's reflection"),
        ));
    }
    for (name, flavor, form) in [
        ("spir.ll", spir_xlate::Flavor::Spir, SpirForm::Clang),
        ("spir-spec.ll", spir_xlate::Flavor::Spir, SpirForm::Spec),
        ("spirv-ir.ll", spir_xlate::Flavor::SpirvIr, SpirForm::Clang),
    ] {
        let options = SpirOptions {
            flavor,
            form,
            text: true,
            ..Default::default()
        };
        let out = spir_xlate::internals::translate_to_spir(&opencl.words[..], &options)
            .unwrap_or_else(|e| panic!("{input} back to SPIR ({name}): {e}"));
        forms.push((
            name.to_string(),
            String::from_utf8(out.bytes).expect("LLVM IR text"),
        ));
    }
    forms
}

/// What each writer emits for the kernels above matches its snapshot
/// (tests/snapshots/emitted/<kernel>.<form>): a writer change shows its reviewer the diff of
/// what it emits. `SPIR_XLATE_BLESS=1` rewrites them after an intended change.
#[test]
fn emitted_modules_match_their_snapshots() {
    let bless = std::env::var_os("SPIR_XLATE_BLESS").is_some();
    let dir = Path::new("tests/snapshots/emitted");
    let mut failed = Vec::new();
    for kernel in EMITTED {
        let forms = emitted_forms(kernel);
        assert_eq!(
            forms,
            emitted_forms(kernel),
            "{kernel}: the emitted text is not deterministic"
        );
        assert!(forms.len() >= 6, "{kernel}: only {} forms", forms.len());
        for (form, got) in forms {
            let snap = dir.join(format!("{kernel}.{form}"));
            if bless {
                std::fs::create_dir_all(dir).unwrap();
                std::fs::write(&snap, &got).unwrap();
                continue;
            }
            let want = std::fs::read_to_string(&snap).unwrap_or_else(|e| {
                panic!(
                    "{}: {e} (create it with SPIR_XLATE_BLESS=1)",
                    snap.display()
                )
            });
            if want != got {
                eprintln!("{}:", snap.display());
                eprintln!("{}", pretty_assertions::StrComparison::new(&want, &got));
                failed.push(snap.display().to_string());
            }
        }
    }
    assert!(failed.is_empty(), "differ from their snapshots: {failed:?}");
}
