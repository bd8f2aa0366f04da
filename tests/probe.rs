//! `quadtex probe` as a conformance harness runs it: a CASE.json and its
//! texel file in a directory, RESULT JSON on stdout, and exit 2 with one
//! stderr line for every kind of bad input (docs/probe-format.md).

mod common;

use common::*;
use serde_json::{json, Value};

fn sampler(filter: &str, mipmap: &str, address: &str) -> Value {
    json!({
        "mag_filter": filter, "min_filter": filter, "mipmap_mode": mipmap,
        "address": [address, address, address],
        "border_color": [0.0, 0.0, 0.0, 1.0],
        "mip_lod_bias": 0.0, "min_lod": 0.0, "max_lod": 1000.0,
        "max_anisotropy": 1.0, "compare": null, "unnormalized": false
    })
}

/// The 2x2 RGBA8 texture of the nearest tests: texel (x, y) holds
/// `[16*i, 16*i + 1, 16*i + 2, 255]` with i = 2y + x, plus extremes.
fn rgba8_2x2() -> Vec<u8> {
    vec![
        0, 1, 2, 255, 16, 17, 18, 255, 32, 33, 34, 0, 255, 128, 127, 1,
    ]
}

fn f32_lane(v: &Value) -> Vec<f32> {
    v.as_array()
        .expect("lane is a list")
        .iter()
        .map(|x| x.as_f64().expect("a number") as f32)
        .collect()
}

fn centres_2x2() -> Value {
    json!([
        [0.25, 0.25, 0, 0],
        [0.75, 0.25, 0, 0],
        [0.25, 0.75, 0, 0],
        [0.75, 0.75, 0, 0]
    ])
}

#[test]
fn nearest_sample_at_texel_centres_returns_the_texels_exactly() {
    let bytes = rgba8_2x2();
    let c = case(
        texture("R8G8B8A8_UNORM", "2d", 2, 2, 1, 1),
        sampler("nearest", "none", "repeat"),
        json!({"name": "sample", "lod_mode": "implicit"}),
        json!({ "coords": centres_2x2() }),
    );
    let r = result(&c, &bytes);
    let q = &r["quads"][0];
    for lane in 0..4 {
        let want: Vec<f32> = bytes[4 * lane..4 * lane + 4]
            .iter()
            .map(|&b| b as f32 / 255.0)
            .collect();
        assert_eq!(f32_lane(&q["lanes"][lane]), want, "lane {lane}");
        assert_eq!(q["resident"][lane], json!(true));
    }
}

#[test]
fn bilinear_at_the_centre_of_a_4x4_r32f_averages_the_middle_four() {
    let texels: Vec<u8> = (0..16).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let c = case(
        texture("R32_SFLOAT", "2d", 4, 4, 1, 1),
        sampler("linear", "none", "clamp_to_edge"),
        json!({"name": "sample", "lod_mode": "base"}),
        json!({ "coords": [[0.5, 0.5, 0, 0], [0.375, 0.375, 0, 0], [0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0]] }),
    );
    let r = result(&c, &texels);
    // (5 + 6 + 9 + 10) / 4; missing components read (0, 0, 1).
    assert_eq!(f32_lane(&r["quads"][0]["lanes"][0]), [7.5, 0.0, 0.0, 1.0]);
    // At the centre of texel (1, 1) exactly: that texel alone.
    assert_eq!(f32_lane(&r["quads"][0]["lanes"][1]), [5.0, 0.0, 0.0, 1.0]);
}

#[test]
fn inactive_lanes_print_null_in_lanes_and_resident() {
    let c = case(
        texture("R8G8B8A8_UNORM", "2d", 2, 2, 1, 1),
        sampler("nearest", "none", "repeat"),
        json!({"name": "sample"}),
        json!({ "coords": centres_2x2(), "active": [true, false, false, true] }),
    );
    let r = result(&c, &rgba8_2x2());
    let q = &r["quads"][0];
    assert_eq!(q["lanes"][1], Value::Null);
    assert_eq!(q["lanes"][2], Value::Null);
    assert_eq!(q["resident"], json!([true, null, null, true]));
    assert_eq!(
        f32_lane(&q["lanes"][3]),
        [1.0, 128.0 / 255.0, 127.0 / 255.0, 1.0 / 255.0]
    );
}

