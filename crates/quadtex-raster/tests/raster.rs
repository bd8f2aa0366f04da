//! Rasterization: fill rule, helper lanes, interpolation, determinism
//! across thread counts, robustness.

mod common;

use std::sync::{Arc, Mutex};

use common::{checker, draw, px, screen_mesh, solid};
use glam::{Mat4, Vec2, Vec3};
use quadtex_raster::{
    shader_fn, BlendMode, CullMode, DrawCall, DrawState, Frame, Mesh, QuadCtx, Renderer,
    TextureBinding, Unlit,
};
use quadtex_sampler::{AddressMode, SamplerHeader};

fn additive() -> DrawState {
    DrawState {
        blend: BlendMode::Additive,
        ..DrawState::OVERLAY
    }
}

/// Renders `tris` (pixel coordinates) additively with 1 per write and
/// returns the write count per pixel.
fn count_writes(w: u32, h: u32, tris: &[[(f32, f32); 3]]) -> Vec<f32> {
    let mut frame = Frame::new(w, h);
    frame.draw(draw(
        screen_mesh(w, h, tris, 0.5),
        solid([1.0, 0.0, 0.0, 0.0]),
        additive(),
    ));
    let r = Renderer::new(1).unwrap().render(&frame).unwrap();
    r.color.values().iter().map(|c| c[0]).collect()
}

#[test]
fn fill_rule_shared_edge_covers_each_pixel_once() {
    // A square on pixel centres split along its diagonal (which runs through
    // pixel centres too); the second triangle has the opposite winding.
    let (w, h) = (48, 40);
    let tris = [
        [(2.5, 2.5), (34.5, 2.5), (34.5, 34.5)],
        [(2.5, 2.5), (2.5, 34.5), (34.5, 34.5)],
    ];
    let counts = count_writes(w, h, &tris);
    for y in 0..h {
        for x in 0..w {
            // Top-left rule: the left (x = 2.5) and top (y = 2.5) edges own
            // their centres, the right and bottom ones do not.
            let inside = (2..=33).contains(&x) && (2..=33).contains(&y);
            let c = counts[(y * w + x) as usize];
            assert_eq!(c, if inside { 1.0 } else { 0.0 }, "pixel ({x}, {y})");
        }
    }
}

#[test]
fn fill_rule_fan_around_a_pixel_centre_covers_each_pixel_once() {
    // Eight triangles around (20.5, 20.5), every spoke through pixel centres.
    let c = (20.5, 20.5);
    let ring = [
        (8.5, 8.5),
        (20.5, 8.5),
        (32.5, 8.5),
        (32.5, 20.5),
        (32.5, 32.5),
        (20.5, 32.5),
        (8.5, 32.5),
        (8.5, 20.5),
    ];
    let tris: Vec<[(f32, f32); 3]> = (0..8).map(|i| [c, ring[i], ring[(i + 1) % 8]]).collect();
    let (w, h) = (40, 40);
    let counts = count_writes(w, h, &tris);
    for y in 0..h {
        for x in 0..w {
            let inside = (8..=31).contains(&x) && (8..=31).contains(&y);
            assert_eq!(
                counts[(y * w + x) as usize],
                if inside { 1.0 } else { 0.0 },
                "({x}, {y})"
            );
        }
    }
}

#[test]
fn fill_rule_irregular_fan_never_double_writes() {
    // An off-grid convex polygon fanned from an interior vertex.
    let c = (19.3, 21.7);
    let ring: Vec<(f32, f32)> = (0..11)
        .map(|i| {
            let a = i as f32 / 11.0 * std::f32::consts::TAU + 0.3;
            let r = 14.0 + 0.37 * i as f32;
            (20.0 + r * a.cos(), 20.0 + r * a.sin())
        })
        .collect();
    let tris: Vec<[(f32, f32); 3]> = (0..11).map(|i| [c, ring[i], ring[(i + 1) % 11]]).collect();
    let (w, h) = (40, 44);
    let counts = count_writes(w, h, &tris);
    assert!(counts.iter().all(|&n| n == 0.0 || n == 1.0));
    // Every pixel whose centre is well inside the polygon is written.
    let inside = |x: f32, y: f32| {
        (0..11).all(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % 11]);
            (b.0 - a.0) * (y - a.1) - (b.1 - a.1) * (x - a.0) > 0.05
        })
    };
    let mut n_inside = 0;
    for y in 0..h {
        for x in 0..w {
            if inside(x as f32 + 0.5, y as f32 + 0.5) {
                n_inside += 1;
                assert_eq!(counts[(y * w + x) as usize], 1.0, "({x}, {y})");
            }
        }
    }
    assert!(n_inside > 400);
}

