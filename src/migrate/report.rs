//! What a batch reports: each file's [`Status`] and [`FileReport`], the facts of its SPIR-V
//! side ([`SpirvFacts`], which cross the worker's pipe), and the report as JSON and as one
//! summary line.

use std::path::PathBuf;

use serde_json::Value;

use crate::diag::ErrorKind;

use super::Direction;

/// What became of one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Translated and written.
    Ok,
    /// A construct the translator does not handle, or a resource limit: named in the message.
    Refused,
    /// The input is not a well-formed module.
    InvalidInput,
    /// The output could not be written.
    OutputError,
    /// A bug of ours.
    InternalError,
    /// Not translated again: an earlier run wrote its output from the same bytes with the
    /// same options (`--since`).
    Unchanged,
}

impl Status {
    /// The status as the report writes it (`ok`, `refused`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Unchanged => "unchanged",
            Status::Refused => "refused",
            Status::InvalidInput => "invalid input",
            Status::OutputError => "output error",
            Status::InternalError => "internal error",
        }
    }

    /// Whether the file's output is there as it should be: translated now, or unchanged since
    /// an earlier run.
    pub fn is_ok(self) -> bool {
        matches!(self, Status::Ok | Status::Unchanged)
    }

    pub(super) fn of(e: &ErrorKind) -> Status {
        match e {
            ErrorKind::Io(_) | ErrorKind::Malformed(_) => Status::InvalidInput,
            ErrorKind::Unsupported(_)
            | ErrorKind::UnknownBuiltin { .. }
            | ErrorKind::VersionTooLow { .. }
            | ErrorKind::Limit(_) => Status::Refused,
            ErrorKind::Output(_) => Status::OutputError,
            ErrorKind::RoundTripDiffers(_) | ErrorKind::Internal(_) => Status::InternalError,
        }
    }
}

/// The outcome of one file.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The input file.
    pub input: PathBuf,
    /// Its output (written only when `status` is ok).
    pub output: PathBuf,
    /// How its translation ended.
    pub status: Status,
    /// The error, for a file that was not translated.
    pub message: Option<String>,
    /// Facts of the SPIR-V side (the output, or in reverse the input), for a translated file.
    pub facts: Option<SpirvFacts>,
    /// The content key of the input and options it was translated from ([`super::content_key`]),
    /// for a translated or unchanged file: what a later `--since` compares.
    pub key: Option<String>,
    /// Wall time of its translation.
    pub seconds: f64,
}

/// What a SPIR-V module declares: its entry points, version, capabilities and extensions;
/// and what the translation did not keep of its input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpirvFacts {
    /// The entry points' names.
    pub kernels: Vec<String>,
    /// The module's SPIR-V version (major, minor).
    pub version: (u8, u8),
    /// Its capabilities, by name.
    pub capabilities: Vec<String>,
    /// Its extensions, by name.
    pub extensions: Vec<String>,
    /// Facts of the input the output does not keep (`diag::Lost`, as text).
    pub lost: Vec<String>,
}

