//! The renderer: triangle setup, binning to 64x64 tiles, and tiles
//! rasterized and shaded in parallel on a rayon pool (a one-thread
//! renderer on the calling thread). Each task owns one band of 32 whole
//! rows of the colour and depth targets, half a tile row (disjoint `&mut`
//! slices: no shared buffer, no `unsafe`, no copy of the targets), clears
//! it and renders the band's half tiles. Within a tile, triangles run in
//! submission order, so any thread count gives the same bits. Quads whose
//! samples an edge function puts all outside are skipped, and quads all
//! inside (with no depth test) take every sample, without a per-sample
//! test.

use std::sync::Arc;
use std::time::Instant;

use glam::Vec3;
use quadtex_sampler::cpu::SimdLevel;
use quadtex_sampler::{CompareOp, PlanarOut, Profile};
use rayon::prelude::*;

use crate::error::{Error, Result, MAX_TARGET_EXTENT};
use crate::mesh::Mesh;
use crate::pipeline::{sample_positions, BlendMode, DepthFormat, DrawCall, Frame};
use crate::setup::{setup_draw, Tri, SUB};
use crate::shader::{QuadBatch, QuadCtx, MAX_BATCH_QUADS};
use crate::stats::Stats;
use crate::target::{try_filled, try_resize, ColorFormat, ColorTarget, DepthTarget, QuadWrites};

/// Tile size in pixels (square).
pub const TILE: u32 = 64;

/// Rows of the target one task renders: half a tile. A 1080p frame is
/// then 34 tasks, not 17, so that at the end of a frame the last task a
/// thread finishes alone is half as long (the threads' work differs by at
/// most one task). Each task renders the upper or lower half of its
/// tiles, with the whole tile's bin (a triangle that touches the half
/// touches the tile); 32 is a multiple of the 8x8 blocks the rasterizer
/// classifies, so the blocks, the quads and every pixel's value stay
/// those of whole tiles.
const BAND: u32 = TILE / 2;

/// The most samples per pixel.
const MAX_SAMPLES: usize = 8;

/// The most worker threads a [`Renderer`] runs: 256. Tiles are 64x64, so
/// even a 16384 x 16384 frame has work for every one of them, while a
/// thread count in the thousands only spawns threads that wait (each with
/// its own stack), and at 100,000 never finishes starting them.
pub const MAX_THREADS: usize = 256;

/// The stack of each worker thread a renderer makes ([`Renderer::new`]):
/// 8 MiB (address space; only the pages a thread touches are used). An
/// optimized build needs far less, but an unoptimized one (a debug build
/// of an application) gives every local of every kernel inlined into a
/// tile's loop a stack slot of its own: rendering
/// `scenes/showcase.toml` there took between 2 and 3 MiB, and overflowed
/// the 2 MiB a thread gets by default.
pub const WORKER_STACK_BYTES: usize = 8 << 20;

/// The most floats per vertex ([`Mesh::attribute_count`]) a draw may
/// interpolate: 64. Every attribute is a plane per triangle and four lanes
/// per quad, so an unbounded count is unbounded memory and time per
/// fragment.
pub const MAX_ATTRIBUTES: usize = 64;

/// What [`Renderer::render`] returns.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// The colour target (multisampled when the frame is).
    pub color: ColorTarget,
    /// The depth target.
    pub depth: DepthTarget,
    /// Counts and stage times.
    pub stats: Stats,
}

/// Renders frames on a rayon thread pool: its own ([`Renderer::new`]) or
/// the application's ([`Renderer::with_pool`]), which [`Renderer::pool`]
/// hands out for the work around a frame. On a pool of one thread a frame
/// is rendered on the thread that asks for it, as that one worker would
/// render it (the MSAA resolve still runs on the pool).
pub struct Renderer {
    pool: Arc<rayon::ThreadPool>,
    threads: usize,
    profile: Profile,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("threads", &self.threads)
            .finish()
    }
}

/// One tile of a band of the targets and its counts: the tile covers
/// pixels `x0..x0 + w` of rows `y0..y0 + h`; `color` and `depth` are the
/// band's rows (`stride` pixels each, the band's first row is `y0`), so
/// the tile writes only its own columns of them.
struct TileBuf<'a> {
    x0: u32,
    y0: u32,
    w: u32,
    h: u32,
    stride: usize,
    /// The band's colour bytes, `format.bytes()` a sample.
    color: &'a mut [u8],
    format: ColorFormat,
    depth: &'a mut [f32],
    stats: Stats,
}

impl TileBuf<'_> {
    /// The index of pixel `(x, y)`'s first sample in the band.
    #[inline]
    fn at(&self, x: u32, y: u32, ns: usize) -> usize {
        ((y - self.y0) as usize * self.stride + x as usize) * ns
    }

    /// Writes the encoded clear value `clear` into every sample of the
    /// tile's pixels (`ns` samples a pixel; nothing without a colour
    /// target).
    fn clear_color(&mut self, clear: &[u8], ns: usize) {
        let bpp = clear.len();
        if self.h == 0 {
            return;
        }
        let from = self.at(self.x0, self.y0, ns) * bpp;
        let row = self.at(self.x0 + self.w, self.y0, ns) * bpp - from;
        let pitch = self.stride * ns * bpp;
        fill_rows(self.color, from, row, pitch, self.h as usize, clear);
    }
}

/// Whether drawing `tri` writes every colour sample of `tile` with no
/// regard for what is there: its draw replaces colour (no blending) with
/// no depth test, and its three edge functions are non-negative over the
/// bounding box of the tile's sample positions (a bound over the box
/// bounds every position in it, edge functions being linear). Nothing
/// drawn before it then shows, the clear included.
fn overwrites_tile(frame: &Frame, tri: &Tri, tile: &TileBuf<'_>, offsets: &[(i64, i64)]) -> bool {
    let Some(draw) = frame.draws.get(tri.draw) else {
        return false;
    };
    let tested = draw.state.depth_test.is_some() && frame.depth;
    if tested || draw.state.blend != BlendMode::Replace || tile.w == 0 || tile.h == 0 {
        return false;
    }
    let (ox0, ox1) = offsets
        .iter()
        .fold((i64::MAX, i64::MIN), |(a, b), o| (a.min(o.0), b.max(o.0)));
    let (oy0, oy1) = offsets
        .iter()
        .fold((i64::MAX, i64::MIN), |(a, b), o| (a.min(o.1), b.max(o.1)));
    if ox0 > ox1 || oy0 > oy1 {
        return false;
    }
    let xs = [
        i64::from(tile.x0) * SUB + ox0,
        i64::from(tile.x0 + tile.w - 1) * SUB + ox1,
    ];
    let ys = [
        i64::from(tile.y0) * SUB + oy0,
        i64::from(tile.y0 + tile.h - 1) * SUB + oy1,
    ];
    (0..3).all(|e| {
        let x = (tri.a[e] * xs[0]).min(tri.a[e] * xs[1]);
        let y = (tri.b[e] * ys[0]).min(tri.b[e] * ys[1]);
        x + y + tri.c[e] >= 0
    })
}

