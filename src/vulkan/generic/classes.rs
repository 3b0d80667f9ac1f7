//! The classes of the generic specialization (`mod.rs`): values that hold a generic
//! pointer, joined by what moves a pointer unchanged, each class with the set of address
//! spaces it was given (more than one: a tagged pointer, `tagged.rs`).

use crate::diag::{Error, Result};
use crate::hash::HashMap;
use crate::ir::{self, AddressSpace, Handle};

/// The spaces a generic pointer may point into, a set of `bit`s (0: not known).
pub(super) type Spaces = u8;

/// The bit of space `s` in `Spaces` (constant memory counts as global: both are buffers).
pub(super) fn bit(s: AddressSpace) -> Spaces {
    match s {
        AddressSpace::Private => 1,
        AddressSpace::Local => 2,
        _ => 4,
    }
}

/// The spaces of set `s`, in bit order.
pub(super) fn members(s: Spaces) -> Vec<AddressSpace> {
    [
        AddressSpace::Private,
        AddressSpace::Local,
        AddressSpace::Global,
    ]
    .into_iter()
    .filter(|&x| s & bit(x) != 0)
    .collect()
}

/// Where a class of generic pointers points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// Into one space (global where nothing says).
    In(AddressSpace),
    /// Into one of several, depending on the run: tagged.
    Tagged(Spaces),
}

pub(super) fn place_of(s: Spaces) -> Place {
    match members(s)[..] {
        [] => Place::In(AddressSpace::Global),
        [one] => Place::In(one),
        _ => Place::Tagged(s),
    }
}

/// A value whose type holds a generic pointer: a parameter, an instruction's result, the
/// function's result, or one constant operand of an instruction (or of a return).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Node {
    Param(u32),
    Inst(Handle<ir::Inst>),
    Ret,
    Use(Handle<ir::Inst>, usize),
    RetUse(usize),
}

/// Classes of nodes that point into the same spaces, each with the spaces it was given.
#[derive(Default)]
pub(super) struct Classes {
    pub(super) index: HashMap<Node, usize>,
    pub(super) parent: Vec<usize>,
    pub(super) space: Vec<Spaces>,
    /// Whether a class may have more than one space (else that is refused).
    pub(super) tagging: bool,
}

fn conflict(s: Spaces) -> Error {
    let m = members(s);
    Error::unsupported(format!(
        "a generic pointer that points into {} or into {} depending on the run (under \
         --vulkan-pointers descriptors a buffer has no address to tag; physical tags such \
         pointers)",
        words(m[0]),
        words(m[1])
    ))
}

pub(super) fn words(s: AddressSpace) -> &'static str {
    match s {
        AddressSpace::Private => "private memory",
        AddressSpace::Local => "local memory",
        AddressSpace::Constant => "constant memory",
        _ => "global memory",
    }
}

impl Classes {
    pub(super) fn id(&mut self, n: Node) -> usize {
        let next = self.parent.len();
        let i = *self.index.entry(n).or_insert(next);
        if i == next {
            self.parent.push(i);
            self.space.push(0);
        }
        i
    }

    /// `s` if one class may point into all of its spaces.
    fn allowed(&self, s: Spaces) -> Result<Spaces> {
        if !self.tagging && s.count_ones() > 1 {
            return Err(conflict(s));
        }
        Ok(s)
    }

    pub(super) fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    pub(super) fn link(&mut self, a: Node, b: Node) -> Result<()> {
        let (a, b) = (self.id(a), self.id(b));
        let (a, b) = (self.root(a), self.root(b));
        if a == b {
            return Ok(());
        }
        let s = self.allowed(self.space[a] | self.space[b])?;
        self.parent[b] = a;
        self.space[a] = s;
        Ok(())
    }

    /// Give `n`'s class space `s`; true if that is news.
    pub(super) fn anchor(&mut self, n: Node, s: AddressSpace) -> Result<bool> {
        self.anchor_set(n, bit(s))
    }

    /// Give `n`'s class the spaces `s`; true if that is news.
    pub(super) fn anchor_set(&mut self, n: Node, s: Spaces) -> Result<bool> {
        let i = self.id(n);
        let r = self.root(i);
        let new = self.allowed(self.space[r] | s)?;
        let news = new != self.space[r];
        self.space[r] = new;
        Ok(news)
    }

    /// The spaces `n`'s class points into (0: not known).
    pub(super) fn get(&mut self, n: Node) -> Spaces {
        let Some(&i) = self.index.get(&n) else {
            return 0;
        };
        let r = self.root(i);
        self.space[r]
    }

    pub(super) fn place(&mut self, n: Node) -> Place {
        place_of(self.get(n))
    }
}
