//! Image files through the `image` crate (PNG, JPEG, TGA, BMP, Radiance
//! HDR, OpenEXR) as one-level 2D textures.
//!
//! Formats, keeping the channels the file has:
//!
//! | decoded as          | [`ColorSpace::Srgb`]  | [`ColorSpace::Linear`] |
//! |---------------------|-----------------------|------------------------|
//! | grey 8              | `R8_SRGB`             | `R8_UNORM`             |
//! | grey+alpha 8        | `R8G8B8A8_SRGB` (L, L, L, A) | `R8G8B8A8_UNORM` |
//! | RGB 8, RGBA 8       | `R8G8B8A8_SRGB`       | `R8G8B8A8_UNORM`       |
//! | grey 16             | `R16_UNORM`           | `R16_UNORM`            |
//! | grey+alpha 16       | `R16G16B16A16_UNORM` (L, L, L, A) | same       |
//! | RGB 16, RGBA 16     | `R16G16B16A16_UNORM`  | same                   |
//! | float (HDR, EXR)    | `R32G32B32A32_SFLOAT` | same                   |
//!
//! RGB becomes RGBA with an opaque alpha (the format table has no 3-channel
//! 8- or 16-bit formats). Grey with alpha becomes RGBA rather than a
//! two-channel format because `R8G8_SRGB` would sRGB-decode the alpha and a
//! shader reading `.a` of a two-channel texture gets 1, not the alpha.
//! 16-bit files keep their code values as UNORM: Vulkan has no 16-bit sRGB
//! format, so a 16-bit sRGB PNG reads as its encoded values. `image` hands
//! OpenEXR half floats over as f32, so float files are always 32-bit.
//! Mip levels are `mip.rs`'s business, not a loader's.

use std::io::Cursor;

use image::{DynamicImage, ImageDecoder};

use crate::desc::{TextureDesc, MAX_BYTES, MAX_EXTENT};
use crate::error::{Error, Result};
use crate::format::TextureFormat;
use crate::texture::{LinearBuilder, Texture};

use super::ColorSpace;

const CONTAINER: &str = "image";

fn err(reason: impl Into<String>) -> Error {
    Error::container(CONTAINER, reason)
}

/// Decodes an image file (any format the `image` crate was built with) to a
/// one-level 2D texture; see the module docs for the format chosen.
/// `color_space` picks sRGB or UNORM for 8-bit colour. The header's
/// extent is checked (at most [`MAX_EXTENT`] a side, and the texture at
/// most [`MAX_BYTES`]) before anything is decoded, and the decoder may
/// allocate at most 512 MiB (the `image` crate's default).
pub fn load_image(bytes: &[u8], color_space: ColorSpace) -> Result<Texture> {
    load_image_limited(bytes, color_space, None, MAX_BYTES)
}

/// The most the `image` decoder may allocate (its own default).
const DECODER_ALLOC: u64 = 512 << 20;

/// [`load_image`] refusing textures of more than `max_texture_bytes`,
/// with a format to fall back on when the bytes have no magic number (TGA
/// has none): the file name's extension.
pub(super) fn load_image_limited(
    bytes: &[u8],
    color_space: ColorSpace,
    hint: Option<image::ImageFormat>,
    max_texture_bytes: u64,
) -> Result<Texture> {
    let mut reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| err(e.to_string()))?;
    if reader.format().is_none() {
        if let Some(f) = hint {
            reader.set_format(f);
        }
    }
    if reader.format().is_none() {
        return Err(err("not a recognised image file (nor KTX2 nor DDS)"));
    }
    // The decoder checks dimensions against these before it allocates, so
    // a header claiming 100000 x 100000 is refused up front. Its buffers
    // are no larger than the texture (nothing shrinks on the way), so the
    // texture cap bounds them too.
    let alloc = DECODER_ALLOC.min(max_texture_bytes);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_EXTENT);
    limits.max_image_height = Some(MAX_EXTENT);
    limits.max_alloc = Some(alloc);
    reader.limits(limits);
    let decoder = reader.into_decoder().map_err(|e| err(e.to_string()))?;
    let (w, h) = decoder.dimensions();
    let desc = TextureDesc::d2(format_for(decoder.color_type(), color_space), w, h).with_levels(1);
    desc.validate()
        .map_err(|e| err(format!("the image is no valid texture: {e}")))?;
    super::check_size(CONTAINER, &desc, max_texture_bytes)?;
    // `ImageReader::decode` makes this check; going through the decoder
    // (to see the header first) is left to us.
    if decoder.total_bytes() > alloc {
        return Err(err(format!(
            "decoding the {w}x{h} image takes {} bytes, more than the limit of {alloc}",
            decoder.total_bytes()
        )));
    }
    let img = DynamicImage::from_decoder(decoder).map_err(|e| err(e.to_string()))?;
    from_dynamic(img, desc)
}

