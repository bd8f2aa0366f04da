//! Known answers for cube maps: face selection and face coordinates
//! (`reference::cube_face`), the tie rules, the seam neighbour of every
//! edge texel (`reference::cube_neighbour`), seamless linear filtering
//! across edges and at corners, and non-seamless per-face wrapping.
//!
//! Rules: Vulkan "Cube Map Face Selection" (table below; ties: z beats y
//! beats x), "Cube Map Coordinate Transformation"
//! (`s_face = sc / (2|rc|) + 1/2`), "Wrapping Operation" (cubes ignore the
//! address modes: nearest clamps to the edge, linear filters across the
//! seam), "Cube map edge handling" (corners average the three real
//! texels), docs/semantics.md §1.
//!
//! | major | face | sc  | tc  | rc |
//! |-------|------|-----|-----|----|
//! | +x    | 0    | -rz | -ry | rx |
//! | -x    | 1    | +rz | -ry | rx |
//! | +y    | 2    | +rx | +rz | ry |
//! | -y    | 3    | +rx | -rz | ry |
//! | +z    | 4    | +rx | -ry | rz |
//! | -z    | 5    | -rx | -ry | rz |

mod common;

use common::*;
use quadtex_format::{TextureDesc, TextureFormat, TextureKind};
use quadtex_sampler::reference::{cube_face, cube_neighbour};
use quadtex_sampler::{AddressMode, BorderColor, Filter, Profile, SamplerHeader, TextureHeader};

/// A 4x4 cube, one level, texel (i, j) of face f = 100 f + 4 j + i.
fn coded_cube() -> TextureHeader {
    let desc = TextureDesc::cube(TextureFormat::R32Float, 4).with_levels(1);
    view(r32f(desc, |_, face, i, j| (100 * face + 4 * j + i) as f32))
}

/// A 4x4 cube, one level, every texel of face f = 2^f.
fn constant_cube() -> TextureHeader {
    let desc = TextureDesc::cube(TextureFormat::R32Float, 4).with_levels(1);
    view(r32f(desc, |_, face, _, _| (1u32 << face) as f32))
}

fn linear() -> SamplerHeader {
    SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..Default::default()
    }
}

fn dir(d: [f32; 3]) -> [f32; 4] {
    [d[0], d[1], d[2], 0.0]
}

// ---------------------------------------------------------------------------
// Face selection
// ---------------------------------------------------------------------------

#[test]
fn cube_face_follows_the_vulkan_table_for_all_six_faces() {
    // (direction, face, sc, tc, rc) from the table; |rc| = 1 so
    // s = sc/2 + 1/2 and t = tc/2 + 1/2.
    type Face = (u32, f32, f32, f32);
    let cases: [([f32; 3], Face); 6] = [
        ([1.0, 0.2, -0.4], (0, 0.4, -0.2, 1.0)),
        ([-1.0, 0.2, -0.4], (1, -0.4, -0.2, -1.0)),
        ([0.2, 1.0, -0.4], (2, 0.2, -0.4, 1.0)),
        ([0.2, -1.0, -0.4], (3, 0.2, 0.4, -1.0)),
        ([0.2, -0.4, 1.0], (4, 0.2, 0.4, 1.0)),
        ([0.2, -0.4, -1.0], (5, -0.2, 0.4, -1.0)),
    ];
    for (d, want) in cases {
        assert_eq!(cube_face(d[0], d[1], d[2]), want, "direction {d:?}");
    }
}

#[test]
fn cube_face_ties_go_to_z_then_y() {
    // |x| = |y| = |z|: z wins; |x| = |y| > |z|: y wins.
    let face = |x, y, z| cube_face(x, y, z).0;
    assert_eq!(face(1.0, 1.0, 1.0), 4);
    assert_eq!(face(-1.0, -1.0, -1.0), 5);
    assert_eq!(face(1.0, 1.0, 0.0), 2);
    assert_eq!(face(-1.0, -1.0, 0.5), 3);
    assert_eq!(face(1.0, 0.0, -1.0), 5, "x and z tie: z");
    assert_eq!(face(0.0, -1.0, 1.0), 4, "y and z tie: z");
    // No tie: the strict maximum wins.
    assert_eq!(face(-1.0, 0.999, 0.999), 1);
}

