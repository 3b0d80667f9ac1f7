//! The vendored dependencies (vendor/README.md) are what their patches say: every line a hunk of
//! `vendor/patches/NAME.patch` adds or keeps is at its place in `vendor/NAME`, so the patch
//! describes the copy that is built, and regenerating it after a change is not forgotten.

use std::path::Path;

/// One file's hunks in a unified diff: the new file's path and, per hunk, its first line
/// (1-based) and the lines it keeps or adds.
struct FilePatch {
    path: String,
    hunks: Vec<(usize, Vec<String>)>,
}

fn parse(patch: &str) -> Vec<FilePatch> {
    let mut files: Vec<FilePatch> = Vec::new();
    for line in patch.lines() {
        if let Some(path) = line.strip_prefix("+++ b/") {
            files.push(FilePatch {
                path: path.to_string(),
                hunks: Vec::new(),
            });
        } else if let Some(range) = line.strip_prefix("@@ -") {
            // `@@ -a,b +c,d @@`: the new side starts at line c.
            let new = range.split(' ').nth(1).expect("a hunk's new range");
            let start = new.trim_start_matches('+').split(',').next().unwrap();
            let file = files.last_mut().expect("a hunk after its file header");
            file.hunks
                .push((start.parse().expect("a line number"), Vec::new()));
        } else if line.starts_with("diff ") || line.starts_with("--- ") {
            continue;
        } else if let Some(hunk) = files.last_mut().and_then(|f| f.hunks.last_mut()) {
            if let Some(kept) = line.strip_prefix(' ').or_else(|| line.strip_prefix('+')) {
                hunk.1.push(kept.to_string());
            } else if line.is_empty() {
                // A kept empty line, its leading space trimmed by an editor.
                hunk.1.push(String::new());
            }
        }
    }
    files
}

fn check(name: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("vendor");
    let patch = std::fs::read_to_string(root.join(format!("patches/{name}.patch")))
        .expect("the patch file");
    let files = parse(&patch);
    assert!(!files.is_empty(), "{name}.patch changes no file");
    for file in files {
        let path = root.join(name).join(&file.path);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let lines: Vec<&str> = text.lines().collect();
        for (start, hunk) in &file.hunks {
            let at = start.saturating_sub(1);
            let found = lines.get(at..at + hunk.len());
            assert!(
                found.is_some_and(|found| found.iter().zip(hunk).all(|(a, b)| a == b)),
                "vendor/{name}/{}: the hunk at line {start} of {name}.patch is not what the \
                 file holds; regenerate the patch (vendor/README.md)",
                file.path
            );
        }
    }
}

#[test]
fn the_spirv_tools_patch_describes_its_copy() {
    check("spirv-tools-sys");
}

#[test]
fn the_llvm_ir_patch_describes_its_copy() {
    check("llvm-ir");
}
