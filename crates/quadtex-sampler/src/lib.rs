//! `quadtex-sampler`: how a texture is read.
//!
//! Texture and sampler headers ([`TextureHeader`], [`SamplerHeader`]),
//! pools and bindless handles ([`Pools`]), profiles of the APIs
//! ([`Profile`]), quads ([`Quad`]) and the operations on them: [`sample`]
//! (through [`QuadSampler`]), [`gather`](fn@gather), [`query_lod`] and
//! [`fetch`](fn@fetch) (through [`QuadFetcher`]). The [`reference`](mod@reference) module is the
//! scalar twin of every kernel: docs/semantics.md written out literally. Many
//! quads at once go through [`QuadSampler::sample_planar`] (coordinates and
//! results as planes, [`planar`]), whose kernel runs at the SIMD level
//! [`cpu`] picks when the program runs. What a texture *is* lives in
//! `quadtex-format`.
//!
//! # Coordinates and filters
//!
//! Coordinates are normalized: at a level `W` texels wide, `u = s * W`
//! (likewise `v = t * H`), so texel `i`'s centre is at `s = (i + 0.5) / W`
//! (rows counted from the texture's first row, `y = 0`). Nearest reads
//! texel `floor(u)`. Linear reads `i0 = floor(u - 0.5)` and `i1 = i0 + 1`
//! weighted `1 - a` and `a`, `a = frac(u - 0.5)`, each texel of a 2D
//! footprint weighted by the product of its two axes' weights
//! (docs/semantics.md §4); texels are decoded first (sRGB to linear).
//! Under [`Profile::VULKAN`] weights and sums are plain f32, the weighted
//! texels added rows outer, columns inner, starting from `-0.0`, so a
//! bilinear result can be checked bit for bit; the other profiles quantize
//! the fractions to 8 bits (docs/precision.md). Every path (the scalar
//! reference, the per-quad and planar kernels, each SIMD level) gives the
//! same bits. A quad whose lanes all sit at one point has zero derivatives
//! and is magnified: the view's base level, read with `mag_filter`.
//!
//! # Example
//!
//! A 2x2 texture sampled nearest on its texel centres, then bilinearly
//! at its centre, gathered, and sampled as planes (many quads per call):
//!
//! ```
//! use std::sync::Arc;
//! use quadtex_format::{Layout, Texel, Texture, TextureDesc, TextureFormat};
//! use quadtex_sampler::{
//!     AddressMode, Filter, GatherArgs, PlanarOut, Profile, Quad, QuadCoords, QuadSampler,
//!     SampleArgs, SamplerHeader, TextureHeader,
//! };
//!
//! // R32F texels 0, 1 / 2, 3 (row y = 0 first).
//! let desc = TextureDesc::d2(TextureFormat::R32Float, 2, 2).with_levels(1);
//! let bytes: Vec<u8> = [0.0f32, 1.0, 2.0, 3.0].iter().flat_map(|v| v.to_le_bytes()).collect();
//! let view = TextureHeader::new(Arc::new(Texture::from_linear_bytes(desc, Layout::Tiled, &bytes)?));
//! let nearest = SamplerHeader::default();
//! let linear = SamplerHeader {
//!     mag_filter: Filter::Linear,
//!     min_filter: Filter::Linear,
//!     address: [AddressMode::ClampToEdge; 3],
//!     ..SamplerHeader::default()
//! };
//!
//! // Lanes in quad order: (x, y), (x+1, y), (x, y+1), (x+1, y+1).
//! let centres = Quad::new([
//!     [0.25, 0.25, 0.0, 0.0],
//!     [0.75, 0.25, 0.0, 0.0],
//!     [0.25, 0.75, 0.0, 0.0],
//!     [0.75, 0.75, 0.0, 0.0],
//! ]);
//! let mut unit = QuadSampler::try_new(&view, &nearest, &Profile::VULKAN)?;
//! let r = unit.sample(&SampleArgs::default(), &centres);
//! assert_eq!(r.texels.map(|t| t.unwrap().to_f32()[0]), [0.0, 1.0, 2.0, 3.0]);
//!
//! // Every lane at the centre: zero derivatives, magnified, the four texels
//! // weighted 1/4 each.
//! let middle = Quad::new([[0.5, 0.5, 0.0, 0.0]; 4]);
//! let mut unit = QuadSampler::try_new(&view, &linear, &Profile::VULKAN)?;
//! let r = unit.sample(&SampleArgs::default(), &middle);
//! assert_eq!(r.texels[0], Some(Texel::Float([1.5, 0.0, 0.0, 1.0])));
//!
//! // textureGather: T(i0, j1), T(i1, j1), T(i1, j0), T(i0, j0).
//! let g = unit.gather(&GatherArgs::default(), &middle);
//! assert_eq!(g.texels[0], Some(Texel::Float([2.0, 3.0, 1.0, 0.0])));
//!
//! // Planes: two quads, lane l of quad q at 4q + l; the same bits as `sample`.
//! let s = [0.5f32; 8];
//! let t = [0.5f32; 8];
//! let (mut r, mut g, mut b, mut a) = ([0f32; 8], [0f32; 8], [0f32; 8], [0f32; 8]);
//! let coords = QuadCoords { s: &s, t: &t, ..QuadCoords::default() };
//! let mut out = PlanarOut { r: &mut r, g: &mut g, b: &mut b, a: &mut a };
//! assert_eq!(unit.sample_planar(&SampleArgs::default(), &coords, &mut out), 2);
//! assert_eq!(r, [1.5; 8]);
//!
//! // A sampler the view cannot take is an error: linear filtering of an
//! // integer format.
//! let ints = TextureDesc::d2(TextureFormat::R32Uint, 2, 2).with_levels(1);
//! let ints = TextureHeader::new(Arc::new(Texture::new(ints, Layout::Linear)?));
//! assert!(QuadSampler::try_new(&ints, &linear, &Profile::VULKAN).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! - `serde` (off by default): the `desc` module, samplers and views as
//!   description files write them (`SamplerDesc`, `ViewDesc`), with one
//!   set of names and rules turning them into headers; the probe format
//!   (`quadtex-probe`) and scene files (`quadtex-scene`) both use it.
//! - `test-hooks` (off by default): test hooks for this crate's twin tests
//!   and the fuzz targets (`quadtex-fuzz`), not part of the stable API:
//!   the batched calls at a chosen SIMD width
//!   (`QuadSampler::sample_quads_at_width`, `sample_quads_rgba_at_width`,
//!   `gather_quads_at_width`), the planar kernel's quad count
//!   (`QuadSampler::planar_kernel_quads`), whether a call or quad runs on
//!   the SIMD kernels (`sample_uses_kernel`, `quad_uses_kernel`) and the
//!   literal scalar twin of `fetch` (`fetch::fetch_reference`). The
//!   integration tests that use them require the feature; `cargo test
//!   --workspace` turns it on through `quadtex-fuzz`.

