//! Fuzzing both readers (and the writers behind them) on stable Rust: a small mutator over the
//! fixture corpus. Bounded in `cargo test`; `SPIR_XLATE_FUZZ_EXECS=N` runs N executions per
//! reader (`SPIR_XLATE_FUZZ_SEED` picks the sequence, `SPIR_XLATE_FUZZ_SAVE=DIR` keeps every
//! input that found something). What counts as a failure:
//!
//! * SPIR (bitcode) reader, `to_spirv` (contained, see `src/contain.rs`): an `Ok` module that
//!   the validator rejects, or an internal error (a bug of ours: the input was read but we
//!   could not translate or validate what we made). Malformed input, unsupported constructs
//!   and resource limits are the expected answers. A crash of the harness itself (an abort
//!   that escaped containment) fails the test run.
//! * SPIR-V reader, in-process (pure Rust): a panic; and for every module it reads, both SPIR
//!   writers, the SPIR-V writer and the Vulkan lowering (both pointer strategies) run, where a
//!   panic, an internal error or an abort is a bug.
//! * Either: one execution taking longer than 60 s (a hang): the watchdog aborts the run.
//!
//! Every distinct finding becomes a regression case (tests/regressions/).

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::Rng;
use spir_xlate::{ErrorKind, Flavor, Options, SpirOptions, VulkanPointers};

const INTERESTING: [u64; 10] = [
    0,
    1,
    2,
    0x7f,
    0x80,
    0xff,
    0xffff,
    0x7fff_ffff,
    0xffff_ffff,
    64,
];

/// One mutation of `input` (bytes), with `other` for splices.
fn mutate_bytes(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        if v.is_empty() {
            v.push(0);
        }
        match rng.below(7) {
            0 => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 => {
                let i = rng.below(v.len());
                v[i] = INTERESTING[rng.below(INTERESTING.len())] as u8;
            }
            2 => {
                let n = rng.below(v.len());
                v.truncate(n.max(4));
            }
            3 => {
                // Splice: a prefix of this input, a suffix of the other.
                let a = rng.below(v.len());
                let b = rng.below(other.len());
                v.truncate(a);
                v.extend_from_slice(&other[b..]);
            }
            4 => {
                // Duplicate a chunk.
                let a = rng.below(v.len());
                let n = rng.below(64.min(v.len() - a)) + 1;
                let chunk = v[a..(a + n).min(v.len())].to_vec();
                let at = rng.below(v.len());
                v.splice(at..at, chunk);
            }
            5 => {
                // Delete a chunk.
                let a = rng.below(v.len());
                let n = rng.below(64) + 1;
                v.drain(a..(a + n).min(v.len()));
            }
            _ => {
                // A 32-bit little-endian field set to an interesting value.
                if v.len() >= 4 {
                    let i = rng.below(v.len() - 3);
                    let x = INTERESTING[rng.below(INTERESTING.len())] as u32;
                    v[i..i + 4].copy_from_slice(&x.to_le_bytes());
                }
            }
        }
    }
    v
}

/// One mutation of a SPIR-V module at the word level (opcodes, word counts, ids, literals).
fn mutate_words(rng: &mut Rng, input: &[u32], other: &[u32]) -> Vec<u32> {
    let mut v = input.to_vec();
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        if v.len() <= 5 {
            break;
        }
        let i = 5 + rng.below(v.len() - 5);
        match rng.below(8) {
            0 => v[i] ^= 1 << rng.below(32),
            1 => v[i] = INTERESTING[rng.below(INTERESTING.len())] as u32,
            // Another opcode, same word count.
            2 => v[i] = (v[i] & 0xffff_0000) | (rng.below(400) as u32),
            // Another word count.
            3 => v[i] = (v[i] & 0xffff) | ((rng.below(12) as u32) << 16),
            // An id nearby (ids are small integers).
            4 => v[i] = (v[i] as i64 + rng.below(9) as i64 - 4).max(0) as u32,
            5 => v.truncate(i),
            6 => {
                let j = 5 + rng.below(other.len().saturating_sub(5).max(1));
                v.truncate(i);
                v.extend_from_slice(other.get(j..).unwrap_or(&[]));
            }
            _ => {
                let n = rng.below(8) + 1;
                v.drain(i..(i + n).min(v.len()));
            }
        }
    }
    v
}

