//! Barriers, fences and atomics in OpenCL C 1.2's words where they say exactly what the
//! graph says (`barrier`, `mem_fence`, `atomic_add`, `atom_add`), else OpenCL C 2.0's
//! (`work_group_barrier`, `atomic_work_item_fence`, `atomic_fetch_add_explicit` on a
//! `volatile atomic_T *`).

use crate::ir::AtomicOp as A;
use spirv::{MemorySemantics, Scope};

use super::function::FnWriter;
use super::ops::Shape;
use super::precedence::Expr;
use crate::diag::{Error, Result};
use crate::ir::{AddressSpace, Handle, Type};
use crate::mappings;

const ORDER_MASK: u32 = 0x2 | 0x4 | 0x8 | 0x10;

/// `CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE` for the storage bits of memory semantics.
fn fence_flags(semantics: u32) -> String {
    let s = MemorySemantics::from_bits_truncate(semantics);
    let mut words = Vec::new();
    if s.contains(MemorySemantics::WORKGROUP_MEMORY) {
        words.push("CLK_LOCAL_MEM_FENCE");
    }
    if s.contains(MemorySemantics::CROSS_WORKGROUP_MEMORY) {
        words.push("CLK_GLOBAL_MEM_FENCE");
    }
    if s.contains(MemorySemantics::IMAGE_MEMORY) {
        words.push("CLK_IMAGE_MEM_FENCE");
    }
    if words.is_empty() {
        "0".into()
    } else {
        words.join(" | ")
    }
}

/// The failure order of a compare-exchange: the success order without its release part.
fn failure_order(semantics: u32) -> u32 {
    let order = MemorySemantics::from_bits_truncate(semantics & ORDER_MASK);
    let rest = semantics & !ORDER_MASK;
    rest | if order == MemorySemantics::ACQUIRE_RELEASE {
        MemorySemantics::ACQUIRE.bits()
    } else if order == MemorySemantics::RELEASE {
        0
    } else {
        order.bits()
    }
}

fn scope_word(scope: Scope) -> Result<&'static str> {
    Ok(match scope {
        Scope::Invocation => "memory_scope_work_item",
        Scope::Subgroup => "memory_scope_sub_group",
        Scope::Workgroup => "memory_scope_work_group",
        Scope::Device => "memory_scope_device",
        Scope::CrossDevice => "memory_scope_all_svm_devices",
        s => return Err(Error::unsupported(format!("memory scope {s:?}"))),
    })
}

fn order_word(semantics: u32) -> Result<String> {
    let order = MemorySemantics::from_bits_truncate(semantics & ORDER_MASK);
    let name = if order.is_empty() {
        "relaxed"
    } else {
        mappings::memory_order_name(order).ok_or_else(|| {
            Error::malformed(format!(
                "memory semantics {semantics:#x} with several orders"
            ))
        })?
    };
    Ok(format!("memory_order_{name}"))
}

impl FnWriter<'_, '_> {
    /// `barrier`, `work_group_barrier` or `sub_group_barrier`.
    pub fn control_barrier(&mut self, exec: Scope, mem: Scope, semantics: u32) -> Result<Expr> {
        let flags = fence_flags(semantics);
        Ok(match exec {
            Scope::Workgroup
                if mem == Scope::Workgroup
                    || mem == Scope::Subgroup
                    || mem == Scope::Invocation =>
            {
                Expr::call("barrier", &[Expr::atom(flags)])
            }
            Scope::Workgroup => {
                self.w
                    .needs
                    .version(2, 0, "a work-group barrier at another memory scope");
                Expr::call(
                    "work_group_barrier",
                    &[Expr::atom(flags), Expr::atom(scope_word(mem)?)],
                )
            }
            Scope::Subgroup => {
                self.w.needs.extension("cl_khr_subgroups");
                self.w.needs.version(2, 0, "sub-groups (cl_khr_subgroups)");
                if mem == Scope::Subgroup {
                    Expr::call("sub_group_barrier", &[Expr::atom(flags)])
                } else {
                    Expr::call(
                        "sub_group_barrier",
                        &[Expr::atom(flags), Expr::atom(scope_word(mem)?)],
                    )
                }
            }
            s => {
                return Err(Error::unsupported(format!(
                    "a control barrier at scope {s:?}"
                )))
            }
        })
    }

    /// `mem_fence` and its read and write forms, or `atomic_work_item_fence`.
    pub fn memory_barrier(&mut self, mem: Scope, semantics: u32) -> Result<Expr> {
        let flags = fence_flags(semantics);
        let order = MemorySemantics::from_bits_truncate(semantics & ORDER_MASK);
        let within = matches!(mem, Scope::Invocation | Scope::Subgroup | Scope::Workgroup);
        if within && order != MemorySemantics::SEQUENTIALLY_CONSISTENT {
            let name = match order {
                MemorySemantics::ACQUIRE => "read_mem_fence",
                MemorySemantics::RELEASE => "write_mem_fence",
                _ => "mem_fence",
            };
            Ok(Expr::call(name, &[Expr::atom(flags)]))
        } else {
            self.w.needs.version(
                2,
                0,
                "a memory fence at device scope or sequentially consistent",
            );
            Ok(Expr::call(
                "atomic_work_item_fence",
                &[
                    Expr::atom(flags),
                    Expr::atom(order_word(semantics)?),
                    Expr::atom(scope_word(mem)?),
                ],
            ))
        }
    }

