//! LLVM intrinsics in SPIR bodies. Those that are one OpenCL.std instruction come from
//! mappings/intrinsics.toml; memory intrinsics are graph operations; the ones with no
//! instruction of their own in SPIR-V's OpenCL environment (what LLVM's optimizer makes of
//! plain OpenCL C: `llvm.bswap` from byte swaps, `llvm.bitreverse`, `llvm.fshl`/`fshr` from
//! shifts of two words, `llvm.*.with.overflow` from overflow checks, `llvm.vector.reduce.*`
//! from sums of lanes) are expanded here into the shifts, masks and compares they stand for.

use super::lowering::FnLowering;
use super::lowering::{ext, Lowered};
use crate::diag::{Error, Result};
use crate::ir::builtin::OpenclOp;
use crate::ir::{self, ArithFlags, BinaryOp, ConstantKind, IntPredicate, Op, Type, Value};
use crate::mappings;

pub(super) fn intrinsic(
    l: &mut FnLowering,
    intr: &str,
    ret: ir::Handle<Type>,
    mut args: Vec<Value>,
    align: Option<u32>,
) -> Result<Lowered> {
    // Strip the overload suffix: llvm.fabs.f32 -> llvm.fabs; llvm.memcpy.p1i8.p1i8.i64 -> llvm.memcpy.
    let base: String = {
        let mut parts: Vec<&str> = intr.split('.').collect();
        while parts.len() > 1 && is_type_suffix(parts[parts.len() - 1]) {
            parts.pop();
        }
        parts.join(".")
    };
    // On integers the graph holds wider (narrow.rs) an intrinsic would see the upper bits.
    let narrow = intr.split('.').skip(1).any(|part| {
        let t = part.trim_start_matches(|c: char| c == 'v' || c.is_ascii_digit());
        t.strip_prefix('i')
            .and_then(|w| w.parse::<u32>().ok())
            .is_some_and(|w| ![1, 8, 16, 32, 64].contains(&w))
    });
    if narrow {
        return Err(Error::unsupported(format!(
            "LLVM intrinsic llvm.{intr} on an integer of a width SPIR does not have"
        )));
    }
    let constant_bool = |l: &FnLowering, v: Value| match v {
        Value::Const(c) => matches!(l.m.constants[c].kind, ConstantKind::Int(1)),
        _ => false,
    };
    // A copy or fill of no bytes does nothing (SPIR-V's sized copy takes no size 0).
    let no_bytes = matches!(args.get(2), Some(Value::Const(c))
        if matches!(l.m.constants[*c].kind, ConstantKind::Int(0)));
    if matches!(base.as_str(), "memcpy" | "memmove" | "memset") && no_bytes {
        return Ok(Lowered::Nothing);
    }
    Ok(match base.as_str() {
        "memmove" => memmove(l, ret, &args, align, constant_bool(l, args[3]))?,
        "memcpy" => {
            let volatile = constant_bool(l, args[3]);
            Lowered::Inst(
                ret,
                Op::CopyMemory {
                    dst: args[0],
                    src: args[1],
                    size: args[2],
                    align,
                    volatile,
                },
            )
        }
        "memset" => {
            let volatile = constant_bool(l, args[3]);
            Lowered::Inst(
                ret,
                Op::FillMemory {
                    dst: args[0],
                    byte: args[1],
                    size: args[2],
                    align,
                    volatile,
                },
            )
        }
        "abs" => {
            args.truncate(1);
            ext(ret, OpenclOp::s_abs, None, args)
        }
        "ctlz" | "cttz" => {
            args.truncate(1);
            ext(
                ret,
                if base == "ctlz" {
                    OpenclOp::clz
                } else {
                    OpenclOp::ctz
                },
                None,
                args,
            )
        }
        "fshl" if args[0] == args[1] => ext(ret, OpenclOp::rotate, None, vec![args[0], args[2]]),
        "expect" | "expect.with.probability" => Lowered::Value(args[0]),
        "bswap" => Lowered::Value(Expand::new(l, ret, intr)?.bswap(args[0])),
        "bitreverse" => Lowered::Value(Expand::new(l, ret, intr)?.bitreverse(args[0])),
        "fshl" | "fshr" => {
            let mut x = Expand::new(l, ret, intr)?;
            Lowered::Value(x.funnel(base == "fshl", args[0], args[1], args[2]))
        }
        "sadd.with.overflow" | "uadd.with.overflow" | "ssub.with.overflow"
        | "usub.with.overflow" | "smul.with.overflow" | "umul.with.overflow" => {
            let ty = l.value_type(args[0]);
            let mut x = Expand::new(l, ty, intr)?;
            let (value, overflow) = x.with_overflow(&base, args[0], args[1]);
            Lowered::Value(x.pair(ret, value, overflow))
        }
        _ if base.starts_with("vector.reduce.") => {
            let what = &base["vector.reduce.".len()..];
            // Float reductions too: no constants are made of the width.
            let mut x = Expand {
                l,
                ty: ret,
                width: 0,
            };
            Lowered::Value(
                x.reduce(what, &args)
                    .ok_or_else(|| Error::unsupported(format!("LLVM intrinsic llvm.{intr}")))?,
            )
        }
        other => match mappings::intrinsic(&format!("llvm.{other}")) {
            Some(op) => ext(ret, op, None, args),
            None => return Err(Error::unsupported(format!("LLVM intrinsic llvm.{intr}"))),
        },
    })
}

