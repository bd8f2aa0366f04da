//! The planar kernel (`QuadSampler::sample_planar`) against the scalar
//! reference, bit for bit, at every SIMD level this machine runs: seeded
//! random 8-bit RGBA/BGRA UNORM and sRGB textures, D32F, D16 and D24
//! (padding and stencil bits set) depth textures under every compare op
//! (references in and out of [0, 1], NaN),
//! R32F and RGBA16F textures of random bits (negative, -0, infinite and
//! NaN texels), depth read without a compare, BC1/BC3/BC7/ETC2 blocks of
//! random bits (read through their RGBA8 mirror), other formats of random
//! bits (R8, RG8 SNORM and sRGB, A8, R16, RGBA16 SNORM, RG16F, RGBA32F,
//! B5G6R5, A2B10G10R10, E5B9G9R9) (2D and 2D arrays,
//! linear and tiled, power-of-two and other extents), every filter and
//! mipmap mode, `repeat`, `mirrored_repeat`, `clamp_to_edge`,
//! `mirror_clamp_to_edge` and `clamp_to_border` (border colours
//! negative, -0, NaN and infinite among them), views with a base level,
//! fewer levels, a min LOD and swizzles, sampler biases and LOD clamps,
//! anisotropic footprints (maximum anisotropy up to 16, stretched
//! mappings up to 100:1), texel offsets, implicit LODs from coarse, fine and the profile's
//! default derivatives (with bent mappings, so fine and coarse differ),
//! base LODs, explicit lambdas, shader biases and gradients per lane (NaN
//! and infinities among them), all four profiles (f32
//! and 8-bit fixed-point weights and LOD fractions), magnified to heavily
//! minified quads, and lanes with NaN, infinite and huge coordinates (the
//! kernel hands those groups back).

use std::sync::Arc;

use quadtex_format::{Layout, Texel, Texture, TextureDesc, TextureFormat as F, TextureKind as K};
use quadtex_sampler::gather::gather_reference;
use quadtex_sampler::profile::{Derivatives, MipNearest};
use quadtex_sampler::{
    integer_filtering, reference, AddressMode, BorderColor, CompareOp, Filter, GatherArgs,
    GatherOffsets, Lod, MipmapMode, PlanarOut, Profile, Quad, QuadCoords, QuadSampler, SampleArgs,
    SamplerHeader, SimdLevel, Swizzle, TextureHeader,
};

mod rng;
use rng::Rng;

/// D32F texel values of the depth cases.
const DEPTHS: [f32; 6] = [0.0, 0.25, 0.5, 0.75, 1.0, f32::NAN];

/// D16 texel codes of the depth cases.
const D16_CODES: [u16; 5] = [0, 16_384, 21_845, 43_690, 65_535];

/// The planar output over four planes of `o`, one per channel.
fn planes(o: &mut [Vec<f32>; 4]) -> PlanarOut<'_> {
    let [r, g, b, a] = o;
    PlanarOut { r, g, b, a }
}

/// The levels this machine runs.
fn levels() -> Vec<SimdLevel> {
    SimdLevel::ALL
        .into_iter()
        .filter(|l| l.supported())
        .collect()
}

/// One random configuration: view, sampler, profile, args and `n` quads.
struct Case {
    view: TextureHeader,
    smp: SamplerHeader,
    profile: Profile,
    args: SampleArgs,
    quads: Vec<Quad>,
}

fn random_case(rng: &mut Rng, n: usize) -> Case {
    random_view_case(rng, n, Family::Plain)
}

/// Which family of cases [`random_view_case`] draws.
#[derive(Clone, Copy, PartialEq)]
enum Family {
    /// 2D and 2D-array views of every format the kernel takes, every
    /// profile.
    Plain,
    /// Cubes and cube arrays.
    Cube,
    /// Integer filtering: RGBA8 / BGRA8 UNORM under the 8-bit profiles
    /// (`NV_SASS`, `D3D11`), anisotropy off.
    Int8,
    /// Integer filtering of the kernel's own copies for it: `NV_SASS`
    /// (8 truncated fraction bits) or `D3D11` (8 rounded ones), 2D views
    /// (no array) in the linear
    /// layout with power-of-two sizes, `repeat` both ways, linear filters
    /// both ways, a nearest or linear mipmap, the LOD from coarse
    /// derivatives with or without a bias.
    Int8Linear,
}

