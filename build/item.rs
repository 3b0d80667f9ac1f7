//! The generated `mappings.rs`, item by item, and the reading of mappings/*.toml that
//! every table shares.

use std::fmt::Write;
use std::path::Path;

use serde::Deserialize;

pub(crate) fn read<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    let path = Path::new("mappings").join(name);
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub(crate) fn opt(path: &str, v: &Option<String>) -> String {
    match v {
        Some(v) => format!("Some({path}::{v})"),
        None => "None".to_string(),
    }
}

#[derive(Deserialize, Default)]
pub(crate) struct ByClass {
    pub(crate) op: Option<String>,
    pub(crate) float: Option<String>,
    pub(crate) signed: Option<String>,
    pub(crate) unsigned: Option<String>,
}

/// One item of the generated `mappings.rs`: the tables of `mappings/*.toml` as Rust.
pub(crate) enum Item {
    /// `pub fn NAME(ARG) -> RET`: a `match` on the argument, one arm (pattern, value) per
    /// table row. A `partial` one returns `Option<RET>`: `None` for values without a row.
    Lookup {
        doc: String,
        name: String,
        arg: String,
        ret: String,
        partial: bool,
        arms: Vec<(String, String)>,
    },
    /// `pub const NAME: &[ELEM] = &[ROW, ...]`, one row per line.
    Slice {
        doc: String,
        name: &'static str,
        elem: &'static str,
        rows: Vec<String>,
    },
}

impl Item {
    /// A partial lookup: `Option<ret>`, `None` where no arm matches.
    pub(crate) fn partial(doc: &str, sig: (&str, &str, &str), arms: Vec<(String, String)>) -> Item {
        Item::lookup(doc, sig, arms, true)
    }

    /// A lookup with an arm for every value of its argument.
    pub(crate) fn total(doc: &str, sig: (&str, &str, &str), arms: Vec<(String, String)>) -> Item {
        Item::lookup(doc, sig, arms, false)
    }

    fn lookup(
        doc: &str,
        (name, arg, ret): (&str, &str, &str),
        arms: Vec<(String, String)>,
        partial: bool,
    ) -> Item {
        Item::Lookup {
            doc: doc.to_string(),
            name: name.to_string(),
            arg: arg.to_string(),
            ret: ret.to_string(),
            partial,
            arms,
        }
    }

    pub(crate) fn slice(
        doc: &str,
        name: &'static str,
        elem: &'static str,
        rows: Vec<String>,
    ) -> Item {
        Item::Slice {
            doc: doc.to_string(),
            name,
            elem,
            rows,
        }
    }

    pub(crate) fn render(&self, out: &mut String) {
        let doc = match self {
            Item::Lookup { doc, .. } | Item::Slice { doc, .. } => doc,
        };
        out.push('\n');
        for line in doc.lines() {
            let _ = writeln!(out, "/// {line}");
        }
        match self {
            Item::Lookup {
                name,
                arg,
                ret,
                partial,
                arms,
                ..
            } => {
                let var = arg.split(':').next().unwrap_or(arg);
                if *partial {
                    let _ = writeln!(out, "pub fn {name}({arg}) -> Option<{ret}> {{");
                    let _ = writeln!(out, "    Some(match {var} {{");
                } else {
                    let _ = writeln!(out, "pub fn {name}({arg}) -> {ret} {{");
                    let _ = writeln!(out, "    match {var} {{");
                }
                for (pattern, value) in arms {
                    let _ = writeln!(out, "        {pattern} => {value},");
                }
                if *partial {
                    out.push_str("        _ => return None,\n    })\n}\n");
                } else {
                    out.push_str("    }\n}\n");
                }
            }
            Item::Slice {
                name, elem, rows, ..
            } => {
                let _ = writeln!(out, "pub const {name}: &[{elem}] = &[");
                for row in rows {
                    let _ = writeln!(out, "    {row},");
                }
                out.push_str("];\n");
            }
        }
    }
}

/// `ByClass { any, float, signed, unsigned }` of `path` values (`float` from `float_col`).
pub(crate) fn by_class(path: &str, c: &ByClass, float: bool) -> String {
    format!(
        "ByClass {{ any: {}, float: {}, signed: {}, unsigned: {} }}",
        opt(path, &c.op),
        if float {
            opt(path, &c.float)
        } else {
            "None".into()
        },
        opt(path, &c.signed),
        opt(path, &c.unsigned)
    )
}
