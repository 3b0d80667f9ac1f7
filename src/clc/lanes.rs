//! Lanes of vectors in OpenCL C: swizzles, lane access and shuffles.

use super::precedence::Expr;
use crate::ir::{self, Value};

/// The value of an index operand when it is a constant.
pub fn index_const(m: &ir::Module, v: Value) -> Option<i64> {
    match v {
        Value::Const(c) => super::constants::const_index(m, c),
        _ => None,
    }
}

/// `v.s3` for a constant lane, `v[i]` otherwise.
pub fn lane_access(v: &str, k: Option<i64>, i: &Expr) -> String {
    match k {
        Some(k) if (0..16).contains(&k) => format!("{v}.s{k:x}"),
        _ => format!("{v}[{}]", i.text),
    }
}

/// Lanes of `a` and `b` by `mask`: a swizzle of one source, or a vector literal of
/// swizzles of both. An undefined lane (`None`: LLVM's `undef`, SPIR-V's 0xFFFFFFFF) is
/// zero, as the drivers that read the module itself give it (LLVM's SPIR-V backend leaves
/// `get_image_dim`'s fourth lane so).
pub fn shuffle(ty: &str, a: &Expr, b: &Expr, n: u32, mask: &[Option<u32>]) -> Expr {
    if mask.iter().all(|l| l.is_some_and(|l| l < n)) {
        let sw: String = mask.iter().flatten().map(|l| format!("{l:x}")).collect();
        return Expr::atom(format!("{}.s{sw}", a.postfix()));
    }
    let elem = ty.trim_end_matches(|c: char| c.is_ascii_digit());
    // Runs of lanes from one source (`Some(false)` a, `Some(true)` b), each a swizzle, and
    // of zeros (`None`).
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(Option<bool>, String)> = None;
    let flush = |run: Option<(Option<bool>, String)>, parts: &mut Vec<String>| match run {
        Some((Some(from_b), s)) => parts.push(swizzle(if from_b { b } else { a }, &s)),
        Some((None, s)) => parts.extend(s.chars().map(|_| format!("({elem})0"))),
        None => {}
    };
    for &l in mask {
        let (src, lane) = match l {
            Some(l) if l >= n => (Some(true), l - n),
            Some(l) => (Some(false), l),
            None => (None, 0),
        };
        match &mut run {
            Some((from, s)) if *from == src && s.len() < 16 => s.push_str(&format!("{lane:x}")),
            _ => {
                flush(run.take(), &mut parts);
                run = Some((src, format!("{lane:x}")));
            }
        }
    }
    flush(run, &mut parts);
    Expr::atom(format!("({ty})({})", parts.join(", ")))
}

/// Swizzles of `v` taking `lanes` (hex digits), in pieces of lane counts OpenCL C has.
fn swizzle(v: &Expr, lanes: &str) -> String {
    let mut parts = Vec::new();
    let mut rest = lanes;
    while !rest.is_empty() {
        let n = [16, 8, 4, 3, 2, 1]
            .into_iter()
            .find(|&n| n <= rest.len())
            .unwrap_or(1);
        parts.push(format!("{}.s{}", v.postfix(), &rest[..n]));
        rest = &rest[n..];
    }
    parts.join(", ")
}
