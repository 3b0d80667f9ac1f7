//! Control flow: straight code, if/else, counted loops and switches, joined by phis. A
//! branch's values leave the pool when the branch ends (they do not dominate the join).

use spir_xlate::ir::{ArithFlags, BinaryOp, BlockId, IntPredicate, Op, Terminator, Type, Value};

use super::recipe::{Region, Seed};

use super::body::{mask, seed_type, FnBuilder};

impl FnBuilder<'_> {
    pub fn regions(&mut self, regions: &[Region]) {
        for r in regions {
            self.region(r);
        }
    }

    pub(super) fn seeds(&mut self, seeds: &[Seed]) {
        for s in seeds {
            self.seed(s);
        }
    }

    pub(super) fn region(&mut self, r: &Region) {
        match r {
            Region::Straight(seeds) => self.seeds(seeds),
            Region::IfElse {
                cond,
                then,
                otherwise,
                phi,
            } => {
                // An empty else that cannot be reached (`unreachable`) gives the join no entry.
                let unreachable_else = otherwise.is_empty() && *cond & 0x40 != 0;
                let bool_t = self.m.ty(Type::Bool);
                let cond = self.pick_var(bool_t, *cond);
                let phi_t = seed_type(self.m, *phi);
                let (t, e, join) = (
                    self.new_block("then"),
                    self.new_block("else"),
                    self.new_block("join"),
                );
                self.terminate(Terminator::CondBranch {
                    cond,
                    on_true: BlockId(t as u32),
                    on_false: BlockId(e as u32),
                });
                let mark = self.pool.len();
                let mut incoming = Vec::new();
                for (block, seeds, sel) in [(t, then, 1u16), (e, otherwise, 2)] {
                    self.cur = block;
                    if block == e && unreachable_else {
                        self.terminate(Terminator::Unreachable);
                        continue;
                    }
                    self.seeds(seeds);
                    let v = self.pick(phi_t, sel);
                    incoming.push((v, BlockId(self.cur as u32)));
                    self.terminate(Terminator::Branch(BlockId(join as u32)));
                    self.pool.truncate(mark);
                }
                self.cur = join;
                self.emit(phi_t, Op::Phi { incoming });
            }
            Region::Loop { trips, body, acc } => {
                let i32t = self.m.int_type(32);
                let acc_t = seed_type(self.m, *acc);
                let init = self.pick(acc_t, *trips);
                let bound = self.pick(i32t, trips >> 4);
                let pre = self.cur;
                let (header, bb, exit) = (
                    self.new_block("loop"),
                    self.new_block("body"),
                    self.new_block("exit"),
                );
                self.terminate(Terminator::Branch(BlockId(header as u32)));
                self.cur = header;
                let zero = self.i32_const(0);
                let i = self.emit(
                    i32t,
                    Op::Phi {
                        incoming: vec![(zero, BlockId(pre as u32))],
                    },
                );
                let a = self.emit(
                    acc_t,
                    Op::Phi {
                        incoming: vec![(init, BlockId(pre as u32))],
                    },
                );
                let bool_t = self.m.ty(Type::Bool);
                let more = self.emit(
                    bool_t,
                    Op::ICmp {
                        pred: IntPredicate::Slt,
                        lhs: i,
                        rhs: bound,
                    },
                );
                self.terminate(Terminator::CondBranch {
                    cond: more,
                    on_true: BlockId(bb as u32),
                    on_false: BlockId(exit as u32),
                });
                let mark = self.pool.len();
                self.cur = bb;
                self.seeds(body);
                let next_acc = self.pick_var(acc_t, trips >> 8);
                let one = self.i32_const(1);
                let next_i = self.emit(
                    i32t,
                    Op::Binary {
                        op: BinaryOp::Add,
                        lhs: i,
                        rhs: one,
                        flags: ArithFlags::default(),
                    },
                );
                let latch = BlockId(self.cur as u32);
                self.terminate(Terminator::Branch(BlockId(header as u32)));
                for (phi, v) in [(i, next_i), (a, next_acc)] {
                    let Value::Inst(h) = phi else { unreachable!() };
                    let Op::Phi { incoming } = &mut self.body.insts[h].op else {
                        unreachable!()
                    };
                    incoming.push((v, latch));
                }
                self.pool.truncate(mark);
                self.cur = exit;
            }
            Region::Switch {
                selector,
                cases,
                phi,
            } => {
                let width = [32, 8, 16, 64][*selector as usize % 4];
                let sel_t = self.m.int_type(width);
                let phi_t = seed_type(self.m, *phi);
                let value = self.pick_var(sel_t, *selector);
                let default_value = self.pick(phi_t, *selector >> 3);
                let switch_block = self.cur;
                let join = self.new_block("join");
                let mut seen = std::collections::HashSet::new();
                let mut arms: Vec<(u64, BlockId)> = Vec::new();
                let mut incoming = vec![(default_value, BlockId(switch_block as u32))];
                let mark = self.pool.len();
                for (i, (case, seeds)) in cases.iter().enumerate() {
                    let label = *case as i64 as u64 & mask(width);
                    if !seen.insert(label) {
                        continue;
                    }
                    // A case without seeds shares a target: the join (another edge from the
                    // switch, so another phi entry with the default's value; the SPIR-V
                    // writer routes it through a forwarding block) or the previous case.
                    if seeds.is_empty() {
                        match arms.last() {
                            Some(&(_, previous))
                                if case & 1 == 1 && previous.0 as usize != join =>
                            {
                                arms.push((label, previous))
                            }
                            _ => {
                                arms.push((label, BlockId(join as u32)));
                                incoming.push((default_value, BlockId(switch_block as u32)));
                            }
                        }
                        continue;
                    }
                    let block = self.new_block("case");
                    arms.push((label, BlockId(block as u32)));
                    self.cur = block;
                    self.seeds(seeds);
                    let v = self.pick(phi_t, i as u16 + 1);
                    incoming.push((v, BlockId(self.cur as u32)));
                    self.terminate(Terminator::Branch(BlockId(join as u32)));
                    self.pool.truncate(mark);
                }
                self.cur = switch_block;
                self.terminate(Terminator::Switch {
                    value,
                    default: BlockId(join as u32),
                    cases: arms,
                });
                self.cur = join;
                self.emit(phi_t, Op::Phi { incoming });
            }
        }
    }
}
