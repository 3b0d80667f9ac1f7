//! OpenCL C 2.0's device-side enqueue. clang compiles a block to a literal in the parent's
//! private memory (its size, alignment, invoke function and captured values) and a kernel
//! that takes the literal's address (and the `__local` pointers the block declares); the
//! graph enqueues that kernel with the literal's address (`OpEnqueueKernel`). OpenCL C has
//! no other way to name a kernel for `enqueue_kernel` than a block, so each enqueue is
//! written as a block that calls the invoke kernel (written as a plain function) with the
//! address of the literal: the block captures the literal variable by value when it is made,
//! as clang's own block captured the values the literal holds, and the invoke reads them
//! from the captured copy at the offsets it always did. The literal's invoke field is
//! written as a null pointer (OpenCL C has no function addresses; no invoke reads it).

use crate::ir::Primitive as S;

use super::function::{FnWriter, Kind};
use super::precedence::Expr;
use crate::diag::{Error, Result};
use crate::hash::HashSet;
use crate::ir::{self, ConstantKind, Function, Handle, Op, Type, Value};
use crate::mappings;

/// Whether a SPIR-V instruction is one of device-side enqueue's: the one-instruction
/// functions of mappings/enqueue.toml, `ndrange_*D`, and those that take a block.
pub fn is_enqueue(op: S) -> bool {
    op == S::BuildNDRange || invoke_at(op).is_some() || one_to_one(op).is_some()
}

/// The OpenCL C name of a one-instruction device-enqueue function (mappings/enqueue.toml).
fn one_to_one(op: S) -> Option<&'static str> {
    mappings::ENQUEUE_FUNCTIONS
        .iter()
        .find(|(o, _, _)| *o == op)
        .map(|(_, name, _)| *name)
}

/// The operand index of the invoke function of an instruction that takes a block.
fn invoke_at(op: S) -> Option<usize> {
    match op {
        S::EnqueueKernel => Some(6),
        S::GetKernelWorkGroupSize | S::GetKernelPreferredWorkGroupSizeMultiple => Some(0),
        S::GetKernelNDrangeSubGroupCount | S::GetKernelNDrangeMaxSubGroupSize => Some(1),
        _ => None,
    }
}

/// The functions enqueued as blocks' kernels: written as plain functions a block calls.
pub fn invoked(m: &ir::Module) -> HashSet<Handle<Function>> {
    let mut out = HashSet::default();
    for (_, f) in m.functions.iter() {
        let Some(body) = &f.body else { continue };
        for (_, inst) in body.insts.iter() {
            let Op::Builtin {
                builtin: ir::Builtin::Primitive(op),
                args,
            } = &inst.op
            else {
                continue;
            };
            if let Some(Value::Const(c)) = invoke_at(*op).and_then(|i| args.get(i)) {
                if let ConstantKind::FunctionAddress(h) = m.constants[*c].kind {
                    out.insert(h);
                }
            }
        }
    }
    out
}

/// The Khronos translator's entry points of enqueued invoke kernels (`invoked`): a kernel
/// of the same name that takes the literal's generic address and calls the invoke. No host
/// can set such an argument and OpenCL C has no kernel of a generic or private pointer; the
/// block calls the invoke itself, so the program leaves the wrapper out.
pub fn invoke_wrappers(
    m: &ir::Module,
    invoked: &HashSet<Handle<Function>>,
) -> HashSet<Handle<Function>> {
    let mut out = HashSet::default();
    for (h, f) in m.functions.iter() {
        let Some(body) = &f.body else { continue };
        let unaddressable = f.params.iter().any(|p| {
            matches!(
                m.types[p.ty],
                Type::Pointer {
                    space: ir::AddressSpace::Generic | ir::AddressSpace::Private,
                    ..
                }
            )
        });
        let calls_invoke = body.insts.iter().any(
            |(_, inst)| matches!(&inst.op, Op::Call { callee, .. } if invoked.contains(callee)),
        );
        if f.is_kernel && !invoked.contains(&h) && unaddressable && calls_invoke {
            out.insert(h);
        }
    }
    out
}

