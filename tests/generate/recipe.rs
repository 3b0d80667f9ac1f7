//! What proptest generates and shrinks: a recipe of small numbers, not a graph. The builder
//! (`builder.rs`) interprets every recipe as a well-formed module, so any recipe (including
//! every shrunk one) is a valid test case, and shrinking a recipe (fewer regions, fewer
//! instructions, smaller choices) shrinks the module.

use proptest::collection::vec;
use proptest::prelude::*;

/// A value type: `scalar` indexes [`SCALARS`], `len` indexes [`LANES`] (0: scalar).
#[derive(Clone, Copy, Debug)]
pub struct TySeed {
    pub scalar: u8,
    pub len: u8,
}

/// The scalar types values have: integers of every width, then floats.
pub const SCALARS: [(bool, u32); 7] = [
    (false, 32),
    (false, 8),
    (false, 16),
    (false, 64),
    (true, 32),
    (true, 64),
    (true, 16),
];

/// Lane counts OpenCL C has (1 is a scalar).
pub const LANES: [u32; 6] = [1, 2, 3, 4, 8, 16];

/// One instruction to build: `kind` picks the operation family, the other numbers its
/// variant and operands (each builder step documents how it reads them).
#[derive(Clone, Copy, Debug)]
pub struct Seed {
    pub kind: u8,
    pub ty: TySeed,
    pub a: u16,
    pub b: u16,
    pub c: u16,
}

/// A piece of control flow with the instructions inside it.
#[derive(Clone, Debug)]
pub enum Region {
    Straight(Vec<Seed>),
    /// if/else joined by a phi of type `phi`.
    IfElse {
        cond: u16,
        then: Vec<Seed>,
        otherwise: Vec<Seed>,
        phi: TySeed,
    },
    /// A counted loop: header with a counter phi and an accumulator phi of type `acc`.
    Loop {
        trips: u16,
        body: Vec<Seed>,
        acc: TySeed,
    },
    /// A switch over an integer with its own block per case, joined by a phi.
    Switch {
        selector: u16,
        cases: Vec<(i16, Vec<Seed>)>,
        phi: TySeed,
    },
}

/// A kernel parameter.
#[derive(Clone, Copy, Debug)]
pub enum ParamSeed {
    /// A pointer to `elem` in global (0), constant (1) or local (2) memory; `attrs` bits:
    /// noalias, nocapture, readonly, const/restrict/volatile qualifiers.
    Buffer {
        elem: TySeed,
        space: u8,
        attrs: u8,
    },
    Scalar(TySeed),
    /// An image of dimension `dim` read (even `access`) or written (odd).
    Image {
        dim: u8,
        access: u8,
    },
    Sampler,
}

#[derive(Clone, Debug)]
pub struct KernelSeed {
    pub params: Vec<ParamSeed>,
    /// Bits: reqd_work_group_size, work_group_size_hint, vec_type_hint, sub-group size.
    pub attrs: u8,
    pub sizes: [u8; 3],
    pub hint: TySeed,
    pub regions: Vec<Region>,
}

/// A helper function kernels call.
#[derive(Clone, Debug)]
pub struct HelperSeed {
    pub params: Vec<TySeed>,
    /// `None`: returns void.
    pub ret: Option<TySeed>,
    pub export: bool,
    pub regions: Vec<Region>,
}

#[derive(Clone, Debug)]
pub struct Recipe {
    pub wide: bool,
    pub fp_contract: bool,
    /// 0: OpenCL C 1.2, 1: 2.0.
    pub ocl: u8,
    /// A program-scope `__constant` table.
    pub table: bool,
    pub helpers: Vec<HelperSeed>,
    pub kernels: Vec<KernelSeed>,
}

/// Number of instruction families `builder.rs` knows.
pub const KINDS: u8 = 31;

pub fn ty_seed() -> impl Strategy<Value = TySeed> {
    (0u8..SCALARS.len() as u8, 0u8..LANES.len() as u8)
        .prop_map(|(scalar, len)| TySeed { scalar, len })
}

pub fn seed() -> impl Strategy<Value = Seed> {
    (
        0u8..KINDS,
        ty_seed(),
        any::<u16>(),
        any::<u16>(),
        any::<u16>(),
    )
        .prop_map(|(kind, ty, a, b, c)| Seed { kind, ty, a, b, c })
}

fn seeds(max: usize) -> impl Strategy<Value = Vec<Seed>> {
    vec(seed(), 0..max)
}

pub fn region() -> impl Strategy<Value = Region> {
    prop_oneof![
        4 => seeds(10).prop_map(Region::Straight),
        2 => (any::<u16>(), seeds(5), seeds(5), ty_seed()).prop_map(|(cond, then, otherwise, phi)| {
            Region::IfElse { cond, then, otherwise, phi }
        }),
        2 => (any::<u16>(), seeds(6), ty_seed())
            .prop_map(|(trips, body, acc)| Region::Loop { trips, body, acc }),
        1 => (any::<u16>(), vec((any::<i16>(), seeds(4)), 0..4), ty_seed())
            .prop_map(|(selector, cases, phi)| Region::Switch { selector, cases, phi }),
    ]
}

fn param() -> impl Strategy<Value = ParamSeed> {
    prop_oneof![
        4 => (ty_seed(), 0u8..3, any::<u8>())
            .prop_map(|(elem, space, attrs)| ParamSeed::Buffer { elem, space, attrs }),
        3 => ty_seed().prop_map(ParamSeed::Scalar),
        1 => (0u8..3, any::<u8>()).prop_map(|(dim, access)| ParamSeed::Image { dim, access }),
        1 => Just(ParamSeed::Sampler),
    ]
}

fn kernel() -> impl Strategy<Value = KernelSeed> {
    (
        vec(param(), 0..6),
        any::<u8>(),
        any::<[u8; 3]>(),
        ty_seed(),
        vec(region(), 0..5),
    )
        .prop_map(|(params, attrs, sizes, hint, regions)| KernelSeed {
            params,
            attrs,
            sizes,
            hint,
            regions,
        })
}

fn helper() -> impl Strategy<Value = HelperSeed> {
    (
        vec(ty_seed(), 0..4),
        proptest::option::of(ty_seed()),
        any::<bool>(),
        vec(region(), 0..3),
    )
        .prop_map(|(params, ret, export, regions)| HelperSeed {
            params,
            ret,
            export,
            regions,
        })
}

pub fn recipe() -> impl Strategy<Value = Recipe> {
    (
        any::<bool>(),
        any::<bool>(),
        0u8..2,
        any::<bool>(),
        vec(helper(), 0..3),
        vec(kernel(), 1..3),
    )
        .prop_map(|(wide, fp_contract, ocl, table, helpers, kernels)| Recipe {
            wide,
            fp_contract,
            ocl,
            table,
            helpers,
            kernels,
        })
}