#[test]
fn helper_lanes_are_exactly_the_uncovered_lanes_of_partial_quads() {
    let (w, h) = (32u32, 32u32);
    let v = [(1.3f32, 1.1f32), (30.2, 3.1), (6.7, 27.9)];
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let shader = move |q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]| {
        s2.lock()
            .unwrap()
            .push((q.origin(), q.active(), q.helper()));
        *out = [[1.0; 4]; 4];
    };
    let mut frame = Frame::new(w, h);
    frame.draw(draw(
        screen_mesh(w, h, &[v], 0.5),
        Arc::new(shader),
        DrawState::OVERLAY,
    ));
    let r = Renderer::new(2).unwrap().render(&frame).unwrap();
    let mut seen = seen.lock().unwrap().clone();
    seen.sort();
    // Expected coverage from the edge functions of the snapped vertices
    // (no pixel centre lies on an edge of this triangle).
    let snap = |(x, y): (f32, f32)| {
        (
            (x * 256.0).round() as f64 / 256.0,
            (y * 256.0).round() as f64 / 256.0,
        )
    };
    let p = v.map(snap);
    let edge = |a: (f64, f64), b: (f64, f64), x: f64, y: f64| {
        (b.0 - a.0) * (y - a.1) - (b.1 - a.1) * (x - a.0)
    };
    let covered = |x: u32, y: u32| {
        let (cx, cy) = (x as f64 + 0.5, y as f64 + 0.5);
        let e = [
            edge(p[0], p[1], cx, cy),
            edge(p[1], p[2], cx, cy),
            edge(p[2], p[0], cx, cy),
        ];
        e.iter().all(|&e| e > 0.0) || e.iter().all(|&e| e < 0.0)
    };
    let mut expected = Vec::new();
    for qy in (0..h).step_by(2) {
        for qx in (0..w).step_by(2) {
            let mut m = 0u8;
            for l in 0..4 {
                if covered(qx + (l & 1), qy + (l >> 1)) {
                    m |= 1 << l;
                }
            }
            if m != 0 {
                expected.push(((qx, qy), m, !m & 0xf));
            }
        }
    }
    expected.sort();
    assert_eq!(seen, expected);
    let partial = expected.iter().filter(|e| e.1 != 0xf).count();
    assert!(partial > 20 && partial < expected.len());
    assert_eq!(r.stats.quads, expected.len() as u64);
    let helpers: u32 = expected.iter().map(|e| e.2.count_ones()).sum();
    assert_eq!(r.stats.helper_lanes, helpers as u64);
    // The shaded pixels are exactly the covered ones.
    for y in 0..h {
        for x in 0..w {
            assert_eq!(
                r.color.pixel(x, y).unwrap()[0] == 1.0,
                covered(x, y),
                "({x}, {y})"
            );
        }
    }
}

#[test]
fn derivatives_fine_and_coarse_of_screen_linear_attributes() {
    // Attribute 0 = screen x, 1 = screen y at vertices on the sub-pixel
    // grid (so snapping moves nothing); the slopes are 1 and 0 in every
    // lane, helpers included.
    let (w, h) = (16, 16);
    let bad = Arc::new(Mutex::new(0u32));
    let b2 = bad.clone();
    let shader = move |q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]| {
        let checks = [
            (q.ddx_fine(0), 1.0),
            (q.ddx_coarse(0), 1.0),
            (q.ddy_fine(0), 0.0),
            (q.ddy_coarse(1), 1.0),
            (q.ddy_fine(1), 1.0),
            (q.ddx_fine(1), 0.0),
        ];
        for (d, want) in checks {
            if d.iter().any(|v| (v - want).abs() > 1e-4) {
                *b2.lock().unwrap() += 1;
            }
        }
        let (fx, _) = q.frag_coord();
        let x = q.attr(0);
        if (0..4).any(|l| (x[l] - fx[l]).abs() > 1e-4) {
            *b2.lock().unwrap() += 1;
        }
        *out = [[0.0; 4]; 4];
    };
    let mut frame = Frame::new(w, h);
    frame.draw(draw(
        screen_mesh(
            w,
            h,
            &[[(0.75, 0.25), (15.125, 3.375), (4.25, 14.875)]],
            0.5,
        ),
        Arc::new(shader),
        DrawState::OVERLAY,
    ));
    let r = Renderer::new(1).unwrap().render(&frame).unwrap();
    assert!(r.stats.quads > 10);
    assert_eq!(*bad.lock().unwrap(), 0);
}

