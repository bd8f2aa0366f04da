//! Lane vectors for the planar kernel, behind one private trait.
//!
//! [`Lanes`] is a token of a SIMD level: it makes the level's vectors of
//! f32 lanes ([`Fv`]), i32 lanes ([`Iv`]) and lane conditions ([`Mv`]),
//! whose operations are the scalar operations of the same name on every
//! lane, so a kernel written with them keeps [`crate::reference`]'s bits at
//! every level. Two kinds implement it: [`Portable`], `N` lanes as plain
//! arrays with one branch-free loop per operation (which LLVM vectorises
//! as well as it can for the build's features: the level of architectures
//! other than x86-64, and on x86-64 the reference the tests hold the
//! others to, compiled for tests only), and the x86 vectors in
//! [`crate::arch`] (SSE2 for the baseline levels, AVX2 and AVX-512 whose
//! tokens exist only where the CPU has them), one instruction or a short
//! fixed sequence per operation. Every operation is `#[inline(always)]`:
//! inside a function compiled for a level ([`crate::arch::run_at`]) it
//! becomes that level's instructions.

use std::ops::{Add, BitAnd, BitOr, Mul, Sub};

/// A SIMD level's token: makes its vectors. Holding one proves the CPU
/// runs the level's instructions.
pub(crate) trait Lanes: Copy {
    /// Lanes per vector.
    const N: usize;
    /// f32 lanes.
    type F: Fv<I = Self::I, M = Self::M>;
    /// i32 lanes.
    type I: Iv<F = Self::F, M = Self::M>;
    /// Lane conditions.
    type M: Mv<F = Self::F, I = Self::I>;
    /// Every lane `v`.
    fn f(self, v: f32) -> Self::F;
    /// Every lane `v`.
    fn i(self, v: i32) -> Self::I;
    /// Every lane `v`.
    fn m(self, v: bool) -> Self::M;
    /// The first `N` values of `s` (which holds at least `N`).
    fn load(self, s: &[f32]) -> Self::F;
    /// Writes the lanes to the first `N` values of `s`.
    fn store(self, v: Self::F, s: &mut [f32]);
    /// The first `N` values of `s` (which holds at least `N`).
    fn load_i(self, s: &[i32]) -> Self::I;
    /// Per lane, the little-endian word at `bytes[offs..][..4]`
    /// (`arch::load_u32_scalar`'s value: 0 outside `bytes`).
    fn words(self, bytes: &[u8], offs: Self::I) -> Self::I;
    /// Per lane, the words at `offs` and at `offs + 4` ([`Lanes::words`]
    /// of both: two texels side by side in a row of 4-byte texels), read
    /// as one 8-byte load a lane where the level has one.
    #[inline(always)]
    fn words2(self, bytes: &[u8], offs: Self::I) -> (Self::I, Self::I) {
        (self.words(bytes, offs), self.words(bytes, offs + self.i(4)))
    }
    /// Per lane, the four IEEE halves of the 8 bytes at `offs` (an
    /// RGBA16F texel: its words at `offs` and `offs + 4`, [`Lanes::words2`],
    /// each word's low half first), exactly as f32.
    #[inline(always)]
    fn halves4(self, bytes: &[u8], offs: Self::I) -> [Self::F; 4] {
        let (low, high) = self.words2(bytes, offs);
        [low.f16_lo(), low.f16_hi(), high.f16_lo(), high.f16_hi()]
    }
    /// Per lane, the sRGB EOTF of the 8-bit code in the lane's low byte
    /// (the format crate's table).
    fn srgb(self, codes: Self::I) -> Self::F;
    /// Per lane, `table[idx & 15]` (a byte-shuffle lookup).
    fn lookup16(self, table: [u8; 16], idx: Self::I) -> Self::I;
    /// Per lane, `table[idx & 15]` (a permute of the table's lanes).
    fn table16(self, table: &[f32; 16], idx: Self::I) -> Self::F;
    /// Lane `l` (0..4) of each of the `N` quads that `v` holds, quad `q`
    /// in lanes `4q..4q + 4` of the concatenated vectors: lane `q` gets
    /// `v[q / (N / 4)]`'s lane `4 (q % (N / 4)) + l`.
    fn quads_lane(self, v: &[Self::F; 4], l: usize) -> Self::F;
    /// Per-quad values (lane `q` for quad `q`) onto the lanes of vector
    /// `k` of four (lane `i` gets quad `k N / 4 + i / 4`'s value).
    fn spread(self, x: Self::F, k: usize) -> Self::F;
    /// [`Lanes::spread`] of i32 lanes.
    fn spread_i(self, x: Self::I, k: usize) -> Self::I;
    /// Within every quad (lanes `4q..4q + 4`), lane `l` gets the quad's
    /// lane `p[l]` (`p[l] < 4`).
    fn quad_perm(self, x: Self::F, p: [u8; 4]) -> Self::F;
}

