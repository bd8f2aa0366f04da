//! Texel fetch: `ld` / `texelFetch` / `ld2dms` — integer texel coordinates,
//! no sampler, no filtering (SEMANTICS.md §4 "Texel fetch" and §6, seed
//! 004).
//!
//! What lives here: the fetch of one quad ([`fetch`]), its arguments
//! ([`FetchArgs`]), and the single-texel read and decode that `gather`
//! shares (a twin of the private `Ctx::texel` of `reference.rs`, without
//! the depth compare). What does not: filtered reads (`reference.rs`,
//! `kernel.rs`) and the instruction front-ends that pack coordinates and
//! range-check offsets.
//!
//! Bounds use unsigned comparisons after the offset is added, as D3D's
//! `ld2dms` states: a negative coordinate, level, layer or sample index
//! wraps to a huge unsigned value and reads out of bounds.

use quadtex_format::{compressed, texel, SampleType, Texel, TexelAddr, TextureKind};

use crate::header::{SamplerHeader, TextureHeader};
use crate::profile::Profile;
use crate::quad::QuadResult;
use crate::reference::Ctx;

/// Everything a fetch takes besides the view and the running lanes.
///
/// Every field is a 32-bit register word per lane; negative values are
/// kept as two's complement and compare as huge unsigned values (seed 004).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FetchArgs {
    /// Per lane `[x, y, z, layer]`: `[x, 0, 0, 0]` for 1D, `[x, 0, 0, layer]`
    /// for 1D arrays, `[x, y, 0, 0]` for 2D and 2D multisample, `[x, y, z,
    /// 0]` for 3D, `[x, y, 0, layer]` for 2D (multisample) arrays, and `[x,
    /// y, 0, 6 * cube + face]` for cubes and cube arrays (`z` unused). Entries
    /// the kind does not use are ignored.
    pub icoords: [[i32; 4]; 4],
    /// Per lane: the level relative to the view's base level (ignored by
    /// multisample kinds, which have one level and no LOD operand).
    pub level: [i32; 4],
    /// Per lane: the sample index (multisample kinds only; ignored
    /// otherwise).
    pub sample: [i32; 4],
    /// Texel offset `(i, j, k)` added to `x`, `y`, `z` in unsigned
    /// arithmetic, never to the layer; components the kind does not address
    /// are ignored (seed 004, "Address Offset"). Range-checked by the
    /// front-end.
    pub offset: [i32; 3],
}

/// `ld` / `texelFetch` / `ld2dms` on the lanes of `running` (bit i = lane
/// i): SEMANTICS.md §4 "Texel fetch", §6 and seed 004.
///
/// A lane reads texel `(x + i, y + j, z + k)` of level `base_level + level`,
/// layer `base_layer + layer` and sample `sample`, decoded (sRGB to linear,
/// missing components (0, 0, 0, 1)) and swizzled by the view. 32-bit float
/// bits are returned untouched (denormals, -0 and NaN payloads kept).
///
/// Out of bounds (a coordinate at or past the level's extent, `level >=
/// level_count`, `layer >= layer_count` or `sample >= samples`, each
/// compared unsigned after the offset, so that negative values are out of
/// bounds) the lane reads 0 in the format's components and the defaults
/// `(0, 0, 0, 1)` (1.0 or integer 1) in the missing ones, swizzled like a
/// real texel, and reports resident (no memory was touched). A non-resident
/// texel of a sparse texture reads as zero memory decoded, with the lane's
/// resident flag false.
pub fn fetch(view: &TextureHeader, args: &FetchArgs, running: u8) -> QuadResult {
    let smp = SamplerHeader::default();
    let ctx = Ctx::new(view, &smp, &Profile::VULKAN);
    let mut out = QuadResult::EMPTY;
    for lane in 0..4 {
        if running & (1 << lane) == 0 {
            continue;
        }
        let (t, resident) = fetch_lane(&ctx, args, lane);
        out.texels[lane] = Some(ctx.swizzle(t));
        out.resident[lane] = resident;
    }
    out
}

