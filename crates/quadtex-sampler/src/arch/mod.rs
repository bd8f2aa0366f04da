//! The crate's one `unsafe` module: the run-time SIMD level switch
//! ([`run_at`], calling functions compiled for CPU features that
//! [`crate::cpu::SimdLevel::detect`] found), word loads after one bounds
//! check ([`words::load_words`]), and the x86 lane vectors of the planar
//! kernel: SSE2 for the baseline levels ([`sse2`]), AVX2 and AVX-512
//! ([`x86`]).
//!
//! Every word load here has a safe twin ([`load_u32_scalar`]) that it
//! must equal, and checks the bounds of every lane itself before it
//! reads, so its safety rests on no caller.

// The crate denies `unsafe_code` everywhere but here.
#![allow(unsafe_code)]

use crate::lanes::Lanes;
#[cfg(not(target_arch = "x86_64"))]
use crate::lanes::Portable;

#[cfg(target_arch = "x86_64")]
pub(crate) mod sse2;
pub(crate) mod words;
pub(crate) use words::load_u32_scalar;

/// `1/255` as the sum of two f32s (`hi` the nearest f32, `lo` the nearest
/// to the rest) for the lane vectors' exact UNORM8 decode.
#[cfg(target_arch = "x86_64")]
const UNORM8_HI: f32 = 1.0 / 255.0;
/// See [`UNORM8_HI`].
#[cfg(target_arch = "x86_64")]
const UNORM8_LO: f32 = (1.0f64 / 255.0 - UNORM8_HI as f64) as f32;

/// A computation compiled once per SIMD level: [`run_at`] calls `run` with
/// the level's lane token from a function built for the level's target
/// features. Everything `run` calls must be `#[inline(always)]` to be
/// compiled with those features.
pub(crate) trait LaneKernel {
    /// The result.
    type Out;
    /// The computation on the lanes of `l`.
    fn run<L: Lanes>(self, l: L) -> Self::Out;
}

/// Runs `k` at `level` when this CPU has it, else at the best level below
/// that it has (so a level forced too high cannot fault). On x86-64 the
/// two lowest levels, [`crate::cpu::SimdLevel::Portable`] and
/// [`crate::cpu::SimdLevel::Sse2`], both run the SSE2 vectors
/// ([`sse2::Sse2`]); elsewhere every level runs [`Portable`]`<4>`.
#[inline]
pub(crate) fn run_at<K: LaneKernel>(level: crate::cpu::SimdLevel, k: K) -> K::Out {
    #[cfg(debug_assertions)]
    {
        // Unoptimized (a debug build of an application), every local of
        // every function inlined into a kernel keeps a stack slot of its
        // own: a kernel's frame is 0.5 to 3.3 MiB, past the 2 MiB a
        // thread gets by default. `stacker` runs the kernel on a fresh
        // stack segment when less than that is left; optimized builds
        // need a few KiB and do not take this path.
        stacker::maybe_grow(DEBUG_RED_ZONE, DEBUG_STACK, || run_here(level, k))
    }
    #[cfg(not(debug_assertions))]
    {
        run_here(level, k)
    }
}

/// The stack an unoptimized kernel call needs left ([`run_at`]): 8 MiB,
/// twice the 4 MiB that held the largest kernel frame measured (3.3 MiB,
/// AVX-512) until the anisotropic kernel grew past it.
#[cfg(debug_assertions)]
const DEBUG_RED_ZONE: usize = 8 << 20;

/// The stack segment an unoptimized kernel call runs on when less than
/// [`DEBUG_RED_ZONE`] is left: 16 MiB.
#[cfg(debug_assertions)]
const DEBUG_STACK: usize = 16 << 20;

/// [`run_at`] on the current stack.
#[inline]
fn run_here<K: LaneKernel>(level: crate::cpu::SimdLevel, k: K) -> K::Out {
    #[cfg(target_arch = "x86_64")]
    {
        run_with_loads(level, scalar_words(), k)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = level;
        k.run(Portable::<4>)
    }
}

/// [`run_at`] with the x86 levels' texel words and sRGB look-ups read by
/// scalar loads (`scalar`) or by hardware gathers, whatever this CPU's
/// default ([`scalar_words`]).
#[cfg(target_arch = "x86_64")]
#[inline]
fn run_with_loads<K: LaneKernel>(level: crate::cpu::SimdLevel, scalar: bool, k: K) -> K::Out {
    use crate::cpu::SimdLevel;
    let best = detected();
    if level >= SimdLevel::Avx512 && best >= SimdLevel::Avx512 {
        // SAFETY: `detected` found AVX-512 F/BW/DQ/VL, AVX2, FMA, BMI1/2,
        // F16C, LZCNT and POPCNT on this CPU (`SimdLevel::detect`), every
        // feature `avx512` is compiled for.
        return unsafe { avx512(k, scalar) };
    }
    if level >= SimdLevel::Avx2 && best >= SimdLevel::Avx2 {
        // SAFETY: `detected` found AVX2, FMA, BMI1/2, F16C, LZCNT and
        // POPCNT on this CPU, the features `avx2` is compiled for.
        return unsafe { avx2(k, scalar) };
    }
    k.run(sse2::Sse2)
}

/// Whether the AVX2 and AVX-512 levels read texel words and sRGB table
/// entries with scalar loads rather than `vpgatherdd` / `vgatherdps`: on
/// AMD CPUs, whose cores microcode the gathers, unless
/// `QUADTEX_TEXEL_LOADS` says `gather` (or `scalar` elsewhere). Measured
/// with alternating runs of `quadtex profile`: on a Zen 3 (AVX2) nearest
/// and trilinear ran about 8% and 15% slower with the word gather and
/// `--format rgba8_srgb` about 10% slower with the table gather; on a Zen
/// 4 at AVX-512 the sixteen-lane gathers lost by 2-8% on every workload
/// (nearest, bilinear, trilinear, cube, sRGB, gather, PCF, aniso16, both
/// precision profiles: `README.md`, "Texel loads"); at AVX2 on the Zen 4
/// the two were even. Both read the same values.
#[cfg(target_arch = "x86_64")]
fn scalar_words() -> bool {
    static SCALAR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SCALAR.get_or_init(|| {
        match std::env::var("QUADTEX_TEXEL_LOADS").as_deref() {
            Ok("gather") => return false,
            Ok("scalar") => return true,
            _ => {}
        }
        // CPUID leaf 0: the vendor string in EBX, EDX, ECX.
        let r = std::arch::x86_64::__cpuid(0);
        [r.ebx, r.edx, r.ecx] == [*b"Auth", *b"enti", *b"cAMD"].map(u32::from_le_bytes)
    })
}

/// [`scalar_words`] where the kernels are x86 ones (`cpu::texel_loads`).
pub(crate) fn scalar_texel_loads() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        scalar_words()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// [`crate::cpu::SimdLevel::detect`], once.
#[cfg(target_arch = "x86_64")]
fn detected() -> crate::cpu::SimdLevel {
    static BEST: std::sync::OnceLock<crate::cpu::SimdLevel> = std::sync::OnceLock::new();
    *BEST.get_or_init(crate::cpu::SimdLevel::detect)
}

// `#[inline]`: compiled in the code-generation unit of each caller
// rather than all in this module's, so that the kernels spread over the
// units (`planar::homes`). (The call itself cannot be inlined: the
// caller lacks these features.)
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,f16c,lzcnt,popcnt"
)]
fn avx512<K: LaneKernel>(k: K, scalar: bool) -> K::Out {
    k.run(x86::Avx512(scalar))
}

/// See `avx512` on `#[inline]`.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,f16c,lzcnt,popcnt")]
fn avx2<K: LaneKernel>(k: K, scalar: bool) -> K::Out {
    k.run(x86::Avx2(scalar))
}

