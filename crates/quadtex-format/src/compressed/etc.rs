//! ETC2 and EAC block decoders, written from the Khronos Data Format
//! Specification, "ETC2 Compressed Texture Image Formats" (the OpenGL 4.5
//! ETC section): RGB ETC2 with its individual, differential, T, H and planar
//! modes, the punch-through alpha variant, the 8-bit EAC alpha of RGBA ETC2,
//! and the 11-bit R11/RG11 EAC channels, unsigned and signed.
//!
//! Everything here works on integer codes and returns them texel by texel in
//! row-major order (`y * 4 + x`); turning codes into what a shader sees
//! (UNORM, SNORM, sRGB) is `compressed::decode_block`'s job. Every bit
//! pattern is a valid block, so nothing here can fail.

/// ETC2 intensity modifiers `[a, b]` per table codeword (KDFS table
/// "ETC2 intensity modifier sets"): pixel index 0 reads `+a`, 1 `+b`,
/// 2 `-a`, 3 `-b`.
const ETC_MODIFIERS: [[i32; 2]; 8] = [
    [2, 8],
    [5, 17],
    [9, 29],
    [13, 42],
    [18, 60],
    [24, 80],
    [33, 106],
    [47, 183],
];

/// T- and H-mode distances (KDFS table "Distance table for ETC2 T and H
/// modes").
const TH_DISTANCES: [i32; 8] = [3, 6, 11, 16, 23, 32, 41, 64];

/// EAC modifier tables (KDFS table "Intensity modifier sets for RGBA ETC2
/// alpha component"), shared by the 8-bit alpha and the 11-bit channels.
const EAC_MODIFIERS: [[i32; 8]; 16] = [
    [-3, -6, -9, -15, 2, 5, 8, 14],
    [-3, -7, -10, -13, 2, 6, 9, 12],
    [-2, -5, -8, -13, 1, 4, 7, 12],
    [-2, -4, -6, -13, 1, 3, 5, 12],
    [-3, -6, -8, -12, 2, 5, 7, 11],
    [-3, -7, -9, -11, 2, 6, 8, 10],
    [-4, -7, -8, -11, 3, 6, 7, 10],
    [-3, -5, -8, -11, 2, 4, 7, 10],
    [-2, -6, -8, -10, 1, 5, 7, 9],
    [-2, -5, -8, -10, 1, 4, 7, 9],
    [-2, -4, -8, -10, 1, 3, 7, 9],
    [-2, -5, -7, -10, 1, 4, 6, 9],
    [-3, -4, -7, -10, 2, 3, 6, 9],
    [-1, -2, -3, -10, 0, 1, 2, 9],
    [-4, -6, -8, -9, 3, 5, 7, 8],
    [-3, -5, -7, -9, 2, 4, 6, 8],
];

/// The five ways an ETC2 colour block can be coded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Etc2Mode {
    /// Two 4-bit base colours (ETC1 "individual").
    Individual,
    /// A 5-bit base colour and a 3-bit signed delta (ETC1 "differential").
    Differential,
    /// Selected by `R + dR` leaving 0..=31.
    T,
    /// Selected by `G + dG` leaving 0..=31.
    H,
    /// Selected by `B + dB` leaving 0..=31.
    Planar,
}

/// Reads a block as the spec's big-endian `int64bit`.
fn word(block: &[u8; 8]) -> u64 {
    u64::from_be_bytes(*block)
}

/// Bits `shift .. shift + width` of `v`.
fn bits(v: u64, shift: u32, width: u32) -> u32 {
    ((v >> shift) & ((1u64 << width) - 1)) as u32
}

/// 3-bit two's complement delta.
fn delta3(v: u32) -> i32 {
    ((v as i32) << 29) >> 29
}

fn ext4(v: u32) -> i32 {
    (v * 17) as i32
}

fn ext5(v: u32) -> i32 {
    ((v << 3) | (v >> 2)) as i32
}

fn ext6(v: u32) -> i32 {
    ((v << 2) | (v >> 4)) as i32
}

fn ext7(v: u32) -> i32 {
    ((v << 1) | (v >> 6)) as i32
}

fn clamp255(v: i32) -> u8 {
    v.clamp(0, 255) as u8
}

