//! A structured random twin run, the stable-toolchain form of the fuzzer
//! issue 9 asks for: random textures (every format, kind, layout, extents
//! down to 1x1 and not powers of two, partial mip chains), random views
//! of them, samplers (every filter, address mode, compare, reduction,
//! anisotropy up to 4096), profiles and quads (edge coordinates, partial
//! quads), and every SIMD path against its scalar twin bit for bit:
//! `QuadSampler::sample`, `sample_quads*` and `sample_quads_rgba*` at every
//! width against `reference::sample`, `gather` and `gather_quads*` against
//! `gather_reference`, `QuadFetcher` against `fetch_reference`, and
//! `query_lod` (no twin: it must not panic). Headers are not validated:
//! the twins must agree on every input.
//!
//! `QUADTEX_RANDOM_TWIN_CASES` sets the number of cases (default 3000;
//! each runs 4 quads through every path).

use std::sync::Arc;

use quadtex_format::{Layout, Texel, Texture, TextureDesc, TextureFormat, TextureKind as K};
use quadtex_sampler::fetch::fetch_reference;
use quadtex_sampler::gather::{gather_reference, GatherArgs, GatherOffsets};
use quadtex_sampler::profile::{
    AnisoLevels, Derivatives, FracRound, LayerRound, MipNearest, PartialQuad,
};
use quadtex_sampler::{
    query_lod, reference, AddressMode, BorderColor, CompareOp, FetchArgs, Filter, Lod, MipmapMode,
    Profile, Quad, QuadFetcher, QuadResult, QuadSampler, ReductionMode, SampleArgs, SamplerHeader,
    Swizzle, TextureHeader,
};

mod rng;
use rng::Rng;

fn extent(rng: &mut Rng) -> u32 {
    match rng.below(4) {
        0 => 1,
        1 => 1 << rng.below(6),
        _ => 1 + rng.below(40) as u32,
    }
}

/// Formats the batched kernels decode on all lanes or per lane.
const BATCHED_FORMATS: &[TextureFormat] = &[
    TextureFormat::Rgba8Unorm,
    TextureFormat::Bgra8Srgb,
    TextureFormat::Rgba16Float,
    TextureFormat::R32Float,
    TextureFormat::Bc1RgbaUnorm,
    TextureFormat::Astc6x6Srgb,
    TextureFormat::Astc10x5Unorm,
    TextureFormat::Depth16Unorm,
    TextureFormat::Depth24UnormX8,
    TextureFormat::Depth32Float,
    TextureFormat::Rg8Snorm,
];

/// A random texture, or `None` where the description is impossible.
/// `batchable`: 2D, 2D-array and cube textures of formats the batched
/// kernels take, so that a good share of cases runs them.
fn texture(rng: &mut Rng, batchable: bool) -> Option<Arc<Texture>> {
    let format = if batchable {
        rng.pick(BATCHED_FORMATS)
    } else {
        rng.pick(TextureFormat::ALL)
    };
    let kind = if batchable {
        rng.pick(&[K::D2, K::D2Array, K::Cube])
    } else {
        rng.pick(&[
            K::D1,
            K::D1Array,
            K::D2,
            K::D2,
            K::D2Array,
            K::D2Array,
            K::D3,
            K::Cube,
            K::CubeArray,
            K::D2Ms,
        ])
    };
    let (w, h) = (extent(rng), extent(rng));
    let mut desc = match kind {
        K::Cube => TextureDesc::cube(format, w),
        K::CubeArray => TextureDesc::cube(format, w).with_layers(K::CubeArray, 12),
        K::D3 => TextureDesc::d3(format, w, h, 1 + rng.below(5) as u32),
        K::D1 | K::D1Array => {
            let mut d = TextureDesc::d2(format, w, 1);
            d.kind = K::D1;
            d
        }
        K::D2Ms => TextureDesc::d2_ms(format, w, h, rng.pick(&[2, 4])),
        _ => TextureDesc::d2(format, w, h),
    };
    if matches!(kind, K::D1Array | K::D2Array) {
        desc = desc.with_layers(kind, 1 + rng.below(4) as u32);
    }
    if kind != K::D2Ms {
        desc.levels = desc.max_levels();
        if rng.one_in(3) {
            desc.levels = 1 + rng.below(u64::from(desc.levels)) as u32;
        }
    }
    desc.validate().ok()?;
    let n = usize::try_from(desc.total_bytes()?).ok()?;
    if n > 1 << 20 {
        return None;
    }
    let bytes: Vec<u8> = (0..n).map(|_| rng.u() as u8).collect();
    let layout = rng.pick(&[Layout::Linear, Layout::Tiled]);
    Texture::from_linear_bytes(desc, layout, &bytes)
        .ok()
        .map(Arc::new)
}

