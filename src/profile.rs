//! `quadtex profile`: quad throughput of one texture operation, timed on
//! the command line (criterion benches in `benches/` are the reference
//! figures; this is the quick look and the profiler's target).
//!
//! The workload is `benches/sample.rs`'s: a 256x256-pixel screen region
//! (16,384 quads) minifying about 1.6:1 with a slight rotation (8:1 for
//! `aniso16`), seeded random texels ([`Texels`]) in a mipmapped texture
//! (1024^2 2D, 256^2 cube faces, 512^2 x 4 layers), implicit coarse
//! derivatives, one thread, the profile and SIMD level given (default
//! `Profile::VULKAN` and the best level the CPU has).

use std::sync::Arc;
use std::time::{Duration, Instant};

use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat, TextureKind};
use quadtex_sampler::fetch::{FetchArgs, QuadFetcher};
use quadtex_sampler::profile::Derivatives;
use quadtex_sampler::{
    query_lod, AddressMode, Filter, GatherArgs, MipmapMode, PlanarOut, Profile, Quad, QuadCoords,
    QuadSampler, SampleArgs, SamplerHeader, SimdLevel, TextureHeader,
};

/// What `quadtex profile` can time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `sample` through `QuadSampler::sample_planar` (the whole region per
    /// call, coordinates and results as planes: the planar kernel).
    Sample,
    /// `sample` through `QuadSampler::sample_quads_rgba` (the whole region
    /// per call as `Quad`s, lane-major RGBA results).
    SampleQuads,
    /// `sample` through `QuadSampler::sample`, one quad per call.
    SampleQuad,
    /// `gather` (TLD4) of component R through `QuadSampler::gather_planar`
    /// (coordinates and results as planes: the planar gather kernel).
    Gather,
    /// `gather` of component R through `QuadSampler::gather_quads` (the
    /// region as `Quad`s, per-quad results with residency).
    GatherQuads,
    /// `sample` with a depth compare (`LessOrEqual` against 0.5: PCF)
    /// through `QuadSampler::sample_planar`; use a depth format.
    Compare,
    /// The same compare through `QuadSampler::sample_quads_rgba` (the
    /// `Quad` API).
    CompareQuads,
    /// `query_lod` (TMML.LOD).
    QueryLod,
    /// `fetch` (texelFetch) of the texel under each lane, level 0, through
    /// `QuadFetcher::fetch_rgba`.
    Fetch,
}

impl Op {
    /// Parses `sample`, `sample_quads`, `sample_quad`, `gather`,
    /// `gather_quads`, `compare`, `compare_quads`, `query_lod` or `fetch`.
    pub fn parse(s: &str) -> Option<Op> {
        Some(match s {
            "sample" => Op::Sample,
            "sample_quads" => Op::SampleQuads,
            "sample_quad" => Op::SampleQuad,
            "gather" => Op::Gather,
            "gather_quads" => Op::GatherQuads,
            "compare" => Op::Compare,
            "compare_quads" => Op::CompareQuads,
            "query_lod" => Op::QueryLod,
            "fetch" => Op::Fetch,
            _ => return None,
        })
    }
}

/// What a profile workload's texels hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Texels {
    /// Seeded random values of the format: for the 8-bit, BC and UNORM
    /// depth formats random bytes (every byte pattern is a value), for
    /// the float formats (RGBA16F, R32F, RGBA32F, D32F) random finite
    /// normal numbers in `[0.5, 1)` (a random sign-exponent-mantissa
    /// pattern is a subnormal in one texel of 256 and NaN or infinite in
    /// about one of 256, which a float texture a renderer samples does
    /// not hold; Intel cores take a microcode assist for every subnormal
    /// operand of a multiply).
    Values,
    /// Seeded random bytes for every format, float patterns included
    /// (subnormals, infinities and NaNs among them).
    Bits,
}

impl Texels {
    /// `values` or `bits`.
    pub fn parse(name: &str) -> Option<Texels> {
        match name {
            "values" => Some(Texels::Values),
            "bits" => Some(Texels::Bits),
            _ => None,
        }
    }

    /// The name [`Texels::parse`] takes.
    pub fn name(self) -> &'static str {
        match self {
            Texels::Values => "values",
            Texels::Bits => "bits",
        }
    }
}

/// Seeded random bytes of a texture of `format`, `n` bytes, as
/// [`Texels`] says: each byte `i` from the multiplicative hash of `i`,
/// made values by [`random_values`] for [`Texels::Values`].
fn texel_bytes(format: TextureFormat, n: usize, texels: Texels) -> Vec<u8> {
    let mut bytes: Vec<u8> = (0..n)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    if texels == Texels::Values {
        random_values(format, &mut bytes);
    }
    bytes
}

