//! ASTC LDR decoding: the glue around the `astc-decode` crate, plus the one
//! block kind it is handed no part of, the 2D void-extent block, which is
//! decoded here to the full precision the spec gives it.
//!
//! `astc-decode` (a port of FasTC's decoder) does the weight grids,
//! partitions and endpoint modes, and reports illegal encodings by filling
//! the block with the error colour and returning `false`. It interpolates in
//! 16 bits and rounds to 8 for every block, sRGB included: see
//! [`decode_block`] for what that costs against the spec.
//!
//! Checked against `astcenc` and the Khronos CTS decoder on random legal
//! blocks, `astc-decode` 0.3.1 has two bugs, both in reading colour
//! endpoint values, and [`prepare`] works around both by rewriting the
//! block before handing it over (see there):
//! - it reads the integer sequence to the end of the colour-data area
//!   rather than to the end of the sequence, so the spare bits the spec
//!   says "can have any value" change the last trit or quint block;
//! - for an HDR endpoint mode it consumes no endpoint values, so every
//!   later partition reads the wrong ones.
//!
//! What does not live here: HDR decoding (the profile is LDR, so HDR
//! content is the error colour) and 3D blocks.

use astc_decode::{astc_decode_block, Footprint};
use half::f16;

use crate::texel::srgb8_to_linear;

/// The LDR error colour: opaque magenta (KDFS "Illegal Encodings").
pub(crate) const ERROR_COLOR: [f32; 4] = [1.0, 0.0, 1.0, 1.0];

/// Block-mode bits 0..=8 of a 2D void-extent block.
const VOID_EXTENT_MODE: u128 = 0x1FC;

/// Decodes one 16-byte ASTC LDR block of `w x h` texels into `out`
/// (row-major, at least `w * h` entries), per the KDFS ASTC chapter.
///
/// Colour reads as UNORM (`astc-decode`'s 8-bit result / 255) or, for sRGB,
/// through the sRGB EOTF; alpha is always linear. The spec interpolates LDR
/// endpoints in 16 bits and hands UNORM formats an FP16 of the result (sRGB
/// formats its top 8 bits, with endpoints expanded as `c << 8 | 0x80`);
/// `astc-decode` expands every endpoint as `c * 257` and rounds to 8 bits,
/// so a texel may sit up to one 8-bit step from the spec's value (measured
/// against `astcenc` in `tests/compressed_reference.rs`). Void-extent blocks
/// are exact. Never panics: `w` and `h` are the format's footprint, 4..=12.
pub(crate) fn decode_block(block: &[u8; 16], w: u8, h: u8, srgb: bool, out: &mut [[f32; 4]]) {
    let n = w as usize * h as usize;
    let out = &mut out[..n];
    let bits = u128::from_le_bytes(*block);
    if bits & 0x1FF == VOID_EXTENT_MODE {
        out.fill(void_extent(bits, srgb).unwrap_or(ERROR_COLOR));
        return;
    }
    let prepared = prepare(bits, w, h);
    if prepared.all_error {
        out.fill(ERROR_COLOR);
        return;
    }
    let footprint = Footprint::new(w as u32, h as u32);
    let row = w as usize;
    let small = n < 31;
    let legal = astc_decode_block(&prepared.block, footprint, |x, y, p| {
        // astc-decode writes exactly the footprint, but an out-of-range
        // index is dropped rather than trusted.
        if let Some(t) = out.get_mut(y as usize * row + x as usize) {
            let hdr = prepared.hdr_partitions != 0 && {
                let part = select_partition(prepared.seed, x, y, prepared.partitions, small);
                prepared.hdr_partitions & (1 << part) != 0
            };
            // In the LDR profile only the texels of an HDR partition are
            // the error colour (KDFS "Illegal Encodings", last note).
            *t = if hdr {
                ERROR_COLOR
            } else {
                super::rgba8_texel(p, srgb)
            };
        }
    });
    if !legal {
        // astc-decode has filled the block with magenta already; restate it
        // so the error colour does not depend on its 8-bit path.
        out.fill(ERROR_COLOR);
    }
}

