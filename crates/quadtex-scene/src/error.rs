//! The crate's error type: every way a scene file can be wrong, each
//! naming the key (`materials.ground.shader`) or the path concerned, and
//! what can go wrong rendering a loaded scene (a render option out of
//! range, or the rasterizer's own [`quadtex_raster::Error`]).

use std::path::{Path, PathBuf};

/// Everything that can go wrong loading or rendering a scene: what kind of
/// problem it is ([`Error::kind`]), a message naming the key or file
/// (`Display`), the key, file, option or name concerned (accessors), and
/// the cause where there is one ([`source`](std::error::Error::source)).
#[derive(Debug)]
pub struct Error(Box<Repr>);

/// What kind of problem an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The scene file (or a file it names) could not be read;
    /// [`Error::path`] names it.
    Io,
    /// The TOML is malformed, has an unknown key, a missing required key or
    /// a value of the wrong type; the message names the key and its line.
    Parse,
    /// A file named by [`Error::key`] does not exist; [`Error::path`] is
    /// the path as resolved against the scene file's folder.
    MissingFile,
    /// A name outside the set [`Error::key`] accepts (a shader, format,
    /// filter, ...); [`Error::what`] says which set, [`Error::value`] the
    /// name given, and the message lists the accepted spellings.
    UnknownName,
    /// [`Error::key`] refers to a texture, sampler or material
    /// ([`Error::what`]) the scene does not define ([`Error::value`]).
    MissingReference,
    /// A value of the right type but outside what [`Error::key`] allows.
    InvalidValue,
    /// Building or loading the texture at [`Error::key`] failed in the
    /// format crate (the source).
    Texture,
    /// The sampler or texture view at [`Error::key`] breaks a Vulkan rule
    /// (the source is the sampler crate's error).
    Sampler,
    /// The OBJ file at [`Error::key`] could not be loaded.
    Obj,
    /// A [`RenderOptions`](crate::RenderOptions) value is out of range, or
    /// the scene cannot be drawn as the options ask ([`Error::option`]
    /// names it: `width`, `msaa`, `frame`, `material`, ...).
    InvalidOption,
    /// The rasterizer failed rendering the scene (a target too large for
    /// the memory, a thread pool that could not be built, ...).
    Raster,
    /// A format-crate error while rendering (a texture the renderer builds
    /// for itself).
    Format,
}

/// What an [`Error`] holds.
#[derive(Debug, thiserror::Error)]
enum Repr {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Parse {
        path: PathBuf,
        #[source]
        source: Box<toml::de::Error>,
    },
    #[error("{key}: file {path} does not exist")]
    MissingFile { key: String, path: PathBuf },
    #[error("{key}: unknown {what} `{value}` (expected {expected})")]
    UnknownName {
        key: String,
        what: &'static str,
        value: String,
        expected: String,
    },
    #[error("{key}: {what} `{name}` is not defined in the scene")]
    MissingReference {
        key: String,
        what: &'static str,
        name: String,
    },
    #[error("{key}: {reason}")]
    InvalidValue { key: String, reason: String },
    #[error("{key}: {source}")]
    Texture {
        key: String,
        #[source]
        source: quadtex_format::Error,
    },
    #[error("{key}: {source}")]
    Sampler {
        key: String,
        #[source]
        source: quadtex_sampler::Error,
    },
    #[error("{key}: {path}: {source}")]
    Obj {
        key: String,
        path: PathBuf,
        #[source]
        source: tobj::LoadError,
    },
    #[error("{option}: {reason}")]
    InvalidOption {
        option: &'static str,
        reason: String,
    },
    #[error(transparent)]
    Raster(quadtex_raster::Error),
    #[error(transparent)]
    Format(quadtex_format::Error),
}

impl Error {
    /// What kind of problem this is.
    pub fn kind(&self) -> ErrorKind {
        match &*self.0 {
            Repr::Io { .. } => ErrorKind::Io,
            Repr::Parse { .. } => ErrorKind::Parse,
            Repr::MissingFile { .. } => ErrorKind::MissingFile,
            Repr::UnknownName { .. } => ErrorKind::UnknownName,
            Repr::MissingReference { .. } => ErrorKind::MissingReference,
            Repr::InvalidValue { .. } => ErrorKind::InvalidValue,
            Repr::Texture { .. } => ErrorKind::Texture,
            Repr::Sampler { .. } => ErrorKind::Sampler,
            Repr::Obj { .. } => ErrorKind::Obj,
            Repr::InvalidOption { .. } => ErrorKind::InvalidOption,
            Repr::Raster(_) => ErrorKind::Raster,
            Repr::Format(_) => ErrorKind::Format,
        }
    }

