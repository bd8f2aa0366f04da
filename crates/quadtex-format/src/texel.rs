//! Texel values and the codecs of every uncompressed format: decode to what
//! a shader sees, encode by the Vulkan conversion rules.
//!
//! Decoding follows Vulkan's "Fixed-Point Data Conversions" and the small
//! float sections of the Data Format chapter: UNORM `v / (2^n - 1)`, SNORM
//! `max(v / (2^(n-1) - 1), -1)`, sRGB by the exact transfer function, f16 and
//! the 11-, 10-bit and shared-exponent floats exactly (denormals, Inf and
//! NaN included). Missing components read as (0, 0, 0, 1), with 1.0 for
//! float formats and integer 1 for integer formats (the D3D `ld2dms`
//! reference: "defaults (0,0,0,1.0f/0x00000001)"). 32-bit floats are carried
//! as their bits (`f32::from_bits` keeps denormals, -0 and NaN payloads), as
//! `ld2dms` requires.
//!
//! Block-compressed formats are decoded a block at a time in `compressed/`.

use std::sync::LazyLock;

use half::f16;

use crate::error::{Error, Result};
use crate::format::{
    Aspect, ChannelKind, ChannelOrder, DepthKind, FormatLayout, SampleType, TextureFormat,
};

/// One decoded texel: what a shader register receives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Texel {
    /// Float, normalized, sRGB (already linear), depth and compressed formats.
    Float([f32; 4]),
    /// `UINT` formats and stencil.
    Uint([u32; 4]),
    /// `SINT` formats.
    Sint([i32; 4]),
}

impl Texel {
    /// The four 32-bit register words: float bits, or the integers
    /// (signed values sign-extended).
    pub fn to_bits(self) -> [u32; 4] {
        match self {
            Texel::Float(v) => v.map(f32::to_bits),
            Texel::Uint(v) => v,
            Texel::Sint(v) => v.map(|x| x as u32),
        }
    }

    /// Rebuilds a texel of `ty` from register words.
    pub fn from_bits(ty: SampleType, bits: [u32; 4]) -> Texel {
        match ty {
            SampleType::Float => Texel::Float(bits.map(f32::from_bits)),
            SampleType::Uint => Texel::Uint(bits),
            SampleType::Sint => Texel::Sint(bits.map(|x| x as i32)),
        }
    }

    /// The values as floats (integers converted by value).
    pub fn to_f32(self) -> [f32; 4] {
        match self {
            Texel::Float(v) => v,
            Texel::Uint(v) => v.map(|x| x as f32),
            Texel::Sint(v) => v.map(|x| x as f32),
        }
    }

    /// The missing-component defaults (0, 0, 0, 1) for `ty` (the D3D
    /// `ld2dms` reference; Vulkan "Component Substitution").
    pub fn defaults(ty: SampleType) -> Texel {
        match ty {
            SampleType::Float => Texel::Float([0.0, 0.0, 0.0, 1.0]),
            SampleType::Uint => Texel::Uint([0, 0, 0, 1]),
            SampleType::Sint => Texel::Sint([0, 0, 0, 1]),
        }
    }

    /// All four components zero, of class `ty`.
    pub fn zero(ty: SampleType) -> Texel {
        match ty {
            SampleType::Float => Texel::Float([0.0; 4]),
            SampleType::Uint => Texel::Uint([0; 4]),
            SampleType::Sint => Texel::Sint([0; 4]),
        }
    }

    /// The numeric class.
    pub fn sample_type(self) -> SampleType {
        match self {
            Texel::Float(_) => SampleType::Float,
            Texel::Uint(_) => SampleType::Uint,
            Texel::Sint(_) => SampleType::Sint,
        }
    }

    fn class_name(self) -> &'static str {
        match self {
            Texel::Float(_) => "float",
            Texel::Uint(_) => "unsigned integer",
            Texel::Sint(_) => "signed integer",
        }
    }
}

static UNORM8_TO_F32: LazyLock<[f32; 256]> = LazyLock::new(|| {
    let mut t = [0.0f32; 256];
    for (i, v) in t.iter_mut().enumerate() {
        *v = unorm_to_f32(i as u32, 8);
    }
    t
});

static SRGB_TO_LINEAR: LazyLock<[f32; 256]> = LazyLock::new(|| {
    let mut t = [0.0f32; 256];
    for (i, v) in t.iter_mut().enumerate() {
        *v = srgb_to_linear_f64(i as f64 / 255.0) as f32;
    }
    t
});

fn srgb_to_linear_f64(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// The 256 UNORM8 values `v / 255` (each correctly rounded), for
/// table-driven decoders.
pub fn unorm8_table() -> &'static [f32; 256] {
    &UNORM8_TO_F32
}