/// A block rewritten for `astc-decode`, and what the rewrite hides.
struct Prepared {
    /// The block to decode: same texels per the spec, minus the bit
    /// patterns `astc-decode` misreads.
    block: [u8; 16],
    /// The whole block is the error colour in the LDR profile.
    all_error: bool,
    /// Bit `i`: partition `i` had an HDR endpoint mode, now replaced by the
    /// LDR mode of its class (same number of values) so the later
    /// partitions read theirs from the right place; its texels are the
    /// error colour.
    hdr_partitions: u8,
    /// Partition count and partition pattern index (the hash seed).
    partitions: u32,
    seed: u32,
}

/// Field `shift .. shift + width` of the block.
fn field(bits: u128, shift: u32, width: u32) -> u32 {
    ((bits >> shift) & ((1u128 << width) - 1)) as u32
}

/// The block-mode fields of a 2D block (KDFS "ASTC 2D block mode
/// layout"): weight grid size, dual plane, and the weight range's largest
/// value. `None` for reserved modes (astc-decode reports those itself).
fn block_mode(mode: u32) -> Option<(u32, u32, bool, u32)> {
    let bit = |i: u32| (mode >> i) & 1;
    let a = (mode >> 5) & 3;
    let b = (mode >> 7) & 3;
    let (w, h, r, dual_ok) = if mode & 3 != 0 {
        let r = ((mode & 3) << 1) | bit(4);
        let (w, h) = match (mode >> 2) & 3 {
            0 => (b + 4, a + 2),
            1 => (b + 8, a + 2),
            2 => (a + 2, b + 8),
            _ if bit(8) == 0 => (a + 2, (b & 1) + 6),
            _ => ((b & 1) + 2, a + 2),
        };
        (w, h, r, true)
    } else {
        let r = ((mode >> 1) & 6) | bit(4);
        if mode & 0xF == 0 {
            return None;
        }
        let (w, h, dual_ok) = match (mode >> 7) & 3 {
            0 => (12, a + 2, true),
            1 => (a + 2, 12, true),
            2 => (a + 6, ((mode >> 9) & 3) + 6, false),
            _ => match a {
                0 => (6, 10, true),
                1 => (10, 6, true),
                _ => return None,
            },
        };
        (w, h, r, dual_ok)
    };
    // In the "A+6 x B+6" row bits 9-10 are B, not the H and D flags.
    let (high, dual) = if dual_ok {
        (bit(9) == 1, bit(10) == 1)
    } else {
        (false, false)
    };
    const LOW: [u32; 6] = [1, 2, 3, 4, 5, 7];
    const HIGH: [u32; 6] = [9, 11, 15, 19, 23, 31];
    let table = if high { HIGH } else { LOW };
    let max = *table.get(r.checked_sub(2)? as usize)?;
    Some((w, h, dual, max))
}

/// Bits an integer sequence of `n` values in `0..=max` takes (KDFS
/// "Integer Sequence Encoding"): `max + 1` is `2^b`, `3 * 2^b` or
/// `5 * 2^b`.
fn ise_bits(n: u32, max: u32) -> Option<u32> {
    let range = max + 1;
    let (b, extra) = if range.is_power_of_two() {
        (range.trailing_zeros(), 0)
    } else if range.is_multiple_of(3) && (range / 3).is_power_of_two() {
        ((range / 3).trailing_zeros(), (8 * n).div_ceil(5))
    } else if range.is_multiple_of(5) && (range / 5).is_power_of_two() {
        ((range / 5).trailing_zeros(), (7 * n).div_ceil(3))
    } else {
        return None;
    };
    Some(n * b + extra)
}

/// The colour endpoint ranges, largest value of each, in increasing size
/// (0..=5 is the smallest a legal block may use).
const COLOUR_RANGES: [u32; 17] = [
    5, 7, 9, 11, 15, 19, 23, 31, 39, 47, 63, 79, 95, 127, 159, 191, 255,
];

