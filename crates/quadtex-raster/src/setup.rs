//! Triangle setup: clip-space vertices to screen-space edge functions and
//! attribute planes.
//!
//! Order: transform -> reject non-finite vertices -> clip against the near
//! (`z >= 0`) and far (`z <= w`) planes, `w > 0`, and a guard band of
//! [`GUARD_PX`] pixels around the viewport centre on x and y -> viewport
//! transform -> clamp to [`COORD_LIMIT_PX`] -> snap to [`SUB_BITS`]
//! sub-pixel bits -> cull by winding -> edge functions with the top-left
//! rule folded into their constants -> screen-space planes of `1/w`, `z/w`
//! and every `attribute/w` for perspective-correct interpolation.
//!
//! # Why the fixed-point arithmetic cannot overflow
//!
//! Every integer the rasterizer computes is bounded by three constants:
//! the target extent (at most [`MAX_TARGET_EXTENT`] = 2^15 pixels, checked
//! by the renderer before setup), the vertex coordinate limit
//! [`COORD_LIMIT_PX`] = 2^16 pixels and [`SUB_BITS`] = 8. Clipping against
//! the guard band puts every vertex within `max(GUARD_PX, extent / 2)` of
//! the viewport centre, that is inside `[-2^13, 2^15 + 2^13]`, well inside
//! the limit; the clamp to the limit only catches what floating-point
//! clipping of ill-conditioned input (coordinates near `f32::MAX`, `w` near
//! zero) leaves outside. So, in sub-pixel units:
//!
//! - vertex coordinates: `|x|, |y| <= 2^16 * 2^8 = 2^24`;
//! - edge deltas, hence the `a` and `b` coefficients: `<= 2^25`;
//! - `c = dy * xa - dx * ya (- 1)`: `<= 2 * 2^25 * 2^24 + 1 < 2^51`;
//! - twice the area, `dx1 * dy2 - dy1 * dx2`: `<= 2 * 2^50 = 2^51`;
//! - an edge value at a sample position `p` (`0 <= p < (2^15 + 2) * 2^8
//!   < 2^24`), `a * px + b * py + c`: `< 2^49 + 2^49 + 2^51 < 2^52`, and the
//!   per-quad steps of `render_tile` are smaller still.
//!
//! Everything stays below 2^52, far inside i64 (and exactly representable
//! in f64, where the attribute planes are computed). [`BOUNDS`] checks these
//! figures at compile time.
//!
//! # Precision of the clipper
//!
//! The clipper works in f64 on the f32 clip coordinates, so no plane
//! distance or cut overflows. A cut is the weighted mean of its edge's ends
//! with positive weights, then solved exactly for the coordinate of the
//! plane it lies on (`z = 0`, `w = 1e-7`, `x = gx * w`, ...). A guard-band
//! cut takes its screen position from the intersection of the edge's own
//! line with the plane's, both exact products of f32 values in f64, so an
//! edge between two vertices near `f32::MAX` crosses the viewport where it
//! should. What stays approximate is a near, far or `w` cut of an edge
//! whose two ends are both far outside the guard band in x or y: its x and
//! y are means of huge values, exact to their f64 ulps only, and once those
//! ulps divided by the cut's `w` pass a sub-pixel the cut lands off its
//! edge (bounded by the clamp to [`COORD_LIMIT_PX`], never overflowing).

use glam::Vec4;

use crate::error::{Error, Result, MAX_TARGET_EXTENT};
use crate::pipeline::{CullMode, DrawCall};

/// Sub-pixel bits of the snapped vertex positions.
pub(crate) const SUB_BITS: u32 = 8;
/// One pixel in fixed point.
pub(crate) const SUB: i64 = 1 << SUB_BITS;
/// Half-width of the guard band, in pixels from the viewport centre: a
/// triangle is clipped on x and y only where it leaves this square (or the
/// viewport, when the viewport is the larger).
const GUARD_PX: f32 = 8192.0;
/// Screen coordinates of set-up vertices are clamped to
/// `-COORD_LIMIT_PX..=COORD_LIMIT_PX` pixels before snapping; see the module
/// docs for the bounds this gives.
const COORD_LIMIT_PX: f32 = 65536.0;

