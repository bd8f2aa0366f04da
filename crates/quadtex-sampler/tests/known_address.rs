//! Known answers for texel addressing: every address mode through
//! `reference::wrap` and through whole samples (nearest and linear) at
//! negative, far-out and non-finite coordinates; texel offsets at both
//! ends of each profile's field; array layer rounding and clamping.
//!
//! Rules: Vulkan "Wrapping Operation" (`textures.adoc#textures-wrapping-operation`),
//! "(u,v,w,a) to (i,j,k,l,n) Transformation and Array Layer Selection",
//! "(s,t,r,q,a) to (u,v,w,a) Transformation" (offsets in texels of the
//! level read), docs/semantics.md §4 and §5 (`clamp_ogl` from softpipe),
//! and the NaN/Inf contract at the top of `reference.rs`: a NaN coordinate
//! reads the texel at index 0; +-Inf saturate to a huge index, then wrap or
//! clamp like any other.

mod common;

use common::*;
use quadtex_format::{TextureDesc, TextureFormat, TextureKind};
use quadtex_sampler::profile::{LayerRound, OffsetOverflow};
use quadtex_sampler::reference::{floor_index, select_layer, wrap};
use quadtex_sampler::{
    AddressMode, BorderColor, Filter, MipmapMode, Profile, SampleArgs, SamplerHeader, TextureHeader,
};

use AddressMode::{
    ClampOgl, ClampToBorder, ClampToEdge, MirrorClampToEdge, MirroredRepeat, Repeat,
};

const MODES: [AddressMode; 6] = [
    Repeat,
    MirroredRepeat,
    ClampToEdge,
    ClampToBorder,
    MirrorClampToEdge,
    ClampOgl,
];

/// The border colour of the addressing tests: no texel holds 100, so a
/// border read is unmistakable (R32_SFLOAT replaces only R: (100, 0, 0, 1)).
const B: f32 = 100.0;

fn sampler(filter: Filter, mode: AddressMode) -> SamplerHeader {
    SamplerHeader {
        mag_filter: filter,
        min_filter: filter,
        address: [mode; 3],
        border_color: BorderColor::Float([B; 4]),
        ..Default::default()
    }
}

// ---------------------------------------------------------------------------
// reference::wrap on integer indices
// ---------------------------------------------------------------------------

#[test]
fn wrap_repeat_is_the_non_negative_modulus() {
    // i mod 4, mod non-negative: -9 = -12 + 3, -5 = -8 + 3, 7 = 4 + 3.
    let i = [-9, -5, -1, 0, 3, 4, 7, 4_000_001, -(1 << 40)];
    assert_eq!(
        i.map(|i| wrap(i, 4, Repeat)),
        [3, 3, 3, 0, 3, 0, 3, 1, 0].map(Some)
    );
    // A size that is not a power of two: -1 mod 3 = 2, 7 mod 3 = 1.
    assert_eq!([-1, 7, -4].map(|i| wrap(i, 3, Repeat)), [2, 1, 2].map(Some));
}

#[test]
fn wrap_mirrored_repeat_reflects_every_other_period() {
    // (size-1) - mirror((i mod 2size) - size), size 4, period 8:
    // i = -8..=8 reads 0 1 2 3 3 2 1 0 | 0 1 2 3 3 2 1 0 | 0.
    let got: Vec<_> = (-8..=8)
        .map(|i| wrap(i, 4, MirroredRepeat).unwrap())
        .collect();
    assert_eq!(got, [0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0]);
    // Odd size 3, period 6: i = 0..6 reads 0 1 2 2 1 0; i = -1 -> 5 mod 6 -> 0.
    let got: Vec<_> = (-1..6)
        .map(|i| wrap(i, 3, MirroredRepeat).unwrap())
        .collect();
    assert_eq!(got, [0, 0, 1, 2, 2, 1, 0]);
    // Far out: 4_000_001 mod 8 = 1 -> (1 - 4) = -3 -> mirror 2 -> 3 - 2 = 1.
    assert_eq!(wrap(4_000_001, 4, MirroredRepeat), Some(1));
}

