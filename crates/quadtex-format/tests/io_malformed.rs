//! Malformed input never panics: every fixture (the tool-made DDS files,
//! their PNGs, KTX2 files we write, plain and zstd-supercompressed) is fed,
//! truncated at many lengths and with single bytes changed at many
//! positions, through every loader. Errors are the expected outcome; a
//! change may also still load, in which case the texture is exported to
//! PNG and KTX2 too, so that whatever a loader accepts is usable.

#![cfg(feature = "io")]

use std::panic::{catch_unwind, AssertUnwindSafe};

use quadtex_format::io::{
    encode_png, load_bytes, load_image, read_dds, read_ktx2, write_ktx2, ColorSpace,
};
use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat as F, TextureKind as K};

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dds");
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            // Every DDS file; PNG in its four colour types (the other
            // references add nothing new for a PNG decoder).
            name.ends_with(".dds")
                || [
                    "src_rgba.png",
                    "src_rgb.png",
                    "src_grey.png",
                    "pil_la.ref.png",
                ]
                .contains(&&*name)
        })
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    for (name, desc) in [
        (
            "cube_array_bc7",
            TextureDesc::cube(F::Bc7Srgb, 8).with_layers(K::CubeArray, 12),
        ),
        ("3d_rgba16f", TextureDesc::d3(F::Rgba16Float, 4, 4, 4)),
        (
            "1d_array_r8",
            TextureDesc::d1(F::R8Uint, 16).with_layers(K::D1Array, 2),
        ),
        (
            "2d_array_d24s8",
            TextureDesc::d2(F::Depth24UnormS8Uint, 4, 4).with_layers(K::D2Array, 2),
        ),
    ] {
        let n = desc.total_bytes().unwrap() as usize;
        let bytes: Vec<u8> = (0..n).map(|i| (i * 13 % 256) as u8).collect();
        let t = Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap();
        let file = write_ktx2(&t).unwrap();
        v.push((format!("{name}.zstd.ktx2"), zstd_version(&file)));
        v.push((format!("{name}.ktx2"), file));
    }
    v
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// The same KTX2 file with every level Zstandard-compressed (scheme 2).
fn zstd_version(file: &[u8]) -> Vec<u8> {
    let levels = u32::from_le_bytes(file[40..44].try_into().unwrap()).max(1) as usize;
    let first = (0..levels)
        .map(|l| u64_at(file, 80 + 24 * l) as usize)
        .min()
        .unwrap();
    let mut out = file[..first].to_vec();
    out[44..48].copy_from_slice(&2u32.to_le_bytes());
    for l in (0..levels).rev() {
        let at = 80 + 24 * l;
        let (off, len) = (u64_at(file, at) as usize, u64_at(file, at + 8));
        let z = ruzstd::encoding::compress_to_vec(
            &file[off..off + len as usize],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        let offset = out.len() as u64;
        out[at..at + 8].copy_from_slice(&offset.to_le_bytes());
        out[at + 8..at + 16].copy_from_slice(&(z.len() as u64).to_le_bytes());
        out[at + 16..at + 24].copy_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&z);
    }
    out
}

/// Every loader on `bytes`; what the dispatching loader accepts is
/// exported too (the last subresource as PNG, all of it as KTX2 read back).
fn exercise(bytes: &[u8]) {
    let _ = read_ktx2(bytes);
    let _ = read_dds(bytes);
    let _ = load_image(bytes, ColorSpace::Linear);
    if let Ok(t) = load_bytes(bytes) {
        let d = t.desc();
        let _ = encode_png(&t, d.levels - 1, d.layers - 1, 0);
        if let Ok(k) = write_ktx2(&t) {
            let back = read_ktx2(&k).expect("a file we wrote reads back");
            assert!(back.to_linear_bytes() == t.to_linear_bytes());
        }
    }
}

/// Positions to damage: every byte of the first 256 (headers, indices,
/// descriptors), then about 300 spread over the rest.
fn positions(len: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..len.min(256)).collect();
    if len > 256 {
        let step = ((len - 256) / 300).max(1);
        v.extend((256..len).step_by(step));
        v.push(len - 1);
    }
    v
}

#[test]
fn truncated_and_damaged_files_never_panic() {
    let mut failures = Vec::new();
    let mut runs = 0usize;
    for (name, file) in fixtures() {
        // Sanity: the undamaged file loads.
        assert!(load_bytes(&file).is_ok(), "{name} does not load undamaged");
        let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
        for cut in positions(file.len()) {
            cases.push((format!("cut at {cut}"), file[..cut].to_vec()));
        }
        for at in positions(file.len()) {
            // 0xFF turns small fields huge, 0x80 flips a sign or top bit,
            // 0x01 nudges a count or a flag.
            for x in [0xFFu8, 0x80, 0x01] {
                let mut g = file.clone();
                g[at] ^= x;
                cases.push((format!("byte {at} ^ {x:#04x}"), g));
            }
        }
        for (what, bytes) in cases {
            runs += 1;
            if catch_unwind(AssertUnwindSafe(|| exercise(&bytes))).is_err() {
                failures.push(format!("{name}: {what}"));
            }
        }
    }
    assert!(runs > 10_000, "only {runs} cases");
    assert!(
        failures.is_empty(),
        "{} panics:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
