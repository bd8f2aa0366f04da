//! The built-in fragment shaders, by the names scene files use: [`Unlit`],
//! [`Lambert`], [`Reflect`], [`Shadowed`], [`MipHeatmap`], [`EdgeDetect`],
//! [`Terrain`], [`VolumeSlice`] and [`MsaaResolve`].
//!
//! Each takes its textures as [`TextureBinding`]s (a `TextureHeader` and a
//! `SamplerHeader`) plus plain parameters in public fields, and reads the
//! standard attribute layout ([`ATTR_UV`], [`ATTR_NORMAL`], [`ATTR_WORLD`])
//! unless a field says otherwise. Colours are linear RGBA.

use std::sync::Arc;

use glam::{Mat4, Vec3, Vec4};
use quadtex_format::{Texture, TextureKind};
use quadtex_sampler::{
    AddressMode, BorderColor, CompareOp, FetchArgs, Filter, GatherArgs, Lod, PlanarOut, QuadCoords,
    SampleArgs, SamplerHeader, TextureHeader,
};

use crate::mesh::{ATTR_NORMAL, ATTR_UV, ATTR_WORLD};
use crate::shader::{
    texels_f32, FragmentShader, QuadBatch, QuadCtx, TextureBinding, MAX_BATCH_QUADS,
};

/// Reads attributes `k..k + 3` as one `Vec3` per lane.
fn vec3s(q: &QuadCtx<'_>, k: usize) -> [Vec3; 4] {
    let (x, y, z) = (q.attr(k), q.attr(k + 1), q.attr(k + 2));
    std::array::from_fn(|l| Vec3::new(x[l], y[l], z[l]))
}

/// `texture(uv) * tint`; a cube texture is read along the object-space
/// position instead (a skybox).
#[derive(Clone, Debug)]
pub struct Unlit {
    bindings: Vec<TextureBinding>,
    /// Multiplies the texel.
    pub tint: [f32; 4],
    /// Attribute index of `u` (`v` follows).
    pub uv: usize,
    /// World to object space: when the texture is a cube (or cube array),
    /// it is sampled along `object_from_world * world` (attribute
    /// [`ATTR_WORLD`]), the direction from the object's centre.
    pub object_from_world: Mat4,
}

impl Unlit {
    /// Unlit with `texture`, white tint, standard uv.
    pub fn new(texture: TextureBinding) -> Unlit {
        Unlit {
            bindings: vec![texture],
            tint: [1.0; 4],
            uv: ATTR_UV,
            object_from_world: Mat4::IDENTITY,
        }
    }
}

impl FragmentShader for Unlit {
    fn bindings(&self) -> &[TextureBinding] {
        &self.bindings
    }

    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        let cube = q
            .binding(0)
            .is_some_and(|b| matches!(b.view.kind, TextureKind::Cube | TextureKind::CubeArray));
        let coords = if cube {
            let p = vec3s(q, ATTR_WORLD);
            std::array::from_fn(|l| {
                let d = self.object_from_world.transform_point3(p[l]);
                [d.x, d.y, d.z, 0.0]
            })
        } else {
            q.coords2(self.uv)
        };
        let t = q.sample_rgba(0, &SampleArgs::default(), coords);
        for l in 0..4 {
            out[l] = std::array::from_fn(|c| t[l][c] * self.tint[c]);
        }
    }

    /// The whole batch in one planar sampler call, straight into `out`
    /// (the same values as `shade`).
    fn shade_batch(&self, q: &mut QuadCtx<'_>, batch: &QuadBatch, out: &mut PlanarOut<'_>) {
        let cube = q
            .binding(0)
            .is_some_and(|b| matches!(b.view.kind, TextureKind::Cube | TextureKind::CubeArray));
        if cube {
            // Directions from the object's centre.
            let world = planes3(batch, ATTR_WORLD);
            sample_along(q, 4 * batch.len(), out, |j| {
                self.object_from_world.transform_point3(world(j))
            });
        } else {
            q.sample_planar(
                0,
                &SampleArgs::default(),
                &batch.coords2_planar(self.uv),
                out,
            );
        }
        let n = 4 * batch.len();
        for (plane, &k) in [&mut *out.r, &mut *out.g, &mut *out.b, &mut *out.a]
            .into_iter()
            .zip(&self.tint)
        {
            for v in plane.iter_mut().take(n) {
                *v *= k;
            }
        }
    }
}