#[test]
fn perspective_correct_interpolation_matches_the_plane() {
    // A plane tilted 60 degrees about x, 5 units in front of a perspective
    // camera at the origin; attribute = world z. Tolerance: 1e-4 relative.
    let fov = 1.0f32;
    let proj = glam::camera::rh::proj::directx::perspective(fov, 1.0, 0.5, 50.0);
    let model = Mat4::from_translation(Vec3::new(0.0, 0.0, -5.0))
        * Mat4::from_rotation_x(-60f32.to_radians())
        * Mat4::from_scale(Vec3::splat(3.0));
    let mesh = Mesh::rect(Vec2::splat(-1.0), Vec2::splat(1.0)).transformed(model);
    let shader = |q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]| {
        let z = q.attr(quadtex_raster::ATTR_WORLD + 2);
        *out = std::array::from_fn(|l| [z[l], 0.0, 0.0, 1.0]);
    };
    let (w, h) = (96u32, 96u32);
    let mut frame = Frame::new(w, h);
    frame.draw(DrawCall::new(Arc::new(mesh), proj, Arc::new(shader)));
    let r = Renderer::new(2).unwrap().render(&frame).unwrap();
    let n = (Mat4::from_rotation_x(-60f32.to_radians())).transform_vector3(Vec3::Z);
    let p0 = Vec3::new(0.0, 0.0, -5.0);
    let t = (fov * 0.5).tan();
    let (mut tested, mut max_err) = (0, 0.0f32);
    for y in 0..h {
        for x in 0..w {
            let c = r.color.pixel(x, y).unwrap();
            if c[3] != 1.0 {
                continue;
            }
            let xn = (x as f32 + 0.5) / w as f32 * 2.0 - 1.0;
            let yn = 1.0 - (y as f32 + 0.5) / h as f32 * 2.0;
            let d = Vec3::new(xn * t, yn * t, -1.0);
            let hit = d * (p0.dot(n) / d.dot(n));
            let err = ((c[0] - hit.z) / hit.z).abs();
            max_err = max_err.max(err);
            tested += 1;
        }
    }
    assert!(tested > 2000, "{tested} pixels");
    assert!(max_err < 1e-4, "max relative error {max_err}");
}

/// A frame with many overlapping textured triangles, half alpha-blended.
fn busy_frame(samples: u32) -> Frame {
    let (w, h) = (200u32, 150u32);
    let tex = checker(64);
    let binding = TextureBinding::new(tex, SamplerHeader::trilinear(AddressMode::Repeat));
    let mut unlit = Unlit::new(binding);
    unlit.tint = [1.0, 1.0, 1.0, 0.6];
    let shader: Arc<dyn quadtex_raster::FragmentShader> = Arc::new(unlit);
    let mut seed = 0x1234_5678u32;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed as f32 / u32::MAX as f32
    };
    let mut frame = Frame::new(w, h).with_samples(samples);
    for d in 0..40 {
        let mut mesh = Mesh {
            attribute_count: quadtex_raster::STD_ATTRS,
            ..Default::default()
        };
        for _ in 0..10 {
            let (cx, cy) = (rnd() * 240.0 - 20.0, rnd() * 190.0 - 20.0);
            let z = rnd();
            for _ in 0..3 {
                let (x, y) = (cx + rnd() * 80.0 - 40.0, cy + rnd() * 80.0 - 40.0);
                mesh.indices.push(mesh.positions.len() as u32);
                mesh.positions.push(px(w, h, x, y, z + rnd() * 0.2));
                mesh.attributes.extend_from_slice(&[
                    x / 37.0,
                    y / 23.0,
                    0.0,
                    0.0,
                    1.0,
                    0.0,
                    0.0,
                    0.0,
                ]);
            }
        }
        let state = DrawState {
            blend: if d % 2 == 0 {
                BlendMode::Alpha
            } else {
                BlendMode::Replace
            },
            depth_write: d % 2 == 1,
            cull: if d % 5 == 0 {
                CullMode::Back
            } else {
                CullMode::None
            },
            ..DrawState::default()
        };
        frame.draw(DrawCall::new(Arc::new(mesh), Mat4::IDENTITY, shader.clone()).with_state(state));
    }
    frame
}