/// As [`random_case`], on a cube (or an array of two cubes) when `cube`:
/// square faces, quads of directions around a random one (on a face,
/// near an edge or a corner, ties between axes), seamless or not.
fn random_view_case(rng: &mut Rng, n: usize, family: Family) -> Case {
    let cube = family == Family::Cube;
    let int8 = matches!(family, Family::Int8 | Family::Int8Linear);
    let linear_int = family == Family::Int8Linear;
    let format = if int8 {
        rng.pick(&[F::Rgba8Unorm, F::Bgra8Unorm])
    } else {
        rng.pick(&[
            F::Rgba8Unorm,
            F::Rgba8Srgb,
            F::Bgra8Unorm,
            F::Bgra8Srgb,
            F::Depth32Float,
            F::Depth16Unorm,
            F::Depth24UnormX8,
            F::Depth24UnormS8Uint,
            F::R32Float,
            F::Rgba16Float,
            // Block formats read through their RGBA8 mirror.
            F::Bc1RgbUnorm,
            F::Bc3Unorm,
            F::Bc7Srgb,
            F::Etc2Rgba8Unorm,
            // Other formats (`TexelKind::Any`): channels decoded on all
            // lanes (8-, 16- and 32-bit arrays of every numeric class the
            // kernel filters, packed UNORM words), and one decoded lane by
            // lane (the shared exponent).
            F::R8Unorm,
            F::Rg8Snorm,
            F::Rg8Srgb,
            F::A8Unorm,
            F::R16Unorm,
            F::Rgba16Snorm,
            F::Rg16Float,
            F::Rgba32Float,
            F::B5g6r5Unorm,
            F::A2bgr10Unorm,
            F::Rgb9e5Ufloat,
        ])
    };
    // Depth views mostly with a compare; one in four read plain depth.
    let depth = matches!(
        format,
        F::Depth32Float | F::Depth16Unorm | F::Depth24UnormX8 | F::Depth24UnormS8Uint
    ) && !rng.one_in(4);
    let array = rng.one_in(3) && !linear_int;
    let address = rng.pick(&[
        AddressMode::Repeat,
        AddressMode::ClampToEdge,
        AddressMode::Repeat,
        AddressMode::ClampToEdge,
        AddressMode::MirroredRepeat,
        AddressMode::MirrorClampToEdge,
        // Integer filtering reads no border colour.
        if int8 {
            AddressMode::Repeat
        } else {
            AddressMode::ClampToBorder
        },
    ]);
    let (w, h) = if cube {
        // (Faces of 3 and 20 texels: `repeat` and `mirrored_repeat` on
        // faces that are not a power of two, without seamless filtering.)
        let size = rng.pick(&[1u32, 2, 4, 16, 64, 256, 3, 20]);
        (size, size)
    } else if rng.one_in(2) || linear_int {
        (
            rng.pick(&[1u32, 2, 4, 16, 64, 256]),
            rng.pick(&[1u32, 8, 32, 128]),
        )
    } else {
        // Sizes that are not a power of two, on one axis or both, with
        // every address mode (`repeat` and `mirrored_repeat` take a
        // remainder there).
        (
            rng.pick(&[3u32, 5, 17, 100, 64]),
            rng.pick(&[7u32, 9, 33, 32]),
        )
    };
    let mut desc = TextureDesc::d2(format, w, h);
    if cube {
        desc = TextureDesc::cube(format, w);
        if array {
            desc = desc.with_layers(K::CubeArray, 12);
        }
    } else if array {
        desc = desc.with_layers(K::D2Array, 3);
    }
    let layout = if linear_int {
        Layout::Linear
    } else {
        rng.pick(&[Layout::Linear, Layout::Tiled])
    };
    let size = desc.total_bytes().unwrap() as usize;
    let bytes: Vec<u8> = match format {
        // Depth texels from a few values the references below hit exactly
        // (so `<` and `<=` differ), NaN among them for D32F.
        F::Depth32Float => (0..size / 4)
            .flat_map(|_| rng.pick(&DEPTHS).to_le_bytes())
            .collect(),
        F::Depth16Unorm => (0..size / 2)
            .flat_map(|_| rng.pick(&D16_CODES).to_le_bytes())
            .collect(),
        // D24 codes with random bits above (X8 padding, or stencil).
        F::Depth24UnormX8 | F::Depth24UnormS8Uint => (0..size / 4)
            .flat_map(|_| {
                let code = rng.pick(&[0u32, 0x40_0000, 0x80_0000, 0xc0_0000, 0xff_ffff]);
                (code | ((rng.u() as u32) << 24)).to_le_bytes()
            })
            .collect(),
        _ => (0..size).map(|_| rng.u() as u8).collect(),
    };
    let tex = Arc::new(Texture::from_linear_bytes(desc, layout, &bytes).unwrap());
    let mut view = TextureHeader::new(tex);
    let levels = view.texture.desc().levels;
    if rng.one_in(4) && levels > 1 {
        view.base_level = (rng.u() % u64::from(levels)) as u32;
        view.level_count = 1 + (rng.u() % u64::from(levels - view.base_level)) as u32;
    }
    if rng.one_in(5) {
        view.min_lod_clamp = rng.f() * 3.0;
    }
    if rng.one_in(5) {
        view.swizzle = [0; 4].map(|_| {
            rng.pick(&[
                Swizzle::R,
                Swizzle::G,
                Swizzle::B,
                Swizzle::A,
                Swizzle::Zero,
                Swizzle::One,
            ])
        });
    }
    if rng.one_in(6) {
        view.srgb_decode = false;
    }
    let filter = |rng: &mut Rng| rng.pick(&[Filter::Nearest, Filter::Linear]);
    let smp = SamplerHeader {
        mag_filter: filter(rng),
        min_filter: filter(rng),
        mipmap_mode: rng.pick(&[MipmapMode::None, MipmapMode::Nearest, MipmapMode::Linear]),
        address: [
            address,
            rng.pick(&[address, AddressMode::ClampToEdge]),
            address,
        ],
        mip_lod_bias: if rng.one_in(3) {
            rng.f() * 4.0 - 2.0
        } else {
            0.0
        },
        min_lod: if rng.one_in(4) { rng.f() * 2.0 } else { 0.0 },
        max_anisotropy: if rng.one_in(3) {
            rng.pick(&[1.5f32, 2.0, 3.5, 4.0, 8.0, 16.0])
        } else {
            1.0
        },
        max_lod: if rng.one_in(4) {
            1.0 + rng.f() * 4.0
        } else {
            1000.0
        },
        compare: depth.then(|| {
            rng.pick(&[
                CompareOp::Never,
                CompareOp::Less,
                CompareOp::Equal,
                CompareOp::LessOrEqual,
                CompareOp::Greater,
                CompareOp::NotEqual,
                CompareOp::GreaterOrEqual,
                CompareOp::Always,
            ])
        }),
        ..Default::default()
    };
    let smp = SamplerHeader {
        border_color: match rng.u() % 5 {
            0 => BorderColor::FloatOpaqueWhite,
            1 => BorderColor::FloatOpaqueBlack,
            2 => BorderColor::FloatTransparentBlack,
            _ => BorderColor::Float([0; 4].map(|_| {
                rng.pick(&[0.25f32, 0.5, 1.0, -0.0, -0.75, 2.5, f32::NAN, f32::INFINITY])
            })),
        },
        ..smp
    };
    let profile = rng.pick(&[
        Profile::VULKAN,
        Profile::NV_SASS,
        Profile::PTX,
        Profile::D3D11,
    ]);
    let (smp, profile) = if family == Family::Int8 {
        let smp = SamplerHeader {
            max_anisotropy: 1.0,
            ..smp
        };
        (smp, rng.pick(&[Profile::NV_SASS, Profile::D3D11]))
    } else if linear_int {
        let smp = SamplerHeader {
            max_anisotropy: 1.0,
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            mipmap_mode: rng.pick(&[MipmapMode::Nearest, MipmapMode::Linear]),
            address: [AddressMode::Repeat; 3],
            ..smp
        };
        (smp, rng.pick(&[Profile::NV_SASS, Profile::D3D11]))
    } else {
        (smp, profile)
    };
    let args = SampleArgs {
        lod: match rng.u() % 10 {
            0 => Lod::Base,
            1 => Lod::Level([0; 4].map(|_| match rng.u() % 8 {
                0 => rng.pick(&[f32::NAN, f32::INFINITY, -f32::INFINITY, -0.0]),
                _ => rng.f() * 12.0 - 3.0,
            })),
            2 => Lod::Bias([0; 4].map(|_| match rng.u() % 8 {
                0 => rng.pick(&[f32::NAN, 100.0, -100.0]),
                _ => rng.f() * 6.0 - 3.0,
            })),
            3 => {
                // Per-lane gradients from magnified to minified, stretched
                // or not, now and then zero or not finite.
                let mut d = || match rng.u() % 16 {
                    0 => rng.pick(&[0.0, f32::NAN, f32::INFINITY]),
                    _ => (rng.f() - 0.5) * rng.pick(&[0.001f32, 0.02, 0.1, 0.5]),
                };
                let ddx = [0; 4].map(|_| [d(), d(), 0.0]);
                let ddy = [0; 4].map(|_| [d(), d(), 0.0]);
                Lod::Grad { ddx, ddy }
            }
            _ => Lod::Implicit,
        },
        derivatives: rng.pick(&[Some(Derivatives::Coarse), Some(Derivatives::Fine), None]),
        offset: if rng.one_in(4) {
            [(rng.u() % 16) as i32 - 8, (rng.u() % 16) as i32 - 8, 0]
        } else {
            [0; 3]
        },
        dref: depth.then(|| {
            [0; 4].map(|_| match rng.u() % 3 {
                0 => rng.pick(&DEPTHS),
                1 => f32::from(rng.pick(&D16_CODES)) / 65_535.0,
                _ => rng.pick(&[-0.5f32, 1.5, f32::INFINITY]),
            })
        }),
        ..Default::default()
    };
    // The integer copies' calls: the LOD from the quad's derivatives,
    // coarse (the 8-bit profiles' own), biased or not.
    let args = if linear_int {
        SampleArgs {
            lod: match args.lod {
                Lod::Bias(b) => Lod::Bias(b),
                _ => Lod::Implicit,
            },
            derivatives: rng.pick(&[Some(Derivatives::Coarse), None]),
            ..args
        }
    } else {
        args
    };
    // A screen region mapped with a random scale (magnified to 64:1
    // minified), rotation and origin.
    let scale = rng.pick(&[0.05f32, 0.3, 0.9, 1.0, 1.7, 4.0, 13.0, 64.0]) / w as f32;
    let (c, s) = {
        let a = rng.f() * 6.3;
        (a.cos(), a.sin())
    };
    let (u0, v0) = (rng.f() * 4.0 - 2.0, rng.f() * 4.0 - 2.0);
    // A bend (a quadratic term, as perspective gives) so that the fine
    // derivatives of a quad's two rows and columns differ.
    let bend = if rng.one_in(2) { rng.f() * 0.2 } else { 0.0 };
    // The second axis's share of the first's scale: up to 16:1 footprints.
    let stretch = rng.pick(&[0.7f32, 0.7, 0.3, 0.0625, 0.01]);
    let side = (n as f32).sqrt().ceil() as usize;
    let mut quads = Vec::with_capacity(n);
    for k in 0..n {
        let (qx, qy) = ((k % side) as f32, (k / side) as f32);
        let layer = rng.pick(&[0.0f32, 0.4, 0.5, 1.5, 2.6, 7.0, -1.0]);
        let mut q = Quad::new([0, 1, 2, 3].map(|l| {
            let x = 2.0 * qx + (l & 1) as f32;
            let y = 2.0 * qy + (l >> 1) as f32;
            let k = 1.0 + bend * (x * y) / (1.0 + x * y);
            [
                u0 + (c * x - s * y) * scale * k,
                v0 + (s * x + c * y) * scale * stretch * k,
                0.0,
                layer,
            ]
        }));
        if rng.one_in(97) {
            let lane = (rng.u() % 4) as usize;
            q.coords[lane][(rng.u() % 2) as usize] =
                rng.pick(&[f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 3.0e7, -1.0e9]);
        }
        quads.push(q);
    }
    if cube {
        // Directions: a centre (on a face, or with two or three axes of
        // equal size: an edge, a corner) plus the lanes' offsets along two
        // random axes; quads in rows as above.
        let mut centre = [0; 3].map(|_| rng.f() * 2.0 - 1.0);
        match rng.u() % 4 {
            0 => centre[1] = centre[0].abs() * rng.pick(&[1.0f32, -1.0]),
            1 => centre = [1.0, -1.0, 1.0].map(|v| v * rng.pick(&[1.0f32, -1.0])),
            _ => centre[(rng.u() % 3) as usize] = rng.pick(&[1.0f32, -1.0]),
        }
        let axis = |rng: &mut Rng| [0; 3].map(|_| rng.f() * 2.0 - 1.0);
        let (ex, ey) = (axis(rng), axis(rng));
        let scale = scale * 2.0;
        for (k, q) in quads.iter_mut().enumerate() {
            let (qx, qy) = ((k % side) as f32, (k / side) as f32);
            let layer = q.coords[0][3];
            let nan = q
                .coords
                .iter()
                .any(|c| !c[0].is_finite() || !c[1].is_finite());
            *q = Quad::new([0, 1, 2, 3].map(|l| {
                let x = (2.0 * qx + (l & 1) as f32) * scale;
                let y = (2.0 * qy + (l >> 1) as f32) * scale * stretch;
                [0, 1, 2]
                    .map(|a| centre[a] + x * ex[a] + y * ey[a])
                    .into_iter()
                    .chain([layer])
                    .collect::<Vec<_>>()
                    .try_into()
                    .unwrap()
            }));
            if nan {
                q.coords[0][2] = f32::NAN;
            }
        }
    }
    Case {
        view,
        smp,
        profile,
        args,
        quads,
    }
}

