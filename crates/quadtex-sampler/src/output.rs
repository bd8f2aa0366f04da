//! Result conversion: what lands in the destination registers.
//!
//! A texture instruction returns four 32-bit words per lane; PTX's `.f16` and
//! `.f16x2` destinations pack halves instead (PTX ISA 9.7.10.3, `tex`;
//! docs/semantics.md §5 ".f16x2": `.f16x2` gives `d = {pack(R, G), pack(B,
//! A)}`; element 0 in bits 15:0, the PTX packed convention, inferred; f32 ->
//! f16 rounds to nearest even). The write mask (`#wmskU04` on SASS, `.mask` on
//! D3D) selects which components are written; the others keep the register's
//! old value.

use half::f16;
use quadtex_format::Texel;

/// The destination register type of a texture instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputType {
    /// Four 32-bit words: float bits, or integers as the format defines.
    Words,
    /// Four halves, one per register's low 16 bits (PTX `.f16`).
    F16,
    /// Two registers of packed halves (PTX `.f16x2`).
    F16x2,
}

/// f32 to f16 bits, rounding to nearest even (Inf and NaN kept).
pub fn f16_bits(v: f32) -> u16 {
    f16::from_f32(v).to_bits()
}

/// `{pack(R, G), pack(B, A)}`: element 0 in bits 15:0.
pub fn pack_f16x2(v: [f32; 4]) -> [u32; 2] {
    let p = |lo: f32, hi: f32| f16_bits(lo) as u32 | ((f16_bits(hi) as u32) << 16);
    [p(v[0], v[1]), p(v[2], v[3])]
}

/// The words a texel writes for `ty`: `Words` gives the texel's register
/// bits; `F16` four halves zero-extended; `F16x2` two packed words followed
/// by two unused zero words. Integer texels convert by value for the half
/// forms.
pub fn to_words(t: Texel, ty: OutputType) -> [u32; 4] {
    match ty {
        OutputType::Words => t.to_bits(),
        OutputType::F16 => t.to_f32().map(|v| f16_bits(v) as u32),
        OutputType::F16x2 => {
            let [a, b] = pack_f16x2(t.to_f32());
            [a, b, 0, 0]
        }
    }
}

/// Writes the components of `src` selected by `wmsk` (bit c = component c)
/// into `dst`; the others keep their old value.
pub fn write_masked(dst: &mut [u32; 4], src: [u32; 4], wmsk: u8) {
    for c in 0..4 {
        if wmsk & (1 << c) != 0 {
            dst[c] = src[c];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16x2_puts_element_zero_in_the_low_half() {
        assert_eq!(
            pack_f16x2([1.0, 2.0, -0.5, 65504.0]),
            [0x4000_3c00, 0x7bff_b800]
        );
        // Round to nearest even: 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
        assert_eq!(f16_bits(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(f16_bits(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
        assert_eq!(f16_bits(1e6), 0x7c00);
        assert_eq!(f16_bits(f32::NAN) & 0x7c00, 0x7c00);
        assert_eq!(
            to_words(Texel::Float([0.5, 0.25, 0.0, 1.0]), OutputType::F16),
            [0x3800, 0x3400, 0, 0x3c00]
        );
        assert_eq!(
            to_words(Texel::Uint([3, 0, 0, 1]), OutputType::F16x2),
            [0x0000_4200, 0x3c00_0000, 0, 0]
        );
    }

    #[test]
    fn write_mask_keeps_unselected_components() {
        let mut d = [9, 9, 9, 9];
        write_masked(&mut d, [1, 2, 3, 4], 0b1010);
        assert_eq!(d, [9, 2, 9, 4]);
        write_masked(&mut d, [5, 6, 7, 8], 0);
        assert_eq!(d, [9, 2, 9, 4]);
    }
}