/// The two-bit pixel index of texel (x, y): the MSB sits in bit
/// `16 + x * 4 + y`, the LSB in bit `x * 4 + y` (texels are numbered down
/// the columns, `a` to `p`).
fn pixel_index(w: u64, x: usize, y: usize) -> usize {
    let i = (x * 4 + y) as u32;
    ((bits(w, 16 + i, 1) << 1) | bits(w, i, 1)) as usize
}

/// Which mode an ETC2 colour block uses. `punchthrough` blocks have no
/// individual mode: bit 33 is the opaque flag, and the differential-family
/// test always applies.
pub(crate) fn etc2_mode(block: &[u8; 8], punchthrough: bool) -> Etc2Mode {
    let w = word(block);
    if !punchthrough && bits(w, 33, 1) == 0 {
        return Etc2Mode::Individual;
    }
    let over = |base_shift: u32| {
        let s = bits(w, base_shift, 5) as i32 + delta3(bits(w, base_shift - 3, 3));
        !(0..=31).contains(&s)
    };
    if over(59) {
        Etc2Mode::T
    } else if over(51) {
        Etc2Mode::H
    } else if over(43) {
        Etc2Mode::Planar
    } else {
        Etc2Mode::Differential
    }
}

/// Decodes an ETC2 colour block to RGBA8 (KDFS "Format RGB ETC2" and, with
/// `punchthrough`, "Format RGB ETC2 with punchthrough alpha"). Alpha is 255
/// except for punch-through texels, which are (0, 0, 0, 0).
pub(crate) fn etc2_rgb(block: &[u8; 8], punchthrough: bool) -> [[u8; 4]; 16] {
    let w = word(block);
    // Opaque unless a punch-through block clears bit 33.
    let opaque = !punchthrough || bits(w, 33, 1) == 1;
    let mut out = [[0u8; 4]; 16];
    match etc2_mode(block, punchthrough) {
        mode @ (Etc2Mode::Individual | Etc2Mode::Differential) => {
            let (c0, c1) = if mode == Etc2Mode::Individual {
                let c = |hi: u32, lo: u32| [ext4(hi), ext4(lo)];
                let r = c(bits(w, 60, 4), bits(w, 56, 4));
                let g = c(bits(w, 52, 4), bits(w, 48, 4));
                let b = c(bits(w, 44, 4), bits(w, 40, 4));
                ([r[0], g[0], b[0]], [r[1], g[1], b[1]])
            } else {
                // The mode test has already shown base + delta stays in 0..=31.
                let c = |shift: u32| {
                    let base = bits(w, shift, 5);
                    let second = (base as i32 + delta3(bits(w, shift - 3, 3))) as u32;
                    [ext5(base), ext5(second)]
                };
                let (r, g, b) = (c(59), c(51), c(43));
                ([r[0], g[0], b[0]], [r[1], g[1], b[1]])
            };
            let tables = [bits(w, 37, 3) as usize, bits(w, 34, 3) as usize];
            let flip = bits(w, 32, 1) == 1;
            for y in 0..4 {
                for x in 0..4 {
                    let second = if flip { y >= 2 } else { x >= 2 };
                    let (base, table) = if second {
                        (c1, tables[1])
                    } else {
                        (c0, tables[0])
                    };
                    let [a, b] = ETC_MODIFIERS[table];
                    let idx = pixel_index(w, x, y);
                    let t = &mut out[y * 4 + x];
                    // A non-opaque punch-through block has no +-a: index 0
                    // reads the base colour and index 2 is transparent black.
                    let m = match (idx, opaque) {
                        (2, false) => continue,
                        (0, false) => 0,
                        (0, true) => a,
                        (1, _) => b,
                        (2, true) => -a,
                        _ => -b,
                    };
                    *t = [
                        clamp255(base[0] + m),
                        clamp255(base[1] + m),
                        clamp255(base[2] + m),
                        255,
                    ];
                }
            }
        }
        mode @ (Etc2Mode::T | Etc2Mode::H) => {
            let (c0, c1, d) = if mode == Etc2Mode::T {
                let r1 = (bits(w, 59, 2) << 2) | bits(w, 56, 2);
                let c0 = [ext4(r1), ext4(bits(w, 52, 4)), ext4(bits(w, 48, 4))];
                let c1 = [
                    ext4(bits(w, 44, 4)),
                    ext4(bits(w, 40, 4)),
                    ext4(bits(w, 36, 4)),
                ];
                let d = TH_DISTANCES[((bits(w, 34, 2) << 1) | bits(w, 32, 1)) as usize];
                (c0, c1, d)
            } else {
                let g1 = (bits(w, 56, 3) << 1) | bits(w, 52, 1);
                let b1 = (bits(w, 51, 1) << 3) | bits(w, 47, 3);
                let c0 = [ext4(bits(w, 59, 4)), ext4(g1), ext4(b1)];
                let c1 = [
                    ext4(bits(w, 43, 4)),
                    ext4(bits(w, 39, 4)),
                    ext4(bits(w, 35, 4)),
                ];
                // The distance's low bit is not stored: it is the order of
                // the two base colours, compared as 24-bit RGB values.
                let v = |c: [i32; 3]| (c[0] << 16) | (c[1] << 8) | c[2];
                let lsb = u32::from(v(c0) >= v(c1));
                let idx = (bits(w, 34, 1) << 2) | (bits(w, 32, 1) << 1) | lsb;
                (c0, c1, TH_DISTANCES[idx as usize])
            };
            let add = |c: [i32; 3], k: i32| c.map(|v| clamp255(v + k));
            let paint = if mode == Etc2Mode::T {
                [add(c0, 0), add(c1, d), add(c1, 0), add(c1, -d)]
            } else {
                [add(c0, d), add(c0, -d), add(c1, d), add(c1, -d)]
            };
            for y in 0..4 {
                for x in 0..4 {
                    let idx = pixel_index(w, x, y);
                    if !opaque && idx == 2 {
                        continue;
                    }
                    let [r, g, b] = paint[idx];
                    out[y * 4 + x] = [r, g, b, 255];
                }
            }
        }
        Etc2Mode::Planar => {
            // Planar blocks are always opaque; a clear opaque bit is read as
            // set (KDFS punch-through planar mode).
            let o = [
                ext6(bits(w, 57, 6)),
                ext7((bits(w, 56, 1) << 6) | bits(w, 49, 6)),
                ext6((bits(w, 48, 1) << 5) | (bits(w, 43, 2) << 3) | bits(w, 39, 3)),
            ];
            let h = [
                ext6((bits(w, 34, 5) << 1) | bits(w, 32, 1)),
                ext7(bits(w, 25, 7)),
                ext6(bits(w, 19, 6)),
            ];
            let v = [
                ext6(bits(w, 13, 6)),
                ext7(bits(w, 6, 7)),
                ext6(bits(w, 0, 6)),
            ];
            for y in 0..4 {
                for x in 0..4 {
                    let c = |k: usize| {
                        let (xi, yi) = (x as i32, y as i32);
                        clamp255((xi * (h[k] - o[k]) + yi * (v[k] - o[k]) + 4 * o[k] + 2) >> 2)
                    };
                    out[y * 4 + x] = [c(0), c(1), c(2), 255];
                }
            }
        }
    }
    out
}