/// f32 lanes.
pub(crate) trait Fv:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self>
{
    /// The level's i32 lanes.
    type I;
    /// The level's lane conditions.
    type M;
    /// `f32::floor`.
    fn floor(self) -> Self;
    /// `f32::ceil`.
    fn ceil(self) -> Self;
    /// `f32::round_ties_even`.
    fn round_ties_even(self) -> Self;
    /// `f32::sqrt`.
    fn sqrt(self) -> Self;
    /// `f32::abs`.
    fn abs(self) -> Self;
    /// `f32::max` (a NaN operand gives the other).
    fn max(self, o: Self) -> Self;
    /// `f32::min` (a NaN operand gives the other).
    fn min(self, o: Self) -> Self;
    /// `o` where `o > self`, else `self` (x86's `maxps(o, self)`, one
    /// instruction where [`Fv::max`] needs three): `f32::max` for a `self`
    /// that is not NaN, and a NaN `self` is kept.
    fn max_num(self, o: Self) -> Self;
    /// `o` where `o < self`, else `self` (`minps(o, self)`): `f32::min`
    /// for a `self` that is not NaN, and a NaN `self` is kept.
    fn min_num(self, o: Self) -> Self;
    /// Division.
    fn div(self, o: Self) -> Self;
    /// `self / (255 * 2^shift)` correctly rounded, for lanes holding
    /// integers in `[0, 2^24)` and `shift` in `0..=16` (integer
    /// filtering's last step; tested on every such integer at every
    /// level).
    fn div255(self, shift: i32) -> Self;
    /// `self * b + c`, for operands whose product and sum are exact in
    /// f32 (so one rounding or two give the same bits): an FMA where the
    /// level has one.
    fn mul_add_exact(self, b: Self, c: Self) -> Self;
    /// `<`.
    fn lt(self, o: Self) -> Self::M;
    /// `<=`.
    fn le(self, o: Self) -> Self::M;
    /// `>`.
    fn gt(self, o: Self) -> Self::M;
    /// `==`.
    fn eq(self, o: Self) -> Self::M;
    /// `f32::is_nan`.
    fn is_nan(self) -> Self::M;
    /// `f32::is_finite`.
    fn is_finite(self) -> Self::M;
    /// `x as i32` for lanes inside the i32 range (the kernel converts no
    /// others; outside it the levels may differ).
    fn to_i32(self) -> Self::I;
    /// The lanes' bits.
    fn to_bits(self) -> Self::I;
}

/// i32 lanes (wrapping arithmetic).
pub(crate) trait Iv:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
{
    /// The level's f32 lanes.
    type F;
    /// The level's lane conditions.
    type M;
    /// `v as f32`.
    fn to_f32(self) -> Self::F;
    /// The lanes as f32 bits.
    fn as_f32_bits(self) -> Self::F;
    /// Arithmetic shift right by `k` (0..32).
    fn shr(self, k: i32) -> Self;
    /// Shift left by `k` (0..32).
    fn shl(self, k: i32) -> Self;
    /// Logical shift right by `k` (0..32): zeros in.
    fn shr_u(self, k: i32) -> Self;
    /// Per 16-bit half of every lane, the low 16 bits of the product of
    /// the two halves (`pmullw`).
    fn mul_lo16(self, o: Self) -> Self;
    /// `i32::max`.
    fn max(self, o: Self) -> Self;
    /// `i32::min`.
    fn min(self, o: Self) -> Self;
    /// Lane 0 when every lane holds it.
    fn uniform(self) -> Option<i32>;
    /// The low byte of every lane as UNORM8: `code / 255`, correctly
    /// rounded (the format crate's values).
    fn unorm8(self) -> Self::F;
    /// The byte `shift` bits up of every lane as UNORM8, `(self >>
    /// shift).unorm8()`: the same bits, in fewer instructions where the
    /// level has them for `shift` 0, 8, 16 or 24.
    #[inline(always)]
    fn unorm8_at(self, shift: i32) -> Self::F {
        self.shr(shift).unorm8()
    }
    /// The lanes, into the first `N` values of `out`.
    fn write(self, out: &mut [i32]);
    /// Whether each lane is not zero.
    fn nonzero(self) -> Self::M;
    /// The low 16 bits of every lane as an IEEE half, exactly as f32.
    fn f16_lo(self) -> Self::F;
    /// The high 16 bits of every lane as an IEEE half, exactly as f32.
    fn f16_hi(self) -> Self::F;
}

/// Lane conditions.
pub(crate) trait Mv: Copy + BitAnd<Output = Self> + BitOr<Output = Self> {
    /// The level's f32 lanes.
    type F;
    /// The level's i32 lanes.
    type I;
    /// `self ? a : b` per lane.
    fn select(self, a: Self::F, b: Self::F) -> Self::F;
    /// Negation.
    fn not(self) -> Self;
    /// Whether every lane is true.
    fn all(self) -> bool;
    /// -1 for true lanes, 0 for false.
    fn to_i32(self) -> Self::I;
}