#[test]
fn one_thread_and_four_threads_are_bit_identical() {
    for samples in [1, 4] {
        let frame = busy_frame(samples);
        let a = Renderer::new(1).unwrap().render_resolved(&frame).unwrap();
        let b = Renderer::new(4).unwrap().render_resolved(&frame).unwrap();
        assert_eq!(a.color.bytes(), b.color.bytes());
        // Every target format, resolved in its own format.
        for format in quadtex_raster::ColorFormat::ALL {
            let f = busy_frame(samples).with_color_format(format);
            let x = Renderer::new(1).unwrap().render_resolved(&f).unwrap();
            let y = Renderer::new(4).unwrap().render_resolved(&f).unwrap();
            assert_eq!(x.color.format(), format);
            assert_eq!(x.color.bytes(), y.color.bytes(), "{format:?} x{samples}");
        }
        assert_eq!(
            a.depth.data.iter().map(|d| d.to_bits()).collect::<Vec<_>>(),
            b.depth.data.iter().map(|d| d.to_bits()).collect::<Vec<_>>()
        );
        assert_eq!(a.stats.counts(), b.stats.counts());
        assert!(a.stats.quads > 5000, "{}", a.stats.quads);
        assert!(a.stats.tex.sample > 5000);
        assert!(a.stats.helper_share() > 0.0 && a.stats.helper_share() < 0.5);
    }
}

#[test]
fn bad_input_does_not_panic() {
    let r = Renderer::new(2).unwrap();
    let nan = Vec3::splat(f32::NAN);
    let inf = Vec3::new(f32::INFINITY, 0.0, 0.5);
    let mesh = Mesh {
        positions: vec![
            nan,
            Vec3::ZERO,
            Vec3::X,
            inf,
            Vec3::new(1e30, -1e30, 0.5),
            Vec3::new(0.1, 0.1, 0.5),
            Vec3::new(0.2, 0.2, 0.5),
            Vec3::new(0.3, 0.3, 0.5),
        ],
        attribute_count: 3,
        attributes: vec![f32::NAN; 5],
        // NaN, infinite, huge, degenerate (collinear), out of range.
        indices: vec![0, 1, 2, 3, 1, 2, 4, 1, 2, 5, 6, 7, 1, 2, 99, 1, 2],
        w: Vec::new(),
    };
    let sh = solid([1.0; 4]);
    for (w, h, s) in [(0, 0, 1), (0, 7, 4), (9, 0, 1), (1, 1, 1), (33, 17, 8)] {
        let mut frame = Frame::new(w, h).with_samples(s);
        frame.draw(DrawCall::new(
            Arc::new(mesh.clone()),
            Mat4::IDENTITY,
            sh.clone(),
        ));
        // Behind the camera and crossing w = 0.
        let proj = glam::camera::rh::proj::directx::perspective(1.0, 1.0, 0.1, 10.0);
        frame.draw(DrawCall::new(
            Arc::new(
                Mesh::rect(Vec2::splat(-5.0), Vec2::splat(5.0))
                    .transformed(Mat4::from_rotation_x(1.2)),
            ),
            proj,
            sh.clone(),
        ));
        let out = r.render_resolved(&frame).unwrap();
        assert_eq!(out.color.values().len(), (w * h) as usize);
        assert!(out
            .color
            .values()
            .iter()
            .all(|c| c.iter().all(|v| v.is_finite())));
    }
    assert!(r.render(&Frame::new(4, 4).with_samples(3)).is_err());
    assert!(r.render(&Frame::new(65536, 65536).with_samples(8)).is_err());
    // A view past its texture's levels is refused before any sampling.
    let mut view = quadtex_sampler::TextureHeader::new(checker(16));
    view.base_level = 9;
    let bad = Unlit::new(TextureBinding::with_view(view, SamplerHeader::default()));
    let mut frame = Frame::new(8, 8);
    frame.draw(DrawCall::new(
        Arc::new(Mesh::rect(Vec2::splat(-1.0), Vec2::splat(1.0))),
        Mat4::IDENTITY,
        Arc::new(bad),
    ));
    assert_eq!(
        r.render(&frame).map(|_| ()).unwrap_err().kind(),
        quadtex_raster::ErrorKind::Sampler
    );
    assert!(Frame::new(0, 0).draws.is_empty());
}

