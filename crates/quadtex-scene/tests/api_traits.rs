//! Loaded scenes, their render results and errors move between threads
//! (`Send + Sync`, `Error` also `'static` for `Box<dyn Error + Send +
//! Sync>`); this fails to compile if a change takes that away.

use quadtex_scene::{Error, Mesh, RenderOptions, RenderedScene, Scene};

fn shared<T: Send + Sync>() {}

fn boxed_error<E: std::error::Error + Send + Sync + 'static>() {}

#[test]
fn scenes_and_their_results_cross_threads() {
    shared::<Scene>();
    shared::<Mesh>();
    shared::<RenderOptions>();
    shared::<RenderedScene>();
    shared::<Error>();
    boxed_error::<Error>();
}