#[test]
fn a_nearest_sample_reads_the_selected_face_at_the_face_coordinates() {
    // s, t from the first test: face 0 (0.7, 0.4) -> (2, 1) = 6;
    // face 1 (0.3, 0.4) -> (1, 1) = 105; face 2 (0.6, 0.3) -> (2, 1) = 206;
    // face 3 (0.6, 0.7) -> (2, 2) = 310; face 4 (0.6, 0.7) -> 410;
    // face 5 (0.4, 0.7) -> (1, 2) = 509. The length of the direction does not matter.
    let v = coded_cube();
    let smp = SamplerHeader::default();
    let cases = [
        ([1.0, 0.2, -0.4], 6.0),
        ([-1.0, 0.2, -0.4], 105.0),
        ([0.2, 1.0, -0.4], 206.0),
        ([0.2, -1.0, -0.4], 310.0),
        ([0.2, -0.4, 1.0], 410.0),
        ([0.2, -0.4, -1.0], 509.0),
    ];
    for (d, want) in cases {
        assert_eq!(red_at(&v, &smp, dir(d)), want, "direction {d:?}");
        assert_eq!(
            red_at(&v, &smp, dir(d.map(|c| 3.0 * c))),
            want,
            "direction 3 x {d:?}"
        );
    }
}

#[test]
fn a_sample_on_a_tie_reads_the_winning_face() {
    // Constant faces 2^f. A tie direction lies on a face edge; these land on
    // the s = 0 or t = 0 edge of the winner, so nearest reads texel 0 there.
    // (-1, 1, 1): z wins -> +Z (16), sc = x = -1, tc = -y = -1 -> (s, t) = (0, 0).
    // (1, 1, -1): z wins -> -Z (32), sc = -x = -1, tc = -y = -1.
    // (-1, 1, 0): y wins -> +Y (4), sc = x = -1.  (-1, -1, 0): y wins -> -Y (8).
    // (-1, 0, 1): z wins -> +Z.  (0, 1, 1): z wins -> +Z, tc = -1.
    let v = constant_cube();
    let smp = SamplerHeader::default();
    let cases = [
        ([-1.0, 1.0, 1.0], 16.0),
        ([1.0, 1.0, -1.0], 32.0),
        ([-1.0, 1.0, 0.0], 4.0),
        ([-1.0, -1.0, 0.0], 8.0),
        ([-1.0, 0.0, 1.0], 16.0),
        ([0.0, 1.0, 1.0], 16.0),
    ];
    for (d, want) in cases {
        assert_eq!(red_at(&v, &smp, dir(d)), want, "direction {d:?}");
    }
}

#[test]
fn a_nearest_sample_on_the_far_edge_clamps_to_its_own_face() {
    // Vulkan: cubes sampled with NEAREST use CLAMP_TO_EDGE. (1, 1, 1) picks
    // +Z (z wins the tie) at s = 1, t = 0: u = 4 -> i = clamp(4, 0, 3) = 3,
    // still on +Z (16), not the +X neighbour (1).
    let v = constant_cube();
    let smp = SamplerHeader::default();
    assert_eq!(red_at(&v, &smp, [1.0, 1.0, 1.0, 0.0]), 16.0, "(1, 1, 1)");
    // (1, 1, 0): +Y at s = 1 (sc = x) -> 4, not +X.
    assert_eq!(red_at(&v, &smp, [1.0, 1.0, 0.0, 0.0]), 4.0, "(1, 1, 0)");
    // Coded cube, (1, 0.2, 1): +Z, s = 1, t = 0.4 -> texel (3, 1) = 407.
    assert_eq!(
        red_at(&coded_cube(), &smp, [1.0, 0.2, 1.0, 0.0]),
        407.0,
        "(1, 0.2, 1)"
    );
}