/// Rewrites a (non-void-extent) block so that `astc-decode` decodes it as
/// the KDFS does, or flags it as all error colour.
///
/// 1. Clears the colour-data bits past the end of the endpoint integer
///    sequence. The spec leaves them unallocated ("these bits are not read
///    by the decoding process and can have any value"); `astc-decode` reads
///    the last, partial trit or quint block from them.
/// 2. Replaces each HDR endpoint mode of a multi-partition block by the LDR
///    mode of its class, which takes as many values (2 -> 0, 3 -> 1,
///    7 -> 6, 11 -> 10, 14 -> 12, 15 -> 13), and records the partition so
///    its texels come out as the error colour. A block whose every
///    partition is HDR is all error colour.
///
/// Anything illegal is left alone: astc-decode reports it.
fn prepare(bits: u128, w: u8, h: u8) -> Prepared {
    let mut p = Prepared {
        block: bits.to_le_bytes(),
        all_error: false,
        hdr_partitions: 0,
        partitions: 1,
        seed: 0,
    };
    let Some((gw, gh, dual, wmax)) = block_mode(field(bits, 0, 11)) else {
        return p;
    };
    let weights = gw * gh * if dual { 2 } else { 1 };
    let Some(weight_bits) = ise_bits(weights, wmax) else {
        return p;
    };
    if gw > w as u32 || gh > h as u32 || weights > 64 || !(24..=96).contains(&weight_bits) {
        return p;
    }
    let partitions = field(bits, 11, 2) + 1;
    if partitions == 4 && dual {
        return p;
    }
    p.partitions = partitions;
    let below_weights = 128 - weight_bits;
    // Endpoint modes, and where the bits above the colour data start.
    let mut cems = [0u32; 4];
    let (config, extra_bits, shared) = if partitions == 1 {
        cems[0] = field(bits, 13, 4);
        (17, 0, true)
    } else {
        p.seed = field(bits, 13, 10);
        let selector = field(bits, 23, 2);
        if selector == 0 {
            cems = [field(bits, 25, 4); 4];
            (29, 0, true)
        } else {
            (29, 3 * partitions - 4, false)
        }
    };
    let ccs_bits = if dual { 2 } else { 0 };
    let Some(colour_end) = below_weights.checked_sub(extra_bits + ccs_bits) else {
        return p;
    };
    let extra_at = below_weights - extra_bits;
    // The full CEM word of a non-shared block: 6 bits at 23, then the
    // extra bits from just below the weights: selector, one class bit per
    // partition, then two mode bits per partition.
    let mut word = 0;
    if !shared {
        word = field(bits, 23, 6) | field(bits, extra_at, extra_bits) << 6;
        let base = (word & 3) - 1;
        for (i, cem) in cems.iter_mut().enumerate().take(partitions as usize) {
            let class = base + ((word >> (2 + i)) & 1);
            let m = (word >> (2 + partitions as usize + 2 * i)) & 3;
            *cem = class << 2 | m;
        }
    }
    let values: u32 = cems[..partitions as usize]
        .iter()
        .map(|c| 2 * ((c >> 2) + 1))
        .sum();
    let Some(available) = colour_end.checked_sub(config) else {
        return p;
    };
    if values > 18 || (13 * values).div_ceil(5) > available {
        return p;
    }
    let range = COLOUR_RANGES
        .iter()
        .rev()
        .find(|&&max| ise_bits(values, max).is_some_and(|b| b <= available));
    let Some(used) = range.and_then(|&max| ise_bits(values, max)) else {
        return p;
    };
    let mut out = bits;
    // 1: the unallocated colour-data bits, [config + used, colour_end).
    let spare = available - used;
    if spare > 0 {
        out &= !(((1u128 << spare) - 1) << (config + used));
    }
    // 2: HDR endpoint modes.
    let is_hdr = |cem: u32| matches!(cem, 2 | 3 | 7 | 11 | 14 | 15);
    let hdr = (0..partitions as usize).filter(|&i| is_hdr(cems[i]));
    let hdr_mask = hdr.fold(0u8, |m, i| m | 1 << i);
    if hdr_mask.count_ones() == partitions {
        p.all_error = true;
    } else if hdr_mask != 0 {
        // Mixed partitions only happen with non-shared modes.
        for i in (0..partitions as usize).filter(|&i| hdr_mask & 1 << i != 0) {
            let class = cems[i] >> 2;
            // Class 0 and 3 drop the mode's high bit, 1 and 2 its low bit.
            let clear = if class == 0 || class == 3 { 2 } else { 1 };
            word &= !(clear << (2 + partitions as usize + 2 * i));
            p.hdr_partitions |= 1 << i;
        }
        out &= !(0x3Fu128 << 23);
        out |= ((word & 0x3F) as u128) << 23;
        out &= !(((1u128 << extra_bits) - 1) << extra_at);
        out |= ((word >> 6) as u128) << extra_at;
    }
    p.block = out.to_le_bytes();
    p
}

