//! Structured control flow for a shader-form function (no phis: the Vulkan lowering made them
//! Function variables, so blocks and edges can be added freely). A room of its own below the
//! lowering: it needs only the graph.
//!
//! 1. Unreachable blocks are dropped; an entry block that is a branch target gets a new
//!    entry before it (SPIR-V forbids branching to the first block).
//! 2. An irreducible CFG (a cycle with two entries) goes to step 6 directly.
//! 3. Loops, innermost first, get the form SPIR-V's OpLoopMerge declares: the header keeps
//!    its instructions and branches to a new block holding its old terminator; every back
//!    edge goes through one new continue block; every exit goes through one new merge block
//!    (with several exit targets, a selector variable set on each exit edge and a switch on
//!    it in the merge block). A small counted innermost loop is marked for unrolling
//!    (`unroll`).
//! 4. Every conditional branch and switch gets a selection merge: the nearest block that
//!    post-dominates it inside its loop (breaks, continues and returns leave the region), or a
//!    new unreachable block when its arms never meet. Headers are taken outermost first; a
//!    merge block another header already has, or one the header does not dominate, is split
//!    so each header gets a block of its own.
//! 5. The result is checked: every edge that leaves a selection construct must go to its
//!    merge or be a break or continue of its loop.
//! 6. Where that check fails (or the CFG is irreducible), the function becomes a dispatch
//!    loop: a selector variable holds the next original block, and one loop runs a switch
//!    over it. It is always structured; it is slower, and docs/vulkan.md counts the functions that
//!    get it.
//! 7. Values used in a block their definition no longer dominates go through a Function
//!    variable (addresses of private and local memory, which cannot be stored, are
//!    recomputed where they are used).

use crate::hash::HashSet;
use std::collections::BTreeMap;

use crate::diag::Result;
use crate::ir::{self, cfg, Block, BlockId, Body, Construct, Op, Terminator};

mod cfg_edit;
mod dispatch;
mod dominance;
mod duplicate;
mod unroll;

use cfg_edit::{push, retarget, selector, store_const, succs, Types};

/// What became of one function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Loops and selections as the input had them.
    Natural,
    /// The dispatch loop of step 6.
    Dispatch,
}

/// Structure function body `body` of module `m` (whose arenas hold its types and constants).
pub fn structurize(m: &mut ir::Module, body: &mut Body) -> Result<Form> {
    let t = Types::of(m);
    drop_unreachable(body);
    fresh_entry(body);
    let mut form = Form::Natural;
    if is_irreducible(body) {
        dispatch::dispatch(m, &t, body);
        form = Form::Dispatch;
    } else {
        // An edge into another construct's block (LLVM's jump threading makes them: two
        // selections that share a tail) is undone by giving that edge its own copy of the
        // block and what it dominates, a few times; the dispatch loop is the last resort.
        let mut copies = 0;
        loop {
            let loops = normalize_loops(m, &t, body);
            let selections = loops.and_then(|info| merge_selections(body, &info).map(|()| info));
            let edge = match selections {
                Some(info) => match check(body, &info) {
                    Ok(()) => break,
                    Err(edge) => edge,
                },
                None => None,
            };
            clear_constructs(body);
            let copied = edge.is_some_and(|(from, to)| {
                copies < duplicate::MAX_COPIES && duplicate::copy_for_edge(body, from, to)
            });
            if !copied {
                dispatch::dispatch(m, &t, body);
                form = Form::Dispatch;
                break;
            }
            copies += 1;
        }
    }
    dominance::fix_dominance(m, body)?;
    Ok(form)
}

fn new_block(body: &mut Body, name: &str, t: Terminator) -> usize {
    body.blocks.push(Block {
        terminator_loc: None,
        name: Some(name.to_string()),
        insts: Vec::new(),
        terminator: t,
        construct: None,
    });
    body.blocks.len() - 1
}

fn drop_unreachable(body: &mut Body) {
    let n = body.blocks.len();
    let s = succs(body);
    let live = cfg::reachable(n, |b| s[b].clone());
    if live.iter().all(|&l| l) {
        return;
    }
    let mut index = vec![0usize; n];
    let mut kept = Vec::new();
    for (i, b) in std::mem::take(&mut body.blocks).into_iter().enumerate() {
        if live[i] {
            index[i] = kept.len();
            kept.push(b);
        }
    }
    for b in &mut kept {
        retarget(&mut b.terminator, |x| index[x]);
    }
    body.blocks = kept;
}

