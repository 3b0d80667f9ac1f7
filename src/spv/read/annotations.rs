//! Everything SPIR-V says *about* ids, gathered before lowering: names, decorations (group
//! decorations expanded), entry points, execution modes, OpString and OpSource facts.

use crate::hash::{HashMap, HashSet};
use std::cell::RefCell;
use std::collections::BTreeMap;

use rspirv::dr::{Instruction, Operand};
use spirv::{Decoration, Op as S, Word};

use super::{id_operand, literal_operand, string_operand};
use crate::diag::{Error, Result};

pub(crate) struct EntryPoint {
    pub function: Word,
    pub name: String,
    pub at: usize,
}

#[derive(Default)]
pub(crate) struct Annotations {
    pub names: HashMap<Word, String>,
    pub decorations: HashMap<Word, Vec<(Decoration, Vec<Operand>)>>,
    pub entry_points: Vec<EntryPoint>,
    /// Execution modes per function id: (mode, literal operands).
    pub modes: HashMap<Word, Vec<(spirv::ExecutionMode, Vec<u32>)>>,
    /// OpString texts (kernel argument info, compiler options, SPIR version).
    pub strings: Vec<String>,
    /// The first OpString `<what>.<kernel>.<rest>` per (what, kernel), as an index into
    /// `strings` (kernel argument info; a scan per kernel was quadratic in kernels).
    by_prefix: HashMap<(String, String), usize>,
    pub source: Option<(spirv::SourceLanguage, u32)>,
    pub source_extensions: Vec<String>,
    /// The decorations the reader asked about, by target: the others were not kept.
    queried: RefCell<HashSet<(Word, Decoration)>>,
}

impl Annotations {
    /// From the module's instructions and its OpName kept apart (`parse::Names::Apart`).
    pub fn collect(insts: &[(usize, Instruction)], names: Vec<(Word, String)>) -> Result<Self> {
        let mut a = Annotations::default();
        // A later OpName of the same id wins, as when they were met among the instructions.
        a.names.extend(names);
        let mut groups: HashMap<Word, Vec<(Decoration, Vec<Operand>)>> = HashMap::default();
        for (at, inst) in insts {
            a.one(inst, &mut groups)
                .map_err(|e| e.at_value(format!("word {at}")))?;
            if inst.class.opcode == S::EntryPoint {
                let model = inst.operands.first();
                if !matches!(
                    model,
                    Some(Operand::ExecutionModel(spirv::ExecutionModel::Kernel))
                ) {
                    let model = match model {
                        Some(Operand::ExecutionModel(m)) => format!("{m:?}"),
                        other => super::operand_words(other),
                    };
                    return Err(Error::unsupported(format!(
                        "entry point of execution model {model}: only Kernel entry points \
                         are translated"
                    ))
                    .at_value(format!("word {at}")));
                }
                a.entry_points.push(EntryPoint {
                    function: id_operand(inst, 1)?,
                    name: string_operand(inst, 2)?.to_string(),
                    at: *at,
                });
            }
        }
        Ok(a)
    }

    /// What follows `<what>.<kernel>.` in the first OpString that begins so. `what` holds no
    /// dot; a kernel name with one (SPIR-V allows it) is looked for string by string.
    pub fn string_after(&self, what: &str, kernel: &str) -> Option<&str> {
        if kernel.contains('.') {
            let prefix = format!("{what}.{kernel}.");
            return self.strings.iter().find_map(|s| s.strip_prefix(&prefix));
        }
        let i = *self
            .by_prefix
            .get(&(what.to_string(), kernel.to_string()))?;
        Some(&self.strings[i][what.len() + kernel.len() + 2..])
    }

    fn one(
        &mut self,
        inst: &Instruction,
        groups: &mut HashMap<Word, Vec<(Decoration, Vec<Operand>)>>,
    ) -> Result<()> {
        match inst.class.opcode {
            S::Decorate | S::DecorateId | S::DecorateString => {
                let target = id_operand(inst, 0)?;
                let Some(Operand::Decoration(d)) = inst.operands.get(1) else {
                    return Err(Error::malformed("OpDecorate without a decoration"));
                };
                let entry = (*d, inst.operands[2..].to_vec());
                if let Some(g) = groups.get_mut(&target) {
                    g.push(entry);
                } else {
                    self.decorations.entry(target).or_default().push(entry);
                }
            }
            S::DecorationGroup => {
                let id = super::result_id(inst)?;
                // Decorations naming the group were seen first; move them to the group.
                let pending = self.decorations.remove(&id).unwrap_or_default();
                groups.insert(id, pending);
            }
            S::GroupDecorate => {
                let group = id_operand(inst, 0)?;
                let decos = groups.get(&group).cloned().ok_or_else(|| {
                    Error::malformed(format!("%{group} is not an OpDecorationGroup"))
                })?;
                for i in 1..inst.operands.len() {
                    let target = id_operand(inst, i)?;
                    self.decorations
                        .entry(target)
                        .or_default()
                        .extend(decos.iter().cloned());
                }
            }
            S::ExecutionMode | S::ExecutionModeId => {
                let f = id_operand(inst, 0)?;
                let Some(Operand::ExecutionMode(mode)) = inst.operands.get(1) else {
                    return Err(Error::malformed("OpExecutionMode without a mode"));
                };
                let mut lits = Vec::new();
                for i in 2..inst.operands.len() {
                    lits.push(match &inst.operands[i] {
                        Operand::IdRef(id) => *id,
                        _ => literal_operand(inst, i)?,
                    });
                }
                self.modes.entry(f).or_default().push((*mode, lits));
            }
            S::String => {
                let text = string_operand(inst, 0)?;
                if let Some((what, rest)) = text.split_once('.') {
                    if let Some((kernel, _)) = rest.split_once('.') {
                        self.by_prefix
                            .entry((what.to_string(), kernel.to_string()))
                            .or_insert(self.strings.len());
                    }
                }
                self.strings.push(text.to_string());
            }
            S::Source => {
                if let (Some(Operand::SourceLanguage(l)), Some(Operand::LiteralBit32(v))) =
                    (inst.operands.first(), inst.operands.get(1))
                {
                    self.source = Some((*l, *v));
                }
            }
            S::SourceExtension => self
                .source_extensions
                .push(string_operand(inst, 0)?.to_string()),
            _ => {}
        }
        Ok(())
    }

