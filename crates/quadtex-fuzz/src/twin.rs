//! The structured target: every SIMD path against its scalar twin.
//!
//! The input drives an [`arbitrary::Unstructured`] that builds a texture
//! (any format, kind, extent, level count, layout and texel bytes), a view
//! of it, a sampler, a profile and a run of quads with their arguments
//! (edge coordinates mixed in: texel centres and edges, 0.5, negative and
//! huge values, NaN, ±Inf, denormals). Headers the validators refuse are
//! skipped: only what a caller may hand the sampler is run. Then every
//! batched path must return the reference's bits (NaN equal to NaN):
//!
//! - `sample`: [`reference::sample`] against [`QuadSampler::sample`],
//!   `sample_quads` at 4, 8 and 16 lanes, the lane-major RGBA forms, and
//!   `sample_planar` (the quads as full quads) at every SIMD level;
//! - `gather`: [`gather_reference`] against [`QuadSampler::gather`] and
//!   `gather_quads` at every width;
//! - `fetch`: [`fetch_reference`] against [`fetch`] and [`QuadFetcher`]
//!   (`fetch` and `fetch_rgba`);
//! - `query_lod` runs on every quad (it has no second implementation yet:
//!   it must not panic).

use std::sync::Arc;

use arbitrary::{Result, Unstructured};
use quadtex_format::{Layout, Texel, Texture, TextureDesc, TextureFormat, TextureKind as K};
use quadtex_sampler::fetch::fetch_reference;
use quadtex_sampler::gather::gather_reference;
use quadtex_sampler::profile::Derivatives;
use quadtex_sampler::{
    fetch, query_lod, reference, AddressMode, BorderColor, CompareOp, FetchArgs, Filter,
    GatherArgs, GatherOffsets, Lod, MipmapMode, PlanarOut, Profile, Quad, QuadCoords, QuadFetcher,
    QuadResult, QuadSampler, ReductionMode, SampleArgs, SamplerHeader, SimdLevel, Swizzle,
    TextureHeader,
};

/// Runs one input; see the module docs. Panics on a twin mismatch; true
/// when the input got as far as the twin checks (fetch, then sampling
/// where the view and sampler allow it).
pub fn sampler_twin(data: &[u8]) -> bool {
    let mut u = Unstructured::new(data);
    let mut sampled = false;
    // Running out of input ends the case; what was built so far ran.
    let _ = run(&mut u, &mut sampled);
    sampled
}

/// `a` and `b` hold the same bits (any NaN equal to any NaN).
fn same(a: Option<Texel>, b: Option<Texel>) -> bool {
    match (a, b) {
        (Some(Texel::Float(x)), Some(Texel::Float(y))) => x
            .iter()
            .zip(y)
            .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())),
        _ => a == b,
    }
}

fn same_f32(a: [f32; 4], b: [f32; 4]) -> bool {
    same(Some(Texel::Float(a)), Some(Texel::Float(b)))
}

/// Panics unless `got` is `want` lane by lane (texels and residency).
fn check(what: &str, got: &QuadResult, want: &QuadResult, quad: &Quad, ctx: &dyn std::fmt::Debug) {
    for lane in 0..4 {
        assert!(
            same(got.texels[lane], want.texels[lane]) && got.resident[lane] == want.resident[lane],
            "{what}, lane {lane}: got {:?} (resident {}), reference {:?} (resident {})\nquad {quad:?}\n{ctx:?}",
            got.texels[lane],
            got.resident[lane],
            want.texels[lane],
            want.resident[lane],
        );
    }
}

/// The lane-major RGBA form of a reference result: `f32` values, zeros in
/// lanes that did not run.
fn rgba(r: &QuadResult) -> [[f32; 4]; 4] {
    r.texels.map(|t| t.map_or([0.0; 4], Texel::to_f32))
}