impl FnWriter<'_, '_> {
    /// A device-side enqueue instruction's expression.
    pub fn enqueue(&mut self, op: S, args: &[Value], ret: Handle<Type>) -> Result<Expr> {
        self.w.needs.version(2, 0, "device-side enqueue");
        let fewest = match op {
            S::EnqueueKernel => 10,
            S::GetKernelNDrangeSubGroupCount | S::GetKernelNDrangeMaxSubGroupSize => 5,
            S::GetKernelWorkGroupSize | S::GetKernelPreferredWorkGroupSizeMultiple => 4,
            S::BuildNDRange | S::CaptureEventProfilingInfo => 3,
            S::SetUserEventStatus => 2,
            _ => 0,
        };
        if args.len() < fewest {
            return Err(Error::malformed(format!(
                "Op{op:?} with {} operands (it takes at least {fewest})",
                args.len()
            )));
        }
        let uint = |e: Expr| Expr::cast("uint", &e);
        Ok(match op {
            S::BuildNDRange => return self.ndrange(args),
            S::EnqueueKernel => {
                let mut a = Vec::new();
                for &v in &args[..6] {
                    a.push(self.operand(v)?);
                }
                let flags = Expr::cast("kernel_enqueue_flags_t", &a[1]);
                let nd = self.pointed(args[2], a[2].clone());
                let block = self.block(args[6], args[7])?;
                let mut call = vec![a[0].clone(), flags, nd];
                call.extend([a[3].clone(), a[4].clone(), a[5].clone(), block]);
                // clang passes each `__local` size through a pointer to it.
                for &size in &args[10..] {
                    let s = self.operand(size)?;
                    call.push(uint(self.pointed(size, s)));
                }
                uint(Expr::call("enqueue_kernel", &call))
            }
            S::GetKernelWorkGroupSize | S::GetKernelPreferredWorkGroupSizeMultiple => {
                let block = self.block(args[0], args[1])?;
                let name = if op == S::GetKernelWorkGroupSize {
                    "get_kernel_work_group_size"
                } else {
                    "get_kernel_preferred_work_group_size_multiple"
                };
                Expr::call(name, &[block])
            }
            S::GetKernelNDrangeSubGroupCount | S::GetKernelNDrangeMaxSubGroupSize => {
                self.w.needs.extension("cl_khr_subgroups");
                let nd = self.operand(args[0])?;
                let nd = self.pointed(args[0], nd);
                let block = self.block(args[1], args[2])?;
                let name = if op == S::GetKernelNDrangeSubGroupCount {
                    "get_kernel_sub_group_count_for_ndrange"
                } else {
                    "get_kernel_max_sub_group_size_for_ndrange"
                };
                Expr::call(name, &[nd, block])
            }
            _ => {
                let name = one_to_one(op).ok_or_else(|| {
                    Error::internal(format!("Op{op:?} taken for device-side enqueue"))
                })?;
                let mut a = Vec::new();
                for &v in args {
                    a.push(self.operand(v)?);
                }
                // The graph's integers are unsigned; these operands are int and an enum.
                match op {
                    S::SetUserEventStatus => a[1] = Expr::cast("int", &a[1]),
                    S::CaptureEventProfilingInfo => a[1] = Expr::cast("clk_profiling_info", &a[1]),
                    _ => {}
                }
                let call = Expr::call(name, &a);
                match self.w.m.types[ret] {
                    Type::Int { .. } => uint(call),
                    _ => call,
                }
            }
        })
    }

    /// `e`, the expression of `v`, or what it points to where `v` is a pointer (clang passes
    /// ND ranges and `__local` sizes through pointers).
    fn pointed(&self, v: Value, e: Expr) -> Expr {
        match self.w.m.types[self.type_of(v)] {
            Type::Pointer { .. } => Expr::unary("*", &e),
            _ => e,
        }
    }

    /// `ndrange_1D` to `ndrange_3D` (offset, global size, local size): scalars for one
    /// dimension, arrays (the pointer the array was loaded through) for two and three.
    fn ndrange(&mut self, args: &[Value]) -> Result<Expr> {
        let m = self.w.m;
        let (gs, ls, off) = (args[0], args[1], args[2]);
        let dims = match m.types[self.type_of(gs)] {
            Type::Array { len, .. } => len,
            _ => {
                let a = [self.operand(off)?, self.operand(gs)?, self.operand(ls)?];
                return Ok(Expr::call("ndrange_1D", &a));
            }
        };
        // A zero offset (and local size) is the overload without it.
        let null = |v: Value| match v {
            Value::Const(c) => matches!(
                m.constants[c].kind,
                ConstantKind::Null | ConstantKind::Undef
            ),
            _ => false,
        };
        let given: &[Value] = match (null(off), null(ls)) {
            (true, true) => &[gs],
            (true, false) => &[gs, ls],
            (false, false) => &[off, gs, ls],
            (false, true) => {
                return Err(Error::unsupported(
                    "an ND range with an offset and no local size (no ndrange_2D or \
                     ndrange_3D takes those)",
                ))
            }
        };
        let mut a = Vec::new();
        for &v in given {
            a.push(self.size_array(v)?);
        }
        Ok(Expr::call(&format!("ndrange_{dims}D"), &a))
    }

