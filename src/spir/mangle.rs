//! SPIR name mangling, the encoding direction (SPIR 2.0 Appendix A: Itanium C++ ABI with
//! OpenCL's `U3ASn` address-space qualifiers and `ocl_*` type names). The decoding direction is
//! `demangle.rs`; a test proves the two agree.

use super::demangle::MType;

/// `_Z<len><name><params>` with Itanium substitutions (`S_`, `S0_`, ...).
pub fn mangle(name: &str, params: &[MType]) -> String {
    let mut m = Mangler { subs: Vec::new() };
    let mut out = format!("_Z{}{name}", name.len());
    if params.is_empty() {
        out.push('v');
    }
    for p in params {
        out.push_str(&m.ty(p));
    }
    out
}

struct Mangler {
    /// Substitution candidates by their fully expanded spelling.
    subs: Vec<String>,
}

/// The builtin-type code of a scalar, or `None` for types that are substitution candidates.
fn builtin_code(t: &MType) -> Option<String> {
    Some(match t {
        MType::Void => "v".into(),
        MType::Bool => "b".into(),
        MType::Int { bits, signed } => match (bits, signed) {
            (8, true) => "c",
            (8, false) => "h",
            (16, true) => "s",
            (16, false) => "t",
            (32, true) => "i",
            (32, false) => "j",
            (64, true) => "l",
            (64, false) => "m",
            _ => "i",
        }
        .into(),
        MType::Float { bits } => match bits {
            16 => "Dh",
            64 => "d",
            _ => "f",
        }
        .into(),
        // OpenCL types are builtin types to clang's mangler: not substitution candidates.
        MType::Named(n) => format!("{}{n}", n.len()),
        _ => return None,
    })
}

/// `U3ASn` then `V`, `K` (Itanium: vendor qualifiers before CV qualifiers, V before K).
fn qualifiers(space: u32, is_const: bool, is_volatile: bool) -> String {
    let mut q = String::new();
    if space != 0 {
        q.push_str(&format!("U3AS{space}"));
    }
    if is_volatile {
        q.push('V');
    }
    if is_const {
        q.push('K');
    }
    q
}

/// The fully expanded spelling of a type (the key substitutions are found by).
fn expanded(t: &MType) -> String {
    if let Some(c) = builtin_code(t) {
        return c;
    }
    match t {
        MType::Vector { len, elem } => format!("Dv{len}_{}", expanded(elem)),
        MType::Enum(n) => format!("{}{n}", n.len()),
        MType::Atomic(inner) => format!("U7_Atomic{}", expanded(inner)),
        MType::Pointer {
            space,
            is_const,
            is_volatile,
            pointee,
        } => format!(
            "P{}{}",
            qualifiers(*space, *is_const, *is_volatile),
            expanded(pointee)
        ),
        _ => unreachable!("scalars have builtin codes"),
    }
}

impl Mangler {
    fn lookup(&self, key: &str) -> Option<String> {
        let i = self.subs.iter().position(|s| s == key)?;
        Some(if i == 0 {
            "S_".into()
        } else {
            format!("S{}_", base36(i - 1))
        })
    }

    fn ty(&mut self, t: &MType) -> String {
        if let Some(c) = builtin_code(t) {
            return c;
        }
        let key = expanded(t);
        if let Some(s) = self.lookup(&key) {
            return s;
        }
        let out = match t {
            MType::Vector { len, elem } => format!("Dv{len}_{}", self.ty(elem)),
            MType::Enum(n) => format!("{}{n}", n.len()),
            MType::Atomic(inner) => format!("U7_Atomic{}", self.ty(inner)),
            MType::Pointer {
                space,
                is_const,
                is_volatile,
                pointee,
            } => {
                let q = qualifiers(*space, *is_const, *is_volatile);
                if q.is_empty() {
                    format!("P{}", self.ty(pointee))
                } else {
                    // The qualified pointee is a candidate of its own.
                    let qkey = format!("{q}{}", expanded(pointee));
                    let inner = match self.lookup(&qkey) {
                        Some(s) => s,
                        None => {
                            let s = format!("{q}{}", self.ty(pointee));
                            self.subs.push(qkey);
                            s
                        }
                    };
                    format!("P{inner}")
                }
            }
            _ => unreachable!("scalars have builtin codes"),
        };
        self.subs.push(key);
        out
    }
}