fn view(tex: &Arc<Texture>, rng: &mut Rng) -> TextureHeader {
    let d = *tex.desc();
    let mut v = TextureHeader::new(tex.clone());
    if d.levels > 1 && rng.one_in(3) {
        v.base_level = rng.below(u64::from(d.levels)) as u32;
        v.level_count = 1 + rng.below(u64::from(d.levels - v.base_level)) as u32;
    }
    match d.kind {
        K::D2Array | K::Cube | K::CubeArray if rng.one_in(3) => {
            v.kind = K::D2Array;
            v.base_layer = rng.below(u64::from(d.layers)) as u32;
            v.layer_count = 1 + rng.below(u64::from(d.layers - v.base_layer)) as u32;
            if rng.one_in(2) {
                v.kind = K::D2;
                v.layer_count = 1;
            }
        }
        K::D1Array if rng.one_in(3) => {
            v.kind = K::D1;
            v.base_layer = rng.below(u64::from(d.layers)) as u32;
            v.layer_count = 1;
        }
        _ => {}
    }
    if rng.one_in(3) {
        let s = [
            Swizzle::R,
            Swizzle::G,
            Swizzle::B,
            Swizzle::A,
            Swizzle::Zero,
            Swizzle::One,
        ];
        v.swizzle = [0; 4].map(|_| rng.pick(&s));
    }
    if rng.one_in(5) {
        v.min_lod_clamp = rng.pick(&[0.5, 1.0, 2.7, 100.0]);
    }
    v.srgb_decode = !rng.one_in(6);
    // Now and then a header that `validate` rejects.
    if rng.one_in(40) {
        match rng.below(3) {
            0 => v.level_count = 0,
            1 => v.base_level = d.levels,
            _ => v.layer_count += 1,
        }
    }
    v
}

fn sampler(rng: &mut Rng, batchable: bool) -> SamplerHeader {
    let filters = [Filter::Nearest, Filter::Linear];
    let modes = [
        AddressMode::Repeat,
        AddressMode::MirroredRepeat,
        AddressMode::ClampToEdge,
        AddressMode::ClampToBorder,
        AddressMode::MirrorClampToEdge,
        AddressMode::ClampOgl,
    ];
    let ops = [
        CompareOp::Never,
        CompareOp::Less,
        CompareOp::Equal,
        CompareOp::LessOrEqual,
        CompareOp::Greater,
        CompareOp::NotEqual,
        CompareOp::GreaterOrEqual,
        CompareOp::Always,
    ];
    let uniform_address = batchable || rng.one_in(2);
    let a0 = if batchable {
        rng.pick(&[AddressMode::Repeat, AddressMode::ClampToEdge])
    } else {
        rng.pick(&modes)
    };
    let s = SamplerHeader {
        mag_filter: rng.pick(&filters),
        min_filter: rng.pick(&filters),
        mipmap_mode: rng.pick(&[MipmapMode::None, MipmapMode::Nearest, MipmapMode::Linear]),
        address: if uniform_address {
            [a0; 3]
        } else {
            [0; 3].map(|_| rng.pick(&modes))
        },
        border_color: rng.pick(&[
            BorderColor::FloatTransparentBlack,
            BorderColor::FloatOpaqueWhite,
            BorderColor::IntOpaqueBlack,
            BorderColor::Float([0.25, -0.5, 2.0, f32::NAN]),
            BorderColor::Int([7, u32::MAX, 0, 1]),
        ]),
        mip_lod_bias: rng.pick(&[0.0, 0.0, 0.75, -1.5, 20.0]),
        min_lod: rng.pick(&[0.0, 0.0, 0.5, 3.7, -2.0]),
        max_lod: rng.pick(&[1000.0, 1000.0, 2.25, 0.0]),
        max_anisotropy: rng.pick(&[1.0, 1.0, 2.0, 4.0, 16.0, 4096.0, f32::INFINITY]),
        compare: rng.one_in(3).then(|| rng.pick(&ops)),
        unnormalized: rng.one_in(20),
        seamless_cube: !rng.one_in(4),
        reduction: rng.pick(&[
            ReductionMode::WeightedAverage,
            ReductionMode::WeightedAverage,
            ReductionMode::Min,
            ReductionMode::Max,
        ]),
    };
    if batchable {
        SamplerHeader {
            unnormalized: false,
            reduction: ReductionMode::WeightedAverage,
            ..s
        }
    } else {
        s
    }
}

