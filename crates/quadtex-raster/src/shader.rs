//! Fragment shaders: the [`FragmentShader`] trait (object-safe; closures
//! implement it too), the [`QuadCtx`] a shader receives for each 2x2 quad,
//! and [`TextureBinding`]s, the textures a shader reads.
//!
//! A shader runs once per quad (one virtual call), never per pixel. The
//! context gives interpolated attributes as structure-of-arrays lanes (lane
//! order 0 = (x, y), 1 = (x+1, y), 2 = (x, y+1), 3 = (x+1, y+1)), the
//! active and helper masks, fine and coarse derivatives, and the sampler's
//! operations on the shader's bindings. A [`QuadSampler`] per binding is
//! built once per tile and draw, so its setup is cached across quads.

use std::sync::Arc;

use quadtex_format::TextureKind;
use quadtex_format::{Texel, Texture};
use quadtex_sampler::cpu::{simd_level, SimdLevel};
use quadtex_sampler::lod::LodResult;
use quadtex_sampler::{
    fetch, gather, query_lod, FetchArgs, Filter, GatherArgs, MipmapMode, PlanarOut, Profile, Quad,
    QuadCoords, QuadFetcher, QuadResult, QuadSampler, SampleArgs, SamplerHeader, TextureHeader,
};

use crate::setup::Plane;
use crate::simd::Wide;
use crate::stats::TexStats;

/// A texture view and the sampler that reads it.
#[derive(Clone, Debug)]
pub struct TextureBinding {
    /// The view (holds the texture).
    pub view: TextureHeader,
    /// The sampler state.
    pub sampler: SamplerHeader,
}

impl TextureBinding {
    /// The whole texture with its own kind, read through `sampler`.
    pub fn new(texture: Arc<Texture>, sampler: SamplerHeader) -> TextureBinding {
        TextureBinding {
            view: TextureHeader::new(texture),
            sampler,
        }
    }

    /// A binding of an explicit view.
    pub fn with_view(view: TextureHeader, sampler: SamplerHeader) -> TextureBinding {
        TextureBinding { view, sampler }
    }

    /// Checks the view and the sampler against each other (Vulkan rules,
    /// through the sampler crate); multisample views, read only by
    /// `fetch`, check the view alone. [`Renderer::render`](crate::Renderer::render)
    /// runs this on every binding before drawing.
    pub fn validate(&self) -> quadtex_sampler::Result<()> {
        if self.view.kind.is_multisample() {
            self.view.validate()
        } else {
            self.sampler.validate_with(&self.view)
        }
    }

    /// Texels one running lane of a `sample` reads, as [`TexStats::texels`]
    /// documents.
    fn sample_texels(&self) -> u64 {
        let dims = match self.view.kind {
            TextureKind::D1 | TextureKind::D1Array => 2,
            TextureKind::D3 => 8,
            TextureKind::D2
            | TextureKind::D2Array
            | TextureKind::Cube
            | TextureKind::CubeArray
            | TextureKind::D2Ms
            | TextureKind::D2MsArray => 4,
        };
        let s = &self.sampler;
        let linear = s.min_filter == Filter::Linear || s.mag_filter == Filter::Linear;
        let mut n: u64 = if linear { dims } else { 1 };
        if s.mipmap_mode == MipmapMode::Linear && self.view.level_count > 1 {
            n *= 2;
        }
        let aniso = s.max_anisotropy.clamp(1.0, 16.0) as u64;
        n * aniso
    }
}

/// A fragment shader: colours for the lanes of one quad.
///
/// Object-safe; the renderer calls [`FragmentShader::shade`] once per quad
/// that has at least one active lane. Plain closures
/// `Fn(&mut QuadCtx, &mut [[f32; 4]; 4])` are shaders with no bindings
/// (annotate the parameter types, `|q: &mut QuadCtx<'_>, out: &mut [[f32;
/// 4]; 4]|`, when the closure is not passed straight to a function that
/// names the bound); [`shader_fn`] adds bindings to one.
pub trait FragmentShader: Send + Sync {
    /// The textures the shader reads, addressed by index in the
    /// [`QuadCtx`] operations.
    fn bindings(&self) -> &[TextureBinding] {
        &[]
    }