/// The 256 sRGB8 codes decoded to linear (each correctly rounded from f64),
/// for table-driven decoders.
pub fn srgb8_table() -> &'static [f32; 256] {
    &SRGB_TO_LINEAR
}

/// sRGB EOTF of an 8-bit code, exactly rounded from f64 (Vulkan "sRGB
/// EOTF"). `0x80` reads 0.2158605.
pub fn srgb8_to_linear(code: u8) -> f32 {
    SRGB_TO_LINEAR[code as usize]
}

/// sRGB EOTF of a value in [0, 1].
pub fn srgb_to_linear(c: f32) -> f32 {
    srgb_to_linear_f64(c as f64) as f32
}

/// sRGB inverse EOTF of a linear value; NaN and negatives give 0, values
/// above 1 give 1.
pub fn linear_to_srgb(l: f32) -> f32 {
    if l.is_nan() || l <= 0.0 {
        return 0.0;
    }
    if l >= 1.0 {
        return 1.0;
    }
    let l = l as f64;
    let s = if l <= 0.0031308 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    s as f32
}

/// UNORM decode of an `n`-bit code.
pub fn unorm_to_f32(v: u32, bits: u32) -> f32 {
    let max = ((1u64 << bits) - 1) as f32;
    v as f32 / max
}

/// SNORM decode of an `n`-bit two's complement code (sign-extended).
pub fn snorm_to_f32(v: i32, bits: u32) -> f32 {
    let max = ((1i64 << (bits - 1)) - 1) as f32;
    (v as f32 / max).max(-1.0)
}

/// UNORM encode: clamp to [0, 1], scale, round to nearest even; NaN -> 0.
pub fn f32_to_unorm(f: f32, bits: u32) -> u32 {
    let max = ((1u64 << bits) - 1) as f64;
    if f.is_nan() {
        return 0;
    }
    let c = (f as f64).clamp(0.0, 1.0) * max;
    c.round_ties_even() as u32
}

/// SNORM encode: clamp to [-1, 1], scale, round to nearest even; NaN -> 0.
/// Returns the two's complement code in the low `bits` bits.
pub fn f32_to_snorm(f: f32, bits: u32) -> u32 {
    let max = ((1i64 << (bits - 1)) - 1) as f64;
    if f.is_nan() {
        return 0;
    }
    let c = ((f as f64).clamp(-1.0, 1.0) * max).round_ties_even() as i64;
    (c as u32) & mask(bits)
}

fn mask(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}

fn sext(v: u32, bits: u32) -> i32 {
    let s = 32 - bits;
    ((v << s) as i32) >> s
}

/// Decodes an unsigned small float with a 5-bit exponent (bias 15) and an
/// `mbits`-bit mantissa (11-bit: 6, 10-bit: 5), exactly.
pub fn ufloat_to_f32(v: u32, mbits: u32) -> f32 {
    let m = v & mask(mbits);
    let e = (v >> mbits) & 0x1f;
    let mf = m as f32 / (1u32 << mbits) as f32;
    match e {
        0 => mf * 2f32.powi(-14),
        31 => {
            if m == 0 {
                f32::INFINITY
            } else {
                f32::NAN
            }
        }
        _ => 2f32.powi(e as i32 - 15) * (1.0 + mf),
    }
}

/// Encodes an unsigned small float (GL 4.6 §2.3.4.3/4 rules): negative
/// values and -Inf give 0, +Inf stays Inf, NaN gives a NaN, finite values too
/// large give the largest finite value, the rest round to nearest even.
pub fn f32_to_ufloat(f: f32, mbits: u32) -> u32 {
    let inf = 31u32 << mbits;
    if f.is_nan() {
        return inf | 1;
    }
    if f == f32::INFINITY {
        return inf;
    }
    if f <= 0.0 {
        return 0;
    }
    let max_finite = (30u32 << mbits) | mask(mbits);
    let bits = f.to_bits();
    let exp = ((bits >> 23) & 0xff) as i32 - 127;
    // Work in units of the smallest denormal: 2^(-14 - mbits).
    let shift_den = 14 + mbits as i32;
    if exp < -14 {
        // Denormal (or zero) result: value / 2^(-14-mbits), rounded.
        let scaled = (f as f64) * 2f64.powi(shift_den);
        let r = scaled.round_ties_even() as u32;
        return r.min(max_finite); // r may reach the smallest normal, whose code is r
    }
    // Normal: keep mbits of mantissa with RNE on the f32 mantissa.
    let m23 = bits & 0x7f_ffff;
    let drop = 23 - mbits;
    let mut m = m23 >> drop;
    let rem = m23 & ((1 << drop) - 1);
    let half = 1 << (drop - 1);
    let mut e = (exp + 15) as u32;
    if rem > half || (rem == half && (m & 1) == 1) {
        m += 1;
        if m == (1 << mbits) {
            m = 0;
            e += 1;
        }
    }
    if e >= 31 {
        return max_finite;
    }
    (e << mbits) | m
}

