//! `render_scene`: scene data to pictures. Each test renders a small scene
//! from text and checks pixel values the scene determines.

use quadtex_raster::{ColorFormat, ColorTarget};
use quadtex_scene::{render_scene, Error, ErrorKind, RenderOptions, Scene};

fn scene(text: &str) -> Scene {
    Scene::from_toml_str(text, env!("CARGO_MANIFEST_DIR")).expect("scene")
}

/// Renders into an `R32G32B32A32_SFLOAT` target, so that the tests see
/// the shaders' values unrounded.
fn render(text: &str) -> quadtex_scene::RenderedScene {
    let options = RenderOptions {
        format: Some(ColorFormat::Rgba32Float),
        ..RenderOptions::default()
    };
    render_scene(&scene(text), &options).expect("render")
}

fn px(img: &ColorTarget, x: u32, y: u32) -> [f32; 4] {
    img.pixel(x, y).expect("in range")
}

/// A camera 6 above the origin looking straight down (+Z is image down).
const TOP_DOWN: &str = r#"
ambient = [0.1, 0.1, 0.1]
[camera]
position = [0.0, 6.0, 0.0]
target = [0.0, 0.0, 0.0]
up = [0.0, 0.0, -1.0]
fov_y = 60
[output]
width = 64
height = 64
"#;

#[test]
fn skybox_samples_the_cube_along_the_object_space_direction() {
    // Looking straight up from inside a sky cube whose +Y is red and -Y
    // blue: the centre reads the +Y face.
    let r = render(
        r#"
[camera]
position = [0.0, 0.0, 0.0]
target = [0.0, 1.0, 0.0]
up = [0.0, 0.0, -1.0]
[output]
width = 32
height = 32
[textures.sky]
kind = "cube"
size = 16
format = "R16G16B16A16_SFLOAT"
gradient = { from = [1, 0, 0], to = [0, 0, 1], direction = "vertical" }
[materials.sky]
shader = "unlit"
texture = "sky"
[[objects]]
mesh = "cube"
inside_out = true
scale = 10
material = "sky"
"#,
    );
    let c = px(&r.image, 16, 16);
    assert!(c[0] > 0.9 && c[2] < 0.1, "{c:?}");
    assert!(r.shadow_stats.is_none());
}

/// A plane of colour (0.5, 0.25, 1) lit from straight above at 0.5,
/// seen from above.
fn lambert_scene() -> String {
    format!(
        r#"{TOP_DOWN}
[materials.m]
shader = "lambert"
color = [0.5, 0.25, 1.0]
[[objects]]
mesh = "plane"
scale = 20
material = "m"
[[lights]]
direction = [0.0, -1.0, 0.0]
intensity = 0.5
"#
    )
}

#[test]
fn lambert_multiplies_the_material_colour_by_the_light() {
    let r = render(&lambert_scene());
    // ambient 0.1 + 0.5 from the light straight above.
    let c = px(&r.image, 32, 32);
    for (got, want) in c.iter().zip([0.3, 0.15, 0.6, 1.0]) {
        assert!((got - want).abs() < 1e-4, "{c:?}");
    }
}

/// A scene renders into `R8G8B8A8_SRGB` unless it says otherwise: the
/// Lambert colour (0.3, 0.15, 0.6, 1) is stored as its sRGB codes
/// (0.58385, 0.42359, 0.79774 in 255ths: 148.9, 108.0, 203.4), and
/// `output.format` picks another format; an unknown one is an error
/// naming the key.
#[test]
fn scenes_render_into_srgb8_unless_the_output_says_otherwise() {
    let text = lambert_scene();
    let r = render_scene(&scene(&text), &RenderOptions::default()).expect("render");
    assert_eq!(r.image.format(), ColorFormat::Rgba8Srgb);
    let at = (32 * 64 + 32) * 4;
    assert_eq!(&r.image.bytes()[at..at + 4], &[149, 108, 203, 255]);
    let unorm = text.replace("height = 64\n", "height = 64\nformat = \"rgba8_unorm\"\n");
    let r = render_scene(&scene(&unorm), &RenderOptions::default()).expect("render");
    assert_eq!(r.image.format(), ColorFormat::Rgba8Unorm);
    // 0.3, 0.15, 0.6 in 255ths: 76.5 (76.50001 in f32 arithmetic or
    // below: 76 or 77), 38.25, 153.
    let got = &r.image.bytes()[at..at + 4];
    assert!(matches!(got[0], 76 | 77), "{got:?}");
    assert_eq!(&got[1..], &[38, 153, 255]);
    let bad = text.replace("height = 64\n", "height = 64\nformat = \"rgb565\"\n");
    let err = Scene::from_toml_str(&bad, ".").expect_err("unknown format");
    assert!(err.to_string().contains("output.format"), "{err}");
}

fn shadow_scene(pcf: &str, format: &str) -> String {
    format!(
        r#"{TOP_DOWN}
[materials.floor]
shader = "shadowed"
[[objects]]
mesh = "plane"
scale = 20
material = "floor"
[[objects]]
mesh = "cube"
translate = [0.0, 1.0, 0.0]
scale = 2
material = "floor"
[[lights]]
direction = [1.0, -1.0, 0.0]
shadow = {{ size = 256, format = "{format}", pcf = "{pcf}", extent = 6.0 }}
"#
    )
}

