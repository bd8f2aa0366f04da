//! Quad SIMD kernels for `sample` on the common family: 1D, 2D, 3D and
//! their arrays, float-sampled formats, nearest / bilinear / trilinear,
//! every address mode and LOD form, normalized or unnormalized
//! coordinates. Cubes, anisotropy, depth compare, min/max reduction,
//! sparse textures and integer formats take the scalar reference path.
//!
//! A kernel call is monomorphised per texel decoder ([`Fetch`]), so the
//! format is decided once per call, never per texel. Lane work that is a
//! handful of scalar operations (the LOD and level choice, shared with the
//! reference through `Ctx::select`, and integer wrapping) stays scalar;
//! texel coordinates, filter weights and the weighted sums run on all four
//! lanes at once in `F4`. The operations and their order mirror
//! `reference.rs` exactly, so the results are bit-identical (the twin tests
//! in `tests/kernel_twin.rs` check it on random and edge quads).

use quadtex_format::format::{ChannelKind, ChannelOrder, FormatLayout};
use quadtex_format::texel;
use quadtex_format::{
    compressed, Aspect, SampleType, Subresource, Texel, TextureFormat, TextureKind,
};

use crate::header::{AddressMode, Filter, ReductionMode};
use crate::quad::{Lod, Quad, QuadResult, SampleArgs};
use crate::reference::{floor_index, quad_derivatives, wrap, Ctx, LaneCoords, Selection};
use crate::simd::{arr, f4, frac, F4};

/// Reads one texel of a subresource as `[f32; 4]` (decoded, sRGB to
/// linear, missing components (0, 0, 0, 1)).
pub(crate) trait Fetch {
    /// Texel `(x, y, z)` of `sub` within the texture's bytes; the caller
    /// keeps the coordinates inside the subresource.
    fn fetch(&mut self, bytes: &[u8], sub: &Subresource, x: u32, y: u32, z: u32) -> [f32; 4];
}

/// 8-bit RGBA/BGRA UNORM or sRGB through exact lookup tables.
pub(crate) struct Rgba8 {
    colour: &'static [f32; 256],
    alpha: &'static [f32; 256],
    bgra: bool,
}

impl Rgba8 {
    fn new(srgb: bool, bgra: bool) -> Rgba8 {
        let alpha = texel::unorm8_table();
        let colour = if srgb { texel::srgb8_table() } else { alpha };
        Rgba8 {
            colour,
            alpha,
            bgra,
        }
    }
}

impl Fetch for Rgba8 {
    #[inline(always)]
    fn fetch(&mut self, bytes: &[u8], sub: &Subresource, x: u32, y: u32, z: u32) -> [f32; 4] {
        let o = sub.block_offset(x, y, z);
        let p = &bytes[o..o + 4];
        let (r, b) = if self.bgra {
            (p[2], p[0])
        } else {
            (p[0], p[2])
        };
        [
            self.colour[r as usize],
            self.colour[p[1] as usize],
            self.colour[b as usize],
            self.alpha[p[3] as usize],
        ]
    }
}

/// 16-bit float RGBA.
pub(crate) struct Rgba16F;

impl Fetch for Rgba16F {
    #[inline(always)]
    fn fetch(&mut self, bytes: &[u8], sub: &Subresource, x: u32, y: u32, z: u32) -> [f32; 4] {
        let o = sub.block_offset(x, y, z);
        let p = &bytes[o..o + 8];
        let h = |i: usize| half::f16::from_bits(u16::from_le_bytes([p[i], p[i + 1]])).to_f32();
        [h(0), h(2), h(4), h(6)]
    }
}

/// 32-bit float R (bit-exact).
pub(crate) struct R32F;

impl Fetch for R32F {
    #[inline(always)]
    fn fetch(&mut self, bytes: &[u8], sub: &Subresource, x: u32, y: u32, z: u32) -> [f32; 4] {
        let o = sub.block_offset(x, y, z);
        [
            f32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]),
            0.0,
            0.0,
            1.0,
        ]
    }
}

/// Any other uncompressed float-sampled format, through the format crate's
/// decoder (the layout match is per texel, but correct for all).
pub(crate) struct AnyUncompressed(TextureFormat);

