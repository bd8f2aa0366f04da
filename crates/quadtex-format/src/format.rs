//! Texture formats and their per-format facts.
//!
//! Every format is one row of the `formats!` table below: its wgpu-style
//! variant name, its Vulkan spelling and its memory layout. All facts (block
//! extent, bytes per block, components, numeric class, bits, sRGB, aspects,
//! filterability, the `txq` channel codes) are `const fn` methods derived from
//! the layout by exhaustive matches, so a new row cannot silently answer a
//! property wrongly. Decoding and encoding of texels live in `texel.rs` and
//! `compressed/`, not here.

use std::fmt;
use std::str::FromStr;

use crate::error::Error;

/// The numeric class of a channel, as the Vulkan format name spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelKind {
    /// Unsigned normalized: `v / (2^n - 1)`.
    Unorm,
    /// Signed normalized: `max(v / (2^(n-1) - 1), -1)`.
    Snorm,
    /// Unsigned integer.
    Uint,
    /// Signed integer.
    Sint,
    /// IEEE float (16 or 32 bits), or the unsigned small floats.
    Float,
    /// sRGB-encoded 8-bit colour (alpha stays linear UNORM).
    Srgb,
}

/// What a shader sees when it reads the format: floats, or integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampleType {
    /// Float results (float, normalized, sRGB, depth and compressed formats).
    Float,
    /// Unsigned integer results (`UINT`, stencil).
    Uint,
    /// Signed integer results (`SINT`).
    Sint,
}

/// The order of an array format's components in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelOrder {
    /// One component: R.
    R,
    /// Two components: R, G.
    Rg,
    /// Three components: R, G, B.
    Rgb,
    /// Four components: R, G, B, A.
    Rgba,
    /// Four components stored B, G, R, A.
    Bgra,
    /// Alpha only.
    A,
}

impl ChannelOrder {
    /// Number of components stored.
    pub const fn count(self) -> u32 {
        match self {
            ChannelOrder::R | ChannelOrder::A => 1,
            ChannelOrder::Rg => 2,
            ChannelOrder::Rgb => 3,
            ChannelOrder::Rgba | ChannelOrder::Bgra => 4,
        }
    }
}

/// The depth representation of a depth or depth/stencil format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepthKind {
    /// 16-bit unsigned normalized depth.
    Unorm16,
    /// 24-bit unsigned normalized depth in the low 24 bits of a 32-bit word.
    Unorm24,
    /// 32-bit float depth.
    Float32,
}

/// Block-compressed families and their variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// BC1 (DXT1). `alpha`: the RGBA variant, whose three-colour mode makes
    /// index 3 transparent black.
    Bc1 {
        /// RGBA (punch-through alpha) rather than RGB.
        alpha: bool,
    },
    /// BC2 (DXT3): explicit 4-bit alpha.
    Bc2,
    /// BC3 (DXT5): interpolated alpha.
    Bc3,
    /// BC4: one channel.
    Bc4,
    /// BC5: two channels.
    Bc5,
    /// BC6H: half-float RGB.
    Bc6h,
    /// BC7.
    Bc7,
    /// ETC2 RGB8.
    Etc2Rgb8,
    /// ETC2 RGB8 with punch-through alpha.
    Etc2Rgb8A1,
    /// ETC2 RGBA8 (EAC alpha).
    Etc2Rgba8,
    /// EAC R11.
    EacR11,
    /// EAC R11G11.
    EacRg11,
    /// ASTC LDR.
    Astc,
}

/// How a format lays its texels out in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormatLayout {
    /// `order.count()` components of `bits` bits each, all of `kind`.
    Array {
        /// Component order in memory.
        order: ChannelOrder,
        /// Bits per component: 8, 16 or 32.
        bits: u8,
        /// Numeric class.
        kind: ChannelKind,
    },
    /// Components packed in one little-endian word of `word_bits` bits;
    /// `fields[c] = (shift, width)` for output component c (R, G, B, A),
    /// width 0 for a missing component.
    Packed {
        /// Size of the packed word: 16 or 32.
        word_bits: u8,
        /// `(shift, width)` of R, G, B and A.
        fields: [(u8, u8); 4],
        /// Numeric class of every field.
        kind: ChannelKind,
    },
    /// `B10G11R11_UFLOAT_PACK32`: R 11 bits at 0, G 11 at 11, B 10 at 22.
    B10G11R11Ufloat,
    /// `E5B9G9R9_UFLOAT_PACK32`: 9-bit mantissas, shared 5-bit exponent.
    E5B9G9R9Ufloat,
    /// A depth aspect, optionally with stencil. `bytes` per texel.
    DepthStencil {
        /// The depth representation, or `None` for stencil only.
        depth: Option<DepthKind>,
        /// Whether an 8-bit stencil aspect is present.
        stencil: bool,
        /// Bytes per texel.
        bytes: u8,
    },
    /// A block-compressed format.
    Block {
        /// The family.
        kind: BlockKind,
        /// Block width in texels.
        w: u8,
        /// Block height in texels.
        h: u8,
        /// Bytes per block.
        bytes: u8,
        /// Numeric class of the decoded values.
        class: ChannelKind,
    },
}

