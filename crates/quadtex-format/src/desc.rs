//! Texture descriptions: kind, format and extent, validated.
//!
//! Level extents follow PTX ISA 9.7.10.2 ("Mipmaps"; docs/semantics.md §9):
//! `numLODs = 1 + floor(log2(max(w, h, d)))` and each level is `max(1,
//! floor(dim / 2^i))` per axis. Cubes are square with six faces (+X, -X, +Y,
//! -Y, +Z, -Z); cube arrays hold `6n` layers; multisample kinds have 1, 2, 4, 8
//! or 16 samples and one level.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};
use crate::format::TextureFormat;

/// The largest extent accepted on any axis.
pub const MAX_EXTENT: u32 = 1 << 16;
/// The largest layer count accepted (SASS carries array indices in 16 bits).
pub const MAX_LAYERS: u32 = 1 << 16;
/// The largest texture accepted, in bytes.
pub const MAX_BYTES: u64 = 1 << 33;

/// The geometry of a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureKind {
    /// 1D.
    D1,
    /// 2D.
    D2,
    /// 3D.
    D3,
    /// Cube map: six square faces.
    Cube,
    /// Array of 1D layers.
    D1Array,
    /// Array of 2D layers.
    D2Array,
    /// Array of cubes: `6n` layers.
    CubeArray,
    /// Multisampled 2D.
    D2Ms,
    /// Array of multisampled 2D layers.
    D2MsArray,
}

impl TextureKind {
    /// Every kind.
    pub const ALL: [TextureKind; 9] = [
        TextureKind::D1,
        TextureKind::D2,
        TextureKind::D3,
        TextureKind::Cube,
        TextureKind::D1Array,
        TextureKind::D2Array,
        TextureKind::CubeArray,
        TextureKind::D2Ms,
        TextureKind::D2MsArray,
    ];

    /// The probe format's spelling (docs/probe-format.md): `1d`, `2d_array`,
    /// `2d_ms`, ...
    pub const fn name(self) -> &'static str {
        match self {
            TextureKind::D1 => "1d",
            TextureKind::D2 => "2d",
            TextureKind::D3 => "3d",
            TextureKind::Cube => "cube",
            TextureKind::D1Array => "1d_array",
            TextureKind::D2Array => "2d_array",
            TextureKind::CubeArray => "cube_array",
            TextureKind::D2Ms => "2d_ms",
            TextureKind::D2MsArray => "2d_ms_array",
        }
    }

    /// Whether the kind is arrayed.
    pub const fn is_array(self) -> bool {
        match self {
            TextureKind::D1Array
            | TextureKind::D2Array
            | TextureKind::CubeArray
            | TextureKind::D2MsArray => true,
            TextureKind::D1
            | TextureKind::D2
            | TextureKind::D3
            | TextureKind::Cube
            | TextureKind::D2Ms => false,
        }
    }

    /// Whether the kind is a cube or cube array.
    pub const fn is_cube(self) -> bool {
        match self {
            TextureKind::Cube | TextureKind::CubeArray => true,
            TextureKind::D1
            | TextureKind::D2
            | TextureKind::D3
            | TextureKind::D1Array
            | TextureKind::D2Array
            | TextureKind::D2Ms
            | TextureKind::D2MsArray => false,
        }
    }

    /// Whether the kind is multisampled.
    pub const fn is_multisample(self) -> bool {
        match self {
            TextureKind::D2Ms | TextureKind::D2MsArray => true,
            TextureKind::D1
            | TextureKind::D2
            | TextureKind::D3
            | TextureKind::Cube
            | TextureKind::D1Array
            | TextureKind::D2Array
            | TextureKind::CubeArray => false,
        }
    }

    /// Number of coordinate dimensions of a texel address (1, 2 or 3),
    /// not counting the layer.
    pub const fn dimensions(self) -> u32 {
        match self {
            TextureKind::D1 | TextureKind::D1Array => 1,
            TextureKind::D3 => 3,
            TextureKind::D2
            | TextureKind::Cube
            | TextureKind::D2Array
            | TextureKind::CubeArray
            | TextureKind::D2Ms
            | TextureKind::D2MsArray => 2,
        }
    }
}

impl fmt::Display for TextureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TextureKind {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        TextureKind::ALL
            .iter()
            .copied()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| Error::unknown_kind(s.to_owned()))
    }
}

