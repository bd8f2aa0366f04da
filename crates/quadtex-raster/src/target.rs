//! Render targets: the colour and depth buffers a frame produces, and their
//! conversion to sampler-readable [`Texture`]s (render to texture, cube
//! faces, multisample images) and to PNG.

use glam::{Mat4, Vec3};
use quadtex_format::texel::{
    decode, encode, f32_to_unorm, linear_to_srgb, srgb8_table, unorm8_table,
};
use quadtex_format::{Aspect, Layout, Texel, Texture, TextureDesc, TextureFormat};
use quadtex_sampler::cpu::{simd_level, SimdLevel};

use crate::error::{Error, Result};
use crate::pipeline::DepthFormat;
use crate::simd::Wide;

/// A vector of `n` copies of `value`, reserved fallibly: an
/// [`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory) naming `what` when the allocator refuses (or `n`
/// elements do not fit in the address space), instead of the abort of
/// `vec![value; n]`.
pub(crate) fn try_filled<T: Clone>(what: &'static str, n: usize, value: T) -> Result<Vec<T>> {
    let mut v = Vec::new();
    try_resize(&mut v, what, n, value)?;
    Ok(v)
}

/// [`Vec::resize`] to `n` elements with the growth reserved fallibly:
/// [`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory) naming `what` instead of an abort.
pub(crate) fn try_resize<T: Clone>(
    v: &mut Vec<T>,
    what: &'static str,
    n: usize,
    value: T,
) -> Result<()> {
    if let Some(extra) = n.checked_sub(v.len()) {
        v.try_reserve_exact(extra).map_err(|_| {
            Error::out_of_memory(
                what,
                (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
            )
        })?;
    }
    v.resize(n, value);
    Ok(())
}

/// The formats a [`ColorTarget`] stores its samples in (Vulkan colour
/// attachment formats). Values are converted as the format crate's
/// encoder converts them: UNORM clamps to `[0, 1]` and rounds to the
/// nearest code (ties to even), sRGB applies the inverse EOTF to R, G and
/// B first, `R16G16B16A16_SFLOAT` rounds to the nearest half.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ColorFormat {
    /// `R8G8B8A8_UNORM`: 4 bytes a sample.
    Rgba8Unorm,
    /// `R8G8B8A8_SRGB`: 4 bytes a sample, R, G and B sRGB-encoded.
    Rgba8Srgb,
    /// `B8G8R8A8_UNORM`: 4 bytes a sample, blue first.
    Bgra8Unorm,
    /// `B8G8R8A8_SRGB`: 4 bytes a sample, blue first, sRGB-encoded.
    Bgra8Srgb,
    /// `R16G16B16A16_SFLOAT`: 8 bytes a sample.
    Rgba16Float,
    /// `R32G32B32A32_SFLOAT`: 16 bytes a sample, the values themselves
    /// (the default: a frame's exact shader output).
    #[default]
    Rgba32Float,
}

impl ColorFormat {
    /// Every colour target format.
    pub const ALL: [ColorFormat; 6] = [
        ColorFormat::Rgba8Unorm,
        ColorFormat::Rgba8Srgb,
        ColorFormat::Bgra8Unorm,
        ColorFormat::Bgra8Srgb,
        ColorFormat::Rgba16Float,
        ColorFormat::Rgba32Float,
    ];

    /// The format crate's format.
    pub fn texture_format(self) -> TextureFormat {
        match self {
            ColorFormat::Rgba8Unorm => TextureFormat::Rgba8Unorm,
            ColorFormat::Rgba8Srgb => TextureFormat::Rgba8Srgb,
            ColorFormat::Bgra8Unorm => TextureFormat::Bgra8Unorm,
            ColorFormat::Bgra8Srgb => TextureFormat::Bgra8Srgb,
            ColorFormat::Rgba16Float => TextureFormat::Rgba16Float,
            ColorFormat::Rgba32Float => TextureFormat::Rgba32Float,
        }
    }

    /// The colour target format of `format`, if it is one.
    pub fn from_texture_format(format: TextureFormat) -> Option<ColorFormat> {
        ColorFormat::ALL
            .into_iter()
            .find(|f| f.texture_format() == format)
    }

    /// The name scenes and the command line use: `rgba8_unorm`,
    /// `rgba8_srgb`, `bgra8_unorm`, `bgra8_srgb`, `rgba16f` or `rgba32f`.
    pub fn name(self) -> &'static str {
        match self {
            ColorFormat::Rgba8Unorm => "rgba8_unorm",
            ColorFormat::Rgba8Srgb => "rgba8_srgb",
            ColorFormat::Bgra8Unorm => "bgra8_unorm",
            ColorFormat::Bgra8Srgb => "bgra8_srgb",
            ColorFormat::Rgba16Float => "rgba16f",
            ColorFormat::Rgba32Float => "rgba32f",
        }
    }

    /// The format named `name` ([`ColorFormat::name`]), or `None`.
    pub fn from_name(name: &str) -> Option<ColorFormat> {
        ColorFormat::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Bytes per sample.
    pub fn bytes(self) -> usize {
        match self {
            ColorFormat::Rgba16Float => 8,
            ColorFormat::Rgba32Float => 16,
            _ => 4,
        }
    }

    /// Whether the format is normalized fixed point (UNORM or sRGB): blend
    /// inputs are clamped to `[0, 1]` first (Vulkan "Blending").
    pub fn is_normalized(self) -> bool {
        !matches!(self, ColorFormat::Rgba16Float | ColorFormat::Rgba32Float)
    }

    /// Whether R and B are swapped in memory.
    fn bgra(self) -> bool {
        matches!(self, ColorFormat::Bgra8Unorm | ColorFormat::Bgra8Srgb)
    }

    /// Whether R, G and B are sRGB-encoded.
    fn srgb(self) -> bool {
        matches!(self, ColorFormat::Rgba8Srgb | ColorFormat::Bgra8Srgb)
    }

    /// Encodes linear RGBA `v` into `out` (`self.bytes()` long), bit for
    /// bit as the format crate's `encode` does.
    #[inline]
    pub fn encode(self, v: [f32; 4], out: &mut [u8]) {
        match self {
            ColorFormat::Rgba32Float => {
                for (d, x) in out.chunks_exact_mut(4).zip(v) {
                    d.copy_from_slice(&x.to_le_bytes());
                }
            }
            ColorFormat::Rgba16Float => {
                // `encode` of an array format into a buffer of its size
                // cannot fail; zeros stand in if it ever did.
                if encode(self.texture_format(), Aspect::Color, Texel::Float(v), out).is_err() {
                    out.fill(0);
                }
            }
            _ => {
                let c = if self.srgb() {
                    srgb8_encoder().map_or_else(
                        || {
                            let s = |x: f32| unorm8(linear_to_srgb(x));
                            [s(v[0]), s(v[1]), s(v[2]), unorm8(v[3])]
                        },
                        |e| e.encode(v),
                    )
                } else {
                    v.map(unorm8)
                };
                let c = if self.bgra() {
                    [c[2], c[1], c[0], c[3]]
                } else {
                    c
                };
                out[..4].copy_from_slice(&c);
            }
        }
    }

    /// The linear RGBA value of a sample's bytes (`self.bytes()` long), as
    /// the format crate decodes them.
    #[inline]
    pub fn decode(self, bytes: &[u8]) -> [f32; 4] {
        match self {
            ColorFormat::Rgba32Float => std::array::from_fn(|c| {
                f32::from_le_bytes([
                    bytes[4 * c],
                    bytes[4 * c + 1],
                    bytes[4 * c + 2],
                    bytes[4 * c + 3],
                ])
            }),
            ColorFormat::Rgba16Float => match decode(self.texture_format(), Aspect::Color, bytes) {
                Ok(Texel::Float(v)) => v,
                _ => [0.0; 4],
            },
            _ => {
                let (rgb, alpha, ri, bi) = self.decode8_parts();
                [
                    rgb[bytes[ri] as usize],
                    rgb[bytes[1] as usize],
                    rgb[bytes[bi] as usize],
                    alpha[bytes[3] as usize],
                ]
            }
        }
    }

    /// How [`Self::decode`] reads an 8-bit format: the colour channels'
    /// table (sRGB or UNORM), the alpha table (UNORM) and the byte
    /// positions of R and B (BGRA swaps them).
    #[inline]
    fn decode8_parts(self) -> (&'static [f32; 256], &'static [f32; 256], usize, usize) {
        let unorm = unorm8_table();
        let rgb = if self.srgb() { srgb8_table() } else { unorm };
        let (ri, bi) = if self.bgra() { (2, 0) } else { (0, 2) };
        (rgb, unorm, ri, bi)
    }

    /// The mean of each pixel's `samples` samples in `row` (pixels of
    /// `samples * self.bytes()` bytes) into `planes[c][x]`: the samples'
    /// [`Self::decode`] values summed in sample order from `+0.0` in f32,
    /// times `1 / samples` (the MSAA resolve's sum). The 8-bit formats
    /// read the decode's tables directly.
    pub(crate) fn mean_row(self, row: &[u8], samples: usize, planes: &mut [Vec<f32>; 4]) {
        let bpp = self.bytes();
        if bpp != 4 {
            return mean_pixels(row, samples, bpp, planes, |sample| self.decode(sample));
        }
        // `decode` of the 8-bit formats, its tables and byte order taken
        // once.
        let (rgb, alpha, ri, bi) = self.decode8_parts();
        mean_pixels(row, samples, 4, planes, |sample| {
            [
                rgb[sample[ri] as usize],
                rgb[sample[1] as usize],
                rgb[sample[bi] as usize],
                alpha[sample[3] as usize],
            ]
        });
    }

    /// Encodes the covered lanes of a batch of single-sample quads
    /// straight into their pixels of a band of the target (`w`, the
    /// planes in RGBA order), as [`Self::encode_planes`] would encode
    /// them, at the SIMD level the sampler runs at. `false` (nothing
    /// written) for the formats that are not 8-bit RGBA or BGRA.
    pub(crate) fn write_quads(self, w: QuadWrites<'_>) -> bool {
        self.write_quads_at(simd_level(), w)
    }

    /// [`Self::write_quads`] with its loops compiled for `level` (the
    /// same bytes at every level).
    ///
    /// Channels `w.consts` gives are encoded from their constant (their
    /// planes are not read), by the UNORM formats only: `false` for the
    /// others when one is given.
    pub(crate) fn write_quads_at(self, level: SimdLevel, mut w: QuadWrites<'_>) -> bool {
        if self.bgra() {
            let [r, g, b, a] = w.planes;
            w.planes = [b, g, r, a];
            let [r, g, b, a] = w.consts;
            w.consts = [b, g, r, a];
        }
        let constants = w.consts.iter().any(Option::is_some);
        match self {
            ColorFormat::Rgba8Unorm | ColorFormat::Bgra8Unorm if constants => {
                // The channels that vary first (their planes, and their
                // bytes' shifts), the constants' codes in one word.
                let mut vary = [(w.planes[0], 0u32); 4];
                let (mut n, mut k) = (0, 0u32);
                for (c, (plane, konst)) in w.planes.into_iter().zip(w.consts).enumerate() {
                    let shift = 8 * c as u32;
                    match konst {
                        Some(v) => k |= unorm8_lane(v) << shift,
                        None => {
                            vary[n] = (plane, shift);
                            n += 1;
                        }
                    }
                }
                w.planes = vary.map(|v| v.0);
                let sh = vary.map(|v| v.1);
                match n {
                    0 => Some8::<0>::write(sh, k, level, w),
                    1 => Some8::<1>::write(sh, k, level, w),
                    2 => Some8::<2>::write(sh, k, level, w),
                    _ => Some8::<3>::write(sh, k, level, w),
                }
                true
            }
            ColorFormat::Rgba8Unorm | ColorFormat::Bgra8Unorm => {
                if one_plane(w.planes) {
                    crate::simd::run_at(level, WriteQuads { e: Grey8, w });
                } else {
                    crate::simd::run_at(level, WriteQuads { e: Unorm8, w });
                }
                true
            }
            _ if constants => false,
            ColorFormat::Rgba8Srgb | ColorFormat::Bgra8Srgb => {
                let Some(enc) = srgb8_encoder() else {
                    return false;
                };
                let Some(packed) = enc.packed.as_deref() else {
                    return false;
                };
                let e = Srgb8 { enc, packed };
                crate::simd::run_at(level, WriteQuads { e, w });
                true
            }
            _ => false,
        }
    }

    /// Encodes `n` samples given as planes (`r[i], g[i], b[i], a[i]`, every
    /// plane at least `n` long) into `out`, sample after sample
    /// (`n * self.bytes()` bytes): [`ColorFormat::encode`] of each, with
    /// the 8-bit UNORM formats in loops the compiler vectorizes.
    pub fn encode_planes(self, planes: [&[f32]; 4], n: usize, out: &mut [u8]) {
        let bpp = self.bytes();
        let out = &mut out[..n * bpp];
        let [r, g, b, a] = planes.map(|p| &p[..n]);
        match self {
            ColorFormat::Rgba8Unorm | ColorFormat::Bgra8Unorm => {
                let (r, b) = if self.bgra() { (b, r) } else { (r, b) };
                encode_unorm8_at(simd_level(), [r, g, b, a], out);
            }
            ColorFormat::Rgba32Float => {
                for (i, o) in out.chunks_exact_mut(16).enumerate() {
                    o[..4].copy_from_slice(&r[i].to_le_bytes());
                    o[4..8].copy_from_slice(&g[i].to_le_bytes());
                    o[8..12].copy_from_slice(&b[i].to_le_bytes());
                    o[12..].copy_from_slice(&a[i].to_le_bytes());
                }
            }
            ColorFormat::Rgba8Srgb | ColorFormat::Bgra8Srgb if srgb8_encoder().is_some() => {
                // One look-up of the shared encoder for the whole batch.
                let Some(enc) = srgb8_encoder() else {
                    return;
                };
                let (r, b) = if self.bgra() { (b, r) } else { (r, b) };
                encode_srgb8_at(simd_level(), enc, [r, g, b, a], out);
            }
            _ => {
                for (i, o) in out.chunks_exact_mut(bpp).enumerate() {
                    self.encode([r[i], g[i], b[i], a[i]], o);
                }
            }
        }
    }
}

