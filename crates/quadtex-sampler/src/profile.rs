//! Profiles: what differs between NVIDIA SASS, PTX, Vulkan and D3D11
//! (docs/semantics.md §7). The core computes one set of formulas; a
//! profile fixes the knobs. Every knob is a plain public field so that a
//! user can mix them; the presets are the documented starting points.

/// How lane offsets wider than the profile's range are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OffsetOverflow {
    /// Keep the low bits as a two's complement field (hardware).
    Wrap,
    /// Clamp to the range.
    Clamp,
}

/// How an array layer coordinate is rounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LayerRound {
    /// Round to nearest even (Vulkan).
    Rne,
    /// `floor(a + 0.5)` (GL, NVIDIA's `f2u(a + 0.5)`).
    FloorHalf,
}

/// Polarity of the residency predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Residency {
    /// `true` means every texel was resident (PTX `p`, Vulkan).
    ResidentTrue,
    /// `true` means a texel was not resident (SASS `Ps`).
    FaultTrue,
}

/// How fractions (bilinear weights, the mip blend, lambda) are quantised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FracRound {
    /// Truncate toward zero.
    Truncate,
    /// Round to nearest even.
    Rne,
}

/// Fine or coarse implicit derivatives (docs/semantics.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Derivatives {
    /// Per row and column: lanes 0/1 share `P1 - P0`, lanes 2/3 `P3 - P2`.
    Fine,
    /// One pair per quad: `P1 - P0` and `P2 - P0`.
    Coarse,
}

/// The implicit-derivative rule for a partial quad (active mask not 0xF,
/// helpers counting as active) without `.NDV`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PartialQuad {
    /// Derivatives as if all lanes were there (Vulkan leaves it undefined;
    /// this is what a plain implementation does).
    Undefined,
    /// Zero derivatives: lambda = -inf, so the LOD clamps to its minimum
    /// (`DEFAULT_PARTIAL = ZERO`).
    Zero,
    /// Infinite derivatives: lambda = +inf, the LOD clamps to its maximum
    /// (`DEFAULT_PARTIAL = INFINITY`).
    Infinity,
}

/// Nearest mip level rounding (Vulkan allows either).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MipNearest {
    /// `ceil(d' + 0.5) - 1`: halves round down (preferred by the spec).
    CeilMinusOne,
    /// `floor(d' + 0.5)`: halves round up.
    FloorHalf,
}

/// Which anisotropy levels the hardware offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnisoLevels {
    /// Any value (Vulkan).
    Continuous,
    /// NVIDIA TSC's {1, 2, 4, 6, 8, 10, 12, 16}.
    Tsc,
}

/// The implementation's largest anisotropy (Vulkan's
/// `maxSamplerAnisotropy`, 16 on every desktop driver; NVIDIA's TSC tops
/// out at 16 too). A sampler asking for more gets this: it bounds the taps
/// of an anisotropic footprint, so the work per fragment.
pub const MAX_ANISOTROPY: f32 = 16.0;

impl AnisoLevels {
    /// Quantises a sampler's `max_anisotropy`, clamped to
    /// `1..=`[`MAX_ANISOTROPY`] first (NaN reads as 1).
    pub fn quantize(self, v: f32) -> f32 {
        let v = if v.is_nan() {
            1.0
        } else {
            v.clamp(1.0, MAX_ANISOTROPY)
        };
        match self {
            AnisoLevels::Continuous => v,
            AnisoLevels::Tsc => {
                if v >= 16.0 {
                    16.0
                } else if v >= 12.0 {
                    12.0
                } else {
                    (2.0 * ((v.floor() as i32) / 2) as f32).max(1.0)
                }
            }
        }
    }
}

/// The knobs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// Bits of a gather (TLD4) offset field: 6 on SASS, 4 on PTX/D3D.
    pub gather_offset_bits: u8,
    /// Bits of a tex/ld offset field: 4.
    pub tex_offset_bits: u8,
    /// Out-of-range offsets.
    pub offset_overflow: OffsetOverflow,
    /// Array layer rounding.
    pub layer_round: LayerRound,
    /// Residency predicate polarity.
    pub residency: Residency,
    /// Fraction bits of lambda and the mip blend (`None`: f32).
    pub lod_frac_bits: Option<u8>,
    /// Fraction bits of bilinear weights (`None`: f32).
    pub weight_frac_bits: Option<u8>,
    /// Rounding of quantised fractions.
    pub frac_round: FracRound,
    /// The anisotropy set.
    pub aniso_levels: AnisoLevels,
    /// Implicit derivatives.
    pub derivatives: Derivatives,
    /// Partial-quad rule.
    pub partial_quad: PartialQuad,
    /// Nearest-mip rounding.
    pub mip_nearest: MipNearest,
    /// `maxSamplerLodBias`: sampler plus shader bias is clamped to this.
    pub max_lod_bias: f32,
    /// sRGB views see the border colour through an 8-bit sRGB round trip
    /// (NVIDIA keeps a separate sRGB border; inferred).
    pub srgb_border_quantized: bool,
}

