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
//! [`Error::Container`], never a panic. Mip generation lives in
//! [`crate::mip`], not here: loaders return the levels the file holds.

use std::path::Path;

use crate::error::{Error, Result};
use crate::texture::Texture;

mod dds;
mod ktx;
mod picture;
mod png;

pub use dds::read_dds;

/// The most texel bytes [`read_ktx2`] decodes from one file: 1 GiB. With
/// Zstandard supercompression a small file can describe far more (a stream
/// of zeros compresses 2 GiB into 33 KB), so the declared size is checked
/// against this before anything is allocated or decompressed. (DDS files
/// and uncompressed KTX2 files must hold every byte they describe, which
/// is checked against the file's length; the `image` crate applies its own
/// allocation limits.) [`Texture::new`] alone allows up to
/// [`crate::desc::MAX_BYTES`].
pub const MAX_LOAD_BYTES: u64 = 1 << 30;

/// Refuses a description whose texels exceed [`MAX_LOAD_BYTES`].
fn check_load_size(container: &'static str, desc: &crate::TextureDesc) -> Result<()> {
    match desc.total_bytes() {
        Some(n) if n <= MAX_LOAD_BYTES => Ok(()),
        n => Err(Error::container(
            container,
            format!(
                "the header describes {} bytes of texels, more than the loaders' limit of \
                 {MAX_LOAD_BYTES}",
                n.map_or("too many".to_string(), |n| n.to_string())
            ),
        )),
    }
}
pub use ktx::{format_from_vk, read_ktx2, save_ktx2, vk_format, write_ktx2};
pub use picture::load_image;
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
    match detect(bytes) {
        ContainerKind::Ktx2 => read_ktx2(bytes),
        ContainerKind::Dds => read_dds(bytes),
        ContainerKind::Image if bytes.starts_with(&KTX1_MAGIC) => Err(Error::container(
            "KTX",
            "KTX 1.1 files are not read; convert to KTX2 (ktx convert)",
        )),
        ContainerKind::Image => load_image(bytes, color_space),
    }
}

/// Loads a texture from a file (see [`load_bytes`]).
pub fn load_file(path: impl AsRef<Path>) -> Result<Texture> {
    load_file_with(path, ColorSpace::Srgb)
}

/// [`load_file`] with the colour space 8-bit image files are read in.
pub fn load_file_with(path: impl AsRef<Path>, color_space: ColorSpace) -> Result<Texture> {
    let path = path.as_ref();
    let bytes = read_file(path)?;
    match detect(&bytes) {
        // TGA has no magic number: the extension says what it is.
        ContainerKind::Image if !bytes.starts_with(&KTX1_MAGIC) => {
            let hint = image::ImageFormat::from_path(path).ok();
            picture::load_image_hinted(&bytes, color_space, hint)
        }
        _ => load_bytes_with(&bytes, color_space),
    }
}

pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|source| Error::Io {
        path: path.display().to_string(),
        source,
    })
}

pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|source| Error::Io {
        path: path.display().to_string(),
        source,
    })
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
        match e {
            Error::Io { path, .. } => assert_eq!(path, "/nonexistent/quadtex/x.ktx2"),
            other => panic!("expected Io, got {other:?}"),
        }
    }
}
