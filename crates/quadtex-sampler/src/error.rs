//! The crate's one error type: what a constructor, a validator or an
//! instruction front-end ([`isa`](crate::isa)) rejects. Sampling itself
//! never fails; invalid inputs there give defined results.

/// Everything `quadtex-sampler` rejects: what kind of problem it is
/// ([`Error::kind`]), a message naming the value or the token at fault
/// (`Display`), the offending token of an instruction ([`Error::token`]),
/// the key path of a description field ([`Error::field`]), and the format
/// crate's error where there is one ([`source`](std::error::Error::source)).
///
/// The headers, pools and profiles and the three ISA front-ends (SASS,
/// PTX, D3D) all return it:
///
/// ```
/// use quadtex_sampler::isa::ptx;
/// use quadtex_sampler::ErrorKind;
///
/// // PTX ISA 9.7.10.3: no offset operand on a cube map.
/// let e = ptx::parse("tex.cube.v4.f32.f32 {a,b,c,d}, [t, {x,y,z,w}], {1, 1};")
///     .unwrap_err();
/// assert_eq!(e.kind(), ErrorKind::NotSupported);
/// assert_eq!(e.token(), Some("{1, 1}"));
/// assert_eq!(e.to_string(), "offset `{1, 1}` not supported for cubemaps");
/// ```
#[derive(Debug)]
pub struct Error(Box<Repr>);

/// What kind of problem an [`Error`] is.
///
/// The first six come from the headers, pools, profiles and descriptions;
/// the rest from the instruction front-ends ([`isa`](crate::isa)), where
/// [`Error::token`] gives the offending token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An impossible texture header (view) for its texture
    /// ([`TextureHeader::validate`](crate::TextureHeader::validate)).
    InvalidHeader,
    /// An impossible sampler, alone or with the view it reads
    /// ([`SamplerHeader::validate`](crate::SamplerHeader::validate),
    /// [`SamplerHeader::validate_with`](crate::SamplerHeader::validate_with)).
    InvalidSampler,
    /// A profile with impossible knobs
    /// ([`Profile::validate`](crate::Profile::validate)).
    InvalidProfile,
    /// A pool index or handle out of range where a valid one is required
    /// ([`Pools`](crate::Pools)).
    InvalidIndex,
    /// A field of a description (the `desc` module, with the `serde`
    /// feature) with a value that is not valid; [`Error::field`] names it by its key path
    /// (`sampler.address[1]`) and [`Error::reason`] says what is wrong.
    InvalidField,
    /// A texture the format crate rejects (the source is a
    /// [`quadtex_format::Error`]).
    Format,
    /// Not an instruction the front-end knows: PTX `tex`, `tld4`, `txq`,
    /// `istypep`; SASS `TLD4`, `TMML`, `TEX`, `TLD`, `TXQ`; D3D `ld2dms`
    /// (with its `_aoffimmi(...)` suffix well formed).
    UnknownOpcode,
    /// A modifier the opcode does not take, a missing one, or one too many
    /// (PTX `.geom`, `.v4`, types; SASS `.B`, `.AOFFI`, LOD modes and the
    /// like; a SASS TLD4 component past `.A`).
    BadModifier,
    /// An operand that does not parse or has the wrong shape: vector
    /// length, brackets, a register name, an immediate wider than its
    /// field (SASS `#tsPtrIdxU13`, `#wmskU04`), a D3D mask or swizzle, the
    /// wrong register file, a `.samplerref` where PTX expects a texture or
    /// a `.texref` where it expects a sampler.
    BadOperand,
    /// A texel offset outside `-8..7`: PTX ISA 9.7.10.3 ("Offset value is
    /// in the range of -8 to +7"), immediate at parse time or a register
    /// when it is read; D3D `_aoffimmi` (4-bit two's complement, the
    /// `ld2dms` reference).
    OffsetOutOfRange,
    /// An operand or modifier the instruction form does not allow: an
    /// offset on a cube or cube array (PTX ISA 9.7.10.3, "not supported
    /// for cubemap textures"; SASS `.AOFFI`/`.PTP` on a cube paramA, the
    /// TLD4 reference), a depth compare on a 3D texture (PTX ISA 9.7.10.3;
    /// SASS `.DC` with 3D), a `.surfref` as a texture or sampler (surfaces
    /// are read by `suld`/`sust`, not by texture instructions), a SASS
    /// paramA the instruction does not take (TLD4: 2D, CUBE, ARRAY_2D,
    /// ARRAY_CUBE; TLD: no cubes) and SASS `.MS` other than on 2D or
    /// with `.LL`.
    NotSupported,
    /// A PTX sampler or texture operand the texturing mode refuses or
    /// requires (PTX ISA 9.7.10.1, "Texturing Modes"): a `.samplerref`
    /// operand in `texmode_unified`, none in `texmode_independent`, or a
    /// register texture operand (indirect access, which "is supported in
    /// unified mode" only) in `texmode_independent`. The same text runs in
    /// the other mode.
    TexturingMode,
    /// A PTX texture or sampler operand that is neither a symbol
    /// ([`Symbols`](crate::isa::ptx::Symbols)) nor a written register.
    UnknownSymbol,
    /// A PTX register read before it was written.
    UnknownRegister,
    /// A SASS register tuple that breaks the TMML reference's register
    /// rules (which TLD4, TEX, TLD and TXQ share; docs/semantics.md §11):
    /// Rd, Ra or Rb not aligned to its tuple's size (rules 1 and 2), or RZ
    /// for Ra or Rb although parameters are packed there (rule 4).
    Misaligned,
}

