//! Procedural textures: checker, gradient, noise and `mip_colored`, built
//! straight into a [`Texture`] of any uncompressed float-class format, kind
//! (2D, 2D array, cube, 3D) and extent, with the format crate's mip
//! generator filling the chain when asked.
//!
//! Colours are linear RGBA in `0..1`: an sRGB format stores them encoded and
//! sampling decodes them back. Each texel is evaluated at its centre. Cube
//! faces are evaluated on the direction through the texel (Vulkan face
//! order and orientation, "Cube Map Face Selection"), so gradients and
//! noise run across the edges without seams. Files are not read here.

use std::sync::Arc;

use glam::{Vec3, Vec4};
use quadtex_format::desc::full_mip_count;
use quadtex_format::{texel, Layout, Texel, Texture, TextureDesc, TextureFormat, TextureKind};
use quadtex_sampler::TextureHeader;

/// The direction of a [`Procedural::Gradient`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GradientDirection {
    /// `from` at the left edge, `to` at the right.
    Horizontal,
    /// `from` at the top row, `to` at the bottom; on a cube, `from` straight
    /// up (+Y) and `to` straight down (a sky).
    Vertical,
    /// `from` at the top-left corner, `to` at the bottom-right.
    Diagonal,
    /// `from` at the centre, `to` at the inscribed circle and beyond.
    Radial,
    /// `from` at the first depth slice of a 3D texture, `to` at the last.
    Depth,
}

impl GradientDirection {
    /// Every direction, in the order of [`GradientDirection::name`]s.
    pub const ALL: [GradientDirection; 5] = [
        GradientDirection::Horizontal,
        GradientDirection::Vertical,
        GradientDirection::Diagonal,
        GradientDirection::Radial,
        GradientDirection::Depth,
    ];

    /// The scene-file spelling.
    pub const fn name(self) -> &'static str {
        match self {
            GradientDirection::Horizontal => "horizontal",
            GradientDirection::Vertical => "vertical",
            GradientDirection::Diagonal => "diagonal",
            GradientDirection::Radial => "radial",
            GradientDirection::Depth => "depth",
        }
    }
}

/// The lattice noise of a [`Procedural::Noise`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoiseBasis {
    /// Value noise: hashed values at lattice points, smoothstep-blended.
    Value,
    /// Perlin gradient noise with quintic fade.
    Perlin,
}

impl NoiseBasis {
    /// Every basis.
    pub const ALL: [NoiseBasis; 2] = [NoiseBasis::Value, NoiseBasis::Perlin];

    /// The scene-file spelling: `value` or `perlin`.
    pub const fn name(self) -> &'static str {
        match self {
            NoiseBasis::Value => "value",
            NoiseBasis::Perlin => "perlin",
        }
    }
}

/// The distinct level colours `mip_colored` uses when the scene gives none:
/// red, orange, yellow, green, cyan, blue, magenta, white, then repeating.
pub const MIP_LEVEL_COLORS: [[f32; 4]; 8] = [
    [1.0, 0.0, 0.0, 1.0],
    [1.0, 0.5, 0.0, 1.0],
    [1.0, 1.0, 0.0, 1.0],
    [0.0, 1.0, 0.0, 1.0],
    [0.0, 1.0, 1.0, 1.0],
    [0.0, 0.0, 1.0, 1.0],
    [1.0, 0.0, 1.0, 1.0],
    [1.0, 1.0, 1.0, 1.0],
];

