//! The names of a function's local values (parameters, blocks, instructions), kept beside
//! llvm-ir's conversion instead of inside it (issue 21).
//!
//! llvm-ir gives every local value and every use of one an `llvm_ir::Name`; a named value's
//! is a boxed `String`, copied for each use. On a module that names its values (clang does),
//! those copies were a fifth of the reader's peak memory (a 1 M-instruction module: 754 →
//! 577 MB with the names kept here instead) and much of its time (reading: 4.2 → 2.5 s). So before llvm-ir converts the module,
//! [`take`] moves the local names out of LLVM's module (which is not used again) into a list
//! per function, and llvm-ir numbers every local value instead (`Name::Number`, no heap).
//! [`LocalNames::build`] then lines the list up with llvm-ir's numbers, walking both in the
//! same order, and the lowering asks [`LocalNames`] for a value's name: its own from the
//! source, or, for a value the source left unnamed, the number llvm-ir would have given it
//! with the names in place (what `llvm-dis` prints), for messages.
//!
//! The order, both LLVM's and llvm-ir's: parameters, then each block's name followed by its
//! instructions, the terminator last. llvm-ir numbers, in that order, every item that can
//! have a name (a block, a parameter, an instruction with a result); an item without one
//! (a store) is in LLVM's list too and is skipped where llvm-ir has no result for it.

use llvm_ir::Name;

use crate::llvm::{self, Value};

use crate::diag::{Error, Result};
use crate::ir;

/// One defined function's local names as the module had them, in the order above (`None`:
/// unnamed).
pub(super) struct Taken {
    names: Vec<Option<Box<str>>>,
    /// The flags of the function's instructions in LLVM's order (`llvm::Value::inst_flags`):
    /// llvm-ir does not read them from LLVM 14.
    flags: Vec<llvm::InstFlags>,
    /// How many of its instructions have fast-math flags the graph does not hold (it holds
    /// them on float arithmetic only: not on negations, comparisons, calls, selects, phis).
    pub(super) unheld_fast_math: usize,
}

/// The float arithmetic the graph holds fast-math flags on (`ir::ArithFlags`).
const HELD_FAST_MATH: [llvm::Opcode; 5] = [
    llvm::Opcode::LLVMFAdd,
    llvm::Opcode::LLVMFSub,
    llvm::Opcode::LLVMFMul,
    llvm::Opcode::LLVMFDiv,
    llvm::Opcode::LLVMFRem,
];

/// Take the names of the local values of every defined function out of `module`, with the
/// flags of its instructions.
pub(super) fn take(module: &llvm::Module) -> Vec<Taken> {
    module
        .functions()
        .filter(|f| f.is_definition())
        .map(|f| {
            let mut names: Vec<Option<Box<str>>> = f.params().map(Value::take_name).collect();
            let mut flags = Vec::new();
            let mut unheld_fast_math = 0;
            for b in f.blocks() {
                names.push(b.as_value().take_name());
                for i in b.instructions() {
                    names.push(i.take_name());
                    let f = i.inst_flags();
                    if f.fast.any() && !i.opcode().is_some_and(|o| HELD_FAST_MATH.contains(&o)) {
                        unheld_fast_math += 1;
                    }
                    flags.push(f);
                }
            }
            Taken {
                names,
                flags,
                unheld_fast_math,
            }
        })
        .collect()
}

/// What the source called a value llvm-ir numbered.
#[derive(Debug, Clone)]
enum Source {
    Named(Box<str>),
    /// Unnamed in the source: the number it would have had.
    Numbered(usize),
}

/// One function's local names by llvm-ir's numbers. Empty where nothing was taken (a module
/// llvm-ir converted with its names in place, `llvm::Module::to_llvm_ir` alone): its names
/// are then llvm-ir's own.
#[derive(Debug, Default)]
pub(crate) struct LocalNames {
    by_number: Vec<Option<Source>>,
    /// The flags of the instruction numbered `k` (past the end: none).
    flags: Vec<llvm::InstFlags>,
}

impl LocalNames {
    /// The name the source gave `n`'s value, if any (what the graph keeps).
    pub(crate) fn name<'a>(&'a self, n: &'a Name) -> Option<&'a str> {
        match n {
            Name::Name(s) => Some(s),
            Name::Number(k) => match self.by_number.get(*k) {
                Some(Some(Source::Named(s))) => Some(s),
                _ => None,
            },
        }
    }

