//! proptest generators of well-formed graph modules (roundtrip/README.md, "Generated
//! modules"): a recipe of small numbers (`recipe.rs`) that the builder (`builder.rs`,
//! `body.rs`) turns into a module any recipe can make.

pub mod body;
pub mod builder;
pub mod builtins;
pub mod memory;
pub mod recipe;
pub mod regions;
pub mod seeds;

pub use builder::build;
pub use recipe::recipe;