/// `texture(uv) * tint * (ambient + sum of light * max(0, N . L))`: one
/// directional light plus [`Lambert::more_lights`], alpha from the texture
/// times the tint's.
#[derive(Clone, Debug)]
pub struct Lambert {
    bindings: Vec<TextureBinding>,
    /// Direction towards the light (normalized on use).
    pub light_dir: Vec3,
    /// Light colour.
    pub light_color: Vec3,
    /// Ambient colour.
    pub ambient: Vec3,
    /// Further lights: (direction towards the light, colour) pairs, added
    /// like the first.
    pub more_lights: Vec<(Vec3, Vec3)>,
    /// Multiplies the texel (material colour).
    pub tint: [f32; 4],
    /// Attribute index of `u`.
    pub uv: usize,
    /// Attribute index of the normal's `x`.
    pub normal: usize,
}

impl Lambert {
    /// Lambert with `texture`, white light from `light_dir`, ambient 0.1.
    pub fn new(texture: TextureBinding, light_dir: Vec3) -> Lambert {
        Lambert {
            bindings: vec![texture],
            light_dir,
            light_color: Vec3::ONE,
            ambient: Vec3::splat(0.1),
            more_lights: Vec::new(),
            tint: [1.0; 4],
            uv: ATTR_UV,
            normal: ATTR_NORMAL,
        }
    }
}

impl FragmentShader for Lambert {
    fn bindings(&self) -> &[TextureBinding] {
        &self.bindings
    }

    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        let t = q.sample_rgba(0, &SampleArgs::default(), q.coords2(self.uv));
        self.light(q, &t, out);
    }

    /// The batch's texels in one planar sampler call, then the lighting
    /// lane by lane on the planes (the same values as `shade`).
    fn shade_batch(&self, q: &mut QuadCtx<'_>, batch: &QuadBatch, out: &mut PlanarOut<'_>) {
        q.sample_planar(
            0,
            &SampleArgs::default(),
            &batch.coords2_planar(self.uv),
            out,
        );
        let (nx, ny, nz) = (
            batch.attr_plane(self.normal),
            batch.attr_plane(self.normal + 1),
            batch.attr_plane(self.normal + 2),
        );
        let l = self.light_dir.normalize_or_zero();
        for j in 0..4 * batch.len() {
            let n = Vec3::new(
                nx.get(j).copied().unwrap_or(0.0),
                ny.get(j).copied().unwrap_or(0.0),
                nz.get(j).copied().unwrap_or(0.0),
            );
            let k = self.lit(n, l);
            let t = self.tint;
            out.r[j] = out.r[j] * t[0] * k.x;
            out.g[j] = out.g[j] * t[1] * k.y;
            out.b[j] = out.b[j] * t[2] * k.z;
            out.a[j] *= t[3];
        }
    }
}

impl Lambert {
    /// `out = t * tint * (ambient + lights)` per lane, from the quad's
    /// normals.
    fn light(&self, q: &QuadCtx<'_>, t: &[[f32; 4]; 4], out: &mut [[f32; 4]; 4]) {
        let n = vec3s(q, self.normal);
        let tint = self.tint;
        let l = self.light_dir.normalize_or_zero();
        for lane in 0..4 {
            let k = self.lit(n[lane], l);
            out[lane] = [
                t[lane][0] * tint[0] * k.x,
                t[lane][1] * tint[1] * k.y,
                t[lane][2] * tint[2] * k.z,
                t[lane][3] * tint[3],
            ];
        }
    }