fn execs() -> u64 {
    std::env::var("SPIR_XLATE_FUZZ_EXECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
}

fn seed() -> u64 {
    std::env::var("SPIR_XLATE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_1234_abcd_0001)
        | 1
}

/// Aborts the process if one execution runs past 60 s: a hang is a finding, not a stuck CI.
struct Watchdog(Arc<AtomicU64>);

impl Watchdog {
    fn start(what: &'static str) -> Self {
        let started = Instant::now();
        let last = Arc::new(AtomicU64::new(0));
        let seen = last.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_secs(5));
            let at = seen.load(Ordering::Relaxed);
            if at == u64::MAX {
                return;
            }
            if started.elapsed().as_secs() > at + 60 {
                eprintln!("{what}: one execution ran past 60 s (a hang)");
                std::process::abort();
            }
        });
        Watchdog(last)
    }
    fn tick(&self, started: Instant) {
        self.0.store(started.elapsed().as_secs(), Ordering::Relaxed);
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.0.store(u64::MAX, Ordering::Relaxed);
    }
}

/// Keep an input under `SPIR_XLATE_FUZZ_SAVE` as `<kind>-<n>`; `n = u64::MAX` is the one
/// being executed (`<kind>-current`, overwritten each time).
fn save(kind: &str, n: u64, bytes: &[u8]) {
    if let Ok(dir) = std::env::var("SPIR_XLATE_FUZZ_SAVE") {
        let _ = std::fs::create_dir_all(&dir);
        let name = match n {
            u64::MAX => format!("{kind}-current"),
            n => format!("{kind}-{n}"),
        };
        let _ = std::fs::write(Path::new(&dir).join(name), bytes);
    }
}