#![deny(unsafe_code)]

mod arch;
pub mod cpu;
#[cfg(feature = "serde")]
pub mod desc;
pub mod error;
pub mod fetch;
pub mod gather;
pub mod header;
pub mod isa;
mod kernel;
mod lanes;
pub mod lod;
pub mod output;
pub mod planar;
pub mod pool;
pub mod profile;
pub mod quad;
pub mod query;
pub mod reference;
mod simd;
mod texels;

pub use cpu::SimdLevel;
pub use error::{Error, ErrorKind, Result};
pub use fetch::{fetch, FetchArgs, QuadFetcher};
pub use gather::{gather, GatherArgs, GatherOffsets};
pub use header::{
    AddressMode, BorderColor, CompareOp, Filter, HeaderType, MipmapMode, ReductionMode,
    SamplerHeader, Swizzle, TextureHeader,
};
pub use lod::{query_lod, LodResult};
pub use planar::{PlanarOut, QuadCoords};
pub use pool::{Handle, Pools};
pub use profile::Profile;
pub use quad::{Lod, Quad, QuadResult, SampleArgs};
use quadtex_format::TextureKind;

use planar::GroupKernel;

/// `tex` through a handle: resolves the header and sampler and samples the
/// quad; an invalid handle gives zeros in every running lane (the SASS TLD4
/// reference; docs/semantics.md §8).
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
    decoder: texels::Decoder,
    level: SimdLevel,
    /// Quads the planar kernel has taken ([`Self::planar_kernel_quads`]).
    #[cfg(feature = "test-hooks")]
    planar_quads: usize,
    /// The planar kernel's plan for the last `args` (none: not for it).
    plan: PlanSlot<'a, planar::Plan<'a>>,
    /// The planar gather kernel's plan for the last gather `args`.
    gather_plan: PlanSlot<'a, planar::GatherPlan<'a>>,
}

/// A planar kernel's plan kept with the args it was made for (`None`
/// inside: the kernel does not take those args).
type PlanSlot<'a, P> = Option<(<P as planar::CallPlan<'a>>::Args, Option<Box<P>>)>;