impl Profile {
    /// Vulkan: the spec's formulas with f32 precision, fine implicit
    /// derivatives, NVK's limits (the default).
    pub const VULKAN: Profile = Profile {
        gather_offset_bits: 6,
        tex_offset_bits: 4,
        offset_overflow: OffsetOverflow::Wrap,
        layer_round: LayerRound::Rne,
        residency: Residency::ResidentTrue,
        lod_frac_bits: None,
        weight_frac_bits: None,
        frac_round: FracRound::Truncate,
        aniso_levels: AnisoLevels::Continuous,
        derivatives: Derivatives::Fine,
        partial_quad: PartialQuad::Undefined,
        mip_nearest: MipNearest::CeilMinusOne,
        max_lod_bias: 15.0,
        srgb_border_quantized: false,
    };

    /// NVIDIA SASS: 6-bit gather and 4-bit tex offsets that wrap, `f2u(a +
    /// 0.5)` layers, `Ps` true on a fault, 8-bit LOD and weight fractions
    /// (truncated), the TSC anisotropy set, partial quads at zero derivative.
    pub const NV_SASS: Profile = Profile {
        gather_offset_bits: 6,
        tex_offset_bits: 4,
        offset_overflow: OffsetOverflow::Wrap,
        layer_round: LayerRound::FloorHalf,
        residency: Residency::FaultTrue,
        lod_frac_bits: Some(8),
        weight_frac_bits: Some(8),
        frac_round: FracRound::Truncate,
        aniso_levels: AnisoLevels::Tsc,
        derivatives: Derivatives::Fine,
        partial_quad: PartialQuad::Zero,
        mip_nearest: MipNearest::CeilMinusOne,
        max_lod_bias: 15.0,
        srgb_border_quantized: true,
    };

    /// PTX: SASS underneath, with PTX's -8..7 offsets and `p` true when
    /// resident.
    pub const PTX: Profile = Profile {
        gather_offset_bits: 4,
        residency: Residency::ResidentTrue,
        ..Profile::NV_SASS
    };

    /// D3D11: 4-bit `aoffimmi`, 8-bit weights and LOD fractions rounded
    /// to nearest even, coarse derivatives.
    pub const D3D11: Profile = Profile {
        gather_offset_bits: 6,
        tex_offset_bits: 4,
        offset_overflow: OffsetOverflow::Wrap,
        layer_round: LayerRound::Rne,
        residency: Residency::ResidentTrue,
        lod_frac_bits: Some(8),
        weight_frac_bits: Some(8),
        frac_round: FracRound::Rne,
        aniso_levels: AnisoLevels::Continuous,
        derivatives: Derivatives::Coarse,
        partial_quad: PartialQuad::Undefined,
        mip_nearest: MipNearest::FloorHalf,
        max_lod_bias: 15.99,
        srgb_border_quantized: false,
    };

    /// Checks the knobs a caller may have set by hand: offset fields of
    /// 1 to [`MAX_OFFSET_BITS`] bits, fraction bits up to
    /// [`MAX_FRAC_BITS`], a `max_lod_bias` that is not NaN or negative.
    /// The built-in profiles pass; the sampling paths never panic on a
    /// profile that does not, but only a valid one is defined.
    pub fn validate(&self) -> crate::Result<()> {
        let bad = |what: String| Err(crate::Error::invalid_profile(what));
        for (name, b) in [
            ("gather_offset_bits", self.gather_offset_bits),
            ("tex_offset_bits", self.tex_offset_bits),
        ] {
            if !(1..=MAX_OFFSET_BITS).contains(&b) {
                return bad(format!("{name} {b} is not in 1..={MAX_OFFSET_BITS}"));
            }
        }
        for (name, b) in [
            ("lod_frac_bits", self.lod_frac_bits),
            ("weight_frac_bits", self.weight_frac_bits),
        ] {
            if let Some(b) = b.filter(|&b| b > MAX_FRAC_BITS) {
                return bad(format!("{name} {b} is more than {MAX_FRAC_BITS}"));
            }
        }
        if self.max_lod_bias.is_nan() || self.max_lod_bias < 0.0 {
            return bad(format!("max_lod_bias {} is not >= 0", self.max_lod_bias));
        }
        Ok(())
    }