/// An image aspect: what part of a depth/stencil texel is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Aspect {
    /// Colour formats (and the default for everything else).
    Color,
    /// The depth aspect of a depth or depth/stencil format.
    Depth,
    /// The stencil aspect of a stencil or depth/stencil format.
    Stencil,
}

const fn arr(order: ChannelOrder, bits: u8, kind: ChannelKind) -> FormatLayout {
    FormatLayout::Array { order, bits, kind }
}
const fn packed(word_bits: u8, fields: [(u8, u8); 4], kind: ChannelKind) -> FormatLayout {
    FormatLayout::Packed {
        word_bits,
        fields,
        kind,
    }
}
const fn ds(depth: Option<DepthKind>, stencil: bool, bytes: u8) -> FormatLayout {
    FormatLayout::DepthStencil {
        depth,
        stencil,
        bytes,
    }
}
const fn blk(kind: BlockKind, bytes: u8, class: ChannelKind) -> FormatLayout {
    FormatLayout::Block {
        kind,
        w: 4,
        h: 4,
        bytes,
        class,
    }
}
const fn astc(w: u8, h: u8, class: ChannelKind) -> FormatLayout {
    FormatLayout::Block {
        kind: BlockKind::Astc,
        w,
        h,
        bytes: 16,
        class,
    }
}

macro_rules! formats {
    ($( $v:ident = $vk:literal => $layout:expr; )*) => {
        /// A texture format. Variants read channels-bits-kind, wgpu style;
        /// [`TextureFormat::vulkan_name`] and [`FromStr`] use the Vulkan
        /// spelling without its `VK_FORMAT_` prefix.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum TextureFormat {
            $(
                #[doc = concat!("`VK_FORMAT_", $vk, "`.")]
                $v,
            )*
        }

        impl TextureFormat {
            /// Every format, in table order.
            pub const ALL: &'static [TextureFormat] = &[$(TextureFormat::$v),*];

            /// The Vulkan name without the `VK_FORMAT_` prefix, e.g. `R8G8B8A8_UNORM`.
            pub const fn vulkan_name(self) -> &'static str {
                match self { $(TextureFormat::$v => $vk,)* }
            }

            /// How the format lays texels out in memory.
            pub const fn layout(self) -> FormatLayout {
                use ChannelKind::*;
                use ChannelOrder::*;
                match self { $(TextureFormat::$v => $layout,)* }
            }
        }
    };
}

