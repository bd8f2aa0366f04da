//! `quadtex bench gl-workloads`: whole frames of the workloads llvmpipe is
//! measured on, rendered by quadtex's rasterizer and sampler.
//!
//! The workloads are an OpenGL throughput test's (`docs/gl-workloads.md`
//! describes it in full): a 1920x1080 `R8G8B8A8` target, no depth test, no
//! MSAA, one draw of four clip-space vertices as two triangles `(0, 1, 2)`
//! and `(0, 2, 3)` with one perspective-correct `uv` attribute, and a
//! fragment shader doing one texture operation per pixel:
//!
//! | variant | mapping | shader | sampler |
//! |---|---|---|---|
//! | `no_texture` | minify | `vec4(fract(uv), 0, 1)` | none |
//! | `nearest_minify` | minify | `texture(tex, uv)` | nearest, nearest mip |
//! | `bilinear_minify` | minify | `texture(tex, uv)` | linear, nearest mip |
//! | `trilinear_minify` | minify | `texture(tex, uv)` | linear, linear mip |
//! | `nearest_rotpersp` | rotpersp | `texture(tex, uv)` | nearest, nearest mip |
//! | `bilinear_rotpersp` | rotpersp | `texture(tex, uv)` | linear, nearest mip |
//! | `trilinear_rotpersp` | rotpersp | `texture(tex, uv)` | linear, linear mip |
//! | `trilinear_ground` | ground | `texture(tex, uv)` | linear, linear mip |
//! | `aniso16_ground` | ground | `texture(tex, uv)` | trilinear, anisotropy 16 |
//! | `gather_minify` | minify | `textureGather(tex, uv, 0)` | (gathers read level 0) |
//! | `shadow_minify` | minify | `vec4(texture(stex, vec3(uv, 0.5 + 0.2 * sin(5 * uv.x))))` | linear, `LESS_OR_EQUAL` compare |
//!
//! `tex` is a 1024x1024 `R8G8B8A8_UNORM` texture with 11 levels, level `n`
//! the rounded 2x2 box filter of level `n - 1` (`(a + b + c + d + 2) / 4`
//! per byte), `repeat` addressing; `stex` a 1024x1024 `D32_SFLOAT`
//! texture of one level holding `0.5 + 0.25 * sin(37 x) * cos(23 y)` at
//! texel `(x, y) / 1024`, `repeat`. Both are stored with their first row
//! at `t = 0`, as OpenGL uploads them. Level 0 of `tex` is seeded random
//! bytes unless the caller gives its own (the OpenGL test makes its level 0
//! with numpy's `default_rng(1234)`, so the frames can be compared pixel
//! for pixel when those bytes are handed over).

use std::sync::Arc;
use std::time::{Duration, Instant};

use glam::{Mat4, Vec4};
use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat};
use quadtex_raster::{
    BlendMode, ColorFormat, CullMode, DrawCall, DrawState, FragmentShader, Frame, Mesh, QuadBatch,
    QuadCtx, Rendered, Renderer, TextureBinding, MAX_BATCH_QUADS,
};
use quadtex_sampler::cpu::SimdLevel;
use quadtex_sampler::{
    AddressMode, CompareOp, Filter, GatherArgs, MipmapMode, PlanarOut, Profile, QuadCoords,
    SampleArgs, SamplerHeader,
};

/// Target width in pixels.
pub const WIDTH: u32 = 1920;
/// Target height in pixels.
pub const HEIGHT: u32 = 1080;
/// Width and height of both textures' level 0.
pub const TEXTURE_SIZE: u32 = 1024;
/// Mip levels of the colour texture (1024 down to 1).
pub const LEVELS: u32 = 11;

