//! Whole frames of the OpenGL throughput workloads
//! (`quadtex::gl_workloads`, `docs/gl-workloads.md`): the full-screen
//! 1920x1080 draws llvmpipe is measured on, rendered by quadtex's
//! rasterizer with one texture operation per pixel.
//!
//! Groups: `gl_workloads/VARIANT/threads=N` for every variant at one
//! thread and at every core, throughput in pixels (criterion reports
//! Mpixels/s as elements/s). The textures are the command's defaults
//! (seeded level 0, the analytic shadow field); the sampler profile is
//! `vulkan`, the renderer's default. The SIMD level is chosen at run time
//! (`QUADTEX_SIMD` lowers it).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use quadtex::gl_workloads::{self, Textures, VARIANTS};
use quadtex::sampler::Profile;

fn gl_workloads(c: &mut Criterion) {
    let textures = Textures::new(
        &gl_workloads::default_level0(),
        &gl_workloads::default_shadow(),
    )
    .expect("textures");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut g = c.benchmark_group("gl_workloads");
    g.sample_size(10);
    g.throughput(Throughput::Elements(
        u64::from(gl_workloads::WIDTH) * u64::from(gl_workloads::HEIGHT),
    ));
    for threads in [1, cores] {
        let renderer = gl_workloads::renderer(threads, Profile::VULKAN).expect("renderer");
        for v in &VARIANTS {
            let frame = gl_workloads::frame(v, &textures);
            let mut out = renderer.render(&frame).expect("render");
            g.bench_function(format!("{}/threads={threads}", v.name), |b| {
                b.iter(|| {
                    renderer.render_into(&frame, &mut out).expect("render");
                    black_box(out.color.bytes().first());
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, gl_workloads);
criterion_main!(benches);
