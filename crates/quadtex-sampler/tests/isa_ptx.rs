//! PTX front-end (PTX ISA 9.7.10: `tex`, `tld4`, `txq`, `istypep`): parsing
//! and execution against concrete textures.

use std::sync::Arc;

use quadtex_format::Texel;
use quadtex_format::{Aspect, Layout, TexelAddr, Texture, TextureDesc, TextureFormat, TextureKind};
use quadtex_sampler::isa::ptx::{self, PtxContext, Regs, Symbols};
use quadtex_sampler::pool::TexturingMode;
use quadtex_sampler::{
    AddressMode, Error, ErrorKind, Filter, Handle, Pools, Profile, SamplerHeader, TextureHeader,
};

fn view(t: Texture) -> TextureHeader {
    TextureHeader::new(Arc::new(t))
}

fn texture(desc: TextureDesc) -> Texture {
    Texture::new(desc, Layout::Linear).unwrap()
}

/// A 4x4 RGBA32F texture whose texel (x, y) of level l is (x, y, l, 1 + x + 4y).
fn grid(levels: u32) -> Texture {
    let mut t = texture(TextureDesc::d2(TextureFormat::Rgba32Float, 4, 4).with_levels(levels));
    for l in 0..levels {
        let n = 4 >> l;
        for y in 0..n {
            for x in 0..n {
                let v = [x as f32, y as f32, l as f32, 1.0 + (x + 4 * y) as f32];
                t.write_texel(
                    TexelAddr::new(l, 0, 0, x, y, 0),
                    Aspect::Color,
                    Texel::Float(v),
                )
                .unwrap();
            }
        }
    }
    t
}

struct Setup {
    pools: Pools,
    symbols: Symbols,
    mode: TexturingMode,
}

impl Setup {
    fn unified(v: TextureHeader, smp: SamplerHeader) -> Setup {
        let mut pools = Pools::for_ptx(TexturingMode::Unified);
        pools.set_header(1, v).unwrap();
        pools.set_sampler(1, smp).unwrap();
        let mut symbols = Symbols::default();
        symbols.textures.insert("tex1".into(), 1);
        Setup {
            pools,
            symbols,
            mode: TexturingMode::Unified,
        }
    }

    fn independent(v: TextureHeader, smp: SamplerHeader) -> Setup {
        let mut pools = Pools::for_ptx(TexturingMode::Independent);
        pools.set_header(1, v).unwrap();
        pools.set_sampler(3, smp).unwrap();
        let mut symbols = Symbols::default();
        symbols.textures.insert("tex1".into(), 1);
        symbols.samplers.insert("samp1".into(), 3);
        Setup {
            pools,
            symbols,
            mode: TexturingMode::Independent,
        }
    }

    fn ctx(&self) -> PtxContext<'_> {
        PtxContext {
            pools: &self.pools,
            symbols: &self.symbols,
            mode: self.mode,
            profile: Profile::PTX,
        }
    }

    fn run(&self, line: &str, regs: &mut Regs) -> Result<(), Error> {
        ptx::run(&self.ctx(), line, regs)
    }
}

/// Asserts that `r` failed with an error of `kind` naming `token`.
#[track_caller]
fn refused<T: std::fmt::Debug>(r: Result<T, Error>, kind: ErrorKind, token: &str) {
    let e = r.unwrap_err();
    assert_eq!((e.kind(), e.token()), (kind, Some(token)), "{e}");
}

fn words(regs: &Regs, names: &[&str], lane: usize) -> Vec<u32> {
    names.iter().map(|n| regs.get(n).unwrap()[lane]).collect()
}

fn floats(regs: &Regs, names: &[&str], lane: usize) -> Vec<f32> {
    words(regs, names, lane)
        .into_iter()
        .map(f32::from_bits)
        .collect()
}

const D4: [&str; 4] = ["%f10", "%f11", "%f12", "%f13"];

