//! Scenes to pictures: [`render_scene`] turns a loaded [`Scene`] into draw
//! calls for the [`Renderer`] (shadow-map pass, objects with their
//! materials' built-in shaders, MSAA resolve) and returns the image with
//! the counts and stage times of every pass.
//!
//! What lives here: the glue between the scene data and the rasterizer,
//! and [`RenderOptions`] (the command line's overrides). What does not:
//! parsing scene files (`load`), the shaders themselves
//! ([`quadtex_raster::builtin`]), PNG files (the caller saves
//! [`RenderedScene::image`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use glam::{Mat4, Vec2, Vec3};
use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat};
use quadtex_sampler::{Profile, SamplerHeader, TextureHeader};

use quadtex_raster::{
    shader_fn, ColorFormat, ColorTarget, CullMode, DepthFormat, DrawCall, DrawState, EdgeDetect,
    FragmentShader, Frame, Lambert, Mesh as RasterMesh, MipHeatmap, Reflect, Renderer,
    ShadowFilter, Shadowed, Stats, Terrain, TextureBinding, Unlit, VolumeSlice,
};

use crate::error::{Error, Result};
use crate::{Light, Material, MeshSource, Object, PcfMode, Scene, Shader};

/// The texture profiles [`profile_from_name`] knows, by name.
pub const PROFILE_NAMES: [&str; 4] = ["vulkan", "nv_sass", "ptx", "d3d11"];

/// The sampler profile called `name` (case-insensitive): `vulkan`,
/// `nv_sass` (also `sass`, `nvsass`), `ptx` or `d3d11` (also `d3d`).
pub fn profile_from_name(name: &str) -> Option<Profile> {
    match name.to_ascii_lowercase().replace('-', "_").as_str() {
        "vulkan" => Some(Profile::VULKAN),
        "nv_sass" | "nvsass" | "sass" => Some(Profile::NV_SASS),
        "ptx" => Some(Profile::PTX),
        "d3d11" | "d3d" => Some(Profile::D3D11),
        _ => None,
    }
}

/// What the command line may override in a scene's `[output]`, and how to
/// render it. `None` keeps the scene's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderOptions {
    /// Output width in pixels (1..=16384).
    pub width: Option<u32>,
    /// Output height in pixels (1..=16384).
    pub height: Option<u32>,
    /// Samples per pixel: 1, 4 or 8.
    pub msaa: Option<u32>,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// The sampler's behaviour profile.
    pub profile: Profile,
    /// The colour target's format; `None` takes the scene's
    /// (`output.format`, `R8G8B8A8_SRGB` unless it says otherwise).
    pub format: Option<ColorFormat>,
    /// Turntable frame `(index, count)`: the camera orbits as
    /// [`Camera::at_frame`](crate::Camera::at_frame) says. `None` renders
    /// the camera as written.
    pub frame: Option<(u32, u32)>,
}

impl Default for RenderOptions {
    /// The scene's own output settings, all cores, the Vulkan profile, no
    /// turntable.
    fn default() -> Self {
        RenderOptions {
            width: None,
            height: None,
            msaa: None,
            threads: 0,
            profile: Profile::VULKAN,
            format: None,
            frame: None,
        }
    }
}

/// The largest width or height [`render_scene`] accepts, as in
/// `scenes/README.md`.
pub const MAX_EXTENT: u32 = 16384;

/// A rendered scene: the resolved picture and what it took.
#[derive(Clone, Debug)]
pub struct RenderedScene {
    /// The resolved, single-sampled colour, in the target's format.
    pub image: ColorTarget,
    /// Counts and times of the main pass and the MSAA resolve.
    pub stats: Stats,
    /// Counts and times of the shadow-map pass, if the scene has one.
    pub shadow_stats: Option<Stats>,
    /// Wall time of the shadow-map pass (render and texture conversion).
    pub shadow_time: Duration,
    /// Samples per pixel the main pass ran with.
    pub msaa: u32,
}

impl RenderedScene {
    /// Quads shaded by every pass (shadow, main, resolve).
    pub fn total_quads(&self) -> u64 {
        self.stats.quads + self.shadow_stats.map_or(0, |s| s.quads)
    }
}

/// Renders `scene` with `options` on a new [`Renderer`]. See
/// [`render_scene_with`] to reuse one renderer across frames.
pub fn render_scene(scene: &Scene, options: &RenderOptions) -> Result<RenderedScene> {
    let renderer = Renderer::new(options.threads)?.with_profile(options.profile);
    render_scene_with(&renderer, scene, options)
}

