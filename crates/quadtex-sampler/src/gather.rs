//! Gather: TLD4 / `textureGather` / `gather4` — the four texels of the
//! bilinear footprint at the view's base level, one component each, no
//! filtering (docs/semantics.md §1; the SASS TLD4 reference).
//!
//! What lives here: the gather of one quad ([`gather`]) and its arguments
//! ([`GatherArgs`], [`GatherOffsets`]). What does not: packing of the AOFFI
//! and PTP registers and the per-API offset ranges (instruction
//! front-ends), texel decoding (`quadtex-format`, read through
//! [`fetch`](mod@crate::fetch)'s shared loader), and the cube face and seam rules
//! (`reference.rs`: [`cube_face`](crate::reference::cube_face),
//! [`cube_neighbour`]).
//!
//! Order of operations per texel, as Vulkan's "Texel Input Operations"
//! give it: wrap (or seam) -> read and decode (sRGB to linear, missing
//! components (0, 0, 0, 1)) or border replacement -> depth compare ->
//! swizzle -> the requested component. Float bits pass through untouched;
//! the one arithmetic operation is the average of a cube corner.

use quadtex_format::{SampleType, Texel, TextureKind};

use crate::header::{AddressMode, CompareOp, HeaderType, SamplerHeader, Swizzle, TextureHeader};
use crate::profile::Profile;
use crate::quad::{Lod, Quad, QuadResult, SampleArgs};
use crate::reference::{cube_neighbour, floor_index, wrap, Ctx, LaneCoords};

/// The texel offsets of a gather (the SASS TLD4 reference, `.toff`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GatherOffsets {
    /// No offset.
    #[default]
    None,
    /// One offset `[du, dv]` in texels for the whole footprint (`.AOFFI`,
    /// `textureGatherOffset`, `gather4_po`).
    Aoffi([i32; 2]),
    /// Four offsets `[[ds_k, dt_k]; 4]`, one per result (`.PTP`,
    /// `textureGatherOffsets`, SPIR-V `ConstOffsets`).
    Ptp([[i32; 2]; 4]),
}

/// Everything a gather takes besides the quad and the headers.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GatherArgs {
    /// The post-swizzle component returned from each texel: 0 = R, 1 = G, 2 =
    /// B, 3 = A (the SASS TLD4 reference, `.comp`; only the low two bits are
    /// used, as in the instruction's 2-bit field). Ignored by depth-compare
    /// gathers.
    pub component: u8,
    /// Texel offsets, already range-checked (and wrapped) by the front-end.
    /// Cubes take none (the SASS TLD4 reference, Vulkan); any given are
    /// ignored there.
    pub offsets: GatherOffsets,
    /// Depth reference per lane (`.DC`, `textureGather` on a shadow
    /// sampler): each texel returns `op(Dref, D) ? 1.0 : 0.0`.
    pub dref: Option<[f32; 4]>,
    /// `.NDV`: on a `TWO_D_NO_MIPMAP` header, where TLD4 runs as TEX with
    /// implicit derivatives, take them from all four lanes and skip the
    /// partial-quad rule (the SASS TLD4 reference). A true gather has no LOD,
    /// so it is unaffected.
    pub ndv: bool,
}

/// Footprint corners `(di, dj)` in output order: `[T(i0, j1), T(i1, j1),
/// T(i1, j0), T(i0, j0)]` (docs/semantics.md §1 "Output order").
const CORNERS: [(i64, i64); 4] = [(0, 1), (1, 1), (1, 0), (0, 0)];

