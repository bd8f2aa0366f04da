//! The `extern "C"` functions: this crate's one module with `unsafe`.
//! Each turns the caller's pointers into references and slices (after
//! checking them for `NULL`, for sizes that overflow, and output arrays
//! for overlap with any other array of the call), runs the work in
//! the crate's safe `api` module inside `catch_unwind`, and returns a status; the
//! message of the last failure on the calling thread is
//! [`qtx_last_error`]'s.
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::api::{self, fail, Failure, IntPlanes, OutPlanes, Planes, Res};
use crate::api::{QtxD3dRegs, QtxPools, QtxPtxRegs, QtxPtxSymbols, QtxTexture, QtxView};
use crate::types::*;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(message: &str) {
    let c = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Runs `f`, turning its failure or panic into a status and the thread's
/// last error.
fn guard(f: impl FnOnce() -> Res<()>) -> QtxStatus {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => {
            set_error("");
            QTX_OK
        }
        Ok(Err(Failure { status, message })) => {
            set_error(&message);
            status
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            set_error(&format!("internal error (please report): {what}"));
            QTX_ERROR_INTERNAL
        }
    }
}

fn null<T>(what: &str) -> Res<T> {
    fail(QTX_ERROR_INVALID_ARGUMENT, format!("{what} is NULL"))
}

/// `&*p`, or an error naming `what` for `NULL`.
///
/// # Safety
/// `p` is `NULL` or points to a live, initialized `T` that nothing
/// writes during the call (the C caller's contract).
unsafe fn get<'a, T>(p: *const T, what: &str) -> Res<&'a T> {
    // SAFETY: the caller's contract above; `as_ref` checks `NULL`.
    match unsafe { p.as_ref() } {
        Some(r) => Ok(r),
        None => null(what),
    }
}

/// `&mut *p`, or an error naming `what` for `NULL`.
///
/// # Safety
/// `p` is `NULL` or points to a live `T` that nothing else reads or
/// writes during the call.
unsafe fn get_mut<'a, T>(p: *mut T, what: &str) -> Res<&'a mut T> {
    // SAFETY: the caller's contract above; `as_mut` checks `NULL`.
    match unsafe { p.as_mut() } {
        Some(r) => Ok(r),
        None => null(what),
    }
}

/// A NUL-terminated UTF-8 string.
///
/// # Safety
/// `p` is `NULL` or points to a NUL-terminated string.
unsafe fn text<'a>(p: *const c_char, what: &str) -> Res<&'a str> {
    if p.is_null() {
        return null(what);
    }
    // SAFETY: not NULL, NUL-terminated by the caller's contract.
    let c = unsafe { CStr::from_ptr(p) };
    c.to_str()
        .or_else(|_| fail(QTX_ERROR_INVALID_ARGUMENT, format!("{what} is not UTF-8")))
}

/// The element count `4 * quads`, checked so that its byte size fits an
/// `isize` for elements of `size` bytes.
fn lanes(quads: usize, size: usize) -> Res<usize> {
    match quads.checked_mul(4 * size) {
        Some(b) if b <= isize::MAX as usize => Ok(4 * quads),
        _ => fail(
            QTX_ERROR_INVALID_ARGUMENT,
            format!("{quads} quads is too many"),
        ),
    }
}

/// The byte ranges of a call's arrays, to refuse outputs that overlap
/// anything else.
#[derive(Default)]
struct Ranges {
    inputs: Vec<(usize, usize)>,
    outputs: Vec<(usize, usize, &'static str)>,
}

impl Ranges {
    fn input<T>(&mut self, p: *const T, n: usize) {
        if !p.is_null() && n > 0 {
            let a = p as usize;
            self.inputs.push((a, a + n * size_of::<T>()));
        }
    }

    fn output<T>(&mut self, p: *mut T, n: usize, what: &'static str) -> Res<()> {
        if p.is_null() {
            return null(what);
        }
        let a = p as usize;
        self.outputs.push((a, a + n * size_of::<T>(), what));
        Ok(())
    }

