//! From the parsed file (`file`) to the validated [`Scene`]: defaults
//! applied, names parsed, files read relative to the scene, procedural
//! textures built, meshes generated, references checked. Every error names
//! the key it comes from.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use glam::{Vec2, Vec3, Vec4};
use quadtex_format::io::ColorSpace;
use quadtex_format::{Layout, Texture, TextureFormat, TextureKind};
use quadtex_raster::error::MAX_TARGET_SAMPLES;
use quadtex_raster::ColorFormat;
use quadtex_sampler::desc::{Number, SamplerDesc, ViewDesc};
use quadtex_sampler::{BorderColor, SamplerHeader, TextureHeader};

use crate::error::{invalid, Error, Result};
use crate::file::{
    CameraFile, LightFile, MaterialFile, ObjectFile, OutputFile, ScaleFile, SceneFile, TextureFile,
};
use crate::mesh::Mesh;
use crate::procedural::{
    GradientDirection, NoiseBasis, Procedural, ProceduralShape, MIP_LEVEL_COLORS,
};
use crate::{
    Camera, Light, Material, MeshSource, Object, Output, PcfMode, Scene, SceneTexture, Shader,
    Shadow, TextureSource, Transform, Turntable,
};

/// The largest procedural texture extent on any axis.
const MAX_PROCEDURAL_EXTENT: u32 = 4096;

/// The most bytes the textures of one scene may take together (every
/// level, layer and slice, as the format crate stores them): 1 GiB. The
/// per-texture limits alone let a few lines of TOML ask for gigabytes (ten
/// 4096^2 `R32G32B32A32_SFLOAT` textures with mips are 3.4 GB). A
/// procedural texture, and a generated mip chain, is counted before it is
/// allocated; a file texture once read (the format crate bounds each file).
pub const MAX_SCENE_TEXTURE_BYTES: u64 = 1 << 30;
/// The most texels the generators of one scene may evaluate (level 0 of
/// every procedural texture; every level for `mip_colored`): 2^26, four
/// textures of the largest size. Bounds the load time (a 16-octave noise
/// texel costs about 16 lattice evaluations).
pub const MAX_SCENE_GENERATED_TEXELS: u64 = 1 << 26;
/// The largest `max_anisotropy` a sampler may ask for: 16, the
/// implementation's `maxSamplerAnisotropy` (Vulkan makes a larger value
/// invalid). The sampler's footprint work per fragment grows with it.
pub const MAX_ANISOTROPY: f32 = 16.0;
/// The most objects (draws) in a scene.
pub const MAX_OBJECTS: usize = 4096;
/// The most lights in a scene: the lit shaders loop over every light for
/// every fragment.
pub const MAX_LIGHTS: usize = 16;
/// The most triangles all objects of a scene may draw together (an object
/// counts its mesh's triangles, shared or not): 2^22, two spheres of the
/// largest tessellation. Bounds the per-frame mesh copies, setup and
/// binning.
pub const MAX_SCENE_TRIANGLES: u64 = 1 << 22;
/// The largest OBJ file an object may name: 64 MiB, read before it is
/// parsed (the parser holds all of it, triangulated, in memory).
pub const MAX_OBJ_BYTES: u64 = 64 << 20;
/// The most frames a turntable may have (`camera.turntable.frames`, and
/// `quadtex render --frames`): 10,000, numbered `_0000` to `_9999`.
pub const MAX_FRAMES: u32 = 10_000;

/// What the textures loaded so far take, against
/// [`MAX_SCENE_TEXTURE_BYTES`] and [`MAX_SCENE_GENERATED_TEXELS`].
#[derive(Default)]
struct Budget {
    bytes: u64,
    texels: u64,
}

impl Budget {
    /// Counts `bytes` more texture memory for `key`, or says which limit
    /// it passes.
    fn take_bytes(&mut self, key: &str, bytes: Option<u64>) -> Result<()> {
        let total = bytes.and_then(|b| b.checked_add(self.bytes));
        match total {
            Some(t) if t <= MAX_SCENE_TEXTURE_BYTES => {
                self.bytes = t;
                Ok(())
            }
            _ => Err(invalid(
                key,
                format!(
                    "the scene's textures would take {} bytes, more than the {MAX_SCENE_TEXTURE_BYTES} (1 GiB) a scene may have",
                    total.map_or_else(|| "too many".to_owned(), |t| t.to_string())
                ),
            )),
        }
    }

    /// Counts the texture `generator` builds for `shape`: its bytes and
    /// the texels it evaluates.
    fn take_procedural(
        &mut self,
        key: &str,
        generator: &Procedural,
        shape: &ProceduralShape,
    ) -> Result<()> {
        let desc = generator.desc(shape);
        self.take_bytes(key, desc.total_bytes())?;
        let levels = match generator {
            Procedural::MipColored { .. } => desc.levels,
            _ => 1,
        };
        let texels = (0..levels)
            .map(|l| desc.level_extent(l))
            .map(|e| u64::from(e.width) * u64::from(e.height) * u64::from(e.depth))
            .sum::<u64>()
            * u64::from(desc.layers);
        self.take_texels(key, texels)
    }