/// What an [`Error`] holds: the data of each message. Several variants
/// can share a kind (their messages differ by front-end or rule).
#[derive(Debug, thiserror::Error)]
enum Repr {
    #[error("invalid texture header: {0}")]
    InvalidHeader(String),
    #[error("invalid sampler: {0}")]
    InvalidSampler(String),
    #[error("invalid profile: {0}")]
    InvalidProfile(String),
    #[error("invalid index: {0}")]
    InvalidIndex(String),
    #[error("{field}: {reason}")]
    InvalidField { field: String, reason: String },
    #[error("{0}")]
    Format(#[source] quadtex_format::Error),
    // PTX and D3D.
    #[error("unknown opcode `{0}`")]
    UnknownOpcode(String),
    #[error("bad modifier `{0}`")]
    BadModifier(String),
    #[error("bad operand `{0}`")]
    BadOperand(String),
    #[error("offset `{0}` outside -8..7")]
    OffsetOutOfRange(String),
    #[error("aoffimmi value `{0}` outside -8..7")]
    AoffimmiOutOfRange(String),
    #[error("offset `{0}` not supported for cubemaps")]
    OffsetOnCube(String),
    #[error("depth compare `{0}` not supported for 3d textures")]
    CompareOn3d(String),
    #[error("`{0}` is a .surfref, not a texture or sampler")]
    SurfaceOperand(String),
    #[error("sampler operand required in independent mode at `{0}`")]
    SamplerRequired(String),
    #[error("sampler operand `{0}` not allowed in unified mode")]
    SamplerNotAllowed(String),
    #[error("indirect texture operand `{0}` needs texmode_unified")]
    IndirectNotUnified(String),
    #[error("unknown symbol `{0}`")]
    UnknownSymbol(String),
    #[error("unknown register `{0}`")]
    UnknownRegister(String),
    // SASS.
    #[error("unexpected token `{token}`: expected {expected}")]
    Unexpected {
        kind: ErrorKind,
        token: String,
        expected: &'static str,
    },
    #[error("unsupported: {what}")]
    Refused {
        kind: ErrorKind,
        token: String,
        what: &'static str,
    },
    #[error("{operand} = {token} must be aligned to {align}")]
    Misaligned {
        operand: &'static str,
        token: String,
        align: u8,
    },
    #[error("{operand} is RZ but carries parameters")]
    RzOperand { operand: &'static str },
}

impl Error {
    fn new(r: Repr) -> Error {
        Error(Box::new(r))
    }

    pub(crate) fn invalid_header(m: impl Into<String>) -> Error {
        Error::new(Repr::InvalidHeader(m.into()))
    }

    pub(crate) fn invalid_sampler(m: impl Into<String>) -> Error {
        Error::new(Repr::InvalidSampler(m.into()))
    }

    pub(crate) fn invalid_profile(m: impl Into<String>) -> Error {
        Error::new(Repr::InvalidProfile(m.into()))
    }

    pub(crate) fn invalid_index(m: impl Into<String>) -> Error {
        Error::new(Repr::InvalidIndex(m.into()))
    }

    #[cfg_attr(
        not(feature = "serde"),
        expect(dead_code, reason = "only the descriptions (feature `serde`) make one")
    )]
    pub(crate) fn invalid_field(field: impl Into<String>, reason: impl Into<String>) -> Error {
        Error::new(Repr::InvalidField {
            field: field.into(),
            reason: reason.into(),
        })
    }

