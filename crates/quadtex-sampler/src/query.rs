//! Size queries: what `txq` / `textureSize` / `textureQueryLevels` /
//! `textureSamples` report for a view.
//!
//! The lane layout is the probe format's (`docs/probe-format.md`, "Conventions
//! pinned down", `size` lane; docs/semantics.md §9): `[width, height,
//! depth_or_layers, levels]` with unused entries 0. Level of detail queries
//! (`query_lod`, TMML) are not here; they need derivatives and live with the
//! sampling code.

use quadtex_format::TextureKind;

use crate::header::TextureHeader;

/// `[width, height, depth_or_layers, levels]` of `view` at `level`
/// (relative to the view's base level), as the probe's `size` op prints it:
///
/// | kind | result |
/// |---|---|
/// | `1d` | `[w, 0, 0, L]` |
/// | `1d_array` | `[w, 0, layers, L]` |
/// | `2d`, `cube` | `[w, h, 0, L]` |
/// | `2d_array` | `[w, h, layers, L]` |
/// | `3d` | `[w, h, d, L]` |
/// | `cube_array` | `[w, h, cubes, L]` |
/// | `2d_ms` | `[w, h, 0, 1]` |
/// | `2d_ms_array` | `[w, h, layers, 1]` |
///
/// `L` is the view's `level_count` (GLSL `textureQueryLevels`); layers are
/// the view's layers, and cube arrays report cubes (`layers / 6`) as GLSL's
/// `textureSize` does. Extents follow PTX ISA 9.7.10.2 ("Mipmaps"):
/// `max(1, dim >> level)`.
///
/// A level outside the view (negative, or `>= level_count`) is undefined in
/// Vulkan (`OpImageQuerySizeLod` needs a valid level) and in GLSL; the
/// defined answer here is zero for width, height and depth/layers, with
/// `L` kept, so a caller can still read the level count.
pub fn size(view: &TextureHeader, level: i32) -> [u32; 4] {
    let kind = view.kind;
    let levels = if kind.is_multisample() {
        1
    } else {
        view.level_count
    };
    let in_range = u32::try_from(level).is_ok_and(|l| l < view.level_count);
    if !in_range {
        return [0, 0, 0, levels];
    }
    let e = view
        .texture
        .desc()
        .level_extent(view.base_level.saturating_add(level as u32));
    let (w, h, d) = (e.width, e.height, e.depth);
    let layers = view.layer_count;
    match kind {
        TextureKind::D1 => [w, 0, 0, levels],
        TextureKind::D1Array => [w, 0, layers, levels],
        TextureKind::D2 | TextureKind::Cube | TextureKind::D2Ms => [w, h, 0, levels],
        TextureKind::D2Array | TextureKind::D2MsArray => [w, h, layers, levels],
        TextureKind::D3 => [w, h, d, levels],
        TextureKind::CubeArray => [w, h, layers / 6, levels],
    }
}

/// The sample count a `textureSamples` / `txq.num_samples` query reports:
/// the texture's samples for multisample views, 1 otherwise.
pub fn samples(view: &TextureHeader) -> u32 {
    if view.kind.is_multisample() {
        view.texture.desc().samples
    } else {
        1
    }
}

