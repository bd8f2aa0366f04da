//! The crate's one `unsafe` module: the run-time SIMD level switch
//! ([`run_at`], calling functions compiled for CPU features that
//! [`crate::cpu::SimdLevel::detect`] found), word loads after one bounds
//! check ([`load_words`]), and hardware gathers for the batched kernels'
//! texel loads (`batch.rs`). Reading a 32-bit word per lane with
//! scalar loads costs a bounds check, a load and a store per lane and then
//! a stalled vector reload; one `vpgatherdd` does all lanes. Measured with
//! `examples/profile_quads` on Zen 4 (`target-cpu=native`, AVX-512),
//! Mquads per CPU-second of `sample_quads_rgba`: bilinear RGBA8 2D 16.4
//! with scalar loads, 19.5 with gathers; trilinear 10.6 -> 12.8.
//!
//! Every function here has a safe twin ([`load_u32_scalar`]) that it must
//! equal. [`load_u32`] checks the bounds of every lane itself before it
//! gathers, so its safety rests on no caller.

/// Per lane, the little-endian 32-bit word at `bytes[base + offs[l]..][..4]`
/// (the scalar twin of [`load_u32`]). Bytes past the end of `bytes` read
/// as 0: a word that starts inside but runs past the end keeps the bytes
/// that are there in its low bits, so a 1- or 2-byte texel at the very end
/// of the data reads right; a word that starts outside (or at a negative
/// offset) is 0.
#[inline(always)]
pub(crate) fn load_u32_scalar<const N: usize>(
    bytes: &[u8],
    base: usize,
    offs: [i32; N],
) -> [i32; N] {
    offs.map(|o| {
        let start = usize::try_from(o).ok().and_then(|o| base.checked_add(o));
        let tail = start.and_then(|s| bytes.get(s..)).unwrap_or(&[]);
        let mut w = [0u8; 4];
        let n = tail.len().min(4);
        w[..n].copy_from_slice(&tail[..n]);
        i32::from_le_bytes(w)
    })
}

/// [`load_u32_scalar`], with one hardware gather when every lane's whole
/// word is inside `bytes` (AVX-512 for 16 lanes, AVX2 for 8 and 4, when
/// the build targets them); the scalar twin otherwise.
#[inline(always)]
pub(crate) fn load_u32<const N: usize>(bytes: &[u8], base: usize, offs: [i32; N]) -> [i32; N] {
    let lo = offs.iter().copied().min().unwrap_or(0);
    let hi = offs.iter().copied().max().unwrap_or(0);
    // `lo >= 0` makes `hi >= 0`, so the casts below are exact.
    let inside = lo >= 0
        && base
            .checked_add(hi as usize)
            .and_then(|e| e.checked_add(4))
            .is_some_and(|end| end <= bytes.len());
    if inside {
        // `base <= end - 4 - hi <= bytes.len()`: the slice is in range.
        if let Some(v) = gather(&bytes[base..], offs) {
            return v;
        }
    }
    load_u32_scalar(bytes, base, offs)
}