/// What a procedural texture draws.
#[derive(Clone, Debug, PartialEq)]
pub enum Procedural {
    /// A checkerboard of `squares x squares` cells (also across depth for
    /// 3D); the top-left cell is `colors[0]`. Odd array layers and cube
    /// faces swap the colours, so neighbours tell apart.
    Checker {
        /// Cells along each axis.
        squares: u32,
        /// The two cell colours.
        colors: [Vec4; 2],
    },
    /// A linear blend from `from` to `to`.
    Gradient {
        /// Colour at the start.
        from: Vec4,
        /// Colour at the end.
        to: Vec4,
        /// Where it starts and ends.
        direction: GradientDirection,
    },
    /// Fractal (fBm) lattice noise around 0.5, clamped to `0..1`, mapped
    /// from `colors[0]` (0) to `colors[1]` (1). Array layers use seed
    /// `seed + layer`.
    Noise {
        /// Value or Perlin.
        basis: NoiseBasis,
        /// Lattice cells across the texture for the first octave.
        scale: f32,
        /// Octaves summed, each at twice the frequency and half the weight.
        octaves: u32,
        /// Seed of the lattice hash.
        seed: u32,
        /// Colours for noise 0 and 1.
        colors: [Vec4; 2],
    },
    /// Each mip level a solid colour, level `i` being `colors[i % len]`:
    /// shows which level a sampler reads. Always has the full mip chain.
    MipColored {
        /// Level colours (must not be empty).
        colors: Vec<Vec4>,
    },
}

/// The shape a procedural texture is built with.
#[derive(Clone, Debug, PartialEq)]
pub struct ProceduralShape {
    /// Texture kind: `D2`, `D2Array`, `Cube` or `D3`.
    pub kind: TextureKind,
    /// Texel format: uncompressed, float class (UNORM, SNORM, sRGB, float).
    pub format: TextureFormat,
    /// Width of level 0.
    pub width: u32,
    /// Height of level 0 (equal to `width` for cubes).
    pub height: u32,
    /// Depth of level 0 (3D only; 1 otherwise).
    pub depth: u32,
    /// Array layers (2D arrays; 6 for a cube; 1 otherwise).
    pub layers: u32,
    /// Build the full mip chain with the format crate's generator; off
    /// gives one level. Ignored by `MipColored`, which always has the chain.
    pub mips: bool,
    /// Per-layer colour multipliers, cycled (empty: none). Layer `l` of an
    /// array or cube is multiplied by `tints[l % len]`.
    pub tints: Vec<Vec4>,
}

impl Default for ProceduralShape {
    /// A 256x256 RGBA8 UNORM 2D texture with mips.
    fn default() -> Self {
        ProceduralShape {
            kind: TextureKind::D2,
            format: TextureFormat::Rgba8Unorm,
            width: 256,
            height: 256,
            depth: 1,
            layers: 1,
            mips: true,
            tints: Vec::new(),
        }
    }
}

/// Where a texel is, as a generator sees it.
struct Site {
    /// Texel centre in `0..1` across the width.
    u: f32,
    /// Texel centre in `0..1` down the height.
    v: f32,
    /// Texel centre in `0..1` through the depth (3D), else 0.5.
    w: f32,
    /// Array layer or cube face.
    layer: u32,
    /// The direction through the texel, for cube faces.
    dir: Option<Vec3>,
}

/// The direction through face coordinates `(s, t)` in `-1..1` of cube face
/// `face` (+X, -X, +Y, -Y, +Z, -Z), inverting Vulkan's face selection.
pub fn cube_direction(face: u32, s: f32, t: f32) -> Vec3 {
    match face {
        0 => Vec3::new(1.0, -t, -s),
        1 => Vec3::new(-1.0, -t, s),
        2 => Vec3::new(s, 1.0, t),
        3 => Vec3::new(s, -1.0, -t),
        4 => Vec3::new(s, -t, 1.0),
        _ => Vec3::new(-s, -t, -1.0),
    }
    .normalize()
}

impl Procedural {
    /// The texture [`Procedural::build`] makes for `shape`: its kind,
    /// format and extent, 6 layers for a cube, and the full mip chain
    /// (`mip_colored` always, the others when `shape.mips`). Its
    /// `total_bytes` is what the build allocates, known before it does.
    pub fn desc(&self, shape: &ProceduralShape) -> TextureDesc {
        let (depth, layers) = match shape.kind {
            TextureKind::D3 => (shape.depth, 1),
            TextureKind::Cube => (1, 6),
            TextureKind::D2Array => (1, shape.layers),
            _ => (1, 1),
        };
        let full = full_mip_count(shape.width, shape.height, depth);
        let mip_colored = matches!(self, Procedural::MipColored { .. });
        let levels = if mip_colored || shape.mips { full } else { 1 };
        TextureDesc {
            kind: shape.kind,
            format: shape.format,
            width: shape.width,
            height: shape.height,
            depth,
            layers,
            levels: levels.max(1),
            samples: 1,
            no_mipmap: false,
        }
    }

