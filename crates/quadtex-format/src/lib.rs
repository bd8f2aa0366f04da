//! `quadtex-format`: what a texture *is*.
//!
//! Formats and their facts ([`TextureFormat`]), texel codecs ([`texel`],
//! [`compressed`]), descriptions ([`TextureDesc`]), storage in linear or
//! tiled layouts ([`Texture`]), mip generation ([`mip`]), sparse residency
//! ([`Residency`]) and containers ([`io`]). How a texture is *read* (headers,
//! filtering, quads) lives in `quadtex-sampler`, not here.
#![forbid(unsafe_code)]

pub mod compressed;
pub mod desc;
pub mod error;
pub mod format;
pub mod io;
pub mod mip;
pub mod sparse;
pub mod texel;
pub mod texture;

pub use desc::{Extent3d, TextureDesc, TextureKind};
pub use error::{Error, Result};
pub use format::{Aspect, ChannelKind, SampleType, TextureFormat};
pub use sparse::Residency;
pub use texel::Texel;
pub use texture::{Layout, Subresource, TexelAddr, Texture};