    /// `ambient + sum of light * max(0, N . L)` for normal `n`, `l` the
    /// first light's normalized direction.
    fn lit(&self, n: Vec3, l: Vec3) -> Vec3 {
        let nn = n.normalize_or_zero();
        let mut k = self.ambient + self.light_color * nn.dot(l).max(0.0);
        for &(dir, color) in &self.more_lights {
            k += color * nn.dot(dir.normalize_or_zero()).max(0.0);
        }
        k
    }
}

/// Environment reflection: the cube map read in direction
/// `reflect(normalize(world - camera), N)`, times `tint`.
#[derive(Clone, Debug)]
pub struct Reflect {
    bindings: Vec<TextureBinding>,
    /// The eye position in world space.
    pub camera: Vec3,
    /// Multiplies the reflection.
    pub tint: [f32; 4],
    /// Share of the (tinted) reflection in the result; the rest is
    /// `tint` itself: `tint * (1 - r) + env * tint * r`.
    pub reflectivity: f32,
    /// Attribute index of the normal's `x`.
    pub normal: usize,
    /// Attribute index of the world position's `x`.
    pub world: usize,
}

impl Reflect {
    /// Reflect of `env` (a cube view) seen from `camera`.
    pub fn new(env: TextureBinding, camera: Vec3) -> Reflect {
        Reflect {
            bindings: vec![env],
            camera,
            tint: [1.0; 4],
            reflectivity: 1.0,
            normal: ATTR_NORMAL,
            world: ATTR_WORLD,
        }
    }
}

impl FragmentShader for Reflect {
    fn bindings(&self) -> &[TextureBinding] {
        &self.bindings
    }

    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        let n = vec3s(q, self.normal);
        let p = vec3s(q, self.world);
        let coords = std::array::from_fn(|l| {
            let i = (p[l] - self.camera).normalize_or_zero();
            let nn = n[l].normalize_or_zero();
            let r = i - 2.0 * nn.dot(i) * nn;
            [r.x, r.y, r.z, 0.0]
        });
        let t = q.sample_rgba(0, &SampleArgs::default(), coords);
        let r = self.reflectivity;
        for l in 0..4 {
            out[l] = std::array::from_fn(|c| self.tint[c] * ((1.0 - r) + t[l][c] * r));
        }
    }

    /// The reflected directions as planes, one planar sampler call, the
    /// mix on the planes (the same values as `shade`).
    fn shade_batch(&self, q: &mut QuadCtx<'_>, batch: &QuadBatch, out: &mut PlanarOut<'_>) {
        let n = 4 * batch.len().min(MAX_BATCH_QUADS);
        let nv = planes3(batch, self.normal);
        let pv = planes3(batch, self.world);
        sample_along(q, n, out, |j| {
            let i = (pv(j) - self.camera).normalize_or_zero();
            let nn = nv(j).normalize_or_zero();
            i - 2.0 * nn.dot(i) * nn
        });
        let r = self.reflectivity;
        for (plane, &k) in [&mut *out.r, &mut *out.g, &mut *out.b, &mut *out.a]
            .into_iter()
            .zip(&self.tint)
        {
            for v in plane.iter_mut().take(n) {
                *v = k * ((1.0 - r) + *v * r);
            }
        }
    }
}

/// Binding 0 sampled along one direction per lane, `dir(j)` for lanes
/// `0..n` (at most a batch's), into `out`: a cube lookup on planes.
fn sample_along(
    q: &mut QuadCtx<'_>,
    n: usize,
    out: &mut PlanarOut<'_>,
    dir: impl Fn(usize) -> Vec3,
) {
    let n = n.min(4 * MAX_BATCH_QUADS);
    let mut d = [[0.0f32; 4 * MAX_BATCH_QUADS]; 3];
    let [dx, dy, dz] = &mut d;
    for (j, ((x, y), z)) in dx.iter_mut().zip(dy).zip(dz).take(n).enumerate() {
        let v = dir(j);
        (*x, *y, *z) = (v.x, v.y, v.z);
    }
    let coords = QuadCoords {
        s: &d[0][..n],
        t: &d[1][..n],
        r: &d[2][..n],
        ..QuadCoords::default()
    };
    q.sample_planar(0, &SampleArgs::default(), &coords, out);
}