impl<'a> QuadSampler<'a> {
    /// Binds the headers after checking them: the sampler with the view
    /// ([`SamplerHeader::validate_with`], which checks the view too) and
    /// the profile ([`Profile::validate`]). The first problem found is the
    /// error.
    pub fn try_new(
        view: &'a TextureHeader,
        smp: &'a SamplerHeader,
        profile: &'a Profile,
    ) -> Result<QuadSampler<'a>> {
        smp.validate_with(view)?;
        profile.validate()?;
        Ok(QuadSampler::new(view, smp, profile))
    }

    /// Binds the headers without checking them ([`Self::try_new`] checks).
    pub fn new(
        view: &'a TextureHeader,
        smp: &'a SamplerHeader,
        profile: &'a Profile,
    ) -> QuadSampler<'a> {
        let ctx = reference::Ctx::new(view, smp, profile);
        let decoder = texels::Decoder::new(ctx.format);
        QuadSampler {
            ctx,
            decoder,
            level: cpu::simd_level(),
            #[cfg(feature = "test-hooks")]
            planar_quads: 0,
            plan: None,
            gather_plan: None,
        }
    }

    /// The SIMD level the planar kernels run at ([`cpu::simd_level`] unless
    /// set).
    pub fn simd_level(&self) -> SimdLevel {
        self.level
    }

    /// Runs the planar kernels at `level`, or at the best level below it
    /// that this CPU has. Every level gives the same bits.
    pub fn set_simd_level(&mut self, level: SimdLevel) {
        self.level = level.min(SimdLevel::detect());
    }

    /// Test hook (feature `test-hooks`): how many quads the planar kernel
    /// has sampled or gathered through this sampler (the rest went quad by
    /// quad).
    #[cfg(feature = "test-hooks")]
    pub fn planar_kernel_quads(&self) -> usize {
        self.planar_quads
    }

    /// Counts `n` quads taken by the planar kernel, for the test hook
    /// `planar_kernel_quads` (feature `test-hooks`; nothing without it).
    #[inline(always)]
    fn count_planar(&mut self, n: usize) {
        #[cfg(feature = "test-hooks")]
        {
            self.planar_quads += n;
        }
        #[cfg(not(feature = "test-hooks"))]
        let _ = n;
    }

    /// Why [`Self::sample_planar`] with `args` would not use the planar
    /// kernel, if it would not.
    pub fn planar_fallback(&self, args: &SampleArgs) -> Option<planar::Fallback> {
        planar::Plan::new(&self.ctx, args).err()
    }

    /// Why [`Self::gather_planar`] with `args` would not use the planar
    /// kernel, if it would not.
    pub fn gather_planar_fallback(&self, args: &GatherArgs) -> Option<planar::Fallback> {
        planar::GatherPlan::new(&self.ctx, args).err()
    }

    /// TLD4 / `textureGather` on `n` full quads given as planes
    /// ([`QuadCoords`], as [`Self::sample_planar`] takes them): result `k`
    /// of each lane (`[T(i0, j1), T(i1, j1), T(i1, j0), T(i0, j0)]`, see
    /// [`gather()`]) in plane `k` of `out` (`r`, `g`, `b`, `a`). The planar
    /// kernel takes 2D and 2D-array views of float-sampled formats
    /// ([`planar::Fallback`]); the rest runs quad by quad as
    /// [`Self::gather`] (integer results converted to `f32` by value).
    /// Returns `n`; the bits are [`Self::gather`]'s either way.
    pub fn gather_planar(
        &mut self,
        args: &GatherArgs,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
    ) -> usize {
        self.planar_call(
            |u| &mut u.gather_plan,
            args,
            coords,
            out,
            |unit, a, quad| unit.gather_reference(a, quad),
        )
    }

    /// `tex` on `n` full quads given as planes ([`QuadCoords`]: lane `l` of
    /// quad `q` at `4q + l`), results as planes ([`PlanarOut`]), `n` the
    /// most whole quads every plane the view reads and every output plane
    /// hold (`r` is read by 3D and cube views, `a` by arrays). The planar
    /// kernel ([`planar`]) takes what it covers, groups of quads at a time;
    /// the rest runs as [`Self::sample`]. Returns `n`. The bits are
    /// [`Self::sample`]'s either way.
    pub fn sample_planar(
        &mut self,
        args: &SampleArgs,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
    ) -> usize {
        self.planar_call(
            |u| &mut u.plan,
            args,
            coords,
            out,
            |unit, a, quad| unit.sample_other(a, quad),
        )
    }

    /// A planar call ([`Self::sample_planar`], [`Self::gather_planar`])
    /// through the plan for `args`: the plan in `slot` when it was made for
    /// the same args (a renderer calls once per batch with the same args),
    /// else a new one; out of `self` while [`Self::drive_planar`] borrows
    /// it, and back in `slot` after. A reference plane in `coords` makes a
    /// compare, which the kernel reads from the plane. Unusable views and
    /// args the kernel does not take go quad by quad through `single`
    /// (with each quad's own references; [`Self::sample`] gives zeros on
    /// an unusable view). Returns the quads done ([`planar_quads`]).
    fn planar_call<P>(
        &mut self,
        slot: fn(&mut Self) -> &mut PlanSlot<'a, P>,
        args: &P::Args,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
        single: fn(&mut Self, &P::Args, &Quad) -> QuadResult,
    ) -> usize
    where
        P: planar::CallPlan<'a>,
    {
        let n = planar_quads(self.ctx.view.kind, coords, out);
        let args = &with_dref_plane(args, coords, P::dref);
        let other = |unit: &mut Self, out: &mut PlanarOut<'_>, from, end| {
            for q in from..end {
                let args = quad_args(args, coords, q, P::dref);
                let args = if coords.lod.is_empty() {
                    args
                } else {
                    P::with_lod(&args, quad_plane(coords.lod, q))
                };
                let r = single(unit, &args, &quad_of(coords, q));
                put_planes(out, q, rgba_of(&r));
            }
        };
        let cached = self.take_plan(slot, args);
        let plan = cached.as_ref().filter(|_| self.ctx.usable);
        let run = plan.map(|p| {
            move |level, coords: &QuadCoords<'_>, out: &mut PlanarOut<'_>, q, end| {
                p.run(level, coords, out, q, end)
            }
        });
        let n = self.drive_planar(n, coords, out, run, other);
        *slot(self) = Some((*args, cached));
        n
    }

    /// The plan in `slot` when it was made for `args`, else a new one
    /// (`None`: the kernel does not take them), taken out of `self` while
    /// a driver borrows `self`; the caller puts it back with its args.
    fn take_plan<P: planar::CallPlan<'a>>(
        &mut self,
        slot: fn(&mut Self) -> &mut PlanSlot<'a, P>,
        args: &P::Args,
    ) -> Option<Box<P>> {
        match slot(self).take() {
            Some((a, plan)) if a == *args => plan,
            _ => P::for_call(&self.ctx, args).ok().map(Box::new),
        }
    }

    /// Quads `0..n` of a planar call: `run` (the planar kernel at a level
    /// on some coordinates, from a quad up to an end, returning the quads
    /// it took) where there is one, `other` for what it hands back. The
    /// last quads, fewer than a group, run as one group filled up with
    /// copies of the last quad ([`padded_group`]). A group handed back at
    /// a wide level is tried again four quads at a time at four lanes (a
    /// cube footprint that leaves its face, say, then costs the other path
    /// four quads, not sixteen). Returns `n`.
    fn drive_planar<'o, R, O>(
        &mut self,
        n: usize,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'o>,
        run: Option<R>,
        mut other: O,
    ) -> usize
    where
        R: Fn(SimdLevel, &QuadCoords<'_>, &mut PlanarOut<'_>, usize, usize) -> usize,
        O: FnMut(&mut Self, &mut PlanarOut<'o>, usize, usize),
    {
        let level = self.level.min(SimdLevel::detect());
        let group = level.lanes();
        let narrow = narrow_level();
        let Some(run) = run else {
            other(self, out, 0, n);
            return n;
        };
        let mut q = 0;
        while q < n {
            let done = run(level, coords, out, q, n);
            self.count_planar(done);
            q += done;
            if q < n && n - q < group && padded_group(&run, level, coords, out, q, n) {
                self.count_planar(n - q);
                return n;
            }
            let end = (q + group).min(n);
            while q < end {
                if group > narrow.lanes() {
                    let done = run(narrow, coords, out, q, end);
                    self.count_planar(done);
                    q += done;
                }
                if q < end {
                    // What no kernel took goes quad by quad.
                    let e = (q + narrow.lanes()).min(end);
                    other(self, out, q, e);
                    q = e;
                }
            }
        }
        n
    }

    /// `tex` on one quad: a full quad the planar kernel takes runs on it
    /// (in a group of the quad's copies at the sampler's level), else the
    /// per-quad SIMD kernel where it covers the call, else the scalar
    /// reference; all give the same bits.
    pub fn sample(&mut self, args: &SampleArgs, quad: &Quad) -> QuadResult {
        let mut out = [QuadResult::EMPTY];
        self.sample_quads_at(self.level, args, std::slice::from_ref(quad), &mut out);
        out[0]
    }

    /// `tex` on one quad off the planar kernel: the per-quad SIMD kernel
    /// where it covers the call, the scalar reference otherwise.
    fn sample_other(&mut self, args: &SampleArgs, quad: &Quad) -> QuadResult {
        if !self.ctx.usable {
            return QuadResult::zeros(quad.running(), self.ctx.ty);
        }
        if kernel::handles(&self.ctx, args) {
            kernel::sample(&self.ctx, &mut self.decoder, args, quad)
        } else {
            reference::sample(self.ctx.view, self.ctx.smp, self.ctx.profile, args, quad)
        }
    }

    /// TLD4 / `textureGather` on one quad ([`gather()`]): the planar
    /// kernel for full quads on 2D and 2D-array views of float-sampled
    /// formats (AOFFI or PTP offsets, `.DC` depth compare), the
    /// lane-by-lane [`gather::gather_reference`] otherwise (cubes,
    /// `TWO_D_NO_MIPMAP`, integer formats); the same bits either way.
    pub fn gather(&mut self, args: &GatherArgs, quad: &Quad) -> QuadResult {
        let mut out = [QuadResult::EMPTY];
        self.gather_quads_at(self.level, args, std::slice::from_ref(quad), &mut out);
        out[0]
    }

    /// [`Self::gather`] on many quads with the same `args`: `out[i]` gets
    /// quad `i`'s result, for the first `min(quads.len(), out.len())`
    /// quads. Full quads run on the planar kernel a group at a time.
    pub fn gather_quads(&mut self, args: &GatherArgs, quads: &[Quad], out: &mut [QuadResult]) {
        self.gather_quads_at(self.level, args, quads, out);
    }

    /// [`Self::gather_quads`] with the planar kernel at `level`; returns
    /// how many quads it took.
    fn gather_quads_at(
        &mut self,
        level: SimdLevel,
        args: &GatherArgs,
        quads: &[Quad],
        out: &mut [QuadResult],
    ) -> usize {
        // Kept while `args` stays the same, as for samples.
        let cached = self.take_plan(|u| &mut u.gather_plan, args);
        let done = self.run_quads(
            cached.as_deref(),
            level,
            quads,
            out,
            put_result,
            |s, quad| s.gather_reference(args, quad),
        );
        self.gather_plan = Some((*args, cached));
        done
    }

    /// Test hook (feature `test-hooks`): [`Self::gather_quads`] at the
    /// SIMD level of `lanes` lanes (4, 8 or 16, each as far as this CPU
    /// goes; anything else quad by quad). Returns how many quads the
    /// planar kernel took.
    #[cfg(feature = "test-hooks")]
    pub fn gather_quads_at_width(
        &mut self,
        lanes: usize,
        args: &GatherArgs,
        quads: &[Quad],
        out: &mut [QuadResult],
    ) -> usize {
        match width_level(lanes) {
            Some(level) => self.gather_quads_at(level, args, quads, out),
            None => {
                for (r, quad) in out.iter_mut().zip(quads) {
                    *r = self.gather_reference(args, quad);
                }
                0
            }
        }
    }

    fn gather_reference(&self, args: &GatherArgs, quad: &Quad) -> QuadResult {
        gather::gather_reference(self.ctx.view, self.ctx.smp, self.ctx.profile, args, quad)
    }

    /// `tex` on one quad, as lane-major RGBA (`out[lane] = [r, g, b, a]`):
    /// the renderer's form. Float results as [`Self::sample`] gives them
    /// (the same bits); integer results converted to `f32` by value; lanes
    /// that did not run read zeros; residency is not reported
    /// (non-resident texels read zeros anyway).
    pub fn sample_rgba(&mut self, args: &SampleArgs, quad: &Quad) -> [[f32; 4]; 4] {
        rgba_of(&self.sample(args, quad))
    }

    /// [`Self::sample_quads`] with [`Self::sample_rgba`]'s results: the
    /// fastest way to sample a tile of quads given quad by quad
    /// ([`Self::sample_planar`] takes planes).
    pub fn sample_quads_rgba(
        &mut self,
        args: &SampleArgs,
        quads: &[Quad],
        out: &mut [[[f32; 4]; 4]],
    ) {
        self.sample_quads_rgba_at(self.level, args, quads, out);
    }

    /// [`Self::sample_quads_rgba`] with the planar kernel at `level`;
    /// returns how many quads it took.
    fn sample_quads_rgba_at(
        &mut self,
        level: SimdLevel,
        args: &SampleArgs,
        quads: &[Quad],
        out: &mut [[[f32; 4]; 4]],
    ) -> usize {
        self.sample_quads_with(
            level,
            args,
            quads,
            out,
            |o, px| *o = px,
            |s, quad| rgba_of(&s.sample_other(args, quad)),
        )
    }

    /// Test hook (feature `test-hooks`): [`Self::sample_quads_rgba`] at
    /// the SIMD level of `lanes` lanes (4, 8 or 16, each as far as this CPU
    /// goes; anything else quad by quad). Returns how many quads the
    /// planar kernel took.
    #[cfg(feature = "test-hooks")]
    pub fn sample_quads_rgba_at_width(
        &mut self,
        lanes: usize,
        args: &SampleArgs,
        quads: &[Quad],
        out: &mut [[[f32; 4]; 4]],
    ) -> usize {
        match width_level(lanes) {
            Some(level) => self.sample_quads_rgba_at(level, args, quads, out),
            None => {
                for (r, quad) in out.iter_mut().zip(quads) {
                    *r = rgba_of(&self.sample_other(args, quad));
                }
                0
            }
        }
    }

    /// `tex` on many quads with the same `args` (a tile's worth, say):
    /// `out[i]` gets quad `i`'s result, for the first
    /// `min(quads.len(), out.len())` quads. Full quads run on the planar
    /// kernel a group at a time (16 quads at AVX-512, 8 at AVX2, 4 below),
    /// the rest as [`Self::sample`]; the bits are [`Self::sample`]'s either
    /// way.
    pub fn sample_quads(&mut self, args: &SampleArgs, quads: &[Quad], out: &mut [QuadResult]) {
        self.sample_quads_at(self.level, args, quads, out);
    }

    /// [`Self::sample_quads`] with the planar kernel at `level`; returns
    /// how many quads it took.
    fn sample_quads_at(
        &mut self,
        level: SimdLevel,
        args: &SampleArgs,
        quads: &[Quad],
        out: &mut [QuadResult],
    ) -> usize {
        self.sample_quads_with(level, args, quads, out, put_result, |s, quad| {
            s.sample_other(args, quad)
        })
    }

    /// Test hook (feature `test-hooks`): [`Self::sample_quads`] at the
    /// SIMD level of `lanes` lanes (4, 8 or 16, each as far as this CPU
    /// goes; anything else quad by quad). Returns how many quads the
    /// planar kernel took.
    #[cfg(feature = "test-hooks")]
    pub fn sample_quads_at_width(
        &mut self,
        lanes: usize,
        args: &SampleArgs,
        quads: &[Quad],
        out: &mut [QuadResult],
    ) -> usize {
        match width_level(lanes) {
            Some(level) => self.sample_quads_at(level, args, quads, out),
            None => {
                for (r, quad) in out.iter_mut().zip(quads) {
                    *r = self.sample_other(args, quad);
                }
                0
            }
        }
    }

    /// Many quads with the same `args` through the planar kernel's plan
    /// for them (kept while `args` stays the same) at `level`, results
    /// through `put`, the rest through `single`; returns how many quads
    /// the planar kernel took.
    fn sample_quads_with<T>(
        &mut self,
        level: SimdLevel,
        args: &SampleArgs,
        quads: &[Quad],
        out: &mut [T],
        put: impl Fn(&mut T, [[f32; 4]; 4]),
        single: impl FnMut(&mut Self, &Quad) -> T,
    ) -> usize {
        let cached = self.take_plan(|u| &mut u.plan, args);
        let done = self.run_quads(cached.as_deref(), level, quads, out, put, single);
        self.plan = Some((*args, cached));
        done
    }

    /// The loop behind the quad-by-quad calls: the full quads of `quads`
    /// through `plan` (the planar kernel at `level`), gathered a group of
    /// `level.lanes()` at a time (the last group filled up with copies of
    /// its last quad, four lanes when it fits), coordinates transposed to
    /// planes and each quad's lane-major results handed to `put`; partial
    /// quads, the quads of a group the kernel hands back, and every quad
    /// without a plan through `single`. `out[i]` gets quad `i`'s result
    /// for the first `min(quads.len(), out.len())` quads; returns how many
    /// the planar kernel took.
    fn run_quads<G: GroupKernel, T>(
        &mut self,
        plan: Option<&G>,
        level: SimdLevel,
        quads: &[Quad],
        out: &mut [T],
        put: impl Fn(&mut T, [[f32; 4]; 4]),
        mut single: impl FnMut(&mut Self, &Quad) -> T,
    ) -> usize {
        let n = quads.len().min(out.len());
        // Unit tests of this crate leave the planar kernel to the
        // integration tests (which link the library as users get it and
        // run it at every level): cut out here, it is not compiled into
        // the unit-test binary, which saves that build several minutes.
        #[cfg(not(test))]
        if let Some(plan) = plan.filter(|_| self.ctx.usable) {
            return self.planar_groups(plan, level, &quads[..n], &mut out[..n], put, single);
        }
        #[cfg(test)]
        let _ = (plan, level, put);
        for (r, quad) in out[..n].iter_mut().zip(quads) {
            *r = single(self, quad);
        }
        0
    }

    /// [`Self::run_quads`] with a plan: the group loop.
    #[cfg(not(test))]
    fn planar_groups<G: GroupKernel, T>(
        &mut self,
        plan: &G,
        level: SimdLevel,
        quads: &[Quad],
        out: &mut [T],
        put: impl Fn(&mut T, [[f32; 4]; 4]),
        mut single: impl FnMut(&mut Self, &Quad) -> T,
    ) -> usize {
        let n = quads.len().min(out.len());
        let level = level.min(SimdLevel::detect());
        const MAX: usize = 16;
        let mut c = [[0.0f32; 4 * MAX]; 4];
        let mut o = [[0.0f32; 4 * MAX]; 4];
        let mut idx = [0usize; MAX];
        let (mut m, mut taken) = (0, 0);
        for k in 0..n {
            if quads[k].running() != 0xf {
                out[k] = single(self, &quads[k]);
            } else {
                idx[m] = k;
                m += 1;
            }
            let last = k + 1 == n;
            if m == 0 || (m < level.lanes() && !last) {
                continue;
            }
            // A group: full, or the last one filled up with copies (one
            // group at the sampler's level costs less than four quads at
            // the narrow one).
            let at = level;
            let group = at.lanes();
            for g in 0..group {
                let quad = &quads[idx[g.min(m - 1)]];
                for (l, v) in quad.coords.iter().enumerate() {
                    for (plane, x) in c.iter_mut().zip(v) {
                        plane[4 * g + l] = *x;
                    }
                }
            }
            let [r, g, b, a] = &mut o;
            let coords = QuadCoords {
                s: &c[0][..4 * group],
                t: &c[1][..4 * group],
                r: &c[2][..4 * group],
                a: &c[3][..4 * group],
                dref: &[],
                lod: &[],
            };
            let mut planes = PlanarOut {
                r: &mut r[..4 * group],
                g: &mut g[..4 * group],
                b: &mut b[..4 * group],
                a: &mut a[..4 * group],
            };
            let done = plan.run(at, &coords, &mut planes, 0, group).min(m);
            for (q, &i) in idx[..done].iter().enumerate() {
                put(
                    &mut out[i],
                    [0, 1, 2, 3].map(|l| {
                        let j = 4 * q + l;
                        [o[0][j], o[1][j], o[2][j], o[3][j]]
                    }),
                );
            }
            // What the kernel handed back.
            for &i in &idx[done..m] {
                out[i] = single(self, &quads[i]);
            }
            taken += done;
            m = 0;
        }
        self.count_planar(taken);
        taken
    }
}