formats! {
    R8Unorm = "R8_UNORM" => arr(R, 8, Unorm);
    R8Snorm = "R8_SNORM" => arr(R, 8, Snorm);
    R8Uint = "R8_UINT" => arr(R, 8, Uint);
    R8Sint = "R8_SINT" => arr(R, 8, Sint);
    R8Srgb = "R8_SRGB" => arr(R, 8, Srgb);
    Rg8Unorm = "R8G8_UNORM" => arr(Rg, 8, Unorm);
    Rg8Snorm = "R8G8_SNORM" => arr(Rg, 8, Snorm);
    Rg8Uint = "R8G8_UINT" => arr(Rg, 8, Uint);
    Rg8Sint = "R8G8_SINT" => arr(Rg, 8, Sint);
    Rg8Srgb = "R8G8_SRGB" => arr(Rg, 8, Srgb);
    Rgba8Unorm = "R8G8B8A8_UNORM" => arr(Rgba, 8, Unorm);
    Rgba8Snorm = "R8G8B8A8_SNORM" => arr(Rgba, 8, Snorm);
    Rgba8Uint = "R8G8B8A8_UINT" => arr(Rgba, 8, Uint);
    Rgba8Sint = "R8G8B8A8_SINT" => arr(Rgba, 8, Sint);
    Rgba8Srgb = "R8G8B8A8_SRGB" => arr(Rgba, 8, Srgb);
    Bgra8Unorm = "B8G8R8A8_UNORM" => arr(Bgra, 8, Unorm);
    Bgra8Snorm = "B8G8R8A8_SNORM" => arr(Bgra, 8, Snorm);
    Bgra8Uint = "B8G8R8A8_UINT" => arr(Bgra, 8, Uint);
    Bgra8Sint = "B8G8R8A8_SINT" => arr(Bgra, 8, Sint);
    Bgra8Srgb = "B8G8R8A8_SRGB" => arr(Bgra, 8, Srgb);
    R16Unorm = "R16_UNORM" => arr(R, 16, Unorm);
    R16Snorm = "R16_SNORM" => arr(R, 16, Snorm);
    R16Uint = "R16_UINT" => arr(R, 16, Uint);
    R16Sint = "R16_SINT" => arr(R, 16, Sint);
    R16Float = "R16_SFLOAT" => arr(R, 16, Float);
    Rg16Unorm = "R16G16_UNORM" => arr(Rg, 16, Unorm);
    Rg16Snorm = "R16G16_SNORM" => arr(Rg, 16, Snorm);
    Rg16Uint = "R16G16_UINT" => arr(Rg, 16, Uint);
    Rg16Sint = "R16G16_SINT" => arr(Rg, 16, Sint);
    Rg16Float = "R16G16_SFLOAT" => arr(Rg, 16, Float);
    Rgba16Unorm = "R16G16B16A16_UNORM" => arr(Rgba, 16, Unorm);
    Rgba16Snorm = "R16G16B16A16_SNORM" => arr(Rgba, 16, Snorm);
    Rgba16Uint = "R16G16B16A16_UINT" => arr(Rgba, 16, Uint);
    Rgba16Sint = "R16G16B16A16_SINT" => arr(Rgba, 16, Sint);
    Rgba16Float = "R16G16B16A16_SFLOAT" => arr(Rgba, 16, Float);
    R32Uint = "R32_UINT" => arr(R, 32, Uint);
    R32Sint = "R32_SINT" => arr(R, 32, Sint);
    R32Float = "R32_SFLOAT" => arr(R, 32, Float);
    Rg32Uint = "R32G32_UINT" => arr(Rg, 32, Uint);
    Rg32Sint = "R32G32_SINT" => arr(Rg, 32, Sint);
    Rg32Float = "R32G32_SFLOAT" => arr(Rg, 32, Float);
    Rgb32Uint = "R32G32B32_UINT" => arr(Rgb, 32, Uint);
    Rgb32Sint = "R32G32B32_SINT" => arr(Rgb, 32, Sint);
    Rgb32Float = "R32G32B32_SFLOAT" => arr(Rgb, 32, Float);
    Rgba32Uint = "R32G32B32A32_UINT" => arr(Rgba, 32, Uint);
    Rgba32Sint = "R32G32B32A32_SINT" => arr(Rgba, 32, Sint);
    Rgba32Float = "R32G32B32A32_SFLOAT" => arr(Rgba, 32, Float);
    R5g6b5Unorm = "R5G6B5_UNORM_PACK16" => packed(16, [(11, 5), (5, 6), (0, 5), (0, 0)], Unorm);
    B5g6r5Unorm = "B5G6R5_UNORM_PACK16" => packed(16, [(0, 5), (5, 6), (11, 5), (0, 0)], Unorm);
    Rgba4Unorm = "R4G4B4A4_UNORM_PACK16" => packed(16, [(12, 4), (8, 4), (4, 4), (0, 4)], Unorm);
    Rgb5a1Unorm = "R5G5B5A1_UNORM_PACK16" => packed(16, [(11, 5), (6, 5), (1, 5), (0, 1)], Unorm);
    A1rgb5Unorm = "A1R5G5B5_UNORM_PACK16" => packed(16, [(10, 5), (5, 5), (0, 5), (15, 1)], Unorm);
    A2bgr10Unorm = "A2B10G10R10_UNORM_PACK32" => packed(32, [(0, 10), (10, 10), (20, 10), (30, 2)], Unorm);
    A2bgr10Uint = "A2B10G10R10_UINT_PACK32" => packed(32, [(0, 10), (10, 10), (20, 10), (30, 2)], Uint);
    A2rgb10Unorm = "A2R10G10B10_UNORM_PACK32" => packed(32, [(20, 10), (10, 10), (0, 10), (30, 2)], Unorm);
    Rg11b10Ufloat = "B10G11R11_UFLOAT_PACK32" => FormatLayout::B10G11R11Ufloat;
    Rgb9e5Ufloat = "E5B9G9R9_UFLOAT_PACK32" => FormatLayout::E5B9G9R9Ufloat;
    A8Unorm = "A8_UNORM" => arr(A, 8, Unorm);
    Depth16Unorm = "D16_UNORM" => ds(Some(DepthKind::Unorm16), false, 2);
    Depth24UnormX8 = "X8_D24_UNORM_PACK32" => ds(Some(DepthKind::Unorm24), false, 4);
    Depth24UnormS8Uint = "D24_UNORM_S8_UINT" => ds(Some(DepthKind::Unorm24), true, 4);
    Depth32Float = "D32_SFLOAT" => ds(Some(DepthKind::Float32), false, 4);
    Depth32FloatS8Uint = "D32_SFLOAT_S8_UINT" => ds(Some(DepthKind::Float32), true, 8);
    Stencil8 = "S8_UINT" => ds(None, true, 1);
    Bc1RgbUnorm = "BC1_RGB_UNORM_BLOCK" => blk(BlockKind::Bc1 { alpha: false }, 8, Unorm);
    Bc1RgbSrgb = "BC1_RGB_SRGB_BLOCK" => blk(BlockKind::Bc1 { alpha: false }, 8, Srgb);
    Bc1RgbaUnorm = "BC1_RGBA_UNORM_BLOCK" => blk(BlockKind::Bc1 { alpha: true }, 8, Unorm);
    Bc1RgbaSrgb = "BC1_RGBA_SRGB_BLOCK" => blk(BlockKind::Bc1 { alpha: true }, 8, Srgb);
    Bc2Unorm = "BC2_UNORM_BLOCK" => blk(BlockKind::Bc2, 16, Unorm);
    Bc2Srgb = "BC2_SRGB_BLOCK" => blk(BlockKind::Bc2, 16, Srgb);
    Bc3Unorm = "BC3_UNORM_BLOCK" => blk(BlockKind::Bc3, 16, Unorm);
    Bc3Srgb = "BC3_SRGB_BLOCK" => blk(BlockKind::Bc3, 16, Srgb);
    Bc4Unorm = "BC4_UNORM_BLOCK" => blk(BlockKind::Bc4, 8, Unorm);
    Bc4Snorm = "BC4_SNORM_BLOCK" => blk(BlockKind::Bc4, 8, Snorm);
    Bc5Unorm = "BC5_UNORM_BLOCK" => blk(BlockKind::Bc5, 16, Unorm);
    Bc5Snorm = "BC5_SNORM_BLOCK" => blk(BlockKind::Bc5, 16, Snorm);
    Bc6hUfloat = "BC6H_UFLOAT_BLOCK" => blk(BlockKind::Bc6h, 16, Float);
    Bc6hSfloat = "BC6H_SFLOAT_BLOCK" => blk(BlockKind::Bc6h, 16, Float);
    Bc7Unorm = "BC7_UNORM_BLOCK" => blk(BlockKind::Bc7, 16, Unorm);
    Bc7Srgb = "BC7_SRGB_BLOCK" => blk(BlockKind::Bc7, 16, Srgb);
    Etc2Rgb8Unorm = "ETC2_R8G8B8_UNORM_BLOCK" => blk(BlockKind::Etc2Rgb8, 8, Unorm);
    Etc2Rgb8Srgb = "ETC2_R8G8B8_SRGB_BLOCK" => blk(BlockKind::Etc2Rgb8, 8, Srgb);
    Etc2Rgb8A1Unorm = "ETC2_R8G8B8A1_UNORM_BLOCK" => blk(BlockKind::Etc2Rgb8A1, 8, Unorm);
    Etc2Rgb8A1Srgb = "ETC2_R8G8B8A1_SRGB_BLOCK" => blk(BlockKind::Etc2Rgb8A1, 8, Srgb);
    Etc2Rgba8Unorm = "ETC2_R8G8B8A8_UNORM_BLOCK" => blk(BlockKind::Etc2Rgba8, 16, Unorm);
    Etc2Rgba8Srgb = "ETC2_R8G8B8A8_SRGB_BLOCK" => blk(BlockKind::Etc2Rgba8, 16, Srgb);
    EacR11Unorm = "EAC_R11_UNORM_BLOCK" => blk(BlockKind::EacR11, 8, Unorm);
    EacR11Snorm = "EAC_R11_SNORM_BLOCK" => blk(BlockKind::EacR11, 8, Snorm);
    EacRg11Unorm = "EAC_R11G11_UNORM_BLOCK" => blk(BlockKind::EacRg11, 16, Unorm);
    EacRg11Snorm = "EAC_R11G11_SNORM_BLOCK" => blk(BlockKind::EacRg11, 16, Snorm);
    Astc4x4Unorm = "ASTC_4x4_UNORM_BLOCK" => astc(4, 4, Unorm);
    Astc4x4Srgb = "ASTC_4x4_SRGB_BLOCK" => astc(4, 4, Srgb);
    Astc5x4Unorm = "ASTC_5x4_UNORM_BLOCK" => astc(5, 4, Unorm);
    Astc5x4Srgb = "ASTC_5x4_SRGB_BLOCK" => astc(5, 4, Srgb);
    Astc5x5Unorm = "ASTC_5x5_UNORM_BLOCK" => astc(5, 5, Unorm);
    Astc5x5Srgb = "ASTC_5x5_SRGB_BLOCK" => astc(5, 5, Srgb);
    Astc6x5Unorm = "ASTC_6x5_UNORM_BLOCK" => astc(6, 5, Unorm);
    Astc6x5Srgb = "ASTC_6x5_SRGB_BLOCK" => astc(6, 5, Srgb);
    Astc6x6Unorm = "ASTC_6x6_UNORM_BLOCK" => astc(6, 6, Unorm);
    Astc6x6Srgb = "ASTC_6x6_SRGB_BLOCK" => astc(6, 6, Srgb);
    Astc8x5Unorm = "ASTC_8x5_UNORM_BLOCK" => astc(8, 5, Unorm);
    Astc8x5Srgb = "ASTC_8x5_SRGB_BLOCK" => astc(8, 5, Srgb);
    Astc8x6Unorm = "ASTC_8x6_UNORM_BLOCK" => astc(8, 6, Unorm);
    Astc8x6Srgb = "ASTC_8x6_SRGB_BLOCK" => astc(8, 6, Srgb);
    Astc8x8Unorm = "ASTC_8x8_UNORM_BLOCK" => astc(8, 8, Unorm);
    Astc8x8Srgb = "ASTC_8x8_SRGB_BLOCK" => astc(8, 8, Srgb);
    Astc10x5Unorm = "ASTC_10x5_UNORM_BLOCK" => astc(10, 5, Unorm);
    Astc10x5Srgb = "ASTC_10x5_SRGB_BLOCK" => astc(10, 5, Srgb);
    Astc10x6Unorm = "ASTC_10x6_UNORM_BLOCK" => astc(10, 6, Unorm);
    Astc10x6Srgb = "ASTC_10x6_SRGB_BLOCK" => astc(10, 6, Srgb);
    Astc10x8Unorm = "ASTC_10x8_UNORM_BLOCK" => astc(10, 8, Unorm);
    Astc10x8Srgb = "ASTC_10x8_SRGB_BLOCK" => astc(10, 8, Srgb);
    Astc10x10Unorm = "ASTC_10x10_UNORM_BLOCK" => astc(10, 10, Unorm);
    Astc10x10Srgb = "ASTC_10x10_SRGB_BLOCK" => astc(10, 10, Srgb);
    Astc12x10Unorm = "ASTC_12x10_UNORM_BLOCK" => astc(12, 10, Unorm);
    Astc12x10Srgb = "ASTC_12x10_SRGB_BLOCK" => astc(12, 10, Srgb);
    Astc12x12Unorm = "ASTC_12x12_UNORM_BLOCK" => astc(12, 12, Unorm);
    Astc12x12Srgb = "ASTC_12x12_SRGB_BLOCK" => astc(12, 12, Srgb);
}

