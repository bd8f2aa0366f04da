//! Depth, MSAA and its resolve, render to texture (shadow maps, cubes) and
//! the built-in shaders.

mod common;

use std::sync::Arc;

use common::{checker, draw, one_texel, screen_mesh, solid};
use glam::{Mat4, Vec2, Vec3};
use quadtex_format::TextureFormat;
use quadtex_raster::{
    cube_face_projection, cube_face_view, cube_texture, BlendMode, ColorFormat, DepthFormat,
    DrawCall, DrawState, Frame, Mesh, MipHeatmap, QuadCtx, Renderer, ShadowFilter, Shadowed,
    TextureBinding, Unlit,
};
use quadtex_sampler::{
    fetch, AddressMode, CompareOp, FetchArgs, Filter, Quad, SampleArgs, SamplerHeader,
    TextureHeader,
};

/// A rectangle `[x0, x1] x [y0, y1]` in pixels as two triangles.
fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> [[(f32, f32); 3]; 2] {
    [
        [(x0, y0), (x1, y0), (x1, y1)],
        [(x0, y0), (x1, y1), (x0, y1)],
    ]
}

/// A 16 x 16 4x MSAA frame of `format`, cleared to opaque black, with
/// one white triangle whose right edge is x = 10.5 over the whole height.
fn edge_frame(format: ColorFormat) -> Frame {
    let (w, h) = (16, 16);
    let mut frame = Frame::new(w, h).with_samples(4).with_color_format(format);
    frame.clear_color = [0.0, 0.0, 0.0, 1.0];
    frame.draw(draw(
        screen_mesh(w, h, &[[(10.5, -16.0), (10.5, 40.0), (-30.0, 12.0)]], 0.5),
        solid([1.0; 4]),
        DrawState::default(),
    ));
    frame
}

#[test]
fn msaa_4x_vertical_edge_covers_two_of_four_samples_and_resolves_to_half() {
    let h = 16;
    let frame = edge_frame(ColorFormat::Rgba32Float);
    let r = Renderer::new(2).unwrap();
    let out = r.render(&frame).unwrap();
    // Standard 4x positions x = 0.375, 0.875, 0.125, 0.625: samples 0 and 2
    // of column 10 lie left of x = 10.5.
    for y in 0..h {
        for s in 0..4 {
            assert_eq!(out.color.sample(9, y, s).unwrap()[0], 1.0);
            assert_eq!(out.color.sample(11, y, s).unwrap()[0], 0.0);
            let want = if s == 0 || s == 2 { 1.0 } else { 0.0 };
            assert_eq!(out.color.sample(10, y, s).unwrap()[0], want, "y={y} s={s}");
            // Depth is per sample too.
            let d = out.depth.sample(10, y, s).unwrap();
            assert_eq!(d, if want == 1.0 { 0.5 } else { 1.0 });
        }
    }
    // Per-pixel shading: one quad per covered 2x2 block.
    assert_eq!(out.stats.quads, 6 * 8);
    let (res, st) = r.resolve(&out.color).unwrap();
    assert_eq!(res.samples(), 1);
    for y in 0..h {
        assert_eq!(res.pixel(9, y).unwrap(), [1.0; 4]);
        assert_eq!(res.pixel(10, y).unwrap(), [0.5, 0.5, 0.5, 1.0]);
        assert_eq!(res.pixel(11, y).unwrap(), [0.0, 0.0, 0.0, 1.0]);
    }
    // The resolve reads the target's bytes: no quads, no fetches.
    assert_eq!((st.quads, st.tex.fetch), (0, 0));
}

