//! Texel fetch: `ld` / `texelFetch` / `ld2dms` — integer texel coordinates,
//! no sampler, no filtering (docs/semantics.md §4 "Texel fetch" and §6; the
//! D3D `ld2dms` reference).
//!
//! What lives here: the fetch of one quad ([`fetch`]), the fetch unit
//! bound to one view that it runs on ([`QuadFetcher`]: per-view facts
//! worked out once, decoders monomorphised per format), its literal
//! scalar twin (`fetch_reference`, a test hook behind the feature
//! `test-hooks`), its arguments ([`FetchArgs`]), and the
//! single-texel read and decode that `gather` shares (a twin of the
//! private `Ctx::texel` of `reference.rs`, without the depth compare).
//! What does not: filtered reads (`reference.rs`,
//! `kernel.rs`) and the instruction front-ends that pack coordinates and
//! range-check offsets.
//!
//! Bounds use unsigned comparisons after the offset is added, as D3D's
//! `ld2dms` states: a negative coordinate, level, layer or sample index
//! wraps to a huge unsigned value and reads out of bounds.

use quadtex_format::{texel, SampleType, Subresource, Texel, Texture, TextureFormat, TextureKind};

use crate::header::{Swizzle, TextureHeader};
use crate::quad::QuadResult;
use crate::texels::{self, Fetch};
#[cfg(feature = "test-hooks")]
use crate::{header::SamplerHeader, profile::Profile, reference::Ctx};

/// Everything a fetch takes besides the view and the running lanes.
///
/// Every field is a 32-bit register word per lane; negative values are
/// kept as two's complement and compare as huge unsigned values (the D3D
/// `ld2dms` reference).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FetchArgs {
    /// Per lane `[x, y, z, layer]`: `[x, 0, 0, 0]` for 1D, `[x, 0, 0, layer]`
    /// for 1D arrays, `[x, y, 0, 0]` for 2D and 2D multisample, `[x, y, z,
    /// 0]` for 3D, `[x, y, 0, layer]` for 2D (multisample) arrays, and `[x,
    /// y, 0, 6 * cube + face]` for cubes and cube arrays (`z` unused). Entries
    /// the kind does not use are ignored.
    pub icoords: [[i32; 4]; 4],
    /// Per lane: the level relative to the view's base level (ignored by
    /// multisample kinds, which have one level and no LOD operand).
    pub level: [i32; 4],
    /// Per lane: the sample index (multisample kinds only; ignored
    /// otherwise).
    pub sample: [i32; 4],
    /// Texel offset `(i, j, k)` added to `x`, `y`, `z` in unsigned arithmetic,
    /// never to the layer; components the kind does not address are ignored
    /// (the D3D `ld2dms` reference, "Address Offset"). Range-checked by the
    /// front-end.
    pub offset: [i32; 3],
}

/// `ld` / `texelFetch` / `ld2dms` on the lanes of `running` (bit i = lane
/// i): docs/semantics.md §4 "Texel fetch" and §6 (the D3D `ld2dms`
/// reference).
///
/// A lane reads texel `(x + i, y + j, z + k)` of level `base_level + level`,
/// layer `base_layer + layer` and sample `sample`, decoded (sRGB to linear,
/// missing components (0, 0, 0, 1)) and swizzled by the view. 32-bit float
/// bits are returned untouched (denormals, -0 and NaN payloads kept).
///
/// Out of bounds (a coordinate at or past the level's extent, `level >=
/// level_count`, `layer >= layer_count` or `sample >= samples`, each
/// compared unsigned after the offset, so that negative values are out of
/// bounds) the lane reads 0 in the format's components and the defaults
/// `(0, 0, 0, 1)` (1.0 or integer 1) in the missing ones, swizzled like a
/// real texel, and reports resident (no memory was touched). A non-resident
/// texel of a sparse texture reads as zero memory decoded, with the lane's
/// resident flag false.
///
/// Builds a [`QuadFetcher`] per call; a caller that fetches many quads
/// from one view should keep one.
pub fn fetch(view: &TextureHeader, args: &FetchArgs, running: u8) -> QuadResult {
    // No caches for one quad: filling them would cost more than the few
    // level facts and block decodes they save.
    QuadFetcher::build(view, false).fetch(args, running)
}

/// Test hook (feature `test-hooks`): [`fetch`] written out literally, lane
/// by lane through the scalar reference context and the generic decoder:
/// the twin that `tests/fetch_twin.rs` compares [`QuadFetcher`] with, bit
/// for bit.
#[cfg(feature = "test-hooks")]
pub fn fetch_reference(view: &TextureHeader, args: &FetchArgs, running: u8) -> QuadResult {
    let smp = SamplerHeader::default();
    let ctx = Ctx::new(view, &smp, &Profile::VULKAN);
    let mut out = QuadResult::EMPTY;
    for lane in 0..4 {
        if running & (1 << lane) == 0 {
            continue;
        }
        let (t, resident) = fetch_lane(&ctx, args, lane);
        out.texels[lane] = Some(ctx.swizzle(t));
        out.resident[lane] = resident;
    }
    out
}

