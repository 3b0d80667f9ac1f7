//! What vkhost's run of the tier's jobs says: each line judged (a match, a result within
//! OpenCL's bounds, clspv's loss, a driver's known fault, a sub-group split of the device's
//! own, or our failure), and the summary the tier prints.

use std::collections::BTreeSet;

use super::gather::Gathered;
use super::known::DRIVER_FAULTS;
use super::STRATEGIES;

/// vkhost's output, judged.
pub struct Outcome<'a> {
    stdout: &'a str,
    /// The device vkhost ran on.
    device: String,
    /// clspv's runs that differ or fail (its losses, never our failure).
    clspv_wrong: Vec<String>,
    /// Our runs that differ for a reason of the driver's own, with the reason.
    known: Vec<String>,
    /// Per strategy, the runs that match within OpenCL's bounds.
    within: Vec<Vec<String>>,
}

/// Whether vkhost's line `l` is about one of clspv's modules.
fn is_clspv(l: &str) -> bool {
    job_name(l).starts_with("clspv.")
}

/// The job a line of vkhost's is about (its second word).
fn job_name(l: &str) -> &str {
    l.split_whitespace().nth(1).unwrap_or("")
}

/// A job's strategy, by index into `STRATEGIES`, from its name's prefix ("" is physical).
fn strategy_of(name: &str) -> usize {
    STRATEGIES
        .iter()
        .rposition(|(_, p, _)| name.starts_with(p))
        .unwrap_or(0)
}

/// Whether job `name` is ours under strategy `i`.
fn ours(name: &str, i: usize) -> bool {
    !name.starts_with("clspv.") && strategy_of(name) == i
}

impl<'a> Outcome<'a> {
    /// Judge vkhost's output `stdout` on the jobs of `g`; our failures go to `failures`.
    pub fn judge(stdout: &'a str, g: &Gathered, failures: &mut Vec<String>) -> Self {
        let device = stdout
            .lines()
            .find_map(|l| l.strip_prefix("device: "))
            .unwrap_or("(no device)")
            .to_string();
        let device_split: Option<usize> = stdout
            .lines()
            .find_map(|l| l.strip_prefix("subgroup size: "))
            .and_then(|n| n.trim().parse().ok());
        let mut o = Outcome {
            stdout,
            device,
            clspv_wrong: Vec::new(),
            known: Vec::new(),
            within: vec![Vec::new(); STRATEGIES.len()],
        };
        for l in stdout.lines() {
            let wrong = l.starts_with("DIFFERS ") || l.starts_with("FAILED ");
            if wrong && is_clspv(l) {
                o.clspv_wrong.push(l.to_string());
            } else if let Some(rest) = l.strip_prefix("WITHIN ").filter(|_| !is_clspv(l)) {
                let name = job_name(l).trim_end_matches(':');
                o.within[strategy_of(name)].push(rest.to_string());
            } else if wrong {
                match o.excuse(l, g, device_split) {
                    Some(why) => o.known.push(format!("{l} {why}")),
                    None => failures.push(l.to_string()),
                }
            }
        }
        o
    }

    /// Why our differing run `l` is not our fault, if it is not.
    fn excuse(&self, l: &str, g: &Gathered, device_split: Option<usize>) -> Option<String> {
        // Results over sub-groups compare only where both split a work-group alike.
        let split = g
            .reference_split
            .iter()
            .find(|(k, n)| l.contains(k.as_str()) && Some(*n) != device_split)
            .filter(|_| l.starts_with("DIFFERS ") && !l.contains(".printed differs"));
        if let Some((_, n)) = split {
            return Some(format!(
                "(not a fault: OpenCL leaves the sub-group size to the device; the reference \
                 splits a work-group into sub-groups of {n}, this device into sub-groups of \
                 {}, and the reductions and scans over a sub-group differ with the split)",
                device_split.map_or("?".to_string(), |d| d.to_string())
            ));
        }
        DRIVER_FAULTS
            .iter()
            .find(|(k, dev, _)| self.device.contains(dev) && l.contains(&format!(".{k}::")))
            .filter(|_| !l.contains(".printed differs"))
            .map(|(_, _, why)| format!("(known: {why})"))
    }

