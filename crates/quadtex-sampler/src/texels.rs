//! Texel reads, one layer below every sampling path: [`load`] (what the
//! scalar reference, `gather` and `fetch` read a texel through: the
//! format crate's decoders, residency applied) and the per-format texel
//! decoders ([`Fetch`], chosen once per view as a [`Decoder`]) that the
//! per-quad kernel (`kernel.rs`) is monomorphised over. Nothing here is SIMD or
//! imports a kernel.

use quadtex_format::format::{ChannelKind, ChannelOrder, FormatLayout};
use quadtex_format::texel;
use quadtex_format::{compressed, SampleType, Texel, TexelAddr, TextureFormat};

use crate::header::TextureHeader;

/// Reads and decodes texel `xyz` of absolute level `abs_level`, absolute
/// layer `layer` and sample `sample` (all in range) of `view`, whose
/// format reads as `f` (sRGB decode off gives the UNORM twin) with sample
/// type `ty`: sRGB to linear and the (0, 0, 0, 1) defaults applied, float
/// bits untouched. Returns the texel and whether it is resident; a
/// non-resident texel reads as zero memory decoded. `Ctx::load` (which
/// `sample`, `gather` and `fetch` read through) and `Ctx::texel` (which
/// adds the depth compare) stand on it, so every operation reads the
/// same values.
pub(crate) fn load(
    view: &TextureHeader,
    f: TextureFormat,
    ty: SampleType,
    abs_level: u32,
    layer: u32,
    sample: u32,
    xyz: [u32; 3],
) -> (Texel, bool) {
    let tex = &view.texture;
    let resident = tex.is_resident(abs_level, layer, xyz[0], xyz[1], xyz[2]);
    let zero = [0u8; 16];
    let block = if resident {
        tex.texel_block(TexelAddr::new(
            abs_level, layer, sample, xyz[0], xyz[1], xyz[2],
        ))
    } else {
        Some(&zero[..])
    };
    let Some(block) = block else {
        return (Texel::zero(ty), resident);
    };
    let t = if f.is_compressed() {
        let (bw, bh) = f.block_extent();
        let mut out = [[0.0f32; 4]; compressed::MAX_BLOCK_TEXELS];
        // A non-resident block is zero memory; its texel 0 stands for all.
        let i = if resident {
            ((xyz[1] % bh) * bw + xyz[0] % bw) as usize
        } else {
            0
        };
        match compressed::decode_block(f, block, &mut out) {
            Ok(()) => Texel::Float(out.get(i).copied().unwrap_or([0.0; 4])),
            Err(_) => Texel::zero(ty),
        }
    } else {
        texel::decode(f, f.default_aspect(), block).unwrap_or(Texel::zero(ty))
    };
    (t, resident)
}

/// Reads one texel as `[f32; 4]` (decoded, sRGB to linear, missing
/// components (0, 0, 0, 1)).
pub(crate) trait Fetch {
    /// Texel `(tx, ty)` of the block at byte `off` of the texture's bytes
    /// (`(0, 0)` for uncompressed formats, whose blocks are texels). The
    /// caller keeps `off` inside the texture.
    fn texel(&mut self, bytes: &[u8], off: usize, tx: u32, ty: u32) -> [f32; 4];
}

/// 8-bit RGBA/BGRA UNORM or sRGB through the format crate's exact lookup
/// tables.
pub(crate) struct Rgba8 {
    colour: &'static [f32; 256],
    alpha: &'static [f32; 256],
    bgra: bool,
}

impl Rgba8 {
    fn new(srgb: bool, bgra: bool) -> Rgba8 {
        let alpha = texel::unorm8_table();
        let colour = if srgb { texel::srgb8_table() } else { alpha };
        Rgba8 {
            colour,
            alpha,
            bgra,
        }
    }
}

impl Fetch for Rgba8 {
    #[inline(always)]
    fn texel(&mut self, bytes: &[u8], o: usize, _: u32, _: u32) -> [f32; 4] {
        let p: [u8; 4] = bytes[o..o + 4].try_into().unwrap_or([0; 4]);
        let (r, b) = if self.bgra {
            (p[2], p[0])
        } else {
            (p[0], p[2])
        };
        [
            self.colour[r as usize],
            self.colour[p[1] as usize],
            self.colour[b as usize],
            self.alpha[p[3] as usize],
        ]
    }
}

/// 16-bit float RGBA.
pub(crate) struct Rgba16F;

impl Fetch for Rgba16F {
    #[inline(always)]
    fn texel(&mut self, bytes: &[u8], o: usize, _: u32, _: u32) -> [f32; 4] {
        let p: [u8; 8] = bytes[o..o + 8].try_into().unwrap_or([0; 8]);
        let h = |i: usize| half::f16::from_bits(u16::from_le_bytes([p[i], p[i + 1]])).to_f32();
        [h(0), h(2), h(4), h(6)]
    }
}

/// 32-bit float R (bit-exact).
pub(crate) struct R32F;

impl Fetch for R32F {
    #[inline(always)]
    fn texel(&mut self, bytes: &[u8], o: usize, _: u32, _: u32) -> [f32; 4] {
        let p: [u8; 4] = bytes[o..o + 4].try_into().unwrap_or([0; 4]);
        [f32::from_le_bytes(p), 0.0, 0.0, 1.0]
    }
}

