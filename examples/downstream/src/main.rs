//! quad throughput of `quadtex-sampler` as a crate that depends on it
//! builds it: cargo's default release profile, no target features, the
//! SIMD level chosen at run time. The workload is `quadtex profile`'s
//! (the same source file), run through the public API.
//!
//! `cargo run --release [-- SECONDS]` prints one line per operation in
//! Mpixels/s, one thread. The crate's test (`tests/from_the_docs.rs`,
//! `cargo test --release`) uses the format, sampler and scene crates as
//! their docs describe.

#[allow(dead_code)]
#[path = "../../../src/profile.rs"]
mod profile;

use profile::{Op, Workload};
use quadtex_sampler::{cpu, Profile};
use std::time::Duration;

fn main() {
    let seconds = std::env::args()
        .nth(1)
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 3600.0)
        .unwrap_or(1.0);
    let level = cpu::simd_level();
    println!(
        "quadtex-sampler from a dependent crate (1 thread; isa {}; build target features: {}; {seconds} s each)",
        level.name(),
        profile::target_features()
    );
    // One run a line, as a table.
    #[rustfmt::skip]
    let runs: [(Op, &str, &str, &str, &str, Profile); 16] = [
        (Op::Sample, "nearest", "rgba8", "2d", "vulkan", Profile::VULKAN),
        (Op::Sample, "bilinear", "rgba8", "2d", "vulkan", Profile::VULKAN),
        (Op::Sample, "bilinear", "rgba8", "2d", "nv_sass", Profile::NV_SASS),
        (Op::Sample, "trilinear", "rgba8", "2d", "vulkan", Profile::VULKAN),
        (Op::Sample, "trilinear", "rgba8", "2d", "nv_sass", Profile::NV_SASS),
        (Op::Gather, "bilinear", "rgba8", "2d", "vulkan", Profile::VULKAN),
        (Op::Compare, "bilinear", "d32f", "2d", "vulkan", Profile::VULKAN),
        (Op::Sample, "aniso16", "rgba8", "2d", "vulkan", Profile::VULKAN),
        (Op::Sample, "bilinear", "rgba8", "cube", "vulkan", Profile::VULKAN),
        (Op::Sample, "bilinear", "rgba8", "2d_array", "vulkan", Profile::VULKAN),
        (Op::Sample, "bilinear", "rgba16f", "2d", "vulkan", Profile::VULKAN),
        (Op::Sample, "bilinear", "r32f", "2d", "vulkan", Profile::VULKAN),
        (Op::Sample, "bilinear", "bc7", "2d", "vulkan", Profile::VULKAN),
        (Op::Sample, "trilinear", "rgba8", "cube", "vulkan", Profile::VULKAN),
        (Op::Sample, "trilinear", "rgba16f", "2d", "vulkan", Profile::VULKAN),
        (Op::Sample, "trilinear", "bc7", "2d", "vulkan", Profile::VULKAN),
    ];
    for (op, filter, format, kind, name, prof) in runs {
        let w = match Workload::new(filter, format, kind) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("{filter}/{format}/{kind}: {e}");
                std::process::exit(2);
            }
        };
        let (qps, sum) = w.run(op, &prof, level, Duration::from_secs_f64(seconds));
        println!(
            "{:?} {filter}/{format}/{kind} {name}: {:.1} Mpixels/s (checksum {sum:.1})",
            op,
            qps * 4.0 / 1e6
        );
    }
}