fn check_rgba(
    what: &str,
    got: [[f32; 4]; 4],
    want: &QuadResult,
    quad: &Quad,
    ctx: &dyn std::fmt::Debug,
) {
    let want = rgba(want);
    for lane in 0..4 {
        assert!(
            same_f32(got[lane], want[lane]),
            "{what}, lane {lane}: got {:?}, reference {:?}\nquad {quad:?}\n{ctx:?}",
            got[lane],
            want[lane],
        );
    }
}

/// A float that is mostly ordinary and often an edge value.
fn float(u: &mut Unstructured<'_>, scale: f32) -> Result<f32> {
    Ok(match u.int_in_range(0u8..=15)? {
        0 => f32::NAN,
        1 => f32::INFINITY,
        2 => f32::NEG_INFINITY,
        3 => 0.5,
        4 => -0.0,
        5 => f32::from_bits(u.int_in_range(1u32..=0x007f_ffff)?), // denormal
        6 => f32::from_bits(u.arbitrary::<u32>()?),
        7 => 1e30,
        8 => -1.0 / scale.max(1.0),
        // Texel centres and edges at this extent.
        9 | 10 => u.int_in_range(-2i32..=34)? as f32 / (2.0 * scale.max(1.0)),
        _ => u.int_in_range(-300i32..=1300)? as f32 / 1000.0,
    })
}

fn pick<T: Copy>(u: &mut Unstructured<'_>, v: &[T]) -> Result<T> {
    u.choose(v).copied()
}

/// Fills `n` bytes from a seeded generator (so small inputs still give
/// whole textures), with runs of special float patterns now and then.
fn texel_bytes(u: &mut Unstructured<'_>, n: usize) -> Result<Vec<u8>> {
    let mut s = u.arbitrary::<u64>()? | 1;
    let special = u.int_in_range(0u8..=3)?;
    Ok((0..n)
        .map(|i| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            match special {
                // 0x7f80_0000 (+Inf), 0xffc0_0000 (NaN), 0x0000_0001: whole
                // words of them in float formats.
                1 if s % 5 == 0 => [0x00, 0x00, 0x80, 0x7f][i % 4],
                2 if s % 5 == 0 => [0x00, 0x00, 0xc0, 0xff][i % 4],
                3 if s % 7 == 0 => [0x01, 0x00, 0x00, 0x00][i % 4],
                _ => s as u8,
            }
        })
        .collect())
}

fn texture(u: &mut Unstructured<'_>) -> Result<Option<Arc<Texture>>> {
    let format = pick(u, TextureFormat::ALL)?;
    let mut kind = pick(u, &K::ALL)?;
    if format.is_compressed() && matches!(kind, K::D1 | K::D1Array | K::D2Ms | K::D2MsArray) {
        // Block formats are 2D, 2D-array, cube (and 3D for some) only.
        kind = pick(u, &[K::D2, K::D2Array, K::Cube, K::CubeArray])?;
    }
    let (bw, bh) = format.block_extent();
    let w = u.int_in_range(1u32..=3)? * u.int_in_range(1..=bw.max(6))?;
    let h = u.int_in_range(1u32..=3)? * u.int_in_range(1..=bh.max(6))?;
    let mut desc = TextureDesc::d2(format, w, h);
    desc.kind = kind;
    match kind {
        K::D1 | K::D1Array => desc.height = 1,
        K::D3 => desc.depth = u.int_in_range(1..=5)?,
        K::Cube | K::CubeArray => desc.height = desc.width,
        _ => {}
    }
    desc.layers = match kind {
        K::Cube => 6,
        K::CubeArray => 6 * u.int_in_range(1..=2)?,
        K::D1Array | K::D2Array | K::D2MsArray => u.int_in_range(1..=4)?,
        _ => 1,
    };
    if kind.is_multisample() {
        desc.samples = pick(u, &[1, 2, 4, 8])?;
        desc.levels = 1;
    } else {
        desc.levels = u.int_in_range(1..=desc.max_levels().max(1))?;
    }
    if desc.validate().is_err() {
        return Ok(None);
    }
    let Some(n) = desc.total_bytes() else {
        return Ok(None);
    };
    if n > 1 << 20 {
        return Ok(None);
    }
    let bytes = texel_bytes(u, n as usize)?;
    let layout = pick(u, &[Layout::Linear, Layout::Tiled])?;
    let Ok(mut tex) = Texture::from_linear_bytes(desc, layout, &bytes) else {
        return Ok(None);
    };
    if u.ratio(1u8, 8)? {
        tex.make_sparse();
        if let Some(r) = tex.residency_mut() {
            let flips = u.int_in_range(0u8..=6)?;
            for _ in 0..flips {
                let (level, layer) = (u.int_in_range(0..=3)?, u.int_in_range(0..=2)?);
                if u.ratio(1u8, 3)? {
                    let _ = r.set_mip_tail(layer, false);
                } else {
                    let (x, y) = (u.int_in_range(0..=2)?, u.int_in_range(0..=2)?);
                    let _ = r.set_tile(level, layer, x, y, 0, false);
                }
            }
        }
    }
    Ok(Some(Arc::new(tex)))
}