impl Renderer {
    /// A renderer on `threads` worker threads (0 means rayon's default:
    /// one per core), sampling with the Vulkan profile. More than
    /// [`MAX_THREADS`] is an [`ErrorKind::InvalidOption`](crate::ErrorKind::InvalidOption) for `threads`.
    pub fn new(threads: usize) -> Result<Renderer> {
        if threads > MAX_THREADS {
            return Err(Error::invalid_option(
                "threads",
                format!("{threads} is more than the {MAX_THREADS} allowed"),
            ));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(WORKER_STACK_BYTES)
            .build()
            .map_err(Error::thread_pool)?;
        Renderer::with_pool(Arc::new(pool))
    }

    /// A renderer on the application's own `pool` (one set of worker
    /// threads for its frames and for what the application does around
    /// them), sampling with the Vulkan profile. Give its threads the
    /// stack of [`WORKER_STACK_BYTES`] where the renderer may run
    /// unoptimized (`ThreadPoolBuilder::stack_size`): a debug build
    /// needs more than rayon's default 2 MiB. A pool of more than
    /// [`MAX_THREADS`] threads is an [`ErrorKind::InvalidOption`](crate::ErrorKind::InvalidOption) for
    /// `threads`.
    pub fn with_pool(pool: Arc<rayon::ThreadPool>) -> Result<Renderer> {
        let threads = pool.current_num_threads();
        if threads > MAX_THREADS {
            return Err(Error::invalid_option(
                "threads",
                format!("a pool of {threads}, more than the {MAX_THREADS} allowed"),
            ));
        }
        Ok(Renderer {
            pool,
            threads,
            profile: Profile::VULKAN,
        })
    }

    /// The thread pool the renderer works on: work around a frame
    /// (converting or resolving its target, encoding a PNG) runs on the
    /// same threads with `renderer.pool().install(..)`, with no second
    /// pool.
    pub fn pool(&self) -> &Arc<rayon::ThreadPool> {
        &self.pool
    }

    /// This renderer with texture `profile` for every shader.
    pub fn with_profile(mut self, profile: Profile) -> Renderer {
        self.profile = profile;
        self
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Renders `frame`. Errors for an unsupported sample count, a target
    /// over [`MAX_TARGET_SAMPLES`](crate::error::MAX_TARGET_SAMPLES) or
    /// [`MAX_TARGET_EXTENT`], a mesh with more than [`MAX_ATTRIBUTES`]
    /// attributes, a shader binding that fails
    /// [`TextureBinding::validate`](crate::TextureBinding::validate), or
    /// memory the allocator refuses ([`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory));
    /// bad geometry (NaN or infinite positions, degenerate triangles,
    /// out-of-range indices) is dropped, non-finite attributes read 0.
    pub fn render(&self, frame: &Frame) -> Result<Rendered> {
        let mut out = Rendered {
            color: ColorTarget::new(0, 0, 1, frame.clear_color),
            depth: DepthTarget {
                width: 0,
                height: 0,
                samples: 1,
                format: frame.depth_format,
                data: Vec::new(),
            },
            stats: Stats::default(),
        };
        self.render_into(frame, &mut out)?;
        Ok(out)
    }

    /// [`Renderer::render`] into `out`, reusing its target buffers: no
    /// allocation (nor the page faults of fresh memory) when the frame has
    /// the size of the last one, as in an animation loop or a benchmark.
    /// The result is what [`Renderer::render`] returns, bit for bit.
    pub fn render_into(&self, frame: &Frame, out: &mut Rendered) -> Result<()> {
        let positions =
            sample_positions(frame.samples).ok_or_else(|| Error::samples(frame.samples))?;
        let (w, h, s) = (frame.width, frame.height, frame.samples);
        if w as u64 * h as u64 * s as u64 > crate::error::MAX_TARGET_SAMPLES
            || w > MAX_TARGET_EXTENT
            || h > MAX_TARGET_EXTENT
        {
            return Err(Error::too_large(w, h, s));
        }
        for d in &frame.draws {
            if d.mesh.attribute_count > MAX_ATTRIBUTES {
                return Err(Error::invalid_option(
                    "attribute_count",
                    format!(
                        "a mesh with {} floats per vertex (at most {MAX_ATTRIBUTES})",
                        d.mesh.attribute_count
                    ),
                ));
            }
            for b in d.shader.bindings() {
                b.validate()?;
            }
        }
        let clear_depth = frame.depth_format.quantize(frame.clear_depth);
        let n = w as usize * h as usize * s as usize;
        // Every pixel of both targets is written by exactly one tile below,
        // so the old contents need no clearing.
        let color = &mut out.color;
        let (cw, ch) = if frame.color { (w, h) } else { (0, 0) };
        let format = frame.color_format;
        let bpp = format.bytes();
        color.set_shape(cw, ch, s, format);
        try_resize(
            color.bytes_mut(),
            "colour target",
            cw as usize * ch as usize * s as usize * bpp,
            0u8,
        )?;
        let mut clear = [0u8; 16];
        format.encode(frame.clear_color, &mut clear);
        let clear = &clear[..bpp];
        let depth = &mut out.depth;
        let (dw, dh) = if frame.depth { (w, h) } else { (0, 0) };
        depth.width = dw;
        depth.height = dh;
        depth.samples = s;
        depth.format = frame.depth_format;
        try_resize(
            &mut depth.data,
            "depth target",
            if frame.depth { n } else { 0 },
            clear_depth,
        )?;
        let mut stats = Stats::default();
        if w == 0 || h == 0 {
            out.stats = stats;
            return Ok(());
        }

        let t0 = Instant::now();
        let mut draws: Vec<&DrawCall> = frame.draws.iter().collect();
        let per_draw: Vec<Result<Vec<Tri>>> = self.map_parallel(&mut draws, |i, d| {
            let mut v = Vec::new();
            setup_draw(d, i, w, h, &mut v)?;
            Ok(v)
        });
        let mut tris: Vec<Tri> = Vec::new();
        for v in per_draw {
            let v = v?;
            tris.try_reserve(v.len()).map_err(|_| {
                Error::out_of_memory(
                    "triangles",
                    ((tris.len() + v.len()) * std::mem::size_of::<Tri>()) as u64,
                )
            })?;
            tris.extend(v);
        }
        let tiles_x = w.div_ceil(TILE);
        let tiles_y = h.div_ceil(TILE);
        let bins = Bins::new(&tris, tiles_x, tiles_y)?;
        stats.triangles = tris.len() as u64;
        stats.binning = t0.elapsed();

        let offsets: Vec<(i64, i64)> = positions
            .iter()
            .map(|p| ((p[0] * SUB as f32) as i64, (p[1] * SUB as f32) as i64))
            .collect();
        let profile = &self.profile;
        // Tiles render straight into the targets: each task owns one band
        // of `BAND` whole rows of both targets (disjoint `&mut` slices),
        // clears it and renders that band's (half-)tiles left to right. No
        // second copy of the targets, no allocation per frame, no copying
        // out.
        let t_shade = Instant::now();
        let (wu, su) = (w as usize, s as usize);
        let band_len = wu * BAND as usize * su;
        // One band per `BAND` rows of each target; a target the frame
        // does not have gives empty bands.
        let rows = h.div_ceil(BAND) as usize;
        let mut depth_bands = depth.data.chunks_mut(band_len);
        let mut color_bands = color.bytes_mut().chunks_mut(band_len * bpp);
        let mut bands: Vec<(&mut [u8], &mut [f32])> = Vec::with_capacity(rows);
        for _ in 0..rows {
            bands.push((
                color_bands.next().unwrap_or_default(),
                depth_bands.next().unwrap_or_default(),
            ));
        }
        let band_stats: Vec<Stats> = self.map_parallel(&mut bands, |ty, (cband, dband)| {
            dband.fill(clear_depth);
            let ty = ty as u32;
            let mut stats = Stats::default();
            let mut scratch = TileScratch::new(format);
            for tx in 0..tiles_x {
                let (x0, y0) = (tx * TILE, ty * BAND);
                let mut tile = TileBuf {
                    x0,
                    y0,
                    w: TILE.min(w - x0),
                    h: BAND.min(h - y0),
                    stride: wu,
                    color: cband,
                    format,
                    depth: dband,
                    stats: Stats::default(),
                };
                // The bin of the tile this part of it lies in.
                let t = (y0 / TILE * tiles_x + tx) as usize;
                let bin = bins.bin(t);
                // The colour clear, a tile at a time while its rows
                // are in cache, and not at all where a triangle
                // writes every sample of the tile over it.
                if !bin
                    .iter()
                    .any(|&i| overwrites_tile(frame, &tris[i as usize], &tile, &offsets))
                {
                    tile.clear_color(clear, su);
                }
                render_tile(
                    frame,
                    &tris,
                    bin,
                    &mut tile,
                    &offsets,
                    profile,
                    &mut scratch,
                );
                stats += tile.stats;
            }
            stats
        });
        for b in band_stats {
            stats += b;
        }
        stats.raster_shade = t_shade.elapsed();
        out.stats = stats;
        Ok(())
    }

    /// `f` on each of `items` with its index, on the renderer's threads,
    /// the results in order. A one-thread renderer runs them one after
    /// the other on the calling thread: the same work in the same order
    /// as its one worker, without waking that worker and waiting for it
    /// (twice a frame, a few percent of a flat-colour frame's time on one
    /// thread), on a fresh stack of [`WORKER_STACK_BYTES`] where less
    /// than half of that is left on the caller's (an unoptimized build
    /// needs it, as on the workers).
    fn map_parallel<I: Send, T: Send>(
        &self,
        items: &mut [I],
        f: impl Fn(usize, &mut I) -> T + Sync + Send,
    ) -> Vec<T> {
        if self.threads == 1 {
            stacker::maybe_grow(WORKER_STACK_BYTES / 2, WORKER_STACK_BYTES, || {
                items.iter_mut().enumerate().map(|(i, x)| f(i, x)).collect()
            })
        } else {
            self.pool.install(|| {
                items
                    .par_iter_mut()
                    .enumerate()
                    .map(|(i, x)| f(i, x))
                    .collect()
            })
        }
    }

    /// The MSAA resolve (Vulkan's `vkCmdResolveImage` for one format): each
    /// pixel of a single-sampled target of the same format is the mean of
    /// the pixel's samples, read straight from `color`'s bytes: every
    /// sample decoded to its linear value ([`ColorFormat::decode`]: sRGB
    /// to linear, halves and floats exact), summed in sample order from
    /// `+0.0` in f32, times `1 / samples`, and encoded in the format
    /// ([`ColorFormat::encode_planes`]). Those are the operations, bit for
    /// bit, of a full-screen pass of the
    /// [`MsaaResolve`](crate::builtin::MsaaResolve) shader (an
    /// `ld2dms` fetch of every sample), which the tests hold it to, without
    /// the pass's copy of the target into a texture and its scattered
    /// reads: the rows are read in order, bands of them on the renderer's
    /// threads. A single-sampled target comes back as it is. The stats
    /// hold the time only (`resolve`): no quads are shaded.
    pub fn resolve(&self, color: &ColorTarget) -> Result<(ColorTarget, Stats)> {
        if color.samples() <= 1 || color.width() == 0 || color.height() == 0 {
            return Ok((color.single_sample(), Stats::default()));
        }
        let t0 = Instant::now();
        let (w, h, s) = (
            color.width() as usize,
            color.height() as usize,
            color.samples() as usize,
        );
        let format = color.format();
        let bpp = format.bytes();
        let mut bytes = try_filled("resolved colour target", w * h * bpp, 0u8)?;
        let rows = TILE as usize;
        self.pool.install(|| {
            bytes
                .par_chunks_mut(w * bpp * rows)
                .zip(color.bytes().par_chunks(w * s * bpp * rows))
                .for_each(|(dst, src)| {
                    let mut planes = [(); 4].map(|_| vec![0.0f32; w]);
                    for (drow, srow) in dst
                        .chunks_exact_mut(w * bpp)
                        .zip(src.chunks_exact(w * s * bpp))
                    {
                        format.mean_row(srow, s, &mut planes);
                        let [r, g, b, a] = &planes;
                        format.encode_planes([r, g, b, a], w, drow);
                    }
                });
        });
        let resolved = ColorTarget::from_bytes(w as u32, h as u32, 1, format, bytes)?;
        let stats = Stats {
            resolve: t0.elapsed(),
            ..Stats::default()
        };
        Ok((resolved, stats))
    }

    /// [`Renderer::render`], then [`Renderer::resolve`] of a multisampled
    /// colour target; the stats add up both passes. The depth target keeps
    /// its samples.
    pub fn render_resolved(&self, frame: &Frame) -> Result<Rendered> {
        let mut r = self.render(frame)?;
        if r.color.samples() > 1 {
            let (c, s) = self.resolve(&r.color)?;
            r.color = c;
            r.stats += s;
        }
        Ok(r)
    }
}

/// The triangles of each tile, in submission order: one flat list of
/// triangle indices, tile after tile (`start[t]..start[t + 1]` is tile
/// `t`'s). Counted before it is filled, so its memory (4 bytes per
/// triangle and tile it touches) is reserved once, fallibly.
struct Bins {
    start: Vec<usize>,
    items: Vec<u32>,
}

impl Bins {
    /// Bins `tris` on a `tiles_x` x `tiles_y` grid.
    fn new(tris: &[Tri], tiles_x: u32, tiles_y: u32) -> Result<Bins> {
        let tiles = tiles_x as usize * tiles_y as usize;
        let tile_range = |t: &Tri| {
            (
                t.bbox[0] / TILE..=(t.bbox[2] - 1) / TILE,
                t.bbox[1] / TILE..=(t.bbox[3] - 1) / TILE,
            )
        };
        let mut start = try_filled("tile bins", tiles + 1, 0usize)?;
        for t in tris {
            let (xs, ys) = tile_range(t);
            for ty in ys {
                for tx in xs.clone() {
                    start[(ty * tiles_x + tx) as usize + 1] += 1;
                }
            }
        }
        for i in 0..tiles {
            start[i + 1] += start[i];
        }
        let total = start[tiles];
        let mut items = try_filled("tile bins", total, 0u32)?;
        let mut fill = start.clone();
        for (i, t) in tris.iter().enumerate() {
            let (xs, ys) = tile_range(t);
            for ty in ys {
                for tx in xs.clone() {
                    let f = &mut fill[(ty * tiles_x + tx) as usize];
                    items[*f] = i as u32;
                    *f += 1;
                }
            }
        }
        Ok(Bins { start, items })
    }

    /// Tile `t`'s triangles.
    fn bin(&self, t: usize) -> &[u32] {
        &self.items[self.start[t]..self.start[t + 1]]
    }
}

/// A triangle covering all of clip space's `[-1, 1]^2` at `z = 0`, no
/// attributes: the full-screen pass.
pub fn fullscreen_triangle() -> Mesh {
    Mesh {
        positions: vec![
            Vec3::new(-1.0, -1.0, 0.0),
            Vec3::new(3.0, -1.0, 0.0),
            Vec3::new(-1.0, 3.0, 0.0),
        ],
        w: Vec::new(),
        attribute_count: 0,
        attributes: Vec::new(),
        indices: vec![0, 1, 2],
    }
}

/// The buffers [`render_tile`] works in, made once per band of tiles
/// (not once per tile: a 1080p frame has about 500 tiles).
struct TileScratch<'f> {
    /// Quads of the current triangle waiting to be shaded together (one
    /// triangle's quads never overlap, so deferring their depth and
    /// colour writes to the flush changes nothing).
    batch: QuadBatch,
    /// Their sample masks.
    pending: Vec<[u8; 4]>,
    /// The tested samples' depths of each pending quad (draws that write
    /// depth only).
    depths: Vec<[[f32; MAX_SAMPLES]; 4]>,
    /// The shader's colour planes.
    outs: [Vec<f32>; 4],
    /// The batch's colours encoded in the target's format.
    enc: Vec<u8>,
    /// The shading context of the band's last draw (with its index), kept
    /// from tile to tile: its samplers' plans and fetchers are made once
    /// a band, not once a tile.
    ctx: Option<(usize, QuadCtx<'f>)>,
}

impl<'f> TileScratch<'f> {
    /// Buffers for tiles of a target of `format`.
    fn new(format: ColorFormat) -> TileScratch<'f> {
        TileScratch {
            batch: QuadBatch::default(),
            pending: Vec::with_capacity(BATCH),
            depths: Vec::with_capacity(BATCH),
            outs: std::array::from_fn(|_| vec![0.0f32; 4 * BATCH]),
            enc: vec![0u8; 4 * BATCH * format.bytes()],
            ctx: None,
        }
    }
}

/// Rasterizes and shades the triangles of `bin` (in order) into `tile`,
/// in `scratch`'s buffers, with its shading context where that was made
/// for the same draw (a tile before), else a new one left there for the
/// next tile. The tile's texture statistics are those of its own quads.
fn render_tile<'f>(
    frame: &'f Frame,
    tris: &[Tri],
    bin: &[u32],
    tile: &mut TileBuf<'_>,
    offsets: &[(i64, i64)],
    profile: &'f Profile,
    scratch: &mut TileScratch<'f>,
) {
    let ns = offsets.len();
    let TileScratch {
        batch,
        pending,
        depths,
        outs,
        enc,
        ctx: cur,
    } = scratch;
    let (tx1, ty1) = (tile.x0 + tile.w, tile.y0 + tile.h);
    for &ti in bin {
        let tri = &tris[ti as usize];
        let Some(draw) = frame.draws.get(tri.draw) else {
            continue;
        };
        if cur.as_ref().map(|c| c.0) != Some(tri.draw) {
            if let Some((_, old)) = cur.take() {
                tile.stats.tex += old.tex;
            }
            *cur = Some((
                tri.draw,
                QuadCtx::new(draw.shader.bindings(), profile, tri.attrs.len()),
            ));
        }
        let Some((_, q)) = cur.as_mut() else {
            continue;
        };
        if q.attrs.len() != tri.attrs.len() {
            q.attrs.resize(tri.attrs.len(), [0.0; 4]);
        }
        let state = draw.state;
        // Without a depth target there is no depth test (Vulkan: no
        // depth attachment).
        let test = state.depth_test.filter(|_| frame.depth);
        let write_depth = state.depth_write && test.is_some();
        let x0 = tri.bbox[0].max(tile.x0) & !1;
        let y0 = tri.bbox[1].max(tile.y0) & !1;
        let x1 = tri.bbox[2].min(tx1);
        let y1 = tri.bbox[3].min(ty1);
        // Edge values of each (lane, sample) position relative to the
        // quad's origin, once per triangle: a quad then costs three edge
        // evaluations and adds.
        let mut step = [[0i64; 4 * MAX_SAMPLES]; 3];
        for lane in 0..4 {
            let (lx, ly) = ((lane & 1) as i64 * SUB, (lane >> 1) as i64 * SUB);
            for (s, &(ox, oy)) in offsets.iter().enumerate() {
                for (e, row) in step.iter_mut().enumerate() {
                    row[lane * ns + s] = tri.a[e] * (lx + ox) + tri.b[e] * (ly + oy);
                }
            }
        }
        // The least and greatest step of each edge over the quad's
        // positions: a quad whose three edges stay non-negative at their
        // least step is covered at every position, one with an edge
        // negative at its greatest step at none (edge functions are
        // linear, so these bound every position's value exactly).
        let used = 4 * ns;
        let step_min = [0, 1, 2].map(|e| step[e][..used].iter().copied().min().unwrap_or(0));
        let step_max = [0, 1, 2].map(|e| step[e][..used].iter().copied().max().unwrap_or(0));
        let full_mask = ((1u16 << ns) - 1) as u8;
        batch.reset(tri.attrs.len(), tri.front);
        pending.clear();
        depths.clear();
        // Depths of the samples that pass (the others are never read: a
        // quad's mask says which are its own).
        let mut zs = [[0.0f32; MAX_SAMPLES]; 4];
        // Blocks of BLOCK x BLOCK pixels aligned to the tile, classified
        // by the least and greatest value of each edge over the block's
        // quads (edge functions are linear: the bounds are exact): a
        // block with an edge negative everywhere is skipped whole, one
        // with every edge non-negative everywhere (and no depth test)
        // takes its quads without testing them, the rest are tested quad
        // by quad. The quads and masks are those of a plain quad loop.
        // Shades and writes the pending quads, and empties the batch.
        macro_rules! flush_batch {
            () => {{
                flush(
                    frame,
                    draw,
                    tri,
                    q,
                    batch,
                    pending,
                    depths,
                    outs,
                    enc,
                    tile,
                    ns,
                    write_depth,
                );
                batch.reset(tri.attrs.len(), tri.front);
                pending.clear();
                depths.clear();
            }};
        }
        // This triangle's quads and active lanes (the tile's statistics
        // are updated once, after its last quad).
        let (mut quads, mut active_lanes) = (0u64, 0u64);
        let span = (BLOCK as i64 - 2) * SUB;
        let block_lo = [0, 1, 2].map(|e| (tri.a[e] * span).min(0) + (tri.b[e] * span).min(0));
        let block_hi = [0, 1, 2].map(|e| (tri.a[e] * span).max(0) + (tri.b[e] * span).max(0));
        let edge_at = |x: u32, y: u32| {
            [0, 1, 2].map(|e| tri.a[e] * (x as i64 * SUB) + tri.b[e] * (y as i64 * SUB) + tri.c[e])
        };
        // Each edge's change from one block to the next on a row (edge
        // values are integers: stepping gives `edge_at`'s exact values).
        let block_step = [0, 1, 2].map(|e| tri.a[e] * (BLOCK as i64 * SUB));
        let bx0 = x0 & !(BLOCK - 1);
        for by in (y0 & !(BLOCK - 1)..y1).step_by(BLOCK as usize) {
            let mut next = edge_at(bx0, by);
            for bx in (bx0..x1).step_by(BLOCK as usize) {
                let eb = next;
                next = [0, 1, 2].map(|e| eb[e] + block_step[e]);
                if (0..3).any(|e| eb[e] + block_hi[e] + step_max[e] < 0) {
                    continue;
                }
                let full = test.is_none()
                    && bx + BLOCK <= tx1
                    && by + BLOCK <= ty1
                    && (0..3).all(|e| eb[e] + block_lo[e] + step_min[e] >= 0);
                if full && bx >= x0 && by >= y0 && bx + BLOCK <= x1 && by + BLOCK <= y1 {
                    // All of the block's quads, every lane and sample
                    // covered: appended in bulk, in the order of the quad
                    // loop below, the batch shaded whenever it fills.
                    let mut k = 0;
                    while k < BLOCK_QUADS {
                        let take = (BATCH - pending.len()).min(BLOCK_QUADS - k);
                        batch.push_block::<BLOCK>(bx, by, k..k + take);
                        if take == BLOCK_QUADS {
                            // (A fixed length: a few vector stores.)
                            pending.extend_from_slice(&[[full_mask; 4]; BLOCK_QUADS]);
                        } else {
                            // (`resize` fills in place; appending a slice
                            // of a stack array of variable length called
                            // `memcpy`.)
                            pending.resize(pending.len() + take, [full_mask; 4]);
                        }
                        k += take;
                        if pending.len() == BATCH {
                            flush_batch!();
                        }
                    }
                    quads += BLOCK_QUADS as u64;
                    active_lanes += 4 * BLOCK_QUADS as u64;
                    continue;
                }
                for qy in (by.max(y0)..(by + BLOCK).min(y1)).step_by(2) {
                    for qx in (bx.max(x0)..(bx + BLOCK).min(x1)).step_by(2) {
                        let smask = if full {
                            [full_mask; 4]
                        } else {
                            let e0 = edge_at(qx, qy);
                            if (0..3).any(|e| e0[e] + step_max[e] < 0) {
                                continue;
                            }
                            // Coverage per lane and sample: every position
                            // of a quad inside the tile whose edges stay
                            // non-negative at their least step, else
                            // position by position.
                            let mut smask = [0u8; 4];
                            let inside_tile = qx + 1 < tx1 && qy + 1 < ty1;
                            if inside_tile && (0..3).all(|e| e0[e] + step_min[e] >= 0) {
                                smask = [full_mask; 4];
                            } else {
                                for (lane, m) in smask.iter_mut().enumerate() {
                                    let lx = qx + (lane as u32 & 1);
                                    let ly = qy + (lane as u32 >> 1);
                                    if lx >= tx1 || ly >= ty1 {
                                        continue;
                                    }
                                    for s in 0..ns {
                                        let k = lane * ns + s;
                                        if (e0[0] + step[0][k])
                                            | (e0[1] + step[1][k])
                                            | (e0[2] + step[2][k])
                                            >= 0
                                        {
                                            *m |= 1 << s;
                                        }
                                    }
                                }
                            }
                            // Then the depth test of the covered samples.
                            if let Some(op) = test {
                                let quad = DepthQuad {
                                    tri,
                                    depth: &*tile.depth,
                                    bases: [0, 1, 2, 3].map(|lane| {
                                        let lx = qx + (lane & 1);
                                        let ly = qy + (lane >> 1);
                                        // (Lanes outside the tile have
                                        // no coverage bits.)
                                        if lx < tx1 && ly < ty1 {
                                            tile.at(lx, ly, ns)
                                        } else {
                                            0
                                        }
                                    }),
                                    origin: (qx, qy),
                                    offsets,
                                };
                                depth_test(op, frame.depth_format, &quad, &mut smask, &mut zs);
                            }
                            smask
                        };
                        let active =
                            (0..4).fold(0u8, |m, l| if smask[l] != 0 { m | 1 << l } else { m });
                        if active == 0 {
                            continue;
                        }
                        batch.push(qx, qy, active, !active & 0xf);
                        pending.push(smask);
                        if write_depth {
                            depths.push(zs);
                        }
                        quads += 1;
                        active_lanes += u64::from(LANES_SET[active as usize]);
                        if pending.len() == BATCH {
                            flush_batch!();
                        }
                    }
                }
            }
        }
        flush_batch!();
        tile.stats.quads += quads;
        tile.stats.active_lanes += active_lanes;
        tile.stats.helper_lanes += 4 * quads - active_lanes;
    }
    if let Some((_, q)) = cur.as_mut() {
        tile.stats.tex += std::mem::take(&mut q.tex);
    }
}

