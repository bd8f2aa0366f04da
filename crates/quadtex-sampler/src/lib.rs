//! `quadtex-sampler`: how a texture is read.
//!
//! Texture and sampler headers ([`TextureHeader`], [`SamplerHeader`]),
//! pools and bindless handles ([`Pools`]), profiles of the APIs
//! ([`Profile`]), quads ([`Quad`]) and the operations on them: [`sample`]
//! (through [`QuadSampler`]), [`gather`](fn@gather), [`query_lod`] and
//! [`fetch`](fn@fetch). The [`reference`](mod@reference) module is the
//! scalar twin of every kernel: SEMANTICS.md written out literally. What a
//! texture *is* lives in `quadtex-format`.

pub mod error;
pub mod fetch;
pub mod gather;
pub mod header;
pub mod isa;
mod kernel;
pub mod lod;
pub mod output;
pub mod pool;
pub mod profile;
pub mod quad;
pub mod query;
pub mod reference;
mod simd;

pub use error::{Error, Result};
pub use fetch::{fetch, FetchArgs};
pub use gather::{gather, GatherArgs, GatherOffsets};
pub use header::{
    AddressMode, BorderColor, CompareOp, Filter, HeaderType, MipmapMode, ReductionMode,
    SamplerHeader, Swizzle, TextureHeader,
};
pub use lod::{query_lod, LodResult};
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
        Some((view, smp)) => sample(view, smp, profile, args, quad),
        None => QuadResult::zeros(quad.running(), quadtex_format::SampleType::Float),
    }
}

/// `tex` on one quad: the SIMD kernels where they cover the call (1D/2D/3D
/// and arrays and single-face cube quads, float formats, every filter),
/// the scalar reference otherwise. Both give the same bits.
pub fn sample(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &SampleArgs,
    quad: &Quad,
) -> QuadResult {
    QuadSampler::new(view, smp, profile).sample(args, quad)
}

/// A texture unit bound to one view, sampler and profile: the per-draw
/// setup (format decoder, level table, decoded-block cache) done once, then
/// `sample` per quad. [`sample`] builds one per call.
pub struct QuadSampler<'a> {
    ctx: reference::Ctx<'a>,
    decoder: kernel::Decoder,
}

impl<'a> QuadSampler<'a> {
    /// Binds the headers; they should be validated
    /// ([`SamplerHeader::validate_with`]).
    pub fn new(
        view: &'a TextureHeader,
        smp: &'a SamplerHeader,
        profile: &'a Profile,
    ) -> QuadSampler<'a> {
        let ctx = reference::Ctx::new(view, smp, profile);
        let decoder = kernel::Decoder::new(ctx.format);
        QuadSampler { ctx, decoder }
    }

    /// `tex` on one quad: the SIMD kernel where it covers the call, the
    /// scalar reference otherwise; both give the same bits.
    pub fn sample(&mut self, args: &SampleArgs, quad: &Quad) -> QuadResult {
        if kernel::handles(&self.ctx, args) {
            kernel::sample(&self.ctx, &mut self.decoder, args, quad)
        } else if let Some(r) = kernel::handles_cube(&self.ctx, args)
            .then(|| kernel::sample_cube(&self.ctx, &mut self.decoder, args, quad))
            .flatten()
        {
            r
        } else {
            reference::sample(self.ctx.view, self.ctx.smp, self.ctx.profile, args, quad)
        }
    }
}

/// Whether [`sample`] runs this call on the SIMD kernels (rather than the
/// scalar reference): for tests and profiling.
pub fn sample_uses_kernel(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &SampleArgs,
) -> bool {
    kernel::handles(&reference::Ctx::new(view, smp, profile), args)
}

/// Whether [`sample`] runs this particular quad on the SIMD kernels: as
/// [`sample_uses_kernel`], plus cube quads that stay on one face without
/// crossing an edge. For tests and profiling.
pub fn quad_uses_kernel(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &SampleArgs,
    quad: &Quad,
) -> bool {
    let ctx = reference::Ctx::new(view, smp, profile);
    if kernel::handles(&ctx, args) {
        return true;
    }
    let mut decoder = kernel::Decoder::new(ctx.format);
    kernel::handles_cube(&ctx, args)
        && kernel::sample_cube(&ctx, &mut decoder, args, quad).is_some()
}