#[test]
fn txq_level_width_is_max_one_dim_shifted_by_lod() {
    let v = view(texture(TextureDesc::d2(TextureFormat::Rgba8Unorm, 16, 8)));
    let s = Setup::unified(v, SamplerHeader::default());
    let mut r = Regs::new();
    for (lod, w, h) in [(0, 16, 8), (2, 4, 2), (5, 1, 1), (40, 1, 1)] {
        r.splat("%r_lod", lod);
        s.run("txq.level.width.b32 %r1, [tex1], %r_lod;", &mut r)
            .unwrap();
        s.run("txq.level.height.b32 %r2, [tex1], %r_lod;", &mut r)
            .unwrap();
        s.run("txq.level.depth.b32 %r3, [tex1], %r_lod;", &mut r)
            .unwrap();
        assert_eq!(r.get("%r1"), Some([w; 4]), "lod {lod}");
        assert_eq!(r.get("%r2"), Some([h; 4]), "lod {lod}");
        assert_eq!(r.get("%r3"), Some([1; 4]), "lod {lod}");
    }
    s.run("txq.width.b32 %r1, [tex1];", &mut r).unwrap();
    assert_eq!(r.get("%r1"), Some([16; 4]));
}

#[test]
fn txq_counts_are_zero_where_not_applicable() {
    let q = |s: &Setup, what: &str| {
        let mut r = Regs::new();
        s.run(&format!("txq.{what}.b32 %r1, [tex1]"), &mut r)
            .unwrap();
        r.get("%r1").unwrap()[0]
    };
    let plain = Setup::unified(
        view(texture(TextureDesc::d2_no_mipmap(
            TextureFormat::Rgba8Unorm,
            16,
            8,
        ))),
        SamplerHeader::default(),
    );
    assert_eq!(q(&plain, "array_size"), 0);
    assert_eq!(q(&plain, "num_mipmap_levels"), 0);
    assert_eq!(q(&plain, "num_samples"), 0);
    assert_eq!(q(&plain, "normalized_coords"), 1);
    let mipped_array = Setup::unified(
        view(texture(
            TextureDesc::d2(TextureFormat::Rgba8Unorm, 16, 8).with_layers(TextureKind::D2Array, 3),
        )),
        SamplerHeader::default(),
    );
    assert_eq!(q(&mipped_array, "array_size"), 3);
    assert_eq!(q(&mipped_array, "num_mipmap_levels"), 5);
    assert_eq!(q(&mipped_array, "num_samples"), 0);
    let ms = Setup::unified(
        view(texture(TextureDesc::d2_ms(
            TextureFormat::Rgba8Unorm,
            8,
            4,
            4,
        ))),
        SamplerHeader::default(),
    );
    assert_eq!(q(&ms, "num_samples"), 4);
    assert_eq!(q(&ms, "num_mipmap_levels"), 0);
    assert_eq!(q(&ms, "array_size"), 0);
}

#[test]
fn txq_channel_enums_pass_through_the_symbol_table() {
    let mut s = Setup::unified(
        view(texture(TextureDesc::d2(TextureFormat::Rgba8Unorm, 4, 4))),
        SamplerHeader::default(),
    );
    // OpenCL CL_UNORM_INT8 and CL_RGBA, as a source language would give them.
    s.symbols.channel.insert(1, [0x10d2, 0x10b5]);
    let mut r = Regs::new();
    s.run("txq.channel_data_type.b32 %r1, [tex1];", &mut r)
        .unwrap();
    s.run("txq.channel_order.b32 %r2, [tex1];", &mut r).unwrap();
    assert_eq!(r.get("%r1"), Some([0x10d2; 4]));
    assert_eq!(r.get("%r2"), Some([0x10b5; 4]));
}

