//! The flags of an instruction that LLVM 14's C API can neither read nor set: the fast-math
//! flags of float arithmetic (`fadd fast`, `fmul nnan ninf`) and the wrap and exactness flags
//! of integer arithmetic (`add nsw`, `udiv exact`). They are reached through the crate's one
//! C++ file, `inst_flags.cpp` (two functions; build/link.rs compiles it), which checks the kind of
//! the value it is given with LLVM's own `dyn_cast`: any value of a live module is a valid
//! argument (point 3 of the safety argument holds inside it), and a value without such flags
//! has none.

use std::ffi::{c_int, c_uint};

use llvm_sys::prelude::LLVMValueRef;

use super::Value;

extern "C" {
    fn spir_xlate_inst_flags(value: LLVMValueRef) -> c_uint;
    fn spir_xlate_set_inst_flags(value: LLVMValueRef, bits: c_uint) -> c_int;
}

/// The bits `inst_flags.cpp` uses (LLVM 18's `LLVMFastMathFlags` in the low seven).
mod bit {
    pub const REASSOC: u32 = 1 << 0;
    pub const NO_NANS: u32 = 1 << 1;
    pub const NO_INFS: u32 = 1 << 2;
    pub const NO_SIGNED_ZEROS: u32 = 1 << 3;
    pub const ALLOW_RECIP: u32 = 1 << 4;
    pub const CONTRACT: u32 = 1 << 5;
    pub const APPROX_FUNC: u32 = 1 << 6;
    pub const NSW: u32 = 1 << 8;
    pub const NUW: u32 = 1 << 9;
    pub const EXACT: u32 = 1 << 10;
}

/// LLVM's fast-math flags of one instruction (`fast` is all seven).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FastMathFlags {
    /// `reassoc`: may be reassociated.
    pub reassoc: bool,
    /// `nnan`: no operand or result is a NaN (poison if one is).
    pub nnan: bool,
    /// `ninf`: no operand or result is an infinity.
    pub ninf: bool,
    /// `nsz`: the sign of a zero does not matter.
    pub nsz: bool,
    /// `arcp`: `x / y` may be `x * (1 / y)`.
    pub arcp: bool,
    /// `contract`: may be fused with another operation (a product and a sum into an fma).
    pub contract: bool,
    /// `afn`: may be approximated.
    pub afn: bool,
}

/// The flags of one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InstFlags {
    /// `nsw`: signed overflow makes the result poison.
    pub nsw: bool,
    /// `nuw`: unsigned overflow makes the result poison.
    pub nuw: bool,
    /// `exact`: a division with no remainder, a shift that shifts no set bit out.
    pub exact: bool,
    /// The fast-math flags.
    pub fast: FastMathFlags,
}

impl InstFlags {
    /// Whether any flag is on.
    pub fn any(self) -> bool {
        self != InstFlags::default()
    }

    fn bits(self) -> u32 {
        [
            (self.nsw, bit::NSW),
            (self.nuw, bit::NUW),
            (self.exact, bit::EXACT),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .fold(self.fast.bits(), |all, (_, b)| all | b)
    }
}

impl FastMathFlags {
    /// Whether any flag is on.
    pub fn any(self) -> bool {
        self != FastMathFlags::default()
    }

    fn bits(self) -> u32 {
        [
            (self.reassoc, bit::REASSOC),
            (self.nnan, bit::NO_NANS),
            (self.ninf, bit::NO_INFS),
            (self.nsz, bit::NO_SIGNED_ZEROS),
            (self.arcp, bit::ALLOW_RECIP),
            (self.contract, bit::CONTRACT),
            (self.afn, bit::APPROX_FUNC),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .fold(0, |all, (_, b)| all | b)
    }
}

impl Value<'_> {
    /// The instruction's flags (none for a value that has none).
    pub fn inst_flags(self) -> InstFlags {
        // SAFETY: any value of a live module (point 2); the C++ side checks its kind.
        let b = unsafe { spir_xlate_inst_flags(self.raw()) };
        let on = |bit: u32| b & bit != 0;
        InstFlags {
            nsw: on(bit::NSW),
            nuw: on(bit::NUW),
            exact: on(bit::EXACT),
            fast: FastMathFlags {
                reassoc: on(bit::REASSOC),
                nnan: on(bit::NO_NANS),
                ninf: on(bit::NO_INFS),
                nsz: on(bit::NO_SIGNED_ZEROS),
                arcp: on(bit::ALLOW_RECIP),
                contract: on(bit::CONTRACT),
                afn: on(bit::APPROX_FUNC),
            },
        }
    }

    /// Give the instruction those of `flags` its kind has: fast-math flags to float
    /// arithmetic, a float comparison, a call, phi or select of a float type; wrap flags to
    /// an `add`, `sub`, `mul` or `shl`; exactness to a division or right shift. False,
    /// changing nothing, where it has none. A change through a shared handle, like a name's:
    /// the flags are promises and permissions the verifier does not check, so no value
    /// becomes ill-typed.
    pub fn set_inst_flags(self, flags: InstFlags) -> bool {
        // SAFETY: any value of a live module (point 2); the C++ side checks its kind.
        unsafe { spir_xlate_set_inst_flags(self.raw(), flags.bits()) != 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flags_are_read_and_set() {
        let text = "define float @f(float %a, i32 %i) {\n  %x = fadd nnan ninf float %a, %a\n  \
                    %y = fmul fast float %x, %a\n  %j = add nuw nsw i32 %i, 1\n  \
                    %k = udiv exact i32 %j, 2\n  %z = fsub float %y, %a\n  ret float %z\n}\n";
        let m = crate::llvm::Module::parse(text.as_bytes(), crate::llvm::SourceForm::Text)
            .expect("parses");
        let f = m.functions().next().unwrap();
        let insts: Vec<_> = f.blocks().flat_map(|b| b.instructions()).collect();
        let flags: Vec<_> = insts.iter().map(|i| i.inst_flags()).collect();
        assert!(flags[0].fast.nnan && flags[0].fast.ninf && !flags[0].fast.nsz);
        assert_eq!(flags[1].fast.bits(), 0x7f, "fast is all seven");
        assert!(flags[2].nsw && flags[2].nuw && !flags[2].exact);
        assert!(flags[3].exact && !flags[3].nsw);
        assert!(!flags[4].any());
        // Set on the fsub and the add, refused on the return (no flags there).
        let arcp = InstFlags {
            fast: FastMathFlags {
                arcp: true,
                ..Default::default()
            },
            ..Default::default()
        };
        assert!(insts[4].set_inst_flags(arcp));
        assert_eq!(insts[4].inst_flags(), arcp);
        let nuw = InstFlags {
            nuw: true,
            ..Default::default()
        };
        assert!(insts[2].set_inst_flags(nuw));
        assert_eq!(insts[2].inst_flags(), nuw);
        assert!(!insts[5].set_inst_flags(arcp));
    }
}
