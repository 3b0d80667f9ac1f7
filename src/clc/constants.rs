//! Constants as OpenCL C expressions and initializers: integers at their width, floats with
//! every bit kept (NaN payloads and infinities through `as_float`), vectors, aggregates and
//! addresses of program-scope variables.

use super::precedence::Expr;
use super::types::uint_name;
use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::Constant;
use crate::ir::{ConstantKind, Handle, Type};

impl Writer<'_> {
    /// Whether constant `c` is, through casts, the address of one of clang's block invoke
    /// functions.
    fn block_invoke_address(&self, c: Handle<Constant>) -> bool {
        match &self.m.constants[c].kind {
            ConstantKind::FunctionAddress(f) => {
                // clang's block invokes (a literal's field, written as a null pointer).
                self.m.functions[*f].name.contains("_block_invoke")
            }
            ConstantKind::Cast(_, inner) => self.block_invoke_address(*inner),
            _ => false,
        }
    }

    /// A constant as an expression of its type.
    pub fn constant(&mut self, c: Handle<Constant>) -> Result<Expr> {
        let m = self.m;
        let k = &m.constants[c];
        let ty = k.ty;
        Ok(match &k.kind {
            ConstantKind::Int(v) => self.int_literal(ty, *v)?,
            ConstantKind::Float(bits) => self.float_literal(ty, *bits)?,
            ConstantKind::Null | ConstantKind::Undef => self.zero(ty)?,
            ConstantKind::Composite(parts) => match &m.types[ty] {
                Type::Vector { .. } => {
                    let parts = parts
                        .iter()
                        .map(|&p| self.constant(p))
                        .collect::<Result<Vec<_>>>()?;
                    let t = self.type_name(ty)?;
                    vector_literal(&t, &parts)
                }
                _ => {
                    let init = self.initializer(c)?;
                    let t = self.type_name(ty)?;
                    if matches!(m.types[ty], Type::Array { .. }) {
                        return Err(Error::unsupported(
                            "an array constant used as a value (not an initializer)",
                        ));
                    }
                    Expr::atom(format!("({t}){init}"))
                }
            },
            ConstantKind::GlobalAddress(g) => {
                let name = self.global_name(*g)?;
                Expr::unary("&", &Expr::atom(name))
            }
            ConstantKind::FunctionAddress(f) => {
                return Err(Error::unsupported(format!(
                    "the address of function '{}' (OpenCL C has no function pointers)",
                    m.functions[*f].name
                )))
            }
            ConstantKind::Cast(_, inner) if self.block_invoke_address(*inner) => {
                // A block literal's invoke field (see enqueue.rs): no invoke reads it.
                let t = self.type_name(ty)?;
                Expr::cast(&t, &Expr::atom("0"))
            }
            ConstantKind::Cast(op, inner) => {
                let from = m.constants[*inner].ty;
                let e = self.constant(*inner)?;
                self.cast(*op, from, ty, e)?
            }
            ConstantKind::Gep { base, indices, .. } => {
                let base_ty = m.constants[*base].ty;
                let b = self.constant(*base)?;
                let idx = indices
                    .iter()
                    .map(|&i| Ok((self.constant(i)?, const_index(m, i))))
                    .collect::<Result<Vec<_>>>()?;
                self.gep(base_ty, b, &idx, ty)?
            }
            ConstantKind::Sampler { .. } => Expr::atom(self.sampler(c)?),
            ConstantKind::Spec { spec_id, default } => {
                self.lost(format!(
                    "specialization constant {spec_id} is fixed at its default (OpenCL C has \
                     none)"
                ));
                self.constant(*default)?
            }
            ConstantKind::SpecOp { .. } => {
                return Err(Error::unsupported(
                    "an operation on specialization constants",
                ))
            }
        })
    }

    /// An initializer of a program-scope variable: `{...}` for aggregates, else the
    /// constant's expression.
    pub fn initializer(&mut self, c: Handle<Constant>) -> Result<String> {
        let outer = std::mem::replace(&mut self.in_initializer, true);
        let r = self.initializer_parts(c);
        self.in_initializer = outer;
        r
    }

    fn initializer_parts(&mut self, c: Handle<Constant>) -> Result<String> {
        let m = self.m;
        let k = &m.constants[c];
        if let Some(text) = string_of(m, c) {
            return Ok(string_literal(&text));
        }
        match (&k.kind, &m.types[k.ty]) {
            (ConstantKind::Composite(parts), Type::Struct { .. } | Type::Array { .. }) => {
                let parts = parts
                    .iter()
                    .map(|&p| self.initializer_parts(p))
                    .collect::<Result<Vec<_>>>()?;
                Ok(format!("{{{}}}", parts.join(", ")))
            }
            (
                ConstantKind::Null | ConstantKind::Undef,
                Type::Struct { .. } | Type::Array { .. },
            ) => Ok("{0}".into()),
            _ => Ok(self.constant(c)?.text),
        }
    }

    /// The zero of a type.
    pub fn zero(&mut self, ty: Handle<Type>) -> Result<Expr> {
        let m = self.m;
        Ok(match &m.types[ty] {
            Type::Bool => Expr::atom("false"),
            Type::Int { width } => self
                .int_literal(ty, 0)
                .map_err(|_| Error::unsupported(format!("a {width}-bit integer")))?,
            Type::Float { .. } => self.float_literal(ty, 0)?,
            Type::Vector { .. } | Type::Pointer { .. } => {
                let t = self.type_name(ty)?;
                Expr::cast(&t, &Expr::atom("0"))
            }
            Type::Struct { .. } => {
                let t = self.type_name(ty)?;
                Expr::atom(format!("({t}){{0}}"))
            }
            Type::Event => Expr::cast("event_t", &Expr::atom("0")),
            _ => {
                return Err(Error::unsupported(format!(
                    "an undefined or zero value of type {}",
                    crate::ir::print::type_text(m, ty)
                )))
            }
        })
    }

    /// An integer literal of `ty`'s width (`5u`, `(uchar)5`, `0xffffffffffffffffUL`).
    pub fn int_literal(&mut self, ty: Handle<Type>, v: u64) -> Result<Expr> {
        let m = self.m;
        let width = match m.types[ty] {
            Type::Bool => return Ok(Expr::atom(if v & 1 != 0 { "true" } else { "false" })),
            Type::Int { width } => width,
            _ => return Err(Error::internal("an integer constant of a non-integer type")),
        };
        let v = if width < 64 {
            v & ((1u64 << width) - 1)
        } else {
            v
        };
        let digits = if v < 0x10000 {
            v.to_string()
        } else {
            format!("{v:#x}")
        };
        Ok(match width {
            32 => Expr::atom(format!("{digits}u")),
            64 => Expr::atom(format!("{digits}UL")),
            w => Expr::cast(
                uint_name(w).ok_or_else(|| Error::unsupported(format!("a {w}-bit integer")))?,
                &Expr::atom(digits),
            ),
        })
    }

    /// A float literal with exactly the constant's bits: the shortest decimal that reads
    /// back to it, or `as_<type>` of the bits for infinities and NaNs.
    pub fn float_literal(&mut self, ty: Handle<Type>, bits: u64) -> Result<Expr> {
        let m = self.m;
        let Type::Float { width } = m.types[ty] else {
            return Err(Error::internal("a float constant of a non-float type"));
        };
        let name = self.type_name(ty)?;
        let (finite, text) = match width {
            32 => {
                let f = f32::from_bits(bits as u32);
                (f.is_finite(), format!("{f:?}f"))
            }
            64 => {
                let f = f64::from_bits(bits);
                (f.is_finite(), format!("{f:?}"))
            }
            16 => {
                let f = half_to_f32(bits as u16);
                (f.is_finite(), format!("{f:?}f"))
            }
            w => return Err(Error::unsupported(format!("a {w}-bit float"))),
        };
        if !finite {
            // Infinities by their macro (a constant expression, for initializers); NaNs by
            // their bits (OpenCL C's NAN is not one bit pattern everywhere).
            let (sign, rest) = match width {
                16 => (bits & 0x8000 != 0, bits & 0x7fff),
                32 => (bits & 0x8000_0000 != 0, bits & 0x7fff_ffff),
                _ => (bits >> 63 != 0, bits & !(1u64 << 63)),
            };
            let inf = match width {
                16 => 0x7c00,
                32 => 0x7f80_0000,
                _ => 0x7ff0_0000_0000_0000,
            };
            let word = if rest == inf { Some("INFINITY") } else { None };
            if let Some(word) = word {
                // In an initializer, a quotient: some compilers' INFINITY (NVIDIA's
                // `__int_as_float(0x7f800000)`) is no constant expression.
                let word = if self.in_initializer {
                    "(1.0f / 0.0f)"
                } else {
                    word
                };
                let e = if width == 32 {
                    Expr::atom(word)
                } else {
                    Expr::cast(&name, &Expr::atom(word))
                };
                return Ok(if sign { Expr::unary("-", &e) } else { e });
            }
            if self.in_initializer {
                // An initializer needs a constant expression: the quiet NaN of that payload.
                let (quiet, payload) = match width {
                    16 => (bits & 0x200 != 0, bits & 0x1ff),
                    32 => (bits & 0x40_0000 != 0, bits & 0x3f_ffff),
                    _ => (bits & (1 << 51) != 0, bits & ((1 << 51) - 1)),
                };
                if !quiet || width == 16 {
                    return Err(Error::unsupported(
                        "a signaling NaN or a half NaN in a program-scope initializer",
                    ));
                }
                let f = if width == 32 {
                    "__builtin_nanf"
                } else {
                    "__builtin_nan"
                };
                let e = Expr::atom(format!("{f}(\"{payload:#x}\")"));
                return Ok(if sign { Expr::unary("-", &e) } else { e });
            }
            let int = uint_name(width).unwrap_or("uint");
            let lit = self.int_literal_of_width(width, bits);
            return Ok(Expr::call(&format!("as_{name}"), &[Expr::cast(int, &lit)]));
        }
        let lit = match text.strip_prefix('-') {
            Some(rest) => Expr::unary("-", &Expr::atom(rest)),
            None => Expr::atom(text),
        };
        Ok(if width == 16 {
            Expr::cast("half", &lit)
        } else {
            lit
        })
    }

    fn int_literal_of_width(&self, width: u32, bits: u64) -> Expr {
        match width {
            64 => Expr::atom(format!("{bits:#x}UL")),
            _ => Expr::atom(format!("{bits:#x}u")),
        }
    }

    /// The expression of a constant sampler: a program-scope `__constant sampler_t`.
    pub fn sampler(&mut self, c: Handle<Constant>) -> Result<String> {
        if let Some(n) = self.samplers.get(&c) {
            return Ok(n.clone());
        }
        let ConstantKind::Sampler {
            addressing,
            normalized,
            filter,
        } = self.m.constants[c].kind
        else {
            return Err(Error::internal("a sampler constant that is not one"));
        };
        use crate::ir::constant::{SamplerAddressing as A, SamplerFilter as F};
        let addr = match addressing {
            A::None => "CLK_ADDRESS_NONE",
            A::ClampToEdge => "CLK_ADDRESS_CLAMP_TO_EDGE",
            A::Clamp => "CLK_ADDRESS_CLAMP",
            A::Repeat => "CLK_ADDRESS_REPEAT",
            A::RepeatMirrored => "CLK_ADDRESS_MIRRORED_REPEAT",
        };
        let norm = if normalized {
            "CLK_NORMALIZED_COORDS_TRUE"
        } else {
            "CLK_NORMALIZED_COORDS_FALSE"
        };
        let filt = match filter {
            F::Nearest => "CLK_FILTER_NEAREST",
            F::Linear => "CLK_FILTER_LINEAR",
        };
        let name = self.scope.fresh(Some("sampler"), "sampler");
        self.globals_text.push(format!(
            "__constant sampler_t {name} = {norm} | {addr} | {filt};\n"
        ));
        self.samplers.insert(c, name.clone());
        Ok(name)
    }
}

