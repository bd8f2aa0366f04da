//! Known answers for filtering within a level: bilinear weights, sRGB
//! decode before filtering, the swizzle after it, integer formats and
//! sparse residency.
//!
//! Rules: Vulkan "Texel Linear Filtering" (weights (1-alpha, alpha) x
//! (1-beta, beta) with alpha = frac(u - 0.5)), "Format Conversion" (sRGB to
//! linear before filtering, alpha untouched), "Conversion to RGBA" and
//! "Component Swizzle" (after filtering), "Texel Replacement" (a sparse
//! unbound texel reads 0 for the format's components with
//! residencyNonResidentStrict), docs/semantics.md §2 (NVIDIA's 8-bit
//! bilinear fractions, truncated) and §5 (PTX `p` / SASS `Ps`).

mod common;

use common::*;
use quadtex_format::{texel, Texel, TexelAddr, Texture, TextureDesc, TextureFormat};
use quadtex_format::{Aspect, Layout};
use quadtex_sampler::{reference, AddressMode, Filter, Profile, SamplerHeader, Swizzle};

fn bilinear() -> SamplerHeader {
    SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..Default::default()
    }
}

/// 4x4 RGBA32_SFLOAT holding one unit impulse per channel: R at (1, 1),
/// G at (2, 1), B at (1, 2), A at (2, 2). A bilinear sample whose
/// footprint is those four texels returns their four weights as (R, G, B, A).
fn impulses() -> Texture {
    let desc = TextureDesc::d2(TextureFormat::Rgba32Float, 4, 4).with_levels(1);
    texture_with(desc, |_, _, i, j| {
        let mut v = [0.0; 4];
        match (i, j) {
            (1, 1) => v[0] = 1.0,
            (2, 1) => v[1] = 1.0,
            (1, 2) => v[2] = 1.0,
            (2, 2) => v[3] = 1.0,
            _ => {}
        }
        Texel::Float(v)
    })
}

fn weights_at(p: &Profile, s: f32, t: f32) -> [f32; 4] {
    let v = view(impulses());
    float4(sample_at(
        &v,
        &bilinear(),
        p,
        &at_lod(0.0),
        [s, t, 0.0, 0.0],
    ))
}

#[test]
fn bilinear_at_a_texel_centre_reads_that_texel_alone() {
    // s = t = 1.5/4: x = y = 1.0 -> i0 = j0 = 1, alpha = beta = 0.
    assert_eq!(
        weights_at(&Profile::VULKAN, 0.375, 0.375),
        [1.0, 0.0, 0.0, 0.0]
    );
    // Texel (2, 2)'s centre.
    assert_eq!(
        weights_at(&Profile::VULKAN, 0.625, 0.625),
        [0.0, 0.0, 0.0, 1.0]
    );
}

#[test]
fn bilinear_at_the_midpoint_of_four_texels_weighs_each_a_quarter() {
    // s = t = 0.5: u = 2, x = 1.5 -> i0 = 1, alpha = 0.5 (same for t).
    assert_eq!(weights_at(&Profile::VULKAN, 0.5, 0.5), [0.25; 4]);
}

#[test]
fn bilinear_at_a_quarter_offset_weighs_by_the_products_of_the_fractions() {
    // s = 1.75/4: x = 1.25 -> alpha = 0.25; t = 2.25/4: y = 1.75 -> beta = 0.75.
    // (1,1): (1-a)(1-b) = 0.1875; (2,1): a(1-b) = 0.0625;
    // (1,2): (1-a)b = 0.5625;    (2,2): ab = 0.1875. All exact in binary.
    assert_eq!(
        weights_at(&Profile::VULKAN, 0.4375, 0.5625),
        [0.1875, 0.0625, 0.5625, 0.1875]
    );
}

#[test]
fn bilinear_reproduces_a_linear_ramp_exactly() {
    // T(i, j) = 4j + i is linear, so the bilinear value is 4(j0 + beta) +
    // (i0 + alpha) = 4 * 1.75 + 1.25 at the quarter offset above.
    let v = view(index_2d(4, 4));
    assert_eq!(red_at(&v, &bilinear(), [0.4375, 0.5625, 0.0, 0.0]), 8.25);
}