/// Quads `q..n` of a planar call, fewer than a group at `level`, through
/// `run` as one whole group: their coordinates copied and filled up with
/// copies of quad `n - 1` (so the group is as valid as its last quad),
/// the results of quads `q..n` copied back into `out`. Returns whether the
/// kernel took the group (else `out` is untouched).
fn padded_group<R>(
    run: &R,
    level: SimdLevel,
    coords: &QuadCoords<'_>,
    out: &mut PlanarOut<'_>,
    q: usize,
    n: usize,
) -> bool
where
    R: Fn(SimdLevel, &QuadCoords<'_>, &mut PlanarOut<'_>, usize, usize) -> usize,
{
    const MAX: usize = 16;
    let group = level.lanes();
    if group > MAX || n <= q || n - q > group {
        return false;
    }
    let mut buf = [[0.0f32; 4 * MAX]; 6];
    let planes = [
        coords.s,
        coords.t,
        coords.r,
        coords.a,
        coords.dref,
        coords.lod,
    ];
    let mut has = [false; 6];
    for ((b, p), has) in buf.iter_mut().zip(planes).zip(&mut has) {
        // A plane the call does not cover (`r` of a 2D view, say) stays
        // empty, as the kernel does not read it.
        if p.len() < 4 * n {
            continue;
        }
        *has = true;
        for g in 0..group {
            let src = 4 * (q + g).min(n - 1);
            b[4 * g..4 * g + 4].copy_from_slice(&p[src..src + 4]);
        }
    }
    let [s, t, r, a, dref, lod] = std::array::from_fn(|k| {
        if has[k] {
            &buf[k][..4 * group]
        } else {
            &[][..]
        }
    });
    let local = QuadCoords {
        s,
        t,
        r,
        a,
        dref,
        lod,
    };
    let mut res = [[0.0f32; 4 * MAX]; 4];
    let [rr, rg, rb, ra] = &mut res;
    let mut lout = PlanarOut {
        r: &mut rr[..4 * group],
        g: &mut rg[..4 * group],
        b: &mut rb[..4 * group],
        a: &mut ra[..4 * group],
    };
    if run(level, &local, &mut lout, 0, group) < group {
        return false;
    }
    let m = 4 * (n - q);
    let at = 4 * q..4 * n;
    out.r[at.clone()].copy_from_slice(&rr[..m]);
    out.g[at.clone()].copy_from_slice(&rg[..m]);
    out.b[at.clone()].copy_from_slice(&rb[..m]);
    out.a[at].copy_from_slice(&ra[..m]);
    true
}

