//! Word loads for the lane vectors: the safe scalar twin
//! ([`load_u32_scalar`]), a hardware gather after one bounds check
//! ([`load_u32`]) and plain unchecked loads after one bounds check
//! ([`load_words`]). Part of `arch`, the crate's one `unsafe` module.

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
