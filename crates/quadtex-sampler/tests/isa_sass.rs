//! SASS front-end through the public API: the example texts of NVIDIA's
//! SASS references (TLD4, TMML.LOD) parsed and run on a register file.

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

// ---------------------------------------------------------------- TEX, TLD, TXQ

use quadtex_format::TextureKind;
use quadtex_sampler::isa::sass::{
    pack_tex_aoffi, unpack_tex_aoffi, ParamA, Tex, TexLod, Tld, TldLod, Txq, TxqMode,
};
use quadtex_sampler::{BorderColor, CompareOp, ErrorKind};

/// What `parse` refuses `text` with: kind, offending token, message.
fn refused(text: &str) -> (ErrorKind, String, String) {
    let e = parse(text).unwrap_err();
    (e.kind(), e.token().unwrap().to_owned(), e.to_string())
}

/// The `(kind, token, message)` `refused` gives.
fn want(kind: ErrorKind, token: &str, message: &str) -> (ErrorKind, String, String) {
    (kind, token.to_owned(), message.to_owned())
}

/// `views[i]` at header `i`, `smp` at sampler 0; constant-bank word
/// `5 + i` holds the handle.
fn pools_with(views: Vec<TextureHeader>, smp: SamplerHeader) -> Pools {
    let mut p = pools(views);
    p.set_sampler(0, smp).unwrap();
    p
}

fn nearest() -> SamplerHeader {
    SamplerHeader {
        min_filter: Filter::Nearest,
        mag_filter: Filter::Nearest,
        mipmap_mode: MipmapMode::Nearest,
        max_lod: 100.0,
        address: [AddressMode::Repeat; 3],
        ..SamplerHeader::default()
    }
}

/// A `n` x `n` R32F texture with its full mip chain: texel (x, y) of level
/// l = 100 l + 10 y + x.
fn levels(n: u32) -> TextureHeader {
    let desc = TextureDesc::d2(TextureFormat::R32Float, n, n);
    let mut t = Texture::new(desc, Layout::Linear).unwrap();
    for l in 0..desc.levels {
        let m = n >> l;
        for y in 0..m {
            for x in 0..m {
                let v = Texel::Float([(100 * l + 10 * y + x) as f32, 0.0, 0.0, 1.0]);
                t.write_texel(TexelAddr::new(l, 0, 0, x, y, 0), Aspect::Color, v)
                    .unwrap();
            }
        }
    }
    TextureHeader::new(Arc::new(t))
}

/// Per lane `(s, t)` into Ra, Ra + 1.
fn st(regs: &mut RegFile, ra: usize, c: [[f32; 2]; 4]) {
    for (lane, [s, t]) in c.iter().enumerate() {
        regs.set_f32(lane, ra, *s);
        regs.set_f32(lane, ra + 1, *t);
    }
}

fn out(regs: &RegFile, lane: usize, rd: usize) -> [f32; 4] {
    [0, 1, 2, 3].map(|c| regs.get_f32(lane, rd + c))
}

fn exec(text: &str, regs: &mut RegFile, p: &Pools) {
    parse(text).unwrap().execute(regs, p, 0xf, 0).unwrap();
}

#[test]
fn tex_lz_nearest_reads_the_texel_under_each_lane() {
    let p = pools_with(vec![index(4, 4)], nearest());
    let mut regs = RegFile::new();
    st(
        &mut regs,
        0,
        [[1.5, 2.5], [3.5, 0.5], [0.5, 3.5], [2.5, 1.5]].map(|[x, y]| [x / 4.0, y / 4.0]),
    );
    exec("TEX.LZ R4, R0, 0x5, 2D, 0xf;", &mut regs, &p);
    // R32F: the missing G, B, A read (0, 0, 1).
    assert_eq!(out(&regs, 0, 4), [21.0, 0.0, 0.0, 1.0]);
    assert_eq!(out(&regs, 1, 4)[0], 3.0);
    assert_eq!(out(&regs, 2, 4)[0], 30.0);
    assert_eq!(out(&regs, 3, 4)[0], 12.0);
}

