//! Texture and sampler headers: the view of a texture an instruction reads,
//! and the sampler state it reads it with.
//!
//! These are plain documented structs with a hand-written `Default` (the
//! Vulkan defaults: nearest filtering, repeat, no compare, LOD range
//! [0, 1000]). `validate` rejects the combinations Vulkan forbids
//! (docs/semantics.md §4, "Unnormalized coordinates"; linear filtering of
//! non-filterable formats; view ranges outside the texture) with a typed
//! error. Sampling never validates: it trusts a validated header and gives
//! defined results for every lane input.

use std::sync::Arc;

use quadtex_format::{Texture, TextureFormat, TextureKind};

use crate::error::{Error, Result};

/// A texel filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Filter {
    /// The nearest texel.
    #[default]
    Nearest,
    /// Bilinear (trilinear with [`MipmapMode::Linear`]).
    Linear,
}

/// How mip levels are chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MipmapMode {
    /// The view's base level only (GL's non-mipmapped min filters); lambda
    /// still chooses between the magnification and minification filters.
    None,
    /// The nearest level: `ceil(d' + 0.5) - 1` (or the profile's choice).
    #[default]
    Nearest,
    /// Blend the two nearest levels.
    Linear,
}

/// Texel addressing per axis (Vulkan `VkSamplerAddressMode` plus PTX's
/// `clamp_ogl`). The ISAs' numeric codes for it live with their
/// front-ends: [`ptx::addr_mode_code`](crate::isa::ptx::addr_mode_code)
/// and [`sass::tsc_address_code`](crate::isa::sass::tsc_address_code).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AddressMode {
    /// Wrap: `i mod size`.
    #[default]
    Repeat,
    /// Mirror every other repetition.
    MirroredRepeat,
    /// Clamp to the edge texel.
    ClampToEdge,
    /// Texels outside read the border colour.
    ClampToBorder,
    /// Mirror once, then clamp to the edge.
    MirrorClampToEdge,
    /// The legacy `GL_CLAMP` (PTX `clamp_ogl`): the coordinate is clamped to
    /// [0, size], so the edge blends half with the border colour.
    ClampOgl,
}

impl AddressMode {
    /// The probe / Vulkan spelling: `repeat`, `mirrored_repeat`, ...
    pub const fn name(self) -> &'static str {
        match self {
            AddressMode::Repeat => "repeat",
            AddressMode::MirroredRepeat => "mirrored_repeat",
            AddressMode::ClampToEdge => "clamp_to_edge",
            AddressMode::ClampToBorder => "clamp_to_border",
            AddressMode::MirrorClampToEdge => "mirror_clamp_to_edge",
            AddressMode::ClampOgl => "clamp_ogl",
        }
    }

    /// Parses [`AddressMode::name`].
    pub fn from_name(s: &str) -> Option<AddressMode> {
        [
            AddressMode::Repeat,
            AddressMode::MirroredRepeat,
            AddressMode::ClampToEdge,
            AddressMode::ClampToBorder,
            AddressMode::MirrorClampToEdge,
            AddressMode::ClampOgl,
        ]
        .into_iter()
        .find(|m| m.name() == s)
    }
}

/// A depth-compare operation, in `VkCompareOp` (= NVIDIA TSC
/// `DEPTH_COMPARE_FUNC`) order. The reference is the left operand:
/// `Less` passes when `Dref < D`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    /// Never passes.
    Never,
    /// `Dref < D`.
    Less,
    /// `Dref == D`.
    Equal,
    /// `Dref <= D`.
    LessOrEqual,
    /// `Dref > D`.
    Greater,
    /// `Dref != D`.
    NotEqual,
    /// `Dref >= D`.
    GreaterOrEqual,
    /// Always passes.
    Always,
}

