//! Triangle meshes: the built-in shapes (plane, cube, UV sphere, quad) and
//! OBJ files read with `tobj`.
//!
//! Every mesh is indexed (`u32`) with one position, normal and UV per
//! vertex. Front faces wind counter-clockwise seen from the side the normal
//! points to (right-handed, as Vulkan and GL default to), so back-face
//! culling needs no per-mesh setting. UV `(0, 0)` is the first texel row's
//! left edge (the image's top-left). Transforms and materials live on the
//! scene's objects, not here.

use std::f32::consts::PI;
use std::path::Path;

use glam::{Vec2, Vec3};

use crate::error::{invalid, Error, Result};
use crate::load::MAX_SCENE_TRIANGLES;

/// An indexed triangle mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Vertex positions in object space.
    pub positions: Vec<Vec3>,
    /// Unit vertex normals, one per position.
    pub normals: Vec<Vec3>,
    /// Texture coordinates, one per position.
    pub uvs: Vec<Vec2>,
    /// Three indices per triangle, counter-clockwise front faces.
    pub indices: Vec<u32>,
}

/// The fewest sphere segments accepted.
pub const MIN_SEGMENTS: u32 = 3;
/// The most sphere segments (and rings) accepted.
pub const MAX_SEGMENTS: u32 = 1024;