/// The partition of texel (x, y) (KDFS "Partition Pattern Generation",
/// 2D: z = 0). `small` is set for blocks of fewer than 31 texels.
fn select_partition(seed: u32, x: u32, y: u32, partitions: u32, small: bool) -> u32 {
    if partitions <= 1 {
        return 0;
    }
    let (x, y) = if small { (x << 1, y << 1) } else { (x, y) };
    // z = 0 in 2D, so seeds 9-12 and the third shift (the z terms) drop out.
    let seed = seed + (partitions - 1) * 1024;
    let mut r = seed;
    r ^= r >> 15;
    r = r.wrapping_sub(r << 17);
    r = r.wrapping_add(r << 7);
    r = r.wrapping_add(r << 4);
    r ^= r >> 5;
    r = r.wrapping_add(r << 16);
    r ^= r >> 7;
    r ^= r >> 3;
    r ^= r << 6;
    r ^= r >> 17;
    let nib = |shift: u32| {
        let v = (r >> shift) & 0xF;
        v * v
    };
    let (sh1, sh2) = if seed & 1 != 0 {
        (
            if seed & 2 != 0 { 4 } else { 5 },
            if partitions == 3 { 6 } else { 5 },
        )
    } else {
        (
            if partitions == 3 { 6 } else { 5 },
            if seed & 2 != 0 { 4 } else { 5 },
        )
    };
    let a = ((nib(0) >> sh1) * x + (nib(4) >> sh2) * y + (r >> 14)) & 0x3F;
    let b = ((nib(8) >> sh1) * x + (nib(12) >> sh2) * y + (r >> 10)) & 0x3F;
    let c = ((nib(16) >> sh1) * x + (nib(20) >> sh2) * y + (r >> 6)) & 0x3F;
    let d = ((nib(24) >> sh1) * x + (nib(28) >> sh2) * y + (r >> 2)) & 0x3F;
    let (c, d) = match partitions {
        2 => (0, 0),
        3 => (c, 0),
        _ => (c, d),
    };
    if a >= b && a >= c && a >= d {
        0
    } else if b >= c && b >= d {
        1
    } else if c >= d {
        2
    } else {
        3
    }
}

/// A 2D void-extent block's constant colour, or `None` for the error colour
/// (KDFS "Void-Extent Blocks" and "Illegal Encodings").
///
/// Layout: bits 0..=8 `1_1111_1100`, bit 9 the HDR flag, bits 10-11 ones,
/// then four 13-bit extent coordinates (S min, S max, T min, T max) and four
/// UNORM16 components R, G, B, A from bit 64 up.
fn void_extent(bits: u128, srgb: bool) -> Option<[f32; 4]> {
    let field = |shift: u32, width: u32| ((bits >> shift) & ((1u128 << width) - 1)) as u32;
    // An HDR void extent is the error colour in the LDR profile.
    if field(9, 1) != 0 {
        return None;
    }
    // Bits 10 and 11 are fixed ones in the 2D layout; astc-decode and
    // astcenc both reject a block that clears them.
    if field(10, 2) != 0b11 {
        return None;
    }
    let (s0, s1, t0, t1) = (field(12, 13), field(25, 13), field(38, 13), field(51, 13));
    let all_ones = [s0, s1, t0, t1].iter().all(|&c| c == 0x1FFF);
    // A real extent needs min < max on both axes; all-ones means "no
    // extent, just a constant colour".
    if !all_ones && (s0 >= s1 || t0 >= t1) {
        return None;
    }
    let c = [field(64, 16), field(80, 16), field(96, 16), field(112, 16)];
    let colour = |v: u32| {
        if srgb {
            // sRGB conversion takes the top 8 bits of the UNORM16 value.
            srgb8_to_linear((v >> 8) as u8)
        } else {
            unorm16_to_f32(v)
        }
    };
    Some([
        colour(c[0]),
        colour(c[1]),
        colour(c[2]),
        unorm16_to_f32(c[3]),
    ])
}