#[test]
fn txq_sampler_queries_use_ptx_codes() {
    let smp = SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        address: [
            AddressMode::ClampToBorder,
            AddressMode::ClampOgl,
            AddressMode::MirroredRepeat,
        ],
        ..SamplerHeader::default()
    };
    let v = || view(texture(TextureDesc::d2(TextureFormat::Rgba8Unorm, 4, 4)));
    let unified = Setup::unified(v(), smp);
    let independent = Setup::independent(v(), smp);
    for (s, target) in [(&unified, "tex1"), (&independent, "samp1")] {
        let mut r = Regs::new();
        let q = |r: &mut Regs, what: &str| {
            s.run(&format!("txq.{what}.b32 %r1, [{target}];"), r)
                .unwrap();
            r.get("%r1").unwrap()[0]
        };
        assert_eq!(q(&mut r, "filter_mode"), 1);
        assert_eq!(q(&mut r, "addr_mode_0"), 4);
        assert_eq!(q(&mut r, "addr_mode_1"), 2);
        assert_eq!(q(&mut r, "addr_mode_2"), 1);
        assert_eq!(q(&mut r, "force_unnormalized_coords"), 0);
    }
    let nearest = Setup::unified(v(), SamplerHeader::default());
    let mut r = Regs::new();
    nearest
        .run("txq.filter_mode.b32 %r1, [tex1];", &mut r)
        .unwrap();
    assert_eq!(r.get("%r1"), Some([0; 4]));
    // Independent mode reads sampler state through a .samplerref only.
    refused(
        independent.run("txq.filter_mode.b32 %r1, [tex1];", &mut Regs::new()),
        ErrorKind::BadOperand,
        "tex1",
    );
    refused(
        ptx::parse("txq.level.filter_mode.b32 %r1, [tex1], %r2;"),
        ErrorKind::BadModifier,
        "filter_mode",
    );
}

#[test]
fn istypep_is_true_only_for_a_valid_object_of_the_type() {
    let s = Setup::independent(
        view(texture(TextureDesc::d2(TextureFormat::Rgba8Unorm, 4, 4))),
        SamplerHeader::default(),
    );
    let mut r = Regs::new();
    r.set(
        "%rd1",
        [
            Handle::new(1, 0).unwrap().0,
            Handle::new(7, 0).unwrap().0,
            1,
            1,
        ],
    );
    s.run("istypep.texref %p1, %rd1;", &mut r).unwrap();
    assert_eq!(r.pred("%p1"), Some([true, false, true, true]));
    s.run("istypep.surfref %p2, %rd1;", &mut r).unwrap();
    assert_eq!(r.pred("%p2"), Some([false; 4]));
    s.run("istypep.samplerref %p3, samp1;", &mut r).unwrap();
    assert_eq!(r.pred("%p3"), Some([true; 4]));
    s.run("istypep.texref %p4, samp1;", &mut r).unwrap();
    assert_eq!(r.pred("%p4"), Some([false; 4]));
}