/// Runs `case` through the planar kernel at `level` and compares every
/// lane with the reference; returns how many quads the kernel took.
fn check(case: &Case, level: SimdLevel, want: &[[[f32; 4]; 4]]) -> usize {
    let n = case.quads.len();
    let plane = |k: usize| -> Vec<f32> {
        case.quads
            .iter()
            .flat_map(|q| q.coords.map(|c| c[k]))
            .collect()
    };
    let (s, t, r, a) = (plane(0), plane(1), plane(2), plane(3));
    let mut o = [(); 4].map(|_| vec![f32::NAN; 4 * n]);
    let mut unit = QuadSampler::new(&case.view, &case.smp, &case.profile);
    unit.set_simd_level(level);
    let done = unit.sample_planar(
        &case.args,
        &QuadCoords {
            s: &s,
            t: &t,
            r: &r,
            a: &a,
            dref: &[],
            lod: &[],
        },
        &mut planes(&mut o),
    );
    assert_eq!(done, n);
    for (q, w) in want.iter().enumerate() {
        for l in 0..4 {
            let got = [0, 1, 2, 3].map(|c| o[c][4 * q + l]);
            assert!(
                // Bit for bit; NaN equal to NaN (Rust leaves NaN payloads
                // through arithmetic unspecified).
                got.iter()
                    .zip(w[l])
                    .all(|(g, w)| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan())),
                "{level:?} quad {q} lane {l}: {got:?} != reference {:?}\ncoords {:?}\n{:?}\n{:?}\n{:?}\nargs {:?}",
                w[l],
                case.quads[q].coords,
                case.view,
                case.smp,
                case.profile,
                case.args
            );
        }
    }
    let planar = unit.planar_kernel_quads();
    // The `Quad` API (`sample_quads_rgba`) runs the same kernel on whole
    // groups: the same bits.
    let mut rgba = vec![[[0.0f32; 4]; 4]; n];
    unit.sample_quads_rgba(&case.args, &case.quads, &mut rgba);
    for (q, (got, w)) in rgba.iter().zip(want).enumerate() {
        assert!(
            got.iter()
                .flatten()
                .zip(w.iter().flatten())
                .all(|(g, w)| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan())),
            "{level:?} sample_quads_rgba quad {q}: {got:?} != reference {w:?}"
        );
    }
    planar
}

fn reference_of(case: &Case) -> Vec<[[f32; 4]; 4]> {
    case.quads
        .iter()
        .map(|q| {
            reference::sample(&case.view, &case.smp, &case.profile, &case.args, q)
                .texels
                .map(|t| match t {
                    Some(Texel::Float(v)) => v,
                    other => panic!("float texel expected, got {other:?}"),
                })
        })
        .collect()
}

/// 1,600 configurations of 64 quads (102,400 quads per level), case `i`
/// drawn by `draw(rng, i)`, each through [`check`] at every level this
/// machine runs; asserts that more than `tenths` tenths of the quads went
/// through the kernel (not the reference against itself: groups with a
/// NaN, infinite or huge lane are handed back).
fn twin_configs(seed: u64, tenths: usize, mut draw: impl FnMut(&mut Rng, usize) -> Case) {
    let mut rng = Rng(seed);
    let (mut quads, mut kernel) = (0usize, 0usize);
    let levels = levels();
    for i in 0..1600 {
        let case = draw(&mut rng, i);
        let want = reference_of(&case);
        for &level in &levels {
            kernel += check(&case, level, &want);
            quads += case.quads.len();
        }
    }
    assert!(
        kernel * 10 > quads * tenths,
        "{kernel} of {quads} quads on the kernel"
    );
}

#[test]
fn planar_kernel_equals_the_reference_at_every_simd_level() {
    twin_configs(0x5eed_91a4_a201_0001, 8, |rng, _| random_case(rng, 64));
}

/// Calls whose quad count is not a multiple of a group: the last quads
/// run on the kernel as one group filled up with copies of the last quad
/// (and `sample`/`sample_quads_rgba` of one quad the same way), bit for
/// bit the reference's, at every level; the copies' results go nowhere.
#[test]
fn planar_tails_run_on_the_kernel_as_padded_groups() {
    let mut rng = Rng(0x5eed_91a4_7a11_0001);
    let (mut quads, mut kernel) = (0usize, 0usize);
    let levels = levels();
    for k in 0..600 {
        let n = [1, 2, 3, 5, 6, 7, 9, 13, 15, 17, 23, 31][k % 12];
        let case = random_case(&mut rng, n);
        let want = reference_of(&case);
        for &level in &levels {
            kernel += check(&case, level, &want);
            quads += n;
            // One quad a call.
            let mut unit = QuadSampler::new(&case.view, &case.smp, &case.profile);
            unit.set_simd_level(level);
            for (q, w) in want.iter().enumerate() {
                let got = unit.sample_rgba(&case.args, &case.quads[q]);
                assert!(
                    got.iter()
                        .flatten()
                        .zip(w.iter().flatten())
                        .all(|(g, w)| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan())),
                    "{level:?} sample quad {q}: {got:?} != reference {w:?}"
                );
            }
        }
    }
    assert!(
        kernel * 10 > quads * 8,
        "{kernel} of {quads} quads on the kernel"
    );
    // Every quad of a call with valid coordinates is on the kernel,
    // whatever the count: without the padded group, the quads past the
    // last whole group of four went quad by quad (all of them, for calls
    // of one to three quads).
    let desc = TextureDesc::d2(F::Rgba8Unorm, 2, 2).with_levels(1);
    let bytes: Vec<u8> = (0..16).map(|i| 16 * i as u8).collect();
    let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).unwrap());
    let view = TextureHeader::new(tex);
    let smp = SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..Default::default()
    };
    let args = SampleArgs::default();
    let quad = Quad::new([[0.5, 0.5, 0.0, 0.0]; 4]);
    // The mean of the four texels, channel by channel.
    let want = reference_of(&Case {
        view: view.clone(),
        smp,
        profile: Profile::VULKAN,
        args,
        quads: vec![quad],
    })[0][0];
    for &level in &levels {
        for n in 1..=2 * level.lanes() + 1 {
            let mut unit = QuadSampler::new(&view, &smp, &Profile::VULKAN);
            unit.set_simd_level(level);
            let (s, t) = (vec![0.5f32; 4 * n], vec![0.5f32; 4 * n]);
            let mut o = [(); 4].map(|_| vec![f32::NAN; 4 * n]);
            let coords = QuadCoords {
                s: &s,
                t: &t,
                ..Default::default()
            };
            let mut out = planes(&mut o);
            assert_eq!(unit.sample_planar(&args, &coords, &mut out), n);
            assert_eq!(unit.planar_kernel_quads(), n, "{level:?}, {n} quads");
            for (c, plane) in o.iter().enumerate() {
                assert!(plane.iter().all(|&x| x == want[c]), "{level:?}: {plane:?}");
            }
            assert_eq!(unit.sample_rgba(&args, &quad), [want; 4]);
            assert_eq!(unit.planar_kernel_quads(), n + 1, "{level:?}: one quad");
        }
    }
}

/// Integer filtering (8-bit weights and LOD fractions on RGBA8 / BGRA8
/// UNORM, `docs/precision.md`) on the planar kernel against the
/// reference, bit for bit, at every SIMD level.
#[test]
fn planar_integer_filtering_equals_the_reference_at_every_simd_level() {
    int8_twins(0x5eed_91a4_1a78_0001, Family::Int8);
}

/// [`twin_configs`] on cases of an integer-filtering `family`, each
/// checked to be in that mode.
fn int8_twins(seed: u64, family: Family) {
    twin_configs(seed, 8, |rng, _| {
        let case = random_view_case(rng, 64, family);
        assert!(integer_filtering(&case.view, &case.smp, &case.profile));
        case
    });
}

/// Integer filtering on the kernel's copies of the plan for linear words
/// repeated both ways under coarse derivatives (`Plan::int_copy`, the
/// common 8-bit call under `NV_SASS` and `D3D11`: one or two levels,
/// offsets, biases and LOD clamps random) against the reference, bit for
/// bit, at every SIMD level.
#[test]
fn planar_integer_filtering_of_linear_repeated_words_equals_the_reference() {
    int8_twins(0x5eed_91a4_1a78_0002, Family::Int8Linear);
}

/// The planar kernel on cubes and cube arrays against the reference, bit
/// for bit, at every SIMD level, seamless footprints that leave a face
/// (edges and corners) included: more than 90% of the quads stay on the
/// kernel (97.5% with this seed; 73.7% when seam groups were handed
/// back).
#[test]
fn planar_cube_equals_the_reference_at_every_simd_level() {
    twin_configs(0x5eed_91a4_c0be_0001, 9, |rng, _| {
        let mut case = random_view_case(rng, 64, Family::Cube);
        if rng.one_in(3) {
            case.smp.seamless_cube = false;
        }
        case
    });
}

/// Views of one level sampled with one filter both ways, where the
/// kernel skips the LOD (lambda makes no difference to the result): the
/// reference's bits at every SIMD level, 2D, arrays and cubes, every
/// format, compare and LOD form of the random cases (explicit lambdas,
/// biases and gradients with NaN and infinities among them), with and
/// without anisotropy (which keeps the LOD).
#[test]
fn planar_one_level_views_equal_the_reference_at_every_simd_level() {
    // One configuration in four on a cube.
    twin_configs(0x5eed_91a4_0e1e_0001, 8, |rng, i| {
        let family = if i % 4 == 3 {
            Family::Cube
        } else {
            Family::Plain
        };
        let mut case = random_view_case(rng, 64, family);
        case.view.level_count = 1;
        case.smp.min_filter = case.smp.mag_filter;
        case
    });
}

/// Relative distances of a footprint's `m` from a level's boundary (the
/// boundary tests below).
const BOUNDARY_DELTAS: [f64; 18] = [
    0.0, 1.2e-7, -1.2e-7, 6.0e-8, 1.0e-6, -1.0e-6, 1.0e-4, -1.0e-4, 2.0e-4, -2.0e-4, 2.5e-4,
    -2.5e-4, 4.9e-4, -4.9e-4, 1.0e-3, -1.0e-3, 2.0e-3, -2.0e-3,
];

