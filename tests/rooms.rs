//! The library's rooms and the edges between them (docs/architecture.md, "Rooms"): each
//! top-level module of `src/` may name only the rooms listed for it here, so that no lower
//! room reaches a higher one and no two rooms import each other. A new edge is a decision:
//! add it here, with the architecture page, or move the code.
//!
//! The check reads the sources: every `crate::<room>` path outside comments and outside
//! `#[cfg(test)] mod tests` (a room's unit tests may build their input with the whole
//! library).

use std::collections::BTreeSet;
use std::path::Path;

/// Each room and the rooms it may name, lowest first. `spv::form` is the one part of the
/// SPIR-V room the SPIR room may use (SPIR-V's operand layouts, which the SPIR-V friendly
/// LLVM IR spells too).
const ROOMS: &[(&str, &[&str])] = &[
    ("diag", &[]),
    ("hash", &[]),
    ("input", &["diag"]),
    ("options", &[]),
    ("output", &[]),
    ("settings", &["options"]),
    ("llvm", &[]),
    ("ir", &["diag", "hash"]),
    ("mappings", &["ir"]),
    ("contain", &["diag", "options"]),
    ("verify", &["hash", "ir", "mappings"]),
    ("normal", &["hash", "ir"]),
    ("structurize", &["diag", "hash", "ir"]),
    (
        "spv",
        &[
            "contain", "diag", "hash", "ir", "mappings", "normal", "options", "verify",
        ],
    ),
    (
        "spir",
        &[
            "contain",
            "diag",
            "hash",
            "input",
            "ir",
            "llvm",
            "mappings",
            "normal",
            "options",
            "spv::form",
            "verify",
        ],
    ),
    (
        "vulkan",
        &[
            "diag",
            "hash",
            "ir",
            "mappings",
            "options",
            "structurize",
            "verify",
        ],
    ),
    (
        "clc",
        &[
            "diag",
            "hash",
            "ir",
            "mappings",
            "spir::groups",
            "spir::demangle",
            "spir::opencl_names",
        ],
    ),
    (
        "pipeline",
        &[
            "clc", "contain", "diag", "input", "ir", "options", "spir", "spv", "vulkan",
        ],
    ),
    (
        "roundtrip",
        &["diag", "input", "ir", "options", "pipeline", "spir", "spv"],
    ),
    (
        "inspect",
        &[
            "diag",
            "input",
            "ir",
            "options",
            "pipeline",
            "roundtrip",
            "spv",
        ],
    ),
    (
        "migrate",
        &["contain", "diag", "hash", "input", "output", "pipeline"],
    ),
];