#[test]
fn tex_ll_takes_the_level_from_rb_and_lb_biases_the_implicit_lod() {
    let p = pools_with(vec![levels(4)], nearest());
    let mut regs = RegFile::new();
    // One texel per pixel on the 4x4 base: implicit lambda = 0.
    st(
        &mut regs,
        0,
        [
            [0.125, 0.125],
            [0.375, 0.125],
            [0.125, 0.375],
            [0.375, 0.375],
        ],
    );
    for lane in 0..4 {
        regs.set_f32(lane, 2, 1.0);
    }
    exec("TEX.LL R4, R0, R2, 0x5, 2D, 0xf;", &mut regs, &p);
    // Level 1 is 2x2: every lane's coordinate falls in texel (0, 0).
    assert_eq!(out(&regs, 3, 4)[0], 100.0);
    exec("TEX R4, R0, 0x5, 2D;", &mut regs, &p);
    assert_eq!(
        [0, 1, 2, 3].map(|l| out(&regs, l, 4)[0]),
        [0.0, 1.0, 10.0, 11.0]
    );
    for lane in 0..4 {
        regs.set_f32(lane, 2, 2.0);
    }
    exec("TEX.LB R4, R0, R2, 0x5, 2D;", &mut regs, &p);
    assert_eq!([0, 1, 2, 3].map(|l| out(&regs, l, 4)[0]), [200.0; 4]);
    // .LLA and .LBA run as .LL and .LB.
    exec("TEX.LLA R4, R0, R2, 0x5, 2D;", &mut regs, &p);
    assert_eq!(out(&regs, 0, 4)[0], 200.0);
    exec("TEX.LBA R4, R0, R2, 0x5, 2D;", &mut regs, &p);
    assert_eq!(out(&regs, 1, 4)[0], 200.0);
}

#[test]
fn tex_per_lane_offsets_keep_the_whole_quad_lod() {
    let p = pools_with(vec![levels(4)], nearest());
    // Two texels per pixel on the base: lambda = 1, level 1 (2x2), where
    // lane k sits in texel (k & 1, k >> 1). Lanes run alone would be a
    // partial quad (NV_SASS: zero derivatives, level 0).
    let c = [
        [0.125, 0.125],
        [0.625, 0.125],
        [0.125, 0.625],
        [0.625, 0.625],
    ];
    let offs = [[1, 0, 0], [-1, 1, 0], [1, -1, 0], [-1, -1, 0]];
    let run = |o: [[i32; 3]; 4]| {
        let mut regs = RegFile::new();
        st(&mut regs, 0, c);
        for (lane, o) in o.iter().enumerate() {
            regs.set(lane, 2, pack_tex_aoffi(*o));
        }
        exec("TEX.AOFFI R4, R0, R2, 0x5, 2D;", &mut regs, &p);
        [0, 1, 2, 3].map(|l| out(&regs, l, 4)[0])
    };
    // Repeat on the 2x2 level: (0,0)+(1,0), (1,0)+(-1,1), (0,1)+(1,-1),
    // (1,1)+(-1,-1).
    let got = run(offs);
    assert_eq!(got, [101.0, 110.0, 101.0, 100.0]);
    for (lane, o) in offs.iter().enumerate() {
        assert_eq!(got[lane], run([*o; 4])[lane], "lane {lane}");
    }
}

#[test]
fn tex_aoffi_fields_are_four_bits_and_reach_minus_8_and_7() {
    assert_eq!(pack_tex_aoffi([-8, 7, 0]), 0x078);
    assert_eq!(unpack_tex_aoffi(0x078), [-8, 7, 0]);
    assert_eq!(unpack_tex_aoffi(0xfff), [-1, -1, -1]);
    assert_eq!(unpack_tex_aoffi(pack_tex_aoffi([8, -9, 3])), [-8, 7, 3]);
    // 16x16, texel (x, y) = 10y + x is ambiguous past 9: use a 16x1 row
    // and a 1x16 column instead, clamped to the edge.
    let p = pools_with(
        vec![index(16, 1), index(1, 16)],
        SamplerHeader {
            address: [AddressMode::ClampToEdge; 3],
            ..nearest()
        },
    );
    let mut regs = RegFile::new();
    st(&mut regs, 0, [[8.5 / 16.0, 0.5]; 4]);
    for lane in 0..4 {
        regs.set(lane, 2, pack_tex_aoffi([-8, 0, 0]));
    }
    exec("TEX.LZ.AOFFI R4, R0, R2, 0x5, 2D;", &mut regs, &p);
    assert_eq!(out(&regs, 0, 4)[0], 0.0, "x = 8 - 8");
    for lane in 0..4 {
        regs.set(lane, 2, pack_tex_aoffi([7, 0, 0]));
    }
    exec("TEX.LZ.AOFFI R4, R0, R2, 0x5, 2D;", &mut regs, &p);
    assert_eq!(out(&regs, 0, 4)[0], 15.0, "x = 8 + 7");
    st(&mut regs, 0, [[0.5, 8.5 / 16.0]; 4]);
    for lane in 0..4 {
        regs.set(lane, 2, pack_tex_aoffi([0, -8, 0]));
    }
    exec("TEX.LZ.AOFFI R4, R0, R2, 0x6, 2D;", &mut regs, &p);
    assert_eq!(out(&regs, 0, 4)[0], 0.0, "y = 8 - 8");
    assert_eq!(
        refused("TEX.AOFFI R4, R0, R2, 0x5, CUBE;"),
        want(
            ErrorKind::NotSupported,
            "AOFFI",
            "unsupported: AOFFI with a cube paramA"
        )
    );
}

