//! Quad throughput of one `sample` configuration on the command line:
//! `cargo run --release --example profile_quads -- [nearest|bilinear|trilinear|aniso16] [rgba8|rgba8_srgb|rgba16f|r32f|bc1|bc7] [2d|cube|2d_array]`.
//! Prints Mquads/s for `QuadSampler::sample_quads_rgba` (the whole region
//! per call, batched kernels, RGBA out), `QuadSampler::sample` (quad by quad; SIMD
//! kernel where it applies) and for the scalar reference, over a 256x256-pixel screen
//! region (16384 quads) repeated for about a second. Set
//! `QUADTEX_NO_REFERENCE=1` to time only the `QuadSampler` paths, and
//! `QUADTEX_BATCH_ONLY=1` as well to time only `sample_quads_rgba` (for a
//! profiler).

use std::sync::Arc;
use std::time::Instant;

use quadtex::format::{Layout, Texture, TextureDesc, TextureFormat, TextureKind};
use quadtex::sampler::profile::Derivatives;
use quadtex::sampler::{
    reference, sample_uses_kernel, AddressMode, Filter, MipmapMode, Profile, Quad, QuadSampler,
    SampleArgs, SamplerHeader, TextureHeader,
};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let filter = a.first().map(String::as_str).unwrap_or("bilinear");
    let format = a.get(1).map(String::as_str).unwrap_or("rgba8");
    let kind = a.get(2).map(String::as_str).unwrap_or("2d");
    let fmt = match format {
        "rgba8" => TextureFormat::Rgba8Unorm,
        "rgba8_srgb" => TextureFormat::Rgba8Srgb,
        "rgba16f" => TextureFormat::Rgba16Float,
        "r32f" => TextureFormat::R32Float,
        "bc1" => TextureFormat::Bc1RgbaUnorm,
        "bc7" => TextureFormat::Bc7Unorm,
        other => return eprintln!("unknown format {other}"),
    };
    let k = match kind {
        "2d" => TextureKind::D2,
        "cube" => TextureKind::Cube,
        "2d_array" => TextureKind::D2Array,
        other => return eprintln!("unknown kind {other}"),
    };
    let (f, mip, aniso) = match filter {
        "nearest" => (Filter::Nearest, MipmapMode::Nearest, 1.0),
        "bilinear" => (Filter::Linear, MipmapMode::Nearest, 1.0),
        "trilinear" => (Filter::Linear, MipmapMode::Linear, 1.0),
        "aniso16" => (Filter::Linear, MipmapMode::Linear, 16.0),
        other => return eprintln!("unknown filter {other}"),
    };
    let desc = match k {
        TextureKind::Cube => TextureDesc::cube(fmt, 256),
        TextureKind::D2Array => TextureDesc::d2(fmt, 512, 512).with_layers(TextureKind::D2Array, 4),
        _ => TextureDesc::d2(fmt, 1024, 1024),
    };
    let n = desc.total_bytes().unwrap() as usize;
    let bytes: Vec<u8> = (0..n)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).unwrap());
    let view = TextureHeader::new(tex.clone());
    let smp = SamplerHeader {
        mag_filter: f,
        min_filter: f,
        mipmap_mode: mip,
        address: [AddressMode::Repeat; 3],
        max_anisotropy: aniso,
        ..Default::default()
    };
    let size = desc.width as f32;
    let (du, dv) = if aniso > 1.0 {
        (1.5 / size, 12.0 / size)
    } else {
        (1.6 / size, 1.6 / size)
    };
    let mut quads = Vec::new();
    for qy in 0..128 {
        for qx in 0..128 {
            quads.push(Quad::new([0, 1, 2, 3].map(|l| {
                let x = (2 * qx + (l & 1)) as f32;
                let y = (2 * qy + (l >> 1)) as f32;
                let (u, v) = (
                    0.1 + (0.996 * x - 0.087 * y) * du,
                    0.2 + (0.087 * x + 0.996 * y) * dv,
                );
                match k {
                    TextureKind::Cube => [u * 2.0 - 1.0, v * 2.0 - 1.0, 1.0, 0.0],
                    TextureKind::D2Array => [u, v, 0.0, 2.0],
                    _ => [u, v, 0.0, 0.0],
                }
            })));
        }
    }
    let profile = Profile::VULKAN;
    // QUADTEX_LOD=level times an explicit lambda (no derivatives, no log2).
    let lod = match std::env::var("QUADTEX_LOD").as_deref() {
        Ok("level") => quadtex::sampler::Lod::Level([0.7; 4]),
        _ => quadtex::sampler::Lod::Implicit,
    };
    let args = SampleArgs {
        lod,
        derivatives: Some(Derivatives::Coarse),
        ..Default::default()
    };
    let batch_only = std::env::var_os("QUADTEX_BATCH_ONLY").is_some();
    let kernel = sample_uses_kernel(&view, &smp, &profile, &args);
    let mut unit = QuadSampler::new(&view, &smp, &profile);
    let run = |f: &mut dyn FnMut(&Quad) -> f32| {
        let t = Instant::now();
        let mut n = 0usize;
        let mut sink = 0.0f32;
        while t.elapsed().as_secs_f64() < 1.0 {
            for q in &quads {
                sink += f(q);
            }
            n += quads.len();
        }
        (n as f64 / t.elapsed().as_secs_f64() / 1e6, sink)
    };
    let first = |r: quadtex::sampler::QuadResult| r.texels[0].map_or(0.0, |t| t.to_f32()[0]);
    let (fast, s1) = if batch_only {
        (0.0, 0.0)
    } else {
        run(&mut |q| first(unit.sample(&args, q)))
    };
    // The tile API: all quads in one call, batched several per register.
    let mut out = vec![[[0.0f32; 4]; 4]; quads.len()];
    let t = Instant::now();
    let mut n = 0usize;
    let mut s3 = 0.0f32;
    while t.elapsed().as_secs_f64() < 1.0 {
        unit.sample_quads_rgba(&args, &quads, &mut out);
        s3 += out.iter().map(|r| r[0][0]).sum::<f32>();
        n += quads.len();
    }
    let batch = n as f64 / t.elapsed().as_secs_f64() / 1e6;
    if batch_only {
        // For `perf stat`: cycles per quad = cycles / this count.
        eprintln!("sample_quads: {n} quads");
    }
    let (slow, s2) = if std::env::var_os("QUADTEX_NO_REFERENCE").is_some() {
        (0.0, 0.0)
    } else {
        run(&mut |q| first(reference::sample(&view, &smp, &profile, &args, q)))
    };
    println!("{filter}/{format}/{kind}: QuadSampler::sample_quads_rgba {batch:.2} Mquads/s, QuadSampler::sample {fast:.2} Mquads/s ({}), reference {slow:.2} Mquads/s (checksums {s3} {s1} {s2})", if kernel { "SIMD kernel" } else { "reference path" });
}
