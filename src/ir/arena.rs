//! Arena storage with typed handles, as in naga: the graph owns every node in a `Vec` and refers
//! to nodes by `u32` index, so there are no shared pointers, no cycles to manage, and handles
//! are `Copy`.

use crate::hash::HashMap;
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

/// A typed index into an [`Arena`] or [`UniqueArena`].
pub struct Handle<T> {
    index: u32,
    _marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    pub(crate) fn new(index: usize) -> Self {
        Handle {
            index: u32::try_from(index).expect("arena larger than u32::MAX"),
            _marker: PhantomData,
        }
    }

    /// The position of the node in its arena.
    pub fn index(self) -> usize {
        self.index as usize
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}
impl<T> Eq for Handle<T> {}
impl<T> PartialOrd for Handle<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Handle<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.index.cmp(&other.index)
    }
}
impl<T> Hash for Handle<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.index.hash(state)
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.index)
    }
}

/// Append-only storage for nodes that are distinct even when equal (instructions, globals).
#[derive(Clone, Debug)]
pub struct Arena<T> {
    items: Vec<T>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { items: Vec::new() }
    }
}

impl<T> Arena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }
    /// Add a node; its handle.
    pub fn append(&mut self, value: T) -> Handle<T> {
        self.items.push(value);
        Handle::new(self.items.len() - 1)
    }
    /// How many nodes it holds.
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// Every node with its handle, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = (Handle<T>, &T)> {
        self.items
            .iter()
            .enumerate()
            .map(|(i, v)| (Handle::new(i), v))
    }
    /// Every node with its handle, to change, in the order added.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Handle<T>, &mut T)> {
        self.items
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (Handle::new(i), v))
    }
    /// The node `h` names, if it is in this arena.
    pub fn get(&self, h: Handle<T>) -> Option<&T> {
        self.items.get(h.index())
    }
    /// Drop the nodes from the `len`-th on (an undo of appends: handles to them must be
    /// gone first).
    pub fn truncate(&mut self, len: usize) {
        self.items.truncate(len);
    }
}

impl<T> std::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    fn index(&self, h: Handle<T>) -> &T {
        &self.items[h.index()]
    }
}
impl<T> std::ops::IndexMut<Handle<T>> for Arena<T> {
    fn index_mut(&mut self, h: Handle<T>) -> &mut T {
        &mut self.items[h.index()]
    }
}

/// Hash-consed storage: inserting an equal value returns the existing handle in O(1), so
/// types and constants are unique by construction (a quadratic dedup is what made the LLVM
/// SPIR-V backend take 42 s on a 1 MB module).
#[derive(Clone, Debug)]
pub struct UniqueArena<T: Eq + Hash + Clone> {
    items: Vec<T>,
    lookup: HashMap<T, Handle<T>>,
}

impl<T: Eq + Hash + Clone> Default for UniqueArena<T> {
    fn default() -> Self {
        UniqueArena {
            items: Vec::new(),
            lookup: HashMap::default(),
        }
    }
}

impl<T: Eq + Hash + Clone> UniqueArena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }
    /// The handle of a node equal to `value`, added if there is none.
    pub fn insert(&mut self, value: T) -> Handle<T> {
        if let Some(&h) = self.lookup.get(&value) {
            return h;
        }
        self.items.push(value.clone());
        let h = Handle::new(self.items.len() - 1);
        self.lookup.insert(value, h);
        h
    }
    /// Give the placeholder at `h` its final value. A recursive type (a struct that points to
    /// itself, `struct Node { int v; struct Node *next; }`) needs its handle before its value
    /// exists: the reader inserts a placeholder unique to that type, lowers the members (which
    /// refer to `h`), then defines `h`. The value cannot equal an existing one, since it
    /// contains `h` and nothing else referred to `h` before.
    pub fn define(&mut self, h: Handle<T>, value: T) {
        let old = std::mem::replace(&mut self.items[h.index()], value.clone());
        if self.lookup.get(&old) == Some(&h) {
            self.lookup.remove(&old);
        }
        self.lookup.entry(value).or_insert(h);
    }
    /// The handle of a node equal to `value`, if there is one.
    pub fn find(&self, value: &T) -> Option<Handle<T>> {
        self.lookup.get(value).copied()
    }
    /// How many nodes it holds.
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// Every node with its handle, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = (Handle<T>, &T)> {
        self.items
            .iter()
            .enumerate()
            .map(|(i, v)| (Handle::new(i), v))
    }
}

impl<T: Eq + Hash + Clone> std::ops::Index<Handle<T>> for UniqueArena<T> {
    type Output = T;
    fn index(&self, h: Handle<T>) -> &T {
        &self.items[h.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_arena_dedups() {
        let mut a = UniqueArena::new();
        let x = a.insert(5u32);
        let y = a.insert(7u32);
        assert_ne!(x, y);
        assert_eq!(a.insert(5u32), x);
        assert_eq!(a.len(), 2);
    }
}
