//! An unmodified legacy application (`tests/c/legacy_host.c`: checks `cl_khr_spir`, asks
//! `CL_DEVICE_SPIR_VERSIONS`, loads a SPIR 1.2 binary with `clCreateProgramWithBinary`,
//! builds it with `-x spir -spir-std=1.2`, runs it) on the Intel CPU OpenCL runtime, once
//! as the control (the driver's own SPIR path) and once through the layer with
//! `SPIR_XLATE_LAYER=always`, whose log must say it translated the binary (and, in a second
//! run, took it from its cache) and whose `clGetKernelArgInfo` must answer as the control's
//! does; a corrupted binary through the layer must be
//! `CL_INVALID_BINARY`, not a crash.
//!
//! Each run happens under both ICD loaders: the Khronos loader (the `libOpenCL.so.1` the
//! Intel runtime's wheel ships, found on `LD_LIBRARY_PATH`; it calls
//! `clInitLayerWithProperties`) and ocl-icd (Debian's, `clInitLayer`), each preloaded so that
//! it is the one the program gets.
//!
//! Needs the runtime as .ci/run installs it (`OCL_ICD_VENDORS` pointing at it and
//! `LD_LIBRARY_PATH` at its libraries, as for `exec_intel`) and the layer built:
//! `cargo build -p spir-xlate-layer && cargo test -p spir-xlate-layer -- --ignored`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The profile directory (`target/debug`), where `cargo build -p spir-xlate-layer` puts
/// the layer (`cargo test` alone builds it only under `deps/`).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap().to_path_buf();
    assert!(
        dir.join("libspir_xlate_layer.so").exists(),
        "the layer is missing: build it first (cargo build -p spir-xlate-layer)"
    );
    dir
}

/// The host program compiled, as an executable named by `tag` (tests run at once).
fn legacy_host(tag: &str) -> PathBuf {
    host_program("legacy_host", tag)
}

