//! `printf` in shader form, in clspv's convention (what clvk-style runtimes read back):
//!
//! * The module has one printf buffer, a storage buffer of 32-bit words bound in descriptor
//!   set 1 after the literal samplers (ClspvReflection PrintfBufferStorageBuffer, with the
//!   buffer's size in bytes, `--printf-buffer-size`). Word 0 counts the words written after
//!   it; the host zeroes it before a dispatch.
//! * Each `printf` call site gets an id and a record of its format string and the byte size
//!   of each argument (PrintfInfo). A string argument (`%s` of a string constant, a literal
//!   or a `__constant char[]`) is a record of its own, and the call stores that record's
//!   id (4 bytes) in its place.
//! * A call adds the words it needs to word 0 atomically, then stores its id and the words
//!   of its arguments at the offset it got: each argument in its own bytes (OpenCL C's
//!   layout: a 3-vector as 4 lanes, lanes packed), padded to a multiple of 4. Where the
//!   record does not fit, only the id is stored (so the host sees where the buffer ran out)
//!   and the call returns -1; otherwise 0.
//! * The host prints the records from word 1 up to the count, formatting each argument by
//!   its conversion with the record's sizes (tests/vkhost does, as clvk does).

use spirv::Scope;

use crate::diag::{Error, Result};
use crate::ir::{
    self, AddressSpace, BinaryOp, Builtin, CastOp, ConstantKind, Handle, IntPredicate, Op,
    Terminator, Type, Value,
};

use crate::ir::interface::PrintfFormat;

use super::body::seam::PrintfArg;
use super::body::FnBuilder;
use super::emit::E;
use super::state::Printf;

/// The text of a string constant: the bytes up to the first NUL of a byte-array global's
/// initializer, from the element `value` (a constant, or a `getelementptr` of `body` with
/// constant indices) points at. `None` for any other value.
pub(super) fn string_of(m: &ir::Module, body: &ir::Body, value: Value) -> Option<String> {
    let int = |v: Value| match v {
        Value::Const(c) => match m.constants[c].kind {
            ConstantKind::Int(k) => Some(k),
            ConstantKind::Null => Some(0),
            _ => None,
        },
        _ => None,
    };
    let (base, indices): (Value, Vec<Value>) = match value {
        Value::Inst(h) => match &body.insts[h].op {
            Op::Gep { base, indices, .. } => (*base, indices.clone()),
            Op::Cast { value, .. } => return string_of(m, body, *value),
            _ => return None,
        },
        Value::Const(c) => match &m.constants[c].kind {
            ConstantKind::GlobalAddress(_) => (value, Vec::new()),
            ConstantKind::Cast(_, inner) => return string_of(m, body, Value::Const(*inner)),
            ConstantKind::Gep { base, indices, .. } => (
                Value::Const(*base),
                indices.iter().map(|&i| Value::Const(i)).collect(),
            ),
            _ => return None,
        },
        Value::Param(_) => return None,
    };
    let Value::Const(b) = base else { return None };
    let ConstantKind::GlobalAddress(g) = m.constants[b].kind else {
        return None;
    };
    let ints: Vec<u64> = indices.into_iter().map(int).collect::<Option<_>>()?;
    let start = match ints.as_slice() {
        [] | [0] => 0,
        [0, k] => *k as usize,
        _ => return None,
    };
    let init = m.globals[g].init?;
    let ConstantKind::Composite(bytes) = &m.constants[init].kind else {
        return None;
    };
    let mut text = Vec::new();
    for &b in bytes.get(start..)? {
        if !matches!(m.types[m.constants[b].ty], Type::Int { width: 8 }) {
            return None;
        }
        match m.constants[b].kind {
            ConstantKind::Int(0) => break,
            ConstantKind::Int(k) => text.push(k as u8),
            ConstantKind::Null => break,
            _ => return None,
        }
    }
    String::from_utf8(text).ok()
}

/// The conversions of a format string, in order (`s` for `%s`, ...); `%%` is none.
fn conversions(format: &str) -> Result<Vec<char>> {
    let mut out = Vec::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            continue;
        }
        // Flags, width, precision, vector size and length modifiers, then the conversion.
        let conv = chars
            .by_ref()
            .find(|c| !matches!(c, '-' | '+' | ' ' | '#' | '0'..='9' | '.' | 'v' | 'h' | 'l'));
        match conv {
            Some(c) if "diouxXfFeEgGaAcsp".contains(c) => out.push(c),
            _ => {
                return Err(Error::unsupported(format!(
                    "a printf format with a conversion OpenCL C does not have ({})",
                    c_quoted(format)
                )))
            }
        }
    }
    Ok(out)
}

