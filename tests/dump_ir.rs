//! The graph the reader builds keeps every kernel fact: attributes, arg info, spaces, access.
use spir_xlate::ir::print::print_module;

mod common;

fn dump(path: &str) -> String {
    print_module(&spir_xlate::internals::read_spir(std::path::Path::new(path)).unwrap())
}

#[test]
fn modern_kernel_attributes_survive_reading() {
    let d = dump("tests/fixtures/modern/attributes.spir64.bc");
    assert!(d.contains("reqd_work_group_size(8,4,1)"), "{d}");
    assert!(d.contains("work_group_size_hint(8,4,1)"), "{d}");
    assert!(d.contains("vec_type_hint(4 x f32)"), "{d}");
    assert!(d.contains("space constant"), "{d}");
    assert!(d.contains("space local"), "{d}");
}

#[test]
fn legacy_kernels_metadata_and_images_are_read() {
    let d = dump("tests/fixtures/legacy/images.spir64.bc");
    assert!(d.contains("spir_version 1.2"), "{d}");
    assert!(d.contains("image2d ReadOnly"), "{d}");
    assert!(d.contains("image2d WriteOnly"), "{d}");
    assert!(
        d.contains("sampler(ClampToEdge, normalized=false, Nearest)"),
        "{d}"
    );
    let d = dump("tests/fixtures/legacy/attributes.spir64.bc");
    assert!(
        d.contains("reqd_work_group_size(8,4,1)") && d.contains("vec_type_hint(4 x f32)"),
        "{d}"
    );
}

#[test]
fn every_fixture_reads_into_a_verified_graph() {
    let mut n = 0;
    for p in common::fixtures() {
        let m =
            spir_xlate::internals::read_spir(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(spir_xlate::verify::verify(&m).is_empty());
        assert!(!m.kernels.is_empty(), "{}", p.display());
        n += 1;
    }
    assert!(n >= 320, "{n} fixtures");
}
