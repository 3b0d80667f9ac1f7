//! An unmodified legacy application (`tests/c/legacy_host.c`: checks `cl_khr_spir`, asks
//! `CL_DEVICE_SPIR_VERSIONS`, loads a SPIR 1.2 binary with `clCreateProgramWithBinary`,
//! builds it with `-x spir -spir-std=1.2`, runs it) on the Intel CPU OpenCL runtime, once
//! as the control (the driver's own SPIR path) and once through the layer with
//! `SPIR_XLATE_LAYER=always`, whose log must say it translated the binary (and, in a second
//! run, took it from its cache); a corrupted binary through the layer must be
//! `CL_INVALID_BINARY`, not a crash.
//!
//! Needs the runtime as .ci/run installs it (`OCL_ICD_VENDORS` pointing at it, as for
//! `exec_intel`): `cargo test -p spir-xlate-layer -- --ignored`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

fn legacy_host() -> PathBuf {
    let exe = std::env::temp_dir().join(format!("spir-xlate-legacy-host-{}", std::process::id()));
    let out = Command::new("cc")
        .args(["-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/legacy_host.c"))
        .arg("-lOpenCL")
        .output()
        .expect("a C compiler (cc) and the OpenCL loader (ocl-icd-opencl-dev)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// Run the host on `spir` (with `extra` arguments), through the layer or not; its output
/// and the layer's log.
fn run(host: &Path, spir: &str, extra: &[&str], layer: Option<&Path>) -> (bool, String, String) {
    let log = std::env::temp_dir().join(format!(
        "spir-xlate-layer-log-{}-{}",
        std::process::id(),
        extra.len()
    ));
    std::fs::remove_file(&log).ok();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(spir);
    let mut cmd = Command::new(host);
    cmd.arg(fixture).args(extra);
    if let Some(cache) = layer {
        cmd.env(
            "OPENCL_LAYERS",
            profile_dir().join("libspir_xlate_layer.so"),
        )
        .env("SPIR_XLATE_LAYER", "always")
        .env("SPIR_XLATE_LAYER_LOG", &log)
        .env("SPIR_XLATE_CACHE", cache);
    } else {
        cmd.env_remove("OPENCL_LAYERS");
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    std::fs::remove_file(&log).ok();
    (out.status.success(), text, logged)
}

#[test]
#[ignore = "needs the Intel CPU OpenCL runtime (.ci/run installs it; OCL_ICD_VENDORS)"]
fn a_legacy_application_runs_spir_through_the_layer() {
    assert!(
        std::env::var_os("OCL_ICD_VENDORS").is_some(),
        "OCL_ICD_VENDORS must point the loader at the Intel runtime (see .ci/run)"
    );
    let host = legacy_host();
    let cache = std::env::temp_dir().join(format!("spir-xlate-layer-cache-{}", std::process::id()));
    std::fs::remove_dir_all(&cache).ok();
    let spir = "legacy/vector_add.spir64.bc";
    let (ok, text, log) = run(&host, spir, &[], None);
    assert!(ok, "the control (the driver's own SPIR path): {text}");
    assert!(log.is_empty(), "no layer in the control: {log}");
    let (ok, text, log) = run(&host, spir, &[], Some(&cache));
    assert!(ok, "through the layer: {text}");
    assert!(log.contains(": translated in "), "the layer's log: {log}");
    assert!(log.contains("clCreateProgramWithIL status 0"), "{log}");
    // The driver's binary read back is no SPIR: it passes through, unlogged.
    assert_eq!(log.lines().count(), 1, "one program intercepted: {log}");
    let (ok, text, log) = run(&host, spir, &[], Some(&cache));
    assert!(ok, "through the layer, again: {text}");
    assert!(
        log.contains(": taken from the cache in "),
        "the layer's log: {log}"
    );
    let (ok, text, log) = run(&host, spir, &["corrupt"], Some(&cache));
    assert!(ok, "a corrupted binary through the layer: {text}");
    assert!(log.contains(": refused in "), "the layer's log: {log}");
    std::fs::remove_file(host).ok();
    std::fs::remove_dir_all(cache).ok();
}