/// TLD4 / `textureGather` on one quad (docs/semantics.md §1; the SASS TLD4
/// reference).
///
/// Per running lane, at level `L = base_level` of the view (LOD, bias and
/// the LOD clamps are ignored): `u = s * W + du`, `v = t * H + dv`, `i0 =
/// floor(u - 0.5)`, `j0 = floor(v - 0.5)`, `i1 = i0 + 1`, `j1 = j0 + 1`,
/// each index wrapped on its own with the sampler's address modes
/// (`clamp_to_border` reads the border colour; `clamp_ogl` clamps `u` to
/// `[0, W]` first, as `sample` does), and the result is
/// `[T(i0, j1), T(i1, j1), T(i1, j0), T(i0, j0)]`, each texel's
/// post-swizzle `component` (a component the view swizzles to ZERO or ONE
/// gives 0 or 1).
///
/// Per-texel offsets (PTP) follow GLSL `textureGatherOffsets` ("each of the
/// four texels is obtained by applying the corresponding offset in offsets
/// as a (u, v) coordinate offset to P, identifying the four-texel LINEAR
/// footprint, and then selecting the texel i0 j0 of that footprint") and
/// Vulkan `ConstOffsets`: `out[k] = T(i0 + ds_k, j0 + dt_k)`, each wrapped.
/// Offsets are added to the texel coordinate before the floor, as `sample`
/// adds them.
///
/// Depth compare (`dref`): the reference is clamped to [0, 1] for UNORM
/// depth formats and each texel (border texels included) returns
/// `op(Dref', D) ? 1.0 : 0.0`; the component and the swizzle are not used
/// (docs/semantics.md §1 "Depth compare, per texel").
///
/// Cubes (`cube`, `cube_array`): the direction selects the face and the
/// footprint is taken on it; with seamless filtering (the default) a texel
/// off the face comes from the neighbouring face ([`cube_neighbour`]) and a
/// texel off both edges (a cube corner) is the average of the three real
/// texels there, taken after the compare, so compare results can be 1/3 or
/// 2/3 there (integer texels, which have no average, repeat the real texel
/// across the s edge). Without seamless filtering each face wraps with the
/// address modes.
///
/// Integer formats return integers. Residency is as for `sample`: a
/// non-resident texel reads as zero memory decoded and clears the lane's
/// resident flag.
///
/// Views that are not 2D, 2D array, cube or cube array return zeros in
/// every running lane (the SASS TLD4 reference: "If the source coordinate
/// description does not match the texture type of the texture header,
/// zeroes will be returned"); a `TWO_D_NO_MIPMAP` header makes TLD4 act as
/// TEX (the same reference),
/// here an implicit-LOD [`crate::reference::sample`] (the same bits as [`crate::sample`]) with the AOFFI offset and
/// reference.
///
/// Callers with many quads should hold a [`crate::QuadSampler`] and use
/// its `gather` / `gather_quads` (the batched SIMD kernels where they
/// apply, the same bits).
pub fn gather(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &GatherArgs,
    quad: &Quad,
) -> QuadResult {
    crate::QuadSampler::new(view, smp, profile).gather(args, quad)
}

/// [`gather`] lane by lane: the scalar reference the batched kernels are
/// tested against, and their fallback.
pub fn gather_reference(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &GatherArgs,
    quad: &Quad,
) -> QuadResult {
    let running = quad.running();
    let ctx = Ctx::new(view, smp, profile);
    // Views `TextureHeader::validate` rejects read zeros (`reference::sample`).
    if !ctx.usable {
        return QuadResult::zeros(running, ctx.ty);
    }
    match view.kind {
        TextureKind::D2 | TextureKind::D2Array | TextureKind::Cube | TextureKind::CubeArray => {}
        TextureKind::D1
        | TextureKind::D1Array
        | TextureKind::D3
        | TextureKind::D2Ms
        | TextureKind::D2MsArray => return QuadResult::zeros(running, ctx.ty),
    }
    if view.header_type() == Some(HeaderType::TwoDNoMipmap) {
        let offset = match args.offsets {
            GatherOffsets::Aoffi([u, v]) => [u, v, 0],
            GatherOffsets::None | GatherOffsets::Ptp(_) => [0; 3],
        };
        let sa = SampleArgs {
            lod: Lod::Implicit,
            offset,
            dref: args.dref,
            ndv: args.ndv,
            ..SampleArgs::default()
        };
        return crate::reference::sample(view, smp, profile, &sa, quad);
    }
    let mut out = QuadResult::EMPTY;
    for lane in 0..4 {
        if running & (1 << lane) == 0 {
            continue;
        }
        let (t, resident) = gather_lane(&ctx, args, quad.coords[lane], lane);
        out.texels[lane] = Some(t);
        out.resident[lane] = resident;
    }
    out
}

/// One lane of [`gather`].
fn gather_lane(ctx: &Ctx<'_>, args: &GatherArgs, c: [f32; 4], lane: usize) -> (Texel, bool) {
    let cube = ctx.view.kind.is_cube();
    let lc = if cube {
        ctx.cube_coords(c, [0.0; 3], [0.0; 3])
    } else {
        ctx.plain_coords(c, [0.0; 3], [0.0; 3])
    };
    let dims = ctx.level_dims(0);
    // Depth compare applies to float (depth) texels only; integer formats
    // cannot compare (Vulkan) and ignore the reference, as `sample` does.
    let dref = match (args.dref, ctx.ty) {
        (Some(d), SampleType::Float) => Some(if ctx.format.is_unorm_depth() {
            d[lane].clamp(0.0, 1.0)
        } else {
            d[lane]
        }),
        _ => None,
    };
    let mut words = [0u32; 4];
    let mut resident = true;
    for (k, w) in words.iter_mut().enumerate() {
        let (corner, off) = match args.offsets {
            _ if cube => (CORNERS[k], [0, 0]),
            GatherOffsets::None => (CORNERS[k], [0, 0]),
            GatherOffsets::Aoffi(o) => (CORNERS[k], o),
            GatherOffsets::Ptp(p) => ((0, 0), p[k]),
        };
        let i = footprint_index(ctx, lc.st[0], dims[0], off[0], 0, cube) + corner.0;
        let j = footprint_index(ctx, lc.st[1], dims[1], off[1], 1, cube) + corner.1;
        let (t, r) = read(ctx, &lc, i, j, dims, dref);
        resident &= r;
        *w = match dref {
            Some(_) => t.to_bits()[0],
            None => component(ctx, t, args.component & 3),
        };
    }
    (Texel::from_bits(ctx.ty, words), resident)
}

