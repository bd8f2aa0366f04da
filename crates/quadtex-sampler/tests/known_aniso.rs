//! Anisotropic filtering of a stretched footprint against a dense
//! reference: the average of the texture over the footprint.
//!
//! Rules: Vulkan "Scale Factor Operation" (rho_max, rho_min the ellipse
//! axes; eta = min(rho_max / rho_min, maxAniso); N = ceil(eta); lambda =
//! log2(rho_max / eta)) and "Texel Anisotropic Filtering" (the spec's
//! example: N isotropic samples at x - 1/2 + i/(N + 1), i = 1..N, along the
//! major axis, averaged), docs/semantics.md §2 and §4.
//!
//! The setup: a 64x64 R32_SFLOAT texture of a smooth function with its box
//! mip chain; one pixel whose footprint is 8 texels wide and 1 tall
//! (ddx = (8/64, 0), ddy = (0, 1/64)), centred at texel coordinates
//! (24, 12.5): x in [20, 28), row 12. Both sines sit near their troughs
//! there, so any extra blur (a coarser level) pulls the value up.

mod common;

use std::f32::consts::PI;

use common::*;
use quadtex_format::{mip, Texture, TextureDesc, TextureFormat};
use quadtex_sampler::{AddressMode, Profile, SamplerHeader, TextureHeader};

const N: u32 = 64;
const CX: f32 = 24.0;
const CY: f32 = 12.5;

/// f at texel (i, j): 0.5 + 0.25 sin(2 pi x / 32) + 0.2 sin(2 pi y / 16) at
/// the texel centre (x, y) = (i + 1/2, j + 1/2). Its x curvature is at most
/// 0.25 (2 pi / 32)^2 = 0.00964 per texel^2, largest at x = 24 (the
/// footprint's centre, where sin = -1).
fn f(i: u32, j: u32) -> f32 {
    let (x, y) = (i as f32 + 0.5, j as f32 + 0.5);
    0.5 + 0.25 * (2.0 * PI * x / 32.0).sin() + 0.2 * (2.0 * PI * y / 16.0).sin()
}

fn smooth() -> TextureHeader {
    let desc = TextureDesc::d2(TextureFormat::R32Float, N, N);
    let mut t: Texture = r32f(desc, |l, _, i, j| if l == 0 { f(i, j) } else { 0.0 });
    mip::generate_mips(&mut t).unwrap();
    view(t)
}

fn sampler(max_anisotropy: f32) -> SamplerHeader {
    SamplerHeader {
        max_anisotropy,
        ..SamplerHeader::trilinear(AddressMode::Repeat)
    }
}

/// The dense reference: the texture averaged over the footprint box
/// [20, 28) x [12, 13), i.e. the mean of texels 20..=27 of row 12,
/// supersampled at 64 x 4 nearest reads per texel.
fn footprint_average() -> f32 {
    let (mut sum, mut n) = (0.0f64, 0u32);
    for a in 0..8 * 64 {
        for b in 0..4 {
            let x = CX - 4.0 + (a as f32 + 0.5) / 64.0;
            let y = CY - 0.5 + (b as f32 + 0.5) / 4.0;
            sum += f64::from(f(x.floor() as u32, y.floor() as u32));
            n += 1;
        }
    }
    (sum / f64::from(n)) as f32
}

fn aniso_sample(v: &TextureHeader, max_anisotropy: f32) -> f32 {
    let args = grad([8.0 / N as f32, 0.0, 0.0], [0.0, 1.0 / N as f32, 0.0]);
    sample_at(
        v,
        &sampler(max_anisotropy),
        &Profile::VULKAN,
        &args,
        [CX / N as f32, CY / N as f32, 0.0, 0.0],
    )
    .to_f32()[0]
}

