//! One subresource as an 8-bit PNG, for looking at a texture.
//!
//! Texels are decoded as a shader reads them (compressed blocks included)
//! and mapped to 8 bits per channel, by the format's class:
//!
//! - sRGB formats: colour re-encoded linear -> sRGB, so the PNG holds the
//!   texture's own sRGB codes; alpha `x 255`.
//! - UNORM (and compressed UNORM): the value `x 255`, clamped, with no
//!   transfer function: a UNORM texture's codes are written as they are.
//! - SNORM: `(v + 1) / 2 x 255`, so 0 is mid-grey, as normal maps are shown.
//! - Float (16/32-bit, the small unsigned floats, BC6H): colour tone-mapped
//!   with Reinhard `x / (1 + x)` (its limit 1, white, for +Inf; negatives,
//!   -Inf and NaN to 0), then sRGB-encoded; alpha clamped to [0, 1].
//! - UINT/SINT: the component's full range (from its bit width) stretched
//!   over 0..255, so `R8_UINT` writes its codes and a 10-bit field's 1023 is
//!   255.
//! - Depth: grey, the depth value clamped to [0, 1]; stencil (`S8_UINT`):
//!   grey, the stencil value.
//!
//! Channels: a format with one component (R, A, depth or stencil) writes a
//! grey PNG of it; otherwise RGB, or RGBA when the format stores alpha;
//! absent components write 0 (alpha 255). Multisample textures write
//! sample 0.

use image::ImageEncoder;

use crate::compressed::{self, MAX_BLOCK_TEXELS};
use crate::error::{try_filled, Error, Result};
use crate::format::{ChannelKind, TextureFormat};
use crate::texel::{self, linear_to_srgb, Texel};
use crate::texture::{TexelAddr, Texture};

/// Encodes subresource (`level`, `layer`) of `texture`, depth slice `z`
/// (0 except for 3D), as a PNG file's bytes; see the module docs for how
/// values become 8 bits. Errors when an index is out of range or a block
/// cannot be decoded.
pub fn encode_png(texture: &Texture, level: u32, layer: u32, z: u32) -> Result<Vec<u8>> {
    let desc = texture.desc();
    if level >= desc.levels || layer >= desc.layers {
        return Err(Error::out_of_range(format!(
            "level {level} layer {layer} of a texture with {} levels and {} layers",
            desc.levels, desc.layers
        )));
    }
    let e = desc.level_extent(level);
    if z >= e.depth {
        return Err(Error::out_of_range(format!(
            "slice {z} of a level {} deep",
            e.depth
        )));
    }
    let format = desc.format;
    let texels = decode_slice(texture, level, layer, z)?;
    let stored = format.components();
    let grey = format.component_count() == 1;
    let channels: Vec<usize> = if grey {
        vec![stored.iter().position(|&s| s).unwrap_or(0)]
    } else if stored[3] {
        vec![0, 1, 2, 3]
    } else {
        vec![0, 1, 2]
    };
    let mut buf = try_filled(texels.len() * channels.len(), 0u8, "PNG pixels")?;
    for (px, t) in buf.chunks_mut(channels.len()).zip(&texels) {
        for (p, &c) in px.iter_mut().zip(&channels) {
            *p = if stored[c] {
                to_8bit(format, c, *t)
            } else if c == 3 {
                255
            } else {
                0
            };
        }
    }
    let color = match channels.len() {
        1 => image::ExtendedColorType::L8,
        3 => image::ExtendedColorType::Rgb8,
        _ => image::ExtendedColorType::Rgba8,
    };
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(&buf, e.width, e.height, color)
        .map_err(|e| Error::container("PNG", e.to_string()))?;
    Ok(out)
}

/// Writes subresource (`level`, `layer`), slice 0, to `path` as PNG
/// (see [`encode_png`]).
pub fn save_png(
    texture: &Texture,
    level: u32,
    layer: u32,
    path: impl AsRef<std::path::Path>,
) -> Result<()> {
    save_png_slice(texture, level, layer, 0, path)
}

/// Writes depth slice `z` of subresource (`level`, `layer`) to `path` as PNG
/// (see [`encode_png`]).
pub fn save_png_slice(
    texture: &Texture,
    level: u32,
    layer: u32,
    z: u32,
    path: impl AsRef<std::path::Path>,
) -> Result<()> {
    let bytes = encode_png(texture, level, layer, z)?;
    super::write_file(path.as_ref(), &bytes)
}