/// The number of lanes set in each 4-bit lane mask (a table: baseline
/// x86-64 has no population-count instruction).
const LANES_SET: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/// One quad's samples for [`depth_test`]: the triangle, the tile's depth
/// samples, each lane's first sample index in them, the quad's origin
/// pixel and the sample offsets (in `1 / SUB` pixels).
struct DepthQuad<'a> {
    tri: &'a Tri,
    depth: &'a [f32],
    bases: [usize; 4],
    origin: (u32, u32),
    offsets: &'a [(i64, i64)],
}

/// The depth test of a quad's covered samples (`smask`): each one's
/// fragment depth (the triangle's depth plane at the sample, clamped and
/// rounded to `format`, into `zs`) against the stored depth under `op`;
/// the samples that fail leave `smask`. The comparison and the format are
/// chosen once for the quad, not per sample.
fn depth_test(
    op: CompareOp,
    format: DepthFormat,
    q: &DepthQuad<'_>,
    smask: &mut [u8; 4],
    zs: &mut [[f32; MAX_SAMPLES]; 4],
) {
    macro_rules! with_format {
        ($op:expr) => {
            match format {
                DepthFormat::D32Float => depth_test_as($op, DepthFormat::D32Float, q, smask, zs),
                DepthFormat::D24Unorm => depth_test_as($op, DepthFormat::D24Unorm, q, smask, zs),
            }
        };
    }
    match op {
        CompareOp::Never => with_format!(CompareOp::Never),
        CompareOp::Less => with_format!(CompareOp::Less),
        CompareOp::Equal => with_format!(CompareOp::Equal),
        CompareOp::LessOrEqual => with_format!(CompareOp::LessOrEqual),
        CompareOp::Greater => with_format!(CompareOp::Greater),
        CompareOp::NotEqual => with_format!(CompareOp::NotEqual),
        CompareOp::GreaterOrEqual => with_format!(CompareOp::GreaterOrEqual),
        CompareOp::Always => with_format!(CompareOp::Always),
    }
}

