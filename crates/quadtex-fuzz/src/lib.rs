//! The bodies of quadtex's fuzz targets.
//!
//! Each target is a function from raw bytes to nothing that panics when it
//! finds a defect: a panic anywhere in the code under test (bad input must
//! give an error), or a disagreement between a SIMD path and its scalar
//! reference. Two drivers run them:
//!
//! - `fuzz/` holds one `cargo fuzz` (libFuzzer, nightly) binary per target
//!   for long coverage-guided runs (`docs/fuzzing.md`);
//! - `tests/smoke.rs` replays every target's seed corpus and regression
//!   inputs (`fuzz/seeds/<target>/`, `fuzz/regressions/<target>/`) and a
//!   few thousand mutated and random inputs per target on the stable
//!   toolchain, so the ordinary test run (and CI) exercises them.
//!
//! [`TARGETS`] lists them by the names both drivers use.

mod files;
mod isa;
mod raster;
mod twin;

pub use twin::sampler_twin;

/// A fuzz target: the bytes of one input in, whether the input got past
/// parsing and validation to the checks out (so a driver can tell a corpus
/// that exercises nothing from one that does).
pub type Target = fn(&[u8]) -> bool;

/// Every target by name: the file names of `fuzz/fuzz_targets/*.rs` and
/// the folders of `fuzz/seeds/`.
pub const TARGETS: &[(&str, Target)] = &[
    ("ktx2", files::ktx2),
    ("dds", files::dds),
    ("image", files::image),
    ("scene", files::scene),
    ("probe", files::probe),
    ("sass", isa::sass),
    ("ptx", isa::ptx),
    ("d3d", isa::d3d),
    ("sampler_twin", twin::sampler_twin),
    ("raster", raster::raster),
];

/// The target called `name`, if there is one.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|&(_, t)| t)
}
