//! `quadtex probe` on the ops beyond `sample` and `size`: `gather`,
//! `query_lod` and `fetch`, as a conformance harness runs them
//! (docs/probe-format.md): RESULT shapes (inactive lanes `null` in `lanes`,
//! `resident` and `raw`), concrete values from docs/semantics.md §1, §2 and
//! §4, and exit 2 with one stderr line for every input the format refuses.

mod common;

use common::*;
use serde_json::{json, Value};

fn sampler(address: &str) -> Value {
    json!({
        "mag_filter": "nearest", "min_filter": "nearest", "mipmap_mode": "none",
        "address": [address, address, address],
        "border_color": [0.0, 0.0, 0.0, 1.0],
        "mip_lod_bias": 0.0, "min_lod": 0.0, "max_lod": 1000.0,
        "max_anisotropy": 1.0, "compare": null, "unnormalized": false
    })
}

/// 2x2 RGBA8: texel (x, y) = `[16 i, 16 i + 1, 16 i + 2, 255 - i]`, i = 2y + x.
fn rgba8_2x2() -> Vec<u8> {
    (0u8..4)
        .flat_map(|i| [16 * i, 16 * i + 1, 16 * i + 2, 255 - i])
        .collect()
}

/// A printed lane read back as f32 (the printed decimals are the shortest
/// that round-trip as f32, not as f64).
fn lane(v: &Value) -> Vec<f32> {
    v.as_array()
        .expect("a lane list")
        .iter()
        .map(|x| x.as_f64().expect("a number") as f32)
        .collect()
}

/// UNORM8 `x` decoded.
fn n(x: u8) -> f32 {
    x as f32 / 255.0
}

fn at_centre() -> Value {
    json!({ "coords": [[0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0]] })
}

// ---------------------------------------------------------------------------
// gather
// ---------------------------------------------------------------------------

#[test]
fn gather_returns_the_footprint_in_index_order_for_each_component() {
    for comp in 0..4u8 {
        let c = case(
            texture("R8G8B8A8_UNORM", "2d", 2, 2, 1, 1),
            sampler("repeat"),
            json!({"name": "gather", "component": comp}),
            at_centre(),
        );
        let r = result(&c, &rgba8_2x2());
        let q = &r["quads"][0];
        // [T(0,1), T(1,1), T(1,0), T(0,0)] = texels i = 2, 3, 1, 0.
        let want: Vec<f32> = [2u8, 3, 1, 0]
            .iter()
            .map(|&i| n(if comp == 3 { 255 - i } else { 16 * i + comp }))
            .collect();
        for l in 0..4 {
            assert_eq!(lane(&q["lanes"][l]), want, "component {comp}");
        }
        assert_eq!(q["resident"], json!([true, true, true, true]));
        assert!(q.get("raw").is_none());
    }
}

#[test]
fn gather_component_follows_the_view_swizzle() {
    let mut c = case(
        texture("R8G8B8A8_UNORM", "2d", 2, 2, 1, 1),
        sampler("repeat"),
        json!({"name": "gather", "component": 0}),
        at_centre(),
    );
    c["view"]["swizzle"] = json!("b1ra");
    let r = result(&c, &rgba8_2x2());
    assert_eq!(
        lane(&r["quads"][0]["lanes"][0]),
        vec![n(34), n(50), n(18), n(2)]
    );
    c["op"]["component"] = json!(1);
    let r = result(&c, &rgba8_2x2());
    assert_eq!(lane(&r["quads"][0]["lanes"][0]), vec![1.0; 4]);
}

#[test]
fn gather_offsets_and_ptp_offsets_move_the_footprint() {
    // 4x4 R32_SFLOAT, texel (x, y) = 10 y + x; lanes at u = v = 1.5 -> i0 = j0 = 1.
    let texels: Vec<u8> = (0..16)
        .flat_map(|i| (((i / 4) * 10 + i % 4) as f32).to_le_bytes())
        .collect();
    let q = json!({ "coords": [[0.375, 0.375, 0, 0], [0.375, 0.375, 0, 0], [0.375, 0.375, 0, 0], [0.375, 0.375, 0, 0]] });
    let c = case(
        texture("R32_SFLOAT", "2d", 4, 4, 1, 1),
        sampler("repeat"),
        json!({"name": "gather", "offset": [1, -2]}),
        q.clone(),
    );
    // i0 = 2, j0 = -1 -> 3.
    let r = result(&c, &texels);
    assert_eq!(lane(&r["quads"][0]["lanes"][0]), vec![2.0, 3.0, 33.0, 32.0]);
    let c = case(
        texture("R32_SFLOAT", "2d", 4, 4, 1, 1),
        sampler("repeat"),
        json!({"name": "gather", "offsets": [[0, 0], [1, 0], [0, 1], [-2, 2]]}),
        q,
    );
    // out[k] = T(i0 + ds_k, j0 + dt_k).
    let r = result(&c, &texels);
    assert_eq!(
        lane(&r["quads"][0]["lanes"][0]),
        vec![11.0, 12.0, 21.0, 33.0]
    );
}

