//! What a kernel printed: the records of the printf buffer (word 0: the number of words
//! written after it; then each record's format id and its arguments' bytes) formatted as
//! the module's reflection describes them (`printf.formats`: id, format, arg_sizes). Each
//! conversion is formatted by the C library's `snprintf`, one vector element at a time
//! (elements joined by `,`), as clvk does.

use std::ffi::{c_char, c_int, CString};

use serde_json::Value;

use crate::R;

extern "C" {
    fn snprintf(buf: *mut c_char, n: usize, format: *const c_char, ...) -> c_int;
}

/// One format of the reflection.
struct Format {
    text: String,
    sizes: Vec<usize>,
}

/// The text the records in `buffer` print.
pub fn print(buffer: &[u8], printf: &Value) -> R<String> {
    let mut formats = std::collections::HashMap::new();
    for f in printf
        .get("formats")
        .and_then(Value::as_array)
        .ok_or("the reflection's printf has no formats")?
    {
        let id = f
            .get("id")
            .and_then(Value::as_u64)
            .ok_or("a format without an id")?;
        let text = f
            .get("format")
            .and_then(Value::as_str)
            .ok_or("a format without its text")?
            .to_string();
        let sizes = f
            .get("arg_sizes")
            .and_then(Value::as_array)
            .ok_or("a format without arg_sizes")?
            .iter()
            .map(|s| {
                s.as_u64()
                    .map(|s| s as usize)
                    .ok_or_else(|| "an argument size is not a number".to_string())
            })
            .collect::<R<Vec<_>>>()?;
        formats.insert(id as u32, Format { text, sizes });
    }
    let word = |i: usize| -> Option<u32> {
        let b = buffer.get(4 * i..4 * i + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let written = word(0).ok_or("the printf buffer is empty")? as usize;
    let end = (4 + 4 * written).min(buffer.len());
    let mut out = String::new();
    let mut at = 4;
    while at + 4 <= end {
        let id = word(at / 4).unwrap_or_default();
        at += 4;
        let f = formats
            .get(&id)
            .ok_or_else(|| format!("a printf record of unknown format {id}"))?;
        let need: usize = f.sizes.iter().sum();
        if at + need > end {
            // The record did not fit: the kernel stored only its id.
            break;
        }
        out.push_str(&record(f, &buffer[at..at + need], &formats)?);
        at += need;
    }
    Ok(out)
}

/// One conversion: flags, width and precision as written, the vector size, the length
/// modifier and the conversion character.
struct Spec {
    /// `%` with flags, width and precision.
    head: String,
    vector: usize,
    length: String,
    conversion: char,
}

/// Parse the conversion starting after a `%` at `s`; its spec and its length in bytes.
fn spec(s: &str) -> R<(Spec, usize)> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && b"-+ #0".contains(&b[i]) {
        i += 1;
    }
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        i += 1;
    }
    let head = format!("%{}", &s[..i]);
    let mut vector = 1;
    if i < b.len() && b[i] == b'v' {
        let start = i + 1;
        i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        vector = s[start..i]
            .parse()
            .map_err(|_| "a vector size is not a number")?;
    }
    let start = i;
    while i < b.len() && (b[i] == b'h' || b[i] == b'l') {
        i += 1;
    }
    let length = s[start..i].to_string();
    let conversion = *b.get(i).ok_or("a format ends inside a conversion")? as char;
    Ok((
        Spec {
            head,
            vector,
            length,
            conversion,
        },
        i + 1,
    ))
}