fn swizzle(u: &mut Unstructured<'_>) -> Result<Swizzle> {
    pick(
        u,
        &[
            Swizzle::R,
            Swizzle::G,
            Swizzle::B,
            Swizzle::A,
            Swizzle::Zero,
            Swizzle::One,
        ],
    )
}

fn view(u: &mut Unstructured<'_>, tex: &Arc<Texture>) -> Result<Option<TextureHeader>> {
    let d = *tex.desc();
    let mut v = TextureHeader::new(tex.clone());
    if u.ratio(1u8, 3)? {
        // Views of another kind the texture allows: one layer of an array,
        // a cube of a cube array, arrays of one layer.
        v.kind = match d.kind {
            K::D2Array => pick(u, &[K::D2, K::D2Array, K::Cube, K::CubeArray])?,
            K::D1Array => K::D1,
            K::D1 => K::D1Array,
            K::D2 => K::D2Array,
            K::CubeArray => pick(u, &[K::Cube, K::D2Array, K::D2])?,
            K::Cube => pick(u, &[K::D2Array, K::D2, K::CubeArray])?,
            K::D2Ms => K::D2MsArray,
            K::D2MsArray => K::D2Ms,
            K::D3 => K::D3,
        };
        v.layer_count = match v.kind {
            K::D1 | K::D2 | K::D2Ms | K::D3 => 1,
            K::Cube => 6,
            _ => v.layer_count,
        };
    }
    if u.ratio(1u8, 3)? && d.levels > 1 {
        v.base_level = u.int_in_range(0..=d.levels - 1)?;
        v.level_count = u.int_in_range(1..=d.levels - v.base_level)?;
    }
    if u.ratio(1u8, 3)? && d.layers > v.layer_count {
        v.base_layer = u.int_in_range(0..=d.layers - v.layer_count)?;
    }
    if u.ratio(1u8, 3)? {
        v.swizzle = [swizzle(u)?, swizzle(u)?, swizzle(u)?, swizzle(u)?];
    }
    if u.ratio(1u8, 5)? {
        v.min_lod_clamp = float(u, 4.0)?;
    }
    v.srgb_decode = !u.ratio(1u8, 8)?;
    Ok(v.validate().is_ok().then_some(v))
}

fn address(u: &mut Unstructured<'_>) -> Result<AddressMode> {
    pick(
        u,
        &[
            AddressMode::Repeat,
            AddressMode::MirroredRepeat,
            AddressMode::ClampToEdge,
            AddressMode::ClampToBorder,
            AddressMode::MirrorClampToEdge,
            AddressMode::ClampOgl,
        ],
    )
}

