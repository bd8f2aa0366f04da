//! Targets over what users hand quadtex as files: texture containers
//! (KTX2, DDS, the `image` crate's formats), scene TOML and probe cases.
//! Every loader must answer bad bytes with an error; what loads must
//! decode in every texel of every level and write back where the format
//! can be written.

use std::path::Path;

use quadtex_format::{io, Aspect, TexelAddr, Texture};
use quadtex_scene::Scene;

/// At most this many blocks of a loaded texture are decoded per input, so
/// one input stays fast even where the loader allows a big texture.
const MAX_DECODED_BLOCKS: u64 = 1 << 16;

/// Decodes every block (or texel) of every subresource of `t` up to
/// [`MAX_DECODED_BLOCKS`], through every aspect the format has, and reads
/// past the edges (which must give `None`, not a panic).
fn decode_all(t: &Texture) {
    let d = *t.desc();
    let f = d.format;
    let (bw, bh) = f.block_extent();
    let mut aspects = Vec::new();
    if f.has_depth() {
        aspects.push(Aspect::Depth);
    }
    if f.has_stencil() {
        aspects.push(Aspect::Stencil);
    }
    if aspects.is_empty() {
        aspects.push(Aspect::Color);
    }
    let mut budget = MAX_DECODED_BLOCKS;
    for level in 0..d.levels {
        for layer in 0..d.layers {
            for sample in 0..d.samples {
                let Some(s) = t.subresource(level, layer, sample) else {
                    panic!("texture {d:?}: subresource ({level}, {layer}, {sample}) missing");
                };
                let e = s.extent;
                for z in 0..e.depth {
                    for y in (0..e.height).step_by(bh as usize) {
                        for x in (0..e.width).step_by(bw as usize) {
                            if budget == 0 {
                                return;
                            }
                            budget -= 1;
                            let at = TexelAddr {
                                level,
                                layer,
                                sample,
                                x,
                                y,
                                z,
                            };
                            for &a in &aspects {
                                // Compressed blocks may be undecodable
                                // (reserved modes): `None`, never a panic.
                                let _ = t.read_texel(at, a);
                            }
                        }
                    }
                }
                let outside = TexelAddr {
                    level,
                    layer,
                    sample,
                    x: e.width,
                    y: e.height.saturating_sub(1),
                    z: 0,
                };
                assert!(
                    t.read_texel(outside, aspects[0]).is_none(),
                    "{d:?}: a texel past the row's end read as Some"
                );
            }
        }
    }
}

/// KTX2: load, decode every level; what loads writes back to KTX2 and
/// reads back with the same description and bytes.
pub(crate) fn ktx2(data: &[u8]) -> bool {
    let Ok(t) = io::read_ktx2(data) else {
        return false;
    };
    decode_all(&t);
    if let Ok(bytes) = io::write_ktx2(&t) {
        let back = io::read_ktx2(&bytes).expect("quadtex's own KTX2 output reads back");
        assert_eq!(
            back.desc(),
            t.desc(),
            "KTX2 round trip changed the description"
        );
        assert!(
            back.to_linear_bytes() == t.to_linear_bytes(),
            "KTX2 round trip changed the texels"
        );
    }
    true
}

/// DDS: load, decode every level.
pub(crate) fn dds(data: &[u8]) -> bool {
    let t = io::read_dds(data);
    if let Ok(t) = &t {
        decode_all(t);
    }
    t.is_ok()
}

/// Everything the `image` crate reads (PNG, JPEG, TGA, BMP, HDR, EXR):
/// through quadtex's loader in both colour spaces, decode every texel.
pub(crate) fn image(data: &[u8]) -> bool {
    let mut loaded = false;
    for cs in [io::ColorSpace::Srgb, io::ColorSpace::Linear] {
        if let Ok(t) = io::load_image(data, cs) {
            decode_all(&t);
            loaded = true;
        }
    }
    loaded
}

/// The folder of the repository's scenes, so that seeds naming the shipped
/// assets load them.
fn scenes_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenes"))
}

/// Scene TOML: any text loads or is an error naming what is wrong.
pub(crate) fn scene(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    Scene::from_toml_str(text, scenes_dir()).is_ok()
}

/// A probe case: the JSON text, a NUL byte, then the texel data the case's
/// `texture.data` would name. Any input evaluates or is an error (exit 2
/// for bad input); an evaluation prints a RESULT document that is JSON.
pub(crate) fn probe(data: &[u8]) -> bool {
    let (json, texels) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let Ok(json) = std::str::from_utf8(json) else {
        return false;
    };
    let Ok(result) = quadtex::probe::run_with_texels(json, texels) else {
        return false;
    };
    assert!(
        result.starts_with("{\"quads\": [") && result.ends_with("}\n"),
        "not a RESULT document: {result}"
    );
    true
}
