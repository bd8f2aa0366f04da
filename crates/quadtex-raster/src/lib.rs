//! `quadtex-raster`: the demo rasterizer that drives the quadtex sampler the
//! way a GPU does. Triangles are binned to screen tiles, tiles are rendered
//! in parallel, and every tile is shaded in 2x2 quads with helper lanes.
//! Scene files (`scene`) describe what to draw.

#![forbid(unsafe_code)]

pub mod scene;