/// `case` for the nearest-mip boundary tests: one filter both ways
/// (nearest or linear), a nearest mipmap, no anisotropy, a sampler bias
/// (0, a quarter or third, or random), the implicit LOD. Returns the bias
/// and the profile's move of each boundary: a profile that floors lambda
/// to `b` fraction bits and takes the level as `ceil(d + 1/2) - 1`
/// (`NV_SASS`, `PTX`) moves it up by `2^-b` (`t >= k - 1/2 + 2^-b`).
fn nearest_mip_case(rng: &mut Rng, case: &mut Case) -> (f64, f64) {
    let filter = rng.pick(&[Filter::Nearest, Filter::Linear]);
    case.smp.mag_filter = filter;
    case.smp.min_filter = filter;
    case.smp.mipmap_mode = MipmapMode::Nearest;
    case.smp.max_anisotropy = 1.0;
    case.smp.mip_lod_bias = match rng.below(4) {
        0 => 0.0,
        1 => rng.pick(&[0.25f32, -0.5, 1.0 / 3.0, -1.75, 2.5]),
        2 => rng.f() * 6.0 - 3.0,
        _ => 0.0,
    };
    case.args.lod = Lod::Implicit;
    let shift = match (case.profile.lod_frac_bits, case.profile.mip_nearest) {
        (Some(b), MipNearest::CeilMinusOne) => 1.0 / f64::from(1u32 << b),
        _ => 0.0,
    };
    (f64::from(case.smp.mip_lod_bias), shift)
}

/// A footprint's size in texels a pixel near level `j`'s boundary
/// (`j` whole) or between two (`j` a half): lambda `t = log2(m) / 2 +
/// bias` at the boundary `j - 1/2` (moved by `shift`) is `m = 2^(2 (j +
/// shift) - 1 - 2 bias)`, off by one of [`BOUNDARY_DELTAS`]; one size in
/// 200 is zero and one NaN.
fn boundary_texels(rng: &mut Rng, j: f64, (shift, bias): (f64, f64)) -> f64 {
    let m = (2.0 * (j + shift) - 1.0 - 2.0 * bias).exp2() * (1.0 + rng.pick(&BOUNDARY_DELTAS));
    match rng.below(200) {
        0 => 0.0,
        1 => f64::NAN,
        _ => m.sqrt(),
    }
}

/// Nearest-mip sampling under fine derivatives, where the kernel takes a
/// pixel's level from the exponent of its footprint rather than from
/// `log2` (one filter both ways, one bias): the reference's bits at every
/// SIMD level for footprints on both sides of each level's boundary (the
/// profile's: 8 LOD fraction bits move it), from
/// one unit in the last place to 2^-9 away (the kernel takes `log2` within
/// a relative 2^-13 below and 2^-12 above a boundary, its own path just
/// outside; without that margin this test fails), and for footprints
/// between boundaries, of zero and NaN size; sampler biases of quarters,
/// thirds and random values, LOD clamps, views with a base level, fewer
/// levels and a min LOD, magnified and minified.
#[test]
fn planar_nearest_mip_levels_around_their_boundaries_equal_the_reference() {
    twin_configs(0x5eed_91a4_4ea5_0001, 8, |rng, _| {
        let mut case = random_view_case(rng, 64, Family::Plain);
        let (bias, shift) = nearest_mip_case(rng, &mut case);
        case.args.derivatives = Some(Derivatives::Fine);
        let (w, h) = {
            let d = case.view.texture.desc();
            (d.width as f64, d.height as f64)
        };
        // At the origin the lanes' differences are the derivatives
        // exactly; elsewhere they are rounded (one configuration in four).
        let (x0, y0) = if rng.one_in(4) {
            (
                rng.below(64) as f32 / 16.0 - 2.0,
                rng.below(64) as f32 / 16.0 - 2.0,
            )
        } else {
            (0.0, 0.0)
        };
        let stretch = rng.pick(&[0.0f64, 0.25, 0.7, 1.0]);
        // One configuration in three puts every quad between the same two
        // boundaries, so that whole groups take one level (made once a
        // group in the kernel).
        let shared = rng.one_in(3).then(|| rng.below(14) as f64 - 3.0);
        for q in &mut case.quads {
            // Lambda `t = log2(m) / 2 + bias` at a level's boundary
            // `k - 1/2` (or between two) is `m = 2^(2k - 1 - 2 bias)`.
            let k = shared.unwrap_or_else(|| rng.below(14) as f64 - 3.0);
            let between = if shared.is_some() || rng.one_in(4) {
                0.5
            } else {
                0.0
            };
            // Texels a pixel along the longer axis, x or y.
            let r = boundary_texels(rng, k + between, (shift, bias));
            let (ds, dt) = if rng.one_in(2) {
                ((r / w) as f32, (r * stretch / h) as f32)
            } else {
                ((r * stretch / w) as f32, (r / h) as f32)
            };
            *q = Quad::new([0, 1, 2, 3].map(|l| {
                let (lx, ly) = ((l & 1) as f32, (l >> 1) as f32);
                [x0 + lx * ds, y0 + ly * dt, 0.0, 0.0]
            }));
        }
        case
    });
}

/// The same boundaries on cubes, where a pixel's LOD is its own under
/// coarse derivatives too (the direction's derivatives onto the lane's
/// face): quads of directions on one face (`(x, y, 1)` permuted and
/// signed onto a random one), with the face-coordinate footprint at the
/// profile's boundaries and from one unit in the last place to 2^-9 from
/// them, coarse and fine derivatives, the lanes off the face where the
/// footprint is large; the kernel's bits equal the reference's at every
/// SIMD level (the kernel takes the level from the exponent of `m`
/// there; without its margin this test fails).
#[test]
fn planar_cube_nearest_mip_levels_around_their_boundaries_equal_the_reference() {
    twin_configs(0x5eed_91a4_c0be_0002, 8, |rng, _| {
        let mut case = random_view_case(rng, 64, Family::Cube);
        let (bias, shift) = nearest_mip_case(rng, &mut case);
        case.args.derivatives = Some(rng.pick(&[Derivatives::Coarse, Derivatives::Fine]));
        let w = f64::from(case.view.texture.desc().width);
        // The face: the major axis and its sign; `(x, y)` go to the other
        // two axes in a random order.
        let major = rng.below(3) as usize;
        let sign = rng.pick(&[1.0f32, -1.0]);
        let (ia, ib) = match (major, rng.one_in(2)) {
            (0, false) => (1, 2),
            (0, true) => (2, 1),
            (1, false) => (0, 2),
            (1, true) => (2, 0),
            (_, false) => (0, 1),
            (_, true) => (1, 0),
        };
        // Lanes at the face's centre: their differences are exact (one
        // configuration in four elsewhere on the face, rounded).
        let (x0, y0) = if rng.one_in(4) {
            (rng.f() - 0.5, rng.f() - 0.5)
        } else {
            (0.0, 0.0)
        };
        let stretch = rng.pick(&[0.0f64, 0.25, 0.7, 1.0]);
        let layer = case.quads[0].coords[0][3];
        for q in &mut case.quads {
            let k = rng.below(14) as f64 - 3.0;
            let between = if rng.one_in(4) { 0.5 } else { 0.0 };
            let r = boundary_texels(rng, k + between, (shift, bias));
            // Texels a pixel on the face: the face coordinate is
            // `0.5 * x / 1 + 0.5`, so the direction moves `2 r / w`.
            let d = 2.0 * r / w;
            let (dx, dy) = if rng.one_in(2) {
                (d as f32, (d * stretch) as f32)
            } else {
                ((d * stretch) as f32, d as f32)
            };
            *q = Quad::new([0, 1, 2, 3].map(|l| {
                let (lx, ly) = ((l & 1) as f32, (l >> 1) as f32);
                let mut c = [0.0f32, 0.0, 0.0, layer];
                c[major] = sign;
                c[ia] = x0 + lx * dx;
                c[ib] = y0 + ly * dy;
                c
            }));
        }
        case
    });
}

/// Pinned values: a 2x2 RGBA8 texture sampled bilinearly at its centre is
/// the mean of its four texels (each channel `code / 255`, weights 1/4);
/// with BGRA the red and blue planes swap.
#[test]
fn planar_bilinear_centre_of_a_2x2_texture_is_the_texel_mean() {
    for (format, swap) in [(F::Rgba8Unorm, false), (F::Bgra8Unorm, true)] {
        let desc = TextureDesc::d2(format, 2, 2).with_levels(1);
        let bytes = [
            10u8, 20, 30, 255, 50, 60, 70, 255, 90, 100, 110, 0, 130, 140, 150, 0,
        ];
        let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).unwrap());
        let view = TextureHeader::new(tex);
        let smp = SamplerHeader {
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            ..Default::default()
        };
        for level in levels() {
            let mut unit = QuadSampler::new(&view, &smp, &Profile::VULKAN);
            unit.set_simd_level(level);
            let n = 4 * level.lanes();
            let (s, t) = (vec![0.5f32; 4 * n], vec![0.5f32; 4 * n]);
            let mut o = [(); 4].map(|_| vec![0.0f32; 4 * n]);
            let args = SampleArgs {
                derivatives: Some(Derivatives::Coarse),
                ..Default::default()
            };
            assert_eq!(unit.planar_fallback(&args), None);
            unit.sample_planar(
                &args,
                &QuadCoords {
                    s: &s,
                    t: &t,
                    ..Default::default()
                },
                &mut planes(&mut o),
            );
            assert_eq!(unit.planar_kernel_quads(), n);
            let mean = |k: usize| {
                [0, 4, 8, 12]
                    .map(|i| 0.25 * (f32::from(bytes[i + k]) / 255.0))
                    .iter()
                    .fold(-0.0f32, |a, &b| a + b)
            };
            let (r, b) = if swap {
                (mean(2), mean(0))
            } else {
                (mean(0), mean(2))
            };
            let want = [r, mean(1), b, mean(3)];
            for (plane, w) in o.iter().zip(want) {
                assert!(plane.iter().all(|&x| x == w), "{level:?}: {plane:?} != {w}");
            }
            let red = if swap { 90.0 } else { 70.0 };
            assert!((want[0] - red / 255.0).abs() < 1e-6);
            assert!((want[3] - 127.5 / 255.0).abs() < 1e-6);
        }
    }
}