/// The source without line comments and without its unit-test module.
fn code(text: &str) -> String {
    let body = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    body.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::a::b` path of `code` as `(a, a::b)`, including the items of
/// `use crate::{a, b::c}`.
fn paths(code: &str) -> Vec<(String, String)> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    let mut push = |rest: &str| {
        let first = ident(rest);
        let second = rest
            .strip_prefix(&first)
            .and_then(|r| r.strip_prefix("::"))
            .map(ident)
            .unwrap_or_default();
        out.push((first.clone(), format!("{first}::{second}")));
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(list) = rest.strip_prefix('{') {
            let list = &list[..list.find("};").unwrap_or(list.len())];
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in list.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        push(list[start..i].trim());
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            push(list[start..].trim());
        } else {
            push(rest);
        }
    }
    out
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_room_names_only_the_rooms_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rooms: BTreeSet<&str> = ROOMS.iter().map(|r| r.0).collect();
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for path in &all {
        let rel = path.strip_prefix(&src).unwrap();
        let room = rel
            .iter()
            .next()
            .unwrap()
            .to_str()
            .unwrap()
            .trim_end_matches(".rs");
        if !rooms.contains(room) {
            // lib.rs, internals.rs and the command line (bin/) stand above every room.
            assert!(
                ["lib", "bin", "internals"].contains(&room),
                "{}: a room this test does not list",
                rel.display()
            );
            continue;
        }
        let allowed = ROOMS.iter().find(|r| r.0 == room).unwrap().1;
        for (target, item) in paths(&code(&std::fs::read_to_string(path).unwrap())) {
            if target == room || !rooms.contains(target.as_str()) {
                continue;
            }
            seen.insert((room, target.clone()));
            if !allowed.contains(&target.as_str()) && !allowed.contains(&item.as_str()) {
                wrong.push(format!("{}: names {item}", rel.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "edges against the rooms' order:\n{}",
        wrong.join("\n")
    );
    // The table lists no edge the code does not have (so it stays an accurate map).
    let unused: Vec<String> = ROOMS
        .iter()
        .flat_map(|(room, allowed)| {
            allowed
                .iter()
                .filter(|a| !seen.contains(&(*room, a.split("::").next().unwrap().to_string())))
                .map(move |a| format!("{room} -> {a}"))
        })
        .collect();
    assert!(unused.is_empty(), "edges listed but not used: {unused:?}");
}

/// LLVM's C API is called from `src/llvm/` only (issue 33, item 5): no other file of the
/// crate names `llvm_sys`, and the readers and writers of SPIR hold no `unsafe` of their own.
#[test]
fn llvm_is_called_from_its_room() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut callers = BTreeSet::new();
    let mut unsafe_in_spir = BTreeSet::new();
    for path in &all {
        let rel = path
            .strip_prefix(&src)
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let text = std::fs::read_to_string(path).unwrap();
        if !rel.starts_with("llvm/") && text.contains("llvm_sys") {
            callers.insert(rel.clone());
        }
        if rel.starts_with("spir/") && text.contains("unsafe") {
            unsafe_in_spir.insert(rel);
        }
    }
    assert!(
        callers.is_empty(),
        "files that name llvm_sys outside src/llvm/: {callers:?}"
    );
    assert!(
        unsafe_in_spir.is_empty(),
        "files of src/spir/ with unsafe code: {unsafe_in_spir:?}"
    );
}

#[test]
fn relative_paths_to_child_modules_are_edges() {
    let modules: BTreeSet<String> = ["v::kernel", "v::kernel::args", "v::local_region"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let edges = file_edges(
        "v::kernel",
        "use args::{Arg, lower};\nx = args::f();",
        &modules,
    );
    assert_eq!(edges, BTreeSet::from(["v::kernel::args".to_string()]));
    // Not a child: another crate's path, or a path through one.
    assert!(file_edges("v::kernel", "use std::args::X; a::args::f()", &modules).is_empty());
}

#[test]
fn the_path_scanner_sees_lists_and_plain_paths() {
    let found =
        paths("use crate::{ir::{self, Type}, diag::Result};\nlet x = crate::spv::form::f();");
    let rooms: Vec<&str> = found.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(rooms, ["ir", "diag", "spv"]);
    assert_eq!(found[2].1, "spv::form");
    assert_eq!(
        code("a // crate::x\n#[cfg(test)]\nmod tests { crate::y }"),
        "a "
    );
}

/// The circles of files that import each other inside a room which docs/architecture.md
/// ("Rooms") explains: the graph's definition files.
/// Any other circle (or a known one grown) fails.
const KNOWN_CIRCLES: &[&[&str]] = &[&[
    "ir::constant",
    "ir::debug",
    "ir::function",
    "ir::interface",
    "ir::kernel",
    "ir::module",
    "ir::types",
]];

/// The module paths (`room::a::b`) a file's `super::`, `self::` and `crate::` paths name,
/// and its paths relative to itself (`args::lower`, `use args::Arg` for a child module
/// `args`), each cut to the longest prefix that is a module of `modules`.
fn file_edges(module: &str, code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = absolute_edges(module, code, modules);
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    for (at, _) in code.match_indices("::") {
        let before = &code[..at];
        let start = before.trim_end_matches(is_ident).len();
        let first = &before[start..];
        if first.is_empty()
            || before[..start].ends_with(|c: char| is_ident(c) || c == ':')
            || ["crate", "self", "super", "Self"].contains(&first)
        {
            continue;
        }
        let child = format!("{module}::{first}");
        if modules.contains(&child) {
            // The longest module the path names below the child.
            let path: String = code[at..]
                .chars()
                .take_while(|&c| is_ident(c) || c == ':')
                .collect();
            let mut best = child.clone();
            let mut full = child;
            for part in path.split("::").filter(|p| !p.is_empty()) {
                full = format!("{full}::{part}");
                if modules.contains(&full) {
                    best = full.clone();
                }
            }
            out.insert(best);
        }
    }
    out
}

/// [`file_edges`] of the paths that start at `super::`, `self::` or `crate::`.
fn absolute_edges(module: &str, code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect()
    };
    let mut out = BTreeSet::new();
    let parent: Vec<&str> = module.split("::").collect();
    for start in ["super::", "self::", "crate::"] {
        for (at, _) in code.match_indices(start) {
            if at > 0 && code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
            {
                continue;
            }
            let path = ident(&code[at..]);
            let mut parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
            let mut base: Vec<&str> = match parts[0] {
                "crate" => {
                    parts.remove(0);
                    Vec::new()
                }
                "self" => {
                    parts.remove(0);
                    parent.clone()
                }
                _ => {
                    let mut b = parent[..parent.len() - 1].to_vec();
                    while parts.first() == Some(&"super") {
                        parts.remove(0);
                        if parts.first() == Some(&"super") {
                            b.pop();
                        }
                    }
                    b
                }
            };
            // `use super::{a, b::c}`: each item of the list.
            let rest = &code[at + path.len()..];
            let mut tails: Vec<Vec<&str>> = vec![Vec::new()];
            if let Some(list) = rest.strip_prefix('{') {
                let list = &list[..list.find('}').unwrap_or(list.len())];
                tails = list
                    .split(',')
                    .map(|i| i.trim().split("::").filter(|p| !p.is_empty()).collect())
                    .collect();
            }
            base.extend(parts);
            for tail in tails {
                let mut full = base.clone();
                full.extend(tail);
                for k in (1..=full.len()).rev() {
                    let m = full[..k].join("::");
                    if modules.contains(&m) {
                        if m != module && !module.starts_with(&format!("{m}::")) {
                            out.insert(m);
                        }
                        break;
                    }
                }
            }
        }
    }
    out
}

/// Tarjan's strongly connected components of more than one node.
fn circles(edges: &std::collections::BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a std::collections::BTreeMap<String, BTreeSet<String>>,
        index: std::collections::HashMap<&'a str, (usize, usize)>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, (i, i));
        t.stack.push(v);
        t.on.insert(v);
        for w in t.edges[v].iter().filter(|w| t.edges.contains_key(*w)) {
            if !t.index.contains_key(w.as_str()) {
                visit(t, w);
                let low = t.index[w.as_str()].1.min(t.index[v].1);
                t.index.get_mut(v).unwrap().1 = low;
            } else if t.on.contains(w.as_str()) {
                let low = t.index[w.as_str()].0.min(t.index[v].1);
                t.index.get_mut(v).unwrap().1 = low;
            }
        }
        if t.index[v].0 == t.index[v].1 {
            let mut c = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on.remove(w);
                c.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if c.len() > 1 {
                c.sort();
                t.out.push(c);
            }
        }
    }
    let mut t = T {
        edges,
        index: Default::default(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn no_circle_of_files_inside_a_room_but_the_known_ones() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let module_of = |p: &Path| -> String {
        let rel = p.strip_prefix(&src).unwrap().with_extension("");
        let s = rel.to_str().unwrap().replace('/', "::");
        s.strip_suffix("::mod").unwrap_or(&s).to_string()
    };
    let modules: BTreeSet<String> = all.iter().map(|p| module_of(p)).collect();
    let mut edges = std::collections::BTreeMap::new();
    for p in &all {
        let m = module_of(p);
        let room = m.split("::").next().unwrap().to_string();
        let named = file_edges(&m, &code(&std::fs::read_to_string(p).unwrap()), &modules);
        let inside: BTreeSet<String> = named
            .into_iter()
            .filter(|t| t.split("::").next() == Some(room.as_str()) && t != &room)
            .collect();
        edges.insert(m, inside);
    }
    let found = circles(&edges);
    let known: Vec<Vec<String>> = KNOWN_CIRCLES
        .iter()
        .map(|c| c.iter().map(|s| s.to_string()).collect())
        .collect();
    let unknown: Vec<&Vec<String>> = found.iter().filter(|c| !known.contains(c)).collect();
    assert!(
        unknown.is_empty(),
        "circles of files inside a room: {unknown:?}"
    );
    // Each known circle still there (the scanner works, and the list keeps no stale entry).
    let gone: Vec<&Vec<String>> = known.iter().filter(|c| !found.contains(c)).collect();
    assert!(
        gone.is_empty(),
        "known circles the scanner no longer finds (take them off the list): {gone:?}"
    );
}

/// One module layout (issue 66): a module with children is `folder/mod.rs`, never `folder.rs`
/// beside `folder/`.
#[test]
fn every_module_with_children_is_a_folder_with_mod_rs() {
    let mut all = Vec::new();
    files(Path::new("src"), &mut all);
    let beside: Vec<String> = all
        .iter()
        .filter(|p| p.with_extension("").is_dir())
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        beside.is_empty(),
        "modules beside their folders (move each to folder/mod.rs): {beside:?}"
    );
}

/// The contexts that several files extend, and the files that may (docs/architecture.md,
/// "Contexts"): each context's state is defined in one file (the first listed), and each
/// other file holds one family's behaviour, one `impl` block, its job the file's first line.
/// A method therefore has one place it can go; a new file extending a context is a decision
/// made here.
const CONTEXTS: &[(&str, &str, &[&str])] = &[
    (
        "FnBuilder",
        "src/vulkan",
        &[
            "body/mod.rs",
            "body/inst.rs",
            "addressed/mod.rs",
            "addressed/copy.rs",
            "addressed/local_region.rs",
            "addressed/views.rs",
            "buffers/order.rs",
            "buffers/views.rs",
            "bytes.rs",
            "gep.rs",
            "images.rs",
            "kernel/mod.rs",
            "known_bits.rs",
            "memory.rs",
            "printf.rs",
            "program_scope.rs",
        ],
    ),
    (
        "Writer",
        "src/spv/write",
        &[
            "mod.rs",
            "body/mod.rs",
            "body/inst.rs",
            "builtins.rs",
            "constants.rs",
            "debug.rs",
            "debug_types.rs",
            "fast_math.rs",
            "layout.rs",
            "memory.rs",
            "private_globals.rs",
            "reflection.rs",
            "types.rs",
        ],
    ),
    (
        "Writer",
        "src/spir/write",
        &[
            "mod.rs",
            "atomics.rs",
            "body.rs",
            "builtins.rs",
            "debug.rs",
            "enqueue.rs",
            "fences.rs",
            "friendly.rs",
            "groups.rs",
            "metadata.rs",
            "pipes.rs",
            "primitives.rs",
            "types.rs",
        ],
    ),
];

/// Whether `line` opens an `impl` block of `name` (`impl Name<'_>`, `impl<'a> Name<'a>`,
/// `impl super::Name<'_>`).
fn opens_impl_of(line: &str, name: &str) -> bool {
    let Some(rest) = line.strip_prefix("impl") else {
        return false;
    };
    let rest = match rest.strip_prefix('<') {
        Some(r) => r.split_once("> ").map_or("", |(_, after)| after),
        None => rest.trim_start(),
    };
    let path = rest.split(['<', ' ', '{']).next().unwrap_or("");
    path.rsplit("::").next() == Some(name) && !rest.contains(" for ")
}

#[test]
fn each_context_is_extended_only_by_its_listed_families() {
    for (name, folder, listed) in CONTEXTS {
        let mut all = Vec::new();
        files(Path::new(folder), &mut all);
        let mut found = BTreeSet::new();
        for path in &all {
            let text = code(&std::fs::read_to_string(path).unwrap());
            let blocks = text.lines().filter(|l| opens_impl_of(l, name)).count();
            let rel = path
                .strip_prefix(folder)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            assert!(
                blocks <= 1,
                "{folder}/{rel}: {blocks} `impl {name}` blocks; one family, one block"
            );
            if blocks == 1 {
                found.insert(rel);
            }
        }
        let listed: BTreeSet<String> = listed.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            found, listed,
            "the files of {folder} extending {name} (tests/rooms.rs CONTEXTS)"
        );
    }
}

