//! The plain C structs and the constants their fields take. Every field
//! that names a choice is a `uint32_t` holding one of the `QTX_*`
//! constants below (an unknown value is `QTX_ERROR_INVALID_ARGUMENT`,
//! never undefined behaviour), and every plane pointer may be `NULL`
//! where the call says it is optional.

use std::ffi::c_char;

/// A call's outcome: `QTX_OK` or one of the `QTX_ERROR_*` codes;
/// `qtx_last_error()` gives the message.
pub type QtxStatus = i32;

/// Success.
pub const QTX_OK: QtxStatus = 0;
/// A `NULL` pointer where one is required, an unknown constant, text that
/// is not UTF-8, or a plane the view needs that was not given.
pub const QTX_ERROR_INVALID_ARGUMENT: QtxStatus = 1;
/// A texture, view or sampler description that Vulkan's rules reject
/// (an unknown format, a view outside its texture, linear filtering of
/// an integer format, ...).
pub const QTX_ERROR_INVALID_DESCRIPTION: QtxStatus = 2;
/// Texel data whose size is not what the description needs.
pub const QTX_ERROR_WRONG_SIZE: QtxStatus = 3;
/// The texture's storage could not be allocated.
pub const QTX_ERROR_OUT_OF_MEMORY: QtxStatus = 4;
/// An instruction (SASS, PTX or D3D text) that does not parse or cannot
/// run (an unknown register, a malformed operand).
pub const QTX_ERROR_INSTRUCTION: QtxStatus = 5;
/// A texture that views still read cannot be written: write its texels
/// and generate its mips before making views of it.
pub const QTX_ERROR_BUSY: QtxStatus = 6;
/// A register that was never written, or an unknown symbol.
pub const QTX_ERROR_NOT_FOUND: QtxStatus = 7;
/// A bug in quadtex (a Rust panic, caught at the boundary): the message
/// says where.
pub const QTX_ERROR_INTERNAL: QtxStatus = 8;

/// `QtxTextureDesc.kind`, `QtxViewDesc.kind`: 1D.
pub const QTX_KIND_1D: u32 = 0;
/// 2D.
pub const QTX_KIND_2D: u32 = 1;
/// 3D.
pub const QTX_KIND_3D: u32 = 2;
/// Cube (6 layers).
pub const QTX_KIND_CUBE: u32 = 3;
/// 1D array.
pub const QTX_KIND_1D_ARRAY: u32 = 4;
/// 2D array.
pub const QTX_KIND_2D_ARRAY: u32 = 5;
/// Cube array (6n layers).
pub const QTX_KIND_CUBE_ARRAY: u32 = 6;
/// 2D multisample.
pub const QTX_KIND_2D_MS: u32 = 7;
/// 2D multisample array.
pub const QTX_KIND_2D_MS_ARRAY: u32 = 8;

/// `QtxTextureDesc.layout`: rows of texels (or blocks), tightly packed.
pub const QTX_LAYOUT_LINEAR: u32 = 0;
/// 64-byte tiles, Morton order inside each tile (what the fast kernels
/// read best).
pub const QTX_LAYOUT_TILED: u32 = 1;

/// What a texture is. The texel data given with it is tightly packed in
/// the order level, layer, sample, z, y, x (whole blocks for compressed
/// formats).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct QtxTextureDesc {
    /// `QTX_KIND_*`.
    pub kind: u32,
    /// The Vulkan format name, with or without `VK_FORMAT_`
    /// (`"R8G8B8A8_UNORM"`, `"VK_FORMAT_BC7_SRGB_BLOCK"`), any case.
    pub format: *const c_char,
    /// Width of level 0 in texels.
    pub width: u32,
    /// Height of level 0 (1 for 1D kinds).
    pub height: u32,
    /// Depth of level 0 (1 except for 3D).
    pub depth: u32,
    /// Array layers, counting cube faces (6 for a cube).
    pub layers: u32,
    /// Mip levels (1 to `1 + floor(log2(max extent))`).
    pub levels: u32,
    /// Samples per texel: 1, or 2, 4, 8, 16 for multisample kinds.
    pub samples: u32,
    /// `QTX_LAYOUT_*`.
    pub layout: u32,
    /// NVIDIA's `TWO_D_NO_MIPMAP` header type (2D, one level).
    pub no_mipmap: bool,
}

/// `QtxViewDesc.swizzle` entries: the red channel.
pub const QTX_SWIZZLE_R: u32 = 0;
/// Green.
pub const QTX_SWIZZLE_G: u32 = 1;
/// Blue.
pub const QTX_SWIZZLE_B: u32 = 2;
/// Alpha.
pub const QTX_SWIZZLE_A: u32 = 3;
/// The constant 0.
pub const QTX_SWIZZLE_ZERO: u32 = 4;
/// The constant 1.
pub const QTX_SWIZZLE_ONE: u32 = 5;