/// Make block 0 a block nothing branches to (its contents move to a new block).
fn fresh_entry(body: &mut Body) {
    if !succs(body).iter().flatten().any(|&s| s == 0) {
        return;
    }
    let moved = body.blocks.len();
    let mut old = std::mem::replace(
        &mut body.blocks[0],
        Block {
            terminator_loc: None,
            name: Some("entry".into()),
            insts: Vec::new(),
            terminator: Terminator::Branch(BlockId(moved as u32)),
            construct: None,
        },
    );
    // Variables stay in the entry block (they are hoisted there anyway).
    let (vars, rest): (Vec<_>, Vec<_>) = old
        .insts
        .into_iter()
        .partition(|&ih| matches!(body.insts[ih].op, Op::Alloca { .. }));
    body.blocks[0].insts = vars;
    old.insts = rest;
    body.blocks.push(old);
    for (i, b) in body.blocks.iter_mut().enumerate() {
        if i != 0 {
            retarget(&mut b.terminator, |x| if x == 0 { moved } else { x });
        }
    }
}

fn is_irreducible(body: &Body) -> bool {
    let s = succs(body);
    let idom = cfg::dominators(&s, 0);
    // A retreating edge (to a block on the DFS stack) whose target does not dominate its
    // source enters a cycle somewhere other than its header.
    let n = s.len();
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut stack = vec![(0usize, 0usize)];
    state[0] = 1;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if *next < s[b].len() {
            let t = s[b][*next];
            *next += 1;
            match state[t] {
                0 => {
                    state[t] = 1;
                    stack.push((t, 0));
                }
                1 if !cfg::dominates(&idom, t, b) => return true,
                _ => {}
            }
        } else {
            state[b] = 2;
            stack.pop();
        }
    }
    false
}

/// The loops of a normalized function: for each block its innermost loop header, and for
/// each header its continue and merge blocks.
struct LoopInfo {
    innermost: Vec<Option<usize>>,
    loops: BTreeMap<usize, (usize, usize)>,
}

/// Natural loops: header -> member blocks (header included).
fn natural_loops(s: &[Vec<usize>], idom: &[Option<usize>]) -> BTreeMap<usize, HashSet<usize>> {
    let n = s.len();
    let mut preds = vec![Vec::new(); n];
    for (b, ss) in s.iter().enumerate() {
        for &t in ss {
            preds[t].push(b);
        }
    }
    let mut loops: BTreeMap<usize, HashSet<usize>> = BTreeMap::new();
    for (b, ss) in s.iter().enumerate() {
        if idom[b].is_none() {
            continue;
        }
        for &h in ss {
            if cfg::dominates(idom, h, b) {
                let body = loops.entry(h).or_insert_with(|| HashSet::from_iter([h]));
                let mut stack = vec![b];
                while let Some(x) = stack.pop() {
                    if body.insert(x) {
                        stack.extend(preds[x].iter().copied());
                    }
                }
            }
        }
    }
    loops
}

