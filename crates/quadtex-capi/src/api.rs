//! The C API's work in safe Rust: the plain structs of [`crate::types`]
//! turned into the sampler crate's headers, and every operation on
//! slices. The `extern "C"` functions in [`crate::ffi`] only turn pointers
//! into the references and slices these functions take.

use std::sync::Arc;

use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat, TextureKind};
use quadtex_sampler::header::{
    AddressMode, BorderColor, CompareOp, Filter, MipmapMode, ReductionMode, Swizzle,
};
use quadtex_sampler::isa::{d3d, ptx, sass};
use quadtex_sampler::pool::{SamplerBinding, TexturingMode};
use quadtex_sampler::profile::Derivatives;
use quadtex_sampler::{
    query_lod, FetchArgs, GatherArgs, GatherOffsets, Lod, PlanarOut, Pools, Profile, Quad,
    QuadCoords, QuadFetcher, QuadSampler, SampleArgs, SamplerHeader, TextureHeader,
};

use crate::types::*;

/// A failed call: its status code and message.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) status: QtxStatus,
    pub(crate) message: String,
}

pub(crate) type Res<T> = Result<T, Failure>;

pub(crate) fn fail<T>(status: QtxStatus, message: impl Into<String>) -> Res<T> {
    Err(Failure {
        status,
        message: message.into(),
    })
}

fn invalid<T>(message: impl Into<String>) -> Res<T> {
    fail(QTX_ERROR_INVALID_ARGUMENT, message)
}

/// The status code of a format-crate error.
fn format_status(e: &quadtex_format::Error) -> QtxStatus {
    use quadtex_format::ErrorKind as K;
    match e.kind() {
        K::WrongSize => QTX_ERROR_WRONG_SIZE,
        K::OutOfMemory => QTX_ERROR_OUT_OF_MEMORY,
        _ => QTX_ERROR_INVALID_DESCRIPTION,
    }
}

impl From<quadtex_format::Error> for Failure {
    fn from(e: quadtex_format::Error) -> Failure {
        Failure {
            status: format_status(&e),
            message: e.to_string(),
        }
    }
}

/// The status code of a sampler-crate error, by its kind: an instruction
/// a front-end refuses is `QTX_ERROR_INSTRUCTION`; a texture the format
/// crate rejects takes that error's code; an impossible view, sampler,
/// profile or pool index (and any kind added later) is
/// `QTX_ERROR_INVALID_DESCRIPTION`.
fn sampler_status(e: &quadtex_sampler::Error) -> QtxStatus {
    use quadtex_sampler::ErrorKind as K;
    match e.kind() {
        K::Format => std::error::Error::source(e)
            .and_then(|s| s.downcast_ref::<quadtex_format::Error>())
            .map_or(QTX_ERROR_INVALID_DESCRIPTION, format_status),
        K::UnknownOpcode
        | K::BadModifier
        | K::BadOperand
        | K::OffsetOutOfRange
        | K::NotSupported
        | K::TexturingMode
        | K::UnknownSymbol
        | K::UnknownRegister
        | K::Misaligned => QTX_ERROR_INSTRUCTION,
        K::InvalidHeader | K::InvalidSampler | K::InvalidProfile | K::InvalidIndex => {
            QTX_ERROR_INVALID_DESCRIPTION
        }
        _ => QTX_ERROR_INVALID_DESCRIPTION,
    }
}

impl From<quadtex_sampler::Error> for Failure {
    fn from(e: quadtex_sampler::Error) -> Failure {
        Failure {
            status: sampler_status(&e),
            message: e.to_string(),
        }
    }
}

/// An instruction `text` a front-end refused: the error's status (by its
/// kind), the message quoting the text.
fn instruction_failure<T>(text: &str, e: quadtex_sampler::Error) -> Res<T> {
    fail(sampler_status(&e), format!("`{text}`: {e}"))
}

/// A texture, shared by the views made of it (`QtxTexture *` in C).
#[derive(Debug)]
pub struct QtxTexture {
    pub(crate) texture: Arc<Texture>,
}

/// A view of a texture (`QtxView *` in C).
#[derive(Debug)]
pub struct QtxView {
    pub(crate) header: TextureHeader,
}

/// Header and sampler pools for the SASS and PTX front-ends (`QtxPools *`
/// in C).
#[derive(Debug)]
pub struct QtxPools {
    pub(crate) pools: Pools,
}

/// PTX module-scope names (`.texref`, `.samplerref`, `.surfref`).
#[derive(Debug, Default)]
pub struct QtxPtxSymbols {
    pub(crate) symbols: ptx::Symbols,
}

