//! Instruction front-ends: text and register-file models of the ISAs whose
//! texture instructions quadtex implements (docs/semantics.md, "Sources"),
//! decoding their operands into the sampler cores
//! ([`sample`](fn@crate::sample), [`gather`](fn@crate::gather),
//! [`fetch`](fn@crate::fetch), [`query_lod`](crate::query_lod),
//! [`query`](crate::query)).
//!
//! What lives here: one module per ISA ([`sass`]: NVIDIA SASS TLD4, TMML.LOD
//! (NVIDIA's SASS TLD4 and TMML references), TEX, TLD and TXQ; [`ptx`]: PTX
//! `tex`, `tld4`, `txq`, `istypep` (PTX ISA 9.7.10); [`d3d`]: `ld2dms` (the D3D
//! `ld2dms` reference)). What does not: texel addressing, filtering and LOD
//! arithmetic, which are the cores'.
//!
//! The three front-ends share the crate's error, [`Error`](crate::Error):
//! its [`kind`](crate::Error::kind) says what was wrong (an unknown opcode,
//! a bad modifier or operand, an offset out of range, a form the
//! instruction does not allow, ...; [`ErrorKind`](crate::ErrorKind)) and
//! its [`token`](crate::Error::token) names the offending token.

pub mod d3d;
pub mod ptx;
pub mod sass;

/// Lane groups of `run` whose keys (handle, offsets) are equal, each with
/// its lane mask, in first-lane order. A core call takes one handle and
/// one set of offsets per quad while registers give one per lane, so the
/// SASS and PTX front-ends run the core once per group.
pub(crate) fn groups<K: PartialEq + Copy>(keys: [K; 4], run: u8) -> Vec<(K, u8)> {
    let mut out: Vec<(K, u8)> = Vec::with_capacity(4);
    for (lane, k) in keys.iter().enumerate() {
        if run & (1 << lane) == 0 {
            continue;
        }
        match out.iter_mut().find(|(g, _)| g == k) {
            Some((_, m)) => *m |= 1 << lane,
            None => out.push((*k, 1 << lane)),
        }
    }
    out
}
