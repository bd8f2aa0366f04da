//! Known answers for depth compare and border replacement: all eight
//! compare ops on D16_UNORM and D32_SFLOAT, the UNORM reference clamp,
//! percentage-closer filtering, and the border colour of 1-, 2- and
//! 4-component, alpha-only, integer and depth formats.
//!
//! Rules: Vulkan "Depth Compare Operation" (result 1.0 when
//! `op(Dref, D)` holds; Dref clamped to [0, 1] for UNORM formats; done per
//! texel, before filtering), "Texel Replacement" (border colour table:
//! D = Br; 1 component: R = Br; 2: (Br, Bg); 4: all; alpha-only (0, 0, 0,
//! Ba)), "Conversion to RGBA" (missing (0, 0, 1), integer one for integer
//! formats), docs/semantics.md §1 ("Depth compare, per texel").

mod common;

use common::*;
use quadtex_format::{Layout, Texel, Texture, TextureDesc, TextureFormat};
use quadtex_sampler::{
    AddressMode, BorderColor, CompareOp, Filter, Profile, SampleArgs, SamplerHeader, TextureHeader,
};

const OPS: [CompareOp; 8] = [
    CompareOp::Never,
    CompareOp::Less,
    CompareOp::Equal,
    CompareOp::LessOrEqual,
    CompareOp::Greater,
    CompareOp::NotEqual,
    CompareOp::GreaterOrEqual,
    CompareOp::Always,
];

/// A 2x2 D16_UNORM texture from raw codes (v / 65535).
fn d16(codes: [u16; 4]) -> TextureHeader {
    let desc = TextureDesc::d2(TextureFormat::Depth16Unorm, 2, 2).with_levels(1);
    let bytes: Vec<u8> = codes.iter().flat_map(|c| c.to_le_bytes()).collect();
    view(Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap())
}

/// A 2x2 D32_SFLOAT texture, texels in (0,0), (1,0), (0,1), (1,1) order.
fn d32(d: [f32; 4]) -> TextureHeader {
    let desc = TextureDesc::d2(TextureFormat::Depth32Float, 2, 2).with_levels(1);
    let bytes: Vec<u8> = d.iter().flat_map(|c| c.to_le_bytes()).collect();
    view(Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap())
}

fn compare(op: CompareOp, filter: Filter) -> SamplerHeader {
    SamplerHeader {
        mag_filter: filter,
        min_filter: filter,
        address: [AddressMode::ClampToEdge; 3],
        compare: Some(op),
        ..Default::default()
    }
}

/// The compare result (R) of each lane at `c`, lane k with reference `dref[k]`.
fn results(v: &TextureHeader, smp: &SamplerHeader, c: [f32; 4], dref: [f32; 4]) -> [f32; 4] {
    let args = SampleArgs {
        dref: Some(dref),
        ..at_lod(0.0)
    };
    sample_quad(v, smp, &Profile::VULKAN, &args, &point(c)).map(|t| t.unwrap().to_f32()[0])
}

#[test]
fn every_compare_op_on_d32_sfloat() {
    // D = 0.5 everywhere; Dref 0.25, 0.5, 0.75 in lanes 0..2 (lane 3 = 0.5).
    // The reference is the left operand: LESS passes when Dref < D.
    let v = d32([0.5; 4]);
    let want: [[f32; 3]; 8] = [
        [0.0, 0.0, 0.0], // never
        [1.0, 0.0, 0.0], // Dref < D
        [0.0, 1.0, 0.0], // Dref == D
        [1.0, 1.0, 0.0], // Dref <= D
        [0.0, 0.0, 1.0], // Dref > D
        [1.0, 0.0, 1.0], // Dref != D
        [0.0, 1.0, 1.0], // Dref >= D
        [1.0, 1.0, 1.0], // always
    ];
    for (op, w) in OPS.into_iter().zip(want) {
        let got = results(
            &v,
            &compare(op, Filter::Nearest),
            [0.25, 0.25, 0.0, 0.0],
            [0.25, 0.5, 0.75, 0.5],
        );
        assert_eq!(got[..3], w, "{}", op.name());
    }
}

