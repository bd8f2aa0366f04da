//! `quadtex render SCENE.toml -o OUT.png`: `quadtex-scene` (loading and
//! rendering scene files) behind a command line. One frame, or a turntable of
//! numbered frames (`--frames N`: `OUT_0000.png`, ...) with a progress bar
//! on stderr; `--stats` prints counts and stage times on stdout.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use quadtex::raster::{ColorFormat, Error, ErrorKind, Renderer, Stats, MAX_THREADS};
use quadtex::scene::{
    profile_from_name, render_scene_with, RenderOptions, Scene, MAX_FRAMES, PROFILE_NAMES,
};

/// The `render` command's arguments.
#[derive(clap::Args, Debug)]
pub(crate) struct RenderArgs {
    /// The scene file (TOML, see scenes/README.md).
    scene: PathBuf,
    /// The PNG written (with --frames: OUT_0000.png, OUT_0001.png, ...).
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
    /// Width in pixels (default: the scene's [output] width).
    #[arg(long)]
    width: Option<u32>,
    /// Height in pixels (default: the scene's [output] height).
    #[arg(long)]
    height: Option<u32>,
    /// Worker threads, 0..=256 (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = threads_arg)]
    threads: usize,
    /// Samples per pixel: 1, 4 or 8 (default: the scene's [output] msaa).
    #[arg(long)]
    msaa: Option<u32>,
    /// Sampler profile: vulkan, nv_sass, ptx or d3d11.
    #[arg(long, default_value = "vulkan")]
    profile: String,
    /// Colour target format: rgba8_srgb, rgba8_unorm, bgra8_srgb,
    /// bgra8_unorm, rgba16f or rgba32f (default: the scene's [output]
    /// format, rgba8_srgb unless it says otherwise). The PNG holds the
    /// target's values sRGB-encoded in 8 bits whatever the format.
    #[arg(long = "target-format")]
    target_format: Option<String>,
    /// Print quads shaded, helper lanes, texture operations, texels read,
    /// time per stage and quads/s.
    #[arg(long)]
    stats: bool,
    /// Render a turntable of N frames (1..=10000) around the camera target.
    #[arg(long, value_parser = frames_arg)]
    frames: Option<u32>,
}

/// `--threads`: at most [`MAX_THREADS`]; thousands of threads only wait
/// (and 100,000 never finish starting).
fn threads_arg(s: &str) -> Result<usize, String> {
    let n: usize = s.parse().map_err(|e| format!("{e}"))?;
    if n > MAX_THREADS {
        return Err(format!("{n} is more than the {MAX_THREADS} allowed"));
    }
    Ok(n)
}

/// `--frames`: 1..=[`MAX_FRAMES`] (the numbered names have four digits).
fn frames_arg(s: &str) -> Result<u32, String> {
    let n: u32 = s.parse().map_err(|e| format!("{e}"))?;
    if !(1..=MAX_FRAMES).contains(&n) {
        return Err(format!("{n} is outside 1..={MAX_FRAMES}"));
    }
    Ok(n)
}

/// A failure and the exit status it maps to.
pub(crate) struct Failure {
    /// The one line printed after `quadtex: `.
    pub(crate) message: String,
    /// 2 for bad input, 1 for failures writing output or rendering.
    pub(crate) code: u8,
}

fn bad_input(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        code: 2,
    }
}

/// Maps a rasterizer error to its exit status: option errors are bad
/// input (2), anything else (writing, internal) is 1.
fn failure(e: Error) -> Failure {
    raster_failure(&e)
}

/// [`failure`] of a borrowed error.
fn raster_failure(e: &Error) -> Failure {
    let code = match e.kind() {
        ErrorKind::InvalidOption
        | ErrorKind::Samples
        | ErrorKind::TooLarge
        | ErrorKind::Sampler => 2,
        _ => 1,
    };
    Failure {
        message: one_line(&e.to_string()),
        code,
    }
}

/// Maps a scene error to its exit status: loading errors (the file is
/// wrong) and render options out of range are bad input (2); the
/// rasterizer's errors map as [`failure`] says; a format error while
/// rendering is 1.
fn scene_failure(e: quadtex::scene::Error) -> Failure {
    use quadtex::scene::ErrorKind as K;
    if let Some(raster) = e.raster() {
        return raster_failure(raster);
    }
    match e.kind() {
        K::Format => Failure {
            message: one_line(&e.to_string()),
            code: 1,
        },
        _ => Failure {
            message: one_line(&e.to_string()),
            code: 2,
        },
    }
}

/// A message on one line: the TOML parser's source excerpt (`2 | key = 1`,
/// `| ^^^`) is dropped and the remaining lines are joined with `: `.
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| {
            let excerpt = l.starts_with('|')
                || l.split_once(" |")
                    .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()));
            !l.is_empty() && !excerpt
        })
        .collect::<Vec<_>>()
        .join(": ")
}

/// Stage times and counts summed over every frame.
#[derive(Default)]
struct Totals {
    frames: u32,
    pixels: u64,
    main: Stats,
    shadow: Stats,
    shadow_time: Duration,
    png: Duration,
    wall: Duration,
}