/// The fields every EAC block shares: base codeword byte, multiplier, the
/// modifier table and the 48 bits of 3-bit indices.
struct Eac {
    base: u8,
    multiplier: i32,
    table: &'static [i32; 8],
    w: u64,
}

impl Eac {
    fn new(block: &[u8; 8]) -> Eac {
        let w = word(block);
        Eac {
            base: block[0],
            multiplier: bits(w, 52, 4) as i32,
            table: &EAC_MODIFIERS[bits(w, 48, 4) as usize],
            w,
        }
    }

    /// Modifier of texel (x, y): its 3-bit index sits MSB-first at bits
    /// `47 - 3 * (x * 4 + y)` down.
    fn modifier(&self, x: usize, y: usize) -> i32 {
        let i = (x * 4 + y) as u32;
        self.table[bits(self.w, 45 - 3 * i, 3) as usize]
    }

    /// Calls `f(texel, modifier)` for the 16 texels in row-major order.
    fn each(&self, mut f: impl FnMut(usize, i32)) {
        for y in 0..4 {
            for x in 0..4 {
                f(y * 4 + x, self.modifier(x, y));
            }
        }
    }
}

/// The 8-bit alpha of RGBA ETC2 (KDFS "Format RGBA ETC2"):
/// `clamp255(base + modifier * multiplier)`; a zero multiplier gives the
/// base for every texel.
pub(crate) fn eac_alpha8(block: &[u8; 8]) -> [u8; 16] {
    let e = Eac::new(block);
    let mut out = [0u8; 16];
    e.each(|t, m| out[t] = clamp255(e.base as i32 + m * e.multiplier));
    out
}

