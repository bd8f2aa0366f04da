//! The scalar reference sampler: docs/semantics.md's formulas written out
//! literally, one lane at a time, in f32 (f64 only where an index could
//! overflow). It is the twin every SIMD kernel is tested against, and the
//! path for the forms the kernels do not cover.
//!
//! Order of operations per lane (Vulkan "Texel Filtering" and friends):
//! derivatives -> cube face projection and derivative transform -> scale
//! factor and lambda -> level selection -> per level: scale to texels, add
//! the offset, wrap or border each index -> read and decode (sRGB to
//! linear, missing components (0,0,0,1), border replacement, residency)
//! -> depth compare per texel -> filter -> swizzle.
//!
//! Defined results for inputs the spec leaves open: a NaN coordinate reads
//! as index 0 (the texel at index 0 after wrapping; with `clamp_ogl`, whose
//! clamp acts on the coordinate, as coordinate 0); +-Inf coordinates (and
//! finite ones past 2^60 texels) saturate to +-2^60 and then wrap or clamp
//! like any other; a NaN lambda is
//! taken as -Inf (magnification at the base level); NaN weights are 0.

use quadtex_format::{texel, SampleType, Texel, TextureFormat, TextureKind};

use crate::header::{
    AddressMode, BorderColor, Filter, MipmapMode, ReductionMode, SamplerHeader, Swizzle,
    TextureHeader,
};
use crate::profile::{Derivatives, LayerRound, MipNearest, PartialQuad, Profile};
use crate::quad::{Lod, Quad, QuadResult, SampleArgs};

/// Limit of integer texel indices: 2^60. Every finite f32 below it is an
/// exact integer or has an exact floor, so wrapping is exact arithmetic as
/// Vulkan states; beyond it (and for +-Inf) indices saturate, with room in
/// i64 for `i + 1` and `2 * size` arithmetic.
const INDEX_LIMIT: f64 = (1u64 << 60) as f64;

/// `floor(x)` as an index: NaN -> 0, +-Inf and huge values saturate.
#[inline]
pub fn floor_index(x: f32) -> i64 {
    if x.is_nan() {
        return 0;
    }
    (x.floor() as f64).clamp(-INDEX_LIMIT, INDEX_LIMIT) as i64
}

/// `x - floor(x)`, with NaN and infinities giving 0.
#[inline]
pub fn frac(x: f32) -> f32 {
    let f = x - x.floor();
    if f.is_finite() {
        f
    } else {
        0.0
    }
}

/// Whether filtering runs in integer arithmetic (`docs/precision.md`): the
/// profile quantizes filter weights and LOD fractions to at most 8 bits,
/// the format is 8-bit UNORM (`R8`, `R8G8`, `R8G8B8A8`, `B8G8R8A8`, `A8`:
/// every value read, the missing components' 0 and 1 included, is a code
/// `c / 255`), the view is not a cube (a seamless corner texel averages
/// three codes), no address mode reads a border colour, the reduction is
/// the weighted average and anisotropy is off. Calls with a depth compare
/// never are.
///
/// Integer filtering of one level sums `w * c` exactly, `w` the product
/// of the per-axis weights in 256ths (`256 - a` and `a`, `a` the
/// quantized fraction times 256; 256 on an axis that does not filter) and
/// `c` the code; the sum (scale `2^24`) is rounded half up to 8.8 fixed
/// point (`v`, scale `256 * 255`); the levels are summed as `T = v_hi *
/// (256 - f) + v_lo * f` (`f` the quantized LOD fraction times 256; one
/// level: `v * 256`), and the result is `T / (255 * 65536)` rounded once
/// to f32. A nearest read gives `c / 255` exactly as the f32 mode does.
pub(crate) fn int_filter(view: &TextureHeader, smp: &SamplerHeader, profile: &Profile) -> bool {
    let eight = |b: Option<u8>| b.is_some_and(|b| b <= 8);
    let n = match view.kind {
        TextureKind::D1 | TextureKind::D1Array => 1,
        TextureKind::D3 => 3,
        _ => 2,
    };
    eight(profile.weight_frac_bits)
        && eight(profile.lod_frac_bits)
        && matches!(
            view.format(),
            TextureFormat::R8Unorm
                | TextureFormat::Rg8Unorm
                | TextureFormat::Rgba8Unorm
                | TextureFormat::Bgra8Unorm
                | TextureFormat::A8Unorm
        )
        && !view.kind.is_cube()
        && !view.kind.is_multisample()
        && smp.address[..n]
            .iter()
            .all(|m| !matches!(m, AddressMode::ClampToBorder | AddressMode::ClampOgl))
        && smp.reduction == ReductionMode::WeightedAverage
        && smp.compare.is_none()
        && profile.aniso_levels.quantize(smp.max_anisotropy) <= 1.0
}

/// `T / (255 * 65536)` rounded once to f32: an integer-filtered result
/// ([`int_filter`]); `T` is below `2^24`, so exact as f32.
#[inline]
pub(crate) fn int_filter_value(t: u32) -> f32 {
    t as f32 / 16_711_680.0
}

fn mirror(n: i64) -> i64 {
    if n >= 0 {
        n
    } else {
        -(1 + n)
    }
}

/// Wraps a texel index for `mode` (Vulkan "Wrapping Operation");
/// `None` means the border colour. `ClampOgl` coordinates are clamped
/// before indexing, so out-of-range indices left are border texels.
#[inline]
pub fn wrap(i: i64, size: i64, mode: AddressMode) -> Option<i64> {
    match mode {
        // Power-of-two sizes wrap with a mask (the same value, cheaper).
        AddressMode::Repeat if size & (size - 1) == 0 => Some(i & (size - 1)),
        AddressMode::Repeat => Some(i.rem_euclid(size)),
        AddressMode::MirroredRepeat => Some((size - 1) - mirror(i.rem_euclid(2 * size) - size)),
        AddressMode::ClampToEdge => Some(i.clamp(0, size - 1)),
        AddressMode::ClampToBorder | AddressMode::ClampOgl => (0..size).contains(&i).then_some(i),
        AddressMode::MirrorClampToEdge => Some(mirror(i).clamp(0, size - 1)),
    }
}