/// One lane of [`fetch_reference`], before the swizzle.
#[cfg(feature = "test-hooks")]
fn fetch_lane(ctx: &Ctx<'_>, args: &FetchArgs, lane: usize) -> (Texel, bool) {
    let view = ctx.view;
    let kind = view.kind;
    let c = args.icoords[lane].map(|v| v as u32);
    let off = args.offset.map(|v| v as u32);
    let oob = (out_of_bounds(ctx.format, ctx.ty), true);
    let (dims, layered) = kind_axes(kind);
    let level = if kind.is_multisample() {
        0
    } else {
        args.level[lane] as u32
    };
    if level >= view.level_count {
        return oob;
    }
    let sample = if kind.is_multisample() {
        let s = args.sample[lane] as u32;
        if s >= view.texture.desc().samples {
            return oob;
        }
        s
    } else {
        0
    };
    let layer = if layered {
        if c[3] >= view.layer_count {
            return oob;
        }
        c[3]
    } else {
        0
    };
    let extent = ctx.level_dims(level);
    let mut xyz = [0u32; 3];
    for k in 0..dims {
        let v = c[k].wrapping_add(off[k]);
        if i64::from(v) >= extent[k] {
            return oob;
        }
        xyz[k] = v;
    }
    ctx.load(
        view.base_level.wrapping_add(level),
        view.base_layer.wrapping_add(layer),
        sample,
        xyz,
    )
}

/// The coordinates a kind addresses (1, 2 or 3) and whether it has layers
/// (`icoords[3]`).
fn kind_axes(kind: TextureKind) -> (usize, bool) {
    match kind {
        TextureKind::D1 => (1, false),
        TextureKind::D1Array => (1, true),
        TextureKind::D2 | TextureKind::D2Ms => (2, false),
        TextureKind::D2Array | TextureKind::D2MsArray | TextureKind::Cube => (2, true),
        TextureKind::CubeArray => (2, true),
        TextureKind::D3 => (3, false),
    }
}

/// The out-of-bounds result: 0 in the format's components, the (0, 0, 0,
/// 1) defaults in the others (the D3D `ld2dms` reference).
fn out_of_bounds(format: TextureFormat, ty: SampleType) -> Texel {
    let present = format.components();
    let bits = [0, 1, 2, 3].map(|c| {
        if present[c] || c < 3 {
            0
        } else if ty == SampleType::Float {
            1.0f32.to_bits()
        } else {
            1
        }
    });
    Texel::from_bits(ty, bits)
}

/// A texel-fetch unit bound to one view: `ld` / `texelFetch` / `ld2dms`
/// for callers that fetch many quads from it (an MSAA resolve, a
/// full-screen pass reading a G-buffer).
///
/// [`QuadFetcher::new`] does the per-view work once (the format's facts,
/// the out-of-bounds texel already swizzled, the extent and texture level
/// of each view level, the texel decoder); [`QuadFetcher::fetch`] then
/// gives exactly the bits of [`fetch`], which is this unit built per call
/// (without its caches). Full quads whose lanes read one level, layer and
/// sample pick the subresource once. Common uncompressed formats (RGBA32F, RGBA16F, R32F, 8-bit RGBA
/// and BGRA UNORM or sRGB) decode through code monomorphised for the
/// format, block-compressed ones through a cache of decoded blocks that
/// lives as long as the unit, the others through the format crate's
/// generic decoder; sparse textures take the generic path with its
/// residency check.
pub struct QuadFetcher<'a> {
    facts: Facts<'a>,
    decoder: Decoder,
}

/// What a [`QuadFetcher`] knows of its view, worked out once.
struct Facts<'a> {
    view: &'a TextureHeader,
    bytes: &'a [u8],
    subs: &'a [Subresource],
    format: TextureFormat,
    ty: SampleType,
    /// Coordinates the kind addresses (1, 2 or 3).
    dims: usize,
    layered: bool,
    multisample: bool,
    /// The texture's levels, layers and samples (its subresource grid).
    levels_in_texture: u32,
    layers: u32,
    samples: u32,
    /// The view's swizzle, `None` when it is the identity.
    swizzle: Option<[Swizzle; 4]>,
    /// The out-of-bounds texel, swizzled.
    oob: Texel,
    /// Facts of the view's first `cached` levels.
    levels: [Level; LEVEL_CACHE],
    cached: usize,
}

/// View levels whose facts a [`QuadFetcher`] keeps (textures of up to
/// 32768 texels a side have 16 levels); further levels are worked out per
/// lane.
const LEVEL_CACHE: usize = 16;