impl TextureFormat {
    /// Parses a Vulkan format name, with or without the `VK_FORMAT_` prefix.
    pub fn from_vulkan_name(name: &str) -> Option<TextureFormat> {
        let name = name.strip_prefix("VK_FORMAT_").unwrap_or(name);
        TextureFormat::ALL
            .iter()
            .copied()
            .find(|f| f.vulkan_name().eq_ignore_ascii_case(name))
    }

    /// Block extent in texels: `(1, 1)` for uncompressed formats.
    pub const fn block_extent(self) -> (u32, u32) {
        match self.layout() {
            FormatLayout::Block { w, h, .. } => (w as u32, h as u32),
            FormatLayout::Array { .. }
            | FormatLayout::Packed { .. }
            | FormatLayout::B10G11R11Ufloat
            | FormatLayout::E5B9G9R9Ufloat
            | FormatLayout::DepthStencil { .. } => (1, 1),
        }
    }

    /// Bytes per block (per texel for uncompressed formats).
    pub const fn block_bytes(self) -> u32 {
        match self.layout() {
            FormatLayout::Array { order, bits, .. } => order.count() * bits as u32 / 8,
            FormatLayout::Packed { word_bits, .. } => word_bits as u32 / 8,
            FormatLayout::B10G11R11Ufloat | FormatLayout::E5B9G9R9Ufloat => 4,
            FormatLayout::DepthStencil { bytes, .. } | FormatLayout::Block { bytes, .. } => {
                bytes as u32
            }
        }
    }

