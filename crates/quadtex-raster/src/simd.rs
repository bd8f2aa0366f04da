//! Loops compiled for the machine's SIMD level, chosen when the program
//! runs (the crate's one `unsafe` module): the rasterizer's own loops
//! (attribute interpolation, the 8-bit colour encode) run through
//! [`run_at`] at the level the sampler runs at
//! ([`quadtex_sampler::cpu::simd_level`], which `QUADTEX_SIMD` lowers),
//! and so can a planar shader's loops ([`run`]): implement [`Wide`] with
//! the loop in an `#[inline(always)]` `run`. The crate builds for baseline x86-64, where those loops run
//! four lanes wide; compiled for a wider level the same loops take 8 or
//! 16 lanes an instruction. The operations are the same IEEE operations
//! at every level (Rust never contracts a multiply and an add into an
//! FMA), so every level gives the same bits; the tests run each level the
//! machine has against the baseline build's.
//!
//! Measured with `quadtex bench gl-workloads --variants no_texture
//! --threads 1` (2-core AMD EPYC, Zen 4, AVX-512): the encode and the
//! interpolation at 16 lanes instead of 4 took a frame from 12.3 to 10.9
//! ms of the 14.7 it cost before this module's commit series.

#![allow(unsafe_code)]

use quadtex_sampler::cpu::SimdLevel;

/// A loop compiled once per SIMD level: [`run_at`] calls [`Wide::run`]
/// from a function built for the level's target features. `run` and
/// everything it calls must be `#[inline(always)]` to be compiled with
/// them (what is not inlined runs at the build's own level, which is
/// still correct).
///
/// ```
/// use quadtex_raster::simd::{run, Wide};
///
/// /// `dst[i] = src[i] * 2 + 1`, 16 lanes an instruction on AVX-512.
/// struct Scale<'a> {
///     src: &'a [f32],
///     dst: &'a mut [f32],
/// }
/// impl Wide for Scale<'_> {
///     type Out = ();
///     #[inline(always)]
///     fn run(self) {
///         for (d, &s) in self.dst.iter_mut().zip(self.src) {
///             *d = s * 2.0 + 1.0;
///         }
///     }
/// }
/// let src = [1.0f32, 2.0, 3.0];
/// let mut dst = [0.0f32; 3];
/// run(Scale { src: &src, dst: &mut dst });
/// assert_eq!(dst, [3.0, 5.0, 7.0]);
/// ```
pub trait Wide {
    /// The result.
    type Out;
    /// The loop.
    fn run(self) -> Self::Out;
}

/// Runs `k` at `level` when this CPU has it, else at the best level below
/// that it has (so a level forced too high cannot fault). Every level
/// gives the same results for loops of IEEE operations (Rust never fuses
/// a multiply and an add on its own).
#[inline]
pub fn run_at<K: Wide>(level: SimdLevel, k: K) -> K::Out {
    #[cfg(target_arch = "x86_64")]
    {
        let best = detected();
        if level >= SimdLevel::Avx512 && best >= SimdLevel::Avx512 {
            // SAFETY: `SimdLevel::detect` found AVX-512 F/BW/DQ/VL, AVX2,
            // FMA, BMI1/2, F16C, LZCNT and POPCNT on this CPU, every
            // feature `avx512` is compiled for.
            return unsafe { avx512(k) };
        }
        if level >= SimdLevel::Avx2 && best >= SimdLevel::Avx2 {
            // SAFETY: `SimdLevel::detect` found AVX2, FMA, BMI1/2, F16C,
            // LZCNT and POPCNT on this CPU, the features `avx2` is
            // compiled for.
            return unsafe { avx2(k) };
        }
    }
    let _ = level;
    k.run()
}

/// [`run_at`] at the level the sampler runs at
/// ([`quadtex_sampler::cpu::simd_level`]: the best this CPU has, lowered
/// by `QUADTEX_SIMD`).
#[inline]
pub fn run<K: Wide>(k: K) -> K::Out {
    run_at(quadtex_sampler::cpu::simd_level(), k)
}

/// [`SimdLevel::detect`], once.
#[cfg(target_arch = "x86_64")]
fn detected() -> SimdLevel {
    static BEST: std::sync::OnceLock<SimdLevel> = std::sync::OnceLock::new();
    *BEST.get_or_init(SimdLevel::detect)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,f16c,lzcnt,popcnt"
)]
fn avx512<K: Wide>(k: K) -> K::Out {
    k.run()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,f16c,lzcnt,popcnt")]
fn avx2<K: Wide>(k: K) -> K::Out {
    k.run()
}