/// Random texel bytes of `format` made random values of it
/// ([`Texels::Values`]): the float formats' words and halves (RGBA16F,
/// R32F, RGBA32F, D32F) given the sign and exponent of `[0.5, 1)`, their
/// random bits kept as the mantissa; the other formats' bytes are values
/// as they are.
pub fn random_values(format: TextureFormat, bytes: &mut [u8]) {
    match format {
        TextureFormat::R32Float | TextureFormat::Rgba32Float | TextureFormat::Depth32Float => {
            for w in bytes.chunks_exact_mut(4) {
                let m = u32::from_le_bytes([w[0], w[1], w[2], w[3]]) & 0x007f_ffff;
                w.copy_from_slice(&(0x3f00_0000 | m).to_le_bytes());
            }
        }
        TextureFormat::Rgba16Float => {
            for h in bytes.chunks_exact_mut(2) {
                let m = u16::from_le_bytes([h[0], h[1]]) & 0x03ff;
                h.copy_from_slice(&(0x3800 | m).to_le_bytes());
            }
        }
        _ => {}
    }
}

/// A profiling workload: the view, sampler and quads of one configuration.
pub struct Workload {
    /// The texture view.
    pub view: TextureHeader,
    /// The sampler.
    pub smp: SamplerHeader,
    /// The quads (16,384).
    pub quads: Vec<Quad>,
    /// Sample arguments (implicit LOD, coarse derivatives).
    pub args: SampleArgs,
}

/// Why a workload could not be built: the unknown name.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// Not one of nearest, bilinear, trilinear, aniso16.
    #[error("unknown filter `{0}` (nearest, bilinear, trilinear, aniso16)")]
    Filter(String),
    /// Not one of the formats listed.
    #[error("unknown format `{0}` (rgba8, rgba8_srgb, rgba16f, r32f, bc1, bc7, d32f, d16, rg8, rgba32f)")]
    Format(String),
    /// Not one of 2d, cube, 2d_array.
    #[error("unknown view kind `{0}` (2d, cube, 2d_array)")]
    Kind(String),
    /// The texture's size overflows.
    #[error("texture too large")]
    TooLarge,
    /// A texture size outside `1..=16384`.
    #[error("texture size {0} is not in 1..=16384")]
    Size(u32),
    /// A texture of more bytes than [`MAX_WORKLOAD_BYTES`] (the workload
    /// holds them twice while it builds the texture).
    #[error(
        "a texture of {0} bytes is over the profile workload's limit of {MAX_WORKLOAD_BYTES} bytes"
    )]
    Bytes(u64),
    /// The texture could not be built.
    #[error("texture: {0}")]
    Texture(#[from] quadtex_format::Error),
}

/// The most texture bytes a profile workload makes (4 GiB, held twice
/// while the texture is built: RGBA8 and RGBA16F up to 16384^2 in 2D,
/// RGBA8 cubes up to 8192^2).
pub const MAX_WORKLOAD_BYTES: u64 = 4 << 30;

impl Workload {
    /// The workload for `filter` (nearest, bilinear, trilinear, aniso16),
    /// `format` (rgba8, rgba8_srgb, rgba16f, r32f, bc1, bc7, d32f, d16, rg8,
    /// rgba32f) and
    /// `kind`
    /// (2d, cube, 2d_array).
    pub fn new(filter: &str, format: &str, kind: &str) -> Result<Workload, ProfileError> {
        Workload::with_layout(filter, format, kind, Layout::Linear)
    }

    /// [`Workload::new`] with the texture stored in `layout` (`new`:
    /// [`Layout::Linear`], rows of texels, where the kernels read a
    /// footprint row's two 4-byte texels as one load; [`Layout::Tiled`]
    /// keeps 2D neighbourhoods in cache lines).
    pub fn with_layout(
        filter: &str,
        format: &str,
        kind: &str,
        layout: Layout,
    ) -> Result<Workload, ProfileError> {
        Workload::sized(filter, format, kind, layout, None, Texels::Values)
    }

