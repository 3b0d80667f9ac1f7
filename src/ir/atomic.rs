//! [`AtomicOp`]: what an atomic does to the memory it is given, whichever way it is spelled
//! (OpenCL C 1.x's `atomic_add`/`atom_add`, C11's `atomic_fetch_add_explicit`, SPIR-V's
//! OpAtomicIAdd). The operands and the scope and memory semantics are
//! [`super::Builtin::Atomic`]'s; the spellings are `mappings/atomics*.toml`.

/// Declares [`AtomicOp`] and its list of every variant, from one list.
macro_rules! atomic_ops {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// What an atomic does (see the module's documentation). Integer operations work on
        /// signless integers; where signedness matters there are two (`SMin`, `UMin`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum AtomicOp {
            $($(#[$doc])* $name,)*
        }

        impl AtomicOp {
            /// Every atomic operation, in declaration order.
            pub const ALL: &'static [AtomicOp] = &[$(AtomicOp::$name,)*];
        }
    };
}

atomic_ops! {
    /// Reads the value (`atomic_load`).
    Load,
    /// Writes the value (`atomic_store`).
    Store,
    /// Writes the value, gives the old one (`atomic_xchg`, `atomic_exchange`).
    Exchange,
    /// Writes the value where the old one equals the comparator, gives the old one
    /// (`atomic_cmpxchg`, `atomic_compare_exchange_strong`).
    CompareExchange,
    /// Adds one, gives the old value (`atomic_inc`).
    IIncrement,
    /// Subtracts one, gives the old value (`atomic_dec`).
    IDecrement,
    /// Adds, gives the old value.
    IAdd,
    /// Subtracts, gives the old value.
    ISub,
    /// The signed minimum, gives the old value.
    SMin,
    /// The unsigned minimum, gives the old value.
    UMin,
    /// The signed maximum, gives the old value.
    SMax,
    /// The unsigned maximum, gives the old value.
    UMax,
    /// Bitwise and, gives the old value.
    And,
    /// Bitwise or, gives the old value.
    Or,
    /// Bitwise exclusive or, gives the old value.
    Xor,
    /// Sets the flag, gives whether it was set (`atomic_flag_test_and_set`).
    FlagTestAndSet,
    /// Clears the flag (`atomic_flag_clear`).
    FlagClear,
}

impl AtomicOp {
    /// Whether its integer operands are unsigned (where a spelling needs a sign: IA64
    /// mangling, OpenCL C overloads).
    pub fn unsigned(self) -> bool {
        matches!(self, AtomicOp::UMin | AtomicOp::UMax)
    }
}