/// Cube face selection (Vulkan table "Cube map face and coordinate
/// selection"); ties: z beats y beats x. Returns `(face, sc, tc, rc)`.
pub fn cube_face(x: f32, y: f32, z: f32) -> (u32, f32, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    if az >= ax && az >= ay {
        if z < 0.0 {
            (5, -x, -y, z)
        } else {
            (4, x, -y, z)
        }
    } else if ay >= ax {
        if y < 0.0 {
            (3, x, -z, y)
        } else {
            (2, x, z, y)
        }
    } else if x < 0.0 {
        (1, z, -y, x)
    } else {
        (0, -z, -y, x)
    }
}

/// `(sc, tc, rc)` of direction `d` on a given face (the same table).
fn face_axes(face: u32, d: [f32; 3]) -> (f32, f32, f32) {
    let [x, y, z] = d;
    match face {
        0 => (-z, -y, x),
        1 => (z, -y, x),
        2 => (x, z, y),
        3 => (x, -z, y),
        4 => (x, -y, z),
        _ => (-x, -y, z),
    }
}

/// The direction through face coordinates `(sc, tc)` in [-1, 1] of `face`
/// (the inverse of the table).
fn face_dir(face: u32, sc: f32, tc: f32) -> [f32; 3] {
    match face {
        0 => [1.0, -tc, -sc],
        1 => [-1.0, -tc, sc],
        2 => [sc, 1.0, tc],
        3 => [sc, -1.0, -tc],
        4 => [sc, -tc, 1.0],
        _ => [-sc, -tc, -1.0],
    }
}

/// Maps texel `(i, j)` of face `face` (size `n`), with exactly one index
/// outside the face, to the neighbouring face's texel (docs/semantics.md §1,
/// "Neighbour rule"; checked against softpipe's seam table).
pub fn cube_neighbour(face: u32, i: i64, j: i64, n: i64) -> (u32, i64, i64) {
    let sc = 2.0 * (i as f32 + 0.5) / n as f32 - 1.0;
    let tc = 2.0 * (j as f32 + 0.5) / n as f32 - 1.0;
    let [x, y, z] = face_dir(face, sc, tc);
    let (f, sc, tc, rc) = cube_face(x, y, z);
    let s = 0.5 * sc / rc.abs() + 0.5;
    let t = 0.5 * tc / rc.abs() + 0.5;
    let ii = ((s * n as f32).floor() as i64).clamp(0, n - 1);
    let jj = ((t * n as f32).floor() as i64).clamp(0, n - 1);
    (f, ii, jj)
}

/// A lane's position and footprint in the space the view is addressed in:
/// `(s, t, r)` for 1D/2D/3D, face `(s, t)` for cubes, plus the layer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneCoords {
    pub(crate) st: [f32; 3],
    pub(crate) ddx: [f32; 3],
    pub(crate) ddy: [f32; 3],
    /// Absolute layer index within the texture (view base added), or the
    /// cube's first face layer for cubes.
    pub(crate) layer: u32,
    pub(crate) face: u32,
}

/// Array layer selection: `clamp(round(a), 0, count - 1)`.
pub fn select_layer(a: f32, count: u32, rule: LayerRound) -> u32 {
    let r = match rule {
        LayerRound::Rne => a.round_ties_even(),
        LayerRound::FloorHalf => (a + 0.5).floor(),
    };
    if r.is_nan() || r <= 0.0 {
        0
    } else {
        (r.min((count - 1) as f32)) as u32
    }
}

/// A view swizzle on a texel: float bits moved untouched, `One` as 1.0 or
/// integer 1 (Vulkan "Component Swizzle").
#[inline(always)]
pub(crate) fn apply_swizzle(sw: [Swizzle; 4], t: Texel) -> Texel {
    let pick = |v: [u32; 4], one: u32| {
        sw.map(|s| match s {
            Swizzle::R => v[0],
            Swizzle::G => v[1],
            Swizzle::B => v[2],
            Swizzle::A => v[3],
            Swizzle::Zero => 0,
            Swizzle::One => one,
        })
    };
    match t {
        Texel::Float(v) => {
            Texel::Float(pick(v.map(f32::to_bits), 1.0f32.to_bits()).map(f32::from_bits))
        }
        Texel::Uint(v) => Texel::Uint(pick(v, 1)),
        Texel::Sint(v) => Texel::Sint(pick(v.map(|x| x as u32), 1).map(|x| x as i32)),
    }
}

/// `log2(x)` for the LOD: exact at powers of two, within 2e-7 of the
/// true value (absolute below 1 in magnitude, relative above), `-inf`
/// at zero, `+inf` at `+inf`, NaN for NaN and negative inputs. Written
/// out (rather than libm's `log2f`) so that the batched SIMD kernels
/// compute the very same bits with the very same operations, and
/// without a division (a long-latency instruction on every LOD's
/// path): `x = m * 2^e` with `m` in `[1, 2)`; `j`, the top four bits
/// of `m`'s fraction, picks `LOG2_INV[j]` (about `1 / (1 + j / 16)`)
/// and `LOG2_TAB[j] = -log2(LOG2_INV[j])`; `r = m * LOG2_INV[j] - 1`
/// (`0 <= r < 1/16`), and `log2(m) = LOG2_TAB[j] + r * P(r)` with `P` a
/// degree-4 fit of `log2(1 + r) / r` (relative error 1.4e-8). Every
/// step is one f32 operation, rounded (no fused multiply-add, which a
/// baseline x86-64 build would call libm for).
pub(crate) fn log2(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x == f32::INFINITY {
        return f32::INFINITY;
    }
    // Denormals: scale into the normal range first.
    let denormal = x < f32::MIN_POSITIVE;
    let xs = if denormal { x * LOG2_DENORMAL_SCALE } else { x };
    let bits = xs.to_bits() as i32;
    let e = (bits >> 23) - 127 - if denormal { 23 } else { 0 };
    let j = ((bits >> 19) & 15) as usize;
    let m = f32::from_bits(((bits & 0x007f_ffff) | 0x3f80_0000) as u32);
    // (`m * LOG2_INV[j]` lies in `[1, 1.0625)`: subtracting 1 is exact.)
    let r = m * LOG2_INV[j] - 1.0;
    let [c0, c1, c2, c3, c4] = LOG2_POLY;
    let p = (((c4 * r + c3) * r + c2) * r + c1) * r + c0;
    e as f32 + (r * p + LOG2_TAB[j])
}

