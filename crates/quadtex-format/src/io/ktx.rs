//! KTX2 (Khronos KTX 2.0): read through the `ktx2` crate's parser, written
//! here by hand.
//!
//! Every [`TextureFormat`] has a `vkFormat` ([`vk_format`]); every kind but
//! the multisample ones maps onto KTX2's `pixelHeight`/`pixelDepth` (0 when
//! the dimension is absent), `layerCount` (0 for non-arrays) and `faceCount`
//! (6 for cubes). KTX2 stores a level as layer, face, z, y, x: with our layer
//! index `6 * cube + face` that is exactly our (layer, z, y, x), so a level
//! moves as one block of bytes. One exception: KTX2 (like the reference
//! `dfdutils`) puts the stencil of `D24_UNORM_S8_UINT` in the low byte and
//! the depth in bits 8..32, where we keep depth in 23:0 and stencil in 31:24;
//! both directions swizzle.
//!
//! Reading accepts no supercompression or Zstandard (decoded with `ruzstd`);
//! BasisLZ and UASTC (Basis Universal), ZLIB and `VK_FORMAT_UNDEFINED` are
//! [`ErrorKind::Container`](crate::ErrorKind::Container) errors. Writing
//! emits no supercompression, the
//! Basic Data Format Descriptor that `ktx2::dfd::Basic::from_format`
//! generates (the `ktx2` crate checks its table against the KTX reference
//! validator), a `KTXwriter` key, and the levels smallest first, each at a
//! multiple of `lcm(texel block size, 4)`, as the specification's "mip
//! padding" section requires.

use std::io::Read;

use crate::desc::{TextureKind, MAX_BYTES};
use crate::error::{Error, Result};
use crate::format::TextureFormat;
use crate::texture::{LinearBuilder, Texture};
use crate::TextureDesc;

const CONTAINER: &str = "KTX2";

fn err(reason: impl Into<String>) -> Error {
    Error::container(CONTAINER, reason)
}