/// An 8-bit four-channel encode in two steps: [`Self::fast`] gives a
/// lane's little-endian word and whether it is undecided, [`Self::exact`]
/// the word of any lane. A chunk with an undecided lane is encoded again
/// with `exact`, so the words are always `exact`'s.
trait Encode8: Copy {
    /// The word of `(r, g, b, a)` and whether it may be wrong.
    fn fast(self, r: f32, g: f32, b: f32, a: f32) -> (u32, bool);
    /// The word of `(r, g, b, a)`.
    fn exact(self, r: f32, g: f32, b: f32, a: f32) -> u32;
}

/// The RGBA8 UNORM encode: [`unorm8_rounded`] codes, [`unorm8_lane`]
/// where a lane's f32 product fell halfway.
#[derive(Clone, Copy)]
struct Unorm8;

impl Encode8 for Unorm8 {
    #[inline(always)]
    fn fast(self, r: f32, g: f32, b: f32, a: f32) -> (u32, bool) {
        // (`if a > b { a } else { b }` is one `maxps`: the distances are
        // never NaN.)
        let max = |a: f32, b: f32| if a > b { a } else { b };
        // The four channels of a lane in one pass (each plane's lanes
        // vectorized side by side).
        let (cr, dr) = unorm8_rounded(r);
        let (cg, dg) = unorm8_rounded(g);
        let (cb, db) = unorm8_rounded(b);
        let (ca, da) = unorm8_rounded(a);
        let w = cr | cg << 8 | cb << 16 | ca << 24;
        (w, max(max(dr, dg), max(db, da)) == 0.5)
    }

    #[inline(always)]
    fn exact(self, r: f32, g: f32, b: f32, a: f32) -> u32 {
        unorm8_lane(r) | unorm8_lane(g) << 8 | unorm8_lane(b) << 16 | unorm8_lane(a) << 24
    }
}

/// The RGBA8 UNORM encode of a lane whose four channels are one value
/// (a shader that [replicates red](crate::FragmentShader::replicates_red)
/// hands the encodes one plane four times): [`Unorm8`]'s word, with
/// one [`unorm8_rounded`] code in all four bytes where `Unorm8` would
/// compute the same code four times.
#[derive(Clone, Copy)]
struct Grey8;

impl Encode8 for Grey8 {
    #[inline(always)]
    fn fast(self, r: f32, _g: f32, _b: f32, _a: f32) -> (u32, bool) {
        let (c, d) = unorm8_rounded(r);
        (c * 0x0101_0101, d == 0.5)
    }

    #[inline(always)]
    fn exact(self, r: f32, _g: f32, _b: f32, _a: f32) -> u32 {
        unorm8_lane(r) * 0x0101_0101
    }
}

/// The RGBA8 UNORM encode of lanes with `V` channels that vary and the
/// others constant: the varying channels in the first `V` arguments,
/// each [`unorm8_rounded`]'s code at its byte's shift (`sh`), the
/// constants' codes ([`unorm8_lane`]'s, always decided) in `k`.
/// [`Unorm8`]'s word of the lane with its constants.
#[derive(Clone, Copy)]
struct Some8<const V: usize> {
    sh: [u32; V],
    k: u32,
}

impl<const V: usize> Some8<V> {
    /// [`write_quads`] with the first `V` of the varying channels'
    /// shifts `sh` and the constants' word `k`, compiled for `level`.
    fn write(sh: [u32; 4], k: u32, level: SimdLevel, w: QuadWrites<'_>) {
        let e = Some8::<V> {
            sh: std::array::from_fn(|j| sh[j]),
            k,
        };
        crate::simd::run_at(level, WriteQuads { e, w });
    }
}

impl<const V: usize> Encode8 for Some8<V> {
    #[inline(always)]
    fn fast(self, r: f32, g: f32, b: f32, a: f32) -> (u32, bool) {
        let v = [r, g, b, a];
        let (mut w, mut d) = (self.k, 0.0f32);
        for (&x, &shift) in v.iter().zip(&self.sh) {
            let (c, dj) = unorm8_rounded(x);
            w |= c << shift;
            // (One `maxps`: the distances are never NaN.)
            d = if dj > d { dj } else { d };
        }
        (w, d == 0.5)
    }

    #[inline(always)]
    fn exact(self, r: f32, g: f32, b: f32, a: f32) -> u32 {
        let v = [r, g, b, a];
        let mut w = self.k;
        for (&x, &shift) in v.iter().zip(&self.sh) {
            w |= unorm8_lane(x) << shift;
        }
        w
    }
}

/// Whether the four planes are one slice (the same start and length):
/// then every lane's four channels are one value and [`Grey8`] encodes
/// them.
fn one_plane(planes: [&[f32]; 4]) -> bool {
    let [r, g, b, a] = planes;
    std::ptr::eq(r, g) && std::ptr::eq(r, b) && std::ptr::eq(r, a)
}

/// The RGBA8 sRGB encode: [`Srgb8Encoder::colour_code`] codes and the
/// alpha's [`unorm8_rounded`] code, [`Srgb8Encoder::encode`] where a lane
/// is NaN or its alpha's f32 product fell halfway.
#[derive(Clone, Copy)]
struct Srgb8<'a> {
    enc: &'a Srgb8Encoder,
    packed: &'a [u32; BUCKETS],
}

impl Encode8 for Srgb8<'_> {
    #[inline(always)]
    fn fast(self, r: f32, g: f32, b: f32, a: f32) -> (u32, bool) {
        let (ca, da) = unorm8_rounded(a);
        let w = Srgb8Encoder::colour_code(self.packed, r)
            | Srgb8Encoder::colour_code(self.packed, g) << 8
            | Srgb8Encoder::colour_code(self.packed, b) << 16
            | ca << 24;
        let nan = r.is_nan() | g.is_nan() | b.is_nan() | a.is_nan();
        (w, nan | (da == 0.5))
    }

    #[inline(always)]
    fn exact(self, r: f32, g: f32, b: f32, a: f32) -> u32 {
        u32::from_le_bytes(self.enc.encode([r, g, b, a]))
    }
}

/// The RGBA8 UNORM encode of the planes `[r, g, b, a]` (as long as each
/// other) into `out` (four bytes a lane, in plane order), its loops
/// compiled for `level` (the same bytes at every level): words of
/// [`unorm8_rounded`] codes 64 lanes at a time, again with
/// [`unorm8_lane`] where a lane's f32 product fell halfway.
/// Four planes that are one slice are encoded with [`Grey8`] (the same
/// bytes).
pub(crate) fn encode_unorm8_at(level: SimdLevel, planes: [&[f32]; 4], out: &mut [u8]) {
    if one_plane(planes) {
        crate::simd::run_at(
            level,
            EncodeWords {
                e: Grey8,
                planes,
                out,
            },
        );
    } else {
        crate::simd::run_at(
            level,
            EncodeWords {
                e: Unorm8,
                planes,
                out,
            },
        );
    }
}