/// PTX registers of one quad, by name.
#[derive(Debug)]
pub struct QtxPtxRegs {
    pub(crate) regs: ptx::Regs,
}

/// D3D registers of one quad (`r#`, `v#`, four components a lane).
#[derive(Debug)]
pub struct QtxD3dRegs {
    pub(crate) regs: d3d::D3dRegs,
}

fn kind(code: u32) -> Res<TextureKind> {
    Ok(match code {
        QTX_KIND_1D => TextureKind::D1,
        QTX_KIND_2D => TextureKind::D2,
        QTX_KIND_3D => TextureKind::D3,
        QTX_KIND_CUBE => TextureKind::Cube,
        QTX_KIND_1D_ARRAY => TextureKind::D1Array,
        QTX_KIND_2D_ARRAY => TextureKind::D2Array,
        QTX_KIND_CUBE_ARRAY => TextureKind::CubeArray,
        QTX_KIND_2D_MS => TextureKind::D2Ms,
        QTX_KIND_2D_MS_ARRAY => TextureKind::D2MsArray,
        _ => return invalid(format!("unknown kind {code} (QTX_KIND_*)")),
    })
}

fn kind_code(k: TextureKind) -> u32 {
    match k {
        TextureKind::D1 => QTX_KIND_1D,
        TextureKind::D2 => QTX_KIND_2D,
        TextureKind::D3 => QTX_KIND_3D,
        TextureKind::Cube => QTX_KIND_CUBE,
        TextureKind::D1Array => QTX_KIND_1D_ARRAY,
        TextureKind::D2Array => QTX_KIND_2D_ARRAY,
        TextureKind::CubeArray => QTX_KIND_CUBE_ARRAY,
        TextureKind::D2Ms => QTX_KIND_2D_MS,
        TextureKind::D2MsArray => QTX_KIND_2D_MS_ARRAY,
    }
}

/// The texture `desc` describes (format name already read), zero-filled,
/// or filled from `data` (tightly packed, level-layer-sample-z-y-x) when
/// given.
pub(crate) fn texture_create(
    desc: &QtxTextureDesc,
    format: &str,
    data: Option<&[u8]>,
) -> Res<QtxTexture> {
    let Some(format) = TextureFormat::from_vulkan_name(format) else {
        return fail(
            QTX_ERROR_INVALID_DESCRIPTION,
            format!("unknown texture format `{format}` (a Vulkan format name)"),
        );
    };
    let layout = match desc.layout {
        QTX_LAYOUT_LINEAR => Layout::Linear,
        QTX_LAYOUT_TILED => Layout::Tiled,
        l => return invalid(format!("unknown layout {l} (QTX_LAYOUT_*)")),
    };
    let d = TextureDesc {
        kind: kind(desc.kind)?,
        format,
        width: desc.width,
        height: desc.height,
        depth: desc.depth,
        layers: desc.layers,
        levels: desc.levels,
        samples: desc.samples,
        no_mipmap: desc.no_mipmap,
    };
    let texture = match data {
        Some(bytes) => Texture::from_linear_bytes(d, layout, bytes)?,
        None => Texture::new(d, layout)?,
    };
    Ok(QtxTexture {
        texture: Arc::new(texture),
    })
}

fn texture_mut(t: &mut QtxTexture) -> Res<&mut Texture> {
    match Arc::get_mut(&mut t.texture) {
        Some(t) => Ok(t),
        None => fail(
            QTX_ERROR_BUSY,
            "views still read this texture: write it before making views",
        ),
    }
}

/// Writes one subresource (all its z slices), tightly packed.
pub(crate) fn texture_write(
    t: &mut QtxTexture,
    level: u32,
    layer: u32,
    sample: u32,
    data: &[u8],
) -> Res<()> {
    texture_mut(t)?.write_subresource_bytes(level, layer, sample, data)?;
    Ok(())
}

/// Levels 1.. from level 0, as `generate_mips` does (box filter, sRGB in
/// linear space).
pub(crate) fn texture_generate_mips(t: &mut QtxTexture) -> Res<()> {
    quadtex_format::mip::generate_mips(texture_mut(t)?)?;
    Ok(())
}

/// The view of the whole texture.
pub(crate) fn view_desc_default(t: &QtxTexture) -> QtxViewDesc {
    let h = TextureHeader::new(t.texture.clone());
    QtxViewDesc {
        kind: kind_code(h.kind),
        base_level: h.base_level,
        level_count: h.level_count,
        base_layer: h.base_layer,
        layer_count: h.layer_count,
        swizzle: [QTX_SWIZZLE_R, QTX_SWIZZLE_G, QTX_SWIZZLE_B, QTX_SWIZZLE_A],
        min_lod_clamp: 0.0,
        srgb_decode: true,
    }
}

