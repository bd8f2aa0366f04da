//! `quadtex-scene`: scene files for the quadtex rasterizer.
//!
//! A scene is one TOML file (the format `scenes/README.md` documents): a
//! [`Camera`], [`Output`] settings, textures (files or [`Procedural`]
//! generators, as sampler [`TextureHeader`]s over `Arc<Texture>`), sampler
//! states ([`SamplerHeader`]), [`Material`]s naming a built-in [`Shader`],
//! [`Object`]s (a [`Mesh`] with a [`Transform`]) and directional
//! [`Light`]s with optional [`Shadow`] maps. [`Scene::load`] reads one into
//! plain data; [`render_scene`] renders it with `quadtex-raster`.
//!
//! Loading resolves and validates everything: files are read relative to
//! the scene file, procedural textures are built, meshes generated, and
//! every name a material or object refers to exists. A renderer never sees
//! a dangling name or an invalid sampler. Errors are [`Error`]s naming
//! the key (`materials.ground.sampler`) or path at fault; the `MAX_*`
//! constants bound what one scene may ask for.
//!
//! [`render_scene`] (or [`render_scene_with`], to reuse one
//! [`Renderer`](quadtex_raster::Renderer)) turns a loaded scene into a
//! picture: shadow-map pass, one draw per object with its material's
//! built-in shader (`quadtex_raster::builtin`), MSAA resolve, with
//! [`RenderOptions`] (size, samples, threads, sampler profile, turntable
//! frame). `quadtex render` is this behind a command line. The picture is
//! [`RenderedScene::image`], a [`ColorTarget`](quadtex_raster::ColorTarget)
//! resolved to one sample in the scene's output format (`R8G8B8A8_SRGB`
//! unless `output.format` says otherwise): `pixel(x, y)` reads it as
//! linear RGBA, `save_png(path)` writes it.
//!
//! Not here: rasterizing, shading and the shaders themselves
//! (`quadtex-raster`), what a texture is (`quadtex-format`) and how it is
//! read (`quadtex-sampler`).
//!
//! # Example
//!
//! A checkered floor and a lit sphere, from text, rendered at 64x36:
//!
//! ```
//! use quadtex_scene::{render_scene, RenderOptions, Scene, Shader};
//!
//! let text = r#"
//! [camera]
//! position = [0.0, 2.0, 4.0]
//! target = [0.0, 0.0, 0.0]
//!
//! [output]
//! width = 64
//! height = 36
//! msaa = 4
//!
//! [textures.floor]
//! checker = { squares = 8, colors = [[0.9, 0.9, 0.9], [0.2, 0.2, 0.2]] }
//! size = 64
//!
//! [materials.floor]
//! shader = "lambert"
//! texture = "floor"
//!
//! [materials.ball]
//! shader = "lambert"
//! color = [0.8, 0.3, 0.2]
//!
//! [[objects]]
//! mesh = "plane"
//! scale = 6.0
//! material = "floor"
//!
//! [[objects]]
//! mesh = "sphere"
//! translate = [0.0, 0.5, 0.0]
//! material = "ball"
//!
//! [[lights]]
//! direction = [-0.5, -1.0, -0.3]
//! "#;
//! // Relative file names (none here) would be resolved against ".".
//! let scene = Scene::from_toml_str(text, ".")?;
//! assert_eq!(scene.objects.len(), 2);
//! assert_eq!(scene.material("ball").map(|m| m.shader), Some(Shader::Lambert));
//!
//! let picture = render_scene(&scene, &RenderOptions { threads: 1, ..RenderOptions::default() })?;
//! assert_eq!((picture.image.width(), picture.image.height()), (64, 36));
//! assert_eq!(picture.msaa, 4);
//! assert!(picture.total_quads() > 0);
//!
//! // A bad key is an error naming it.
//! let e = Scene::from_toml_str("[materials.m]\nshader = \"glossy\"\n", ".").unwrap_err();
//! assert_eq!(e.key(), Some("materials.m.shader"));
//! # Ok::<(), quadtex_scene::Error>(())
//! ```
//!
//! A scene file from disk, and what it holds:
//!
//! ```no_run
//! use quadtex_scene::Scene;
//! let scene = Scene::load("scenes/showcase.toml")?;
//! for object in &scene.objects {
//!     let material = scene.material(&object.material).expect("validated");
//!     let _model = object.transform.matrix();
//!     let _ = (material.shader, object.mesh.indices.len());
//! }
//! # Ok::<(), quadtex_scene::Error>(())
//! ```

