//! DDS (DirectDraw Surface) reading: headers parsed by `ddsfile`, texels
//! reordered and, for a few legacy layouts, converted here.
//!
//! Formats:
//!
//! - DX10 header: the DXGI format maps to its [`TextureFormat`] twin
//!   (`R10G10B10A2` is `A2B10G10R10_PACK32`, `B5G6R5` is `R5G6B5_PACK16`,
//!   `B5G5R5A1` is `A1R5G5B5_PACK16`, `D24_UNORM_S8_UINT` and
//!   `D32_FLOAT_S8X24_UINT` keep their bit layouts, which are ours).
//!   `*_TYPELESS` colour and BC formats read as their UNORM twin (Pillow
//!   writes BC2, BC3 and BC5 as typeless). `B8G8R8X8` and `B4G4R4A4`, which
//!   have no Vulkan twin here, are converted to `R8G8B8A8` (X read as 255).
//! - Legacy FourCC: `DXT1` is `BC1_RGBA_UNORM` (DXT1 may use punch-through
//!   alpha), `DXT2`/`DXT3` `BC2_UNORM`, `DXT4`/`DXT5` `BC3_UNORM` (the
//!   premultiplied flavours keep their bits; premultiplication is not
//!   undone), `ATI1`/`BC4U`/`BC4S` BC4, `ATI2`/`BC5U`/`BC5S` BC5, and the
//!   D3DFMT numbers of the 16/32-bit float and 16-bit RGBA formats.
//! - Legacy bitmasks: layouts that are exactly one of our formats load as it
//!   (`A8R8G8B8` is `B8G8R8A8_UNORM`, `A8B8G8R8` `R8G8B8A8_UNORM`, `R5G6B5`,
//!   `A1R5G5B5`, `A2B10G10R10`, `G16R16`, `L8` as `R8_UNORM`, `L16` as
//!   `R16_UNORM`, `A8` as `A8_UNORM`); any other mask layout (`R8G8B8`,
//!   `X8R8G8B8`, `A4R4G4B4`, `A8L8`, ...) is expanded to `R8G8B8A8_UNORM`
//!   (or `R16G16B16A16_UNORM` when a channel is wider than 8 bits), grey
//!   as (L, L, L, A), missing alpha as opaque.
//!
//! Legacy files carry no transfer function: they read as UNORM, as
//! DirectXTex reads them. Shapes: DX10 1D, 2D, 3D, arrays, cubes and cube
//! arrays; legacy 2D, volumes and cubes with all six faces. DDS stores each
//! array layer (cube face) with all its mips before the next; we store level
//! by level, so the loader reorders. Data beyond what the header describes is
//! ignored; less is an error, found before anything is allocated.

use ddsfile::{Caps2, D3D10ResourceDimension, DxgiFormat, FourCC, MiscFlag, PixelFormatFlags};

use crate::desc::{TextureDesc, TextureKind, MAX_BYTES};
use crate::error::{Error, Result};
use crate::format::TextureFormat;
use crate::texture::{LinearBuilder, Texture};

const CONTAINER: &str = "DDS";

fn err(reason: impl Into<String>) -> Error {
    Error::container(CONTAINER, reason)
}

/// How the file's texel bytes become ours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pixels {
    /// Copied as they are.
    Direct(TextureFormat),
    /// `bits`-bit little-endian words with R, G, B, A `masks` (0: absent),
    /// expanded to `out` (an RGBA8 or RGBA16 format).
    Masked {
        bits: u32,
        masks: [u32; 4],
        out: TextureFormat,
    },
}

impl Pixels {
    fn format(self) -> TextureFormat {
        match self {
            Pixels::Direct(f) | Pixels::Masked { out: f, .. } => f,
        }
    }

    /// Bytes one subresource of `desc`'s `level` takes in the file.
    fn file_level_bytes(self, desc: &TextureDesc, level: u32) -> Option<u64> {
        match self {
            Pixels::Direct(_) => desc.level_bytes(level),
            Pixels::Masked { bits, .. } => {
                let e = desc.level_extent(level);
                (e.width as u64 * e.height as u64)
                    .checked_mul(e.depth as u64)?
                    .checked_mul(bits as u64 / 8)
            }
        }
    }