#[test]
fn gather_compare_prints_the_four_compare_results() {
    let depths: Vec<u8> = [0.25f32, 0.5, 0.75, 1.0]
        .iter()
        .flat_map(|d| d.to_le_bytes())
        .collect();
    let mut smp = sampler("clamp_to_edge");
    smp["compare"] = json!("less");
    let mut q = at_centre();
    q["dref"] = json!([0.6, 0.6, 0.0, 2.0]);
    q["active"] = json!([true, false, true, true]);
    let c = case(
        texture("D32_SFLOAT", "2d", 2, 2, 1, 1),
        smp,
        json!({"name": "gather", "compare": true}),
        q,
    );
    let r = result(&c, &depths);
    let q = &r["quads"][0];
    // Output order holds D = 0.75, 1.0, 0.5, 0.25.
    assert_eq!(lane(&q["lanes"][0]), vec![1.0, 1.0, 0.0, 0.0]);
    assert_eq!(q["lanes"][1], Value::Null);
    assert_eq!(q["resident"][1], Value::Null);
    assert_eq!(lane(&q["lanes"][2]), vec![1.0; 4]);
    assert_eq!(lane(&q["lanes"][3]), vec![0.0; 4]);
}

#[test]
fn gather_cases_the_format_refuses_exit_2() {
    let base = || {
        case(
            texture("R8G8B8A8_UNORM", "2d", 2, 2, 1, 1),
            sampler("repeat"),
            json!({"name": "gather"}),
            at_centre(),
        )
    };
    let bytes = rgba8_2x2();
    let mut c = base();
    c["op"]["component"] = json!(4);
    assert!(rejected(&c, &bytes).contains("op.component"));
    let mut c = base();
    c["op"]["offset"] = json!([0, 32]);
    assert!(rejected(&c, &bytes).contains("op.offset[1]"));
    let mut c = base();
    c["op"]["offset"] = json!([0, 1, 0]);
    assert!(rejected(&c, &bytes).contains("op.offset"));
    let mut c = base();
    c["op"]["offsets"] = json!([[0, 0], [1, 1], [2, 2]]);
    assert!(rejected(&c, &bytes).contains("op.offsets"));
    let mut c = base();
    c["op"]["offsets"] = json!([[0, 0], [1, 1], [2, -33], [3, 3]]);
    assert!(rejected(&c, &bytes).contains("op.offsets[2][1]"));
    let mut c = base();
    c["op"]["offset"] = json!([1, 1]);
    c["op"]["offsets"] = json!([[0, 0], [1, 1], [2, 2], [3, 3]]);
    assert!(rejected(&c, &bytes).contains("not both"));
    let mut c = base();
    c["op"]["compare"] = json!(true);
    assert!(rejected(&c, &bytes).contains("op.compare"));
    let mut c = base();
    c["quads"][0] = json!({});
    assert!(rejected(&c, &bytes).contains("coords"));
    // Offsets on cubes.
    let mut c = base();
    c["texture"] = texture("R8G8B8A8_UNORM", "cube", 1, 1, 6, 1);
    c["op"]["offset"] = json!([1, 0]);
    assert!(rejected(&c, &[0; 24]).contains("cube"));
    c["op"]["offset"] = Value::Null;
    c["op"]["offsets"] = json!([[0, 0], [1, 1], [2, 2], [3, 3]]);
    assert!(rejected(&c, &[0; 24]).contains("cube"));
    // Kinds TLD4 does not take.
    for (kind, h, bytes) in [("1d", 1, 8), ("3d", 2, 32)] {
        let mut c = base();
        c["texture"] = texture("R8G8B8A8_UNORM", kind, 2, h, 1, 1);
        if kind == "3d" {
            c["texture"]["depth"] = json!(2);
        }
        assert!(rejected(&c, &vec![0; bytes]).contains(kind));
    }
    let mut c = base();
    c["texture"] = texture("R8G8B8A8_UNORM", "2d_ms", 2, 2, 1, 1);
    c["texture"]["samples"] = json!(4);
    assert!(rejected(&c, &[0; 64]).contains("2d_ms"));
    // A compare dref must be given.
    let mut c = base();
    c["texture"] = texture("D32_SFLOAT", "2d", 1, 1, 1, 1);
    c["sampler"]["compare"] = json!("less");
    c["op"]["compare"] = json!(true);
    assert!(rejected(&c, &[0; 4]).contains("dref"));
}