#[test]
fn nv_sass_truncates_bilinear_fractions_to_eight_bits() {
    // x = 1 + 1/3: alpha = 1/3 in f32 (Vulkan profile), trunc(256/3)/256 =
    // 85/256 on NV_SASS. t on row 1's centre (beta = 0): R = 1 - alpha, G = alpha.
    let s = (1.5 + 1.0 / 3.0) / 4.0;
    let vk = weights_at(&Profile::VULKAN, s, 0.375);
    assert_close4(vk, [2.0 / 3.0, 1.0 / 3.0, 0.0, 0.0], 1e-6, "f32 weights");
    let nv = weights_at(&Profile::NV_SASS, s, 0.375);
    assert_eq!(nv, [171.0 / 256.0, 85.0 / 256.0, 0.0, 0.0]);
}

#[test]
fn a_one_texel_wide_axis_weighs_its_only_texel_fully() {
    // 4x1 with repeat: t = 0.9 -> v = 0.9, y = 0.4 -> rows j0 = 0 and
    // j1 = 1 (wraps to 0): both are the only row. s = 0.5 -> x = 1.5 ->
    // (T1 + T2) / 2 = 1.5.
    let v = view(index_2d(4, 1));
    assert_close(
        red_at(&v, &bilinear(), [0.5, 0.9, 0.0, 0.0]),
        1.5,
        1e-6,
        "centre of 4x1",
    );
}

// ---------------------------------------------------------------------------
// sRGB
// ---------------------------------------------------------------------------

fn srgb_pair(a: [u8; 4], b: [u8; 4]) -> Texture {
    let desc = TextureDesc::d2(TextureFormat::Rgba8Srgb, 2, 1).with_levels(1);
    let bytes: Vec<u8> = a.into_iter().chain(b).collect();
    Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap()
}

#[test]
fn srgb_texels_decode_to_linear_before_filtering() {
    // Black (0) and white (255) sRGB texels decode to 0.0 and 1.0; their
    // midpoint (s = 0.5: x = 0.5, alpha = 0.5) is linear 0.5. Filtering the
    // encoded values first would give sRGB 0.5 -> linear 0.214.
    let v = view(srgb_pair([0, 0, 0, 0], [255, 255, 255, 255]));
    let got = float4(sample_at(
        &v,
        &bilinear(),
        &Profile::VULKAN,
        &at_lod(0.0),
        [0.5, 0.5, 0.0, 0.0],
    ));
    assert_close4(got, [0.5; 4], 1e-6, "midpoint of black and white");
    assert!((got[0] - texel::srgb_to_linear(0.5)).abs() > 0.25);
}

#[test]
fn srgb_decode_leaves_alpha_linear() {
    // Code 0x80 decodes to 0.2158605 in R, G, B (sRGB EOTF) and to
    // 128/255 = 0.5019608 in A (alpha is unchanged UNORM).
    let v = view(srgb_pair([0x80; 4], [0x80; 4]));
    let got = float4(sample_at(
        &v,
        &SamplerHeader::default(),
        &Profile::VULKAN,
        &at_lod(0.0),
        [0.25, 0.5, 0.0, 0.0],
    ));
    assert_close4(
        got,
        [0.2158605, 0.2158605, 0.2158605, 128.0 / 255.0],
        1e-6,
        "0x80",
    );
}

#[test]
fn srgb_decode_off_reads_the_raw_unorm_values() {
    let mut v = view(srgb_pair([0x80; 4], [0x80; 4]));
    v.srgb_decode = false;
    let got = float4(sample_at(
        &v,
        &SamplerHeader::default(),
        &Profile::VULKAN,
        &at_lod(0.0),
        [0.25, 0.5, 0.0, 0.0],
    ));
    assert_close4(got, [128.0 / 255.0; 4], 1e-6, "0x80 undecoded");
}

// ---------------------------------------------------------------------------
// Swizzle
// ---------------------------------------------------------------------------

