//! Block-compressed formats: decode one block to what a shader sees.
//!
//! BC1-BC7 go through `bcdec_rs` (a safe port of bcdec). BC6H is taken from
//! its half-float output, so it stays float (never squeezed to 8 bits).
//! Values come out as the shader reads them: UNORM/SNORM normalized, sRGB
//! colour decoded to linear (alpha linear), missing components (0, 0, 0, 1).

use half::f16;

use crate::error::{Error, Result};
use crate::format::{BlockKind, ChannelKind, FormatLayout, TextureFormat};
use crate::texel::{srgb8_to_linear, unorm_to_f32};

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
        return Err(Error::Unsupported {
            format,
            what: "not a block-compressed format",
        });
    };
    let n = w as usize * h as usize;
    if block.len() < bytes as usize {
        return Err(Error::WrongSize {
            what: "compressed block",
            expected: bytes as u64,
            actual: block.len() as u64,
        });
    }
    if out.len() < n {
        return Err(Error::WrongSize {
            what: "decoded block buffer (texels)",
            expected: n as u64,
            actual: out.len() as u64,
        });
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
            for (t, rg) in out.iter_mut().zip(rg.chunks_exact(2)) {
                *t = [rg[0], rg[1], 0.0, 1.0];
            }
        }
        BlockKind::Bc6h => {
            let mut hf = [0u16; 48];
            let signed = format == TextureFormat::Bc6hSfloat;
            bcdec_rs::bc6h_half(block, &mut hf, 12, signed);
            for (t, c) in out.iter_mut().zip(hf.chunks_exact(3)) {
                *t = [
                    f16::from_bits(c[0]).to_f32(),
                    f16::from_bits(c[1]).to_f32(),
                    f16::from_bits(c[2]).to_f32(),
                    1.0,
                ];
            }
        }
        BlockKind::Bc7 => {
            let mut px = [0u8; 64];
            bcdec_rs::bc7(block, &mut px, 16);
            rgba8_to_f32(&px, out, srgb);
        }
        BlockKind::Etc2Rgb8
        | BlockKind::Etc2Rgb8A1
        | BlockKind::Etc2Rgba8
        | BlockKind::EacR11
        | BlockKind::EacRg11
        | BlockKind::Astc => {
            return Err(Error::Unsupported {
                format,
                what: "decoder not built yet",
            })
        }
    }
    Ok(())
}

/// 8-bit RGBA texels to floats, sRGB-decoding colour when asked.
fn rgba8_to_f32(px: &[u8], out: &mut [[f32; 4]], srgb: bool) {
    for (t, p) in out.iter_mut().zip(px.chunks_exact(4)) {
        let c = |v: u8| {
            if srgb {
                srgb8_to_linear(v)
            } else {
                unorm_to_f32(v as u32, 8)
            }
        };
        *t = [c(p[0]), c(p[1]), c(p[2]), unorm_to_f32(p[3] as u32, 8)];
    }
}
