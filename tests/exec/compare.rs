//! Running one kernel spec and comparing outputs, shared by the execution tiers.
#![allow(dead_code)]
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{cl, common, spec};

/// Our SPIR-V for `fixture`, written by the `spir-xlate` binary into `work` (the library links
/// LLVM 14, which must not share a process with a driver's LLVM).
pub fn our_spirv(fixture: &Path, work: &Path) -> Result<PathBuf, String> {
    let spv = work.join(format!("{}.spv", common::fixture_id(fixture)));
    common::run_tool(
        Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
            .arg("to-spirv")
            .arg(fixture)
            .arg("-o")
            .arg(&spv),
    )?;
    Ok(spv)
}

/// The OpenCL C sources of the fixtures (tests/kernels/*.cl), in a stable order.
pub fn kernel_sources() -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = std::fs::read_dir("tests/kernels")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    sources.sort();
    sources
}

/// FNV-1a of the kernel name: inputs differ between kernels, not between runs.
pub fn seed_of(kernel: &str) -> u64 {
    kernel.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

pub fn run_spec(
    dev: &cl::Device,
    program: &cl::Program,
    s: &spec::ExecSpec,
    seed: u64,
) -> Result<Vec<(usize, Vec<u8>)>, String> {
    let bound = spec::bind(dev, s, seed)?;
    dev.run(
        program,
        &s.kernel,
        &bound.args,
        &s.global,
        s.local.as_deref(),
    )?;
    bound.outputs(dev)
}

pub fn first_difference(a: &[u8], b: &[u8]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => format!(
            "byte {i}: reference {:02x?} vs {:02x?}",
            &a[i & !7..(i & !7) + 8.min(a.len() - (i & !7))],
            &b[i & !7..(i & !7) + 8.min(b.len() - (i & !7))]
        ),
        None => format!("lengths {} vs {}", a.len(), b.len()),
    }
}
