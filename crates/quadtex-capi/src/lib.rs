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
//!
//! # Example
//!
//! The calls as Rust sees them (C calls the same functions through the
//! header): a texture from bytes, a view of it, one quad sampled nearest
//! on the texel centres, and a wrong size refused with a message.
//!
//! ```
//! use std::ffi::CStr;
//! use std::ptr::{null, null_mut};
//! use quadtex_capi::*;
//!
//! let desc = QtxTextureDesc {
//!     kind: QTX_KIND_2D,
//!     format: c"R8G8B8A8_UNORM".as_ptr(),
//!     width: 2, height: 2, depth: 1, layers: 1, levels: 1, samples: 1,
//!     layout: QTX_LAYOUT_TILED,
//!     no_mipmap: false,
//! };
//! // Texel x + 2y has red 64 (x + 2y).
//! let bytes: Vec<u8> = (0..4u8).flat_map(|i| [64 * i, 0, 0, 255]).collect();
//! let (mut tex, mut view) = (null_mut(), null_mut());
//! let mut vd = std::mem::MaybeUninit::uninit();
//! let mut smp = std::mem::MaybeUninit::uninit();
//! let (s, t) = ([0.25f32, 0.75, 0.25, 0.75], [0.25f32, 0.25, 0.75, 0.75]);
//! let mut out = [[0f32; 4]; 4];
//! let [r, g, b, a] = &mut out;
//! let planes = QtxOutput { r: r.as_mut_ptr(), g: g.as_mut_ptr(), b: b.as_mut_ptr(), a: a.as_mut_ptr() };
//! let coords = QtxCoords {
//!     s: s.as_ptr(), t: t.as_ptr(), r: null(), a: null(), dref: null(), lod: null(),
//!     ddx: [null(); 3], ddy: [null(); 3],
//! };
//! let args = QtxSampleArgs {
//!     profile: QTX_PROFILE_VULKAN, lod_mode: QTX_LOD_IMPLICIT, offset: [0; 3], ndv: false,
//!     derivatives: QTX_DERIVATIVES_PROFILE,
//! };
//! // SAFETY: every pointer points to what the call reads or writes.
//! unsafe {
//!     assert_eq!(qtx_texture_create(&desc, bytes.as_ptr(), bytes.len(), &mut tex), QTX_OK);
//!     assert_eq!(qtx_view_desc_default(tex, vd.as_mut_ptr()), QTX_OK);
//!     assert_eq!(qtx_view_create(tex, vd.as_ptr(), &mut view), QTX_OK);
//!     assert_eq!(qtx_sampler_desc_default(smp.as_mut_ptr()), QTX_OK);
//!     assert_eq!(qtx_sample(view, smp.as_ptr(), &args, &coords, 1, &planes), QTX_OK);
//!     assert_eq!(qtx_texture_create(&desc, bytes.as_ptr(), 3, &mut tex), QTX_ERROR_WRONG_SIZE);
//!     assert_eq!(
//!         CStr::from_ptr(qtx_last_error()).to_str().unwrap(),
//!         "texture data: expected 16 bytes, got 3"
//!     );
//!     qtx_view_destroy(view);
//!     qtx_texture_destroy(tex);
//! }
//! assert_eq!(out[0], [0.0, 64.0 / 255.0, 128.0 / 255.0, 192.0 / 255.0]);
//! ```
#![deny(unsafe_code)]

mod api;
pub mod ffi;
pub mod types;

pub use api::{QtxD3dRegs, QtxPools, QtxPtxRegs, QtxPtxSymbols, QtxTexture, QtxView};
pub use ffi::*;
pub use types::*;
