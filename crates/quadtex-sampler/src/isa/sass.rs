//! NVIDIA SASS texture instructions: TLD4 and TMML.LOD (NVIDIA's SASS
//! instruction reference for each; docs/semantics.md §1, §2 and §11), and
//! TEX, TLD and TXQ on a four-lane register file.
//!
//! What lives here: the register file of one quad ([`RegFile`]), the
//! instruction structs ([`Tld4`], [`TmmlLod`], [`Tex`], [`Tld`], [`Txq`],
//! [`Instruction`]), their text parser ([`parse`]), operand decoding (the
//! Ra/Rb packing tables and the alignment rules of the TMML reference, which
//! TLD4 shares; docs/semantics.md §11), AOFFI/PTP unpacking, the
//! destination write-back and the TSC encodings TXQ reports
//! ([`tsc_address_code`]). What does not: the sampling, gather, fetch and
//! query cores themselves ([`crate::sample()`], [`crate::gather()`],
//! [`crate::fetch()`], [`crate::query_lod`], [`crate::query`]).
//!
//! None of the references quadtex follows documents TEX, TLD or TXQ. Their
//! syntax follows the TLD4/TMML lines, and their operand packing the same
//! tables (array index in Ra+0 bits 15:0, then s, t, r; Rb+0 the handle
//! under `.B`, then LOD or bias, offsets, reference; absent parameters
//! compact upwards), in the order Mesa's NAK (`nak_nir_lower_tex.c`,
//! `lower_tex` for `sm >= 50`) builds its two source vectors; each struct's
//! doc gives its table and sources.
//!
//! Emulator choices the TLD4 and TMML references leave open:
//! - `.phase` (`.T`, `.P`) only steers the hardware's scheduling hash; it
//!   is accepted and has no effect.
//! - The handle (`.B`), the offsets and the reference are per-lane
//!   registers, while a core call takes one view and one set of offsets per
//!   quad. Lanes whose handle or offset registers differ run as separate
//!   groups; in each, the quad's other running lanes take part as helpers
//!   whose results are dropped, so implicit derivatives and the
//!   partial-quad rule always see the whole quad (an offset never changes
//!   the LOD).
//! - Coordinates are read from all four lanes' registers, active or not, so
//!   `.NDV` derivatives see the stale registers of inactive lanes, as the
//!   TLD4 reference describes.
//! - A lane whose guard predicate (`@Pg`) is false does not run at all.
//! - `.NODEP`: helper lanes skip the fetch and keep their destinations, but
//!   their coordinates still feed the live lanes' derivatives and they
//!   still count for the partial-quad rule (docs/semantics.md §3, inferred).
//! - `.NDV` on TLD4 only matters for a `TWO_D_NO_MIPMAP` header (TLD4 as
//!   TEX), where `GatherArgs::ndv` carries it to the TEX path.
//!
//! Errors are the crate's [`Error`]: text that does not parse names the
//! offending token (upper case, as read) and what was expected there; an
//! operand combination the references forbid is of kind
//! [`NotSupported`](ErrorKind::NotSupported), a register tuple against
//! the TMML reference's alignment and RZ rules of kind
//! [`Misaligned`](ErrorKind::Misaligned).

use std::fmt;

use quadtex_format::TextureKind;

use super::groups;
use crate::error::{Error, ErrorKind, Result};
use crate::fetch::{fetch, FetchArgs};
use crate::gather::{gather, GatherArgs, GatherOffsets};
use crate::header::{
    AddressMode, BorderColor, Filter, HeaderType, MipmapMode, SamplerHeader, TextureHeader,
};
use crate::lod::query_lod;
use crate::output::{to_words, write_masked, OutputType};
use crate::pool::{ts_ptr_idx, Handle, Pools};
use crate::profile::{AnisoLevels, Profile};
use crate::quad::{Lod, Quad, QuadResult, SampleArgs};

/// `RZ`: register 255 reads 0 and ignores writes.
pub const RZ: u8 = 255;
/// `PT`: predicate 7 reads true and ignores writes.
pub const PT: u8 = 7;

/// The registers of one quad: 4 lanes x 256 32-bit registers (R255 = RZ)
/// and 7 writable predicates per lane (P7 = PT). Lane order is the quad's
/// (0 = (x, y), 1 = (x+1, y), 2 = (x, y+1), 3 = (x+1, y+1)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegFile {
    regs: [[u32; 256]; 4],
    preds: [[bool; 7]; 4],
}

impl Default for RegFile {
    fn default() -> Self {
        RegFile {
            regs: [[0; 256]; 4],
            preds: [[false; 7]; 4],
        }
    }
}

impl RegFile {
    /// All registers 0, all predicates false.
    pub fn new() -> RegFile {
        RegFile::default()
    }

    /// Register `r` of `lane`: RZ (and anything past it, or a lane past 3)
    /// reads 0.
    pub fn get(&self, lane: usize, r: usize) -> u32 {
        if r >= RZ as usize {
            return 0;
        }
        self.regs.get(lane).map_or(0, |l| l[r])
    }

    /// Register `r` of `lane` as fp32.
    pub fn get_f32(&self, lane: usize, r: usize) -> f32 {
        f32::from_bits(self.get(lane, r))
    }

    /// Writes register `r` of `lane`; writes to RZ (or past it) are dropped.
    pub fn set(&mut self, lane: usize, r: usize, v: u32) {
        if r < RZ as usize {
            if let Some(l) = self.regs.get_mut(lane) {
                l[r] = v;
            }
        }
    }

    /// Writes `v` as fp32 bits.
    pub fn set_f32(&mut self, lane: usize, r: usize, v: f32) {
        self.set(lane, r, v.to_bits());
    }

    /// Predicate `p` of `lane`: PT (and anything past it) reads true.
    pub fn pred(&self, lane: usize, p: u8) -> bool {
        if p >= PT {
            return true;
        }
        self.preds.get(lane).is_some_and(|l| l[p as usize])
    }

    /// Writes predicate `p` of `lane`; writes to PT are dropped.
    pub fn set_pred(&mut self, lane: usize, p: u8, v: bool) {
        if p < PT {
            if let Some(l) = self.preds.get_mut(lane) {
                l[p as usize] = v;
            }
        }
    }
}

/// `#paramA`: the source coordinate description (the TLD4 and TMML
/// references' tables; docs/semantics.md §11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamA {
    /// `1D`: s (TMML only).
    OneD,
    /// `2D`: s, t.
    TwoD,
    /// `3D`: s, t, r (TMML only).
    ThreeD,
    /// `CUBE`: s, t, r.
    Cube,
    /// `ARRAY_1D`: a, s (TMML only).
    Array1D,
    /// `ARRAY_2D`: a, s, t.
    Array2D,
    /// `ARRAY_CUBE`: a, s, t, r.
    ArrayCube,
}

/// The coordinate class a paramA and a header type must share (the TLD4
/// reference: "array specifiers can be freely used with non-array textures
/// ... provided the number of coordinates matches").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dim {
    One,
    Two,
    Three,
    Cube,
}

impl ParamA {
    /// Parses the TLD4 and TMML references' spelling (`2D`, `ARRAY_CUBE`,
    /// ...).
    pub fn from_name(s: &str) -> Option<ParamA> {
        Some(match s {
            "1D" => ParamA::OneD,
            "2D" => ParamA::TwoD,
            "3D" => ParamA::ThreeD,
            "CUBE" => ParamA::Cube,
            "ARRAY_1D" => ParamA::Array1D,
            "ARRAY_2D" => ParamA::Array2D,
            "ARRAY_CUBE" => ParamA::ArrayCube,
            _ => return None,
        })
    }

    /// Whether Ra+0 carries the array index.
    pub const fn is_array(self) -> bool {
        matches!(self, ParamA::Array1D | ParamA::Array2D | ParamA::ArrayCube)
    }

    /// The fp32 coordinates after the array index (s; s, t; s, t, r).
    pub const fn coords(self) -> usize {
        match self {
            ParamA::OneD | ParamA::Array1D => 1,
            ParamA::TwoD | ParamA::Array2D => 2,
            ParamA::ThreeD | ParamA::Cube | ParamA::ArrayCube => 3,
        }
    }

    /// Whether this is a cube form (no AOFFI/PTP, the TLD4 reference).
    pub const fn is_cube(self) -> bool {
        matches!(self, ParamA::Cube | ParamA::ArrayCube)
    }

    const fn dim(self) -> Dim {
        match self {
            ParamA::OneD | ParamA::Array1D => Dim::One,
            ParamA::TwoD | ParamA::Array2D => Dim::Two,
            ParamA::ThreeD => Dim::Three,
            ParamA::Cube | ParamA::ArrayCube => Dim::Cube,
        }
    }

    /// Whether the view's type takes this description; a mismatch returns
    /// zeros (the TLD4 reference). Multisample views match nothing.
    pub fn matches(self, view: &TextureHeader) -> bool {
        let d = match view.kind {
            TextureKind::D1 | TextureKind::D1Array => Dim::One,
            TextureKind::D2 | TextureKind::D2Array => Dim::Two,
            TextureKind::D3 => Dim::Three,
            TextureKind::Cube | TextureKind::CubeArray => Dim::Cube,
            TextureKind::D2Ms | TextureKind::D2MsArray => return false,
        };
        d == self.dim()
    }

    /// Registers read from Ra.
    pub const fn ra_count(self) -> usize {
        self.is_array() as usize + self.coords()
    }
}

/// `.toff` of TLD4 (the TLD4 reference; docs/semantics.md §1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Toff {
    /// No offset.
    #[default]
    None,
    /// `.AOFFI`: one register `((w & 0x3f) << 16) | ((v & 0x3f) << 8) | (u
    /// & 0x3f)`.
    Aoffi,
    /// `.PTP`: two registers of four 6-bit offsets each.
    Ptp,
}

impl Toff {
    const fn regs(self) -> usize {
        match self {
            Toff::None => 0,
            Toff::Aoffi => 1,
            Toff::Ptp => 2,
        }
    }
}

/// An instruction guard `@Pg` / `@!Pg`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    /// Predicate number (7 = PT).
    pub pred: u8,
    /// `@!Pg`.
    pub negate: bool,
}

/// Where the handle comes from: `.B` reads it from Rb+0, otherwise it is
/// the constant-bank word `#tsPtrIdxU13` (`{#smpU05, #tidU08}` in the
/// Fermi form) (the TLD4 and TMML references; docs/semantics.md §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexSource {
    /// `.B`: bindless, `samplerPtr[31:20] | headerPtr[19:0]` in Rb+0.
    Bindless,
    /// `#tsPtrIdxU13` into [`Pools::const_bank`].
    Bound(u16),
}

/// The 6-bit two's-complement field at `shift` (AOFFI, PTP; the TLD4
/// reference).
pub const fn s6(word: u32, shift: u32) -> i32 {
    (((word >> shift) & 0x3f) as i32) << 26 >> 26
}

/// `.AOFFI` unpacked: `[u, v, w]`, each -32..=31 (the TLD4 reference).
pub const fn unpack_aoffi(word: u32) -> [i32; 3] {
    [s6(word, 0), s6(word, 8), s6(word, 16)]
}

/// `.AOFFI` packed from `[u, v, w]` (the low 6 bits of each).
pub const fn pack_aoffi(o: [i32; 3]) -> u32 {
    (((o[2] as u32) & 0x3f) << 16) | (((o[1] as u32) & 0x3f) << 8) | ((o[0] as u32) & 0x3f)
}

/// `.PTP` unpacked: `[[ds_k, dt_k]; 4]` from `dt1|ds1|dt0|ds0` and
/// `dt3|ds3|dt2|ds2` (the TLD4 reference).
pub const fn unpack_ptp(w0: u32, w1: u32) -> [[i32; 2]; 4] {
    [
        [s6(w0, 0), s6(w0, 8)],
        [s6(w0, 16), s6(w0, 24)],
        [s6(w1, 0), s6(w1, 8)],
        [s6(w1, 16), s6(w1, 24)],
    ]
}

