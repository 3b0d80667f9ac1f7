//! What the Vulkan lowering learns of the source graph before it lowers a function or a
//! module, for the families that decide by it: the pointer differences `buffers::order` can
//! say as element indices, the pointer casts `buffers::views` can see through, the
//! program-scope variables `program_scope` must keep in a buffer and that buffer's layout,
//! the float-to-double widenings only `printf` reads, the sampler constants `images` may
//! give unnormalized coordinates to.

use crate::diag::{Error, Result};
use crate::hash::HashSet;
use crate::ir::builtin::ImageOp;
use crate::ir::{
    self, AddressSpace, BinaryOp, Builtin, CastOp, Constant, ConstantKind, Handle, Inst, Op, Type,
    Value,
};

use super::state::Layout;

/// The `ptrtoint`s of pointers whose every use is one side of a subtraction whose other side
/// is such a `ptrtoint` too (`q - p` in OpenCL C).
pub(super) fn differences(body: &ir::Body) -> HashSet<Handle<Inst>> {
    let insts = || body.blocks.iter().flat_map(|b| b.insts.iter().copied());
    let mut set: HashSet<Handle<Inst>> = insts()
        .filter(|&h| {
            matches!(
                body.insts[h].op,
                Op::Cast {
                    op: CastOp::PtrToInt,
                    ..
                }
            )
        })
        .collect();
    // Drop each one with another use until none is left to drop (a subtraction whose other
    // side was dropped is another use).
    loop {
        let mut dropped = HashSet::default();
        let mut other_use = |v: Value| {
            if let Value::Inst(x) = v {
                if set.contains(&x) {
                    dropped.insert(x);
                }
            }
        };
        for b in &body.blocks {
            for &ih in &b.insts {
                match &body.insts[ih].op {
                    Op::Binary {
                        op: BinaryOp::Sub,
                        lhs: Value::Inst(a),
                        rhs: Value::Inst(b),
                        ..
                    } if set.contains(a) && set.contains(b) => {}
                    op => ir::operands::for_each_use(op, &mut other_use),
                }
            }
            ir::operands::terminator_operands(&b.terminator, &mut other_use);
        }
        if dropped.is_empty() {
            return set;
        }
        set.retain(|h| !dropped.contains(h));
    }
}