#[test]
fn gather_accepts_a_linear_sampler_on_an_integer_format() {
    let mut smp = sampler("repeat");
    smp["mag_filter"] = json!("linear");
    smp["min_filter"] = json!("linear");
    let texels: Vec<u8> = (0u32..4).flat_map(|i| (1000 + i).to_le_bytes()).collect();
    let c = case(
        texture("R32_UINT", "2d", 2, 2, 1, 1),
        smp,
        json!({"name": "gather", "component": 0}),
        at_centre(),
    );
    let r = result(&c, &texels);
    assert_eq!(r["quads"][0]["lanes"][0], json!([1002, 1003, 1001, 1000]));
}

// ---------------------------------------------------------------------------
// query_lod
// ---------------------------------------------------------------------------

fn lod_case(mipmap: &str, op: Value, quad: Value) -> Value {
    let mut smp = sampler("repeat");
    smp["mipmap_mode"] = json!(mipmap);
    smp["min_filter"] = json!("linear");
    case(texture("R8G8B8A8_UNORM", "2d", 16, 16, 1, 5), smp, op, quad)
}

fn lod_texels() -> Vec<u8> {
    vec![0; 4 * (256 + 64 + 16 + 4 + 1)]
}

#[test]
fn query_lod_prints_accessed_level_lambda_and_the_tmml_words() {
    // A quad stepping 2 texels per pixel: lambda = 1.
    let q = json!({ "coords": [
        [0.25, 0.25, 0, 0], [0.375, 0.25, 0, 0], [0.25, 0.375, 0, 0], [0.375, 0.375, 0, 0]
    ]});
    let r = result(
        &lod_case("linear", json!({"name": "query_lod"}), q.clone()),
        &lod_texels(),
    );
    let quad = &r["quads"][0];
    for l in 0..4 {
        assert_eq!(lane(&quad["lanes"][l]), vec![1.0, 1.0, 0.0, 0.0]);
        assert_eq!(quad["raw"][l], json!([0x0100, 0x0100, 0x0040, 0]));
    }
    assert_eq!(quad["resident"], json!([true, true, true, true]));
    // mipmap_mode none: x = 0, and G with it.
    let r = result(
        &lod_case("none", json!({"name": "query_lod"}), q),
        &lod_texels(),
    );
    assert_eq!(lane(&r["quads"][0]["lanes"][2]), vec![0.0, 1.0, 0.0, 0.0]);
    assert_eq!(r["quads"][0]["raw"][2], json!([0x0100, 0, 0x0040, 0]));
}

#[test]
fn query_lod_grad_reads_the_lane_gradients_and_inactive_lanes_are_null() {
    let q = json!({
        "coords": [[0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0]],
        "ddx": [[0.25, 0, 0], [0.0625, 0, 0], [1.0, 0, 0], [0.5, 0, 0]],
        "ddy": [[0, 0.0625, 0], [0, 0.0625, 0], [0, 0.0625, 0], [0, 0.0625, 0]],
        "active": [true, true, true, false]
    });
    let r = result(
        &lod_case(
            "nearest",
            json!({"name": "query_lod", "lod_mode": "grad"}),
            q,
        ),
        &lod_texels(),
    );
    let quad = &r["quads"][0];
    // Lane 0: 4 texels by 1 -> lambda 2, A = log2(1/4) in S4.12.
    assert_eq!(lane(&quad["lanes"][0]), vec![2.0, 2.0, 0.0, 0.0]);
    assert_eq!(quad["raw"][0], json!([0x0200, 0x0200, 0x0040, 0xe000]));
    assert_eq!(lane(&quad["lanes"][1]), vec![0.0, 0.0, 0.0, 0.0]);
    assert_eq!(lane(&quad["lanes"][2]), vec![4.0, 4.0, 0.0, 0.0]);
    assert_eq!(quad["lanes"][3], Value::Null);
    assert_eq!(quad["resident"][3], Value::Null);
    assert_eq!(quad["raw"][3], Value::Null);
}

