//! Program-scope variables in the global address space (OpenCL C 2.0's `__global int
//! table[4] = {...};` at file scope). OpenCL gives each one copy, shared by every work-item
//! of every kernel of the program and kept between kernel runs. A variable that no kernel
//! writes, and whose address never leaves the loads that read it, holds its initializer
//! for the program's whole life: a copy in each invocation's Private memory (what
//! `__constant` tables become) then computes the same, with no buffer for the host to
//! bind. The others live in one buffer the host makes from their initial bytes and keeps
//! for the program's life (`Layout`): under physical pointers its device address is the
//! first 8 bytes of every kernel's push constants (clspv's
//! ProgramScopeVariablePointerPushConstant); under `descriptors` it is a storage buffer of
//! set 1 (ProgramScopeVariablesStorageBuffer).

use crate::diag::{Error, Result};
use crate::hash::HashSet;
use crate::ir::{self, AddressSpace, CastOp, ConstantKind, Handle, Op, Type, Value};

/// The program-scope `__global` variables of `m` that some instruction may write, or whose
/// address goes anywhere but into loads (stored, passed to a call, compared, converted to an
/// integer, returned), with what does so.
pub(super) fn not_read_only(m: &ir::Module) -> Vec<(Handle<ir::Global>, &'static str)> {
    let mut out = Vec::new();
    for (g, global) in m.globals.iter() {
        if global.space != AddressSpace::Global {
            continue;
        }
        if let Some(why) = m
            .functions
            .iter()
            .filter_map(|(_, f)| f.body.as_ref())
            .find_map(|body| escape(m, body, g))
        {
            out.push((g, why));
        }
    }
    out
}

/// Whether constant `c` is global `g`'s address, or a cast or `getelementptr` of it.
fn of_global(m: &ir::Module, c: Handle<ir::Constant>, g: Handle<ir::Global>) -> bool {
    match &m.constants[c].kind {
        ConstantKind::GlobalAddress(x) => *x == g,
        ConstantKind::Cast(_, inner) => of_global(m, *inner, g),
        ConstantKind::Gep { base, .. } => of_global(m, *base, g),
        _ => false,
    }
}

/// What in `body` writes `g` or lets its address escape, if anything.
fn escape(m: &ir::Module, body: &ir::Body, g: Handle<ir::Global>) -> Option<&'static str> {
    // The values that point into `g`: its address and what casts, steps, selects or phis
    // make of it (to a fixpoint: a phi may name a later value).
    let mut derived: HashSet<Handle<ir::Inst>> = HashSet::default();
    let is_derived = |derived: &HashSet<Handle<ir::Inst>>, v: Value| match v {
        Value::Const(c) => of_global(m, c, g),
        Value::Inst(h) => derived.contains(&h),
        _ => false,
    };
    loop {
        let before = derived.len();
        for block in &body.blocks {
            for &h in &block.insts {
                let moves = match &body.insts[h].op {
                    Op::Gep { base, .. } => is_derived(&derived, *base),
                    Op::Cast {
                        op: CastOp::Bitcast | CastOp::AddrSpaceCast,
                        value,
                    } => is_derived(&derived, *value),
                    Op::Select {
                        on_true, on_false, ..
                    } => is_derived(&derived, *on_true) || is_derived(&derived, *on_false),
                    Op::Phi { incoming } => incoming.iter().any(|(v, _)| is_derived(&derived, *v)),
                    _ => false,
                };
                if moves {
                    derived.insert(h);
                }
            }
        }
        if derived.len() == before {
            break;
        }
    }
    for block in &body.blocks {
        for &h in &block.insts {
            let op = &body.insts[h].op;
            let why = match op {
                Op::Gep { .. } | Op::Phi { .. } | Op::Load { .. } => None,
                Op::Cast {
                    op: CastOp::Bitcast | CastOp::AddrSpaceCast,
                    ..
                } => None,
                Op::Select { cond, .. } => is_derived(&derived, *cond).then_some("a select on it"),
                Op::Store { ptr, value, .. } => {
                    if is_derived(&derived, *ptr) {
                        Some("a store to it")
                    } else if is_derived(&derived, *value) {
                        Some("its address stored to memory")
                    } else {
                        None
                    }
                }
                Op::CopyMemory { dst, .. } | Op::FillMemory { dst, .. }
                    if is_derived(&derived, *dst) =>
                {
                    Some("a memcpy or memset into it")
                }
                Op::CopyMemory { .. } | Op::FillMemory { .. } => None,
                _ => {
                    let mut uses = false;
                    ir::operands::for_each_operand(op, |v| uses |= is_derived(&derived, v));
                    uses.then_some(
                        "its address given to a call, a builtin (atomics, async copies) or an \
                         integer conversion or comparison",
                    )
                }
            };
            if why.is_some() {
                return why;
            }
        }
        let mut returned = false;
        ir::operands::terminator_operands(&block.terminator, |v| {
            returned |= is_derived(&derived, v)
        });
        if returned {
            return Some("its address returned or branched on");
        }
    }
    None
}

