//! Lane vectors for the planar kernel: `N` f32 or i32 lanes (4, 8 or 16)
//! as plain arrays with one branch-free loop per operation.
//!
//! Every operation is `#[inline(always)]`, so inside a function compiled
//! for a SIMD level ([`crate::arch::run_at`]) a chain of them becomes
//! straight-line code that LLVM's SLP vectoriser packs into that level's
//! registers (one AVX-512 instruction per operation at 16 lanes). Each
//! operation is the scalar operation of the same name on every lane, so
//! kernels written with them keep [`crate::reference`]'s bits.

use std::ops::{Add, BitAnd, BitOr, Mul, Sub};

/// `N` f32 lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct F<const N: usize>(pub(crate) [f32; N]);

/// `N` i32 lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct I<const N: usize>(pub(crate) [i32; N]);

/// `N` lane conditions, each all ones (true) or zero.
#[derive(Clone, Copy, Debug)]
pub(crate) struct M<const N: usize>(pub(crate) [i32; N]);

macro_rules! lanewise {
    ($n:ident, $a:expr, |$i:ident| $e:expr) => {{
        let mut out = $a;
        for $i in 0..$n {
            out[$i] = $e;
        }
        out
    }};
}

impl<const N: usize> F<N> {
    /// Every lane `v`.
    #[inline(always)]
    pub(crate) fn splat(v: f32) -> Self {
        F([v; N])
    }
    /// `f32::floor` per lane.
    #[inline(always)]
    pub(crate) fn floor(self) -> Self {
        F(lanewise!(N, [0.0; N], |i| self.0[i].floor()))
    }
    /// `f32::ceil` per lane.
    #[inline(always)]
    pub(crate) fn ceil(self) -> Self {
        F(lanewise!(N, [0.0; N], |i| self.0[i].ceil()))
    }
    /// `f32::round_ties_even` per lane.
    #[inline(always)]
    pub(crate) fn round_ties_even(self) -> Self {
        F(lanewise!(N, [0.0; N], |i| self.0[i].round_ties_even()))
    }
    /// `f32::sqrt` per lane.
    #[inline(always)]
    pub(crate) fn sqrt(self) -> Self {
        F(lanewise!(N, [0.0; N], |i| self.0[i].sqrt()))
    }
    /// `f32::abs` per lane.
    #[inline(always)]
    pub(crate) fn abs(self) -> Self {
        F(lanewise!(N, [0.0; N], |i| self.0[i].abs()))
    }
    /// `f32::max` per lane (a NaN operand gives the other).
    #[inline(always)]
    pub(crate) fn max(self, o: Self) -> Self {
        F(lanewise!(N, [0.0; N], |i| self.0[i].max(o.0[i])))
    }
    /// `f32::min` per lane (a NaN operand gives the other).
    #[inline(always)]
    pub(crate) fn min(self, o: Self) -> Self {
        F(lanewise!(N, [0.0; N], |i| self.0[i].min(o.0[i])))
    }
    /// Division per lane.
    #[inline(always)]
    pub(crate) fn div(self, o: Self) -> Self {
        F(lanewise!(N, [0.0; N], |i| self.0[i] / o.0[i]))
    }
    /// `self < o` per lane.
    #[inline(always)]
    pub(crate) fn lt(self, o: Self) -> M<N> {
        M(lanewise!(N, [0; N], |i| -i32::from(self.0[i] < o.0[i])))
    }
    /// `self <= o` per lane.
    #[inline(always)]
    pub(crate) fn le(self, o: Self) -> M<N> {
        M(lanewise!(N, [0; N], |i| -i32::from(self.0[i] <= o.0[i])))
    }
    /// `self > o` per lane.
    #[inline(always)]
    pub(crate) fn gt(self, o: Self) -> M<N> {
        o.lt(self)
    }
    /// `self == o` per lane.
    #[inline(always)]
    pub(crate) fn eq(self, o: Self) -> M<N> {
        M(lanewise!(N, [0; N], |i| -i32::from(self.0[i] == o.0[i])))
    }
    /// `f32::is_nan` per lane.
    #[inline(always)]
    pub(crate) fn is_nan(self) -> M<N> {
        M(lanewise!(N, [0; N], |i| -i32::from(self.0[i].is_nan())))
    }
    /// `f32::is_finite` per lane.
    #[inline(always)]
    pub(crate) fn is_finite(self) -> M<N> {
        M(lanewise!(N, [0; N], |i| -i32::from(self.0[i].is_finite())))
    }
    /// Lane `l` of each lane's quad (lanes `4k..4k + 4` form quad `k`).
    #[inline(always)]
    pub(crate) fn quad_lane(self, l: usize) -> Self {
        F(lanewise!(N, [0.0; N], |i| self.0[(i & !3) | l]))
    }
    /// `x as i32` per lane (saturating, NaN to 0).
    #[inline(always)]
    pub(crate) fn to_i32(self) -> I<N> {
        I(lanewise!(N, [0; N], |i| self.0[i] as i32))
    }
    /// The lanes' bits.
    #[inline(always)]
    pub(crate) fn to_bits(self) -> I<N> {
        I(lanewise!(N, [0; N], |i| self.0[i].to_bits() as i32))
    }
}