    /// Writes `out[lane]` = linear RGBA for each lane. Lanes that are not
    /// active (helpers) may be written; their results are discarded.
    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]);

    /// Shades the quads of `batch` (neighbouring quads of one triangle in
    /// one tile, all four lanes of each running) into the planes of `out`:
    /// lane `l` of quad `i` at index `4i + l` of `out.r`, `out.g`, `out.b`
    /// and `out.a` (each at least `4 * batch.len()` long). The default
    /// loads each quad into `q` and calls [`Self::shade`]; shaders whose
    /// texture reads do not depend on other reads can override it to work
    /// on the attribute planes ([`QuadBatch::attr_plane`]) and sample the
    /// whole batch at once ([`QuadCtx::sample_planar`]), which lets the
    /// sampler fill its widest registers and write straight into `out`.
    /// Either way the results must be what [`Self::shade`] gives quad by
    /// quad.
    fn shade_batch(&self, q: &mut QuadCtx<'_>, batch: &QuadBatch, out: &mut PlanarOut<'_>) {
        for i in 0..batch.len() {
            batch.load(i, q);
            let mut o = [[0.0f32; 4]; 4];
            self.shade(q, &mut o);
            store_quad(out, i, &o);
        }
    }

    /// Whether every colour the shader gives is `(v, v, v, v)`: one value
    /// in all four channels, as a depth compare's result or a grey level
    /// (GLSL's `vec4(x)`). Then [`Self::shade_batch`] need only write
    /// `out.r`: the renderer reads each lane's green, blue and alpha from
    /// its red, and leaves the other planes' contents alone, so a shader
    /// spends no copies on them. The default is `false` (all four planes
    /// are read).
    fn replicates_red(&self) -> bool {
        false
    }

    /// The channels whose value is one constant in every colour the
    /// shader gives, in RGBA order: `Some(v)` for such a channel (GLSL's
    /// `vec4(uv, 0.0, 1.0)`: blue `Some(0.0)`, alpha `Some(1.0)`), `None`
    /// for the others. [`Self::shade_batch`] need not write a constant
    /// channel's plane, so a shader spends no stores on it: the renderer
    /// takes the constant for it, encoding it once per batch where an
    /// 8-bit UNORM target takes the colours straight into place, and
    /// filling the plane with it before the other targets' encodes,
    /// blending and multisample writes. The shader's `shade` (the quad
    /// by quad form) still gives all four channels. Ignored when
    /// [`Self::replicates_red`] is `true`. The default has no constant
    /// channel (all four planes are read).
    fn constant_channels(&self) -> [Option<f32>; 4] {
        [None; 4]
    }
}

/// Writes quad `i`'s lane-major colours `o` into the planes of `out`
/// (entries past a plane's end are dropped).
pub fn store_quad(out: &mut PlanarOut<'_>, i: usize, o: &[[f32; 4]; 4]) {
    for (l, v) in o.iter().enumerate() {
        let j = 4 * i + l;
        for (plane, &c) in [&mut *out.r, &mut *out.g, &mut *out.b, &mut *out.a]
            .into_iter()
            .zip(v)
        {
            if let Some(d) = plane.get_mut(j) {
                *d = c;
            }
        }
    }
}

/// The most quads in one [`QuadBatch`]: 128, eight AVX-512 sampler
/// groups' worth (fewer shading, sampling and encoding calls a frame
/// than 64; its planes still fit the first-level data cache).
pub const MAX_BATCH_QUADS: usize = 128;

/// Quads of one triangle in one tile, shaded together
/// ([`FragmentShader::shade_batch`]): their origins, masks and
/// interpolated attributes, the attributes as planes (structure of
/// arrays: lane `l` of quad `i` at `4i + l`).
#[derive(Clone, Debug, Default)]
pub struct QuadBatch {
    origin: Vec<(u32, u32)>,
    masks: Vec<(u8, u8)>,
    /// Bit `i`: quads `i..i + 4` are one row of quads of a block, side
    /// by side from left to right ([`Self::row_starts`]).
    rows: u128,
    /// Attribute `k`'s plane at `k * 4 * MAX_BATCH_QUADS`.
    planes: Vec<f32>,
    /// Per-lane offsets from the triangle's origin and `1 / (1/w)`.
    dx: Vec<f32>,
    dy: Vec<f32>,
    rcp: Vec<f32>,
    nattrs: usize,
    front_facing: bool,
}

/// Entries of one attribute plane.
const PLANE: usize = 4 * MAX_BATCH_QUADS;

impl QuadBatch {
    /// An empty batch of quads with `nattrs` attributes.
    pub(crate) fn reset(&mut self, nattrs: usize, front_facing: bool) {
        self.origin.clear();
        self.masks.clear();
        self.rows = 0;
        if self.planes.len() != nattrs * PLANE {
            self.planes.resize(nattrs * PLANE, 0.0);
        }
        for v in [&mut self.dx, &mut self.dy, &mut self.rcp] {
            v.resize(PLANE, 0.0);
        }
        self.nattrs = nattrs;
        self.front_facing = front_facing;
    }