#[test]
fn query_lod_cases_the_format_refuses_exit_2() {
    let q = json!({ "coords": [[0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0]] });
    let c = lod_case(
        "linear",
        json!({"name": "query_lod", "lod_mode": "grad"}),
        q.clone(),
    );
    assert!(rejected(&c, &lod_texels()).contains("ddx"));
    let c = lod_case(
        "linear",
        json!({"name": "query_lod", "lod_mode": "bias"}),
        q.clone(),
    );
    assert!(rejected(&c, &lod_texels()).contains("op.lod_mode"));
    let mut c = lod_case("linear", json!({"name": "query_lod"}), q);
    c["texture"] = texture("R8G8B8A8_UNORM", "2d_ms", 2, 2, 1, 1);
    c["texture"]["samples"] = json!(4);
    c["view"]["level_count"] = json!(1);
    assert!(rejected(&c, &[0; 64]).contains("2d_ms"));
}

// ---------------------------------------------------------------------------
// fetch
// ---------------------------------------------------------------------------

fn fetch_case(format: &str, kind: &str, w: u32, h: u32, quad: Value) -> Value {
    case(
        texture(format, kind, w, h, 1, 1),
        sampler("repeat"),
        json!({"name": "fetch"}),
        quad,
    )
}

#[test]
fn fetch_reads_texels_and_out_of_bounds_gives_format_defaults() {
    let q = json!({
        "icoords": [[1, 1, 0, 0], [2, 0, 0, 0], [0, -1, 0, 0], [0, 0, 0, 0]],
        "level": [0, 0, 0, 1]
    });
    let r = result(
        &fetch_case("R8G8B8A8_UNORM", "2d", 2, 2, q.clone()),
        &rgba8_2x2(),
    );
    let lanes = &r["quads"][0]["lanes"];
    assert_eq!(lane(&lanes[0]), vec![n(48), n(49), n(50), n(252)]);
    for l in 1..4 {
        assert_eq!(lane(&lanes[l]), vec![0.0; 4], "lane {l}");
    }
    // R8: missing G, B, A read (0, 0, 1) even out of bounds.
    let r = result(
        &fetch_case("R8_UNORM", "2d", 2, 2, q.clone()),
        &[0, 1, 2, 3],
    );
    assert_eq!(lane(&r["quads"][0]["lanes"][0]), vec![n(3), 0.0, 0.0, 1.0]);
    assert_eq!(lane(&r["quads"][0]["lanes"][1]), vec![0.0, 0.0, 0.0, 1.0]);
    // R32_UINT: integers, alpha integer 1.
    let texels: Vec<u8> = (0u32..4).flat_map(|i| (7 * i).to_le_bytes()).collect();
    let r = result(&fetch_case("R32_UINT", "2d", 2, 2, q), &texels);
    assert_eq!(r["quads"][0]["lanes"][0], json!([21, 0, 0, 1]));
    assert_eq!(r["quads"][0]["lanes"][2], json!([0, 0, 0, 1]));
}

#[test]
fn fetch_keeps_float_bits_and_prints_ties_with_the_even_digit() {
    // R16_SFLOAT 0x3c14 = 1.01953125: printed 1.0195312 (the even shortest).
    let texels = [0x14, 0x3c, 0x01, 0x00, 0x00, 0x80, 0x00, 0x7c];
    let q = json!({ "icoords": [[0, 0, 0, 0], [1, 0, 0, 0], [2, 0, 0, 0], [3, 0, 0, 0]] });
    let out = probe(&fetch_case("R16_SFLOAT", "1d", 4, 1, q), &texels);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("[1.0195312,0.0,0.0,1.0]"), "{text}");
    assert!(text.contains("[5.9604645e-8,0.0,0.0,1.0]"), "{text}");
    assert!(text.contains("[-0.0,0.0,0.0,1.0]"), "{text}");
    assert!(text.contains("[\"Infinity\",0.0,0.0,1.0]"), "{text}");
}