fn swizzle(code: u32) -> Res<Swizzle> {
    Ok(match code {
        QTX_SWIZZLE_R => Swizzle::R,
        QTX_SWIZZLE_G => Swizzle::G,
        QTX_SWIZZLE_B => Swizzle::B,
        QTX_SWIZZLE_A => Swizzle::A,
        QTX_SWIZZLE_ZERO => Swizzle::Zero,
        QTX_SWIZZLE_ONE => Swizzle::One,
        _ => return invalid(format!("unknown swizzle {code} (QTX_SWIZZLE_*)")),
    })
}

/// A checked view of `t`.
pub(crate) fn view_create(t: &QtxTexture, d: &QtxViewDesc) -> Res<QtxView> {
    let mut sw = [Swizzle::R; 4];
    for (s, &c) in sw.iter_mut().zip(&d.swizzle) {
        *s = swizzle(c)?;
    }
    let header = TextureHeader {
        texture: t.texture.clone(),
        kind: kind(d.kind)?,
        base_level: d.base_level,
        level_count: d.level_count,
        base_layer: d.base_layer,
        layer_count: d.layer_count,
        swizzle: sw,
        min_lod_clamp: d.min_lod_clamp,
        srgb_decode: d.srgb_decode,
    };
    header.validate()?;
    Ok(QtxView { header })
}

/// Nearest filtering, repeat, no compare.
pub(crate) fn sampler_desc_default() -> QtxSamplerDesc {
    let s = SamplerHeader::default();
    QtxSamplerDesc {
        mag_filter: QTX_FILTER_NEAREST,
        min_filter: QTX_FILTER_NEAREST,
        mipmap_mode: QTX_MIPMAP_NEAREST,
        address: [QTX_ADDRESS_REPEAT; 3],
        border_color: QTX_BORDER_FLOAT_TRANSPARENT_BLACK,
        border_float: [0.0; 4],
        border_int: [0; 4],
        mip_lod_bias: s.mip_lod_bias,
        min_lod: s.min_lod,
        max_lod: s.max_lod,
        max_anisotropy: s.max_anisotropy,
        compare_op: QTX_COMPARE_NONE,
        unnormalized: s.unnormalized,
        seamless_cube: s.seamless_cube,
        reduction: QTX_REDUCTION_WEIGHTED_AVERAGE,
    }
}

fn filter(code: u32) -> Res<Filter> {
    match code {
        QTX_FILTER_NEAREST => Ok(Filter::Nearest),
        QTX_FILTER_LINEAR => Ok(Filter::Linear),
        _ => invalid(format!("unknown filter {code} (QTX_FILTER_*)")),
    }
}

fn address(code: u32) -> Res<AddressMode> {
    Ok(match code {
        QTX_ADDRESS_REPEAT => AddressMode::Repeat,
        QTX_ADDRESS_MIRRORED_REPEAT => AddressMode::MirroredRepeat,
        QTX_ADDRESS_CLAMP_TO_EDGE => AddressMode::ClampToEdge,
        QTX_ADDRESS_CLAMP_TO_BORDER => AddressMode::ClampToBorder,
        QTX_ADDRESS_MIRROR_CLAMP_TO_EDGE => AddressMode::MirrorClampToEdge,
        QTX_ADDRESS_CLAMP_OGL => AddressMode::ClampOgl,
        _ => return invalid(format!("unknown address mode {code} (QTX_ADDRESS_*)")),
    })
}

