//! `quadtex-raster`: the demo rasterizer that drives the quadtex sampler the
//! way a GPU does. Triangles are clipped, set up in fixed point and binned
//! to 64x64 screen tiles; tiles are rendered in parallel on a rayon pool,
//! each owning its part of the targets; every tile is shaded in 2x2 quads
//! with helper lanes, so implicit derivatives (and the sampler's LOD) are
//! right at triangle edges. Scene files are not read here: the
//! `quadtex-scene` crate loads them and renders them with this crate.
//!
//! # Pipeline
//!
//! - **Setup** ([`DrawCall::transform`] to clip space): near and far
//!   clipping (Vulkan depth range `0 <= z <= w`), a guard band for x and y,
//!   the viewport transform (NDC y up: `y = +1` is row 0), 8 sub-pixel bits,
//!   optional back-face culling ([`CullMode`]; front faces are
//!   counter-clockwise in NDC), i64 edge functions with the top-left fill
//!   rule, and screen-space planes of `1/w` and `attribute/w` for
//!   perspective-correct interpolation.
//! - **Quads**: a lane is *active* when at least one of its samples is
//!   covered and passes the early depth test; the other lanes of the quad
//!   run as *helpers*. The shader ([`FragmentShader`]) runs once per quad
//!   and sees the attributes as SoA lanes ([`QuadCtx::attr`], lane order 0 =
//!   (x, y), 1 = (x+1, y), 2 = (x, y+1), 3 = (x+1, y+1)), the masks, fine and
//!   coarse derivatives, and the sampler's `sample`, `gather`, `query_lod`
//!   and `fetch` on its [`TextureBinding`]s.
//! - **Targets**: colour is stored per sample in the frame's
//!   [`ColorFormat`] ([`ColorTarget`]: 8-bit RGBA or BGRA UNORM or sRGB,
//!   RGBA16F, or RGBA32F, the default), encoded as it is written;
//!   depth is `D32_SFLOAT` or 24-bit UNORM ([`DepthFormat`]) per sample, with
//!   every [`CompareOp`](quadtex_sampler::CompareOp) and [`BlendMode`]s.
//!   MSAA runs 1, 4 or 8 samples at the standard Vulkan positions with
//!   per-pixel shading; [`Renderer::resolve`] averages each pixel's
//!   samples straight from the target's bytes, bit for bit what a
//!   full-screen pass of the [`MsaaResolve`] shader (`ld2dms` fetches of a
//!   copy of the target as a 2D multisample texture) gives.
//! - **Render to texture**: [`ColorTarget::to_texture`],
//!   [`DepthTarget::to_texture`] (shadow maps for [`Shadowed`]) and
//!   [`cube_texture`] with [`cube_face_view`] for the six faces of a cube.
//! - **Stats** ([`Stats`]): quads, helper share, texture ops by kind, texel
//!   estimate, stage times; counted per tile, so counts are deterministic.
//! - **Built-in shaders** ([`builtin`]): [`Unlit`], [`Lambert`],
//!   [`Reflect`], [`Shadowed`], [`MipHeatmap`], [`EdgeDetect`],
//!   [`Terrain`], [`VolumeSlice`] and [`MsaaResolve`], the shaders the
//!   materials of `quadtex-scene`'s scene files name.
//!
//! # Example
//!
//! ```
//! use std::sync::Arc;
//! use quadtex_raster::glam::{self, Mat4, Vec2, Vec3};
//! use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat};
//! use quadtex_raster::{ColorFormat, DrawCall, Frame, Mesh, Renderer, TextureBinding, Unlit};
//! use quadtex_sampler::{AddressMode, SamplerHeader};
//!
//! // A 2x2 checker texture.
//! let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, 2, 2).with_levels(1);
//! let texels = [255u8, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255];
//! let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Linear, &texels).unwrap());
//! let shader = Unlit::new(TextureBinding::new(tex, SamplerHeader::trilinear(AddressMode::Repeat)));
//!
//! // A rectangle filling the view, seen through a perspective camera.
//! let mesh = Arc::new(Mesh::rect(Vec2::splat(-1.0), Vec2::splat(1.0)));
//! let view = glam::camera::rh::view::look_at_mat4(Vec3::new(0.0, 0.0, 2.5), Vec3::ZERO, Vec3::Y);
//! let proj: Mat4 = glam::camera::rh::proj::directx::perspective(1.0, 1.0, 0.1, 10.0);
//!
//! // 4x MSAA into an sRGB 8-bit target (what a PNG holds).
//! let mut frame = Frame::new(64, 64)
//!     .with_samples(4)
//!     .with_color_format(ColorFormat::Rgba8Srgb);
//! frame.draw(DrawCall::new(mesh, proj * view, Arc::new(shader)));
//! let renderer = Renderer::new(2).unwrap();
//! let out = renderer.render_resolved(&frame).unwrap();
//! assert_eq!(out.color.samples(), 1);
//! assert_eq!(out.color.bytes().len(), 64 * 64 * 4);
//! assert!(out.stats.quads > 0);
//! let png: Vec<u8> = out.color.encode_png().unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! ```

#![deny(unsafe_code)]

pub mod builtin;
pub mod error;
pub mod mesh;
pub mod pipeline;
pub mod render;
mod setup;
pub mod shader;
pub mod simd;
pub mod stats;
pub mod target;

pub use builtin::{
    EdgeDetect, Lambert, MipHeatmap, MsaaResolve, Reflect, ShadowFilter, Shadowed, Terrain, Unlit,
    VolumeSlice,
};
pub use error::{Error, ErrorKind, Result};
/// The vector and matrix crate of the public API (positions, matrices,
/// attributes), at the version the renderer was built with: use
/// `quadtex_raster::glam` rather than a `glam` of your own, whose types
/// would not match if its version differed.
pub use glam;
pub use mesh::{Mesh, ATTR_NORMAL, ATTR_UV, ATTR_WORLD, STD_ATTRS};
pub use pipeline::{
    sample_positions, BlendMode, CullMode, DepthFormat, DrawCall, DrawState, Frame,
};
pub use quadtex_sampler::{PlanarOut, QuadCoords};
/// The thread-pool crate of [`Renderer::with_pool`] and
/// [`Renderer::pool`], at the version the renderer was built with.
pub use rayon;
pub use render::{
    fullscreen_triangle, Rendered, Renderer, MAX_ATTRIBUTES, MAX_THREADS, TILE, WORKER_STACK_BYTES,
};
pub use shader::{
    shader_fn, store_quad, texels_f32, FnShader, FragmentShader, QuadBatch, QuadCtx,
    TextureBinding, MAX_BATCH_QUADS,
};
pub use stats::{Stats, TexStats};
pub use target::{
    cube_face_projection, cube_face_view, cube_texture, ColorFormat, ColorTarget, DepthTarget,
    Srgb8Encoder,
};