/// A view of a texture (Vulkan's image view; NVIDIA's texture header).
/// `qtx_view_desc_default` fills one that views the whole texture.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct QtxViewDesc {
    /// `QTX_KIND_*`: the view's geometry (a 2D view of one layer of an
    /// array, a 2D-array view of a cube, ...).
    pub kind: u32,
    /// The first level.
    pub base_level: u32,
    /// Levels in the view.
    pub level_count: u32,
    /// The first layer (cube faces count as layers).
    pub base_layer: u32,
    /// Layers in the view (6 per cube).
    pub layer_count: u32,
    /// `QTX_SWIZZLE_*` per output channel, applied after filtering.
    pub swizzle: [u32; 4],
    /// Minimum LOD clamp relative to the base level (>= 0).
    pub min_lod_clamp: f32,
    /// Decode sRGB formats to linear (false reads the raw UNORM values).
    pub srgb_decode: bool,
}

/// `QtxSamplerDesc.mag_filter` / `min_filter`: nearest.
pub const QTX_FILTER_NEAREST: u32 = 0;
/// Linear.
pub const QTX_FILTER_LINEAR: u32 = 1;

/// `QtxSamplerDesc.mipmap_mode`: level 0 of the view only.
pub const QTX_MIPMAP_NONE: u32 = 0;
/// The nearest level.
pub const QTX_MIPMAP_NEAREST: u32 = 1;
/// Between the two nearest levels.
pub const QTX_MIPMAP_LINEAR: u32 = 2;

/// `QtxSamplerDesc.address`: repeat.
pub const QTX_ADDRESS_REPEAT: u32 = 0;
/// Mirrored repeat.
pub const QTX_ADDRESS_MIRRORED_REPEAT: u32 = 1;
/// Clamp to edge.
pub const QTX_ADDRESS_CLAMP_TO_EDGE: u32 = 2;
/// Clamp to border.
pub const QTX_ADDRESS_CLAMP_TO_BORDER: u32 = 3;
/// Mirror once, then clamp to edge.
pub const QTX_ADDRESS_MIRROR_CLAMP_TO_EDGE: u32 = 4;
/// OpenGL's `GL_CLAMP` (CUDA / PTX `clamp_ogl`).
pub const QTX_ADDRESS_CLAMP_OGL: u32 = 5;

/// `QtxSamplerDesc.border_color`: (0, 0, 0, 0) as floats.
pub const QTX_BORDER_FLOAT_TRANSPARENT_BLACK: u32 = 0;
/// (0, 0, 0, 1) as floats.
pub const QTX_BORDER_FLOAT_OPAQUE_BLACK: u32 = 1;
/// (1, 1, 1, 1) as floats.
pub const QTX_BORDER_FLOAT_OPAQUE_WHITE: u32 = 2;
/// (0, 0, 0, 0) as integers.
pub const QTX_BORDER_INT_TRANSPARENT_BLACK: u32 = 3;
/// (0, 0, 0, 1) as integers.
pub const QTX_BORDER_INT_OPAQUE_BLACK: u32 = 4;
/// (1, 1, 1, 1) as integers.
pub const QTX_BORDER_INT_OPAQUE_WHITE: u32 = 5;
/// `QtxSamplerDesc.border_float` (`VK_BORDER_COLOR_FLOAT_CUSTOM_EXT`).
pub const QTX_BORDER_FLOAT_CUSTOM: u32 = 6;
/// `QtxSamplerDesc.border_int` (`VK_BORDER_COLOR_INT_CUSTOM_EXT`).
pub const QTX_BORDER_INT_CUSTOM: u32 = 7;

/// `QtxSamplerDesc.compare_op`: no depth compare.
pub const QTX_COMPARE_NONE: u32 = 0;
/// Never passes.
pub const QTX_COMPARE_NEVER: u32 = 1;
/// `dref < d`.
pub const QTX_COMPARE_LESS: u32 = 2;
/// `dref == d`.
pub const QTX_COMPARE_EQUAL: u32 = 3;
/// `dref <= d`.
pub const QTX_COMPARE_LESS_OR_EQUAL: u32 = 4;
/// `dref > d`.
pub const QTX_COMPARE_GREATER: u32 = 5;
/// `dref != d`.
pub const QTX_COMPARE_NOT_EQUAL: u32 = 6;
/// `dref >= d`.
pub const QTX_COMPARE_GREATER_OR_EQUAL: u32 = 7;
/// Always passes.
pub const QTX_COMPARE_ALWAYS: u32 = 8;

