//! Render targets: the colour and depth buffers a frame produces, and their
//! conversion to sampler-readable [`Texture`]s (render to texture, cube
//! faces, multisample images) and to PNG.

use glam::{Mat4, Vec3};
use quadtex_format::texel::{encode, f32_to_unorm};
use quadtex_format::{Aspect, Layout, Texel, Texture, TextureDesc, TextureFormat};

use crate::error::{Error, Result};
use crate::pipeline::DepthFormat;

/// A vector of `n` copies of `value`, reserved fallibly: an
/// [`Error::OutOfMemory`] naming `what` when the allocator refuses (or `n`
/// elements do not fit in the address space), instead of the abort of
/// `vec![value; n]`.
pub(crate) fn try_filled<T: Clone>(what: &'static str, n: usize, value: T) -> Result<Vec<T>> {
    let mut v = Vec::new();
    try_resize(&mut v, what, n, value)?;
    Ok(v)
}

/// [`Vec::resize`] to `n` elements with the growth reserved fallibly:
/// [`Error::OutOfMemory`] naming `what` instead of an abort.
pub(crate) fn try_resize<T: Clone>(
    v: &mut Vec<T>,
    what: &'static str,
    n: usize,
    value: T,
) -> Result<()> {
    if let Some(extra) = n.checked_sub(v.len()) {
        v.try_reserve_exact(extra).map_err(|_| Error::OutOfMemory {
            what,
            bytes: (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        })?;
    }
    v.resize(n, value);
    Ok(())
}

/// A colour target: linear RGBA f32 per sample, stored pixel after pixel
/// (row-major), the samples of a pixel together.
#[derive(Clone, Debug, PartialEq)]
pub struct ColorTarget {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Samples per pixel.
    pub samples: u32,
    /// `width * height * samples` values, index `(y * width + x) * samples + s`.
    pub data: Vec<[f32; 4]>,
}

impl ColorTarget {
    /// A target filled with `clear`.
    pub fn new(width: u32, height: u32, samples: u32, clear: [f32; 4]) -> ColorTarget {
        let n = width as usize * height as usize * samples as usize;
        ColorTarget {
            width,
            height,
            samples,
            data: vec![clear; n],
        }
    }

    /// Sample `s` of pixel `(x, y)`, or `None` out of range.
    pub fn sample(&self, x: u32, y: u32, s: u32) -> Option<[f32; 4]> {
        if x >= self.width || y >= self.height || s >= self.samples {
            return None;
        }
        let i =
            (y as usize * self.width as usize + x as usize) * self.samples as usize + s as usize;
        self.data.get(i).copied()
    }

    /// Sample 0 of pixel `(x, y)` (the pixel of a single-sampled target), or
    /// `None` out of range.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[f32; 4]> {
        self.sample(x, y, 0)
    }

    /// The target as a texture of `format` (an uncompressed colour format):
    /// 2D with one level for one sample, 2D multisample otherwise. Values
    /// are encoded by the format crate (sRGB formats take linear input).
    pub fn to_texture(&self, format: TextureFormat) -> Result<Texture> {
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
            Aspect::Color,
            self.data.len(),
            |i| Texel::Float(self.data[i]),
        )
    }

    /// Sample 0 of every pixel as an `R8G8B8A8_SRGB` PNG file's bytes.
    ///
    /// The values are encoded exactly as the format crate encodes
    /// `R8G8B8A8_SRGB` ([`Srgb8Encoder`]), without a `powf` per channel.
    pub fn encode_png(&self) -> Result<Vec<u8>> {
        if self.width == 0 || self.height == 0 {
            return Err(Error::EmptyTarget);
        }
        static ENCODER: std::sync::OnceLock<Option<Srgb8Encoder>> = std::sync::OnceLock::new();
        let Some(enc) = ENCODER.get_or_init(|| Srgb8Encoder::new().ok()) else {
            // Unreachable with the format crate's RGBA8 sRGB encoder; kept
            // as the plain path rather than a panic.
            let tex = self.single_sample().to_texture(TextureFormat::Rgba8Srgb)?;
            return Ok(quadtex_format::io::encode_png(&tex, 0, 0, 0)?);
        };
        let s = self.samples.max(1) as usize;
        let mut bytes = Vec::new();
        let n = self.data.len() / s * 4;
        bytes.try_reserve_exact(n).map_err(|_| Error::OutOfMemory {
            what: "PNG pixels",
            bytes: n as u64,
        })?;
        for px in self.data.iter().step_by(s) {
            bytes.extend_from_slice(&enc.encode(*px));
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
        .map_err(|e| Error::Io(e.to_string()))?;
        Ok(png)
    }

    /// Writes [`ColorTarget::encode_png`] to `path`.
    pub fn save_png(&self, path: impl AsRef<std::path::Path>) -> Result<()> {
        let bytes = self.encode_png()?;
        std::fs::write(path, bytes).map_err(|e| Error::Io(e.to_string()))
    }

    /// Sample 0 of every pixel, as a single-sampled target.
    pub fn single_sample(&self) -> ColorTarget {
        if self.samples <= 1 {
            return self.clone();
        }
        let s = self.samples as usize;
        ColorTarget {
            width: self.width,
            height: self.height,
            samples: 1,
            data: self.data.iter().step_by(s).copied().collect(),
        }
    }
}