/// `.PTP` packed from `[[ds_k, dt_k]; 4]` (the low 6 bits of each).
pub const fn pack_ptp(o: [[i32; 2]; 4]) -> [u32; 2] {
    const fn f(v: i32, sh: u32) -> u32 {
        ((v as u32) & 0x3f) << sh
    }
    [
        f(o[0][0], 0) | f(o[0][1], 8) | f(o[1][0], 16) | f(o[1][1], 24),
        f(o[2][0], 0) | f(o[2][1], 8) | f(o[3][0], 16) | f(o[3][1], 24),
    ]
}

/// TLD4: the four texels of the bilinear footprint, one component each
/// (the TLD4 reference):
/// `TLD4.comp{.B}{.toff}{.DC}{.NDV}{.NODEP}{.phase} {Ps,} Rd, Ra{, Rb},
/// #tsPtrIdxU13 | #tidU08, #smpU05, #paramA{, #wmskU04}`.
///
/// Ra: `{array[15:0]}, s, t, {r}`; Rb: `{handle (.B)}, {AOFFI | PTP0,
/// PTP1}, {dref (.DC)}`, absent parameters compacted upwards. Rd..Rd+3
/// receive `[T(i0, j1), T(i1, j1), T(i1, j0), T(i0, j0)]` under `wmsk`;
/// `Ps` is true where a touched texel was not resident.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tld4 {
    /// `@Pg` / `@!Pg`.
    pub guard: Option<Guard>,
    /// `.comp`: 0 = R, 1 = G, 2 = B, 3 = A.
    pub component: u8,
    /// Bindless (`.B`) or the constant-bank index.
    pub source: TexSource,
    /// `.AOFFI` / `.PTP`.
    pub toff: Toff,
    /// `.DC`: depth compare against Rb's reference.
    pub dc: bool,
    /// `.NDV` (see the module doc).
    pub ndv: bool,
    /// `.NODEP`: helper lanes do not fetch (their destinations stay) but
    /// still feed the derivatives.
    pub nodep: bool,
    /// `Ps`: sparse-fault predicate destination.
    pub ps: Option<u8>,
    /// Rd.
    pub rd: u8,
    /// Ra.
    pub ra: u8,
    /// Rb (RZ when absent).
    pub rb: u8,
    /// `#paramA`: 2D, CUBE, ARRAY_2D or ARRAY_CUBE.
    pub param_a: ParamA,
    /// `#wmskU04` (default 0xf).
    pub wmsk: u8,
}

/// TMML.LOD: the level-of-detail words of [`crate::lod::LodResult::raw`]
/// (the TMML reference):
/// `TMML{.B}.LOD{.NDV}{.NODEP}{.phase} Rd, Ra, {Rb}, #tsPtrIdxU13 |
/// #tidU08, #smpU05, #paramA{, #wmskU04}`.
///
/// Ra: `{array[15:0]}, s, {t}, {r}`; Rb: `{handle (.B)}`. Rd..Rd+3 receive
/// R (S8.8 lambda'), G (U8.8 accessed level), B (major axis), A (log2 of
/// the axis ratio) under `wmsk`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmmlLod {
    /// `@Pg` / `@!Pg`.
    pub guard: Option<Guard>,
    /// Bindless (`.B`) or the constant-bank index.
    pub source: TexSource,
    /// `.NDV`: derivatives from all four lanes, no partial-quad rule.
    pub ndv: bool,
    /// `.NODEP`: helper lanes do not query (their destinations stay) but
    /// still feed the derivatives.
    pub nodep: bool,
    /// Rd.
    pub rd: u8,
    /// Ra.
    pub ra: u8,
    /// Rb (RZ when absent).
    pub rb: u8,
    /// `#paramA`.
    pub param_a: ParamA,
    /// `#wmskU04` (default 0xf).
    pub wmsk: u8,
}

/// The LOD mode of TEX (`.LZ`, `.LB`, `.LL`, `.LBA`, `.LLA`; none is
/// implicit). Encoding and meaning follow nouveau's GM107 emitter
/// (`nv50_ir_emit_gm107.cpp` emitTEX: lz 1, lb 2, ll 3) and yuzu's
/// `TextureProcessMode` (LBA 6, LLA 7: "the A is unknown, does not appear
/// to differ with LB / LL"); the emulator runs `.LBA` as `.LB` and `.LLA`
/// as `.LL`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TexLod {
    /// No modifier: implicit derivatives from the quad.
    #[default]
    Auto,
    /// `.LZ`: level zero (lambda = 0, sampler bias and clamps applied).
    Lz,
    /// `.LB`: implicit LOD plus a per-lane fp32 bias from Rb.
    Lb,
    /// `.LL`: an explicit per-lane fp32 LOD from Rb.
    Ll,
    /// `.LBA`: as `.LB`.
    Lba,
    /// `.LLA`: as `.LL`.
    Lla,
}

impl TexLod {
    /// Registers the mode reads from Rb (the bias or the level).
    pub const fn regs(self) -> usize {
        match self {
            TexLod::Auto | TexLod::Lz => 0,
            TexLod::Lb | TexLod::Ll | TexLod::Lba | TexLod::Lla => 1,
        }
    }

    fn from_name(s: &str) -> Option<TexLod> {
        Some(match s {
            "LZ" => TexLod::Lz,
            "LB" => TexLod::Lb,
            "LL" => TexLod::Ll,
            "LBA" => TexLod::Lba,
            "LLA" => TexLod::Lla,
            _ => return None,
        })
    }
}

/// TEX: a filtered sample (SPA 5.0 form, the TLD4/TMML syntax):
/// `TEX{.B}{.LZ|.LB|.LL|.LBA|.LLA}{.AOFFI}{.DC}{.NDV}{.NODEP}{.phase} {Ps,}
/// Rd, Ra{, Rb}, #tsPtrIdxU13 | #tidU08, #smpU05, #paramA{, #wmskU04}`.
///
/// Operand packing (none of quadtex's references gives it for TEX; derived
/// from the TLD4/TMML tables and checked against Mesa's NAK,
/// `nak_nir_lower_tex.c` `lower_tex` for `sm >= 50`, which fills the first
/// source with `{array}, coords` and the second with `{handle}, {lod or
/// bias}, {offset}, {dref}`, absent parameters compacting upwards; yuzu's
/// Maxwell decoder, `GetTexCode`, reads the same order: array in `gpr8`,
/// coordinates after it, then `gpr20` onwards for LOD/bias, AOFFI and the
/// reference):
///
/// | reg | parameter |
/// |---|---|
/// | Ra+0 | array index in bits 15:0 (array paramA only) |
/// | Ra+.. | s, t, r (fp32, as many as paramA names) |
/// | Rb+0 | `samplerPtr[31:20] \| headerPtr[19:0]` (`.B`) |
/// | Rb+.. | LOD or bias, fp32 (`.LB`, `.LL`, `.LBA`, `.LLA`) |
/// | Rb+.. | AOFFI: `(w & 0xf) << 8 \| (v & 0xf) << 4 \| (u & 0xf)` |
/// | Rb+.. | depth reference, fp32 (`.DC`) |
///
/// The AOFFI word holds 4-bit fields (NAK packs TEX offsets with 4 bits
/// per component and TLD4 offsets with 8; yuzu's decoder reads 4-bit
/// fields), so each offset is -8..=7. Rd..Rd+3 receive R, G, B, A under
/// `wmsk`; `Ps` is true where a touched texel was not resident.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tex {
    /// `@Pg` / `@!Pg`.
    pub guard: Option<Guard>,
    /// Bindless (`.B`) or the constant-bank index.
    pub source: TexSource,
    /// The LOD mode.
    pub lod: TexLod,
    /// `.AOFFI`: one register of 4-bit offsets in Rb.
    pub aoffi: bool,
    /// `.DC`: depth compare against Rb's reference.
    pub dc: bool,
    /// `.NDV`: derivatives from all four lanes, no partial-quad rule.
    pub ndv: bool,
    /// `.NODEP`: helper lanes do not fetch (their destinations stay) but
    /// still feed the derivatives.
    pub nodep: bool,
    /// `Ps`: sparse-fault predicate destination.
    pub ps: Option<u8>,
    /// Rd.
    pub rd: u8,
    /// Ra.
    pub ra: u8,
    /// Rb (RZ when absent).
    pub rb: u8,
    /// `#paramA`: any of the seven descriptions.
    pub param_a: ParamA,
    /// `#wmskU04` (default 0xf).
    pub wmsk: u8,
}

/// The LOD mode of TLD: `.LZ` (level 0) or `.LL` (an integer level in
/// Rb). TLD has one LOD bit (Ryujinx `OpCodeTld`: bit 55 set = LL, clear =
/// LZ), so text without either modifier is `.LZ`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TldLod {
    /// `.LZ`: level 0 of the view.
    #[default]
    Lz,
    /// `.LL`: the level (a u32 register) relative to the view's base.
    Ll,
}

/// TLD: an unfiltered texel fetch at integer coordinates
/// (`texelFetch`, D3D `ld`/`ld2dms`):
/// `TLD{.B}{.LZ|.LL}{.AOFFI}{.MS}{.NODEP}{.phase} {Ps,} Rd, Ra{, Rb},
/// #tsPtrIdxU13 | #tidU08, #smpU05, #paramA{, #wmskU04}`.
///
/// Packing (NAK `lower_tex`, `sm >= 50`, `nir_texop_txf`/`txf_ms`: the
/// array index is an integer, not converted from float; the sample index
/// comes right after the handle; yuzu's `GetTldCode` only guesses at the
/// Rb order in a comment, so NAK, which drives the hardware, decides):
///
/// | reg | parameter |
/// |---|---|
/// | Ra+0 | array index in bits 15:0 (ARRAY_1D, ARRAY_2D) |
/// | Ra+.. | x, y, z (s32, as many as paramA names) |
/// | Rb+0 | handle (`.B`) |
/// | Rb+.. | sample index, u32 (`.MS`) |
/// | Rb+.. | level, s32 (`.LL`) |
/// | Rb+.. | AOFFI, 4-bit fields as TEX |
///
/// paramA is 1D, 2D, 3D, ARRAY_1D or ARRAY_2D (cube maps have no texel
/// fetch); `.MS` takes 2D or ARRAY_2D and a multisample header, and has no
/// levels (NAK uses LOD mode ZERO for `txf_ms`), so `.MS.LL` is refused.
/// Out of bounds a lane reads zeros with the format's missing components
/// (0, 0, 0, 1) ([`crate::fetch()`], the D3D `ld2dms` rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tld {
    /// `@Pg` / `@!Pg`.
    pub guard: Option<Guard>,
    /// Bindless (`.B`) or the constant-bank index.
    pub source: TexSource,
    /// `.LZ` / `.LL`.
    pub lod: TldLod,
    /// `.AOFFI`: one register of 4-bit offsets in Rb.
    pub aoffi: bool,
    /// `.MS`: a multisample fetch with the sample index in Rb.
    pub ms: bool,
    /// `.NODEP`: helper lanes do not fetch (their destinations stay) but
    /// still feed the derivatives.
    pub nodep: bool,
    /// `Ps`: sparse-fault predicate destination.
    pub ps: Option<u8>,
    /// Rd.
    pub rd: u8,
    /// Ra.
    pub ra: u8,
    /// Rb (RZ when absent).
    pub rb: u8,
    /// `#paramA`.
    pub param_a: ParamA,
    /// `#wmskU04` (default 0xf).
    pub wmsk: u8,
}