/// `unit` sampling the planes `s` and `t` with implicit coarse
/// derivatives: the four result planes and the arguments it took.
fn sample_coarse(unit: &mut QuadSampler<'_>, s: &[f32], t: &[f32]) -> ([Vec<f32>; 4], SampleArgs) {
    let mut o = [(); 4].map(|_| vec![0.0f32; s.len()]);
    let args = SampleArgs {
        derivatives: Some(Derivatives::Coarse),
        ..Default::default()
    };
    unit.sample_planar(
        &args,
        &QuadCoords {
            s,
            t,
            ..Default::default()
        },
        &mut planes(&mut o),
    );
    (o, args)
}

/// Pinned integer filtering (`docs/precision.md`): one texel of a 2x2
/// RGBA8 texture has red code 1, the rest 0; bilinear weights of 1/256
/// across and 128/256 (then 127/256) down make the sum `1 * 1 * 128`
/// (then 127), which rounds half up to the 8.8 value 1 (then 0): red is
/// `256 / (255 * 65536)` (then 0), where the f32 mode gives
/// `1/255 / 512`; alpha (all 255) is exactly 1.
#[test]
fn planar_integer_filtering_rounds_each_level_to_8_8_half_up() {
    let desc = TextureDesc::d2(F::Rgba8Unorm, 2, 2).with_levels(1);
    let mut bytes = [0u8, 0, 0, 255].repeat(4);
    bytes[4] = 1;
    let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).unwrap());
    let view = TextureHeader::new(tex);
    let smp = SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..Default::default()
    };
    // s = (1/2 + 1/256) / 2: x = 1/256; t = 1/2 (y = 1/2) or
    // (1/2 + 129/256) / 2 (y = 129/256).
    let (s0, t_half, t_129) = (129.0 / 512.0, 0.5f32, 257.0 / 512.0);
    int_and_f32_units(&view, &smp, |profile, int, level, unit| {
        let n = 4 * level.lanes();
        let s = vec![s0; 4 * n];
        // Even quads at y = 1/2, odd ones at y = 129/256.
        let t: Vec<f32> = (0..4 * n)
            .map(|i| if (i / 4) % 2 == 0 { t_half } else { t_129 })
            .collect();
        let (o, args) = sample_coarse(unit, &s, &t);
        assert_eq!(unit.planar_kernel_quads(), n);
        let (even, odd) = if int {
            (256.0 / 16_711_680.0, 0.0)
        } else {
            // 1/255 weighted (1/256)(1/2), and (1/256)(127/256).
            let c = 1.0f32 / 255.0;
            (
                -0.0 + (1.0 / 256.0) * 0.5 * c,
                -0.0 + (1.0 / 256.0) * (127.0 / 256.0) * c,
            )
        };
        for (i, &r) in o[0].iter().enumerate() {
            let want = if (i / 4) % 2 == 0 { even } else { odd };
            assert_eq!(r, want, "{profile:?} {level:?} lane {i}");
        }
        assert!(o[3].iter().all(|&a| a == 1.0), "{level:?}");
        assert!(o[1].iter().chain(&o[2]).all(|&v| v == 0.0));
        // The reference agrees.
        let q = Quad::new([[s0, t_129, 0.0, 0.0]; 4]);
        let r = reference::sample(&view, &smp, profile, &args, &q);
        assert_eq!(r.texels[0].unwrap().to_f32()[0], odd);
    });
}

/// Nearest filtering both ways on one level under the integer profiles
/// (`NV_SASS`, `D3D11`): the reference's integer read of one texel is
/// `T = 65536 c` and `T / (255 * 65536)` rounded once, so every channel is
/// the UNORM value `c / 255` correctly rounded (Vulkan's conversion),
/// bit for bit the `VULKAN` result, on every code, at every SIMD level,
/// all of it on the planar kernel (which reads such plans in its f32
/// kernel).
#[test]
fn planar_integer_nearest_reads_are_the_unorm_values_of_every_code() {
    let desc = TextureDesc::d2(F::Rgba8Unorm, 16, 16).with_levels(1);
    // Texel `c` (row-major) holds the codes `code(c)`.
    let code = |c: usize| [c, 255 - c, (c * 7) & 255, (c * 13 + 5) & 255];
    let bytes: Vec<u8> = (0..256).flat_map(|c| code(c).map(|v| v as u8)).collect();
    let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap());
    let view = TextureHeader::new(tex);
    let smp = SamplerHeader {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Nearest,
        mipmap_mode: MipmapMode::Nearest,
        ..Default::default()
    };
    // Pixel `i` reads texel `i % 256` at its centre; 256 quads.
    let texel = |i: usize| i % 256;
    let s: Vec<f32> = (0..1024)
        .map(|i| ((texel(i) % 16) as f32 + 0.5) / 16.0)
        .collect();
    let t: Vec<f32> = (0..1024)
        .map(|i| ((texel(i) / 16) as f32 + 0.5) / 16.0)
        .collect();
    int_and_f32_units(&view, &smp, |profile, _, level, unit| {
        let (o, args) = sample_coarse(unit, &s, &t);
        assert_eq!(unit.planar_kernel_quads(), 256, "{profile:?} {level:?}");
        let [r, g, b, a] = &o;
        for (i, (((&r, &g), &b), &a)) in r.iter().zip(g).zip(b).zip(a).enumerate() {
            let want = code(texel(i)).map(|c| c as f32 / 255.0);
            let got = [r, g, b, a];
            assert_eq!(
                got.map(f32::to_bits),
                want.map(f32::to_bits),
                "{profile:?} {level:?} pixel {i}"
            );
        }
        // The reference agrees, quad by quad.
        for q in (0..1024).step_by(64) {
            let quad = Quad::new([0, 1, 2, 3].map(|l| [s[q + l], t[q + l], 0.0, 0.0]));
            let r = reference::sample(&view, &smp, profile, &args, &quad);
            for l in 0..4 {
                assert_eq!(
                    r.texels[l].unwrap().to_f32().map(f32::to_bits),
                    code(texel(q + l)).map(|c| (c as f32 / 255.0).to_bits()),
                    "{profile:?} reference pixel {}",
                    q + l
                );
            }
        }
    });
}

