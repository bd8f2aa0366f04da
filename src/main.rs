//! The `quadtex` command: `info` today; `probe`, `render` and `profile`
//! arrive with the sampler and the rasterizer.
//!
//! Errors are one line on stderr and a non-zero exit: 2 for bad usage or
//! bad input, 1 for failures writing output.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
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
            let msg = e.to_string();
            let line = msg.lines().next().unwrap_or("bad arguments");
            eprintln!("quadtex: {}", line.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    match cli.command {
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
            print_info(&file, &tex);
            if let Some(out) = output {
                if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
                    if let Err(e) = std::fs::create_dir_all(dir) {
                        eprintln!("quadtex: {}: {e}", dir.display());
                        return ExitCode::from(1);
                    }
                }
                if let Err(e) = io::save_png_slice(&tex, level, layer, z, &out) {
                    eprintln!("quadtex: {e}");
                    return ExitCode::from(2);
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