/// [`encode_words`] with `e`, as a loop compiled per SIMD level.
struct EncodeWords<'a, E> {
    e: E,
    planes: [&'a [f32]; 4],
    out: &'a mut [u8],
}

impl<E: Encode8> Wide for EncodeWords<'_, E> {
    type Out = ();
    #[inline(always)]
    fn run(self) {
        encode_words(self.e, self.planes, self.out);
    }
}

/// `N` lanes' words from the planes' first `N` entries: [`Encode8::fast`]
/// on every lane, [`Encode8::exact`] on every lane again when one was
/// undecided.
#[inline(always)]
fn encode_chunk<E: Encode8, const N: usize>(e: E, planes: [&[f32]; 4]) -> [u32; N] {
    let [r, g, b, a] = planes.map(|p| <&[f32; N]>::try_from(&p[..N]).unwrap_or(&[0.0; N]));
    let mut words = [0u32; N];
    let mut redo = 0u32;
    for i in 0..N {
        let (word, undecided) = e.fast(r[i], g[i], b[i], a[i]);
        words[i] = word;
        redo |= u32::from(undecided);
    }
    if redo != 0 {
        for i in 0..N {
            words[i] = e.exact(r[i], g[i], b[i], a[i]);
        }
    }
    words
}

/// The lanes of the planes `[r, g, b, a]` (as long as `out` has room
/// for, four bytes a lane) as little-endian words into `out`, 64 lanes
/// at a time ([`encode_chunk`], the last chunk lane by lane). The loops
/// of the SIMD encodes ([`encode_unorm8_at`], [`encode_srgb8_at`]):
/// inlined into their `Wide::run`, so compiled at its level.
#[inline(always)]
fn encode_words<E: Encode8>(e: E, planes: [&[f32]; 4], out: &mut [u8]) {
    let [r, g, b, a] = planes;
    let n = r
        .len()
        .min(g.len())
        .min(b.len())
        .min(a.len())
        .min(out.len() / 4);
    let full = n / 64 * 64;
    for (k, out) in out[..4 * full].chunks_exact_mut(256).enumerate() {
        let at = 64 * k;
        let words = encode_chunk::<E, 64>(e, [&r[at..], &g[at..], &b[at..], &a[at..]]);
        for (o, w) in out.chunks_exact_mut(4).zip(words) {
            o.copy_from_slice(&w.to_le_bytes());
        }
    }
    for i in full..n {
        let (w, undecided) = e.fast(r[i], g[i], b[i], a[i]);
        let w = if undecided {
            e.exact(r[i], g[i], b[i], a[i])
        } else {
            w
        };
        out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
}

/// A batch of single-sample quads under [`BlendMode::Replace`] written
/// into an 8-bit four-channel target: the shader's planes (lane `l` of
/// quad `i` at `4i + l`), the quads' origins and sample masks, and the
/// band of rows they go to (`stride` pixels a row, first row `y0`).
pub(crate) struct QuadWrites<'a> {
    /// The colour planes `[r, g, b, a]` (R and B as the format stores
    /// them: swapped for BGRA).
    pub(crate) planes: [&'a [f32]; 4],
    /// The channels whose value is one constant for every lane (their
    /// planes are then not read), in RGBA order.
    pub(crate) consts: [Option<f32>; 4],
    /// Each quad's origin (lane 0's pixel).
    pub(crate) origins: &'a [(u32, u32)],
    /// Each quad's lanes' sample masks (`1`: covered).
    pub(crate) smasks: &'a [[u8; 4]],
    /// Bit `i`: quads `i..i + 4` lie side by side on one row
    /// ([`row_starts`]; a bit may be missing, never wrong).
    pub(crate) rows: u128,
    /// The band's bytes.
    pub(crate) color: &'a mut [u8],
    /// The band's first row.
    pub(crate) y0: u32,
    /// Pixels a row.
    pub(crate) stride: usize,
}

/// Bit `i` set where quads `i..i + 4` of `origins` (the first 128) lie
/// side by side on one row, left to right: quad `i + k` at quad `i`'s
/// origin plus `(2k, 0)`.
#[cfg(test)]
pub(crate) fn row_starts(origins: &[(u32, u32)]) -> u128 {
    let mut rows = 0u128;
    for (i, w) in origins.windows(4).enumerate().take(128) {
        let (x, y) = w[0];
        if (1..4u32).all(|k| w[k as usize] == (x.wrapping_add(2 * k), y)) {
            rows |= 1 << i;
        }
    }
    rows
}

/// [`write_quads`] with `e`, as a loop compiled per SIMD level.
struct WriteQuads<'a, E> {
    e: E,
    w: QuadWrites<'a>,
}

impl<E: Encode8> Wide for WriteQuads<'_, E> {
    type Out = ();
    #[inline(always)]
    fn run(self) {
        write_quads(self.e, self.w);
    }
}

/// Encodes the covered lanes of `w`'s quads with `e` straight into their
/// pixels (the words [`encode_words`] gives, without a buffer between):
/// four whole quads side by side (a block's row of quads, as the
/// renderer batches full blocks) as one 16-lane chunk whose words are
/// reordered into two rows of eight pixels; any other quad on its own.
#[inline(always)]
fn write_quads<E: Encode8>(e: E, w: QuadWrites<'_>) {
    let QuadWrites {
        planes,
        consts: _,
        origins,
        smasks,
        rows,
        color,
        y0,
        stride,
    } = w;
    let pitch = 4 * stride;
    let lanes = planes.iter().map(|p| p.len()).min().unwrap_or(0);
    let n = origins.len().min(smasks.len()).min(lanes / 4);
    // Every plane exactly the batch's lanes long, so that a chunk's
    // bounds follow from `i + 4 <= n`.
    let planes = planes.map(|p| &p[..4 * n]);
    let at_lane = |k: usize| planes.map(|p| &p[k..]);
    // (Two 64-bit halves: a shift of the whole 128 bits by a variable
    // amount is a dozen instructions.)
    let halves = [rows as u64, (rows >> 64) as u64];
    let mut i = 0;
    while i < n {
        let (x, y) = origins[i];
        let at = (y.wrapping_sub(y0) as usize * stride + x as usize) * 4;
        let row = i < 128 && (halves[(i >> 6) & 1] >> (i & 63)) & 1 != 0;
        if row && i + 4 <= n && smasks[i..i + 4] == [[1; 4]; 4] {
            let q = encode_chunk::<E, 16>(e, at_lane(4 * i));
            // Lanes 0 and 1 of each quad are its top row, 2 and 3 its
            // bottom one: each row's eight words picked out of the chunk
            // whole (which compiles to shuffles; 64-bit pairs of words
            // took the second row out one pair at a time) and written in
            // one copy.
            let top: [u32; 8] = std::array::from_fn(|j| q[(j >> 1) * 4 + (j & 1)]);
            let bottom: [u32; 8] = std::array::from_fn(|j| q[(j >> 1) * 4 + 2 + (j & 1)]);
            put_row(color, at, top);
            put_row(color, at + pitch, bottom);
            i += 4;
            continue;
        }
        let q = encode_chunk::<E, 4>(e, at_lane(4 * i));
        for (lane, &m) in smasks[i].iter().enumerate() {
            if m != 0 {
                let at = at + (lane & 1) * 4 + (lane >> 1) * pitch;
                if let Some(dst) = color.get_mut(at..at + 4) {
                    dst.copy_from_slice(&q[lane].to_le_bytes());
                }
            }
        }
        i += 1;
    }
}

/// Eight pixels' words at byte `at` of `color`
/// (nothing where the row does not fit).
#[inline(always)]
fn put_row(color: &mut [u8], at: usize, row: [u32; 8]) {
    if let Some(dst) = color.get_mut(at..at + 32) {
        let mut bytes = [0u8; 32];
        for (d, p) in bytes.chunks_exact_mut(4).zip(row) {
            d.copy_from_slice(&p.to_le_bytes());
        }
        dst.copy_from_slice(&bytes);
    }
}

/// `f32_to_unorm(v, 8)` (clamp to `[0, 1]`, NaN to 0, scale by 255,
/// round to nearest even) without a library call: `v * 255` is exact in
/// f64, and adding then subtracting 2^52 rounds it to the nearest whole
/// number, ties to even.
#[inline(always)]
fn unorm8(v: f32) -> u8 {
    const ROUND: f64 = 4_503_599_627_370_496.0;
    let x = if v > 0.0 {
        f64::from(v.min(1.0)) * 255.0
    } else {
        0.0
    };
    ((x + ROUND) - ROUND) as u8
}

/// [`unorm8`] in f32 operations only (multiplies, adds, compares,
/// selects and bit operations, which vectorize on any x86-64, no FMA
/// needed): the code of the exact product `255 v`, for the clamped `v`.
/// `255 v` is `256 v - v`; `a = 256 v` is exact, so `s = a - v` is the
/// product rounded to f32, and Fast2Sum (`a >= v >= 0`) gives its exact
/// error `e = -v - (s - a)`, so that `255 v = s + e` exactly. Adding 2^23
/// rounds `s` to the nearest whole number, ties to even, leaving the code
/// in the sum's low bits. That is the exact product's code unless `s`
/// lies exactly halfway between two whole numbers (a whole number plus
/// one half is an f32 below 2^22, so the exact product cannot lie on the
/// other side of one from its rounding `s` otherwise); then the sign of
/// `e` says on which side the exact product lies (never on the half
/// itself: `255 v = k + 1/2` would need `v = (2k + 1) / 510`, which no
/// binary float is).
#[inline(always)]
fn unorm8_lane(v: f32) -> u32 {
    const TWO_23: f32 = 8_388_608.0;
    // Two selects, each one `maxps` / `minps` (NaN and -0 to +0 by the
    // first, as `f32_to_unorm`'s clamp).
    let v = if v > 0.0 { v } else { 0.0 };
    let v = if v < 1.0 { v } else { 1.0 };
    let a = v * 256.0;
    let s = a - v;
    let e = -v - (s - a);
    let big = s + TWO_23;
    let code = big.to_bits().wrapping_sub(TWO_23.to_bits());
    // `s` less its rounding: +-0.5 exactly when `s` was halfway.
    let d = s - (big - TWO_23);
    let up = u32::from(d == 0.5 && e > 0.0);
    let down = u32::from(d == -0.5 && e < 0.0);
    code + up - down
}

