//! Known-answer tests for `decode_block` on the BC formats and the shared
//! conversions (sRGB, SNORM, sizes). Blocks are built bit by bit here and the
//! expected texels worked out by hand from the KDFS (S3TC, RGTC, BPTC
//! chapters) and Microsoft's BC6H/BC7 format pages, so a decoder that drifts
//! from the spec fails. ETC/EAC and ASTC keep their tests beside their code.

use half::f16;

use super::decode_block;
use crate::error::ErrorKind;
use crate::format::TextureFormat as F;
use crate::texel::srgb8_to_linear;

/// Packs fields LSB-first, the way BC6H and BC7 blocks are laid out.
pub(super) struct BitWriter {
    bits: u128,
    len: u32,
}

impl BitWriter {
    pub(super) fn new() -> BitWriter {
        BitWriter { bits: 0, len: 0 }
    }

    pub(super) fn put(mut self, value: u64, width: u32) -> BitWriter {
        assert!(width <= 64 && (width == 64 || value < 1 << width));
        self.bits |= (value as u128) << self.len;
        self.len += width;
        assert!(self.len <= 128, "block overflows 128 bits");
        self
    }

    pub(super) fn block(self) -> [u8; 16] {
        assert_eq!(self.len, 128, "block must fill exactly 128 bits");
        self.bits.to_le_bytes()
    }
}

fn decode(format: F, block: &[u8]) -> Vec<[f32; 4]> {
    let (w, h) = format.block_extent();
    let mut out = vec![[f32::NAN; 4]; (w * h) as usize];
    decode_block(format, block, &mut out).unwrap();
    out
}

fn u8s(v: [u32; 4]) -> [f32; 4] {
    v.map(|c| c as f32 / 255.0)
}

/// A BC1 block: two RGB565 endpoints and 2-bit indices, texel i at bits
/// 2i of the little-endian index word.
fn bc1(c0: u16, c1: u16, indices: [u32; 16]) -> [u8; 8] {
    let mut word = 0u32;
    for (i, &ix) in indices.iter().enumerate() {
        word |= ix << (2 * i);
    }
    let mut b = [0u8; 8];
    b[0..2].copy_from_slice(&c0.to_le_bytes());
    b[2..4].copy_from_slice(&c1.to_le_bytes());
    b[4..8].copy_from_slice(&word.to_le_bytes());
    b
}