impl Mesh {
    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    /// The unit square in the XZ plane (`-0.5..0.5`), normal +Y: 4 vertices,
    /// 2 triangles. `u` runs along +X, `v` along +Z.
    pub fn plane() -> Mesh {
        let p = [
            Vec3::new(-0.5, 0.0, -0.5),
            Vec3::new(0.5, 0.0, -0.5),
            Vec3::new(0.5, 0.0, 0.5),
            Vec3::new(-0.5, 0.0, 0.5),
        ];
        Mesh {
            positions: p.to_vec(),
            normals: vec![Vec3::Y; 4],
            uvs: vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(0.0, 1.0),
            ],
            // (-x,-z) -> (-x,+z) -> (+x,+z) is CCW seen from +Y.
            indices: vec![0, 3, 2, 0, 2, 1],
        }
    }

    /// The unit square in the XY plane (`-0.5..0.5`), normal +Z: 4 vertices,
    /// 2 triangles, UV `(0, 0)` at the top-left (-X, +Y) corner.
    pub fn quad() -> Mesh {
        Mesh::xy_quad(0.5)
    }

    /// The full-screen quad: positions are clip-space `-1..1` in X and Y at
    /// `z = 0` (draw it with an identity transform), normal +Z, UV `(0, 0)`
    /// at the top-left of the screen.
    pub fn fullscreen_quad() -> Mesh {
        Mesh::xy_quad(1.0)
    }

    fn xy_quad(h: f32) -> Mesh {
        Mesh {
            positions: vec![
                Vec3::new(-h, h, 0.0),
                Vec3::new(h, h, 0.0),
                Vec3::new(h, -h, 0.0),
                Vec3::new(-h, -h, 0.0),
            ],
            normals: vec![Vec3::Z; 4],
            uvs: vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(0.0, 1.0),
            ],
            // top-left -> bottom-left -> bottom-right is CCW seen from +Z.
            indices: vec![0, 3, 2, 0, 2, 1],
        }
    }

    /// The unit cube (`-0.5..0.5`): 24 vertices (4 per face, flat normals),
    /// 12 triangles; each face maps the whole `0..1` UV square.
    pub fn cube() -> Mesh {
        // (normal, u axis, v axis): u x v' = n with v' = -v (v runs down).
        let faces = [
            (Vec3::X, Vec3::NEG_Z, Vec3::NEG_Y),
            (Vec3::NEG_X, Vec3::Z, Vec3::NEG_Y),
            (Vec3::Y, Vec3::X, Vec3::Z),
            (Vec3::NEG_Y, Vec3::X, Vec3::NEG_Z),
            (Vec3::Z, Vec3::X, Vec3::NEG_Y),
            (Vec3::NEG_Z, Vec3::NEG_X, Vec3::NEG_Y),
        ];
        let mut m = Mesh::default();
        for (n, u, v) in faces {
            let base = m.positions.len() as u32;
            for (su, sv) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)] {
                let p = n * 0.5 + u * (su - 0.5) + v * (sv - 0.5);
                m.positions.push(p);
                m.normals.push(n);
                m.uvs.push(Vec2::new(su, sv));
            }
            m.indices
                .extend([base, base + 3, base + 2, base, base + 2, base + 1]);
        }
        m
    }

    /// A UV sphere of radius 0.5: `segments` around the Y axis and `rings`
    /// from pole to pole. `(segments + 1) * (rings + 1)` vertices (the seam
    /// and poles are duplicated for their UVs) and `2 * segments *
    /// (rings - 1)` triangles (one per segment at each pole cap).
    /// `u` runs with longitude, `v` from the north pole (0) to the south (1).
    pub fn sphere(segments: u32, rings: u32) -> Result<Mesh> {
        if !(MIN_SEGMENTS..=MAX_SEGMENTS).contains(&segments) {
            return Err(invalid(
                "segments",
                format!("{segments} is outside {MIN_SEGMENTS}..={MAX_SEGMENTS}"),
            ));
        }
        if !(2..=MAX_SEGMENTS).contains(&rings) {
            return Err(invalid(
                "rings",
                format!("{rings} is outside 2..={MAX_SEGMENTS}"),
            ));
        }
        let mut m = Mesh::default();
        for r in 0..=rings {
            let v = r as f32 / rings as f32;
            let theta = v * PI;
            let (st, ct) = theta.sin_cos();
            for s in 0..=segments {
                let u = s as f32 / segments as f32;
                let phi = u * 2.0 * PI;
                let (sp, cp) = phi.sin_cos();
                // Longitude grows towards -Z from +X so u increases to the
                // right seen from outside.
                let n = if r == 0 {
                    Vec3::Y
                } else if r == rings {
                    Vec3::NEG_Y
                } else {
                    Vec3::new(st * cp, ct, -st * sp).normalize()
                };
                m.positions.push(n * 0.5);
                m.normals.push(n);
                m.uvs.push(Vec2::new(u, v));
            }
        }
        let row = segments + 1;
        for r in 0..rings {
            for s in 0..segments {
                let a = r * row + s;
                let b = a + 1;
                let c = a + row;
                let d = c + 1;
                if r != 0 {
                    m.indices.extend([a, c, b]);
                }
                if r != rings - 1 {
                    m.indices.extend([b, c, d]);
                }
            }
        }
        Ok(m)
    }

    /// The same mesh seen from inside: every triangle's winding reversed
    /// and every normal negated.
    pub fn turned_inside_out(&self) -> Mesh {
        let mut m = self.clone();
        for t in m.indices.as_chunks_mut::<3>().0 {
            t.swap(1, 2);
        }
        for n in &mut m.normals {
            *n = -*n;
        }
        m
    }

    /// Loads every model of an OBJ file into one mesh (triangulated, one
    /// index per vertex). Missing normals are computed (area-weighted
    /// smooth normals); missing UVs are zero. OBJ's `v` runs up, so it is
    /// flipped to this crate's top-down convention. `key` names the file in
    /// errors.
    pub fn load_obj(path: &Path, key: &str) -> Result<Mesh> {
        #[allow(
            clippy::needless_update,
            reason = "tobj's `merging` and `reordering` features add fields; the update keeps this compiling if another crate turns them on"
        )]
        let opts = tobj::LoadOptions {
            single_index: true,
            triangulate: true,
            ignore_points: true,
            ignore_lines: true,
            ..Default::default()
        };
        let (models, _materials) = tobj::load_obj(path, &opts)
            .map_err(|source| Error::obj(key.to_owned(), path.to_owned(), source))?;
        // Counted before anything is copied: the file's triangles against
        // the scene's, and the copies reserved fallibly.
        let vertices: usize = models.iter().map(|m| m.mesh.positions.len() / 3).sum();
        let indices: usize = models.iter().map(|m| m.mesh.indices.len()).sum();
        if indices / 3 > MAX_SCENE_TRIANGLES as usize {
            return Err(invalid(
                key,
                format!(
                    "{}: {} triangles, more than the {MAX_SCENE_TRIANGLES} a scene may have",
                    path.display(),
                    indices / 3
                ),
            ));
        }
        let mut m = Mesh::default();
        let oom = |_| {
            invalid(
                key,
                format!("{}: out of memory for the mesh", path.display()),
            )
        };
        m.positions.try_reserve_exact(vertices).map_err(oom)?;
        m.normals.try_reserve_exact(vertices).map_err(oom)?;
        m.uvs.try_reserve_exact(vertices).map_err(oom)?;
        m.indices.try_reserve_exact(indices).map_err(oom)?;
        for model in models {
            let t = &model.mesh;
            let base = m.positions.len() as u32;
            let n = t.positions.len() / 3;
            let bad = |what: &str| invalid(key, format!("{}: {what}", path.display()));
            for i in 0..n {
                m.positions
                    .push(Vec3::from_slice(&t.positions[3 * i..3 * i + 3]));
                m.normals.push(if t.normals.len() == t.positions.len() {
                    Vec3::from_slice(&t.normals[3 * i..3 * i + 3]).normalize_or_zero()
                } else {
                    Vec3::ZERO
                });
                m.uvs.push(if t.texcoords.len() / 2 == n {
                    Vec2::new(t.texcoords[2 * i], 1.0 - t.texcoords[2 * i + 1])
                } else {
                    Vec2::ZERO
                });
            }
            if !t.positions.iter().all(|v| v.is_finite()) {
                return Err(bad("a position is not finite"));
            }
            if t.indices.len() % 3 != 0 {
                return Err(bad("face indices are not whole triangles"));
            }
            for &i in &t.indices {
                if i as usize >= n {
                    return Err(bad("a face index is out of range"));
                }
                m.indices.push(base + i);
            }
        }
        if m.indices.is_empty() {
            return Err(invalid(
                key,
                format!("{}: holds no triangles", path.display()),
            ));
        }
        m.fill_missing_normals();
        Ok(m)
    }

    /// Replaces zero normals with the area-weighted average of the face
    /// normals around the vertex (+Y where that is zero too).
    fn fill_missing_normals(&mut self) {
        if self.normals.iter().all(|n| *n != Vec3::ZERO) {
            return;
        }
        let mut acc = vec![Vec3::ZERO; self.positions.len()];
        for t in self.indices.as_chunks::<3>().0 {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
            let n = (self.positions[b] - self.positions[a])
                .cross(self.positions[c] - self.positions[a]);
            for i in [a, b, c] {
                acc[i] += n;
            }
        }
        for (n, a) in self.normals.iter_mut().zip(acc) {
            if *n == Vec3::ZERO {
                *n = a.try_normalize().unwrap_or(Vec3::Y);
            }
        }
    }
}