    /// Builds the texture and a header viewing all of it.
    ///
    /// Fails (with the format crate's error) for impossible extents, block
    /// compressed, integer, depth or stencil formats.
    pub fn build(
        &self,
        shape: &ProceduralShape,
    ) -> Result<(Arc<Texture>, TextureHeader), quadtex_format::Error> {
        let desc = self.desc(shape);
        let f = shape.format;
        if f.is_compressed() {
            return Err(quadtex_format::Error::unsupported(
                f,
                "procedural textures need an uncompressed format",
            ));
        }
        if f.has_depth() || f.has_stencil() {
            return Err(quadtex_format::Error::unsupported(
                f,
                "procedural textures need a colour format",
            ));
        }
        let mip_colored = matches!(self, Procedural::MipColored { .. });
        let layers = desc.layers;
        let mut tex = Texture::new(desc, Layout::Linear)?;
        let aspect = f.default_aspect();
        let bpp = f.block_bytes() as usize;
        let filled_levels = if mip_colored { desc.levels } else { 1 };
        for level in 0..filled_levels {
            let e = desc.level_extent(level);
            for layer in 0..layers {
                let tint = if shape.tints.is_empty() {
                    Vec4::ONE
                } else {
                    shape.tints[layer as usize % shape.tints.len()]
                };
                let n = e.width as usize * e.height as usize * e.depth as usize * bpp;
                // Fallible: a failed allocation is an error, not an abort.
                let mut bytes = Vec::new();
                bytes.try_reserve_exact(n).map_err(|_| {
                    quadtex_format::Error::out_of_memory("a procedural texture level", n as u64)
                })?;
                bytes.resize(n, 0u8);
                let mut o = 0;
                for z in 0..e.depth {
                    for y in 0..e.height {
                        for x in 0..e.width {
                            let u = (x as f32 + 0.5) / e.width as f32;
                            let v = (y as f32 + 0.5) / e.height as f32;
                            let w = (z as f32 + 0.5) / e.depth as f32;
                            let dir = (shape.kind == TextureKind::Cube)
                                .then(|| cube_direction(layer, 2.0 * u - 1.0, 2.0 * v - 1.0));
                            let site = Site {
                                u,
                                v,
                                w,
                                layer,
                                dir,
                            };
                            let c = self.eval(&site, level, shape.kind) * tint;
                            texel::encode(
                                f,
                                aspect,
                                Texel::Float(c.to_array()),
                                &mut bytes[o..o + bpp],
                            )?;
                            o += bpp;
                        }
                    }
                }
                tex.write_subresource_bytes(level, layer, 0, &bytes)?;
            }
        }
        if !mip_colored && desc.levels > 1 {
            quadtex_format::mip::generate_mips(&mut tex)?;
        }
        let tex = Arc::new(tex);
        let header = TextureHeader::new(Arc::clone(&tex));
        Ok((tex, header))
    }