#[test]
fn shadows_darken_the_floor_behind_the_caster_for_both_pcf_modes() {
    for (pcf, format) in [("compare", "D32"), ("gather", "D24"), ("gather", "D32")] {
        let r = render(&shadow_scene(pcf, format));
        assert!(r.shadow_stats.is_some_and(|s| s.quads > 0));
        // The light travels down at 45 degrees towards +X: the cube's
        // shadow covers the floor from x = 1 to x = 3 (image right); the -X
        // side is lit: ambient + (1 - ambient) * cos 45.
        let lit = px(&r.image, 4, 32)[0];
        let shadowed = px(&r.image, 52, 32)[0];
        let want_lit = 0.1 + 0.9 * std::f32::consts::FRAC_1_SQRT_2;
        assert!((lit - want_lit).abs() < 1e-3, "{pcf} {format}: lit {lit}");
        assert!(
            (shadowed - 0.1).abs() < 1e-3,
            "{pcf} {format}: shadowed {shadowed}"
        );
    }
}

#[test]
fn msaa_override_resolves_to_one_sample_without_texture_operations() {
    let s = scene(&shadow_scene("compare", "D32"));
    for msaa in [1u32, 4, 8] {
        let r = render_scene(
            &s,
            &RenderOptions {
                msaa: Some(msaa),
                width: Some(40),
                height: Some(24),
                ..RenderOptions::default()
            },
        )
        .expect("render");
        assert_eq!(r.msaa, msaa);
        assert_eq!(
            (r.image.width(), r.image.height(), r.image.samples()),
            (40, 24, 1)
        );
        // The scene fetches nothing, and the resolve reads the target's
        // bytes (no `ld2dms` pass).
        assert_eq!(r.stats.tex.fetch, 0);
    }
}

#[test]
fn bad_options_are_typed_errors() {
    let s = scene(&shadow_scene("compare", "D32"));
    for (options, name) in [
        (
            RenderOptions {
                width: Some(0),
                ..RenderOptions::default()
            },
            "width",
        ),
        (
            RenderOptions {
                height: Some(20_000),
                ..RenderOptions::default()
            },
            "height",
        ),
        (
            RenderOptions {
                msaa: Some(2),
                ..RenderOptions::default()
            },
            "msaa",
        ),
        (
            RenderOptions {
                frame: Some((3, 3)),
                ..RenderOptions::default()
            },
            "frame",
        ),
    ] {
        match render_scene(&s, &options) {
            Err(e) if e.kind() == ErrorKind::InvalidOption => assert_eq!(e.option(), Some(name)),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn load_and_rasterizer_errors_are_the_crate_error() {
    let e: Error = Scene::from_toml_str("[camera]\nfov = 3\n", ".").expect_err("unknown key");
    assert_eq!(e.kind(), ErrorKind::Parse);
    assert!(e.to_string().contains("fov"), "{e}");
    // The rasterizer's own errors come through wrapped, message unchanged.
    let s = scene("[output]\nwidth = 8\nheight = 8\n");
    let options = RenderOptions {
        threads: quadtex_raster::MAX_THREADS + 1,
        ..RenderOptions::default()
    };
    let wrapped = render_scene(&s, &options).map(|_| ()).unwrap_err();
    assert_eq!(wrapped.kind(), ErrorKind::Raster);
    assert_eq!(wrapped.key(), None);
    let e = wrapped.raster().unwrap();
    assert_eq!(e.kind(), quadtex_raster::ErrorKind::InvalidOption);
    assert_eq!(e.option(), Some("threads"));
    assert_eq!(wrapped.to_string(), e.to_string());
    let again = Error::from(quadtex_raster::Error::invalid_option("threads", "x"));
    assert_eq!(again.to_string(), "threads: x");
}

#[test]
fn turntable_frames_move_the_camera() {
    let text = format!(
        "{}\nturntable = {{ degrees = 360, frames = 3 }}\n{}",
        r#"
[camera]
position = [0.0, 1.0, 4.0]
target = [0.0, 0.0, 0.0]"#,
        r#"
[output]
width = 32
height = 32
[textures.c]
checker = { squares = 4, colors = [[1, 0, 0], [0, 0, 1]] }
size = 16
[materials.m]
shader = "unlit"
texture = "c"
[[objects]]
mesh = "cube"
rotate = [0, 10, 0]
material = "m"
"#
    );
    let s = scene(&text);
    let at = |i| {
        render_scene(
            &s,
            &RenderOptions {
                frame: Some((i, 3)),
                ..RenderOptions::default()
            },
        )
        .expect("render")
        .image
    };
    let (a, b) = (at(0), at(1));
    assert!(
        a.bytes() != b.bytes(),
        "frames 0 and 1 are the same picture"
    );
    // Frame 0 is the camera as written.
    let written = render_scene(&s, &RenderOptions::default()).unwrap().image;
    assert!(
        a.bytes() == written.bytes(),
        "frame 0 is not the camera as written"
    );
}