#[test]
fn wrap_clamp_to_edge_clamps_to_the_first_and_last_texel() {
    let i = [-(1 << 40), -1, 0, 3, 4, 1 << 40];
    assert_eq!(
        i.map(|i| wrap(i, 4, ClampToEdge)),
        [0, 0, 0, 3, 3, 3].map(Some)
    );
}

#[test]
fn wrap_clamp_to_border_reads_the_border_outside_the_image() {
    // clamp(i, -1, size): -1 and size are border texels (None).
    let i = [-(1 << 40), -1, 0, 3, 4, 1 << 40];
    assert_eq!(
        i.map(|i| wrap(i, 4, ClampToBorder)),
        [None, None, Some(0), Some(3), None, None]
    );
    // clamp_ogl coordinates are clamped before indexing; what is left
    // outside is border, as for clamp_to_border.
    assert_eq!(
        i.map(|i| wrap(i, 4, ClampOgl)),
        [None, None, Some(0), Some(3), None, None]
    );
}

#[test]
fn wrap_mirror_clamp_to_edge_mirrors_once_then_clamps() {
    // clamp(mirror(i), 0, 3): mirror(-1) = 0, mirror(-2) = 1, mirror(-4) = 3,
    // mirror(-5) = 4 -> 3; 5 -> 3; far negative mirrors to far positive -> 3.
    let i = [-1, -2, -4, -5, 2, 5, -(1 << 40)];
    assert_eq!(
        i.map(|i| wrap(i, 4, MirrorClampToEdge)),
        [0, 1, 3, 3, 2, 3, 3].map(Some)
    );
}

#[test]
fn floor_index_reads_nan_as_zero_and_saturates_infinities() {
    assert_eq!(floor_index(-5.2), -6);
    assert_eq!(floor_index(-0.0), 0);
    assert_eq!(floor_index(f32::NAN), 0);
    let big = floor_index(f32::INFINITY);
    // "Huge": beyond any texture (extents stop at 2^16).
    assert!(big > 1 << 16, "+Inf saturates to a huge index, got {big}");
    assert_eq!(floor_index(-f32::INFINITY), -big, "saturation is symmetric");
    assert_eq!(
        floor_index(1e30),
        big,
        "a finite huge value saturates like +Inf"
    );
    // The saturated index is a multiple of 8, so repeat and mirrored repeat
    // on power-of-two sizes read texel 0 (as exact arithmetic does for
    // -4e30, itself a multiple of 2^90); the tables below rely on it.
    assert_eq!(big % 8, 0);
}

// ---------------------------------------------------------------------------
// Whole samples: a 4x4 R32_SFLOAT texture, T(i, j) = 4j + i, sampled on
// row j = 1 (t = 1.5/4: nearest j = 1; linear y = 1.0, j0 = 1, beta = 0),
// so a texel reads 4 + i and the border reads B = 100.
// ---------------------------------------------------------------------------

/// The s coordinates of the table below.
const S: [f32; 10] = [
    -1.3,
    -0.3,
    -0.05,
    1.3,
    7.6,
    1e6,
    -1e30,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
];

