//! Shared helpers for the raster tests: meshes placed in pixel coordinates
//! with an identity transform, and small textures.

#![allow(dead_code, unreachable_pub)]

use std::sync::Arc;

use glam::{Mat4, Vec3};
use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat};
use quadtex_raster::{DrawCall, DrawState, FragmentShader, Mesh};

/// Pixel position `(sx, sy)` at NDC depth `z` on a `w x h` target, for an
/// identity transform (NDC y up, row 0 on top).
pub fn px(w: u32, h: u32, sx: f32, sy: f32, z: f32) -> Vec3 {
    Vec3::new(sx / w as f32 * 2.0 - 1.0, 1.0 - sy / h as f32 * 2.0, z)
}

/// Triangles given in pixel coordinates (three points each), attribute 0 =
/// screen x, attribute 1 = screen y (linear in screen space since w = 1).
pub fn screen_mesh(w: u32, h: u32, tris: &[[(f32, f32); 3]], z: f32) -> Mesh {
    let mut m = Mesh {
        attribute_count: 2,
        ..Default::default()
    };
    for t in tris {
        for &(x, y) in t {
            m.indices.push(m.positions.len() as u32);
            m.positions.push(px(w, h, x, y, z));
            m.attributes.extend_from_slice(&[x, y]);
        }
    }
    m
}

/// A draw of `mesh` with an identity transform.
pub fn draw(mesh: Mesh, shader: Arc<dyn FragmentShader>, state: DrawState) -> DrawCall {
    DrawCall::new(Arc::new(mesh), Mat4::IDENTITY, shader).with_state(state)
}

/// A constant-colour shader.
pub fn solid(c: [f32; 4]) -> Arc<dyn FragmentShader> {
    Arc::new(move |_: &mut quadtex_raster::QuadCtx<'_>, out: &mut [[f32; 4]; 4]| *out = [c; 4])
}

/// A `size x size` RGBA8 checker of 8-texel squares with the full mip chain.
pub fn checker(size: u32) -> Arc<Texture> {
    let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, size, size).with_levels(1);
    let mut bytes = Vec::new();
    for y in 0..size {
        for x in 0..size {
            let on = ((x / 8) + (y / 8)) % 2 == 0;
            bytes.extend_from_slice(&if on {
                [230, 200, 40, 255]
            } else {
                [20, 60, 180, 255]
            });
        }
    }
    let base = Texture::from_linear_bytes(desc, Layout::Linear, &bytes).unwrap();
    let full = TextureDesc::d2(TextureFormat::Rgba8Unorm, size, size);
    let mut t = Texture::new(full, Layout::Linear).unwrap();
    t.write_subresource_bytes(0, 0, 0, &base.subresource_bytes(0, 0, 0).unwrap())
        .unwrap();
    quadtex_format::mip::generate_mips(&mut t).unwrap();
    Arc::new(t)
}

/// A 1x1 texture of one colour.
pub fn one_texel(rgba: [u8; 4]) -> Arc<Texture> {
    let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, 1, 1).with_levels(1);
    Arc::new(Texture::from_linear_bytes(desc, Layout::Linear, &rgba).unwrap())
}
