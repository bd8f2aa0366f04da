//! Scene files: every shipped scene loads, the built-in meshes have their
//! stated counts, unit normals and counter-clockwise front faces, procedural
//! textures hold the stated texels, and bad files fail with the error that
//! names the key or path at fault.

use std::path::{Path, PathBuf};

use glam::{Vec3, Vec4};
use quadtex_format::{Aspect, TexelAddr, Texture, TextureFormat, TextureKind};
use quadtex_sampler::{AddressMode, BorderColor, CompareOp, Filter, MipmapMode, ReductionMode};
use quadtex_scene::{
    Error, ErrorKind, GradientDirection, Mesh, MeshSource, NoiseBasis, PcfMode, Procedural,
    ProceduralShape, Scene, Shader, TextureSource, MIP_LEVEL_COLORS,
};

fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes")
}

fn parse(text: &str) -> Result<Scene, Error> {
    Scene::from_toml_str(text, scenes_dir())
}

fn texel(t: &Texture, level: u32, layer: u32, x: u32, y: u32, z: u32) -> [f32; 4] {
    t.read_texel(TexelAddr::new(level, layer, 0, x, y, z), Aspect::Color)
        .expect("texel inside the texture")
        .to_f32()
}

fn assert_near(got: [f32; 4], want: Vec4, tol: f32) {
    for (g, w) in got.iter().zip(want.to_array()) {
        assert!((g - w).abs() <= tol, "got {got:?}, want {want:?}");
    }
}

// ---- shipped scenes -------------------------------------------------------

#[test]
fn every_shipped_scene_loads() {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(scenes_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let scene = Scene::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                !scene.objects.is_empty(),
                "{} draws nothing",
                path.display()
            );
            for o in &scene.objects {
                assert!(scene.material(&o.material).is_some());
            }
            names.push(path.file_stem().unwrap().to_string_lossy().into_owned());
        }
    }
    for want in [
        "arrays",
        "checker_plane",
        "cubemap",
        "mip_levels",
        "msaa",
        "shadows",
        "showcase",
        "volume",
    ] {
        assert!(
            names.iter().any(|n| n == want),
            "scenes/{want}.toml is missing"
        );
    }
}

#[test]
fn showcase_uses_most_features() {
    let s = Scene::load(scenes_dir().join("showcase.toml")).unwrap();
    assert_eq!(
        (s.output.width, s.output.height, s.output.msaa),
        (960, 540, 4)
    );
    let shaders: Vec<Shader> = s.materials.values().map(|m| m.shader).collect();
    for sh in [
        Shader::Unlit,
        Shader::Lambert,
        Shader::Reflect,
        Shader::Shadowed,
        Shader::MipHeatmap,
        Shader::EdgeDetect,
    ] {
        assert!(shaders.contains(&sh), "no {} material", sh.name());
    }
    assert_eq!(s.sampler("aniso16").unwrap().max_anisotropy, 16.0);
    assert_eq!(s.texture("sky").unwrap().header.kind, TextureKind::Cube);
    let crate_tex = s.texture("crate").unwrap();
    assert!(matches!(crate_tex.source, TextureSource::File(_)));
    assert_eq!(crate_tex.header.texture.desc().width, 96);
    let shadow = s.shadow_light().unwrap().shadow.unwrap();
    assert_eq!(shadow.format, TextureFormat::Depth24UnormX8);
    assert_eq!(shadow.pcf, PcfMode::Compare);
    let gem = s.objects.iter().find(|o| o.name == "gem").unwrap();
    assert!(matches!(gem.mesh_source, MeshSource::Obj(_)));
    assert_eq!(gem.mesh.triangle_count(), 8);
    let sky = s.objects.iter().find(|o| o.name == "sky").unwrap();
    assert!(sky.inside_out && !sky.cast_shadows);
    assert!(s.camera.turntable.is_some());
}