fn is_type_suffix(s: &str) -> bool {
    let s = s.trim_start_matches(|c: char| c == 'v' || c.is_ascii_digit());
    matches!(s, "f16" | "f32" | "f64")
        || s.starts_with('i') && s[1..].chars().all(|c| c.is_ascii_digit()) && s.len() > 1
        || s.starts_with('p')
            && s.len() > 1
            && s[1..].chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// `llvm.memmove`: its regions may overlap, which OpCopyMemorySized does not allow for, so
/// the bytes go through a private array of the constant length first (two copies). A
/// run-time length is refused.
fn memmove(
    l: &mut FnLowering,
    ret: ir::Handle<Type>,
    args: &[Value],
    align: Option<u32>,
    volatile: bool,
) -> Result<Lowered> {
    let n = match args[2] {
        Value::Const(c) => match l.m.constants[c].kind {
            ConstantKind::Int(n) => n,
            _ => 0,
        },
        _ => {
            return Err(Error::unsupported(
                "llvm.memmove with a run-time length (its regions may overlap, and SPIR-V's \
                 copy does not allow for that)",
            ))
        }
    };
    let i8t = l.m.int_type(8);
    let array = l.m.ty(Type::Array { elem: i8t, len: n });
    let slot_ty = l.m.ty(Type::Pointer {
        pointee: array,
        space: ir::AddressSpace::Private,
    });
    let slot = Value::Inst(l.emit(
        None,
        slot_ty,
        Op::Alloca {
            allocated: array,
            // Alignment 1 said, as LLVM says it for a byte array.
            align: Some(align.unwrap_or(1)),
        },
    ));
    let copy = |l: &mut FnLowering, dst: Value, src: Value| {
        let op = Op::CopyMemory {
            dst,
            src,
            size: args[2],
            align,
            volatile,
        };
        l.emit(None, ret, op);
    };
    copy(l, slot, args[1]);
    copy(l, args[0], slot);
    Ok(Lowered::Nothing)
}

/// How a reduction combines two lanes.
type Combine<'l, 'a, 'b> = dyn Fn(&mut Expand<'l, 'a, 'b>, Value, Value) -> Value;

/// Emits the instructions of one expansion into the block being lowered, for operands of one
/// integer type (a scalar or a vector of `lanes` lanes of `width` bits).
struct Expand<'l, 'a, 'b> {
    l: &'l mut FnLowering<'a, 'b>,
    ty: ir::Handle<Type>,
    width: u32,
}

impl<'l, 'a, 'b> Expand<'l, 'a, 'b> {
    /// For values of type `ty`; `intr` names the intrinsic in errors.
    fn new(l: &'l mut FnLowering<'a, 'b>, ty: ir::Handle<Type>, intr: &str) -> Result<Self> {
        let width = match l.m.types[l.m.scalar_of(ty)] {
            Type::Int { width } if [8, 16, 32, 64].contains(&width) => width,
            _ => {
                return Err(Error::unsupported(format!(
                "LLVM intrinsic llvm.{intr} on a type other than 8-, 16-, 32- or 64-bit integers"
            )))
            }
        };
        Ok(Expand { l, ty, width })
    }

    /// The constant `v` of the operand type (splat for vectors).
    fn k(&mut self, v: u64) -> Value {
        let m = &mut *self.l.m;
        let scalar = m.scalar_of(self.ty);
        let mask = u64::MAX >> (64 - self.width);
        let c = m.int_const(scalar, v & mask);
        match m.types[self.ty] {
            Type::Vector { len, .. } => Value::Const(m.constant(ir::Constant {
                ty: self.ty,
                kind: ConstantKind::Composite(vec![c; len as usize]),
            })),
            _ => Value::Const(c),
        }
    }

    fn bin(&mut self, op: BinaryOp, lhs: Value, rhs: Value) -> Value {
        let op = Op::Binary {
            op,
            lhs,
            rhs,
            flags: ArithFlags::default(),
        };
        Value::Inst(self.l.emit(None, self.ty, op))
    }