    /// Appends the texels of `src` (one subresource in the file's layout).
    fn convert(self, src: &[u8], out: &mut Vec<u8>) {
        match self {
            Pixels::Direct(_) => out.extend_from_slice(src),
            Pixels::Masked {
                bits,
                masks,
                out: f,
            } => {
                let wide = f.block_bytes() == 8;
                let out_max: u64 = if wide { 0xffff } else { 0xff };
                for px in src.chunks_exact(bits as usize / 8) {
                    let mut word = 0u32;
                    for (i, b) in px.iter().enumerate() {
                        word |= (*b as u32) << (8 * i);
                    }
                    for (c, &m) in masks.iter().enumerate() {
                        let v = if m == 0 {
                            if c == 3 {
                                out_max
                            } else {
                                0
                            }
                        } else {
                            let in_max = (m >> m.trailing_zeros()) as u64;
                            let v = ((word & m) >> m.trailing_zeros()) as u64;
                            (v * out_max + in_max / 2) / in_max
                        };
                        if wide {
                            out.extend_from_slice(&(v as u16).to_le_bytes());
                        } else {
                            out.push(v as u8);
                        }
                    }
                }
            }
        }
    }
}

/// Expands a bitmask layout to RGBA8 (RGBA16 when a channel is wider than
/// 8 bits, or the sRGB RGBA8 when asked).
fn masked(bits: u32, masks: [u32; 4], srgb: bool) -> Pixels {
    let wide = masks.iter().any(|m| m.count_ones() > 8);
    let out = match (wide, srgb) {
        (true, _) => TextureFormat::Rgba16Unorm,
        (false, true) => TextureFormat::Rgba8Srgb,
        (false, false) => TextureFormat::Rgba8Unorm,
    };
    Pixels::Masked { bits, masks, out }
}

fn fourcc_text(code: u32) -> String {
    let b = code.to_le_bytes();
    if b.iter().all(|c| c.is_ascii_graphic() || *c == b' ') {
        format!("FourCC `{}`", String::from_utf8_lossy(&b))
    } else {
        format!("FourCC {code}")
    }
}

const fn fourcc(s: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*s)
}