#![deny(unsafe_code)]

mod error;
mod file;
mod load;
mod mesh;
mod procedural;
mod render;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{Mat3, Mat4, Quat, Vec2, Vec3, Vec4};
use quadtex_format::TextureFormat;
use quadtex_raster::ColorFormat;
use quadtex_sampler::{AddressMode, SamplerHeader, TextureHeader};

pub use error::{Error, ErrorKind, Result};
pub use load::{
    MAX_ANISOTROPY, MAX_FRAMES, MAX_LIGHTS, MAX_OBJECTS, MAX_OBJ_BYTES, MAX_SCENE_GENERATED_TEXELS,
    MAX_SCENE_TEXTURE_BYTES, MAX_SCENE_TRIANGLES,
};
pub use mesh::{Mesh, MAX_SEGMENTS, MIN_SEGMENTS};
pub use procedural::{
    cube_direction, GradientDirection, NoiseBasis, Procedural, ProceduralShape, MIP_LEVEL_COLORS,
};
pub use render::{
    profile_from_name, render_scene, render_scene_with, RenderOptions, RenderedScene, MAX_EXTENT,
    PROFILE_NAMES,
};

/// A loaded scene: everything a renderer needs, names resolved.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The scene file, when loaded from one.
    pub path: Option<PathBuf>,
    /// The camera.
    pub camera: Camera,
    /// Default output settings (the command line may override them).
    pub output: Output,
    /// Ambient light colour added by the lit shaders.
    pub ambient: Vec3,
    /// Textures by name.
    pub textures: BTreeMap<String, SceneTexture>,
    /// Sampler states by name.
    pub samplers: BTreeMap<String, SamplerHeader>,
    /// Materials by name.
    pub materials: BTreeMap<String, Material>,
    /// Objects in file order.
    pub objects: Vec<Object>,
    /// Directional lights in file order.
    pub lights: Vec<Light>,
}

impl Scene {
    /// Loads and validates the scene file at `path`; relative file names
    /// inside it are resolved against the file's folder.
    pub fn load(path: impl AsRef<Path>) -> Result<Scene> {
        let path = path.as_ref();
        let text =
            std::fs::read_to_string(path).map_err(|source| Error::io(path.to_owned(), source))?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut scene = load::from_str(&text, base, path)?;
        scene.path = Some(path.to_owned());
        Ok(scene)
    }

    /// Parses and validates scene text; relative file names are resolved
    /// against `base_dir`.
    pub fn from_toml_str(text: &str, base_dir: impl AsRef<Path>) -> Result<Scene> {
        load::from_str(text, base_dir.as_ref(), Path::new("<string>"))
    }

    /// The texture called `name`.
    pub fn texture(&self, name: &str) -> Option<&SceneTexture> {
        self.textures.get(name)
    }

    /// The sampler called `name`.
    pub fn sampler(&self, name: &str) -> Option<&SamplerHeader> {
        self.samplers.get(name)
    }

    /// The material called `name`.
    pub fn material(&self, name: &str) -> Option<&Material> {
        self.materials.get(name)
    }

    /// The texture view a material reads, if it names one.
    pub fn material_texture(&self, material: &Material) -> Option<&TextureHeader> {
        material
            .texture
            .as_deref()
            .and_then(|n| self.texture(n))
            .map(|t| &t.header)
    }

    /// The sampler a material reads with: its named sampler, or
    /// [`DEFAULT_SAMPLER`] when it names none.
    pub fn material_sampler(&self, material: &Material) -> SamplerHeader {
        material
            .sampler
            .as_deref()
            .and_then(|n| self.sampler(n))
            .copied()
            .unwrap_or_else(default_sampler)
    }

    /// The first light with a shadow map, which the `shadowed` shader uses.
    pub fn shadow_light(&self) -> Option<&Light> {
        self.lights.iter().find(|l| l.shadow.is_some())
    }
}

