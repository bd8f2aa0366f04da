//! `quadtex-format`: what a texture *is*.
//!
//! Formats and their facts ([`TextureFormat`]), texel codecs ([`texel`],
//! [`compressed`]), descriptions ([`TextureDesc`]), storage in linear or
//! tiled layouts ([`Texture`]), mip generation ([`mip`]), sparse residency
//! ([`Residency`]) and containers (`io`, the default feature `io`: KTX2,
//! DDS and image files; without it the crate builds without the
//! `image`, `ktx2`, `ddsfile` and `ruzstd` crates). How a texture is *read* (headers,
//! filtering, quads) lives in `quadtex-sampler`, not here.
//!
//! A file becomes a texture with `io::load_file(path)`: the reader is chosen
//! by the file's magic bytes, the texture holds the levels the file holds,
//! and 8-bit image files are read as sRGB (`io::load_file_with` takes an
//! `io::ColorSpace`; `io::load_file_mipmapped` adds the full mip chain to a
//! one-level file). [`Texture::desc`] says what it holds and
//! [`Texture::read_texel`] reads a texel back decoded (UNORM to floats,
//! sRGB to linear), as the example below does.
//!
//! # Example
//!
//! A 2x2 RGBA8 texture from bytes (rows top first), its mip chain, and a
//! texel read back decoded:
//!
//! ```
//! use quadtex_format::{Aspect, Layout, TexelAddr, Texel, Texture, TextureDesc, TextureFormat};
//!
//! let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, 2, 2); // full chain: 2 levels
//! assert_eq!(desc.levels, 2);
//! let mut tex = Texture::new(desc, Layout::Tiled)?;
//! let level0: Vec<u8> = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255; 4]]
//!     .concat();
//! tex.write_subresource_bytes(0, 0, 0, &level0)?;
//! quadtex_format::mip::generate_mips(&mut tex)?;
//!
//! // Texel (1, 0) of level 0 is green; UNORM decodes to floats.
//! let t = tex.read_texel(TexelAddr::at(1, 0), Aspect::Color);
//! assert_eq!(t, Some(Texel::Float([0.0, 1.0, 0.0, 1.0])));
//! // Level 1 is the 2x2 box average: red (255 + 0 + 0 + 255) / 4 rounds to 128.
//! let mip = tex.read_texel(TexelAddr::new(1, 0, 0, 0, 0, 0), Aspect::Color);
//! assert_eq!(mip, Some(Texel::Float([128.0 / 255.0, 128.0 / 255.0, 128.0 / 255.0, 1.0])));
//!
//! // Bad input is an error, never a panic; its kind says what was wrong.
//! let e = Texture::from_linear_bytes(desc, Layout::Linear, &[0; 3]).unwrap_err();
//! assert_eq!(e.kind(), quadtex_format::ErrorKind::WrongSize);
//! # Ok::<(), quadtex_format::Error>(())
//! ```
#![forbid(unsafe_code)]

pub mod compressed;
pub mod desc;
pub mod error;
pub mod format;
#[cfg(feature = "io")]
pub mod io;
pub mod mip;
pub mod sparse;
pub mod texel;
pub mod texture;

pub use desc::{Extent3d, TextureDesc, TextureKind};
pub use error::{Error, ErrorKind, Result};
pub use format::{Aspect, ChannelKind, SampleType, TextureFormat};
pub use sparse::Residency;
pub use texel::Texel;
pub use texture::{Layout, Subresource, TexelAddr, Texture};