/// The pointer casts within one address space (global, constant, private or local) whose
/// every use, through `getelementptr`s and further casts, is the pointer of a load or a
/// store.
pub(super) fn casts(m: &ir::Module, body: &ir::Body) -> HashSet<Handle<Inst>> {
    let space = |t: Handle<Type>| match m.types[t] {
        Type::Pointer { space, .. }
            if matches!(
                space,
                AddressSpace::Global
                    | AddressSpace::Constant
                    | AddressSpace::Private
                    | AddressSpace::Local
            ) =>
        {
            Some(space)
        }
        _ => None,
    };
    let value_ty = |v: Value| match v {
        Value::Inst(h) => Some(body.insts[h].ty),
        Value::Const(c) => Some(m.constants[c].ty),
        Value::Param(_) => None,
    };
    let mut root: crate::hash::HashMap<Handle<Inst>, Handle<Inst>> = Default::default();
    for &h in body.blocks.iter().flat_map(|b| b.insts.iter()) {
        if let Op::Cast {
            op: CastOp::Bitcast,
            value,
        } = body.insts[h].op
        {
            let to = space(body.insts[h].ty);
            if to.is_some() && value_ty(value).map_or(to, space) == to {
                root.insert(h, h);
            }
        }
    }
    // The getelementptrs on a view, its casts again (clang loads a 3-vector as a 4-vector)
    // and the loads of a variable it is stored to once (-O0's `p = (float4 *)q`, which the
    // lowering forwards) are parts of it (blocks are in no particular order).
    let forwarded = super::forwarding::single_store_pointers(m, body);
    let stored = |a: Handle<Inst>| match forwarded.get(&a).map(|&st| &body.insts[st].op) {
        Some(Op::Store {
            value: Value::Inst(x),
            ..
        }) => Some(*x),
        _ => None,
    };
    loop {
        let mut grew = false;
        for &h in body.blocks.iter().flat_map(|b| b.insts.iter()) {
            let part_of = match body.insts[h].op {
                Op::Gep {
                    base: Value::Inst(b),
                    ..
                } => root.get(&b).copied(),
                Op::Cast {
                    op: CastOp::Bitcast,
                    value: Value::Inst(b),
                } => root.get(&b).copied(),
                Op::Load {
                    ptr: Value::Inst(a),
                    ..
                } => stored(a).and_then(|x| root.get(&x).copied()),
                _ => None,
            };
            if let (Some(r), false) = (part_of, root.get(&h).is_some_and(|&x| x != h)) {
                if root.insert(h, r) != Some(r) {
                    grew = true;
                }
            }
        }
        if !grew {
            break;
        }
    }
    // A cast of a view is rooted at its own cast until the loop above moves it: the view a
    // member belongs to is the end of its chain of roots.
    let find = |mut h: Handle<Inst>| {
        while let Some(&r) = root.get(&h).filter(|&&r| r != h) {
            h = r;
        }
        h
    };
    let mut refused = HashSet::default();
    let other_use = |v: Value, refused: &mut HashSet<Handle<Inst>>| {
        if let Some(r) = match v {
            Value::Inst(x) if root.contains_key(&x) => Some(find(x)),
            _ => None,
        } {
            refused.insert(r);
        }
    };
    for b in &body.blocks {
        for &ih in &b.insts {
            match &body.insts[ih].op {
                Op::Load { .. } => {}
                Op::Cast {
                    op: CastOp::Bitcast,
                    ..
                } if root.contains_key(&ih) => {}
                Op::Store {
                    ptr: Value::Inst(a),
                    ..
                } if forwarded.contains_key(a) => {}
                Op::Store { value, .. } => other_use(*value, &mut refused),
                Op::Gep { indices, .. } => indices.iter().for_each(|&i| other_use(i, &mut refused)),
                // A struct copy: the copy works on the view's own type.
                Op::CopyMemory { size, .. } => other_use(*size, &mut refused),
                Op::FillMemory { byte, size, .. } => {
                    other_use(*byte, &mut refused);
                    other_use(*size, &mut refused);
                }
                Op::Builtin { builtin, args } => {
                    let through = pointer_args(builtin);
                    for (i, &a) in args.iter().enumerate() {
                        if !through.contains(&i) {
                            other_use(a, &mut refused);
                        }
                    }
                }
                op => ir::operands::for_each_use(op, |v| other_use(v, &mut refused)),
            }
        }
        ir::operands::terminator_operands(&b.terminator, |v| other_use(v, &mut refused));
    }
    root.iter()
        .filter(|&(&h, _)| {
            !refused.contains(&find(h)) && matches!(body.insts[h].op, Op::Cast { .. })
        })
        .map(|(&h, _)| h)
        .collect()
}

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
                    ir::operands::for_each_use(op, |v| uses |= is_derived(&derived, v));
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

/// The arguments of a builtin whose Vulkan lowering only loads and stores through them
/// (with `getelementptr`s): a view can be one.
fn pointer_args(b: &ir::Builtin) -> &'static [usize] {
    use ir::builtin::OpenclOp as C;
    match b {
        ir::Builtin::AsyncCopy { .. } => &[0, 1],
        ir::Builtin::ExtInst { op, .. } => match op {
            C::vloadn | C::vload_half | C::vload_halfn | C::vloada_halfn => &[1],
            C::vstoren
            | C::vstore_half
            | C::vstore_halfn
            | C::vstore_half_r
            | C::vstore_halfn_r
            | C::vstorea_halfn
            | C::vstorea_halfn_r => &[2],
            C::prefetch => &[0],
            _ => &[],
        },
        _ => &[],
    }
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