/// `2^k` for `k` in `-126..=127`, exactly.
#[inline(always)]
pub(crate) const fn pow2(k: i32) -> f32 {
    f32::from_bits(((127 + k) as u32) << 23)
}

/// [`Portable`] and its vectors: the level of architectures other than
/// x86-64; on x86-64 (whose levels all have vectors of their own in
/// [`crate::arch`]) compiled for the tests only, as the reference the
/// levels are held to.
#[cfg(any(test, not(target_arch = "x86_64")))]
mod portable {
    use super::{pow2, Fv, Iv, Lanes, Mv};
    use std::ops::{Add, BitAnd, BitOr, Mul, Sub};

    /// `out[i] = e` for every lane `i` of an `N`-lane array.
    macro_rules! lanewise {
        ($n:ident, $a:expr, |$i:ident| $e:expr) => {{
            let mut out = $a;
            for $i in 0..$n {
                out[$i] = $e;
            }
            out
        }};
    }

    /// `N` plain lanes: the portable level's token.
    #[derive(Clone, Copy, Debug, Default)]
    pub(crate) struct Portable<const N: usize>;

    impl<const N: usize> Lanes for Portable<N> {
        const N: usize = N;
        type F = F<N>;
        type I = I<N>;
        type M = M<N>;
        #[inline(always)]
        fn f(self, v: f32) -> F<N> {
            F::splat(v)
        }
        #[inline(always)]
        fn i(self, v: i32) -> I<N> {
            I::splat(v)
        }
        #[inline(always)]
        fn m(self, v: bool) -> M<N> {
            M::splat(v)
        }
        #[inline(always)]
        fn load(self, s: &[f32]) -> F<N> {
            let mut v = [0.0; N];
            v.copy_from_slice(&s[..N]);
            F(v)
        }
        #[inline(always)]
        fn store(self, v: F<N>, s: &mut [f32]) {
            s[..N].copy_from_slice(&v.0);
        }
        #[inline(always)]
        fn load_i(self, s: &[i32]) -> I<N> {
            let mut v = [0; N];
            v.copy_from_slice(&s[..N]);
            I(v)
        }
        #[inline(always)]
        fn words(self, bytes: &[u8], offs: I<N>) -> I<N> {
            I(crate::arch::words::load_words(bytes, 0, &offs.0).map(|w| w as i32))
        }
        #[inline(always)]
        fn srgb(self, codes: I<N>) -> F<N> {
            let table = quadtex_format::texel::srgb8_table();
            F(codes.0.map(|c| table[(c & 0xff) as usize]))
        }
        #[inline(always)]
        fn lookup16(self, table: [u8; 16], idx: I<N>) -> I<N> {
            I(idx.0.map(|i| i32::from(table[(i & 15) as usize])))
        }
        #[inline(always)]
        fn table16(self, table: &[f32; 16], idx: I<N>) -> F<N> {
            F(idx.0.map(|i| table[(i & 15) as usize]))
        }
        #[inline(always)]
        fn quads_lane(self, v: &[F<N>; 4], l: usize) -> F<N> {
            let per = N / 4;
            F(std::array::from_fn(|q| v[q / per].0[4 * (q % per) + l]))
        }
        #[inline(always)]
        fn spread(self, x: F<N>, k: usize) -> F<N> {
            F(std::array::from_fn(|i| x.0[k * (N / 4) + i / 4]))
        }
        #[inline(always)]
        fn spread_i(self, x: I<N>, k: usize) -> I<N> {
            I(std::array::from_fn(|i| x.0[k * (N / 4) + i / 4]))
        }
        #[inline(always)]
        fn quad_perm(self, x: F<N>, p: [u8; 4]) -> F<N> {
            F(std::array::from_fn(|i| {
                x.0[(i & !3) + usize::from(p[i & 3] & 3)]
            }))
        }
    }