#[test]
fn the_impl_scanner_sees_each_spelling() {
    assert!(opens_impl_of(
        "impl<'l, 'a> FnBuilder<'l, 'a> {",
        "FnBuilder"
    ));
    assert!(opens_impl_of("impl FnBuilder<'_, '_> {", "FnBuilder"));
    assert!(opens_impl_of(
        "impl super::FnBuilder<'_, '_> {",
        "FnBuilder"
    ));
    assert!(!opens_impl_of("impl Drop for Writer<'_> {", "Writer"));
    assert!(!opens_impl_of("impl WriterState {", "Writer"));
}

/// The state of a family of the Vulkan lowering (`state::Addressed`, `state::Buffers`) is
/// read and changed by that family's folder alone; the others ask it (`view_of`,
/// `buffer_view_of`, `local_offset`).
#[test]
fn a_family_state_is_touched_by_its_family_alone() {
    let mut all = Vec::new();
    files(Path::new("src/vulkan"), &mut all);
    for (field, home) in [("addressed", "addressed/"), ("buffers", "buffers/")] {
        for path in &all {
            let rel = path.strip_prefix("src/vulkan").unwrap().to_string_lossy();
            if rel.starts_with(home) {
                continue;
            }
            let text = code(&std::fs::read_to_string(path).unwrap());
            assert!(
                !text.contains(&format!(".{field}.")),
                "src/vulkan/{rel} reaches into the {field} family's state"
            );
        }
    }
}
