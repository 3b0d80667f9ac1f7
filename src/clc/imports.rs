//! Calls of functions a module imports under SPIR-mangled OpenCL C builtin names (LLVM's
//! SPIR-V backend leaves OpenCL C 1.x's `atomic_inc` and others so, as imports the driver's
//! library resolves): OpenCL C calls them by their names, each pointer argument cast to the
//! parameter type the mangling names (`volatile __local uint *`), each integer argument read
//! with the signedness it names. OpenCL C cannot define such a function itself.

use super::function::FnWriter;
use super::precedence::Expr;
use crate::diag::Result;
use crate::ir::{self, Handle, Type, Value};
use crate::spir::demangle::{demangle, Demangled, MType};

/// The builtin function `f` is a declaration of, if it is one: a mangled OpenCL C builtin,
/// or clang's unmangled `__to_global` (`__to_local`, `__to_private`), OpenCL C's
/// `to_global` of a generic pointer. The first parameter of C11 atomics (`U7_Atomic` in
/// the mangling, which the demangler reads as the plain type) is made `_Atomic` again.
pub fn builtin_import(f: &ir::Function) -> Option<Demangled> {
    if f.body.is_some() || f.linkage != ir::Linkage::Import {
        return None;
    }
    if let Some(to) = f.name.strip_prefix("__") {
        if matches!(to, "to_global" | "to_local" | "to_private") {
            return Some(Demangled {
                name: to.to_string(),
                params: Vec::new(),
            });
        }
    }
    let mut d = demangle(&f.name).filter(|d| super::names::is_identifier(&d.name))?;
    if f.name.contains("U7_Atomic") {
        if let Some(MType::Pointer { pointee, .. }) = d.params.first_mut() {
            let plain = std::mem::replace(pointee.as_mut(), MType::Void);
            **pointee = MType::Atomic(Box::new(plain));
        }
    }
    Some(d)
}

/// OpenCL C's spelling of a demangled parameter type, where it has one.
fn spelling(t: &MType) -> Option<String> {
    Some(match t {
        MType::Int { bits, signed } => {
            let name = if *signed {
                super::types::sint_name(*bits)
            } else {
                super::types::uint_name(*bits)
            };
            name?.to_string()
        }
        MType::Float { bits: 16 } => "half".into(),
        MType::Float { bits: 32 } => "float".into(),
        MType::Float { bits: 64 } => "double".into(),
        MType::Vector { len, elem } => format!("{}{len}", spelling(elem)?),
        // OpenCL C's atomic types: `atomic_int`, `atomic_ulong`, `atomic_float`, ...
        MType::Atomic(t) => format!("atomic_{}", spelling(t)?),
        MType::Pointer {
            space,
            is_const,
            is_volatile,
            pointee,
        } => {
            let word = match space {
                0 => "__private ",
                1 => "__global ",
                2 => "__constant ",
                3 => "__local ",
                _ => "",
            };
            let v = if *is_volatile { "volatile " } else { "" };
            let c = if *is_const { "const " } else { "" };
            format!("{v}{c}{word}{} *", spelling(pointee)?)
        }
        _ => return None,
    })
}

impl FnWriter<'_, '_> {
    /// The call of imported builtin `d` with `args` (`a` their expressions), returning `ret`.
    pub fn builtin_import_call(
        &mut self,
        d: &Demangled,
        args: &[Value],
        a: Vec<Expr>,
        ret: Handle<Type>,
    ) -> Result<Expr> {
        let mut out = Vec::new();
        for (i, (e, &v)) in a.into_iter().zip(args).enumerate() {
            let t = self.type_of(v);
            let e = match d.params.get(i) {
                Some(p @ MType::Pointer { .. }) => match spelling(p) {
                    Some(s) => Expr::cast(&s, &e),
                    None => e,
                },
                Some(p) if d.param_sign(i) == Some(true) && spelling(p).is_some() => {
                    self.w.signed(t, &e)?
                }
                _ => e,
            };
            out.push(e);
        }
        let call = Expr::call(&d.name, &out);
        // Held unsigned, as every integer the program computes with.
        match self.w.m.types[ret] {
            Type::Int { .. } | Type::Vector { .. } => self.w.unsigned(ret, &call),
            _ => Ok(call),
        }
    }
}