/// Nearest, per mode (rows in `MODES` order), per s in `S`. u = 4s, i = floor(u):
/// -1.3 -> u -5.2, i -6; -0.3 -> -1.2, -2; -0.05 -> -0.2, -1; 1.3 -> 5.2, 5;
/// 7.6 -> 30.4, 30; 1e6 -> 4e6 (a multiple of 8); -1e30, +-Inf -> huge
/// multiples of 8 (0 mod 8); NaN -> index 0.
///
/// - repeat (i mod 4): 2 2 3 1 2 0 0 0 0 0
/// - mirrored (period 8, see the wrap test): -6->2, -2->1, -1->0, 5->2, 30 (6 mod 8)->1, 0 mod 8->0
/// - clamp_to_edge: 0 0 0 3 3 3 0 3 0 0
/// - clamp_to_border: every finite-out case is border; NaN reads index 0
/// - mirror_clamp_to_edge: mirror(-6)=5->3, mirror(-2)=1, mirror(-1)=0, 5->3, ...; huge negative mirrors to huge positive -> 3
/// - clamp_ogl: u clamped to [0, 4], i = (u >= 4 ? 3 : floor u): below 0 -> 0, above 1 -> 3
const NEAREST: [[f32; 10]; 6] = [
    [6.0, 6.0, 7.0, 5.0, 6.0, 4.0, 4.0, 4.0, 4.0, 4.0],
    [6.0, 5.0, 4.0, 6.0, 5.0, 4.0, 4.0, 4.0, 4.0, 4.0],
    [4.0, 4.0, 4.0, 7.0, 7.0, 7.0, 4.0, 7.0, 4.0, 4.0],
    [B, B, B, B, B, B, B, B, B, 4.0],
    [7.0, 5.0, 4.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 4.0],
    [4.0, 4.0, 4.0, 7.0, 7.0, 7.0, 4.0, 7.0, 4.0, 4.0],
];

/// Linear, per mode and s. x = u - 0.5, i0 = floor(x), alpha = frac(x),
/// value = (1 - alpha) T(i0) + alpha T(i0 + 1):
/// -1.3 -> x -5.7: i0 -6, alpha 0.3; -0.3 -> -1.7: -2, 0.3; -0.05 -> -0.7: -1, 0.3;
/// 1.3 -> 4.7: 4, 0.7; 7.6 -> 29.9: 29, 0.9; 1e6 -> 3999999.5: 3999999, 0.5
/// (exact in f32); -1e30 and +-Inf: alpha = 0, one texel at a multiple of 8;
/// NaN: index 0 with alpha 0.
///
/// - repeat: (2,3)->6.3; (2,3)->6.3; (3,0)->0.7*7+0.3*4=6.1; (0,1)->4.7; (1,2)->0.1*5+0.9*6=5.9; (3,0)->5.5; 4; 4; 4; 4
/// - mirrored: (2,3)->6.3; (1,0)->4.7; (0,0)->4; (3,2)->6.3; 29->2, 30->1: 5.1; 3999999 (7 mod 8)->0, 4e6->0: 4; 4; 4; 4; 4
/// - clamp_to_edge: 4 4 4 7 7 7 4 7 4 4
/// - clamp_to_border: all border except -0.05 (0.7 B + 0.3 T0 = 71.2) and NaN (T0 = 4)
/// - mirror_clamp_to_edge: (3,3)->7; (1,0)->4.7; (0,0)->4; (3,3)->7; 7; 7; 7; 7; 7; 4
/// - clamp_ogl: u clamped to 0 -> x = -0.5: 0.5 B + 0.5 T0 = 52; u clamped to 4 -> x = 3.5: 0.5 T3 + 0.5 B = 53.5
const LINEAR: [[f32; 10]; 6] = [
    [6.3, 6.3, 6.1, 4.7, 5.9, 5.5, 4.0, 4.0, 4.0, 4.0],
    [6.3, 4.7, 4.0, 6.3, 5.1, 4.0, 4.0, 4.0, 4.0, 4.0],
    [4.0, 4.0, 4.0, 7.0, 7.0, 7.0, 4.0, 7.0, 4.0, 4.0],
    [B, B, 71.2, B, B, B, B, B, B, 4.0],
    [7.0, 4.7, 4.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 4.0],
    // NaN is checked separately (`clamp_ogl_linear_reads_nan_as_index_zero`).
    [
        52.0,
        52.0,
        52.0,
        53.5,
        53.5,
        53.5,
        52.0,
        53.5,
        52.0,
        f32::NAN,
    ],
];

