//! Block-compressed formats: decode one block to what a shader sees.
//!
//! BC1-BC7 go through `bcdec_rs` (a safe port of bcdec). BC6H is taken from
//! its half-float output, so it stays float (never squeezed to 8 bits).
//! ETC2 and EAC are decoded in `etc` (written here from the KDFS), EAC at
//! its full 11 bits. ASTC LDR goes through `astc-decode`, glued in `astc`.
//! Values come out as the shader reads them: UNORM/SNORM normalized, sRGB
//! colour decoded to linear (alpha linear), missing components (0, 0, 0, 1).
//! Every bit pattern decodes to something (ASTC's illegal encodings to the
//! error colour, magenta); only wrong buffer sizes are errors.

use half::f16;

use crate::error::{Error, Result};
use crate::format::{BlockKind, ChannelKind, FormatLayout, TextureFormat};
use crate::texel::{snorm_to_f32, srgb8_to_linear, unorm_to_f32};

mod astc;
mod etc;
#[cfg(test)]
mod tests;

/// The most texels one block holds (ASTC 12x12).
pub const MAX_BLOCK_TEXELS: usize = 144;

/// Decodes one block of `format` into `out`, row-major (`out[y * w + x]`
/// for a `w x h` block). `block` must hold the format's block bytes and
/// `out` at least `w * h` entries.
pub fn decode_block(format: TextureFormat, block: &[u8], out: &mut [[f32; 4]]) -> Result<()> {
    let FormatLayout::Block {
        kind,
        w,
        h,
        bytes,
        class,
    } = format.layout()
    else {
        return Err(Error::unsupported(format, "not a block-compressed format"));
    };
    let n = w as usize * h as usize;
    if block.len() < bytes as usize {
        return Err(Error::wrong_size(
            "compressed block",
            bytes as u64,
            block.len() as u64,
        ));
    }
    if out.len() < n {
        return Err(Error::wrong_size(
            "decoded block buffer (texels)",
            n as u64,
            out.len() as u64,
        ));
    }
    let srgb = class == ChannelKind::Srgb;
    let snorm = class == ChannelKind::Snorm;
    let out = &mut out[..n];
    match kind {
        BlockKind::Bc1 { alpha } => {
            let mut px = [0u8; 64];
            bcdec_rs::bc1(block, &mut px, 16);
            rgba8_to_f32(&px, out, srgb);
            if !alpha {
                // BC1_RGB: the three-colour mode's index 3 is opaque black.
                out.iter_mut().for_each(|t| t[3] = 1.0);
            }
        }
        BlockKind::Bc2 => {
            let mut px = [0u8; 64];
            bcdec_rs::bc2(block, &mut px, 16);
            rgba8_to_f32(&px, out, srgb);
        }
        BlockKind::Bc3 => {
            let mut px = [0u8; 64];
            bcdec_rs::bc3(block, &mut px, 16);
            rgba8_to_f32(&px, out, srgb);
        }
        BlockKind::Bc4 => {
            let mut r = [0f32; 16];
            bcdec_rs::bc4_float(block, &mut r, 4, snorm);
            for (t, r) in out.iter_mut().zip(r) {
                *t = [r, 0.0, 0.0, 1.0];
            }
        }
        BlockKind::Bc5 => {
            let mut rg = [0f32; 32];
            bcdec_rs::bc5_float(block, &mut rg, 8, snorm);
            for (t, &[r, g]) in out.iter_mut().zip(rg.as_chunks::<2>().0) {
                *t = [r, g, 0.0, 1.0];
            }
        }
        BlockKind::Bc6h => {
            let mut hf = [0u16; 48];
            let signed = format == TextureFormat::Bc6hSfloat;
            bcdec_rs::bc6h_half(block, &mut hf, 12, signed);
            for (t, &[r, g, b]) in out.iter_mut().zip(hf.as_chunks::<3>().0) {
                *t = [
                    f16::from_bits(r).to_f32(),
                    f16::from_bits(g).to_f32(),
                    f16::from_bits(b).to_f32(),
                    1.0,
                ];
            }
        }
        BlockKind::Bc7 => {
            let mut px = [0u8; 64];
            bcdec_rs::bc7(block, &mut px, 16);
            rgba8_to_f32(&px, out, srgb);
        }
        BlockKind::Etc2Rgb8 | BlockKind::Etc2Rgb8A1 => {
            let px = etc::etc2_rgb(&half_block(block, 0), kind == BlockKind::Etc2Rgb8A1);
            for (t, p) in out.iter_mut().zip(px) {
                *t = rgba8_texel(p, srgb);
            }
        }
        BlockKind::Etc2Rgba8 => {
            // 64 bits of EAC alpha come first, then an ETC2 colour block.
            let alpha = etc::eac_alpha8(&half_block(block, 0));
            let px = etc::etc2_rgb(&half_block(block, 1), false);
            for ((t, mut p), a) in out.iter_mut().zip(px).zip(alpha) {
                p[3] = a;
                *t = rgba8_texel(p, srgb);
            }
        }
        BlockKind::EacR11 => {
            let r = eac_channel(&half_block(block, 0), snorm);
            for (t, r) in out.iter_mut().zip(r) {
                *t = [r, 0.0, 0.0, 1.0];
            }
        }
        BlockKind::EacRg11 => {
            let r = eac_channel(&half_block(block, 0), snorm);
            let g = eac_channel(&half_block(block, 1), snorm);
            for ((t, r), g) in out.iter_mut().zip(r).zip(g) {
                *t = [r, g, 0.0, 1.0];
            }
        }
        BlockKind::Astc => {
            let mut b = [0u8; 16];
            b.copy_from_slice(&block[..16]);
            astc::decode_block(&b, w, h, srgb, out);
        }
    }
    Ok(())
}