/// One lane of [`fetch`], before the swizzle.
fn fetch_lane(ctx: &Ctx<'_>, args: &FetchArgs, lane: usize) -> (Texel, bool) {
    let view = ctx.view;
    let kind = view.kind;
    let c = args.icoords[lane].map(|v| v as u32);
    let off = args.offset.map(|v| v as u32);
    let oob = (out_of_bounds(ctx), true);
    // Coordinates the kind addresses (1, 2 or 3) and whether it has layers.
    let (dims, layered) = match kind {
        TextureKind::D1 => (1, false),
        TextureKind::D1Array => (1, true),
        TextureKind::D2 | TextureKind::D2Ms => (2, false),
        TextureKind::D2Array | TextureKind::D2MsArray | TextureKind::Cube => (2, true),
        TextureKind::CubeArray => (2, true),
        TextureKind::D3 => (3, false),
    };
    let level = if kind.is_multisample() {
        0
    } else {
        args.level[lane] as u32
    };
    if level >= view.level_count {
        return oob;
    }
    let sample = if kind.is_multisample() {
        let s = args.sample[lane] as u32;
        if s >= view.texture.desc().samples {
            return oob;
        }
        s
    } else {
        0
    };
    let layer = if layered {
        if c[3] >= view.layer_count {
            return oob;
        }
        c[3]
    } else {
        0
    };
    let extent = ctx.level_dims(level);
    let mut xyz = [0u32; 3];
    for k in 0..dims {
        let v = c[k].wrapping_add(off[k]);
        if i64::from(v) >= extent[k] {
            return oob;
        }
        xyz[k] = v;
    }
    load(
        ctx,
        view.base_level + level,
        view.base_layer + layer,
        sample,
        xyz,
    )
}

/// The out-of-bounds result: 0 in the format's components, the (0, 0, 0,
/// 1) defaults in the others (seed 004).
fn out_of_bounds(ctx: &Ctx<'_>) -> Texel {
    let present = ctx.format.components();
    let bits = [0, 1, 2, 3].map(|c| {
        if present[c] || c < 3 {
            0
        } else if ctx.ty == SampleType::Float {
            1.0f32.to_bits()
        } else {
            1
        }
    });
    Texel::from_bits(ctx.ty, bits)
}