/// The sampler header `d` describes, checked alone (the view is checked
/// with it when a call reads both).
pub(crate) fn sampler(d: &QtxSamplerDesc) -> Res<SamplerHeader> {
    let mipmap_mode = match d.mipmap_mode {
        QTX_MIPMAP_NONE => MipmapMode::None,
        QTX_MIPMAP_NEAREST => MipmapMode::Nearest,
        QTX_MIPMAP_LINEAR => MipmapMode::Linear,
        m => return invalid(format!("unknown mipmap mode {m} (QTX_MIPMAP_*)")),
    };
    let border_color = match d.border_color {
        QTX_BORDER_FLOAT_TRANSPARENT_BLACK => BorderColor::FloatTransparentBlack,
        QTX_BORDER_FLOAT_OPAQUE_BLACK => BorderColor::FloatOpaqueBlack,
        QTX_BORDER_FLOAT_OPAQUE_WHITE => BorderColor::FloatOpaqueWhite,
        QTX_BORDER_INT_TRANSPARENT_BLACK => BorderColor::IntTransparentBlack,
        QTX_BORDER_INT_OPAQUE_BLACK => BorderColor::IntOpaqueBlack,
        QTX_BORDER_INT_OPAQUE_WHITE => BorderColor::IntOpaqueWhite,
        QTX_BORDER_FLOAT_CUSTOM => BorderColor::Float(d.border_float),
        QTX_BORDER_INT_CUSTOM => BorderColor::Int(d.border_int),
        b => return invalid(format!("unknown border colour {b} (QTX_BORDER_*)")),
    };
    let compare = match d.compare_op {
        QTX_COMPARE_NONE => None,
        QTX_COMPARE_NEVER => Some(CompareOp::Never),
        QTX_COMPARE_LESS => Some(CompareOp::Less),
        QTX_COMPARE_EQUAL => Some(CompareOp::Equal),
        QTX_COMPARE_LESS_OR_EQUAL => Some(CompareOp::LessOrEqual),
        QTX_COMPARE_GREATER => Some(CompareOp::Greater),
        QTX_COMPARE_NOT_EQUAL => Some(CompareOp::NotEqual),
        QTX_COMPARE_GREATER_OR_EQUAL => Some(CompareOp::GreaterOrEqual),
        QTX_COMPARE_ALWAYS => Some(CompareOp::Always),
        c => return invalid(format!("unknown compare op {c} (QTX_COMPARE_*)")),
    };
    let reduction = match d.reduction {
        QTX_REDUCTION_WEIGHTED_AVERAGE => ReductionMode::WeightedAverage,
        QTX_REDUCTION_MIN => ReductionMode::Min,
        QTX_REDUCTION_MAX => ReductionMode::Max,
        r => return invalid(format!("unknown reduction {r} (QTX_REDUCTION_*)")),
    };
    let s = SamplerHeader {
        mag_filter: filter(d.mag_filter)?,
        min_filter: filter(d.min_filter)?,
        mipmap_mode,
        address: [
            address(d.address[0])?,
            address(d.address[1])?,
            address(d.address[2])?,
        ],
        border_color,
        mip_lod_bias: d.mip_lod_bias,
        min_lod: d.min_lod,
        max_lod: d.max_lod,
        max_anisotropy: d.max_anisotropy,
        compare,
        unnormalized: d.unnormalized,
        seamless_cube: d.seamless_cube,
        reduction,
    };
    s.validate()?;
    Ok(s)
}

fn profile(code: u32) -> Res<Profile> {
    Ok(match code {
        QTX_PROFILE_VULKAN => Profile::VULKAN,
        QTX_PROFILE_NV_SASS => Profile::NV_SASS,
        QTX_PROFILE_PTX => Profile::PTX,
        QTX_PROFILE_D3D11 => Profile::D3D11,
        _ => return invalid(format!("unknown profile {code} (QTX_PROFILE_*)")),
    })
}

/// Float planes of `4n` values each as the C call gave them (`None`:
/// `NULL`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Planes<'a> {
    pub(crate) s: Option<&'a [f32]>,
    pub(crate) t: Option<&'a [f32]>,
    pub(crate) r: Option<&'a [f32]>,
    pub(crate) a: Option<&'a [f32]>,
    pub(crate) dref: Option<&'a [f32]>,
    pub(crate) lod: Option<&'a [f32]>,
    pub(crate) ddx: [Option<&'a [f32]>; 3],
    pub(crate) ddy: [Option<&'a [f32]>; 3],
}

/// Output planes of `4n` values each.
#[derive(Debug)]
pub(crate) struct OutPlanes<'a, T> {
    pub(crate) r: &'a mut [T],
    pub(crate) g: &'a mut [T],
    pub(crate) b: &'a mut [T],
    pub(crate) a: &'a mut [T],
}

/// Which coordinate planes a view of `kind` reads: `(t, r, a)`.
fn reads(kind: TextureKind) -> (bool, bool, bool) {
    use TextureKind as K;
    match kind {
        K::D1 => (false, false, false),
        K::D1Array => (false, false, true),
        K::D2 | K::D2Ms => (true, false, false),
        K::D2Array | K::D2MsArray => (true, false, true),
        K::D3 | K::Cube => (true, true, false),
        K::CubeArray => (true, true, true),
    }
}

/// The `s`, `t`, `r` and `a` planes of a call.
type Coords<'a> = (&'a [f32], &'a [f32], &'a [f32], &'a [f32]);

