//! Targets over the instruction front-ends: SASS, PTX and D3D text.
//!
//! An input is one line of instruction text, a NUL byte, then register
//! contents (little-endian words, lane after lane). What parses runs on a
//! quad against a small set of headers and samplers (a mipmapped 2D
//! texture, a cube, a depth 2D array, a multisample texture), so operand
//! packing, handles (valid, invalid, out of range) and every lane mask
//! are exercised; parsing and running must return errors, never panic.
//! SASS also prints what it parsed, and the printed text must parse back
//! to the same instruction (the printer's documented contract).

use std::sync::{Arc, OnceLock};

use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat as F, TextureKind as K};
use quadtex_sampler::isa::d3d::{self, D3dRegs, Reg, RegFile as D3dFile};
use quadtex_sampler::isa::ptx::{self, PtxContext, Regs, Symbols};
use quadtex_sampler::isa::sass::{self, RegFile};
use quadtex_sampler::pool::TexturingMode;
use quadtex_sampler::{AddressMode, CompareOp, Pools, Profile, SamplerHeader, TextureHeader};

/// Splits an input into its text and the register words after the NUL.
fn split(data: &[u8]) -> Option<(&str, Words<'_>)> {
    let (text, rest) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    Some((std::str::from_utf8(text).ok()?, Words(rest)))
}

/// Register words from the input, zeros once it runs out.
struct Words<'a>(&'a [u8]);

impl Words<'_> {
    fn next(&mut self) -> u32 {
        let mut w = [0u8; 4];
        let n = self.0.len().min(4);
        w[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        u32::from_le_bytes(w)
    }
}

/// A texture of `desc` with deterministic texel bytes.
fn texture(desc: TextureDesc) -> Arc<Texture> {
    let n = desc.total_bytes().expect("small texture") as usize;
    let bytes: Vec<u8> = (0..n)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761) as u8 >> 1)
        .collect();
    Arc::new(Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).expect("valid texture"))
}

/// The views the instructions run against, by header index.
fn views() -> Vec<TextureHeader> {
    let mut d2 = TextureDesc::d2(F::Rgba8Unorm, 16, 8);
    d2.levels = d2.max_levels();
    let mut cube = TextureDesc::cube(F::Rgba16Float, 4);
    cube.levels = cube.max_levels();
    let depth = TextureDesc::d2(F::Depth32Float, 8, 8).with_layers(K::D2Array, 3);
    let ms = TextureDesc::d2_ms(F::R32Float, 4, 4, 4);
    [d2, cube, depth, ms]
        .into_iter()
        .map(|d| TextureHeader::new(texture(d)))
        .collect()
}

/// The samplers, by sampler index.
fn samplers() -> Vec<SamplerHeader> {
    vec![
        SamplerHeader::trilinear(AddressMode::Repeat),
        SamplerHeader {
            compare: Some(CompareOp::LessOrEqual),
            ..SamplerHeader::trilinear(AddressMode::ClampToEdge)
        },
        SamplerHeader {
            max_anisotropy: 16.0,
            ..SamplerHeader::trilinear(AddressMode::ClampToBorder)
        },
    ]
}

/// Header/sampler pools: indices 0-3 and 0-2 hold the views and samplers.
fn pools(mut p: Pools) -> Pools {
    for (i, v) in views().into_iter().enumerate() {
        p.set_header(i as u32, v).expect("valid header");
    }
    for (i, s) in samplers().into_iter().enumerate() {
        p.set_sampler(i as u32, s).expect("valid sampler");
    }
    p
}

