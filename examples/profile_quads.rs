//! Quad throughput of one `sample` configuration on the command line, with
//! the scalar reference beside it:
//! `cargo run --release --example profile_quads -- [nearest|bilinear|trilinear|aniso16] [rgba8|rgba8_srgb|rgba16f|r32f|bc1|bc7] [2d|cube|2d_array]`.
//!
//! The workload is `quadtex profile`'s (`quadtex::profile::Workload`: a
//! 256x256-pixel region, 16,384 quads). Prints Mquads/s for
//! `QuadSampler::sample_quads_rgba` (the whole region per call, batched
//! kernels), `QuadSampler::sample` (quad by quad) and the scalar reference
//! (`quadtex::sampler::reference::sample`), about a second each. Set
//! `QUADTEX_NO_REFERENCE=1` to skip the reference, and
//! `QUADTEX_BATCH_ONLY=1` as well to time only `sample_quads_rgba` (for a
//! profiler); `quadtex profile` covers the other operations.

use std::time::{Duration, Instant};

use quadtex::profile::{target_features, Op, Workload};
use quadtex::sampler::{reference, Profile};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let filter = a.first().map(String::as_str).unwrap_or("bilinear");
    let format = a.get(1).map(String::as_str).unwrap_or("rgba8");
    let kind = a.get(2).map(String::as_str).unwrap_or("2d");
    let w = match Workload::new(filter, format, kind) {
        Ok(w) => w,
        Err(e) => return eprintln!("{e}"),
    };
    let second = Duration::from_secs(1);
    let level = quadtex::sampler::cpu::simd_level();
    let (batch, _) = w.run(Op::SampleQuads, &Profile::VULKAN, level, second);
    if std::env::var_os("QUADTEX_BATCH_ONLY").is_some() {
        return println!(
            "{filter}/{format}/{kind}: sample_quads_rgba {:.2} Mquads/s",
            batch / 1e6
        );
    }
    let (single, _) = w.run(Op::SampleQuad, &Profile::VULKAN, level, second);
    let reference = if std::env::var_os("QUADTEX_NO_REFERENCE").is_some() {
        0.0
    } else {
        let profile = Profile::VULKAN;
        let t = Instant::now();
        let mut n = 0usize;
        while t.elapsed() < second {
            for q in &w.quads {
                std::hint::black_box(reference::sample(&w.view, &w.smp, &profile, &w.args, q));
            }
            n += w.quads.len();
        }
        n as f64 / t.elapsed().as_secs_f64()
    };
    println!(
        "{filter}/{format}/{kind}: sample_quads_rgba {:.2}, sample {:.2}, reference {:.2} Mquads/s (target features: {})",
        batch / 1e6,
        single / 1e6,
        reference / 1e6,
        target_features()
    );
}
