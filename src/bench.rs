//! `quadtex bench gl-workloads`: whole frames of the OpenGL throughput
//! workloads ([`quadtex::gl_workloads`]), timed per variant and thread
//! count, printed as Mpixels/s, optionally dumped to PNG and JSON.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Subcommand};
use quadtex::gl_workloads::{self, Textures, Timing};

/// `quadtex bench ...`.
#[derive(Subcommand, Debug)]
pub(crate) enum BenchCommand {
    /// Render the OpenGL throughput workloads (docs/gl-workloads.md) and
    /// print Mpixels/s per variant.
    GlWorkloads(GlArgs),
}

/// The flags of `quadtex bench gl-workloads`.
#[derive(Args, Debug)]
pub(crate) struct GlArgs {
    /// Comma-separated variants (default: all).
    #[arg(long)]
    variants: Option<String>,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Frames timed per variant (the median is reported).
    #[arg(long, default_value_t = 21)]
    frames: usize,
    /// Frames rendered before timing.
    #[arg(long, default_value_t = 5)]
    warmup: usize,
    /// Sampler profile: vulkan, nv_sass, ptx or d3d11.
    #[arg(long, default_value = "vulkan")]
    profile: String,
    /// Level 0 of the colour texture: 1024x1024x4 raw RGBA8 bytes, first
    /// row at t = 0.
    #[arg(long)]
    level0: Option<PathBuf>,
    /// The shadow texture: 1024x1024 little-endian f32, first row at t = 0.
    #[arg(long)]
    shadow: Option<PathBuf>,
    /// Write each variant's last frame as DIR/VARIANT.png (RGBA8, top row
    /// first).
    #[arg(long)]
    dump: Option<PathBuf>,
    /// Write {"variants": {NAME: {"threads", "median_ms", "mpix_s"}}} here.
    #[arg(long)]
    json: Option<PathBuf>,
}

/// A failure with its exit code: 2 for bad input, 1 for output.
pub(crate) struct Failure {
    /// The one-line message.
    pub(crate) message: String,
    /// The exit code.
    pub(crate) code: u8,
}

fn bad(message: String) -> Failure {
    Failure { message, code: 2 }
}

fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| bad(format!("{}: {e}", path.display())))
}

/// Runs a `bench` subcommand.
pub(crate) fn run(cmd: &BenchCommand) -> Result<(), Failure> {
    match cmd {
        BenchCommand::GlWorkloads(a) => gl(a),
    }
}

fn gl(a: &GlArgs) -> Result<(), Failure> {
    let variants = gl_workloads::select(a.variants.as_deref()).map_err(|e| bad(e.to_string()))?;
    let profile = quadtex_scene::profile_from_name(&a.profile).ok_or_else(|| {
        bad(format!(
            "unknown profile `{}` (vulkan, nv_sass, ptx, d3d11)",
            a.profile
        ))
    })?;
    if a.frames == 0 || a.frames > 10_000 || a.warmup > 10_000 {
        return Err(bad(
            "--frames must be 1 to 10000 and --warmup at most 10000".into(),
        ));
    }
    let level0 = match &a.level0 {
        Some(p) => read(p)?,
        None => gl_workloads::default_level0(),
    };
    let shadow = match &a.shadow {
        Some(p) => read(p)?,
        None => gl_workloads::default_shadow(),
    };
    let textures = Textures::new(&level0, &shadow).map_err(|e| bad(e.to_string()))?;
    let renderer = gl_workloads::renderer(a.threads, profile).map_err(|e| bad(e.to_string()))?;
    if let Some(dir) = &a.dump {
        std::fs::create_dir_all(dir).map_err(|e| Failure {
            message: format!("{}: {e}", dir.display()),
            code: 1,
        })?;
    }
    println!(
        "quadtex gl-workloads: {}x{} RGBA8, {} thread(s), profile {}, isa {}, texel loads {}, median of {} frames after {} warm-up",
        gl_workloads::WIDTH,
        gl_workloads::HEIGHT,
        renderer.threads(),
        a.profile,
        quadtex_sampler::cpu::simd_level().name(),
        quadtex_sampler::cpu::texel_loads().name(),
        a.frames,
        a.warmup
    );
    println!(
        "{:<20} {:>10} {:>10} {:>9}",
        "variant", "median ms", "min ms", "Mpix/s"
    );
    let mut results: Vec<(&str, Timing)> = Vec::new();
    for v in &variants {
        let frame = gl_workloads::frame(v, &textures);
        let mut out = renderer.render(&frame).map_err(|e| Failure {
            message: format!("{}: {e}", v.name),
            code: 1,
        })?;
        let t = gl_workloads::time_frames(&renderer, &frame, &mut out, a.frames, a.warmup)
            .map_err(|e| Failure {
                message: format!("{}: {e}", v.name),
                code: 1,
            })?;
        println!(
            "{:<20} {:>10.2} {:>10.2} {:>9.1}",
            v.name,
            ms(t.median),
            ms(t.min),
            t.mpix_s()
        );
        if let Some(dir) = &a.dump {
            let path = dir.join(format!("{}.png", v.name));
            write_png(&path, &gl_workloads::rgba8_top_first(&out))?;
        }
        results.push((v.name, t));
    }
    if let Some(path) = &a.json {
        let mut variants = serde_json::Map::new();
        for (name, t) in &results {
            variants.insert(
                (*name).to_string(),
                serde_json::json!({
                    "threads": t.threads,
                    "median_ms": ms(t.median),
                    "mpix_s": t.mpix_s(),
                }),
            );
        }
        let doc = serde_json::json!({ "variants": variants });
        std::fs::write(path, format!("{doc:#}\n")).map_err(|e| Failure {
            message: format!("{}: {e}", path.display()),
            code: 1,
        })?;
    }
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn write_png(path: &Path, rgba: &[u8]) -> Result<(), Failure> {
    use quadtex::format::{Layout, Texture, TextureDesc, TextureFormat};
    let desc = TextureDesc::d2_no_mipmap(
        TextureFormat::Rgba8Unorm,
        gl_workloads::WIDTH,
        gl_workloads::HEIGHT,
    );
    let fail = |e: String| Failure {
        message: format!("{}: {e}", path.display()),
        code: 1,
    };
    let tex =
        Texture::from_linear_bytes(desc, Layout::Linear, rgba).map_err(|e| fail(e.to_string()))?;
    quadtex::format::io::save_png(&tex, 0, 0, path).map_err(|e| fail(e.to_string()))
}