fn check_table(filter: Filter, table: &[[f32; 10]; 6]) {
    let v = view(index_2d(4, 4));
    for (m, mode) in MODES.into_iter().enumerate() {
        let smp = sampler(filter, mode);
        for (k, s) in S.into_iter().enumerate() {
            let want = table[m][k];
            if want.is_nan() {
                continue;
            }
            let got = sample_at(
                &v,
                &smp,
                &Profile::VULKAN,
                &at_lod(0.0),
                [s, 0.375, 0.0, 0.0],
            );
            let got = float4(got);
            // 1e-4: f32 rounding of s * 4 - 0.5 moves alpha by ~1e-7, times values <= 100.
            assert_close(
                got[0],
                want,
                1e-4,
                &format!("{filter:?} {} s = {s}", mode.name()),
            );
            assert_eq!(
                got[1..],
                [0.0, 0.0, 1.0],
                "{filter:?} {} s = {s}: R32 substitutes (G, B, A) = (0, 0, 1)",
                mode.name()
            );
        }
    }
}

#[test]
fn nearest_sample_wraps_negative_far_and_non_finite_coordinates_per_mode() {
    check_table(Filter::Nearest, &NEAREST);
}

#[test]
fn linear_sample_wraps_negative_far_and_non_finite_coordinates_per_mode() {
    check_table(Filter::Linear, &LINEAR);
}

#[test]
fn a_finite_far_coordinate_wraps_by_exact_arithmetic() {
    // Vulkan wraps i = floor(u) exactly; u is an f32, so any finite u is an
    // exact integer past 2^24 and its residue is well defined.
    // 4x4: s = 4194304.5 (exact in f32) -> u = 16777218 = 2^24 + 2 -> i mod 4 = 2
    // -> T(2, 1) = 6 (repeat); mirrored: 16777218 mod 8 = 2 -> T(2, 1) = 6.
    let v = view(index_2d(4, 4));
    for mode in [Repeat, MirroredRepeat] {
        let got = red_at(
            &v,
            &sampler(Filter::Nearest, mode),
            [4_194_304.5, 0.375, 0.0, 0.0],
        );
        assert_eq!(got, 6.0, "{} at u = 2^24 + 2", mode.name());
    }
    // 3x1: s = 1e7 -> u = 3e7 (exact) -> 30000000 mod 3 = 0 -> T(0) = 0;
    // mirrored: 30000000 mod 6 = 0 -> (0 - 3) -> mirror 2 -> 2 - 2 = 0.
    let v = view(index_2d(3, 1));
    for mode in [Repeat, MirroredRepeat] {
        let got = red_at(&v, &sampler(Filter::Nearest, mode), [1e7, 0.5, 0.0, 0.0]);
        assert_eq!(got, 0.0, "{} at u = 3e7 on 3 texels", mode.name());
    }
}

#[test]
fn clamp_ogl_linear_reads_nan_as_coordinate_zero() {
    // The reference.rs contract: clamp_ogl clamps the *coordinate*, and a
    // NaN coordinate clamps to 0, so a linear read straddles the edge like
    // s = 0 does: 0.5 B + 0.5 T(0, 1) = 0.5 * 100 + 0.5 * 4 = 52.
    let v = view(index_2d(4, 4));
    let got = red_at(
        &v,
        &sampler(Filter::Linear, ClampOgl),
        [f32::NAN, 0.375, 0.0, 0.0],
    );
    assert_close(got, 0.5 * B + 0.5 * 4.0, 1e-4, "clamp_ogl linear, s = NaN");
}

