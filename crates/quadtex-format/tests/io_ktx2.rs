//! KTX2: write-then-read round trips of every kind and a spread of formats,
//! bit-exact with all levels; the layout rules of the written files
//! (KTX 2.0 specification, sections 3 "File Structure" and 3.8 "Mip Level
//! Array"); Zstandard supercompressed input; and the clear errors for what
//! KTX2 or quadtex cannot hold.

#![cfg(feature = "io")]

use quadtex_format::io::{
    load_bytes, load_bytes_limited, read_ktx2, vk_format, write_ktx2, ColorSpace,
};
use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat as F, TextureKind as K};

mod common;
use common::container_reason;

/// Deterministic bytes (xorshift64*), so failures reproduce.
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

fn texture(desc: TextureDesc, layout: Layout) -> Texture {
    let n = desc.total_bytes().unwrap() as usize;
    let seed = desc.width as u64 * 131 + desc.layers as u64 * 7 + desc.format as u64;
    Texture::from_linear_bytes(desc, layout, &noise(n, seed)).unwrap()
}

/// One description of every non-multisample kind, with full NPOT mip chains.
fn every_kind(f: F) -> Vec<TextureDesc> {
    let mut v = vec![
        TextureDesc::d2(f, 13, 7),
        TextureDesc::d3(f, 9, 5, 3),
        TextureDesc::cube(f, 6),
        TextureDesc::d2(f, 10, 6).with_layers(K::D2Array, 4),
        TextureDesc::cube(f, 5).with_layers(K::CubeArray, 12),
    ];
    if !f.is_compressed() {
        v.push(TextureDesc::d1(f, 37));
        v.push(TextureDesc::d1(f, 17).with_layers(K::D1Array, 3));
    }
    v
}

/// Uncompressed (array, packed, small float, alpha-only), depth/stencil,
/// BC, ETC2/EAC and ASTC, with odd block sizes and 12-byte texels.
const SPREAD: &[F] = &[
    F::Rgba8Unorm,
    F::Rgba8Srgb,
    F::Bgra8Srgb,
    F::R16Float,
    F::Rg16Snorm,
    F::Rgb32Float,
    F::Rgba32Uint,
    F::Rgb9e5Ufloat,
    F::A2rgb10Unorm,
    F::Rgba4Unorm,
    F::A8Unorm,
    F::Depth16Unorm,
    F::Depth24UnormX8,
    F::Depth24UnormS8Uint,
    F::Depth32Float,
    F::Depth32FloatS8Uint,
    F::Stencil8,
    F::Bc1RgbaSrgb,
    F::Bc4Unorm,
    F::Bc5Snorm,
    F::Bc6hSfloat,
    F::Bc7Unorm,
    F::Etc2Rgb8A1Unorm,
    F::Etc2Rgba8Srgb,
    F::EacRg11Snorm,
    F::Astc4x4Srgb,
    F::Astc6x5Unorm,
    F::Astc12x10Unorm,
];

fn assert_round_trip(t: &Texture) {
    let file = write_ktx2(t).unwrap_or_else(|e| panic!("{:?}: {e}", t.desc()));
    let back = read_ktx2(&file).unwrap_or_else(|e| panic!("{:?}: {e}", t.desc()));
    assert_eq!(back.desc(), t.desc());
    assert!(
        back.to_linear_bytes() == t.to_linear_bytes(),
        "texels differ after the round trip: {:?}",
        t.desc()
    );
}

#[test]
fn every_kind_round_trips_bit_exactly_with_all_levels() {
    for &f in SPREAD {
        for desc in every_kind(f) {
            assert!(desc.levels > 1 || desc.max_levels() == 1);
            assert_round_trip(&texture(desc, Layout::Linear));
        }
    }
}

#[test]
fn every_format_round_trips_as_2d_with_mips() {
    for &f in F::ALL {
        assert_round_trip(&texture(TextureDesc::d2(f, 21, 9), Layout::Linear));
    }
}

