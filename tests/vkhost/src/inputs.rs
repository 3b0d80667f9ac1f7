//! Where a job argument's bytes come from: a file beside the job file (`"buffer": PATH`,
//! `"image": PATH`), or made here from a description (`"fill": {...}`), so that a benchmark
//! of large buffers travels as a few lines of JSON instead of gigabytes.
//!
//! A fill is `{"elem": "f32", "count": N, "lo": A, "hi": B}` (`lo`/`hi` optional: the whole
//! range for integers, −16..16 for floats), or `{"zero": BYTES}`. The values come from one
//! generator per job, seeded by the job's `seed` and drawn in argument order: the same
//! generator and the same draws as the tests' `//@exec` inputs (tests/exec/spec.rs), so a
//! benchmark's inputs are the ones the OpenCL side makes from the same spec.

use serde_json::Value;

use crate::{field, num, R};

/// xorshift64*, as tests/common's `Rng`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The inputs of one job.
pub struct Inputs<'a> {
    dir: &'a std::path::Path,
    rng: Rng,
}

impl<'a> Inputs<'a> {
    pub fn new(dir: &'a std::path::Path, job: &Value) -> Inputs<'a> {
        let seed = job.get("seed").and_then(Value::as_u64).unwrap_or(1);
        Inputs {
            dir,
            rng: Rng(seed | 1),
        }
    }

    /// The bytes of argument `given`: the file its `key` names, or its `fill`.
    pub fn bytes(&mut self, given: &Value, key: &str) -> R<Vec<u8>> {
        if let Some(path) = given.get(key).and_then(Value::as_str) {
            let path = self.dir.join(path);
            return std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()));
        }
        let fill = field(given, "fill")?;
        if let Some(n) = fill.get("zero").and_then(Value::as_u64) {
            return Ok(vec![0u8; n as usize]);
        }
        let elem = field(fill, "elem")?.as_str().unwrap_or_default();
        let count = num(fill, "count")? as usize;
        let range = match (
            fill.get("lo").and_then(Value::as_f64),
            fill.get("hi").and_then(Value::as_f64),
        ) {
            (Some(lo), Some(hi)) => Some((lo, hi)),
            _ => None,
        };
        self.fill(elem, count, range)
    }

    /// As tests/exec/spec.rs's `fill`.
    fn fill(&mut self, elem: &str, count: usize, range: Option<(f64, f64)>) -> R<Vec<u8>> {
        let size = elem_size(elem)?;
        let mut out = Vec::with_capacity(count * size);
        for _ in 0..count {
            if elem.starts_with('f') {
                let (lo, hi) = range.unwrap_or((-16.0, 16.0));
                let v = lo + (hi - lo) * self.rng.unit();
                match elem {
                    "f32" => out.extend_from_slice(&(v as f32).to_le_bytes()),
                    "f64" => out.extend_from_slice(&v.to_le_bytes()),
                    _ => out.extend_from_slice(&f32_to_f16(v as f32).to_le_bytes()),
                }
            } else {
                let v = match range {
                    Some((lo, hi)) => {
                        let span = (hi - lo) as u64 + 1;
                        (lo as i64 + (self.rng.next() % span) as i64) as u64
                    }
                    None => self.rng.next(),
                };
                out.extend_from_slice(&v.to_le_bytes()[..size]);
            }
        }
        Ok(out)
    }
}

/// The size of an element type named as the specs name them (`i8` … `f64`).
pub fn elem_size(elem: &str) -> R<usize> {
    Ok(match elem {
        "i8" | "u8" => 1,
        "i16" | "u16" | "f16" => 2,
        "i32" | "u32" | "f32" => 4,
        "i64" | "u64" | "f64" => 8,
        _ => return Err(format!("unknown element type `{elem}`")),
    })
}

/// Round-toward-zero conversion, as tests/exec/spec.rs makes half inputs.
fn f32_to_f16(f: f32) -> u16 {
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    if exp <= 0 {
        return sign;
    }
    if exp >= 31 {
        return sign | 0x7bff;
    }
    sign | ((exp as u16) << 10) | ((b >> 13) & 0x3ff) as u16
}
