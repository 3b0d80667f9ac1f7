//! Control-flow order shared by readers and writers.

/// Blocks `0..count` in reverse post-order from block 0 (every block after its dominators,
/// which both LLVM-side lowering and SPIR-V layout need), then the unreachable ones in index
/// order. `successors(b)` lists `b`'s successors, one entry per edge.
pub fn reverse_post_order(count: usize, successors: impl Fn(usize) -> Vec<usize>) -> Vec<usize> {
    let mut post = Vec::with_capacity(count);
    let mut seen = vec![false; count];
    if count > 0 {
        // Iterative DFS: (block, its successors, the next one to follow); each block's
        // successors asked once. A successor outside 0..count is no block and not followed.
        let mut stack = vec![(0usize, successors(0), 0usize)];
        seen[0] = true;
        while let Some((b, s, next)) = stack.last_mut() {
            if let Some(&n) = s.get(*next) {
                *next += 1;
                if n < count && !seen[n] {
                    seen[n] = true;
                    let sn = successors(n);
                    stack.push((n, sn, 0));
                }
            } else {
                post.push(*b);
                stack.pop();
            }
        }
    }
    post.reverse();
    post.extend((0..count).filter(|&i| !seen[i]));
    post
}

/// Which of blocks `0..count` block 0 reaches.
pub fn reachable(count: usize, successors: impl Fn(usize) -> Vec<usize>) -> Vec<bool> {
    let mut seen = vec![false; count];
    let mut stack = Vec::new();
    if count > 0 {
        seen[0] = true;
        stack.push(0);
    }
    while let Some(b) = stack.pop() {
        for s in successors(b) {
            if s < count && !seen[s] {
                seen[s] = true;
                stack.push(s);
            }
        }
    }
    seen
}

/// Immediate dominators over a graph given by successor lists, from `root` (Cooper, Harvey
/// and Kennedy's iteration over reverse post-order): `idom[root] == Some(root)`, `None` for
/// nodes `root` does not reach.
pub fn dominators(succ: &[Vec<usize>], root: usize) -> Vec<Option<usize>> {
    let n = succ.len();
    let order = {
        let mut post = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        let mut stack = vec![(root, 0usize)];
        seen[root] = true;
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            if *next < succ[b].len() {
                let s = succ[b][*next];
                *next += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        post
    };
    let mut po_index = vec![usize::MAX; n];
    for (i, &b) in order.iter().enumerate() {
        po_index[b] = i;
    }
    let mut preds = vec![Vec::new(); n];
    for (b, ss) in succ.iter().enumerate() {
        if po_index[b] == usize::MAX {
            continue;
        }
        for &s in ss {
            preds[s].push(b);
        }
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    idom[root] = Some(root);
    let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| {
        while a != b {
            while po_index[a] < po_index[b] {
                a = idom[a].unwrap_or(root);
            }
            while po_index[b] < po_index[a] {
                b = idom[b].unwrap_or(root);
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().rev() {
            if b == root {
                continue;
            }
            let mut new: Option<usize> = None;
            for &p in &preds[b] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(x) => intersect(&idom, p, x),
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}

/// True if `a` dominates `b` under `idom` (every node dominates itself).
pub fn dominates(idom: &[Option<usize>], a: usize, mut b: usize) -> bool {
    loop {
        if a == b {
            return true;
        }
        match idom[b] {
            Some(p) if p != b => b = p,
            _ => return false,
        }
    }
}

/// Drop the debug declarations ([`super::Op::is_debug`]) whose operand is an
/// instruction that no longer is in a block, or no longer comes before them (a step that
/// rewrote or moved code without them in mind): debug information follows the code, never
/// the other way round.
pub fn prune_debug(body: &mut super::Body) {
    if !body.insts.iter().any(|(_, i)| i.op.is_debug()) {
        return;
    }
    let succ: Vec<Vec<usize>> = body
        .blocks
        .iter()
        .map(|b| b.terminator.successors())
        .collect();
    let idom = dominators(&succ, 0);
    let mut home = crate::hash::HashMap::default();
    for (b, block) in body.blocks.iter().enumerate() {
        for (pos, &h) in block.insts.iter().enumerate() {
            home.insert(h, (b, pos));
        }
    }
    let mut dead = crate::hash::HashSet::default();
    for (b, block) in body.blocks.iter().enumerate() {
        for (pos, &h) in block.insts.iter().enumerate() {
            let op = &body.insts[h].op;
            if !op.is_debug() {
                continue;
            }
            let mut ok = true;
            super::operands::for_each_operand(op, |v| {
                if let super::Value::Inst(d) = v {
                    ok &= match home.get(&d) {
                        Some(&(db, dpos)) if db == b => dpos < pos,
                        Some(&(db, _)) => idom[b].is_some() && dominates(&idom, db, b),
                        None => false,
                    };
                }
            });
            if !ok {
                dead.insert(h);
            }
        }
    }
    if !dead.is_empty() {
        for block in &mut body.blocks {
            block.insts.retain(|h| !dead.contains(h));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::reverse_post_order;

    #[test]
    fn dominators_first_and_unreachable_last() {
        // 0 -> 1 -> 3, 0 -> 2 -> 3, 4 unreachable.
        let succ = |b: usize| match b {
            0 => vec![1, 2],
            1 | 2 => vec![3],
            _ => vec![],
        };
        let order = reverse_post_order(5, succ);
        assert_eq!(order[0], 0);
        assert_eq!(order[3], 3);
        assert_eq!(order[4], 4);
    }
}