/// Each of `NV_SASS` and `D3D11` (integer filtering, checked) and
/// `VULKAN` (f32 filtering, checked) with a unit at every SIMD level this
/// machine has: `f(profile, int, level, unit)`.
fn int_and_f32_units(
    view: &TextureHeader,
    smp: &SamplerHeader,
    mut f: impl FnMut(&Profile, bool, SimdLevel, &mut QuadSampler<'_>),
) {
    for (profile, int) in [
        (Profile::NV_SASS, true),
        (Profile::D3D11, true),
        (Profile::VULKAN, false),
    ] {
        assert_eq!(integer_filtering(view, smp, &profile), int);
        for level in levels() {
            let mut unit = QuadSampler::new(view, smp, &profile);
            unit.set_simd_level(level);
            f(&profile, int, level, &mut unit);
        }
    }
}

/// Rounded fractions in integer filtering (`D3D11`, 8 bits rounded to
/// nearest even) on the kernel's fixed-point footprint: a fraction of
/// 255.5/256 rounds to 256/256 (the tie goes to the even 256), so the
/// filtered value is the second texel's code exactly (at the level's end
/// too, where that texel wraps to column 0); 254.5/256 rounds to 254 (the
/// even side), 0.25/256 to 0. Truncated (`NV_SASS`) the first gives the
/// weights 1/256 and 255/256. Every SIMD level, on the kernel, and the
/// reference agrees lane by lane.
#[test]
fn planar_integer_filtering_rounds_fractions_to_even_and_up_to_the_next_texel() {
    // Two levels, so that the LOD is not fixed and the kernel's copies
    // for linear repeated words take the calls (level 1 is not read:
    // zero derivatives pick level 0).
    let desc = TextureDesc::d2(F::Rgba8Unorm, 4, 4).with_levels(2);
    // Texel (x, y): R = 10 + 20x + 3y, G = 200 - 30x, B = 7x + 1, A = 255.
    let code = |x: u32, y: u32| [10 + 20 * x + 3 * y, 200 - 30 * x, 7 * x + 1, 255];
    let mut bytes: Vec<u8> = (0..16)
        .flat_map(|i| code(i % 4, i / 4).map(|c| c as u8))
        .collect();
    bytes.extend([9u8; 16]);
    let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap());
    let view = TextureHeader::new(tex);
    let smp = SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        address: [AddressMode::Repeat; 3],
        ..Default::default()
    };
    // x = s * 4 - 1/2 per quad pattern; y = t * 4 - 1/2 = 1 (row 1 alone).
    let xs = [
        1.0 + 511.0 / 512.0,
        3.0 + 511.0 / 512.0,
        1.0 + 509.0 / 512.0,
        2.0 + 1.0 / 1024.0,
    ];
    let t0 = 1.5f32 / 4.0;
    // (first column, second column, second column's weight in 256ths).
    let d3d = [(1, 2, 256), (3, 0, 256), (1, 2, 254), (2, 3, 0)];
    let sass = [(1, 2, 255), (3, 0, 255), (1, 2, 254), (2, 3, 0)];
    let cases = [(Profile::D3D11, d3d), (Profile::NV_SASS, sass)];
    for ((profile, taps), mipmap_mode) in cases
        .into_iter()
        .flat_map(|c| [MipmapMode::Nearest, MipmapMode::Linear].map(|m| (c, m)))
    {
        let smp = SamplerHeader { mipmap_mode, ..smp };
        assert!(integer_filtering(&view, &smp, &profile));
        for level in levels() {
            let mut unit = QuadSampler::new(&view, &smp, &profile);
            unit.set_simd_level(level);
            let n = 4 * level.lanes();
            let s: Vec<f32> = (0..4 * n).map(|i| (xs[(i / 4) % 4] + 0.5) / 4.0).collect();
            let t = vec![t0; 4 * n];
            let (o, args) = sample_coarse(&mut unit, &s, &t);
            assert_eq!(unit.planar_kernel_quads(), n, "{profile:?} {level:?}");
            for i in 0..4 * n {
                let (x0, x1, w1) = taps[(i / 4) % 4];
                let (c0, c1) = (code(x0, 1), code(x1, 1));
                for c in 0..4 {
                    // One level at 8.8: `(256 - w1) c0 + w1 c1` over 255 * 256,
                    // one correctly rounded division of exact integers.
                    let v = (256 - w1) * c0[c] + w1 * c1[c];
                    let want = v as f32 / 65_280.0;
                    assert_eq!(o[c][i], want, "{profile:?} {level:?} lane {i} channel {c}");
                }
            }
            for (k, &x) in xs.iter().enumerate() {
                let q = Quad::new([[(x + 0.5) / 4.0, t0, 0.0, 0.0]; 4]);
                let r = reference::sample(&view, &smp, &profile, &args, &q);
                let r = r.texels[0].unwrap().to_f32();
                for c in 0..4 {
                    assert_eq!(
                        r[c],
                        o[c][4 * k],
                        "reference, {profile:?} quad {k} channel {c}"
                    );
                }
            }
        }
    }
    // The round-up lands on the second texel's code exactly.
    assert_eq!(
        (256 * code(2, 1)[0]) as f32 / 65_280.0,
        code(2, 1)[0] as f32 / 255.0
    );
}

/// A random gather for `case`: component, AOFFI or PTP offsets, and the
/// case's depth references.
fn random_gather(rng: &mut Rng, case: &Case) -> GatherArgs {
    let kind = rng.u() % 3;
    let mut off = || [(rng.u() % 16) as i32 - 8, (rng.u() % 16) as i32 - 8];
    let offsets = match kind {
        0 => GatherOffsets::None,
        1 => GatherOffsets::Aoffi(off()),
        _ => GatherOffsets::Ptp([off(), off(), off(), off()]),
    };
    GatherArgs {
        component: (rng.u() % 4) as u8,
        offsets,
        dref: case.args.dref,
        ndv: false,
    }
}

/// The planar gather kernel (`QuadSampler::gather_planar`, and
/// `gather_quads` through it) against `gather::gather_reference`, bit for
/// bit, at every SIMD level, on the sample twin's random views (RGBA8 and
/// sRGB, BGRA, depth with every compare op, R32F and RGBA16F of random
/// bits; 2D and arrays; swizzles; `repeat` and `clamp_to_edge`) with every
/// component and AOFFI / PTP offsets.
#[test]
fn planar_gather_equals_the_reference_at_every_simd_level() {
    let mut rng = Rng(0x6a7e_42d1_0003_0001);
    let (mut quads, mut kernel) = (0usize, 0usize);
    // 1,800 configurations, of 64 quads but one in eight of 1 to 31 (a
    // call's last quads run as a padded group): about 104,000 quads per
    // level.
    for i in 0..1800 {
        let n = if i % 8 == 7 { 1 + i % 31 } else { 64 };
        let case = random_case(&mut rng, n);
        let args = random_gather(&mut rng, &case);
        let want: Vec<[[u32; 4]; 4]> = case
            .quads
            .iter()
            .map(|q| {
                gather_reference(&case.view, &case.smp, &case.profile, &args, q)
                    .texels
                    .map(|t| t.expect("every lane runs").to_bits())
            })
            .collect();
        let n = case.quads.len();
        let plane = |k: usize| -> Vec<f32> {
            case.quads
                .iter()
                .flat_map(|q| q.coords.map(|c| c[k]))
                .collect()
        };
        let (s, t, r, a) = (plane(0), plane(1), plane(2), plane(3));
        for level in levels() {
            let mut unit = QuadSampler::new(&case.view, &case.smp, &case.profile);
            unit.set_simd_level(level);
            let mut o = [(); 4].map(|_| vec![f32::NAN; 4 * n]);
            let done = unit.gather_planar(
                &args,
                &QuadCoords {
                    s: &s,
                    t: &t,
                    r: &r,
                    a: &a,
                    dref: &[],
                    lod: &[],
                },
                &mut planes(&mut o),
            );
            assert_eq!(done, n);
            kernel += unit.planar_kernel_quads();
            quads += n;
            let mut res = vec![quadtex_sampler::QuadResult::EMPTY; n];
            unit.gather_quads(&args, &case.quads, &mut res);
            for (q, w) in want.iter().enumerate() {
                for l in 0..4 {
                    let got = [0, 1, 2, 3].map(|k| o[k][4 * q + l].to_bits());
                    let tiled = res[q].texels[l].map(|t| t.to_bits());
                    assert!(
                        got == w[l] && tiled == Some(w[l]) && res[q].resident[l],
                        "{level:?} quad {q} lane {l}: planar {got:x?}, quads {tiled:x?} != reference {:x?}\ncoords {:?}\n{:?}\n{:?}\n{args:?}",
                        w[l],
                        case.quads[q].coords,
                        case.view,
                        case.smp,
                    );
                }
            }
        }
    }
    // Most quads went through the kernel (groups with a NaN, infinite or
    // huge lane are handed back).
    assert!(
        kernel * 10 > quads * 8,
        "{kernel} of {quads} quads on the kernel"
    );
}

/// Pinned values: a gather at the centre of a 2x2 RGBA8 texture returns
/// component `c` of texels `(0, 1), (1, 1), (1, 0), (0, 0)` in that order
/// (`code / 255`), on the planar kernel.
#[test]
fn planar_gather_of_a_2x2_texture_is_its_texels_in_gather_order() {
    let desc = TextureDesc::d2(F::Rgba8Unorm, 2, 2).with_levels(1);
    let bytes = [
        10u8, 20, 30, 255, 50, 60, 70, 255, 90, 100, 110, 0, 130, 140, 150, 0,
    ];
    let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).unwrap());
    let view = TextureHeader::new(tex);
    let smp = SamplerHeader::default();
    for level in levels() {
        for comp in 0..4u8 {
            let mut unit = QuadSampler::new(&view, &smp, &Profile::VULKAN);
            unit.set_simd_level(level);
            let args = GatherArgs {
                component: comp,
                ..Default::default()
            };
            assert_eq!(unit.gather_planar_fallback(&args), None);
            let n = 4 * level.lanes();
            let (s, t) = (vec![0.5f32; 4 * n], vec![0.5f32; 4 * n]);
            let mut o = [(); 4].map(|_| vec![0.0f32; 4 * n]);
            unit.gather_planar(
                &args,
                &QuadCoords {
                    s: &s,
                    t: &t,
                    ..Default::default()
                },
                &mut planes(&mut o),
            );
            assert_eq!(unit.planar_kernel_quads(), n);
            // Texel (i, j) starts at byte 4 * (2j + i).
            let texel =
                |i: usize, j: usize| f32::from(bytes[4 * (2 * j + i) + comp as usize]) / 255.0;
            let want = [texel(0, 1), texel(1, 1), texel(1, 0), texel(0, 0)];
            for (plane, w) in o.iter().zip(want) {
                assert!(
                    plane.iter().all(|&x| x == w),
                    "{level:?} c{comp}: {plane:?} != {w}"
                );
            }
        }
    }
}

/// Asserts that lane `l` of quad `q` in the planes `o` holds the reference
/// bits `want[q][l]`, bit for bit (NaN equal to NaN: Rust leaves NaN
/// payloads through arithmetic unspecified); `what(q)` names the quad's
/// case in the message.
fn assert_planes_are(o: &[Vec<f32>; 4], want: &[[[u32; 4]; 4]], what: impl Fn(usize) -> String) {
    let same = |x: f32, w: u32| x.to_bits() == w || (x.is_nan() && f32::from_bits(w).is_nan());
    for (q, w) in want.iter().enumerate() {
        for l in 0..4 {
            let got = [0, 1, 2, 3].map(|c| o[c][4 * q + l]);
            assert!(
                got.iter().zip(w[l]).all(|(&g, w)| same(g, w)),
                "{} lane {l}: {got:?} != reference {:x?}",
                what(q),
                w[l],
            );
        }
    }
}

