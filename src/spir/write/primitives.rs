//! The graph's primitives in real SPIR: each the OpenCL C builtin that computes it (`dot`,
//! `isnan`, `popcount`, the extended bit operations, `dot` of cl_khr_integer_dot_product,
//! `to_global`, `get_fence`, the channel queries), or refused by name where OpenCL C has none.
//! The pipes and device-side enqueue are pipes.rs's and enqueue.rs's.

use crate::ir::Primitive as S;

use super::builtins::scalar_bits;
use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::primitive::{enqueue_primitives, pipe_primitives};
use crate::ir::{self, Sign, Type};
use crate::llvm::{self, Opcode};
use crate::mappings;
use crate::mappings::channel_query;
use crate::spir::demangle::MType;
use crate::spir::opencl_names::{float_test_name, no_opencl_c_builtin};

impl<'a> Writer<'a> {
    /// An integer dot product as the `cl_khr_integer_dot_product` builtin (OpenCL C 3.0) of
    /// `char4`/`uchar4` or packed `uint` factors. Those builtins return `int` or `uint`; the plain
    /// forms' sum always fits in 32 bits, so a narrower or wider result is that sum truncated or
    /// extended.
    fn integer_dot(
        &mut self,
        op: S,
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let d = op
            .integer_dot()
            .ok_or_else(|| Error::internal("not an integer dot"))?;
        let m = self.m;
        let packed = m.lanes(tys[0]) == 1;
        let bytes = matches!(m.types[tys[0]], Type::Vector { elem, len: 4 }
            if m.types[elem] == Type::Int { width: 8 });
        if !packed && !bytes {
            let t = m
                .opencl_type_name(tys[0], true)
                .unwrap_or_else(|| "other".into());
            return Err(self.no_spelling(format!(
                "an integer dot product of {t} vectors (OpenCL C's dot takes char4 and uchar4)"
            )));
        }
        let width = rt.int_width().unwrap_or(0);
        if d.accumulate && width != 32 {
            return Err(self.no_spelling(format!(
                "a saturating integer dot product into a {width}-bit integer (OpenCL C's \
                 dot_acc_sat returns int or uint)"
            )));
        }
        let factor = |s: Sign| match packed {
            true => MType::Int {
                bits: 32,
                signed: false,
            },
            false => MType::Vector {
                len: 4,
                elem: Box::new(MType::Int {
                    bits: 8,
                    signed: s == Sign::Signed,
                }),
            },
        };
        let mut p = vec![factor(d.first), factor(d.second)];
        if d.accumulate {
            p.push(MType::Int {
                bits: 32,
                signed: d.signed_result(),
            });
        }
        let name = crate::spir::opencl_names::integer_dot_name(d, packed);
        let i32t = self.llvm.int_type(32)?;
        let r = self.call_builtin(&name, &p, i32t, a, if width == 32 { out } else { "" })?;
        Ok(match width {
            32 => r,
            w if w < 32 => self.b.cast(Opcode::LLVMTrunc, r, rt, out)?,
            _ if d.signed_result() => self.b.cast(Opcode::LLVMSExt, r, rt, out)?,
            _ => self.b.cast(Opcode::LLVMZExt, r, rt, out)?,
        })
    }