    /// Counts `texels` more generated texels for `key`.
    fn take_texels(&mut self, key: &str, texels: u64) -> Result<()> {
        let t = self.texels.saturating_add(texels);
        if t > MAX_SCENE_GENERATED_TEXELS {
            return Err(invalid(
                key,
                format!(
                    "the scene's procedural textures would have {t} texels, more than the {MAX_SCENE_GENERATED_TEXELS} a scene may generate"
                ),
            ));
        }
        self.texels = t;
        Ok(())
    }
}
/// The most texels (all layers and slices of level 0) a procedural texture
/// may have: keeps a typo from allocating gigabytes.
const MAX_PROCEDURAL_TEXELS: u64 = 1 << 24;
/// The largest output extent.
const MAX_OUTPUT_EXTENT: u32 = 16384;
/// The largest shadow map.
const MAX_SHADOW_SIZE: u32 = 8192;

pub(crate) fn from_str(text: &str, base: &Path, path: &Path) -> Result<Scene> {
    let file: SceneFile =
        toml::from_str(text).map_err(|e| Error::parse(path.to_owned(), Box::new(e)))?;
    let camera = camera(file.camera.unwrap_or_default())?;
    let output = output(file.output.unwrap_or_default())?;
    let ambient = match &file.ambient {
        Some(a) => color(a, "ambient")?.truncate(),
        None => Vec3::splat(0.1),
    };
    // Every procedural texture is planned and counted against the
    // scene's budget first: a scene asking for too much fails before any
    // texture is allocated.
    let mut budget = Budget::default();
    let mut plans = BTreeMap::new();
    for (name, t) in &file.textures {
        let key = format!("textures.{name}");
        one_source(t, &key)?;
        if t.file.is_none() {
            let (generator, shape) = procedural_plan(t, &key)?;
            budget.take_procedural(&key, &generator, &shape)?;
            plans.insert(name, (generator, shape));
        }
    }
    let mut textures = BTreeMap::new();
    for (name, t) in &file.textures {
        let key = format!("textures.{name}");
        let plan = plans.remove(name);
        textures.insert(name.clone(), texture(t, &key, base, &mut budget, plan)?);
    }
    let mut samplers = BTreeMap::new();
    for (name, s) in &file.samplers {
        samplers.insert(name.clone(), sampler(s, &format!("samplers.{name}"))?);
    }
    if file.lights.len() > MAX_LIGHTS {
        return Err(invalid(
            "lights",
            format!(
                "{} lights, more than the {MAX_LIGHTS} a scene may have",
                file.lights.len()
            ),
        ));
    }
    if file.objects.len() > MAX_OBJECTS {
        return Err(invalid(
            "objects",
            format!(
                "{} objects, more than the {MAX_OBJECTS} a scene may have",
                file.objects.len()
            ),
        ));
    }
    let mut lights = Vec::new();
    for (i, l) in file.lights.iter().enumerate() {
        lights.push(light(l, &format!("lights[{i}]"))?);
    }
    let has_shadow = lights.iter().any(|l| l.shadow.is_some());
    let mut materials = BTreeMap::new();
    for (name, m) in &file.materials {
        let key = format!("materials.{name}");
        let m = material(m, &key, &textures, &samplers, has_shadow)?;
        materials.insert(name.clone(), m);
    }
    let mut objects = Vec::new();
    let mut meshes: BTreeMap<String, Arc<Mesh>> = BTreeMap::new();
    let mut triangles = 0u64;
    for (i, o) in file.objects.iter().enumerate() {
        let key = format!("objects[{i}]");
        let o = object(o, &key, base, &materials, &mut meshes)?;
        triangles += o.mesh.triangle_count() as u64;
        if triangles > MAX_SCENE_TRIANGLES {
            return Err(invalid(
                key,
                format!(
                    "the objects up to this one draw {triangles} triangles, more than the {MAX_SCENE_TRIANGLES} a scene may have"
                ),
            ));
        }
        objects.push(o);
    }
    Ok(Scene {
        path: None,
        camera,
        output,
        ambient,
        textures,
        samplers,
        materials,
        objects,
        lights,
    })
}

fn finite(v: f32, key: &str) -> Result<f32> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(invalid(key, format!("{v} is not a finite number")))
    }
}

fn vec3(v: [f32; 3], key: &str) -> Result<Vec3> {
    for c in v {
        finite(c, key)?;
    }
    Ok(Vec3::from_array(v))
}

/// A colour of 3 (opaque) or 4 finite components.
fn color(c: &[f32], key: &str) -> Result<Vec4> {
    for &v in c {
        finite(v, key)?;
    }
    match *c {
        [r, g, b] => Ok(Vec4::new(r, g, b, 1.0)),
        [r, g, b, a] => Ok(Vec4::new(r, g, b, a)),
        _ => Err(invalid(
            key,
            format!("a colour has 3 or 4 components, got {}", c.len()),
        )),
    }
}