fn profile(rng: &mut Rng) -> Profile {
    let mut p = rng.pick(&[
        Profile::VULKAN,
        Profile::NV_SASS,
        Profile::PTX,
        Profile::D3D11,
    ]);
    if rng.one_in(3) {
        p.lod_frac_bits = rng.pick(&[None, Some(0), Some(1), Some(8), Some(23), Some(31)]);
        p.weight_frac_bits = rng.pick(&[None, Some(0), Some(4), Some(8), Some(31)]);
        p.frac_round = rng.pick(&[FracRound::Truncate, FracRound::Rne]);
        p.layer_round = rng.pick(&[LayerRound::Rne, LayerRound::FloorHalf]);
        p.aniso_levels = rng.pick(&[AnisoLevels::Continuous, AnisoLevels::Tsc]);
        p.derivatives = rng.pick(&[Derivatives::Fine, Derivatives::Coarse]);
        p.partial_quad = rng.pick(&[
            PartialQuad::Undefined,
            PartialQuad::Zero,
            PartialQuad::Infinity,
        ]);
        p.mip_nearest = rng.pick(&[MipNearest::CeilMinusOne, MipNearest::FloorHalf]);
        p.max_lod_bias = rng.pick(&[0.0, 2.0, 15.0, f32::INFINITY]);
        p.srgb_border_quantized = rng.one_in(2);
    }
    // Now and then one `Profile::validate` rejects.
    if rng.one_in(30) {
        match rng.below(3) {
            0 => p.max_lod_bias = rng.pick(&[f32::NAN, -1.0]),
            1 => p.lod_frac_bits = Some(rng.pick(&[32, 40, 255])),
            _ => p.weight_frac_bits = Some(rng.pick(&[32, 64, 200])),
        }
    }
    p
}

fn coord(rng: &mut Rng) -> f32 {
    match rng.below(12) {
        0 => rng.pick(&[0.0, 0.5, 1.0, -0.5, -0.0, 1.5, 0.9375, 0.875]),
        1 => rng.pick(&[
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e30,
            -1e30,
            f32::from_bits(1),
            3e7,
        ]),
        2 => (rng.f() - 0.5) * 200.0,
        _ => rng.f() * 1.4 - 0.2,
    }
}

/// `Q` quads: mostly tiles of neighbouring quads (so batches form), some
/// edge coordinates.
fn quads(rng: &mut Rng, cube: bool, full: bool) -> Vec<Quad> {
    let base = [
        coord(rng),
        coord(rng),
        coord(rng),
        rng.pick(&[0.0, 1.0, 1.6, 5.0, -1.0]),
    ];
    let base = if cube {
        let mut b = [
            rng.f() * 2.0 - 1.0,
            rng.f() * 2.0 - 1.0,
            rng.f() * 2.0 - 1.0,
            base[3],
        ];
        b[rng.below(3) as usize] = rng.pick(&[1.0, -1.0]);
        b
    } else {
        base
    };
    let step = rng.pick(&[0.0, 1e-4, 0.01, 0.05, 0.3]);
    let stretch = rng.pick(&[1.0, 1.0, 8.0, 100.0]);
    (0..4)
        .map(|q| {
            let mut coords = [0, 1, 2, 3].map(|l| {
                let x = (2 * q + (l & 1)) as f32 * step;
                let y = (l >> 1) as f32 * step * stretch;
                [base[0] + x, base[1] + y, base[2] + 0.5 * x, base[3]]
            });
            if rng.one_in(6) {
                coords[rng.below(4) as usize][rng.below(4) as usize] = coord(rng);
            }
            if full {
                return Quad::new(coords);
            }
            Quad {
                coords,
                active: rng.pick(&[0xf, 0xf, 0xf, 0xf, 0x7, 0x1, 0x0]),
                helper: rng.pick(&[0, 0, 0, 0x8]),
            }
        })
        .collect()
}

