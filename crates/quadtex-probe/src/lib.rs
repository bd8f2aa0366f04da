//! `quadtex-probe`: the probe format (`docs/probe-format.md`) as a
//! library. A case (JSON: a texture, a view, a sampler, an op and quads)
//! is read, evaluated on the sampler crate's reference paths and returned
//! as RESULT JSON whose floats read back bit-exact. `quadtex probe
//! CASE.json` is this crate's [`run`]; a conformance harness or a fuzzer
//! calls [`run_str`] or [`run_with_texels`].
//!
//! What lives here: parsing and validating a case (every bad input is an
//! [`Error`], never a panic), building the texture, the view
//! ([`TextureHeader`]) and the sampler ([`SamplerHeader`]) from it, running
//! each quad, and printing the result. The view and sampler objects are the
//! sampler crate's shared descriptions ([`quadtex_sampler::desc`], the
//! same ones scene files use). What does not live here: the sampling rules
//! themselves (`quadtex-sampler`) and the texel codecs (`quadtex-format`).
//!
//! Ops: `sample`, `gather`, `query_lod`, `fetch` and `size`, each on the
//! sampler crate's core (`sample`, `gather`, `query_lod`, `fetch`,
//! `query::size`) with the Vulkan profile.
//!
//! # Example
//!
//! A 2x2 R32F texture sampled nearest at its four texel centres:
//!
//! ```
//! let case = r#"{
//!   "texture": { "format": "R32_SFLOAT", "kind": "2d", "width": 2, "height": 2, "data": "t.bin" },
//!   "op": { "name": "sample" },
//!   "quads": [ { "coords": [[0.25, 0.25, 0, 0], [0.75, 0.25, 0, 0], [0.25, 0.75, 0, 0], [0.75, 0.75, 0, 0]] } ]
//! }"#;
//! let texels: Vec<u8> = [0.5f32, 1.0, 2.0, -3.0].iter().flat_map(|v| v.to_le_bytes()).collect();
//! let result = quadtex_probe::run_with_texels(case, &texels)?;
//! let json: serde_json::Value = serde_json::from_str(&result)?;
//! // Lanes in quad order, RGBA each (R32F reads G = B = 0, A = 1).
//! assert_eq!(json["quads"][0]["lanes"][3], serde_json::json!([-3.0, 0.0, 0.0, 1.0]));
//!
//! // A misspelt sampler field is an error naming it, not a silent default.
//! let bad = case.replace(r#""op""#, r#""sampler": { "mag_filtr": "linear" }, "op""#);
//! assert!(quadtex_probe::run_with_texels(&bad, &texels).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Choices the probe format leaves open
//!
//! Made to match the llvmpipe oracle where it has one;
//! `docs/probe-format.md`, "What quadtex adds", lists them too:
//! - Optional fields and their defaults: `texture.height`, `depth`,
//!   `layers`, `levels`, `samples` = 1; `view` = `rgba`, base level 0, the
//!   remaining levels; sampler = nearest filters, `mipmap_mode` `none`,
//!   `repeat`, border (0,0,0,0), bias 0, LOD range [0, 1000], anisotropy 1,
//!   no compare, normalized; `op.lod_mode` `implicit`, `op.derivatives`
//!   `coarse`; `active` all true; `size`'s `level` all 0.
//! - `sampler.address` takes one mode for every axis or 1 to 3 modes;
//!   missing axes repeat the last one.
//! - The sampler and view objects take the shared description's fields
//!   beyond the probe format's ([`SamplerDesc`]: `filter`,
//!   `address_u/v/w`, `border_int`, a named `border_color`,
//!   `seamless_cube`, `reduction`; [`ViewDesc`]: `base_layer`,
//!   `layer_count`, `min_lod_clamp`).
//! - Unknown fields are accepted at the top level (room for comments and
//!   provenance) and rejected inside `texture`, `view`, `sampler`, `op` and
//!   the quads, where a misspelt field would silently change the result.
//! - Integers must be JSON integers (`2`, not `2.0`); numbers are JSON
//!   numbers or the strings `"NaN"`, `"Infinity"`, `"-Infinity"`, read as
//!   f64 and rounded once to f32 (as Python's `np.float32(float(s))`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use quadtex_format::{Layout, Texel, Texture, TextureDesc, TextureFormat, TextureKind};
use quadtex_sampler::desc::{Number, SamplerDesc, ViewDesc};
use quadtex_sampler::profile::Derivatives;
use quadtex_sampler::{
    query, BorderColor, FetchArgs, Filter, GatherArgs, GatherOffsets, Lod, MipmapMode, Profile,
    Quad, SampleArgs, SamplerHeader, TextureHeader,
};
use serde::Deserialize;

/// Everything the probe rejects, all of it bad input (exit 2): what kind
/// of problem it is ([`Error::kind`]), a message naming the field or the
/// file (`Display`), and the underlying error where there is one
/// ([`source`](std::error::Error::source)).
#[derive(Debug)]
pub struct Error(Box<Repr>);

/// What kind of problem an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The case or its texel data could not be read.
    Io,
    /// The case is not JSON, or a field has the wrong JSON type.
    Json,
    /// A field of the case with an impossible value; [`Error::field`]
    /// names it by its path in the case (`quads[2].coords[1]`,
    /// `op.offset`, ...).
    InvalidField,
    /// The texture description or data, as the format crate rejects them
    /// (the source is a [`quadtex_format::Error`]).
    Texture,
    /// The view or the sampler, as the sampler crate rejects them (the
    /// source is a [`quadtex_sampler::Error`]).
    Header,
}