#[test]
fn near_plane_clipping_keeps_the_visible_part() {
    // A ground plane that runs behind the camera: clipped at the near plane,
    // it still fills the lower half of the image.
    let proj = glam::camera::rh::proj::directx::perspective(1.2, 1.0, 0.1, 100.0);
    let view = glam::camera::rh::view::look_at_mat4(
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.0, 1.0, -1.0),
        Vec3::Y,
    );
    let ground = Mesh::rect(Vec2::splat(-50.0), Vec2::splat(50.0))
        .transformed(Mat4::from_rotation_x(-std::f32::consts::FRAC_PI_2));
    let mut frame = Frame::new(32, 32);
    frame.draw(
        DrawCall::new(Arc::new(ground), proj * view, solid([1.0; 4])).with_state(DrawState {
            cull: CullMode::Back,
            ..DrawState::default()
        }),
    );
    let r = Renderer::new(1).unwrap().render(&frame).unwrap();
    for x in 0..32 {
        assert_eq!(r.color.pixel(x, 31).unwrap()[0], 1.0, "bottom row x={x}");
        assert_eq!(r.color.pixel(x, 0).unwrap()[0], 0.0, "top row x={x}");
    }
    // Seen from below, the same plane is culled.
    let below = glam::camera::rh::view::look_at_mat4(
        Vec3::new(0.0, -1.0, 0.0),
        Vec3::new(0.0, -1.0, -1.0),
        Vec3::Y,
    );
    frame.draws[0].transform = proj * below;
    let r = Renderer::new(1).unwrap().render(&frame).unwrap();
    assert_eq!(r.stats.quads, 0);
}

#[test]
fn clipped_shared_edges_stay_watertight() {
    // A ground grid of huge cells around the camera: its triangles cross
    // the near plane and the guard band and share clipped edges. Every
    // pixel is written at most once, and the ground has no holes.
    let proj = glam::camera::rh::proj::directx::perspective(1.4, 1.0, 0.1, 1e6);
    let view = glam::camera::rh::view::look_at_mat4(
        Vec3::new(0.3, 0.7, 0.1),
        Vec3::new(0.1, 0.2, -1.0),
        Vec3::Y,
    );
    let mut mesh = Mesh::default();
    let n = 6u32;
    for j in 0..=n {
        for i in 0..=n {
            let f = |k: u32| -3e4 + 6e4 * k as f32 / n as f32 + 17.0 * (k % 2) as f32;
            mesh.positions.push(Vec3::new(f(i), 0.0, f(j)));
        }
    }
    for j in 0..n {
        for i in 0..n {
            let a = j * (n + 1) + i;
            let (b, c, d) = (a + 1, a + n + 1, a + n + 2);
            mesh.indices.extend_from_slice(&[a, c, b, b, c, d]);
        }
    }
    let mut frame = Frame::new(64, 64);
    frame.draw(
        DrawCall::new(Arc::new(mesh), proj * view, solid([1.0, 0.0, 0.0, 0.0]))
            .with_state(additive()),
    );
    let r = Renderer::new(1).unwrap().render(&frame).unwrap();
    let counts: Vec<f32> = r.color.values().iter().map(|c| c[0]).collect();
    let over = counts.iter().filter(|&&c| c > 1.0).count();
    assert_eq!(over, 0, "pixels written twice");
    for y in 40..64 {
        for x in 0..64 {
            assert_eq!(counts[y * 64 + x], 1.0, "({x}, {y})");
        }
    }
}