    /// An array of sizes as the pointer `ndrange_2D` and `ndrange_3D` take: the address of
    /// the array it was loaded as.
    fn size_array(&mut self, v: Value) -> Result<Expr> {
        // A loaded array (`*p`) decays to the pointer it was loaded through.
        let loaded = match self.resolve(v) {
            Value::Inst(h) => matches!(self.body.insts[h].op, Op::Load { .. }),
            _ => false,
        };
        if !loaded {
            return Err(Error::unsupported(
                "an ND range's sizes that are not an array in memory",
            ));
        }
        // The graph's array value is OpenCL C's struct wrapping the array (types.rs): its
        // address is the array's.
        let a = self.operand(v)?;
        Ok(Expr::cast(
            "const __private size_t *",
            &Expr::unary("&", &a),
        ))
    }

    fn invoke_function(&self, f: Value) -> Result<Handle<Function>> {
        if let Value::Const(c) = f {
            if let ConstantKind::FunctionAddress(h) = self.w.m.constants[c].kind {
                return Ok(h);
            }
        }
        Err(Error::unsupported(
            "an enqueued kernel that is not a function",
        ))
    }

    /// A block calling invoke function `f` with the literal `literal` points to, and the
    /// `__local` pointers `f` takes after it, as the block's own parameters.
    fn block(&mut self, f: Value, literal: Value) -> Result<Expr> {
        let h = self.invoke_function(f)?;
        let name = self.w.function_name(h)?;
        let m = self.w.m;
        let params = &m.functions[h].params;
        let first = params.first().ok_or_else(|| {
            Error::malformed(format!(
                "the enqueued kernel '{name}' takes no block literal"
            ))
        })?;
        let lit_ty = self.w.type_name(first.ty)?;
        let (copy, lit) = match self.literal_root(literal) {
            // A block of program scope (no captures): its literal is a program-scope
            // constant, which a block names without capturing it.
            Value::Const(c) => {
                let e = self.w.constant(c)?;
                (String::new(), format!("({lit_ty})({})", e.text))
            }
            // A capture's address cannot be taken: the block copies it and passes the copy's.
            Value::Inst(v) => {
                let (var, var_ty) = self.literal_variable(v)?;
                let copy = super::types::declare(&var_ty, "literal");
                (format!("{copy} = {var}; "), format!("({lit_ty})&literal"))
            }
            Value::Param(_) => return Err(literal_refused()),
        };
        let locals = params.len() - 1;
        let mut call_args = vec![lit];
        call_args.extend((0..locals).map(|i| format!("l{i}")));
        let head = if locals == 0 {
            "^".to_string()
        } else {
            let ps: Vec<String> = (0..locals).map(|i| format!("__local void *l{i}")).collect();
            format!("^({})", ps.join(", "))
        };
        Ok(Expr::atom(format!(
            "{head}{{ {copy}{name}({}); }}",
            call_args.join(", ")
        )))
    }

    /// What a pointer to a block literal is, through casts: a variable or a constant.
    fn literal_root(&self, v: Value) -> Value {
        let mut v = self.resolve(v);
        while let Value::Inst(h) = v {
            match &self.body.insts[h].op {
                Op::Cast { value, .. } => v = self.resolve(*value),
                _ => break,
            }
        }
        v
    }

    /// The variable holding a block literal (the root of the pointer to it) and its type.
    fn literal_variable(&mut self, h: Handle<ir::Inst>) -> Result<(String, String)> {
        match self.body.insts[h].op {
            Op::Alloca { allocated, .. } if self.kind.get(&h) == Some(&Kind::Var) => {
                let var = self.variable_name(h).ok_or_else(literal_refused)?;
                Ok((var, self.w.type_name(allocated)?))
            }
            _ => Err(literal_refused()),
        }
    }
}

fn literal_refused() -> Error {
    Error::unsupported(
        "a block literal that is neither a variable of the enqueuing function nor a \
         program-scope constant (OpenCL C captures a block's values where the block is written)",
    )
}
