//! The built-in shaders on small scenes with known answers.

mod common;

use std::sync::Arc;

use common::{one_texel, screen_mesh};
use glam::{Mat4, Vec2, Vec3};
use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat, TextureKind};
use quadtex_raster::{
    cube_texture, ColorFormat, ColorTarget, DrawCall, EdgeDetect, Frame, Lambert, Mesh, Reflect,
    Renderer, Terrain, TextureBinding, VolumeSlice,
};
use quadtex_sampler::{AddressMode, SamplerHeader};

fn render(frame: &Frame) -> ColorTarget {
    Renderer::new(2).unwrap().render(frame).unwrap().color
}

fn close(a: [f32; 4], b: [f32; 4], tol: f32) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= tol)
}

/// An orthographic camera on +Z looking at the unit square.
fn front_camera() -> Mat4 {
    glam::camera::rh::proj::directx::orthographic(-1.0, 1.0, -1.0, 1.0, 0.1, 10.0)
        * glam::camera::rh::view::look_at_mat4(Vec3::new(0.0, 0.0, 2.0), Vec3::ZERO, Vec3::Y)
}

#[test]
fn lambert_is_ambient_plus_n_dot_l() {
    let white = TextureBinding::new(one_texel([255; 4]), SamplerHeader::default());
    let l = Vec3::new(0.0, (60f32).to_radians().sin(), (60f32).to_radians().cos());
    let sh = Lambert::new(white, l);
    let mut frame = Frame::new(8, 8);
    frame.draw(DrawCall::new(
        Arc::new(Mesh::rect(Vec2::splat(-1.0), Vec2::splat(1.0))),
        front_camera(),
        Arc::new(sh),
    ));
    let c = render(&frame);
    // 0.1 + cos(60 degrees).
    assert!(
        close(c.pixel(3, 4).unwrap(), [0.6, 0.6, 0.6, 1.0], 1e-5),
        "{:?}",
        c.pixel(3, 4)
    );
}

#[test]
fn reflect_reads_the_cube_face_behind_the_viewer() {
    let colors = [
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
        [1.0, 1.0, 0.0, 1.0],
        [0.0, 1.0, 1.0, 1.0],
        [1.0, 0.0, 1.0, 1.0],
    ];
    let faces: Vec<ColorTarget> = colors
        .iter()
        .map(|&c| ColorTarget::new(4, 4, 1, c))
        .collect();
    let env = Arc::new(cube_texture(&faces, TextureFormat::Rgba8Unorm, true).unwrap());
    let sh = Reflect::new(
        TextureBinding::new(env, SamplerHeader::trilinear(AddressMode::ClampToEdge)),
        Vec3::new(0.0, 0.0, 2.0),
    );
    let mut frame = Frame::new(8, 8);
    frame.draw(DrawCall::new(
        Arc::new(Mesh::rect(Vec2::splat(-1.0), Vec2::splat(1.0))),
        front_camera(),
        Arc::new(sh),
    ));
    let c = render(&frame);
    // At the centre the view ray is -Z; its reflection off a +Z normal is +Z.
    assert!(
        close(c.pixel(4, 4).unwrap(), colors[4], 1e-6),
        "{:?}",
        c.pixel(4, 4)
    );
}

#[test]
fn edge_detect_marks_the_gather_footprints_that_straddle_an_edge() {
    // Left half black, right half white; one texel per pixel.
    let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, 8, 8).with_levels(1);
    let bytes: Vec<u8> = (0..64)
        .flat_map(|i| if i % 8 < 4 { [0, 0, 0, 255] } else { [255; 4] })
        .collect();
    let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap());
    let smp = SamplerHeader {
        address: [AddressMode::ClampToEdge; 3],
        ..Default::default()
    };
    let mut mesh = screen_mesh(8, 8, &[[(0.0, 0.0), (16.0, 0.0), (0.0, 16.0)]], 0.5);
    mesh.attributes.iter_mut().for_each(|a| *a /= 8.0);
    let mut frame = Frame::new(8, 8);
    frame.draw(DrawCall::new(
        Arc::new(mesh),
        Mat4::IDENTITY,
        Arc::new(EdgeDetect::new(TextureBinding::new(tex, smp))),
    ));
    let c = render(&frame);
    for y in 0..8 {
        for x in 0..8 {
            // Pixel x gathers texels x and x + 1: only x = 3 spans the edge.
            let want = if x == 3 { 1.0 } else { 0.0 };
            assert_eq!(
                c.pixel(x, y).unwrap(),
                [want, want, want, 1.0],
                "({x}, {y})"
            );
        }
    }
}