/// The resolve equals, byte for byte, a full-screen pass of the
/// `MsaaResolve` shader (an `ld2dms` fetch of every sample, summed and
/// scaled in the shader) in every target format and sample count, on
/// seeded bytes: every 8-bit code, halves and floats of every kind
/// (NaN, infinities, signed zeros, subnormals) included.
#[test]
fn the_resolve_equals_the_ld2dms_resolve_pass() {
    let (w, h) = (13, 7);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let r = Renderer::new(2).unwrap();
    for format in ColorFormat::ALL {
        for samples in [2u32, 4, 8] {
            let bpp = format.bytes();
            let mut bytes = vec![0u8; (w * h * samples) as usize * bpp];
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = next() as u8;
                // Every 16th float sample a special value.
                if format == ColorFormat::Rgba32Float && i % 64 == 3 {
                    let v = [f32::NAN, f32::INFINITY, -0.0, 1e-40, -1.5][i / 64 % 5];
                    *b = v.to_bits().to_le_bytes()[3];
                }
            }
            if format == ColorFormat::Rgba32Float {
                // Mostly values in a sane range (the random bytes are
                // mostly huge or tiny floats).
                for (k, c) in bytes.chunks_exact_mut(4).enumerate() {
                    if k % 3 != 0 {
                        let v = (next() % 2001) as f32 / 1000.0 - 0.5;
                        c.copy_from_slice(&v.to_le_bytes());
                    }
                }
            }
            let target =
                quadtex_raster::ColorTarget::from_bytes(w, h, samples, format, bytes).unwrap();
            let (got, st) = r.resolve(&target).unwrap();
            assert_eq!((got.width(), got.height(), got.samples()), (w, h, 1));
            assert_eq!(st.tex.fetch, 0);
            // The pass.
            let tex = target.to_texture(format.texture_format()).unwrap();
            let mut frame = Frame::new(w, h).with_color_format(format);
            frame.depth = false;
            frame.draws.push(
                DrawCall::new(
                    Arc::new(quadtex_raster::fullscreen_triangle()),
                    Mat4::IDENTITY,
                    Arc::new(quadtex_raster::MsaaResolve::new(Arc::new(tex))),
                )
                .with_state(DrawState::OVERLAY),
            );
            let want = r.render(&frame).unwrap();
            assert_eq!(
                want.stats.tex.fetch,
                u64::from(w.div_ceil(2) * h.div_ceil(2) * samples)
            );
            assert_eq!(
                got.bytes(),
                want.color.bytes(),
                "{format:?} with {samples} samples"
            );
        }
    }
}

#[test]
fn msaa_8x_vertical_edge_covers_four_of_eight_samples() {
    let (w, h) = (16, 8);
    let mut frame = Frame::new(w, h).with_samples(8);
    frame.draw(draw(
        screen_mesh(w, h, &rect(0.0, 0.0, 10.5, 8.0), 0.5),
        solid([1.0; 4]),
        DrawState::default(),
    ));
    let r = Renderer::new(1).unwrap();
    let out = r.render(&frame).unwrap();
    let covered: Vec<u32> = (0..8)
        .filter(|&s| out.color.sample(10, 3, s).unwrap()[0] == 1.0)
        .collect();
    // x offsets 0.5625, 0.4375, 0.8125, 0.3125, 0.1875, 0.0625, 0.6875, 0.9375.
    assert_eq!(covered, vec![1, 3, 4, 5]);
    let res = r.render_resolved(&frame).unwrap();
    assert_eq!(res.color.pixel(10, 3).unwrap(), [0.5; 4]);
    assert_eq!(res.color.pixel(9, 3).unwrap(), [1.0; 4]);
}

#[test]
fn multisample_target_is_a_2d_ms_texture_for_ld2dms() {
    let mut frame = Frame::new(8, 8).with_samples(4);
    frame.draw(draw(
        screen_mesh(8, 8, &rect(0.0, 0.0, 2.5, 8.0), 0.5),
        solid([0.25, 0.5, 1.0, 1.0]),
        DrawState::default(),
    ));
    let out = Renderer::new(1).unwrap().render(&frame).unwrap();
    let tex = Arc::new(out.color.to_texture(TextureFormat::Rgba32Float).unwrap());
    assert_eq!(tex.desc().kind, quadtex_format::TextureKind::D2Ms);
    assert_eq!(tex.desc().samples, 4);
    let view = TextureHeader::new(tex);
    let args = FetchArgs {
        icoords: [[2, 0, 0, 0]; 4],
        sample: [0, 1, 2, 3],
        ..Default::default()
    };
    let r = fetch(&view, &args, 0xf);
    let red: Vec<f32> = r.texels.iter().map(|t| t.unwrap().to_f32()[0]).collect();
    assert_eq!(red, vec![0.25, 0.0, 0.25, 0.0]);
}

