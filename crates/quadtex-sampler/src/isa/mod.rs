//! Instruction front-ends: text and register-file models of the ISAs whose
//! texture instructions the seeds describe, decoding their operands into the
//! sampler cores ([`gather`](fn@crate::gather), [`query_lod`](crate::query_lod)).
//!
//! What lives here: one module per ISA ([`sass`]: NVIDIA SASS TLD4 and
//! TMML.LOD, seeds 000 and 001). What does not: texel addressing, filtering
//! and LOD arithmetic, which are the cores'.

pub mod d3d;
pub mod ptx;
pub mod sass;
