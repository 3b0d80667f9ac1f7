//! The shape of a function's code: structured where the control flow allows, `goto` for the
//! rest. The layout follows the dominator tree (after Ramsey, "Beyond Relooper", 2022): a
//! block with one way in is written where that branch is; a block where paths meet, or that
//! a loop exits to, is written after the code of the block that dominates it (after the loop,
//! for an exit); a loop header heads a `for (;;)`. A branch becomes nothing where its target
//! is the code that follows, `continue`, `break`, or `goto` to the target's label. Every
//! transfer that is not a fall into the very next code is written out, so the program is
//! right for any control flow, irreducible included, and reads as the source did where the
//! control flow was the source's `if`, loops and `switch`.

use super::function::{FnWriter, Kind};
use crate::diag::Result;
use crate::hash::HashSet;
use crate::ir::{cfg, BlockId, Op, Terminator, Type, Value};

/// The control-flow facts the layout needs.
struct Cfg {
    idom: Vec<Option<usize>>,
    /// Reverse post-order position (`usize::MAX` for unreachable blocks).
    rpo: Vec<usize>,
    /// The blocks of each loop, by header.
    loops: Vec<Option<HashSet<usize>>>,
    /// Where each written-after block goes: after its parent's code, or after the parent's
    /// loop. `None`: written at the one branch that reaches it (or the entry).
    parent: Vec<Option<(usize, bool)>>,
}

impl Cfg {
    fn new(fw: &FnWriter) -> Cfg {
        let blocks = &fw.body.blocks;
        let n = blocks.len();
        let succ: Vec<Vec<usize>> = blocks
            .iter()
            .map(|b| {
                let mut s = b.terminator.successors();
                let mut seen = HashSet::default();
                s.retain(|x| seen.insert(*x));
                s
            })
            .collect();
        let idom = cfg::dominators(&succ, 0);
        let mut rpo = vec![usize::MAX; n];
        for (i, b) in cfg::reverse_post_order(n, |b| succ[b].clone())
            .into_iter()
            .enumerate()
        {
            if idom[b].is_some() {
                rpo[b] = i;
            }
        }
        let mut preds = vec![Vec::new(); n];
        for (b, ss) in succ.iter().enumerate() {
            if idom[b].is_none() {
                continue;
            }
            for &s in ss {
                preds[s].push(b);
            }
        }
        let dom = |a: usize, b: usize| cfg::dominates(&idom, a, b);
        // Natural loops: the blocks that reach a back edge's source without the header.
        let mut loops: Vec<Option<HashSet<usize>>> = vec![None; n];
        for h in 0..n {
            let latches: Vec<usize> = preds[h].iter().copied().filter(|&p| dom(h, p)).collect();
            if latches.is_empty() {
                continue;
            }
            let mut body: HashSet<usize> = HashSet::default();
            body.insert(h);
            let mut stack = latches;
            while let Some(b) = stack.pop() {
                if body.insert(b) {
                    stack.extend(preds[b].iter().copied());
                }
            }
            loops[h] = Some(body);
        }
        let mut parent = vec![None; n];
        for b in 1..n {
            let Some(id) = idom[b] else { continue };
            let forward = preds[b].iter().filter(|&&p| !dom(b, p)).count();
            let exit = preds[b].iter().any(|&p| {
                loops
                    .iter()
                    .flatten()
                    .any(|l| l.contains(&p) && !l.contains(&b))
            });
            if forward < 2 && !exit {
                continue;
            }
            // Out of every loop that holds the dominator and not the block: after the
            // outermost such loop.
            let outer = (0..n)
                .filter(|&h| {
                    loops[h]
                        .as_ref()
                        .is_some_and(|l| l.contains(&id) && !l.contains(&b))
                })
                .min_by_key(|&h| rpo[h]);
            parent[b] = Some(match outer {
                Some(h) => (h, true),
                None => (id, false),
            });
        }
        Cfg {
            idom,
            rpo,
            loops,
            parent,
        }
    }

    fn is_back_edge(&self, from: usize, to: usize) -> bool {
        cfg::dominates(&self.idom, to, from)
    }

