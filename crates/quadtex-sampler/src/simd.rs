//! The one place `wide` is named: crate-wide aliases for quad lanes (one
//! quad in `F4`, two in `F8`, four in `F16`).
//! No `wide` type appears in a public signature; kernels speak `F4` inside
//! and arrays outside (docs/architecture.md, convention 2).

/// Four f32 lanes: one per pixel of a quad.
pub(crate) type F4 = wide::f32x4;

/// Four i32 lanes: texel indices and offsets of a quad.
pub(crate) type I4 = wide::i32x4;

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

/// Eight f32 lanes: two quads (one AVX2 register).
pub(crate) type F8 = wide::f32x8;

/// Eight i32 lanes: two quads' indices.
pub(crate) type I8 = wide::i32x8;

/// Sixteen f32 lanes: four quads (one AVX-512 register).
pub(crate) type F16 = wide::f32x16;

/// Sixteen i32 lanes: four quads' indices.
pub(crate) type I16 = wide::i32x16;