/// Decodes `E5B9G9R9_UFLOAT_PACK32`: `c * 2^(E - 15 - 9)` (Vulkan "Shared
/// exponent").
pub fn rgb9e5_to_f32(w: u32) -> [f32; 3] {
    let e = (w >> 27) as i32;
    let scale = 2f32.powi(e - 15 - 9);
    [
        (w & 0x1ff) as f32 * scale,
        ((w >> 9) & 0x1ff) as f32 * scale,
        ((w >> 18) & 0x1ff) as f32 * scale,
    ]
}

/// Encodes `E5B9G9R9_UFLOAT_PACK32` by the GL/Vulkan shared-exponent
/// algorithm (components clamped to [0, sharedexp_max], NaN as 0).
pub fn f32_to_rgb9e5(c: [f32; 3]) -> u32 {
    const N: i32 = 9;
    const B: i32 = 15;
    const EMAX: i32 = 31;
    let max_val = ((1 << N) - 1) as f64 / (1 << N) as f64 * 2f64.powi(EMAX - B);
    let cl = c.map(|v| {
        if v.is_nan() {
            0.0
        } else {
            (v as f64).clamp(0.0, max_val)
        }
    });
    let maxc = cl[0].max(cl[1]).max(cl[2]);
    let exp_p = if maxc > 0.0 {
        (-B - 1).max(maxc.log2().floor() as i32) + 1 + B
    } else {
        // floor(log2(0)) is -inf: max(-B-1, -inf) = -B-1.
        0
    };
    let max_s = (maxc / 2f64.powi(exp_p - B - N) + 0.5).floor() as i32;
    let exp_s = if max_s == (1 << N) { exp_p + 1 } else { exp_p };
    let q = cl.map(|v| ((v / 2f64.powi(exp_s - B - N) + 0.5).floor() as u32).min(511));
    ((exp_s as u32) << 27) | (q[2] << 18) | (q[1] << 9) | q[0]
}

fn read_uint(bytes: &[u8], size: usize) -> u32 {
    match size {
        1 => bytes[0] as u32,
        2 => u16::from_le_bytes([bytes[0], bytes[1]]) as u32,
        _ => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
    }
}

fn write_uint(out: &mut [u8], size: usize, v: u32) {
    out[..size].copy_from_slice(&v.to_le_bytes()[..size]);
}

fn check_len(format: TextureFormat, bytes: usize) -> Result<usize> {
    let need = format.block_bytes() as usize;
    if bytes < need {
        return Err(Error::wrong_size("texel", need as u64, bytes as u64));
    }
    Ok(need)
}

/// Maps a memory-order component index of an array format to its output
/// component (R=0 .. A=3).
fn array_dst(order: ChannelOrder, i: usize) -> usize {
    match order {
        ChannelOrder::R | ChannelOrder::Rg | ChannelOrder::Rgb | ChannelOrder::Rgba => i,
        ChannelOrder::Bgra => [2, 1, 0, 3][i],
        ChannelOrder::A => 3,
    }
}

