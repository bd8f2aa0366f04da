//! The crate's one error type. Every loader, constructor and codec returns
//! an [`Error`]: what kind of problem it is ([`Error::kind`], an
//! [`ErrorKind`]), a message naming the field, size or offset (`Display`),
//! the file it came from where there is one ([`Error::path`]), and the
//! underlying error where there is one
//! ([`source`](std::error::Error::source)).

use std::path::Path;

use crate::format::TextureFormat;

/// Everything that can go wrong in `quadtex-format`.
///
/// Opaque: match on [`Error::kind`], read the message with `Display`, and
/// the structured data with [`Error::path`] and [`Error::format`]. An
/// error met while loading a file names it: its message starts with the
/// path, [`Error::path`] returns it, and its kind is the kind of what was
/// wrong with the file.
#[derive(Debug)]
pub struct Error(Box<Repr>);

/// What kind of problem an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A format name that is not a known Vulkan format (parsing a
    /// [`TextureFormat`]).
    UnknownFormat,
    /// A texture kind name that is not known (parsing a
    /// [`TextureKind`](crate::TextureKind)).
    UnknownKind,
    /// An impossible texture description
    /// ([`TextureDesc::validate`](crate::TextureDesc::validate)): a zero
    /// or too large extent, too many levels, a format the kind cannot
    /// hold, ...
    InvalidDesc,
    /// A byte buffer of the wrong size for what it should hold (texture
    /// or subresource data, a texel, a compressed block).
    WrongSize,
    /// A subresource, texel or sparse tile index outside the texture.
    OutOfRange,
    /// An operation the format cannot do (encoding a compressed format,
    /// filtering an integer format, ...); [`Error::format`] names the
    /// format.
    Unsupported,
    /// A texel value of the wrong numeric class for the format (integers
    /// written to a float format, or the reverse); [`Error::format`] names
    /// the format.
    TexelClass,
    /// A malformed, truncated or unsupported container file (KTX2, DDS, an
    /// image file), or a texture a container cannot hold; the message
    /// names the container and the field or offset.
    Container,
    /// Storage that could not be allocated: the description is valid but
    /// the memory is not there.
    OutOfMemory,
    /// An I/O failure reading or writing a file; [`Error::path`] names the
    /// file, and the source is the [`std::io::Error`].
    Io,
}

