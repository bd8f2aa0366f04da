//! Triangle setup at the bounds of its fixed-point arithmetic: vertices at
//! the guard band's limits, huge and near-`f32::MAX` clip coordinates,
//! near-zero `w`, and the widest target. Each case renders with one
//! additive write per covered pixel and compares the covered set, pixel by
//! pixel, with the coverage worked out from the geometry (every edge of
//! these cases passes no closer than a quarter pixel to a pixel centre, or
//! through pixel centres exactly, where the top-left rule decides).
//!
//! Before the clipper computed its cuts in f64 and setup clamped vertices
//! to its coordinate limit, several of these overflowed i64 in the edge
//! functions (a panic with overflow checks on) or lost the triangle.

use std::sync::Arc;

use glam::{Mat4, Vec3, Vec4};
use quadtex_raster::error::MAX_TARGET_EXTENT;
use quadtex_raster::{BlendMode, DrawCall, DrawState, ErrorKind, Frame, Mesh, Renderer};

/// Clip space from a position `(x, y, w)`: `(x, y, w / 2, w)`, so depth is
/// 0.5 and the position's z is the clip `w`.
fn xyw_to_clip() -> Mat4 {
    Mat4::from_cols(
        Vec4::new(1.0, 0.0, 0.0, 0.0),
        Vec4::new(0.0, 1.0, 0.0, 0.0),
        Vec4::new(0.0, 0.0, 0.5, 1.0),
        Vec4::ZERO,
    )
}

/// Renders the triangles (clip `(x, y, w)` per vertex) on a `w x h` target
/// and returns the writes per pixel.
fn coverage(w: u32, h: u32, tris: &[[[f32; 3]; 3]]) -> Vec<u32> {
    let mut mesh = Mesh::default();
    for t in tris {
        for v in t {
            mesh.indices.push(mesh.positions.len() as u32);
            mesh.positions.push(Vec3::from_array(*v));
        }
    }
    let shader = Arc::new(
        |_: &mut quadtex_raster::QuadCtx<'_>, out: &mut [[f32; 4]; 4]| {
            *out = [[1.0, 0.0, 0.0, 0.0]; 4];
        },
    );
    let mut frame = Frame::new(w, h);
    frame.draw(
        DrawCall::new(Arc::new(mesh), xyw_to_clip(), shader).with_state(DrawState {
            blend: BlendMode::Additive,
            ..DrawState::OVERLAY
        }),
    );
    let r = Renderer::new(2).unwrap().render(&frame).unwrap();
    r.color.values().iter().map(|c| c[0] as u32).collect()
}

