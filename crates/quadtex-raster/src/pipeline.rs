//! What a frame is: draw calls with their fixed-function state, and the
//! target description. The renderer ([`crate::Renderer`]) consumes these.

use std::sync::Arc;

use glam::Mat4;
use quadtex_format::TextureFormat;
use quadtex_sampler::CompareOp;

use crate::mesh::Mesh;
use crate::shader::FragmentShader;
use crate::target::ColorFormat;

/// Which triangles are dropped by winding. Front faces are
/// counter-clockwise in normalized device coordinates (y up), as in OpenGL.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CullMode {
    /// Draw both windings.
    #[default]
    None,
    /// Drop clockwise (back-facing) triangles.
    Back,
    /// Drop counter-clockwise (front-facing) triangles.
    Front,
}

/// How a fragment's colour meets the target's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BlendMode {
    /// The fragment's colour replaces the target's.
    #[default]
    Replace,
    /// `src * src.a + dst * (1 - src.a)` on every channel (alpha included):
    /// Vulkan `SRC_ALPHA` / `ONE_MINUS_SRC_ALPHA`.
    Alpha,
    /// `src + dst` on every channel (`ONE` / `ONE`).
    Additive,
}

impl BlendMode {
    /// `src` blended over `dst`.
    #[inline]
    pub fn blend(self, src: [f32; 4], dst: [f32; 4]) -> [f32; 4] {
        match self {
            BlendMode::Replace => src,
            BlendMode::Alpha => {
                let a = src[3];
                std::array::from_fn(|c| src[c] * a + dst[c] * (1.0 - a))
            }
            BlendMode::Additive => std::array::from_fn(|c| src[c] + dst[c]),
        }
    }
}

/// The depth buffer's format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DepthFormat {
    /// `D32_SFLOAT`: depth kept as f32.
    #[default]
    D32Float,
    /// `X8_D24_UNORM_PACK32`: depth rounded to 24-bit unsigned normalized
    /// before the test and the write (Vulkan "Depth Test": fixed-point
    /// attachments convert the fragment's depth first).
    D24Unorm,
}

impl DepthFormat {
    /// The format crate's format.
    pub const fn texture_format(self) -> TextureFormat {
        match self {
            DepthFormat::D32Float => TextureFormat::Depth32Float,
            DepthFormat::D24Unorm => TextureFormat::Depth24UnormX8,
        }
    }

    /// `z` clamped to [0, 1] (NaN reads 0) and rounded to the format.
    #[inline]
    pub fn quantize(self, z: f32) -> f32 {
        let z = if z.is_nan() { 0.0 } else { z.clamp(0.0, 1.0) };
        match self {
            DepthFormat::D32Float => z,
            DepthFormat::D24Unorm => {
                const MAX: f64 = ((1u32 << 24) - 1) as f64;
                // Round to nearest, halves up, in f64 (f32 cannot hold
                // z * MAX exactly): the product of a 24-bit z and the
                // 24-bit MAX is exact, and so is adding 0.5 to it (below
                // 2^24, with no bits under 2^-24: 48 bits); the
                // conversion truncates, which for these non-negative
                // values is the floor. No `round` library call (x86-64's
                // baseline has no rounding instruction).
                let code = (z as f64 * MAX + 0.5) as u32;
                // `code / MAX` rounded to f32 without the division: it is
                // `code * 2^-24 * (1 + 2^-24 + 2^-48 + ...)`, and for a
                // code of `k` bits the excess over the (exact)
                // `code * 2^-24` is between 1/2 and 1 of that f32's unit
                // in the last place, so the rounded quotient is the next
                // f32 up (1.0 for the largest code); 0 for code 0. A test
                // checks every code.
                if code == 0 {
                    0.0
                } else {
                    f32::from_bits((code as f32 * (1.0 / 16_777_216.0)).to_bits() + 1)
                }
            }
        }
    }
}

/// Fixed-function state of a draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawState {
    /// The depth test (`fragment op stored`), or `None` for no test.
    pub depth_test: Option<CompareOp>,
    /// Write depth where the test passes (only with a test: as in Vulkan,
    /// disabling the depth test disables depth writes too).
    pub depth_write: bool,
    /// Face culling.
    pub cull: CullMode,
    /// Colour blending.
    pub blend: BlendMode,
}

impl Default for DrawState {
    /// Opaque geometry: `Less` test with writes, no culling, no blending.
    fn default() -> Self {
        DrawState {
            depth_test: Some(CompareOp::Less),
            depth_write: true,
            cull: CullMode::None,
            blend: BlendMode::Replace,
        }
    }
}

impl DrawState {
    /// No depth test or write, no culling, no blending: overlays and
    /// full-screen passes.
    pub const OVERLAY: DrawState = DrawState {
        depth_test: None,
        depth_write: false,
        cull: CullMode::None,
        blend: BlendMode::Replace,
    };
}

