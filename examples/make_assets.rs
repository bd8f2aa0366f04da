//! Builds the small textures shipped under `scenes/assets/` with the format
//! crate's own API: a procedural sRGB checker with a colour ramp, its full
//! mip chain (exact for odd extents, filtered in linear light), stored as
//! KTX2. Run: `cargo run --release --example make_assets`.

use quadtex::format::{
    io, mip, Aspect, Layout, Texel, TexelAddr, Texture, TextureDesc, TextureFormat,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (w, h) = (96u32, 64u32);
    let mut tex = Texture::new(
        TextureDesc::d2(TextureFormat::Rgba8Srgb, w, h),
        Layout::Tiled,
    )?;
    for y in 0..h {
        for x in 0..w {
            let on = ((x / 8) + (y / 8)) % 2 == 0;
            let (u, v) = (x as f32 / (w - 1) as f32, y as f32 / (h - 1) as f32);
            let c = if on {
                [u, v, 1.0 - u, 1.0]
            } else {
                [0.05, 0.05, 0.05, 1.0]
            };
            tex.write_texel(
                TexelAddr::new(0, 0, 0, x, y, 0),
                Aspect::Color,
                Texel::Float(c),
            )?;
        }
    }
    mip::generate_mips(&mut tex)?;
    std::fs::create_dir_all("scenes/assets")?;
    io::save_ktx2(&tex, "scenes/assets/checker.ktx2")?;
    println!(
        "wrote scenes/assets/checker.ktx2: {}x{}, {} levels",
        w,
        h,
        tex.desc().levels
    );
    Ok(())
}
