//! The fuzz targets on the stable toolchain: every target replays its seed
//! corpus (`fuzz/seeds/<target>/`) and every input a fuzzer ever found a
//! defect with (`fuzz/regressions/<target>/`), then a few thousand inputs
//! made by mutating the seeds (bit flips, byte runs, splices, truncation)
//! and purely random ones, from a fixed seed so a failure reproduces.
//! `QUADTEX_FUZZ_SMOKE=N` runs N generated inputs per target instead of the
//! default. Long coverage-guided runs are `cargo fuzz` (docs/fuzzing.md).

use std::path::{Path, PathBuf};

use quadtex_fuzz::{Target, TARGETS};

/// Generated inputs per target by default: enough to reach every loader's
/// error paths, few enough to keep the test run short.
const DEFAULT_RUNS: usize = 2000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files under `dir`, sorted (none if it does not exist).
fn inputs(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("readable corpus file");
            (p, bytes)
        })
        .collect()
}

/// One mutation of `seed`, `other` spliced in now and then.
fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(8) {
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] = [0, 0xff, 0x7f, 0x80, b'9', b'-', b'"'][rng.below(7)];
            }
            2 => {
                let i = rng.below(v.len() + 1);
                let run: Vec<u8> = (0..1 + rng.below(16)).map(|_| rng.next() as u8).collect();
                v.splice(i..i, run);
            }
            3 if !v.is_empty() => {
                let i = rng.below(v.len());
                let n = rng.below(v.len() - i + 1);
                v.drain(i..i + n);
            }
            4 if !v.is_empty() => v.truncate(rng.below(v.len())),
            5 if !other.is_empty() => {
                let i = rng.below(v.len() + 1);
                let j = rng.below(other.len());
                let n = rng.below(other.len() - j + 1).min(256);
                v.splice(i..i, other[j..j + n].iter().copied());
            }
            _ if v.len() >= 4 => {
                // A little-endian word at a random place: sizes and counts.
                let i = rng.below(v.len() - 3);
                let w = [0u32, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 65536][rng.below(6)];
                v[i..i + 4].copy_from_slice(&w.to_le_bytes());
            }
            _ => {}
        }
    }
    v
}

fn runs() -> usize {
    std::env::var("QUADTEX_FUZZ_SMOKE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_RUNS)
}

fn smoke(name: &str, target: Target) {
    let seeds = inputs(&fuzz_dir().join("seeds").join(name));
    let regressions = inputs(&fuzz_dir().join("regressions").join(name));
    assert!(!seeds.is_empty(), "fuzz/seeds/{name} has no seeds");
    let mut reached = 0;
    for (path, bytes) in seeds.iter().chain(&regressions) {
        eprintln!("{name}: {}", path.display());
        reached += usize::from(target(bytes));
    }
    // A corpus that never gets past parsing tests nothing.
    assert!(
        reached * 2 >= seeds.len(),
        "{name}: only {reached} of {} seeds got past parsing",
        seeds.len()
    );
    let mut generated = 0;
    // A stream of its own per target (FNV-1a of the name).
    let seed = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut rng = Rng(seed | 1);
    for i in 0..runs() {
        let input = if i % 8 == 7 {
            (0..rng.below(512)).map(|_| rng.next() as u8).collect()
        } else {
            let a = &seeds[rng.below(seeds.len())].1;
            let b = &seeds[rng.below(seeds.len())].1;
            mutate(&mut rng, a, b)
        };
        generated += usize::from(target(&input));
    }
    // Mutants of checksummed formats (PNG) rarely parse: reported, not
    // asserted.
    eprintln!(
        "{name}: {generated} of {} generated inputs got past parsing",
        runs()
    );
}

macro_rules! smoke_tests {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            let name = stringify!($name);
            let target = quadtex_fuzz::target(name).expect("a target of that name");
            smoke(name, target);
        }
    )*
    /// Every target has its smoke test above.
    #[test]
    fn every_target_has_a_smoke_test() {
        let tested = [$(stringify!($name)),*];
        for (name, _) in TARGETS {
            assert!(tested.contains(name), "no smoke test for target {name}");
        }
    }};
}

smoke_tests!(
    ktx2,
    dds,
    image,
    scene,
    probe,
    sass,
    ptx,
    d3d,
    sampler_twin,
    raster
);
