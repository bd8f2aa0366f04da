//! The crate's error type: every way a scene file can be wrong, each
//! naming the key (`materials.ground.shader`) or the path concerned, and
//! what can go wrong rendering a loaded scene (a render option out of
//! range, or the rasterizer's own [`quadtex_raster::Error`]).

use std::path::PathBuf;

/// Everything that can go wrong loading or rendering a scene.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
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
    /// A [`RenderOptions`](crate::RenderOptions) value is out of range, or
    /// the scene cannot be drawn as the options ask (`option` names it:
    /// `width`, `msaa`, `frame`, `material`, ...).
    #[error("{option}: {reason}")]
    InvalidOption {
        /// The option.
        option: &'static str,
        /// What is wrong with its value.
        reason: String,
    },
    /// The rasterizer failed rendering the scene (a target too large for
    /// the memory, a thread pool that could not be built, ...).
    #[error(transparent)]
    Raster(#[from] quadtex_raster::Error),
    /// A format-crate error while rendering (a texture the renderer builds
    /// for itself).
    #[error(transparent)]
    Format(#[from] quadtex_format::Error),
}

impl Error {
    /// The scene-file key the error names, where it names one (parse errors
    /// carry theirs in the message; render errors name none).
    pub fn key(&self) -> Option<&str> {
        match self {
            Error::MissingFile { key, .. }
            | Error::UnknownName { key, .. }
            | Error::MissingReference { key, .. }
            | Error::InvalidValue { key, .. }
            | Error::Texture { key, .. }
            | Error::Sampler { key, .. }
            | Error::Obj { key, .. } => Some(key),
            Error::Io { .. }
            | Error::Parse { .. }
            | Error::InvalidOption { .. }
            | Error::Raster(_)
            | Error::Format(_) => None,
        }
    }
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An [`Error::InvalidValue`] at `key`.
pub(crate) fn invalid(key: impl Into<String>, reason: impl Into<String>) -> Error {
    Error::InvalidValue {
        key: key.into(),
        reason: reason.into(),
    }
}