fn colors(c: &[Vec<f32>], key: &str) -> Result<Vec<Vec4>> {
    c.iter()
        .enumerate()
        .map(|(i, c)| color(c, &format!("{key}[{i}]")))
        .collect()
}

fn two_colors(c: &Option<Vec<Vec<f32>>>, key: &str, default: [Vec4; 2]) -> Result<[Vec4; 2]> {
    match c {
        None => Ok(default),
        Some(c) => {
            let v = colors(c, key)?;
            v.try_into()
                .map_err(|v: Vec<Vec4>| invalid(key, format!("needs 2 colours, got {}", v.len())))
        }
    }
}

/// Looks `value` up among `names`, or reports every accepted spelling.
fn parse_name<T: Copy>(
    value: &str,
    key: &str,
    what: &'static str,
    names: &[(&'static str, T)],
) -> Result<T> {
    names
        .iter()
        .find(|(n, _)| *n == value)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            Error::unknown_name(
                key.to_owned(),
                what,
                value.to_owned(),
                names.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", "),
            )
        })
}

fn camera(c: CameraFile) -> Result<Camera> {
    let d = Camera::default();
    let cam = Camera {
        position: c
            .position
            .map_or(Ok(d.position), |v| vec3(v, "camera.position"))?,
        target: c
            .target
            .map_or(Ok(d.target), |v| vec3(v, "camera.target"))?,
        up: c.up.map_or(Ok(d.up), |v| vec3(v, "camera.up"))?,
        fov_y_degrees: finite(c.fov_y.unwrap_or(d.fov_y_degrees), "camera.fov_y")?,
        near: finite(c.near.unwrap_or(d.near), "camera.near")?,
        far: finite(c.far.unwrap_or(d.far), "camera.far")?,
        turntable: match c.turntable {
            None => None,
            Some(t) => {
                let axis = t
                    .axis
                    .map_or(Ok(Vec3::Y), |v| vec3(v, "camera.turntable.axis"))?;
                Some(Turntable {
                    degrees: finite(t.degrees.unwrap_or(360.0), "camera.turntable.degrees")?,
                    axis: axis
                        .try_normalize()
                        .ok_or_else(|| invalid("camera.turntable.axis", "is zero"))?,
                    frames: match t.frames.unwrap_or(36) {
                        f @ 1..=MAX_FRAMES => f,
                        f => {
                            return Err(invalid(
                                "camera.turntable.frames",
                                format!("{f} is outside 1..={MAX_FRAMES}"),
                            ))
                        }
                    },
                })
            }
        },
    };
    if !(cam.fov_y_degrees > 0.0 && cam.fov_y_degrees < 180.0) {
        return Err(invalid("camera.fov_y", "must be between 0 and 180 degrees"));
    }
    if cam.near <= 0.0 {
        return Err(invalid("camera.near", "must be > 0"));
    }
    if cam.far <= cam.near {
        return Err(invalid("camera.far", "must be > camera.near"));
    }
    let dir = cam.target - cam.position;
    if dir.length_squared() == 0.0 {
        return Err(invalid("camera.target", "equals camera.position"));
    }
    if dir.cross(cam.up).length_squared() <= 1e-12 * dir.length_squared() * cam.up.length_squared()
    {
        return Err(invalid(
            "camera.up",
            "is zero or parallel to the view direction",
        ));
    }
    Ok(cam)
}

fn output(o: OutputFile) -> Result<Output> {
    let d = Output::default();
    let out = Output {
        width: o.width.unwrap_or(d.width),
        height: o.height.unwrap_or(d.height),
        msaa: o.msaa.unwrap_or(d.msaa),
        clear: match &o.clear {
            Some(c) => color(c, "output.clear")?,
            None => d.clear,
        },
        format: match &o.format {
            None => d.format,
            Some(name) => ColorFormat::from_name(name).ok_or_else(|| {
                invalid(
                    "output.format",
                    format!(
                        "{name:?} is not a colour target format ({})",
                        ColorFormat::ALL.map(|f| f.name()).join(", ")
                    ),
                )
            })?,
        },
    };
    for (k, v) in [("output.width", out.width), ("output.height", out.height)] {
        if !(1..=MAX_OUTPUT_EXTENT).contains(&v) {
            return Err(invalid(
                k,
                format!("{v} is outside 1..={MAX_OUTPUT_EXTENT}"),
            ));
        }
    }
    if !matches!(out.msaa, 1 | 4 | 8) {
        return Err(invalid(
            "output.msaa",
            format!("{} is not 1, 4 or 8", out.msaa),
        ));
    }
    let samples = u64::from(out.width) * u64::from(out.height) * u64::from(out.msaa);
    if samples > MAX_TARGET_SAMPLES {
        return Err(invalid(
            "output.msaa",
            format!(
                "{} x {} pixels with {} samples is {samples} samples, more than the {MAX_TARGET_SAMPLES} a target may hold",
                out.width, out.height, out.msaa
            ),
        ));
    }
    Ok(out)
}