impl FnBuilder<'_, '_> {
    /// `printf(format, args...)`: the record stored in the printf buffer; the call's result
    /// (0, or -1 where the buffer is full).
    pub(super) fn printf(&mut self, args: Vec<PrintfArg>, ret: Handle<Type>) -> Result<Value> {
        let mut args = args.into_iter();
        let Some(PrintfArg::Str(format)) = args.next() else {
            return Err(Error::unsupported(
                "a printf whose format is not a string constant",
            ));
        };
        let convs = conversions(&format)?;
        let args: Vec<PrintfArg> = args.collect();
        if args.len() < convs.len() {
            return Err(Error::unsupported(format!(
                "a printf with fewer arguments than its format has conversions ({})",
                c_quoted(&format)
            )));
        }
        let id = self.next_format_id();
        let mut words = Vec::new();
        let mut sizes = Vec::new();
        for (i, a) in args.into_iter().enumerate() {
            let conv = convs.get(i).copied();
            let w = match (a, conv) {
                (PrintfArg::Str(s), Some('s')) => {
                    let sid = self.next_format_id();
                    self.printf_state().formats.push(PrintfFormat {
                        id: sid,
                        text: s,
                        arg_sizes: Vec::new(),
                    });
                    vec![self.int_const(32, u64::from(sid))]
                }
                (PrintfArg::Value(v), c) if c != Some('s') => self.words_of(v)?,
                (PrintfArg::Widened(v), c) if c != Some('s') => self.double_words(v),
                _ => {
                    return Err(Error::unsupported(format!(
                        "a printf %s of a string that is not a constant, or a string \
                         constant for another conversion ({})",
                        c_quoted(&format)
                    )))
                }
            };
            sizes.push(4 * w.len() as u32);
            words.extend(w);
        }
        self.printf_state().formats.push(PrintfFormat {
            id,
            text: format,
            arg_sizes: sizes,
        });
        self.store_record(id, &words, ret)
    }

    fn printf_state(&mut self) -> &mut Printf {
        if self.l.printf.is_none() {
            let u32t = self.l.out.int_type(32);
            let array = self.l.out.ty(Type::RuntimeArray { elem: u32t });
            let global = self.l.storage_buffer(
                "printf_buffer".into(),
                "printf_buffer.block".into(),
                vec![array],
            );
            self.l.printf = Some(Printf {
                global,
                formats: Vec::new(),
                next_id: 0,
            });
        }
        self.l.printf.as_mut().expect("made above")
    }

    fn next_format_id(&mut self) -> u32 {
        let state = self.printf_state();
        state.next_id += 1;
        state.next_id - 1
    }

    /// A pointer to word `index` (a 32-bit value) of the printf buffer.
    fn printf_word(&mut self, index: Value) -> Result<Value> {
        let g = self.printf_state().global;
        let array = self.member_of(g, 0)?;
        let zero = self.int_const(32, 0);
        self.gep(array, vec![zero, index], true)
    }

    /// Reserve `1 + words.len()` words, store the id and (where they fit) the words.
    fn store_record(&mut self, id: u32, words: &[Value], ret: Handle<Type>) -> Result<Value> {
        let u32t = self.l.out.int_type(32);
        let boolt = self.l.out.ty(Type::Bool);
        let n = self.int_const(32, 1 + words.len() as u64);
        let limit = self.int_const(32, u64::from(self.l.printf_buffer_size / 4));
        let one = self.int_const(32, 1);
        let zero = self.int_const(32, 0);
        let counter = self.printf_word(zero)?;
        let old = self.push(
            u32t,
            Op::Builtin {
                builtin: Builtin::Atomic {
                    op: crate::ir::AtomicOp::IAdd,
                    scope: Scope::Device,
                    semantics: 0,
                },
                args: vec![counter, n],
            },
        );
        let mut e = E { b: self };
        let start = e.bin(BinaryOp::Add, u32t, old, one);
        let end = e.bin(BinaryOp::Add, u32t, start, n);
        let id_fits = e.icmp(IntPredicate::Ult, boolt, start, limit);
        let fits = e.icmp(IntPredicate::Ule, boolt, end, limit);
        let store_id = self.new_block(Some("printf_id".into()));
        let store_args = self.new_block(Some("printf_args".into()));
        let done = self.new_block(Some("printf_done".into()));
        self.terminate(Terminator::CondBranch {
            cond: id_fits,
            on_true: ir::BlockId(store_id as u32),
            on_false: ir::BlockId(done as u32),
        });
        self.cur = store_id;
        let p = self.printf_word(start)?;
        let idv = self.int_const(32, u64::from(id));
        self.store(p, idv, None, false)?;
        self.terminate(Terminator::CondBranch {
            cond: fits,
            on_true: ir::BlockId(store_args as u32),
            on_false: ir::BlockId(done as u32),
        });
        self.cur = store_args;
        let mut at = start;
        for &w in words {
            at = E { b: self }.bin(BinaryOp::Add, u32t, at, one);
            let p = self.printf_word(at)?;
            self.store(p, w, None, false)?;
        }
        self.terminate(Terminator::Branch(ir::BlockId(done as u32)));
        self.cur = done;
        // printf returns an int: 0, or -1 where the record did not fit.
        let ok = self.int_const(32, 0);
        let full = self.int_const(32, u64::from(u32::MAX));
        Ok(self.push(
            ret,
            Op::Select {
                cond: fits,
                on_true: ok,
                on_false: full,
            },
        ))
    }