#[test]
fn tex_2d_nearest_at_a_texel_centre_returns_the_texel() {
    let s = Setup::unified(view(grid(1)), SamplerHeader::default());
    let mut r = Regs::new();
    r.set_f32("%f1", [1.5 / 4.0, 0.5 / 4.0, 3.5 / 4.0, 2.5 / 4.0]);
    r.set_f32("%f2", [2.5 / 4.0, 0.5 / 4.0, 3.5 / 4.0, 1.5 / 4.0]);
    s.run(
        "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2}];",
        &mut r,
    )
    .unwrap();
    assert_eq!(floats(&r, &D4, 0), [1.0, 2.0, 0.0, 10.0]);
    assert_eq!(floats(&r, &D4, 1), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(floats(&r, &D4, 2), [3.0, 3.0, 0.0, 16.0]);
    assert_eq!(floats(&r, &D4, 3), [2.0, 1.0, 0.0, 7.0]);
}

#[test]
fn tex_level_reads_the_requested_level() {
    let s = Setup::unified(view(grid(2)), SamplerHeader::default());
    let mut r = Regs::new();
    r.splat_f32("%f1", 1.5 / 2.0);
    r.splat_f32("%f2", 0.5 / 2.0);
    r.splat_f32("%f3", 1.0);
    s.run(
        "tex.level.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2}], %f3;",
        &mut r,
    )
    .unwrap();
    assert_eq!(floats(&r, &D4, 0), [1.0, 0.0, 1.0, 2.0]);
    s.run(
        "tex.base.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2}];",
        &mut r,
    )
    .unwrap();
    assert_eq!(floats(&r, &D4, 0)[2], 0.0, "base reads level 0");
}

#[test]
fn tex_offset_moves_the_texel_and_is_range_checked() {
    let s = Setup::unified(view(grid(1)), SamplerHeader::default());
    let mut r = Regs::new();
    r.splat_f32("%f1", 0.5 / 4.0);
    r.splat_f32("%f2", 0.5 / 4.0);
    s.run(
        "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2}], {2, 1};",
        &mut r,
    )
    .unwrap();
    assert_eq!(floats(&r, &D4, 0), [2.0, 1.0, 0.0, 7.0]);
    refused(
        ptx::parse("tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2}], {8, 0};"),
        ErrorKind::OffsetOutOfRange,
        "8",
    );
    refused(
        ptx::parse("tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2}], {0, -9};"),
        ErrorKind::OffsetOutOfRange,
        "-9",
    );
    refused(
        ptx::parse("tex.cube.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2,%f3,%f4}], {1, 1};"),
        ErrorKind::NotSupported,
        "{1, 1}",
    );
    r.splat("%r5", 8);
    r.splat("%r6", 0);
    refused(
        s.run(
            "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2}], {%r5, %r6};",
            &mut r,
        ),
        ErrorKind::OffsetOutOfRange,
        "%r5 = 8",
    );
}

#[test]
fn tex_a2d_layer_is_an_unrounded_integer() {
    let mut t = texture(
        TextureDesc::d2(TextureFormat::Rgba32Float, 2, 2)
            .with_levels(1)
            .with_layers(TextureKind::D2Array, 3),
    );
    for layer in 0..3 {
        t.write_texel(
            TexelAddr::new(0, layer, 0, 0, 0, 0),
            Aspect::Color,
            Texel::Float([layer as f32 * 10.0, 0.0, 0.0, 1.0]),
        )
        .unwrap();
    }
    let s = Setup::unified(view(t), SamplerHeader::default());
    let mut r = Regs::new();
    r.set("%r0", [0, 1, 2, 1]);
    r.splat_f32("%f1", 0.25);
    s.run(
        "tex.a2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%r0,%f1,%f1,%f1}];",
        &mut r,
    )
    .unwrap();
    assert_eq!(
        r.get("%f10").unwrap().map(f32::from_bits),
        [0.0, 10.0, 20.0, 10.0]
    );
}

#[test]
fn tex_predicate_is_false_and_data_zero_on_a_non_resident_tile() {
    let mut t = texture(TextureDesc::d2(TextureFormat::R32Float, 256, 256).with_levels(1));
    for x in [10, 200] {
        t.write_texel(
            TexelAddr::at(x, 10),
            Aspect::Color,
            Texel::Float([7.0, 0.0, 0.0, 1.0]),
        )
        .unwrap();
    }
    t.make_sparse();
    t.residency_mut()
        .unwrap()
        .set_tile(0, 0, 0, 0, 0, true)
        .unwrap();
    let smp = SamplerHeader {
        address: [AddressMode::ClampToEdge; 3],
        ..SamplerHeader::default()
    };
    let s = Setup::unified(view(t), smp);
    let mut r = Regs::new();
    r.set_f32(
        "%f1",
        [10.5 / 256.0, 200.5 / 256.0, 10.5 / 256.0, 200.5 / 256.0],
    );
    r.splat_f32("%f2", 10.5 / 256.0);
    s.run(
        "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}|%p1, [tex1, {%f1,%f2}];",
        &mut r,
    )
    .unwrap();
    assert_eq!(r.pred("%p1"), Some([true, false, true, false]));
    assert_eq!(floats(&r, &D4, 0), [7.0, 0.0, 0.0, 1.0]);
    // All zeros, the missing alpha default included (PTX ISA 9.7.10.3: "data
    // loaded will be all zeros" when `p` is false).
    assert_eq!(words(&r, &D4, 1), [0, 0, 0, 0]);
}

#[test]
fn tex_f16x2_packs_red_and_green_into_one_word() {
    let mut t = texture(TextureDesc::d2(TextureFormat::Rgba32Float, 1, 1).with_levels(1));
    t.write_texel(
        TexelAddr::at(0, 0),
        Aspect::Color,
        Texel::Float([1.0, 2.0, -0.5, 65504.0]),
    )
    .unwrap();
    let s = Setup::unified(view(t), SamplerHeader::default());
    let mut r = Regs::new();
    r.splat_f32("%f1", 0.5);
    s.run("tex.2d.v2.f16x2.f32 {%h1,%h2}, [tex1, {%f1,%f1}];", &mut r)
        .unwrap();
    assert_eq!(r.get("%h1"), Some([0x4000_3c00; 4]));
    assert_eq!(r.get("%h2"), Some([0x7bff_b800; 4]));
    let e = ptx::parse("tex.2d.v2.f16x2.f32 {%h1,%h2,%h3,%h4}, [tex1, {%f1,%f1}];").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadOperand);
}