/// The planar kernel's four-lane level on this CPU (SSE2 on x86-64).
fn narrow_level() -> SimdLevel {
    if SimdLevel::Sse2.supported() {
        SimdLevel::Sse2
    } else {
        SimdLevel::Portable
    }
}

/// The SIMD level whose planar kernel runs `lanes` lanes (4, 8 or 16),
/// as far as this CPU goes (for the `*_at_width` test hooks).
#[cfg(feature = "test-hooks")]
fn width_level(lanes: usize) -> Option<SimdLevel> {
    let level = match lanes {
        4 => narrow_level(),
        8 => SimdLevel::Avx2,
        16 => SimdLevel::Avx512,
        _ => return None,
    };
    Some(level.min(SimdLevel::detect()))
}

/// A full quad's lane-major planar results as a [`QuadResult`]: float
/// texels, every lane resident (the planar kernel takes no residency map).
fn put_result(r: &mut QuadResult, px: [[f32; 4]; 4]) {
    *r = QuadResult {
        texels: px.map(|v| Some(quadtex_format::Texel::Float(v))),
        resident: [true; 4],
    };
}

/// Quad `q` of a planar call's coordinates (zeros past a plane's end).
fn quad_of(coords: &QuadCoords<'_>, q: usize) -> Quad {
    let lane = |c: &[f32], l: usize| c.get(4 * q + l).copied().unwrap_or(0.0);
    Quad::new([0, 1, 2, 3].map(|l| {
        [
            lane(coords.s, l),
            lane(coords.t, l),
            lane(coords.r, l),
            lane(coords.a, l),
        ]
    }))
}