    fn cmp(&mut self, pred: IntPredicate, lhs: Value, rhs: Value) -> Value {
        let b = self.l.m.ty(Type::Bool);
        let ty = match self.l.m.types[self.ty] {
            Type::Vector { len, .. } => self.l.m.ty(Type::Vector { elem: b, len }),
            _ => b,
        };
        Value::Inst(self.l.emit(None, ty, Op::ICmp { pred, lhs, rhs }))
    }

    /// The bytes of `x` in reverse order.
    fn bswap(&mut self, x: Value) -> Value {
        let bytes = self.width / 8;
        let mut acc = None;
        for k in 0..bytes {
            let (from, to) = (8 * k, 8 * (bytes - 1 - k));
            // Byte k moved to byte bytes-1-k: shift it there, then keep those 8 bits.
            let moved = if from < to {
                let s = self.k(u64::from(to - from));
                self.bin(BinaryOp::Shl, x, s)
            } else if from > to {
                let s = self.k(u64::from(from - to));
                self.bin(BinaryOp::LShr, x, s)
            } else {
                x
            };
            let part = if to == 8 * (bytes - 1) && from == 0 || to == 0 && from == 8 * (bytes - 1) {
                // The shift alone leaves only this byte.
                moved
            } else {
                let mask = self.k(0xff << to);
                self.bin(BinaryOp::And, moved, mask)
            };
            acc = Some(match acc {
                None => part,
                Some(a) => self.bin(BinaryOp::Or, a, part),
            });
        }
        acc.unwrap_or(x)
    }

    /// The bits of `x` in reverse order: swap neighbouring bits, pairs, nibbles, then bytes.
    fn bitreverse(&mut self, x: Value) -> Value {
        let mut x = x;
        for (shift, pattern) in [(1u64, 0x55u64), (2, 0x33), (4, 0x0f)] {
            let mask = self.k(pattern * (u64::MAX / 0xff));
            let s = self.k(shift);
            let high = self.bin(BinaryOp::LShr, x, s);
            let high = self.bin(BinaryOp::And, high, mask);
            let low = self.bin(BinaryOp::And, x, mask);
            let low = self.bin(BinaryOp::Shl, low, s);
            x = self.bin(BinaryOp::Or, high, low);
        }
        if self.width > 8 {
            self.bswap(x)
        } else {
            x
        }
    }

    /// `fshl(a, b, c)`: the high word of `a:b` shifted left by `c` modulo the width;
    /// `fshr(a, b, c)`: the low word of `a:b` shifted right by `c` modulo the width.
    fn funnel(&mut self, left: bool, a: Value, b: Value, c: Value) -> Value {
        let w = u64::from(self.width);
        let amount = match c {
            Value::Const(k) => match self.l.m.constants[k].kind {
                ConstantKind::Int(v) => Some(v % w),
                ConstantKind::Null => Some(0),
                _ => None,
            },
            _ => None,
        };
        match amount {
            Some(0) => {
                if left {
                    a
                } else {
                    b
                }
            }
            Some(s) => {
                let (l, r) = if left { (s, w - s) } else { (w - s, s) };
                let (l, r) = (self.k(l), self.k(r));
                let hi = self.bin(BinaryOp::Shl, a, l);
                let lo = self.bin(BinaryOp::LShr, b, r);
                self.bin(BinaryOp::Or, hi, lo)
            }
            None => {
                // s = c mod w; the shift by w - s is split in two so that no shift is by w.
                let (m, one) = (self.k(w - 1), self.k(1));
                let s = self.bin(BinaryOp::And, c, m);
                let rest = self.bin(BinaryOp::Sub, m, s);
                if left {
                    let hi = self.bin(BinaryOp::Shl, a, s);
                    let lo = self.bin(BinaryOp::LShr, b, one);
                    let lo = self.bin(BinaryOp::LShr, lo, rest);
                    self.bin(BinaryOp::Or, hi, lo)
                } else {
                    let lo = self.bin(BinaryOp::LShr, b, s);
                    let hi = self.bin(BinaryOp::Shl, a, one);
                    let hi = self.bin(BinaryOp::Shl, hi, rest);
                    self.bin(BinaryOp::Or, hi, lo)
                }
            }
        }
    }

