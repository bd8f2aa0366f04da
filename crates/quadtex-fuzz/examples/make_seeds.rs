//! Writes the generated part of the fuzz seed corpora into `fuzz/seeds/`:
//! small KTX2 files of several formats and kinds (plain and Zstandard
//! supercompressed), PNGs of each colour type, and random inputs for the
//! structured targets (`sampler_twin`, `raster`). The other seeds are
//! copies of the repository's assets, scenes, fixtures and test strings
//! (docs/fuzzing.md). Run from the repository root:
//! `cargo run --release -p quadtex-fuzz --example make_seeds`.

use std::path::Path;

use quadtex_format::io::{encode_png, write_ktx2};
use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat as F, TextureKind as K};

fn texture(desc: TextureDesc, seed: u64) -> Texture {
    let n = desc.total_bytes().expect("small") as usize;
    let mut s = seed | 1;
    let bytes: Vec<u8> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        })
        .collect();
    Texture::from_linear_bytes(desc, Layout::Linear, &bytes).expect("valid texture")
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// The file with every level Zstandard-compressed (KTX2 scheme 2).
fn zstd_version(file: &[u8]) -> Vec<u8> {
    let levels = u32_at(file, 40).max(1) as usize;
    let entry = |l: usize| (u64_at(file, 80 + 24 * l), u64_at(file, 88 + 24 * l));
    let first = (0..levels)
        .map(|l| entry(l).0 as usize)
        .min()
        .expect("a level");
    let mut out = file[..first].to_vec();
    out[44..48].copy_from_slice(&2u32.to_le_bytes());
    for l in (0..levels).rev() {
        let (off, len) = entry(l);
        let raw = &file[off as usize..(off + len) as usize];
        let z = ruzstd::encoding::compress_to_vec(raw, ruzstd::encoding::CompressionLevel::Fastest);
        let at = 80 + 24 * l;
        let offset = out.len() as u64;
        out[at..at + 8].copy_from_slice(&offset.to_le_bytes());
        out[at + 8..at + 16].copy_from_slice(&(z.len() as u64).to_le_bytes());
        out[at + 16..at + 24].copy_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&z);
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seeds = Path::new("fuzz/seeds");
    let write = |target: &str, name: &str, bytes: &[u8]| -> std::io::Result<()> {
        let dir = seeds.join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(name), bytes)
    };
    let mut cube = TextureDesc::cube(F::Rgba16Float, 4);
    cube.levels = 3;
    let descs = [
        TextureDesc::d2(F::Rgba8Unorm, 8, 4).with_levels(3),
        TextureDesc::d2(F::Rgba8Srgb, 5, 3).with_levels(2),
        TextureDesc::d2(F::R32Float, 3, 7).with_layers(K::D2Array, 2),
        cube,
        TextureDesc::d3(F::Rgba8Unorm, 4, 4, 3),
        TextureDesc::d1(F::Rgba8Unorm, 9),
        TextureDesc::d2(F::Bc1RgbaUnorm, 8, 8).with_levels(2),
        TextureDesc::d2(F::Bc7Unorm, 4, 4),
        TextureDesc::d2(F::Astc6x6Unorm, 12, 6),
        TextureDesc::d2(F::Depth32Float, 4, 4),
    ];
    for (i, d) in descs.into_iter().enumerate() {
        let t = texture(d, 0x5eed + i as u64);
        let file = write_ktx2(&t)?;
        write("ktx2", &format!("gen_{i:02}_{}.ktx2", d.format), &file)?;
        if i % 2 == 0 {
            write(
                "ktx2",
                &format!("gen_{i:02}_{}_zstd.ktx2", d.format),
                &zstd_version(&file),
            )?;
        }
    }
    for (i, f) in [F::Rgba8Unorm, F::Rgba16Float, F::R8Unorm, F::Rg8Unorm]
        .into_iter()
        .enumerate()
    {
        let t = texture(TextureDesc::d2(f, 5, 4), 0x9a6 + i as u64);
        write(
            "image",
            &format!("gen_{i}_{f}.png"),
            &encode_png(&t, 0, 0, 0)?,
        )?;
    }
    let mut s = 0x1234_5678_9abc_def1u64;
    for target in ["sampler_twin", "raster"] {
        for i in 0..12 {
            let n = 64 << (i % 5);
            let bytes: Vec<u8> = (0..n)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    s as u8
                })
                .collect();
            write(target, &format!("random_{i:02}"), &bytes)?;
        }
    }
    Ok(())
}
