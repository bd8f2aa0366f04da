//! Planar sampling: many full quads, coordinates one array per component,
//! results one array per channel.
//!
//! [`QuadCoords`] holds the coordinates of `n` quads as planes (`s[4q + l]`
//! is lane `l` of quad `q`, lanes in [`crate::Quad`]'s order) and
//! [`PlanarOut`] receives the results the same way, so a renderer that
//! keeps its attributes planar hands them over without transposes.
//! [`crate::QuadSampler::sample_planar`] is the entry point.
//!
//! The kernel here is one generic function over `N` lanes, compiled per
//! SIMD level ([`crate::cpu`]) and chosen at run time. It follows
//! [`crate::reference`] operation for operation, so its results are the
//! reference's bits. Per group of `N` quads it computes the level of
//! detail once per quad under coarse derivatives (`N` quads on the lanes:
//! coarse derivatives make it one value per quad) or per pixel under fine
//! ones, then filters the quads' pixels `N` at a time.
//!
//! It covers the common family: 2D, 2D-array, cube and cube-array views
//! (each lane on its own face; with seamless filtering a linear
//! footprint that leaves its face reads the neighbouring face's texels,
//! three averaged at a corner, as the reference does) of 8-bit RGBA / BGRA
//! UNORM and sRGB formats, R32_SFLOAT and R16G16B16A16_SFLOAT, D32_SFLOAT,
//! D16_UNORM and the D24 UNORM depths with a depth compare (PCF) or
//! without, and the block
//! formats whose blocks decode through 8-bit RGBA codes (BC1-BC3, BC7,
//! ETC2 RGB8 / RGB8A1 / RGBA8, read through the texture's RGBA8 mirror,
//! `Texture::rgba8_mirror`), and every other float-sampled colour format
//! whose texels are 1, 2, 4, 8 or 16 bytes (`TexelKind::Any`: the
//! channels of 8-, 16- and 32-bit arrays and packed UNORM words decoded
//! on all lanes as the format crate decodes them, the shared-exponent and
//! small-float packings lane by lane by its decoder); normalized coordinates, nearest or linear
//! filters with any mipmap mode, `repeat` and `mirrored_repeat`
//! (any level size), `clamp_to_edge`, `mirror_clamp_to_edge` and
//! `clamp_to_border` (samples; gathers take the others), anisotropic footprints (up to 16 taps per level, lanes
//! with fewer taps masked), weighted-average reduction; every LOD form:
//! implicit with coarse or fine derivatives, with a per-lane shader bias,
//! the base level, an explicit lambda per lane, explicit gradients per
//! lane (a LOD that differs between a quad's lanes is selected per pixel);
//! texel offsets; in both precision modes (f32 or fixed-point weights and
//! LOD fractions). Gathers ([`crate::QuadSampler::gather_planar`]) take
//! the 2D and 2D-array views of the same formats, with component select, AOFFI or PTP offsets and depth
//! compare.
//! [`crate::QuadSampler::planar_fallback`] says why anything else is not for
//! it ([`Fallback`]); a
//! group whose coordinates leave the range of exact 32-bit texel indices
//! (NaN, infinities, beyond 2^24 texels) is handed back whole.

use quadtex_format::format::{ChannelOrder, FormatLayout};
use quadtex_format::{texel, ChannelKind, Layout, SampleType, Texel, TextureFormat, TextureKind};

use crate::arch::{self, LaneKernel};
use crate::cpu::SimdLevel;
use crate::gather::{GatherArgs, GatherOffsets};
use crate::header::{
    AddressMode, CompareOp, Filter, HeaderType, MipmapMode, ReductionMode, Swizzle,
};
use crate::lanes::{Fv, Iv, Lanes, Mv};
use crate::profile::{
    clamp_bias_to, frac_scale, Derivatives, FracRound, LayerRound, MipNearest, MAX_FRAC_BITS,
};
use crate::quad::{Lod, SampleArgs};
use crate::reference::{Ctx, LOG2_DENORMAL_SCALE, LOG2_INV, LOG2_POLY, LOG2_TAB};

/// The coordinates of `n` full quads, one slice per component, lane `l`
/// of quad `q` at index `4q + l`: `s` and `t` always, `a` the array layer
/// for array views, `r` the third coordinate of cube views (2D views do
/// not read it, and it may then be empty). Slices shorter than `4n` for a
/// component the view uses end the call early (see
/// [`crate::QuadSampler::sample_planar`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct QuadCoords<'a> {
    /// First coordinate of every lane.
    pub s: &'a [f32],
    /// Second coordinate.
    pub t: &'a [f32],
    /// Third coordinate (3D and cube views).
    pub r: &'a [f32],
    /// Array layer (array views).
    pub a: &'a [f32],
    /// Depth reference per lane, for compare samplers: when not empty it
    /// gives each lane its own reference (in place of the quad pattern of
    /// `SampleArgs::dref` / `GatherArgs::dref`, and a compare even where
    /// the args have none); shorter than `4n` ends the call early as the
    /// other planes do.
    pub dref: &'a [f32],
    /// LOD operand per lane: under `Lod::Bias` each lane's shader bias,
    /// under `Lod::Level` each lane's explicit level of detail, in place of
    /// the quad pattern the `SampleArgs` give (GLSL `texture(s, p, bias)`
    /// and `textureLod` with a value per pixel; SASS `TEX.LB` / `.LL` with
    /// a register per lane). Not read under other `Lod`s or by gathers.
    /// When not empty, shorter than `4n` ends the call early as the other
    /// planes do.
    pub lod: &'a [f32],
}

/// Results of `n` quads, one slice per channel, lane `l` of quad `q` at
/// index `4q + l`, after the view's swizzle.
#[derive(Debug)]
pub struct PlanarOut<'a> {
    /// Red.
    pub r: &'a mut [f32],
    /// Green.
    pub g: &'a mut [f32],
    /// Blue.
    pub b: &'a mut [f32],
    /// Alpha.
    pub a: &'a mut [f32],
}

/// Why a call is not for the planar kernel (it then runs quad by quad on
/// the other paths, with the same bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// Not a 2D, 2D-array, cube or cube-array view (or a cube view of
    /// fewer than six layers); gathers: not a 2D or 2D-array view.
    Kind,
    /// Not a float-sampled format the kernel reads: an integer format, a
    /// stencil aspect, texels of 3, 6 or 12 bytes, a block format without
    /// an RGBA8 mirror, an 8-bit UNORM format other than RGBA / BGRA under
    /// integer filtering (samples); a compare on a colour format; or a residency
    /// map.
    Format,
    /// Unnormalized coordinates, a min/max reduction, or a profile with
    /// more than 23 fraction bits (`Profile::validate` refuses those).
    Sampler,
    /// `clamp_ogl`, or (gathers) `clamp_to_border`.
    Address,
    /// More than 16 levels, tiles wider than 16 texels, layers that are
    /// not evenly spaced, or a texture past 2 GiB.
    Layout,
}

/// How an axis wraps its texel indices (`reference::wrap`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wrap {
    /// `repeat` on power-of-two levels: a mask.
    Repeat,
    /// `clamp_to_edge`.
    Clamp,
    /// `mirrored_repeat` on power-of-two levels.
    Mirror,
    /// `repeat` where some level's extent on the axis is not a power of
    /// two: a remainder ([`rem_lanes`]).
    RepeatAny,
    /// `mirrored_repeat` where some level's extent on the axis is not a
    /// power of two.
    MirrorAny,
    /// `mirror_clamp_to_edge`.
    MirrorClamp,
    /// `clamp_to_border`: indices outside the level read the border.
    Border,
}

/// How the kernel reads a texel (its discriminant is the kernel's `K`
/// parameter: one compiled kernel per kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum TexelKind {
    /// 8-bit RGBA or BGRA, UNORM or sRGB.
    Rgba8,
    /// 8-bit RGBA or BGRA UNORM filtered in integer arithmetic
    /// (`reference::int_filter`).
    Rgba8Int,
    /// D32_SFLOAT, read or compared with the reference.
    Depth32,
    /// UNORM depth (D16_UNORM, X8_D24_UNORM_PACK32, D24_UNORM_S8_UINT's
    /// depth), read or compared with the reference.
    DepthUnorm,
    /// R32_SFLOAT.
    R32f,
    /// R16G16B16A16_SFLOAT.
    Rgba16f,
    /// Any other uncompressed float-sampled colour format of 1, 2, 4, 8
    /// or 16 bytes a texel: the channels of 8-, 16- and 32-bit arrays and
    /// of packed UNORM words decoded on all lanes at once ([`Chan`]), the
    /// rest (the shared-exponent and small-float packings) lane by lane
    /// by the format crate's decoder (`texel::decode`, as the reference
    /// reads it).
    Any,
}

/// How one channel of a [`TexelKind::Any`] texel decodes from the
/// texel's 32-bit little-endian words: the format crate's `texel::decode`
/// operation for operation (`unorm_to_f32`, `snorm_to_f32`, the sRGB
/// table, IEEE half and single), so the same bits.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Chan {
    /// A channel the format lacks: 0, or 1 for alpha.
    Const(f32),
    /// The field of `mask` at bit `shift` of word `word` over `max` (its
    /// largest code): UNORM.
    Unorm {
        word: u8,
        shift: u8,
        mask: i32,
        max: f32,
    },
    /// The `width`-bit two's complement field at bit `shift` over `max =
    /// 2^(width - 1) - 1`, at least -1: SNORM.
    Snorm {
        word: u8,
        shift: u8,
        width: u8,
        max: f32,
    },
    /// The 8-bit code at bit `shift` through the sRGB table.
    Srgb { word: u8, shift: u8 },
    /// An IEEE half in the low (`high` false) or high half of the word.
    Half { word: u8, high: bool },
    /// An IEEE single: the word.
    Float { word: u8 },
}

/// The channels of `format` as [`Chan`]s, R, G, B, A (what
/// `texel::decode` gives), or `None` for a layout decoded lane by lane.
fn channels(format: TextureFormat) -> Option<[Chan; 4]> {
    let mut ch = [
        Chan::Const(0.0),
        Chan::Const(0.0),
        Chan::Const(0.0),
        Chan::Const(1.0),
    ];
    let unorm = |word: u32, shift: u32, width: u32| Chan::Unorm {
        word: word as u8,
        shift: shift as u8,
        mask: ((1u32 << width) - 1) as i32,
        max: ((1u32 << width) - 1) as f32,
    };
    match format.layout() {
        FormatLayout::Array { order, bits, kind } => {
            let size = u32::from(bits) / 8;
            for i in 0..order.count() {
                let byte = i * size;
                let (word, shift) = (byte / 4, 8 * (byte % 4));
                // Where memory channel `i` lands (`texel::decode`).
                let d = match order {
                    ChannelOrder::Bgra => [2, 1, 0, 3][i as usize],
                    ChannelOrder::A => 3,
                    _ => i as usize,
                };
                ch[d] = match (kind, bits) {
                    (ChannelKind::Unorm, 8 | 16) => unorm(word, shift, u32::from(bits)),
                    (ChannelKind::Snorm, 8 | 16) => Chan::Snorm {
                        word: word as u8,
                        shift: shift as u8,
                        width: bits,
                        max: ((1u32 << (bits - 1)) - 1) as f32,
                    },
                    (ChannelKind::Srgb, 8) if d < 3 => Chan::Srgb {
                        word: word as u8,
                        shift: shift as u8,
                    },
                    (ChannelKind::Srgb, 8) => unorm(word, shift, 8),
                    (ChannelKind::Float, 16) => Chan::Half {
                        word: word as u8,
                        high: shift == 16,
                    },
                    (ChannelKind::Float, 32) => Chan::Float { word: word as u8 },
                    _ => return None,
                };
            }
        }
        // Every field of a packed float-sampled word is UNORM
        // (`texel::decode`).
        FormatLayout::Packed { fields, kind, .. }
            if !matches!(kind, ChannelKind::Uint | ChannelKind::Sint) =>
        {
            for (c, (shift, width)) in ch.iter_mut().zip(fields) {
                if width > 24 {
                    return None;
                }
                if width > 0 {
                    *c = unorm(0, u32::from(shift), u32::from(width));
                }
            }
        }
        _ => return None,
    }
    Some(ch)
}

/// One view-relative level as the kernel addresses it.
#[derive(Clone, Copy, Debug, Default)]
struct LevelInfo {
    /// Byte offset of layer 0 of the level.
    offset: i32,
    /// Bytes from one layer to the next.
    layer_stride: i32,
    /// Extent in texels.
    w: i32,
    h: i32,
    /// The extent as f32.
    wf: f32,
    hf: f32,
    /// Tiles per row.
    tiles_x: i32,
}

/// The texture's tile shape (one for every level and layer) and the
/// Morton shares of a texel's place inside its tile.
#[derive(Clone, Copy, Debug, Default)]
struct Tiles {
    /// log2 of the tile extent in texels (at most 4 each).
    tw: i32,
    th: i32,
    /// Entry `i`: the block-index share of column `i & (2^tw - 1)` inside
    /// its tile (`Subresource::x_blocks`: the Morton bits of the square
    /// part, then the rest above them); below 256, as tiles hold at most
    /// 16 x 16 texels.
    col: [u8; 16],
    /// The same for rows (`Subresource::yz_blocks`).
    row: [u8; 16],
}

impl Tiles {
    /// The tables of tiles `2^tw` by `2^th` texels (`tw, th <= 4`).
    fn new(tw: u32, th: u32) -> Tiles {
        let common = tw.min(th);
        let spread = |v: u32| {
            let v = (v | (v << 2)) & 0x33;
            (v | (v << 1)) & 0x55
        };
        let share = |i: usize, bits: u32, odd: u32| {
            let inner = i as u32 & ((1 << bits) - 1);
            let low = spread(inner & ((1 << common) - 1)) << odd;
            let high = (inner >> common) << (2 * common);
            (low | high) as u8
        };
        Tiles {
            tw: tw as i32,
            th: th as i32,
            col: std::array::from_fn(|i| share(i, tw, 0)),
            row: std::array::from_fn(|i| share(i, th, 1)),
        }
    }
}

/// What stays fixed across a planar call: the view's levels, the sampler
/// and profile rules in the form the kernel reads.
pub(crate) struct Plan<'a> {
    bytes: &'a [u8],
    levels: [LevelInfo; 16],
    tiles: Tiles,
    /// The view's layer count (1 for 2D).
    layer_count: u32,
    /// UNORM depth: the depth bits of a texel word and their maximum
    /// (`unorm_to_f32`: D16 `0xffff` / 65535, D24 `0xff_ffff` /
    /// 16777215, exact in f32).
    depth_mask: i32,
    depth_max: f32,
    /// A cube or cube-array view: `(s, t, r)` is a direction, the layer
    /// `6 * cube + face`.
    cube: bool,
    /// Cubes filtered seamlessly: a linear footprint that leaves its face
    /// hands the group back (the reference reads the neighbouring face).
    seamless: bool,
    array: bool,
    layer_round: LayerRound,
    /// How texels read.
    texel: TexelKind,
    /// log2 of the bytes per texel (1 for D16, 3 for RGBA16F, 2 for
    /// the other named kinds, any of 0 to 4 for [`TexelKind::Any`]).
    texel_shift: i32,
    /// Texels of one 4-byte word in rows of a linear layout: a row's two
    /// footprint texels side by side are one 8-byte load ([`pair_rows`]).
    pairs: bool,
    /// The format texels decode as ([`TexelKind::Any`] decodes through
    /// it; the view's, sRGB decode off giving the UNORM twin).
    format: TextureFormat,
    /// [`TexelKind::Any`]: its channels when they decode on all lanes
    /// ([`channels`]), else `None` (lane by lane).
    chans: Option<[Chan; 4]>,
    bgra: bool,
    srgb: bool,
    /// The depth compare and its reference per lane of a quad (clamped
    /// for UNORM depth), for depth formats.
    compare: Option<(CompareOp, [f32; 4])>,
    wrap: [Wrap; 2],
    /// The border texel (`Ctx::border_f32`) when an axis has
    /// `clamp_to_border`.
    border: Option<[f32; 4]>,
    mag_linear: bool,
    min_linear: bool,
    /// Both filters nearest: one texel per level.
    nearest: bool,
    mipmap: MipmapMode,
    mip_nearest: MipNearest,
    base_wf: f32,
    base_hf: f32,
    /// `lambda = 0` (`Lod::Base`) instead of the derivatives.
    base_lod: bool,
    /// Fine derivatives: lambda per pixel rather than per quad.
    fine: bool,
    /// Lambda, bias or derivatives that differ between a quad's lanes
    /// (`Lod::Level`, `Lod::Bias`, `Lod::Grad`): LOD per pixel.
    per_pixel: bool,
    /// What the LOD starts from when it is not the quad's derivatives.
    explicit: Explicit,
    /// Per lane of a quad: the sampler's bias plus the shader's, clamped
    /// (`Profile::clamp_bias`).
    lane_bias: [f32; 4],
    /// What a call's `QuadCoords::lod` plane gives each lane ([`LodPlane`]).
    lod_plane: LodPlane,
    /// The sampler's bias (`mip_lod_bias`) and the profile's bias clamp, for
    /// a plane of shader biases.
    sampler_bias: f32,
    max_bias: f32,
    /// The profile's quantized maximum anisotropy when above 1 (and the
    /// LOD implicit): anisotropic footprints of up to 16 taps.
    aniso: Option<f32>,
    bias: f32,
    min_lod: f32,
    max_lod: f32,
    /// The top view-relative level, as f32 and as an index.
    q: f32,
    top: i32,
    min_lod_clamp: f32,
    lod_frac: Option<f32>,
    weight_frac: Option<f32>,
    /// Integer filtering's footprint in fixed point applies ([`int_taps`]):
    /// 8 fraction bits (truncated or rounded), and not both filters
    /// nearest.
    int_fixed: bool,
    frac_round: FracRound,
    offset: [f32; 2],
    /// The view's swizzle (gathers pick their channel through it).
    swizzle: [Swizzle; 4],
    /// What each result channel takes from the filtered channels as the
    /// sample kernel holds them: the view's swizzle, with R and B
    /// exchanged for BGRA (whose texels the kernel filters in memory
    /// order, `b, g, r, a`, leaving the swap to the store).
    out_swizzle: [Swizzle; 4],
    /// `out_swizzle` is the identity.
    identity: bool,
    /// The border texel in the order the kernel holds channels (R and B
    /// exchanged for BGRA).
    border_raw: Option<[f32; 4]>,
    /// Whether the calls are of the common shape, for which kernels are
    /// compiled apart ([`Shape`]).
    shape: Shape,
    /// The result does not depend on lambda ([`fixed_lod`]): a view of one
    /// level, the same filter for magnification and minification, no
    /// anisotropy and no NaN among the LOD clamps. A shadow map or a
    /// render target read back is mostly this; the kernel then takes no
    /// derivatives and no `log2`.
    lod_free: bool,
}

/// What a call's `QuadCoords::lod` plane holds, from the args' `Lod`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LodPlane {
    /// Not read.
    Unused,
    /// Shader biases (`Lod::Bias`).
    Bias,
    /// Explicit levels of detail (`Lod::Level`).
    Level,
}

/// Where a sample's LOD comes from besides the quad's own derivatives.
#[derive(Clone, Copy)]
enum Explicit {
    /// The quad's derivatives (or the base level).
    None,
    /// `Lod::Level`: lambda per lane of a quad.
    Level([f32; 4]),
    /// `Lod::Grad`: `ds/dx`, `dt/dx`, `dr/dx`, `ds/dy`, `dt/dy`, `dr/dy`
    /// per lane of a quad.
    Grad([[f32; 4]; 6]),
}

