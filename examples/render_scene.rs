//! The library behind `quadtex render`: load a scene file, render it, save
//! the picture as PNG.
//!
//! ```text
//! cargo run --release --example render_scene -- scenes/showcase.toml showcase.png [WIDTH HEIGHT]
//! ```

use std::process::ExitCode;

use quadtex::scene::{render_scene, RenderOptions, Scene};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scene_path = args.first().map_or("scenes/showcase.toml", String::as_str);
    let out_path = args.get(1).map_or("showcase.png", String::as_str);
    let size = |i: usize| args.get(i).and_then(|s| s.parse::<u32>().ok());
    let options = RenderOptions {
        width: size(2),
        height: size(3),
        ..RenderOptions::default()
    };
    let result = Scene::load(scene_path)
        .and_then(|scene| render_scene(&scene, &options))
        .and_then(|r| {
            r.image.save_png(out_path)?;
            Ok(r)
        });
    match result {
        Ok(r) => {
            println!(
                "{scene_path}: {}x{} ({}x MSAA) -> {out_path}",
                r.image.width(),
                r.image.height(),
                r.msaa
            );
            println!("{}", r.stats);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("render_scene: {e}");
            ExitCode::from(2)
        }
    }
}