/// What an [`Error`] holds.
#[derive(Debug, thiserror::Error)]
enum Repr {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Json {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("{field}: {reason}")]
    Invalid { field: String, reason: String },
    #[error("texture: {0}")]
    Texture(#[source] quadtex_format::Error),
    #[error("{0}")]
    Header(#[source] quadtex_sampler::Error),
}

impl Error {
    fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Error {
        Error(Box::new(Repr::Invalid {
            field: field.into(),
            reason: reason.into(),
        }))
    }

    fn io(path: &Path, source: std::io::Error) -> Error {
        Error(Box::new(Repr::Io {
            path: path.to_owned(),
            source,
        }))
    }

    /// What kind of problem this is.
    pub fn kind(&self) -> ErrorKind {
        match *self.0 {
            Repr::Io { .. } => ErrorKind::Io,
            Repr::Json { .. } => ErrorKind::Json,
            Repr::Invalid { .. } => ErrorKind::InvalidField,
            Repr::Texture(_) => ErrorKind::Texture,
            Repr::Header(_) => ErrorKind::Header,
        }
    }

    /// The path in the case of the field at fault, where there is one:
    /// every [`ErrorKind::InvalidField`] error, and a
    /// [`ErrorKind::Header`] error about one field of the `sampler` or
    /// `view` object (`sampler.address[1]`).
    pub fn field(&self) -> Option<&str> {
        match &*self.0 {
            Repr::Invalid { field, .. } => Some(field),
            Repr::Header(e) if e.kind() == quadtex_sampler::ErrorKind::InvalidField => e.field(),
            _ => None,
        }
    }

    /// The process exit status for this error: 2, bad input.
    pub fn exit_code(&self) -> u8 {
        2
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
        Error(Box::new(Repr::Texture(e)))
    }
}

impl From<quadtex_sampler::Error> for Error {
    fn from(e: quadtex_sampler::Error) -> Error {
        Error(Box::new(Repr::Header(e)))
    }
}

/// The probe's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Reads the case at `path`, evaluates it and returns the RESULT JSON
/// document (ending in a newline).
pub fn run(path: &Path) -> Result<String> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::io(path, source))?;
    let base = path.parent().unwrap_or(Path::new("."));
    run_str(&text, path, base)
}

/// Evaluates the case `json`; `texture.data` is read relative to `base_dir`.
/// `name` only labels JSON syntax errors.
pub fn run_str(json: &str, name: &Path, base_dir: &Path) -> Result<String> {
    run_case(json, name, TexelSource::Dir(base_dir))
}

/// Evaluates the case `json` with the texel data in memory: `texels` stands
/// for the file `texture.data` names (which is not read), with the same
/// size check. For embedding the probe, and for the fuzz targets.
pub fn run_with_texels(json: &str, texels: &[u8]) -> Result<String> {
    run_case(json, Path::new("<case>"), TexelSource::Bytes(texels))
}

