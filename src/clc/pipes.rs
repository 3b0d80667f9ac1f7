//! OpenCL C 2.0's pipes: a pipe parameter is declared with its packet type (the kernel
//! argument's type name where it is one OpenCL C has, else a type of the packet's size and
//! alignment, read off the pipe built-ins that use it), and each built-in by its OpenCL C
//! name, the packet pointer cast to that type.

use super::function::FnWriter;
use super::precedence::Expr;
use crate::diag::{Error, Result};
use crate::hash::HashMap;
use crate::ir::{ConstantKind, Function, Handle, Kernel, Module, Op, Type, Value};
use crate::mappings;

/// Whether a SPIR-V instruction is one of the pipe built-ins.
pub fn is_pipe(op: crate::ir::Primitive) -> bool {
    mappings::PIPE_SPELLINGS.iter().any(|p| p.op == op)
}

/// OpenCL C's scalar and vector type names (a packet type a kernel argument may name).
fn is_builtin_type_name(s: &str) -> bool {
    s != "bool" && super::names::is_type_name(s, &["", "2", "3", "4", "8", "16"])
}

/// A type of `size` bytes aligned to `align`.
fn sized_type(size: u64, align: u64) -> Option<String> {
    Some(
        match (size, align) {
            (1, _) => "uchar",
            (2, _) => "ushort",
            (4, _) => "uint",
            (8, 8) => "ulong",
            (8, _) => "uint2",
            (16, 16) => "uint4",
            (16, 8) => "ulong2",
            (32, 32) => "uint8",
            (64, 64) => "uint16",
            _ => return None,
        }
        .to_string(),
    )
}

/// The packet type of each pipe parameter of `f`.
pub fn packet_types(
    m: &Module,
    f: &Function,
    kernel: Option<&Kernel>,
) -> Result<HashMap<u32, String>> {
    let mut out = HashMap::default();
    for (i, p) in f.params.iter().enumerate() {
        if !matches!(m.types[p.ty], Type::Pipe(_)) {
            continue;
        }
        let named = kernel
            .and_then(|k| k.args.get(i))
            .map(|a| a.type_name.trim().to_string())
            .filter(|n| is_builtin_type_name(n));
        let t = match named {
            Some(n) => n,
            None => {
                let (size, align) = packet_of(m, f, i as u32).ok_or_else(|| {
                    Error::unsupported(format!(
                        "pipe parameter {i}: its packet type is not known (no built-in uses it)"
                    ))
                })?;
                sized_type(size, align).ok_or_else(|| {
                    Error::unsupported(format!(
                        "pipe parameter {i}: a packet of {size} bytes aligned to {align}"
                    ))
                })?
            }
        };
        out.insert(i as u32, t);
    }
    Ok(out)
}

/// The packet size and alignment the pipe built-ins give for parameter `param`, in `f` or
/// in a function it passes the pipe to (the Khronos translator's wrapper kernels call their
/// bodies with it), at most `depth` calls down.
fn packet_of(m: &Module, f: &Function, param: u32) -> Option<(u64, u64)> {
    packet_within(m, f, param, 4)
}

fn packet_within(m: &Module, f: &Function, param: u32, depth: u32) -> Option<(u64, u64)> {
    let body = f.body.as_ref()?;
    let passed = || {
        body.insts.iter().find_map(|(_, inst)| {
            let Op::Call { callee, args } = &inst.op else {
                return None;
            };
            let at = args.iter().position(|a| *a == Value::Param(param))?;
            packet_within(m, &m.functions[*callee], at as u32, depth.checked_sub(1)?)
        })
    };
    let used = body.insts.iter().find_map(|(_, inst)| {
        let Op::Builtin {
            builtin: crate::ir::Builtin::Primitive(op),
            args,
        } = &inst.op
        else {
            return None;
        };
        if !is_pipe(*op) || !args.contains(&Value::Param(param)) || args.len() < 2 {
            return None;
        }
        let int = |v: &Value| match v {
            Value::Const(c) => match m.constants[*c].kind {
                ConstantKind::Int(x) => Some(x),
                _ => None,
            },
            _ => None,
        };
        Some((int(&args[args.len() - 2])?, int(&args[args.len() - 1])?))
    });
    used.or_else(passed)
}

impl FnWriter<'_, '_> {
    /// A pipe built-in.
    pub fn pipe(
        &mut self,
        op: crate::ir::Primitive,
        args: &[Value],
        a: Vec<Expr>,
        tys: &[Handle<Type>],
    ) -> Result<Expr> {
        let m = self.w.m;
        self.w.needs.version(2, 0, "pipes");
        let group = matches!(
            op,
            crate::ir::Primitive::GroupReserveReadPipePackets
                | crate::ir::Primitive::GroupReserveWritePipePackets
                | crate::ir::Primitive::GroupCommitReadPipe
                | crate::ir::Primitive::GroupCommitWritePipe
        );
        let (scope, args, a, tys) = if group {
            let scope = match args.first() {
                Some(Value::Const(c)) => match m.constants[*c].kind {
                    ConstantKind::Int(s) => spirv::Scope::from_u32(s as u32),
                    _ => None,
                },
                _ => None,
            };
            let Some(scope) = scope else {
                return Err(Error::unsupported(format!(
                    "Op{op:?} whose scope is not a constant"
                )));
            };
            if scope == spirv::Scope::Subgroup {
                self.w.needs.extension("cl_khr_subgroups");
            }
            (Some(scope), &args[1..], &a[1..], &tys[1..])
        } else {
            (None, args, &a[..], tys)
        };
        let row = mappings::pipe_spelling(op, scope).map_err(Error::unsupported)?;
        // Every spelling but is_valid_reserve_id ends with the packet size and alignment.
        let n = if row.clang.is_some() {
            a.len().saturating_sub(2)
        } else {
            a.len()
        };
        let packet = match args.first().map(|&v| self.resolve(v)) {
            Some(Value::Param(i)) => self.pipe_packets.get(&i).cloned(),
            _ => None,
        };
        let mut out = Vec::new();
        for (e, &t) in a[..n].iter().zip(tys) {
            if matches!(m.types[t], Type::Pointer { .. }) {
                let p = packet.as_deref().ok_or_else(|| {
                    Error::unsupported("a pipe built-in on a pipe that is not a parameter")
                })?;
                out.push(Expr::cast(&format!("{p} *"), e));
            } else {
                out.push(e.clone());
            }
        }
        Ok(Expr::call(row.spir, &out))
    }
}