fn normalize_loops(m: &mut ir::Module, t: &Types, body: &mut Body) -> Option<LoopInfo> {
    let mut done: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    loop {
        let s = succs(body);
        let idom = cfg::dominators(&s, 0);
        let loops = natural_loops(&s, &idom);
        // The innermost loop not yet normalized: the smallest.
        let Some((&h, members)) = loops
            .iter()
            .filter(|(h, _)| !done.contains_key(h))
            .min_by_key(|(_, b)| b.len())
        else {
            let mut innermost = vec![None; body.blocks.len()];
            let mut by_size: Vec<_> = loops.iter().collect();
            by_size.sort_by_key(|(_, b)| std::cmp::Reverse(b.len()));
            for (&h, members) in by_size {
                for &b in members {
                    innermost[b] = Some(h);
                }
            }
            return Some(LoopInfo {
                innermost,
                loops: done,
            });
        };
        let members = members.clone();
        let inner = loops.keys().any(|k| *k != h && members.contains(k));
        let unroll = unroll::worth_unrolling(m, body, &members, inner);
        // The header keeps its instructions; its terminator moves to a block of its own.
        let old = std::mem::replace(&mut body.blocks[h].terminator, Terminator::Unreachable);
        let hb = new_block(body, "loop.body", old);
        body.blocks[h].terminator = Terminator::Branch(BlockId(hb as u32));
        // One continue block for every back edge.
        let cont = new_block(body, "loop.continue", Terminator::Branch(BlockId(h as u32)));
        let in_loop = |x: usize| x == hb || members.contains(&x);
        for b in 0..cont {
            if in_loop(b) && b != h {
                retarget(&mut body.blocks[b].terminator, |x| {
                    if x == h {
                        cont
                    } else {
                        x
                    }
                });
            }
        }
        // One merge block for every exit.
        let mut exits: Vec<(usize, usize)> = Vec::new();
        for b in 0..cont {
            if in_loop(b) {
                for x in body.blocks[b].terminator.successors() {
                    if !in_loop(x) && x != cont && !exits.contains(&(b, x)) {
                        exits.push((b, x));
                    }
                }
            }
        }
        let mut targets: Vec<usize> = exits.iter().map(|e| e.1).collect();
        targets.sort();
        targets.dedup();
        let merge = new_block(body, "loop.merge", Terminator::Unreachable);
        match targets.len() {
            0 => {}
            1 => {
                body.blocks[merge].terminator = Terminator::Branch(BlockId(targets[0] as u32));
                for &(b, x) in &exits {
                    retarget(&mut body.blocks[b].terminator, |y| {
                        if y == x {
                            merge
                        } else {
                            y
                        }
                    });
                }
            }
            _ => {
                let slot = selector(m, t, body);
                for &(b, x) in &exits {
                    let k = targets.iter().position(|&y| y == x).unwrap_or(0);
                    let e = new_block(body, "loop.exit", Terminator::Branch(BlockId(merge as u32)));
                    store_const(m, t, body, e, slot, k as u64);
                    retarget(
                        &mut body.blocks[b].terminator,
                        |y| if y == x { e } else { y },
                    );
                }
                let v = push(
                    body,
                    merge,
                    t.i32,
                    Op::Load {
                        ptr: slot,
                        align: None,
                        volatile: false,
                    },
                );
                body.blocks[merge].terminator = Terminator::Switch {
                    value: v,
                    default: BlockId(targets[0] as u32),
                    cases: targets
                        .iter()
                        .enumerate()
                        .skip(1)
                        .map(|(k, &y)| (k as u64, BlockId(y as u32)))
                        .collect(),
                };
            }
        }
        body.blocks[h].construct = Some(Construct::Loop {
            merge: BlockId(merge as u32),
            continue_target: BlockId(cont as u32),
            unroll,
        });
        done.insert(h, (cont, merge));
        if done.len() > 10_000 {
            return None;
        }
    }
}

/// Step 4: a merge for every conditional branch and switch, outermost first.
fn merge_selections(body: &mut Body, info: &LoopInfo) -> Option<()> {
    let mut claimed: HashSet<usize> = info.loops.values().map(|&(_, m)| m).collect();
    let mut done: HashSet<usize> = HashSet::default();
    for _ in 0..100_000 {
        let s = succs(body);
        let n = s.len();
        let idom = cfg::dominators(&s, 0);
        let order = cfg::reverse_post_order(n, |b| s[b].clone());
        let Some(&h) = order.iter().find(|&&b| {
            !done.contains(&b)
                && idom[b].is_some()
                && matches!(
                    body.blocks[b].terminator,
                    Terminator::CondBranch { .. } | Terminator::Switch { .. }
                )
        }) else {
            return Some(());
        };
        done.insert(h);
        // Every case of a switch starts a construct of its own, which the switch must
        // dominate: a target other blocks also reach gets a block between.
        if matches!(body.blocks[h].terminator, Terminator::Switch { .. }) {
            let mut targets = s[h].clone();
            targets.sort();
            targets.dedup();
            for t in targets {
                let shared = s
                    .iter()
                    .enumerate()
                    .any(|(b, ss)| b != h && idom[b].is_some() && ss.contains(&t));
                // A loop's header, continue or merge block is never a case construct.
                let loop_block = info.loops.contains_key(&t)
                    || info.loops.values().any(|&(c, m)| t == c || t == m);
                if shared || loop_block {
                    let e = new_block(body, "case", Terminator::Branch(BlockId(t as u32)));
                    retarget(
                        &mut body.blocks[h].terminator,
                        |x| if x == t { e } else { x },
                    );
                }
            }
            done.remove(&h);
            if body.blocks.len() != n {
                continue;
            }
            done.insert(h);
        }
        let innermost = info.innermost.get(h).copied().flatten();
        let region = region_graph(body, info, innermost);
        let exit = n;
        let mut rev = vec![Vec::new(); n + 1];
        for (b, ss) in region.iter().enumerate() {
            for &x in ss {
                rev[x].push(b);
            }
        }
        let ipdom = cfg::dominators(&rev, exit);
        let merge = match ipdom[h] {
            Some(p) if p != exit && p != h => {
                if claimed.contains(&p) || !cfg::dominates(&idom, h, p) {
                    // A block of this header's own, between its construct and `p`.
                    let fresh = new_block(body, "sel.merge", Terminator::Branch(BlockId(p as u32)));
                    for b in 0..fresh {
                        if idom[b].is_some() && cfg::dominates(&idom, h, b) {
                            retarget(&mut body.blocks[b].terminator, |x| {
                                if x == p {
                                    fresh
                                } else {
                                    x
                                }
                            });
                        }
                    }
                    fresh
                } else {
                    p
                }
            }
            _ => new_block(body, "sel.unreachable", Terminator::Unreachable),
        };
        claimed.insert(merge);
        body.blocks[h].construct = Some(Construct::Selection {
            merge: BlockId(merge as u32),
        });
    }
    None
}

