//! PTX texture instructions (PTX ISA 9.7.10, "Texture Instructions": `tex`,
//! `tld4`, `txq`, `istypep`): a text parser into instruction structs, and their
//! execution on a quad of lanes through the sampler cores
//! ([`sample`](crate::sample), [`gather`](fn@crate::gather),
//! [`fetch`](fn@crate::fetch), [`query`](crate::query)).
//!
//! What lives here: the operand model (per-lane named registers
//! [`Regs`], a symbol table [`Symbols`] naming `.texref` / `.samplerref`
//! variables by pool index), the texturing-mode rules (an explicit sampler
//! operand is required in `texmode_independent` and refused in
//! `texmode_unified`), operand shapes, the `-8..7` offset range, and result
//! packing (`.f16`, `.f16x2`, the `|p` residency predicate), and the codes
//! `txq` reports in PTX's and CUDA's enumerations ([`addr_mode_code`],
//! [`channel_data_type`], [`channel_order`], [`cuda_channel_kind`]). What
//! does not: addressing, filtering and decoding, which are the cores'.
//!
//! The array layer of `.a1d`, `.a2d`, `.acube` and `.a2dms` is a `.u32`
//! integer: it is converted exactly, with no rounding (docs/semantics.md §5).
//!
//! Indirect access (PTX ISA 9.7.10, "Indirect texture access", unified mode
//! only): a texture operand may be a `.u64` register holding the address
//! of an opaque variable ([`OpaqueRef`]: a `.texref`, `.samplerref` or
//! `.surfref`), one per lane. Surfaces are their own kind: `istypep.surfref`
//! answers for them, a `.surfref` symbol as a texture operand is an error
//! (of kind [`NotSupported`](crate::ErrorKind::NotSupported)), and a lane
//! whose register holds a surface (or anything but a `.texref`) reads
//! zeros, as an invalid handle does.
//!
//! Errors are the crate's [`Error`], each naming the
//! offending token ([`Error::token`]).
//!
//! Per-lane operands: handles and offsets given in registers may differ
//! between lanes while a core call takes one of each per quad. Lanes are
//! grouped by (handle, offset) and the core runs once per group with the
//! group's lanes active and the quad's other active lanes as helpers, so
//! the implicit derivatives and the partial-quad rule see the whole quad
//! and the offset never changes the LOD: each lane gets exactly what a quad
//! with its offset in every lane gives it.

use std::collections::HashMap;

mod codes;

pub use codes::{addr_mode_code, channel_data_type, channel_order, cuda_channel_kind};

use quadtex_format::{SampleType, TextureKind};

use crate::error::{Error, Result};
use crate::fetch::{fetch, FetchArgs};
use crate::gather::{gather, GatherArgs, GatherOffsets};
use crate::header::{Filter, TextureHeader};
use crate::output::{to_words, OutputType};
use crate::pool::{Handle, OpaqueType, Pools, TexturingMode};
use crate::profile::Profile;
use crate::quad::{Lod, Quad, QuadResult, SampleArgs};

/// Texture geometry `.geom` (PTX ISA 9.7.10.3, `tex`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Geom {
    /// `.1d`: `c = {s}`.
    D1,
    /// `.2d`: `c = {s, t}`.
    D2,
    /// `.3d`: `c = {s, t, r, pad}`.
    D3,
    /// `.a1d`: `c = {idx, s}`.
    A1d,
    /// `.a2d`: `c = {idx, s, t, pad}`.
    A2d,
    /// `.cube`: `c = {s, t, r, pad}`.
    Cube,
    /// `.acube`: `c = {idx, s, t, r}`.
    Acube,
    /// `.2dms`: `c = {sample, x, y, pad}`.
    D2ms,
    /// `.a2dms`: `c = {idx, sample, x, y}`.
    A2dms,
}

impl Geom {
    fn parse(s: &str) -> Option<Geom> {
        Some(match s {
            "1d" => Geom::D1,
            "2d" => Geom::D2,
            "3d" => Geom::D3,
            "a1d" => Geom::A1d,
            "a2d" => Geom::A2d,
            "cube" => Geom::Cube,
            "acube" => Geom::Acube,
            "2dms" => Geom::D2ms,
            "a2dms" => Geom::A2dms,
            _ => return None,
        })
    }

    /// Elements of the coordinate vector `c` (PTX ISA 9.7.10.3).
    pub const fn coord_len(self) -> usize {
        match self {
            Geom::D1 => 1,
            Geom::D2 | Geom::A1d => 2,
            Geom::D3 | Geom::A2d | Geom::Cube | Geom::Acube | Geom::D2ms | Geom::A2dms => 4,
        }
    }

    /// Elements of the offset vector `e`: 1, 2, or 4 for 3d (fourth
    /// ignored); 0 where offsets are not supported (cubes).
    pub const fn offset_len(self) -> usize {
        match self {
            Geom::D1 | Geom::A1d => 1,
            Geom::D2 | Geom::A2d | Geom::D2ms | Geom::A2dms => 2,
            Geom::D3 => 4,
            Geom::Cube | Geom::Acube => 0,
        }
    }

    /// Elements of each `.grad` partial vector.
    const fn grad_len(self) -> usize {
        match self {
            Geom::D1 | Geom::A1d => 1,
            Geom::D2 | Geom::A2d | Geom::D2ms | Geom::A2dms => 2,
            Geom::D3 | Geom::Cube | Geom::Acube => 4,
        }
    }
}

/// Destination type of `tex` / `tld4` (`.dtype`, or `.v2.f16x2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// `.u32`: the register bits the format defines (docs/semantics.md §5).
    U32,
    /// `.s32`: likewise.
    S32,
    /// `.f32`.
    F32,
    /// `.f16`: four halves, each in a register's low 16 bits.
    F16,
    /// `.v2.f16x2`: `{pack(R, G), pack(B, A)}`.
    F16x2,
}

impl DType {
    const fn output(self) -> OutputType {
        match self {
            DType::U32 | DType::S32 | DType::F32 => OutputType::Words,
            DType::F16 => OutputType::F16,
            DType::F16x2 => OutputType::F16x2,
        }
    }

    const fn dest_len(self) -> usize {
        match self {
            DType::F16x2 => 2,
            DType::U32 | DType::S32 | DType::F32 | DType::F16 => 4,
        }
    }
}

/// Coordinate type `.ctype`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CType {
    /// `.s32`: integer coordinates, converted to float for filtered
    /// geometries.
    S32,
    /// `.f32`.
    F32,
}

/// A scalar source operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A named register.
    Reg(String),
    /// An immediate: its 32-bit pattern (integers two's complement, floats
    /// as `0fXXXXXXXX` or a decimal with a point).
    Imm(u32),
}