/// Depth-only formats (D16_UNORM, X8_D24_UNORM_PACK32, D32_SFLOAT) as the
/// format crate decodes their depth aspect: `code / (2^bits - 1)` for
/// UNORM, the bits for float; `(d, 0, 0, 1)`.
pub(crate) struct Depth {
    bits: u32,
}

impl Fetch for Depth {
    #[inline(always)]
    fn texel(&mut self, bytes: &[u8], o: usize, _: u32, _: u32) -> [f32; 4] {
        let n = if self.bits == 16 { 2 } else { 4 };
        let mut w = [0u8; 4];
        if let Some(p) = bytes.get(o..o + n) {
            w[..n].copy_from_slice(p);
        }
        let v = u32::from_le_bytes(w);
        let d = match self.bits {
            32 => f32::from_bits(v),
            24 => texel::unorm_to_f32(v & 0xff_ffff, 24),
            _ => texel::unorm_to_f32(v, 16),
        };
        [d, 0.0, 0.0, 1.0]
    }
}

/// Any other uncompressed float-sampled format, through the format crate's
/// decoder (a layout match per texel, but right for all).
pub(crate) struct AnyUncompressed(TextureFormat);

impl Fetch for AnyUncompressed {
    fn texel(&mut self, bytes: &[u8], o: usize, _: u32, _: u32) -> [f32; 4] {
        let n = self.0.block_bytes() as usize;
        texel::decode(self.0, self.0.default_aspect(), &bytes[o..o + n])
            .map(Texel::to_f32)
            .unwrap_or([0.0; 4])
    }
}

/// Block-compressed formats: a direct-mapped cache of decoded blocks that
/// lives as long as the `QuadSampler`, so neighbouring texels and
/// neighbouring quads decode each block once. Keys are block byte offsets,
/// unique within the (immutable) texture.
pub(crate) struct Blocks {
    format: TextureFormat,
    bw: u32,
    /// Texels per block.
    n: usize,
    keys: Vec<usize>,
    /// `BLOCK_SLOTS` decoded blocks of `n` texels each, allocated on the
    /// first fetch (a `QuadSampler` that never reads stays allocation-free).
    texels: Vec<[f32; 4]>,
}

/// Cache slots (a power of two): 64 BC blocks are 16 KiB of decoded texels.
const BLOCK_SLOTS: usize = 64;

impl Blocks {
    fn new(format: TextureFormat) -> Blocks {
        let (bw, bh) = format.block_extent();
        Blocks {
            format,
            bw,
            n: (bw * bh) as usize,
            keys: Vec::new(),
            texels: Vec::new(),
        }
    }
}

impl Fetch for Blocks {
    fn texel(&mut self, bytes: &[u8], o: usize, tx: u32, ty: u32) -> [f32; 4] {
        if self.keys.is_empty() {
            self.keys = vec![usize::MAX; BLOCK_SLOTS];
            self.texels = vec![[0.0; 4]; BLOCK_SLOTS * self.n];
        }
        let bb = self.format.block_bytes() as usize;
        // A multiplicative hash of the block index: neighbours along any
        // axis (also 2D-distant blocks whose indices differ by a row pitch)
        // land in different slots.
        let slot = ((o / bb) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) as usize
            >> (usize::BITS - BLOCK_SLOTS.trailing_zeros());
        let cached = &mut self.texels[slot * self.n..(slot + 1) * self.n];
        if self.keys[slot] != o {
            let ok = bytes
                .get(o..o + bb)
                .is_some_and(|blk| compressed::decode_block(self.format, blk, cached).is_ok());
            if !ok {
                cached.fill([0.0; 4]);
            }
            self.keys[slot] = o;
        }
        cached
            .get((ty * self.bw + tx) as usize)
            .copied()
            .unwrap_or([0.0; 4])
    }
}

/// The texel decoder a view needs, chosen once per [`crate::QuadSampler`].
pub(crate) enum Decoder {
    Rgba8(Rgba8),
    Rgba16F(Rgba16F),
    R32F(R32F),
    Blocks(Blocks),
    Depth(Depth),
    Any(AnyUncompressed),
}

impl Decoder {
    pub(crate) fn new(f: TextureFormat) -> Decoder {
        match f.layout() {
            FormatLayout::Array {
                order: order @ (ChannelOrder::Rgba | ChannelOrder::Bgra),
                bits: 8,
                kind: kind @ (ChannelKind::Unorm | ChannelKind::Srgb),
            } => Decoder::Rgba8(Rgba8::new(
                kind == ChannelKind::Srgb,
                order == ChannelOrder::Bgra,
            )),
            FormatLayout::Array {
                order: ChannelOrder::Rgba,
                bits: 16,
                kind: ChannelKind::Float,
            } => Decoder::Rgba16F(Rgba16F),
            FormatLayout::Array {
                order: ChannelOrder::R,
                bits: 32,
                kind: ChannelKind::Float,
            } => Decoder::R32F(R32F),
            FormatLayout::Block { .. } => Decoder::Blocks(Blocks::new(f)),
            _ => match f {
                TextureFormat::Depth16Unorm => Decoder::Depth(Depth { bits: 16 }),
                TextureFormat::Depth24UnormX8 => Decoder::Depth(Depth { bits: 24 }),
                TextureFormat::Depth32Float => Decoder::Depth(Depth { bits: 32 }),
                _ => Decoder::Any(AnyUncompressed(f)),
            },
        }
    }
}