/// The largest magnitude of any fixed-point value setup and rasterization
/// compute, derived from the limits as the module docs do; checked against
/// i64 at compile time.
const BOUNDS: i64 = {
    let coord = (COORD_LIMIT_PX as i64) * SUB; // 2^24
    let delta = 2 * coord; // 2^25
    let c = 2 * delta * coord + 1;
    let area = 2 * delta * delta;
    let sample = (MAX_TARGET_EXTENT as i64 + 2) * SUB;
    let edge = 2 * delta * sample + c;
    assert!(GUARD_PX as i64 + MAX_TARGET_EXTENT as i64 <= COORD_LIMIT_PX as i64);
    assert!(c < 1 << 52 && area < 1 << 52 && edge < 1 << 52);
    edge
};
const _: () = assert!(BOUNDS < i64::MAX / 1024);

/// A quantity linear in screen space: `v0 + dx * (x - x0) + dy * (y - y0)`
/// with `(x0, y0)` the triangle's first vertex.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Plane {
    pub(crate) v0: f32,
    pub(crate) dx: f32,
    pub(crate) dy: f32,
}

impl Plane {
    #[inline(always)]
    pub(crate) fn at(&self, dx: f32, dy: f32) -> f32 {
        self.v0 + self.dx * dx + self.dy * dy
    }
}

/// A set-up triangle, ready for binning and rasterization.
#[derive(Clone, Debug)]
pub(crate) struct Tri {
    /// Index of its draw in the frame.
    pub(crate) draw: usize,
    /// Counter-clockwise in NDC.
    pub(crate) front: bool,
    /// Edge functions `a * x + b * y + c` over fixed-point sample positions;
    /// a sample is inside when all three are `>= 0` (top-left rule folded
    /// into `c`).
    pub(crate) a: [i64; 3],
    pub(crate) b: [i64; 3],
    pub(crate) c: [i64; 3],
    /// Pixel bounds `[x0, y0, x1, y1)`, clamped to the target.
    pub(crate) bbox: [u32; 4],
    /// Screen position of the first vertex (the planes' origin).
    pub(crate) origin: [f32; 2],
    /// `1/w`.
    pub(crate) inv_w: Plane,
    /// NDC depth `z/w`.
    pub(crate) z: Plane,
    /// `attribute/w` per attribute.
    pub(crate) attrs: Box<[Plane]>,
}