const RAMP: [u32; 16] = [0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

#[test]
fn bc1_color0_above_color1_selects_four_colour_mode() {
    // Pure red (31, 0, 0) over pure blue: 255 and 0 make the thirds exact,
    // so index 2 = (2*c0 + c1)/3 = (170, 0, 85), index 3 = (85, 0, 170).
    let t = decode(F::Bc1RgbaUnorm, &bc1(0xF800, 0x001F, RAMP));
    assert_eq!(t[0], u8s([255, 0, 0, 255]));
    assert_eq!(t[1], u8s([0, 0, 255, 255]));
    assert_eq!(t[2], u8s([170, 0, 85, 255]));
    assert_eq!(t[3], u8s([85, 0, 170, 255]));
}

#[test]
fn bc1_color0_not_above_color1_selects_three_colour_mode() {
    // c0 = 0 <= c1 = (16, 32, 16): c1 expands to (132, 130, 132), so the
    // midpoint index 2 is exactly (66, 65, 66) and index 3 is black.
    let c1 = (16 << 11) | (32 << 5) | 16;
    let t = decode(F::Bc1RgbaUnorm, &bc1(0x0000, c1, RAMP));
    assert_eq!(t[1], u8s([132, 130, 132, 255]));
    assert_eq!(t[2], u8s([66, 65, 66, 255]));
    assert_eq!(t[3], [0.0, 0.0, 0.0, 0.0]);
    // Equal endpoints are the three-colour mode too (c0 <= c1).
    let t = decode(F::Bc1RgbaUnorm, &bc1(c1, c1, RAMP));
    assert_eq!(t[3], [0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn bc1_index3_is_transparent_for_rgba_and_opaque_black_for_rgb() {
    let c1 = (16 << 11) | (32 << 5) | 16;
    let block = bc1(0x0000, c1, RAMP);
    assert_eq!(decode(F::Bc1RgbaUnorm, &block)[3], [0.0, 0.0, 0.0, 0.0]);
    assert_eq!(decode(F::Bc1RgbUnorm, &block)[3], [0.0, 0.0, 0.0, 1.0]);
    // Four-colour blocks are opaque either way.
    let four = bc1(0xF800, 0x001F, RAMP);
    assert_eq!(decode(F::Bc1RgbUnorm, &four)[3][3], 1.0);
    assert_eq!(decode(F::Bc1RgbaUnorm, &four)[3][3], 1.0);
}

/// A BC4 block: two endpoint bytes and 3-bit codes, texel i at bit 3i.
fn bc4(r0: u8, r1: u8, codes: [u64; 16]) -> [u8; 8] {
    let mut word = 0u64;
    for (i, &c) in codes.iter().enumerate() {
        word |= c << (3 * i);
    }
    let mut b = [0u8; 8];
    b[0] = r0;
    b[1] = r1;
    b[2..8].copy_from_slice(&word.to_le_bytes()[..6]);
    b
}

const CODES: [u64; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0];

#[test]
fn bc4_snorm_minus_128_and_minus_127_both_read_minus_one() {
    // red0 = -128 <= red1 = 127: the six-value mode, whose codes 6 and 7
    // are the constants -1.0 and +1.0 for signed formats (KDFS RGTC).
    let t = decode(F::Bc4Snorm, &bc4(0x80, 0x7F, CODES));
    assert_eq!(t[0], [-1.0, 0.0, 0.0, 1.0]);
    assert_eq!(t[1], [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(t[6][0], -1.0);
    assert_eq!(t[7][0], 1.0);
    // red0 = 127 > red1 = -127: eight-value mode, code 1 is -127/127.
    let t = decode(F::Bc4Snorm, &bc4(0x7F, 0x81, CODES));
    assert_eq!(t[0][0], 1.0);
    assert_eq!(t[1][0], -1.0);
    // Code 4 is (4*RED0 + 3*RED1)/7 = 1/7.
    assert!((t[4][0] - 1.0 / 7.0).abs() < 1e-6);
}

#[test]
fn bc4_unorm_reads_endpoints_over_255() {
    let t = decode(F::Bc4Unorm, &bc4(255, 0, CODES));
    assert_eq!(t[0], [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(t[1], [0.0, 0.0, 0.0, 1.0]);
    // Code 2 is (6*255 + 0)/7 / 255 = 6/7.
    assert!((t[2][0] - 6.0 / 7.0).abs() < 1e-6);
}

#[test]
fn bc5_snorm_reads_both_channels_with_minus_128_as_minus_one() {
    let mut block = [0u8; 16];
    block[..8].copy_from_slice(&bc4(0x80, 0x7F, CODES));
    block[8..].copy_from_slice(&bc4(0x7F, 0x81, CODES));
    let t = decode(F::Bc5Snorm, &block);
    assert_eq!(t[0], [-1.0, 1.0, 0.0, 1.0]);
    assert_eq!(t[1], [1.0, -1.0, 0.0, 1.0]);
    let t = decode(F::Bc5Unorm, &block);
    assert_eq!(t[0], [128.0 / 255.0, 127.0 / 255.0, 0.0, 1.0]);
}

/// BC6H mode 11 (mode bits 00011): one region, 10-bit endpoints stored
/// whole (no deltas), 4-bit indices with a 3-bit anchor at texel 0.
fn bc6h_mode11(e0: [u64; 3], e1: [u64; 3], indices: [u64; 16]) -> [u8; 16] {
    let mut w = BitWriter::new().put(0b00011, 5);
    for c in e0.iter().chain(&e1) {
        w = w.put(*c, 10);
    }
    w = w.put(indices[0], 3);
    for &i in &indices[1..] {
        w = w.put(i, 4);
    }
    w.block()
}

fn half(bits: u16) -> f32 {
    f16::from_bits(bits).to_f32()
}

#[test]
fn bc6h_unsigned_mode11_unquantizes_to_known_halfs() {
    // Unsigned unquantize of a 10-bit x: 0 -> 0, 1023 -> 0xFFFF, else
    // (x << 16 | 0x8000) >> 10; then the half's bits are (u * 31) >> 6.
    // x = 495 -> 31712 -> 0x3C00 (1.0); 1023 -> 0x7BFF (65504).
    let mut ix = [0; 16];
    ix[1] = 15;
    ix[2] = 8; // weight 34
    let t = decode(F::Bc6hUfloat, &bc6h_mode11([495, 0, 1023], [0, 495, 0], ix));
    assert_eq!(t[0], [1.0, 0.0, 65504.0, 1.0]);
    assert_eq!(t[1], [0.0, 1.0, 0.0, 1.0]);
    // Weight 34: R (31712*30 + 32) >> 6 = 14865 -> 0x1C20; G (31712*34 +
    // 32) >> 6 = 16847 -> 0x1FE0; B (65535*30 + 32) >> 6 = 30720 -> 0x3A20.
    assert_eq!(t[2], [half(0x1C20), half(0x1FE0), half(0x3A20), 1.0]);
    assert_eq!(t[2][2], 0.765625);
}

#[test]
fn bc6h_signed_mode11_keeps_the_sign() {
    // Signed: |x| = 247 -> (247 << 15 | 0x4000) >> 9 = 15840, then
    // (15840 * 31) >> 5 = 15345 = 0x3BF1 with the sign in bit 15; 511 is
    // the largest magnitude and saturates to 0x7FFF -> 0x7BFF.
    let mut ix = [0; 16];
    ix[1] = 15;
    let minus_247 = 1024 - 247;
    let t = decode(
        F::Bc6hSfloat,
        &bc6h_mode11([247, minus_247, 0], [0, 0, 511], ix),
    );
    assert_eq!(t[0], [half(0x3BF1), half(0xBBF1), 0.0, 1.0]);
    assert_eq!(t[0][0], 2033.0 / 2048.0); // 0x3BF1
    assert_eq!(t[1], [0.0, 0.0, 65504.0, 1.0]);
    // The same bits read unsigned are different numbers: 777 is positive.
    let u = decode(
        F::Bc6hUfloat,
        &bc6h_mode11([247, minus_247, 0], [0, 0, 511], ix),
    );
    assert!(u[0][1] > 0.0);
}

#[test]
fn bc6h_signed_delta_endpoints_are_sign_extended_after_the_transform() {
    // Mode 12 (mode bits 00111): one region, 11-bit base, 9-bit deltas,
    // laid out rw[9:0] gw[9:0] bw[9:0] rx[8:0] rw[10] gx[8:0] gw[10]
    // bx[8:0] bw[10]. Red: base 100, delta -200, so e1 = (100 - 200) &
    // 0x7FF = 1948, which BC6H_SF16 must sign-extend to -100 ("For signed
    // formats, the results of the delta calculation must be sign extended
    // as well", Microsoft's BC6H page; Pillow 13 misses this).
    let mut w = BitWriter::new().put(0b00111, 5);
    w = w.put(100, 10).put(0, 10).put(0, 10);
    w = w
        .put(512 - 200, 9)
        .put(0, 1)
        .put(0, 9)
        .put(0, 1)
        .put(0, 9)
        .put(0, 1);
    w = w.put(0, 3).put(15, 4);
    for _ in 2..16 {
        w = w.put(0, 4);
    }
    let block = w.block();
    // |100| -> (100 << 15 | 0x4000) >> 10 = 3216 -> (3216 * 31) >> 5 =
    // 3115 = 0x0C2B = 1067 / 2^22; the sign goes to bit 15.
    let t = decode(F::Bc6hSfloat, &block);
    assert_eq!(t[0], [1067.0 / 4194304.0, 0.0, 0.0, 1.0]);
    assert_eq!(t[1], [-1067.0 / 4194304.0, 0.0, 0.0, 1.0]);
    assert_eq!(half(0x0C2B), 1067.0 / 4194304.0);
    // Unsigned, the same wrap stays positive: 1948 -> (1948 << 16 |
    // 0x8000) >> 11 = 62352 -> (62352 * 31) >> 6 = 30201 = 0x75F9.
    let u = decode(F::Bc6hUfloat, &block);
    assert_eq!(u[1][0], half(0x75F9));
    assert_eq!(u[1][0], 24464.0);
}

/// BC7 mode 6: one subset, RGBA 7.7.7.7 endpoints plus a unique P-bit
/// each, 4-bit indices (3-bit anchor at texel 0).
fn bc7_mode6(e0: [u64; 4], e1: [u64; 4], p: [u64; 2], indices: [u64; 16]) -> [u8; 16] {
    let mut w = BitWriter::new().put(1 << 6, 7);
    for c in 0..4 {
        w = w.put(e0[c], 7).put(e1[c], 7);
    }
    w = w.put(p[0], 1).put(p[1], 1).put(indices[0], 3);
    for &i in &indices[1..] {
        w = w.put(i, 4);
    }
    w.block()
}

#[test]
fn bc7_mode6_appends_p_bits_and_interpolates_with_4_bit_weights() {
    // e0 = (127, 0, 64, 127) << 1 | 1 = (255, 1, 129, 255);
    // e1 = (0, 127, 0, 0) << 1 | 0 = (0, 254, 0, 0).
    let mut ix = [0; 16];
    ix[1] = 15;
    ix[2] = 8; // weight 34: (30*e0 + 34*e1 + 32) >> 6
    let block = bc7_mode6([127, 0, 64, 127], [0, 127, 0, 0], [1, 0], ix);
    let t = decode(F::Bc7Unorm, &block);
    assert_eq!(t[0], u8s([255, 1, 129, 255]));
    assert_eq!(t[1], u8s([0, 254, 0, 0]));
    assert_eq!(t[2], u8s([120, 135, 60, 120]));
}

/// BC7 mode 5: one subset, rotation, RGB 7-bit and A 8-bit endpoints,
/// separate 2-bit colour and alpha indices (1-bit anchors at texel 0).
fn bc7_mode5(rot: u64, e0: [u64; 4], e1: [u64; 4], ci: [u64; 16], ai: [u64; 16]) -> [u8; 16] {
    let mut w = BitWriter::new().put(1 << 5, 6).put(rot, 2);
    for c in 0..3 {
        w = w.put(e0[c], 7).put(e1[c], 7);
    }
    w = w.put(e0[3], 8).put(e1[3], 8);
    for ix in [ci, ai] {
        w = w.put(ix[0], 1);
        for &i in &ix[1..] {
            w = w.put(i, 2);
        }
    }
    w.block()
}

#[test]
fn bc7_mode5_has_separate_alpha_indices_and_rotation() {
    // Colour endpoints expand 7 -> 8 bits by replication: 127 -> 255,
    // 64 -> 129. Weight 21 (index 1): (43*e0 + 21*e1 + 32) >> 6.
    let (e0, e1) = ([127, 0, 64, 200], [0, 127, 64, 10]);
    let mut ci = [0; 16];
    let mut ai = [0; 16];
    ci[0] = 1;
    ci[1] = 3;
    ai[1] = 3;
    let t = decode(F::Bc7Unorm, &bc7_mode5(0, e0, e1, ci, ai));
    assert_eq!(t[0], u8s([171, 84, 129, 200]));
    assert_eq!(t[1], u8s([0, 255, 129, 10]));
    // Rotation 1 swaps red and alpha after interpolation.
    let t = decode(F::Bc7Unorm, &bc7_mode5(1, e0, e1, ci, ai));
    assert_eq!(t[0], u8s([200, 84, 129, 171]));
}

#[test]
fn bc7_mode1_uses_the_partition_and_shared_p_bits() {
    // Partition 0 of the two-subset table: columns 0-1 subset 0, 2-3
    // subset 1; subset 1's anchor is texel 15. Endpoints are 6 bits, then
    // the subset's shared P-bit, then 7 -> 8 bit replication.
    let r = [63, 0, 0, 32];
    let g = [0, 63, 0, 32];
    let b = [0, 0, 63, 32];
    let mut w = BitWriter::new().put(0b10, 2).put(0, 6);
    for ch in [r, g, b] {
        for c in ch {
            w = w.put(c, 6);
        }
    }
    w = w.put(1, 1).put(0, 1); // P-bits: subset 0 set, subset 1 clear
    let mut ix = [0u64; 16];
    ix[1] = 7; // subset 0, e1
    ix[2] = 7; // subset 1, e1
    ix[3] = 4; // subset 1, weight 37
    for (i, &v) in ix.iter().enumerate() {
        w = w.put(v, if i == 0 || i == 15 { 2 } else { 3 });
    }
    let t = decode(F::Bc7Unorm, &w.block());
    // Subset 0 (P = 1): 63 -> 127 -> 255, 0 -> 1 -> 2.
    assert_eq!(t[0], u8s([255, 2, 2, 255]));
    assert_eq!(t[1], u8s([2, 255, 2, 255]));
    // Subset 1 (P = 0): 63 -> 126 -> 253, 32 -> 64 -> 129.
    assert_eq!(t[15], u8s([0, 0, 253, 255]));
    assert_eq!(t[2], u8s([129, 129, 129, 255]));
    // Weight 37: (27*e0 + 37*e1 + 32) >> 6.
    assert_eq!(t[3], u8s([75, 75, 181, 255]));
}

#[test]
fn bc7_srgb_decodes_colour_through_the_eotf_and_keeps_alpha_linear() {
    // e0 = 64 << 1 | 0 = 128 in every channel.
    let block = bc7_mode6([64; 4], [0; 4], [0, 0], [0; 16]);
    let t = decode(F::Bc7Srgb, &block);
    let l = srgb8_to_linear(0x80);
    assert_eq!(t[0], [l, l, l, 128.0 / 255.0]);
    assert!((l - 0.215_860_5).abs() < 1e-6);
    assert_eq!(decode(F::Bc7Unorm, &block)[0], u8s([128; 4]));
}

#[test]
fn bc1_srgb_decodes_colour_through_the_eotf() {
    // 5-bit 16 expands to 132, 6-bit 32 to 130.
    let c = (16 << 11) | (32 << 5) | 16;
    let t = decode(F::Bc1RgbSrgb, &bc1(c, c, [0; 16]));
    let (a, b) = (srgb8_to_linear(132), srgb8_to_linear(130));
    assert_eq!(t[0], [a, b, a, 1.0]);
}

#[test]
fn decode_block_reports_short_buffers_instead_of_panicking() {
    let mut out = [[0.0; 4]; 16];
    let e = decode_block(F::Bc7Unorm, &[0; 15], &mut out).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::WrongSize);
    assert_eq!(e.to_string(), "compressed block: expected 16 bytes, got 15");
    let e = decode_block(F::Astc12x12Unorm, &[0; 16], &mut out).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::WrongSize);
    assert_eq!(
        e.to_string(),
        "decoded block buffer (texels): expected 144 bytes, got 16"
    );
    let e = decode_block(F::R8Unorm, &[0; 16], &mut out).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert_eq!(e.format(), Some(F::R8Unorm));
}

#[test]
fn every_block_format_decodes_all_zero_and_all_one_blocks() {
    // Every compressed format, both extreme bit patterns: no panic, and
    // every texel a finite value in the format's range.
    let mut out = [[f32::NAN; 4]; super::MAX_BLOCK_TEXELS];
    for f in F::ALL.iter().copied().filter(|f| f.is_compressed()) {
        for fill in [0x00u8, 0xFF] {
            let (w, h) = f.block_extent();
            decode_block(f, &[fill; 16], &mut out).unwrap();
            for t in &out[..(w * h) as usize] {
                assert!(t.iter().all(|v| v.is_finite()), "{f} {fill:#x}: {t:?}");
            }
        }
    }
}
