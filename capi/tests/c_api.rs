//! The C interface tested from C: `tests/c/api_test.c` is compiled against the generated
//! `spir_xlate.h` and the built `libspir_xlate.so` (and, a second time, statically against
//! `libspir_xlate.a`), then run on fixtures, and run again under valgrind, which must find
//! no invalid access and no leak in the calling process (the contained children that do
//! the translations leave with `_exit`, so their memory is the system's to take back).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The profile directory (`target/debug`) holding the library, `include/` and
/// `pkgconfig/`: the test binary lives in its `deps/`. `cargo build -p spir-xlate-capi`
/// puts the libraries there (`cargo test` alone builds them only under `deps/`).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap().to_path_buf();
    for lib in ["libspir_xlate.so", "libspir_xlate.a"] {
        assert!(
            dir.join(lib).exists(),
            "{} is missing: build the C interface first (cargo build -p spir-xlate-capi)",
            dir.join(lib).display()
        );
    }
    dir
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// Compile the C test, linked to the shared library or (with `static_lib`) the archive, as
/// an executable named by `tag` (tests run at once).
fn compile(static_lib: bool, tag: &str) -> PathBuf {
    let dir = profile_dir();
    let exe = std::env::temp_dir().join(format!(
        "spir-xlate-api-test-{}-{tag}-{}",
        std::process::id(),
        if static_lib { "static" } else { "shared" }
    ));
    let mut cc = Command::new("cc");
    cc.arg("-Wall")
        .arg("-Werror")
        .arg("-o")
        .arg(&exe)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/api_test.c"))
        .arg("-I")
        .arg(dir.join("include"));
    if static_lib {
        // The archive holds the Rust code and SPIRV-Tools; LLVM and the C++ runtime come
        // from the system, as `llvm-config-14` names them.
        let llvm = Command::new("llvm-config-14")
            .args([
                "--link-static",
                "--libs",
                "core",
                "bitreader",
                "bitwriter",
                "irreader",
                "analysis",
            ])
            .output()
            .expect("llvm-config-14 (package llvm-14-dev)");
        let system = Command::new("llvm-config-14")
            .args(["--link-static", "--system-libs", "--ldflags"])
            .output()
            .unwrap();
        cc.arg(dir.join("libspir_xlate.a"));
        for out in [llvm, system] {
            for flag in String::from_utf8(out.stdout).unwrap().split_whitespace() {
                cc.arg(flag);
            }
        }
        cc.args(["-lstdc++", "-lpthread", "-ldl", "-lm"]);
    } else {
        // As docs/c-api.md says: the flags pkg-config gives for the generated .pc file.
        let flags = Command::new("pkg-config")
            .args(["--cflags", "--libs", "spir-xlate"])
            .env("PKG_CONFIG_PATH", dir.join("pkgconfig"))
            .output()
            .expect("pkg-config (package pkgconf)");
        assert!(flags.status.success(), "pkg-config finds spir-xlate.pc");
        for flag in String::from_utf8(flags.stdout).unwrap().split_whitespace() {
            cc.arg(flag);
        }
        cc.arg("-lpthread");
    }
    let out = cc.output().expect("a C compiler (cc)");
    assert!(
        out.status.success(),
        "compiling api_test.c: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_c_api_works_from_c_linked_either_way() {
    for static_lib in [false, true] {
        let exe = compile(static_lib, "either");
        for f in [
            "modern/vector_add.spir64.bc",
            "legacy/image_1d_sampled.spir64.bc",
        ] {
            // The shared library is found through the run path the .pc file's flags set.
            run(Command::new(&exe)
                .arg(fixture(f))
                .env_remove("LD_LIBRARY_PATH"));
        }
        std::fs::remove_file(exe).ok();
    }
}

#[test]
fn the_c_api_is_valgrind_clean() {
    let exe = compile(false, "valgrind");
    run(Command::new("valgrind")
        .args([
            "--error-exitcode=1",
            "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect",
            "--child-silent-after-fork=yes",
            "--quiet",
        ])
        .arg(&exe)
        .arg(fixture("modern/vector_add.spir64.bc")));
    std::fs::remove_file(exe).ok();
}

#[test]
fn the_header_and_pkg_config_file_are_generated() {
    let dir = profile_dir();
    let header = std::fs::read_to_string(dir.join("include/spir_xlate.h")).unwrap();
    for f in [
        "spir_xlate_translate",
        "spir_xlate_options_set",
        "spir_xlate_result_free",
        "SPIR_XLATE_MALFORMED",
    ] {
        assert!(header.contains(f), "{f} missing from spir_xlate.h");
    }
    let pc = std::fs::read_to_string(dir.join("pkgconfig/spir-xlate.pc")).unwrap();
    assert!(
        pc.contains("Libs: -L${libdir} -Wl,-rpath,${libdir} -lspir_xlate"),
        "{pc}"
    );
}