/// AVX2 and AVX-512 lane vectors: eight and sixteen lanes, one instruction
/// per operation.
///
/// Soundness rests on one rule: an [`x86::Avx2`] token is made only in
/// `avx2` above, which runs only after `run_at` detected AVX2 on this CPU,
/// and an [`x86::Avx512`] token only in `avx512`, after AVX-512 F/BW/DQ/VL
/// were detected; a vector exists only if made by a token's methods or by
/// operations on other vectors. So wherever any of these operations runs,
/// the CPU has AVX2, and every intrinsic below is one it executes (each
/// `unsafe` block says so through `avx!`). Memory is touched only by
/// `load`/`store` on checked slices and by gathers whose every address was
/// checked first.
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use std::arch::x86_64::*;
    use std::ops::{Add, BitAnd, BitOr, Mul, Sub};

    use crate::lanes::{Fv, Iv, Lanes, Mv};

    /// An intrinsic call on values that exist only where the CPU has the
    /// instructions of their type (see the module documentation).
    macro_rules! avx {
        ($e:expr) => {
            // SAFETY: the module's rule: this code runs only where the
            // token of its vectors' level was made (`Avx2` for the 256-bit
            // ones, `Avx512` for the 512-bit ones), i.e. after that level
            // was detected on this CPU; the intrinsic reads and writes
            // registers only.
            unsafe { $e }
        };
    }

    /// Sixteen bytes as one 128-bit vector (SSE2, part of every x86-64).
    #[inline(always)]
    fn table16(t: [u8; 16]) -> __m128i {
        let lo = i64::from_le_bytes([t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]]);
        let hi = i64::from_le_bytes([t[8], t[9], t[10], t[11], t[12], t[13], t[14], t[15]]);
        // SAFETY: SSE2 is part of the x86-64 baseline; the intrinsic
        // reads and writes registers only.
        unsafe { _mm_set_epi64x(hi, lo) }
    }

    /// The AVX2 level's token (made only by `arch::avx2`), with whether
    /// its texel words and sRGB table look-ups are read by scalar loads
    /// (`super::scalar_words`, looked up once per run rather than once
    /// per load).
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Avx2(pub(super) bool);

    /// Eight f32 lanes.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Fy(__m256);

    /// Eight i32 lanes.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Iy(__m256i);

    /// Eight lane conditions (all ones or zero).
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct My(__m256i);

    impl Lanes for Avx2 {
        const N: usize = 8;
        type F = Fy;
        type I = Iy;
        type M = My;
        #[inline(always)]
        fn f(self, v: f32) -> Fy {
            Fy(avx!(_mm256_set1_ps(v)))
        }
        #[inline(always)]
        fn i(self, v: i32) -> Iy {
            Iy(avx!(_mm256_set1_epi32(v)))
        }
        #[inline(always)]
        fn m(self, v: bool) -> My {
            My(avx!(_mm256_set1_epi32(-i32::from(v))))
        }
        #[inline(always)]
        fn load(self, s: &[f32]) -> Fy {
            let s = &s[..8];
            // SAFETY: `s` holds 8 f32s (the slice above), the 32 bytes the
            // unaligned load reads; AVX2 as in the module's rule.
            Fy(unsafe { _mm256_loadu_ps(s.as_ptr()) })
        }
        #[inline(always)]
        fn store(self, v: Fy, s: &mut [f32]) {
            let s = &mut s[..8];
            // SAFETY: `s` holds 8 f32s, the 32 bytes the unaligned store
            // writes; AVX2 as in the module's rule.
            unsafe { _mm256_storeu_ps(s.as_mut_ptr(), v.0) }
        }
        #[inline(always)]
        fn load_i(self, s: &[i32]) -> Iy {
            let s = &s[..8];
            // SAFETY: `s` holds 8 i32s, the 32 bytes the unaligned load
            // reads; AVX2 as in the module's rule.
            Iy(unsafe { _mm256_loadu_si256(s.as_ptr().cast()) })
        }
        #[inline(always)]
        fn words(self, bytes: &[u8], offs: Iy) -> Iy {
            {
                if inside_y(bytes, 4, offs.0) {
                    if self.0 {
                        let q = pairs_y(offs.0);
                        let p = bytes.as_ptr();
                        // SAFETY: every lane's offset `lane(&q, k)` is in
                        // `0..=last`, `last = bytes.len() - 4` (the unsigned
                        // compare just above found no lane past `last`), so
                        // each 4-byte read lies inside `bytes`;
                        // `read_unaligned` needs no alignment.
                        let w = |k: usize| unsafe {
                            p.add(lane(&q, k) as usize).cast::<i32>().read_unaligned()
                        };
                        return Iy(avx!(_mm256_setr_epi32(
                            w(0),
                            w(1),
                            w(2),
                            w(3),
                            w(4),
                            w(5),
                            w(6),
                            w(7)
                        )));
                    }
                    // SAFETY: every lane's offset `o` has `0 <= o <= last =
                    // bytes.len() - 4` (the unsigned compare just above
                    // found no lane past `last`), so each gathered 4-byte
                    // read lies inside `bytes`; gathers need no alignment;
                    // AVX2 as in the module's rule.
                    return Iy(unsafe {
                        _mm256_i32gather_epi32::<1>(bytes.as_ptr().cast(), offs.0)
                    });
                }
            }
            let mut o = [0i32; 8];
            offs.write(&mut o);
            self.load_i(&super::load_u32_scalar(bytes, 0, o))
        }
        #[inline(always)]
        fn words2(self, bytes: &[u8], offs: Iy) -> (Iy, Iy) {
            {
                if inside_y(bytes, 8, offs.0) {
                    // Lanes 0..4 and 4..8 as 64-bit pairs (the word at
                    // `offs` low, the next high).
                    let (a, b) = if self.0 {
                        let q = pairs_y(offs.0);
                        let p = bytes.as_ptr();
                        // SAFETY: every lane's offset `lane(&q, k)` is in
                        // `0..=last`, `last = bytes.len() - 8` (the
                        // unsigned compare above found no lane past it), so
                        // each 8-byte read lies inside `bytes`;
                        // `read_unaligned` needs no alignment.
                        let w = |k: usize| unsafe {
                            p.add(lane(&q, k) as usize).cast::<i64>().read_unaligned()
                        };
                        (
                            avx!(_mm256_setr_epi64x(w(0), w(1), w(2), w(3))),
                            avx!(_mm256_setr_epi64x(w(4), w(5), w(6), w(7))),
                        )
                    } else {
                        let p = bytes.as_ptr().cast::<i64>();
                        // SAFETY: as for the scalar reads: every lane's
                        // 8 bytes lie inside `bytes`; gathers need no
                        // alignment; AVX2 as in the module's rule.
                        unsafe {
                            (
                                _mm256_i32gather_epi64::<1>(p, _mm256_castsi256_si128(offs.0)),
                                _mm256_i32gather_epi64::<1>(
                                    p,
                                    _mm256_extracti128_si256::<1>(offs.0),
                                ),
                            )
                        }
                    };
                    // Even words of (a, b) per 128-bit half, then the
                    // halves' middle quarters swapped into lane order.
                    let (fa, fb) = avx!((_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)));
                    let lo = avx!(_mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(
                        fa, fb
                    )));
                    let hi = avx!(_mm256_castps_si256(_mm256_shuffle_ps::<0b11_01_11_01>(
                        fa, fb
                    )));
                    return (
                        Iy(avx!(_mm256_permute4x64_epi64::<0b11_01_10_00>(lo))),
                        Iy(avx!(_mm256_permute4x64_epi64::<0b11_01_10_00>(hi))),
                    );
                }
            }
            (self.words(bytes, offs), self.words(bytes, offs + self.i(4)))
        }
        #[inline(always)]
        fn srgb(self, codes: Iy) -> Fy {
            let table = quadtex_format::texel::srgb8_table();
            if self.0 {
                // Eight scalar loads where the gather is microcoded, as
                // for texel words (`super::scalar_words`); the same values.
                let q = pairs_y(codes.0);
                // (Masked to 0..=255: always inside the 256-entry table.)
                let t = |k: usize| table[(lane(&q, k) & 0xff) as usize];
                return Fy(avx!(_mm256_setr_ps(
                    t(0),
                    t(1),
                    t(2),
                    t(3),
                    t(4),
                    t(5),
                    t(6),
                    t(7)
                )));
            }
            let idx = codes & self.i(0xff);
            // SAFETY: every index is in 0..=255 (masked above) and the
            // table holds 256 f32s, so each gathered read lies inside it;
            // AVX2 as in the module's rule.
            Fy(unsafe { _mm256_i32gather_ps::<4>(table.as_ptr(), idx.0) })
        }
        #[inline(always)]
        fn lookup16(self, table: [u8; 16], idx: Iy) -> Iy {
            // `vpshufb` in each 128-bit half: byte 0 of a lane picks
            // `table[idx & 15]`, its other bytes (index bit 7 set) zero.
            let t = avx!(_mm256_broadcastsi128_si256(table16(table)));
            let k = (idx & self.i(15)) | self.i(0x8080_8000_u32 as i32);
            Iy(avx!(_mm256_shuffle_epi8(t, k.0)))
        }
        #[inline(always)]
        fn table16(self, table: &[f32; 16], idx: Iy) -> Fy {
            // One `vpermps` per half of the table, then a blend on index
            // bit 3 (moved to the sign bit).
            let (lo, hi) = (self.load(&table[..8]), self.load(&table[8..]));
            let a = avx!(_mm256_permutevar8x32_ps(lo.0, idx.0));
            let b = avx!(_mm256_permutevar8x32_ps(hi.0, idx.0));
            let sel = avx!(_mm256_castsi256_ps(_mm256_slli_epi32::<28>(idx.0)));
            Fy(avx!(_mm256_blendv_ps(a, b, sel)))
        }
        #[inline(always)]
        fn quads_lane(self, v: &[Fy; 4], l: usize) -> Fy {
            // Each vector's two quads' lane `l` to lanes `2k, 2k + 1`.
            let l = l as i32 & 3;
            let p = |k: usize| {
                let idx = avx!(_mm256_setr_epi32(l, l + 4, l, l + 4, l, l + 4, l, l + 4));
                avx!(_mm256_permutevar8x32_ps(v[k].0, idx))
            };
            let r = avx!(_mm256_blend_ps::<0b0000_1100>(p(0), p(1)));
            let r = avx!(_mm256_blend_ps::<0b0011_0000>(r, p(2)));
            Fy(avx!(_mm256_blend_ps::<0b1100_0000>(r, p(3))))
        }
        #[inline(always)]
        fn spread(self, x: Fy, k: usize) -> Fy {
            let q = 2 * (k as i32 & 3);
            let idx = avx!(_mm256_setr_epi32(q, q, q, q, q + 1, q + 1, q + 1, q + 1));
            Fy(avx!(_mm256_permutevar8x32_ps(x.0, idx)))
        }
        #[inline(always)]
        fn spread_i(self, x: Iy, k: usize) -> Iy {
            let q = 2 * (k as i32 & 3);
            let idx = avx!(_mm256_setr_epi32(q, q, q, q, q + 1, q + 1, q + 1, q + 1));
            Iy(avx!(_mm256_permutevar8x32_epi32(x.0, idx)))
        }
        #[inline(always)]
        fn quad_perm(self, x: Fy, p: [u8; 4]) -> Fy {
            // A quad is one 128-bit half: `vpermilps` permutes within it.
            let (a, b, c, d) = (
                i32::from(p[0] & 3),
                i32::from(p[1] & 3),
                i32::from(p[2] & 3),
                i32::from(p[3] & 3),
            );
            let idx = avx!(_mm256_setr_epi32(a, b, c, d, a, b, c, d));
            Fy(avx!(_mm256_permutevar_ps(x.0, idx)))
        }
    }

    impl Fy {
        #[inline(always)]
        fn cmp<const P: i32>(self, o: Fy) -> My {
            My(avx!(_mm256_castps_si256(_mm256_cmp_ps::<P>(self.0, o.0))))
        }
    }

    impl Fv for Fy {
        type I = Iy;
        type M = My;
        #[inline(always)]
        fn floor(self) -> Fy {
            Fy(avx!(_mm256_round_ps::<
                { _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC },
            >(self.0)))
        }
        #[inline(always)]
        fn ceil(self) -> Fy {
            Fy(avx!(_mm256_round_ps::<
                { _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC },
            >(self.0)))
        }
        #[inline(always)]
        fn round_ties_even(self) -> Fy {
            Fy(avx!(_mm256_round_ps::<
                { _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC },
            >(self.0)))
        }
        #[inline(always)]
        fn sqrt(self) -> Fy {
            Fy(avx!(_mm256_sqrt_ps(self.0)))
        }
        #[inline(always)]
        fn abs(self) -> Fy {
            Fy(avx!(_mm256_castsi256_ps(_mm256_and_si256(
                _mm256_castps_si256(self.0),
                _mm256_set1_epi32(0x7fff_ffff)
            ))))
        }
        #[inline(always)]
        fn max(self, o: Fy) -> Fy {
            // LLVM's own lowering of `f32::max`: `maxps(o, self)` (which
            // gives its second operand, `self`, for a NaN `o` and for equal
            // zeros), then `o` where `self` is NaN.
            let m = Fy(avx!(_mm256_max_ps(o.0, self.0)));
            self.is_nan().select(o, m)
        }
        #[inline(always)]
        fn min(self, o: Fy) -> Fy {
            let m = Fy(avx!(_mm256_min_ps(o.0, self.0)));
            self.is_nan().select(o, m)
        }
        #[inline(always)]
        fn max_num(self, o: Fy) -> Fy {
            // `max` without the fix-up for a NaN `self`.
            Fy(avx!(_mm256_max_ps(o.0, self.0)))
        }
        #[inline(always)]
        fn min_num(self, o: Fy) -> Fy {
            Fy(avx!(_mm256_min_ps(o.0, self.0)))
        }
        #[inline(always)]
        fn div(self, o: Fy) -> Fy {
            Fy(avx!(_mm256_div_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn div255(self, shift: i32) -> Fy {
            // As `Iy::unorm8`: the reciprocal corrected once by its exact
            // residual, correctly rounded for every integer below 2^24.
            // The reciprocal and the divisor scaled by `2^-shift` and
            // `2^shift` (exact: no result is subnormal) give the quotient
            // times `2^-shift` with no multiply of its own.
            let s = crate::lanes::pow2(shift);
            let r = avx!(_mm256_set1_ps(1.0 / 255.0 * crate::lanes::pow2(-shift)));
            let q = avx!(_mm256_mul_ps(self.0, r));
            let e = avx!(_mm256_fnmadd_ps(q, _mm256_set1_ps(255.0 * s), self.0));
            Fy(avx!(_mm256_fmadd_ps(e, r, q)))
        }
        #[inline(always)]
        fn mul_add_exact(self, b: Fy, c: Fy) -> Fy {
            Fy(avx!(_mm256_fmadd_ps(self.0, b.0, c.0)))
        }
        #[inline(always)]
        fn lt(self, o: Fy) -> My {
            self.cmp::<_CMP_LT_OQ>(o)
        }
        #[inline(always)]
        fn le(self, o: Fy) -> My {
            self.cmp::<_CMP_LE_OQ>(o)
        }
        #[inline(always)]
        fn gt(self, o: Fy) -> My {
            self.cmp::<_CMP_GT_OQ>(o)
        }
        #[inline(always)]
        fn eq(self, o: Fy) -> My {
            self.cmp::<_CMP_EQ_OQ>(o)
        }
        #[inline(always)]
        fn is_nan(self) -> My {
            self.cmp::<_CMP_UNORD_Q>(self)
        }
        #[inline(always)]
        fn is_finite(self) -> My {
            let inf = Fy(avx!(_mm256_set1_ps(f32::INFINITY)));
            self.abs().lt(inf)
        }
        #[inline(always)]
        fn to_i32(self) -> Iy {
            Iy(avx!(_mm256_cvttps_epi32(self.0)))
        }
        #[inline(always)]
        fn to_bits(self) -> Iy {
            Iy(avx!(_mm256_castps_si256(self.0)))
        }
    }

    impl Iv for Iy {
        type F = Fy;
        type M = My;
        #[inline(always)]
        fn to_f32(self) -> Fy {
            Fy(avx!(_mm256_cvtepi32_ps(self.0)))
        }
        #[inline(always)]
        fn as_f32_bits(self) -> Fy {
            Fy(avx!(_mm256_castsi256_ps(self.0)))
        }
        #[inline(always)]
        fn shr(self, k: i32) -> Iy {
            Iy(avx!(_mm256_sra_epi32(self.0, _mm_cvtsi32_si128(k))))
        }
        #[inline(always)]
        fn shl(self, k: i32) -> Iy {
            Iy(avx!(_mm256_sll_epi32(self.0, _mm_cvtsi32_si128(k))))
        }
        #[inline(always)]
        fn shr_u(self, k: i32) -> Iy {
            Iy(avx!(_mm256_srl_epi32(self.0, _mm_cvtsi32_si128(k))))
        }
        #[inline(always)]
        fn mul_lo16(self, o: Iy) -> Iy {
            Iy(avx!(_mm256_mullo_epi16(self.0, o.0)))
        }
        #[inline(always)]
        fn max(self, o: Iy) -> Iy {
            Iy(avx!(_mm256_max_epi32(self.0, o.0)))
        }
        #[inline(always)]
        fn min(self, o: Iy) -> Iy {
            Iy(avx!(_mm256_min_epi32(self.0, o.0)))
        }
        #[inline(always)]
        fn uniform(self) -> Option<i32> {
            let first = avx!(_mm256_permutevar8x32_epi32(self.0, _mm256_setzero_si256()));
            let same = avx!(_mm256_movemask_epi8(_mm256_cmpeq_epi32(self.0, first)));
            (same == -1).then(|| avx!(_mm256_cvtsi256_si32(self.0)))
        }
        #[inline(always)]
        fn unorm8(self) -> Fy {
            // `c * hi + c * lo` with one rounding (`1/255 = hi + lo` as
            // two f32s, `fma(c, hi, c * lo)`): the error left is far below
            // the distance of any `c / 255` from a rounding boundary, so
            // this is the correctly rounded quotient for every code
            // (tested on all 256 against the division); FMA comes with
            // the token (`SimdLevel::detect` requires it for AVX2).
            let c = avx!(_mm256_cvtepi32_ps(_mm256_and_si256(
                self.0,
                _mm256_set1_epi32(0xff)
            )));
            let lo = avx!(_mm256_mul_ps(c, _mm256_set1_ps(super::UNORM8_LO)));
            Fy(avx!(_mm256_fmadd_ps(
                c,
                _mm256_set1_ps(super::UNORM8_HI),
                lo
            )))
        }
        #[inline(always)]
        fn f16_lo(self) -> Fy {
            // The eight low halves packed into 128 bits, then F16C.
            let v = avx!(_mm256_and_si256(self.0, _mm256_set1_epi32(0xffff)));
            let packed = avx!(_mm256_packus_epi32(v, v));
            let ordered = avx!(_mm256_permute4x64_epi64::<0b1000>(packed));
            Fy(avx!(_mm256_cvtph_ps(_mm256_castsi256_si128(ordered))))
        }
        #[inline(always)]
        fn f16_hi(self) -> Fy {
            Iy(avx!(_mm256_srli_epi32::<16>(self.0))).f16_lo()
        }
        #[inline(always)]
        fn nonzero(self) -> My {
            let z = avx!(_mm256_cmpeq_epi32(self.0, _mm256_setzero_si256()));
            My(avx!(_mm256_xor_si256(z, _mm256_set1_epi32(-1))))
        }
        #[inline(always)]
        fn write(self, out: &mut [i32]) {
            let out = &mut out[..8];
            // SAFETY: `out` holds 8 i32s, the 32 bytes the unaligned store
            // writes; AVX2 as in the module's rule.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), self.0) }
        }
    }

    impl Mv for My {
        type F = Fy;
        type I = Iy;
        #[inline(always)]
        fn select(self, a: Fy, b: Fy) -> Fy {
            Fy(avx!(_mm256_blendv_ps(
                b.0,
                a.0,
                _mm256_castsi256_ps(self.0)
            )))
        }
        #[inline(always)]
        fn not(self) -> My {
            My(avx!(_mm256_xor_si256(self.0, _mm256_set1_epi32(-1))))
        }
        #[inline(always)]
        fn all(self) -> bool {
            avx!(_mm256_movemask_ps(_mm256_castsi256_ps(self.0))) == 0xff
        }
        #[inline(always)]
        fn to_i32(self) -> Iy {
            Iy(self.0)
        }
    }

    /// The eight lanes of `v` two to a 64-bit word (lane `2k` in the low
    /// half of word `k`): the scalar loads take their offsets from these
    /// with a move and a shift on the integer ports rather than one vector
    /// extract per lane (measured: trilinear about 7% and bilinear
    /// `nv_sass` about 13% faster at AVX-512 on a Zen 4, README "Texel
    /// loads").
    #[inline(always)]
    fn pairs_y(v: __m256i) -> [u64; 4] {
        let mut q = [0u64; 4];
        // SAFETY: `q` is 32 writable bytes, what one unaligned 256-bit
        // store writes; AVX2 as in the module's rule.
        unsafe { _mm256_storeu_si256(q.as_mut_ptr().cast(), v) };
        q
    }

    /// Whether every lane's `width` bytes at its offset lie inside
    /// `bytes`: each offset `o` in `0..=last`, `last = len - width` (`len`
    /// the slice's length, taken as at most `i32::MAX`: no offset is
    /// more), so that neither `o` nor `last - o` is negative. `last` is
    /// negative when the slice is shorter than `width` (then no lane is
    /// inside); otherwise `last` and a non-negative `o` both lie in
    /// `i32`'s non-negative half, so `last - o` cannot wrap, and a
    /// negative `o` fails on its own sign. One subtract, one or and a
    /// test of the lanes' sign bits, with the scalar work a compare and
    /// a subtract.
    #[inline(always)]
    fn inside_y(bytes: &[u8], width: usize, offs: __m256i) -> bool {
        let last = bytes.len().min(i32::MAX as usize) as i32 - width as i32;
        if last < 0 {
            return false;
        }
        let out = avx!(_mm256_or_si256(
            offs,
            _mm256_sub_epi32(_mm256_set1_epi32(last), offs)
        ));
        let out = avx!(_mm256_castsi256_ps(out));
        avx!(_mm256_testz_ps(out, out)) == 1
    }

    /// [`pairs_y`] of sixteen lanes.
    #[inline(always)]
    fn pairs_z(v: __m512i) -> [u64; 8] {
        let mut q = [0u64; 8];
        // SAFETY: `q` is 64 writable bytes, what one unaligned 512-bit
        // store writes; AVX-512 as in the module's rule.
        unsafe { _mm512_storeu_si512(q.as_mut_ptr().cast(), v) };
        q
    }

    /// Lane `k` of the words [`pairs_y`] or [`pairs_z`] made.
    #[inline(always)]
    fn lane(q: &[u64], k: usize) -> u32 {
        (q[k / 2] >> (32 * (k % 2))) as u32
    }

    /// Sixteen lanes from `w(0..16)`: four 128-bit vectors, two 256-bit,
    /// one 512-bit (a shallower tree than one insert after another).
    #[inline(always)]
    fn zmm_of(w: impl Fn(usize) -> i32) -> __m512i {
        // (Written out: a closure here stayed a function of its own,
        // called per vector.)
        let x0 = avx!(_mm_setr_epi32(w(0), w(1), w(2), w(3)));
        let x1 = avx!(_mm_setr_epi32(w(4), w(5), w(6), w(7)));
        let x2 = avx!(_mm_setr_epi32(w(8), w(9), w(10), w(11)));
        let x3 = avx!(_mm_setr_epi32(w(12), w(13), w(14), w(15)));
        let lo = avx!(_mm256_set_m128i(x1, x0));
        let hi = avx!(_mm256_set_m128i(x3, x2));
        avx!(_mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi))
    }

    /// The AVX-512 level's token (made only by `arch::avx512`): whether
    /// texel words and sRGB look-ups are scalar loads (`scalar_words`).
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Avx512(pub(super) bool);

    impl Avx512 {
        /// The 8 bytes at each lane's offset as 64-bit lanes, lanes 0..8
        /// in the first vector and 8..16 in the second (the word at the
        /// offset low, the next high), where every lane's 8 bytes lie in
        /// `bytes`; `None` otherwise.
        #[inline(always)]
        fn pairs64(self, bytes: &[u8], offs: Iz) -> Option<(__m512i, __m512i)> {
            let last = bytes
                .len()
                .checked_sub(8)
                .and_then(|l| i32::try_from(l).ok())?;
            // Unsigned: a negative offset is a huge one.
            let past = avx!(_mm512_cmpgt_epu32_mask(offs.0, _mm512_set1_epi32(last)));
            if past != 0 {
                return None;
            }
            // Lanes 0..8 and 8..16 as 64-bit pairs (the word at
            // `offs` low, the next high).
            let (a, b) = if self.0 {
                let q = pairs_z(offs.0);
                let p = bytes.as_ptr();
                // SAFETY: every lane's offset `lane(&q, k)` is in
                // `0..=last`, `last = bytes.len() - 8` (the
                // unsigned compare above found no lane past it), so
                // each 8-byte read lies inside `bytes`;
                // `read_unaligned` needs no alignment.
                let w = |k: usize| unsafe {
                    p.add(lane(&q, k) as usize).cast::<i64>().read_unaligned()
                };
                let x0 = avx!(_mm_set_epi64x(w(1), w(0)));
                let x1 = avx!(_mm_set_epi64x(w(3), w(2)));
                let x2 = avx!(_mm_set_epi64x(w(5), w(4)));
                let x3 = avx!(_mm_set_epi64x(w(7), w(6)));
                let x4 = avx!(_mm_set_epi64x(w(9), w(8)));
                let x5 = avx!(_mm_set_epi64x(w(11), w(10)));
                let x6 = avx!(_mm_set_epi64x(w(13), w(12)));
                let x7 = avx!(_mm_set_epi64x(w(15), w(14)));
                // (Written out: a closure would be compiled
                // apart.)
                let (y0, y1) = avx!((_mm256_set_m128i(x1, x0), _mm256_set_m128i(x3, x2)));
                let (y2, y3) = avx!((_mm256_set_m128i(x5, x4), _mm256_set_m128i(x7, x6)));
                avx!((
                    _mm512_inserti64x4::<1>(_mm512_castsi256_si512(y0), y1),
                    _mm512_inserti64x4::<1>(_mm512_castsi256_si512(y2), y3),
                ))
            } else {
                let p = bytes.as_ptr();
                // SAFETY: as for the scalar reads: every lane's
                // 8 bytes lie inside `bytes`; gathers need no
                // alignment; AVX-512 as in the module's rule.
                unsafe {
                    (
                        _mm512_i32gather_epi64::<1>(_mm512_castsi512_si256(offs.0), p.cast()),
                        _mm512_i32gather_epi64::<1>(
                            _mm512_extracti64x4_epi64::<1>(offs.0),
                            p.cast(),
                        ),
                    )
                }
            };
            Some((a, b))
        }
    }

    /// Sixteen f32 lanes.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Fz(__m512);

    /// Sixteen i32 lanes.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Iz(__m512i);

    /// Sixteen lane conditions, one mask bit each.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Mz(__mmask16);

    impl Lanes for Avx512 {
        const N: usize = 16;
        type F = Fz;
        type I = Iz;
        type M = Mz;
        #[inline(always)]
        fn f(self, v: f32) -> Fz {
            Fz(avx!(_mm512_set1_ps(v)))
        }
        #[inline(always)]
        fn i(self, v: i32) -> Iz {
            Iz(avx!(_mm512_set1_epi32(v)))
        }
        #[inline(always)]
        fn m(self, v: bool) -> Mz {
            Mz(if v { 0xffff } else { 0 })
        }
        #[inline(always)]
        fn load(self, s: &[f32]) -> Fz {
            let s = &s[..16];
            // SAFETY: `s` holds 16 f32s (the slice above), the 64 bytes the
            // unaligned load reads; AVX-512 as in the module's rule.
            Fz(unsafe { _mm512_loadu_ps(s.as_ptr()) })
        }
        #[inline(always)]
        fn store(self, v: Fz, s: &mut [f32]) {
            let s = &mut s[..16];
            // SAFETY: `s` holds 16 f32s, the 64 bytes the unaligned store
            // writes; AVX-512 as in the module's rule.
            unsafe { _mm512_storeu_ps(s.as_mut_ptr(), v.0) }
        }
        #[inline(always)]
        fn load_i(self, s: &[i32]) -> Iz {
            let s = &s[..16];
            // SAFETY: `s` holds 16 i32s, the 64 bytes the unaligned load
            // reads; AVX-512 as in the module's rule.
            Iz(unsafe { _mm512_loadu_si512(s.as_ptr().cast()) })
        }
        #[inline(always)]
        fn words(self, bytes: &[u8], offs: Iz) -> Iz {
            let last = bytes
                .len()
                .checked_sub(4)
                .and_then(|l| i32::try_from(l).ok());
            if let Some(last) = last {
                // Unsigned: a negative offset is a huge one.
                let past = avx!(_mm512_cmpgt_epu32_mask(offs.0, _mm512_set1_epi32(last)));
                if past == 0 {
                    if self.0 {
                        let q = pairs_z(offs.0);
                        let p = bytes.as_ptr();
                        // SAFETY: as for `Avx2`'s scalar loads: every
                        // `lane(&q, k)` is in `0..=bytes.len() - 4`.
                        let w = |k: usize| unsafe {
                            p.add(lane(&q, k) as usize).cast::<i32>().read_unaligned()
                        };
                        return Iz(zmm_of(w));
                    }
                    // SAFETY: every lane's offset `o` has `0 <= o <= last =
                    // bytes.len() - 4` (the unsigned compare just above
                    // found no lane past `last`), so each gathered 4-byte
                    // read lies inside `bytes`; gathers need no alignment;
                    // AVX-512 as in the module's rule.
                    return Iz(unsafe {
                        _mm512_i32gather_epi32::<1>(offs.0, bytes.as_ptr().cast())
                    });
                }
            }
            let mut o = [0i32; 16];
            offs.write(&mut o);
            self.load_i(&super::load_u32_scalar(bytes, 0, o))
        }
        #[inline(always)]
        fn words2(self, bytes: &[u8], offs: Iz) -> (Iz, Iz) {
            if let Some((a, b)) = self.pairs64(bytes, offs) {
                // The even words of (a, b), then the odd ones.
                let even = avx!(_mm512_setr_epi32(
                    0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30
                ));
                let odd = avx!(_mm512_setr_epi32(
                    1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31
                ));
                return (
                    Iz(avx!(_mm512_permutex2var_epi32(a, even, b))),
                    Iz(avx!(_mm512_permutex2var_epi32(a, odd, b))),
                );
            }
            (self.words(bytes, offs), self.words(bytes, offs + self.i(4)))
        }
        #[inline(always)]
        fn halves4(self, bytes: &[u8], offs: Iz) -> [Fz; 4] {
            if let Some((a, b)) = self.pairs64(bytes, offs) {
                // Half `c` of lane `j` is word `4j + c` of (a, b) (lanes
                // 0..8 in `a`, 8..16 in `b`): one two-source word permute
                // (AVX-512BW) gives R of the sixteen lanes and then G, a
                // second B and A; each 256-bit half converts at once.
                let mut rg = [0i16; 32];
                let mut ba = [0i16; 32];
                for j in 0..16 {
                    rg[j] = 4 * j as i16;
                    rg[16 + j] = 4 * j as i16 + 1;
                    ba[j] = 4 * j as i16 + 2;
                    ba[16 + j] = 4 * j as i16 + 3;
                }
                // SAFETY: `rg` and `ba` are 64 bytes each, what one
                // unaligned 512-bit load reads; AVX-512 as in the
                // module's rule.
                let (irg, iba) = unsafe {
                    (
                        _mm512_loadu_si512(rg.as_ptr().cast()),
                        _mm512_loadu_si512(ba.as_ptr().cast()),
                    )
                };
                let rg = avx!(_mm512_permutex2var_epi16(a, irg, b));
                let ba = avx!(_mm512_permutex2var_epi16(a, iba, b));
                return avx!([
                    Fz(_mm512_cvtph_ps(_mm512_castsi512_si256(rg))),
                    Fz(_mm512_cvtph_ps(_mm512_extracti64x4_epi64::<1>(rg))),
                    Fz(_mm512_cvtph_ps(_mm512_castsi512_si256(ba))),
                    Fz(_mm512_cvtph_ps(_mm512_extracti64x4_epi64::<1>(ba))),
                ]);
            }
            let (low, high) = (self.words(bytes, offs), self.words(bytes, offs + self.i(4)));
            [low.f16_lo(), low.f16_hi(), high.f16_lo(), high.f16_hi()]
        }
        #[inline(always)]
        fn srgb(self, codes: Iz) -> Fz {
            let table = quadtex_format::texel::srgb8_table();
            if self.0 {
                let q = pairs_z(codes.0);
                let t = |k: usize| table[(lane(&q, k) & 0xff) as usize];
                return Fz(avx!(_mm512_castsi512_ps(zmm_of(|k| t(k).to_bits() as i32))));
            }
            let idx = codes & self.i(0xff);
            // SAFETY: every index is in 0..=255 (masked above) and the
            // table holds 256 f32s, so each gathered read lies inside it;
            // AVX-512 as in the module's rule.
            Fz(unsafe { _mm512_i32gather_ps::<4>(idx.0, table.as_ptr()) })
        }
        #[inline(always)]
        fn lookup16(self, table: [u8; 16], idx: Iz) -> Iz {
            // `vpshufb` in each 128-bit quarter (AVX-512BW), as `Avx2`'s.
            let t = avx!(_mm512_broadcast_i32x4(table16(table)));
            let k = (idx & self.i(15)) | self.i(0x8080_8000_u32 as i32);
            Iz(avx!(_mm512_shuffle_epi8(t, k.0)))
        }
        #[inline(always)]
        fn table16(self, table: &[f32; 16], idx: Iz) -> Fz {
            // `vpermps` reads the index's low four bits.
            Fz(avx!(_mm512_permutexvar_ps(idx.0, self.load(table).0)))
        }
        #[inline(always)]
        fn quads_lane(self, v: &[Fz; 4], l: usize) -> Fz {
            // Quads 0..8 from the first two vectors into lanes 0..8, quads
            // 8..16 from the last two into lanes 8..16 (a two-source
            // permute each), then one blend.
            let l = l as i32 & 3;
            let lo = avx!(_mm512_setr_epi32(
                l,
                l + 4,
                l + 8,
                l + 12,
                l + 16,
                l + 20,
                l + 24,
                l + 28,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0
            ));
            let hi = avx!(_mm512_setr_epi32(
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                l,
                l + 4,
                l + 8,
                l + 12,
                l + 16,
                l + 20,
                l + 24,
                l + 28
            ));
            let a = avx!(_mm512_permutex2var_ps(v[0].0, lo, v[1].0));
            let b = avx!(_mm512_permutex2var_ps(v[2].0, hi, v[3].0));
            Fz(avx!(_mm512_mask_blend_ps(0xff00, a, b)))
        }
        #[inline(always)]
        fn spread(self, x: Fz, k: usize) -> Fz {
            let q = 4 * (k as i32 & 3);
            let idx = avx!(_mm512_setr_epi32(
                q,
                q,
                q,
                q,
                q + 1,
                q + 1,
                q + 1,
                q + 1,
                q + 2,
                q + 2,
                q + 2,
                q + 2,
                q + 3,
                q + 3,
                q + 3,
                q + 3
            ));
            Fz(avx!(_mm512_permutexvar_ps(idx, x.0)))
        }
        #[inline(always)]
        fn spread_i(self, x: Iz, k: usize) -> Iz {
            let q = 4 * (k as i32 & 3);
            let idx = avx!(_mm512_setr_epi32(
                q,
                q,
                q,
                q,
                q + 1,
                q + 1,
                q + 1,
                q + 1,
                q + 2,
                q + 2,
                q + 2,
                q + 2,
                q + 3,
                q + 3,
                q + 3,
                q + 3
            ));
            Iz(avx!(_mm512_permutexvar_epi32(idx, x.0)))
        }
        #[inline(always)]
        fn quad_perm(self, x: Fz, p: [u8; 4]) -> Fz {
            // A quad is one 128-bit quarter: `vpermilps` permutes within it.
            let (a, b, c, d) = (
                i32::from(p[0] & 3),
                i32::from(p[1] & 3),
                i32::from(p[2] & 3),
                i32::from(p[3] & 3),
            );
            let idx = avx!(_mm512_setr_epi32(
                a, b, c, d, a, b, c, d, a, b, c, d, a, b, c, d
            ));
            Fz(avx!(_mm512_permutevar_ps(x.0, idx)))
        }
    }

    impl Fz {
        #[inline(always)]
        fn cmp<const P: i32>(self, o: Fz) -> Mz {
            Mz(avx!(_mm512_cmp_ps_mask::<P>(self.0, o.0)))
        }
    }

    impl Fv for Fz {
        type I = Iz;
        type M = Mz;
        #[inline(always)]
        fn floor(self) -> Fz {
            Fz(avx!(_mm512_roundscale_ps::<
                { _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC },
            >(self.0)))
        }
        #[inline(always)]
        fn ceil(self) -> Fz {
            Fz(avx!(_mm512_roundscale_ps::<
                { _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC },
            >(self.0)))
        }
        #[inline(always)]
        fn round_ties_even(self) -> Fz {
            Fz(avx!(_mm512_roundscale_ps::<
                { _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC },
            >(self.0)))
        }
        #[inline(always)]
        fn sqrt(self) -> Fz {
            Fz(avx!(_mm512_sqrt_ps(self.0)))
        }
        #[inline(always)]
        fn abs(self) -> Fz {
            Fz(avx!(_mm512_abs_ps(self.0)))
        }
        #[inline(always)]
        fn max(self, o: Fz) -> Fz {
            // LLVM's lowering of `f32::max`, as for `Fy`.
            let m = Fz(avx!(_mm512_max_ps(o.0, self.0)));
            self.is_nan().select(o, m)
        }
        #[inline(always)]
        fn min(self, o: Fz) -> Fz {
            let m = Fz(avx!(_mm512_min_ps(o.0, self.0)));
            self.is_nan().select(o, m)
        }
        #[inline(always)]
        fn max_num(self, o: Fz) -> Fz {
            // `max` without the fix-up for a NaN `self`.
            Fz(avx!(_mm512_max_ps(o.0, self.0)))
        }
        #[inline(always)]
        fn min_num(self, o: Fz) -> Fz {
            Fz(avx!(_mm512_min_ps(o.0, self.0)))
        }
        #[inline(always)]
        fn div(self, o: Fz) -> Fz {
            Fz(avx!(_mm512_div_ps(self.0, o.0)))
        }
        #[inline(always)]
        fn div255(self, shift: i32) -> Fz {
            // As `Fy::div255`.
            let s = crate::lanes::pow2(shift);
            let r = avx!(_mm512_set1_ps(1.0 / 255.0 * crate::lanes::pow2(-shift)));
            let q = avx!(_mm512_mul_ps(self.0, r));
            let e = avx!(_mm512_fnmadd_ps(q, _mm512_set1_ps(255.0 * s), self.0));
            Fz(avx!(_mm512_fmadd_ps(e, r, q)))
        }
        #[inline(always)]
        fn mul_add_exact(self, b: Fz, c: Fz) -> Fz {
            Fz(avx!(_mm512_fmadd_ps(self.0, b.0, c.0)))
        }
        #[inline(always)]
        fn lt(self, o: Fz) -> Mz {
            self.cmp::<_CMP_LT_OQ>(o)
        }
        #[inline(always)]
        fn le(self, o: Fz) -> Mz {
            self.cmp::<_CMP_LE_OQ>(o)
        }
        #[inline(always)]
        fn gt(self, o: Fz) -> Mz {
            self.cmp::<_CMP_GT_OQ>(o)
        }
        #[inline(always)]
        fn eq(self, o: Fz) -> Mz {
            self.cmp::<_CMP_EQ_OQ>(o)
        }
        #[inline(always)]
        fn is_nan(self) -> Mz {
            self.cmp::<_CMP_UNORD_Q>(self)
        }
        #[inline(always)]
        fn is_finite(self) -> Mz {
            let inf = Fz(avx!(_mm512_set1_ps(f32::INFINITY)));
            self.abs().lt(inf)
        }
        #[inline(always)]
        fn to_i32(self) -> Iz {
            Iz(avx!(_mm512_cvttps_epi32(self.0)))
        }
        #[inline(always)]
        fn to_bits(self) -> Iz {
            Iz(avx!(_mm512_castps_si512(self.0)))
        }
    }

    impl Iv for Iz {
        type F = Fz;
        type M = Mz;
        #[inline(always)]
        fn to_f32(self) -> Fz {
            Fz(avx!(_mm512_cvtepi32_ps(self.0)))
        }
        #[inline(always)]
        fn as_f32_bits(self) -> Fz {
            Fz(avx!(_mm512_castsi512_ps(self.0)))
        }
        #[inline(always)]
        fn shr(self, k: i32) -> Iz {
            Iz(avx!(_mm512_sra_epi32(self.0, _mm_cvtsi32_si128(k))))
        }
        #[inline(always)]
        fn shl(self, k: i32) -> Iz {
            Iz(avx!(_mm512_sll_epi32(self.0, _mm_cvtsi32_si128(k))))
        }
        #[inline(always)]
        fn shr_u(self, k: i32) -> Iz {
            Iz(avx!(_mm512_srl_epi32(self.0, _mm_cvtsi32_si128(k))))
        }
        #[inline(always)]
        fn mul_lo16(self, o: Iz) -> Iz {
            Iz(avx!(_mm512_mullo_epi16(self.0, o.0)))
        }
        #[inline(always)]
        fn max(self, o: Iz) -> Iz {
            Iz(avx!(_mm512_max_epi32(self.0, o.0)))
        }
        #[inline(always)]
        fn min(self, o: Iz) -> Iz {
            Iz(avx!(_mm512_min_epi32(self.0, o.0)))
        }
        #[inline(always)]
        fn uniform(self) -> Option<i32> {
            let first = avx!(_mm512_permutexvar_epi32(_mm512_setzero_si512(), self.0));
            let same = avx!(_mm512_cmpeq_epi32_mask(self.0, first));
            (same == 0xffff).then(|| avx!(_mm_cvtsi128_si32(_mm512_castsi512_si128(self.0))))
        }
        #[inline(always)]
        fn unorm8_at(self, shift: i32) -> Fz {
            if !matches!(shift, 0 | 8 | 16 | 24) {
                return self.shr(shift).unorm8();
            }
            // The code's byte into all four bytes of its lane (`vpshufb`
            // stays inside each 128-bit quarter, lane `j` of a quarter at
            // its bytes `4j..4j + 4`): `m = c * 0x01010101`, and `c / 255
            // = (m + c / 255) / 2^32`. For a code of `b >= 1` bits `m` has
            // `24 + b`: f32 drops its low `b`, which are `c`, at least half
            // of the `2^b` step, and `c / 255 > 0` lies above that, so the
            // quotient rounds to the next f32 above `m` (`2^32` itself for
            // 255): `m` converted rounding up, the correctly rounded `c /
            // 255` once scaled by `2^-32` (exact). Tested on every code in
            // every byte (`lanes::tests`). AVX2 keeps the shift and mask:
            // it has neither conversion, and a `vpshufb` for the shift ran
            // trilinear 4-8% slower there (alternating `quadtex profile`
            // runs, `QUADTEX_SIMD=avx2`, an Intel Xeon).
            let at = avx!(_mm512_add_epi32(
                _mm512_set1_epi32((shift / 8) * 0x0101_0101),
                _mm512_set4_epi32(0x0c0c_0c0c, 0x0808_0808, 0x0404_0404, 0)
            ));
            let m = avx!(_mm512_shuffle_epi8(self.0, at));
            let up = avx!(_mm512_cvt_roundepu32_ps::<
                { _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC },
            >(m));
            Fz(avx!(_mm512_mul_ps(
                up,
                _mm512_set1_ps(1.0 / 4_294_967_296.0)
            )))
        }
        #[inline(always)]
        fn unorm8(self) -> Fz {
            // As `Iy::unorm8`: `fma(c, hi, c * lo)`.
            let c = avx!(_mm512_cvtepi32_ps(_mm512_and_si512(
                self.0,
                _mm512_set1_epi32(0xff)
            )));
            let lo = avx!(_mm512_mul_ps(c, _mm512_set1_ps(super::UNORM8_LO)));
            Fz(avx!(_mm512_fmadd_ps(
                c,
                _mm512_set1_ps(super::UNORM8_HI),
                lo
            )))
        }
        #[inline(always)]
        fn f16_lo(self) -> Fz {
            Fz(avx!(_mm512_cvtph_ps(_mm512_cvtepi32_epi16(self.0))))
        }
        #[inline(always)]
        fn f16_hi(self) -> Fz {
            Fz(avx!(_mm512_cvtph_ps(_mm512_cvtepi32_epi16(
                _mm512_srli_epi32::<16>(self.0)
            ))))
        }
        #[inline(always)]
        fn nonzero(self) -> Mz {
            Mz(avx!(_mm512_test_epi32_mask(self.0, self.0)))
        }
        #[inline(always)]
        fn write(self, out: &mut [i32]) {
            let out = &mut out[..16];
            // SAFETY: `out` holds 16 i32s, the 64 bytes the unaligned
            // store writes; AVX-512 as in the module's rule.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), self.0) }
        }
    }

    impl Mv for Mz {
        type F = Fz;
        type I = Iz;
        #[inline(always)]
        fn select(self, a: Fz, b: Fz) -> Fz {
            Fz(avx!(_mm512_mask_blend_ps(self.0, b.0, a.0)))
        }
        #[inline(always)]
        fn not(self) -> Mz {
            Mz(!self.0)
        }
        #[inline(always)]
        fn all(self) -> bool {
            self.0 == 0xffff
        }
        #[inline(always)]
        fn to_i32(self) -> Iz {
            Iz(avx!(_mm512_movm_epi32(self.0)))
        }
    }

    impl BitAnd for Mz {
        type Output = Mz;
        #[inline(always)]
        fn bitand(self, o: Mz) -> Mz {
            Mz(self.0 & o.0)
        }
    }

    impl BitOr for Mz {
        type Output = Mz;
        #[inline(always)]
        fn bitor(self, o: Mz) -> Mz {
            Mz(self.0 | o.0)
        }
    }

    macro_rules! binop {
        ($T:ident, $Tr:ident, $f:ident, $intr:ident) => {
            impl $Tr for $T {
                type Output = $T;
                #[inline(always)]
                fn $f(self, o: $T) -> $T {
                    $T(avx!($intr(self.0, o.0)))
                }
            }
        };
    }

    binop!(Fy, Add, add, _mm256_add_ps);
    binop!(Fy, Sub, sub, _mm256_sub_ps);
    binop!(Fy, Mul, mul, _mm256_mul_ps);
    binop!(Iy, Add, add, _mm256_add_epi32);
    binop!(Iy, Sub, sub, _mm256_sub_epi32);
    binop!(Iy, Mul, mul, _mm256_mullo_epi32);
    binop!(Iy, BitAnd, bitand, _mm256_and_si256);
    binop!(Iy, BitOr, bitor, _mm256_or_si256);
    binop!(My, BitAnd, bitand, _mm256_and_si256);
    binop!(My, BitOr, bitor, _mm256_or_si256);
    binop!(Fz, Add, add, _mm512_add_ps);
    binop!(Fz, Sub, sub, _mm512_sub_ps);
    binop!(Fz, Mul, mul, _mm512_mul_ps);
    binop!(Iz, Add, add, _mm512_add_epi32);
    binop!(Iz, Sub, sub, _mm512_sub_epi32);
    binop!(Iz, Mul, mul, _mm512_mullo_epi32);
    binop!(Iz, BitAnd, bitand, _mm512_and_si512);
    binop!(Iz, BitOr, bitor, _mm512_or_si512);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Lanes::words` of every level on `offs`, as the scalar twin reads
    /// them (8 lanes at a time, whatever the level's width).
    struct Words<'a> {
        bytes: &'a [u8],
        offs: [i32; 16],
    }

    impl LaneKernel for Words<'_> {
        type Out = [i32; 16];
        fn run<L: Lanes>(self, l: L) -> [i32; 16] {
            let mut out = [0i32; 16];
            for k in (0..16).step_by(L::N) {
                let w = l.words(self.bytes, l.load_i(&self.offs[k..]));
                crate::lanes::Iv::write(w, &mut out[k..]);
            }
            out
        }
    }

    /// `Lanes::words2` of every level on `offs`: both words of each lane.
    struct Words2<'a> {
        bytes: &'a [u8],
        offs: [i32; 16],
    }

    impl LaneKernel for Words2<'_> {
        type Out = ([i32; 16], [i32; 16]);
        fn run<L: Lanes>(self, l: L) -> ([i32; 16], [i32; 16]) {
            let mut out = ([0i32; 16], [0i32; 16]);
            for k in (0..16).step_by(L::N) {
                let (a, b) = l.words2(self.bytes, l.load_i(&self.offs[k..]));
                crate::lanes::Iv::write(a, &mut out.0[k..]);
                crate::lanes::Iv::write(b, &mut out.1[k..]);
            }
            out
        }
    }

    /// `Lanes::halves4` of every level on `offs`: each lane's four
    /// halves as f32 bits.
    struct Halves4<'a> {
        bytes: &'a [u8],
        offs: [i32; 16],
    }

    impl LaneKernel for Halves4<'_> {
        type Out = [[u32; 16]; 4];
        fn run<L: Lanes>(self, l: L) -> [[u32; 16]; 4] {
            let mut out = [[0u32; 16]; 4];
            for k in (0..16).step_by(L::N) {
                let h = l.halves4(self.bytes, l.load_i(&self.offs[k..]));
                for (c, v) in h.into_iter().enumerate() {
                    let mut f = [0f32; 16];
                    l.store(v, &mut f[k..]);
                    for (o, x) in out[c][k..k + L::N].iter_mut().zip(&f[k..]) {
                        *o = x.to_bits();
                    }
                }
            }
            out
        }
    }

    /// Sixteen offsets drawn with the xorshift state `s`: each draw's
    /// case (`draw % cases`) gives an edge offset where `edge` has one,
    /// else an offset in `0..below`.
    fn offsets(
        s: &mut u32,
        cases: u32,
        below: i32,
        edge: impl Fn(u32) -> Option<i32>,
    ) -> [i32; 16] {
        let mut offs = [0i32; 16];
        for o in &mut offs {
            *s ^= *s << 13;
            *s ^= *s >> 17;
            *s ^= *s << 5;
            *o = edge(*s % cases).unwrap_or((*s >> 8) as i32 % below);
        }
        offs
    }

    /// The paired word loads are the scalar twin's words at `offs` and
    /// `offs + 4` at every level and load method: offsets anywhere in the
    /// buffer, at its last eight, seven and four bytes (the pair runs past
    /// the end: the twin's zeros), past it and negative.
    #[test]
    fn every_level_reads_word_pairs_as_the_scalar_twin() {
        let bytes: Vec<u8> = (0..517u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 9) as u8)
            .collect();
        let n = bytes.len() as i32;
        let mut s = 17u32;
        for round in 0..5_000 {
            let offs = offsets(&mut s, 17, n - 7, |case| match case {
                0 => Some(n - 8),
                1 if round % 2 == 0 => Some(n - 7),
                2 if round % 5 == 0 => Some(n - 4),
                3 if round % 7 == 0 => Some(-4),
                4 if round % 11 == 0 => Some(n),
                _ => None,
            });
            let want = (
                load_u32_scalar(&bytes, 0, offs),
                load_u32_scalar(&bytes, 0, offs.map(|o| o.wrapping_add(4))),
            );
            for level in crate::cpu::SimdLevel::ALL {
                for scalar in [false, true] {
                    let got = run_loads(
                        level,
                        scalar,
                        Words2 {
                            bytes: &bytes,
                            offs,
                        },
                    );
                    assert_eq!(got, want, "{level:?} scalar {scalar} {offs:?}");
                }
            }
        }
    }

    /// The RGBA16F texel loads are the scalar twin's halves (the words at
    /// `offs` and `offs + 4`, each decoded by the `half` crate) at every
    /// level and load method, bit for bit: bytes that hold every half
    /// class (zeros, subnormals, infinities, NaNs), offsets anywhere, at
    /// the last eight bytes, past them (the twin's zeros) and negative.
    #[test]
    fn every_level_reads_rgba16f_texels_as_the_scalar_twin() {
        let bytes: Vec<u8> = (0..613u32)
            .map(|i| (i.wrapping_mul(2_246_822_519) >> 13) as u8)
            .collect();
        let n = bytes.len() as i32;
        let half = |w: i32| half::f16::from_bits(w as u16).to_f32().to_bits();
        let mut s = 23u32;
        for round in 0..5_000 {
            let offs = offsets(&mut s, 17, n - 7, |case| match case {
                0 => Some(n - 8),
                1 if round % 2 == 0 => Some(n - 7),
                2 if round % 5 == 0 => Some(n - 2),
                3 if round % 7 == 0 => Some(-8),
                4 if round % 11 == 0 => Some(i32::MAX),
                _ => None,
            });
            let lo = load_u32_scalar(&bytes, 0, offs);
            let hi = load_u32_scalar(&bytes, 0, offs.map(|o| o.wrapping_add(4)));
            let want = [
                lo.map(half),
                lo.map(|w| half(((w as u32) >> 16) as i32)),
                hi.map(half),
                hi.map(|w| half(((w as u32) >> 16) as i32)),
            ];
            for level in crate::cpu::SimdLevel::ALL {
                for scalar in [false, true] {
                    let got = run_loads(
                        level,
                        scalar,
                        Halves4 {
                            bytes: &bytes,
                            offs,
                        },
                    );
                    assert_eq!(got, want, "{level:?} scalar {scalar} {offs:?}");
                }
            }
        }
    }

    #[test]
    fn every_level_reads_words_as_the_scalar_twin() {
        let bytes: Vec<u8> = (0..517u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
            .collect();
        let n = bytes.len() as i32;
        let mut s = 11u32;
        for round in 0..5_000 {
            let offs = offsets(&mut s, 13, n - 3, |case| match case {
                0 => Some(n - 4),
                1 => Some(n - 3),
                2 => Some(-1),
                3 => Some(i32::MIN),
                4 if round % 3 == 0 => Some(n),
                5 if round % 4 == 0 => Some(i32::MAX),
                _ => None,
            });
            let want = load_u32_scalar(&bytes, 0, offs);
            for level in crate::cpu::SimdLevel::ALL {
                for scalar in [false, true] {
                    let got = run_loads(
                        level,
                        scalar,
                        Words {
                            bytes: &bytes,
                            offs,
                        },
                    );
                    assert_eq!(got, want, "{level:?} scalar {scalar} {offs:?}");
                }
            }
        }
        // A buffer shorter than a word: every lane reads what is there.
        let tiny = [7u8, 9];
        let offs = [0, 1, 2, -1, 0, 0, 1, 1, 0, 1, 2, 3, 0, 0, 0, 0];
        for level in crate::cpu::SimdLevel::ALL {
            for scalar in [false, true] {
                let got = run_loads(level, scalar, Words { bytes: &tiny, offs });
                assert_eq!(got, load_u32_scalar(&tiny, 0, offs), "{level:?}");
                assert_eq!(got[0], 0x0907);
            }
        }
    }

    /// [`run_with_loads`] where there are x86 levels, else [`run_at`].
    fn run_loads<K: LaneKernel>(level: crate::cpu::SimdLevel, scalar: bool, k: K) -> K::Out {
        #[cfg(target_arch = "x86_64")]
        {
            run_with_loads(level, scalar, k)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = scalar;
            run_at(level, k)
        }
    }

    /// `Lanes::srgb` of every level on 16 codes.
    struct Srgb([i32; 16]);

    impl LaneKernel for Srgb {
        type Out = [u32; 16];
        fn run<L: Lanes>(self, l: L) -> [u32; 16] {
            let mut out = [0f32; 16];
            for k in (0..16).step_by(L::N) {
                let v = l.srgb(l.load_i(&self.0[k..]));
                l.store(v, &mut out[k..]);
            }
            out.map(f32::to_bits)
        }
    }

    #[test]
    fn every_level_and_load_method_decodes_srgb_as_the_table() {
        let table = quadtex_format::texel::srgb8_table();
        let mut s = 5u32;
        for round in 0..2_000 {
            let codes: [i32; 16] = std::array::from_fn(|i| {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                match (round + i) % 5 {
                    // Only the low byte is a code: the rest of the lane
                    // (the other channels of a texel word) is ignored.
                    0 => s as i32,
                    1 => 255,
                    2 => 0,
                    _ => (s & 0xff) as i32,
                }
            });
            let want = codes.map(|c| table[(c & 0xff) as usize].to_bits());
            for level in crate::cpu::SimdLevel::ALL {
                for scalar in [false, true] {
                    let got = run_loads(level, scalar, Srgb(codes));
                    assert_eq!(got, want, "{level:?} scalar {scalar} {codes:?}");
                }
            }
        }
    }

    #[test]
    fn plain_word_loads_match_scalar_loads_lane_by_lane() {
        let bytes: Vec<u8> = (0..1029u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
            .collect();
        let mut s = 7u32;
        for _ in 0..20_000 {
            let mut offs = [0i32; 16];
            for o in &mut offs {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                *o = match s % 16 {
                    0 => bytes.len() as i32 - 4,
                    1 => bytes.len() as i32 - 3,
                    2 => -1,
                    _ => (s >> 8) as i32 % (bytes.len() as i32 - 3),
                };
            }
            let base = (s % 3) as usize;
            let want = load_u32_scalar(&bytes, base, offs).map(|w| w as u32);
            assert_eq!(
                words::load_words(&bytes, base, &offs),
                want,
                "{offs:?} base {base}"
            );
        }
    }
}