    fn check(&self) -> Res<()> {
        let over = |a: (usize, usize), b: (usize, usize)| a.0 < b.1 && b.0 < a.1;
        for (i, &(s, e, what)) in self.outputs.iter().enumerate() {
            let other_out = self.outputs[i + 1..]
                .iter()
                .any(|o| over((s, e), (o.0, o.1)));
            if other_out || self.inputs.iter().any(|&r| over((s, e), r)) {
                return fail(
                    QTX_ERROR_INVALID_ARGUMENT,
                    format!("{what} overlaps another array of the call"),
                );
            }
        }
        Ok(())
    }
}

/// A slice of `n` elements at `p`, `None` for `NULL`.
///
/// # Safety
/// `p` is `NULL` or points to `n` initialized elements that nothing
/// writes during the call.
unsafe fn plane<'a, T>(p: *const T, n: usize) -> Option<&'a [T]> {
    // SAFETY: not NULL, and `n` elements by the caller's contract; `n *
    // size_of::<T>()` fits an `isize` (`lanes`).
    (!p.is_null()).then(|| unsafe { std::slice::from_raw_parts(p, n) })
}

/// A mutable slice of `n` elements at `p` (checked not `NULL` and not
/// overlapping by [`Ranges`]).
///
/// # Safety
/// `p` points to `n` elements that nothing else reads or writes during
/// the call.
unsafe fn plane_mut<'a, T>(p: *mut T, n: usize) -> &'a mut [T] {
    // SAFETY: the caller's contract; `Ranges::check` has refused NULL and
    // overlaps with every other array of the call.
    unsafe { std::slice::from_raw_parts_mut(p, n) }
}

/// The float planes of `c`, `n` elements each, recorded in `ranges`.
///
/// # Safety
/// Every non-NULL pointer of `c` points to `n` floats.
unsafe fn planes<'a>(c: &QtxCoords, n: usize, ranges: &mut Ranges) -> Planes<'a> {
    for p in [c.s, c.t, c.r, c.a, c.dref, c.lod]
        .into_iter()
        .chain(c.ddx)
        .chain(c.ddy)
    {
        ranges.input(p, n);
    }
    // SAFETY: the caller's contract (each pointer NULL or `n` floats).
    unsafe {
        Planes {
            s: plane(c.s, n),
            t: plane(c.t, n),
            r: plane(c.r, n),
            a: plane(c.a, n),
            dref: plane(c.dref, n),
            lod: plane(c.lod, n),
            ddx: c.ddx.map(|p| plane(p, n)),
            ddy: c.ddy.map(|p| plane(p, n)),
        }
    }
}

/// The four output planes, checked.
///
/// # Safety
/// Each pointer is `NULL` or points to `n` elements.
unsafe fn outputs<'a, T>(
    [r, g, b, a]: [*mut T; 4],
    n: usize,
    ranges: &mut Ranges,
) -> Res<OutPlanes<'a, T>> {
    ranges.output(r, n, "out.r")?;
    ranges.output(g, n, "out.g")?;
    ranges.output(b, n, "out.b")?;
    ranges.output(a, n, "out.a")?;
    ranges.check()?;
    // SAFETY: not NULL, `n` elements each, no overlaps (checked above).
    unsafe {
        Ok(OutPlanes {
            r: plane_mut(r, n),
            g: plane_mut(g, n),
            b: plane_mut(b, n),
            a: plane_mut(a, n),
        })
    }
}

/// Writes `v` to `*out`.
///
/// # Safety
/// `out` is `NULL` or points to writable memory for a `T`.
unsafe fn put<T>(out: *mut T, v: T, what: &str) -> Res<()> {
    if out.is_null() {
        return null(what);
    }
    // SAFETY: not NULL, writable by the caller's contract; `write` does
    // not read or drop the old value.
    unsafe { out.write(v) };
    Ok(())
}

/// Frees a handle made by `Box::into_raw` (`NULL`: nothing).
///
/// # Safety
/// `p` is `NULL` or came from `Box::into_raw` and is not used again.
unsafe fn free<T>(p: *mut T) {
    if !p.is_null() {
        // SAFETY: the contract above.
        drop(unsafe { Box::from_raw(p) });
    }
}

/// Hands `v` to the caller as a new handle in `*out`.
///
/// # Safety
/// `out` is `NULL` or writable.
unsafe fn give<T>(out: *mut *mut T, v: T) -> Res<()> {
    // SAFETY: the contract above.
    unsafe { put(out, Box::into_raw(Box::new(v)), "out") }
}

// ---------------------------------------------------------------- errors

