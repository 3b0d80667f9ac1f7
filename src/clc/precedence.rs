//! Expressions as text with their precedence, so that an operand is parenthesized exactly
//! where C's grammar needs it.

/// How tightly an expression binds, loosest last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Prec {
    /// A name, literal, call, subscript or member: usable anywhere.
    Atom,
    /// A cast or a prefix operator (`(int)x`, `-x`, `*p`, `&x`).
    Unary,
    /// A binary operator (`a + b`).
    Binary,
    /// A conditional (`c ? a : b`).
    Cond,
}

/// An expression of the output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// Its text.
    pub text: String,
    /// Its precedence.
    pub prec: Prec,
}

impl Expr {
    /// A name, literal, call, subscript or member access.
    pub fn atom(text: impl Into<String>) -> Expr {
        Expr {
            text: text.into(),
            prec: Prec::Atom,
        }
    }

    /// A cast or prefix operator applied to an operand.
    pub fn unary(op: &str, operand: &Expr) -> Expr {
        Expr {
            text: format!("{op}{}", operand.at(Prec::Unary)),
            prec: Prec::Unary,
        }
    }

    /// `lhs op rhs`, each operand parenthesized unless it is a cast, prefix or atom.
    pub fn binary(lhs: &Expr, op: &str, rhs: &Expr) -> Expr {
        Expr {
            text: format!("{} {op} {}", lhs.at(Prec::Unary), rhs.at(Prec::Unary)),
            prec: Prec::Binary,
        }
    }

    /// `cond ? a : b`.
    pub fn cond(cond: &Expr, a: &Expr, b: &Expr) -> Expr {
        Expr {
            text: format!(
                "{} ? {} : {}",
                cond.at(Prec::Unary),
                a.at(Prec::Unary),
                b.at(Prec::Unary)
            ),
            prec: Prec::Cond,
        }
    }

    /// `(ty)operand`.
    pub fn cast(ty: &str, operand: &Expr) -> Expr {
        Expr::unary(&format!("({ty})"), operand)
    }

    /// `name(args...)`.
    pub fn call(name: &str, args: &[Expr]) -> Expr {
        let args: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
        Expr::atom(format!("{name}({})", args.join(", ")))
    }

    /// The text for a place that binds at most as loosely as `max`: parenthesized when this
    /// expression binds more loosely.
    pub fn at(&self, max: Prec) -> String {
        if self.prec > max {
            format!("({})", self.text)
        } else {
            self.text.clone()
        }
    }

    /// The text as the operand of a postfix operator (`x.s0`, `x[i]`, `x.m1`).
    pub fn postfix(&self) -> String {
        self.at(Prec::Atom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_are_parenthesized_only_where_needed() {
        let a = Expr::atom("a");
        let sum = Expr::binary(&a, "+", &Expr::atom("b"));
        let prod = Expr::binary(&sum, "*", &Expr::atom("c"));
        assert_eq!(prod.text, "(a + b) * c");
        assert_eq!(Expr::cast("int", &a).text, "(int)a");
        assert_eq!(Expr::cast("int", &sum).text, "(int)(a + b)");
        assert_eq!(
            Expr::binary(&Expr::cast("int", &a), "/", &a).text,
            "(int)a / a"
        );
        assert_eq!(format!("{}.s0", sum.postfix()), "(a + b).s0");
        let c = Expr::cond(&a, &sum, &a);
        assert_eq!(Expr::binary(&c, "+", &a).text, "(a ? (a + b) : a) + a");
    }
}