/// An LDR interpolator result (UNORM16) as the spec delivers it to the
/// shader: 65535 is exactly 1.0, anything else is `v / 65536` converted to
/// FP16 rounding toward zero (KDFS "Weight Application").
pub(crate) fn unorm16_to_f32(v: u32) -> f32 {
    if v >= 0xFFFF {
        return 1.0;
    }
    // v / 65536 is exact in f32; dropping the 13 mantissa bits FP16 lacks
    // rounds toward zero. Values below FP16's smallest normal (v < 4) are
    // multiples of 2^-16 and need no rounding at all.
    let f = v as f32 / 65536.0;
    let t = if v >= 4 {
        f32::from_bits(f.to_bits() & !0x1FFF)
    } else {
        f
    };
    // Round-trips exactly: the value is representable in FP16 by now.
    f16::from_f32(t).to_f32()
}

#[cfg(test)]
mod tests {
    //! Known answers from the KDFS ASTC chapter, hand-built blocks, and a
    //! no-panic sweep of `astc-decode` over random blocks.

    use super::*;
    use crate::format::TextureFormat;

    /// Every LDR footprint of the format table.
    const FOOTPRINTS: [(u8, u8); 14] = [
        (4, 4),
        (5, 4),
        (5, 5),
        (6, 5),
        (6, 6),
        (8, 5),
        (8, 6),
        (8, 8),
        (10, 5),
        (10, 6),
        (10, 8),
        (10, 10),
        (12, 10),
        (12, 12),
    ];

    fn decode(block: &[u8; 16], w: u8, h: u8, srgb: bool) -> Vec<[f32; 4]> {
        let mut out = vec![[f32::NAN; 4]; w as usize * h as usize];
        decode_block(block, w, h, srgb, &mut out);
        out
    }

    /// A 2D LDR void-extent block: mode bits `1_1111_1100`, bits 10-11 set,
    /// the four 13-bit extent coordinates, then RGBA as UNORM16.
    fn void_extent(coords: [u16; 4], rgba: [u16; 4]) -> [u8; 16] {
        let mut v: u128 = 0x1FC | 0b11 << 10;
        for (i, c) in coords.iter().enumerate() {
            v |= (*c as u128) << (12 + 13 * i);
        }
        for (i, c) in rgba.iter().enumerate() {
            v |= (*c as u128) << (64 + 16 * i);
        }
        v.to_le_bytes()
    }

    const NO_EXTENT: [u16; 4] = [0x1FFF; 4];

    #[test]
    fn void_extent_block_is_one_colour_at_unorm16_precision() {
        let block = void_extent(NO_EXTENT, [0xFFFF, 0x8000, 0x0000, 0x4000]);
        for (w, h) in FOOTPRINTS {
            let t = decode(&block, w, h, false);
            assert!(t.iter().all(|&c| c == [1.0, 0.5, 0.0, 0.25]), "{w}x{h}");
        }
        // Through the public entry point too.
        let mut out = [[0.0; 4]; 144];
        crate::compressed::decode_block(TextureFormat::Astc12x12Unorm, &block, &mut out).unwrap();
        assert!(out.iter().all(|&c| c == [1.0, 0.5, 0.0, 0.25]));
    }

    #[test]
    fn void_extent_srgb_uses_the_top_byte_and_keeps_alpha_linear() {
        let block = void_extent(NO_EXTENT, [0xFFFF, 0x80FF, 0x0000, 0x4000]);
        let t = decode(&block, 6, 6, true);
        let l = srgb8_to_linear(0x80);
        assert!((l - 0.215_860_5).abs() < 1e-6);
        assert!(t.iter().all(|&c| c == [1.0, l, 0.0, 0.25]));
    }