const KINDS: [(&str, TextureKind); 4] = [
    ("2d", TextureKind::D2),
    ("2d_array", TextureKind::D2Array),
    ("cube", TextureKind::Cube),
    ("3d", TextureKind::D3),
];

fn parse_format(name: &str, key: &str) -> Result<TextureFormat> {
    name.parse::<TextureFormat>().map_err(|_| {
        Error::unknown_name(
            key.to_owned(),
            "texture format",
            name.to_owned(),
            "a Vulkan format name such as R8G8B8A8_UNORM or R16G16B16A16_SFLOAT".to_owned(),
        )
    })
}

/// The sRGB format whose linear twin is `f`, or `f` if it is sRGB already.
fn srgb_twin(f: TextureFormat) -> Option<TextureFormat> {
    if f.is_srgb() {
        return Some(f);
    }
    TextureFormat::ALL
        .iter()
        .copied()
        .find(|s| s.is_srgb() && s.linear_twin() == f)
}

/// Checks that the texture at `key` names exactly one source.
fn one_source(t: &TextureFile, key: &str) -> Result<()> {
    let generators = [
        t.checker.is_some(),
        t.gradient.is_some(),
        t.noise.is_some(),
        t.mip_colored.is_some(),
    ]
    .into_iter()
    .filter(|b| *b)
    .count();
    let sources = generators + usize::from(t.file.is_some());
    if sources != 1 {
        return Err(invalid(
            key,
            format!(
                "needs exactly one of file, checker, gradient, noise, mip_colored; got {sources}"
            ),
        ));
    }
    Ok(())
}

/// The texture at `key`: read from its file (counted against `budget` as
/// it loads), or built from its `plan` (already counted).
fn texture(
    t: &TextureFile,
    key: &str,
    base: &Path,
    budget: &mut Budget,
    plan: Option<(Procedural, ProceduralShape)>,
) -> Result<SceneTexture> {
    let mut st = match (&t.file, plan) {
        (Some(f), _) => file_texture(t, f, key, base, budget)?,
        (None, Some((generator, shape))) => {
            let (_, header) = generator
                .build(&shape)
                .map_err(|source| Error::texture(key.to_owned(), source))?;
            SceneTexture {
                header,
                source: TextureSource::Procedural(generator),
            }
        }
        // `from_str` plans every texture without a file.
        (None, None) => return Err(invalid(key, "has no source")),
    };
    if let Some(c) = t.min_lod_clamp {
        finite(c, &format!("{key}.min_lod_clamp"))?;
    }
    // The texture table's view fields, through the shared description.
    let view = ViewDesc {
        swizzle: t.swizzle.clone(),
        min_lod_clamp: t.min_lod_clamp.map(|c| Number(c.into())),
        base_level: Some(st.header.base_level),
        level_count: Some(st.header.level_count),
        base_layer: Some(st.header.base_layer),
        layer_count: Some(st.header.layer_count),
    };
    view.apply(key, &mut st.header)
        .map_err(|e| field_error(e, key))?;
    st.header
        .validate()
        .map_err(|source| Error::sampler(key.to_owned(), source))?;
    Ok(st)
}

fn file_texture(
    t: &TextureFile,
    name: &str,
    key: &str,
    base: &Path,
    budget: &mut Budget,
) -> Result<SceneTexture> {
    for (k, set) in [
        ("format", t.format.is_some()),
        ("size", t.size.is_some()),
        ("width", t.width.is_some()),
        ("height", t.height.is_some()),
        ("depth", t.depth.is_some()),
        ("layers", t.layers.is_some()),
        ("tints", t.tints.is_some()),
    ] {
        if set {
            return Err(invalid(
                format!("{key}.{k}"),
                "a file texture takes this from the file",
            ));
        }
    }
    let path = base.join(name);
    let fkey = format!("{key}.file");
    if !path.is_file() {
        return Err(Error::missing_file(fkey, path));
    }
    let srgb = t.srgb.unwrap_or(true);
    let cs = if srgb {
        ColorSpace::Srgb
    } else {
        ColorSpace::Linear
    };
    let terr = |source| Error::texture(fkey.clone(), source);
    let mut tex = quadtex_format::io::load_file_with(&path, cs).map_err(terr)?;
    let d = *tex.desc();
    budget.take_bytes(key, d.total_bytes())?;
    let can_generate = !d.format.is_compressed()
        && !d.kind.is_multisample()
        && d.format.aspect_sample_type(d.format.default_aspect())
            == quadtex_format::SampleType::Float;
    let want_mips = match t.mips {
        Some(true) if !can_generate && d.levels == 1 => {
            return Err(invalid(
                format!("{key}.mips"),
                format!("cannot generate mips for {} ({} texture)", d.format, d.kind),
            ))
        }
        Some(m) => m,
        None => can_generate,
    };
    if want_mips && d.levels == 1 && d.max_levels() > 1 {
        let full = d.with_levels(d.max_levels());
        // The chain's levels below the first, before they are allocated
        // (the copy replaces the loaded level 0, which is already counted).
        let chain = full
            .total_bytes()
            .and_then(|f| f.checked_sub(d.total_bytes()?));
        budget.take_bytes(&format!("{key}.mips"), chain)?;
        let mut t2 = Texture::new(full, Layout::Linear).map_err(terr)?;
        for layer in 0..d.layers {
            if let Some(bytes) = tex.subresource_bytes(0, layer, 0) {
                t2.write_subresource_bytes(0, layer, 0, &bytes)
                    .map_err(terr)?;
            }
        }
        quadtex_format::mip::generate_mips(&mut t2).map_err(terr)?;
        tex = t2;
    }
    let mut header = TextureHeader::new(Arc::new(tex));
    header.srgb_decode = srgb;
    if let Some(k) = &t.kind {
        header.kind = parse_name(k, &format!("{key}.kind"), "texture kind", &KINDS)?;
        header.layer_count = match header.kind {
            TextureKind::Cube => 6,
            TextureKind::D2 | TextureKind::D3 => 1,
            _ => header.layer_count,
        };
    }
    Ok(SceneTexture {
        header,
        source: TextureSource::File(path),
    })
}