/// What a material with no `sampler` reads with: trilinear, repeat.
pub const DEFAULT_SAMPLER: &str = "trilinear, repeat on every axis";

/// The sampler of [`DEFAULT_SAMPLER`].
pub fn default_sampler() -> SamplerHeader {
    SamplerHeader::trilinear(AddressMode::Repeat)
}

/// A perspective camera (right-handed, Y up by default).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Eye position in world space.
    pub position: Vec3,
    /// The point looked at.
    pub target: Vec3,
    /// The up direction (need not be orthogonal to the view direction).
    pub up: Vec3,
    /// Vertical field of view in degrees.
    pub fov_y_degrees: f32,
    /// Near plane distance (> 0).
    pub near: f32,
    /// Far plane distance (> near).
    pub far: f32,
    /// Orbit for multi-frame renders (`--frames`), if any.
    pub turntable: Option<Turntable>,
}

impl Default for Camera {
    /// Eye at (0, 2, 5) looking at the origin, 60 degrees, planes 0.1..100.
    fn default() -> Self {
        Camera {
            position: Vec3::new(0.0, 2.0, 5.0),
            target: Vec3::ZERO,
            up: Vec3::Y,
            fov_y_degrees: 60.0,
            near: 0.1,
            far: 100.0,
            turntable: None,
        }
    }
}

impl Camera {
    /// World to view: right-handed, looking down -Z, Y up.
    pub fn view(&self) -> Mat4 {
        glam::camera::rh::view::look_at_mat4(self.position, self.target, self.up)
    }

    /// View to clip for an output of `aspect = width / height`: NDC Y up,
    /// depth 0 (near) to 1 (far), as D3D and WebGPU (flip Y for rows that
    /// run down).
    pub fn projection(&self, aspect: f32) -> Mat4 {
        glam::camera::rh::proj::directx::perspective(
            self.fov_y_degrees.to_radians(),
            aspect,
            self.near,
            self.far,
        )
    }

    /// The camera of frame `frame` of `frames`: the position orbits the
    /// target about the turntable's axis by `degrees * frame / frames`.
    /// Without a turntable (or with `frames == 0`) the camera is unchanged.
    pub fn at_frame(&self, frame: u32, frames: u32) -> Camera {
        let Some(t) = self.turntable else {
            return *self;
        };
        if frames == 0 {
            return *self;
        }
        let angle = (t.degrees * frame as f32 / frames as f32).to_radians();
        let q = Quat::from_axis_angle(t.axis, angle);
        Camera {
            position: self.target + q * (self.position - self.target),
            ..*self
        }
    }
}

/// A camera orbit for multi-frame renders.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Turntable {
    /// Degrees turned over the whole sequence.
    pub degrees: f32,
    /// Unit axis of the orbit, through the camera target.
    pub axis: Vec3,
    /// Frames rendered when the command line gives no count.
    pub frames: u32,
}

/// Output defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Samples per pixel: 1, 4 or 8.
    pub msaa: u32,
    /// Clear colour, linear RGBA.
    pub clear: Vec4,
    /// The colour target's format (the file's `format`, a
    /// [`ColorFormat::name`]).
    pub format: ColorFormat,
}

impl Default for Output {
    /// 640x360, no MSAA, opaque black, an `R8G8B8A8_SRGB` target (what a
    /// PNG holds).
    fn default() -> Self {
        Output {
            width: 640,
            height: 360,
            msaa: 1,
            clear: Vec4::new(0.0, 0.0, 0.0, 1.0),
            format: ColorFormat::Rgba8Srgb,
        }
    }
}

/// A texture of the scene: the view shaders read, and where it came from.
#[derive(Clone, Debug)]
pub struct SceneTexture {
    /// The view (whole texture, identity swizzle unless the file says
    /// otherwise); `header.texture` is the texture itself.
    pub header: TextureHeader,
    /// Where the texels came from.
    pub source: TextureSource,
}

/// Where a scene texture's texels came from.
#[derive(Clone, Debug, PartialEq)]
pub enum TextureSource {
    /// A file (KTX2, DDS, PNG, JPEG, HDR, EXR, ...), resolved path.
    File(PathBuf),
    /// Built by a generator.
    Procedural(Procedural),
}