/// 2^23, which makes every denormal normal.
pub(crate) const LOG2_DENORMAL_SCALE: f32 = 8_388_608.0;
/// [`log2`]'s reciprocals: `1 / (1 + j / 16)` rounded to f32.
pub(crate) const LOG2_INV: [f32; 16] = [
    1.0, 0.9411765, 0.8888889, 0.84210527, 0.8, 0.7619048, 0.72727275, 0.6956522, 0.6666667, 0.64,
    0.61538464, 0.5925926, 0.5714286, 0.55172414, 0.53333336, 0.516129,
];
/// [`log2`]'s logarithms: `-log2(LOG2_INV[j])` rounded to f32.
pub(crate) const LOG2_TAB: [f32; 16] = [
    0.0,
    0.087462835,
    0.16992499,
    0.2479275,
    0.32192808,
    0.39231738,
    0.4594316,
    0.52356195,
    0.5849625,
    0.6438562,
    0.7004397,
    0.75488746,
    0.80735487,
    0.857981,
    0.9068905,
    0.95419633,
];
/// [`log2`]'s polynomial, constant term first: a least-squares fit of
/// `log2(1 + r) / r` on `[0, 1/16]` at Chebyshev nodes.
pub(crate) const LOG2_POLY: [f32; 5] = [
    std::f32::consts::LOG2_E,
    -0.7213472,
    0.4808582,
    -0.35884565,
    0.2540803,
];

/// The per-lane implicit derivatives of `v` (fine or coarse).
pub fn quad_derivatives(v: &[[f32; 3]; 4], mode: Derivatives) -> [([f32; 3], [f32; 3]); 4] {
    let sub = |a: [f32; 3], b: [f32; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let mut out = [([0.0; 3], [0.0; 3]); 4];
    for (l, o) in out.iter_mut().enumerate() {
        *o = match mode {
            Derivatives::Coarse => (sub(v[1], v[0]), sub(v[2], v[0])),
            Derivatives::Fine => (sub(v[l | 1], v[l & 2]), sub(v[l | 2], v[l & 1])),
        };
    }
    out
}

/// Per lane `(d/dx, d/dy)` of `(s, t, r)`.
pub(crate) type LaneDerivatives = [([f32; 3], [f32; 3]); 4];

/// Per lane, the derivatives of `(s, t, r)` (directions for cubes) the LOD
/// form calls for: the quad's (fine or coarse), the explicit gradients, or
/// none; and the lambda the partial-quad rule imposes, if any (a partial
/// quad without `.NDV` under `PartialQuad::Zero` / `Infinity`).
pub(crate) fn lane_derivatives(
    profile: &Profile,
    args: &SampleArgs,
    quad: &Quad,
) -> (LaneDerivatives, Option<f32>) {
    let c = &quad.coords;
    let pos: [[f32; 3]; 4] = [
        [c[0][0], c[0][1], c[0][2]],
        [c[1][0], c[1][1], c[1][2]],
        [c[2][0], c[2][1], c[2][2]],
        [c[3][0], c[3][1], c[3][2]],
    ];
    match args.lod {
        Lod::Grad { ddx, ddy } => (
            [
                (ddx[0], ddy[0]),
                (ddx[1], ddy[1]),
                (ddx[2], ddy[2]),
                (ddx[3], ddy[3]),
            ],
            None,
        ),
        Lod::Implicit | Lod::Bias(_) => {
            let partial = quad.running() != 0xf && !args.ndv;
            let lambda = match profile.partial_quad {
                PartialQuad::Zero if partial => Some(f32::NEG_INFINITY),
                PartialQuad::Infinity if partial => Some(f32::INFINITY),
                PartialQuad::Zero | PartialQuad::Infinity | PartialQuad::Undefined => None,
            };
            (
                quad_derivatives(&pos, args.derivatives.unwrap_or(profile.derivatives)),
                lambda,
            )
        }
        Lod::Base | Lod::Level(_) => ([([0.0; 3], [0.0; 3]); 4], None),
    }
}

/// Lane `lane`'s explicit lambda (base, level, or the partial-quad
/// override) and shader bias.
#[inline]
pub(crate) fn lane_lod(
    args: &SampleArgs,
    lane: usize,
    lambda_override: Option<f32>,
) -> (Option<f32>, f32) {
    let (lambda, bias) = match args.lod {
        Lod::Implicit | Lod::Grad { .. } => (None, 0.0),
        Lod::Bias(b) => (None, b[lane]),
        Lod::Base => (Some(0.0), 0.0),
        Lod::Level(l) => (Some(l[lane]), 0.0),
    };
    (lambda.or(lambda_override), bias)
}

/// The reference sampler for one quad. A view that
/// [`TextureHeader::validate`] rejects reads zeros in every running lane.
pub fn sample(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &SampleArgs,
    quad: &Quad,
) -> QuadResult {
    let ctx = Ctx::new(view, smp, profile);
    let running = quad.running();
    if !ctx.usable {
        return QuadResult::zeros(running, ctx.ty);
    }
    let mut out = QuadResult::EMPTY;
    let (derivs, lambda_override) = lane_derivatives(profile, args, quad);
    for lane in 0..4 {
        if running & (1 << lane) == 0 {
            continue;
        }
        let (ddx, ddy) = derivs[lane];
        let lc = ctx.lane_coords(quad.coords[lane], ddx, ddy);
        let (shader_lambda, shader_bias) = lane_lod(args, lane, lambda_override);
        let dref = args.dref.map(|d| d[lane]);
        let (t, resident) = ctx.sample_lane(&lc, shader_lambda, shader_bias, args.offset, dref);
        out.texels[lane] = Some(t);
        out.resident[lane] = resident;
    }
    out
}

/// What stays fixed across the lanes of one call.
pub(crate) struct Ctx<'a> {
    pub(crate) view: &'a TextureHeader,
    pub(crate) smp: &'a SamplerHeader,
    pub(crate) profile: &'a Profile,
    pub(crate) format: TextureFormat,
    pub(crate) ty: SampleType,
    /// Base level extent of the view.
    pub(crate) base: [u32; 3],
    /// The view's swizzle is `rgba` (checked once, not per lane).
    pub(crate) identity_swizzle: bool,
    /// The view passes [`TextureHeader::validate`]. Sampling trusts its
    /// headers but must not panic on any, and every path must agree: a
    /// view that `validate` rejects (no levels, levels or layers outside
    /// the texture, ...) reads zeros in every running lane, as an invalid
    /// handle does.
    pub(crate) usable: bool,
    /// Filtering runs in integer arithmetic (the profile's fixed-point
    /// mode on 8-bit UNORM codes; see [`int_filter`]): decided once per
    /// view and sampler, for calls without a depth compare.
    pub(crate) int_filter: bool,
}