/// Reads and decodes texel `xyz` of absolute level `abs_level`, absolute
/// layer `layer` and sample `sample` (all in range): sRGB to linear and
/// the (0, 0, 0, 1) defaults applied, float bits untouched. Returns the
/// texel and whether it is resident; a non-resident texel reads as zero
/// memory decoded. Mirrors the private `Ctx::texel` of `reference.rs`
/// (which also applies the depth compare), so `gather`, `fetch` and
/// `sample` read the same values.
pub(crate) fn load(
    ctx: &Ctx<'_>,
    abs_level: u32,
    layer: u32,
    sample: u32,
    xyz: [u32; 3],
) -> (Texel, bool) {
    let tex = &ctx.view.texture;
    let f = ctx.format;
    let resident = tex.is_resident(abs_level, layer, xyz[0], xyz[1], xyz[2]);
    let zero = [0u8; 16];
    let block = if resident {
        tex.texel_block(TexelAddr::new(
            abs_level, layer, sample, xyz[0], xyz[1], xyz[2],
        ))
    } else {
        Some(&zero[..])
    };
    let Some(block) = block else {
        return (Texel::zero(ctx.ty), resident);
    };
    let t = if f.is_compressed() {
        let (bw, bh) = f.block_extent();
        let mut out = [[0.0f32; 4]; compressed::MAX_BLOCK_TEXELS];
        // A non-resident block is zero memory; its texel 0 stands for all.
        let i = if resident {
            ((xyz[1] % bh) * bw + xyz[0] % bw) as usize
        } else {
            0
        };
        match compressed::decode_block(f, block, &mut out) {
            Ok(()) => Texel::Float(out.get(i).copied().unwrap_or([0.0; 4])),
            Err(_) => Texel::zero(ctx.ty),
        }
    } else {
        texel::decode(f, f.default_aspect(), block).unwrap_or(Texel::zero(ctx.ty))
    };
    (t, resident)
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::Arc;

    use quadtex_format::{Aspect, Layout, Texture, TextureDesc, TextureFormat as F};

    use super::*;
    use crate::header::Swizzle;

    /// A texture of `desc` whose texel `(level, layer, sample, x, y, z)`
    /// holds `f(...)` (shared with the gather and LOD tests).
    pub(crate) fn texture(
        desc: TextureDesc,
        f: impl Fn(u32, u32, u32, [u32; 3]) -> Texel,
    ) -> Texture {
        let mut t = Texture::new(desc, Layout::Tiled).unwrap();
        for level in 0..desc.levels {
            let e = desc.level_extent(level);
            for layer in 0..desc.layers {
                for s in 0..desc.samples {
                    for z in 0..e.depth {
                        for y in 0..e.height {
                            for x in 0..e.width {
                                let at = TexelAddr::new(level, layer, s, x, y, z);
                                t.write_texel(at, Aspect::Color, f(level, layer, s, [x, y, z]))
                                    .unwrap();
                            }
                        }
                    }
                }
            }
        }
        t
    }

    /// The whole texture as a view.
    pub(crate) fn view(t: Texture) -> TextureHeader {
        TextureHeader::new(Arc::new(t))
    }

    fn one(v: &TextureHeader, icoords: [i32; 4], level: i32, sample: i32) -> Texel {
        let args = FetchArgs {
            icoords: [icoords; 4],
            level: [level; 4],
            sample: [sample; 4],
            offset: [0; 3],
        };
        fetch(v, &args, 1).texels[0].unwrap()
    }

    /// R32_SFLOAT 2D with levels: texel (x, y) of level L = 100 L + 10 y + x.
    fn r32f_mips() -> TextureHeader {
        view(texture(TextureDesc::d2(F::R32Float, 8, 4), |l, _, _, p| {
            Texel::Float([(100 * l + 10 * p[1] + p[0]) as f32, 0.0, 0.0, 1.0])
        }))
    }

    #[test]
    fn fetch_reads_the_texel_at_the_level_relative_to_the_view_base() {
        let mut v = r32f_mips();
        assert_eq!(
            one(&v, [3, 2, 0, 0], 0, 0),
            Texel::Float([23.0, 0.0, 0.0, 1.0])
        );
        // Level 2 is 2x1.
        assert_eq!(
            one(&v, [1, 0, 0, 0], 2, 0),
            Texel::Float([201.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            one(&v, [1, 1, 0, 0], 2, 0),
            Texel::Float([0.0, 0.0, 0.0, 1.0])
        );
        v.base_level = 1;
        v.level_count = 3;
        assert_eq!(
            one(&v, [1, 0, 0, 0], 1, 0),
            Texel::Float([201.0, 0.0, 0.0, 1.0])
        );
        // Level 3 of the view is level 4 of the texture, outside the view.
        assert_eq!(
            one(&v, [0, 0, 0, 0], 3, 0),
            Texel::Float([0.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            one(&v, [0, 0, 0, 0], -1, 0),
            Texel::Float([0.0, 0.0, 0.0, 1.0])
        );
    }

    #[test]
    fn fetch_out_of_bounds_gives_zeros_and_format_defaults_per_class() {
        // RGBA8: every component present -> (0, 0, 0, 0).
        let rgba = view(texture(
            TextureDesc::d2(F::Rgba8Unorm, 2, 2).with_levels(1),
            |_, _, _, _| Texel::Float([1.0; 4]),
        ));
        assert_eq!(one(&rgba, [2, 0, 0, 0], 0, 0), Texel::Float([0.0; 4]));
        // R8: missing G, B, A -> (0, 0, 0, 1.0).
        let r8 = view(texture(
            TextureDesc::d2(F::R8Unorm, 2, 2).with_levels(1),
            |_, _, _, _| Texel::Float([1.0, 0.0, 0.0, 1.0]),
        ));
        assert_eq!(
            one(&r8, [0, 2, 0, 0], 0, 0),
            Texel::Float([0.0, 0.0, 0.0, 1.0])
        );
        // R32UI: integer 1 in alpha.
        let r32ui = view(texture(
            TextureDesc::d2(F::R32Uint, 2, 2).with_levels(1),
            |_, _, _, _| Texel::Uint([7, 0, 0, 1]),
        ));
        assert_eq!(one(&r32ui, [0, 0, 0, 0], 0, 0), Texel::Uint([7, 0, 0, 1]));
        assert_eq!(one(&r32ui, [-1, 0, 0, 0], 0, 0), Texel::Uint([0, 0, 0, 1]));
        // RG32I: signed integers, (0, 0, 0, 1).
        let rg32i = view(texture(
            TextureDesc::d2(F::Rg32Sint, 2, 2).with_levels(1),
            |_, _, _, _| Texel::Sint([-5, 6, 0, 1]),
        ));
        assert_eq!(one(&rg32i, [1, 1, 0, 0], 0, 0), Texel::Sint([-5, 6, 0, 1]));
        assert_eq!(one(&rg32i, [1, 1, 0, 0], 1, 0), Texel::Sint([0, 0, 0, 1]));
    }

    #[test]
    fn fetch_offsets_wrap_unsigned_so_negative_results_are_out_of_bounds() {
        let v = r32f_mips();
        let mut args = FetchArgs {
            icoords: [[1, 1, 0, 0], [0, 0, 0, 0], [7, 3, 0, 0], [-1, 0, 0, 0]],
            offset: [-1, 2, 0],
            ..Default::default()
        };
        let r = fetch(&v, &args, 0xf);
        let red = |i: usize| r.texels[i].unwrap().to_f32()[0];
        assert_eq!(red(0), 30.0); // (0, 3)
        assert_eq!(r.texels[1], Some(Texel::Float([0.0, 0.0, 0.0, 1.0]))); // x = -1
        assert_eq!(r.texels[2], Some(Texel::Float([0.0, 0.0, 0.0, 1.0]))); // y = 5 >= 4
        assert_eq!(r.texels[3], Some(Texel::Float([0.0, 0.0, 0.0, 1.0]))); // x = -2
        assert!(r.resident.iter().all(|&x| x));
        // x = -1 plus offset 1 wraps to 0 in unsigned arithmetic: in bounds.
        args.icoords[0] = [-1, 0, 0, 0];
        args.offset = [1, 0, 0];
        assert_eq!(
            fetch(&v, &args, 1).texels[0].unwrap().to_f32()[0],
            0.0 + 0.0
        );
        args.icoords[0] = [-1, 1, 0, 0];
        assert_eq!(fetch(&v, &args, 1).texels[0].unwrap().to_f32()[0], 10.0);
        // Offsets never move the layer, and a 2D view ignores z.
        args.icoords[0] = [0, 1, 99, 99];
        args.offset = [0, 0, 5];
        assert_eq!(fetch(&v, &args, 1).texels[0].unwrap().to_f32()[0], 10.0);
    }

    #[test]
    fn fetch_multisample_reads_the_sample_and_rejects_sample_indices_past_the_count() {
        let desc = TextureDesc::d2_ms(F::R32Uint, 4, 2, 4).with_layers(TextureKind::D2MsArray, 3);
        let v = view(texture(desc, |_, layer, s, p| {
            Texel::Uint([1000 * layer + 100 * s + 10 * p[1] + p[0], 0, 0, 1])
        }));
        assert_eq!(one(&v, [3, 1, 0, 2], 0, 3), Texel::Uint([2313, 0, 0, 1]));
        // The level operand is not used by multisample fetches.
        assert_eq!(one(&v, [3, 1, 0, 2], 7, 3), Texel::Uint([2313, 0, 0, 1]));
        assert_eq!(one(&v, [3, 1, 0, 2], 0, 4), Texel::Uint([0, 0, 0, 1]));
        assert_eq!(one(&v, [3, 1, 0, 2], 0, -1), Texel::Uint([0, 0, 0, 1]));
        assert_eq!(one(&v, [3, 1, 0, 3], 0, 0), Texel::Uint([0, 0, 0, 1]));
        assert_eq!(one(&v, [4, 1, 0, 0], 0, 0), Texel::Uint([0, 0, 0, 1]));
    }

    #[test]
    fn fetch_keeps_float_bits_and_applies_the_view_swizzle() {
        let bits = [0x8000_0000u32, 0x0000_0001, 0x7fc1_2345, 0xff80_0000];
        let mut v = view(texture(
            TextureDesc::d2(F::Rgba32Float, 1, 1).with_levels(1),
            |_, _, _, _| Texel::Float(bits.map(f32::from_bits)),
        ));
        assert_eq!(one(&v, [0, 0, 0, 0], 0, 0).to_bits(), bits);
        v.swizzle = Swizzle::parse4("a1r0").unwrap();
        assert_eq!(
            one(&v, [0, 0, 0, 0], 0, 0).to_bits(),
            [bits[3], 1.0f32.to_bits(), bits[0], 0]
        );
        // Out-of-bounds results are swizzled too: R8 defaults (0, 0, 0, 1) -> "a1r0".
        let mut r8 = view(texture(
            TextureDesc::d2(F::R8Unorm, 1, 1).with_levels(1),
            |_, _, _, _| Texel::Float([1.0, 0.0, 0.0, 1.0]),
        ));
        r8.swizzle = Swizzle::parse4("abgr").unwrap();
        assert_eq!(
            one(&r8, [1, 0, 0, 0], 0, 0),
            Texel::Float([1.0, 0.0, 0.0, 0.0])
        );
    }

    #[test]
    fn fetch_on_cubes_uses_the_layer_face_index_and_ignores_z() {
        let desc = TextureDesc::cube(F::R32Uint, 2)
            .with_layers(TextureKind::CubeArray, 12)
            .with_levels(1);
        let v = view(texture(desc, |_, layer, _, p| {
            Texel::Uint([10 * layer + p[0], 0, 0, 1])
        }));
        assert_eq!(one(&v, [1, 0, 5, 11], 0, 0), Texel::Uint([111, 0, 0, 1]));
        assert_eq!(one(&v, [1, 0, 5, 12], 0, 0), Texel::Uint([0, 0, 0, 1]));
    }

    #[test]
    fn fetch_3d_uses_z_and_its_offset() {
        let v = view(texture(
            TextureDesc::d3(F::R32Uint, 4, 4, 4).with_levels(1),
            |_, _, _, p| Texel::Uint([100 * p[2] + 10 * p[1] + p[0], 0, 0, 1]),
        ));
        let args = FetchArgs {
            icoords: [[1, 2, 3, 9]; 4],
            offset: [1, -1, -3],
            ..Default::default()
        };
        assert_eq!(
            fetch(&v, &args, 1).texels[0],
            Some(Texel::Uint([12, 0, 0, 1]))
        );
    }

    #[test]
    fn fetch_of_a_non_resident_texel_reads_zero_memory_and_clears_the_flag() {
        let mut t = texture(
            TextureDesc::d2(F::R8Unorm, 4, 4).with_levels(1),
            |_, _, _, _| Texel::Float([1.0, 0.0, 0.0, 1.0]),
        );
        t.make_sparse();
        let v = view(t);
        let args = FetchArgs::default();
        let r = fetch(&v, &args, 0b0101);
        assert_eq!(r.texels[0], Some(Texel::Float([0.0, 0.0, 0.0, 1.0])));
        assert_eq!(r.resident, [false, false, false, false]);
        assert_eq!(r.texels[1], None);
    }
}
