//! The `quadtex` command:
//!
//! - `render SCENE.toml -o OUT.png`: render a scene file to PNG (`--width`,
//!   `--height`, `--threads`, `--msaa`, `--profile`, `--stats`,
//!   `--frames N` for a turntable);
//! - `info FILE`: what a texture file holds, one subresource to PNG;
//! - `probe CASE.json`: evaluate a probe case, print its RESULT JSON;
//! - `profile [--op --filter --format --kind --seconds]`: quad throughput
//!   of one texture operation on one thread;
//! - `bench gl-workloads`: whole frames of the OpenGL throughput
//!   workloads, Mpixels/s per variant.
//!
//! Errors are one line on stderr and a non-zero exit: 2 for bad usage or
//! bad input, 1 for failures writing output (and for an internal error,
//! which `probe` reports as one line instead of a panic message).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod render;
use quadtex::format::{io, Texture};

/// A GPU-class texture unit on the CPU.
#[derive(Parser, Debug)]
#[command(name = "quadtex", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Render a scene file (scenes/README.md) to PNG.
    Render(render::RenderArgs),
    /// Print what a texture file holds; optionally write one subresource to PNG.
    Info {
        /// A KTX2, DDS or image file (PNG, JPEG, TGA, BMP, HDR, EXR, ...).
        file: PathBuf,
        /// Mip level to write with `-o`.
        #[arg(long, default_value_t = 0)]
        level: u32,
        /// Array layer (cube: 6 * cube + face) to write with `-o`.
        #[arg(long, default_value_t = 0)]
        layer: u32,
        /// Depth slice of a 3D level to write with `-o`.
        #[arg(long, default_value_t = 0)]
        z: u32,
        /// Read 8-bit images as linear UNORM instead of sRGB.
        #[arg(long)]
        linear: bool,
        /// Write the chosen subresource to this PNG file.
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
    },
    /// Whole-frame benchmarks (`bench gl-workloads`).
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// Evaluate a probe case (docs/probe-format.md) and print its RESULT JSON.
    Probe {
        /// The CASE.json file; its texel data are read relative to it.
        case: PathBuf,
    },
    /// Time one texture operation on one thread: Mquads/s and Mpixels/s.
    Profile {
        /// sample (the planar API), sample_quads (the batched `Quad` API),
        /// sample_quad (one quad per call), gather (the planar API),
        /// gather_quads, compare (PCF sample through the planar API; use a
        /// depth format), compare_quads, query_lod or fetch.
        #[arg(long, default_value = "sample")]
        op: String,
        /// nearest, bilinear, trilinear or aniso16.
        #[arg(long, default_value = "bilinear")]
        filter: String,
        /// rgba8, rgba8_srgb, rgba16f, r32f, bc1, bc7, d32f, d16, rg8 or
        /// rgba32f.
        #[arg(long, default_value = "rgba8")]
        format: String,
        /// 2d, cube or 2d_array.
        #[arg(long, default_value = "2d")]
        kind: String,
        /// Seconds to run.
        #[arg(long, default_value_t = 1.0)]
        seconds: f64,
        /// Sampler profile: vulkan (f32 weights), nv_sass, ptx or d3d11.
        #[arg(long, default_value = "vulkan")]
        profile: String,
        /// SIMD level: avx512, avx2, sse2 or portable (default: the best
        /// this CPU has, or QUADTEX_SIMD).
        #[arg(long)]
        simd: Option<String>,
        /// The texture's layout: linear (rows of texels) or tiled.
        #[arg(long, default_value = "linear")]
        layout: String,
        /// The texture's width and height in texels, 1 to 16384 (default:
        /// 1024 for 2d, 512 for 2d_array, 256 for cube faces); a size that
        /// is not a power of two makes `repeat` wrap by a remainder.
        #[arg(long)]
        size: Option<u32>,
        /// What the texels hold: values (random values of the format; the
        /// float formats' finite normal numbers in [0.5, 1)) or bits
        /// (random bytes, float patterns with subnormals, infinities and
        /// NaNs among them).
        #[arg(long, default_value = "values")]
        texels: String,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            eprintln!("quadtex: {}", clap_one_line(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Command::Render(args) => match render::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(f) => {
                eprintln!("quadtex: {}", f.message);
                ExitCode::from(f.code)
            }
        },
        Command::Bench(cmd) => match bench::run(&cmd) {
            Ok(()) => ExitCode::SUCCESS,
            Err(f) => {
                eprintln!("quadtex: {}", f.message);
                ExitCode::from(f.code)
            }
        },
        Command::Probe { case } => probe(&case),
        Command::Profile {
            op,
            filter,
            format,
            kind,
            seconds,
            profile: name,
            simd,
            layout,
            size,
            texels,
        } => profile(
            &op,
            [&filter, &format, &kind, &layout, &texels],
            size,
            seconds,
            &name,
            simd.as_deref(),
        ),
        Command::Info {
            file,
            level,
            layer,
            z,
            linear,
            output,
        } => {
            let cs = if linear {
                io::ColorSpace::Linear
            } else {
                io::ColorSpace::Srgb
            };
            let tex = match io::load_file_with(&file, cs) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("quadtex: {e}");
                    return ExitCode::from(2);
                }
            };
            // The subresource is encoded before anything is printed: a
            // level, layer or slice the texture lacks is bad input (exit
            // 2) with nothing else on stdout; only writing the file can
            // then fail (exit 1).
            let png = match &output {
                Some(_) => match io::encode_png(&tex, level, layer, z) {
                    Ok(png) => Some(png),
                    Err(e) => {
                        eprintln!("quadtex: {}: {e}", file.display());
                        return ExitCode::from(2);
                    }
                },
                None => None,
            };
            print_info(&file, &tex);
            if let (Some(out), Some(png)) = (output, png) {
                if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
                    if let Err(e) = std::fs::create_dir_all(dir) {
                        eprintln!("quadtex: {}: {e}", dir.display());
                        return ExitCode::from(1);
                    }
                }
                if let Err(e) = std::fs::write(&out, png) {
                    eprintln!("quadtex: {}: {e}", out.display());
                    return ExitCode::from(1);
                }
                println!(
                    "wrote level {level} layer {layer} z {z} to {}",
                    out.display()
                );
            }
            ExitCode::SUCCESS
        }
    }
}