/// Tolerance of the 16x sample against the box average. Both are exact for
/// a linear function (the 8 taps, at 24 + (8/9)(k - 3.5), k = 0..7, are
/// centred on the box). For a quadratic the gap is f''/2 times the gap in
/// second moments: the box of 8 texel centres has mean (k - 3.5)^2 = 5.25;
/// the taps have (8/9)^2 * 5.25 = 4.15, plus the bilinear term mean
/// alpha(1 - alpha) = 0.16 at these tap positions, so 4.31. The gap
/// 0.94 * 0.00964 / 2 = 0.0045 bounds the error; y adds nothing (every tap
/// sits on row 12's centre, beta = 0).
const TOL: f32 = 0.005;

#[test]
fn sixteen_x_anisotropy_matches_the_footprint_average() {
    let v = smooth();
    let box_avg = footprint_average();
    let got = aniso_sample(&v, 16.0);
    // rho_max = 8, rho_min = 1: eta = 8 <= 16, N = 8 taps, lambda =
    // log2(8 / 8) = 0 -> level 0 only.
    assert_close(got, box_avg, TOL, "8 taps at level 0 vs the 8x1 box");
}

#[test]
fn without_anisotropy_the_same_footprint_reads_level_three_and_blurs() {
    let v = smooth();
    let box_avg = footprint_average();
    let iso = aniso_sample(&v, 1.0);
    // maxAniso 1: eta = 1, lambda = log2(rho_max) = log2 8 = 3: exactly
    // level 3 (delta = 0), one bilinear tap there.
    let level3 = sample_at(
        &v,
        &sampler(1.0),
        &Profile::VULKAN,
        &at_lod(3.0),
        [CX / N as f32, CY / N as f32, 0.0, 0.0],
    )
    .to_f32()[0];
    assert_close(iso, level3, 1e-6, "isotropic = level 3");
    // Level 3 averages 8 rows (and 16 columns through its bilinear tent),
    // washing out the y sine that the 1-texel-tall footprint keeps.
    let aniso_err = (aniso_sample(&v, 16.0) - box_avg).abs();
    let iso_err = (iso - box_avg).abs();
    assert!(
        iso_err > 10.0 * TOL,
        "isotropic error {iso_err} should dwarf the tolerance {TOL}"
    );
    assert!(
        iso_err > 10.0 * aniso_err,
        "isotropic error {iso_err} vs anisotropic {aniso_err}"
    );
}

/// The mean of `taps` isotropic bilinear samples at explicit `lod`, spread
/// over the 8-texel major axis as in the spec's example:
/// x = 24 + 8 (i / (taps + 1) - 1/2), i = 1..=taps, y = 12.5.
fn spec_example(v: &TextureHeader, taps: u32, lod: f32) -> f32 {
    let mut sum = 0.0;
    for i in 1..=taps {
        let x = CX + 8.0 * (i as f32 / (taps + 1) as f32 - 0.5);
        sum += sample_at(
            v,
            &sampler(1.0),
            &Profile::VULKAN,
            &at_lod(lod),
            [x / N as f32, CY / N as f32, 0.0, 0.0],
        )
        .to_f32()[0];
    }
    sum / taps as f32
}

#[test]
fn the_anisotropic_taps_follow_the_spec_example() {
    // maxAniso 16: eta = 8, N = 8 taps at lambda 0.
    let v = smooth();
    assert_close(
        aniso_sample(&v, 16.0),
        spec_example(&v, 8, 0.0),
        1e-5,
        "16x: 8 taps at level 0",
    );
    // maxAniso 4 caps eta at 4: N = 4 taps at lambda = log2(8 / 4) = 1.
    assert_close(
        aniso_sample(&v, 4.0),
        spec_example(&v, 4, 1.0),
        1e-5,
        "4x: 4 taps at level 1",
    );
    // maxAniso 2.5: eta = 2.5, N = ceil(2.5) = 3 taps at lambda = log2(8 / 2.5)
    // = 1.678 (trilinear between levels 1 and 2, delta 0.678).
    let lod = (8.0f32 / 2.5).log2();
    let want = spec_example(&v, 3, lod);
    assert_close(
        aniso_sample(&v, 2.5),
        want,
        1e-5,
        "2.5x: 3 taps at lambda 1.678",
    );
}
