//! Frame statistics: counted per tile and summed, so every count is the
//! same for any thread count; only the stage times vary between runs.

use std::ops::AddAssign;
use std::time::Duration;

/// Texture operations issued by shaders, counted per quad operation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TexStats {
    /// `sample` calls (one per quad).
    pub sample: u64,
    /// `gather` calls.
    pub gather: u64,
    /// `query_lod` calls.
    pub query_lod: u64,
    /// `fetch` calls.
    pub fetch: u64,
    /// Texels read, estimated from the filter footprint per running lane:
    /// nearest 1, linear 2 (1D) / 4 (2D, cube) / 8 (3D), doubled for linear
    /// mip filtering, times `max_anisotropy` (an upper bound: the sampler
    /// takes fewer taps on footprints that are not stretched); gather 4,
    /// fetch 1, query_lod 0. Cube seams and borders are not special-cased.
    pub texels: u64,
}

impl AddAssign for TexStats {
    fn add_assign(&mut self, o: TexStats) {
        self.sample += o.sample;
        self.gather += o.gather;
        self.query_lod += o.query_lod;
        self.fetch += o.fetch;
        self.texels += o.texels;
    }
}

/// What a render (or a resolve) did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Triangles after clipping and culling that reached binning.
    pub triangles: u64,
    /// Quads handed to a fragment shader.
    pub quads: u64,
    /// Lanes of shaded quads that were active (covered and passing the
    /// depth test).
    pub active_lanes: u64,
    /// Lanes of shaded quads that ran as helpers.
    pub helper_lanes: u64,
    /// Texture operations.
    pub tex: TexStats,
    /// Triangle setup, clipping and binning.
    pub binning: Duration,
    /// Rasterization and shading of every tile.
    pub raster_shade: Duration,
    /// The MSAA resolve pass.
    pub resolve: Duration,
}

impl Stats {
    /// Helper lanes over all lanes of shaded quads (0 when none ran).
    pub fn helper_share(&self) -> f64 {
        let all = self.active_lanes + self.helper_lanes;
        if all == 0 {
            0.0
        } else {
            self.helper_lanes as f64 / all as f64
        }
    }

    /// Quads shaded per second of raster+shade and resolve time.
    pub fn quads_per_second(&self) -> f64 {
        let t = (self.raster_shade + self.resolve).as_secs_f64();
        if t > 0.0 {
            self.quads as f64 / t
        } else {
            0.0
        }
    }

    /// The counts only (times zeroed): what is equal between runs.
    pub fn counts(&self) -> Stats {
        Stats {
            binning: Duration::ZERO,
            raster_shade: Duration::ZERO,
            resolve: Duration::ZERO,
            ..*self
        }
    }
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.triangles += o.triangles;
        self.quads += o.quads;
        self.active_lanes += o.active_lanes;
        self.helper_lanes += o.helper_lanes;
        self.tex += o.tex;
        self.binning += o.binning;
        self.raster_shade += o.raster_shade;
        self.resolve += o.resolve;
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "triangles      {}", self.triangles)?;
        writeln!(f, "quads shaded   {}", self.quads)?;
        writeln!(f, "helper lanes   {:.1}%", self.helper_share() * 100.0)?;
        writeln!(
            f,
            "texture ops    sample {} gather {} query_lod {} fetch {}",
            self.tex.sample, self.tex.gather, self.tex.query_lod, self.tex.fetch
        )?;
        writeln!(f, "texels read    {} (footprint estimate)", self.tex.texels)?;
        writeln!(
            f,
            "time           binning {:.3} ms, raster+shade {:.3} ms, resolve {:.3} ms",
            self.binning.as_secs_f64() * 1e3,
            self.raster_shade.as_secs_f64() * 1e3,
            self.resolve.as_secs_f64() * 1e3
        )?;
        write!(f, "quads/s        {:.0}", self.quads_per_second())
    }
}