/// One level of the view: its extent in texels and its level in the
/// texture (which may lack it: an unvalidated view, which reads zeros
/// there).
#[derive(Clone, Copy, Debug, Default)]
struct Level {
    extent: [u32; 3],
    abs: u32,
}

/// Where a lane reads: its level's extent, the subresource (`None` when
/// the texture lacks it) and the absolute level, layer and sample.
#[derive(Clone, Copy)]
struct Pick<'a> {
    extent: [u32; 3],
    sub: Option<&'a Subresource>,
    level: u32,
    layer: u32,
    sample: u32,
}

/// The row and slice term of a block index (`Subresource::yz_blocks`) last
/// computed for a subresource.
#[derive(Clone, Copy)]
struct Row {
    by: u32,
    z: u32,
    blocks: usize,
}

impl Row {
    /// Nothing computed yet: no block row is `u32::MAX` (extents are
    /// `u32`, so block rows are below it).
    const NONE: Row = Row {
        by: u32::MAX,
        z: u32::MAX,
        blocks: 0,
    };
}

/// How a [`QuadFetcher`] decodes texels, chosen once per view.
enum Decoder {
    /// 32-bit float RGBA: the bits as stored.
    Rgba32F,
    /// The kernels' table-driven 8-bit RGBA/BGRA, RGBA16F and R32F
    /// decoders.
    Flat(texels::Decoder),
    /// Block-compressed float formats: the kernels' decoded-block cache
    /// (allocated on the first read).
    Blocks(texels::Decoder),
    /// Any other uncompressed format: `texel::decode` (integer, depth,
    /// packed, ...).
    Generic,
    /// Sparse textures, block-compressed formats without the cache (and
    /// anything else): [`texels::load`] in full, residency included.
    Slow,
}