/// The LOD form of `tex` (PTX ISA 9.7.10.2, "PTX support for mipmaps").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mip {
    /// No modifier: level 0, as `.base` (compute has no implicit
    /// derivatives).
    None,
    /// `.base`: level 0.
    Base,
    /// `.level`: an explicit `.f32` LOD operand.
    Level(Operand),
    /// `.grad`: `dPdx` and `dPdy` vectors.
    Grad(Vec<Operand>, Vec<Operand>),
}

/// `tex` (PTX ISA 9.7.10.3).
#[derive(Clone, Debug, PartialEq)]
pub struct Tex {
    /// LOD form.
    pub mip: Mip,
    /// Geometry.
    pub geom: Geom,
    /// Destination type.
    pub dtype: DType,
    /// Coordinate type.
    pub ctype: CType,
    /// Destination registers (4, or 2 for `.f16x2`).
    pub dst: Vec<String>,
    /// The `|p` residency predicate.
    pub pred: Option<String>,
    /// Texture operand `a`: a `.texref` symbol or a register with a handle.
    pub texture: String,
    /// Sampler operand `b`.
    pub sampler: Option<String>,
    /// Coordinate vector `c`.
    pub coords: Vec<Operand>,
    /// Offset vector `e`.
    pub offset: Option<Vec<Operand>>,
    /// Depth compare operand `f`.
    pub compare: Option<Operand>,
}

/// `tld4` (PTX ISA 9.7.10.4).
#[derive(Clone, Debug, PartialEq)]
pub struct Tld4 {
    /// `.comp`: 0 = r, 1 = g, 2 = b, 3 = a.
    pub comp: u8,
    /// Geometry: `.2d`, `.a2d`, `.cube` or `.acube`.
    pub geom: Geom,
    /// Destination type (`.u32`, `.s32`, `.f32`).
    pub dtype: DType,
    /// Four destination registers, counter-clockwise from lower left.
    pub dst: Vec<String>,
    /// The `|p` residency predicate.
    pub pred: Option<String>,
    /// Texture operand.
    pub texture: String,
    /// Sampler operand.
    pub sampler: Option<String>,
    /// Coordinate vector.
    pub coords: Vec<Operand>,
    /// Offset vector `.v2.s32`.
    pub offset: Option<Vec<Operand>>,
    /// Depth compare operand.
    pub compare: Option<Operand>,
}

/// A `txq` query (PTX ISA 9.7.10.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TxqQuery {
    /// `.width`.
    Width,
    /// `.height`.
    Height,
    /// `.depth`.
    Depth,
    /// `.channel_data_type`: the source language's enum, passed through.
    ChannelDataType,
    /// `.channel_order`: the source language's enum, passed through.
    ChannelOrder,
    /// `.normalized_coords`: 1 or 0.
    NormalizedCoords,
    /// `.array_size`: layers of an array, 0 otherwise.
    ArraySize,
    /// `.num_mipmap_levels`: levels of a mipmapped texture, 0 otherwise.
    NumMipmapLevels,
    /// `.num_samples`: samples of a multisample texture, 0 otherwise.
    NumSamples,
    /// `.force_unnormalized_coords`: 1 or 0.
    ForceUnnormalizedCoords,
    /// `.filter_mode`: nearest 0, linear 1.
    FilterMode,
    /// `.addr_mode_0..2`: wrap 0, mirror 1, clamp_ogl 2, clamp_to_edge 3,
    /// clamp_to_border 4 ([`addr_mode_code`]).
    AddrMode(u8),
}

impl TxqQuery {
    fn parse(s: &str) -> Option<TxqQuery> {
        Some(match s {
            "width" => TxqQuery::Width,
            "height" => TxqQuery::Height,
            "depth" => TxqQuery::Depth,
            "channel_data_type" => TxqQuery::ChannelDataType,
            "channel_order" => TxqQuery::ChannelOrder,
            "normalized_coords" => TxqQuery::NormalizedCoords,
            "array_size" => TxqQuery::ArraySize,
            "num_mipmap_levels" => TxqQuery::NumMipmapLevels,
            "num_samples" => TxqQuery::NumSamples,
            "force_unnormalized_coords" => TxqQuery::ForceUnnormalizedCoords,
            "filter_mode" => TxqQuery::FilterMode,
            "addr_mode_0" => TxqQuery::AddrMode(0),
            "addr_mode_1" => TxqQuery::AddrMode(1),
            "addr_mode_2" => TxqQuery::AddrMode(2),
            _ => return None,
        })
    }

    /// Whether this is a sampler attribute (`.squery`).
    pub const fn is_sampler_query(self) -> bool {
        match self {
            TxqQuery::ForceUnnormalizedCoords | TxqQuery::FilterMode | TxqQuery::AddrMode(_) => {
                true
            }
            TxqQuery::Width
            | TxqQuery::Height
            | TxqQuery::Depth
            | TxqQuery::ChannelDataType
            | TxqQuery::ChannelOrder
            | TxqQuery::NormalizedCoords
            | TxqQuery::ArraySize
            | TxqQuery::NumMipmapLevels
            | TxqQuery::NumSamples => false,
        }
    }
}

/// `txq` (PTX ISA 9.7.10.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Txq {
    /// The attribute.
    pub query: TxqQuery,
    /// `txq.level`'s LOD operand (only `.width`, `.height`, `.depth`).
    pub level: Option<Operand>,
    /// Destination register.
    pub dst: String,
    /// The `.texref` / `.samplerref` symbol, or a register with a handle.
    pub target: String,
}

/// `istypep` (PTX ISA 9.7.10.6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Istypep {
    /// `.texref`, `.samplerref` or `.surfref`.
    pub ty: OpaqueType,
    /// Destination predicate.
    pub dst: String,
    /// Source: a register holding a handle, or a symbol.
    pub src: String,
}

/// One parsed PTX texture instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Instr {
    /// `tex`.
    Tex(Tex),
    /// `tld4`.
    Tld4(Tld4),
    /// `txq`.
    Txq(Txq),
    /// `istypep`.
    Istypep(Istypep),
}

/// Per-lane registers of one quad (lane order as [`Quad`]): 32-bit words
/// and predicates, by name (`%r1`, `f1`, `%p1`, ...).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Regs {
    /// 32-bit registers: one word per lane.
    pub words: HashMap<String, [u32; 4]>,
    /// Predicate registers: one bit per lane.
    pub preds: HashMap<String, [bool; 4]>,
    /// `.u64` registers (opaque-variable addresses, [`OpaqueRef`]): one
    /// value per lane. A handle operand reads here first, then `words`.
    pub wide: HashMap<String, [u64; 4]>,
    /// Lanes that execute (bit i = lane i); others keep their registers.
    pub active: u8,
}