const COMPARE_OPS: [CompareOp; 8] = [
    CompareOp::Never,
    CompareOp::Less,
    CompareOp::Equal,
    CompareOp::LessOrEqual,
    CompareOp::Greater,
    CompareOp::NotEqual,
    CompareOp::GreaterOrEqual,
    CompareOp::Always,
];

fn sampler(u: &mut Unstructured<'_>, view: &TextureHeader) -> Result<Option<SamplerHeader>> {
    let filter = |u: &mut Unstructured<'_>| pick(u, &[Filter::Nearest, Filter::Linear]);
    let a = address(u)?;
    let mut smp = SamplerHeader {
        mag_filter: filter(u)?,
        min_filter: filter(u)?,
        mipmap_mode: pick(
            u,
            &[MipmapMode::None, MipmapMode::Nearest, MipmapMode::Linear],
        )?,
        // Mostly one mode on every axis, as the batched kernels take them.
        address: if u.ratio(1u8, 4)? {
            [address(u)?, address(u)?, address(u)?]
        } else {
            [a; 3]
        },
        border_color: match u.int_in_range(0u8..=7)? {
            0 => BorderColor::FloatTransparentBlack,
            1 => BorderColor::FloatOpaqueBlack,
            2 => BorderColor::FloatOpaqueWhite,
            3 => BorderColor::IntTransparentBlack,
            4 => BorderColor::IntOpaqueBlack,
            5 => BorderColor::IntOpaqueWhite,
            6 => BorderColor::Float([
                float(u, 1.0)?,
                float(u, 1.0)?,
                float(u, 1.0)?,
                float(u, 1.0)?,
            ]),
            _ => BorderColor::Int([
                u.arbitrary()?,
                u.arbitrary()?,
                u.arbitrary()?,
                u.arbitrary()?,
            ]),
        },
        mip_lod_bias: pick(u, &[0.0, 0.0, 0.75, -1.5, 3.7, 100.0, f32::NAN])?,
        min_lod: pick(u, &[0.0, 0.0, 0.5, 1.0, 3.7, -1.0])?,
        max_lod: pick(u, &[1000.0, 1000.0, 2.25, 0.0, 0.25, f32::INFINITY])?,
        max_anisotropy: pick(u, &[1.0, 1.0, 2.0, 3.5, 4.0, 16.0, 64.0, 4096.0])?,
        compare: if view.texture.desc().format.has_depth() || u.ratio(1u8, 8)? {
            u.ratio(3u8, 4)?.then_some(pick(u, &COMPARE_OPS)?)
        } else {
            None
        },
        unnormalized: u.ratio(1u8, 10)?,
        seamless_cube: !u.ratio(1u8, 4)?,
        reduction: pick(
            u,
            &[
                ReductionMode::WeightedAverage,
                ReductionMode::WeightedAverage,
                ReductionMode::Min,
                ReductionMode::Max,
            ],
        )?,
    };
    if smp.unnormalized {
        // Vulkan's rules for unnormalized coordinates: clamped, isotropic.
        let a = pick(u, &[AddressMode::ClampToEdge, AddressMode::ClampToBorder])?;
        smp.address = [a; 3];
        smp.max_anisotropy = 1.0;
        smp.mipmap_mode = MipmapMode::Nearest;
        smp.min_filter = smp.mag_filter;
        smp.compare = None;
    }
    Ok(smp.validate_with(view).is_ok().then_some(smp))
}

fn profile(u: &mut Unstructured<'_>) -> Result<Profile> {
    pick(
        u,
        &[
            Profile::VULKAN,
            Profile::NV_SASS,
            Profile::PTX,
            Profile::D3D11,
        ],
    )
}