#[test]
fn tiled_textures_write_the_same_file_as_linear_ones() {
    let d = TextureDesc::cube(F::Bc7Srgb, 12).with_layers(K::CubeArray, 12);
    let lin = texture(d, Layout::Linear);
    let tiled = lin.to_layout(Layout::Tiled);
    assert_eq!(write_ktx2(&tiled).unwrap(), write_ktx2(&lin).unwrap());
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// (byteOffset, byteLength, uncompressedByteLength) of level `l`.
fn level_entry(file: &[u8], l: usize) -> (u64, u64, u64) {
    let at = 80 + 24 * l;
    (
        u64_at(file, at),
        u64_at(file, at + 8),
        u64_at(file, at + 16),
    )
}

#[test]
fn header_fields_follow_the_kind() {
    // (desc, pixelHeight, pixelDepth, layerCount, faceCount)
    let f = F::Rgba16Float;
    let cases = [
        (TextureDesc::d1(f, 8), 0, 0, 0, 1),
        (TextureDesc::d1(f, 8).with_layers(K::D1Array, 3), 0, 0, 3, 1),
        (TextureDesc::d2(f, 8, 4), 4, 0, 0, 1),
        (
            TextureDesc::d2(f, 8, 4).with_layers(K::D2Array, 1),
            4,
            0,
            1,
            1,
        ),
        (TextureDesc::d3(f, 8, 4, 2), 4, 2, 0, 1),
        (TextureDesc::cube(f, 4), 4, 0, 0, 6),
        (
            TextureDesc::cube(f, 4).with_layers(K::CubeArray, 18),
            4,
            0,
            3,
            6,
        ),
    ];
    for (d, height, depth, layers, faces) in cases {
        let file = write_ktx2(&texture(d, Layout::Linear)).unwrap();
        assert_eq!(&file[..12], b"\xABKTX 20\xBB\r\n\x1A\n");
        assert_eq!(u32_at(&file, 12), 97, "vkFormat R16G16B16A16_SFLOAT");
        assert_eq!(u32_at(&file, 16), 2, "typeSize of a 16-bit component");
        assert_eq!(u32_at(&file, 20), d.width);
        assert_eq!(u32_at(&file, 24), height, "{d:?}");
        assert_eq!(u32_at(&file, 28), depth, "{d:?}");
        assert_eq!(u32_at(&file, 32), layers, "{d:?}");
        assert_eq!(u32_at(&file, 36), faces, "{d:?}");
        assert_eq!(u32_at(&file, 40), d.levels);
        assert_eq!(u32_at(&file, 44), 0, "no supercompression");
        // Reading gives back the very same kind (a 1-layer 2D array stays an
        // array: layerCount 1 is not layerCount 0).
        assert_eq!(read_ktx2(&file).unwrap().desc(), &d);
    }
}

#[test]
fn sections_and_levels_are_placed_and_aligned_as_the_spec_requires() {
    for f in [
        F::Rgb32Float,
        F::Depth32FloatS8Uint,
        F::R8Unorm,
        F::Astc10x5Srgb,
    ] {
        let d = TextureDesc::d2(f, 40, 33).with_layers(K::D2Array, 2);
        let file = write_ktx2(&texture(d, Layout::Linear)).unwrap();
        let levels = d.levels as usize;
        // The DFD follows the level index; the KVD follows the DFD; no SGD.
        let (dfd_off, dfd_len) = (u32_at(&file, 48) as usize, u32_at(&file, 52) as usize);
        let (kvd_off, kvd_len) = (u32_at(&file, 56) as usize, u32_at(&file, 60) as usize);
        assert_eq!(dfd_off, 80 + 24 * levels);
        assert_eq!(u32_at(&file, dfd_off) as usize, dfd_len, "dfdTotalSize");
        assert_eq!(kvd_off, dfd_off + dfd_len);
        assert_eq!((u64_at(&file, 64), u64_at(&file, 72)), (0, 0));
        let kvd = &file[kvd_off..kvd_off + kvd_len];
        assert!(
            kvd[4..].starts_with(b"KTXwriter\0quadtex-format "),
            "{kvd:?}"
        );
        // Level data: smallest level first (3.8), each at a multiple of
        // lcm(texel block size, 4), uncompressed length = length.
        let block = f.block_bytes() as u64;
        let align = block * 4 / gcd(block, 4);
        let mut prev_end = (kvd_off + kvd_len) as u64;
        for l in (0..levels).rev() {
            let (off, len, ulen) = level_entry(&file, l);
            assert_eq!(off % align, 0, "{f} level {l} at {off}");
            assert!(off >= prev_end && off - prev_end < align, "{f} level {l}");
            assert_eq!(len, d.level_bytes(l as u32).unwrap() * 2);
            assert_eq!(ulen, len);
            prev_end = off + len;
        }
        assert_eq!(prev_end as usize, file.len());
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn d24s8_is_stored_stencil_low_as_ktx_and_dfdutils_define_it() {
    // depth 0x123456, stencil 0xAB: ours is 0xAB123456, KTX2's 0x123456AB.
    let d = TextureDesc::d2(F::Depth24UnormS8Uint, 1, 1);
    let t = Texture::from_linear_bytes(d, Layout::Linear, &0xAB12_3456u32.to_le_bytes()).unwrap();
    let file = write_ktx2(&t).unwrap();
    let (off, len, _) = level_entry(&file, 0);
    assert_eq!(
        &file[off as usize..(off + len) as usize],
        &0x1234_56ABu32.to_le_bytes()
    );
    assert_eq!(
        read_ktx2(&file).unwrap().to_linear_bytes(),
        0xAB12_3456u32.to_le_bytes()
    );
}

#[test]
fn the_ktx2_crate_reads_our_files_with_the_format_and_dfd_we_meant() {
    for &f in SPREAD {
        let d = TextureDesc::d2(f, 16, 8);
        let file = write_ktx2(&texture(d, Layout::Linear)).unwrap();
        let r = ktx2::Reader::new(&file[..]).unwrap();
        let h = r.header();
        assert_eq!(h.format.map(|v| v.value()), Some(vk_format(f)));
        let dfd = r.basic_dfd().expect("a basic DFD block");
        assert_eq!(dfd.bytes_planes[0] as u32, f.block_bytes(), "{f}");
        let tf = dfd.transfer_function.unwrap();
        assert_eq!(tf == ktx2::TransferFunction::SRGB, f.is_srgb(), "{f}");
        assert_eq!(
            r.writer().map(|w| w.starts_with("quadtex-format")),
            Some(true)
        );
        assert_eq!(r.levels().len(), d.levels as usize);
    }
}

/// Rewrites an uncompressed KTX2 file of ours with every level
/// Zstandard-compressed (`ruzstd`'s encoder), as KTX2 scheme 2.
fn zstd_version(file: &[u8]) -> Vec<u8> {
    let levels = u32_at(file, 40).max(1) as usize;
    let index_end = 80 + 24 * levels;
    let first_level = (0..levels)
        .map(|l| level_entry(file, l).0 as usize)
        .min()
        .unwrap();
    // Header, index, DFD and KVD stay where they are.
    let mut out = file[..first_level].to_vec();
    out[44..48].copy_from_slice(&2u32.to_le_bytes());
    for l in (0..levels).rev() {
        let (off, len, _) = level_entry(file, l);
        let raw = &file[off as usize..(off + len) as usize];
        let z = ruzstd::encoding::compress_to_vec(raw, ruzstd::encoding::CompressionLevel::Fastest);
        let at = 80 + 24 * l;
        let offset = out.len() as u64;
        out[at..at + 8].copy_from_slice(&offset.to_le_bytes());
        out[at + 8..at + 16].copy_from_slice(&(z.len() as u64).to_le_bytes());
        out[at + 16..at + 24].copy_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&z);
    }
    assert!(out.len() > index_end);
    out
}

#[test]
fn zstd_supercompressed_levels_read_back_exactly() {
    for d in [
        TextureDesc::d2(F::Rgba8Unorm, 64, 32).with_layers(K::D2Array, 3),
        TextureDesc::cube(F::Bc7Srgb, 16),
        TextureDesc::d3(F::Depth24UnormS8Uint, 8, 8, 4),
    ] {
        // Half noise, half zeros: compressible, and not trivially so.
        let n = d.total_bytes().unwrap() as usize;
        let mut bytes = noise(n, 5);
        bytes[n / 2..].fill(0);
        let t = Texture::from_linear_bytes(d, Layout::Linear, &bytes).unwrap();
        let z = zstd_version(&write_ktx2(&t).unwrap());
        assert_eq!(u32_at(&z, 44), 2);
        let back = load_bytes(&z).unwrap();
        assert_eq!(back.desc(), &d);
        assert!(back.to_linear_bytes() == bytes, "{d:?}");
    }
}

fn container_error(bytes: &[u8]) -> String {
    container_reason("KTX2", read_ktx2(bytes))
}

fn small_file() -> Vec<u8> {
    write_ktx2(&texture(
        TextureDesc::d2(F::Rgba8Unorm, 8, 8),
        Layout::Linear,
    ))
    .unwrap()
}

#[test]
fn basis_universal_files_are_refused_by_name() {
    // BasisLZ supercompression.
    let mut f = small_file();
    f[44..48].copy_from_slice(&1u32.to_le_bytes());
    assert!(container_error(&f).contains("Basis Universal"));
    // UASTC: vkFormat UNDEFINED with a DFD of colour model UASTC (166).
    let mut f = small_file();
    f[12..16].copy_from_slice(&0u32.to_le_bytes());
    let dfd = u32_at(&f, 48) as usize;
    f[dfd + 4 + 8] = 166;
    assert!(container_error(&f).contains("Basis Universal"));
    // Plain UNDEFINED.
    let mut f = small_file();
    f[12..16].copy_from_slice(&0u32.to_le_bytes());
    assert!(container_error(&f).contains("UNDEFINED"));
}

#[test]
fn zlib_and_formats_quadtex_lacks_are_clear_errors() {
    let mut f = small_file();
    f[44..48].copy_from_slice(&3u32.to_le_bytes());
    assert!(container_error(&f).contains("ZLIB"));
    let mut f = small_file();
    f[12..16].copy_from_slice(&23u32.to_le_bytes()); // R8G8B8_UNORM
    assert!(container_error(&f).contains("R8G8B8_UNORM"));
}

#[test]
fn multisample_textures_cannot_be_written() {
    let t = Texture::new(TextureDesc::d2_ms(F::Rgba8Unorm, 4, 4, 4), Layout::Linear).unwrap();
    let reason = container_reason("KTX2", write_ktx2(&t));
    assert!(reason.contains("multisample"), "{reason}");
}

#[test]
fn a_header_claiming_a_huge_texture_is_refused_before_allocating() {
    // 16384 x 16384 RGBA8 is a valid 1 GiB description; the file holds 256
    // bytes of level data. The level size check refuses it (a giant
    // allocation would show as a slow or aborted test).
    let mut f = small_file();
    f[20..24].copy_from_slice(&16384u32.to_le_bytes());
    f[24..28].copy_from_slice(&16384u32.to_le_bytes());
    let r = container_error(&f);
    assert!(r.contains("implies 1073741824"), "{r}");
    // 65536 x 65536 RGBA32F (64 GiB) exceeds the 8 GiB cap of validate().
    let mut f = small_file();
    f[12..16].copy_from_slice(&109u32.to_le_bytes());
    f[20..24].copy_from_slice(&65536u32.to_le_bytes());
    f[24..28].copy_from_slice(&65536u32.to_le_bytes());
    assert!(container_error(&f).contains("no valid texture"));
    // 4 billion layers.
    let mut f = small_file();
    f[32..36].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(container_error(&f).contains("no valid texture"));
}

#[test]
fn level_ranges_past_the_end_of_the_file_are_errors() {
    let f = small_file();
    let len = f.len() as u64;
    for (field, value) in [(0, len), (0, u64::MAX - 8), (8, len), (8, u64::MAX)] {
        let mut g = f.clone();
        g[80 + field..80 + field + 8].copy_from_slice(&value.to_le_bytes());
        container_error(&g);
    }
    // A level index longer than the file.
    let mut g = f.clone();
    g[40..44].copy_from_slice(&u32::MAX.to_le_bytes());
    container_error(&g);
}

#[test]
fn zstd_levels_that_lie_about_their_size_are_errors() {
    let t = texture(
        TextureDesc::d2(F::Rgba8Unorm, 16, 16).with_levels(1),
        Layout::Linear,
    );
    let z = zstd_version(&write_ktx2(&t).unwrap());
    // Claimed uncompressed size 1 TiB: refused by the size check.
    let mut g = z.clone();
    g[96..104].copy_from_slice(&(1u64 << 40).to_le_bytes());
    assert!(container_error(&g).contains("holds"));
    // Header says 32x16 (the claim matches it), the frame decodes to 16x16.
    let mut g = z.clone();
    g[20..24].copy_from_slice(&32u32.to_le_bytes());
    g[96..104].copy_from_slice(&2048u64.to_le_bytes());
    let r = container_error(&g);
    assert!(r.contains("decompresses to 1024"), "{r}");
    // Header says 8x16 (claim 512), the frame holds 1024: stopped at 513.
    let mut g = z;
    g[20..24].copy_from_slice(&8u32.to_le_bytes());
    g[96..104].copy_from_slice(&512u64.to_le_bytes());
    let r = container_error(&g);
    assert!(r.contains("decompresses to 513+"), "{r}");
}

/// A Zstandard frame of `n` copies of `byte` made of RLE blocks (RFC 8878
/// section 3.1.1.2: a 3-byte header and one byte for up to 128 KiB), so a
/// few bytes stand for a gigabyte. Window 1 MiB, no content size.
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
/// level is the Zstandard `frame`, claiming `claimed` uncompressed bytes.
fn zstd_rgba8_file(width: u32, height: u32, claimed: u64, frame: &[u8]) -> Vec<u8> {
    let d = TextureDesc::d2(F::Rgba8Unorm, 1, 1);
    let f = write_ktx2(&Texture::new(d, Layout::Linear).unwrap()).unwrap();
    let mut out = f[..level_entry(&f, 0).0 as usize].to_vec();
    out[20..24].copy_from_slice(&width.to_le_bytes());
    out[24..28].copy_from_slice(&height.to_le_bytes());
    out[44..48].copy_from_slice(&2u32.to_le_bytes());
    let offset = out.len() as u64;
    out[80..88].copy_from_slice(&offset.to_le_bytes());
    out[88..96].copy_from_slice(&(frame.len() as u64).to_le_bytes());
    out[96..104].copy_from_slice(&claimed.to_le_bytes());
    out.extend_from_slice(frame);
    out
}

#[test]
fn a_zstd_level_is_checked_against_the_size_its_header_implies() {
    // The frame helper is sound: 300 KiB of 0x5A in three blocks reads back.
    let frame = rle_frame(320 * 240 * 4, 0x5A);
    assert_eq!(frame.len(), 6 + 3 * 4);
    let t = read_ktx2(&zstd_rgba8_file(320, 240, 320 * 240 * 4, &frame)).unwrap();
    assert_eq!(
        t.desc(),
        &TextureDesc::d2(F::Rgba8Unorm, 320, 240).with_levels(1)
    );
    assert!(t.bytes().iter().all(|&b| b == 0x5A));

    // A 33 KB file: 1 GiB of RLE blocks in a level whose header implies
    // 64 x 64 RGBA8 (16 KiB). Decoding stops one byte past the level.
    let bomb = rle_frame(1 << 30, 0);
    assert!(bomb.len() < 33_000, "{}", bomb.len());
    let start = std::time::Instant::now();
    let r = container_error(&zstd_rgba8_file(64, 64, 16384, &bomb));
    assert_eq!(r, "level 0 decompresses to 16385+ bytes, expected 16384");
    // Decoding the gigabyte takes seconds; stopping takes microseconds.
    assert!(start.elapsed().as_millis() < 500, "{:?}", start.elapsed());

    // The same frame claimed as 1 GiB for the 64 x 64 level: refused
    // before anything is decoded.
    let r = container_error(&zstd_rgba8_file(64, 64, 1 << 30, &bomb));
    assert_eq!(
        r,
        "level 0 holds 1073741824 bytes, the header implies 16384"
    );

    // A header of 16384 x 16384 (1 GiB, the claim matching it) and a frame
    // of 1 KiB: an error at the frame's end, the gigabyte never written.
    let start = std::time::Instant::now();
    let r = container_error(&zstd_rgba8_file(16384, 16384, 1 << 30, &rle_frame(1024, 0)));
    assert_eq!(r, "level 0 decompresses to 1024 bytes, expected 1073741824");
    assert!(start.elapsed().as_millis() < 500, "{:?}", start.elapsed());
}

#[test]
fn a_cap_on_the_texture_size_refuses_a_zstd_bomb_before_decoding() {
    // 16384 x 16384 RGBA8 from a 33 KB file: valid (1 GiB is under the
    // 8 GiB MAX_BYTES), so the caller's cap is what keeps it out.
    let file = zstd_rgba8_file(16384, 16384, 1 << 30, &rle_frame(1 << 30, 0));
    let start = std::time::Instant::now();
    assert_eq!(
        container_reason(
            "KTX2",
            load_bytes_limited(&file, ColorSpace::Srgb, 256 << 20)
        ),
        "the texture takes 1073741824 bytes, more than the limit of 268435456"
    );
    assert!(start.elapsed().as_millis() < 100, "{:?}", start.elapsed());
    // At the cap exactly, a texture loads.
    let small = zstd_rgba8_file(64, 64, 16384, &rle_frame(16384, 7));
    let t = load_bytes_limited(&small, ColorSpace::Srgb, 16384).unwrap();
    assert_eq!(t.bytes(), &[7u8; 16384][..]);
    assert!(load_bytes_limited(&small, ColorSpace::Srgb, 16383).is_err());
}

#[test]
fn dfd_total_size_must_equal_the_descriptor_length() {
    let f = small_file();
    let dfd = u32_at(&f, 48) as usize;
    let length = u32_at(&f, 52);
    // dfdTotalSize, its own first word, agrees with the index; RGBA8's
    // Basic block is 24 + 4 x 16 bytes.
    assert_eq!((u32_at(&f, dfd), length), (92, 92));
    // dfdTotalSize alone off by 4 either way: accepted before.
    for total in [88u32, 96] {
        let mut g = f.clone();
        g[dfd..dfd + 4].copy_from_slice(&total.to_le_bytes());
        assert_eq!(
            container_error(&g),
            format!("dfdTotalSize {total} disagrees with dfdByteLength 92")
        );
    }
    // Both say 96: the block fills 88 of the 92 bytes after the size word.
    let mut g = f.clone();
    g[dfd..dfd + 4].copy_from_slice(&96u32.to_le_bytes());
    g[52..56].copy_from_slice(&96u32.to_le_bytes());
    assert_eq!(
        container_error(&g),
        "DFD block at byte 92 is cut off: dfdTotalSize 96 leaves 4 bytes for its 8-byte header"
    );
    // The block claims 4 bytes more than dfdTotalSize leaves it.
    let mut g = f.clone();
    g[dfd + 4 + 6..dfd + 4 + 8].copy_from_slice(&92u16.to_le_bytes());
    assert_eq!(
        container_error(&g),
        "DFD block at byte 4 has descriptorBlockSize 92, but dfdTotalSize 92 leaves 88 bytes for it"
    );
}

/// Writes every format in every kind it allows to `$QUADTEX_KTX2_DUMP`
/// (default: `ktx2-dump` in the system temp folder) for the independent
/// check in `tests/fixtures/ktx2/check_with_ktx_parse.mjs`. Ignored: run it
/// with `cargo test -p quadtex-format --test io_ktx2 -- --ignored`.
#[test]
#[ignore = "writes files for an external tool"]
fn dump_files_for_the_independent_check() {
    let dir = std::env::var_os("QUADTEX_KTX2_DUMP")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("ktx2-dump"));
    std::fs::create_dir_all(&dir).unwrap();
    for &f in F::ALL {
        for d in every_kind(f) {
            let name = format!("{}_{}.ktx2", f.vulkan_name(), d.kind.name());
            quadtex_format::io::save_ktx2(&texture(d, Layout::Linear), dir.join(name)).unwrap();
        }
    }
}

/// A Zstandard frame of `n` zero bytes made of RLE blocks, 4 bytes per
/// 128 KiB: 2 GiB in 64 KiB, the decompression bomb a fuzzer found (as a
/// 33 KB file).
fn zstd_zeros(n: u64) -> Vec<u8> {
    // Magic, then a frame header with no content size and a 128 KiB window.
    let mut z = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, (17 - 10) << 3];
    let mut left = n;
    while left > 0 {
        let size = left.min(1 << 17);
        left -= size;
        // Block header: last flag, type 1 (RLE), size; then the byte.
        let h = u32::from(left == 0) | (1 << 1) | ((size as u32) << 3);
        z.extend_from_slice(&h.to_le_bytes()[..3]);
        z.push(0);
    }
    z
}