/// The message of the last failed call on this thread ("" after a call
/// that succeeded). Valid until the thread's next `qtx_*` call.
#[no_mangle]
pub extern "C" fn qtx_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// A status code's name (`"QTX_ERROR_WRONG_SIZE"`), static.
#[no_mangle]
pub extern "C" fn qtx_status_name(status: QtxStatus) -> *const c_char {
    let s: &'static CStr = match status {
        QTX_OK => c"QTX_OK",
        QTX_ERROR_INVALID_ARGUMENT => c"QTX_ERROR_INVALID_ARGUMENT",
        QTX_ERROR_INVALID_DESCRIPTION => c"QTX_ERROR_INVALID_DESCRIPTION",
        QTX_ERROR_WRONG_SIZE => c"QTX_ERROR_WRONG_SIZE",
        QTX_ERROR_OUT_OF_MEMORY => c"QTX_ERROR_OUT_OF_MEMORY",
        QTX_ERROR_INSTRUCTION => c"QTX_ERROR_INSTRUCTION",
        QTX_ERROR_BUSY => c"QTX_ERROR_BUSY",
        QTX_ERROR_NOT_FOUND => c"QTX_ERROR_NOT_FOUND",
        QTX_ERROR_INTERNAL => c"QTX_ERROR_INTERNAL",
        _ => c"unknown status",
    };
    s.as_ptr()
}

// ---------------------------------------------------------------- textures

/// Makes a texture. `data` is `NULL` (the texture starts zero-filled) or
/// `len` bytes, tightly packed in the order level, layer, sample, z, y, x
/// (whole blocks for compressed formats), exactly the size the
/// description needs. On success `*out` owns the texture; free it with
/// `qtx_texture_destroy`.
///
/// # Safety
/// `desc` points to a `QtxTextureDesc` whose `format` is a NUL-terminated
/// string; `data` is `NULL` or `len` readable bytes; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn qtx_texture_create(
    desc: *const QtxTextureDesc,
    data: *const u8,
    len: usize,
    out: *mut *mut QtxTexture,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let desc = unsafe { get(desc, "desc") }?;
        // SAFETY: the function's contract.
        let format = unsafe { text(desc.format, "desc.format") }?;
        // SAFETY: the function's contract (`len` bytes when not NULL).
        let data = unsafe { plane(data, len) };
        let t = api::texture_create(desc, format, data)?;
        // SAFETY: the function's contract.
        unsafe { give(out, t) }
    })
}

/// Frees a texture (`NULL` is allowed). Views made of it keep their own
/// reference and stay valid.
///
/// # Safety
/// `texture` is `NULL` or came from `qtx_texture_create` and is not used
/// again.
#[no_mangle]
pub unsafe extern "C" fn qtx_texture_destroy(texture: *mut QtxTexture) {
    // SAFETY: the function's contract: NULL or made by its create
    // function, freed once.
    unsafe { free(texture) }
}

/// Writes one subresource (level, layer, sample: all its z slices),
/// `len` bytes tightly packed z, y, x. Fails with `QTX_ERROR_BUSY` once
/// views of the texture exist.
///
/// # Safety
/// `texture` came from `qtx_texture_create`; `data` is `len` readable
/// bytes.
#[no_mangle]
pub unsafe extern "C" fn qtx_texture_write(
    texture: *mut QtxTexture,
    level: u32,
    layer: u32,
    sample: u32,
    data: *const u8,
    len: usize,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let t = unsafe { get_mut(texture, "texture") }?;
        // SAFETY: the function's contract.
        let Some(data) = (unsafe { plane(data, len) }) else {
            return null("data");
        };
        api::texture_write(t, level, layer, sample, data)
    })
}

/// Fills levels 1.. from level 0 (a box filter; sRGB formats averaged in
/// linear space). Fails with `QTX_ERROR_BUSY` once views exist.
///
/// # Safety
/// `texture` came from `qtx_texture_create`.
#[no_mangle]
pub unsafe extern "C" fn qtx_texture_generate_mips(texture: *mut QtxTexture) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        api::texture_generate_mips(unsafe { get_mut(texture, "texture") }?)
    })
}

// ---------------------------------------------------------------- views

/// Fills `*out` with the view of the whole texture (its own kind, every
/// level and layer, identity swizzle, sRGB decode on).
///
/// # Safety
/// `texture` came from `qtx_texture_create`; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn qtx_view_desc_default(
    texture: *const QtxTexture,
    out: *mut QtxViewDesc,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let t = unsafe { get(texture, "texture") }?;
        // SAFETY: the function's contract.
        unsafe { put(out, api::view_desc_default(t), "out") }
    })
}

/// Makes a view, checked against its texture (Vulkan's image view
/// rules). Free it with `qtx_view_destroy`.
///
/// # Safety
/// `texture` came from `qtx_texture_create`; `desc` points to a
/// `QtxViewDesc`; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn qtx_view_create(
    texture: *const QtxTexture,
    desc: *const QtxViewDesc,
    out: *mut *mut QtxView,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (t, d) = unsafe { (get(texture, "texture")?, get(desc, "desc")?) };
        let v = api::view_create(t, d)?;
        // SAFETY: the function's contract.
        unsafe { give(out, v) }
    })
}

