//! Word loads for the lane vectors: the safe scalar twin
//! ([`load_u32_scalar`]) and plain unchecked loads after one bounds check
//! ([`load_words`]). Part of `arch`, the crate's one `unsafe` module.

/// Per lane, the little-endian 32-bit word at `bytes[base + offs[l]..][..4]`
/// (the twin of [`load_words`]). Bytes past the end of `bytes` read
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