impl<'a> QuadFetcher<'a> {
    /// Binds the view. It should be valid ([`TextureHeader::validate`]);
    /// an invalid one still reads without panicking (levels, layers and
    /// samples the texture lacks read zeros, as [`fetch`] does).
    pub fn new(view: &'a TextureHeader) -> QuadFetcher<'a> {
        QuadFetcher::build(view, true)
    }

    /// [`Self::new`], with or without the caches: the level table and the
    /// decoded-block cache for block-compressed formats (without, levels
    /// are worked out per lane and blocks read through [`texels::load`]).
    fn build(view: &'a TextureHeader, caches: bool) -> QuadFetcher<'a> {
        let tex: &'a Texture = &view.texture;
        let desc = tex.desc();
        let format = view.format();
        let ty = format.sample_type();
        let (dims, layered) = kind_axes(view.kind);
        let swizzle = (view.swizzle != Swizzle::IDENTITY).then_some(view.swizzle);
        let decoder = if tex.residency().is_some() {
            Decoder::Slow
        } else if format.is_compressed() {
            match texels::Decoder::new(format) {
                d @ texels::Decoder::Blocks(_) if caches && ty == SampleType::Float => {
                    Decoder::Blocks(d)
                }
                _ => Decoder::Slow,
            }
        } else if format == TextureFormat::Rgba32Float {
            Decoder::Rgba32F
        } else {
            match texels::Decoder::new(format) {
                d @ (texels::Decoder::Rgba8(_)
                | texels::Decoder::Rgba16F(_)
                | texels::Decoder::R32F(_))
                    if ty == SampleType::Float =>
                {
                    Decoder::Flat(d)
                }
                _ => Decoder::Generic,
            }
        };
        let mut facts = Facts {
            view,
            bytes: tex.bytes(),
            subs: tex.subresources(),
            format,
            ty,
            dims,
            layered,
            multisample: view.kind.is_multisample(),
            levels_in_texture: desc.levels,
            layers: desc.layers,
            samples: desc.samples,
            swizzle,
            oob: swizzle_texel(swizzle, out_of_bounds(format, ty)),
            levels: [Level::default(); LEVEL_CACHE],
            cached: 0,
        };
        let n = if caches {
            (view.level_count as usize).min(LEVEL_CACHE)
        } else {
            0
        };
        for level in 0..n {
            facts.levels[level] = facts.level_facts(level as u32);
        }
        facts.cached = n;
        QuadFetcher { facts, decoder }
    }

    /// `ld` / `texelFetch` / `ld2dms` on the lanes of `running`: exactly
    /// the bits (texels and residency) of [`fetch`] on the same view.
    pub fn fetch(&mut self, args: &FetchArgs, running: u8) -> QuadResult {
        let mut out = QuadResult::EMPTY;
        self.each_lane(args, running, |lane, t, resident| {
            out.texels[lane] = Some(t);
            out.resident[lane] = resident;
        });
        out
    }

    /// [`Self::fetch`] as lane-major float RGBA (`out[lane] = [r, g, b,
    /// a]`), the renderer's form: each texel through `Texel::to_f32`
    /// (float bits untouched, integers converted by value), lanes not in
    /// `running` read zeros, residency is not reported.
    pub fn fetch_rgba(&mut self, args: &FetchArgs, running: u8) -> [[f32; 4]; 4] {
        // One variable per lane rather than an array indexed by lane: they
        // stay in registers, where an array went through the stack and
        // stalled on the copy out (four 16-byte stores, then one 64-byte
        // load that store forwarding cannot serve).
        let [mut l0, mut l1, mut l2, mut l3] = [[0.0; 4]; 4];
        self.each_lane(args, running, |lane, t, _| {
            let v = to_f32(t);
            match lane {
                0 => l0 = v,
                1 => l1 = v,
                2 => l2 = v,
                _ => l3 = v,
            }
        });
        [l0, l1, l2, l3]
    }

    /// Runs the running lanes through the path of the view's decoder
    /// (chosen once per call, not per texel) and hands each lane's
    /// swizzled texel and residency to `emit`.
    #[inline(always)]
    fn each_lane(&mut self, args: &FetchArgs, running: u8, emit: impl FnMut(usize, Texel, bool)) {
        let QuadFetcher { facts, decoder } = self;
        match decoder {
            Decoder::Rgba32F => facts.lanes(&mut Rgba32F, args, running, emit),
            Decoder::Flat(texels::Decoder::Rgba8(d)) => {
                facts.lanes(&mut Flat(d), args, running, emit);
            }
            Decoder::Flat(texels::Decoder::Rgba16F(d)) => {
                facts.lanes(&mut Flat(d), args, running, emit);
            }
            Decoder::Flat(texels::Decoder::R32F(d)) => {
                facts.lanes(&mut Flat(d), args, running, emit);
            }
            Decoder::Blocks(texels::Decoder::Blocks(d)) => {
                let (bw, bh) = facts.format.block_extent();
                facts.lanes(&mut Blocky { d, bw, bh }, args, running, emit);
            }
            Decoder::Generic => {
                let mut g = Generic {
                    format: facts.format,
                    ty: facts.ty,
                    bytes: facts.format.block_bytes() as usize,
                };
                facts.lanes(&mut g, args, running, emit);
            }
            Decoder::Flat(_) | Decoder::Blocks(_) | Decoder::Slow => {
                facts.lanes(&mut Slow, args, running, emit);
            }
        }
    }
}

impl<'a> Facts<'a> {
    /// The lanes of `running` through decoder `D`. A full quad whose lanes
    /// name one level, layer and sample (an MSAA resolve, a full-screen
    /// pass) picks the subresource once.
    #[inline(always)]
    fn lanes<D: Decode>(
        &self,
        d: &mut D,
        args: &FetchArgs,
        running: u8,
        mut emit: impl FnMut(usize, Texel, bool),
    ) {
        let c = &args.icoords;
        let uniform = running == 0xf
            && (self.multisample || args.level.iter().all(|&l| l == args.level[0]))
            && (!self.multisample || args.sample.iter().all(|&s| s == args.sample[0]))
            && (!self.layered || c.iter().all(|l| l[3] == c[0][3]));
        // Lane by lane with constant indices (unrolled), so that a
        // caller's per-lane results can stay in registers.
        if uniform {
            let pick = self.pick(args, 0);
            // One subresource: lanes on one row share its address term.
            let mut row = Row::NONE;
            let mut one = |lane: usize| {
                let (t, resident) = self.texel(d, pick, &mut row, args, lane);
                emit(lane, t, resident);
            };
            one(0);
            one(1);
            one(2);
            one(3);
        } else {
            let mut one = |lane: usize| {
                if running & (1 << lane) != 0 {
                    let pick = self.pick(args, lane);
                    let mut row = Row::NONE;
                    let (t, resident) = self.texel(d, pick, &mut row, args, lane);
                    emit(lane, t, resident);
                }
            };
            one(0);
            one(1);
            one(2);
            one(3);
        }
    }

    /// The level, layer and sample of a lane, with the bounds checks of
    /// `fetch_lane` (the scalar twin's) on them in the same terms.
    #[inline(always)]
    fn pick(&self, args: &FetchArgs, lane: usize) -> Option<Pick<'a>> {
        let view = self.view;
        let level = if self.multisample {
            0
        } else {
            args.level[lane] as u32
        };
        if level >= view.level_count {
            return None;
        }
        let sample = if self.multisample {
            let s = args.sample[lane] as u32;
            if s >= self.samples {
                return None;
            }
            s
        } else {
            0
        };
        let layer = if self.layered {
            let l = args.icoords[lane][3] as u32;
            if l >= view.layer_count {
                return None;
            }
            l
        } else {
            0
        };
        let lv = match self.levels[..self.cached].get(level as usize) {
            Some(lv) => *lv,
            None => self.level_facts(level),
        };
        let layer = view.base_layer.wrapping_add(layer);
        // `Texture::subresources` is in (level, layer, sample) order; what
        // the texture lacks reads zeros (as `Texture::texel_block` finds
        // nothing).
        let sub = if lv.abs < self.levels_in_texture && layer < self.layers && sample < self.samples
        {
            let i = (lv.abs as usize * self.layers as usize + layer as usize)
                * self.samples as usize
                + sample as usize;
            self.subs.get(i)
        } else {
            None
        };
        Some(Pick {
            extent: lv.extent,
            sub,
            level: lv.abs,
            layer,
            sample,
        })
    }

    /// A lane's texel at `pick` (`None`: out of bounds): the coordinate
    /// checks of `fetch_lane` (the scalar twin's), the read through `D`
    /// and the swizzle.
    #[inline(always)]
    fn texel<D: Decode>(
        &self,
        d: &mut D,
        pick: Option<Pick<'a>>,
        row: &mut Row,
        args: &FetchArgs,
        lane: usize,
    ) -> (Texel, bool) {
        let Some(p) = pick else {
            return (self.oob, true);
        };
        let c = args.icoords[lane];
        let mut xyz = [0u32; 3];
        for k in 0..self.dims {
            let v = (c[k] as u32).wrapping_add(args.offset[k] as u32);
            if v >= p.extent[k] {
                return (self.oob, true);
            }
            xyz[k] = v;
        }
        let (t, resident) = if D::SLOW {
            let f = (self.format, self.ty);
            crate::texels::load(self.view, f.0, f.1, p.level, p.layer, p.sample, xyz)
        } else {
            (self.read(d, p.sub, row, xyz), true)
        };
        (swizzle_texel(self.swizzle, t), resident)
    }

    /// Texel `xyz` of subresource `sub` of a fully resident texture, as
    /// `Texture::texel_block` finds it (zeros where it finds nothing),
    /// decoded by `D`. `row` remembers the last row term computed in
    /// `sub`.
    #[inline(always)]
    fn read<D: Decode>(
        &self,
        d: &mut D,
        sub: Option<&Subresource>,
        row: &mut Row,
        xyz: [u32; 3],
    ) -> Texel {
        let zero = Texel::zero(self.ty);
        let Some(sub) = sub else {
            return zero;
        };
        let [x, y, z] = xyz;
        if x >= sub.extent.width || y >= sub.extent.height || z >= sub.extent.depth {
            return zero;
        }
        let (bx, by, tx, ty) = d.split(x, y);
        // `Subresource::block_offset`, in its two separable terms.
        if (row.by, row.z) != (by, z) {
            *row = Row {
                by,
                z,
                blocks: sub.yz_blocks(by, z),
            };
        }
        let o = sub.offset + (sub.x_blocks(bx) + row.blocks) * sub.block_bytes as usize;
        if o.checked_add(sub.block_bytes as usize)
            .is_none_or(|end| end > self.bytes.len())
        {
            return zero;
        }
        d.texel(self.bytes, o, tx, ty)
    }

    /// The facts of view level `level` (below `level_count`).
    fn level_facts(&self, level: u32) -> Level {
        let desc = self.view.texture.desc();
        let abs = self.view.base_level.wrapping_add(level);
        let e = desc.level_extent(abs);
        Level {
            extent: [e.width, e.height, e.depth],
            abs,
        }
    }
}

/// `Texel::to_f32` where it inlines: float bits as they are, integers
/// converted by value.
#[inline(always)]
fn to_f32(t: Texel) -> [f32; 4] {
    match t {
        Texel::Float(v) => v,
        Texel::Uint(v) => v.map(|x| x as f32),
        Texel::Sint(v) => v.map(|x| x as f32),
    }
}

/// The view swizzle on a texel (`None`: identity), as `Ctx::swizzle`.
#[inline(always)]
fn swizzle_texel(sw: Option<[Swizzle; 4]>, t: Texel) -> Texel {
    match sw {
        None => t,
        Some(sw) => crate::reference::apply_swizzle(sw, t),
    }
}

/// A texel decoder of [`QuadFetcher`], monomorphised into its lane loop.
trait Decode {
    /// Reads through [`texels::load`] instead ([`Decode::texel`] unused).
    const SLOW: bool = false;

