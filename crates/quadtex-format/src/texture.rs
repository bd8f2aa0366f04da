//! Texture storage: owned, 64-byte aligned bytes holding every subresource
//! (level, layer or face, sample) in one of two layouts behind one API.
//!
//! - [`Layout::Linear`]: rows of blocks, tightly packed in the probe order
//!   (level, layer, sample, z, y, x), so raw probe data loads with one copy.
//! - [`Layout::Tiled`]: each z slice is cut into tiles of 64 bytes or less
//!   (8x8 texels of 1 byte, 4x4 of 4 bytes, 2x2 of 16 bytes, 4x2 BC1
//!   blocks, ...) stored in row-major tile order, texels inside a tile in
//!   Morton order. A bilinear 2x2 footprint then usually lies in one cache
//!   line, and minified or rotated footprints touch few lines. Tiled
//!   subresources start on 64-byte boundaries.
//!
//! Addressing is by blocks (texels for uncompressed formats). What the
//! bytes mean is `texel.rs` and `compressed/`; sampling is elsewhere.

use std::sync::OnceLock;

use bytemuck::{Pod, Zeroable};

use crate::compressed;
use crate::desc::{Extent3d, TextureDesc};
use crate::error::{Error, Result};
use crate::format::{Aspect, TextureFormat};
use crate::sparse::Residency;
use crate::texel::{self, Texel};

/// How texels are arranged in memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Rows of blocks, tightly packed.
    #[default]
    Linear,
    /// 64-byte tiles, Morton order inside each tile.
    Tiled,
}

impl Layout {
    /// `linear` or `tiled`.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Linear => "linear",
            Layout::Tiled => "tiled",
        }
    }
}

#[repr(C, align(64))]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Line([u8; 64]);

/// Owned bytes whose start is 64-byte aligned.
#[derive(Clone)]
struct AlignedBytes {
    lines: Vec<Line>,
    len: usize,
}

impl AlignedBytes {
    /// `len` zero bytes. Textures reach gigabytes, so a failed allocation
    /// is an [`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory)
    /// error rather than an abort.
    fn try_zeroed(len: usize) -> Result<AlignedBytes> {
        let mut lines = Vec::new();
        grow_lines(&mut lines, len.div_ceil(64))?;
        Ok(AlignedBytes { lines, len })
    }
    fn as_slice(&self) -> &[u8] {
        &bytemuck::cast_slice::<Line, u8>(&self.lines)[..self.len]
    }
    fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut bytemuck::cast_slice_mut::<Line, u8>(&mut self.lines)[..self.len]
    }
}

/// Grows `lines` to `n` zeroed lines, failing with
/// [`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory) where `vec!` or `resize` alone would abort the process.
fn grow_lines(lines: &mut Vec<Line>, n: usize) -> Result<()> {
    if n > lines.len() {
        lines
            .try_reserve_exact(n - lines.len())
            .map_err(|_| Error::out_of_memory("texture storage", (n as u64).saturating_mul(64)))?;
        lines.resize(n, Line([0; 64]));
    }
    Ok(())
}

/// Where one subresource (level, layer, sample) lives and how to address
/// its blocks. Cheap to copy; the sampler keeps these for its hot path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subresource {
    /// Byte offset of the subresource in [`Texture::bytes`].
    pub offset: usize,
    /// Extent in texels.
    pub extent: Extent3d,
    /// Width in blocks.
    pub blocks_x: u32,
    /// Height in blocks.
    pub blocks_y: u32,
    /// Bytes per block.
    pub block_bytes: u32,
    /// log2 of the tile width in blocks (0 for linear).
    pub tile_w_log2: u32,
    /// log2 of the tile height in blocks (0 for linear).
    pub tile_h_log2: u32,
    /// Tiles per row (blocks per row for linear).
    pub tiles_x: u32,
    /// Tile rows per slice (block rows for linear).
    pub tiles_y: u32,
    /// Bytes of the whole subresource (all z slices).
    pub size: usize,
}

impl Subresource {
    /// Byte offset of block `(bx, by, z)` in [`Texture::bytes`]. The caller
    /// keeps the block inside `blocks_x x blocks_y x depth`.
    #[inline]
    pub fn block_offset(&self, bx: u32, by: u32, z: u32) -> usize {
        self.offset + (self.x_blocks(bx) + self.yz_blocks(by, z)) * self.block_bytes as usize
    }

    /// The column's share of a block's index (in blocks, not bytes). Tiled
    /// addresses are separable: the tile index and the Morton bits of x and
    /// of y are disjoint terms, so `block index = x_blocks(bx) +
    /// yz_blocks(by, z)` and a 2x2 footprint needs two of each.
    #[inline]
    pub fn x_blocks(&self, bx: u32) -> usize {
        let tw = self.tile_w_log2;
        let th = self.tile_h_log2;
        let common = tw.min(th);
        let inner = bx & ((1 << tw) - 1);
        let low = part1by1(inner & ((1 << common) - 1));
        let high = (inner >> common) << (2 * common);
        (((bx >> tw) as usize) << (tw + th)) + (low | high) as usize
    }

