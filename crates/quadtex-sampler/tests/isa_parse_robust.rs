//! The SASS, PTX and D3D text parsers on bad input (issue 9): numbers
//! with a sign too many, which Rust's own number parsers accepted (`--5`
//! read as 5, `--9223372036854775808` overflowed the negation), and a
//! mutation smoke run: seeded instruction lines with characters inserted,
//! deleted and replaced, and numbers swapped for extreme ones, must give
//! `Ok` or `Err`, never a panic; SASS instructions that parse print text
//! that parses back to them.

use quadtex_sampler::isa::ptx::{self, Instr, Operand};
use quadtex_sampler::isa::{d3d, sass};
use quadtex_sampler::{Error, ErrorKind};

mod rng;
use rng::Rng;

const PTX_TEX: &str = "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2}]";

/// The immediate offsets of a parsed 2D `tex` with offset `{u, v}`.
fn ptx_offsets(u: &str, v: &str) -> Result<Vec<Operand>, Error> {
    match ptx::parse(&format!("{PTX_TEX}, {{{u}, {v}}};"))? {
        Instr::Tex(t) => Ok(t.offset.expect("an offset")),
        other => panic!("not a tex: {other:?}"),
    }
}

#[test]
fn ptx_immediates_take_one_sign() {
    assert_eq!(
        ptx_offsets("-3", "7").unwrap(),
        [Operand::Imm(-3i32 as u32), Operand::Imm(7)]
    );
    assert_eq!(
        ptx_offsets("-0x8", "0x0").unwrap(),
        [Operand::Imm(-8i32 as u32), Operand::Imm(0)]
    );
    for bad in [
        "--5",
        "--9223372036854775808",
        "-+5",
        "+-5",
        "--0x5",
        "0x+5",
        "-0x-5",
        "--1.5",
    ] {
        assert!(
            matches!(ptx_offsets(bad, "0"), Err(ref e)
                if e.kind() == ErrorKind::BadOperand && e.token().is_some_and(|s| s.contains(bad))),
            "{bad}: {:?}",
            ptx_offsets(bad, "0")
        );
    }
    // The compare operand: `--0.5` is not a number, `-0.5` is.
    let cmp = |f: &str| match ptx::parse(&format!(
        "tex.2d.v4.f32.f32 {{%f10,%f11,%f12,%f13}}, [tex1, {{%f1,%f2}}], {f};"
    )) {
        Ok(Instr::Tex(t)) => t.compare,
        _ => None,
    };
    assert_eq!(cmp("-0.5"), Some(Operand::Imm((-0.5f32).to_bits())));
    assert_eq!(cmp("--0.5"), None);
    assert_eq!(cmp("0f+3F00000"), None);
}

#[test]
fn sass_registers_and_immediates_are_digits_only() {
    assert!(sass::parse("TLD4.R R8, R0, 0x5, 2D;").is_ok());
    for bad in [
        "TLD4.R R+8, R0, 0x5, 2D;",
        "TLD4.R R8, R0, 0x+5, 2D;",
        "@P+1 TLD4.R R8, R0, 0x5, 2D;",
        "TLD4.R R8, R0, +5, 2D;",
        "TLD4.R R8, R0, 0x100000000, 2D;",
    ] {
        assert!(sass::parse(bad).is_err(), "{bad}");
    }
}

/// A `Ps` of PT printed as `P7`, which does not parse (found by the
/// mutation run below).
#[test]
fn a_sass_ps_of_pt_prints_as_pt_and_parses_back() {
    for line in [
        "TLD4.R PT, R8, R0, 0x5, 2D;",
        "@PT TEX.DC PT, R4, R0, R2, 0x5, 2D, 0x1;",
    ] {
        let i = sass::parse(line).unwrap();
        let text = i.to_string();
        assert!(text.contains("PT, R"), "{text}");
        assert_eq!(sass::parse(&text).ok(), Some(i), "{text}");
    }
}

/// Characters that matter to the grammars, plus multi-byte ones (slicing
/// by byte index must not split them).
const ALPHABET: &[char] = &[
    '-',
    '+',
    '0',
    '1',
    '7',
    '8',
    '9',
    'x',
    'X',
    'f',
    'F',
    'e',
    '.',
    ',',
    '{',
    '}',
    '[',
    ']',
    '(',
    ')',
    '|',
    '%',
    '@',
    '!',
    ';',
    ' ',
    'R',
    'P',
    'Z',
    'T',
    'r',
    'v',
    't',
    '_',
    '/',
    'é',
    'ß',
    '€',
    '\u{1F600}',
];

