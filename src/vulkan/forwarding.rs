//! What the body lowering can leave out: pointer casts that only `memcpy` and `memset`
//! use, casts between a 3-vector and a 4-vector pointer that only loads and stores use
//! (-O0's `storetmp` / `castToVec4`), and pointer variables stored once (-O0's spilled
//! parameters).

use crate::hash::{HashMap, HashSet};

use crate::ir::{self, CastOp, Handle, Inst, Op, Type, Value};

/// Pointer casts whose every use is as the destination or source of a `memcpy` or
/// `memset` (what LLVM makes of a struct copy or a zeroed array: `(i8*)&s`). The copy works
/// on the pointer's own type, so the cast needs no value of its own.
pub(super) fn byte_views(body: &ir::Body) -> HashSet<Handle<Inst>> {
    let casts: HashSet<Handle<Inst>> = body
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter().copied())
        .filter(|&h| {
            matches!(
                body.insts[h].op,
                Op::Cast {
                    op: CastOp::Bitcast,
                    ..
                }
            )
        })
        .collect();
    let mut other_use: HashSet<Handle<Inst>> = Default::default();
    for b in &body.blocks {
        for &ih in &b.insts {
            match &body.insts[ih].op {
                Op::CopyMemory { dst, src, size, .. } => {
                    for v in [size] {
                        if let Value::Inst(x) = v {
                            other_use.insert(*x);
                        }
                    }
                    let _ = (dst, src);
                }
                Op::FillMemory { byte, size, .. } => {
                    for v in [byte, size] {
                        if let Value::Inst(x) = v {
                            other_use.insert(*x);
                        }
                    }
                }
                op => ir::operands::for_each_use(op, |v| {
                    if let Value::Inst(x) = v {
                        other_use.insert(x);
                    }
                }),
            }
        }
        ir::operands::terminator_operands(&b.terminator, |v| {
            if let Value::Inst(x) = v {
                other_use.insert(x);
            }
        });
    }
    casts
        .into_iter()
        .filter(|h| !other_use.contains(h))
        .collect()
}

/// Pointer casts from `<3 x T>*` to `<4 x T>*` (or back) whose every use is as the pointer
/// of a load or a store: clang's -O0 accesses a 3-vector as a 4-vector. The access is made
/// on the 3-vector itself, its value widened or narrowed by a shuffle (`body`).
pub(super) fn lane_views(m: &ir::Module, body: &ir::Body) -> HashSet<Handle<Inst>> {
    let lanes_of_pointee = |t| {
        let p = m.pointee(t)?;
        match m.types[p] {
            Type::Vector { elem, len } => Some((elem, len)),
            _ => None,
        }
    };
    let value_type = |v: Value| match v {
        Value::Inst(h) => Some(body.insts[h].ty),
        Value::Const(c) => Some(m.constants[c].ty),
        Value::Param(_) => None,
    };
    let mut views: HashSet<Handle<Inst>> = body
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter().copied())
        .filter(|&h| {
            let Op::Cast {
                op: CastOp::Bitcast,
                value,
            } = body.insts[h].op
            else {
                return false;
            };
            let from = value_type(value).and_then(lanes_of_pointee);
            let to = lanes_of_pointee(body.insts[h].ty);
            matches!((from, to), (Some((a, 3)), Some((b, 4))) | (Some((a, 4)), Some((b, 3))) if a == b)
        })
        .collect();
    for b in &body.blocks {
        for &ih in &b.insts {
            match &body.insts[ih].op {
                Op::Load { .. } => {}
                Op::Store { value, .. } => {
                    if let Value::Inst(x) = value {
                        views.remove(x);
                    }
                }
                op => ir::operands::for_each_use(op, |v| {
                    if let Value::Inst(x) = v {
                        views.remove(&x);
                    }
                }),
            }
        }
        ir::operands::terminator_operands(&b.terminator, |v| {
            if let Value::Inst(x) = v {
                views.remove(&x);
            }
        });
    }
    views
}

/// Variables holding a pointer that are stored exactly once, by a store that dominates every
/// load of them, and used for nothing else: what -O0 code makes of every pointer parameter
/// (`p.addr`). Their loads are the stored value, so the pointer never sits in memory (a
/// shader cannot keep a pointer to private or local memory in a variable).
pub(super) fn single_store_pointers(
    m: &ir::Module,
    body: &ir::Body,
) -> HashMap<Handle<Inst>, Handle<Inst>> {
    // Per variable: its stores as (block, position, store) and its loads as (block, position).
    type Places = Vec<(usize, usize, Handle<Inst>)>;
    let mut stores: HashMap<Handle<Inst>, Places> = HashMap::default();
    let mut loads: HashMap<Handle<Inst>, Vec<(usize, usize)>> = HashMap::default();
    let mut escaped: HashSet<Handle<Inst>> = Default::default();
    // Pointers, and images and samplers (descriptors in a shader).
    let is_candidate = |h: Handle<Inst>| {
        matches!(&body.insts[h].op, Op::Alloca { allocated, .. }
            if matches!(m.types[*allocated], Type::Pointer { .. } | Type::Image(_) | Type::Sampler))
    };
    for (b, block) in body.blocks.iter().enumerate() {
        for (pos, &ih) in block.insts.iter().enumerate() {
            match &body.insts[ih].op {
                Op::Store {
                    ptr: Value::Inst(a),
                    value,
                    ..
                } if is_candidate(*a) => {
                    stores.entry(*a).or_default().push((b, pos, ih));
                    if let Value::Inst(v) = value {
                        escaped.insert(*v);
                    }
                }
                Op::Load {
                    ptr: Value::Inst(a),
                    ..
                } if is_candidate(*a) => loads.entry(*a).or_default().push((b, pos)),
                op => ir::operands::for_each_use(op, |v| {
                    if let Value::Inst(x) = v {
                        escaped.insert(x);
                    }
                }),
            }
        }
        ir::operands::terminator_operands(&block.terminator, |v| {
            if let Value::Inst(x) = v {
                escaped.insert(x);
            }
        });
    }
    let succ: Vec<Vec<usize>> = body
        .blocks
        .iter()
        .map(|b| b.terminator.successors())
        .collect();
    let idom = ir::cfg::dominators(&succ, 0);
    stores
        .into_iter()
        .filter(|(a, s)| s.len() == 1 && !escaped.contains(a))
        .filter(|(a, s)| {
            let (sb, spos, _) = s[0];
            loads.get(a).is_none_or(|ls| {
                ls.iter().all(|&(lb, lpos)| {
                    if lb == sb {
                        lpos > spos
                    } else {
                        idom[lb].is_some() && ir::cfg::dominates(&idom, sb, lb)
                    }
                })
            })
        })
        .map(|(a, s)| (a, s[0].2))
        .collect()
}
