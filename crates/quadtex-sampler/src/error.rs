//! The crate's one error type: what a constructor or validator rejects.
//! Sampling itself never fails; invalid inputs there give defined results.

/// Everything `quadtex-sampler` rejects.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An impossible texture header (view) for its texture.
    #[error("invalid texture header: {0}")]
    InvalidHeader(String),
    /// An impossible sampler, alone or with the view it reads.
    #[error("invalid sampler: {0}")]
    InvalidSampler(String),
    /// A profile with impossible knobs ([`Profile::validate`](crate::Profile::validate)).
    #[error("invalid profile: {0}")]
    InvalidProfile(String),
    /// A pool index or handle out of range where a valid one is required.
    #[error("invalid index: {0}")]
    InvalidIndex(String),
    /// A field of a description (the `desc` module, feature `serde`) with a value that
    /// is not valid: `field` is its key path (`sampler.address[1]`).
    #[error("{field}: {reason}")]
    InvalidField {
        /// Where in the description.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An error from the format crate.
    #[error(transparent)]
    Format(#[from] quadtex_format::Error),
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