/// Renders `scene` on `renderer` (its threads and profile are used;
/// `options.threads` and `options.profile` are not).
///
/// Steps: the shadow map of the scene's first shadow light (a depth-only
/// orthographic pass, converted to a `D32`/`D24` texture the `shadowed`
/// shader reads with a compare sampler or a compare gather), then every
/// object in file order as a draw with its material's shader, then the
/// MSAA resolve through [`MsaaResolve`](quadtex_raster::MsaaResolve)'s fetches.
pub fn render_scene_with(
    renderer: &Renderer,
    scene: &Scene,
    options: &RenderOptions,
) -> Result<RenderedScene> {
    let width = options.width.unwrap_or(scene.output.width);
    let height = options.height.unwrap_or(scene.output.height);
    for (option, v) in [("width", width), ("height", height)] {
        if v == 0 || v > MAX_EXTENT {
            return Err(Error::invalid_option(
                option,
                format!("{v} is outside 1..={MAX_EXTENT}"),
            ));
        }
    }
    let msaa = options.msaa.unwrap_or(scene.output.msaa);
    if !matches!(msaa, 1 | 4 | 8) {
        return Err(Error::invalid_option(
            "msaa",
            format!("{msaa} samples (1, 4 or 8)"),
        ));
    }
    let camera = match options.frame {
        Some((i, n)) => {
            if n == 0 || i >= n {
                return Err(Error::invalid_option("frame", format!("frame {i} of {n}")));
            }
            scene.camera.at_frame(i, n)
        }
        None => scene.camera,
    };

    // The shadow pass.
    let t_shadow = Instant::now();
    let mut shadow_stats = None;
    let shadow = match scene.shadow_light() {
        Some(light) if uses_shadows(scene) => {
            let (map, vp, stats) = render_shadow_map(renderer, scene, light)?;
            shadow_stats = Some(stats);
            Some((map, vp, *light))
        }
        _ => None,
    };
    let shadow_time = t_shadow.elapsed();

    let view_proj = camera.projection(width as f32 / height as f32) * camera.view();
    let white = white_texture()?;
    let mut frame = Frame::new(width, height).with_samples(msaa);
    frame.clear_color = scene.output.clear.to_array();
    frame.color_format = options.format.unwrap_or(scene.output.format);
    for object in &scene.objects {
        let Some(material) = scene.material(&object.material) else {
            continue;
        };
        let ctx = ShaderCtx {
            scene,
            camera: camera.position,
            shadow: shadow.as_ref(),
            white: &white,
        };
        let shader = build_shader(&ctx, object, material)?;
        let fullscreen = object.mesh_source == MeshSource::FullscreenQuad;
        let mesh = raster_mesh(object, material.uv_scale, !fullscreen);
        let transform = if fullscreen {
            Mat4::IDENTITY
        } else {
            view_proj
        };
        let state = DrawState {
            cull: if closed(&object.mesh_source) {
                CullMode::Back
            } else {
                CullMode::None
            },
            ..DrawState::default()
        };
        frame.draw(DrawCall::new(Arc::new(mesh), transform, shader).with_state(state));
    }
    let rendered = renderer.render_resolved(&frame)?;
    Ok(RenderedScene {
        image: rendered.color,
        stats: rendered.stats,
        shadow_stats,
        shadow_time,
        msaa,
    })
}

/// Whether any object's material reads the shadow map.
fn uses_shadows(scene: &Scene) -> bool {
    scene.objects.iter().any(|o| {
        scene
            .material(&o.material)
            .is_some_and(|m| m.shader == Shader::Shadowed)
    })
}

/// Meshes that enclose a volume: their back faces are never seen from
/// outside (nor, turned inside out, from inside), so they are culled.
fn closed(source: &MeshSource) -> bool {
    match source {
        MeshSource::Cube | MeshSource::Sphere { .. } | MeshSource::Obj(_) => true,
        MeshSource::Plane | MeshSource::Quad | MeshSource::FullscreenQuad => false,
    }
}

/// The scene mesh of `object` in the rasterizer's standard layout, UVs
/// times `uv_scale`, moved to world space when `to_world` (positions,
/// normals and the world-position attribute).
fn raster_mesh(object: &Object, uv_scale: Vec2, to_world: bool) -> RasterMesh {
    let m = &object.mesh;
    let uvs: Vec<Vec2> = m.uvs.iter().map(|&uv| uv * uv_scale).collect();
    let mesh = RasterMesh::from_std(m.positions.clone(), &uvs, &m.normals, m.indices.clone());
    if to_world {
        mesh.transformed(object.transform.matrix())
    } else {
        mesh
    }
}

/// The 1x1 white texture read by lit materials with no texture.
fn white_texture() -> Result<Arc<Texture>> {
    let desc = TextureDesc::d2(TextureFormat::Rgba8Unorm, 1, 1).with_levels(1);
    Ok(Arc::new(Texture::from_linear_bytes(
        desc,
        Layout::Linear,
        &[255; 4],
    )?))
}

/// What building a material's shader needs beyond the material.
struct ShaderCtx<'a> {
    scene: &'a Scene,
    camera: Vec3,
    shadow: Option<&'a (Arc<Texture>, Mat4, Light)>,
    white: &'a Arc<Texture>,
}

/// `(direction towards the light, colour * intensity)` of `light`.
fn toward(light: &Light) -> (Vec3, Vec3) {
    (-light.direction, light.color * light.intensity)
}