/// Asserts that exactly the pixels `(x, y)` with `expected(x, y)` were
/// written, each once; returns how many there are.
fn assert_covers(w: u32, h: u32, got: &[u32], expected: impl Fn(u32, u32) -> bool) -> usize {
    let mut wrong = Vec::new();
    let mut count = 0;
    for y in 0..h {
        for x in 0..w {
            let want = u32::from(expected(x, y));
            count += want as usize;
            let g = got[(y * w + x) as usize];
            if g != want {
                wrong.push((x, y, g, want));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong pixels (x, y, got, want), first: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(8)]
    );
    count
}

/// On a 16 x 16 target the guard band reaches 8192 pixels from the centre:
/// NDC +-1024. A triangle with its corners exactly there, hypotenuse on
/// the screen diagonal `y = x`, needs no clipping and covers the pixels
/// below the diagonal; the pixel centres on it belong to the triangle's
/// right edge, which does not own them.
#[test]
fn guard_band_corner_vertices_cover_exactly_the_pixels_below_the_diagonal() {
    let g = 1024.0;
    let got = coverage(16, 16, &[[[-g, -g, 1.0], [g, -g, 1.0], [-g, g, 1.0]]]);
    assert_eq!(assert_covers(16, 16, &got, |x, y| y > x), 120);
}

/// The same half-screen, its corners 2^120 times further out (x = y =
/// +-1.3e39 would overflow f32; these are within 1% of `f32::MAX`): the
/// clipper's cuts at the guard band are exact enough that the diagonal
/// stays the diagonal.
#[test]
fn near_f32_max_clip_coordinates_cover_exactly_the_pixels_below_the_diagonal() {
    let g = 3.4e38f32;
    let got = coverage(16, 16, &[[[-g, -g, 1.0], [g, -g, 1.0], [-g, g, 1.0]]]);
    assert_eq!(assert_covers(16, 16, &got, |x, y| y > x), 120);
}

/// A triangle around the whole viewport with corners at +-1e30 (and one
/// at 3e38, where `to - from` in f32 is infinite) covers every pixel once.
/// Before the fix the guard-band cuts of its far edges came out garbage
/// and their fixed-point products overflowed.
#[test]
fn huge_triangles_around_the_viewport_cover_every_pixel_once() {
    for (a, b) in [(1e30f32, 1e30f32), (1e30, 3e38), (3e38, 3e38), (5e18, 1e37)] {
        let got = coverage(16, 16, &[[[-a, -a, 1.0], [a, -a, 1.0], [0.0, b, 1.0]]]);
        assert_eq!(assert_covers(16, 16, &got, |_, _| true), 256, "{a} {b}");
    }
}

/// Screen x minus 8.25 at least |screen y minus 8|: the wedge opening to
/// the right from (8.25, 8) with 45-degree edges, on a 16 x 16 target. No
/// pixel centre is within a quarter pixel of its edges.
fn wedge(x: u32, y: u32) -> bool {
    x as f32 + 0.5 - 8.25 > (y as f32 + 0.5 - 8.0).abs()
}

/// A triangle from (8.25, 8) to two vertices at infinity in the
/// directions (1, -1) and (1, 1) of NDC, given with `w` far below the
/// `w > 0` clip epsilon, and with far huge or near-f32::MAX `x, y`: the
/// wedge, exactly.
#[test]
fn near_zero_w_and_huge_vertices_cover_exactly_the_wedge() {
    let apex = [0.03125, 0.0, 1.0];
    let cases: [[[f32; 3]; 2]; 5] = [
        [[1.0, -1.0, 1e-30], [1.0, 1.0, 1e-30]],
        [[1.0, -1.0, 1e-9], [1.0, 1.0, 0.0]],
        [[1e30, -1e30, 1.0], [1e30, 1e30, 1.0]],
        [[3e38, -3e38, 1.0], [3e38, 3e38, 1e-30]],
        [[1e20, -1e20, 1e-20], [1e20, 1e20, 1e-38]],
    ];
    for [b, c] in cases {
        let got = coverage(16, 16, &[[apex, b, c]]);
        assert_eq!(assert_covers(16, 16, &got, wedge), 56, "{b:?} {c:?}");
    }
    // The apex itself with a huge w: the same point (0.03125, 0) in NDC,
    // but every cut now mixes magnitudes 1e30 apart.
    let far_apex = [0.03125e30, 0.0, 1e30];
    let got = coverage(16, 16, &[[far_apex, [1.0, -1.0, 1e-30], [1.0, 1.0, 1e-30]]]);
    assert_eq!(assert_covers(16, 16, &got, wedge), 56);
}

/// The widest target: a sliver from the top-left corner (0, 0) to
/// (32768, 0) and (0, 8), whose long edge falls one pixel every 4096.
/// Edge values at the far right reach their largest there; the covered
/// set is exactly the pixel centres above the edge.
#[test]
fn the_widest_target_rasterizes_its_far_columns_exactly() {
    let (w, h) = (MAX_TARGET_EXTENT, 8);
    // NDC of pixel (sx, sy): x = sx / w * 2 - 1, y = 1 - sy / h * 2.
    let ndc = |sx: f32, sy: f32| [sx / w as f32 * 2.0 - 1.0, 1.0 - sy / h as f32 * 2.0, 1.0];
    let got = coverage(w, h, &[[ndc(0.0, 0.0), ndc(w as f32, 0.0), ndc(0.0, 8.0)]]);
    // Centre (x + 0.5, y + 0.5) under the line y = 8 - x / 4096.
    let n = assert_covers(w, h, &got, |x, y| {
        4096 * (2 * u64::from(y) + 1) + 2 * u64::from(x) + 1 < 65536
    });
    // Row y: 32768 - 2048 * (2y + 1) pixels.
    assert_eq!(n, 131_072);
}

/// Past the extent that bounds the fixed-point values, a frame is refused
/// (before any allocation) instead of rasterized with overflowing edges.
#[test]
fn targets_wider_or_taller_than_the_limit_are_refused() {
    let r = Renderer::new(1).unwrap();
    for (w, h) in [
        (MAX_TARGET_EXTENT + 1, 1),
        (1, MAX_TARGET_EXTENT + 1),
        (1 << 28, 1),
    ] {
        let err = r.render(&Frame::new(w, h)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TooLarge);
        assert_eq!(err.target_size(), Some((w, h, 1)));
        assert!(err.to_string().contains("32768 pixels a side"), "{err}");
    }
    assert!(r.render(&Frame::new(MAX_TARGET_EXTENT, 1)).is_ok());
}

/// A frame whose tile buffers (20 bytes a sample: colour and depth) pass
/// the 256 MiB the renderer keeps alive at once is rendered in bands of
/// tile rows; 4096 x 4096 is two bands. Every pixel of both comes out, the
/// diagonal exactly.
#[test]
fn a_frame_rendered_in_several_tile_bands_is_exact_in_every_band() {
    let n = 4096;
    let got = coverage(
        n,
        n,
        &[[[-1.0, -1.0, 1.0], [1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]]],
    );
    let count = assert_covers(n, n, &got, |x, y| y > x);
    assert_eq!(count, 4096 * 4095 / 2);
}
