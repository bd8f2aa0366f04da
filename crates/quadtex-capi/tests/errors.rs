//! Bad input through the C ABI gets a status and a message, never a
//! crash: NULL pointers, unknown constants, impossible descriptions,
//! wrong sizes, overlapping outputs, writes to a texture in use, and
//! instruction text that is not an instruction.

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

use quadtex_capi::*;

fn last_error() -> String {
    // SAFETY: `qtx_last_error` returns a NUL-terminated string that lives
    // until this thread's next call.
    unsafe { CStr::from_ptr(qtx_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn desc(format: &CStr, w: u32, h: u32, levels: u32) -> QtxTextureDesc {
    QtxTextureDesc {
        kind: QTX_KIND_2D,
        format: format.as_ptr(),
        width: w,
        height: h,
        depth: 1,
        layers: 1,
        levels,
        samples: 1,
        layout: QTX_LAYOUT_LINEAR,
        no_mipmap: false,
    }
}

/// A 2x2 RGBA8 texture's view (texels 0, 64, 128, 192 in every channel).
fn view() -> *mut QtxView {
    let d = desc(c"R8G8B8A8_UNORM", 2, 2, 1);
    let bytes: Vec<u8> = (0..4u8).flat_map(|i| [i * 64; 4]).collect();
    let mut t = null_mut();
    let mut v = null_mut();
    let mut vd = std::mem::MaybeUninit::<QtxViewDesc>::uninit();
    // SAFETY: every pointer points to what the calls read or write.
    unsafe {
        assert_eq!(qtx_texture_create(&d, bytes.as_ptr(), 16, &mut t), QTX_OK);
        assert_eq!(qtx_view_desc_default(t, vd.as_mut_ptr()), QTX_OK);
        assert_eq!(qtx_view_create(t, vd.as_ptr(), &mut v), QTX_OK);
        qtx_texture_destroy(t);
    }
    v
}

fn sampler() -> QtxSamplerDesc {
    let mut s = std::mem::MaybeUninit::uninit();
    // SAFETY: `s` is writable.
    assert_eq!(unsafe { qtx_sampler_desc_default(s.as_mut_ptr()) }, QTX_OK);
    // SAFETY: initialized by the call above.
    unsafe { s.assume_init() }
}

const ARGS: QtxSampleArgs = QtxSampleArgs {
    profile: QTX_PROFILE_VULKAN,
    lod_mode: QTX_LOD_IMPLICIT,
    offset: [0; 3],
    ndv: false,
    derivatives: QTX_DERIVATIVES_PROFILE,
};

fn coords(s: &[f32], t: &[f32]) -> QtxCoords {
    QtxCoords {
        s: s.as_ptr(),
        t: t.as_ptr(),
        r: null(),
        a: null(),
        dref: null(),
        lod: null(),
        ddx: [null(); 3],
        ddy: [null(); 3],
    }
}

#[test]
fn texture_descriptions_and_sizes_are_checked() {
    let mut t = null_mut();
    let d = desc(c"R8G8B8A8_NOPE", 2, 2, 1);
    // SAFETY: valid pointers.
    let s = unsafe { qtx_texture_create(&d, null(), 0, &mut t) };
    assert_eq!(s, QTX_ERROR_INVALID_DESCRIPTION);
    assert!(last_error().contains("R8G8B8A8_NOPE"), "{}", last_error());
    assert!(t.is_null());
    // 3 levels of a 2x2 texture: it has 2.
    let d = desc(c"R8G8B8A8_UNORM", 2, 2, 3);
    // SAFETY: valid pointers.
    let s = unsafe { qtx_texture_create(&d, null(), 0, &mut t) };
    assert_eq!(s, QTX_ERROR_INVALID_DESCRIPTION, "{}", last_error());
    let d = desc(c"R8G8B8A8_UNORM", 2, 2, 1);
    let bytes = [0u8; 15];
    // SAFETY: 15 readable bytes.
    let s = unsafe { qtx_texture_create(&d, bytes.as_ptr(), 15, &mut t) };
    assert_eq!(s, QTX_ERROR_WRONG_SIZE);
    assert_eq!(last_error(), "texture data: expected 16 bytes, got 15");
    // SAFETY: a NULL description is refused, not read.
    let s = unsafe { qtx_texture_create(null(), null(), 0, &mut t) };
    assert_eq!(s, QTX_ERROR_INVALID_ARGUMENT);
    assert_eq!(last_error(), "desc is NULL");
    let mut d = desc(c"R8G8B8A8_UNORM", 2, 2, 1);
    d.kind = 99;
    // SAFETY: valid pointers.
    let s = unsafe { qtx_texture_create(&d, null(), 0, &mut t) };
    assert_eq!(s, QTX_ERROR_INVALID_ARGUMENT);
    assert!(last_error().contains("unknown kind 99"), "{}", last_error());
}

#[test]
fn a_texture_with_views_cannot_be_written() {
    let d = desc(c"R8G8B8A8_UNORM", 2, 2, 2);
    let mut t = null_mut();
    let mut v = null_mut();
    let mut vd = std::mem::MaybeUninit::<QtxViewDesc>::uninit();
    // SAFETY: valid pointers throughout.
    unsafe {
        assert_eq!(qtx_texture_create(&d, null(), 0, &mut t), QTX_OK);
        assert_eq!(qtx_view_desc_default(t, vd.as_mut_ptr()), QTX_OK);
        let mut bad = vd.assume_init();
        bad.level_count = 3;
        assert_eq!(
            qtx_view_create(t, &bad, &mut v),
            QTX_ERROR_INVALID_DESCRIPTION
        );
        assert!(last_error().contains("levels"), "{}", last_error());
        assert_eq!(qtx_view_create(t, vd.as_ptr(), &mut v), QTX_OK);
        assert_eq!(qtx_texture_generate_mips(t), QTX_ERROR_BUSY);
        qtx_view_destroy(v);
        assert_eq!(qtx_texture_generate_mips(t), QTX_OK);
        assert_eq!(
            qtx_texture_write(t, 5, 0, 0, [0u8; 4].as_ptr(), 4),
            QTX_ERROR_INVALID_DESCRIPTION
        );
        qtx_texture_destroy(t);
    }
}

#[test]
fn samplers_and_args_are_checked() {
    let v = view();
    let s = [0.25f32, 0.75, 0.25, 0.75];
    let t = [0.25f32, 0.25, 0.75, 0.75];
    let c = coords(&s, &t);
    let mut o = [[0f32; 4]; 4];
    let [r, g, b, a] = &mut o;
    let out = QtxOutput {
        r: r.as_mut_ptr(),
        g: g.as_mut_ptr(),
        b: b.as_mut_ptr(),
        a: a.as_mut_ptr(),
    };
    let mut smp = sampler();
    smp.min_filter = 7;
    // SAFETY: valid pointers; one quad of 4-float arrays.
    let st = unsafe { qtx_sample(v, &smp, &ARGS, &c, 1, &out) };
    assert_eq!(st, QTX_ERROR_INVALID_ARGUMENT);
    assert!(
        last_error().contains("unknown filter 7"),
        "{}",
        last_error()
    );
    // A compare sampler on a colour view: Vulkan forbids it.
    let mut smp = sampler();
    smp.compare_op = QTX_COMPARE_LESS;
    let dref = [0.5f32; 4];
    let mut cd = c;
    cd.dref = dref.as_ptr();
    // SAFETY: as above.
    let st = unsafe { qtx_sample(v, &smp, &ARGS, &cd, 1, &out) };
    assert_eq!(st, QTX_ERROR_INVALID_DESCRIPTION, "{}", last_error());
    // Bias mode without the bias plane.
    let mut args = ARGS;
    args.lod_mode = QTX_LOD_BIAS;
    // SAFETY: as above.
    let st = unsafe { qtx_sample(v, &sampler(), &args, &c, 1, &out) };
    assert_eq!(st, QTX_ERROR_INVALID_ARGUMENT);
    // An offset outside -8..=7.
    let mut args = ARGS;
    args.offset = [8, 0, 0];
    // SAFETY: as above.
    let st = unsafe { qtx_sample(v, &sampler(), &args, &c, 1, &out) };
    assert_eq!(st, QTX_ERROR_INVALID_ARGUMENT);
    // An output array that is also an input.
    let same = QtxOutput {
        r: s.as_ptr().cast_mut(),
        ..out
    };
    // SAFETY: the call refuses the overlap before writing anything.
    let st = unsafe { qtx_sample(v, &sampler(), &ARGS, &c, 1, &same) };
    assert_eq!(st, QTX_ERROR_INVALID_ARGUMENT);
    assert_eq!(last_error(), "out.r overlaps another array of the call");
    assert_eq!(s, [0.25, 0.75, 0.25, 0.75]);
    // Two outputs that are one array.
    let twice = QtxOutput { g: out.r, ..out };
    // SAFETY: refused before writing.
    let st = unsafe { qtx_sample(v, &sampler(), &ARGS, &c, 1, &twice) };
    assert_eq!(st, QTX_ERROR_INVALID_ARGUMENT);
    // SAFETY: valid pointers.
    unsafe { qtx_view_destroy(v) };
}

#[test]
fn nan_and_infinite_coordinates_give_defined_results() {
    let v = view();
    let s = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1e30];
    let t = [0.25f32, f32::NAN, 0.75, -1e30];
    let c = coords(&s, &t);
    let mut o = [[7f32; 4]; 4];
    let [r, g, b, a] = &mut o;
    let out = QtxOutput {
        r: r.as_mut_ptr(),
        g: g.as_mut_ptr(),
        b: b.as_mut_ptr(),
        a: a.as_mut_ptr(),
    };
    let mut smp = sampler();
    smp.address = [QTX_ADDRESS_CLAMP_TO_BORDER; 3];
    smp.border_color = QTX_BORDER_FLOAT_CUSTOM;
    smp.border_float = [0.25, 0.5, 0.75, 1.0];
    // SAFETY: valid pointers, one quad.
    let st = unsafe { qtx_sample(v, &smp, &ARGS, &c, 1, &out) };
    assert_eq!(st, QTX_OK, "{}", last_error());
    // Every lane read a texel (0, 64, 128 or 192 / 255) or the border:
    // nothing else, and every output written.
    let texels = [0.0, 64.0 / 255.0, 128.0 / 255.0, 192.0 / 255.0];
    for lane in 0..4 {
        let px = o.map(|channel| channel[lane]);
        let border = px == [0.25, 0.5, 0.75, 1.0];
        let texel = texels.iter().any(|&x| px == [x; 4]);
        assert!(border || texel, "lane {lane}: {px:?}");
    }
    // SAFETY: valid pointer.
    unsafe { qtx_view_destroy(v) };
}

#[test]
fn instruction_text_errors_are_statuses() {
    let mut pools = null_mut();
    let mut regs = Box::new(QtxSassRegs {
        r: [[0; 256]; 4],
        p: [[false; 7]; 4],
    });
    // SAFETY: valid pointers.
    unsafe { assert_eq!(qtx_pools_create(&mut pools), QTX_OK) };
    let texts: [&CStr; 5] = [
        c"",
        c"TLD4",
        c"TLD4.R R8, R0, 0x100000000, 2D;",
        c"@P9 TLD4.R R8, R0, 5, 2D;",
        c"TMML.LOD R2, R6, 6, 2D, 0x3;",
    ];
    for text in texts {
        // SAFETY: valid pointers; `text` is NUL-terminated.
        let st = unsafe { qtx_sass_execute(pools, text.as_ptr(), &mut *regs, 0xf, 0) };
        // The last one parses, and reads an empty header slot: zeros.
        assert!(
            st == QTX_ERROR_INSTRUCTION || st == QTX_OK,
            "{text:?}: {st} {}",
            last_error()
        );
    }
    let bad_utf8 = [0xffu8, 0xfe, 0];
    // SAFETY: NUL-terminated bytes.
    let st = unsafe {
        qtx_sass_execute(
            pools,
            bad_utf8.as_ptr().cast::<c_char>(),
            &mut *regs,
            0xf,
            0,
        )
    };
    assert_eq!(st, QTX_ERROR_INVALID_ARGUMENT);
    assert_eq!(last_error(), "text is not UTF-8");
    let mut ptx_regs = null_mut();
    let mut syms = null_mut();
    let mut words = [0u32; 4];
    // SAFETY: valid pointers throughout.
    unsafe {
        assert_eq!(qtx_ptx_regs_create(&mut ptx_regs), QTX_OK);
        assert_eq!(qtx_ptx_symbols_create(&mut syms), QTX_OK);
        let st = qtx_ptx_execute(
            pools,
            syms,
            QTX_PTX_UNIFIED,
            c"mov.u32 %r1, 0;".as_ptr(),
            ptx_regs,
        );
        assert_eq!(st, QTX_ERROR_INSTRUCTION);
        assert!(last_error().contains("mov"), "{}", last_error());
        let st = qtx_ptx_regs_get(ptx_regs, c"%r9".as_ptr(), words.as_mut_ptr());
        assert_eq!(st, QTX_ERROR_NOT_FOUND);
        let st = qtx_ptx_execute(pools, syms, 5, c"".as_ptr(), ptx_regs);
        assert_eq!(st, QTX_ERROR_INVALID_ARGUMENT);
        qtx_ptx_regs_destroy(ptx_regs);
        qtx_ptx_symbols_destroy(syms);
        qtx_pools_destroy(pools);
    }
    let mut d3d = null_mut();
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(qtx_d3d_regs_create(&mut d3d), QTX_OK);
        let st = qtx_d3d_execute(null(), 0, c"ld2dms r0, r1".as_ptr(), d3d);
        assert_eq!(st, QTX_ERROR_INSTRUCTION);
        let st = qtx_d3d_regs_set(d3d, c"q7".as_ptr(), [0u32; 16].as_ptr());
        assert_eq!(st, QTX_ERROR_INVALID_ARGUMENT);
        qtx_d3d_regs_destroy(d3d);
    }
    let name = qtx_status_name(QTX_ERROR_BUSY);
    // SAFETY: a static NUL-terminated string.
    assert_eq!(unsafe { CStr::from_ptr(name) }, c"QTX_ERROR_BUSY");
}