impl Regs {
    /// No registers, all four lanes active.
    pub fn new() -> Regs {
        Regs {
            active: 0xf,
            ..Regs::default()
        }
    }

    /// Writes one register in every lane.
    pub fn set(&mut self, name: &str, v: [u32; 4]) {
        self.words.insert(name.to_string(), v);
    }

    /// Writes the bits of four floats.
    pub fn set_f32(&mut self, name: &str, v: [f32; 4]) {
        self.set(name, v.map(f32::to_bits));
    }

    /// Writes the same float in every lane.
    pub fn splat_f32(&mut self, name: &str, v: f32) {
        self.set_f32(name, [v; 4]);
    }

    /// Writes the same word in every lane.
    pub fn splat(&mut self, name: &str, v: u32) {
        self.set(name, [v; 4]);
    }

    /// One register, if written.
    pub fn get(&self, name: &str) -> Option<[u32; 4]> {
        self.words.get(name).copied()
    }

    /// Writes one `.u64` register in every lane.
    pub fn set_u64(&mut self, name: &str, v: [u64; 4]) {
        self.wide.insert(name.to_string(), v);
    }

    /// One `.u64` register, if written.
    pub fn get_u64(&self, name: &str) -> Option<[u64; 4]> {
        self.wide.get(name).copied()
    }

    /// One predicate, if written.
    pub fn pred(&self, name: &str) -> Option<[bool; 4]> {
        self.preds.get(name).copied()
    }

    fn read(&self, op: &Operand) -> Result<[u32; 4]> {
        match op {
            Operand::Imm(v) => Ok([*v; 4]),
            Operand::Reg(r) => self
                .get(r)
                .ok_or_else(|| Error::unknown_register(r.clone())),
        }
    }

    fn write_lanes(&mut self, name: &str, v: [u32; 4]) {
        let active = self.active;
        let e = self.words.entry(name.to_string()).or_insert([0; 4]);
        for (lane, w) in e.iter_mut().enumerate() {
            if active & (1 << lane) != 0 {
                *w = v[lane];
            }
        }
    }

    fn write_pred(&mut self, name: &str, v: [bool; 4]) {
        let active = self.active;
        let e = self.preds.entry(name.to_string()).or_insert([false; 4]);
        for (lane, p) in e.iter_mut().enumerate() {
            if active & (1 << lane) != 0 {
                *p = v[lane];
            }
        }
    }
}

/// Module-scope `.texref` / `.samplerref` / `.surfref` names and what they
/// name in the [`Pools`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Symbols {
    /// `.texref` name -> header index.
    pub textures: HashMap<String, u32>,
    /// `.samplerref` name -> sampler index (independent mode).
    pub samplers: HashMap<String, u32>,
    /// `.surfref` name -> surface index: surfaces are their own kind of
    /// opaque variable ([`OpaqueRef::Surfref`]); `istypep.surfref` is true
    /// for them, texture instructions refuse them by name and read zeros
    /// through a register that holds one.
    pub surfaces: HashMap<String, u32>,
    /// `txq.channel_data_type` / `.channel_order` per header index: the source
    /// language's enumerations, passed through (PTX ISA 9.7.10.5). Absent
    /// entries report the format's CUDA `cudaChannelFormatKind`
    /// ([`channel_data_type`]), CUDA's one enumeration for both.
    pub channel: HashMap<u32, [u32; 2]>,
}

impl Symbols {
    /// The value a `mov.u64 %rd, name` of a declared opaque variable would
    /// put in a register ([`OpaqueRef::to_u64`]); `None` for an unknown
    /// name.
    pub fn address_of(&self, name: &str) -> Option<u64> {
        let r = if let Some(&h) = self.textures.get(name) {
            OpaqueRef::Texref(Handle(h & 0xf_ffff))
        } else if let Some(&s) = self.samplers.get(name) {
            OpaqueRef::Samplerref(s)
        } else {
            OpaqueRef::Surfref(*self.surfaces.get(name)?)
        };
        Some(r.to_u64())
    }
}

/// The state a PTX texture instruction runs against.
#[derive(Clone, Copy, Debug)]
pub struct PtxContext<'a> {
    /// Header and sampler pools ([`Pools::for_ptx`]).
    pub pools: &'a Pools,
    /// The symbol table.
    pub symbols: &'a Symbols,
    /// `.target texmode_unified` or `texmode_independent` (PTX ISA 9.7.10.1,
    /// "Texturing Modes").
    pub mode: TexturingMode,
    /// The profile; [`Profile::PTX`].
    pub profile: Profile,
}

// ---------------------------------------------------------------- parsing

/// Splits at commas outside `[]` and `{}`.
fn split_top(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '[' | '{' => {
                depth += 1;
                cur.push(ch);
            }
            ']' | '}' => {
                depth -= 1;
                cur.push(ch);
            }
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
            }
            _ => cur.push(ch),
        }
    }
    if !cur.trim().is_empty() || !out.is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn is_name(s: &str) -> bool {
    let mut it = s.chars();
    match it.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '%' || c == '_' || c == '$' => {}
        _ => return false,
    }
    it.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

fn parse_name(s: &str) -> Result<String> {
    if is_name(s) {
        Ok(s.to_string())
    } else {
        Err(Error::bad_operand(s.to_string()))
    }
}

fn parse_imm(s: &str) -> Option<u32> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    // One sign at most: Rust's parsers would take a second (`--5`, `-+5`).
    if body.starts_with(['-', '+']) {
        return None;
    }
    if let Some(h) = body.strip_prefix("0f").or_else(|| body.strip_prefix("0F")) {
        if neg || h.len() != 8 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        return u32::from_str_radix(h, 16).ok();
    }
    if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        // Digits only: `from_str_radix` takes a sign of its own (`0x+5`).
        if !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let v = u32::from_str_radix(h, 16).ok()?;
        return Some(if neg { v.wrapping_neg() } else { v });
    }
    if body.contains('.') || body.contains('e') || body.contains('E') {
        let v: f32 = body.parse().ok()?;
        return Some(if neg { -v } else { v }.to_bits());
    }
    let v: i64 = body.parse().ok()?;
    let v = if neg { v.checked_neg()? } else { v };
    if v < i64::from(i32::MIN) || v > i64::from(u32::MAX) {
        return None;
    }
    Some(v as u32)
}