/// `i0` of the linear footprint on axis `axis`: `floor(s * size + off -
/// 0.5)`, with the `clamp_ogl` coordinate clamp, exactly as `sample`'s
/// linear filter finds it (reference.rs `filter_level`).
fn footprint_index(ctx: &Ctx<'_>, s: f32, size: i64, off: i32, axis: usize, cube: bool) -> i64 {
    let mut u = if ctx.smp.unnormalized {
        s
    } else {
        s * size as f32
    };
    if !cube {
        u += off as f32;
        if ctx.smp.address[axis] == AddressMode::ClampOgl {
            u = if u.is_nan() {
                0.0
            } else {
                u.clamp(0.0, size as f32)
            };
        }
    }
    floor_index(u - 0.5)
}

/// Texel `(i, j)` of the lane's face or layer at the base level: wrapped,
/// from a neighbouring cube face, or the border; compared when `dref` is
/// given.
fn read(
    ctx: &Ctx<'_>,
    lc: &LaneCoords,
    i: i64,
    j: i64,
    dims: [i64; 3],
    dref: Option<f32>,
) -> (Texel, bool) {
    if ctx.view.kind.is_cube() && ctx.smp.seamless_cube {
        return cube_read(ctx, lc, i, j, dims[0], dref);
    }
    let a = ctx.smp.address;
    match (wrap(i, dims[0], a[0]), wrap(j, dims[1], a[1])) {
        (Some(x), Some(y)) => texel(ctx, lc.layer + lc.face, x, y, dref),
        _ => (border(ctx, dref), true),
    }
}

/// A seamless cube texel: on the face, from the neighbour face when one
/// index is off the face, the average of the three real texels at a corner
/// (docs/semantics.md §1 "Cube gather"; the seam rule of reference.rs
/// `cube_texel`).
///
/// The corner average is `((T00 + T01) + (T10 + T11)) * (1/3)` over the
/// footprint's rows with the corner itself taken as +0, after the depth
/// compare: the order of operations llvmpipe uses, so both give the same
/// bits (any order is an "average"; this one is pinned by the oracle).
/// Integer texels cannot be averaged meaningfully; the corner repeats the
/// real texel across the s edge, which is what llvmpipe returns too.
fn cube_read(
    ctx: &Ctx<'_>,
    lc: &LaneCoords,
    i: i64,
    j: i64,
    n: i64,
    dref: Option<f32>,
) -> (Texel, bool) {
    let inside = |v: i64| (0..n).contains(&v);
    match (inside(i), inside(j)) {
        (true, true) => texel(ctx, lc.layer + lc.face, i, j, dref),
        (false, false) => {
            let ci = i.clamp(0, n - 1);
            let cj = j.clamp(0, n - 1);
            let (f1, i1, j1) = cube_neighbour(lc.face, i, cj, n);
            let (f2, i2, j2) = cube_neighbour(lc.face, ci, j, n);
            // The corner's three real texels: on the face, across the s
            // edge, across the t edge.
            let on_face = texel(ctx, lc.layer + lc.face, ci, cj, dref);
            let across_s = texel(ctx, lc.layer + f1, i1, j1, dref);
            let across_t = texel(ctx, lc.layer + f2, i2, j2, dref);
            let resident = on_face.1 && across_s.1 && across_t.1;
            let t = match (on_face.0, across_s.0, across_t.0) {
                (Texel::Float(f), Texel::Float(s), Texel::Float(t)) => {
                    // The footprint's rows as `[T(x0, y), T(x1, y)]`, the
                    // corner itself zero: the corner sits in column 0 when
                    // `i` fell off the low edge, in row 0 when `j` did.
                    let (cx, cy) = (usize::from(i >= 0), usize::from(j >= 0));
                    let mut rows = [[[0.0f32; 4]; 2]; 2];
                    rows[cy][1 - cx] = t;
                    rows[1 - cy][cx] = s;
                    rows[1 - cy][1 - cx] = f;
                    Texel::Float([0, 1, 2, 3].map(|k| {
                        ((rows[0][0][k] + rows[0][1][k]) + (rows[1][0][k] + rows[1][1][k]))
                            * (1.0f32 / 3.0)
                    }))
                }
                // Integers have no meaningful average: the corner repeats
                // the real texel across the s edge (as llvmpipe does).
                (_, s, _) => s,
            };
            (t, resident)
        }
        _ => {
            let (f, ii, jj) = cube_neighbour(lc.face, i, j, n);
            texel(ctx, lc.layer + f, ii, jj, dref)
        }
    }
}