impl CompareOp {
    /// The probe spelling: `never`, `less`, `equal`, `lequal`, `greater`,
    /// `notequal`, `gequal`, `always`.
    pub const fn name(self) -> &'static str {
        match self {
            CompareOp::Never => "never",
            CompareOp::Less => "less",
            CompareOp::Equal => "equal",
            CompareOp::LessOrEqual => "lequal",
            CompareOp::Greater => "greater",
            CompareOp::NotEqual => "notequal",
            CompareOp::GreaterOrEqual => "gequal",
            CompareOp::Always => "always",
        }
    }

    /// Parses [`CompareOp::name`].
    pub fn from_name(s: &str) -> Option<CompareOp> {
        [
            CompareOp::Never,
            CompareOp::Less,
            CompareOp::Equal,
            CompareOp::LessOrEqual,
            CompareOp::Greater,
            CompareOp::NotEqual,
            CompareOp::GreaterOrEqual,
            CompareOp::Always,
        ]
        .into_iter()
        .find(|m| m.name() == s)
    }

    /// `op(dref, d)` (Vulkan "Depth Compare Operation"). NaN compares false
    /// except for `NotEqual` and `Always`, as IEEE comparisons do.
    #[inline]
    pub fn test(self, dref: f32, d: f32) -> bool {
        match self {
            CompareOp::Never => false,
            CompareOp::Less => dref < d,
            CompareOp::Equal => dref == d,
            CompareOp::LessOrEqual => dref <= d,
            CompareOp::Greater => dref > d,
            CompareOp::NotEqual => dref != d,
            CompareOp::GreaterOrEqual => dref >= d,
            CompareOp::Always => true,
        }
    }
}

/// The border colour of `ClampToBorder` (and `ClampOgl`) texels.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum BorderColor {
    /// (0, 0, 0, 0) as floats.
    #[default]
    FloatTransparentBlack,
    /// (0, 0, 0, 1) as floats.
    FloatOpaqueBlack,
    /// (1, 1, 1, 1) as floats.
    FloatOpaqueWhite,
    /// (0, 0, 0, 0) as integers.
    IntTransparentBlack,
    /// (0, 0, 0, 1) as integers.
    IntOpaqueBlack,
    /// (1, 1, 1, 1) as integers.
    IntOpaqueWhite,
    /// A custom float colour.
    Float([f32; 4]),
    /// A custom integer colour (register words; signed values as bits).
    Int([u32; 4]),
}

impl BorderColor {
    /// The colour as floats (integer colours converted by value).
    pub fn as_f32(self) -> [f32; 4] {
        match self {
            BorderColor::FloatTransparentBlack | BorderColor::IntTransparentBlack => [0.0; 4],
            BorderColor::FloatOpaqueBlack | BorderColor::IntOpaqueBlack => [0.0, 0.0, 0.0, 1.0],
            BorderColor::FloatOpaqueWhite | BorderColor::IntOpaqueWhite => [1.0; 4],
            BorderColor::Float(c) => c,
            BorderColor::Int(c) => c.map(|v| v as i32 as f32),
        }
    }

    /// The colour as register words for an integer format.
    pub fn as_bits(self) -> [u32; 4] {
        match self {
            BorderColor::FloatTransparentBlack | BorderColor::IntTransparentBlack => [0; 4],
            BorderColor::FloatOpaqueBlack | BorderColor::IntOpaqueBlack => [0, 0, 0, 1],
            BorderColor::FloatOpaqueWhite | BorderColor::IntOpaqueWhite => [1; 4],
            BorderColor::Float(c) => c.map(|v| v as i32 as u32),
            BorderColor::Int(c) => c,
        }
    }
}

/// Min/max reduction (`VK_EXT_sampler_filter_minmax`): how the texels of a
/// filter footprint combine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ReductionMode {
    /// The weighted average (ordinary filtering).
    #[default]
    WeightedAverage,
    /// Component-wise minimum of the texels with non-zero weight.
    Min,
    /// Component-wise maximum of the texels with non-zero weight.
    Max,
}

/// One component of a view swizzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Swizzle {
    /// Red.
    R,
    /// Green.
    G,
    /// Blue.
    B,
    /// Alpha.
    A,
    /// Constant 0.
    Zero,
    /// Constant 1 (1.0, or integer 1 for integer formats).
    One,
}

impl Swizzle {
    /// The identity swizzle `rgba`.
    pub const IDENTITY: [Swizzle; 4] = [Swizzle::R, Swizzle::G, Swizzle::B, Swizzle::A];

    /// Parses four characters from `r g b a 0 1`.
    pub fn parse4(s: &str) -> Option<[Swizzle; 4]> {
        let c: Vec<Swizzle> = s
            .chars()
            .map(|c| match c {
                'r' | 'R' => Some(Swizzle::R),
                'g' | 'G' => Some(Swizzle::G),
                'b' | 'B' => Some(Swizzle::B),
                'a' | 'A' => Some(Swizzle::A),
                '0' => Some(Swizzle::Zero),
                '1' => Some(Swizzle::One),
                _ => None,
            })
            .collect::<Option<_>>()?;
        c.try_into().ok()
    }
}

