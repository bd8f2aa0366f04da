//! Encode after decode is the identity for every uncompressed format, on
//! edge codes (0, all ones, sign boundaries, denormals, Inf, NaN) and on
//! seeded random words; and decode after encode is exact on edge floats.

use quadtex_format::format::FormatLayout;
use quadtex_format::texel::{decode, encode};
use quadtex_format::{Aspect, ChannelKind, Texel, TextureFormat};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn same(a: Texel, b: Texel) -> bool {
    match (a, b) {
        (Texel::Float(x), Texel::Float(y)) => x
            .iter()
            .zip(y)
            .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())),
        _ => a == b,
    }
}

/// Byte patterns that exercise every field's edges, then random ones.
fn patterns(f: TextureFormat, rng: &mut Rng) -> Vec<Vec<u8>> {
    let n = f.block_bytes() as usize;
    let mut out: Vec<Vec<u8>> = [0x00u8, 0xff, 0x80, 0x7f, 0x01, 0xfe, 0x55, 0xaa]
        .iter()
        .map(|&b| vec![b; n])
        .collect();
    // f16 / f32 specials in every component slot.
    for w in [
        0x0001u32,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x3c00,
        0x7c00,
        0x03ff,
        0x8001,
    ] {
        let b = w.to_le_bytes();
        out.push((0..n).map(|i| b[i % 4]).collect());
        let h = (w as u16).to_le_bytes();
        out.push((0..n).map(|i| h[i % 2]).collect());
    }
    for _ in 0..2000 {
        out.push((0..n).map(|_| rng.next() as u8).collect());
    }
    out
}

/// Bytes that carry information (padding and undefined bits excluded).
fn meaningful(f: TextureFormat, b: &[u8]) -> Vec<u8> {
    match f {
        TextureFormat::Depth32FloatS8Uint => b[..5].to_vec(),
        _ => b.to_vec(),
    }
}

/// Codes that decode to a value another code also decodes to, so encode
/// cannot return them: SNORM's most negative code (-1.0 is also -max), and
/// NaN payloads of the small floats, and shared-exponent words whose
/// mantissas are not normalized (several words per value).
fn canonical(f: TextureFormat, b: &[u8], t: Texel) -> bool {
    if f == TextureFormat::Rgb9e5Ufloat {
        return false;
    }
    if let Texel::Float(v) = t {
        if v.iter().any(|x| x.is_nan()) {
            return false;
        }
    }
    match f.layout() {
        FormatLayout::Array {
            kind: ChannelKind::Snorm,
            bits,
            order,
        } => {
            let size = bits as usize / 8;
            (0..order.count() as usize).all(|i| {
                let top = b[i * size + size - 1];
                let rest_zero = b[i * size..i * size + size - 1].iter().all(|&x| x == 0);
                !(top == 0x80 && rest_zero)
            })
        }
        _ => true,
    }
}

#[test]
fn encode_after_decode_is_identity_for_every_uncompressed_format() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for &f in TextureFormat::ALL.iter().filter(|f| !f.is_compressed()) {
        let aspects: &[Aspect] = match (f.has_depth(), f.has_stencil()) {
            (true, true) => &[Aspect::Depth, Aspect::Stencil],
            (true, false) => &[Aspect::Depth],
            (false, true) => &[Aspect::Stencil],
            (false, false) => &[Aspect::Color],
        };
        for b in patterns(f, &mut rng) {
            let mut out = vec![0u8; b.len()];
            for &a in aspects {
                let t = decode(f, a, &b).unwrap();
                encode(f, a, t, &mut out).unwrap();
                let t2 = decode(f, a, &out).unwrap();
                assert!(
                    same(t, t2),
                    "{f} {a:?} {b:02x?}: {t:?} -> {out:02x?} -> {t2:?}"
                );
            }
            let t = decode(f, aspects[0], &b).unwrap();
            if canonical(f, &b, t) {
                let (m1, m2) = (meaningful(f, &b), meaningful(f, &out));
                let m1 = if f == TextureFormat::Depth24UnormX8 {
                    m1[..3].to_vec()
                } else {
                    m1
                };
                let m2 = if f == TextureFormat::Depth24UnormX8 {
                    m2[..3].to_vec()
                } else {
                    m2
                };
                assert_eq!(m1, m2, "{f}: {t:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn edge_floats_survive_encode_then_decode() {
    let specials = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::from_bits(1),
        f32::MAX,
        65504.0,
        2f32.powi(-24),
    ];
    for v in specials {
        let mut b = [0u8; 16];
        encode(
            TextureFormat::Rgba32Float,
            Aspect::Color,
            Texel::Float([v; 4]),
            &mut b,
        )
        .unwrap();
        assert_eq!(
            decode(TextureFormat::Rgba32Float, Aspect::Color, &b)
                .unwrap()
                .to_bits(),
            [v.to_bits(); 4]
        );
    }
    // f16 keeps its denormals, Inf and signed zero exactly.
    for v in [2f32.powi(-24), -0.0, f32::INFINITY, 65504.0, 0.333_251_95] {
        let mut b = [0u8; 2];
        encode(
            TextureFormat::R16Float,
            Aspect::Color,
            Texel::Float([v, 0.0, 0.0, 1.0]),
            &mut b,
        )
        .unwrap();
        assert_eq!(
            decode(TextureFormat::R16Float, Aspect::Color, &b)
                .unwrap()
                .to_f32()[0]
                .to_bits(),
            v.to_bits()
        );
    }
    // Normalized extremes.
    let mut b = [0u8; 8];
    encode(
        TextureFormat::Rgba16Unorm,
        Aspect::Color,
        Texel::Float([0.0, 1.0, 0.5, 1.0]),
        &mut b,
    )
    .unwrap();
    assert_eq!(b, [0, 0, 0xff, 0xff, 0x00, 0x80, 0xff, 0xff]);
    encode(
        TextureFormat::Rgba16Snorm,
        Aspect::Color,
        Texel::Float([-1.0, 1.0, 0.0, -0.5]),
        &mut b,
    )
    .unwrap();
    assert_eq!(
        decode(TextureFormat::Rgba16Snorm, Aspect::Color, &b)
            .unwrap()
            .to_f32(),
        [-1.0, 1.0, 0.0, -16384.0 / 32767.0]
    );
}