/// The query of TXQ, with the GM107 encoding that nouveau's emitter
/// (`nv50_ir_emit_gm107.cpp` emitTXQ) and yuzu's `TextureQueryType` agree
/// on. Names are nvdisasm's (`TEX_HEADER_DIMENSION`, ...); nouveau's
/// short names (`DIMS`, `TYPE`, ...) parse too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TxqMode {
    /// `TEX_HEADER_DIMENSION` (0x01, TXQ_DIMS): `[width, height,
    /// depth_or_layers, levels]` at the level in Ra ([`crate::query::size`]).
    Dimension,
    /// `TEX_HEADER_TEXTURE_TYPE` (0x02, TXQ_TYPE): `[TIC type, 0, samples,
    /// 0]`; NAK and nouveau read the sample count from component 2.
    TextureType,
    /// `TEX_HEADER_SAMPLER_POS` (0x05, TXQ_SAMPLE_POSITION): the position
    /// of the sample in Ra within the pixel, `[x, y]` as fp32.
    SamplePosition,
    /// `TEX_SAMPLER_FILTER` (0x10): `[mag, min, mip, max anisotropy]` as
    /// TSC codes.
    Filter,
    /// `TEX_SAMPLER_LOD` (0x12): `[min LOD U4.8, max LOD U4.8, bias S5.8,
    /// 0]` as the TSC fields.
    Lod,
    /// `TEX_SAMPLER_WRAP` (0x14): `[address u, v, p, 0]` as TSC codes.
    Wrap,
    /// `TEX_SAMPLER_BORDER_COLOR` (0x16): the border colour's four words.
    BorderColor,
}

impl TxqMode {
    /// The GM107 query code.
    pub const fn code(self) -> u32 {
        match self {
            TxqMode::Dimension => 0x01,
            TxqMode::TextureType => 0x02,
            TxqMode::SamplePosition => 0x05,
            TxqMode::Filter => 0x10,
            TxqMode::Lod => 0x12,
            TxqMode::Wrap => 0x14,
            TxqMode::BorderColor => 0x16,
        }
    }

    /// Parses nvdisasm's name or nouveau's short one.
    pub fn from_name(s: &str) -> Option<TxqMode> {
        Some(match s {
            "TEX_HEADER_DIMENSION" | "DIMS" => TxqMode::Dimension,
            "TEX_HEADER_TEXTURE_TYPE" | "TYPE" => TxqMode::TextureType,
            "TEX_HEADER_SAMPLER_POS" | "SAMPLE_POSITION" => TxqMode::SamplePosition,
            "TEX_SAMPLER_FILTER" | "FILTER" => TxqMode::Filter,
            "TEX_SAMPLER_LOD" | "LOD" => TxqMode::Lod,
            "TEX_SAMPLER_WRAP" | "WRAP" => TxqMode::Wrap,
            "TEX_SAMPLER_BORDER_COLOR" | "BORDER_COLOUR" => TxqMode::BorderColor,
            _ => return None,
        })
    }

    /// Whether the query reads a register operand: the level (dimension)
    /// or the sample index (sample position).
    pub const fn has_operand(self) -> bool {
        matches!(self, TxqMode::Dimension | TxqMode::SamplePosition)
    }

    /// Whether the query reads the sampler (TSC) rather than the header.
    pub const fn is_sampler(self) -> bool {
        matches!(
            self,
            TxqMode::Filter | TxqMode::Lod | TxqMode::Wrap | TxqMode::BorderColor
        )
    }
}

/// TXQ: a texture header or sampler query:
/// `TXQ{.B}{.NODEP}{.phase} Rd, Ra, #tsPtrIdxU13 | #tidU08, #smpU05,
/// #query{, #wmskU04}`.
///
/// TXQ has one source vector (nouveau's GM107 emitter encodes only Ra);
/// NAK's `build_txq` packs it as `{handle (.B)}, {level or sample index}`,
/// so Ra+0 is the handle under `.B` and the query's operand follows. A
/// query without operands and without `.B` reads no register (Ra may be
/// RZ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Txq {
    /// `@Pg` / `@!Pg`.
    pub guard: Option<Guard>,
    /// Bindless (`.B`) or the constant-bank index.
    pub source: TexSource,
    /// `.NODEP`: helper lanes do not query (their destinations stay) but
    /// still feed the derivatives.
    pub nodep: bool,
    /// Rd.
    pub rd: u8,
    /// Ra.
    pub ra: u8,
    /// The query.
    pub mode: TxqMode,
    /// `#wmskU04` (default 0xf).
    pub wmsk: u8,
}

/// A parsed SASS texture instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instruction {
    /// TLD4 (the TLD4 reference).
    Tld4(Tld4),
    /// TMML.LOD (the TMML reference).
    TmmlLod(TmmlLod),
    /// TEX.
    Tex(Tex),
    /// TLD.
    Tld(Tld),
    /// TXQ.
    Txq(Txq),
}

impl Instruction {
    /// Runs the instruction on the quad in `regs`: lanes in `active` want
    /// results, `helper` lanes run for derivatives (and, without `.NODEP`,
    /// fetch and write like active ones). Lanes in neither are untouched.
    pub fn execute(&self, regs: &mut RegFile, pools: &Pools, active: u8, helper: u8) -> Result<()> {
        match self {
            Instruction::Tld4(i) => i.execute(regs, pools, active, helper),
            Instruction::TmmlLod(i) => i.execute(regs, pools, active, helper),
            Instruction::Tex(i) => i.execute(regs, pools, active, helper),
            Instruction::Tld(i) => i.execute(regs, pools, active, helper),
            Instruction::Txq(i) => i.execute(regs, pools, active, helper),
        }
    }
}

/// The alignment of a tuple of `n` registers (the TMML reference, rule 2):
/// 1, 2, or 4 for 3 and 4.
const fn align_of(n: usize) -> u8 {
    match n {
        0 | 1 => 1,
        2 => 2,
        _ => 4,
    }
}

/// The TMML reference's rules 1, 2 and 4 for Rd, Ra and Rb
/// (docs/semantics.md §11).
fn check_regs(rd: u8, wmsk: u8, ra: u8, na: usize, rb: u8, nb: usize) -> Result<()> {
    if wmsk > 0xf {
        return Err(Error::refused(
            ErrorKind::BadOperand,
            format!("{wmsk:#x}"),
            "write mask wider than 4 bits",
        ));
    }
    let nd = wmsk.count_ones() as usize;
    if rd != RZ && !rd.is_multiple_of(align_of(nd)) {
        return Err(Error::misaligned("Rd", rd, align_of(nd)));
    }
    for (operand, r, n) in [("Ra", ra, na), ("Rb", rb, nb)] {
        if n == 0 {
            continue;
        }
        if r == RZ {
            return Err(Error::rz_operand(operand));
        }
        if r % align_of(n) != 0 {
            return Err(Error::misaligned(operand, r, align_of(n)));
        }
    }
    Ok(())
}

/// The lanes that run `(active, helper)` after the guard.
fn lanes(regs: &RegFile, guard: Option<Guard>, active: u8, helper: u8) -> (u8, u8) {
    let mut g = 0xf;
    if let Some(Guard { pred, negate }) = guard {
        g = 0;
        for lane in 0..4 {
            if regs.pred(lane, pred) != negate {
                g |= 1 << lane;
            }
        }
    }
    (active & g & 0xf, helper & g & 0xf)
}

/// Quad coordinates from Ra for every lane (inactive lanes' registers too:
/// `.NDV` derivatives read them): `[s, t, r, layer]`, `[x, y, z, cube]`.
fn coords(regs: &RegFile, ra: u8, p: ParamA) -> [[f32; 4]; 4] {
    let mut out = [[0.0; 4]; 4];
    let ra = ra as usize;
    for (lane, c) in out.iter_mut().enumerate() {
        let (layer, first) = if p.is_array() {
            ((regs.get(lane, ra) & 0xffff) as f32, ra + 1)
        } else {
            (0.0, ra)
        };
        for (k, v) in c.iter_mut().take(p.coords()).enumerate() {
            *v = regs.get_f32(lane, first + k);
        }
        if p.dim() != Dim::Three {
            c[3] = layer;
        }
    }
    out
}

/// The handle of each lane.
fn handles(regs: &RegFile, pools: &Pools, source: TexSource, rb: u8) -> [Handle; 4] {
    match source {
        TexSource::Bindless => [0, 1, 2, 3].map(|lane| Handle(regs.get(lane, rb as usize))),
        TexSource::Bound(idx) => [pools.bound_handle(idx); 4],
    }
}

/// The operand prologue every form shares: the lanes that run after the
/// guard, the lanes that fetch and write (`.NODEP` drops the helpers:
/// docs/semantics.md §3, "killed lanes skip the fetch"; they still feed the
/// live lanes' derivatives and count for the partial-quad rule), each
/// lane's handle (`.B`: the register `src`,
/// otherwise the constant bank), and a cursor over the parameter registers
/// that follow the handle (Rb for the sampling forms, Ra for TXQ), which
/// each form reads in its packing order with [`Prologue::take`].
struct Prologue {
    /// Active lanes, for the core's quad.
    active: u8,
    /// Helper lanes, for the core's quad.
    helper: u8,
    /// Lanes that fetch and get results written.
    run: u8,
    handles: [Handle; 4],
    next: usize,
}

impl Prologue {
    /// `None` when no lane runs.
    fn new(
        regs: &RegFile,
        pools: &Pools,
        guard: Option<Guard>,
        nodep: bool,
        source: TexSource,
        src: u8,
        (active, helper): (u8, u8),
    ) -> Option<Prologue> {
        let (active, helper) = lanes(regs, guard, active, helper);
        let run = if nodep {
            active & !helper
        } else {
            active | helper
        };
        if run == 0 {
            return None;
        }
        let bindless = matches!(source, TexSource::Bindless);
        Some(Prologue {
            active,
            helper,
            run,
            handles: handles(regs, pools, source, src),
            next: src as usize + bindless as usize,
        })
    }

    /// The next parameter register's words per lane when `present`
    /// (advancing the cursor: absent parameters compact upwards, the TMML
    /// reference); zeros otherwise.
    fn take(&mut self, regs: &RegFile, present: bool) -> [u32; 4] {
        if !present {
            return [0; 4];
        }
        let w = lane_words(regs, self.next);
        self.next += 1;
        w
    }
}

/// The quad one lane group runs as: the group's lanes keep their roles,
/// and the other running lanes of the quad become helpers, so the implicit
/// derivatives and the partial-quad rule see the whole quad (a per-lane
/// handle or offset must not change another lane's LOD); their results
/// are discarded by the caller, which reads only `mask`'s lanes.
fn group_quad(coords: [[f32; 4]; 4], active: u8, helper: u8, mask: u8) -> Quad {
    let run = active | helper;
    Quad {
        coords,
        active: active & mask,
        helper: (helper & mask) | (run & !mask),
    }
}

/// Writes each running lane's words under `wmsk` and, if given, its `Ps`
/// fault flag.
fn finish(
    regs: &mut RegFile,
    run: u8,
    rd: u8,
    wmsk: u8,
    ps: Option<u8>,
    result: &[([u32; 4], bool); 4],
) {
    for (lane, (words, fault)) in result.iter().enumerate() {
        if run & (1 << lane) == 0 {
            continue;
        }
        write_back(regs, lane, rd, *words, wmsk);
        if let Some(p) = ps {
            regs.set_pred(lane, p, *fault);
        }
    }
}

/// One register word per lane.
fn lane_words(regs: &RegFile, r: usize) -> [u32; 4] {
    [0, 1, 2, 3].map(|lane| regs.get(lane, r))
}

/// Writes one lane's result words to Rd..Rd+3 under `wmsk`.
fn write_back(regs: &mut RegFile, lane: usize, rd: u8, words: [u32; 4], wmsk: u8) {
    let rd = rd as usize;
    let mut dst = [0, 1, 2, 3].map(|c| regs.get(lane, rd + c));
    write_masked(&mut dst, words, wmsk);
    for (c, w) in dst.iter().enumerate() {
        regs.set(lane, rd + c, *w);
    }
}

impl Tld4 {
    /// Registers read from Rb: handle, offsets, reference.
    pub const fn rb_count(&self) -> usize {
        matches!(self.source, TexSource::Bindless) as usize + self.toff.regs() + self.dc as usize
    }