fn parse_operand(s: &str) -> Result<Operand> {
    if is_name(s) {
        Ok(Operand::Reg(s.to_string()))
    } else {
        parse_imm(s)
            .map(Operand::Imm)
            .ok_or_else(|| Error::bad_operand(s.to_string()))
    }
}

/// `{a, b, ...}` (or a bare scalar, as a singleton) of `n` elements.
fn parse_vector(s: &str, n: usize) -> Result<Vec<Operand>> {
    let inner = match s.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        Some(i) => i,
        None if n == 1 => s,
        None => return Err(Error::bad_operand(s.to_string())),
    };
    let v = inner
        .split(',')
        .map(|e| parse_operand(e.trim()))
        .collect::<Result<Vec<_>>>()?;
    if v.len() != n {
        return Err(Error::bad_operand(s.to_string()));
    }
    Ok(v)
}

/// `{d0, d1, ...}` or `{..}|p`.
fn parse_dest(s: &str, n: usize) -> Result<(Vec<String>, Option<String>)> {
    let (d, p) = match s.split_once('|') {
        Some((d, p)) => (d.trim(), Some(parse_name(p.trim())?)),
        None => (s, None),
    };
    let inner = d
        .strip_prefix('{')
        .and_then(|r| r.strip_suffix('}'))
        .ok_or_else(|| Error::bad_operand(d.to_string()))?;
    let v = inner
        .split(',')
        .map(|e| parse_name(e.trim()))
        .collect::<Result<Vec<_>>>()?;
    if v.len() != n {
        return Err(Error::bad_operand(d.to_string()));
    }
    Ok((v, p))
}

/// `[a, c]` or `[a, b, c]` (texture, optional sampler, coordinates).
fn parse_address(s: &str, n: usize) -> Result<(String, Option<String>, Vec<Operand>)> {
    let inner = s
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| Error::bad_operand(s.to_string()))?;
    let parts = split_top(inner);
    match parts.as_slice() {
        [a, c] => Ok((parse_name(a)?, None, parse_vector(c, n)?)),
        [a, b, c] => Ok((parse_name(a)?, Some(parse_name(b)?), parse_vector(c, n)?)),
        _ => Err(Error::bad_operand(s.to_string())),
    }
}

/// Checks immediate offsets against `-8..7` at parse time; register
/// offsets are checked when they are read.
fn check_imm_offsets(e: &[Operand]) -> Result<()> {
    for o in e {
        if let Operand::Imm(v) = o {
            let v = *v as i32;
            if !(-8..=7).contains(&v) {
                return Err(Error::offset_out_of_range(v.to_string()));
            }
        }
    }
    Ok(())
}

/// The optional trailing `{, e} {, f}` operands: a braced vector is the
/// offset, a scalar the depth compare.
fn parse_tail(rest: &[String], geom: Geom) -> Result<(Option<Vec<Operand>>, Option<Operand>)> {
    let mut offset = None;
    let mut compare = None;
    for t in rest {
        if t.starts_with('{') {
            if offset.is_some() || compare.is_some() {
                return Err(Error::bad_operand(t.clone()));
            }
            let n = geom.offset_len();
            if n == 0 {
                return Err(Error::offset_on_cube(t.clone()));
            }
            let e = parse_vector(t, n)?;
            check_imm_offsets(&e)?;
            offset = Some(e);
        } else {
            if compare.is_some() {
                return Err(Error::bad_operand(t.clone()));
            }
            if geom == Geom::D3 {
                return Err(Error::compare_on_3d(t.clone()));
            }
            compare = Some(parse_operand(t)?);
        }
    }
    Ok((offset, compare))
}

fn parse_dtype(s: &str) -> Option<DType> {
    Some(match s {
        "u32" => DType::U32,
        "s32" => DType::S32,
        "f32" => DType::F32,
        "f16" => DType::F16,
        _ => return None,
    })
}

fn bad_mod(s: Option<&&str>) -> Error {
    Error::bad_modifier(s.map_or_else(|| "<missing>".to_string(), |s| s.to_string()))
}

