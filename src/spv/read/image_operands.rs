//! The image operands of OpImageRead, OpImageWrite and OpImageSampleExplicitLod, read into
//! what OpenCL C can say: a level of detail, and (SPIR-V 1.4's SignExtend and ZeroExtend)
//! whether integer texels are signed (`read_imagei`) or unsigned (`read_imageui`). Hints
//! OpenCL C has no spelling for (Nontemporal, and the memory model's NonPrivateTexel and
//! VolatileTexel) are dropped; operands it cannot say at all are refused, by name.

use rspirv::dr::{Instruction, Operand};
use spirv::{ImageOperands as Io, Word};

use crate::diag::{Error, Result};
use crate::ir::TexelKind;

/// What an instruction's image operands say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ImageOperands {
    /// The Lod operand's id.
    pub lod: Option<Word>,
    /// Integer texels' signedness (SignExtend: signed, ZeroExtend: unsigned).
    pub unsigned: Option<bool>,
}

impl ImageOperands {
    /// The texel kind `kind` (read off the texel type, whose integers have no sign) as the
    /// operands make it: an integer texel zero-extended is unsigned.
    pub(super) fn texel(&self, kind: TexelKind) -> TexelKind {
        match (kind, self.unsigned) {
            (TexelKind::Signed | TexelKind::Unsigned, Some(true)) => TexelKind::Unsigned,
            (TexelKind::Signed | TexelKind::Unsigned, Some(false)) => TexelKind::Signed,
            (k, _) => k,
        }
    }
}

/// Image operands OpenCL C has no spelling for, by the names the SPIR-V specification gives
/// them, and why.
const REFUSED: [(Io, &str, &str); 10] = [
    (
        Io::BIAS,
        "Bias",
        "implicit levels of detail are the fragment stage's",
    ),
    (
        Io::GRAD,
        "Grad",
        "OpenCL C samples at a level of detail, not by gradients",
    ),
    (
        Io::CONST_OFFSET,
        "ConstOffset",
        "OpenCL C has no texel offsets",
    ),
    (Io::OFFSET, "Offset", "OpenCL C has no texel offsets"),
    (
        Io::CONST_OFFSETS,
        "ConstOffsets",
        "OpenCL C has no texel offsets",
    ),
    (Io::OFFSETS, "Offsets", "OpenCL C has no texel offsets"),
    (
        Io::SAMPLE,
        "Sample",
        "OpenCL C's multisample images are read without a sample number",
    ),
    (
        Io::MIN_LOD,
        "MinLod",
        "OpenCL C has no level-of-detail clamp",
    ),
    (
        Io::MAKE_TEXEL_AVAILABLE,
        "MakeTexelAvailable",
        "the Vulkan memory model's, not OpenCL's",
    ),
    (
        Io::MAKE_TEXEL_VISIBLE,
        "MakeTexelVisible",
        "the Vulkan memory model's, not OpenCL's",
    ),
];

/// The image operands of `inst` from operand `at` on (none there: no operands); `what`
/// names the instruction in errors.
pub(super) fn read(inst: &Instruction, at: usize, what: &str) -> Result<ImageOperands> {
    let mut out = ImageOperands::default();
    let flags = match inst.operands.get(at) {
        None => return Ok(out),
        Some(Operand::ImageOperands(f)) => *f,
        Some(_) => {
            return Err(Error::malformed(format!(
                "{what}: operand {at} is not an image operands mask"
            )))
        }
    };
    if let Some((_, name, why)) = REFUSED.iter().find(|(f, _, _)| flags.contains(*f)) {
        return Err(Error::unsupported(format!(
            "{what} with the {name} image operand ({why})"
        )));
    }
    if flags.contains(Io::SIGN_EXTEND) && flags.contains(Io::ZERO_EXTEND) {
        return Err(Error::malformed(format!(
            "{what} with both the SignExtend and ZeroExtend image operands"
        )));
    }
    if flags.contains(Io::LOD) {
        match inst.operands.get(at + 1) {
            Some(Operand::IdRef(id)) => out.lod = Some(*id),
            _ => {
                return Err(Error::malformed(format!(
                    "{what}: the Lod image operand has no id after the mask"
                )))
            }
        }
    }
    if flags.contains(Io::SIGN_EXTEND) {
        out.unsigned = Some(false);
    }
    if flags.contains(Io::ZERO_EXTEND) {
        out.unsigned = Some(true);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rspirv::dr::Instruction;
    use spirv::Op;

    fn read_op(ops: Vec<Operand>) -> Result<ImageOperands> {
        let mut all = vec![Operand::IdRef(1), Operand::IdRef(2)];
        all.extend(ops);
        read(
            &Instruction::new(Op::ImageRead, Some(3), Some(4), all),
            2,
            "OpImageRead",
        )
    }

    #[test]
    fn sign_and_zero_extension_decide_the_texel_kind() {
        let zext = read_op(vec![Operand::ImageOperands(Io::ZERO_EXTEND)]).unwrap();
        assert_eq!(zext.texel(TexelKind::Signed), TexelKind::Unsigned);
        assert_eq!(zext.texel(TexelKind::Float), TexelKind::Float);
        let sext = read_op(vec![Operand::ImageOperands(
            Io::LOD | Io::SIGN_EXTEND | Io::NONTEMPORAL,
        )]);
        assert!(sext.is_err(), "a Lod without its id is malformed");
        let sext = read_op(vec![
            Operand::ImageOperands(Io::LOD | Io::SIGN_EXTEND | Io::NONTEMPORAL),
            Operand::IdRef(9),
        ])
        .unwrap();
        assert_eq!(sext.lod, Some(9));
        assert_eq!(sext.texel(TexelKind::Unsigned), TexelKind::Signed);
        assert_eq!(read_op(vec![]).unwrap(), ImageOperands::default());
    }

    #[test]
    fn operands_opencl_cannot_say_are_refused_by_name() {
        let e = read_op(vec![
            Operand::ImageOperands(Io::CONST_OFFSET),
            Operand::IdRef(9),
        ])
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("ConstOffset image operand") && !e.contains("Some("),
            "{e}"
        );
    }
}
