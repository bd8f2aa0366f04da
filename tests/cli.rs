//! The `quadtex` command as a user runs it: `info` on the texture shipped in
//! the repository, PNG output, and one-line errors for bad input.

use std::process::Command;

fn quadtex(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_quadtex"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run quadtex")
}

#[test]
fn info_describes_the_shipped_checker() {
    let out = quadtex(&["info", "scenes/assets/checker.ktx2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "kind:    2d",
        "format:  R8G8B8A8_SRGB",
        "extent:  96x64x1",
        "levels:  7",
        "layers:  1",
        "samples: 1",
        "bytes:   32764",
        "level 5: 3x2x1, 24 bytes per layer",
    ] {
        assert!(text.contains(line), "missing `{line}` in:\n{text}");
    }
}

#[test]
fn info_writes_one_subresource_to_png() {
    let dir = std::env::temp_dir().join(format!("quadtex-cli-{}", std::process::id()));
    let png = dir.join("nested/level2.png");
    let out = quadtex(&[
        "info",
        "scenes/assets/checker.ktx2",
        "--level",
        "2",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let img = image_dims(&std::fs::read(&png).unwrap());
    assert_eq!(img, (24, 16));
    let _ = std::fs::remove_dir_all(dir);
}

/// Width and height from a PNG's IHDR chunk.
fn image_dims(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
    (w, h)
}

#[test]
fn bad_input_exits_non_zero_with_one_line() {
    for args in [
        &["info", "scenes/assets/checker.ktx2", "--bogus"][..],
        &["info", "README.md"][..],
        &["info", "does/not/exist.ktx2"][..],
        &[
            "info",
            "scenes/assets/checker.ktx2",
            "--level",
            "9",
            "-o",
            "/tmp/quadtex-never.png",
        ][..],
        &["frobnicate"][..],
    ] {
        let out = quadtex(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("quadtex: "), "{err}");
    }
}

/// A fresh temporary folder for one test.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("quadtex-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn render_writes_the_scene_at_the_requested_size_with_stats() {
    let dir = temp_dir("render");
    let png = dir.join("out/showcase.png");
    let out = quadtex(&[
        "render",
        "scenes/showcase.toml",
        "-o",
        png.to_str().unwrap(),
        "--width",
        "160",
        "--height",
        "90",
        "--threads",
        "2",
        "--msaa",
        "8",
        "--profile",
        "nv_sass",
        "--stats",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(image_dims(&std::fs::read(&png).unwrap()), (160, 90));
    let text = String::from_utf8(out.stdout).unwrap();
    for key in [
        "frames          1 (8x MSAA, 2 threads)",
        "quads shaded",
        "helper lanes",
        "texture ops     sample ",
        // The resolve reads the target's bytes: no fetches.
        "fetch 0",
        "texels read",
        "time shadow",
        "time binning",
        "time raster",
        "time resolve",
        "time png",
        "quads/s",
    ] {
        assert!(text.contains(key), "missing `{key}` in:\n{text}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn render_frames_writes_numbered_turntable_pictures() {
    let dir = temp_dir("frames");
    let png = dir.join("spin.png");
    let out = quadtex(&[
        "render",
        "scenes/cubemap.toml",
        "-o",
        png.to_str().unwrap(),
        "--width",
        "64",
        "--height",
        "36",
        "--frames",
        "3",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let frames: Vec<Vec<u8>> = (0..3)
        .map(|i| std::fs::read(dir.join(format!("spin_{i:04}.png"))).unwrap())
        .collect();
    assert!(!dir.join("spin_0003.png").exists());
    // The camera orbits: every frame differs.
    assert_ne!(frames[0], frames[1]);
    assert_ne!(frames[1], frames[2]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("3/3"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn render_bad_input_exits_2_with_one_line() {
    let dir = temp_dir("render-bad");
    let scene = dir.join("bad.toml");
    std::fs::write(&scene, "[camera]\ncolour = [1, 0, 0]\n").unwrap();
    let missing = dir.join("missing.toml");
    std::fs::write(
        &missing,
        "[textures.t]\nfile = \"nope.png\"\n[materials.m]\nshader = \"unlit\"\ntexture = \"t\"\n",
    )
    .unwrap();
    let out_png = dir.join("x.png");
    let out_png = out_png.to_str().unwrap();
    for args in [
        vec!["render", scene.to_str().unwrap(), "-o", out_png],
        vec!["render", missing.to_str().unwrap(), "-o", out_png],
        vec!["render", "scenes/nope.toml", "-o", out_png],
        vec!["render", "scenes/msaa.toml", "-o", out_png, "--msaa", "3"],
        vec!["render", "scenes/msaa.toml", "-o", out_png, "--width", "0"],
        vec![
            "render",
            "scenes/msaa.toml",
            "-o",
            out_png,
            "--profile",
            "x",
        ],
        vec!["render", "scenes/msaa.toml", "-o", out_png, "--frames", "0"],
        vec!["render", "scenes/msaa.toml", "-o", out_png, "--bogus"],
        vec!["render", "scenes/msaa.toml"],
        vec![
            "render",
            "scenes/msaa.toml",
            "-o",
            out_png,
            "--threads",
            "257",
        ],
        vec![
            "render",
            "scenes/msaa.toml",
            "-o",
            out_png,
            "--threads",
            "100000",
        ],
    ] {
        let out = quadtex(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("quadtex: "), "{err}");
    }
    let unknown = quadtex(&["render", scene.to_str().unwrap(), "-o", out_png]);
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("colour"));
    // A missing argument is named (clap's first line alone does not).
    let missing = quadtex(&["render", "scenes/msaa.toml"]);
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(err.contains("--output"), "{err}");
    let missing = quadtex(&["render"]);
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(err.contains("<SCENE"), "{err}");
    let many = quadtex(&[
        "render",
        "scenes/msaa.toml",
        "-o",
        out_png,
        "--threads",
        "1000",
    ]);
    let err = String::from_utf8_lossy(&many.stderr);
    assert!(err.contains("1000 is more than the 256 allowed"), "{err}");
    assert!(!dir.join("x.png").exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn render_to_an_unwritable_path_exits_1_with_one_line() {
    let dir = temp_dir("render-unwritable");
    // A file where the output's folder should be.
    let blocker = dir.join("file");
    std::fs::write(&blocker, b"x").unwrap();
    let png = blocker.join("out.png");
    let out = quadtex(&[
        "render",
        "scenes/volume.toml",
        "-o",
        png.to_str().unwrap(),
        "--width",
        "32",
        "--height",
        "32",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.starts_with("quadtex: "), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `info -o` to a path that cannot be written fails as `render` does
/// (exit 1: the input was good); a level the texture lacks is bad input
/// (exit 2) and nothing is printed before the error.
#[test]
fn info_exit_codes_match_render() {
    let dir = temp_dir("info-unwritable");
    let blocker = dir.join("file");
    std::fs::write(&blocker, b"x").unwrap();
    let png = blocker.join("out.png");
    let out = quadtex(&[
        "info",
        "scenes/assets/checker.ktx2",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let out = quadtex(&[
        "info",
        "scenes/assets/checker.ktx2",
        "--level",
        "9",
        "-o",
        dir.join("x.png").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("checker.ktx2") && err.contains("level 9"),
        "{err}"
    );
    // A `.dds` that is not one: the file and the container are named.
    let empty = dir.join("empty.dds");
    std::fs::write(&empty, b"").unwrap();
    let out = quadtex(&["info", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim_end(),
        format!("quadtex: {}: DDS: the file is empty", empty.display())
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Progress on stderr when it is not a terminal (here a pipe): whole
/// lines, no carriage returns.
#[test]
fn render_progress_to_a_pipe_is_plain_lines() {
    let dir = temp_dir("progress");
    let png = dir.join("spin.png");
    let out = quadtex(&[
        "render",
        "scenes/cubemap.toml",
        "-o",
        png.to_str().unwrap(),
        "--width",
        "16",
        "--height",
        "16",
        "--frames",
        "12",
    ]);
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains('\r'), "{err:?}");
    let lines: Vec<&str> = err.lines().collect();
    // One line per tenth of the frames, the last 12/12.
    assert_eq!(lines.last(), Some(&"rendering 12/12"), "{err}");
    assert!(lines.len() <= 11, "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `quadtex profile` times every operation and prints one line with the
/// figures and the target features; unknown names and bad durations are
/// one-line errors with exit 2.
#[test]
fn profile_prints_throughput_and_rejects_unknown_names() {
    for op in [
        "sample",
        "sample_quad",
        "gather",
        "compare",
        "query_lod",
        "fetch",
    ] {
        let out = quadtex(&[
            "profile",
            "--op",
            op,
            "--format",
            "r32f",
            "--seconds",
            "0.02",
        ]);
        assert!(out.status.success(), "{op}: {out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.starts_with(op)
                && text.contains("Mquads/s")
                && text.contains("layout linear")
                && text.contains("target features"),
            "{text}"
        );
    }
    let out = quadtex(&["profile", "--layout", "tiled", "--seconds", "0.02"]);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("layout tiled"));
    // A texture that is not a power of two (repeat by a remainder); the
    // default size is printed too.
    let out = quadtex(&["profile", "--size", "1000", "--seconds", "0.02"]);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("size 1000;"));
    let out = quadtex(&["profile", "--kind", "cube", "--seconds", "0.02"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("size 256;"));
    // Float texels as values by default, as random bit patterns on demand.
    let out = quadtex(&["profile", "--format", "r32f", "--seconds", "0.02"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("texels values;"));
    let out = quadtex(&[
        "profile",
        "--format",
        "r32f",
        "--texels",
        "bits",
        "--seconds",
        "0.02",
    ]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("texels bits;"));
    for args in [
        vec!["profile", "--op", "texture"],
        vec!["profile", "--layout", "morton"],
        vec!["profile", "--size", "0"],
        vec!["profile", "--size", "16385"],
        // 34 GB of texels: refused before any is allocated.
        vec![
            "profile", "--size", "16384", "--kind", "cube", "--format", "rgba32f",
        ],
        vec!["profile", "--filter", "cubic"],
        vec!["profile", "--format", "rgb565"],
        vec!["profile", "--kind", "3d"],
        vec!["profile", "--texels", "noise"],
        vec!["profile", "--seconds", "-1"],
    ] {
        let out = quadtex(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

/// Runs `quadtex` and fails the test if it has not finished within
/// `seconds` (killing it): for inputs that used to run forever.
fn quadtex_within(args: &[&str], seconds: u64) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quadtex"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run quadtex");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("quadtex {args:?} still running after {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// A missing required argument used to print only `quadtex: the
/// following required arguments were not provided:`; the one line now
/// names them, exit 2.
#[test]
fn a_missing_required_argument_is_named_on_one_line() {
    for (args, names) in [
        (
            &["render", "scenes/msaa.toml"][..],
            &["--output <OUTPUT>"][..],
        ),
        (&["render", "-o", "x.png"][..], &["<SCENE>"][..]),
        (&["render"][..], &["--output <OUTPUT>", "<SCENE>"][..]),
        (&["info"][..], &["<FILE>"][..]),
    ] {
        let out = quadtex(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("quadtex: the following required arguments were not provided: "),
            "{err}"
        );
        for name in names {
            assert!(err.contains(name), "{args:?}: no `{name}` in {err}");
        }
    }
    // Other clap errors keep their one line, with their tip.
    let out = quadtex(&["render", "scenes/msaa.toml", "-o", "x.png", "--outptu"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("unexpected argument '--outptu'"), "{err}");
}

/// `--threads 100000` never finished (a thread spawned per count) and
/// `--threads 1000` took four times as long: above 256 is an error at
/// once, exit 2, naming the flag and the limit; 256 itself renders.
#[test]
fn render_threads_above_256_exit_2_at_once() {
    assert_eq!(quadtex::raster::MAX_THREADS, 256);
    let dir = temp_dir("threads");
    let png = dir.join("t.png");
    let png = png.to_str().unwrap();
    for n in ["257", "1000", "100000", "18446744073709551616"] {
        let args = ["render", "scenes/msaa.toml", "-o", png, "--threads", n];
        let out = quadtex_within(&args, 60);
        assert_eq!(out.status.code(), Some(2), "{n}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("--threads") && err.contains(n), "{err}");
    }
    let args = ["render", "scenes/msaa.toml", "-o", png, "--threads", "1000"];
    let err = String::from_utf8(quadtex_within(&args, 60).stderr).unwrap();
    assert!(err.contains("more than the 256 allowed"), "{err}");
    let out = quadtex_within(
        &[
            "render",
            "scenes/msaa.toml",
            "-o",
            png,
            "--threads",
            "256",
            "--width",
            "32",
            "--height",
            "16",
            "--stats",
        ],
        60,
    );
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("256 threads"));
    // `--help` states the range.
    let help = String::from_utf8(quadtex(&["render", "--help"]).stdout).unwrap();
    assert!(help.contains("Worker threads, 0..=256"), "{help}");
    assert!(help.contains("1..=10000"), "{help}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Frame counts past the four digits of the numbered names, and a scene
/// past its texture budget, are one-line errors with exit 2.
#[test]
fn render_frames_and_scene_limits_exit_2_with_one_line() {
    let dir = temp_dir("limits");
    let png = dir.join("x.png");
    let png = png.to_str().unwrap();
    let out = quadtex(&["render", "scenes/msaa.toml", "-o", png, "--frames", "10001"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--frames") && err.contains("1..=10000"),
        "{err}"
    );
    let huge = dir.join("huge.toml");
    let mut text = String::new();
    for i in 0..10 {
        text += &format!(
            "[textures.t{i}]\nchecker = {{}}\nsize = 4096\nformat = \"R32G32B32A32_SFLOAT\"\n"
        );
    }
    std::fs::write(&huge, text).unwrap();
    let out = quadtex_within(&["render", huge.to_str().unwrap(), "-o", png], 60);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.starts_with("quadtex: textures.t3: ") && err.contains("1 GiB"),
        "{err}"
    );
    assert!(!dir.join("x.png").exists());
    let _ = std::fs::remove_dir_all(dir);
}

/// `quadtex render` at the largest size (16384 x 16384, 1x MSAA, an
/// RGBA32F target: 4 GiB of colour) on a machine without the memory
/// aborted with SIGABRT when the allocation failed. With the address
/// space capped at 3 GiB the target cannot be had: a one-line error
/// naming the buffer, exit 1. (The default sRGB8 target is 1 GiB.)
#[cfg(target_os = "linux")]
#[test]
fn render_without_the_memory_for_its_target_is_an_error_not_an_abort() {
    let dir = temp_dir("oom");
    let png = dir.join("big.png");
    let script = format!(
        "ulimit -v 3145728 && exec '{}' render scenes/msaa.toml -o '{}' --width 16384 --height 16384 --msaa 1 --threads 2 --target-format rgba32f",
        env!("CARGO_BIN_EXE_quadtex"),
        png.display()
    );
    let out = Command::new("sh")
        .args(["-c", &script])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run sh");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.starts_with(
            "quadtex: out of memory: cannot allocate 4294967296 bytes for the colour target"
        ),
        "{err}"
    );
    assert!(!png.exists());
    let _ = std::fs::remove_dir_all(dir);
}