impl SpirvFacts {
    /// Read from a module's words (which the translator has validated).
    pub fn of(words: &[u32]) -> SpirvFacts {
        let mut facts = SpirvFacts {
            version: words
                .get(1)
                .map_or((0, 0), |v| ((v >> 16) as u8, (v >> 8) as u8)),
            ..Default::default()
        };
        let mut i = 5;
        while i < words.len() {
            let (count, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
            let Some(operands) = words.get(i + 1..i + count.max(1)) else {
                break;
            };
            match spirv::Op::from_u32(op) {
                Some(spirv::Op::Capability) => {
                    if let Some(c) = operands
                        .first()
                        .and_then(|&c| spirv::Capability::from_u32(c))
                    {
                        facts.capabilities.push(format!("{c:?}"));
                    }
                }
                Some(spirv::Op::Extension) => facts.extensions.push(string(operands)),
                Some(spirv::Op::EntryPoint) => {
                    facts.kernels.push(string(operands.get(2..).unwrap_or(&[])))
                }
                // Function bodies hold none of these.
                Some(spirv::Op::Function) => break,
                _ => {}
            }
            i += count.max(1);
        }
        facts
    }
}

/// A SPIR-V literal string.
fn string(words: &[u32]) -> String {
    let bytes: Vec<u8> = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

impl crate::contain::Wire for SpirvFacts {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend([self.version.0, self.version.1]);
        for list in [
            &self.kernels,
            &self.capabilities,
            &self.extensions,
            &self.lost,
        ] {
            out.extend((list.len() as u64).to_le_bytes());
            for s in list {
                out.extend((s.len() as u64).to_le_bytes());
                out.extend(s.as_bytes());
            }
        }
    }

    fn decode(bytes: &[u8]) -> Option<Self> {
        fn take<'b>(bytes: &mut &'b [u8], n: usize) -> Option<&'b [u8]> {
            let (head, rest) = (bytes.get(..n)?, bytes.get(n..)?);
            *bytes = rest;
            Some(head)
        }
        fn count(bytes: &mut &[u8]) -> Option<usize> {
            usize::try_from(u64::from_le_bytes(take(bytes, 8)?.try_into().ok()?)).ok()
        }
        let mut b = bytes;
        let v = take(&mut b, 2)?;
        let mut lists: [Vec<String>; 4] = Default::default();
        for list in &mut lists {
            for _ in 0..count(&mut b)? {
                let n = count(&mut b)?;
                list.push(String::from_utf8(take(&mut b, n)?.to_vec()).ok()?);
            }
        }
        let [kernels, capabilities, extensions, lost] = lists;
        b.is_empty().then_some(SpirvFacts {
            kernels,
            version: (v[0], v[1]),
            capabilities,
            extensions,
            lost,
        })
    }
}

/// The batch's reports as JSON: `{"files": [...], "summary": {...}}`, one object per file in
/// the order of the inputs' paths (input, status, output, key, message, kernels,
/// spirv_version, capabilities, extensions, lost: the facts of the input the output does not
/// keep, seconds; a skipped file with the reason), and the summary's counts of each status.
pub fn report_json(reports: &[FileReport], skipped: &[(PathBuf, String)]) -> String {
    use serde_json::json;
    let mut files: Vec<Value> = reports
        .iter()
        .map(|r| {
            let mut o = json!({
                "input": r.input.display().to_string(),
                "status": r.status.as_str(),
                "seconds": r.seconds,
            });
            if r.status.is_ok() {
                o["output"] = json!(r.output.display().to_string());
            }
            if let Some(k) = &r.key {
                o["key"] = json!(k);
            }
            if let Some(m) = &r.message {
                o["message"] = json!(m);
            }
            if let Some(f) = &r.facts {
                o["kernels"] = json!(f.kernels);
                o["spirv_version"] = json!(format!("{}.{}", f.version.0, f.version.1));
                o["capabilities"] = json!(f.capabilities);
                o["extensions"] = json!(f.extensions);
                o["lost"] = json!(f.lost);
            }
            o
        })
        .collect();
    // Files of the input trees that are not modules of the run's direction, with what they are.
    files.extend(skipped.iter().map(|(p, why)| {
        json!({
            "input": p.display().to_string(),
            "status": "skipped",
            "reason": why,
        })
    }));
    finish(files)
}