fn rgba_pair() -> Texture {
    // 2x1 RGBA32F: T0 = (1, 2, 3, 4), T1 = (3, 4, 5, 6); midpoint (2, 3, 4, 5).
    let desc = TextureDesc::d2(TextureFormat::Rgba32Float, 2, 1).with_levels(1);
    texture_with(desc, |_, _, i, _| {
        Texel::Float(if i == 0 {
            [1.0, 2.0, 3.0, 4.0]
        } else {
            [3.0, 4.0, 5.0, 6.0]
        })
    })
}

#[test]
fn swizzle_rearranges_the_filtered_colour() {
    let mut v = view(rgba_pair());
    v.swizzle = Swizzle::parse4("gbar").unwrap();
    let got = float4(sample_at(
        &v,
        &bilinear(),
        &Profile::VULKAN,
        &at_lod(0.0),
        [0.5, 0.5, 0.0, 0.0],
    ));
    assert_eq!(got, [3.0, 4.0, 5.0, 2.0]);
}

#[test]
fn swizzle_constants_read_one_and_zero() {
    let mut v = view(rgba_pair());
    v.swizzle = Swizzle::parse4("g10a").unwrap();
    let got = float4(sample_at(
        &v,
        &bilinear(),
        &Profile::VULKAN,
        &at_lod(0.0),
        [0.5, 0.5, 0.0, 0.0],
    ));
    assert_eq!(got, [3.0, 1.0, 0.0, 5.0]);
}

#[test]
fn swizzle_sees_the_substituted_components_of_a_one_channel_format() {
    // R8_UNORM 255 converts to RGBA (1, 0, 0, 1) first; the swizzle
    // "ar1g" then reads (A, R, 1, G) = (1, 1, 1, 0).
    let desc = TextureDesc::d2(TextureFormat::R8Unorm, 1, 1).with_levels(1);
    let mut v = view(Texture::from_linear_bytes(desc, Layout::Linear, &[255]).unwrap());
    v.swizzle = Swizzle::parse4("ar1g").unwrap();
    let got = float4(sample_at(
        &v,
        &SamplerHeader::default(),
        &Profile::VULKAN,
        &at_lod(0.0),
        [0.5, 0.5, 0.0, 0.0],
    ));
    assert_eq!(got, [1.0, 1.0, 1.0, 0.0]);
}

// ---------------------------------------------------------------------------
// Integer formats
// ---------------------------------------------------------------------------

#[test]
fn integer_formats_return_exact_integers_with_nearest() {
    // 4_000_000_001 is not representable in f32: a float path would show.
    let desc = TextureDesc::d2(TextureFormat::R32Uint, 2, 2).with_levels(1);
    let v = view(texture_with(desc, |_, _, i, j| {
        Texel::Uint([if (i, j) == (1, 0) { 4_000_000_001 } else { 7 }, 0, 0, 0])
    }));
    let got = sample_at(
        &v,
        &SamplerHeader::default(),
        &Profile::VULKAN,
        &at_lod(0.0),
        [0.75, 0.25, 0.0, 0.0],
    );
    assert_eq!(
        got,
        Texel::Uint([4_000_000_001, 0, 0, 1]),
        "missing components are integer (0, 0, 1)"
    );

    let desc = TextureDesc::d2(TextureFormat::Rgba16Sint, 1, 1).with_levels(1);
    let v = view(texture_with(desc, |_, _, _, _| {
        Texel::Sint([-300, 5, -1, 32767])
    }));
    let got = sample_at(
        &v,
        &SamplerHeader::default(),
        &Profile::VULKAN,
        &at_lod(0.0),
        [0.5, 0.5, 0.0, 0.0],
    );
    assert_eq!(got, Texel::Sint([-300, 5, -1, 32767]));

    let desc = TextureDesc::d2(TextureFormat::R8Sint, 1, 1).with_levels(1);
    let v = view(Texture::from_linear_bytes(desc, Layout::Linear, &[(-5i8) as u8]).unwrap());
    let got = sample_at(
        &v,
        &SamplerHeader::default(),
        &Profile::VULKAN,
        &at_lod(0.0),
        [0.5, 0.5, 0.0, 0.0],
    );
    assert_eq!(got, Texel::Sint([-5, 0, 0, 1]), "sign-extended");
}