/// The result of reading one texel: the value (compare applied) and
/// whether it was resident.
type Read = ([f32; 4], bool);

/// One level's taps before wrapping ([`Ctx::level_taps`]).
struct LevelTaps {
    /// Per axis the tap indices (both the same for one tap).
    idx: [[i64; 2]; 3],
    /// Per axis the tap weights (`[1, 0]` for one tap).
    wts: [[f32; 2]; 3],
    /// Per axis the number of taps.
    taps: [usize; 3],
    /// The level's extent.
    dims: [i64; 3],
    /// The axes the view addresses.
    n: usize,
    /// A cube view (face coordinates).
    cube: bool,
}

impl<'a> Ctx<'a> {
    /// Texel `xyz` of absolute level `abs_level`, absolute layer `layer`
    /// and sample `sample` (all in range) as this context's view reads it
    /// ([`crate::texels::load`]), and whether it is resident.
    pub(crate) fn load(
        &self,
        abs_level: u32,
        layer: u32,
        sample: u32,
        xyz: [u32; 3],
    ) -> (Texel, bool) {
        crate::texels::load(
            self.view,
            self.format,
            self.ty,
            abs_level,
            layer,
            sample,
            xyz,
        )
    }

    pub(crate) fn new(
        view: &'a TextureHeader,
        smp: &'a SamplerHeader,
        profile: &'a Profile,
    ) -> Ctx<'a> {
        let e = view.texture.desc().level_extent(view.base_level);
        let format = view.format();
        Ctx {
            view,
            smp,
            profile,
            format,
            ty: format.sample_type(),
            base: [e.width, e.height, e.depth],
            identity_swizzle: view.swizzle == Swizzle::IDENTITY,
            usable: view.validate().is_ok(),
            int_filter: int_filter(view, smp, profile),
        }
    }

    fn dims(&self) -> usize {
        match self.view.kind {
            TextureKind::D1 | TextureKind::D1Array => 1,
            TextureKind::D3 => 3,
            _ => 2,
        }
    }

    /// A lane's coordinates in the view's addressing space: face
    /// coordinates for cubes, `(s, t, r)` otherwise.
    pub(crate) fn lane_coords(&self, c: [f32; 4], ddx: [f32; 3], ddy: [f32; 3]) -> LaneCoords {
        if self.view.kind.is_cube() {
            self.cube_coords(c, ddx, ddy)
        } else {
            self.plain_coords(c, ddx, ddy)
        }
    }

    pub(crate) fn plain_coords(&self, c: [f32; 4], ddx: [f32; 3], ddy: [f32; 3]) -> LaneCoords {
        let n = self.dims();
        // Unused axes read 0 (fixed-size picks: a slice copy of runtime
        // length became a memcpy call per lane).
        let keep = |v: [f32; 3]| {
            [
                v[0],
                if n > 1 { v[1] } else { 0.0 },
                if n > 2 { v[2] } else { 0.0 },
            ]
        };
        let st = keep([c[0], c[1], c[2]]);
        let dx = keep(ddx);
        let dy = keep(ddy);
        let layer = if self.view.kind.is_array() {
            select_layer(c[3], self.view.layer_count, self.profile.layer_round)
        } else {
            0
        };
        LaneCoords {
            st,
            ddx: dx,
            ddy: dy,
            layer: self.view.base_layer + layer,
            face: 0,
        }
    }

    pub(crate) fn cube_coords(&self, c: [f32; 4], ddx: [f32; 3], ddy: [f32; 3]) -> LaneCoords {
        let d = [c[0], c[1], c[2]];
        let (face, sc, tc, rc) = cube_face(d[0], d[1], d[2]);
        let ar = rc.abs();
        let s = 0.5 * sc / ar + 0.5;
        let t = 0.5 * tc / ar + 0.5;
        // Cube derivative transform: d(0.5 sc/|rc|) = 0.5 (|rc| dsc - sc
        // d|rc|) / rc^2, as `(|rc| dsc - sc d|rc|) * k` with `k = 0.5 /
        // rc^2` rounded once per lane: one division for the four
        // derivatives (`docs/semantics.md`, the cube derivative transform).
        let sign = if rc < 0.0 { -1.0 } else { 1.0 };
        let k = 0.5 / (rc * rc);
        let tr = |dv: [f32; 3]| {
            let (dsc, dtc, drc) = face_axes(face, dv);
            let dar = sign * drc;
            [(ar * dsc - sc * dar) * k, (ar * dtc - tc * dar) * k, 0.0]
        };
        let cube_index = if self.view.kind == TextureKind::CubeArray {
            select_layer(c[3], self.view.layer_count / 6, self.profile.layer_round)
        } else {
            0
        };
        LaneCoords {
            st: [s, t, 0.0],
            ddx: tr(ddx),
            ddy: tr(ddy),
            layer: self.view.base_layer + 6 * cube_index,
            face,
        }
    }

    /// Lambda before clamping, and the anisotropic footprint.
    /// The lane's footprint in texels of the view's base level (Vulkan
    /// "Scale Factor"; texels directly for unnormalized coordinates).
    pub(crate) fn footprint(&self, lc: &LaneCoords) -> Footprint {
        let n = if self.view.kind.is_cube() {
            2
        } else {
            self.dims()
        };
        let scale = |d: [f32; 3]| -> [f32; 3] {
            if self.smp.unnormalized {
                d
            } else {
                [
                    d[0] * self.base[0] as f32,
                    d[1] * self.base[1] as f32,
                    d[2] * self.base[2] as f32,
                ]
            }
        };
        let mut jx = scale(lc.ddx);
        let mut jy = scale(lc.ddy);
        for k in n..3 {
            jx[k] = 0.0;
            jy[k] = 0.0;
        }
        let dot = |a: [f32; 3], b: [f32; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        Footprint {
            jx,
            jy,
            a: dot(jx, jx),
            b: dot(jx, jy),
            c: dot(jy, jy),
        }
    }

    /// Lambda before any bias, and the anisotropy ratio eta (1 when
    /// isotropic): `log2(max(|jx|, |jy|))` (the Euclidean scale factor),
    /// evaluated as `log2(max(|jx|^2, |jy|^2)) / 2` (no square root),
    /// without anisotropy; with it `log2(s1 / eta)`, `eta = min(s1 / s2,
    /// maxAniso)` over the ellipse's axes (Vulkan "Level-of-Detail
    /// Operation", docs/semantics.md §2).
    pub(crate) fn footprint_lambda(&self, fp: &Footprint) -> (f32, f32) {
        let max_aniso = self.profile.aniso_levels.quantize(self.smp.max_anisotropy);
        if max_aniso <= 1.0 {
            return (0.5 * log2(fp.a.max(fp.c)), 1.0);
        }
        let (s1, s2) = fp.axes();
        let eta = if s1 == 0.0 || !s1.is_finite() {
            1.0
        } else if s2 == 0.0 {
            max_aniso
        } else {
            (s1 / s2).min(max_aniso)
        };
        (log2(s1 / eta), eta)
    }

    /// Lambda before bias, and the anisotropic taps.
    fn lambda(&self, lc: &LaneCoords) -> (f32, Aniso) {
        let fp = self.footprint(lc);
        let (lambda, eta) = self.footprint_lambda(&fp);
        if self.profile.aniso_levels.quantize(self.smp.max_anisotropy) <= 1.0 {
            return (lambda, Aniso::none());
        }
        let (s1, _) = fp.axes();
        let (a, b, c) = (fp.a, fp.b, fp.c);
        let taps = eta.ceil().clamp(1.0, 16.0) as u32;
        // Major axis in screen space: eigenvector of J^T J for s1^2.
        let l1 = s1 * s1;
        let (mut vx, mut vy) = (b, l1 - a);
        if vx.abs() + vy.abs() < 1e-20 {
            (vx, vy) = (l1 - c, b);
        }
        let len = (vx * vx + vy * vy).sqrt();
        let axis = if len > 0.0 && len.is_finite() {
            let (vx, vy) = (vx / len, vy / len);
            [0, 1, 2].map(|k| lc.ddx[k] * vx + lc.ddy[k] * vy)
        } else {
            [0.0; 3]
        };
        (lambda, Aniso { taps, axis })
    }

    /// Lambda, the filter and the (at most two) levels with their weights
    /// for one lane (Vulkan "Level-of-Detail Operation" and "Image Level(s)
    /// Selection").
    pub(crate) fn select(
        &self,
        lc: &LaneCoords,
        shader_lambda: Option<f32>,
        shader_bias: f32,
    ) -> Selection {
        let smp = self.smp;
        let (lambda_base, aniso) = match shader_lambda {
            Some(l) => (l, Aniso::none()),
            None => self.lambda(lc),
        };
        let bias = self.profile.clamp_bias(smp.mip_lod_bias + shader_bias);
        let mut lambda = lambda_base + bias;
        if lambda.is_nan() {
            lambda = f32::NEG_INFINITY;
        }
        if let Some(bits) = self.profile.lod_frac_bits {
            if lambda.is_finite() {
                let s = crate::profile::frac_scale(bits);
                lambda = (lambda * s).floor() / s;
            }
        }
        let lambda = lambda.min(smp.max_lod).max(smp.min_lod);
        let filter = if lambda <= 0.0 {
            smp.mag_filter
        } else {
            smp.min_filter
        };
        // A view of no levels (refused by `validate`) reads as one of level 0.
        let q = self.view.level_count.saturating_sub(1) as f32;
        // The view's min LOD (VK_EXT_image_view_min_lod) raises the level,
        // not lambda: it never changes the magnification choice.
        let d = lambda.clamp(0.0, q).max(self.view.min_lod_clamp).min(q);
        // Unnormalized coordinates read the base level only.
        let mipmap_mode = if smp.unnormalized {
            MipmapMode::None
        } else {
            smp.mipmap_mode
        };
        let levels: [(u32, f32); 2] = match mipmap_mode {
            MipmapMode::None => [(0, 1.0), (0, 0.0)],
            MipmapMode::Nearest => {
                let l = match self.profile.mip_nearest {
                    MipNearest::CeilMinusOne => (d + 0.5).ceil() - 1.0,
                    MipNearest::FloorHalf => (d + 0.5).floor(),
                };
                [(l.clamp(0.0, q) as u32, 1.0), (0, 0.0)]
            }
            MipmapMode::Linear => {
                let hi = d.floor();
                let delta = self.profile.quantize(d - hi, self.profile.lod_frac_bits);
                let lo_level = (hi as u32 + 1).min(self.view.level_count.saturating_sub(1));
                [(hi as u32, 1.0 - delta), (lo_level, delta)]
            }
        };
        Selection {
            filter,
            levels,
            aniso,
        }
    }

    fn sample_lane(
        &self,
        lc: &LaneCoords,
        shader_lambda: Option<f32>,
        shader_bias: f32,
        offset: [i32; 3],
        dref: Option<f32>,
    ) -> (Texel, bool) {
        let Selection {
            filter,
            levels,
            aniso,
        } = self.select(lc, shader_lambda, shader_bias);
        let dref = dref.map(|r| {
            if self.format.is_unorm_depth() {
                r.clamp(0.0, 1.0)
            } else {
                r
            }
        });
        if self.int_filter && dref.is_none() {
            // Integer filtering (`int_filter`): each level's sum rounded
            // half up to 8.8, the levels weighted in 256ths.
            let mut t = [0u32; 4];
            let mut resident = true;
            for (level, w) in levels {
                if w == 0.0 {
                    continue;
                }
                let (sum, r) = self.filter_level_int(lc, lc.st, level, filter, offset);
                resident &= r;
                let wl = (w * 256.0) as u32;
                for c in 0..4 {
                    t[c] += ((sum[c] + (1 << 15)) >> 16) as u32 * wl;
                }
            }
            return (
                self.swizzle(Texel::Float(t.map(int_filter_value))),
                resident,
            );
        }
        // -0.0 is the identity of addition (+0.0 would turn a -0 texel
        // into +0), so nearest reads keep -0 bit-exact.
        let mut acc = [-0.0f32; 4];
        let mut resident = true;
        let mut int_result = None;
        for (level, w) in levels {
            if w == 0.0 {
                continue;
            }
            for tap in 0..aniso.taps {
                let mut st = lc.st;
                if aniso.taps > 1 {
                    let f = (tap + 1) as f32 / (aniso.taps + 1) as f32 - 0.5;
                    for (c, a) in st.iter_mut().zip(aniso.axis) {
                        *c += f * a;
                    }
                    // Cube taps stay on the lane's face: a long footprint
                    // would otherwise index far past the seam rule's
                    // one-texel reach.
                    if self.view.kind.is_cube() {
                        st[0] = st[0].clamp(0.0, 1.0);
                        st[1] = st[1].clamp(0.0, 1.0);
                    }
                }
                let (v, r) =
                    self.filter_level(lc, st, level, filter, offset, dref, &mut int_result);
                resident &= r;
                let tw = w / aniso.taps as f32;
                for k in 0..4 {
                    acc[k] += tw * v[k];
                }
            }
        }
        if let Some(t) = int_result {
            return (self.swizzle(t), resident);
        }
        if dref.is_some() {
            return (Texel::Float([acc[0], 0.0, 0.0, 1.0]), resident);
        }
        (self.swizzle(Texel::Float(acc)), resident)
    }

    #[inline]
    pub(crate) fn swizzle(&self, t: Texel) -> Texel {
        if self.identity_swizzle {
            return t;
        }
        apply_swizzle(self.view.swizzle, t)
    }

    /// Level `level` (relative to the view base) as `(width, height, depth)`.
    pub(crate) fn level_dims(&self, level: u32) -> [i64; 3] {
        let e = self
            .view
            .texture
            .desc()
            .level_extent(self.view.base_level + level);
        [e.width as i64, e.height as i64, e.depth as i64]
    }

    /// The texel indices and weights of one level's footprint at `st`
    /// (scaled to texels, offset, not yet wrapped): per axis one or two
    /// taps.
    fn level_taps(&self, st: [f32; 3], level: u32, filter: Filter, offset: [i32; 3]) -> LevelTaps {
        let dims = self.level_dims(level);
        let n = if self.view.kind.is_cube() {
            2
        } else {
            self.dims()
        };
        let cube = self.view.kind.is_cube();
        // Per axis: indices and weights.
        let mut idx = [[0i64; 2]; 3];
        let mut wts = [[1.0f32, 0.0]; 3];
        let mut taps = [1usize; 3];
        for k in 0..n {
            let size = dims[k];
            let mode = if cube {
                AddressMode::ClampToEdge
            } else {
                self.smp.address[k]
            };
            let mut u = if self.smp.unnormalized {
                st[k]
            } else {
                st[k] * size as f32
            };
            if !cube {
                u += offset[k] as f32;
            }
            if mode == AddressMode::ClampOgl {
                u = if u.is_nan() {
                    0.0
                } else {
                    u.clamp(0.0, size as f32)
                };
            }
            match filter {
                Filter::Nearest => {
                    let i = if mode == AddressMode::ClampOgl && u >= size as f32 {
                        size - 1
                    } else {
                        floor_index(u)
                    };
                    idx[k] = [i, i];
                }
                Filter::Linear => {
                    let x = u - 0.5;
                    let i0 = floor_index(x);
                    let a = self
                        .profile
                        .quantize(frac(x), self.profile.weight_frac_bits);
                    idx[k] = [i0, i0 + 1];
                    wts[k] = [1.0 - a, a];
                    taps[k] = 2;
                }
            }
        }
        LevelTaps {
            idx,
            wts,
            taps,
            dims,
            n,
            cube,
        }
    }

    /// Integer filtering of one level at `st` ([`int_filter`]): per
    /// channel the exact sum of `w * c` (weights in 256ths on all three
    /// axes, so at scale `2^24`; `c` the 8-bit code) and residency.
    fn filter_level_int(
        &self,
        lc: &LaneCoords,
        st: [f32; 3],
        level: u32,
        filter: Filter,
        offset: [i32; 3],
    ) -> ([u64; 4], bool) {
        let fp = self.level_taps(st, level, filter, offset);
        let mut sum = [0u64; 4];
        let mut resident = true;
        let mut no_int = None;
        for kz in 0..fp.taps[2] {
            for ky in 0..fp.taps[1] {
                for kx in 0..fp.taps[0] {
                    let ijk = [fp.idx[0][kx], fp.idx[1][ky], fp.idx[2][kz]];
                    let (v, r) =
                        self.wrapped_texel(lc, level, ijk, fp.dims, fp.n, false, None, &mut no_int);
                    resident &= r;
                    // Weights of at most 8 fraction bits: exact in 256ths.
                    let w = [fp.wts[0][kx], fp.wts[1][ky], fp.wts[2][kz]]
                        .map(|w| (w * 256.0) as u64)
                        .iter()
                        .product::<u64>();
                    for c in 0..4 {
                        // The UNORM value `c / 255` back to its code.
                        sum[c] += w * (v[c] * 255.0).round() as u64;
                    }
                }
            }
        }
        (sum, resident)
    }

    /// Nearest or linear filtering of one level at `st`.
    #[allow(clippy::too_many_arguments)]
    fn filter_level(
        &self,
        lc: &LaneCoords,
        st: [f32; 3],
        level: u32,
        filter: Filter,
        offset: [i32; 3],
        dref: Option<f32>,
        int_result: &mut Option<Texel>,
    ) -> Read {
        let LevelTaps {
            idx,
            wts,
            taps,
            dims,
            n,
            cube,
        } = self.level_taps(st, level, filter, offset);
        // -0.0 is the identity of addition (+0.0 would turn a -0 texel
        // into +0), so nearest reads keep -0 bit-exact.
        let mut acc = [-0.0f32; 4];
        let mut minmax: Option<[f32; 4]> = None;
        let mut resident = true;
        for kz in 0..taps[2] {
            for ky in 0..taps[1] {
                for kx in 0..taps[0] {
                    let w = wts[0][kx] * wts[1][ky] * wts[2][kz];
                    let ijk = [idx[0][kx], idx[1][ky], idx[2][kz]];
                    // Nearest cube reads clamp to the face's edge; only
                    // linear footprints cross into neighbouring faces.
                    let (v, r) = if cube && self.smp.seamless_cube && filter == Filter::Linear {
                        self.cube_texel(lc, level, ijk[0], ijk[1], dref, int_result)
                    } else {
                        self.wrapped_texel(lc, level, ijk, dims, n, cube, dref, int_result)
                    };
                    resident &= r;
                    if w == 0.0 && filter == Filter::Linear {
                        continue;
                    }
                    for c in 0..4 {
                        acc[c] += w * v[c];
                    }
                    minmax = Some(match minmax {
                        None => v,
                        Some(m) => match self.smp.reduction {
                            ReductionMode::Min => [0, 1, 2, 3].map(|c| m[c].min(v[c])),
                            ReductionMode::Max => [0, 1, 2, 3].map(|c| m[c].max(v[c])),
                            ReductionMode::WeightedAverage => m,
                        },
                    });
                }
            }
        }
        match (self.smp.reduction, minmax) {
            (ReductionMode::Min | ReductionMode::Max, Some(m)) => (m, resident),
            _ => (acc, resident),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn wrapped_texel(
        &self,
        lc: &LaneCoords,
        level: u32,
        ijk: [i64; 3],
        dims: [i64; 3],
        n: usize,
        cube: bool,
        dref: Option<f32>,
        int_result: &mut Option<Texel>,
    ) -> Read {
        let mut w = [0i64; 3];
        for k in 0..3 {
            if k >= n {
                continue;
            }
            let mode = if cube && !self.smp.seamless_cube {
                self.smp.address[k]
            } else if cube {
                AddressMode::ClampToEdge
            } else {
                self.smp.address[k]
            };
            match wrap(ijk[k], dims[k], mode) {
                Some(v) => w[k] = v,
                None => return self.border(dref, int_result),
            }
        }
        self.texel(
            level,
            lc.layer + lc.face,
            [w[0] as u32, w[1] as u32, w[2] as u32],
            dref,
            int_result,
        )
    }

    /// A seamless cube texel: off-face indices come from the neighbour face;
    /// a corner averages the three real texels there.
    fn cube_texel(
        &self,
        lc: &LaneCoords,
        level: u32,
        i: i64,
        j: i64,
        dref: Option<f32>,
        int_result: &mut Option<Texel>,
    ) -> Read {
        let n = self.level_dims(level)[0];
        let inside = |v: i64| (0..n).contains(&v);
        match (inside(i), inside(j)) {
            (true, true) => self.texel(
                level,
                lc.layer + lc.face,
                [i as u32, j as u32, 0],
                dref,
                int_result,
            ),
            (false, false) => {
                let ci = i.clamp(0, n - 1);
                let cj = j.clamp(0, n - 1);
                let (f1, i1, j1) = cube_neighbour(lc.face, i, cj, n);
                let (f2, i2, j2) = cube_neighbour(lc.face, ci, j, n);
                let reads = [
                    self.texel(
                        level,
                        lc.layer + lc.face,
                        [ci as u32, cj as u32, 0],
                        dref,
                        int_result,
                    ),
                    self.texel(
                        level,
                        lc.layer + f1,
                        [i1 as u32, j1 as u32, 0],
                        dref,
                        int_result,
                    ),
                    self.texel(
                        level,
                        lc.layer + f2,
                        [i2 as u32, j2 as u32, 0],
                        dref,
                        int_result,
                    ),
                ];
                let mut v = [0.0; 4];
                for (t, _) in &reads {
                    for c in 0..4 {
                        v[c] += t[c] / 3.0;
                    }
                }
                (v, reads.iter().all(|r| r.1))
            }
            _ => {
                let (f, ii, jj) = cube_neighbour(lc.face, i, j, n);
                self.texel(
                    level,
                    lc.layer + f,
                    [ii as u32, jj as u32, 0],
                    dref,
                    int_result,
                )
            }
        }
    }

    /// The border colour as a float texel of the view's format: only the
    /// format's components take the border colour, the others read the
    /// (0, 0, 0, 1) defaults (Vulkan "Border Replacement"); sRGB views may
    /// see it through an 8-bit sRGB round trip (profile knob).
    pub(crate) fn border_f32(&self) -> [f32; 4] {
        let present = self.format.components();
        let defaults = [0.0, 0.0, 0.0, 1.0];
        let mut b = self.smp.border_color.as_f32();
        if self.profile.srgb_border_quantized && self.format.is_srgb() {
            for c in b.iter_mut().take(3) {
                *c =
                    texel::srgb8_to_linear(texel::f32_to_unorm(texel::linear_to_srgb(*c), 8) as u8);
            }
        }
        [0, 1, 2, 3].map(|c| if present[c] { b[c] } else { defaults[c] })
    }

    fn border(&self, dref: Option<f32>, int_result: &mut Option<Texel>) -> Read {
        let present = self.format.components();
        let v = self.border_f32();
        if self.ty != SampleType::Float {
            let bits = self.smp.border_color.as_bits();
            let v: [u32; 4] =
                [0, 1, 2, 3].map(|c| if present[c] { bits[c] } else { [0, 0, 0, 1][c] });
            *int_result = Some(Texel::from_bits(self.ty, v));
            return ([0.0; 4], true);
        }
        if let Some(r) = dref {
            let op = self.smp.compare.unwrap_or(crate::header::CompareOp::Always);
            return (
                [if op.test(r, v[0]) { 1.0 } else { 0.0 }, 0.0, 0.0, 1.0],
                true,
            );
        }
        (v, true)
    }

    /// Reads texel `(x, y, z)` of view level `level` at absolute `layer`.
    fn texel(
        &self,
        level: u32,
        layer: u32,
        xyz: [u32; 3],
        dref: Option<f32>,
        int_result: &mut Option<Texel>,
    ) -> Read {
        // One decode for every operation (non-resident texels read as zero
        // memory), then the per-texel compare.
        let (t, resident) = self.load(self.view.base_level + level, layer, 0, xyz);
        match t {
            Texel::Float(v) => {
                if let Some(r) = dref {
                    let op = self.smp.compare.unwrap_or(crate::header::CompareOp::Always);
                    (
                        [if op.test(r, v[0]) { 1.0 } else { 0.0 }, 0.0, 0.0, 1.0],
                        resident,
                    )
                } else {
                    (v, resident)
                }
            }
            other => {
                *int_result = Some(other);
                ([0.0; 4], resident)
            }
        }
    }
}

/// The anisotropic footprint: taps spread along `axis` (in the view's
/// normalized coordinates).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Aniso {
    pub(crate) taps: u32,
    pub(crate) axis: [f32; 3],
}

/// A lane's footprint: the Jacobian columns `jx = dP/dx`, `jy = dP/dy` in
/// texels (unused axes 0) and `J^T J = [[a, b], [b, c]]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Footprint {
    pub(crate) jx: [f32; 3],
    pub(crate) jy: [f32; 3],
    pub(crate) a: f32,
    pub(crate) b: f32,
    pub(crate) c: f32,
}