/// What went wrong preparing the workloads.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A variant name that is not one of [`VARIANTS`].
    #[error("unknown variant `{0}` (one of: {list})", list = variant_names())]
    UnknownVariant(String),
    /// Level-0 or shadow bytes of the wrong size.
    #[error("{what} must be {expected} bytes, not {actual}")]
    WrongSize {
        /// Which input.
        what: &'static str,
        /// The size it must have.
        expected: usize,
        /// The size it has.
        actual: usize,
    },
    /// The format crate refused a texture (it cannot for these sizes).
    #[error("texture: {0}")]
    Texture(#[from] quadtex_format::Error),
    /// The renderer refused the frame.
    #[error("render: {0}")]
    Render(#[from] quadtex_raster::Error),
}

/// The screen-to-texture mapping of a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mapping {
    /// Screen-aligned, `uv = screen_uv * 3`: about 1.6 x 2.8 texels per
    /// pixel.
    Minify,
    /// `uv` rotated 30 degrees and scaled 4x, `w = 1` at the bottom edge
    /// and 2.5 at the top.
    RotPersp,
    /// A ground plane, `w = 1` at the bottom and 16 at the top, `uv` in
    /// `[0, 4] x [0, 48]`: strongly anisotropic footprints.
    Ground,
}

impl Mapping {
    /// The four vertices `(clip x, y, z, w, s, t)`.
    pub fn vertices(self) -> [[f32; 6]; 4] {
        match self {
            Mapping::Minify => [
                [-1.0, -1.0, 0.0, 1.0, 0.0, 0.0],
                [1.0, -1.0, 0.0, 1.0, 3.0, 0.0],
                [1.0, 1.0, 0.0, 1.0, 3.0, 3.0],
                [-1.0, 1.0, 0.0, 1.0, 0.0, 3.0],
            ],
            Mapping::RotPersp => {
                let a = 30f64.to_radians();
                let corners = [
                    (-1.0, -1.0, 1.0),
                    (1.0, -1.0, 1.0),
                    (1.0, 1.0, 2.5),
                    (-1.0, 1.0, 2.5),
                ];
                corners.map(|(x, y, w): (f64, f64, f64)| {
                    let (u, v) = ((x + 1.0) / 2.0, (y + 1.0) / 2.0);
                    let s = 4.0 * (u * a.cos() - v * a.sin());
                    let t = 4.0 * (u * a.sin() + v * a.cos());
                    [
                        (x * w) as f32,
                        (y * w) as f32,
                        0.0,
                        w as f32,
                        s as f32,
                        t as f32,
                    ]
                })
            }
            Mapping::Ground => {
                let corners = [
                    (-1.0, -1.0, 1.0, 0.0, 0.0),
                    (1.0, -1.0, 1.0, 4.0, 0.0),
                    (1.0, 1.0, 16.0, 4.0, 48.0),
                    (-1.0, 1.0, 16.0, 0.0, 48.0),
                ];
                corners
                    .map(|(x, y, w, s, t): (f32, f32, f32, f32, f32)| [x * w, y * w, 0.0, w, s, t])
            }
        }
    }

    /// The two triangles as a clip-space mesh with `(s, t)` per vertex.
    pub fn mesh(self) -> Mesh {
        let v = self.vertices();
        Mesh::clip_space(
            v.iter()
                .map(|p| Vec4::new(p[0], p[1], p[2], p[3]))
                .collect(),
            2,
            v.iter().flat_map(|p| [p[4], p[5]]).collect(),
            vec![0, 1, 2, 0, 2, 3],
        )
    }
}

/// What a variant's fragment shader does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lookup {
    /// No texture: `vec4(fract(uv), 0, 1)`.
    Flat,
    /// `texture(tex, uv)` with the variant's filters.
    Sample {
        /// Minification and magnification filter.
        filter: Filter,
        /// Mipmap mode.
        mip: MipmapMode,
        /// Maximum anisotropy (1: isotropic).
        anisotropy: f32,
    },
    /// `textureGather(tex, uv, 0)`.
    Gather,
    /// `texture(stex, vec3(uv, 0.5 + 0.2 * sin(5 * uv.x)))` replicated to
    /// four channels.
    Shadow,
}

/// One workload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Variant {
    /// Its name, as the OpenGL test prints it.
    pub name: &'static str,
    /// The mapping.
    pub mapping: Mapping,
    /// The texture operation.
    pub lookup: Lookup,
}

const fn sample(filter: Filter, mip: MipmapMode, anisotropy: f32) -> Lookup {
    Lookup::Sample {
        filter,
        mip,
        anisotropy,
    }
}