    /// Texel `(x, y)` as (block column, block row, column and row inside
    /// the block).
    #[inline(always)]
    fn split(&self, x: u32, y: u32) -> (u32, u32, u32, u32) {
        (x, y, 0, 0)
    }

    /// Texel `(tx, ty)` of the block at byte `o` of `bytes`; the caller
    /// keeps the whole block inside `bytes`.
    fn texel(&mut self, bytes: &[u8], o: usize, tx: u32, ty: u32) -> Texel;
}

/// 32-bit float RGBA, bits as stored (`texel::decode`'s `f32::from_bits`
/// of each little-endian word).
struct Rgba32F;

impl Decode for Rgba32F {
    #[inline(always)]
    fn texel(&mut self, bytes: &[u8], o: usize, _: u32, _: u32) -> Texel {
        let p: [u8; 16] = bytes
            .get(o..o + 16)
            .and_then(|p| p.try_into().ok())
            .unwrap_or([0; 16]);
        let w = |i: usize| f32::from_le_bytes([p[i], p[i + 1], p[i + 2], p[i + 3]]);
        Texel::Float([w(0), w(4), w(8), w(12)])
    }
}

/// An uncompressed float decoder of the kernels (`texels::Fetch`, the same
/// bits as `texel::decode`; the kernel twin tests pin that).
struct Flat<'d, F>(&'d mut F);

