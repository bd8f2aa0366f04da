//! The rasterizer at its bounds (defects found by fuzzing): targets wider
//! than the limit are errors, and triangles with extreme clip coordinates
//! (huge, tiny w, the largest floats) cover exactly what they should at
//! the largest target extent, with no fixed-point overflow (run these in a
//! debug build too: overflow checks are on there).

use std::sync::Arc;

use glam::{Mat4, Vec3, Vec4};
use quadtex_raster::error::MAX_TARGET_EXTENT;
use quadtex_raster::{shader_fn, DrawCall, DrawState, ErrorKind, Frame, Mesh, Renderer};

/// A frame of one triangle with clip-space vertices `clip` (the positions
/// are the clip coordinates' xyz, w through the transform's last row).
fn frame(width: u32, height: u32, clip: [Vec4; 3]) -> Frame {
    // Positions (x, y, z) with w folded in: transform = identity except
    // that w comes from a per-vertex z-independent trick is not possible
    // with one matrix, so each vertex is pre-divided: (x/w, y/w, z/w, 1)
    // scaled back by the matrix's w row = 1. Extreme w is exercised by
    // scaling whole vertices instead (clip-space homogeneity).
    let positions: Vec<Vec3> = clip.iter().map(|c| c.truncate()).collect();
    let mesh = Mesh {
        positions,
        indices: vec![0, 1, 2],
        ..Default::default()
    };
    let w = clip[0].w;
    let transform = Mat4::from_cols(Vec4::X, Vec4::Y, Vec4::Z, Vec4::new(0.0, 0.0, 0.0, w));
    let shader = shader_fn(Vec::new(), |_, out| *out = [[1.0, 0.0, 0.0, 1.0]; 4]);
    let mut f = Frame::new(width, height);
    f.clear_color = [0.0; 4];
    f.draw(DrawCall::new(Arc::new(mesh), transform, shader).with_state(DrawState::OVERLAY));
    f
}

fn covered(frame: &Frame) -> usize {
    let r = Renderer::new(1).unwrap().render(frame).unwrap();
    r.color.values().iter().filter(|p| p[0] == 1.0).count()
}

#[test]
fn targets_wider_or_taller_than_the_limit_are_errors() {
    for (w, h) in [
        (MAX_TARGET_EXTENT + 1, 1),
        (1, MAX_TARGET_EXTENT + 1),
        (1 << 28, 1),
    ] {
        let f = frame(
            w,
            h,
            [
                Vec4::new(-1.0, -1.0, 0.5, 1.0),
                Vec4::new(3.0, -1.0, 0.5, 1.0),
                Vec4::new(-1.0, 3.0, 0.5, 1.0),
            ],
        );
        let r = Renderer::new(1).unwrap().render(&f);
        assert!(
            matches!(&r, Err(e) if e.kind() == ErrorKind::TooLarge),
            "{w} x {h}: {:?}",
            r.map(|_| ())
        );
    }
}

#[test]
fn huge_triangles_at_the_largest_extent_cover_exactly_their_pixels() {
    let (w, h) = (MAX_TARGET_EXTENT, 2);
    // The whole target: a triangle far past the guard band on every side.
    for scale in [1.0f32, 100.0, 1e6, 1e30, f32::MAX / 4.0] {
        let f = frame(
            w,
            h,
            [
                Vec4::new(-scale, -scale, 0.5, 1.0),
                Vec4::new(3.0 * scale.min(f32::MAX / 4.0), -scale, 0.5, 1.0),
                Vec4::new(-scale, 3.0 * scale.min(f32::MAX / 4.0), 0.5, 1.0),
            ],
        );
        assert_eq!(covered(&f), (w * h) as usize, "scale {scale}");
    }
    // The left half exactly: x = 0 in NDC is the pixel edge at w / 2; the
    // far vertices lie way outside the guard band.
    let f = frame(
        w,
        h,
        [
            Vec4::new(-100.0, -100.0, 0.5, 1.0),
            Vec4::new(0.0, -100.0, 0.5, 1.0),
            Vec4::new(0.0, 100.0, 0.5, 1.0),
        ],
    );
    let r = Renderer::new(1).unwrap().render(&f).unwrap();
    let lit: Vec<bool> = (0..w)
        .map(|x| r.color.pixel(x, 0).unwrap()[0] == 1.0)
        .collect();
    // Pixel centres x + 0.5 < w / 2 are inside (top-left rule: the edge
    // x = w / 2 runs along y, a right edge, so its centres are out).
    assert!(lit[..(w / 2) as usize].iter().all(|&l| l), "left half");
    assert!(lit[(w / 2) as usize..].iter().all(|&l| !l), "right half");
}

#[test]
fn extreme_clip_coordinates_never_overflow_the_fixed_point_setup() {
    let (w, h) = (MAX_TARGET_EXTENT, 4);
    let r = Renderer::new(1).unwrap();
    for scale in [1e6f32, 1e20, 1e30, f32::MAX / 4.0, f32::MAX] {
        for ww in [1e-7f32, 1.0, 1e30, f32::MAX] {
            let f = frame(
                w,
                h,
                [
                    Vec4::new(-scale, -scale, 0.5, ww),
                    Vec4::new(scale, -scale, 0.5, ww),
                    Vec4::new(-scale, scale, 0.5, ww),
                ],
            );
            r.render(&f).unwrap();
        }
    }
}

#[test]
fn tiny_and_huge_w_keep_the_projected_shape() {
    // The same NDC triangle (the top-left quarter-ish) at w from tiny to
    // huge: homogeneous coordinates, the same picture.
    let (w, h) = (64, 64);
    let ndc = [
        Vec3::new(-1.0, -1.0, 0.5),
        Vec3::new(0.5, -1.0, 0.5),
        Vec3::new(-1.0, 0.75, 0.5),
    ];
    let want = covered(&frame(w, h, ndc.map(|v| v.extend(1.0))));
    assert!(want > 0);
    for ww in [1e-6f32, 1e-3, 1e3, 1e20, 1e36] {
        let clip = ndc.map(|v| (v * ww).extend(ww));
        assert_eq!(covered(&frame(w, h, clip)), want, "w = {ww}");
    }
}
