//! Meshes: positions, per-vertex float attributes and triangle indices, and
//! the standard attribute layout the built-in shaders read.
//!
//! What lives here: [`Mesh`] and a few builders. What does not: transforms
//! to clip space (a [`DrawCall`](crate::DrawCall) carries its matrix) and
//! anything about shading.

use glam::{Mat3, Mat4, Vec2, Vec3, Vec4};

/// Attribute index of the texture coordinate `u` in the standard layout
/// (`v` follows at `ATTR_UV + 1`).
pub const ATTR_UV: usize = 0;
/// Attribute index of the normal's `x` in the standard layout (`y`, `z`
/// follow).
pub const ATTR_NORMAL: usize = 2;
/// Attribute index of the world position's `x` in the standard layout (`y`,
/// `z` follow).
pub const ATTR_WORLD: usize = 5;
/// Attributes per vertex in the standard layout: uv (2), normal (3), world
/// position (3).
pub const STD_ATTRS: usize = 8;

/// An indexed triangle mesh.
///
/// `attributes` holds `attribute_count` floats per vertex, vertex after
/// vertex; they are interpolated perspective-correctly and reach the shader
/// as [`QuadCtx::attr`](crate::QuadCtx::attr). Indices out of range drop
/// their triangle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Vertex positions; a draw's transform takes them to clip space.
    pub positions: Vec<Vec3>,
    /// The homogeneous fourth coordinate of each position (`w`); empty
    /// means 1 for every vertex. A draw's transform applies to `(x, y, z,
    /// w)`, so with [`Mat4::IDENTITY`] the positions are clip coordinates
    /// given directly ([`Mesh::clip_space`]). A vertex past the end of a
    /// non-empty `w` drops its triangles, as an index out of range does.
    pub w: Vec<f32>,
    /// Floats per vertex in `attributes`.
    pub attribute_count: usize,
    /// `attribute_count` floats per vertex.
    pub attributes: Vec<f32>,
    /// Three indices per triangle.
    pub indices: Vec<u32>,
}

impl Mesh {
    /// A mesh in the standard layout ([`STD_ATTRS`]): the world position
    /// attribute is the position itself.
    pub fn from_std(
        positions: Vec<Vec3>,
        uvs: &[Vec2],
        normals: &[Vec3],
        indices: Vec<u32>,
    ) -> Mesh {
        let mut attributes = Vec::with_capacity(positions.len() * STD_ATTRS);
        for (i, p) in positions.iter().enumerate() {
            let uv = uvs.get(i).copied().unwrap_or(Vec2::ZERO);
            let n = normals.get(i).copied().unwrap_or(Vec3::Z);
            attributes.extend_from_slice(&[uv.x, uv.y, n.x, n.y, n.z, p.x, p.y, p.z]);
        }
        Mesh {
            positions,
            w: Vec::new(),
            attribute_count: STD_ATTRS,
            attributes,
            indices,
        }
    }

    /// A mesh of clip-space positions `(x, y, z, w)` (draw it with
    /// [`Mat4::IDENTITY`]) with `attribute_count` floats per vertex in
    /// `attributes` and three indices per triangle: vertices as a GPU's
    /// vertex stage hands them to the rasterizer.
    pub fn clip_space(
        positions: Vec<Vec4>,
        attribute_count: usize,
        attributes: Vec<f32>,
        indices: Vec<u32>,
    ) -> Mesh {
        Mesh {
            positions: positions.iter().map(|p| p.truncate()).collect(),
            w: positions.iter().map(|p| p.w).collect(),
            attribute_count,
            attributes,
            indices,
        }
    }

    /// Vertex `i`'s position as `(x, y, z, w)` (`w` 1 when the mesh has no
    /// `w`); `None` past the end of the positions or of a non-empty `w`.
    pub fn position4(&self, i: usize) -> Option<Vec4> {
        let p = self.positions.get(i)?;
        let w = if self.w.is_empty() {
            1.0
        } else {
            *self.w.get(i)?
        };
        Some(p.extend(w))
    }

