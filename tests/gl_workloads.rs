//! The OpenGL throughput workloads (`quadtex::gl_workloads`): their frames
//! hold the values the shaders define, clip-space vertices draw what the
//! same positions through a matrix draw, and the batched gather the
//! workloads use gives the per-quad gather's frame.

use std::sync::Arc;

use glam::{Mat4, Vec3};
use quadtex::gl_workloads::{self, Mapping, Textures};
use quadtex::raster::{
    shader_fn, texels_f32, ColorFormat, DrawCall, DrawState, FragmentShader, Frame, Mesh, QuadCtx,
    Rendered, Renderer, TextureBinding,
};
use quadtex::sampler::{AddressMode, Filter, GatherArgs, MipmapMode, Profile, SamplerHeader};

fn textures() -> Textures {
    Textures::new(
        &gl_workloads::default_level0(),
        &gl_workloads::default_shadow(),
    )
    .unwrap()
}

fn variant(name: &str) -> gl_workloads::Variant {
    gl_workloads::select(Some(name)).unwrap()[0]
}

#[test]
fn flat_frame_is_fract_of_the_interpolated_uv() {
    let r = gl_workloads::renderer(2, Profile::VULKAN).unwrap();
    let out = r
        .render(&gl_workloads::frame(&variant("no_texture"), &textures()))
        .unwrap();
    let (w, h) = (gl_workloads::WIDTH as usize, gl_workloads::HEIGHT as usize);
    // Pixel centre (x + 0.5, y + 0.5), top row first; uv = 3 * screen uv
    // with screen v = 1 at the top.
    for (x, y) in [(0usize, 0usize), (1919, 1079), (640, 360), (7, 1000)] {
        let u = 3.0 * (x as f64 + 0.5) / w as f64;
        let v = 3.0 * (1.0 - (y as f64 + 0.5) / h as f64);
        // The target is R8G8B8A8_UNORM: within half a code (and the
        // interpolation's rounding) of the exact value.
        let px = out.color.pixel(x as u32, y as u32).unwrap();
        let near = |got: f32, want: f64| (f64::from(got) - want).abs() <= 0.5 / 255.0 + 1e-4;
        assert!(near(px[0], u - u.floor()), "{x},{y}: {px:?}");
        assert!(near(px[1], v - v.floor()), "{x},{y}: {px:?}");
        assert_eq!([px[2], px[3]], [0.0, 1.0]);
    }
    let bytes = gl_workloads::rgba8_top_first(&out);
    // Top-left: u = 0.00078 -> 0, v = 0.99861 -> 255.
    assert_eq!(&bytes[..4], &[0, 255, 0, 255]);
}

#[test]
fn clip_space_vertices_draw_what_the_same_positions_through_a_matrix_draw() {
    let flat = |q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]| {
        let (u, v) = (q.attr(0), q.attr(1));
        for l in 0..4 {
            out[l] = [u[l] - u[l].floor(), v[l] - v[l].floor(), 0.0, 1.0];
        }
    };
    let clip = Mapping::RotPersp.mesh();
    assert_eq!(clip.w, vec![1.0, 1.0, 2.5, 2.5]);
    // The same vertices as (x, y, w) positions and a matrix putting w in
    // the fourth row.
    let mut by_matrix = clip.clone();
    by_matrix.positions = clip
        .positions
        .iter()
        .zip(&clip.w)
        .map(|(p, &w)| Vec3::new(p.x, p.y, w))
        .collect();
    by_matrix.w.clear();
    let m = Mat4::from_cols_array(&[
        1.0, 0.0, 0.0, 0.0, //
        0.0, 1.0, 0.0, 0.0, //
        0.0, 0.0, 0.0, 1.0, //
        0.0, 0.0, 0.0, 0.0,
    ]);
    let r = Renderer::new(2).unwrap();
    let render = |mesh: Mesh, transform: Mat4| {
        let mut f = Frame::new(320, 180);
        f.draw(
            DrawCall::new(Arc::new(mesh), transform, shader_fn(Vec::new(), flat))
                .with_state(DrawState::OVERLAY),
        );
        r.render(&f).unwrap().color.values()
    };
    let a = render(clip, Mat4::IDENTITY);
    let b = render(by_matrix, m);
    assert_eq!(a, b);
    // Perspective: the top of the screen (w = 2.5) is not the linear
    // interpolation of the corners' uv.
    assert!(a.iter().all(|p| p[3] == 1.0));
}