    /// Appends a quad at `(x, y)` with its masks (at most
    /// [`MAX_BATCH_QUADS`]; the renderer flushes before). Its attributes
    /// come with [`Self::interpolate`].
    pub(crate) fn push(&mut self, x: u32, y: u32, active: u8, helper: u8) {
        debug_assert!(self.origin.len() < MAX_BATCH_QUADS);
        self.origin.push((x, y));
        self.masks.push((active, helper));
    }

    /// Appends quads `range` (row after row, [`Self::push`]'s order) of
    /// the `SIDE x SIDE`-pixel block at `(x, y)`, all four lanes active.
    #[inline]
    pub(crate) fn push_block<const SIDE: u32>(
        &mut self,
        x: u32,
        y: u32,
        range: std::ops::Range<usize>,
    ) {
        let per_row = (SIDE / 2) as usize;
        debug_assert!(self.origin.len() + range.len() <= MAX_BATCH_QUADS);
        if SIDE == 8 && range == (0..16) {
            // A whole 8x8 block (the renderer's blocks, most often taken
            // whole): fixed-length copies, which compile to a few vector
            // stores, where appending element by element checked the
            // capacity each time.
            let o: [(u32, u32); 16] =
                std::array::from_fn(|i| (x + 2 * (i % 4) as u32, y + 2 * (i / 4) as u32));
            // Its four rows of four quads.
            self.rows |= 0x1111u128
                .checked_shl(self.origin.len() as u32)
                .unwrap_or(0);
            self.origin.extend_from_slice(&o);
            self.masks.extend_from_slice(&[(0xf, 0); 16]);
            return;
        }
        let n = range.len();
        if SIDE == 8 {
            // The block's rows of four quads that `range` takes whole.
            let first = self.origin.len();
            let mut r = range.start.div_ceil(4) * 4;
            while r + 4 <= range.end {
                self.rows |= 1u128
                    .checked_shl((first + r - range.start) as u32)
                    .unwrap_or(0);
                r += 4;
            }
        }
        self.origin
            .extend(range.map(|i| (x + 2 * (i % per_row) as u32, y + 2 * (i / per_row) as u32)));
        self.masks.extend(std::iter::repeat_n((0xf, 0), n));
    }

    /// Fills every attribute plane: attribute `k` at each lane's pixel
    /// centre, `attrs[k].at(dx, dy) / inv_w.at(dx, dy)` with `(dx, dy)`
    /// the centre's offset from `origin` (perspective-correct), a plane at
    /// a time so the loops run in SIMD registers; the same operations per
    /// lane as a quad at a time.
    pub(crate) fn interpolate(&mut self, origin: [f32; 2], inv_w: &Plane, attrs: &[Plane]) {
        self.interpolate_at(simd_level(), origin, inv_w, attrs);
    }