/// [`depth_test`] for one comparison and format (inlined where both are
/// constants).
#[inline(always)]
fn depth_test_as(
    op: CompareOp,
    format: DepthFormat,
    q: &DepthQuad<'_>,
    smask: &mut [u8; 4],
    zs: &mut [[f32; MAX_SAMPLES]; 4],
) {
    if q.offsets.len() == 4 {
        return depth_test_4(op, format, q, smask, zs);
    }
    let (qx, qy) = q.origin;
    for (lane, m) in smask.iter_mut().enumerate() {
        if *m == 0 {
            continue;
        }
        let lx = qx + (lane as u32 & 1);
        let ly = qy + (lane as u32 >> 1);
        let stored = q.depth.get(q.bases[lane]..).unwrap_or_default();
        for (s, &(ox, oy)) in q.offsets.iter().enumerate() {
            if *m & (1 << s) == 0 {
                continue;
            }
            let px = lx as i64 * SUB + ox;
            let py = ly as i64 * SUB + oy;
            let z = format.quantize(q.tri.z.at(
                px as f32 / SUB as f32 - q.tri.origin[0],
                py as f32 / SUB as f32 - q.tri.origin[1],
            ));
            if stored.get(s).is_some_and(|&d| op.test(z, d)) {
                zs[lane][s] = z;
            } else {
                *m &= !(1 << s);
            }
        }
    }
}