/// Validates the procedural texture at `key` into what builds it, without
/// building it.
fn procedural_plan(t: &TextureFile, key: &str) -> Result<(Procedural, ProceduralShape)> {
    let kind = match &t.kind {
        Some(k) => parse_name(k, &format!("{key}.kind"), "texture kind", &KINDS)?,
        None => TextureKind::D2,
    };
    let srgb = t.srgb.unwrap_or(false);
    let mut format = match &t.format {
        Some(f) => parse_format(f, &format!("{key}.format"))?,
        None => TextureFormat::Rgba8Unorm,
    };
    if srgb {
        format = srgb_twin(format)
            .ok_or_else(|| invalid(format!("{key}.srgb"), format!("{format} has no sRGB twin")))?;
    }
    let size = t.size.unwrap_or(256);
    let width = t.width.unwrap_or(size);
    let height = t.height.unwrap_or(size);
    let depth = if kind == TextureKind::D3 {
        t.depth.unwrap_or(16)
    } else if t.depth.is_some() {
        return Err(invalid(
            format!("{key}.depth"),
            "only 3d textures have a depth",
        ));
    } else {
        1
    };
    let layers = match kind {
        TextureKind::D2Array => t.layers.unwrap_or(1),
        TextureKind::Cube => 6,
        _ => 1,
    };
    if t.layers.is_some() && kind != TextureKind::D2Array {
        return Err(invalid(
            format!("{key}.layers"),
            "only 2d_array textures have layers",
        ));
    }
    if kind == TextureKind::Cube && width != height {
        return Err(invalid(format!("{key}.width"), "cube faces are square"));
    }
    for (k, v) in [
        ("width", width),
        ("height", height),
        ("depth", depth),
        ("layers", layers),
    ] {
        if !(1..=MAX_PROCEDURAL_EXTENT).contains(&v) {
            return Err(invalid(
                format!("{key}.{k}"),
                format!("{v} is outside 1..={MAX_PROCEDURAL_EXTENT}"),
            ));
        }
    }
    let texels = u64::from(width) * u64::from(height) * u64::from(depth) * u64::from(layers);
    if texels > MAX_PROCEDURAL_TEXELS {
        return Err(invalid(
            key.to_owned(),
            format!("{texels} texels is more than the {MAX_PROCEDURAL_TEXELS} allowed"),
        ));
    }
    let tints = match &t.tints {
        Some(c) => colors(c, &format!("{key}.tints"))?,
        None => Vec::new(),
    };
    let white = Vec4::ONE;
    let black = Vec4::new(0.0, 0.0, 0.0, 1.0);
    let generator = if let Some(c) = &t.checker {
        let squares = c.squares.unwrap_or(8);
        if squares == 0 {
            return Err(invalid(format!("{key}.checker.squares"), "must be >= 1"));
        }
        Procedural::Checker {
            squares,
            colors: two_colors(&c.colors, &format!("{key}.checker.colors"), [white, black])?,
        }
    } else if let Some(g) = &t.gradient {
        let k = format!("{key}.gradient");
        let dirs = GradientDirection::ALL.map(|d| (d.name(), d));
        Procedural::Gradient {
            from: g
                .from
                .as_ref()
                .map_or(Ok(black), |c| color(c, &format!("{k}.from")))?,
            to: g
                .to
                .as_ref()
                .map_or(Ok(white), |c| color(c, &format!("{k}.to")))?,
            direction: match &g.direction {
                Some(d) => parse_name(d, &format!("{k}.direction"), "gradient direction", &dirs)?,
                None => GradientDirection::Horizontal,
            },
        }
    } else if let Some(n) = &t.noise {
        let k = format!("{key}.noise");
        let bases = NoiseBasis::ALL.map(|b| (b.name(), b));
        let scale = finite(n.scale.unwrap_or(8.0), &format!("{k}.scale"))?;
        if scale <= 0.0 {
            return Err(invalid(format!("{k}.scale"), "must be > 0"));
        }
        let octaves = n.octaves.unwrap_or(4);
        if !(1..=16).contains(&octaves) {
            return Err(invalid(format!("{k}.octaves"), "must be 1..=16"));
        }
        Procedural::Noise {
            basis: match &n.basis {
                Some(b) => parse_name(b, &format!("{k}.basis"), "noise basis", &bases)?,
                None => NoiseBasis::Perlin,
            },
            scale,
            octaves,
            seed: n.seed.unwrap_or(0),
            colors: two_colors(&n.colors, &format!("{k}.colors"), [black, white])?,
        }
    } else if let Some(m) = &t.mip_colored {
        let colors = match &m.colors {
            Some(c) => colors(c, &format!("{key}.mip_colored.colors"))?,
            None => MIP_LEVEL_COLORS
                .iter()
                .map(|c| Vec4::from_array(*c))
                .collect(),
        };
        if colors.is_empty() {
            return Err(invalid(format!("{key}.mip_colored.colors"), "is empty"));
        }
        if t.mips == Some(false) {
            return Err(invalid(
                format!("{key}.mips"),
                "mip_colored always has every level",
            ));
        }
        Procedural::MipColored { colors }
    } else {
        // `texture` counted exactly one source and it was not a file.
        return Err(invalid(key.to_owned(), "has no source"));
    };
    let shape = ProceduralShape {
        kind,
        format,
        width,
        height,
        depth,
        layers,
        mips: t.mips.unwrap_or(true),
        tints,
    };
    Ok((generator, shape))
}