/// Frees a view (`NULL` is allowed).
///
/// # Safety
/// `view` is `NULL` or came from `qtx_view_create` and is not used again.
#[no_mangle]
pub unsafe extern "C" fn qtx_view_destroy(view: *mut QtxView) {
    // SAFETY: the function's contract: NULL or made by its create
    // function, freed once.
    unsafe { free(view) }
}

/// Fills `*out` with the default sampler: nearest filters, nearest
/// mipmaps, repeat, no compare, LOD clamps 0..1000, anisotropy 1,
/// seamless cubes.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn qtx_sampler_desc_default(out: *mut QtxSamplerDesc) -> QtxStatus {
    // SAFETY: the function's contract.
    guard(|| unsafe { put(out, api::sampler_desc_default(), "out") })
}

// ---------------------------------------------------------------- operations

/// `tex` / `texture()` on `quads` full quads: coordinates in, RGBA out,
/// one array per component (see `QtxCoords`, `QtxOutput`). The bits are
/// the scalar reference's for the profile; out-of-range, NaN and infinite
/// coordinates give the defined results (address modes, border colour).
///
/// # Safety
/// `view` came from `qtx_view_create`; `sampler`, `args`, `coords` and
/// `out` point to their structs; every non-NULL array of `coords` holds
/// `4 * quads` floats, and every array of `out` has room for as many.
#[no_mangle]
pub unsafe extern "C" fn qtx_sample(
    view: *const QtxView,
    sampler: *const QtxSamplerDesc,
    args: *const QtxSampleArgs,
    coords: *const QtxCoords,
    quads: usize,
    out: *const QtxOutput,
) -> QtxStatus {
    guard(|| {
        let n = lanes(quads, 4)?;
        let mut ranges = Ranges::default();
        // SAFETY: the function's contract.
        let (v, s, a, c, o) = unsafe {
            (
                get(view, "view")?,
                get(sampler, "sampler")?,
                get(args, "args")?,
                get(coords, "coords")?,
                get(out, "out")?,
            )
        };
        // SAFETY: the function's contract (arrays of `n` floats).
        let p = unsafe { planes(c, n, &mut ranges) };
        // SAFETY: the function's contract.
        let o = unsafe { outputs([o.r, o.g, o.b, o.a], n, &mut ranges) }?;
        api::sample(&v.header, s, a, &p, quads, o)
    })
}

/// TLD4 / `textureGather` on `quads` full quads of a 2D, 2D-array, cube
/// or cube-array view: result `k` of each lane in `out` plane `k` (r, g,
/// b, a), the footprint's texels in the order `T(i0, j1), T(i1, j1),
/// T(i1, j0), T(i0, j0)`. With a compare sampler, `coords->dref` gives
/// the references and each result is 1 or 0.
///
/// # Safety
/// As `qtx_sample`.
#[no_mangle]
pub unsafe extern "C" fn qtx_gather(
    view: *const QtxView,
    sampler: *const QtxSamplerDesc,
    args: *const QtxGatherArgs,
    coords: *const QtxCoords,
    quads: usize,
    out: *const QtxOutput,
) -> QtxStatus {
    guard(|| {
        let n = lanes(quads, 4)?;
        let mut ranges = Ranges::default();
        // SAFETY: the function's contract.
        let (v, s, a, c, o) = unsafe {
            (
                get(view, "view")?,
                get(sampler, "sampler")?,
                get(args, "args")?,
                get(coords, "coords")?,
                get(out, "out")?,
            )
        };
        // SAFETY: the function's contract (arrays of `n` floats).
        let p = unsafe { planes(c, n, &mut ranges) };
        // SAFETY: the function's contract.
        let o = unsafe { outputs([o.r, o.g, o.b, o.a], n, &mut ranges) }?;
        api::gather(&v.header, s, a, &p, quads, o)
    })
}