/// Numbers at and past every width's edge.
const NUMBERS: &[&str] = &[
    "-9223372036854775808",
    "--9223372036854775808",
    "9223372036854775808",
    "18446744073709551616",
    "4294967295",
    "4294967296",
    "-2147483649",
    "2147483648",
    "0xffffffff",
    "0x100000000",
    "0f7fc00000",
    "0fFFFFFFFF",
    "1e39",
    "-1e-46",
    "255",
    "256",
    "-0",
];

/// One random edit of `s`.
fn mutate(s: &str, rng: &mut Rng) -> String {
    let mut c: Vec<char> = s.chars().collect();
    let n = 1 + rng.index(3);
    for _ in 0..n {
        let at = rng.index(c.len() + 1);
        match rng.index(6) {
            0 if at < c.len() => {
                c.remove(at);
            }
            1 if at < c.len() => c[at] = ALPHABET[rng.index(ALPHABET.len())],
            2 => c.insert(at, ALPHABET[rng.index(ALPHABET.len())]),
            3 => {
                // Replace a run of digits (or insert) with an extreme number.
                let end = (at..c.len())
                    .find(|&i| !c[i].is_ascii_alphanumeric())
                    .unwrap_or(c.len());
                let num: Vec<char> = NUMBERS[rng.index(NUMBERS.len())].chars().collect();
                c.splice(at..end, num);
            }
            4 if !c.is_empty() => {
                // Duplicate a slice.
                let a = rng.index(c.len());
                let b = (a + 1 + rng.index(8)).min(c.len());
                let dup: Vec<char> = c[a..b].to_vec();
                c.splice(at..at, dup);
            }
            _ => c.truncate(at),
        }
    }
    c.into_iter().collect()
}

#[test]
fn text_parsers_never_panic_on_mutated_lines() {
    let sass_seeds = [
        "@!P1 TLD4.G.B.AOFFI.DC.NDV.NODEP.T P0, R8, R0, R4, 0x20, ARRAY_2D, 0xf;",
        "TLD4.R R4, R0, 0x10, 0x2, CUBE;",
        "@PT TMML.B.LOD.NDV.NODEP R0, R4, R8, 0, ARRAY_CUBE;",
        "@P2 TEX.B.LL.AOFFI.DC.NDV.NODEP.P P3, R4, R8, R12, 0x7, ARRAY_2D, 0x3;",
        "TLD.B.LL.AOFFI.MS R8, R0, R4, 0x0, 2D, 0xf;",
        "@!P1 TXQ R4, R0, 0x210, TEX_HEADER_DIMENSION, 0x3;",
    ];
    let ptx_seeds = [
        "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2}], {-3, 7};",
        "tex.grad.a2d.v4.f32.f32 {%f10,%f11,%f12,%f13}|%p1, [tex1, samp1, {%r0,%f1,%f1,%f1}], {%f3,%f4}, {%f5,%f6}, {1, -2}, %f7;",
        "tld4.r.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [tex1, {%f5,%f6}], {0fBF800000, 0x1};",
        "tex.level.cube.v4.f32.f32 {a,b,c,d}, [t, {x,y,z,w}], -0x8;",
        "txq.level.width.b32 %r1, [tex1], 2;",
        "istypep.samplerref %p1, %rd2;",
    ];
    let d3d_seeds = [
        "ld2dms_aoffimmi(1,-2,0) r0.xyzw, r1.xyzw, t0.wzyx, r2.x",
        "ld2dms r0.xz, v0.xyzw, t7.xyzw, r2.z // comment",
    ];
    let rounds: usize = std::env::var("QUADTEX_PARSE_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let mut rng = Rng(0x5eed_0009_0a75_e001);
    let (mut sass_ok, mut ptx_ok, mut d3d_ok) = (0, 0, 0);
    for _ in 0..rounds {
        let line = mutate(sass_seeds[rng.index(sass_seeds.len())], &mut rng);
        if let Ok(i) = sass::parse(&line) {
            sass_ok += 1;
            let text = i.to_string();
            match sass::parse(&text) {
                Ok(back) => assert_eq!(back, i, "{line:?} printed {text:?}"),
                Err(e) => panic!("{line:?} printed {text:?}: {e}"),
            }
        }
        let line = mutate(ptx_seeds[rng.index(ptx_seeds.len())], &mut rng);
        ptx_ok += usize::from(ptx::parse(&line).is_ok());
        let line = mutate(d3d_seeds[rng.index(d3d_seeds.len())], &mut rng);
        d3d_ok += usize::from(d3d::parse(&line).is_ok());
    }
    // Some mutations keep lines valid: the printing round trip ran.
    assert!(
        sass_ok > 0 && ptx_ok > 0 && d3d_ok > 0,
        "{sass_ok} {ptx_ok} {d3d_ok}"
    );
}
