//! [`Sign`]: the signedness an operation gives an integer (the graph's integers are
//! signless).

/// Signedness of an integer operand or result, where an operation needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sign {
    /// Two's complement, signed.
    Signed,
    /// Unsigned.
    Unsigned,
}