/// `textureQueryLod` / TMML on `quads` full quads: per lane the level the
/// sample would access (`accessed`, relative to the view's base) and
/// lambda' before clamping (`lambda`), each array `4 * quads` floats.
///
/// # Safety
/// As `qtx_sample`, with `accessed` and `lambda` room for `4 * quads`
/// floats each.
#[no_mangle]
pub unsafe extern "C" fn qtx_query_lod(
    view: *const QtxView,
    sampler: *const QtxSamplerDesc,
    args: *const QtxSampleArgs,
    coords: *const QtxCoords,
    quads: usize,
    accessed: *mut f32,
    lambda: *mut f32,
) -> QtxStatus {
    guard(|| {
        let n = lanes(quads, 4)?;
        let mut ranges = Ranges::default();
        // SAFETY: the function's contract.
        let (v, s, a, c) = unsafe {
            (
                get(view, "view")?,
                get(sampler, "sampler")?,
                get(args, "args")?,
                get(coords, "coords")?,
            )
        };
        // SAFETY: the function's contract (arrays of `n` floats).
        let p = unsafe { planes(c, n, &mut ranges) };
        ranges.output(accessed, n, "accessed")?;
        ranges.output(lambda, n, "lambda")?;
        ranges.check()?;
        // SAFETY: checked not NULL and not overlapping; `n` floats each.
        let (x, y) = unsafe { (plane_mut(accessed, n), plane_mut(lambda, n)) };
        api::query(&v.header, s, a, &p, quads, x, y)
    })
}

/// `texelFetch` / `ld` / `ld2dms` on `quads` full quads: each lane's
/// texel words (see `QtxFetchOutput`). Out-of-range coordinates, levels,
/// layers and samples read zeros, as the seeds define.
///
/// # Safety
/// `view` came from `qtx_view_create`; `coords` and `out` point to their
/// structs; every non-NULL array holds `4 * quads` elements.
#[no_mangle]
pub unsafe extern "C" fn qtx_fetch(
    view: *const QtxView,
    coords: *const QtxFetchCoords,
    quads: usize,
    out: *const QtxFetchOutput,
) -> QtxStatus {
    guard(|| {
        let n = lanes(quads, 4)?;
        let mut ranges = Ranges::default();
        // SAFETY: the function's contract.
        let (v, c, o) = unsafe { (get(view, "view")?, get(coords, "coords")?, get(out, "out")?) };
        for p in [c.x, c.y, c.z, c.layer, c.level, c.sample] {
            ranges.input(p, n);
        }
        // SAFETY: the function's contract (arrays of `n` i32).
        let p = unsafe {
            IntPlanes {
                x: plane(c.x, n),
                y: plane(c.y, n),
                z: plane(c.z, n),
                layer: plane(c.layer, n),
                level: plane(c.level, n),
                sample: plane(c.sample, n),
            }
        };
        if !o.resident.is_null() {
            ranges.output(o.resident, n, "out.resident")?;
        }
        // SAFETY: the function's contract.
        let words = unsafe { outputs([o.r, o.g, o.b, o.a], n, &mut ranges) }?;
        // SAFETY: checked not overlapping (`outputs` ran the check with
        // it); `n` bytes by the contract.
        let resident = (!o.resident.is_null()).then(|| unsafe { plane_mut(o.resident, n) });
        api::fetch(&v.header, &p, c.offset, quads, words, resident)
    })
}

// ---------------------------------------------------------------- pools

/// Empty header and sampler pools for the SASS front-end (maximum
/// indices 0 until headers are set; sampler binding independent).
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn qtx_pools_create(out: *mut *mut QtxPools) -> QtxStatus {
    guard(|| {
        let p = api::pools_create(None)?;
        // SAFETY: the function's contract.
        unsafe { give(out, p) }
    })
}

/// Empty pools with a PTX texturing mode's limits (`QTX_PTX_*`).
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn qtx_pools_create_ptx(mode: u32, out: *mut *mut QtxPools) -> QtxStatus {
    guard(|| {
        let p = api::pools_create(Some(mode))?;
        // SAFETY: the function's contract.
        unsafe { give(out, p) }
    })
}

/// Frees pools (`NULL` is allowed).
///
/// # Safety
/// `pools` is `NULL` or came from `qtx_pools_create*` and is not used
/// again.
#[no_mangle]
pub unsafe extern "C" fn qtx_pools_destroy(pools: *mut QtxPools) {
    // SAFETY: the function's contract: NULL or made by its create
    // function, freed once.
    unsafe { free(pools) }
}

/// Stores a copy of the view at header index `index` (below 2^20),
/// raising the maximum index to it if needed.
///
/// # Safety
/// `pools` and `view` came from their create functions.
#[no_mangle]
pub unsafe extern "C" fn qtx_pools_set_header(
    pools: *mut QtxPools,
    index: u32,
    view: *const QtxView,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (p, v) = unsafe { (get_mut(pools, "pools")?, get(view, "view")?) };
        api::pools_set_header(p, index, v)
    })
}

/// Stores a sampler at sampler index `index` (below 2^12).
///
/// # Safety
/// `pools` came from `qtx_pools_create*`; `sampler` points to a
/// `QtxSamplerDesc`.
#[no_mangle]
pub unsafe extern "C" fn qtx_pools_set_sampler(
    pools: *mut QtxPools,
    index: u32,
    sampler: *const QtxSamplerDesc,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (p, s) = unsafe { (get_mut(pools, "pools")?, get(sampler, "sampler")?) };
        api::pools_set_sampler(p, index, s)
    })
}