    /// [`Workload::with_layout`] with the texture `size` texels wide and
    /// high (cube faces `size` square; `None`: 1024 for 2D, 512 for the
    /// 2D array's layers, 256 for cube faces). The quads' derivatives
    /// scale with it, so the footprints stay the same in texels; a size
    /// that is not a power of two makes `repeat` take its remainder. The
    /// texels hold what `texels` says.
    pub fn sized(
        filter: &str,
        format: &str,
        kind: &str,
        layout: Layout,
        size: Option<u32>,
        texels: Texels,
    ) -> Result<Workload, ProfileError> {
        if let Some(n) = size.filter(|n| !(1..=16_384).contains(n)) {
            return Err(ProfileError::Size(n));
        }
        let fmt = match format {
            "rgba8" => TextureFormat::Rgba8Unorm,
            "rgba8_srgb" => TextureFormat::Rgba8Srgb,
            "rgba16f" => TextureFormat::Rgba16Float,
            "r32f" => TextureFormat::R32Float,
            "bc1" => TextureFormat::Bc1RgbaUnorm,
            "bc7" => TextureFormat::Bc7Unorm,
            "d32f" => TextureFormat::Depth32Float,
            "d16" => TextureFormat::Depth16Unorm,
            "rg8" => TextureFormat::Rg8Unorm,
            "rgba32f" => TextureFormat::Rgba32Float,
            other => return Err(ProfileError::Format(other.into())),
        };
        let k = match kind {
            "2d" => TextureKind::D2,
            "cube" => TextureKind::Cube,
            "2d_array" => TextureKind::D2Array,
            other => return Err(ProfileError::Kind(other.into())),
        };
        let (f, mip, aniso) = match filter {
            "nearest" => (Filter::Nearest, MipmapMode::Nearest, 1.0),
            "bilinear" => (Filter::Linear, MipmapMode::Nearest, 1.0),
            "trilinear" => (Filter::Linear, MipmapMode::Linear, 1.0),
            "aniso16" => (Filter::Linear, MipmapMode::Linear, 16.0),
            other => return Err(ProfileError::Filter(other.into())),
        };
        let desc = match k {
            TextureKind::Cube => TextureDesc::cube(fmt, size.unwrap_or(256)),
            TextureKind::D2Array => {
                let n = size.unwrap_or(512);
                TextureDesc::d2(fmt, n, n).with_layers(TextureKind::D2Array, 4)
            }
            _ => {
                let n = size.unwrap_or(1024);
                TextureDesc::d2(fmt, n, n)
            }
        };
        let n = desc.total_bytes().ok_or(ProfileError::TooLarge)?;
        if n > MAX_WORKLOAD_BYTES {
            // (A 16384^2 RGBA32F cube is 34 GB: refused with a message,
            // not an allocation failure.)
            return Err(ProfileError::Bytes(n));
        }
        let n = usize::try_from(n).map_err(|_| ProfileError::TooLarge)?;
        let bytes = texel_bytes(fmt, n, texels);
        let tex = Arc::new(Texture::from_linear_bytes(desc, layout, &bytes)?);
        let view = TextureHeader::new(tex);
        let smp = SamplerHeader {
            mag_filter: f,
            min_filter: f,
            mipmap_mode: mip,
            address: [AddressMode::Repeat; 3],
            max_anisotropy: aniso,
            ..Default::default()
        };
        let size = view.texture.desc().width as f32;
        let (du, dv) = if aniso > 1.0 {
            (1.5 / size, 12.0 / size)
        } else {
            (1.6 / size, 1.6 / size)
        };
        let mut quads = Vec::with_capacity(128 * 128);
        for qy in 0..128 {
            for qx in 0..128 {
                quads.push(Quad::new([0, 1, 2, 3].map(|l| {
                    let x = (2 * qx + (l & 1)) as f32;
                    let y = (2 * qy + (l >> 1)) as f32;
                    let (u, v) = (
                        0.1 + (0.996 * x - 0.087 * y) * du,
                        0.2 + (0.087 * x + 0.996 * y) * dv,
                    );
                    match k {
                        TextureKind::Cube => [u * 2.0 - 1.0, v * 2.0 - 1.0, 1.0, 0.0],
                        TextureKind::D2Array => [u, v, 0.0, 2.0],
                        _ => [u, v, 0.0, 0.0],
                    }
                })));
            }
        }
        let args = SampleArgs {
            derivatives: Some(Derivatives::Coarse),
            ..Default::default()
        };
        Ok(Workload {
            view,
            smp,
            quads,
            args,
        })
    }