/// Parses one PTX texture instruction (`tex`, `tld4`, `txq`, `istypep`; PTX ISA
/// 9.7.10.3-6). A trailing `;` and `//` comment are allowed. Immediate offsets
/// outside `-8..7` and offsets on cubes are rejected here.
pub fn parse(line: &str) -> Result<Instr> {
    let line = line.split("//").next().unwrap_or("").trim();
    let line = line.strip_suffix(';').unwrap_or(line).trim();
    let (op, rest) = match line.find(|c: char| c.is_whitespace() || c == '{') {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    let mods: Vec<&str> = op.split('.').collect();
    let operands = split_top(rest);
    match mods.first().copied() {
        Some("tex") => parse_tex(&mods[1..], &operands).map(Instr::Tex),
        Some("tld4") => parse_tld4(&mods[1..], &operands).map(Instr::Tld4),
        Some("txq") => parse_txq(&mods[1..], &operands).map(Instr::Txq),
        Some("istypep") => parse_istypep(&mods[1..], &operands).map(Instr::Istypep),
        _ => Err(Error::unknown_opcode(op.to_string())),
    }
}

fn parse_tex(mods: &[&str], ops: &[String]) -> Result<Tex> {
    let mut it = mods.iter().peekable();
    let mip_kind = match it.peek().copied().copied() {
        Some(m @ ("base" | "level" | "grad")) => {
            it.next();
            Some(m)
        }
        _ => None,
    };
    let g = it.next();
    let geom = g.and_then(|g| Geom::parse(g)).ok_or_else(|| bad_mod(g))?;
    let v = it.next();
    let dtype = match v.copied() {
        Some("v4") => {
            let d = it.next();
            d.and_then(|d| parse_dtype(d)).ok_or_else(|| bad_mod(d))?
        }
        Some("v2") => {
            let d = it.next();
            if d.copied() != Some("f16x2") {
                return Err(bad_mod(d));
            }
            DType::F16x2
        }
        _ => return Err(bad_mod(v)),
    };
    let c = it.next();
    let ctype = match c.copied() {
        Some("f32") => CType::F32,
        Some("s32") => CType::S32,
        _ => return Err(bad_mod(c)),
    };
    if let Some(extra) = it.next() {
        return Err(Error::bad_modifier(extra.to_string()));
    }
    // .cube/.acube require .f32, .2dms/.a2dms require .s32 (PTX ISA 9.7.10.3).
    match (geom, ctype) {
        (Geom::Cube | Geom::Acube, CType::S32) | (Geom::D2ms | Geom::A2dms, CType::F32) => {
            return Err(Error::bad_modifier(
                match ctype {
                    CType::S32 => "s32",
                    CType::F32 => "f32",
                }
                .to_string(),
            ))
        }
        _ => {}
    }
    let (dst, pred) = parse_dest(
        ops.first().ok_or_else(|| bad_operands(ops))?,
        dtype.dest_len(),
    )?;
    let (texture, sampler, coords) = parse_address(
        ops.get(1).ok_or_else(|| bad_operands(ops))?,
        geom.coord_len(),
    )?;
    let mut rest = &ops[2..];
    let mip = match mip_kind {
        None => Mip::None,
        Some("base") => Mip::Base,
        Some("level") => {
            let l = rest.first().ok_or_else(|| bad_operands(ops))?;
            rest = &rest[1..];
            Mip::Level(parse_operand(l)?)
        }
        _ => {
            let n = geom.grad_len();
            let (dx, dy) = match rest {
                [dx, dy, ..] => (parse_vector(dx, n)?, parse_vector(dy, n)?),
                _ => return Err(bad_operands(ops)),
            };
            rest = &rest[2..];
            Mip::Grad(dx, dy)
        }
    };
    let (offset, compare) = parse_tail(rest, geom)?;
    Ok(Tex {
        mip,
        geom,
        dtype,
        ctype,
        dst,
        pred,
        texture,
        sampler,
        coords,
        offset,
        compare,
    })
}

fn bad_operands(ops: &[String]) -> Error {
    Error::bad_operand(ops.join(", "))
}

fn parse_tld4(mods: &[&str], ops: &[String]) -> Result<Tld4> {
    let comp = match mods.first().copied() {
        Some("r") => 0,
        Some("g") => 1,
        Some("b") => 2,
        Some("a") => 3,
        _ => return Err(bad_mod(mods.first())),
    };
    let geom = match mods.get(1).copied() {
        Some("2d") => Geom::D2,
        Some("a2d") => Geom::A2d,
        Some("cube") => Geom::Cube,
        Some("acube") => Geom::Acube,
        _ => return Err(bad_mod(mods.get(1))),
    };
    if mods.get(2).copied() != Some("v4") {
        return Err(bad_mod(mods.get(2)));
    }
    let dtype = match mods.get(3).copied() {
        Some("u32") => DType::U32,
        Some("s32") => DType::S32,
        Some("f32") => DType::F32,
        _ => return Err(bad_mod(mods.get(3))),
    };
    if mods.get(4).copied() != Some("f32") {
        return Err(bad_mod(mods.get(4)));
    }
    if let Some(extra) = mods.get(5) {
        return Err(Error::bad_modifier(extra.to_string()));
    }
    let (dst, pred) = parse_dest(ops.first().ok_or_else(|| bad_operands(ops))?, 4)?;
    let (texture, sampler, coords) = parse_address(
        ops.get(1).ok_or_else(|| bad_operands(ops))?,
        geom.coord_len(),
    )?;
    let (offset, compare) = parse_tail(&ops[2..], geom)?;
    Ok(Tld4 {
        comp,
        geom,
        dtype,
        dst,
        pred,
        texture,
        sampler,
        coords,
        offset,
        compare,
    })
}

fn parse_txq(mods: &[&str], ops: &[String]) -> Result<Txq> {
    let (level, mods) = match mods.first().copied() {
        Some("level") => (true, &mods[1..]),
        _ => (false, mods),
    };
    let q = mods.first();
    let query = q
        .and_then(|q| TxqQuery::parse(q))
        .ok_or_else(|| bad_mod(q))?;
    if level && !matches!(query, TxqQuery::Width | TxqQuery::Height | TxqQuery::Depth) {
        return Err(bad_mod(q));
    }
    if mods.get(1).copied() != Some("b32") {
        return Err(bad_mod(mods.get(1)));
    }
    if let Some(extra) = mods.get(2) {
        return Err(Error::bad_modifier(extra.to_string()));
    }
    let n = if level { 3 } else { 2 };
    if ops.len() != n {
        return Err(bad_operands(ops));
    }
    let dst = parse_name(&ops[0])?;
    let target = ops[1]
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| Error::bad_operand(ops[1].clone()))?;
    let target = parse_name(target.trim())?;
    let level = if level {
        Some(parse_operand(&ops[2])?)
    } else {
        None
    };
    Ok(Txq {
        query,
        level,
        dst,
        target,
    })
}

fn parse_istypep(mods: &[&str], ops: &[String]) -> Result<Istypep> {
    let ty = match mods {
        ["texref"] => OpaqueType::Texref,
        ["samplerref"] => OpaqueType::Samplerref,
        ["surfref"] => OpaqueType::Surfref,
        _ => return Err(bad_mod(mods.first())),
    };
    match ops {
        [d, s] => Ok(Istypep {
            ty,
            dst: parse_name(d)?,
            src: parse_name(s)?,
        }),
        _ => Err(bad_operands(ops)),
    }
}

// -------------------------------------------------------------- execution

/// Parses and executes one instruction on `regs`.
pub fn run(ctx: &PtxContext<'_>, line: &str, regs: &mut Regs) -> Result<()> {
    execute(ctx, &parse(line)?, regs)
}

/// Executes one instruction on the active lanes of `regs` (PTX ISA 9.7.10).
///
/// Errors are front-end errors: unknown symbols or registers, a sampler
/// operand the texturing mode forbids or lacks, a `.surfref` symbol as a
/// texture, a register texture operand in independent mode, and register
/// offsets outside `-8..7`. Invalid handles (and registers naming no
/// `.texref`) are not errors: they read zeros.
pub fn execute(ctx: &PtxContext<'_>, instr: &Instr, regs: &mut Regs) -> Result<()> {
    match instr {
        Instr::Tex(t) => exec_tex(ctx, t, regs),
        Instr::Tld4(t) => exec_tld4(ctx, t, regs),
        Instr::Txq(t) => exec_txq(ctx, t, regs),
        Instr::Istypep(t) => exec_istypep(ctx, t, regs),
    }
}

/// What a `.u64` register that holds "the address of" an opaque variable names
/// (PTX ISA 9.7.10: indirect texture access, "operand `a` is a `.u64` register
/// holding the address of a `.texref` variable"; `istypep`, "whether register
/// `a` points to an opaque variable of a specified type").
///
/// The encoding is the emulator's: bits 63:32 give the kind (0 `.texref`,
/// 1 `.samplerref`, 2 `.surfref`) and bits 31:0 the object (a packed
/// [`Handle`], a sampler index, a surface index). Kind 0 keeps a bare
/// 32-bit handle word a `.texref` (a bindless handle in unified mode);
/// any other kind names no opaque variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpaqueRef {
    /// A `.texref`: the texture (and, in unified mode, sampler) handle.
    Texref(Handle),
    /// A `.samplerref`: a sampler index.
    Samplerref(u32),
    /// A `.surfref`: a surface index ([`Symbols::surfaces`]).
    Surfref(u32),
}