/// A run of quads: a tile of neighbours (the batches' case) with edge
/// values sprinkled over some lanes.
fn quads(u: &mut Unstructured<'_>, view: &TextureHeader) -> Result<Vec<Quad>> {
    let d = view.texture.desc();
    let size = d.width.max(d.height) as f32;
    let n = u.int_in_range(1usize..=24)?;
    let cube = view.kind.is_cube();
    let origin = [float(u, size)?, float(u, size)?, float(u, size)?];
    let step = pick(u, &[0.3, 1.0, 1.7, 4.0, 17.0])? / size;
    let stretch = pick(u, &[1.0, 1.0, 6.0, 0.1])?;
    let layer = pick(u, &[0.0, 1.0, 1.4, 2.6, -0.5, 5.5])?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (qx, qy) = ((i % 8) as f32, (i / 8) as f32);
        let mut coords = [0, 1, 2, 3].map(|l| {
            let x = 2.0 * qx + (l & 1) as f32;
            let y = 2.0 * qy + (l >> 1) as f32;
            if cube {
                // Directions through one face, or across an edge.
                [
                    origin[0] + x * step,
                    origin[1] + y * step * stretch,
                    1.0,
                    layer,
                ]
            } else {
                [
                    origin[0] + x * step,
                    origin[1] + y * step * stretch,
                    origin[2],
                    layer,
                ]
            }
        });
        if u.ratio(1u8, 6)? {
            let lane = u.int_in_range(0usize..=3)?;
            let c = u.int_in_range(0usize..=3)?;
            coords[lane][c] = float(u, size)?;
        }
        let mut q = Quad::new(coords);
        if u.ratio(1u8, 5)? {
            q.active = u.int_in_range(0u8..=15)?;
            q.helper = u.int_in_range(0u8..=15)? & !q.active;
        }
        out.push(q);
    }
    Ok(out)
}

fn lanes4(u: &mut Unstructured<'_>, scale: f32) -> Result<[f32; 4]> {
    Ok([
        float(u, scale)?,
        float(u, scale)?,
        float(u, scale)?,
        float(u, scale)?,
    ])
}

fn sample_args(u: &mut Unstructured<'_>, smp: &SamplerHeader) -> Result<SampleArgs> {
    let grad = |u: &mut Unstructured<'_>| -> Result<[[f32; 3]; 4]> {
        let g = [float(u, 64.0)?, float(u, 64.0)?, float(u, 64.0)?];
        Ok(if u.ratio(1u8, 3)? {
            [g, [float(u, 64.0)?; 3], g, g]
        } else {
            [g; 4]
        })
    };
    let lod = match u.int_in_range(0u8..=5)? {
        0 | 1 => Lod::Implicit,
        2 => Lod::Bias(lanes4(u, 1.0)?.map(|b| b * 4.0)),
        3 => Lod::Base,
        4 => Lod::Level(lanes4(u, 1.0)?.map(|l| l * 6.0)),
        _ => Lod::Grad {
            ddx: grad(u)?,
            ddy: grad(u)?,
        },
    };
    Ok(SampleArgs {
        lod,
        offset: [0, 1, 2].map(|_| pick(u, &[0, 0, 0, -8, 7, 3, -1]).unwrap_or(0)),
        dref: match smp.compare {
            Some(_) => Some(lanes4(u, 1.0)?),
            None => None,
        },
        ndv: u.ratio(1u8, 6)?,
        derivatives: pick(
            u,
            &[None, Some(Derivatives::Fine), Some(Derivatives::Coarse)],
        )?,
    })
}

fn gather_args(u: &mut Unstructured<'_>, smp: &SamplerHeader) -> Result<GatherArgs> {
    let off = |u: &mut Unstructured<'_>| -> Result<[i32; 2]> {
        Ok([u.int_in_range(-32..=31)?, u.int_in_range(-32..=31)?])
    };
    Ok(GatherArgs {
        component: u.int_in_range(0u8..=7)?,
        offsets: match u.int_in_range(0u8..=3)? {
            0 => GatherOffsets::Aoffi(off(u)?),
            1 => GatherOffsets::Ptp([off(u)?, off(u)?, off(u)?, off(u)?]),
            _ => GatherOffsets::None,
        },
        dref: match smp.compare {
            Some(_) => Some(lanes4(u, 1.0)?),
            None => None,
        },
        ndv: u.ratio(1u8, 6)?,
    })
}