    impl<const N: usize> Fv for F<N> {
        type I = I<N>;
        type M = M<N>;
        #[inline(always)]
        fn floor(self) -> Self {
            F(lanewise!(N, [0.0; N], |i| self.0[i].floor()))
        }
        #[inline(always)]
        fn ceil(self) -> Self {
            F(lanewise!(N, [0.0; N], |i| self.0[i].ceil()))
        }
        #[inline(always)]
        fn round_ties_even(self) -> Self {
            F(lanewise!(N, [0.0; N], |i| self.0[i].round_ties_even()))
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            F(lanewise!(N, [0.0; N], |i| self.0[i].sqrt()))
        }
        #[inline(always)]
        fn abs(self) -> Self {
            F(lanewise!(N, [0.0; N], |i| self.0[i].abs()))
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            F(lanewise!(N, [0.0; N], |i| self.0[i].max(o.0[i])))
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            F(lanewise!(N, [0.0; N], |i| self.0[i].min(o.0[i])))
        }
        #[inline(always)]
        fn max_num(self, o: Self) -> Self {
            F(lanewise!(N, [0.0; N], |i| if o.0[i] > self.0[i] {
                o.0[i]
            } else {
                self.0[i]
            }))
        }
        #[inline(always)]
        fn min_num(self, o: Self) -> Self {
            F(lanewise!(N, [0.0; N], |i| if o.0[i] < self.0[i] {
                o.0[i]
            } else {
                self.0[i]
            }))
        }
        #[inline(always)]
        fn div(self, o: Self) -> Self {
            F(lanewise!(N, [0.0; N], |i| self.0[i] / o.0[i]))
        }
        #[inline(always)]
        fn div255(self, shift: i32) -> Self {
            let d = 255.0 * pow2(shift);
            F(lanewise!(N, [0.0; N], |i| self.0[i] / d))
        }
        #[inline(always)]
        fn mul_add_exact(self, b: Self, c: Self) -> Self {
            F(lanewise!(N, [0.0; N], |i| self.0[i] * b.0[i] + c.0[i]))
        }
        #[inline(always)]
        fn lt(self, o: Self) -> M<N> {
            M(lanewise!(N, [0; N], |i| -i32::from(self.0[i] < o.0[i])))
        }
        #[inline(always)]
        fn le(self, o: Self) -> M<N> {
            M(lanewise!(N, [0; N], |i| -i32::from(self.0[i] <= o.0[i])))
        }
        #[inline(always)]
        fn gt(self, o: Self) -> M<N> {
            o.lt(self)
        }
        #[inline(always)]
        fn eq(self, o: Self) -> M<N> {
            M(lanewise!(N, [0; N], |i| -i32::from(self.0[i] == o.0[i])))
        }
        #[inline(always)]
        fn is_nan(self) -> M<N> {
            M(lanewise!(N, [0; N], |i| -i32::from(self.0[i].is_nan())))
        }
        #[inline(always)]
        fn is_finite(self) -> M<N> {
            M(lanewise!(N, [0; N], |i| -i32::from(self.0[i].is_finite())))
        }
        #[inline(always)]
        fn to_i32(self) -> I<N> {
            I(lanewise!(N, [0; N], |i| self.0[i] as i32))
        }
        #[inline(always)]
        fn to_bits(self) -> I<N> {
            I(lanewise!(N, [0; N], |i| self.0[i].to_bits() as i32))
        }
    }

    impl<const N: usize> Iv for I<N> {
        type F = F<N>;
        type M = M<N>;
        #[inline(always)]
        fn to_f32(self) -> F<N> {
            F(lanewise!(N, [0.0; N], |i| self.0[i] as f32))
        }
        #[inline(always)]
        fn as_f32_bits(self) -> F<N> {
            F(lanewise!(N, [0.0; N], |i| f32::from_bits(self.0[i] as u32)))
        }
        #[inline(always)]
        fn shr(self, k: i32) -> Self {
            I(lanewise!(N, [0; N], |i| self.0[i] >> k))
        }
        #[inline(always)]
        fn shl(self, k: i32) -> Self {
            I(lanewise!(N, [0; N], |i| self.0[i] << k))
        }
        #[inline(always)]
        fn shr_u(self, k: i32) -> Self {
            I(lanewise!(N, [0; N], |i| ((self.0[i] as u32) >> k) as i32))
        }
        #[inline(always)]
        fn mul_lo16(self, o: Self) -> Self {
            I(std::array::from_fn(|i| {
                let (a, b) = (self.0[i] as u32, o.0[i] as u32);
                let lo = ((a & 0xffff) * (b & 0xffff)) & 0xffff;
                let hi = ((a >> 16) * (b >> 16)) & 0xffff;
                (lo | (hi << 16)) as i32
            }))
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            I(lanewise!(N, [0; N], |i| self.0[i].max(o.0[i])))
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            I(lanewise!(N, [0; N], |i| self.0[i].min(o.0[i])))
        }
        #[inline(always)]
        fn uniform(self) -> Option<i32> {
            I::uniform(self).then_some(self.0[0])
        }
        #[inline(always)]
        fn unorm8(self) -> F<N> {
            F(self.0.map(|c| (c & 0xff) as f32 / 255.0))
        }
        #[inline(always)]
        fn write(self, out: &mut [i32]) {
            out[..N].copy_from_slice(&self.0);
        }
        #[inline(always)]
        fn nonzero(self) -> M<N> {
            M(self.0.map(|x| -i32::from(x != 0)))
        }
        #[inline(always)]
        fn f16_lo(self) -> F<N> {
            F(self.0.map(|x| half::f16::from_bits(x as u16).to_f32()))
        }
        #[inline(always)]
        fn f16_hi(self) -> F<N> {
            F(self
                .0
                .map(|x| half::f16::from_bits((x as u32 >> 16) as u16).to_f32()))
        }
    }