    /// The row and slice share of a block's index (see
    /// [`Subresource::x_blocks`]).
    #[inline]
    pub fn yz_blocks(&self, by: u32, z: u32) -> usize {
        let tw = self.tile_w_log2;
        let th = self.tile_h_log2;
        let common = tw.min(th);
        let inner = by & ((1 << th) - 1);
        let low = part1by1(inner & ((1 << common) - 1)) << 1;
        let high = (inner >> common) << (2 * common);
        let tile_row =
            (z as usize * self.tiles_y as usize + (by >> th) as usize) * self.tiles_x as usize;
        (tile_row << (tw + th)) + (low | high) as usize
    }

    /// Whether block `(bx, by, z)` is inside the subresource.
    #[inline]
    pub fn contains_block(&self, bx: u32, by: u32, z: u32) -> bool {
        bx < self.blocks_x && by < self.blocks_y && z < self.extent.depth
    }
}

/// Spreads the low 4 bits of `v` to the even bit positions.
#[inline]
fn part1by1(v: u32) -> u32 {
    let v = (v | (v << 2)) & 0x33;
    (v | (v << 1)) & 0x55
}

/// Morton index of `(x, y)` inside a `2^tw x 2^th` tile: the low
/// `min(tw, th)` bits of x and y interleave (x in the even bits), the rest of
/// the longer axis sits on top.
#[inline]
pub fn morton(x: u32, y: u32, tw: u32, th: u32) -> u32 {
    let common = tw.min(th);
    let mut m = 0;
    for i in 0..common {
        m |= ((x >> i) & 1) << (2 * i);
        m |= ((y >> i) & 1) << (2 * i + 1);
    }
    let hi = if tw > th { x >> common } else { y >> common };
    m | (hi << (2 * common))
}

/// Tile shape (log2 width, log2 height) in blocks for a block size: the
/// largest power-of-two block count whose bytes fit in 64, as square as
/// possible (wider when not), or one row for 1D kinds.
pub fn tile_shape(block_bytes: u32, one_d: bool) -> (u32, u32) {
    let mut n_log2 = 0;
    while (2u32 << n_log2) * block_bytes <= 64 {
        n_log2 += 1;
    }
    if one_d {
        (n_log2, 0)
    } else {
        (n_log2.div_ceil(2), n_log2 / 2)
    }
}

/// The address of one texel: subresource (level, layer or `6 * cube +
/// face`, sample) and coordinates in texels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TexelAddr {
    /// Mip level.
    pub level: u32,
    /// Array layer, or `6 * cube + face` for cubes.
    pub layer: u32,
    /// Sample index (0 for single-sampled textures).
    pub sample: u32,
    /// Column.
    pub x: u32,
    /// Row (0 for 1D).
    pub y: u32,
    /// Depth slice (0 except for 3D).
    pub z: u32,
}

impl TexelAddr {
    /// Every field given.
    pub const fn new(level: u32, layer: u32, sample: u32, x: u32, y: u32, z: u32) -> TexelAddr {
        TexelAddr {
            level,
            layer,
            sample,
            x,
            y,
            z,
        }
    }

    /// Texel `(x, y)` of level 0, layer 0, sample 0.
    pub const fn at(x: u32, y: u32) -> TexelAddr {
        TexelAddr::new(0, 0, 0, x, y, 0)
    }
}

/// A texture: its description, its bytes in one layout, and optionally a
/// sparse residency map.
#[derive(Clone)]
pub struct Texture {
    desc: TextureDesc,
    layout: Layout,
    data: AlignedBytes,
    subs: Vec<Subresource>,
    residency: Option<Residency>,
    /// [`Texture::rgba8_mirror`], built on first use; reset by every
    /// `&mut` method that can change the texels.
    mirror: OnceLock<Option<Box<Texture>>>,
}

impl std::fmt::Debug for Texture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Texture")
            .field("desc", &self.desc)
            .field("layout", &self.layout)
            .field("bytes", &self.data.len)
            .field("sparse", &self.residency.is_some())
            .finish()
    }
}