/// The `fpext`s of floats (or halves) to double whose every use is an argument of `printf`:
/// OpenCL C passes a float to printf as a double (clang widens it). The printf record holds
/// its double bits, which `printf` makes from the float's bits: a kernel without double of
/// its own gets no Float64 for printing.
pub(super) fn printf_widenings(m: &ir::Module, body: &ir::Body) -> HashSet<Handle<Inst>> {
    let insts = || body.blocks.iter().flat_map(|b| b.insts.iter().copied());
    let mut set: HashSet<Handle<Inst>> = insts()
        .filter(|&h| {
            let inst = &body.insts[h];
            matches!(
                inst.op,
                Op::Cast {
                    op: CastOp::FPExt,
                    ..
                }
            ) && matches!(m.types[m.scalar_of(inst.ty)], Type::Float { width: 64 })
        })
        .collect();
    let mut other = HashSet::default();
    let mut other_use = |v: Value| {
        if let Value::Inst(x) = v {
            other.insert(x);
        }
    };
    for b in &body.blocks {
        for &ih in &b.insts {
            match &body.insts[ih].op {
                Op::Builtin {
                    builtin:
                        ir::Builtin::ExtInst {
                            op: ir::builtin::OpenclOp::printf,
                            ..
                        },
                    ..
                } => {}
                op => ir::operands::for_each_use(op, &mut other_use),
            }
        }
        ir::operands::terminator_operands(&b.terminator, &mut other_use);
    }
    set.retain(|h| !other.contains(h));
    set
}

/// The sampler constants of `m` that every use of samples a 1D or 2D image that is not an
/// array, with unnormalized coordinates clamped to the edge or the border (or not
/// addressed): Vulkan's samplers with unnormalized coordinates read those, so the host
/// makes them as OpenCL's bits say and the kernel gives its coordinates as they are (no
/// division by the image's size at each read). A constant also used otherwise (with
/// another image, passed to a function) keeps the normalized sampler.
pub(super) fn direct_samplers(m: &ir::Module) -> HashSet<Handle<Constant>> {
    let mut direct = HashSet::default();
    let mut other = HashSet::default();
    for (_, f) in m.functions.iter() {
        let Some(body) = &f.body else {
            continue;
        };
        for (_, inst) in body.insts.iter() {
            let sampler = match &inst.op {
                Op::Builtin {
                    builtin: Builtin::Image(ImageOp::Sample(_)),
                    args,
                } if args.len() == 3 => match m.types[m.value_type(f, args[0])] {
                    Type::Image(image) if takes_unnormalized(image) => Some(args[1]),
                    _ => None,
                },
                _ => None,
            };
            ir::operands::for_each_operand(&inst.op, |v| {
                let Value::Const(c) = v else {
                    return;
                };
                if let ConstantKind::Sampler {
                    addressing,
                    normalized: false,
                    ..
                } = m.constants[c].kind
                {
                    if sampler == Some(v) && clamped(addressing) {
                        direct.insert(c);
                        return;
                    }
                }
                other.insert(c);
            });
        }
    }
    direct.retain(|c| !other.contains(c));
    direct
}

/// Whether a Vulkan sampler with unnormalized coordinates may read `image`.
fn takes_unnormalized(image: ir::ImageType) -> bool {
    matches!(image.dim, ir::ImageDim::Dim1D | ir::ImageDim::Dim2D)
        && !image.arrayed
        && !image.multisampled
}

/// Whether OpenCL's addressing mode is one a sampler with unnormalized coordinates has
/// (none is made clamped to the edge, as for every sampler).
fn clamped(addressing: ir::SamplerAddressing) -> bool {
    matches!(
        addressing,
        ir::SamplerAddressing::None
            | ir::SamplerAddressing::ClampToEdge
            | ir::SamplerAddressing::Clamp
    )
}