    impl<const N: usize> Mv for M<N> {
        type F = F<N>;
        type I = I<N>;
        #[inline(always)]
        fn select(self, a: F<N>, b: F<N>) -> F<N> {
            F(lanewise!(N, [0.0; N], |i| f32::from_bits(
                ((a.0[i].to_bits() as i32 & self.0[i]) | (b.0[i].to_bits() as i32 & !self.0[i]))
                    as u32
            )))
        }
        #[inline(always)]
        fn not(self) -> Self {
            M(lanewise!(N, [0; N], |i| !self.0[i]))
        }
        #[inline(always)]
        fn all(self) -> bool {
            let mut a = -1;
            for i in 0..N {
                a &= self.0[i];
            }
            a == -1
        }
        #[inline(always)]
        fn to_i32(self) -> I<N> {
            I(self.0)
        }
    }

    /// `N` f32 lanes.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct F<const N: usize>(pub(crate) [f32; N]);

    /// `N` i32 lanes.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct I<const N: usize>(pub(crate) [i32; N]);

    /// `N` lane conditions, each all ones (true) or zero.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct M<const N: usize>(pub(crate) [i32; N]);

    impl<const N: usize> F<N> {
        /// Every lane `v`.
        #[inline(always)]
        pub(crate) fn splat(v: f32) -> Self {
            F([v; N])
        }
    }

    impl<const N: usize> I<N> {
        /// Every lane `v`.
        #[inline(always)]
        pub(crate) fn splat(v: i32) -> Self {
            I([v; N])
        }
        /// Whether every lane equals lane 0.
        #[inline(always)]
        pub(crate) fn uniform(self) -> bool {
            let mut d = 0;
            for i in 0..N {
                d |= self.0[i] ^ self.0[0];
            }
            d == 0
        }
    }

    impl<const N: usize> M<N> {
        /// Every lane `v`.
        #[inline(always)]
        pub(crate) fn splat(v: bool) -> Self {
            M([-i32::from(v); N])
        }
    }

    impl<const N: usize> BitAnd for M<N> {
        type Output = Self;
        #[inline(always)]
        fn bitand(self, o: Self) -> Self {
            M(lanewise!(N, [0; N], |i| self.0[i] & o.0[i]))
        }
    }

    impl<const N: usize> BitOr for M<N> {
        type Output = Self;
        #[inline(always)]
        fn bitor(self, o: Self) -> Self {
            M(lanewise!(N, [0; N], |i| self.0[i] | o.0[i]))
        }
    }

    macro_rules! binop {
        ($T:ident, $zero:expr, $Tr:ident, $f:ident, $op:tt) => {
            impl<const N: usize> $Tr for $T<N> {
                type Output = Self;
                #[inline(always)]
                fn $f(self, o: Self) -> Self {
                    $T(lanewise!(N, [$zero; N], |i| self.0[i] $op o.0[i]))
                }
            }
        };
    }

    binop!(F, 0.0, Add, add, +);
    binop!(F, 0.0, Sub, sub, -);
    binop!(F, 0.0, Mul, mul, *);
    binop!(I, 0, BitAnd, bitand, &);
    binop!(I, 0, BitOr, bitor, |);

    impl<const N: usize> Add for I<N> {
        type Output = Self;
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            I(lanewise!(N, [0; N], |i| self.0[i].wrapping_add(o.0[i])))
        }
    }

    impl<const N: usize> Sub for I<N> {
        type Output = Self;
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            I(lanewise!(N, [0; N], |i| self.0[i].wrapping_sub(o.0[i])))
        }
    }

    impl<const N: usize> Mul for I<N> {
        type Output = Self;
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            I(lanewise!(N, [0; N], |i| self.0[i].wrapping_mul(o.0[i])))
        }
    }
}

#[cfg(any(test, not(target_arch = "x86_64")))]
pub(crate) use portable::Portable;
#[cfg(test)]
pub(crate) use portable::{F, I, M};

#[cfg(test)]
mod tests {
    use super::*;