/// The extent of one level in texels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Extent3d {
    /// Width in texels.
    pub width: u32,
    /// Height in texels (1 for 1D kinds).
    pub height: u32,
    /// Depth in texels (1 except for 3D).
    pub depth: u32,
}

/// What a texture is: kind, format, extent, layers, levels and samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextureDesc {
    /// The geometry.
    pub kind: TextureKind,
    /// The texel format.
    pub format: TextureFormat,
    /// Width of level 0 in texels.
    pub width: u32,
    /// Height of level 0 (1 for 1D kinds).
    pub height: u32,
    /// Depth of level 0 (1 except for 3D).
    pub depth: u32,
    /// Array layers, counting cube faces: 6 for a cube, `6n` for a cube array.
    pub layers: u32,
    /// Mip levels, 1 to [`TextureDesc::max_levels`].
    pub levels: u32,
    /// Samples per texel: 1, or 2/4/8/16 for multisample kinds.
    pub samples: u32,
    /// Created with no mip chain, as NVIDIA's `TWO_D_NO_MIPMAP` header type
    /// (a pitch-linear style 2D image): only for 2D with one level.
    pub no_mipmap: bool,
}

impl Default for TextureDesc {
    /// A 1x1 RGBA8 2D texture with one level.
    fn default() -> Self {
        TextureDesc {
            kind: TextureKind::D2,
            format: TextureFormat::Rgba8Unorm,
            width: 1,
            height: 1,
            depth: 1,
            layers: 1,
            levels: 1,
            samples: 1,
            no_mipmap: false,
        }
    }
}

/// `1 + floor(log2(max(w, h, d)))` (PTX ISA 9.7.10.2, "Mipmaps").
pub const fn full_mip_count(width: u32, height: u32, depth: u32) -> u32 {
    let m = max3(width, height, depth);
    if m == 0 {
        0
    } else {
        32 - m.leading_zeros()
    }
}

const fn max3(a: u32, b: u32, c: u32) -> u32 {
    let m = if a > b { a } else { b };
    if m > c {
        m
    } else {
        c
    }
}

/// `max(1, floor(dim / 2^level))` (PTX ISA 9.7.10.2, "Mipmaps").
pub const fn level_dim(dim: u32, level: u32) -> u32 {
    if level >= 32 {
        1
    } else {
        let d = dim >> level;
        if d == 0 {
            1
        } else {
            d
        }
    }
}

impl TextureDesc {
    /// A 1D texture with the full mip chain.
    pub fn d1(format: TextureFormat, width: u32) -> TextureDesc {
        TextureDesc {
            kind: TextureKind::D1,
            format,
            width,
            levels: full_mip_count(width, 1, 1),
            ..Default::default()
        }
    }

    /// A 2D texture with the full mip chain.
    pub fn d2(format: TextureFormat, width: u32, height: u32) -> TextureDesc {
        TextureDesc {
            kind: TextureKind::D2,
            format,
            width,
            height,
            levels: full_mip_count(width, height, 1),
            ..Default::default()
        }
    }

    /// A 3D texture with the full mip chain.
    pub fn d3(format: TextureFormat, width: u32, height: u32, depth: u32) -> TextureDesc {
        TextureDesc {
            kind: TextureKind::D3,
            format,
            width,
            height,
            depth,
            levels: full_mip_count(width, height, depth),
            ..Default::default()
        }
    }

    /// A cube map of `size x size` faces with the full mip chain.
    pub fn cube(format: TextureFormat, size: u32) -> TextureDesc {
        TextureDesc {
            kind: TextureKind::Cube,
            format,
            width: size,
            height: size,
            layers: 6,
            levels: full_mip_count(size, size, 1),
            ..Default::default()
        }
    }

    /// A 2D texture with no mip chain (`TWO_D_NO_MIPMAP`).
    pub fn d2_no_mipmap(format: TextureFormat, width: u32, height: u32) -> TextureDesc {
        TextureDesc {
            kind: TextureKind::D2,
            format,
            width,
            height,
            levels: 1,
            no_mipmap: true,
            ..Default::default()
        }
    }

    /// A multisampled 2D texture.
    pub fn d2_ms(format: TextureFormat, width: u32, height: u32, samples: u32) -> TextureDesc {
        TextureDesc {
            kind: TextureKind::D2Ms,
            format,
            width,
            height,
            samples,
            ..Default::default()
        }
    }