/// Writes a quad's lane-major results into quad `q` of planar outputs.
fn put_planes(out: &mut PlanarOut<'_>, q: usize, px: [[f32; 4]; 4]) {
    for (l, v) in px.iter().enumerate() {
        let i = 4 * q + l;
        (out.r[i], out.g[i], out.b[i], out.a[i]) = (v[0], v[1], v[2], v[3]);
    }
}

/// A result as lane-major RGBA: values as `f32`, zeros for lanes that did
/// not run.
fn rgba_of(r: &QuadResult) -> [[f32; 4]; 4] {
    r.texels
        .map(|t| t.map_or([0.0; 4], quadtex_format::Texel::to_f32))
}

/// Whether sampling `view` with `smp` under `profile` filters in integer
/// arithmetic (calls without a depth compare): the profile's fixed-point
/// weights and LOD fractions of at most 8 bits on an 8-bit UNORM format,
/// as `docs/precision.md` defines it, bit for bit on every path.
pub fn integer_filtering(view: &TextureHeader, smp: &SamplerHeader, profile: &Profile) -> bool {
    reference::int_filter(view, smp, profile)
}

/// Test hook (feature `test-hooks`): whether [`sample`] runs this call on
/// the SIMD kernels (the planar kernel or the per-quad one) rather than
/// the scalar reference.
#[cfg(feature = "test-hooks")]
pub fn sample_uses_kernel(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &SampleArgs,
) -> bool {
    let ctx = reference::Ctx::new(view, smp, profile);
    ctx.usable && (planar::Plan::new(&ctx, args).is_ok() || kernel::handles(&ctx, args))
}