    /// What instruction `n` promised about overflow (`nsw`, `nuw`), and what its float
    /// arithmetic may assume or relax (the fast-math flags).
    pub(crate) fn flags(&self, n: &Name) -> ir::ArithFlags {
        let w = match n {
            Name::Number(k) => self.flags.get(*k).copied().unwrap_or_default(),
            Name::Name(_) => llvm::InstFlags::default(),
        };
        let f = w.fast;
        ir::ArithFlags {
            nsw: w.nsw,
            nuw: w.nuw,
            exact: false,
            fast: ir::FastMath {
                no_nans: f.nnan,
                no_infs: f.ninf,
                no_signed_zeros: f.nsz,
                allow_recip: f.arcp,
                allow_contract: f.contract,
                allow_reassoc: f.reassoc,
                approx_func: f.afn,
            },
        }
    }

    /// `n` as the source spells it, without `%`: its name, or its number (for messages).
    pub(crate) fn spell(&self, n: &Name) -> String {
        match n {
            Name::Name(s) => s.to_string(),
            Name::Number(k) => match self.by_number.get(*k) {
                Some(Some(Source::Named(s))) => s.to_string(),
                Some(Some(Source::Numbered(orig))) => orig.to_string(),
                _ => k.to_string(),
            },
        }
    }

    /// Line the taken names up with llvm-ir's conversion of the same module: a table for each
    /// of its functions, in its order (both list the defined functions in the module's order;
    /// names are not compared, as llvm-ir cuts a name at a NUL byte and LLVM does not).
    pub(super) fn build(llvm: &llvm_ir::Module, taken: Vec<Taken>) -> Result<Vec<LocalNames>> {
        if taken.is_empty() {
            return Ok(Vec::new());
        }
        if taken.len() != llvm.functions.len() {
            return Err(mismatch("the number of functions"));
        }
        llvm.functions
            .iter()
            .zip(taken)
            .map(|(f, t)| Self::of_function(f, t))
            .collect()
    }

    fn of_function(f: &llvm_ir::Function, taken: Taken) -> Result<LocalNames> {
        let names = taken.names;
        // llvm-ir's item for each of LLVM's, in order: its number, or None (no result).
        let mut items: Vec<Option<&Name>> = Vec::with_capacity(names.len());
        // The same for the instructions alone.
        let mut results: Vec<Option<&Name>> = Vec::new();
        items.extend(f.parameters.iter().map(|p| Some(&p.name)));
        for bb in &f.basic_blocks {
            items.push(Some(&bb.name));
            let first = results.len();
            results.extend(bb.instrs.iter().map(|i| i.try_get_result()));
            results.push(bb.term.try_get_result());
            items.extend_from_slice(&results[first..]);
        }
        if taken.flags.len() != results.len() {
            return Err(mismatch(&format!(
                "the instructions of function @{}",
                f.name
            )));
        }
        let flags = by_number(&results, &taken.flags);
        if items.len() != names.len() {
            return Err(mismatch(&format!("the values of function @{}", f.name)));
        }
        let mut by_number: Vec<Option<Source>> = Vec::new();
        let mut unnamed = 0;
        for (item, name) in items.into_iter().zip(names) {
            match (item, name) {
                (Some(Name::Number(k)), name) => {
                    let source = match name {
                        Some(s) => Source::Named(s),
                        None => {
                            let number = unnamed;
                            unnamed += 1;
                            Source::Numbered(number)
                        }
                    };
                    if by_number.len() <= *k {
                        by_number.resize(k + 1, None);
                    }
                    by_number[*k] = Some(source);
                }
                // A name LLVM kept, or a value without a result (which has no name).
                (Some(Name::Name(_)), _) | (None, None) => {}
                (None, Some(_)) => {
                    return Err(mismatch(&format!("a named value of function @{}", f.name)))
                }
            }
        }
        Ok(LocalNames { by_number, flags })
    }
}

/// The flags of the instructions (in order, `flags`) by their numbers (`results`).
fn by_number(results: &[Option<&Name>], flags: &[llvm::InstFlags]) -> Vec<llvm::InstFlags> {
    let mut out = Vec::new();
    for (r, w) in results.iter().zip(flags) {
        if let (Some(Name::Number(k)), true) = (r, w.any()) {
            if out.len() <= *k {
                out.resize(k + 1, llvm::InstFlags::default());
            }
            out[*k] = *w;
        }
    }
    out
}