#[test]
fn tld4_g_returns_green_counter_clockwise_from_lower_left() {
    let mut t = texture(TextureDesc::d2(TextureFormat::Rgba32Float, 2, 2).with_levels(1));
    for y in 0..2 {
        for x in 0..2 {
            let g = (1 + x + 2 * y) as f32;
            t.write_texel(
                TexelAddr::at(x, y),
                Aspect::Color,
                Texel::Float([0.0, g, 0.0, 1.0]),
            )
            .unwrap();
        }
    }
    let s = Setup::unified(view(t), SamplerHeader::default());
    let mut r = Regs::new();
    r.splat_f32("%f1", 0.5);
    s.run(
        "tld4.g.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}|%p, [tex1, {%f1,%f1}];",
        &mut r,
    )
    .unwrap();
    // [T(i0, j1), T(i1, j1), T(i1, j0), T(i0, j0)].
    assert_eq!(floats(&r, &D4, 0), [3.0, 4.0, 2.0, 1.0]);
    assert_eq!(r.pred("%p"), Some([true; 4]));
    refused(
        ptx::parse("tld4.r.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f1}], {-9, 0};"),
        ErrorKind::OffsetOutOfRange,
        "-9",
    );
    refused(
        ptx::parse("tld4.r.3d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f1}];"),
        ErrorKind::BadModifier,
        "3d",
    );
}

#[test]
fn the_texturing_mode_decides_the_sampler_operand() {
    let v = || view(grid(1));
    let unified = Setup::unified(v(), SamplerHeader::default());
    let independent = Setup::independent(v(), SamplerHeader::default());
    let mut r = Regs::new();
    r.splat_f32("%f1", 0.5 / 4.0);
    refused(
        unified.run(
            "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, samp1, {%f1,%f1}];",
            &mut r,
        ),
        ErrorKind::TexturingMode,
        "samp1",
    );
    refused(
        independent.run(
            "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f1}];",
            &mut r,
        ),
        ErrorKind::TexturingMode,
        "tex1",
    );
    independent
        .run(
            "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, samp1, {%f1,%f1}];",
            &mut r,
        )
        .unwrap();
    assert_eq!(floats(&r, &D4, 0), [0.0, 0.0, 0.0, 1.0]);
    refused(
        independent.run(
            "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, nosuch, {%f1,%f1}];",
            &mut r,
        ),
        ErrorKind::UnknownSymbol,
        "nosuch",
    );
}

#[test]
fn tex_2dms_fetches_the_sample() {
    let mut t = texture(TextureDesc::d2_ms(TextureFormat::Rgba32Float, 4, 4, 4));
    t.write_texel(
        TexelAddr::new(0, 0, 2, 1, 3, 0),
        Aspect::Color,
        Texel::Float([5.0, 6.0, 7.0, 8.0]),
    )
    .unwrap();
    let s = Setup::unified(view(t), SamplerHeader::default());
    let mut r = Regs::new();
    r.splat("%r1", 2);
    r.splat("%r2", 1);
    r.splat("%r3", 3);
    s.run(
        "tex.2dms.v4.s32.s32 {%f10,%f11,%f12,%f13}, [tex1, {%r1,%r2,%r3,%r3}];",
        &mut r,
    )
    .unwrap();
    assert_eq!(floats(&r, &D4, 0), [5.0, 6.0, 7.0, 8.0]);
}

#[test]
fn unknown_opcodes_and_modifiers_are_named() {
    refused(
        ptx::parse("texx.2d.v4.f32.f32 {a,b,c,d}, [t, {x,y}];"),
        ErrorKind::UnknownOpcode,
        "texx.2d.v4.f32.f32",
    );
    refused(
        ptx::parse("tex.2d.v4.f64.f32 {a,b,c,d}, [t, {x,y}];"),
        ErrorKind::BadModifier,
        "f64",
    );
    refused(
        ptx::parse("tex.cube.v4.f32.s32 {a,b,c,d}, [t, {x,y,z,w}];"),
        ErrorKind::BadModifier,
        "s32",
    );
    refused(
        ptx::parse("tex.3d.v4.f32.f32 {a,b,c,d}, [t, {x,y,z,w}], f0;"),
        ErrorKind::NotSupported,
        "f0",
    );
}