/// The pixels of a legacy (pre-DX10) header.
fn legacy_pixels(spf: &ddsfile::PixelFormat) -> Result<Pixels> {
    use TextureFormat as F;
    if let Some(FourCC(code)) = spf.fourcc {
        let f = match code {
            FourCC::DXT1 => F::Bc1RgbaUnorm,
            FourCC::DXT2 | FourCC::DXT3 => F::Bc2Unorm,
            FourCC::DXT4 | FourCC::DXT5 => F::Bc3Unorm,
            c if c == FourCC::ATI1 || c == fourcc(b"BC4U") => F::Bc4Unorm,
            c if c == fourcc(b"BC4S") => F::Bc4Snorm,
            c if c == FourCC::ATI2 || c == fourcc(b"BC5U") => F::Bc5Unorm,
            c if c == fourcc(b"BC5S") => F::Bc5Snorm,
            FourCC::A16B16G16R16 => F::Rgba16Unorm,
            FourCC::Q16W16V16U16 => F::Rgba16Snorm,
            FourCC::R16F => F::R16Float,
            FourCC::G16R16F => F::Rg16Float,
            FourCC::A16B16G16R16F => F::Rgba16Float,
            FourCC::R32F => F::R32Float,
            FourCC::G32R32F => F::Rg32Float,
            FourCC::A32B32G32R32F => F::Rgba32Float,
            c => {
                return Err(err(format!(
                    "{} is not a supported legacy format",
                    fourcc_text(c)
                )))
            }
        };
        return Ok(Pixels::Direct(f));
    }
    let flags = spf.flags;
    let a = spf.a_bit_mask.unwrap_or(0);
    if flags.contains(PixelFormatFlags::RGB) {
        let bits = spf.rgb_bit_count.unwrap_or(0);
        let masks = [
            spf.r_bit_mask.unwrap_or(0),
            spf.g_bit_mask.unwrap_or(0),
            spf.b_bit_mask.unwrap_or(0),
            if flags.contains(PixelFormatFlags::ALPHA_PIXELS) {
                a
            } else {
                0
            },
        ];
        check_masks(bits, &masks)?;
        let exact = match (bits, masks) {
            (32, [0xff_0000, 0xff00, 0xff, 0xff00_0000]) => Some(F::Bgra8Unorm),
            (32, [0xff, 0xff00, 0xff_0000, 0xff00_0000]) => Some(F::Rgba8Unorm),
            (32, [0x3ff, 0xffc00, 0x3ff0_0000, 0xc000_0000]) => Some(F::A2bgr10Unorm),
            (32, [0x3ff0_0000, 0xffc00, 0x3ff, 0xc000_0000]) => Some(F::A2rgb10Unorm),
            (32, [0xffff, 0xffff_0000, 0, 0]) => Some(F::Rg16Unorm),
            (16, [0xf800, 0x7e0, 0x1f, 0]) => Some(F::R5g6b5Unorm),
            (16, [0x7c00, 0x3e0, 0x1f, 0x8000]) => Some(F::A1rgb5Unorm),
            (16, [0xff, 0xff00, 0, 0]) => Some(F::Rg8Unorm),
            (16, [0xffff, 0, 0, 0]) => Some(F::R16Unorm),
            (8, [0xff, 0, 0, 0]) => Some(F::R8Unorm),
            _ => None,
        };
        return Ok(exact.map_or_else(|| masked(bits, masks, false), Pixels::Direct));
    }
    if flags.contains(PixelFormatFlags::LUMINANCE) {
        let bits = spf.rgb_bit_count.unwrap_or(0);
        if !matches!(bits, 8 | 16) {
            return Err(err(format!("{bits}-bit luminance is not supported")));
        }
        let full = (1u32 << bits) - 1;
        let mut a = if flags.contains(PixelFormatFlags::ALPHA_PIXELS) {
            a
        } else {
            0
        };
        if a & !full != 0 {
            // Pillow writes 16-bit L+A with alpha mask 0xFF000000; its
            // bytes are L then A, so alpha is the high half of the word.
            a = full & !(full >> (bits / 2));
        }
        // `ddsfile` keeps no luminance mask: luminance is what alpha is not.
        let l = full & !a;
        return Ok(match (bits, a) {
            (8, 0) => Pixels::Direct(F::R8Unorm),
            (16, 0) => Pixels::Direct(F::R16Unorm),
            _ => masked(bits, [l, l, l, a], false),
        });
    }
    if flags.contains(PixelFormatFlags::ALPHA) && a == 0xff {
        return Ok(Pixels::Direct(F::A8Unorm));
    }
    Err(err(format!(
        "pixel format flags {:#x} (no FourCC, RGB, luminance or 8-bit alpha) are not supported",
        flags.bits()
    )))
}

/// Bitmask layouts the converter can read: 8 to 32 whole-byte bits, masks
/// of contiguous bits inside the word.
fn check_masks(bits: u32, masks: &[u32; 4]) -> Result<()> {
    if !matches!(bits, 8 | 16 | 24 | 32) {
        return Err(err(format!("{bits}-bit RGB pixels are not supported")));
    }
    let full = if bits == 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    };
    for &m in masks {
        let contiguous = m == 0 || (m >> m.trailing_zeros()).trailing_ones() == m.count_ones();
        if m & !full != 0 || !contiguous {
            return Err(err(format!(
                "channel mask {m:#x} does not fit a {bits}-bit pixel"
            )));
        }
    }
    if masks[..3].iter().all(|&m| m == 0) {
        return Err(err("RGB pixel format with no colour masks"));
    }
    Ok(())
}

