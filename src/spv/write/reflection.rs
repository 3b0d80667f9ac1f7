//! The kernel interface of a shader-form graph (`ir::interface`) spelled as
//! `NonSemantic.ClspvReflection.5` instructions, which clvk-style runtimes read to bind
//! arguments. They go after the last function, as clspv writes them (the kernel records name
//! entry functions, which must be defined first).

use rspirv::binary::Assemble;
use rspirv::dr::{Instruction, Operand};
use spirv::{NonsemanticClspvreflectionOp as R, Op, Word};

use crate::ir::interface::ProgramScopePlace;

use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::interface::{ArgInterface, ArgKind};
use crate::ir::{self};

/// The reflection instructions, ready to append once the module is assembled.
pub(super) struct Reflection {
    insts: Vec<Instruction>,
}

/// The reflection instructions being collected: each is an OpExtInst of the imported set.
struct Records {
    set: Word,
    void: Word,
    insts: Vec<Instruction>,
}

impl Records {
    /// Append reflection instruction `op` with id operands `operands`; its result id.
    fn push(&mut self, w: &mut Writer, op: R, operands: Vec<Word>) -> Word {
        let id = w.b.id();
        let mut ops = vec![
            Operand::IdRef(self.set),
            Operand::LiteralExtInstInteger(op as u32),
        ];
        ops.extend(operands.into_iter().map(Operand::IdRef));
        self.insts.push(Instruction::new(
            Op::ExtInst,
            Some(self.void),
            Some(id),
            ops,
        ));
        id
    }
}

