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