/// One random reference per lane: stored depths, D16 codes, values out of
/// `[0, 1]`, infinities and NaN.
fn random_dref(rng: &mut Rng) -> f32 {
    match rng.u() % 4 {
        0 => rng.pick(&DEPTHS),
        1 => f32::from(rng.pick(&D16_CODES)) / 65_535.0,
        2 => (rng.u() % 1_000_001) as f32 / 1_000_000.0,
        _ => rng.pick(&[
            -0.5f32,
            1.5,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ]),
    }
}

/// A reference plane (`QuadCoords::dref`: a reference per lane) through
/// `sample_planar` and `gather_planar` against the reference sampler and
/// gather with each quad's own four references, bit for bit, at every
/// SIMD level: D32F, D16 and D24 views (2D, arrays and cubes) under every
/// compare op, with and without a reference in the args (the plane makes
/// the compare either way).
#[test]
fn planar_dref_plane_equals_per_quad_references_at_every_simd_level() {
    let mut rng = Rng(0x0d2e_f91a_0004_0001);
    let (mut cases, mut quads, mut kernel) = (0usize, 0usize, 0usize);
    while cases < 300 {
        let family = if rng.one_in(3) {
            Family::Cube
        } else {
            Family::Plain
        };
        let mut case = random_view_case(&mut rng, 32, family);
        if case.args.dref.is_none() || case.smp.compare.is_none() {
            continue;
        }
        cases += 1;
        let n = case.quads.len();
        let dref: Vec<f32> = (0..4 * n).map(|_| random_dref(&mut rng)).collect();
        let per_quad = |q: usize| [0, 1, 2, 3].map(|l| dref[4 * q + l]);
        let want: Vec<[[u32; 4]; 4]> = (0..n)
            .map(|q| {
                let args = SampleArgs {
                    dref: Some(per_quad(q)),
                    ..case.args
                };
                reference::sample(&case.view, &case.smp, &case.profile, &args, &case.quads[q])
                    .texels
                    .map(|t| t.expect("every lane runs").to_bits())
            })
            .collect();
        let gather_args = GatherArgs {
            dref: None,
            ..random_gather(&mut rng, &case)
        };
        let want_gather: Vec<[[u32; 4]; 4]> = (0..n)
            .map(|q| {
                let args = GatherArgs {
                    dref: Some(per_quad(q)),
                    ..gather_args
                };
                gather_reference(&case.view, &case.smp, &case.profile, &args, &case.quads[q])
                    .texels
                    .map(|t| t.expect("every lane runs").to_bits())
            })
            .collect();
        // Half the calls carry no reference in their args.
        if rng.one_in(2) {
            case.args.dref = None;
        }
        let plane = |k: usize| -> Vec<f32> {
            case.quads
                .iter()
                .flat_map(|q| q.coords.map(|c| c[k]))
                .collect()
        };
        let (s, t, r, a) = (plane(0), plane(1), plane(2), plane(3));
        let coords = QuadCoords {
            s: &s,
            t: &t,
            r: &r,
            a: &a,
            dref: &dref,
            lod: &[],
        };
        for level in levels() {
            let mut unit = QuadSampler::new(&case.view, &case.smp, &case.profile);
            unit.set_simd_level(level);
            let mut o = [(); 4].map(|_| vec![f32::NAN; 4 * n]);
            let mut out = planes(&mut o);
            assert_eq!(unit.sample_planar(&case.args, &coords, &mut out), n);
            kernel += unit.planar_kernel_quads();
            quads += n;
            assert_planes_are(&o, &want, |q| {
                format!(
                    "{level:?} sample quad {q} (dref {:?})\n{:?}\n{:?}",
                    per_quad(q),
                    case.view,
                    case.smp
                )
            });
            if matches!(case.view.kind, K::Cube | K::CubeArray) {
                continue;
            }
            let mut out = planes(&mut o);
            assert_eq!(unit.gather_planar(&gather_args, &coords, &mut out), n);
            assert_planes_are(&o, &want_gather, |q| {
                format!("{level:?} gather quad {q} (dref {:?})", per_quad(q))
            });
        }
    }
    // The plane went through the kernel, not only the quad-by-quad path.
    assert!(
        kernel * 10 > quads * 5,
        "{kernel} of {quads} quads on the kernel"
    );
}

/// Pinned values: a D32F texture of depth 0.5 everywhere, LEQUAL, one
/// reference per lane (0.25, 0.5, 0.75, NaN): the lanes pass, pass, fail,
/// fail (`dref <= D`; NaN fails), and the per-quad reference in the args
/// is ignored for the plane's.
#[test]
fn planar_dref_plane_gives_each_lane_its_own_compare() {
    let desc = TextureDesc::d2(F::Depth32Float, 4, 4).with_levels(1);
    let bytes: Vec<u8> = (0..16).flat_map(|_| 0.5f32.to_le_bytes()).collect();
    let tex = Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).expect("texture");
    let view = TextureHeader::new(Arc::new(tex));
    let smp = SamplerHeader {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Nearest,
        compare: Some(CompareOp::LessOrEqual),
        ..Default::default()
    };
    let profile = Profile::VULKAN;
    let mut unit = QuadSampler::new(&view, &smp, &profile);
    let n = 16;
    let s: Vec<f32> = (0..4 * n).map(|i| (i % 4) as f32 * 0.25 + 0.125).collect();
    let t = s.clone();
    let dref: Vec<f32> = (0..4 * n)
        .map(|i| [0.25, 0.5, 0.75, f32::NAN][i % 4])
        .collect();
    let mut o = [(); 4].map(|_| vec![-1.0f32; 4 * n]);
    let args = SampleArgs {
        dref: Some([1.0; 4]),
        ..Default::default()
    };
    let done = unit.sample_planar(
        &args,
        &QuadCoords {
            s: &s,
            t: &t,
            dref: &dref,
            ..Default::default()
        },
        &mut planes(&mut o),
    );
    assert_eq!(done, n);
    assert!(unit.planar_kernel_quads() > 0);
    for q in 0..n {
        assert_eq!(&o[0][4 * q..4 * q + 4], &[1.0, 1.0, 0.0, 0.0], "quad {q}");
        assert_eq!(&o[3][4 * q..4 * q + 4], &[1.0; 4], "quad {q} alpha");
    }
    // The same unit with other args and no plane: the args' references
    // (the kernel's plan follows the args from call to call).
    for (d, want) in [(1.0f32, 0.0f32), (0.25, 1.0), (0.75, 0.0)] {
        let args = SampleArgs {
            dref: Some([d; 4]),
            ..Default::default()
        };
        let coords = QuadCoords {
            s: &s,
            t: &t,
            ..Default::default()
        };
        let mut out = planes(&mut o);
        assert_eq!(unit.sample_planar(&args, &coords, &mut out), n);
        assert!(
            o[0].iter().all(|&v| v == want),
            "dref {d}: {:?}",
            &o[0][..4]
        );
    }
    // A reference plane shorter than the coordinates ends the call at
    // its last whole quad (an empty one is no plane at all).
    let short = QuadCoords {
        s: &s,
        t: &t,
        dref: &dref[..4 * 3 + 2],
        ..Default::default()
    };
    let mut out = planes(&mut o);
    assert_eq!(unit.sample_planar(&args, &short, &mut out), 3);
    assert_eq!(
        unit.gather_planar(&GatherArgs::default(), &short, &mut out),
        3
    );
    assert_eq!(&o[0][..4], &[1.0, 1.0, 0.0, 0.0]);
}

/// One random LOD operand per lane: levels and biases across a mip chain,
/// now and then signed zero, huge, infinite or NaN.
fn random_lod(rng: &mut Rng) -> f32 {
    match rng.u() % 8 {
        0 => rng.pick(&[
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -0.0,
            100.0,
            -100.0,
        ]),
        _ => rng.f() * 14.0 - 4.0,
    }
}

/// A LOD plane (`QuadCoords::lod`: a bias under `Lod::Bias`, an explicit
/// level under `Lod::Level`, one per lane) through `sample_planar`
/// against the reference sampler with each quad's own four operands in
/// its args, bit for bit, at every SIMD level: 2D, array and cube views
/// of every format the kernel takes, every profile, 30 quads a call (so
/// the last quads run as a padded group); the args' own pattern is
/// ignored for the plane's.
#[test]
fn planar_lod_plane_equals_per_quad_lod_operands_at_every_simd_level() {
    let mut rng = Rng(0x10d0_91a4_e000_0001);
    let (mut quads, mut kernel) = (0usize, 0usize);
    for case_index in 0..300 {
        let family = if rng.one_in(3) {
            Family::Cube
        } else {
            Family::Plain
        };
        let mut case = random_view_case(&mut rng, 30, family);
        let n = case.quads.len();
        let lod: Vec<f32> = (0..4 * n).map(|_| random_lod(&mut rng)).collect();
        let per_quad = |q: usize| [0, 1, 2, 3].map(|l| lod[4 * q + l]);
        let bias = case_index % 2 == 0;
        let operand = |v: [f32; 4]| if bias { Lod::Bias(v) } else { Lod::Level(v) };
        let want: Vec<[[u32; 4]; 4]> = (0..n)
            .map(|q| {
                let args = SampleArgs {
                    lod: operand(per_quad(q)),
                    ..case.args
                };
                reference::sample(&case.view, &case.smp, &case.profile, &args, &case.quads[q])
                    .texels
                    .map(|t| t.expect("every lane runs").to_bits())
            })
            .collect();
        // The args' pattern, which the plane replaces.
        case.args.lod = operand([0.5, -7.0, f32::NAN, 3.0]);
        let plane = |k: usize| -> Vec<f32> {
            case.quads
                .iter()
                .flat_map(|q| q.coords.map(|c| c[k]))
                .collect()
        };
        let (s, t, r, a) = (plane(0), plane(1), plane(2), plane(3));
        let coords = QuadCoords {
            s: &s,
            t: &t,
            r: &r,
            a: &a,
            dref: &[],
            lod: &lod,
        };
        for level in levels() {
            let mut unit = QuadSampler::new(&case.view, &case.smp, &case.profile);
            unit.set_simd_level(level);
            let mut o = [(); 4].map(|_| vec![f32::NAN; 4 * n]);
            let mut out = planes(&mut o);
            assert_eq!(unit.sample_planar(&case.args, &coords, &mut out), n);
            kernel += unit.planar_kernel_quads();
            quads += n;
            assert_planes_are(&o, &want, |q| {
                format!(
                    "{level:?} quad {q} ({} {:?})\n{:?}\n{:?}\n{:?}",
                    if bias { "bias" } else { "level" },
                    per_quad(q),
                    case.view,
                    case.smp,
                    case.profile
                )
            });
        }
    }
    // The plane went through the kernel, not only the quad-by-quad path.
    assert!(
        kernel * 10 > quads * 5,
        "{kernel} of {quads} quads on the kernel"
    );
}

