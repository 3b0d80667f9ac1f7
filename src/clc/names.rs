//! Identifiers of the OpenCL C written: the input's names made legal and unique, never one
//! that a keyword, a type, a builtin function or a predefined macro of OpenCL C already owns.

use crate::hash::HashSet;

/// Words a program may not take for its own: C's and OpenCL C's keywords and qualifiers.
const KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "bool",
    "half",
    "uchar",
    "ushort",
    "uint",
    "ulong",
    "size_t",
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    "kernel",
    "global",
    "local",
    "constant",
    "private",
    "generic",
    "read_only",
    "write_only",
    "read_write",
    "pipe",
    "sampler_t",
    "event_t",
    "queue_t",
    "clk_event_t",
    "reserve_id_t",
    "ndrange_t",
    "true",
    "false",
    "complex",
    "imaginary",
    "quad",
    "vec_step",
    "main",
    "memory_order",
    "memory_scope",
    "cl_mem_fence_flags",
    "atomic_int",
    "atomic_uint",
    "atomic_long",
    "atomic_ulong",
    "atomic_float",
    "atomic_double",
    "atomic_flag",
    "atomic_intptr_t",
    "atomic_uintptr_t",
    "atomic_size_t",
    "atomic_ptrdiff_t",
    "_Bool",
    "_Complex",
    "_Imaginary",
    "_Static_assert",
    "_Noreturn",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Generic",
    "_Thread_local",
    "typeof",
    "asm",
    "attribute",
    "class",
    "template",
    "new",
    "delete",
    "this",
    "operator",
    "namespace",
    "using",
    "virtual",
    "friend",
    "public",
    "protected",
];

/// Builtin functions of OpenCL C whose names are not families [`is_builtin_family`] covers:
/// a local variable of such a name would hide the function from the code after it.
const BUILTINS: &[&str] = &[
    "barrier",
    "mem_fence",
    "read_mem_fence",
    "write_mem_fence",
    "work_group_barrier",
    "sub_group_barrier",
    "async_work_group_copy",
    "async_work_group_strided_copy",
    "wait_group_events",
    "prefetch",
    "printf",
    "dot",
    "cross",
    "length",
    "distance",
    "normalize",
    "any",
    "all",
    "select",
    "bitselect",
    "shuffle",
    "shuffle2",
    "popcount",
    "clz",
    "ctz",
    "rotate",
    "upsample",
    "mad24",
    "mul24",
    "mad_hi",
    "mul_hi",
    "mad_sat",
    "add_sat",
    "sub_sat",
    "hadd",
    "rhadd",
    "abs",
    "abs_diff",
    "clamp",
    "min",
    "max",
    "mix",
    "step",
    "smoothstep",
    "sign",
    "degrees",
    "radians",
    "to_global",
    "to_local",
    "to_private",
    "get_fence",
    "nan",
    "fma",
    "mad",
    "ndrange_1D",
    "ndrange_2D",
    "ndrange_3D",
    "enqueue_kernel",
    "enqueue_marker",
    "retain_event",
    "release_event",
    "create_user_event",
    "set_user_event_status",
    "capture_event_profiling_info",
    "is_valid_event",
    "get_default_queue",
    "read_pipe",
    "write_pipe",
    "reserve_read_pipe",
    "reserve_write_pipe",
    "commit_read_pipe",
    "commit_write_pipe",
    "is_valid_reserve_id",
    "vec_type_hint",
];

/// Families of builtin names (`convert_int4_sat`, `as_float`, `vload4`, `atomic_add`,
/// `native_sin`, `work_group_reduce_add`, ...), the work-item queries and relational tests,
/// and the OpenCL.std names.
fn is_builtin_family(s: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "convert_",
        "as_",
        "vload",
        "vstore",
        "read_image",
        "write_image",
        "get_image_",
        "atomic_",
        "atom_",
        "work_group_",
        "sub_group_",
        "native_",
        "half_",
        "__",
    ];
    const RELATIONAL: &[&str] = &[
        "isequal",
        "isnotequal",
        "isgreater",
        "isgreaterequal",
        "isless",
        "islessequal",
        "islessgreater",
        "isfinite",
        "isinf",
        "isnan",
        "isnormal",
        "isordered",
        "isunordered",
        "signbit",
    ];
    PREFIXES.iter().any(|p| s.starts_with(p))
        || RELATIONAL.contains(&s)
        || crate::mappings::work_item(s).is_some()
        || crate::mappings::opencl_std(s).is_some()
}

