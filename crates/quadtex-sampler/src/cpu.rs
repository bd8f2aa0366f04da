//! The SIMD level the kernels run at, chosen at run time.
//!
//! A build of this crate targets baseline x86-64 unless told otherwise, so
//! the planar kernels (`planar.rs`) are compiled several times (on x86-64
//! for SSE2, which the `sse2` and `portable` levels share, AVX2 and
//! AVX-512), and the level is picked when the program runs: the best the
//! CPU has ([`SimdLevel::detect`]), lowered by the `QUADTEX_SIMD`
//! environment variable (`avx512`, `avx2`, `sse2`, `portable`) or per
//! sampler ([`crate::QuadSampler::set_simd_level`]). Every level gives the
//! same bits: the kernels are one generic function, and the twin tests run
//! it at every level the machine has.

use std::sync::OnceLock;

/// A SIMD level the kernels are compiled for (x86-64 names; other
/// architectures run [`SimdLevel::Portable`], the generic code at the
/// build's own target features, which LLVM vectorises for NEON on
/// aarch64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SimdLevel {
    /// The build's own target features, four lanes per register (on
    /// x86-64 the SSE2 vectors of [`SimdLevel::Sse2`]: they are the
    /// baseline).
    Portable,
    /// x86-64 baseline (SSE2), four lanes.
    Sse2,
    /// AVX2 with FMA, BMI2 and F16C (x86-64-v3), eight lanes.
    Avx2,
    /// AVX-512 F, BW, DQ and VL on top of AVX2, sixteen lanes.
    Avx512,
}

impl SimdLevel {
    /// Every level, lowest first.
    pub const ALL: [SimdLevel; 4] = [
        SimdLevel::Portable,
        SimdLevel::Sse2,
        SimdLevel::Avx2,
        SimdLevel::Avx512,
    ];

    /// The level's name as `QUADTEX_SIMD` and `quadtex profile` spell it.
    pub fn name(self) -> &'static str {
        match self {
            SimdLevel::Portable => "portable",
            SimdLevel::Sse2 => "sse2",
            SimdLevel::Avx2 => "avx2",
            SimdLevel::Avx512 => "avx512",
        }
    }

    /// Parses a name of [`SimdLevel::name`].
    pub fn parse(s: &str) -> Option<SimdLevel> {
        SimdLevel::ALL.into_iter().find(|l| l.name() == s)
    }

    /// The best level this CPU runs (ignoring `QUADTEX_SIMD`).
    pub fn detect() -> SimdLevel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512dq")
                && std::is_x86_feature_detected!("avx512vl")
                && has_avx2()
            {
                return SimdLevel::Avx512;
            }
            if has_avx2() {
                return SimdLevel::Avx2;
            }
            SimdLevel::Sse2
        }
        #[cfg(not(target_arch = "x86_64"))]
        SimdLevel::Portable
    }

    /// Whether this CPU runs the level.
    pub fn supported(self) -> bool {
        self <= SimdLevel::detect()
    }

    /// Lanes the planar kernel runs at this level.
    pub fn lanes(self) -> usize {
        match self {
            SimdLevel::Avx512 => 16,
            SimdLevel::Avx2 => 8,
            SimdLevel::Sse2 | SimdLevel::Portable => 4,
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("fma")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("f16c")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
}

/// The level new samplers run at: [`SimdLevel::detect`], lowered to
/// `QUADTEX_SIMD` when that names a lower level (a higher or unknown name
/// is ignored). Decided once per process.
pub fn simd_level() -> SimdLevel {
    static LEVEL: OnceLock<SimdLevel> = OnceLock::new();
    *LEVEL.get_or_init(|| {
        let best = SimdLevel::detect();
        std::env::var("QUADTEX_SIMD")
            .ok()
            .and_then(|v| SimdLevel::parse(v.trim()))
            .map_or(best, |forced| forced.min(best))
    })
}

/// Whether the AVX2 and AVX-512 levels read texel words (and the sRGB
/// decode's table entries) with hardware gathers or with one scalar load
/// a lane. Every choice reads the same values; it is a speed choice only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexelLoads {
    /// `vpgatherdd` / `vgatherdps`.
    Gather,
    /// One scalar load per lane: the default on AMD CPUs, whose cores
    /// microcode the gathers (measured slower there).
    Scalar,
}

impl TexelLoads {
    /// The method's name as `QUADTEX_TEXEL_LOADS` spells it.
    pub fn name(self) -> &'static str {
        match self {
            TexelLoads::Gather => "gather",
            TexelLoads::Scalar => "scalar",
        }
    }
}

/// How this process's x86 kernels read texels: scalar loads on AMD CPUs,
/// hardware gathers elsewhere, unless `QUADTEX_TEXEL_LOADS` is `gather`
/// or `scalar`. Decided once per process; [`TexelLoads::Gather`] where
/// the kernels are not x86 ones (they have no gathers).
pub fn texel_loads() -> TexelLoads {
    if crate::arch::scalar_texel_loads() {
        TexelLoads::Scalar
    } else {
        TexelLoads::Gather
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_levels_are_ordered() {
        for l in SimdLevel::ALL {
            assert_eq!(SimdLevel::parse(l.name()), Some(l));
        }
        assert_eq!(SimdLevel::parse("avx3"), None);
        assert!(SimdLevel::Avx512 > SimdLevel::Avx2);
        assert!(SimdLevel::Portable.supported());
        assert!(simd_level() <= SimdLevel::detect());
    }
}