/// Pinned values: a 4x4 RGBA8 texture whose level 0 is black and whose
/// levels 1 and 2 are white, nearest filtering and nearest mips. An
/// explicit level per lane of (0, 1, 0.4, 0.6) reads levels 0, 1, 0 and 1
/// (Vulkan's nearest mip level is `ceil(lambda + 0.5) - 1`), whatever
/// the args' pattern says; a bias per lane of (0, 1, 0.4, 0.6) on a
/// magnified quad (lambda -1 from its derivatives) gives lambdas of -1,
/// 0, -0.6 and -0.4, all level 0; with the sampler's bias of 1.5 added,
/// 0.5, 1.5, 0.9 and 1.1: levels 0, 1, 1 and 1. A plane shorter than the
/// coordinates ends the call at its last whole quad.
#[test]
fn planar_lod_plane_gives_each_lane_its_own_level() {
    let desc = TextureDesc::d2(F::Rgba8Unorm, 4, 4).with_levels(3);
    // Levels in order: 4x4 black, then 2x2 and 1x1 white.
    let mut bytes = vec![0u8; 16 * 4];
    bytes.extend([255u8; (4 + 1) * 4]);
    let tex = Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).expect("texture");
    let view = TextureHeader::new(Arc::new(tex));
    let smp = SamplerHeader {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Nearest,
        mipmap_mode: MipmapMode::Nearest,
        ..Default::default()
    };
    let profile = Profile::VULKAN;
    let n = 16;
    // Each quad spans half a texel a pixel: lambda -1.
    let s: Vec<f32> = (0..4 * n).map(|i| 0.25 + 0.125 * (i % 2) as f32).collect();
    let t: Vec<f32> = (0..4 * n)
        .map(|i| 0.25 + 0.125 * ((i / 2) % 2) as f32)
        .collect();
    let lod: Vec<f32> = (0..4 * n).map(|i| [0.0, 1.0, 0.4, 0.6][i % 4]).collect();
    let run = |smp: &SamplerHeader, args: SampleArgs, lod: &[f32]| {
        let mut unit = QuadSampler::new(&view, smp, &profile);
        let mut o = [(); 4].map(|_| vec![-1.0f32; 4 * n]);
        let coords = QuadCoords {
            s: &s,
            t: &t,
            lod,
            ..Default::default()
        };
        let done = unit.sample_planar(&args, &coords, &mut planes(&mut o));
        (done, unit.planar_kernel_quads(), o)
    };
    let level = SampleArgs {
        lod: Lod::Level([5.0; 4]),
        ..Default::default()
    };
    let (done, kernel, o) = run(&smp, level, &lod);
    assert_eq!(done, n);
    assert!(kernel > 0);
    for q in 0..n {
        assert_eq!(
            &o[0][4 * q..4 * q + 4],
            &[0.0, 1.0, 0.0, 1.0],
            "level, quad {q}"
        );
    }
    let bias = SampleArgs {
        lod: Lod::Bias([5.0; 4]),
        ..Default::default()
    };
    let (done, _, o) = run(&smp, bias, &lod);
    assert_eq!(done, n);
    assert!(o[0].iter().all(|&v| v == 0.0), "bias: {:?}", &o[0][..4]);
    let biased = SamplerHeader {
        mip_lod_bias: 1.5,
        ..smp
    };
    let (_, _, o) = run(&biased, bias, &lod);
    for q in 0..n {
        assert_eq!(
            &o[0][4 * q..4 * q + 4],
            &[0.0, 1.0, 1.0, 1.0],
            "sampler bias, quad {q}"
        );
    }
    let (done, _, _) = run(&smp, level, &lod[..4 * 5 + 3]);
    assert_eq!(done, 5);
}

/// Float texels whose weight is zero are skipped, as the reference's
/// `filter_level` and `sample_lane` skip them (a NaN or an infinity times
/// 0 would be NaN, and `-0 + +0` is `+0`): an RGBA16F footprint on a
/// texel centre (the second column's and row's weights 0) next to NaN
/// and infinite texels gives the centre texel `(0.25, -0.0, 2.0, 1.0)`
/// bit for bit; a lane whose lambda is 0 under a linear mipmap gives it
/// too although the next level is all NaN, beside lanes whose lambda is
/// 1/2 (weighing that level: NaN). Through the simple and the general
/// RGBA16F kernels at every SIMD level, and the reference agrees.
#[test]
fn float_texels_of_zero_weight_leave_the_sum_alone() {
    let h = |bits: u16| bits.to_le_bytes();
    let centre = [0x3400, 0x8000, 0x4000, 0x3c00].map(h).concat();
    let poison = [0x7e00, 0x7c00, 0xfc00, 0x7e00].map(h).concat();
    let other = [0x3800u16; 4].map(h).concat();
    let mut bytes = Vec::new();
    for _y in 0..4 {
        for x in 0..4 {
            bytes.extend_from_slice(match x {
                1 => &centre,
                2 => &poison,
                _ => &other,
            });
        }
    }
    for _ in 0..4 {
        bytes.extend_from_slice(&[0x7e00u16; 4].map(h).concat());
    }
    let desc = TextureDesc::d2(F::Rgba16Float, 4, 4).with_levels(2);
    let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap());
    let view = TextureHeader::new(tex);
    let smp = SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        mipmap_mode: MipmapMode::Linear,
        ..Default::default()
    };
    let want = [0.25f32, -0.0, 2.0, 1.0].map(f32::to_bits);
    // Texel (1, 0)'s centre: `u = 4 s - 1/2 = 1`, `v = 0`.
    let (s0, t0) = (0.375f32, 0.125f32);
    // Implicit LOD on one point (derivatives 0: magnified, lambda at its
    // minimum): one level, through the simple kernel. Then explicit
    // lambdas 0 and 1/2 in turn, through the general one.
    let forms = [Lod::Implicit, Lod::Level([0.0, 0.5, 0.0, 0.5])];
    for (form, lod) in forms.into_iter().enumerate() {
        let args = SampleArgs {
            lod,
            ..Default::default()
        };
        let quad = Quad::new([[s0, t0, 0.0, 0.0]; 4]);
        let r = reference::sample(&view, &smp, &Profile::VULKAN, &args, &quad);
        let reference: Vec<[u32; 4]> = (0..4)
            .map(|l| r.texels[l].unwrap().to_f32().map(f32::to_bits))
            .collect();
        for (l, got) in reference.iter().enumerate() {
            let centre = form == 0 || l % 2 == 0;
            if centre {
                assert_eq!(*got, want, "reference, form {form}, lane {l}");
            } else {
                assert!(got.iter().all(|b| f32::from_bits(*b).is_nan()), "{got:?}");
            }
        }
        for level in levels() {
            let mut unit = QuadSampler::new(&view, &smp, &Profile::VULKAN);
            unit.set_simd_level(level);
            let quads = 2 * level.lanes();
            let plane =
                |c: usize| -> Vec<f32> { (0..4 * quads).map(|i| quad.coords[i % 4][c]).collect() };
            let (s, t) = (plane(0), plane(1));
            let lambda: Vec<f32> = (0..4 * quads)
                .map(|i| [0.0, 0.5, 0.0, 0.5][i % 4])
                .collect();
            let mut o = [(); 4].map(|_| vec![0.0f32; 4 * quads]);
            let coords = QuadCoords {
                s: &s,
                t: &t,
                lod: if form == 1 { &lambda[..] } else { &[] },
                ..Default::default()
            };
            let mut out = planes(&mut o);
            assert_eq!(unit.sample_planar(&args, &coords, &mut out), quads);
            assert_eq!(
                unit.planar_kernel_quads(),
                quads,
                "{level:?}: on the kernel"
            );
            for i in 0..4 * quads {
                let got = [0, 1, 2, 3].map(|c| o[c][i].to_bits());
                let w = reference[i % 4];
                let same = got.iter().zip(&w).all(|(g, w)| {
                    g == w || (f32::from_bits(*g).is_nan() && f32::from_bits(*w).is_nan())
                });
                assert!(same, "{level:?} form {form} pixel {i}: {got:?} != {w:?}");
            }
        }
    }
}
