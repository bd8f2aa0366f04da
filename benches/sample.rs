//! `sample` throughput in quads per second: nearest, bilinear, trilinear
//! and 16x anisotropic on RGBA8 (UNORM and sRGB), RGBA16F, R32F, BC1 and
//! BC7, on 2D, cube and 2D-array views. Groups are
//! `<filter>/<format>/<kind>`; the throughput unit is quads (4 pixels).
//!
//! Each iteration shades a 64x64-pixel screen tile (1024 quads). Texture
//! coordinates minify by about 1.6 texels per pixel (lambda ~ 0.7) with a
//! slight rotation, as a textured surface at a moderate distance; the
//! anisotropic workload stretches the footprint 8:1 like a ground plane.
//! Texel data are seeded random values of the format (random bytes:
//! random BC blocks decode like any others; the float formats' random
//! finite normal numbers, `quadtex::profile::random_values`). Implicit coarse derivatives, `Profile::VULKAN`.
//!
//! Each group has two functions: `quads` calls `QuadSampler::sample` once
//! per quad (a `QuadResult` per quad); `tile` hands the whole tile to
//! `QuadSampler::sample_quads_rgba`, which runs full 2D quads several per
//! register (four per AVX-512 register in a `target-cpu=native` build on
//! an AVX-512 machine) and writes lane-major RGBA.
//!
//! The `fetch/<format>/<kind>` groups at the end time texel fetch (see
//! `bench_fetch`).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use quadtex::format::{Layout, Texture, TextureDesc, TextureFormat, TextureKind};
use quadtex::sampler::profile::Derivatives;
use quadtex::sampler::{
    fetch, AddressMode, FetchArgs, Filter, MipmapMode, Profile, Quad, QuadFetcher, QuadSampler,
    SampleArgs, SamplerHeader, TextureHeader,
};

const TILE: usize = 64;

fn texture(kind: TextureKind, format: TextureFormat) -> Arc<Texture> {
    let desc = match kind {
        TextureKind::Cube => TextureDesc::cube(format, 256),
        TextureKind::D2Array => {
            TextureDesc::d2(format, 512, 512).with_layers(TextureKind::D2Array, 4)
        }
        _ => TextureDesc::d2(format, 1024, 1024),
    };
    let n = desc.total_bytes().unwrap() as usize;
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut bytes: Vec<u8> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        })
        .collect();
    quadtex::profile::random_values(format, &mut bytes);
    Arc::new(Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap())
}

/// The tile's quads: coordinates for `kind`, footprint per `aniso`.
fn quads(kind: TextureKind, size: f32, aniso: bool) -> Vec<Quad> {
    let mut out = Vec::with_capacity(TILE * TILE / 4);
    let (du, dv) = if aniso {
        (1.5 / size, 12.0 / size)
    } else {
        (1.6 / size, 1.6 / size)
    };
    let (c, s) = (0.996f32, 0.087f32);
    for qy in 0..TILE / 2 {
        for qx in 0..TILE / 2 {
            let coords = [0, 1, 2, 3].map(|l| {
                let x = (2 * qx + (l & 1)) as f32;
                let y = (2 * qy + (l >> 1)) as f32;
                let u = 0.1 + (c * x - s * y) * du;
                let v = 0.2 + (s * x + c * y) * dv;
                match kind {
                    // Directions through the +Z face.
                    TextureKind::Cube => [u * 2.0 - 1.0, v * 2.0 - 1.0, 1.0, 0.0],
                    TextureKind::D2Array => [u, v, 0.0, 2.0],
                    _ => [u, v, 0.0, 0.0],
                }
            });
            out.push(Quad::new(coords));
        }
    }
    out
}