impl Footprint {
    /// The ellipse's semi-axes: the singular values `s1 >= s2` of J.
    pub(crate) fn axes(&self) -> (f32, f32) {
        let (a, b, c) = (self.a, self.b, self.c);
        let root = ((a - c) * (a - c) + 4.0 * b * b).sqrt();
        let s1 = ((a + c + root) * 0.5).max(0.0).sqrt();
        let s2 = ((a + c - root) * 0.5).max(0.0).sqrt();
        (s1, s2)
    }
}

/// One lane's level selection.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Selection {
    pub(crate) filter: Filter,
    /// `(level relative to the view base, weight)`; a zero weight is unused.
    pub(crate) levels: [(u32, f32); 2],
    pub(crate) aniso: Aniso,
}

impl Aniso {
    fn none() -> Aniso {
        Aniso {
            taps: 1,
            axis: [0.0; 3],
        }
    }
}

/// The border colour kind for the format.
pub fn border_is_integer(b: BorderColor) -> bool {
    matches!(
        b,
        BorderColor::IntTransparentBlack
            | BorderColor::IntOpaqueBlack
            | BorderColor::IntOpaqueWhite
            | BorderColor::Int(_)
    )
}

#[cfg(test)]
mod log2_tests {
    use super::*;

    /// The tables are what their docs say: the f32 nearest `1 / (1 + j /
    /// 16)` and to `-log2` of that.
    #[test]
    fn log2_tables_are_the_rounded_reciprocals_and_logarithms() {
        for j in 0..16 {
            let inv = (1.0f64 / (1.0 + j as f64 / 16.0)) as f32;
            assert_eq!(LOG2_INV[j].to_bits(), inv.to_bits(), "LOG2_INV[{j}]");
            let lg = (-f64::from(inv).log2()) as f32;
            assert_eq!(LOG2_TAB[j], lg, "LOG2_TAB[{j}]");
        }
    }