/// Unsigned R11 EAC (KDFS "Format Unsigned R11 EAC"): 11-bit codes in
/// 0..=2047, `clamp(base * 8 + 4 + modifier * multiplier * 8)`, where a zero
/// multiplier counts as 1/8.
pub(crate) fn eac_r11_unorm(block: &[u8; 8]) -> [u16; 16] {
    let e = Eac::new(block);
    let base = e.base as i32 * 8 + 4;
    let mut out = [0u16; 16];
    e.each(|t, m| {
        let d = if e.multiplier == 0 {
            m
        } else {
            m * e.multiplier * 8
        };
        out[t] = (base + d).clamp(0, 2047) as u16;
    });
    out
}

/// Signed R11 EAC (KDFS "Format Signed R11 EAC"): 11-bit codes in
/// -1023..=1023, `clamp(base * 8 + modifier * multiplier * 8)` with a signed
/// base (-128 reads as -127) and no `+4`; a zero multiplier counts as 1/8.
pub(crate) fn eac_r11_snorm(block: &[u8; 8]) -> [i16; 16] {
    let e = Eac::new(block);
    let base = (e.base as i8).max(-127) as i32 * 8;
    let mut out = [0i16; 16];
    e.each(|t, m| {
        let d = if e.multiplier == 0 {
            m
        } else {
            m * e.multiplier * 8
        };
        out[t] = (base + d).clamp(-1023, 1023) as i16;
    });
    out
}

#[cfg(test)]
mod tests {
    //! Known answers worked by hand from the KDFS ETC2 chapter (several are
    //! the chapter's own examples). Blocks are assembled field by field with
    //! the bit positions of the chapter's layout tables.

    use super::*;

    /// Builds a block from `(lowest bit, width, value)` fields of the
    /// big-endian 64-bit word, plus 2-bit pixel indices `idx[y][x]`.
    fn etc(fields: &[(u32, u32, u64)], idx: [[u8; 4]; 4]) -> [u8; 8] {
        let mut w = 0u64;
        for &(shift, width, v) in fields {
            assert!(v < 1 << width);
            w |= v << shift;
        }
        for (y, row) in idx.iter().enumerate() {
            for (x, &i) in row.iter().enumerate() {
                let p = (x * 4 + y) as u32;
                w |= ((i as u64 >> 1) << (16 + p)) | ((i as u64 & 1) << p);
            }
        }
        w.to_be_bytes()
    }

    fn at(px: &[[u8; 4]; 16], x: usize, y: usize) -> [u8; 4] {
        px[y * 4 + x]
    }

    /// The chapter's differential example: R = 28, G = 4, B = 3 with
    /// dR = -4, dG = 2, dB = 0, so the bases are (231, 33, 24) and
    /// (198, 49, 24); tables 0 (a = 2, b = 8) and 7 (a = 47, b = 183).
    fn differential(opaque: u64, idx: [[u8; 4]; 4]) -> [u8; 8] {
        let f = [
            (59, 5, 28),
            (56, 3, 0b100),
            (51, 5, 4),
            (48, 3, 2),
            (43, 5, 3),
            (40, 3, 0),
            (37, 3, 0),
            (34, 3, 7),
            (33, 1, opaque),
        ];
        etc(&f, idx)
    }