    /// SPIR-V instructions the graph keeps as such, in OpenCL C where it has a spelling.
    /// Primitive `op` as the OpenCL C builtin that computes it (the pipes and device-side
    /// enqueue in pipes.rs and enqueue.rs).
    pub(super) fn primitive(
        &mut self,
        op: S,
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        Ok(match op {
            S::Dot => {
                let p = self.mtypes(tys, true)?;
                self.call_builtin("dot", &p, rt, a, out)?
            }
            S::BitCount => {
                let p = self.mtypes(tys, true)?;
                self.call_builtin("popcount", &p, rt, a, out)?
            }
            S::SDot | S::UDot | S::SUDot | S::SDotAccSat | S::UDotAccSat | S::SUDotAccSat => {
                self.integer_dot(op, a, tys, rt, out)?
            }
            S::BitFieldInsert | S::BitFieldSExtract | S::BitFieldUExtract | S::BitReverse => {
                // cl_khr_extended_bit_ops: every integer type has an overload, the offset and
                // count are uint.
                let name = mappings::extended_bit_op_name(op)
                    .ok_or_else(|| Error::internal(format!("{op:?} without its name")))?;
                let values = if op == S::BitFieldInsert { 2 } else { 1 };
                let mut p = self.mtypes(&tys[..values], false)?;
                let mut args = a[..values].to_vec();
                let uint = self.llvm.int_type(32)?;
                for &v in &a[values..] {
                    args.push(self.fit_int(v, uint, "")?);
                    p.push(MType::Int {
                        bits: 32,
                        signed: false,
                    });
                }
                self.call_builtin(name, &p, rt, &args, out)?
            }
            S::IsNan
            | S::IsInf
            | S::IsFinite
            | S::IsNormal
            | S::SignBitSet
            | S::LessOrGreater
            | S::Ordered
            | S::Unordered => {
                // The OpenCL builtin returns int (1/0) or intN (-1/0); the SPIR-V result is bool.
                let name = float_test_name(op)
                    .ok_or_else(|| Error::internal(format!("relational {op:?}")))?;
                let lanes = self.m.lanes(tys[0]);
                let ew = scalar_bits(self.m, tys[0]);
                let e = self.llvm.int_type(if lanes == 1 { 32 } else { ew })?;
                let it = if lanes == 1 { e } else { e.vector_of(lanes)? };
                let p = self.mtypes(tys, true)?;
                let r = self.call_builtin(name, &p, it, a, "")?;
                self.is_nonzero(r, it, out)?
            }
            S::Any | S::All => {
                // any/all test the sign bit of integer lanes: widen the booleans to -1/0.
                let lanes = self.m.lanes(tys[0]);
                let it = self.llvm.int_type(32)?;
                let vt = it.vector_of(lanes)?;
                let wide = self.b.cast(Opcode::LLVMSExt, a[0], vt, "")?;
                let p = [MType::Vector {
                    len: lanes,
                    elem: Box::new(MType::Int {
                        bits: 32,
                        signed: true,
                    }),
                }];
                let name = if op == S::Any { "any" } else { "all" };
                let r = self.call_builtin(name, &p, it, &[wide], "")?;
                self.is_nonzero(r, it, out)?
            }
            S::ImageQueryFormat | S::ImageQueryOrder => {
                // SPIR-V's enumerant is OpenCL's CL_* value minus a fixed offset.
                let q = channel_query(|q| q.primitive == op)
                    .ok_or_else(|| Error::internal("a channel query without a table row"))?;
                let p = self.mtypes(tys, true)?;
                let v = self.call_builtin(q.opencl, &p, rt, a, "")?;
                let off = self.llvm.const_int(rt, q.cl_offset)?;
                self.b.binary(Opcode::LLVMSub, v, off, out)?
            }
            S::GenericCastToPtrExplicit => self.generic_cast(a, rt, out)?,
            S::GenericPtrMemSemantics => self.get_fence(a, rt, out)?,
            no_opencl_c_builtin!() => {
                let spelled = mappings::opcode(op);
                return Err(self.no_spelling(format!("SPIR-V instruction Op{spelled:?}")));
            }
            pipe_primitives!() | enqueue_primitives!() => {
                return Err(Error::internal(format!(
                    "{op:?} reached the writer of primitives, not of pipes and enqueue"
                )))
            }
        })
    }

    /// `to_global`, `to_local` or `to_private` of `a[0]`, in clang's spelling: `__to_global`
    /// (`__to_local`, `__to_private`) on `i8` pointers, the result cast back to `rt`.
    fn generic_cast(
        &mut self,
        a: &[llvm::Value<'a>],
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let space = rt
            .address_space()
            .ok_or_else(|| Error::internal("a generic cast to a non-pointer"))?;
        let name = match space {
            1 => "__to_global",
            3 => "__to_local",
            0 => "__to_private",
            _ => {
                return Err(self.no_spelling(format!(
                    "a cast of a generic pointer to address space {space}"
                )))
            }
        };
        let from = self
            .b
            .cast(Opcode::LLVMBitCast, a[0], self.i8_ptr(4)?, "")?;
        let r = self.call_symbol(name, self.i8_ptr(space)?, &[from], false, "")?;
        Ok(self.b.cast(Opcode::LLVMBitCast, r, rt, out)?)
    }

    /// `get_fence` of `a[0]` as SPIR-V's memory semantics: its CLK_LOCAL_MEM_FENCE (1) and
    /// CLK_GLOBAL_MEM_FENCE (2) are the storage bits 0x100 and 0x200 shifted down by 8.
    fn get_fence(
        &mut self,
        a: &[llvm::Value<'a>],
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let p = [MType::Pointer {
            space: 4,
            is_const: true,
            is_volatile: false,
            pointee: Box::new(MType::Void),
        }];
        let from = self
            .b
            .cast(Opcode::LLVMBitCast, a[0], self.i8_ptr(4)?, "")?;
        let flags = self.call_builtin("get_fence", &p, rt, &[from], "")?;
        let eight = self.llvm.const_int(rt, 8)?;
        Ok(self.b.binary(Opcode::LLVMShl, flags, eight, out)?)
    }
}