    /// Exact at powers of two (denormal ones included), the special
    /// values as documented, and within 2e-7 of the f64 logarithm
    /// (absolute below 1, relative above) over a sweep of the f32 range.
    #[test]
    fn log2_is_exact_at_powers_of_two_and_within_its_bound_elsewhere() {
        for e in -149..128 {
            let x = 2.0f64.powi(e) as f32;
            assert_eq!(log2(x), e as f32, "log2(2^{e})");
        }
        assert_eq!(log2(0.0), f32::NEG_INFINITY);
        assert_eq!(log2(-0.0), f32::NEG_INFINITY);
        assert_eq!(log2(f32::INFINITY), f32::INFINITY);
        assert!(log2(f32::NAN).is_nan() && log2(-1.0).is_nan());
        assert!(log2(f32::NEG_INFINITY).is_nan() && log2(-1.0e-45).is_nan());
        let mut worst = 0.0f64;
        // Every 97th bit pattern of the positive finite floats.
        for bits in (1u32..0x7f80_0000).step_by(97) {
            let x = f32::from_bits(bits);
            let exact = f64::from(x).log2();
            let err = (f64::from(log2(x)) - exact).abs() / exact.abs().max(1.0);
            worst = worst.max(err);
            assert!(err <= 2.0e-7, "log2({x:e}) = {}, exact {exact}", log2(x));
        }
        // The bound is not loose by orders of magnitude.
        assert!(worst > 5.0e-8, "worst {worst:e}");
    }
}