/// Attributes `k..k + 3` of a batch as one `Vec3` per lane `j` (zeros
/// past the end).
fn planes3(batch: &QuadBatch, k: usize) -> impl Fn(usize) -> Vec3 + '_ {
    let (x, y, z) = (
        batch.attr_plane(k),
        batch.attr_plane(k + 1),
        batch.attr_plane(k + 2),
    );
    move |j| {
        let at = |p: &[f32]| p.get(j).copied().unwrap_or(0.0);
        Vec3::new(at(x), at(y), at(z))
    }
}

/// How [`Shadowed`] filters its shadow map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ShadowFilter {
    /// `sample` with the compare sampler (bilinear PCF at level 0).
    #[default]
    SampleCompare,
    /// `gather` with a depth reference (`.DC`): four compare results,
    /// weighted bilinearly by the shader.
    GatherCompare,
}

/// A shadow-mapped directional light: the base texture times `tint`, lit by
/// `ambient + (1 - ambient) * light_color * visibility * max(0, N . L)`,
/// where the visibility is the PCF of the light-space depth against the
/// shadow map.
///
/// The shadow map is the depth target of a pass rendered with
/// `light_view_proj` ([`DepthTarget::to_texture`](crate::DepthTarget::to_texture)).
/// Light-space coordinates follow the renderer's conventions: `s = x * 0.5
/// + 0.5`, `t = 0.5 - y * 0.5` (NDC y up, row 0 on top), reference `z - bias`,
/// compare `LessOrEqual`; outside the map reads lit (opaque white border).
#[derive(Clone, Debug)]
pub struct Shadowed {
    bindings: Vec<TextureBinding>,
    /// World to the light's clip space: the shadow pass's transform.
    pub light_view_proj: Mat4,
    /// Direction towards the light.
    pub light_dir: Vec3,
    /// The share of light that reaches shadowed surfaces.
    pub ambient: f32,
    /// Colour of the light (multiplies the direct term).
    pub light_color: Vec3,
    /// Multiplies the base texel (material colour).
    pub tint: [f32; 4],
    /// Subtracted from the light-space depth (acne).
    pub bias: f32,
    /// PCF through `sample` or `gather`.
    pub filter: ShadowFilter,
    /// Attribute index of `u`.
    pub uv: usize,
    /// Attribute index of the normal's `x`.
    pub normal: usize,
    /// Attribute index of the world position's `x`.
    pub world: usize,
}

impl Shadowed {
    /// The compare sampler the shadow map is read with.
    pub fn shadow_sampler() -> SamplerHeader {
        SamplerHeader {
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            address: [AddressMode::ClampToBorder; 3],
            border_color: BorderColor::FloatOpaqueWhite,
            compare: Some(CompareOp::LessOrEqual),
            ..Default::default()
        }
    }

    /// Shadowed `base` with `shadow_map` (a depth texture) rendered with
    /// `light_view_proj`; ambient 0.2, bias 0.002, PCF through `sample`.
    pub fn new(
        base: TextureBinding,
        shadow_map: Arc<Texture>,
        light_view_proj: Mat4,
        light_dir: Vec3,
    ) -> Shadowed {
        Shadowed {
            bindings: vec![
                base,
                TextureBinding::with_view(
                    TextureHeader::new(shadow_map),
                    Shadowed::shadow_sampler(),
                ),
            ],
            light_view_proj,
            light_dir,
            ambient: 0.2,
            light_color: Vec3::ONE,
            tint: [1.0; 4],
            bias: 0.002,
            filter: ShadowFilter::SampleCompare,
            uv: ATTR_UV,
            normal: ATTR_NORMAL,
            world: ATTR_WORLD,
        }
    }