    pub(crate) fn unknown_opcode(token: impl Into<String>) -> Error {
        Error::new(Repr::UnknownOpcode(token.into()))
    }

    pub(crate) fn bad_modifier(token: impl Into<String>) -> Error {
        Error::new(Repr::BadModifier(token.into()))
    }

    pub(crate) fn bad_operand(token: impl Into<String>) -> Error {
        Error::new(Repr::BadOperand(token.into()))
    }

    /// A PTX offset outside `-8..7`.
    pub(crate) fn offset_out_of_range(token: impl Into<String>) -> Error {
        Error::new(Repr::OffsetOutOfRange(token.into()))
    }

    /// A D3D `_aoffimmi` value outside `-8..7`.
    pub(crate) fn aoffimmi_out_of_range(token: impl Into<String>) -> Error {
        Error::new(Repr::AoffimmiOutOfRange(token.into()))
    }

    pub(crate) fn offset_on_cube(token: impl Into<String>) -> Error {
        Error::new(Repr::OffsetOnCube(token.into()))
    }

    pub(crate) fn compare_on_3d(token: impl Into<String>) -> Error {
        Error::new(Repr::CompareOn3d(token.into()))
    }

    pub(crate) fn surface_operand(token: impl Into<String>) -> Error {
        Error::new(Repr::SurfaceOperand(token.into()))
    }

    pub(crate) fn sampler_required(token: impl Into<String>) -> Error {
        Error::new(Repr::SamplerRequired(token.into()))
    }

    pub(crate) fn sampler_not_allowed(token: impl Into<String>) -> Error {
        Error::new(Repr::SamplerNotAllowed(token.into()))
    }

    pub(crate) fn indirect_not_unified(token: impl Into<String>) -> Error {
        Error::new(Repr::IndirectNotUnified(token.into()))
    }

    pub(crate) fn unknown_symbol(token: impl Into<String>) -> Error {
        Error::new(Repr::UnknownSymbol(token.into()))
    }

    pub(crate) fn unknown_register(token: impl Into<String>) -> Error {
        Error::new(Repr::UnknownRegister(token.into()))
    }

    /// SASS text that does not parse: `kind` is
    /// [`UnknownOpcode`](ErrorKind::UnknownOpcode),
    /// [`BadModifier`](ErrorKind::BadModifier) or
    /// [`BadOperand`](ErrorKind::BadOperand).
    pub(crate) fn unexpected(
        kind: ErrorKind,
        token: impl Into<String>,
        expected: &'static str,
    ) -> Error {
        Error::new(Repr::Unexpected {
            kind,
            token: token.into(),
            expected,
        })
    }

    /// A SASS operand combination the references forbid
    /// ([`NotSupported`](ErrorKind::NotSupported)).
    pub(crate) fn not_supported(token: impl Into<String>, what: &'static str) -> Error {
        Error::refused(ErrorKind::NotSupported, token, what)
    }

    /// A SASS instruction struct with a field its encoding cannot hold.
    pub(crate) fn refused(kind: ErrorKind, token: impl Into<String>, what: &'static str) -> Error {
        Error::new(Repr::Refused {
            kind,
            token: token.into(),
            what,
        })
    }