/// Sets up every triangle of `draw` (frame index `index`) on a
/// `width x height` target (each at most [`MAX_TARGET_EXTENT`]), appending
/// to `out` in index order. The only error is memory for `out` that the
/// allocator refuses.
pub(crate) fn setup_draw(
    draw: &DrawCall,
    index: usize,
    width: u32,
    height: u32,
    out: &mut Vec<Tri>,
) -> Result<()> {
    let mesh = &*draw.mesh;
    let n = mesh.attribute_count;
    let stride = 4 + n;
    let gx = f64::from((2.0 * GUARD_PX / width.max(1) as f32).max(1.0));
    let gy = f64::from((2.0 * GUARD_PX / height.max(1) as f32).max(1.0));
    // Plane coefficients on (x, y, z, w) and a constant, then the index of
    // the coordinate a cut solves the plane for (its coefficient is +-1).
    let planes: [[f64; 6]; 7] = [
        [0.0, 0.0, 1.0, 0.0, 0.0, 2.0],
        [0.0, 0.0, -1.0, 1.0, 0.0, 2.0],
        [0.0, 0.0, 0.0, 1.0, -1e-7, 3.0],
        [-1.0, 0.0, 0.0, gx, 0.0, 0.0],
        [1.0, 0.0, 0.0, gx, 0.0, 0.0],
        [0.0, -1.0, 0.0, gy, 0.0, 1.0],
        [0.0, 1.0, 0.0, gy, 0.0, 1.0],
    ];
    // In f64: products of f32 clip coordinates with the guard factors
    // cannot overflow there (an f32 near `f32::MAX` times 2^14 would).
    let dist = |p: &[f64; 6], v: &[f32]| {
        p[0] * f64::from(v[0])
            + p[1] * f64::from(v[1])
            + p[2] * f64::from(v[2])
            + p[3] * f64::from(v[3])
            + p[4]
    };
    let mut poly: Vec<f32> = Vec::new();
    let mut next: Vec<f32> = Vec::new();
    'tri: for t in mesh.indices.as_chunks::<3>().0 {
        poly.clear();
        for &i in t {
            let Some(p) = mesh.position4(i as usize) else {
                continue 'tri;
            };
            let clip: Vec4 = draw.transform * p;
            if !clip.is_finite() {
                continue 'tri;
            }
            poly.extend_from_slice(&clip.to_array());
            let a = mesh.vertex_attributes(i as usize);
            for k in 0..n {
                let v = a.get(k).copied().unwrap_or(0.0);
                // A non-finite attribute would poison the planes; read 0.
                poly.push(if v.is_finite() { v } else { 0.0 });
            }
        }
        let mut inside_all = true;
        for p in &planes {
            let d: [f64; 3] = std::array::from_fn(|v| dist(p, &poly[v * stride..]));
            if d.iter().all(|&d| d < 0.0) {
                continue 'tri;
            }
            if d.iter().any(|&d| d < 0.0) {
                inside_all = false;
            }
        }
        if !inside_all {
            // Sutherland-Hodgman against each plane.
            for p in &planes {
                let count = poly.len() / stride;
                if count < 3 {
                    continue 'tri;
                }
                next.clear();
                for v in 0..count {
                    let cur = &poly[v * stride..(v + 1) * stride];
                    let nxt_i = (v + 1) % count;
                    let nxt = &poly[nxt_i * stride..(nxt_i + 1) * stride];
                    let dc = dist(p, cur);
                    let dn = dist(p, nxt);
                    if dc >= 0.0 {
                        next.extend_from_slice(cur);
                    }
                    if (dc >= 0.0) != (dn >= 0.0) {
                        // Always from the inside vertex, so an edge shared
                        // by two triangles (walked in opposite directions)
                        // is cut at bit-identical points: no cracks.
                        let (from, to, df, dt) = if dc >= 0.0 {
                            (cur, nxt, dc, dn)
                        } else {
                            (nxt, cur, dn, dc)
                        };
                        // The cut as a weighted mean, `df >= 0 > dt`: both
                        // weights are positive, so each coordinate's
                        // rounding error is relative to the weighted
                        // magnitudes. A coordinate already inside a guard
                        // plane (`|x| <= gx * w`) stays inside it up to a
                        // few ulps of `gx * w`, however large or small the
                        // two ends' `w` are; `from + (to - from) * s` in
                        // f32 would err by ulps of the ends instead (and
                        // `to - from` could overflow).
                        let (wf, wt) = (-dt / (df - dt), df / (df - dt));
                        let at = next.len();
                        for k in 0..stride {
                            let c = f64::from(from[k]) * wf + f64::from(to[k]) * wt;
                            next.push(c as f32);
                        }
                        let k = p[5] as usize;
                        let cut = &mut next[at..at + 4];
                        if k < 2 {
                            guard_cut(cut, from, to, p);
                        }
                        // The cut lies on the plane: solve the plane for its
                        // own coordinate (x = gx * w, z = 0, ...) rather than
                        // keep the mean's, which cancels catastrophically
                        // when both ends are huge (x from -1e30 to 1e30).
                        let rest: f64 = (0..4)
                            .filter(|&j| j != k)
                            .map(|j| p[j] * f64::from(cut[j]))
                            .sum();
                        cut[k] = (-(rest + p[4]) / p[k]) as f32;
                    }
                }
                std::mem::swap(&mut poly, &mut next);
            }
        }
        let count = poly.len() / stride;
        for k in 1..count.saturating_sub(1) {
            let v = [
                &poly[..stride],
                &poly[k * stride..(k + 1) * stride],
                &poly[(k + 1) * stride..(k + 2) * stride],
            ];
            if let Some(tri) = setup_tri(v, n, index, draw.state.cull, width, height) {
                if out.len() == out.capacity() {
                    // Doubling, as `push` would, but fallibly.
                    let more = out.len().max(64);
                    out.try_reserve(more).map_err(|_| {
                        Error::out_of_memory(
                            "triangles",
                            ((out.len() + more) * std::mem::size_of::<Tri>()) as u64,
                        )
                    })?;
                }
                out.push(tri);
            }
        }
    }
    Ok(())
}

/// The cut of the edge `from -> to` by the guard plane `p` (x or y),
/// placed on the edge's own line: the weighted mean gets the cut's `w`
/// (and depth and attributes) right, but its screen position is a
/// difference of the ends' coordinates and loses everything when both are
/// huge. In the projective plane of `(x, y, w)` the edge's line is
/// `from x to` (products of f32 values, exact in f64) and the guard
/// plane's is `(p.x, p.y, p.w)`; their cross product is the cut's
/// direction, so its NDC position comes from two short products instead.
/// `cut` keeps the mean's values where that direction degenerates.
fn guard_cut(cut: &mut [f32], from: &[f32], to: &[f32], p: &[f64; 6]) {
    fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    }
    let h = |v: &[f32]| [f64::from(v[0]), f64::from(v[1]), f64::from(v[3])];
    let q = cross(cross(h(from), h(to)), [p[0], p[1], p[3]]);
    let w = f64::from(cut[3]);
    let (x, y) = (q[0] / q[2] * w, q[1] / q[2] * w);
    if x.is_finite() && y.is_finite() {
        cut[0] = x as f32;
        cut[1] = y as f32;
    }
}

