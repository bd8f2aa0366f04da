//! quadtex from C and C++: the texture unit behind a C ABI.
//!
//! Build this crate (`cargo build --release -p quadtex-capi`) and link
//! `target/release/libquadtex_capi.a` (or the shared
//! `libquadtex_capi.so`) with `include/quadtex.h`, the header `cbindgen`
//! generates from this crate (the `header_is_generated` test checks that
//! the checked-in copy is current). On Linux a static link also needs
//! `-lpthread -ldl -lm`.
//!
//! What it offers:
//! - textures from memory (`qtx_texture_create`: a description with a
//!   Vulkan format name, and the texel bytes), one subresource at a time
//!   (`qtx_texture_write`), mips (`qtx_texture_generate_mips`);
//! - views (`qtx_view_create`) and samplers (`QtxSamplerDesc`) from plain
//!   structs;
//! - `qtx_sample`, `qtx_gather`, `qtx_fetch` and `qtx_query_lod` on arrays
//!   of full quads, coordinates and results one array per component (the
//!   planar kernels' own form: no transposes);
//! - the instruction front-ends: SASS text over header and sampler pools
//!   (`qtx_sass_execute`), PTX (`qtx_ptx_execute`) and D3D `ld2dms`
//!   (`qtx_d3d_execute`).
//!
//! Every function returns a status (`QTX_OK` or a `QTX_ERROR_*` code) and
//! leaves the message in `qtx_last_error()`; no panic crosses the
//! boundary (one would be a bug, reported as `QTX_ERROR_INTERNAL`).
//! Choices are `uint32_t` constants, so an unknown value is an error,
//! never undefined behaviour. The caller keeps the usual C duties:
//! pointers that point where the call says, arrays as long as the call
//! says. Output arrays that overlap any other array of the call are
//! refused.
//!
//! The same functions are callable from Rust through this crate's rlib;
//! its tests do so, and build and run the C and C++ examples in
//! `examples/` against the static library.
#![deny(unsafe_code)]

mod api;
pub mod ffi;
pub mod types;

pub use api::{QtxD3dRegs, QtxPools, QtxPtxRegs, QtxPtxSymbols, QtxTexture, QtxView};
pub use ffi::*;
pub use types::*;