    /// SASS register `R{reg}` given for `operand` (`"Rd"`, `"Ra"`, `"Rb"`)
    /// not aligned to `align`.
    pub(crate) fn misaligned(operand: &'static str, reg: u8, align: u8) -> Error {
        Error::new(Repr::Misaligned {
            operand,
            token: format!("R{reg}"),
            align,
        })
    }

    /// SASS RZ given for `operand` (`"Ra"`, `"Rb"`) that carries parameters.
    pub(crate) fn rz_operand(operand: &'static str) -> Error {
        Error::new(Repr::RzOperand { operand })
    }

    /// What kind of problem this is.
    pub fn kind(&self) -> ErrorKind {
        match &*self.0 {
            Repr::InvalidHeader(_) => ErrorKind::InvalidHeader,
            Repr::InvalidSampler(_) => ErrorKind::InvalidSampler,
            Repr::InvalidProfile(_) => ErrorKind::InvalidProfile,
            Repr::InvalidIndex(_) => ErrorKind::InvalidIndex,
            Repr::InvalidField { .. } => ErrorKind::InvalidField,
            Repr::Format(_) => ErrorKind::Format,
            Repr::UnknownOpcode(_) => ErrorKind::UnknownOpcode,
            Repr::BadModifier(_) => ErrorKind::BadModifier,
            Repr::BadOperand(_) => ErrorKind::BadOperand,
            Repr::OffsetOutOfRange(_) | Repr::AoffimmiOutOfRange(_) => ErrorKind::OffsetOutOfRange,
            Repr::OffsetOnCube(_) | Repr::CompareOn3d(_) | Repr::SurfaceOperand(_) => {
                ErrorKind::NotSupported
            }
            Repr::SamplerRequired(_) | Repr::SamplerNotAllowed(_) | Repr::IndirectNotUnified(_) => {
                ErrorKind::TexturingMode
            }
            Repr::UnknownSymbol(_) => ErrorKind::UnknownSymbol,
            Repr::UnknownRegister(_) => ErrorKind::UnknownRegister,
            Repr::Unexpected { kind, .. } | Repr::Refused { kind, .. } => *kind,
            Repr::Misaligned { .. } | Repr::RzOperand { .. } => ErrorKind::Misaligned,
        }
    }

    /// The offending token of an instruction front-end's error, as the
    /// message quotes it: an opcode, modifier, operand or offset value
    /// (`{1, 1}`, `%r5 = 8` for a register offset), a symbol or register
    /// name; for SASS, the token as read (upper case; empty at the end of
    /// the text), the modifier or paramA a rule refuses, the misaligned
    /// register (`R9`) or `RZ`. `None` for the other kinds.
    pub fn token(&self) -> Option<&str> {
        match &*self.0 {
            Repr::InvalidHeader(_)
            | Repr::InvalidSampler(_)
            | Repr::InvalidProfile(_)
            | Repr::InvalidIndex(_)
            | Repr::InvalidField { .. }
            | Repr::Format(_) => None,
            Repr::UnknownOpcode(t)
            | Repr::BadModifier(t)
            | Repr::BadOperand(t)
            | Repr::OffsetOutOfRange(t)
            | Repr::AoffimmiOutOfRange(t)
            | Repr::OffsetOnCube(t)
            | Repr::CompareOn3d(t)
            | Repr::SurfaceOperand(t)
            | Repr::SamplerRequired(t)
            | Repr::SamplerNotAllowed(t)
            | Repr::IndirectNotUnified(t)
            | Repr::UnknownSymbol(t)
            | Repr::UnknownRegister(t)
            | Repr::Unexpected { token: t, .. }
            | Repr::Refused { token: t, .. }
            | Repr::Misaligned { token: t, .. } => Some(t),
            Repr::RzOperand { .. } => Some("RZ"),
        }
    }

    /// The key path of the description field at fault
    /// (`sampler.address[1]`): every [`ErrorKind::InvalidField`] error,
    /// `None` for the others.
    pub fn field(&self) -> Option<&str> {
        match &*self.0 {
            Repr::InvalidField { field, .. } => Some(field),
            _ => None,
        }
    }