#[test]
fn shadows_scene_filters_with_a_d32_gather() {
    let s = Scene::load(scenes_dir().join("shadows.toml")).unwrap();
    let shadow = s.lights[0].shadow.unwrap();
    assert_eq!(shadow.format, TextureFormat::Depth32Float);
    assert_eq!(shadow.pcf, PcfMode::Gather);
    assert_eq!(shadow.size, 1024);
    assert_eq!(s.ambient, Vec3::new(0.15, 0.15, 0.18));
}

#[test]
fn arrays_and_volume_scenes_build_their_kinds() {
    let a = Scene::load(scenes_dir().join("arrays.toml")).unwrap();
    let t = &a.texture("ground_layers").unwrap().header;
    assert_eq!((t.kind, t.layer_count), (TextureKind::D2Array, 4));
    assert_eq!(t.texture.format(), TextureFormat::Rgba8Srgb);
    let v = Scene::load(scenes_dir().join("volume.toml")).unwrap();
    let d = v.texture("cloud").unwrap().header.texture.desc();
    assert_eq!(
        (d.kind, d.width, d.depth, d.levels),
        (TextureKind::D3, 32, 32, 6)
    );
}

// ---- meshes -----------------------------------------------------------------

/// Every triangle's geometric normal agrees with its vertex normals, so the
/// front face (counter-clockwise seen from outside) is the normal's side.
fn assert_ccw_and_unit(m: &Mesh) {
    assert_eq!(m.positions.len(), m.normals.len());
    assert_eq!(m.positions.len(), m.uvs.len());
    for n in &m.normals {
        assert!((n.length() - 1.0).abs() < 1e-5, "normal {n} is not unit");
    }
    for t in m.indices.chunks_exact(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
        let g = (m.positions[b] - m.positions[a]).cross(m.positions[c] - m.positions[a]);
        assert!(g.length() > 0.0, "degenerate triangle {t:?}");
        let n = m.normals[a] + m.normals[b] + m.normals[c];
        assert!(g.dot(n) > 0.0, "triangle {t:?} winds clockwise");
    }
}

#[test]
fn plane_and_quads_have_four_vertices_two_triangles() {
    for m in [Mesh::plane(), Mesh::quad(), Mesh::fullscreen_quad()] {
        assert_eq!((m.vertex_count(), m.indices.len()), (4, 6));
        assert_ccw_and_unit(&m);
    }
    assert_eq!(Mesh::plane().normals[0], Vec3::Y);
    assert_eq!(Mesh::quad().normals[0], Vec3::Z);
    let fs = Mesh::fullscreen_quad();
    assert!(fs
        .positions
        .iter()
        .all(|p| p.x.abs() == 1.0 && p.y.abs() == 1.0));
}

#[test]
fn cube_has_24_vertices_36_indices() {
    let m = Mesh::cube();
    assert_eq!((m.vertex_count(), m.indices.len()), (24, 36));
    assert_ccw_and_unit(&m);
    assert!(m.positions.iter().all(|p| p.abs() == Vec3::splat(0.5)));
}

#[test]
fn sphere_counts_follow_segments_and_rings() {
    for (s, r) in [(3, 2), (8, 4), (32, 16), (7, 5)] {
        let m = Mesh::sphere(s, r).unwrap();
        assert_eq!(m.vertex_count(), ((s + 1) * (r + 1)) as usize);
        assert_eq!(m.indices.len(), (6 * s * (r - 1)) as usize);
        assert_ccw_and_unit(&m);
        for p in &m.positions {
            assert!((p.length() - 0.5).abs() < 1e-5);
        }
    }
    assert!(Mesh::sphere(2, 2).is_err());
    assert!(Mesh::sphere(8, 1).is_err());
}

#[test]
fn inside_out_reverses_winding_and_normals() {
    let m = Mesh::cube();
    let i = m.turned_inside_out();
    assert_eq!(i.indices[..3], [m.indices[0], m.indices[2], m.indices[1]]);
    assert_eq!(i.normals[0], -m.normals[0]);
    assert_ccw_and_unit(&i);
}