#[test]
fn fetch_offsets_wrap_unsigned_and_multisample_reads_samples() {
    // 2x2 2d_ms R32_UINT with 4 samples: texel (x, y) of sample s holds
    // 1000 + 100 s + 10 y + x.
    let mut texels = Vec::new();
    for s in 0..4u32 {
        for y in 0..2u32 {
            for x in 0..2u32 {
                texels.extend((1000 + 100 * s + 10 * y + x).to_le_bytes());
            }
        }
    }
    let mut c = fetch_case(
        "R32_UINT",
        "2d_ms",
        2,
        2,
        json!({
            "icoords": [[1, 1, 0, 0], [1, 1, 0, 0], [-1, 0, 0, 0], [4294967295u32, 1, 0, 0]],
            "sample": [3, 4, 0, 2]
        }),
    );
    c["texture"]["samples"] = json!(4);
    c["op"]["offset"] = json!([1, 0]);
    let r = result(&c, &texels);
    let lanes = &r["quads"][0]["lanes"];
    // Lane 0: x = 1 + 1 = 2 is out of bounds.
    assert_eq!(lanes[0], json!([0, 0, 0, 1]));
    assert_eq!(lanes[1], json!([0, 0, 0, 1]));
    // -1 + 1 = 0 in unsigned arithmetic; 4294967295 is the same word as -1.
    assert_eq!(lanes[2], json!([1000, 0, 0, 1]));
    assert_eq!(lanes[3], json!([1210, 0, 0, 1]));
    c["op"]["offset"] = json!([0, 0]);
    let r = result(&c, &texels);
    let lanes = &r["quads"][0]["lanes"];
    assert_eq!(lanes[0], json!([1311, 0, 0, 1]));
    assert_eq!(lanes[1], json!([0, 0, 0, 1])); // sample 4 >= 4
}

#[test]
fn fetch_on_a_cube_takes_the_layer_face_index_and_an_offset() {
    let texels: Vec<u8> = (0u32..6).flat_map(|f| (10 * f + 1).to_le_bytes()).collect();
    let mut c = case(
        texture("R32_UINT", "cube", 1, 1, 6, 1),
        sampler("repeat"),
        json!({"name": "fetch"}),
        json!({ "icoords": [[0, 0, 9, 5], [0, 0, 0, 6], [0, 0, 0, 0], [0, 0, 0, -1]] }),
    );
    let r = result(&c, &texels);
    assert_eq!(
        r["quads"][0]["lanes"],
        json!([[51, 0, 0, 1], [0, 0, 0, 1], [1, 0, 0, 1], [0, 0, 0, 1]])
    );
    c["op"]["offset"] = json!([1, 1]);
    let r = result(&c, &texels);
    assert_eq!(r["quads"][0]["lanes"][0], json!([0, 0, 0, 1]));
}

#[test]
fn fetch_cases_the_format_refuses_exit_2() {
    let ok = json!({ "icoords": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]] });
    let c = fetch_case("R8_UNORM", "2d", 2, 2, json!({}));
    assert!(rejected(&c, &[0; 4]).contains("quads[0].icoords"));
    let c = fetch_case(
        "R8_UNORM",
        "2d",
        2,
        2,
        json!({ "icoords": [[0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]] }),
    );
    assert!(rejected(&c, &[0; 4]).contains("quads[0].icoords[0]"));
    let c = fetch_case(
        "R8_UNORM",
        "2d",
        2,
        2,
        json!({ "icoords": [[0, 0, 0, 0], [0, 4294967296u64, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]] }),
    );
    assert!(rejected(&c, &[0; 4]).contains("quads[0].icoords[1][1]"));
    let c = fetch_case(
        "R8_UNORM",
        "2d",
        2,
        2,
        json!({ "icoords": [[0.5, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]] }),
    );
    rejected(&c, &[0; 4]);
    let mut c = fetch_case("R8_UNORM", "2d", 2, 2, ok.clone());
    c["quads"][0]["level"] = json!([0, 0, 0]);
    assert!(rejected(&c, &[0; 4]).contains("quads[0].level"));
    let mut c = fetch_case("R8_UNORM", "2d", 2, 2, ok);
    c["op"]["offset"] = json!([-33, 0]);
    assert!(rejected(&c, &[0; 4]).contains("op.offset[0]"));
}