#[test]
fn clamp_ogl_edge_blends_half_with_the_border() {
    // GL_CLAMP: u = clamp(s*W, 0, W), so at s = 0 and s = 1 the linear
    // footprint straddles the edge: x = -0.5 -> 0.5 B + 0.5 T(0); x = 3.5
    // -> 0.5 T(3) + 0.5 B. Nearest at s = 1 reads i = W - 1 = 3 (not border).
    let v = view(index_2d(4, 4));
    let lin = sampler(Filter::Linear, ClampOgl);
    assert_close(
        red_at(&v, &lin, [0.0, 0.375, 0.0, 0.0]),
        0.5 * B + 0.5 * 4.0,
        1e-4,
        "s = 0",
    );
    assert_close(
        red_at(&v, &lin, [1.0, 0.375, 0.0, 0.0]),
        0.5 * 7.0 + 0.5 * B,
        1e-4,
        "s = 1",
    );
    // Clamp to edge at s = 0 blends T(-1 -> 0) and T(0): no border.
    assert_close(
        red_at(
            &v,
            &sampler(Filter::Linear, ClampToEdge),
            [0.0, 0.375, 0.0, 0.0],
        ),
        4.0,
        1e-4,
        "edge s = 0",
    );
    assert_eq!(
        red_at(
            &v,
            &sampler(Filter::Nearest, ClampOgl),
            [1.0, 0.375, 0.0, 0.0]
        ),
        7.0
    );
}

#[test]
fn each_axis_wraps_with_its_own_mode() {
    // s = -0.3 -> i = -2; t = 1.3 -> v = 5.2, j = 5.
    let v = view(index_2d(4, 4));
    let smp = |u: AddressMode, w: AddressMode| SamplerHeader {
        address: [u, w, Repeat],
        border_color: BorderColor::Float([B; 4]),
        ..Default::default()
    };
    let c = [-0.3, 1.3, 0.0, 0.0];
    // repeat i -> 2, clamp j -> 3: T(2, 3) = 14.
    assert_eq!(red_at(&v, &smp(Repeat, ClampToEdge), c), 14.0);
    // mirrored i -> 1, repeat j -> 1: T(1, 1) = 5.
    assert_eq!(red_at(&v, &smp(MirroredRepeat, Repeat), c), 5.0);
    // clamp i -> 0, mirrored j (5 mod 8 -> 2): T(0, 2) = 8.
    assert_eq!(red_at(&v, &smp(ClampToEdge, MirroredRepeat), c), 8.0);
    // A border on either axis makes the whole texel border.
    assert_eq!(red_at(&v, &smp(Repeat, ClampToBorder), c), B);
    assert_eq!(red_at(&v, &smp(ClampToBorder, Repeat), c), B);
}

// ---------------------------------------------------------------------------
// Offsets
// ---------------------------------------------------------------------------

#[test]
fn profile_offset_keeps_the_field_range_and_wraps_past_it() {
    let p = Profile::VULKAN;
    assert_eq!((p.tex_offset_bits, p.gather_offset_bits), (4, 6));
    assert_eq!(Profile::PTX.gather_offset_bits, 4);
    assert_eq!(Profile::NV_SASS.gather_offset_bits, 6);
    // 4 bits: -8..7; 8 wraps to -8, -9 to 7 (two's complement of the low bits).
    assert_eq!(
        [-8, 7, 8, -9, 15, 16].map(|v| p.offset(v, 4)),
        [-8, 7, -8, 7, -1, 0]
    );
    // 6 bits: -32..31; 32 wraps to -32, -33 to 31.
    assert_eq!(
        [-32, 31, 32, -33, 64].map(|v| p.offset(v, 6)),
        [-32, 31, -32, 31, 0]
    );
    let clamp = Profile {
        offset_overflow: OffsetOverflow::Clamp,
        ..Profile::VULKAN
    };
    assert_eq!(
        [-8, 7, 8, -9, 100].map(|v| clamp.offset(v, 4)),
        [-8, 7, 7, -8, 7]
    );
    assert_eq!(
        [-32, 31, 32, -33].map(|v| clamp.offset(v, 6)),
        [-32, 31, 31, -32]
    );
}

fn offset_args(p: &Profile, bits: u8, o: [i32; 2]) -> SampleArgs {
    SampleArgs {
        offset: [p.offset(o[0], bits), p.offset(o[1], bits), 0],
        ..at_lod(0.0)
    }
}