/// Successor lists of the region of loop `l` (or of the function, `None`), with `n` (the
/// block count) as the exit: the loop's continue and merge blocks and every return lead
/// there, and a nested loop's header leads straight to its merge block.
fn region_graph(body: &Body, info: &LoopInfo, l: Option<usize>) -> Vec<Vec<usize>> {
    let n = body.blocks.len();
    let (cont, merge) = match l.and_then(|h| info.loops.get(&h)) {
        Some(&(c, m)) => (Some(c), Some(m)),
        None => (None, None),
    };
    (0..n)
        .map(|b| {
            if info.loops.contains_key(&b) && Some(b) != l {
                return vec![info.loops[&b].1];
            }
            let ss = body.blocks[b].terminator.successors();
            if ss.is_empty() {
                return vec![n];
            }
            ss.into_iter()
                .map(|x| {
                    if Some(x) == cont || Some(x) == merge || Some(x) == l {
                        n
                    } else {
                        x
                    }
                })
                .collect()
        })
        .collect()
}

/// Step 5: every edge out of a selection construct goes to its merge, or breaks or
/// continues the innermost loop. `Err` with the first edge that does not (where one does
/// not; `None` for a switch's fall-through).
fn check(body: &Body, info: &LoopInfo) -> std::result::Result<(), Option<(usize, usize)>> {
    let s = succs(body);
    let idom = cfg::dominators(&s, 0);
    for (h, block) in body.blocks.iter().enumerate() {
        let Some(Construct::Selection { merge }) = block.construct else {
            continue;
        };
        let merge = merge.0 as usize;
        let l = info.innermost.get(h).copied().flatten();
        let (cont, lmerge) = match l.and_then(|x| info.loops.get(&x)) {
            Some(&(c, m)) => (Some(c), Some(m)),
            None => (None, None),
        };
        // The construct: what the header dominates, short of its merge and of its loop's
        // continue and merge blocks (those belong to the loop's own constructs).
        let past = |end: Option<usize>, x: usize| {
            end.is_some_and(|e| idom[e].is_some() && cfg::dominates(&idom, e, x))
        };
        let inside = |x: usize| {
            idom[x].is_some()
                && cfg::dominates(&idom, h, x)
                && !past(Some(merge), x)
                && !past(cont, x)
                && !past(lmerge, x)
        };
        // A switch's cases: the case target that dominates each block of its construct. A
        // branch from one case into another (C's fall-through) is refused here.
        let targets: Vec<usize> = match body.blocks[h].terminator {
            Terminator::Switch { .. } => s[h].iter().copied().filter(|&x| x != merge).collect(),
            _ => Vec::new(),
        };
        let case_of = |x: usize| {
            targets
                .iter()
                .copied()
                .find(|&c| idom[x].is_some() && cfg::dominates(&idom, c, x))
        };
        for &x in &s[h] {
            if !(inside(x) || x == merge || Some(x) == cont || Some(x) == lmerge) {
                return Err(Some((h, x)));
            }
        }
        for (x, ss) in s.iter().enumerate() {
            if !inside(x) {
                continue;
            }
            for &y in ss {
                if !(inside(y) || y == merge || Some(y) == cont || Some(y) == lmerge) {
                    return Err(Some((x, y)));
                }
                if x != h && inside(y) && !targets.is_empty() && case_of(x) != case_of(y) {
                    return Err(None);
                }
            }
        }
    }
    Ok(())
}

fn clear_constructs(body: &mut Body) {
    for b in &mut body.blocks {
        b.construct = None;
    }
}