/// Every workload, in the OpenGL test's order.
pub const VARIANTS: [Variant; 11] = [
    Variant {
        name: "no_texture",
        mapping: Mapping::Minify,
        lookup: Lookup::Flat,
    },
    Variant {
        name: "nearest_minify",
        mapping: Mapping::Minify,
        lookup: sample(Filter::Nearest, MipmapMode::Nearest, 1.0),
    },
    Variant {
        name: "bilinear_minify",
        mapping: Mapping::Minify,
        lookup: sample(Filter::Linear, MipmapMode::Nearest, 1.0),
    },
    Variant {
        name: "trilinear_minify",
        mapping: Mapping::Minify,
        lookup: sample(Filter::Linear, MipmapMode::Linear, 1.0),
    },
    Variant {
        name: "nearest_rotpersp",
        mapping: Mapping::RotPersp,
        lookup: sample(Filter::Nearest, MipmapMode::Nearest, 1.0),
    },
    Variant {
        name: "bilinear_rotpersp",
        mapping: Mapping::RotPersp,
        lookup: sample(Filter::Linear, MipmapMode::Nearest, 1.0),
    },
    Variant {
        name: "trilinear_rotpersp",
        mapping: Mapping::RotPersp,
        lookup: sample(Filter::Linear, MipmapMode::Linear, 1.0),
    },
    Variant {
        name: "trilinear_ground",
        mapping: Mapping::Ground,
        lookup: sample(Filter::Linear, MipmapMode::Linear, 1.0),
    },
    Variant {
        name: "aniso16_ground",
        mapping: Mapping::Ground,
        lookup: sample(Filter::Linear, MipmapMode::Linear, 16.0),
    },
    Variant {
        name: "gather_minify",
        mapping: Mapping::Minify,
        lookup: Lookup::Gather,
    },
    Variant {
        name: "shadow_minify",
        mapping: Mapping::Minify,
        lookup: Lookup::Shadow,
    },
];

fn variant_names() -> String {
    VARIANTS.map(|v| v.name).join(", ")
}

/// The variants named in `list` (comma-separated), in [`VARIANTS`]'s
/// order; `None` or an empty list means all of them.
pub fn select(list: Option<&str>) -> Result<Vec<Variant>, Error> {
    let Some(list) = list.filter(|l| !l.trim().is_empty()) else {
        return Ok(VARIANTS.to_vec());
    };
    let names: Vec<&str> = list.split(',').map(str::trim).collect();
    if let Some(bad) = names
        .iter()
        .find(|n| !VARIANTS.iter().any(|v| v.name == **n))
    {
        return Err(Error::UnknownVariant((*bad).to_string()));
    }
    Ok(VARIANTS
        .iter()
        .filter(|v| names.contains(&v.name))
        .copied()
        .collect())
}

/// Bytes of the colour texture's level 0 (`1024 * 1024 * 4`).
pub const LEVEL0_BYTES: usize = (TEXTURE_SIZE * TEXTURE_SIZE * 4) as usize;
/// Bytes of the shadow texture (`1024 * 1024` little-endian f32).
pub const SHADOW_BYTES: usize = (TEXTURE_SIZE * TEXTURE_SIZE * 4) as usize;

/// Seeded random bytes for level 0 when the caller gives none
/// (xorshift64, seed 1234).
pub fn default_level0() -> Vec<u8> {
    let mut s = 1234u64 ^ 0x9e37_79b9_7f4a_7c15;
    let mut out = vec![0u8; LEVEL0_BYTES];
    for chunk in out.chunks_exact_mut(8) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        chunk.copy_from_slice(&s.to_le_bytes());
    }
    out
}

/// The shadow texture's depths as the OpenGL test computes them (f64,
/// then rounded to f32), row `y` at `t = y / 1024`.
pub fn default_shadow() -> Vec<u8> {
    let n = TEXTURE_SIZE as usize;
    let mut out = Vec::with_capacity(SHADOW_BYTES);
    for y in 0..n {
        for x in 0..n {
            let (xf, yf) = (x as f64 / n as f64, y as f64 / n as f64);
            let d = (0.5 + 0.25 * (xf * 37.0).sin() * (yf * 23.0).cos()) as f32;
            out.extend_from_slice(&d.to_le_bytes());
        }
    }
    out
}