    /// The scene-file key the error names, where it names one (parse errors
    /// carry theirs in the message; render errors name none).
    pub fn key(&self) -> Option<&str> {
        match &*self.0 {
            Repr::MissingFile { key, .. }
            | Repr::UnknownName { key, .. }
            | Repr::MissingReference { key, .. }
            | Repr::InvalidValue { key, .. }
            | Repr::Texture { key, .. }
            | Repr::Sampler { key, .. }
            | Repr::Obj { key, .. } => Some(key),
            Repr::Io { .. }
            | Repr::Parse { .. }
            | Repr::InvalidOption { .. }
            | Repr::Raster(_)
            | Repr::Format(_) => None,
        }
    }

    /// The file concerned: the scene file that could not be read or
    /// parsed, a file it names that is missing, an OBJ that did not load.
    pub fn path(&self) -> Option<&Path> {
        match &*self.0 {
            Repr::Io { path, .. }
            | Repr::Parse { path, .. }
            | Repr::MissingFile { path, .. }
            | Repr::Obj { path, .. } => Some(path),
            _ => None,
        }
    }

    /// The render option at fault, for [`ErrorKind::InvalidOption`].
    pub fn option(&self) -> Option<&'static str> {
        match &*self.0 {
            Repr::InvalidOption { option, .. } => Some(option),
            _ => None,
        }
    }

    /// What kind of name an [`ErrorKind::UnknownName`] or
    /// [`ErrorKind::MissingReference`] is about (`shader`, `texture
    /// format`, `material`, ...).
    pub fn what(&self) -> Option<&'static str> {
        match &*self.0 {
            Repr::UnknownName { what, .. } | Repr::MissingReference { what, .. } => Some(what),
            _ => None,
        }
    }

    /// The name given, for [`ErrorKind::UnknownName`] and
    /// [`ErrorKind::MissingReference`].
    pub fn value(&self) -> Option<&str> {
        match &*self.0 {
            Repr::UnknownName { value, .. } => Some(value),
            Repr::MissingReference { name, .. } => Some(name),
            _ => None,
        }
    }

    /// The rasterizer's error, for [`ErrorKind::Raster`].
    pub fn raster(&self) -> Option<&quadtex_raster::Error> {
        match &*self.0 {
            Repr::Raster(e) => Some(e),
            _ => None,
        }
    }

    /// This error with an [`ErrorKind::InvalidValue`]'s key `f` replaced
    /// by `rekey(f)` (a relative key made absolute); others unchanged.
    pub(crate) fn rekey(self, rekey: impl FnOnce(&str) -> String) -> Error {
        match *self.0 {
            Repr::InvalidValue { key, reason } => invalid(rekey(&key), reason),
            r => Error(Box::new(r)),
        }
    }

    pub(crate) fn io(path: PathBuf, source: std::io::Error) -> Error {
        Error(Box::new(Repr::Io { path, source }))
    }

    pub(crate) fn parse(path: PathBuf, source: Box<toml::de::Error>) -> Error {
        Error(Box::new(Repr::Parse { path, source }))
    }

    pub(crate) fn missing_file(key: String, path: PathBuf) -> Error {
        Error(Box::new(Repr::MissingFile { key, path }))
    }

    pub(crate) fn unknown_name(
        key: String,
        what: &'static str,
        value: String,
        expected: String,
    ) -> Error {
        Error(Box::new(Repr::UnknownName {
            key,
            what,
            value,
            expected,
        }))
    }

    pub(crate) fn missing_reference(key: String, what: &'static str, name: String) -> Error {
        Error(Box::new(Repr::MissingReference { key, what, name }))
    }

    pub(crate) fn texture(key: String, source: quadtex_format::Error) -> Error {
        Error(Box::new(Repr::Texture { key, source }))
    }

    pub(crate) fn sampler(key: String, source: quadtex_sampler::Error) -> Error {
        Error(Box::new(Repr::Sampler { key, source }))
    }

    pub(crate) fn obj(key: String, path: PathBuf, source: tobj::LoadError) -> Error {
        Error(Box::new(Repr::Obj { key, path, source }))
    }

    pub(crate) fn invalid_option(option: &'static str, reason: String) -> Error {
        Error(Box::new(Repr::InvalidOption { option, reason }))
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&*self.0)
    }
}

impl From<quadtex_raster::Error> for Error {
    fn from(e: quadtex_raster::Error) -> Error {
        Error(Box::new(Repr::Raster(e)))
    }
}

impl From<quadtex_format::Error> for Error {
    fn from(e: quadtex_format::Error) -> Error {
        Error(Box::new(Repr::Format(e)))
    }
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An [`ErrorKind::InvalidValue`] at `key`.
pub(crate) fn invalid(key: impl Into<String>, reason: impl Into<String>) -> Error {
    Error(Box::new(Repr::InvalidValue {
        key: key.into(),
        reason: reason.into(),
    }))
}