/// Three overlapping triangles at depths 0.3, 0.5, 0.7 in colours 1, 2, 3.
fn layered(order: [usize; 3], format: DepthFormat) -> Vec<u32> {
    let (w, h) = (24, 24);
    let tris = [
        ([(2.0, 2.0), (22.0, 4.0), (6.0, 21.0)], 0.3, 1.0),
        ([(20.0, 2.5), (21.0, 22.0), (1.0, 12.0)], 0.5, 2.0),
        ([(12.0, 0.0), (23.0, 23.0), (0.0, 23.0)], 0.7, 3.0),
    ];
    let mut frame = Frame::new(w, h);
    frame.depth_format = format;
    for i in order {
        let (t, z, c) = tris[i];
        frame.draw(draw(
            screen_mesh(w, h, &[t], z),
            solid([c, 0.0, 0.0, 1.0]),
            DrawState::default(),
        ));
    }
    let out = Renderer::new(2).unwrap().render(&frame).unwrap();
    out.color.values().iter().map(|c| c[0].to_bits()).collect()
}

#[test]
fn opaque_depth_test_is_order_independent() {
    for format in [DepthFormat::D32Float, DepthFormat::D24Unorm] {
        let reference = layered([0, 1, 2], format);
        for order in [[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            assert_eq!(layered(order, format), reference, "{order:?} {format:?}");
        }
        // Where all three overlap, the nearest (colour 1) wins.
        assert_eq!(f32::from_bits(reference[10 * 24 + 8]), 1.0);
        assert!(reference.iter().any(|&b| f32::from_bits(b) == 2.0));
        assert!(reference.iter().any(|&b| f32::from_bits(b) == 3.0));
    }
}

#[test]
fn d24_depth_is_quantized_to_24_bits() {
    // Round to nearest (halves away from zero) of z * (2^24 - 1), in f64,
    // on every 61st f32 in [0, 1] and the codes' halfway points.
    let max = f64::from((1u32 << 24) - 1);
    let want = |z: f32| ((f64::from(z) * max).round() / max) as f32;
    let mut zs: Vec<f32> = (0..=1.0f32.to_bits())
        .step_by(61)
        .map(f32::from_bits)
        .collect();
    zs.extend(
        (0..1u32 << 24)
            .step_by(4099)
            .map(|c| ((f64::from(c) + 0.5) / max) as f32),
    );
    zs.push(1.0);
    for z in zs {
        assert_eq!(
            DepthFormat::D24Unorm.quantize(z).to_bits(),
            want(z).to_bits(),
            "{z:e}"
        );
    }
    // Every code's value is its own quantization: `code / (2^24 - 1)`
    // rounded once to f32.
    for code in 0..1u32 << 24 {
        let v = (f64::from(code) / max) as f32;
        let q = DepthFormat::D24Unorm.quantize(v);
        assert_eq!(q.to_bits(), v.to_bits(), "code {code}");
    }
    let q = DepthFormat::D24Unorm.quantize(0.3);
    let code = (0.3f64 * 16777215.0).round();
    assert_eq!(q, (code / 16777215.0) as f32);
    assert_ne!(q, 0.3f32);
    assert_eq!(DepthFormat::D32Float.quantize(0.3), 0.3);
    assert_eq!(DepthFormat::D24Unorm.quantize(f32::NAN), 0.0);
    assert_eq!(DepthFormat::D24Unorm.quantize(2.0), 1.0);

    // Two surfaces one f32 ulp apart: distinct in D32, equal in D24, so
    // the later, nearer one passes `Less` only in D32.
    let far = 0.5f32.next_up();
    let run = |format| {
        let mut frame = Frame::new(4, 4);
        frame.depth_format = format;
        frame.draw(draw(
            screen_mesh(4, 4, &rect(0.0, 0.0, 4.0, 4.0), far),
            solid([1.0; 4]),
            DrawState::default(),
        ));
        frame.draw(draw(
            screen_mesh(4, 4, &rect(0.0, 0.0, 4.0, 4.0), 0.5),
            solid([2.0; 4]),
            DrawState::default(),
        ));
        Renderer::new(1).unwrap().render(&frame).unwrap()
    };
    let d32 = run(DepthFormat::D32Float);
    assert_eq!(d32.color.pixel(1, 1).unwrap()[0], 2.0);
    assert_eq!(d32.depth.sample(1, 1, 0), Some(0.5));
    let d24 = run(DepthFormat::D24Unorm);
    assert_eq!(d24.color.pixel(1, 1).unwrap()[0], 1.0);
    assert_eq!(
        d24.depth.sample(1, 1, 0),
        Some(DepthFormat::D24Unorm.quantize(0.5))
    );
    // The D24 target becomes an X8_D24_UNORM_PACK32 texture with the same values.
    let tex = TextureHeader::new(Arc::new(d24.depth.to_texture().unwrap()));
    assert_eq!(tex.texture.format(), TextureFormat::Depth24UnormX8);
    let args = FetchArgs {
        icoords: [[1, 1, 0, 0]; 4],
        ..Default::default()
    };
    let r = fetch(&tex, &args, 1);
    assert_eq!(
        r.texels[0].unwrap().to_f32()[0],
        DepthFormat::D24Unorm.quantize(0.5)
    );
}

/// Every compare op, in both depth formats, single-sampled and 4x: a
/// full-screen surface at 0.5, then one at `z` over the whole target and
/// one over its left part only (its edge at x = 10.5 splits column 10's
/// samples: 0 and 2 left of it), each sample checked: colour and depth
/// are the later surface's exactly where it covers the sample and
/// `op(q(z), q(0.5))` holds, `q` the format's rounding, and the earlier
/// surface's elsewhere.
#[test]
fn every_depth_compare_op_passes_as_its_test_says() {
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
    let (w, h) = (16u32, 8u32);
    let full = rect(0.0, 0.0, w as f32, h as f32);
    let left = [[(10.5, -16.0), (10.5, 40.0), (-30.0, 12.0)]];
    for format in [DepthFormat::D32Float, DepthFormat::D24Unorm] {
        for samples in [1u32, 4] {
            for (partial, tris) in [(false, &full[..]), (true, &left[..])] {
                for op in ops {
                    for z in [0.25f32, 0.5, 0.75] {
                        let mut frame = Frame::new(w, h).with_samples(samples);
                        frame.depth_format = format;
                        frame.draw(draw(
                            screen_mesh(w, h, &full, 0.5),
                            solid([1.0; 4]),
                            DrawState::default(),
                        ));
                        frame.draw(draw(
                            screen_mesh(w, h, tris, z),
                            solid([2.0; 4]),
                            DrawState {
                                depth_test: Some(op),
                                ..DrawState::default()
                            },
                        ));
                        let out = Renderer::new(1).unwrap().render(&frame).unwrap();
                        let (zq, old) = (format.quantize(z), format.quantize(0.5));
                        let pass = op.test(zq, old);
                        for y in 0..h {
                            for x in 0..w {
                                for s in 0..samples {
                                    // 4x positions x = 0.375, 0.875, 0.125,
                                    // 0.625; one sample at the centre.
                                    let sx = if samples == 1 {
                                        0.5
                                    } else {
                                        [0.375, 0.875, 0.125, 0.625][s as usize]
                                    };
                                    let covered = !partial || (x as f32 + sx) < 10.5;
                                    let new = covered && pass;
                                    let at = format!("{format:?} {samples}x {op:?} {z} ({x}, {y}) s{s} partial {partial}");
                                    assert_eq!(
                                        out.color.sample(x, y, s).unwrap()[0],
                                        if new { 2.0 } else { 1.0 },
                                        "{at}"
                                    );
                                    assert_eq!(
                                        out.depth.sample(x, y, s).unwrap().to_bits(),
                                        if new { zq } else { old }.to_bits(),
                                        "{at}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn alpha_blending_is_src_alpha_one_minus_src_alpha() {
    let mut frame = Frame::new(4, 4);
    frame.clear_color = [0.0, 0.0, 1.0, 1.0];
    frame.draw(draw(
        screen_mesh(4, 4, &rect(0.0, 0.0, 4.0, 4.0), 0.5),
        solid([1.0, 0.0, 0.0, 0.25]),
        DrawState {
            blend: quadtex_raster::BlendMode::Alpha,
            ..DrawState::OVERLAY
        },
    ));
    let out = Renderer::new(1).unwrap().render(&frame).unwrap();
    assert_eq!(out.color.pixel(0, 0).unwrap(), [0.25, 0.0, 0.75, 0.8125]);
}

/// The shadow test scene: a ground plane (y = 0, 4 x 4) and a 1 x 1
/// occluder at y = 1, lit straight from above by an orthographic light that
/// also serves as the camera, so pixel (x, y) reads shadow texel (x, y).
fn shadow_setup() -> (Mat4, Mesh, Mesh) {
    let light = glam::camera::rh::proj::directx::orthographic(-2.0, 2.0, -2.0, 2.0, 0.1, 10.0)
        * glam::camera::rh::view::look_at_mat4(Vec3::new(0.0, 5.0, 0.0), Vec3::ZERO, -Vec3::Z);
    let flat = Mat4::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let ground = Mesh::rect(Vec2::splat(-2.0), Vec2::splat(2.0)).transformed(flat);
    let occluder = Mesh::rect(Vec2::splat(-0.5), Vec2::splat(0.5))
        .transformed(Mat4::from_translation(Vec3::Y) * flat);
    (light, ground, occluder)
}

#[test]
fn shadow_map_darkens_exactly_the_shadowed_region() {
    let (light, ground, occluder) = shadow_setup();
    let n = 64u32;
    let r = Renderer::new(2).unwrap();
    // Shadow pass: depth only.
    let mut pass = Frame::new(n, n);
    pass.draw(DrawCall::new(
        Arc::new(ground.clone()),
        light,
        solid([0.0; 4]),
    ));
    pass.draw(DrawCall::new(Arc::new(occluder), light, solid([0.0; 4])));
    let shadow = r.render(&pass).unwrap();
    let occluded: Vec<bool> = shadow.depth.data.iter().map(|&d| d < 0.45).collect();
    // 1 x 1 of a 4 x 4 view on 64 pixels: a 16 x 16 square.
    assert_eq!(occluded.iter().filter(|&&o| o).count(), 256);
    let map = Arc::new(shadow.depth.to_texture().unwrap());
    let white = TextureBinding::new(one_texel([255; 4]), SamplerHeader::default());
    for filter in [ShadowFilter::SampleCompare, ShadowFilter::GatherCompare] {
        let mut sh = Shadowed::new(white.clone(), map.clone(), light, Vec3::Y);
        sh.filter = filter;
        let mut main = Frame::new(n, n);
        main.draw(DrawCall::new(Arc::new(ground.clone()), light, Arc::new(sh)));
        let out = r.render(&main).unwrap();
        for (i, (px, &occ)) in out.color.values().iter().zip(&occluded).enumerate() {
            let c = px[0];
            let want = if occ { 0.2 } else { 1.0 };
            assert!(
                (c - want).abs() < 1e-3,
                "{filter:?} pixel {i}: {c} want {want}"
            );
        }
        match filter {
            ShadowFilter::SampleCompare => assert_eq!(out.stats.tex.sample, 2 * out.stats.quads),
            ShadowFilter::GatherCompare => assert_eq!(out.stats.tex.gather, out.stats.quads),
        }
    }
}

#[test]
fn cube_faces_render_into_a_cube_texture_the_sampler_reads() {
    // Inside a cube whose colour is its world position mapped to [0, 1]:
    // each face target, assembled into a cube texture, must return at
    // direction d the colour of the point where d leaves the cube.
    let size = 32;
    let cube = Arc::new(Mesh::cube().transformed(Mat4::from_scale(Vec3::splat(4.0))));
    let shader = |q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]| {
        let k = quadtex_raster::ATTR_WORLD;
        let (x, y, z) = (q.attr(k), q.attr(k + 1), q.attr(k + 2));
        *out = std::array::from_fn(|l| [x[l] / 8.0 + 0.5, y[l] / 8.0 + 0.5, z[l] / 8.0 + 0.5, 1.0]);
    };
    let shader: Arc<dyn quadtex_raster::FragmentShader> = Arc::new(shader);
    let r = Renderer::new(2).unwrap();
    let faces: Vec<_> = (0..6)
        .map(|f| {
            let mut frame = Frame::new(size, size);
            let vp = cube_face_projection(0.1, 20.0) * cube_face_view(f, Vec3::ZERO);
            frame.draw(DrawCall::new(cube.clone(), vp, shader.clone()));
            r.render(&frame).unwrap().color
        })
        .collect();
    let tex = Arc::new(cube_texture(&faces, TextureFormat::Rgba32Float, false).unwrap());
    let view = TextureHeader::new(tex);
    let smp = SamplerHeader {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Nearest,
        ..Default::default()
    };
    let dirs = [
        Vec3::new(1.0, 0.3, -0.2),
        Vec3::new(-1.0, -0.5, 0.6),
        Vec3::new(0.2, 1.0, 0.7),
        Vec3::new(-0.4, -1.0, -0.3),
        Vec3::new(0.55, -0.25, 1.0),
        Vec3::new(-0.6, 0.35, -1.0),
    ];
    for d in dirs {
        let q = Quad::new([[d.x, d.y, d.z, 0.0]; 4]);
        let args = SampleArgs {
            lod: quadtex_sampler::Lod::Base,
            ..Default::default()
        };
        let t = quadtex_sampler::sample(&view, &smp, &quadtex_sampler::Profile::VULKAN, &args, &q);
        let got = t.texels[0].unwrap().to_f32();
        let hit = d / d.abs().max_element() * 4.0;
        let want = hit / 8.0 + Vec3::splat(0.5);
        for c in 0..3 {
            assert!(
                (got[c] - want[c]).abs() < 0.04,
                "{d:?}: {got:?} want {want:?}"
            );
        }
    }
    assert!(cube_texture(&faces[..5], TextureFormat::Rgba32Float, false).is_err());
}

#[test]
fn mip_heatmap_colours_by_query_lod_and_unlit_samples() {
    // 4 texels per pixel on a 256^2 mipmapped texture: level 2 (green).
    let (w, h) = (32, 32);
    let tex = checker(256);
    let binding = TextureBinding::new(tex.clone(), SamplerHeader::trilinear(AddressMode::Repeat));
    let mut mesh = screen_mesh(w, h, &[[(0.0, 0.0), (64.0, 0.0), (0.0, 64.0)]], 0.5);
    mesh.attributes.iter_mut().for_each(|a| *a /= 64.0); // uv = pixel / 64
    let mut frame = Frame::new(w, h);
    frame.draw(DrawCall::new(
        Arc::new(mesh.clone()),
        Mat4::IDENTITY,
        Arc::new(MipHeatmap::new(binding.clone())),
    ));
    let out = Renderer::new(1).unwrap().render(&frame).unwrap();
    assert_eq!(out.color.pixel(5, 7).unwrap(), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(out.stats.tex.query_lod, out.stats.quads);
    assert_eq!(out.stats.quads, 256);

    // Unlit at one texel per pixel: exactly the base level's texels.
    let mut mesh1 = screen_mesh(w, h, &[[(0.0, 0.0), (64.0, 0.0), (0.0, 64.0)]], 0.5);
    mesh1.attributes.iter_mut().for_each(|a| *a /= 256.0);
    let nearest = TextureBinding::new(tex, SamplerHeader::default());
    let mut frame = Frame::new(w, h);
    frame.draw(DrawCall::new(
        Arc::new(mesh1),
        Mat4::IDENTITY,
        Arc::new(Unlit::new(nearest)),
    ));
    let out = Renderer::new(1).unwrap().render(&frame).unwrap();
    let on = [230.0 / 255.0, 200.0 / 255.0, 40.0 / 255.0, 1.0];
    let off = [20.0 / 255.0, 60.0 / 255.0, 180.0 / 255.0, 1.0];
    assert_eq!(out.color.pixel(3, 3).unwrap(), on);
    assert_eq!(out.color.pixel(9, 3).unwrap(), off);
    assert_eq!(out.stats.tex.texels, 256 * 4);
    let png = out.color.encode_png().unwrap();
    assert_eq!(&png[1..4], b"PNG");
}

/// The bytes `colour` = (0.5, 0.25, 1.0, 0.75) takes in each target
/// format (Vulkan's conversions, worked by hand): UNORM rounds 127.5 to
/// the even 128, 63.75 to 64, 191.25 to 191; sRGB encodes 0.5 as
/// 0.735357 (187.5 in 255ths: 188) and 0.25 as 0.537099 (136.96: 137),
/// alpha stays linear; halves are 0x3800, 0x3400, 0x3c00, 0x3a00.
fn expected_bytes(format: ColorFormat) -> Vec<u8> {
    match format {
        ColorFormat::Rgba8Unorm => vec![128, 64, 255, 191],
        ColorFormat::Rgba8Srgb => vec![188, 137, 255, 191],
        ColorFormat::Bgra8Unorm => vec![255, 64, 128, 191],
        ColorFormat::Bgra8Srgb => vec![255, 137, 188, 191],
        ColorFormat::Rgba16Float => vec![0x00, 0x38, 0x00, 0x34, 0x00, 0x3c, 0x00, 0x3a],
        ColorFormat::Rgba32Float => [0.5f32, 0.25, 1.0, 0.75]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect(),
    }
}

/// A flat colour over a rectangle with odd edges (whole quads inside,
/// partial quads on the edges, cleared pixels around) stores the
/// format's bytes in every covered pixel and the encoded clear colour in
/// the others, in every colour target format, on one thread and on two.
#[test]
fn typed_targets_store_each_formats_bytes() {
    let (w, h) = (9u32, 7u32);
    for format in ColorFormat::ALL {
        let mut frame = Frame::new(w, h).with_color_format(format);
        frame.clear_color = [0.0, 0.0, 0.0, 1.0];
        frame.draw(draw(
            screen_mesh(w, h, &rect(1.0, 1.0, 6.0, 4.0), 0.5),
            solid([0.5, 0.25, 1.0, 0.75]),
            DrawState::OVERLAY,
        ));
        let out = Renderer::new(1).unwrap().render(&frame).unwrap();
        let two = Renderer::new(2).unwrap().render(&frame).unwrap();
        assert_eq!(out.color.bytes(), two.color.bytes(), "{format:?}");
        assert_eq!(out.color.format(), format);
        let bpp = format.bytes();
        assert_eq!(out.color.bytes().len(), (w * h) as usize * bpp);
        let want = expected_bytes(format);
        let mut clear = vec![0u8; bpp];
        format.encode([0.0, 0.0, 0.0, 1.0], &mut clear);
        for y in 0..h {
            for x in 0..w {
                let at = (y * w + x) as usize * bpp;
                let got = &out.color.bytes()[at..at + bpp];
                let inside = (1..6).contains(&x) && (1..4).contains(&y);
                let expect = if inside { &want[..] } else { &clear[..] };
                assert_eq!(got, expect, "{format:?} ({x}, {y})");
            }
        }
        // Reading a pixel back decodes the stored bytes.
        assert_eq!(out.color.pixel(2, 2).unwrap(), format.decode(&want));
    }
}

/// Blending into a UNORM target clamps the shader's colour to [0, 1]
/// first and reads the stored (rounded) value back: additive (2, 0.25,
/// -1, 0.5) over a clear of 0.5 (stored as 128, read as 128/255) gives
/// 255, 0.25 + 128/255 = 0.75196 (191.75: 192), 128 (the -1 clamped to
/// 0; unclamped it would store 0) and 255.
#[test]
fn blending_into_a_unorm_target_clamps_then_rounds() {
    let mut frame = Frame::new(4, 4).with_color_format(ColorFormat::Rgba8Unorm);
    frame.clear_color = [0.5, 0.5, 0.5, 1.0];
    frame.draw(draw(
        screen_mesh(4, 4, &rect(0.0, 0.0, 4.0, 4.0), 0.5),
        solid([2.0, 0.25, -1.0, 0.5]),
        DrawState {
            blend: BlendMode::Additive,
            ..DrawState::OVERLAY
        },
    ));
    let out = Renderer::new(1).unwrap().render(&frame).unwrap();
    for px in out.color.bytes().chunks_exact(4) {
        assert_eq!(px, [255, 192, 128, 255]);
    }
}

/// An sRGB multisample target resolves in linear values, as the format
/// is read (Vulkan: sRGB attachments are decoded before averaging): a
/// pixel with two of four samples white and two black is 0.5 linear,
/// stored as sRGB code 188, not the 128 of averaging the codes. The PNG
/// of an `R8G8B8A8_SRGB` target holds its bytes.
#[test]
fn srgb_msaa_resolves_in_linear_and_its_png_holds_its_bytes() {
    let (w, h) = (16, 16);
    let frame = edge_frame(ColorFormat::Rgba8Srgb);
    let r = Renderer::new(2).unwrap();
    let out = r.render_resolved(&frame).unwrap();
    assert_eq!(out.color.format(), ColorFormat::Rgba8Srgb);
    assert_eq!(out.color.samples(), 1);
    let px = |x: u32, y: u32| {
        let at = ((y * w + x) * 4) as usize;
        out.color.bytes()[at..at + 4].to_vec()
    };
    for y in 0..h {
        assert_eq!(px(9, y), [255; 4]);
        assert_eq!(px(10, y), [188, 188, 188, 255]);
        assert_eq!(px(11, y), [0, 0, 0, 255]);
    }
    let png = out.color.encode_png().unwrap();
    let img = image::load_from_memory(&png).unwrap().to_rgba8();
    assert_eq!(img.as_raw(), out.color.bytes());
    // The same frame in RGBA32F: the same PNG (the sRGB encoding of 0.5
    // is 188 there too).
    let f32_frame = Frame {
        color_format: ColorFormat::Rgba32Float,
        ..frame
    };
    let exact = r.render_resolved(&f32_frame).unwrap();
    assert_eq!(exact.color.pixel(10, 3).unwrap(), [0.5, 0.5, 0.5, 1.0]);
    assert_eq!(exact.color.encode_png().unwrap(), png);
}

/// A frame without a depth target (`depth = false`, a framebuffer with
/// no depth attachment) tests no depth: a farther rectangle drawn second
/// still covers a nearer one drawn first, as without a test; the depth
/// target comes back 0 x 0. With the depth target the nearer one stays.
#[test]
fn frames_without_a_depth_target_test_no_depth() {
    let (w, h) = (8, 8);
    let build = |depth: bool| {
        let mut frame = Frame::new(w, h);
        frame.depth = depth;
        frame.draw(draw(
            screen_mesh(w, h, &rect(0.0, 0.0, 8.0, 8.0), 0.25),
            solid([1.0, 0.0, 0.0, 1.0]),
            DrawState::default(),
        ));
        frame.draw(draw(
            screen_mesh(w, h, &rect(0.0, 0.0, 8.0, 8.0), 0.75),
            solid([0.0, 1.0, 0.0, 1.0]),
            DrawState::default(),
        ));
        Renderer::new(2).unwrap().render(&frame).unwrap()
    };
    let without = build(false);
    assert_eq!((without.depth.width, without.depth.height), (0, 0));
    assert!(without.depth.data.is_empty());
    assert_eq!(without.color.pixel(3, 3).unwrap(), [0.0, 1.0, 0.0, 1.0]);
    let with = build(true);
    assert_eq!(with.color.pixel(3, 3).unwrap(), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(with.depth.sample(3, 3, 0), Some(0.25));
}
