//! Generates `spir_xlate.h` (cbindgen, from src/lib.rs) and `spir-xlate.pc` into the build's
//! profile directory (`target/debug` or `target/release`), under `include/` and
//! `pkgconfig/`, beside the `libspir_xlate.so` and `libspir_xlate.a` cargo puts there. The
//! `.pc` file's flags put the library's folder in the program's run path, so a program linked
//! with them starts without `LD_LIBRARY_PATH`.

use std::path::PathBuf;

fn main() {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    // OUT_DIR is <profile dir>/build/<package>-<hash>/out.
    let profile_dir = out_dir
        .ancestors()
        .nth(3)
        .expect("OUT_DIR lies three folders under the profile directory")
        .to_path_buf();
    println!("cargo:rerun-if-changed=src/lib.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("capi/cbindgen.toml is cbindgen's configuration");
    let header = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen reads capi/src/lib.rs");
    let include = profile_dir.join("include");
    std::fs::create_dir_all(&include).expect("the include folder can be made");
    header.write_to_file(include.join("spir_xlate.h"));
    let pkgconfig = profile_dir.join("pkgconfig");
    std::fs::create_dir_all(&pkgconfig).expect("the pkgconfig folder can be made");
    let pc = format!(
        "prefix={}\nincludedir=${{prefix}}/include\nlibdir=${{prefix}}\n\n\
         Name: spir-xlate\nDescription: {}\nVersion: {}\n\
         Cflags: -I${{includedir}}\nLibs: -L${{libdir}} -Wl,-rpath,${{libdir}} -lspir_xlate\n",
        profile_dir.display(),
        std::env::var("CARGO_PKG_DESCRIPTION").unwrap_or_default(),
        std::env::var("CARGO_PKG_VERSION").unwrap_or_default(),
    );
    std::fs::write(pkgconfig.join("spir-xlate.pc"), pc).expect("the .pc file can be written");
}
