//! Control-flow order shared by readers and writers.

use std::collections::HashSet;

/// Blocks `0..count` in reverse post-order from block 0 (every block after its dominators,
/// which both LLVM-side lowering and SPIR-V layout need), then the unreachable ones in index
/// order. `successors(b)` lists `b`'s successors, one entry per edge.
pub fn reverse_post_order(count: usize, successors: impl Fn(usize) -> Vec<usize>) -> Vec<usize> {
    let mut post = Vec::with_capacity(count);
    let mut seen = HashSet::new();
    if count > 0 {
        // Iterative DFS: (block, next successor index).
        let mut stack = vec![(0usize, 0usize)];
        seen.insert(0);
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            let s = successors(b);
            if *next < s.len() {
                let n = s[*next];
                *next += 1;
                if seen.insert(n) {
                    stack.push((n, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
    }
    post.reverse();
    post.extend((0..count).filter(|i| !seen.contains(i)));
    post
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
