//! D3D shader-model 4.1+ `ld2dms` (the D3D `ld2dms` reference;
//! docs/semantics.md §6): a parser for the assembly text and its execution on a
//! quad through the [`fetch`](fn@crate::fetch) core.
//!
//! What lives here: the operand model (four-component `u32` registers
//! `r#` and `v#` per lane, [`D3dRegs`]), `_aoffimmi` parsing and its 4-bit
//! range, the source swizzles and the destination mask. What does not: the
//! bounds test and the out-of-bounds defaults, which are `fetch`'s (it
//! compares unsigned after adding the offset, so a negative result wraps out
//! of bounds, as the `ld2dms` reference requires).
//!
//! Errors are the crate's [`Error`], each naming the
//! offending token ([`Error::token`]).

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::fetch::{fetch, FetchArgs};
use crate::header::TextureHeader;
use crate::output::{to_words, write_masked, OutputType};

/// A register file (the `ld2dms` reference: sources are `r#` or `v#`, the
/// destination `r#`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegFile {
    /// Temporary `r#`.
    Temp,
    /// Input `v#`.
    Input,
}

/// A register `r#` / `v#`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reg {
    /// File.
    pub file: RegFile,
    /// Index.
    pub index: u32,
}

/// `ld2dms[_aoffimmi(u,v,w)] dest[.mask], srcAddress[.swizzle],
/// srcResource[.swizzle], sampleIndex` (the `ld2dms` reference).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ld2dms {
    /// `_aoffimmi(u, v, w)`, each in `-8..7`; `[0; 3]` without the suffix.
    pub aoffimmi: [i32; 3],
    /// Destination register (a temp).
    pub dest: Reg,
    /// `.mask`: bit c = component c (`xyzw` when absent).
    pub mask: u8,
    /// Address register; its swizzle picks `(x, y, array, ignored)`.
    pub address: Reg,
    /// Address swizzle: source component per position.
    pub address_swizzle: [u8; 4],
    /// `t#`.
    pub resource: u32,
    /// Resource swizzle: result component per destination component.
    pub resource_swizzle: [u8; 4],
    /// Sample-index register.
    pub sample: Reg,
    /// The sample index's selected component.
    pub sample_component: u8,
}

/// Four lanes of four-component 32-bit registers (lane order as
/// [`Quad`](crate::Quad)). Unwritten registers read 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct D3dRegs {
    /// `r#` per lane.
    pub temps: HashMap<u32, [[u32; 4]; 4]>,
    /// `v#` per lane.
    pub inputs: HashMap<u32, [[u32; 4]; 4]>,
    /// Lanes that execute (bit i = lane i).
    pub active: u8,
}

impl D3dRegs {
    /// No registers, all four lanes active.
    pub fn new() -> D3dRegs {
        D3dRegs {
            active: 0xf,
            ..D3dRegs::default()
        }
    }

    /// Writes a register, per lane.
    pub fn set(&mut self, r: Reg, v: [[u32; 4]; 4]) {
        self.file_mut(r.file).insert(r.index, v);
    }

    /// Writes the same value in every lane.
    pub fn splat(&mut self, r: Reg, v: [u32; 4]) {
        self.set(r, [v; 4]);
    }

    /// A register, per lane (0 if unwritten).
    pub fn get(&self, r: Reg) -> [[u32; 4]; 4] {
        let f = match r.file {
            RegFile::Temp => &self.temps,
            RegFile::Input => &self.inputs,
        };
        f.get(&r.index).copied().unwrap_or([[0; 4]; 4])
    }

    fn file_mut(&mut self, f: RegFile) -> &mut HashMap<u32, [[u32; 4]; 4]> {
        match f {
            RegFile::Temp => &mut self.temps,
            RegFile::Input => &mut self.inputs,
        }
    }
}

/// `r#` or `v#`.
pub fn parse_reg(s: &str) -> Result<Reg> {
    let bad = || Error::bad_operand(s.to_string());
    let (file, n) = if let Some(n) = s.strip_prefix('r') {
        (RegFile::Temp, n)
    } else if let Some(n) = s.strip_prefix('v') {
        (RegFile::Input, n)
    } else {
        return Err(bad());
    };
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    Ok(Reg {
        file,
        index: n.parse().map_err(|_| bad())?,
    })
}

fn comp(c: char) -> Option<u8> {
    Some(match c {
        'x' | 'r' => 0,
        'y' | 'g' => 1,
        'z' | 'b' => 2,
        'w' | 'a' => 3,
        _ => return None,
    })
}

/// A swizzle of 1 (replicated) or 4 components.
fn parse_swizzle(s: &str, whole: &str) -> Result<[u8; 4]> {
    let cs = s
        .chars()
        .map(comp)
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(|| Error::bad_operand(whole.to_string()))?;
    match cs.as_slice() {
        [a] => Ok([*a; 4]),
        [a, b, c, d] => Ok([*a, *b, *c, *d]),
        _ => Err(Error::bad_operand(whole.to_string())),
    }
}

/// A write mask: components in `xyzw` order, each at most once.
fn parse_mask(s: &str, whole: &str) -> Result<u8> {
    let mut m = 0u8;
    let mut last = -1i32;
    for c in s.chars() {
        let k = comp(c).ok_or_else(|| Error::bad_operand(whole.to_string()))?;
        if i32::from(k) <= last {
            return Err(Error::bad_operand(whole.to_string()));
        }
        last = i32::from(k);
        m |= 1 << k;
    }
    if m == 0 {
        return Err(Error::bad_operand(whole.to_string()));
    }
    Ok(m)
}

fn split_suffix(s: &str) -> (&str, Option<&str>) {
    match s.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    }
}