/// Reads texel `(x, y)` (in range) of the base level at absolute `layer`,
/// compared when `dref` is given.
fn texel(ctx: &Ctx<'_>, layer: u32, x: i64, y: i64, dref: Option<f32>) -> (Texel, bool) {
    let (t, resident) = ctx.load(ctx.view.base_level, layer, 0, [x as u32, y as u32, 0]);
    (compare(ctx, t, dref), resident)
}

/// The border texel: the border colour in the format's components, the
/// (0, 0, 0, 1) defaults in the others (Vulkan "Border Replacement";
/// reference.rs `border`), compared when `dref` is given.
fn border(ctx: &Ctx<'_>, dref: Option<f32>) -> Texel {
    if ctx.ty == SampleType::Float {
        return compare(ctx, Texel::Float(ctx.border_f32()), dref);
    }
    let present = ctx.format.components();
    let bits = ctx.smp.border_color.as_bits();
    let v = [0, 1, 2, 3].map(|c| if present[c] { bits[c] } else { [0, 0, 0, 1][c] });
    Texel::from_bits(ctx.ty, v)
}

/// The depth compare of one texel: `(op(Dref', D) ? 1 : 0, 0, 0, 1)`.
fn compare(ctx: &Ctx<'_>, t: Texel, dref: Option<f32>) -> Texel {
    match (dref, t) {
        (Some(r), Texel::Float(v)) => {
            let op = ctx.smp.compare.unwrap_or(CompareOp::Always);
            Texel::Float([if op.test(r, v[0]) { 1.0 } else { 0.0 }, 0.0, 0.0, 1.0])
        }
        _ => t,
    }
}

/// Component `comp` of the view's swizzle applied to `t`, as a register
/// word (ONE is 1.0 for float formats, integer 1 otherwise).
fn component(ctx: &Ctx<'_>, t: Texel, comp: u8) -> u32 {
    let bits = t.to_bits();
    match ctx.view.swizzle[comp as usize] {
        Swizzle::R => bits[0],
        Swizzle::G => bits[1],
        Swizzle::B => bits[2],
        Swizzle::A => bits[3],
        Swizzle::Zero => 0,
        Swizzle::One => match ctx.ty {
            SampleType::Float => 1.0f32.to_bits(),
            SampleType::Uint | SampleType::Sint => 1,
        },
    }
}

#[cfg(test)]
mod tests {
    use quadtex_format::{texel, TextureDesc, TextureFormat as F};

    use super::*;
    use crate::fetch::tests::{texture, view};
    use crate::header::{BorderColor, Filter, MipmapMode};

    /// A `w` x `h` R32_SFLOAT 2D texture (one level unless `levels`), texel
    /// `(i, j)` of level `L` = `100 L + 10 j + i`.
    fn index_2d(w: u32, h: u32, levels: u32) -> TextureHeader {
        view(texture(
            TextureDesc::d2(F::R32Float, w, h).with_levels(levels),
            |l, _, _, p| Texel::Float([(100 * l + 10 * p[1] + p[0]) as f32, 0.0, 0.0, 1.0]),
        ))
    }

    fn smp(address: AddressMode) -> SamplerHeader {
        SamplerHeader {
            address: [address; 3],
            ..SamplerHeader::default()
        }
    }

    /// Lane 0 of a gather whose four lanes sit at `c`.
    fn gather_at(v: &TextureHeader, s: &SamplerHeader, args: &GatherArgs, c: [f32; 4]) -> Texel {
        gather(v, s, &Profile::VULKAN, args, &Quad::new([c; 4])).texels[0].unwrap()
    }

    fn red(c: u8) -> GatherArgs {
        GatherArgs {
            component: c,
            ..GatherArgs::default()
        }
    }

