//! Quad SIMD kernels for `sample` on the common family: 1D, 2D, 3D and
//! their arrays, float-sampled formats, nearest / bilinear / trilinear and
//! anisotropic, every address mode and LOD form, normalized or
//! unnormalized coordinates; and full cube quads that stay on one face
//! without crossing an edge. Seamless cube edges and corners, depth
//! compare, min/max reduction, sparse textures and integer formats take
//! the scalar reference path.
//!
//! A kernel call is monomorphised per texel decoder ([`Fetch`]), so the
//! format is decided once per call, never per texel. Lane work that is a
//! handful of scalar operations (the LOD and level choice, shared with the
//! reference through `Ctx::select`, and the texel loads) stays scalar; on
//! full 2D quads (`lean2d`) the indices, wrapping and tiled offsets run on
//! all four lanes in `I4`, and everywhere the coordinates, filter weights
//! and weighted sums run on all four lanes in `F4`. The operations and their order mirror
//! `reference.rs` exactly, so the results are bit-identical (the twin tests
//! in `tests/kernel_twin.rs` check it on random and edge quads).

use quadtex_format::format::{ChannelKind, ChannelOrder, FormatLayout};
use quadtex_format::texel;
use quadtex_format::{compressed, SampleType, Subresource, Texel, TextureFormat, TextureKind};

use crate::header::{AddressMode, Filter, ReductionMode};
use crate::quad::{Quad, QuadResult, SampleArgs};
use crate::reference::{floor_index, lane_derivatives, lane_lod, wrap, Ctx, LaneCoords, Selection};
use crate::simd::{arr, f4, frac, F4, I4};

/// Reads one texel as `[f32; 4]` (decoded, sRGB to linear, missing
/// components (0, 0, 0, 1)).
pub(crate) trait Fetch {
    /// Texel `(tx, ty)` of the block at byte `off` of the texture's bytes
    /// (`(0, 0)` for uncompressed formats, whose blocks are texels). The
    /// caller keeps `off` inside the texture.
    fn texel(&mut self, bytes: &[u8], off: usize, tx: u32, ty: u32) -> [f32; 4];
}

/// 8-bit RGBA/BGRA UNORM or sRGB through the format crate's exact lookup
/// tables.
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
    fn texel(&mut self, bytes: &[u8], o: usize, _: u32, _: u32) -> [f32; 4] {
        let p: [u8; 4] = bytes[o..o + 4].try_into().unwrap_or([0; 4]);
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
    fn texel(&mut self, bytes: &[u8], o: usize, _: u32, _: u32) -> [f32; 4] {
        let p: [u8; 8] = bytes[o..o + 8].try_into().unwrap_or([0; 8]);
        let h = |i: usize| half::f16::from_bits(u16::from_le_bytes([p[i], p[i + 1]])).to_f32();
        [h(0), h(2), h(4), h(6)]
    }
}

/// 32-bit float R (bit-exact).
pub(crate) struct R32F;

impl Fetch for R32F {
    #[inline(always)]
    fn texel(&mut self, bytes: &[u8], o: usize, _: u32, _: u32) -> [f32; 4] {
        let p: [u8; 4] = bytes[o..o + 4].try_into().unwrap_or([0; 4]);
        [f32::from_le_bytes(p), 0.0, 0.0, 1.0]
    }
}

/// Any other uncompressed float-sampled format, through the format crate's
/// decoder (a layout match per texel, but right for all).
pub(crate) struct AnyUncompressed(TextureFormat);

impl Fetch for AnyUncompressed {
    fn texel(&mut self, bytes: &[u8], o: usize, _: u32, _: u32) -> [f32; 4] {
        let n = self.0.block_bytes() as usize;
        texel::decode(self.0, self.0.default_aspect(), &bytes[o..o + n])
            .map(Texel::to_f32)
            .unwrap_or([0.0; 4])
    }
}