impl<'a> Plan<'a> {
    /// The plan for `args` on `ctx`, or why the planar kernel does not take
    /// the call.
    pub(crate) fn new(ctx: &Ctx<'a>, args: &SampleArgs) -> Result<Plan<'a>, Fallback> {
        Plan::with(ctx, args, false)
    }

    /// [`Plan::new`], for a gather when `gather` (which filters nothing,
    /// so integer filtering does not keep a format off the kernel).
    fn with(ctx: &Ctx<'a>, args: &SampleArgs, gather: bool) -> Result<Plan<'a>, Fallback> {
        let view = ctx.view;
        let smp = ctx.smp;
        let p = ctx.profile;
        let (array, cube) = match view.kind {
            TextureKind::D2 => (false, false),
            TextureKind::D2Array => (true, false),
            TextureKind::Cube => (false, true),
            TextureKind::CubeArray => (true, true),
            _ => return Err(Fallback::Kind),
        };
        // Block formats that decode through 8-bit RGBA codes read their
        // texture's RGBA8 mirror (`Texture::rgba8_mirror`: the same values
        // texel for texel); other block formats are not for this kernel.
        let mirror = if ctx.format.block_extent() == (1, 1) {
            None
        } else {
            Some(view.texture.rgba8_mirror().ok_or(Fallback::Format)?)
        };
        let (texel, bgra, srgb) = match ctx.format {
            _ if mirror.is_some() => (TexelKind::Rgba8, false, ctx.format.is_srgb()),
            TextureFormat::Rgba8Unorm => (TexelKind::Rgba8, false, false),
            TextureFormat::Rgba8Srgb => (TexelKind::Rgba8, false, true),
            TextureFormat::Bgra8Unorm => (TexelKind::Rgba8, true, false),
            TextureFormat::Bgra8Srgb => (TexelKind::Rgba8, true, true),
            TextureFormat::Depth32Float => (TexelKind::Depth32, false, false),
            TextureFormat::Depth16Unorm
            | TextureFormat::Depth24UnormX8
            | TextureFormat::Depth24UnormS8Uint => (TexelKind::DepthUnorm, false, false),
            TextureFormat::R32Float => (TexelKind::R32f, false, false),
            TextureFormat::Rgba16Float => (TexelKind::Rgba16f, false, false),
            // Other float-sampled colour formats whose texels are a power
            // of two bytes (16 at most); integer filtering of 8-bit UNORM
            // formats is the reference's for these (gathers filter
            // nothing).
            f if ctx.ty == SampleType::Float
                && !f.has_depth()
                && !f.has_stencil()
                && f.block_bytes().is_power_of_two()
                && f.block_bytes() <= 16
                && (!ctx.int_filter || gather) =>
            {
                (TexelKind::Any, false, false)
            }
            _ => return Err(Fallback::Format),
        };
        // A depth texel is compared before any filtering (`Ctx::texel`);
        // without a reference it reads as (D, 0, 0, 1). Colour formats
        // take no reference.
        let compare = match (texel, args.dref) {
            (_, None) => None,
            (TexelKind::Depth32 | TexelKind::DepthUnorm, Some(d)) => {
                let op = smp.compare.unwrap_or(CompareOp::Always);
                let unorm = texel == TexelKind::DepthUnorm;
                Some((op, d.map(|r| if unorm { clamp_ref(r) } else { r })))
            }
            _ => return Err(Fallback::Format),
        };
        // Integer filtering (`reference::int_filter`) of plain 8-bit UNORM
        // RGBA / BGRA (a mirror's formats are not among its formats).
        // Nearest filtering both ways on one level (a nearest mipmap) is
        // left to the f32 kernel: the reference's integer read of one
        // texel is `T = 65536 c`, `T / (255 * 65536)` rounded once, the
        // correctly rounded `c / 255` that the f32 mode's decode gives
        // (and its sum `-0 + 1 * v` is `v`), so the same bits without the
        // integer kernel's sums.
        let one_texel = smp.mag_filter == Filter::Nearest
            && smp.min_filter == Filter::Nearest
            && smp.mipmap_mode == MipmapMode::Nearest;
        let texel = if texel == TexelKind::Rgba8
            && mirror.is_none()
            && !srgb
            && compare.is_none()
            && ctx.int_filter
            && !one_texel
        {
            TexelKind::Rgba8Int
        } else {
            texel
        };
        let texel_shift = match texel {
            TexelKind::DepthUnorm if ctx.format == TextureFormat::Depth16Unorm => 1,
            TexelKind::Rgba16f => 3,
            TexelKind::Any => ctx.format.block_bytes().trailing_zeros() as i32,
            _ => 2,
        };
        // (`ctx.format` is the view's: sRGB decode off gives the UNORM
        // twin.)
        if view.texture.residency().is_some() {
            return Err(Fallback::Format);
        }
        if smp.unnormalized || smp.reduction != ReductionMode::WeightedAverage {
            return Err(Fallback::Sampler);
        }
        // Fractions of at most 23 bits (`Profile::validate`): their scales
        // are powers of two with exact reciprocals.
        let frac_ok = |b: Option<u8>| b.is_none_or(|b| b <= MAX_FRAC_BITS);
        if !frac_ok(p.lod_frac_bits) || !frac_ok(p.weight_frac_bits) {
            return Err(Fallback::Sampler);
        }
        let fine = args.derivatives.unwrap_or(p.derivatives) == Derivatives::Fine;
        let mut shader_bias = [0.0f32; 4];
        let (base_lod, fine, explicit) = match args.lod {
            Lod::Implicit => (false, fine, Explicit::None),
            Lod::Bias(b) => {
                shader_bias = b;
                (false, fine, Explicit::None)
            }
            Lod::Base => (true, false, Explicit::None),
            Lod::Level(l) => (true, false, Explicit::Level(l)),
            Lod::Grad { ddx, ddy } => (
                false,
                false,
                Explicit::Grad([
                    ddx.map(|d| d[0]),
                    ddx.map(|d| d[1]),
                    ddx.map(|d| d[2]),
                    ddy.map(|d| d[0]),
                    ddy.map(|d| d[1]),
                    ddy.map(|d| d[2]),
                ]),
            ),
        };
        let lane_bias = shader_bias.map(|b| p.clamp_bias(smp.mip_lod_bias + b));
        let per_pixel =
            fine || cube || !matches!(explicit, Explicit::None) || matches!(args.lod, Lod::Bias(_));
        // `Lod::Base` is an explicit lambda: no footprint, no taps.
        let max_aniso = p.aniso_levels.quantize(smp.max_anisotropy);
        let aniso = (max_aniso > 1.0 && !base_lod).then_some(max_aniso);
        let tex = mirror.unwrap_or(&view.texture);
        if tex.bytes().len() > i32::MAX as usize {
            return Err(Fallback::Layout);
        }
        let level_count = view.level_count.max(1);
        if level_count > 16 {
            return Err(Fallback::Layout);
        }
        // Cubes: every face of every cube of the view, evenly spaced.
        let layer_count = if array || cube {
            view.layer_count.max(1)
        } else {
            1
        };
        if cube && view.layer_count < 6 {
            return Err(Fallback::Kind);
        }
        let mut levels = [LevelInfo::default(); 16];
        let mut wrap = [Wrap::Clamp; 2];
        for (k, r) in wrap.iter_mut().enumerate() {
            *r = match smp.address[k] {
                // Seamless cube faces clamp to their edge whatever the
                // mode (a linear footprint past it reads the neighbouring
                // face: `seam_read`); without
                // seamless filtering each face takes the sampler's mode.
                _ if cube && smp.seamless_cube => Wrap::Clamp,
                AddressMode::Repeat => Wrap::Repeat,
                AddressMode::ClampToEdge => Wrap::Clamp,
                AddressMode::MirroredRepeat => Wrap::Mirror,
                AddressMode::MirrorClampToEdge => Wrap::MirrorClamp,
                AddressMode::ClampToBorder => Wrap::Border,
                AddressMode::ClampOgl => return Err(Fallback::Address),
            };
        }
        let border = wrap.contains(&Wrap::Border).then(|| ctx.border_f32());
        // BGRA texels are filtered in memory order; the swap to `r, g, b,
        // a` is folded into the swizzle the results are stored through.
        let out_swizzle = if bgra {
            view.swizzle.map(|c| match c {
                Swizzle::R => Swizzle::B,
                Swizzle::B => Swizzle::R,
                other => other,
            })
        } else {
            view.swizzle
        };
        let border_raw = border.map(|b| if bgra { [b[2], b[1], b[0], b[3]] } else { b });
        // Axes on which some level's extent is not a power of two: their
        // `repeat` and `mirrored_repeat` take a remainder, not a mask.
        let mut npot = [false; 2];
        let mut tiles = Tiles::default();
        for (l, info) in levels.iter_mut().enumerate().take(level_count as usize) {
            let level = view.base_level + l as u32;
            let sub0 = tex
                .subresource(level, view.base_layer, 0)
                .ok_or(Fallback::Layout)?;
            let (w, h) = (sub0.extent.width, sub0.extent.height);
            npot[0] |= !w.is_power_of_two();
            npot[1] |= !h.is_power_of_two();
            if sub0.tile_w_log2 > 4 || sub0.tile_h_log2 > 4 || sub0.block_bytes != 1 << texel_shift
            {
                return Err(Fallback::Layout);
            }
            // One tile shape for every level.
            let shape = (sub0.tile_w_log2 as i32, sub0.tile_h_log2 as i32);
            if l == 0 {
                tiles = Tiles::new(sub0.tile_w_log2, sub0.tile_h_log2);
            } else if shape != (tiles.tw, tiles.th) {
                return Err(Fallback::Layout);
            }
            if tex.layout() == Layout::Linear && (sub0.tile_w_log2 | sub0.tile_h_log2) != 0 {
                return Err(Fallback::Layout);
            }
            // Layers evenly spaced with the same layout.
            let mut stride = 0i64;
            for layer in 1..layer_count {
                let sub = tex
                    .subresource(level, view.base_layer + layer, 0)
                    .ok_or(Fallback::Layout)?;
                let d = sub.offset as i64 - sub0.offset as i64;
                if layer == 1 {
                    stride = d;
                }
                if d != stride * i64::from(layer)
                    || sub.tiles_x != sub0.tiles_x
                    || sub.tile_w_log2 != sub0.tile_w_log2
                    || sub.tile_h_log2 != sub0.tile_h_log2
                {
                    return Err(Fallback::Layout);
                }
            }
            *info = LevelInfo {
                offset: i32::try_from(sub0.offset).map_err(|_| Fallback::Layout)?,
                layer_stride: i32::try_from(stride).map_err(|_| Fallback::Layout)?,
                w: w as i32,
                h: h as i32,
                wf: w as f32,
                hf: h as f32,
                tiles_x: i32::try_from(sub0.tiles_x).map_err(|_| Fallback::Layout)?,
            };
        }
        for (w, npot) in wrap.iter_mut().zip(npot) {
            *w = match *w {
                Wrap::Repeat if npot => Wrap::RepeatAny,
                Wrap::Mirror if npot => Wrap::MirrorAny,
                w => w,
            };
        }
        let q = view.level_count.saturating_sub(1);
        // The common shape ([`Shape`]) but for a compare and cubes.
        let shape = border.is_none()
            && aniso.is_none()
            && matches!(explicit, Explicit::None)
            && !matches!(args.lod, Lod::Bias(_))
            && wrap
                .iter()
                .all(|w| matches!(w, Wrap::Repeat | Wrap::RepeatAny | Wrap::Clamp));
        let nearest = smp.mag_filter == Filter::Nearest && smp.min_filter == Filter::Nearest;
        Ok(Plan {
            bytes: tex.bytes(),
            levels,
            tiles,
            layer_count,
            depth_mask: if ctx.format == TextureFormat::Depth16Unorm {
                0xffff
            } else {
                0xff_ffff
            },
            depth_max: if ctx.format == TextureFormat::Depth16Unorm {
                65_535.0
            } else {
                16_777_215.0
            },
            cube,
            seamless: cube && smp.seamless_cube,
            array,
            layer_round: p.layer_round,
            texel,
            texel_shift,
            pairs: texel_shift == 2
                && (tiles.tw, tiles.th) == (0, 0)
                && matches!(
                    texel,
                    TexelKind::Rgba8
                        | TexelKind::Rgba8Int
                        | TexelKind::Depth32
                        | TexelKind::DepthUnorm
                        | TexelKind::R32f
                ),
            format: ctx.format,
            chans: if texel == TexelKind::Any {
                channels(ctx.format)
            } else {
                None
            },
            bgra,
            srgb,
            compare,
            wrap,
            border,
            mag_linear: smp.mag_filter == Filter::Linear,
            min_linear: smp.min_filter == Filter::Linear,
            nearest,
            mipmap: smp.mipmap_mode,
            mip_nearest: p.mip_nearest,
            base_wf: ctx.base[0] as f32,
            base_hf: ctx.base[1] as f32,
            base_lod,
            fine,
            per_pixel,
            explicit,
            lane_bias,
            lod_plane: match args.lod {
                Lod::Bias(_) => LodPlane::Bias,
                Lod::Level(_) => LodPlane::Level,
                _ => LodPlane::Unused,
            },
            sampler_bias: smp.mip_lod_bias,
            max_bias: p.max_lod_bias,
            aniso,
            bias: p.clamp_bias(smp.mip_lod_bias + 0.0),
            min_lod: smp.min_lod,
            max_lod: smp.max_lod,
            q: q as f32,
            top: q as i32,
            min_lod_clamp: view.min_lod_clamp,
            lod_frac: p.lod_frac_bits.map(frac_scale),
            weight_frac: p.weight_frac_bits.map(frac_scale),
            int_fixed: p.weight_frac_bits == Some(8) && !nearest,
            frac_round: p.frac_round,
            // Cubes take no texel offset.
            offset: if cube {
                [0.0; 2]
            } else {
                [args.offset[0] as f32, args.offset[1] as f32]
            },
            swizzle: view.swizzle,
            out_swizzle,
            identity: out_swizzle == Swizzle::IDENTITY,
            border_raw,
            shape: match (shape, cube, compare.is_some()) {
                (false, _, _) | (true, true, true) => Shape::General,
                (true, false, false) => Shape::Simple,
                (true, false, true) => Shape::SimpleCompare,
                (true, true, false) => Shape::SimpleCube,
            },
            lod_free: q == 0
                && aniso.is_none()
                && smp.mag_filter == smp.min_filter
                && !smp.min_lod.is_nan()
                && !smp.max_lod.is_nan()
                && !view.min_lod_clamp.is_nan(),
        })
    }
}

/// Which of the kernels compiled apart for the common shape a plan takes
/// (the [`SIMPLE`] bit of `K`): no border colour, no anisotropy, `repeat`
/// or `clamp_to_edge` on both axes, and the LOD from the quad's coarse or
/// fine derivatives (or the base level) with no per-lane bias. With those
/// facts constant, such a kernel holds no code for the other cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Not of the common shape: the general kernel of the texel kind.
    General,
    /// 2D or 2D array without a compare (the 8-bit RGBA kernels, and
    /// RGBA16F's).
    Simple,
    /// 2D or 2D array with a depth compare on D32F or UNORM depth (the
    /// depth kernels: PCF).
    SimpleCompare,
    /// A cube or cube array without a compare (the 8-bit RGBA kernel with
    /// [`CUBE`]).
    SimpleCube,
}

/// A planar kernel over whole groups of `N` quads ([`Plan`] samples,
/// [`GatherPlan`] gathers): the texel kind it is compiled for, one group
/// (`false`: handed back), and the run over a call's groups.
pub(crate) trait GroupKernel: Sized {
    /// Whether the kernel filters 8-bit codes in integers
    /// ([`TexelKind::Rgba8Int`]) differently from [`TexelKind::Rgba8`]
    /// (gathers filter nothing: they read those texels as `Rgba8`).
    const INT_FILTER: bool;
    /// Whether plans of the common shape ([`Shape`]) have kernels of
    /// their own (gathers read
    /// every footprint one way: their dispatch then names no such kernel,
    /// so none is compiled for them).
    const SHAPES: bool;
    /// How the kernel reads texels.
    fn texel(&self) -> TexelKind;
    /// Which of the common shape's kernels the calls take (read only
    /// where [`Self::SHAPES`]).
    fn shape(&self) -> Shape {
        Shape::General
    }
    /// Quads `q..q + N`, written to `out` at `4q..`.
    fn group<L: Lanes, const K: u8>(
        &self,
        l: L,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
        q: usize,
    ) -> bool;

    /// Groups `first..` while `quads` holds them ([`Groups`]' loop): one
    /// after another; returns the quads done.
    #[inline(always)]
    fn groups<L: Lanes, const K: u8>(
        &self,
        l: L,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
        first: usize,
        quads: usize,
    ) -> usize {
        one_by_one::<Self, L, K>(self, l, coords, out, first, quads)
    }

    /// Whole groups of quads from quad `first` on, as many as `level`
    /// takes per group, for as long as `quads` holds them: lane `l` of
    /// quad `q` at `4q + l` of `coords`' and `out`'s planes. Returns the
    /// quads done; a group the kernel hands back ends the call there (the
    /// caller takes that group another way and calls again after it).
    ///
    /// Each texel kind is its own [`LaneKernel`], so its own compiled
    /// function per level (one function holding every kind's kernel took
    /// the compiler minutes on one core), called through its own module
    /// of [`homes`].
    fn run(
        &self,
        level: SimdLevel,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
        first: usize,
        quads: usize,
    ) -> usize {
        macro_rules! kind {
            ($home:ident) => {
                homes::$home::run(self, level, coords, out, first, quads)
            };
        }
        match self.texel() {
            TexelKind::Rgba8 if Self::SHAPES && self.shape() == Shape::Simple => kind!(rgba8_s),
            TexelKind::Rgba8 if Self::SHAPES && self.shape() == Shape::SimpleCube => {
                kind!(rgba8_cs)
            }
            TexelKind::Rgba8 => kind!(rgba8),
            TexelKind::Rgba8Int
                if Self::INT_FILTER && Self::SHAPES && self.shape() == Shape::Simple =>
            {
                kind!(rgba8_int_s)
            }
            TexelKind::Rgba8Int if Self::INT_FILTER => kind!(rgba8_int),
            TexelKind::Rgba8Int => kind!(rgba8),
            TexelKind::Depth32 if Self::SHAPES && self.shape() == Shape::SimpleCompare => {
                kind!(depth32_s)
            }
            TexelKind::Depth32 => kind!(depth32),
            TexelKind::DepthUnorm if Self::SHAPES && self.shape() == Shape::SimpleCompare => {
                kind!(depth_unorm_s)
            }
            TexelKind::DepthUnorm => kind!(depth_unorm),
            TexelKind::R32f => kind!(r32f),
            TexelKind::Rgba16f if Self::SHAPES && self.shape() == Shape::Simple => {
                kind!(rgba16f_s)
            }
            TexelKind::Rgba16f => kind!(rgba16f),
            TexelKind::Any => kind!(any),
        }
    }
}

/// One module per compiled kernel `K`, each with the entry that runs it.
///
/// rustc puts a generic function's instances in the code-generation unit
/// of the module that defines the function (the `#[inline]` ones it
/// copies into each unit that calls them, as it does [`arch::run_at`] and
/// the per-level functions under it). With one entry for every kernel
/// the compiler had a single unit of some hundred thousand lines of IR
/// per kernel and level, optimized on one core; with an entry per module
/// the kernels spread over the units and the cores.
mod homes {
    macro_rules! homes {
        ($($home:ident = $k:ident;)*) => {$(
            #[doc = concat!("The kernel for `", stringify!($k), "`.")]
            pub(super) mod $home {
                use super::super::{
                    arch, GroupKernel, Groups, PlanarOut, QuadCoords, SimdLevel, $k,
                };

                /// [`GroupKernel::run`] through this module's kernel.
                pub(in super::super) fn run<G: GroupKernel>(
                    plan: &G,
                    level: SimdLevel,
                    coords: &QuadCoords<'_>,
                    out: &mut PlanarOut<'_>,
                    first: usize,
                    quads: usize,
                ) -> usize {
                    let groups = Groups::<G, $k> {
                        plan,
                        coords,
                        out,
                        first,
                        quads,
                    };
                    arch::run_at(level, groups)
                }
            }
        )*};
    }
    homes! {
        rgba8 = RGBA8;
        rgba8_s = RGBA8_S;
        rgba8_cs = RGBA8_CS;
        rgba8_int = RGBA8_INT;
        rgba8_int_s = RGBA8_INT_S;
        depth32 = DEPTH32;
        depth32_s = DEPTH32_S;
        depth_unorm = DEPTH_UNORM;
        depth_unorm_s = DEPTH_UNORM_S;
        r32f = R32F;
        rgba16f = RGBA16F;
        rgba16f_s = RGBA16F_S;
        any = ANY;
    }
}

impl GroupKernel for Plan<'_> {
    const INT_FILTER: bool = true;
    const SHAPES: bool = true;

    #[inline(always)]
    fn texel(&self) -> TexelKind {
        self.texel
    }

    #[inline(always)]
    fn shape(&self) -> Shape {
        self.shape
    }

    #[inline(always)]
    fn group<L: Lanes, const K: u8>(
        &self,
        l: L,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
        q: usize,
    ) -> bool {
        group::<L, K>(l, self, coords, out, q)
    }

    /// The next group's per-quad LOD made before this group's pixels
    /// are filtered: the long chain of dependent steps (footprint,
    /// log2, level selection) that every pixel of a group waits for
    /// then overlaps the previous group's filtering.
    #[inline(always)]
    fn groups<L: Lanes, const K: u8>(
        &self,
        l: L,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
        first: usize,
        quads: usize,
    ) -> usize {
        let n = L::N;
        if const { !simple_2d::<K>() } {
            // (Cubes and the other kinds take their LOD per lane; a cube
            // takes the call's [`NearLevels`] where it has them.)
            // (One call site of `group_with` for these kernels: each
            // inlined copy costs build time.)
            let call = if self.cube {
                CallLod::new(l, self)
            } else {
                None
            };
            let mut q = first;
            while q + n <= quads {
                let g = group_lod::<L, K>(l, self, coords, q, call.as_ref());
                if !group_with::<L, K, false>(l, self, coords, out, (q, call.as_ref()), g) {
                    break;
                }
                q += n;
            }
            return q - first;
        }
        if first + n > quads {
            return 0;
        }
        let call = CallLod::new(l, self);
        let call = call.as_ref();
        // A kernel of its own where the levels come from the footprint's
        // exponent ([`NearLevels`]): in the shared one, that path's
        // registers slowed the others (valgrind: trilinear 139.3 -> 142.1
        // instructions a pixel). 8-bit colour textures only, filtered in
        // f32 or in integers (another copy of the kernel per kind costs
        // build time; depth maps are mostly one level).
        if let (true, Some(CallLod { near: Some(_), .. })) = (
            const { kind::<K>() == RGBA8 || kind::<K>() == RGBA8_INT },
            call,
        ) {
            // Nearest filtering both ways and linear both ways each with
            // its copy of the plan ([`Plan::near_copy`]), so that the
            // compiler drops the kernel's branches on the fields it
            // states. (Optimized builds only: unoptimized, each inlined
            // copy of the kernel keeps stack slots of its own, and four
            // of them overflowed a worker thread's stack.)
            #[cfg(not(debug_assertions))]
            {
                if self.nearest {
                    let p = self.near_copy(true);
                    return group_loop::<L, K, true>(l, &p, coords, out, (first, quads), call);
                }
                let p = self.near_copy(false);
                return group_loop::<L, K, true>(l, &p, coords, out, (first, quads), call);
            }
            #[cfg(debug_assertions)]
            return group_loop::<L, K, true>(l, self, coords, out, (first, quads), call);
        }
        #[cfg(not(debug_assertions))]
        if let (true, Some(p)) = (const { kind::<K>() == RGBA8 }, self.trilinear_copy()) {
            return group_loop::<L, K, false>(l, &p, coords, out, (first, quads), call);
        }
        // A depth compare of one level filtered linearly both ways (a
        // shadow map's PCF, [`Plan::pcf_copy`]).
        #[cfg(not(debug_assertions))]
        if let (true, Some(p)) = (
            const { K == DEPTH32_S || K == DEPTH_UNORM_S },
            self.pcf_copy(),
        ) {
            return group_loop::<L, K, false>(l, &p, coords, out, (first, quads), call);
        }
        // Integer filtering of linear words repeated on both axes, with the
        // LOD per quad and the fixed-point footprint ([`Plan::int_copy`]):
        // one copy between two levels and one on a nearest level.
        #[cfg(not(debug_assertions))]
        if const { K == RGBA8_INT_S } {
            if let Some(p) = self.int_copy(MipmapMode::Linear) {
                return group_loop::<L, K, false>(l, &p, coords, out, (first, quads), call);
            }
            if let Some(p) = self.int_copy(MipmapMode::Nearest) {
                return group_loop::<L, K, false>(l, &p, coords, out, (first, quads), call);
            }
        }
        group_loop::<L, K, false>(l, self, coords, out, (first, quads), call)
    }
}

/// The plan copies of optimized builds ([`GroupKernel::groups`]).
#[cfg(not(debug_assertions))]
impl Plan<'_> {
    /// The plan with the fields that a plan with [`NearLevels`] has
    /// (`NearLevels::new` and `CallLod::new` take no other) written as
    /// constants: fine derivatives, a LOD that is not fixed, no base
    /// level, cube, anisotropy or explicit LOD (the LOD fraction bits
    /// stay the plan's: the levels' shift and `select` near a boundary
    /// read them), a
    /// nearest mipmap, one filter both ways (`nearest`: both nearest, or
    /// else both linear). Where the kernel runs on such a copy, the
    /// compiler drops the branches on these fields: its per-vector
    /// branches on the filter and the mipmap go.
    #[inline(always)]
    fn near_copy(&self, nearest: bool) -> Self {
        Plan {
            nearest,
            mag_linear: !nearest,
            min_linear: !nearest,
            mipmap: MipmapMode::Nearest,
            fine: true,
            lod_free: false,
            base_lod: false,
            cube: false,
            aniso: None,
            explicit: Explicit::None,
            ..*self
        }
    }

    /// Where the plan filters linearly both ways between two levels
    /// (`MipmapMode::Linear`) with a LOD per pixel from fine derivatives
    /// (no base level, cube, anisotropy or explicit LOD), a copy with
    /// those fields written as constants (as [`Plan::near_copy`]), so
    /// that the kernel it runs drops its branches on them.
    #[inline(always)]
    fn trilinear_copy(&self) -> Option<Self> {
        let qualifies = self.mag_linear
            && self.min_linear
            && self.mipmap == MipmapMode::Linear
            && self.fine
            && !self.lod_free
            && !self.base_lod
            && !self.cube
            && self.aniso.is_none()
            && matches!(self.explicit, Explicit::None);
        if !qualifies {
            return None;
        }
        Some(Plan {
            nearest: false,
            mag_linear: true,
            min_linear: true,
            mipmap: MipmapMode::Linear,
            fine: true,
            lod_free: false,
            base_lod: false,
            cube: false,
            aniso: None,
            explicit: Explicit::None,
            ..*self
        })
    }
}

/// The depth-compare and integer plan copies of optimized builds
/// ([`GroupKernel::groups`]).
#[cfg(not(debug_assertions))]
impl Plan<'_> {
    /// Where the plan's result does not depend on lambda
    /// ([`Plan::lod_free`]: one level, one filter both ways, no
    /// anisotropy) and that filter is linear, a copy with those fields
    /// written as constants (as [`Plan::near_copy`]), no cube: the
    /// depth-compare kernel it runs drops its per-vector branches on the
    /// filter and the LOD.
    #[inline(always)]
    fn pcf_copy(&self) -> Option<Self> {
        let qualifies =
            self.lod_free && self.mag_linear && self.min_linear && !self.cube && self.top == 0;
        if !qualifies {
            return None;
        }
        Some(Plan {
            lod_free: true,
            nearest: false,
            mag_linear: true,
            min_linear: true,
            cube: false,
            seamless: false,
            aniso: None,
            q: 0.0,
            top: 0,
            ..*self
        })
    }

    /// Where the plan filters 8-bit codes in integers with the
    /// fixed-point footprint ([`int_taps`]: 8 fraction bits, truncated or
    /// rounded), linearly both ways with mipmap mode `mipmap`, the LOD
    /// from coarse derivatives (no fine derivatives, fixed LOD, base
    /// level or explicit LOD), on a view that is not a cube, an array or
    /// anisotropic, whose texels are words in a linear layout
    /// ([`Plan::pairs`]) repeated on both axes: a copy with those fields
    /// written as constants (as [`Plan::near_copy`]). The kernel it runs
    /// drops its per-vector branches on the footprint's form, the
    /// layout's tiles, the address modes and the layers.
    #[inline(always)]
    fn int_copy(&self, mipmap: MipmapMode) -> Option<Self> {
        let qualifies = self.int_fixed
            && self.pairs
            && self.mag_linear
            && self.min_linear
            && self.mipmap == mipmap
            && self.wrap == [Wrap::Repeat; 2]
            && !self.fine
            && !self.lod_free
            && !self.base_lod
            && !self.cube
            && !self.array
            && self.aniso.is_none()
            && matches!(self.explicit, Explicit::None);
        if !qualifies {
            return None;
        }
        Some(Plan {
            int_fixed: true,
            pairs: true,
            // (`pairs` holds only for tiles of one texel, whose share
            // tables are not read.)
            tiles: Tiles::default(),
            nearest: false,
            mag_linear: true,
            min_linear: true,
            mipmap,
            wrap: [Wrap::Repeat; 2],
            fine: false,
            lod_free: false,
            base_lod: false,
            cube: false,
            seamless: false,
            array: false,
            aniso: None,
            explicit: Explicit::None,
            ..*self
        })
    }
}

