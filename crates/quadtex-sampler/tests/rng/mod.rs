//! The seeded xorshift64 generator of the twin, precision and robustness
//! tests: the same sequence for the same seed on every machine, so a
//! failing case names its seed and replays.
#![allow(
    dead_code,
    reason = "each test binary uses a different subset of these methods"
)]

/// xorshift64 (13, 7, 17); the seed must not be zero.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// The next 64 random bits.
    pub(crate) fn u(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A float in `[0, 1)` with 24 random bits.
    pub(crate) fn f(&mut self) -> f32 {
        (self.u() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A number below `n` (0 for `n = 0`).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.u() % n.max(1)
    }

    /// [`Rng::below`] as an index.
    pub(crate) fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// True one time in `n` (always for `n <= 1`).
    pub(crate) fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    /// One of `v` (not empty).
    pub(crate) fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.index(v.len())]
    }
}