fn args(rng: &mut Rng, compare: bool) -> SampleArgs {
    let lod = match rng.below(6) {
        0 | 1 => Lod::Implicit,
        2 => Lod::Bias([0; 4].map(|_| rng.f() * 6.0 - 3.0)),
        3 => Lod::Base,
        4 => Lod::Level([0; 4].map(|_| rng.pick(&[0.0, 0.5, 1.25, 3.7, 20.0, -1.0, f32::NAN]))),
        _ => {
            let g = rng.pick(&[0.001, 0.02, 0.3, 5.0]);
            let r = rng.pick(&[1.0, 10.0, 100.0]);
            Lod::Grad {
                ddx: [[g, 0.0, 0.0]; 4],
                ddy: [[0.0, g * r, 0.0]; 4],
            }
        }
    };
    SampleArgs {
        lod,
        offset: [0; 3].map(|_| rng.pick(&[0, 0, 0, -8, 7, 3, -1])),
        dref: (compare || rng.one_in(10))
            .then(|| [0; 4].map(|_| rng.pick(&[0.5, 0.25, -0.5, 1.5, 0.0, 1.0, f32::NAN, 0.75]))),
        ndv: rng.one_in(8),
        derivatives: rng
            .one_in(2)
            .then(|| rng.pick(&[Derivatives::Fine, Derivatives::Coarse])),
    }
}

/// Bitwise equality of texels (NaN equal to NaN) and residency.
fn same(a: &QuadResult, b: &QuadResult) -> bool {
    (0..4).all(|l| {
        a.resident[l] == b.resident[l]
            && match (a.texels[l], b.texels[l]) {
                (Some(x), Some(y)) => same_texel(x, y),
                (x, y) => x == y,
            }
    })
}

fn same_texel(x: Texel, y: Texel) -> bool {
    match (x, y) {
        (Texel::Float(x), Texel::Float(y)) => x
            .iter()
            .zip(y)
            .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())),
        _ => x == y,
    }
}

fn same_f32(x: [f32; 4], y: [f32; 4]) -> bool {
    x.iter()
        .zip(y)
        .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan()))
}