#[test]
fn txq_channel_enums_default_to_cuda_channel_format_kinds() {
    // No symbol-table entry: CUDA's cudaChannelFormatKind for the format
    // (UnsignedNormalized8X4 = 7 for RGBA8 UNORM, BC7 SRGB = 30), reported
    // for both queries (PTX ISA 9.7.10.5: one enumeration serves both).
    for (format, kind) in [(TextureFormat::Rgba8Unorm, 7), (TextureFormat::Bc7Srgb, 30)] {
        let s = Setup::unified(
            view(texture(TextureDesc::d2(format, 4, 4))),
            SamplerHeader::default(),
        );
        let mut r = Regs::new();
        s.run("txq.channel_data_type.b32 %r1, [tex1];", &mut r)
            .unwrap();
        s.run("txq.channel_order.b32 %r2, [tex1];", &mut r).unwrap();
        assert_eq!(r.get("%r1"), Some([kind; 4]), "{format}");
        assert_eq!(r.get("%r2"), Some([kind; 4]), "{format}");
    }
}

// ------------------------------------------- per-lane offsets and indirect access

use quadtex_sampler::isa::ptx::OpaqueRef;
use quadtex_sampler::MipmapMode;

#[test]
fn tex_per_lane_register_offsets_match_uniform_offset_quads() {
    let s = Setup::unified(view(grid(1)), SamplerHeader::default());
    let offs: [[i32; 2]; 4] = [[0, 0], [1, 0], [-1, 2], [7, -8]];
    let run = |o: [[i32; 2]; 4]| {
        let mut r = Regs::new();
        r.splat_f32("%f1", 1.5 / 4.0);
        r.splat_f32("%f2", 1.5 / 4.0);
        r.splat_f32("%f3", 0.0);
        r.set("%r5", o.map(|v| v[0] as u32));
        r.set("%r6", o.map(|v| v[1] as u32));
        s.run(
            "tex.level.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2}], %f3, {%r5, %r6};",
            &mut r,
        )
        .unwrap();
        [0, 1, 2, 3].map(|l| floats(&r, &D4, l))
    };
    let got = run(offs);
    // Texel (1, 1) moved per lane, wrapping on the 4x4 grid: (1, 1),
    // (2, 1), (0, 3), (8 mod 4, -7 mod 4) = (0, 1).
    assert_eq!(got[0], [1.0, 1.0, 0.0, 6.0]);
    assert_eq!(got[1], [2.0, 1.0, 0.0, 7.0]);
    assert_eq!(got[2], [0.0, 3.0, 0.0, 13.0]);
    assert_eq!(got[3], [0.0, 1.0, 0.0, 5.0]);
    for (lane, o) in offs.iter().enumerate() {
        assert_eq!(got[lane], run([*o; 4])[lane], "lane {lane}");
    }
}

