//! SPIR name mangling (SPIR 2.0 specification, Appendix A: Itanium C++ ABI plus OpenCL vendor
//! extensions such as `U3AS1` address-space qualifiers and `ocl_*` opaque type names).
//!
//! The reader only needs what the graph keeps: a builtin's base name and the class of each
//! parameter (signedness lives nowhere else in SPIR).

/// A demangled parameter type, reduced to what builtin selection needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MType {
    Void,
    Bool,
    /// Integer of `bits` width with its signedness (`c`, plain `char`, is signed in OpenCL).
    Int {
        bits: u32,
        signed: bool,
    },
    Float {
        bits: u32,
    },
    Vector {
        len: u32,
        elem: Box<MType>,
    },
    Pointer {
        space: u32,
        is_const: bool,
        is_volatile: bool,
        pointee: Box<MType>,
    },
    /// A source name such as `ocl_image2d_ro`, `ocl_sampler`, `ocl_event`.
    Named(String),
    /// An enumeration type of OpenCL C 2.0 (`memory_order`, `memory_scope`): a source name
    /// that, unlike the builtin `ocl_*` types, is a substitution candidate.
    Enum(String),
    /// OpenCL C 2.0's `_Atomic` qualifier on a type (`U7_Atomic`), as the pointee of the C11
    /// atomics' pointers; the mangler writes it, the demangler reads the plain type.
    Atomic(Box<MType>),
}