/// The gather proper: `None` where this build has no gather of `N` lanes.
/// Only [`load_u32`] calls it, after checking that `0 <= offs[l]` and
/// `offs[l] + 4 <= bytes.len()` for every lane `l` (its `inside`: the
/// smallest offset is not negative and the largest word ends inside).
#[inline(always)]
#[allow(unused_variables)]
fn gather<const N: usize>(bytes: &[u8], offs: [i32; N]) -> Option<[i32; N]> {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    if N == 16 {
        use std::arch::x86_64::{
            __m512i, _mm512_i32gather_epi32, _mm512_loadu_si512, _mm512_storeu_si512,
        };
        let mut out = [0i32; N];
        // SAFETY: the build targets AVX-512F (cfg above). `offs` and `out`
        // are N = 16 i32s = 64 bytes, so the unaligned 512-bit load and
        // store stay inside them. Every gathered address is
        // `bytes.as_ptr() + offs[l]` with `0 <= offs[l]` and
        // `offs[l] + 4 <= bytes.len()` (checked by `load_u32`, this
        // function's one caller, over all lanes), so each 4-byte read is
        // inside `bytes`; gathers need no alignment.
        unsafe {
            let idx = _mm512_loadu_si512(offs.as_ptr() as *const __m512i);
            let v = _mm512_i32gather_epi32::<1>(idx, bytes.as_ptr() as *const i32);
            _mm512_storeu_si512(out.as_mut_ptr() as *mut __m512i, v);
        }
        return Some(out);
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    if N == 8 {
        use std::arch::x86_64::{
            __m256i, _mm256_i32gather_epi32, _mm256_loadu_si256, _mm256_storeu_si256,
        };
        let mut out = [0i32; N];
        // SAFETY: the build targets AVX2 (cfg above). `offs` and `out` are
        // 8 i32s = 32 bytes, inside for the unaligned 256-bit load and
        // store. Each gathered 4-byte read at `bytes.as_ptr() + offs[l]`
        // is inside `bytes` (`load_u32`'s check over all lanes); no alignment
        // needed.
        unsafe {
            let idx = _mm256_loadu_si256(offs.as_ptr() as *const __m256i);
            let v = _mm256_i32gather_epi32::<1>(bytes.as_ptr() as *const i32, idx);
            _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, v);
        }
        return Some(out);
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    if N == 4 {
        use std::arch::x86_64::{__m128i, _mm_i32gather_epi32, _mm_loadu_si128, _mm_storeu_si128};
        let mut out = [0i32; N];
        // SAFETY: the build targets AVX2 (cfg above). `offs` and `out` are
        // 4 i32s = 16 bytes, inside for the unaligned 128-bit load and
        // store. Each gathered 4-byte read at `bytes.as_ptr() + offs[l]`
        // is inside `bytes` (`load_u32`'s check over all lanes); no alignment
        // needed.
        unsafe {
            let idx = _mm_loadu_si128(offs.as_ptr() as *const __m128i);
            let v = _mm_i32gather_epi32::<1>(bytes.as_ptr() as *const i32, idx);
            _mm_storeu_si128(out.as_mut_ptr() as *mut __m128i, v);
        }
        return Some(out);
    }
    None
}

/// Per lane, the little-endian 32-bit word at `bytes[base + offs[l]..][..4]`
/// ([`load_u32_scalar`]'s value), read with plain loads that the caller's
/// target features may turn into a gather: one check that every lane's word
/// is inside `bytes` (the smallest offset not negative, the largest ending
/// inside), then unchecked reads; the scalar twin when the check fails.
#[inline(always)]
pub(crate) fn load_words<const N: usize>(bytes: &[u8], base: usize, offs: &[i32; N]) -> [u32; N] {
    let mut lo = i32::MAX;
    let mut hi = i32::MIN;
    for &o in offs {
        lo = lo.min(o);
        hi = hi.max(o);
    }
    let inside = N > 0
        && lo >= 0
        && base
            .checked_add(hi as usize)
            .and_then(|e| e.checked_add(4))
            .is_some_and(|end| end <= bytes.len());
    if !inside {
        return load_u32_scalar(bytes, base, *offs).map(|w| w as u32);
    }
    let p = bytes.as_ptr();
    let mut out = [0u32; N];
    for (o, &off) in out.iter_mut().zip(offs) {
        // SAFETY: `0 <= off <= hi` and `base + hi + 4 <= bytes.len()` (the
        // check above, over every lane), so the 4 bytes at
        // `base + off` are inside `bytes`; `read_unaligned` needs no
        // alignment.
        *o = u32::from_le(unsafe { p.add(base + off as usize).cast::<u32>().read_unaligned() });
    }
    out
}

/// A computation compiled once per SIMD level: [`run_at`] calls `run` with
/// the level's lane count from a function built for the level's target
/// features. Everything `run` calls must be `#[inline(always)]` to be
/// compiled with those features.
pub(crate) trait LaneKernel {
    /// The result.
    type Out;
    /// The computation on `N` lanes.
    fn run<const N: usize>(self) -> Self::Out;
}

/// Runs `k` at `level` when this CPU has it, else at the best level below
/// that it has (so a level forced too high cannot fault).
#[inline]
pub(crate) fn run_at<K: LaneKernel>(level: crate::cpu::SimdLevel, k: K) -> K::Out {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::cpu::SimdLevel;
        let best = detected();
        if level >= SimdLevel::Avx512 && best >= SimdLevel::Avx512 {
            // SAFETY: `detected` found AVX-512 F/BW/DQ/VL, AVX2, FMA, BMI1/2,
            // F16C, LZCNT and POPCNT on this CPU (`SimdLevel::detect`),
            // every feature `avx512` is compiled for.
            return unsafe { avx512(k) };
        }
        if level >= SimdLevel::Avx2 && best >= SimdLevel::Avx2 {
            // SAFETY: `detected` found AVX2, FMA, BMI1/2, F16C, LZCNT and
            // POPCNT on this CPU, the features `avx2` is compiled for.
            return unsafe { avx2(k) };
        }
    }
    let _ = level;
    k.run::<4>()
}