/// The `VkFormat` value of `format` (KTX2's `vkFormat` field).
pub const fn vk_format(format: TextureFormat) -> u32 {
    use TextureFormat as F;
    match format {
        F::R8Unorm => 9,
        F::R8Snorm => 10,
        F::R8Uint => 13,
        F::R8Sint => 14,
        F::R8Srgb => 15,
        F::Rg8Unorm => 16,
        F::Rg8Snorm => 17,
        F::Rg8Uint => 20,
        F::Rg8Sint => 21,
        F::Rg8Srgb => 22,
        F::Rgba8Unorm => 37,
        F::Rgba8Snorm => 38,
        F::Rgba8Uint => 41,
        F::Rgba8Sint => 42,
        F::Rgba8Srgb => 43,
        F::Bgra8Unorm => 44,
        F::Bgra8Snorm => 45,
        F::Bgra8Uint => 48,
        F::Bgra8Sint => 49,
        F::Bgra8Srgb => 50,
        F::R16Unorm => 70,
        F::R16Snorm => 71,
        F::R16Uint => 74,
        F::R16Sint => 75,
        F::R16Float => 76,
        F::Rg16Unorm => 77,
        F::Rg16Snorm => 78,
        F::Rg16Uint => 81,
        F::Rg16Sint => 82,
        F::Rg16Float => 83,
        F::Rgba16Unorm => 91,
        F::Rgba16Snorm => 92,
        F::Rgba16Uint => 95,
        F::Rgba16Sint => 96,
        F::Rgba16Float => 97,
        F::R32Uint => 98,
        F::R32Sint => 99,
        F::R32Float => 100,
        F::Rg32Uint => 101,
        F::Rg32Sint => 102,
        F::Rg32Float => 103,
        F::Rgb32Uint => 104,
        F::Rgb32Sint => 105,
        F::Rgb32Float => 106,
        F::Rgba32Uint => 107,
        F::Rgba32Sint => 108,
        F::Rgba32Float => 109,
        F::R5g6b5Unorm => 4,
        F::B5g6r5Unorm => 5,
        F::Rgba4Unorm => 2,
        F::Rgb5a1Unorm => 6,
        F::A1rgb5Unorm => 8,
        F::A2bgr10Unorm => 64,
        F::A2bgr10Uint => 68,
        F::A2rgb10Unorm => 58,
        F::Rg11b10Ufloat => 122,
        F::Rgb9e5Ufloat => 123,
        F::A8Unorm => 1000470001,
        F::Depth16Unorm => 124,
        F::Depth24UnormX8 => 125,
        F::Depth24UnormS8Uint => 129,
        F::Depth32Float => 126,
        F::Depth32FloatS8Uint => 130,
        F::Stencil8 => 127,
        F::Bc1RgbUnorm => 131,
        F::Bc1RgbSrgb => 132,
        F::Bc1RgbaUnorm => 133,
        F::Bc1RgbaSrgb => 134,
        F::Bc2Unorm => 135,
        F::Bc2Srgb => 136,
        F::Bc3Unorm => 137,
        F::Bc3Srgb => 138,
        F::Bc4Unorm => 139,
        F::Bc4Snorm => 140,
        F::Bc5Unorm => 141,
        F::Bc5Snorm => 142,
        F::Bc6hUfloat => 143,
        F::Bc6hSfloat => 144,
        F::Bc7Unorm => 145,
        F::Bc7Srgb => 146,
        F::Etc2Rgb8Unorm => 147,
        F::Etc2Rgb8Srgb => 148,
        F::Etc2Rgb8A1Unorm => 149,
        F::Etc2Rgb8A1Srgb => 150,
        F::Etc2Rgba8Unorm => 151,
        F::Etc2Rgba8Srgb => 152,
        F::EacR11Unorm => 153,
        F::EacR11Snorm => 154,
        F::EacRg11Unorm => 155,
        F::EacRg11Snorm => 156,
        F::Astc4x4Unorm => 157,
        F::Astc4x4Srgb => 158,
        F::Astc5x4Unorm => 159,
        F::Astc5x4Srgb => 160,
        F::Astc5x5Unorm => 161,
        F::Astc5x5Srgb => 162,
        F::Astc6x5Unorm => 163,
        F::Astc6x5Srgb => 164,
        F::Astc6x6Unorm => 165,
        F::Astc6x6Srgb => 166,
        F::Astc8x5Unorm => 167,
        F::Astc8x5Srgb => 168,
        F::Astc8x6Unorm => 169,
        F::Astc8x6Srgb => 170,
        F::Astc8x8Unorm => 171,
        F::Astc8x8Srgb => 172,
        F::Astc10x5Unorm => 173,
        F::Astc10x5Srgb => 174,
        F::Astc10x6Unorm => 175,
        F::Astc10x6Srgb => 176,
        F::Astc10x8Unorm => 177,
        F::Astc10x8Srgb => 178,
        F::Astc10x10Unorm => 179,
        F::Astc10x10Srgb => 180,
        F::Astc12x10Unorm => 181,
        F::Astc12x10Srgb => 182,
        F::Astc12x12Unorm => 183,
        F::Astc12x12Srgb => 184,
    }
}

/// The format whose `VkFormat` value is `vk`, if quadtex has it.
pub fn format_from_vk(vk: u32) -> Option<TextureFormat> {
    TextureFormat::ALL
        .iter()
        .copied()
        .find(|&f| vk_format(f) == vk)
}

/// Reads a KTX2 file: every level, layer and face it holds.
///
/// Errors (all [`ErrorKind::Container`](crate::ErrorKind::Container)) for a
/// malformed or truncated file
/// (a `dfdTotalSize` that disagrees with `dfdByteLength` or with the
/// descriptor blocks' own sizes included), a `vkFormat` quadtex lacks,
/// Basis Universal content (BasisLZ or UASTC), ZLIB supercompression, and
/// headers that describe no valid texture (the sizes of
/// [`TextureDesc::validate`], whose [`MAX_BYTES`] caps the whole texture).
///
/// Every level's size is computed from the format, extent, layers and
/// faces; a level must hold exactly that (its `uncompressedByteLength` for
/// Zstandard levels), checked before any texel storage is allocated.
/// Zstandard levels are decompressed straight into the texture's storage,
/// which is written only as decoded bytes arrive: a frame that decodes to
/// less or to more is an error, found no later than one byte past the
/// level's size, and a frame that keeps its word costs the texture once.
pub fn read_ktx2(bytes: &[u8]) -> Result<Texture> {
    read_ktx2_limited(bytes, MAX_BYTES)
}