    /// Whether the format is block-compressed.
    pub const fn is_compressed(self) -> bool {
        match self.layout() {
            FormatLayout::Block { .. } => true,
            FormatLayout::Array { .. }
            | FormatLayout::Packed { .. }
            | FormatLayout::B10G11R11Ufloat
            | FormatLayout::E5B9G9R9Ufloat
            | FormatLayout::DepthStencil { .. } => false,
        }
    }

    /// Which of R, G, B, A the format stores (for depth/stencil formats: the
    /// depth or stencil value reads as R).
    pub const fn components(self) -> [bool; 4] {
        match self.layout() {
            FormatLayout::Array { order, .. } => match order {
                ChannelOrder::R => [true, false, false, false],
                ChannelOrder::Rg => [true, true, false, false],
                ChannelOrder::Rgb => [true, true, true, false],
                ChannelOrder::Rgba | ChannelOrder::Bgra => [true, true, true, true],
                ChannelOrder::A => [false, false, false, true],
            },
            FormatLayout::Packed { fields, .. } => [
                fields[0].1 > 0,
                fields[1].1 > 0,
                fields[2].1 > 0,
                fields[3].1 > 0,
            ],
            FormatLayout::B10G11R11Ufloat | FormatLayout::E5B9G9R9Ufloat => {
                [true, true, true, false]
            }
            FormatLayout::DepthStencil { .. } => [true, false, false, false],
            FormatLayout::Block { kind, .. } => match kind {
                BlockKind::Bc1 { alpha: false } | BlockKind::Bc6h | BlockKind::Etc2Rgb8 => {
                    [true, true, true, false]
                }
                BlockKind::Bc1 { alpha: true }
                | BlockKind::Bc2
                | BlockKind::Bc3
                | BlockKind::Bc7
                | BlockKind::Etc2Rgb8A1
                | BlockKind::Etc2Rgba8
                | BlockKind::Astc => [true, true, true, true],
                BlockKind::Bc4 | BlockKind::EacR11 => [true, false, false, false],
                BlockKind::Bc5 | BlockKind::EacRg11 => [true, true, false, false],
            },
        }
    }