    /// Runs `op` over the quads repeatedly for about `time` with `profile`
    /// at SIMD level `level`; returns quads per second and a checksum (so
    /// the work cannot be optimised away).
    pub fn run(&self, op: Op, profile: &Profile, level: SimdLevel, time: Duration) -> (f64, f64) {
        let profile = *profile;
        let mut unit = QuadSampler::new(&self.view, &self.smp, &profile);
        unit.set_simd_level(level);
        let plane = |k: usize| -> Vec<f32> {
            self.quads
                .iter()
                .flat_map(|q| q.coords.map(|c| c[k]))
                .collect()
        };
        let (ps, pt, pr, pa) = (plane(0), plane(1), plane(2), plane(3));
        let coords = QuadCoords {
            s: &ps,
            t: &pt,
            r: &pr,
            a: &pa,
            dref: &[],
            lod: &[],
        };
        let mut planes = [(); 4].map(|_| vec![0.0f32; 4 * self.quads.len()]);
        let mut fetcher = QuadFetcher::new(&self.view);
        let cmp_smp = SamplerHeader {
            compare: Some(quadtex_sampler::CompareOp::LessOrEqual),
            ..self.smp
        };
        let mut cmp_unit = QuadSampler::new(&self.view, &cmp_smp, &profile);
        let cmp_args = SampleArgs {
            dref: Some([0.5; 4]),
            ..self.args
        };
        let mut out = vec![[[0.0f32; 4]; 4]; self.quads.len()];
        let mut results = vec![quadtex_sampler::QuadResult::EMPTY; self.quads.len()];
        let dims = [
            self.view.texture.desc().width,
            self.view.texture.desc().height,
        ];
        let gargs = GatherArgs::default();
        let (mut n, mut sum) = (0usize, 0.0f64);
        let t = Instant::now();
        while t.elapsed() < time {
            match op {
                Op::Sample => {
                    let [r, g, b, a] = &mut planes;
                    unit.sample_planar(&self.args, &coords, &mut PlanarOut { r, g, b, a });
                    sum += checksum(&planes[0]);
                }
                Op::SampleQuads => {
                    unit.sample_quads_rgba(&self.args, &self.quads, &mut out);
                    sum += out.iter().map(|r| f64::from(r[0][0])).sum::<f64>();
                }
                Op::Compare => {
                    let [r, g, b, a] = &mut planes;
                    cmp_unit.sample_planar(&cmp_args, &coords, &mut PlanarOut { r, g, b, a });
                    sum += checksum(&planes[0]);
                }
                Op::CompareQuads => {
                    cmp_unit.sample_quads_rgba(&cmp_args, &self.quads, &mut out);
                    sum += out.iter().map(|r| f64::from(r[0][0])).sum::<f64>();
                }
                Op::SampleQuad => {
                    for q in &self.quads {
                        sum += f64::from(unit.sample_rgba(&self.args, q)[0][0]);
                    }
                }
                Op::Gather => {
                    let [r, g, b, a] = &mut planes;
                    unit.gather_planar(&gargs, &coords, &mut PlanarOut { r, g, b, a });
                    sum += checksum(&planes[0]);
                }
                Op::GatherQuads => {
                    unit.gather_quads(&gargs, &self.quads, &mut results);
                    sum += results
                        .iter()
                        .map(|r| r.texels[0].map_or(0.0, |t| f64::from(t.to_f32()[0])))
                        .sum::<f64>();
                }
                Op::QueryLod => {
                    for q in &self.quads {
                        let r = query_lod(&self.view, &self.smp, &profile, &self.args, q);
                        sum += r[0].map_or(0.0, |l| f64::from(l.lambda));
                    }
                }
                Op::Fetch => {
                    for q in &self.quads {
                        let args = FetchArgs {
                            icoords: q.coords.map(|c| {
                                [
                                    (c[0] * dims[0] as f32) as i32,
                                    (c[1] * dims[1] as f32) as i32,
                                    0,
                                    c[3] as i32,
                                ]
                            }),
                            ..Default::default()
                        };
                        sum += f64::from(fetcher.fetch_rgba(&args, 0xf)[0][0]);
                    }
                }
            }
            n += self.quads.len();
        }
        (n as f64 / t.elapsed().as_secs_f64(), sum)
    }
}

/// The sum of a result plane, in sixteen independent f32 sums (which the
/// compiler keeps in vector registers) rather than one chain of f64 adds
/// through every lane, which cost several percent of a planar call's time.
fn checksum(plane: &[f32]) -> f64 {
    let mut acc = [0.0f32; 16];
    let mut chunks = plane.chunks_exact(16);
    for c in &mut chunks {
        for (a, &v) in acc.iter_mut().zip(c) {
            *a += v;
        }
    }
    let tail: f32 = chunks.remainder().iter().sum();
    acc.iter().map(|&a| f64::from(a)).sum::<f64>() + f64::from(tail)
}

/// The SIMD target features this build was compiled for (what the kernels
/// can use), e.g. `avx512f avx2 fma f16c`.
pub fn target_features() -> String {
    let mut f = Vec::new();
    if cfg!(target_feature = "avx512f") {
        f.push("avx512f");
    }
    if cfg!(target_feature = "avx512vl") {
        f.push("avx512vl");
    }
    if cfg!(target_feature = "avx2") {
        f.push("avx2");
    }
    if cfg!(target_feature = "fma") {
        f.push("fma");
    }
    if cfg!(target_feature = "f16c") {
        f.push("f16c");
    }
    if cfg!(target_feature = "neon") {
        f.push("neon");
    }
    if f.is_empty() {
        f.push("baseline");
    }
    f.join(" ")
}