/// The planes the view reads, with zeros for those it does not.
fn coords<'a>(view: &TextureHeader, p: &Planes<'a>, zeros: &'a [f32]) -> Res<Coords<'a>> {
    let (t, r, a) = reads(view.kind);
    let need = |plane: Option<&'a [f32]>, needed: bool, name: &str| match plane {
        Some(v) => Ok(v),
        None if !needed => Ok(zeros),
        None => invalid(format!(
            "a {} view reads coords.{name}, which is NULL",
            view.kind
        )),
    };
    Ok((
        need(p.s, true, "s")?,
        need(p.t, t, "t")?,
        need(p.r, r, "r")?,
        need(p.a, a, "a")?,
    ))
}

fn derivatives(code: u32) -> Res<Option<Derivatives>> {
    Ok(match code {
        QTX_DERIVATIVES_PROFILE => None,
        QTX_DERIVATIVES_COARSE => Some(Derivatives::Coarse),
        QTX_DERIVATIVES_FINE => Some(Derivatives::Fine),
        _ => return invalid(format!("unknown derivatives {code} (QTX_DERIVATIVES_*)")),
    })
}

fn lane4(v: &[f32], q: usize) -> [f32; 4] {
    [v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]]
}

/// Quad `q` of the coordinate planes, in [`Quad`]'s `[s, t, r, layer]`
/// form.
fn quad_at(c: Coords<'_>, q: usize) -> Quad {
    Quad::new(std::array::from_fn(|l| {
        let i = 4 * q + l;
        [c.0[i], c.1[i], c.2[i], c.3[i]]
    }))
}

/// A reference plane exactly when the sampler compares.
fn dref_matches(smp: &SamplerHeader, p: &Planes<'_>) -> Res<()> {
    match (smp.compare.is_some(), p.dref.is_some()) {
        (true, false) => invalid("the sampler compares: coords.dref is required"),
        (false, true) => invalid("coords.dref given but the sampler has no compare_op"),
        _ => Ok(()),
    }
}

/// The planar kernels' coordinates: the view's planes, the reference and
/// LOD planes when given.
fn quad_coords<'a>(c: Coords<'a>, p: &Planes<'a>, lod: bool) -> QuadCoords<'a> {
    QuadCoords {
        s: c.0,
        t: c.1,
        r: c.2,
        a: c.3,
        dref: p.dref.unwrap_or(&[]),
        lod: if lod { p.lod.unwrap_or(&[]) } else { &[] },
    }
}

impl<'a> OutPlanes<'a, f32> {
    fn planar(self) -> PlanarOut<'a> {
        PlanarOut {
            r: self.r,
            g: self.g,
            b: self.b,
            a: self.a,
        }
    }
}

/// The headers and the sample args of a call, checked.
struct Call {
    smp: SamplerHeader,
    profile: Profile,
    args: SampleArgs,
}

fn sample_call(
    view: &TextureHeader,
    d: &QtxSamplerDesc,
    a: &QtxSampleArgs,
    p: &Planes<'_>,
) -> Res<Call> {
    let smp = sampler(d)?;
    smp.validate_with(view)?;
    let lod = match a.lod_mode {
        QTX_LOD_IMPLICIT => Lod::Implicit,
        QTX_LOD_BASE => Lod::Base,
        QTX_LOD_BIAS | QTX_LOD_LEVEL => {
            if p.lod.is_none() {
                return invalid("QTX_LOD_BIAS and QTX_LOD_LEVEL read coords.lod, which is NULL");
            }
            if a.lod_mode == QTX_LOD_BIAS {
                Lod::Bias([0.0; 4])
            } else {
                Lod::Level([0.0; 4])
            }
        }
        QTX_LOD_GRAD => Lod::Grad {
            ddx: [[0.0; 3]; 4],
            ddy: [[0.0; 3]; 4],
        },
        m => return invalid(format!("unknown LOD mode {m} (QTX_LOD_*)")),
    };
    if a.offset.iter().any(|o| !(-8..=7).contains(o)) {
        return invalid(format!("offset {:?} outside -8..=7", a.offset));
    }
    dref_matches(&smp, p)?;
    Ok(Call {
        smp,
        profile: profile(a.profile)?,
        args: SampleArgs {
            lod,
            offset: a.offset,
            dref: None,
            ndv: a.ndv,
            derivatives: derivatives(a.derivatives)?,
        },
    })
}