    /// Number of stored components.
    pub const fn component_count(self) -> u32 {
        let c = self.components();
        c[0] as u32 + c[1] as u32 + c[2] as u32 + c[3] as u32
    }

    /// The numeric class of the colour (or depth) values.
    pub const fn channel_kind(self) -> ChannelKind {
        match self.layout() {
            FormatLayout::Array { kind, .. } | FormatLayout::Packed { kind, .. } => kind,
            FormatLayout::B10G11R11Ufloat | FormatLayout::E5B9G9R9Ufloat => ChannelKind::Float,
            FormatLayout::DepthStencil { depth, .. } => match depth {
                Some(DepthKind::Unorm16) | Some(DepthKind::Unorm24) => ChannelKind::Unorm,
                Some(DepthKind::Float32) => ChannelKind::Float,
                None => ChannelKind::Uint,
            },
            FormatLayout::Block { class, .. } => class,
        }
    }

    /// What a shader reads through the format's default aspect.
    pub const fn sample_type(self) -> SampleType {
        match self.channel_kind() {
            ChannelKind::Uint => SampleType::Uint,
            ChannelKind::Sint => SampleType::Sint,
            ChannelKind::Unorm | ChannelKind::Snorm | ChannelKind::Float | ChannelKind::Srgb => {
                SampleType::Float
            }
        }
    }

    /// What a shader reads through `aspect`.
    pub const fn aspect_sample_type(self, aspect: Aspect) -> SampleType {
        match aspect {
            Aspect::Stencil => SampleType::Uint,
            Aspect::Color | Aspect::Depth => self.sample_type(),
        }
    }

    /// Bits of each stored component, R, G, B, A (0 when absent). For block
    /// formats: the precision of the decoded values.
    pub const fn component_bits(self) -> [u8; 4] {
        let c = self.components();
        let b = match self.layout() {
            FormatLayout::Array { bits, .. } => [bits; 4],
            FormatLayout::Packed { fields, .. } => {
                [fields[0].1, fields[1].1, fields[2].1, fields[3].1]
            }
            FormatLayout::B10G11R11Ufloat => [11, 11, 10, 0],
            FormatLayout::E5B9G9R9Ufloat => [14, 14, 14, 0],
            FormatLayout::DepthStencil { depth, .. } => match depth {
                Some(DepthKind::Unorm16) => [16, 0, 0, 0],
                Some(DepthKind::Unorm24) => [24, 0, 0, 0],
                Some(DepthKind::Float32) => [32, 0, 0, 0],
                None => [8, 0, 0, 0],
            },
            FormatLayout::Block { kind, .. } => match kind {
                BlockKind::Bc1 { .. } => [5, 6, 5, 1],
                BlockKind::Bc2 => [5, 6, 5, 4],
                BlockKind::Bc3 => [5, 6, 5, 8],
                BlockKind::Bc4 | BlockKind::Bc5 => [8; 4],
                BlockKind::Bc6h => [16; 4],
                BlockKind::Bc7 | BlockKind::Etc2Rgb8 | BlockKind::Etc2Rgba8 | BlockKind::Astc => {
                    [8; 4]
                }
                BlockKind::Etc2Rgb8A1 => [8, 8, 8, 1],
                BlockKind::EacR11 | BlockKind::EacRg11 => [11; 4],
            },
        };
        [
            if c[0] { b[0] } else { 0 },
            if c[1] { b[1] } else { 0 },
            if c[2] { b[2] } else { 0 },
            if c[3] { b[3] } else { 0 },
        ]
    }

