//! Small functions the program needs where OpenCL C has no builtin: copies and fills of
//! bytes (LLVM's `memcpy` and `memset`), one per address space, size type and volatility;
//! and `a * b + c` the driver may contract, one per float type.

use super::types::space_word;
use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::{Handle, Type};

impl Writer<'_> {
    fn byte_pointer(
        &mut self,
        ptr: Handle<Type>,
        volatile: bool,
        is_const: bool,
    ) -> Result<(String, String)> {
        let Type::Pointer { space, .. } = self.m.types[ptr] else {
            return Err(Error::malformed("a memory copy through a non-pointer"));
        };
        let word = space_word(space)?;
        if word.is_none() {
            self.needs.version(2, 0, "a generic pointer");
        }
        let short = match word {
            Some(w) => w
                .trim_start_matches('_')
                .chars()
                .next()
                .unwrap_or('p')
                .to_string(),
            None => "g".into(),
        };
        let short = if word == Some("__global") {
            "g".into()
        } else if word.is_none() {
            "n".into()
        } else {
            short
        };
        let mut q = String::new();
        if volatile {
            q.push_str("volatile ");
        }
        if is_const {
            q.push_str("const ");
        }
        Ok((
            format!(
                "{}{q}uchar *",
                word.map(|w| format!("{w} ")).unwrap_or_default()
            ),
            short,
        ))
    }

    /// The name of `copy_<dst>_<src>(dst, src, n)`, defined on first use.
    /// Also the pointer types of its two parameters (what the caller casts to).
    pub fn copy_helper(
        &mut self,
        dst: Handle<Type>,
        src: Handle<Type>,
        size: Handle<Type>,
        volatile: bool,
    ) -> Result<(String, String, String)> {
        let (dt, ds) = self.byte_pointer(dst, volatile, false)?;
        let (st, ss) = self.byte_pointer(src, volatile, true)?;
        let zt = self.type_name(size)?;
        let v = if volatile { "_volatile" } else { "" };
        let key = format!("copy_bytes_{ds}{ss}_{zt}{v}");
        if !self.helpers.contains_key(&key) {
            let name = self.scope.fresh(Some(&key), "copy_bytes");
            self.helpers.insert(
                key.clone(),
                format!(
                    "void {name}({dt}dst, {st}src, {zt} n) {{\n  for ({zt} i = 0; i < n; i++)\n    dst[i] = src[i];\n}}\n"
                ),
            );
            self.helper_names.insert(key.clone(), name);
        }
        Ok((self.helper_names[&key].clone(), dt, st))
    }

    /// The name of `mul_add_<T>(a, b, c)`, defined on first use: `a * b + c` under
    /// `FP_CONTRACT ON`, which the program otherwise keeps off. It is how the graph's `mad`
    /// is written (clang's contraction of the source's `a * b + c`, `llvm.fmuladd`, or the
    /// source's `mad`, which allows at least as much): the driver may fuse it exactly where
    /// it could fuse the source's, and nowhere else.
    pub fn mul_add_helper(&mut self, t: Handle<Type>) -> Result<String> {
        let tn = self.type_name(t)?;
        let key = format!("mul_add_{tn}");
        if !self.helpers.contains_key(&key) {
            let name = self.scope.fresh(Some(&key), "mul_add");
            self.helpers.insert(
                key.clone(),
                format!(
                    "#pragma OPENCL FP_CONTRACT ON\n\
                     {tn} {name}({tn} a, {tn} b, {tn} c) {{\n  return a * b + c;\n}}\n\
                     #pragma OPENCL FP_CONTRACT OFF\n"
                ),
            );
            self.helper_names.insert(key.clone(), name);
        }
        Ok(self.helper_names[&key].clone())
    }

    /// The name of `fill_<dst>(dst, byte, n)`, defined on first use, and its pointer type.
    pub fn fill_helper(
        &mut self,
        dst: Handle<Type>,
        size: Handle<Type>,
        volatile: bool,
    ) -> Result<(String, String)> {
        let (dt, ds) = self.byte_pointer(dst, volatile, false)?;
        let zt = self.type_name(size)?;
        let v = if volatile { "_volatile" } else { "" };
        let key = format!("fill_bytes_{ds}_{zt}{v}");
        if !self.helpers.contains_key(&key) {
            let name = self.scope.fresh(Some(&key), "fill_bytes");
            self.helpers.insert(
                key.clone(),
                format!(
                    "void {name}({dt}dst, uchar byte, {zt} n) {{\n  for ({zt} i = 0; i < n; i++)\n    dst[i] = byte;\n}}\n"
                ),
            );
            self.helper_names.insert(key.clone(), name);
        }
        Ok((self.helper_names[&key].clone(), dt))
    }
}