/// Where a case's texel data come from.
#[derive(Clone, Copy)]
enum TexelSource<'a> {
    /// The file `texture.data`, relative to this folder.
    Dir(&'a Path),
    /// These bytes.
    Bytes(&'a [u8]),
}

fn run_case(json: &str, name: &Path, texels: TexelSource<'_>) -> Result<String> {
    let case: CaseJson = serde_json::from_str(json).map_err(|source| {
        Error(Box::new(Repr::Json {
            path: name.to_owned(),
            source,
        }))
    })?;
    let op = OpName::parse(&case.op.name)?;
    let texture = load_texture(&case.texture, texels)?;
    let view = build_view(&case.view, texture)?;
    let sampler = build_sampler(&case.sampler, view.format())?;
    let derivatives = match case.op.derivatives.as_deref() {
        None | Some("coarse") => Derivatives::Coarse,
        Some("fine") => Derivatives::Fine,
        Some(other) => {
            return Err(Error::invalid(
                "op.derivatives",
                format!("`{other}` is not coarse or fine"),
            ))
        }
    };
    let offset = parse_offset(case.op.offset.as_deref())?;
    match op {
        OpName::Sample => {
            let plan = SamplePlan::new(&case.op, &view, &sampler, derivatives, offset)?;
            let mut out = Printer::new();
            for (qi, q) in case.quads.iter().enumerate() {
                let quad = plan.quad(q, qi)?;
                let (lanes, active) = plan.run(q, qi, &quad)?;
                out.quad(&lanes, active, None, None);
            }
            Ok(out.finish())
        }
        OpName::Gather => run_gather(&case, &view, &sampler),
        OpName::QueryLod => run_query_lod(&case, &view, &sampler, derivatives),
        OpName::Fetch => run_fetch(&case, &view, offset),
        OpName::Size => {
            // txq reads the image only: the sampler is parsed (types, names)
            // but not checked against the view, so multisample views and
            // samplers a sample op would refuse can still be queried.
            view.validate()?;
            let samples = query::samples(&view);
            let mut out = Printer::new();
            for (qi, q) in case.quads.iter().enumerate() {
                let w = format!("quads[{qi}]");
                let active = active_mask(q, &w)?;
                let levels = match &q.level {
                    None => [0; 4],
                    Some(v) => lanes4(v, &format!("{w}.level"), |&l, _| {
                        // Saturate: any level outside i32 is outside the view.
                        Ok(l.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
                    })?,
                };
                let lanes = levels.map(|l| LaneValue::Uint(query::size(&view, l)));
                out.quad(&lanes, active, Some([samples; 4]), None);
            }
            Ok(out.finish())
        }
    }
}

/// The ops of the probe format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OpName {
    Sample,
    Gather,
    QueryLod,
    Fetch,
    Size,
}

impl OpName {
    fn parse(s: &str) -> Result<OpName> {
        match s {
            "sample" => Ok(OpName::Sample),
            "size" => Ok(OpName::Size),
            "gather" => Ok(OpName::Gather),
            "query_lod" => Ok(OpName::QueryLod),
            "fetch" => Ok(OpName::Fetch),
            other => Err(Error::invalid(
                "op.name",
                format!("unknown op `{other}` (expected sample, gather, query_lod, fetch or size)"),
            )),
        }
    }
}

// ---------------------------------------------------------------------------
// The case as JSON
// ---------------------------------------------------------------------------

#[derive(Deserialize)]
struct CaseJson {
    texture: TextureJson,
    #[serde(default)]
    view: ViewDesc,
    #[serde(default)]
    sampler: SamplerDesc,
    op: OpJson,
    quads: Vec<QuadJson>,
}

fn one() -> u32 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TextureJson {
    format: String,
    kind: String,
    width: u32,
    #[serde(default = "one")]
    height: u32,
    #[serde(default = "one")]
    depth: u32,
    #[serde(default = "one")]
    layers: u32,
    #[serde(default = "one")]
    levels: u32,
    #[serde(default = "one")]
    samples: u32,
    data: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpJson {
    name: String,
    lod_mode: Option<String>,
    derivatives: Option<String>,
    offset: Option<Vec<i64>>,
    compare: Option<bool>,
    component: Option<i64>,
    offsets: Option<Vec<Vec<i64>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuadJson {
    coords: Option<Vec<Vec<Number>>>,
    active: Option<Vec<bool>>,
    lod: Option<Vec<Number>>,
    bias: Option<Vec<Number>>,
    ddx: Option<Vec<Vec<Number>>>,
    ddy: Option<Vec<Vec<Number>>>,
    dref: Option<Vec<Number>>,
    level: Option<Vec<i64>>,
    icoords: Option<Vec<Vec<i64>>>,
    sample: Option<Vec<i64>>,
}

/// Exactly four lanes of `v`, each converted by `f(value, field)`.
fn lanes4<T, U: Copy + Default>(
    v: &[T],
    field: &str,
    f: impl Fn(&T, &str) -> Result<U>,
) -> Result<[U; 4]> {
    if v.len() != 4 {
        return Err(Error::invalid(
            field,
            format!("must have 4 lanes, got {}", v.len()),
        ));
    }
    let mut out = [U::default(); 4];
    for (l, x) in v.iter().enumerate() {
        out[l] = f(x, &format!("{field}[{l}]"))?;
    }
    Ok(out)
}

/// Exactly `N` numbers as f32.
fn vec_n<const N: usize>(v: &[Number], field: &str) -> Result<[f32; N]> {
    if v.len() != N {
        return Err(Error::invalid(
            field,
            format!("must have {N} numbers, got {}", v.len()),
        ));
    }
    let mut out = [0.0; N];
    for (o, x) in out.iter_mut().zip(v) {
        *o = x.to_f32();
    }
    Ok(out)
}

fn active_mask(q: &QuadJson, w: &str) -> Result<u8> {
    match &q.active {
        None => Ok(0xf),
        Some(a) if a.len() == 4 => Ok(a
            .iter()
            .enumerate()
            .fold(0, |m, (l, &on)| m | (u8::from(on) << l))),
        Some(a) => Err(Error::invalid(
            format!("{w}.active"),
            format!("must be 4 booleans, got {}", a.len()),
        )),
    }
}

// ---------------------------------------------------------------------------
// Texture, view, sampler
// ---------------------------------------------------------------------------

fn load_texture(t: &TextureJson, texels: TexelSource<'_>) -> Result<Texture> {
    let format: TextureFormat = t.format.parse()?;
    let kind: TextureKind = t.kind.parse()?;
    let desc = TextureDesc {
        kind,
        format,
        width: t.width,
        height: t.height,
        depth: t.depth,
        layers: t.layers,
        levels: t.levels,
        samples: t.samples,
        no_mipmap: false,
    };
    desc.validate()?;
    // Check the size before reading or allocating: a case may declare a
    // texture of gigabytes next to a file of a few bytes.
    let expected = desc.total_bytes().unwrap_or(u64::MAX);
    let wrong_size = |actual| quadtex_format::Error::wrong_size("texture data", expected, actual);
    let read;
    let bytes = match texels {
        TexelSource::Bytes(b) => b,
        TexelSource::Dir(base_dir) => {
            let path = base_dir.join(&t.data);
            let io = |source| Error::io(&path, source);
            let actual = std::fs::metadata(&path).map_err(io)?.len();
            if actual != expected {
                return Err(wrong_size(actual).into());
            }
            read = std::fs::read(&path).map_err(io)?;
            &read[..]
        }
    };
    if bytes.len() as u64 != expected {
        return Err(wrong_size(bytes.len() as u64).into());
    }
    Ok(Texture::from_linear_bytes(desc, Layout::Tiled, bytes)?)
}

fn build_view(v: &ViewDesc, texture: Texture) -> Result<TextureHeader> {
    let mut view = TextureHeader::new(Arc::new(texture));
    v.apply("view", &mut view)?;
    Ok(view)
}

/// The probe format's defaults where they differ from
/// [`SamplerHeader::default`]: no mipmapping, a (0, 0, 0, 0) float border.
fn build_sampler(s: &SamplerDesc, format: TextureFormat) -> Result<SamplerHeader> {
    let base = SamplerHeader {
        mipmap_mode: MipmapMode::None,
        border_color: BorderColor::Float([0.0; 4]),
        ..SamplerHeader::default()
    };
    Ok(s.to_header("sampler", base, Some(format))?)
}

fn parse_offset(o: Option<&[i64]>) -> Result<Option<[i32; 3]>> {
    let Some(o) = o else { return Ok(None) };
    if o.is_empty() || o.len() > 3 {
        return Err(Error::invalid(
            "op.offset",
            format!("must be [i], [i, j] or [i, j, k], got {} numbers", o.len()),
        ));
    }
    let mut out = [0i32; 3];
    for (k, &v) in o.iter().enumerate() {
        if !(-32..=31).contains(&v) {
            return Err(Error::invalid(
                format!("op.offset[{k}]"),
                format!("{v} is outside -32..31"),
            ));
        }
        out[k] = v as i32;
    }
    Ok(Some(out))
}

/// The quad's `coords` (required by `op`) and masks. Inactive lanes run as
/// helpers: they feed the derivatives with their coordinates, and print
/// `null`.
fn coords_quad(q: &QuadJson, qi: usize, op: &str) -> Result<Quad> {
    let w = format!("quads[{qi}]");
    let coords = q
        .coords
        .as_ref()
        .ok_or_else(|| Error::invalid(format!("{w}.coords"), format!("is required for {op}")))?;
    let coords = lanes4(coords, &format!("{w}.coords"), |c, f| vec_n::<4>(c, f))?;
    let active = active_mask(q, &w)?;
    Ok(Quad {
        coords,
        active,
        helper: !active & 0xf,
    })
}

/// A per-lane number field (`lod`, `bias`, `dref`) of quad `w`: checked
/// whenever present, an error when `needed` and absent.
fn lane_floats(
    v: &Option<Vec<Number>>,
    w: &str,
    name: &str,
    needed: bool,
) -> Result<Option<[f32; 4]>> {
    match v {
        Some(v) => Ok(Some(lanes4(v, &format!("{w}.{name}"), |x, _| {
            Ok(x.to_f32())
        })?)),
        None if needed => Err(Error::invalid(format!("{w}.{name}"), "is required here")),
        None => Ok(None),
    }
}

/// A per-lane gradient field (`ddx`, `ddy`) of quad `w`: checked whenever
/// present, an error when `needed` and absent.
fn lane_grads(
    v: &Option<Vec<Vec<Number>>>,
    w: &str,
    name: &str,
    needed: bool,
) -> Result<Option<[[f32; 3]; 4]>> {
    match v {
        Some(v) => Ok(Some(lanes4(v, &format!("{w}.{name}"), |d, f| {
            vec_n::<3>(d, f)
        })?)),
        None if needed => Err(Error::invalid(
            format!("{w}.{name}"),
            "is required for lod_mode grad",
        )),
        None => Ok(None),
    }
}

/// A 32-bit register word given as a JSON integer: any value in
/// `i32::MIN..=u32::MAX`, kept as its two's complement bits (so `-1` and
/// `4294967295` are the same word, as a shader register holds them).
fn word(v: i64, field: &str) -> Result<i32> {
    if (i32::MIN as i64..=u32::MAX as i64).contains(&v) {
        Ok(v as u32 as i32)
    } else {
        Err(Error::invalid(
            field,
            format!("{v} is not a 32-bit integer (i32 or u32 range)"),
        ))
    }
}

/// `op.compare` against `sampler.compare`: both or neither, and no compare
/// on 3D views (docs/semantics.md §1 "Restrictions"; the SASS TLD4
/// reference, `.DC`).
fn compare_flag(op: &OpJson, view: &TextureHeader, sampler: &SamplerHeader) -> Result<bool> {
    let compare = op.compare.unwrap_or(false);
    match (compare, sampler.compare.is_some()) {
        (true, false) => {
            return Err(Error::invalid(
                "op.compare",
                "true needs a sampler.compare op",
            ))
        }
        (false, true) => {
            return Err(Error::invalid(
                "sampler.compare",
                "a compare sampler needs op.compare true (and dref in the quads)",
            ))
        }
        _ => {}
    }
    if compare && view.kind == TextureKind::D3 {
        return Err(Error::invalid(
            "op.compare",
            "depth compare is not allowed on 3d textures",
        ));
    }
    Ok(compare)
}

// ---------------------------------------------------------------------------
// sample
// ---------------------------------------------------------------------------

/// The lod form of a sample op, before the lanes are read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LodMode {
    Implicit,
    Base,
    Level,
    Grad,
    Bias,
}

/// A validated sample op: everything fixed across its quads.
struct SamplePlan<'a> {
    view: &'a TextureHeader,
    sampler: &'a SamplerHeader,
    profile: Profile,
    lod_mode: LodMode,
    offset: [i32; 3],
    compare: bool,
    derivatives: Derivatives,
}

impl<'a> SamplePlan<'a> {
    fn new(
        op: &OpJson,
        view: &'a TextureHeader,
        sampler: &'a SamplerHeader,
        derivatives: Derivatives,
        offset: Option<[i32; 3]>,
    ) -> Result<SamplePlan<'a>> {
        let kind = view.kind;
        if kind.is_multisample() {
            return Err(Error::invalid(
                "op.name",
                format!("sample is not allowed on {kind} (read it with fetch)"),
            ));
        }
        let lod_mode = match op.lod_mode.as_deref() {
            None | Some("implicit") => LodMode::Implicit,
            Some("base") => LodMode::Base,
            Some("level") => LodMode::Level,
            Some("grad") => LodMode::Grad,
            Some("bias") => LodMode::Bias,
            Some(o) => {
                return Err(Error::invalid(
                    "op.lod_mode",
                    format!("`{o}` is not implicit, base, level, grad or bias"),
                ));
            }
        };
        if offset.is_some() && kind.is_cube() {
            return Err(Error::invalid(
                "op.offset",
                format!("offsets are not allowed on {kind}"),
            ));
        }
        let compare = compare_flag(op, view, sampler)?;
        sampler.validate_with(view)?;
        Ok(SamplePlan {
            view,
            sampler,
            profile: Profile {
                derivatives,
                ..Profile::VULKAN
            },
            lod_mode,
            offset: offset.unwrap_or([0; 3]),
            compare,
            derivatives,
        })
    }

    /// The quad's coordinates and masks. Inactive lanes run as helpers: they
    /// feed the derivatives with their coordinates, and print `null`.
    fn quad(&self, q: &QuadJson, qi: usize) -> Result<Quad> {
        coords_quad(q, qi, "sample")
    }

    /// Runs one quad: per lane the value (or `None` when inactive), and the
    /// active mask.
    fn run(&self, q: &QuadJson, qi: usize, quad: &Quad) -> Result<([LaneValue; 4], u8)> {
        let w = format!("quads[{qi}]");
        let per_lane =
            |v: &Option<Vec<Number>>, name: &str, needed: bool| lane_floats(v, &w, name, needed);
        let grad = |v: &Option<Vec<Vec<Number>>>, name: &str, needed: bool| {
            lane_grads(v, &w, name, needed)
        };
        // Every lane field present is checked, used or not: a malformed
        // field is an error even where this lod mode ignores it.
        let lod = per_lane(&q.lod, "lod", self.lod_mode == LodMode::Level)?;
        let bias = per_lane(&q.bias, "bias", self.lod_mode == LodMode::Bias)?;
        let dref = per_lane(&q.dref, "dref", self.compare)?;
        let ddx = grad(&q.ddx, "ddx", self.lod_mode == LodMode::Grad)?;
        let ddy = grad(&q.ddy, "ddy", self.lod_mode == LodMode::Grad)?;
        let lod = match self.lod_mode {
            LodMode::Implicit => Lod::Implicit,
            LodMode::Base => Lod::Base,
            LodMode::Level => Lod::Level(lod.unwrap_or_default()),
            LodMode::Bias => Lod::Bias(bias.unwrap_or_default()),
            LodMode::Grad => Lod::Grad {
                ddx: ddx.unwrap_or_default(),
                ddy: ddy.unwrap_or_default(),
            },
        };
        let args = SampleArgs {
            lod,
            offset: self.offset,
            dref: if self.compare { dref } else { None },
            ndv: false,
            derivatives: Some(self.derivatives),
        };
        let r = quadtex_sampler::sample(self.view, self.sampler, &self.profile, &args, quad);
        let mut lanes = [LaneValue::Null; 4];
        for (l, out) in lanes.iter_mut().enumerate() {
            if quad.active & (1 << l) != 0 {
                *out = match r.texels[l] {
                    Some(t) => LaneValue::Texel(t, r.resident[l]),
                    None => LaneValue::Null,
                };
            }
        }
        Ok((lanes, quad.active))
    }
}