#[test]
fn obj_files_load_with_normals_computed_when_missing() {
    let gem = Mesh::load_obj(&scenes_dir().join("assets/gem.obj"), "k").unwrap();
    assert_eq!((gem.triangle_count(), gem.vertex_count()), (8, 24));
    assert_ccw_and_unit(&gem);
    let hills = Mesh::load_obj(&scenes_dir().join("assets/hills.obj"), "k").unwrap();
    assert_eq!((hills.triangle_count(), hills.vertex_count()), (512, 289));
    assert_ccw_and_unit(&hills);
    // OBJ v runs up; the first row (z = -0.5) is written with v = 1.
    assert_eq!(hills.uvs[0], glam::Vec2::new(0.0, 0.0));
}

// ---- procedural textures ------------------------------------------------------

const RED: Vec4 = Vec4::new(1.0, 0.0, 0.0, 1.0);
const BLUE: Vec4 = Vec4::new(0.0, 0.0, 1.0, 1.0);

fn shape(kind: TextureKind, size: u32) -> ProceduralShape {
    ProceduralShape {
        kind,
        width: size,
        height: size,
        ..Default::default()
    }
}

#[test]
fn checker_corners_and_cells_have_the_two_colours() {
    let p = Procedural::Checker {
        squares: 8,
        colors: [RED, BLUE],
    };
    let (t, h) = p.build(&shape(TextureKind::D2, 64)).unwrap();
    assert_eq!(t.desc().levels, 7);
    assert_eq!(h.level_count, 7);
    assert_near(texel(&t, 0, 0, 0, 0, 0), RED, 0.0);
    assert_near(texel(&t, 0, 0, 7, 7, 0), RED, 0.0);
    assert_near(texel(&t, 0, 0, 8, 0, 0), BLUE, 0.0);
    assert_near(texel(&t, 0, 0, 0, 8, 0), BLUE, 0.0);
    assert_near(texel(&t, 0, 0, 63, 0, 0), BLUE, 0.0);
    assert_near(texel(&t, 0, 0, 63, 63, 0), RED, 0.0);
    // Level 3 (8x8) is one texel per square: still exact.
    assert_near(texel(&t, 3, 0, 1, 0, 0), BLUE, 0.0);
    // The last level averages the two colours equally (in linear light).
    assert_near(
        texel(&t, 6, 0, 0, 0, 0),
        Vec4::new(0.5, 0.0, 0.5, 1.0),
        1.0 / 255.0,
    );
}

#[test]
fn checker_swaps_colours_on_odd_layers_and_along_depth() {
    let p = Procedural::Checker {
        squares: 2,
        colors: [RED, BLUE],
    };
    let (cube, _) = p.build(&shape(TextureKind::Cube, 8)).unwrap();
    assert_eq!(cube.desc().layers, 6);
    assert_near(texel(&cube, 0, 0, 0, 0, 0), RED, 0.0);
    assert_near(texel(&cube, 0, 1, 0, 0, 0), BLUE, 0.0);
    let (vol, _) = p
        .build(&ProceduralShape {
            depth: 8,
            ..shape(TextureKind::D3, 8)
        })
        .unwrap();
    assert_near(texel(&vol, 0, 0, 0, 0, 0), RED, 0.0);
    assert_near(texel(&vol, 0, 0, 0, 0, 4), BLUE, 0.0);
}

#[test]
fn mip_colored_levels_are_solid_distinct_colours() {
    let p = Procedural::MipColored {
        colors: MIP_LEVEL_COLORS
            .iter()
            .map(|c| Vec4::from_array(*c))
            .collect(),
    };
    let (t, _) = p
        .build(&ProceduralShape {
            mips: false,
            ..shape(TextureKind::D2, 64)
        })
        .unwrap();
    assert_eq!(t.desc().levels, 7, "mip_colored always has the chain");
    for level in 0..7 {
        let want = Vec4::from_array(MIP_LEVEL_COLORS[level as usize]);
        let e = t.desc().level_extent(level);
        // Orange's 0.5 is stored as 128/255.
        assert_near(texel(&t, level, 0, 0, 0, 0), want, 0.5 / 255.0 + 1e-6);
        assert_near(
            texel(&t, level, 0, e.width - 1, e.height - 1, 0),
            want,
            0.5 / 255.0 + 1e-6,
        );
    }
    assert_near(texel(&t, 0, 0, 5, 9, 0), RED, 0.0);
    assert_near(texel(&t, 5, 0, 1, 1, 0), BLUE, 0.0);
}