/// Where every subresource of `desc` (validated) lives in `layout`, and
/// the bytes the storage takes.
fn plan(desc: &TextureDesc, layout: Layout) -> (Vec<Subresource>, usize) {
    let f = desc.format;
    let (bw, bh) = f.block_extent();
    let bpb = f.block_bytes();
    let (tw, th) = match layout {
        Layout::Linear => (0, 0),
        Layout::Tiled => tile_shape(bpb, desc.kind.dimensions() == 1),
    };
    let mut subs = Vec::with_capacity((desc.levels * desc.layers * desc.samples) as usize);
    let mut offset = 0usize;
    for level in 0..desc.levels {
        let extent = desc.level_extent(level);
        let blocks_x = extent.width.div_ceil(bw);
        let blocks_y = extent.height.div_ceil(bh);
        let (tiles_x, tiles_y) = match layout {
            Layout::Linear => (blocks_x, blocks_y),
            Layout::Tiled => (blocks_x.div_ceil(1 << tw), blocks_y.div_ceil(1 << th)),
        };
        let size = tiles_x as usize
            * tiles_y as usize
            * extent.depth as usize
            * ((bpb as usize) << (tw + th));
        for _ in 0..desc.layers * desc.samples {
            if layout == Layout::Tiled {
                offset = offset.next_multiple_of(64);
            }
            subs.push(Subresource {
                offset,
                extent,
                blocks_x,
                blocks_y,
                block_bytes: bpb,
                tile_w_log2: tw,
                tile_h_log2: th,
                tiles_x,
                tiles_y,
                size,
            });
            offset += size;
        }
    }
    (subs, offset)
}

impl Texture {
    /// A zero-filled texture. Errors: the description's
    /// ([`TextureDesc::validate`]), and
    /// [`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory) when its
    /// storage cannot be allocated.
    pub fn new(desc: TextureDesc, layout: Layout) -> Result<Texture> {
        desc.validate()?;
        let (subs, size) = plan(&desc, layout);
        Ok(Texture {
            desc,
            layout,
            data: AlignedBytes::try_zeroed(size)?,
            subs,
            residency: None,
            mirror: OnceLock::new(),
        })
    }

    /// A texture from bytes tightly packed in the probe order (level, layer,
    /// sample, z, y, x; whole blocks), stored in `layout`. The size is
    /// checked before the storage is allocated.
    pub fn from_linear_bytes(desc: TextureDesc, layout: Layout, data: &[u8]) -> Result<Texture> {
        desc.validate()?;
        let expected = desc.total_bytes().unwrap_or(u64::MAX);
        if data.len() as u64 != expected {
            return Err(Error::wrong_size(
                "texture data",
                expected,
                data.len() as u64,
            ));
        }
        let mut t = Texture::new(desc, layout)?;
        if layout == Layout::Linear {
            t.data.as_mut_slice().copy_from_slice(data);
        } else {
            let mut pos = 0;
            for i in 0..t.subs.len() {
                let n = t.linear_size(i);
                t.write_sub_linear(i, &data[pos..pos + n]);
                pos += n;
            }
        }
        Ok(t)
    }

    fn linear_size(&self, i: usize) -> usize {
        let s = &self.subs[i];
        s.blocks_x as usize * s.blocks_y as usize * s.extent.depth as usize * s.block_bytes as usize
    }

    fn write_sub_linear(&mut self, i: usize, src: &[u8]) {
        let s = self.subs[i];
        let bpb = s.block_bytes as usize;
        let row = s.blocks_x as usize * bpb;
        let dst = self.data.as_mut_slice();
        if self.layout == Layout::Linear {
            dst[s.offset..s.offset + src.len()].copy_from_slice(src);
            return;
        }
        for z in 0..s.extent.depth {
            for by in 0..s.blocks_y {
                let r = (z as usize * s.blocks_y as usize + by as usize) * row;
                for bx in 0..s.blocks_x {
                    let o = s.block_offset(bx, by, z);
                    let so = r + bx as usize * bpb;
                    dst[o..o + bpb].copy_from_slice(&src[so..so + bpb]);
                }
            }
        }
    }

    fn read_sub_linear(&self, i: usize, out: &mut Vec<u8>) {
        let s = self.subs[i];
        let bpb = s.block_bytes as usize;
        let src = self.data.as_slice();
        if self.layout == Layout::Linear {
            out.extend_from_slice(&src[s.offset..s.offset + s.size]);
            return;
        }
        for z in 0..s.extent.depth {
            for by in 0..s.blocks_y {
                for bx in 0..s.blocks_x {
                    let o = s.block_offset(bx, by, z);
                    out.extend_from_slice(&src[o..o + bpb]);
                }
            }
        }
    }

