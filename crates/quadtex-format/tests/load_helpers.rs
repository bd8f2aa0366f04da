//! What a new user reaches for first: a texture from an `image::RgbaImage`,
//! its mip chain in one call, a PNG loaded mipmapped, and load errors that
//! name the file and the container they expected.

#![cfg(feature = "io")]

use image::{Rgba, RgbaImage};
use quadtex_format::io::{self, ColorSpace};
use quadtex_format::mip::with_full_chain;
use quadtex_format::{Aspect, Texel, TexelAddr, TextureFormat};

/// A 4x2 image: red ramp along x (0, 85, 170, 255), green 255 on row 1.
fn image() -> RgbaImage {
    RgbaImage::from_fn(4, 2, |x, y| Rgba([85 * x as u8, 255 * y as u8, 0, 255]))
}

fn unorm(code: u8) -> f32 {
    code as f32 / 255.0
}

#[test]
fn an_rgba_image_becomes_a_texture_row_0_first() {
    let t = io::from_rgba_image(&image(), ColorSpace::Linear).unwrap();
    assert_eq!(t.format(), TextureFormat::Rgba8Unorm);
    assert_eq!(
        (t.desc().width, t.desc().height, t.desc().levels),
        (4, 2, 1)
    );
    let at = |x, y| t.read_texel(TexelAddr::at(x, y), Aspect::Color).unwrap();
    assert_eq!(at(2, 0), Texel::Float([unorm(170), 0.0, 0.0, 1.0]));
    assert_eq!(at(3, 1), Texel::Float([1.0, 1.0, 0.0, 1.0]));
    let s = io::from_rgba_image(&image(), ColorSpace::Srgb).unwrap();
    assert_eq!(s.format(), TextureFormat::Rgba8Srgb);
}

#[test]
fn the_full_chain_averages_level_0() {
    let t = io::from_rgba_image(&image(), ColorSpace::Linear).unwrap();
    let m = with_full_chain(&t).unwrap();
    // 4x2 -> 2x1 -> 1x1.
    assert_eq!(m.desc().levels, 3);
    let at = |level, x| {
        m.read_texel(TexelAddr::new(level, 0, 0, x, 0, 0), Aspect::Color)
            .unwrap()
    };
    // Level 0 is the image's.
    assert_eq!(at(0, 1), Texel::Float([unorm(85), 0.0, 0.0, 1.0]));
    // Level 1 texel 0 averages red 0, 85, 0, 85 (42.5 -> 43) and green
    // 0, 0, 255, 255 (127.5 -> 128); texel 1 red 170, 255, ... (212.5 -> 213).
    assert_eq!(at(1, 0), Texel::Float([unorm(43), unorm(128), 0.0, 1.0]));
    assert_eq!(at(1, 1), Texel::Float([unorm(213), unorm(128), 0.0, 1.0]));
    // A texture that has its levels is kept as it is.
    assert_eq!(with_full_chain(&m).unwrap().desc().levels, 3);
}

#[test]
fn a_png_loads_mipmapped_in_one_call() {
    let dir = std::env::temp_dir().join(format!("quadtex-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ramp.png");
    image().save(&path).unwrap();
    let t = io::load_file_mipmapped(&path, ColorSpace::Srgb).unwrap();
    assert_eq!(t.format(), TextureFormat::Rgba8Srgb);
    assert_eq!(t.desc().levels, 3);
    let plain = io::load_file(&path).unwrap();
    assert_eq!(plain.desc().levels, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn load_errors_name_the_file_and_the_container() {
    let dir = std::env::temp_dir().join(format!("quadtex-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let case = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let e = io::load_file(&path).expect_err("an error").to_string();
        assert!(e.starts_with(&path.display().to_string()), "{e}");
        e
    };
    let e = case("empty.dds", b"");
    assert!(e.ends_with("DDS: the file is empty"), "{e}");
    let e = case("noise.dds", &[7u8; 40]);
    assert!(
        e.contains("DDS: the file does not start with the magic bytes (40 bytes)"),
        "{e}"
    );
    let e = case("noise.ktx2", &[7u8; 40]);
    assert!(e.contains("KTX2: the file does not start"), "{e}");
    let e = case("noise.png", &[7u8; 40]);
    assert!(e.contains("image:"), "{e}");
    // A DDS header cut short: the DDS reader's own error, with the name.
    let e = case("short.dds", b"DDS \x7c\x00\x00\x00");
    assert!(e.contains("short.dds: DDS"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
