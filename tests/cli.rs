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