/// [`depth_test_as`] with four samples a pixel, without branches per
/// sample: a covered lane's four depths (in `i32`, exact: positions are
/// below 2^23 in `1 / SUB` pixels) and comparisons are computed whole and
/// the failing ones masked off; `zs` takes all four (only the covered
/// ones are read).
#[inline(always)]
fn depth_test_4(
    op: CompareOp,
    format: DepthFormat,
    q: &DepthQuad<'_>,
    smask: &mut [u8; 4],
    zs: &mut [[f32; MAX_SAMPLES]; 4],
) {
    let (qx, qy) = q.origin;
    let [o0, o1] = q.tri.origin;
    let mut offs = [(0i32, 0i32); 4];
    for (o, &(x, y)) in offs.iter_mut().zip(q.offsets) {
        *o = (x as i32, y as i32);
    }
    let sub = SUB as i32;
    for (lane, (m, z_out)) in smask.iter_mut().zip(zs.iter_mut()).enumerate() {
        if *m == 0 {
            continue;
        }
        let lx = (qx + (lane as u32 & 1)) as i32 * sub;
        let ly = (qy + (lane as u32 >> 1)) as i32 * sub;
        let base = q.bases[lane];
        let Some(stored) = q.depth.get(base..base + 4) else {
            *m = 0;
            continue;
        };
        let mut pass = 0u8;
        for (s, (&(ox, oy), z_out)) in offs.iter().zip(z_out.iter_mut()).enumerate() {
            let z = format.quantize(q.tri.z.at(
                (lx + ox) as f32 / SUB as f32 - o0,
                (ly + oy) as f32 / SUB as f32 - o1,
            ));
            *z_out = z;
            pass |= u8::from(op.test(z, stored[s])) << s;
        }
        *m &= pass;
    }
}