/// [`GroupKernel::groups`]' loop over whole groups from `first`, with
/// ([`NEAR`](group_with)) or without the exponent path of [`NearLevels`].
/// One call site of `group_with` in a loop of one shape (no `Option` a
/// compiler could split the loop on, copying the kernel): the last group
/// makes its own LOD a second time.
#[inline(always)]
fn group_loop<L: Lanes, const K: u8, const NEAR: bool>(
    l: L,
    p: &Plan<'_>,
    coords: &QuadCoords<'_>,
    out: &mut PlanarOut<'_>,
    (first, quads): (usize, usize),
    call: Option<&CallLod<L>>,
) -> usize {
    let n = L::N;
    let mut g = group_lod::<L, K>(l, p, coords, first, call);
    let mut q = first;
    loop {
        let more = q + 2 * n <= quads;
        let next = group_lod::<L, K>(l, p, coords, if more { q + n } else { q }, call);
        if !group_with::<L, K, NEAR>(l, p, coords, out, (q, call), g) {
            break;
        }
        q += n;
        if !more {
            break;
        }
        g = next;
    }
    q - first
}

/// [`GroupKernel::groups`] one group after another.
#[inline(always)]
fn one_by_one<G: GroupKernel, L: Lanes, const K: u8>(
    g: &G,
    l: L,
    coords: &QuadCoords<'_>,
    out: &mut PlanarOut<'_>,
    first: usize,
    quads: usize,
) -> usize {
    let mut q = first;
    while q + L::N <= quads {
        if !g.group::<L, K>(l, coords, out, q) {
            break;
        }
        q += L::N;
    }
    q - first
}

/// A kernel's plan made from one call's args ([`Plan`] from
/// [`SampleArgs`], [`GatherPlan`] from [`GatherArgs`]).
pub(crate) trait CallPlan<'a>: GroupKernel {
    /// The call's args.
    type Args: Copy + PartialEq;
    /// The plan for `args` on `ctx`, or why the kernel does not take them.
    fn for_call(ctx: &Ctx<'a>, args: &Self::Args) -> Result<Self, Fallback>;
    /// The args' depth reference (per quad; a reference plane of the
    /// call replaces it).
    fn dref(args: &mut Self::Args) -> &mut Option<[f32; 4]>;
    /// The args of one quad whose lanes' LOD operands are `lod` (from a
    /// call's `QuadCoords::lod` plane): under `Lod::Bias` and `Lod::Level`
    /// they replace the pattern; other args do not read a LOD plane.
    fn with_lod(args: &Self::Args, lod: [f32; 4]) -> Self::Args {
        let _ = lod;
        *args
    }
}

impl<'a> CallPlan<'a> for Plan<'a> {
    type Args = SampleArgs;

    fn for_call(ctx: &Ctx<'a>, args: &SampleArgs) -> Result<Plan<'a>, Fallback> {
        Plan::new(ctx, args)
    }

    fn dref(args: &mut SampleArgs) -> &mut Option<[f32; 4]> {
        &mut args.dref
    }

    fn with_lod(args: &SampleArgs, lod: [f32; 4]) -> SampleArgs {
        let mut a = *args;
        a.lod = match a.lod {
            Lod::Bias(_) => Lod::Bias(lod),
            Lod::Level(_) => Lod::Level(lod),
            other => other,
        };
        a
    }
}

impl<'a> CallPlan<'a> for GatherPlan<'a> {
    type Args = GatherArgs;

    fn for_call(ctx: &Ctx<'a>, args: &GatherArgs) -> Result<GatherPlan<'a>, Fallback> {
        GatherPlan::new(ctx, args)
    }

    fn dref(args: &mut GatherArgs) -> &mut Option<[f32; 4]> {
        &mut args.dref
    }
}

/// The groups of one call from quad `first` on while `quads` holds them,
/// through the kernel for texel kind `K`, as a [`LaneKernel`].
struct Groups<'p, 'c, 'd, 'o, 'e, G, const K: u8> {
    plan: &'p G,
    coords: &'c QuadCoords<'d>,
    out: &'o mut PlanarOut<'e>,
    first: usize,
    quads: usize,
}

impl<G: GroupKernel, const K: u8> LaneKernel for Groups<'_, '_, '_, '_, '_, G, K> {
    type Out = usize;

    #[inline(always)]
    fn run<L: Lanes>(self, l: L) -> usize {
        self.plan
            .groups::<L, K>(l, self.coords, self.out, self.first, self.quads)
    }
}

/// `reference::log2` on every lane: the same operations, selects instead
/// of early returns. Where every lane is a normal finite positive number
/// (every footprint but a degenerate one) the denormal scaling and the
/// special values' selects are left out: on such lanes they change no
/// bits (the scale is not applied, the exponent gains 0, every select
/// keeps the logarithm), so either way gives the reference's bits.
#[inline(always)]
fn log2<L: Lanes>(l: L, x: L::F) -> L::F {
    let normal = l.f(f32::MIN_POSITIVE).le(x) & x.lt(l.f(f32::INFINITY));
    if normal.all() {
        let bits = x.to_bits();
        return log2_normal(l, bits, bits.shr(23) - l.i(127));
    }
    let denormal = x.lt(l.f(f32::MIN_POSITIVE));
    let xs = denormal.select(x * l.f(LOG2_DENORMAL_SCALE), x);
    let bits = xs.to_bits();
    // `denormal` is -1 on denormal lanes.
    let e = bits.shr(23) - l.i(127) + (denormal.to_i32() & l.i(-23));
    let r = log2_normal(l, bits, e);
    let r = x.eq(l.f(0.0)).select(l.f(f32::NEG_INFINITY), r);
    let r = x.eq(l.f(f32::INFINITY)).select(x, r);
    (x.is_nan() | x.lt(l.f(0.0))).select(l.f(f32::NAN), r)
}

/// Four independent expressions, `$k` bound to 0, 1, 2 and 3 in turn: one
/// step of four chains written side by side, so that the core overlaps
/// them (a chain after a chain left it waiting on each step's latency).
macro_rules! four {
    ($k:ident => $e:expr) => {
        [
            {
                let $k = 0;
                $e
            },
            {
                let $k = 1;
                $e
            },
            {
                let $k = 2;
                $e
            },
            {
                let $k = 3;
                $e
            },
        ]
    };
}

/// [`log2`] of four vectors, each its bits: where every lane of the four
/// is a normal finite positive number, [`log2_normal`]'s steps each taken
/// on the four vectors in turn (the polynomial is a chain of dependent
/// multiplies and adds: four chains side by side hide its latency);
/// otherwise [`log2`] on each.
#[inline(always)]
fn log2_four<L: Lanes>(l: L, x: [L::F; 4]) -> [L::F; 4] {
    let (min, inf) = (l.f(f32::MIN_POSITIVE), l.f(f32::INFINITY));
    let normal = four!(k => min.le(x[k]) & x[k].lt(inf));
    if !(normal[0] & normal[1] & normal[2] & normal[3]).all() {
        return four!(k => log2(l, x[k]));
    }
    let bits = four!(k => x[k].to_bits());
    let e = four!(k => bits[k].shr(23) - l.i(127));
    let j = four!(k => bits[k].shr(19));
    let m = four!(k => ((bits[k] & l.i(0x007f_ffff)) | l.i(0x3f80_0000)).as_f32_bits());
    let inv = four!(k => l.table16(&LOG2_INV, j[k]));
    let r = four!(k => m[k] * inv[k] - l.f(1.0));
    let [c0, c1, c2, c3, c4] = LOG2_POLY;
    let p = four!(k => l.f(c4) * r[k] + l.f(c3));
    let p = four!(k => p[k] * r[k] + l.f(c2));
    let p = four!(k => p[k] * r[k] + l.f(c1));
    let p = four!(k => p[k] * r[k] + l.f(c0));
    let tab = four!(k => l.table16(&LOG2_TAB, j[k]));
    four!(k => e[k].to_f32() + (r[k] * p[k] + tab[k]))
}

/// [`log2`] of the normal number whose bits are `bits` and whose
/// unbiased exponent is `e`: the table and polynomial steps.
#[inline(always)]
fn log2_normal<L: Lanes>(l: L, bits: L::I, e: L::I) -> L::F {
    // (`table16` reads the index's low four bits.)
    let j = bits.shr(19);
    let m = ((bits & l.i(0x007f_ffff)) | l.i(0x3f80_0000)).as_f32_bits();
    let r = m * l.table16(&LOG2_INV, j) - l.f(1.0);
    let [c0, c1, c2, c3, c4] = LOG2_POLY;
    let p = (((l.f(c4) * r + l.f(c3)) * r + l.f(c2)) * r + l.f(c1)) * r + l.f(c0);
    e.to_f32() + (r * p + l.table16(&LOG2_TAB, j))
}

/// The depth reference of the pixels at `at..at + L::N` of `plane` (a
/// call's `coords.dref`, or a group's part of it; zeros without a
/// compare): the plane's values where it has them, else the plan's quad
/// pattern repeated; clamped to `[0, 1]` for UNORM depth, as
/// the reference clamps it.
#[inline(always)]
fn dref_lanes<L: Lanes>(l: L, p: &Plan<'_>, plane: &[f32], at: usize) -> L::F {
    let Some((_, d)) = p.compare else {
        return l.f(0.0);
    };
    match plane.get(at..at + L::N) {
        // (The vector clamp keeps a NaN and -0, as `f32::clamp` does.)
        Some(plane) if p.texel == TexelKind::DepthUnorm => clamp(l, l.load(plane), 0.0, 1.0),
        Some(plane) => l.load(plane),
        None => quad_pattern(l, d),
    }
}

/// The bias of pixels `at..at + L::N` (the sampler's plus the shader's,
/// clamped, as [`Plan::lane_bias`]): from the call's `coords.lod` plane
/// under `Lod::Bias` where it has one, else the quad pattern of the args.
#[inline(always)]
fn bias_lanes<L: Lanes>(l: L, p: &Plan<'_>, coords: &QuadCoords<'_>, at: usize) -> L::F {
    match coords.lod.get(at..at + L::N) {
        Some(plane) if p.lod_plane == LodPlane::Bias => {
            let mut v = [0.0f32; MAX_LANES];
            for (x, &b) in v.iter_mut().zip(plane) {
                // `Profile::clamp_bias` of the sum, as the plan's pattern.
                *x = clamp_bias_to(p.sampler_bias + b, p.max_bias);
            }
            l.load(&v)
        }
        _ => quad_pattern(l, p.lane_bias),
    }
}

/// The explicit level of detail of pixels `at..at + L::N`: from the
/// call's `coords.lod` plane under `Lod::Level` where it has one, else
/// the args' quad pattern `lambda`.
#[inline(always)]
fn level_plane<L: Lanes>(
    l: L,
    p: &Plan<'_>,
    coords: &QuadCoords<'_>,
    at: usize,
    lambda: [f32; 4],
) -> L::F {
    match coords.lod.get(at..at + L::N) {
        Some(plane) if p.lod_plane == LodPlane::Level => l.load(plane),
        _ => quad_pattern(l, lambda),
    }
}

/// `r.clamp(0.0, 1.0)` (NaN stays NaN): a UNORM depth format's reference.
fn clamp_ref(r: f32) -> f32 {
    r.clamp(0.0, 1.0)
}

/// `CompareOp::test(dref, d)` on every lane as 1.0 or 0.0 (IEEE
/// comparisons: NaN fails all but `NotEqual` and `Always`).
#[inline(always)]
fn compare<L: Lanes>(l: L, op: CompareOp, dref: L::F, d: L::F) -> L::F {
    let pass = match op {
        CompareOp::Never => return l.f(0.0),
        CompareOp::Always => return l.f(1.0),
        CompareOp::Less => dref.lt(d),
        CompareOp::Equal => dref.eq(d),
        CompareOp::LessOrEqual => dref.le(d),
        CompareOp::Greater => dref.gt(d),
        CompareOp::NotEqual => dref.eq(d).not(),
        CompareOp::GreaterOrEqual => d.le(dref),
    };
    pass.select(l.f(1.0), l.f(0.0))
}

/// [`compare`] of four depths with one reference: the operation chosen
/// once, not once a texel.
#[inline(always)]
fn compare4<L: Lanes>(l: L, op: CompareOp, dref: L::F, [a, b, c, d]: [L::F; 4]) -> [L::F; 4] {
    let pass = match op {
        CompareOp::Never => return [l.f(0.0); 4],
        CompareOp::Always => return [l.f(1.0); 4],
        CompareOp::Less => [dref.lt(a), dref.lt(b), dref.lt(c), dref.lt(d)],
        CompareOp::Equal => [dref.eq(a), dref.eq(b), dref.eq(c), dref.eq(d)],
        CompareOp::LessOrEqual => [dref.le(a), dref.le(b), dref.le(c), dref.le(d)],
        CompareOp::Greater => [dref.gt(a), dref.gt(b), dref.gt(c), dref.gt(d)],
        CompareOp::NotEqual => [
            dref.eq(a).not(),
            dref.eq(b).not(),
            dref.eq(c).not(),
            dref.eq(d).not(),
        ],
        CompareOp::GreaterOrEqual => [a.le(dref), b.le(dref), c.le(dref), d.le(dref)],
    };
    let (one, zero) = (l.f(1.0), l.f(0.0));
    [
        pass[0].select(one, zero),
        pass[1].select(one, zero),
        pass[2].select(one, zero),
        pass[3].select(one, zero),
    ]
}

/// `f32::clamp` on every lane without its panic path (NaN stays NaN).
#[inline(always)]
fn clamp<L: Lanes>(l: L, x: L::F, lo: f32, hi: f32) -> L::F {
    // (`lo` where `x < lo`, then `hi` where `x > hi`: a NaN is kept.)
    x.max_num(l.f(lo)).min_num(l.f(hi))
}

/// `Profile::quantize` on every lane, the scale precomputed.
#[inline(always)]
fn quantize<L: Lanes>(l: L, f: L::F, scale: Option<f32>, round: FracRound) -> L::F {
    match scale {
        None => f,
        Some(sc) => {
            let s = l.f(sc);
            let q = match round {
                FracRound::Truncate => (f * s).floor(),
                FracRound::Rne => (f * s).round_ties_even(),
            };
            // Over a power of two (at most 2^23, `Plan::new`): the same
            // bits as the reference's division, without a divide.
            q * l.f(1.0 / sc)
        }
    }
}

/// Per quad (one per lane): the two levels (view-relative) with their
/// weights, and whether the quad filters linearly.
#[derive(Clone, Copy)]
struct QuadLod<L: Lanes> {
    hi: L::I,
    lo: L::I,
    w_hi: L::F,
    w_lo: L::F,
    linear: L::M,
    /// The anisotropic taps per level (1 to 16, as f32) and their axis in
    /// normalized coordinates (`Aniso`; 1 and 0 without anisotropy).
    taps: L::F,
    ax: L::F,
    ay: L::F,
}

/// Lambda before bias and the anisotropic taps of every lane.
struct Footprint<L: Lanes> {
    lambda: L::F,
    taps: L::F,
    ax: L::F,
    ay: L::F,
}

impl<L: Lanes> Footprint<L> {
    /// A footprint of one tap at `lambda` (an explicit lambda, the base
    /// level, or a lambda that makes no difference).
    #[inline(always)]
    fn at(l: L, lambda: L::F) -> Footprint<L> {
        Footprint {
            lambda,
            taps: l.f(1.0),
            ax: l.f(0.0),
            ay: l.f(0.0),
        }
    }
}

/// Lambda before bias and the anisotropic taps (`Ctx::footprint`,
/// `footprint_lambda` and `Ctx::lambda`) from the derivatives of `s` and
/// `t` on every lane.
#[inline(always)]
fn footprint<L: Lanes>(
    l: L,
    p: &Plan<'_>,
    (dsx, dtx): (L::F, L::F),
    (dsy, dty): (L::F, L::F),
) -> Footprint<L> {
    let (w, h) = (l.f(p.base_wf), l.f(p.base_hf));
    let (jx0, jx1) = (dsx * w, dtx * h);
    let (jy0, jy1) = (dsy * w, dty * h);
    let zero = l.f(0.0);
    let one = l.f(1.0);
    let (a, c) = squares(l, p, (dsx, dtx), (dsy, dty));
    let Some(max_aniso) = p.aniso else {
        return Footprint {
            // `log2(max(sqrt a, sqrt c)) = log2(max(a, c)) / 2`, as the
            // reference writes it (`max` takes the number over a NaN).
            lambda: log2(l, a.max(c)) * l.f(0.5),
            taps: one,
            ax: zero,
            ay: zero,
        };
    };
    // The ellipse's semi-axes (`Footprint::axes`) and eta.
    let b = jx0 * jy0 + jx1 * jy1 + zero;
    let half = l.f(0.5);
    let root = ((a - c) * (a - c) + l.f(4.0) * b * b).sqrt();
    let s1 = ((a + c + root) * half).max(zero).sqrt();
    let s2 = ((a + c - root) * half).max(zero).sqrt();
    let ma = l.f(max_aniso);
    let eta = s2.eq(zero).select(ma, s1.div(s2).min(ma));
    let eta = (s1.eq(zero) | s1.is_finite().not()).select(one, eta);
    let taps = clamp(l, eta.ceil(), 1.0, 16.0);
    // The major axis in screen space (the eigenvector of `J^T J` for
    // `s1^2`), then through the derivatives.
    let l1 = s1 * s1;
    let (vx, vy) = (b, l1 - a);
    let small = (vx.abs() + vy.abs()).lt(l.f(1e-20));
    let (vx, vy) = (small.select(l1 - c, vx), small.select(b, vy));
    let len = (vx * vx + vy * vy).sqrt();
    let ok = len.gt(zero) & len.is_finite();
    let (ux, uy) = (vx.div(len), vy.div(len));
    Footprint {
        lambda: log2(l, s1.div(eta)),
        taps,
        ax: ok.select(dsx * ux + dsy * uy, zero),
        ay: ok.select(dtx * ux + dty * uy, zero),
    }
}

/// The squared lengths `a` and `c` of the footprint's axes in texels
/// (`Ctx::footprint`'s dot products) from the derivatives of `s` and `t`;
/// without anisotropy lambda before bias is `log2(max(a, c)) / 2`.
#[inline(always)]
fn squares<L: Lanes>(
    l: L,
    p: &Plan<'_>,
    (dsx, dtx): (L::F, L::F),
    (dsy, dty): (L::F, L::F),
) -> (L::F, L::F) {
    let (w, h) = (l.f(p.base_wf), l.f(p.base_hf));
    let (jx0, jx1) = (dsx * w, dtx * h);
    let (jy0, jy1) = (dsy * w, dty * h);
    // The reference's dot products add the third axis' `0 * 0`: a sum
    // of squares is never -0, so that `+ 0` changes no bits and is left
    // out (it stays in `footprint`'s `b`, which may be -0).
    (jx0 * jx0 + jx1 * jx1, jy0 * jy0 + jy1 * jy1)
}

/// Lambda before bias for the `N` quads whose coordinates `s` and `t`
/// hold (four vectors, quad `q` in lanes `4q..4q + 4` of their
/// concatenation), one quad per lane: coarse derivatives
/// (`quad_derivatives`) give every lane of a quad the quad's, so its
/// lambda, computed once; `0` for the base level.
#[inline(always)]
fn coarse_footprint<L: Lanes>(l: L, p: &Plan<'_>, s: &[L::F; 4], t: &[L::F; 4]) -> Footprint<L> {
    if p.base_lod {
        return Footprint::at(l, l.f(0.0));
    }
    let (s0, s1, s2) = (l.quads_lane(s, 0), l.quads_lane(s, 1), l.quads_lane(s, 2));
    let (t0, t1, t2) = (l.quads_lane(t, 0), l.quads_lane(t, 1), l.quads_lane(t, 2));
    footprint(l, p, (s1 - s0, t1 - t0), (s2 - s0, t2 - t0))
}

/// Lambda before bias of every pixel of `N / 4` whole quads under fine
/// derivatives (`quad_derivatives`: lane `l`'s `d/dx` is lane `l | 1`
/// minus lane `l & 2`, its `d/dy` lane `l | 2` minus lane `l & 1`).
#[inline(always)]
fn fine_footprint<L: Lanes>(l: L, p: &Plan<'_>, s: L::F, t: L::F) -> Footprint<L> {
    let [x, y] = fine_derivatives(l, s, t);
    footprint(l, p, x, y)
}

/// The fine derivatives `(ds/dx, dt/dx)` and `(ds/dy, dt/dy)` of every
/// lane of `N / 4` whole quads ([`fine_footprint`]'s).
#[inline(always)]
fn fine_derivatives<L: Lanes>(l: L, s: L::F, t: L::F) -> [Deriv<L>; 2] {
    // Written out: a closure may stay a function of its own, compiled
    // without the level's target features.
    let (xs, xt) = (
        l.quad_perm(s, [1, 1, 3, 3]) - l.quad_perm(s, [0, 0, 2, 2]),
        l.quad_perm(t, [1, 1, 3, 3]) - l.quad_perm(t, [0, 0, 2, 2]),
    );
    let (ys, yt) = (
        l.quad_perm(s, [2, 3, 2, 3]) - l.quad_perm(s, [0, 1, 0, 1]),
        l.quad_perm(t, [2, 3, 2, 3]) - l.quad_perm(t, [0, 1, 0, 1]),
    );
    [(xs, xt), (ys, yt)]
}

/// The derivatives `(ds, dt)` along one screen axis.
type Deriv<L> = (<L as Lanes>::F, <L as Lanes>::F);

/// `Ctx::select` on every lane from lambda before bias: the levels, their
/// weights and the filter.
#[inline(always)]
fn select<L: Lanes>(l: L, p: &Plan<'_>, fp: Footprint<L>, bias: L::F) -> QuadLod<L> {
    let lambda = fp.lambda + bias;
    // From here on lambda is not NaN, so the one-instruction `min_num` and
    // `max_num` give `f32::min` and `max`'s bits.
    let mut lambda = lambda.is_nan().select(l.f(f32::NEG_INFINITY), lambda);
    if let Some(sc) = p.lod_frac {
        // (The reference skips infinite lambdas; the floor keeps them.)
        lambda = (lambda * l.f(sc)).floor() * l.f(1.0 / sc);
    }
    let lambda = lambda.min_num(l.f(p.max_lod)).max_num(l.f(p.min_lod));
    let linear = if p.mag_linear == p.min_linear {
        l.m(p.mag_linear)
    } else {
        let mag = lambda.le(l.f(0.0));
        (mag & l.m(p.mag_linear)) | (mag.not() & l.m(p.min_linear))
    };
    // `clamp(lambda, 0, q).max(min_lod_clamp).min(q)`: the `max` changes
    // nothing when the view's clamp is at most 0 (the clamped lambda is
    // at least 0, or -0, which `max` with 0 keeps), the `min` nothing
    // when it is at most `q` (every operand is then at most `q`).
    let mut d = lambda.max_num(l.f(0.0)).min_num(l.f(p.q));
    if p.min_lod_clamp > 0.0 {
        d = d.max_num(l.f(p.min_lod_clamp));
        if p.min_lod_clamp > p.q {
            d = d.min_num(l.f(p.q));
        }
    }
    let mut out = QuadLod {
        hi: l.i(0),
        lo: l.i(0),
        w_hi: l.f(1.0),
        w_lo: l.f(0.0),
        linear,
        taps: fp.taps,
        ax: fp.ax,
        ay: fp.ay,
    };
    match p.mipmap {
        MipmapMode::None => {}
        MipmapMode::Nearest => {
            // `d` lies in `[0, q]` (or is -0), and so does the level
            // both ways: the reference's clamp of it changes nothing.
            let lv = match p.mip_nearest {
                MipNearest::CeilMinusOne => (d + l.f(0.5)).ceil() - l.f(1.0),
                MipNearest::FloorHalf => (d + l.f(0.5)).floor(),
            };
            out.hi = lv.to_i32();
        }
        MipmapMode::Linear => {
            let hi = d.floor();
            let delta = quantize(l, d - hi, p.lod_frac, p.frac_round);
            out.hi = hi.to_i32();
            let next: L::I = out.hi + l.i(1);
            out.lo = next.min(l.i(p.top));
            out.w_hi = l.f(1.0) - delta;
            out.w_lo = delta;
        }
    }
    out
}

/// [`select`]'s result for a [`Plan::lod_free`] plan, the same for every
/// lambda (NaN and the infinities included): with one level, `d`
/// clamps to 0 whatever lambda is, so every mipmap mode picks level 0
/// with weight 1 (`1 - quantize(0)`) and the next level 0 with weight 0;
/// with one filter both ways, `linear` is that filter; no anisotropy
/// leaves one tap and no axis. So lambda 0 gives it.
#[inline(always)]
fn fixed_lod<L: Lanes>(l: L, p: &Plan<'_>) -> QuadLod<L> {
    let fp = Footprint::at(l, l.f(0.0));
    select(l, p, fp, l.f(0.0))
}