/// Where the written program-scope `__global` variables live: one buffer the host makes
/// from `data` (their initial bytes, at their offsets) and keeps for the program's life.
/// Under physical pointers every kernel gets its device address in its push constants;
/// under `descriptors` it is the storage buffer `buffer` (set 1, bound after the literal
/// samplers and the printf buffer).
pub(super) struct Layout {
    /// Each variable (of the source module) and its byte offset in the buffer.
    pub vars: Vec<(Handle<ir::Global>, u64)>,
    pub data: Vec<u8>,
    /// Under `descriptors`, the shader-form `StorageBuffer` global (a Block struct whose
    /// member i is variable i).
    pub buffer: Option<Handle<ir::Global>>,
}

/// The buffer of `vars` (the source module's globals) in order, each at its alignment, with
/// its initializer's bytes (zeros without one); an initializer that holds an address is
/// refused (the host would have to relocate it).
pub(super) fn layout(m: &ir::Module, vars: &[Handle<ir::Global>]) -> Result<Layout> {
    let mut out = Layout {
        vars: Vec::new(),
        data: Vec::new(),
        buffer: None,
    };
    for &g in vars {
        let global = &m.globals[g];
        let align = global.align.map_or(1, u64::from).max(m.align_of(global.ty));
        let at = (out.data.len() as u64).div_ceil(align) * align;
        let size = m.size_of(global.ty);
        out.data.resize((at + size) as usize, 0);
        if let Some(c) = global.init {
            write_constant(m, c, &mut out.data[at as usize..(at + size) as usize])
                .map_err(|e| e.at_value(format!("the initializer of @{}", global.name)))?;
        }
        out.vars.push((g, at));
    }
    Ok(out)
}

/// Constant `c`'s bytes under the SPIR data layout (little-endian), into `bytes` (its size).
fn write_constant(m: &ir::Module, c: Handle<ir::Constant>, bytes: &mut [u8]) -> Result<()> {
    let k = &m.constants[c];
    match (&k.kind, &m.types[k.ty]) {
        (ConstantKind::Null | ConstantKind::Undef, _) => bytes.fill(0),
        (ConstantKind::Int(v) | ConstantKind::Float(v), _) => {
            let n = bytes.len().min(8);
            bytes[..n].copy_from_slice(&v.to_le_bytes()[..n]);
        }
        (ConstantKind::Spec { default, .. }, _) => write_constant(m, *default, bytes)?,
        (
            ConstantKind::Composite(parts),
            Type::Struct {
                members: Some(members),
                packed,
                ..
            },
        ) => {
            let mut at = 0u64;
            for (&p, &t) in parts.iter().zip(members) {
                let a = if *packed { 1 } else { m.align_of(t) };
                at = at.div_ceil(a) * a;
                let size = m.size_of(t);
                write_constant(m, p, &mut bytes[at as usize..(at + size) as usize])?;
                at += size;
            }
        }
        (ConstantKind::Composite(parts), Type::Array { elem, .. } | Type::Vector { elem, .. }) => {
            let size = m.size_of(*elem) as usize;
            for (i, &p) in parts.iter().enumerate() {
                write_constant(m, p, &mut bytes[i * size..(i + 1) * size])?;
            }
        }
        _ => {
            return Err(Error::unsupported(
                "a program-scope __global variable initialized with an address (a table of \
                 pointers) has no Vulkan form: the host would have to relocate it",
            ))
        }
    }
    Ok(())
}

impl super::body::FnBuilder<'_, '_> {
    /// The address of program-scope variable `g` (of the source; `ty` its address's source
    /// type): under `descriptors` its member of the program's storage buffer, otherwise
    /// the buffer's address from the push constants plus the variable's offset.
    pub(super) fn program_scope_address(
        &mut self,
        g: Handle<ir::Global>,
        ty: Handle<Type>,
    ) -> Result<Value> {
        let internal = || Error::internal("a program-scope variable without the program's buffer");
        let layout = self.l.program_scope.as_ref().ok_or_else(internal)?;
        let index = layout
            .vars
            .iter()
            .position(|v| v.0 == g)
            .ok_or_else(internal)?;
        let at = layout.vars[index].1;
        if let Some(buffer) = layout.buffer {
            return self.member_of(buffer, index as u32);
        }
        let member = self.kctx.program_scope_member.ok_or_else(internal)?;
        let base = self.push_constant(member)?;
        let u64t = self.l.out.int_type(64);
        let offset = self.int_const(64, at);
        let addr = super::emit::E { b: self }.bin(ir::BinaryOp::Add, u64t, base, offset);
        let pt = self.l.ty(ty)?;
        Ok(self.push(
            pt,
            Op::Cast {
                op: CastOp::IntToPtr,
                value: addr,
            },
        ))
    }
}