    #[test]
    fn unorm16_results_convert_to_fp16_rounding_toward_zero() {
        // 0x1237 / 65536 = (1 + 141.75 / 1024) * 2^-4: FP16 keeps mantissa
        // 141, i.e. 1165 / 16384; round-to-nearest would give 142.
        assert_eq!(unorm16_to_f32(0x1237), 1165.0 / 16384.0);
        assert_eq!(unorm16_to_f32(0x1237), unorm16_to_f32(0x1234));
        assert_eq!(unorm16_to_f32(0xFFFF), 1.0);
        assert_eq!(unorm16_to_f32(0xFFFE), 2047.0 / 2048.0);
        assert_eq!(unorm16_to_f32(1), 1.0 / 65536.0);
        assert_eq!(unorm16_to_f32(0), 0.0);
    }

    #[test]
    fn void_extent_with_a_real_extent_is_still_constant() {
        let block = void_extent([0, 100, 0, 100], [0, 0xFFFF, 0, 0xFFFF]);
        assert!(decode(&block, 4, 4, false)
            .iter()
            .all(|&c| c == [0.0, 1.0, 0.0, 1.0]));
    }

    #[test]
    fn void_extent_with_min_not_below_max_is_the_error_colour() {
        // KDFS "Illegal Encodings": low >= high on an axis, unless all four
        // coordinates are all ones.
        for coords in [[5, 5, 0, 100], [0, 100, 200, 100], [0x1FFF, 0x1FFF, 0, 0]] {
            let block = void_extent(coords, [0; 4]);
            assert!(decode(&block, 8, 8, false)
                .iter()
                .all(|&c| c == ERROR_COLOR));
        }
    }

    #[test]
    fn hdr_void_extent_and_cleared_reserved_bits_are_the_error_colour() {
        let mut hdr = void_extent(NO_EXTENT, [0x3C00; 4]);
        hdr[1] |= 0x02; // bit 9: HDR
        assert!(decode(&hdr, 4, 4, false).iter().all(|&c| c == ERROR_COLOR));
        let mut reserved = void_extent(NO_EXTENT, [0; 4]);
        reserved[1] &= !0x04; // bit 10
        assert!(decode(&reserved, 4, 4, false)
            .iter()
            .all(|&c| c == ERROR_COLOR));
    }

    #[test]
    fn reserved_block_mode_is_the_error_colour() {
        // Block mode bits 0-3 all zero is reserved (KDFS block mode table).
        for (w, h) in FOOTPRINTS {
            let t = decode(&[0; 16], w, h, false);
            assert!(t.iter().all(|&c| c == ERROR_COLOR), "{w}x{h}");
            let t = decode(&[0; 16], w, h, true);
            assert!(t.iter().all(|&c| c == ERROR_COLOR), "{w}x{h} sRGB");
        }
    }

    /// A 4x4 block: a 4x2 weight grid with range 0..7 (block mode 0x013,
    /// 24 weight bits), one partition of endpoint mode `cem`, endpoint
    /// values v0, v1 as 8-bit integers (2 values in 87 bits gives 0..255),
    /// and every weight `w` (0 or 7, so bit order does not matter).
    fn single_partition(cem: u128, v0: u128, v1: u128, all_weights_max: bool) -> [u8; 16] {
        let mut v: u128 = 0x013 | cem << 13 | v0 << 17 | v1 << 25;
        if all_weights_max {
            v |= 0xFF_FFFF << 104;
        }
        v.to_le_bytes()
    }

    #[test]
    fn ldr_luminance_block_reads_its_endpoints() {
        // CEM 0 (LDR luminance, direct): e0 = (v0, v0, v0, 255),
        // e1 = (v1, v1, v1, 255); weight 0 is e0, weight 7 (-> 64) is e1.
        let t = decode(&single_partition(0, 0, 255, false), 4, 4, false);
        assert!(t.iter().all(|&c| c == [0.0, 0.0, 0.0, 1.0]));
        let t = decode(&single_partition(0, 0, 255, true), 4, 4, false);
        assert!(t.iter().all(|&c| c == [1.0; 4]));
        // sRGB: e1 = 128 reads through the EOTF; alpha stays linear.
        let t = decode(&single_partition(0, 0, 128, true), 4, 4, true);
        let l = srgb8_to_linear(128);
        assert!(t.iter().all(|&c| c == [l, l, l, 1.0]));
    }

    #[test]
    fn hdr_endpoint_mode_is_the_error_colour_in_the_ldr_profile() {
        // CEM 2 (HDR luminance, large range) on the same block.
        let t = decode(&single_partition(2, 0, 255, true), 4, 4, false);
        assert!(t.iter().all(|&c| c == ERROR_COLOR));
    }

