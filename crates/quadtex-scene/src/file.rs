//! The TOML file as written: serde structs mirroring `scenes/README.md`,
//! every table `deny_unknown_fields` so a misspelt key is an error naming
//! it. Names (shaders, formats, filters, ...) stay strings here and are
//! parsed in `load`, so that a bad one is reported with its full key path.
//! Defaults are applied in `load`, not here, so this file is only shape.

use std::collections::BTreeMap;

use quadtex_sampler::desc::SamplerDesc;
use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SceneFile {
    pub camera: Option<CameraFile>,
    pub output: Option<OutputFile>,
    pub ambient: Option<Vec<f32>>,
    #[serde(default)]
    pub textures: BTreeMap<String, TextureFile>,
    #[serde(default)]
    pub samplers: BTreeMap<String, SamplerDesc>,
    #[serde(default)]
    pub materials: BTreeMap<String, MaterialFile>,
    #[serde(default)]
    pub objects: Vec<ObjectFile>,
    #[serde(default)]
    pub lights: Vec<LightFile>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CameraFile {
    pub position: Option<[f32; 3]>,
    pub target: Option<[f32; 3]>,
    pub up: Option<[f32; 3]>,
    pub fov_y: Option<f32>,
    pub near: Option<f32>,
    pub far: Option<f32>,
    pub turntable: Option<TurntableFile>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TurntableFile {
    pub degrees: Option<f32>,
    pub axis: Option<[f32; 3]>,
    pub frames: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OutputFile {
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub msaa: Option<u32>,
    pub clear: Option<Vec<f32>>,
    pub format: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TextureFile {
    pub file: Option<String>,
    pub checker: Option<CheckerFile>,
    pub gradient: Option<GradientFile>,
    pub noise: Option<NoiseFile>,
    pub mip_colored: Option<MipColoredFile>,
    pub format: Option<String>,
    pub kind: Option<String>,
    pub size: Option<u32>,
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub depth: Option<u32>,
    pub layers: Option<u32>,
    pub mips: Option<bool>,
    pub srgb: Option<bool>,
    pub tints: Option<Vec<Vec<f32>>>,
    pub swizzle: Option<String>,
    pub min_lod_clamp: Option<f32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckerFile {
    pub squares: Option<u32>,
    pub colors: Option<Vec<Vec<f32>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GradientFile {
    pub from: Option<Vec<f32>>,
    pub to: Option<Vec<f32>>,
    pub direction: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoiseFile {
    pub basis: Option<String>,
    pub scale: Option<f32>,
    pub octaves: Option<u32>,
    pub seed: Option<u32>,
    pub colors: Option<Vec<Vec<f32>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MipColoredFile {
    pub colors: Option<Vec<Vec<f32>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MaterialFile {
    pub shader: String,
    pub texture: Option<String>,
    pub sampler: Option<String>,
    pub color: Option<Vec<f32>>,
    pub uv_scale: Option<[f32; 2]>,
    pub reflectivity: Option<f32>,
    pub slice: Option<f32>,
    pub edge_threshold: Option<f32>,
    pub height_range: Option<[f32; 2]>,
    pub shadow_bias: Option<f32>,
}

/// A scale: one factor for every axis or one per axis.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum ScaleFile {
    Uniform(f32),
    Axes([f32; 3]),
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ObjectFile {
    pub name: Option<String>,
    pub mesh: String,
    pub segments: Option<u32>,
    pub rings: Option<u32>,
    pub fullscreen: Option<bool>,
    pub file: Option<String>,
    pub translate: Option<[f32; 3]>,
    pub rotate: Option<[f32; 3]>,
    pub scale: Option<ScaleFile>,
    pub material: String,
    pub inside_out: Option<bool>,
    pub cast_shadows: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LightFile {
    pub kind: Option<String>,
    pub direction: [f32; 3],
    pub color: Option<[f32; 3]>,
    pub intensity: Option<f32>,
    pub shadow: Option<ShadowFile>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShadowFile {
    pub size: Option<u32>,
    pub format: Option<String>,
    pub pcf: Option<String>,
    pub extent: Option<f32>,
    pub bias: Option<f32>,
}