    /// World position `p`'s shadow-map coordinates `(s, t)` and depth
    /// reference.
    fn light_space(&self, p: Vec3) -> (f32, f32, f32) {
        let c: Vec4 = self.light_view_proj * p.extend(1.0);
        let ndc = c.truncate() / c.w;
        (ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5, ndc.z - self.bias)
    }

    /// The gather PCF: the four compare results `g` (gather order)
    /// weighted bilinearly at `(s, t)` on a `w x h` map.
    fn gather_pcf(g: [f32; 4], (s, t): (f32, f32), (w, h): (f32, f32)) -> f32 {
        let u = s * w - 0.5;
        let v = t * h - 0.5;
        let (fx, fy) = (u - u.floor(), v - v.floor());
        // Gather order: [T(i0,j1), T(i1,j1), T(i1,j0), T(i0,j0)].
        let (t01, t11, t10, t00) = (g[0], g[1], g[2], g[3]);
        let top = t00 + (t10 - t00) * fx;
        let bottom = t01 + (t11 - t01) * fx;
        top + (bottom - top) * fy
    }

    /// The shadow map's size as floats (1 x 1 without one).
    fn map_size(q: &QuadCtx<'_>) -> (f32, f32) {
        q.binding(1)
            .map(|b| {
                let d = b.view.texture.desc();
                (d.width as f32, d.height as f32)
            })
            .unwrap_or((1.0, 1.0))
    }

    /// `ambient + (1 - ambient) * light * visibility * max(0, N . L)` for
    /// normal `n`, `ld` the light's normalized direction.
    fn lit(&self, n: Vec3, ld: Vec3, vis: f32) -> Vec3 {
        let d = n.normalize_or_zero().dot(ld).max(0.0);
        Vec3::splat(self.ambient) + (1.0 - self.ambient) * vis * d * self.light_color
    }

    /// Shadow visibility per lane (1 lit, 0 shadowed).
    pub fn visibility(&self, q: &mut QuadCtx<'_>) -> [f32; 4] {
        let p = vec3s(q, self.world);
        let mut coords = [[0.0f32; 4]; 4];
        let mut dref = [0.0f32; 4];
        for l in 0..4 {
            let (s, t, d) = self.light_space(p[l]);
            coords[l] = [s, t, 0.0, 0.0];
            dref[l] = d;
        }
        match self.filter {
            ShadowFilter::SampleCompare => {
                let args = SampleArgs {
                    lod: Lod::Base,
                    dref: Some(dref),
                    ..Default::default()
                };
                q.sample_rgba(1, &args, coords).map(|t| t[0])
            }
            ShadowFilter::GatherCompare => {
                let size = Shadowed::map_size(q);
                let args = GatherArgs {
                    dref: Some(dref),
                    ..Default::default()
                };
                let g = texels_f32(&q.gather(1, &args, coords));
                std::array::from_fn(|l| {
                    Shadowed::gather_pcf(g[l], (coords[l][0], coords[l][1]), size)
                })
            }
        }
    }
}

