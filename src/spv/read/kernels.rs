//! OpEntryPoint + execution modes + OpString argument info -> `ir::Kernel`.

use spirv::ExecutionMode as M;

use super::Reader;
use crate::diag::{Error, Result};
use crate::ir::{self, AddressSpace, Type};

impl Reader {
    pub(super) fn kernels(&mut self) -> Result<()> {
        let mut any_contraction_off = false;
        let entry_points = std::mem::take(&mut self.ann.entry_points);
        for ep in &entry_points {
            let Some(super::Entity::Function(h)) = self.ids.get(&ep.function).copied() else {
                return Err(Error::malformed(format!(
                    "word {}: entry point '{}' names %{}, which is not a function",
                    ep.at, ep.name, ep.function
                )));
            };
            if self.m.functions[h].body.is_none() {
                return Err(Error::malformed(format!(
                    "word {}: entry point '{}' has no body",
                    ep.at, ep.name
                )));
            }
            let f = &mut self.m.functions[h];
            f.is_kernel = true;
            f.linkage = ir::Linkage::Export;
            let mut k = ir::Kernel {
                function: h,
                args: Vec::new(),
                reqd_work_group_size: None,
                work_group_size_hint: None,
                vec_type_hint: None,
                reqd_sub_group_size: None,
                other_modes: Vec::new(),
            };
            for (mode, lits) in self
                .ann
                .modes
                .get(&ep.function)
                .cloned()
                .unwrap_or_default()
            {
                // The *Id forms (SPIR-V 1.2) name constants: read them as the literal forms.
                let (mode, lits) = match mode {
                    M::LocalSizeId | M::LocalSizeHintId | M::SubgroupsPerWorkgroupId => {
                        let values = lits
                            .iter()
                            .map(|&id| {
                                self.int_constant(id).map(|v| v as u32).map_err(|_| {
                                    Error::unsupported(format!(
                                        "{mode:?} operand %{id}, which is not a constant \
                                         (a specialization constant cannot be kept)"
                                    ))
                                })
                            })
                            .collect::<Result<Vec<u32>>>()?;
                        let literal = match mode {
                            M::LocalSizeId => M::LocalSize,
                            M::LocalSizeHintId => M::LocalSizeHint,
                            _ => M::SubgroupsPerWorkgroup,
                        };
                        (literal, values)
                    }
                    _ => (mode, lits),
                };
                let xyz = || -> Result<[u32; 3]> {
                    match lits.as_slice() {
                        [x, y, z] => Ok([*x, *y, *z]),
                        _ => Err(Error::malformed(format!("{mode:?} needs three sizes"))),
                    }
                };
                match mode {
                    M::LocalSize => k.reqd_work_group_size = Some(xyz()?),
                    M::LocalSizeHint => k.work_group_size_hint = Some(xyz()?),
                    M::SubgroupSize => {
                        k.reqd_sub_group_size = Some(
                            lits.first()
                                .copied()
                                .ok_or_else(|| Error::malformed("SubgroupSize without a size"))?,
                        )
                    }
                    m if crate::mappings::kept_execution_mode(m).is_some() => {
                        k.other_modes.push((m, lits))
                    }
                    M::VecTypeHint => {
                        let code = lits.first().copied().unwrap_or(0);
                        k.vec_type_hint = Some(
                            ir::VecTypeHint::from_spirv_code(&mut self.m, code).ok_or_else(
                                || Error::malformed(format!("VecTypeHint code 0x{code:x}")),
                            )?,
                        );
                    }
                    M::ContractionOff => any_contraction_off = true,
                    // Read with the entry point's body (FnState::fast_math_defaults).
                    M::FPFastMathDefault => {}
                    other => {
                        return Err(Error::unsupported(format!(
                            "execution mode {other:?} on kernel '{}'",
                            ep.name
                        )))
                    }
                }
            }
            k.args = self.arg_info(h, &ep.name);
            self.m.kernels.push(k);
        }
        self.m.source.fp_contract = !any_contraction_off;
        Ok(())
    }

    /// `kernel_arg_<what>.<kernel>.a,b,c,` OpStrings (the Khronos translator's convention).
    fn arg_strings(&self, what: &str, kernel: &str) -> Option<Vec<String>> {
        let s = self.ann.string_after(what, kernel)?;
        let mut v: Vec<String> = s.split(',').map(str::to_string).collect();
        if v.last().is_some_and(|l| l.is_empty()) {
            v.pop();
        }
        Some(v)
    }

    fn arg_info(&mut self, h: ir::Handle<ir::Function>, kernel: &str) -> Vec<ir::ArgInfo> {
        let types = self.arg_strings("kernel_arg_type", kernel);
        let quals = self.arg_strings("kernel_arg_type_qual", kernel);
        let bases = self.arg_strings("kernel_arg_base_type", kernel);
        let params = self.m.functions[h].params.clone();
        params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let t = &self.m.types[p.ty];
                let (space, access) = match t {
                    Type::Pointer { space, .. } => (*space, None),
                    Type::Image(img) => (
                        AddressSpace::Global,
                        Some(img.access.unwrap_or(ir::Access::ReadOnly)),
                    ),
                    Type::Pipe(a) => (AddressSpace::Global, Some(*a)),
                    _ => (AddressSpace::Private, None),
                };
                let stated_type = types.as_ref().and_then(|v| v.get(i).cloned());
                let stated = stated_type.is_some();
                let type_name = stated_type.unwrap_or_else(|| {
                    // SPIR-V integers are signless: signed spellings.
                    self.m
                        .opencl_type_name(p.ty, true)
                        .unwrap_or_else(|| "void".into())
                });
                let q = quals.as_ref().and_then(|v| v.get(i).cloned());
                let qualifiers = match q {
                    // Other producers' words we do not know are ignored, not fatal.
                    Some(q) => ir::TypeQualifiers::parse(&q).0,
                    None => ir::TypeQualifiers {
                        is_const: space == AddressSpace::Constant,
                        is_restrict: p.attrs.noalias,
                        is_volatile: false,
                        is_pipe: matches!(t, Type::Pipe(_)),
                    },
                };
                ir::ArgInfo {
                    name: p.name.clone(),
                    base_type_name: bases
                        .as_ref()
                        .and_then(|v| v.get(i).cloned())
                        .filter(|b| !b.is_empty())
                        .or_else(|| Some(type_name.clone())),
                    type_name,
                    space,
                    access,
                    qualifiers,
                    stated,
                }
            })
            .collect()
    }
}