/// `render_into` reusing one output across frames of different sizes and
/// sample counts gives exactly what `render` gives each time.
#[test]
fn render_into_reuses_buffers_and_matches_render() {
    let r = Renderer::new(2).unwrap();
    let frames = [
        busy_frame(1),
        busy_frame(4),
        Frame::new(17, 9),
        busy_frame(1),
    ];
    let mut out = r.render(&Frame::new(3, 3)).unwrap();
    for f in &frames {
        r.render_into(f, &mut out).unwrap();
        let want = r.render(f).unwrap();
        assert_eq!(
            (out.color.width(), out.color.height(), out.color.samples()),
            (
                want.color.width(),
                want.color.height(),
                want.color.samples()
            )
        );
        let bits = |c: &[[f32; 4]]| {
            c.iter()
                .flat_map(|p| p.map(f32::to_bits))
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(&out.color.values()), bits(&want.color.values()));
        assert_eq!(
            out.depth
                .data
                .iter()
                .map(|d| d.to_bits())
                .collect::<Vec<_>>(),
            want.depth
                .data
                .iter()
                .map(|d| d.to_bits())
                .collect::<Vec<_>>()
        );
        assert_eq!(out.stats.counts(), want.stats.counts());
    }
}

/// A renderer on the application's own pool works on that pool's threads
/// (`Renderer::pool` hands it back, so work around a frame needs no
/// second pool) and renders the same bytes as a renderer on its own
/// pool; a pool over `MAX_THREADS` is refused with an error.
#[test]
fn a_renderer_on_the_applications_pool_shares_its_threads() {
    use quadtex_raster::rayon;
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap(),
    );
    let shared = Renderer::with_pool(Arc::clone(&pool)).unwrap();
    assert_eq!(shared.threads(), 3);
    assert!(Arc::ptr_eq(shared.pool(), &pool));
    assert_eq!(shared.pool().install(rayon::current_num_threads), 3);
    let frame = busy_frame(4);
    let a = shared.render_resolved(&frame).unwrap();
    let b = Renderer::new(1).unwrap().render_resolved(&frame).unwrap();
    assert_eq!(a.color.bytes(), b.color.bytes());
    assert_eq!(a.stats.counts(), b.stats.counts());
    // The application's own work on the same pool, between frames.
    let sum: u64 = pool.install(|| {
        use rayon::prelude::*;
        a.color.bytes().par_iter().map(|&v| u64::from(v)).sum()
    });
    assert_eq!(sum, b.color.bytes().iter().map(|&v| u64::from(v)).sum());
    let big = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(quadtex_raster::MAX_THREADS + 1)
            .build()
            .unwrap(),
    );
    let err = Renderer::with_pool(big).unwrap_err();
    assert!(err.to_string().contains("threads"), "{err}");
}

#[test]
fn depth_only_frames_keep_depth_and_skip_colour() {
    let mesh = Arc::new(Mesh::rect(Vec2::splat(-0.5), Vec2::splat(0.5)));
    let shader = shader_fn(Vec::new(), |_, out| *out = [[1.0; 4]; 4]);
    let mut frame = Frame::new(16, 16);
    frame.draw(DrawCall::new(
        mesh,
        Mat4::from_translation(Vec3::new(0.0, 0.0, 0.25)),
        shader,
    ));
    let renderer = Renderer::new(1).unwrap();
    let with_color = renderer.render(&frame).unwrap();
    frame.color = false;
    let depth_only = renderer.render(&frame).unwrap();
    assert_eq!(
        (depth_only.color.width(), depth_only.color.height()),
        (0, 0)
    );
    assert!(depth_only.color.values().is_empty());
    assert_eq!(depth_only.depth, with_color.depth);
    assert_eq!(depth_only.depth.sample(8, 8, 0), Some(0.25));
    assert_eq!(depth_only.stats.quads, with_color.stats.quads);
}

