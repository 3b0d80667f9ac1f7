//! Oracle tier (`cargo test --features oracles`, run by .ci/run after installing the tools):
//! every fixture translates, validates with spirv-val for its target, and is consumed by the
//! independent Khronos translator (llvm-spirv-14 -r). A missing tool fails, never skips.
#![cfg(feature = "oracles")]
use std::process::Command;

mod common;
use common::{run_tool as tool_ok, spirv_val};

#[test]
fn every_fixture_validates_and_reads_back_with_llvm_spirv() {
    let dir = std::env::temp_dir().join(format!("spir-xlate-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    let mut n = 0;
    for fdir in ["tests/fixtures/modern", "tests/fixtures/legacy"] {
        for e in std::fs::read_dir(fdir).unwrap() {
            let p = e.unwrap().path();
            n += 1;
            for target in [
                spir_xlate::TargetEnv::OpenCl21,
                spir_xlate::TargetEnv::OpenCl22,
            ] {
                let opts = spir_xlate::Options {
                    target,
                    spirv_version: None,
                };
                let words = match spir_xlate::to_spirv(&p, &opts) {
                    Ok(w) => w,
                    Err(e) => {
                        failures.push(format!("{}: {e}", p.display()));
                        continue;
                    }
                };
                let spv = dir.join(format!(
                    "{}.{}.spv",
                    p.file_stem().unwrap().to_string_lossy(),
                    target.name()
                ));
                std::fs::write(
                    &spv,
                    words
                        .iter()
                        .flat_map(|w| w.to_le_bytes())
                        .collect::<Vec<u8>>(),
                )
                .unwrap();
                if let Err(e) = spirv_val(&spv, target.name()) {
                    failures.push(format!("spirv-val {}: {e}", p.display()));
                }
                if let Err(e) = tool_ok(
                    Command::new("llvm-spirv-14")
                        .arg("-r")
                        .arg(&spv)
                        .arg("-o")
                        .arg(spv.with_extension("bc")),
                ) {
                    failures.push(format!("llvm-spirv-14 -r {}: {e}", p.display()));
                }
            }
        }
    }
    assert!(n >= 192, "{n} fixtures");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