    /// The decorations of `id` of kind `d`.
    pub fn get(&self, id: Word, d: Decoration) -> impl Iterator<Item = &[Operand]> {
        let decos = self.decorations.get(&id);
        if decos.is_some_and(|v| v.iter().any(|(k, _)| *k == d)) {
            self.queried.borrow_mut().insert((id, d));
        }
        decos
            .into_iter()
            .flatten()
            .filter(move |(k, _)| *k == d)
            .map(|(_, ops)| ops.as_slice())
    }

    /// Whether `id` is decorated `FPFastMathMode AllowContract` and nothing else (what
    /// `--mad contract` writes on a product and its sum; SPV_INTEL_fp_fast_math_mode's
    /// AllowContractFastINTEL is the same bit): the product and the sum are then `mad`.
    pub fn contractable(&self, id: Word) -> bool {
        let d = Decoration::FPFastMathMode;
        let only = self.decorations.get(&id).is_some_and(|v| {
            let mut modes = v.iter().filter(|(k, _)| *k == d);
            matches!(
                (modes.next(), modes.next()),
                (Some((_, ops)), None)
                    if matches!(ops.as_slice(),
                        [Operand::FPFastMathMode(m)] if *m == spirv::FPFastMathMode::ALLOW_CONTRACT)
            )
        });
        if only {
            self.queried.borrow_mut().insert((id, d));
        }
        only
    }

    /// What `id`'s `FPFastMathMode` decorations allow (none: nothing), read.
    pub fn fast_math(&self, id: Word) -> crate::ir::FastMath {
        let d = Decoration::FPFastMathMode;
        let mut mode = spirv::FPFastMathMode::NONE;
        for ops in self.get(id, d) {
            if let [Operand::FPFastMathMode(m)] = ops {
                mode |= *m;
            }
        }
        crate::spv::fast_math::fast_of(mode)
    }

    pub fn has(&self, id: Word, d: Decoration) -> bool {
        self.get(id, d).next().is_some()
    }

    /// The first literal operand of decoration `d` on `id` (Alignment, SpecId, ...).
    pub fn literal(&self, id: Word, d: Decoration) -> Option<u32> {
        self.get(id, d).find_map(|ops| match ops.first() {
            Some(Operand::LiteralBit32(v)) => Some(*v),
            _ => None,
        })
    }

    /// The decorations the reader never asked about, by kind: how many ids have one, and the
    /// lowest such id. Layout decorations are left out (a type's layout is derived again), and
    /// so are built-in variables' (read as work-item queries, whose results are constant and
    /// defined by the environment, wherever the variable was declared).
    pub fn unread(&self) -> BTreeMap<u32, (Decoration, usize, Word)> {
        let queried = self.queried.borrow();
        let mut out: BTreeMap<u32, (Decoration, usize, Word)> = BTreeMap::new();
        for (&id, decos) in &self.decorations {
            if decos.iter().any(|(d, _)| *d == Decoration::BuiltIn) {
                continue;
            }
            for (d, _) in decos {
                if queried.contains(&(id, *d))
                    || matches!(
                        d,
                        Decoration::Offset | Decoration::ArrayStride | Decoration::MatrixStride
                    )
                {
                    continue;
                }
                let e = out.entry(*d as u32).or_insert((*d, 0, id));
                e.1 += 1;
                e.2 = e.2.min(id);
            }
        }
        out
    }

    /// LinkageAttributes: (name, type).
    pub fn linkage(&self, id: Word) -> Option<(String, spirv::LinkageType)> {
        self.get(id, Decoration::LinkageAttributes)
            .find_map(|ops| match ops {
                [Operand::LiteralString(n), Operand::LinkageType(t)] => Some((n.clone(), *t)),
                _ => None,
            })
    }
}