    /// The words of the doubles a float (or half, scalar or vector) widens to, made from its
    /// bits (exact: no Float64): each lane low word first, a 3-vector padded to 4 lanes.
    fn double_words(&mut self, v: Value) -> Vec<Value> {
        let t = self.ty_of(v);
        let lanes = self.l.out.lanes(t);
        let et = self.l.out.scalar_of(t);
        let ft = self.l.out.ty(Type::Float { width: 32 });
        let mut out = Vec::new();
        for i in 0..lanes {
            let x = if lanes == 1 {
                v
            } else {
                let idx = self.int_const(32, u64::from(i));
                self.push(
                    et,
                    Op::ExtractElement {
                        vector: v,
                        index: idx,
                    },
                )
            };
            let x = E { b: self }.fconvert(ft, x);
            let (lo, hi) = double_bits(&mut E { b: self }, x);
            out.push(lo);
            out.push(hi);
        }
        if lanes == 3 {
            let z = self.int_const(32, 0);
            out.extend([z, z]);
        }
        out
    }

    /// The 32-bit words of a printf argument in OpenCL C's layout: lanes packed (a 3-vector
    /// padded to 4 lanes), floats as their bits, 64-bit lanes low word first, the whole
    /// padded to a multiple of 4 bytes.
    fn words_of(&mut self, v: Value) -> Result<Vec<Value>> {
        let t = self.ty_of(v);
        let lanes = match self.l.out.types[t] {
            Type::Vector { len, .. } => len,
            _ => 0,
        };
        let bits = |s: &mut Self, x: Value| -> Result<(Value, u32)> {
            let xt = s.ty_of(x);
            match s.l.out.types[xt] {
                Type::Int { width } => Ok((x, width)),
                Type::Float { width } => {
                    let it = s.l.out.int_type(width);
                    Ok((E { b: s }.cast(CastOp::Bitcast, it, x), width))
                }
                Type::Pointer { space, .. } => {
                    let width = s.l.out.addressing.pointer_bits();
                    if space != AddressSpace::PhysicalStorageBuffer {
                        return Err(Error::unsupported(
                            "a printf %p of a pointer to private, local or buffer memory \
                             under logical addressing (it has no address)",
                        ));
                    }
                    // A device address has 64 bits; a 32-bit module's pointers print 32.
                    let u64t = s.l.out.int_type(64);
                    let a = E { b: s }.cast(CastOp::PtrToInt, u64t, x);
                    if width == 32 {
                        let u32t = s.l.out.int_type(32);
                        Ok((E { b: s }.cast(CastOp::Trunc, u32t, a), 32))
                    } else {
                        Ok((a, 64))
                    }
                }
                _ => Err(Error::unsupported(
                    "a printf argument that is not a number, vector or pointer",
                )),
            }
        };
        let mut parts: Vec<(Value, u32)> = Vec::new();
        if lanes == 0 {
            parts.push(bits(self, v)?);
        } else {
            for i in 0..lanes {
                let idx = self.int_const(32, u64::from(i));
                let et = self.l.out.scalar_of(t);
                let x = self.push(
                    et,
                    Op::ExtractElement {
                        vector: v,
                        index: idx,
                    },
                );
                parts.push(bits(self, x)?);
            }
            if lanes == 3 {
                let w = parts[0].1;
                let z = self.int_const(w, 0);
                parts.push((z, w));
            }
        }
        // Pack the parts into words, little end first.
        let u32t = self.l.out.int_type(32);
        let u64t = self.l.out.int_type(64);
        let mut words = Vec::new();
        let (mut acc, mut filled): (Option<Value>, u32) = (None, 0);
        for (x, w) in parts {
            if w == 64 {
                let lo = E { b: self }.cast(CastOp::Trunc, u32t, x);
                let k = self.int_const(64, 32);
                let hi = E { b: self }.bin(BinaryOp::LShr, u64t, x, k);
                let hi = E { b: self }.cast(CastOp::Trunc, u32t, hi);
                words.extend([lo, hi]);
                continue;
            }
            let x = if w < 32 {
                E { b: self }.cast(CastOp::ZExt, u32t, x)
            } else {
                x
            };
            let x = if filled > 0 {
                let k = self.int_const(32, u64::from(filled));
                E { b: self }.bin(BinaryOp::Shl, u32t, x, k)
            } else {
                x
            };
            acc = Some(match acc {
                None => x,
                Some(a) => E { b: self }.bin(BinaryOp::Or, u32t, a, x),
            });
            filled += w;
            if filled == 32 {
                words.extend(acc.take());
                filled = 0;
            }
        }
        words.extend(acc);
        Ok(words)
    }
}

