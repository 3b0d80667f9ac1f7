//! `migrate` as one worker among many: a stable share of a tree (`--shard K/N`), the skip of
//! inputs an earlier run translated from the same bytes with the same options (`--since`),
//! and the content key both rest on.
//!
//! A batch engine (a Slurm job array, a Kubernetes indexed job, GNU parallel, a build farm)
//! runs N workers over the same inputs, worker K taking share K/N: every file (module or not)
//! belongs to exactly one share, by a hash of its path, so the shares' reports together list
//! each file once and `report::merge` puts them back into the report one run would have
//! written.

use std::path::{Path, PathBuf};

use crate::diag::{Error, ErrorKind, Result};
use crate::hash::HashMap;

use super::{Batch, Job, SpirvFacts};

/// FNV-1a's usual starting value.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a of `bytes` from `seed`: stable across runs, machines and versions (unlike the
/// translator's hash maps, which are seeded per process).
fn fnv(seed: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(seed, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The name of a translation of `bytes` with options described by `options` (any stable
/// text, e.g. their `Debug` form): the translator's version, a hash of the options, two
/// independent 64-bit hashes of the bytes and their length. The OpenCL layer names its cache
/// entries so, and `migrate` records it per file in its report.
pub fn content_key(bytes: &[u8], options: &str) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let opts = fnv(FNV_OFFSET, options.as_bytes());
    let a = fnv(FNV_OFFSET, bytes);
    // A second hash of the bytes read backwards from another seed: independent of the first.
    let b = bytes.iter().rev().fold(0x8422_2325_cbf2_9ce4_u64, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x100_0000_01b3)
    });
    format!("{version}-{opts:016x}-{a:016x}{b:016x}-{}", bytes.len())
}

/// One share of a batch: `index` of `count` (0 ≤ index < count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which share, from 0.
    pub index: u32,
    /// How many shares the inputs are split into.
    pub count: u32,
}

impl Shard {
    /// `K/N` (0 ≤ K < N), as `--shard` takes it.
    pub fn parse(text: &str) -> std::result::Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("`{text}` is not K/N (e.g. 0/4: the first of four shares)"))?;
        let (Ok(index), Ok(count)) = (k.trim().parse::<u32>(), n.trim().parse::<u32>()) else {
            return Err(format!("`{text}` is not K/N with two whole numbers"));
        };
        if count == 0 || index >= count {
            return Err(format!(
                "share {index} of {count} does not exist (K counts from 0 to N-1)"
            ));
        }
        Ok(Shard { index, count })
    }

    /// Whether the file at `path` (as the walk named it) is in this share.
    pub fn takes(self, path: &Path) -> bool {
        let h = fnv(FNV_OFFSET, path.as_os_str().as_encoded_bytes());
        h % u64::from(self.count) == u64::from(self.index)
    }
}

/// What an earlier run translated: each output it wrote, with the content key of the input
/// it was written from (read from that run's `--report`).
#[derive(Debug, Default)]
pub struct EarlierRun {
    /// Each output it wrote: the content key it was written from, and the facts the report
    /// gave of it (kernels, SPIR-V version, capabilities, extensions, facts not kept), which
    /// an unchanged file's report repeats.
    outputs: HashMap<PathBuf, (String, Option<SpirvFacts>)>,
}

impl EarlierRun {
    /// The translated (and unchanged) files of the JSON report at `path`.
    pub fn read(path: &Path) -> Result<EarlierRun> {
        let label = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::new(ErrorKind::Io(crate::diag::io_words(&e))).in_file(&label))?;
        let bad = |why: &str| {
            Error::new(ErrorKind::Malformed(format!(
                "not a migrate report ({why})"
            )))
            .in_file(&label)
        };
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|_| bad("not JSON"))?;
        let files = json["files"]
            .as_array()
            .ok_or_else(|| bad("no \"files\" list"))?;
        let mut outputs = HashMap::default();
        for f in files {
            if let (Some(out), Some(key)) = (f["output"].as_str(), f["key"].as_str()) {
                outputs.insert(PathBuf::from(out), (key.to_string(), facts_of(f)));
            }
        }
        Ok(EarlierRun { outputs })
    }

    /// Whether the earlier run wrote `job`'s output from an input with key `key`.
    fn wrote(&self, job: &Job, key: &str) -> bool {
        self.outputs.get(&job.output).is_some_and(|(k, _)| k == key)
    }

    /// The facts the earlier report gave of the file it wrote at `output`.
    pub(super) fn facts(&self, output: &Path) -> Option<SpirvFacts> {
        self.outputs.get(output).and_then(|(_, f)| f.clone())
    }

    /// Whether the earlier run wrote the file at `output`.
    fn owns(&self, output: &Path) -> bool {
        self.outputs.contains_key(output)
    }
}