    /// Whether colour values are sRGB-encoded (decoded to linear on read).
    pub const fn is_srgb(self) -> bool {
        match self.channel_kind() {
            ChannelKind::Srgb => true,
            ChannelKind::Unorm
            | ChannelKind::Snorm
            | ChannelKind::Uint
            | ChannelKind::Sint
            | ChannelKind::Float => false,
        }
    }

    /// The format with sRGB decoding removed (the same bits read as UNORM),
    /// or the format itself when it has no sRGB twin.
    pub const fn linear_twin(self) -> TextureFormat {
        use TextureFormat::*;
        match self {
            R8Srgb => R8Unorm,
            Rg8Srgb => Rg8Unorm,
            Rgba8Srgb => Rgba8Unorm,
            Bgra8Srgb => Bgra8Unorm,
            Bc1RgbSrgb => Bc1RgbUnorm,
            Bc1RgbaSrgb => Bc1RgbaUnorm,
            Bc2Srgb => Bc2Unorm,
            Bc3Srgb => Bc3Unorm,
            Bc7Srgb => Bc7Unorm,
            Etc2Rgb8Srgb => Etc2Rgb8Unorm,
            Etc2Rgb8A1Srgb => Etc2Rgb8A1Unorm,
            Etc2Rgba8Srgb => Etc2Rgba8Unorm,
            Astc4x4Srgb => Astc4x4Unorm,
            Astc5x4Srgb => Astc5x4Unorm,
            Astc5x5Srgb => Astc5x5Unorm,
            Astc6x5Srgb => Astc6x5Unorm,
            Astc6x6Srgb => Astc6x6Unorm,
            Astc8x5Srgb => Astc8x5Unorm,
            Astc8x6Srgb => Astc8x6Unorm,
            Astc8x8Srgb => Astc8x8Unorm,
            Astc10x5Srgb => Astc10x5Unorm,
            Astc10x6Srgb => Astc10x6Unorm,
            Astc10x8Srgb => Astc10x8Unorm,
            Astc10x10Srgb => Astc10x10Unorm,
            Astc12x10Srgb => Astc12x10Unorm,
            Astc12x12Srgb => Astc12x12Unorm,
            other => other,
        }
    }

    /// Whether the format has a depth aspect.
    pub const fn has_depth(self) -> bool {
        match self.layout() {
            FormatLayout::DepthStencil { depth, .. } => depth.is_some(),
            FormatLayout::Array { .. }
            | FormatLayout::Packed { .. }
            | FormatLayout::B10G11R11Ufloat
            | FormatLayout::E5B9G9R9Ufloat
            | FormatLayout::Block { .. } => false,
        }
    }

    /// Whether the format has a stencil aspect.
    pub const fn has_stencil(self) -> bool {
        match self.layout() {
            FormatLayout::DepthStencil { stencil, .. } => stencil,
            FormatLayout::Array { .. }
            | FormatLayout::Packed { .. }
            | FormatLayout::B10G11R11Ufloat
            | FormatLayout::E5B9G9R9Ufloat
            | FormatLayout::Block { .. } => false,
        }
    }

    /// Whether `aspect` can be read from this format.
    pub const fn has_aspect(self, aspect: Aspect) -> bool {
        match aspect {
            Aspect::Color => !self.has_depth() && !self.has_stencil(),
            Aspect::Depth => self.has_depth(),
            Aspect::Stencil => self.has_stencil(),
        }
    }

    /// The aspect read when none is named: depth for depth formats, stencil
    /// for `S8_UINT`, colour otherwise.
    pub const fn default_aspect(self) -> Aspect {
        if self.has_depth() {
            Aspect::Depth
        } else if self.has_stencil() {
            Aspect::Stencil
        } else {
            Aspect::Color
        }
    }

    /// Whether linear filtering is allowed (Vulkan's
    /// `SAMPLED_IMAGE_FILTER_LINEAR`): not for integer formats or stencil.
    /// 32-bit floats are filterable here, as on every desktop GPU.
    pub const fn is_filterable(self) -> bool {
        match self.sample_type() {
            SampleType::Float => true,
            SampleType::Uint | SampleType::Sint => false,
        }
    }