impl Fetch for AnyUncompressed {
    fn fetch(&mut self, bytes: &[u8], sub: &Subresource, x: u32, y: u32, z: u32) -> [f32; 4] {
        let o = sub.block_offset(x, y, z);
        let n = sub.block_bytes as usize;
        texel::decode(self.0, self.0.default_aspect(), &bytes[o..o + n])
            .map(Texel::to_f32)
            .unwrap_or([0.0; 4])
    }
}

/// Block-compressed formats: a direct-mapped cache of decoded blocks that
/// lives as long as the `QuadSampler`, so neighbouring texels and
/// neighbouring quads decode each block once.
pub(crate) struct Blocks {
    format: TextureFormat,
    bw: u32,
    bh: u32,
    keys: Vec<usize>,
    texels: Vec<[[f32; 4]; compressed::MAX_BLOCK_TEXELS]>,
}

/// Cache slots (a power of two): 64 blocks cover a 16-block-wide strip
/// of four rows, what a row of quads on a minified surface touches.
const BLOCK_SLOTS: usize = 64;

impl Blocks {
    fn new(format: TextureFormat) -> Blocks {
        let (bw, bh) = format.block_extent();
        Blocks {
            format,
            bw,
            bh,
            keys: vec![usize::MAX; BLOCK_SLOTS],
            texels: vec![[[0.0; 4]; compressed::MAX_BLOCK_TEXELS]; BLOCK_SLOTS],
        }
    }
}

impl Fetch for Blocks {
    fn fetch(&mut self, bytes: &[u8], sub: &Subresource, x: u32, y: u32, z: u32) -> [f32; 4] {
        let (bx, by) = (x / self.bw, y / self.bh);
        let o = sub.block_offset(bx, by, z);
        let slot = ((bx as usize & 15) | ((by as usize & 3) << 4)) & (BLOCK_SLOTS - 1);
        if self.keys[slot] != o {
            let n = sub.block_bytes as usize;
            if compressed::decode_block(self.format, &bytes[o..o + n], &mut self.texels[slot][..])
                .is_err()
            {
                self.texels[slot] = [[0.0; 4]; compressed::MAX_BLOCK_TEXELS];
            }
            self.keys[slot] = o;
        }
        self.texels[slot][((y % self.bh) * self.bw + x % self.bw) as usize]
    }
}

/// Whether the kernels handle this call; everything else goes to the
/// reference.
pub(crate) fn handles(ctx: &Ctx<'_>, args: &SampleArgs) -> bool {
    let view = ctx.view;
    let smp = ctx.smp;
    !view.kind.is_cube()
        && !view.kind.is_multisample()
        && ctx.ty == SampleType::Float
        && smp.compare.is_none()
        && args.dref.is_none()
        && smp.reduction == ReductionMode::WeightedAverage
        && ctx.profile.aniso_levels.quantize(smp.max_anisotropy) <= 1.0
        && view.texture.residency().is_none()
        && !ctx.format.has_depth()
        && !ctx.format.has_stencil()
}

/// The texel decoder a view needs, chosen once per [`crate::QuadSampler`].
pub(crate) enum Decoder {
    Rgba8(Rgba8),
    Rgba16F(Rgba16F),
    R32F(R32F),
    Blocks(Blocks),
    Any(AnyUncompressed),
}

impl Decoder {
    pub(crate) fn new(f: TextureFormat) -> Decoder {
        match f.layout() {
            FormatLayout::Array {
                order: order @ (ChannelOrder::Rgba | ChannelOrder::Bgra),
                bits: 8,
                kind: kind @ (ChannelKind::Unorm | ChannelKind::Srgb),
            } => Decoder::Rgba8(Rgba8::new(
                kind == ChannelKind::Srgb,
                order == ChannelOrder::Bgra,
            )),
            FormatLayout::Array {
                order: ChannelOrder::Rgba,
                bits: 16,
                kind: ChannelKind::Float,
            } => Decoder::Rgba16F(Rgba16F),
            FormatLayout::Array {
                order: ChannelOrder::R,
                bits: 32,
                kind: ChannelKind::Float,
            } => Decoder::R32F(R32F),
            FormatLayout::Block { .. } => Decoder::Blocks(Blocks::new(f)),
            _ => Decoder::Any(AnyUncompressed(f)),
        }
    }
}

