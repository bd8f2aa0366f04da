//! D3D `ld2dms` front-end (the D3D `ld2dms` reference; docs/semantics.md §6):
//! parsing and execution against multisample textures.

use std::sync::Arc;

use quadtex_format::TextureKind;
use quadtex_format::{Aspect, Layout, Texel, TexelAddr, Texture, TextureDesc, TextureFormat};
use quadtex_sampler::isa::d3d::{self, D3dRegs, Reg, RegFile};
use quadtex_sampler::{ErrorKind, TextureHeader};

const ONE: u32 = 0x3f80_0000;

fn r(index: u32) -> Reg {
    Reg {
        file: RegFile::Temp,
        index,
    }
}

fn ms(format: TextureFormat) -> TextureHeader {
    let mut t = Texture::new(TextureDesc::d2_ms(format, 4, 4, 2), Layout::Linear).unwrap();
    for s in 0..2 {
        for y in 0..4 {
            for x in 0..4 {
                let v = match format {
                    TextureFormat::Rgba32Float => Texel::Float([x as f32, y as f32, s as f32, 0.5]),
                    _ => Texel::Float([1.0, 1.0, 1.0, 1.0]),
                };
                t.write_texel(TexelAddr::new(0, 0, s, x, y, 0), Aspect::Color, v)
                    .unwrap();
            }
        }
    }
    TextureHeader::new(Arc::new(t))
}

fn lane0(regs: &D3dRegs, index: u32) -> [u32; 4] {
    regs.get(r(index))[0]
}

#[test]
fn ld2dms_reads_the_sample_at_the_offset_address() {
    let res = [Some(ms(TextureFormat::Rgba32Float))];
    let mut regs = D3dRegs::new();
    regs.splat(r(1), [3, 0, 0, 0]);
    regs.splat(r(2), [1, 0, 0, 0]);
    d3d::run(
        "ld2dms_aoffimmi(-1,2,0) r0.xyzw, r1.xyzw, t0.xyzw, r2.x",
        &res,
        &mut regs,
    )
    .unwrap();
    assert_eq!(lane0(&regs, 0).map(f32::from_bits), [2.0, 2.0, 1.0, 0.5]);
}

#[test]
fn a_negative_offset_wraps_out_of_bounds_to_the_format_defaults() {
    let mut regs = D3dRegs::new();
    regs.splat(r(1), [0, 0, 0, 0]);
    regs.splat(r(2), [0; 4]);
    let line = "ld2dms_aoffimmi(-1,0,0) r0.xyzw, r1.xyzw, t0.xyzw, r2.x";
    d3d::run(line, &[Some(ms(TextureFormat::R8Unorm))], &mut regs).unwrap();
    assert_eq!(lane0(&regs, 0), [0, 0, 0, ONE]);
    d3d::run(line, &[Some(ms(TextureFormat::Rgba8Unorm))], &mut regs).unwrap();
    assert_eq!(lane0(&regs, 0), [0, 0, 0, 0]);
    // Without the offset the same address is in bounds.
    d3d::run(
        "ld2dms r0.xyzw, r1.xyzw, t0.xyzw, r2.x",
        &[Some(ms(TextureFormat::R8Unorm))],
        &mut regs,
    )
    .unwrap();
    assert_eq!(lane0(&regs, 0), [ONE, 0, 0, ONE]);
}

#[test]
fn a_sample_index_past_the_count_reads_defaults() {
    let mut regs = D3dRegs::new();
    regs.splat(r(1), [1, 1, 0, 0]);
    regs.splat(r(2), [0, 0, 2, 0]);
    d3d::run(
        "ld2dms r0, r1.xyzw, t0.xyzw, r2.z",
        &[Some(ms(TextureFormat::R8Unorm))],
        &mut regs,
    )
    .unwrap();
    assert_eq!(lane0(&regs, 0), [0, 0, 0, ONE]);
}

#[test]
fn an_unbound_resource_reads_zeros() {
    let mut regs = D3dRegs::new();
    regs.splat(r(0), [9; 4]);
    d3d::run("ld2dms r0.xyzw, r1.xyzw, t0.xyzw, r2.x", &[None], &mut regs).unwrap();
    assert_eq!(lane0(&regs, 0), [0; 4]);
    regs.splat(r(0), [9; 4]);
    d3d::run("ld2dms r0.xyzw, r1.xyzw, t7.xyzw, r2.x", &[], &mut regs).unwrap();
    assert_eq!(lane0(&regs, 0), [0; 4]);
}

#[test]
fn the_dest_mask_writes_only_its_components() {
    let res = [Some(ms(TextureFormat::Rgba32Float))];
    let mut regs = D3dRegs::new();
    regs.splat(r(0), [9; 4]);
    regs.splat(r(1), [3, 2, 0, 0]);
    regs.splat(r(2), [1, 0, 0, 0]);
    d3d::run("ld2dms r0.xz, r1.xyzw, t0.xyzw, r2.x", &res, &mut regs).unwrap();
    assert_eq!(lane0(&regs, 0), [3.0f32.to_bits(), 9, 1.0f32.to_bits(), 9]);
}