/// The sampler table `key`: the sampler crate's shared description
/// ([`quadtex_sampler::desc`], the probe format's too) from
/// [`SamplerHeader::default`], then what scenes add: a finite LOD range
/// and bias, anisotropy at most [`MAX_ANISOTROPY`], and the header valid
/// on its own.
fn sampler(s: &SamplerDesc, key: &str) -> Result<SamplerHeader> {
    let k = |f: &str| format!("{key}.{f}");
    let h = s
        .to_header(key, SamplerHeader::default(), None)
        .map_err(|e| field_error(e, key))?;
    for (name, v) in [
        ("lod_bias", h.mip_lod_bias),
        ("min_lod", h.min_lod),
        ("max_lod", h.max_lod),
        ("max_anisotropy", h.max_anisotropy),
    ] {
        finite(v, &k(name))?;
    }
    if let BorderColor::Float(c) = h.border_color {
        for v in c {
            finite(v, &k("border"))?;
        }
    }
    // An error rather than a clamp: Vulkan makes a value above
    // maxSamplerAnisotropy invalid, and a scene asking for 4096 means
    // something the renderer does not do. (Below 1 the sampler's own
    // validation below refuses it.)
    if h.max_anisotropy > MAX_ANISOTROPY {
        return Err(invalid(
            k("max_anisotropy"),
            format!("{} is outside 1..={MAX_ANISOTROPY}", h.max_anisotropy),
        ));
    }
    h.validate()
        .map_err(|source| Error::sampler(key.to_owned(), source))?;
    Ok(h)
}

/// A description's error as the scene's: a bad field is an invalid value
/// at its key path; anything else is the sampler crate's, at `key`.
fn field_error(e: quadtex_sampler::Error, key: &str) -> Error {
    match (e.kind(), e.field(), e.reason()) {
        (quadtex_sampler::ErrorKind::InvalidField, Some(field), Some(reason)) => {
            invalid(field, reason)
        }
        _ => Error::sampler(key.to_owned(), e),
    }
}