    #[test]
    fn individual_mode_extends_4_bit_bases_and_adds_modifiers() {
        // Sub-block 1 base (14, 3, 8) -> (238, 51, 136) with table 2
        // (a = 9, b = 29); sub-block 2 base (0, 15, 1) -> (0, 255, 17) with
        // table 0 (a = 2, b = 8). Flip 0: columns 0-1 | 2-3.
        let fields = [
            (60, 4, 14),
            (56, 4, 0),
            (52, 4, 3),
            (48, 4, 15),
            (44, 4, 8),
            (40, 4, 1),
            (37, 3, 2),
            (34, 3, 0),
        ];
        let idx = [[1, 0, 3, 0], [2, 0, 0, 0], [3, 0, 0, 0], [0, 0, 0, 1]];
        let block = etc(&fields, idx);
        assert_eq!(etc2_mode(&block, false), Etc2Mode::Individual);
        let px = etc2_rgb(&block, false);
        assert_eq!(at(&px, 0, 0), [255, 80, 165, 255]); // +29, clamped
        assert_eq!(at(&px, 1, 0), [247, 60, 145, 255]); // +9
        assert_eq!(at(&px, 0, 1), [229, 42, 127, 255]); // -9
        assert_eq!(at(&px, 0, 2), [209, 22, 107, 255]); // -29
        assert_eq!(at(&px, 2, 0), [0, 247, 9, 255]); // -8, clamped
        assert_eq!(at(&px, 3, 3), [8, 255, 25, 255]); // +8
                                                      // Flip 1 stacks the sub-blocks: row 2 now belongs to sub-block 2.
        let mut flipped = fields.to_vec();
        flipped.push((32, 1, 1));
        let px = etc2_rgb(&etc(&flipped, idx), false);
        assert_eq!(at(&px, 0, 2), [0, 247, 9, 255]);
        assert_eq!(at(&px, 2, 0), [209, 22, 107, 255]);
    }

    #[test]
    fn differential_mode_adds_the_signed_delta_to_the_5_bit_base() {
        let idx = [[0, 0, 1, 3], [0, 0, 1, 0], [0; 4], [0; 4]];
        let block = differential(1, idx);
        assert_eq!(etc2_mode(&block, false), Etc2Mode::Differential);
        let px = etc2_rgb(&block, false);
        assert_eq!(at(&px, 0, 0), [233, 35, 26, 255]); // (231, 33, 24) + 2
        assert_eq!(at(&px, 3, 0), [15, 0, 0, 255]); // (198, 49, 24) - 183
        assert_eq!(at(&px, 2, 1), [255, 232, 207, 255]); // + 183
    }

    #[test]
    fn t_mode_paints_from_base_two_plus_and_minus_the_distance() {
        // R = 31 (bits 63-61 set, R1a = 3) and dR = +2 overflow: T mode.
        // Base 1 = (3 << 2 | 2, 3, 8) -> (238, 51, 136); base 2 = (1, 2,
        // 15) -> (17, 34, 255); distance index (2 << 1) | 1 = 5 -> 32.
        let fields = [
            (61, 3, 0b111),
            (59, 2, 3),
            (56, 2, 2),
            (52, 4, 3),
            (48, 4, 8),
            (44, 4, 1),
            (40, 4, 2),
            (36, 4, 15),
            (34, 2, 2),
            (33, 1, 1),
            (32, 1, 1),
        ];
        let block = etc(&fields, [[0, 1, 2, 3], [0; 4], [0; 4], [0; 4]]);
        assert_eq!(etc2_mode(&block, false), Etc2Mode::T);
        let px = etc2_rgb(&block, false);
        assert_eq!(at(&px, 0, 0), [238, 51, 136, 255]);
        assert_eq!(at(&px, 1, 0), [49, 66, 255, 255]);
        assert_eq!(at(&px, 2, 0), [17, 34, 255, 255]);
        assert_eq!(at(&px, 3, 0), [0, 2, 223, 255]);
    }

    /// An H-mode block with base 1 = (r1, 7, 10) and base 2 = (2, 4, 6),
    /// distance bits da = 1, db = 0.
    fn h_block(r1: u64) -> [u8; 8] {
        // G = 31 (bits 55-51 all set) plus dG = +1 overflows: H mode; R
        // (= r1) plus dR (= G1a = 3) stays in range.
        let fields = [
            (59, 4, r1),
            (56, 3, 3),
            (53, 3, 0b111),
            (52, 1, 1),
            (51, 1, 1),
            (47, 3, 0b010),
            (43, 4, 2),
            (39, 4, 4),
            (35, 4, 6),
            (34, 1, 1),
            (33, 1, 1),
        ];
        etc(&fields, [[0, 1, 2, 3], [0; 4], [0; 4], [0; 4]])
    }

