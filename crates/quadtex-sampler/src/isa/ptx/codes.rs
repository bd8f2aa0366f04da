//! PTX's own encodings of sampler and format facts, as `txq` reports
//! them (PTX ISA 9.7.10.5): the `.addr_mode_*` values of an
//! [`AddressMode`] ([`addr_mode_code`]) and the `.channel_data_type` /
//! `.channel_order` of a [`TextureFormat`] ([`channel_data_type`],
//! [`channel_order`]) in CUDA's `cudaChannelFormatKind` enumeration
//! ([`cuda_channel_kind`]).

use quadtex_format::format::{BlockKind, ChannelOrder, FormatLayout};
use quadtex_format::{ChannelKind, TextureFormat};

use crate::header::AddressMode;

/// PTX `txq.addr_mode_*` value of `mode`: wrap 0, mirror 1, clamp_ogl 2,
/// clamp_to_edge 3, clamp_to_border 4 (PTX ISA 9.7.10.5, `txq`).
/// Mirror-clamp has no PTX name; it reports mirror.
pub const fn addr_mode_code(mode: AddressMode) -> u32 {
    match mode {
        AddressMode::Repeat => 0,
        AddressMode::MirroredRepeat | AddressMode::MirrorClampToEdge => 1,
        AddressMode::ClampOgl => 2,
        AddressMode::ClampToEdge => 3,
        AddressMode::ClampToBorder => 4,
    }
}

/// CUDA `cudaChannelFormatKind` values, the enumeration `txq` reports for
/// `.channel_data_type` and `.channel_order` (PTX ISA 9.7.10.5, `txq`: when
/// the source language has one enumeration for both, both queries return
/// it).
pub mod cuda_channel_kind {
    /// `cudaChannelFormatKindSigned`.
    pub const SIGNED: u32 = 0;
    /// `cudaChannelFormatKindUnsigned`.
    pub const UNSIGNED: u32 = 1;
    /// `cudaChannelFormatKindFloat`.
    pub const FLOAT: u32 = 2;
    /// `cudaChannelFormatKindNone`: CUDA has no kind for the format
    /// (packed 16-bit, small floats, depth, ETC2/EAC, ASTC).
    pub const NONE: u32 = 3;
    /// `cudaChannelFormatKindUnsignedNormalized8X1`; `X2` and `X4` follow.
    pub const UNORM8X1: u32 = 5;
    /// `cudaChannelFormatKindUnsignedNormalized16X1`; `X2` and `X4` follow.
    pub const UNORM16X1: u32 = 8;
    /// `cudaChannelFormatKindSignedNormalized8X1`; `X2` and `X4` follow.
    pub const SNORM8X1: u32 = 11;
    /// `cudaChannelFormatKindSignedNormalized16X1`; `X2` and `X4` follow.
    pub const SNORM16X1: u32 = 14;
    /// `cudaChannelFormatKindUnsignedBlockCompressed1`.
    pub const BC1: u32 = 17;
    /// `cudaChannelFormatKindUnsignedBlockCompressed1SRGB`.
    pub const BC1_SRGB: u32 = 18;
    /// `cudaChannelFormatKindUnsignedBlockCompressed2`.
    pub const BC2: u32 = 19;
    /// `cudaChannelFormatKindUnsignedBlockCompressed2SRGB`.
    pub const BC2_SRGB: u32 = 20;
    /// `cudaChannelFormatKindUnsignedBlockCompressed3`.
    pub const BC3: u32 = 21;
    /// `cudaChannelFormatKindUnsignedBlockCompressed3SRGB`.
    pub const BC3_SRGB: u32 = 22;
    /// `cudaChannelFormatKindUnsignedBlockCompressed4`.
    pub const BC4: u32 = 23;
    /// `cudaChannelFormatKindSignedBlockCompressed4`.
    pub const BC4_SNORM: u32 = 24;
    /// `cudaChannelFormatKindUnsignedBlockCompressed5`.
    pub const BC5: u32 = 25;
    /// `cudaChannelFormatKindSignedBlockCompressed5`.
    pub const BC5_SNORM: u32 = 26;
    /// `cudaChannelFormatKindUnsignedBlockCompressed6H`.
    pub const BC6H_UF16: u32 = 27;
    /// `cudaChannelFormatKindSignedBlockCompressed6H`.
    pub const BC6H_SF16: u32 = 28;
    /// `cudaChannelFormatKindUnsignedBlockCompressed7`.
    pub const BC7: u32 = 29;
    /// `cudaChannelFormatKindUnsignedBlockCompressed7SRGB`.
    pub const BC7_SRGB: u32 = 30;
    /// `cudaChannelFormatKindUnsignedNormalized1010102`.
    pub const UNORM1010102: u32 = 31;
}

