//! Helpers shared by the container test files.

use quadtex_format::{Error, ErrorKind};

/// The reason of a `container` error: its message past `container: `.
pub(crate) fn container_reason<T: std::fmt::Debug>(container: &str, r: Result<T, Error>) -> String {
    let e = r.expect_err("an error");
    assert_eq!(e.kind(), ErrorKind::Container, "{e}");
    let m = e.to_string();
    match m.strip_prefix(&format!("{container}: ")) {
        Some(reason) => reason.to_owned(),
        None => panic!("expected a {container} error, got {m}"),
    }
}