    #[test]
    fn gather_order_is_i0j1_i1j1_i1j0_i0j0() {
        // 2x2 texture at its centre: i0 = j0 = 0.
        let v = index_2d(2, 2, 1);
        let t = gather_at(&v, &smp(AddressMode::Repeat), &red(0), [0.5, 0.5, 0.0, 0.0]);
        assert_eq!(t, Texel::Float([10.0, 11.0, 1.0, 0.0]));
        // The footprint moves by whole texels at texel centres + 0.5.
        let v = index_2d(4, 4, 1);
        let t = gather_at(
            &v,
            &smp(AddressMode::Repeat),
            &red(0),
            [0.5, 0.25, 0.0, 0.0],
        );
        // u = 2 -> i0 = 1; v = 1 -> j0 = 0.
        assert_eq!(t, Texel::Float([11.0, 12.0, 2.0, 1.0]));
    }

    #[test]
    fn gather_reads_the_view_base_level_whatever_the_lod() {
        let mut v = index_2d(8, 8, 4);
        v.base_level = 2;
        v.level_count = 2;
        let s = SamplerHeader {
            mip_lod_bias: 3.0,
            min_lod: 1.0,
            ..smp(AddressMode::Repeat)
        };
        // Level 2 is 2x2.
        let t = gather_at(&v, &s, &red(0), [0.5, 0.5, 0.0, 0.0]);
        assert_eq!(t, Texel::Float([210.0, 211.0, 201.0, 200.0]));
    }

    #[test]
    fn gather_component_is_taken_after_the_view_swizzle() {
        let mut v = view(texture(
            TextureDesc::d2(F::Rgba8Unorm, 1, 1).with_levels(1),
            |_, _, _, _| Texel::Float([0.0, 1.0 / 255.0, 2.0 / 255.0, 3.0 / 255.0]),
        ));
        let s = smp(AddressMode::Repeat);
        let c = [0.5, 0.5, 0.0, 0.0];
        assert_eq!(
            gather_at(&v, &s, &red(2), c),
            Texel::Float([2.0 / 255.0; 4])
        );
        v.swizzle = Swizzle::parse4("gbar").unwrap();
        assert_eq!(
            gather_at(&v, &s, &red(0), c),
            Texel::Float([1.0 / 255.0; 4])
        );
        assert_eq!(gather_at(&v, &s, &red(3), c), Texel::Float([0.0; 4]));
        v.swizzle = Swizzle::parse4("r001").unwrap();
        assert_eq!(gather_at(&v, &s, &red(1), c), Texel::Float([0.0; 4]));
        assert_eq!(gather_at(&v, &s, &red(3), c), Texel::Float([1.0; 4]));
        // Missing components read the (0, 0, 0, 1) defaults: R8's alpha is 1.
        let r8 = view(texture(
            TextureDesc::d2(F::R8Unorm, 1, 1).with_levels(1),
            |_, _, _, _| Texel::Float([1.0, 0.0, 0.0, 1.0]),
        ));
        assert_eq!(gather_at(&r8, &s, &red(3), c), Texel::Float([1.0; 4]));
        assert_eq!(gather_at(&r8, &s, &red(1), c), Texel::Float([0.0; 4]));
    }

    #[test]
    fn gather_of_integer_formats_returns_integers_and_integer_one() {
        let mut v = view(texture(
            TextureDesc::d2(F::Rgba32Uint, 2, 2).with_levels(1),
            |_, _, _, p| Texel::Uint([p[0], p[1], 0xffff_fff0 + 2 * p[1] + p[0], 7]),
        ));
        let s = smp(AddressMode::ClampToEdge);
        let c = [0.5, 0.5, 0.0, 0.0];
        assert_eq!(
            gather_at(&v, &s, &red(2), c),
            Texel::Uint([0xffff_fff2, 0xffff_fff3, 0xffff_fff1, 0xffff_fff0])
        );
        v.swizzle = Swizzle::parse4("rg1a").unwrap();
        assert_eq!(gather_at(&v, &s, &red(2), c), Texel::Uint([1; 4]));
    }

    #[test]
    fn gather_keeps_float_bits_exactly() {
        let bits = [0x8000_0000u32, 0x0000_0001, 0x7fc0_1234, 0xff80_0000];
        let v = view(texture(
            TextureDesc::d2(F::R32Float, 2, 2).with_levels(1),
            |_, _, _, p| {
                Texel::Float([
                    f32::from_bits(bits[(2 * p[1] + p[0]) as usize]),
                    0.0,
                    0.0,
                    1.0,
                ])
            },
        ));
        let t = gather_at(&v, &smp(AddressMode::Repeat), &red(0), [0.5, 0.5, 0.0, 0.0]);
        assert_eq!(t.to_bits(), [bits[2], bits[3], bits[1], bits[0]]);
    }