#[test]
fn gradient_runs_from_first_to_last_texel_centre() {
    let p = Procedural::Gradient {
        from: Vec4::new(0.0, 0.0, 0.0, 1.0),
        to: Vec4::new(1.0, 1.0, 1.0, 1.0),
        direction: GradientDirection::Horizontal,
    };
    let (t, _) = p
        .build(&ProceduralShape {
            format: TextureFormat::Rgba32Float,
            mips: false,
            ..shape(TextureKind::D2, 4)
        })
        .unwrap();
    assert_eq!(t.desc().levels, 1);
    for x in 0..4 {
        let v = (x as f32 + 0.5) / 4.0;
        assert_near(texel(&t, 0, 0, x, 3, 0), Vec4::new(v, v, v, 1.0), 1e-6);
    }
    // On a cube, "vertical" is a sky: +Y face is `from`, -Y face is `to`.
    let sky = Procedural::Gradient {
        from: BLUE,
        to: RED,
        direction: GradientDirection::Vertical,
    };
    let (c, _) = sky
        .build(&ProceduralShape {
            format: TextureFormat::Rgba32Float,
            ..shape(TextureKind::Cube, 16)
        })
        .unwrap();
    assert_near(texel(&c, 0, 2, 8, 8, 0), BLUE, 0.01);
    assert_near(texel(&c, 0, 3, 8, 8, 0), RED, 0.01);
}

#[test]
fn noise_is_seeded_deterministic_and_in_range() {
    let make = |seed, basis| Procedural::Noise {
        basis,
        scale: 4.0,
        octaves: 3,
        seed,
        colors: [Vec4::new(0.0, 0.0, 0.0, 1.0), Vec4::ONE],
    };
    let s = ProceduralShape {
        format: TextureFormat::Rgba32Float,
        mips: false,
        ..shape(TextureKind::D2, 32)
    };
    for basis in [NoiseBasis::Value, NoiseBasis::Perlin] {
        let a = make(1, basis).build(&s).unwrap().0;
        let b = make(1, basis).build(&s).unwrap().0;
        let c = make(2, basis).build(&s).unwrap().0;
        assert_eq!(a.to_linear_bytes(), b.to_linear_bytes());
        assert_ne!(a.to_linear_bytes(), c.to_linear_bytes());
        let mut lo = f32::MAX;
        let mut hi = f32::MIN;
        for y in 0..32 {
            for x in 0..32 {
                let v = texel(&a, 0, 0, x, y, 0);
                assert!((0.0..=1.0).contains(&v[0]) && v[0] == v[1] && v[3] == 1.0);
                lo = lo.min(v[0]);
                hi = hi.max(v[0]);
            }
        }
        assert!(hi - lo > 0.2, "{basis:?} noise is flat: {lo}..{hi}");
    }
}

#[test]
fn procedural_textures_refuse_formats_they_cannot_write() {
    let p = Procedural::Checker {
        squares: 2,
        colors: [RED, BLUE],
    };
    for f in [
        TextureFormat::Bc1RgbaUnorm,
        TextureFormat::Depth32Float,
        TextureFormat::Rgba8Uint,
    ] {
        let s = ProceduralShape {
            format: f,
            ..shape(TextureKind::D2, 8)
        };
        assert!(p.build(&s).is_err(), "{f}");
    }
}

// ---- scene text -------------------------------------------------------------

#[test]
fn defaults_fill_an_almost_empty_scene() {
    let s = parse(
        "[materials.m]\nshader = \"unlit\"\n[[objects]]\nmesh = \"cube\"\nmaterial = \"m\"\n",
    )
    .unwrap();
    assert_eq!(
        (s.output.width, s.output.height, s.output.msaa),
        (640, 360, 1)
    );
    assert_eq!(s.camera.fov_y_degrees, 60.0);
    let m = s.material("m").unwrap();
    assert_eq!((m.color, m.texture.as_deref()), (Vec4::ONE, None));
    assert_eq!(s.material_sampler(m).mipmap_mode, MipmapMode::Linear);
    assert_eq!(s.objects[0].name, "objects[0]");
    assert!(s.objects[0].cast_shadows);
}

