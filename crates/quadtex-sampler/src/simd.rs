//! The one place `wide` is named: crate-wide aliases for one quad's
//! lanes (`F4`), which the per-quad kernel (`kernel.rs`) computes in.
//! No `wide` type appears in a public signature; kernels speak `F4` inside
//! and arrays outside (docs/architecture.md, convention 2).

/// Four f32 lanes: one per pixel of a quad.
pub(crate) type F4 = wide::f32x4;

/// `F4` from an array.
#[inline(always)]
pub(crate) fn f4(v: [f32; 4]) -> F4 {
    F4::new(v)
}

/// Lanes of `v` as an array.
#[inline(always)]
pub(crate) fn arr(v: F4) -> [f32; 4] {
    v.to_array()
}

/// `x - floor(x)` with non-finite results (NaN, +-Inf inputs) set to 0,
/// lane by lane as `reference::frac`.
#[inline(always)]
pub(crate) fn frac(x: F4) -> F4 {
    let f = x - x.floor();
    f.is_finite().select(f, F4::ZERO)
}