// ---------------------------------------------------------------------------
// gather
// ---------------------------------------------------------------------------

/// `op.offset` as a gather's `[i, j]` or `op.offsets` as its four PTP
/// pairs, each within -32..31; not both, and none on cubes (the SASS TLD4
/// reference: "AOFFI is not supported with CubeMap textures", likewise
/// PTP).
fn gather_offsets(op: &OpJson, kind: TextureKind) -> Result<GatherOffsets> {
    let pair = |v: &[i64], field: &str| -> Result<[i32; 2]> {
        if v.len() != 2 {
            return Err(Error::invalid(
                field,
                format!("a gather offset is [i, j], got {} numbers", v.len()),
            ));
        }
        let mut out = [0; 2];
        for (k, (o, &x)) in out.iter_mut().zip(v).enumerate() {
            if !(-32..=31).contains(&x) {
                return Err(Error::invalid(
                    format!("{field}[{k}]"),
                    format!("{x} is outside -32..31"),
                ));
            }
            *o = x as i32;
        }
        Ok(out)
    };
    let offsets = match (&op.offset, &op.offsets) {
        (Some(_), Some(_)) => {
            return Err(Error::invalid(
                "op.offsets",
                "give op.offset or op.offsets, not both",
            ))
        }
        (None, None) => return Ok(GatherOffsets::None),
        (Some(o), None) => GatherOffsets::Aoffi(pair(o, "op.offset")?),
        (None, Some(v)) => {
            if v.len() != 4 {
                return Err(Error::invalid(
                    "op.offsets",
                    format!("must be 4 [i, j] pairs, got {}", v.len()),
                ));
            }
            let mut p = [[0; 2]; 4];
            for (k, (o, x)) in p.iter_mut().zip(v).enumerate() {
                *o = pair(x, &format!("op.offsets[{k}]"))?;
            }
            GatherOffsets::Ptp(p)
        }
    };
    if kind.is_cube() {
        let field = if op.offset.is_some() {
            "op.offset"
        } else {
            "op.offsets"
        };
        return Err(Error::invalid(
            field,
            format!("offsets are not allowed on {kind}"),
        ));
    }
    Ok(offsets)
}

