//! The layer refuses what LLVM's release build would not check (the safety argument,
//! point 6), and builds what is well-typed into a module LLVM's verifier accepts.

use super::{AttributePlace, Module, Opcode};

/// A module with `define void @f(i32 %x, <2 x float> %v, {i32, float}* %s)` and the builder
/// placed in its entry block.
fn with_function(check: impl FnOnce(&Module, &super::Builder, super::Value)) {
    let m = Module::new("t");
    let i32t = m.int_type(32).unwrap();
    let v2 = m.float_type().vector_of(2).unwrap();
    let st = m.struct_type(&[i32t, m.float_type()], false).unwrap();
    let fty = m
        .function_type(m.void_type(), &[i32t, v2, st.pointer_to(0).unwrap()], false)
        .unwrap();
    let f = m.add_function("f", fty).unwrap();
    let b = m.builder();
    b.position_at_end(f.append_block(&m, "entry").unwrap());
    check(&m, &b, f);
}

#[test]
fn ill_typed_operands_are_refused_not_built() {
    with_function(|m, b, f| {
        let (x, v, s) = (
            f.param(0).unwrap(),
            f.param(1).unwrap(),
            f.param(2).unwrap(),
        );
        let i32t = m.int_type(32).unwrap();
        // A lane of a scalar (LLVM casts the type to a vector without checking).
        assert!(b.extract_element(x, x, "").is_err());
        // Member 2 of a two-member struct, and a struct member chosen by a variable.
        let zero = m.const_int(i32t, 0).unwrap();
        let two = m.const_int(i32t, 2).unwrap();
        let st = s.type_of().element().unwrap();
        assert!(b.gep(st, s, &[zero, two], true, "").is_err());
        assert!(b.gep(st, s, &[zero, x], true, "").is_err());
        assert!(b.gep(st, s, &[zero, zero], true, "").is_ok());
        // An integer constant of a float type; a float constant of an integer type.
        assert!(m.const_int(m.float_type(), 1).is_err());
        assert!(m.const_real(i32t, 1.0).is_err());
        // A load of another type than the pointer's; an add of an int and a vector.
        assert!(b.load(m.float_type(), s, "").is_err());
        assert!(b.binary(Opcode::LLVMAdd, x, v, "").is_err());
        assert!(b.binary(Opcode::LLVMFAdd, x, x, "").is_err());
        // A trunc that widens; a bitcast between sizes.
        assert!(b
            .cast(Opcode::LLVMTrunc, x, m.int_type(64).unwrap(), "")
            .is_err());
        assert!(b.cast(Opcode::LLVMBitCast, x, m.double_type(), "").is_err());
        // A call with the wrong arguments, an alignment on an add.
        assert!(b.call(f, &[x], "").is_err());
        let sum = b.binary(Opcode::LLVMAdd, x, x, "sum").unwrap();
        assert!(sum.set_alignment(4).is_err());
        // A type attribute without its type, a parameter the function does not have.
        assert!(f
            .add_enum_attribute(m, AttributePlace::Param(0), "byval")
            .is_err());
        assert!(f
            .add_enum_attribute(m, AttributePlace::Param(3), "noalias")
            .is_err());
        let messages = b.extract_element(x, x, "").unwrap_err().to_string();
        assert!(messages.contains("i32"), "{messages}");
        b.ret_void().unwrap();
    });
}

#[test]
fn well_typed_instructions_make_a_module_the_verifier_accepts() {
    with_function(|m, b, f| {
        let (x, v, s) = (
            f.param(0).unwrap(),
            f.param(1).unwrap(),
            f.param(2).unwrap(),
        );
        let i32t = m.int_type(32).unwrap();
        let st = s.type_of().element().unwrap();
        let zero = m.const_int(i32t, 0).unwrap();
        let one = m.const_int(i32t, 1).unwrap();
        let p = b.gep(st, s, &[zero, one], true, "p").unwrap();
        let lane = b.extract_element(v, zero, "lane").unwrap();
        b.store(lane, p).unwrap();
        let y = b
            .cast(Opcode::LLVMSExt, x, m.int_type(64).unwrap(), "y")
            .unwrap();
        assert_eq!(b.int_cast(y, i32t, "").unwrap().type_of(), i32t);
        // A cast to the same type is the value itself, as LLVM's builder makes it.
        assert_eq!(b.cast(Opcode::LLVMBitCast, x, i32t, "").unwrap(), x);
        let shuffled = b.shuffle(m, v, v, &[Some(1), None, Some(0)], "").unwrap();
        assert_eq!(shuffled.type_of().vector().map(|(_, n)| n), Some(3));
        f.add_enum_attribute(m, AttributePlace::Function, "nounwind")
            .unwrap();
        b.ret_void().unwrap();
        m.verify().unwrap();
        let text = String::from_utf8(m.text()).unwrap();
        assert!(text.contains("getelementptr inbounds"), "{text}");
        assert!(text.contains("shufflevector"), "{text}");
    });
}

#[test]
fn nothing_is_built_outside_a_block() {
    let m = Module::new("t");
    let b = m.builder();
    assert!(b.ret_void().is_err());
    let i32t = m.int_type(32).unwrap();
    assert!(b.alloca(i32t, "x").is_err());
}