/// `qtx_sample`: `n` quads, planar in and out.
pub(crate) fn sample(
    view: &TextureHeader,
    d: &QtxSamplerDesc,
    a: &QtxSampleArgs,
    p: &Planes<'_>,
    n: usize,
    out: OutPlanes<'_, f32>,
) -> Res<()> {
    let call = sample_call(view, d, a, p)?;
    let zeros = vec![0.0f32; 4 * n];
    let c = coords(view, p, &zeros)?;
    let mut unit = QuadSampler::new(view, &call.smp, &call.profile);
    if let Lod::Grad { .. } = call.args.lod {
        for q in 0..n {
            let plane = |v: Option<&[f32]>, l: usize| v.map_or(0.0, |v| v[4 * q + l]);
            let mut args = call.args;
            args.lod = Lod::Grad {
                ddx: std::array::from_fn(|l| std::array::from_fn(|k| plane(p.ddx[k], l))),
                ddy: std::array::from_fn(|l| std::array::from_fn(|k| plane(p.ddy[k], l))),
            };
            args.dref = p.dref.map(|v| lane4(v, q));
            let rgba = unit.sample_rgba(&args, &quad_at(c, q));
            for (l, px) in rgba.iter().enumerate() {
                let i = 4 * q + l;
                (out.r[i], out.g[i], out.b[i], out.a[i]) = (px[0], px[1], px[2], px[3]);
            }
        }
        return Ok(());
    }
    unit.sample_planar(&call.args, &quad_coords(c, p, true), &mut out.planar());
    Ok(())
}

/// `qtx_gather`.
pub(crate) fn gather(
    view: &TextureHeader,
    d: &QtxSamplerDesc,
    a: &QtxGatherArgs,
    p: &Planes<'_>,
    n: usize,
    out: OutPlanes<'_, f32>,
) -> Res<()> {
    let smp = sampler(d)?;
    smp.validate_with(view)?;
    let profile = profile(a.profile)?;
    if a.component > 3 {
        return invalid(format!("gather component {} is not 0..=3", a.component));
    }
    let in_range = |o: &[i32; 2]| o.iter().all(|v| (-32..=31).contains(v));
    let offsets = match a.offset_mode {
        QTX_GATHER_OFFSET_NONE => GatherOffsets::None,
        QTX_GATHER_OFFSET_AOFFI if in_range(&a.offsets[0]) => GatherOffsets::Aoffi(a.offsets[0]),
        QTX_GATHER_OFFSET_PTP if a.offsets.iter().all(in_range) => GatherOffsets::Ptp(a.offsets),
        QTX_GATHER_OFFSET_AOFFI | QTX_GATHER_OFFSET_PTP => {
            return invalid(format!("gather offsets {:?} outside -32..=31", a.offsets))
        }
        m => {
            return invalid(format!(
                "unknown gather offset mode {m} (QTX_GATHER_OFFSET_*)"
            ))
        }
    };
    dref_matches(&smp, p)?;
    let zeros = vec![0.0f32; 4 * n];
    let c = coords(view, p, &zeros)?;
    let args = GatherArgs {
        component: a.component as u8,
        offsets,
        dref: None,
        ndv: a.ndv,
    };
    QuadSampler::new(view, &smp, &profile).gather_planar(
        &args,
        &quad_coords(c, p, false),
        &mut out.planar(),
    );
    Ok(())
}

/// `qtx_query_lod`: per lane the accessed level and lambda'
/// (`textureQueryLod`'s x and y).
pub(crate) fn query(
    view: &TextureHeader,
    d: &QtxSamplerDesc,
    a: &QtxSampleArgs,
    p: &Planes<'_>,
    n: usize,
    accessed: &mut [f32],
    lambda: &mut [f32],
) -> Res<()> {
    let mut p = *p;
    // The LOD does not depend on the reference.
    p.dref = None;
    let mut d = *d;
    d.compare_op = QTX_COMPARE_NONE;
    let call = sample_call(view, &d, a, &p)?;
    let zeros = vec![0.0f32; 4 * n];
    let c = coords(view, &p, &zeros)?;
    for q in 0..n {
        let mut args = call.args;
        let plane = |v: Option<&[f32]>, l: usize| v.map_or(0.0, |v| v[4 * q + l]);
        args.lod = match args.lod {
            Lod::Bias(_) => Lod::Bias(std::array::from_fn(|l| plane(p.lod, l))),
            Lod::Level(_) => Lod::Level(std::array::from_fn(|l| plane(p.lod, l))),
            Lod::Grad { .. } => Lod::Grad {
                ddx: std::array::from_fn(|l| std::array::from_fn(|k| plane(p.ddx[k], l))),
                ddy: std::array::from_fn(|l| std::array::from_fn(|k| plane(p.ddy[k], l))),
            },
            other => other,
        };
        let r = query_lod(view, &call.smp, &call.profile, &args, &quad_at(c, q));
        for (l, r) in r.iter().enumerate() {
            let (x, y) = r.map_or((0.0, 0.0), |r| (r.accessed, r.lambda));
            accessed[4 * q + l] = x;
            lambda[4 * q + l] = y;
        }
    }
    Ok(())
}