impl MType {
    /// The scalar element (through vectors, not pointers).
    pub fn scalar(&self) -> &MType {
        match self {
            MType::Vector { elem, .. } => elem,
            t => t,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Demangled {
    pub name: String,
    pub params: Vec<MType>,
}

impl Demangled {
    /// Signedness of the first parameter's scalar: `None` for float (or no params),
    /// `Some(true)` signed, `Some(false)` unsigned.
    pub fn first_sign(&self) -> Option<bool> {
        self.param_sign(0)
    }

    pub fn param_sign(&self, i: usize) -> Option<bool> {
        let mut t = self.params.get(i)?;
        while let MType::Pointer { pointee, .. } = t {
            t = pointee;
        }
        match t.scalar() {
            MType::Int { signed, .. } => Some(*signed),
            _ => None,
        }
    }
}

/// Demangle `_Z<len><name><params>`; `None` for names that are not SPIR-mangled functions.
pub fn demangle(symbol: &str) -> Option<Demangled> {
    let rest = symbol.strip_prefix("_Z")?;
    let mut p = Parser {
        s: rest.as_bytes(),
        pos: 0,
        subs: Vec::new(),
    };
    let name = p.source_name()?;
    let mut params = Vec::new();
    while p.pos < p.s.len() {
        params.push(p.ty()?);
    }
    if params == [MType::Void] {
        params.clear();
    }
    Some(Demangled { name, params })
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    subs: Vec<MType>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        std::str::from_utf8(&self.s[start..self.pos])
            .ok()?
            .parse()
            .ok()
    }

    fn source_name(&mut self) -> Option<String> {
        let len = self.number()? as usize;
        let end = self.pos.checked_add(len)?;
        let name = std::str::from_utf8(self.s.get(self.pos..end)?)
            .ok()?
            .to_string();
        self.pos = end;
        Some(name)
    }

    /// `S_` is substitution 0, `S<base36>_` is substitution n+1.
    fn substitution(&mut self) -> Option<MType> {
        if self.eat(b'_') {
            return self.subs.first().cloned();
        }
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() && c != b'_')
        {
            self.pos += 1;
        }
        let idx =
            usize::from_str_radix(std::str::from_utf8(&self.s[start..self.pos]).ok()?, 36).ok()?;
        if !self.eat(b'_') {
            return None;
        }
        self.subs.get(idx + 1).cloned()
    }

    fn ty(&mut self) -> Option<MType> {
        let c = self.peek()?;
        self.pos += 1;
        let int = |bits, signed| Some(MType::Int { bits, signed });
        match c {
            b'v' => Some(MType::Void),
            b'b' => Some(MType::Bool),
            b'c' | b'a' => int(8, true),
            b'h' => int(8, false),
            b's' => int(16, true),
            b't' => int(16, false),
            b'i' => int(32, true),
            b'j' => int(32, false),
            b'l' | b'x' => int(64, true),
            b'm' | b'y' => int(64, false),
            b'f' => Some(MType::Float { bits: 32 }),
            b'd' => Some(MType::Float { bits: 64 }),
            b'D' => match self.peek()? {
                b'h' => {
                    self.pos += 1;
                    Some(MType::Float { bits: 16 })
                }
                b'v' => {
                    self.pos += 1;
                    let len = self.number()?;
                    if !self.eat(b'_') {
                        return None;
                    }
                    let elem = self.ty()?;
                    let t = MType::Vector {
                        len,
                        elem: Box::new(elem),
                    };
                    self.subs.push(t.clone());
                    Some(t)
                }
                _ => None,
            },
            b'P' => {
                let mut space = 0;
                let mut is_const = false;
                let mut is_volatile = false;
                let mut qualified = false;
                // `U7_Atomic` (OpenCL C 2.0's atomic types): a qualifier of the pointee type
                // itself, a substitution candidate of its own.
                let mut atomic = false;
                loop {
                    match self.peek()? {
                        b'U' => {
                            self.pos += 1;
                            let q = self.source_name()?;
                            if q == "_Atomic" {
                                atomic = true;
                            } else {
                                space = q.strip_prefix("AS")?.parse().ok()?;
                                qualified = true;
                            }
                        }
                        b'K' => {
                            self.pos += 1;
                            is_const = true;
                            qualified = true;
                        }
                        b'V' => {
                            self.pos += 1;
                            is_volatile = true;
                            qualified = true;
                        }
                        b'r' => {
                            self.pos += 1;
                            qualified = true;
                        }
                        _ => break,
                    }
                }
                let pointee = self.ty()?;
                if atomic {
                    self.subs.push(pointee.clone());
                }
                if qualified {
                    self.subs.push(MType::Pointer {
                        space,
                        is_const,
                        is_volatile,
                        pointee: Box::new(pointee.clone()),
                    });
                }
                let t = MType::Pointer {
                    space,
                    is_const,
                    is_volatile,
                    pointee: Box::new(pointee),
                };
                self.subs.push(t.clone());
                Some(t)
            }
            b'S' => self.substitution(),
            b'0'..=b'9' => {
                self.pos -= 1;
                let n = self.source_name()?;
                let t = if n == "memory_order" || n == "memory_scope" {
                    MType::Enum(n)
                } else {
                    MType::Named(n)
                };
                self.subs.push(t.clone());
                Some(t)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(bits: u32, signed: bool) -> MType {
        MType::Int { bits, signed }
    }

    #[test]
    fn scalar_and_vector_builtins() {
        let d = demangle("_Z13get_global_idj").unwrap();
        assert_eq!(d.name, "get_global_id");
        assert_eq!(d.params, vec![int(32, false)]);
        let d = demangle("_Z3maxDv4_fS_").unwrap();
        assert_eq!(d.params.len(), 2);
        assert_eq!(d.params[0], d.params[1]);
        assert_eq!(d.first_sign(), None);
        assert_eq!(demangle("_Z3absi").unwrap().first_sign(), Some(true));
        assert_eq!(demangle("_Z3absDv2_j").unwrap().first_sign(), Some(false));
    }

    #[test]
    fn atomic_types_and_enum_parameters() {
        // atomic_compare_exchange_strong_explicit(volatile atomic_int *, int *, int,
        // memory_order, memory_order, memory_scope): S4_ is memory_order, after the atomic
        // int, its qualified form, the pointer, then the plain pointer's two.
        let d = demangle(
            "_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_orderS4_12memory_scope",
        )
        .unwrap();
        assert_eq!(d.name, "atomic_compare_exchange_strong_explicit");
        assert_eq!(d.params.len(), 6);
        assert!(matches!(
            &d.params[0],
            MType::Pointer { space: 4, is_volatile: true, pointee, .. } if **pointee == int(32, true)
        ));
        assert_eq!(d.params[3], MType::Enum("memory_order".into()));
        assert_eq!(d.params[4], MType::Enum("memory_order".into()));
        assert_eq!(d.params[5], MType::Enum("memory_scope".into()));
        let d = demangle("_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicjj12memory_order").unwrap();
        assert_eq!(d.first_sign(), Some(false));
    }

    #[test]
    fn address_space_pointers_and_substitutions() {
        let d = demangle("_Z10atomic_addPU3AS1Vii").unwrap();
        assert_eq!(d.name, "atomic_add");
        assert!(matches!(
            &d.params[0],
            MType::Pointer {
                space: 1,
                is_volatile: true,
                ..
            }
        ));
        assert_eq!(d.params[1], int(32, true));
        // vload4(size_t, const __global float*)
        let d = demangle("_Z6vload4mPU3AS1Kf").unwrap();
        assert!(matches!(
            &d.params[1],
            MType::Pointer {
                space: 1,
                is_const: true,
                ..
            }
        ));
        let d = demangle("_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f").unwrap();
        assert_eq!(d.params[0], MType::Named("ocl_image2d_ro".into()));
        assert_eq!(
            d.params[2],
            MType::Vector {
                len: 2,
                elem: Box::new(MType::Float { bits: 32 })
            }
        );
        // S0_ refers to the second substitution.
        let d = demangle("_Z6selectDv4_iS_Dv4_j").unwrap();
        assert_eq!(d.params[1], d.params[0]);
        let d = demangle("_Z7shuffleDv4_fDv4_jS0_").unwrap();
        assert_eq!(d.params[2], d.params[1]);
    }

    #[test]
    fn garbage_is_rejected_not_panicking() {
        for s in [
            "_Z",
            "_Z9abc",
            "_Z3fooDv",
            "_Z3fooS9_",
            "_Z99999999999999999999x",
            "foo",
            "_Z3fooP",
        ] {
            assert!(demangle(s).is_none(), "{s}");
        }
    }
}
