//! `printf` as OpenCL C requires it: the format a string literal (the graph holds it as a
//! constant array in a program-scope variable), each argument of the type its conversion
//! names (integers are held unsigned; `%d` reads a signed one).

use super::constants::string_literal;
use super::function::FnWriter;
use super::ops::Shape;
use super::precedence::Expr;
use crate::diag::{Error, Result};
use crate::ir::{ConstantKind, Handle, Module, Type, Value};

/// The bytes of the string a constant pointer points to the start of (through casts and
/// zero steps), without its terminating NUL.
pub fn format_bytes(m: &Module, f: &crate::ir::Function, v: Value) -> Option<Vec<u8>> {
    let mut c = match v {
        Value::Const(c) => c,
        Value::Inst(h) => {
            let body = f.body.as_ref()?;
            return match &body.insts[h].op {
                crate::ir::Op::Gep { base, indices, .. }
                    if indices
                        .iter()
                        .all(|&i| super::lanes::index_const(m, i) == Some(0)) =>
                {
                    format_bytes(m, f, *base)
                }
                crate::ir::Op::Cast { value, .. } => format_bytes(m, f, *value),
                _ => None,
            };
        }
        Value::Param(_) => return None,
    };
    loop {
        match &m.constants[c].kind {
            ConstantKind::Cast(_, inner) => c = *inner,
            ConstantKind::Gep { base, indices, .. }
                if indices
                    .iter()
                    .all(|&i| super::constants::const_index(m, i) == Some(0)) =>
            {
                c = *base
            }
            ConstantKind::GlobalAddress(g) => {
                let init = m.globals[*g].init?;
                let ConstantKind::Composite(parts) = &m.constants[init].kind else {
                    return None;
                };
                let mut bytes: Vec<u8> = parts
                    .iter()
                    .map(|&p| match m.constants[p].kind {
                        ConstantKind::Int(b) => Some(b as u8),
                        ConstantKind::Null | ConstantKind::Undef => Some(0),
                        _ => None,
                    })
                    .collect::<Option<_>>()?;
                if let Some(end) = bytes.iter().position(|&b| b == 0) {
                    bytes.truncate(end);
                }
                return Some(bytes);
            }
            _ => return None,
        }
    }
}

/// One conversion of a format: its letter and length modifier (`hh`, `h`, `hl`, `l`),
/// and whether it prints a vector.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Conversion {
    letter: u8,
    length: String,
    vector: bool,
}

impl Conversion {
    /// The scalar integer type the conversion reads, for a scalar argument.
    fn int_type(&self) -> Option<String> {
        let base = match self.length.as_str() {
            "hh" => "char",
            "h" => "short",
            "l" => "long",
            _ => "int",
        };
        match self.letter {
            b'd' | b'i' => Some(base.to_string()),
            b'c' => Some("int".to_string()),
            b'u' | b'o' | b'x' | b'X' => Some(format!("u{base}")),
            _ => None,
        }
    }

    fn signed(&self) -> bool {
        matches!(self.letter, b'd' | b'i' | b'c')
    }
}

/// The conversions of a format, in order.
fn conversions(format: &[u8]) -> Vec<Conversion> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if format.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        // Flags, width, precision.
        while i < format.len()
            && matches!(
                format[i],
                b'-' | b'+' | b' ' | b'#' | b'0'..=b'9' | b'.' | b'*'
            )
        {
            i += 1;
        }
        let mut vector = false;
        if format.get(i) == Some(&b'v') {
            vector = true;
            i += 1;
            while i < format.len() && format[i].is_ascii_digit() {
                i += 1;
            }
        }
        let start = i;
        while i < format.len() && matches!(format[i], b'h' | b'l') {
            i += 1;
        }
        let length = String::from_utf8_lossy(&format[start..i]).into_owned();
        if let Some(&letter) = format.get(i) {
            out.push(Conversion {
                letter,
                length,
                vector,
            });
            i += 1;
        }
    }
    out
}

impl FnWriter<'_, '_> {
    /// `printf("...", args)`.
    pub fn printf(&mut self, args: &[Value], a: Vec<Expr>, tys: &[Handle<Type>]) -> Result<Expr> {
        let m = self.w.m;
        let format = args
            .first()
            .and_then(|&v| format_bytes(m, self.f, v))
            .ok_or_else(|| {
                Error::unsupported("printf with a format that is not a constant string")
            })?;
        let convs = conversions(&format);
        let mut out = vec![Expr::atom(string_literal(&format))];
        for (i, (e, &t)) in a.into_iter().zip(tys).enumerate().skip(1) {
            let conv = convs.get(i - 1);
            // A constant string printed with %s: the literal itself (a driver that formats
            // on the host, NVIDIA's, resolves %s strings when it compiles).
            if conv.is_some_and(|c| c.letter == b's') {
                if let Some(text) = args.get(i).and_then(|&v| format_bytes(m, self.f, v)) {
                    out.push(Expr::atom(string_literal(&text)));
                    continue;
                }
            }
            let e = match (self.w.shape(t), conv) {
                ((1, Shape::Int(_) | Shape::Bool), Some(c))
                    if !c.vector && c.int_type().is_some() =>
                {
                    Expr::cast(&c.int_type().unwrap_or_default(), &e)
                }
                ((n, Shape::Int(_)), Some(c)) if n > 1 && c.signed() => self.w.signed(t, &e)?,
                (_, Some(c)) if matches!(m.types[t], Type::Pointer { .. }) => {
                    let space = match m.types[t] {
                        Type::Pointer { space, .. } => space,
                        _ => crate::ir::AddressSpace::Private,
                    };
                    let sw = super::types::space_word(space)?
                        .map(|w| format!("{w} "))
                        .unwrap_or_default();
                    let pointee = if c.letter == b's' { "char" } else { "void" };
                    Expr::cast(&format!("{sw}{pointee} *"), &e)
                }
                _ => e,
            };
            out.push(e);
        }
        Ok(Expr::call("printf", &out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_literals_and_their_conversions_known() {
        assert_eq!(
            string_literal(b"a \"b\"\n%d\x01"),
            "\"a \\\"b\\\"\\n%d\\001\""
        );
        let c = conversions(b"%d %5.2f %% %v4hd %lu %c %s %-8x");
        let letters: Vec<u8> = c.iter().map(|c| c.letter).collect();
        assert_eq!(
            letters,
            b"dfdlucsx"
                .iter()
                .copied()
                .filter(|&l| l != b'l')
                .collect::<Vec<_>>()
        );
        assert_eq!(c[0].int_type().as_deref(), Some("int"));
        assert!(c[2].vector && c[2].length == "h");
        assert_eq!(c[3].int_type().as_deref(), Some("ulong"));
        assert_eq!(c[6].int_type().as_deref(), Some("uint"));
    }
}