#[test]
fn every_compare_op_on_d16_unorm_with_the_reference_clamped_to_one() {
    // D = code 65535 = 1.0; Dref 0.5, 1.0, 1.5 (clamped to 1.0), 2.0 (-> 1.0).
    // UNORM depth clamps Dref to [0, 1] first, so 1.5 and 2.0 compare as 1.0.
    let v = d16([65535; 4]);
    let want: [[f32; 4]; 8] = [
        [0.0, 0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0, 1.0],
        [0.0, 0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0, 1.0],
    ];
    for (op, w) in OPS.into_iter().zip(want) {
        let got = results(
            &v,
            &compare(op, Filter::Nearest),
            [0.25, 0.25, 0.0, 0.0],
            [0.5, 1.0, 1.5, 2.0],
        );
        assert_eq!(got, w, "{}", op.name());
    }
}

#[test]
fn d16_clamps_a_negative_reference_to_zero() {
    // D = 0.0; Dref -0.5 compares as 0.0: EQUAL and GEQUAL pass, LESS fails.
    let v = d16([0; 4]);
    let c = [0.25, 0.25, 0.0, 0.0];
    assert_eq!(
        results(
            &v,
            &compare(CompareOp::Equal, Filter::Nearest),
            c,
            [-0.5; 4]
        )[0],
        1.0
    );
    assert_eq!(
        results(
            &v,
            &compare(CompareOp::GreaterOrEqual, Filter::Nearest),
            c,
            [-0.5; 4]
        )[0],
        1.0
    );
    assert_eq!(
        results(&v, &compare(CompareOp::Less, Filter::Nearest), c, [-0.5; 4])[0],
        0.0
    );
}

#[test]
fn d32_sfloat_does_not_clamp_the_reference() {
    // D = 1.0; Dref 1.5 stays 1.5: EQUAL fails, GREATER passes; Dref -0.5 < 0.0.
    let v = d32([1.0; 4]);
    let c = [0.25, 0.25, 0.0, 0.0];
    let dref = [1.5, 1.5, 1.5, 1.5];
    let want = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0];
    for (op, w) in OPS.into_iter().zip(want) {
        assert_eq!(
            results(&v, &compare(op, Filter::Nearest), c, dref)[0],
            w,
            "{} with Dref 1.5",
            op.name()
        );
    }
    let v = d32([0.0; 4]);
    assert_eq!(
        results(&v, &compare(CompareOp::Less, Filter::Nearest), c, [-0.5; 4])[0],
        1.0,
        "-0.5 < 0"
    );
}

#[test]
fn pcf_filters_compare_results_not_depths() {
    // D: (0,0) 0.2, (1,0) 0.4, (0,1) 0.6, (1,1) 0.8; LESS with Dref 0.5
    // passes the bottom row only.
    let v = d32([0.2, 0.4, 0.6, 0.8]);
    let smp = compare(CompareOp::Less, Filter::Linear);
    // Centre: each texel weighs 1/4 -> 2 of 4 pass -> 0.5.
    assert_eq!(results(&v, &smp, [0.5, 0.5, 0.0, 0.0], [0.5; 4])[0], 0.5);
    // t = 0.375: y = 0.25 -> row 0 weighs 0.75, row 1 0.25 -> 0.25.
    // (Comparing the filtered depth 0.75 * 0.3 + 0.25 * 0.7 = 0.4 would give 0.)
    assert_eq!(results(&v, &smp, [0.5, 0.375, 0.0, 0.0], [0.5; 4])[0], 0.25);
    // Dref 0.3 passes three texels at the centre -> 0.75.
    assert_eq!(results(&v, &smp, [0.5, 0.5, 0.0, 0.0], [0.3; 4])[0], 0.75);
}

// ---------------------------------------------------------------------------
// Border colour
// ---------------------------------------------------------------------------

fn border(color: BorderColor) -> SamplerHeader {
    SamplerHeader {
        address: [AddressMode::ClampToBorder; 3],
        border_color: color,
        ..Default::default()
    }
}