    /// [`Self::interpolate`] with its loops compiled for `level` (the
    /// same bits at every level).
    pub(crate) fn interpolate_at(
        &mut self,
        level: SimdLevel,
        origin: [f32; 2],
        inv_w: &Plane,
        attrs: &[Plane],
    ) {
        struct Interpolate<'a> {
            batch: &'a mut QuadBatch,
            origin: [f32; 2],
            inv_w: &'a Plane,
            attrs: &'a [Plane],
        }
        impl Wide for Interpolate<'_> {
            type Out = ();
            #[inline(always)]
            fn run(self) {
                self.batch
                    .interpolate_lanes(self.origin, self.inv_w, self.attrs);
            }
        }
        crate::simd::run_at(
            level,
            Interpolate {
                batch: self,
                origin,
                inv_w,
                attrs,
            },
        );
    }

    /// The loops of [`Self::interpolate`].
    #[inline(always)]
    fn interpolate_lanes(&mut self, origin: [f32; 2], inv_w: &Plane, attrs: &[Plane]) {
        let n = 4 * self.origin.len();
        // Pixel positions are below 2^15 (`MAX_TARGET_EXTENT`), exact
        // through `i32` (which converts in SIMD registers, where `u32`
        // does not), and so are the lanes' centres `x + 0.5` and `x + 1.5`: the offsets are each
        // rounded once, by the subtraction, as `(x + l) + 0.5 - origin`.
        // The four lanes of a quad are one operation on a 4-lane register
        // (the pattern below), not four conversions.
        const CX: [f32; 4] = [0.5, 1.5, 0.5, 1.5];
        const CY: [f32; 4] = [0.5, 0.5, 1.5, 1.5];
        for ((&(x, y), dx), dy) in self
            .origin
            .iter()
            .zip(self.dx.chunks_exact_mut(4))
            .zip(self.dy.chunks_exact_mut(4))
        {
            let (x, y) = (x as i32 as f32, y as i32 as f32);
            for l in 0..4 {
                dx[l] = (x + CX[l]) - origin[0];
                dy[l] = (y + CY[l]) - origin[1];
            }
        }
        let (dx, dy) = (&self.dx[..n], &self.dy[..n]);
        if inv_w.dx == 0.0 && inv_w.dy == 0.0 && inv_w.v0.is_finite() && inv_w.v0 != 0.0 {
            // An affine triangle (every vertex at the same `w`): `inv_w`
            // is `v0` at every lane (`v0 + 0 + 0`, `v0` finite and not
            // zero, whatever the zeros' signs), so every lane's
            // reciprocal is this one division's.
            let r = 1.0 / inv_w.v0;
            if r == 1.0 {
                // (`w = 1`: `v * 1` is `v`, NaN included.)
                for (plane, p) in self.planes.chunks_exact_mut(PLANE).zip(attrs) {
                    for ((v, &x), &y) in plane[..n].iter_mut().zip(dx).zip(dy) {
                        *v = p.at(x, y);
                    }
                }
                return;
            }
            self.rcp[..n].fill(r);
        } else {
            for ((r, &x), &y) in self.rcp[..n].iter_mut().zip(dx).zip(dy) {
                *r = 1.0 / inv_w.at(x, y);
            }
        }
        let rcp = &self.rcp[..n];
        for (plane, p) in self.planes.chunks_exact_mut(PLANE).zip(attrs) {
            for (((v, &x), &y), &r) in plane[..n].iter_mut().zip(dx).zip(dy).zip(rcp) {
                *v = p.at(x, y) * r;
            }
        }
    }

    /// Number of quads.
    pub fn len(&self) -> usize {
        self.origin.len()
    }

    /// Whether there are no quads.
    pub fn is_empty(&self) -> bool {
        self.origin.is_empty()
    }

    /// Quad `i`'s `(active, helper)` masks.
    pub fn masks(&self, i: usize) -> (u8, u8) {
        self.masks.get(i).copied().unwrap_or((0, 0))
    }

    /// Every quad's origin, in order.
    pub(crate) fn origins(&self) -> &[(u32, u32)] {
        &self.origin
    }

    /// Bit `i` set where quads `i..i + 4` are one row of a block's quads,
    /// side by side (quad `i + k` at `origin(i) + (2k, 0)`); the bits
    /// [`crate::target::row_starts`] finds from the origins, or fewer.
    pub(crate) fn row_starts(&self) -> u128 {
        self.rows
    }

    /// Quad `i`'s origin (lane 0's pixel; both even).
    pub fn origin(&self, i: usize) -> (u32, u32) {
        self.origin.get(i).copied().unwrap_or((0, 0))
    }

    /// Attribute `k` of every lane of the batch, lane `l` of quad `i` at
    /// `4i + l` (`4 * len()` entries; empty past the last attribute).
    pub fn attr_plane(&self, k: usize) -> &[f32] {
        if k >= self.nattrs {
            return &[];
        }
        &self.planes[k * PLANE..k * PLANE + 4 * self.len()]
    }

    /// Quad `i`'s attribute `k` per lane (zeros past the end), as
    /// [`QuadCtx::attr`].
    pub fn attr(&self, i: usize, k: usize) -> [f32; 4] {
        match self.attr_plane(k).get(4 * i..4 * i + 4) {
            Some(v) => [v[0], v[1], v[2], v[3]],
            None => [0.0; 4],
        }
    }

    /// Quad `i`'s `[s, t, 0, 0]` from attributes `s` and `s + 1`, as
    /// [`QuadCtx::coords2`].
    pub fn coords2(&self, i: usize, s: usize) -> [[f32; 4]; 4] {
        let (u, v) = (self.attr(i, s), self.attr(i, s + 1));
        std::array::from_fn(|l| [u[l], v[l], 0.0, 0.0])
    }

    /// The batch's coordinates `(s, t)` from attributes `s` and `s + 1`
    /// as the sampler's planes ([`QuadCtx::sample_planar`]).
    pub fn coords2_planar(&self, s: usize) -> QuadCoords<'_> {
        QuadCoords {
            s: self.attr_plane(s),
            t: self.attr_plane(s + 1),
            ..QuadCoords::default()
        }
    }

    /// Fills `q` with quad `i` (origin, masks, facing, attributes).
    pub fn load(&self, i: usize, q: &mut QuadCtx<'_>) {
        let (x, y) = self.origin(i);
        let (active, helper) = self.masks(i);
        q.x = x;
        q.y = y;
        q.active = active;
        q.helper = helper;
        q.front_facing = self.front_facing;
        if q.attrs.len() != self.nattrs {
            q.attrs.resize(self.nattrs, [0.0; 4]);
        }
        for (k, a) in q.attrs.iter_mut().enumerate() {
            *a = self.attr(i, k);
        }
    }
}

