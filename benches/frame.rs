//! Whole frames through the rasterizer: frames/s, with the throughput set
//! to pixels so criterion also reports Mpixels/s (elements/s).
//!
//! Groups:
//! - `showcase/960x540/threads=N`: `scenes/showcase.toml` as the scene file
//!   says (960x540, 4x MSAA, D24 shadow map, 16x anisotropic ground), the
//!   whole [`render_scene_with`] path: shadow pass, draws, resolve.
//! - `fullscreen_trilinear/1920x1080/threads=N`: the llvmpipe comparison of
//!   `docs/architecture.md` ("Performance"): a full-screen quad, one
//!   trilinear `sample` per pixel from a mipmapped 1024^2 RGBA8 texture
//!   (tiled layout, seeded random texels), no MSAA, written to the colour
//!   target (`Renderer::render_into`, the target reused from frame to
//!   frame).
//!
//! Each runs with 1 thread and with every core (`threads=0` is rayon's
//! default, one per core). Figures depend on the target features of the
//! build: the workspace builds with `target-cpu=native` (`.cargo/config`).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::{Mat4, Vec2};
use quadtex::format::{Layout, Texture, TextureDesc, TextureFormat};
use quadtex::raster::{DrawCall, DrawState, Frame, Mesh, Renderer, TextureBinding, Unlit};
use quadtex::sampler::{AddressMode, SamplerHeader};
use quadtex::scene::{render_scene_with, RenderOptions, Scene};

/// Thread counts measured: one, and all cores.
fn thread_counts() -> [usize; 2] {
    [
        1,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    ]
}

fn showcase(c: &mut Criterion) {
    let scene = Scene::load(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/showcase.toml"))
        .expect("showcase.toml loads");
    let (w, h) = (scene.output.width, scene.output.height);
    let mut g = c.benchmark_group("showcase");
    g.sample_size(10);
    g.throughput(Throughput::Elements(u64::from(w) * u64::from(h)));
    for threads in thread_counts() {
        let renderer = Renderer::new(threads).expect("pool");
        let options = RenderOptions::default();
        g.bench_function(format!("{w}x{h}/threads={threads}"), |b| {
            b.iter(|| black_box(render_scene_with(&renderer, &scene, &options).expect("render")))
        });
    }
    g.finish();
}

/// A mipmapped 1024^2 RGBA8 texture of seeded random texels.
fn texture() -> Arc<Texture> {
    let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, 1024, 1024);
    let n = desc.total_bytes().expect("size") as usize;
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let bytes: Vec<u8> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        })
        .collect();
    Arc::new(Texture::from_linear_bytes(desc, Layout::Linear, &bytes).expect("texture"))
}

fn fullscreen_trilinear(c: &mut Criterion) {
    let (w, h) = (1920u32, 1080u32);
    let shader = Unlit::new(TextureBinding::new(
        texture(),
        SamplerHeader::trilinear(AddressMode::Repeat),
    ));
    let mut frame = Frame::new(w, h);
    frame.draw(
        DrawCall::new(
            Arc::new(Mesh::rect(Vec2::splat(-1.0), Vec2::splat(1.0))),
            Mat4::IDENTITY,
            Arc::new(shader),
        )
        .with_state(DrawState::OVERLAY),
    );
    let mut g = c.benchmark_group("fullscreen_trilinear");
    g.sample_size(10);
    g.throughput(Throughput::Elements(u64::from(w) * u64::from(h)));
    for threads in thread_counts() {
        let renderer = Renderer::new(threads).expect("pool");
        // The target is reused from frame to frame, as a render loop does.
        let mut out = renderer.render(&frame).expect("render");
        g.bench_function(format!("{w}x{h}/threads={threads}"), |b| {
            b.iter(|| {
                renderer.render_into(&frame, &mut out).expect("render");
                black_box(&out);
            })
        });
    }
    g.finish();
}

criterion_group!(benches, showcase, fullscreen_trilinear);
criterion_main!(benches);