/// A one-level 2D texture holding `img`: `R8G8B8A8_SRGB` for
/// [`ColorSpace::Srgb`] (what image files hold), `R8G8B8A8_UNORM` for
/// [`ColorSpace::Linear`]; row 0 of the image is row 0 (t = 0) of the
/// texture. [`crate::mip::with_full_chain`] adds its mips.
pub fn from_rgba_image(img: &image::RgbaImage, color_space: ColorSpace) -> Result<Texture> {
    let format = srgb_or(
        color_space,
        TextureFormat::Rgba8Srgb,
        TextureFormat::Rgba8Unorm,
    );
    let desc = TextureDesc::d2(format, img.width(), img.height()).with_levels(1);
    Texture::from_linear_bytes(desc, crate::texture::Layout::Tiled, img.as_raw())
}

fn srgb_or(color_space: ColorSpace, srgb: TextureFormat, unorm: TextureFormat) -> TextureFormat {
    match color_space {
        ColorSpace::Srgb => srgb,
        ColorSpace::Linear => unorm,
    }
}

/// The format an image of `color` becomes (see the module docs).
fn format_for(color: image::ColorType, cs: ColorSpace) -> TextureFormat {
    use image::ColorType as C;
    use TextureFormat as F;
    match color {
        C::L8 => srgb_or(cs, F::R8Srgb, F::R8Unorm),
        C::La8 | C::Rgb8 | C::Rgba8 => srgb_or(cs, F::Rgba8Srgb, F::Rgba8Unorm),
        C::L16 => F::R16Unorm,
        C::La16 | C::Rgb16 | C::Rgba16 => F::Rgba16Unorm,
        // Float images (HDR, EXR) and any colour type a later `image` adds.
        _ => F::Rgba32Float,
    }
}

/// Texels converted per batch on their way into the texture.
const BATCH: usize = 4096;

/// Appends `src`'s texels, `N` values each, to `out` through `f`, a batch
/// at a time: no second copy of the whole image is made.
fn extend_mapped<T: Copy, const N: usize, const M: usize>(
    out: &mut LinearBuilder,
    src: &[T],
    f: impl Fn([T; N]) -> [u8; M],
) -> Result<()> {
    let mut batch = Vec::with_capacity(BATCH * M);
    for part in src.as_chunks::<N>().0.chunks(BATCH) {
        batch.clear();
        batch.extend(part.iter().flat_map(|&p| f(p)));
        out.extend_from_slice(&batch)?;
    }
    Ok(())
}

/// Four 16-bit values, little-endian.
fn le16(v: [u16; 4]) -> [u8; 8] {
    let mut b = [0; 8];
    for (d, v) in b.as_chunks_mut::<2>().0.iter_mut().zip(v) {
        *d = v.to_le_bytes();
    }
    b
}

/// Four 32-bit floats, little-endian.
fn le32(v: [f32; 4]) -> [u8; 16] {
    let mut b = [0; 16];
    for (d, v) in b.as_chunks_mut::<4>().0.iter_mut().zip(v) {
        *d = v.to_le_bytes();
    }
    b
}