/// Vulkan's standard sample locations (`standardSampleLocations`, the D3D
/// standard patterns) for 1, 2, 4, 8 and 16 samples, in pixels from the
/// pixel's top-left corner; `None` for other counts. One table for the
/// instruction front-ends (SASS TXQ sample positions) and renderers (the
/// demo rasterizer's MSAA coverage).
pub fn standard_sample_locations(samples: u32) -> Option<&'static [[f32; 2]]> {
    const S1: [[f32; 2]; 1] = [[0.5, 0.5]];
    const S2: [[f32; 2]; 2] = [[0.75, 0.75], [0.25, 0.25]];
    const S4: [[f32; 2]; 4] = [
        [0.375, 0.125],
        [0.875, 0.375],
        [0.125, 0.625],
        [0.625, 0.875],
    ];
    const S8: [[f32; 2]; 8] = [
        [0.5625, 0.3125],
        [0.4375, 0.6875],
        [0.8125, 0.5625],
        [0.3125, 0.1875],
        [0.1875, 0.8125],
        [0.0625, 0.4375],
        [0.6875, 0.9375],
        [0.9375, 0.0625],
    ];
    const S16: [[f32; 2]; 16] = [
        [0.5625, 0.5625],
        [0.4375, 0.3125],
        [0.3125, 0.625],
        [0.75, 0.4375],
        [0.1875, 0.375],
        [0.625, 0.8125],
        [0.8125, 0.6875],
        [0.6875, 0.1875],
        [0.375, 0.875],
        [0.5, 0.0625],
        [0.25, 0.125],
        [0.125, 0.75],
        [0.0, 0.5],
        [0.9375, 0.25],
        [0.875, 0.9375],
        [0.0625, 0.0],
    ];
    match samples {
        1 => Some(&S1),
        2 => Some(&S2),
        4 => Some(&S4),
        8 => Some(&S8),
        16 => Some(&S16),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat};

    use super::*;

    fn view(desc: TextureDesc) -> TextureHeader {
        TextureHeader::new(Arc::new(Texture::new(desc, Layout::Linear).unwrap()))
    }

    #[test]
    fn size_of_a_2d_array_counts_layers_and_halves_extents() {
        let d =
            TextureDesc::d2(TextureFormat::Rgba8Unorm, 16, 8).with_layers(TextureKind::D2Array, 3);
        let v = view(d);
        assert_eq!(size(&v, 0), [16, 8, 3, 5]);
        assert_eq!(size(&v, 1), [8, 4, 3, 5]);
        assert_eq!(size(&v, 4), [1, 1, 3, 5]);
    }

    #[test]
    fn size_of_a_cube_array_reports_cubes_not_faces() {
        let d =
            TextureDesc::cube(TextureFormat::R32Float, 8).with_layers(TextureKind::CubeArray, 12);
        let v = view(d);
        assert_eq!(size(&v, 0), [8, 8, 2, 4]);
        assert_eq!(size(&v, 2), [2, 2, 2, 4]);
        let c = view(TextureDesc::cube(TextureFormat::R32Float, 8));
        assert_eq!(size(&c, 1), [4, 4, 0, 4]);
    }

    #[test]
    fn size_leaves_unused_entries_zero_for_1d_and_3d() {
        let v = view(TextureDesc::d1(TextureFormat::Rgba8Unorm, 16));
        assert_eq!(size(&v, 3), [2, 0, 0, 5]);
        let a = view(
            TextureDesc::d1(TextureFormat::Rgba8Unorm, 16).with_layers(TextureKind::D1Array, 4),
        );
        assert_eq!(size(&a, 0), [16, 0, 4, 5]);
        let t = view(TextureDesc::d3(TextureFormat::Rgba8Unorm, 8, 4, 16));
        assert_eq!(size(&t, 0), [8, 4, 16, 5]);
        assert_eq!(size(&t, 3), [1, 1, 2, 5]);
    }

    #[test]
    fn size_is_relative_to_the_view_base_and_counts_view_levels() {
        let mut v = view(TextureDesc::d2(TextureFormat::Rgba8Unorm, 32, 32));
        v.base_level = 2;
        v.level_count = 3;
        assert_eq!(size(&v, 0), [8, 8, 0, 3]);
        assert_eq!(size(&v, 2), [2, 2, 0, 3]);
    }

    #[test]
    fn size_outside_the_view_levels_is_zero_but_keeps_the_level_count() {
        let mut v = view(TextureDesc::d2(TextureFormat::Rgba8Unorm, 32, 32));
        v.level_count = 3;
        assert_eq!(size(&v, 3), [0, 0, 0, 3]);
        assert_eq!(size(&v, -1), [0, 0, 0, 3]);
        assert_eq!(size(&v, i32::MAX), [0, 0, 0, 3]);
        assert_eq!(size(&v, i32::MIN), [0, 0, 0, 3]);
    }

    #[test]
    fn multisample_views_report_one_level_and_their_samples() {
        let v = view(TextureDesc::d2_ms(TextureFormat::Rgba8Unorm, 8, 4, 4));
        assert_eq!(size(&v, 0), [8, 4, 0, 1]);
        assert_eq!(samples(&v), 4);
        let a = view(
            TextureDesc::d2_ms(TextureFormat::Rgba8Unorm, 8, 4, 4)
                .with_layers(TextureKind::D2MsArray, 5),
        );
        assert_eq!(size(&a, 0), [8, 4, 5, 1]);
        assert_eq!(
            samples(&view(TextureDesc::d2(TextureFormat::Rgba8Unorm, 8, 8))),
            1
        );
    }
}