    /// All texels, tightly packed in the probe order (the inverse of
    /// [`Texture::from_linear_bytes`]).
    pub fn to_linear_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.desc.total_bytes().unwrap_or(0) as usize);
        for i in 0..self.subs.len() {
            self.read_sub_linear(i, &mut out);
        }
        out
    }

    /// The same texels in another layout.
    pub fn to_layout(&self, layout: Layout) -> Texture {
        if layout == self.layout {
            return self.clone();
        }
        // The description is valid (it made `self`); only the allocation
        // can fail, which is as fatal here as it is in `clone`.
        let mut t = Texture::new(self.desc, layout).expect("allocating the texture's new layout");
        let mut buf = Vec::new();
        for i in 0..self.subs.len() {
            buf.clear();
            self.read_sub_linear(i, &mut buf);
            t.write_sub_linear(i, &buf);
        }
        t.residency = self.residency.clone();
        t
    }

    /// For a block-compressed format whose blocks decode through 8-bit
    /// RGBA codes (BC1, BC2, BC3, BC7, ETC2 RGB8 / RGB8A1 / RGBA8,
    /// [`compressed::block_rgba8`]): the same texels decoded once into
    /// `R8G8B8A8_UNORM` (`_SRGB` for an sRGB format), with the same kind,
    /// extent, levels, layers and layout. Reading it decodes every texel to
    /// the same value as the compressed texture does. Built on first use
    /// and kept until a `&mut` method changes the texels. `None` for other
    /// formats, sparse textures, and when the copy cannot be allocated.
    pub fn rgba8_mirror(&self) -> Option<&Texture> {
        self.mirror
            .get_or_init(|| self.build_rgba8_mirror())
            .as_deref()
    }

    fn build_rgba8_mirror(&self) -> Option<Box<Texture>> {
        let f = self.desc.format;
        if self.residency.is_some() || f.block_extent() != (4, 4) {
            return None;
        }
        // A zero block tells the formats that decode through codes.
        compressed::block_rgba8(f, &[0u8; 16])?;
        let format = if f.is_srgb() {
            TextureFormat::Rgba8Srgb
        } else {
            TextureFormat::Rgba8Unorm
        };
        let desc = TextureDesc {
            format,
            ..self.desc
        };
        let mut m = Texture::new(desc, self.layout).ok()?;
        let mut blocks = Vec::new();
        for i in 0..self.subs.len() {
            let s = self.subs[i];
            blocks.clear();
            self.read_sub_linear(i, &mut blocks);
            let (w, h) = (s.extent.width as usize, s.extent.height as usize);
            let mut texels = vec![0u8; w * h * s.extent.depth as usize * 4];
            let bpb = s.block_bytes as usize;
            for (b, block) in blocks.chunks_exact(bpb).enumerate() {
                let bx = b % s.blocks_x as usize;
                let by = (b / s.blocks_x as usize) % s.blocks_y as usize;
                let z = b / (s.blocks_x as usize * s.blocks_y as usize);
                let px = compressed::block_rgba8(f, block)?;
                for (k, p) in px.iter().enumerate() {
                    let (x, y) = (4 * bx + k % 4, 4 * by + k / 4);
                    if x < w && y < h {
                        let o = ((z * h + y) * w + x) * 4;
                        texels[o..o + 4].copy_from_slice(p);
                    }
                }
            }
            m.write_sub_linear(i, &texels);
        }
        Some(Box::new(m))
    }

    /// The description.
    pub fn desc(&self) -> &TextureDesc {
        &self.desc
    }

    /// The format.
    pub fn format(&self) -> TextureFormat {
        self.desc.format
    }

    /// The layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The raw storage (subresources at [`Subresource::offset`]).
    pub fn bytes(&self) -> &[u8] {
        self.data.as_slice()
    }

    /// The raw storage, writable.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        self.mirror = OnceLock::new();
        self.data.as_mut_slice()
    }

    /// The index of subresource (level, layer, sample), if it exists.
    pub fn subresource_index(&self, level: u32, layer: u32, sample: u32) -> Option<usize> {
        let d = &self.desc;
        (level < d.levels && layer < d.layers && sample < d.samples)
            .then(|| ((level * d.layers + layer) * d.samples + sample) as usize)
    }

    /// Subresource (level, layer or `6 * cube + face`, sample), if it exists.
    pub fn subresource(&self, level: u32, layer: u32, sample: u32) -> Option<&Subresource> {
        self.subresource_index(level, layer, sample)
            .map(|i| &self.subs[i])
    }

    /// Every subresource, in (level, layer, sample) order.
    pub fn subresources(&self) -> &[Subresource] {
        &self.subs
    }

    /// The bytes of the block holding texel `(x, y, z)`, or `None` when any
    /// index is out of range.
    pub fn texel_block(&self, at: TexelAddr) -> Option<&[u8]> {
        let TexelAddr {
            level,
            layer,
            sample,
            x,
            y,
            z,
        } = at;
        let s = self.subresource(level, layer, sample)?;
        let (bw, bh) = self.desc.format.block_extent();
        if x >= s.extent.width || y >= s.extent.height || z >= s.extent.depth {
            return None;
        }
        let o = s.block_offset(x / bw, y / bh, z);
        self.data.as_slice().get(o..o + s.block_bytes as usize)
    }

    /// Reads texel `(x, y, z)` through `aspect`, decoding compressed blocks;
    /// `None` when out of range.
    pub fn read_texel(&self, at: TexelAddr, aspect: Aspect) -> Option<Texel> {
        let block = self.texel_block(at)?;
        let (x, y) = (at.x, at.y);
        let f = self.desc.format;
        if f.is_compressed() {
            let (bw, bh) = f.block_extent();
            let mut out = [[0.0f32; 4]; compressed::MAX_BLOCK_TEXELS];
            compressed::decode_block(f, block, &mut out).ok()?;
            Some(Texel::Float(out[((y % bh) * bw + x % bw) as usize]))
        } else {
            texel::decode(f, aspect, block).ok()
        }
    }

    /// Writes texel `(x, y, z)` of an uncompressed format through `aspect`.
    ///
    /// Errors: [`ErrorKind::OutOfRange`](crate::ErrorKind::OutOfRange) for
    /// a subresource or texel outside the texture,
    /// [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) for
    /// block-compressed formats (whose
    /// texels cannot be written one at a time: replace whole blocks with
    /// [`Texture::write_subresource_bytes`]), and the errors of
    /// [`texel::encode`] for a value or aspect the format cannot take.
    pub fn write_texel(&mut self, at: TexelAddr, aspect: Aspect, value: Texel) -> Result<()> {
        self.mirror = OnceLock::new();
        let TexelAddr {
            level,
            layer,
            sample,
            x,
            y,
            z,
        } = at;
        let f = self.desc.format;
        let s = *self.subresource(level, layer, sample).ok_or_else(|| {
            Error::out_of_range(format!(
                "subresource level {level} layer {layer} sample {sample}"
            ))
        })?;
        if x >= s.extent.width || y >= s.extent.height || z >= s.extent.depth {
            return Err(Error::out_of_range(format!(
                "texel ({x}, {y}, {z}) of a {}x{}x{} level",
                s.extent.width, s.extent.height, s.extent.depth
            )));
        }
        if f.is_compressed() {
            return Err(Error::unsupported(
                f,
                "texels of block-compressed formats cannot be written one at a time; \
                       write whole blocks (write_subresource_bytes)",
            ));
        }
        // Uncompressed: one texel per block, so texel and block coordinates
        // agree. The range is still taken with `get_mut`, so that a wrong
        // offset is an error rather than a panic.
        let o = s.block_offset(x, y, z);
        let n = s.block_bytes as usize;
        let dst = self
            .data
            .as_mut_slice()
            .get_mut(o..o + n)
            .ok_or_else(|| Error::out_of_range(format!("texel ({x}, {y}, {z}) at byte {o}")))?;
        texel::encode(f, aspect, value, dst)
    }

    /// One subresource's blocks, tightly packed (z, y, x).
    pub fn subresource_bytes(&self, level: u32, layer: u32, sample: u32) -> Option<Vec<u8>> {
        let i = self.subresource_index(level, layer, sample)?;
        let mut out = Vec::with_capacity(self.linear_size(i));
        self.read_sub_linear(i, &mut out);
        Some(out)
    }

    /// Replaces one subresource's blocks from tightly packed bytes.
    pub fn write_subresource_bytes(
        &mut self,
        level: u32,
        layer: u32,
        sample: u32,
        src: &[u8],
    ) -> Result<()> {
        let i = self
            .subresource_index(level, layer, sample)
            .ok_or_else(|| {
                Error::out_of_range(format!(
                    "subresource level {level} layer {layer} sample {sample}"
                ))
            })?;
        let n = self.linear_size(i);
        if src.len() != n {
            return Err(Error::wrong_size(
                "subresource data",
                n as u64,
                src.len() as u64,
            ));
        }
        self.mirror = OnceLock::new();
        self.write_sub_linear(i, src);
        Ok(())
    }

    /// Makes the texture sparse: every tile starts non-resident.
    pub fn make_sparse(&mut self) {
        self.mirror = OnceLock::new();
        self.residency = Some(Residency::new(&self.desc));
    }

    /// The residency map of a sparse texture.
    pub fn residency(&self) -> Option<&Residency> {
        self.residency.as_ref()
    }

    /// The residency map of a sparse texture, writable.
    pub fn residency_mut(&mut self) -> Option<&mut Residency> {
        self.residency.as_mut()
    }

    /// Whether texel `(x, y, z)` of (level, layer) is backed by memory:
    /// always for non-sparse textures.
    pub fn is_resident(&self, level: u32, layer: u32, x: u32, y: u32, z: u32) -> bool {
        self.residency
            .as_ref()
            .is_none_or(|r| r.is_resident(level, layer, x, y, z))
    }
}