#[test]
fn tld4_per_lane_offsets_keep_the_whole_quad_derivatives() {
    // TWO_D_NO_MIPMAP: tld4 runs as an implicit-LOD tex (the SASS TLD4
    // reference), where lambda picks the filter: > 0 minifies (linear),
    // otherwise magnifies (nearest). Lanes two texels apart give lambda = 1 for
    // the whole quad; a lane alone would be a partial quad (PTX profile: zero
    // derivatives, lambda = -inf, nearest).
    let mut t = texture(TextureDesc::d2_no_mipmap(TextureFormat::R32Float, 8, 8));
    for y in 0..8 {
        for x in 0..8 {
            let v = Texel::Float([(x + 8 * y) as f32, 0.0, 0.0, 1.0]);
            t.write_texel(TexelAddr::at(x, y), Aspect::Color, v)
                .unwrap();
        }
    }
    let smp = SamplerHeader {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Linear,
        mipmap_mode: MipmapMode::None,
        ..SamplerHeader::default()
    };
    let s = Setup::unified(view(t), smp);
    let offs: [[i32; 2]; 4] = [[0, 0], [1, 0], [0, -1], [-2, 3]];
    let run = |o: [[i32; 2]; 4], active: u8| {
        let mut r = Regs::new();
        r.active = active;
        r.set_f32("%f1", [2.0, 4.0, 2.0, 4.0].map(|x| x / 8.0));
        r.set_f32("%f2", [2.0, 2.0, 4.0, 4.0].map(|y| y / 8.0));
        r.set("%r5", o.map(|v| v[0] as u32));
        r.set("%r6", o.map(|v| v[1] as u32));
        s.run(
            "tld4.r.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2}], {%r5, %r6};",
            &mut r,
        )
        .unwrap();
        [0, 1, 2, 3].map(|l| r.get("%f10").map_or(f32::NAN, |v| f32::from_bits(v[l])))
    };
    let got = run(offs, 0xf);
    // Linear at texel corners: the average of the four texels around
    // (x + dx, y + dy) = (2, 2), (5, 2), (2, 3), (2, 7): value x - 0.5 +
    // 8 (y - 0.5).
    assert_eq!(got, [13.5, 16.5, 21.5, 53.5]);
    for (lane, o) in offs.iter().enumerate() {
        assert_eq!(got[lane], run([*o; 4], 0xf)[lane], "lane {lane}");
    }
    // Lane 1 alone: a partial quad, magnified, nearest texel (5, 2).
    assert_eq!(run(offs, 0b0010)[1], 21.0);
}

/// `tex1` (header 1, the 4x4 grid) and `tex2` (header 2, a 2x2 of 50s)
/// in unified mode, plus a surface `surf1`.
fn two_textures() -> Setup {
    let mut s = Setup::unified(view(grid(1)), SamplerHeader::default());
    let mut t = texture(TextureDesc::d2(TextureFormat::Rgba32Float, 2, 2).with_levels(1));
    for y in 0..2 {
        for x in 0..2 {
            t.write_texel(
                TexelAddr::at(x, y),
                Aspect::Color,
                Texel::Float([50.0, 50.0, 50.0, 50.0]),
            )
            .unwrap();
        }
    }
    s.pools.set_header(2, view(t)).unwrap();
    s.pools.set_sampler(2, SamplerHeader::default()).unwrap();
    s.symbols.textures.insert("tex2".into(), 2);
    s.symbols.surfaces.insert("surf1".into(), 0);
    s
}