fn record(f: &Format, data: &[u8], formats: &std::collections::HashMap<u32, Format>) -> R<String> {
    let mut out = String::new();
    let text = &f.text;
    let (mut i, mut arg, mut at) = (0, 0, 0);
    while let Some(p) = text[i..].find('%') {
        out.push_str(&text[i..i + p]);
        i += p + 1;
        if text[i..].starts_with('%') {
            out.push('%');
            i += 1;
            continue;
        }
        let (s, n) = spec(&text[i..])?;
        i += n;
        let size = *f
            .sizes
            .get(arg)
            .ok_or("a format with more conversions than arguments")?;
        let bytes = data
            .get(at..at + size)
            .ok_or("a record shorter than its sizes")?;
        arg += 1;
        at += size;
        out.push_str(&argument(&s, bytes, formats)?);
    }
    out.push_str(&text[i..]);
    Ok(out)
}

/// One argument (each element of a vector), by its conversion.
fn argument(s: &Spec, bytes: &[u8], formats: &std::collections::HashMap<u32, Format>) -> R<String> {
    let elem = match (s.vector, s.length.as_str()) {
        (1, _) => bytes.len(),
        (_, "hh") => 1,
        (_, "h") => 2,
        (_, "hl") => 4,
        (_, "l") => 8,
        (n, _) => bytes.len() / n.max(1),
    };
    let mut parts = Vec::new();
    for e in 0..s.vector {
        let b = bytes
            .get(e * elem..(e + 1) * elem)
            .ok_or("a vector argument shorter than its elements")?;
        parts.push(element(s, b, formats)?);
    }
    Ok(parts.join(","))
}

fn element(s: &Spec, b: &[u8], formats: &std::collections::HashMap<u32, Format>) -> R<String> {
    let mut raw = [0u8; 8];
    raw[..b.len().min(8)].copy_from_slice(&b[..b.len().min(8)]);
    let bits = u64::from_le_bytes(raw);
    // The C spelling: `hl` (OpenCL's 32-bit vector elements) is no C length modifier.
    let length = if s.length == "hl" { "" } else { &s.length };
    let c = s.conversion;
    let fmt = |len: &str| format!("{}{len}{c}", s.head);
    match c {
        's' => {
            let text = formats
                .get(&(bits as u32))
                .map(|f| f.text.clone())
                .ok_or("a %s of an unknown string")?;
            let t = CString::new(text).map_err(|_| "a string with a NUL")?;
            Ok(c_format(&fmt(""), |buf, n, f| unsafe {
                snprintf(buf, n, f, t.as_ptr())
            }))
        }
        'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => {
            let v = match b.len() {
                2 => half(bits as u16),
                4 => f64::from(f32::from_bits(bits as u32)),
                _ => f64::from_bits(bits),
            };
            Ok(c_format(&fmt(""), |buf, n, f| unsafe {
                snprintf(buf, n, f, v)
            }))
        }
        'p' => {
            let v = bits as usize as *const u8;
            Ok(c_format(&fmt(""), |buf, n, f| unsafe {
                snprintf(buf, n, f, v)
            }))
        }
        _ if b.len() == 8 => {
            let v = bits as i64;
            Ok(c_format(&fmt("l"), |buf, n, f| unsafe {
                snprintf(buf, n, f, v)
            }))
        }
        _ => {
            // Narrower integers: their bits as an int; `hh` and `h` keep as many.
            let v = bits as u32 as c_int;
            Ok(c_format(&fmt(length), |buf, n, f| unsafe {
                snprintf(buf, n, f, v)
            }))
        }
    }
}

/// `snprintf` into a buffer large enough for what it writes.
fn c_format(format: &str, call: impl Fn(*mut c_char, usize, *const c_char) -> c_int) -> String {
    let f = CString::new(format).unwrap_or_default();
    let mut buf = vec![0 as c_char; 512];
    loop {
        let n = call(buf.as_mut_ptr(), buf.len(), f.as_ptr());
        if n < 0 {
            return String::new();
        }
        if (n as usize) < buf.len() {
            let bytes: Vec<u8> = buf[..n as usize].iter().map(|&c| c as u8).collect();
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        buf.resize(n as usize + 1, 0);
    }
}

/// A half's value.
fn half(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f64::from(h & 0x3ff);
    sign * match exp {
        0 => frac * 2f64.powi(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}