/// The colour texture: `level0` (RGBA8, first row at `t = 0`) and its
/// rounded 2x2 box-filtered levels, tiled.
pub fn color_texture(level0: &[u8]) -> Result<Texture, Error> {
    if level0.len() != LEVEL0_BYTES {
        return Err(Error::WrongSize {
            what: "level 0",
            expected: LEVEL0_BYTES,
            actual: level0.len(),
        });
    }
    let desc =
        TextureDesc::d2(TextureFormat::Rgba8Unorm, TEXTURE_SIZE, TEXTURE_SIZE).with_levels(LEVELS);
    let mut all = level0.to_vec();
    let mut level = level0.to_vec();
    let mut size = TEXTURE_SIZE as usize;
    while size > 1 {
        let half = size / 2;
        let mut next = vec![0u8; half * half * 4];
        for y in 0..half {
            for x in 0..half {
                for c in 0..4 {
                    let at = |xx: usize, yy: usize| u32::from(level[(yy * size + xx) * 4 + c]);
                    let sum = at(2 * x, 2 * y)
                        + at(2 * x + 1, 2 * y)
                        + at(2 * x, 2 * y + 1)
                        + at(2 * x + 1, 2 * y + 1);
                    next[(y * half + x) * 4 + c] = ((sum + 2) / 4) as u8;
                }
            }
        }
        all.extend_from_slice(&next);
        level = next;
        size = half;
    }
    Ok(Texture::from_linear_bytes(desc, Layout::Linear, &all)?)
}

/// The shadow texture from `depths` (little-endian f32, first row at
/// `t = 0`), in the linear layout (pairs of texels a lane read as one
/// 8-byte load).
pub fn shadow_texture(depths: &[u8]) -> Result<Texture, Error> {
    if depths.len() != SHADOW_BYTES {
        return Err(Error::WrongSize {
            what: "the shadow texture",
            expected: SHADOW_BYTES,
            actual: depths.len(),
        });
    }
    let desc =
        TextureDesc::d2(TextureFormat::Depth32Float, TEXTURE_SIZE, TEXTURE_SIZE).with_levels(1);
    Ok(Texture::from_linear_bytes(desc, Layout::Linear, depths)?)
}

/// The textures every variant reads.
#[derive(Clone, Debug)]
pub struct Textures {
    /// The mipmapped RGBA8 texture.
    pub color: Arc<Texture>,
    /// The D32F shadow texture.
    pub shadow: Arc<Texture>,
}

impl Textures {
    /// Both textures from their level-0 bytes ([`default_level0`] and
    /// [`default_shadow`] when the caller has none).
    pub fn new(level0: &[u8], depths: &[u8]) -> Result<Textures, Error> {
        Ok(Textures {
            color: Arc::new(color_texture(level0)?),
            shadow: Arc::new(shadow_texture(depths)?),
        })
    }
}

/// The fragment shader of one variant.
struct Shader {
    lookup: Lookup,
    bindings: Vec<TextureBinding>,
}

impl Shader {
    fn new(lookup: Lookup, textures: &Textures) -> Shader {
        let repeat = [AddressMode::Repeat; 3];
        let bindings = match lookup {
            Lookup::Flat => Vec::new(),
            Lookup::Sample {
                filter,
                mip,
                anisotropy,
            } => vec![TextureBinding::new(
                textures.color.clone(),
                SamplerHeader {
                    mag_filter: filter,
                    min_filter: filter,
                    mipmap_mode: mip,
                    address: repeat,
                    max_anisotropy: anisotropy,
                    ..Default::default()
                },
            )],
            Lookup::Gather => vec![TextureBinding::new(
                textures.color.clone(),
                SamplerHeader {
                    mag_filter: Filter::Linear,
                    min_filter: Filter::Linear,
                    mipmap_mode: MipmapMode::Linear,
                    address: repeat,
                    ..Default::default()
                },
            )],
            Lookup::Shadow => vec![TextureBinding::new(
                textures.shadow.clone(),
                SamplerHeader {
                    mag_filter: Filter::Linear,
                    min_filter: Filter::Linear,
                    mipmap_mode: MipmapMode::Nearest,
                    address: repeat,
                    compare: Some(CompareOp::LessOrEqual),
                    ..Default::default()
                },
            )],
        };
        Shader { lookup, bindings }
    }
}