impl<const N: usize> I<N> {
    /// Every lane `v`.
    #[inline(always)]
    pub(crate) fn splat(v: i32) -> Self {
        I([v; N])
    }
    /// `v as f32` per lane.
    #[inline(always)]
    pub(crate) fn to_f32(self) -> F<N> {
        F(lanewise!(N, [0.0; N], |i| self.0[i] as f32))
    }
    /// Lanes as f32 bits.
    #[inline(always)]
    pub(crate) fn as_f32_bits(self) -> F<N> {
        F(lanewise!(N, [0.0; N], |i| f32::from_bits(self.0[i] as u32)))
    }
    /// Arithmetic shift right by `k` bits per lane.
    #[inline(always)]
    pub(crate) fn shr(self, k: i32) -> Self {
        I(lanewise!(N, [0; N], |i| self.0[i] >> k))
    }
    /// Shift left by `k` bits per lane.
    #[inline(always)]
    pub(crate) fn shl(self, k: i32) -> Self {
        I(lanewise!(N, [0; N], |i| self.0[i] << k))
    }
    /// Shift right by each lane's own count (`0..32`).
    #[inline(always)]
    pub(crate) fn shr_v(self, k: Self) -> Self {
        I(lanewise!(N, [0; N], |i| self.0[i] >> (k.0[i] & 31)))
    }
    /// Shift left by each lane's own count (`0..32`).
    #[inline(always)]
    pub(crate) fn shl_v(self, k: Self) -> Self {
        I(lanewise!(N, [0; N], |i| self.0[i] << (k.0[i] & 31)))
    }
    /// `i32::max` per lane.
    #[inline(always)]
    pub(crate) fn max(self, o: Self) -> Self {
        I(lanewise!(N, [0; N], |i| self.0[i].max(o.0[i])))
    }
    /// `i32::min` per lane.
    #[inline(always)]
    pub(crate) fn min(self, o: Self) -> Self {
        I(lanewise!(N, [0; N], |i| self.0[i].min(o.0[i])))
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
    /// `self ? a : b` per lane.
    #[inline(always)]
    pub(crate) fn select(self, a: F<N>, b: F<N>) -> F<N> {
        F(lanewise!(N, [0.0; N], |i| f32::from_bits(
            ((a.0[i].to_bits() as i32 & self.0[i]) | (b.0[i].to_bits() as i32 & !self.0[i])) as u32
        )))
    }
    /// Negation per lane.
    #[inline(always)]
    pub(crate) fn not(self) -> Self {
        M(lanewise!(N, [0; N], |i| !self.0[i]))
    }
    /// Whether every lane is true.
    #[inline(always)]
    pub(crate) fn all(self) -> bool {
        let mut a = -1;
        for i in 0..N {
            a &= self.0[i];
        }
        a == -1
    }
    /// -1 for true lanes, 0 for false.
    #[inline(always)]
    pub(crate) fn to_i32(self) -> I<N> {
        I(self.0)
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
        let s = x.shr_v(k);
        let l = x.shl_v(k);
        for i in 0..16 {
            assert_eq!(s.0[i], x.0[i] >> k.0[i]);
            assert_eq!(l.0[i], x.0[i] << k.0[i]);
        }
        assert!(I::<4>::splat(3).uniform());
        assert!(!I([1, 1, 2, 1]).uniform());
        assert!(!M([0, 0, -1, 0]).all() && M::<4>::splat(true).all());
    }
}