/// Runs a nearest sample of the four R32F words at the four lanes and
/// returns the RESULT text.
fn nearest_r32f_words(words: [u32; 4]) -> String {
    let texels: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let c = case(
        texture("R32_SFLOAT", "1d", 4, 1, 1, 1),
        sampler("nearest", "none", "repeat"),
        json!({"name": "sample", "lod_mode": "base"}),
        json!({ "coords": [[0.125, 0, 0, 0], [0.375, 0, 0, 0], [0.625, 0, 0, 0], [0.875, 0, 0, 0]] }),
    );
    let out = probe(&c, &texels);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn float_specials_read_by_nearest_sample_print_bit_exact() {
    // The smallest denormal, NaN, +Inf, -Inf.
    let text = nearest_r32f_words([1, 0x7fc0_0000, 0x7f80_0000, 0xff80_0000]);
    for want in [
        "[1e-45,0.0,0.0,1.0]",
        "[\"NaN\",0.0,0.0,1.0]",
        "[\"Infinity\",0.0,0.0,1.0]",
        "[\"-Infinity\",0.0,0.0,1.0]",
    ] {
        assert!(text.contains(want), "missing {want} in {text}");
    }
}

#[test]
fn negative_zero_read_by_nearest_sample_keeps_its_sign() {
    let text = nearest_r32f_words([0x8000_0000; 4]);
    assert!(text.contains("[-0.0,0.0,0.0,1.0]"), "{text}");
}

#[test]
fn integer_formats_print_integers_and_take_an_integer_border() {
    // R8G8B8A8_SINT 2x1: (-128, -1, 0, 127), (1, 2, 3, 4).
    let texels = [0x80u8, 0xff, 0, 127, 1, 2, 3, 4];
    let mut smp = sampler("nearest", "none", "clamp_to_border");
    smp["border_color"] = json!([-5, 7, 0, 1]);
    let c = case(
        texture("R8G8B8A8_SINT", "2d", 2, 1, 1, 1),
        smp,
        json!({"name": "sample", "lod_mode": "base"}),
        json!({ "coords": [[0.25, 0.5, 0, 0], [0.75, 0.5, 0, 0], [1.5, 0.5, 0, 0], [-0.5, 0.5, 0, 0]] }),
    );
    let r = result(&c, &texels);
    assert_eq!(
        r["quads"][0]["lanes"],
        json!([
            [-128, -1, 0, 127],
            [1, 2, 3, 4],
            [-5, 7, 0, 1],
            [-5, 7, 0, 1]
        ])
    );
    let c = case(
        texture("R32G32B32A32_UINT", "2d", 1, 1, 1, 1),
        sampler("nearest", "none", "repeat"),
        json!({"name": "sample"}),
        json!({ "coords": [[0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0]] }),
    );
    let texels: Vec<u8> = [u32::MAX, 0, 7, 1 << 31]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let r = result(&c, &texels);
    assert_eq!(
        r["quads"][0]["lanes"][0],
        json!([4294967295u32, 0, 7, 2147483648u32])
    );
}

#[test]
fn depth_compare_prints_the_result_then_0_0_1() {
    let texels: Vec<u8> = [0.25f32, 0.75]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let mut smp = sampler("nearest", "none", "clamp_to_edge");
    smp["compare"] = json!("less");
    let c = case(
        texture("D32_SFLOAT", "2d", 2, 1, 1, 1),
        smp,
        json!({"name": "sample", "lod_mode": "level", "compare": true}),
        json!({
            "coords": [[0.25, 0.5, 0, 0], [0.75, 0.5, 0, 0], [0.25, 0.5, 0, 0], [0.75, 0.5, 0, 0]],
            "lod": [0, 0, 0, 0],
            "dref": [0.5, 0.5, 0.0, 1.0]
        }),
    );
    let r = result(&c, &texels);
    // less: Dref < D.
    assert_eq!(
        r["quads"][0]["lanes"],
        json!([
            [0.0, 0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 1.0],
            [0.0, 0.0, 0.0, 1.0]
        ])
    );
}

#[test]
fn non_finite_coordinates_are_accepted_as_strings() {
    let c = case(
        texture("R8G8B8A8_UNORM", "2d", 2, 2, 1, 1),
        sampler("nearest", "none", "repeat"),
        json!({"name": "sample", "lod_mode": "base"}),
        json!({ "coords": [["NaN", 0.25, 0, 0], ["Infinity", 0.25, 0, 0], ["-Infinity", 0.25, 0, 0], [0.75, 0.75, 0, 0]] }),
    );
    let r = result(&c, &rgba8_2x2());
    for lane in 0..4 {
        assert_eq!(f32_lane(&r["quads"][0]["lanes"][lane]).len(), 4);
    }
}

#[test]
fn explicit_level_picks_the_mip() {
    // 2x2 level 0 all 0, 1x1 level 1 = 1.0 (R32F).
    let texels: Vec<u8> = [0.0f32, 0.0, 0.0, 0.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let c = case(
        texture("R32_SFLOAT", "2d", 2, 2, 1, 2),
        sampler("nearest", "nearest", "repeat"),
        json!({"name": "sample", "lod_mode": "level"}),
        json!({ "coords": centres_2x2(), "lod": [0, 1, 0.4, 0.6] }),
    );
    let r = result(&c, &texels);
    let firsts: Vec<f32> = (0..4)
        .map(|l| f32_lane(&r["quads"][0]["lanes"][l])[0])
        .collect();
    assert_eq!(firsts, [0.0, 1.0, 0.0, 1.0]);
}

fn size_case(
    kind: &str,
    w: u32,
    h: u32,
    layers: u32,
    levels: u32,
    level: [i32; 4],
) -> (Value, Vec<u8>) {
    let t = texture("R8G8B8A8_UNORM", kind, w, h, layers, levels);
    let mut bytes = 0;
    for l in 0..levels {
        bytes += (w >> l).max(1) * (h >> l).max(1) * 4 * layers;
    }
    let c = case(
        t,
        sampler("nearest", "nearest", "repeat"),
        json!({"name": "size"}),
        json!({ "level": level }),
    );
    (c, vec![0; bytes as usize])
}

#[test]
fn size_of_a_2d_array_and_a_cube_array_follows_the_table() {
    let (c, t) = size_case("2d_array", 16, 8, 3, 4, [0, 1, 3, 4]);
    let r = result(&c, &t);
    assert_eq!(
        r["quads"][0],
        json!({
            "lanes": [[16, 8, 3, 4], [8, 4, 3, 4], [2, 1, 3, 4], [0, 0, 0, 4]],
            "resident": [true, true, true, true],
            "samples": [1, 1, 1, 1]
        })
    );
    let (c, t) = size_case("cube_array", 8, 8, 12, 4, [0, 2, 3, -1]);
    let r = result(&c, &t);
    assert_eq!(
        r["quads"][0]["lanes"],
        json!([[8, 8, 2, 4], [2, 2, 2, 4], [1, 1, 2, 4], [0, 0, 0, 4]])
    );
}

#[test]
fn size_of_a_view_counts_from_its_base_level() {
    let (mut c, t) = size_case("2d", 16, 16, 1, 5, [0, 1, 2, 3]);
    c["view"] = json!({ "swizzle": "rgba", "base_level": 1, "level_count": 3 });
    let r = result(&c, &t);
    assert_eq!(
        r["quads"][0]["lanes"],
        json!([[8, 8, 0, 3], [4, 4, 0, 3], [2, 2, 0, 3], [0, 0, 0, 3]])
    );
}

#[test]
fn size_of_a_multisample_array_reports_its_samples() {
    let mut c = case(
        texture("R8G8B8A8_UNORM", "2d_ms_array", 4, 2, 3, 1),
        sampler("nearest", "none", "repeat"),
        json!({"name": "size"}),
        json!({ "level": [0, 0, 0, 0] }),
    );
    c["texture"]["samples"] = json!(4);
    let r = result(&c, &vec![0; 4 * 2 * 4 * 3 * 4]);
    assert_eq!(r["quads"][0]["lanes"][0], json!([4, 2, 3, 1]));
    assert_eq!(r["quads"][0]["samples"], json!([4, 4, 4, 4]));
}

#[test]
fn an_empty_quad_list_is_an_empty_result() {
    let mut c = case(
        texture("R8G8B8A8_UNORM", "2d", 2, 2, 1, 1),
        sampler("nearest", "none", "repeat"),
        json!({"name": "sample"}),
        json!({}),
    );
    c["quads"] = json!([]);
    assert_eq!(result(&c, &rgba8_2x2()), json!({"quads": []}));
}

/// A valid sample case to break one field at a time.
fn good() -> Value {
    case(
        texture("R8G8B8A8_UNORM", "2d", 2, 2, 1, 1),
        sampler("nearest", "none", "repeat"),
        json!({"name": "sample", "lod_mode": "implicit"}),
        json!({ "coords": centres_2x2() }),
    )
}

#[test]
fn the_valid_base_case_runs() {
    result(&good(), &rgba8_2x2());
}

#[test]
fn malformed_json_and_missing_fields_exit_2() {
    for text in ["", "{", "[]", "{\"texture\": 1}", "not json"] {
        rejected_output(probe_text(text, &rgba8_2x2()));
    }
    for field in ["texture", "op", "quads"] {
        let mut c = good();
        c.as_object_mut().unwrap().remove(field);
        let e = rejected(&c, &rgba8_2x2());
        assert!(e.contains(field), "{e}");
    }
    let mut c = good();
    c["texture"].as_object_mut().unwrap().remove("format");
    assert!(rejected(&c, &rgba8_2x2()).contains("format"));
}

#[test]
fn bad_textures_exit_2() {
    let mut c = good();
    c["texture"]["format"] = json!("R8G8B8A8_UNROM");
    assert!(rejected(&c, &rgba8_2x2()).contains("R8G8B8A8_UNROM"));
    let mut c = good();
    c["texture"]["kind"] = json!("4d");
    assert!(rejected(&c, &rgba8_2x2()).contains("4d"));
    let e = rejected(&good(), &rgba8_2x2()[..15]);
    assert!(e.contains("expected 16 bytes, got 15"), "{e}");
    let mut c = good();
    c["texture"]["data"] = json!("missing.bin");
    assert!(rejected(&c, &rgba8_2x2()).contains("missing.bin"));
    let mut c = good();
    c["texture"]["width"] = json!(-2);
    rejected(&c, &rgba8_2x2());
    let mut c = good();
    c["texture"]["width"] = json!(2.5);
    rejected(&c, &rgba8_2x2());
    // A huge declared texture is refused on its size, not allocated.
    let mut c = good();
    c["texture"]["width"] = json!(65536);
    c["texture"]["height"] = json!(32768);
    rejected(&c, &rgba8_2x2());
    let mut c = good();
    c["texture"]["levels"] = json!(3);
    c["view"]["level_count"] = json!(3);
    rejected(&c, &rgba8_2x2());
}

#[test]
fn wrong_lane_arity_exits_2() {
    let bad_quads = [
        json!({ "coords": [[0.25, 0.25, 0], [0.75, 0.25, 0, 0], [0.25, 0.75, 0, 0], [0.75, 0.75, 0, 0]] }),
        json!({ "coords": [[0.25, 0.25, 0, 0], [0.75, 0.25, 0, 0], [0.25, 0.75, 0, 0]] }),
        json!({ "coords": [[0.25, 0.25, 0, 0, 0], [0.75, 0.25, 0, 0], [0.25, 0.75, 0, 0], [0.75, 0.75, 0, 0]] }),
        json!({ "coords": [[0.25, "x", 0, 0], [0.75, 0.25, 0, 0], [0.25, 0.75, 0, 0], [0.75, 0.75, 0, 0]] }),
        json!({ "coords": [[0.25, null, 0, 0], [0.75, 0.25, 0, 0], [0.25, 0.75, 0, 0], [0.75, 0.75, 0, 0]] }),
        json!({ "coords": centres_2x2(), "active": [true, true, true] }),
        json!({ "coords": centres_2x2(), "active": [1, 1, 1, 1] }),
        json!({}),
    ];
    for q in bad_quads {
        let mut c = good();
        c["quads"] = json!([q]);
        rejected(&c, &rgba8_2x2());
    }
    let mut c = good();
    c["op"]["lod_mode"] = json!("grad");
    c["quads"][0]["ddx"] = json!([[0.1, 0, 0], [0.1, 0, 0], [0.1, 0, 0], [0.1, 0]]);
    c["quads"][0]["ddy"] = json!([[0, 0.1, 0], [0, 0.1, 0], [0, 0.1, 0], [0, 0.1, 0]]);
    assert!(rejected(&c, &rgba8_2x2()).contains("quads[0].ddx[3]"));
    let mut c = good();
    c["op"]["lod_mode"] = json!("level");
    assert!(rejected(&c, &rgba8_2x2()).contains("quads[0].lod"));
    c["quads"][0]["lod"] = json!([0, 0, 0]);
    assert!(rejected(&c, &rgba8_2x2()).contains("4 lanes"));
    let mut c = good();
    c["op"]["lod_mode"] = json!("bias");
    rejected(&c, &rgba8_2x2());
}

/// One change to a valid case.
type Edit = fn(&mut Value);

#[test]
fn bad_ops_and_samplers_exit_2() {
    let cases: Vec<(Edit, &str)> = vec![
        (|c| c["op"]["name"] = json!("blit"), "unknown op"),
        (
            |c| {
                c["op"] = json!({"name": "gather", "component": 4});
            },
            "op.component",
        ),
        (
            |c| {
                c["op"] = json!({"name": "query_lod", "lod_mode": "level"});
            },
            "op.lod_mode",
        ),
        (|c| c["op"] = json!({"name": "fetch"}), "quads[0].icoords"),
        (|c| c["op"]["lod_mode"] = json!("auto"), "op.lod_mode"),
        (
            |c| c["op"]["derivatives"] = json!("medium"),
            "op.derivatives",
        ),
        (|c| c["op"]["offset"] = json!([32, 0]), "op.offset[0]"),
        (|c| c["op"]["offset"] = json!([0, -33]), "op.offset[1]"),
        (|c| c["op"]["offset"] = json!([0, 0, 0, 0]), "op.offset"),
        (|c| c["op"]["compare"] = json!(true), "op.compare"),
        (|c| c["op"]["lodmode"] = json!("base"), "lodmode"),
        (|c| c["sampler"]["compare"] = json!("less"), "compare"),
        (|c| c["sampler"]["compare"] = json!("lesser"), "lesser"),
        (
            |c| c["sampler"]["address"] = json!(["repeat", "wrap", "repeat"]),
            "wrap",
        ),
        (|c| c["sampler"]["address"] = json!([]), "sampler.address"),
        (|c| c["sampler"]["mag_filter"] = json!("cubic"), "cubic"),
        (
            |c| c["sampler"]["mipmap_mode"] = json!("linear_mipmap"),
            "mipmap_mode",
        ),
        (
            |c| c["sampler"]["border_color"] = json!([0, 0, 0]),
            "border_color",
        ),
        (
            |c| c["sampler"]["max_anisotropy"] = json!(0.5),
            "max_anisotropy",
        ),
        (|c| c["view"]["swizzle"] = json!("rgbx"), "swizzle"),
        (|c| c["view"]["level_count"] = json!(2), "levels"),
    ];
    for (edit, needle) in cases {
        let mut c = good();
        edit(&mut c);
        let e = rejected(&c, &rgba8_2x2());
        assert!(e.contains(needle), "`{needle}` not in {e}");
    }
}

#[test]
fn ops_the_view_does_not_allow_exit_2() {
    // sample on a multisample texture.
    let mut c = good();
    c["texture"]["kind"] = json!("2d_ms");
    c["texture"]["samples"] = json!(4);
    let e = rejected(&c, &[0; 64]);
    assert!(e.contains("2d_ms"), "{e}");
    // linear filtering of an integer format.
    let mut c = good();
    c["texture"]["format"] = json!("R8G8B8A8_UINT");
    c["sampler"] = sampler("linear", "none", "repeat");
    assert!(rejected(&c, &rgba8_2x2()).contains("filterable"));
    // unnormalized coordinates with a repeating address mode.
    let mut c = good();
    c["sampler"] = sampler("nearest", "nearest", "repeat");
    c["sampler"]["unnormalized"] = json!(true);
    assert!(rejected(&c, &rgba8_2x2()).contains("clamp"));
    // an offset on a cube.
    let mut c = good();
    c["texture"] = texture("R8G8B8A8_UNORM", "cube", 1, 1, 6, 1);
    c["view"]["level_count"] = json!(1);
    c["op"]["offset"] = json!([1, 0]);
    assert!(rejected(&c, &[0; 24]).contains("cube"));
}

#[test]
fn unknown_top_level_fields_are_ignored() {
    let mut c = good();
    c["comment"] = json!("made by hand");
    result(&c, &rgba8_2x2());
}