/// Side in pixels of the blocks a triangle's coverage is classified by
/// (a power of two dividing [`TILE`]): 4 x 4 quads.
const BLOCK: u32 = 8;

/// Quads in a block.
const BLOCK_QUADS: usize = (BLOCK as usize / 2) * (BLOCK as usize / 2);

/// Quads shaded per [`crate::FragmentShader::shade_batch`] call: four AVX-512
/// sampler registers' worth, and a few kilobytes of attributes.
const BATCH: usize = MAX_BATCH_QUADS;

/// Interpolates and shades the batch (when the frame has colour), then
/// writes each quad's samples: depth where the draw writes it, blended
/// colour.
#[allow(clippy::too_many_arguments)]
fn flush(
    frame: &Frame,
    draw: &DrawCall,
    tri: &Tri,
    q: &mut QuadCtx<'_>,
    batch: &mut QuadBatch,
    smasks: &[[u8; 4]],
    depths: &[[[f32; MAX_SAMPLES]; 4]],
    outs: &mut [Vec<f32>; 4],
    enc: &mut [u8],
    tile: &mut TileBuf<'_>,
    ns: usize,
    write_depth: bool,
) {
    if smasks.is_empty() {
        return;
    }
    let n = 4 * smasks.len();
    if frame.color {
        batch.interpolate(tri.origin, &tri.inv_w, &tri.attrs);
        let [r, g, b, a] = outs;
        let mut planes = PlanarOut {
            r: &mut r[..n],
            g: &mut g[..n],
            b: &mut b[..n],
            a: &mut a[..n],
        };
        draw.shader.shade_batch(q, batch, &mut planes);
    }
    let [r, g, b, a] = outs;
    // A shader whose colours are `(v, v, v, v)` wrote `r` alone: the
    // encodes below read it for every channel, and the lane-by-lane paths
    // get copies of it.
    let grey = frame.color && draw.shader.replicates_red();
    let blend = draw.state.blend;
    let replace = blend == BlendMode::Replace;
    let format = tile.format;
    let bpp = format.bytes();
    let direct = ns == 1 && !write_depth && replace && frame.color;
    // Channels the shader gives as constants, whose planes it need not
    // have written: encoded from the constant where 8-bit UNORM colours go
    // straight into place, else the planes filled with them first.
    let mut consts = if frame.color && !grey {
        draw.shader.constant_channels()
    } else {
        [None; 4]
    };
    if consts.iter().any(Option::is_some)
        && !(direct && matches!(format, ColorFormat::Rgba8Unorm | ColorFormat::Bgra8Unorm))
    {
        for (plane, c) in [&mut *r, &mut *g, &mut *b, &mut *a].into_iter().zip(consts) {
            if let Some(v) = c {
                plane[..n].fill(v);
            }
        }
        consts = [None; 4];
    }
    if direct {
        // The common case: 8-bit colours encoded straight into place.
        let w = QuadWrites {
            planes: if grey {
                [&r[..n]; 4]
            } else {
                [&r[..n], &g[..n], &b[..n], &a[..n]]
            },
            consts,
            origins: batch.origins(),
            smasks,
            rows: batch.row_starts(),
            color: &mut *tile.color,
            y0: tile.y0,
            stride: tile.stride,
        };
        if format.write_quads(w) {
            return;
        }
    }
    if frame.color {
        // The batch's colours in the target's format, lane after lane.
        if grey {
            format.encode_planes([&r[..n]; 4], n, enc);
        } else {
            format.encode_planes([&r[..n], &g[..n], &b[..n], &a[..n]], n, enc);
        }
    }
    if ns == 1 && !write_depth && replace && frame.color {
        // The common case: encoded samples copied into place.
        let (origins, enc) = (batch.origins(), &enc[..n * bpp]);
        let (color, y0, stride) = (&mut *tile.color, tile.y0, tile.stride);
        match bpp {
            4 => write_replaced::<4, 8, 32>(color, y0, stride, origins, smasks, enc),
            8 => write_replaced::<8, 16, 64>(color, y0, stride, origins, smasks, enc),
            _ => write_replaced::<16, 32, 128>(color, y0, stride, origins, smasks, enc),
        }
        return;
    }
    if replace && frame.color {
        // Several samples a pixel, or depth writes: each covered sample
        // gets its lane's encoded bytes.
        let (origins, enc) = (batch.origins(), &enc[..n * bpp]);
        let w = (origins, smasks, depths, enc, ns, write_depth);
        match bpp {
            4 => write_samples_replaced::<4>(tile, w),
            8 => write_samples_replaced::<8>(tile, w),
            _ => write_samples_replaced::<16>(tile, w),
        }
        return;
    }
    if grey {
        // (Blending reads the four channels lane by lane.)
        g[..n].copy_from_slice(&r[..n]);
        b[..n].copy_from_slice(&r[..n]);
        a[..n].copy_from_slice(&r[..n]);
    }
    for (i, smask) in smasks.iter().enumerate() {
        let (x, y) = batch.origin(i);
        for (lane, &m) in smask.iter().enumerate() {
            if m == 0 {
                continue;
            }
            let j = 4 * i + lane;
            let colour = [r[j], g[j], b[j], a[j]];
            let src = &enc[j * bpp..(j + 1) * bpp];
            let base = tile.at(x + (lane as u32 & 1), y + (lane as u32 >> 1), ns);
            if ns == 1 && !write_depth {
                // One sample, covered (the mask is not empty): the common
                // case without the per-sample loop.
                write_sample(tile.color, base * bpp, format, blend, colour, src);
                continue;
            }
            let zs = depths.get(i).map_or(&[0.0; MAX_SAMPLES], |d| &d[lane]);
            for (s, &z) in zs.iter().enumerate().take(ns) {
                if m & (1 << s) == 0 {
                    continue;
                }
                if write_depth {
                    tile.depth[base + s] = z;
                }
                write_sample(tile.color, (base + s) * bpp, format, blend, colour, src);
            }
        }
    }
}