    #[test]
    fn h_mode_takes_the_distance_lsb_from_the_base_colour_order() {
        // Base 1 = (136, 119, 170) >= base 2 = (34, 68, 102): index
        // 1 << 2 | 0 << 1 | 1 = 5 -> distance 32.
        let block = h_block(8);
        assert_eq!(etc2_mode(&block, false), Etc2Mode::H);
        let px = etc2_rgb(&block, false);
        assert_eq!(at(&px, 0, 0), [168, 151, 202, 255]);
        assert_eq!(at(&px, 1, 0), [104, 87, 138, 255]);
        assert_eq!(at(&px, 2, 0), [66, 100, 134, 255]);
        assert_eq!(at(&px, 3, 0), [2, 36, 70, 255]);
        // Base 1 = (17, 119, 170) < base 2: index 4 -> distance 23.
        let px = etc2_rgb(&h_block(1), false);
        assert_eq!(at(&px, 0, 0), [40, 142, 193, 255]);
        assert_eq!(at(&px, 3, 0), [11, 45, 79, 255]);
    }

    #[test]
    fn planar_mode_interpolates_the_three_676_colours() {
        // O = (32, 64, 28) -> (130, 129, 113); H = (40, 100, 10) ->
        // (162, 201, 40); V = (0, 127, 63) -> (0, 255, 255). B = 31 with
        // dB = +2 overflows (R and G do not): planar.
        let fields = [
            (57, 6, 32),
            (56, 1, 1),
            (49, 6, 0),
            (45, 3, 0b111),
            (48, 1, 0),
            (43, 2, 3),
            (39, 3, 4),
            (34, 5, 20),
            (33, 1, 1),
            (32, 1, 0),
            (25, 7, 100),
            (19, 6, 10),
            (13, 6, 0),
            (6, 7, 127),
            (0, 6, 63),
        ];
        let block = etc(&fields, [[0; 4]; 4]);
        // The index helper wrote nothing; the low 32 bits are the fields.
        assert_eq!(etc2_mode(&block, false), Etc2Mode::Planar);
        let px = etc2_rgb(&block, false);
        // clamp255((x*(H-O) + y*(V-O) + 4*O + 2) >> 2) per channel.
        assert_eq!(at(&px, 0, 0), [130, 129, 113, 255]);
        assert_eq!(at(&px, 3, 0), [154, 183, 58, 255]);
        assert_eq!(at(&px, 0, 3), [33, 224, 220, 255]);
        assert_eq!(at(&px, 3, 3), [57, 255, 165, 255]);
        // Punch-through planar blocks are opaque whatever bit 33 says.
        let mut clear = fields.to_vec();
        clear.retain(|f| f.0 != 33);
        let px_a1 = etc2_rgb(&etc(&clear, [[0; 4]; 4]), true);
        assert_eq!(px_a1, px);
    }

    #[test]
    fn punchthrough_has_no_individual_mode() {
        // Bit 33 clear: individual in RGB ETC2, differential (opaque bit
        // clear) with punch-through alpha.
        let block = differential(0, [[0; 4]; 4]);
        assert_eq!(etc2_mode(&block, false), Etc2Mode::Individual);
        assert_eq!(etc2_mode(&block, true), Etc2Mode::Differential);
    }

    #[test]
    fn punchthrough_clear_opaque_bit_makes_index_2_transparent_black() {
        let idx = [[0, 1, 2, 3], [0; 4], [0; 4], [0; 4]];
        // Opaque bit clear: index 0 reads the bare base (no +a), 1 is +b,
        // 2 is (0, 0, 0, 0), 3 is -b.
        let px = etc2_rgb(&differential(0, idx), true);
        assert_eq!(at(&px, 0, 0), [231, 33, 24, 255]);
        assert_eq!(at(&px, 1, 0), [239, 41, 32, 255]);
        assert_eq!(at(&px, 2, 0), [0, 0, 0, 0]);
        assert_eq!(at(&px, 3, 0), [15, 0, 0, 255]);
        // Opaque bit set: the ordinary +-a, +-b table, alpha 255.
        let px = etc2_rgb(&differential(1, idx), true);
        assert_eq!(at(&px, 0, 0), [233, 35, 26, 255]);
        // (2, 0) is in sub-block 2: (198, 49, 24) - 47.
        assert_eq!(at(&px, 2, 0), [151, 2, 0, 255]);
        assert!(px.iter().all(|t| t[3] == 255));
    }