/// The report of several runs' reports (the shares of one tree, `--shard`): their files in the
/// order one run would list them, each once, and the summary counted again. `reports` are the
/// JSON texts, each with the name it is known by (for errors).
pub fn merge_reports(reports: &[(String, String)]) -> crate::diag::Result<String> {
    use crate::diag::Error;
    let mut files: Vec<Value> = Vec::new();
    let mut seen = crate::hash::HashSet::default();
    for (name, text) in reports {
        let bad = |why: &str| {
            Error::new(ErrorKind::Malformed(format!(
                "not a migrate report ({why})"
            )))
            .in_file(name)
        };
        let json: Value = serde_json::from_str(text).map_err(|_| bad("not JSON"))?;
        let list = json["files"]
            .as_array()
            .ok_or_else(|| bad("no \"files\" list"))?;
        for f in list {
            let input = f["input"]
                .as_str()
                .ok_or_else(|| bad("a file without its input"))?;
            // A file two shares both list (reports of overlapping runs): the first one's.
            if seen.insert(input.to_string()) {
                files.push(f.clone());
            }
        }
    }
    Ok(finish(files))
}

/// The report of `files`: sorted by input path (component by component, as the walk finds
/// them), with the summary counted from them.
fn finish(mut files: Vec<Value>) -> String {
    use serde_json::json;
    let path = |f: &Value| PathBuf::from(f["input"].as_str().unwrap_or_default());
    files.sort_by_cached_key(path);
    let count = |s: &str| files.iter().filter(|f| f["status"] == s).count();
    let lossy = files
        .iter()
        .filter(|f| f["lost"].as_array().is_some_and(|l| !l.is_empty()))
        .count();
    let summary = json!({
        "files": files.iter().filter(|f| f["status"] != "skipped").count(),
        "ok": count("ok"),
        "unchanged": count("unchanged"),
        "refused": count("refused"),
        "invalid input": count("invalid input"),
        "output error": count("output error"),
        "internal error": count("internal error"),
        "skipped": count("skipped"),
        "with facts not kept": lossy,
    });
    let mut text = serde_json::to_string_pretty(&json!({ "files": files, "summary": summary }))
        .expect("JSON values serialize");
    text.push('\n');
    text
}

/// How many translated files did not keep every fact of their input.
fn with_losses(reports: &[FileReport]) -> usize {
    reports
        .iter()
        .filter(|r| r.facts.as_ref().is_some_and(|f| !f.lost.is_empty()))
        .count()
}

/// One line: how many files, how each ended, how long it took.
pub fn summary_line(
    reports: &[FileReport],
    skipped: &[(PathBuf, String)],
    direction: Direction,
    seconds: f64,
) -> String {
    let mut parts = Vec::new();
    for s in [
        Status::Ok,
        Status::Unchanged,
        Status::Refused,
        Status::InvalidInput,
        Status::OutputError,
        Status::InternalError,
    ] {
        let n = reports.iter().filter(|r| r.status == s).count();
        if n > 0 || s == Status::Ok {
            let what = if s == Status::Ok {
                "translated"
            } else {
                s.as_str()
            };
            parts.push(format!("{n} {what}"));
        }
    }
    let mut line = format!(
        "migrate: {} files: {} in {seconds:.1} s",
        reports.len(),
        parts.join(", ")
    );
    let lossy = with_losses(reports);
    if lossy > 0 {
        line.push_str(&format!(
            ", {lossy} of them with facts not kept (listed under \"lost\" in --report)"
        ));
    }
    if !skipped.is_empty() {
        let skipped = skipped.len();
        let what = match direction {
            Direction::ToSpirv => "LLVM bitcode",
            Direction::ToSpir => "SPIR-V",
        };
        let files = if skipped == 1 { "file" } else { "files" };
        line.push_str(&format!(" ({skipped} {files} skipped: not {what})"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_cross_the_pipe() {
        use crate::contain::Wire;
        let facts = SpirvFacts {
            kernels: vec!["k".into(), "ké".into()],
            version: (1, 2),
            capabilities: vec!["Kernel".into()],
            extensions: vec![],
            lost: vec!["debug information: not translated".into()],
        };
        let mut bytes = Vec::new();
        facts.encode(&mut bytes);
        assert_eq!(SpirvFacts::decode(&bytes), Some(facts));
        assert_eq!(SpirvFacts::decode(&bytes[..bytes.len() - 1]), None);
    }
}