    /// The names of the kernel files with a matching run of a module whose name starts with
    /// `prefix`.
    fn ok_files(&self, prefix: &str) -> BTreeSet<String> {
        self.stdout
            .lines()
            .filter_map(|l| l.strip_prefix("ok "))
            .filter_map(|n| n.strip_prefix(prefix))
            .map(|n| n.split("::").next().unwrap_or(n).to_string())
            .collect()
    }

    /// Print the tier's summary; the bit-identical runs of each strategy.
    pub fn report(&self, g: &Gathered) -> Vec<usize> {
        eprintln!("Vulkan ({}), --target vulkan1.2:", self.device);
        let mut matched = Vec::new();
        for (i, ((strategy, _, _), t)) in STRATEGIES.iter().zip(&g.tallies).enumerate() {
            let runs = g
                .jobs
                .iter()
                .filter(|j| j["name"].as_str().is_some_and(|n| ours(n, i)))
                .count();
            let ok_lines = || {
                self.stdout
                    .lines()
                    .filter(move |l| l.starts_with("ok ") && ours(job_name(l), i))
            };
            let ok = ok_lines().count();
            let as_allowed = ok_lines().filter(|l| l.ends_with(')')).count();
            matched.push(ok);
            eprintln!(
                "  ours, --vulkan-pointers {strategy}: {} of {} fixtures translated and valid; \
                 {ok} of {runs} runs bit-identical to the OpenCL C source on the Intel runtime \
                 ({as_allowed} of them to it built without contraction or with mad fused), {} \
                 within the precision OpenCL allows there (WITHIN's bounds)",
                t.translated,
                t.fixtures,
                self.within[i].len()
            );
            for w in &self.within[i] {
                eprintln!("    {w}");
            }
        }
        self.report_clspv(g);
        if !self.known.is_empty() {
            eprintln!(
                "  the driver's own faults ({}):\n    {}",
                self.known.len(),
                self.known.join("\n    ")
            );
        }
        for ((strategy, _, _), t) in STRATEGIES.iter().zip(&g.tallies) {
            eprintln!(
                "  refused under {strategy}, by reason ({} fixtures):",
                t.fixtures - t.translated
            );
            for (why, ids) in &t.refused {
                eprintln!("    {} × {why}", ids.len());
            }
        }
        matched
    }

    /// The peer's figures, and the kernels one producer runs right and the other does not.
    fn report_clspv(&self, g: &Gathered) {
        let clspv_matched = self
            .stdout
            .lines()
            .filter(|l| l.starts_with("ok ") && is_clspv(l))
            .count();
        let clspv_runs = g
            .jobs
            .iter()
            .filter(|j| j["name"].as_str().is_some_and(|n| n.starts_with("clspv.")))
            .count();
        eprintln!(
            "  clspv (pyclspv, default options, from the OpenCL C source): {} of {} sources \
             compiled and valid; {clspv_matched} of {clspv_runs} runs bit-identical",
            g.clspv_compiled, g.sources
        );
        // Gaps: kernels clspv runs right from their source that we do not run from the
        // fixture clang -O2 made of it.
        let (theirs, ours) = (self.ok_files("clspv."), self.ok_files("modern."));
        let gaps: Vec<&String> = theirs.difference(&ours).collect();
        let beyond: Vec<&String> = ours.difference(&theirs).collect();
        eprintln!(
            "  kernels clspv runs right and we do not ({}): {gaps:?}\n  kernels we run right \
             and clspv does not ({}): {beyond:?}",
            gaps.len(),
            beyond.len()
        );
        if !self.clspv_wrong.is_empty() {
            eprintln!(
                "  clspv's wrong runs:\n    {}",
                self.clspv_wrong.join("\n    ")
            );
        }
        if !g.clspv_refused.is_empty() {
            eprintln!("  clspv refused:\n    {}", g.clspv_refused.join("\n    "));
        }
    }
}