    /// An atomic read-modify-write, load, store, exchange or flag operation.
    pub fn atomic(
        &mut self,
        op: A,
        scope: Scope,
        semantics: u32,
        a: Vec<Expr>,
        tys: &[Handle<Type>],
        ret: Handle<Type>,
    ) -> Result<Expr> {
        let m = self.w.m;
        let Type::Pointer { pointee, space } = m.types[tys[0]] else {
            return Err(Error::malformed(
                "an atomic on a value that is not a pointer",
            ));
        };
        let (_, shape) = self.w.shape(pointee);
        let signed =
            !op.unsigned() && matches!(shape, Shape::Int(_)) && matches!(op, A::SMin | A::SMax);
        let elem = match shape {
            Shape::Int(w) if signed => super::types::sint_name(w).unwrap_or("int").to_string(),
            _ => self.w.type_name(pointee)?,
        };
        let wide = matches!(shape, Shape::Int(64) | Shape::Float(64));
        let legacy = mappings::atomic_name(op);
        let plain = semantics & ORDER_MASK == 0
            && (scope == Scope::Device
                || (scope == Scope::Workgroup && space == AddressSpace::Local))
            && matches!(space, AddressSpace::Global | AddressSpace::Local);
        let value = |w: &mut Self, e: &Expr| {
            if signed {
                w.w.signed(pointee, e)
            } else {
                Ok(e.clone())
            }
        };
        if let (Some(base), true) = (legacy, plain) {
            if wide {
                self.w.needs.extension("cl_khr_int64_base_atomics");
                if matches!(
                    op,
                    A::SMin | A::SMax | A::UMin | A::UMax | A::And | A::Or | A::Xor
                ) {
                    self.w.needs.extension("cl_khr_int64_extended_atomics");
                }
            }
            let sw = super::types::space_word(space)?.unwrap_or("");
            let mut args = vec![Expr::cast(&format!("volatile {sw} {elem} *"), &a[0])];
            for e in &a[1..] {
                args.push(value(self, e)?);
            }
            let name = format!("{}_{base}", if wide { "atom" } else { "atomic" });
            let r = Expr::call(&name, &args);
            return if signed {
                self.w.unsigned(ret, &r)
            } else {
                Ok(r)
            };
        }
        self.w.needs.version(
            2,
            0,
            "an atomic with a memory order or scope OpenCL C 1.2 cannot say",
        );
        if wide {
            self.w.needs.extension("cl_khr_int64_base_atomics");
            self.w.needs.extension("cl_khr_int64_extended_atomics");
        }
        let atomic_ty = if matches!(op, A::FlagTestAndSet | A::FlagClear) {
            "atomic_flag".to_string()
        } else {
            format!("atomic_{elem}")
        };
        let sw = super::types::space_word(space)?
            .map(|w| format!("{w} "))
            .unwrap_or_default();
        let p = Expr::cast(&format!("volatile {sw}{atomic_ty} *"), &a[0]);
        let order = Expr::atom(order_word(semantics)?);
        let sc = Expr::atom(scope_word(scope)?);
        if op == A::CompareExchange {
            // The C11 form returns whether it stored and leaves the old value in `expected`:
            // `(expected = cmp, atomic_compare_exchange_strong_explicit(p, &expected, value,
            // order, failure order, scope), expected)`.
            let ty = self.w.type_name(pointee)?;
            let expected = self.temporary(&ty, "expected");
            let fail = order_word(failure_order(semantics))?;
            let call = Expr::call(
                "atomic_compare_exchange_strong_explicit",
                &[
                    p,
                    Expr::atom(format!("&{expected}")),
                    value(self, &a[2])?,
                    order,
                    Expr::atom(fail),
                    sc,
                ],
            );
            let cmp = value(self, &a[1])?;
            let r = Expr::atom(format!(
                "({expected} = {}, {}, {expected})",
                cmp.text, call.text
            ));
            return if signed {
                self.w.unsigned(ret, &r)
            } else {
                Ok(r)
            };
        }
        // An increment's 1 of the atomic's own type (a bare 1 is ambiguous for 64-bit ones).
        let one = Expr::cast(&elem, &Expr::atom("1"));
        let (base, v) = match op {
            A::IIncrement => (mappings::c11_atomic_name(A::IAdd), Some(one)),
            A::IDecrement => (mappings::c11_atomic_name(A::ISub), Some(one)),
            _ => (
                mappings::c11_atomic_name(op),
                match a.get(1) {
                    Some(e) => Some(value(self, e)?),
                    None => None,
                },
            ),
        };
        let base = base.ok_or_else(|| Error::unsupported(format!("atomic Op{op:?}")))?;
        let mut args = vec![p];
        args.extend(v);
        args.extend([order, sc]);
        let r = Expr::call(&format!("{base}_explicit"), &args);
        if signed {
            self.w.unsigned(ret, &r)
        } else {
            Ok(r)
        }
    }
}