impl<F> FragmentShader for F
where
    F: Fn(&mut QuadCtx<'_>, &mut [[f32; 4]; 4]) + Send + Sync,
{
    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        self(q, out)
    }
}

/// A closure with bindings; see [`shader_fn`].
pub struct FnShader<F> {
    bindings: Vec<TextureBinding>,
    f: F,
}

impl<F> FragmentShader for FnShader<F>
where
    F: Fn(&mut QuadCtx<'_>, &mut [[f32; 4]; 4]) + Send + Sync,
{
    fn bindings(&self) -> &[TextureBinding] {
        &self.bindings
    }

    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        (self.f)(q, out)
    }
}

/// A closure shader reading `bindings` (index `i` in [`QuadCtx::sample`]
/// and friends is `bindings[i]`).
pub fn shader_fn<F>(bindings: Vec<TextureBinding>, f: F) -> Arc<dyn FragmentShader>
where
    F: Fn(&mut QuadCtx<'_>, &mut [[f32; 4]; 4]) + Send + Sync + 'static,
{
    Arc::new(FnShader { bindings, f })
}

/// What a shader sees of one 2x2 quad.
///
/// Built once per tile and draw and refilled per quad, so shading
/// allocates nothing.
pub struct QuadCtx<'a> {
    pub(crate) x: u32,
    pub(crate) y: u32,
    pub(crate) active: u8,
    pub(crate) helper: u8,
    pub(crate) front_facing: bool,
    pub(crate) attrs: Vec<[f32; 4]>,
    bindings: &'a [TextureBinding],
    samplers: Vec<QuadSampler<'a>>,
    fetchers: Vec<QuadFetcher<'a>>,
    profile: &'a Profile,
    pub(crate) tex: TexStats,
}

