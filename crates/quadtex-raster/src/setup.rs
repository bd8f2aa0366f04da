//! Triangle setup: clip-space vertices to screen-space edge functions and
//! attribute planes.
//!
//! Order: transform -> reject non-finite vertices -> clip against the near
//! (`z >= 0`) and far (`z <= w`) planes, `w > 0`, and a guard band of
//! [`GUARD_PX`] pixels around the viewport centre on x and y (so fixed-point
//! products stay far inside i64) -> viewport transform -> snap to
//! [`SUB_BITS`] sub-pixel bits -> cull by winding -> edge functions with the
//! top-left rule folded into their constants -> screen-space planes of
//! `1/w`, `z/w` and every `attribute/w` for perspective-correct
//! interpolation.

use glam::Vec4;

use crate::pipeline::{CullMode, DrawCall};

/// Sub-pixel bits of the snapped vertex positions.
pub(crate) const SUB_BITS: u32 = 8;
/// One pixel in fixed point.
pub(crate) const SUB: i64 = 1 << SUB_BITS;
/// Half-width of the guard band, in pixels from the viewport centre.
const GUARD_PX: f32 = 8192.0;

/// The largest snapped coordinate magnitude a triangle may have, in fixed
/// point. Targets are at most `MAX_TARGET_EXTENT` = 2^14 pixels a side and
/// the guard band keeps vertices within `GUARD_PX` of the centre (or the
/// target itself when that is wider), so in-band coordinates stay below
/// (2^14 + 2^13) * 2^8 < 2^23. Then the edge terms bound: coordinate
/// differences below 2^24, their products (the area, `c`) below 2^49, and
/// an edge value over the target below 2^24 * 2^23 * 2 + 2^49 < 2^50: far
/// inside i64. A triangle past this bound (impossible within the limits)
/// is dropped rather than risk overflow.
const MAX_FIXED: i64 = 1 << 24;

/// A quantity linear in screen space: `v0 + dx * (x - x0) + dy * (y - y0)`
/// with `(x0, y0)` the triangle's first vertex.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Plane {
    pub(crate) v0: f32,
    pub(crate) dx: f32,
    pub(crate) dy: f32,
}

impl Plane {
    #[inline]
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
/// `width x height` target, appending to `out` in index order.
pub(crate) fn setup_draw(
    draw: &DrawCall,
    index: usize,
    width: u32,
    height: u32,
    out: &mut Vec<Tri>,
) {
    let mesh = &*draw.mesh;
    let n = mesh.attribute_count;
    let stride = 4 + n;
    let gx = (2.0 * GUARD_PX / width.max(1) as f32).max(1.0);
    let gy = (2.0 * GUARD_PX / height.max(1) as f32).max(1.0);
    // Plane coefficients on (x, y, z, w) and a constant.
    let planes: [[f32; 5]; 7] = [
        [0.0, 0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, -1.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0, -1e-7],
        [-1.0, 0.0, 0.0, gx, 0.0],
        [1.0, 0.0, 0.0, gx, 0.0],
        [0.0, -1.0, 0.0, gy, 0.0],
        [0.0, 1.0, 0.0, gy, 0.0],
    ];
    let dist =
        |p: &[f32; 5], v: &[f32]| p[0] * v[0] + p[1] * v[1] + p[2] * v[2] + p[3] * v[3] + p[4];
    let mut poly: Vec<f32> = Vec::new();
    let mut next: Vec<f32> = Vec::new();
    'tri: for t in mesh.indices.as_chunks::<3>().0 {
        poly.clear();
        for &i in t {
            let Some(p) = mesh.positions.get(i as usize) else {
                continue 'tri;
            };
            let clip: Vec4 = draw.transform * p.extend(1.0);
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
            let d: [f32; 3] = std::array::from_fn(|v| dist(p, &poly[v * stride..]));
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
                        let s = df / (df - dt);
                        for k in 0..stride {
                            next.push(from[k] + (to[k] - from[k]) * s);
                        }
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
                out.push(tri);
            }
        }
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
        Some((
            (sx * SUB as f32).round() as i64,
            (sy * SUB as f32).round() as i64,
        ))
    };
    let mut p = [to_fixed(v[0])?, to_fixed(v[1])?, to_fixed(v[2])?];
    let far = |c: i64| c.unsigned_abs() > MAX_FIXED as u64;
    if p.iter().any(|&(x, y)| far(x) || far(y)) {
        return None;
    }
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
        setup_draw(&draw, 0, 16, 16, &mut out);
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
