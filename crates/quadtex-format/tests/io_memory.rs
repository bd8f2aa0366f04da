//! What loading costs in memory, measured as the process's peak resident
//! set (`VmHWM` in `/proc/self/status`, Linux only). A peak is
//! process-wide, so this file holds a single test and nothing else runs
//! beside it.

#![cfg(feature = "io")]

use quadtex_format::io::{read_ktx2, write_ktx2};
use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat as F};

/// The peak resident set so far, in bytes.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// A Zstandard frame of `n` copies of `byte` in RLE blocks of 128 KiB
/// (RFC 8878 section 3.1.1.2), window 1 MiB.
fn rle_frame(n: usize, byte: u8) -> Vec<u8> {
    const BLOCK: usize = 128 << 10;
    let mut f = vec![0x28, 0xB5, 0x2F, 0xFD, 0x00, 10 << 3];
    let mut left = n;
    while left > 0 {
        let size = left.min(BLOCK);
        left -= size;
        let header = (size as u32) << 3 | 1 << 1 | u32::from(left == 0);
        f.extend_from_slice(&header.to_le_bytes()[..3]);
        f.push(byte);
    }
    f
}

/// A one-level 2D `R8G8B8A8_UNORM` KTX2 file of `width x height` whose
/// level is the Zstandard `frame`.
fn zstd_rgba8_file(width: u32, height: u32, frame: &[u8]) -> Vec<u8> {
    let d = TextureDesc::d2(F::Rgba8Unorm, 1, 1);
    let f = write_ktx2(&Texture::new(d, Layout::Linear).unwrap()).unwrap();
    let level = u64::from_le_bytes(f[80..88].try_into().unwrap()) as usize;
    let mut out = f[..level].to_vec();
    out[20..24].copy_from_slice(&width.to_le_bytes());
    out[24..28].copy_from_slice(&height.to_le_bytes());
    out[44..48].copy_from_slice(&2u32.to_le_bytes());
    let offset = out.len() as u64;
    let size = width as u64 * height as u64 * 4;
    out[80..88].copy_from_slice(&offset.to_le_bytes());
    out[88..96].copy_from_slice(&(frame.len() as u64).to_le_bytes());
    out[96..104].copy_from_slice(&size.to_le_bytes());
    out.extend_from_slice(frame);
    out
}

const MIB: u64 = 1 << 20;

#[test]
fn zstd_levels_cost_what_they_deliver_and_the_texture_once() {
    let Some(start) = peak_rss() else {
        eprintln!("no /proc/self/status: nothing measured");
        return;
    };

    // 1 GiB claimed (16384 x 16384), 1 KiB delivered: the error comes
    // without the gigabyte being written.
    let file = zstd_rgba8_file(16384, 16384, &rle_frame(1024, 0));
    let e = read_ktx2(&file).unwrap_err().to_string();
    assert_eq!(
        e,
        "KTX2: level 0 decompresses to 1024 bytes, expected 1073741824"
    );
    let after_short = peak_rss().unwrap();
    assert!(
        after_short - start < 16 * MIB,
        "a 1 KiB level raised the peak by {} MiB",
        (after_short - start) / MIB
    );

    // 64 MiB (4096 x 4096) from a 2 KiB file: decompressed straight into
    // the texture. Before, it went to a vector first and was then copied
    // into a second 64 MiB, a peak of 128 MiB and more.
    let file = zstd_rgba8_file(4096, 4096, &rle_frame(64 << 20, 0x5A));
    assert!(file.len() < 2300, "{}", file.len());
    let t = read_ktx2(&file).unwrap();
    let after_load = peak_rss().unwrap();
    assert_eq!(t.bytes().len(), 64 << 20);
    assert!(t.bytes().iter().all(|&b| b == 0x5A));
    let grew = after_load - after_short.max(start);
    assert!(
        grew < 64 * MIB + 16 * MIB,
        "loading a 64 MiB texture raised the peak by {} MiB",
        grew / MIB
    );
}