/// `batched` rendered, and the frame of the same minify quad in the same
/// target format drawn with `per_quad` instead, on two threads.
fn batched_and_per_quad(
    batched: &Frame,
    per_quad: Arc<dyn FragmentShader>,
) -> (Rendered, Rendered) {
    let mut f = Frame::new(gl_workloads::WIDTH, gl_workloads::HEIGHT)
        .with_color_format(batched.color_format);
    f.clear_color = [0.0; 4];
    f.draw(
        DrawCall::new(Arc::new(Mapping::Minify.mesh()), Mat4::IDENTITY, per_quad)
            .with_state(DrawState::OVERLAY),
    );
    let r = Renderer::new(2).unwrap();
    (r.render(batched).unwrap(), r.render(&f).unwrap())
}

/// The flat workload's batched shader (its loop compiled for the
/// machine's SIMD level) gives the per-quad `fract` frame, byte for byte,
/// into an RGBA32F target (no rounding to hide a difference).
#[test]
fn batched_flat_gives_the_per_quad_frame() {
    let t = textures();
    let mut batched = gl_workloads::frame(&variant("no_texture"), &t);
    batched.color_format = ColorFormat::Rgba32Float;
    let per_quad = shader_fn(
        Vec::new(),
        |q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]| {
            let (u, v) = (q.attr(0), q.attr(1));
            for l in 0..4 {
                out[l] = [u[l] - u[l].floor(), v[l] - v[l].floor(), 0.0, 1.0];
            }
        },
    );
    let (a, b) = batched_and_per_quad(&batched, per_quad);
    assert_eq!(a.color.format(), ColorFormat::Rgba32Float);
    assert!(a.color.bytes() == b.color.bytes(), "the frames differ");
    // The fractions vary over the frame.
    let px = a.color.pixel(10, 1000).unwrap();
    assert!(a.color.values().iter().any(|p| p[0] != px[0]));
}

#[test]
fn batched_gather_gives_the_per_quad_gathers_frame() {
    let t = textures();
    let batched = gl_workloads::frame(&variant("gather_minify"), &t);
    let smp = SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        mipmap_mode: MipmapMode::Linear,
        address: [AddressMode::Repeat; 3],
        ..Default::default()
    };
    let per_quad = shader_fn(
        vec![TextureBinding::new(t.color.clone(), smp)],
        |q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]| {
            let c = q.coords2(0);
            *out = texels_f32(&q.gather(0, &GatherArgs::default(), c));
        },
    );
    let (a, b) = batched_and_per_quad(&batched, per_quad);
    assert_eq!(a.color.format(), ColorFormat::Rgba8Unorm);
    assert_eq!(a.color.bytes(), b.color.bytes());
    assert_eq!(a.stats.tex.gather, b.stats.tex.gather);
    // Gathers read level 0's red bytes: not all equal.
    let px = a.color.pixel(10, 1000).unwrap();
    assert!(a.color.values().iter().any(|p| p[0] != px[0]));
}

#[test]
fn unknown_variants_and_wrong_sizes_are_errors() {
    assert!(gl_workloads::select(Some("bilinear_minify,nope")).is_err());
    assert_eq!(gl_workloads::select(None).unwrap().len(), 11);
    assert!(Textures::new(&[0u8; 16], &gl_workloads::default_shadow()).is_err());
    assert!(Textures::new(&gl_workloads::default_level0(), &[0u8; 3]).is_err());
}
