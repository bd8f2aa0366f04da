//! The scene loader's error type: every way a scene file can be wrong, each
//! naming the key (`materials.ground.shader`) or the path concerned.
//!
//! The rasterizer's own errors do not live here; this type is meant to
//! become one variant family of the crate's error type when the two meet.

use std::path::PathBuf;

/// Everything that can go wrong loading a scene.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SceneError {
    /// The scene file (or a file it names) could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O failure.
        #[source]
        source: std::io::Error,
    },
    /// The TOML is malformed, has an unknown key, a missing required key or
    /// a value of the wrong type; the message names the key and its line.
    #[error("{path}: {source}")]
    Parse {
        /// The scene file (`<string>` for scenes parsed from text).
        path: PathBuf,
        /// The parser's report, naming the key and its position.
        #[source]
        source: Box<toml::de::Error>,
    },
    /// A file named by `key` does not exist.
    #[error("{key}: file {path} does not exist")]
    MissingFile {
        /// The key naming the file (`textures.ground.file`).
        key: String,
        /// The path as resolved against the scene file's folder.
        path: PathBuf,
    },
    /// A name outside the set `key` accepts (a shader, format, filter, ...).
    #[error("{key}: unknown {what} `{value}` (expected {expected})")]
    UnknownName {
        /// The offending key (`materials.ground.shader`).
        key: String,
        /// What kind of name it is (`shader`, `texture format`, ...).
        what: &'static str,
        /// The value given.
        value: String,
        /// The accepted spellings.
        expected: String,
    },
    /// `key` refers to a texture, sampler or material the scene does not
    /// define.
    #[error("{key}: {what} `{name}` is not defined in the scene")]
    MissingReference {
        /// The offending key (`objects[2].material`).
        key: String,
        /// `texture`, `sampler` or `material`.
        what: &'static str,
        /// The name referred to.
        name: String,
    },
    /// A value of the right type but outside what `key` allows.
    #[error("{key}: {reason}")]
    InvalidValue {
        /// The offending key (`output.msaa`).
        key: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Building or loading the texture at `key` failed in the format crate.
    #[error("{key}: {source}")]
    Texture {
        /// The texture's key (`textures.ground`).
        key: String,
        /// The format crate's error.
        #[source]
        source: quadtex_format::Error,
    },
    /// The sampler or texture view at `key` breaks a Vulkan rule.
    #[error("{key}: {source}")]
    Sampler {
        /// The offending key (`samplers.aniso`).
        key: String,
        /// The sampler crate's error.
        #[source]
        source: quadtex_sampler::Error,
    },
    /// The OBJ file at `key` could not be loaded.
    #[error("{key}: {path}: {source}")]
    Obj {
        /// The object's key (`objects[3].file`).
        key: String,
        /// The OBJ file.
        path: PathBuf,
        /// tobj's error.
        #[source]
        source: tobj::LoadError,
    },
}

impl SceneError {
    /// The key the error names, where it names one (parse errors carry
    /// theirs in the message).
    pub fn key(&self) -> Option<&str> {
        match self {
            SceneError::MissingFile { key, .. }
            | SceneError::UnknownName { key, .. }
            | SceneError::MissingReference { key, .. }
            | SceneError::InvalidValue { key, .. }
            | SceneError::Texture { key, .. }
            | SceneError::Sampler { key, .. }
            | SceneError::Obj { key, .. } => Some(key),
            SceneError::Io { .. } | SceneError::Parse { .. } => None,
        }
    }
}

/// The scene loader's result type.
pub type Result<T, E = SceneError> = std::result::Result<T, E>;

/// An [`SceneError::InvalidValue`] at `key`.
pub(crate) fn invalid(key: impl Into<String>, reason: impl Into<String>) -> SceneError {
    SceneError::InvalidValue {
        key: key.into(),
        reason: reason.into(),
    }
}