#[test]
fn spir_reader_survives_mutated_bitcode() {
    let corpus: Vec<Vec<u8>> = common::fixtures()
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let dir = std::env::temp_dir().join(format!("spir-xlate-fuzz-bc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("input.bc");
    let options = Options {
        limits: spir_xlate::Limits {
            time: Duration::from_secs(30),
            memory: 4 << 30,
        },
        ..Default::default()
    };
    let mut rng = Rng(seed());
    let n = execs();
    let started = Instant::now();
    let dog = Watchdog::start("spir reader");
    let (mut ok, mut refused, mut findings) = (0u64, 0u64, Vec::new());
    let mut reasons = std::collections::BTreeMap::<String, u64>::new();
    for i in 0..n {
        let a = &corpus[rng.below(corpus.len())];
        let b = &corpus[rng.below(corpus.len())];
        let bytes = mutate_bytes(&mut rng, a, b);
        if i > 0 && i % 100_000 == 0 {
            eprintln!(
                "SPIR reader: {i} executions, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
        std::fs::write(&input, &bytes).unwrap();
        dog.tick(started);
        match spir_xlate::internals::to_spirv(&input, &options) {
            Ok(words) => {
                ok += 1;
                if let Err(e) = spir_xlate::internals::spirv::check(&words, options.target) {
                    save("spir-invalid", i, &bytes);
                    findings.push(format!("#{i}: invalid SPIR-V with success: {e}"));
                }
            }
            Err(e) => {
                refused += 1;
                if let Err(f) = words_only("SPIR reader", &e.to_string()) {
                    save("spir-debug-text", i, &bytes);
                    findings.push(format!("#{i}: {f}"));
                }
                let key = match &e.kind {
                    ErrorKind::Internal(m) => {
                        save("spir-internal", i, &bytes);
                        findings.push(format!("#{i}: {e}"));
                        format!("internal: {}", m.chars().take(60).collect::<String>())
                    }
                    ErrorKind::Malformed(m) => {
                        format!("malformed: {}", m.chars().take(48).collect::<String>())
                    }
                    other => format!("{}", other).chars().take(40).collect(),
                };
                *reasons.entry(key).or_default() += 1;
            }
        }
    }
    drop(dog);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "SPIR reader: {n} executions in {:.1} s: {ok} translated, {refused} refused",
        started.elapsed().as_secs_f64()
    );
    let mut top: Vec<_> = reasons.into_iter().collect();
    top.sort_by_key(|t| std::cmp::Reverse(t.1));
    for (r, c) in top.iter().take(12) {
        eprintln!("  {c:>8}  {r}");
    }
    assert!(
        findings.is_empty(),
        "{} findings:\n{}",
        findings.len(),
        findings.join("\n")
    );
}

/// Our SPIR-V for a sample of fixtures (every fourth), the SPIR-V reader's corpus, and the
/// same with untyped pointers (tests/common/untyped.rs) where they have pointers.
fn spirv_corpus() -> Vec<Vec<u32>> {
    let options = Options::default();
    let typed: Vec<Vec<u32>> = common::fixtures()
        .iter()
        .step_by(4)
        .map(|p| spir_xlate::internals::to_spirv(p, &options).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let untyped: Vec<Vec<u32>> = typed
        .iter()
        .filter_map(|w| common::untyped::untyped(w).ok())
        .collect();
    assert!(untyped.len() * 2 > typed.len(), "few untyped seeds");
    typed.into_iter().chain(untyped).collect()
}

#[test]
fn spirv_reader_and_writers_survive_mutated_spirv() {
    let corpus = spirv_corpus();
    let mut rng = Rng(seed() ^ 0xabcd);
    let n = execs();
    let started = Instant::now();
    let dog = Watchdog::start("spirv reader");
    let (mut read, mut findings) = (0u64, Vec::new());
    let flavors = [Flavor::Spir, Flavor::SpirvIr];
    for i in 0..n {
        let a = &corpus[rng.below(corpus.len())];
        let b = &corpus[rng.below(corpus.len())];
        let words = if rng.below(4) == 0 {
            // Byte-level damage too: a module whose length is no multiple of four, or whose
            // magic is wrong.
            let bytes = mutate_bytes(&mut rng, &common::spirv_bytes(a), &common::spirv_bytes(b));
            match spir_xlate::internals::spirv::words_from_bytes(&bytes) {
                Ok(w) => w,
                Err(_) => continue,
            }
        } else {
            mutate_words(&mut rng, a, b)
        };
        dog.tick(started);
        if i > 0 && i % 100_000 == 0 {
            eprintln!(
                "SPIR-V reader: {i} executions, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
        // An abort or a crash of the harness itself leaves the input that caused it here.
        save("spirv", u64::MAX, &common::spirv_bytes(&words));
        let outcome = catch_unwind(AssertUnwindSafe(|| -> Result<(), String> {
            let m = match spir_xlate::internals::spirv::read(&words) {
                Ok(m) => m,
                Err(e) => return words_only("SPIR-V reader", &e.to_string()),
            };
            // The reader accepts modules the validator rejects (other producers write them);
            // an internal error of a writer counts only for valid input (checked when one
            // happens; the validator runs contained, in a child process).
            let valid = || spir_xlate::internals::spirv::check_input(&words).is_ok();
            read += 1;
            for flavor in flavors {
                let opts = SpirOptions {
                    flavor,
                    ..Default::default()
                };
                if let Err(e) = spir_xlate::internals::spir::write(&m, &opts) {
                    words_only("to-spir", &e.to_string())?;
                    if matches!(e.kind, ErrorKind::Internal(_)) && valid() {
                        return Err(format!("to-spir {flavor:?}: {e}"));
                    }
                }
            }
            if let Err(e) = spir_xlate::internals::spirv::write(&m, &Options::default()) {
                words_only("SPIR-V writer", &e.to_string())?;
                if matches!(e.kind, ErrorKind::Internal(_)) && valid() {
                    return Err(format!("SPIR-V writer: {e}"));
                }
            }
            if let Err(e) = spir_xlate::internals::clc::write(&m) {
                words_only("OpenCL C writer", &e.to_string())?;
                if matches!(e.kind, ErrorKind::Internal(_)) && valid() {
                    return Err(format!("OpenCL C writer: {e}"));
                }
            }
            // The Vulkan lowering, in both pointer strategies.
            for vulkan_pointers in [VulkanPointers::Physical, VulkanPointers::Descriptors] {
                let opts = Options {
                    target: spir_xlate::TargetEnv::parse("vulkan1.2").expect("a target"),
                    vulkan_pointers,
                    ..Default::default()
                };
                if let Err(e) = spir_xlate::internals::write_spirv(&m, &opts) {
                    words_only("Vulkan", &e.to_string())?;
                    if matches!(e.kind, ErrorKind::Internal(_)) && valid() {
                        return Err(format!("Vulkan ({vulkan_pointers:?}): {e}"));
                    }
                }
            }
            Ok(())
        }));
        let finding = match outcome {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(e),
            Err(p) => Some(format!(
                "panic: {}",
                spir_xlate::internals::panic_message(p.as_ref())
            )),
        };
        if let Some(f) = finding {
            save("spirv", i, &common::spirv_bytes(&words));
            findings.push(format!("#{i}: {f}"));
        }
    }
    drop(dog);
    eprintln!(
        "SPIR-V reader: {n} executions in {:.1} s: {read} read and written both ways",
        started.elapsed().as_secs_f64()
    );
    assert!(
        findings.is_empty(),
        "{} findings:\n{}",
        findings.len(),
        findings.join("\n")
    );
}

/// The inputs kept in `dir`, each with the command that reads it: bitcode to `to-spirv`,
/// SPIR-V to `to-spir`.
fn findings(dir: &str) -> Vec<(std::path::PathBuf, &'static str)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            let cmd = match p.extension().and_then(|e| e.to_str()) {
                Some("bc") => "to-spirv",
                Some("spv") => "to-spir",
                _ => return None,
            };
            Some((p, cmd))
        })
        .collect();
    all.sort();
    all
}

/// `spir-xlate CMD INPUT -o OUT`: its exit code and stderr.
fn translate(cmd: &str, input: &Path, extra: &[&str], out: &Path) -> (Option<i32>, String) {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
        .arg(cmd)
        .arg(input)
        .args(extra)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    (
        run.status.code(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    )
}

/// Every input the fuzzer found something with (tests/regressions/fuzz/README.md) is now
/// answered: a valid translation, or exit 1 with an error that is not an internal one.
#[test]
fn every_fuzz_finding_is_answered() {
    let mut seen = 0;
    let out = std::env::temp_dir().join(format!("spir-xlate-finding-{}", std::process::id()));
    for (p, cmd) in findings("tests/regressions/fuzz") {
        seen += 1;
        let _ = std::fs::remove_file(&out);
        let (code, err) = translate(cmd, &p, &[], &out);
        match code {
            Some(0) if cmd == "to-spirv" => {
                let words = common::read_spirv(&out);
                spir_xlate::internals::spirv::check(&words, spir_xlate::TargetEnv::OpenCl21)
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            }
            code => answered(&p.display().to_string(), code, &err, &out),
        }
        // A SPIR-V finding on the other roads too: the reader takes modules the validator
        // rejects, and a writer's internal error on one is the module's fault.
        if cmd == "to-spir" {
            for (road, extra) in [
                ("to-spirv", &[][..]),
                ("to-spirv", &["--target", "vulkan1.2"][..]),
                ("to-opencl-c", &[][..]),
            ] {
                let _ = std::fs::remove_file(&out);
                let (code, err) = translate(road, &p, extra, &out);
                let what = format!("{} ({road} {extra:?})", p.display());
                answered(&what, code, &err, &out);
            }
        }
    }
    let _ = std::fs::remove_file(&out);
    assert!(seen >= 6, "only {seen} findings");
}

/// A refusal in words a user knows: no Rust debug text (issue 50).
fn words_only(what: &str, message: &str) -> Result<(), String> {
    match common::debug_text(message) {
        Some(piece) => Err(format!("{what}: Rust debug text ({piece}) in: {message}")),
        None => Ok(()),
    }
}

/// A translation (`what`) that ended with `code`, `err` and output `out` answered its input:
/// an output, or exit 1 with an error that is not an internal one and no output.
fn answered(what: &str, code: Option<i32>, err: &str, out: &Path) {
    match code {
        Some(0) => assert!(out.exists(), "{what}: no output"),
        Some(1) => {
            assert!(!err.contains("internal error"), "{what}: {err}");
            assert_eq!(words_only(what, err), Ok(()));
            assert!(!out.exists(), "{what}: output despite the error");
        }
        other => panic!("{what}: exit {other:?}: {err}"),
    }
}

/// Every input the fuzzer found an internal error of the Vulkan lowering with
/// (tests/regressions/fuzz-vulkan/README.md) is now answered under both pointer strategies.
#[test]
fn every_vulkan_fuzz_finding_is_answered() {
    let mut seen = 0;
    let out = std::env::temp_dir().join(format!("spir-xlate-vk-finding-{}", std::process::id()));
    for (p, _) in findings("tests/regressions/fuzz-vulkan") {
        seen += 1;
        for strategy in ["physical", "descriptors"] {
            let _ = std::fs::remove_file(&out);
            let (code, err) = translate(
                "to-spirv",
                &p,
                &["--target", "vulkan1.2", "--vulkan-pointers", strategy],
                &out,
            );
            answered(&format!("{} ({strategy})", p.display()), code, &err, &out);
        }
    }
    let _ = std::fs::remove_file(&out);
    assert!(seen >= 5, "only {seen} findings");
}

/// Findings still open (tests/regressions/open/README.md): contained all the same, with exit 1
/// and no output file.
#[test]
fn open_findings_are_contained() {
    let out = std::env::temp_dir().join(format!("spir-xlate-open-{}.spv", std::process::id()));
    let listed = std::fs::read_to_string("tests/regressions/open/README.md").unwrap();
    for (p, cmd) in findings("tests/regressions/open") {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name.split('.').next().unwrap();
        assert!(
            listed.contains(&format!("`{stem}")),
            "{name} is not in tests/regressions/open/README.md"
        );
        let (code, err) = translate(cmd, &p, &[], &out);
        assert_eq!(code, Some(1), "{}: {err}", p.display());
        assert!(err.starts_with("error: "), "{}: {err}", p.display());
        assert!(!out.exists(), "{}: output despite the error", p.display());
    }
}
