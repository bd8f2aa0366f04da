//! Quad SIMD kernels for `sample` on the common family: 1D, 2D, 3D and
//! their arrays, float-sampled formats, nearest / bilinear / trilinear and
//! anisotropic, every address mode and LOD form, normalized or
//! unnormalized coordinates; and full cube quads that stay on one face
//! without crossing an edge. Seamless cube edges and corners, depth
//! compare, min/max reduction, sparse textures and integer formats take
//! the scalar reference path.
//!
//! A kernel call is monomorphised per texel decoder (`texels::Fetch`), so the
//! format is decided once per call, never per texel. Lane work that is a
//! handful of scalar operations (the LOD and level choice, shared with the
//! reference through `Ctx::select`, and the texel loads) stays scalar; on
//! full 2D quads (`lean2d`) the indices, wrapping and tiled offsets run on
//! all four lanes in `I4`, and everywhere the coordinates, filter weights
//! and weighted sums run on all four lanes in `F4`. The operations and their order mirror
//! `reference.rs` exactly, so the results are bit-identical (the twin tests
//! in `tests/kernel_twin.rs` check it on random and edge quads).

use quadtex_format::{SampleType, Subresource, Texel, TextureKind};

use crate::header::{AddressMode, Filter, ReductionMode};
use crate::quad::{Quad, QuadResult, SampleArgs};
use crate::reference::{floor_index, lane_derivatives, lane_lod, wrap, Ctx, LaneCoords, Selection};
use crate::simd::{arr, f4, frac, F4};
use crate::texels::{Decoder, Fetch};

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
        // Integer filtering is the reference's and the planar kernel's.
        && !ctx.int_filter
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
        Decoder::Depth(d) => run(ctx, d, args, quad),
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
            let s = F4::splat(crate::profile::frac_scale(b));
            let q = match ctx.profile.frac_round {
                crate::profile::FracRound::Truncate => (f * s).floor(),
                crate::profile::FracRound::Rne => (f * s).round_ties_even(),
            };
            q / s
        }
    }
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
