//! The hash maps and sets of the translator: std's, with foldhash's hasher. Readers and writers
//! key maps by ids, handles, names and whole types for every instruction; SipHash (std's
//! default) cost a sixth of the reverse direction's instructions. foldhash is seeded per
//! process, so crafted inputs cannot aim collisions at it ahead of time.

pub type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
pub type HashSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