fn fetch_args(u: &mut Unstructured<'_>, view: &TextureHeader) -> Result<FetchArgs> {
    let d = view.texture.desc();
    let coord = |u: &mut Unstructured<'_>, extent: u32| -> Result<i32> {
        Ok(match u.int_in_range(0u8..=9)? {
            0 => u.arbitrary()?,
            1 => -1,
            2 => extent as i32,
            _ => u.int_in_range(0..=extent as i32 - 1)?,
        })
    };
    let mut icoords = [[0i32; 4]; 4];
    for lane in &mut icoords {
        *lane = [
            coord(u, d.width)?,
            coord(u, d.height)?,
            coord(u, d.depth)?,
            coord(u, d.layers)?,
        ];
    }
    Ok(FetchArgs {
        icoords,
        level: [0; 4].map(|_: i32| pick(u, &[0, 0, 1, 2, -1, 40]).unwrap_or(0)),
        sample: [0; 4].map(|_: i32| pick(u, &[0, 1, 3, 7, -1, 8]).unwrap_or(0)),
        offset: [0, 1, 2].map(|_| pick(u, &[0, 0, -8, 7, 1]).unwrap_or(0)),
    })
}

fn run(u: &mut Unstructured<'_>, sampled: &mut bool) -> Result<()> {
    let Some(tex) = texture(u)? else {
        return Ok(());
    };
    let Some(view) = view(u, &tex)? else {
        return Ok(());
    };
    let profile = profile(u)?;
    let quads = quads(u, &view)?;

    // fetch: no sampler.
    let fa = fetch_args(u, &view)?;
    let mut fetcher = QuadFetcher::new(&view);
    for q in &quads {
        let running = q.running();
        let want = fetch_reference(&view, &fa, running);
        let ctx = (&view, &fa);
        check("fetch", &fetch(&view, &fa, running), &want, q, &ctx);
        check(
            "QuadFetcher::fetch",
            &fetcher.fetch(&fa, running),
            &want,
            q,
            &ctx,
        );
        check_rgba(
            "QuadFetcher::fetch_rgba",
            fetcher.fetch_rgba(&fa, running),
            &want,
            q,
            &ctx,
        );
    }
    *sampled = true;
    if view.kind.is_multisample() {
        return Ok(());
    }

    let Some(smp) = sampler(u, &view)? else {
        return Ok(());
    };
    let args = sample_args(u, &smp)?;
    let ctx = (&view, &smp, &profile, &args);
    let want: Vec<QuadResult> = quads
        .iter()
        .map(|q| reference::sample(&view, &smp, &profile, &args, q))
        .collect();
    let mut s = QuadSampler::new(&view, &smp, &profile);
    for (q, w) in quads.iter().zip(&want) {
        check("QuadSampler::sample", &s.sample(&args, q), w, q, &ctx);
        check_rgba(
            "QuadSampler::sample_rgba",
            s.sample_rgba(&args, q),
            w,
            q,
            &ctx,
        );
        let _ = query_lod(&view, &smp, &profile, &args, q);
    }
    for lanes in [4, 8, 16] {
        let mut got = vec![QuadResult::EMPTY; quads.len()];
        s.sample_quads_at_width(lanes, &args, &quads, &mut got);
        let mut rgba = vec![[[0.0f32; 4]; 4]; quads.len()];
        s.sample_quads_rgba_at_width(lanes, &args, &quads, &mut rgba);
        for (i, q) in quads.iter().enumerate() {
            check(
                &format!("sample_quads, {lanes} lanes, quad {i}"),
                &got[i],
                &want[i],
                q,
                &ctx,
            );
            check_rgba(
                &format!("sample_quads_rgba, {lanes} lanes, quad {i}"),
                rgba[i],
                &want[i],
                q,
                &ctx,
            );
        }
    }

    // The planar API on the same coordinates as full quads, at every SIMD
    // level this machine runs.
    let full: Vec<Quad> = quads.iter().map(|q| Quad::new(q.coords)).collect();
    let want_full: Vec<QuadResult> = full
        .iter()
        .map(|q| reference::sample(&view, &smp, &profile, &args, q))
        .collect();
    let plane =
        |k: usize| -> Vec<f32> { full.iter().flat_map(|q| q.coords.map(|c| c[k])).collect() };
    let (ps, pt, pr, pa) = (plane(0), plane(1), plane(2), plane(3));
    let coords = QuadCoords {
        s: &ps,
        t: &pt,
        r: &pr,
        a: &pa,
        dref: &[],
        lod: &[],
    };
    // `sample_planar` at every SIMD level this machine runs, each quad
    // against `want`.
    let planar =
        |s: &mut QuadSampler<'_>, what: &str, coords: &QuadCoords<'_>, want: &[QuadResult]| {
            for level in SimdLevel::ALL.into_iter().filter(|l| l.supported()) {
                let mut planes = [(); 4].map(|_| vec![f32::NAN; coords.s.len()]);
                let [r, g, b, a] = &mut planes;
                s.set_simd_level(level);
                s.sample_planar(&args, coords, &mut PlanarOut { r, g, b, a });
                for (i, q) in full.iter().enumerate() {
                    let got = [0, 1, 2, 3].map(|l| [0, 1, 2, 3].map(|c| planes[c][4 * i + l]));
                    check_rgba(
                        &format!("{what} at {level:?}, quad {i}"),
                        got,
                        &want[i],
                        q,
                        &ctx,
                    );
                }
            }
        };
    planar(&mut s, "sample_planar", &coords, &want_full);

    // A per-lane LOD operand plane (`QuadCoords::lod`) under a bias or an
    // explicit level: each quad as the reference with its own lanes'
    // operands in place of the args' pattern.
    let operand = match args.lod {
        Lod::Bias(_) => Some((Lod::Bias as fn([f32; 4]) -> Lod, 4.0)),
        Lod::Level(_) => Some((Lod::Level as fn([f32; 4]) -> Lod, 6.0)),
        _ => None,
    };
    if let Some((operand, scale)) = operand {
        let mut lod = Vec::with_capacity(ps.len());
        for _ in 0..full.len() {
            lod.extend(lanes4(u, 1.0)?.map(|v| v * scale));
        }
        let want: Vec<QuadResult> = full
            .iter()
            .enumerate()
            .map(|(i, q)| {
                let own = SampleArgs {
                    lod: operand([0, 1, 2, 3].map(|l| lod[4 * i + l])),
                    ..args
                };
                reference::sample(&view, &smp, &profile, &own, q)
            })
            .collect();
        let coords = QuadCoords {
            lod: &lod,
            ..coords
        };
        planar(&mut s, "sample_planar with a LOD plane", &coords, &want);
    }

    let ga = gather_args(u, &smp)?;
    let ctx = (&view, &smp, &profile, &ga);
    let want: Vec<QuadResult> = quads
        .iter()
        .map(|q| gather_reference(&view, &smp, &profile, &ga, q))
        .collect();
    for (q, w) in quads.iter().zip(&want) {
        check("QuadSampler::gather", &s.gather(&ga, q), w, q, &ctx);
    }
    for lanes in [4, 8, 16] {
        let mut got = vec![QuadResult::EMPTY; quads.len()];
        s.gather_quads_at_width(lanes, &ga, &quads, &mut got);
        for (i, q) in quads.iter().enumerate() {
            check(
                &format!("gather_quads, {lanes} lanes, quad {i}"),
                &got[i],
                &want[i],
                q,
                &ctx,
            );
        }
    }
    Ok(())
}