impl OpaqueRef {
    /// The register value.
    pub const fn to_u64(self) -> u64 {
        match self {
            OpaqueRef::Texref(h) => h.0 as u64,
            OpaqueRef::Samplerref(i) => (1 << 32) | i as u64,
            OpaqueRef::Surfref(i) => (2 << 32) | i as u64,
        }
    }

    /// What a register value names, if anything.
    pub const fn from_u64(v: u64) -> Option<OpaqueRef> {
        let lo = v as u32;
        match v >> 32 {
            0 => Some(OpaqueRef::Texref(Handle(lo))),
            1 => Some(OpaqueRef::Samplerref(lo)),
            2 => Some(OpaqueRef::Surfref(lo)),
            _ => None,
        }
    }
}

/// A `.u64` register operand's value per lane: [`Regs::wide`] first, else a
/// 32-bit register zero-extended.
fn read_u64(regs: &Regs, name: &str) -> Option<[u64; 4]> {
    regs.get_u64(name)
        .or_else(|| regs.get(name).map(|w| w.map(u64::from)))
}

/// The texture handles of a texture operand, per lane: a `.texref` symbol (the
/// same handle in every lane), or, in unified mode, a `.u64` register (indirect
/// access, PTX ISA 9.7.10), each lane its own; a lane whose register names no
/// `.texref` (a surface, a sampler, garbage) gets `None` and reads zeros. A
/// `.samplerref` or `.surfref` symbol is an error.
fn texture_handles(ctx: &PtxContext<'_>, name: &str, regs: &Regs) -> Result<[Option<Handle>; 4]> {
    if let Some(&h) = ctx.symbols.textures.get(name) {
        return Ok([Some(Handle(h & 0xf_ffff)); 4]);
    }
    if ctx.symbols.samplers.contains_key(name) {
        return Err(Error::bad_operand(name.to_string()));
    }
    if ctx.symbols.surfaces.contains_key(name) {
        return Err(Error::surface_operand(name.to_string()));
    }
    let v = read_u64(regs, name).ok_or_else(|| Error::unknown_symbol(name.to_string()))?;
    if ctx.mode == TexturingMode::Independent {
        return Err(Error::indirect_not_unified(name.to_string()));
    }
    Ok(v.map(|w| match OpaqueRef::from_u64(w) {
        Some(OpaqueRef::Texref(h)) => Some(h),
        Some(OpaqueRef::Samplerref(_) | OpaqueRef::Surfref(_)) | None => None,
    }))
}

/// The sampler index of a sampler operand per lane: a `.samplerref`
/// symbol, or a register holding a `.samplerref` (or a packed handle,
/// whose `samplerPtr` field is used).
fn sampler_indices(ctx: &PtxContext<'_>, name: &str, regs: &Regs) -> Result<[Option<u32>; 4]> {
    if let Some(&s) = ctx.symbols.samplers.get(name) {
        return Ok([Some(s); 4]);
    }
    if ctx.symbols.textures.contains_key(name) {
        return Err(Error::bad_operand(name.to_string()));
    }
    if ctx.symbols.surfaces.contains_key(name) {
        return Err(Error::surface_operand(name.to_string()));
    }
    let v = read_u64(regs, name).ok_or_else(|| Error::unknown_symbol(name.to_string()))?;
    Ok(v.map(|w| match OpaqueRef::from_u64(w) {
        Some(OpaqueRef::Samplerref(i)) => Some(i),
        Some(OpaqueRef::Texref(h)) => Some(h.sampler()),
        Some(OpaqueRef::Surfref(_)) | None => None,
    }))
}

/// The handles a texture/sampler pair names under the texturing mode, per
/// lane: unified refuses a sampler operand, independent requires one (PTX
/// ISA 9.7.10.1, "Texturing Modes"), except for multisample fetches, which
/// use none.
fn combined_handles(
    ctx: &PtxContext<'_>,
    texture: &str,
    sampler: Option<&String>,
    needs_sampler: bool,
    regs: &Regs,
) -> Result<[Option<Handle>; 4]> {
    let t = texture_handles(ctx, texture, regs)?;
    match (ctx.mode, sampler) {
        (TexturingMode::Unified, Some(s)) => Err(Error::sampler_not_allowed(s.clone())),
        (TexturingMode::Unified, None) => Ok(t),
        (TexturingMode::Independent, None) if needs_sampler => {
            Err(Error::sampler_required(texture.to_string()))
        }
        (TexturingMode::Independent, None) => Ok(t),
        (TexturingMode::Independent, Some(s)) => {
            let si = sampler_indices(ctx, s, regs)?;
            Ok([0, 1, 2, 3].map(|l| {
                let (t, s) = (t[l]?, si[l]?);
                Some(Handle((t.0 & 0xf_ffff) | ((s & 0xfff) << 20)))
            }))
        }
    }
}

/// Reads an offset vector per lane, checking `-8..7` in the active lanes
/// (PTX ISA 9.7.10.3).
fn read_offset(regs: &Regs, e: &[Operand]) -> Result<[[i32; 3]; 4]> {
    let mut out = [[0i32; 3]; 4];
    for (k, op) in e.iter().take(3).enumerate() {
        let v = regs.read(op)?;
        for lane in 0..4 {
            if regs.active & (1 << lane) == 0 {
                continue;
            }
            let o = v[lane] as i32;
            if !(-8..=7).contains(&o) {
                let name = match op {
                    Operand::Reg(r) => format!("{r} = {o}"),
                    Operand::Imm(_) => o.to_string(),
                };
                return Err(Error::offset_out_of_range(name));
            }
            out[lane][k] = o;
        }
    }
    Ok(out)
}

/// Runs a core once per group of active lanes sharing a key (handle and
/// offset), merging the lanes of each group into one result. Registers
/// may give each lane its own offset and handle while a core call takes
/// one per quad; in each call the group's lanes are active and the quad's
/// other active lanes are helpers, so implicit derivatives and the
/// partial-quad rule still see the whole quad (an offset must not change
/// the LOD) and a lane gets exactly what a quad with its key in every lane
/// would give it. `run` gets the key and the quad (its `active` is the
/// group); a `None` from it means zeros (no valid texture).
fn run_groups<K: PartialEq + Copy>(
    keys: [K; 4],
    coords: [[f32; 4]; 4],
    active: u8,
    mut run: impl FnMut(K, &Quad) -> Option<QuadResult>,
) -> QuadResult {
    let mut out = QuadResult::EMPTY;
    for (k, mask) in super::groups(keys, active) {
        let quad = Quad {
            coords,
            active: mask,
            helper: active & !mask,
        };
        let r = run(k, &quad).unwrap_or_else(|| QuadResult::zeros(mask, SampleType::Float));
        for lane in 0..4 {
            if mask & (1 << lane) != 0 {
                out.texels[lane] = r.texels[lane];
                out.resident[lane] = r.resident[lane];
            }
        }
    }
    out
}