/// `floor(a / b)` for positive `b`.
fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

/// One clipped triangle (rows of clip position and attributes) to screen.
fn setup_tri(
    mut v: [&[f32]; 3],
    n: usize,
    draw: usize,
    cull: CullMode,
    width: u32,
    height: u32,
) -> Option<Tri> {
    let to_fixed = |row: &[f32]| -> Option<(i64, i64)> {
        let iw = 1.0 / row[3];
        let sx = (row[0] * iw * 0.5 + 0.5) * width as f32;
        let sy = (0.5 - row[1] * iw * 0.5) * height as f32;
        if !(sx.is_finite() && sy.is_finite()) {
            return None;
        }
        // Clipping leaves every vertex inside the guard band; the clamp
        // bounds what rounding on ill-conditioned input leaves outside, so
        // that no fixed-point product below can overflow (module docs).
        let snap = |v: f32| (v.clamp(-COORD_LIMIT_PX, COORD_LIMIT_PX) * SUB as f32).round() as i64;
        Some((snap(sx), snap(sy)))
    };
    let mut p = [to_fixed(v[0])?, to_fixed(v[1])?, to_fixed(v[2])?];
    let area = (p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[1].1 - p[0].1) * (p[2].0 - p[0].0);
    if area == 0 {
        return None;
    }
    // Screen y points down, so counter-clockwise in NDC is a negative area.
    let front = area < 0;
    match cull {
        CullMode::None => {}
        CullMode::Back if !front => return None,
        CullMode::Front if front => return None,
        CullMode::Back | CullMode::Front => {}
    }
    if area < 0 {
        p.swap(1, 2);
        v.swap(1, 2);
    }
    let mut a = [0i64; 3];
    let mut b = [0i64; 3];
    let mut c = [0i64; 3];
    for (e, (i, j)) in [(1, 2), (2, 0), (0, 1)].into_iter().enumerate() {
        let (xa, ya) = p[i];
        let (xb, yb) = p[j];
        let (dx, dy) = (xb - xa, yb - ya);
        a[e] = -dy;
        b[e] = dx;
        c[e] = dy * xa - dx * ya;
        // Top-left rule: with the interior on the positive side and y down,
        // a top edge runs +x with dy = 0 and a left edge runs -y.
        let top_left = (dy == 0 && dx > 0) || dy < 0;
        if !top_left {
            c[e] -= 1;
        }
    }
    let xs = [p[0].0, p[1].0, p[2].0];
    let ys = [p[0].1, p[1].1, p[2].1];
    let clampx = |v: i64| v.clamp(0, width as i64) as u32;
    let clampy = |v: i64| v.clamp(0, height as i64) as u32;
    let bbox = [
        clampx(floor_div(*xs.iter().min()?, SUB)),
        clampy(floor_div(*ys.iter().min()?, SUB)),
        clampx(floor_div(*xs.iter().max()?, SUB) + 1),
        clampy(floor_div(*ys.iter().max()?, SUB) + 1),
    ];
    if bbox[0] >= bbox[2] || bbox[1] >= bbox[3] {
        return None;
    }
    // Planes over the snapped positions, in f64 then stored as f32.
    let fx: [f64; 3] = xs.map(|x| x as f64 / SUB as f64);
    let fy: [f64; 3] = ys.map(|y| y as f64 / SUB as f64);
    let (dx1, dy1, dx2, dy2) = (fx[1] - fx[0], fy[1] - fy[0], fx[2] - fx[0], fy[2] - fy[0]);
    let det = dx1 * dy2 - dx2 * dy1;
    let plane = |q: [f64; 3]| -> Plane {
        let (dq1, dq2) = (q[1] - q[0], q[2] - q[0]);
        Plane {
            v0: q[0] as f32,
            dx: ((dq1 * dy2 - dq2 * dy1) / det) as f32,
            dy: ((dq2 * dx1 - dq1 * dx2) / det) as f32,
        }
    };
    let iw: [f64; 3] = std::array::from_fn(|i| 1.0 / v[i][3] as f64);
    let inv_w = plane(iw);
    let z = plane(std::array::from_fn(|i| v[i][2] as f64 * iw[i]));
    let attrs = (0..n)
        .map(|k| plane(std::array::from_fn(|i| v[i][4 + k] as f64 * iw[i])))
        .collect();
    Some(Tri {
        draw,
        front,
        a,
        b,
        c,
        bbox,
        origin: [fx[0] as f32, fy[0] as f32],
        inv_w,
        z,
        attrs,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use glam::{Mat4, Vec3};

    use super::*;
    use crate::mesh::Mesh;
    use crate::shader::FragmentShader;

    fn tris(positions: Vec<Vec3>, cull: CullMode) -> Vec<Tri> {
        let n = positions.len() as u32;
        let mesh = Mesh {
            positions,
            indices: (0..n).collect(),
            ..Default::default()
        };
        let shader: Arc<dyn FragmentShader> =
            Arc::new(|_: &mut crate::QuadCtx<'_>, _: &mut [[f32; 4]; 4]| {});
        let mut draw = DrawCall::new(Arc::new(mesh), Mat4::IDENTITY, shader);
        draw.state.cull = cull;
        let mut out = Vec::new();
        setup_draw(&draw, 0, 16, 16, &mut out).unwrap();
        out
    }

    fn inside(t: &Tri, x: i64, y: i64) -> bool {
        (0..3).all(|e| t.a[e] * x + t.b[e] * y + t.c[e] >= 0)
    }

    #[test]
    fn top_edges_own_their_samples_and_bottom_edges_do_not() {
        // NDC y = 0 is screen row 8.0: a triangle with a horizontal edge on
        // y = 8.0 (its top) and one with it as its bottom.
        let below = &tris(
            vec![
                Vec3::new(-1.0, 0.0, 0.5),
                Vec3::new(1.0, 0.0, 0.5),
                Vec3::new(0.0, -1.0, 0.5),
            ],
            CullMode::None,
        )[0];
        let above = &tris(
            vec![
                Vec3::new(-1.0, 0.0, 0.5),
                Vec3::new(1.0, 0.0, 0.5),
                Vec3::new(0.0, 1.0, 0.5),
            ],
            CullMode::None,
        )[0];
        let (x, y) = (8 * SUB, 8 * SUB);
        assert!(inside(below, x, y));
        assert!(!inside(above, x, y));
        assert!(inside(above, x, y - 1));
    }

    #[test]
    fn near_clipping_splits_a_crossing_triangle_and_drops_one_behind() {
        // One vertex in front of z = 0: one triangle; two in front: two.
        let one = tris(
            vec![
                Vec3::new(-0.5, -0.5, -1.0),
                Vec3::new(0.5, -0.5, 0.5),
                Vec3::new(0.0, 0.5, -1.0),
            ],
            CullMode::None,
        );
        assert_eq!(one.len(), 1);
        let two = tris(
            vec![
                Vec3::new(-0.5, -0.5, 0.5),
                Vec3::new(0.5, -0.5, 0.5),
                Vec3::new(0.0, 0.5, -1.0),
            ],
            CullMode::None,
        );
        assert_eq!(two.len(), 2);
        let none = tris(
            vec![
                Vec3::new(-0.5, -0.5, -0.5),
                Vec3::new(0.5, -0.5, -0.5),
                Vec3::new(0.0, 0.5, -1.0),
            ],
            CullMode::None,
        );
        assert!(none.is_empty());
        let nan = tris(
            vec![
                Vec3::NAN,
                Vec3::new(0.5, -0.5, 0.5),
                Vec3::new(0.0, 0.5, 0.5),
            ],
            CullMode::None,
        );
        assert!(nan.is_empty());
    }

    #[test]
    fn back_faces_are_clockwise_in_ndc() {
        let ccw = vec![
            Vec3::new(-0.5, -0.5, 0.5),
            Vec3::new(0.5, -0.5, 0.5),
            Vec3::new(0.0, 0.5, 0.5),
        ];
        let cw: Vec<Vec3> = ccw.iter().rev().copied().collect();
        assert!(tris(ccw.clone(), CullMode::Back)[0].front);
        assert!(tris(cw.clone(), CullMode::Back).is_empty());
        assert!(tris(ccw, CullMode::Front).is_empty());
        assert!(!tris(cw, CullMode::Front)[0].front);
    }
}