    /// What is wrong with the field of an [`ErrorKind::InvalidField`]
    /// error (the message after `field: `); `None` for the other kinds.
    pub fn reason(&self) -> Option<&str> {
        match &*self.0 {
            Repr::InvalidField { reason, .. } => Some(reason),
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

impl From<quadtex_format::Error> for Error {
    fn from(e: quadtex_format::Error) -> Error {
        Error::new(Repr::Format(e))
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat};

    use super::*;
    use crate::isa::{d3d, ptx, sass};
    use crate::pool::{Pools, TexturingMode};
    use crate::{Profile, TextureHeader};

    /// Kind, token and message.
    fn parts(e: Error) -> (ErrorKind, Option<String>, String) {
        (e.kind(), e.token().map(str::to_owned), e.to_string())
    }

    fn want(kind: ErrorKind, token: &str, message: &str) -> (ErrorKind, Option<String>, String) {
        (kind, Some(token.to_owned()), message.to_owned())
    }

    #[test]
    fn each_front_end_kind_names_its_token() {
        use ErrorKind as K;
        // PTX, at parse time.
        let ptx = |t: &str| parts(ptx::parse(t).unwrap_err());
        for (text, kind, token, message) in [
            (
                "texx.2d.v4.f32.f32 {a,b,c,d}, [t, {x,y}];",
                K::UnknownOpcode,
                "texx.2d.v4.f32.f32",
                "unknown opcode `texx.2d.v4.f32.f32`",
            ),
            (
                "tex.2d.v4.f64.f32 {a,b,c,d}, [t, {x,y}];",
                K::BadModifier,
                "f64",
                "bad modifier `f64`",
            ),
            (
                "tex.2d.v4.f32.f32 {a,b,c}, [t, {x,y}];",
                K::BadOperand,
                "{a,b,c}",
                "bad operand `{a,b,c}`",
            ),
            (
                "tex.2d.v4.f32.f32 {a,b,c,d}, [t, {x,y}], {8, 0};",
                K::OffsetOutOfRange,
                "8",
                "offset `8` outside -8..7",
            ),
            // PTX ISA 9.7.10.3: no offset on a cube map, no depth compare
            // on a 3D texture.
            (
                "tex.cube.v4.f32.f32 {a,b,c,d}, [t, {x,y,z,w}], {1, 1};",
                K::NotSupported,
                "{1, 1}",
                "offset `{1, 1}` not supported for cubemaps",
            ),
            (
                "tex.3d.v4.f32.f32 {a,b,c,d}, [t, {x,y,z,w}], f0;",
                K::NotSupported,
                "f0",
                "depth compare `f0` not supported for 3d textures",
            ),
        ] {
            assert_eq!(ptx(text), want(kind, token, message), "{text}");
        }

        // PTX, at run time: the symbols, the registers and the mode.
        let mut symbols = ptx::Symbols::default();
        symbols.textures.insert("tex0".into(), 0);
        symbols.samplers.insert("samp0".into(), 0);
        symbols.surfaces.insert("surf0".into(), 0);
        let pools = Pools::for_ptx(TexturingMode::Unified);
        let ctx = |mode| ptx::PtxContext {
            pools: &pools,
            symbols: &symbols,
            mode,
            profile: Profile::PTX,
        };
        let (unified, independent) = (ctx(TexturingMode::Unified), ctx(TexturingMode::Independent));
        let run = |c: &ptx::PtxContext<'_>, t: &str| {
            parts(ptx::run(c, t, &mut ptx::Regs::new()).unwrap_err())
        };
        for (c, text, kind, token, message) in [
            (
                &unified,
                "tex.2d.v4.f32.f32 {a,b,c,d}, [tex0, samp0, {%f1,%f2}];",
                K::TexturingMode,
                "samp0",
                "sampler operand `samp0` not allowed in unified mode",
            ),
            (
                &independent,
                "tex.2d.v4.f32.f32 {a,b,c,d}, [tex0, {%f1,%f2}];",
                K::TexturingMode,
                "tex0",
                "sampler operand required in independent mode at `tex0`",
            ),
            (
                &unified,
                "tex.2d.v4.f32.f32 {a,b,c,d}, [surf0, {%f1,%f2}];",
                K::NotSupported,
                "surf0",
                "`surf0` is a .surfref, not a texture or sampler",
            ),
            (
                &unified,
                "tex.2d.v4.f32.f32 {a,b,c,d}, [nosuch, {%f1,%f2}];",
                K::UnknownSymbol,
                "nosuch",
                "unknown symbol `nosuch`",
            ),
            (
                &unified,
                "tex.2d.v4.f32.f32 {a,b,c,d}, [tex0, {%f1,%f2}];",
                K::UnknownRegister,
                "%f1",
                "unknown register `%f1`",
            ),
        ] {
            assert_eq!(run(c, text), want(kind, token, message), "{text}");
        }

        // SASS: tokens as read, upper case.
        let sass = |t: &str| parts(sass::parse(t).unwrap_err());
        for (text, kind, token, message) in [
            (
                "TEXX R8, R0, 5, 2D;",
                K::UnknownOpcode,
                "TEXX",
                "unexpected token `TEXX`: expected TLD4, TMML, TEX, TLD or TXQ",
            ),
            (
                "TLD4.X R8, R0, 5, 2D;",
                K::BadModifier,
                "X",
                "unexpected token `X`: expected a TLD4 modifier",
            ),
            (
                "TLD4.R R8, R0, 5, 4D;",
                K::BadOperand,
                "4D",
                "unexpected token `4D`: expected an immediate or #paramA",
            ),
            // The TLD4 reference: AOFFI and PTP are not supported with cube
            // maps.
            (
                "TLD4.R.AOFFI R8, R0, R4, 5, CUBE;",
                K::NotSupported,
                "AOFFI",
                "unsupported: AOFFI/PTP with a cube paramA",
            ),
            // The TMML reference's rule 2: a 4-register Rd aligned to 4.
            (
                "TLD4.R R9, R0, 5, 2D;",
                K::Misaligned,
                "R9",
                "Rd = R9 must be aligned to 4",
            ),
        ] {
            assert_eq!(sass(text), want(kind, token, message), "{text}");
        }

        // D3D.
        let d3d = |t: &str| parts(d3d::parse(t).unwrap_err());
        for (text, kind, token, message) in [
            (
                "ld r0.xyzw, r1.xyzw, t0.xyzw, r2.x",
                K::UnknownOpcode,
                "ld",
                "unknown opcode `ld`",
            ),
            (
                "ld2dms v0.xyzw, r1.xyzw, t0.xyzw, r2.x",
                K::BadOperand,
                "v0.xyzw",
                "bad operand `v0.xyzw`",
            ),
            (
                "ld2dms_aoffimmi(8,0,0) r0.xyzw, r1.xyzw, t0.xyzw, r2.x",
                K::OffsetOutOfRange,
                "8",
                "aoffimmi value `8` outside -8..7",
            ),
        ] {
            assert_eq!(d3d(text), want(kind, token, message), "{text}");
        }
    }

    #[test]
    fn header_and_format_errors_have_a_kind_and_no_token() {
        let texture = Texture::new(
            TextureDesc::d2(TextureFormat::R8Unorm, 4, 4),
            Layout::Linear,
        );
        let mut view = TextureHeader::new(Arc::new(texture.unwrap()));
        view.level_count = 0;
        let e = view.validate().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidHeader);
        assert!(e.to_string().starts_with("invalid texture header: "), "{e}");
        assert_eq!((e.token(), e.field(), e.reason()), (None, None, None));
        assert!(std::error::Error::source(&e).is_none());

        let format = Texture::from_linear_bytes(
            TextureDesc::d2(TextureFormat::R8Unorm, 4, 4),
            Layout::Linear,
            &[0; 3],
        )
        .unwrap_err();
        let message = format.to_string();
        let e = Error::from(format);
        assert_eq!(e.kind(), ErrorKind::Format);
        assert_eq!(e.to_string(), message);
        assert_eq!(e.token(), None);
        let source = std::error::Error::source(&e).expect("the format error");
        assert!(source.downcast_ref::<quadtex_format::Error>().is_some());
    }
}