fn material(
    m: &MaterialFile,
    key: &str,
    textures: &BTreeMap<String, SceneTexture>,
    samplers: &BTreeMap<String, SamplerHeader>,
    has_shadow: bool,
) -> Result<Material> {
    let k = |f: &str| format!("{key}.{f}");
    let shaders = Shader::ALL.map(|s| (s.name(), s));
    let shader = parse_name(&m.shader, &k("shader"), "shader", &shaders)?;
    let d = Material::default();
    let tex = match &m.texture {
        Some(n) => Some(
            textures
                .get(n)
                .ok_or_else(|| Error::missing_reference(k("texture"), "texture", n.clone()))?,
        ),
        None => None,
    };
    let samp = match &m.sampler {
        Some(n) => *samplers
            .get(n)
            .ok_or_else(|| Error::missing_reference(k("sampler"), "sampler", n.clone()))?,
        None => crate::default_sampler(),
    };
    let wanted: &[TextureKind] = match shader {
        Shader::Reflect => &[TextureKind::Cube],
        Shader::Terrain => &[TextureKind::D2Array],
        Shader::VolumeSlice => &[TextureKind::D3],
        Shader::Unlit => &[TextureKind::D2, TextureKind::Cube],
        Shader::Lambert | Shader::Shadowed | Shader::MipHeatmap | Shader::EdgeDetect => {
            &[TextureKind::D2]
        }
    };
    let needs_texture = !matches!(shader, Shader::Unlit | Shader::Lambert | Shader::Shadowed);
    match tex {
        None if needs_texture => {
            return Err(invalid(
                k("texture"),
                format!("the {} shader needs a texture", shader.name()),
            ))
        }
        None => {
            // Without a texture the shader reads a 1x1 RGBA8 white one
            // (`render`): the sampler must suit it too (no depth compare),
            // or the render would fail where loading succeeded.
            let white = TextureHeader::new(Arc::new(
                Texture::new(
                    quadtex_format::TextureDesc::d2(TextureFormat::Rgba8Unorm, 1, 1).with_levels(1),
                    Layout::Linear,
                )
                .map_err(|source| Error::texture(k("texture"), source))?,
            ));
            samp.validate_with(&white)
                .map_err(|source| Error::sampler(k("sampler"), source))?;
        }
        Some(t) => {
            if !wanted.contains(&t.header.kind) {
                return Err(invalid(
                    k("texture"),
                    format!(
                        "the {} shader reads a {} texture, `{}` is {}",
                        shader.name(),
                        wanted[0],
                        m.texture.as_deref().unwrap_or_default(),
                        t.header.kind
                    ),
                ));
            }
            samp.validate_with(&t.header)
                .map_err(|source| Error::sampler(k("sampler"), source))?;
        }
    }
    if shader == Shader::Shadowed && !has_shadow {
        return Err(invalid(
            k("shader"),
            "the shadowed shader needs a light with a shadow block",
        ));
    }
    let uv_scale = match m.uv_scale {
        Some([u, v]) => Vec2::new(finite(u, &k("uv_scale"))?, finite(v, &k("uv_scale"))?),
        None => d.uv_scale,
    };
    let height_range = match m.height_range {
        Some([a, b]) => {
            let r = Vec2::new(
                finite(a, &k("height_range"))?,
                finite(b, &k("height_range"))?,
            );
            if r.x >= r.y {
                return Err(invalid(k("height_range"), "needs low < high"));
            }
            r
        }
        None => d.height_range,
    };
    Ok(Material {
        shader,
        texture: m.texture.clone(),
        sampler: m.sampler.clone(),
        color: match &m.color {
            Some(c) => color(c, &k("color"))?,
            None => d.color,
        },
        uv_scale,
        reflectivity: finite(m.reflectivity.unwrap_or(d.reflectivity), &k("reflectivity"))?,
        slice: finite(m.slice.unwrap_or(d.slice), &k("slice"))?,
        edge_threshold: finite(
            m.edge_threshold.unwrap_or(d.edge_threshold),
            &k("edge_threshold"),
        )?,
        height_range,
        shadow_bias: finite(m.shadow_bias.unwrap_or(d.shadow_bias), &k("shadow_bias"))?,
    })
}