impl<F: Fetch> Decode for Flat<'_, F> {
    #[inline(always)]
    fn texel(&mut self, bytes: &[u8], o: usize, _: u32, _: u32) -> Texel {
        Texel::Float(self.0.texel(bytes, o, 0, 0))
    }
}

/// The kernels' decoded-block cache (`texels::Blocks`): a BC or ASTC block
/// decodes once for every texel and quad that reads it.
struct Blocky<'d> {
    d: &'d mut texels::Blocks,
    bw: u32,
    bh: u32,
}

impl Decode for Blocky<'_> {
    #[inline(always)]
    fn split(&self, x: u32, y: u32) -> (u32, u32, u32, u32) {
        (x / self.bw, y / self.bh, x % self.bw, y % self.bh)
    }

    #[inline(always)]
    fn texel(&mut self, bytes: &[u8], o: usize, tx: u32, ty: u32) -> Texel {
        Texel::Float(self.d.texel(bytes, o, tx, ty))
    }
}

/// Any other uncompressed format through `texel::decode`: its texel type,
/// zeros if it refuses the block.
struct Generic {
    format: TextureFormat,
    ty: SampleType,
    /// Bytes per texel.
    bytes: usize,
}

impl Decode for Generic {
    #[inline(always)]
    fn texel(&mut self, bytes: &[u8], o: usize, _: u32, _: u32) -> Texel {
        bytes
            .get(o..o + self.bytes)
            .and_then(|b| texel::decode(self.format, self.format.default_aspect(), b).ok())
            .unwrap_or(Texel::zero(self.ty))
    }
}

/// Sparse textures: [`texels::load`] in full.
struct Slow;

impl Decode for Slow {
    const SLOW: bool = true;