/// What [`write_samples_replaced`] writes: the batch's quad origins,
/// sample masks, the covered samples' depths (one entry a quad where the
/// draw writes depth), the encoded lanes, samples a pixel and whether
/// depth is written.
type SampleWrites<'a> = (
    &'a [(u32, u32)],
    &'a [[u8; 4]],
    &'a [[[f32; MAX_SAMPLES]; 4]],
    &'a [u8],
    usize,
    bool,
);

/// The writes of a batch under [`BlendMode::Replace`] with several
/// samples a pixel or depth writes: every covered sample of a lane (its
/// bit in the quad's mask) takes the lane's `BPP` encoded bytes and, where
/// the draw writes depth, its own depth; the others keep theirs. A lane's
/// samples are adjacent, so each lane is one slice of the band.
fn write_samples_replaced<const BPP: usize>(tile: &mut TileBuf<'_>, w: SampleWrites<'_>) {
    let (origins, smasks, depths, enc, ns, write_depth) = w;
    for (i, (smask, &(x, y))) in smasks.iter().zip(origins).enumerate() {
        for (lane, &m) in smask.iter().enumerate() {
            if m == 0 {
                continue;
            }
            let j = 4 * i + lane;
            let base = tile.at(x + (lane as u32 & 1), y + (lane as u32 >> 1), ns);
            let (Some(src), Some(dst)) = (
                enc.get(j * BPP..(j + 1) * BPP),
                tile.color.get_mut(base * BPP..(base + ns) * BPP),
            ) else {
                continue;
            };
            // Every sample covered (the common case inside a surface):
            // no mask tests.
            let all = u32::from(m) == (1u32 << ns) - 1;
            for (s, d) in dst.chunks_exact_mut(BPP).enumerate() {
                if all || m & (1 << s) != 0 {
                    copy_fixed::<BPP>(d, src);
                }
            }
            if write_depth {
                if let (Some(zs), Some(dd)) = (depths.get(i), tile.depth.get_mut(base..base + ns)) {
                    if all {
                        dd.copy_from_slice(&zs[lane][..ns]);
                        continue;
                    }
                    for (s, (d, &z)) in dd.iter_mut().zip(&zs[lane]).enumerate() {
                        if m & (1 << s) != 0 {
                            *d = z;
                        }
                    }
                }
            }
        }
    }
}

/// The writes of a batch into a single-sampled target under
/// [`BlendMode::Replace`] without depth writes: each quad's encoded
/// samples (`enc`, `BPP` bytes a lane, lanes 0 and 1 the top row) copied
/// into `color`, a band of `stride`-pixel rows whose first row is `y0`.
/// Four whole quads side by side (a block's row of quads, as full blocks
/// are batched) go as two rows of `RUN = 8 * BPP` bytes; another whole
/// quad as two rows of `ROW = 2 * BPP` bytes; the lanes of a partial one
/// each on its own (fixed-size copies: no call to `memcpy`).
fn write_replaced<const BPP: usize, const ROW: usize, const RUN: usize>(
    color: &mut [u8],
    y0: u32,
    stride: usize,
    origins: &[(u32, u32)],
    smasks: &[[u8; 4]],
    enc: &[u8],
) {
    let pitch = stride * BPP;
    let quad = 4 * BPP;
    let n = origins.len().min(smasks.len()).min(enc.len() / quad);
    let mut i = 0;
    while i < n {
        let (x, y) = origins[i];
        let at = (y.wrapping_sub(y0) as usize * stride + x as usize) * BPP;
        if i + 4 <= n
            && smasks[i..i + 4] == [[1; 4]; 4]
            && (1..4u32).all(|k| origins[i + k as usize] == (x.wrapping_add(2 * k), y))
        {
            let src = &enc[i * quad..(i + 4) * quad];
            for r in 0..2 {
                let mut row = [0u8; RUN];
                for (k, part) in row.chunks_exact_mut(ROW).enumerate() {
                    part.copy_from_slice(&src[k * quad + r * ROW..][..ROW]);
                }
                copy_fixed::<RUN>(
                    color
                        .get_mut(at + r * pitch..at + r * pitch + RUN)
                        .unwrap_or_default(),
                    &row,
                );
            }
            i += 4;
            continue;
        }
        let (smask, q) = (smasks[i], &enc[i * quad..(i + 1) * quad]);
        if smask == [1; 4] {
            for (r, src) in q.chunks_exact(ROW).enumerate() {
                copy_fixed::<ROW>(
                    color
                        .get_mut(at + r * pitch..at + r * pitch + ROW)
                        .unwrap_or_default(),
                    src,
                );
            }
        } else {
            for (lane, src) in q.chunks_exact(BPP).enumerate() {
                if smask[lane] != 0 {
                    let at = at + (lane & 1) * BPP + (lane >> 1) * pitch;
                    copy_fixed::<BPP>(color.get_mut(at..at + BPP).unwrap_or_default(), src);
                }
            }
        }
        i += 1;
    }
}

