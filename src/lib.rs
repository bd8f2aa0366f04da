//! quadtex: a GPU-class texture unit on the CPU.
//!
//! This package is the `quadtex` command and re-exports the workspace
//! crates: [`format`](mod@format) (what a texture is), [`sampler`] (how it
//! is read), [`raster`] (the demo rasterizer) and [`scene`] (scene files,
//! loaded and rendered with the rasterizer: what `quadtex render` runs).
//! [`probe`] is the command's `probe` subcommand as a library: it evaluates
//! a probe case (`docs/probe-format.md`) and returns the RESULT JSON;
//! [`profile`] is `quadtex profile` (quad throughput of one operation);
//! [`gl_workloads`] builds the frames of `quadtex bench gl-workloads`.

pub use quadtex_format as format;
pub use quadtex_probe as probe;
pub use quadtex_raster as raster;
pub use quadtex_sampler as sampler;
pub use quadtex_scene as scene;

pub mod gl_workloads;
pub mod profile;