    /// The result and the overflow flag of `llvm.<base>` (`sadd.with.overflow`, ...).
    fn with_overflow(&mut self, base: &str, a: Value, b: Value) -> (Value, Value) {
        let zero = self.k(0);
        match base {
            "sadd.with.overflow" | "ssub.with.overflow" => {
                let add = base.starts_with("sadd");
                let r = self.bin(if add { BinaryOp::Add } else { BinaryOp::Sub }, a, b);
                // Overflow when the operands' signs make it possible and the result's differs.
                let (x, y) = if add {
                    (self.bin(BinaryOp::Xor, a, r), self.bin(BinaryOp::Xor, b, r))
                } else {
                    (self.bin(BinaryOp::Xor, a, b), self.bin(BinaryOp::Xor, a, r))
                };
                let both = self.bin(BinaryOp::And, x, y);
                (r, self.cmp(IntPredicate::Slt, both, zero))
            }
            "uadd.with.overflow" => {
                let r = self.bin(BinaryOp::Add, a, b);
                (r, self.cmp(IntPredicate::Ult, r, a))
            }
            "usub.with.overflow" => {
                let r = self.bin(BinaryOp::Sub, a, b);
                (r, self.cmp(IntPredicate::Ult, a, b))
            }
            _ => {
                let signed = base.starts_with("smul");
                let r = self.bin(BinaryOp::Mul, a, b);
                let op = if signed {
                    OpenclOp::s_mul_hi
                } else {
                    OpenclOp::u_mul_hi
                };
                let hi = Value::Inst(self.l.emit(
                    None,
                    self.ty,
                    Op::Builtin {
                        builtin: ir::Builtin::ExtInst { op, literal: None },
                        args: vec![a, b],
                    },
                ));
                // The high word is the sign of the low word's, unless it overflowed.
                let expected = if signed {
                    let s = self.k(u64::from(self.width - 1));
                    self.bin(BinaryOp::AShr, r, s)
                } else {
                    zero
                };
                (r, self.cmp(IntPredicate::Ne, hi, expected))
            }
        }
    }

    /// The `{ value, flag }` struct of type `ty`.
    fn pair(&mut self, ty: ir::Handle<Type>, value: Value, flag: Value) -> Value {
        let undef = Value::Const(self.l.m.constant(ir::Constant {
            ty,
            kind: ConstantKind::Undef,
        }));
        let mut acc = undef;
        for (i, element) in [value, flag].into_iter().enumerate() {
            let op = Op::InsertValue {
                aggregate: acc,
                element,
                indices: vec![i as u32],
            };
            acc = Value::Inst(self.l.emit(None, ty, op));
        }
        acc
    }

    /// `llvm.vector.reduce.<what>`: the lanes combined in order (`args` is the vector, or the
    /// start value and the vector for the ordered float reductions).
    fn reduce(&mut self, what: &str, args: &[Value]) -> Option<Value> {
        let (start, vector) = match args {
            [v] => (None, *v),
            [s, v] => (Some(*s), *v),
            _ => return None,
        };
        let vty = self.l.value_type(vector);
        let Type::Vector { elem, len } = self.l.m.types[vty] else {
            return None;
        };
        let i32_ty = self.l.m.int_type(32);
        let lanes: Vec<Value> = (0..len)
            .map(|i| {
                let index = Value::Const(self.l.m.int_const(i32_ty, u64::from(i)));
                Value::Inst(
                    self.l
                        .emit(None, elem, Op::ExtractElement { vector, index }),
                )
            })
            .collect();
        let combine: Box<Combine<'l, 'a, 'b>> = match what {
            "add" | "mul" | "and" | "or" | "xor" | "fadd" | "fmul" => {
                let op = match what {
                    "add" => BinaryOp::Add,
                    "mul" => BinaryOp::Mul,
                    "and" => BinaryOp::And,
                    "or" => BinaryOp::Or,
                    "xor" => BinaryOp::Xor,
                    "fadd" => BinaryOp::FAdd,
                    _ => BinaryOp::FMul,
                };
                Box::new(move |x: &mut Self, a, b| x.bin(op, a, b))
            }
            "smax" | "smin" | "umax" | "umin" | "fmax" | "fmin" => {
                let op = match what {
                    "smax" => OpenclOp::s_max,
                    "smin" => OpenclOp::s_min,
                    "umax" => OpenclOp::u_max,
                    "umin" => OpenclOp::u_min,
                    "fmax" => OpenclOp::fmax,
                    _ => OpenclOp::fmin,
                };
                Box::new(move |x: &mut Self, a, b| {
                    let builtin = ir::Builtin::ExtInst { op, literal: None };
                    let op = Op::Builtin {
                        builtin,
                        args: vec![a, b],
                    };
                    Value::Inst(x.l.emit(None, x.ty, op))
                })
            }
            _ => return None,
        };
        let mut acc = start;
        for lane in lanes {
            acc = Some(match acc {
                None => lane,
                Some(a) => combine(self, a, lane),
            });
        }
        acc
    }
}