/// The 16 texels of one 4x4 block of `format`, row-major, as the 8-bit
/// RGBA codes its decode goes through (what [`decode_block`] normalizes,
/// or sRGB-decodes, channel by channel): BC1 (opaque alpha for BC1_RGB),
/// BC2, BC3, BC7 and ETC2 RGB8 / RGB8A1 / RGBA8. `None` for other formats
/// (their decodes are not 8-bit codes) and for a short `block`.
pub fn block_rgba8(format: TextureFormat, block: &[u8]) -> Option<[[u8; 4]; 16]> {
    let FormatLayout::Block { kind, bytes, .. } = format.layout() else {
        return None;
    };
    if block.len() < bytes as usize {
        return None;
    }
    let bc = |decode: fn(&[u8], &mut [u8], usize)| {
        let mut px = [0u8; 64];
        decode(block, &mut px, 16);
        let mut out = [[0u8; 4]; 16];
        for (t, p) in out.iter_mut().zip(px.as_chunks::<4>().0) {
            *t = *p;
        }
        out
    };
    Some(match kind {
        BlockKind::Bc1 { alpha } => {
            let mut out = bc(bcdec_rs::bc1);
            if !alpha {
                out.iter_mut().for_each(|t| t[3] = 255);
            }
            out
        }
        BlockKind::Bc2 => bc(bcdec_rs::bc2),
        BlockKind::Bc3 => bc(bcdec_rs::bc3),
        BlockKind::Bc7 => bc(bcdec_rs::bc7),
        BlockKind::Etc2Rgb8 | BlockKind::Etc2Rgb8A1 => {
            etc::etc2_rgb(&half_block(block, 0), kind == BlockKind::Etc2Rgb8A1)
        }
        BlockKind::Etc2Rgba8 => {
            let alpha = etc::eac_alpha8(&half_block(block, 0));
            let mut px = etc::etc2_rgb(&half_block(block, 1), false);
            for (p, a) in px.iter_mut().zip(alpha) {
                p[3] = a;
            }
            px
        }
        _ => return None,
    })
}

/// 8-bit RGBA texels to floats, sRGB-decoding colour when asked.
fn rgba8_to_f32(px: &[u8], out: &mut [[f32; 4]], srgb: bool) {
    for (t, &p) in out.iter_mut().zip(px.as_chunks::<4>().0) {
        *t = rgba8_texel(p, srgb);
    }
}

/// One 8-bit RGBA texel as the shader reads it: colour UNORM or sRGB,
/// alpha always linear.
pub(super) fn rgba8_texel(p: [u8; 4], srgb: bool) -> [f32; 4] {
    let c = |v: u8| {
        if srgb {
            srgb8_to_linear(v)
        } else {
            unorm_to_f32(v as u32, 8)
        }
    };
    [c(p[0]), c(p[1]), c(p[2]), unorm_to_f32(p[3] as u32, 8)]
}

/// The `i`-th 64-bit half of a block (the caller has checked its length).
fn half_block(block: &[u8], i: usize) -> [u8; 8] {
    let mut b = [0u8; 8];
    b.copy_from_slice(&block[i * 8..i * 8 + 8]);
    b
}

/// One EAC 11-bit channel at full precision: UNORM `v / 2047`, SNORM
/// `v / 1023` (KDFS R11 EAC sections; never truncated to 8 bits).
fn eac_channel(block: &[u8; 8], snorm: bool) -> [f32; 16] {
    if snorm {
        etc::eac_r11_snorm(block).map(|v| snorm_to_f32(v as i32, 11))
    } else {
        etc::eac_r11_unorm(block).map(|v| unorm_to_f32(v as u32, 11))
    }
}
