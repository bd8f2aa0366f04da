//! The C and C++ examples, compiled by the `cc` crate's compiler against
//! `include/quadtex.h`, linked with this crate's static library, and run:
//! each checks its own values (and exits 1 on a difference), and the
//! values printed are checked here again. (Linux: the link line is
//! Linux's.)
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The static library cargo built with this test: `cargo test` leaves it
/// in `target/<profile>/deps/` beside the test executable (only `cargo
/// build` copies it up to `target/<profile>/`, where it may be stale).
fn static_lib() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    exe.parent()
        .expect("target/<profile>/deps")
        .join("libquadtex_capi.a")
}

/// Compiles `source` (C or C++) into an executable linked with the static
/// library, runs it and returns its standard output.
fn build_and_run(source: &str, cpp: bool) -> String {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = static_lib();
    assert!(lib.exists(), "{} not built", lib.display());
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    // The test runs where it was built: host and target are this machine.
    let target = format!("{}-unknown-linux-gnu", std::env::consts::ARCH);
    let compiler = cc::Build::new()
        .cpp(cpp)
        .target(&target)
        .host(&target)
        .opt_level(1)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .get_compiler();
    let stem = Path::new(source)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .to_string();
    let exe = out_dir.join(format!("{stem}-{}", if cpp { "cpp" } else { "c" }));
    let mut cmd = compiler.to_command();
    cmd.arg(if cpp { "-std=c++17" } else { "-std=c11" })
        .args(["-Wall", "-Wextra", "-Werror"])
        .arg("-I")
        .arg(crate_dir.join("include"))
        .arg(crate_dir.join(source))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm"])
        .arg("-o")
        .arg(&exe);
    let status = cmd.status().expect("run the C compiler");
    assert!(status.success(), "compiling {source} failed: {cmd:?}");
    let run = Command::new(&exe).output().expect("run the example");
    let stdout = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(
        run.status.success(),
        "{source} exited {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    stdout
}

/// The values printed on the line starting `name `.
fn line(out: &str, name: &str) -> Vec<f32> {
    let l = out
        .lines()
        .find(|l| l.starts_with(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no `{name}` line in\n{out}"));
    l.split_whitespace()
        .skip(1)
        .map(|v| v.parse().expect("a number"))
        .collect()
}

#[test]
fn the_c_example_samples_gathers_fetches_and_runs_the_front_ends() {
    let out = build_and_run("examples/c/sample.c", false);
    assert!(out.contains("all values as expected"), "{out}");
    assert_eq!(line(&out, "nearest.r"), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(line(&out, "bilinear.r"), [0.5; 4]);
    assert_eq!(line(&out, "gather.lane0"), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(line(&out, "gather.g"), [1.0; 4]);
    assert_eq!(line(&out, "fetch.g"), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(line(&out, "lod.lambda"), [1.0; 4]);
    assert_eq!(line(&out, "level1.r"), [128.0 / 255.0; 4]);
    assert_eq!(line(&out, "sass.tld4"), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(line(&out, "ptx.tex.g"), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(line(&out, "d3d.ld2dms.x"), [30.0, 31.0, 32.0, 33.0]);
    assert!(
        out.contains("wrong size: QTX_ERROR_WRONG_SIZE: texture data: expected 20 bytes, got 3"),
        "{out}"
    );
    assert!(
        out.contains("missing t: QTX_ERROR_INVALID_ARGUMENT"),
        "{out}"
    );
    assert!(out.contains("bad sass: QTX_ERROR_INSTRUCTION"), "{out}");
}

#[test]
fn the_cpp_example_samples_bilinearly() {
    let out = build_and_run("examples/cpp/sample.cpp", true);
    assert!(out.contains("all values as expected"), "{out}");
    assert_eq!(
        line(&out, "cpp.bilinear.r"),
        [5.5, 6.5, 15.5, 16.5, 16.5, 17.5, 26.5, 27.5]
    );
}