impl<'a> QuadCtx<'a> {
    /// A context for `bindings` with `attrs` attributes.
    pub(crate) fn new(
        bindings: &'a [TextureBinding],
        profile: &'a Profile,
        attrs: usize,
    ) -> QuadCtx<'a> {
        QuadCtx {
            x: 0,
            y: 0,
            active: 0,
            helper: 0,
            front_facing: true,
            attrs: vec![[0.0; 4]; attrs],
            bindings,
            samplers: bindings
                .iter()
                .map(|b| QuadSampler::new(&b.view, &b.sampler, profile))
                .collect(),
            fetchers: bindings.iter().map(|b| QuadFetcher::new(&b.view)).collect(),
            profile,
            tex: TexStats::default(),
        }
    }

    /// Pixel coordinates of lane 0 (both even).
    pub fn origin(&self) -> (u32, u32) {
        (self.x, self.y)
    }

    /// Pixel centres per lane: `(x + 0.5, y + 0.5)` as two SoA arrays.
    pub fn frag_coord(&self) -> ([f32; 4], [f32; 4]) {
        let x = self.x as f32 + 0.5;
        let y = self.y as f32 + 0.5;
        ([x, x + 1.0, x, x + 1.0], [y, y, y + 1.0, y + 1.0])
    }

    /// Integer pixel coordinates per lane.
    pub fn pixels(&self) -> [[i32; 2]; 4] {
        let (x, y) = (self.x as i32, self.y as i32);
        [[x, y], [x + 1, y], [x, y + 1], [x + 1, y + 1]]
    }

    /// Lanes whose results are kept (bit i = lane i).
    pub fn active(&self) -> u8 {
        self.active
    }

    /// Helper lanes: they run so derivatives are right; results discarded.
    pub fn helper(&self) -> u8 {
        self.helper
    }

    /// Whether the triangle is front-facing (counter-clockwise in NDC).
    pub fn front_facing(&self) -> bool {
        self.front_facing
    }

    /// The quad's texture profile.
    pub fn profile(&self) -> &Profile {
        self.profile
    }

    /// Number of interpolated attributes.
    pub fn attr_count(&self) -> usize {
        self.attrs.len()
    }

    /// Attribute `k` per lane, interpolated perspective-correctly at the
    /// pixel centres (helper lanes extrapolate the same planes). Zeros past
    /// the end.
    #[inline]
    pub fn attr(&self, k: usize) -> [f32; 4] {
        self.attrs.get(k).copied().unwrap_or([0.0; 4])
    }

    /// Fine `d/dx` of attribute `k`: `l1 - l0` for lanes 0 and 1, `l3 - l2`
    /// for lanes 2 and 3.
    pub fn ddx_fine(&self, k: usize) -> [f32; 4] {
        let a = self.attr(k);
        let top = a[1] - a[0];
        let bottom = a[3] - a[2];
        [top, top, bottom, bottom]
    }

    /// Fine `d/dy` of attribute `k`: `l2 - l0` for lanes 0 and 2, `l3 - l1`
    /// for lanes 1 and 3.
    pub fn ddy_fine(&self, k: usize) -> [f32; 4] {
        let a = self.attr(k);
        let left = a[2] - a[0];
        let right = a[3] - a[1];
        [left, right, left, right]
    }

    /// Coarse `d/dx` of attribute `k`: `l1 - l0` in every lane.
    pub fn ddx_coarse(&self, k: usize) -> [f32; 4] {
        let a = self.attr(k);
        [a[1] - a[0]; 4]
    }

    /// Coarse `d/dy` of attribute `k`: `l2 - l0` in every lane.
    pub fn ddy_coarse(&self, k: usize) -> [f32; 4] {
        let a = self.attr(k);
        [a[2] - a[0]; 4]
    }

    /// Per-lane coordinates `[s, t, 0, 0]` from attributes `s` and `s + 1`.
    pub fn coords2(&self, s: usize) -> [[f32; 4]; 4] {
        let (u, v) = (self.attr(s), self.attr(s + 1));
        std::array::from_fn(|l| [u[l], v[l], 0.0, 0.0])
    }

    /// A [`Quad`] of `coords` with this quad's masks.
    pub fn quad(&self, coords: [[f32; 4]; 4]) -> Quad {
        Quad {
            coords,
            active: self.active,
            helper: self.helper,
        }
    }

    /// The shader's binding `b`, if it exists.
    pub fn binding(&self, b: usize) -> Option<&'a TextureBinding> {
        self.bindings.get(b)
    }

    fn running_lanes(&self) -> u64 {
        u64::from((self.active | self.helper).count_ones())
    }

    /// `sample` on binding `b` at `coords` (see [`Quad::coords`]) through
    /// the binding's cached [`QuadSampler`]. A missing binding gives
    /// [`QuadResult::EMPTY`].
    pub fn sample(&mut self, b: usize, args: &SampleArgs, coords: [[f32; 4]; 4]) -> QuadResult {
        let quad = self.quad(coords);
        let lanes = self.running_lanes();
        let (Some(s), Some(binding)) = (self.samplers.get_mut(b), self.bindings.get(b)) else {
            return QuadResult::EMPTY;
        };
        self.tex.sample += 1;
        self.tex.texels += lanes * binding.sample_texels();
        s.sample(args, &quad)
    }

    /// [`Self::sample`] as float RGBA per lane (lanes that did not run read
    /// 0): the sampler's lean path (`QuadSampler::sample_rgba`), which
    /// skips building a [`QuadResult`]; the same values as
    /// `texels_f32(&self.sample(..))`.
    pub fn sample_rgba(
        &mut self,
        b: usize,
        args: &SampleArgs,
        coords: [[f32; 4]; 4],
    ) -> [[f32; 4]; 4] {
        let quad = self.quad(coords);
        let lanes = self.running_lanes();
        let (Some(s), Some(binding)) = (self.samplers.get_mut(b), self.bindings.get(b)) else {
            return [[0.0; 4]; 4];
        };
        self.tex.sample += 1;
        self.tex.texels += lanes * binding.sample_texels();
        s.sample_rgba(args, &quad)
    }

    /// `tex` on binding `b` for whole quads given as planes (every lane
    /// running; see `QuadSampler::sample_planar`), results straight into
    /// the planes of `out`: the sampler's planar kernel, with the values
    /// [`Self::sample_rgba`] gives quad by quad. A depth reference plane in
    /// `coords` (`QuadCoords::dref`) gives each lane its own reference.
    /// Returns the quads written; a missing binding writes zeros.
    pub fn sample_planar(
        &mut self,
        b: usize,
        args: &SampleArgs,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
    ) -> usize {
        let (Some(s), Some(binding)) = (self.samplers.get_mut(b), self.bindings.get(b)) else {
            return zero_planes(coords, out);
        };
        let n = s.sample_planar(args, coords, out);
        self.tex.sample += n as u64;
        self.tex.texels += 4 * n as u64 * binding.sample_texels();
        n
    }

    /// `gather` on binding `b` for whole quads given as planes, result `k`
    /// of each lane in plane `k` of `out` (as `f32`, as [`texels_f32`]
    /// gives them): the sampler's planar gather
    /// (`QuadSampler::gather_planar`), with the values [`Self::gather`]
    /// gives quad by quad. Returns the quads written; a missing binding
    /// writes zeros.
    pub fn gather_planar(
        &mut self,
        b: usize,
        args: &GatherArgs,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
    ) -> usize {
        let Some(s) = self.samplers.get_mut(b) else {
            return zero_planes(coords, out);
        };
        let n = s.gather_planar(args, coords, out);
        self.tex.gather += n as u64;
        self.tex.texels += 16 * n as u64;
        n
    }

    /// `gather` on binding `b` at `coords`. A missing binding gives
    /// [`QuadResult::EMPTY`].
    pub fn gather(&mut self, b: usize, args: &GatherArgs, coords: [[f32; 4]; 4]) -> QuadResult {
        let quad = self.quad(coords);
        let Some(binding) = self.bindings.get(b) else {
            return QuadResult::EMPTY;
        };
        self.tex.gather += 1;
        self.tex.texels += 4 * self.running_lanes();
        match self.samplers.get_mut(b) {
            Some(s) => s.gather(args, &quad),
            None => gather(&binding.view, &binding.sampler, self.profile, args, &quad),
        }
    }

    /// `query_lod` on binding `b` at `coords`. A missing binding gives no
    /// lanes.
    pub fn query_lod(
        &mut self,
        b: usize,
        args: &SampleArgs,
        coords: [[f32; 4]; 4],
    ) -> [Option<LodResult>; 4] {
        let quad = self.quad(coords);
        let Some(binding) = self.bindings.get(b) else {
            return [None; 4];
        };
        self.tex.query_lod += 1;
        query_lod(&binding.view, &binding.sampler, self.profile, args, &quad)
    }

    /// `fetch` (`ld`, or `ld2dms` on a multisample view) on binding `b` for
    /// the running lanes. A missing binding gives [`QuadResult::EMPTY`].
    pub fn fetch(&mut self, b: usize, args: &FetchArgs) -> QuadResult {
        let running = self.active | self.helper;
        let Some(binding) = self.bindings.get(b) else {
            return QuadResult::EMPTY;
        };
        self.tex.fetch += 1;
        self.tex.texels += self.running_lanes();
        match self.fetchers.get_mut(b) {
            Some(f) => f.fetch(args, running),
            None => fetch(&binding.view, args, running),
        }
    }

    /// [`Self::fetch`] as float RGBA per lane (lanes that did not run read
    /// 0), through the binding's cached `QuadFetcher::fetch_rgba`: the same
    /// values as `texels_f32(&self.fetch(..))`.
    pub fn fetch_rgba(&mut self, b: usize, args: &FetchArgs) -> [[f32; 4]; 4] {
        let running = self.active | self.helper;
        let lanes = self.running_lanes();
        let Some(f) = self.fetchers.get_mut(b) else {
            return [[0.0; 4]; 4];
        };
        self.tex.fetch += 1;
        self.tex.texels += lanes;
        f.fetch_rgba(args, running)
    }
}