fn object(
    o: &ObjectFile,
    key: &str,
    base: &Path,
    materials: &BTreeMap<String, Material>,
    meshes: &mut BTreeMap<String, Arc<Mesh>>,
) -> Result<Object> {
    let k = |f: &str| format!("{key}.{f}");
    #[derive(Clone, Copy)]
    enum Kind {
        Plane,
        Cube,
        Sphere,
        Quad,
        Obj,
    }
    let kinds = [
        ("plane", Kind::Plane),
        ("cube", Kind::Cube),
        ("sphere", Kind::Sphere),
        ("quad", Kind::Quad),
        ("obj", Kind::Obj),
    ];
    let kind = parse_name(&o.mesh, &k("mesh"), "mesh", &kinds)?;
    let only = |set: bool, field: &str, mesh: &str| {
        if set && o.mesh != mesh {
            Err(invalid(
                k(field),
                format!("only a {mesh} mesh takes {field}"),
            ))
        } else {
            Ok(())
        }
    };
    only(o.segments.is_some(), "segments", "sphere")?;
    only(o.rings.is_some(), "rings", "sphere")?;
    only(o.fullscreen.is_some(), "fullscreen", "quad")?;
    only(o.file.is_some(), "file", "obj")?;
    let source = match kind {
        Kind::Plane => MeshSource::Plane,
        Kind::Cube => MeshSource::Cube,
        Kind::Sphere => {
            let segments = o.segments.unwrap_or(32);
            MeshSource::Sphere {
                segments,
                rings: o.rings.unwrap_or((segments / 2).max(2)),
            }
        }
        Kind::Quad if o.fullscreen == Some(true) => MeshSource::FullscreenQuad,
        Kind::Quad => MeshSource::Quad,
        Kind::Obj => {
            let f = o
                .file
                .as_ref()
                .ok_or_else(|| invalid(k("file"), "an obj mesh needs a file"))?;
            let path = base.join(f);
            if !path.is_file() {
                return Err(Error::missing_file(k("file"), path));
            }
            let len = std::fs::metadata(&path)
                .map_err(|source| Error::io(path.clone(), source))?
                .len();
            if len > MAX_OBJ_BYTES {
                return Err(invalid(
                    k("file"),
                    format!(
                        "{}: {len} bytes, more than the {MAX_OBJ_BYTES} an OBJ file may have",
                        path.display()
                    ),
                ));
            }
            MeshSource::Obj(path)
        }
    };
    let inside_out = o.inside_out.unwrap_or(false);
    let cache_key = format!("{source:?} {inside_out}");
    let mesh = match meshes.get(&cache_key) {
        Some(m) => Arc::clone(m),
        None => {
            let m = Arc::new(match &source {
                MeshSource::Plane => Mesh::plane(),
                MeshSource::Cube => Mesh::cube(),
                MeshSource::Sphere { segments, rings } => {
                    Mesh::sphere(*segments, *rings).map_err(|e| e.rekey(|f| k(f)))?
                }
                MeshSource::Quad => Mesh::quad(),
                MeshSource::FullscreenQuad => Mesh::fullscreen_quad(),
                MeshSource::Obj(p) => Mesh::load_obj(p, &k("file"))?,
            });
            let m = if inside_out {
                Arc::new(m.turned_inside_out())
            } else {
                m
            };
            meshes.insert(cache_key, Arc::clone(&m));
            m
        }
    };
    let scale = match &o.scale {
        None => Vec3::ONE,
        Some(ScaleFile::Uniform(s)) => Vec3::splat(finite(*s, &k("scale"))?),
        Some(ScaleFile::Axes(s)) => vec3(*s, &k("scale"))?,
    };
    if source == MeshSource::FullscreenQuad
        && (o.translate.is_some() || o.rotate.is_some() || o.scale.is_some())
    {
        return Err(invalid(
            k("fullscreen"),
            "a full-screen quad is in clip space: translate, rotate and scale do not apply",
        ));
    }
    if scale.cmpeq(Vec3::ZERO).any() {
        return Err(invalid(k("scale"), "has a zero factor"));
    }
    let transform = Transform {
        translate: o
            .translate
            .map_or(Ok(Vec3::ZERO), |v| vec3(v, &k("translate")))?,
        rotate_degrees: o.rotate.map_or(Ok(Vec3::ZERO), |v| vec3(v, &k("rotate")))?,
        scale,
    };
    if !materials.contains_key(&o.material) {
        return Err(Error::missing_reference(
            k("material"),
            "material",
            o.material.clone(),
        ));
    }
    Ok(Object {
        name: o.name.clone().unwrap_or_else(|| key.to_owned()),
        mesh,
        mesh_source: source,
        transform,
        material: o.material.clone(),
        inside_out,
        cast_shadows: o.cast_shadows.unwrap_or(true),
    })
}

fn light(l: &LightFile, key: &str) -> Result<Light> {
    let k = |f: &str| format!("{key}.{f}");
    if let Some(kind) = &l.kind {
        parse_name(kind, &k("kind"), "light kind", &[("directional", ())])?;
    }
    let direction = vec3(l.direction, &k("direction"))?
        .try_normalize()
        .ok_or_else(|| invalid(k("direction"), "is zero"))?;
    let shadow = match &l.shadow {
        None => None,
        Some(s) => {
            let size = s.size.unwrap_or(1024);
            if !(1..=MAX_SHADOW_SIZE).contains(&size) {
                return Err(invalid(
                    k("shadow.size"),
                    format!("{size} is outside 1..={MAX_SHADOW_SIZE}"),
                ));
            }
            let formats = [
                ("D32", TextureFormat::Depth32Float),
                ("D24", TextureFormat::Depth24UnormX8),
                ("D32_SFLOAT", TextureFormat::Depth32Float),
                ("X8_D24_UNORM_PACK32", TextureFormat::Depth24UnormX8),
            ];
            let pcfs = [("compare", PcfMode::Compare), ("gather", PcfMode::Gather)];
            let extent = finite(s.extent.unwrap_or(10.0), &k("shadow.extent"))?;
            if extent <= 0.0 {
                return Err(invalid(k("shadow.extent"), "must be > 0"));
            }
            Some(Shadow {
                size,
                format: match &s.format {
                    Some(f) => parse_name(f, &k("shadow.format"), "depth format", &formats)?,
                    None => TextureFormat::Depth32Float,
                },
                pcf: match &s.pcf {
                    Some(p) => parse_name(p, &k("shadow.pcf"), "pcf mode", &pcfs)?,
                    None => PcfMode::Compare,
                },
                extent,
                bias: finite(s.bias.unwrap_or(0.002), &k("shadow.bias"))?,
            })
        }
    };
    Ok(Light {
        direction,
        color: l.color.map_or(Ok(Vec3::ONE), |c| vec3(c, &k("color")))?,
        intensity: finite(l.intensity.unwrap_or(1.0), &k("intensity"))?,
        shadow,
    })
}