/// The `gather` op (tld4 / textureGather): every quad through
/// [`quadtex_sampler::gather`] with the Vulkan profile.
fn run_gather(case: &CaseJson, view: &TextureHeader, sampler: &SamplerHeader) -> Result<String> {
    let op = &case.op;
    let kind = view.kind;
    if !matches!(
        kind,
        TextureKind::D2 | TextureKind::D2Array | TextureKind::Cube | TextureKind::CubeArray
    ) {
        return Err(Error::invalid(
            "op.name",
            format!("gather is not allowed on {kind} (2d, 2d_array, cube and cube_array only)"),
        ));
    }
    let offsets = gather_offsets(op, kind)?;
    let component = match op.component {
        None => 0,
        Some(c @ 0..=3) => c as u8,
        Some(c) => {
            return Err(Error::invalid(
                "op.component",
                format!("{c} is not 0, 1, 2 or 3"),
            ))
        }
    };
    let compare = compare_flag(op, view, sampler)?;
    // Gather reads texels without filtering, so the sampler's filters do not
    // apply (an integer format may come with a linear sampler, as GL's
    // textureGather allows); everything else is checked as for sample.
    let unfiltered = SamplerHeader {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Nearest,
        mipmap_mode: MipmapMode::None,
        max_anisotropy: 1.0,
        ..*sampler
    };
    unfiltered.validate_with(view)?;
    let mut out = Printer::new();
    for (qi, q) in case.quads.iter().enumerate() {
        let w = format!("quads[{qi}]");
        let mut quad = coords_quad(q, qi, "gather")?;
        // No derivatives: inactive lanes need not run.
        quad.helper = 0;
        let dref = lane_floats(&q.dref, &w, "dref", compare)?;
        let args = GatherArgs {
            component,
            offsets,
            dref: if compare { dref } else { None },
            ndv: false,
        };
        let r = quadtex_sampler::gather(view, sampler, &Profile::VULKAN, &args, &quad);
        out.quad(&texel_lanes(&r), quad.active, None, None);
    }
    Ok(out.finish())
}