#[test]
fn the_resource_swizzle_reorders_the_result() {
    let res = [Some(ms(TextureFormat::Rgba32Float))];
    let mut regs = D3dRegs::new();
    regs.splat(r(1), [3, 2, 0, 0]);
    regs.splat(r(2), [1, 0, 0, 0]);
    d3d::run("ld2dms r0.xyzw, r1.xyzw, t0.wzyx, r2.x", &res, &mut regs).unwrap();
    assert_eq!(lane0(&regs, 0).map(f32::from_bits), [0.5, 1.0, 2.0, 3.0]);
}

#[test]
fn the_address_swizzle_picks_x_y_and_the_array_index() {
    let mut t = Texture::new(
        TextureDesc::d2_ms(TextureFormat::Rgba32Float, 4, 4, 2)
            .with_layers(TextureKind::D2MsArray, 2),
        Layout::Linear,
    )
    .unwrap();
    t.write_texel(
        TexelAddr::new(0, 1, 0, 2, 3, 0),
        Aspect::Color,
        Texel::Float([7.0, 0.0, 0.0, 1.0]),
    )
    .unwrap();
    let res = [Some(TextureHeader::new(Arc::new(t)))];
    let mut regs = D3dRegs::new();
    // (layer, x, y) stored in (x, y, z): `.yzxw` gives (x, y, layer).
    regs.splat(r(1), [1, 2, 3, 0]);
    regs.splat(r(2), [0; 4]);
    d3d::run("ld2dms r0.xyzw, r1.yzxw, t0.xyzw, r2.x", &res, &mut regs).unwrap();
    assert_eq!(lane0(&regs, 0)[0], 7.0f32.to_bits());
    // Offsets never move the array index: layer 1 stays 1.
    regs.splat(r(1), [1, 3, 3, 0]);
    d3d::run(
        "ld2dms_aoffimmi(-1,0,-1) r0.xyzw, r1.yzxw, t0.xyzw, r2.x",
        &res,
        &mut regs,
    )
    .unwrap();
    assert_eq!(lane0(&regs, 0)[0], 7.0f32.to_bits());
}

#[test]
fn float_bits_come_back_untouched() {
    let mut t = Texture::new(
        TextureDesc::d2_ms(TextureFormat::Rgba32Float, 1, 1, 1),
        Layout::Linear,
    )
    .unwrap();
    let denormal = f32::from_bits(1);
    t.write_texel(
        TexelAddr::new(0, 0, 0, 0, 0, 0),
        Aspect::Color,
        Texel::Float([denormal, -0.0, 0.0, 1.0]),
    )
    .unwrap();
    let mut regs = D3dRegs::new();
    d3d::run(
        "ld2dms r0.xyzw, v0.xyzw, t0.xyzw, v1.x",
        &[Some(TextureHeader::new(Arc::new(t)))],
        &mut regs,
    )
    .unwrap();
    assert_eq!(lane0(&regs, 0), [1, 0x8000_0000, 0, ONE]);
}

#[test]
fn the_parser_names_bad_tokens() {
    for (text, kind, token) in [
        (
            "ld2dms_aoffimmi(8,0,0) r0.xyzw, r1.xyzw, t0.xyzw, r2.x",
            ErrorKind::OffsetOutOfRange,
            "8",
        ),
        (
            "ld2dms_aoffimmi(0,-9) r0.xyzw, r1.xyzw, t0.xyzw, r2.x",
            ErrorKind::OffsetOutOfRange,
            "-9",
        ),
        (
            "ld2dms r0.zx, r1.xyzw, t0.xyzw, r2.x",
            ErrorKind::BadOperand,
            "r0.zx",
        ),
        (
            "ld2dms v0.xyzw, r1.xyzw, t0.xyzw, r2.x",
            ErrorKind::BadOperand,
            "v0.xyzw",
        ),
        (
            "ld2dms r0.xyzw, r1.xyzw, s0.xyzw, r2.x",
            ErrorKind::BadOperand,
            "s0.xyzw",
        ),
        (
            "ld r0.xyzw, r1.xyzw, t0.xyzw, r2.x",
            ErrorKind::UnknownOpcode,
            "ld",
        ),
    ] {
        let e = d3d::parse(text).unwrap_err();
        assert_eq!((e.kind(), e.token()), (kind, Some(token)), "{text}");
    }
    assert_eq!(
        d3d::parse("ld2dms_aoffimmi(8,0,0) r0.xyzw, r1.xyzw, t0.xyzw, r2.x")
            .unwrap_err()
            .to_string(),
        "aoffimmi value `8` outside -8..7"
    );
    let i = d3d::parse("ld2dms_aoffimmi(-1,2,0) r0.xyzw, r1.xyzw, t0.xyzw, r2.x").unwrap();
    assert_eq!(i.aoffimmi, [-1, 2, 0]);
    assert_eq!(i.sample, r(2));
}
