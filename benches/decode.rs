//! Texel decode throughput: texels per second turned into `[f32; 4]` as a
//! shader sees them, for the formats that dominate real content.
//!
//! Groups: `decode/<format>`; the throughput is in texels (elements). The
//! uncompressed formats go through `texel::decode_f32_row` over a 256x256
//! level; block formats through `compressed::decode_block` over the blocks
//! of a 256x256 level. Uncompressed inputs are seeded pseudo-random bytes;
//! block inputs are real encoder output (the 32x32 fixtures made by etcpak
//! and astcenc under `crates/quadtex-format/tests/fixtures/compressed/`),
//! repeated to fill the level, since random ASTC blocks are mostly illegal
//! and would measure the error path.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use quadtex::format::{compressed, texel, Aspect, TextureFormat};
use std::hint::black_box;

const SIZE: u32 = 256;

fn bytes(n: usize) -> Vec<u8> {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        })
        .collect()
}

fn bench_decode(c: &mut Criterion) {
    let mut g = c.benchmark_group("decode");
    let texels = (SIZE * SIZE) as u64;
    g.throughput(Throughput::Elements(texels));
    for f in [
        TextureFormat::Rgba8Unorm,
        TextureFormat::Rgba8Srgb,
        TextureFormat::Rgba16Float,
    ] {
        let src = bytes(texels as usize * f.block_bytes() as usize);
        let mut out = vec![[0f32; 4]; texels as usize];
        g.bench_function(BenchmarkId::from_parameter(f.vulkan_name()), |b| {
            b.iter(|| {
                texel::decode_f32_row(f, Aspect::Color, black_box(&src), &mut out).unwrap();
                black_box(&out);
            })
        });
    }
    for f in [
        TextureFormat::Bc1RgbaUnorm,
        TextureFormat::Bc7Unorm,
        TextureFormat::Astc4x4Unorm,
    ] {
        let blocks = (texels / 16) as usize;
        let bb = f.block_bytes() as usize;
        let src = bytes(blocks * bb);
        let mut out = [[0f32; 4]; compressed::MAX_BLOCK_TEXELS];
        g.bench_function(BenchmarkId::from_parameter(f.vulkan_name()), |b| {
            b.iter(|| {
                for blk in black_box(&src).chunks_exact(bb) {
                    compressed::decode_block(f, blk, &mut out).unwrap();
                    black_box(&out);
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_decode);
criterion_main!(benches);