/// Per-lane values of a quad result (`None` lanes print `null`).
fn texel_lanes(r: &quadtex_sampler::QuadResult) -> [LaneValue; 4] {
    [0, 1, 2, 3].map(|l| match r.texels[l] {
        Some(t) => LaneValue::Texel(t, r.resident[l]),
        None => LaneValue::Null,
    })
}

// ---------------------------------------------------------------------------
// query_lod
// ---------------------------------------------------------------------------

/// The `query_lod` op (TMML.LOD / textureQueryLod): every quad through
/// [`quadtex_sampler::query_lod`] with the Vulkan profile; lanes print `[x,
/// y, 0, 0]` and `raw` the four TMML words.
fn run_query_lod(
    case: &CaseJson,
    view: &TextureHeader,
    sampler: &SamplerHeader,
    derivatives: Derivatives,
) -> Result<String> {
    let op = &case.op;
    let kind = view.kind;
    if kind.is_multisample() {
        return Err(Error::invalid(
            "op.name",
            format!("query_lod is not allowed on {kind} (it has no levels)"),
        ));
    }
    let grad = match op.lod_mode.as_deref() {
        None | Some("implicit") => false,
        Some("grad") => true,
        Some(o) => {
            return Err(Error::invalid(
                "op.lod_mode",
                format!("`{o}` is not implicit or grad (the lod modes of query_lod)"),
            ))
        }
    };
    sampler.validate_with(view)?;
    let profile = Profile {
        derivatives,
        ..Profile::VULKAN
    };
    let mut out = Printer::new();
    for (qi, q) in case.quads.iter().enumerate() {
        let w = format!("quads[{qi}]");
        let quad = coords_quad(q, qi, "query_lod")?;
        let ddx = lane_grads(&q.ddx, &w, "ddx", grad)?;
        let ddy = lane_grads(&q.ddy, &w, "ddy", grad)?;
        let lod = match (ddx, ddy) {
            (Some(ddx), Some(ddy)) if grad => Lod::Grad { ddx, ddy },
            _ => Lod::Implicit,
        };
        let args = SampleArgs {
            lod,
            derivatives: Some(derivatives),
            ..SampleArgs::default()
        };
        let r = quadtex_sampler::query_lod(view, sampler, &profile, &args, &quad);
        let lanes = r.map(|x| match x {
            Some(x) => LaneValue::Texel(Texel::Float([x.accessed, x.lambda, 0.0, 0.0]), true),
            None => LaneValue::Null,
        });
        out.quad(&lanes, quad.active, None, Some(r.map(|x| x.map(|x| x.raw))));
    }
    Ok(out.finish())
}

// ---------------------------------------------------------------------------
// fetch
// ---------------------------------------------------------------------------

/// The `fetch` op (ld / texelFetch / ld2dms): every quad through
/// [`quadtex_sampler::fetch`]. The sampler is parsed but not used; the
/// offset may be given on every kind (fetch has no cube faces to cross).
fn run_fetch(case: &CaseJson, view: &TextureHeader, offset: Option<[i32; 3]>) -> Result<String> {
    view.validate()?;
    let mut out = Printer::new();
    for (qi, q) in case.quads.iter().enumerate() {
        let w = format!("quads[{qi}]");
        let active = active_mask(q, &w)?;
        let icoords = q
            .icoords
            .as_ref()
            .ok_or_else(|| Error::invalid(format!("{w}.icoords"), "is required for fetch"))?;
        let icoords = lanes4(icoords, &format!("{w}.icoords"), |c, f| {
            if c.len() != 4 {
                return Err(Error::invalid(
                    f,
                    format!("must have 4 integers [x, y, z, layer], got {}", c.len()),
                ));
            }
            let mut out = [0i32; 4];
            for (k, (o, &x)) in out.iter_mut().zip(c).enumerate() {
                *o = word(x, &format!("{f}[{k}]"))?;
            }
            Ok(out)
        })?;
        let ints = |v: &Option<Vec<i64>>, name: &str| -> Result<[i32; 4]> {
            match v {
                None => Ok([0; 4]),
                Some(v) => lanes4(v, &format!("{w}.{name}"), |&x, f| word(x, f)),
            }
        };
        let args = FetchArgs {
            icoords,
            level: ints(&q.level, "level")?,
            sample: ints(&q.sample, "sample")?,
            offset: offset.unwrap_or([0; 3]),
        };
        let r = quadtex_sampler::fetch(view, &args, active);
        out.quad(&texel_lanes(&r), active, None, None);
    }
    Ok(out.finish())
}