#[test]
fn every_sampler_field_is_read() {
    let s = parse(
        r#"
[samplers.all]
min_filter = "linear"
mag_filter = "nearest"
mipmap_mode = "none"
address_u = "mirrored_repeat"
address_v = "clamp_to_border"
address_w = "mirror_clamp_to_edge"
border = [0.25, 0.5, 0.75, 1.0]
lod_bias = 1.5
min_lod = 0.5
max_lod = 4
max_anisotropy = 8
compare = "gequal"
unnormalized = false
seamless_cube = false
reduction = "max"

[samplers.int_border]
address = "clamp_ogl"
border_int = [1, 2, 3, 4]
"#,
    )
    .unwrap();
    let a = s.sampler("all").unwrap();
    assert_eq!(
        (a.min_filter, a.mag_filter),
        (Filter::Linear, Filter::Nearest)
    );
    assert_eq!(a.mipmap_mode, MipmapMode::None);
    assert_eq!(
        a.address,
        [
            AddressMode::MirroredRepeat,
            AddressMode::ClampToBorder,
            AddressMode::MirrorClampToEdge
        ]
    );
    assert_eq!(a.border_color, BorderColor::Float([0.25, 0.5, 0.75, 1.0]));
    assert_eq!((a.mip_lod_bias, a.min_lod, a.max_lod), (1.5, 0.5, 4.0));
    assert_eq!(a.max_anisotropy, 8.0);
    assert_eq!(a.compare, Some(CompareOp::GreaterOrEqual));
    assert!(!a.unnormalized && !a.seamless_cube);
    assert_eq!(a.reduction, ReductionMode::Max);
    let b = s.sampler("int_border").unwrap();
    assert_eq!(b.address, [AddressMode::ClampOgl; 3]);
    assert_eq!(b.border_color, BorderColor::Int([1, 2, 3, 4]));
}

#[test]
fn turntable_orbits_the_target() {
    let s = parse(
        "[camera]\nposition = [0, 0, 4]\ntarget = [0, 0, 0]\nturntable = { degrees = 360, frames = 8 }\n",
    )
    .unwrap();
    let t = s.camera.turntable.unwrap();
    assert_eq!((t.degrees, t.frames, t.axis), (360.0, 8, Vec3::Y));
    let half = s.camera.at_frame(4, 8);
    assert!((half.position - Vec3::new(0.0, 0.0, -4.0)).length() < 1e-4);
    assert_eq!(s.camera.at_frame(0, 8).position, s.camera.position);
}

#[test]
fn transforms_scale_rotate_then_translate() {
    let s = parse(
        "[materials.m]\nshader = \"unlit\"\n[[objects]]\nmesh = \"cube\"\nmaterial = \"m\"\ntranslate = [1, 2, 3]\nrotate = [0, 90, 0]\nscale = [2, 1, 1]\n",
    )
    .unwrap();
    let m = s.objects[0].transform.matrix();
    let p = m.transform_point3(Vec3::X);
    assert!((p - Vec3::new(1.0, 2.0, 1.0)).length() < 1e-5, "{p}");
}

// ---- errors -------------------------------------------------------------------

#[test]
fn unknown_key_is_a_parse_error_naming_it() {
    let e = parse("[output]\nwidth = 64\ncolour = [1, 0, 0]\n").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Parse, "{e}");
    let msg = e.to_string();
    assert!(msg.contains("unknown field `colour`"), "{msg}");
    let e = parse("[samplers.s]\nanisotropy = 4\n").unwrap_err();
    assert!(e.to_string().contains("unknown field `anisotropy`"), "{e}");
}

