//! Builders shared by the known-answer tests (`tests/known_*.rs`): small
//! textures whose texel values spell out where they live, quads whose four
//! lanes sit on one point, and one-lane sampling through the reference.
//!
//! Every texture here stores R32_SFLOAT (or a named format) texels whose
//! value encodes `(level, layer, i, j)`, so an expected value read off a
//! hand derivation names exactly one texel, and a filtered value names the
//! weights.
#![allow(
    dead_code,
    reason = "each test binary uses a different subset of these helpers"
)]

use std::sync::Arc;

use quadtex_format::{Aspect, Layout, Texel, TexelAddr, Texture, TextureDesc, TextureFormat};
use quadtex_sampler::{reference, Lod, Profile, Quad, SampleArgs, SamplerHeader, TextureHeader};

/// A texture of `desc` whose texel `(level, layer, i, j)` is `f(level,
/// layer, i, j)`.
pub(crate) fn texture_with(desc: TextureDesc, f: impl Fn(u32, u32, u32, u32) -> Texel) -> Texture {
    let mut t = Texture::new(desc, Layout::Linear).expect("valid description");
    for level in 0..desc.levels {
        let e = desc.level_extent(level);
        for layer in 0..desc.layers {
            for j in 0..e.height {
                for i in 0..e.width {
                    t.write_texel(
                        TexelAddr::new(level, layer, 0, i, j, 0),
                        Aspect::Color,
                        f(level, layer, i, j),
                    )
                    .expect("texel in range");
                }
            }
        }
    }
    t
}

/// An R32_SFLOAT texture whose texels hold `f(level, layer, i, j)`.
pub(crate) fn r32f(desc: TextureDesc, f: impl Fn(u32, u32, u32, u32) -> f32) -> Texture {
    assert_eq!(desc.format, TextureFormat::R32Float);
    texture_with(desc, |l, a, i, j| {
        Texel::Float([f(l, a, i, j), 0.0, 0.0, 1.0])
    })
}

/// A `w` x `h` R32_SFLOAT 2D texture with one level, texel `(i, j)` =
/// `w * j + i` (its row-major index).
pub(crate) fn index_2d(w: u32, h: u32) -> Texture {
    r32f(
        TextureDesc::d2(TextureFormat::R32Float, w, h).with_levels(1),
        move |_, _, i, j| (w * j + i) as f32,
    )
}

/// A `w` x `h` R32_SFLOAT 2D texture with its full mip chain, texel `(i,
/// j)` of level `L` (width `w_L`) = `100 * L + w_L * j + i`.
pub(crate) fn mip_index_2d(w: u32, h: u32) -> Texture {
    let desc = TextureDesc::d2(TextureFormat::R32Float, w, h);
    r32f(desc, move |l, _, i, j| {
        (100 * l + desc.level_extent(l).width * j + i) as f32
    })
}

/// The whole texture as a view.
pub(crate) fn view(t: Texture) -> TextureHeader {
    TextureHeader::new(Arc::new(t))
}

/// A full quad whose four lanes all sit at `c` (so implicit derivatives
/// are zero).
pub(crate) fn point(c: [f32; 4]) -> Quad {
    Quad::new([c; 4])
}

/// A full quad stepping `dx` per pixel in x and `dy` in y from `c`
/// (lane order 0 = (x, y), 1 = (x+1, y), 2 = (x, y+1), 3 = (x+1, y+1)).
pub(crate) fn stepped(c: [f32; 4], dx: [f32; 2], dy: [f32; 2]) -> Quad {
    let at = |a: f32, b: f32| {
        [
            c[0] + a * dx[0] + b * dy[0],
            c[1] + a * dx[1] + b * dy[1],
            c[2],
            c[3],
        ]
    };
    Quad::new([at(0.0, 0.0), at(1.0, 0.0), at(0.0, 1.0), at(1.0, 1.0)])
}

/// Sample arguments with an explicit lambda for every lane.
pub(crate) fn at_lod(l: f32) -> SampleArgs {
    SampleArgs {
        lod: Lod::Level([l; 4]),
        ..Default::default()
    }
}

/// Sample arguments with the same explicit gradients in every lane.
pub(crate) fn grad(ddx: [f32; 3], ddy: [f32; 3]) -> SampleArgs {
    SampleArgs {
        lod: Lod::Grad {
            ddx: [ddx; 4],
            ddy: [ddy; 4],
        },
        ..Default::default()
    }
}

/// Samples a whole quad after checking that the sampler is one Vulkan
/// allows with this view.
pub(crate) fn sample_quad(
    v: &TextureHeader,
    smp: &SamplerHeader,
    p: &Profile,
    args: &SampleArgs,
    q: &Quad,
) -> [Option<Texel>; 4] {
    smp.validate_with(v)
        .expect("a sampler Vulkan allows with this view");
    reference::sample(v, smp, p, args, q).texels
}

/// Lane 0 of a quad whose lanes all sit at `c`.
pub(crate) fn sample_at(
    v: &TextureHeader,
    smp: &SamplerHeader,
    p: &Profile,
    args: &SampleArgs,
    c: [f32; 4],
) -> Texel {
    sample_quad(v, smp, p, args, &point(c))[0].expect("lane 0 runs")
}

/// The red component of lane 0 at `c`, at lambda 0 with the Vulkan profile.
pub(crate) fn red_at(v: &TextureHeader, smp: &SamplerHeader, c: [f32; 4]) -> f32 {
    sample_at(v, smp, &Profile::VULKAN, &at_lod(0.0), c).to_f32()[0]
}

/// The four float components of a texel (panics on integer texels).
pub(crate) fn float4(t: Texel) -> [f32; 4] {
    match t {
        Texel::Float(v) => v,
        other => panic!("expected a float texel, got {other:?}"),
    }
}

/// `|got - want| <= tol`, with a message naming the case.
#[track_caller]
pub(crate) fn assert_close(got: f32, want: f32, tol: f32, what: &str) {
    assert!(
        (got - want).abs() <= tol || (got.is_nan() && want.is_nan()),
        "{what}: got {got}, want {want} (tolerance {tol})"
    );
}

/// Component-wise [`assert_close`].
#[track_caller]
pub(crate) fn assert_close4(got: [f32; 4], want: [f32; 4], tol: f32, what: &str) {
    for c in 0..4 {
        assert!(
            (got[c] - want[c]).abs() <= tol,
            "{what}: component {c}: got {got:?}, want {want:?} (tolerance {tol})"
        );
    }
}