/// The built-in shaders a material can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shader {
    /// `texture * color`, no lighting. A cube `texture` is sampled along
    /// the object-space position (a skybox: an inside-out cube around the
    /// camera).
    Unlit,
    /// Diffuse lighting from every light plus ambient, `texture * color`.
    Lambert,
    /// Environment reflection: samples the cube `texture` along the
    /// reflected view vector, mixed with `color` by `reflectivity`.
    Reflect,
    /// Lambert with the shadow map of the scene's shadow light.
    Shadowed,
    /// Colours each pixel by the LOD the sampler would pick for `texture`
    /// (TMML / `query_lod`).
    MipHeatmap,
    /// Edges of `texture` found with a 2x2 gather (TLD4).
    EdgeDetect,
    /// Blends the layers of a 2D array `texture` by height over
    /// `height_range`.
    Terrain,
    /// Samples a 3D `texture` at depth `slice` with the object's UVs.
    VolumeSlice,
}

impl Shader {
    /// Every shader.
    pub const ALL: [Shader; 8] = [
        Shader::Unlit,
        Shader::Lambert,
        Shader::Reflect,
        Shader::Shadowed,
        Shader::MipHeatmap,
        Shader::EdgeDetect,
        Shader::Terrain,
        Shader::VolumeSlice,
    ];

    /// The scene-file spelling.
    pub const fn name(self) -> &'static str {
        match self {
            Shader::Unlit => "unlit",
            Shader::Lambert => "lambert",
            Shader::Reflect => "reflect",
            Shader::Shadowed => "shadowed",
            Shader::MipHeatmap => "mip_heatmap",
            Shader::EdgeDetect => "edge_detect",
            Shader::Terrain => "terrain",
            Shader::VolumeSlice => "volume_slice",
        }
    }

    /// Parses [`Shader::name`].
    pub fn from_name(s: &str) -> Option<Shader> {
        Shader::ALL.into_iter().find(|x| x.name() == s)
    }
}

/// A material: a shader, what it reads, and its parameters. Every field
/// has a value; shaders ignore the ones they do not use.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// The shader.
    pub shader: Shader,
    /// The texture read, by name (required by `reflect` (a cube),
    /// `mip_heatmap`, `edge_detect`, `terrain` (a 2D array) and
    /// `volume_slice` (a 3D texture)).
    pub texture: Option<String>,
    /// The sampler, by name; `None` reads with [`default_sampler`].
    pub sampler: Option<String>,
    /// Base colour multiplied with the texture, linear RGBA.
    pub color: Vec4,
    /// Multiplies mesh UVs before sampling (repeat a texture over a plane).
    pub uv_scale: Vec2,
    /// `reflect`: how much of the environment shows (0..1).
    pub reflectivity: f32,
    /// `volume_slice`: the depth coordinate sampled (0..1).
    pub slice: f32,
    /// `edge_detect`: the gathered-difference threshold marking an edge.
    pub edge_threshold: f32,
    /// `terrain`: the world heights mapped to the first and last layer.
    pub height_range: Vec2,
    /// `shadowed`: depth bias subtracted from the reference before the
    /// compare.
    pub shadow_bias: f32,
}

impl Default for Material {
    /// White `lambert`, no texture, default parameters.
    fn default() -> Self {
        Material {
            shader: Shader::Lambert,
            texture: None,
            sampler: None,
            color: Vec4::ONE,
            uv_scale: Vec2::ONE,
            reflectivity: 1.0,
            slice: 0.5,
            edge_threshold: 0.1,
            height_range: Vec2::new(0.0, 1.0),
            shadow_bias: 0.002,
        }
    }
}

/// Which mesh an object draws.
#[derive(Clone, Debug, PartialEq)]
pub enum MeshSource {
    /// [`Mesh::plane`].
    Plane,
    /// [`Mesh::cube`].
    Cube,
    /// [`Mesh::sphere`].
    Sphere {
        /// Segments around the axis.
        segments: u32,
        /// Rings from pole to pole.
        rings: u32,
    },
    /// [`Mesh::quad`].
    Quad,
    /// [`Mesh::fullscreen_quad`]: clip-space positions, transform ignored.
    FullscreenQuad,
    /// An OBJ file ([`Mesh::load_obj`]), resolved path.
    Obj(PathBuf),
}