#[test]
fn missing_texture_file_names_key_and_path() {
    let e = parse("[textures.wood]\nfile = \"assets/no_such_file.png\"\n").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::MissingFile, "{e}");
    assert_eq!(e.key(), Some("textures.wood.file"));
    let path = e.path().unwrap();
    assert!(
        path.ends_with("assets/no_such_file.png"),
        "{}",
        path.display()
    );
    assert!(e.to_string().contains("no_such_file.png"));
    let e = parse(
        "[materials.m]\nshader = \"unlit\"\n[[objects]]\nmesh = \"obj\"\nfile = \"nope.obj\"\nmaterial = \"m\"\n",
    )
    .unwrap_err();
    assert!(
        e.kind() == ErrorKind::MissingFile && e.key() == Some("objects[0].file"),
        "{e}"
    );
}

#[test]
fn missing_scene_file_is_an_io_error_naming_it() {
    let e = Scene::load(scenes_dir().join("no_such_scene.toml")).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io);
    assert!(e.path().unwrap().ends_with("no_such_scene.toml"));
}

#[test]
fn unknown_shader_names_the_key() {
    let e = parse("[materials.gold]\nshader = \"phong\"\n").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownName, "{e}");
    assert_eq!(
        (e.key(), e.what(), e.value()),
        (Some("materials.gold.shader"), Some("shader"), Some("phong"))
    );
    assert!(
        e.to_string().contains("volume_slice"),
        "lists the shaders: {e}"
    );
}

#[test]
fn unknown_format_and_sampler_names_name_the_key() {
    let e = parse("[textures.t]\nchecker = {}\nformat = \"R8G8B8A8_UNROM\"\n").unwrap_err();
    assert_eq!(e.key(), Some("textures.t.format"), "{e}");
    assert_eq!(e.kind(), ErrorKind::UnknownName);
    let e = parse("[samplers.s]\naddress_v = \"wrap\"\n").unwrap_err();
    assert_eq!(e.key(), Some("samplers.s.address_v"), "{e}");
    let e = parse("[samplers.s]\ncompare = \"lessequal\"\n").unwrap_err();
    assert_eq!(e.key(), Some("samplers.s.compare"), "{e}");
    let e =
        parse("[[lights]]\ndirection = [0, -1, 0]\nshadow = { format = \"D16\" }\n").unwrap_err();
    assert_eq!(e.key(), Some("lights[0].shadow.format"), "{e}");
}

#[test]
fn dangling_references_name_the_key_and_the_name() {
    let e = parse(
        "[materials.m]\nshader = \"unlit\"\n[[objects]]\nmesh = \"cube\"\nmaterial = \"steel\"\n",
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::MissingReference, "{e}");
    assert_eq!(
        (e.key(), e.what(), e.value()),
        (Some("objects[0].material"), Some("material"), Some("steel"))
    );
    let e = parse("[materials.m]\nshader = \"unlit\"\ntexture = \"wood\"\n").unwrap_err();
    assert!(
        e.kind() == ErrorKind::MissingReference
            && (e.key(), e.what(), e.value())
                == (Some("materials.m.texture"), Some("texture"), Some("wood")),
        "{e}"
    );
    let e = parse("[materials.m]\nshader = \"unlit\"\nsampler = \"aniso\"\n").unwrap_err();
    assert!(
        e.kind() == ErrorKind::MissingReference
            && (e.key(), e.what()) == (Some("materials.m.sampler"), Some("sampler")),
        "{e}"
    );
}