fn base36(mut n: usize) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut s = Vec::new();
    loop {
        s.push(DIGITS[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    s.reverse();
    String::from_utf8(s).unwrap()
}

#[cfg(test)]
mod tests {
    use super::super::demangle::demangle;
    use super::*;

    fn int(bits: u32, signed: bool) -> MType {
        MType::Int { bits, signed }
    }

    #[test]
    fn c11_atomics_mangle_as_clang_does() {
        let atomic_int_ptr = MType::Pointer {
            space: 4,
            is_const: false,
            is_volatile: true,
            pointee: Box::new(MType::Atomic(Box::new(int(32, true)))),
        };
        let int_ptr = MType::Pointer {
            space: 4,
            is_const: false,
            is_volatile: false,
            pointee: Box::new(int(32, true)),
        };
        let order = MType::Enum("memory_order".into());
        let scope = MType::Enum("memory_scope".into());
        // clang-14's symbols for these OpenCL C 2.0 declarations.
        assert_eq!(
            mangle(
                "atomic_compare_exchange_strong_explicit",
                &[atomic_int_ptr.clone(), int_ptr, int(32, true), order.clone(), order.clone(), scope.clone()]
            ),
            "_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_orderS4_12memory_scope"
        );
        assert_eq!(
            mangle(
                "atomic_fetch_add_explicit",
                &[atomic_int_ptr, int(32, true), order, scope]
            ),
            "_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope"
        );
    }
    fn f32() -> MType {
        MType::Float { bits: 32 }
    }
    fn vec(len: u32, elem: MType) -> MType {
        MType::Vector {
            len,
            elem: Box::new(elem),
        }
    }
    fn ptr(space: u32, is_const: bool, is_volatile: bool, pointee: MType) -> MType {
        MType::Pointer {
            space,
            is_const,
            is_volatile,
            pointee: Box::new(pointee),
        }
    }

    /// Spellings clang and the SPIR specification use for these builtins.
    #[test]
    fn known_spellings() {
        assert_eq!(
            mangle("get_global_id", &[int(32, false)]),
            "_Z13get_global_idj"
        );
        assert_eq!(
            mangle(
                "read_imagef",
                &[
                    MType::Named("ocl_image2d".into()),
                    MType::Named("ocl_sampler".into()),
                    vec(2, f32())
                ]
            ),
            "_Z11read_imagef11ocl_image2d11ocl_samplerDv2_f"
        );
        assert_eq!(
            mangle("dot", &[vec(4, f32()), vec(4, f32())]),
            "_Z3dotDv4_fS_"
        );
        assert_eq!(
            mangle(
                "sincos",
                &[vec(4, f32()), ptr(1, false, false, vec(4, f32()))]
            ),
            "_Z6sincosDv4_fPU3AS1S_"
        );
        assert_eq!(
            mangle("vload4", &[int(64, false), ptr(1, true, false, f32())]),
            "_Z6vload4mPU3AS1Kf"
        );
        assert_eq!(
            mangle(
                "atomic_add",
                &[ptr(1, false, true, int(32, true)), int(32, true)]
            ),
            "_Z10atomic_addPU3AS1Vii"
        );
        assert_eq!(
            mangle(
                "frexp",
                &[vec(4, f32()), ptr(1, false, false, vec(4, int(32, true)))]
            ),
            "_Z5frexpDv4_fPU3AS1Dv4_i"
        );
        assert_eq!(mangle("barrier", &[int(32, false)]), "_Z7barrierj");
        assert_eq!(mangle("get_work_dim", &[]), "_Z12get_work_dimv");
    }

    #[test]
    fn demangle_inverts_mangle() {
        let cases: Vec<(&str, Vec<MType>)> = vec![
            ("fma", vec![vec(8, f32()), vec(8, f32()), vec(8, f32())]),
            (
                "remquo",
                vec![
                    vec(2, f32()),
                    vec(2, f32()),
                    ptr(3, false, false, vec(2, int(32, true))),
                ],
            ),
            (
                "async_work_group_copy",
                vec![
                    ptr(3, false, false, vec(4, int(8, false))),
                    ptr(1, true, false, vec(4, int(8, false))),
                    int(64, false),
                    MType::Named("ocl_event".into()),
                ],
            ),
            ("upsample", vec![int(16, true), int(16, false)]),
        ];
        for (name, params) in cases {
            let s = mangle(name, &params);
            let d = demangle(&s).unwrap_or_else(|| panic!("{s} does not demangle"));
            assert_eq!(d.name, name, "{s}");
            assert_eq!(d.params, params, "{s}");
        }
    }
}