/// A grey shader: `(v, v, v, v)` with `v` from the pixel's position, as
/// four planes or (`replicate`) as red alone with the other planes
/// filled with garbage the renderer must not read.
struct Grey {
    replicate: bool,
}

impl Grey {
    fn value(x: f32, y: f32) -> f32 {
        // Every code of an 8-bit target and values outside [0, 1].
        ((x * 7.0 + y * 13.0) % 300.0) / 256.0 - 0.05
    }
}

impl quadtex_raster::FragmentShader for Grey {
    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        let (x, y) = (q.attr(0), q.attr(1));
        for l in 0..4 {
            out[l] = [Grey::value(x[l], y[l]); 4];
        }
    }

    fn shade_batch(
        &self,
        _q: &mut QuadCtx<'_>,
        batch: &quadtex_raster::QuadBatch,
        out: &mut quadtex_sampler::PlanarOut<'_>,
    ) {
        let (xs, ys) = (batch.attr_plane(0), batch.attr_plane(1));
        for (j, (&x, &y)) in xs.iter().zip(ys).enumerate() {
            let v = Grey::value(x, y);
            out.r[j] = v;
            if self.replicate {
                out.g[j] = f32::NAN;
                out.b[j] = -7.0;
                out.a[j] = 3.0;
            } else {
                out.g[j] = v;
                out.b[j] = v;
                out.a[j] = v;
            }
        }
    }

    fn replicates_red(&self) -> bool {
        self.replicate
    }
}

/// A shader with some channels constant: `consts[c]` where given, else a
/// value from the pixel's position per channel; declared as
/// `constant_channels` (`declare`, those planes then filled with garbage
/// the renderer must not read) or written into every plane.
struct Consts {
    consts: [Option<f32>; 4],
    declare: bool,
}

impl Consts {
    fn value(&self, c: usize, x: f32, y: f32) -> f32 {
        self.consts[c].unwrap_or(((x * (7.0 + c as f32) + y * 13.0) % 300.0) / 256.0 - 0.05)
    }
}

impl quadtex_raster::FragmentShader for Consts {
    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        let (x, y) = (q.attr(0), q.attr(1));
        for l in 0..4 {
            out[l] = std::array::from_fn(|c| self.value(c, x[l], y[l]));
        }
    }

    fn shade_batch(
        &self,
        _q: &mut QuadCtx<'_>,
        batch: &quadtex_raster::QuadBatch,
        out: &mut quadtex_sampler::PlanarOut<'_>,
    ) {
        let (xs, ys) = (batch.attr_plane(0), batch.attr_plane(1));
        for (j, (&x, &y)) in xs.iter().zip(ys).enumerate() {
            let planes = [&mut *out.r, &mut *out.g, &mut *out.b, &mut *out.a];
            for (c, p) in planes.into_iter().enumerate() {
                p[j] = if self.declare && self.consts[c].is_some() {
                    [f32::NAN, -7.0, 3.0][j % 3]
                } else {
                    self.value(c, x, y)
                };
            }
        }
    }

    fn constant_channels(&self) -> [Option<f32>; 4] {
        if self.declare {
            self.consts
        } else {
            [None; 4]
        }
    }
}

/// The planar shading tests' target: `w x h` = 70 x 45 in `format` with
/// `samples` samples, cleared to (0.25, 0.5, 0.75, 0.5), `shader` drawn
/// over it under `state` as two triangles covering it and one covering
/// part of it; one thread.
fn shaded_target(
    shader: Arc<dyn quadtex_raster::FragmentShader>,
    format: quadtex_raster::ColorFormat,
    samples: u32,
    state: DrawState,
) -> quadtex_raster::Rendered {
    let (w, h) = (70, 45);
    let tris = [
        [(0.0, 0.0), (70.0, 0.0), (70.0, 45.0)],
        [(0.0, 0.0), (70.0, 45.0), (0.0, 45.0)],
        [(3.3, 5.1), (60.2, 9.7), (20.9, 40.4)],
    ];
    let mut frame = Frame::new(w, h)
        .with_samples(samples)
        .with_color_format(format);
    frame.clear_color = [0.25, 0.5, 0.75, 0.5];
    frame.draw(draw(screen_mesh(w, h, &tris, 0.5), shader, state));
    Renderer::new(1).unwrap().render(&frame).unwrap()
}