/// One draw: a mesh, its transform to clip space, a fragment shader and the
/// fixed-function state.
#[derive(Clone)]
pub struct DrawCall {
    /// The geometry.
    pub mesh: Arc<Mesh>,
    /// Positions to clip space (projection * view * model). Clip space is
    /// Vulkan's depth range `0 <= z <= w` with OpenGL's y up: NDC `y = +1`
    /// is the top row of the target: glam's
    /// `camera::rh::proj::directx` projections (z in [0, 1], y up) with
    /// `camera::rh::view::look_at_mat4` give upright images.
    pub transform: Mat4,
    /// The fragment shader.
    pub shader: Arc<dyn FragmentShader>,
    /// Depth, cull and blend state.
    pub state: DrawState,
}

impl DrawCall {
    /// A draw with the default (opaque) state.
    pub fn new(mesh: Arc<Mesh>, transform: Mat4, shader: Arc<dyn FragmentShader>) -> DrawCall {
        DrawCall {
            mesh,
            transform,
            shader,
            state: DrawState::default(),
        }
    }

    /// This draw with `state`.
    pub fn with_state(mut self, state: DrawState) -> DrawCall {
        self.state = state;
        self
    }
}

impl std::fmt::Debug for DrawCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DrawCall")
            .field("triangles", &self.mesh.triangle_count())
            .field("transform", &self.transform)
            .field("state", &self.state)
            .finish()
    }
}

/// A frame: the targets' size, samples and clear values, and the draws in
/// submission order.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Target width in pixels (0 renders nothing).
    pub width: u32,
    /// Target height in pixels (0 renders nothing).
    pub height: u32,
    /// Samples per pixel: 1, 4 or 8 (standard Vulkan positions); others are
    /// an error.
    pub samples: u32,
    /// Linear RGBA the colour target starts with.
    pub clear_color: [f32; 4],
    /// Depth the depth target starts with.
    pub clear_depth: f32,
    /// The depth target's format.
    pub depth_format: DepthFormat,
    /// Whether there is a colour target. `false` makes a depth-only pass
    /// (a shadow map): no colour memory, fragment shaders are not run
    /// (quads are still counted in [`Stats::quads`](crate::Stats::quads)),
    /// and the returned colour target is 0 x 0.
    pub color: bool,
    /// Whether there is a depth target. `false` (a colour-only pass, as a
    /// framebuffer without a depth attachment) makes every draw's depth
    /// test and depth writes off, uses no depth memory, and returns a
    /// 0 x 0 depth target.
    pub depth: bool,
    /// The colour target's format ([`ColorFormat::Rgba32Float`] unless
    /// set): shader outputs are encoded into it as they are written, and
    /// blending reads it back (clamped to `[0, 1]` for UNORM and sRGB).
    pub color_format: ColorFormat,
    /// Draws, in submission order.
    pub draws: Vec<DrawCall>,
}

impl Frame {
    /// A `width` x `height` single-sampled frame with a colour target,
    /// cleared to transparent black and depth 1, `D32_SFLOAT`, no draws.
    pub fn new(width: u32, height: u32) -> Frame {
        Frame {
            width,
            height,
            samples: 1,
            clear_color: [0.0; 4],
            clear_depth: 1.0,
            depth_format: DepthFormat::D32Float,
            color: true,
            depth: true,
            color_format: ColorFormat::Rgba32Float,
            draws: Vec::new(),
        }
    }

    /// This frame with its colour target in `format`.
    pub fn with_color_format(mut self, format: ColorFormat) -> Frame {
        self.color_format = format;
        self
    }

    /// This frame with `samples` per pixel.
    pub fn with_samples(mut self, samples: u32) -> Frame {
        self.samples = samples;
        self
    }

    /// Appends a draw.
    pub fn draw(&mut self, draw: DrawCall) -> &mut Frame {
        self.draws.push(draw);
        self
    }
}

/// The standard Vulkan sample positions (`VkPhysicalDeviceLimits::
/// standardSampleLocations`) for 1, 4 and 8 samples, in pixels from the
/// pixel's top-left corner; `None` for other counts.
pub fn sample_positions(samples: u32) -> Option<&'static [[f32; 2]]> {
    match samples {
        1 | 4 | 8 => quadtex_sampler::query::standard_sample_locations(samples),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_sample_positions_in_sixteenths() {
        let s4 = sample_positions(4).unwrap();
        assert_eq!(s4[0], [6.0 / 16.0, 2.0 / 16.0]);
        assert_eq!(s4[3], [10.0 / 16.0, 14.0 / 16.0]);
        assert_eq!(sample_positions(8).unwrap()[7], [15.0 / 16.0, 1.0 / 16.0]);
        assert!(sample_positions(2).is_none());
    }

    #[test]
    fn blend_modes() {
        let src = [1.0, 0.5, 0.0, 0.5];
        let dst = [0.0, 0.5, 1.0, 1.0];
        assert_eq!(BlendMode::Replace.blend(src, dst), src);
        assert_eq!(BlendMode::Alpha.blend(src, dst), [0.5, 0.5, 0.5, 0.75]);
        assert_eq!(BlendMode::Additive.blend(src, dst), [1.0, 1.0, 1.0, 1.5]);
    }
}
