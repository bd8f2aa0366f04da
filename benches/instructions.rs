//! Instruction throughput in quads per second (criterion elements = quads,
//! four pixels each), one thread: TLD4 `gather` (plain, PTP offsets, `.DC`
//! depth compare), `query_lod` (TMML.LOD), `fetch` (texelFetch) and D3D
//! `ld2dms` through its front-end. Groups are `<op>/<variant>/<format>`.
//!
//! Each iteration covers a 64x64-pixel screen tile (1024 quads) minifying
//! about 1.6:1 with a slight rotation, as `benches/sample.rs`; textures are
//! tiled with seeded random texels (1024^2, mipmapped; the multisample
//! target 256^2 x 4 samples). `Profile::VULKAN`. Figures depend on the
//! build's target features (`target-cpu=native`: AVX-512 on the project's
//! Zen 4 machines, see `.cargo/config.toml`).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use quadtex::format::{Layout, Texture, TextureDesc, TextureFormat, TextureKind};
use quadtex::sampler::gather::{GatherArgs, GatherOffsets};
use quadtex::sampler::isa::d3d::{self, D3dRegs, Reg, RegFile};
use quadtex::sampler::profile::Derivatives;
use quadtex::sampler::{
    query_lod, AddressMode, CompareOp, FetchArgs, Profile, Quad, QuadFetcher, QuadResult,
    QuadSampler, SampleArgs, SamplerHeader, TextureHeader,
};

const TILE: usize = 64;

fn texture(desc: TextureDesc) -> Arc<Texture> {
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

/// The tile's quads at texture size `size`.
fn quads(size: f32) -> Vec<Quad> {
    let d = 1.6 / size;
    let (c, s) = (0.996f32, 0.087f32);
    (0..TILE * TILE / 4)
        .map(|i| {
            let (qx, qy) = (i % (TILE / 2), i / (TILE / 2));
            Quad::new([0, 1, 2, 3].map(|l| {
                let x = (2 * qx + (l & 1)) as f32;
                let y = (2 * qy + (l >> 1)) as f32;
                [
                    0.1 + (c * x - s * y) * d,
                    0.2 + (s * x + c * y) * d,
                    0.0,
                    0.0,
                ]
            }))
        })
        .collect()
}

fn bench_gather(c: &mut Criterion) {
    let profile = Profile::VULKAN;
    let smp = SamplerHeader::trilinear(AddressMode::Repeat);
    let rgba8 = TextureHeader::new(texture(
        TextureDesc::d2(TextureFormat::Rgba8Unorm, 1024, 1024).with_levels(11),
    ));
    let depth = TextureHeader::new(texture(TextureDesc::d2(
        TextureFormat::Depth32Float,
        1024,
        1024,
    )));
    let dc_smp = SamplerHeader {
        compare: Some(CompareOp::LessOrEqual),
        ..smp
    };
    let qs = quads(1024.0);
    let variants: [(&str, &TextureHeader, &SamplerHeader, GatherArgs); 3] = [
        ("plain/rgba8", &rgba8, &smp, GatherArgs::default()),
        (
            "ptp/rgba8",
            &rgba8,
            &smp,
            GatherArgs {
                offsets: GatherOffsets::Ptp([[1, 0], [0, 1], [-1, 0], [0, -1]]),
                ..GatherArgs::default()
            },
        ),
        (
            "dc/d32f",
            &depth,
            &dc_smp,
            GatherArgs {
                dref: Some([0.5; 4]),
                ..GatherArgs::default()
            },
        ),
    ];
    for (name, view, smp, args) in variants {
        let mut g = c.benchmark_group(format!("gather/{name}"));
        g.throughput(Throughput::Elements(qs.len() as u64));
        let mut unit = QuadSampler::new(view, smp, &profile);
        let mut out = vec![QuadResult::EMPTY; qs.len()];
        g.bench_function("tile", |b| {
            b.iter(|| {
                unit.gather_quads(&args, black_box(&qs), &mut out);
                black_box(&out);
            })
        });
        g.finish();
    }
}

fn bench_query_lod(c: &mut Criterion) {
    let profile = Profile::VULKAN;
    let smp = SamplerHeader::trilinear(AddressMode::Repeat);
    let view = TextureHeader::new(texture(
        TextureDesc::d2(TextureFormat::Rgba8Unorm, 1024, 1024).with_levels(11),
    ));
    let qs = quads(1024.0);
    let args = SampleArgs {
        derivatives: Some(Derivatives::Coarse),
        ..Default::default()
    };
    let mut g = c.benchmark_group("query_lod/implicit/rgba8");
    g.throughput(Throughput::Elements(qs.len() as u64));
    g.bench_function("quads", |b| {
        b.iter(|| {
            for q in &qs {
                black_box(query_lod(&view, &smp, &profile, &args, black_box(q)));
            }
        })
    });
    g.finish();
}

fn bench_fetch(c: &mut Criterion) {
    let view = TextureHeader::new(texture(
        TextureDesc::d2(TextureFormat::Rgba8Unorm, 1024, 1024).with_levels(11),
    ));
    let args: Vec<FetchArgs> = quads(1024.0)
        .iter()
        .map(|q| FetchArgs {
            icoords: q
                .coords
                .map(|c| [(c[0] * 1024.0) as i32, (c[1] * 1024.0) as i32, 0, 0]),
            ..FetchArgs::default()
        })
        .collect();
    let mut g = c.benchmark_group("fetch/level0/rgba8");
    g.throughput(Throughput::Elements(args.len() as u64));
    let mut fetcher = QuadFetcher::new(&view);
    g.bench_function("quads", |b| {
        b.iter(|| {
            for a in &args {
                black_box(fetcher.fetch(black_box(a), 0xf));
            }
        })
    });
    g.finish();
}

fn bench_ld2dms(c: &mut Criterion) {
    let mut desc = TextureDesc::d2_ms(TextureFormat::Rgba32Float, 256, 256, 4);
    desc.kind = TextureKind::D2Ms;
    let res = [Some(TextureHeader::new(texture(desc)))];
    let ins = d3d::parse("ld2dms r0.xyzw, r1.xyzw, t0.xyzw, r2.x").expect("parse");
    let reg = |index| Reg {
        file: RegFile::Temp,
        index,
    };
    // A 64x64-pixel tile, every sample of each pixel in turn: the resolve.
    let mut regs: Vec<D3dRegs> = Vec::new();
    for s in 0..4u32 {
        for i in 0..TILE * TILE / 4 {
            let (qx, qy) = ((i % (TILE / 2)) as u32, (i / (TILE / 2)) as u32);
            let mut r = D3dRegs::new();
            r.set(
                reg(1),
                [0, 1, 2, 3].map(|l| [2 * qx + (l & 1), 2 * qy + (l >> 1), 0, 0]),
            );
            r.splat(reg(2), [s, 0, 0, 0]);
            regs.push(r);
        }
    }
    let mut g = c.benchmark_group("ld2dms/4x/rgba32f");
    g.throughput(Throughput::Elements(regs.len() as u64));
    g.bench_function("quads", |b| {
        b.iter(|| {
            for r in regs.iter_mut() {
                d3d::execute(&ins, &res, r);
            }
            black_box(&regs);
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1)).sample_size(20);
    targets = bench_gather, bench_query_lod, bench_fetch, bench_ld2dms
}
criterion_main!(benches);