/// Decodes one texel of an uncompressed format through `aspect`
/// (`Aspect::Color` on a depth/stencil format reads its default aspect).
/// Compressed formats are an error here: use [`crate::compressed`].
pub fn decode(format: TextureFormat, aspect: Aspect, bytes: &[u8]) -> Result<Texel> {
    check_len(format, bytes.len())?;
    Ok(match format.layout() {
        FormatLayout::Array { order, bits, kind } => {
            let size = bits as usize / 8;
            let n = order.count() as usize;
            match kind {
                ChannelKind::Uint | ChannelKind::Sint => {
                    let mut u = [0u32, 0, 0, 1];
                    for i in 0..n {
                        let v = read_uint(&bytes[i * size..], size);
                        u[array_dst(order, i)] = if kind == ChannelKind::Sint {
                            sext(v, bits as u32) as u32
                        } else {
                            v
                        };
                    }
                    if kind == ChannelKind::Sint {
                        Texel::Sint(u.map(|x| x as i32))
                    } else {
                        Texel::Uint(u)
                    }
                }
                ChannelKind::Unorm
                | ChannelKind::Snorm
                | ChannelKind::Float
                | ChannelKind::Srgb => {
                    let mut f = [0.0f32, 0.0, 0.0, 1.0];
                    for i in 0..n {
                        let v = read_uint(&bytes[i * size..], size);
                        let d = array_dst(order, i);
                        f[d] = match kind {
                            ChannelKind::Unorm => unorm_to_f32(v, bits as u32),
                            ChannelKind::Snorm => snorm_to_f32(sext(v, bits as u32), bits as u32),
                            ChannelKind::Srgb if d < 3 => srgb8_to_linear(v as u8),
                            ChannelKind::Srgb => unorm_to_f32(v, 8),
                            _ if bits == 16 => f16::from_bits(v as u16).to_f32(),
                            _ => f32::from_bits(v),
                        };
                    }
                    Texel::Float(f)
                }
            }
        }
        FormatLayout::Packed {
            word_bits,
            fields,
            kind,
        } => {
            let w = read_uint(bytes, word_bits as usize / 8);
            let mut u = [0u32, 0, 0, 1];
            let mut f = [0.0f32, 0.0, 0.0, 1.0];
            for c in 0..4 {
                let (shift, width) = fields[c];
                if width == 0 {
                    continue;
                }
                let v = (w >> shift) & mask(width as u32);
                u[c] = v;
                f[c] = unorm_to_f32(v, width as u32);
            }
            if kind == ChannelKind::Uint {
                Texel::Uint(u)
            } else {
                Texel::Float(f)
            }
        }
        FormatLayout::B10G11R11Ufloat => {
            let w = read_uint(bytes, 4);
            Texel::Float([
                ufloat_to_f32(w & 0x7ff, 6),
                ufloat_to_f32((w >> 11) & 0x7ff, 6),
                ufloat_to_f32((w >> 22) & 0x3ff, 5),
                1.0,
            ])
        }
        FormatLayout::E5B9G9R9Ufloat => {
            let [r, g, b] = rgb9e5_to_f32(read_uint(bytes, 4));
            Texel::Float([r, g, b, 1.0])
        }
        FormatLayout::DepthStencil { depth, stencil, .. } => {
            let aspect = match aspect {
                Aspect::Color => format.default_aspect(),
                a => a,
            };
            match (aspect, depth) {
                (Aspect::Depth, Some(d)) => Texel::Float([depth_value(d, bytes), 0.0, 0.0, 1.0]),
                (Aspect::Stencil, _) if stencil => {
                    Texel::Uint([stencil_value(format, bytes), 0, 0, 1])
                }
                _ => return Err(Error::unsupported(format, "the format has no such aspect")),
            }
        }
        FormatLayout::Block { .. } => {
            return Err(Error::unsupported(
                format,
                "block-compressed texels decode a block at a time (compressed::decode_block)",
            ))
        }
    })
}

/// Decodes a run of texels of an uncompressed float-sampled format to
/// `[f32; 4]` (as [`decode`] texel by texel, with the layout match hoisted
/// out of the loop and fast paths for 8-bit UNORM/sRGB and 16/32-bit
/// floats). `src` holds `out.len()` texels.
pub fn decode_f32_row(
    format: TextureFormat,
    aspect: Aspect,
    src: &[u8],
    out: &mut [[f32; 4]],
) -> Result<()> {
    let bpp = format.block_bytes() as usize;
    if src.len() < out.len() * bpp {
        return Err(Error::wrong_size(
            "texel row",
            (out.len() * bpp) as u64,
            src.len() as u64,
        ));
    }
    if format.aspect_sample_type(aspect) != SampleType::Float || format.is_compressed() {
        return Err(Error::unsupported(
            format,
            "decode_f32_row reads uncompressed float-sampled formats",
        ));
    }
    let src = &src[..out.len() * bpp];
    match format.layout() {
        FormatLayout::Array {
            order,
            bits: 8,
            kind: kind @ (ChannelKind::Unorm | ChannelKind::Srgb),
        } => {
            // Table lookups: exact (each entry is the correctly rounded
            // quotient) and several times faster than dividing.
            let n = order.count() as usize;
            let alpha: &[f32; 256] = &UNORM8_TO_F32;
            let colour: &[f32; 256] = if kind == ChannelKind::Srgb {
                &SRGB_TO_LINEAR
            } else {
                alpha
            };
            match order {
                ChannelOrder::Rgba | ChannelOrder::Bgra => {
                    let (r, b) = if order == ChannelOrder::Rgba {
                        (0, 2)
                    } else {
                        (2, 0)
                    };
                    for (t, p) in out.iter_mut().zip(src.as_chunks::<4>().0) {
                        *t = [
                            colour[p[r] as usize],
                            colour[p[1] as usize],
                            colour[p[b] as usize],
                            alpha[p[3] as usize],
                        ];
                    }
                }
                ChannelOrder::R | ChannelOrder::Rg | ChannelOrder::Rgb | ChannelOrder::A => {
                    for (t, p) in out.iter_mut().zip(src.chunks_exact(n)) {
                        let mut f = [0.0f32, 0.0, 0.0, 1.0];
                        for (i, &v) in p.iter().enumerate() {
                            let d = array_dst(order, i);
                            f[d] = if d < 3 {
                                colour[v as usize]
                            } else {
                                alpha[v as usize]
                            };
                        }
                        *t = f;
                    }
                }
            }
        }
        FormatLayout::Array {
            order:
                order @ (ChannelOrder::R | ChannelOrder::Rg | ChannelOrder::Rgb | ChannelOrder::Rgba),
            bits: bits @ (16 | 32),
            kind: ChannelKind::Float,
        } => {
            let n = order.count() as usize;
            let size = bits as usize / 8;
            for (t, b) in out.iter_mut().zip(src.chunks_exact(n * size)) {
                let mut f = [0.0f32, 0.0, 0.0, 1.0];
                for (i, c) in b.chunks_exact(size).enumerate() {
                    f[i] = if size == 2 {
                        f16::from_bits(u16::from_le_bytes([c[0], c[1]])).to_f32()
                    } else {
                        f32::from_le_bytes([c[0], c[1], c[2], c[3]])
                    };
                }
                *t = f;
            }
        }
        _ => {
            for (t, b) in out.iter_mut().zip(src.chunks_exact(bpp)) {
                *t = decode(format, aspect, b)?.to_f32();
            }
        }
    }
    Ok(())
}