/// Host program `tests/c/NAME.c` compiled, as an executable named by `tag`.
fn host_program(name: &str, tag: &str) -> PathBuf {
    let exe = std::env::temp_dir().join(format!("spir-xlate-{name}-{}-{tag}", std::process::id()));
    let out = Command::new("cc")
        .args(["-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/c/{name}.c")))
        .args(["-lOpenCL", "-lpthread"])
        .output()
        .expect("a C compiler (cc) and the OpenCL loader (ocl-icd-opencl-dev)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// An empty cache folder for one test (`tag`: tests run at once).
fn fresh_cache(tag: &str) -> PathBuf {
    let cache = std::env::temp_dir().join(format!(
        "spir-xlate-layer-cache-{}-{tag}",
        std::process::id()
    ));
    std::fs::remove_dir_all(&cache).ok();
    cache
}

/// The two loaders: (name, the library to preload).
fn loaders() -> Vec<(&'static str, PathBuf)> {
    let khronos = std::env::var("LD_LIBRARY_PATH")
        .unwrap_or_default()
        .split(':')
        .map(|d| Path::new(d).join("libOpenCL.so.1"))
        .find(|p| p.exists())
        .expect("the Intel runtime's libOpenCL.so.1 (the Khronos loader) on LD_LIBRARY_PATH");
    let ocl_icd = PathBuf::from("/usr/lib/x86_64-linux-gnu/libOpenCL.so.1");
    assert!(
        ocl_icd.exists(),
        "ocl-icd's libOpenCL.so.1 (package ocl-icd-libopencl1)"
    );
    vec![("Khronos", khronos), ("ocl-icd", ocl_icd)]
}

/// Run the host on `spir` (with `extra` arguments), through the layer or not; its output
/// and the layer's log.
fn run(
    host: &Path,
    loader: &Path,
    spir: &str,
    extra: &[&str],
    layer: Option<&Path>,
) -> (bool, String, String) {
    run_as(host, loader, spir, extra, layer, "always")
}

/// `run` with `SPIR_XLATE_LAYER=mode` (`always`: SPIR-V; `source`: OpenCL C source).
fn run_as(
    host: &Path,
    loader: &Path,
    spir: &str,
    extra: &[&str],
    layer: Option<&Path>,
    mode: &str,
) -> (bool, String, String) {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let log = std::env::temp_dir().join(format!("spir-xlate-layer-log-{}-{n}", std::process::id()));
    std::fs::remove_file(&log).ok();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(spir);
    let mut cmd = Command::new(host);
    cmd.arg(fixture).args(extra).env("LD_PRELOAD", loader);
    if let Some(cache) = layer {
        cmd.env(
            "OPENCL_LAYERS",
            profile_dir().join("libspir_xlate_layer.so"),
        )
        .env("SPIR_XLATE_LAYER", mode)
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

/// The host's lines saying what clGetKernelArgInfo answered of each argument. Of an index
/// past the last, the Intel runtime's own SPIR path says CL_INVALID_VALUE (-30) where the
/// specification names CL_INVALID_ARG_INDEX (-49), which the layer answers: that line is
/// left out of the comparison.
fn argument_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("legacy_host: argument ") && !l.contains(": status "))
        .collect()
}

/// The layer's answer for an index past vector_add's last argument.
const PAST_THE_LAST: &str = "legacy_host: argument 3: status -49";

#[test]
#[ignore = "needs the Intel CPU OpenCL runtime (.ci/run installs it; OCL_ICD_VENDORS)"]
fn a_legacy_application_runs_spir_through_the_layer() {
    assert!(
        std::env::var_os("OCL_ICD_VENDORS").is_some(),
        "OCL_ICD_VENDORS must point the loader at the Intel runtime (see .ci/run)"
    );
    let host = legacy_host("runs");
    let spir = "legacy/vector_add.spir64.bc";
    for (name, loader) in loaders() {
        let cache = fresh_cache(name);
        let (ok, control, log) = run(&host, &loader, spir, &[], None);
        assert!(
            ok,
            "{name}: the control (the driver's own SPIR path): {control}"
        );
        assert!(log.is_empty(), "{name}: no layer in the control: {log}");
        let (ok, text, log) = run(&host, &loader, spir, &[], Some(cache.as_path()));
        assert!(ok, "{name}: through the layer: {text}");
        // clGetKernelArgInfo answers as the driver's own SPIR path does (the driver itself
        // has no argument info for a program from SPIR-V).
        assert_eq!(
            argument_lines(&text),
            argument_lines(&control),
            "{name}: clGetKernelArgInfo through the layer"
        );
        assert_eq!(argument_lines(&control).len(), 3, "{control}");
        assert!(text.contains(PAST_THE_LAST), "{name}: {text}");
        assert!(
            log.contains(": translated in "),
            "{name}: the layer's log: {log}"
        );
        assert!(log.contains("clCreateProgramWithIL status 0"), "{log}");
        // The driver's binary read back is no SPIR: it passes through, unlogged.
        assert_eq!(
            log.lines().count(),
            1,
            "{name}: one program intercepted: {log}"
        );
        let (ok, text, log) = run(&host, &loader, spir, &[], Some(cache.as_path()));
        assert!(ok, "{name}: through the layer, again: {text}");
        assert!(log.contains(": taken from the cache in "), "{name}: {log}");
        // A cache entry damaged on disk (truncated, emptied, bytes flipped) is translated
        // again, never handed to the driver; the entry is whole again after it.
        let entry = std::fs::read_dir(&cache)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|x| x == "spv"))
            .unwrap();
        let whole = std::fs::read(&entry).unwrap();
        let mut flipped = whole.clone();
        for b in flipped.iter_mut().skip(40).step_by(97).take(8) {
            *b ^= 0x5a;
        }
        for damaged in [whole[..whole.len() / 2].to_vec(), Vec::new(), flipped] {
            std::fs::write(&entry, &damaged).unwrap();
            let (ok, text, log) = run(&host, &loader, spir, &[], Some(cache.as_path()));
            assert!(ok, "{name}: a damaged cache entry: {text}");
            assert!(log.contains(": translated in "), "{name}: {log}");
            assert_eq!(
                std::fs::read(&entry).unwrap(),
                whole,
                "{name}: the entry made again"
            );
        }
        let (ok, text, log) = run(&host, &loader, spir, &["corrupt"], Some(cache.as_path()));
        assert!(ok, "{name}: a corrupted binary through the layer: {text}");
        assert!(
            log.contains(": refused in "),
            "{name}: the layer's log: {log}"
        );
        std::fs::remove_dir_all(cache).ok();
    }
    std::fs::remove_file(host).ok();
}