/// [`unorm8_lane`]'s first steps only, with what tells the lanes they
/// cannot decide: the code of the f32 product `s` rounded to the nearest
/// whole number, and the distance of `s` from it (at most 1/2, never NaN;
/// exactly 1/2 where `s` lay halfway between two whole numbers, and then
/// the exact product may lie on either side, and the caller asks
/// [`unorm8_lane`]).
#[inline(always)]
fn unorm8_rounded(v: f32) -> (u32, f32) {
    const TWO_23: f32 = 8_388_608.0;
    // Two selects, each one `maxps` / `minps` (NaN and -0 to +0 by the
    // first, as `f32_to_unorm`'s clamp).
    let v = if v > 0.0 { v } else { 0.0 };
    let v = if v < 1.0 { v } else { 1.0 };
    let s = v * 255.0;
    let big = s + TWO_23;
    let code = big.to_bits().wrapping_sub(TWO_23.to_bits());
    (code, (s - (big - TWO_23)).abs())
}

/// [`ColorFormat::mean_row`]'s sums: each pixel's `samples` samples of
/// `bpp` bytes in `row` decoded by `decode`, summed in sample order from
/// `+0.0` in f32 and multiplied by `1 / samples`, into `planes[c][x]`.
#[inline(always)]
fn mean_pixels(
    row: &[u8],
    samples: usize,
    bpp: usize,
    planes: &mut [Vec<f32>; 4],
    decode: impl Fn(&[u8]) -> [f32; 4],
) {
    let k = 1.0 / samples as f32;
    let [pr, pg, pb, pa] = planes;
    let out = pr
        .iter_mut()
        .zip(pg.iter_mut())
        .zip(pb.iter_mut())
        .zip(pa.iter_mut());
    for ((((r, g), b), a), pixel) in out.zip(row.chunks_exact(samples * bpp)) {
        let mut sum = [0.0f32; 4];
        for sample in pixel.chunks_exact(bpp) {
            let v = decode(sample);
            for c in 0..4 {
                sum[c] += v[c];
            }
        }
        [*r, *g, *b, *a] = sum.map(|v| v * k);
    }
}

/// The shared [`Srgb8Encoder`], built on first use (`None` only if the
/// format crate refused to encode `R8G8B8A8_SRGB`).
fn srgb8_encoder() -> Option<&'static Srgb8Encoder> {
    static ENCODER: std::sync::OnceLock<Option<Srgb8Encoder>> = std::sync::OnceLock::new();
    ENCODER.get_or_init(|| Srgb8Encoder::new().ok()).as_ref()
}

/// A colour target: every sample in the target's [`ColorFormat`], stored
/// pixel after pixel in rows (row-major, top row first), the samples of
/// a pixel together. The renderer hands bands of 64 whole rows to its
/// threads, so each tile writes its own rows of one contiguous band.
#[derive(Clone, Debug, PartialEq)]
pub struct ColorTarget {
    width: u32,
    height: u32,
    samples: u32,
    format: ColorFormat,
    /// `width * height * samples * format.bytes()` bytes, sample
    /// `(y * width + x) * samples + s` at `format.bytes()` times that.
    data: Vec<u8>,
}

impl ColorTarget {
    /// An `R32G32B32A32_SFLOAT` target filled with `clear`.
    pub fn new(width: u32, height: u32, samples: u32, clear: [f32; 4]) -> ColorTarget {
        ColorTarget::with_format(width, height, samples, ColorFormat::Rgba32Float, clear)
    }

    /// A target of `format` filled with `clear` (encoded).
    pub fn with_format(
        width: u32,
        height: u32,
        samples: u32,
        format: ColorFormat,
        clear: [f32; 4],
    ) -> ColorTarget {
        let n = width as usize * height as usize * samples as usize;
        let mut px = [0u8; 16];
        format.encode(clear, &mut px);
        let data = px[..format.bytes()].repeat(n);
        ColorTarget {
            width,
            height,
            samples,
            format,
            data,
        }
    }