/// The bytes of a linear texture, gathered in the probe order as a
/// container yields them (decompressed, converted). The whole storage is
/// reserved at once, so an impossible size is an
/// [`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory) error
/// before any decoding, but it is only written (and so only takes memory)
/// as bytes arrive, and never moves: a file that claims a huge texture but
/// holds, or decompresses to, little costs only what it delivers, and one
/// that delivers all of it costs the texture once.
#[cfg(feature = "io")]
pub(crate) struct LinearBuilder {
    desc: TextureDesc,
    /// Reserved for the whole texture; `lines.len()` is how far it is
    /// written (zeroed, then filled).
    lines: Vec<Line>,
    /// Bytes filled so far.
    len: usize,
    /// Bytes the finished texture takes.
    total: usize,
}

#[cfg(feature = "io")]
impl LinearBuilder {
    /// How far ahead of the filled bytes the storage is zeroed at a time,
    /// so that small pieces do not extend it one after another.
    const STEP: usize = 1 << 20;

    /// An empty builder for `desc`, which is validated, with the whole
    /// texture's storage reserved (not yet written).
    pub(crate) fn new(desc: TextureDesc) -> Result<LinearBuilder> {
        desc.validate()?;
        let total = desc
            .total_bytes()
            .and_then(|b| usize::try_from(b).ok())
            .ok_or_else(|| Error::invalid_desc("texture larger than the address space"))?;
        let mut lines = Vec::new();
        lines
            .try_reserve_exact(total.div_ceil(64))
            .map_err(|_| Error::out_of_memory("texture storage", total as u64))?;
        Ok(LinearBuilder {
            desc,
            lines,
            len: 0,
            total,
        })
    }