/// Sets the pools' maximum indices (`SetTexHeaderPoolC.MaximumIndex`,
/// `SetSamplerHeaderPoolC.MaximumIndex`: handles above them are invalid
/// and read zeros) and the sampler binding (`QTX_BINDING_*`).
///
/// # Safety
/// `pools` came from `qtx_pools_create*`.
#[no_mangle]
pub unsafe extern "C" fn qtx_pools_set_limits(
    pools: *mut QtxPools,
    header_max: u32,
    sampler_max: u32,
    binding: u32,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let p = unsafe { get_mut(pools, "pools") }?;
        api::pools_set_limits(p, header_max, sampler_max, binding)
    })
}

/// Sets the constant bank that SASS's `#tsPtrIdxU13` handle form reads
/// (`count` 32-bit words).
///
/// # Safety
/// `pools` came from `qtx_pools_create*`; `words` is `count` readable
/// words (or `NULL` with `count` 0).
#[no_mangle]
pub unsafe extern "C" fn qtx_pools_set_const_bank(
    pools: *mut QtxPools,
    words: *const u32,
    count: usize,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let p = unsafe { get_mut(pools, "pools") }?;
        // SAFETY: the function's contract.
        let w = unsafe { plane(words, count) };
        if w.is_none() && count > 0 {
            return null("words");
        }
        p.pools.const_bank = w.unwrap_or(&[]).to_vec();
        Ok(())
    })
}

/// Packs a bindless handle: header index (20 bits) and sampler index (12
/// bits).
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn qtx_handle(header: u32, sampler: u32, out: *mut u32) -> QtxStatus {
    guard(|| match quadtex_sampler::Handle::new(header, sampler) {
        // SAFETY: the function's contract.
        Some(h) => unsafe { put(out, h.0, "out") },
        None => fail(
            QTX_ERROR_INVALID_ARGUMENT,
            format!("header {header} or sampler {sampler} does not fit 20 / 12 bits"),
        ),
    })
}

// ---------------------------------------------------------------- SASS

/// Runs one SASS texture instruction (`TLD4`, `TMML.LOD`, `TEX`, `TLD`,
/// `TXQ`, e.g. `"TLD4.R R8, R0, 5, 2D, 0xf;"`) on the quad in `regs`:
/// lanes in `active` want results, `helper` lanes run for derivatives.
///
/// # Safety
/// `pools` came from `qtx_pools_create*`; `text` is NUL-terminated;
/// `regs` points to a `QtxSassRegs`.
#[no_mangle]
pub unsafe extern "C" fn qtx_sass_execute(
    pools: *const QtxPools,
    text: *const c_char,
    regs: *mut QtxSassRegs,
    active: u8,
    helper: u8,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (p, t, r) = unsafe {
            (
                get(pools, "pools")?,
                self::text(text, "text")?,
                get_mut(regs, "regs")?,
            )
        };
        api::sass_execute(p, t, r, active, helper)
    })
}

// ---------------------------------------------------------------- PTX

/// An empty PTX symbol table.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_symbols_create(out: *mut *mut QtxPtxSymbols) -> QtxStatus {
    guard(|| {
        let s = QtxPtxSymbols::default();
        // SAFETY: the function's contract.
        unsafe { give(out, s) }
    })
}

/// Frees a symbol table (`NULL` is allowed).
///
/// # Safety
/// `symbols` is `NULL` or came from `qtx_ptx_symbols_create` and is not
/// used again.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_symbols_destroy(symbols: *mut QtxPtxSymbols) {
    // SAFETY: the function's contract: NULL or made by its create
    // function, freed once.
    unsafe { free(symbols) }
}

/// Declares a module-scope name: a `.texref` (`QTX_PTX_TEXREF`, naming a
/// header index), `.samplerref` (a sampler index) or `.surfref`.
///
/// # Safety
/// `symbols` came from `qtx_ptx_symbols_create`; `name` is
/// NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_symbols_add(
    symbols: *mut QtxPtxSymbols,
    kind: u32,
    name: *const c_char,
    index: u32,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (s, n) = unsafe { (get_mut(symbols, "symbols")?, text(name, "name")?) };
        api::ptx_symbols_add(s, kind, n, index)
    })
}

