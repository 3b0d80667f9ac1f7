//! Lanes of vectors in OpenCL C: swizzles, lane access and shuffles.

use super::expr::Expr;
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
/// swizzles of both.
pub fn shuffle(ty: &str, a: &Expr, b: &Expr, n: u32, mask: &[Option<u32>]) -> Expr {
    let lanes: Vec<u32> = mask.iter().map(|l| l.unwrap_or(0)).collect();
    if lanes.iter().all(|&l| l < n) {
        let sw: String = lanes.iter().map(|l| format!("{l:x}")).collect();
        return Expr::atom(format!("{}.s{sw}", a.postfix()));
    }
    // Runs of lanes from one source, each a swizzle.
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(bool, String)> = None;
    for &l in &lanes {
        let (from_b, lane) = (l >= n, if l >= n { l - n } else { l });
        match &mut run {
            Some((src, s)) if *src == from_b && s.len() < 16 => s.push_str(&format!("{lane:x}")),
            _ => {
                if let Some((src, s)) = run.take() {
                    parts.push(swizzle(if src { b } else { a }, &s));
                }
                run = Some((from_b, format!("{lane:x}")));
            }
        }
    }
    if let Some((src, s)) = run {
        parts.push(swizzle(if src { b } else { a }, &s));
    }
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