    /// Bytes of storage written so far (zeroed or filled).
    fn written(&self) -> usize {
        (self.lines.len() * 64).min(self.total)
    }

    /// Zeroes the storage up to `len + need` bytes (at least [`Self::STEP`]
    /// more, never past the texture), inside the reserved capacity.
    fn extend_for(&mut self, need: usize) {
        let want = self.len.saturating_add(need).min(self.total);
        if want > self.written() {
            let to = want.max(self.written() + Self::STEP).min(self.total);
            // Within the capacity reserved in `new`: no reallocation.
            self.lines.resize(to.div_ceil(64), Line([0; 64]));
        }
    }

    /// Room for the next bytes: at most `n`, at least one while `n > 0` and
    /// the texture is not complete. Fill a prefix, then [`Self::commit`] it.
    pub(crate) fn spare(&mut self, n: usize) -> &mut [u8] {
        if n > 0 && self.len == self.written() {
            self.extend_for(1);
        }
        let end = self.written().min(self.len.saturating_add(n));
        let start = self.len;
        &mut bytemuck::cast_slice_mut::<Line, u8>(&mut self.lines)[start..end]
    }

    /// Marks `n` bytes of the last [`Self::spare`] room as filled.
    pub(crate) fn commit(&mut self, n: usize) {
        self.len = self.len.saturating_add(n).min(self.written());
    }

    /// Appends `src`; more than the texture takes is an error.
    pub(crate) fn extend_from_slice(&mut self, src: &[u8]) -> Result<()> {
        let end = self.len.checked_add(src.len()).filter(|&e| e <= self.total);
        let Some(end) = end else {
            return Err(Error::wrong_size(
                "texture data",
                self.total as u64,
                self.len as u64 + src.len() as u64,
            ));
        };
        self.extend_for(src.len());
        bytemuck::cast_slice_mut::<Line, u8>(&mut self.lines)[self.len..end].copy_from_slice(src);
        self.len = end;
        Ok(())
    }