/// Integer planes for `qtx_fetch` (`None`: `NULL`, reads 0).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct IntPlanes<'a> {
    pub(crate) x: Option<&'a [i32]>,
    pub(crate) y: Option<&'a [i32]>,
    pub(crate) z: Option<&'a [i32]>,
    pub(crate) layer: Option<&'a [i32]>,
    pub(crate) level: Option<&'a [i32]>,
    pub(crate) sample: Option<&'a [i32]>,
}

/// `qtx_fetch`: texel words per lane, and residency.
pub(crate) fn fetch(
    view: &TextureHeader,
    p: &IntPlanes<'_>,
    offset: [i32; 3],
    n: usize,
    out: OutPlanes<'_, u32>,
    mut resident: Option<&mut [u8]>,
) -> Res<()> {
    if offset.iter().any(|o| !(-8..=7).contains(o)) {
        return invalid(format!("offset {offset:?} outside -8..=7"));
    }
    let mut f = QuadFetcher::new(view);
    for q in 0..n {
        let at = |v: Option<&[i32]>, l: usize| v.map_or(0, |v| v[4 * q + l]);
        let args = FetchArgs {
            icoords: std::array::from_fn(|l| [at(p.x, l), at(p.y, l), at(p.z, l), at(p.layer, l)]),
            level: std::array::from_fn(|l| at(p.level, l)),
            sample: std::array::from_fn(|l| at(p.sample, l)),
            offset,
        };
        let r = f.fetch(&args, 0xf);
        for l in 0..4 {
            let i = 4 * q + l;
            let w = r.texels[l].map_or([0; 4], |t| t.to_bits());
            (out.r[i], out.g[i], out.b[i], out.a[i]) = (w[0], w[1], w[2], w[3]);
            if let Some(res) = resident.as_deref_mut() {
                res[i] = r.resident[l] as u8;
            }
        }
    }
    Ok(())
}

/// Empty pools; PTX ones (`mode` is `Some`) take the mode's limits.
pub(crate) fn pools_create(mode: Option<u32>) -> Res<QtxPools> {
    let pools = match mode {
        None => Pools::new(),
        Some(m) => Pools::for_ptx(ptx_mode(m)?),
    };
    Ok(QtxPools { pools })
}

fn ptx_mode(m: u32) -> Res<TexturingMode> {
    match m {
        QTX_PTX_UNIFIED => Ok(TexturingMode::Unified),
        QTX_PTX_INDEPENDENT => Ok(TexturingMode::Independent),
        _ => invalid(format!("unknown PTX texturing mode {m} (QTX_PTX_*)")),
    }
}

pub(crate) fn pools_set_header(p: &mut QtxPools, index: u32, v: &QtxView) -> Res<()> {
    p.pools.set_header(index, v.header.clone())?;
    Ok(())
}

pub(crate) fn pools_set_sampler(p: &mut QtxPools, index: u32, d: &QtxSamplerDesc) -> Res<()> {
    p.pools.set_sampler(index, sampler(d)?)?;
    Ok(())
}

pub(crate) fn pools_set_limits(
    p: &mut QtxPools,
    header_max: u32,
    sampler_max: u32,
    binding: u32,
) -> Res<()> {
    p.pools.binding = match binding {
        QTX_BINDING_INDEPENDENT => SamplerBinding::Independent,
        QTX_BINDING_VIA_HEADER => SamplerBinding::ViaHeaderBinding,
        b => return invalid(format!("unknown sampler binding {b} (QTX_BINDING_*)")),
    };
    p.pools.header_max = header_max;
    p.pools.sampler_max = sampler_max;
    Ok(())
}