/// Clap's error message on one line, with everything it says: the first
/// line of each paragraph followed by its other lines joined with `, `
/// (the arguments a "required arguments were not provided" error names),
/// paragraphs joined with `; ` (a tip); the usage line and the pointer to
/// `--help` are left out.
fn clap_one_line(message: &str) -> String {
    let mut parts = Vec::new();
    for paragraph in message.split("\n\n") {
        let lines: Vec<&str> = paragraph
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let Some((first, rest)) = lines.split_first() else {
            continue;
        };
        if first.starts_with("Usage:") || first.starts_with("For more information") {
            continue;
        }
        let first = first.trim_start_matches("error: ");
        parts.push(if rest.is_empty() {
            first.to_owned()
        } else {
            format!("{first} {}", rest.join(", "))
        });
    }
    if parts.is_empty() {
        "bad arguments".to_owned()
    } else {
        parts.join("; ")
    }
}

/// `quadtex probe CASE.json`: RESULT on stdout, or one error line.
///
/// The probe must never panic (docs/probe-format.md). Its inputs are validated
/// before sampling, and sampling is specified to be infallible; should a
/// panic still happen, it is caught here and reported as one line, exit 1,
/// so that a conformance run records it as an internal error.
fn probe(case: &Path) -> ExitCode {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("quadtex: internal error: {msg}{at}");
    }));
    let result = std::panic::catch_unwind(|| quadtex::probe::run(case));
    std::panic::set_hook(default_hook);
    match result {
        Ok(Ok(text)) => {
            let mut out = std::io::stdout().lock();
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                eprintln!("quadtex: writing the result: {e}");
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Ok(Err(e)) => {
            eprintln!("quadtex: {e}");
            ExitCode::from(e.exit_code())
        }
        // The hook has printed the one line.
        Err(_) => ExitCode::from(1),
    }
}