    /// The texture, in [`Layout::Linear`]; an error unless every byte was
    /// filled.
    pub(crate) fn finish(self) -> Result<Texture> {
        if self.len != self.total {
            return Err(Error::wrong_size(
                "texture data",
                self.total as u64,
                self.len as u64,
            ));
        }
        let (subs, size) = plan(&self.desc, Layout::Linear);
        debug_assert_eq!(size, self.total);
        Ok(Texture {
            desc: self.desc,
            layout: Layout::Linear,
            data: AlignedBytes {
                lines: self.lines,
                len: self.total,
            },
            subs,
            residency: None,
            mirror: OnceLock::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desc::TextureKind;
    use crate::ErrorKind;
    use TextureFormat as F;

    #[test]
    fn tile_shapes_fit_one_cache_line() {
        assert_eq!(tile_shape(1, false), (3, 3));
        assert_eq!(tile_shape(2, false), (3, 2));
        assert_eq!(tile_shape(4, false), (2, 2));
        assert_eq!(tile_shape(8, false), (2, 1));
        assert_eq!(tile_shape(12, false), (1, 1));
        assert_eq!(tile_shape(16, false), (1, 1));
        assert_eq!(tile_shape(4, true), (4, 0));
        assert_eq!(morton(3, 0, 2, 2), 0b0101);
        assert_eq!(morton(0, 3, 2, 2), 0b1010);
        assert_eq!(morton(7, 1, 3, 2), 0b10111);
        // The separable form equals the Morton definition on every tile shape.
        for bpb in [1, 2, 4, 8, 12, 16] {
            for one_d in [false, true] {
                let (tw, th) = tile_shape(bpb, one_d);
                let s = Subresource {
                    offset: 0,
                    extent: Extent3d {
                        width: 40,
                        height: 24,
                        depth: 3,
                    },
                    blocks_x: 40,
                    blocks_y: 24,
                    block_bytes: 1,
                    tile_w_log2: tw,
                    tile_h_log2: th,
                    tiles_x: 40u32.div_ceil(1 << tw),
                    tiles_y: 24u32.div_ceil(1 << th),
                    size: 0,
                };
                for z in 0..3 {
                    for y in 0..24 {
                        for x in 0..40 {
                            let tile = (z * s.tiles_y as usize + (y >> th) as usize)
                                * s.tiles_x as usize
                                + (x >> tw) as usize;
                            let m =
                                morton(x & ((1 << tw) - 1), y & ((1 << th) - 1), tw, th) as usize;
                            assert_eq!(
                                s.block_offset(x, y, z as u32),
                                (tile << (tw + th)) + m,
                                "{bpb} {one_d} ({x},{y},{z})"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn tiled_storage_is_aligned_and_a_footprint_stays_in_one_line() {
        let t = Texture::new(TextureDesc::d2(F::Rgba8Unorm, 64, 64), Layout::Tiled).unwrap();
        assert_eq!(t.bytes().as_ptr() as usize % 64, 0);
        let s = t.subresource(0, 0, 0).unwrap();
        // Texels (4,4), (5,4), (4,5), (5,5) share a 4x4 tile.
        let lines: std::collections::HashSet<usize> = [(4, 4), (5, 4), (4, 5), (5, 5)]
            .iter()
            .map(|&(x, y)| s.block_offset(x, y, 0) / 64)
            .collect();
        assert_eq!(lines.len(), 1);
    }

    #[test]
    fn wrong_data_size_is_an_error() {
        let d = TextureDesc::d2(F::Rgba8Unorm, 4, 4).with_levels(1);
        let e = Texture::from_linear_bytes(d, Layout::Linear, &[0; 63]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::WrongSize);
        assert_eq!(e.to_string(), "texture data: expected 64 bytes, got 63");
    }

    #[test]
    fn read_write_texel_by_level_and_face() {
        let mut t = Texture::new(TextureDesc::cube(F::Rgba8Unorm, 4), Layout::Tiled).unwrap();
        t.write_texel(
            TexelAddr::new(1, 5, 0, 1, 1, 0),
            Aspect::Color,
            Texel::Float([1.0, 0.0, 0.0, 1.0]),
        )
        .unwrap();
        assert_eq!(
            t.read_texel(TexelAddr::new(1, 5, 0, 1, 1, 0), Aspect::Color),
            Some(Texel::Float([1.0, 0.0, 0.0, 1.0]))
        );
        assert_eq!(
            t.read_texel(TexelAddr::new(1, 4, 0, 1, 1, 0), Aspect::Color),
            Some(Texel::Float([0.0, 0.0, 0.0, 0.0]))
        );
        assert_eq!(
            t.read_texel(TexelAddr::new(1, 5, 0, 2, 0, 0), Aspect::Color),
            None
        );
        assert_eq!(
            t.read_texel(TexelAddr::new(3, 0, 0, 0, 0, 0), Aspect::Color),
            None
        );
        assert_eq!(
            t.read_texel(TexelAddr::new(0, 6, 0, 0, 0, 0), Aspect::Color),
            None
        );
        assert!(t
            .write_texel(
                TexelAddr::new(0, 0, 0, 4, 0, 0),
                Aspect::Color,
                Texel::Float([0.0; 4])
            )
            .is_err());
        let _ = TextureKind::Cube;
    }

    #[test]
    fn write_texel_on_a_block_compressed_texture_is_an_error_never_a_panic() {
        // 16x16 BC1: (15, 15) used to address block (15, 15) of a 4x4-block
        // level, past the end of the storage, and panic; (1, 1) reached
        // the encoder and was refused. Both are the same error now.
        let mut t = Texture::new(TextureDesc::d2(F::Bc1RgbUnorm, 16, 16), Layout::Linear).unwrap();
        let red = Texel::Float([1.0, 0.0, 0.0, 1.0]);
        for (x, y) in [(15, 15), (1, 1), (0, 0)] {
            let e = t
                .write_texel(TexelAddr::at(x, y), Aspect::Color, red)
                .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Unsupported, "({x}, {y})");
            assert_eq!(e.format(), Some(F::Bc1RgbUnorm), "({x}, {y})");
        }
        // Outside the level and outside the chain: range errors first.
        let e = t.write_texel(TexelAddr::at(16, 0), Aspect::Color, red);
        assert_eq!(e.unwrap_err().kind(), ErrorKind::OutOfRange);
        let e = t.write_texel(TexelAddr::new(5, 0, 0, 0, 0, 0), Aspect::Color, red);
        assert_eq!(e.unwrap_err().kind(), ErrorKind::OutOfRange);
        assert!(t.bytes().iter().all(|&b| b == 0), "nothing was written");

        // The same corner of an uncompressed 16x16 texture, linear and
        // tiled, and of its last mip level, is written and reads back.
        for layout in [Layout::Linear, Layout::Tiled] {
            let mut t = Texture::new(TextureDesc::d2(F::Rgba8Unorm, 16, 16), layout).unwrap();
            t.write_texel(TexelAddr::at(15, 15), Aspect::Color, red)
                .unwrap();
            t.write_texel(TexelAddr::new(4, 0, 0, 0, 0, 0), Aspect::Color, red)
                .unwrap();
            let linear = t.to_linear_bytes();
            assert_eq!(linear[(15 * 16 + 15) * 4..][..4], [255, 0, 0, 255]);
            assert_eq!(linear[linear.len() - 4..], [255, 0, 0, 255]);
            assert_eq!(linear.iter().filter(|&&b| b != 0).count(), 4);
        }
    }
}

#[cfg(test)]
mod mirror_tests {
    use super::*;
    use crate::desc::TextureKind;
    use TextureFormat as F;

    /// Seeded bytes (a 64-bit LCG's high bytes).
    fn bytes(n: usize, seed: u64) -> Vec<u8> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (x >> 56) as u8
            })
            .collect()
    }

    /// Every texel of the RGBA8 mirror reads as the compressed texel does,
    /// on odd extents (partial blocks), every level, two layers, both
    /// layouts, for each format the mirror covers.
    #[test]
    fn the_rgba8_mirror_reads_as_the_compressed_texture_does() {
        let formats = [
            F::Bc1RgbUnorm,
            F::Bc1RgbaSrgb,
            F::Bc2Unorm,
            F::Bc3Srgb,
            F::Bc7Unorm,
            F::Bc7Srgb,
            F::Etc2Rgb8Unorm,
            F::Etc2Rgb8A1Srgb,
            F::Etc2Rgba8Unorm,
        ];
        for (n, f) in formats.into_iter().enumerate() {
            for layout in [Layout::Linear, Layout::Tiled] {
                let desc = TextureDesc::d2(f, 13, 7).with_layers(TextureKind::D2Array, 2);
                let size = desc.total_bytes().unwrap() as usize;
                let t = Texture::from_linear_bytes(desc, layout, &bytes(size, n as u64)).unwrap();
                let m = t.rgba8_mirror().expect("a mirror");
                assert_eq!(m.format().is_srgb(), f.is_srgb());
                assert_eq!(m.layout(), layout);
                let mut checked = 0;
                for level in 0..desc.levels {
                    let e = desc.level_extent(level);
                    for layer in 0..2 {
                        for y in 0..e.height {
                            for x in 0..e.width {
                                let at = TexelAddr::new(level, layer, 0, x, y, 0);
                                let want = t.read_texel(at, Aspect::Color).unwrap().to_f32();
                                let got = m.read_texel(at, Aspect::Color).unwrap().to_f32();
                                assert_eq!(
                                    got.map(f32::to_bits),
                                    want.map(f32::to_bits),
                                    "{f:?} {layout:?} {at:?}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
                // 13x7, 6x3, 3x1 and 1x1 texels, two layers.
                assert_eq!(checked, 2 * (91 + 18 + 3 + 1));
            }
        }
    }

    /// No mirror for formats whose decode is not 8-bit codes, nor for
    /// uncompressed or sparse textures; a write drops a stale mirror.
    #[test]
    fn the_mirror_is_only_for_8_bit_block_formats_and_follows_writes() {
        for f in [F::Bc4Unorm, F::Bc6hUfloat, F::Rgba8Unorm] {
            let t = Texture::new(TextureDesc::d2(f, 8, 8), Layout::Tiled).unwrap();
            assert!(t.rgba8_mirror().is_none(), "{f:?}");
        }
        let mut t = Texture::new(TextureDesc::d2(F::Bc1RgbaUnorm, 8, 8), Layout::Linear).unwrap();
        let at = TexelAddr::at(0, 0);
        // An all-zero BC1 block: colour 0 both ends, index 0: black, and
        // (c0 <= c1: the three-colour mode) alpha 255.
        assert_eq!(
            t.rgba8_mirror()
                .unwrap()
                .read_texel(at, Aspect::Color)
                .unwrap()
                .to_f32(),
            [0.0, 0.0, 0.0, 1.0]
        );
        // Block 0: c0 = white (0xffff) > c1 = 0, indices 0: white.
        t.bytes_mut()[..2].copy_from_slice(&[0xff, 0xff]);
        assert_eq!(
            t.rgba8_mirror()
                .unwrap()
                .read_texel(at, Aspect::Color)
                .unwrap()
                .to_f32(),
            [1.0, 1.0, 1.0, 1.0]
        );
        t.make_sparse();
        assert!(t.rgba8_mirror().is_none());
    }
}