    /// The operand rules of the TLD4 and TMML references.
    pub fn validate(&self) -> Result<()> {
        if !matches!(
            self.param_a,
            ParamA::TwoD | ParamA::Cube | ParamA::Array2D | ParamA::ArrayCube
        ) {
            return Err(Error::not_supported(
                self.param_a.name(),
                "TLD4 takes 2D, CUBE, ARRAY_2D or ARRAY_CUBE",
            ));
        }
        if self.param_a.is_cube() && self.toff != Toff::None {
            let toff = if self.toff == Toff::Ptp {
                "PTP"
            } else {
                "AOFFI"
            };
            return Err(Error::not_supported(toff, "AOFFI/PTP with a cube paramA"));
        }
        if self.component > 3 {
            return Err(Error::refused(
                ErrorKind::BadModifier,
                self.component.to_string(),
                "component past A",
            ));
        }
        check_regs(
            self.rd,
            self.wmsk,
            self.ra,
            self.param_a.ra_count(),
            self.rb,
            self.rb_count(),
        )
    }

    /// Runs TLD4 (see [`Instruction::execute`]).
    pub fn execute(&self, regs: &mut RegFile, pools: &Pools, active: u8, helper: u8) -> Result<()> {
        self.validate()?;
        let roles = (active, helper);
        let Some(mut p) = Prologue::new(
            regs,
            pools,
            self.guard,
            self.nodep,
            self.source,
            self.rb,
            roles,
        ) else {
            return Ok(());
        };
        let coords = coords(regs, self.ra, self.param_a);
        let t0 = p.take(regs, self.toff != Toff::None);
        let t1 = p.take(regs, self.toff == Toff::Ptp);
        let dref = self.dc.then(|| p.take(regs, true).map(f32::from_bits));
        let keys = [0, 1, 2, 3].map(|lane| (p.handles[lane], t0[lane], t1[lane]));
        let mut result = [([0u32; 4], false); 4];
        for ((h, t0, t1), mask) in groups(keys, p.run) {
            let Some((view, smp)) = pools.resolve(h) else {
                continue;
            };
            if !self.param_a.matches(view) {
                continue;
            }
            let offsets = match self.toff {
                Toff::None => GatherOffsets::None,
                Toff::Aoffi => {
                    let [u, v, _] = unpack_aoffi(t0);
                    GatherOffsets::Aoffi([u, v])
                }
                Toff::Ptp => GatherOffsets::Ptp(unpack_ptp(t0, t1)),
            };
            let args = GatherArgs {
                component: self.component,
                offsets,
                dref,
                ndv: self.ndv,
            };
            let quad = group_quad(coords, p.active, p.helper, mask);
            let r = gather(view, smp, &Profile::NV_SASS, &args, &quad);
            collect(&mut result, mask, &r);
        }
        finish(regs, p.run, self.rd, self.wmsk, self.ps, &result);
        Ok(())
    }
}

impl TmmlLod {
    /// Registers read from Rb: the handle under `.B`.
    pub const fn rb_count(&self) -> usize {
        matches!(self.source, TexSource::Bindless) as usize
    }

    /// The operand rules of the TMML reference.
    pub fn validate(&self) -> Result<()> {
        check_regs(
            self.rd,
            self.wmsk,
            self.ra,
            self.param_a.ra_count(),
            self.rb,
            self.rb_count(),
        )
    }

    /// Runs TMML.LOD (see [`Instruction::execute`]).
    pub fn execute(&self, regs: &mut RegFile, pools: &Pools, active: u8, helper: u8) -> Result<()> {
        self.validate()?;
        let roles = (active, helper);
        let Some(p) = Prologue::new(
            regs,
            pools,
            self.guard,
            self.nodep,
            self.source,
            self.rb,
            roles,
        ) else {
            return Ok(());
        };
        let coords = coords(regs, self.ra, self.param_a);
        let mut result = [[0u32; 4]; 4];
        for (h, mask) in groups(p.handles, p.run) {
            let Some((view, smp)) = pools.resolve(h) else {
                continue;
            };
            if !self.param_a.matches(view) {
                continue;
            }
            let args = SampleArgs {
                ndv: self.ndv,
                ..SampleArgs::default()
            };
            let quad = group_quad(coords, p.active, p.helper, mask);
            let r = query_lod(view, smp, &Profile::NV_SASS, &args, &quad);
            for (lane, out) in result.iter_mut().enumerate() {
                if mask & (1 << lane) != 0 {
                    if let Some(l) = r[lane] {
                        *out = l.raw;
                    }
                }
            }
        }
        for (lane, words) in result.iter().enumerate() {
            if p.run & (1 << lane) != 0 {
                write_back(regs, lane, self.rd, *words, self.wmsk);
            }
        }
        Ok(())
    }
}

/// `.AOFFI` of TEX and TLD unpacked: `[u, v, w]` from 4-bit two's-complement
/// fields at bits 3:0, 7:4 and 11:8, each -8..=7 (NAK `lower_tex` packs
/// non-gather offsets with 4 bits per component; yuzu reads them so).
pub const fn unpack_tex_aoffi(word: u32) -> [i32; 3] {
    const fn s4(w: u32, sh: u32) -> i32 {
        (((w >> sh) & 0xf) as i32) << 28 >> 28
    }
    [s4(word, 0), s4(word, 4), s4(word, 8)]
}

/// `.AOFFI` of TEX and TLD packed from `[u, v, w]` (the low 4 bits of each).
pub const fn pack_tex_aoffi(o: [i32; 3]) -> u32 {
    (((o[2] as u32) & 0xf) << 8) | (((o[1] as u32) & 0xf) << 4) | ((o[0] as u32) & 0xf)
}

/// The offset a paramA uses: components past its coordinates are zero.
fn used_offset(word: u32, p: ParamA) -> [i32; 3] {
    let mut o = unpack_tex_aoffi(word);
    for v in o.iter_mut().skip(p.coords()) {
        *v = 0;
    }
    o
}

impl Tex {
    /// Registers read from Rb: handle, LOD/bias, AOFFI, reference.
    pub const fn rb_count(&self) -> usize {
        matches!(self.source, TexSource::Bindless) as usize
            + self.lod.regs()
            + self.aoffi as usize
            + self.dc as usize
    }

    /// The operand rules: AOFFI is not supported with cube maps and depth
    /// compare not with 3D textures (the TLD4 reference, `.toff` and `.DC`,
    /// which TEX shares); the TMML reference's alignment and RZ rules.
    pub fn validate(&self) -> Result<()> {
        if self.param_a.is_cube() && self.aoffi {
            return Err(Error::not_supported("AOFFI", "AOFFI with a cube paramA"));
        }
        if self.dc && self.param_a == ParamA::ThreeD {
            return Err(Error::not_supported("DC", "DC with a 3D paramA"));
        }
        check_regs(
            self.rd,
            self.wmsk,
            self.ra,
            self.param_a.ra_count(),
            self.rb,
            self.rb_count(),
        )
    }

    /// Runs TEX on the [`crate::sample()`] core (see
    /// [`Instruction::execute`]). Lanes whose handle or offset differ run as
    /// separate groups, each with the quad's other lanes as helpers, so the
    /// implicit LOD always comes from the whole quad.
    pub fn execute(&self, regs: &mut RegFile, pools: &Pools, active: u8, helper: u8) -> Result<()> {
        self.validate()?;
        let roles = (active, helper);
        let Some(mut p) = Prologue::new(
            regs,
            pools,
            self.guard,
            self.nodep,
            self.source,
            self.rb,
            roles,
        ) else {
            return Ok(());
        };
        let coords = coords(regs, self.ra, self.param_a);
        let lod_word = p.take(regs, self.lod.regs() == 1).map(f32::from_bits);
        let off = p.take(regs, self.aoffi);
        let dref = self.dc.then(|| p.take(regs, true).map(f32::from_bits));
        let lod = match self.lod {
            TexLod::Auto => Lod::Implicit,
            TexLod::Lz => Lod::Base,
            TexLod::Lb | TexLod::Lba => Lod::Bias(lod_word),
            TexLod::Ll | TexLod::Lla => Lod::Level(lod_word),
        };
        let keys = [0, 1, 2, 3].map(|lane| (p.handles[lane], off[lane]));
        let mut result = [([0u32; 4], false); 4];
        for ((h, o), mask) in groups(keys, p.run) {
            let Some((view, smp)) = pools.resolve(h) else {
                continue;
            };
            if !self.param_a.matches(view) {
                continue;
            }
            let args = SampleArgs {
                lod,
                offset: used_offset(o, self.param_a),
                dref,
                ndv: self.ndv,
                derivatives: None,
            };
            let quad = group_quad(coords, p.active, p.helper, mask);
            let r = crate::sample(view, smp, &Profile::NV_SASS, &args, &quad);
            collect(&mut result, mask, &r);
        }
        finish(regs, p.run, self.rd, self.wmsk, self.ps, &result);
        Ok(())
    }
}

/// Copies the lanes of `mask` from a core result: the texel's register
/// words and the `Ps` fault flag.
fn collect(result: &mut [([u32; 4], bool); 4], mask: u8, r: &QuadResult) {
    let ps = r.predicate(&Profile::NV_SASS);
    for (lane, out) in result.iter_mut().enumerate() {
        if mask & (1 << lane) != 0 {
            if let Some(t) = r.texels[lane] {
                *out = (to_words(t, OutputType::Words), ps[lane]);
            }
        }
    }
}

impl Tld {
    /// Registers read from Rb: handle, sample index, level, AOFFI.
    pub const fn rb_count(&self) -> usize {
        matches!(self.source, TexSource::Bindless) as usize
            + self.ms as usize
            + matches!(self.lod, TldLod::Ll) as usize
            + self.aoffi as usize
    }

    /// The operand rules (see [`Tld`]) and the TMML reference's alignment
    /// and RZ rules.
    pub fn validate(&self) -> Result<()> {
        if self.param_a.is_cube() {
            return Err(Error::not_supported(
                self.param_a.name(),
                "TLD takes 1D, 2D, 3D, ARRAY_1D or ARRAY_2D",
            ));
        }
        if self.ms && self.param_a.dim() != Dim::Two {
            return Err(Error::not_supported("MS", "MS with a paramA other than 2D"));
        }
        if self.ms && self.lod == TldLod::Ll {
            return Err(Error::not_supported("LL", "MS with LL"));
        }
        check_regs(
            self.rd,
            self.wmsk,
            self.ra,
            self.param_a.ra_count(),
            self.rb,
            self.rb_count(),
        )
    }

    /// Whether the view takes this fetch: a multisample header for `.MS`,
    /// otherwise [`ParamA::matches`]; a mismatch returns zeros (the TLD4
    /// reference).
    fn matches(&self, view: &TextureHeader) -> bool {
        if self.ms {
            view.kind.is_multisample()
        } else {
            self.param_a.matches(view)
        }
    }

    /// Runs TLD on the [`crate::fetch()`] core (see [`Instruction::execute`]).
    pub fn execute(&self, regs: &mut RegFile, pools: &Pools, active: u8, helper: u8) -> Result<()> {
        self.validate()?;
        let roles = (active, helper);
        let Some(mut pro) = Prologue::new(
            regs,
            pools,
            self.guard,
            self.nodep,
            self.source,
            self.rb,
            roles,
        ) else {
            return Ok(());
        };
        let p = self.param_a;
        let ra = self.ra as usize;
        let mut icoords = [[0i32; 4]; 4];
        for (lane, c) in icoords.iter_mut().enumerate() {
            let (layer, first) = if p.is_array() {
                ((regs.get(lane, ra) & 0xffff) as i32, ra + 1)
            } else {
                (0, ra)
            };
            for (k, v) in c.iter_mut().take(p.coords()).enumerate() {
                *v = regs.get(lane, first + k) as i32;
            }
            c[3] = layer;
        }
        let sample = pro.take(regs, self.ms).map(|w| w as i32);
        let level = pro.take(regs, self.lod == TldLod::Ll).map(|w| w as i32);
        let off = pro.take(regs, self.aoffi);
        let keys = [0, 1, 2, 3].map(|lane| (pro.handles[lane], off[lane]));
        let run = pro.run;
        let mut result = [([0u32; 4], false); 4];
        for ((h, o), mask) in groups(keys, run) {
            // A fetch takes no sampler: only the header must be valid.
            let Some(view) = pools.header(h) else {
                continue;
            };
            if !self.matches(view) {
                continue;
            }
            let args = FetchArgs {
                icoords,
                level,
                sample,
                offset: used_offset(o, p),
            };
            let r = fetch(view, &args, run & mask);
            collect(&mut result, mask, &r);
        }
        finish(regs, run, self.rd, self.wmsk, self.ps, &result);
        Ok(())
    }
}