/// Test hook (feature `test-hooks`): whether [`sample`] runs this
/// particular quad on the SIMD kernels: the planar kernel took it (a cube
/// quad whose footprint stays on its face, say), or the call is one the
/// per-quad kernel covers.
#[cfg(feature = "test-hooks")]
pub fn quad_uses_kernel(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &SampleArgs,
    quad: &Quad,
) -> bool {
    let mut unit = QuadSampler::new(view, smp, profile);
    if !unit.ctx.usable {
        return false;
    }
    unit.sample(args, quad);
    unit.planar_quads > 0 || kernel::handles(&unit.ctx, args)
}

/// `args` with a reference where `coords` has a reference plane (the
/// kernels then read the plane; `dref` picks the field), else `args`.
fn with_dref_plane<A: Copy>(
    args: &A,
    coords: &QuadCoords<'_>,
    dref: fn(&mut A) -> &mut Option<[f32; 4]>,
) -> A {
    let mut a = *args;
    if !coords.dref.is_empty() {
        let d = dref(&mut a);
        *d = Some(d.unwrap_or([0.0; 4]));
    }
    a
}

/// The args of quad `q` of a planar call: `args`, with the quad's own
/// references where `coords` has a reference plane (`dref` picks the
/// field).
fn quad_args<A: Copy>(
    args: &A,
    coords: &QuadCoords<'_>,
    q: usize,
    dref: fn(&mut A) -> &mut Option<[f32; 4]>,
) -> A {
    let mut a = *args;
    if !coords.dref.is_empty() {
        *dref(&mut a) = Some(quad_dref(coords, q));
    }
    a
}

