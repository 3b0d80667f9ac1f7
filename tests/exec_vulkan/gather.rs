//! Making the tier's jobs: for each source with `//@exec` lines, the reference outputs on
//! the Intel runtime, clspv's module of the source, and our module of each fixture shape
//! under each pointer strategy, translated, validated and checked against its reflection.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use super::known::DRIVER_CRASHES;
use super::{cl, clspv, common, compare, default_local, job, reflection, spec, vkhost};
use super::{STRATEGIES, VULKAN_1_3};
use compare::seed_of;

/// What one pointer strategy did to the fixtures.
#[derive(Default)]
pub struct Tally {
    pub fixtures: usize,
    pub translated: usize,
    pub refused: BTreeMap<String, Vec<String>>,
}

/// The jobs for vkhost, and what making them found.
pub struct Gathered {
    pub jobs: Vec<serde_json::Value>,
    /// One per entry of `STRATEGIES`.
    pub tallies: Vec<Tally>,
    /// Sources with `//@exec` lines.
    pub sources: usize,
    pub clspv_compiled: usize,
    pub clspv_refused: Vec<String>,
    pub failures: Vec<String>,
    /// (".file::kernel:", the reference's sub-group size) of the kernels that use sub-groups.
    pub reference_split: Vec<(String, usize)>,
}

impl Gathered {
    pub fn new() -> Self {
        Gathered {
            jobs: Vec::new(),
            tallies: STRATEGIES.iter().map(|_| Tally::default()).collect(),
            sources: 0,
            clspv_compiled: 0,
            clspv_refused: Vec::new(),
            failures: Vec::new(),
            reference_split: Vec::new(),
        }
    }

    /// Add the jobs of source `cl_path`, their modules written to `work`.
    pub fn source(&mut self, dev: &cl::Device, work: &Path, cl_path: &Path) {
        let name = cl_path.file_stem().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(cl_path).unwrap();
        let specs = spec::parse(&src).unwrap_or_else(|e| panic!("{}: {e}", cl_path.display()));
        if specs.is_empty() {
            return;
        }
        self.sources += 1;
        if DRIVER_CRASHES.contains(&name.as_str()) {
            eprintln!("{name}: no reference (the Intel driver cannot build its source)");
            return;
        }
        let references = match compare::References::build(dev, &src) {
            Ok(r) => r,
            Err(e) => {
                self.failures.push(format!("{name}: reference build: {e}"));
                return;
            }
        };
        // The reference outputs, once per spec, for every module of this source: the source
        // as written first, then as OpenCL also lets a device build it where that differs
        // (without contraction, `mad` fused).
        let expected: Vec<Expected> = specs
            .iter()
            .map(|s| {
                references
                    .all_expected(dev, s, seed_of(&s.kernel))
                    .map_err(|e| format!("{name}::{} reference: {e}", s.kernel))
            })
            .collect();
        // OpenCL leaves the sub-group size to the device: the size the reference splits each
        // work-group into, for every kernel of a source that uses sub-groups.
        if src.contains("sub_group") {
            for s in &specs {
                // The work-group the Vulkan run uses: where the spec names none, the
                // global size itself may exceed what a work-group may hold.
                let local = s.local.clone().unwrap_or_else(|| default_local(&s.global));
                match dev.sub_group_size(&references.plain, &s.kernel, &local) {
                    Ok(n) => self
                        .reference_split
                        .push((format!(".{name}::{}:", s.kernel), n)),
                    Err(e) => self.failures.push(format!("{name}::{}: {e}", s.kernel)),
                }
            }
        }
        // The peer: clspv's module of the same OpenCL C source.
        let clspv_id = format!("clspv.{name}");
        let clspv_spv = work.join(format!("{clspv_id}.spv"));
        match clspv::compile(cl_path, &clspv_spv).and_then(|()| {
            common::spirv_val_env(&clspv_spv, "vulkan1.1")
                .map_err(|e| format!("clspv's module is invalid: {e}"))
        }) {
            Ok(()) => {
                self.clspv_compiled += 1;
                self.jobs_of(work, &clspv_id, &specs, &expected);
            }
            Err(why) => self.clspv_refused.push(format!("{name}: {why}")),
        }
        let ours = Source {
            name: &name,
            specs: &specs,
            expected: &expected,
        };
        for (i, (strategy, prefix, _)) in STRATEGIES.iter().enumerate() {
            for dir in common::FIXTURE_DIRS {
                let fixture = Path::new(dir).join(format!("{name}.spir64.bc"));
                // The debug shapes hold a representative set of the kernels.
                if fixture.exists() {
                    let shape = dir.trim_start_matches("tests/fixtures/");
                    let id = format!("{prefix}{shape}.{name}");
                    self.translated(work, &ours, &fixture, &id, strategy, i);
                }
            }
        }
    }

    /// Translate `fixture` of `src` under pointer strategy `strategy` (`STRATEGIES[i]`) as
    /// module `id`, and add its jobs; a refusal is tallied by reason.
    fn translated(
        &mut self,
        work: &Path,
        src: &Source,
        fixture: &Path,
        id: &str,
        strategy: &str,
        i: usize,
    ) {
        self.tallies[i].fixtures += 1;
        let spv = work.join(format!("{id}.spv"));
        let json_path = work.join(format!("{id}.json"));
        let target = if VULKAN_1_3.contains(&src.name) {
            "vulkan1.3"
        } else {
            "vulkan1.2"
        };
        let out = Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
            .arg("to-spirv")
            .arg(fixture)
            .args(["--target", target, "--vulkan-pointers", strategy, "-o"])
            .arg(&spv)
            .arg("--reflection")
            .arg(&json_path)
            .output()
            .expect("run spir-xlate");
        if !out.status.success() {
            let why = String::from_utf8_lossy(&out.stderr);
            let why = why.lines().next().unwrap_or("").to_string();
            if why.contains("internal error") || out.status.code() != Some(1) {
                self.failures.push(format!("{id}: {why}"));
            }
            let reason = why
                .split("unsupported construct: ")
                .nth(1)
                .unwrap_or(&why)
                .to_string();
            self.tallies[i]
                .refused
                .entry(reason)
                .or_default()
                .push(id.to_string());
            return;
        }
        self.tallies[i].translated += 1;
        if let Err(e) = common::spirv_val_env(&spv, target) {
            self.failures.push(format!("{id}: spirv-val: {e}"));
        }
        if let Err(e) = reflection::agrees(&vkhost(), &spv, &json_path) {
            self.failures.push(format!("{id}: {e}"));
        }
        self.jobs_of(work, id, src.specs, src.expected);
    }

    /// Add module `id`'s job for each spec.
    fn jobs_of(&mut self, work: &Path, id: &str, specs: &[spec::ExecSpec], expected: &[Expected]) {
        for (s, e) in specs.iter().zip(expected) {
            match job(work, id, s, e) {
                Ok(j) => self.jobs.push(j),
                Err(e) => self.failures.push(e),
            }
        }
    }
}

/// A spec's reference outputs: as written first, then each other build OpenCL allows.
pub type Expected = Result<Vec<(compare::Matched, compare::Outputs)>, String>;

/// A source's name, specs and their reference outputs.
struct Source<'a> {
    name: &'a str,
    specs: &'a [spec::ExecSpec],
    expected: &'a [Expected],
}