/// A [`Plan::lod_free`] call's [`fixed_lod`] and, where every lane reads
/// layer 0 (no array), its two levels' fields: the same for every pixel
/// of the call, so made once a call rather than once a group or vector.
#[derive(Clone, Copy)]
struct CallLod<L: Lanes> {
    lod: QuadLod<L>,
    levels: Option<[LevelLanes<L>; 2]>,
    /// Where the plan's nearest level follows from the footprint's
    /// exponent ([`NearLevels`]), its constants.
    near: Option<NearLevels<L>>,
}

impl<L: Lanes> CallLod<L> {
    /// The call's [`CallLod`] where `p` is LOD-free (its LOD and levels)
    /// or picks its nearest level per pixel ([`NearLevels::new`]).
    #[inline(always)]
    fn new(l: L, p: &Plan<'_>) -> Option<CallLod<L>> {
        if !p.lod_free {
            let near = NearLevels::new(l, p)?;
            return Some(CallLod {
                lod: near.tmpl,
                levels: None,
                near: Some(near),
            });
        }
        let lod = fixed_lod(l, p);
        let levels = if p.array {
            None
        } else {
            Some([
                level_lanes(l, p, lod.hi, l.i(0)),
                level_lanes(l, p, lod.lo, l.i(0)),
            ])
        };
        Some(CallLod {
            lod,
            levels,
            near: None,
        })
    }
}

/// The nearest mip level of a pixel from its footprint without a
/// logarithm, where the LOD only picks that level: a LOD per pixel (fine
/// derivatives, or a cube's, whose footprint is each lane's on its face,
/// [`cube_group`]), no anisotropy, `MipmapMode::Nearest`, one filter both ways, f32 LOD
/// fractions or 1 to 12 fraction bits, and one bias on every lane. Then lambda is `t = bias +
/// log2(m) / 2` (`m` the larger squared axis, [`squares`]), the clamps
/// of [`select`] are one clamp of `t` to some `[lo, hi]`, and the level
/// is `round(clamp(t, lo, hi))` (`ceil(d + 1/2) - 1` or `floor(d +
/// 1/2)`, which differ only at halves), so `clamp(round(t), round(lo),
/// round(hi))`: the levels of `t = -inf` and `t = +inf`. With `M = m *
/// 2^(2 bias + 1)`, `round(t) = floor(log2(M) / 2)`, half of `M`'s
/// exponent rounded down, except where `M` lies within a relative 2^-13
/// below or 2^-12 above a power of four: there the reference's own
/// roundings (its `log2`, within 2e-7 relative, the sum with the bias,
/// `d + 1/2`, together below `1e-5` in `t`) could fall on either side of
/// the half, and the vector takes [`log2_four`] and [`select`] as
/// before. The margin is at least `log2(1 + 2^-13) / 2 = 8.8e-5` in `t`,
/// nine times the roundings; the product `M` and `2^(2 bias + 1)` in f32
/// move `log2(M)` by under `2^-22`.
///
/// With `b` LOD fraction bits (`s = 2^b`) the reference floors lambda to
/// `floor(s t) / s` first. The level is then `j + 1` or more where
/// `floor(s t) / s > j + 1/2` (`ceil(d + 1/2) - 1`), that is where
/// `floor(s t)` is at least `s j + s / 2 + 1`, at `t` from
/// `j + 1/2 + 1/s` on; or where `floor(s t) / s` is at least `j + 1/2`
/// (`floor(d + 1/2)`), at `t` from `j + 1/2` on. So the boundaries move
/// by `delta = 1/s` or 0, and `2^(2 bias + 1 - 2 delta)` takes the
/// place of `2^(2 bias + 1)` (rounded to f32: a relative 2^-24, far
/// inside the margin). Up to 12 bits, `d` and `d + 1/2` (at most 16 and
/// 17 significant bits below level 16) are exact in f32, so these are
/// the reference's boundaries exactly.
#[derive(Clone, Copy)]
struct NearLevels<L: Lanes> {
    /// `2^(2 bias + 1)`.
    scale: f32,
    /// The levels of `t = -inf` and `t = +inf`.
    lo: L::I,
    hi: L::I,
    /// [`select`] at `t = -inf`: a pixel's LOD but for its level.
    tmpl: QuadLod<L>,
}

impl<L: Lanes> NearLevels<L> {
    /// The constants where `p` qualifies (see [`NearLevels`]).
    #[inline(always)]
    fn new(l: L, p: &Plan<'_>) -> Option<NearLevels<L>> {
        let [b, ..] = p.lane_bias;
        let qualifies = (p.fine || p.cube)
            && !p.base_lod
            && p.aniso.is_none()
            && p.mipmap == MipmapMode::Nearest
            && p.lod_frac.is_none_or(|sc| (2.0..=4096.0).contains(&sc))
            && p.mag_linear == p.min_linear
            && matches!(p.explicit, Explicit::None)
            && p.lod_plane != LodPlane::Bias
            && p.lane_bias.iter().all(|&x| x.to_bits() == b.to_bits())
            && b.is_finite()
            && !(p.min_lod.is_nan() || p.max_lod.is_nan() || p.min_lod_clamp.is_nan());
        if !qualifies {
            return None;
        }
        // The boundaries' shift under LOD fraction bits (see above).
        let delta = match (p.lod_frac, p.mip_nearest) {
            (Some(sc), MipNearest::CeilMinusOne) => 1.0 / f64::from(sc),
            _ => 0.0,
        };
        let scale = (2.0 * f64::from(b) + 1.0 - 2.0 * delta).exp2() as f32;
        if !scale.is_normal() {
            return None;
        }
        let tmpl = select(l, p, Footprint::at(l, l.f(f32::NEG_INFINITY)), l.f(b));
        let top = select(l, p, Footprint::at(l, l.f(f32::INFINITY)), l.f(b));
        Some(NearLevels {
            scale,
            lo: tmpl.hi,
            hi: top.hi,
            tmpl,
        })
    }
}

/// The nearest levels of four vectors of pixels from their `m`
/// ([`NearLevels`]), or `None` where a lane's `m` is NaN or its `M`
/// lies near a level's boundary.
///
/// `M`'s bits plus 2^11: a mantissa within 2^11 units below a power of
/// two carries into the next exponent, so that both sides of `2^(2j)`
/// have the exponent `2j` (odd in the biased field) and a mantissa below
/// 2^12, which is "near". Half the exponent less its bias, rounded down,
/// is then `floor(log2(M) / 2)`. The other values give the reference's
/// levels too: `M` zero or subnormal gives an exponent of 0 or 1, a level
/// below every view's lowest, as `t` is (`-inf`, or under `-50`);
/// `M = inf` (and huge `M`, and a mantissa near 2^-126) is "near". A NaN
/// `m` (lambda NaN, which [`select`] takes as `-inf`) is left to it.
#[inline(always)]
fn nearest_levels<L: Lanes>(l: L, nl: &NearLevels<L>, m: &[L::F; 4]) -> Option<[L::I; 4]> {
    let b = four!(k => (m[k] * l.f(nl.scale)).to_bits() + l.i(0x800));
    let mut ok = l.m(true);
    let mut k = 0;
    while k < 4 {
        let near = ((b[k] & l.i(0x00ff_f000)) - l.i(0x0080_0000))
            .nonzero()
            .not();
        ok = ok & (near | m[k].is_nan()).not();
        k += 1;
    }
    if !ok.all() {
        return None;
    }
    Some(four!(k => (b[k].shr(23) - l.i(127)).shr(1).max(nl.lo).min(nl.hi)))
}

/// Where every lane of a group's four level vectors holds one level,
/// that level's fields at layer 0, twice ([`Made`]: the level above and,
/// unread under a nearest mipmap, the one below).
#[inline(always)]
fn one_level<L: Lanes>(l: L, p: &Plan<'_>, lv: &[L::I; 4]) -> Option<[LevelLanes<L>; 2]> {
    let apart = (lv[0] - lv[1]) | (lv[0] - lv[2]) | (lv[0] - lv[3]);
    if apart.uniform() != Some(0) {
        return None;
    }
    let level = level_lanes(l, p, l.i(lv[0].uniform()?), l.i(0));
    Some([level, level])
}

/// The levels' fields a call or group made ([`CallLod::levels`],
/// [`one_level`]), if it did.
type Made<'m, L> = Option<&'m [LevelLanes<L>; 2]>;

/// Level `lvl` of layer `layer` on every lane ([`level_lanes`]), taken
/// from the call's or group's `made` fields (`which`: 0 the level above,
/// 1 the one below) where it has them.
#[inline(always)]
fn level_of<L: Lanes>(
    l: L,
    p: &Plan<'_>,
    made: Made<'_, L>,
    which: usize,
    lvl: L::I,
    layer: L::I,
) -> LevelLanes<L> {
    match made {
        Some(m) => m[which & 1],
        None => level_lanes(l, p, lvl, layer),
    }
}

/// A level's addressing fields on every lane.
#[derive(Clone, Copy)]
struct LevelLanes<L: Lanes> {
    offset: L::I,
    /// Bytes from one layer to the next, and the lane's layer (relative
    /// to the view's base): a seamless cube footprint reads the
    /// neighbouring face's layer.
    stride: L::I,
    layer: L::I,
    w: L::I,
    h: L::I,
    wf: L::F,
    hf: L::F,
    tiles_x: L::I,
}

/// The fields of level `lvl` (view-relative) and layer `layer` (relative
/// to the view's base layer) on every lane: one table read when the lanes
/// agree on the level, one per lane otherwise.
#[inline(always)]
fn level_lanes<L: Lanes>(l: L, p: &Plan<'_>, lvl: L::I, layer: L::I) -> LevelLanes<L> {
    if let Some(level) = lvl.uniform() {
        let info = p.levels[(level & 15) as usize];
        return LevelLanes {
            offset: l.i(info.offset) + layer * l.i(info.layer_stride),
            stride: l.i(info.layer_stride),
            layer,
            w: l.i(info.w),
            h: l.i(info.h),
            wf: l.f(info.wf),
            hf: l.f(info.hf),
            tiles_x: l.i(info.tiles_x),
        };
    }
    let mut levels = [0i32; MAX_LANES];
    lvl.write(&mut levels);
    let mut f = [[0i32; MAX_LANES]; 5];
    let mut wf = [[0.0f32; MAX_LANES]; 2];
    for (i, &level) in levels.iter().enumerate().take(L::N) {
        let info = p.levels[(level & 15) as usize];
        f[0][i] = info.offset;
        f[1][i] = info.layer_stride;
        f[2][i] = info.w;
        f[3][i] = info.h;
        f[4][i] = info.tiles_x;
        wf[0][i] = info.wf;
        wf[1][i] = info.hf;
    }
    let stride = l.load_i(&f[1]);
    LevelLanes {
        offset: l.load_i(&f[0]) + layer * stride,
        stride,
        layer,
        w: l.load_i(&f[2]),
        h: l.load_i(&f[3]),
        wf: l.load(&wf[0]),
        hf: l.load(&wf[1]),
        tiles_x: l.load_i(&f[4]),
    }
}

/// The most lanes a level runs.
const MAX_LANES: usize = 16;

/// 8-bit RGBA words as f32 channels in memory order (`b, g, r, a` for
/// BGRA: `Plan::out_swizzle` swaps them back): `code / 255` (the format
/// crate's UNORM8 values), or its sRGB table for colour channels.
#[inline(always)]
fn decode<L: Lanes>(l: L, p: &Plan<'_>, words: L::I) -> [L::F; 4] {
    if p.srgb {
        [
            l.srgb(words),
            l.srgb(words.shr(8)),
            l.srgb(words.shr(16)),
            words.unorm8_at(24),
        ]
    } else {
        [
            words.unorm8_at(0),
            words.unorm8_at(8),
            words.unorm8_at(16),
            words.unorm8_at(24),
        ]
    }
}

/// [`TexelKind`] discriminants as the kernels' `K`.
const RGBA8: u8 = TexelKind::Rgba8 as u8;
const RGBA8_INT: u8 = TexelKind::Rgba8Int as u8;
const DEPTH32: u8 = TexelKind::Depth32 as u8;
const DEPTH_UNORM: u8 = TexelKind::DepthUnorm as u8;
const R32F: u8 = TexelKind::R32f as u8;
const RGBA16F: u8 = TexelKind::Rgba16f as u8;
const ANY: u8 = TexelKind::Any as u8;
/// Set in `K` for a plan of the common shape ([`Shape`]): the kernel is
/// compiled with that shape's facts as constants, so the code for
/// borders, anisotropy and explicit or per-lane-biased LODs (and, without
/// [`CUBE`], for cubes) is not in it (on AVX2 the general kernel spent
/// more instructions moving its footprint through the stack than
/// filtering).
const SIMPLE: u8 = 0x40;
const RGBA8_S: u8 = RGBA8 | SIMPLE;
const RGBA8_INT_S: u8 = RGBA8_INT | SIMPLE;
const DEPTH32_S: u8 = DEPTH32 | SIMPLE;
const DEPTH_UNORM_S: u8 = DEPTH_UNORM | SIMPLE;
const RGBA16F_S: u8 = RGBA16F | SIMPLE;
/// Set in `K` with [`SIMPLE`] for the common shape on a cube
/// ([`Shape::SimpleCube`]): the LOD and face per lane as the general
/// kernel makes them, then the simple kernel's texel reads and sums,
/// but for a seamless footprint that leaves its face (the general sums,
/// `seam_read`).
const CUBE: u8 = 0x20;
const RGBA8_CS: u8 = RGBA8 | SIMPLE | CUBE;

/// Whether kernel `K` is compiled for [`Shape::Simple`] plans (or their
/// compare and cube forms).
#[inline(always)]
const fn simple<const K: u8>() -> bool {
    K & SIMPLE != 0
}

/// Whether kernel `K` is compiled for [`Shape::SimpleCube`] plans.
#[inline(always)]
const fn simple_cube<const K: u8>() -> bool {
    K & CUBE != 0
}

/// Whether kernel `K` is compiled for the common shape on 2D views
/// ([`Shape::Simple`], [`Shape::SimpleCompare`]): one LOD per quad under
/// coarse derivatives (cubes take theirs per lane).
#[inline(always)]
const fn simple_2d<const K: u8>() -> bool {
    simple::<K>() && !simple_cube::<K>()
}

/// The texel kind of kernel `K` ([`SIMPLE`] and [`CUBE`] cleared).
#[inline(always)]
const fn kind<const K: u8>() -> u8 {
    K & !(SIMPLE | CUBE)
}

/// The texel at block index `blk` of level `lv` on every lane: decoded,
/// or compared with `dref` (R only; `Ctx::texel`).
#[inline(always)]
fn read<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    lv: &LevelLanes<L>,
    blk: L::I,
    dref: L::F,
) -> [L::F; 4] {
    read_at::<L, K>(l, p, lv.offset + blk.shl(p.texel_shift), dref)
}

/// [`read`] of the texel at byte offset `at` on every lane.
#[inline(always)]
fn read_at<L: Lanes, const K: u8>(l: L, p: &Plan<'_>, at: L::I, dref: L::F) -> [L::F; 4] {
    if const { kind::<K>() == ANY } {
        return match &p.chans {
            Some(ch) => decode_chans(l, p, ch, at),
            None => decode_lanes(l, p, at),
        };
    }
    if const { kind::<K>() == RGBA16F } {
        // The texel's 8 bytes as one load a lane.
        return l.halves4(p.bytes, at);
    }
    word_texel::<L, K>(l, p, l.words(p.bytes, at), dref)
}

/// Whether texels of kind `K` are one 4-byte word each where a plan says
/// so (`Plan::pairs`; D16's are two bytes, and its plans never pair).
#[inline(always)]
const fn word_kind<const K: u8>() -> bool {
    matches!(
        kind::<K>(),
        RGBA8 | RGBA8_INT | DEPTH32 | DEPTH_UNORM | R32F
    )
}

/// The texel of kind `K` whose word (its first, for [`RGBA16F`]'s two)
/// is `words` on every lane, as [`read_at`] gives it: compared when the
/// call compares.
#[inline(always)]
fn word_texel<L: Lanes, const K: u8>(l: L, p: &Plan<'_>, words: L::I, dref: L::F) -> [L::F; 4] {
    if const { is_depth::<K>() } {
        let d = depth::<L, K>(l, p, words);
        let r = match p.compare {
            Some((op, _)) => compare(l, op, dref, d),
            None => d,
        };
        return [r, l.f(0.0), l.f(0.0), l.f(1.0)];
    }
    if const { kind::<K>() == R32F } {
        return [words.as_f32_bits(), l.f(0.0), l.f(0.0), l.f(1.0)];
    }
    decode(l, p, words)
}

/// The words of a footprint's two columns (block shares `xs`) in each of
/// its two rows (`ys`), `[row][column]`, each row read as one 8-byte
/// load a lane (`Lanes::words2`): where the plan's texels are words in a
/// linear layout (`Plan::pairs`, so a column's share is its index) and
/// every lane's second column is its first one's neighbour or the first
/// itself (a nearest lane, a level one texel wide). `None` otherwise (a
/// column wrapped or clamped across the row's end, say), and the caller
/// reads texel by texel. The words are those of the texel-by-texel
/// reads.
#[inline(always)]
fn pair_rows<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    lv: &LevelLanes<L>,
    xs: &[L::I; 2],
    ys: &[L::I; 2],
) -> Option<[[L::I; 2]; 2]> {
    if !word_kind::<K>() {
        return None;
    }
    pairs_of(l, p, lv, xs, ys)
}

/// [`pair_rows`] for any kernel (`Plan::pairs` is false but for the word
/// kinds).
#[inline(always)]
fn pairs_of<L: Lanes>(
    l: L,
    p: &Plan<'_>,
    lv: &LevelLanes<L>,
    xs: &[L::I; 2],
    ys: &[L::I; 2],
) -> Option<[[L::I; 2]; 2]> {
    if !p.pairs {
        return None;
    }
    let d = xs[1] - xs[0];
    // `d` is 0 or 1 on every lane.
    if !(d & l.i(!1)).nonzero().not().all() {
        return None;
    }
    // `-d`: every bit where the second column is the next one; `d - 1`
    // where it is the first.
    let (next, same) = (l.i(0) - d, d - l.i(1));
    // (No closures: one would be compiled apart, without the level's
    // target features.)
    let (a0, a1) = l.words2(p.bytes, lv.offset + (xs[0] + ys[0]).shl(2));
    let (b0, b1) = l.words2(p.bytes, lv.offset + (xs[0] + ys[1]).shl(2));
    Some([
        [a0, (a1 & next) | (a0 & same)],
        [b0, (b1 & next) | (b0 & same)],
    ])
}

/// The depth of texel words of a depth kind `K` on every lane: D32F's
/// bits, or UNORM depth's bits over their maximum (`unorm_to_f32`).
#[inline(always)]
fn depth<L: Lanes, const K: u8>(l: L, p: &Plan<'_>, words: L::I) -> L::F {
    if const { kind::<K>() == DEPTH_UNORM } {
        (words & l.i(p.depth_mask)).to_f32().div(l.f(p.depth_max))
    } else {
        words.as_f32_bits()
    }
}

/// [`TexelKind::Any`] with [`Chan`]s: the texel at byte offset `at` of
/// every lane, its words read on all lanes (`Lanes::words`: 0 past the
/// end, so a masked lane's offset reads a harmless texel) and each
/// channel decoded from them.
#[inline(always)]
fn decode_chans<L: Lanes>(l: L, p: &Plan<'_>, ch: &[Chan; 4], at: L::I) -> [L::F; 4] {
    let mut w = [l.i(0); 4];
    let n = (1usize << p.texel_shift).div_ceil(4);
    if n >= 2 {
        // 8- and 16-byte texels: their words two at a time, one 8-byte
        // load a lane each (`Lanes::words2`).
        (w[0], w[1]) = l.words2(p.bytes, at);
        if n == 4 {
            (w[2], w[3]) = l.words2(p.bytes, at + l.i(8));
        }
    } else {
        w[0] = l.words(p.bytes, at);
    }
    // (No `map` closure: it was not inlined into the level's function,
    // which left each intrinsic an out-of-line call.)
    [
        chan(l, ch[0], &w),
        chan(l, ch[1], &w),
        chan(l, ch[2], &w),
        chan(l, ch[3], &w),
    ]
}

/// One [`Chan`] from a texel's words on every lane.
#[inline(always)]
fn chan<L: Lanes>(l: L, c: Chan, w: &[L::I; 4]) -> L::F {
    match c {
        Chan::Const(v) => l.f(v),
        // An 8-bit code on a byte boundary: `unorm8_at`, the same
        // correctly rounded quotient as the division.
        Chan::Unorm {
            word,
            shift: shift @ (0 | 8 | 16 | 24),
            mask: 0xff,
            ..
        } => w[usize::from(word)].unorm8_at(i32::from(shift)),
        Chan::Unorm {
            word,
            shift,
            mask,
            max,
        } => (w[usize::from(word)].shr_u(i32::from(shift)) & l.i(mask))
            .to_f32()
            .div(l.f(max)),
        Chan::Snorm {
            word,
            shift,
            width,
            max,
        } => w[usize::from(word)]
            .shl(32 - i32::from(shift) - i32::from(width))
            .shr(32 - i32::from(width))
            .to_f32()
            .div(l.f(max))
            .max(l.f(-1.0)),
        Chan::Srgb { word, shift } => l.srgb(w[usize::from(word)].shr_u(i32::from(shift))),
        Chan::Half { word, high: false } => w[usize::from(word)].f16_lo(),
        Chan::Half { word, high: true } => w[usize::from(word)].f16_hi(),
        Chan::Float { word } => w[usize::from(word)].as_f32_bits(),
    }
}

/// [`TexelKind::Any`]: the texel at byte offset `at` of every lane,
/// decoded lane by lane by the format crate (`texel::decode`, what the
/// reference reads through); a lane whose texel is not inside the
/// texture's bytes (a masked lane's offset) reads zeros.
#[inline(always)]
fn decode_lanes<L: Lanes>(l: L, p: &Plan<'_>, at: L::I) -> [L::F; 4] {
    const MAX: usize = 16;
    let n = 1usize << p.texel_shift;
    let mut offs = [0i32; MAX];
    at.write(&mut offs[..L::N]);
    let mut ch = [[0.0f32; MAX]; 4];
    for (i, &o) in offs[..L::N].iter().enumerate() {
        let t = usize::try_from(o)
            .ok()
            .and_then(|o| p.bytes.get(o..o + n))
            .and_then(|b| texel::decode(p.format, p.format.default_aspect(), b).ok())
            .map_or([0.0; 4], Texel::to_f32);
        for (c, v) in ch.iter_mut().zip(t) {
            c[i] = v;
        }
    }
    ch.map(|c| l.load(&c[..L::N]))
}

/// The block-index share of column `x >= 0` (`Subresource::x_blocks`):
/// the tile's place along its row plus the column's share inside the
/// tile (a byte-table lookup, `Tiles::col`).
#[inline(always)]
fn column_blocks<L: Lanes>(l: L, p: &Plan<'_>, x: L::I) -> L::I {
    let Tiles { tw, th, col, .. } = p.tiles;
    if (tw | th) == 0 {
        // A linear layout (tiles of one texel, tables of zeros): the
        // column itself.
        return x;
    }
    x.shr(tw).shl(tw + th) + l.lookup16(col, x)
}

/// The block-index share of row `y >= 0` (`Subresource::yz_blocks`).
#[inline(always)]
fn row_blocks<L: Lanes>(l: L, p: &Plan<'_>, lv: &LevelLanes<L>, y: L::I) -> L::I {
    let Tiles { tw, th, row, .. } = p.tiles;
    if (tw | th) == 0 {
        // A linear layout: the row's start.
        return y * lv.tiles_x;
    }
    (y.shr(th) * lv.tiles_x).shl(tw + th) + l.lookup16(row, y)
}

/// Whether texels of kind `K` are depth (compared when the call
/// compares).
#[inline(always)]
const fn is_depth<const K: u8>() -> bool {
    kind::<K>() == DEPTH32 || kind::<K>() == DEPTH_UNORM
}

/// Whether texels of kind `K` read by `p` may be negative, -0, infinite
/// or NaN (the float formats, D32F without a compare, border colours): terms of weight
/// zero must then be skipped, as the reference skips them, rather than
/// added.
#[inline(always)]
fn signed_texels<const K: u8>(p: &Plan<'_>) -> bool {
    // A border colour may be negative, -0 or not finite too.
    kind::<K>() == R32F
        || kind::<K>() == RGBA16F
        || kind::<K>() == ANY
        || (kind::<K>() == DEPTH32 && p.compare.is_none())
        || p.border.is_some()
}