/// Zeros in the planes of `out` for the whole quads `coords.s` and
/// `coords.t` hold; returns how many.
fn zero_planes(coords: &QuadCoords<'_>, out: &mut PlanarOut<'_>) -> usize {
    let n = coords.s.len().min(coords.t.len()) / 4;
    for plane in [&mut *out.r, &mut *out.g, &mut *out.b, &mut *out.a] {
        let m = plane.len().min(4 * n);
        plane[..m].fill(0.0);
    }
    n
}

/// A quad result as float RGBA per lane; lanes that did not run read 0.
pub fn texels_f32(r: &QuadResult) -> [[f32; 4]; 4] {
    r.texels.map(|t| t.map(Texel::to_f32).unwrap_or([0.0; 4]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch's row bits name exactly the whole rows of four quads its
    /// blocks gave it: a whole 8x8 block after three lone quads (rows at
    /// 3, 7, 11 and 15), then a block split across the ends of ranges
    /// (quads 2..9 give one whole row, 4..8; 9..16 two, 12..16 and none
    /// for 9..12), each bit one that `row_starts` finds from the origins,
    /// and a reset clears them.
    #[test]
    fn block_rows_are_marked_where_four_quads_lie_side_by_side() {
        let mut b = QuadBatch::default();
        b.reset(0, true);
        for k in 0..3 {
            b.push(100 + 2 * k, 50, 0xf, 0);
        }
        b.push_block::<8>(16, 8, 0..16);
        let want: u128 = (1 << 3) | (1 << 7) | (1 << 11) | (1 << 15);
        assert_eq!(b.row_starts(), want);
        assert_eq!(crate::target::row_starts(b.origins()) & want, want);
        assert_eq!(b.origin(7), (16, 10));
        b.reset(0, true);
        b.push_block::<8>(24, 0, 2..9);
        b.push_block::<8>(24, 0, 9..16);
        // Quads 4..8 of the block are batch quads 2..6; quads 12..16 are
        // batch quads 10..14.
        assert_eq!(b.row_starts(), (1 << 2) | (1 << 10));
        assert_eq!(b.origin(2), (24, 2));
        assert_eq!(b.origin(10), (24, 6));
        let found = crate::target::row_starts(b.origins());
        assert_eq!(found & b.row_starts(), b.row_starts());
        b.reset(0, true);
        assert_eq!(b.row_starts(), 0);
    }

    /// Attribute interpolation gives the same bits at every SIMD level the
    /// machine has (the loops compiled for AVX2 and AVX-512 against the
    /// baseline build's): seeded planes (steep, shallow, negative, huge
    /// and tiny coefficients, a `1/w` plane crossing zero, so infinities
    /// and NaN come out too) at seeded quad origins, full and partial
    /// batches.
    #[test]
    fn interpolation_is_the_same_at_every_simd_level() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut value = |next: &mut dyn FnMut() -> u64| {
            let r = next();
            match r % 4 {
                0 => f32::from_bits((r >> 32) as u32),
                1 => ((r >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 4.0,
                2 => ((r >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 1e-3,
                _ => 0.0,
            }
        };
        let levels: Vec<SimdLevel> = SimdLevel::ALL
            .into_iter()
            .filter(|l| l.supported())
            .collect();
        for round in 0..200 {
            let nattrs = round % 5;
            let plane =
                |next: &mut dyn FnMut() -> u64,
                 value: &mut dyn FnMut(&mut dyn FnMut() -> u64) -> f32| Plane {
                    v0: value(next),
                    dx: value(next),
                    dy: value(next),
                };
            let mut inv_w = plane(&mut next, &mut value);
            if round % 8 == 0 {
                // An affine triangle: `1 / w` the same at every lane (the
                // zeros' signs differ).
                (inv_w.dx, inv_w.dy) = (0.0, -0.0);
                if round % 16 == 0 {
                    // `w = 1`.
                    inv_w.v0 = 1.0;
                }
            }
            let attrs: Vec<Plane> = (0..nattrs).map(|_| plane(&mut next, &mut value)).collect();
            let origin = [value(&mut next), value(&mut next)];
            let quads = 1 + (next() as usize % MAX_BATCH_QUADS);
            let mut base = QuadBatch::default();
            base.reset(nattrs, true);
            for _ in 0..quads {
                let r = next();
                base.push(2 * (r as u32 % 4096), 2 * ((r >> 32) as u32 % 4096), 0xf, 0);
            }
            let mut want = base.clone();
            want.interpolate_at(SimdLevel::Portable, origin, &inv_w, &attrs);
            // Each lane's offset is its pixel centre less the origin,
            // rounded once.
            for (i, &(x, y)) in want.origins().iter().enumerate() {
                for l in 0..4 {
                    let cx = (x + (l as u32 & 1)) as f32 + 0.5;
                    let cy = (y + (l as u32 >> 1)) as f32 + 0.5;
                    assert_eq!(want.dx[4 * i + l].to_bits(), (cx - origin[0]).to_bits());
                    assert_eq!(want.dy[4 * i + l].to_bits(), (cy - origin[1]).to_bits());
                }
            }
            // Each attribute is its plane at the lane's offset times the
            // reciprocal of `1 / w` there (one division a lane, or one
            // for the whole batch where `1 / w` is constant: the same
            // bits).
            for (k, p) in attrs.iter().enumerate() {
                for (i, &v) in want.attr_plane(k).iter().enumerate() {
                    let (x, y) = (want.dx[i], want.dy[i]);
                    let def = p.at(x, y) * (1.0 / inv_w.at(x, y));
                    assert!(
                        v.to_bits() == def.to_bits() || (v.is_nan() && def.is_nan()),
                        "round {round} attribute {k} lane {i}: {v} vs {def}"
                    );
                }
            }
            for &level in &levels {
                let mut got = base.clone();
                got.interpolate_at(level, origin, &inv_w, &attrs);
                for k in 0..nattrs {
                    let (a, b) = (got.attr_plane(k), want.attr_plane(k));
                    assert_eq!(a.len(), 4 * quads);
                    if let Some(i) = (0..a.len()).find(|&i| a[i].to_bits() != b[i].to_bits()) {
                        panic!(
                            "{level:?} round {round} attribute {k} lane {i}: {} vs {}",
                            a[i], b[i]
                        );
                    }
                }
            }
        }
    }
}