/// A C string literal of `bytes`: printable ASCII as is, the rest as octal escapes.
pub fn string_literal(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'?' => s.push_str("\\?"),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\{b:03o}")),
        }
    }
    s.push('"');
    s
}

/// A byte array that holds text ending in its one NUL (a string literal of the source): the
/// text without the NUL.
fn string_of(m: &crate::ir::Module, c: Handle<Constant>) -> Option<Vec<u8>> {
    let k = &m.constants[c];
    let Type::Array { elem, .. } = m.types[k.ty] else {
        return None;
    };
    if m.types[elem] != (Type::Int { width: 8 }) {
        return None;
    }
    let ConstantKind::Composite(parts) = &k.kind else {
        return None;
    };
    let bytes: Vec<u8> = parts
        .iter()
        .map(|&p| match m.constants[p].kind {
            ConstantKind::Int(b) => Some(b as u8),
            ConstantKind::Null => Some(0),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let (last, text) = bytes.split_last()?;
    let printable = |b: &u8| (0x20..0x7f).contains(b) || matches!(b, b'\n' | b'\t');
    (*last == 0 && text.iter().all(printable)).then(|| text.to_vec())
}

/// `(float4)(a, b, c, d)`, or `(float4)(a)` when every lane is one value.
pub fn vector_literal(ty: &str, lanes: &[Expr]) -> Expr {
    if lanes.windows(2).all(|w| w[0] == w[1]) && !lanes.is_empty() {
        return Expr::atom(format!("({ty})({})", lanes[0].text));
    }
    let parts: Vec<&str> = lanes.iter().map(|e| e.text.as_str()).collect();
    Expr::atom(format!("({ty})({})", parts.join(", ")))
}

/// The value of a constant integer index, if it is one, sign-extended from its width
/// (getelementptr reads indices as signed).
pub fn const_index(m: &crate::ir::Module, c: Handle<Constant>) -> Option<i64> {
    let width = match m.types[m.constants[c].ty] {
        Type::Int { width } => width,
        _ => 64,
    };
    match m.constants[c].kind {
        ConstantKind::Int(v) if width < 64 => {
            let shift = 64 - width;
            Some(((v << shift) as i64) >> shift)
        }
        ConstantKind::Int(v) => Some(v as i64),
        ConstantKind::Null => Some(0),
        _ => None,
    }
}

/// An IEEE half's value as a float (exact).
fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let exp = (h >> 10) & 0x1f;
    let frac = (h & 0x3ff) as f32;
    match exp {
        0 => sign * frac * 2f32.powi(-24),
        31 if frac == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        e => sign * (1.0 + frac / 1024.0) * 2f32.powi(e as i32 - 15),
    }
}