impl FragmentShader for Shadowed {
    fn bindings(&self) -> &[TextureBinding] {
        &self.bindings
    }

    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        let base = q.sample_rgba(0, &SampleArgs::default(), q.coords2(self.uv));
        let vis = self.visibility(q);
        let n = vec3s(q, self.normal);
        let ld = self.light_dir.normalize_or_zero();
        let tint = self.tint;
        for l in 0..4 {
            let k = self.lit(n[l], ld, vis[l]);
            out[l] = [
                base[l][0] * tint[0] * k.x,
                base[l][1] * tint[1] * k.y,
                base[l][2] * tint[2] * k.z,
                base[l][3] * tint[3],
            ];
        }
    }

    /// The base texels and the shadow lookups each in one planar sampler
    /// call (the depth references as a plane), the lighting on the planes
    /// (the same values as `shade`).
    fn shade_batch(&self, q: &mut QuadCtx<'_>, batch: &QuadBatch, out: &mut PlanarOut<'_>) {
        const N: usize = 4 * MAX_BATCH_QUADS;
        let n = 4 * batch.len().min(MAX_BATCH_QUADS);
        q.sample_planar(
            0,
            &SampleArgs::default(),
            &batch.coords2_planar(self.uv),
            out,
        );
        let (mut s, mut t, mut dref) = ([0.0f32; N], [0.0f32; N], [0.0f32; N]);
        let world = planes3(batch, self.world);
        for j in 0..n {
            (s[j], t[j], dref[j]) = self.light_space(world(j));
        }
        let coords = QuadCoords {
            s: &s[..n],
            t: &t[..n],
            dref: &dref[..n],
            ..QuadCoords::default()
        };
        let mut v = [[0.0f32; N]; 4];
        let [v0, v1, v2, v3] = &mut v;
        let mut planes = PlanarOut {
            r: &mut v0[..n],
            g: &mut v1[..n],
            b: &mut v2[..n],
            a: &mut v3[..n],
        };
        match self.filter {
            ShadowFilter::SampleCompare => {
                let args = SampleArgs {
                    lod: Lod::Base,
                    ..Default::default()
                };
                q.sample_planar(1, &args, &coords, &mut planes);
            }
            ShadowFilter::GatherCompare => {
                q.gather_planar(1, &GatherArgs::default(), &coords, &mut planes);
                let size = Shadowed::map_size(q);
                let [v0, v1, v2, v3] = &mut v;
                let lanes = v0.iter_mut().zip(&*v1).zip(&*v2).zip(&*v3);
                for (j, (((a, &b), &c), &d)) in lanes.take(n).enumerate() {
                    *a = Shadowed::gather_pcf([*a, b, c, d], (s[j], t[j]), size);
                }
            }
        }
        let normal = planes3(batch, self.normal);
        let ld = self.light_dir.normalize_or_zero();
        let tint = self.tint;
        for (j, &vis) in v[0].iter().enumerate().take(n) {
            let k = self.lit(normal(j), ld, vis);
            out.r[j] = out.r[j] * tint[0] * k.x;
            out.g[j] = out.g[j] * tint[1] * k.y;
            out.b[j] = out.b[j] * tint[2] * k.z;
            out.a[j] *= tint[3];
        }
    }
}

/// Colours each pixel by the mip level `sample` would access there
/// (`query_lod`'s `accessed`): level 0 blue, 1 cyan, 2 green, 3 yellow,
/// 4 red, 5 and up magenta, blended for fractional levels.
#[derive(Clone, Debug)]
pub struct MipHeatmap {
    bindings: Vec<TextureBinding>,
    /// Attribute index of `u`.
    pub uv: usize,
}

/// The heat map's colours per level.
const HEAT: [[f32; 3]; 6] = [
    [0.0, 0.0, 1.0],
    [0.0, 1.0, 1.0],
    [0.0, 1.0, 0.0],
    [1.0, 1.0, 0.0],
    [1.0, 0.0, 0.0],
    [1.0, 0.0, 1.0],
];

impl MipHeatmap {
    /// The heat map of `texture`'s LOD.
    pub fn new(texture: TextureBinding) -> MipHeatmap {
        MipHeatmap {
            bindings: vec![texture],
            uv: ATTR_UV,
        }
    }

