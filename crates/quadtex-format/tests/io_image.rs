//! Image files through `image` (PNG 8/16-bit, OpenEXR, Radiance HDR, TGA)
//! land in the documented formats with their values intact; PNG export
//! gives back what was loaded; `load_file` dispatches by magic bytes and,
//! for TGA, which has none, by extension.

#![cfg(feature = "io")]

use std::io::Cursor;
use std::path::PathBuf;

use image::{DynamicImage, ImageFormat};
use quadtex_format::io::{
    encode_png, load_bytes, load_bytes_limited, load_bytes_with, load_file, save_ktx2, save_png,
    ColorSpace,
};
use quadtex_format::{Aspect, Texel, TexelAddr, TextureFormat as F, TextureKind as K};

mod common;
use common::container_reason;

fn encode(img: &DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, format).unwrap();
    out.into_inner()
}

/// A fresh folder under the system temp dir for this test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quadtex-io-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn rgba8(w: u32, h: u32) -> DynamicImage {
    let px = (0..w * h * 4).map(|i| (i * 37 % 256) as u8).collect();
    DynamicImage::ImageRgba8(image::RgbaImage::from_raw(w, h, px).unwrap())
}

#[test]
fn png_loads_as_one_level_2d_srgb_by_default_and_unorm_when_linear() {
    let png = encode(&rgba8(5, 3), ImageFormat::Png);
    let t = load_bytes(&png).unwrap();
    let d = t.desc();
    assert_eq!(
        (d.kind, d.format, d.width, d.height, d.levels),
        (K::D2, F::Rgba8Srgb, 5, 3, 1)
    );
    let lin = load_bytes_with(&png, ColorSpace::Linear).unwrap();
    assert_eq!(lin.format(), F::Rgba8Unorm);
    assert_eq!(lin.to_linear_bytes(), t.to_linear_bytes());
    assert_eq!(t.to_linear_bytes(), rgba8(5, 3).into_bytes());
}

#[test]
fn a_cap_on_the_texture_size_counts_the_texture_not_the_file() {
    // 3 x 2 RGB8: 18 bytes of pixels, 24 as RGBA8.
    let px: Vec<u8> = (0..18).collect();
    let img = DynamicImage::ImageRgb8(image::RgbImage::from_raw(3, 2, px).unwrap());
    let png = encode(&img, ImageFormat::Png);
    assert_eq!(
        container_reason("image", load_bytes_limited(&png, ColorSpace::Srgb, 23)),
        "the texture takes 24 bytes, more than the limit of 23"
    );
    let t = load_bytes_limited(&png, ColorSpace::Srgb, 24).unwrap();
    assert_eq!(
        t.to_linear_bytes(),
        [
            0, 1, 2, 255, 3, 4, 5, 255, 6, 7, 8, 255, 9, 10, 11, 255, 12, 13, 14, 255, 15, 16, 17,
            255
        ]
    );
}

#[test]
fn an_image_header_too_large_for_a_texture_is_refused_before_decoding() {
    // A PNG claiming 65536 x 65536 RGBA8 (16 GiB, over MAX_BYTES): the IHDR
    // of a real 1x1 file rewritten, so only the header is believable.
    let mut png = encode(&rgba8(1, 1), ImageFormat::Png);
    png[16..20].copy_from_slice(&65536u32.to_be_bytes());
    png[20..24].copy_from_slice(&65536u32.to_be_bytes());
    let crc = crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    let reason = container_reason("image", load_bytes(&png));
    assert!(
        reason.starts_with("the image is no valid texture: ") && reason.contains("larger than"),
        "{reason}"
    );
}

#[test]
fn sixteen_bit_grey_png_keeps_its_codes_as_r16_unorm() {
    let px: Vec<u16> = vec![0, 1, 0x8000, 0xffff];
    let img = image::ImageBuffer::<image::Luma<u16>, _>::from_raw(2, 2, px).unwrap();
    let t = load_bytes(&encode(&img.into(), ImageFormat::Png)).unwrap();
    assert_eq!(t.format(), F::R16Unorm);
    assert_eq!(t.to_linear_bytes(), [0, 0, 1, 0, 0, 0x80, 0xff, 0xff]);
}

#[test]
fn openexr_loads_as_rgba32_float_bit_exactly() {
    let px = vec![0.5f32, -2.0, 1.0e6, 1.0, 3.25, 0.0, 1.0e-3, 0.25];
    let img = image::Rgba32FImage::from_raw(2, 1, px.clone()).unwrap();
    let t = load_bytes(&encode(&img.into(), ImageFormat::OpenExr)).unwrap();
    assert_eq!(t.format(), F::Rgba32Float);
    let got: Vec<f32> = t
        .to_linear_bytes()
        .as_chunks::<4>()
        .0
        .iter()
        .map(|&b| f32::from_le_bytes(b))
        .collect();
    assert_eq!(got, px);
}

#[test]
fn radiance_hdr_loads_as_rgba32_float_with_alpha_one() {
    // 1, 0.5 and 0.25 share an exponent and are exact in RGBE.
    let img = image::Rgb32FImage::from_raw(1, 1, vec![1.0, 0.5, 0.25]).unwrap();
    let t = load_bytes(&encode(&img.into(), ImageFormat::Hdr)).unwrap();
    assert_eq!(t.format(), F::Rgba32Float);
    assert_eq!(
        t.read_texel(TexelAddr::new(0, 0, 0, 0, 0, 0), Aspect::Color),
        Some(Texel::Float([1.0, 0.5, 0.25, 1.0]))
    );
}

#[test]
fn tga_loads_from_a_file_by_its_extension() {
    let dir = scratch("tga");
    let path = dir.join("x.tga");
    std::fs::write(&path, encode(&rgba8(4, 2), ImageFormat::Tga)).unwrap();
    let t = load_file(&path).unwrap();
    assert_eq!(t.format(), F::Rgba8Srgb);
    assert_eq!(t.to_linear_bytes(), rgba8(4, 2).into_bytes());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn png_export_of_a_loaded_png_is_the_same_image() {
    for img in [
        rgba8(7, 5),
        DynamicImage::ImageLuma8(image::GrayImage::from_raw(3, 1, vec![0, 100, 255]).unwrap()),
    ] {
        let t = load_bytes(&encode(&img, ImageFormat::Png)).unwrap();
        let back = image::load_from_memory(&encode_png(&t, 0, 0, 0).unwrap()).unwrap();
        assert_eq!(back.color(), img.color());
        assert_eq!(back.as_bytes(), img.as_bytes());
    }
}

#[test]
fn files_round_trip_through_ktx2_and_png_on_disk() {
    let dir = scratch("disk");
    let t = load_bytes(&encode(&rgba8(6, 6), ImageFormat::Png)).unwrap();
    save_ktx2(&t, dir.join("t.ktx2")).unwrap();
    let k = load_file(dir.join("t.ktx2")).unwrap();
    assert_eq!(k.desc(), t.desc());
    assert_eq!(k.to_linear_bytes(), t.to_linear_bytes());
    save_png(&k, 0, 0, dir.join("t.png")).unwrap();
    let p = load_file(dir.join("t.png")).unwrap();
    assert_eq!(p.to_linear_bytes(), t.to_linear_bytes());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_png_claiming_huge_dimensions_is_refused() {
    // IHDR width 100000 (over the 65536 limit): refused before decoding.
    let mut png = encode(&rgba8(2, 2), ImageFormat::Png);
    png[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    let crc = crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    container_reason("image", load_bytes(&png));
}

/// CRC-32 (PNG chunk checksum), bitwise.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}
