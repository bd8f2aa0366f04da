//! Renders a 1920x1080 textured ground plane (trilinear, 4x MSAA optional)
//! and prints the frame statistics: `cargo run --release -p quadtex-raster
//! --example frame -- [threads] [samples] [out.png]`.

use std::sync::Arc;

use glam::{Mat4, Vec2, Vec3};
use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat};
use quadtex_raster::{DrawCall, Frame, Mesh, Renderer, TextureBinding, Unlit};
use quadtex_sampler::{AddressMode, SamplerHeader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let threads: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let samples: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);

    let size = 1024;
    let mut bytes = Vec::with_capacity(size * size * 4);
    for y in 0..size {
        for x in 0..size {
            let on = ((x / 64) + (y / 64)) % 2 == 0;
            bytes.extend_from_slice(&if on {
                [220, 210, 190, 255]
            } else {
                [40, 70, 120, 255]
            });
        }
    }
    let base = Texture::from_linear_bytes(
        TextureDesc::d2(TextureFormat::Rgba8Srgb, size as u32, size as u32).with_levels(1),
        Layout::Linear,
        &bytes,
    )?;
    let mut tex = Texture::new(
        TextureDesc::d2(TextureFormat::Rgba8Srgb, size as u32, size as u32),
        Layout::Tiled,
    )?;
    tex.write_subresource_bytes(
        0,
        0,
        0,
        &base.subresource_bytes(0, 0, 0).unwrap_or_default(),
    )?;
    quadtex_format::mip::generate_mips(&mut tex)?;
    let binding = TextureBinding::new(Arc::new(tex), SamplerHeader::trilinear(AddressMode::Repeat));

    let mut ground = Mesh::rect(Vec2::splat(-200.0), Vec2::splat(200.0))
        .transformed(Mat4::from_rotation_x(-std::f32::consts::FRAC_PI_2));
    for a in ground
        .attributes
        .chunks_exact_mut(quadtex_raster::STD_ATTRS)
    {
        a[0] *= 100.0;
        a[1] *= 100.0;
    }
    let proj = glam::camera::rh::proj::directx::perspective(1.0, 16.0 / 9.0, 0.1, 500.0);
    let view = glam::camera::rh::view::look_at_mat4(
        Vec3::new(0.0, 2.0, 0.0),
        Vec3::new(0.0, 1.5, -10.0),
        Vec3::Y,
    );
    let mut frame = Frame::new(1920, 1080).with_samples(samples);
    frame.clear_color = [0.5, 0.6, 0.8, 1.0];
    frame.draw(DrawCall::new(
        Arc::new(ground),
        proj * view,
        Arc::new(Unlit::new(binding)),
    ));

    let r = Renderer::new(threads)?;
    let out = r.render_resolved(&frame)?;
    println!("threads {} samples {}", r.threads(), samples);
    println!("{}", out.stats);
    if let Some(path) = args.get(3) {
        out.color.save_png(path)?;
    }
    Ok(())
}