#[test]
fn tex_dc_compares_and_ps_reports_faults() {
    let mut t = Texture::new(
        TextureDesc::d2(TextureFormat::Depth32Float, 2, 1).with_levels(1),
        Layout::Linear,
    )
    .unwrap();
    for (x, d) in [(0, 0.25), (1, 0.75)] {
        t.write_texel(
            TexelAddr::at(x, 0),
            Aspect::Depth,
            Texel::Float([d, 0.0, 0.0, 1.0]),
        )
        .unwrap();
    }
    let smp = SamplerHeader {
        compare: Some(CompareOp::LessOrEqual),
        ..nearest()
    };
    let p = pools_with(vec![TextureHeader::new(Arc::new(t))], smp);
    let mut regs = RegFile::new();
    st(
        &mut regs,
        0,
        [[0.25, 0.5], [0.75, 0.5], [0.25, 0.5], [0.75, 0.5]],
    );
    for lane in 0..4 {
        regs.set_f32(lane, 2, 0.5);
    }
    // Rb = the reference alone. Dref <= D passes at x = 1 only.
    exec("TEX.LZ.DC P1, R4, R0, R2, 0x5, 2D, 0x1;", &mut regs, &p);
    assert_eq!(
        [0, 1, 2, 3].map(|l| out(&regs, l, 4)[0]),
        [0.0, 1.0, 0.0, 1.0]
    );
    assert!((0..4).all(|l| !regs.pred(l, 1)), "resident: Ps false");
    assert_eq!(
        refused("TEX.DC R4, R0, R2, 0x5, 3D;"),
        want(
            ErrorKind::NotSupported,
            "DC",
            "unsupported: DC with a 3D paramA"
        )
    );

    let mut sparse = Texture::new(
        TextureDesc::d2(TextureFormat::R8Unorm, 4, 4).with_levels(1),
        Layout::Linear,
    )
    .unwrap();
    sparse.make_sparse();
    let p = pools_with(vec![TextureHeader::new(Arc::new(sparse))], nearest());
    exec("TEX.LZ P1, R4, R0, 0x5, 2D;", &mut regs, &p);
    assert!((0..4).all(|l| regs.pred(l, 1)), "not resident: Ps true");
}

#[test]
fn tex_on_an_invalid_handle_or_wrong_param_a_writes_zeros() {
    let p = pools_with(vec![index(4, 4)], nearest());
    let mut regs = RegFile::new();
    st(&mut regs, 0, [[0.6, 0.6]; 4]);
    for lane in 0..4 {
        regs.set(lane, 2, Handle::new(lane as u32 % 2 * 9, 0).unwrap().0);
        for r in 4..8 {
            regs.set(lane, r, 0xdead);
        }
    }
    // Lanes 1 and 3 name header 9, past the pool.
    exec("TEX.B.LZ R4, R0, R2, 0x0, 2D;", &mut regs, &p);
    assert_eq!(out(&regs, 0, 4), [22.0, 0.0, 0.0, 1.0]);
    assert_eq!([4, 5, 6, 7].map(|r| regs.get(1, r)), [0; 4]);
    exec("TEX.LZ R4, R0, 0x5, 3D;", &mut regs, &p);
    assert_eq!([4, 5, 6, 7].map(|r| regs.get(0, r)), [0; 4]);
}