/// [`read_ktx2`] refusing textures of more than `max_texture_bytes`.
pub(super) fn read_ktx2_limited(bytes: &[u8], max_texture_bytes: u64) -> Result<Texture> {
    check_dfd(bytes)?;
    let reader = ktx2::Reader::new(bytes).map_err(|e| err(e.to_string()))?;
    let header = reader.header();
    let zstd = match header.supercompression_scheme {
        None => false,
        Some(ktx2::SupercompressionScheme::Zstandard) => true,
        Some(ktx2::SupercompressionScheme::BasisLZ) => {
            return Err(err(
                "Basis Universal (BasisLZ/ETC1S) supercompression is not supported: \
                 transcode to a GPU format first (ktx transcode)",
            ))
        }
        Some(s) => {
            return Err(err(format!(
                "supercompression scheme {s:?} is not supported (only Zstandard)"
            )))
        }
    };
    let Some(vk) = header.format else {
        let model = reader.basic_dfd().and_then(|b| b.color_model);
        return Err(match model {
            Some(ktx2::ColorModel::UASTC) | Some(ktx2::ColorModel::ETC1S) => {
                err("Basis Universal (UASTC/ETC1S) content is not supported: \
                 transcode to a GPU format first (ktx transcode)")
            }
            _ => err("vkFormat is VK_FORMAT_UNDEFINED; quadtex needs a concrete format"),
        });
    };
    let format = format_from_vk(vk.value()).ok_or_else(|| {
        err(format!(
            "vkFormat {} ({vk:?}) is not a format quadtex supports",
            vk.value()
        ))
    })?;
    let desc = desc_from_header(&header, format)?;
    desc.validate()
        .map_err(|e| err(format!("the header describes no valid texture: {e}")))?;
    let cap = if zstd {
        max_texture_bytes.min(super::MAX_ZSTD_BYTES)
    } else {
        max_texture_bytes
    };
    super::check_size(CONTAINER, &desc, cap)?;

    // Every level's size is checked before texel storage is allocated: a
    // plain level must be in the file, so the file's length bounds the
    // texture; a zstd level must claim exactly the size the header implies.
    let levels: Vec<ktx2::Level<'_>> = reader.levels().collect();
    if levels.len() != desc.levels as usize {
        return Err(err(format!(
            "level index has {} entries for {} levels",
            levels.len(),
            desc.levels
        )));
    }
    let mut sizes = Vec::with_capacity(levels.len());
    for (l, level) in levels.iter().enumerate() {
        let expected = level_size(&desc, l as u32)?;
        let stored = if zstd {
            level.uncompressed_byte_length
        } else {
            level.data.len() as u64
        };
        if stored != expected {
            return Err(err(format!(
                "level {l} holds {stored} bytes, the header implies {expected}"
            )));
        }
        sizes.push(usize::try_from(expected).map_err(|_| err(format!("level {l} is too large")))?);
    }

    let mut out = LinearBuilder::new(desc)?;
    for (l, (level, &size)) in levels.iter().zip(&sizes).enumerate() {
        if zstd {
            decompress_level(l, level.data, size, &mut out)?;
        } else {
            out.extend_from_slice(level.data)?;
        }
    }
    let mut texture = out.finish()?;
    if format == TextureFormat::Depth24UnormS8Uint {
        // Linear storage is the file's byte order.
        d24s8_from_ktx(texture.bytes_mut());
    }
    Ok(texture)
}

/// Decompresses level `l`, a Zstandard frame that must decode to exactly
/// `size` bytes, onto the end of `out`.
fn decompress_level(l: usize, src: &[u8], size: usize, out: &mut LinearBuilder) -> Result<()> {
    let zstd_err = |e: &dyn std::fmt::Display| err(format!("level {l}: zstd: {e}"));
    let mut decoder = ruzstd::decoding::StreamingDecoder::new(src).map_err(|e| zstd_err(&e))?;
    let mut got = 0;
    while got < size {
        let room = out.spare(size - got);
        let n = decoder.read(room).map_err(|e| zstd_err(&e))?;
        if n == 0 {
            return Err(err(format!(
                "level {l} decompresses to {got} bytes, expected {size}"
            )));
        }
        out.commit(n);
        got += n;
    }
    // One byte more would be past the level: the frame lies.
    if decoder.read(&mut [0u8]).map_err(|e| zstd_err(&e))? != 0 {
        return Err(err(format!(
            "level {l} decompresses to {}+ bytes, expected {size}",
            size + 1
        )));
    }
    Ok(())
}