    /// This description as an array of `layers` (cube arrays: `layers` counts
    /// faces, a multiple of 6).
    pub fn with_layers(mut self, kind: TextureKind, layers: u32) -> TextureDesc {
        self.kind = kind;
        self.layers = layers;
        self
    }

    /// This description with `levels` mip levels.
    pub fn with_levels(mut self, levels: u32) -> TextureDesc {
        self.levels = levels;
        self
    }

    /// The longest mip chain the extent allows.
    pub const fn max_levels(&self) -> u32 {
        full_mip_count(self.width, self.height, self.depth)
    }

    /// The extent of `level` (PTX ISA 9.7.10.2, "Mipmaps":
    /// `max(1, floor(dim / 2^level))`).
    pub const fn level_extent(&self, level: u32) -> Extent3d {
        Extent3d {
            width: level_dim(self.width, level),
            height: level_dim(self.height, level),
            depth: level_dim(self.depth, level),
        }
    }

    /// Number of cubes of a cube or cube array (`layers / 6`), else layers.
    pub const fn array_elements(&self) -> u32 {
        if self.kind.is_cube() {
            self.layers / 6
        } else {
            self.layers
        }
    }

    /// Checks the description, naming the first thing that is impossible.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::invalid_desc(m));
        let k = self.kind;
        let f = self.format;
        for (name, v) in [
            ("width", self.width),
            ("height", self.height),
            ("depth", self.depth),
        ] {
            if v == 0 {
                return bad(format!("{name} is 0"));
            }
            if v > MAX_EXTENT {
                return bad(format!("{name} {v} exceeds the maximum {MAX_EXTENT}"));
            }
        }
        if k.dimensions() == 1 && self.height != 1 {
            return bad(format!("{k} texture with height {}", self.height));
        }
        if k.dimensions() < 3 && self.depth != 1 {
            return bad(format!("{k} texture with depth {}", self.depth));
        }
        if k.is_cube() && self.width != self.height {
            return bad(format!(
                "cube faces must be square, got {}x{}",
                self.width, self.height
            ));
        }
        if self.layers == 0 {
            return bad("layers is 0".into());
        }
        if self.layers > MAX_LAYERS {
            return bad(format!(
                "{} layers exceed the maximum {MAX_LAYERS}",
                self.layers
            ));
        }
        match k {
            TextureKind::Cube if self.layers != 6 => {
                return bad(format!("a cube has 6 layers (faces), got {}", self.layers))
            }
            TextureKind::CubeArray if !self.layers.is_multiple_of(6) => {
                return bad(format!(
                    "a cube array has 6n layers (faces), got {}",
                    self.layers
                ))
            }
            TextureKind::D1 | TextureKind::D2 | TextureKind::D3 | TextureKind::D2Ms
                if self.layers != 1 =>
            {
                return bad(format!("a {k} texture has 1 layer, got {}", self.layers))
            }
            _ => {}
        }
        if k.is_multisample() {
            if !matches!(self.samples, 1 | 2 | 4 | 8 | 16) {
                return bad(format!(
                    "sample count {} is not 1, 2, 4, 8 or 16",
                    self.samples
                ));
            }
            if self.levels != 1 {
                return bad(format!(
                    "multisample textures have 1 level, got {}",
                    self.levels
                ));
            }
            if f.is_compressed() {
                return bad(format!("{f} cannot be multisampled"));
            }
        } else if self.samples != 1 {
            return bad(format!("a {k} texture has 1 sample, got {}", self.samples));
        }
        if self.levels == 0 {
            return bad("levels is 0".into());
        }
        if self.levels > self.max_levels() {
            return bad(format!(
                "{} levels exceed the full chain of {} for {}x{}x{}",
                self.levels,
                self.max_levels(),
                self.width,
                self.height,
                self.depth
            ));
        }
        if self.no_mipmap && (k != TextureKind::D2 || self.levels != 1) {
            return bad("no_mipmap is only for 2D textures with one level".into());
        }
        if f.is_compressed() && k.dimensions() == 1 {
            return bad(format!("{f} is block-compressed and cannot be 1D"));
        }
        if self.total_bytes().is_none_or(|b| b > MAX_BYTES) {
            return bad(format!("texture larger than {MAX_BYTES} bytes"));
        }
        Ok(())
    }

    /// Bytes of one level's subresource (one layer, one sample), tightly
    /// packed in whole blocks.
    pub fn level_bytes(&self, level: u32) -> Option<u64> {
        let e = self.level_extent(level);
        self.format.image_bytes(e.width, e.height, e.depth)
    }

    /// Bytes of the whole texture, tightly packed in the probe order
    /// (level, layer, sample, z, y, x); `None` on overflow.
    pub fn total_bytes(&self) -> Option<u64> {
        let mut total: u64 = 0;
        for l in 0..self.levels.min(32) {
            let per = self
                .level_bytes(l)?
                .checked_mul(self.layers as u64)?
                .checked_mul(self.samples as u64)?;
            total = total.checked_add(per)?;
        }
        Some(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TextureFormat as F;

    fn chain(d: &TextureDesc) -> Vec<(u32, u32, u32)> {
        (0..d.levels)
            .map(|l| {
                let e = d.level_extent(l);
                (e.width, e.height, e.depth)
            })
            .collect()
    }

    // `seed_003` in the name: PTX ISA 9.7.10.2, "Mipmaps" (docs/semantics.md
    // §9).
    #[test]
    fn npot_mip_chains_follow_seed_003() {
        assert_eq!(
            chain(&TextureDesc::d2(F::Rgba8Unorm, 5, 3)),
            [(5, 3, 1), (2, 1, 1), (1, 1, 1)]
        );
        assert_eq!(
            chain(&TextureDesc::d1(F::R8Unorm, 7)),
            [(7, 1, 1), (3, 1, 1), (1, 1, 1)]
        );
        assert_eq!(
            chain(&TextureDesc::d3(F::Rgba8Unorm, 8, 4, 2)),
            [(8, 4, 2), (4, 2, 1), (2, 1, 1), (1, 1, 1)]
        );
        assert_eq!(full_mip_count(256, 256, 1), 9);
        assert_eq!(full_mip_count(1, 1, 1), 1);
    }

    #[test]
    fn impossible_descriptions_are_rejected() {
        let ok = TextureDesc::d2(F::Rgba8Unorm, 16, 16);
        ok.validate().unwrap();
        assert!(ok.with_levels(6).validate().is_err());
        assert!(TextureDesc { width: 0, ..ok }.validate().is_err());
        let mut cube = TextureDesc::cube(F::Rgba8Unorm, 8);
        cube.validate().unwrap();
        cube.height = 4;
        assert!(cube.validate().is_err());
        assert!(TextureDesc::cube(F::Rgba8Unorm, 8)
            .with_layers(TextureKind::CubeArray, 8)
            .validate()
            .is_err());
        TextureDesc::cube(F::Rgba8Unorm, 8)
            .with_layers(TextureKind::CubeArray, 12)
            .validate()
            .unwrap();
        assert!(TextureDesc::d2_ms(F::Rgba8Unorm, 4, 4, 3)
            .validate()
            .is_err());
        TextureDesc::d2_ms(F::Rgba8Unorm, 4, 4, 16)
            .validate()
            .unwrap();
        assert!(TextureDesc::d2_ms(F::Bc1RgbUnorm, 4, 4, 4)
            .validate()
            .is_err());
        assert!(TextureDesc { samples: 4, ..ok }.validate().is_err());
        assert!(TextureDesc { depth: 2, ..ok }.validate().is_err());
        assert!(TextureDesc::d1(F::Bc1RgbUnorm, 8).validate().is_err());
        assert!(TextureDesc {
            no_mipmap: true,
            ..ok
        }
        .validate()
        .is_err());
        TextureDesc::d2_no_mipmap(F::Rgba8Unorm, 7, 3)
            .validate()
            .unwrap();
        assert!(TextureDesc::d2(F::Rgba32Float, MAX_EXTENT, MAX_EXTENT)
            .validate()
            .is_err());
    }

    #[test]
    fn compressed_levels_are_whole_blocks() {
        let d = TextureDesc::d2(F::Bc7Unorm, 5, 3);
        assert_eq!(d.level_bytes(0), Some(2 * 16));
        assert_eq!(d.level_bytes(1), Some(16));
        assert_eq!(d.level_bytes(2), Some(16));
        assert_eq!(d.total_bytes(), Some(64));
    }

    #[test]
    fn kinds_parse_from_probe_names() {
        for k in TextureKind::ALL {
            assert_eq!(k.name().parse::<TextureKind>().unwrap(), k);
        }
        assert!("2darray".parse::<TextureKind>().is_err());
    }
}