    fn texel(&mut self, _: &[u8], _: usize, _: u32, _: u32) -> Texel {
        Texel::Float([0.0; 4])
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::Arc;

    use quadtex_format::{Aspect, Layout, TexelAddr, Texture, TextureDesc, TextureFormat as F};

    use super::*;
    use crate::header::Swizzle;

    /// A texture of `desc` whose texel `(level, layer, sample, x, y, z)`
    /// holds `f(...)` (shared with the gather and LOD tests).
    pub(crate) fn texture(
        desc: TextureDesc,
        f: impl Fn(u32, u32, u32, [u32; 3]) -> Texel,
    ) -> Texture {
        let mut t = Texture::new(desc, Layout::Tiled).unwrap();
        for level in 0..desc.levels {
            let e = desc.level_extent(level);
            for layer in 0..desc.layers {
                for s in 0..desc.samples {
                    for z in 0..e.depth {
                        for y in 0..e.height {
                            for x in 0..e.width {
                                let at = TexelAddr::new(level, layer, s, x, y, z);
                                t.write_texel(at, Aspect::Color, f(level, layer, s, [x, y, z]))
                                    .unwrap();
                            }
                        }
                    }
                }
            }
        }
        t
    }

    /// The whole texture as a view.
    pub(crate) fn view(t: Texture) -> TextureHeader {
        TextureHeader::new(Arc::new(t))
    }

    fn one(v: &TextureHeader, icoords: [i32; 4], level: i32, sample: i32) -> Texel {
        let args = FetchArgs {
            icoords: [icoords; 4],
            level: [level; 4],
            sample: [sample; 4],
            offset: [0; 3],
        };
        fetch(v, &args, 1).texels[0].unwrap()
    }

    /// R32_SFLOAT 2D with levels: texel (x, y) of level L = 100 L + 10 y + x.
    fn r32f_mips() -> TextureHeader {
        view(texture(TextureDesc::d2(F::R32Float, 8, 4), |l, _, _, p| {
            Texel::Float([(100 * l + 10 * p[1] + p[0]) as f32, 0.0, 0.0, 1.0])
        }))
    }

    #[test]
    fn fetch_reads_the_texel_at_the_level_relative_to_the_view_base() {
        let mut v = r32f_mips();
        assert_eq!(
            one(&v, [3, 2, 0, 0], 0, 0),
            Texel::Float([23.0, 0.0, 0.0, 1.0])
        );
        // Level 2 is 2x1.
        assert_eq!(
            one(&v, [1, 0, 0, 0], 2, 0),
            Texel::Float([201.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            one(&v, [1, 1, 0, 0], 2, 0),
            Texel::Float([0.0, 0.0, 0.0, 1.0])
        );
        v.base_level = 1;
        v.level_count = 3;
        assert_eq!(
            one(&v, [1, 0, 0, 0], 1, 0),
            Texel::Float([201.0, 0.0, 0.0, 1.0])
        );
        // Level 3 of the view is level 4 of the texture, outside the view.
        assert_eq!(
            one(&v, [0, 0, 0, 0], 3, 0),
            Texel::Float([0.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            one(&v, [0, 0, 0, 0], -1, 0),
            Texel::Float([0.0, 0.0, 0.0, 1.0])
        );
    }

    #[test]
    fn fetch_out_of_bounds_gives_zeros_and_format_defaults_per_class() {
        // RGBA8: every component present -> (0, 0, 0, 0).
        let rgba = view(texture(
            TextureDesc::d2(F::Rgba8Unorm, 2, 2).with_levels(1),
            |_, _, _, _| Texel::Float([1.0; 4]),
        ));
        assert_eq!(one(&rgba, [2, 0, 0, 0], 0, 0), Texel::Float([0.0; 4]));
        // R8: missing G, B, A -> (0, 0, 0, 1.0).
        let r8 = view(texture(
            TextureDesc::d2(F::R8Unorm, 2, 2).with_levels(1),
            |_, _, _, _| Texel::Float([1.0, 0.0, 0.0, 1.0]),
        ));
        assert_eq!(
            one(&r8, [0, 2, 0, 0], 0, 0),
            Texel::Float([0.0, 0.0, 0.0, 1.0])
        );
        // R32UI: integer 1 in alpha.
        let r32ui = view(texture(
            TextureDesc::d2(F::R32Uint, 2, 2).with_levels(1),
            |_, _, _, _| Texel::Uint([7, 0, 0, 1]),
        ));
        assert_eq!(one(&r32ui, [0, 0, 0, 0], 0, 0), Texel::Uint([7, 0, 0, 1]));
        assert_eq!(one(&r32ui, [-1, 0, 0, 0], 0, 0), Texel::Uint([0, 0, 0, 1]));
        // RG32I: signed integers, (0, 0, 0, 1).
        let rg32i = view(texture(
            TextureDesc::d2(F::Rg32Sint, 2, 2).with_levels(1),
            |_, _, _, _| Texel::Sint([-5, 6, 0, 1]),
        ));
        assert_eq!(one(&rg32i, [1, 1, 0, 0], 0, 0), Texel::Sint([-5, 6, 0, 1]));
        assert_eq!(one(&rg32i, [1, 1, 0, 0], 1, 0), Texel::Sint([0, 0, 0, 1]));
    }

    #[test]
    fn fetch_offsets_wrap_unsigned_so_negative_results_are_out_of_bounds() {
        let v = r32f_mips();
        let mut args = FetchArgs {
            icoords: [[1, 1, 0, 0], [0, 0, 0, 0], [7, 3, 0, 0], [-1, 0, 0, 0]],
            offset: [-1, 2, 0],
            ..Default::default()
        };
        let r = fetch(&v, &args, 0xf);
        let red = |i: usize| r.texels[i].unwrap().to_f32()[0];
        assert_eq!(red(0), 30.0); // (0, 3)
        assert_eq!(r.texels[1], Some(Texel::Float([0.0, 0.0, 0.0, 1.0]))); // x = -1
        assert_eq!(r.texels[2], Some(Texel::Float([0.0, 0.0, 0.0, 1.0]))); // y = 5 >= 4
        assert_eq!(r.texels[3], Some(Texel::Float([0.0, 0.0, 0.0, 1.0]))); // x = -2
        assert!(r.resident.iter().all(|&x| x));
        // x = -1 plus offset 1 wraps to 0 in unsigned arithmetic: in bounds.
        args.icoords[0] = [-1, 0, 0, 0];
        args.offset = [1, 0, 0];
        assert_eq!(
            fetch(&v, &args, 1).texels[0].unwrap().to_f32()[0],
            0.0 + 0.0
        );
        args.icoords[0] = [-1, 1, 0, 0];
        assert_eq!(fetch(&v, &args, 1).texels[0].unwrap().to_f32()[0], 10.0);
        // Offsets never move the layer, and a 2D view ignores z.
        args.icoords[0] = [0, 1, 99, 99];
        args.offset = [0, 0, 5];
        assert_eq!(fetch(&v, &args, 1).texels[0].unwrap().to_f32()[0], 10.0);
    }

    #[test]
    fn fetch_multisample_reads_the_sample_and_rejects_sample_indices_past_the_count() {
        let desc = TextureDesc::d2_ms(F::R32Uint, 4, 2, 4).with_layers(TextureKind::D2MsArray, 3);
        let v = view(texture(desc, |_, layer, s, p| {
            Texel::Uint([1000 * layer + 100 * s + 10 * p[1] + p[0], 0, 0, 1])
        }));
        assert_eq!(one(&v, [3, 1, 0, 2], 0, 3), Texel::Uint([2313, 0, 0, 1]));
        // The level operand is not used by multisample fetches.
        assert_eq!(one(&v, [3, 1, 0, 2], 7, 3), Texel::Uint([2313, 0, 0, 1]));
        assert_eq!(one(&v, [3, 1, 0, 2], 0, 4), Texel::Uint([0, 0, 0, 1]));
        assert_eq!(one(&v, [3, 1, 0, 2], 0, -1), Texel::Uint([0, 0, 0, 1]));
        assert_eq!(one(&v, [3, 1, 0, 3], 0, 0), Texel::Uint([0, 0, 0, 1]));
        assert_eq!(one(&v, [4, 1, 0, 0], 0, 0), Texel::Uint([0, 0, 0, 1]));
    }

    #[test]
    fn fetch_keeps_float_bits_and_applies_the_view_swizzle() {
        let bits = [0x8000_0000u32, 0x0000_0001, 0x7fc1_2345, 0xff80_0000];
        let mut v = view(texture(
            TextureDesc::d2(F::Rgba32Float, 1, 1).with_levels(1),
            |_, _, _, _| Texel::Float(bits.map(f32::from_bits)),
        ));
        assert_eq!(one(&v, [0, 0, 0, 0], 0, 0).to_bits(), bits);
        v.swizzle = Swizzle::parse4("a1r0").unwrap();
        assert_eq!(
            one(&v, [0, 0, 0, 0], 0, 0).to_bits(),
            [bits[3], 1.0f32.to_bits(), bits[0], 0]
        );
        // Out-of-bounds results are swizzled too: R8 defaults (0, 0, 0, 1) -> "a1r0".
        let mut r8 = view(texture(
            TextureDesc::d2(F::R8Unorm, 1, 1).with_levels(1),
            |_, _, _, _| Texel::Float([1.0, 0.0, 0.0, 1.0]),
        ));
        r8.swizzle = Swizzle::parse4("abgr").unwrap();
        assert_eq!(
            one(&r8, [1, 0, 0, 0], 0, 0),
            Texel::Float([1.0, 0.0, 0.0, 0.0])
        );
    }

    #[test]
    fn fetch_on_cubes_uses_the_layer_face_index_and_ignores_z() {
        let desc = TextureDesc::cube(F::R32Uint, 2)
            .with_layers(TextureKind::CubeArray, 12)
            .with_levels(1);
        let v = view(texture(desc, |_, layer, _, p| {
            Texel::Uint([10 * layer + p[0], 0, 0, 1])
        }));
        assert_eq!(one(&v, [1, 0, 5, 11], 0, 0), Texel::Uint([111, 0, 0, 1]));
        assert_eq!(one(&v, [1, 0, 5, 12], 0, 0), Texel::Uint([0, 0, 0, 1]));
    }

    #[test]
    fn fetch_3d_uses_z_and_its_offset() {
        let v = view(texture(
            TextureDesc::d3(F::R32Uint, 4, 4, 4).with_levels(1),
            |_, _, _, p| Texel::Uint([100 * p[2] + 10 * p[1] + p[0], 0, 0, 1]),
        ));
        let args = FetchArgs {
            icoords: [[1, 2, 3, 9]; 4],
            offset: [1, -1, -3],
            ..Default::default()
        };
        assert_eq!(
            fetch(&v, &args, 1).texels[0],
            Some(Texel::Uint([12, 0, 0, 1]))
        );
    }

    #[test]
    fn fetch_of_a_non_resident_texel_reads_zero_memory_and_clears_the_flag() {
        let mut t = texture(
            TextureDesc::d2(F::R8Unorm, 4, 4).with_levels(1),
            |_, _, _, _| Texel::Float([1.0, 0.0, 0.0, 1.0]),
        );
        t.make_sparse();
        let v = view(t);
        let args = FetchArgs::default();
        let r = fetch(&v, &args, 0b0101);
        assert_eq!(r.texels[0], Some(Texel::Float([0.0, 0.0, 0.0, 1.0])));
        assert_eq!(r.resident, [false, false, false, false]);
        assert_eq!(r.texels[1], None);
    }
}
