//! The `quadtex probe` harness both probe test files use: a case directory
//! per run, the probe binary on it, and the checks of docs/probe-format.md for a
//! RESULT (exit 0, empty stderr, JSON) or a rejection (exit 2, one stderr
//! line starting `quadtex: `, no stdout, no panic).
#![allow(dead_code, reason = "each test binary uses a different subset")]

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};

/// A fresh directory per case.
fn case_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "quadtex-probe-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `texels.bin` and `case.json` (the text given) and runs the probe.
pub(crate) fn probe_text(case: &str, texels: &[u8]) -> Output {
    let dir = case_dir();
    std::fs::write(dir.join("texels.bin"), texels).unwrap();
    std::fs::write(dir.join("case.json"), case).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_quadtex"))
        .arg("probe")
        .arg(dir.join("case.json"))
        .output()
        .expect("run quadtex");
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// Runs the probe on a case value.
pub(crate) fn probe(case: &Value, texels: &[u8]) -> Output {
    probe_text(&case.to_string(), texels)
}

/// Runs a case that must succeed and returns its RESULT.
pub(crate) fn result(case: &Value, texels: &[u8]) -> Value {
    let out = probe(case, texels);
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("RESULT is JSON")
}

/// Runs a case that must be rejected as bad input: exit 2, one line on
/// stderr starting `quadtex: `, nothing on stdout. Returns the line.
pub(crate) fn rejected(case: &Value, texels: &[u8]) -> String {
    rejected_output(probe(case, texels))
}

/// The rejection checks on a finished run.
pub(crate) fn rejected_output(out: Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(
        out.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(err.starts_with("quadtex: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// A `texture` object reading `texels.bin`.
pub(crate) fn texture(format: &str, kind: &str, w: u32, h: u32, layers: u32, levels: u32) -> Value {
    json!({
        "format": format, "kind": kind, "width": w, "height": h, "depth": 1,
        "layers": layers, "levels": levels, "samples": 1, "data": "texels.bin"
    })
}

/// A one-quad case with everything but the lane fields given.
pub(crate) fn case(tex: Value, smp: Value, op: Value, quad: Value) -> Value {
    let levels = tex["levels"].clone();
    json!({
        "texture": tex,
        "view": { "swizzle": "rgba", "base_level": 0, "level_count": levels },
        "sampler": smp,
        "op": op,
        "quads": [quad]
    })
}