/// Reads the border of a 2x2 texture of `format` (s = -0.5: i = -1).
fn border_of(format: TextureFormat, color: BorderColor) -> Texel {
    let desc = TextureDesc::d2(format, 2, 2).with_levels(1);
    let v = view(Texture::new(desc, Layout::Linear).unwrap());
    sample_at(
        &v,
        &border(color),
        &Profile::VULKAN,
        &at_lod(0.0),
        [-0.5, 0.25, 0.0, 0.0],
    )
}

#[test]
fn opaque_white_border_replaces_only_the_formats_components() {
    let w = BorderColor::FloatOpaqueWhite;
    // R8: R = Br, then RGBA conversion (R, 0, 0, 1).
    assert_eq!(
        border_of(TextureFormat::R8Unorm, w),
        Texel::Float([1.0, 0.0, 0.0, 1.0])
    );
    // R8G8: (Br, Bg, 0, 1).
    assert_eq!(
        border_of(TextureFormat::Rg8Unorm, w),
        Texel::Float([1.0, 1.0, 0.0, 1.0])
    );
    assert_eq!(
        border_of(TextureFormat::Rgba8Unorm, w),
        Texel::Float([1.0; 4])
    );
}

#[test]
fn a_custom_border_colour_fills_the_formats_components() {
    let c = BorderColor::Float([0.25, 0.5, 0.75, 0.125]);
    // The custom colour may be rounded to the format (one ULP: 1/255).
    let ulp = 1.0 / 255.0;
    assert_close4(
        float4(border_of(TextureFormat::R8Unorm, c)),
        [0.25, 0.0, 0.0, 1.0],
        ulp,
        "R8",
    );
    assert_close4(
        float4(border_of(TextureFormat::Rg8Unorm, c)),
        [0.25, 0.5, 0.0, 1.0],
        ulp,
        "R8G8",
    );
    assert_close4(
        float4(border_of(TextureFormat::Rgba8Unorm, c)),
        [0.25, 0.5, 0.75, 0.125],
        ulp,
        "R8G8B8A8",
    );
    // Alpha-only formats take (0, 0, 0, Ba).
    assert_close4(
        float4(border_of(TextureFormat::A8Unorm, c)),
        [0.0, 0.0, 0.0, 0.125],
        ulp,
        "A8",
    );
    // A float format keeps the colour exactly.
    assert_eq!(
        border_of(TextureFormat::Rgba32Float, c),
        Texel::Float([0.25, 0.5, 0.75, 0.125])
    );
    assert_eq!(
        border_of(TextureFormat::Rg32Float, c),
        Texel::Float([0.25, 0.5, 0.0, 1.0])
    );
}

#[test]
fn transparent_and_opaque_black_borders() {
    assert_eq!(
        border_of(
            TextureFormat::Rgba8Unorm,
            BorderColor::FloatTransparentBlack
        ),
        Texel::Float([0.0; 4])
    );
    assert_eq!(
        border_of(TextureFormat::Rgba8Unorm, BorderColor::FloatOpaqueBlack),
        Texel::Float([0.0, 0.0, 0.0, 1.0])
    );
    // One component: A comes from the RGBA conversion, not the border.
    assert_eq!(
        border_of(TextureFormat::R8Unorm, BorderColor::FloatTransparentBlack),
        Texel::Float([0.0, 0.0, 0.0, 1.0])
    );
}

