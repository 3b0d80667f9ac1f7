//! The batch recipes of docs/usage.md, run as they are written there: under GNU parallel
//! (Debian's `parallel`) and as a Slurm job array on a one-node Slurm (Debian's `slurm-wlm`)
//! that the test starts itself (munged, slurmctld and slurmd, as root, under a
//! configuration in a temporary folder), over a tree of SPIR with bad files in it. Each
//! recipe runs twice: the first run translates every good file and reports the bad ones (its
//! merged report says so), the second translates nothing (every good file `unchanged`), as
//! a batch engine rerunning it over an unchanged tree would.
//!
//! `cargo test --test recipes -- --ignored`: .ci/run installs the tools; the Slurm test
//! runs as root (it starts the daemons).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The good files of the tree (fixture shape, name) and where they go in it.
const GOOD: [(&str, &str, &str); 7] = [
    ("modern", "vector_add", ""),
    ("modern", "matmul_tiled", ""),
    ("modern", "images", ""),
    ("modern", "app_chem", ""),
    ("modern", "escape_time", ""),
    ("legacy", "vector_add", "sub/"),
    ("legacy", "local_reduce", "sub/"),
];

/// A fresh folder for one test.
fn workdir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spir-xlate-recipe-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A tree of SPIR at `root`: the good files, a truncated module and a file that is not
/// bitcode at all.
fn tree(root: &Path) {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(root.join("sub")).unwrap();
    for (shape, name, dir) in GOOD {
        let from = here.join(format!("tests/fixtures/{shape}/{name}.spir64.bc"));
        std::fs::copy(&from, root.join(format!("{dir}{name}.spir64.bc"))).unwrap();
    }
    let whole =
        std::fs::read(here.join("tests/fixtures/modern/structs_private.spir64.bc")).unwrap();
    std::fs::write(root.join("sub/truncated.bc"), &whole[..300]).unwrap();
    std::fs::write(root.join("garbage.bc"), b"not bitcode\n").unwrap();
}

/// The code block of docs/usage.md that follows the first line containing `marker`, its
/// indentation removed.
fn recipe(marker: &str) -> String {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/usage.md"))
        .unwrap();
    let at = doc
        .find(marker)
        .unwrap_or_else(|| panic!("docs/usage.md has no '{marker}'"));
    let open = at
        + doc[at..]
            .find("```sh\n")
            .expect("a code block after the marker")
        + 6;
    let close = open + doc[open..].find("```").expect("the code block's end");
    doc[open..close]
        .lines()
        .map(|l| format!("{}\n", l.strip_prefix("  ").unwrap_or(l)))
        .collect()
}

/// `PATH` with the translator built for this test first.
fn path_with_translator() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_spir-xlate"))
        .parent()
        .unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn run(cmd: &mut Command, what: &str) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("{what}: {e} (install it: .ci/run does)"))
}

/// The summary of a merged report.
fn summary(report: &Path) -> serde_json::Value {
    let text = std::fs::read(report).unwrap_or_else(|e| panic!("{}: {e}", report.display()));
    let r: serde_json::Value = serde_json::from_slice(&text).unwrap();
    r["summary"].clone()
}

/// The first run translated the good files and reported the bad ones; the second
/// translated nothing.
fn check_runs(first: &serde_json::Value, second: &serde_json::Value) {
    let n = |s: &serde_json::Value, k: &str| s[k].as_u64().unwrap_or(u64::MAX);
    assert_eq!(n(first, "ok"), GOOD.len() as u64, "first run: {first}");
    assert_eq!(
        n(first, "invalid input"),
        1,
        "the truncated module: {first}"
    );
    assert_eq!(n(first, "files"), GOOD.len() as u64 + 1, "{first}");
    assert_eq!(n(second, "ok"), 0, "second run: {second}");
    assert_eq!(n(second, "unchanged"), GOOD.len() as u64, "{second}");
    assert_eq!(n(second, "invalid input"), 1, "{second}");
}