#[test]
fn offsets_at_both_ends_of_each_range_shift_the_texel_read() {
    // 64x64, T(i, j) = 64j + i; the point is texel (32, 32)'s centre.
    // Offsets are added in texels: u = s*64 + di (Vulkan (s,t,r,q,a) to (u,v,w,a)).
    let v = view(index_2d(64, 64));
    let smp = SamplerHeader::default();
    let c = [32.5 / 64.0, 32.5 / 64.0, 0.0, 0.0];
    let p = Profile::VULKAN;
    let read =
        |bits: u8, o: [i32; 2]| sample_at(&v, &smp, &p, &offset_args(&p, bits, o), c).to_f32()[0];
    // 4 bits: (-8, 7) -> (24, 39) = 39*64 + 24; (7, -8) -> (39, 24).
    assert_eq!(read(4, [-8, 7]), 2520.0);
    assert_eq!(read(4, [7, -8]), 1575.0);
    // 6 bits: (-32, 31) -> (0, 63) = 4032; (31, -32) -> (63, 0) = 63.
    assert_eq!(read(6, [-32, 31]), 4032.0);
    assert_eq!(read(6, [31, -32]), 63.0);
    // Out of the field: 8 wraps to -8 and -9 to 7 in 4 bits; 32 to -32 and
    // -33 to 31 in 6 bits (same reads as the ends above).
    assert_eq!(read(4, [8, -9]), 2520.0);
    assert_eq!(read(6, [32, -33]), 4032.0);
}

#[test]
fn an_offset_moves_the_linear_footprint_by_whole_texels() {
    // u = 32.25: x = 31.75, i0 = 31, alpha = 0.75; t on row 10's centre.
    // Without offset: 640 + 31.75; offset +1: i0 = 32 -> 640 + 32.75.
    let v = view(index_2d(64, 64));
    let smp = SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..Default::default()
    };
    let c = [32.25 / 64.0, 10.5 / 64.0, 0.0, 0.0];
    let p = Profile::VULKAN;
    let got = |o| sample_at(&v, &smp, &p, &offset_args(&p, 4, o), c).to_f32()[0];
    assert_close(got([0, 0]), 671.75, 1e-3, "no offset");
    assert_close(got([1, 0]), 672.75, 1e-3, "offset +1");
    assert_close(got([0, -1]), 576.0 + 31.75, 1e-3, "offset (0, -1): row 9");
}

#[test]
fn offset_past_the_edge_wraps_with_the_address_mode() {
    // Texel 0 of row 0 with offset -8: i = -8 -> repeat 56, clamp 0, border B.
    let v = view(index_2d(64, 64));
    let c = [0.5 / 64.0, 0.5 / 64.0, 0.0, 0.0];
    let p = Profile::VULKAN;
    let args = offset_args(&p, 4, [-8, 0]);
    let read = |m| sample_at(&v, &sampler(Filter::Nearest, m), &p, &args, c).to_f32()[0];
    assert_eq!(read(Repeat), 56.0);
    assert_eq!(read(ClampToEdge), 0.0);
    assert_eq!(read(ClampToBorder), B);
    // Mirrored: -8 mod 128 = 120 -> 120 - 64 = 56 -> 63 - 56 = 7.
    assert_eq!(read(MirroredRepeat), 7.0);
}

#[test]
fn offsets_count_texels_of_the_level_read() {
    // 64x64 with its mip chain, level L texel = 100L + w_L j + i. At lambda 1
    // (level 1, 32x32) s = t = 32.5/64 -> u = v = 16.25; offset (7, -8)
    // -> (23.25, 8.25) -> texel (23, 8) = 100 + 8*32 + 23 (seven level-1
    // texels, not 3.5).
    let v = view(mip_index_2d(64, 64));
    let smp = SamplerHeader::default();
    let p = Profile::VULKAN;
    let args = SampleArgs {
        offset: [7, -8, 0],
        ..at_lod(1.0)
    };
    let got = sample_at(&v, &smp, &p, &args, [32.5 / 64.0, 32.5 / 64.0, 0.0, 0.0]);
    assert_eq!(got.to_f32()[0], 379.0);
}