// ---------------------------------------------------------------------------
// RESULT
// ---------------------------------------------------------------------------

/// One lane of a RESULT quad.
#[derive(Clone, Copy, Debug)]
enum LaneValue {
    /// Inactive, or the op did not produce a value.
    Null,
    /// A texel and its residency.
    Texel(Texel, bool),
    /// Unsigned integers (size), always resident.
    Uint([u32; 4]),
}

/// Writes the RESULT document: one quad per line, as the oracle does.
struct Printer {
    out: String,
    quads: usize,
}

impl Printer {
    fn new() -> Printer {
        Printer {
            out: String::from("{\"quads\": ["),
            quads: 0,
        }
    }

    /// One quad: `lanes` and `resident`, then `samples` (size) or `raw`
    /// (query_lod) when given; inactive lanes print `null` everywhere.
    fn quad(
        &mut self,
        lanes: &[LaneValue; 4],
        active: u8,
        samples: Option<[u32; 4]>,
        raw: Option<[Option<[u32; 4]>; 4]>,
    ) {
        let o = &mut self.out;
        o.push_str(if self.quads == 0 { "\n" } else { ",\n" });
        self.quads += 1;
        o.push_str("{\"lanes\": [");
        for (l, v) in lanes.iter().enumerate() {
            if l > 0 {
                o.push_str(", ");
            }
            let v = if active & (1 << l) != 0 {
                *v
            } else {
                LaneValue::Null
            };
            match v {
                LaneValue::Null => o.push_str("null"),
                LaneValue::Texel(t, _) => push_texel(o, t),
                LaneValue::Uint(u) => push_list(o, &u, |o, x| {
                    let _ = write!(o, "{x}");
                }),
            }
        }
        o.push_str("], \"resident\": [");
        for (l, v) in lanes.iter().enumerate() {
            if l > 0 {
                o.push_str(", ");
            }
            o.push_str(match v {
                _ if active & (1 << l) == 0 => "null",
                LaneValue::Null => "null",
                LaneValue::Texel(_, r) => {
                    if *r {
                        "true"
                    } else {
                        "false"
                    }
                }
                LaneValue::Uint(_) => "true",
            });
        }
        o.push(']');
        if let Some(s) = samples {
            o.push_str(", \"samples\": [");
            for (l, x) in s.iter().enumerate() {
                let _ = write!(o, "{}{x}", if l > 0 { ", " } else { "" });
            }
            o.push(']');
        }
        if let Some(raw) = raw {
            o.push_str(", \"raw\": [");
            for (l, x) in raw.iter().enumerate() {
                if l > 0 {
                    o.push_str(", ");
                }
                match x {
                    Some(words) if active & (1 << l) != 0 => push_list(o, words, |o, x| {
                        let _ = write!(o, "{x}");
                    }),
                    _ => o.push_str("null"),
                }
            }
            o.push(']');
        }
        o.push('}');
    }

    fn finish(mut self) -> String {
        self.out
            .push_str(if self.quads == 0 { "]}\n" } else { "\n]}\n" });
        self.out
    }
}

fn push_list<T: Copy>(o: &mut String, v: &[T], f: impl Fn(&mut String, T)) {
    o.push('[');
    for (i, &x) in v.iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        f(o, x);
    }
    o.push(']');
}

fn push_texel(o: &mut String, t: Texel) {
    match t {
        Texel::Float(v) => push_list(o, &v, push_f32),
        Texel::Uint(v) => push_list(o, &v, |o, x| {
            let _ = write!(o, "{x}");
        }),
        Texel::Sint(v) => push_list(o, &v, |o, x| {
            let _ = write!(o, "{x}");
        }),
    }
}

/// An f32 as JSON that reads back bit-exact: Rust's `{:?}` is the shortest
/// decimal that round-trips as f32, and unlike `{}` it keeps a `.0` (so
/// `-0.0` stays negative zero in readers that turn `-0` into the integer 0)
/// and switches to exponent form for tiny and huge values (`1e-45`, not 45
/// zeros). Non-finite values are the strings the probe format names.
///
/// One adjustment: when the value lies exactly halfway between two
/// shortest decimals (`1.01953125` between `1.0195312` and `1.0195313`),
/// `{:?}` takes the upper one; this takes the one with the even last digit,
/// as Python's `repr`, numpy and Ryu do, so that readers comparing the
/// decimal text (or its f64 value) with theirs see the same number.
fn push_f32(o: &mut String, x: f32) {
    if x.is_nan() {
        o.push_str("\"NaN\"");
    } else if x.is_infinite() {
        o.push_str(if x > 0.0 {
            "\"Infinity\""
        } else {
            "\"-Infinity\""
        });
    } else {
        o.push_str(&shortest_ties_even(x));
    }
}

