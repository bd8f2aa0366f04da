//! quadtex: a GPU-class texture unit on the CPU.
//!
//! This package is the `quadtex` command and re-exports the workspace
//! crates: [`format`] (what a texture is).

pub use quadtex_format as format;