#[test]
fn indirect_tex_reads_each_lane_texref_and_zeros_for_a_surface() {
    let s = two_textures();
    let addr = |n: &str| s.symbols.address_of(n).unwrap();
    assert_eq!(addr("tex2"), 2);
    assert_eq!(addr("surf1"), OpaqueRef::Surfref(0).to_u64());
    let mut r = Regs::new();
    r.set_u64("%rd1", [addr("tex1"), addr("tex2"), addr("surf1"), 7 << 32]);
    r.splat_f32("%f1", 0.5 / 4.0);
    s.run(
        "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}|%p, [%rd1, {%f1,%f1}];",
        &mut r,
    )
    .unwrap();
    assert_eq!(floats(&r, &D4, 0), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(floats(&r, &D4, 1), [50.0; 4]);
    assert_eq!(words(&r, &D4, 2), [0; 4], "a surface: zeros");
    assert_eq!(words(&r, &D4, 3), [0; 4], "no opaque variable: zeros");
    // tld4 and txq through the same register.
    s.run(
        "tld4.a.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [%rd1, {%f1,%f1}];",
        &mut r,
    )
    .unwrap();
    assert_eq!(floats(&r, &D4, 1), [50.0; 4]);
    assert_eq!(words(&r, &D4, 2), [0; 4]);
    s.run("txq.width.b32 %r1, [%rd1];", &mut r).unwrap();
    assert_eq!(r.get("%r1"), Some([4, 2, 0, 0]));
    // A surface by name is refused; so is indirection in independent mode.
    refused(
        s.run(
            "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [surf1, {%f1,%f1}];",
            &mut r,
        ),
        ErrorKind::NotSupported,
        "surf1",
    );
    refused(
        s.run("txq.width.b32 %r1, [surf1];", &mut r),
        ErrorKind::NotSupported,
        "surf1",
    );
    let ind = Setup::independent(view(grid(1)), SamplerHeader::default());
    let mut r2 = Regs::new();
    r2.set_u64("%rd1", [ind.symbols.address_of("tex1").unwrap(); 4]);
    r2.splat_f32("%f1", 0.5);
    refused(
        ind.run(
            "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [%rd1, samp1, {%f1,%f1}];",
            &mut r2,
        ),
        ErrorKind::TexturingMode,
        "%rd1",
    );
}

#[test]
fn istypep_tells_surfaces_textures_and_samplers_apart() {
    let s = two_textures();
    let mut r = Regs::new();
    let a = |n: &str| s.symbols.address_of(n).unwrap();
    r.set_u64(
        "%rd1",
        [
            a("tex1"),
            a("surf1"),
            OpaqueRef::Surfref(5).to_u64(),
            a("tex2"),
        ],
    );
    s.run("istypep.surfref %p1, %rd1;", &mut r).unwrap();
    assert_eq!(r.pred("%p1"), Some([false, true, false, false]));
    s.run("istypep.texref %p2, %rd1;", &mut r).unwrap();
    assert_eq!(r.pred("%p2"), Some([true, false, false, true]));
    s.run("istypep.surfref %p3, surf1;", &mut r).unwrap();
    assert_eq!(r.pred("%p3"), Some([true; 4]));
    s.run("istypep.texref %p4, surf1;", &mut r).unwrap();
    assert_eq!(r.pred("%p4"), Some([false; 4]));
    s.run("istypep.surfref %p5, tex1;", &mut r).unwrap();
    assert_eq!(r.pred("%p5"), Some([false; 4]));
    // Samplers, independent mode: by name and through a register.
    let ind = Setup::independent(view(grid(1)), SamplerHeader::default());
    let mut r = Regs::new();
    r.set_u64(
        "%rd2",
        [
            ind.symbols.address_of("samp1").unwrap(),
            OpaqueRef::Samplerref(9).to_u64(),
            ind.symbols.address_of("tex1").unwrap(),
            0,
        ],
    );
    ind.run("istypep.samplerref %p1, %rd2;", &mut r).unwrap();
    assert_eq!(r.pred("%p1"), Some([true, false, false, false]));
    assert_eq!(OpaqueRef::from_u64(3 << 32), None);
    assert_eq!(
        OpaqueRef::from_u64(OpaqueRef::Samplerref(3).to_u64()),
        Some(OpaqueRef::Samplerref(3))
    );
}

#[test]
fn indirect_operands_parse_as_register_names() {
    let i = ptx::parse(
        "tex.level.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}|%p, [%rd1, {%f1,%f2}], %f3, {%r5, %r6};",
    )
    .unwrap();
    let ptx::Instr::Tex(t) = i else {
        panic!("{i:?}")
    };
    assert_eq!(t.texture, "%rd1");
    assert_eq!(t.pred.as_deref(), Some("%p"));
    assert_eq!(
        t.offset,
        Some(vec![
            ptx::Operand::Reg("%r5".into()),
            ptx::Operand::Reg("%r6".into())
        ])
    );
    let i = ptx::parse("tld4.b.2d.v4.s32.f32 {%r1,%r2,%r3,%r4}, [%rd2, {%f1,%f2}], {%r5, -8};")
        .unwrap();
    let ptx::Instr::Tld4(t) = i else {
        panic!("{i:?}")
    };
    assert_eq!((t.texture.as_str(), t.comp), ("%rd2", 2));
    let i = ptx::parse("txq.level.height.b32 %r1, [%rd3], %r2;").unwrap();
    let ptx::Instr::Txq(q) = i else {
        panic!("{i:?}")
    };
    assert_eq!(q.target, "%rd3");
    let i = ptx::parse("istypep.surfref %p1, %rd4;").unwrap();
    let ptx::Instr::Istypep(q) = i else {
        panic!("{i:?}")
    };
    assert_eq!(
        (q.ty, q.src.as_str()),
        (quadtex_sampler::pool::OpaqueType::Surfref, "%rd4")
    );
}