#[test]
fn integer_swizzle_one_is_the_integer_one() {
    let desc = TextureDesc::d2(TextureFormat::R8Uint, 1, 1).with_levels(1);
    let mut v = view(Texture::from_linear_bytes(desc, Layout::Linear, &[7]).unwrap());
    v.swizzle = Swizzle::parse4("r10r").unwrap();
    let got = sample_at(
        &v,
        &SamplerHeader::default(),
        &Profile::VULKAN,
        &at_lod(0.0),
        [0.5, 0.5, 0.0, 0.0],
    );
    assert_eq!(got, Texel::Uint([7, 1, 0, 7]));
}

// ---------------------------------------------------------------------------
// Sparse residency
// ---------------------------------------------------------------------------

/// 256x256 R32F, one level, sparse: 4-byte texels use 128x128 tiles
/// (Vulkan standard block shape), and only tile (0, 0) is resident.
/// T(10, 10) = 7, T(127, 10) = 8, T(200, 10) = 9 (stored, but not resident).
fn sparse() -> Texture {
    let desc = TextureDesc::d2(TextureFormat::R32Float, 256, 256).with_levels(1);
    let mut t = Texture::new(desc, Layout::Linear).unwrap();
    for (x, v) in [(10, 7.0), (127, 8.0), (200, 9.0)] {
        t.write_texel(
            TexelAddr::at(x, 10),
            Aspect::Color,
            Texel::Float([v, 0.0, 0.0, 1.0]),
        )
        .unwrap();
    }
    t.make_sparse();
    let r = t.residency_mut().unwrap();
    assert_eq!(r.tile_shape(), (128, 128, 1));
    r.set_tile(0, 0, 0, 0, 0, true).unwrap();
    t
}

#[test]
fn a_non_resident_texel_reads_zero_and_clears_residency() {
    let v = view(sparse());
    let smp = SamplerHeader {
        address: [AddressMode::ClampToEdge; 3],
        ..Default::default()
    };
    let at = |x: f32| point([x / 256.0, 10.5 / 256.0, 0.0, 0.0]);
    let r = reference::sample(&v, &smp, &Profile::VULKAN, &at_lod(0.0), &at(10.5));
    assert_eq!(r.texels[0], Some(Texel::Float([7.0, 0.0, 0.0, 1.0])));
    assert_eq!(r.resident, [true; 4]);
    assert_eq!(
        r.predicate(&Profile::VULKAN),
        [true; 4],
        "PTX/Vulkan: true when resident"
    );
    assert_eq!(
        r.predicate(&Profile::NV_SASS),
        [false; 4],
        "SASS Ps: true on a fault"
    );

    // Texel 200 is in tile (1, 0): R reads 0 (then R32 substitutes (0, 0, 1)).
    let r = reference::sample(&v, &smp, &Profile::VULKAN, &at_lod(0.0), &at(200.5));
    assert_eq!(r.texels[0], Some(Texel::Float([0.0, 0.0, 0.0, 1.0])));
    assert_eq!(r.resident, [false; 4]);
    assert_eq!(r.predicate(&Profile::NV_SASS), [true; 4]);
}

#[test]
fn a_linear_footprint_straddling_a_missing_tile_is_not_resident() {
    // u = 128: x = 127.5 -> T(127) = 8 (resident) and T(128) (not), alpha
    // 0.5: R = 0.5 * 8 + 0.5 * 0 = 4; A = 0.5 * 1 + 0.5 * 1 = 1.
    let v = view(sparse());
    let r = reference::sample(
        &v,
        &bilinear(),
        &Profile::VULKAN,
        &at_lod(0.0),
        &point([0.5, 10.5 / 256.0, 0.0, 0.0]),
    );
    assert_eq!(r.texels[0], Some(Texel::Float([4.0, 0.0, 0.0, 1.0])));
    assert_eq!(r.resident, [false; 4]);
}