/// One level's footprint of `N` pixels at `(s, t)`, `linear` per lane
/// (`Ctx::level_taps`, wrapped): the block-index shares of the two
/// columns and rows (the first only when both filters are nearest) and
/// the per-axis weights, and where `clamp_to_border` left the level.
/// `None` when a lane's texel index is not exact in i32 (NaN, infinite,
/// beyond 2^24).
struct Taps<L: Lanes> {
    xs: [L::I; 2],
    ys: [L::I; 2],
    wts: [[L::F; 2]; 2],
    /// Per axis and tap: the index lies in the level (always, but for
    /// `clamp_to_border`).
    inside: [[L::M; 2]; 2],
    /// Seamless cubes: per axis and tap, the unwrapped index and whether
    /// it left the face on a linear lane; `seam` when any did.
    raw: [[L::I; 2]; 2],
    off: [[L::M; 2]; 2],
    seam: bool,
}

#[inline(always)]
fn level_taps<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    lv: &LevelLanes<L>,
    linear: L::M,
    (s, t): (L::F, L::F),
) -> Option<Taps<L>> {
    // Each axis by its own call with a constant axis (no loop over the
    // axes: arrays indexed by a loop variable stayed in memory, and
    // building the returned footprint copied them, about a sixth of a
    // nearest sample's time on AVX2).
    let ax = axis_taps::<L, K>(l, p, 0, linear, (s, lv.wf, lv.w))?;
    let ay = axis_taps::<L, K>(l, p, 1, linear, (t, lv.hf, lv.h))?;
    // Nearest everywhere: one texel, weight one.
    let (xs, ys) = if p.nearest {
        (
            [column_blocks(l, p, ax.idx[0]), l.i(0)],
            [row_blocks(l, p, lv, ay.idx[0]), l.i(0)],
        )
    } else {
        (
            [
                column_blocks(l, p, ax.idx[0]),
                column_blocks(l, p, ax.idx[1]),
            ],
            [
                row_blocks(l, p, lv, ay.idx[0]),
                row_blocks(l, p, lv, ay.idx[1]),
            ],
        )
    };
    Some(Taps {
        xs,
        ys,
        wts: [ax.wts, ay.wts],
        inside: [ax.inside, ay.inside],
        raw: [ax.raw, ay.raw],
        off: [ax.off, ay.off],
        seam: ax.seam || ay.seam,
    })
}

/// One axis of [`level_taps`]: the two wrapped indices, the weights and
/// the edge facts of axis `k` (0 for `s`, 1 for `t`).
struct AxisTaps<L: Lanes> {
    idx: [L::I; 2],
    wts: [L::F; 2],
    inside: [L::M; 2],
    raw: [L::I; 2],
    off: [L::M; 2],
    seam: bool,
}

#[inline(always)]
fn axis_taps<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    k: usize,
    linear: L::M,
    (st, size_f, size): (L::F, L::F, L::I),
) -> Option<AxisTaps<L>> {
    let u = st * size_f + l.f(p.offset[k]);
    let x = linear.select(u - l.f(0.5), u);
    let fl = x.floor();
    if !fl.abs().lt(l.f(16_777_216.0)).all() {
        return None;
    }
    let (off, seam) = if const { !simple::<K>() || simple_cube::<K>() } && p.seamless && !p.nearest
    {
        // A linear footprint that leaves the face reads the neighbouring
        // face (`Ctx::cube_texel`, in `seam_read`).
        let top = size_f - l.f(1.0);
        let next = fl + l.f(1.0);
        let off = [
            linear & (fl.lt(l.f(0.0)) | fl.gt(top)),
            linear & (next.lt(l.f(0.0)) | next.gt(top)),
        ];
        (off, !(off[0] | off[1]).not().all())
    } else {
        ([l.m(false); 2], false)
    };
    // (Finite: `fl` is, so `x` is.)
    // Both filters nearest: `linear` is false on every lane, and the
    // weight 0 (a branch on the plan, so nearest plans skip quantizing).
    let a = if p.nearest {
        l.f(0.0)
    } else {
        linear.select(quantize(l, x - fl, p.weight_frac, p.frac_round), l.f(0.0))
    };
    let i0 = fl.to_i32();
    // `linear` is -1 on linear lanes: their second index is one on.
    let i1 = i0 - linear.to_i32();
    // (Both filters nearest: the second tap is not read.)
    let idx = if p.nearest {
        [wrap_index::<L, K>(l, p, k, i0, (size, size_f)), i0]
    } else {
        wrap_pair::<L, K>(l, p, k, (i0, i1), (size, size_f))
    };
    let inside = if const { !simple::<K>() } && p.wrap[k] == Wrap::Border {
        // `wrap_index` clamps: an index it moved was outside.
        [(idx[0] - i0).nonzero().not(), (idx[1] - i1).nonzero().not()]
    } else {
        [l.m(true); 2]
    };
    Some(AxisTaps {
        idx,
        wts: [l.f(1.0) - a, a],
        inside,
        raw: [i0, i1],
        off,
        seam,
    })
}

/// The seamless cube texel of every lane at unwrapped indices `(i, j)`
/// of its face (`Ctx::cube_texel`): on the face, its texel; one index off
/// (`off_i`, `off_j`: linear lanes only), the neighbouring face's texel
/// (`cube_neighbour`); both off, the average of the face's corner texel
/// and the two neighbours'. `own` is the lanes' clamped block index on
/// their face.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn seam_read<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    lv: &LevelLanes<L>,
    own: L::I,
    (i, j): (L::I, L::I),
    (off_i, off_j): (L::M, L::M),
    dref: L::F,
) -> [L::F; 4] {
    let mine = read::<L, K>(l, p, lv, own, dref);
    let (any_i, any_j) = (!off_i.not().all(), !off_j.not().all());
    if !any_i && !any_j {
        return mine;
    }
    let top = lv.w - l.i(1);
    let (ci, cj) = (i.max(l.i(0)).min(top), j.max(l.i(0)).min(top));
    // The lane's face: its layer is `6 * cube + face` (exact in f32).
    let lf = lv.layer.to_f32();
    let face = (lf - l.f(6.0) * lf.div(l.f(6.0)).floor()).to_i32();
    // (No closures here: one may stay a function of its own, compiled
    // without the level's target features.)
    let zero = [l.f(0.0); 4];
    let across_i = if any_i {
        across::<L, K>(l, p, lv, face, (i, cj), dref)
    } else {
        zero
    };
    let across_j = if any_j {
        across::<L, K>(l, p, lv, face, (ci, j), dref)
    } else {
        zero
    };
    let corner = off_i & off_j;
    let (only_i, only_j) = (off_i & off_j.not(), off_j & off_i.not());
    let third = l.f(3.0);
    let mut v = mine;
    for c in 0..4 {
        if any_i {
            v[c] = only_i.select(across_i[c], v[c]);
        }
        if any_j {
            v[c] = only_j.select(across_j[c], v[c]);
        }
        if any_i && any_j {
            let avg =
                l.f(0.0) + mine[c].div(third) + across_i[c].div(third) + across_j[c].div(third);
            v[c] = corner.select(avg, v[c]);
        }
    }
    v
}

/// The texel across the edge of each lane's face from `(i, j)`.
#[inline(always)]
fn across<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    lv: &LevelLanes<L>,
    face: L::I,
    (i, j): (L::I, L::I),
    dref: L::F,
) -> [L::F; 4] {
    let (f, ni, nj) = neighbour(l, face, i, j, lv.w, lv.wf);
    let blk = column_blocks(l, p, ni) + row_blocks(l, p, lv, nj);
    let at = lv.offset + (f - face) * lv.stride + blk.shl(p.texel_shift);
    read_at::<L, K>(l, p, at, dref)
}

/// `reference::cube_neighbour` on every lane: texel `(i, j)` of face
/// `face` (size `n`, `nf` as f32), one index off the face, as the
/// neighbouring face's `(face, i, j)`.
#[inline(always)]
fn neighbour<L: Lanes>(
    l: L,
    face: L::I,
    i: L::I,
    j: L::I,
    n: L::I,
    nf: L::F,
) -> (L::I, L::I, L::I) {
    let (one, two, half) = (l.f(1.0), l.f(2.0), l.f(0.5));
    let sc = (two * (i.to_f32() + half)).div(nf) - one;
    let tc = (two * (j.to_f32() + half)).div(nf) - one;
    // `face_dir`: the direction through `(sc, tc)` of each lane's face.
    let neg = l.f(-1.0);
    let (nsc, ntc) = (sc * neg, tc * neg);
    let ff = face.to_f32();
    let mut on = [l.m(false); 6];
    let mut k = 0;
    while k < 6 {
        on[k] = ff.eq(l.f(k as f32));
        k += 1;
    }
    let x = by_face::<L>(&on, [one, neg, sc, sc, sc, nsc]);
    let y = by_face::<L>(&on, [ntc, ntc, one, neg, ntc, ntc]);
    let z = by_face::<L>(&on, [nsc, sc, tc, ntc, one, neg]);
    let cf = CubeFace::new(l, x, y, z);
    let (s, t) = cf.coords(l);
    let top = n - l.i(1);
    let (ii, jj) = ((s * nf).floor().to_i32(), (t * nf).floor().to_i32());
    (cf.face, ii.max(l.i(0)).min(top), jj.max(l.i(0)).min(top))
}

/// Per lane, `v[face]` for the lane's face (`on[k]`: the lane is on face
/// `k`; face 5 when none is).
#[inline(always)]
fn by_face<L: Lanes>(on: &[L::M; 6], v: [L::F; 6]) -> L::F {
    let mut r = v[5];
    let mut k = 5;
    while k > 0 {
        k -= 1;
        r = on[k].select(v[k], r);
    }
    r
}

/// One level's nearest-or-bilinear filter (`Ctx::filter_level`) of `N`
/// pixels at `(s, t)`, `linear` per lane. `None` when a lane's texel index
/// is not exact in i32 (NaN, infinite, beyond 2^24).
#[inline(always)]
fn filter_level<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    lv: &LevelLanes<L>,
    linear: L::M,
    (s, t): (L::F, L::F),
    dref: L::F,
) -> Option<[L::F; 4]> {
    let taps = level_taps::<L, K>(l, p, lv, linear, (s, t))?;
    let texels = tap_texels::<L, K>(l, p, lv, &taps, dref);
    Some(weigh::<L, K>(l, p, &taps, &texels, dref))
}

/// The texels of a level's footprint (`texels[2 * ky + kx]`), read and
/// decoded (compared when the call compares; the seamless cube rule
/// applied): only the first when both filters are nearest. Kept apart
/// from [`weigh`] so that a trilinear filter issues both levels' reads
/// before it waits for either.
#[inline(always)]
fn tap_texels<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    lv: &LevelLanes<L>,
    taps: &Taps<L>,
    dref: L::F,
) -> [[L::F; 4]; 4] {
    let Taps {
        xs, ys, raw, off, ..
    } = taps;
    let mut texels = [[l.f(0.0); 4]; 4];
    if !taps.seam && !p.nearest {
        if let Some(rows) = pair_rows::<L, K>(l, p, lv, xs, ys) {
            // (Indexed: array iterators kept the words in memory.)
            for ky in 0..2 {
                for kx in 0..2 {
                    texels[2 * ky + kx] = word_texel::<L, K>(l, p, rows[ky][kx], dref);
                }
            }
            return texels;
        }
    }
    if const { kind::<K>() == RGBA16F } && !taps.seam {
        // Written out, each texel a value of its own (in the loop below
        // the texels went through memory: 8-byte texels take no pairs).
        let t00 = read::<L, K>(l, p, lv, xs[0] + ys[0], dref);
        if p.nearest {
            return [t00, texels[1], texels[2], texels[3]];
        }
        return [
            t00,
            read::<L, K>(l, p, lv, xs[1] + ys[0], dref),
            read::<L, K>(l, p, lv, xs[0] + ys[1], dref),
            read::<L, K>(l, p, lv, xs[1] + ys[1], dref),
        ];
    }
    for ky in 0..2 {
        for kx in 0..2 {
            if p.nearest && (kx, ky) != (0, 0) {
                continue;
            }
            texels[2 * ky + kx] = if taps.seam {
                seam_read::<L, K>(
                    l,
                    p,
                    lv,
                    xs[kx] + ys[ky],
                    (raw[0][kx], raw[1][ky]),
                    (off[0][kx], off[1][ky]),
                    dref,
                )
            } else {
                read::<L, K>(l, p, lv, xs[kx] + ys[ky], dref)
            };
        }
    }
    texels
}

/// A level's filtered value from its footprint's texels
/// (`Ctx::filter_level`'s sum).
#[inline(always)]
fn weigh<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    taps: &Taps<L>,
    texels: &[[L::F; 4]; 4],
    dref: L::F,
) -> [L::F; 4] {
    let Taps { wts, inside, .. } = taps;
    // (Nearest: `-0.0 + 1 * v` is `v` for UNORM values.)
    // `filter_level`'s order: ky outer, kx inner, from -0.0. UNORM texels
    // and compare results are never negative, so a zero-weight term adds
    // +0 and leaves the same bits as the reference's skipped term once a
    // weighted term is in (the weights sum to one). Texels that may be
    // negative, -0, infinite or NaN (the float formats, D32F read without
    // a compare) skip zero-weight terms as the reference does.
    let signed = signed_texels::<K>(p);
    if p.nearest && !signed {
        return texels[0];
    }
    // The border texel as read (compared when the call compares), its
    // channels in the kernel's order.
    let border = p.border_raw.map(|b| match p.compare {
        Some((op, _)) => [
            compare(l, op, dref, l.f(b[0])),
            l.f(0.0),
            l.f(0.0),
            l.f(1.0),
        ],
        None => [l.f(b[0]), l.f(b[1]), l.f(b[2]), l.f(b[3])],
    });
    // Compares filter channel R alone. (Colour kinds never compare: a
    // constant bound, so the channel loops unroll and `acc` stays in
    // registers.)
    let channels = if const { is_depth::<K>() } && p.compare.is_some() {
        1
    } else {
        4
    };
    let mut acc = [l.f(-0.0); 4];
    // One-channel kinds read without a compare (R32F, depth) give every
    // texel `(v, 0, 0, 1)` ([`word_texel`]; no border colour replaces
    // one, no seam averages them): G and B sum `w * 0 = +0` (weights are
    // never negative), so they are +0 once a term is in and the start's
    // -0 before; A sums `w * 1 = w`. Written so, the same bits, without
    // two channels' products and sums and A's products.
    if const { kind::<K>() == R32F || is_depth::<K>() }
        && p.compare.is_none()
        && border.is_none()
        && !taps.seam
    {
        let mut any = l.m(false);
        for ky in 0..2 {
            for kx in 0..2 {
                if p.nearest && (kx, ky) != (0, 0) {
                    continue;
                }
                let w = wts[0][kx] * wts[1][ky];
                let v = texels[2 * ky + kx][0];
                if signed {
                    // `filter_level` skips zero-weight terms.
                    let live = w.eq(l.f(0.0)).not();
                    acc[0] = live.select(acc[0] + w * v, acc[0]);
                    acc[3] = live.select(acc[3] + w, acc[3]);
                    any = any | live;
                } else {
                    acc[0] = acc[0] + w * v;
                    acc[3] = acc[3] + w;
                    any = l.m(true);
                }
            }
        }
        let zero = any.select(l.f(0.0), l.f(-0.0));
        return [acc[0], zero, zero, acc[3]];
    }
    // Signed texels with every term weighted on every lane (a linear
    // footprint off the texel centres, the common case): no term is
    // skipped, so the plain sums below are the reference's.
    let all_live = signed && {
        let mut live = (wts[0][0] * wts[1][0]).eq(l.f(0.0)).not();
        if !p.nearest {
            live = live
                & (wts[0][1] * wts[1][0]).eq(l.f(0.0)).not()
                & (wts[0][0] * wts[1][1]).eq(l.f(0.0)).not()
                & (wts[0][1] * wts[1][1]).eq(l.f(0.0)).not();
        }
        live.all()
    };
    for ky in 0..2 {
        for kx in 0..2 {
            if p.nearest && (kx, ky) != (0, 0) {
                continue;
            }
            let w = wts[0][kx] * wts[1][ky];
            let mut v = texels[2 * ky + kx];
            if let Some(b) = border {
                let ins = inside[0][kx] & inside[1][ky];
                for c in 0..4 {
                    v[c] = ins.select(v[c], b[c]);
                }
            }
            if signed && !all_live {
                // `filter_level` skips zero-weight terms.
                let live = w.eq(l.f(0.0)).not();
                for c in 0..4 {
                    if c < channels {
                        acc[c] = live.select(acc[c] + w * v[c], acc[c]);
                    }
                }
            } else {
                for c in 0..4 {
                    if c < channels {
                        acc[c] = acc[c] + w * v[c];
                    }
                }
            }
        }
    }
    acc
}

/// Integer filtering of one level (`Ctx::filter_level_int`, then the
/// rounding of `Ctx::sample_lane`) of `N` pixels: per channel (`r, g, b,
/// a` after the BGRA swap) the sum of `w * c` over the footprint rounded
/// half up to 8.8 fixed point. Weights in 256ths, codes and their
/// products are integers below 2^24, so every f32 step is exact. Its
/// reads ([`int_reads`]) then its sums ([`int_sums`]).
#[inline(always)]
fn filter_level_int<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    lv: &LevelLanes<L>,
    linear: L::M,
    (s, t): (L::F, L::F),
) -> Option<[L::F; 4]> {
    let reads = int_reads::<L, K>(l, p, lv, linear, (s, t))?;
    Some(int_sums(l, p, &reads))
}

/// One level's texel words for [`int_sums`], with the footprint's
/// weights in 256ths: the one texel of each lane under `p.nearest`, else
/// both rows' two texels (`rows[row][column]`).
struct IntReads<L: Lanes> {
    rows: [[L::I; 2]; 2],
    wx1: L::I,
    wy: [L::F; 2],
}

/// [`filter_level_int`]'s reads: the footprint ([`int_taps`], else
/// [`level_taps`]' weights in 256ths) and its texel words. `None`: a
/// lane's texel index is not exact in i32.
#[inline(always)]
fn int_reads<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    lv: &LevelLanes<L>,
    linear: L::M,
    (s, t): (L::F, L::F),
) -> Option<IntReads<L>> {
    let k = l.f(256.0);
    // The taps' block indices and the weights of the second column and
    // of both rows, in 256ths.
    let IntTaps { xs, ys, wx1, wy } = match int_taps::<L, K>(l, p, lv, linear, (s, t)) {
        Some(taps) => taps,
        None => {
            let Taps { xs, ys, wts, .. } = level_taps::<L, K>(l, p, lv, linear, (s, t))?;
            IntTaps {
                xs,
                ys,
                wx1: (wts[0][1] * k).to_i32(),
                wy: [wts[1][0] * k, wts[1][1] * k],
            }
        }
    };
    if p.nearest {
        let words = l.words(p.bytes, lv.offset + (xs[0] + ys[0]).shl(2));
        return Some(IntReads {
            rows: [[words; 2]; 2],
            wx1,
            wy,
        });
    }
    let rows = match pair_rows::<L, K>(l, p, lv, &xs, &ys) {
        Some(rows) => rows,
        None => [
            [
                l.words(p.bytes, lv.offset + (xs[0] + ys[0]).shl(2)),
                l.words(p.bytes, lv.offset + (xs[1] + ys[0]).shl(2)),
            ],
            [
                l.words(p.bytes, lv.offset + (xs[0] + ys[1]).shl(2)),
                l.words(p.bytes, lv.offset + (xs[1] + ys[1]).shl(2)),
            ],
        ],
    };
    Some(IntReads { rows, wx1, wy })
}

/// [`filter_level_int`]'s sums of the words [`int_reads`] read.
#[inline(always)]
fn int_sums<L: Lanes>(l: L, p: &Plan<'_>, r: &IntReads<L>) -> [L::F; 4] {
    let k = l.f(256.0);
    // Memory order (`Plan::out_swizzle` swaps BGRA back).
    let sh = [0, 8, 16, 24];
    if p.nearest {
        let words = r.rows[0][0];
        return [
            code(l, words, sh[0]) * k,
            code(l, words, sh[1]) * k,
            code(l, words, sh[2]) * k,
            code(l, words, sh[3]) * k,
        ];
    }
    // Per row, the horizontal sums `H = wx0 * c0 + wx1 * c1` in 16-bit
    // halves, two channels a lane (R and B, then G and A): weights in
    // 256ths summing to 256, so `H <= 255 * 256` fits 16 bits and every
    // product is exact in `pmullw`'s low half. Then in f32 lanes `S =
    // wy0 * H0 + wy1 * H1`: integers below 2^24, exact. `S` is the
    // reference's sum of `(wx * wy) * c` over the footprint (integer
    // arithmetic is distributive).
    let (wx1, wy) = (r.wx1, r.wy);
    let wx0 = l.i(256) - wx1;
    let (px0, px1) = (wx0 | wx0.shl(16), wx1 | wx1.shl(16));
    let (even, low) = (l.i(0x00ff_00ff), l.i(0xffff));
    // The first row's products start the sums (no `0 + x`, which the
    // compiler must keep: it turns -0 into +0).
    let mut sum = [l.f(0.0); 4];
    for (ky, &[w0, w1]) in r.rows.iter().enumerate() {
        let rb = (w0 & even).mul_lo16(px0) + (w1 & even).mul_lo16(px1);
        let ga = (w0.shr(8) & even).mul_lo16(px0) + (w1.shr(8) & even).mul_lo16(px1);
        let h = [rb & low, ga & low, rb.shr_u(16), ga.shr_u(16)];
        for (acc, h) in sum.iter_mut().zip(h) {
            // (Exact: the FMA's one rounding is the two operations'.)
            *acc = if ky == 0 {
                wy[ky] * h.to_f32()
            } else {
                wy[ky].mul_add_exact(h.to_f32(), *acc)
            };
        }
    }
    // `(sum + 128) >> 8`: the sum over 256 is exact, so is adding 1/2
    // (below 2^16 with 8 fraction bits), in one FMA.
    let (scale, half) = (l.f(1.0 / 256.0), l.f(0.5));
    for v in &mut sum {
        *v = v.mul_add_exact(scale, half).floor();
    }
    sum
}

/// [`level_taps`] for integer filtering with 8 fraction bits, in fixed
/// point: `X = floor(x * 256)` (exact: a power-of-two scale, then
/// `floor`) is `256 floor(x) + floor(256 frac(x))`, so `X >> 8` is the
/// first tap's index and `X & 255` the quantized fraction in 256ths, the
/// reference's values without a second `floor` and the weights'
/// conversions. Rounded fractions (`D3D11`) take `X = rne(x * 256)` on
/// linear lanes: `256 floor(x)` is an even integer, so `X` is `256
/// floor(x) + rne(256 frac(x))` (ties go to the same neighbour), and
/// where the fraction rounds up to 256ths' 256 (the reference's weights
/// 0 and 1 on taps `i0`, `i0 + 1`) `X` names taps `i0 + 1`, `i0 + 2`
/// with weights 1 and 0: the same exact integer sum, as no border or
/// other texel that is not a code takes part in integer filtering. The
/// taps' block indices, the second column's weight (`i32`) and the
/// rows' weights (f32), or `None` where the fixed-point form does not
/// apply (a lane with `|x| >= 2^23`, NaN included): [`level_taps`] then.
#[inline(always)]
fn int_taps<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    lv: &LevelLanes<L>,
    linear: L::M,
    (s, t): (L::F, L::F),
) -> Option<IntTaps<L>> {
    if !p.int_fixed {
        return None;
    }
    let lin = linear.to_i32();
    let mut idx = [[l.i(0); 2]; 2];
    let mut frac = [l.i(0); 2];
    let axes = [(s, lv.wf, lv.w), (t, lv.hf, lv.h)];
    for (k, (st, size_f, size)) in axes.into_iter().enumerate() {
        let u = st * size_f + l.f(p.offset[k]);
        let x = linear.select(u - l.f(0.5), u) * l.f(256.0);
        if !x.abs().lt(l.f(2_147_483_648.0)).all() {
            return None;
        }
        let fixed = if p.frac_round == FracRound::Rne {
            // (Nearest lanes take `floor(u)`: `floor(256 u) >> 8`.)
            linear.select(x.round_ties_even(), x.floor())
        } else {
            x.floor()
        }
        .to_i32();
        let i0 = fixed.shr(8);
        // `lin` is -1 on linear lanes: their second index is one on, and
        // only they weigh a fraction.
        frac[k] = fixed & l.i(255) & lin;
        idx[k] = wrap_pair::<L, K>(l, p, k, (i0, i0 - lin), (size, size_f));
    }
    let xs = [
        column_blocks(l, p, idx[0][0]),
        column_blocks(l, p, idx[0][1]),
    ];
    let ys = [
        row_blocks(l, p, lv, idx[1][0]),
        row_blocks(l, p, lv, idx[1][1]),
    ];
    let wy1 = frac[1].to_f32();
    Some(IntTaps {
        xs,
        ys,
        wx1: frac[0],
        wy: [l.f(256.0) - wy1, wy1],
    })
}