/// Object to world: scale, then rotate (X, then Y, then Z, degrees), then
/// translate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Translation.
    pub translate: Vec3,
    /// Rotation about X, Y and Z in degrees, applied in that order.
    pub rotate_degrees: Vec3,
    /// Scale per axis.
    pub scale: Vec3,
}

impl Default for Transform {
    /// The identity.
    fn default() -> Self {
        Transform {
            translate: Vec3::ZERO,
            rotate_degrees: Vec3::ZERO,
            scale: Vec3::ONE,
        }
    }
}

impl Transform {
    /// The rotation alone.
    pub fn rotation(&self) -> Quat {
        let r = self.rotate_degrees;
        Quat::from_rotation_z(r.z.to_radians())
            * Quat::from_rotation_y(r.y.to_radians())
            * Quat::from_rotation_x(r.x.to_radians())
    }

    /// The object-to-world matrix `T * R * S`.
    pub fn matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation(), self.translate)
    }

    /// The matrix taking object normals to world normals (inverse
    /// transpose of the upper 3x3; renormalise after use).
    pub fn normal_matrix(&self) -> Mat3 {
        Mat3::from_quat(self.rotation()) * Mat3::from_diagonal(self.scale.recip())
    }
}

/// One thing drawn.
#[derive(Clone, Debug)]
pub struct Object {
    /// Name (from the file, or `objects[i]`).
    pub name: String,
    /// The mesh, shared between objects drawing the same built-in shape
    /// or file.
    pub mesh: Arc<Mesh>,
    /// Which mesh it is.
    pub mesh_source: MeshSource,
    /// Object to world.
    pub transform: Transform,
    /// The material, by name (always defined in [`Scene::materials`]).
    pub material: String,
    /// The mesh is turned inside out (faces and normals point inwards), as
    /// for a skybox seen from within.
    pub inside_out: bool,
    /// Drawn into shadow maps.
    pub cast_shadows: bool,
}

/// A directional light.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// Unit direction the light travels (from the light into the scene).
    pub direction: Vec3,
    /// Linear RGB colour.
    pub color: Vec3,
    /// Multiplies the colour.
    pub intensity: f32,
    /// Shadow map, if the light casts shadows.
    pub shadow: Option<Shadow>,
}

impl Light {
    /// World to the shadow map's clip space (depth 0..1, NDC Y up): an
    /// orthographic view along [`Light::direction`] covering
    /// `-extent..extent` around the world origin and `4 * extent` deep.
    /// `None` when the light has no shadow.
    pub fn shadow_view_projection(&self) -> Option<Mat4> {
        let s = self.shadow?;
        let e = s.extent;
        let up = if self.direction.y.abs() > 0.99 {
            Vec3::Z
        } else {
            Vec3::Y
        };
        let eye = -self.direction * (2.0 * e);
        let view = glam::camera::rh::view::look_at_mat4(eye, Vec3::ZERO, up);
        let proj = glam::camera::rh::proj::directx::orthographic(-e, e, -e, e, 0.0, 4.0 * e);
        Some(proj * view)
    }
}

/// How a shadow map is filtered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PcfMode {
    /// One bilinear depth-compare sample (`texture` with a compare sampler):
    /// hardware 2x2 PCF.
    Compare,
    /// A depth-compare gather (TLD4 `.DC`): the four compare results,
    /// weighted by the shader.
    Gather,
}

impl PcfMode {
    /// The scene-file spelling: `compare` or `gather`.
    pub const fn name(self) -> &'static str {
        match self {
            PcfMode::Compare => "compare",
            PcfMode::Gather => "gather",
        }
    }
}

/// A directional light's shadow map: an orthographic depth render.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shadow {
    /// Width and height of the map in texels.
    pub size: u32,
    /// `D32_SFLOAT` or `X8_D24_UNORM_PACK32`.
    pub format: TextureFormat,
    /// How it is filtered.
    pub pcf: PcfMode,
    /// Half the width of the square the orthographic projection covers,
    /// centred on the world origin, in world units.
    pub extent: f32,
    /// Constant depth bias added when rendering the map.
    pub bias: f32,
}