/// The texture `desc` (from [`format_for`] of the image's colour type)
/// holding a decoded image.
fn from_dynamic(img: DynamicImage, desc: TextureDesc) -> Result<Texture> {
    let mut out = LinearBuilder::new(desc)?;
    match img {
        DynamicImage::ImageLuma8(b) => out.extend_from_slice(b.as_raw())?,
        DynamicImage::ImageLumaA8(b) => extend_mapped(&mut out, b.as_raw(), |[l, a]| [l, l, l, a])?,
        DynamicImage::ImageRgb8(b) => {
            extend_mapped(&mut out, b.as_raw(), |[r, g, b]| [r, g, b, 0xff])?
        }
        DynamicImage::ImageRgba8(b) => out.extend_from_slice(b.as_raw())?,
        DynamicImage::ImageLuma16(b) => {
            extend_mapped(&mut out, b.as_raw(), |[l]: [u16; 1]| l.to_le_bytes())?
        }
        DynamicImage::ImageLumaA16(b) => {
            extend_mapped(&mut out, b.as_raw(), |[l, a]| le16([l, l, l, a]))?
        }
        DynamicImage::ImageRgb16(b) => {
            extend_mapped(&mut out, b.as_raw(), |[r, g, b]| le16([r, g, b, u16::MAX]))?
        }
        DynamicImage::ImageRgba16(b) => extend_mapped(&mut out, b.as_raw(), le16)?,
        // Float images (HDR, EXR) and any variant a later `image` adds.
        other => extend_mapped(&mut out, other.into_rgba32f().as_raw(), le32)?,
    }
    out.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Aspect;
    use crate::texel::Texel;
    use crate::texture::TexelAddr;

    fn png(img: DynamicImage) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn rgb8_png_becomes_srgb_rgba_with_opaque_alpha() {
        let img = image::RgbImage::from_raw(2, 1, vec![0x80, 0, 0xff, 1, 2, 3]).unwrap();
        let t = load_image(&png(img.into()), ColorSpace::Srgb).unwrap();
        assert_eq!(t.format(), TextureFormat::Rgba8Srgb);
        assert_eq!(t.to_linear_bytes(), [0x80, 0, 0xff, 0xff, 1, 2, 3, 0xff]);
        // 0x80 sRGB decodes to 0.2158605 (texel.rs).
        let Some(Texel::Float(v)) = t.read_texel(TexelAddr::new(0, 0, 0, 0, 0, 0), Aspect::Color)
        else {
            panic!()
        };
        assert!((v[0] - 0.215_860_5).abs() < 1e-6);
    }

    #[test]
    fn linear_colour_space_gives_unorm_twins() {
        let img = image::GrayImage::from_raw(1, 1, vec![7]).unwrap();
        let t = load_image(&png(img.into()), ColorSpace::Linear).unwrap();
        assert_eq!(t.format(), TextureFormat::R8Unorm);
        let img = image::GrayAlphaImage::from_raw(1, 1, vec![7, 9]).unwrap();
        let t = load_image(&png(img.into()), ColorSpace::Linear).unwrap();
        assert_eq!(t.format(), TextureFormat::Rgba8Unorm);
        assert_eq!(t.to_linear_bytes(), [7, 7, 7, 9]);
    }

    #[test]
    fn sixteen_bit_rgb_becomes_rgba16_unorm_with_alpha_one() {
        let img = image::ImageBuffer::<image::Rgb<u16>, _>::from_raw(1, 1, vec![0x1234, 2, 0xffff])
            .unwrap();
        let t = load_image(&png(img.into()), ColorSpace::Srgb).unwrap();
        assert_eq!(t.format(), TextureFormat::Rgba16Unorm);
        assert_eq!(
            t.to_linear_bytes(),
            [0x34, 0x12, 2, 0, 0xff, 0xff, 0xff, 0xff]
        );
    }

    #[test]
    fn garbage_is_a_container_error() {
        let e = load_image(b"not an image at all", ColorSpace::Srgb).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Container);
        assert!(e.to_string().starts_with("image: "), "{e}");
    }
}