fn depth_value(d: DepthKind, bytes: &[u8]) -> f32 {
    match d {
        DepthKind::Unorm16 => unorm_to_f32(read_uint(bytes, 2), 16),
        DepthKind::Unorm24 => unorm_to_f32(read_uint(bytes, 4) & 0xff_ffff, 24),
        DepthKind::Float32 => f32::from_bits(read_uint(bytes, 4)),
    }
}

/// Stencil byte position: `D24_UNORM_S8_UINT` keeps stencil in bits 31:24 of
/// its word (depth in 23:0, as `X8_D24_UNORM_PACK32`); `D32_SFLOAT_S8_UINT`
/// in byte 4 (depth in bytes 0..4, then 3 unused bytes); `S8_UINT` byte 0.
fn stencil_offset(format: TextureFormat) -> usize {
    match format.layout() {
        FormatLayout::DepthStencil { depth, .. } => match depth {
            Some(DepthKind::Unorm24) => 3,
            Some(DepthKind::Float32) => 4,
            Some(DepthKind::Unorm16) | None => 0,
        },
        FormatLayout::Array { .. }
        | FormatLayout::Packed { .. }
        | FormatLayout::B10G11R11Ufloat
        | FormatLayout::E5B9G9R9Ufloat
        | FormatLayout::Block { .. } => 0,
    }
}

fn stencil_value(format: TextureFormat, bytes: &[u8]) -> u32 {
    bytes[stencil_offset(format)] as u32
}