/// SASS: parse, print and parse back, run on a register file filled from
/// the input.
pub(crate) fn sass(data: &[u8]) -> bool {
    static POOLS: OnceLock<Pools> = OnceLock::new();
    let Some((text, mut words)) = split(data) else {
        return false;
    };
    let Ok(instr) = sass::parse(text) else {
        return false;
    };
    let printed = instr.to_string();
    match sass::parse(&printed) {
        Ok(back) => assert_eq!(back, instr, "`{text}` printed as `{printed}`"),
        Err(e) => panic!("`{text}` printed as `{printed}`, which does not parse: {e}"),
    }
    let masks = words.next();
    let mut regs = RegFile::new();
    for lane in 0..4 {
        for p in 0..7 {
            // Bits 8.. of the mask word, wrapping after bit 31.
            let bit = (8 + lane * 7 + usize::from(p)) % 32;
            regs.set_pred(lane, p, masks >> bit & 1 != 0);
        }
    }
    for r in 0..32 {
        for lane in 0..4 {
            regs.set(lane, r, words.next());
        }
    }
    let pools = POOLS.get_or_init(|| pools(Pools::new()));
    let (active, helper) = (masks as u8 & 0xf, (masks >> 4) as u8 & 0xf);
    let _ = instr.execute(&mut regs, pools, active, helper);
    true
}

/// PTX: parse, run in both texturing modes on registers `%r0-%r7`,
/// `%f0-%f15`, `%rd0-%rd3` and `%p0-%p3` filled from the input; textures
/// `tex0-tex3`, samplers `samp0-samp2`, surface `surf0`.
pub(crate) fn ptx(data: &[u8]) -> bool {
    struct Setup {
        pools: Pools,
        symbols: Symbols,
    }
    static SETUPS: OnceLock<[Setup; 2]> = OnceLock::new();
    let Some((text, mut words)) = split(data) else {
        return false;
    };
    let Ok(instr) = ptx::parse(text) else {
        return false;
    };
    let setups = SETUPS.get_or_init(|| {
        [TexturingMode::Unified, TexturingMode::Independent].map(|mode| {
            let mut symbols = Symbols::default();
            for i in 0..4u32 {
                symbols.textures.insert(format!("tex{i}"), i);
            }
            for i in 0..3u32 {
                symbols.samplers.insert(format!("samp{i}"), i);
            }
            symbols.surfaces.insert("surf0".into(), 0);
            Setup {
                pools: pools(Pools::for_ptx(mode)),
                symbols,
            }
        })
    });
    let mut regs = Regs::new();
    regs.active = words.next() as u8 & 0xf;
    for i in 0..8 {
        regs.set(&format!("%r{i}"), [0; 4].map(|_: u32| words.next()));
    }
    for i in 0..16 {
        regs.set(&format!("%f{i}"), [0; 4].map(|_: u32| words.next()));
    }
    for i in 0..4 {
        let w = [0; 4].map(|_: u32| u64::from(words.next()) | u64::from(words.next()) << 32);
        regs.set_u64(&format!("%rd{i}"), w);
    }
    for i in 0..4 {
        let m = words.next();
        regs.preds
            .insert(format!("%p{i}"), [0, 1, 2, 3].map(|l| m >> l & 1 != 0));
    }
    for (setup, mode) in setups
        .iter()
        .zip([TexturingMode::Unified, TexturingMode::Independent])
    {
        let ctx = PtxContext {
            pools: &setup.pools,
            symbols: &setup.symbols,
            mode,
            profile: Profile::PTX,
        };
        let mut r = regs.clone();
        let _ = ptx::execute(&ctx, &instr, &mut r);
    }
    true
}

/// D3D `ld2dms`: parse, run with `r0-r7` and `v0-v7` filled from the input
/// against resources t0-t3 (t3 the multisample one) and a missing t4.
pub(crate) fn d3d(data: &[u8]) -> bool {
    static RESOURCES: OnceLock<Vec<Option<TextureHeader>>> = OnceLock::new();
    let Some((text, mut words)) = split(data) else {
        return false;
    };
    let Ok(instr) = d3d::parse(text) else {
        return false;
    };
    let resources = RESOURCES.get_or_init(|| {
        let mut v: Vec<_> = views().into_iter().map(Some).collect();
        v.push(None);
        v
    });
    let mut regs = D3dRegs::new();
    regs.active = words.next() as u8 & 0xf;
    for file in [D3dFile::Temp, D3dFile::Input] {
        for index in 0..8 {
            let v = [0; 4].map(|_: u32| [0; 4].map(|_: u32| words.next()));
            regs.set(Reg { file, index }, v);
        }
    }
    d3d::execute(&instr, resources, &mut regs);
    true
}
