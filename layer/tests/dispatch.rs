//! The layer's dispatch indices (src/cl.rs) are those of `cl_icd_dispatch` in the system's
//! `CL/cl_icd.h`: a C program prints each entry's offset in pointers, and each `pub const
//! NAME: usize = N;` of src/cl.rs must match.

use std::process::Command;

#[test]
fn dispatch_indices_match_the_icd_header() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/cl.rs")).unwrap();
    // `pub const GET_DEVICE_INFO: usize = 3;` -> ("clGetDeviceInfo", 3)
    let entries: Vec<(String, usize)> = src
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("pub const ")?;
            let (name, value) = rest.split_once(": usize = ")?;
            let value: usize = value.trim_end_matches(';').parse().ok()?;
            let api: String = name
                .split('_')
                .map(|w| {
                    let lower = w.to_lowercase();
                    match lower.as_str() {
                        "ids" => "IDs".to_string(),
                        "il" => "IL".to_string(),
                        _ => lower[..1].to_uppercase() + &lower[1..],
                    }
                })
                .collect();
            Some((format!("cl{api}"), value))
        })
        .collect();
    assert!(entries.len() >= 8, "{entries:?}");
    let mut c = String::from(
        "#define CL_TARGET_OPENCL_VERSION 300\n#include <CL/cl_icd.h>\n#include <stddef.h>\n\
         #include <stdio.h>\nint main(void) {\n",
    );
    for (api, _) in &entries {
        c.push_str(&format!(
            "  printf(\"%s %zu\\n\", \"{api}\", offsetof(cl_icd_dispatch, {api}) / sizeof(void *));\n"
        ));
    }
    c.push_str("  return 0;\n}\n");
    let dir = std::env::temp_dir().join(format!("spir-xlate-dispatch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("offsets.c"), c).unwrap();
    let out = Command::new("cc")
        .arg("-o")
        .arg(dir.join("offsets"))
        .arg(dir.join("offsets.c"))
        .output()
        .expect("a C compiler (cc) and CL/cl_icd.h (ocl-icd-opencl-dev)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = Command::new(dir.join("offsets")).output().unwrap();
    let printed = String::from_utf8(printed.stdout).unwrap();
    for ((api, ours), line) in entries.iter().zip(printed.lines()) {
        assert_eq!(line, format!("{api} {ours}"), "src/cl.rs's index of {api}");
    }
    std::fs::remove_dir_all(dir).ok();
}