    /// Whether the format is a depth (or depth/stencil) format whose depth
    /// is normalized, so that compare references clamp to [0, 1].
    pub const fn is_unorm_depth(self) -> bool {
        match self.layout() {
            FormatLayout::DepthStencil { depth, .. } => {
                matches!(depth, Some(DepthKind::Unorm16) | Some(DepthKind::Unorm24))
            }
            FormatLayout::Array { .. }
            | FormatLayout::Packed { .. }
            | FormatLayout::B10G11R11Ufloat
            | FormatLayout::E5B9G9R9Ufloat
            | FormatLayout::Block { .. } => false,
        }
    }

    /// Bytes needed for a `width x height x depth` image of this format,
    /// in whole blocks; `None` on overflow.
    pub const fn image_bytes(self, width: u32, height: u32, depth: u32) -> Option<u64> {
        let (bw, bh) = self.block_extent();
        let bx = width.div_ceil(bw) as u64;
        let by = height.div_ceil(bh) as u64;
        match bx.checked_mul(by) {
            Some(n) => match n.checked_mul(depth as u64) {
                Some(n) => n.checked_mul(self.block_bytes() as u64),
                None => None,
            },
            None => None,
        }
    }
}

impl fmt::Display for TextureFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.vulkan_name())
    }
}

impl FromStr for TextureFormat {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TextureFormat::from_vulkan_name(s.trim()).ok_or_else(|| Error::unknown_format(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vulkan_names_round_trip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for &f in TextureFormat::ALL {
            assert!(seen.insert(f.vulkan_name()), "duplicate {f}");
            assert_eq!(f.to_string().parse::<TextureFormat>().unwrap(), f);
            assert_eq!(
                TextureFormat::from_vulkan_name(&format!("VK_FORMAT_{}", f.vulkan_name())),
                Some(f)
            );
        }
        assert!("R8G8B8A8_UNROM".parse::<TextureFormat>().is_err());
    }

    #[test]
    fn block_facts_match_vulkan_compatibility_classes() {
        assert_eq!(TextureFormat::Rgba8Unorm.block_bytes(), 4);
        assert_eq!(TextureFormat::Rgb32Float.block_bytes(), 12);
        assert_eq!(TextureFormat::Rgba16Float.block_bytes(), 8);
        assert_eq!(TextureFormat::Depth32FloatS8Uint.block_bytes(), 8);
        assert_eq!(TextureFormat::Bc1RgbaUnorm.block_bytes(), 8);
        assert_eq!(TextureFormat::Bc7Srgb.block_bytes(), 16);
        assert_eq!(TextureFormat::Astc12x10Unorm.block_extent(), (12, 10));
        assert_eq!(TextureFormat::Astc12x10Unorm.block_bytes(), 16);
        assert_eq!(TextureFormat::EacRg11Snorm.block_bytes(), 16);
        assert_eq!(TextureFormat::Etc2Rgb8A1Srgb.block_bytes(), 8);
        assert_eq!(TextureFormat::Bc1RgbUnorm.image_bytes(5, 3, 1), Some(16));
        assert_eq!(
            TextureFormat::Astc10x5Unorm.image_bytes(11, 11, 1),
            Some(16 * 2 * 3)
        );
    }

    #[test]
    fn component_presence_and_kinds() {
        assert_eq!(
            TextureFormat::A8Unorm.components(),
            [false, false, false, true]
        );
        assert_eq!(TextureFormat::R5g6b5Unorm.component_bits(), [5, 6, 5, 0]);
        assert_eq!(TextureFormat::A1rgb5Unorm.component_bits(), [5, 5, 5, 1]);
        assert_eq!(
            TextureFormat::Bc5Snorm.components(),
            [true, true, false, false]
        );
        assert_eq!(TextureFormat::Rgba16Sint.sample_type(), SampleType::Sint);
        assert_eq!(TextureFormat::Stencil8.sample_type(), SampleType::Uint);
        assert!(!TextureFormat::Rgba32Uint.is_filterable());
        assert!(TextureFormat::Bc6hSfloat.is_filterable());
        assert!(TextureFormat::Depth24UnormS8Uint.has_depth());
        assert!(TextureFormat::Depth24UnormS8Uint.has_stencil());
        assert!(TextureFormat::Depth16Unorm.is_unorm_depth());
        assert!(!TextureFormat::Depth32Float.is_unorm_depth());
        assert_eq!(
            TextureFormat::Depth32FloatS8Uint.aspect_sample_type(Aspect::Stencil),
            SampleType::Uint
        );
        assert!(TextureFormat::Astc6x6Srgb.is_srgb());
        assert_eq!(
            TextureFormat::Astc6x6Srgb.linear_twin(),
            TextureFormat::Astc6x6Unorm
        );
    }
}