#[test]
fn bad_values_name_their_key() {
    let cases = [
        ("[output]\nmsaa = 2\n", "output.msaa"),
        ("[output]\nwidth = 0\n", "output.width"),
        ("[camera]\nnear = 0\n", "camera.near"),
        ("[camera]\nposition = [0, 0, 0]\n", "camera.target"),
        ("[textures.t]\n", "textures.t"),
        ("[textures.t]\nchecker = {}\nnoise = {}\n", "textures.t"),
        ("[textures.t]\nchecker = {}\nsize = 100000\n", "textures.t.width"),
        ("[textures.t]\nchecker = {}\nsize = 4096\nkind = \"3d\"\ndepth = 4096\n", "textures.t"),
        ("[textures.t]\nchecker = { colors = [[1, 0, 0]] }\n", "textures.t.checker.colors"),
        ("[textures.t]\nchecker = {}\nkind = \"cube\"\nwidth = 8\nheight = 4\n", "textures.t.width"),
        ("[textures.t]\nchecker = {}\nkind = \"1d\"\n", "textures.t.kind"),
        ("[textures.t]\nchecker = {}\nformat = \"R8G8B8A8_UINT\"\n", "textures.t"),
        ("[textures.t]\nfile = \"assets/checker.ktx2\"\nsize = 4\n", "textures.t.size"),
        ("[samplers.s]\nunnormalized = true\n", "samplers.s"),
        ("[samplers.s]\nmax_anisotropy = 0.5\n", "samplers.s"),
        (
            "[textures.t]\nchecker = {}\n[materials.m]\nshader = \"reflect\"\ntexture = \"t\"\n",
            "materials.m.texture",
        ),
        ("[materials.m]\nshader = \"terrain\"\n", "materials.m.texture"),
        ("[materials.m]\nshader = \"shadowed\"\n", "materials.m.shader"),
        (
            "[textures.t]\nchecker = {}\n[samplers.s]\ncompare = \"less\"\n[materials.m]\nshader = \"unlit\"\ntexture = \"t\"\nsampler = \"s\"\n",
            "materials.m.sampler",
        ),
        (
            "[materials.m]\nshader = \"unlit\"\n[[objects]]\nmesh = \"sphere\"\nsegments = 2\nmaterial = \"m\"\n",
            "objects[0].segments",
        ),
        (
            "[materials.m]\nshader = \"unlit\"\n[[objects]]\nmesh = \"cube\"\nsegments = 8\nmaterial = \"m\"\n",
            "objects[0].segments",
        ),
        (
            "[materials.m]\nshader = \"unlit\"\n[[objects]]\nmesh = \"torus\"\nmaterial = \"m\"\n",
            "objects[0].mesh",
        ),
        (
            "[materials.m]\nshader = \"unlit\"\n[[objects]]\nmesh = \"quad\"\nfullscreen = true\nscale = 2\nmaterial = \"m\"\n",
            "objects[0].fullscreen",
        ),
        ("[[lights]]\ndirection = [0, 0, 0]\n", "lights[0].direction"),
        ("[[lights]]\ndirection = [0, -1, 0]\nkind = \"spot\"\n", "lights[0].kind"),
    ];
    for (text, key) in cases {
        let e = parse(text).expect_err(text);
        assert_eq!(e.key(), Some(key), "{text}: {e}");
    }
}

#[test]
fn garbage_input_is_an_error_not_a_panic() {
    let inputs = [
        "",
        "[",
        "camera = 3",
        "[[objects]]\n",
        "[textures.t]\nchecker = { squares = 0 }\n",
        "[textures.t]\nnoise = { scale = -1 }\n",
        "[textures.t]\nmip_colored = { colors = [] }\n",
        "[output]\nclear = [1, 2]\n",
        "[camera]\nfov_y = nan\n",
        "[camera]\nup = [0, 0, -1]\nposition = [0, 0, 5]\n",
        "[samplers.s]\nborder = \"pink\"\n",
        "[samplers.s]\nborder = [1, 2]\n",
        "[materials.m]\nshader = \"unlit\"\nuv_scale = [inf, 1]\n",
        "[textures.t]\nfile = \"showcase.toml\"\n",
        "[materials.m]\nshader = \"unlit\"\n[[objects]]\nmesh = \"obj\"\nfile = \"assets/checker.ktx2\"\nmaterial = \"m\"\n",
    ];
    for text in inputs {
        // `""` is a valid (empty) scene; everything else must fail cleanly.
        let r = parse(text);
        if !text.is_empty() {
            assert!(r.is_err(), "{text:?} loaded");
        }
    }
}