/// `QtxSamplerDesc.reduction`: the weighted average (ordinary
/// filtering).
pub const QTX_REDUCTION_WEIGHTED_AVERAGE: u32 = 0;
/// The minimum of the footprint's texels.
pub const QTX_REDUCTION_MIN: u32 = 1;
/// The maximum.
pub const QTX_REDUCTION_MAX: u32 = 2;

/// Sampler state (Vulkan's `VkSamplerCreateInfo`; NVIDIA's sampler
/// header). `qtx_sampler_desc_default` fills nearest filtering, repeat,
/// no compare.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct QtxSamplerDesc {
    /// `QTX_FILTER_*` when lambda <= 0.
    pub mag_filter: u32,
    /// `QTX_FILTER_*` when lambda > 0.
    pub min_filter: u32,
    /// `QTX_MIPMAP_*`.
    pub mipmap_mode: u32,
    /// `QTX_ADDRESS_*` for s, t and r.
    pub address: [u32; 3],
    /// `QTX_BORDER_*`.
    pub border_color: u32,
    /// The colour of `QTX_BORDER_FLOAT_CUSTOM`.
    pub border_float: [f32; 4],
    /// The colour of `QTX_BORDER_INT_CUSTOM`.
    pub border_int: [u32; 4],
    /// Added to lambda.
    pub mip_lod_bias: f32,
    /// Lower LOD clamp.
    pub min_lod: f32,
    /// Upper LOD clamp.
    pub max_lod: f32,
    /// Maximum anisotropy (1 = off; above 16 samples as 16).
    pub max_anisotropy: f32,
    /// `QTX_COMPARE_*` (`QTX_COMPARE_NONE`: no depth compare).
    pub compare_op: u32,
    /// Coordinates in texels (`unnormalizedCoordinates`).
    pub unnormalized: bool,
    /// Filter across cube edges and corners (Vulkan's behaviour).
    pub seamless_cube: bool,
    /// `QTX_REDUCTION_*`.
    pub reduction: u32,
}

/// `profile` fields: Vulkan (exact f32 filter weights and LOD, fine
/// derivatives where the quad gives them).
pub const QTX_PROFILE_VULKAN: u32 = 0;
/// NVIDIA SASS: 8-bit filter weights and LOD fractions, coarse
/// derivatives, the fault-true residency predicate.
pub const QTX_PROFILE_NV_SASS: u32 = 1;
/// PTX (as NVIDIA SASS, with PTX's residency predicate).
pub const QTX_PROFILE_PTX: u32 = 2;
/// Direct3D 11: 8-bit sub-texel and LOD-fraction precision.
pub const QTX_PROFILE_D3D11: u32 = 3;

/// `QtxSampleArgs.lod_mode`: implicit, from the quad's derivatives.
pub const QTX_LOD_IMPLICIT: u32 = 0;
/// Implicit plus a shader bias per lane (`QtxCoords.lod`).
pub const QTX_LOD_BIAS: u32 = 1;
/// Lambda = 0 (`textureLod(p, 0)`; PTX `.base`).
pub const QTX_LOD_BASE: u32 = 2;
/// An explicit lambda per lane (`QtxCoords.lod`; `textureLod`).
pub const QTX_LOD_LEVEL: u32 = 3;
/// Explicit gradients per lane (`QtxCoords.ddx`, `ddy`; `textureGrad`).
pub const QTX_LOD_GRAD: u32 = 4;

/// `QtxSampleArgs.derivatives`: the profile's rule.
pub const QTX_DERIVATIVES_PROFILE: u32 = 0;
/// One pair of derivatives per quad.
pub const QTX_DERIVATIVES_COARSE: u32 = 1;
/// Per row and column of the quad.
pub const QTX_DERIVATIVES_FINE: u32 = 2;

/// How `qtx_sample` and `qtx_query_lod` find the level of detail.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct QtxSampleArgs {
    /// `QTX_PROFILE_*`.
    pub profile: u32,
    /// `QTX_LOD_*`.
    pub lod_mode: u32,
    /// Texel offset `(i, j, k)`, each in -8..=7 (`textureOffset`, `.AOFFI`).
    pub offset: [i32; 3],
    /// `.NDV`: derivatives from all four lanes.
    pub ndv: bool,
    /// `QTX_DERIVATIVES_*`.
    pub derivatives: u32,
}