/// [`crate::cpu::SimdLevel::detect`], once.
#[cfg(target_arch = "x86_64")]
fn detected() -> crate::cpu::SimdLevel {
    static BEST: std::sync::OnceLock<crate::cpu::SimdLevel> = std::sync::OnceLock::new();
    *BEST.get_or_init(crate::cpu::SimdLevel::detect)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,f16c,lzcnt,popcnt"
)]
fn avx512<K: LaneKernel>(k: K) -> K::Out {
    // Eight lanes (256-bit registers with AVX-512's instructions): the
    // planar kernel measured 65 Mpixels/s here against 49 at sixteen
    // lanes (nearest RGBA8, `quadtex profile`, Zen 4).
    k.run::<8>()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,f16c,lzcnt,popcnt")]
fn avx2<K: LaneKernel>(k: K) -> K::Out {
    k.run::<8>()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<const N: usize>(bytes: &[u8], seed: u32) {
        let mut s = seed;
        for _ in 0..20_000 {
            let mut offs = [0i32; N];
            for o in &mut offs {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                // Mostly inside, sometimes at the very end, past it, or
                // negative.
                *o = match s % 16 {
                    0 => bytes.len() as i32 - 4,
                    1 => bytes.len() as i32 - 3,
                    2 => -1,
                    _ => (s >> 8) as i32 % (bytes.len() as i32 - 3),
                };
            }
            let base = (s % 3) as usize;
            assert_eq!(
                load_u32(bytes, base, offs),
                load_u32_scalar(bytes, base, offs),
                "{offs:?} base {base}"
            );
        }
    }

    #[test]
    fn plain_word_loads_match_scalar_loads_lane_by_lane() {
        let bytes: Vec<u8> = (0..1029u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
            .collect();
        let mut s = 7u32;
        for _ in 0..20_000 {
            let mut offs = [0i32; 16];
            for o in &mut offs {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                *o = match s % 16 {
                    0 => bytes.len() as i32 - 4,
                    1 => bytes.len() as i32 - 3,
                    2 => -1,
                    _ => (s >> 8) as i32 % (bytes.len() as i32 - 3),
                };
            }
            let base = (s % 3) as usize;
            let want = load_u32_scalar(&bytes, base, offs).map(|w| w as u32);
            assert_eq!(
                load_words(&bytes, base, &offs),
                want,
                "{offs:?} base {base}"
            );
        }
    }

    #[test]
    fn gathers_match_scalar_loads_lane_by_lane() {
        let bytes: Vec<u8> = (0..4099u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
            .collect();
        check::<4>(&bytes, 1);
        check::<8>(&bytes, 2);
        check::<16>(&bytes, 3);
        // The last word, exactly.
        let n = bytes.len();
        let w = i32::from_le_bytes(bytes[n - 4..].try_into().unwrap());
        assert_eq!(load_u32(&bytes, 0, [n as i32 - 4; 16]), [w; 16]);
        // One byte further: the three bytes that are there, zero-extended
        // (a 2-byte texel at the end of the data reads right).
        let w3 = i32::from_le_bytes([bytes[n - 3], bytes[n - 2], bytes[n - 1], 0]);
        assert_eq!(load_u32(&bytes, 1, [n as i32 - 4; 8]), [w3; 8]);
        let w2 = i32::from_le_bytes([bytes[n - 2], bytes[n - 1], 0, 0]);
        assert_eq!(load_u32(&bytes, 0, [n as i32 - 2; 4]), [w2; 4]);
        // Starting at or past the end, or before the start: 0.
        assert_eq!(
            load_u32(&bytes, 0, [n as i32, -1, i32::MAX, i32::MIN]),
            [0; 4]
        );
    }
}