#[test]
fn shadow_projection_maps_the_covered_square_into_clip_space() {
    let s = Scene::load(scenes_dir().join("shadows.toml")).unwrap();
    let light = s.lights[0];
    let m = light.shadow_view_projection().unwrap();
    let e = light.shadow.unwrap().extent;
    // The origin sits mid-depth in the middle of the map.
    let o = m.project_point3(Vec3::ZERO);
    assert!(
        o.x.abs() < 1e-5 && o.y.abs() < 1e-5 && (o.z - 0.5).abs() < 1e-5,
        "{o}"
    );
    // Moving along the light moves deeper.
    let d = m.project_point3(light.direction);
    assert!(d.z > o.z);
    // A point at the edge of the covered square lands on the clip edge.
    let side = light.direction.cross(Vec3::Y).normalize() * e;
    let p = m.project_point3(side);
    assert!(((p.x.abs().max(p.y.abs())) - 1.0).abs() < 1e-4, "{p}");
    let no_shadow = quadtex_scene::Light {
        shadow: None,
        ..light
    };
    assert!(no_shadow.shadow_view_projection().is_none());
}

#[test]
fn malformed_obj_files_are_errors_naming_key_and_path() {
    let dir = std::env::temp_dir().join(format!("quadtex_scene_test_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("index.obj", "v 0 0 0\nf 1 2 3\n"),
        ("nan.obj", "v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"),
        ("empty.obj", "# nothing\n"),
    ];
    for (name, text) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let scene = format!(
            "[materials.m]\nshader = \"unlit\"\n[[objects]]\nmesh = \"obj\"\nfile = \"{name}\"\nmaterial = \"m\"\n"
        );
        let e = Scene::from_toml_str(&scene, &dir).expect_err(name);
        assert_eq!(e.key(), Some("objects[0].file"), "{name}: {e}");
        assert!(e.to_string().contains(name), "{e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn image_files_load_relative_to_the_scene_with_srgb_and_mips_as_asked() {
    let dir = std::env::temp_dir().join(format!("quadtex_scene_png_{}", std::process::id()));
    std::fs::create_dir_all(dir.join("img")).unwrap();
    let (src, _) = Procedural::Checker {
        squares: 2,
        colors: [RED, BLUE],
    }
    .build(&ProceduralShape {
        mips: false,
        ..shape(TextureKind::D2, 16)
    })
    .unwrap();
    quadtex_format::io::save_png(&src, 0, 0, dir.join("img/c.png")).unwrap();
    let s = Scene::from_toml_str(
        r#"
[textures.colour]
file = "img/c.png"

[textures.data]
file = "img/c.png"
srgb = false
mips = false
"#,
        &dir,
    )
    .unwrap();
    let colour = &s.texture("colour").unwrap().header;
    assert_eq!(colour.texture.format(), TextureFormat::Rgba8Srgb);
    assert_eq!(
        colour.texture.desc().levels,
        5,
        "one-level files get a chain"
    );
    assert_near(texel(&colour.texture, 0, 0, 0, 0, 0), RED, 0.0);
    assert_near(texel(&colour.texture, 0, 0, 8, 0, 0), BLUE, 0.0);
    let data = s.texture("data").unwrap();
    assert_eq!(data.header.texture.format(), TextureFormat::Rgba8Unorm);
    assert_eq!(data.header.texture.desc().levels, 1);
    assert!(!data.header.srgb_decode);
    assert!(matches!(&data.source, TextureSource::File(p) if p.ends_with("img/c.png")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A lit material without a texture reads a 1x1 RGBA8 white texture: a
/// depth-compare sampler on it loaded, then failed the render ("depth
/// compare needs a depth format"). Loading refuses it, naming the sampler.
#[test]
fn a_compare_sampler_on_a_material_without_a_texture_is_refused_at_load() {
    for shader in ["unlit", "lambert"] {
        let text = format!(
            "[samplers.s]\ncompare = \"less\"\n[materials.m]\nshader = \"{shader}\"\nsampler = \"s\"\n[[objects]]\nmesh = \"cube\"\nmaterial = \"m\"\n"
        );
        let e = parse(&text).map(|_| ()).expect_err(&text);
        assert_eq!(e.key(), Some("materials.m.sampler"), "{e}");
        assert!(e.to_string().contains("depth"), "{e}");
    }
    let ok =
        "[samplers.s]\nfilter = \"linear\"\n[materials.m]\nshader = \"lambert\"\nsampler = \"s\"\n";
    assert!(parse(ok).is_ok());
}
