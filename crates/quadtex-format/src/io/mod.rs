//! Containers: textures in and out of files.
//!
//! Reading: KTX2 ([`read_ktx2`]; every kind but multisample, zstd
//! supercompression), DDS ([`read_dds`]; legacy FourCC and bitmask headers,
//! DX10 headers, cubes, arrays, volumes, mips) and whatever the `image` crate
//! decodes (PNG, JPEG, TGA, BMP, Radiance HDR, OpenEXR; [`load_image`]).
//! [`load_bytes`] and [`load_file`] pick the reader by the file's magic bytes.
//!
//! Writing: KTX2 ([`write_ktx2`], every format and every non-multisample
//! kind) and one subresource as PNG for looking at ([`encode_png`]).
//!
//! Every reader takes untrusted bytes: sizes are checked against the file's
//! length before anything is allocated, and bad input is an
//! [`ErrorKind::Container`](crate::ErrorKind::Container) error, never a
//! panic. Mip generation lives in [`crate::mip`], not here: loaders
//! return the levels the file holds.
//!
//! Memory: a loaded texture takes at most [`MAX_BYTES`] (8 GiB, the limit
//! of [`crate::TextureDesc::validate`]), or the tighter cap given to
//! [`load_bytes_limited`]; a file describing more is refused before its
//! texels are allocated or decoded. Files that hold their texels plainly
//! (KTX2 without supercompression, DDS) are checked against their own
//! length first, so they cost at most a small multiple of their size.
//! Zstandard levels and image files decode to more than they hold: their
//! storage grows only as decoded bytes arrive, and decoding stops one byte
//! past the size the header implies. Allocation failure is an
//! [`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory) error, not an
//! abort.

use std::path::Path;

use crate::desc::{TextureDesc, MAX_BYTES};
use crate::error::{Error, Result};
use crate::texture::Texture;

mod dds;
mod ktx;
mod picture;
mod png;

pub use dds::read_dds;

/// The most texel bytes a Zstandard-supercompressed KTX2 file may
/// describe: 1 GiB. Such a file can describe far more than it holds (a
/// 64 KiB stream of RLE blocks decodes to 2 GiB), so with the default
/// limits its texture is refused above this before anything is allocated
/// or decompressed; [`load_bytes_limited`] takes a lower cap still. Plain
/// KTX2 and DDS files must hold every byte they describe (checked against
/// the file's length), so they are bounded by the file itself.
pub const MAX_ZSTD_BYTES: u64 = 1 << 30;

pub use ktx::{format_from_vk, read_ktx2, save_ktx2, vk_format, write_ktx2};
pub use picture::{from_rgba_image, load_image};
pub use png::{encode_png, save_png, save_png_slice};

/// How 8-bit colour from an image file is read: which of a format's sRGB
/// and UNORM twins it becomes. Only [`load_image`] (and so [`load_bytes`] on
/// PNG, JPEG, ... input) consults it; KTX2 and DDS files name their own
/// formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ColorSpace {
    /// 8-bit colour is sRGB-encoded (`R8G8B8A8_SRGB`, `R8_SRGB`), as image
    /// files almost always are: sampling decodes it to linear.
    #[default]
    Srgb,
    /// 8-bit colour is linear data (`R8G8B8A8_UNORM`, `R8_UNORM`): normal
    /// maps, masks, lookup tables.
    Linear,
}

/// What a byte buffer holds, by its magic bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContainerKind {
    /// Starts with the KTX 2.0 identifier `«KTX 20»\r\n\x1A\n`.
    Ktx2,
    /// Starts with `DDS `.
    Dds,
    /// Anything else: left to the `image` crate to recognise.
    Image,
}

/// The KTX 2.0 file identifier.
pub(crate) const KTX2_MAGIC: [u8; 12] = [
    0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A,
];
/// The KTX 1.1 identifier, recognised only to say it is not read.
const KTX1_MAGIC: [u8; 12] = [
    0xAB, 0x4B, 0x54, 0x58, 0x20, 0x31, 0x31, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A,
];

/// Which container `bytes` holds, by its first bytes.
pub fn detect(bytes: &[u8]) -> ContainerKind {
    if bytes.starts_with(&KTX2_MAGIC) {
        ContainerKind::Ktx2
    } else if bytes.starts_with(b"DDS ") {
        ContainerKind::Dds
    } else {
        ContainerKind::Image
    }
}

/// Loads a texture from a file's bytes, choosing the reader by magic bytes
/// ([`detect`]); image files are read as [`ColorSpace::Srgb`].
pub fn load_bytes(bytes: &[u8]) -> Result<Texture> {
    load_bytes_with(bytes, ColorSpace::Srgb)
}

/// [`load_bytes`] with the colour space 8-bit image files are read in.
pub fn load_bytes_with(bytes: &[u8], color_space: ColorSpace) -> Result<Texture> {
    load_bytes_limited(bytes, color_space, MAX_BYTES)
}