fn bench_sample(c: &mut Criterion) {
    let filters: [(&str, Filter, MipmapMode, f32); 4] = [
        ("nearest", Filter::Nearest, MipmapMode::Nearest, 1.0),
        ("bilinear", Filter::Linear, MipmapMode::Nearest, 1.0),
        ("trilinear", Filter::Linear, MipmapMode::Linear, 1.0),
        ("aniso16", Filter::Linear, MipmapMode::Linear, 16.0),
    ];
    let formats = [
        ("rgba8", TextureFormat::Rgba8Unorm),
        ("rgba8_srgb", TextureFormat::Rgba8Srgb),
        ("rgba16f", TextureFormat::Rgba16Float),
        ("r32f", TextureFormat::R32Float),
        ("bc1", TextureFormat::Bc1RgbaUnorm),
        ("bc7", TextureFormat::Bc7Unorm),
    ];
    let kinds = [
        ("2d", TextureKind::D2),
        ("cube", TextureKind::Cube),
        ("2d_array", TextureKind::D2Array),
    ];
    let profile = Profile::VULKAN;
    let args = SampleArgs {
        derivatives: Some(Derivatives::Coarse),
        ..Default::default()
    };
    for (kname, kind) in kinds {
        for (fname, format) in formats {
            let tex = texture(kind, format);
            let view = TextureHeader::new(tex.clone());
            let size = tex.desc().width as f32;
            for (name, filter, mip, aniso) in filters {
                let smp = SamplerHeader {
                    mag_filter: filter,
                    min_filter: filter,
                    mipmap_mode: mip,
                    address: [AddressMode::Repeat; 3],
                    max_anisotropy: aniso,
                    ..Default::default()
                };
                let qs = quads(kind, size, aniso > 1.0);
                let mut g = c.benchmark_group(format!("{name}/{fname}/{kname}"));
                g.throughput(Throughput::Elements(qs.len() as u64));
                let mut unit = QuadSampler::new(&view, &smp, &profile);
                g.bench_function("quads", |b| {
                    b.iter(|| {
                        for q in &qs {
                            black_box(unit.sample(&args, black_box(q)));
                        }
                    })
                });
                let mut out = vec![[[0.0f32; 4]; 4]; qs.len()];
                g.bench_function("tile", |b| {
                    b.iter(|| {
                        unit.sample_quads_rgba(&args, black_box(&qs), &mut out);
                        black_box(&out);
                    })
                });
                g.finish();
            }
        }
    }
}

/// `fetch` throughput in quads per second, free function vs a
/// [`QuadFetcher`] kept per view. `fetch/rgba32f/2d_ms` is an MSAA
/// resolve: every quad of a 64x64 tile fetches samples 0 to 3 of a 4x
/// RGBA32F 2D multisample texture (960x540, random bits); `fetch/rgba8/2d`
/// fetches the tile's texels from level 0 of a 1024x1024 RGBA8 2D texture.
/// The throughput unit is one quad fetch (four lanes). `free` calls
/// [`fetch`] per quad (building the unit each time), `cached` calls
/// `QuadFetcher::fetch` (a `QuadResult`), `cached_rgba` calls
/// `QuadFetcher::fetch_rgba` (lane-major RGBA, the renderer's form).
fn bench_fetch(c: &mut Criterion) {
    let cases = [
        (
            "rgba32f",
            "2d_ms",
            TextureDesc::d2_ms(TextureFormat::Rgba32Float, 960, 540, 4),
        ),
        (
            "rgba8",
            "2d",
            TextureDesc::d2(TextureFormat::Rgba8Unorm, 1024, 1024),
        ),
    ];
    for (fname, kname, desc) in cases {
        let n = desc.total_bytes().unwrap() as usize;
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let bytes: Vec<u8> = (0..n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s as u8
            })
            .collect();
        let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap());
        let view = TextureHeader::new(tex);
        let mut all = Vec::new();
        for qy in 0..TILE as i32 / 2 {
            for qx in 0..TILE as i32 / 2 {
                let icoords =
                    [0, 1, 2, 3].map(|l| [100 + 2 * qx + (l & 1), 50 + 2 * qy + (l >> 1), 0, 0]);
                for s in 0..desc.samples as i32 {
                    all.push(FetchArgs {
                        icoords,
                        sample: [s; 4],
                        ..Default::default()
                    });
                }
            }
        }
        let mut g = c.benchmark_group(format!("fetch/{fname}/{kname}"));
        g.throughput(Throughput::Elements(all.len() as u64));
        g.bench_function("free", |b| {
            b.iter(|| {
                for a in &all {
                    black_box(fetch(&view, black_box(a), 0xf));
                }
            })
        });
        let mut unit = QuadFetcher::new(&view);
        g.bench_function("cached", |b| {
            b.iter(|| {
                for a in &all {
                    black_box(unit.fetch(black_box(a), 0xf));
                }
            })
        });
        g.bench_function("cached_rgba", |b| {
            b.iter(|| {
                for a in &all {
                    black_box(unit.fetch_rgba(black_box(a), 0xf));
                }
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1)).sample_size(20);
    targets = bench_sample, bench_fetch
}
criterion_main!(benches);