    /// A target of `format` holding `bytes` (laid out as
    /// [`ColorTarget::bytes`] describes); an error when their length is
    /// not `width * height * samples * format.bytes()`.
    pub fn from_bytes(
        width: u32,
        height: u32,
        samples: u32,
        format: ColorFormat,
        bytes: Vec<u8>,
    ) -> Result<ColorTarget> {
        let want = (width as u64)
            .checked_mul(height as u64)
            .and_then(|n| n.checked_mul(samples as u64))
            .and_then(|n| n.checked_mul(format.bytes() as u64));
        if want != Some(bytes.len() as u64) {
            return Err(Error::invalid_option(
                "data",
                format!(
                    "a {width} x {height} {} target with {samples} samples holding {} bytes",
                    format.name(),
                    bytes.len()
                ),
            ));
        }
        Ok(ColorTarget {
            width,
            height,
            samples,
            format,
            data: bytes,
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Samples per pixel.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// The format the samples are stored in.
    pub fn format(&self) -> ColorFormat {
        self.format
    }

    /// The stored bytes: sample `s` of pixel `(x, y)` is the
    /// `format().bytes()` bytes at `((y * width + x) * samples + s) *
    /// format().bytes()`.
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }

    /// The stored bytes, mutable (the renderer writes its bands here).
    pub(crate) fn bytes_mut(&mut self) -> &mut Vec<u8> {
        &mut self.data
    }

    /// Sets the size and format without touching the bytes (the renderer
    /// sizes and fills them).
    pub(crate) fn set_shape(&mut self, width: u32, height: u32, samples: u32, format: ColorFormat) {
        self.width = width;
        self.height = height;
        self.samples = samples;
        self.format = format;
    }

    /// Sample `s` of pixel `(x, y)` as linear RGBA, or `None` out of range.
    pub fn sample(&self, x: u32, y: u32, s: u32) -> Option<[f32; 4]> {
        if x >= self.width || y >= self.height || s >= self.samples {
            return None;
        }
        let i =
            (y as usize * self.width as usize + x as usize) * self.samples as usize + s as usize;
        let bpp = self.format.bytes();
        self.data
            .get(i * bpp..(i + 1) * bpp)
            .map(|b| self.format.decode(b))
    }

    /// Sample 0 of pixel `(x, y)` (the pixel of a single-sampled target), or
    /// `None` out of range.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[f32; 4]> {
        self.sample(x, y, 0)
    }

    /// Every sample as linear RGBA, in storage order (index `(y * width +
    /// x) * samples + s`).
    pub fn values(&self) -> Vec<[f32; 4]> {
        self.data
            .chunks_exact(self.format.bytes())
            .map(|b| self.format.decode(b))
            .collect()
    }

    /// The target as a texture of `format` (an uncompressed colour format):
    /// 2D with one level for one sample, 2D multisample otherwise. The
    /// target's own format is copied as it is; another is converted
    /// through linear values by the format crate's encoder (sRGB formats
    /// take linear input).
    pub fn to_texture(&self, format: TextureFormat) -> Result<Texture> {
        let desc = if self.samples > 1 {
            TextureDesc::d2_ms(format, self.width, self.height, self.samples)
        } else {
            TextureDesc::d2(format, self.width, self.height).with_levels(1)
        };
        let bpp = self.format.bytes();
        if format == self.format.texture_format() {
            return copy_planes(desc, self.width, self.height, self.samples, bpp, &self.data);
        }
        encode_planes(
            desc,
            self.width,
            self.height,
            self.samples,
            Aspect::Color,
            self.data.len() / bpp,
            |i| Texel::Float(self.format.decode(&self.data[i * bpp..(i + 1) * bpp])),
        )
    }

    /// Sample 0 of every pixel as an `R8G8B8A8_SRGB` PNG file's bytes: an
    /// `R8G8B8A8_SRGB` target's own bytes, other formats' linear values
    /// encoded exactly as the format crate encodes `R8G8B8A8_SRGB`
    /// ([`Srgb8Encoder`], without a `powf` per channel).
    pub fn encode_png(&self) -> Result<Vec<u8>> {
        if self.width == 0 || self.height == 0 {
            return Err(Error::empty_target());
        }
        let s = self.samples.max(1) as usize;
        let bpp = self.format.bytes();
        let mut bytes = Vec::new();
        let n = self.data.len() / bpp / s * 4;
        bytes
            .try_reserve_exact(n)
            .map_err(|_| Error::out_of_memory("PNG pixels", n as u64))?;
        for px in self.data.chunks_exact(bpp).step_by(s) {
            match self.format {
                ColorFormat::Rgba8Srgb => bytes.extend_from_slice(px),
                ColorFormat::Bgra8Srgb => bytes.extend_from_slice(&[px[2], px[1], px[0], px[3]]),
                f => {
                    let mut o = [0u8; 4];
                    ColorFormat::Rgba8Srgb.encode(f.decode(px), &mut o);
                    bytes.extend_from_slice(&o);
                }
            }
        }
        // Straight to the PNG encoder: the format crate's `encode_png`
        // would decode the sRGB bytes back to float first.
        use image::ImageEncoder as _;
        let mut png = Vec::new();
        image::codecs::png::PngEncoder::new_with_quality(
            &mut png,
            image::codecs::png::CompressionType::Fast,
            image::codecs::png::FilterType::Adaptive,
        )
        .write_image(
            &bytes,
            self.width,
            self.height,
            image::ExtendedColorType::Rgba8,
        )
        .map_err(Error::encode)?;
        Ok(png)
    }

    /// Writes [`ColorTarget::encode_png`] to `path`.
    pub fn save_png(&self, path: impl AsRef<std::path::Path>) -> Result<()> {
        let bytes = self.encode_png()?;
        let path = path.as_ref();
        std::fs::write(path, bytes).map_err(|e| Error::io(path, e))
    }

    /// Sample 0 of every pixel, as a single-sampled target of the same
    /// format.
    pub fn single_sample(&self) -> ColorTarget {
        if self.samples <= 1 {
            return self.clone();
        }
        let (s, bpp) = (self.samples as usize, self.format.bytes());
        ColorTarget {
            width: self.width,
            height: self.height,
            samples: 1,
            format: self.format,
            data: self
                .data
                .chunks_exact(bpp)
                .step_by(s)
                .flatten()
                .copied()
                .collect(),
        }
    }
}

/// Linear RGBA to `R8G8B8A8_SRGB` bytes, bit for bit as the format
/// crate's `encode` does it, by table: the encoding of a channel is
/// monotonic in the value, so for each code `k` in 1..=255 the smallest
/// f32 that encodes to `k` or more is found once (by bisection on the
/// bits of `0.0..=1.0`, asking `encode` itself), and a value's code is the
/// number of those thresholds at or below it. Alpha is linear: the exact
/// UNORM8 encode of the colour target's own loops. NaN takes `encode`'s
/// answer for NaN.
#[derive(Clone, Debug)]
pub struct Srgb8Encoder {
    /// The 255 thresholds of the colour channels (R, G, B: sRGB).
    thresholds: Vec<f32>,
    /// The colour channels' codes by bucket: the positive f32s from
    /// [`BUCKET_LOW`] up to 1.0 in buckets of 2^15 consecutive bit
    /// patterns (8 bits of mantissa). `base[i]` is the code at bucket
    /// `i`'s first value and `step[i]` the one threshold inside the bucket
    /// (infinity when there is none); empty when some bucket would hold
    /// two thresholds (then the binary search answers).
    base: Vec<u8>,
    step: Vec<f32>,
    /// The same buckets in one word each, for loops that read them lane by
    /// lane: `base << 16` plus the low 15 bits of the bucket's threshold
    /// (its other bits are the bucket's own), or plus `0x8000`, above
    /// every 15-bit value, where the bucket has none. `None` where `base`
    /// is empty. A fixed-size array, so that an index clamped to its
    /// length needs no bounds check in the vectorized loop.
    packed: Option<Box<[u32; BUCKETS]>>,
    /// `encode`'s bytes for NaN in every channel.
    nan: [u8; 4],
}

/// The bits of the first bucket's first value, 2^-13: every positive f32
/// below it encodes to sRGB code 0 (the first threshold is about
/// 1.52e-4, checked when the tables are built).
const BUCKET_LOW: u32 = (127 - 13) << 23;

/// The number of buckets: the f32s from [`BUCKET_LOW`] up to 1.0, 2^15
/// bit patterns each.
const BUCKETS: usize = ((0x3f80_0000 - BUCKET_LOW) >> 15) as usize;

impl Srgb8Encoder {
    /// Builds the tables (about 16,000 calls of `encode`).
    pub fn new() -> Result<Srgb8Encoder> {
        let code = |v: f32| -> Result<[u8; 4]> {
            let mut out = [0u8; 4];
            encode(
                TextureFormat::Rgba8Srgb,
                Aspect::Color,
                Texel::Float([v; 4]),
                &mut out,
            )?;
            Ok(out)
        };
        let mut thresholds = Vec::with_capacity(255);
        for k in 1..=255u8 {
            // Smallest bits in [0, 1.0] with code >= k; positive f32s
            // order like their bits.
            let (mut lo, mut hi) = (0u32, 1.0f32.to_bits());
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if code(f32::from_bits(mid))?[0] >= k {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            thresholds.push(f32::from_bits(lo));
        }
        // The buckets: each threshold in its own bucket, or no buckets.
        let buckets = BUCKETS;
        let mut base = vec![0u8; buckets];
        let mut step = vec![f32::INFINITY; buckets];
        let mut fits = thresholds[0].to_bits() >= BUCKET_LOW;
        // The thresholds are sorted: one pass over buckets and
        // thresholds together.
        let t0 = &thresholds;
        let mut k = 0usize;
        for (i, (b, s)) in base.iter_mut().zip(step.iter_mut()).enumerate() {
            let first = f32::from_bits(BUCKET_LOW + ((i as u32) << 15));
            let next = f32::from_bits(BUCKET_LOW + ((i as u32 + 1) << 15));
            while k < t0.len() && t0[k] <= first {
                k += 1;
            }
            *b = k as u8;
            let inside = t0[k..].iter().take_while(|&&t| t < next).count();
            fits &= inside <= 1;
            if inside == 1 {
                *s = t0[k];
            }
        }
        if !fits {
            (base, step) = (Vec::new(), Vec::new());
        }
        let packed = (base.len() == BUCKETS).then(|| {
            let mut packed = Box::new([0u32; BUCKETS]);
            for (p, (&b, &t)) in packed.iter_mut().zip(base.iter().zip(&step)) {
                let low = if t.is_finite() {
                    t.to_bits() & 0x7fff
                } else {
                    0x8000
                };
                *p = u32::from(b) << 16 | low;
            }
            packed
        });
        Ok(Srgb8Encoder {
            thresholds,
            base,
            step,
            packed,
            nan: code(f32::NAN)?,
        })
    }

    /// The bytes of one linear RGBA value.
    #[inline]
    pub fn encode(&self, v: [f32; 4]) -> [u8; 4] {
        std::array::from_fn(|c| {
            let x = v[c];
            if x.is_nan() {
                return self.nan[c];
            }
            if c == 3 {
                return unorm8_lane(x) as u8;
            }
            if !self.base.is_empty() {
                // Positive values below the first bucket and everything
                // not above zero encode to 0; 1.0 and above to 255.
                if x >= 1.0 {
                    return 255;
                }
                let bits = x.to_bits();
                if x <= 0.0 || bits < BUCKET_LOW {
                    return 0;
                }
                let i = ((bits - BUCKET_LOW) >> 15) as usize;
                return self.base[i] + u8::from(x >= self.step[i]);
            }
            // The number of thresholds at or below the value: a binary
            // search of fixed steps over the 255 (2^8 - 1) sorted
            // thresholds, without branches to mispredict.
            let t = &self.thresholds;
            let mut i = 0usize;
            for step in [128, 64, 32, 16, 8, 4, 2, 1] {
                if t.get(i + step - 1).is_some_and(|&t| t <= x) {
                    i += step;
                }
            }
            i as u8
        })
    }
}

impl Srgb8Encoder {
    /// The sRGB code of a colour channel's value that is not NaN, from
    /// `packed` (the encoder's [`Self::packed`]) without branches: 0 for
    /// values not above [`BUCKET_LOW`]'s (zero, negative, tiny), 255 from
    /// 1.0 up, else the bucket's base code plus one where the value's low
    /// 15 bits reach its threshold's (the same bucket: the other bits are
    /// equal). What [`Self::encode`] gives for the value.
    #[inline(always)]
    fn colour_code(packed: &[u32; BUCKETS], x: f32) -> u32 {
        let bits = x.to_bits();
        let last = BUCKETS - 1;
        // One unsigned compare: below `BUCKET_LOW` wraps to a huge value,
        // and the negative values' bits are above 1.0's.
        let inside = bits.wrapping_sub(BUCKET_LOW) < 1.0f32.to_bits() - BUCKET_LOW;
        let i = ((bits.wrapping_sub(BUCKET_LOW) >> 15) as usize).min(last);
        let e = packed[i];
        let code = (e >> 16) + u32::from(bits & 0x7fff >= e & 0xffff);
        let outside = if x >= 1.0 { 255 } else { 0 };
        if inside {
            code
        } else {
            outside
        }
    }
}

/// The `R8G8B8A8_SRGB` encode of the planes `[r, g, b, a]` (as long as
/// each other) into `out` (four bytes a lane, in plane order), its loops
/// compiled for `level` (the same bytes at every level, and
/// [`Srgb8Encoder::encode`]'s): words of [`Srgb8Encoder::colour_code`]
/// codes and the alpha's [`unorm8_rounded`] code 64 lanes at a time, the
/// chunk again through [`Srgb8Encoder::encode`] where a lane is NaN or its
/// alpha's f32 product fell halfway; [`Srgb8Encoder::encode`] lane by lane
/// where the encoder has no buckets.
pub(crate) fn encode_srgb8_at(
    level: SimdLevel,
    enc: &Srgb8Encoder,
    planes: [&[f32]; 4],
    out: &mut [u8],
) {
    let Some(packed) = enc.packed.as_deref() else {
        // No buckets: the encoder lane by lane.
        let [r, g, b, a] = planes;
        let lanes = r.iter().zip(g).zip(b).zip(a);
        for (o, (((&r, &g), &b), &a)) in out.chunks_exact_mut(4).zip(lanes) {
            o.copy_from_slice(&enc.encode([r, g, b, a]));
        }
        return;
    };
    let e = Srgb8 { enc, packed };
    crate::simd::run_at(level, EncodeWords { e, planes, out });
}

/// A depth target: depth per sample, already rounded to its format, laid
/// out as [`ColorTarget`].
#[derive(Clone, Debug, PartialEq)]
pub struct DepthTarget {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Samples per pixel.
    pub samples: u32,
    /// The format the values are rounded to.
    pub format: DepthFormat,
    /// `width * height * samples` depths, index `(y * width + x) * samples + s`.
    pub data: Vec<f32>,
}

impl DepthTarget {
    /// Sample `s` of pixel `(x, y)`, or `None` out of range.
    pub fn sample(&self, x: u32, y: u32, s: u32) -> Option<f32> {
        if x >= self.width || y >= self.height || s >= self.samples {
            return None;
        }
        let i =
            (y as usize * self.width as usize + x as usize) * self.samples as usize + s as usize;
        self.data.get(i).copied()
    }