/// The pixels of a DX10 header's DXGI format.
fn dxgi_pixels(f: DxgiFormat) -> Result<Pixels> {
    use DxgiFormat as D;
    use TextureFormat as F;
    let direct = match f {
        D::R32G32B32A32_Typeless | D::R32G32B32A32_UInt => F::Rgba32Uint,
        D::R32G32B32A32_Float => F::Rgba32Float,
        D::R32G32B32A32_SInt => F::Rgba32Sint,
        D::R32G32B32_Typeless | D::R32G32B32_UInt => F::Rgb32Uint,
        D::R32G32B32_Float => F::Rgb32Float,
        D::R32G32B32_SInt => F::Rgb32Sint,
        D::R16G16B16A16_Typeless | D::R16G16B16A16_UNorm => F::Rgba16Unorm,
        D::R16G16B16A16_Float => F::Rgba16Float,
        D::R16G16B16A16_UInt => F::Rgba16Uint,
        D::R16G16B16A16_SNorm => F::Rgba16Snorm,
        D::R16G16B16A16_SInt => F::Rgba16Sint,
        D::R32G32_Typeless | D::R32G32_UInt => F::Rg32Uint,
        D::R32G32_Float => F::Rg32Float,
        D::R32G32_SInt => F::Rg32Sint,
        D::D32_Float_S8X24_UInt | D::R32G8X24_Typeless => F::Depth32FloatS8Uint,
        D::R10G10B10A2_Typeless | D::R10G10B10A2_UNorm => F::A2bgr10Unorm,
        D::R10G10B10A2_UInt => F::A2bgr10Uint,
        D::R11G11B10_Float => F::Rg11b10Ufloat,
        D::R8G8B8A8_Typeless | D::R8G8B8A8_UNorm => F::Rgba8Unorm,
        D::R8G8B8A8_UNorm_sRGB => F::Rgba8Srgb,
        D::R8G8B8A8_UInt => F::Rgba8Uint,
        D::R8G8B8A8_SNorm => F::Rgba8Snorm,
        D::R8G8B8A8_SInt => F::Rgba8Sint,
        D::R16G16_Typeless | D::R16G16_UNorm => F::Rg16Unorm,
        D::R16G16_Float => F::Rg16Float,
        D::R16G16_UInt => F::Rg16Uint,
        D::R16G16_SNorm => F::Rg16Snorm,
        D::R16G16_SInt => F::Rg16Sint,
        D::D32_Float => F::Depth32Float,
        D::R32_Typeless | D::R32_Float => F::R32Float,
        D::R32_UInt => F::R32Uint,
        D::R32_SInt => F::R32Sint,
        D::R24G8_Typeless | D::D24_UNorm_S8_UInt => F::Depth24UnormS8Uint,
        D::R24_UNorm_X8_Typeless => F::Depth24UnormX8,
        D::R8G8_Typeless | D::R8G8_UNorm => F::Rg8Unorm,
        D::R8G8_UInt => F::Rg8Uint,
        D::R8G8_SNorm => F::Rg8Snorm,
        D::R8G8_SInt => F::Rg8Sint,
        D::R16_Float => F::R16Float,
        D::D16_UNorm => F::Depth16Unorm,
        D::R16_Typeless | D::R16_UNorm => F::R16Unorm,
        D::R16_UInt => F::R16Uint,
        D::R16_SNorm => F::R16Snorm,
        D::R16_SInt => F::R16Sint,
        D::R8_Typeless | D::R8_UNorm => F::R8Unorm,
        D::R8_UInt => F::R8Uint,
        D::R8_SNorm => F::R8Snorm,
        D::R8_SInt => F::R8Sint,
        D::A8_UNorm => F::A8Unorm,
        D::R9G9B9E5_SharedExp => F::Rgb9e5Ufloat,
        D::BC1_Typeless | D::BC1_UNorm => F::Bc1RgbaUnorm,
        D::BC1_UNorm_sRGB => F::Bc1RgbaSrgb,
        D::BC2_Typeless | D::BC2_UNorm => F::Bc2Unorm,
        D::BC2_UNorm_sRGB => F::Bc2Srgb,
        D::BC3_Typeless | D::BC3_UNorm => F::Bc3Unorm,
        D::BC3_UNorm_sRGB => F::Bc3Srgb,
        D::BC4_Typeless | D::BC4_UNorm => F::Bc4Unorm,
        D::BC4_SNorm => F::Bc4Snorm,
        D::BC5_Typeless | D::BC5_UNorm => F::Bc5Unorm,
        D::BC5_SNorm => F::Bc5Snorm,
        D::B5G6R5_UNorm => F::R5g6b5Unorm,
        D::B5G5R5A1_UNorm => F::A1rgb5Unorm,
        D::B8G8R8A8_Typeless | D::B8G8R8A8_UNorm => F::Bgra8Unorm,
        D::B8G8R8A8_UNorm_sRGB => F::Bgra8Srgb,
        D::BC6H_Typeless | D::BC6H_UF16 => F::Bc6hUfloat,
        D::BC6H_SF16 => F::Bc6hSfloat,
        D::BC7_Typeless | D::BC7_UNorm => F::Bc7Unorm,
        D::BC7_UNorm_sRGB => F::Bc7Srgb,
        D::ASTC_4x4_Typeless | D::ASTC_4x4_UNorm => F::Astc4x4Unorm,
        D::ASTC_4x4_UNorm_sRGB => F::Astc4x4Srgb,
        D::ASTC_5x4_Typeless | D::ASTC_5x4_UNorm => F::Astc5x4Unorm,
        D::ASTC_5x4_UNorm_sRGB => F::Astc5x4Srgb,
        D::ASTC_5x5_Typeless | D::ASTC_5x5_UNorm => F::Astc5x5Unorm,
        D::ASTC_5x5_UNorm_sRGB => F::Astc5x5Srgb,
        D::ASTC_6x5_Typeless | D::ASTC_6x5_UNorm => F::Astc6x5Unorm,
        D::ASTC_6x5_UNorm_sRGB => F::Astc6x5Srgb,
        D::ASTC_6x6_Typeless | D::ASTC_6x6_UNorm => F::Astc6x6Unorm,
        D::ASTC_6x6_UNorm_sRGB => F::Astc6x6Srgb,
        D::ASTC_8x5_Typeless | D::ASTC_8x5_UNorm => F::Astc8x5Unorm,
        D::ASTC_8x5_UNorm_sRGB => F::Astc8x5Srgb,
        D::ASTC_8x6_Typeless | D::ASTC_8x6_UNorm => F::Astc8x6Unorm,
        D::ASTC_8x6_UNorm_sRGB => F::Astc8x6Srgb,
        D::ASTC_8x8_Typeless | D::ASTC_8x8_UNorm => F::Astc8x8Unorm,
        D::ASTC_8x8_UNorm_sRGB => F::Astc8x8Srgb,
        D::ASTC_10x5_Typeless | D::ASTC_10x5_UNorm => F::Astc10x5Unorm,
        D::ASTC_10x5_UNorm_sRGB => F::Astc10x5Srgb,
        D::ASTC_10x6_Typeless | D::ASTC_10x6_UNorm => F::Astc10x6Unorm,
        D::ASTC_10x6_UNorm_sRGB => F::Astc10x6Srgb,
        D::ASTC_10x8_Typeless | D::ASTC_10x8_UNorm => F::Astc10x8Unorm,
        D::ASTC_10x8_UNorm_sRGB => F::Astc10x8Srgb,
        D::ASTC_10x10_Typeless | D::ASTC_10x10_UNorm => F::Astc10x10Unorm,
        D::ASTC_10x10_UNorm_sRGB => F::Astc10x10Srgb,
        D::ASTC_12x10_Typeless | D::ASTC_12x10_UNorm => F::Astc12x10Unorm,
        D::ASTC_12x10_UNorm_sRGB => F::Astc12x10Srgb,
        D::ASTC_12x12_Typeless | D::ASTC_12x12_UNorm => F::Astc12x12Unorm,
        D::ASTC_12x12_UNorm_sRGB => F::Astc12x12Srgb,
        // No Vulkan twin in our table: expand to RGBA8.
        D::B8G8R8X8_Typeless | D::B8G8R8X8_UNorm => {
            return Ok(masked(32, [0xff_0000, 0xff00, 0xff, 0], false))
        }
        D::B8G8R8X8_UNorm_sRGB => return Ok(masked(32, [0xff_0000, 0xff00, 0xff, 0], true)),
        D::B4G4R4A4_UNorm => return Ok(masked(16, [0xf00, 0xf0, 0xf, 0xf000], false)),
        other => {
            return Err(err(format!(
                "DXGI format {other:?} ({}) is not supported",
                other as u32
            )))
        }
    };
    Ok(Pixels::Direct(direct))
}