/// [`int_taps`]' footprint: the block-index shares of the two columns
/// and rows, the second column's weight and both rows' weights, in
/// 256ths.
struct IntTaps<L: Lanes> {
    xs: [L::I; 2],
    ys: [L::I; 2],
    wx1: L::I,
    wy: [L::F; 2],
}

/// The 8-bit code at bit `shift` of every lane's texel word, as f32.
#[inline(always)]
fn code<L: Lanes>(l: L, words: L::I, shift: i32) -> L::F {
    (words.shr(shift) & l.i(0xff)).to_f32()
}

/// Integer filtering's levels (`Ctx::sample_lane`): `T = v_hi * (256 -
/// f) + v_lo * f` (exact below 2^24) and `T / (255 * 65536)`, correctly
/// rounded (`div255` with the power of two folded into its constants).
#[inline(always)]
fn levels_int<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    (lod, made): (&QuadLod<L>, Made<'_, L>),
    layer: L::I,
    (s, t): (L::F, L::F),
) -> Option<[L::F; 4]> {
    let linear = lod.linear;
    let lv = level_of(l, p, made, 0, lod.hi, layer);
    if lod.w_lo.eq(l.f(0.0)).all() {
        let mut acc = filter_level_int::<L, K>(l, p, &lv, linear, (s, t))?;
        // One level (`w_hi` is 1): `T = 256 v`, and `T / (255 * 65536)`
        // is `v / (255 * 256)`, the same correctly rounded quotient.
        for v in &mut acc {
            *v = v.div255(8);
        }
        return Some(acc);
    }
    let k = l.f(256.0);
    let (w0, w1) = (lod.w_hi * k, lod.w_lo * k);
    let lv1 = level_of(l, p, made, 1, lod.lo, layer);
    // Both levels' reads first, then their sums (the second level's
    // loads need not wait for the first level's arithmetic).
    let r0 = int_reads::<L, K>(l, p, &lv, linear, (s, t))?;
    let r1 = int_reads::<L, K>(l, p, &lv1, linear, (s, t))?;
    let mut acc = int_sums(l, p, &r0);
    let v1 = int_sums(l, p, &r1);
    for (a, v) in acc.iter_mut().zip(v1) {
        // (Exact below 2^24.)
        *a = v.mul_add_exact(w1, *a * w0).div255(16);
    }
    Some(acc)
}

/// `select_layer` on every lane, relative to the view's base layer.
#[inline(always)]
fn layers<L: Lanes>(l: L, p: &Plan<'_>, a: L::F, count: u32) -> L::I {
    let r = match p.layer_round {
        LayerRound::Rne => a.round_ties_even(),
        LayerRound::FloorHalf => (a + l.f(0.5)).floor(),
    };
    let top = l.f(count.max(1) as f32 - 1.0);
    let none = r.is_nan() | r.le(l.f(0.0));
    // (NaN lanes are `none`: the one-instruction `min` is enough.)
    none.select(l.f(0.0), r.min_num(top)).to_i32()
}

/// One vector of a group, ready to filter: its LOD, its coordinates in
/// the level's space (face coordinates for cubes) and its layers.
struct Prepared<L: Lanes> {
    lod: QuadLod<L>,
    st: (L::F, L::F),
    layer: L::I,
}

/// The per-quad part of group `q0..q0 + N`'s LOD ([`group_lod`]):
/// the footprint of coarse derivatives or the base level, and the
/// selection where the LOD is per quad.
struct GroupLod<L: Lanes> {
    fp: Option<Footprint<L>>,
    lod: Option<QuadLod<L>>,
}

/// Quads `q0..q0 + N`: their LOD, once per quad, then their `4N` pixels
/// `N` at a time. `false`: the group is not for this kernel (some planes
/// may have been written; the caller writes the whole group again).
#[inline(always)]
fn group<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    coords: &QuadCoords<'_>,
    out: &mut PlanarOut<'_>,
    q0: usize,
) -> bool {
    let g = group_lod::<L, K>(l, p, coords, q0, None);
    group_with::<L, K, false>(l, p, coords, out, (q0, None), g)
}

/// Group `q0..q0 + N`'s per-quad LOD (one quad per lane): the footprint
/// of coarse derivatives or the base level, and (when the LOD is per
/// quad) the selection. (Cubes take their LOD per lane in
/// [`group_with`], in the simple cube kernel too.)
#[inline(always)]
fn group_lod<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    coords: &QuadCoords<'_>,
    q0: usize,
    call: Option<&CallLod<L>>,
) -> GroupLod<L> {
    let shaped = const { simple_2d::<K>() };
    let fp = if p.lod_free {
        None
    } else if !p.fine && (shaped || (!p.cube && matches!(p.explicit, Explicit::None))) {
        let (s, t) = group_st(l, coords, q0);
        Some(coarse_footprint(l, p, &s, &t))
    } else {
        None
    };
    let lod = match &fp {
        // The same on every lane, made once a call (or a group) rather
        // than once a vector (`group_with` takes it as it is, not spread).
        _ if p.lod_free => match call {
            Some(c) => Some(c.lod),
            None => Some(fixed_lod(l, p)),
        },
        // (Simple plans are per pixel only under fine derivatives.)
        Some(fp) if shaped || !p.per_pixel => {
            let fp = Footprint {
                lambda: fp.lambda,
                taps: fp.taps,
                ax: fp.ax,
                ay: fp.ay,
            };
            Some(select(l, p, fp, l.f(p.bias)))
        }
        _ => None,
    };
    GroupLod { fp, lod }
}

/// Group `q0..q0 + N`'s coordinates `s` and `t`, four vectors each.
#[inline(always)]
fn group_st<L: Lanes>(l: L, coords: &QuadCoords<'_>, q0: usize) -> ([L::F; 4], [L::F; 4]) {
    let base = 4 * q0;
    // Written out (a closure through `array::map` may stay a function of
    // its own, compiled without the level's features).
    let n = L::N;
    let (cs, ct) = (coords.s, coords.t);
    let s = [
        l.load(&cs[base..]),
        l.load(&cs[base + n..]),
        l.load(&cs[base + 2 * n..]),
        l.load(&cs[base + 3 * n..]),
    ];
    let t = [
        l.load(&ct[base..]),
        l.load(&ct[base + n..]),
        l.load(&ct[base + 2 * n..]),
        l.load(&ct[base + 3 * n..]),
    ];
    (s, t)
}

/// The larger squared axis `max(a, c)` ([`squares`], fine derivatives)
/// of each of a group's four vectors of pixels, from the group's `s`
/// and `t` (vector `k` at `k * N`): without anisotropy lambda is
/// `log2` of it over two.
#[inline(always)]
fn larger_squares<L: Lanes>(l: L, p: &Plan<'_>, (cs, ct): (&[f32], &[f32])) -> [L::F; 4] {
    let n = L::N;
    let mut m = [l.f(0.0); 4];
    let mut k = 0;
    while k < 4 {
        let [x, y] = fine_derivatives(l, l.load(&cs[k * n..]), l.load(&ct[k * n..]));
        let (a, c) = squares(l, p, x, y);
        m[k] = a.max(c);
        k += 1;
    }
    m
}

/// [`group`] with the group's per-quad LOD already made; under `NEAR`
/// the levels from the footprint's exponent where the call has
/// [`NearLevels`].
#[inline(always)]
fn group_with<L: Lanes, const K: u8, const NEAR: bool>(
    l: L,
    p: &Plan<'_>,
    coords: &QuadCoords<'_>,
    out: &mut PlanarOut<'_>,
    (q0, call): (usize, Option<&CallLod<L>>),
    g: GroupLod<L>,
) -> bool {
    let base = 4 * q0;
    let n = L::N;
    // The group's part of each plane, sliced once (a vector's loads and
    // stores then check no bounds of their own): vector `k` is at `k * n`
    // of it.
    let Some(GroupPlanes {
        s: cs,
        t: ct,
        dref: (dplane, dbase),
        out: mut planes,
    }) = group_planes(coords, out, base, 4 * n)
    else {
        return false;
    };
    let out = &mut planes;
    // One call site of `pixels` (a `while` loop, not an iterator adapter,
    // which would be a function of its own compiled without the level's
    // target features): the kernel is compiled per level and texel kind,
    // and each inlined copy costs build time.
    let GroupLod {
        fp: quad_fp,
        lod: quad_lod,
    } = g;
    if const { simple_2d::<K>() } {
        // One LOD per quad, already made, spread to each vector's lanes
        // as its pixels are filtered; under fine derivatives the four
        // vectors' own LODs first (independent chains of dependent
        // steps, footprint, log2, level selection, that the core
        // overlaps, where one vector's LOD then its pixels left it
        // waiting on each chain in turn).
        let fine = quad_lod.is_none() && !p.lod_free;
        // The call's levels where it made them ([`CallLod`]).
        let made = match call {
            Some(CallLod {
                levels: Some(m), ..
            }) => Some(m),
            _ => None,
        };
        let mut ahead: [Option<QuadLod<L>>; 4] = [None, None, None, None];
        let mut k = 0;
        // The nearest levels from the footprint's exponent
        // ([`NearLevels`]) where no lane is near a boundary, with the
        // call's constants (each vector's LOD made from them as its
        // pixels are filtered, not kept for the group); else the
        // logarithms below.
        let mut near = None;
        // Where the group's pixels all take one level (and layer 0), its
        // fields once for the group ([`one_level`]) rather than a vector
        // at a time.
        let mut group_made = None;
        if let (true, Some(CallLod { near: Some(nl), .. })) = (NEAR, call) {
            let m = larger_squares(l, p, (cs, ct));
            if let Some(lv) = nearest_levels(l, nl, &m) {
                if !p.array {
                    group_made = one_level(l, p, &lv);
                }
                near = Some((lv, nl));
                k = 4;
            }
        }
        // A LOD per quad that picks one level above (and one below) for
        // every quad of the group: those levels' fields once for the
        // group, not a vector at a time.
        if let (None, None, Some(q), false) = (&group_made, made, &quad_lod, p.array) {
            if let (Some(hi), Some(lo)) = (q.hi.uniform(), q.lo.uniform()) {
                let above = level_lanes(l, p, l.i(hi), l.i(0));
                let below = if lo == hi {
                    above
                } else {
                    level_lanes(l, p, l.i(lo), l.i(0))
                };
                group_made = Some([above, below]);
            }
        }
        let made = match &group_made {
            Some(g) => Some(g),
            None => made,
        };
        if k == 0 && fine && p.aniso.is_none() {
            // Without anisotropy lambda is `log2(max(a, c)) / 2`: the
            // four logarithms side by side ([`log2_four`], the same
            // operations on each vector as [`footprint`]'s).
            let m = larger_squares(l, p, (cs, ct));
            let lambda = log2_four(l, m);
            while k < 4 {
                let fp = Footprint::at(l, lambda[k] * l.f(0.5));
                ahead[k] = Some(select(l, p, fp, bias_lanes(l, p, coords, base + k * n)));
                k += 1;
            }
        }
        while fine && k < 4 {
            let at = base + k * n;
            let fp = fine_footprint(l, p, l.load(&cs[k * n..]), l.load(&ct[k * n..]));
            ahead[k] = Some(select(l, p, fp, bias_lanes(l, p, coords, at)));
            k += 1;
        }
        // Vector `k`'s LOD, coordinates and layer. (Under the group's one
        // level, the template as it is: the level's fields are `made`'s,
        // its `hi` unread.)
        // (A macro, not a closure: a closure would be compiled apart,
        // without the level's target features.)
        macro_rules! vector {
            ($k:expr) => {{
                let k: usize = $k;
                let at = base + k * n;
                let layer = if p.array {
                    layers(l, p, l.load(&coords.a[at..]), p.layer_count)
                } else {
                    l.i(0)
                };
                let st = (l.load(&cs[k * n..]), l.load(&ct[k * n..]));
                let lod = match (&quad_lod, near) {
                    (Some(q), _) if p.lod_free => *q,
                    (Some(q), _) => spread(l, p, q, k),
                    (None, Some((_, nl))) if group_made.is_some() => nl.tmpl,
                    (None, Some((lv, nl))) => QuadLod {
                        hi: lv[k],
                        ..nl.tmpl
                    },
                    // (`fine` made every vector's; the fixed LOD is not
                    // reached.)
                    (None, None) => match ahead[k].take() {
                        Some(lod) if fine => lod,
                        _ => fixed_lod(l, p),
                    },
                };
                (lod, st, layer)
            }};
        }
        // Under integer filtering, two vectors' LODs at a time, so that
        // two vectors that both take one level go together
        // ([`pixels_int_pair`]); the others go through `pixels` one
        // after the other.
        let mut vs: [Option<Vector<L>>; 4] = [None, None, None, None];
        let mut k = 0;
        // (A macro, as above.)
        macro_rules! one {
            ($v:expr) => {
                match &$v {
                    Some(v) => v.0.w_lo.eq(l.f(0.0)).all(),
                    None => false,
                }
            };
        }
        if const { kind::<K>() == RGBA8_INT } && p.mipmap != MipmapMode::Linear {
            // Every vector takes one level (checked, as below): each
            // pair's LODs, then the pair, without the steps below that
            // keep a two-level vector on its own.
            while k < 4 {
                let (a, b) = (vector!(k), vector!(k + 1));
                if a.0.w_lo.eq(l.f(0.0)).all() && b.0.w_lo.eq(l.f(0.0)).all() {
                    if !pixels_int_pair::<L, K>(l, p, out, made, [a, b], k * n) {
                        return false;
                    }
                } else {
                    for (j, (lod, st, layer)) in [(k, a), (k + 1, b)] {
                        if !pixels::<L, K>(l, p, out, (&lod, made), st, layer, l.f(0.0), j * n) {
                            return false;
                        }
                    }
                }
                k += 2;
            }
            return true;
        }
        while k < 4 {
            if const { kind::<K>() == RGBA8_INT } && k % 2 == 0 {
                // (The second vector's LOD only where the first takes
                // one level: a two-level vector goes on its own.)
                vs[k] = Some(vector!(k));
                if one!(vs[k]) {
                    vs[k + 1] = Some(vector!(k + 1));
                }
            }
            if const { kind::<K>() == RGBA8_INT } && k % 2 == 0 && one!(vs[k]) && one!(vs[k + 1]) {
                if let (Some(a), Some(b)) = (vs[k].take(), vs[k + 1].take()) {
                    if !pixels_int_pair::<L, K>(l, p, out, made, [a, b], k * n) {
                        return false;
                    }
                }
                k += 2;
                continue;
            }
            let (lod, st, layer) = match vs[k].take() {
                Some(v) => v,
                None => vector!(k),
            };
            let dref = if const { is_depth::<K>() } {
                dref_lanes(l, p, dplane, dbase + k * n)
            } else {
                l.f(0.0)
            };
            if !pixels::<L, K>(l, p, out, (&lod, made), st, layer, dref, k * n) {
                return false;
            }
            k += 1;
        }
        return true;
    }
    // The four vectors' LODs first, then their pixels: independent
    // chains the core overlaps (per-lane cube LODs are long ones).
    let (s, t) = group_st(l, coords, q0);
    if p.cube {
        return cube_group::<L, K>(l, p, coords, out, (q0, call), quad_lod, (s, t));
    }
    let mut lods: [Option<Prepared<L>>; 4] = [None, None, None, None];
    let mut k = 0;
    while k < 4 {
        let at = base + k * n;
        let (sk, tk) = (s[k], t[k]);
        let layer = if p.array {
            layers(l, p, l.load(&coords.a[at..]), p.layer_count)
        } else {
            l.i(0)
        };
        let lod = match (&quad_lod, &quad_fp) {
            (Some(q), _) if p.lod_free => *q,
            (Some(q), _) => spread(l, p, q, k),
            (None, Some(fp)) => {
                let fp = Footprint {
                    lambda: l.spread(fp.lambda, k),
                    taps: l.spread(fp.taps, k),
                    ax: l.spread(fp.ax, k),
                    ay: l.spread(fp.ay, k),
                };
                select(l, p, fp, bias_lanes(l, p, coords, at))
            }
            (None, None) => {
                let fp = match p.explicit {
                    Explicit::None => fine_footprint(l, p, s[k], t[k]),
                    Explicit::Level(lambda) => {
                        Footprint::at(l, level_plane(l, p, coords, at, lambda))
                    }
                    Explicit::Grad([sx, tx, _, sy, ty, _]) => footprint(
                        l,
                        p,
                        (quad_pattern(l, sx), quad_pattern(l, tx)),
                        (quad_pattern(l, sy), quad_pattern(l, ty)),
                    ),
                };
                select(l, p, fp, bias_lanes(l, p, coords, at))
            }
        };
        lods[k] = Some(Prepared {
            lod,
            st: (sk, tk),
            layer,
        });
        k += 1;
    }
    let mut k = 0;
    while k < 4 {
        let at = base + k * n;
        let Some(v) = &lods[k] else {
            return false;
        };
        let dref = dref_lanes(l, p, coords.dref, at);
        if !pixels::<L, K>(l, p, out, (&v.lod, None), v.st, v.layer, dref, k * n) {
            return false;
        }
        k += 1;
    }
    true
}

/// Group `q0..q0 + N` of a cube view (`(s, t)` its four vectors of `s`
/// and `t`; `quad_lod` the LOD of a [`Plan::lod_free`] plan): per vector
/// each lane's face (`Ctx::cube_coords`), its coordinates on it and its
/// layer, and the derivatives of the direction (coarse or fine, or
/// explicit) onto the lane's face, so a LOD per lane under coarse
/// derivatives too. Then the four vectors' LODs side by side: without
/// anisotropy, from the larger squared axis `m` ([`squares`]), the
/// nearest levels from its exponent where the call has [`NearLevels`]
/// and no lane is near a boundary, else [`log2_four`] and [`select`]
/// (lambda is `log2(m) / 2`, [`footprint`]'s bits). Then their pixels.
#[inline(always)]
fn cube_group<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    coords: &QuadCoords<'_>,
    out: &mut PlanarOut<'_>,
    (q0, call): (usize, Option<&CallLod<L>>),
    quad_lod: Option<QuadLod<L>>,
    (s, t): ([L::F; 4], [L::F; 4]),
) -> bool {
    let base = 4 * q0;
    let n = L::N;
    let zero = l.f(0.0);
    // Whether the LOD follows from the derivatives (not an explicit
    // lambda, the base level or a LOD-free plan); the same on every
    // vector.
    let derived = !p.lod_free
        && match p.explicit {
            Explicit::Level(_) => false,
            Explicit::Grad(_) => true,
            Explicit::None => !p.base_lod,
        };
    let mut st = [(zero, zero); 4];
    let mut layer = [l.i(0); 4];
    let mut derivs = [[(zero, zero); 2]; 4];
    let mut k = 0;
    while k < 4 {
        let at = base + k * n;
        let r = l.load(&coords.r[at..]);
        let face = CubeFace::new(l, s[k], t[k], r);
        if derived {
            let (dx, dy) = match p.explicit {
                Explicit::Grad([sx, tx, rx, sy, ty, ry]) => (
                    [
                        quad_pattern(l, sx),
                        quad_pattern(l, tx),
                        quad_pattern(l, rx),
                    ],
                    [
                        quad_pattern(l, sy),
                        quad_pattern(l, ty),
                        quad_pattern(l, ry),
                    ],
                ),
                _ => {
                    // `quad_derivatives` of the direction, coarse or
                    // fine.
                    let v = [s[k], t[k], r];
                    let mut dx = [zero; 3];
                    let mut dy = [zero; 3];
                    let mut c = 0;
                    while c < 3 {
                        if p.fine {
                            dx[c] =
                                l.quad_perm(v[c], [1, 1, 3, 3]) - l.quad_perm(v[c], [0, 0, 2, 2]);
                            dy[c] =
                                l.quad_perm(v[c], [2, 3, 2, 3]) - l.quad_perm(v[c], [0, 1, 0, 1]);
                        } else {
                            dx[c] =
                                l.quad_perm(v[c], [1, 1, 1, 1]) - l.quad_perm(v[c], [0, 0, 0, 0]);
                            dy[c] =
                                l.quad_perm(v[c], [2, 2, 2, 2]) - l.quad_perm(v[c], [0, 0, 0, 0]);
                        }
                        c += 1;
                    }
                    (dx, dy)
                }
            };
            // Onto the lane's face.
            let sc = face.scale(l);
            derivs[k] = [face.derivative(l, sc, dx), face.derivative(l, sc, dy)];
        }
        st[k] = face.coords(l);
        let cube = if p.array {
            layers(l, p, l.load(&coords.a[at..]), p.layer_count / 6)
        } else {
            l.i(0)
        };
        layer[k] = cube.shl(2) + cube.shl(1) + face.face;
        k += 1;
    }
    // Without anisotropy, lambda is `log2(m) / 2` ([`footprint`]'s bits),
    // the four logarithms side by side, or the levels from `m`'s exponent.
    let plain = derived && p.aniso.is_none();
    // (Written out with `four!`: arrays indexed in a loop stayed in
    // memory, 8% of a nearest cube sample's time.)
    let m = if plain {
        four!(k => {
            let (a, c) = squares(l, p, derivs[k][0], derivs[k][1]);
            a.max(c)
        })
    } else {
        [zero; 4]
    };
    let near = match call {
        Some(CallLod { near: Some(nl), .. }) if plain => {
            nearest_levels(l, nl, &m).map(|lv| (lv, nl))
        }
        _ => None,
    };
    let logs = (plain && near.is_none()).then(|| log2_four(l, m));
    let lods: [QuadLod<L>; 4] = four!(k => match (&quad_lod, near) {
        // (The same for every lambda.)
        (Some(q), _) if p.lod_free => *q,
        (_, Some((lv, nl))) => QuadLod {
            hi: lv[k],
            ..nl.tmpl
        },
        _ => {
            let at = base + k * n;
            let fp = match &logs {
                Some(lg) => Footprint::at(l, lg[k] * l.f(0.5)),
                None if derived => footprint(l, p, derivs[k][0], derivs[k][1]),
                None => match p.explicit {
                    Explicit::Level(lambda) => {
                        Footprint::at(l, level_plane(l, p, coords, at, lambda))
                    }
                    // (Lambda makes no difference.)
                    _ => Footprint::at(l, zero),
                },
            };
            select(l, p, fp, bias_lanes(l, p, coords, at))
        }
    });
    let mut k = 0;
    while k < 4 {
        let at = base + k * n;
        let dref = dref_lanes(l, p, coords.dref, at);
        if !pixels::<L, K>(l, p, out, (&lods[k], None), st[k], layer[k], dref, k * n) {
            return false;
        }
        k += 1;
    }
    true
}

/// A group's part of a call's planes ([`group_planes`]).
struct GroupPlanes<'c, 'o> {
    /// Its `s` values.
    s: &'c [f32],
    /// Its `t` values.
    t: &'c [f32],
    /// The reference plane and the index the group starts at in it: the
    /// group's part where the plane holds the group, else the whole plane
    /// (which then gives the quad pattern past its end, as
    /// [`dref_lanes`] reads it).
    dref: (&'c [f32], usize),
    /// Its part of each output plane.
    out: PlanarOut<'o>,
}

/// The `len` values from `base` of a call's coordinate and output planes
/// ([`group_with`], [`gather_group`]): sliced once a group, so that a
/// vector's loads and stores check no bounds of their own. `None`: an
/// `s`, `t` or output plane is short of the group.
#[inline(always)]
fn group_planes<'c, 'o>(
    coords: &QuadCoords<'c>,
    out: &'o mut PlanarOut<'_>,
    base: usize,
    len: usize,
) -> Option<GroupPlanes<'c, 'o>> {
    let (Some(s), Some(t)) = (
        coords.s.get(base..base + len),
        coords.t.get(base..base + len),
    ) else {
        return None;
    };
    let (Some(r), Some(g), Some(b), Some(a)) = (
        out.r.get_mut(base..base + len),
        out.g.get_mut(base..base + len),
        out.b.get_mut(base..base + len),
        out.a.get_mut(base..base + len),
    ) else {
        return None;
    };
    let dref = match coords.dref.get(base..base + len) {
        Some(d) => (d, 0),
        None => (coords.dref, base),
    };
    Some(GroupPlanes {
        s,
        t,
        dref,
        out: PlanarOut { r, g, b, a },
    })
}

/// A direction's cube face on every lane (`reference::cube_face`: the
/// major axis, ties to z then y, and the face's `(sc, tc, rc)`).
struct CubeFace<L: Lanes> {
    face: L::I,
    sc: L::F,
    tc: L::F,
    rc: L::F,
    zmajor: L::M,
    ymajor: L::M,
    xneg: L::M,
    yneg: L::M,
    zneg: L::M,
    /// The face where every lane has the same one: each of [`axes`]'
    /// selects then takes the same operand on every lane, so the face
    /// picks it once (the same bits).
    ///
    /// [`axes`]: CubeFace::axes
    uni: Option<i32>,
}

impl<L: Lanes> CubeFace<L> {
    #[inline(always)]
    fn new(l: L, x: L::F, y: L::F, z: L::F) -> CubeFace<L> {
        let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
        let zmajor = ax.le(az) & ay.le(az);
        let ymajor = zmajor.not() & ax.le(ay);
        let zero = l.f(0.0);
        let (xneg, yneg, zneg) = (x.lt(zero), y.lt(zero), z.lt(zero));
        let face = zmajor.select(
            zneg.select(l.f(5.0), l.f(4.0)),
            ymajor.select(
                yneg.select(l.f(3.0), l.f(2.0)),
                xneg.select(l.f(1.0), l.f(0.0)),
            ),
        );
        let face = face.to_i32();
        let mut cf = CubeFace {
            face,
            uni: face.uniform(),
            sc: zero,
            tc: zero,
            rc: zero,
            zmajor,
            ymajor,
            xneg,
            yneg,
            zneg,
        };
        [cf.sc, cf.tc, cf.rc] = cf.axes(l, [x, y, z]);
        cf
    }