/// NVIDIA TIC texture header types (`TEXTURE_TYPE`), the `paramA`
/// geometry an instruction's header must match (the SASS TLD4 reference;
/// docs/semantics.md §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeaderType {
    /// `ONE_D` = 0.
    OneD,
    /// `TWO_D` = 1.
    TwoD,
    /// `THREE_D` = 2.
    ThreeD,
    /// `CUBEMAP` = 3.
    Cube,
    /// `ONE_D_ARRAY` = 4.
    OneDArray,
    /// `TWO_D_ARRAY` = 5.
    TwoDArray,
    /// `TWO_D_NO_MIPMAP` = 7: TLD4 behaves as TEX (the SASS TLD4 reference).
    TwoDNoMipmap,
    /// `CUBEMAP_ARRAY` = 8.
    CubeArray,
}

impl HeaderType {
    /// The TIC `TEXTURE_TYPE` code.
    pub const fn code(self) -> u32 {
        match self {
            HeaderType::OneD => 0,
            HeaderType::TwoD => 1,
            HeaderType::ThreeD => 2,
            HeaderType::Cube => 3,
            HeaderType::OneDArray => 4,
            HeaderType::TwoDArray => 5,
            HeaderType::TwoDNoMipmap => 7,
            HeaderType::CubeArray => 8,
        }
    }
}

/// A view of a texture: what an instruction's handle names.
#[derive(Clone, Debug)]
pub struct TextureHeader {
    /// The texture viewed.
    pub texture: Arc<Texture>,
    /// The view's geometry (a 2D view of one layer of a 2D array, a cube
    /// view of six layers, ...). Multisample views read multisample kinds.
    pub kind: TextureKind,
    /// The first level of the view (`level_base`).
    pub base_level: u32,
    /// Levels in the view.
    pub level_count: u32,
    /// The first layer of the view (cube faces count as layers).
    pub base_layer: u32,
    /// Layers in the view (6 per cube).
    pub layer_count: u32,
    /// Component swizzle applied after filtering.
    pub swizzle: [Swizzle; 4],
    /// The header's minimum LOD clamp (TIC `MIN_LOD_CLAMP`; Vulkan
    /// `VK_EXT_image_view_min_lod`), relative to the view's base.
    pub min_lod_clamp: f32,
    /// Decode sRGB formats to linear (off reads the raw UNORM values).
    pub srgb_decode: bool,
}

impl TextureHeader {
    /// A view of the whole texture with its own kind, identity swizzle.
    pub fn new(texture: Arc<Texture>) -> TextureHeader {
        let d = *texture.desc();
        TextureHeader {
            texture,
            kind: d.kind,
            base_level: 0,
            level_count: d.levels,
            base_layer: 0,
            layer_count: d.layers,
            swizzle: Swizzle::IDENTITY,
            min_lod_clamp: 0.0,
            srgb_decode: true,
        }
    }

    /// The format as the view reads it (sRGB decode off gives the UNORM twin).
    pub fn format(&self) -> TextureFormat {
        let f = self.texture.format();
        if self.srgb_decode {
            f
        } else {
            f.linear_twin()
        }
    }

    /// The TIC header type of the view.
    pub fn header_type(&self) -> Option<HeaderType> {
        Some(match self.kind {
            TextureKind::D1 => HeaderType::OneD,
            TextureKind::D2 if self.texture.desc().no_mipmap => HeaderType::TwoDNoMipmap,
            TextureKind::D2 => HeaderType::TwoD,
            TextureKind::D3 => HeaderType::ThreeD,
            TextureKind::Cube => HeaderType::Cube,
            TextureKind::D1Array => HeaderType::OneDArray,
            TextureKind::D2Array => HeaderType::TwoDArray,
            TextureKind::CubeArray => HeaderType::CubeArray,
            TextureKind::D2Ms | TextureKind::D2MsArray => return None,
        })
    }