/// `qtx_sass_execute`: parses `text`, runs it on `regs`.
pub(crate) fn sass_execute(
    pools: &QtxPools,
    text: &str,
    regs: &mut QtxSassRegs,
    active: u8,
    helper: u8,
) -> Res<()> {
    let instr = match sass::parse(text) {
        Ok(i) => i,
        Err(e) => return instruction_failure(text, e),
    };
    let mut file = sass::RegFile::new();
    for lane in 0..4 {
        for r in 0..255 {
            file.set(lane, r, regs.r[lane][r]);
        }
        for p in 0..7u8 {
            file.set_pred(lane, p, regs.p[lane][p as usize]);
        }
    }
    if let Err(e) = instr.execute(&mut file, &pools.pools, active, helper) {
        return instruction_failure(text, e);
    }
    for lane in 0..4 {
        for r in 0..255 {
            regs.r[lane][r] = file.get(lane, r);
        }
        regs.r[lane][255] = 0;
        for p in 0..7u8 {
            regs.p[lane][p as usize] = file.pred(lane, p);
        }
    }
    Ok(())
}

pub(crate) fn ptx_symbols_add(s: &mut QtxPtxSymbols, kind: u32, name: &str, index: u32) -> Res<()> {
    let map = match kind {
        QTX_PTX_TEXREF => &mut s.symbols.textures,
        QTX_PTX_SAMPLERREF => &mut s.symbols.samplers,
        QTX_PTX_SURFREF => &mut s.symbols.surfaces,
        k => return invalid(format!("unknown PTX symbol kind {k} (QTX_PTX_*REF)")),
    };
    map.insert(name.to_string(), index);
    Ok(())
}

pub(crate) fn ptx_symbols_address_of(s: &QtxPtxSymbols, name: &str) -> Res<u64> {
    match s.symbols.address_of(name) {
        Some(a) => Ok(a),
        None => fail(QTX_ERROR_NOT_FOUND, format!("no symbol `{name}`")),
    }
}

/// `qtx_ptx_execute`: one PTX line against the pools and symbols.
pub(crate) fn ptx_execute(
    pools: &QtxPools,
    symbols: &QtxPtxSymbols,
    mode: u32,
    line: &str,
    regs: &mut QtxPtxRegs,
) -> Res<()> {
    let ctx = ptx::PtxContext {
        pools: &pools.pools,
        symbols: &symbols.symbols,
        mode: ptx_mode(mode)?,
        profile: Profile::PTX,
    };
    match ptx::run(&ctx, line, &mut regs.regs) {
        Ok(()) => Ok(()),
        Err(e) => instruction_failure(line, e),
    }
}

pub(crate) fn ptx_regs_get(regs: &QtxPtxRegs, name: &str) -> Res<[u32; 4]> {
    match regs.regs.get(name) {
        Some(v) => Ok(v),
        None => fail(
            QTX_ERROR_NOT_FOUND,
            format!("register `{name}` was never written"),
        ),
    }
}

pub(crate) fn ptx_regs_get_u64(regs: &QtxPtxRegs, name: &str) -> Res<[u64; 4]> {
    match regs.regs.get_u64(name) {
        Some(v) => Ok(v),
        None => fail(
            QTX_ERROR_NOT_FOUND,
            format!("register `{name}` was never written"),
        ),
    }
}

pub(crate) fn ptx_regs_get_pred(regs: &QtxPtxRegs, name: &str) -> Res<[bool; 4]> {
    match regs.regs.pred(name) {
        Some(v) => Ok(v),
        None => fail(
            QTX_ERROR_NOT_FOUND,
            format!("predicate `{name}` was never written"),
        ),
    }
}

fn d3d_reg(name: &str) -> Res<d3d::Reg> {
    d3d::parse_reg(name).or_else(|e| invalid(format!("`{name}`: {e}")))
}

pub(crate) fn d3d_regs_set(regs: &mut QtxD3dRegs, name: &str, v: &[u32; 16]) -> Res<()> {
    let r = d3d_reg(name)?;
    regs.regs.set(
        r,
        std::array::from_fn(|l| std::array::from_fn(|c| v[4 * l + c])),
    );
    Ok(())
}

pub(crate) fn d3d_regs_get(regs: &QtxD3dRegs, name: &str) -> Res<[u32; 16]> {
    let v = regs.regs.get(d3d_reg(name)?);
    Ok(std::array::from_fn(|i| v[i / 4][i % 4]))
}

/// `qtx_d3d_execute`: one `ld2dms` line; `resources[i]` is `t#i`.
pub(crate) fn d3d_execute(
    resources: &[Option<&QtxView>],
    line: &str,
    regs: &mut QtxD3dRegs,
) -> Res<()> {
    let res: Vec<Option<TextureHeader>> = resources
        .iter()
        .map(|v| v.map(|v| v.header.clone()))
        .collect();
    match d3d::run(line, &res, &mut regs.regs) {
        Ok(()) => Ok(()),
        Err(e) => instruction_failure(line, e),
    }
}
