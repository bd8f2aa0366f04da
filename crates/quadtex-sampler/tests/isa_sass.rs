//! SASS front-end through the public API: the seeds' example texts (seed
//! 000 TLD4, seed 001 TMML.LOD) parsed and run on a register file.

use std::sync::Arc;

use quadtex_format::{Aspect, Layout, Texel, TexelAddr, Texture, TextureDesc, TextureFormat};
use quadtex_sampler::isa::sass::{parse, Instruction, RegFile, TexSource};
use quadtex_sampler::{
    query_lod, AddressMode, Filter, Handle, MipmapMode, Pools, Profile, Quad, SampleArgs,
    SamplerHeader, TextureHeader,
};

/// A `w` x `h` one-level R32F texture, texel (x, y) = 10y + x.
fn index(w: u32, h: u32) -> TextureHeader {
    let desc = TextureDesc::d2(TextureFormat::R32Float, w, h).with_levels(1);
    let mut t = Texture::new(desc, Layout::Linear).unwrap();
    for y in 0..h {
        for x in 0..w {
            let v = Texel::Float([(10 * y + x) as f32, 0.0, 0.0, 1.0]);
            t.write_texel(TexelAddr::at(x, y), Aspect::Color, v)
                .unwrap();
        }
    }
    TextureHeader::new(Arc::new(t))
}

/// A 64x64 R32F texture with its full mip chain.
fn mipped() -> TextureHeader {
    let desc = TextureDesc::d2(TextureFormat::R32Float, 64, 64);
    TextureHeader::new(Arc::new(Texture::new(desc, Layout::Linear).unwrap()))
}

fn trilinear() -> SamplerHeader {
    SamplerHeader {
        min_filter: Filter::Linear,
        mag_filter: Filter::Linear,
        mipmap_mode: MipmapMode::Linear,
        max_lod: 100.0,
        address: [AddressMode::Repeat; 3],
        ..SamplerHeader::default()
    }
}

/// `views[i]` at header `i`, sampler 0; constant-bank word `5 + i` holds
/// its handle.
fn pools(views: Vec<TextureHeader>) -> Pools {
    let mut p = Pools::new();
    p.set_sampler(0, trilinear()).unwrap();
    p.const_bank = vec![0; 16];
    for (i, v) in views.into_iter().enumerate() {
        p.set_header(i as u32, v).unwrap();
        p.const_bank[5 + i] = Handle::new(i as u32, 0).unwrap().0;
    }
    p
}

#[test]
fn bindless_lanes_with_different_handles_read_their_own_textures() {
    let a = index(2, 2);
    let b = index(4, 4);
    let p = pools(vec![a, b]);
    let mut regs = RegFile::new();
    for lane in 0..4 {
        regs.set_f32(lane, 0, 0.5);
        regs.set_f32(lane, 1, 0.5);
        regs.set(lane, 2, Handle::new((lane % 2) as u32, 0).unwrap().0);
    }
    parse("TLD4.R.B R4, R0, R2, 0, 2D;")
        .unwrap()
        .execute(&mut regs, &p, 0xf, 0)
        .unwrap();
    let got = |lane: usize| [4, 5, 6, 7].map(|r| regs.get_f32(lane, r));
    // 2x2 at (0.5, 0.5): i0 = j0 = 0. 4x4: i0 = j0 = 1.
    assert_eq!(got(0), [10.0, 11.0, 1.0, 0.0]);
    assert_eq!(got(1), [21.0, 22.0, 12.0, 11.0]);
    assert_eq!(got(2), got(0));
    assert_eq!(got(3), got(1));
}

/// Lane 0 active only; the other lanes' coordinates step 4 texels in x and
/// 1.5 in y on the 64x64 base level (all exact in binary).
fn tmml_regs() -> (RegFile, Quad) {
    let c = [
        [0.125, 0.25],
        [0.1875, 0.25],
        [0.125, 0.2734375],
        [0.1875, 0.2734375],
    ];
    let mut regs = RegFile::new();
    for (lane, [x, y]) in c.iter().enumerate() {
        regs.set_f32(lane, 6, *x);
        regs.set_f32(lane, 7, *y);
    }
    let quad = Quad {
        active: 0b0001,
        ..Quad::new(c.map(|[x, y]| [x, y, 0.0, 0.0]))
    };
    (regs, quad)
}

#[test]
fn tmml_ndv_takes_derivatives_from_inactive_lanes() {
    let v = mipped();
    let p = pools(vec![v.clone()]);
    let s = trilinear();
    let ndv = SampleArgs {
        ndv: true,
        ..SampleArgs::default()
    };
    let (mut regs, quad) = tmml_regs();
    parse("TMML.LOD.NDV R0, R6, 5, 2D;")
        .unwrap()
        .execute(&mut regs, &p, 0b0001, 0)
        .unwrap();
    let want = query_lod(&v, &s, &Profile::NV_SASS, &ndv, &quad)[0]
        .unwrap()
        .raw;
    assert_eq!([0, 1, 2, 3].map(|r| regs.get(0, r)), want);
    // lambda = log2(4) = 2: S8.8 0x200.
    assert_eq!(want[0], 0x200);
    assert_eq!(regs.get(1, 0), 0, "inactive lane untouched");

    // Without .NDV the partial quad has zero derivatives (NV_SASS).
    let (mut regs, quad) = tmml_regs();
    parse("TMML.LOD R0, R6, 5, 2D;")
        .unwrap()
        .execute(&mut regs, &p, 0b0001, 0)
        .unwrap();
    let want = query_lod(&v, &s, &Profile::NV_SASS, &SampleArgs::default(), &quad)[0]
        .unwrap()
        .raw;
    assert_eq!([0, 1, 2, 3].map(|r| regs.get(0, r)), want);
    assert_ne!(want[0], 0x200);
}

#[test]
fn tmml_bindless_and_array_forms_pack_ra_and_rb() {
    let v = mipped();
    let p = pools(vec![v]);
    let i = parse("TMML.B.LOD R0, R4, R8, 0, ARRAY_2D, 0x1;").unwrap();
    let Instruction::TmmlLod(t) = i else {
        panic!("{i:?}")
    };
    assert_eq!(
        (t.source, t.ra, t.rb, t.wmsk),
        (TexSource::Bindless, 4, 8, 1)
    );
    let (src, _) = tmml_regs();
    let mut regs = RegFile::new();
    for lane in 0..4 {
        regs.set(lane, 4, 0); // array index
        regs.set(lane, 5, src.get(lane, 6));
        regs.set(lane, 6, src.get(lane, 7));
        regs.set(lane, 8, Handle::new(0, 0).unwrap().0);
        regs.set(lane, 1, 0xdead);
    }
    i.execute(&mut regs, &p, 0xf, 0).unwrap();
    assert_eq!(regs.get(0, 0), 0x200);
    assert_eq!(regs.get(0, 1), 0xdead, "masked off");
    // Ra for ARRAY_2D is three registers: aligned to 4.
    assert!(parse("TMML.B.LOD R0, R6, R8, 0, ARRAY_2D;").is_err());
}

#[test]
fn rz_destination_discards_the_result() {
    let p = pools(vec![index(2, 2)]);
    let mut regs = RegFile::new();
    regs.set(0, 255, 7);
    assert_eq!(regs.get(0, 255), 0);
    parse("TLD4.A RZ, R0, 5, 2D;")
        .unwrap()
        .execute(&mut regs, &p, 0xf, 0)
        .unwrap();
    assert_eq!(regs, RegFile::new());
}