/// Runs `quadtex render`.
pub(crate) fn run(args: &RenderArgs) -> Result<(), Failure> {
    let profile = profile_from_name(&args.profile).ok_or_else(|| {
        bad_input(format!(
            "--profile: unknown profile `{}` (expected {})",
            args.profile,
            PROFILE_NAMES.join(", ")
        ))
    })?;
    let format = match &args.target_format {
        None => None,
        Some(name) => Some(ColorFormat::from_name(name).ok_or_else(|| {
            bad_input(format!(
                "--target-format: unknown format `{name}` (expected {})",
                ColorFormat::ALL.map(|f| f.name()).join(", ")
            ))
        })?),
    };
    let scene = Scene::load(&args.scene).map_err(scene_failure)?;
    let renderer = Renderer::new(args.threads)
        .map_err(failure)?
        .with_profile(profile);
    let mut options = RenderOptions {
        width: args.width,
        height: args.height,
        msaa: args.msaa,
        threads: args.threads,
        profile,
        format,
        frame: None,
    };
    if let Some(dir) = args.output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Failure {
            message: format!("{}: {e}", dir.display()),
            code: 1,
        })?;
    }

    let mut totals = Totals::default();
    let start = Instant::now();
    let mut msaa = 1;
    match args.frames {
        None => {
            msaa = render_one(&renderer, &scene, &options, &args.output, &mut totals)?;
        }
        Some(n) => {
            for i in 0..n {
                options.frame = Some((i, n));
                let path = numbered(&args.output, i);
                msaa = render_one(&renderer, &scene, &options, &path, &mut totals)?;
                progress(i + 1, n);
            }
            // The bar's line ends here (lines elsewhere end themselves).
            if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                eprintln!();
            }
        }
    }
    totals.wall = start.elapsed();
    if args.stats {
        print_stats(&totals, renderer.threads(), msaa);
    } else if args.frames.is_none() {
        println!("wrote {}", args.output.display());
    } else {
        println!(
            "wrote {} frames to {}",
            totals.frames,
            numbered(&args.output, 0).display()
        );
    }
    Ok(())
}

/// Renders one frame to `path`; returns its sample count.
fn render_one(
    renderer: &Renderer,
    scene: &Scene,
    options: &RenderOptions,
    path: &Path,
    totals: &mut Totals,
) -> Result<u32, Failure> {
    let r = render_scene_with(renderer, scene, options).map_err(scene_failure)?;
    let t = Instant::now();
    let png = r.image.encode_png().map_err(failure)?;
    std::fs::write(path, png).map_err(|e| Failure {
        message: format!("{}: {e}", path.display()),
        code: 1,
    })?;
    totals.png += t.elapsed();
    totals.frames += 1;
    totals.pixels += u64::from(r.image.width()) * u64::from(r.image.height());
    totals.main += r.stats;
    if let Some(s) = r.shadow_stats {
        totals.shadow += s;
    }
    totals.shadow_time += r.shadow_time;
    Ok(r.msaa)
}

/// `OUT.png` -> `OUT_0007.png` for frame 7.
fn numbered(out: &Path, i: u32) -> PathBuf {
    let stem = out
        .file_stem()
        .map_or_else(|| "frame".to_string(), |s| s.to_string_lossy().into_owned());
    let ext = out
        .extension()
        .map_or_else(|| "png".to_string(), |e| e.to_string_lossy().into_owned());
    out.with_file_name(format!("{stem}_{i:04}.{ext}"))
}

/// Progress on stderr: a one-line bar redrawn in place on a terminal;
/// elsewhere (a log, a pipe) whole lines, one per tenth of the frames, so
/// nothing is written that only a terminal can undo.
fn progress(done: u32, total: u32) {
    use std::io::IsTerminal as _;
    const WIDTH: u32 = 30;
    let mut err = std::io::stderr().lock();
    if !err.is_terminal() {
        let tenth = |n: u32| (n * 10).checked_div(total).unwrap_or(10);
        if done == total || tenth(done) != tenth(done - 1) {
            let _ = writeln!(err, "rendering {done}/{total}");
        }
        return;
    }
    let filled = (done * WIDTH).checked_div(total).unwrap_or(WIDTH) as usize;
    let bar = format!(
        "{}{}",
        "#".repeat(filled),
        "-".repeat(WIDTH as usize - filled)
    );
    let _ = write!(err, "\rrendering [{bar}] {done}/{total}");
    let _ = err.flush();
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn print_stats(t: &Totals, threads: usize, msaa: u32) {
    let m = &t.main;
    let quads = m.quads + t.shadow.quads;
    let lanes = m.active_lanes + m.helper_lanes + t.shadow.active_lanes + t.shadow.helper_lanes;
    let helpers = m.helper_lanes + t.shadow.helper_lanes;
    let share = if lanes == 0 {
        0.0
    } else {
        helpers as f64 / lanes as f64 * 100.0
    };
    let shade = t.shadow.raster_shade + m.raster_shade + m.resolve;
    let qps = if shade.is_zero() {
        0.0
    } else {
        quads as f64 / shade.as_secs_f64()
    };
    println!(
        "frames          {} ({msaa}x MSAA, {threads} threads)",
        t.frames
    );
    println!("triangles       {}", m.triangles + t.shadow.triangles);
    println!(
        "quads shaded    {quads} (main {}, shadow {})",
        m.quads, t.shadow.quads
    );
    println!("helper lanes    {share:.1}%");
    println!(
        "texture ops     sample {} gather {} query_lod {} fetch {}",
        m.tex.sample, m.tex.gather, m.tex.query_lod, m.tex.fetch
    );
    println!("texels read     {} (footprint estimate)", m.tex.texels);
    println!("time shadow     {:.3} ms", ms(t.shadow_time));
    println!("time binning    {:.3} ms", ms(m.binning));
    println!(
        "time raster     {:.3} ms (raster+shade)",
        ms(m.raster_shade)
    );
    println!("time resolve    {:.3} ms", ms(m.resolve));
    println!("time png        {:.3} ms", ms(t.png));
    println!("time total      {:.3} ms", ms(t.wall));
    println!("quads/s         {qps:.0}");
    let mpx = if t.wall.is_zero() {
        0.0
    } else {
        t.pixels as f64 / t.wall.as_secs_f64() / 1e6
    };
    println!("Mpixels/s       {mpx:.2} (output pixels over total time)");
}
