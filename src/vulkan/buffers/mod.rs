//! Buffers under `--vulkan-pointers descriptors`: a pointer argument is a storage buffer, a
//! runtime array of one type, and its logical pointers have neither numbers nor casts. What
//! real kernels still do with them is said here without either: their order and distance
//! (`order.rs`), and their reinterpretation as other types (`views.rs`).

pub(super) mod order;
pub(super) mod views;