/// The built-in shader `material` names, with its texture, sampler and
/// parameters.
fn build_shader(
    ctx: &ShaderCtx<'_>,
    object: &Object,
    material: &Material,
) -> Result<Arc<dyn FragmentShader>> {
    let scene = ctx.scene;
    let sampler: SamplerHeader = scene.material_sampler(material);
    let view = scene.material_texture(material).cloned();
    let bound = |what: &'static str| -> Result<TextureBinding> {
        view.clone()
            .map(|v| TextureBinding::with_view(v, sampler))
            .ok_or(Error::invalid_option(
                "material",
                format!(
                    "the {what} shader of object `{}` needs a texture",
                    object.name
                ),
            ))
    };
    // Lit materials without a texture read white.
    let base = || {
        TextureBinding::with_view(
            view.clone()
                .unwrap_or_else(|| TextureHeader::new(ctx.white.clone())),
            sampler,
        )
    };
    let tint = material.color.to_array();
    Ok(match material.shader {
        Shader::Unlit => {
            let mut s = Unlit::new(base());
            s.tint = tint;
            s.object_from_world = object.transform.matrix().inverse();
            Arc::new(s)
        }
        Shader::Lambert => {
            let mut lights = scene.lights.iter().map(toward);
            let (dir, color) = lights.next().unwrap_or((Vec3::Y, Vec3::ZERO));
            let mut s = Lambert::new(base(), dir);
            s.light_color = color;
            s.ambient = scene.ambient;
            s.more_lights = lights.collect();
            s.tint = tint;
            Arc::new(s)
        }
        Shader::Reflect => {
            let mut s = Reflect::new(bound("reflect")?, ctx.camera);
            s.tint = tint;
            s.reflectivity = material.reflectivity;
            Arc::new(s)
        }
        Shader::Shadowed => {
            let Some((map, vp, light)) = ctx.shadow else {
                return Err(Error::invalid_option(
                    "material",
                    format!(
                        "object `{}` is shadowed but no light has a shadow",
                        object.name
                    ),
                ));
            };
            let (dir, color) = toward(light);
            let mut s = Shadowed::new(base(), map.clone(), *vp, dir);
            s.light_color = color;
            s.ambient = scene.ambient.element_sum() / 3.0;
            s.bias = material.shadow_bias;
            s.tint = tint;
            s.filter = match light.shadow.map(|sh| sh.pcf) {
                Some(PcfMode::Gather) => ShadowFilter::GatherCompare,
                _ => ShadowFilter::SampleCompare,
            };
            Arc::new(s)
        }
        Shader::MipHeatmap => Arc::new(MipHeatmap::new(bound("mip_heatmap")?)),
        Shader::EdgeDetect => {
            let mut s = EdgeDetect::new(bound("edge_detect")?);
            s.threshold = material.edge_threshold;
            Arc::new(s)
        }
        Shader::Terrain => Arc::new(Terrain::new(
            bound("terrain")?,
            material.height_range.x,
            material.height_range.y,
        )),
        Shader::VolumeSlice => Arc::new(VolumeSlice::new(bound("volume_slice")?, material.slice)),
    })
}

/// Renders the shadow map of `light`: every object with `cast_shadows`,
/// depth only, through [`Light::shadow_view_projection`] with the map's
/// constant bias added to the depth. Returns the depth texture, the
/// (unbiased) world-to-light-clip matrix the shader projects with, and the
/// pass's stats.
fn render_shadow_map(
    renderer: &Renderer,
    scene: &Scene,
    light: &Light,
) -> Result<(Arc<Texture>, Mat4, Stats)> {
    let (Some(shadow), Some(vp)) = (light.shadow, light.shadow_view_projection()) else {
        return Err(Error::invalid_option(
            "shadow",
            "the light has no shadow map".into(),
        ));
    };
    // Orthographic: w = 1, so adding `bias` to clip z adds it to depth.
    let biased = Mat4::from_translation(Vec3::new(0.0, 0.0, shadow.bias)) * vp;
    let mut frame = Frame::new(shadow.size, shadow.size);
    frame.color = false;
    frame.depth_format = match shadow.format {
        TextureFormat::Depth24UnormX8 => DepthFormat::D24Unorm,
        _ => DepthFormat::D32Float,
    };
    // Never run: the frame has no colour target.
    let depth_only = shader_fn(Vec::new(), |_, out| *out = [[0.0; 4]; 4]);
    for object in scene.objects.iter().filter(|o| o.cast_shadows) {
        if object.mesh_source == MeshSource::FullscreenQuad {
            continue;
        }
        let mesh = raster_mesh(object, Vec2::ONE, true);
        frame.draw(DrawCall::new(Arc::new(mesh), biased, depth_only.clone()));
    }
    let r = renderer.render(&frame)?;
    Ok((Arc::new(r.depth.to_texture()?), vp, r.stats))
}