    /// A rectangle in the plane `z = 0` from `min` to `max`, normal `+Z`,
    /// uv (0, 0) at `(min.x, max.y)` and (1, 1) at `(max.x, min.y)` (so an
    /// identity-ish camera shows the texture upright); counter-clockwise seen
    /// from `+Z`. Standard layout.
    pub fn rect(min: Vec2, max: Vec2) -> Mesh {
        let positions = vec![
            Vec3::new(min.x, min.y, 0.0),
            Vec3::new(max.x, min.y, 0.0),
            Vec3::new(max.x, max.y, 0.0),
            Vec3::new(min.x, max.y, 0.0),
        ];
        let uvs = [
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 0.0),
        ];
        Mesh::from_std(positions, &uvs, &[Vec3::Z; 4], vec![0, 1, 2, 0, 2, 3])
    }

    /// A unit cube centred on the origin (side 2), 24 vertices with face
    /// normals and per-face uvs, counter-clockwise seen from outside.
    /// Standard layout.
    pub fn cube() -> Mesh {
        let mut positions = Vec::with_capacity(24);
        let mut uvs = Vec::with_capacity(24);
        let mut normals = Vec::with_capacity(24);
        let mut indices = Vec::with_capacity(36);
        for n in [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z] {
            // Two tangents with u x v = n, so the winding is CCW from outside.
            let u = if n.y.abs() > 0.5 {
                Vec3::X
            } else {
                Vec3::Y.cross(n)
            };
            let v = n.cross(u);
            let base = positions.len() as u32;
            for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                positions.push(n + u * a + v * b);
                uvs.push(Vec2::new((a + 1.0) * 0.5, (1.0 - b) * 0.5));
                normals.push(n);
            }
            indices.extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
        }
        Mesh::from_std(positions, &uvs, &normals, indices)
    }

    /// A UV sphere of radius 1 with `rings` x `segments` quads (each at
    /// least 3), counter-clockwise from outside. Standard layout.
    pub fn sphere(rings: u32, segments: u32) -> Mesh {
        let rings = rings.max(3);
        let segments = segments.max(3);
        let mut positions = Vec::new();
        let mut uvs = Vec::new();
        for r in 0..=rings {
            let v = r as f32 / rings as f32;
            let theta = v * std::f32::consts::PI;
            for s in 0..=segments {
                let u = s as f32 / segments as f32;
                let phi = u * std::f32::consts::TAU;
                positions.push(Vec3::new(
                    theta.sin() * phi.cos(),
                    theta.cos(),
                    -theta.sin() * phi.sin(),
                ));
                uvs.push(Vec2::new(u, v));
            }
        }
        let mut indices = Vec::new();
        let row = segments + 1;
        for r in 0..rings {
            for s in 0..segments {
                let a = r * row + s;
                let b = a + row;
                indices.extend_from_slice(&[a, b, a + 1, a + 1, b, b + 1]);
            }
        }
        let normals = positions.clone();
        Mesh::from_std(positions, &uvs, &normals, indices)
    }

    /// This standard-layout mesh with `model` applied to its positions,
    /// normals (inverse transpose) and world positions. Meshes not in the
    /// standard layout get only their positions moved.
    pub fn transformed(&self, model: Mat4) -> Mesh {
        let mut m = self.clone();
        if m.w.is_empty() {
            for p in &mut m.positions {
                *p = model.transform_point3(*p);
            }
        } else {
            for (p, w) in m.positions.iter_mut().zip(m.w.iter_mut()) {
                let q = model * p.extend(*w);
                (*p, *w) = (q.truncate(), q.w);
            }
        }
        if m.attribute_count == STD_ATTRS {
            let nm = Mat3::from_mat4(model).inverse().transpose();
            for (i, a) in m
                .attributes
                .as_chunks_mut::<STD_ATTRS>()
                .0
                .iter_mut()
                .enumerate()
            {
                let n = (nm * Vec3::new(a[2], a[3], a[4])).normalize_or_zero();
                a[2..5].copy_from_slice(&n.to_array());
                if let Some(p) = m.positions.get(i) {
                    a[5..8].copy_from_slice(&p.to_array());
                }
            }
        }
        m
    }

    /// Number of whole triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// The attributes of vertex `i` (empty past the end, or where
    /// `i * attribute_count` overflows).
    pub fn vertex_attributes(&self, i: usize) -> &[f32] {
        let n = self.attribute_count;
        i.checked_mul(n)
            .and_then(|a| self.attributes.get(a..a.checked_add(n)?))
            .unwrap_or(&[])
    }
}