// ---------------------------------------------------------------------------
// Array layers
// ---------------------------------------------------------------------------

#[test]
fn select_layer_rounds_ties_to_even_under_rne() {
    let r = |a| select_layer(a, 4, LayerRound::Rne);
    assert_eq!(
        [0.5, 1.5, 2.5, 3.5, 0.49, 0.51, 1.49].map(r),
        [0, 2, 2, 3, 0, 1, 1]
    );
}

#[test]
fn select_layer_rounds_ties_up_under_floor_half() {
    // floor(a + 0.5).
    let r = |a| select_layer(a, 4, LayerRound::FloorHalf);
    assert_eq!([0.5, 1.5, 2.5, 0.49, -0.5].map(r), [1, 2, 3, 0, 0]);
}

#[test]
fn select_layer_clamps_to_the_view_and_reads_nan_as_zero() {
    for rule in [LayerRound::Rne, LayerRound::FloorHalf] {
        let r = |a| select_layer(a, 4, rule);
        // Negative -> 0; above count - 1 -> count - 1; NaN -> 0; +-Inf clamp.
        assert_eq!(
            [
                -0.6,
                -3.0,
                7.2,
                1e9,
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY
            ]
            .map(r),
            [0, 0, 3, 3, 0, 3, 0],
            "{rule:?}"
        );
    }
    assert_eq!(select_layer(5.0, 1, LayerRound::Rne), 0, "a single layer");
}

fn layered() -> TextureHeader {
    // 2x2, 4 layers, texel = 10 * layer + (2j + i).
    let desc = TextureDesc::d2(TextureFormat::R32Float, 2, 2)
        .with_levels(1)
        .with_layers(TextureKind::D2Array, 4);
    view(r32f(desc, |_, layer, i, j| (10 * layer + 2 * j + i) as f32))
}

#[test]
fn array_sample_reads_the_rounded_and_clamped_layer() {
    let v = layered();
    let smp = SamplerHeader::default();
    let read = |p: &Profile, a: f32| {
        sample_at(&v, &smp, p, &at_lod(0.0), [0.25, 0.25, 0.0, a]).to_f32()[0]
    };
    let vk = Profile::VULKAN; // RNE
    assert_eq!(
        [0.5, 1.5, 2.5, 1.2, -1.0, 9.0, f32::NAN].map(|a| read(&vk, a)),
        [0.0, 20.0, 20.0, 10.0, 0.0, 30.0, 0.0]
    );
    let sass = Profile::NV_SASS; // floor(a + 0.5)
    assert_eq!(
        [0.5, 2.5, -0.5, 9.0].map(|a| read(&sass, a)),
        [10.0, 30.0, 0.0, 30.0]
    );
}

#[test]
fn array_layer_is_relative_to_the_view_base_layer() {
    // A view of layers 1..=2: l = clamp(RNE(a), 0, 1) + 1.
    let mut v = layered();
    v.base_layer = 1;
    v.layer_count = 2;
    let smp = SamplerHeader::default();
    let read = |a: f32| red_at(&v, &smp, [0.75, 0.75, 0.0, a]);
    // Texel (1, 1) = 3 on each layer.
    assert_eq!([0.0, 1.0, 5.0, -3.0].map(read), [13.0, 23.0, 23.0, 13.0]);
}

#[test]
fn linear_filtering_never_blends_layers() {
    // a = 1.4 rounds to layer 1; the bilinear footprint stays in it:
    // centre of the 2x2 -> mean of 10..13 = 11.5.
    let v = layered();
    let smp = SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        mipmap_mode: MipmapMode::Linear,
        address: [ClampToEdge; 3],
        ..Default::default()
    };
    assert_close(
        red_at(&v, &smp, [0.5, 0.5, 0.0, 1.4]),
        11.5,
        1e-5,
        "layer 1.4",
    );
}