    /// `face_axes`: `(sc, tc, rc)` of `d` on each lane's face.
    #[inline(always)]
    fn axes(&self, l: L, [x, y, z]: [L::F; 3]) -> [L::F; 3] {
        let neg = l.f(-1.0);
        // One face on every lane: the operands its masks select (the
        // face follows from the masks, and each select below from the
        // face, NaN lanes included).
        match self.uni {
            Some(0) => return [z * neg, y * neg, x],
            Some(1) => return [z, y * neg, x],
            Some(2) => return [x, z, y],
            Some(3) => return [x, z * neg, y],
            Some(4) => return [x, y * neg, z],
            Some(5) => return [x * neg, y * neg, z],
            _ => {}
        }
        let sc = self.zmajor.select(
            self.zneg.select(x * neg, x),
            self.ymajor.select(x, self.xneg.select(z, z * neg)),
        );
        let tc = self.zmajor.select(
            y * neg,
            self.ymajor.select(self.yneg.select(z * neg, z), y * neg),
        );
        let rc = self.zmajor.select(z, self.ymajor.select(y, x));
        [sc, tc, rc]
    }

    /// The face coordinates `0.5 * sc / |rc| + 0.5` and `0.5 * tc / |rc| +
    /// 0.5`.
    #[inline(always)]
    fn coords(&self, l: L) -> (L::F, L::F) {
        let (half, ar) = (l.f(0.5), self.rc.abs());
        (
            (half * self.sc).div(ar) + half,
            (half * self.tc).div(ar) + half,
        )
    }

    /// The derivatives' factor `k = 0.5 / rc^2` (`Ctx::cube_coords`), for
    /// [`CubeFace::derivative`]: one division for both derivatives.
    #[inline(always)]
    fn scale(&self, l: L) -> L::F {
        l.f(0.5).div(self.rc * self.rc)
    }

    /// A derivative of the direction onto the face (`Ctx::cube_coords`:
    /// `(|rc| dsc - sc d|rc|) * k`, `k` from [`CubeFace::scale`], and
    /// likewise for `t`).
    #[inline(always)]
    fn derivative(&self, l: L, k: L::F, d: [L::F; 3]) -> (L::F, L::F) {
        let [dsc, dtc, drc] = self.axes(l, d);
        let ar = self.rc.abs();
        // (On one face `rc < 0` on every lane of an odd face and on none
        // of an even one: `rc` is the major axis, below 0 exactly where
        // its `neg` mask picked the odd face.)
        let sign = match self.uni {
            Some(f) => l.f(if f & 1 == 1 { -1.0 } else { 1.0 }),
            None => self.rc.lt(l.f(0.0)).select(l.f(-1.0), l.f(1.0)),
        };
        let dar = sign * drc;
        (
            (ar * dsc - self.sc * dar) * k,
            (ar * dtc - self.tc * dar) * k,
        )
    }
}

/// `v.clamp(0, 1)` on every lane, NaN kept.
#[inline(always)]
fn clamp01<L: Lanes>(l: L, v: L::F) -> L::F {
    clamp(l, v, 0.0, 1.0)
}

/// Four per-lane-of-a-quad values repeated over every quad of a vector.
#[inline(always)]
fn quad_pattern<L: Lanes>(l: L, v: [f32; 4]) -> L::F {
    let mut a = [0.0f32; MAX_LANES];
    let mut i = 0;
    while i < MAX_LANES {
        a[i] = v[i % 4];
        i += 1;
    }
    l.load(&a)
}

/// Per-quad values (one quad per lane) onto the pixels of vector `k` of a
/// group's four.
#[inline(always)]
fn spread<L: Lanes>(l: L, p: &Plan<'_>, lod: &QuadLod<L>, k: usize) -> QuadLod<L> {
    // Without anisotropy every lane has one tap and no axis; without a
    // linear mipmap every lane has the second level 0 and the weights 1
    // and 0; with one filter both ways, every lane has that filter
    // (`select`): the same on every lane, nothing to spread.
    let aniso = p.aniso.is_some();
    let two = p.mipmap == MipmapMode::Linear;
    QuadLod {
        hi: l.spread_i(lod.hi, k),
        lo: if two { l.spread_i(lod.lo, k) } else { lod.lo },
        w_hi: if two { l.spread(lod.w_hi, k) } else { lod.w_hi },
        w_lo: if two { l.spread(lod.w_lo, k) } else { lod.w_lo },
        linear: if p.mag_linear == p.min_linear {
            lod.linear
        } else {
            l.spread_i(lod.linear.to_i32(), k).nonzero()
        },
        taps: if aniso {
            l.spread(lod.taps, k)
        } else {
            lod.taps
        },
        ax: if aniso { l.spread(lod.ax, k) } else { lod.ax },
        ay: if aniso { l.spread(lod.ay, k) } else { lod.ay },
    }
}

/// `N` pixels (vector `k` of the group's four, `N / 4` whole quads at
/// `(s, t)`): their quads' LOD spread to their lanes, one or two levels
/// filtered and summed (`Ctx::sample_lane`), the view's swizzle, written
/// at `base..base + N` of `out`'s planes.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn pixels<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    out: &mut PlanarOut<'_>,
    (lod, made): (&QuadLod<L>, Made<'_, L>),
    (s, t): (L::F, L::F),
    layer: L::I,
    dref: L::F,
    base: usize,
) -> bool {
    let acc = if const { kind::<K>() == RGBA8_INT } {
        levels_int::<L, K>(l, p, (lod, made), layer, (s, t))
    } else if const { !simple::<K>() } && p.aniso.is_some() {
        aniso_levels::<L, K>(l, p, lod, layer, (s, t), dref)
    } else {
        levels::<L, K>(l, p, (lod, made), layer, (s, t), dref)
    };
    let Some(acc) = acc else {
        return false;
    };
    let planes: [&mut [f32]; 4] = [
        &mut out.r[base..],
        &mut out.g[base..],
        &mut out.b[base..],
        &mut out.a[base..],
    ];
    // Compare results are (r, 0, 0, 1), not swizzled (`Ctx::sample_lane`).
    if const { is_depth::<K>() } && p.compare.is_some() {
        let [r, g, b, a] = planes;
        l.store(acc[0], r);
        l.store(l.f(0.0), g);
        l.store(l.f(0.0), b);
        l.store(l.f(1.0), a);
        return true;
    }
    store_swizzled(l, p, acc, planes);
    true
}

/// A vector's results `acc` into `planes` (r, g, b, a), through the
/// plan's output swizzle.
#[inline(always)]
fn store_swizzled<L: Lanes>(l: L, p: &Plan<'_>, acc: [L::F; 4], planes: [&mut [f32]; 4]) {
    if p.identity {
        for (v, plane) in acc.into_iter().zip(planes) {
            l.store(v, plane);
        }
        return;
    }
    for (c, plane) in planes.into_iter().enumerate() {
        let v = match p.out_swizzle[c] {
            Swizzle::R => acc[0],
            Swizzle::G => acc[1],
            Swizzle::B => acc[2],
            Swizzle::A => acc[3],
            Swizzle::Zero => l.f(0.0),
            Swizzle::One => l.f(1.0),
        };
        l.store(v, plane);
    }
}

/// One vector of a group as the 2D loop of [`group_with`] makes it: its
/// LOD, its coordinates `(s, t)` and its layers.
type Vector<L> = (
    QuadLod<L>,
    (<L as Lanes>::F, <L as Lanes>::F),
    <L as Lanes>::I,
);

/// [`pixels`] for the integer kernel, two vectors `vs` (their LOD,
/// coordinates and layer) at `base` and `base + N` that both take one
/// level: both vectors' reads first, then their sums, so that the second
/// vector's loads need not wait for the first one's arithmetic (as
/// [`levels_int`] does for two levels). The same operations on each
/// vector as [`levels_int`]'s.
#[inline(always)]
fn pixels_int_pair<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    out: &mut PlanarOut<'_>,
    made: Made<'_, L>,
    vs: [Vector<L>; 2],
    base: usize,
) -> bool {
    let n = L::N;
    // (A macro: a closure would be compiled apart, without the level's
    // target features.)
    macro_rules! store {
        ($acc:expr, $at:expr) => {{
            let at: usize = $at;
            let planes: [&mut [f32]; 4] = [
                &mut out.r[at..],
                &mut out.g[at..],
                &mut out.b[at..],
                &mut out.a[at..],
            ];
            store_swizzled(l, p, $acc, planes);
        }};
    }
    let [(lod0, st0, layer0), (lod1, st1, layer1)] = &vs;
    let lv0 = level_of(l, p, made, 0, lod0.hi, *layer0);
    let lv1 = level_of(l, p, made, 0, lod1.hi, *layer1);
    let (Some(r0), Some(r1)) = (
        int_reads::<L, K>(l, p, &lv0, lod0.linear, *st0),
        int_reads::<L, K>(l, p, &lv1, lod1.linear, *st1),
    ) else {
        return false;
    };
    // (One level: `levels_int`'s quotient.)
    let (mut a, mut b) = (int_sums(l, p, &r0), int_sums(l, p, &r1));
    for v in a.iter_mut().chain(b.iter_mut()) {
        *v = v.div255(8);
    }
    store!(a, base);
    store!(b, base + n);
    true
}

/// One or two levels filtered and summed (`Ctx::sample_lane` without
/// anisotropy). `None`: a lane's texel index is not exact in i32.
#[inline(always)]
fn levels<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    (lod, made): (&QuadLod<L>, Made<'_, L>),
    layer: L::I,
    (s, t): (L::F, L::F),
    dref: L::F,
) -> Option<[L::F; 4]> {
    let linear = lod.linear;
    let lv = level_of(l, p, made, 0, lod.hi, layer);
    // `sample_lane`: -0.0 plus each weighted level (UNORM values: a
    // zero-weight level adds +0, as in `filter_level`).
    let (w0, w1) = (lod.w_hi, lod.w_lo);
    // (RGBA16F's texels are floats: its simple kernel takes the general
    // sums, which skip zero-weight terms as the reference does.)
    if const { simple::<K>() && kind::<K>() != RGBA16F } {
        match simple_levels::<L, K>(l, p, (&lv, lod, made), layer, (s, t), dref) {
            Simple::Done(acc) => return Some(acc),
            Simple::Inexact => return None,
            // A seamless cube footprint that leaves its face: the general
            // sums below.
            Simple::Seam => {}
        }
    }
    let mut acc = [l.f(0.0); 4];
    let signed = signed_texels::<K>(p);
    if !w1.eq(l.f(0.0)).all() {
        // Trilinear: both levels' reads first, then their sums.
        let lv1 = level_of(l, p, made, 1, lod.lo, layer);
        let (t0, t1) = (
            level_taps::<L, K>(l, p, &lv, linear, (s, t))?,
            level_taps::<L, K>(l, p, &lv1, linear, (s, t))?,
        );
        let x0 = tap_texels::<L, K>(l, p, &lv, &t0, dref);
        let x1 = tap_texels::<L, K>(l, p, &lv1, &t1, dref);
        let v0 = weigh::<L, K>(l, p, &t0, &x0, dref);
        let v1 = weigh::<L, K>(l, p, &t1, &x1, dref);
        if signed {
            // `sample_lane` skips zero-weight levels.
            let (live0, live1) = (w0.eq(l.f(0.0)).not(), w1.eq(l.f(0.0)).not());
            if (live0 & live1).all() {
                // Both levels weighted on every lane: `-0.0 + x` is `x`
                // bit for bit (signed zeros and NaN included), so the
                // same sums without the selects.
                for c in 0..4 {
                    acc[c] = w0 * v0[c] + w1 * v1[c];
                }
                return Some(acc);
            }
            for c in 0..4 {
                let a = live0.select(l.f(-0.0) + w0 * v0[c], l.f(-0.0));
                acc[c] = live1.select(a + w1 * v1[c], a);
            }
        } else {
            for c in 0..4 {
                acc[c] = l.f(-0.0) + w0 * v0[c] + w1 * v1[c];
            }
        }
        return Some(acc);
    }
    let v0 = filter_level::<L, K>(l, p, &lv, linear, (s, t), dref)?;
    if signed {
        // `sample_lane` skips zero-weight levels.
        let live0 = w0.eq(l.f(0.0)).not();
        for c in 0..4 {
            acc[c] = live0.select(l.f(-0.0) + w0 * v0[c], l.f(-0.0));
        }
    } else {
        for c in 0..4 {
            acc[c] = l.f(-0.0) + w0 * v0[c];
        }
    }
    Some(acc)
}

/// [`levels`] for [`Shape::Simple`] and [`Shape::SimpleCube`] 8-bit
/// RGBA plans (UNORM values, no border, no compare) and
/// [`Shape::SimpleCompare`] depth plans (compare results, 0 or 1, in
/// channel R): the same sums written out tap by tap, so that no
/// footprint or texel array is indexed in a loop (the compiler kept those
/// in memory); trilinear reads both levels' texels before it weighs
/// either. In the cube kernel a seamless footprint that leaves its face
/// is [`Simple::Seam`], for the general sums.
#[inline(always)]
fn simple_levels<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    (lv, lod, made): (&LevelLanes<L>, &QuadLod<L>, Made<'_, L>),
    layer: L::I,
    st: (L::F, L::F),
    dref: L::F,
) -> Simple<L> {
    let (w0, w1) = (lod.w_hi, lod.w_lo);
    let Some(t0) = level_taps::<L, K>(l, p, lv, lod.linear, st) else {
        return Simple::Inexact;
    };
    // (Always `false` but in the cube kernel.)
    if t0.seam {
        return Simple::Seam;
    }
    let x0 = simple_words(l, p, lv, &t0);
    // (The reference's `-0.0 + x` is `x` bit for bit, signed zeros
    // included, so the sums start from their first term.)
    if p.mipmap != MipmapMode::Linear {
        // One level, `w0` 1 and `w1` 0 on every lane ([`select`]):
        // `-0.0 + 1 * x` is `x`.
        return Simple::Done(simple_weigh::<L, K>(l, p, &t0, x0, dref));
    }
    let acc = if w1.eq(l.f(0.0)).all() {
        let v0 = simple_weigh::<L, K>(l, p, &t0, x0, dref);
        [v0[0] * w0, v0[1] * w0, v0[2] * w0, v0[3] * w0]
    } else {
        let lv1 = level_of(l, p, made, 1, lod.lo, layer);
        let Some(t1) = level_taps::<L, K>(l, p, &lv1, lod.linear, st) else {
            return Simple::Inexact;
        };
        if t1.seam {
            return Simple::Seam;
        }
        let x1 = simple_words(l, p, &lv1, &t1);
        let (v0, v1) = (
            simple_weigh::<L, K>(l, p, &t0, x0, dref),
            simple_weigh::<L, K>(l, p, &t1, x1, dref),
        );
        [
            v0[0] * w0 + v1[0] * w1,
            v0[1] * w0 + v1[1] * w1,
            v0[2] * w0 + v1[2] * w1,
            v0[3] * w0 + v1[3] * w1,
        ]
    };
    Simple::Done(acc)
}

/// What [`simple_levels`] made of a vector of pixels.
enum Simple<L: Lanes> {
    /// The filtered value.
    Done([L::F; 4]),
    /// A lane's texel index is not exact in i32 (the group goes back).
    Inexact,
    /// A seamless cube footprint leaves its face (only in the cube
    /// kernel): [`levels`]' general sums take the vector.
    Seam,
}

/// The texel words of a common-shape footprint ([`Shape`], on one face):
/// `[00, 01, 10, 11]`
/// (`2 * ky + kx`), only the first when both filters are nearest.
#[inline(always)]
fn simple_words<L: Lanes>(l: L, p: &Plan<'_>, lv: &LevelLanes<L>, t: &Taps<L>) -> [L::I; 4] {
    let at = |x: L::I, y: L::I| lv.offset + (x + y).shl(p.texel_shift);
    if !p.nearest {
        if let Some([[w00, w01], [w10, w11]]) = pairs_of(l, p, lv, &t.xs, &t.ys) {
            return [w00, w01, w10, w11];
        }
    }
    let w00 = l.words(p.bytes, at(t.xs[0], t.ys[0]));
    if p.nearest {
        return [w00, w00, w00, w00];
    }
    [
        w00,
        l.words(p.bytes, at(t.xs[1], t.ys[0])),
        l.words(p.bytes, at(t.xs[0], t.ys[1])),
        l.words(p.bytes, at(t.xs[1], t.ys[1])),
    ]
}

/// [`weigh`] of [`simple_words`]: decoded, then summed rows outer and
/// columns inner (`filter_level`'s order; UNORM texels, so a zero-weight
/// term adds `+0` where the reference skips it, which leaves the same
/// bits once a weighted term is in). Depth kinds: [`simple_compare`].
#[inline(always)]
fn simple_weigh<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    t: &Taps<L>,
    words: [L::I; 4],
    dref: L::F,
) -> [L::F; 4] {
    if const { is_depth::<K>() } {
        return simple_compare::<L, K>(l, p, t, words, dref);
    }
    let v00 = decode(l, p, words[0]);
    if p.nearest {
        return v00;
    }
    let [wx, wy] = t.wts;
    let w = [wx[0] * wy[0], wx[1] * wy[0], wx[0] * wy[1], wx[1] * wy[1]];
    let (v01, v10, v11) = (
        decode(l, p, words[1]),
        decode(l, p, words[2]),
        decode(l, p, words[3]),
    );
    // (`-0.0 + x` is `x`: the sums start from their first term.)
    [
        w[0] * v00[0] + w[1] * v01[0] + w[2] * v10[0] + w[3] * v11[0],
        w[0] * v00[1] + w[1] * v01[1] + w[2] * v10[1] + w[3] * v11[1],
        w[0] * v00[2] + w[1] * v01[2] + w[2] * v10[2] + w[3] * v11[2],
        w[0] * v00[3] + w[1] * v01[3] + w[2] * v10[3] + w[3] * v11[3],
    ]
}

/// [`simple_weigh`] of depth words under a compare: each texel's depth
/// compared with `dref` (1 or 0, [`compare`]) and channel R weighed in
/// [`weigh`]'s order (compare results are never negative, so as for UNORM
/// texels a zero-weight term adds `+0`); the other channels are 0 (the
/// caller writes `(r, 0, 0, 1)`).
#[inline(always)]
fn simple_compare<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    t: &Taps<L>,
    words: [L::I; 4],
    dref: L::F,
) -> [L::F; 4] {
    let zero = l.f(0.0);
    // (A simple compare plan always has its compare.)
    let op = p.compare.map_or(CompareOp::Always, |(op, _)| op);
    if p.nearest {
        let c00 = compare(l, op, dref, depth::<L, K>(l, p, words[0]));
        return [c00, zero, zero, zero];
    }
    let [wx, wy] = t.wts;
    let [c00, c01, c10, c11] = compare4(
        l,
        op,
        dref,
        [
            depth::<L, K>(l, p, words[0]),
            depth::<L, K>(l, p, words[1]),
            depth::<L, K>(l, p, words[2]),
            depth::<L, K>(l, p, words[3]),
        ],
    );
    let r = (wx[0] * wy[0]) * c00
        + (wx[1] * wy[0]) * c01
        + (wx[0] * wy[1]) * c10
        + (wx[1] * wy[1]) * c11;
    [r, zero, zero, zero]
}

/// Anisotropic footprints (`Ctx::sample_lane` with taps): per level with
/// a non-zero weight, tap `i` of a lane with `n` taps filtered at
/// `st + ((i + 1) / (n + 1) - 1/2) * axis` and added with weight `w / n`,
/// levels outer and taps inner as the reference sums them; lanes with
/// fewer taps than the group's most are masked. `None`: a lane's texel
/// index is not exact in i32.
#[inline(always)]
fn aniso_levels<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    lod: &QuadLod<L>,
    layer: L::I,
    (s, t): (L::F, L::F),
    dref: L::F,
) -> Option<[L::F; 4]> {
    let zero = l.f(0.0);
    let one = l.f(1.0);
    let channels = if const { is_depth::<K>() } && p.compare.is_some() {
        1
    } else {
        4
    };
    let mut acc = [l.f(-0.0); 4];
    let taps = lod.taps;
    let multi = taps.gt(one);
    let denom = taps + one;
    // Written out for both levels (no closure: see `group`).
    let mut level = 0;
    while level < 2 {
        let (lvl, w) = if level == 0 {
            (lod.hi, lod.w_hi)
        } else {
            (lod.lo, lod.w_lo)
        };
        level += 1;
        // `sample_lane` skips zero-weight levels.
        let weighted = w.eq(zero).not();
        if weighted.not().all() {
            continue;
        }
        let lv = level_lanes(l, p, lvl, layer);
        let tw = w.div(taps);
        // 8-bit words off a cube and without a border (no seam, no
        // border texel, no signed texel): the simple kernel's reads and
        // sums, the same bits with none of the general footprint's edge
        // facts kept across the tap.
        let simple = const { kind::<K>() == RGBA8 } && !p.cube && p.border_raw.is_none();
        let mut tap = 0u32;
        loop {
            let on = l.f(tap as f32).lt(taps);
            if on.not().all() {
                break;
            }
            let st = aniso_tap(l, p, lod, (multi, on, denom), tap, (s, t));
            // (Optimized builds only: unoptimized, the second tap's
            // locals keep stack slots of their own, and the kernel's
            // frame outgrew the stack a renderer thread gives it.)
            #[cfg(not(debug_assertions))]
            if simple {
                let on2 = l.f((tap + 1) as f32).lt(taps);
                if !on2.not().all() {
                    // Two taps with live lanes: both taps' texel reads,
                    // then both sums, each added as alone (the same
                    // operations in the same order; the reads of the
                    // second overlap the first's wait for memory).
                    let st2 = aniso_tap(l, p, lod, (multi, on2, denom), tap + 1, (s, t));
                    let t1 = level_taps::<L, K>(l, p, &lv, lod.linear, st)?;
                    let words1 = simple_words(l, p, &lv, &t1);
                    let t2 = level_taps::<L, K>(l, p, &lv, lod.linear, st2)?;
                    let words2 = simple_words(l, p, &lv, &t2);
                    let v1 = simple_weigh::<L, K>(l, p, &t1, words1, dref);
                    aniso_add::<L>(&mut acc, on & weighted, tw, v1, channels);
                    let v2 = simple_weigh::<L, K>(l, p, &t2, words2, dref);
                    aniso_add::<L>(&mut acc, on2 & weighted, tw, v2, channels);
                    tap += 2;
                    continue;
                }
            }
            let v = if simple {
                let t = level_taps::<L, K>(l, p, &lv, lod.linear, st)?;
                let words = simple_words(l, p, &lv, &t);
                simple_weigh::<L, K>(l, p, &t, words, dref)
            } else {
                filter_level::<L, K>(l, p, &lv, lod.linear, st, dref)?
            };
            aniso_add::<L>(&mut acc, on & weighted, tw, v, channels);
            tap += 1;
        }
    }
    Some(acc)
}

