//! What the build links, and the platforms it builds on: LLVM 14's components, statically,
//! and the vendored SPIRV-Tools.

use std::path::Path;

/// Link the LLVM 14 components the tool uses, statically (llvm-sys links nothing itself:
/// `no-llvm-linking`). The components: the IR (`core`), bitcode in and out, LLVM IR text in
/// (`irreader`), and the verifier (`analysis`), with what they depend on (`llvm-config`
/// resolves that); the system libraries are LLVM's own list.
pub(crate) fn link_llvm() {
    let config = std::env::var("LLVM_SYS_140_PREFIX")
        .map(|p| Path::new(&p).join("bin/llvm-config"))
        .unwrap_or_else(|_| Path::new("/usr/lib/llvm-14/bin/llvm-config").to_path_buf());
    println!("cargo:rerun-if-env-changed=LLVM_SYS_140_PREFIX");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(&config)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{}: {e} (install llvm-14-dev)", config.display()));
        assert!(out.status.success(), "{} {args:?} failed", config.display());
        String::from_utf8(out.stdout).expect("llvm-config prints UTF-8")
    };
    // The one C++ file (src/llvm/inst_flags.cpp: what LLVM 14's C API cannot reach), first,
    // so that the LLVM libraries after it resolve it.
    println!("cargo:rerun-if-changed=src/llvm/inst_flags.cpp");
    let mut shim = cc::Build::new();
    shim.cpp(true)
        .file("src/llvm/inst_flags.cpp")
        .warnings(false);
    for flag in run(&["--cxxflags"]).split_whitespace() {
        shim.flag(flag);
    }
    shim.compile("spir_xlate_llvm_shim");
    // The versions `--version` names: LLVM's, and the vendored SPIRV-Tools' (its own
    // generated build-version.inc: `"v2025.3", "SPIRV-Tools v2025.3 ..."`).
    println!(
        "cargo:rustc-env=SPIR_XLATE_LLVM_VERSION={}",
        run(&["--version"]).trim()
    );
    let tools = Path::new("vendor/spirv-tools-sys/generated/build-version.inc");
    println!("cargo:rerun-if-changed={}", tools.display());
    let tools = std::fs::read_to_string(tools).unwrap_or_default();
    let tools = tools.split('"').nth(1).unwrap_or("unknown");
    println!("cargo:rustc-env=SPIR_XLATE_SPIRV_TOOLS_VERSION={tools}");
    println!(
        "cargo:rustc-link-search=native={}",
        run(&["--libdir"]).trim()
    );
    let components = ["core", "bitreader", "bitwriter", "irreader", "analysis"];
    let mut args = vec!["--link-static", "--libnames"];
    args.extend(components);
    for name in run(&args).split_whitespace() {
        let lib = name.trim_start_matches("lib").trim_end_matches(".a");
        println!("cargo:rustc-link-lib=static={lib}");
    }
    for flag in run(&["--link-static", "--system-libs"]).split_whitespace() {
        if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={lib}");
        } else if flag.starts_with('/') {
            // A full path (libz3.so): its directory and name.
            let p = Path::new(flag);
            if let (Some(dir), Some(stem)) = (p.parent(), p.file_stem().and_then(|s| s.to_str())) {
                println!("cargo:rustc-link-search=native={}", dir.display());
                println!(
                    "cargo:rustc-link-lib=dylib={}",
                    stem.trim_start_matches("lib")
                );
            }
        }
    }
    println!("cargo:rustc-link-lib=dylib=stdc++");
}

/// The platforms this crate builds on, and a clear failure elsewhere. The contained reader
/// (src/contain) runs LLVM in a forked child bounded by an address-space limit, which Linux
/// enforces (`RLIMIT_AS`; macOS accepts the limit and ignores it), and Linux is the one platform
/// the tests run on.
pub(crate) fn require_linux() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os != "linux" {
        panic!(
            "spir-xlate builds on Linux only (target OS `{os}`): its containment of LLVM's \
             reader forks a child bounded by an address-space limit (RLIMIT_AS), which only \
             Linux enforces"
        );
    }
}

/// The SPIRV-Tools we link is the vendored one, with its linear-time validator checks: a
/// build against another (a changed version pin, a missing `[patch]`) stops here by name.
pub(crate) fn require_vendored_spirv_tools() {
    println!("cargo:rerun-if-env-changed=DEP_SPIRV_TOOLS_LINEAR_VALIDATION");
    if std::env::var_os("DEP_SPIRV_TOOLS_LINEAR_VALIDATION").is_none() {
        panic!(
            "spirv-tools-sys is not the copy in vendor/spirv-tools-sys (it does not say that \
             its validator has the linear-time checks): keep `spirv-tools-sys = \"=0.13.3\"` \
             and its [patch.crates-io] entry in Cargo.toml, or renew the vendored copy as \
             vendor/README.md says"
        );
    }
}