#[test]
fn cube_sampling_ignores_the_address_modes() {
    // Nearest near the +X face's edge clamps within the face whatever the
    // sampler says (here clamp_to_border, which would read 1000 on a 2D view).
    let v = coded_cube();
    let smp = SamplerHeader {
        address: [AddressMode::ClampToBorder; 3],
        border_color: BorderColor::Float([1000.0; 4]),
        ..Default::default()
    };
    // Face 0 at s = 0.99, t = 0.375 -> (3, 1) = 7.
    assert_eq!(red_at(&v, &smp, [1.0, 0.25, -0.98, 0.0]), 7.0);
    // Linear across the seam uses the neighbour face, not the border:
    // see `linear_filtering_crosses_face_edges_to_the_neighbour_texel`.
    let lin = SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        ..smp
    };
    assert_close(
        red_at(&v, &lin, [1.0, 0.25, -0.875, 0.0]),
        131.25,
        1e-3,
        "seam, border mode",
    );
}

// ---------------------------------------------------------------------------
// Seam neighbours
// ---------------------------------------------------------------------------

/// The neighbour of edge texel (i, j) of `face` (exactly one index out of
/// [0, n)), derived from the face axes of the table (m = n - 1):
///
/// - +X: s grows toward -z, t toward -y. Right (i = n) is -Z's left column
///   (-Z: s = 0 at x = +1), same row; left (i = -1) is +Z's right column;
///   top (j = -1, y = +1) is +Y's right column (x = +1) with t = (z + 1)/2
///   = 1 - s, so row m - i; bottom (y = -1) is -Y's right column, row i.
/// - -X: right -> +Z (0, j); left -> -Z (m, j); top -> +Y (0, i); bottom -> -Y (0, m - i).
/// - +Y: right -> +X (m - j, 0); left -> -X (j, 0); top (z = -1) -> -Z (m - i, 0);
///   bottom (z = +1) -> +Z (i, 0).
/// - -Y: right -> +X (j, m); left -> -X (m - j, m); top (z = +1) -> +Z (i, m);
///   bottom (z = -1) -> -Z (m - i, m).
/// - +Z: right -> +X (0, j); left -> -X (m, j); top -> +Y (i, m); bottom -> -Y (i, 0).
/// - -Z: right -> -X (0, j); left -> +X (m, j); top -> +Y (m - i, 0); bottom -> -Y (m - i, m).
///
/// Every pairing reads back: e.g. +X top (i, -1) -> +Y (m, m - i), and +Y
/// right (m + 1, m - i) -> +X (m - (m - i), 0) = (i, 0).
fn expected_neighbour(face: u32, i: i64, j: i64, n: i64) -> (u32, i64, i64) {
    let m = n - 1;
    #[derive(Clone, Copy)]
    enum Edge {
        Left,
        Right,
        Top,
        Bottom,
    }
    let edge = if i < 0 {
        Edge::Left
    } else if i >= n {
        Edge::Right
    } else if j < 0 {
        Edge::Top
    } else {
        Edge::Bottom
    };
    use Edge::*;
    match (face, edge) {
        (0, Right) => (5, 0, j),
        (0, Left) => (4, m, j),
        (0, Top) => (2, m, m - i),
        (0, Bottom) => (3, m, i),
        (1, Right) => (4, 0, j),
        (1, Left) => (5, m, j),
        (1, Top) => (2, 0, i),
        (1, Bottom) => (3, 0, m - i),
        (2, Right) => (0, m - j, 0),
        (2, Left) => (1, j, 0),
        (2, Top) => (5, m - i, 0),
        (2, Bottom) => (4, i, 0),
        (3, Right) => (0, j, m),
        (3, Left) => (1, m - j, m),
        (3, Top) => (4, i, m),
        (3, Bottom) => (5, m - i, m),
        (4, Right) => (0, 0, j),
        (4, Left) => (1, m, j),
        (4, Top) => (2, i, m),
        (4, Bottom) => (3, i, 0),
        (5, Right) => (1, 0, j),
        (5, Left) => (0, m, j),
        (5, Top) => (2, m - i, 0),
        (5, Bottom) => (3, m - i, m),
        _ => unreachable!("six faces"),
    }
}

