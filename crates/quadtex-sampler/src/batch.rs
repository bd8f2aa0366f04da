//! Batched SIMD kernels: whole quads across one wide register. `w4` runs
//! one quad on 4 lanes (`f32x4`), `w8` two quads on 8 lanes (`f32x8`:
//! AVX2), `w16` four quads on 16 lanes (`f32x16`: AVX-512 when the build
//! targets it, two AVX2 halves otherwise). [`crate::QuadSampler::sample_quads`]
//! uses the widest one the build's target features make native.
//!
//! The family they cover is the common one: full quads on 2D and 2D-array
//! views (and cube quads that stay on one face, which join at the filter
//! stage after their per-lane face projection), float-sampled formats,
//! isotropic nearest / bilinear / trilinear, every LOD form, `repeat` on
//! power-of-two levels and `clamp_to_edge`. Everything runs on all lanes at
//! once: derivatives, lambda (with the reference's own [`log2`]), bias and
//! clamps, the level choice, filter weights, wrapping, the Morton-tiled
//! addresses, RGBA8 decode and the weighted sums. Only the texel loads are
//! per lane. Anything else (anisotropy, other address modes, lanes that
//! disagree on a level or layer, coordinates beyond 2^24 texels) returns
//! `None`/`false` and the caller takes the per-quad kernel in `kernel.rs`.
//!
//! The operations and their order are `reference.rs`'s, so the results are
//! the reference's bits; `tests` below and `tests/kernel_twin.rs` check it
//! at every width.
//!
//! [`log2`]: crate::reference::log2

use quadtex_format::{Texel, TextureKind};

use crate::header::{AddressMode, Filter, MipmapMode, Swizzle};
use crate::profile::{Derivatives, FracRound, MipNearest};
use crate::quad::{Lod, Quad, QuadResult, SampleArgs};
use crate::reference::{
    select_layer, Ctx, LOG2_C3, LOG2_C5, LOG2_C7, LOG2_C9, LOG2_DENORMAL_SCALE,
};
use crate::simd::F4;
use crate::texels::Fetch;

/// Whether a view and call belong to the batched family at all (the
/// per-batch checks come later): 2D, 2D-array, cube or cube-array views
/// with normalized coordinates. The caller has checked `kernel::handles`
/// or `kernel::handles_cube`.
pub(crate) fn handles(ctx: &Ctx<'_>) -> bool {
    matches!(
        ctx.view.kind,
        TextureKind::D2 | TextureKind::D2Array | TextureKind::Cube | TextureKind::CubeArray
    ) && !ctx.smp.unnormalized
}

/// Whether a `sample` call can try the batched kernels (the per-batch
/// checks come later): 2D, 2D-array, cube or cube-array views of
/// float-sampled formats with normalized coordinates, weighted-average
/// reduction, no residency map; colour formats, or depth formats when the
/// call compares (`dref`), since a depth texel is compared before any
/// filtering.
pub(crate) fn eligible(ctx: &Ctx<'_>, args: &SampleArgs) -> bool {
    let f = ctx.format;
    handles(ctx)
        && ctx.ty == quadtex_format::SampleType::Float
        && ctx.smp.reduction == crate::header::ReductionMode::WeightedAverage
        && ctx.view.texture.residency().is_none()
        && !f.has_stencil()
        && (!f.has_depth() || args.dref.is_some())
        // Integer filtering is the reference's and the planar kernel's.
        && !(ctx.int_filter && args.dref.is_none())
}

/// 1.0 for a linear filter, 0.0 for nearest.
#[inline(always)]
fn lin(f: Filter) -> f32 {
    if f == Filter::Linear {
        1.0
    } else {
        0.0
    }
}

/// Writes lane results into quads' results: lane `4q + l` is lane `l` of
/// quad `q`.
#[inline(always)]
pub(crate) fn write_out<const N: usize>(
    ctx: &Ctx<'_>,
    rgba: [[f32; N]; 4],
    compare: bool,
    out: &mut [QuadResult],
) {
    let [r, g, b, a] = if compare {
        [rgba[0], [0.0; N], [0.0; N], [1.0; N]]
    } else {
        rgba
    };
    for (q, o) in out.iter_mut().enumerate() {
        for l in 0..4 {
            let i = 4 * q + l;
            let t = Texel::Float([r[i], g[i], b[i], a[i]]);
            // Plain stores: no call between writing a lane and reading it
            // back (an identity swizzle is the common case).
            o.texels[l] = Some(if ctx.identity_swizzle || compare {
                t
            } else {
                ctx.swizzle(t)
            });
        }
        o.resident = [true; 4];
    }
}

/// Writes lane results as per-quad, lane-major RGBA: the view's swizzle
/// on whole channels, then a 4x4 transpose per quad.
#[inline(always)]
pub(crate) fn write_rgba<const N: usize>(
    ctx: &Ctx<'_>,
    rgba: [[f32; N]; 4],
    compare: bool,
    out: &mut [[[f32; 4]; 4]],
) {
    // Compare results are (r, 0, 0, 1), not swizzled (`Ctx::sample_lane`).
    let ch = if compare {
        [rgba[0], [0.0; N], [0.0; N], [1.0; N]]
    } else if ctx.identity_swizzle {
        rgba
    } else {
        ctx.view.swizzle.map(|s| match s {
            Swizzle::R => rgba[0],
            Swizzle::G => rgba[1],
            Swizzle::B => rgba[2],
            Swizzle::A => rgba[3],
            Swizzle::Zero => [0.0; N],
            Swizzle::One => [1.0; N],
        })
    };
    for (q, o) in out.iter_mut().enumerate() {
        let lanes = |c: usize| {
            let v = &ch[c][4 * q..4 * q + 4];
            F4::new([v[0], v[1], v[2], v[3]])
        };
        let t = F4::transpose([lanes(0), lanes(1), lanes(2), lanes(3)]);
        *o = t.map(|v| v.to_array());
    }
}