    /// The target as a `D32_SFLOAT` or `X8_D24_UNORM_PACK32` texture (2D
    /// with one level, or 2D multisample): a shadow map for compare
    /// samplers and gathers.
    pub fn to_texture(&self) -> Result<Texture> {
        let format = self.format.texture_format();
        let desc = if self.samples > 1 {
            TextureDesc::d2_ms(format, self.width, self.height, self.samples)
        } else {
            TextureDesc::d2(format, self.width, self.height).with_levels(1)
        };
        encode_planes(
            desc,
            self.width,
            self.height,
            self.samples,
            Aspect::Depth,
            self.data.len(),
            |i| Texel::Float([self.data[i], 0.0, 0.0, 0.0]),
        )
    }
}

/// Copies a target's bytes (`bpp` bytes a sample, the samples of a pixel
/// together) into a texture of `desc` (of the target's own format), in
/// the format crate's linear order: sample planes, rows top first.
fn copy_planes(
    desc: TextureDesc,
    width: u32,
    height: u32,
    samples: u32,
    bpp: usize,
    data: &[u8],
) -> Result<Texture> {
    if width == 0 || height == 0 {
        return Err(Error::empty_target());
    }
    let (w, h, s) = (width as usize, height as usize, samples.max(1) as usize);
    let mut tex = Texture::new(desc, Layout::Linear)?;
    let bytes = tex.bytes_mut();
    if bytes.len() != data.len() || data.len() != w * h * s * bpp {
        return Err(Error::invalid_option(
            "data",
            format!(
                "{} bytes of storage for a {width} x {height} target of {} bytes",
                bytes.len(),
                data.len()
            ),
        ));
    }
    if s == 1 {
        bytes.copy_from_slice(data);
        return Ok(tex);
    }
    // Sample `si` of every pixel into its plane, in fixed-size moves.
    fn planes<const N: usize>(bytes: &mut [u8], data: &[u8], wh: usize, s: usize) {
        for (si, plane) in bytes.chunks_exact_mut(wh * N).enumerate() {
            for (px, src) in plane
                .chunks_exact_mut(N)
                .zip(data.chunks_exact(N).skip(si).step_by(s))
            {
                if let (Ok(d), Ok(v)) = (<&mut [u8; N]>::try_from(px), <&[u8; N]>::try_from(src)) {
                    *d = *v;
                }
            }
        }
    }
    match bpp {
        4 => planes::<4>(bytes, data, w * h, s),
        8 => planes::<8>(bytes, data, w * h, s),
        _ => planes::<16>(bytes, data, w * h, s),
    }
    Ok(tex)
}

/// Encodes `width x height x samples` texels (read by target index) into a
/// texture of `desc`, in the format crate's linear order (sample planes).
fn encode_planes(
    desc: TextureDesc,
    width: u32,
    height: u32,
    samples: u32,
    aspect: Aspect,
    len: usize,
    texel: impl Fn(usize) -> Texel,
) -> Result<Texture> {
    if width == 0 || height == 0 {
        return Err(Error::empty_target());
    }
    let bpp = desc.format.block_bytes() as usize;
    let (w, h, s) = (width as usize, height as usize, samples as usize);
    // The targets' fields are public: a `data` of the wrong length is an
    // error here, not an index out of bounds below.
    let n = w
        .checked_mul(h)
        .and_then(|n| n.checked_mul(s))
        .filter(|&n| n == len)
        .ok_or_else(|| {
            Error::invalid_option(
                "data",
                format!("a {width} x {height} target with {samples} samples holding {len} values"),
            )
        })?;
    // Written in place: a linear texture's storage is the format crate's
    // linear order (one level and layer: sample planes, rows top first).
    let mut tex = Texture::new(desc, Layout::Linear)?;
    let bytes = tex.bytes_mut();
    if bytes.len() != n * bpp {
        return Err(Error::invalid_option(
            "data",
            format!("{} bytes of storage for {n} texels", bytes.len()),
        ));
    }
    // The texels of sample `si` in target order, into its plane.
    let mut planes = bytes.chunks_exact_mut(w * h * bpp).enumerate();
    // Formats whose texels the loop writes itself, bit for bit as the
    // format crate's `encode` (tests in this module compare them): the
    // floats themselves, and 24-bit UNORM depth in the low bits of a
    // word (`X8_D24_UNORM_PACK32`, the X bits zero).
    match (desc.format, aspect) {
        (TextureFormat::Rgba32Float, Aspect::Color) => {
            for (si, plane) in planes.by_ref() {
                for (i, px) in plane.chunks_exact_mut(16).enumerate() {
                    if let Texel::Float(v) = texel(i * s + si) {
                        for (d, x) in px.chunks_exact_mut(4).zip(v) {
                            d.copy_from_slice(&x.to_le_bytes());
                        }
                    }
                }
            }
        }
        (TextureFormat::Depth32Float, Aspect::Depth) => {
            for (si, plane) in planes.by_ref() {
                for (i, px) in plane.chunks_exact_mut(4).enumerate() {
                    if let Texel::Float(v) = texel(i * s + si) {
                        px.copy_from_slice(&v[0].to_le_bytes());
                    }
                }
            }
        }
        (TextureFormat::Depth24UnormX8, Aspect::Depth) => {
            for (si, plane) in planes.by_ref() {
                for (i, px) in plane.chunks_exact_mut(4).enumerate() {
                    if let Texel::Float(v) = texel(i * s + si) {
                        px.copy_from_slice(&f32_to_unorm(v[0], 24).to_le_bytes());
                    }
                }
            }
        }
        _ => {
            for (si, plane) in planes {
                for (i, px) in plane.chunks_exact_mut(bpp).enumerate() {
                    encode(desc.format, aspect, texel(i * s + si), px)?;
                }
            }
        }
    }
    Ok(tex)
}

/// The view matrix that renders cube face `face` (0..6: +X, -X, +Y, -Y,
/// +Z, -Z) seen from `eye`, so that pixel `(x, y)` of a square target lands
/// where a cube lookup reads it (Vulkan "Cube Map Face Selection": `sc`,
/// `tc` per face). Use with [`cube_face_projection`].
///
/// The face mapping is a mirror image, so it flips winding: cull with
/// [`CullMode::Front`](crate::CullMode::Front) where the other passes cull
/// back faces, or do not cull.
pub fn cube_face_view(face: usize, eye: Vec3) -> Mat4 {
    // Rows: view-space x = sc, y = -tc, z = -|ma|.
    let (rx, ry, rz) = match face {
        0 => (
            Vec3::new(0.0, 0.0, -1.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(-1.0, 0.0, 0.0),
        ),
        1 => (
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
        ),
        2 => (
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 0.0, -1.0),
            Vec3::new(0.0, -1.0, 0.0),
        ),
        3 => (
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(0.0, 1.0, 0.0),
        ),
        4 => (
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, 0.0, -1.0),
        ),
        _ => (
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, 0.0, 1.0),
        ),
    };
    let rot = Mat4::from_cols(
        rx.extend(0.0),
        ry.extend(0.0),
        rz.extend(0.0),
        glam::Vec4::W,
    )
    .transpose();
    rot * Mat4::from_translation(-eye)
}

/// The 90-degree square projection for cube faces.
pub fn cube_face_projection(near: f32, far: f32) -> Mat4 {
    glam::camera::rh::proj::directx::perspective(std::f32::consts::FRAC_PI_2, 1.0, near, far)
}