/// [`load_bytes_with`] with a cap on the texture's size: a file whose
/// texture takes more than `max_texture_bytes` bytes (every level, layer
/// and sample, as [`TextureDesc::total_bytes`] counts them) is an
/// [`ErrorKind::Container`](crate::ErrorKind::Container) error before any
/// of its texels are allocated or decoded.
/// The other loaders use [`MAX_BYTES`], the most any texture may take;
/// callers that must bound memory more tightly (a service, a fuzzer) pass
/// less. A cap above [`MAX_BYTES`] changes nothing.
pub fn load_bytes_limited(
    bytes: &[u8],
    color_space: ColorSpace,
    max_texture_bytes: u64,
) -> Result<Texture> {
    let max = max_texture_bytes.min(MAX_BYTES);
    match detect(bytes) {
        ContainerKind::Ktx2 => ktx::read_ktx2_limited(bytes, max),
        ContainerKind::Dds => dds::read_dds_limited(bytes, max),
        ContainerKind::Image if bytes.starts_with(&KTX1_MAGIC) => Err(Error::container(
            "KTX",
            "KTX 1.1 files are not read; convert to KTX2 (ktx convert)",
        )),
        ContainerKind::Image => picture::load_image_limited(bytes, color_space, None, max),
    }
}

/// Refuses `desc` (valid) when its texture takes more than `max` bytes.
pub(crate) fn check_size(container: &'static str, desc: &TextureDesc, max: u64) -> Result<()> {
    match desc.total_bytes() {
        Some(n) if n <= max => Ok(()),
        n => Err(Error::container(
            container,
            format!(
                "the texture takes {} bytes, more than the limit of {max}",
                n.map_or_else(|| "too many".to_owned(), |n| n.to_string())
            ),
        )),
    }
}

/// Loads a texture from a file (see [`load_bytes`]).
pub fn load_file(path: impl AsRef<Path>) -> Result<Texture> {
    load_file_with(path, ColorSpace::Srgb)
}

/// [`load_file`] with the colour space 8-bit image files are read in.
/// Errors name the file ([`Error::path`]); one that cannot be read is an
/// [`ErrorKind::Io`](crate::ErrorKind::Io) error, any other is of the kind
/// of what is wrong with the file.
pub fn load_file_with(path: impl AsRef<Path>, color_space: ColorSpace) -> Result<Texture> {
    let path = path.as_ref();
    let bytes = read_file(path)?;
    load_named(path, &bytes, color_space).map_err(|e| e.in_file(path))
}

/// [`load_bytes_with`] for the bytes of the file at `path`: a `.dds` or
/// `.ktx2` name without its container's magic bytes is that container's
/// error (not an image decoder's), and a name's extension tells TGA,
/// which has no magic number, from garbage.
fn load_named(path: &Path, bytes: &[u8], color_space: ColorSpace) -> Result<Texture> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let what = if bytes.is_empty() {
        "the file is empty".to_owned()
    } else {
        format!(
            "the file does not start with the magic bytes ({} bytes)",
            bytes.len()
        )
    };
    match (detect(bytes), ext.as_deref()) {
        (ContainerKind::Image, Some("dds")) => Err(Error::container("DDS", what)),
        (ContainerKind::Image, Some("ktx2")) if !bytes.starts_with(&KTX1_MAGIC) => {
            Err(Error::container("KTX2", what))
        }
        (ContainerKind::Image, _) if !bytes.starts_with(&KTX1_MAGIC) => {
            let hint = image::ImageFormat::from_path(path).ok();
            picture::load_image_limited(bytes, color_space, hint, MAX_BYTES)
        }
        _ => load_bytes_with(bytes, color_space),
    }
}

/// [`load_file_with`], then the full mip chain
/// ([`crate::mip::with_full_chain`]) when the file holds one level: a PNG
/// ready for trilinear sampling in one call. Block-compressed files keep
/// their own levels (there is no block encoder to make more).
pub fn load_file_mipmapped(path: impl AsRef<Path>, color_space: ColorSpace) -> Result<Texture> {
    let path = path.as_ref();
    let tex = load_file_with(path, color_space)?;
    if tex.desc().levels > 1 || tex.format().is_compressed() {
        return Ok(tex);
    }
    crate::mip::with_full_chain(&tex).map_err(|e| e.in_file(path))
}

pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|source| Error::io(path, source))
}

pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|source| Error::io(path, source))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_bytes_pick_the_container() {
        assert_eq!(detect(&KTX2_MAGIC), ContainerKind::Ktx2);
        assert_eq!(detect(b"DDS \x7c\0\0\0"), ContainerKind::Dds);
        assert_eq!(detect(b"\x89PNG\r\n\x1a\n"), ContainerKind::Image);
        assert_eq!(detect(b""), ContainerKind::Image);
    }

    #[test]
    fn ktx1_files_get_a_clear_error() {
        let mut f = KTX1_MAGIC.to_vec();
        f.extend_from_slice(&[0; 52]);
        let e = load_bytes(&f).unwrap_err();
        assert!(e.to_string().contains("KTX 1.1"), "{e}");
    }

    #[test]
    fn unreadable_file_is_an_io_error_naming_the_path() {
        let e = load_file("/nonexistent/quadtex/x.ktx2").unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Io, "{e:?}");
        assert_eq!(e.path(), Some(Path::new("/nonexistent/quadtex/x.ktx2")));
    }
}
