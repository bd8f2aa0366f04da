//! The crate's one error type. Every loader, constructor and codec returns
//! it; the categories are variants, each naming what was wrong.

use crate::format::TextureFormat;

/// Everything that can go wrong in `quadtex-format`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A format name that is not a known Vulkan format.
    #[error("unknown texture format `{0}`")]
    UnknownFormat(String),
    /// A texture kind name that is not known.
    #[error("unknown texture kind `{0}` (expected 1d, 2d, 3d, cube, 1d_array, 2d_array, cube_array, 2d_ms or 2d_ms_array)")]
    UnknownKind(String),
    /// An impossible texture description.
    #[error("invalid texture description: {0}")]
    InvalidDesc(String),
    /// A byte buffer of the wrong size for what it should hold.
    #[error("{what}: expected {expected} bytes, got {actual}")]
    WrongSize {
        /// What the buffer was for.
        what: &'static str,
        /// Bytes required.
        expected: u64,
        /// Bytes given.
        actual: u64,
    },
    /// A subresource or texel index outside the texture.
    #[error("out of range: {0}")]
    OutOfRange(String),
    /// An operation the format cannot do (encoding a compressed format,
    /// filtering an integer format, ...).
    #[error("{format}: {what}")]
    Unsupported {
        /// The format concerned.
        format: TextureFormat,
        /// What it cannot do.
        what: &'static str,
    },
    /// A texel value of the wrong numeric class for the format
    /// (integers written to a float format, or the reverse).
    #[error("{format}: texel value is {given}, format needs {needed}")]
    TexelClass {
        /// The format written.
        format: TextureFormat,
        /// What the format needs.
        needed: &'static str,
        /// What was given.
        given: &'static str,
    },
    /// A malformed, truncated or unsupported container file.
    #[error("{container}: {reason}")]
    Container {
        /// `KTX2`, `DDS`, `image`, ...
        container: &'static str,
        /// What was wrong, naming the field or offset.
        reason: String,
    },
    /// Texel storage that could not be allocated: the description is valid
    /// but the memory is not there.
    #[error("cannot allocate {bytes} bytes for {what}")]
    OutOfMemory {
        /// What the memory was for.
        what: &'static str,
        /// Bytes asked for.
        bytes: u64,
    },
    /// Reading the file at `path` failed with `source` (the loaders'
    /// errors name the file they read).
    #[error("{path}: {source}")]
    InFile {
        /// The file.
        path: String,
        /// What was wrong with it.
        #[source]
        source: Box<Error>,
    },
    /// An I/O failure reading or writing a file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `n` copies of `v`, or [`Error::OutOfMemory`] for `what`: for scratch
/// buffers sized by a texture (levels reach gigabytes), where `vec!` would
/// abort the process.
pub(crate) fn try_filled<T: Clone>(n: usize, v: T, what: &'static str) -> Result<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| Error::OutOfMemory {
        what,
        bytes: (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
    })?;
    out.resize(n, v);
    Ok(out)
}

impl Error {
    #[cfg(feature = "io")]
    pub(crate) fn container(container: &'static str, reason: impl Into<String>) -> Error {
        Error::Container {
            container,
            reason: reason.into(),
        }
    }
}