/// The value `mov.u64 %rd, name;` puts in a register for a declared name
/// (what bindless `tex` reads as its handle).
///
/// # Safety
/// `symbols` came from `qtx_ptx_symbols_create`; `name` is
/// NUL-terminated; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_symbols_address_of(
    symbols: *const QtxPtxSymbols,
    name: *const c_char,
    out: *mut u64,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (s, n) = unsafe { (get(symbols, "symbols")?, text(name, "name")?) };
        let a = api::ptx_symbols_address_of(s, n)?;
        // SAFETY: the function's contract.
        unsafe { put(out, a, "out") }
    })
}

/// Empty PTX registers, all four lanes active.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_regs_create(out: *mut *mut QtxPtxRegs) -> QtxStatus {
    guard(|| {
        let r = QtxPtxRegs {
            regs: quadtex_sampler::isa::ptx::Regs::new(),
        };
        // SAFETY: the function's contract.
        unsafe { give(out, r) }
    })
}

/// Frees PTX registers (`NULL` is allowed).
///
/// # Safety
/// `regs` is `NULL` or came from `qtx_ptx_regs_create` and is not used
/// again.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_regs_destroy(regs: *mut QtxPtxRegs) {
    // SAFETY: the function's contract: NULL or made by its create
    // function, freed once.
    unsafe { free(regs) }
}

/// Sets the lanes that execute (bit i = lane i).
///
/// # Safety
/// `regs` came from `qtx_ptx_regs_create`.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_regs_set_active(regs: *mut QtxPtxRegs, active: u8) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        unsafe { get_mut(regs, "regs") }?.regs.active = active & 0xf;
        Ok(())
    })
}

/// Writes a 32-bit register (`"%r1"`, `"%f2"`) in each lane: `v[lane]`.
///
/// # Safety
/// `regs` came from `qtx_ptx_regs_create`; `name` is NUL-terminated; `v`
/// is 4 readable words.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_regs_set(
    regs: *mut QtxPtxRegs,
    name: *const c_char,
    v: *const u32,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (r, n, v) = unsafe {
            (
                get_mut(regs, "regs")?,
                text(name, "name")?,
                get(v.cast::<[u32; 4]>(), "v")?,
            )
        };
        r.regs.set(n, *v);
        Ok(())
    })
}

/// Writes a 64-bit register (`"%rd1"`, a bindless handle) in each lane.
///
/// # Safety
/// As `qtx_ptx_regs_set`, with `v` 4 readable `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_regs_set_u64(
    regs: *mut QtxPtxRegs,
    name: *const c_char,
    v: *const u64,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (r, n, v) = unsafe {
            (
                get_mut(regs, "regs")?,
                text(name, "name")?,
                get(v.cast::<[u64; 4]>(), "v")?,
            )
        };
        r.regs.set_u64(n, *v);
        Ok(())
    })
}

/// Reads a 32-bit register into `out[lane]`; `QTX_ERROR_NOT_FOUND` if it
/// was never written.
///
/// # Safety
/// `regs` came from `qtx_ptx_regs_create`; `name` is NUL-terminated;
/// `out` has room for 4 words.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_regs_get(
    regs: *const QtxPtxRegs,
    name: *const c_char,
    out: *mut u32,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (r, n) = unsafe { (get(regs, "regs")?, text(name, "name")?) };
        let v = api::ptx_regs_get(r, n)?;
        // SAFETY: the function's contract.
        unsafe { put(out.cast::<[u32; 4]>(), v, "out") }
    })
}

/// Reads a 64-bit register into `out[lane]`.
///
/// # Safety
/// As `qtx_ptx_regs_get`, with `out` room for 4 `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_regs_get_u64(
    regs: *const QtxPtxRegs,
    name: *const c_char,
    out: *mut u64,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (r, n) = unsafe { (get(regs, "regs")?, text(name, "name")?) };
        let v = api::ptx_regs_get_u64(r, n)?;
        // SAFETY: the function's contract.
        unsafe { put(out.cast::<[u64; 4]>(), v, "out") }
    })
}

/// Reads a predicate (`"%p1"`) into `out[lane]`.
///
/// # Safety
/// As `qtx_ptx_regs_get`, with `out` room for 4 `bool`.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_regs_get_pred(
    regs: *const QtxPtxRegs,
    name: *const c_char,
    out: *mut bool,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (r, n) = unsafe { (get(regs, "regs")?, text(name, "name")?) };
        let v = api::ptx_regs_get_pred(r, n)?;
        // SAFETY: the function's contract.
        unsafe { put(out.cast::<[bool; 4]>(), v, "out") }
    })
}