    fn children(&self, x: usize, after: bool) -> Vec<usize> {
        let mut c: Vec<usize> = (0..self.parent.len())
            .filter(|&b| self.parent[b] == Some((x, after)))
            .collect();
        c.sort_by_key(|&b| self.rpo[b]);
        c
    }
}

/// A line of the body: code at an indentation, or a block's label (written if used).
#[derive(Clone)]
enum Line {
    Code(usize, String),
    Label(usize, usize),
}

/// Where a region's code sits: what comes right after it, the innermost loop's header
/// (`continue`) and where `break` goes.
#[derive(Clone, Copy)]
struct Ctx {
    follow: Option<usize>,
    loop_header: Option<usize>,
    break_to: Option<usize>,
    depth: usize,
}

struct Layout<'a, 'w, 'm> {
    fw: &'a mut FnWriter<'w, 'm>,
    cfg: Cfg,
    lines: Vec<Line>,
}

/// The statements of the function's body, indented one level.
pub fn write_body(fw: &mut FnWriter) -> Result<String> {
    let cfg = Cfg::new(fw);
    let mut l = Layout {
        fw,
        cfg,
        lines: Vec::new(),
    };
    let ctx = Ctx {
        follow: None,
        loop_header: None,
        break_to: None,
        depth: 1,
    };
    l.tree(0, ctx)?;
    let f = l.fw.f;
    let needs_return = !matches!(l.fw.w.m.types[f.ret], Type::Void)
        && l.fw
            .body
            .blocks
            .iter()
            .any(|b| matches!(b.terminator, Terminator::Unreachable));
    if needs_return {
        let zero = l.fw.w.zero(f.ret)?;
        l.code(1, format!("return {};", zero.text));
    }
    // A void function's last `return;` says nothing.
    if let Some(Line::Code(1, s)) = l.lines.last() {
        if s == "return;" {
            l.lines.pop();
        }
    }
    let mut out = String::new();
    for line in &l.lines {
        match line {
            Line::Code(d, s) => {
                out.push_str(&"  ".repeat(*d));
                out.push_str(s);
                out.push('\n');
            }
            Line::Label(d, b) if l.fw.labels.contains(&BlockId(*b as u32)) => {
                out.push_str(&"  ".repeat(d.saturating_sub(1)));
                out.push_str(&format!("{}:;\n", l.fw.label(BlockId(*b as u32))));
            }
            Line::Label(..) => {}
        }
    }
    Ok(out)
}