/// Linear RGBA to `R8G8B8A8_SRGB` bytes, bit for bit as the format
/// crate's `encode` does it, by table: the encoding of a channel is
/// monotonic in the value, so for each code `k` in 1..=255 the smallest
/// f32 that encodes to `k` or more is found once (by bisection on the
/// bits of `0.0..=1.0`, asking `encode` itself), and a value's code is the
/// number of those thresholds at or below it. NaN takes `encode`'s answer
/// for NaN.
#[derive(Clone, Debug)]
pub struct Srgb8Encoder {
    /// Per byte of the texel (R, G, B: sRGB; A: linear), the 255
    /// thresholds.
    thresholds: [Vec<f32>; 2],
    /// `encode`'s bytes for NaN in every channel.
    nan: [u8; 4],
}

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
        let mut thresholds = [Vec::with_capacity(255), Vec::with_capacity(255)];
        for (t, byte) in thresholds.iter_mut().zip([0usize, 3]) {
            for k in 1..=255u8 {
                // Smallest bits in [0, 1.0] with code >= k; positive f32s
                // order like their bits.
                let (mut lo, mut hi) = (0u32, 1.0f32.to_bits());
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if code(f32::from_bits(mid))?[byte] >= k {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                t.push(f32::from_bits(lo));
            }
        }
        Ok(Srgb8Encoder {
            thresholds,
            nan: code(f32::NAN)?,
        })
    }

    /// The bytes of one linear RGBA value.
    #[inline]
    pub fn encode(&self, v: [f32; 4]) -> [u8; 4] {
        std::array::from_fn(|c| {
            if v[c].is_nan() {
                self.nan[c]
            } else {
                // The number of thresholds at or below the value: a
                // binary search of fixed steps over the 255 (2^8 - 1)
                // sorted thresholds, without branches to mispredict.
                let t = &self.thresholds[usize::from(c == 3)];
                let mut i = 0usize;
                for step in [128, 64, 32, 16, 8, 4, 2, 1] {
                    if t.get(i + step - 1).is_some_and(|&x| x <= v[c]) {
                        i += step;
                    }
                }
                i as u8
            }
        })
    }
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
        return Err(Error::EmptyTarget);
    }
    let bpp = desc.format.block_bytes() as usize;
    let (w, h, s) = (width as usize, height as usize, samples as usize);
    // The targets' fields are public: a `data` of the wrong length is an
    // error here, not an index out of bounds below.
    let n = w
        .checked_mul(h)
        .and_then(|n| n.checked_mul(s))
        .filter(|&n| n == len)
        .ok_or_else(|| Error::InvalidOption {
            option: "data",
            reason: format!(
                "a {width} x {height} target with {samples} samples holding {len} values"
            ),
        })?;
    // Written in place: a linear texture's storage is the format crate's
    // linear order (one level and layer: sample planes, rows top first).
    let mut tex = Texture::new(desc, Layout::Linear)?;
    let bytes = tex.bytes_mut();
    if bytes.len() != n * bpp {
        return Err(Error::InvalidOption {
            option: "data",
            reason: format!("{} bytes of storage for {n} texels", bytes.len()),
        });
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
        return Err(Error::BadCube);
    };
    let size = first.width;
    if faces.len() != 6
        || size == 0
        || faces
            .iter()
            .any(|f| f.width != size || f.height != size || f.samples != 1)
    {
        return Err(Error::BadCube);
    }
    let desc = TextureDesc::cube(format, size);
    let mut bytes = Vec::new();
    let bpp = format.block_bytes() as usize;
    for face in faces {
        let mut plane = vec![0u8; face.data.len() * bpp];
        for (i, c) in face.data.iter().enumerate() {
            encode(
                format,
                Aspect::Color,
                Texel::Float(*c),
                &mut plane[i * bpp..(i + 1) * bpp],
            )?;
        }
        bytes.extend_from_slice(&plane);
    }
    let mut tex = Texture::from_linear_bytes(desc.with_levels(1), Layout::Linear, &bytes)?;
    if mips && desc.levels > 1 {
        let mut full = Texture::new(desc, Layout::Linear)?;
        for layer in 0..6 {
            let b = tex.subresource_bytes(0, layer, 0).ok_or(Error::BadCube)?;
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
        let mut values = vec![
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            0.5,
            2.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            1e-40,
            f32::MAX,
        ];
        for k in 0..64 {
            values.push(k as f32 / 16_777_215.0);
            values.push(1.0 - k as f32 / 16_777_216.0);
            values.push((k as f32 + 0.5) / 16_777_215.0);
        }
        let mut state = 0x2545_f491_4f6c_dd1du64;
        while values.len() < 4 * 3 * 16 * 4 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            values.push(if state & 1 == 0 {
                f32::from_bits(state as u32)
            } else {
                (state >> 40) as f32 / (1u64 << 24) as f32
            });
        }
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
        for t in &enc.thresholds {
            for &x in t {
                values.extend([
                    f32::from_bits(x.to_bits() - 1),
                    x,
                    f32::from_bits(x.to_bits() + 1),
                ]);
            }
        }
        for v in values {
            let q = [v, v * 0.5, v * 0.25, v];
            assert_eq!(enc.encode(q), slow(q), "{q:?}");
        }
    }

    #[test]
    fn impossible_target_allocations_are_errors_not_aborts() {
        // More than the address space: the allocator is never asked, and
        // the answer is an error naming the buffer and its size.
        let err = try_filled("colour target", usize::MAX / 32, [0.0f32; 4]).unwrap_err();
        match err {
            Error::OutOfMemory { what, bytes } => {
                assert_eq!(what, "colour target");
                assert_eq!(bytes, (usize::MAX / 32) as u64 * 16);
            }
            e => panic!("{e}"),
        }
        let mut v = vec![1.0f32; 3];
        let err = try_resize(&mut v, "depth target", usize::MAX / 2, 0.0).unwrap_err();
        assert!(err.to_string().contains("depth target"), "{err}");
        // A failed resize leaves the vector as it was.
        assert_eq!(v, [1.0; 3]);
        assert_eq!(try_filled("x", 4, 7u8).unwrap(), [7; 4]);
    }

    #[test]
    fn a_target_whose_data_has_the_wrong_length_is_an_error() {
        let mut t = ColorTarget::new(4, 4, 1, [0.0; 4]);
        t.data.pop();
        assert!(matches!(
            t.to_texture(TextureFormat::Rgba32Float),
            Err(Error::InvalidOption { option: "data", .. })
        ));
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