/// On a driver that has `cl_khr_spir` itself (the Intel runtime has), the layer stands aside
/// by default, and says so in its log: the application runs on the driver's own SPIR path.
#[test]
#[ignore = "needs the Intel CPU OpenCL runtime (.ci/run installs it; OCL_ICD_VENDORS)"]
fn the_layer_says_when_it_stands_aside() {
    let host = legacy_host("aside");
    let spir = "legacy/vector_add.spir64.bc";
    let (name, loader) = loaders().remove(0);
    let cache = fresh_cache("aside");
    let (ok, text, log) = run_as(&host, &loader, spir, &[], Some(cache.as_path()), "");
    assert!(ok, "{name}: {text}");
    assert!(
        log.contains("has cl_khr_spir itself: the layer stands aside"),
        "{name}: the layer's log: {log}"
    );
    assert!(
        !log.contains("translated"),
        "{name}: the layer's log: {log}"
    );
    std::fs::remove_dir_all(cache).ok();
    std::fs::remove_file(host).ok();
}

/// The source road (for drivers that take neither SPIR nor SPIR-V, here forced with
/// `SPIR_XLATE_LAYER=source` on the Intel runtime): the binary becomes OpenCL C, built with
/// the `-cl-std=` it needs; the application's results are the same.
#[test]
#[ignore = "needs the Intel CPU OpenCL runtime (.ci/run installs it; OCL_ICD_VENDORS)"]
fn a_legacy_application_runs_spir_as_opencl_c_source_through_the_layer() {
    let host = legacy_host("source");
    let spir = "legacy/vector_add.spir64.bc";
    let (name, loader) = loaders().remove(0);
    let cache = fresh_cache("source");
    let (ok, control, _) = run(&host, &loader, spir, &[], None);
    assert!(ok, "{name}: the control: {control}");
    let (ok, text, log) = run_as(&host, &loader, spir, &[], Some(cache.as_path()), "source");
    assert!(ok, "{name}: the source road: {text}");
    assert!(
        log.contains(": translated to OpenCL C (-cl-std=CL1.2) in "),
        "{name}: the layer's log: {log}"
    );
    assert!(log.contains("clCreateProgramWithSource status 0"), "{log}");
    let others = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.contains(": status "))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    assert_eq!(
        others(&text),
        others(&control),
        "the application prints what it prints without the layer (clGetKernelArgInfo included)"
    );
    assert!(text.contains(PAST_THE_LAST), "{text}");
    let (ok, _, log) = run_as(&host, &loader, spir, &[], Some(cache.as_path()), "source");
    assert!(
        ok && log.contains(": taken from the cache to OpenCL C"),
        "{log}"
    );
    // The entry is source, and named so.
    let names: Vec<String> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().any(|n| n.ends_with(".cl")), "{names:?}");
    assert!(
        !names.iter().any(|n| n.ends_with(".spv")),
        "OpenCL C under a .spv name: {names:?}"
    );
    std::fs::remove_dir_all(cache).ok();
    std::fs::remove_file(host).ok();
}

/// Applications running at once share the cache: each gets a whole entry (written to a
/// temporary file and renamed), and the folder ends with one entry and no temporary file.
#[test]
#[ignore = "needs the Intel CPU OpenCL runtime (.ci/run installs it; OCL_ICD_VENDORS)"]
fn processes_at_once_share_the_cache() {
    let host = legacy_host("shared");
    let (_, loader) = loaders().remove(0);
    let cache = fresh_cache("shared");
    let runs: Vec<_> = (0..4)
        .map(|_| {
            let (host, loader, cache) = (host.clone(), loader.clone(), cache.clone());
            std::thread::spawn(move || {
                run(
                    &host,
                    &loader,
                    "legacy/vector_add.spir64.bc",
                    &[],
                    Some(&cache),
                )
            })
        })
        .collect();
    for r in runs {
        let (ok, text, log) = r.join().unwrap();
        assert!(ok, "{text}");
        assert!(log.contains("status 0"), "{log}");
    }
    let names: Vec<String> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let spv = names.iter().filter(|n| n.ends_with(".spv")).count();
    assert_eq!(spv, 1, "one entry: {names:?}");
    assert!(
        names.iter().all(|n| !n.starts_with('.')),
        "no temporary file left: {names:?}"
    );
    std::fs::remove_dir_all(cache).ok();
    std::fs::remove_file(host).ok();
}

