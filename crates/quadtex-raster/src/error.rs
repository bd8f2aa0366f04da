//! The crate's error type: one opaque [`Error`] with an [`ErrorKind`].

use std::path::{Path, PathBuf};

/// What can go wrong building or rendering a frame: what kind of problem
/// it is ([`Error::kind`]), a message naming the buffer, option or file
/// (`Display`), and the cause where there is one
/// ([`source`](std::error::Error::source)). The per-quad paths never
/// fail; these come from setup and conversions.
#[derive(Debug)]
pub struct Error(Box<Repr>);

/// What kind of problem an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The frame asks for a sample count other than 1, 4 or 8.
    Samples,
    /// The frame's targets would hold more than [`MAX_TARGET_SAMPLES`]
    /// samples, or are wider or taller than [`MAX_TARGET_EXTENT`].
    TooLarge,
    /// A buffer could not be allocated: the memory is not there. Large
    /// buffers (targets, tiles, textures made here, mesh copies) are
    /// reserved fallibly, so a frame too big for the machine is this error
    /// rather than an abort.
    OutOfMemory,
    /// The worker pool could not be built.
    ThreadPool,
    /// A target of zero width or height cannot become a texture.
    EmptyTarget,
    /// Cube faces must be six square single-sampled targets of one size.
    BadCube,
    /// A format-crate error (encoding, texture creation); the source is the
    /// [`quadtex_format::Error`].
    Format,
    /// A sampler-crate error (header validation); the source is the
    /// [`quadtex_sampler::Error`].
    Sampler,
    /// Encoding or writing a file failed.
    Io,
    /// A render option is out of range; [`Error::option`] names it
    /// (`width`, `msaa`, `threads`, `data`, ...).
    InvalidOption,
}

/// What an [`Error`] holds.
#[derive(Debug, thiserror::Error)]
enum Repr {
    #[error("unsupported sample count {0} (1, 4 or 8)")]
    Samples(u32),
    #[error(
        "a {0} x {1} target with {2} samples is too large (at most {max_extent} pixels a side and {max_samples} samples in all)",
        max_extent = MAX_TARGET_EXTENT,
        max_samples = MAX_TARGET_SAMPLES
    )]
    TooLarge(u32, u32, u32),
    #[error("out of memory: cannot allocate {bytes} bytes for the {what}")]
    OutOfMemory { what: &'static str, bytes: u64 },
    #[error("thread pool: {0}")]
    ThreadPool(#[source] rayon::ThreadPoolBuildError),
    #[error("a target of zero size cannot become a texture")]
    EmptyTarget,
    #[error("cube faces must be six square single-sampled targets of one size")]
    BadCube,
    #[error(transparent)]
    Format(quadtex_format::Error),
    #[error(transparent)]
    Sampler(quadtex_sampler::Error),
    #[error("i/o: {0}")]
    Encode(#[source] image::ImageError),
    #[error("i/o: {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{option}: {reason}")]
    InvalidOption {
        option: &'static str,
        reason: String,
    },
}

impl Error {
    /// What kind of problem this is.
    pub fn kind(&self) -> ErrorKind {
        match &*self.0 {
            Repr::Samples(_) => ErrorKind::Samples,
            Repr::TooLarge(..) => ErrorKind::TooLarge,
            Repr::OutOfMemory { .. } => ErrorKind::OutOfMemory,
            Repr::ThreadPool(_) => ErrorKind::ThreadPool,
            Repr::EmptyTarget => ErrorKind::EmptyTarget,
            Repr::BadCube => ErrorKind::BadCube,
            Repr::Format(_) => ErrorKind::Format,
            Repr::Sampler(_) => ErrorKind::Sampler,
            Repr::Encode(_) | Repr::Io { .. } => ErrorKind::Io,
            Repr::InvalidOption { .. } => ErrorKind::InvalidOption,
        }
    }

    /// The render option at fault, for [`ErrorKind::InvalidOption`].
    pub fn option(&self) -> Option<&'static str> {
        match &*self.0 {
            Repr::InvalidOption { option, .. } => Some(option),
            _ => None,
        }
    }

    /// What the allocation was for and how many bytes it asked for, for
    /// [`ErrorKind::OutOfMemory`] (the bytes saturate at `u64::MAX`).
    pub fn allocation(&self) -> Option<(&'static str, u64)> {
        match &*self.0 {
            Repr::OutOfMemory { what, bytes } => Some((what, *bytes)),
            _ => None,
        }
    }

    /// The target's width, height and samples, for [`ErrorKind::TooLarge`].
    pub fn target_size(&self) -> Option<(u32, u32, u32)> {
        match &*self.0 {
            Repr::TooLarge(w, h, s) => Some((*w, *h, *s)),
            _ => None,
        }
    }

    pub(crate) fn samples(n: u32) -> Error {
        Error(Box::new(Repr::Samples(n)))
    }

    pub(crate) fn too_large(w: u32, h: u32, s: u32) -> Error {
        Error(Box::new(Repr::TooLarge(w, h, s)))
    }

    pub(crate) fn out_of_memory(what: &'static str, bytes: u64) -> Error {
        Error(Box::new(Repr::OutOfMemory { what, bytes }))
    }

    pub(crate) fn thread_pool(e: rayon::ThreadPoolBuildError) -> Error {
        Error(Box::new(Repr::ThreadPool(e)))
    }

    pub(crate) fn empty_target() -> Error {
        Error(Box::new(Repr::EmptyTarget))
    }

    pub(crate) fn bad_cube() -> Error {
        Error(Box::new(Repr::BadCube))
    }

    pub(crate) fn encode(e: image::ImageError) -> Error {
        Error(Box::new(Repr::Encode(e)))
    }

    pub(crate) fn io(path: &Path, source: std::io::Error) -> Error {
        Error(Box::new(Repr::Io {
            path: path.to_owned(),
            source,
        }))
    }

    /// A render option out of range: `option` names it. For front-ends
    /// that check their own options and report them as the renderer does.
    pub fn invalid_option(option: &'static str, reason: impl Into<String>) -> Error {
        Error(Box::new(Repr::InvalidOption {
            option,
            reason: reason.into(),
        }))
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

impl From<quadtex_format::Error> for Error {
    fn from(e: quadtex_format::Error) -> Error {
        Error(Box::new(Repr::Format(e)))
    }
}

impl From<quadtex_sampler::Error> for Error {
    fn from(e: quadtex_sampler::Error) -> Error {
        Error(Box::new(Repr::Sampler(e)))
    }
}

/// The most samples (width x height x samples) a frame's targets may hold:
/// 2^28, 4 GiB of colour.
pub const MAX_TARGET_SAMPLES: u64 = 1 << 28;

/// The largest width or height of a frame's targets: 2^15 pixels. Together
/// with the guard band and 8 sub-pixel bits this bounds every fixed-point
/// value of triangle setup and rasterization below 2^52 (see the setup
/// module), so the i64 edge functions cannot overflow.
pub const MAX_TARGET_EXTENT: u32 = 1 << 15;

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