/// Reads a DDS file: every mip of every layer, face or slice it holds.
///
/// Errors (all [`ErrorKind::Container`](crate::ErrorKind::Container)) for a
/// malformed or truncated file, a
/// format quadtex cannot hold (YUV, palettes, partial cube maps, ...) and
/// headers that describe no valid texture (the limits of
/// [`TextureDesc::validate`]). The texel data is checked against the
/// header before anything is allocated; what is allocated is the texture,
/// at most four times the data it is made of (8-bit grey expands to
/// RGBA8).
pub fn read_dds(bytes: &[u8]) -> Result<Texture> {
    read_dds_limited(bytes, MAX_BYTES)
}

/// [`read_dds`] refusing textures of more than `max_texture_bytes`.
pub(super) fn read_dds_limited(bytes: &[u8], max_texture_bytes: u64) -> Result<Texture> {
    let Some(mut rest) = bytes.strip_prefix(b"DDS ") else {
        return Err(err("missing the `DDS ` magic number"));
    };
    let header = ddsfile::Header::read(&mut rest).map_err(|e| err(format!("header: {e}")))?;
    let header10 = if header.spf.fourcc == Some(FourCC(FourCC::DX10)) {
        Some(ddsfile::Header10::read(&mut rest).map_err(|e| err(format!("DX10 header: {e}")))?)
    } else {
        None
    };
    let data = rest;

    let pixels = match &header10 {
        Some(h10) => dxgi_pixels(h10.dxgi_format)?,
        None => legacy_pixels(&header.spf)?,
    };
    // Volumes need DDSD_DEPTH (as DirectXTex requires): without it the
    // depth field is not meant, and guessing 1 would drop slices silently.
    let volume_depth = || {
        header
            .depth
            .filter(|&d| d > 0)
            .ok_or_else(|| err("volume texture without a depth (DDSD_DEPTH unset or 0)"))
    };
    let (kind, layers, depth) = match &header10 {
        Some(h10) => {
            // Pillow 13 writes arraySize 0 for a plain 2D texture; read it
            // as 1 rather than refuse files that exist (DirectXTex refuses).
            let n = h10.array_size.max(1);
            let cube = h10.misc_flag.contains(MiscFlag::TEXTURECUBE);
            match h10.resource_dimension {
                D3D10ResourceDimension::Texture1D if n == 1 => (TextureKind::D1, 1, 1),
                D3D10ResourceDimension::Texture1D => (TextureKind::D1Array, n, 1),
                D3D10ResourceDimension::Texture2D if cube => {
                    let faces = n
                        .checked_mul(6)
                        .ok_or_else(|| err(format!("arraySize {n} cubes overflows")))?;
                    let kind = if n == 1 {
                        TextureKind::Cube
                    } else {
                        TextureKind::CubeArray
                    };
                    (kind, faces, 1)
                }
                D3D10ResourceDimension::Texture2D if n == 1 => (TextureKind::D2, 1, 1),
                D3D10ResourceDimension::Texture2D => (TextureKind::D2Array, n, 1),
                D3D10ResourceDimension::Texture3D if n == 1 => {
                    (TextureKind::D3, 1, volume_depth()?)
                }
                D3D10ResourceDimension::Texture3D => {
                    return Err(err("arrays of 3D textures are not supported"))
                }
                other => {
                    return Err(err(format!(
                        "resource dimension {other:?} is not a texture"
                    )))
                }
            }
        }
        None if header.caps2.contains(Caps2::CUBEMAP) => {
            if !header.caps2.contains(Caps2::CUBEMAP_ALLFACES) {
                return Err(err("cube maps without all six faces are not supported"));
            }
            (TextureKind::Cube, 6, 1)
        }
        None if header.caps2.contains(Caps2::VOLUME) => (TextureKind::D3, 1, volume_depth()?),
        None => (TextureKind::D2, 1, 1),
    };
    let desc = TextureDesc {
        kind,
        format: pixels.format(),
        width: header.width,
        height: header.height,
        depth,
        layers,
        levels: header.mip_map_count.unwrap_or(1).max(1),
        samples: 1,
        no_mipmap: false,
    };
    desc.validate()
        .map_err(|e| err(format!("the header describes no valid texture: {e}")))?;
    super::check_size(CONTAINER, &desc, max_texture_bytes)?;

    // Where each level of layer 0 starts in the file, and how long one
    // layer's mip chain is; all checked against the data before allocating.
    let overflow = || err("texture size overflows");
    let mut level_starts = Vec::with_capacity(desc.levels as usize);
    let mut level_sizes = Vec::with_capacity(desc.levels as usize);
    let mut stride = 0u64;
    for l in 0..desc.levels {
        let n = pixels.file_level_bytes(&desc, l).ok_or_else(overflow)?;
        level_starts.push(stride);
        level_sizes.push(n);
        stride = stride.checked_add(n).ok_or_else(overflow)?;
    }
    let needed = stride.checked_mul(layers as u64).ok_or_else(overflow)?;
    if (data.len() as u64) < needed {
        return Err(err(format!(
            "texel data is {} bytes, the header describes {needed}",
            data.len()
        )));
    }

    let mut out = LinearBuilder::new(desc)?;
    let mut scratch = Vec::new();
    for l in 0..desc.levels as usize {
        for layer in 0..layers as u64 {
            let start = (layer * stride + level_starts[l]) as usize;
            let src = &data[start..start + level_sizes[l] as usize];
            match pixels {
                Pixels::Direct(_) => out.extend_from_slice(src)?,
                Pixels::Masked { bits, .. } => {
                    // 16384 pixels at a time: the scratch stays small.
                    for part in src.chunks(bits as usize / 8 * 16384) {
                        scratch.clear();
                        pixels.convert(part, &mut scratch);
                        out.extend_from_slice(&scratch)?;
                    }
                }
            }
        }
    }
    out.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pf(flags: PixelFormatFlags, bits: u32, masks: [u32; 4]) -> ddsfile::PixelFormat {
        ddsfile::PixelFormat {
            size: 32,
            flags,
            fourcc: None,
            rgb_bit_count: Some(bits),
            r_bit_mask: Some(masks[0]),
            g_bit_mask: Some(masks[1]),
            b_bit_mask: Some(masks[2]),
            a_bit_mask: Some(masks[3]),
        }
    }

    #[test]
    fn a8r8g8b8_is_bgra8_and_x8r8g8b8_expands_with_opaque_alpha() {
        let rgba = PixelFormatFlags::RGB | PixelFormatFlags::ALPHA_PIXELS;
        let p = legacy_pixels(&pf(rgba, 32, [0xff_0000, 0xff00, 0xff, 0xff00_0000])).unwrap();
        assert_eq!(p, Pixels::Direct(TextureFormat::Bgra8Unorm));
        let p =
            legacy_pixels(&pf(PixelFormatFlags::RGB, 32, [0xff_0000, 0xff00, 0xff, 0])).unwrap();
        assert_eq!(p.format(), TextureFormat::Rgba8Unorm);
        let mut out = Vec::new();
        p.convert(&[1, 2, 3, 0], &mut out);
        assert_eq!(out, [3, 2, 1, 255]);
    }

    #[test]
    fn a4r4g4b4_expands_exactly_to_8_bits() {
        let rgba = PixelFormatFlags::RGB | PixelFormatFlags::ALPHA_PIXELS;
        let p = legacy_pixels(&pf(rgba, 16, [0xf00, 0xf0, 0xf, 0xf000])).unwrap();
        let mut out = Vec::new();
        // A=0xF, R=0x8, G=0x1, B=0x0: 4-bit v becomes 17 v.
        p.convert(&0xf810u16.to_le_bytes(), &mut out);
        assert_eq!(out, [0x88, 0x11, 0x00, 0xff]);
    }

    #[test]
    fn luminance_alpha_becomes_grey_rgba() {
        let la = PixelFormatFlags::LUMINANCE | PixelFormatFlags::ALPHA_PIXELS;
        // Pillow's alpha mask, outside a 16-bit pixel.
        let p = legacy_pixels(&pf(la, 16, [0, 0, 0, 0xff00_0000])).unwrap();
        let mut out = Vec::new();
        p.convert(&[40, 200], &mut out);
        assert_eq!(out, [40, 40, 40, 200]);
    }

    #[test]
    fn masks_outside_the_pixel_are_an_error() {
        let p = legacy_pixels(&pf(PixelFormatFlags::RGB, 16, [0xff_0000, 0xff00, 0xff, 0]));
        assert_eq!(p.unwrap_err().kind(), crate::ErrorKind::Container);
    }
}