    fn eval(&self, s: &Site, level: u32, kind: TextureKind) -> Vec4 {
        match self {
            Procedural::Checker { squares, colors } => {
                let n = *squares as f32;
                let cell = |t: f32| (t * n).floor() as i64;
                let mut parity = cell(s.u) + cell(s.v) + i64::from(s.layer);
                if kind == TextureKind::D3 {
                    parity += cell(s.w);
                }
                colors[(parity & 1) as usize]
            }
            Procedural::Gradient {
                from,
                to,
                direction,
            } => {
                let t = match (direction, s.dir) {
                    (GradientDirection::Vertical, Some(d)) => (1.0 - d.y) * 0.5,
                    (GradientDirection::Horizontal, _) => s.u,
                    (GradientDirection::Vertical, None) => s.v,
                    (GradientDirection::Diagonal, _) => (s.u + s.v) * 0.5,
                    (GradientDirection::Radial, _) => ((s.u - 0.5).hypot(s.v - 0.5) * 2.0).min(1.0),
                    (GradientDirection::Depth, _) => s.w,
                };
                from.lerp(*to, t.clamp(0.0, 1.0))
            }
            Procedural::Noise {
                basis,
                scale,
                octaves,
                seed,
                colors,
            } => {
                let p = match s.dir {
                    // Half the scale per unit of direction keeps the cube's
                    // feature size near a 2D texture's of the same scale.
                    Some(d) => d * (*scale * 0.5),
                    None => Vec3::new(s.u, s.v, s.w) * *scale,
                };
                let seed = if s.dir.is_some() {
                    *seed
                } else {
                    seed.wrapping_add(s.layer)
                };
                // Texture coordinates run over 0..1, so an integer scale
                // makes the lattice periodic with the texture: the noise
                // tiles under `repeat` with no seam. (Cube faces need no
                // period: the direction is continuous across them.)
                let period =
                    (s.dir.is_none() && scale.fract() == 0.0 && *scale >= 1.0).then_some(*scale);
                let t = fbm(*basis, p, *octaves, seed, period);
                colors[0].lerp(colors[1], t)
            }
            Procedural::MipColored { colors } => {
                if colors.is_empty() {
                    Vec4::ONE
                } else {
                    colors[level as usize % colors.len()]
                }
            }
        }
    }
}

/// Fractal sum of `octaves` noise octaves around 0.5, clamped to `0..1`.
/// Dividing by the root of the summed squared weights (not their sum)
/// keeps the contrast of one octave however many are added; Perlin noise
/// (about -0.5..0.5 in practice) is doubled to match value noise's spread.
/// With a `period`, octave `o`'s lattice repeats every `period * 2^o`
/// cells on each axis, so the sum repeats every `period` units of `p`.
fn fbm(basis: NoiseBasis, p: Vec3, octaves: u32, seed: u32, period: Option<f32>) -> f32 {
    let mut sum = 0.0;
    let mut norm = 0.0;
    let mut amp = 1.0;
    let mut freq = 1.0;
    for o in 0..octaves.max(1) {
        let q = p * freq;
        let s = seed.wrapping_add(o.wrapping_mul(0x9E37_79B9));
        // Up to 2^30 cells; beyond that the lattice does not wrap.
        let cells = period.map_or(0, |p| (p * freq).min(1_073_741_824.0) as i32);
        let n = match basis {
            NoiseBasis::Value => value_noise(q, s, cells) - 0.5,
            NoiseBasis::Perlin => perlin_noise(q, s, cells),
        };
        sum += n * amp;
        norm += amp * amp;
        amp *= 0.5;
        freq *= 2.0;
    }
    (0.5 + sum / f32::sqrt(norm)).clamp(0.0, 1.0)
}

/// A well-mixed hash of a lattice point (murmur3's finaliser).
fn hash(x: i32, y: i32, z: i32, seed: u32) -> u32 {
    let mut h = (x as u32).wrapping_mul(0x8DA6_B343)
        ^ (y as u32).wrapping_mul(0xD816_3841)
        ^ (z as u32).wrapping_mul(0xCB1A_B31F)
        ^ seed.wrapping_mul(0x1656_67B1);
    h ^= h >> 16;
    h = h.wrapping_mul(0x85EB_CA6B);
    h ^= h >> 13;
    h = h.wrapping_mul(0xC2B2_AE35);
    h ^ (h >> 16)
}

fn lattice(p: Vec3) -> ([i32; 3], Vec3) {
    let f = p.floor();
    // Saturating casts keep huge coordinates defined.
    ([f.x as i32, f.y as i32, f.z as i32], p - f)
}

