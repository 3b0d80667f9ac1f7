//! Every command behaves like the others where they meet (issue 51): no path made but the one
//! given, no output overwritten without `--force`, hints that never name the input, SPIR-V input
//! said for what it is, usage errors with the subcommand's usage, one meaning for `-q`, a reason
//! for every skipped file; and `migrate` as a worker of a batch engine (`--shard`, `--since`,
//! `--merge-reports`).
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::cli as run;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spir-xlate-cli51-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A tree of modules (two levels) and one file that is none.
fn tree(name: &str) -> PathBuf {
    let d = scratch(name);
    let mut n = 0;
    for e in std::fs::read_dir("tests/fixtures/modern").unwrap() {
        let p = e.unwrap().path();
        if p.to_string_lossy().ends_with(".spir64.bc") && n < 24 {
            let sub = if n % 3 == 0 {
                d.join("deep")
            } else {
                d.clone()
            };
            std::fs::create_dir_all(&sub).unwrap();
            std::fs::copy(&p, sub.join(p.file_name().unwrap())).unwrap();
            n += 1;
        }
    }
    std::fs::write(d.join("notes.txt"), "not a module").unwrap();
    d
}

fn report(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn migrate_makes_no_path_but_the_one_given() {
    let d = scratch("paths");
    let out = d.join("no/such/out");
    let (code, err) = run(&["migrate", "tests/fixtures/modern", "-o", s(&out), "-q"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("does not exist"), "{err}");
    assert!(!d.join("no").exists());
    // The output directory itself is made.
    let (code, err) = run(&[
        "migrate",
        "tests/fixtures/modern/vector_add.spir64.bc",
        "-o",
        s(&d.join("made")),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(d.join("made/vector_add.spir64.spv").exists());
}

#[test]
fn migrate_overwrites_nothing_without_force() {
    let inp = tree("force-in");
    let out = scratch("force-out").join("o");
    assert_eq!(run(&["migrate", s(&inp), "-o", s(&out), "-q"]).0, 0);
    let spv = out
        .join("deep")
        .read_dir()
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::write(&spv, b"mine").unwrap();
    let (code, err) = run(&["migrate", s(&inp), "-o", s(&out)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("exist already") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read(&spv).unwrap(), b"mine");
    let (code, err) = run(&["migrate", s(&inp), "-o", s(&out), "--force", "-q"]);
    assert_eq!(code, 0, "{err}");
    assert_ne!(std::fs::read(&spv).unwrap(), b"mine");
}

#[test]
fn quiet_means_errors_only_everywhere() {
    let d = scratch("quiet");
    let (out, spv) = (d.join("o"), d.join("v.spv"));
    // Each command says something without -q (the summary line; a fact not kept) and
    // nothing with it.
    for args in [
        vec![
            "migrate",
            "tests/fixtures/modern/vector_add.spir64.bc",
            "-o",
            s(&out),
            "--force",
        ],
        vec![
            "to-spirv",
            "tests/fixtures/debug/vector_add.spir64.bc",
            "--debug-info",
            "none",
            "-o",
            s(&spv),
        ],
    ] {
        let (code, err) = run(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!err.is_empty(), "{args:?} says nothing without -q");
        let quiet: Vec<&str> = args.iter().copied().chain(["-q"]).collect();
        let (code, err) = run(&quiet);
        assert_eq!((code, err.as_str()), (0, ""), "{quiet:?}");
    }
    // An error still prints.
    let (code, err) = run(&["migrate", "/nonexistent/in", "-o", s(&d.join("p")), "-q"]);
    assert_eq!(code, 1);
    assert!(err.contains("no such file or directory"), "{err}");
}

#[test]
fn every_skipped_file_has_a_reason() {
    let inp = tree("skip-in");
    std::fs::copy(
        "tests/spirv/../fixtures/modern/vector_add.spir64.bc",
        inp.join("k.bc"),
    )
    .unwrap();
    let out = scratch("skip-out");
    // A SPIR-V module among SPIR, and a text file.
    let spv = out.join("k.spv");
    assert_eq!(run(&["to-spirv", s(&inp.join("k.bc")), "-o", s(&spv)]).0, 0);
    std::fs::copy(&spv, inp.join("k.spv")).unwrap();
    let r = out.join("r.json");
    let (code, err) = run(&[
        "migrate",
        s(&inp),
        "-o",
        s(&out.join("o")),
        "--report",
        s(&r),
    ]);
    assert_eq!(code, 0, "{err}");
    let json = report(&r);
    let reason = |name: &str| -> String {
        let f = json["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["input"].as_str().unwrap().ends_with(name))
            .unwrap_or_else(|| panic!("{name} in the report"));
        assert_eq!(f["status"], "skipped", "{f}");
        f["reason"].as_str().unwrap().to_string()
    };
    assert!(reason("notes.txt").contains("neither LLVM bitcode nor SPIR-V"));
    assert!(reason("k.spv").contains("SPIR-V module") && reason("k.spv").contains("--to spir"));
}

#[test]
fn to_spir_hint_never_names_the_input() {
    let d = scratch("hint");
    let bc = d.join("stencil.bc");
    std::fs::copy("tests/fixtures/modern/vector_add.spir64.bc", &bc).unwrap();
    assert_eq!(run(&["to-spirv", s(&bc), "-q"]).0, 0);
    let (code, err) = run(&["to-spir", s(&d.join("stencil.spv"))]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("give -o another name"), "{err}");
    assert!(
        !err.contains("-o stencil.bc") && !err.contains(&format!("-o {}", s(&bc))),
        "{err}"
    );
}

#[test]
fn reflection_on_the_input_names_the_reflection_option() {
    let d = scratch("refl");
    let bc = d.join("k.bc");
    std::fs::copy("tests/fixtures/modern/vector_add.spir64.bc", &bc).unwrap();
    let (code, err) = run(&[
        "to-spirv",
        s(&bc),
        "--target",
        "vulkan1.2",
        "--reflection",
        s(&bc),
        "-o",
        s(&d.join("k.spv")),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("give another --reflection"), "{err}");
    assert!(std::fs::read(&bc).unwrap().starts_with(b"BC"));
}

#[test]
fn spirv_given_to_to_spirv_is_said_for_what_it_is() {
    let d = scratch("spvin");
    let spv = d.join("k.spv");
    let (code, _) = run(&[
        "to-spirv",
        "tests/fixtures/modern/vector_add.spir64.bc",
        "-o",
        s(&spv),
    ]);
    assert_eq!(code, 0);
    let (code, err) = run(&["to-spirv", s(&spv), "-o", s(&d.join("again.spv"))]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("this is a SPIR-V module, not SPIR") && err.contains("to-spir translates"),
        "{err}"
    );
}

#[test]
fn usage_errors_after_parsing_show_the_subcommand() {
    for (args, usage) in [
        (
            &[
                "to-spirv",
                "tests/fixtures/modern/vector_add.spir64.bc",
                "--spirv-version",
                "1.4",
            ][..],
            "Usage: spir-xlate to-spirv",
        ),
        (
            &[
                "to-spir",
                "x.spv",
                "--builtins-as-globals",
                "--flavor",
                "spir",
            ][..],
            "Usage: spir-xlate to-spir",
        ),
        (
            &["migrate", "x", "-o", "y", "--spirv-version", "1.6"][..],
            "Usage: spir-xlate migrate",
        ),
    ] {
        let (code, err) = run(args);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(usage), "{args:?}: {err}");
    }
}

#[test]
fn a_time_limit_of_zero_is_a_usage_error() {
    let (code, err) = run(&[
        "to-spirv",
        "tests/fixtures/modern/vector_add.spir64.bc",
        "--time-limit",
        "0",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("leaves no time"), "{err}");
}

/// The report without what differs between runs of the same work (times), and with the
/// output directory's name taken out.
fn normalized(path: &Path, out: &Path) -> serde_json::Value {
    let mut json = report(path);
    for f in json["files"].as_array_mut().unwrap() {
        f.as_object_mut().unwrap().remove("seconds");
        if let Some(o) = f.get("output").and_then(|o| o.as_str()) {
            f["output"] = o.replace(s(out), "OUT").into();
        }
    }
    json
}

#[test]
fn four_shares_run_concurrently_and_merge_into_one_runs_report() {
    let inp = tree("shares-in");
    let d = scratch("shares-out");
    let whole = d.join("whole.json");
    let (code, err) = run(&[
        "migrate",
        s(&inp),
        "-o",
        s(&d.join("one")),
        "--report",
        s(&whole),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let exe = env!("CARGO_BIN_EXE_spir-xlate");
    let shares: Vec<_> = (0..4)
        .map(|k| {
            Command::new(exe)
                .args([
                    "migrate",
                    s(&inp),
                    "-o",
                    s(&d.join("four")),
                    "-q",
                    "-j",
                    "1",
                ])
                .args(["--shard", &format!("{k}/4")])
                .args(["--report", s(&d.join(format!("share{k}.json")))])
                .spawn()
                .unwrap()
        })
        .collect();
    let mut sizes = Vec::new();
    for (k, mut child) in shares.into_iter().enumerate() {
        assert!(child.wait().unwrap().success(), "share {k}");
        sizes.push(
            report(&d.join(format!("share{k}.json")))["files"]
                .as_array()
                .unwrap()
                .len(),
        );
    }
    // Every share did some of the work, and none all of it.
    assert!(sizes.iter().all(|&n| n > 0 && n < 25), "{sizes:?}");
    let merged = d.join("merged.json");
    let mut args = vec!["migrate", "--merge-reports"];
    let names: Vec<String> = (0..4)
        .map(|k| s(&d.join(format!("share{k}.json"))).to_string())
        .collect();
    args.extend(names.iter().map(String::as_str));
    args.extend(["--report", s(&merged)]);
    let (code, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        normalized(&merged, &d.join("four")),
        normalized(&whole, &d.join("one"))
    );
    // The same files, byte for byte.
    for f in report(&whole)["files"].as_array().unwrap() {
        if let Some(o) = f["output"].as_str() {
            let other = o.replace(s(&d.join("one")), s(&d.join("four")));
            assert_eq!(
                std::fs::read(o).unwrap(),
                std::fs::read(&other).unwrap(),
                "{o}"
            );
        }
    }
}

#[test]
fn a_second_run_over_an_unchanged_tree_translates_nothing() {
    let inp = tree("since-in");
    let d = scratch("since-out");
    let out = d.join("o");
    let first = d.join("first.json");
    let (code, err) = run(&[
        "migrate",
        s(&inp),
        "-o",
        s(&out),
        "--report",
        s(&first),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    // `migrate` of the tree into `out` since the report `since`, with `options`, reporting
    // to `name`.
    let again = |since: &Path, name: &str, options: &[&str]| {
        let path = d.join(name);
        let mut argv = vec!["migrate", s(&inp), "-o", s(&out), "--since", s(since)];
        argv.extend_from_slice(options);
        argv.extend(["--report", s(&path)]);
        let (code, err) = run(&argv);
        assert_eq!(code, 0, "{err}");
        (report(&path), err, path)
    };
    let (json, err, second) = again(&first, "second.json", &[]);
    assert_eq!(json["summary"]["ok"], 0, "{err}");
    assert_eq!(json["summary"]["unchanged"], 24, "{err}");
    assert!(err.contains("0 translated, 24 unchanged"), "{err}");
    // One input changed (another module in its place), one output removed: those two are
    // translated again, with the second run's report as the record.
    let changed = inp
        .join("deep")
        .read_dir()
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::copy("tests/fixtures/o0/vector_add.spir64.bc", &changed).unwrap();
    let gone = json["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["output"].as_str())
        .find(|o| !o.contains("/deep/"))
        .unwrap()
        .to_string();
    std::fs::remove_file(&gone).unwrap();
    let (json, err, third) = again(&second, "third.json", &[]);
    assert_eq!(json["summary"]["ok"], 2, "{err}");
    assert_eq!(json["summary"]["unchanged"], 22, "{err}");
    assert!(Path::new(&gone).exists());
    // Other options: nothing is unchanged.
    let options = ["--spirv-version", "1.0", "--target", "opencl2.2", "-q"];
    let (json, err, _) = again(&third, "fourth.json", &options);
    assert_eq!(json["summary"]["ok"], 24, "{err}");
}

#[test]
fn options_that_do_not_apply_are_refused_like_reflection_without_vulkan() {
    let bc = "tests/fixtures/modern/vector_add.spir64.bc";
    let out = std::env::temp_dir().join(format!("spir-xlate-na-{}", std::process::id()));
    let o = out.to_str().unwrap();
    for (args, says) in [
        (
            vec![
                "to-spirv",
                bc,
                "-o",
                o,
                "--target",
                "vulkan1.2",
                "--mad",
                "fma",
            ],
            "--mad applies to OpenCL targets",
        ),
        (
            vec!["to-spirv", bc, "-o", o, "--vulkan-pointers", "descriptors"],
            "--vulkan-pointers applies to Vulkan targets",
        ),
        (
            vec!["to-spirv", bc, "-o", o, "--max-push-constants", "256"],
            "--max-push-constants applies to Vulkan targets",
        ),
        (
            vec![
                "migrate",
                bc,
                "-o",
                o,
                "--to",
                "spir",
                "--target",
                "vulkan1.2",
            ],
            "--target applies to --to spirv",
        ),
        (
            vec!["migrate", bc, "-o", o, "--flavor", "spirv-ir"],
            "--flavor applies to --to spir",
        ),
        (
            vec!["migrate", bc, "--merge-reports", "-o", o],
            "--output-dir does not apply to --merge-reports",
        ),
        (vec!["migrate", bc, "-o", o, "-j", "0"], "0 threads"),
    ] {
        let (code, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert!(!out.exists(), "a refused run wrote {o}");
    // What does apply is taken, and both spellings of text output work for both commands.
    let spvasm = out.with_extension("spvasm");
    let (code, err) = run(&["to-spirv", bc, "-S", "-o", spvasm.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&spvasm).unwrap();
    assert!(text.starts_with("; SPIR-V"), "{text}");
    let spv = out.with_extension("spv");
    assert_eq!(run(&["to-spirv", bc, "-o", spv.to_str().unwrap()]).0, 0);
    let ll = out.with_extension("ll");
    let (code, err) = run(&[
        "to-spir",
        spv.to_str().unwrap(),
        "--text",
        "-o",
        ll.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&ll)
        .unwrap()
        .contains("define spir_kernel"));
    for f in [spvasm, spv, ll] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn binary_output_to_a_terminal_is_refused() {
    // `script` (util-linux) runs the command on a pseudo-terminal.
    let bin = env!("CARGO_BIN_EXE_spir-xlate");
    let bc = "tests/fixtures/modern/vector_add.spir64.bc";
    let on_terminal = |args: &str| {
        let out = std::process::Command::new("script")
            .args(["-qec", &format!("{bin} {args}"), "/dev/null"])
            .output()
            .expect("script (util-linux)");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, shown) = on_terminal(&format!("to-spirv {bc} -o -"));
    assert_eq!(code, Some(1), "{shown}");
    assert!(shown.contains("standard output is a terminal"), "{shown}");
    let (code, shown) = on_terminal(&format!("to-spirv {bc} -o - -S"));
    assert_eq!(code, Some(0), "{shown}");
    assert!(shown.contains("; SPIR-V"), "{shown}");
}

#[test]
fn a_since_run_s_report_keeps_the_facts_of_the_unchanged_files() {
    let inp = tree("since-facts-in");
    let d = scratch("since-facts-out");
    let out = d.join("out");
    let (first, second) = (d.join("first.json"), d.join("second.json"));
    let (code, err) = run(&[
        "migrate",
        s(&inp),
        "-o",
        s(&out),
        "--report",
        s(&first),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, err) = run(&[
        "migrate",
        s(&inp),
        "-o",
        s(&out),
        "--since",
        s(&first),
        "--report",
        s(&second),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let by_input =
        |r: &serde_json::Value| -> std::collections::BTreeMap<String, serde_json::Value> {
            r["files"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| (f["input"].as_str().unwrap().to_string(), f.clone()))
                .collect()
        };
    let (a, b) = (by_input(&report(&first)), by_input(&report(&second)));
    assert_eq!(a.len(), b.len());
    let mut unchanged = 0;
    for (input, f) in &b {
        if a[input]["status"] == "skipped" {
            assert_eq!(f["status"], "skipped", "{input}");
            continue;
        }
        assert_eq!(f["status"], "unchanged", "{input} was translated again");
        unchanged += 1;
        for fact in [
            "output",
            "key",
            "kernels",
            "spirv_version",
            "capabilities",
            "extensions",
            "lost",
        ] {
            assert_eq!(f[fact], a[input][fact], "{input}: {fact}");
        }
    }
    assert!(unchanged >= 20, "{unchanged}");
    // The summaries agree where a full run's would: kernels and files with facts not kept.
    let (ra, rb) = (report(&first), report(&second));
    let lossy = |r: &serde_json::Value| r["summary"]["with facts not kept"].as_u64().unwrap();
    assert_eq!(lossy(&ra), lossy(&rb));
    let _ = std::fs::remove_dir_all(&inp);
    let _ = std::fs::remove_dir_all(&d);
}
