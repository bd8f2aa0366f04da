//! Instruction front-ends: text and register-file models of the ISAs whose
//! texture instructions the seeds describe, decoding their operands into the
//! sampler cores ([`sample`](fn@crate::sample), [`gather`](fn@crate::gather),
//! [`fetch`](fn@crate::fetch), [`query_lod`](crate::query_lod),
//! [`query`](crate::query)).
//!
//! What lives here: one module per ISA ([`sass`]: NVIDIA SASS TLD4,
//! TMML.LOD (seeds 000 and 001), TEX, TLD and TXQ; [`ptx`]: PTX `tex`,
//! `tld4`, `txq`, `istypep` (seeds 002 and 003); [`d3d`]: `ld2dms` (seed
//! 004)). What does not: texel addressing, filtering and LOD arithmetic,
//! which are the cores'.

pub mod d3d;
pub mod ptx;
pub mod sass;