/// The double a float widens to, as its (low, high) 32-bit words, from the float's bits:
/// the exponent rebiased (a subnormal normalized), the fraction shifted up by 29.
fn double_bits(e: &mut E, x: Value) -> (Value, Value) {
    use crate::ir::GlslOp as G;
    use crate::ir::{BinaryOp as B, ConstantKind, IntPredicate as I};
    let it = e.b.l.out.int_type(32);
    let bt = e.b.l.out.ty(Type::Bool);
    let k = |e: &mut E, v: u64| e.splat(it, ConstantKind::Int(v));
    let bits = e.cast(CastOp::Bitcast, it, x);
    let c23 = k(e, 23);
    let c31 = k(e, 31);
    let sign = e.bin(B::LShr, it, bits, c31);
    let sign = e.bin(B::Shl, it, sign, c31);
    let ex = e.bin(B::LShr, it, bits, c23);
    let ff = k(e, 0xff);
    let ex = e.bin(B::And, it, ex, ff);
    let fmask = k(e, 0x7f_ffff);
    let frac = e.bin(B::And, it, bits, fmask);
    let zero = k(e, 0);
    // Subnormal: shift the fraction's leading bit to bit 23 (dropped), exponent 1 − shift.
    let msb = e.glsl(G::FindUMsb, it, vec![frac]);
    let shift = e.bin(B::Sub, it, c23, msb);
    let norm = e.bin(B::Shl, it, frac, shift);
    let norm = e.bin(B::And, it, norm, fmask);
    let c897 = k(e, 897);
    let sub_ex = e.bin(B::Sub, it, c897, shift);
    let c896 = k(e, 896);
    let nor_ex = e.bin(B::Add, it, ex, c896);
    let top = k(e, 2047);
    let is_zero_ex = e.icmp(I::Eq, bt, ex, zero);
    let is_top = e.icmp(I::Eq, bt, ex, ff);
    let no_frac = e.icmp(I::Eq, bt, frac, zero);
    let is_zero = e.spirv(
        crate::ir::Primitive::LogicalAnd,
        bt,
        vec![is_zero_ex, no_frac],
    );
    let dex = e.select(it, is_zero_ex, sub_ex, nor_ex);
    let dex = e.select(it, is_top, top, dex);
    let dex = e.select(it, is_zero, zero, dex);
    let f = e.select(it, is_zero_ex, norm, frac);
    // high: sign | exponent << 20 | fraction >> 3; low: fraction << 29.
    let c20 = k(e, 20);
    let c3 = k(e, 3);
    let c29 = k(e, 29);
    let dex = e.bin(B::Shl, it, dex, c20);
    let fh = e.bin(B::LShr, it, f, c3);
    let hi = e.bin(B::Or, it, sign, dex);
    let hi = e.bin(B::Or, it, hi, fh);
    let lo = e.bin(B::Shl, it, f, c29);
    (lo, hi)
}

/// A format string as OpenCL C writes it, for messages: in double quotes, with `\n`, `\t`
/// and `\\`, and every other character that is not printable ASCII (and the quote) as
/// `\xNN` bytes.
/// (The OpenCL C writer's `clc::constants::string_literal` writes code, where a quote is
/// `\"`; a message that says `\"` reads as Rust's debug text, which tests/fuzz_readers
/// refuses, so messages write the quote as a byte.)
fn c_quoted(format: &str) -> String {
    let mut out = String::from("\"");
    for b in format.bytes() {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\x22"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
    out
}