/// Writes one sample at byte `at` of `color` (nothing when the frame has
/// no colour target, `color` then being empty): `src`, the shader's
/// `colour` already encoded, under [`BlendMode::Replace`]; otherwise the
/// stored value decoded, blended with `colour` (both clamped to `[0, 1]`
/// first for a normalized format, as Vulkan "Blending" clamps
/// fixed-point attachments' inputs) and encoded again.
#[inline]
fn write_sample(
    color: &mut [u8],
    at: usize,
    format: ColorFormat,
    blend: BlendMode,
    colour: [f32; 4],
    src: &[u8],
) {
    let Some(dst) = color.get_mut(at..at + src.len()) else {
        return;
    };
    if blend == BlendMode::Replace {
        // Fixed-size copies (no call to `memcpy` per sample).
        match src.len() {
            4 => copy_fixed::<4>(dst, src),
            8 => copy_fixed::<8>(dst, src),
            16 => copy_fixed::<16>(dst, src),
            _ => dst.copy_from_slice(src),
        }
        return;
    }
    let old = format.decode(dst);
    let colour = if format.is_normalized() {
        colour.map(|v| v.clamp(0.0, 1.0))
    } else {
        colour
    };
    format.encode(blend.blend(colour, old), dst);
}

/// `dst.copy_from_slice(src)` for `N`-byte slices, as one fixed-size
/// move.
#[inline(always)]
fn copy_fixed<const N: usize>(dst: &mut [u8], src: &[u8]) {
    if let (Ok(d), Ok(s)) = (<&mut [u8; N]>::try_from(dst), <&[u8; N]>::try_from(src)) {
        *d = *s;
    }
}

/// Fills `rows` rows of `row` bytes, the first at byte `from` of
/// `bytes` and each `pitch` bytes after the one before, with copies of
/// the `pattern.len()`-byte `pattern` (a cleared sample; a row's tail
/// shorter than the pattern, and any row not inside `bytes`, stay as
/// they were): for 4-, 8- and 16-byte patterns 64 bytes a store at the
/// machine's SIMD level ([`crate::simd::run`]; a loop compiled for
/// baseline x86-64 stores 16 bytes at a time, and a tile's clear showed
/// as 2% of a flat-colour frame).
fn fill_rows(bytes: &mut [u8], from: usize, row: usize, pitch: usize, rows: usize, pattern: &[u8]) {
    let level = quadtex_sampler::cpu::simd_level();
    fill_rows_at(level, bytes, (from, row, pitch, rows), pattern);
}

/// [`fill_rows`] at `level` ([`crate::simd::run_at`]), the rows given as
/// `(from, row, pitch, rows)`.
fn fill_rows_at(
    level: SimdLevel,
    bytes: &mut [u8],
    rows: (usize, usize, usize, usize),
    pattern: &[u8],
) {
    match pattern.len() {
        4 => crate::simd::run_at(
            level,
            Fill::<4> {
                bytes,
                rows,
                pattern,
            },
        ),
        8 => crate::simd::run_at(
            level,
            Fill::<8> {
                bytes,
                rows,
                pattern,
            },
        ),
        16 => crate::simd::run_at(
            level,
            Fill::<16> {
                bytes,
                rows,
                pattern,
            },
        ),
        _ => {
            let (from, row, pitch, n) = rows;
            for r in 0..n {
                let at = from.saturating_add(r.saturating_mul(pitch));
                if let Some(band) = bytes.get_mut(at..at.saturating_add(row)) {
                    for c in band.chunks_exact_mut(pattern.len().max(1)) {
                        c.copy_from_slice(pattern);
                    }
                }
            }
        }
    }
}

/// [`fill_rows`]' loop for an `N`-byte pattern (`N` divides 64): in each
/// row 64-byte chunks of the pattern repeated (the chunk made once),
/// then whole patterns.
struct Fill<'a, const N: usize> {
    bytes: &'a mut [u8],
    rows: (usize, usize, usize, usize),
    pattern: &'a [u8],
}

impl<const N: usize> crate::simd::Wide for Fill<'_, N> {
    type Out = ();
    #[inline(always)]
    fn run(self) {
        let mut p = [0u8; N];
        p.copy_from_slice(&self.pattern[..N]);
        let mut block = [0u8; 64];
        for c in block.chunks_exact_mut(N) {
            c.copy_from_slice(&p);
        }
        let (from, row, pitch, rows) = self.rows;
        for r in 0..rows {
            let at = from.saturating_add(r.saturating_mul(pitch));
            let Some(band) = self.bytes.get_mut(at..at.saturating_add(row)) else {
                continue;
            };
            let mut chunks = band.chunks_exact_mut(64);
            for c in &mut chunks {
                c.copy_from_slice(&block);
            }
            for c in chunks.into_remainder().chunks_exact_mut(N) {
                c.copy_from_slice(&p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fill_rows` at every SIMD level this CPU has against the plain
    /// loop (every whole pattern copied, a shorter tail untouched): one
    /// row of 0 to 300 bytes at several alignments, and rows at a pitch
    /// whose last ones leave the slice (those are left alone).
    #[test]
    fn fill_rows_matches_the_plain_loop_at_every_level() {
        let levels: Vec<SimdLevel> = SimdLevel::ALL
            .into_iter()
            .filter(|l| l.supported())
            .collect();
        assert!(levels.contains(&SimdLevel::Portable), "{levels:?}");
        for n in [1usize, 2, 3, 4, 8, 12, 16, 20] {
            let pattern: Vec<u8> = (0..n).map(|i| 0x31 + 7 * i as u8).collect();
            for len in 0..300 {
                for skew in [0usize, 1, 4, 17] {
                    let mut want = vec![0xa5u8; skew + len];
                    for c in want[skew..].chunks_exact_mut(n) {
                        c.copy_from_slice(&pattern);
                    }
                    for &level in &levels {
                        let mut got = vec![0xa5u8; skew + len];
                        fill_rows_at(level, &mut got, (skew, len, 0, 1), &pattern);
                        assert_eq!(got, want, "{level:?}, pattern {n}, band {len} at {skew}");
                    }
                }
            }
            for (from, row, pitch) in [(0usize, 64usize, 64usize), (5, 37, 100), (3, 131, 140)] {
                let mut want = vec![0xa5u8; 1000];
                for r in 0..12 {
                    let at = from + r * pitch;
                    if at + row <= want.len() {
                        for c in want[at..at + row].chunks_exact_mut(n) {
                            c.copy_from_slice(&pattern);
                        }
                    }
                }
                for &level in &levels {
                    let mut got = vec![0xa5u8; 1000];
                    fill_rows_at(level, &mut got, (from, row, pitch, 12), &pattern);
                    assert_eq!(
                        got, want,
                        "{level:?}, pattern {n}, rows of {row} at {pitch}"
                    );
                }
            }
        }
    }
}