/// Runs one PTX texture instruction (`tex`, `tld4`, `txq`, `istypep`,
/// e.g. `"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}];"`)
/// on the quad in `regs`, in texturing mode `mode` (`QTX_PTX_*`).
///
/// # Safety
/// `pools`, `symbols` and `regs` came from their create functions;
/// `line` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn qtx_ptx_execute(
    pools: *const QtxPools,
    symbols: *const QtxPtxSymbols,
    mode: u32,
    line: *const c_char,
    regs: *mut QtxPtxRegs,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (p, s, l, r) = unsafe {
            (
                get(pools, "pools")?,
                get(symbols, "symbols")?,
                text(line, "line")?,
                get_mut(regs, "regs")?,
            )
        };
        api::ptx_execute(p, s, mode, l, r)
    })
}

// ---------------------------------------------------------------- D3D

/// Empty D3D registers (unwritten ones read 0), all lanes active.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn qtx_d3d_regs_create(out: *mut *mut QtxD3dRegs) -> QtxStatus {
    guard(|| {
        let r = QtxD3dRegs {
            regs: quadtex_sampler::isa::d3d::D3dRegs::new(),
        };
        // SAFETY: the function's contract.
        unsafe { give(out, r) }
    })
}

/// Frees D3D registers (`NULL` is allowed).
///
/// # Safety
/// `regs` is `NULL` or came from `qtx_d3d_regs_create` and is not used
/// again.
#[no_mangle]
pub unsafe extern "C" fn qtx_d3d_regs_destroy(regs: *mut QtxD3dRegs) {
    // SAFETY: the function's contract: NULL or made by its create
    // function, freed once.
    unsafe { free(regs) }
}

/// Sets the lanes that execute (bit i = lane i).
///
/// # Safety
/// `regs` came from `qtx_d3d_regs_create`.
#[no_mangle]
pub unsafe extern "C" fn qtx_d3d_regs_set_active(regs: *mut QtxD3dRegs, active: u8) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        unsafe { get_mut(regs, "regs") }?.regs.active = active & 0xf;
        Ok(())
    })
}

/// Writes register `name` (`"r0"`, `"v1"`): `v[4 * lane + component]`.
///
/// # Safety
/// `regs` came from `qtx_d3d_regs_create`; `name` is NUL-terminated; `v`
/// is 16 readable words.
#[no_mangle]
pub unsafe extern "C" fn qtx_d3d_regs_set(
    regs: *mut QtxD3dRegs,
    name: *const c_char,
    v: *const u32,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (r, n, v) = unsafe {
            (
                get_mut(regs, "regs")?,
                text(name, "name")?,
                get(v.cast::<[u32; 16]>(), "v")?,
            )
        };
        api::d3d_regs_set(r, n, v)
    })
}

/// Reads register `name` into `out[4 * lane + component]`.
///
/// # Safety
/// `regs` came from `qtx_d3d_regs_create`; `name` is NUL-terminated;
/// `out` has room for 16 words.
#[no_mangle]
pub unsafe extern "C" fn qtx_d3d_regs_get(
    regs: *const QtxD3dRegs,
    name: *const c_char,
    out: *mut u32,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let (r, n) = unsafe { (get(regs, "regs")?, text(name, "name")?) };
        let v = api::d3d_regs_get(r, n)?;
        // SAFETY: the function's contract.
        unsafe { put(out.cast::<[u32; 16]>(), v, "out") }
    })
}

/// Runs one `ld2dms` line (e.g. `"ld2dms r0.xyzw, r1.xyzw, t0.xyzw,
/// r2.x"`) on the quad in `regs`; `resources[i]` is `t#i` (`NULL`
/// entries are unbound and read zeros).
///
/// # Safety
/// `resources` is `count` readable pointers, each `NULL` or from
/// `qtx_view_create`; `line` is NUL-terminated; `regs` came from
/// `qtx_d3d_regs_create`.
#[no_mangle]
pub unsafe extern "C" fn qtx_d3d_execute(
    resources: *const *const QtxView,
    count: usize,
    line: *const c_char,
    regs: *mut QtxD3dRegs,
) -> QtxStatus {
    guard(|| {
        // SAFETY: the function's contract.
        let views = unsafe { plane(resources, count) };
        if views.is_none() && count > 0 {
            return null("resources");
        }
        // SAFETY: each entry NULL or a view, by the function's contract.
        let views: Vec<Option<&QtxView>> = views
            .unwrap_or(&[])
            .iter()
            .map(|&v| unsafe { v.as_ref() })
            .collect();
        // SAFETY: the function's contract.
        let (l, r) = unsafe { (text(line, "line")?, get_mut(regs, "regs")?) };
        api::d3d_execute(&views, l, r)
    })
}