    /// Checks the view against its texture (Vulkan image view rules).
    pub fn validate(&self) -> Result<()> {
        let d = self.texture.desc();
        let bad = |m: String| Err(Error::invalid_header(m));
        if self.level_count == 0
            || self
                .base_level
                .checked_add(self.level_count)
                .is_none_or(|e| e > d.levels)
        {
            return bad(format!(
                "levels {}..+{} outside the texture's {}",
                self.base_level, self.level_count, d.levels
            ));
        }
        if self.layer_count == 0
            || self
                .base_layer
                .checked_add(self.layer_count)
                .is_none_or(|e| e > d.layers)
        {
            return bad(format!(
                "layers {}..+{} outside the texture's {}",
                self.base_layer, self.layer_count, d.layers
            ));
        }
        use TextureKind as K;
        let ok = match (d.kind, self.kind) {
            (a, b) if a == b => true,
            (K::D1 | K::D1Array, K::D1 | K::D1Array) => true,
            (K::D2 | K::D2Array | K::Cube | K::CubeArray, K::D2 | K::D2Array) => true,
            (K::Cube | K::CubeArray | K::D2Array, K::Cube | K::CubeArray) => d.width == d.height,
            (K::D2Ms | K::D2MsArray, K::D2Ms | K::D2MsArray) => true,
            _ => false,
        };
        if !ok {
            return bad(format!("a {} view of a {} texture", self.kind, d.kind));
        }
        let single = matches!(self.kind, K::D1 | K::D2 | K::D3 | K::D2Ms);
        if single && self.layer_count != 1 {
            return bad(format!(
                "a {} view has 1 layer, got {}",
                self.kind, self.layer_count
            ));
        }
        if self.kind == K::Cube && self.layer_count != 6 {
            return bad(format!(
                "a cube view has 6 layers, got {}",
                self.layer_count
            ));
        }
        if self.kind == K::CubeArray && !self.layer_count.is_multiple_of(6) {
            return bad(format!(
                "a cube array view has 6n layers, got {}",
                self.layer_count
            ));
        }
        if self.min_lod_clamp.is_nan() || self.min_lod_clamp < 0.0 {
            return bad(format!("min_lod_clamp {} is not >= 0", self.min_lod_clamp));
        }
        Ok(())
    }
}

/// Sampler state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerHeader {
    /// Filter when lambda <= 0.
    pub mag_filter: Filter,
    /// Filter when lambda > 0.
    pub min_filter: Filter,
    /// Level selection.
    pub mipmap_mode: MipmapMode,
    /// Address mode of s, t and r.
    pub address: [AddressMode; 3],
    /// Border colour.
    pub border_color: BorderColor,
    /// Added to lambda (clamped with the shader bias to the profile's
    /// maximum).
    pub mip_lod_bias: f32,
    /// Lower LOD clamp.
    pub min_lod: f32,
    /// Upper LOD clamp.
    pub max_lod: f32,
    /// Maximum anisotropy; 1 turns anisotropic filtering off. Values above
    /// the implementation's limit ([`MAX_ANISOTROPY`](crate::profile::MAX_ANISOTROPY),
    /// 16) sample as 16, as Vulkan clamps to `maxSamplerAnisotropy`.
    pub max_anisotropy: f32,
    /// Depth compare, or none.
    pub compare: Option<CompareOp>,
    /// Coordinates are in texels (`unnormalizedCoordinates`).
    pub unnormalized: bool,
    /// Filter across cube edges and corners (Vulkan's default); off wraps
    /// per face with the address modes.
    pub seamless_cube: bool,
    /// Min/max reduction.
    pub reduction: ReductionMode,
}

impl Default for SamplerHeader {
    fn default() -> Self {
        SamplerHeader {
            mag_filter: Filter::Nearest,
            min_filter: Filter::Nearest,
            mipmap_mode: MipmapMode::Nearest,
            address: [AddressMode::Repeat; 3],
            border_color: BorderColor::FloatTransparentBlack,
            mip_lod_bias: 0.0,
            min_lod: 0.0,
            max_lod: 1000.0,
            max_anisotropy: 1.0,
            compare: None,
            unnormalized: false,
            seamless_cube: true,
            reduction: ReductionMode::WeightedAverage,
        }
    }
}

impl SamplerHeader {
    /// Nearest filtering and nearest mipmapping with `address` on every
    /// axis (Vulkan `VK_FILTER_NEAREST`, `VK_SAMPLER_MIPMAP_MODE_NEAREST`;
    /// GL `NEAREST_MIPMAP_NEAREST`).
    pub fn nearest(address: AddressMode) -> SamplerHeader {
        SamplerHeader {
            address: [address; 3],
            ..Default::default()
        }
    }

    /// Bilinear filtering in the nearest level with `address` on every
    /// axis (GL `LINEAR_MIPMAP_NEAREST`).
    pub fn bilinear(address: AddressMode) -> SamplerHeader {
        SamplerHeader {
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            mipmap_mode: MipmapMode::Nearest,
            address: [address; 3],
            ..Default::default()
        }
    }