    /// The heat colour of (fractional) level `level`.
    pub fn color(level: f32) -> [f32; 4] {
        let l = if level.is_finite() {
            level.clamp(0.0, 5.0)
        } else {
            0.0
        };
        let i = (l.floor() as usize).min(4);
        let f = (l - i as f32).clamp(0.0, 1.0);
        let (a, b) = (HEAT[i], HEAT[i + 1]);
        [
            a[0] + (b[0] - a[0]) * f,
            a[1] + (b[1] - a[1]) * f,
            a[2] + (b[2] - a[2]) * f,
            1.0,
        ]
    }
}

impl FragmentShader for MipHeatmap {
    fn bindings(&self) -> &[TextureBinding] {
        &self.bindings
    }

    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        let r = q.query_lod(0, &SampleArgs::default(), q.coords2(self.uv));
        for l in 0..4 {
            out[l] = MipHeatmap::color(r[l].map(|r| r.accessed).unwrap_or(0.0));
        }
    }
}

/// Edges from one gather: the spread (max - min) of one component over the
/// bilinear footprint, times `scale`, as grey.
#[derive(Clone, Debug)]
pub struct EdgeDetect {
    bindings: Vec<TextureBinding>,
    /// The gathered component (0 = R .. 3 = A).
    pub component: u8,
    /// Multiplies the spread before clamping to [0, 1].
    pub scale: f32,
    /// Spreads at or below this read as no edge: the output is
    /// `(spread - threshold) * scale`, clamped.
    pub threshold: f32,
    /// Attribute index of `u`.
    pub uv: usize,
}

impl EdgeDetect {
    /// Edges of `texture`'s green component (a luma stand-in), scale 4.
    pub fn new(texture: TextureBinding) -> EdgeDetect {
        EdgeDetect {
            bindings: vec![texture],
            component: 1,
            scale: 4.0,
            threshold: 0.0,
            uv: ATTR_UV,
        }
    }
}

impl FragmentShader for EdgeDetect {
    fn bindings(&self) -> &[TextureBinding] {
        &self.bindings
    }

    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        let args = GatherArgs {
            component: self.component,
            ..Default::default()
        };
        let g = texels_f32(&q.gather(0, &args, q.coords2(self.uv)));
        for l in 0..4 {
            let mx = g[l].iter().copied().fold(f32::MIN, f32::max);
            let mn = g[l].iter().copied().fold(f32::MAX, f32::min);
            let e = ((mx - mn - self.threshold) * self.scale).clamp(0.0, 1.0);
            out[l] = [e, e, e, 1.0];
        }
    }
}

/// Terrain: a 2D array texture whose layer follows height. The height
/// attribute maps `[min_height, max_height]` onto layers `0 ..= n - 1`;
/// between two layers the shader blends them.
#[derive(Clone, Debug)]
pub struct Terrain {
    bindings: Vec<TextureBinding>,
    /// Height of layer 0.
    pub min_height: f32,
    /// Height of the last layer.
    pub max_height: f32,
    /// Multiplies the uvs (tiling).
    pub uv_scale: f32,
    /// Attribute index of `u`.
    pub uv: usize,
    /// Attribute index of the height (default: world `y`).
    pub height: usize,
}

impl Terrain {
    /// Terrain over `layers` (a 2D array view) between the two heights.
    pub fn new(layers: TextureBinding, min_height: f32, max_height: f32) -> Terrain {
        Terrain {
            bindings: vec![layers],
            min_height,
            max_height,
            uv_scale: 1.0,
            uv: ATTR_UV,
            height: ATTR_WORLD + 1,
        }
    }
}