impl FragmentShader for Shader {
    fn bindings(&self) -> &[TextureBinding] {
        &self.bindings
    }

    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        let coords = q.coords2(0);
        match self.lookup {
            Lookup::Flat => {
                let (u, v) = (q.attr(0), q.attr(1));
                for l in 0..4 {
                    out[l] = [u[l] - floor(u[l]), v[l] - floor(v[l]), 0.0, 1.0];
                }
            }
            Lookup::Sample { .. } => {
                *out = q.sample_rgba(0, &SampleArgs::default(), coords);
            }
            Lookup::Gather => {
                let r = q.gather(0, &GatherArgs::default(), coords);
                *out = quadtex_raster::texels_f32(&r);
            }
            Lookup::Shadow => {
                let dref = coords.map(|c| shadow_ref(c[0]));
                let args = SampleArgs {
                    dref: Some(dref),
                    ..Default::default()
                };
                let t = q.sample_rgba(0, &args, coords);
                for l in 0..4 {
                    out[l] = [t[l][0]; 4];
                }
            }
        }
    }

    /// The whole batch on planes: attributes in, the sampler's planar
    /// kernels straight into the colour planes (the same values as
    /// `shade`).
    fn shade_batch(&self, q: &mut QuadCtx<'_>, batch: &QuadBatch, out: &mut PlanarOut<'_>) {
        let coords = batch.coords2_planar(0);
        match self.lookup {
            Lookup::Sample { .. } => {
                q.sample_planar(0, &SampleArgs::default(), &coords, out);
            }
            Lookup::Gather => {
                q.gather_planar(0, &GatherArgs::default(), &coords, out);
            }
            Lookup::Flat => {
                let n = 4 * batch.len();
                // At AVX2 and above (SSE4.1's `roundps` included)
                // `f32::floor` is one instruction for a whole register;
                // below, [`floor`]'s float operations.
                if quadtex_sampler::cpu::simd_level() >= SimdLevel::Avx2 {
                    quadtex_raster::simd::run(Fract::<true> {
                        s: coords.s,
                        t: coords.t,
                        out,
                        n,
                    });
                } else {
                    quadtex_raster::simd::run(Fract::<false> {
                        s: coords.s,
                        t: coords.t,
                        out,
                        n,
                    });
                }
            }
            Lookup::Shadow => {
                let mut dref = [0.0f32; 4 * MAX_BATCH_QUADS];
                let n = coords.s.len().min(dref.len());
                quadtex_raster::simd::run(ShadowRef {
                    u: &coords.s[..n],
                    dref: &mut dref[..n],
                });
                let coords = QuadCoords {
                    dref: &dref[..n],
                    ..coords
                };
                // `vec4(texture(..))`: the compare's result in red, which
                // the renderer reads for all four channels
                // (`replicates_red`); the sampler's other planes are left
                // as it wrote them.
                q.sample_planar(0, &SampleArgs::default(), &coords, out);
            }
        }
    }

    /// The shadow workload's colours are the depth compare's result in
    /// all four channels.
    fn replicates_red(&self) -> bool {
        matches!(self.lookup, Lookup::Shadow)
    }

    /// The flat workload's `vec4(fract(uv), 0, 1)`: blue and alpha are
    /// constants.
    fn constant_channels(&self) -> [Option<f32>; 4] {
        match self.lookup {
            Lookup::Flat => [None, None, Some(0.0), Some(1.0)],
            _ => [None; 4],
        }
    }
}

/// The flat workload's planar loop, the red and green of `vec4(fract(uv),
/// 0, 1)` over `n` lanes (blue and alpha are the shader's constant
/// channels), compiled for the machine's SIMD level: `x - floor(x)` with
/// `f32::floor` (`ROUND`, for levels with a rounding instruction) or
/// [`floor`] (the same bits).
struct Fract<'a, 'o, const ROUND: bool> {
    s: &'a [f32],
    t: &'a [f32],
    out: &'a mut PlanarOut<'o>,
    n: usize,
}