    /// Clamps a bias to `[-max_lod_bias, max_lod_bias]` (never panics, for
    /// any profile).
    #[inline]
    pub fn clamp_bias(&self, b: f32) -> f32 {
        clamp_bias_to(b, self.max_lod_bias)
    }

    /// Applies the offset rule to an offset of a field `bits` wide (1 to
    /// 32; others are taken as the nearest).
    pub fn offset(&self, v: i32, bits: u8) -> i32 {
        let bits = u32::from(bits.clamp(1, 32));
        let lo = -(1i64 << (bits - 1));
        let hi = (1i64 << (bits - 1)) - 1;
        match self.offset_overflow {
            OffsetOverflow::Clamp => i64::from(v).clamp(lo, hi) as i32,
            OffsetOverflow::Wrap => {
                let s = 32 - bits;
                v.wrapping_shl(s).wrapping_shr(s)
            }
        }
    }

    /// Quantises a fraction in [0, 1) to the profile's bits.
    #[inline]
    pub fn quantize(&self, f: f32, bits: Option<u8>) -> f32 {
        match bits {
            None => f,
            Some(b) => {
                let s = frac_scale(b);
                let q = match self.frac_round {
                    FracRound::Truncate => (f * s).floor(),
                    FracRound::Rne => (f * s).round_ties_even(),
                };
                q / s
            }
        }
    }
}

/// The widest offset field [`Profile::validate`] accepts.
pub const MAX_OFFSET_BITS: u8 = 16;

/// The most fraction bits [`Profile::validate`] accepts: an f32 has 23
/// below its leading bit, so more would change nothing.
pub const MAX_FRAC_BITS: u8 = 23;

/// `b` clamped to `[-max, max]` (`max` first, so a NaN `b` gives `-max`
/// as `f32::max` takes the number): [`Profile::clamp_bias`] with the
/// profile's `max_lod_bias`, shared with the planar kernel's per-lane
/// biases.
#[inline(always)]
pub(crate) fn clamp_bias_to(b: f32, max: f32) -> f32 {
    b.max(-max).min(max)
}

/// `2^bits` as f32: the scale of a fixed-point fraction of `bits` bits
/// (exact for every `u8`; the same value as `(1 << bits) as f32` where that
/// does not overflow).
#[inline(always)]
pub fn frac_scale(bits: u8) -> f32 {
    2f32.powi(i32::from(bits))
}

impl Default for Profile {
    fn default() -> Self {
        Profile::VULKAN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sass_offsets_wrap_in_six_bits_and_ptx_in_four() {
        let p = Profile::NV_SASS;
        assert_eq!(p.offset(31, 6), 31);
        assert_eq!(p.offset(32, 6), -32);
        assert_eq!(p.offset(-33, 6), 31);
        assert_eq!(p.offset(8, 4), -8);
        let c = Profile {
            offset_overflow: OffsetOverflow::Clamp,
            ..Profile::PTX
        };
        assert_eq!(c.offset(9, 4), 7);
        assert_eq!(c.offset(-9, 4), -8);
    }

    #[test]
    fn tsc_anisotropy_set() {
        let t = AnisoLevels::Tsc;
        assert_eq!(
            [1.0, 2.5, 3.0, 5.0, 11.9, 12.0, 15.0, 16.0, 64.0].map(|v| t.quantize(v)),
            [1.0, 2.0, 2.0, 4.0, 10.0, 12.0, 12.0, 16.0, 16.0]
        );
        assert_eq!(AnisoLevels::Continuous.quantize(3.3), 3.3);
    }

    #[test]
    fn fractions_quantise_to_eight_bits() {
        let p = Profile::NV_SASS;
        assert_eq!(p.quantize(0.999, Some(8)), 255.0 / 256.0);
        assert_eq!(p.quantize(0.5 / 256.0, Some(8)), 0.0);
        let r = Profile {
            frac_round: FracRound::Rne,
            ..p
        };
        assert_eq!(r.quantize(0.6 / 256.0, Some(8)), 1.0 / 256.0);
        assert_eq!(Profile::VULKAN.quantize(0.123, None), 0.123);
    }
}