impl Batch {
    /// Keep only the files of `shard` (jobs, skipped and unreadable files alike).
    pub fn keep_shard(&mut self, shard: Shard) {
        self.jobs.retain(|j| shard.takes(&j.input));
        self.skipped.retain(|(p, _)| shard.takes(p));
        self.unreadable.retain(|(p, _)| shard.takes(p));
    }

    /// Move to `unchanged`, with its content key, each job whose output `earlier` wrote from
    /// the same bytes with the same options (`options`: their stable text) and still exists.
    /// An input that cannot be read stays a job (its translation reports why).
    pub fn skip_unchanged(&mut self, earlier: &EarlierRun, options: &str) {
        self.earlier_facts.clear();
        let mut kept = Vec::with_capacity(self.jobs.len());
        for job in std::mem::take(&mut self.jobs) {
            let key = std::fs::read(&job.input)
                .ok()
                .map(|bytes| content_key(&bytes, options));
            match key {
                Some(key) if earlier.wrote(&job, &key) && job.output.is_file() => {
                    if let Some(f) = earlier.facts(&job.output) {
                        self.earlier_facts.insert(job.output.clone(), f);
                    }
                    self.unchanged.push((job, key))
                }
                _ => kept.push(job),
            }
        }
        self.jobs = kept;
    }

    /// The outputs of this batch's jobs that exist already and that `earlier` (where given)
    /// did not write: what a run would overwrite that no earlier run of this tree made.
    pub fn existing_outputs(&self, earlier: Option<&EarlierRun>) -> Vec<&Path> {
        self.jobs
            .iter()
            .map(|j| j.output.as_path())
            .filter(|o| o.exists() && !earlier.is_some_and(|e| e.owns(o)))
            .collect()
    }
}

/// The facts a report's entry `f` gives of a translated file, where it gives them.
fn facts_of(f: &serde_json::Value) -> Option<SpirvFacts> {
    let strings = |k: &str| -> Option<Vec<String>> {
        f[k].as_array().map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
    };
    let (major, minor) = f["spirv_version"].as_str()?.split_once('.')?;
    Some(SpirvFacts {
        kernels: strings("kernels")?,
        version: (major.parse().ok()?, minor.parse().ok()?),
        capabilities: strings("capabilities")?,
        extensions: strings("extensions")?,
        lost: strings("lost")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_split_every_path_once() {
        let paths: Vec<PathBuf> = (0..200)
            .map(|i| PathBuf::from(format!("t/k{i}.bc")))
            .collect();
        let shards: Vec<Shard> = (0..4).map(|k| Shard { index: k, count: 4 }).collect();
        for p in &paths {
            assert_eq!(
                shards.iter().filter(|s| s.takes(p)).count(),
                1,
                "{}",
                p.display()
            );
        }
        // Each share gets some: the hash spreads the names.
        for s in &shards {
            assert!(paths.iter().filter(|p| s.takes(p)).count() > 20);
        }
    }

    #[test]
    fn shard_text_is_checked() {
        assert_eq!(Shard::parse("1/4"), Ok(Shard { index: 1, count: 4 }));
        assert!(Shard::parse("4/4").is_err());
        assert!(Shard::parse("0/0").is_err());
        assert!(Shard::parse("1").is_err());
        assert!(Shard::parse("a/b").is_err());
    }

    #[test]
    fn content_keys_change_with_bytes_and_options() {
        let k = content_key(b"BC\xc0\xde", "a");
        assert_eq!(k, content_key(b"BC\xc0\xde", "a"));
        assert_ne!(k, content_key(b"BC\xc0\xdf", "a"));
        assert_ne!(k, content_key(b"BC\xc0\xde", "b"));
        assert_ne!(content_key(b"ab", "a"), content_key(b"ba", "a"));
    }
}