#[test]
fn terrain_blends_array_layers_by_height() {
    let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, 1, 1)
        .with_layers(TextureKind::D2Array, 3)
        .with_levels(1);
    let bytes = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255];
    let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap());
    let mut sh = Terrain::new(
        TextureBinding::new(tex, SamplerHeader::default()),
        0.0,
        16.0,
    );
    sh.uv = 0;
    sh.height = 1; // screen y
    let mut frame = Frame::new(4, 16);
    frame.draw(DrawCall::new(
        Arc::new(screen_mesh(
            4,
            16,
            &[[(0.0, 0.0), (8.0, 0.0), (0.0, 32.0)]],
            0.5,
        )),
        Mat4::IDENTITY,
        Arc::new(sh),
    ));
    let c = render(&frame);
    // Row 7: height 7.5 -> layer 0.9375: mostly green, a little red.
    assert!(
        close(c.pixel(1, 7).unwrap(), [0.0625, 0.9375, 0.0, 1.0], 1e-5),
        "{:?}",
        c.pixel(1, 7)
    );
    // Row 15: height 15.5 -> layer 1.9375.
    assert!(close(
        c.pixel(1, 15).unwrap(),
        [0.0, 0.0625, 0.9375, 1.0],
        1e-5
    ));
}

#[test]
fn volume_slice_reads_the_requested_depth() {
    let desc = TextureDesc::d3(TextureFormat::Rgba8Unorm, 1, 1, 4).with_levels(1);
    let bytes = [0, 0, 0, 255, 85, 0, 0, 255, 170, 0, 0, 255, 255, 0, 0, 255];
    let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap());
    let sh = VolumeSlice::new(TextureBinding::new(tex, SamplerHeader::default()), 0.6);
    let mut frame = Frame::new(4, 4);
    frame.draw(DrawCall::new(
        Arc::new(screen_mesh(
            4,
            4,
            &[[(0.0, 0.0), (8.0, 0.0), (0.0, 8.0)]],
            0.5,
        )),
        Mat4::IDENTITY,
        Arc::new(sh),
    ));
    let c = render(&frame);
    // r = 0.6 of 4 slices: slice 2.
    assert_eq!(c.pixel(2, 2).unwrap(), [170.0 / 255.0, 0.0, 0.0, 1.0]);
}

/// `Unlit::shade_batch` and `Lambert::shade_batch` (the whole batch through the sampler's batched
/// kernels) gives exactly what shading quad by quad gives: a tilted,
/// perspective textured plane (mixed LODs, partial quads on its edges)
/// against a closure shader with the same body and the default
/// `shade_batch`.
#[test]
fn unlit_batches_shade_like_quad_by_quad() {
    let n = 64u32;
    let desc = TextureDesc::d2(TextureFormat::Rgba8Srgb, n, n).with_levels(7);
    let bytes: Vec<u8> = (0..desc.total_bytes().unwrap() as usize)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 9) as u8)
        .collect();
    let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).unwrap());
    let binding = TextureBinding::new(tex, SamplerHeader::trilinear(AddressMode::Repeat));
    let camera = glam::camera::rh::proj::directx::perspective(1.0, 1.0, 0.1, 50.0)
        * glam::camera::rh::view::look_at_mat4(Vec3::new(0.0, 1.0, 3.0), Vec3::ZERO, Vec3::Y);
    let plane = Arc::new(Mesh::rect(Vec2::splat(-4.0), Vec2::splat(4.0)));
    let tilt = Mat4::from_rotation_x(-1.2);
    let render_with = |shader: Arc<dyn quadtex_raster::FragmentShader>| {
        let mut frame = Frame::new(96, 80);
        frame.draw(DrawCall::new(plane.clone(), camera * tilt, shader));
        render(&frame)
    };
    // Lambert too: its batch against its own `shade` quad by quad.
    let lambert = Lambert::new(binding.clone(), Vec3::new(0.3, 0.8, 0.5));
    let per_quad_lambert = lambert.clone();
    let a = render_with(Arc::new(lambert));
    let b = render_with(quadtex_raster::shader_fn(
        vec![binding.clone()],
        move |q: &mut quadtex_raster::QuadCtx<'_>, out: &mut [[f32; 4]; 4]| {
            use quadtex_raster::FragmentShader;
            per_quad_lambert.shade(q, out)
        },
    ));
    let bits = |c: &ColorTarget| c.bytes().to_vec();
    assert_eq!(bits(&a), bits(&b), "Lambert batched vs quad by quad");
    let batched = render_with(Arc::new(quadtex_raster::Unlit::new(binding.clone())));
    let per_quad = render_with(quadtex_raster::shader_fn(
        vec![binding],
        |q: &mut quadtex_raster::QuadCtx<'_>, out: &mut [[f32; 4]; 4]| {
            let c = q.coords2(quadtex_raster::ATTR_UV);
            *out = q.sample_rgba(0, &quadtex_sampler::SampleArgs::default(), c);
        },
    ));
    let mut textured = 0;
    for y in 0..80 {
        for x in 0..96 {
            let (a, b) = (batched.pixel(x, y).unwrap(), per_quad.pixel(x, y).unwrap());
            assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits), "pixel ({x}, {y})");
            textured += usize::from(a[3] > 0.0 && a != [0.0; 4]);
        }
    }
    // The plane covers a good part of the frame.
    assert!(textured > 96 * 80 / 4, "{textured} textured pixels");
}