impl Writer<'_> {
    /// Declare what the reflection needs (its import, strings, constants) and build its
    /// instructions; `None` for a graph without a shader interface.
    pub(super) fn reflection_ids(&mut self) -> Result<Option<Reflection>> {
        let Some(shader) = &self.m.shader else {
            return Ok(None);
        };
        // With LocalSizeId, the entry points name the constants themselves (`kernel`).
        if let Some(c) = shader
            .workgroup_size
            .filter(|_| !shader.workgroup_size_by_id)
        {
            let id = self.constant(c)?;
            self.b.decorate(
                id,
                spirv::Decoration::BuiltIn,
                [Operand::BuiltIn(spirv::BuiltIn::WorkgroupSize)],
            );
        }
        // Core from SPIR-V 1.6; declaring it there too is allowed, and the version is only
        // known once the module is written.
        if self.extensions.insert("SPV_KHR_non_semantic_info") {
            self.b.extension("SPV_KHR_non_semantic_info");
        }
        let set = self.b.ext_inst_import("NonSemantic.ClspvReflection.5");
        let void = self.b.type_void();
        let mut rec = Records {
            set,
            void,
            insts: Vec::new(),
        };
        for k in &shader.kernels {
            let func = *self
                .func_ids
                .get(&k.entry)
                .ok_or_else(|| Error::internal("a kernel interface names no written function"))?;
            let name = self.b.string(k.name.clone());
            let nargs = self.u32_const(k.args.len() as u32);
            // Kernel property flags: MayUsePrintf (0x1).
            let flags = self.u32_const(u32::from(k.may_use_printf));
            let attrs = self.b.string("");
            let kernel = rec.push(self, R::Kernel, vec![func, name, nargs, flags, attrs]);
            for a in &k.args {
                self.argument_records(&mut rec, kernel, a);
            }
            if let Some([x, y, z]) = k.required_workgroup_size {
                let (x, y, z) = (self.u32_const(x), self.u32_const(y), self.u32_const(z));
                rec.push(
                    self,
                    R::PropertyRequiredWorkgroupSize,
                    vec![kernel, x, y, z],
                );
            }
        }
        // One range for the module: it heads every kernel's push constants alike.
        if let Some(r) = shader.global_offset {
            let (o, s) = (self.u32_const(r.offset), self.u32_const(r.size));
            rec.push(self, R::PushConstantGlobalOffset, vec![o, s]);
        }
        for s in &shader.literal_samplers {
            let ops = [s.binding.descriptor_set, s.binding.binding, s.mask]
                .map(|v| self.u32_const(v))
                .to_vec();
            rec.push(self, R::LiteralSampler, ops);
        }
        if let Some(p) = &shader.program_scope {
            let data = self.b.string(p.data_hex());
            let (op, a, b) = match p.place {
                ProgramScopePlace::PushConstant(r) => {
                    (R::ProgramScopeVariablePointerPushConstant, r.offset, r.size)
                }
                ProgramScopePlace::StorageBuffer(b) => (
                    R::ProgramScopeVariablesStorageBuffer,
                    b.descriptor_set,
                    b.binding,
                ),
            };
            let (a, b) = (self.u32_const(a), self.u32_const(b));
            rec.push(self, op, vec![a, b, data]);
        }
        if let Some(p) = &shader.printf {
            for f in &p.formats {
                let id = self.u32_const(f.id);
                let text = self.b.string(f.text.clone());
                let mut ops = vec![id, text];
                ops.extend(f.arg_sizes.iter().map(|&n| self.u32_const(n)));
                rec.push(self, R::PrintfInfo, ops);
            }
            let ops = [p.binding.descriptor_set, p.binding.binding, p.buffer_size]
                .map(|v| self.u32_const(v))
                .to_vec();
            rec.push(self, R::PrintfBufferStorageBuffer, ops);
        }
        if shader.workgroup_size.is_some() {
            let [x, y, z] = shader.workgroup_size_spec_ids.map(|i| self.u32_const(i));
            rec.push(self, R::SpecConstantWorkgroupSize, vec![x, y, z]);
        }
        if let Some(d) = shader.work_dim_spec_id {
            let d = self.u32_const(d);
            rec.push(self, R::SpecConstantWorkDim, vec![d]);
        }
        Ok(Some(Reflection { insts: rec.insts }))
    }

    /// The records of one argument of `kernel`: its ArgumentInfo, its binding or push-constant
    /// range, and the push-constant words of an image's channel queries or a sampler's mask.
    fn argument_records(&mut self, rec: &mut Records, kernel: Word, a: &ArgInterface) {
        let arg_name = self.b.string(a.info.name.clone().unwrap_or_default());
        let type_name = self.b.string(a.info.type_name.clone());
        let space = self.u32_const(
            crate::mappings::space_to_kernel_arg(a.info.space).map_or(0, clspv_address_qualifier),
        );
        let access = self.u32_const(match a.info.access {
            Some(ir::Access::ReadOnly) => 0x11A0,
            Some(ir::Access::WriteOnly) => 0x11A1,
            Some(ir::Access::ReadWrite) => 0x11A2,
            None => 0x11A3,
        });
        let q = &a.info.qualifiers;
        let quals = self.u32_const(
            (q.is_const as u32)
                | (q.is_restrict as u32) << 1
                | (q.is_volatile as u32) << 2
                | (q.is_pipe as u32) << 3,
        );
        let info = rec.push(
            self,
            R::ArgumentInfo,
            vec![arg_name, type_name, space, access, quals],
        );
        let ordinal = self.u32_const(a.ordinal);
        let (op, values) = match a.kind {
            ArgKind::PointerPushConstant { offset, size, .. } => {
                (R::ArgumentPointerPushConstant, vec![offset, size])
            }
            ArgKind::PodPushConstant { offset, size } => {
                (R::ArgumentPodPushConstant, vec![offset, size])
            }
            ArgKind::Workgroup { spec_id, elem_size } => {
                (R::ArgumentWorkgroup, vec![spec_id, elem_size])
            }
            ArgKind::StorageBuffer {
                descriptor_set,
                binding,
                ..
            } => (R::ArgumentStorageBuffer, vec![descriptor_set, binding]),
            ArgKind::PodStorageBuffer(r) => (R::ArgumentPodStorageBuffer, buffer_range(r)),
            ArgKind::PodUniform(r) => (R::ArgumentPodUniform, buffer_range(r)),
            ArgKind::PointerUniform { range, .. } => {
                (R::ArgumentPointerUniform, buffer_range(range))
            }
            ArgKind::SampledImage(i) => (
                if i.texel_buffer {
                    R::ArgumentUniformTexelBuffer
                } else {
                    R::ArgumentSampledImage
                },
                vec![i.binding.descriptor_set, i.binding.binding],
            ),
            ArgKind::StorageImage(i) => (
                if i.texel_buffer {
                    R::ArgumentStorageTexelBuffer
                } else {
                    R::ArgumentStorageImage
                },
                vec![i.binding.descriptor_set, i.binding.binding],
            ),
            ArgKind::Sampler { binding: b, .. } => {
                (R::ArgumentSampler, vec![b.descriptor_set, b.binding])
            }
        };
        let mut operands = vec![kernel, ordinal];
        operands.extend(values.into_iter().map(|v| self.u32_const(v)));
        operands.push(info);
        rec.push(self, op, operands);
        if let ArgKind::SampledImage(i) | ArgKind::StorageImage(i) = a.kind {
            let words = [
                (
                    R::ImageArgumentInfoChannelOrderPushConstant,
                    i.channel_order,
                ),
                (
                    R::ImageArgumentInfoChannelDataTypePushConstant,
                    i.channel_data_type,
                ),
            ];
            for (op, r) in words {
                if let Some(r) = r {
                    let (o, s) = (self.u32_const(r.offset), self.u32_const(r.size));
                    rec.push(self, op, vec![kernel, ordinal, o, s]);
                }
            }
        }
        if let ArgKind::Sampler {
            normalized_mask: r, ..
        } = a.kind
        {
            let (o, s) = (self.u32_const(r.offset), self.u32_const(r.size));
            rec.push(
                self,
                R::NormalizedSamplerMaskPushConstant,
                vec![kernel, ordinal, o, s],
            );
        }
    }
}

/// clspv's ArgumentInfo address qualifier: OpenCL's `CL_KERNEL_ARG_ADDRESS_*` value.
fn clspv_address_qualifier(kernel_arg_space: u32) -> u32 {
    match kernel_arg_space {
        1 => 0x119B, // global
        2 => 0x119D, // constant
        3 => 0x119C, // local
        _ => 0x119E, // private
    }
}

/// Append the reflection instructions to an assembled module; the header's id bound already
/// covers them (their ids came from the builder).
pub(super) fn append(words: &mut Vec<u32>, reflection: Option<Reflection>) {
    if let Some(r) = reflection {
        for inst in r.insts {
            inst.assemble_into(words);
        }
    }
}

/// The operands of an argument in the argument buffer: its set, binding, offset and size.
fn buffer_range(r: ir::interface::ArgBufferRange) -> Vec<u32> {
    vec![r.descriptor_set, r.binding, r.offset, r.size]
}