/// Tap `tap`'s coordinates in [`aniso_levels`]: with `n` taps (`denom`
/// is `n + 1`), `st + ((tap + 1) / (n + 1) - 1/2) * axis` on lanes with
/// several taps where the tap is live (`multi & on`), `st` itself
/// elsewhere; on a cube clamped to the lane's face (NaN kept, to be
/// handed back as the reference would read it).
#[inline(always)]
fn aniso_tap<L: Lanes>(
    l: L,
    p: &Plan<'_>,
    lod: &QuadLod<L>,
    (multi, on, denom): (L::M, L::M, L::F),
    tap: u32,
    (s, t): (L::F, L::F),
) -> (L::F, L::F) {
    let f = l.f((tap + 1) as f32).div(denom) - l.f(0.5);
    let moved = multi & on;
    let st = (
        moved.select(s + f * lod.ax, s),
        moved.select(t + f * lod.ay, t),
    );
    if p.cube {
        (
            moved.select(clamp01(l, st.0), st.0),
            moved.select(clamp01(l, st.1), st.1),
        )
    } else {
        st
    }
}

/// `acc += tw * v` on the `live` lanes of the first `channels` channels
/// ([`aniso_levels`]' sum of one tap).
#[inline(always)]
fn aniso_add<L: Lanes>(acc: &mut [L::F; 4], live: L::M, tw: L::F, v: [L::F; 4], channels: usize) {
    for c in 0..4 {
        if c < channels {
            acc[c] = live.select(acc[c] + tw * v[c], acc[c]);
        }
    }
}

/// What stays fixed across a planar gather: the plan of the view's base
/// level, the component and the offsets.
pub(crate) struct GatherPlan<'a> {
    plan: Plan<'a>,
    /// What each footprint texel gives: the swizzled component, or the
    /// compare result.
    pick: Pick,
    /// Per result `k`: the texel offset added before the floor (AOFFI:
    /// one offset, the results the footprint's four corners in
    /// gather order, `T(i0, j1), T(i1, j1), T(i1, j0), T(i0, j0)`; PTP: four offsets, each result its own
    /// footprint's corner `(0, 0)`).
    offsets: [[f32; 2]; 4],
    /// PTP: a footprint per result rather than one.
    ptp: bool,
}

impl<'a> GatherPlan<'a> {
    /// The plan for a gather with `args` on `ctx`, or why the planar kernel
    /// does not take it (also [`Fallback::Kind`] for a `TWO_D_NO_MIPMAP`
    /// header, where TLD4 acts as TEX).
    pub(crate) fn new(ctx: &Ctx<'a>, args: &GatherArgs) -> Result<GatherPlan<'a>, Fallback> {
        if ctx.view.header_type() == Some(HeaderType::TwoDNoMipmap) {
            return Err(Fallback::Kind);
        }
        // The base level, no LOD: `Lod::Base` plans no footprint.
        let sample = SampleArgs {
            lod: Lod::Base,
            dref: args.dref,
            ..SampleArgs::default()
        };
        let plan = Plan::with(ctx, &sample, true)?;
        if plan.cube {
            return Err(Fallback::Kind);
        }
        if plan.border.is_some() {
            return Err(Fallback::Address);
        }
        let (offsets, ptp) = match args.offsets {
            GatherOffsets::None => ([[0.0; 2]; 4], false),
            GatherOffsets::Aoffi([u, v]) => ([[u as f32, v as f32]; 4], false),
            GatherOffsets::Ptp(o) => (o.map(|[u, v]| [u as f32, v as f32]), true),
        };
        let channel = |c: usize| {
            // Byte `c` of RGBA, R and B swapped for BGRA; sRGB decodes
            // all but alpha (what an 8-bit RGBA kernel reads).
            let byte = if plan.bgra && c != 1 && c != 3 {
                2 - c
            } else {
                c
            };
            Pick::Channel {
                c,
                shift: 8 * byte as i32,
                srgb: plan.srgb && c != 3,
            }
        };
        let pick = if plan.compare.is_some() {
            channel(0)
        } else {
            match plan.swizzle[usize::from(args.component & 3)] {
                Swizzle::R => channel(0),
                Swizzle::G => channel(1),
                Swizzle::B => channel(2),
                Swizzle::A => channel(3),
                Swizzle::Zero => Pick::Const(0.0),
                Swizzle::One => Pick::Const(1.0),
            }
        };
        Ok(GatherPlan {
            plan,
            pick,
            offsets,
            ptp,
        })
    }
}

impl GroupKernel for GatherPlan<'_> {
    const INT_FILTER: bool = false;
    const SHAPES: bool = false;

    #[inline(always)]
    fn texel(&self) -> TexelKind {
        self.plan.texel
    }

    #[inline(always)]
    fn group<L: Lanes, const K: u8>(
        &self,
        l: L,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
        q: usize,
    ) -> bool {
        gather_group::<L, K>(l, self, coords, out, q, None)
    }

    /// Groups one after another, the base level's fields made once a call
    /// where every lane reads layer 0 (no array).
    #[inline(always)]
    fn groups<L: Lanes, const K: u8>(
        &self,
        l: L,
        coords: &QuadCoords<'_>,
        out: &mut PlanarOut<'_>,
        first: usize,
        quads: usize,
    ) -> usize {
        let p = &self.plan;
        let made = if p.array {
            None
        } else {
            Some(level_lanes(l, p, l.i(0), l.i(0)))
        };
        let mut q = first;
        while q + L::N <= quads {
            if !gather_group::<L, K>(l, self, coords, out, q, made.as_ref()) {
                break;
            }
            q += L::N;
        }
        q - first
    }
}

/// Quads `q0..q0 + N` of a gather, `N` pixels at a time: the group's
/// part of each plane sliced once (as [`group_with`] does), the base
/// level's fields `made` by the call or per vector. `false`: a plane is
/// short of the group (the caller takes it another way).
#[inline(always)]
fn gather_group<L: Lanes, const K: u8>(
    l: L,
    g: &GatherPlan<'_>,
    coords: &QuadCoords<'_>,
    out: &mut PlanarOut<'_>,
    q0: usize,
    made: Option<&LevelLanes<L>>,
) -> bool {
    let p = &g.plan;
    let base = 4 * q0;
    let n = L::N;
    let Some(GroupPlanes {
        s: cs,
        t: ct,
        dref: (dplane, dbase),
        out: mut planes,
    }) = group_planes(coords, out, base, 4 * n)
    else {
        return false;
    };
    let out = &mut planes;
    let mut k = 0;
    while k < 4 {
        let at = base + k * n;
        let layer = if p.array {
            layers(l, p, l.load(&coords.a[at..]), p.layer_count)
        } else {
            l.i(0)
        };
        let dref = dref_lanes(l, p, dplane, dbase + k * n);
        let lv = match made {
            Some(m) => *m,
            None => level_lanes(l, p, l.i(0), layer),
        };
        let st = (l.load(&cs[k * n..]), l.load(&ct[k * n..]));
        if !gather_pixels::<L, K>(l, g, st, dref, &lv, out, k * n) {
            return false;
        }
        k += 1;
    }
    true
}

/// What a gather returns of each footprint texel: channel `c` of the
/// decoded (or compared: channel 0) texel, or a constant (a `Zero` or
/// `One` swizzle).
#[derive(Clone, Copy)]
enum Pick {
    /// Channel `c`; for 8-bit RGBA texel words the channel's byte is the
    /// word shifted right by `shift` (BGRA swaps R and B), decoded as
    /// sRGB where `srgb` (made once a call, not once a texel).
    Channel {
        c: usize,
        shift: i32,
        srgb: bool,
    },
    Const(f32),
}

/// Channel `pick` of the texel at block index `blk` on every lane, as
/// [`read`] gives it; RGBA8 decodes that channel alone.
#[inline(always)]
fn read_one<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    lv: &LevelLanes<L>,
    blk: L::I,
    dref: L::F,
    pick: Pick,
) -> L::F {
    match pick {
        Pick::Const(v) => l.f(v),
        Pick::Channel { shift, srgb, .. } if const { K == RGBA8 } => rgba8_channel(
            l,
            l.words(p.bytes, lv.offset + blk.shl(p.texel_shift)),
            shift,
            srgb,
        ),
        Pick::Channel { c, .. } => nth(read::<L, K>(l, p, lv, blk, dref), c),
    }
}

/// Channel `c` (0 to 3) of `v`, by a match rather than an index (the
/// channels stay in registers).
#[inline(always)]
fn nth<F: Copy>(v: [F; 4], c: usize) -> F {
    match c {
        0 => v[0],
        1 => v[1],
        2 => v[2],
        _ => v[3],
    }
}

/// [`read_one`] of the texel whose word is `words` on every lane (the
/// word kinds, [`word_kind`]).
#[inline(always)]
fn word_one<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    words: L::I,
    dref: L::F,
    pick: Pick,
) -> L::F {
    match pick {
        Pick::Const(v) => l.f(v),
        Pick::Channel { shift, srgb, .. } if const { K == RGBA8 } => {
            rgba8_channel(l, words, shift, srgb)
        }
        Pick::Channel { c, .. } => nth(word_texel::<L, K>(l, p, words, dref), c),
    }
}

/// A channel of 8-bit RGBA or BGRA texel words on every lane, decoded
/// alone: the byte `shift` bits up, as sRGB where `srgb` ([`Pick`]).
#[inline(always)]
fn rgba8_channel<L: Lanes>(l: L, words: L::I, shift: i32, srgb: bool) -> L::F {
    // (`srgb` reads the low byte; `unorm8_at` takes the count, uniform
    // over the call.)
    if srgb {
        l.srgb(words.shr(shift))
    } else {
        words.unorm8_at(shift)
    }
}

/// `i0` of the linear footprint on every lane (`gather::footprint_index`:
/// `floor(st * size + off - 0.5)`); `None` when a lane's index is not
/// exact in i32.
#[inline(always)]
fn footprint_i0<L: Lanes>(l: L, st: L::F, size_f: L::F, off: f32) -> Option<L::I> {
    let fl = (st * size_f + l.f(off) - l.f(0.5)).floor();
    if !fl.abs().lt(l.f(16_777_216.0)).all() {
        return None;
    }
    Some(fl.to_i32())
}

/// `i` wrapped on axis `k` (`reference::wrap`; `repeat` and
/// `mirrored_repeat` by a mask on power-of-two sizes, by a remainder on
/// others; `clamp_to_border` clamps, and the caller reads the border
/// where that moved the index). `size` is the level's extent on the axis,
/// as i32 and f32.
#[inline(always)]
fn wrap_index<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    k: usize,
    i: L::I,
    (size, size_f): (L::I, L::F),
) -> L::I {
    let top = size - l.i(1);
    if const { simple::<K>() } {
        // `repeat` or `clamp_to_edge` ([`Shape`]): tests, not a jump
        // table.
        return if p.wrap[k] == Wrap::Repeat {
            i & top
        } else if p.wrap[k] == Wrap::RepeatAny {
            rem_lanes::<L>(i, size, size_f)
        } else {
            i.max(l.i(0)).min(top)
        };
    }
    match p.wrap[k] {
        Wrap::Repeat => i & top,
        Wrap::Clamp | Wrap::Border => i.max(l.i(0)).min(top),
        // `(size - 1) - mirror(i mod 2 size - size)`.
        Wrap::Mirror => top - mirror((i & (size + top)) - size),
        Wrap::MirrorClamp => mirror(i).max(l.i(0)).min(top),
        Wrap::RepeatAny => rem_lanes::<L>(i, size, size_f),
        Wrap::MirrorAny => {
            let period = rem_lanes::<L>(i, size + size, size_f + size_f);
            top - mirror(period - size)
        }
    }
}

/// [`wrap_index`] of a footprint's two taps on axis `k`, `i1` being `i0`
/// or `i0 + 1`. Under [`Wrap::RepeatAny`] the second is the first's
/// remainder plus `i1 - i0`, back to 0 at the level's end: one division
/// rather than two.
#[inline(always)]
fn wrap_pair<L: Lanes, const K: u8>(
    l: L,
    p: &Plan<'_>,
    k: usize,
    (i0, i1): (L::I, L::I),
    size: (L::I, L::F),
) -> [L::I; 2] {
    let top = size.0 - l.i(1);
    match p.wrap[k] {
        // ([`Shape`] kernels test their modes in `wrap_index`, not by a
        // jump table.)
        _ if const { simple::<K>() } && p.wrap[k] != Wrap::RepeatAny => [
            wrap_index::<L, K>(l, p, k, i0, size),
            wrap_index::<L, K>(l, p, k, i1, size),
        ],
        Wrap::RepeatAny => {
            let a = rem_lanes::<L>(i0, size.0, size.1);
            let b = a + (i1 - i0);
            // `b` is at most `size`, which wraps to 0.
            [a, b & (b - size.0).nonzero().to_i32()]
        }
        // The common modes with one test for both taps.
        Wrap::Repeat => [i0 & top, i1 & top],
        Wrap::Clamp => [i0.max(l.i(0)).min(top), i1.max(l.i(0)).min(top)],
        _ => [
            wrap_index::<L, K>(l, p, k, i0, size),
            wrap_index::<L, K>(l, p, k, i1, size),
        ],
    }
}

/// `i.rem_euclid(n)` on every lane, for `n >= 1` (`nf` its value as f32)
/// and `|i| <= 2^24` (so `i` is exact as f32): `i - n floor(i / n)`, the
/// quotient through one correctly rounded f32 division. Its floor is
/// exact: an integer quotient is exact in f32, and a quotient `r` that is
/// not one lies at least `1 / n` from the integers while its rounding
/// moves it by at most `r 2^-24 <= 1 / n`, equal only when `r` is a power
/// of two (an integer, so not this case).
#[inline(always)]
fn rem_lanes<L: Lanes>(i: L::I, n: L::I, nf: L::F) -> L::I {
    i - i.to_f32().div(nf).floor().to_i32() * n
}

/// `reference::mirror` on every lane: `n` or `-(1 + n)`, that is `n ^ (n
/// >> 31)`, the XOR as `(n | s) - (n & s)`.
#[inline(always)]
fn mirror<L: Iv>(n: L) -> L {
    let sign = n.shr(31);
    (n | sign) - (n & sign)
}

/// Pixels `base..base + N` of `out` (a group's part of the planes) at
/// `(s, t)`: the four texels of each one's footprint at the view's base
/// level (`lv`), each compared (`.DC`) or its post-swizzle
/// component, into the four planes (`gather::gather_lane`). `false`: a
/// lane's index is not exact in i32 (the group goes back).
#[inline(always)]
fn gather_pixels<L: Lanes, const K: u8>(
    l: L,
    g: &GatherPlan<'_>,
    (s, t): (L::F, L::F),
    dref: L::F,
    lv: &LevelLanes<L>,
    out: &mut PlanarOut<'_>,
    base: usize,
) -> bool {
    let p = &g.plan;
    if g.ptp {
        return gather_ptp::<L, K>(l, g, (s, t), lv, dref, out, base);
    }
    // One footprint for all four results (none, AOFFI): its columns and
    // rows as block-index shares.
    let off = g.offsets[0];
    let (Some(i0), Some(j0)) = (
        footprint_i0(l, s, lv.wf, off[0]),
        footprint_i0(l, t, lv.hf, off[1]),
    ) else {
        return false;
    };
    let one = l.i(1);
    let [x0, x1] = wrap_pair::<L, K>(l, p, 0, (i0, i0 + one), (lv.w, lv.wf));
    let [y0, y1] = wrap_pair::<L, K>(l, p, 1, (j0, j0 + one), (lv.h, lv.hf));
    let xs = [column_blocks(l, p, x0), column_blocks(l, p, x1)];
    let ys = [row_blocks(l, p, lv, y0), row_blocks(l, p, lv, y1)];
    // The results in gather order, corners (i0, j1), (i1, j1), (i1, j0),
    // (i0, j0) (`gather::gather_reference`; written out so that each is a
    // register, not an index): the rows' words read in pairs where the
    // layout allows ([`pair_rows`]), texel by texel otherwise.
    let v = if let Some([[w00, w10], [w01, w11]]) = pair_rows::<L, K>(l, p, lv, &xs, &ys) {
        [
            word_one::<L, K>(l, p, w01, dref, g.pick),
            word_one::<L, K>(l, p, w11, dref, g.pick),
            word_one::<L, K>(l, p, w10, dref, g.pick),
            word_one::<L, K>(l, p, w00, dref, g.pick),
        ]
    } else {
        [
            read_one::<L, K>(l, p, lv, xs[0] + ys[1], dref, g.pick),
            read_one::<L, K>(l, p, lv, xs[1] + ys[1], dref, g.pick),
            read_one::<L, K>(l, p, lv, xs[1] + ys[0], dref, g.pick),
            read_one::<L, K>(l, p, lv, xs[0] + ys[0], dref, g.pick),
        ]
    };
    l.store(v[0], &mut out.r[base..]);
    l.store(v[1], &mut out.g[base..]);
    l.store(v[2], &mut out.b[base..]);
    l.store(v[3], &mut out.a[base..]);
    true
}

/// [`gather_pixels`] under PTP: result `k` is the texel at the floor of
/// its own offset footprint's corner (`gather::gather_lane`).
#[inline(always)]
fn gather_ptp<L: Lanes, const K: u8>(
    l: L,
    g: &GatherPlan<'_>,
    (s, t): (L::F, L::F),
    lv: &LevelLanes<L>,
    dref: L::F,
    out: &mut PlanarOut<'_>,
    base: usize,
) -> bool {
    let p = &g.plan;
    let mut k = 0;
    while k < 4 {
        let off = g.offsets[k];
        let (Some(i0), Some(j0)) = (
            footprint_i0(l, s, lv.wf, off[0]),
            footprint_i0(l, t, lv.hf, off[1]),
        ) else {
            return false;
        };
        let x = wrap_index::<L, K>(l, p, 0, i0, (lv.w, lv.wf));
        let y = wrap_index::<L, K>(l, p, 1, j0, (lv.h, lv.hf));
        let blk = column_blocks(l, p, x) + row_blocks(l, p, lv, y);
        let value = read_one::<L, K>(l, p, lv, blk, dref, g.pick);
        let plane: &mut [f32] = match k {
            0 => &mut out.r[base..],
            1 => &mut out.g[base..],
            2 => &mut out.b[base..],
            _ => &mut out.a[base..],
        };
        l.store(value, plane);
        k += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::{run_at, LaneKernel};
    use crate::cpu::SimdLevel;

    /// [`log2`] of 16 inputs at a level, as bits.
    struct Log2([f32; 16]);

    impl LaneKernel for Log2 {
        type Out = [u32; 16];
        fn run<L: Lanes>(self, l: L) -> [u32; 16] {
            let mut t = [0.0f32; 16];
            for base in (0..16).step_by(L::N) {
                l.store(log2(l, l.load(&self.0[base..])), &mut t[base..]);
            }
            t.map(f32::to_bits)
        }
    }

    /// [`log2_four`] of 64 inputs at a level (four vectors at a time), as
    /// bits.
    struct Log2Four([f32; 64]);

    impl LaneKernel for Log2Four {
        type Out = [u32; 64];
        fn run<L: Lanes>(self, l: L) -> [u32; 64] {
            let mut t = [0.0f32; 64];
            for base in (0..64).step_by(4 * L::N) {
                let at = |k: usize| base + k * L::N;
                let x = [0, 1, 2, 3].map(|k| l.load(&self.0[at(k)..]));
                let y = log2_four(l, x);
                for (k, v) in y.into_iter().enumerate() {
                    l.store(v, &mut t[at(k)..]);
                }
            }
            t.map(f32::to_bits)
        }
    }

    /// [`rem_lanes`] of 16 indices by 16 divisors at a level.
    struct Rem([i32; 16], [i32; 16]);

    impl LaneKernel for Rem {
        type Out = [i32; 16];
        fn run<L: Lanes>(self, l: L) -> [i32; 16] {
            let mut out = [0i32; 16];
            for base in (0..16).step_by(L::N) {
                let n = l.load_i(&self.1[base..]);
                rem_lanes::<L>(l.load_i(&self.0[base..]), n, n.to_f32()).write(&mut out[base..]);
            }
            out
        }
    }

    /// The remainder `repeat` and `mirrored_repeat` take on extents that
    /// are not a power of two equals `i32::rem_euclid` lane by lane at
    /// every level: indices at +-2^24 (the kernel's limit), around 0 and
    /// around multiples of the divisor (where a rounded quotient is one
    /// off), and seeded random ones; divisors from 1 to 2^15, doubled
    /// (`mirrored_repeat`'s period) among them.
    #[test]
    fn remainders_equal_rem_euclid_at_every_level() {
        let limit = 1i32 << 24;
        let mut s = 0x9e37_79b9u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        for round in 0..40_000 {
            let mut i = [0i32; 16];
            let mut n = [0i32; 16];
            for k in 0..16 {
                let d = [
                    1, 2, 3, 5, 7, 100, 200, 1000, 2000, 4095, 16_383, 32_766, 32_768,
                ][(next() % 13) as usize];
                n[k] = if round % 3 == 0 {
                    d
                } else {
                    1 + (next() % 32_768) as i32
                };
                let m = (next() % (2 * limit as u32 / n[k] as u32 + 1)) as i32 - limit / n[k];
                i[k] = match next() % 6 {
                    0 => [limit, -limit, limit - 1, 1 - limit, 0, -1, 1][(next() % 7) as usize],
                    1 => (m * n[k]).clamp(-limit, limit),
                    2 => (m * n[k] - 1).clamp(-limit, limit),
                    3 => (m * n[k] + 1).clamp(-limit, limit),
                    _ => (next() % (2 * limit as u32 + 1)) as i32 - limit,
                };
            }
            let want: [i32; 16] = std::array::from_fn(|k| i[k].rem_euclid(n[k]));
            for level in SimdLevel::ALL {
                assert_eq!(run_at(level, Rem(i, n)), want, "{level:?} {i:?} mod {n:?}");
            }
        }
    }

    /// The four-vector form equals `reference::log2` bit for bit at
    /// every level.
    #[test]
    fn log2_four_equals_the_reference_at_every_level() {
        // Rounds of 64 normal positive inputs (the four chains side by
        // side), rounds with one special input among them (each vector
        // then takes `log2` on its own), and rounds of any bits.
        let special = [
            0.0f32,
            -0.0,
            1.0e-45,
            1.0e-40,
            f32::INFINITY,
            f32::NAN,
            -2.0,
            f32::MAX,
        ];
        let mut s = 0x9e37_79b9u32;
        for round in 0..4_000 {
            let mut x = [0.0f32; 64];
            for v in &mut x {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                *v = if round % 3 == 2 {
                    f32::from_bits(s)
                } else {
                    f32::from_bits(0x0080_0000 + s % (0x7f80_0000 - 0x0080_0000))
                };
            }
            if round % 3 == 1 {
                x[(s >> 8) as usize % 64] = special[round / 3 % special.len()];
            }
            let want = x.map(|v| crate::reference::log2(v).to_bits());
            for level in SimdLevel::ALL {
                let got = run_at(level, Log2Four(x));
                for i in 0..64 {
                    let (g, w) = (f32::from_bits(got[i]), f32::from_bits(want[i]));
                    assert!(
                        got[i] == want[i] || (g.is_nan() && w.is_nan()),
                        "{level:?} round {round}: log2({:e}) = {g:e}, reference {w:e}",
                        x[i]
                    );
                }
            }
        }
    }

    /// The lane form equals `reference::log2` bit for bit at every
    /// level, on edge values (zeros, denormals, powers of two, the table's
    /// bucket edges, infinities, NaN, negatives) and seeded random bit
    /// patterns.
    #[test]
    fn log2_lanes_equal_the_reference_at_every_level() {
        let edge = [
            0.0f32,
            -0.0,
            1.0e-45,
            1.0e-40,
            f32::MIN_POSITIVE,
            1.0,
            0.999_999_94,
            1.000_000_1,
            1.0625,
            1.062_499_9,
            1.9375,
            1.999_999_9,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
            -2.0,
        ];
        let mut s = 0x2545_f491u32;
        for round in 0..20_000 {
            let mut x = edge;
            if round > 0 {
                for v in &mut x {
                    s ^= s << 13;
                    s ^= s >> 17;
                    s ^= s << 5;
                    // Odd rounds: every lane normal, finite and positive
                    // (the kernel's shorter path); even rounds: any bits.
                    *v = if round % 2 == 1 {
                        f32::from_bits(0x0080_0000 + s % (0x7f80_0000 - 0x0080_0000))
                    } else {
                        f32::from_bits(s)
                    };
                }
            }
            let want = x.map(|v| crate::reference::log2(v).to_bits());
            for level in SimdLevel::ALL {
                let got = run_at(level, Log2(x));
                for i in 0..16 {
                    // (NaN payloads may differ.)
                    let (g, w) = (f32::from_bits(got[i]), f32::from_bits(want[i]));
                    assert!(
                        got[i] == want[i] || (g.is_nan() && w.is_nan()),
                        "{level:?}: log2({:e}) = {g:e}, reference {w:e}",
                        x[i]
                    );
                }
            }
        }
    }
}