/// Runs `sample` through the kernel monomorphised for the decoder.
pub(crate) fn sample(
    ctx: &Ctx<'_>,
    decoder: &mut Decoder,
    args: &SampleArgs,
    quad: &Quad,
) -> QuadResult {
    match decoder {
        Decoder::Rgba8(d) => run(ctx, d, args, quad),
        Decoder::Rgba16F(d) => run(ctx, d, args, quad),
        Decoder::R32F(d) => run(ctx, d, args, quad),
        Decoder::Blocks(d) => run(ctx, d, args, quad),
        Decoder::Any(d) => run(ctx, d, args, quad),
    }
}

/// The kernel proper, monomorphised per decoder.
fn run<F: Fetch>(ctx: &Ctx<'_>, fetch: &mut F, args: &SampleArgs, quad: &Quad) -> QuadResult {
    let running = quad.running();
    let view = ctx.view;
    let smp = ctx.smp;
    let tex = &view.texture;
    let bytes = tex.bytes();
    let dims = match view.kind {
        TextureKind::D1 | TextureKind::D1Array => 1,
        TextureKind::D3 => 3,
        _ => 2,
    };
    // Scalar per lane: derivatives, coordinates and the level choice.
    let pos: [[f32; 3]; 4] = quad.coords.map(|c| [c[0], c[1], c[2]]);
    let derivs = match args.lod {
        Lod::Grad { ddx, ddy } => [0, 1, 2, 3].map(|l| (ddx[l], ddy[l])),
        Lod::Implicit | Lod::Bias(_) => {
            quad_derivatives(&pos, args.derivatives.unwrap_or(ctx.profile.derivatives))
        }
        Lod::Base | Lod::Level(_) => [([0.0; 3], [0.0; 3]); 4],
    };
    let partial_override = match args.lod {
        Lod::Implicit | Lod::Bias(_) if running != 0xf && !args.ndv => {
            match ctx.profile.partial_quad {
                crate::profile::PartialQuad::Zero => Some(f32::NEG_INFINITY),
                crate::profile::PartialQuad::Infinity => Some(f32::INFINITY),
                crate::profile::PartialQuad::Undefined => None,
            }
        }
        _ => None,
    };
    let mut lcs = [None::<LaneCoords>; 4];
    let mut sels = [None::<Selection>; 4];
    for lane in 0..4 {
        if running & (1 << lane) == 0 {
            continue;
        }
        let (ddx, ddy) = derivs[lane];
        let lc = ctx.plain_coords(quad.coords[lane], ddx, ddy);
        let (shader_lambda, bias) = match args.lod {
            Lod::Implicit | Lod::Grad { .. } => (None, 0.0),
            Lod::Bias(b) => (None, b[lane]),
            Lod::Base => (Some(0.0), 0.0),
            Lod::Level(l) => (Some(l[lane]), 0.0),
        };
        sels[lane] = Some(ctx.select(&lc, shader_lambda.or(partial_override), bias));
        lcs[lane] = Some(lc);
    }
    let st: [F4; 3] = [0, 1, 2].map(|k| f4([0, 1, 2, 3].map(|l| lcs[l].map_or(0.0, |c| c.st[k]))));
    let linear = f4([0, 1, 2, 3].map(|l| {
        if sels[l].is_some_and(|s| s.filter == Filter::Linear) {
            1.0
        } else {
            0.0
        }
    }))
    .simd_eq(F4::ONE);
    let mut total = [F4::splat(-0.0); 4];
    for pass in 0..2 {
        let wl = f4([0, 1, 2, 3].map(|l| sels[l].map_or(0.0, |s| s.levels[pass].1)));
        if wl.simd_eq(F4::ZERO).all() {
            continue;
        }
        let level = [0, 1, 2, 3].map(|l| sels[l].map_or(0, |s| s.levels[pass].0));
        let ldims = level.map(|lv| ctx.level_dims(lv));
        let subs: [Option<&Subresource>; 4] = [0, 1, 2, 3].map(|l| {
            let lc = lcs[l]?;
            tex.subresource(view.base_level + level[l], lc.layer, 0)
        });
        // Per axis, on all lanes: u, the first index and the weights.
        let mut i0 = [[0i64; 4]; 3];
        let mut wts = [[F4::ONE, F4::ZERO]; 3];
        for k in 0..dims {
            let size = f4(ldims.map(|d| d[k] as f32));
            let mut u = if smp.unnormalized {
                st[k]
            } else {
                st[k] * size
            };
            u += F4::splat(args.offset[k] as f32);
            if smp.address[k] == AddressMode::ClampOgl {
                u = u.is_nan().select(F4::ZERO, u).max(F4::ZERO).min(size);
            }
            let x = linear.select(u - F4::splat(0.5), u);
            let a = linear.select(quantize(frac(x), ctx), F4::ZERO);
            wts[k] = [F4::ONE - a, a];
            let xa = arr(x);
            let ua = arr(u);
            for l in 0..4 {
                let nearest_ogl_edge = smp.address[k] == AddressMode::ClampOgl
                    && !sels[l].is_some_and(|s| s.filter == Filter::Linear)
                    && ua[l] >= ldims[l][k] as f32;
                i0[k][l] = if nearest_ogl_edge {
                    ldims[l][k] - 1
                } else {
                    floor_index(xa[l])
                };
            }
        }
        let taps = [0, 1, 2].map(|k| if k < dims { 2 } else { 1 });
        let mut acc = [F4::splat(-0.0); 4];
        for kz in 0..taps[2] {
            for ky in 0..taps[1] {
                for kx in 0..taps[0] {
                    let w = wts[0][kx] * wts[1][ky] * wts[2][kz];
                    let live = w.simd_ne(F4::ZERO);
                    if !live.any() {
                        continue;
                    }
                    let wa = arr(w);
                    let mut v = [[0.0f32; 4]; 4];
                    for l in 0..4 {
                        let Some(sub) = subs[l] else { continue };
                        if wa[l] == 0.0 {
                            continue;
                        }
                        let idx = [
                            i0[0][l] + kx as i64,
                            i0[1][l] + ky as i64,
                            i0[2][l] + kz as i64,
                        ];
                        let mut xyz = [0u32; 3];
                        let mut border = false;
                        for k in 0..dims {
                            match wrap(idx[k], ldims[l][k], smp.address[k]) {
                                Some(i) => xyz[k] = i as u32,
                                None => border = true,
                            }
                        }
                        v[l] = if border {
                            border_texel(ctx)
                        } else {
                            fetch.fetch(bytes, sub, xyz[0], xyz[1], xyz[2])
                        };
                    }
                    let [r, g, b, a] = F4::transpose(v.map(f4));
                    let ch = [r, g, b, a];
                    for c in 0..4 {
                        acc[c] = live.select(acc[c] + w * ch[c], acc[c]);
                    }
                }
            }
        }
        let used = wl.simd_ne(F4::ZERO);
        for c in 0..4 {
            total[c] = used.select(total[c] + wl * acc[c], total[c]);
        }
    }
    let [r, g, b, a] = total.map(arr);
    let mut out = QuadResult::EMPTY;
    for lane in 0..4 {
        if running & (1 << lane) == 0 {
            continue;
        }
        out.texels[lane] = Some(ctx.swizzle(Texel::Float([r[lane], g[lane], b[lane], a[lane]])));
        out.resident[lane] = true;
    }
    out
}

/// Bilinear weight quantisation, lane-wise as `Profile::quantize`.
#[inline(always)]
fn quantize(f: F4, ctx: &Ctx<'_>) -> F4 {
    match ctx.profile.weight_frac_bits {
        None => f,
        Some(b) => {
            let s = F4::splat((1u32 << b) as f32);
            let q = match ctx.profile.frac_round {
                crate::profile::FracRound::Truncate => (f * s).floor(),
                crate::profile::FracRound::Rne => (f * s).round_ties_even(),
            };
            q / s
        }
    }
}

/// The border texel of a float-sampled format: only the format's
/// components take the border colour, the rest read (0, 0, 0, 1).
fn border_texel(ctx: &Ctx<'_>) -> [f32; 4] {
    ctx.border_f32()
}

#[allow(dead_code)]
fn _aspect() -> Aspect {
    Aspect::Color
}