/// Vulkan's standard sample location `index` for `samples` samples
/// ([`crate::query::standard_sample_locations`]), in pixel units.
/// NVIDIA's `TEX_HEADER_SAMPLER_POS` format is undocumented; the emulator
/// reports these as fp32 `[x, y]` (inferred).
pub fn standard_sample_position(samples: u32, index: u32) -> Option<[f32; 2]> {
    crate::query::standard_sample_locations(samples)?
        .get(index as usize)
        .copied()
}

/// NVIDIA TSC `ADDRESS_U/V/P` value of `mode`, as TXQ's wrap query
/// returns it: WRAP 0, MIRROR 1, CLAMP_TO_EDGE 2, BORDER 3, CLAMP_OGL 4,
/// MIRROR_ONCE_CLAMP_TO_EDGE 5 (docs/semantics.md §5).
pub const fn tsc_address_code(mode: AddressMode) -> u32 {
    match mode {
        AddressMode::Repeat => 0,
        AddressMode::MirroredRepeat => 1,
        AddressMode::ClampToEdge => 2,
        AddressMode::ClampToBorder => 3,
        AddressMode::ClampOgl => 4,
        AddressMode::MirrorClampToEdge => 5,
    }
}

/// A TSC fixed-point field: `v * 256` rounded to nearest even, clamped to
/// `[lo, hi]`, as two's-complement bits in `mask`.
fn tsc_fixed(v: f32, lo: i32, hi: i32, mask: u32) -> u32 {
    let x = (v * 256.0).round_ties_even();
    let x = if x.is_nan() {
        0
    } else {
        (x as i32).clamp(lo, hi)
    };
    (x as u32) & mask
}

/// The words of a TXQ query on a valid header (and sampler, for the
/// sampler queries; `None` when the query needs one and there is none).
/// `operand` is the level (dimension) or sample index (sample position).
/// Sampler encodings follow the TSC fields (docs/semantics.md §2 "NVIDIA
/// quantisation", §5): filters POINT 1 / LINEAR 2, mip filter NONE 1 /
/// POINT 2 / LINEAR 3, min/max LOD U4.8, bias S5.8 (13 bits); that TXQ
/// returns the raw TSC fields is inferred.
pub fn txq_words(
    mode: TxqMode,
    view: &TextureHeader,
    smp: Option<&SamplerHeader>,
    operand: u32,
    aniso: AnisoLevels,
) -> Option<[u32; 4]> {
    let filt = |f: Filter| match f {
        Filter::Nearest => 1,
        Filter::Linear => 2,
    };
    Some(match mode {
        TxqMode::Dimension => crate::query::size(view, operand as i32),
        TxqMode::TextureType => {
            let ty = match view.kind {
                TextureKind::D2Ms => HeaderType::TwoD.code(),
                TextureKind::D2MsArray => HeaderType::TwoDArray.code(),
                _ => view.header_type().map_or(0, HeaderType::code),
            };
            [ty, 0, crate::query::samples(view), 0]
        }
        TxqMode::SamplePosition => {
            let n = view.texture.desc().samples;
            match standard_sample_position(n, operand) {
                Some([x, y]) if view.kind.is_multisample() => [x.to_bits(), y.to_bits(), 0, 0],
                _ => [0; 4],
            }
        }
        TxqMode::Filter => {
            let s = smp?;
            let mip = match s.mipmap_mode {
                MipmapMode::None => 1,
                MipmapMode::Nearest => 2,
                MipmapMode::Linear => 3,
            };
            [
                filt(s.mag_filter),
                filt(s.min_filter),
                mip,
                aniso.quantize(s.max_anisotropy) as u32,
            ]
        }
        TxqMode::Lod => {
            let s = smp?;
            [
                tsc_fixed(s.min_lod, 0, 4095, 0xfff),
                tsc_fixed(s.max_lod, 0, 4095, 0xfff),
                tsc_fixed(s.mip_lod_bias, -4096, 4095, 0x1fff),
                0,
            ]
        }
        TxqMode::Wrap => {
            let s = smp?;
            let a = s.address.map(tsc_address_code);
            [a[0], a[1], a[2], 0]
        }
        TxqMode::BorderColor => {
            let b = smp?.border_color;
            match b {
                BorderColor::IntTransparentBlack
                | BorderColor::IntOpaqueBlack
                | BorderColor::IntOpaqueWhite
                | BorderColor::Int(_) => b.as_bits(),
                BorderColor::FloatTransparentBlack
                | BorderColor::FloatOpaqueBlack
                | BorderColor::FloatOpaqueWhite
                | BorderColor::Float(_) => b.as_f32().map(f32::to_bits),
            }
        }
    })
}

impl Txq {
    /// Registers read from Ra: the handle under `.B`, then the query's
    /// operand.
    pub const fn ra_count(&self) -> usize {
        matches!(self.source, TexSource::Bindless) as usize + self.mode.has_operand() as usize
    }

    /// The TMML reference's alignment and RZ rules for Rd and Ra.
    pub fn validate(&self) -> Result<()> {
        check_regs(self.rd, self.wmsk, self.ra, self.ra_count(), RZ, 0)
    }

    /// Runs TXQ on the [`crate::query`] core (see [`Instruction::execute`]).
    /// An invalid handle (or, for a sampler query, an invalid sampler)
    /// gives zeros; header queries need only a valid header, as
    /// `textureSize` takes no sampler.
    pub fn execute(&self, regs: &mut RegFile, pools: &Pools, active: u8, helper: u8) -> Result<()> {
        self.validate()?;
        let roles = (active, helper);
        let Some(mut p) = Prologue::new(
            regs,
            pools,
            self.guard,
            self.nodep,
            self.source,
            self.ra,
            roles,
        ) else {
            return Ok(());
        };
        let operands = p.take(regs, self.mode.has_operand());
        let mut result = [([0u32; 4], false); 4];
        for (lane, out) in result.iter_mut().enumerate() {
            if p.run & (1 << lane) == 0 {
                continue;
            }
            let (h, operand) = (p.handles[lane], operands[lane]);
            let Some(view) = pools.header(h) else {
                continue;
            };
            let words = txq_words(
                self.mode,
                view,
                pools.sampler(h),
                operand,
                Profile::NV_SASS.aniso_levels,
            );
            out.0 = words.unwrap_or([0; 4]);
        }
        finish(regs, p.run, self.rd, self.wmsk, None, &result);
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------

/// An operand (or the guard) that does not parse where it stands.
fn perr(token: &str, expected: &'static str) -> Error {
    Error::unexpected(ErrorKind::BadOperand, token, expected)
}

/// A modifier the mnemonic does not take, a repeated one or a missing one.
fn merr(token: &str, expected: &'static str) -> Error {
    Error::unexpected(ErrorKind::BadModifier, token, expected)
}

/// Decimal digits only: `u8::from_str` would take `R+5` as R5.
fn digits(t: &str) -> Option<u8> {
    if t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse().ok()
    } else {
        None
    }
}

fn parse_reg(t: &str) -> Option<u8> {
    if t == "RZ" {
        return Some(RZ);
    }
    let n = digits(t.strip_prefix('R')?)?;
    (n < RZ).then_some(n)
}

fn parse_pred(t: &str) -> Option<u8> {
    if t == "PT" {
        return Some(PT);
    }
    let n = digits(t.strip_prefix('P')?)?;
    (n < PT).then_some(n)
}

fn parse_imm(t: &str) -> Option<u32> {
    match t.strip_prefix("0X") {
        // Digits only: `from_str_radix` takes a sign of its own (`0x+5`).
        Some(h) if h.bytes().all(|b| b.is_ascii_hexdigit()) => u32::from_str_radix(h, 16).ok(),
        Some(_) => None,
        None if t.bytes().all(|b| b.is_ascii_digit()) => t.parse().ok(),
        None => None,
    }
}

/// Parses one SASS texture instruction: TLD4 (the TLD4 reference) or
/// TMML.LOD (the TMML reference), e.g. `TLD4.R R8, R0, 5, 2D, 0xf;`,
/// `TMML.LOD R2, R6, 6, 2D, 0x3;`,
/// `@!P1 TLD4.G.B.AOFFI.DC P0, R8, R0, R4, 0x20, ARRAY_2D, 0xf;` or the
/// `#tidU08, #smpU05` form `TLD4.R R4, R0, 0x10, 0x2, CUBE;`. Case is not
/// significant; scheduling suffixes (`&req_6`, `?sched`) are not taken.
/// The result has passed [`Tld4::validate`] / [`TmmlLod::validate`].
pub fn parse(text: &str) -> Result<Instruction> {
    let up = text.trim().to_ascii_uppercase();
    let body = up.strip_suffix(';').unwrap_or(&up).trim_end();
    let mut rest = body;
    let mut guard = None;
    if let Some(g) = rest.strip_prefix('@') {
        let (tok, r) = g.split_once(char::is_whitespace).unwrap_or((g, ""));
        let (negate, p) = match tok.strip_prefix('!') {
            Some(p) => (true, p),
            None => (false, tok),
        };
        let pred = parse_pred(p).ok_or_else(|| perr(tok, "a guard predicate P0..P6 or PT"))?;
        guard = Some(Guard { pred, negate });
        rest = r.trim_start();
    }
    let (mnemonic, ops) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let mut mods = mnemonic.split('.');
    let op = mods.next().unwrap_or("");
    let mods: Vec<&str> = mods.collect();
    let ops: Vec<&str> = if ops.trim().is_empty() {
        Vec::new()
    } else {
        ops.split(',').map(str::trim).collect()
    };
    match op {
        "TLD4" => parse_tld4(guard, &mods, &ops).map(Instruction::Tld4),
        "TMML" => parse_tmml(guard, &mods, &ops).map(Instruction::TmmlLod),
        "TEX" => parse_tex(guard, &mods, &ops).map(Instruction::Tex),
        "TLD" => parse_tld(guard, &mods, &ops).map(Instruction::Tld),
        "TXQ" => parse_txq(guard, &mods, &ops).map(Instruction::Txq),
        _ => Err(Error::unexpected(
            ErrorKind::UnknownOpcode,
            op,
            "TLD4, TMML, TEX, TLD or TXQ",
        )),
    }
}

/// The operands after the destination predicate: `Rd, Ra{, Rb}, #ts |
/// #tid, #smp, #key{, #wmsk}`, where the key is `#paramA` (or TXQ's query).
struct Operands<K> {
    rd: u8,
    ra: u8,
    rb: u8,
    /// Whether an Rb was written (TXQ takes none).
    has_rb: bool,
    ts: u16,
    key: K,
    wmsk: u8,
}

fn parse_operands<K>(
    ops: &[&str],
    key: fn(&str) -> Option<K>,
    expected: &'static str,
) -> Result<Operands<K>> {
    let mut it = ops.iter().copied().peekable();
    let mut regs = Vec::new();
    while let Some(r) = it.peek().and_then(|t| parse_reg(t)) {
        regs.push(r);
        it.next();
    }
    let (rd, ra, rb, has_rb) = match regs[..] {
        [rd, ra] => (rd, ra, RZ, false),
        [rd, ra, rb] => (rd, ra, rb, true),
        _ => {
            let tok = ops.get(regs.len()).copied().unwrap_or("");
            let tok = if regs.len() > 3 { ops[3] } else { tok };
            return Err(perr(tok, "registers Rd, Ra{, Rb}"));
        }
    };
    let mut imms = Vec::new();
    while let Some(t) = it.peek().copied() {
        if key(t).is_some() {
            break;
        }
        imms.push((
            t,
            parse_imm(t).ok_or_else(|| perr(t, "an immediate or #paramA"))?,
        ));
        it.next();
    }
    let ts = match imms[..] {
        [(t, v)] => {
            if v > 0x1fff {
                return Err(perr(t, "#tsPtrIdxU13 (13 bits)"));
            }
            v as u16
        }
        [(t, tid), (s, smp)] => {
            if tid > 0xff {
                return Err(perr(t, "#tidU08 (8 bits)"));
            }
            if smp > 0x1f {
                return Err(perr(s, "#smpU05 (5 bits)"));
            }
            ts_ptr_idx(tid as u8, smp as u8)
        }
        _ => {
            let tok = it.peek().copied().unwrap_or("");
            let tok = imms.get(2).map_or(tok, |x| x.0);
            return Err(perr(tok, "#tsPtrIdxU13 or #tidU08, #smpU05"));
        }
    };
    let k = it.next().unwrap_or("");
    let key = key(k).ok_or_else(|| perr(k, expected))?;
    let wmsk = match it.next() {
        None => 0xf,
        Some(t) => match parse_imm(t) {
            Some(v) if v <= 0xf => v as u8,
            _ => return Err(perr(t, "#wmskU04")),
        },
    };
    if let Some(t) = it.next() {
        return Err(perr(t, "end of instruction"));
    }
    Ok(Operands {
        rd,
        ra,
        rb,
        has_rb,
        ts,
        key,
        wmsk,
    })
}

/// The optional leading `Ps` operand.
fn split_ps<'a, 'b>(ops: &'a [&'b str]) -> Result<(Option<u8>, &'a [&'b str])> {
    Ok(match ops.split_first() {
        Some((t, rest)) if t.starts_with('P') => (
            Some(parse_pred(t).ok_or_else(|| perr(t, "a predicate Ps"))?),
            rest,
        ),
        _ => (None, ops),
    })
}