macro_rules! batch_kernel {
    ($(#[$meta:meta])* $m:ident, $F:ident, $I:ident, $N:literal) => {
        $(#[$meta])*
        pub(crate) mod $m {
            use super::*;

            type F = crate::simd::$F;
            type I = crate::simd::$I;
            /// Lanes per register.
            pub(crate) const N: usize = $N;
            /// Quads per register.
            pub(crate) const Q: usize = N / 4;

            /// Per lane, what the filter stage needs: coordinates, the
            /// linear-filter mask and the (at most two) levels, each read by
            /// every lane that weighs it, with per-lane weights.
            pub(crate) struct Sel {
                pub(crate) s: F,
                pub(crate) t: F,
                pub(crate) layer: u32,
                pub(crate) linear: F,
                pub(crate) levels: [(u32, F); 2],
                /// Anisotropic taps per lane (1: isotropic).
                pub(crate) taps: I,
                /// The taps' axis in (s, t) per lane.
                pub(crate) axis: [F; 2],
                /// The depth reference per lane (clamped for UNORM depth):
                /// texels are compared before filtering.
                pub(crate) dref: Option<F>,
            }

            /// A 2x2 footprint on every lane: per axis the two weights, and
            /// for both indices their share of the block offset and the
            /// texel's position inside its block.
            #[derive(Clone, Copy)]
            struct Footprint {
                wts: [[F; 2]; 2],
                part: [[I; 2]; 2],
                inner: [[I; 2]; 2],
            }

            /// `reference::log2` on every lane, operation for operation.
            #[inline(always)]
            pub(crate) fn log2(x: F) -> F {
                let denormal = x.simd_lt(F::splat(f32::MIN_POSITIVE));
                let xs = denormal.select(x * F::splat(LOG2_DENORMAL_SCALE), x);
                let bits: I = bytemuck::cast(xs);
                let adj: I = bytemuck::cast(denormal);
                // `adj` is -1 on denormal lanes.
                let e = (bits >> 23) - I::splat(127) + adj * I::splat(23);
                let m: F = bytemuck::cast((bits & I::splat(0x007f_ffff)) | I::splat(0x3f80_0000));
                let big = m.simd_gt(F::splat(std::f32::consts::SQRT_2));
                let m = big.select(m * F::splat(0.5), m);
                let e: I = e - bytemuck::cast::<F, I>(big);
                let f = m - F::ONE;
                let s = f / (F::splat(2.0) + f);
                let z = s * s;
                let p = (((z * F::splat(LOG2_C9) + F::splat(LOG2_C7)) * z + F::splat(LOG2_C5))
                    * z
                    + F::splat(LOG2_C3))
                    * z
                    + F::ONE;
                let ln = (s + s) * p;
                let r = e.round_float() + ln * F::splat(std::f32::consts::LOG2_E);
                let r = x.simd_eq(F::ZERO).select(F::splat(f32::NEG_INFINITY), r);
                let r = x.simd_eq(F::splat(f32::INFINITY)).select(x, r);
                (x.is_nan() | x.simd_lt(F::ZERO)).select(F::splat(f32::NAN), r)
            }

            /// The level every lane with a non-zero weight reads, if they
            /// agree (levels are small whole numbers here); 0 when no lane
            /// weighs it.
            #[inline(always)]
            fn uniform(level: F, weight: F) -> Option<u32> {
                let live: I = bytemuck::cast(weight.simd_ne(F::ZERO));
                let l = level.trunc_int();
                let lo = live.select(l, I::splat(i32::MAX)).reduce_min();
                let hi = live.select(l, I::splat(i32::MIN)).reduce_max();
                match lo {
                    i32::MAX => Some(0),
                    _ if lo == hi => Some(lo as u32),
                    _ => None,
                }
            }

            /// `f32::clamp` on every lane (NaN stays NaN).
            #[inline(always)]
            fn clamp(x: F, lo: f32, hi: f32) -> F {
                let x = x.simd_lt(F::splat(lo)).select(F::splat(lo), x);
                x.simd_gt(F::splat(hi)).select(F::splat(hi), x)
            }

            /// `CompareOp::test` on every lane as 1.0 or 0.0 (IEEE
            /// comparisons: NaN fails all but `NotEqual` and `Always`).
            #[inline(always)]
            fn compare(op: crate::header::CompareOp, r: F, d: F) -> F {
                use crate::header::CompareOp as C;
                let pass = match op {
                    C::Never => return F::ZERO,
                    C::Always => return F::ONE,
                    C::Less => r.simd_lt(d),
                    C::Equal => r.simd_eq(d),
                    C::LessOrEqual => r.simd_le(d),
                    C::Greater => r.simd_gt(d),
                    C::NotEqual => r.simd_ne(d),
                    C::GreaterOrEqual => r.simd_ge(d),
                };
                pass.select(F::ONE, F::ZERO)
            }

            /// `Profile::quantize` on every lane.
            #[inline(always)]
            fn quantize(f: F, bits: Option<u8>, round: FracRound) -> F {
                match bits {
                    None => f,
                    Some(b) => {
                        let s = F::splat(crate::profile::frac_scale(b));
                        let q = match round {
                            FracRound::Truncate => (f * s).floor(),
                            FracRound::Rne => (f * s).round_ties_even(),
                        };
                        q / s
                    }
                }
            }

            /// `x - floor(x)`, non-finite results 0 (`reference::frac`).
            #[inline(always)]
            fn frac(x: F) -> F {
                let f = x - x.floor();
                f.is_finite().select(f, F::ZERO)
            }

            /// The Morton spread of the low 4 bits (`x` in the even bits).
            #[inline(always)]
            fn part1by1(v: I) -> I {
                let v = (v | (v << 2)) & I::splat(0x33);
                (v | (v << 1)) & I::splat(0x55)
            }

            /// The quads' coordinates on all lanes (per quad one 4x4
            /// transpose, then the quads side by side): components
            /// `[s|x, t|y, r|z, layer]`, and for implicit LODs d/dx and d/dy
            /// of the first three by lane shuffles (`lane_derivatives`,
            /// fine or coarse); explicit gradients per lane for `Grad`.
            /// `None` unless `Q` quads (all full when `full`).
            #[inline(always)]
            fn coords(
                ctx: &Ctx<'_>,
                args: &SampleArgs,
                quads: &[Quad],
                full: bool,
            ) -> Option<([F; 4], [[F; 3]; 2])> {
                if quads.len() != Q || (full && quads.iter().any(|q| q.running() != 0xf)) {
                    return None;
                }
                let fine = args.derivatives.unwrap_or(ctx.profile.derivatives) == Derivatives::Fine;
                let implicit = matches!(args.lod, Lod::Implicit | Lod::Bias(_));
                let mut comp = [[F4::ZERO; Q]; 4];
                let mut dd = [[[F4::ZERO; Q]; 3]; 2];
                for (q, quad) in quads.iter().enumerate() {
                    let t = F4::transpose(quad.coords.map(F4::new));
                    for k in 0..4 {
                        comp[k][q] = t[k];
                    }
                    if implicit {
                        let (x1, x0, y1, y0) = if fine {
                            ([1, 1, 3, 3], [0, 0, 2, 2], [2, 3, 2, 3], [0, 1, 0, 1])
                        } else {
                            ([1; 4], [0; 4], [2; 4], [0; 4])
                        };
                        for k in 0..3 {
                            let v = t[k].to_array();
                            let pick = |i: [usize; 4]| F4::new(i.map(|i| v[i]));
                            dd[0][k][q] = pick(x1) - pick(x0);
                            dd[1][k][q] = pick(y1) - pick(y0);
                        }
                    }
                }
                let d = match args.lod {
                    Lod::Grad { ddx, ddy } => [
                        [0, 1, 2].map(|k| lanes4(ddx.map(|g| g[k]))),
                        [0, 1, 2].map(|k| lanes4(ddy.map(|g| g[k]))),
                    ],
                    _ => dd.map(|a| a.map(join)),
                };
                Some((comp.map(join), d))
            }

            /// `Q` quads' `[f32; 4]` registers as one.
            #[inline(always)]
            fn join(v: [F4; Q]) -> F {
                bytemuck::cast(v)
            }

            /// A per-lane quad value on every quad's lanes.
            #[inline(always)]
            fn lanes4(v: [f32; 4]) -> F {
                join([F4::new(v); Q])
            }

            /// The explicit lambda (`Base`, `Level`) and the shader bias
            /// per lane (`lane_lod`, full quads).
            #[inline(always)]
            fn lod_inputs(args: &SampleArgs) -> (Option<F>, F) {
                match args.lod {
                    Lod::Base => (Some(F::ZERO), F::ZERO),
                    Lod::Level(v) => (Some(lanes4(v)), F::ZERO),
                    Lod::Bias(b) => (None, lanes4(b)),
                    Lod::Implicit | Lod::Grad { .. } => (None, F::ZERO),
                }
            }

            /// The depth reference per lane, clamped to [0, 1] for UNORM
            /// depth formats (`Ctx::sample_lane`).
            #[inline(always)]
            fn dref(ctx: &Ctx<'_>, args: &SampleArgs) -> Option<F> {
                let d = lanes4(args.dref?);
                Some(if ctx.format.is_unorm_depth() {
                    clamp(d, 0.0, 1.0)
                } else {
                    d
                })
            }

            /// `select_layer` of every lane's layer coordinate, if they
            /// agree.
            #[inline(always)]
            fn layer(ctx: &Ctx<'_>, a: F, count: u32) -> Option<u32> {
                let a = a.to_array();
                let rule = ctx.profile.layer_round;
                let l0 = select_layer(a[0], count, rule);
                let same = a.iter().all(|x| x.to_bits() == a[0].to_bits());
                (same || a.iter().all(|&x| select_layer(x, count, rule) == l0)).then_some(l0)
            }

            /// Coordinates, derivatives and `Ctx::select` for `Q` full 2D
            /// or 2D-array quads, on all lanes. `None`: not for this kernel.
            #[inline(always)]
            pub(crate) fn select(ctx: &Ctx<'_>, args: &SampleArgs, quads: &[Quad]) -> Option<Sel> {
                let view = ctx.view;
                let (c, dv) = coords(ctx, args, quads, true)?;
                let layer = if view.kind.is_array() {
                    layer(ctx, c[3], view.layer_count)?
                } else {
                    0
                };
                let (shader_lambda, bias) = lod_inputs(args);
                let d = [dv[0][0], dv[0][1], dv[1][0], dv[1][1]];
                let (linear, levels, taps, axis) = lod(ctx, d, shader_lambda, bias)?;
                Some(Sel {
                    s: c[0],
                    t: c[1],
                    layer: view.base_layer + layer,
                    linear,
                    levels,
                    taps,
                    axis,
                    dref: dref(ctx, args),
                })
            }

            /// `Ctx::cube_coords` (face choice, face coordinates and the
            /// cube derivative transform) and `Ctx::select` for `Q` full
            /// cube or cube-array quads on all lanes, when every lane lands
            /// on one face of one cube.
            #[inline(always)]
            pub(crate) fn select_cube(ctx: &Ctx<'_>, args: &SampleArgs, quads: &[Quad]) -> Option<Sel> {
                let view = ctx.view;
                let (c, dv) = coords(ctx, args, quads, true)?;
                let [x, y, z, a] = c;
                // `cube_face`: z beats y beats x on ties.
                let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
                let zmaj = az.simd_ge(ax) & az.simd_ge(ay);
                let ymaj = !zmaj & ay.simd_ge(ax);
                let neg = |v: F| v.simd_lt(F::ZERO);
                // Faces as floats (small whole numbers).
                let f = |n: f32| F::splat(n);
                let face = zmaj.select(
                    neg(z).select(f(5.0), f(4.0)),
                    ymaj.select(neg(y).select(f(3.0), f(2.0)), neg(x).select(f(1.0), f(0.0))),
                );
                let fi = face.trunc_int();
                let face0 = fi.reduce_min();
                if face0 != fi.reduce_max() {
                    return None;
                }
                // `face_axes` for the one face.
                let axes = |v: [F; 3]| -> (F, F, F) {
                    let [x, y, z] = v;
                    match face0 {
                        0 => (-z, -y, x),
                        1 => (z, -y, x),
                        2 => (x, z, y),
                        3 => (x, -z, y),
                        4 => (x, -y, z),
                        _ => (-x, -y, z),
                    }
                };
                let (sc, tc, rc) = axes([x, y, z]);
                let ar = rc.abs();
                let half = F::splat(0.5);
                let s = half * sc / ar + half;
                let t = half * tc / ar + half;
                let sign = neg(rc).select(F::splat(-1.0), F::ONE);
                let rc2 = rc * rc;
                let tr = |dv: [F; 3]| {
                    let (dsc, dtc, drc) = axes(dv);
                    let dar = sign * drc;
                    (
                        half * (ar * dsc - sc * dar) / rc2,
                        half * (ar * dtc - tc * dar) / rc2,
                    )
                };
                let (dsdx, dtdx) = tr(dv[0]);
                let (dsdy, dtdy) = tr(dv[1]);
                let cube = if view.kind == TextureKind::CubeArray {
                    layer(ctx, a, view.layer_count / 6)?
                } else {
                    0
                };
                let (shader_lambda, bias) = lod_inputs(args);
                let (linear, levels, taps, axis) =
                    lod(ctx, [dsdx, dtdx, dsdy, dtdy], shader_lambda, bias)?;
                Some(Sel {
                    s,
                    t,
                    layer: view.base_layer + 6 * cube + face0 as u32,
                    linear,
                    levels,
                    taps,
                    axis,
                    dref: dref(ctx, args),
                })
            }

            /// `Ctx::footprint`, `Ctx::lambda` and `Ctx::select` on every
            /// lane, from the per-lane derivatives `d` = d(s, t)/dx,
            /// d(s, t)/dy (face coordinates for cubes), or an explicit
            /// lambda, plus the shader bias: the linear-filter mask, the
            /// levels with per-lane weights (`None` when lanes disagree on a
            /// level), the anisotropic taps and their axis.
            #[inline(always)]
            pub(crate) fn lod(
                ctx: &Ctx<'_>,
                d: [F; 4],
                shader_lambda: Option<F>,
                bias: F,
            ) -> Option<(F, [(u32, F); 2], I, [F; 2])> {
                let smp = ctx.smp;
                let p = ctx.profile;
                let view = ctx.view;
                // `Ctx::footprint`, `footprint_lambda` and the anisotropic
                // taps of `Ctx::lambda`.
                let max_aniso = p.aniso_levels.quantize(smp.max_anisotropy);
                let mut taps = I::splat(1);
                let mut axis = [F::ZERO; 2];
                let lambda_base = match shader_lambda {
                    Some(l) => l,
                    None => {
                        let w0 = F::splat(ctx.base[0] as f32);
                        let h0 = F::splat(ctx.base[1] as f32);
                        let z = F::ZERO;
                        let (jx0, jx1) = (d[0] * w0, d[1] * h0);
                        let (jy0, jy1) = (d[2] * w0, d[3] * h0);
                        let a = jx0 * jx0 + jx1 * jx1 + z * z;
                        let c = jy0 * jy0 + jy1 * jy1 + z * z;
                        if max_aniso <= 1.0 {
                            log2(a.sqrt().max(c.sqrt()))
                        } else {
                            let b = jx0 * jy0 + jx1 * jy1 + z * z;
                            let half = F::splat(0.5);
                            let root = ((a - c) * (a - c) + F::splat(4.0) * b * b).sqrt();
                            let s1 = ((a + c + root) * half).max(F::ZERO).sqrt();
                            let s2 = ((a + c - root) * half).max(F::ZERO).sqrt();
                            let ma = F::splat(max_aniso);
                            let eta = s2.simd_eq(F::ZERO).select(ma, (s1 / s2).min(ma));
                            let eta = (s1.simd_eq(F::ZERO) | !s1.is_finite()).select(F::ONE, eta);
                            taps = clamp(eta.ceil(), 1.0, 16.0).trunc_int();
                            // Major axis in screen space: the eigenvector of
                            // J^T J for s1^2, then through the derivatives.
                            let l1 = s1 * s1;
                            let (vx, vy) = (b, l1 - a);
                            let small = (vx.abs() + vy.abs()).simd_lt(F::splat(1e-20));
                            let (vx, vy) = (small.select(l1 - c, vx), small.select(b, vy));
                            let len = (vx * vx + vy * vy).sqrt();
                            let ok = len.simd_gt(F::ZERO) & len.is_finite();
                            let (ux, uy) = (vx / len, vy / len);
                            axis = [
                                ok.select(d[0] * ux + d[2] * uy, F::ZERO),
                                ok.select(d[1] * ux + d[3] * uy, F::ZERO),
                            ];
                            log2(s1 / eta)
                        }
                    }
                };
                // `Ctx::select`.
                let b = clamp(
                    F::splat(smp.mip_lod_bias) + bias,
                    -p.max_lod_bias,
                    p.max_lod_bias,
                );
                let mut lambda = lambda_base + b;
                lambda = lambda.is_nan().select(F::splat(f32::NEG_INFINITY), lambda);
                if let Some(bits) = p.lod_frac_bits {
                    let sc = F::splat(crate::profile::frac_scale(bits));
                    lambda = lambda.is_finite().select((lambda * sc).floor() / sc, lambda);
                }
                let lambda = lambda.min(F::splat(smp.max_lod)).max(F::splat(smp.min_lod));
                let linear = lambda
                    .simd_le(F::ZERO)
                    .select(F::splat(lin(smp.mag_filter)), F::splat(lin(smp.min_filter)))
                    .simd_eq(F::ONE);
                let q = view.level_count.saturating_sub(1) as f32;
                let dl = clamp(lambda, 0.0, q)
                    .max(F::splat(view.min_lod_clamp))
                    .min(F::splat(q));
                let levels = match smp.mipmap_mode {
                    MipmapMode::None => [(0, F::ONE), (0, F::ZERO)],
                    MipmapMode::Nearest => {
                        let l = match p.mip_nearest {
                            MipNearest::CeilMinusOne => (dl + F::splat(0.5)).ceil() - F::ONE,
                            MipNearest::FloorHalf => (dl + F::splat(0.5)).floor(),
                        };
                        let l = clamp(l, 0.0, q);
                        let lv = uniform(l, F::ONE)?;
                        [(lv, F::ONE), (0, F::ZERO)]
                    }
                    MipmapMode::Linear => {
                        let hi = dl.floor();
                        let delta = quantize(dl - hi, p.lod_frac_bits, p.frac_round);
                        let lo = (hi + F::ONE).min(F::splat(q));
                        let (w0, w1) = (F::ONE - delta, delta);
                        let l0 = uniform(hi, w0)?;
                        let l1 = uniform(lo, w1)?;
                        [(l0, w0), (l1, w1)]
                    }
                };
                Some((linear, levels, taps, axis))
            }

            /// Nearest or bilinear reads of the selected levels, weighted
            /// and summed (`reference::filter_level`), with the anisotropic
            /// taps of `kernel::run` (tap `i` of a lane with `n` taps at
            /// `st + ((i + 1) / (n + 1) - 1/2) * axis`, weight `w / n`).
            /// `cube`: `sel` holds face coordinates (no texel offsets;
            /// seamless views must not cross an edge). `None`: not for this
            /// kernel.
            #[inline(always)]
            pub(crate) fn filter<D: Fetch>(
                ctx: &Ctx<'_>,
                fetch: &mut D,
                offset: [i32; 3],
                sel: &Sel,
                cube: bool,
            ) -> Option<[[f32; N]; 4]> {
                let tex = &ctx.view.texture;
                let max_taps = sel.taps.reduce_max();
                let n = sel.taps.round_float();
                let mut total = [F::splat(-0.0); 4];
                for &(level, wl) in &sel.levels {
                    if !wl.simd_ne(F::ZERO).any() {
                        continue;
                    }
                    let sub = tex.subresource(ctx.view.base_level + level, sel.layer, 0)?;
                    for tap in 0..max_taps {
                        let (s, t, tw) = if max_taps > 1 {
                            let on = I::splat(tap).simd_lt(sel.taps);
                            let moved: F = bytemuck::cast(on & sel.taps.simd_gt(I::splat(1)));
                            let f = F::splat((tap + 1) as f32) / (n + F::ONE) - F::splat(0.5);
                            let on: F = bytemuck::cast(on);
                            let (ms, mt) = (sel.s + f * sel.axis[0], sel.t + f * sel.axis[1]);
                            // Cube taps stay on the lane's face
                            // (`Ctx::sample_lane`).
                            let (ms, mt) = if cube {
                                (clamp(ms, 0.0, 1.0), clamp(mt, 0.0, 1.0))
                            } else {
                                (ms, mt)
                            };
                            (
                                moved.select(ms, sel.s),
                                moved.select(mt, sel.t),
                                on.select(wl / n, F::ZERO),
                            )
                        } else {
                            (sel.s, sel.t, wl)
                        };
                        let used = tw.simd_ne(F::ZERO);
                        if !used.any() {
                            continue;
                        }
                        let acc = bilerp(ctx, fetch, &sub, s, t, sel.linear, used, sel.dref, offset, cube)?;
                        for c in 0..4 {
                            total[c] = used.select(total[c] + tw * acc[c], total[c]);
                        }
                    }
                }
                Some(total.map(|v| v.to_array()))
            }

            /// One nearest or bilinear read of `sub` at `(s, t)` on every
            /// lane (`linear` picks per lane); lanes outside `want` may read
            /// anything (their result is not used).
            #[inline(always)]
            #[allow(clippy::too_many_arguments)]
            fn bilerp<D: Fetch>(
                ctx: &Ctx<'_>,
                fetch: &mut D,
                sub: &quadtex_format::Subresource,
                s: F,
                t: F,
                linear: F,
                want: F,
                dref: Option<F>,
                offset: [i32; 3],
                cube: bool,
            ) -> Option<[F; 4]> {
                let at = address(ctx, sub, s, t, linear, offset, cube)?;
                let op = ctx.smp.compare.unwrap_or(crate::header::CompareOp::Always);
                let mut acc = [F::splat(-0.0); 4];
                for ky in 0..2 {
                    for kx in 0..2 {
                        let w = at.wts[0][kx] * at.wts[1][ky];
                        let live = w.simd_ne(F::ZERO);
                        if !live.any() {
                            continue;
                        }
                        let mut ch = read(ctx, fetch, sub, &at, kx, ky, live & want);
                        if let Some(r) = dref {
                            // The per-texel compare (PCF): 1 or 0 in R.
                            ch = [compare(op, r, ch[0]), F::ZERO, F::ZERO, F::ONE];
                        }
                        for c in 0..4 {
                            acc[c] = live.select(acc[c] + w * ch[c], acc[c]);
                        }
                    }
                }
                Some(acc)
            }

            /// The 2x2 footprint at `(s, t)` on every lane: per axis the
            /// weights and both wrapped indices as block-offset shares and
            /// in-block positions (`linear`: `floor(u - 1/2)`, else
            /// `floor(u)`). `None` for coordinates beyond 2^24 texels or
            /// NaN, address modes other than `repeat` on a power-of-two
            /// extent and `clamp_to_edge`, seamless cube footprints that
            /// cross an edge, and block formats whose block is not a power
            /// of two (ASTC 5x5, 6x6, 10x10, ...: texel indices split into
            /// block and in-block parts by shifts). Every batched path
            /// (filter, gather) addresses through here, so they refuse the
            /// same calls.
            #[inline(always)]
            fn address(
                ctx: &Ctx<'_>,
                sub: &quadtex_format::Subresource,
                s: F,
                t: F,
                linear: F,
                offset: [i32; 3],
                cube: bool,
            ) -> Option<Footprint> {
                let smp = ctx.smp;
                let (bw, bh) = ctx.format.block_extent();
                if !bw.is_power_of_two() || !bh.is_power_of_two() {
                    return None;
                }
                let bshift = [bw.trailing_zeros(), bh.trailing_zeros()];
                let size = [sub.extent.width as i32, sub.extent.height as i32];
                let (tw, th) = (sub.tile_w_log2, sub.tile_h_log2);
                let common = tw.min(th);
                let mut wts = [[F::ONE, F::ZERO]; 2];
                let mut part = [[I::ZERO; 2]; 2];
                let mut inner = [[I::ZERO; 2]; 2];
                for (k, st) in [s, t].into_iter().enumerate() {
                    let mut u = st * F::splat(size[k] as f32);
                    if !cube {
                        u += F::splat(offset[k] as f32);
                    }
                    let x = linear.select(u - F::splat(0.5), u);
                    let a = linear.select(
                        quantize(frac(x), ctx.profile.weight_frac_bits, ctx.profile.frac_round),
                        F::ZERO,
                    );
                    wts[k] = [F::ONE - a, a];
                    let fl = x.floor();
                    // NaN and out-of-range lanes fail the comparison.
                    if !fl.abs().simd_lt(F::splat(16_777_216.0)).all() {
                        return None;
                    }
                    let i0 = fl.trunc_int();
                    let n = size[k];
                    let seamless = cube && smp.seamless_cube;
                    if seamless {
                        // A linear footprint across a face edge needs
                        // the neighbour face: the reference's job.
                        let lin_m: I = bytemuck::cast(linear);
                        let out = (i0.simd_lt(I::ZERO) | i0.simd_gt(I::splat(n - 2))) & lin_m;
                        if out.any() {
                            return None;
                        }
                    }
                    let mode = if seamless {
                        AddressMode::ClampToEdge
                    } else {
                        smp.address[k]
                    };
                    for (tap, i) in [i0, i0 + I::splat(1)].into_iter().enumerate() {
                        let w = match mode {
                            AddressMode::Repeat if n & (n - 1) == 0 => i & I::splat(n - 1),
                            AddressMode::ClampToEdge => i.max(I::ZERO).min(I::splat(n - 1)),
                            _ => return None,
                        };
                        inner[k][tap] = w & I::splat((1 << bshift[k]) - 1);
                        let w = w >> bshift[k];
                        part[k][tap] = if k == 0 {
                            let inn = w & I::splat((1 << tw) - 1);
                            let low = part1by1(inn & I::splat((1 << common) - 1));
                            let high = (inn >> common) << (2 * common);
                            ((w >> tw) << (tw + th)) + (low | high)
                        } else {
                            let inn = w & I::splat((1 << th) - 1);
                            let low = part1by1(inn & I::splat((1 << common) - 1)) << 1;
                            let high = (inn >> common) << (2 * common);
                            (((w >> th) * I::splat(sub.tiles_x as i32)) << (tw + th))
                                + (low | high)
                        };
                    }
                }
                Some(Footprint { wts, part, inner })
            }

            /// The texels of footprint corner `(kx, ky)`, decoded, on the
            /// lanes of `need` (others may hold anything): one hardware
            /// gather for RGBA8, else the decoder per lane.
            #[inline(always)]
            fn read<D: Fetch>(
                ctx: &Ctx<'_>,
                fetch: &mut D,
                sub: &quadtex_format::Subresource,
                at: &Footprint,
                kx: usize,
                ky: usize,
                need: F,
            ) -> [F; 4] {
                let bytes = ctx.view.texture.bytes();
                let blk = at.part[0][kx] + at.part[1][ky];
                match fetch.rgba8() {
                    // Byte offsets fit i32 lanes: one gather.
                    Some((bgra, srgb)) if sub.size <= i32::MAX as usize => {
                        let off: I = blk << 2;
                        let raw = crate::arch::load_u32(bytes, sub.offset, off.to_array());
                        decode_rgba8(I::new(raw), bgra, srgb)
                    }
                    // Depth: one 32-bit gather (16-bit texels take their
                    // low half), then the format crate's decode.
                    None if sub.size <= i32::MAX as usize && fetch.depth().is_some() => {
                        let bits = fetch.depth().unwrap_or(32);
                        let off: I = if bits == 16 { blk << 1 } else { blk << 2 };
                        let raw = I::new(crate::arch::load_u32(bytes, sub.offset, off.to_array()));
                        let d = match bits {
                            32 => bytemuck::cast(raw),
                            24 => (raw & I::splat(0xff_ffff)).round_float() / F::splat(16_777_215.0),
                            _ => (raw & I::splat(0xffff)).round_float() / F::splat(65_535.0),
                        };
                        [d, F::ZERO, F::ZERO, F::ONE]
                    }
                    _ => {
                        let bb = sub.block_bytes as usize;
                        let blk = blk.to_array();
                        let (tx, ty) = (at.inner[0][kx].to_array(), at.inner[1][ky].to_array());
                        // Only lanes that use this texel decode it (block
                        // formats: fewer cache misses).
                        let need = need.to_bitmask();
                        let mut v = [[0.0f32; N]; 4];
                        for l in 0..N {
                            if need & (1 << l) == 0 {
                                continue;
                            }
                            let o = sub.offset + blk[l] as usize * bb;
                            let t = fetch.texel(bytes, o, tx[l] as u32, ty[l] as u32);
                            for c in 0..4 {
                                v[c][l] = t[c];
                            }
                        }
                        v.map(F::new)
                    }
                }
            }

            /// TLD4 / `textureGather` of `Q` quads of a 2D or 2D-array view
            /// at its base level (`gather::gather_lane` on every lane): the
            /// footprint of the linear filter, corners in the order
            /// `[T(i0, j1), T(i1, j1), T(i1, j0), T(i0, j0)]`, the component
            /// `args.component` after the view's swizzle. Lanes that do not
            /// run are computed too and not written. The caller has checked
            /// the view and arguments (`gather_handles`); `None` hands the
            /// batch back.
            #[inline(always)]
            pub(crate) fn gather<D: Fetch>(
                ctx: &Ctx<'_>,
                fetch: &mut D,
                args: &crate::gather::GatherArgs,
                quads: &[Quad],
            ) -> Option<[F; 4]> {
                let view = ctx.view;
                let base = SampleArgs {
                    lod: Lod::Base,
                    ..SampleArgs::default()
                };
                let (c, _) = coords(ctx, &base, quads, false)?;
                let layer = if view.kind.is_array() {
                    layer(ctx, c[3], view.layer_count)?
                } else {
                    0
                };
                use crate::gather::GatherOffsets;
                let sub = view.texture.subresource(view.base_level, view.base_layer + layer, 0)?;
                let all = F::ONE.simd_eq(F::ONE);
                // Per output texel k: the footprint to read and its corner.
                // AOFFI (or none): one footprint, corners in gather order;
                // PTP: texel k is T(i0 + ds_k, j0 + dt_k), the (0, 0) corner
                // of the footprint moved by offset k (`gather_lane`).
                let corners = [(0, 1), (1, 1), (1, 0), (0, 0)];
                let foot = |o: [i32; 2]| address(ctx, &sub, c[0], c[1], all, [o[0], o[1], 0], false);
                let (one, each) = match args.offsets {
                    GatherOffsets::None => (Some(foot([0, 0])?), None),
                    GatherOffsets::Aoffi(o) => (Some(foot(o)?), None),
                    GatherOffsets::Ptp(p) => (None, Some(p.map(foot))),
                };
                let ptp = each.is_some();
                let pick = view.swizzle[(args.component & 3) as usize];
                // `.DC`: each texel's R compared with the (clamped)
                // reference, 1.0 or 0.0, no swizzle (`gather_lane`).
                let dref = args.dref.map(|d| {
                    let d = lanes4(d);
                    if ctx.format.is_unorm_depth() {
                        clamp(d, 0.0, 1.0)
                    } else {
                        d
                    }
                });
                let op = ctx.smp.compare.unwrap_or(crate::header::CompareOp::Always);
                let mut out = [F::ZERO; 4];
                for (k, (kx, ky)) in corners.into_iter().enumerate() {
                    let at = match (&one, &each) {
                        (Some(at), _) => at,
                        (None, Some(each)) => each[k].as_ref()?,
                        (None, None) => return None,
                    };
                    let (kx, ky) = if ptp { (0, 0) } else { (kx, ky) };
                    out[k] = match (dref, pick) {
                        (Some(r), _) => compare(op, r, read(ctx, fetch, &sub, at, kx, ky, all)[0]),
                        (None, Swizzle::Zero) => F::ZERO,
                        (None, Swizzle::One) => F::ONE,
                        (None, ch) => read(ctx, fetch, &sub, at, kx, ky, all)[ch as usize],
                    };
                }
                Some(out)
            }

            /// RGBA8 / BGRA8 words to floats: `code / 255` (the exact
            /// division, as the format crate's UNORM8 table holds), or the
            /// sRGB table for colour channels.
            #[inline(always)]
            fn decode_rgba8(raw: I, bgra: bool, srgb: bool) -> [F; 4] {
                let byte = |k: i32| (raw >> k) & I::splat(0xff);
                let unorm = |v: I| v.round_float() / F::splat(255.0);
                let (r, g, b, a) = (byte(0), byte(8), byte(16), byte(24));
                let (r, b) = if bgra { (b, r) } else { (r, b) };
                let colour = |v: I| {
                    if srgb {
                        // The format crate's exact table, one gather (codes
                        // are 0..=255: always inside it).
                        let table: &[u8] = bytemuck::cast_slice(quadtex_format::texel::srgb8_table());
                        let idx: I = v << 2;
                        let words = crate::arch::load_u32(table, 0, idx.to_array());
                        bytemuck::cast(I::new(words))
                    } else {
                        unorm(v)
                    }
                };
                [colour(r), colour(g), colour(b), unorm(a)]
            }

            /// [`gather`] of `Q` quads into their results (running lanes
            /// only); `false`: nothing written, take the per-lane path.
            #[inline(always)]
            pub(crate) fn gather_out<D: Fetch>(
                ctx: &Ctx<'_>,
                fetch: &mut D,
                args: &crate::gather::GatherArgs,
                quads: &[Quad],
                out: &mut [QuadResult],
            ) -> bool {
                let Some(v) = gather(ctx, fetch, args, quads) else {
                    return false;
                };
                let v = v.map(|x| x.to_array());
                for (q, (o, quad)) in out.iter_mut().zip(quads).enumerate() {
                    *o = QuadResult::EMPTY;
                    let running = quad.running();
                    for l in 0..4 {
                        if running & (1 << l) != 0 {
                            let i = 4 * q + l;
                            o.texels[l] = Some(Texel::Float([v[0][i], v[1][i], v[2][i], v[3][i]]));
                            o.resident[l] = true;
                        }
                    }
                }
                true
            }

            /// [`select`] or [`select_cube`] by the view's kind, with the
            /// texel offset to apply (none on cubes) and the cube flag.
            #[inline(always)]
            fn select_any(ctx: &Ctx<'_>, args: &SampleArgs, quads: &[Quad]) -> Option<(Sel, [i32; 3], bool)> {
                if ctx.view.kind.is_cube() {
                    Some((select_cube(ctx, args, quads)?, [0; 3], true))
                } else {
                    Some((select(ctx, args, quads)?, args.offset, false))
                }
            }

            /// [`sample`] with lane-major RGBA results.
            #[inline(always)]
            pub(crate) fn sample_rgba<D: Fetch>(
                ctx: &Ctx<'_>,
                fetch: &mut D,
                args: &SampleArgs,
                quads: &[Quad],
                out: &mut [[[f32; 4]; 4]],
            ) -> bool {
                let Some((sel, offset, cube)) = select_any(ctx, args, quads) else {
                    return false;
                };
                let Some(rgba) = filter(ctx, fetch, offset, &sel, cube) else {
                    return false;
                };
                write_rgba(ctx, rgba, sel.dref.is_some(), out);
                true
            }

            /// `Q` full 2D quads: select, filter, write `out` (`Q` results).
            /// `false`: nothing written, take the per-quad path.
            #[inline(always)]
            pub(crate) fn sample<D: Fetch>(
                ctx: &Ctx<'_>,
                fetch: &mut D,
                args: &SampleArgs,
                quads: &[Quad],
                out: &mut [QuadResult],
            ) -> bool {
                let Some((sel, offset, cube)) = select_any(ctx, args, quads) else {
                    return false;
                };
                let Some(rgba) = filter(ctx, fetch, offset, &sel, cube) else {
                    return false;
                };
                write_out(ctx, rgba, sel.dref.is_some(), out);
                true
            }
        }
    };
}

batch_kernel!(
    /// One quad per register (SSE/AVX 128-bit).
    w4, F4, I4, 4
);
batch_kernel!(
    /// Two quads per register (AVX2 256-bit).
    w8, F8, I8, 8
);
batch_kernel!(
    /// Four quads per register (AVX-512 when the build targets it).
    w16, F16, I16, 16
);

/// Quads per call of the widest kernel this build runs natively.
#[cfg(target_feature = "avx512f")]
pub(crate) const NATIVE_QUADS: usize = w16::Q;
/// Quads per call of the widest kernel this build runs natively.
#[cfg(not(target_feature = "avx512f"))]
pub(crate) const NATIVE_QUADS: usize = w8::Q;

/// [`sample_at`] with lane-major RGBA results.
pub(crate) fn sample_rgba_at<D: Fetch>(
    lanes: usize,
    ctx: &Ctx<'_>,
    fetch: &mut D,
    args: &SampleArgs,
    quads: &[Quad],
    out: &mut [[[f32; 4]; 4]],
) -> bool {
    match lanes {
        4 => w4::sample_rgba(ctx, fetch, args, quads, out),
        8 => w8::sample_rgba(ctx, fetch, args, quads, out),
        16 => w16::sample_rgba(ctx, fetch, args, quads, out),
        _ => false,
    }
}

/// Whether a gather can take the batched kernels: 2D or 2D-array views of
/// float-sampled colour formats (depth formats when comparing, `.DC`) with
/// normalized coordinates, a full mip chain header (`TWO_D_NO_MIPMAP`
/// makes TLD4 a TEX), no residency map. Address modes and coordinates are
/// checked per batch.
pub(crate) fn gather_handles(ctx: &Ctx<'_>, args: &crate::gather::GatherArgs) -> bool {
    matches!(ctx.view.kind, TextureKind::D2 | TextureKind::D2Array)
        && ctx.ty == quadtex_format::SampleType::Float
        && (!ctx.format.has_depth() || args.dref.is_some())
        && !ctx.format.has_stencil()
        && !ctx.smp.unnormalized
        && ctx.view.header_type() != Some(crate::header::HeaderType::TwoDNoMipmap)
        && ctx.view.texture.residency().is_none()
}

/// [`w4::gather_out`] and its wider twins by lane count.
pub(crate) fn gather_at<D: Fetch>(
    lanes: usize,
    ctx: &Ctx<'_>,
    fetch: &mut D,
    args: &crate::gather::GatherArgs,
    quads: &[Quad],
    out: &mut [QuadResult],
) -> bool {
    match lanes {
        4 => w4::gather_out(ctx, fetch, args, quads, out),
        8 => w8::gather_out(ctx, fetch, args, quads, out),
        16 => w16::gather_out(ctx, fetch, args, quads, out),
        _ => false,
    }
}

/// Runs `quads` (exactly `lanes / 4` of them) through the kernel of that
/// width; `false` when the batch is not for it.
pub(crate) fn sample_at<D: Fetch>(
    lanes: usize,
    ctx: &Ctx<'_>,
    fetch: &mut D,
    args: &SampleArgs,
    quads: &[Quad],
    out: &mut [QuadResult],
) -> bool {
    match lanes {
        4 => w4::sample(ctx, fetch, args, quads, out),
        8 => w8::sample(ctx, fetch, args, quads, out),
        16 => w16::sample(ctx, fetch, args, quads, out),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log2_is_exact_at_powers_of_two_and_close_elsewhere() {
        for e in -149..128 {
            let x = if e >= -126 {
                f32::from_bits(((e + 127) as u32) << 23)
            } else {
                f32::from_bits(1 << (e + 149))
            };
            assert_eq!(crate::reference::log2(x), e as f32, "2^{e}");
        }
        let mut s = 0x1234_5678u32;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            let x = f32::from_bits(s & 0x7fff_ffff);
            if !x.is_finite() {
                continue;
            }
            let got = crate::reference::log2(x) as f64;
            let want = (x as f64).log2();
            let tol = 2.5 * f32::EPSILON as f64 * want.abs().max(1.0);
            assert!(
                (got - want).abs() <= tol,
                "log2({x:e}) = {got}, want {want}"
            );
        }
        assert_eq!(crate::reference::log2(0.0), f32::NEG_INFINITY);
        assert_eq!(crate::reference::log2(-0.0), f32::NEG_INFINITY);
        assert_eq!(crate::reference::log2(f32::INFINITY), f32::INFINITY);
        assert!(crate::reference::log2(f32::NAN).is_nan());
        assert!(crate::reference::log2(-1.0).is_nan());
    }

    #[test]
    fn simd_log2_matches_the_scalar_twin_bit_for_bit() {
        let mut s = 0x9e37_79b9u32;
        let mut xs: Vec<f32> = vec![
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::MAX,
            1.0,
            std::f32::consts::SQRT_2,
            f32::from_bits(std::f32::consts::SQRT_2.to_bits() + 1),
            0.5,
            -3.0,
        ];
        for _ in 0..100_000 {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            xs.push(f32::from_bits(s));
        }
        for chunk in xs.as_chunks::<16>().0 {
            let v: [f32; 16] = *chunk;
            let w16 = w16::log2(crate::simd::F16::new(v)).to_array();
            let w8 = w8::log2(crate::simd::F8::new(v[..8].try_into().unwrap())).to_array();
            let w4 = w4::log2(crate::simd::F4::new(v[..4].try_into().unwrap())).to_array();
            for i in 0..16 {
                let want = crate::reference::log2(v[i]).to_bits();
                let nan = crate::reference::log2(v[i]).is_nan();
                let ok = |g: f32| g.to_bits() == want || (nan && g.is_nan());
                assert!(ok(w16[i]), "w16 log2({:e})", v[i]);
                if i < 8 {
                    assert!(ok(w8[i]), "w8 log2({:e})", v[i]);
                }
                if i < 4 {
                    assert!(ok(w4[i]), "w4 log2({:e})", v[i]);
                }
            }
        }
    }
}