/// What an [`Error`] holds: the data of each kind, and the messages.
#[derive(Debug, thiserror::Error)]
enum Repr {
    #[error("unknown texture format `{0}`")]
    UnknownFormat(String),
    #[error("unknown texture kind `{0}` (expected 1d, 2d, 3d, cube, 1d_array, 2d_array, cube_array, 2d_ms or 2d_ms_array)")]
    UnknownKind(String),
    #[error("invalid texture description: {0}")]
    InvalidDesc(String),
    #[error("{what}: expected {expected} bytes, got {actual}")]
    WrongSize {
        what: &'static str,
        expected: u64,
        actual: u64,
    },
    #[error("out of range: {0}")]
    OutOfRange(String),
    #[error("{format}: {what}")]
    Unsupported {
        format: TextureFormat,
        what: &'static str,
    },
    #[error("{format}: texel value is {given}, format needs {needed}")]
    TexelClass {
        format: TextureFormat,
        needed: &'static str,
        given: &'static str,
    },
    #[cfg(feature = "io")]
    #[error("{container}: {reason}")]
    Container {
        container: &'static str,
        reason: String,
    },
    #[error("cannot allocate {bytes} bytes for {what}")]
    OutOfMemory { what: &'static str, bytes: u64 },
    /// Context, not a kind: the error `source` met in the file at `path`.
    #[cfg(feature = "io")]
    #[error("{}: {source}", .path.display())]
    InFile {
        path: std::path::PathBuf,
        #[source]
        source: Error,
    },
    #[cfg(feature = "io")]
    #[error("{}: {source}", .path.display())]
    Io {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `n` copies of `v`, or an [`ErrorKind::OutOfMemory`] error for `what`:
/// for scratch buffers sized by a texture (levels reach gigabytes), where
/// `vec!` would abort the process.
pub(crate) fn try_filled<T: Clone>(n: usize, v: T, what: &'static str) -> Result<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| {
        Error::out_of_memory(
            what,
            (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        )
    })?;
    out.resize(n, v);
    Ok(out)
}

impl Error {
    fn new(repr: Repr) -> Error {
        Error(Box::new(repr))
    }

    /// An [`ErrorKind::WrongSize`] error: `what` (the buffer's use, as
    /// `"texture data"`) holds `actual` bytes where it needs `expected`.
    pub fn wrong_size(what: &'static str, expected: u64, actual: u64) -> Error {
        Error::new(Repr::WrongSize {
            what,
            expected,
            actual,
        })
    }

    /// An [`ErrorKind::Unsupported`] error: `format` cannot do `what`.
    pub fn unsupported(format: TextureFormat, what: &'static str) -> Error {
        Error::new(Repr::Unsupported { format, what })
    }

    /// An [`ErrorKind::OutOfMemory`] error: `bytes` bytes for `what` could
    /// not be allocated.
    pub fn out_of_memory(what: &'static str, bytes: u64) -> Error {
        Error::new(Repr::OutOfMemory { what, bytes })
    }

    pub(crate) fn unknown_format(name: impl Into<String>) -> Error {
        Error::new(Repr::UnknownFormat(name.into()))
    }

    pub(crate) fn unknown_kind(name: impl Into<String>) -> Error {
        Error::new(Repr::UnknownKind(name.into()))
    }

    pub(crate) fn invalid_desc(reason: impl Into<String>) -> Error {
        Error::new(Repr::InvalidDesc(reason.into()))
    }

    pub(crate) fn out_of_range(what: impl Into<String>) -> Error {
        Error::new(Repr::OutOfRange(what.into()))
    }

    pub(crate) fn texel_class(
        format: TextureFormat,
        needed: &'static str,
        given: &'static str,
    ) -> Error {
        Error::new(Repr::TexelClass {
            format,
            needed,
            given,
        })
    }

    #[cfg(feature = "io")]
    pub(crate) fn container(container: &'static str, reason: impl Into<String>) -> Error {
        Error::new(Repr::Container {
            container,
            reason: reason.into(),
        })
    }

    /// This error, met in the file at `path`.
    #[cfg(feature = "io")]
    pub(crate) fn in_file(self, path: &Path) -> Error {
        Error::new(Repr::InFile {
            path: path.to_owned(),
            source: self,
        })
    }

    #[cfg(feature = "io")]
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Error {
        Error::new(Repr::Io {
            path: path.to_owned(),
            source,
        })
    }

    /// What kind of problem this is. An error met in a file is of the kind
    /// of what was wrong with it (an [`ErrorKind::Container`] error for a
    /// truncated KTX2 file, ...); [`Error::path`] names the file.
    pub fn kind(&self) -> ErrorKind {
        match &*self.0 {
            Repr::UnknownFormat(_) => ErrorKind::UnknownFormat,
            Repr::UnknownKind(_) => ErrorKind::UnknownKind,
            Repr::InvalidDesc(_) => ErrorKind::InvalidDesc,
            Repr::WrongSize { .. } => ErrorKind::WrongSize,
            Repr::OutOfRange(_) => ErrorKind::OutOfRange,
            Repr::Unsupported { .. } => ErrorKind::Unsupported,
            Repr::TexelClass { .. } => ErrorKind::TexelClass,
            Repr::OutOfMemory { .. } => ErrorKind::OutOfMemory,
            #[cfg(feature = "io")]
            Repr::Container { .. } => ErrorKind::Container,
            #[cfg(feature = "io")]
            Repr::Io { .. } => ErrorKind::Io,
            #[cfg(feature = "io")]
            Repr::InFile { source, .. } => source.kind(),
        }
    }

    /// The file the error was met in, where there is one: a file that could
    /// not be read or written ([`ErrorKind::Io`]), or one whose content was
    /// wrong (the loaders of `io` name the file they read). Always `None`
    /// without the feature `io`.
    pub fn path(&self) -> Option<&Path> {
        match &*self.0 {
            #[cfg(feature = "io")]
            Repr::InFile { path, .. } | Repr::Io { path, .. } => Some(path),
            _ => None,
        }
    }

    /// The format concerned, for an [`ErrorKind::Unsupported`] or
    /// [`ErrorKind::TexelClass`] error.
    pub fn format(&self) -> Option<TextureFormat> {
        match &*self.0 {
            Repr::Unsupported { format, .. } | Repr::TexelClass { format, .. } => Some(*format),
            #[cfg(feature = "io")]
            Repr::InFile { source, .. } => source.format(),
            _ => None,
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Aspect, Layout, Texel, TexelAddr, Texture, TextureDesc, TextureKind};
    use TextureFormat as F;

    fn err<T: std::fmt::Debug>(r: Result<T>) -> Error {
        r.expect_err("an error")
    }

    #[test]
    fn every_kind_from_the_public_api() {
        let e = err("VK_FORMAT_NOPE".parse::<TextureFormat>());
        assert_eq!(e.kind(), ErrorKind::UnknownFormat);
        assert_eq!(e.to_string(), "unknown texture format `VK_FORMAT_NOPE`");

        let e = err("4d".parse::<TextureKind>());
        assert_eq!(e.kind(), ErrorKind::UnknownKind);

        let e = err(TextureDesc::d2(F::Rgba8Unorm, 0, 4)
            .with_levels(1)
            .validate());
        assert_eq!(e.kind(), ErrorKind::InvalidDesc);
        assert!(
            e.to_string().starts_with("invalid texture description: "),
            "{e}"
        );

        let d = TextureDesc::d2(F::Rgba8Unorm, 4, 4).with_levels(1);
        let e = err(Texture::from_linear_bytes(d, Layout::Linear, &[0; 63]));
        assert_eq!(e.kind(), ErrorKind::WrongSize);
        assert_eq!(e.to_string(), "texture data: expected 64 bytes, got 63");
        assert_eq!((e.format(), e.path()), (None, None));

        let mut t = Texture::new(d, Layout::Linear).unwrap();
        let e = err(t.write_texel(TexelAddr::at(4, 0), Aspect::Color, Texel::Float([0.0; 4])));
        assert_eq!(e.kind(), ErrorKind::OutOfRange);
        assert_eq!(
            e.to_string(),
            "out of range: texel (4, 0, 0) of a 4x4x1 level"
        );

        let e = err(t.write_texel(TexelAddr::at(0, 0), Aspect::Color, Texel::Uint([1; 4])));
        assert_eq!(e.kind(), ErrorKind::TexelClass);
        assert_eq!(e.format(), Some(F::Rgba8Unorm));
        assert_eq!(
            e.to_string(),
            format!(
                "{}: texel value is unsigned integer, format needs float",
                F::Rgba8Unorm
            )
        );

        let mut out = [[0.0f32; 4]; 16];
        let e = err(crate::compressed::decode_block(
            F::R8Unorm,
            &[0; 16],
            &mut out,
        ));
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        assert_eq!(e.format(), Some(F::R8Unorm));

        // Not reachable without exhausting memory: the public constructor.
        let e = Error::out_of_memory("texture storage", 1 << 40);
        assert_eq!(e.kind(), ErrorKind::OutOfMemory);
        assert_eq!(
            e.to_string(),
            "cannot allocate 1099511627776 bytes for texture storage"
        );
    }

    #[cfg(feature = "io")]
    #[test]
    fn file_errors_name_the_file_and_keep_the_inner_kind() {
        use std::error::Error as _;

        let e = err(crate::io::load_bytes(b"not an image at all"));
        assert_eq!(e.kind(), ErrorKind::Container);
        assert_eq!(e.path(), None);

        let missing = Path::new("/nonexistent/quadtex/x.ktx2");
        let e = err(crate::io::load_file(missing));
        assert_eq!(e.kind(), ErrorKind::Io);
        assert_eq!(e.path(), Some(missing));
        assert!(e.source().unwrap().is::<std::io::Error>());

        // A file that is no texture: the image decoder's complaint, in the
        // file.
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        let e = err(crate::io::load_file(&manifest));
        assert_eq!(e.kind(), ErrorKind::Container);
        assert_eq!(e.path(), Some(manifest.as_path()));
        assert_eq!(e.format(), None);
        let inner = e.source().unwrap().downcast_ref::<Error>().unwrap();
        assert_eq!(inner.kind(), ErrorKind::Container);
        assert_eq!(inner.path(), None);
        assert_eq!(e.to_string(), format!("{}: {inner}", manifest.display()));
        assert!(inner.to_string().starts_with("image: "), "{inner}");
    }
}
