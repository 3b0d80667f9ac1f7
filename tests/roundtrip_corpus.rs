//! The corpus round trip (roundtrip/README.md), over every fixture, with nothing but the
//! library: SPIR → SPIR-V → graph against SPIR → graph, and our SPIR-V → spirv-ir → SPIR-V
//! against SPIR-V → graph → SPIR-V. The first is ratcheted while the graph differences the
//! README lists are closed; the second must hold for every module.

mod common;

use spir_xlate::inspect::roundtrip as check;

#[test]
fn every_fixture_round_trips() {
    let dir = std::env::temp_dir().join(format!("spir-xlate-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let options = spir_xlate::Options::default();
    let (mut spir_same, mut spirv_same, mut n) = (0, 0, 0);
    let mut spirv_differ = Vec::new();
    for fixture in common::fixtures() {
        n += 1;
        let checks = check(&fixture, &options).unwrap_or_else(|e| panic!("{e}"));
        if checks.iter().all(|c| c.difference.is_none()) {
            spir_same += 1;
        }
        let spv = dir.join(format!("{}.spv", common::fixture_id(&fixture)));
        common::write_spirv(
            &spv,
            &spir_xlate::internals::to_spirv(&fixture, &options).unwrap(),
        );
        match check(&spv, &options).unwrap_or_else(|e| panic!("{}: {e}", spv.display())) {
            c if c.iter().all(|c| c.difference.is_none()) => spirv_same += 1,
            c => spirv_differ.push(format!("{}: {:?}", fixture.display(), c)),
        }
    }
    eprintln!("round trip: SPIR -> SPIR-V -> graph same for {spir_same} of {n}; SPIR-V -> spirv-ir -> SPIR-V same for {spirv_same} of {n}");
    assert!(n >= 330, "{n} fixtures");
    assert!(spirv_differ.is_empty(), "{}", spirv_differ.join("\n"));
    assert!(
        spir_same >= 301,
        "{spir_same} of {n} SPIR modules come back as the same graph"
    );
}

/// The regression cases the property tests found (roundtrip/cases/*.ll, each with the bug it
/// kept in its first lines): every one must come back the same, through SPIR-V and, from its
/// SPIR-V, through spirv-ir.
#[test]
fn every_regression_case_round_trips() {
    let options = spir_xlate::Options::default();
    let mut cases: Vec<_> = std::fs::read_dir("roundtrip/cases")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 5, "{cases:?}");
    let dir = std::env::temp_dir().join(format!("spir-xlate-cases-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for case in cases {
        let checks = check(&case, &options).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            checks.iter().all(|c| c.difference.is_none()),
            "{}: {checks:?}",
            case.display()
        );
        let spv = dir.join(case.with_extension("spv").file_name().unwrap());
        common::write_spirv(
            &spv,
            &spir_xlate::internals::to_spirv(&case, &options).unwrap(),
        );
        let checks = check(&spv, &options).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            checks.iter().all(|c| c.difference.is_none()),
            "{}: {checks:?}",
            spv.display()
        );
    }
}

/// `spir-xlate roundtrip` says which round trip it ran and how it ended: exit 0 and "same",
/// or exit 1, the first difference on stdout and an error naming the round trip.
#[test]
fn roundtrip_command_reports_the_first_difference() {
    let run = |f: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
            .args(["roundtrip", f])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, _) = run("tests/fixtures/modern/vector_add.spir64.bc");
    assert_eq!(code, Some(0));
    assert!(out.contains("SPIR -> SPIR-V -> graph: same"), "{out}");
    // readnone becomes NoWrite (readonly) on the way: a listed lossiness, reported.
    let (code, out, err) = run("tests/fixtures/modern/atomics.spir64.bc");
    assert_eq!(code, Some(1));
    assert!(
        out.contains("differs at line") && out.contains("readnone"),
        "{out}"
    );
    assert!(
        err.contains("the round trip SPIR -> SPIR-V -> graph changed the module"),
        "{err}"
    );
}