/// Every texel of one slice, row-major, as the shader reads it.
fn decode_slice(texture: &Texture, level: u32, layer: u32, z: u32) -> Result<Vec<Texel>> {
    let desc = texture.desc();
    let format = desc.format;
    let e = desc.level_extent(level);
    let (w, h) = (e.width as usize, e.height as usize);
    let missing = || Error::out_of_range(format!("level {level} layer {layer}"));
    if format.is_compressed() {
        // A block at a time: decoding per texel would decode each block
        // `bw * bh` times.
        let (bw, bh) = format.block_extent();
        let mut out = try_filled(w * h, Texel::Float([0.0; 4]), "decoded texels")?;
        let mut block = [[0.0f32; 4]; MAX_BLOCK_TEXELS];
        for by in 0..e.height.div_ceil(bh) {
            for bx in 0..e.width.div_ceil(bw) {
                let bytes = texture
                    .texel_block(TexelAddr::new(level, layer, 0, bx * bw, by * bh, z))
                    .ok_or_else(missing)?;
                compressed::decode_block(format, bytes, &mut block)?;
                for j in 0..bh {
                    for i in 0..bw {
                        let (x, y) = (bx * bw + i, by * bh + j);
                        if (x as usize) < w && (y as usize) < h {
                            out[y as usize * w + x as usize] =
                                Texel::Float(block[(j * bw + i) as usize]);
                        }
                    }
                }
            }
        }
        Ok(out)
    } else {
        let aspect = format.default_aspect();
        let mut out = try_filled(w * h, Texel::Float([0.0; 4]), "decoded texels")?;
        for (i, t) in out.iter_mut().enumerate() {
            let (x, y) = ((i % w) as u32, (i / w) as u32);
            let bytes = texture
                .texel_block(TexelAddr::new(level, layer, 0, x, y, z))
                .ok_or_else(missing)?;
            *t = texel::decode(format, aspect, bytes)?;
        }
        Ok(out)
    }
}

/// Component `c` of `t` as an 8-bit code, by the format's class.
fn to_8bit(format: TextureFormat, c: usize, t: Texel) -> u8 {
    let unit = |v: f64| -> u8 {
        if v.is_nan() {
            0
        } else {
            (v.clamp(0.0, 1.0) * 255.0).round() as u8
        }
    };
    if format.has_depth() || format.has_stencil() {
        // Depth reads as a float in [0, 1] (clamped for D32_SFLOAT);
        // stencil as its 8-bit integer.
        return match t {
            Texel::Float(v) => unit(v[0] as f64),
            Texel::Uint(v) => v[0].min(255) as u8,
            Texel::Sint(v) => v[0].clamp(0, 255) as u8,
        };
    }
    match (t, format.channel_kind()) {
        (Texel::Float(v), ChannelKind::Srgb) if c < 3 => unit(linear_to_srgb(v[c]) as f64),
        (Texel::Float(v), ChannelKind::Snorm) => unit((v[c] as f64 + 1.0) * 0.5),
        (Texel::Float(v), ChannelKind::Float) if c < 3 => {
            let x = v[c] as f64;
            // `x / (1 + x)` is Inf / Inf = NaN at +Inf; its limit there is 1.
            let x = if x.is_nan() || x <= 0.0 {
                0.0
            } else if x == f64::INFINITY {
                1.0
            } else {
                x / (1.0 + x)
            };
            unit(linear_to_srgb(x as f32) as f64)
        }
        (Texel::Float(v), _) => unit(v[c] as f64),
        (Texel::Uint(v), _) => {
            let max = max_code(format, c);
            unit(v[c] as f64 / max)
        }
        (Texel::Sint(v), _) => {
            let max = max_code(format, c);
            unit((v[c] as f64 + (max + 1.0) / 2.0) / max)
        }
    }
}

