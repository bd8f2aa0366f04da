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

#![deny(unsafe_code)]

mod arch;
mod batch;
pub mod cpu;
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
pub use error::{Error, Result};
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
    planar_quads: usize,
    /// The planar kernel's plan for the last `args` (none: not for it).
    plan: Option<(SampleArgs, Option<Box<planar::Plan<'a>>>)>,
}

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
            planar_quads: 0,
            plan: None,
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

    /// How many quads the planar kernel has sampled through this sampler
    /// (for tests: the rest went quad by quad).
    #[doc(hidden)]
    pub fn planar_kernel_quads(&self) -> usize {
        self.planar_quads
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
    /// kernel takes 2D and 2D-array views of its family
    /// ([`planar::Fallback`]); the rest runs as [`Self::gather_quads`]
    /// (integer results converted to `f32` by value). Returns `n`; the
    /// bits are [`Self::gather`]'s either way.
    pub fn gather_planar(
        &mut self,
        args: &GatherArgs,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
    ) -> usize {
        let n = planar_quads(self.ctx.view.kind, coords, out);
        let args = &with_dref_plane(args, coords, |a| &mut a.dref);
        let plan = planar::GatherPlan::new(&self.ctx, args)
            .ok()
            .filter(|_| self.ctx.usable);
        let run = plan.as_ref().map(|p| {
            move |level, out: &mut PlanarOut<'_>, q, end| p.run(level, coords, out, q, end)
        });
        self.drive_planar(n, out, run, |unit, out, from, end| {
            unit.gather_planar_by_quads(args, coords, out, from, end)
        })
    }

    /// Quads `from..end` of a planar call through the other batched
    /// paths, a chunk at a time, into the planes.
    fn gather_planar_by_quads(
        &mut self,
        args: &GatherArgs,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
        from: usize,
        end: usize,
    ) {
        const CHUNK: usize = 64;
        let mut quads = [Quad::new([[0.0; 4]; 4]); CHUNK];
        let mut res = [QuadResult::EMPTY; CHUNK];
        let mut at = from;
        while at < end {
            let m = (end - at).min(CHUNK);
            for (k, quad) in quads[..m].iter_mut().enumerate() {
                let qi = at + k;
                let lane = |c: &[f32], l: usize| c.get(4 * qi + l).copied().unwrap_or(0.0);
                *quad = Quad::new([0, 1, 2, 3].map(|l| {
                    [
                        lane(coords.s, l),
                        lane(coords.t, l),
                        lane(coords.r, l),
                        lane(coords.a, l),
                    ]
                }));
            }
            if coords.dref.is_empty() {
                self.gather_quads_at_width(
                    batch::NATIVE_QUADS * 4,
                    args,
                    &quads[..m],
                    &mut res[..m],
                );
            } else {
                // Each quad's own references: one call a quad.
                for k in 0..m {
                    let args = GatherArgs {
                        dref: Some(quad_dref(coords, at + k)),
                        ..*args
                    };
                    self.gather_quads_at_width(
                        batch::NATIVE_QUADS * 4,
                        &args,
                        &quads[k..k + 1],
                        &mut res[k..k + 1],
                    );
                }
            }
            for (k, r) in res[..m].iter().enumerate() {
                for (l, t) in r.texels.iter().enumerate() {
                    let v = t.map_or([0.0; 4], |t| t.to_f32());
                    let i = 4 * (at + k) + l;
                    (out.r[i], out.g[i], out.b[i], out.a[i]) = (v[0], v[1], v[2], v[3]);
                }
            }
            at += m;
        }
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
        let n = planar_quads(self.ctx.view.kind, coords, out);
        // A reference plane makes a compare; the kernel reads the plane.
        let args = &with_dref_plane(args, coords, |a| &mut a.dref);
        // The plan of the last args, kept across calls (a renderer calls
        // once per batch with the same args); out of `self` while the
        // driver borrows it.
        let cached = match self.plan.take() {
            Some((a, plan)) if a == *args => plan,
            _ => planar::Plan::new(&self.ctx, args).ok().map(Box::new),
        };
        // Unusable views go quad by quad (`Self::sample` gives zeros).
        let plan = cached.as_ref().filter(|_| self.ctx.usable);
        let run = plan.map(|p| {
            move |level, out: &mut PlanarOut<'_>, q, end| p.run(level, coords, out, q, end)
        });
        let n = self.drive_planar(n, out, run, |unit, out, from, end| {
            unit.sample_planar_by_quads(args, coords, out, from, end)
        });
        self.plan = Some((*args, cached));
        n
    }

    /// Quads `0..n` of a planar call: `run` (the planar kernel at a level,
    /// from a quad up to an end, returning the quads it took) where there
    /// is one, `other` for what it hands back. A group handed back at a
    /// wide level is tried again four quads at a time at four lanes (a
    /// cube footprint that leaves its face, say, then costs the other path
    /// four quads, not sixteen). Returns `n`.
    fn drive_planar<'o, R, O>(
        &mut self,
        n: usize,
        out: &mut PlanarOut<'o>,
        run: Option<R>,
        mut other: O,
    ) -> usize
    where
        R: Fn(SimdLevel, &mut PlanarOut<'o>, usize, usize) -> usize,
        O: FnMut(&mut Self, &mut PlanarOut<'o>, usize, usize),
    {
        let group = self.level.min(SimdLevel::detect()).lanes();
        let narrow = if SimdLevel::Sse2.supported() {
            SimdLevel::Sse2
        } else {
            SimdLevel::Portable
        };
        let Some(run) = run else {
            other(self, out, 0, n);
            return n;
        };
        let mut q = 0;
        while q < n {
            let done = run(self.level, out, q, n);
            self.planar_quads += done;
            q += done;
            let end = (q + group).min(n);
            while q < end {
                if group > narrow.lanes() {
                    let done = run(narrow, out, q, end);
                    self.planar_quads += done;
                    q += done;
                }
                if q < end {
                    // What no kernel took: the other batched paths.
                    let e = (q + narrow.lanes()).min(end);
                    other(self, out, q, e);
                    q = e;
                }
            }
        }
        n
    }

    /// Quads `from..end` of a planar call through the other batched
    /// paths, a chunk at a time, into the planes.
    fn sample_planar_by_quads(
        &mut self,
        args: &SampleArgs,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
        from: usize,
        end: usize,
    ) {
        const CHUNK: usize = 64;
        let mut quads = [Quad::new([[0.0; 4]; 4]); CHUNK];
        let mut rgba = [[[0.0f32; 4]; 4]; CHUNK];
        let mut at = from;
        while at < end {
            let m = (end - at).min(CHUNK);
            for (k, quad) in quads[..m].iter_mut().enumerate() {
                let qi = at + k;
                let lane = |c: &[f32], l: usize| c.get(4 * qi + l).copied().unwrap_or(0.0);
                *quad = Quad::new([0, 1, 2, 3].map(|l| {
                    [
                        lane(coords.s, l),
                        lane(coords.t, l),
                        lane(coords.r, l),
                        lane(coords.a, l),
                    ]
                }));
            }
            if coords.dref.is_empty() {
                self.sample_quads_rgba_at_width(
                    batch::NATIVE_QUADS * 4,
                    args,
                    &quads[..m],
                    &mut rgba[..m],
                );
            } else {
                // Each quad's own references: one call a quad.
                for k in 0..m {
                    let args = SampleArgs {
                        dref: Some(quad_dref(coords, at + k)),
                        ..*args
                    };
                    self.sample_quads_rgba_at_width(
                        batch::NATIVE_QUADS * 4,
                        &args,
                        &quads[k..k + 1],
                        &mut rgba[k..k + 1],
                    );
                }
            }
            for (k, px) in rgba[..m].iter().enumerate() {
                for (l, v) in px.iter().enumerate() {
                    let i = 4 * (at + k) + l;
                    (out.r[i], out.g[i], out.b[i], out.a[i]) = (v[0], v[1], v[2], v[3]);
                }
            }
            at += m;
        }
    }

    /// `tex` on one quad: the SIMD kernel where it covers the call, the
    /// scalar reference otherwise; both give the same bits.
    pub fn sample(&mut self, args: &SampleArgs, quad: &Quad) -> QuadResult {
        if !self.ctx.usable {
            return QuadResult::zeros(quad.running(), self.ctx.ty);
        }
        let flat = kernel::handles(&self.ctx, args);
        if quad.running() == 0xf && batch::eligible(&self.ctx, args) {
            let mut out = [QuadResult::EMPTY];
            let quads = std::slice::from_ref(quad);
            if kernel::sample_batch(4, &self.ctx, &mut self.decoder, args, quads, &mut out) {
                return out[0];
            }
        }
        if flat {
            kernel::sample(&self.ctx, &mut self.decoder, args, quad)
        } else {
            reference::sample(self.ctx.view, self.ctx.smp, self.ctx.profile, args, quad)
        }
    }

    /// TLD4 / `textureGather` on one quad ([`gather()`]): the batched
    /// kernels for 2D and 2D-array views (AOFFI or PTP offsets, `.DC` depth
    /// compare), the lane-by-lane [`gather::gather_reference`] otherwise
    /// (cubes, `TWO_D_NO_MIPMAP`, other address modes); the same bits
    /// either way.
    pub fn gather(&mut self, args: &GatherArgs, quad: &Quad) -> QuadResult {
        let mut out = [QuadResult::EMPTY];
        self.gather_quads_at_width(4, args, std::slice::from_ref(quad), &mut out);
        out[0]
    }

    /// [`Self::gather`] on many quads with the same `args`, several quads
    /// per register: `out[i]` gets quad `i`'s result, for the first
    /// `min(quads.len(), out.len())` quads.
    pub fn gather_quads(&mut self, args: &GatherArgs, quads: &[Quad], out: &mut [QuadResult]) {
        let n = quads.len().min(out.len());
        let done = self.planar_gather(args, &quads[..n], &mut out[..n]);
        self.gather_quads_at_width(
            batch::NATIVE_QUADS * 4,
            args,
            &quads[done..n],
            &mut out[done..n],
        );
    }

    /// The leading quads of `quads` that the planar gather kernel takes, in
    /// groups of full quads (coordinates transposed to planes and results
    /// back): returns how many it wrote to `out`.
    fn planar_gather(
        &mut self,
        args: &GatherArgs,
        quads: &[Quad],
        out: &mut [QuadResult],
    ) -> usize {
        if !self.ctx.usable {
            return 0;
        }
        let Ok(plan) = planar::GatherPlan::new(&self.ctx, args) else {
            return 0;
        };
        let group = self.level.min(SimdLevel::detect()).lanes();
        const MAX: usize = 4 * 16;
        // Every group writes the first `4 * group` entries of each plane
        // before it reads them: zeroed once, not per group.
        let mut c = [[0.0f32; MAX]; 4];
        let mut o = [[0.0f32; MAX]; 4];
        let mut done = 0;
        while done + group <= quads.len() {
            let chunk = &quads[done..done + group];
            if chunk.iter().any(|q| q.running() != 0xf) {
                break;
            }
            for (q, quad) in chunk.iter().enumerate() {
                for (l, v) in quad.coords.iter().enumerate() {
                    for (k, plane) in c.iter_mut().enumerate() {
                        plane[4 * q + l] = v[k];
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
            };
            let mut planes = PlanarOut {
                r: &mut r[..4 * group],
                g: &mut g[..4 * group],
                b: &mut b[..4 * group],
                a: &mut a[..4 * group],
            };
            if plan.run(self.level, &coords, &mut planes, 0, group) != group {
                break;
            }
            for (q, res) in out[done..done + group].iter_mut().enumerate() {
                for l in 0..4 {
                    let i = 4 * q + l;
                    res.texels[l] = Some(quadtex_format::Texel::Float([
                        o[0][i], o[1][i], o[2][i], o[3][i],
                    ]));
                    res.resident[l] = true;
                }
            }
            self.planar_quads += group;
            done += group;
        }
        done
    }

    /// [`Self::gather_quads`] with a chosen batch width in lanes (4, 8 or
    /// 16), for tests and profiling. Returns how many quads the batched
    /// kernels took.
    #[doc(hidden)]
    pub fn gather_quads_at_width(
        &mut self,
        lanes: usize,
        args: &GatherArgs,
        quads: &[Quad],
        out: &mut [QuadResult],
    ) -> usize {
        let ok = batch::gather_handles(&self.ctx, args);
        self.batches(
            lanes,
            ok,
            quads,
            out,
            |s, q, o| kernel::gather_batch(lanes, &s.ctx, &mut s.decoder, args, q, o),
            |s, quad| s.gather_reference(args, quad),
        )
    }

    fn gather_reference(&self, args: &GatherArgs, quad: &Quad) -> QuadResult {
        gather::gather_reference(self.ctx.view, self.ctx.smp, self.ctx.profile, args, quad)
    }

    /// `tex` on one quad, as lane-major RGBA (`out[lane] = [r, g, b, a]`):
    /// the renderer's form. Float results as [`Self::sample`] gives them
    /// (the same bits); integer results converted to `f32` by value; lanes
    /// that did not run read zeros; residency is not reported
    /// (non-resident texels read zeros anyway). Skips building a
    /// [`QuadResult`], which is a good part of the cost of a fast quad.
    pub fn sample_rgba(&mut self, args: &SampleArgs, quad: &Quad) -> [[f32; 4]; 4] {
        let mut out = [[[0.0; 4]; 4]];
        self.sample_quads_rgba_at_width(4, args, std::slice::from_ref(quad), &mut out);
        out[0]
    }

    /// [`Self::sample_quads`] with [`Self::sample_rgba`]'s results: the
    /// fastest way to sample a tile.
    pub fn sample_quads_rgba(
        &mut self,
        args: &SampleArgs,
        quads: &[Quad],
        out: &mut [[[f32; 4]; 4]],
    ) {
        let n = quads.len().min(out.len());
        let mut pos = 0;
        while pos < n {
            pos += self.planar_rgba(args, &quads[pos..n], &mut out[pos..n]);
            if pos == n {
                break;
            }
            // A group the planar kernel did not take (a partial quad, a
            // group handed back) goes the other way, and the kernel goes
            // on after it; without a plan, all of the rest.
            let step = match &self.plan {
                Some((_, Some(_))) if self.ctx.usable => {
                    self.level.min(SimdLevel::detect()).lanes().min(n - pos)
                }
                _ => n - pos,
            };
            self.sample_quads_rgba_at_width(
                batch::NATIVE_QUADS * 4,
                args,
                &quads[pos..pos + step],
                &mut out[pos..pos + step],
            );
            pos += step;
        }
    }

    /// The leading quads of `quads` that the planar kernel takes, in groups
    /// of full quads (coordinates transposed to planes and results back):
    /// returns how many it wrote to `out`, the rest are the caller's. The
    /// plan is kept while `args` stays the same.
    fn planar_rgba(
        &mut self,
        args: &SampleArgs,
        quads: &[Quad],
        out: &mut [[[f32; 4]; 4]],
    ) -> usize {
        if !self.ctx.usable {
            return 0;
        }
        let fresh = !matches!(&self.plan, Some((a, _)) if a == args);
        if fresh {
            self.plan = Some((*args, planar::Plan::new(&self.ctx, args).ok().map(Box::new)));
        }
        let Some((_, Some(plan))) = &self.plan else {
            return 0;
        };
        let group = self.level.min(SimdLevel::detect()).lanes();
        const MAX: usize = 4 * 16;
        // Every group writes the first `4 * group` entries of each plane
        // before it reads them: zeroed once, not per group.
        let mut c = [[0.0f32; MAX]; 4];
        let mut o = [[0.0f32; MAX]; 4];
        let mut done = 0;
        while done + group <= quads.len() {
            let chunk = &quads[done..done + group];
            if chunk.iter().any(|q| q.running() != 0xf) {
                break;
            }
            for (q, quad) in chunk.iter().enumerate() {
                for (l, v) in quad.coords.iter().enumerate() {
                    for (k, plane) in c.iter_mut().enumerate() {
                        plane[4 * q + l] = v[k];
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
            };
            let mut planes = PlanarOut {
                r: &mut r[..4 * group],
                g: &mut g[..4 * group],
                b: &mut b[..4 * group],
                a: &mut a[..4 * group],
            };
            if plan.run(self.level, &coords, &mut planes, 0, group) != group {
                break;
            }
            for (q, res) in out[done..done + group].iter_mut().enumerate() {
                for (l, px) in res.iter_mut().enumerate() {
                    let i = 4 * q + l;
                    *px = [o[0][i], o[1][i], o[2][i], o[3][i]];
                }
            }
            self.planar_quads += group;
            done += group;
        }
        done
    }

    /// [`Self::sample_quads_rgba`] with a chosen batch width in lanes (4, 8
    /// or 16), for tests and profiling. Returns how many quads the batched
    /// kernels took.
    #[doc(hidden)]
    pub fn sample_quads_rgba_at_width(
        &mut self,
        lanes: usize,
        args: &SampleArgs,
        quads: &[Quad],
        out: &mut [[[f32; 4]; 4]],
    ) -> usize {
        let ok = batch::eligible(&self.ctx, args);
        self.batches(
            lanes,
            ok,
            quads,
            out,
            |s, q, o| kernel::sample_batch_rgba(lanes, &s.ctx, &mut s.decoder, args, q, o),
            |s, quad| rgba_of(&s.sample(args, quad)),
        )
    }

    /// `tex` on many quads with the same `args` (a tile's worth, say):
    /// `out[i]` gets quad `i`'s result, for the first
    /// `min(quads.len(), out.len())` quads. Full 2D quads go through the
    /// batched kernels several quads per register: four per AVX-512
    /// register when the build targets AVX-512 (`RUSTFLAGS="-C
    /// target-cpu=native"` on an AVX-512 machine), two per AVX2 register,
    /// one per SSE register in a baseline build; everything else as
    /// [`Self::sample`]. The bits are [`Self::sample`]'s either way.
    pub fn sample_quads(&mut self, args: &SampleArgs, quads: &[Quad], out: &mut [QuadResult]) {
        self.sample_quads_at_width(batch::NATIVE_QUADS * 4, args, quads, out);
    }

    /// [`Self::sample_quads`] with a chosen batch width in lanes (4, 8 or
    /// 16; anything else runs quad by quad), for tests and profiling of
    /// each width. Returns how many quads the batched kernels took.
    #[doc(hidden)]
    pub fn sample_quads_at_width(
        &mut self,
        lanes: usize,
        args: &SampleArgs,
        quads: &[Quad],
        out: &mut [QuadResult],
    ) -> usize {
        let ok = batch::eligible(&self.ctx, args);
        self.batches(
            lanes,
            ok,
            quads,
            out,
            |s, q, o| kernel::sample_batch(lanes, &s.ctx, &mut s.decoder, args, q, o),
            |s, quad| s.sample(args, quad),
        )
    }

    /// The loop behind every `*_at_width`: `quads` in groups of `lanes / 4`
    /// through `batch` when `ok` and the width is 4, 8 or 16, each group the
    /// batch hands back and the remainder through `single`. `out[i]` gets
    /// quad `i`'s result for the first `min(quads.len(), out.len())` quads;
    /// returns how many the batches took.
    fn batches<T>(
        &mut self,
        lanes: usize,
        ok: bool,
        quads: &[Quad],
        out: &mut [T],
        mut batch: impl FnMut(&mut Self, &[Quad], &mut [T]) -> bool,
        mut single: impl FnMut(&mut Self, &Quad) -> T,
    ) -> usize {
        let n = quads.len().min(out.len());
        let (quads, out) = (&quads[..n], &mut out[..n]);
        let per = lanes / 4;
        let (mut done, mut batched) = (0, 0);
        // Unusable views go quad by quad (`single` gives zeros).
        if ok && self.ctx.usable && matches!(lanes, 4 | 8 | 16) {
            while done + per <= n {
                let (q, o) = (&quads[done..done + per], &mut out[done..done + per]);
                if batch(self, q, o) {
                    batched += per;
                } else {
                    for (r, quad) in o.iter_mut().zip(q) {
                        *r = single(self, quad);
                    }
                }
                done += per;
            }
        }
        for (r, quad) in out[done..].iter_mut().zip(&quads[done..]) {
            *r = single(self, quad);
        }
        batched
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

/// Whether [`sample`] runs this call on the SIMD kernels (rather than the
/// scalar reference): for tests and profiling.
pub fn sample_uses_kernel(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &SampleArgs,
) -> bool {
    let ctx = reference::Ctx::new(view, smp, profile);
    ctx.usable && kernel::handles(&ctx, args)
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
    if !ctx.usable {
        return false;
    }
    if kernel::handles(&ctx, args) {
        return true;
    }
    let mut decoder = texels::Decoder::new(ctx.format);
    let mut out = [QuadResult::EMPTY];
    kernel::handles_cube(&ctx, args)
        && batch::handles(&ctx)
        && kernel::sample_batch(
            4,
            &ctx,
            &mut decoder,
            args,
            std::slice::from_ref(quad),
            &mut out,
        )
}

/// How many whole quads a planar call covers: the most that every
/// coordinate plane `kind` reads (`r` for 3D and cube views, `a` for
/// arrays) and every output plane hold.
/// `args` with a reference where `coords` has a reference plane (the
/// kernels then read the plane; `dref` picks the field), else `args`.
fn with_dref_plane<A: Copy>(
    args: &A,
    coords: &QuadCoords<'_>,
    dref: impl Fn(&mut A) -> &mut Option<[f32; 4]>,
) -> A {
    let mut a = *args;
    if !coords.dref.is_empty() {
        let d = dref(&mut a);
        *d = Some(d.unwrap_or([0.0; 4]));
    }
    a
}

/// Quad `q`'s four references from `coords.dref` (zeros past its end).
fn quad_dref(coords: &QuadCoords<'_>, q: usize) -> [f32; 4] {
    [0, 1, 2, 3].map(|l| coords.dref.get(4 * q + l).copied().unwrap_or(0.0))
}

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
    len.min(out.r.len())
        .min(out.g.len())
        .min(out.b.len())
        .min(out.a.len())
        / 4
}