    /// Edge values through every operation, against the scalar operation.
    #[test]
    fn lane_operations_equal_the_scalar_ones_lane_by_lane() {
        let v = [
            0.0f32,
            -0.0,
            0.5,
            -1.5,
            2.5,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1.0e-40,
            3.0e9,
            -3.0e9,
            16_777_217.0,
            0.499_999_97,
            1.0,
            -7.25,
            f32::MAX,
        ];
        let a = F(v);
        let mut w = v;
        w.rotate_left(3);
        let b = F(w);
        let same = |x: F<16>, f: &dyn Fn(usize) -> f32| {
            for i in 0..16 {
                assert_eq!(x.0[i].to_bits(), f(i).to_bits(), "lane {i}");
            }
        };
        same(a.floor(), &|i| v[i].floor());
        same(a.ceil(), &|i| v[i].ceil());
        same(a.round_ties_even(), &|i| v[i].round_ties_even());
        same(a.max(b), &|i| v[i].max(w[i]));
        same(a.min(b), &|i| v[i].min(w[i]));
        same(a + b, &|i| v[i] + w[i]);
        same(a * b, &|i| v[i] * w[i]);
        same(a.div(b), &|i| v[i] / w[i]);
        same(a.lt(b).select(a, b), &|i| {
            if v[i] < w[i] {
                v[i]
            } else {
                w[i]
            }
        });
        same(a.is_nan().select(b, a), &|i| {
            if v[i].is_nan() {
                w[i]
            } else {
                v[i]
            }
        });
        let t = a.to_i32();
        for (got, x) in t.0.iter().zip(v) {
            assert_eq!(*got, x as i32);
        }
        let k = I([0, 1, 5, 31, 7, 3, 2, 9, 0, 1, 5, 31, 7, 3, 2, 9]);
        let x = I([
            -1,
            7,
            i32::MIN,
            i32::MAX,
            12,
            -12,
            5,
            0,
            1,
            2,
            3,
            4,
            5,
            6,
            7,
            8,
        ]);
        let table: [u8; 16] = std::array::from_fn(|i| (255 - 17 * i) as u8);
        let got = Portable::<16>.lookup16(table, x);
        for i in 0..16 {
            assert_eq!(got.0[i], i32::from(table[(x.0[i] & 15) as usize]));
        }
        assert_eq!(Portable::<16>.lookup16(table, k).0[3], 255 - 17 * 15);
        assert!(I::<4>::splat(3).uniform());
        assert!(!I([1, 1, 2, 1]).uniform());
        assert!(!M([0, 0, -1, 0]).all() && M::<4>::splat(true).all());
    }
}

#[cfg(test)]
mod level_tests {
    use super::*;
    use crate::arch::{run_at, LaneKernel};
    use crate::cpu::SimdLevel;

    /// A byte table for `Lanes::lookup16` (every entry distinct, 0 and
    /// 255 among them).
    const LOOKUP: [u8; 16] = [
        0, 255, 1, 128, 127, 0x55, 0xaa, 7, 8, 9, 10, 200, 12, 13, 14, 254,
    ];

    /// An f32 table for `Lanes::table16` (every entry distinct, zeros,
    /// infinities and a NaN among them).
    const TABLE: [f32; 16] = [
        0.0,
        -0.0,
        1.5,
        -2.25,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1.0e-40,
        8.0,
        9.0,
        -10.0,
        f32::MAX,
        12.5,
        13.0,
        14.0,
        -15.0,
    ];

    /// Every lane operation on 16 lanes of `a` and `b`, 8 or 4 at a time,
    /// each result as bits.
    struct Ops {
        a: [f32; 16],
        b: [f32; 16],
        k: [i32; 16],
    }

    impl LaneKernel for Ops {
        type Out = Vec<[u32; 16]>;
        fn run<L: Lanes>(self, l: L) -> Vec<[u32; 16]> {
            let mut out = vec![[0u32; 16]; 46];
            for base in (0..16).step_by(L::N) {
                let (a, b) = (l.load(&self.a[base..]), l.load(&self.b[base..]));
                let k = l.load_i(&self.k[base..]);
                let ki = k & l.i(31);
                // In-range values for the conversions.
                let small = a.abs().lt(l.f(1.0e9)).select(a, l.f(3.0));
                let fs = [
                    a + b,
                    a - b,
                    a * b,
                    a.div(b),
                    a.floor(),
                    a.ceil(),
                    a.round_ties_even(),
                    a.sqrt(),
                    a.abs(),
                    a.max(b),
                    a.min(b),
                    a.lt(b).select(a, b),
                    a.le(b).select(a, b),
                    a.gt(b).select(a, b),
                    a.eq(b).select(a, b),
                    a.is_nan().select(b, a),
                    a.is_finite().select(a, b),
                    (a.lt(b) & b.is_finite()).select(a, b),
                    (a.lt(b) | a.is_nan()).not().select(a, b),
                    small.to_i32().to_f32(),
                    a.to_bits().as_f32_bits(),
                    l.srgb(k).sqrt(),
                    k.unorm8(),
                    k.shr(8).unorm8(),
                    k.nonzero().select(a, b),
                    k.f16_lo(),
                    k.f16_hi(),
                    l.table16(&TABLE, k),
                    l.table16(&TABLE, k.shr(4)),
                    // Operands whose product and sum are exact.
                    (k & l.i(0xfff)).to_f32().mul_add_exact(
                        (k.shr(12) & l.i(0xfff)).to_f32(),
                        (k.shr(24) & l.i(0xff)).to_f32(),
                    ),
                    k.unorm8_at(0),
                    k.unorm8_at(8),
                    k.unorm8_at(16),
                    k.unorm8_at(24),
                ];
                let is = [
                    k + ki,
                    k - ki,
                    k * ki,
                    (k & ki) | l.i(0x100),
                    k.shr(3),
                    k.shl(5),
                    l.lookup16(LOOKUP, k),
                    l.lookup16(LOOKUP, k.shr(4)),
                    Iv::max(k, ki),
                    k.mul_lo16(ki | k.shl(7)),
                    k.shr_u(3),
                    k.shr_u(31),
                ];
                // (Every result has its slot: `zip` would drop the last.)
                assert_eq!(fs.len() + is.len(), out.len());
                for (o, v) in out.iter_mut().zip(fs) {
                    let mut t = [0.0f32; 16];
                    l.store(v, &mut t[base..]);
                    for i in base..base + L::N {
                        o[i] = t[i].to_bits();
                    }
                }
                for (o, v) in out[fs.len()..].iter_mut().zip(is) {
                    let mut t = [0i32; 16];
                    v.write(&mut t[base..]);
                    for i in base..base + L::N {
                        o[i] = t[i] as u32;
                    }
                }
            }
            out
        }
    }

