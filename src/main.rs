//! The `quadtex` command.
fn main() {}