/// Quad `q`'s four references from `coords.dref` (zeros past its end).
fn quad_dref(coords: &QuadCoords<'_>, q: usize) -> [f32; 4] {
    quad_plane(coords.dref, q)
}

/// Quad `q`'s four values of `plane` (zeros past its end).
fn quad_plane(plane: &[f32], q: usize) -> [f32; 4] {
    [0, 1, 2, 3].map(|l| plane.get(4 * q + l).copied().unwrap_or(0.0))
}

/// How many whole quads a planar call covers: the most that every
/// coordinate plane `kind` reads (`r` for 3D and cube views, `a` for
/// arrays) and every output plane hold.
fn planar_quads(kind: TextureKind, coords: &QuadCoords<'_>, out: &PlanarOut<'_>) -> usize {
    let mut len = coords.s.len().min(coords.t.len());
    if matches!(
        kind,
        TextureKind::D3 | TextureKind::Cube | TextureKind::CubeArray
    ) {
        len = len.min(coords.r.len());
    }
    if kind.is_array() {
        len = len.min(coords.a.len());
    }
    if !coords.dref.is_empty() {
        len = len.min(coords.dref.len());
    }
    if !coords.lod.is_empty() {
        len = len.min(coords.lod.len());
    }
    len.min(out.r.len())
        .min(out.g.len())
        .min(out.b.len())
        .min(out.a.len())
        / 4
}