    #[test]
    fn every_level_gives_the_portable_bits_lane_by_lane() {
        let edge = [
            0.0f32,
            -0.0,
            0.5,
            -1.5,
            2.5,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1.0e-40,
            3.0e9,
            -3.0e9,
            16_777_217.0,
            0.499_999_97,
            1.0,
            -7.25,
            f32::MAX,
        ];
        // Roundings' edges: fractions between -1 and 0 (`ceil` gives
        // -0.0), halves (ties to even), the last fractions below 2^23 and
        // the first whole numbers from there, the largest f32 below 1,
        // subnormals.
        let round_edge = [
            -0.7f32,
            0.7,
            -0.5,
            -0.3,
            8_388_607.5,
            -8_388_607.5,
            4_194_303.5,
            -4_194_304.5,
            8_388_608.0,
            -8_388_609.0,
            1.5,
            -2.5,
            0.999_999_94,
            -0.999_999_94,
            1.0e-45,
            -1.0e-40,
        ];
        let mut s = 0x9e37_79b9u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        for round in 0..2_000 {
            let mut a = if round == 1 { round_edge } else { edge };
            let mut b = edge;
            let mut k = [0i32; 16];
            for i in 0..16 {
                if round > 1 {
                    a[i] = match next() % 4 {
                        0 => edge[(next() % 16) as usize],
                        1 => round_edge[(next() % 16) as usize],
                        _ => (next() as i32 as f32) / 65_536.0,
                    };
                }
                b[i] = edge[((i as u32 + round) % 16) as usize];
                if round % 2 == 1 {
                    b[i] = (next() as i32 as f32) / 1_048_576.0;
                }
                k[i] = next() as i32;
            }
            let want = Portable::<4>.run_ops(Ops { a, b, k });
            for level in SimdLevel::ALL {
                let got = run_at(level, Ops { a, b, k });
                for (n, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(g, w, "{level:?} op {n}: a {a:?} b {b:?} k {k:?}");
                }
            }
        }
    }

    /// `quads_lane` and `spread` at every level: 16 values per vector
    /// position, the quads of four vectors gathered and spread back.
    struct Shuffles {
        v: [[f32; 16]; 4],
    }

    impl LaneKernel for Shuffles {
        type Out = Vec<f32>;
        fn run<L: Lanes>(self, l: L) -> Vec<f32> {
            let v = [0, 1, 2, 3].map(|k| l.load(&self.v[k]));
            let mut out = Vec::new();
            for lane in 0..4 {
                let q = l.quads_lane(&v, lane);
                let mut t = [0.0f32; 16];
                l.store(q, &mut t);
                out.extend_from_slice(&t[..L::N]);
                for k in 0..4 {
                    l.store(l.spread(q, k), &mut t);
                    out.extend_from_slice(&t[..L::N]);
                    let i = l.spread_i(q.to_i32(), k).to_f32();
                    l.store(i, &mut t);
                    out.extend_from_slice(&t[..L::N]);
                }
            }
            for p in PERMS {
                let mut t = [0.0f32; 16];
                l.store(l.quad_perm(v[1], p), &mut t);
                out.extend_from_slice(&t[..L::N]);
            }
            out
        }
    }

    /// Quad permutations `quad_perm` is tested with: the fine-derivative
    /// neighbours and a reversal.
    const PERMS: [[u8; 4]; 5] = [
        [1, 1, 3, 3],
        [0, 0, 2, 2],
        [2, 3, 2, 3],
        [0, 1, 0, 1],
        [3, 2, 1, 0],
    ];