    fn close(t: [f32; 4], astcenc: [u8; 4]) -> bool {
        t.iter()
            .zip(astcenc)
            .all(|(v, r)| ((v * 255.0).round() - r as f32).abs() <= 1.0)
    }

    #[test]
    fn spare_colour_bits_do_not_change_the_decode() {
        // A legal random 4x4 block: 3 partitions (CEMs 9, 8, 6), dual
        // plane, 16 endpoint values as trits in 42 of the 44 colour bits;
        // bits 71-72 are unallocated. astcenc and the Khronos CTS decoder
        // both read texel (1, 2) as (51, 50, 203, 255); astc-decode alone
        // reads the spare bits into the last trit block.
        let block = 0x2568_fb50_3c68_81fd_4e8d_d5ac_977b_f413u128;
        let t = decode(&block.to_le_bytes(), 4, 4, false);
        assert!(close(t[2 * 4 + 1], [51, 50, 203, 255]), "{:?}", t[9]);
        for spare in [1u128 << 71, 1 << 72, 3 << 71] {
            let flipped = decode(&(block ^ spare).to_le_bytes(), 4, 4, false);
            assert_eq!(flipped, t);
        }
    }

    #[test]
    fn hdr_partition_is_the_error_colour_and_the_others_decode() {
        // A legal random 4x4 block with three partitions, the first of an
        // HDR endpoint mode. In the LDR profile its texels are magenta and
        // the others decode as usual (astcenc: texel (2, 0) is
        // (134, 74, 42, 255), (0, 3) is (244, 238, 70, 255)).
        let block = 0xf606_4f45_7923_a8f3_dec4_314a_0d1d_3231u128;
        let t = decode(&block.to_le_bytes(), 4, 4, false);
        // Exactly texels (0, 0) and (1, 0) are in the HDR partition: this
        // pins the partition hash for seed and count of this block.
        let magenta: Vec<usize> = (0..16).filter(|&i| t[i] == ERROR_COLOR).collect();
        assert_eq!(magenta, [0, 1]);
        assert!(close(t[2], [134, 74, 42, 255]), "{:?}", t[2]);
        assert!(close(t[12], [244, 238, 70, 255]), "{:?}", t[12]);
    }

    /// xorshift64*: deterministic blocks without a dependency.
    fn blocks(seed: u64, n: usize) -> impl Iterator<Item = [u8; 16]> {
        let mut s = seed;
        let mut next = move || {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            s.wrapping_mul(0x2545_F491_4F6C_DD1D)
        };
        (0..n).map(move |_| {
            let lo = next().to_le_bytes();
            let hi = next().to_le_bytes();
            let mut b = [0u8; 16];
            b[..8].copy_from_slice(&lo);
            b[8..].copy_from_slice(&hi);
            b
        })
    }

    fn sweep(n: usize, seed: u64) {
        for (w, h) in FOOTPRINTS {
            let mut out = vec![[0.0f32; 4]; w as usize * h as usize];
            for (k, mut b) in blocks(seed ^ (w as u64) << 8 ^ h as u64, n).enumerate() {
                // Two blocks in three keep only their random low 24 bits
                // (block mode, partitions, endpoint modes) and zero or set
                // the rest, reaching the extreme weight and endpoint values.
                if k % 3 == 1 {
                    b[3..].fill(0);
                } else if k % 3 == 2 {
                    b[3..].fill(0xFF);
                }
                decode_block(&b, w, h, k % 2 == 0, &mut out);
                assert!(
                    out.iter().flatten().all(|v| (0.0..=1.0).contains(v)),
                    "{w}x{h} block {b:02x?}"
                );
            }
        }
    }

    #[test]
    fn random_blocks_never_panic_and_stay_in_unit_range() {
        sweep(3000, 0x9E37_79B9_7F4A_7C15);
    }

    /// The long version of the sweep (run with `--ignored --release`).
    #[test]
    #[ignore = "slow: millions of blocks"]
    fn random_blocks_never_panic_long() {
        sweep(400_000, 0x1234_5678_9ABC_DEF1);
    }
}