    #[test]
    fn gather_wraps_each_index_with_the_address_modes() {
        let v = index_2d(4, 4, 1);
        let c = [0.0, 0.0, 0.0, 0.0]; // i0 = j0 = -1
        let t = gather_at(&v, &smp(AddressMode::Repeat), &red(0), c);
        assert_eq!(t, Texel::Float([3.0, 0.0, 30.0, 33.0]));
        let t = gather_at(&v, &smp(AddressMode::ClampToEdge), &red(0), c);
        assert_eq!(t, Texel::Float([0.0, 0.0, 0.0, 0.0]));
        let t = gather_at(&v, &smp(AddressMode::MirroredRepeat), &red(0), c);
        assert_eq!(t, Texel::Float([0.0, 0.0, 0.0, 0.0]));
        let border = SamplerHeader {
            border_color: BorderColor::Float([0.25, 0.5, 0.75, 1.0]),
            ..smp(AddressMode::ClampToBorder)
        };
        // Only R is stored: it takes the border red, the rest the defaults.
        let t = gather_at(&v, &border, &red(0), c);
        assert_eq!(t, Texel::Float([0.25, 0.0, 0.25, 0.25]));
        assert_eq!(gather_at(&v, &border, &red(1), c), Texel::Float([0.0; 4]));
        assert_eq!(gather_at(&v, &border, &red(3), c), Texel::Float([1.0; 4]));
        // Integer formats take the border as integers.
        let u = view(texture(
            TextureDesc::d2(F::R32Uint, 2, 2).with_levels(1),
            |_, _, _, _| Texel::Uint([9, 0, 0, 1]),
        ));
        let b = SamplerHeader {
            border_color: BorderColor::Int([5, 6, 7, 8]),
            ..smp(AddressMode::ClampToBorder)
        };
        assert_eq!(gather_at(&u, &b, &red(0), c), Texel::Uint([5, 9, 5, 5]));
        assert_eq!(gather_at(&u, &b, &red(3), c), Texel::Uint([1; 4]));
    }

    #[test]
    fn gather_aoffi_moves_the_whole_footprint() {
        let v = index_2d(8, 8, 1);
        let s = smp(AddressMode::Repeat);
        let c = [0.25, 0.25, 0.0, 0.0]; // i0 = j0 = 1
        let args = GatherArgs {
            offsets: GatherOffsets::Aoffi([2, -1]),
            ..GatherArgs::default()
        };
        // i0 = 3, j0 = 0.
        assert_eq!(
            gather_at(&v, &s, &args, c),
            Texel::Float([13.0, 14.0, 4.0, 3.0])
        );
        let args = GatherArgs {
            offsets: GatherOffsets::Aoffi([-3, 0]),
            ..GatherArgs::default()
        };
        // i0 = -2 -> 6, i1 = -1 -> 7.
        assert_eq!(
            gather_at(&v, &s, &args, c),
            Texel::Float([26.0, 27.0, 17.0, 16.0])
        );
    }

    #[test]
    fn gather_ptp_takes_texel_i0j0_of_each_offset_footprint() {
        // GLSL textureGatherOffsets: out[k] = T(i0 + ds_k, j0 + dt_k).
        let v = index_2d(8, 8, 1);
        let s = smp(AddressMode::Repeat);
        let c = [0.25, 0.25, 0.0, 0.0]; // i0 = j0 = 1
        let args = GatherArgs {
            offsets: GatherOffsets::Ptp([[0, 0], [1, 0], [0, 1], [-2, -2]]),
            ..GatherArgs::default()
        };
        assert_eq!(
            gather_at(&v, &s, &args, c),
            Texel::Float([11.0, 12.0, 21.0, 77.0])
        );
        // The PTP form of a plain footprint is the corners' offsets.
        let args = GatherArgs {
            offsets: GatherOffsets::Ptp([[0, 1], [1, 1], [1, 0], [0, 0]]),
            ..GatherArgs::default()
        };
        assert_eq!(gather_at(&v, &s, &args, c), gather_at(&v, &s, &red(0), c));
    }