impl<const ROUND: bool> quadtex_raster::simd::Wide for Fract<'_, '_, ROUND> {
    type Out = ();
    #[inline(always)]
    fn run(self) {
        let n = self.n;
        let floor = |x: f32| if ROUND { x.floor() } else { floor(x) };
        for (o, &u) in self.out.r[..n].iter_mut().zip(self.s) {
            *o = u - floor(u);
        }
        for (o, &v) in self.out.g[..n].iter_mut().zip(self.t) {
            *o = v - floor(v);
        }
        // (Blue 0 and alpha 1 are `constant_channels`: not written.)
    }
}

/// `x.floor()`, bit for bit (every finite value, -0, the infinities and
/// NaN), in float operations that stay in SIMD registers on any x86-64
/// (the baseline has no rounding instruction, so `f32::floor` is a
/// library call per lane, and a conversion through `i32` needs scalar
/// range checks): below 2^23 in magnitude, adding and subtracting 2^23
/// (with `x`'s sign) rounds to the nearest whole number, one is taken
/// where that went up, and a zero keeps `x`'s sign; larger magnitudes,
/// infinities and NaN are their own floor.
#[inline(always)]
fn floor(x: f32) -> f32 {
    const TWO_23: f32 = 8_388_608.0;
    let c = TWO_23.copysign(x);
    let r = (x + c) - c;
    let f = if r > x { r - 1.0 } else { r };
    if x.abs() < TWO_23 {
        f.copysign(x)
    } else {
        x
    }
}

/// The shadow workload's depth reference at `u`: `0.5 + 0.2 * sin(5u)`
/// ([`sin`]).
#[inline(always)]
fn shadow_ref(u: f32) -> f32 {
    0.5 + 0.2 * sin(u * 5.0)
}

/// The shadow workload's planar loop: [`shadow_ref`] of every lane,
/// compiled for the machine's SIMD level (the polynomial for every lane
/// first, then the rare lanes beyond its range again through the
/// library).
struct ShadowRef<'a> {
    u: &'a [f32],
    dref: &'a mut [f32],
}

impl quadtex_raster::simd::Wide for ShadowRef<'_> {
    type Out = ();
    #[inline(always)]
    fn run(self) {
        let mut far = false;
        for (d, &u) in self.dref.iter_mut().zip(self.u) {
            let x = u * 5.0;
            far |= x.abs() > SIN_POLY_LIMIT || x.is_nan();
            *d = 0.5 + 0.2 * sin_poly(x);
        }
        if far {
            for (d, &u) in self.dref.iter_mut().zip(self.u) {
                *d = shadow_ref(u);
            }
        }
    }
}

/// Up to this magnitude [`sin_poly`] is within 1e-7 of the sine (and
/// within 2 units in the last place of it over the workload's
/// `5 u`, u in `[0, 3]`).
const SIN_POLY_LIMIT: f32 = 8192.0;

/// The shader's `sin`: [`sin_poly`] up to [`SIN_POLY_LIMIT`] in
/// magnitude, the library's `sin` beyond (and for NaN). GLSL leaves the
/// precision of `sin` to the implementation (llvmpipe evaluates a
/// polynomial too); this one is within 1e-7 of the true sine, and the
/// same function on both of the shader's paths, so the batched frame
/// equals the per-quad one.
#[inline(always)]
fn sin(x: f32) -> f32 {
    if x.abs() <= SIN_POLY_LIMIT {
        sin_poly(x)
    } else {
        x.sin()
    }
}