impl Layout<'_, '_, '_> {
    fn code(&mut self, depth: usize, s: String) {
        self.lines.push(Line::Code(depth, s));
    }

    /// Block `x` and every block written after it.
    fn tree(&mut self, x: usize, ctx: Ctx) -> Result<()> {
        let inside = self.cfg.children(x, false);
        self.lines.push(Line::Label(ctx.depth, x));
        if self.cfg.loops[x].is_none() {
            return self.sequence(x, &inside, ctx.follow, ctx);
        }
        let after = self.cfg.children(x, true);
        let after_follow = after.first().copied().or(ctx.follow);
        self.code(ctx.depth, "for (;;) {".into());
        let body = Ctx {
            follow: Some(x),
            loop_header: Some(x),
            break_to: after_follow,
            depth: ctx.depth + 1,
        };
        self.sequence(x, &inside, Some(x), body)?;
        self.code(ctx.depth, "}".into());
        for (i, &k) in after.iter().enumerate() {
            let follow = after.get(i + 1).copied().or(ctx.follow);
            self.tree(k, Ctx { follow, ..ctx })?;
        }
        Ok(())
    }

    /// Block `x`'s code, then the trees of `kids` in order; the last is followed by `last`.
    fn sequence(&mut self, x: usize, kids: &[usize], last: Option<usize>, ctx: Ctx) -> Result<()> {
        let first_follow = kids.first().copied().or(last);
        self.block(
            x,
            Ctx {
                follow: first_follow,
                ..ctx
            },
        )?;
        for (i, &k) in kids.iter().enumerate() {
            let follow = kids.get(i + 1).copied().or(last);
            self.tree(k, Ctx { follow, ..ctx })?;
        }
        Ok(())
    }

    /// One block's instructions and terminator.
    fn block(&mut self, x: usize, ctx: Ctx) -> Result<()> {
        let fw = &mut *self.fw;
        let body = fw.body;
        let b = &body.blocks[x];
        let mut stmts = Vec::new();
        for &h in &b.insts {
            fw.instruction(h, &mut stmts)
                .map_err(|e| e.in_block(&block_words(fw, x)))?;
        }
        for s in stmts {
            self.code(ctx.depth, s);
        }
        match &b.terminator {
            Terminator::Branch(t) => self.edge(x, t.0 as usize, ctx)?,
            Terminator::CondBranch {
                on_true, on_false, ..
            } if on_true == on_false => self.edge(x, on_true.0 as usize, ctx)?,
            Terminator::CondBranch {
                cond,
                on_true,
                on_false,
            } => {
                let c = self.fw.terminator_value(*cond)?;
                let d = ctx.depth;
                let inner = Ctx {
                    depth: d + 1,
                    ..ctx
                };
                let then_lines = self.capture(|l| l.edge(x, on_true.0 as usize, inner))?;
                let else_lines = self.capture(|l| l.edge(x, on_false.0 as usize, inner))?;
                match (then_lines.is_empty(), else_lines.is_empty()) {
                    (true, true) => {}
                    (false, true) => self.guarded(d, c.text.clone(), then_lines),
                    (true, false) => {
                        let neg = super::precedence::Expr::unary("!", &c.paren_if_needed());
                        self.guarded(d, neg.text, else_lines);
                    }
                    (false, false) => {
                        self.code(d, format!("if ({}) {{", c.text));
                        self.lines.extend(then_lines);
                        self.code(d, "} else {".into());
                        self.lines.extend(else_lines);
                        self.code(d, "}".into());
                    }
                }
            }
            Terminator::Switch {
                value,
                default,
                cases,
            } => {
                let vt = self.fw.type_of(*value);
                let v = self.fw.terminator_value(*value)?;
                let suffix = match self.fw.w.m.types[vt] {
                    Type::Int { width: 64 } => "UL",
                    _ => "u",
                };
                let d = ctx.depth;
                self.code(d, format!("switch ({}) {{", v.text));
                let arm = Ctx {
                    follow: None,
                    loop_header: ctx.loop_header,
                    break_to: ctx.follow,
                    depth: d + 2,
                };
                let mut targets: Vec<usize> = Vec::new();
                for &(_, t) in cases {
                    if t != *default && !targets.contains(&(t.0 as usize)) {
                        targets.push(t.0 as usize);
                    }
                }
                for t in targets {
                    let labels: Vec<String> = cases
                        .iter()
                        .filter(|c| c.1 .0 as usize == t)
                        .map(|c| format!("case {}{suffix}:", c.0))
                        .collect();
                    self.code(d + 1, format!("{} {{", labels.join(" ")));
                    self.edge(x, t, arm)?;
                    self.code(d + 1, "}".into());
                }
                self.code(d + 1, "default: {".into());
                self.edge(x, default.0 as usize, arm)?;
                self.code(d + 1, "}".into());
                self.code(d, "}".into());
            }
            t @ Terminator::Return(_) => {
                let r = self.fw.ret(t)?;
                self.code(ctx.depth, r);
            }
            Terminator::Unreachable => {}
        }
        Ok(())
    }

    /// `if (cond) { lines }` at depth `d`. Where the lines hold a loop with a barrier (clang's
    /// loop rotation guards a barrier loop so: `if (n > 0) { ...; for (;;) { ... } }`), the
    /// guard is tested at the loop's top instead, `for (;;) { if (!guard) break; ... }`, as
    /// the source's `for` tested it: PoCL forms no barrier regions for a barrier loop inside
    /// a conditional, and stored nothing. The code before the loop and after it keeps the
    /// guard; the form is used only where the code before declares nothing the loop uses.
    fn guarded(&mut self, d: usize, cond: String, lines: Vec<Line>) {
        let Some((pre, body, post)) = split_barrier_loop(d + 1, &lines) else {
            self.code(d, format!("if ({cond}) {{"));
            self.lines.extend(lines);
            self.code(d, "}".into());
            return;
        };
        let guard = self.fw.fresh_name("guard", "guard");
        self.code(d, format!("bool {guard} = {cond};"));
        if !pre.is_empty() {
            self.code(d, format!("if ({guard}) {{"));
            self.lines.extend(pre.to_vec());
            self.code(d, "}".into());
        }
        // The loop one level out, its guard first (after the opening line).
        let mut out: Vec<Line> = body
            .iter()
            .map(|l| match l {
                Line::Code(x, s) => Line::Code(x - 1, s.clone()),
                Line::Label(x, b) => Line::Label(x - 1, *b),
            })
            .collect();
        let open = out
            .iter()
            .position(|l| matches!(l, Line::Code(_, s) if s == "for (;;) {"))
            .unwrap_or(0);
        out.insert(open + 1, Line::Code(d + 1, format!("if (!{guard}) break;")));
        self.lines.extend(out);
        if !post.is_empty() {
            self.code(d, format!("if ({guard}) {{"));
            self.lines.extend(post.to_vec());
            self.code(d, "}".into());
        }
    }

    /// The lines `f` writes, taken out of the body.
    fn capture(&mut self, f: impl FnOnce(&mut Self) -> Result<()>) -> Result<Vec<Line>> {
        let start = self.lines.len();
        f(self)?;
        Ok(self.lines.split_off(start))
    }

    /// The edge `from` → `to` at the end of `from`'s code: the phi copies, then the target's
    /// code where it is written at this branch, or the jump to it.
    fn edge(&mut self, from: usize, to: usize, ctx: Ctx) -> Result<()> {
        let copies = self.phi_copies(from, to)?;
        for c in copies {
            self.code(ctx.depth, c);
        }
        if !self.cfg.is_back_edge(from, to) && self.cfg.parent[to].is_none() && to != 0 {
            return self.tree(to, ctx);
        }
        if ctx.follow == Some(to) {
            return Ok(());
        }
        let s = if ctx.loop_header == Some(to) {
            "continue;".to_string()
        } else if self.returns_nothing(to) {
            // An early return is a `return`, not a jump to the function's last line.
            "return;".to_string()
        } else if ctx.break_to.is_some_and(|b| self.passes_to(b, to)) {
            // A loop's exits that meet after it leave it by `break` alike: a `goto` out of
            // a loop with a barrier defeats the barrier regions drivers form (PoCL stored
            // nothing).
            "break;".to_string()
        } else {
            self.fw.labels.insert(BlockId(to as u32));
            format!("goto {};", self.fw.label(BlockId(to as u32)))
        };
        self.code(ctx.depth, s);
        Ok(())
    }

    /// Whether block `b` only returns from a function without a result.
    fn returns_nothing(&self, b: usize) -> bool {
        let block = &self.fw.body.blocks[b];
        block.insts.is_empty() && matches!(block.terminator, Terminator::Return(None))
    }

    /// Whether the code at block `b` comes to block `to` doing nothing on the way: `b` is
    /// `to`, or empty blocks branch from it to `to`, which takes no phi.
    fn passes_to(&mut self, b: usize, to: usize) -> bool {
        let mut at = b;
        for _ in 0..8 {
            if at == to {
                return true;
            }
            let block = &self.fw.body.blocks[at];
            let Terminator::Branch(next) = block.terminator else {
                return false;
            };
            let next = next.0 as usize;
            let body = self.fw.body;
            let phis = body.blocks[next]
                .insts
                .iter()
                .any(|&h| matches!(body.insts[h].op, Op::Phi { .. }));
            if !block.insts.is_empty() || phis {
                return false;
            }
            at = next;
        }
        false
    }

    /// The assignments of the target's phis on the edge, ordered so that none overwrites a
    /// variable a later one still reads; through temporaries where they read each other in
    /// a cycle.
    fn phi_copies(&mut self, from: usize, to: usize) -> Result<Vec<String>> {
        let body = self.fw.body;
        let mut pending = Vec::new();
        for &h in &body.blocks[to].insts {
            let Op::Phi { incoming } = &body.insts[h].op else {
                continue;
            };
            if self.fw.kind.get(&h) == Some(&Kind::Dead) {
                continue;
            }
            let Some((v, _)) = incoming.iter().find(|(_, b)| b.0 as usize == from) else {
                continue;
            };
            if *v == Value::Inst(h) {
                continue;
            }
            let mut reads = Vec::new();
            self.fw.phi_reads(*v, &mut reads);
            let e = self.fw.operand(*v)?;
            let name = self.fw.name_of(h).unwrap_or_default().to_string();
            pending.push((h, name, e, reads));
        }
        let mut out = Vec::new();
        while !pending.is_empty() {
            let free = (0..pending.len()).find(|&i| {
                let target = pending[i].0;
                pending
                    .iter()
                    .enumerate()
                    .all(|(j, p)| j == i || !p.3.contains(&target))
            });
            match free {
                Some(i) => {
                    let (_, name, e, _) = pending.remove(i);
                    out.push(format!("{name} = {};", e.text));
                }
                None => {
                    // A cycle: every value into a temporary first.
                    let mut temps = Vec::new();
                    for (h, name, e, _) in pending.drain(..) {
                        let ty = self.fw.var_type(h)?;
                        let t = self.fw.fresh_name(&format!("{name}_next"), "next");
                        out.push(format!("{} = {};", super::types::declare(&ty, &t), e.text));
                        temps.push((name, t));
                    }
                    for (name, t) in temps {
                        out.push(format!("{name} = {t};"));
                    }
                    return Ok(vec![format!("{{ {} }}", out.join(" "))]);
                }
            }
        }
        Ok(out)
    }
}