    #[test]
    fn gather_compare_returns_one_result_per_texel_with_unorm_references_clamped() {
        let d: [f32; 4] = [0.25, 0.5, 0.75, 1.0];
        let v = view(texture(
            TextureDesc::d2(F::Depth16Unorm, 2, 2).with_levels(1),
            |_, _, _, p| Texel::Float([d[(2 * p[1] + p[0]) as usize], 0.0, 0.0, 1.0]),
        ));
        let s = SamplerHeader {
            compare: Some(CompareOp::Less),
            ..smp(AddressMode::ClampToEdge)
        };
        let c = [0.5, 0.5, 0.0, 0.0];
        let args = |r: f32| GatherArgs {
            dref: Some([r; 4]),
            component: 3,
            ..GatherArgs::default()
        };
        // Texels in output order: 0.75, 1.0, 0.5, 0.25; pass when 0.6 < D.
        assert_eq!(
            gather_at(&v, &s, &args(0.6), c),
            Texel::Float([1.0, 1.0, 0.0, 0.0])
        );
        // 1.5 clamps to 1.0 on a UNORM depth format: LEQUAL passes on D = 1.
        let le = SamplerHeader {
            compare: Some(CompareOp::LessOrEqual),
            ..s
        };
        assert_eq!(
            gather_at(&v, &le, &args(1.5), c),
            Texel::Float([0.0, 1.0, 0.0, 0.0])
        );
        // A float depth format does not clamp.
        let f = view(texture(
            TextureDesc::d2(F::Depth32Float, 1, 1).with_levels(1),
            |_, _, _, _| Texel::Float([1.0, 0.0, 0.0, 1.0]),
        ));
        assert_eq!(gather_at(&f, &le, &args(1.5), c), Texel::Float([0.0; 4]));
        // Border texels compare the border's depth.
        let b = SamplerHeader {
            compare: Some(CompareOp::Greater),
            border_color: BorderColor::FloatOpaqueWhite,
            ..smp(AddressMode::ClampToBorder)
        };
        let t = gather_at(&v, &b, &args(0.9), [0.0, 0.0, 0.0, 0.0]);
        assert_eq!(t, Texel::Float([0.0, 1.0, 0.0, 0.0]));
    }

    /// A 4x4 R32F cube (array of `cubes`) whose texel `(i, j)` of face
    /// layer `a` holds `100 a + 10 j + i`.
    fn cube_index(cubes: u32) -> TextureHeader {
        let desc = TextureDesc::cube(F::R32Float, 4)
            .with_layers(TextureKind::CubeArray, 6 * cubes)
            .with_levels(1);
        let mut v = view(texture(desc, |_, a, _, p| {
            Texel::Float([(100 * a + 10 * p[1] + p[0]) as f32, 0.0, 0.0, 1.0])
        }));
        if cubes == 1 {
            v.kind = TextureKind::Cube;
        }
        v
    }