/// The coordinates of `n` full quads, one array per component, each `4n`
/// floats long: lane `l` of quad `q` at `4q + l`, lanes in the order
/// (x, y), (x+1, y), (x, y+1), (x+1, y+1). `NULL` leaves a component out;
/// a component the view reads must be given (`t` from 2D up, `r` for 3D
/// and cubes, `a` for arrays).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct QtxCoords {
    /// First coordinate (cube: the direction's x).
    pub s: *const f32,
    /// Second coordinate.
    pub t: *const f32,
    /// Third coordinate (3D, cube direction z).
    pub r: *const f32,
    /// Array layer (arrays; cube arrays: the cube index).
    pub a: *const f32,
    /// Depth reference per lane: the sampler must compare (a depth view
    /// and `compare_op`), and then this is required.
    pub dref: *const f32,
    /// Per-lane bias (`QTX_LOD_BIAS`) or lambda (`QTX_LOD_LEVEL`).
    pub lod: *const f32,
    /// `QTX_LOD_GRAD`: d(s, t, r)/dx per lane (`NULL` reads 0).
    pub ddx: [*const f32; 3],
    /// `QTX_LOD_GRAD`: d(s, t, r)/dy per lane.
    pub ddy: [*const f32; 3],
}

/// Results of `n` quads, one array per channel after the view's swizzle,
/// each `4n` floats (integer formats converted by value).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct QtxOutput {
    /// Red.
    pub r: *mut f32,
    /// Green.
    pub g: *mut f32,
    /// Blue.
    pub b: *mut f32,
    /// Alpha.
    pub a: *mut f32,
}

/// `QtxGatherArgs.offset_mode`: no offset.
pub const QTX_GATHER_OFFSET_NONE: u32 = 0;
/// One offset for the footprint (`offsets[0]`; `.AOFFI`,
/// `textureGatherOffset`), each component in -32..=31.
pub const QTX_GATHER_OFFSET_AOFFI: u32 = 1;
/// One offset per result (`.PTP`, `textureGatherOffsets`).
pub const QTX_GATHER_OFFSET_PTP: u32 = 2;

/// What `qtx_gather` takes besides the coordinates (a reference plane in
/// the coordinates makes it a depth-compare gather).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct QtxGatherArgs {
    /// `QTX_PROFILE_*`.
    pub profile: u32,
    /// The component gathered after the swizzle: 0 = R, 1 = G, 2 = B, 3 = A.
    pub component: u32,
    /// `QTX_GATHER_OFFSET_*`.
    pub offset_mode: u32,
    /// The offsets `[du, dv]` (AOFFI: the first; PTP: one per result).
    pub offsets: [[i32; 2]; 4],
    /// `.NDV` (matters for `TWO_D_NO_MIPMAP` textures only).
    pub ndv: bool,
}

/// The integer coordinates of `n` full quads for `qtx_fetch`, each array
/// `4n` long (`NULL` reads 0), and the constant texel offset.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct QtxFetchCoords {
    /// Texel x.
    pub x: *const i32,
    /// Texel y.
    pub y: *const i32,
    /// Texel z (3D).
    pub z: *const i32,
    /// Layer (arrays; cubes: `6 * cube + face`).
    pub layer: *const i32,
    /// Level relative to the view's base level.
    pub level: *const i32,
    /// Sample index (multisample views).
    pub sample: *const i32,
    /// Offset added to x, y, z (`texelFetchOffset`, D3D `aoffimmi`).
    pub offset: [i32; 3],
}

/// Results of `qtx_fetch`: the 32-bit register word of every channel of
/// every lane (float formats: the float's bits; integer formats: the
/// integer, signed ones sign-extended), each array `4n` long, and
/// optionally (`resident` not `NULL`) 1 where every texel the lane read
/// is resident, else 0.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct QtxFetchOutput {
    /// Red words.
    pub r: *mut u32,
    /// Green words.
    pub g: *mut u32,
    /// Blue words.
    pub b: *mut u32,
    /// Alpha words.
    pub a: *mut u32,
    /// Residency per lane, or `NULL`.
    pub resident: *mut u8,
}

/// The registers of one quad for `qtx_sass_execute`: 255 32-bit registers
/// per lane (`r[lane][255]` is RZ and is not read) and predicates P0-P6.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct QtxSassRegs {
    /// `r[lane][n]` is Rn of the lane.
    pub r: [[u32; 256]; 4],
    /// `p[lane][n]` is Pn of the lane.
    pub p: [[bool; 7]; 4],
}

/// `qtx_pools_set_limits`: the handle's sampler field names the sampler.
pub const QTX_BINDING_INDEPENDENT: u32 = 0;
/// The header index is also the sampler index (`ViaHeaderBinding`).
pub const QTX_BINDING_VIA_HEADER: u32 = 1;

/// `qtx_pools_create_ptx`, `qtx_ptx_execute`: `.target texmode_unified`.
pub const QTX_PTX_UNIFIED: u32 = 0;
/// `.target texmode_independent`.
pub const QTX_PTX_INDEPENDENT: u32 = 1;

/// `qtx_ptx_symbols_add`: a `.texref`.
pub const QTX_PTX_TEXREF: u32 = 0;
/// A `.samplerref`.
pub const QTX_PTX_SAMPLERREF: u32 = 1;
/// A `.surfref`.
pub const QTX_PTX_SURFREF: u32 = 2;