/// `{:?}` of a finite `x`, with an exact tie between the two shortest
/// decimals resolved to the even last digit (see [`push_f32`]).
fn shortest_ties_even(x: f32) -> String {
    let s = format!("{x:?}");
    let sig = |t: &str| -> String {
        let mant = t.split(['e', 'E']).next().unwrap_or("");
        mant.chars()
            .filter(char::is_ascii_digit)
            .skip_while(|&c| c == '0')
            .collect()
    };
    let digits = sig(&format!("{x:e}"));
    let n = digits.len();
    let odd = digits.bytes().last().is_some_and(|d| (d - b'0') % 2 == 1);
    if x == 0.0 || !odd {
        return s;
    }
    // The exact decimal value of x (an f32 has at most 112 significant
    // digits, so 120 after the point is exact).
    let exact = sig(&format!("{:.120e}", x as f64));
    let exact = exact.trim_end_matches('0');
    if exact.len() != n + 1 || !exact.ends_with('5') {
        return s;
    }
    // Round the tie down instead: the truncated digits, whose last digit is
    // the odd one minus 1.
    let down = &exact[..n];
    if down[..n - 1] != digits[..n - 1] {
        return s;
    }
    let Some(new_last) = down.chars().last() else {
        return s;
    };
    let mut seen = 0;
    let mut out = String::with_capacity(s.len());
    let mut in_mantissa = true;
    for c in s.chars() {
        if c == 'e' {
            in_mantissa = false;
        }
        if in_mantissa && c.is_ascii_digit() && (seen > 0 || c != '0') {
            seen += 1;
            if seen == n {
                out.push(new_last);
                continue;
            }
        }
        out.push(c);
    }
    match out.parse::<f32>() {
        Ok(back) if back.to_bits() == x.to_bits() => out,
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE: &str = r#"{
      "texture": { "format": "R32_SFLOAT", "kind": "2d", "width": 2, "height": 2, "data": "t.bin" },
      "op": { "name": "sample" },
      "quads": [ { "coords": [[0.25, 0.25, 0, 0], [0.75, 0.25, 0, 0], [0.25, 0.75, 0, 0], [0.75, 0.75, 0, 0]] } ]
    }"#;

    #[test]
    fn errors_have_a_kind_and_name_their_field() {
        let texels = [0u8; 16];
        assert!(run_with_texels(CASE, &texels).is_ok());
        let e = run_with_texels("{", &texels).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Json);
        assert!(std::error::Error::source(&e).is_some());

        let bad = CASE.replace(
            r#""op""#,
            r#""sampler": {"address": ["repeat", "wrap"]}, "op""#,
        );
        let e = run_with_texels(&bad, &texels).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Header);
        assert_eq!(e.field(), Some("sampler.address[1]"));

        let bad = CASE.replace("0.75, 0.75, 0, 0]", "0.75, 0.75, 0]");
        let e = run_with_texels(&bad, &texels).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidField);
        assert_eq!(e.field(), Some("quads[0].coords[3]"));
        assert_eq!(
            e.to_string(),
            "quads[0].coords[3]: must have 4 numbers, got 3"
        );

        let e = run_with_texels(CASE, &texels[..12]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Texture);
        assert_eq!(e.field(), None);

        let e = run(Path::new("/nonexistent/case.json")).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Io);
        assert_eq!(e.exit_code(), 2);
    }

    fn f32_json(x: f32) -> String {
        let mut s = String::new();
        push_f32(&mut s, x);
        s
    }

    #[test]
    fn floats_print_shortest_and_read_back_bit_exact() {
        for x in [
            0.0f32,
            -0.0,
            1.0,
            0.1,
            1.0 / 3.0,
            f32::from_bits(1),
            f32::MIN_POSITIVE,
            f32::MAX,
            -f32::MAX,
            1e16,
            1e-5,
            16777217.0,
        ] {
            let s = f32_json(x);
            let back: f64 = serde_json::from_str(&s).unwrap();
            assert_eq!((back as f32).to_bits(), x.to_bits(), "{x} printed as {s}");
        }
        assert_eq!(f32_json(-0.0), "-0.0");
        // Exact ties between two shortest decimals take the even digit.
        assert_eq!(f32_json(1.0 + 5.0 / 256.0), "1.0195312");
        assert_eq!(f32_json(-1.0 - 5.0 / 256.0), "-1.0195312");
        assert_eq!(f32_json(9.0 / 2048.0), "0.0043945312");
        assert_eq!(f32_json(1.0 + 57.0 / 256.0), "1.2226562");
        assert_eq!(f32_json(f32::from_bits(1)), "1e-45");
        assert_eq!(f32_json(0.5), "0.5");
        assert_eq!(f32_json(f32::NAN), "\"NaN\"");
        assert_eq!(f32_json(f32::NEG_INFINITY), "\"-Infinity\"");
    }

    #[test]
    fn printed_floats_round_trip_and_stay_shortest_for_every_bit_pattern_sampled() {
        let mut r = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            let x = f32::from_bits((r >> 32) as u32);
            if !x.is_finite() {
                continue;
            }
            let s = f32_json(x);
            let back: f64 = serde_json::from_str(&s).unwrap();
            assert_eq!((back as f32).to_bits(), x.to_bits(), "{x:?} printed as {s}");
            assert_eq!(s.len(), format!("{x:?}").len(), "{x:?} printed as {s}");
        }
    }

    #[test]
    fn numbers_accept_the_non_finite_strings_only() {
        let v: Vec<Number> =
            serde_json::from_str(r#"[1, -2.5, "NaN", "Infinity", "-Infinity"]"#).unwrap();
        assert_eq!(v[1].to_f32(), -2.5);
        assert!(v[2].to_f32().is_nan());
        assert_eq!(v[3].to_f32(), f32::INFINITY);
        assert_eq!(v[4].to_f32(), f32::NEG_INFINITY);
        assert!(serde_json::from_str::<Number>(r#""nan""#).is_err());
        assert!(serde_json::from_str::<Number>("null").is_err());
        assert!(serde_json::from_str::<Number>("true").is_err());
    }

    #[test]
    fn offsets_outside_the_tld4_range_are_rejected() {
        assert_eq!(parse_offset(Some(&[-32, 31])).unwrap(), Some([-32, 31, 0]));
        assert!(parse_offset(Some(&[32])).is_err());
        assert!(parse_offset(Some(&[0, -33])).is_err());
        assert!(parse_offset(Some(&[])).is_err());
        assert!(parse_offset(Some(&[0, 0, 0, 0])).is_err());
    }
}