/// The cache never fails the application, whatever state its folder is in: an entry that
/// cannot be read as a file (a folder in its place) is translated again; a temporary file a
/// killed writer left is ignored; on a full disk (a 4 KiB tmpfs, which holds an entry's
/// facts but not its program) nothing partial is kept and every run translates again.
#[test]
#[ignore = "needs the Intel CPU OpenCL runtime (.ci/run installs it; OCL_ICD_VENDORS); mounts a tmpfs (root)"]
fn the_cache_never_fails_the_application() {
    let host = legacy_host("cache-states");
    let spir = "legacy/vector_add.spir64.bc";
    let (name, loader) = loaders().remove(0);
    let cache = fresh_cache("states");
    let (ok, text, _) = run(&host, &loader, spir, &[], Some(cache.as_path()));
    assert!(ok, "{name}: {text}");
    let entry = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "spv"))
        .expect("an entry");
    // A killed writer's temporary file beside the entry: ignored.
    let stray = cache.join(format!(
        ".{}.12345.0",
        entry.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&stray, b"\x03\x02\x23\x07 half").unwrap();
    let (ok, text, log) = run(&host, &loader, spir, &[], Some(cache.as_path()));
    assert!(
        ok && log.contains(": taken from the cache in "),
        "{text}{log}"
    );
    // An entry that cannot be read as a file.
    std::fs::remove_file(&entry).unwrap();
    std::fs::create_dir(&entry).unwrap();
    let (ok, text, log) = run(&host, &loader, spir, &[], Some(cache.as_path()));
    assert!(ok && log.contains(": translated in "), "{text}{log}");
    std::fs::remove_dir_all(&cache).ok();
    // A full disk.
    std::fs::create_dir_all(&cache).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=4k", "tmpfs"])
        .arg(&cache)
        .status()
        .expect("mount");
    assert!(mounted.success(), "mount a 4 KiB tmpfs (needs root)");
    for _ in 0..2 {
        let (ok, text, log) = run(&host, &loader, spir, &[], Some(cache.as_path()));
        assert!(ok && log.contains(": translated in "), "{text}{log}");
        let names: Vec<String> = std::fs::read_dir(&cache)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            !names
                .iter()
                .any(|n| n.starts_with('.') || n.ends_with(".spv")),
            "nothing partial kept on a full disk: {names:?}"
        );
    }
    let _ = std::process::Command::new("umount").arg(&cache).status();
    std::fs::remove_dir_all(&cache).ok();
    std::fs::remove_file(host).ok();
}

/// Threads of one application load the same SPIR at once through the layer
/// (`tests/c/threads_host.c`: eight threads each create, build and run vector_add): every
/// thread's program is translated or taken from the cache whole, and the cache ends with one
/// entry and no temporary file; a second run takes every program from the cache.
#[test]
#[ignore = "needs the Intel CPU OpenCL runtime (.ci/run installs it; OCL_ICD_VENDORS)"]
fn threads_of_one_application_share_the_layer() {
    let host = host_program("threads_host", "threads");
    let spir = "legacy/vector_add.spir64.bc";
    let (name, loader) = loaders().remove(0);
    let cache = fresh_cache("threads");
    for (pass, how) in [(0, ": translated in "), (1, ": taken from the cache in ")] {
        let (ok, text, log) = run(&host, &loader, spir, &[], Some(cache.as_path()));
        assert!(
            ok && text.contains("8 threads matched"),
            "{name}, pass {pass}: {text}"
        );
        let programs = log.lines().filter(|l| l.contains("status 0")).count();
        assert_eq!(programs, 8, "{name}, pass {pass}: {log}");
        if pass == 1 {
            assert_eq!(log.matches(how).count(), 8, "{log}");
        }
    }
    let names: Vec<String> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names.iter().filter(|n| n.ends_with(".spv")).count(),
        1,
        "{names:?}"
    );
    assert!(!names.iter().any(|n| n.starts_with('.')), "{names:?}");
    std::fs::remove_dir_all(cache).ok();
    std::fs::remove_file(host).ok();
}