impl FragmentShader for Terrain {
    fn bindings(&self) -> &[TextureBinding] {
        &self.bindings
    }

    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        let n = q.binding(0).map_or(1, |b| b.view.layer_count.max(1)) as f32;
        let h = q.attr(self.height);
        let span = self.max_height - self.min_height;
        let mut lo = [0.0f32; 4];
        let mut f = [0.0f32; 4];
        for l in 0..4 {
            let t = if span != 0.0 {
                (h[l] - self.min_height) / span
            } else {
                0.0
            };
            let x = if t.is_finite() {
                t.clamp(0.0, 1.0) * (n - 1.0)
            } else {
                0.0
            };
            lo[l] = x.floor();
            f[l] = x - lo[l];
        }
        let (u, v) = (q.attr(self.uv), q.attr(self.uv + 1));
        let c0 = std::array::from_fn(|l| [u[l] * self.uv_scale, v[l] * self.uv_scale, 0.0, lo[l]]);
        let c1 = std::array::from_fn(|l| {
            [
                u[l] * self.uv_scale,
                v[l] * self.uv_scale,
                0.0,
                (lo[l] + 1.0).min(n - 1.0),
            ]
        });
        let a = q.sample_rgba(0, &SampleArgs::default(), c0);
        let b = q.sample_rgba(0, &SampleArgs::default(), c1);
        for l in 0..4 {
            out[l] = std::array::from_fn(|c| a[l][c] + (b[l][c] - a[l][c]) * f[l]);
        }
    }
}

/// One slice of a 3D texture: `volume(u, v, r)` with `r = slice` or, when
/// `r_attr` is set, that attribute.
#[derive(Clone, Debug)]
pub struct VolumeSlice {
    bindings: Vec<TextureBinding>,
    /// Normalized depth of the slice.
    pub slice: f32,
    /// Attribute giving `r` per pixel instead of `slice`.
    pub r_attr: Option<usize>,
    /// Attribute index of `u`.
    pub uv: usize,
}

impl VolumeSlice {
    /// Slice `slice` (0..1) of `volume` (a 3D view).
    pub fn new(volume: TextureBinding, slice: f32) -> VolumeSlice {
        VolumeSlice {
            bindings: vec![volume],
            slice,
            r_attr: None,
            uv: ATTR_UV,
        }
    }
}

impl FragmentShader for VolumeSlice {
    fn bindings(&self) -> &[TextureBinding] {
        &self.bindings
    }

    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        let r = self.r_attr.map_or([self.slice; 4], |k| q.attr(k));
        let (u, v) = (q.attr(self.uv), q.attr(self.uv + 1));
        let coords = std::array::from_fn(|l| [u[l], v[l], r[l], 0.0]);
        *out = q.sample_rgba(0, &SampleArgs::default(), coords);
    }
}

/// The MSAA resolve as a shader: per pixel, `fetch` (`ld2dms`) of every
/// sample of a 2D multisample texture, averaged, drawn as a full-screen
/// pass. [`Renderer::resolve`](crate::Renderer::resolve) gives its bytes
/// without the pass (it reads the target directly).
#[derive(Clone, Debug)]
pub struct MsaaResolve {
    bindings: Vec<TextureBinding>,
    samples: u32,
}

impl MsaaResolve {
    /// The resolve of `texture` (2D multisample; a single-sampled 2D
    /// texture resolves to itself).
    pub fn new(texture: Arc<Texture>) -> MsaaResolve {
        let samples = texture.desc().samples.max(1);
        MsaaResolve {
            bindings: vec![TextureBinding::new(texture, SamplerHeader::default())],
            samples,
        }
    }
}

impl FragmentShader for MsaaResolve {
    fn bindings(&self) -> &[TextureBinding] {
        &self.bindings
    }

    fn shade(&self, q: &mut QuadCtx<'_>, out: &mut [[f32; 4]; 4]) {
        let px = q.pixels();
        let mut args = FetchArgs {
            icoords: px.map(|[x, y]| [x, y, 0, 0]),
            ..Default::default()
        };
        let mut sum = [[0.0f32; 4]; 4];
        for s in 0..self.samples {
            args.sample = [s as i32; 4];
            let t = q.fetch_rgba(0, &args);
            for l in 0..4 {
                for c in 0..4 {
                    sum[l][c] += t[l][c];
                }
            }
        }
        let k = 1.0 / self.samples as f32;
        *out = sum.map(|v| v.map(|c| c * k));
    }
}