/// `txq .channel_data_type` of a texture of `format`: the CUDA
/// `cudaChannelFormatKind` of the format (see [`cuda_channel_kind`]), what
/// `txq` reports when the symbol table ([`Symbols::channel`](super::Symbols::channel))
/// gives no value of its own.
pub const fn channel_data_type(format: TextureFormat) -> u32 {
    use cuda_channel_kind as k;
    let n = format.component_count();
    // CUDA has 1, 2 and 4 channel normalized kinds; three-channel
    // formats have none.
    let x = match n {
        1 => Some(0),
        2 => Some(1),
        4 => Some(2),
        _ => None,
    };
    match format.layout() {
        FormatLayout::Array { bits, kind, order } => match (kind, bits, x) {
            (ChannelKind::Uint, _, _) => k::UNSIGNED,
            (ChannelKind::Sint, _, _) => k::SIGNED,
            (ChannelKind::Float, _, _) => k::FLOAT,
            (ChannelKind::Unorm | ChannelKind::Srgb, 8, Some(x)) => match order {
                ChannelOrder::A => k::NONE,
                ChannelOrder::R
                | ChannelOrder::Rg
                | ChannelOrder::Rgb
                | ChannelOrder::Rgba
                | ChannelOrder::Bgra => k::UNORM8X1 + x,
            },
            (ChannelKind::Unorm, 16, Some(x)) => k::UNORM16X1 + x,
            (ChannelKind::Snorm, 8, Some(x)) => k::SNORM8X1 + x,
            (ChannelKind::Snorm, 16, Some(x)) => k::SNORM16X1 + x,
            _ => k::NONE,
        },
        FormatLayout::Packed {
            word_bits, kind, ..
        } => match (word_bits, kind) {
            (32, ChannelKind::Unorm) => k::UNORM1010102,
            (32, ChannelKind::Uint) => k::UNSIGNED,
            _ => k::NONE,
        },
        FormatLayout::B10G11R11Ufloat
        | FormatLayout::E5B9G9R9Ufloat
        | FormatLayout::DepthStencil { .. } => k::NONE,
        FormatLayout::Block { kind, class, .. } => {
            let srgb = matches!(class, ChannelKind::Srgb);
            let snorm = matches!(class, ChannelKind::Snorm);
            match kind {
                BlockKind::Bc1 { .. } => {
                    if srgb {
                        k::BC1_SRGB
                    } else {
                        k::BC1
                    }
                }
                BlockKind::Bc2 => {
                    if srgb {
                        k::BC2_SRGB
                    } else {
                        k::BC2
                    }
                }
                BlockKind::Bc3 => {
                    if srgb {
                        k::BC3_SRGB
                    } else {
                        k::BC3
                    }
                }
                BlockKind::Bc4 => {
                    if snorm {
                        k::BC4_SNORM
                    } else {
                        k::BC4
                    }
                }
                BlockKind::Bc5 => {
                    if snorm {
                        k::BC5_SNORM
                    } else {
                        k::BC5
                    }
                }
                BlockKind::Bc6h => {
                    if matches!(format, TextureFormat::Bc6hSfloat) {
                        k::BC6H_SF16
                    } else {
                        k::BC6H_UF16
                    }
                }
                BlockKind::Bc7 => {
                    if srgb {
                        k::BC7_SRGB
                    } else {
                        k::BC7
                    }
                }
                BlockKind::Etc2Rgb8
                | BlockKind::Etc2Rgb8A1
                | BlockKind::Etc2Rgba8
                | BlockKind::EacR11
                | BlockKind::EacRg11
                | BlockKind::Astc => k::NONE,
            }
        }
    }
}

/// `txq .channel_order` of a texture of `format`: CUDA's one enumeration
/// serves both queries, so this equals [`channel_data_type`] (PTX ISA
/// 9.7.10.5, `txq`).
pub const fn channel_order(format: TextureFormat) -> u32 {
    channel_data_type(format)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn txq_channel_codes_are_cuda_channel_format_kinds() {
        use cuda_channel_kind as k;
        assert_eq!(channel_data_type(TextureFormat::Rgba8Unorm), 7);
        assert_eq!(channel_data_type(TextureFormat::R8Unorm), 5);
        assert_eq!(channel_data_type(TextureFormat::Rg16Snorm), 15);
        assert_eq!(channel_data_type(TextureFormat::R32Float), k::FLOAT);
        assert_eq!(channel_data_type(TextureFormat::Rgba32Sint), k::SIGNED);
        assert_eq!(channel_data_type(TextureFormat::Bc6hSfloat), 28);
        assert_eq!(channel_data_type(TextureFormat::Bc7Srgb), 30);
        assert_eq!(channel_data_type(TextureFormat::A2bgr10Unorm), 31);
        assert_eq!(channel_data_type(TextureFormat::Astc4x4Unorm), k::NONE);
        for &f in TextureFormat::ALL {
            assert_eq!(channel_order(f), channel_data_type(f));
        }
    }
}
