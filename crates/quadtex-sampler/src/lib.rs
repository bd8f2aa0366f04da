//! `quadtex-sampler`: how a texture is read.
//!
//! Texture and sampler headers ([`TextureHeader`], [`SamplerHeader`]),
//! profiles of the APIs ([`Profile`]), quads ([`Quad`]) and the operations
//! on them. [`reference`] is the scalar twin of every kernel: SEMANTICS.md
//! written out literally. What a texture *is* lives in `quadtex-format`.

pub mod error;
pub mod header;
pub mod pool;
pub mod profile;
pub mod quad;
pub mod query;
pub mod reference;

pub use error::{Error, Result};
pub use header::{
    AddressMode, BorderColor, CompareOp, Filter, HeaderType, MipmapMode, ReductionMode,
    SamplerHeader, Swizzle, TextureHeader,
};
pub use pool::{Handle, Pools};
pub use profile::Profile;
pub use quad::{Lod, Quad, QuadResult, SampleArgs};

/// `tex` through a handle: resolves the header and sampler and samples the
/// quad; an invalid handle gives zeros in every running lane (seed 000).
pub fn sample_handle(
    pools: &Pools,
    handle: Handle,
    profile: &Profile,
    args: &SampleArgs,
    quad: &Quad,
) -> QuadResult {
    match pools.resolve(handle) {
        Some((view, smp)) => reference::sample(view, smp, profile, args, quad),
        None => QuadResult::zeros(quad.running(), quadtex_format::SampleType::Float),
    }
}