/// An 8x8 RGBA8 file of one level.
fn one_level_file() -> Vec<u8> {
    write_ktx2(&texture(
        TextureDesc::d2(F::Rgba8Unorm, 8, 8).with_levels(1),
        Layout::Linear,
    ))
    .unwrap()
}

/// `file` (one level) with that level replaced by `level`, stored as a
/// Zstandard-supercompressed level of `uncompressed` bytes.
fn with_zstd_level(file: &[u8], level: &[u8], uncompressed: u64) -> Vec<u8> {
    let (offset, _, _) = level_entry(file, 0);
    let mut out = file[..offset as usize].to_vec();
    out[44..48].copy_from_slice(&2u32.to_le_bytes());
    out[88..96].copy_from_slice(&(level.len() as u64).to_le_bytes());
    out[96..104].copy_from_slice(&uncompressed.to_le_bytes());
    out.extend_from_slice(level);
    out
}

#[test]
fn zstd_bombs_are_refused_before_decompressing() {
    // The RLE frame is good Zstandard: 8x8 RGBA8 of zeros loads.
    let f = with_zstd_level(&one_level_file(), &zstd_zeros(256), 256);
    let t = read_ktx2(&f).unwrap();
    assert!(t.to_linear_bytes().iter().all(|&b| b == 0));
    // 32768 x 16384 RGBA8: 2 GiB of zeros in 64 KiB. Refused by the
    // Zstandard limit (io::MAX_ZSTD_BYTES) before a byte is decompressed (it used to decode all
    // of it: a 2 GiB allocation).
    let n = 32768u64 * 16384 * 4;
    let mut f = with_zstd_level(&one_level_file(), &zstd_zeros(n), n);
    f[20..24].copy_from_slice(&32768u32.to_le_bytes());
    f[24..28].copy_from_slice(&16384u32.to_le_bytes());
    assert!(f.len() < 70_000);
    let r = container_error(&f);
    assert!(
        r.contains("2147483648 bytes, more than the limit of 1073741824"),
        "{r}"
    );
    // A stream that decodes past what the level should hold is an error
    // after at most one byte more than the level.
    let f = with_zstd_level(&one_level_file(), &zstd_zeros(1 << 20), 256);
    let r = container_error(&f);
    assert!(
        r.contains("decompresses to 257+ bytes, expected 256"),
        "{r}"
    );
}

#[test]
fn a_dfd_total_size_that_disagrees_with_its_blocks_is_invalid() {
    let f = small_file();
    let (offset, length) = (u32_at(&f, 48) as usize, u32_at(&f, 52) as usize);
    assert_eq!(u32_at(&f, offset) as usize, length, "our own files agree");
    // dfdTotalSize off by 4 from dfdByteLength.
    let mut g = f.clone();
    g[offset..offset + 4].copy_from_slice(&(length as u32 + 4).to_le_bytes());
    let r = container_error(&g);
    assert!(
        r.contains("dfdTotalSize") && r.contains("dfdByteLength"),
        "{r}"
    );
    // Both lengths agree but the block inside claims more than they hold.
    let mut g = f.clone();
    let block_size = u16::from_le_bytes([g[offset + 4 + 6], g[offset + 4 + 7]]);
    g[offset + 4 + 6..offset + 4 + 8].copy_from_slice(&(block_size + 8).to_le_bytes());
    let r = container_error(&g);
    assert!(r.contains("DFD block"), "{r}");
}