/// `Shadowed::shade_batch` (both PCF filters: the depth references as a
/// plane through the planar sample and gather) and `Reflect::shade_batch`
/// (reflected directions as planes into a cube) give exactly what each
/// shader's own `shade` gives quad by quad: a tilted, perspective plane
/// (mixed LODs, partial quads on its edges) over a D32F shadow map of
/// varied depths that the plane leaves on one side (border texels), and
/// a cube of noise.
#[test]
fn shadowed_and_reflect_batches_shade_like_quad_by_quad() {
    use quadtex_raster::{FragmentShader, ShadowFilter, Shadowed};
    let noise = |n: usize, salt: usize| -> Vec<u8> {
        (0..n)
            .map(|i| ((i + salt).wrapping_mul(2_654_435_761) >> 11) as u8)
            .collect()
    };
    let desc = TextureDesc::d2(TextureFormat::Rgba8Srgb, 64, 64).with_levels(7);
    let base = Arc::new(
        Texture::from_linear_bytes(
            desc,
            Layout::Tiled,
            &noise(desc.total_bytes().unwrap() as usize, 1),
        )
        .unwrap(),
    );
    let base = TextureBinding::new(base, SamplerHeader::trilinear(AddressMode::Repeat));
    // Depths 0.2..0.95 in a ramp with noise: some lanes lit, some not.
    let sdesc = TextureDesc::d2(TextureFormat::Depth32Float, 32, 32).with_levels(1);
    let depths: Vec<u8> = (0..32 * 32)
        .flat_map(|i: usize| {
            let ramp = 0.2 + 0.75 * (i % 32) as f32 / 31.0;
            let jitter = ((i.wrapping_mul(2_654_435_761) >> 13) % 100) as f32 / 1000.0;
            (ramp - jitter).to_le_bytes()
        })
        .collect();
    let map = Arc::new(Texture::from_linear_bytes(sdesc, Layout::Tiled, &depths).unwrap());
    let light = glam::camera::rh::proj::directx::orthographic(-3.0, 3.0, -3.0, 3.0, 0.1, 10.0)
        * glam::camera::rh::view::look_at_mat4(Vec3::new(1.0, 4.0, 1.0), Vec3::ZERO, Vec3::Z);
    let camera = glam::camera::rh::proj::directx::perspective(1.0, 1.0, 0.1, 50.0)
        * glam::camera::rh::view::look_at_mat4(Vec3::new(0.0, 1.0, 3.0), Vec3::ZERO, Vec3::Y);
    let plane = Arc::new(Mesh::rect(Vec2::splat(-4.0), Vec2::splat(4.0)));
    let tilt = Mat4::from_rotation_x(-1.2);
    let render_with = |shader: Arc<dyn FragmentShader>| {
        let mut frame = Frame::new(96, 80);
        frame.draw(DrawCall::new(plane.clone(), camera * tilt, shader));
        render(&frame)
    };
    let bits = |c: &ColorTarget| c.bytes().to_vec();
    let check = |name: &str, shader: Arc<dyn FragmentShader>| {
        let bindings = shader.bindings().to_vec();
        let per_quad = shader.clone();
        let a = render_with(shader);
        let b = render_with(quadtex_raster::shader_fn(
            bindings,
            move |q: &mut quadtex_raster::QuadCtx<'_>, out: &mut [[f32; 4]; 4]| {
                per_quad.shade(q, out)
            },
        ));
        assert_eq!(bits(&a), bits(&b), "{name}: batched vs quad by quad");
        a
    };
    for filter in [ShadowFilter::SampleCompare, ShadowFilter::GatherCompare] {
        let mut sh = Shadowed::new(base.clone(), map.clone(), light, Vec3::new(0.2, 1.0, 0.3));
        sh.filter = filter;
        let c = check(&format!("Shadowed {filter:?}"), Arc::new(sh));
        // The plane covers a good part of the frame.
        let shaded = c.values().iter().filter(|p| p[3] > 0.0).count();
        assert!(shaded > 96 * 80 / 4, "{filter:?}: {shaded} pixels");
    }
    let faces: Vec<ColorTarget> = (0..6)
        .map(|f| {
            let bytes: Vec<u8> = (0..64)
                .flat_map(|i| {
                    let v = noise(4, 97 * f + i);
                    [v[0], v[1], v[2], 255]
                })
                .collect();
            ColorTarget::from_bytes(8, 8, 1, ColorFormat::Rgba8Unorm, bytes).unwrap()
        })
        .collect();
    let cube = Arc::new(cube_texture(&faces, TextureFormat::Rgba8Unorm, true).unwrap());
    let env = TextureBinding::new(cube, SamplerHeader::trilinear(AddressMode::ClampToEdge));
    let mut reflect = Reflect::new(env, Vec3::new(0.0, 1.0, 3.0));
    reflect.reflectivity = 0.7;
    reflect.tint = [0.9, 0.8, 0.7, 1.0];
    check("Reflect", Arc::new(reflect));
}
