//! SSE2 lane vectors: four lanes in one 128-bit register, one instruction
//! (or a short fixed sequence) per operation, for the x86-64 baseline
//! levels ([`crate::cpu::SimdLevel::Sse2`] and, on x86-64,
//! [`crate::cpu::SimdLevel::Portable`]). Part of `arch`, the crate's one
//! `unsafe` module.
//!
//! Every operation gives the bits of the scalar operation of the same name
//! on each lane (`lanes::Portable`'s, tested lane by lane at every level in
//! `lanes::level_tests`). Where SSE2 lacks an instruction the scalar
//! operation compiles to one of SSE4.1's or to a library call (`floorf`,
//! `ceilf`, `roundevenf`, `pmulld`, `pmaxsd`), the sequence below gives
//! the same bits with SSE2 alone; the look-ups with no SSE2 instruction
//! (texel words, the sRGB table, byte and f32 tables, IEEE halves) go lane
//! by lane as the scalar code does.
//!
//! Written with intrinsics rather than as arrays that LLVM vectorizes
//! (`lanes::Portable<4>`, which this replaces on x86-64) because the
//! arrays' code was about twice the size of the AVX2 level's (rounding
//! through library calls, scalarized integer multiplies and selects) and
//! took the compiler about as long again to optimize.

use std::arch::x86_64::*;
use std::ops::{Add, BitAnd, BitOr, Mul, Sub};

use crate::lanes::{Fv, Iv, Lanes, Mv};

/// An SSE2 intrinsic: every x86-64 CPU runs it.
macro_rules! sse {
    ($e:expr) => {
        // SAFETY: SSE and SSE2 are part of the x86-64 baseline, so every
        // CPU this code runs on has them; the intrinsic reads and writes
        // registers only.
        unsafe { $e }
    };
}

/// The SSE2 level's token. SSE2 is part of every x86-64 CPU, so the token
/// needs no detection.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Sse2;

/// Four f32 lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fx(__m128);

/// Four i32 lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ix(__m128i);

/// Four lane conditions (all ones or zero).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mx(__m128i);

impl Fx {
    /// The lanes as an array.
    #[inline(always)]
    fn lanes(self) -> [f32; 4] {
        let mut a = [0.0f32; 4];
        // SAFETY: `a` is 16 writable bytes, what one unaligned store
        // writes; SSE is part of the x86-64 baseline.
        unsafe { _mm_storeu_ps(a.as_mut_ptr(), self.0) };
        a
    }

    /// Lanes from an array.
    #[inline(always)]
    fn of(a: [f32; 4]) -> Fx {
        Fx(sse!(_mm_setr_ps(a[0], a[1], a[2], a[3])))
    }

    /// The sign bits of `self` (every other bit clear).
    #[inline(always)]
    fn sign(self) -> __m128 {
        sse!(_mm_and_ps(self.0, _mm_set1_ps(-0.0)))
    }

    /// `f32::round_ties_even` of lanes with `|x| < 2^23`, the sign of `x`
    /// kept (`-0.0` for `-0.5 <= x <= -0.0`); other lanes are garbage
    /// (`Fv::round_ties_even` keeps them as they are). Adding and
    /// subtracting 2^23 to `|x|` rounds it to a whole number, ties to
    /// even, in the default rounding mode, exactly.
    #[inline(always)]
    fn round_small(self) -> __m128 {
        let ax = self.abs().0;
        let two23 = sse!(_mm_set1_ps(8_388_608.0));
        let r = sse!(_mm_sub_ps(_mm_add_ps(ax, two23), two23));
        sse!(_mm_or_ps(r, self.sign()))
    }

    /// Lanes with `|x| < 2^23` (false for NaN): the ones a rounding
    /// changes; every f32 from 2^23 up is a whole number already.
    #[inline(always)]
    fn small(self) -> Mx {
        self.abs().lt(Fx(sse!(_mm_set1_ps(8_388_608.0))))
    }
}

impl Ix {
    /// The lanes as an array.
    #[inline(always)]
    fn lanes(self) -> [i32; 4] {
        let mut a = [0i32; 4];
        self.write(&mut a);
        a
    }

    /// Lanes from an array.
    #[inline(always)]
    fn of(a: [i32; 4]) -> Ix {
        Ix(sse!(_mm_setr_epi32(a[0], a[1], a[2], a[3])))
    }

    /// `self > o` per lane (signed).
    #[inline(always)]
    fn gt(self, o: Ix) -> __m128i {
        sse!(_mm_cmpgt_epi32(self.0, o.0))
    }
}

/// `m ? a : b` per bit.
#[inline(always)]
fn blend_i(m: __m128i, a: __m128i, b: __m128i) -> __m128i {
    sse!(_mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b)))
}

