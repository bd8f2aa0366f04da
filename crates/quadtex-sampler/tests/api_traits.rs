//! What a renderer moves between threads: headers, pools and profiles are
//! shared (`Send + Sync`), a `QuadSampler` or `QuadFetcher` (per-thread
//! caches) moves to a worker (`Send`) and may be shared read-only
//! (`Sync`); every public type prints with `Debug`. These fail to compile
//! if a change takes one away.

use std::fmt::Debug;

use quadtex_sampler::isa::{d3d, ptx, sass};
use quadtex_sampler::{
    Error, FetchArgs, GatherArgs, Handle, PlanarOut, Pools, Profile, Quad, QuadCoords, QuadFetcher,
    QuadResult, QuadSampler, SampleArgs, SamplerHeader, TextureHeader,
};

fn shared<T: Send + Sync + Debug>() {}
fn movable<T: Send + Sync>() {}

#[test]
fn headers_pools_and_units_cross_threads() {
    shared::<TextureHeader>();
    shared::<SamplerHeader>();
    shared::<Profile>();
    shared::<Pools>();
    shared::<Handle>();
    shared::<Quad>();
    shared::<QuadResult>();
    shared::<SampleArgs>();
    shared::<GatherArgs>();
    shared::<FetchArgs>();
    shared::<QuadCoords<'static>>();
    shared::<PlanarOut<'static>>();
    shared::<sass::RegFile>();
    shared::<ptx::Regs>();
    shared::<d3d::D3dRegs>();
    shared::<Error>();
    movable::<QuadSampler<'static>>();
    movable::<QuadFetcher<'static>>();
}