    #[test]
    fn cube_gather_crosses_seams_and_averages_corners() {
        let v = cube_index(1);
        let s = smp(AddressMode::Repeat);
        // +X face at s = 0.95, t = 0.05: sc = -z = 0.9, tc = -y = -0.9.
        // u = 3.3 -> i0 = 3, i1 = 4 (off the +s edge); v = -0.3 -> j0 = -1.
        let t = gather_at(&v, &s, &red(0), [1.0, 0.9, -0.9, 0.0]);
        // T(4, 0) is -Z's (0, 0) = 500; T(3, -1) is +Y's (3, 0) = 203; the
        // corner T(4, -1) averages +X (3, 0) = 3, -Z (0, 0) and +Y (3, 0).
        let Texel::Float(o) = t else { panic!() };
        assert_eq!([o[0], o[1], o[3]], [3.0, 500.0, 203.0]);
        assert!((o[2] - 706.0 / 3.0).abs() < 1e-4, "{}", o[2]);
        assert_eq!(cube_neighbour(0, 4, 0, 4), (5, 0, 0));
        assert_eq!(cube_neighbour(0, 3, -1, 4), (2, 3, 0));
        // Inside the face: a plain footprint.
        let t = gather_at(&v, &s, &red(0), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(t, Texel::Float([21.0, 22.0, 12.0, 11.0]));
    }

    #[test]
    fn cube_gather_without_seamless_filtering_wraps_on_the_face() {
        let v = cube_index(1);
        let s = SamplerHeader {
            seamless_cube: false,
            ..smp(AddressMode::ClampToEdge)
        };
        let t = gather_at(&v, &s, &red(0), [1.0, 0.9, -0.9, 0.0]);
        assert_eq!(t, Texel::Float([3.0; 4]));
    }

    #[test]
    fn cube_array_gather_reads_the_selected_cube_and_ignores_offsets() {
        let v = cube_index(2);
        let s = smp(AddressMode::Repeat);
        // -Y face (3) of cube 1: layer 9.
        let args = GatherArgs {
            offsets: GatherOffsets::Aoffi([1, 1]),
            ..GatherArgs::default()
        };
        let t = gather_at(&v, &s, &args, [0.0, -1.0, 0.0, 1.2]);
        assert_eq!(t, Texel::Float([921.0, 922.0, 912.0, 911.0]));
    }

    #[test]
    fn integer_cube_corners_repeat_the_texel_across_the_s_edge() {
        let desc = TextureDesc::cube(F::R32Uint, 4).with_levels(1);
        let v = view(texture(desc, |_, a, _, p| {
            Texel::Uint([100 * a + 10 * p[1] + p[0], 0, 0, 1])
        }));
        let t = gather_at(
            &v,
            &smp(AddressMode::Repeat),
            &red(0),
            [1.0, 0.9, -0.9, 0.0],
        );
        assert_eq!(t, Texel::Uint([3, 500, 500, 203]));
    }

    #[test]
    fn gather_decodes_srgb_before_picking_the_component() {
        let v = view(texture(
            TextureDesc::d2(F::Rgba8Srgb, 1, 1).with_levels(1),
            |_, _, _, _| Texel::Float([texel::srgb8_to_linear(128), 0.0, 0.0, 128.0 / 255.0]),
        ));
        let s = smp(AddressMode::Repeat);
        let c = [0.5, 0.5, 0.0, 0.0];
        assert_eq!(
            gather_at(&v, &s, &red(0), c),
            Texel::Float([texel::srgb8_to_linear(128); 4])
        );
        assert_eq!(
            gather_at(&v, &s, &red(3), c),
            Texel::Float([128.0 / 255.0; 4])
        );
    }

    #[test]
    fn gather_of_non_resident_texels_reads_zero_and_clears_the_flag() {
        let mut t = texture(
            TextureDesc::d2(F::R8Unorm, 4, 4).with_levels(1),
            |_, _, _, _| Texel::Float([1.0, 0.0, 0.0, 1.0]),
        );
        t.make_sparse();
        let v = view(t);
        let q = Quad {
            active: 0b0010,
            ..Quad::new([[0.5, 0.5, 0.0, 0.0]; 4])
        };
        let r = gather(&v, &smp(AddressMode::Repeat), &Profile::VULKAN, &red(3), &q);
        assert_eq!(r.texels[1], Some(Texel::Float([1.0; 4])));
        assert_eq!(r.resident, [false; 4]);
        assert_eq!(r.texels[0], None);
    }

    #[test]
    fn gather_on_a_kind_tld4_does_not_take_returns_zeros() {
        let v = view(texture(
            TextureDesc::d3(F::R32Float, 2, 2, 2).with_levels(1),
            |_, _, _, _| Texel::Float([5.0, 0.0, 0.0, 1.0]),
        ));
        let t = gather_at(&v, &smp(AddressMode::Repeat), &red(0), [0.5, 0.5, 0.5, 0.0]);
        assert_eq!(t, Texel::Float([0.0; 4]));
    }

    #[test]
    fn gather_on_a_two_d_no_mipmap_header_acts_as_tex() {
        let t = texture(
            TextureDesc::d2_no_mipmap(F::R32Float, 2, 2),
            |_, _, _, p| Texel::Float([(10 * p[1] + p[0]) as f32, 0.0, 0.0, 1.0]),
        );
        let v = view(t);
        assert_eq!(v.header_type(), Some(HeaderType::TwoDNoMipmap));
        let got = gather_at(
            &v,
            &smp(AddressMode::Repeat),
            &red(0),
            [0.75, 0.25, 0.0, 0.0],
        );
        assert_eq!(got, Texel::Float([1.0, 0.0, 0.0, 1.0]));
    }

    #[test]
    fn ndv_reaches_the_tex_path_of_a_two_d_no_mipmap_header() {
        // TLD4 as TEX on a partial quad (lane 3 off) under NvSass: without
        // .NDV the partial-quad rule forces lambda to -inf, so the linear
        // magnification filter blends texels 0 and 1 (0.5); with .NDV the
        // quad's derivatives (one texel per pixel and more) minify, and the
        // nearest minification filter reads texel 1 alone.
        let t = texture(
            TextureDesc::d2_no_mipmap(F::R32Float, 2, 2),
            |_, _, _, p| Texel::Float([p[0] as f32, 0.0, 0.0, 1.0]),
        );
        let v = view(t);
        let s = SamplerHeader {
            mag_filter: Filter::Linear,
            min_filter: Filter::Nearest,
            mipmap_mode: MipmapMode::None,
            address: [AddressMode::ClampToEdge; 3],
            ..SamplerHeader::default()
        };
        let quad = Quad {
            coords: [
                [0.5, 0.25, 0.0, 0.0],
                [2.5, 0.25, 0.0, 0.0],
                [0.5, 2.25, 0.0, 0.0],
                [2.5, 2.25, 0.0, 0.0],
            ],
            active: 0x7,
            helper: 0,
        };
        let run = |ndv: bool| {
            let args = GatherArgs {
                ndv,
                ..GatherArgs::default()
            };
            gather(&v, &s, &Profile::NV_SASS, &args, &quad).texels[0].unwrap()
        };
        assert_eq!(run(false), Texel::Float([0.5, 0.0, 0.0, 1.0]));
        assert_eq!(run(true), Texel::Float([1.0, 0.0, 0.0, 1.0]));
    }
}