/// `sin(x)` in float operations that vectorize: `x = k * pi/2 + r` with
/// `k` the nearest whole number to `x * 2/pi` (rounded by adding and
/// subtracting 1.5 * 2^23) and `r` from a three-part pi/2 whose first
/// two parts have few enough bits that `k * part` is exact
/// (Cody and Waite), then Cephes' minimax polynomials for `sin r` and
/// `cos r` on `[-pi/4, pi/4]`, the quadrant `k mod 4` choosing which and
/// its sign. Accurate for `|x|` up to [`SIN_POLY_LIMIT`].
#[inline(always)]
fn sin_poly(x: f32) -> f32 {
    const ROUND: f32 = 12_582_912.0;
    const PI_2_A: f32 = 1.570_312_5;
    const PI_2_B: f32 = 4.837_513e-4;
    const PI_2_C: f32 = 7.549_79e-8;
    let k = (x * std::f32::consts::FRAC_2_PI + ROUND) - ROUND;
    let r = ((x - k * PI_2_A) - k * PI_2_B) - k * PI_2_C;
    let r2 = r * r;
    let sin_r = r + r * r2 * (-1.666_665_5e-1 + r2 * (8.332_161e-3 + r2 * -1.951_529_6e-4));
    let cos_r =
        1.0 - 0.5 * r2 + r2 * r2 * (4.166_664_6e-2 + r2 * (-1.388_731_6e-3 + r2 * 2.443_315_7e-5));
    // The quadrant, from the float `k` (exact below 2^23): k mod 4.
    let q = k - 4.0 * ((k * 0.25 + ROUND) - ROUND);
    let q = if q < 0.0 { q + 4.0 } else { q };
    let v = if q == 1.0 || q == 3.0 { cos_r } else { sin_r };
    let v = if q >= 2.0 { -v } else { v };
    // sin(-0) = -0 (the polynomial's sum loses the sign).
    if x == 0.0 {
        x
    } else {
        v
    }
}

/// The frame of `variant`: one draw of its mapping's two triangles with
/// its shader, no depth test, into a 1920x1080 target.
pub fn frame(variant: &Variant, textures: &Textures) -> Frame {
    let mut frame = Frame::new(WIDTH, HEIGHT).with_color_format(ColorFormat::Rgba8Unorm);
    // No depth attachment: no draw tests depth.
    frame.depth = false;
    frame.clear_color = [0.0, 0.0, 0.0, 0.0];
    frame.draw(
        DrawCall::new(
            Arc::new(variant.mapping.mesh()),
            Mat4::IDENTITY,
            Arc::new(Shader::new(variant.lookup, textures)),
        )
        .with_state(DrawState {
            depth_test: None,
            depth_write: false,
            cull: CullMode::None,
            blend: BlendMode::Replace,
        }),
    );
    frame
}

/// The timing of one variant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Worker threads.
    pub threads: usize,
    /// Frames timed (after the warm-up).
    pub frames: usize,
    /// The median frame time.
    pub median: Duration,
    /// The fastest frame.
    pub min: Duration,
}

impl Timing {
    /// Output pixels per second over the median frame, in millions.
    pub fn mpix_s(&self) -> f64 {
        f64::from(WIDTH) * f64::from(HEIGHT) / self.median.as_secs_f64() / 1e6
    }
}

/// Renders `frame` `warmup + frames` times into `out` (its buffers reused
/// from frame to frame, as an application's render loop does) and times
/// the last `frames` of them.
pub fn time_frames(
    renderer: &Renderer,
    frame: &Frame,
    out: &mut Rendered,
    frames: usize,
    warmup: usize,
) -> Result<Timing, Error> {
    let mut times = Vec::with_capacity(frames);
    for i in 0..warmup + frames.max(1) {
        let t0 = Instant::now();
        renderer.render_into(frame, out)?;
        if i >= warmup {
            times.push(t0.elapsed());
        }
    }
    times.sort();
    let n = times.len();
    let median = if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2
    };
    Ok(Timing {
        threads: renderer.threads(),
        frames: n,
        median,
        min: times[0],
    })
}

/// The colour target as RGBA8 UNORM bytes, top row first: the target's
/// own bytes for an `R8G8B8A8_UNORM` target (the workloads' frames, as
/// [`frame`] makes them), otherwise each sample 0's linear value
/// clamped to `[0, 1]` and rounded to the nearest of 255ths, as an
/// `R8G8B8A8_UNORM` target stores it (NaN stores 0).
pub fn rgba8_top_first(out: &Rendered) -> Vec<u8> {
    let c = &out.color;
    let s = c.samples().max(1) as usize;
    let f = c.format();
    if f == ColorFormat::Rgba8Unorm && s == 1 {
        return c.bytes().to_vec();
    }
    let mut bytes = Vec::with_capacity(c.bytes().len() / f.bytes() / s * 4);
    let mut px = [0u8; 4];
    for v in c.bytes().chunks_exact(f.bytes()).step_by(s) {
        ColorFormat::Rgba8Unorm.encode(f.decode(v), &mut px);
        bytes.extend_from_slice(&px);
    }
    bytes
}