#[test]
#[ignore = "needs GNU parallel (.ci/run installs it)"]
fn the_gnu_parallel_recipe_runs_as_written() {
    let dir = workdir("parallel");
    tree(&dir.join("assets"));
    let script = recipe("Under GNU parallel");
    assert!(script.contains("parallel "), "{script}");
    let mut reports = Vec::new();
    for pass in 0..2 {
        let out = run(
            Command::new("bash")
                .arg("-c")
                .arg(&script)
                .current_dir(&dir)
                .env("PATH", path_with_translator()),
            "bash and GNU parallel",
        );
        assert!(
            out.status.success(),
            "pass {pass}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        reports.push(summary(&dir.join("all.json")));
    }
    for (_, name, sub) in GOOD {
        assert!(
            dir.join(format!("out/{sub}{name}.spir64.spv")).exists(),
            "{name}"
        );
    }
    check_runs(&reports[0], &reports[1]);
    let _ = std::fs::remove_dir_all(dir);
}

/// A one-node Slurm started for the test, stopped when dropped.
struct Slurm {
    conf: PathBuf,
    dir: PathBuf,
}

impl Slurm {
    fn start(dir: &Path) -> Slurm {
        let uid = run(Command::new("id").arg("-u"), "id");
        assert_eq!(
            String::from_utf8_lossy(&uid.stdout).trim(),
            "0",
            "the Slurm recipe's test starts munged, slurmctld and slurmd: run it as root"
        );
        // munged, once per machine (the key comes with the munge package).
        if !run(
            Command::new("sh").args(["-c", "munge -n | unmunge"]),
            "munge",
        )
        .status
        .success()
        {
            std::fs::create_dir_all("/run/munge").unwrap();
            run(
                Command::new("chown").args(["munge:munge", "/run/munge"]),
                "chown",
            );
            let out = run(
                Command::new("runuser").args(["-u", "munge", "--", "/usr/sbin/munged"]),
                "munged",
            );
            assert!(out.status.success(), "munged: {out:?}");
        }
        let d = dir.display();
        let conf = dir.join("slurm.conf");
        std::fs::create_dir_all(dir.join("state")).unwrap();
        std::fs::create_dir_all(dir.join("spool")).unwrap();
        std::fs::write(
            &conf,
            format!(
                "ClusterName=spirxlate\nSlurmctldHost=localhost\nSlurmUser=root\n\
                 SlurmdUser=root\nAuthType=auth/munge\nStateSaveLocation={d}/state\n\
                 SlurmdSpoolDir={d}/spool\nSlurmctldPidFile={d}/slurmctld.pid\n\
                 SlurmdPidFile={d}/slurmd.pid\nProctrackType=proctrack/linuxproc\n\
                 TaskPlugin=task/none\nJobAcctGatherType=jobacct_gather/none\n\
                 SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n\
                 ReturnToService=2\nMpiDefault=none\nSlurmctldLogFile={d}/slurmctld.log\n\
                 SlurmdLogFile={d}/slurmd.log\nNodeName=localhost CPUs=2 State=UNKNOWN\n\
                 PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n"
            ),
        )
        .unwrap();
        let slurm = Slurm {
            conf,
            dir: dir.to_path_buf(),
        };
        for (daemon, args) in [
            ("slurmctld", vec!["-c"]),
            ("slurmd", vec!["-N", "localhost"]),
        ] {
            let out = run(slurm.command(daemon).args(args), daemon);
            assert!(out.status.success(), "{daemon}: {out:?}");
        }
        let started = Instant::now();
        loop {
            let out = run(slurm.command("sinfo").args(["-h", "-o", "%t"]), "sinfo");
            if String::from_utf8_lossy(&out.stdout).trim() == "idle" {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the node never became idle: {out:?}"
            );
            std::thread::sleep(Duration::from_millis(500));
        }
        slurm
    }

    /// A Slurm command under the test's configuration.
    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", &self.conf);
        c
    }
}

impl Drop for Slurm {
    fn drop(&mut self) {
        for pid in ["slurmd.pid", "slurmctld.pid"] {
            if let Ok(p) = std::fs::read_to_string(self.dir.join(pid)) {
                let _ = Command::new("kill").arg(p.trim()).status();
            }
        }
    }
}

#[test]
#[ignore = "needs slurm-wlm and munge (.ci/run installs them), run as root"]
fn the_slurm_job_array_recipe_runs_as_written() {
    let dir = workdir("slurm");
    let data = dir.join("data");
    tree(&data.join("spir"));
    std::fs::create_dir_all(dir.join("reports")).unwrap();
    let script = recipe("As a Slurm job array").replace("/data/", &format!("{}/", data.display()));
    let script = script[script.find("#!/bin/bash").expect("the job script")..].to_string();
    assert!(script.contains("#SBATCH --array="), "{script}");
    std::fs::write(dir.join("job.sh"), &script).unwrap();
    let slurm = Slurm::start(&dir.join("slurm"));
    let mut reports = Vec::new();
    for pass in 0..2 {
        let out = run(
            slurm
                .command("sbatch")
                .args(["--wait", "job.sh"])
                .current_dir(&dir)
                .env("PATH", path_with_translator()),
            "sbatch",
        );
        // The share holding the bad file exits 1 (some inputs refused), the others 0.
        assert_eq!(out.status.code(), Some(1), "pass {pass}: {out:?}");
        let merged = dir.join(format!("reports/all{pass}.json"));
        let out = run(
            Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
                .args(["migrate", "--merge-reports"])
                .args(shares(&dir.join("reports")))
                .arg("--report")
                .arg(&merged),
            "spir-xlate",
        );
        assert!(out.status.success(), "{out:?}");
        reports.push(summary(&merged));
    }
    for (_, name, sub) in GOOD {
        let out = data.join(format!("spirv/{sub}{name}.spir64.spv"));
        assert!(out.exists(), "{}", out.display());
    }
    check_runs(&reports[0], &reports[1]);
    drop(slurm);
    let _ = std::fs::remove_dir_all(dir);
}

/// The share reports the job array kept (`reports/share*.json`, not the runs' `.new` ones).
fn shares(reports: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(reports)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("share") && n.ends_with(".json") && !n.ends_with(".new.json")
        })
        .collect();
    v.sort();
    assert_eq!(v.len(), 16, "one report per task: {v:?}");
    v
}