    /// Trilinear filtering with `address` on every axis.
    pub fn trilinear(address: AddressMode) -> SamplerHeader {
        SamplerHeader {
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            mipmap_mode: MipmapMode::Linear,
            address: [address; 3],
            ..Default::default()
        }
    }

    /// Checks the sampler alone (Vulkan `VkSamplerCreateInfo` rules).
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::invalid_sampler(m));
        for (n, v) in [
            ("mip_lod_bias", self.mip_lod_bias),
            ("min_lod", self.min_lod),
            ("max_lod", self.max_lod),
        ] {
            if v.is_nan() {
                return bad(format!("{n} is NaN"));
            }
        }
        // min_lod > max_lod is invalid in Vulkan but defined in GL and here:
        // lambda = max(min(lambda', max_lod), min_lod), so min_lod wins.
        if self.max_anisotropy.is_nan() || self.max_anisotropy < 1.0 {
            return bad(format!(
                "max_anisotropy {} is not >= 1",
                self.max_anisotropy
            ));
        }
        if self.unnormalized {
            // VUIDs 01072-01077.
            if self.min_filter != self.mag_filter {
                return bad("unnormalized coordinates need min_filter == mag_filter".into());
            }
            // Vulkan also asks for mipmap NEAREST and min_lod = max_lod = 0;
            // here unnormalized coordinates always read the view's base
            // level (as GL rectangle textures do), so those fields are moot.
            if self.address[..2].iter().any(|a| {
                !matches!(
                    a,
                    AddressMode::ClampToEdge | AddressMode::ClampToBorder | AddressMode::ClampOgl
                )
            }) {
                return bad(
                    "unnormalized coordinates need clamp_to_edge or clamp_to_border".into(),
                );
            }
            if self.max_anisotropy > 1.0 {
                return bad("unnormalized coordinates cannot be anisotropic".into());
            }
            if self.compare.is_some() {
                return bad("unnormalized coordinates cannot compare".into());
            }
        }
        Ok(())
    }

    /// Checks the sampler against the view it reads.
    pub fn validate_with(&self, view: &TextureHeader) -> Result<()> {
        self.validate()?;
        view.validate()?;
        let f = view.format();
        let linear = self.mag_filter == Filter::Linear
            || self.min_filter == Filter::Linear
            || self.mipmap_mode == MipmapMode::Linear
            || self.max_anisotropy > 1.0;
        if linear && self.compare.is_none() && !f.is_filterable() {
            return Err(Error::invalid_sampler(format!(
                "{f} is not filterable: linear filtering is not allowed"
            )));
        }
        if self.compare.is_some() && !f.has_depth() {
            return Err(Error::invalid_sampler(format!(
                "depth compare needs a depth format, got {f}"
            )));
        }
        if self.unnormalized {
            use TextureKind as K;
            if !matches!(view.kind, K::D1 | K::D2) {
                return Err(Error::invalid_sampler(
                    "unnormalized coordinates need a 1D or 2D view",
                ));
            }
        }
        if view.kind.is_multisample() {
            return Err(Error::invalid_sampler(
                "multisample views are read with fetch, not sampled",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The three named samplers are GL's `NEAREST_MIPMAP_NEAREST`,
    /// `LINEAR_MIPMAP_NEAREST` and `LINEAR_MIPMAP_LINEAR`, with the
    /// address mode on every axis and the defaults elsewhere.
    #[test]
    fn named_samplers_set_the_filters_and_address_modes() {
        let a = AddressMode::MirroredRepeat;
        let n = SamplerHeader::nearest(a);
        let b = SamplerHeader::bilinear(a);
        let t = SamplerHeader::trilinear(a);
        let filters = |s: &SamplerHeader| (s.mag_filter, s.min_filter, s.mipmap_mode);
        assert_eq!(
            filters(&n),
            (Filter::Nearest, Filter::Nearest, MipmapMode::Nearest)
        );
        assert_eq!(
            filters(&b),
            (Filter::Linear, Filter::Linear, MipmapMode::Nearest)
        );
        assert_eq!(
            filters(&t),
            (Filter::Linear, Filter::Linear, MipmapMode::Linear)
        );
        for s in [n, b, t] {
            assert_eq!(s.address, [a; 3]);
            assert_eq!(s.max_anisotropy, 1.0);
            assert!(s.compare.is_none());
            assert!(s.validate().is_ok());
        }
    }
}