/// A renderer for `threads` (0: one per core) sampling with `profile`.
pub fn renderer(threads: usize, profile: Profile) -> Result<Renderer, Error> {
    Ok(Renderer::new(threads)?.with_profile(profile))
}

#[cfg(test)]
mod tests {
    use super::{floor, shadow_ref, sin, ShadowRef, SIN_POLY_LIMIT};

    /// `floor` is `f32::floor` bit for bit: edge values around zero, the
    /// 2^23 boundary, halves, infinities and NaN, and a million seeded
    /// random bit patterns.
    /// The shader's `sin` against the sine in f64: within 1e-7 over
    /// `[-8192, 8192]` (every 997th f32), within 2 ulp of the rounded sine
    /// over the workload's arguments `5 u`, `u` in `[0, 3]` (a million
    /// steps), and the special values: signed zeros kept, NaN and the
    /// infinities give NaN, beyond the polynomial's range the library's
    /// `sin`. The batched loop gives `shadow_ref` bit for bit.
    #[test]
    fn shader_sin_is_close_to_the_sine() {
        let ulps = |a: f32, b: f32| {
            let key = |x: f32| {
                let i = x.to_bits() as i32;
                if i < 0 {
                    i64::from(i32::MIN) - i64::from(i)
                } else {
                    i64::from(i)
                }
            };
            (key(a) - key(b)).abs()
        };
        let mut bits = (-SIN_POLY_LIMIT).to_bits();
        let mut args = Vec::new();
        loop {
            let x = f32::from_bits(bits);
            args.push(x);
            if x >= SIN_POLY_LIMIT {
                break;
            }
            bits = if x < 0.0 && bits > 0x8000_0000 + 997 {
                bits - 997
            } else if x < 0.0 {
                0
            } else {
                bits + 997
            };
        }
        for &x in &args {
            let err = (f64::from(sin(x)) - f64::from(x).sin()).abs();
            assert!(err <= 1e-7, "sin({x:e}) off by {err:e}");
        }
        for i in 0..=1_000_000 {
            let x = (i as f32 * 3e-6) * 5.0;
            let want = f64::from(x).sin() as f32;
            assert!(
                ulps(sin(x), want) <= 2,
                "sin({x:e}) = {:e}, want {want:e}",
                sin(x)
            );
        }
        assert_eq!(sin(0.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(sin(-0.0).to_bits(), (-0.0f32).to_bits());
        assert!(sin(f32::NAN).is_nan() && sin(f32::INFINITY).is_nan());
        assert!(sin(f32::NEG_INFINITY).is_nan());
        assert_eq!(sin(1e6), 1e6f32.sin());
        // The planar loop, near and beyond the polynomial's range.
        let u: Vec<f32> = args
            .iter()
            .map(|x| x / 5.0)
            .chain([3e5, f32::NAN, -1e9])
            .collect();
        let mut dref = vec![0.0; u.len()];
        for chunk in 0..u.len().div_ceil(256) {
            let r = chunk * 256..(chunk * 256 + 256).min(u.len());
            quadtex_raster::simd::run(ShadowRef {
                u: &u[r.clone()],
                dref: &mut dref[r],
            });
        }
        for (&u, &d) in u.iter().zip(&dref) {
            let want = shadow_ref(u);
            assert!(
                d.to_bits() == want.to_bits() || (d.is_nan() && want.is_nan()),
                "{u:e}"
            );
        }
    }

    #[test]
    fn floor_is_f32_floor_bit_for_bit() {
        let edges = [
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            0.999_999_94,
            -0.999_999_94,
            1.5,
            -1.5,
            8_388_607.5,
            -8_388_607.5,
            8_388_608.0,
            -8_388_608.0,
            16_777_217.0,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            1e-45,
            -1e-45,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        let check = |x: f32| {
            let (got, want) = (floor(x), x.floor());
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "floor({x:e}) = {got:e}, f32::floor {want:e}"
            );
        };
        edges.into_iter().for_each(check);
        check(f32::NAN);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1_000_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            check(f32::from_bits(state as u32));
            // Values where the fraction matters.
            check((state >> 40) as f32 / 4096.0 - 1024.0);
        }
    }
}