#[test]
fn every_simd_path_matches_its_scalar_twin_on_random_inputs() {
    let cases: usize = std::env::var("QUADTEX_RANDOM_TWIN_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let seed: u64 = std::env::var("QUADTEX_RANDOM_TWIN_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_0009_7a11_0001);
    let mut rng = Rng(seed | 1);
    let (mut done, mut batched) = (0usize, 0usize);
    while done < cases {
        // Half the cases lean to what the batched kernels take.
        let batchable = rng.one_in(2);
        let Some(tex) = texture(&mut rng, batchable) else {
            continue;
        };
        let v = view(&tex, &mut rng);
        let mut s = sampler(&mut rng, batchable);
        if batchable && tex.format().has_depth() {
            s.compare.get_or_insert(CompareOp::Less);
        }
        let p = profile(&mut rng);
        let a = args(&mut rng, s.compare.is_some());
        let full = batchable && !rng.one_in(4);
        let qs = quads(&mut rng, v.kind.is_cube(), full);
        let case = || {
            format!(
                "{} {:?} view {:?} levels {}+{} layers {}+{} {:?} srgb {}\n{s:?}\n{p:?}\n{a:?}",
                v.format(),
                tex.desc(),
                v.kind,
                v.base_level,
                v.level_count,
                v.base_layer,
                v.layer_count,
                v.swizzle,
                v.srgb_decode
            )
        };
        // sample
        let want: Vec<QuadResult> = qs
            .iter()
            .map(|q| reference::sample(&v, &s, &p, &a, q))
            .collect();
        let mut one = QuadSampler::new(&v, &s, &p);
        for (q, w) in qs.iter().zip(&want) {
            let g = one.sample(&a, q);
            assert!(
                same(&g, w),
                "sample\n{}\n{q:?}\ngot {g:?}\nwant {w:?}",
                case()
            );
        }
        for lanes in [4, 8, 16] {
            let mut qsmp = QuadSampler::new(&v, &s, &p);
            let mut got = vec![QuadResult::EMPTY; qs.len()];
            batched += qsmp.sample_quads_at_width(lanes, &a, &qs, &mut got);
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    same(g, w),
                    "sample_quads {lanes}\n{}\n{:?}\ngot {g:?}\nwant {w:?}",
                    case(),
                    qs[i]
                );
            }
            let mut rgba = vec![[[0.0f32; 4]; 4]; qs.len()];
            qsmp.sample_quads_rgba_at_width(lanes, &a, &qs, &mut rgba);
            for (i, (g, w)) in rgba.iter().zip(&want).enumerate() {
                for (l, (gl, wl)) in g.iter().zip(&w.texels).enumerate() {
                    let r = wl.map_or([0.0; 4], Texel::to_f32);
                    assert!(
                        same_f32(*gl, r),
                        "sample_quads_rgba {lanes} lane {l}\n{}\n{:?}\ngot {gl:?}\nwant {r:?}",
                        case(),
                        qs[i]
                    );
                }
            }
        }
        // gather
        let ga = GatherArgs {
            component: rng.below(4) as u8,
            offsets: match rng.below(3) {
                0 => GatherOffsets::Aoffi([rng.pick(&[-8, 7, 3, 0]), rng.pick(&[-32, 31, 0])]),
                1 => GatherOffsets::Ptp([0; 4].map(|_| [rng.pick(&[-1, 0, 2]), rng.pick(&[1, 0])])),
                _ => GatherOffsets::None,
            },
            dref: a.dref,
            ndv: a.ndv,
        };
        let want: Vec<QuadResult> = qs
            .iter()
            .map(|q| gather_reference(&v, &s, &p, &ga, q))
            .collect();
        for (q, w) in qs.iter().zip(&want) {
            let g = one.gather(&ga, q);
            assert!(
                same(&g, w),
                "gather\n{}\n{ga:?}\n{q:?}\ngot {g:?}\nwant {w:?}",
                case()
            );
        }
        for lanes in [4, 8, 16] {
            let mut qsmp = QuadSampler::new(&v, &s, &p);
            let mut got = vec![QuadResult::EMPTY; qs.len()];
            batched += qsmp.gather_quads_at_width(lanes, &ga, &qs, &mut got);
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    same(g, w),
                    "gather_quads {lanes}\n{}\n{ga:?}\n{:?}\ngot {g:?}\nwant {w:?}",
                    case(),
                    qs[i]
                );
            }
        }
        // query_lod: no twin, defined results.
        for q in &qs {
            let _ = query_lod(&v, &s, &p, &a, q);
        }
        // fetch
        let d = tex.desc();
        let icoord = |rng: &mut Rng, n: u32| match rng.below(5) {
            0 => rng.pick(&[-1, i32::MIN, i32::MAX, n as i32, n as i32 - 1]),
            _ => rng.below(u64::from(n)) as i32,
        };
        let fa = FetchArgs {
            icoords: [0; 4].map(|_| {
                [
                    icoord(&mut rng, d.width),
                    icoord(&mut rng, d.height),
                    icoord(&mut rng, d.depth),
                    icoord(&mut rng, d.layers),
                ]
            }),
            level: [0; 4].map(|_| icoord(&mut rng, d.levels)),
            sample: [0; 4].map(|_| icoord(&mut rng, d.samples)),
            offset: [0; 3].map(|_| rng.pick(&[0, 0, -8, 7])),
        };
        let running = rng.pick(&[0xf, 0x5, 0x0]);
        let w = fetch_reference(&v, &fa, running);
        let g = QuadFetcher::new(&v).fetch(&fa, running);
        assert!(
            same(&g, &w),
            "fetch\n{}\n{fa:?}\ngot {g:?}\nwant {w:?}",
            case()
        );
        done += 1;
    }
    // Quads through the batched kernels (each case runs 24: 4 quads at 3
    // widths for sample and gather): a real share, not a handful.
    assert!(
        batched * 8 > done * 24,
        "{batched} of {} quads batched",
        done * 24
    );
}
