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

use image::DynamicImage;

use crate::desc::{TextureDesc, MAX_EXTENT};
use crate::error::{Error, Result};
use crate::format::TextureFormat;
use crate::texture::{Layout, Texture};

use super::ColorSpace;

const CONTAINER: &str = "image";

fn err(reason: impl Into<String>) -> Error {
    Error::container(CONTAINER, reason)
}

/// Decodes an image file (any format the `image` crate was built with) to a
/// one-level 2D texture; see the module docs for the format chosen.
/// `color_space` picks sRGB or UNORM for 8-bit colour.
pub fn load_image(bytes: &[u8], color_space: ColorSpace) -> Result<Texture> {
    load_image_hinted(bytes, color_space, None)
}

/// [`load_image`] with a format to fall back on when the bytes have no
/// magic number (TGA has none): the file name's extension.
pub(super) fn load_image_hinted(
    bytes: &[u8],
    color_space: ColorSpace,
    hint: Option<image::ImageFormat>,
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
    // a header claiming 100000 x 100000 is refused up front.
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_EXTENT);
    limits.max_image_height = Some(MAX_EXTENT);
    reader.limits(limits);
    let img = reader.decode().map_err(|e| err(e.to_string()))?;
    from_dynamic(img, color_space)
}

fn srgb_or(color_space: ColorSpace, srgb: TextureFormat, unorm: TextureFormat) -> TextureFormat {
    match color_space {
        ColorSpace::Srgb => srgb,
        ColorSpace::Linear => unorm,
    }
}

fn u16_bytes(v: impl IntoIterator<Item = u16>) -> Vec<u8> {
    v.into_iter().flat_map(u16::to_le_bytes).collect()
}

/// The texture for a decoded image.
fn from_dynamic(img: DynamicImage, cs: ColorSpace) -> Result<Texture> {
    use TextureFormat as F;
    let (w, h) = (img.width(), img.height());
    let (format, bytes) = match img {
        DynamicImage::ImageLuma8(b) => (srgb_or(cs, F::R8Srgb, F::R8Unorm), b.into_raw()),
        DynamicImage::ImageLumaA8(b) => {
            let px = b
                .into_raw()
                .as_chunks::<2>()
                .0
                .iter()
                .flat_map(|&[l, a]| [l, l, l, a])
                .collect();
            (srgb_or(cs, F::Rgba8Srgb, F::Rgba8Unorm), px)
        }
        DynamicImage::ImageRgb8(b) => {
            let px = b
                .into_raw()
                .as_chunks::<3>()
                .0
                .iter()
                .flat_map(|&[r, g, b]| [r, g, b, 0xff])
                .collect();
            (srgb_or(cs, F::Rgba8Srgb, F::Rgba8Unorm), px)
        }
        DynamicImage::ImageRgba8(b) => (srgb_or(cs, F::Rgba8Srgb, F::Rgba8Unorm), b.into_raw()),
        DynamicImage::ImageLuma16(b) => (F::R16Unorm, u16_bytes(b.into_raw())),
        DynamicImage::ImageLumaA16(b) => {
            let raw = b.into_raw();
            let px = raw
                .as_chunks::<2>()
                .0
                .iter()
                .flat_map(|&[l, a]| [l, l, l, a]);
            (F::Rgba16Unorm, u16_bytes(px))
        }
        DynamicImage::ImageRgb16(b) => {
            let raw = b.into_raw();
            let px = raw
                .as_chunks::<3>()
                .0
                .iter()
                .flat_map(|&[r, g, b]| [r, g, b, u16::MAX]);
            (F::Rgba16Unorm, u16_bytes(px))
        }
        DynamicImage::ImageRgba16(b) => (F::Rgba16Unorm, u16_bytes(b.into_raw())),
        // Float images (HDR, EXR) and any variant a later `image` adds.
        other => {
            let px = other.into_rgba32f().into_raw();
            let bytes = px.into_iter().flat_map(f32::to_le_bytes).collect();
            (F::Rgba32Float, bytes)
        }
    };
    let desc = TextureDesc::d2(format, w, h).with_levels(1);
    desc.validate()
        .map_err(|e| err(format!("decoded image is no valid texture: {e}")))?;
    Texture::from_linear_bytes(desc, Layout::Linear, &bytes)
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
        assert!(matches!(
            load_image(b"not an image at all", ColorSpace::Srgb),
            Err(Error::Container {
                container: "image",
                ..
            })
        ));
    }
}