#[test]
fn cube_neighbour_of_every_edge_texel_follows_the_face_geometry() {
    for n in [1i64, 2, 3, 4, 5, 8] {
        for face in 0..6 {
            for k in 0..n {
                for (i, j) in [(n, k), (-1, k), (k, -1), (k, n)] {
                    assert_eq!(
                        cube_neighbour(face, i, j, n),
                        expected_neighbour(face, i, j, n),
                        "face {face} texel ({i}, {j}) of {n}x{n}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_positive_x_right_edge_neighbours_the_negative_z_left_column() {
    // The brief's example, spelled out for N = 4: texel (4, j) of +X is
    // texel (0, j) of -Z for every row.
    for j in 0..4 {
        assert_eq!(cube_neighbour(0, 4, j, 4), (5, 0, j));
    }
}

// ---------------------------------------------------------------------------
// Seamless linear filtering
// ---------------------------------------------------------------------------

#[test]
fn linear_filtering_crosses_face_edges_to_the_neighbour_texel() {
    let v = coded_cube();
    let smp = linear();
    // +X at s = 0.9375, t = 0.375 (direction (1, 0.25, -0.875)): x = 3.25 ->
    // i0 = 3, i1 = 4 (off the face), alpha = 0.25; y = 1.0 -> row 1 only.
    // 0.75 T0(3, 1) + 0.25 T5(0, 1) = 0.75 * 7 + 0.25 * 504 = 131.25.
    assert_close(
        red_at(&v, &smp, [1.0, 0.25, -0.875, 0.0]),
        131.25,
        1e-3,
        "+X right edge",
    );
    // +Y at s = 0.625, t = 0.9375 (direction (0.25, 1, 0.875)): x = 2.0
    // (column 2 only), y = 3.25 -> rows 3 and 4 (off), beta = 0.25.
    // 0.75 T2(2, 3) + 0.25 T4(2, 0) = 0.75 * 214 + 0.25 * 402 = 261.
    assert_close(
        red_at(&v, &smp, [0.25, 1.0, 0.875, 0.0]),
        261.0,
        1e-3,
        "+Y bottom edge",
    );
    // +X at s = 0.375, t = 0.0625 (direction (1, 0.875, 0.25)): column 1,
    // y = -0.25 -> rows -1 (off) and 0, beta = 0.75. (1, -1) -> +Y (3, 2).
    // 0.25 T2(3, 2) + 0.75 T0(1, 0) = 0.25 * 211 + 0.75 * 1 = 53.5.
    assert_close(
        red_at(&v, &smp, [1.0, 0.875, 0.25, 0.0]),
        53.5,
        1e-3,
        "+X top edge (flipped)",
    );
    // -Z at s = 0.0625, t = 0.625 (direction (0.875, -0.25, -1)): x = -0.25 ->
    // columns -1 (off) and 0, alpha = 0.75; row 2. (-1, 2) -> +X (3, 2).
    // 0.25 T0(3, 2) + 0.75 T5(0, 2) = 0.25 * 11 + 0.75 * 508 = 383.75.
    assert_close(
        red_at(&v, &smp, [0.875, -0.25, -1.0, 0.0]),
        383.75,
        1e-3,
        "-Z left edge",
    );
    // -Y at s = 0.9375, t = 0.125 (direction (0.875, -1, 0.75)): columns 3
    // and 4 (off), alpha = 0.25; row 0. (4, 0) -> +X (0, 3).
    // 0.75 T3(3, 0) + 0.25 T0(0, 3) = 0.75 * 303 + 0.25 * 12 = 230.25.
    assert_close(
        red_at(&v, &smp, [0.875, -1.0, 0.75, 0.0]),
        230.25,
        1e-3,
        "-Y right edge",
    );
}

#[test]
fn a_corner_texel_is_the_average_of_the_three_real_texels() {
    // +Z at s = t = 0.9375 (direction (0.875, -0.875, 1)): x = y = 3.25,
    // alpha = beta = 0.25. Footprint: (3, 3) 0.5625; (4, 3) -> +X (0, 3)
    // 0.1875; (3, 4) -> -Y (3, 0) 0.1875; (4, 4) is the cube corner
    // (+1, -1, +1), weight 0.0625, read as the mean of the three texels
    // meeting there: +Z (3, 3), +X (0, 3), -Y (3, 0).
    let v = coded_cube();
    let (z, x, y) = (415.0f32, 12.0f32, 303.0f32);
    let want = 0.5625 * z + 0.1875 * x + 0.1875 * y + 0.0625 * (z + x + y) / 3.0;
    assert_close(
        red_at(&v, &linear(), [0.875, -0.875, 1.0, 0.0]),
        want,
        1e-3,
        "+Z corner",
    );
    // The same corner with constant faces (+Z 16, +X 1, -Y 8):
    // 9 + 0.1875 + 1.5 + 0.0625 * 25/3 = 11.2083.
    let v = constant_cube();
    assert_close(
        red_at(&v, &linear(), [0.875, -0.875, 1.0, 0.0]),
        11.208333,
        1e-4,
        "+Z corner, constant faces",
    );
}

#[test]
fn seamless_filtering_of_a_constant_neighbourhood_is_that_constant() {
    // A cube whose faces all hold 5 filters to 5 everywhere, corners included.
    let desc = TextureDesc::cube(TextureFormat::R32Float, 4).with_levels(1);
    let v = view(r32f(desc, |_, _, _, _| 5.0));
    for d in [
        [0.875, -0.875, 1.0],
        [1.0, 0.99, 0.99],
        [-0.9, 1.0, -0.95],
        [0.3, -0.2, -1.0],
    ] {
        assert_close(
            red_at(&v, &linear(), dir(d)),
            5.0,
            1e-5,
            &format!("direction {d:?}"),
        );
    }
}

// ---------------------------------------------------------------------------
// Non-seamless cubes
// ---------------------------------------------------------------------------

fn non_seamless(mode: AddressMode) -> SamplerHeader {
    SamplerHeader {
        seamless_cube: false,
        address: [mode; 3],
        border_color: BorderColor::Float([1000.0; 4]),
        ..linear()
    }
}

#[test]
fn non_seamless_cubes_wrap_per_face_with_the_address_modes() {
    // The +X right-edge point: i1 = 4 stays on face 0 and wraps:
    // clamp_to_edge -> 3: 7; repeat -> 0: 0.75 * 7 + 0.25 * 4 = 6.25;
    // clamp_to_border -> border: 0.75 * 7 + 0.25 * 1000 = 255.25.
    let v = coded_cube();
    let c = [1.0, 0.25, -0.875, 0.0];
    assert_close(
        red_at(&v, &non_seamless(AddressMode::ClampToEdge), c),
        7.0,
        1e-3,
        "clamp_to_edge",
    );
    assert_close(
        red_at(&v, &non_seamless(AddressMode::Repeat), c),
        6.25,
        1e-3,
        "repeat",
    );
    assert_close(
        red_at(&v, &non_seamless(AddressMode::ClampToBorder), c),
        255.25,
        1e-3,
        "clamp_to_border",
    );
    // The +Z corner point clamps every tap to (3, 3) of +Z: 415.
    assert_close(
        red_at(
            &v,
            &non_seamless(AddressMode::ClampToEdge),
            [0.875, -0.875, 1.0, 0.0],
        ),
        415.0,
        1e-3,
        "corner, clamp_to_edge",
    );
}

// ---------------------------------------------------------------------------
// Cube derivatives and cube arrays
// ---------------------------------------------------------------------------

/// An 8x8 cube with its mip chain (8, 4, 2, 1); every texel of level L is L.
fn level_cube() -> TextureHeader {
    let desc = TextureDesc::cube(TextureFormat::R32Float, 8);
    view(r32f(desc, |l, _, _, _| l as f32))
}

fn level_read(v: &TextureHeader, d: [f32; 3], ddx: [f32; 3], ddy: [f32; 3]) -> f32 {
    let smp = SamplerHeader::default();
    sample_at(v, &smp, &Profile::VULKAN, &grad(ddx, ddy), dir(d)).to_f32()[0]
}

#[test]
fn cube_gradients_transform_by_the_quotient_rule() {
    // ds_face/dx = (|rc| dsc/dx - sc drc/dx) / (2 rc^2), scaled by N = 8.
    let v = level_cube();
    // +Z centre (0, 0, 1), ddx = (0.5, 0, 0): dsc = 0.5 -> 0.25 -> 2 texels
    // -> lambda 1; ddy = (0, 0.5, 0): dtc = -0.5 -> |0.25| -> 2 texels.
    assert_eq!(
        level_read(&v, [0.0, 0.0, 1.0], [0.5, 0.0, 0.0], [0.0, 0.5, 0.0]),
        1.0
    );
    // +Z at (0.5, 0, 1) moving along z only, ddx = (0, 0, -1): dsc = 0,
    // drc = -1 -> (0 - 0.5 * -1) / 2 = 0.25 -> 2 texels -> lambda 1.
    assert_eq!(
        level_read(&v, [0.5, 0.0, 1.0], [0.0, 0.0, -1.0], [0.0; 3]),
        1.0
    );
    // The same with ddx = (0, 0, 0.5): (0 - 0.5 * 0.5) / 2 = -0.125 -> 1
    // texel -> lambda 0.
    assert_eq!(
        level_read(&v, [0.5, 0.0, 1.0], [0.0, 0.0, 0.5], [0.0; 3]),
        0.0
    );
    // -X at (-1, 0, 0.5): sc = +rz = 0.5, rc = rx = -1; the derivative
    // table takes drc/dx = -drx/dx, so ddx = (-1, 0, 0) gives drc = +1 and
    // ds_face/dx = (0 - 0.5 * 1) / 2 = -0.25 -> 2 texels -> lambda 1 (going
    // from (-1, 0, 0.5) to (-2, 0, 0.5) moves s from 0.75 toward 0.5).
    assert_eq!(
        level_read(&v, [-1.0, 0.0, 0.5], [-1.0, 0.0, 0.0], [0.0; 3]),
        1.0
    );
    // 4 texels: ddx = (1, 0, 0) at the +Z centre -> 0.5 -> lambda 2.
    assert_eq!(
        level_read(&v, [0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0; 3]),
        2.0
    );
}

#[test]
fn cube_array_layers_are_six_per_cube_plus_the_face() {
    // 2 cubes (12 faces), 2x2, texel = 10 * layer. Direction +X (face 0):
    // layer = 6 clamp(round(a), 0, 1) + 0.
    let desc = TextureDesc::cube(TextureFormat::R32Float, 2)
        .with_levels(1)
        .with_layers(TextureKind::CubeArray, 12);
    let v = view(r32f(desc, |_, layer, _, _| (10 * layer) as f32));
    let smp = SamplerHeader::default();
    let read = |p: &Profile, a: f32, d: [f32; 3]| {
        sample_at(&v, &smp, p, &at_lod(0.0), [d[0], d[1], d[2], a]).to_f32()[0]
    };
    let vk = Profile::VULKAN;
    assert_eq!(read(&vk, 1.0, [1.0, 0.1, 0.1]), 60.0, "cube 1, +X");
    assert_eq!(read(&vk, 1.0, [0.1, 0.1, -1.0]), 110.0, "cube 1, -Z");
    assert_eq!(read(&vk, 0.5, [1.0, 0.1, 0.1]), 0.0, "RNE(0.5) = 0");
    assert_eq!(
        read(&vk, 1.5, [1.0, 0.1, 0.1]),
        60.0,
        "RNE(1.5) = 2, clamped to 1"
    );
    assert_eq!(
        read(&vk, -4.0, [-1.0, 0.1, 0.1]),
        10.0,
        "clamped to cube 0, -X"
    );
    assert_eq!(
        read(&Profile::NV_SASS, 0.5, [1.0, 0.1, 0.1]),
        60.0,
        "floor(0.5 + 0.5) = 1"
    );
}