fn read_all(regs: &Regs, ops: &[Operand]) -> Result<Vec<[u32; 4]>> {
    ops.iter().map(|o| regs.read(o)).collect()
}

/// Coordinate word to float: `.f32` bits, or an `.s32` integer's value.
fn coord(v: u32, ctype: CType) -> f32 {
    match ctype {
        CType::F32 => f32::from_bits(v),
        CType::S32 => v as i32 as f32,
    }
}

/// Builds the quad: `[s, t, r, layer]` per lane, the layer an exact
/// integer (`.u32`, docs/semantics.md §5).
fn build_quad(geom: Geom, ctype: CType, c: &[[u32; 4]], active: u8) -> Quad {
    let mut coords = [[0f32; 4]; 4];
    for (lane, out) in coords.iter_mut().enumerate() {
        let f = |k: usize| coord(c[k][lane], ctype);
        let layer = |k: usize| c[k][lane] as f32;
        *out = match geom {
            Geom::D1 => [f(0), 0.0, 0.0, 0.0],
            Geom::D2 => [f(0), f(1), 0.0, 0.0],
            Geom::D3 | Geom::Cube => [f(0), f(1), f(2), 0.0],
            Geom::A1d => [f(1), 0.0, 0.0, layer(0)],
            Geom::A2d => [f(1), f(2), 0.0, layer(0)],
            Geom::Acube => [f(1), f(2), f(3), layer(0)],
            // Multisample geometries go through `fetch`, not a quad.
            Geom::D2ms | Geom::A2dms => [0.0; 4],
        };
    }
    Quad {
        coords,
        active: active & 0xf,
        helper: 0,
    }
}

/// Writes a quad result: zeros where `p` is false (PTX ISA 9.7.10.3: "data
/// loaded will be all zeros"), then the destination type's packing.
fn write_result(
    r: &QuadResult,
    dtype: DType,
    dst: &[String],
    pred: Option<&String>,
    regs: &mut Regs,
) {
    // PTX's `p` is true when resident (PTX ISA 9.7.10.3), whatever polarity the
    // context's profile gives SASS `Ps`.
    let resident = r.resident;
    let mut words = [[0u32; 4]; 4];
    for lane in 0..4 {
        if let Some(t) = r.texels[lane] {
            if resident[lane] {
                words[lane] = to_words(t, dtype.output());
            }
        }
    }
    for (k, d) in dst.iter().enumerate() {
        regs.write_lanes(d, [words[0][k], words[1][k], words[2][k], words[3][k]]);
    }
    if let Some(pn) = pred {
        regs.write_pred(pn, resident);
    }
}

fn exec_tex(ctx: &PtxContext<'_>, t: &Tex, regs: &mut Regs) -> Result<()> {
    let ms = matches!(t.geom, Geom::D2ms | Geom::A2dms);
    let hs = combined_handles(ctx, &t.texture, t.sampler.as_ref(), !ms, regs)?;
    let c = read_all(regs, &t.coords)?;
    let offsets = match &t.offset {
        Some(e) => read_offset(regs, e)?,
        None => [[0; 3]; 4],
    };
    let active = regs.active & 0xf;
    let keys = [0, 1, 2, 3].map(|l| (hs[l], offsets[l]));
    let r = if ms {
        let mut args = FetchArgs::default();
        let lanes = args.icoords.iter_mut().zip(args.sample.iter_mut());
        for (lane, (ic, sm)) in lanes.enumerate() {
            let w = |k: usize| c[k][lane] as i32;
            // 2dms: {sample, x, y, pad}; a2dms: {idx, sample, x, y}.
            let (layer, sample, x, y) = match t.geom {
                Geom::A2dms => (w(0), w(1), w(2), w(3)),
                _ => (0, w(0), w(1), w(2)),
            };
            *ic = [x, y, 0, layer];
            *sm = sample;
        }
        run_groups(keys, [[0.0; 4]; 4], active, |(h, offset), quad| {
            let view = ctx.pools.header(h?)?;
            let args = FetchArgs { offset, ..args };
            Some(fetch(view, &args, quad.active))
        })
    } else {
        let quad = build_quad(t.geom, t.ctype, &c, active);
        let lod = match &t.mip {
            Mip::None | Mip::Base => Lod::Base,
            Mip::Level(l) => Lod::Level(regs.read(l)?.map(f32::from_bits)),
            Mip::Grad(dx, dy) => {
                let (dx, dy) = (read_all(regs, dx)?, read_all(regs, dy)?);
                let mut ddx = [[0f32; 3]; 4];
                let mut ddy = [[0f32; 3]; 4];
                for lane in 0..4 {
                    for k in 0..dx.len().min(3) {
                        ddx[lane][k] = f32::from_bits(dx[k][lane]);
                        ddy[lane][k] = f32::from_bits(dy[k][lane]);
                    }
                }
                Lod::Grad { ddx, ddy }
            }
        };
        let dref = match &t.compare {
            Some(f) => Some(regs.read(f)?.map(f32::from_bits)),
            None => None,
        };
        run_groups(keys, quad.coords, active, |(h, offset), quad| {
            let args = SampleArgs {
                lod,
                offset,
                dref,
                ..SampleArgs::default()
            };
            let (view, smp) = ctx.pools.resolve(h?)?;
            Some(crate::sample(view, smp, &ctx.profile, &args, quad))
        })
    };
    write_result(&r, t.dtype, &t.dst, t.pred.as_ref(), regs);
    Ok(())
}

fn exec_tld4(ctx: &PtxContext<'_>, t: &Tld4, regs: &mut Regs) -> Result<()> {
    let hs = combined_handles(ctx, &t.texture, t.sampler.as_ref(), true, regs)?;
    let c = read_all(regs, &t.coords)?;
    let offsets = match &t.offset {
        Some(e) => Some(read_offset(regs, e)?),
        None => None,
    };
    let dref = match &t.compare {
        Some(f) => Some(regs.read(f)?.map(f32::from_bits)),
        None => None,
    };
    let active = regs.active & 0xf;
    let quad = build_quad(t.geom, CType::F32, &c, active);
    let keys = [0, 1, 2, 3].map(|l| (hs[l], offsets.map(|o| [o[l][0], o[l][1]])));
    let r = run_groups(keys, quad.coords, active, |(h, o), quad| {
        let args = GatherArgs {
            component: t.comp,
            offsets: o.map_or(GatherOffsets::None, GatherOffsets::Aoffi),
            dref,
            ndv: false,
        };
        let (view, smp) = ctx.pools.resolve(h?)?;
        Some(gather(view, smp, &ctx.profile, &args, quad))
    });
    write_result(&r, t.dtype, &t.dst, t.pred.as_ref(), regs);
    Ok(())
}

