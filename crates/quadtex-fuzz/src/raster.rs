//! The rasterizer target: random triangles (any clip coordinates: huge,
//! tiny, NaN, ±Inf, w near 0 or negative), draw states and targets (size,
//! samples, depth format, colour or depth-only), shaded by a textured
//! `Unlit` (the batched sampler) or a shader that writes its
//! interpolated attributes. A frame renders or is an error; and as the
//! renderer promises, one thread and two give the same bits.

use std::sync::{Arc, OnceLock};

use arbitrary::{Result, Unstructured};
use glam::{Mat4, Vec3, Vec4};
use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat};
use quadtex_raster::{
    shader_fn, BlendMode, ColorFormat, CullMode, DepthFormat, DrawCall, DrawState, Frame, Mesh,
    Renderer, TextureBinding, Unlit, STD_ATTRS,
};
use quadtex_sampler::{AddressMode, CompareOp, SamplerHeader};

/// Runs one input; see the module docs.
pub(crate) fn raster(data: &[u8]) -> bool {
    let mut u = Unstructured::new(data);
    match frame(&mut u) {
        Ok(frame) => render_twice(&frame),
        Err(_) => false,
    }
}

fn renderers() -> &'static [Renderer; 2] {
    static R: OnceLock<[Renderer; 2]> = OnceLock::new();
    R.get_or_init(|| [1, 2].map(|t| Renderer::new(t).expect("a thread pool")))
}

/// Renders `frame` on one thread and on two: errors must agree, pictures
/// must be bit-identical. True when the frame rendered.
fn render_twice(frame: &Frame) -> bool {
    let [one, two] = renderers();
    match (one.render(frame), two.render(frame)) {
        (Ok(a), Ok(b)) => {
            assert!(
                a.color.bytes() == b.color.bytes() && a.color.format() == b.color.format(),
                "colour differs between 1 and 2 threads: {frame:?}"
            );
            let bits = |d: &[f32]| d.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert!(
                bits(&a.depth.data) == bits(&b.depth.data),
                "depth differs between 1 and 2 threads: {frame:?}"
            );
            assert_eq!(
                a.stats.quads, b.stats.quads,
                "quad counts differ: {frame:?}"
            );
            true
        }
        (Err(_), Err(_)) => false,
        (a, b) => panic!(
            "1 thread: {:?}, 2 threads: {:?} for {frame:?}",
            a.map(|_| ()),
            b.map(|_| ())
        ),
    }
}

/// A coordinate: mostly on screen, often an extreme.
fn coord(u: &mut Unstructured<'_>) -> Result<f32> {
    Ok(match u.int_in_range(0u8..=15)? {
        0 => f32::NAN,
        1 => f32::INFINITY,
        2 => f32::NEG_INFINITY,
        3 => f32::MAX,
        4 => -f32::MAX,
        5 => f32::from_bits(u.arbitrary::<u32>()?),
        6 => 1e-30,
        7 => 0.0,
        8 => u.int_in_range(-100_000i32..=100_000)? as f32,
        _ => u.int_in_range(-1500i32..=1500)? as f32 / 1000.0,
    })
}

fn mesh(u: &mut Unstructured<'_>) -> Result<Mesh> {
    let vertices = u.int_in_range(3usize..=9)?;
    let mut positions = Vec::with_capacity(vertices);
    let mut attributes = Vec::with_capacity(vertices * STD_ATTRS);
    for _ in 0..vertices {
        positions.push(Vec3::new(coord(u)?, coord(u)?, coord(u)?));
        for _ in 0..STD_ATTRS {
            attributes.push(if u.ratio(1u8, 10)? {
                coord(u)?
            } else {
                u.int_in_range(-200i32..=1200)? as f32 / 1000.0
            });
        }
    }
    let triangles = u.int_in_range(1usize..=6)?;
    let mut indices = Vec::with_capacity(triangles * 3);
    for _ in 0..triangles * 3 {
        // Out-of-range indices drop their triangle.
        indices.push(u.int_in_range(0u32..=vertices as u32)?);
    }
    Ok(Mesh {
        positions,
        w: Vec::new(),
        attribute_count: STD_ATTRS,
        attributes,
        indices,
    })
}

