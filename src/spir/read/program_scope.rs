//! Program-scope data in the private address space that another global's initializer points
//! to.
//!
//! SPIR 1.2 producers put string literals and `static` data in LLVM address space 0 and
//! point program-scope pointers at them: `constant char *str = "spir conformance";` became
//! `@.str = private constant [17 x i8]` and `@str = global i8 addrspace(2)* inttoptr (i64
//! ptrtoint ([17 x i8]* @.str to i64) to i8 addrspace(2)*)`. SPIR-V's OpenCL environment has
//! no module-scope private storage; the SPIR-V writer gives each function that uses such a
//! variable its own copy (spv/write/private_globals.rs), which no module-scope initializer
//! can point to. Where the initializer holds the address as an integer (`ptrtoint`, the only
//! way such a producer could point from one address space into another), the variable is
//! given the storage its producer should have given it: constant storage when LLVM says it
//! is constant (its bytes never change, as a string literal's), global storage otherwise
//! (one object for the whole program, as a pointer to it from program scope needs). An
//! initializer holding a private pointer itself stays refused by the writer: the global
//! holding it would have to change type too.

use crate::hash::{HashMap, HashSet};
use crate::ir::AddressSpace;
use llvm_ir::constant::Constant as C;

/// The private-address-space globals of `llvm` whose address another global's initializer
/// holds, with the address space each gets instead.
pub(super) fn promoted(llvm: &llvm_ir::Module) -> HashMap<String, AddressSpace> {
    let mut named = HashSet::default();
    for g in &llvm.global_vars {
        if let Some(init) = &g.initializer {
            references(init, false, &mut named);
        }
    }
    llvm.global_vars
        .iter()
        .filter(|g| g.addr_space == 0)
        .filter_map(|g| {
            let name = super::types::name_str(&g.name);
            named.contains(&name).then(|| {
                let space = if g.is_constant {
                    AddressSpace::Constant
                } else {
                    AddressSpace::Global
                };
                (name, space)
            })
        })
        .collect()
}

/// Adds the names of the globals whose address `c` holds as an integer (under a `ptrtoint`
/// when `as_int` is false; through aggregates, address arithmetic and casts: what an
/// initializer may hold) to `out`.
fn references(c: &llvm_ir::ConstantRef, as_int: bool, out: &mut HashSet<String>) {
    let mut each = |v: &llvm_ir::ConstantRef| references(v, as_int, out);
    match c.as_ref() {
        C::GlobalReference { name, .. } if as_int => {
            out.insert(super::types::name_str(name));
        }
        C::PtrToInt(x) => references(&x.operand, true, out),
        C::Struct { values, .. } => values.iter().for_each(each),
        C::Array { elements, .. } => elements.iter().for_each(each),
        C::Vector(elements) => elements.iter().for_each(each),
        C::GetElementPtr(g) => {
            each(&g.address);
            g.indices.iter().for_each(each);
        }
        C::IntToPtr(x) => each(&x.operand),
        C::BitCast(x) => each(&x.operand),
        C::AddrSpaceCast(x) => each(&x.operand),
        C::Trunc(x) => each(&x.operand),
        C::ZExt(x) => each(&x.operand),
        C::SExt(x) => each(&x.operand),
        C::Add(x) => {
            each(&x.operand0);
            each(&x.operand1);
        }
        C::Sub(x) => {
            each(&x.operand0);
            each(&x.operand1);
        }
        _ => {}
    }
}