/// Encodes one texel of an uncompressed format through `aspect`, writing
/// only that aspect's bits of a depth/stencil texel. Float formats take
/// `Texel::Float`; integer formats take `Texel::Uint` or `Texel::Sint`
/// (clamped to the format's range).
pub fn encode(format: TextureFormat, aspect: Aspect, texel: Texel, out: &mut [u8]) -> Result<()> {
    let size = check_len(format, out.len())?;
    let aspect = match aspect {
        Aspect::Color => format.default_aspect(),
        a => a,
    };
    let want = format.aspect_sample_type(aspect);
    let needed = match want {
        SampleType::Float => "float",
        SampleType::Uint | SampleType::Sint => "integer",
    };
    let class_err = || Error::texel_class(format, needed, texel.class_name());
    let ints = |t: Texel| -> Option<[i64; 4]> {
        match t {
            Texel::Uint(v) => Some(v.map(|x| x as i64)),
            Texel::Sint(v) => Some(v.map(|x| x as i64)),
            Texel::Float(_) => None,
        }
    };
    match format.layout() {
        FormatLayout::Array { order, bits, kind } => {
            let csize = bits as usize / 8;
            let n = order.count() as usize;
            for i in 0..n {
                let d = array_dst(order, i);
                let v: u32 = match kind {
                    ChannelKind::Uint => {
                        let iv = ints(texel).ok_or_else(class_err)?;
                        iv[d].clamp(0, mask(bits as u32) as i64) as u32
                    }
                    ChannelKind::Sint => {
                        let iv = ints(texel).ok_or_else(class_err)?;
                        let hi = (1i64 << (bits - 1)) - 1;
                        (iv[d].clamp(-hi - 1, hi) as u32) & mask(bits as u32)
                    }
                    ChannelKind::Unorm
                    | ChannelKind::Snorm
                    | ChannelKind::Float
                    | ChannelKind::Srgb => {
                        let Texel::Float(f) = texel else {
                            return Err(class_err());
                        };
                        match kind {
                            ChannelKind::Unorm => f32_to_unorm(f[d], bits as u32),
                            ChannelKind::Snorm => f32_to_snorm(f[d], bits as u32),
                            ChannelKind::Srgb if d < 3 => f32_to_unorm(linear_to_srgb(f[d]), 8),
                            ChannelKind::Srgb => f32_to_unorm(f[d], 8),
                            _ if bits == 16 => f16::from_f32(f[d]).to_bits() as u32,
                            _ => f[d].to_bits(),
                        }
                    }
                };
                write_uint(&mut out[i * csize..], csize, v);
            }
        }
        FormatLayout::Packed {
            word_bits,
            fields,
            kind,
        } => {
            let mut w = 0u32;
            for c in 0..4 {
                let (shift, width) = fields[c];
                if width == 0 {
                    continue;
                }
                let v = if kind == ChannelKind::Uint {
                    let iv = ints(texel).ok_or_else(class_err)?;
                    iv[c].clamp(0, mask(width as u32) as i64) as u32
                } else {
                    let Texel::Float(f) = texel else {
                        return Err(class_err());
                    };
                    f32_to_unorm(f[c], width as u32)
                };
                w |= v << shift;
            }
            write_uint(out, word_bits as usize / 8, w);
        }
        FormatLayout::B10G11R11Ufloat => {
            let Texel::Float(f) = texel else {
                return Err(class_err());
            };
            let w = f32_to_ufloat(f[0], 6)
                | (f32_to_ufloat(f[1], 6) << 11)
                | (f32_to_ufloat(f[2], 5) << 22);
            write_uint(out, 4, w);
        }
        FormatLayout::E5B9G9R9Ufloat => {
            let Texel::Float(f) = texel else {
                return Err(class_err());
            };
            write_uint(out, 4, f32_to_rgb9e5([f[0], f[1], f[2]]));
        }
        FormatLayout::DepthStencil { depth, stencil, .. } => match (aspect, depth) {
            (Aspect::Depth, Some(d)) => {
                let Texel::Float(f) = texel else {
                    return Err(class_err());
                };
                match d {
                    DepthKind::Unorm16 => write_uint(out, 2, f32_to_unorm(f[0], 16)),
                    DepthKind::Unorm24 => {
                        let old = read_uint(out, 4) & 0xff00_0000;
                        write_uint(out, 4, old | f32_to_unorm(f[0], 24));
                    }
                    DepthKind::Float32 => write_uint(out, 4, f[0].to_bits()),
                }
            }
            (Aspect::Stencil, _) if stencil => {
                let iv = ints(texel).ok_or_else(class_err)?;
                out[stencil_offset(format)] = iv[0].clamp(0, 255) as u8;
            }
            _ => return Err(Error::unsupported(format, "the format has no such aspect")),
        },
        FormatLayout::Block { .. } => {
            return Err(Error::unsupported(
                format,
                "encoding block-compressed formats is not supported",
            ))
        }
    }
    let _ = size;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use TextureFormat as F;

    fn dec(f: F, b: &[u8]) -> Texel {
        decode(f, Aspect::Color, b).unwrap()
    }

    #[test]
    fn row_decode_matches_texel_decode() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(16 * 64).collect();
        for f in [
            F::Rgba8Unorm,
            F::Rgba8Srgb,
            F::Bgra8Srgb,
            F::R8Unorm,
            F::Rg16Float,
            F::Rgba32Float,
            F::Rgba16Snorm,
            F::Rg11b10Ufloat,
            F::Depth24UnormS8Uint,
        ] {
            let n = bytes.len() / f.block_bytes() as usize;
            let mut out = vec![[0f32; 4]; n];
            decode_f32_row(f, Aspect::Color, &bytes, &mut out).unwrap();
            for (i, t) in out.iter().enumerate() {
                let b = &bytes[i * f.block_bytes() as usize..];
                let want = decode(f, Aspect::Color, b).unwrap().to_f32();
                assert_eq!(t.map(f32::to_bits), want.map(f32::to_bits), "{f} texel {i}");
            }
        }
        assert!(decode_f32_row(F::Rgba8Uint, Aspect::Color, &bytes, &mut [[0.0; 4]; 4]).is_err());
        assert!(decode_f32_row(
            F::Rgba8Unorm,
            Aspect::Color,
            &bytes[..15],
            &mut [[0.0; 4]; 4]
        )
        .is_err());
    }

    #[test]
    fn srgb_0x80_reads_0_2158605() {
        assert_eq!(srgb8_to_linear(0x80), 0.2158605);
        assert_eq!(
            dec(F::Rgba8Srgb, &[0x80, 0, 255, 0x80]),
            Texel::Float([0.2158605, 0.0, 1.0, 128.0 / 255.0])
        );
    }

    #[test]
    fn snorm_minus_128_reads_minus_one() {
        assert_eq!(
            dec(F::R8Snorm, &[0x80]),
            Texel::Float([-1.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            dec(F::R8Snorm, &[0x81]),
            Texel::Float([-1.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(dec(F::R8Snorm, &[0x7f]), Texel::Float([1.0, 0.0, 0.0, 1.0]));
        assert_eq!(
            dec(F::R16Snorm, &0x8000u16.to_le_bytes()),
            Texel::Float([-1.0, 0.0, 0.0, 1.0])
        );
    }

    #[test]
    fn missing_components_read_0001_float_and_integer() {
        assert_eq!(dec(F::R8Unorm, &[255]), Texel::Float([1.0, 0.0, 0.0, 1.0]));
        assert_eq!(
            dec(F::Rg32Uint, &[7, 0, 0, 0, 9, 0, 0, 0]),
            Texel::Uint([7, 9, 0, 1])
        );
        assert_eq!(dec(F::R16Sint, &[0xff, 0xff]), Texel::Sint([-1, 0, 0, 1]));
        assert_eq!(dec(F::A8Unorm, &[51]), Texel::Float([0.0, 0.0, 0.0, 0.2]));
    }

    #[test]
    fn bgra_swaps_red_and_blue() {
        assert_eq!(
            dec(F::Bgra8Unorm, &[255, 0, 0, 255]),
            Texel::Float([0.0, 0.0, 1.0, 1.0])
        );
    }

    #[test]
    fn float32_bits_are_untouched() {
        for bits in [1u32, 0x8000_0000, 0x7fc0_1234, 0xff80_0001, 0x7f80_0000] {
            let t = dec(F::R32Float, &bits.to_le_bytes());
            assert_eq!(t.to_bits()[0], bits);
        }
    }

    #[test]
    fn half_floats_decode_exactly() {
        assert_eq!(
            dec(F::R16Float, &0x0001u16.to_le_bytes()).to_f32()[0],
            2f32.powi(-24)
        );
        assert_eq!(
            dec(F::R16Float, &0x7bffu16.to_le_bytes()).to_f32()[0],
            65504.0
        );
        assert_eq!(
            dec(F::R16Float, &0xfc00u16.to_le_bytes()).to_f32()[0],
            f32::NEG_INFINITY
        );
        assert!(dec(F::R16Float, &0x7e00u16.to_le_bytes()).to_f32()[0].is_nan());
    }

    #[test]
    fn r11g11b10_known_words() {
        // R = 1.0 (e=15, m=0), G = smallest denormal 2^-14/64, B = largest 10-bit 64512.
        let w: u32 = (15 << 6) | (1 << 11) | (((30 << 5) | 31) << 22);
        let t = dec(F::Rg11b10Ufloat, &w.to_le_bytes()).to_f32();
        assert_eq!(t, [1.0, 2f32.powi(-20), 64512.0, 1.0]);
        // Largest 11-bit value 65024, infinity, NaN.
        let w: u32 = ((30 << 6) | 63) | ((31 << 6) << 11) | (((31 << 5) | 1) << 22);
        let t = dec(F::Rg11b10Ufloat, &w.to_le_bytes()).to_f32();
        assert_eq!(t[0], 65024.0);
        assert_eq!(t[1], f32::INFINITY);
        assert!(t[2].is_nan());
        assert_eq!(f32_to_ufloat(1e9, 6), (30 << 6) | 63);
        assert_eq!(f32_to_ufloat(-3.0, 6), 0);
        assert_eq!(f32_to_ufloat(2f32.powi(-20), 6), 1);
    }

    #[test]
    fn rgb9e5_known_words() {
        // Largest value: mantissa 511, exponent 31 -> 511/512 * 2^16 = 65408.
        let w: u32 = (31 << 27) | (511 << 18) | (511 << 9) | 511;
        assert_eq!(
            dec(F::Rgb9e5Ufloat, &w.to_le_bytes()).to_f32(),
            [65408.0, 65408.0, 65408.0, 1.0]
        );
        // Smallest denormal: mantissa 1, exponent 0 -> 2^-24.
        assert_eq!(rgb9e5_to_f32(1), [2f32.powi(-24), 0.0, 0.0]);
        // 1.0 encodes as exponent 16, mantissa 256.
        assert_eq!(f32_to_rgb9e5([1.0, 0.0, 0.0]), (16 << 27) | 256);
        assert_eq!(f32_to_rgb9e5([1e30, 0.0, 0.0]), (31 << 27) | 511);
    }

    #[test]
    fn packed_formats_place_fields_per_vulkan_names() {
        // R5G6B5: R in 15:11.
        assert_eq!(
            dec(F::R5g6b5Unorm, &0xf800u16.to_le_bytes()),
            Texel::Float([1.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            dec(F::B5g6r5Unorm, &0xf800u16.to_le_bytes()),
            Texel::Float([0.0, 0.0, 1.0, 1.0])
        );
        assert_eq!(
            dec(F::A1rgb5Unorm, &0x8000u16.to_le_bytes()),
            Texel::Float([0.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            dec(F::Rgb5a1Unorm, &0x0001u16.to_le_bytes()),
            Texel::Float([0.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            dec(F::A2bgr10Uint, &0xc000_03ffu32.to_le_bytes()),
            Texel::Uint([1023, 0, 0, 3])
        );
        assert_eq!(
            dec(F::A2rgb10Unorm, &0x3ff0_0000u32.to_le_bytes()),
            Texel::Float([1.0, 0.0, 0.0, 0.0])
        );
    }

    #[test]
    fn depth_and_stencil_aspects() {
        let w: u32 = 0xab00_0000 | 0xff_ffff;
        assert_eq!(
            decode(F::Depth24UnormS8Uint, Aspect::Depth, &w.to_le_bytes()).unwrap(),
            Texel::Float([1.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            decode(F::Depth24UnormS8Uint, Aspect::Stencil, &w.to_le_bytes()).unwrap(),
            Texel::Uint([0xab, 0, 0, 1])
        );
        let mut b = [0u8; 8];
        encode(
            F::Depth32FloatS8Uint,
            Aspect::Depth,
            Texel::Float([0.25, 0.0, 0.0, 1.0]),
            &mut b,
        )
        .unwrap();
        encode(
            F::Depth32FloatS8Uint,
            Aspect::Stencil,
            Texel::Uint([200, 0, 0, 0]),
            &mut b,
        )
        .unwrap();
        assert_eq!(
            decode(F::Depth32FloatS8Uint, Aspect::Depth, &b)
                .unwrap()
                .to_f32()[0],
            0.25
        );
        assert_eq!(
            decode(F::Depth32FloatS8Uint, Aspect::Stencil, &b).unwrap(),
            Texel::Uint([200, 0, 0, 1])
        );
        assert!(decode(F::Depth16Unorm, Aspect::Stencil, &[0, 0]).is_err());
        assert_eq!(
            decode(F::Stencil8, Aspect::Color, &[9]).unwrap(),
            Texel::Uint([9, 0, 0, 1])
        );
    }

    #[test]
    fn encode_rounds_to_nearest_and_clamps() {
        let mut b = [0u8; 4];
        encode(
            F::Rgba8Unorm,
            Aspect::Color,
            Texel::Float([0.5, -1.0, 2.0, f32::NAN]),
            &mut b,
        )
        .unwrap();
        assert_eq!(b, [128, 0, 255, 0]);
        encode(
            F::Rgba8Snorm,
            Aspect::Color,
            Texel::Float([-1.0, -2.0, 0.5, 1.0]),
            &mut b,
        )
        .unwrap();
        assert_eq!(b, [0x81, 0x81, 64, 127]);
        encode(
            F::Rgba8Uint,
            Aspect::Color,
            Texel::Sint([-5, 300, 7, 255]),
            &mut b,
        )
        .unwrap();
        assert_eq!(b, [0, 255, 7, 255]);
        assert!(encode(F::Rgba8Uint, Aspect::Color, Texel::Float([0.0; 4]), &mut b).is_err());
        assert!(encode(
            F::Bc1RgbUnorm,
            Aspect::Color,
            Texel::Float([0.0; 4]),
            &mut [0u8; 8]
        )
        .is_err());
        assert!(decode(F::Rgba8Unorm, Aspect::Color, &[0, 0]).is_err());
    }
}