fn transform(u: &mut Unstructured<'_>) -> Result<Mat4> {
    Ok(match u.int_in_range(0u8..=3)? {
        0 => Mat4::IDENTITY,
        1 => {
            // A camera: perspective with a near plane the triangles cross.
            let eye = Vec3::new(coord(u)?, coord(u)?, 2.5);
            let view = glam::camera::rh::view::look_at_mat4(eye, Vec3::ZERO, Vec3::Y);
            let near = u.int_in_range(1i32..=1000)? as f32 / 1000.0;
            glam::camera::rh::proj::directx::perspective(1.0, 1.3, near, 100.0) * view
        }
        _ => {
            let mut cols = [Vec4::ZERO; 4];
            for c in &mut cols {
                *c = Vec4::new(coord(u)?, coord(u)?, coord(u)?, coord(u)?);
            }
            Mat4::from_cols(cols[0], cols[1], cols[2], cols[3])
        }
    })
}

fn texture() -> Arc<Texture> {
    static T: OnceLock<Arc<Texture>> = OnceLock::new();
    T.get_or_init(|| {
        let mut desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, 16, 16);
        desc.levels = desc.max_levels();
        let n = desc.total_bytes().expect("small") as usize;
        let bytes: Vec<u8> = (0..n).map(|i| (i * 37 % 251) as u8).collect();
        Arc::new(Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).expect("valid"))
    })
    .clone()
}

fn draw(u: &mut Unstructured<'_>) -> Result<DrawCall> {
    let mesh = Arc::new(mesh(u)?);
    let transform = transform(u)?;
    let shader = if u.ratio(1u8, 2)? {
        let address = *u.choose(&[AddressMode::Repeat, AddressMode::ClampToBorder])?;
        let smp = SamplerHeader {
            max_anisotropy: *u.choose(&[1.0, 16.0])?,
            ..SamplerHeader::trilinear(address)
        };
        Arc::new(Unlit::new(TextureBinding::new(texture(), smp))) as _
    } else {
        shader_fn(Vec::new(), |ctx, out| {
            let (a, b) = (ctx.attr(0), ctx.attr(1));
            for (lane, o) in out.iter_mut().enumerate() {
                *o = [a[lane], b[lane], 0.5, 1.0];
            }
        })
    };
    let state = DrawState {
        depth_test: *u.choose(&[
            None,
            Some(CompareOp::Less),
            Some(CompareOp::GreaterOrEqual),
            Some(CompareOp::Always),
            Some(CompareOp::Never),
        ])?,
        depth_write: u.arbitrary()?,
        cull: *u.choose(&[CullMode::None, CullMode::Back, CullMode::Front])?,
        blend: *u.choose(&[BlendMode::Replace, BlendMode::Alpha, BlendMode::Additive])?,
    };
    Ok(DrawCall::new(mesh, transform, shader).with_state(state))
}

fn frame(u: &mut Unstructured<'_>) -> Result<Frame> {
    let (w, h) = (u.int_in_range(0u32..=150)?, u.int_in_range(0u32..=150)?);
    let mut f = Frame::new(w, h).with_samples(*u.choose(&[1, 1, 4, 8, 2, 0])?);
    f.clear_color = [coord(u)?, 0.25, 0.5, 1.0];
    f.clear_depth = *u.choose(&[1.0, 0.0, 0.5, f32::NAN])?;
    f.depth_format = *u.choose(&[DepthFormat::D32Float, DepthFormat::D24Unorm])?;
    f.color = !u.ratio(1u8, 6)?;
    let draws = u.int_in_range(1usize..=4)?;
    for _ in 0..draws {
        f.draw(draw(u)?);
    }
    // Read last, and defaulting to RGBA32F with depth when the input runs
    // out, so that older inputs keep their frames.
    f.color_format = *u.choose(&[
        ColorFormat::Rgba32Float,
        ColorFormat::Rgba8Unorm,
        ColorFormat::Rgba8Srgb,
        ColorFormat::Bgra8Unorm,
        ColorFormat::Bgra8Srgb,
        ColorFormat::Rgba16Float,
    ])?;
    f.depth = u.int_in_range(0u8..=7)? != 7;
    Ok(f)
}