/// Block-compressed formats: a direct-mapped cache of decoded blocks that
/// lives as long as the `QuadSampler`, so neighbouring texels and
/// neighbouring quads decode each block once. Keys are block byte offsets,
/// unique within the (immutable) texture.
pub(crate) struct Blocks {
    format: TextureFormat,
    bw: u32,
    /// Texels per block.
    n: usize,
    keys: Vec<usize>,
    /// `BLOCK_SLOTS` decoded blocks of `n` texels each, allocated on the
    /// first fetch (a `QuadSampler` that never reads stays allocation-free).
    texels: Vec<[f32; 4]>,
}

/// Cache slots (a power of two): 64 BC blocks are 16 KiB of decoded texels.
const BLOCK_SLOTS: usize = 64;

impl Blocks {
    fn new(format: TextureFormat) -> Blocks {
        let (bw, bh) = format.block_extent();
        Blocks {
            format,
            bw,
            n: (bw * bh) as usize,
            keys: Vec::new(),
            texels: Vec::new(),
        }
    }
}

impl Fetch for Blocks {
    fn texel(&mut self, bytes: &[u8], o: usize, tx: u32, ty: u32) -> [f32; 4] {
        if self.keys.is_empty() {
            self.keys = vec![usize::MAX; BLOCK_SLOTS];
            self.texels = vec![[0.0; 4]; BLOCK_SLOTS * self.n];
        }
        let bb = self.format.block_bytes() as usize;
        let slot = (o / bb) & (BLOCK_SLOTS - 1);
        let cached = &mut self.texels[slot * self.n..(slot + 1) * self.n];
        if self.keys[slot] != o {
            let ok = bytes
                .get(o..o + bb)
                .is_some_and(|blk| compressed::decode_block(self.format, blk, cached).is_ok());
            if !ok {
                cached.fill([0.0; 4]);
            }
            self.keys[slot] = o;
        }
        cached
            .get((ty * self.bw + tx) as usize)
            .copied()
            .unwrap_or([0.0; 4])
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
    if running == 0xf && dims == 2 && !smp.unnormalized {
        if let Some(r) = full2d(ctx, fetch, args, quad) {
            return r;
        }
    }
    // Scalar per lane: derivatives, coordinates and the level choice.
    let (derivs, partial_override) = lane_derivatives(ctx.profile, args, quad);
    let mut lcs = [None::<LaneCoords>; 4];
    let mut sels = [None::<Selection>; 4];
    let mut last = None;
    for lane in 0..4 {
        if running & (1 << lane) == 0 {
            continue;
        }
        let (ddx, ddy) = derivs[lane];
        let lc = ctx.plain_coords(quad.coords[lane], ddx, ddy);
        let (shader_lambda, bias) = lane_lod(args, lane, partial_override);
        // Lanes with the same footprint and LOD inputs (every lane, with
        // coarse derivatives) share one selection: the same inputs give
        // the same bits.
        let key = (
            ddx.map(f32::to_bits),
            ddy.map(f32::to_bits),
            shader_lambda.map(f32::to_bits),
            bias.to_bits(),
        );
        let sel = match last {
            Some((k, s)) if k == key => s,
            _ => ctx.select(&lc, shader_lambda, bias),
        };
        last = Some((key, sel));
        sels[lane] = Some(sel);
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
        // Anisotropic taps (one when isotropic): tap i of a lane with N
        // taps sits at st + ((i + 1) / (N + 1) - 1/2) * axis and weighs
        // w / N, as the reference computes it.
        let taps_l = [0, 1, 2, 3].map(|l| sels[l].map_or(1, |s| s.aniso.taps));
        let max_taps = taps_l.iter().copied().max().unwrap_or(1);
        for tap in 0..max_taps {
            let mut st = st;
            if max_taps > 1 {
                let mut cols = st.map(arr);
                for l in 0..4 {
                    let n = taps_l[l];
                    if n > 1 && tap < n {
                        let f = (tap + 1) as f32 / (n + 1) as f32 - 0.5;
                        let axis = sels[l].map_or([0.0; 3], |s| s.aniso.axis);
                        for k in 0..3 {
                            cols[k][l] += f * axis[k];
                        }
                    }
                }
                st = cols.map(f4);
            }
            let wl_l = arr(wl);
            let tw = f4([0, 1, 2, 3].map(|l| {
                if tap < taps_l[l] {
                    wl_l[l] / taps_l[l] as f32
                } else {
                    0.0
                }
            }));
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
            // Per lane and axis, both wrapped indices as their share of the
            // block offset (tiled addresses are separable), or a border flag.
            let (bw, bh) = ctx.format.block_extent();
            let bsplit = [BlockSplit::new(bw), BlockSplit::new(bh)];
            let mut parts = [[[0usize; 2]; 3]; 4];
            let mut inner = [[[0u32; 2]; 2]; 4];
            let mut border = [[[false; 2]; 3]; 4];
            for l in 0..4 {
                let Some(sub) = subs[l] else { continue };
                for k in 0..dims {
                    for t in 0..taps[k] {
                        match wrap(i0[k][l] + t as i64, ldims[l][k], smp.address[k]) {
                            None => border[l][k][t] = true,
                            Some(i) => {
                                let i = i as u32;
                                parts[l][k][t] = match k {
                                    0 => {
                                        inner[l][0][t] = bsplit[0].rem(i);
                                        sub.x_blocks(bsplit[0].div(i))
                                    }
                                    1 => {
                                        inner[l][1][t] = bsplit[1].rem(i);
                                        sub.yz_blocks(bsplit[1].div(i), 0)
                                    }
                                    _ => sub.yz_blocks(0, i) - sub.yz_blocks(0, 0),
                                };
                            }
                        }
                    }
                }
            }
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
                            let b = &border[l];
                            v[l] = if b[0][kx] || b[1][ky] || b[2][kz] {
                                ctx.border_f32()
                            } else {
                                let p = &parts[l];
                                let blk = p[0][kx] + p[1][ky] + p[2][kz];
                                let off = sub.offset + blk * sub.block_bytes as usize;
                                fetch.texel(bytes, off, inner[l][0][kx], inner[l][1][ky])
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

            let used = tw.simd_ne(F4::ZERO);
            for c in 0..4 {
                total[c] = used.select(total[c] + tw * acc[c], total[c]);
            }
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

/// The common case without per-lane generality: a full 2D (or 2D-array)
/// quad whose lanes read the same level(s) of one layer, isotropic, with
/// normalized coordinates, `repeat` on power-of-two levels or
/// `clamp_to_edge`, power-of-two blocks, and coordinates within +-2^24
/// texels (where `floor_index` is the plain f32 floor). Indices, wrapping,
/// the block split and the separable tiled offsets are `I4` arithmetic;
/// only the texel loads are per lane. The same operations as `run` in the
/// same order, so the same bits; `None` hands the quad back to `run`.
#[inline(always)]
fn lean2d<F: Fetch>(
    ctx: &Ctx<'_>,
    fetch: &mut F,
    args: &SampleArgs,
    lc: &[LaneCoords; 4],
    sel: &[Selection; 4],
    cube: bool,
) -> Option<QuadResult> {
    let smp = ctx.smp;
    let view = ctx.view;
    let layer = lc[0].layer;
    if lc.iter().any(|c| c.layer != layer) || sel.iter().any(|x| x.aniso.taps != 1) {
        return None;
    }
    let (bw, bh) = ctx.format.block_extent();
    if !bw.is_power_of_two() || !bh.is_power_of_two() {
        return None;
    }
    let bshift = [bw.trailing_zeros(), bh.trailing_zeros()];
    let tex = &view.texture;
    let bytes = tex.bytes();
    let s = f4([lc[0].st[0], lc[1].st[0], lc[2].st[0], lc[3].st[0]]);
    let t = f4([lc[0].st[1], lc[1].st[1], lc[2].st[1], lc[3].st[1]]);
    let linear = f4([
        lin_of(&sel[0]),
        lin_of(&sel[1]),
        lin_of(&sel[2]),
        lin_of(&sel[3]),
    ])
    .simd_eq(F4::ONE);
    let mut total = [F4::splat(-0.0); 4];
    for pass in 0..2 {
        let wl = f4([
            sel[0].levels[pass].1,
            sel[1].levels[pass].1,
            sel[2].levels[pass].1,
            sel[3].levels[pass].1,
        ]);
        let used = wl.simd_ne(F4::ZERO);
        if !used.any() {
            continue;
        }
        let level = sel[0].levels[pass].0;
        if sel
            .iter()
            .any(|x| x.levels[pass].0 != level && x.levels[pass].1 != 0.0)
        {
            return None;
        }
        let sub = tex.subresource(view.base_level + level, layer, 0)?;
        let size = [sub.extent.width as i32, sub.extent.height as i32];
        let (tw, th) = (sub.tile_w_log2, sub.tile_h_log2);
        let common = tw.min(th);
        let mut wts = [[F4::ONE, F4::ZERO]; 2];
        // Block-index shares of the two indices on each axis, and the
        // texel's position inside its block.
        let mut part = [[I4::ZERO; 2]; 2];
        let mut inner = [[I4::ZERO; 2]; 2];
        for (k, st) in [s, t].into_iter().enumerate() {
            let mut u = st * F4::splat(size[k] as f32);
            if !cube {
                u += F4::splat(args.offset[k] as f32);
            }
            let x = linear.select(u - F4::splat(0.5), u);
            let a = linear.select(quantize(frac(x), ctx), F4::ZERO);
            wts[k] = [F4::ONE - a, a];
            let fl = x.floor();
            // NaN and out-of-range lanes fail the comparison.
            if !fl.abs().simd_lt(F4::splat(16_777_216.0)).all() {
                return None;
            }
            let i0 = fl.trunc_int();
            let n = size[k];
            // Seamless cubes: nearest reads clamp to the face; a linear
            // footprint crossing an edge needs the neighbour face (the
            // reference path).
            let seamless = cube && smp.seamless_cube;
            if seamless {
                let lin_i = i0.to_array();
                let lin_l = arr(linear.select(F4::ONE, F4::ZERO));
                if (0..4).any(|l| lin_l[l] != 0.0 && (lin_i[l] < 0 || lin_i[l] + 1 > n - 1)) {
                    return None;
                }
            }
            let mode = if seamless {
                AddressMode::ClampToEdge
            } else {
                smp.address[k]
            };
            for (tap, i) in [i0, i0 + I4::splat(1)].into_iter().enumerate() {
                let w = match mode {
                    AddressMode::Repeat if n & (n - 1) == 0 => i & I4::splat(n - 1),
                    AddressMode::ClampToEdge => i.max(I4::ZERO).min(I4::splat(n - 1)),
                    _ => return None,
                };
                inner[k][tap] = w & I4::splat((1 << bshift[k]) - 1);
                let w = w >> bshift[k];
                part[k][tap] = if k == 0 {
                    let inner = w & I4::splat((1 << tw) - 1);
                    let low = part1by1(inner & I4::splat((1 << common) - 1));
                    let high = (inner >> common) << (2 * common);
                    ((w >> tw) << (tw + th)) + (low | high)
                } else {
                    let inner = w & I4::splat((1 << th) - 1);
                    let low = part1by1(inner & I4::splat((1 << common) - 1)) << 1;
                    let high = (inner >> common) << (2 * common);
                    (((w >> th) * I4::splat(sub.tiles_x as i32)) << (tw + th)) + (low | high)
                };
            }
        }
        let bb = sub.block_bytes as usize;
        let mut acc = [F4::splat(-0.0); 4];
        for ky in 0..2 {
            for kx in 0..2 {
                let w = wts[0][kx] * wts[1][ky];
                let live = w.simd_ne(F4::ZERO);
                if !live.any() {
                    continue;
                }
                let blk = (part[0][kx] + part[1][ky]).to_array();
                let (tx, ty) = (inner[0][kx].to_array(), inner[1][ky].to_array());
                let o = |l: usize| sub.offset + blk[l] as usize * bb;
                let v0 = fetch.texel(bytes, o(0), tx[0] as u32, ty[0] as u32);
                let v1 = fetch.texel(bytes, o(1), tx[1] as u32, ty[1] as u32);
                let v2 = fetch.texel(bytes, o(2), tx[2] as u32, ty[2] as u32);
                let v3 = fetch.texel(bytes, o(3), tx[3] as u32, ty[3] as u32);
                let [r, g, b, a] = F4::transpose([f4(v0), f4(v1), f4(v2), f4(v3)]);
                acc[0] = live.select(acc[0] + w * r, acc[0]);
                acc[1] = live.select(acc[1] + w * g, acc[1]);
                acc[2] = live.select(acc[2] + w * b, acc[2]);
                acc[3] = live.select(acc[3] + w * a, acc[3]);
            }
        }
        for c in 0..4 {
            total[c] = used.select(total[c] + wl * acc[c], total[c]);
        }
    }
    let [r, g, b, a] = [arr(total[0]), arr(total[1]), arr(total[2]), arr(total[3])];
    let mut out = QuadResult::EMPTY;
    for lane in 0..4 {
        out.texels[lane] = Some(ctx.swizzle(Texel::Float([r[lane], g[lane], b[lane], a[lane]])));
        out.resident[lane] = true;
    }
    Some(out)
}

/// Spreads the low 4 bits of each lane to the even bit positions (the
/// Morton interleave of `quadtex_format::Subresource::x_blocks`).
#[inline(always)]
fn part1by1(v: I4) -> I4 {
    let v = (v | (v << 2)) & I4::splat(0x33);
    (v | (v << 1)) & I4::splat(0x55)
}

#[inline(always)]
fn lin_of(s: &Selection) -> f32 {
    if s.filter == Filter::Linear {
        1.0
    } else {
        0.0
    }
}

/// A full 2D quad: the per-lane setup without optional lanes (no `Option`
/// arrays to fill and copy), then `lean2d`.
#[inline(always)]
fn full2d<F: Fetch>(
    ctx: &Ctx<'_>,
    fetch: &mut F,
    args: &SampleArgs,
    quad: &Quad,
) -> Option<QuadResult> {
    let c = &quad.coords;
    // A full quad: no partial-quad override.
    let (derivs, _) = lane_derivatives(ctx.profile, args, quad);
    let lane = |l: usize| -> (LaneCoords, Option<f32>, f32) {
        let (ddx, ddy) = derivs[l];
        let lc = ctx.plain_coords(c[l], ddx, ddy);
        let (sl, b) = lane_lod(args, l, None);
        (lc, sl, b)
    };
    let (l0, sl0, b0) = lane(0);
    let (l1, sl1, b1) = lane(1);
    let (l2, sl2, b2) = lane(2);
    let (l3, sl3, b3) = lane(3);
    let s0 = ctx.select(&l0, sl0, b0);
    // Lanes with the same LOD inputs as lane 0 (all of them with coarse
    // derivatives) share its selection: same inputs, same bits.
    let same = |l: usize, sl: Option<f32>, b: f32| {
        derivs[l].0.map(f32::to_bits) == derivs[0].0.map(f32::to_bits)
            && derivs[l].1.map(f32::to_bits) == derivs[0].1.map(f32::to_bits)
            && sl.map(f32::to_bits) == sl0.map(f32::to_bits)
            && b.to_bits() == b0.to_bits()
    };
    let s1 = if same(1, sl1, b1) {
        s0
    } else {
        ctx.select(&l1, sl1, b1)
    };
    let s2 = if same(2, sl2, b2) {
        s0
    } else {
        ctx.select(&l2, sl2, b2)
    };
    let s3 = if same(3, sl3, b3) {
        s0
    } else {
        ctx.select(&l3, sl3, b3)
    };
    let lc = [l0, l1, l2, l3];
    let sel = [s0, s1, s2, s3];
    lean2d(ctx, fetch, args, &lc, &sel, false)
}

/// Splits a texel index into (block, texel within block) without a
/// division when the block extent is a power of two (always, except some
/// ASTC sizes).
#[derive(Clone, Copy)]
struct BlockSplit {
    dim: u32,
    shift: Option<u32>,
}

impl BlockSplit {
    #[inline(always)]
    fn new(dim: u32) -> BlockSplit {
        BlockSplit {
            dim,
            shift: dim.is_power_of_two().then(|| dim.trailing_zeros()),
        }
    }

    #[inline(always)]
    fn div(self, i: u32) -> u32 {
        match self.shift {
            Some(s) => i >> s,
            None => i / self.dim,
        }
    }

    #[inline(always)]
    fn rem(self, i: u32) -> u32 {
        match self.shift {
            Some(_) => i & (self.dim - 1),
            None => i % self.dim,
        }
    }
}

/// Whether a cube view can try [`sample_cube`].
pub(crate) fn handles_cube(ctx: &Ctx<'_>, args: &SampleArgs) -> bool {
    let smp = ctx.smp;
    ctx.view.kind.is_cube()
        && ctx.ty == SampleType::Float
        && smp.compare.is_none()
        && args.dref.is_none()
        && smp.reduction == ReductionMode::WeightedAverage
        && ctx.view.texture.residency().is_none()
        && !ctx.format.has_depth()
        && !ctx.format.has_stencil()
}

/// A full cube quad whose lanes stay on one face (layer) and whose linear
/// footprints do not cross an edge: face projection and the derivative
/// transform per lane (shared with the reference), then `lean2d` on the
/// face. `None` sends the quad to the reference (edges, corners,
/// anisotropy, partial quads).
pub(crate) fn sample_cube(
    ctx: &Ctx<'_>,
    decoder: &mut Decoder,
    args: &SampleArgs,
    quad: &Quad,
) -> Option<QuadResult> {
    if quad.running() != 0xf {
        return None;
    }
    let c = &quad.coords;
    let (derivs, _) = lane_derivatives(ctx.profile, args, quad);
    let lane = |l: usize| {
        let (ddx, ddy) = derivs[l];
        let mut lc = ctx.cube_coords(c[l], ddx, ddy);
        let (sl, b) = lane_lod(args, l, None);
        let sel = ctx.select(&lc, sl, b);
        // The face's layer, so that the 2D path reads the right face.
        lc.layer += lc.face;
        lc.face = 0;
        (lc, sel)
    };
    let (l0, s0) = lane(0);
    let (l1, s1) = lane(1);
    let (l2, s2) = lane(2);
    let (l3, s3) = lane(3);
    let (lc, sel) = ([l0, l1, l2, l3], [s0, s1, s2, s3]);
    match decoder {
        Decoder::Rgba8(d) => lean2d(ctx, d, args, &lc, &sel, true),
        Decoder::Rgba16F(d) => lean2d(ctx, d, args, &lc, &sel, true),
        Decoder::R32F(d) => lean2d(ctx, d, args, &lc, &sel, true),
        Decoder::Blocks(d) => lean2d(ctx, d, args, &lc, &sel, true),
        Decoder::Any(d) => lean2d(ctx, d, args, &lc, &sel, true),
    }
}