/// Parses `ld2dms[_aoffimmi(u,v[,w])] dest[.mask], srcAddress[.swizzle],
/// srcResource[.swizzle], sampleIndex.c` (the `ld2dms` reference). The
/// immediates are 4-bit two's complement (`-8..7`); `sampleIndex` must be a
/// register with one component selected.
pub fn parse(line: &str) -> Result<Ld2dms> {
    let line = line.split("//").next().unwrap_or("").trim();
    let line = line.strip_suffix(';').unwrap_or(line).trim();
    let rest = line.strip_prefix("ld2dms").ok_or_else(|| {
        Error::unknown_opcode(line.split_whitespace().next().unwrap_or("").to_string())
    })?;
    let (aoffimmi, operands) = if let Some(r) = rest.strip_prefix("_aoffimmi") {
        let r = r.trim_start();
        let close = r
            .find(')')
            .filter(|_| r.starts_with('('))
            .ok_or_else(|| Error::unknown_opcode(format!("ld2dms{rest}")))?;
        let mut off = [0i32; 3];
        let vals: Vec<&str> = r[1..close].split(',').map(str::trim).collect();
        if vals.len() < 2 || vals.len() > 3 {
            return Err(Error::bad_operand(r[..=close].to_string()));
        }
        for (k, v) in vals.iter().enumerate() {
            let n: i32 = v.parse().map_err(|_| Error::bad_operand(v.to_string()))?;
            if !(-8..=7).contains(&n) {
                return Err(Error::aoffimmi_out_of_range(v.to_string()));
            }
            off[k] = n;
        }
        (off, &r[close + 1..])
    } else if rest.starts_with(char::is_whitespace) {
        ([0; 3], rest)
    } else {
        return Err(Error::unknown_opcode(
            line.split_whitespace().next().unwrap_or("").to_string(),
        ));
    };
    let ops: Vec<&str> = operands.split(',').map(str::trim).collect();
    let [d, a, t, s] = ops.as_slice() else {
        return Err(Error::bad_operand(operands.trim().to_string()));
    };
    let (dr, dm) = split_suffix(d);
    let dest = parse_reg(dr)?;
    if dest.file != RegFile::Temp {
        return Err(Error::bad_operand(d.to_string()));
    }
    let mask = match dm {
        Some(m) => parse_mask(m, d)?,
        None => 0xf,
    };
    let (ar, asw) = split_suffix(a);
    let address = parse_reg(ar)?;
    let address_swizzle = match asw {
        Some(sw) => parse_swizzle(sw, a)?,
        None => [0, 1, 2, 3],
    };
    let (tr, tsw) = split_suffix(t);
    let resource = tr
        .strip_prefix('t')
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| Error::bad_operand(t.to_string()))?;
    let resource_swizzle = match tsw {
        Some(sw) => parse_swizzle(sw, t)?,
        None => [0, 1, 2, 3],
    };
    let (sr, ssw) = split_suffix(s);
    let sample = parse_reg(sr)?;
    let sample_component = match ssw {
        Some(c) if c.chars().count() == 1 => c
            .chars()
            .next()
            .and_then(comp)
            .ok_or_else(|| Error::bad_operand(s.to_string()))?,
        _ => return Err(Error::bad_operand(s.to_string())),
    };
    Ok(Ld2dms {
        aoffimmi,
        dest,
        mask,
        address,
        address_swizzle,
        resource,
        resource_swizzle,
        sample,
        sample_component,
    })
}

/// Executes `ld2dms` on the active lanes (the `ld2dms` reference;
/// docs/semantics.md §6).
///
/// `resources[i]` is what `t#i` is bound to; an unbound (or absent) `t#`
/// returns `(0, 0, 0, 0)`. Per lane the address swizzle gives `(x, y,
/// array)`, the offset is added to `x` and `y` in unsigned arithmetic (not
/// to the array index; `w` is ignored for 2D, used as `z` for 3D), and
/// [`fetch`] reads the texel (out of bounds, or a sample index past the
/// count: 0 in the format's components, `(0, 0, 0, 1)` defaults in the
/// others). The 32-bit register words are returned as they are (float bits
/// untouched), swizzled by the resource swizzle, then written under the
/// destination mask.
pub fn execute(i: &Ld2dms, resources: &[Option<TextureHeader>], regs: &mut D3dRegs) {
    let active = regs.active & 0xf;
    let addr = regs.get(i.address);
    let sidx = regs.get(i.sample);
    let mut result = [[0u32; 4]; 4];
    if let Some(Some(view)) = resources.get(i.resource as usize) {
        let mut args = FetchArgs {
            offset: i.aoffimmi,
            ..FetchArgs::default()
        };
        for lane in 0..4 {
            let a = i.address_swizzle.map(|c| addr[lane][usize::from(c)] as i32);
            // z carries the 3D slice; the layer carries the array index.
            args.icoords[lane] = [a[0], a[1], a[2], a[2]];
            args.sample[lane] = sidx[lane][usize::from(i.sample_component)] as i32;
        }
        let r = fetch(view, &args, active);
        for (lane, out) in result.iter_mut().enumerate() {
            if let Some(t) = r.texels[lane] {
                *out = to_words(t, OutputType::Words);
            }
        }
    }
    let mut dst = regs.get(i.dest);
    for lane in 0..4 {
        if active & (1 << lane) == 0 {
            continue;
        }
        let src = i.resource_swizzle.map(|c| result[lane][usize::from(c)]);
        write_masked(&mut dst[lane], src, i.mask);
    }
    regs.set(i.dest, dst);
}

/// Parses and executes one `ld2dms` line.
pub fn run(line: &str, resources: &[Option<TextureHeader>], regs: &mut D3dRegs) -> Result<()> {
    execute(&parse(line)?, resources, regs);
    Ok(())
}