impl Lanes for Sse2 {
    const N: usize = 4;
    type F = Fx;
    type I = Ix;
    type M = Mx;
    #[inline(always)]
    fn f(self, v: f32) -> Fx {
        Fx(sse!(_mm_set1_ps(v)))
    }
    #[inline(always)]
    fn i(self, v: i32) -> Ix {
        Ix(sse!(_mm_set1_epi32(v)))
    }
    #[inline(always)]
    fn m(self, v: bool) -> Mx {
        Mx(sse!(_mm_set1_epi32(-i32::from(v))))
    }
    #[inline(always)]
    fn load(self, s: &[f32]) -> Fx {
        let s = &s[..4];
        // SAFETY: `s` holds 4 f32s (the slice above), the 16 bytes the
        // unaligned load reads; SSE is part of the x86-64 baseline.
        Fx(unsafe { _mm_loadu_ps(s.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, v: Fx, s: &mut [f32]) {
        let s = &mut s[..4];
        // SAFETY: `s` holds 4 f32s, the 16 bytes the unaligned store
        // writes; SSE is part of the x86-64 baseline.
        unsafe { _mm_storeu_ps(s.as_mut_ptr(), v.0) }
    }
    #[inline(always)]
    fn load_i(self, s: &[i32]) -> Ix {
        let s = &s[..4];
        // SAFETY: `s` holds 4 i32s, the 16 bytes the unaligned load
        // reads; SSE2 is part of the x86-64 baseline.
        Ix(unsafe { _mm_loadu_si128(s.as_ptr().cast()) })
    }
    #[inline(always)]
    fn words(self, bytes: &[u8], offs: Ix) -> Ix {
        Ix::of(super::words::load_words(bytes, 0, &offs.lanes()).map(|w| w as i32))
    }
    #[inline(always)]
    fn srgb(self, codes: Ix) -> Fx {
        let table = quadtex_format::texel::srgb8_table();
        Fx::of(codes.lanes().map(|c| table[(c & 0xff) as usize]))
    }
    #[inline(always)]
    fn lookup16(self, table: [u8; 16], idx: Ix) -> Ix {
        Ix::of(idx.lanes().map(|i| i32::from(table[(i & 15) as usize])))
    }
    #[inline(always)]
    fn table16(self, table: &[f32; 16], idx: Ix) -> Fx {
        Fx::of(idx.lanes().map(|i| table[(i & 15) as usize]))
    }
    #[inline(always)]
    fn quads_lane(self, v: &[Fx; 4], l: usize) -> Fx {
        // One quad per vector: quad `q`'s lane `l` is vector `q`'s.
        let l = l & 3;
        Fx::of([
            v[0].lanes()[l],
            v[1].lanes()[l],
            v[2].lanes()[l],
            v[3].lanes()[l],
        ])
    }
    #[inline(always)]
    fn spread(self, x: Fx, k: usize) -> Fx {
        // One quad per vector: every lane gets quad `k`'s value.
        self.f(x.lanes()[k & 3])
    }
    #[inline(always)]
    fn spread_i(self, x: Ix, k: usize) -> Ix {
        self.i(x.lanes()[k & 3])
    }
    #[inline(always)]
    fn quad_perm(self, x: Fx, p: [u8; 4]) -> Fx {
        let a = x.lanes();
        Fx::of(p.map(|k| a[usize::from(k & 3)]))
    }
}

impl Fv for Fx {
    type I = Ix;
    type M = Mx;
    #[inline(always)]
    fn floor(self) -> Fx {
        // The nearest whole number, less one where it lies above `x`; the
        // sign of `x` kept so that a zero result has it (`floor(-0.0)`).
        let r = Fx(self.round_small());
        let down = Fx(sse!(_mm_and_ps(
            _mm_cmpgt_ps(r.0, self.0),
            _mm_set1_ps(1.0)
        )));
        let f = Fx(sse!(_mm_or_ps((r - down).0, self.sign())));
        self.small().select(f, self)
    }
    #[inline(always)]
    fn ceil(self) -> Fx {
        // The nearest whole number, plus one where it lies below `x`; the
        // sign of `x` kept (`ceil(-0.7)` is `-0.0`).
        let r = Fx(self.round_small());
        let up = Fx(sse!(_mm_and_ps(
            _mm_cmplt_ps(r.0, self.0),
            _mm_set1_ps(1.0)
        )));
        let c = Fx(sse!(_mm_or_ps((r + up).0, self.sign())));
        self.small().select(c, self)
    }
    #[inline(always)]
    fn round_ties_even(self) -> Fx {
        self.small().select(Fx(self.round_small()), self)
    }
    #[inline(always)]
    fn sqrt(self) -> Fx {
        Fx(sse!(_mm_sqrt_ps(self.0)))
    }
    #[inline(always)]
    fn abs(self) -> Fx {
        Fx(sse!(_mm_andnot_ps(_mm_set1_ps(-0.0), self.0)))
    }
    #[inline(always)]
    fn max(self, o: Fx) -> Fx {
        // LLVM's lowering of `f32::max` (as the AVX2 level's): `maxps(o,
        // self)`, then `o` where `self` is NaN.
        let m = Fx(sse!(_mm_max_ps(o.0, self.0)));
        self.is_nan().select(o, m)
    }
    #[inline(always)]
    fn min(self, o: Fx) -> Fx {
        let m = Fx(sse!(_mm_min_ps(o.0, self.0)));
        self.is_nan().select(o, m)
    }
    #[inline(always)]
    fn max_num(self, o: Fx) -> Fx {
        Fx(sse!(_mm_max_ps(o.0, self.0)))
    }
    #[inline(always)]
    fn min_num(self, o: Fx) -> Fx {
        Fx(sse!(_mm_min_ps(o.0, self.0)))
    }
    #[inline(always)]
    fn div(self, o: Fx) -> Fx {
        Fx(sse!(_mm_div_ps(self.0, o.0)))
    }
    #[inline(always)]
    fn div255(self, shift: i32) -> Fx {
        // The division itself (no FMA at this level for the AVX2 level's
        // corrected reciprocal).
        let d = 255.0 * crate::lanes::pow2(shift);
        Fx(sse!(_mm_div_ps(self.0, _mm_set1_ps(d))))
    }
    #[inline(always)]
    fn mul_add_exact(self, b: Fx, c: Fx) -> Fx {
        self * b + c
    }
    #[inline(always)]
    fn lt(self, o: Fx) -> Mx {
        Mx(sse!(_mm_castps_si128(_mm_cmplt_ps(self.0, o.0))))
    }
    #[inline(always)]
    fn le(self, o: Fx) -> Mx {
        Mx(sse!(_mm_castps_si128(_mm_cmple_ps(self.0, o.0))))
    }
    #[inline(always)]
    fn gt(self, o: Fx) -> Mx {
        o.lt(self)
    }
    #[inline(always)]
    fn eq(self, o: Fx) -> Mx {
        Mx(sse!(_mm_castps_si128(_mm_cmpeq_ps(self.0, o.0))))
    }
    #[inline(always)]
    fn is_nan(self) -> Mx {
        Mx(sse!(_mm_castps_si128(_mm_cmpunord_ps(self.0, self.0))))
    }
    #[inline(always)]
    fn is_finite(self) -> Mx {
        self.abs().lt(Fx(sse!(_mm_set1_ps(f32::INFINITY))))
    }
    #[inline(always)]
    fn to_i32(self) -> Ix {
        Ix(sse!(_mm_cvttps_epi32(self.0)))
    }
    #[inline(always)]
    fn to_bits(self) -> Ix {
        Ix(sse!(_mm_castps_si128(self.0)))
    }
}

impl Iv for Ix {
    type F = Fx;
    type M = Mx;
    #[inline(always)]
    fn to_f32(self) -> Fx {
        Fx(sse!(_mm_cvtepi32_ps(self.0)))
    }
    #[inline(always)]
    fn as_f32_bits(self) -> Fx {
        Fx(sse!(_mm_castsi128_ps(self.0)))
    }
    #[inline(always)]
    fn shr(self, k: i32) -> Ix {
        Ix(sse!(_mm_sra_epi32(self.0, _mm_cvtsi32_si128(k))))
    }
    #[inline(always)]
    fn shl(self, k: i32) -> Ix {
        Ix(sse!(_mm_sll_epi32(self.0, _mm_cvtsi32_si128(k))))
    }
    #[inline(always)]
    fn shr_u(self, k: i32) -> Ix {
        Ix(sse!(_mm_srl_epi32(self.0, _mm_cvtsi32_si128(k))))
    }
    #[inline(always)]
    fn mul_lo16(self, o: Ix) -> Ix {
        Ix(sse!(_mm_mullo_epi16(self.0, o.0)))
    }
    #[inline(always)]
    fn max(self, o: Ix) -> Ix {
        Ix(blend_i(self.gt(o), self.0, o.0))
    }
    #[inline(always)]
    fn min(self, o: Ix) -> Ix {
        Ix(blend_i(self.gt(o), o.0, self.0))
    }
    #[inline(always)]
    fn uniform(self) -> Option<i32> {
        let first = sse!(_mm_shuffle_epi32::<0>(self.0));
        let same = sse!(_mm_movemask_epi8(_mm_cmpeq_epi32(self.0, first)));
        (same == 0xffff).then(|| sse!(_mm_cvtsi128_si32(self.0)))
    }
    #[inline(always)]
    fn unorm8(self) -> Fx {
        // `code / 255` by the division itself, as the scalar code.
        let c = sse!(_mm_cvtepi32_ps(_mm_and_si128(self.0, _mm_set1_epi32(0xff))));
        Fx(sse!(_mm_div_ps(c, _mm_set1_ps(255.0))))
    }
    #[inline(always)]
    fn write(self, out: &mut [i32]) {
        let out = &mut out[..4];
        // SAFETY: `out` holds 4 i32s, the 16 bytes the unaligned store
        // writes; SSE2 is part of the x86-64 baseline.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn nonzero(self) -> Mx {
        let z = sse!(_mm_cmpeq_epi32(self.0, _mm_setzero_si128()));
        Mx(sse!(_mm_xor_si128(z, _mm_set1_epi32(-1))))
    }
    #[inline(always)]
    fn f16_lo(self) -> Fx {
        Fx::of(
            self.lanes()
                .map(|x| half::f16::from_bits(x as u16).to_f32()),
        )
    }
    #[inline(always)]
    fn f16_hi(self) -> Fx {
        Fx::of(
            self.lanes()
                .map(|x| half::f16::from_bits((x as u32 >> 16) as u16).to_f32()),
        )
    }
}

impl Mv for Mx {
    type F = Fx;
    type I = Ix;
    #[inline(always)]
    fn select(self, a: Fx, b: Fx) -> Fx {
        Fx(sse!(_mm_castsi128_ps(blend_i(
            self.0,
            _mm_castps_si128(a.0),
            _mm_castps_si128(b.0)
        ))))
    }
    #[inline(always)]
    fn not(self) -> Mx {
        Mx(sse!(_mm_xor_si128(self.0, _mm_set1_epi32(-1))))
    }
    #[inline(always)]
    fn all(self) -> bool {
        sse!(_mm_movemask_ps(_mm_castsi128_ps(self.0))) == 0xf
    }
    #[inline(always)]
    fn to_i32(self) -> Ix {
        Ix(self.0)
    }
}

impl Add for Fx {
    type Output = Fx;
    #[inline(always)]
    fn add(self, o: Fx) -> Fx {
        Fx(sse!(_mm_add_ps(self.0, o.0)))
    }
}

impl Sub for Fx {
    type Output = Fx;
    #[inline(always)]
    fn sub(self, o: Fx) -> Fx {
        Fx(sse!(_mm_sub_ps(self.0, o.0)))
    }
}

impl Mul for Fx {
    type Output = Fx;
    #[inline(always)]
    fn mul(self, o: Fx) -> Fx {
        Fx(sse!(_mm_mul_ps(self.0, o.0)))
    }
}

impl Add for Ix {
    type Output = Ix;
    #[inline(always)]
    fn add(self, o: Ix) -> Ix {
        Ix(sse!(_mm_add_epi32(self.0, o.0)))
    }
}

impl Sub for Ix {
    type Output = Ix;
    #[inline(always)]
    fn sub(self, o: Ix) -> Ix {
        Ix(sse!(_mm_sub_epi32(self.0, o.0)))
    }
}

impl Mul for Ix {
    type Output = Ix;
    /// The low 32 bits of each product (`wrapping_mul`): SSE2 multiplies
    /// the even lanes to 64 bits, then the odd ones shifted down, and the
    /// low words are interleaved back.
    #[inline(always)]
    fn mul(self, o: Ix) -> Ix {
        let even = sse!(_mm_mul_epu32(self.0, o.0));
        let odd = sse!(_mm_mul_epu32(
            _mm_srli_epi64::<32>(self.0),
            _mm_srli_epi64::<32>(o.0)
        ));
        let even = sse!(_mm_shuffle_epi32::<0b00_00_10_00>(even));
        let odd = sse!(_mm_shuffle_epi32::<0b00_00_10_00>(odd));
        Ix(sse!(_mm_unpacklo_epi32(even, odd)))
    }
}

impl BitAnd for Ix {
    type Output = Ix;
    #[inline(always)]
    fn bitand(self, o: Ix) -> Ix {
        Ix(sse!(_mm_and_si128(self.0, o.0)))
    }
}

impl BitOr for Ix {
    type Output = Ix;
    #[inline(always)]
    fn bitor(self, o: Ix) -> Ix {
        Ix(sse!(_mm_or_si128(self.0, o.0)))
    }
}

impl BitAnd for Mx {
    type Output = Mx;
    #[inline(always)]
    fn bitand(self, o: Mx) -> Mx {
        Mx(sse!(_mm_and_si128(self.0, o.0)))
    }
}

impl BitOr for Mx {
    type Output = Mx;
    #[inline(always)]
    fn bitor(self, o: Mx) -> Mx {
        Mx(sse!(_mm_or_si128(self.0, o.0)))
    }
}
