//! The crate's error type.

/// What can go wrong building or rendering a frame. The per-quad paths
/// never fail; these come from setup and conversions.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The memory for a target could not be allocated.
    #[error("cannot allocate {0} bytes for the render targets")]
    OutOfMemory(u64),
    /// The frame asks for a sample count other than 1, 4 or 8.
    #[error("unsupported sample count {0} (1, 4 or 8)")]
    Samples(u32),
    /// The frame's targets would be wider or taller than
    /// [`MAX_TARGET_EXTENT`], or hold more than [`MAX_TARGET_SAMPLES`]
    /// samples.
    #[error("a {0} x {1} target with {2} samples is too large")]
    TooLarge(u32, u32, u32),
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
    /// Loading a scene file failed; the scene error names the key or path.
    #[error(transparent)]
    Scene(#[from] crate::scene::SceneError),
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

/// The largest width or height of a frame's targets (Vulkan's
/// `maxFramebufferWidth` on desktop drivers). With the guard band it
/// bounds every snapped vertex coordinate below 2^23 in fixed point, so the
/// edge-function products stay far inside i64 (`setup.rs`).
pub const MAX_TARGET_EXTENT: u32 = 16384;

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