/// Asserts that shader `b` gives the targets of shader `a` byte for
/// byte ([`shaded_target`]): every target format, one and four samples,
/// replaced (the SIMD encodes) and blended (lane by lane), with and
/// without a depth test and write; `what` names the case in a failure.
fn assert_same_targets(
    what: &str,
    a: Arc<dyn quadtex_raster::FragmentShader>,
    b: Arc<dyn quadtex_raster::FragmentShader>,
) {
    let states = [
        DrawState::OVERLAY,
        DrawState::default(),
        DrawState {
            blend: BlendMode::Alpha,
            ..DrawState::OVERLAY
        },
        additive(),
    ];
    for format in quadtex_raster::ColorFormat::ALL {
        for samples in [1, 4] {
            for (k, &state) in states.iter().enumerate() {
                let x = shaded_target(a.clone(), format, samples, state);
                let y = shaded_target(b.clone(), format, samples, state);
                let (x, y, quads) = (x.color.bytes(), y.color.bytes(), x.stats.quads);
                assert_eq!(x.len(), y.len());
                if let Some(i) = (0..x.len()).find(|&i| x[i] != y[i]) {
                    panic!(
                        "{what}: {format:?} x{samples} state {k}: byte {i}: {} vs {}",
                        x[i], y[i]
                    );
                }
                assert!(quads > 500, "{what}: {format:?} x{samples} state {k}");
            }
        }
    }
}

/// Pixel (2, 1) of [`shaded_target`]'s RGBA8 UNORM target, replaced,
/// one sample.
fn pixel_2_1(shader: Arc<dyn quadtex_raster::FragmentShader>) -> [u8; 4] {
    let t = shaded_target(
        shader,
        quadtex_raster::ColorFormat::Rgba8Unorm,
        1,
        DrawState::default(),
    );
    t.color.bytes()[4 * (70 + 2)..][..4].try_into().unwrap()
}

/// A shader that declares constant channels and leaves their planes
/// unwritten gives the targets of one writing all four planes, bit for
/// bit ([`assert_same_targets`]: the constants' codes computed once where
/// the encodes are SIMD), for constants in one to four channels (halfway
/// codes, out-of-range values and NaN among them).
#[test]
fn a_shader_with_constant_channels_gives_them_in_every_pixel() {
    let patterns = [
        [None, None, Some(0.0), Some(1.0)],
        [None, None, None, Some(0.5)],
        [Some(f32::NAN), None, None, None],
        [None, Some(2.0), None, Some(-1.0)],
        [Some(0.2), Some(128.5 / 255.0), Some(1.0), None],
        [Some(0.75), Some(0.0), Some(0.3), Some(1.0)],
    ];
    for consts in patterns {
        assert_same_targets(
            &format!("{consts:?}"),
            Arc::new(Consts {
                consts,
                declare: false,
            }),
            Arc::new(Consts {
                consts,
                declare: true,
            }),
        );
    }
    // Pixel (2, 1) under `vec4(v0, v1, 0, 1)`: red `37 / 256 - 0.05` as
    // code 24 (24.1 before rounding), green `(2.5 * 8 + 1.5 * 13) / 256 -
    // 0.05` = 39.5 / 256 - 0.05 as code 27 (26.6), blue 0 and alpha 255.
    let px = pixel_2_1(Arc::new(Consts {
        consts: patterns[0],
        declare: true,
    }));
    assert_eq!(px, [24, 27, 0, 255]);
}

/// A shader that says its colours are `(v, v, v, v)` and writes red alone
/// gives the targets of one writing all four channels, bit for bit
/// ([`assert_same_targets`]).
#[test]
fn a_shader_replicating_red_gives_its_grey_in_every_channel() {
    assert_same_targets(
        "replicated red",
        Arc::new(Grey { replicate: false }),
        Arc::new(Grey { replicate: true }),
    );
    // The replicated red is in every channel: pixel (2, 1) holds `v = 37
    // / 256 - 0.05` as code 24 in all four (24.1 before rounding).
    assert_eq!(pixel_2_1(Arc::new(Grey { replicate: true })), [24; 4]);
}
