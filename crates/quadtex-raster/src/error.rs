//! The crate's error type.

/// What can go wrong building or rendering a frame. The per-quad paths
/// never fail; these come from setup and conversions.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The frame asks for a sample count other than 1, 4 or 8.
    #[error("unsupported sample count {0} (1, 4 or 8)")]
    Samples(u32),
    /// The frame's targets would hold more than [`MAX_TARGET_SAMPLES`]
    /// samples, or are wider or taller than [`MAX_TARGET_EXTENT`].
    #[error(
        "a {0} x {1} target with {2} samples is too large (at most {max_extent} pixels a side and {max_samples} samples in all)",
        max_extent = MAX_TARGET_EXTENT,
        max_samples = MAX_TARGET_SAMPLES
    )]
    TooLarge(u32, u32, u32),
    /// A buffer could not be allocated: the memory is not there. Large
    /// buffers (targets, tiles, textures made here, mesh copies) are
    /// reserved fallibly, so a frame too big for the machine is this error
    /// rather than an abort.
    #[error("out of memory: cannot allocate {bytes} bytes for the {what}")]
    OutOfMemory {
        /// What the buffer was for (`colour target`, `depth target`, ...).
        what: &'static str,
        /// The bytes asked for (saturating at `u64::MAX`).
        bytes: u64,
    },
    /// The worker pool could not be built.
    #[error("thread pool: {0}")]
    ThreadPool(String),
    /// A target of zero width or height cannot become a texture.
    #[error("a target of zero size cannot become a texture")]
    EmptyTarget,
    /// Cube faces must be six square single-sampled targets of one size.
    #[error("cube faces must be six square single-sampled targets of one size")]
    BadCube,
    /// A format-crate error (encoding, texture creation, PNG).
    #[error(transparent)]
    Format(#[from] quadtex_format::Error),
    /// A sampler-crate error (header validation).
    #[error(transparent)]
    Sampler(#[from] quadtex_sampler::Error),
    /// Writing a file failed.
    #[error("i/o: {0}")]
    Io(String),
    /// A render option is out of range (`option` names it: `width`,
    /// `msaa`, `frame`, ...).
    #[error("{option}: {reason}")]
    InvalidOption {
        /// The option.
        option: &'static str,
        /// What is wrong with its value.
        reason: String,
    },
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