/// The texture source: `.B`, or the operands' `#tsPtrIdxU13`.
fn source(bindless: bool, ts: u16) -> TexSource {
    if bindless {
        TexSource::Bindless
    } else {
        TexSource::Bound(ts)
    }
}

fn parse_tex(guard: Option<Guard>, mods: &[&str], ops: &[&str]) -> Result<Tex> {
    let (mut bindless, mut lod, mut aoffi, mut dc, mut ndv, mut nodep) =
        (false, None, false, false, false, false);
    for m in mods {
        match *m {
            "B" => bindless = true,
            "LZ" | "LB" | "LL" | "LBA" | "LLA" if lod.is_some() => {
                return Err(merr(m, "one LOD mode"))
            }
            "LZ" | "LB" | "LL" | "LBA" | "LLA" => lod = TexLod::from_name(m),
            "AOFFI" => aoffi = true,
            "DC" => dc = true,
            "NDV" => ndv = true,
            "NODEP" => nodep = true,
            "T" | "P" => {}
            _ => return Err(merr(m, "a TEX modifier")),
        }
    }
    let (ps, ops) = split_ps(ops)?;
    let o = parse_operands(ops, ParamA::from_name, "#paramA")?;
    let i = Tex {
        guard,
        source: source(bindless, o.ts),
        lod: lod.unwrap_or_default(),
        aoffi,
        dc,
        ndv,
        nodep,
        ps,
        rd: o.rd,
        ra: o.ra,
        rb: o.rb,
        param_a: o.key,
        wmsk: o.wmsk,
    };
    i.validate()?;
    Ok(i)
}

fn parse_tld(guard: Option<Guard>, mods: &[&str], ops: &[&str]) -> Result<Tld> {
    let (mut bindless, mut lod, mut aoffi, mut ms, mut nodep) = (false, None, false, false, false);
    for m in mods {
        match *m {
            "B" => bindless = true,
            "LZ" | "LL" if lod.is_some() => return Err(merr(m, "one of .LZ or .LL")),
            "LZ" => lod = Some(TldLod::Lz),
            "LL" => lod = Some(TldLod::Ll),
            "AOFFI" => aoffi = true,
            "MS" => ms = true,
            "NODEP" => nodep = true,
            "T" | "P" => {}
            _ => return Err(merr(m, "a TLD modifier")),
        }
    }
    let (ps, ops) = split_ps(ops)?;
    let o = parse_operands(ops, ParamA::from_name, "#paramA")?;
    let i = Tld {
        guard,
        source: source(bindless, o.ts),
        lod: lod.unwrap_or_default(),
        aoffi,
        ms,
        nodep,
        ps,
        rd: o.rd,
        ra: o.ra,
        rb: o.rb,
        param_a: o.key,
        wmsk: o.wmsk,
    };
    i.validate()?;
    Ok(i)
}

fn parse_txq(guard: Option<Guard>, mods: &[&str], ops: &[&str]) -> Result<Txq> {
    let (mut bindless, mut nodep) = (false, false);
    for m in mods {
        match *m {
            "B" => bindless = true,
            "NODEP" => nodep = true,
            "T" | "P" => {}
            _ => return Err(merr(m, "a TXQ modifier")),
        }
    }
    let o = parse_operands(ops, TxqMode::from_name, "a TXQ query")?;
    if o.has_rb {
        return Err(perr(
            ops.get(2).copied().unwrap_or(""),
            "TXQ takes Rd, Ra only",
        ));
    }
    let i = Txq {
        guard,
        source: source(bindless, o.ts),
        nodep,
        rd: o.rd,
        ra: o.ra,
        mode: o.key,
        wmsk: o.wmsk,
    };
    i.validate()?;
    Ok(i)
}

fn parse_tld4(guard: Option<Guard>, mods: &[&str], ops: &[&str]) -> Result<Tld4> {
    let comp = |m: &str| ["R", "G", "B", "A"].iter().position(|c| *c == m);
    let (component, mods) = match mods.split_first() {
        Some((m, rest)) => match comp(m) {
            Some(c) => (c as u8, rest),
            None => (0, mods),
        },
        None => (0, mods),
    };
    let (mut bindless, mut toff, mut dc, mut ndv, mut nodep) =
        (false, Toff::None, false, false, false);
    for m in mods {
        match *m {
            "B" => bindless = true,
            "AOFFI" | "PTP" if toff != Toff::None => return Err(merr(m, "one of .AOFFI or .PTP")),
            "AOFFI" => toff = Toff::Aoffi,
            "PTP" => toff = Toff::Ptp,
            "DC" => dc = true,
            "NDV" => ndv = true,
            "NODEP" => nodep = true,
            "T" | "P" => {}
            _ => return Err(merr(m, "a TLD4 modifier")),
        }
    }
    let (ps, ops) = split_ps(ops)?;
    let o = parse_operands(ops, ParamA::from_name, "#paramA")?;
    let i = Tld4 {
        guard,
        component,
        source: source(bindless, o.ts),
        toff,
        dc,
        ndv,
        nodep,
        ps,
        rd: o.rd,
        ra: o.ra,
        rb: o.rb,
        param_a: o.key,
        wmsk: o.wmsk,
    };
    i.validate()?;
    Ok(i)
}

fn parse_tmml(guard: Option<Guard>, mods: &[&str], ops: &[&str]) -> Result<TmmlLod> {
    let (mut bindless, mut lod, mut ndv, mut nodep) = (false, false, false, false);
    for m in mods {
        match *m {
            "B" => bindless = true,
            "LOD" => lod = true,
            "NDV" => ndv = true,
            "NODEP" => nodep = true,
            "T" | "P" => {}
            _ => return Err(merr(m, "a TMML modifier")),
        }
    }
    if !lod {
        return Err(merr(mods.last().copied().unwrap_or("TMML"), ".LOD"));
    }
    let o = parse_operands(ops, ParamA::from_name, "#paramA")?;
    let i = TmmlLod {
        guard,
        source: source(bindless, o.ts),
        ndv,
        nodep,
        rd: o.rd,
        ra: o.ra,
        rb: o.rb,
        param_a: o.key,
        wmsk: o.wmsk,
    };
    i.validate()?;
    Ok(i)
}

// ---------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------

impl ParamA {
    /// The TLD4 and TMML references' spelling, as [`ParamA::from_name`]
    /// parses it.
    pub const fn name(self) -> &'static str {
        match self {
            ParamA::OneD => "1D",
            ParamA::TwoD => "2D",
            ParamA::ThreeD => "3D",
            ParamA::Cube => "CUBE",
            ParamA::Array1D => "ARRAY_1D",
            ParamA::Array2D => "ARRAY_2D",
            ParamA::ArrayCube => "ARRAY_CUBE",
        }
    }
}

impl TxqMode {
    /// nvdisasm's name, as [`TxqMode::from_name`] parses it.
    pub const fn name(self) -> &'static str {
        match self {
            TxqMode::Dimension => "TEX_HEADER_DIMENSION",
            TxqMode::TextureType => "TEX_HEADER_TEXTURE_TYPE",
            TxqMode::SamplePosition => "TEX_HEADER_SAMPLER_POS",
            TxqMode::Filter => "TEX_SAMPLER_FILTER",
            TxqMode::Lod => "TEX_SAMPLER_LOD",
            TxqMode::Wrap => "TEX_SAMPLER_WRAP",
            TxqMode::BorderColor => "TEX_SAMPLER_BORDER_COLOR",
        }
    }
}

/// `R<n>` or `RZ`.
struct Reg(u8);

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == RZ {
            f.write_str("RZ")
        } else {
            write!(f, "R{}", self.0)
        }
    }
}

/// Writes the parts every form shares: the guard before the mnemonic is
/// the caller's; this writes `{Ps, }Rd, Ra{, Rb}, #ts, #key, #wmsk;`.
#[expect(
    clippy::too_many_arguments,
    reason = "one writer for the operand list all five forms share"
)]
fn write_operands(
    f: &mut fmt::Formatter<'_>,
    ps: Option<u8>,
    rd: u8,
    ra: u8,
    rb: u8,
    source: TexSource,
    key: &str,
    wmsk: u8,
) -> fmt::Result {
    f.write_str(" ")?;
    if let Some(p) = ps {
        write!(f, "{}, ", pred_name(p))?;
    }
    write!(f, "{}, {}, ", Reg(rd), Reg(ra))?;
    if rb != RZ {
        write!(f, "{}, ", Reg(rb))?;
    }
    // Under .B the immediate is ignored (the TLD4 reference); 0 stands for it.
    let ts = match source {
        TexSource::Bindless => 0,
        TexSource::Bound(ts) => ts,
    };
    write!(f, "{ts:#x}, {key}, {wmsk:#x};")
}

/// `P0`..`P6`, or `PT` for 7 (the text [`parse`] reads).
fn pred_name(p: u8) -> String {
    if p >= PT {
        "PT".to_string()
    } else {
        format!("P{p}")
    }
}

fn write_guard(f: &mut fmt::Formatter<'_>, g: Option<Guard>) -> fmt::Result {
    match g {
        Some(Guard { pred, negate }) => {
            write!(f, "@{}{} ", if negate { "!" } else { "" }, pred_name(pred))
        }
        None => Ok(()),
    }
}

/// The modifier text `.NAME` when `on`.
fn flag(on: bool, name: &str) -> String {
    if on {
        format!(".{name}")
    } else {
        String::new()
    }
}