/// Type names with a lane count (`float4`, `uchar16`, `int3`).
pub fn is_vector_type_name(s: &str) -> bool {
    is_type_name(s, &["2", "3", "4", "8", "16"])
}

/// Whether `s` is a scalar type of OpenCL C followed by one of `lanes` (`""` for scalars).
pub fn is_type_name(s: &str, lanes: &[&str]) -> bool {
    const SCALARS: &[&str] = &[
        "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
        "half", "bool",
    ];
    SCALARS
        .iter()
        .any(|b| s.strip_prefix(b).is_some_and(|n| lanes.contains(&n)))
}

/// Whether `s` is taken by the language: a keyword, a type, a builtin or a macro (every
/// name without a lower-case letter: `INFINITY`, `MAXFLOAT`, `CLK_LOCAL_MEM_FENCE`).
pub fn is_reserved(s: &str) -> bool {
    KEYWORDS.contains(&s)
        || BUILTINS.contains(&s)
        || is_builtin_family(s)
        || is_vector_type_name(s)
        || !s.chars().any(|c| c.is_ascii_lowercase())
}

/// Whether `s` is a C identifier as it stands.
pub fn is_identifier(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&s)
}

/// `s` as a legal identifier: other characters become `_`, a leading digit gets a `v`.
pub fn legal(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    while out.contains("__") {
        out = out.replace("__", "_");
    }
    let out = out.trim_end_matches('_').to_string();
    match out.chars().next() {
        None => "v".into(),
        Some(c) if c.is_ascii_digit() => format!("v{out}"),
        Some('_') => format!("v{out}"),
        _ => out,
    }
}

/// A set of names taken in one scope (the module's, or a function's on top of it).
#[derive(Clone, Default)]
pub struct Scope {
    taken: HashSet<String>,
}

impl Scope {
    /// Take `name` exactly (a kernel's, which hosts look up): false when it is taken.
    pub fn take(&mut self, name: &str) -> bool {
        self.taken.insert(name.to_string())
    }

    /// A name for what the input called `wanted` (or `fallback` when it had no name): legal,
    /// free of the language's names and unique in this scope; taken from now on.
    pub fn fresh(&mut self, wanted: Option<&str>, fallback: &str) -> String {
        let base = legal(wanted.filter(|w| !w.is_empty()).unwrap_or(fallback));
        let base = if is_reserved(&base) {
            format!("{base}_")
        } else {
            base
        };
        let mut name = base.clone();
        let mut n = 1;
        while !self.taken.insert(name.clone()) {
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_legal_unique_and_never_the_languages() {
        let mut s = Scope::default();
        assert_eq!(s.fresh(Some("for.body"), "b"), "for_body");
        assert_eq!(s.fresh(Some("for.body"), "b"), "for_body_1");
        assert_eq!(s.fresh(Some("max"), "v"), "max_");
        assert_eq!(s.fresh(Some("float4"), "v"), "float4_");
        assert_eq!(s.fresh(Some("get_global_id"), "v"), "get_global_id_");
        assert_eq!(s.fresh(Some("NAN"), "v"), "NAN_");
        assert_eq!(s.fresh(Some("0x"), "v"), "v0x");
        assert_eq!(s.fresh(None, "t"), "t");
        assert_eq!(s.fresh(Some(""), "t"), "t_1");
        assert_eq!(s.fresh(Some("__x"), "t"), "v_x");
        assert_eq!(s.fresh(Some("sqrt"), "t"), "sqrt_");
        assert_eq!(s.fresh(Some("images"), "t"), "images");
        assert!(s.take("kernel_a"));
        assert!(!s.take("kernel_a"));
    }
}
