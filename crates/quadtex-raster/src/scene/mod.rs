//! Scene files: the TOML format, meshes, procedural textures.