/// `2^bits - 1` for component `c`.
fn max_code(format: TextureFormat, c: usize) -> f64 {
    let bits = format.component_bits()[c].max(1) as i32;
    2f64.powi(bits) - 1.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desc::TextureDesc;
    use crate::texture::Layout;
    use TextureFormat as F;

    fn decode(png: &[u8]) -> image::DynamicImage {
        image::load_from_memory_with_format(png, image::ImageFormat::Png).unwrap()
    }

    fn tex(format: F, w: u32, h: u32, bytes: &[u8]) -> Texture {
        let d = TextureDesc::d2(format, w, h).with_levels(1);
        Texture::from_linear_bytes(d, Layout::Linear, bytes).unwrap()
    }

    #[test]
    fn srgb_texture_writes_its_own_codes() {
        let codes: Vec<u8> = (0..=255).collect();
        let t = tex(F::Rgba8Srgb, 64, 1, &codes);
        let img = decode(&encode_png(&t, 0, 0, 0).unwrap()).into_rgba8();
        assert_eq!(img.into_raw(), codes);
    }

    #[test]
    fn unorm_writes_codes_and_snorm_centres_zero() {
        let t = tex(F::Rg8Unorm, 1, 1, &[10, 200]);
        let img = decode(&encode_png(&t, 0, 0, 0).unwrap());
        assert_eq!(img.as_rgb8().unwrap().as_raw(), &[10, 200, 0]);
        // SNORM 0 -> 128, 127 (1.0) -> 255, -127 (-1.0) -> 0.
        let t = tex(F::Rgba8Snorm, 1, 1, &[0, 127, 0x81, 127]);
        let img = decode(&encode_png(&t, 0, 0, 0).unwrap());
        assert_eq!(img.as_rgba8().unwrap().as_raw(), &[128, 255, 0, 255]);
    }

    #[test]
    fn float_is_reinhard_tone_mapped_then_srgb_encoded() {
        // 1.0 -> 0.5 linear -> sRGB 0.7353569 -> 188; 3.0 -> 0.75 -> 225.
        let px: Vec<u8> = [1.0f32, 3.0, 0.0, 1.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let t = tex(F::Rgba32Float, 1, 1, &px);
        let img = decode(&encode_png(&t, 0, 0, 0).unwrap());
        assert_eq!(img.as_rgba8().unwrap().as_raw(), &[188, 225, 0, 255]);
    }

    #[test]
    fn float_infinity_is_white_and_minus_infinity_and_nan_are_black() {
        // +Inf, -Inf, NaN colour; alpha +Inf clamps to 1.
        let px: Vec<u8> = [f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::INFINITY]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let t = tex(F::Rgba32Float, 1, 1, &px);
        let img = decode(&encode_png(&t, 0, 0, 0).unwrap());
        assert_eq!(img.as_rgba8().unwrap().as_raw(), &[255, 0, 0, 255]);
        // Half floats: 0x7C00 +Inf, 0xFC00 -Inf, 0x7E00 NaN, 0x3C00 1.0
        // (Reinhard 0.5, sRGB 188) next to them for scale.
        let t = tex(F::R16Float, 4, 1, &[0, 0x7c, 0, 0xfc, 0, 0x7e, 0, 0x3c]);
        let img = decode(&encode_png(&t, 0, 0, 0).unwrap());
        assert_eq!(img.as_luma8().unwrap().as_raw(), &[255, 0, 0, 188]);
        // The largest finite f32 rounds to white as well.
        let t = tex(F::R32Float, 1, 1, &f32::MAX.to_le_bytes());
        let img = decode(&encode_png(&t, 0, 0, 0).unwrap());
        assert_eq!(img.as_luma8().unwrap().as_raw(), &[255]);
    }

    #[test]
    fn single_component_formats_are_grey() {
        let t = tex(F::R16Uint, 2, 1, &[0xff, 0xff, 0, 0x80]);
        let img = decode(&encode_png(&t, 0, 0, 0).unwrap());
        assert_eq!(img.as_luma8().unwrap().as_raw(), &[255, 128]);
        let t = tex(F::Depth16Unorm, 1, 1, &[0x00, 0x80]);
        let img = decode(&encode_png(&t, 0, 0, 0).unwrap());
        assert_eq!(img.as_luma8().unwrap().as_raw(), &[128]);
    }

    #[test]
    fn out_of_range_subresource_is_an_error() {
        let t = tex(F::R8Unorm, 1, 1, &[0]);
        let e = encode_png(&t, 1, 0, 0).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::OutOfRange);
        let e = encode_png(&t, 0, 0, 1).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::OutOfRange);
    }
}