/// Prints the text [`parse`] reads back to the same instruction (the
/// `.phase` suffixes, which change nothing, are not kept; the Fermi
/// `#tidU08, #smpU05` form prints as its `#tsPtrIdxU13`).
impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bindless = |s: TexSource| flag(matches!(s, TexSource::Bindless), "B");
        match self {
            Instruction::Tld4(i) => {
                write_guard(f, i.guard)?;
                let comp = ["R", "G", "B", "A"][usize::from(i.component & 3)];
                let toff = match i.toff {
                    Toff::None => "",
                    Toff::Aoffi => ".AOFFI",
                    Toff::Ptp => ".PTP",
                };
                write!(
                    f,
                    "TLD4.{comp}{}{toff}{}{}{}",
                    bindless(i.source),
                    flag(i.dc, "DC"),
                    flag(i.ndv, "NDV"),
                    flag(i.nodep, "NODEP")
                )?;
                let key = i.param_a.name();
                write_operands(f, i.ps, i.rd, i.ra, i.rb, i.source, key, i.wmsk)
            }
            Instruction::TmmlLod(i) => {
                write_guard(f, i.guard)?;
                write!(
                    f,
                    "TMML{}.LOD{}{}",
                    bindless(i.source),
                    flag(i.ndv, "NDV"),
                    flag(i.nodep, "NODEP")
                )?;
                let key = i.param_a.name();
                write_operands(f, None, i.rd, i.ra, i.rb, i.source, key, i.wmsk)
            }
            Instruction::Tex(i) => {
                write_guard(f, i.guard)?;
                let lod = match i.lod {
                    TexLod::Auto => "",
                    TexLod::Lz => ".LZ",
                    TexLod::Lb => ".LB",
                    TexLod::Ll => ".LL",
                    TexLod::Lba => ".LBA",
                    TexLod::Lla => ".LLA",
                };
                write!(
                    f,
                    "TEX{}{lod}{}{}{}{}",
                    bindless(i.source),
                    flag(i.aoffi, "AOFFI"),
                    flag(i.dc, "DC"),
                    flag(i.ndv, "NDV"),
                    flag(i.nodep, "NODEP")
                )?;
                let key = i.param_a.name();
                write_operands(f, i.ps, i.rd, i.ra, i.rb, i.source, key, i.wmsk)
            }
            Instruction::Tld(i) => {
                write_guard(f, i.guard)?;
                let lod = match i.lod {
                    TldLod::Lz => ".LZ",
                    TldLod::Ll => ".LL",
                };
                write!(
                    f,
                    "TLD{}{lod}{}{}{}",
                    bindless(i.source),
                    flag(i.aoffi, "AOFFI"),
                    flag(i.ms, "MS"),
                    flag(i.nodep, "NODEP")
                )?;
                let key = i.param_a.name();
                write_operands(f, i.ps, i.rd, i.ra, i.rb, i.source, key, i.wmsk)
            }
            Instruction::Txq(i) => {
                write_guard(f, i.guard)?;
                write!(f, "TXQ{}{}", bindless(i.source), flag(i.nodep, "NODEP"))?;
                let key = i.mode.name();
                write_operands(f, None, i.rd, i.ra, RZ, i.source, key, i.wmsk)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use quadtex_format::Texel;
    use quadtex_format::{Aspect, TexelAddr, Texture, TextureDesc, TextureFormat as F};

    use super::*;
    use crate::fetch::tests::{texture, view};
    use crate::header::{AddressMode, CompareOp, Filter, MipmapMode, SamplerHeader};

    const HEADER: u32 = 5;
    const SAMPLER: u32 = 2;

    fn handle() -> Handle {
        Handle::new(HEADER, SAMPLER).unwrap()
    }

    /// Pools with `v` at header 5 and `s` at sampler 2, the handle at
    /// constant-bank words 5, 6 (the TLD4 and TMML references' examples) and
    /// 0x210 (`{smp 2, tid 0x10}`).
    fn pools(v: TextureHeader, s: SamplerHeader) -> Pools {
        let mut p = Pools::new();
        p.set_header(HEADER, v).unwrap();
        p.set_sampler(SAMPLER, s).unwrap();
        p.const_bank = vec![0; 0x211];
        p.const_bank[5] = handle().0;
        p.const_bank[6] = handle().0;
        p.const_bank[0x210] = handle().0;
        p
    }

    fn repeat() -> SamplerHeader {
        SamplerHeader {
            address: [AddressMode::Repeat; 3],
            ..SamplerHeader::default()
        }
    }

    /// 2x2 RGBA8: T(x, y) = (10 + x + 2y, 100 + x + 2y, 200, 255) / 255.
    fn rgba_2x2() -> TextureHeader {
        view(texture(
            TextureDesc::d2(F::Rgba8Unorm, 2, 2).with_levels(1),
            |_, _, _, p| {
                let k = (p[0] + 2 * p[1]) as f32;
                Texel::Float([(10.0 + k) / 255.0, (100.0 + k) / 255.0, 200.0 / 255.0, 1.0])
            },
        ))
    }

    /// Component `c` of texel (x, y) of `v`, as register bits.
    fn t(v: &TextureHeader, x: u32, y: u32, c: usize) -> u32 {
        v.texture
            .read_texel(TexelAddr::at(x, y), Aspect::Color)
            .unwrap()
            .to_bits()[c]
    }

    /// A `w` x `h` R32F texture, texel (x, y) = 10y + x.
    fn index(w: u32, h: u32) -> TextureHeader {
        view(texture(
            TextureDesc::d2(F::R32Float, w, h).with_levels(1),
            |_, _, _, p| Texel::Float([(10 * p[1] + p[0]) as f32, 0.0, 0.0, 1.0]),
        ))
    }

    /// Every lane's Ra..Ra+1 = (s, t).
    fn at(regs: &mut RegFile, ra: usize, s: f32, t: f32) {
        for lane in 0..4 {
            regs.set_f32(lane, ra, s);
            regs.set_f32(lane, ra + 1, t);
        }
    }

    fn run(text: &str, regs: &mut RegFile, p: &Pools) {
        parse(text).unwrap().execute(regs, p, 0xf, 0).unwrap();
    }

    fn dst(regs: &RegFile, lane: usize, rd: usize) -> [u32; 4] {
        [0, 1, 2, 3].map(|c| regs.get(lane, rd + c))
    }

    // `seed_000` in the name: the example of the SASS TLD4 reference
    // (docs/semantics.md §1 "Output order").
    #[test]
    fn seed_000_example_returns_the_footprint_counter_clockwise() {
        let v = rgba_2x2();
        let want = [
            t(&v, 0, 1, 0),
            t(&v, 1, 1, 0),
            t(&v, 1, 0, 0),
            t(&v, 0, 0, 0),
        ];
        assert_eq!(f32::from_bits(want[3]), 10.0 / 255.0);
        let p = pools(v, repeat());
        let mut regs = RegFile::new();
        at(&mut regs, 0, 0.5, 0.5);
        run("TLD4.R R8,R0,5,2D,0xf;", &mut regs, &p);
        for lane in 0..4 {
            assert_eq!(dst(&regs, lane, 8), want);
        }
    }

    #[test]
    fn bindless_reads_the_handle_from_rb_per_lane() {
        let v = rgba_2x2();
        let want = [
            t(&v, 0, 1, 1),
            t(&v, 1, 1, 1),
            t(&v, 1, 0, 1),
            t(&v, 0, 0, 1),
        ];
        let mut p = pools(v, repeat());
        p.const_bank.clear();
        let mut regs = RegFile::new();
        at(&mut regs, 0, 0.5, 0.5);
        for lane in 0..4 {
            regs.set(lane, 4, handle().0);
        }
        // Lane 3 names a header past the pool's maximum: zeros.
        regs.set(3, 4, Handle::new(HEADER + 1, SAMPLER).unwrap().0);
        for r in 8..12 {
            regs.set(3, r, 0xdead);
        }
        let i = parse("TLD4.G.B R8, R0, R4, 0, 2D;").unwrap();
        let Instruction::Tld4(tld4) = i else { panic!() };
        assert_eq!((tld4.component, tld4.source), (1, TexSource::Bindless));
        i.execute(&mut regs, &p, 0xf, 0).unwrap();
        assert_eq!(dst(&regs, 0, 8), want);
        assert_eq!(dst(&regs, 2, 8), want);
        assert_eq!(dst(&regs, 3, 8), [0; 4]);
    }

    #[test]
    fn tid_smp_form_reads_the_constant_bank() {
        let v = rgba_2x2();
        let want = [
            t(&v, 0, 1, 0),
            t(&v, 1, 1, 0),
            t(&v, 1, 0, 0),
            t(&v, 0, 0, 0),
        ];
        let mut p = pools(v, repeat());
        let i = parse("TLD4.R R4, R0, 0x10, 0x2, 2D;").unwrap();
        let Instruction::Tld4(tld4) = i else { panic!() };
        assert_eq!(tld4.source, TexSource::Bound(0x210));
        let mut regs = RegFile::new();
        at(&mut regs, 0, 0.5, 0.5);
        i.execute(&mut regs, &p, 0xf, 0).unwrap();
        assert_eq!(dst(&regs, 1, 4), want);
        // The same word, pointed past the header pool: every lane zeros.
        p.const_bank[0x210] = Handle::new(HEADER, SAMPLER + 1).unwrap().0;
        i.execute(&mut regs, &p, 0xf, 0).unwrap();
        assert_eq!(dst(&regs, 1, 4), [0; 4]);
        // The cube form parses (s, t, r in R0..R2).
        assert!(parse("TLD4.R R4, R0, 0x10, 0x2, CUBE;").is_ok());
    }

    #[test]
    fn aoffi_packs_six_bit_twos_complement_fields() {
        assert_eq!(pack_aoffi([-32, 31, 0]), 0x1f20);
        assert_eq!(unpack_aoffi(0x1f20), [-32, 31, 0]);
        assert_eq!(unpack_aoffi(0x3f_013f), [-1, 1, -1]);
        assert_eq!(unpack_aoffi(pack_aoffi([5, -7, 31])), [5, -7, 31]);
        // 4x4 index texture at (0.5, 0.5): i0 = j0 = 1. u = -32 is 0 mod 4,
        // v = 31 is -1 mod 4: footprint (1, 0)..(2, 1).
        let p = pools(index(4, 4), repeat());
        let mut regs = RegFile::new();
        at(&mut regs, 0, 0.5, 0.5);
        for lane in 0..4 {
            regs.set(lane, 4, pack_aoffi([-32, 31, 0]));
        }
        run("TLD4.R.AOFFI R8, R0, R4, 5, 2D;", &mut regs, &p);
        let got = dst(&regs, 0, 8).map(f32::from_bits);
        assert_eq!(got, [11.0, 12.0, 2.0, 1.0]);
    }

    #[test]
    fn ptp_offsets_each_texel() {
        let o = [[0, 0], [1, 0], [0, 1], [-1, -1]];
        let [w0, w1] = pack_ptp(o);
        assert_eq!([w0, w1], [0x0001_0000, 0x3f3f_0100]);
        assert_eq!(unpack_ptp(w0, w1), o);
        let p = pools(index(4, 4), repeat());
        let mut regs = RegFile::new();
        at(&mut regs, 0, 0.5, 0.5);
        for lane in 0..4 {
            regs.set(lane, 2, w0);
            regs.set(lane, 3, w1);
        }
        // Rb = R2: PTP's two registers, aligned to 2.
        run("TLD4.R.PTP R8, R0, R2, 5, 2D;", &mut regs, &p);
        // out[k] = T(i0 + ds_k, j0 + dt_k), i0 = j0 = 1.
        let got = dst(&regs, 0, 8).map(f32::from_bits);
        assert_eq!(got, [11.0, 12.0, 21.0, 0.0]);
    }

    #[test]
    fn dc_compares_each_texel_against_the_reference() {
        let v = view(texture(
            TextureDesc::d2(F::Depth32Float, 2, 2).with_levels(1),
            |_, _, _, p| Texel::Float([if p[0] == 0 { 0.25 } else { 0.75 }, 0.0, 0.0, 1.0]),
        ));
        let s = SamplerHeader {
            compare: Some(CompareOp::LessOrEqual),
            ..repeat()
        };
        let p = pools(v, s);
        let mut regs = RegFile::new();
        for lane in 0..4 {
            regs.set_f32(lane, 0, 0.5);
            regs.set_f32(lane, 1, 0.5);
            regs.set_f32(lane, 2, 0.5); // Dref
        }
        // .DC alone: Rb holds the reference only.
        run("TLD4.R.DC R8, R0, R2, 5, 2D;", &mut regs, &p);
        // Dref <= D: passes at x = 1 (0.75), fails at x = 0 (0.25).
        assert_eq!(dst(&regs, 0, 8).map(f32::from_bits), [0.0, 1.0, 1.0, 0.0]);
    }

    #[test]
    fn write_mask_0x5_writes_only_r8_and_r10() {
        let p = pools(index(2, 2), repeat());
        let mut regs = RegFile::new();
        at(&mut regs, 0, 0.5, 0.5);
        for r in 8..12 {
            regs.set(0, r, 0xdead);
        }
        run("TLD4.R R8, R0, 5, 2D, 0x5;", &mut regs, &p);
        assert_eq!(
            dst(&regs, 0, 8),
            [10f32.to_bits(), 0xdead, 1f32.to_bits(), 0xdead]
        );
    }

    #[test]
    fn ps_is_true_where_a_texel_is_not_resident() {
        let mut tex = texture(
            TextureDesc::d2(F::R8Unorm, 4, 4).with_levels(1),
            |_, _, _, _| Texel::Float([1.0, 0.0, 0.0, 1.0]),
        );
        tex.make_sparse();
        let p = pools(view(tex), repeat());
        let mut regs = RegFile::new();
        at(&mut regs, 0, 0.5, 0.5);
        regs.set_pred(1, 0, false);
        run("TLD4.R P0, R8, R0, 5, 2D;", &mut regs, &p);
        assert!((0..4).all(|lane| regs.pred(lane, 0)));
        let p = pools(index(2, 2), repeat());
        run("TLD4.R P0, R8, R0, 5, 2D;", &mut regs, &p);
        assert!((0..4).all(|lane| !regs.pred(lane, 0)));
    }

    #[test]
    fn param_a_must_match_the_header_type_but_arrays_interchange() {
        let p = pools(index(2, 2), repeat());
        let mut regs = RegFile::new();
        for lane in 0..4 {
            regs.set(lane, 0, 0); // array index
            regs.set_f32(lane, 1, 0.5);
            regs.set_f32(lane, 2, 0.5);
            regs.set(lane, 8, 0xdead);
        }
        run("TLD4.R R8, R0, 5, CUBE;", &mut regs, &p);
        assert_eq!(dst(&regs, 0, 8), [0; 4]);
        run("TLD4.R R8, R0, 5, ARRAY_2D;", &mut regs, &p);
        assert_eq!(dst(&regs, 0, 8).map(f32::from_bits), [10.0, 11.0, 1.0, 0.0]);
    }

    #[test]
    fn two_d_no_mipmap_makes_tld4_a_tex() {
        let v = view(texture(
            TextureDesc::d2_no_mipmap(F::R32Float, 2, 2),
            |_, _, _, p| Texel::Float([(10 * p[1] + p[0]) as f32, 0.0, 0.0, 1.0]),
        ));
        let p = pools(v, repeat());
        let mut regs = RegFile::new();
        at(&mut regs, 0, 0.75, 0.25);
        run("TLD4.R R8, R0, 5, 2D;", &mut regs, &p);
        assert_eq!(dst(&regs, 0, 8).map(f32::from_bits), [1.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn nodep_helpers_and_inactive_lanes_keep_their_destinations() {
        let p = pools(index(2, 2), repeat());
        let mut regs = RegFile::new();
        at(&mut regs, 0, 0.5, 0.5);
        for lane in 0..4 {
            regs.set(lane, 8, 0xdead);
        }
        let i = parse("TLD4.R.NODEP R8, R0, 5, 2D;").unwrap();
        i.execute(&mut regs, &p, 0b0011, 0b0100).unwrap();
        assert_eq!(regs.get(0, 8), 10f32.to_bits());
        assert_eq!(regs.get(2, 8), 0xdead, "helper under .NODEP");
        assert_eq!(regs.get(3, 8), 0xdead, "inactive");
        let i = parse("TLD4.R R8, R0, 5, 2D;").unwrap();
        i.execute(&mut regs, &p, 0b0011, 0b0100).unwrap();
        assert_eq!(regs.get(2, 8), 10f32.to_bits(), "helper without .NODEP");
        // A false guard runs nothing.
        regs.set(0, 8, 0xdead);
        let i = parse("@P3 TLD4.R R8, R0, 5, 2D;").unwrap();
        i.execute(&mut regs, &p, 0xf, 0).unwrap();
        assert_eq!(regs.get(0, 8), 0xdead);
        let i = parse("@!P3 TLD4.R R8, R0, 5, 2D;").unwrap();
        i.execute(&mut regs, &p, 0xf, 0).unwrap();
        assert_eq!(regs.get(0, 8), 10f32.to_bits());
    }

    #[test]
    fn tmml_lod_writes_query_lod_raw_words_under_the_mask() {
        let v = view(texture(
            TextureDesc::d2(F::R32Float, 64, 64),
            |_, _, _, _| Texel::Float([0.0, 0.0, 0.0, 1.0]),
        ));
        let s = SamplerHeader {
            min_filter: Filter::Linear,
            mag_filter: Filter::Linear,
            mipmap_mode: MipmapMode::Linear,
            max_lod: 100.0,
            ..repeat()
        };
        let p = pools(v.clone(), s);
        // A 4 x 1.5 texel-per-pixel footprint, rotated.
        let c = [[0.1, 0.2], [0.1625, 0.21], [0.095, 0.225], [0.1575, 0.235]];
        let mut regs = RegFile::new();
        for (lane, [x, y]) in c.iter().enumerate() {
            regs.set_f32(lane, 6, *x);
            regs.set_f32(lane, 7, *y);
            for r in 2..6 {
                regs.set(lane, r, 0xdead);
            }
        }
        run("TMML.LOD R2, R6, 6, 2D, 0x3;", &mut regs, &p);
        let quad = Quad::new(c.map(|[x, y]| [x, y, 0.0, 0.0]));
        let want = query_lod(&v, &s, &Profile::NV_SASS, &SampleArgs::default(), &quad);
        for (lane, w) in want.iter().enumerate() {
            let raw = w.unwrap().raw;
            assert_ne!(raw[0], 0);
            assert_eq!(dst(&regs, lane, 2), [raw[0], raw[1], 0xdead, 0xdead]);
        }
        run("TMML.LOD R4, R6, 6, 2D;", &mut regs, &p);
        assert_eq!(dst(&regs, 0, 4), want[0].unwrap().raw);
        // paramA 3D on a 2D header: zeros.
        run("TMML.LOD R4, R8, 6, 3D;", &mut regs, &p);
        assert_eq!(dst(&regs, 0, 4), [0; 4]);
    }

    #[test]
    fn misaligned_and_rz_operands_are_errors() {
        // Kind, token and message.
        let mis = |t: &str| {
            let e = parse(t).unwrap_err();
            (e.kind(), e.token().map(str::to_owned), e.to_string())
        };
        let want = |k, t: &str, m: &str| (k, Some(t.to_owned()), m.to_owned());
        assert_eq!(
            mis("TLD4.R R9, R0, 5, 2D;"),
            want(ErrorKind::Misaligned, "R9", "Rd = R9 must be aligned to 4")
        );
        assert!(parse("TLD4.R R9, R0, 5, 2D, 0x1;").is_ok());
        assert_eq!(
            mis("TLD4.R R8, R1, 5, 2D;"),
            want(ErrorKind::Misaligned, "R1", "Ra = R1 must be aligned to 2")
        );
        assert_eq!(
            mis("TLD4.R R8, R2, 5, ARRAY_2D;"),
            want(ErrorKind::Misaligned, "R2", "Ra = R2 must be aligned to 4")
        );
        assert_eq!(
            mis("TLD4.R.B R8, R0, 5, 2D;"),
            want(
                ErrorKind::Misaligned,
                "RZ",
                "Rb is RZ but carries parameters"
            )
        );
        assert_eq!(
            mis("TLD4.R.AOFFI R8, R0, R4, 5, CUBE;"),
            want(
                ErrorKind::NotSupported,
                "AOFFI",
                "unsupported: AOFFI/PTP with a cube paramA"
            )
        );
        assert_eq!(
            mis("TLD4.R R8, R0, 5, 3D;"),
            want(
                ErrorKind::NotSupported,
                "3D",
                "unsupported: TLD4 takes 2D, CUBE, ARRAY_2D or ARRAY_CUBE"
            )
        );
        // A struct built by hand is checked at execute, not trusted.
        let Instruction::Tld4(mut i) = parse("TLD4.R R8, R0, 5, 2D;").unwrap() else {
            panic!()
        };
        i.rd = 10;
        let e = i
            .execute(&mut RegFile::new(), &Pools::new(), 0xf, 0)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Misaligned);
        assert_eq!(e.to_string(), "Rd = R10 must be aligned to 4");
        i.rd = RZ;
        assert!(i
            .execute(&mut RegFile::new(), &Pools::new(), 0xf, 0)
            .is_ok());
    }

    #[test]
    fn bad_syntax_names_the_offending_token() {
        let tok = |t: &str| {
            let e = parse(t).unwrap_err();
            (e.kind(), e.token().unwrap().to_owned())
        };
        let (opcode, modifier, operand) = (
            ErrorKind::UnknownOpcode,
            ErrorKind::BadModifier,
            ErrorKind::BadOperand,
        );
        for (text, kind, token) in [
            ("TEXX R8, R0, 5, 2D;", opcode, "TEXX"),
            ("TLD4.X R8, R0, 5, 2D;", modifier, "X"),
            ("TLD4.R R8, R0, 5, 4D;", operand, "4D"),
            ("TLD4.R R8, R0, 5, 2D, 0x10;", operand, "0X10"),
            ("TLD4.R R8, R0, 0x2000, 2D;", operand, "0X2000"),
            ("TLD4.R R8, R0, 0x10, 0x20, 2D;", operand, "0X20"),
            ("TLD4.R R8, R0, 5, 2D, 0xf, 1;", operand, "1"),
            ("TLD4.R R8;", operand, ""),
            ("TLD4.R P9, R8, R0, 5, 2D;", operand, "P9"),
            ("TLD4.R.AOFFI.PTP R8, R0, R4, 5, 2D;", modifier, "PTP"),
            ("TMML R2, R6, 6, 2D;", modifier, "TMML"),
            ("@Q1 TLD4.R R8, R0, 5, 2D;", operand, "Q1"),
        ] {
            assert_eq!(tok(text), (kind, token.to_owned()), "{text}");
        }
        assert_eq!(
            parse("TEXX R8, R0, 5, 2D;").unwrap_err().to_string(),
            "unexpected token `TEXX`: expected TLD4, TMML, TEX, TLD or TXQ"
        );
        let full = parse("@!P1 TLD4.G.B.AOFFI.DC.NDV.NODEP.T P0, R8, R0, R4, 0x20, ARRAY_2D, 0xf;")
            .unwrap();
        assert_eq!(
            full,
            Instruction::Tld4(Tld4 {
                guard: Some(Guard {
                    pred: 1,
                    negate: true
                }),
                component: 1,
                source: TexSource::Bindless,
                toff: Toff::Aoffi,
                dc: true,
                ndv: true,
                nodep: true,
                ps: Some(0),
                rd: 8,
                ra: 0,
                rb: 4,
                param_a: ParamA::Array2D,
                wmsk: 0xf,
            })
        );
        let _ = Arc::new(Texture::new(
            TextureDesc::d2(F::R8Unorm, 1, 1),
            quadtex_format::Layout::Linear,
        ));
    }
}