fn mismatch(what: &str) -> Error {
    Error::internal(format!(
        "llvm-ir's conversion does not line up with LLVM's module ({what}); local names \
         cannot be restored"
    ))
}

#[cfg(test)]
mod tests {
    use super::super::{lower, metadata, read_bytes_in_process};
    use crate::diag::Result;
    use crate::ir;

    /// The graph of a module read with its local names left in llvm-ir's conversion.
    fn read_keeping_names(bytes: &[u8]) -> Result<ir::Module> {
        let (md, module) = metadata::read_metadata(
            bytes,
            crate::input::format(bytes) == crate::input::Format::Bitcode,
        )?;
        let llvm = module.to_llvm_ir().expect("no panic");
        lower(&llvm, &md, &[], (Default::default(), &Default::default()))
    }

    /// Every fixture's graph is the same whether llvm-ir kept the local names or they were
    /// taken out and given back by number: names of parameters, blocks and values alike.
    #[test]
    fn every_fixture_reads_as_with_the_names_in_place() {
        let mut compared = 0;
        for dir in ["legacy", "legacy-o0", "modern", "o0"] {
            let path = format!("{}/tests/fixtures/{dir}", env!("CARGO_MANIFEST_DIR"));
            for entry in std::fs::read_dir(&path).expect("fixtures") {
                let path = entry.expect("entry").path();
                if path.extension().is_none_or(|e| e != "bc") {
                    continue;
                }
                let bytes = std::fs::read(&path).expect("read");
                // Flags are read where the names are taken (`take`) only.
                let unflagged = |t: String| {
                    t.replace(" nsw", "")
                        .replace(" nuw", "")
                        .replace(" fast ", " ")
                };
                let taken =
                    read_bytes_in_process(&bytes).map(|m| unflagged(ir::print::print_module(&m)));
                let kept = read_keeping_names(&bytes).map(|m| ir::print::print_module(&m));
                match (taken, kept) {
                    (Ok(a), Ok(b)) => {
                        assert!(a == b, "{}: the graphs differ", path.display());
                        compared += 1;
                    }
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                    (a, b) => panic!("{}: {:?} vs {:?}", path.display(), a.err(), b.err()),
                }
            }
        }
        assert!(compared > 400, "{compared} fixtures compared");
    }

    /// The wrap flags LLVM 14's C API does not expose reach the graph, each on its own
    /// instruction, past a `switch` whose cases take lines of their own.
    #[test]
    fn wrap_flags_are_kept() {
        let text = r#"
target triple = "spir64-unknown-unknown"
define spir_kernel void @k(i32 addrspace(1)* %p, i32 %n) {
entry:
  %a = add nsw i32 %n, 1
  switch i32 %a, label %next [
    i32 0, label %next
    i32 7, label %next
  ]
next:
  %b = shl nuw i32 %a, 2
  %c = mul nuw nsw i32 %b, %n
  %d = sub i32 %c, %n
  %e = add i32 %d, 1
  store i32 %e, i32 addrspace(1)* %p
  ret void
}
"#;
        let m = read_bytes_in_process(text.as_bytes()).unwrap();
        let printed = ir::print::print_module(&m);
        let ops: Vec<&str> = printed
            .lines()
            .filter_map(|l| l.split(" = ").nth(1))
            .filter_map(|r| r.split(" %").next())
            .filter(|r| {
                ["Add", "Sub", "Mul", "Shl"]
                    .iter()
                    .any(|o| r.starts_with(o))
            })
            .collect();
        assert_eq!(
            ops,
            ["Add nsw", "Shl nuw", "Mul nsw nuw", "Sub", "Add"],
            "{printed}"
        );
    }

    /// A value the source left unnamed is named in messages by the number `llvm-dis` shows
    /// (the entry block is %0 here), not by the one llvm-ir gives it once names are taken.
    #[test]
    fn an_unnamed_value_is_spelled_as_the_source_numbers_it() {
        let text = r#"
target triple = "spir64-unknown-unknown"
define spir_kernel void @k(i32 addrspace(1)* %p) {
  %x = add i32 1, 2
  %1 = load atomic i32, i32 addrspace(1)* %p seq_cst, align 4
  ret void
}
"#;
        let e = read_bytes_in_process(text.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.contains("atomic load") && e.contains("%1"), "{e}");
        let kept = read_keeping_names(text.as_bytes()).unwrap_err().to_string();
        assert_eq!(e, kept);
    }
}