fn print_info(file: &std::path::Path, tex: &Texture) {
    let d = tex.desc();
    println!("file:    {}", file.display());
    println!("kind:    {}", d.kind);
    println!("format:  {}", d.format);
    println!("extent:  {}x{}x{}", d.width, d.height, d.depth);
    println!("levels:  {}", d.levels);
    println!("layers:  {}", d.layers);
    println!("samples: {}", d.samples);
    println!("bytes:   {}", d.total_bytes().unwrap_or(0));
    println!("layout:  {}", tex.layout().name());
    for l in 0..d.levels {
        let e = d.level_extent(l);
        println!(
            "  level {l}: {}x{}x{}, {} bytes per layer",
            e.width,
            e.height,
            e.depth,
            d.level_bytes(l).unwrap_or(0)
        );
    }
}

/// `quadtex profile`: one line of figures, or a one-line error (exit 2).
fn profile(
    op: &str,
    [filter, format, kind, layout, texels]: [&str; 5],
    size: Option<u32>,
    seconds: f64,
    profile_name: &str,
    simd: Option<&str>,
) -> ExitCode {
    let Some(o) = quadtex::profile::Op::parse(op) else {
        eprintln!(
            "quadtex: unknown op `{op}` (sample, sample_quads, sample_quad, gather, gather_quads, compare, compare_quads, query_lod, fetch)"
        );
        return ExitCode::from(2);
    };
    let Some(sampler_profile) = quadtex_scene::profile_from_name(profile_name) else {
        eprintln!("quadtex: unknown profile `{profile_name}` (vulkan, nv_sass, ptx, d3d11)");
        return ExitCode::from(2);
    };
    let level = match simd {
        None => quadtex_sampler::cpu::simd_level(),
        Some(name) => match quadtex_sampler::SimdLevel::parse(name) {
            Some(l) if l.supported() => l,
            Some(l) => {
                eprintln!(
                    "quadtex: this CPU does not run SIMD level `{}` (best: {})",
                    l.name(),
                    quadtex_sampler::SimdLevel::detect().name()
                );
                return ExitCode::from(2);
            }
            None => {
                eprintln!("quadtex: unknown SIMD level `{name}` (avx512, avx2, sse2, portable)");
                return ExitCode::from(2);
            }
        },
    };
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
        eprintln!("quadtex: --seconds must be in (0, 3600]");
        return ExitCode::from(2);
    }
    let layout = match layout {
        "linear" => quadtex_format::Layout::Linear,
        "tiled" => quadtex_format::Layout::Tiled,
        other => {
            eprintln!("quadtex: unknown layout `{other}` (linear, tiled)");
            return ExitCode::from(2);
        }
    };
    let Some(texels) = quadtex::profile::Texels::parse(texels) else {
        eprintln!("quadtex: unknown texels `{texels}` (values, bits)");
        return ExitCode::from(2);
    };
    let w = match quadtex::profile::Workload::sized(filter, format, kind, layout, size, texels) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("quadtex: {e}");
            return ExitCode::from(2);
        }
    };
    let (qps, sum) = w.run(
        o,
        &sampler_profile,
        level,
        std::time::Duration::from_secs_f64(seconds),
    );
    println!(
        "{op} {filter}/{format}/{kind}: {:.2} Mquads/s = {:.1} Mpixels/s (1 thread; isa {}; texel loads {}; profile {profile_name}; layout {}; size {}; texels {}; build target features: {}; checksum {sum:.1})",
        qps / 1e6,
        qps * 4.0 / 1e6,
        level.name(),
        quadtex_sampler::cpu::texel_loads().name(),
        layout.name(),
        w.view.texture.desc().width,
        texels.name(),
        quadtex::profile::target_features()
    );
    ExitCode::SUCCESS
}