#[test]
fn integer_formats_read_integer_border_colours() {
    assert_eq!(
        border_of(TextureFormat::R32Uint, BorderColor::IntOpaqueWhite),
        Texel::Uint([1, 0, 0, 1])
    );
    assert_eq!(
        border_of(TextureFormat::Rg8Uint, BorderColor::IntOpaqueBlack),
        Texel::Uint([0, 0, 0, 1])
    );
    assert_eq!(
        border_of(TextureFormat::Rgba8Uint, BorderColor::IntTransparentBlack),
        Texel::Uint([0; 4])
    );
    assert_eq!(
        border_of(TextureFormat::Rgba8Uint, BorderColor::Int([7, 8, 9, 10])),
        Texel::Uint([7, 8, 9, 10])
    );
    let neg = BorderColor::Int([(-3i32) as u32, 5, 6, 7]);
    assert_eq!(
        border_of(TextureFormat::R16Sint, neg),
        Texel::Sint([-3, 0, 0, 1])
    );
    assert_eq!(
        border_of(TextureFormat::Rgba32Sint, neg),
        Texel::Sint([-3, 5, 6, 7])
    );
}

#[test]
fn depth_compare_against_the_border_uses_its_red() {
    // The border texel's D = Br, then the compare: Dref 0.5 LESS 1.0 (white)
    // passes; LESS 0.0 (transparent black) fails, GREATER passes.
    let v = d32([0.5; 4]);
    let smp = |op, color| SamplerHeader {
        address: [AddressMode::ClampToBorder; 3],
        border_color: color,
        compare: Some(op),
        ..Default::default()
    };
    let out = [-0.5, 0.25, 0.0, 0.0];
    assert_eq!(
        results(
            &v,
            &smp(CompareOp::Less, BorderColor::FloatOpaqueWhite),
            out,
            [0.5; 4]
        )[0],
        1.0
    );
    assert_eq!(
        results(
            &v,
            &smp(CompareOp::Less, BorderColor::FloatTransparentBlack),
            out,
            [0.5; 4]
        )[0],
        0.0
    );
    assert_eq!(
        results(
            &v,
            &smp(CompareOp::Greater, BorderColor::FloatTransparentBlack),
            out,
            [0.5; 4]
        )[0],
        1.0
    );
    // Custom Br = 0.3: Dref 0.25 < 0.3 passes, 0.5 fails.
    let c = BorderColor::Float([0.3, 0.9, 0.9, 0.9]);
    assert_eq!(
        results(&v, &smp(CompareOp::Less, c), out, [0.25, 0.5, 0.25, 0.5]),
        [1.0, 0.0, 1.0, 0.0]
    );
}

#[test]
fn a_linear_footprint_half_on_the_border_blends_with_it() {
    // R32F 4x4, T(i, j) = 4j + i, border 100: s = 0 -> x = -0.5 -> i0 = -1
    // (border), alpha = 0.5; t = 0.375 (row 1): 0.5 * 100 + 0.5 * 4 = 52.
    let v = view(index_2d(4, 4));
    let smp = SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..border(BorderColor::Float([100.0; 4]))
    };
    assert_close(
        red_at(&v, &smp, [0.0, 0.375, 0.0, 0.0]),
        52.0,
        1e-4,
        "half border",
    );
}

#[test]
fn nv_sass_sees_srgb_borders_through_an_eight_bit_srgb_round_trip() {
    // NVIDIA keeps a separate sRGB-encoded 8-bit border (docs/semantics.md §4,
    // inferred): linear 0.5 encodes to sRGB 0.7353569 -> code 188 -> decodes
    // to 0.5028864; alpha is linear and kept. The Vulkan profile keeps 0.5.
    let desc = TextureDesc::d2(TextureFormat::Rgba8Srgb, 2, 2).with_levels(1);
    let v = view(Texture::new(desc, Layout::Linear).unwrap());
    let smp = border(BorderColor::Float([0.5, 0.25, 1.0, 0.5]));
    let at = |p: &Profile| float4(sample_at(&v, &smp, p, &at_lod(0.0), [-0.5, 0.25, 0.0, 0.0]));
    assert_eq!(at(&Profile::VULKAN), [0.5, 0.25, 1.0, 0.5]);
    let q = at(&Profile::NV_SASS);
    assert_eq!(q[0], quadtex_format::texel::srgb8_to_linear(188));
    assert_eq!(q[1], quadtex_format::texel::srgb8_to_linear(137));
    assert_eq!(q[2], 1.0);
    assert_eq!(q[3], 0.5);
    assert_ne!(q[0], 0.5);
}
