//! The wrap flags of integer arithmetic (`add nsw`, `shl nuw`, ...), which LLVM 14's C API
//! has no getter for (`LLVMGetNSW` and `LLVMGetNUW` came with LLVM 17).
//!
//! They are read off the function's assembly text instead, which LLVM prints one instruction
//! to a line: the text is lined up with the function's instructions and each `add`, `sub`,
//! `mul` and `shl` line is checked against the instruction's opcode. Where anything does not
//! line up, no flags are claimed, which is always correct (a flag is a promise; its absence
//! promises nothing). The function's local names should be taken out first
//! (`Value::take_name`): every result is then printed as `%N = `, which no name can disturb.

use super::{Opcode, Value};

/// The wrap flags of one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WrapFlags {
    /// `nsw`: signed overflow makes the result poison.
    pub nsw: bool,
    /// `nuw`: unsigned overflow makes the result poison.
    pub nuw: bool,
}

/// The opcodes that carry wrap flags, and their spellings in LLVM assembly.
const WRAPPING: [(Opcode, &str); 4] = [
    (Opcode::LLVMAdd, "add"),
    (Opcode::LLVMSub, "sub"),
    (Opcode::LLVMMul, "mul"),
    (Opcode::LLVMShl, "shl"),
];

impl Value<'_> {
    /// The wrap flags of every instruction of the defined function, blocks in order and each
    /// block's instructions in order (the terminator last). `None` where the function has no
    /// `add`, `sub`, `mul` or `shl`, or its text does not line up with its instructions.
    pub fn wrap_flags(self) -> Option<Vec<WrapFlags>> {
        let opcodes: Vec<Option<Opcode>> = self
            .blocks()
            .flat_map(|b| b.instructions())
            .map(Value::opcode)
            .collect();
        if !opcodes
            .iter()
            .any(|o| WRAPPING.iter().any(|(w, _)| Some(*w) == *o))
        {
            return None;
        }
        let text = self.printed()?;
        let lines = instruction_lines(&text);
        if lines.len() != opcodes.len() {
            return None;
        }
        lines
            .iter()
            .zip(&opcodes)
            .map(|(line, op)| flags_of(line, *op))
            .collect()
    }
}

/// The lines of a printed function definition that start an instruction: indented by two
/// spaces, inside the braces. A `switch`'s cases (indented further) and its closing `]` are
/// not instructions; labels and comments start at the margin.
fn instruction_lines(text: &str) -> Vec<&str> {
    let mut body = text
        .lines()
        .skip_while(|l| !(l.starts_with("define ") && l.ends_with('{')))
        .skip(1);
    let mut lines = Vec::new();
    for l in body.by_ref() {
        if l == "}" {
            break;
        }
        if let Some(rest) = l.strip_prefix("  ") {
            if !rest.starts_with([' ', ']']) {
                lines.push(rest);
            }
        }
    }
    lines
}

/// The flags one instruction line states, where its opcode is `op`; `None` where the line is
/// not the instruction (a wrapping opcode spelled otherwise).
fn flags_of(line: &str, op: Option<Opcode>) -> Option<WrapFlags> {
    let Some(&(_, spelling)) = WRAPPING.iter().find(|(w, _)| Some(*w) == op) else {
        return Some(WrapFlags::default());
    };
    let inst = match line.strip_prefix('%') {
        Some(_) => line.split_once(" = ")?.1,
        None => line,
    };
    let mut words = inst.split(' ');
    if words.next()? != spelling {
        return None;
    }
    let mut flags = WrapFlags::default();
    for w in words {
        match w {
            "nsw" => flags.nsw = true,
            "nuw" => flags.nuw = true,
            _ => break,
        }
    }
    Some(flags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_switch_s_cases_are_not_instructions() {
        let text = "; Function Attrs: x\ndefine void @f(i32 %0) {\n  %2 = add nsw i32 %0, 1\n  \
                    switch i32 %2, label %3 [\n    i32 0, label %3\n  ]\n\n3:                \
                    ; preds = %1, %1\n  ret void\n}\n";
        let lines = instruction_lines(text);
        assert_eq!(
            lines,
            [
                "%2 = add nsw i32 %0, 1",
                "switch i32 %2, label %3 [",
                "ret void"
            ]
        );
    }

    #[test]
    fn flags_are_read_after_the_opcode_only() {
        let add = Some(Opcode::LLVMAdd);
        let f = |l| flags_of(l, add);
        assert_eq!(f("%3 = add i32 %1, %2"), Some(WrapFlags::default()));
        assert_eq!(
            f("%3 = add nuw nsw i32 %1, %2"),
            Some(WrapFlags {
                nsw: true,
                nuw: true
            })
        );
        assert_eq!(
            flags_of("%3 = shl nuw <2 x i32> %1, %2", Some(Opcode::LLVMShl)),
            Some(WrapFlags {
                nsw: false,
                nuw: true
            })
        );
        // Out of line: no flags claimed for the whole function.
        assert_eq!(f("%3 = sub nsw i32 %1, %2"), None);
        assert_eq!(
            flags_of("call void @nsw()", Some(Opcode::LLVMCall)),
            Some(WrapFlags::default())
        );
    }
}