/// Checks the Data Format Descriptor's own sizes, which the `ktx2` crate
/// does not: `dfdTotalSize` (its first word) must equal the index's
/// `dfdByteLength`, and the descriptor blocks after it must fill exactly
/// that many bytes (KTX 2.0 specification, "Data Format Descriptor").
/// Also refuses a Basic block whose `texelBlockDimension` byte is 255:
/// `ktx2` 0.5 adds 1 to it in a `u8` and panics. A DFD range outside the
/// file is left to `ktx2` to report.
fn check_dfd(bytes: &[u8]) -> Result<()> {
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    let (Some(offset), Some(length)) = (word(48), word(52)) else {
        return Ok(());
    };
    let Some(dfd) = bytes.get(offset as usize..(offset as usize).saturating_add(length as usize))
    else {
        return Ok(());
    };
    let Some(total) = dfd
        .get(..4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    else {
        return Err(err(format!(
            "dfdByteLength {length} is too short for dfdTotalSize"
        )));
    };
    if total != length {
        return Err(err(format!(
            "dfdTotalSize {total} disagrees with dfdByteLength {length}"
        )));
    }
    let mut blocks = &dfd[4..];
    let mut at = 4usize;
    while !blocks.is_empty() {
        let Some(&[h0, h1, h2, h3, _, _, s0, s1]) = blocks.first_chunk::<8>() else {
            return Err(err(format!(
                "DFD block at byte {at} is cut off: dfdTotalSize {total} leaves {} bytes \
                 for its 8-byte header",
                blocks.len()
            )));
        };
        let size = u16::from_le_bytes([s0, s1]) as usize;
        if size < 8 || size > blocks.len() {
            return Err(err(format!(
                "DFD block at byte {at} has descriptorBlockSize {size}, but dfdTotalSize \
                 {total} leaves {} bytes for it",
                blocks.len()
            )));
        }
        // vendorId 0 (Khronos), descriptorType 0: a Basic block, whose
        // texelBlockDimension0..3 are bytes 4..8 of its body.
        if [h0, h1, h2, h3] == [0; 4]
            && blocks[..size].get(12..16).is_some_and(|d| d.contains(&255))
        {
            return Err(err(
                "DFD texelBlockDimension of 256 texels is not supported",
            ));
        }
        blocks = &blocks[size..];
        at += size;
    }
    Ok(())
}

/// Bytes of one level of all layers and faces.
fn level_size(desc: &TextureDesc, level: u32) -> Result<u64> {
    desc.level_bytes(level)
        .and_then(|b| b.checked_mul(desc.layers as u64))
        .ok_or_else(|| err(format!("level {level} size overflows")))
}

/// The texture description a KTX2 header gives.
fn desc_from_header(h: &ktx2::Header, format: TextureFormat) -> Result<TextureDesc> {
    let (w, ht, d) = (h.pixel_width, h.pixel_height, h.pixel_depth);
    let (layers, faces) = (h.layer_count, h.face_count);
    let levels = h.level_count.max(1);
    if faces != 1 && faces != 6 {
        return Err(err(format!("faceCount {faces} is neither 1 nor 6")));
    }
    let (kind, layer_total) = if d > 0 {
        if ht == 0 {
            return Err(err("pixelDepth is set but pixelHeight is 0"));
        }
        if faces == 6 {
            return Err(err("a cube map cannot have pixelDepth"));
        }
        if layers > 0 {
            return Err(err("arrays of 3D textures are not supported"));
        }
        (TextureKind::D3, 1)
    } else if faces == 6 {
        if ht == 0 {
            return Err(err("a cube map needs pixelHeight"));
        }
        if layers == 0 {
            (TextureKind::Cube, 6)
        } else {
            let n = layers
                .checked_mul(6)
                .ok_or_else(|| err(format!("layerCount {layers} cubes overflows")))?;
            (TextureKind::CubeArray, n)
        }
    } else if ht == 0 {
        if layers == 0 {
            (TextureKind::D1, 1)
        } else {
            (TextureKind::D1Array, layers)
        }
    } else if layers == 0 {
        (TextureKind::D2, 1)
    } else {
        (TextureKind::D2Array, layers)
    };
    Ok(TextureDesc {
        kind,
        format,
        width: w,
        height: ht.max(1),
        depth: d.max(1),
        layers: layer_total,
        levels,
        samples: 1,
        no_mipmap: false,
    })
}

/// Our `D24_UNORM_S8_UINT` words (depth 23:0, stencil 31:24) to KTX2's
/// (stencil 7:0, depth 31:8).
fn d24s8_to_ktx(data: &mut [u8]) {
    for t in data.as_chunks_mut::<4>().0 {
        let w = u32::from_le_bytes(*t);
        let k = ((w & 0x00ff_ffff) << 8) | (w >> 24);
        *t = k.to_le_bytes();
    }
}

/// KTX2's `D24_UNORM_S8_UINT` words to ours (see [`d24s8_to_ktx`]).
fn d24s8_from_ktx(data: &mut [u8]) {
    for t in data.as_chunks_mut::<4>().0 {
        let k = u32::from_le_bytes(*t);
        let w = (k >> 8) | ((k & 0xff) << 24);
        *t = w.to_le_bytes();
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn pad_to(out: &mut Vec<u8>, align: usize) {
    let n = out.len().next_multiple_of(align);
    out.resize(n, 0);
}

/// Writes `texture` as KTX2: every level, layer and face, uncompressed
/// (no supercompression), with a Basic Data Format Descriptor and a
/// `KTXwriter` key. Multisample textures are an error: KTX2 has none.
pub fn write_ktx2(texture: &Texture) -> Result<Vec<u8>> {
    let desc = *texture.desc();
    if desc.kind.is_multisample() || desc.samples != 1 {
        return Err(err(format!(
            "KTX2 cannot hold multisample textures ({} with {} samples)",
            desc.kind, desc.samples
        )));
    }
    let format = desc.format;
    let vk = ktx2::Format::new(vk_format(format))
        .ok_or_else(|| err(format!("{format} has no vkFormat")))?;
    let (basic, type_size) = ktx2::dfd::Basic::from_format(vk)
        .map_err(|e| err(format!("{format}: no data format descriptor: {e}")))?;
    let dfd_block = ktx2::dfd::Block::Basic(basic).to_vec();

    let levels = desc.levels as usize;
    let index_end = ktx2::Header::LENGTH + levels * ktx2::LevelIndex::LENGTH;
    let mut out = vec![0u8; index_end];

    let dfd_offset = out.len();
    let dfd_total = 4 + dfd_block.len();
    out.extend_from_slice(&(dfd_total as u32).to_le_bytes());
    out.extend_from_slice(&dfd_block);

    pad_to(&mut out, 4);
    let kvd_offset = out.len();
    let mut kv = b"KTXwriter\0".to_vec();
    kv.extend_from_slice(concat!("quadtex-format ", env!("CARGO_PKG_VERSION"), "\0").as_bytes());
    out.extend_from_slice(&(kv.len() as u32).to_le_bytes());
    out.extend_from_slice(&kv);
    pad_to(&mut out, 4);
    let kvd_length = out.len() - kvd_offset;

    // Level l's bytes, every layer and face, in our (= KTX2's) order.
    let linear = texture.to_linear_bytes();
    let mut starts = Vec::with_capacity(levels + 1);
    let mut pos = 0usize;
    for l in 0..desc.levels {
        starts.push(pos);
        pos += level_size(&desc, l)? as usize;
    }
    starts.push(pos);

    let block = format.block_bytes() as usize;
    let align = block / gcd(block, 4) * 4;
    let mut index = vec![(0u64, 0u64); levels];
    for l in (0..levels).rev() {
        pad_to(&mut out, align);
        let offset = out.len();
        let bytes = &linear[starts[l]..starts[l + 1]];
        out.extend_from_slice(bytes);
        if format == TextureFormat::Depth24UnormS8Uint {
            d24s8_to_ktx(&mut out[offset..]);
        }
        index[l] = (offset as u64, bytes.len() as u64);
    }

    let header = ktx2::Header {
        format: Some(vk),
        type_size,
        pixel_width: desc.width,
        pixel_height: if desc.kind.dimensions() == 1 {
            0
        } else {
            desc.height
        },
        pixel_depth: if desc.kind == TextureKind::D3 {
            desc.depth
        } else {
            0
        },
        layer_count: if desc.kind.is_array() {
            desc.array_elements()
        } else {
            0
        },
        face_count: if desc.kind.is_cube() { 6 } else { 1 },
        level_count: desc.levels,
        supercompression_scheme: None,
        index: ktx2::Index {
            dfd_byte_offset: dfd_offset as u32,
            dfd_byte_length: dfd_total as u32,
            kvd_byte_offset: kvd_offset as u32,
            kvd_byte_length: kvd_length as u32,
            sgd_byte_offset: 0,
            sgd_byte_length: 0,
        },
    };
    out[..ktx2::Header::LENGTH].copy_from_slice(&header.as_bytes());
    for (l, &(offset, length)) in index.iter().enumerate() {
        let entry = ktx2::LevelIndex {
            byte_offset: offset,
            byte_length: length,
            uncompressed_byte_length: length,
        };
        let at = ktx2::Header::LENGTH + l * ktx2::LevelIndex::LENGTH;
        out[at..at + ktx2::LevelIndex::LENGTH].copy_from_slice(&entry.as_bytes());
    }
    Ok(out)
}

/// Writes `texture` to `path` as KTX2 (see [`write_ktx2`]).
pub fn save_ktx2(texture: &Texture, path: impl AsRef<std::path::Path>) -> Result<()> {
    let bytes = write_ktx2(texture)?;
    super::write_file(path.as_ref(), &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texture::Layout;

    #[test]
    fn vk_format_numbers_carry_the_vulkan_names() {
        // The `ktx2` crate's `Format` constants are named after VkFormat, so
        // its Debug name of our number must be our Vulkan name.
        for &f in TextureFormat::ALL {
            let vk = ktx2::Format::new(vk_format(f)).unwrap();
            assert_eq!(format!("{vk:?}"), f.vulkan_name(), "{f}");
            assert_eq!(format_from_vk(vk_format(f)), Some(f));
        }
        assert_eq!(vk_format(TextureFormat::Rgba8Unorm), 37);
        assert_eq!(vk_format(TextureFormat::A8Unorm), 1_000_470_001);
        assert_eq!(format_from_vk(23), None); // R8G8B8_UNORM
    }

    #[test]
    fn every_format_has_a_data_format_descriptor() {
        for &f in TextureFormat::ALL {
            let vk = ktx2::Format::new(vk_format(f)).unwrap();
            let (basic, _) = ktx2::dfd::Basic::from_format(vk).unwrap();
            let (bw, bh) = f.block_extent();
            assert_eq!(basic.bytes_planes[0] as u32, f.block_bytes(), "{f}");
            assert_eq!(basic.texel_block_dimensions[0].get() as u32, bw, "{f}");
            assert_eq!(basic.texel_block_dimensions[1].get() as u32, bh, "{f}");
        }
    }

    #[test]
    fn a_dfd_block_dimension_of_256_is_an_error_not_a_panic() {
        let d = TextureDesc::d2(TextureFormat::Rgba8Unorm, 4, 4);
        let t = Texture::new(d, Layout::Linear).unwrap();
        let mut f = write_ktx2(&t).unwrap();
        let dfd = u32::from_le_bytes(f[48..52].try_into().unwrap()) as usize;
        // dfdTotalSize (4), block header (8), colour model..flags (4).
        f[dfd + 4 + 8 + 4] = 255;
        let e = read_ktx2(&f).unwrap_err();
        assert!(e.to_string().contains("texelBlockDimension"), "{e}");
    }

    #[test]
    fn d24s8_moves_stencil_to_the_low_byte_and_back() {
        // depth 0x123456, stencil 0xAB.
        let mut t = 0xAB12_3456u32.to_le_bytes();
        d24s8_to_ktx(&mut t);
        assert_eq!(u32::from_le_bytes(t), 0x1234_56AB);
        d24s8_from_ktx(&mut t);
        assert_eq!(u32::from_le_bytes(t), 0xAB12_3456);
    }
}