/// `lines` (at depth `d`) as (before, the first `for (;;)` at depth `d` holding a barrier
/// with its closing brace, after), where the lines before declare no variable (a `T name =`
/// at depth `d`: the loop, moved out of their block, might use it). A label before the loop
/// at depth `d` belongs to it.
fn split_barrier_loop(d: usize, lines: &[Line]) -> Option<(&[Line], &[Line], &[Line])> {
    let start = lines
        .iter()
        .position(|l| matches!(l, Line::Code(x, s) if *x == d && s == "for (;;) {"))?;
    let end = start
        + lines[start..]
            .iter()
            .position(|l| matches!(l, Line::Code(x, s) if *x == d && s == "}"))?;
    let barrier = lines[start..end].iter().any(|l| {
        matches!(l, Line::Code(_, s) if s.starts_with("barrier(")
            || s.starts_with("work_group_barrier(")
            || s.starts_with("sub_group_barrier("))
    });
    // A declaration at the loop's own depth: its left-hand side is a type and a name.
    let declares = lines[..start].iter().any(|l| {
        matches!(l, Line::Code(x, s) if *x == d
            && s.split_once(" = ").is_some_and(|(lhs, _)| lhs.contains(' ')))
    });
    // A label the loop's code is reached by stays with it.
    let mut from = start;
    while from > 0 && matches!(lines[from - 1], Line::Label(..)) {
        from -= 1;
    }
    (barrier && !declares).then(|| (&lines[..from], &lines[from..=end], &lines[end + 1..]))
}

/// "block 'for.body'" for messages.
fn block_words(fw: &FnWriter, x: usize) -> String {
    fw.body.blocks[x]
        .name
        .clone()
        .unwrap_or_else(|| format!("{x}"))
}

impl super::precedence::Expr {
    /// Parenthesized when it is more than an atom or a prefix (for `!`).
    fn paren_if_needed(&self) -> super::precedence::Expr {
        if self.prec > super::precedence::Prec::Unary {
            self.paren()
        } else {
            self.clone()
        }
    }
}