#[test]
fn tld_fetches_integer_texels_and_reads_defaults_out_of_bounds() {
    let p = pools_with(vec![index(4, 4), levels(4)], nearest());
    let mut regs = RegFile::new();
    for (lane, (x, y)) in [(1, 2), (4, 0), (-1, 0), (3, 3)].iter().enumerate() {
        regs.set(lane, 0, *x as u32);
        regs.set(lane, 1, *y as u32);
    }
    exec("TLD.LZ R4, R0, 0x5, 2D;", &mut regs, &p);
    assert_eq!(out(&regs, 0, 4), [21.0, 0.0, 0.0, 1.0]);
    // Out of bounds: 0 in R, the (0, 0, 1) defaults in G, B, A (the D3D
    // `ld2dms` rule, docs/semantics.md §6).
    assert_eq!(out(&regs, 1, 4), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(out(&regs, 2, 4), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(out(&regs, 3, 4)[0], 33.0);
    // .LL then .AOFFI in Rb (two registers, aligned to 2): level 1 texel
    // (0, 0) moved by (1, 1).
    for lane in 0..4 {
        regs.set(lane, 0, 0);
        regs.set(lane, 1, 0);
        regs.set(lane, 2, 1);
        regs.set(lane, 3, pack_tex_aoffi([1, 1, 0]));
    }
    exec("TLD.LL.AOFFI R4, R0, R2, 0x6, 2D;", &mut regs, &p);
    assert_eq!(out(&regs, 0, 4)[0], 111.0);
    // Level 3 does not exist in a 4x4 chain: out of bounds.
    for lane in 0..4 {
        regs.set(lane, 2, 3);
    }
    exec("TLD.LL.AOFFI R4, R0, R2, 0x6, 2D;", &mut regs, &p);
    assert_eq!(out(&regs, 0, 4), [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn tld_ms_reads_the_sample_index_from_rb() {
    let desc = TextureDesc::d2_ms(TextureFormat::Rgba32Float, 4, 4, 4);
    let mut t = Texture::new(desc, Layout::Linear).unwrap();
    for s in 0..4 {
        t.write_texel(
            TexelAddr::new(0, 0, s, 2, 1, 0),
            Aspect::Color,
            Texel::Float([s as f32, 1.0, 2.0, 3.0]),
        )
        .unwrap();
    }
    let p = pools_with(
        vec![TextureHeader::new(Arc::new(t)), index(4, 4)],
        nearest(),
    );
    let mut regs = RegFile::new();
    for lane in 0..4 {
        regs.set(lane, 0, 2);
        regs.set(lane, 1, 1);
        regs.set(lane, 2, [3, 1, 4, 0][lane]);
    }
    exec("TLD.MS R4, R0, R2, 0x5, 2D;", &mut regs, &p);
    assert_eq!(out(&regs, 0, 4), [3.0, 1.0, 2.0, 3.0]);
    assert_eq!(out(&regs, 1, 4), [1.0, 1.0, 2.0, 3.0]);
    assert_eq!(out(&regs, 2, 4), [0.0; 4], "sample 4 of 4: out of bounds");
    assert_eq!(out(&regs, 3, 4)[0], 0.0);
    // .MS on a single-sample header, and a plain TLD on a multisample one:
    // the header type does not match, zeros.
    exec("TLD.MS R4, R0, R2, 0x6, 2D;", &mut regs, &p);
    assert_eq!(out(&regs, 1, 4), [0.0; 4]);
    exec("TLD.LZ R4, R0, 0x5, 2D;", &mut regs, &p);
    assert_eq!(out(&regs, 1, 4), [0.0; 4]);
    assert_eq!(
        refused("TLD.MS.LL R4, R0, R2, 0x5, 2D;"),
        want(ErrorKind::NotSupported, "LL", "unsupported: MS with LL")
    );
    assert_eq!(
        refused("TLD.LZ R4, R0, 0x5, CUBE;"),
        want(
            ErrorKind::NotSupported,
            "CUBE",
            "unsupported: TLD takes 1D, 2D, 3D, ARRAY_1D or ARRAY_2D"
        )
    );
}

#[test]
fn tld_array_reads_the_layer_from_ra_bits_15_0() {
    let desc = TextureDesc::d2(TextureFormat::R32Float, 2, 2)
        .with_levels(1)
        .with_layers(TextureKind::D2Array, 3);
    let mut t = Texture::new(desc, Layout::Linear).unwrap();
    for layer in 0..3 {
        t.write_texel(
            TexelAddr::new(0, layer, 0, 1, 0, 0),
            Aspect::Color,
            Texel::Float([layer as f32 + 0.5, 0.0, 0.0, 1.0]),
        )
        .unwrap();
    }
    let p = pools_with(vec![TextureHeader::new(Arc::new(t))], nearest());
    let mut regs = RegFile::new();
    for (lane, layer) in [0u32, 2, 0x1_0001, 3].iter().enumerate() {
        regs.set(lane, 0, *layer);
        regs.set(lane, 1, 1);
        regs.set(lane, 2, 0);
    }
    exec("TLD.LZ R4, R0, 0x5, ARRAY_2D;", &mut regs, &p);
    assert_eq!(
        [0, 1, 2, 3].map(|l| out(&regs, l, 4)[0]),
        [0.5, 2.5, 1.5, 0.0]
    );
}

#[test]
fn txq_dimension_reports_each_lane_level() {
    let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, 16, 8);
    let v = TextureHeader::new(Arc::new(Texture::new(desc, Layout::Linear).unwrap()));
    let p = pools_with(vec![v], nearest());
    let mut regs = RegFile::new();
    for (lane, l) in [0u32, 1, 3, 9].iter().enumerate() {
        regs.set(lane, 0, *l);
    }
    exec("TXQ R4, R0, 0x5, TEX_HEADER_DIMENSION;", &mut regs, &p);
    let w = |l: usize| [4, 5, 6, 7].map(|r| regs.get(l, r));
    assert_eq!(w(0), [16, 8, 0, 5]);
    assert_eq!(w(1), [8, 4, 0, 5]);
    assert_eq!(w(2), [2, 1, 0, 5]);
    assert_eq!(w(3), [0, 0, 0, 5], "level past the chain: sizes 0");
    // Bindless: Ra = {handle, level}, aligned to 2; mask 0x9 writes R4, R7.
    let mut regs = RegFile::new();
    for lane in 0..4 {
        regs.set(lane, 2, Handle::new(0, 0).unwrap().0);
        regs.set(lane, 3, 2);
        regs.set(lane, 5, 0xdead);
    }
    exec(
        "TXQ.B R4, R2, 0x0, TEX_HEADER_DIMENSION, 0x9;",
        &mut regs,
        &p,
    );
    assert_eq!([4, 5, 6, 7].map(|r| regs.get(0, r)), [4, 0xdead, 0, 5]);
    // An invalid handle: zeros.
    regs.set(1, 2, Handle::new(7, 0).unwrap().0);
    exec("TXQ.B R4, R2, 0x0, TEX_HEADER_DIMENSION;", &mut regs, &p);
    assert_eq!([4, 5, 6, 7].map(|r| regs.get(1, r)), [0; 4]);
    assert_eq!(
        refused("TXQ.B R4, R3, 0x0, DIMS;"),
        want(ErrorKind::Misaligned, "R3", "Ra = R3 must be aligned to 2")
    );
}

#[test]
fn txq_type_samples_and_sample_position() {
    let ms = TextureHeader::new(Arc::new(
        Texture::new(
            TextureDesc::d2_ms(TextureFormat::Rgba8Unorm, 8, 4, 4),
            Layout::Linear,
        )
        .unwrap(),
    ));
    let arr = TextureHeader::new(Arc::new(
        Texture::new(
            TextureDesc::d2(TextureFormat::Rgba8Unorm, 8, 8).with_layers(TextureKind::D2Array, 3),
            Layout::Linear,
        )
        .unwrap(),
    ));
    let p = pools_with(vec![ms, arr], nearest());
    let mut regs = RegFile::new();
    exec("TXQ R4, RZ, 0x5, TEX_HEADER_TEXTURE_TYPE;", &mut regs, &p);
    assert_eq!([4, 5, 6, 7].map(|r| regs.get(0, r)), [1, 0, 4, 0]);
    exec("TXQ R4, RZ, 0x6, TEX_HEADER_TEXTURE_TYPE;", &mut regs, &p);
    assert_eq!([4, 5, 6, 7].map(|r| regs.get(0, r)), [5, 0, 1, 0]);
    for (lane, s) in [0u32, 1, 3, 4].iter().enumerate() {
        regs.set(lane, 0, *s);
    }
    exec(
        "TXQ R4, R0, 0x5, TEX_HEADER_SAMPLER_POS, 0x3;",
        &mut regs,
        &p,
    );
    assert_eq!(out(&regs, 0, 4)[..2], [0.375, 0.125]);
    assert_eq!(out(&regs, 1, 4)[..2], [0.875, 0.375]);
    assert_eq!(out(&regs, 2, 4)[..2], [0.625, 0.875]);
    assert_eq!(out(&regs, 3, 4)[..2], [0.0, 0.0], "sample 4 of 4");
}

#[test]
fn txq_sampler_queries_return_the_tsc_fields() {
    let smp = SamplerHeader {
        min_filter: Filter::Linear,
        mag_filter: Filter::Nearest,
        mipmap_mode: MipmapMode::Linear,
        max_anisotropy: 5.0,
        min_lod: 0.5,
        max_lod: 100.0,
        mip_lod_bias: -1.5,
        address: [
            AddressMode::Repeat,
            AddressMode::ClampToBorder,
            AddressMode::ClampOgl,
        ],
        border_color: BorderColor::FloatOpaqueWhite,
        ..SamplerHeader::default()
    };
    let p = pools_with(vec![index(2, 2)], smp);
    let mut regs = RegFile::new();
    let q = |regs: &mut RegFile, what: &str| {
        exec(&format!("TXQ R4, RZ, 0x5, {what};"), regs, &p);
        [4, 5, 6, 7].map(|r| regs.get(0, r))
    };
    // Mag POINT 1, min LINEAR 2, mip LINEAR 3, anisotropy 5 -> TSC 4.
    assert_eq!(q(&mut regs, "TEX_SAMPLER_FILTER"), [1, 2, 3, 4]);
    // U4.8: 0.5 -> 128, 100 clamps to 4095; S5.8 -1.5 -> -384 in 13 bits.
    assert_eq!(q(&mut regs, "TEX_SAMPLER_LOD"), [128, 4095, 0x1e80, 0]);
    assert_eq!(q(&mut regs, "TEX_SAMPLER_WRAP"), [0, 3, 4, 0]);
    assert_eq!(
        q(&mut regs, "TEX_SAMPLER_BORDER_COLOR"),
        [1f32.to_bits(); 4]
    );
    // The sampler pointer past the pool: sampler queries read zeros.
    let mut p2 = p.clone();
    p2.const_bank[5] = Handle::new(0, 9).unwrap().0;
    exec("TXQ R4, RZ, 0x5, TEX_SAMPLER_WRAP;", &mut regs, &p2);
    assert_eq!([4, 5, 6, 7].map(|r| regs.get(0, r)), [0; 4]);
}

#[test]
fn tex_tld_txq_texts_parse_to_their_structs() {
    assert_eq!(
        parse("@P2 TEX.B.LL.AOFFI.DC.NDV.NODEP.P P3, R4, R8, R12, 0x7, ARRAY_2D, 0x3;").unwrap(),
        Instruction::Tex(Tex {
            guard: Some(quadtex_sampler::isa::sass::Guard {
                pred: 2,
                negate: false
            }),
            source: TexSource::Bindless,
            lod: TexLod::Ll,
            aoffi: true,
            dc: true,
            ndv: true,
            nodep: true,
            ps: Some(3),
            rd: 4,
            ra: 8,
            rb: 12,
            param_a: ParamA::Array2D,
            wmsk: 3,
        })
    );
    assert_eq!(
        parse("TLD.LZ.MS.T R8, R0, R4, 0x10, 0x2, 2D;").unwrap(),
        Instruction::Tld(Tld {
            guard: None,
            source: TexSource::Bound(0x210),
            lod: TldLod::Lz,
            aoffi: false,
            ms: true,
            nodep: false,
            ps: None,
            rd: 8,
            ra: 0,
            rb: 4,
            param_a: ParamA::TwoD,
            wmsk: 0xf,
        })
    );
    assert_eq!(
        parse("TXQ.B.NODEP R2, R0, 0x0, TEX_SAMPLER_LOD, 0x1;").unwrap(),
        Instruction::Txq(Txq {
            guard: None,
            source: TexSource::Bindless,
            nodep: true,
            rd: 2,
            ra: 0,
            mode: TxqMode::Lod,
            wmsk: 1,
        })
    );
    assert_eq!(TxqMode::Lod.code(), 0x12);
    let tok = |t: &str| {
        let (kind, token, _) = refused(t);
        (kind, token)
    };
    let modifier = |t: &str| (ErrorKind::BadModifier, t.to_owned());
    let operand = |t: &str| (ErrorKind::BadOperand, t.to_owned());
    assert_eq!(tok("TEX.LZ.LL R4, R0, 0x5, 2D;"), modifier("LL"));
    assert_eq!(tok("TEX.PTP R4, R0, R2, 0x5, 2D;"), modifier("PTP"));
    assert_eq!(tok("TLD.LB R4, R0, R2, 0x5, 2D;"), modifier("LB"));
    assert_eq!(tok("TXQ R4, R0, R2, 0x5, DIMS;"), operand("R2"));
    assert_eq!(tok("TXQ R4, R0, 0x5, 2D;"), operand("2D"));
    assert_eq!(
        tok("TEX R4, R0, 0x5, TEX_HEADER_DIMENSION;"),
        operand("TEX_HEADER_DIMENSION")
    );
    assert_eq!(
        refused("TXQ R4, R0, R2, 0x5, DIMS;").2,
        "unexpected token `R2`: expected TXQ takes Rd, Ra only"
    );
    // Rb carries the handle and the level: two registers, aligned to 2.
    assert_eq!(
        refused("TEX.B.LL R4, R0, R3, 0x0, 2D;"),
        want(ErrorKind::Misaligned, "R3", "Rb = R3 must be aligned to 2")
    );
    assert!(parse("TEX.LL R4, R0, R3, 0x5, 2D;").is_ok());
    assert_eq!(
        refused("TEX.LL R4, R0, 0x5, 2D;"),
        want(
            ErrorKind::Misaligned,
            "RZ",
            "Rb is RZ but carries parameters"
        )
    );
    // 3D: s, t, r in Ra, aligned to 4.
    assert_eq!(
        refused("TEX R4, R2, 0x5, 3D;"),
        want(ErrorKind::Misaligned, "R2", "Ra = R2 must be aligned to 4")
    );
}

#[test]
fn every_form_prints_text_that_parses_back_to_itself() {
    for text in [
        "TLD4.R R8,R0,5,2D,0xf;",
        "@!P1 TLD4.G.B.AOFFI.DC.NDV.NODEP.T P0, R8, R0, R4, 0x20, ARRAY_2D, 0xf;",
        "TLD4.A.PTP R8, R0, R2, 0x10, 0x2, 2D, 0x5;",
        "TMML.LOD R2, R6, 6, 2D, 0x3;",
        "@PT TMML.B.LOD.NDV.NODEP R0, R4, R8, 0, ARRAY_CUBE;",
        "TEX.LL R4, R0, R2, 0x5, 2D, 0xf;",
        "@P2 TEX.B.LL.AOFFI.DC.NDV.NODEP.P P3, R4, R8, R12, 0x7, ARRAY_2D, 0x3;",
        "TEX R4, R0, 0x10, 0x1f, CUBE;",
        "TEX.LBA.AOFFI R4, R0, R2, 0x5, 1D, 0x1;",
        "TEX.LLA R4, R0, R3, 0x5, ARRAY_1D;",
        "TEX.LZ RZ, R4, 0x5, 3D;",
        "TLD.LZ R4, R0, 0x5, 2D;",
        "TLD R4, R0, 0x5, ARRAY_1D;",
        "TLD.B.LL.AOFFI.NODEP P6, R4, R0, R4, 0x0, 3D, 0x7;",
        "TLD.MS.AOFFI R8, R0, R4, 0x10, 0x2, ARRAY_2D;",
        "TXQ R4, R0, 0x5, TEX_HEADER_DIMENSION;",
        "TXQ.B.NODEP R2, R0, 0x0, TEX_SAMPLER_LOD, 0x1;",
        "@!P0 TXQ R0, RZ, 0x1fff, BORDER_COLOUR, 0xc;",
        "TXQ.B R4, R6, 0, SAMPLE_POSITION;",
    ] {
        let i = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let printed = i.to_string();
        assert_eq!(parse(&printed).ok(), Some(i), "{text} -> {printed}");
    }
    assert_eq!(
        parse("TEX.B.LL.AOFFI R8, R0, R4, 0x10, 0x2, 2D;")
            .unwrap()
            .to_string(),
        "TEX.B.LL.AOFFI R8, R0, R4, 0x0, 2D, 0xf;"
    );
    assert_eq!(
        parse("@!P1 TXQ R4, R0, 0x10, 0x2, DIMS, 0x3;")
            .unwrap()
            .to_string(),
        "@!P1 TXQ R4, R0, 0x210, TEX_HEADER_DIMENSION, 0x3;"
    );
}

#[test]
fn tex_ndv_takes_the_lod_from_all_four_lanes_of_a_partial_quad() {
    let p = pools_with(vec![levels(4)], nearest());
    let mut regs = RegFile::new();
    // Two texels per pixel: lambda = 1 over the whole quad.
    st(
        &mut regs,
        0,
        [
            [0.125, 0.125],
            [0.625, 0.125],
            [0.125, 0.625],
            [0.625, 0.625],
        ],
    );
    // Only lane 0 active: a partial quad. NV_SASS gives it zero
    // derivatives (level 0); .NDV differences all four registers (level 1).
    // The `#tidU08, #smpU05` form `0x5, 0x0` is word 5.
    let run = |text: &str, regs: &mut RegFile| {
        parse(text).unwrap().execute(regs, &p, 0b0001, 0).unwrap();
        out(regs, 0, 4)[0]
    };
    assert_eq!(run("TEX R4, R0, 0x5, 0x0, 2D;", &mut regs), 0.0);
    assert_eq!(run("TEX.NDV R4, R0, 0x5, 0x0, 2D;", &mut regs), 100.0);
    assert_eq!(regs.get(1, 4), 0, "inactive lane untouched");
    // A helper lane feeds the derivatives and, under .NODEP, keeps its
    // destination.
    regs.set(1, 4, 0xdead);
    parse("TEX.NODEP R4, R0, 0x5, 2D;")
        .unwrap()
        .execute(&mut regs, &p, 0b1101, 0b0010)
        .unwrap();
    assert_eq!(out(&regs, 0, 4)[0], 100.0);
    assert_eq!(regs.get(1, 4), 0xdead);
}

#[test]
fn tex_array_reads_the_layer_from_ra_bits_15_0() {
    let desc = TextureDesc::d2(TextureFormat::R32Float, 2, 2)
        .with_levels(1)
        .with_layers(TextureKind::D2Array, 3);
    let mut t = Texture::new(desc, Layout::Linear).unwrap();
    for layer in 0..3 {
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            t.write_texel(
                TexelAddr::new(0, layer, 0, x, y, 0),
                Aspect::Color,
                Texel::Float([(10 * layer + x + 2 * y) as f32, 0.0, 0.0, 1.0]),
            )
            .unwrap();
        }
    }
    let p = pools_with(vec![TextureHeader::new(Arc::new(t))], nearest());
    let mut regs = RegFile::new();
    // Layers 0, 2, 0x10001 (bits 15:0 = 1) and 7 (clamped to 2).
    for (lane, layer) in [0u32, 2, 0x1_0001, 7].iter().enumerate() {
        regs.set(lane, 0, *layer);
        regs.set_f32(lane, 1, 0.75);
        regs.set_f32(lane, 2, 0.25);
    }
    exec("TEX.LZ R4, R0, 0x5, ARRAY_2D;", &mut regs, &p);
    assert_eq!(
        [0, 1, 2, 3].map(|l| out(&regs, l, 4)[0]),
        [1.0, 21.0, 11.0, 21.0]
    );
}

#[test]
fn tld_sets_ps_on_a_non_resident_texel_and_zeros_an_invalid_handle() {
    let mut sparse = Texture::new(
        TextureDesc::d2(TextureFormat::R32Float, 256, 256).with_levels(1),
        Layout::Linear,
    )
    .unwrap();
    sparse.make_sparse();
    // Only the first tile is resident.
    sparse
        .residency_mut()
        .unwrap()
        .set_tile(0, 0, 0, 0, 0, true)
        .unwrap();
    let p = pools_with(vec![TextureHeader::new(Arc::new(sparse))], nearest());
    let mut regs = RegFile::new();
    for (lane, x) in [1u32, 200, 2, 255].iter().enumerate() {
        regs.set(lane, 0, *x);
        regs.set(lane, 1, 1);
        regs.set(lane, 2, Handle::new(0, 0).unwrap().0);
    }
    exec("TLD.LZ P2, R4, R0, 0x5, 2D;", &mut regs, &p);
    assert_eq!(
        [0, 1, 2, 3].map(|l| regs.pred(l, 2)),
        [false, true, false, true]
    );
    // Bindless: lane 1's handle names header 3, past the pool.
    regs.set(1, 2, Handle::new(3, 0).unwrap().0);
    for r in 4..8 {
        regs.set(1, r, 0xdead);
    }
    exec("TLD.B.LZ P2, R4, R0, R2, 0x0, 2D;", &mut regs, &p);
    assert_eq!([4, 5, 6, 7].map(|r| regs.get(1, r)), [0; 4]);
    assert!(!regs.pred(1, 2), "no texture touched: no fault");
}