    #[test]
    fn quad_shuffles_match_their_definition_at_every_level() {
        let v: [[f32; 16]; 4] =
            std::array::from_fn(|k| std::array::from_fn(|i| (100 * k + i) as f32));
        // The levels this CPU runs: a level it lacks runs the best one
        // below, whose vectors hold fewer quads than `lanes()` says.
        for level in SimdLevel::ALL.into_iter().filter(|l| l.supported()) {
            let n = level.lanes();
            let got = run_at(level, Shuffles { v });
            let per = n / 4;
            let mut want = Vec::new();
            for lane in 0..4 {
                let q: Vec<f32> = (0..n).map(|q| v[q / per][4 * (q % per) + lane]).collect();
                want.extend_from_slice(&q);
                for k in 0..4 {
                    let sp: Vec<f32> = (0..n).map(|i| q[k * per + i / 4]).collect();
                    want.extend_from_slice(&sp);
                    want.extend_from_slice(&sp);
                }
            }
            for p in PERMS {
                want.extend((0..n).map(|i| v[1][(i & !3) + p[i & 3] as usize]));
            }
            assert_eq!(got, want, "{level:?}");
        }
    }

    /// [`Ops`] at `level` on the i32 lanes `k` (the f32 lanes all 1).
    fn int_ops(level: SimdLevel, k: [i32; 16]) -> Vec<[u32; 16]> {
        run_at(
            level,
            Ops {
                a: [1.0; 16],
                b: [1.0; 16],
                k,
            },
        )
    }

    /// Every 8-bit code at every level: exactly `code / 255`.
    #[test]
    fn unorm8_is_the_correctly_rounded_quotient_at_every_level() {
        for chunk in 0..16 {
            let k: [i32; 16] = std::array::from_fn(|i| (16 * chunk + i) as i32 | 0x5a00);
            for level in SimdLevel::ALL {
                let got = int_ops(level, k);
                for (i, &bits) in got[22].iter().enumerate() {
                    let c = (16 * chunk + i) as u8;
                    assert_eq!(f32::from_bits(bits), f32::from(c) / 255.0, "{level:?} {c}");
                }
            }
        }
    }

    /// `unorm8_at`: every code in every byte of a lane, the other bytes
    /// set (a code in the top byte makes the lane negative), at every
    /// level: exactly `code / 255`.
    #[test]
    fn unorm8_at_is_the_correctly_rounded_quotient_of_every_byte() {
        for byte in 0..4 {
            for chunk in 0..16 {
                let k: [i32; 16] = std::array::from_fn(|i| {
                    let c = (16 * chunk + i) as u32;
                    ((c << (8 * byte)) | (0xa5c3_5aff & !(0xff << (8 * byte)))) as i32
                });
                for level in SimdLevel::ALL {
                    let got = int_ops(level, k);
                    for (i, &bits) in got[30 + byte].iter().enumerate() {
                        let c = (16 * chunk + i) as u8;
                        assert_eq!(
                            f32::from_bits(bits),
                            f32::from(c) / 255.0,
                            "{level:?} byte {byte} code {c}"
                        );
                    }
                }
            }
        }
    }

    /// `div255` of every integer in `[0, 2^24)` at every level.
    struct Div255 {
        first: u32,
        count: u32,
        shift: i32,
    }

    impl LaneKernel for Div255 {
        type Out = Option<u32>;
        fn run<L: Lanes>(self, l: L) -> Option<u32> {
            let mut x = [0.0f32; 16];
            let mut y = [0.0f32; 16];
            let mut t = self.first;
            while t < self.first + self.count {
                for (i, v) in x.iter_mut().enumerate().take(L::N) {
                    *v = (t + i as u32) as f32;
                }
                l.store(l.load(&x).div255(self.shift), &mut y);
                let d = 255.0 * pow2(self.shift);
                for i in 0..L::N {
                    if y[i] != x[i] / d {
                        return Some(t + i as u32);
                    }
                }
                t += L::N as u32;
            }
            None
        }
    }

    #[test]
    fn div255_is_the_correctly_rounded_quotient_at_every_level() {
        // Unscaled, and at the two scales integer filtering divides by
        // (one level: 255 * 2^8; two: 255 * 2^16).
        for level in SimdLevel::ALL {
            for shift in [0, 8, 16] {
                let bad = run_at(
                    level,
                    Div255 {
                        first: 0,
                        count: 1 << 24,
                        shift,
                    },
                );
                assert_eq!(bad, None, "{level:?} shift {shift}");
            }
        }
    }

    impl Portable<4> {
        fn run_ops(self, ops: Ops) -> Vec<[u32; 16]> {
            ops.run(self)
        }
    }
}