/// `max(1, dim >> lod)` (PTX ISA 9.7.10.2, "Mipmaps"); a LOD of 32 or more (or
/// a negative one, read unsigned) gives 1.
fn level_dim(dim: u32, lod: u32) -> u32 {
    dim.checked_shr(lod).unwrap_or(0).max(1)
}

/// The texture attributes of `txq` for `view` (PTX ISA 9.7.10.5;
/// docs/semantics.md §5 and §9): extents are the view's base level shifted by
/// `lod`; `array_size`, `num_mipmap_levels` and `num_samples` are 0 when not
/// applicable (cube arrays count cubes).
pub fn texture_query(
    view: &TextureHeader,
    query: TxqQuery,
    lod: u32,
    channel: [u32; 2],
    normalized: bool,
) -> u32 {
    let base = view.texture.desc().level_extent(view.base_level);
    match query {
        TxqQuery::Width => level_dim(base.width, lod),
        TxqQuery::Height => level_dim(base.height, lod),
        TxqQuery::Depth => level_dim(base.depth, lod),
        TxqQuery::ChannelDataType => channel[0],
        TxqQuery::ChannelOrder => channel[1],
        TxqQuery::NormalizedCoords => u32::from(normalized),
        TxqQuery::ArraySize => match view.kind {
            TextureKind::CubeArray => view.layer_count / 6,
            TextureKind::D1Array | TextureKind::D2Array | TextureKind::D2MsArray => {
                view.layer_count
            }
            TextureKind::D1
            | TextureKind::D2
            | TextureKind::D3
            | TextureKind::Cube
            | TextureKind::D2Ms => 0,
        },
        TxqQuery::NumMipmapLevels => {
            if view.kind.is_multisample() || view.level_count <= 1 {
                0
            } else {
                view.level_count
            }
        }
        TxqQuery::NumSamples => {
            if view.kind.is_multisample() {
                view.texture.desc().samples
            } else {
                0
            }
        }
        TxqQuery::ForceUnnormalizedCoords | TxqQuery::FilterMode | TxqQuery::AddrMode(_) => 0,
    }
}

fn exec_txq(ctx: &PtxContext<'_>, t: &Txq, regs: &mut Regs) -> Result<()> {
    let value: [u32; 4] = if t.query.is_sampler_query() {
        // Unified: sampler state through the .texref; independent: a
        // .samplerref (PTX ISA 9.7.10.1).
        let hs: [Option<Handle>; 4] = match ctx.mode {
            TexturingMode::Unified => texture_handles(ctx, &t.target, regs)?,
            TexturingMode::Independent => {
                if ctx.symbols.textures.contains_key(&t.target) {
                    return Err(Error::bad_operand(t.target.clone()));
                }
                sampler_indices(ctx, &t.target, regs)?.map(|s| Some(Handle((s? & 0xfff) << 20)))
            }
        };
        hs.map(|h| match h.and_then(|h| ctx.pools.sampler(h)) {
            None => 0,
            Some(s) => match t.query {
                TxqQuery::ForceUnnormalizedCoords => u32::from(s.unnormalized),
                TxqQuery::FilterMode => match s.mag_filter {
                    Filter::Nearest => 0,
                    Filter::Linear => 1,
                },
                TxqQuery::AddrMode(i) => addr_mode_code(s.address[usize::from(i.min(2))]),
                _ => 0,
            },
        })
    } else {
        let hs = texture_handles(ctx, &t.target, regs)?;
        let lod = match &t.level {
            Some(l) => regs.read(l)?,
            None => [0; 4],
        };
        let mut v = [0u32; 4];
        for lane in 0..4 {
            let Some(h) = hs[lane] else { continue };
            let Some(view) = ctx.pools.header(h) else {
                continue;
            };
            let channel = ctx
                .symbols
                .channel
                .get(&h.header())
                .copied()
                .unwrap_or_else(|| {
                    let f = view.format();
                    [channel_data_type(f), channel_order(f)]
                });
            let normalized = ctx.pools.sampler(h).is_some_and(|s| !s.unnormalized);
            v[lane] = texture_query(view, t.query, lod[lane], channel, normalized);
        }
        v
    };
    regs.write_lanes(&t.dst, value);
    Ok(())
}

/// Whether sampler index `si` names a valid sampler.
fn sampler_valid(ctx: &PtxContext<'_>, si: u32) -> bool {
    ctx.pools
        .istypep(OpaqueType::Samplerref, Handle((si & 0xfff) << 20))
}

/// `istypep` (PTX ISA 9.7.10.6): true where the operand names a valid
/// opaque variable of the type. Textures and samplers are valid when their
/// pool slot is; surfaces when the symbol table declares one with that
/// index ([`Symbols::surfaces`]).
fn exec_istypep(ctx: &PtxContext<'_>, t: &Istypep, regs: &mut Regs) -> Result<()> {
    let syms = ctx.symbols;
    let named = if let Some(&hi) = syms.textures.get(&t.src) {
        Some(OpaqueRef::Texref(Handle(hi & 0xf_ffff)))
    } else if let Some(&si) = syms.samplers.get(&t.src) {
        Some(OpaqueRef::Samplerref(si))
    } else {
        syms.surfaces.get(&t.src).map(|&i| OpaqueRef::Surfref(i))
    };
    let refs: [Option<OpaqueRef>; 4] = match named {
        Some(r) => [Some(r); 4],
        None => read_u64(regs, &t.src)
            .ok_or_else(|| Error::unknown_register(t.src.clone()))?
            .map(OpaqueRef::from_u64),
    };
    let v = refs.map(|r| match (t.ty, r) {
        (OpaqueType::Texref, Some(OpaqueRef::Texref(h))) => {
            ctx.pools.istypep(OpaqueType::Texref, h)
        }
        (OpaqueType::Samplerref, Some(OpaqueRef::Samplerref(si))) => sampler_valid(ctx, si),
        (OpaqueType::Surfref, Some(OpaqueRef::Surfref(i))) => {
            syms.surfaces.values().any(|&s| s == i)
        }
        _ => false,
    });
    regs.write_pred(&t.dst, v);
    Ok(())
}
