//! `memcpy` and `memset` of bytes, where they do not cover one whole typed object (which
//! `memory.rs` copies member by member): between byte objects (`char` pointers, `char`
//! arrays), one byte at a time. A constant length is unrolled (up to `UNROLLED` bytes); a
//! run-time one is a loop over a counter variable, which the structurizer then shapes like
//! any other loop.

use crate::diag::{Error, Result};
use crate::ir::{BinaryOp, ConstantKind, IntPredicate, Op, Terminator, Type, Value};
use crate::ir::{BlockId, Handle};

use super::body::FnBuilder;

/// The longest constant length copied or set without a loop.
const UNROLLED: u64 = 64;

impl FnBuilder<'_, '_> {
    /// Whether `p` points to a byte or to an array of bytes (a `char` buffer's runtime array
    /// under `descriptors` too: its bytes are stepped through like any array's).
    pub(super) fn is_byte_object(&self, p: Value) -> bool {
        let Some(pointee) = self.l.out.pointee(self.ty_of(p)) else {
            return false;
        };
        let byte = |t: Handle<Type>| matches!(self.l.out.types[t], Type::Int { width: 8 });
        match self.l.out.types[pointee] {
            Type::Array { elem, .. } => byte(elem),
            _ => byte(pointee),
        }
    }

    /// The address of byte `i` of the byte object `p` points to.
    pub(super) fn byte_at(&mut self, p: Value, i: Value) -> Result<Value> {
        let pointee = self
            .l
            .out
            .pointee(self.ty_of(p))
            .ok_or_else(|| Error::internal("a byte address of a non-pointer"))?;
        if matches!(self.l.out.types[pointee], Type::Array { .. }) {
            let it = self.ty_of(i);
            let zero = Value::Const(self.l.out.int_const(it, 0));
            self.gep(p, vec![zero, i], true)
        } else {
            self.gep(p, vec![i], true)
        }
    }

    fn const_len(&self, size: Value) -> Option<u64> {
        match size {
            Value::Const(c) => match self.l.out.constants[c].kind {
                ConstantKind::Int(n) => Some(n),
                _ => None,
            },
            _ => None,
        }
    }

    /// Run `each(i)` for i in 0..size: unrolled for a small constant size, else a loop.
    pub(super) fn for_each_byte(
        &mut self,
        size: Value,
        mut each: impl FnMut(&mut Self, Value) -> Result<()>,
    ) -> Result<()> {
        let st = self.ty_of(size);
        if let Some(n) = self.const_len(size).filter(|&n| n <= UNROLLED) {
            for i in 0..n {
                let iv = Value::Const(self.l.out.int_const(st, i));
                each(self, iv)?;
            }
            return Ok(());
        }
        let counter = self.alloca(st);
        let zero = Value::Const(self.l.out.int_const(st, 0));
        self.store(counter, zero, None, false)?;
        let (head, body, exit) = (
            self.new_block(Some("bytes.head".into())),
            self.new_block(Some("bytes.body".into())),
            self.new_block(Some("bytes.exit".into())),
        );
        self.terminate(Terminator::Branch(BlockId(head as u32)));
        self.cur = head;
        let i = self.load(counter, None, false)?;
        let bt = self.l.out.ty(Type::Bool);
        let more = self.push(
            bt,
            Op::ICmp {
                pred: IntPredicate::Ult,
                lhs: i,
                rhs: size,
            },
        );
        self.terminate(Terminator::CondBranch {
            cond: more,
            on_true: BlockId(body as u32),
            on_false: BlockId(exit as u32),
        });
        self.cur = body;
        each(self, i)?;
        let one = Value::Const(self.l.out.int_const(st, 1));
        let next = self.push(
            st,
            Op::Binary {
                op: BinaryOp::Add,
                lhs: i,
                rhs: one,
                flags: Default::default(),
            },
        );
        self.store(counter, next, None, false)?;
        self.terminate(Terminator::Branch(BlockId(head as u32)));
        self.cur = exit;
        Ok(())
    }

    /// A `memcpy` of `size` bytes between byte objects, if both are; None otherwise.
    pub(super) fn copy_bytes(&mut self, dst: Value, src: Value, size: Value) -> Result<bool> {
        if !(self.is_byte_object(dst) && self.is_byte_object(src)) {
            return Ok(false);
        }
        self.for_each_byte(size, |b, i| {
            let s = b.byte_at(src, i)?;
            let x = b.load(s, None, false)?;
            let d = b.byte_at(dst, i)?;
            b.store(d, x, None, false)
        })?;
        Ok(true)
    }

    /// A `memset` of `size` bytes of a byte object, if it is one; None otherwise.
    pub(super) fn fill_bytes(&mut self, dst: Value, byte: Value, size: Value) -> Result<bool> {
        if !self.is_byte_object(dst) {
            return Ok(false);
        }
        self.for_each_byte(size, |b, i| {
            let d = b.byte_at(dst, i)?;
            b.store(d, byte, None, false)
        })?;
        Ok(true)
    }
}