/// Lattice coordinate `i` on a lattice of `period` cells (none: 0).
fn wrap(i: i32, period: i32) -> i32 {
    if period > 0 {
        i.rem_euclid(period)
    } else {
        i
    }
}

fn trilerp(c: [f32; 8], w: Vec3) -> f32 {
    let lerp = |a: f32, b: f32, t: f32| a + (b - a) * t;
    let x00 = lerp(c[0], c[1], w.x);
    let x10 = lerp(c[2], c[3], w.x);
    let x01 = lerp(c[4], c[5], w.x);
    let x11 = lerp(c[6], c[7], w.x);
    lerp(lerp(x00, x10, w.y), lerp(x01, x11, w.y), w.z)
}

fn value_noise(p: Vec3, seed: u32, period: i32) -> f32 {
    let ([x, y, z], f) = lattice(p);
    let w = f * f * (Vec3::splat(3.0) - 2.0 * f);
    let mut c = [0.0; 8];
    for (i, c) in c.iter_mut().enumerate() {
        let (dx, dy, dz) = ((i & 1) as i32, ((i >> 1) & 1) as i32, (i >> 2) as i32);
        let h = hash(
            wrap(x.wrapping_add(dx), period),
            wrap(y.wrapping_add(dy), period),
            wrap(z.wrapping_add(dz), period),
            seed,
        );
        *c = (h >> 8) as f32 / (1u32 << 24) as f32;
    }
    trilerp(c, w)
}

fn perlin_noise(p: Vec3, seed: u32, period: i32) -> f32 {
    // Ken Perlin's twelve edge gradients (improved noise, 2002).
    const G: [[f32; 3]; 12] = [
        [1.0, 1.0, 0.0],
        [-1.0, 1.0, 0.0],
        [1.0, -1.0, 0.0],
        [-1.0, -1.0, 0.0],
        [1.0, 0.0, 1.0],
        [-1.0, 0.0, 1.0],
        [1.0, 0.0, -1.0],
        [-1.0, 0.0, -1.0],
        [0.0, 1.0, 1.0],
        [0.0, -1.0, 1.0],
        [0.0, 1.0, -1.0],
        [0.0, -1.0, -1.0],
    ];
    let ([x, y, z], f) = lattice(p);
    let w = f * f * f * (f * (f * 6.0 - Vec3::splat(15.0)) + Vec3::splat(10.0));
    let mut c = [0.0; 8];
    for (i, c) in c.iter_mut().enumerate() {
        let d = Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32);
        let h = hash(
            wrap(x.wrapping_add(d.x as i32), period),
            wrap(y.wrapping_add(d.y as i32), period),
            wrap(z.wrapping_add(d.z as i32), period),
            seed,
        );
        *c = Vec3::from_array(G[(h % 12) as usize]).dot(f - d);
    }
    trilerp(c, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With an integer scale the noise at u = 0 and u = 1 (and v = 0, 1)
    /// is the same value: a 2D noise texture tiles without a seam under
    /// `repeat`. Without the period it does not.
    #[test]
    fn noise_with_a_period_tiles() {
        for basis in [NoiseBasis::Value, NoiseBasis::Perlin] {
            let scale = 4.0;
            let mut differs = 0;
            for i in 0..32 {
                let v = i as f32 / 32.0 * scale + 0.37;
                let n = |x: f32, y: f32, period| fbm(basis, Vec3::new(x, y, 0.0), 3, 7, period);
                assert_eq!(
                    n(0.0, v, Some(scale)),
                    n(scale, v, Some(scale)),
                    "{basis:?} v {v}"
                );
                assert_eq!(
                    n(v, 0.0, Some(scale)),
                    n(v, scale, Some(scale)),
                    "{basis:?} u {v}"
                );
                differs += (n(0.0, v, None) != n(scale, v, None)) as u32;
            }
            assert!(differs > 16, "{basis:?}: the plain noise tiles by chance");
        }
    }
}