/// Six single-sampled square targets of one size (+X, -X, +Y, -Y, +Z, -Z,
/// rendered with [`cube_face_view`]) as a cube texture of `format` with
/// one level, or with the full mip chain when `mips` (generated by the
/// format crate).
pub fn cube_texture(faces: &[ColorTarget], format: TextureFormat, mips: bool) -> Result<Texture> {
    let Some(first) = faces.first() else {
        return Err(Error::bad_cube());
    };
    let size = first.width;
    if faces.len() != 6
        || size == 0
        || faces
            .iter()
            .any(|f| f.width != size || f.height != size || f.samples != 1)
    {
        return Err(Error::bad_cube());
    }
    let desc = TextureDesc::cube(format, size);
    let mut bytes = Vec::new();
    for face in faces {
        let t = face.to_texture(format)?;
        bytes.extend_from_slice(t.bytes());
    }
    let mut tex = Texture::from_linear_bytes(desc.with_levels(1), Layout::Linear, &bytes)?;
    if mips && desc.levels > 1 {
        let mut full = Texture::new(desc, Layout::Linear)?;
        for layer in 0..6 {
            let b = tex
                .subresource_bytes(0, layer, 0)
                .ok_or_else(Error::bad_cube)?;
            full.write_subresource_bytes(0, layer, 0, &b)?;
        }
        quadtex_format::mip::generate_mips(&mut full)?;
        tex = full;
    }
    Ok(tex)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formats `encode_planes` writes itself (RGBA32F colour, D32F
    /// and X8_D24 depth) give the format crate's `encode` bytes for every
    /// texel: edge values (NaN, infinities, -0, out of [0, 1], every
    /// 2^-24 step near 0 and 1) and seeded random bits, single- and
    /// multisampled (sample planes in the linear order).
    #[test]
    fn encode_planes_fast_formats_match_the_format_crate() {
        let values = colour_values();
        for (format, aspect, channels) in [
            (TextureFormat::Rgba32Float, Aspect::Color, 4),
            (TextureFormat::Depth32Float, Aspect::Depth, 1),
            (TextureFormat::Depth24UnormX8, Aspect::Depth, 1),
        ] {
            for samples in [1u32, 4] {
                let (w, h) = (16u32, 3u32);
                let n = (w * h * samples) as usize;
                let texel = |i: usize| {
                    let v = |c: usize| values[(i * 4 + c) % values.len()];
                    if channels == 4 {
                        Texel::Float([v(0), v(1), v(2), v(3)])
                    } else {
                        Texel::Float([v(0), 0.0, 0.0, 0.0])
                    }
                };
                let desc = if samples > 1 {
                    TextureDesc::d2_ms(format, w, h, samples)
                } else {
                    TextureDesc::d2(format, w, h).with_levels(1)
                };
                let tex = encode_planes(desc, w, h, samples, aspect, n, texel).unwrap();
                let bpp = format.block_bytes() as usize;
                let (w, h, s) = (w as usize, h as usize, samples as usize);
                let mut want = vec![0u8; n * bpp];
                for si in 0..s {
                    for i in 0..w * h {
                        let at = (si * w * h + i) * bpp;
                        encode(format, aspect, texel(i * s + si), &mut want[at..at + bpp]).unwrap();
                    }
                }
                assert_eq!(tex.bytes(), &want[..], "{format:?} x{samples}");
            }
        }
    }

    /// The table encoder gives `encode`'s bytes on edge values and a dense
    /// sweep (every 2^-16 step, and around each threshold).
    #[test]
    fn srgb8_encoder_matches_the_format_crate_bit_for_bit() {
        let enc = Srgb8Encoder::new().unwrap();
        // The buckets hold at most one threshold each (13 binades of 256).
        assert_eq!(enc.base.len(), 13 * 256);
        let slow = |v: [f32; 4]| {
            let mut out = [0u8; 4];
            encode(
                TextureFormat::Rgba8Srgb,
                Aspect::Color,
                Texel::Float(v),
                &mut out,
            )
            .unwrap();
            out
        };
        let mut values = vec![
            0.0,
            -0.0,
            -1.0,
            1.0,
            2.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
            1e-40,
            0.0031308,
            0.5,
        ];
        values.extend((0..=65536).map(|i| i as f32 / 65536.0));
        // Every bucket's first value and the one before it.
        for i in 0..=enc.base.len() as u32 {
            let first = BUCKET_LOW + (i << 15);
            values.extend([f32::from_bits(first), f32::from_bits(first - 1)]);
        }
        // Around each colour threshold, and around each linear code's
        // halfway point `(k + 0.5) / 255` (alpha's boundaries).
        let alpha = (0..255).map(|k| ((f64::from(k) + 0.5) / 255.0) as f32);
        for x in enc.thresholds.iter().copied().chain(alpha) {
            values.extend([
                f32::from_bits(x.to_bits() - 1),
                x,
                f32::from_bits(x.to_bits() + 1),
            ]);
        }
        for v in values {
            let q = [v, v * 0.5, v * 0.25, v];
            assert_eq!(enc.encode(q), slow(q), "{q:?}");
        }
    }

    /// Edge values (NaN, infinities, -0, out of [0, 1], the UNORM8
    /// ties `(k + 0.5) / 255` and their f32 neighbours, every 2^-12 step,
    /// 24-bit UNORM steps near 0 and 1)
    /// and seeded random values and bit patterns.
    fn colour_values() -> Vec<f32> {
        let mut v = vec![
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            0.5,
            2.0,
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            1e-40,
            f32::MAX,
            0.0031308,
            65504.0,
            65520.0,
        ];
        for k in 0..256 {
            let tie = (k as f32 + 0.5) / 255.0;
            // Every f32 within 64 steps of the tie.
            v.extend((-64i32..=64).map(|d| f32::from_bits(tie.to_bits().wrapping_add_signed(d))));
            v.push(k as f32 / 255.0);
        }
        v.extend((0..=4096).map(|i| i as f32 / 4096.0));
        // 24-bit UNORM depth steps near 0 and 1, and their halves.
        for k in 0..64 {
            v.push(k as f32 / 16_777_215.0);
            v.push(1.0 - k as f32 / 16_777_216.0);
            v.push((k as f32 + 0.5) / 16_777_215.0);
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            v.push(if state & 1 == 0 {
                f32::from_bits((state >> 16) as u32)
            } else {
                (state >> 40) as f32 / (1u64 << 24) as f32 * 1.25 - 0.125
            });
        }
        v
    }

    /// Every target format encodes (one sample, and planes of samples
    /// through `encode_planes`, the vectorized loops) exactly as the
    /// format crate's `encode` does, and decodes its bytes as the format
    /// crate's `decode` does: every 8-bit code, and the encoded values.
    #[test]
    fn colour_formats_encode_and_decode_as_the_format_crate() {
        let values = colour_values();
        for format in ColorFormat::ALL {
            let tf = format.texture_format();
            let bpp = format.bytes();
            assert_eq!(bpp, tf.block_bytes() as usize);
            assert_eq!(ColorFormat::from_texture_format(tf), Some(format));
            assert_eq!(ColorFormat::from_name(format.name()), Some(format));
            let n = values.len();
            let texel = |i: usize| std::array::from_fn(|c| values[(i * 7 + c * 3) % n]);
            let planes: [Vec<f32>; 4] =
                std::array::from_fn(|c| (0..n).map(|i| texel(i)[c]).collect());
            let mut fast = vec![0u8; n * bpp];
            format.encode_planes(
                [&planes[0], &planes[1], &planes[2], &planes[3]],
                n,
                &mut fast,
            );
            for i in 0..n {
                let v: [f32; 4] = texel(i);
                let mut want = vec![0u8; bpp];
                encode(tf, Aspect::Color, Texel::Float(v), &mut want).unwrap();
                let mut one = vec![0u8; bpp];
                format.encode(v, &mut one);
                assert_eq!(one, want, "{format:?} encode {v:?}");
                assert_eq!(
                    &fast[i * bpp..(i + 1) * bpp],
                    &want[..],
                    "{format:?} planes {v:?}"
                );
                let back = format.decode(&want);
                let Texel::Float(crate_back) = decode(tf, Aspect::Color, &want).unwrap() else {
                    panic!("{format:?} decodes to floats");
                };
                assert_eq!(
                    back.map(f32::to_bits),
                    crate_back.map(f32::to_bits),
                    "{format:?} decode {want:?}"
                );
            }
            if bpp == 4 {
                for code in 0..=255u8 {
                    let b = [code, code.wrapping_add(1), code.wrapping_mul(3), !code];
                    let Texel::Float(want) = decode(tf, Aspect::Color, &b).unwrap() else {
                        panic!("{format:?} decodes to floats");
                    };
                    assert_eq!(format.decode(&b), want, "{format:?} {b:?}");
                }
            }
        }
        // `unorm8` and its lane form are `f32_to_unorm(v, 8)` on every
        // value above.
        for &v in &values {
            assert_eq!(u32::from(unorm8(v)), f32_to_unorm(v, 8), "{v}");
            assert_eq!(unorm8_lane(v), f32_to_unorm(v, 8), "{v}");
            let (code, dist) = unorm8_rounded(v);
            assert!((0.0..=0.5).contains(&dist), "{v}: {dist}");
            if dist != 0.5 {
                assert_eq!(code, f32_to_unorm(v, 8), "{v}");
            }
        }
    }

    /// The lane form of the UNORM8 encode decides the f32 products that
    /// round to a whole number plus one half by the product's exact
    /// error: around every code's halfway point `(k + 0.5) / 255` (not
    /// an f32: the f32 products of its neighbours round to `k + 0.5` on
    /// both sides of it), 4,097 consecutive f32s each, every one the
    /// code of the exact product (computed in f64, where `255 v` is
    /// exact); and every 97th f32 in `[0, 1]`.
    #[test]
    fn unorm8_lane_decides_halfway_products_exactly() {
        let mut halfway = [0; 2];
        let check = |v: f32| {
            let exact = f64::from(v) * 255.0;
            let want = exact.round_ties_even() as u32;
            assert_eq!(unorm8_lane(v), want, "{v:e} ({:#x})", v.to_bits());
            let (code, dist) = unorm8_rounded(v);
            assert!((0.0..=0.5).contains(&dist), "{v:e}: {dist}");
            assert!(dist == 0.5 || code == want, "{v:e}");
            // The flag is exactly the f32 product's landing halfway.
            assert_eq!(
                dist == 0.5,
                (v.clamp(0.0, 1.0) * 255.0).fract() == 0.5,
                "{v:e}"
            );
            assert_eq!(u32::from(unorm8(v)), want, "{v:e}");
        };
        for k in 0..255u32 {
            let mid = ((f64::from(k) + 0.5) / 255.0) as f32;
            for d in -2048i32..=2048 {
                let v = f32::from_bits(mid.to_bits().wrapping_add_signed(d));
                if (v * 255.0).fract() == 0.5 {
                    // Whether the exact product lies above the half.
                    halfway[usize::from(f64::from(v) * 255.0 > f64::from(k) + 0.5)] += 1;
                }
                check(v);
            }
        }
        // The f32 product lands halfway for many of them, the exact one
        // on both sides of the half: the exact error decides.
        assert!(halfway[0] >= 100 && halfway[1] >= 100, "{halfway:?}");
        let one = 1.0f32.to_bits();
        for bits in (0..=one).step_by(97) {
            check(f32::from_bits(bits));
        }
    }

    /// The UNORM8 encode gives the same bytes at every SIMD level the
    /// machine has (the loops compiled for AVX2 and AVX-512 against the
    /// baseline build's), lane by lane, on the edge values and seeded
    /// values, at every length from 0 to 200 (partial vectors, the
    /// 64-lane chunks and their tails) and at the full length.
    #[test]
    fn unorm8_encode_is_the_same_at_every_simd_level() {
        let values = colour_values();
        let n = values.len();
        let planes: [Vec<f32>; 4] =
            std::array::from_fn(|c| (0..n).map(|i| values[(i * 7 + c * 3) % n]).collect());
        let mut want = vec![0u8; 4 * n];
        for (i, w) in want.chunks_exact_mut(4).enumerate() {
            let v = [0, 1, 2, 3].map(|c| planes[c][i]);
            w.copy_from_slice(&v.map(|x| f32_to_unorm(x, 8) as u8));
        }
        let levels: Vec<SimdLevel> = SimdLevel::ALL
            .into_iter()
            .filter(|l| l.supported())
            .collect();
        assert!(levels.contains(&SimdLevel::Portable), "{levels:?}");
        // The red plane as all four (a shader that replicates red): the
        // grey encode, each lane's red code in all four bytes.
        let grey: Vec<u8> = (0..4 * n)
            .map(|i| f32_to_unorm(planes[0][i / 4], 8) as u8)
            .collect();
        for len in (0..=200).chain([n]) {
            for (&level, one) in levels.iter().flat_map(|l| [(l, false), (l, true)]) {
                let mut out = vec![0xa5u8; 4 * len + 4];
                let p = [0, 1, 2, 3].map(|c| &planes[if one { 0 } else { c }][..len]);
                assert_eq!(one_plane(p), one);
                encode_unorm8_at(level, p, &mut out);
                let want = if one { &grey } else { &want };
                if let Some(i) = (0..4 * len).find(|&i| out[i] != want[i]) {
                    panic!(
                        "{level:?} grey {one} length {len}: byte {i} is {} for {}",
                        out[i], want[i]
                    );
                }
                assert_eq!(
                    out[4 * len..],
                    [0xa5; 4],
                    "{level:?} wrote past {len} lanes"
                );
            }
        }
    }

    /// The planar sRGB encode is [`Srgb8Encoder::encode`] lane by lane at
    /// every SIMD level the machine has: on the edge values, the seeded
    /// values and the f32s around every colour threshold and every bucket
    /// boundary, at every length from 0 to 200 and at the full length,
    /// writing nothing past its lanes.
    #[test]
    fn srgb8_encode_is_the_encoder_at_every_simd_level() {
        let enc = Srgb8Encoder::new().unwrap();
        let packed = enc.packed.as_deref().unwrap();
        let mut values = colour_values();
        for &t in &enc.thresholds {
            let b = t.to_bits();
            values.extend([b - 1, b, b + 1].map(f32::from_bits));
        }
        for i in (0..=BUCKETS as u32).step_by(7) {
            let first = BUCKET_LOW + (i << 15);
            values.extend([first - 1, first].map(f32::from_bits));
        }
        let n = values.len();
        let planes: [Vec<f32>; 4] =
            std::array::from_fn(|c| (0..n).map(|i| values[(i * 7 + c * 3) % n]).collect());
        let mut want = vec![0u8; 4 * n];
        for (i, w) in want.chunks_exact_mut(4).enumerate() {
            w.copy_from_slice(&enc.encode([0, 1, 2, 3].map(|c| planes[c][i])));
        }
        let levels: Vec<SimdLevel> = SimdLevel::ALL
            .into_iter()
            .filter(|l| l.supported())
            .collect();
        for len in (0..=200).chain([n]) {
            for &level in &levels {
                let mut out = vec![0xa5u8; 4 * len + 4];
                let p = [0, 1, 2, 3].map(|c| &planes[c][..len]);
                encode_srgb8_at(level, &enc, p, &mut out);
                if let Some(i) = (0..4 * len).find(|&i| out[i] != want[i]) {
                    let v = planes[i % 4][i / 4];
                    panic!(
                        "{level:?} length {len}: byte {i} is {} for {} ({v:e})",
                        out[i], want[i]
                    );
                }
                assert_eq!(out[4 * len..], [0xa5; 4], "{level:?} past {len} lanes");
            }
        }
        // Without NaN or a halfway alpha the chunk is not encoded again:
        // the codes themselves are the encoder's.
        for &x in values.iter().filter(|x| !x.is_nan()) {
            assert_eq!(
                Srgb8Encoder::colour_code(packed, x),
                u32::from(enc.encode([x; 4])[0]),
                "{x:e}"
            );
        }
    }

    /// Encoding a batch of quads straight into a band of rows gives every
    /// covered lane's pixel [`ColorFormat::encode`]'s bytes and leaves the
    /// others alone, at every SIMD level the machine has, for the four
    /// 8-bit formats: runs of four whole quads side by side (the 16-lane
    /// chunk, its rows reordered), runs broken by a partial quad, by a
    /// gap or by the end of the batch, and lone quads, on the edge and
    /// seeded colour values (halfway products, NaN, infinities).
    #[test]
    fn quads_encoded_into_rows_are_the_encoder_at_every_simd_level() {
        let values = colour_values();
        let (stride, rows, y0) = (40usize, 6u32, 10u32);
        // Quad origins (x, y) and lane masks: a run of four, a run of
        // four with a partial quad at its end, three side by side then a
        // gap, lone quads, and a run of four at the end of the batch.
        let mut quads: Vec<((u32, u32), [u8; 4])> = Vec::new();
        quads.extend((0..4).map(|k| ((2 * k, 10), [1; 4])));
        quads.extend((0..4).map(|k| ((8 + 2 * k, 10), if k == 3 { [1, 0, 0, 1] } else { [1; 4] })));
        quads.extend((0..3).map(|k| ((20 + 2 * k, 10), [1; 4])));
        quads.extend([
            ((28, 10), [1; 4]),
            ((2, 12), [0, 1, 1, 0]),
            ((36, 12), [1; 4]),
        ]);
        quads.extend((0..4).map(|k| ((4 + 2 * k, 14), [1; 4])));
        let n = 4 * quads.len();
        let levels: Vec<SimdLevel> = SimdLevel::ALL
            .into_iter()
            .filter(|l| l.supported())
            .collect();
        for format in [
            ColorFormat::Rgba8Unorm,
            ColorFormat::Bgra8Unorm,
            ColorFormat::Rgba8Srgb,
            ColorFormat::Bgra8Srgb,
        ] {
            let rounds = values.len().div_ceil(n) + 1;
            // The second set of rounds hands the red plane in as all four
            // (a shader that replicates red); the third gives channels
            // as constants (a shader's `vec4(uv, 0, 1)`), their planes
            // garbage the encode must not read.
            let unorm = matches!(format, ColorFormat::Rgba8Unorm | ColorFormat::Bgra8Unorm);
            for round in 0..3 * rounds {
                let (grey, at) = (round / rounds == 1, round % rounds);
                let consts: [Option<f32>; 4] = if round / rounds == 2 {
                    let pick = |k: usize| {
                        let v = [0.0, 1.0, 0.5, f32::NAN, -3.0, 2.5, 0.2, 128.5 / 255.0];
                        v[(k + at) % v.len()]
                    };
                    match at % 6 {
                        0 => [None, None, Some(pick(0)), Some(pick(1))],
                        1 => [None, None, None, Some(pick(2))],
                        2 => [Some(pick(3)), None, None, None],
                        3 => [None, Some(pick(4)), None, Some(pick(5))],
                        4 => [Some(pick(6)), Some(pick(7)), Some(pick(0)), None],
                        _ => [0, 1, 2, 3].map(|c| Some(pick(c))),
                    }
                } else {
                    [None; 4]
                };
                let planes: [Vec<f32>; 4] = std::array::from_fn(|c| {
                    let c = if grey { 0 } else { c };
                    (0..n)
                        .map(|i| values[(at * n + i * 7 + c * 3) % values.len()])
                        .collect()
                });
                let mut want = vec![0xa5u8; 4 * stride * rows as usize];
                for (i, &((x, y), m)) in quads.iter().enumerate() {
                    for lane in 0..4 {
                        if m[lane] != 0 {
                            let (px, py) = (x as usize + (lane & 1), (y - y0) as usize + lane / 2);
                            let at = 4 * (py * stride + px);
                            let v = [0, 1, 2, 3]
                                .map(|c| consts[c].unwrap_or_else(|| planes[c][4 * i + lane]));
                            format.encode(v, &mut want[at..at + 4]);
                        }
                    }
                }
                // The constants' planes as the encode gets them: not the
                // constants.
                let planes: [Vec<f32>; 4] = std::array::from_fn(|c| match consts[c] {
                    Some(_) => (0..n).map(|i| [f32::NAN, 0.75, -1.0][i % 3]).collect(),
                    None => planes[c].clone(),
                });
                let constants = consts.iter().any(Option::is_some);
                let origins: Vec<(u32, u32)> = quads.iter().map(|q| q.0).collect();
                let smasks: Vec<[u8; 4]> = quads.iter().map(|q| q.1).collect();
                for &level in &levels {
                    let mut color = vec![0xa5u8; 4 * stride * rows as usize];
                    let w = QuadWrites {
                        planes: [0, 1, 2, 3].map(|c| &planes[if grey { 0 } else { c }][..]),
                        consts,
                        origins: &origins,
                        smasks: &smasks,
                        rows: row_starts(&origins),
                        color: &mut color,
                        y0,
                        stride,
                    };
                    if constants && !unorm {
                        // (sRGB has no constant encode: nothing written.)
                        assert!(!format.write_quads_at(level, w), "{format:?}");
                        assert!(color.iter().all(|&b| b == 0xa5), "{format:?}");
                        continue;
                    }
                    assert!(format.write_quads_at(level, w), "{format:?}");
                    if let Some(i) = (0..color.len()).find(|&i| color[i] != want[i]) {
                        panic!(
                            "{format:?} {level:?} round {round}: byte {i} (pixel {}, {}) is {} for {}",
                            i / 4 % stride,
                            y0 as usize + i / 4 / stride,
                            color[i],
                            want[i]
                        );
                    }
                }
            }
        }
        // The other formats are not for it: nothing written.
        let mut color = vec![0u8; 64];
        let w = QuadWrites {
            planes: [&[0.5; 4][..]; 4],
            consts: [None; 4],
            origins: &[(0, 0)],
            smasks: &[[1; 4]],
            rows: 0,
            color: &mut color,
            y0: 0,
            stride: 2,
        };
        assert!(!ColorFormat::Rgba16Float.write_quads(w));
        assert_eq!(color, [0; 64]);
    }

    /// A target's own format becomes a texture by copying its bytes into
    /// sample planes; another format goes through linear values. Both
    /// equal the texel-by-texel encoding, single- and multisampled.
    #[test]
    fn targets_become_textures_of_their_own_and_other_formats() {
        let values = colour_values();
        for samples in [1u32, 4] {
            let (w, h) = (5u32, 3u32);
            let n = (w * h * samples) as usize;
            let colour = |i: usize| std::array::from_fn(|c| values[(i * 5 + c) % values.len()]);
            for format in ColorFormat::ALL {
                let bpp = format.bytes();
                let mut bytes = vec![0u8; n * bpp];
                for i in 0..n {
                    format.encode(colour(i), &mut bytes[i * bpp..(i + 1) * bpp]);
                }
                let t = ColorTarget::from_bytes(w, h, samples, format, bytes.clone()).unwrap();
                for other in [format, ColorFormat::Rgba32Float, ColorFormat::Rgba8Srgb] {
                    let tex = t.to_texture(other.texture_format()).unwrap();
                    let ob = other.bytes();
                    let (wh, s) = ((w * h) as usize, samples as usize);
                    for si in 0..s {
                        for p in 0..wh {
                            let i = p * s + si;
                            let mut want = vec![0u8; ob];
                            let v = format.decode(&bytes[i * bpp..(i + 1) * bpp]);
                            other.encode(v, &mut want);
                            let at = (si * wh + p) * ob;
                            assert_eq!(
                                &tex.bytes()[at..at + ob],
                                &want[..],
                                "{format:?} as {other:?} x{samples}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn impossible_target_allocations_are_errors_not_aborts() {
        // More than the address space: the allocator is never asked, and
        // the answer is an error naming the buffer and its size.
        let err = try_filled("colour target", usize::MAX / 32, [0.0f32; 4]).unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::OutOfMemory);
        assert_eq!(
            err.allocation(),
            Some(("colour target", (usize::MAX / 32) as u64 * 16))
        );
        let mut v = vec![1.0f32; 3];
        let err = try_resize(&mut v, "depth target", usize::MAX / 2, 0.0).unwrap_err();
        assert!(err.to_string().contains("depth target"), "{err}");
        // A failed resize leaves the vector as it was.
        assert_eq!(v, [1.0; 3]);
        assert_eq!(try_filled("x", 4, 7u8).unwrap(), [7; 4]);
    }

    #[test]
    fn a_target_whose_data_has_the_wrong_length_is_an_error() {
        let err = ColorTarget::from_bytes(4, 4, 1, ColorFormat::Rgba8Unorm, vec![0; 63]);
        assert_eq!(err.unwrap_err().option(), Some("data"));
        let t = ColorTarget::from_bytes(4, 4, 1, ColorFormat::Rgba8Unorm, vec![7; 64]).unwrap();
        assert_eq!(t.bytes().len(), 64);
        let d = DepthTarget {
            width: 2,
            height: 2,
            samples: 4,
            format: DepthFormat::D32Float,
            data: vec![0.5; 4],
        };
        assert!(d.to_texture().is_err());
    }
}
