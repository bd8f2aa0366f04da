//! The renderer is shared by the threads that submit frames (`Send +
//! Sync`), and frames and meshes move between threads; this fails
//! to compile if a change takes that away.

use quadtex_raster::{DrawCall, Frame, Mesh, Renderer};

fn shared<T: Send + Sync>() {}

#[test]
fn the_renderer_and_its_inputs_cross_threads() {
    shared::<Renderer>();
    shared::<Frame>();
    shared::<DrawCall>();
    shared::<Mesh>();
}