    #[test]
    fn punchthrough_t_and_h_modes_make_paint_colour_2_transparent() {
        let fields = [
            (61, 3, 0b111),
            (59, 2, 3),
            (56, 2, 2),
            (52, 4, 3),
            (48, 4, 8),
            (44, 4, 1),
            (40, 4, 2),
            (36, 4, 15),
            (34, 2, 2),
            (32, 1, 1),
        ];
        let block = etc(&fields, [[0, 1, 2, 3], [0; 4], [0; 4], [0; 4]]);
        assert_eq!(etc2_mode(&block, true), Etc2Mode::T);
        let px = etc2_rgb(&block, true);
        assert_eq!(at(&px, 1, 0), [49, 66, 255, 255]);
        assert_eq!(at(&px, 2, 0), [0, 0, 0, 0]);
        assert_eq!(at(&px, 3, 0), [0, 2, 223, 255]);
        // H mode with the opaque bit (33) cleared.
        let mut h = h_block(8);
        h[3] &= !0x02;
        let px = etc2_rgb(&h, true);
        assert_eq!(at(&px, 1, 0), [104, 87, 138, 255]);
        assert_eq!(at(&px, 2, 0), [0, 0, 0, 0]);
    }

    /// An EAC block: base byte, multiplier, table and one 3-bit index for
    /// every texel.
    fn eac(base: u8, multiplier: u64, table: u64, index: u64) -> [u8; 8] {
        let mut w = (base as u64) << 56 | multiplier << 52 | table << 48;
        for i in 0..16 {
            w |= index << (45 - 3 * i);
        }
        w.to_be_bytes()
    }

    #[test]
    fn eac_alpha_follows_the_chapter_example() {
        // Base 103, table 13, index 3 (-10), multiplier 2: 103 - 20 = 83.
        assert_eq!(eac_alpha8(&eac(103, 2, 13, 3)), [83; 16]);
        // A zero multiplier leaves the base.
        assert_eq!(eac_alpha8(&eac(103, 0, 13, 3)), [103; 16]);
        // Clamped to 0..=255.
        assert_eq!(eac_alpha8(&eac(250, 15, 0, 7)), [255; 16]);
    }

    #[test]
    fn r11_unorm_keeps_11_bits_and_treats_multiplier_zero_as_an_eighth() {
        // 103 * 8 + 4 - 10 * 2 * 8 = 668 (the chapter's example).
        assert_eq!(eac_r11_unorm(&eac(103, 2, 13, 3)), [668; 16]);
        // Multiplier 0: 828 - 10 = 818.
        assert_eq!(eac_r11_unorm(&eac(103, 0, 13, 3)), [818; 16]);
        // Clamped to 0..=2047; base 255 with modifier 0 is 2044, not 2047.
        assert_eq!(eac_r11_unorm(&eac(255, 1, 13, 4)), [2044; 16]);
        assert_eq!(eac_r11_unorm(&eac(255, 15, 0, 7)), [2047; 16]);
        assert_eq!(eac_r11_unorm(&eac(0, 15, 0, 3)), [0; 16]);
    }

    #[test]
    fn r11_snorm_has_no_half_step_and_reads_minus_128_as_minus_127() {
        // 60 * 8 - 10 * 2 * 8 = 320; multiplier 0: 480 - 10 = 470.
        assert_eq!(eac_r11_snorm(&eac(60, 2, 13, 3)), [320; 16]);
        assert_eq!(eac_r11_snorm(&eac(60, 0, 13, 3)), [470; 16]);
        // -128 is read as -127: -1016 with modifier 0.
        assert_eq!(eac_r11_snorm(&eac(0x80, 1, 13, 4)), [-1016; 16]);
        assert_eq!(eac_r11_snorm(&eac(0x81, 1, 13, 4)), [-1016; 16]);
        // Clamped to -1023..=1023.
        assert_eq!(eac_r11_snorm(&eac(0x81, 15, 13, 3)), [-1023; 16]);
        assert_eq!(eac_r11_snorm(&eac(0x7F, 15, 0, 7)), [1023; 16]);
    }

    #[test]
    fn eac_indices_run_down_the_columns() {
        // Only texel b = (0, 1), bits 44-42, gets index 7 (+9 in table 13).
        let mut w = u64::from_be_bytes(eac(100, 1, 13, 4));
        w |= 0b011 << 42; // 4 | 3 = 7
        let v = eac_r11_unorm(&w.to_be_bytes());
        assert_eq!(v[4], 804 + 72);
        assert_eq!(v.iter().filter(|&&x| x == 804).count(), 15);
    }
}
