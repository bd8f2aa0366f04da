//! Linear and tiled storage hold the same texels: every texel of every
//! kind, for formats of every block size, reads back identically.

use quadtex_format::{Layout, TexelAddr, Texture, TextureDesc, TextureFormat as F, TextureKind};

fn descs() -> Vec<TextureDesc> {
    let mut v = Vec::new();
    for f in [
        F::R8Unorm,
        F::Rg8Unorm,
        F::Rgba8Unorm,
        F::Rgba16Float,
        F::Rgb32Float,
        F::Rgba32Uint,
        F::Depth32FloatS8Uint,
    ] {
        v.push(TextureDesc::d1(f, 37));
        v.push(TextureDesc::d1(f, 19).with_layers(TextureKind::D1Array, 3));
        v.push(TextureDesc::d2(f, 13, 7));
        v.push(TextureDesc::d2(f, 9, 5).with_layers(TextureKind::D2Array, 4));
        v.push(TextureDesc::d3(f, 9, 6, 5));
        v.push(TextureDesc::cube(f, 6));
        v.push(TextureDesc::cube(f, 5).with_layers(TextureKind::CubeArray, 12));
        v.push(TextureDesc::d2_ms(f, 7, 3, 4));
        v.push(TextureDesc::d2_ms(f, 5, 6, 2).with_layers(TextureKind::D2MsArray, 3));
        v.push(TextureDesc::d2_no_mipmap(f, 11, 3));
    }
    for f in [
        F::Bc1RgbaUnorm,
        F::Bc7Unorm,
        F::Astc10x6Unorm,
        F::Etc2Rgb8Unorm,
    ] {
        v.push(TextureDesc::d2(f, 23, 17));
        v.push(TextureDesc::d2(f, 9, 9).with_layers(TextureKind::D2Array, 2));
        v.push(TextureDesc::cube(f, 12).with_layers(TextureKind::CubeArray, 6));
        v.push(TextureDesc::d3(f, 8, 8, 3));
    }
    v
}

#[test]
fn every_texel_of_every_kind_reads_back_identically_in_both_layouts() {
    let mut seed = 0x1234_5678u32;
    for d in descs() {
        d.validate().unwrap_or_else(|e| panic!("{d:?}: {e}"));
        let n = d.total_bytes().unwrap() as usize;
        let bytes: Vec<u8> = (0..n)
            .map(|_| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (seed >> 24) as u8
            })
            .collect();
        let lin = Texture::from_linear_bytes(d, Layout::Linear, &bytes).unwrap();
        let til = Texture::from_linear_bytes(d, Layout::Tiled, &bytes).unwrap();
        assert_eq!(til.bytes().as_ptr() as usize % 64, 0);
        assert_eq!(lin.to_linear_bytes(), bytes, "{d:?}");
        assert_eq!(til.to_linear_bytes(), bytes, "{d:?}");
        assert_eq!(lin.to_layout(Layout::Tiled).bytes(), til.bytes());
        // Texel by texel, through the block addressing both layouts share.
        let (bw, bh) = d.format.block_extent();
        let mut pos = 0usize;
        let bpb = d.format.block_bytes() as usize;
        for level in 0..d.levels {
            let e = d.level_extent(level);
            for layer in 0..d.layers {
                for sample in 0..d.samples {
                    for z in 0..e.depth {
                        for by in 0..e.height.div_ceil(bh) {
                            for bx in 0..e.width.div_ceil(bw) {
                                let want = &bytes[pos..pos + bpb];
                                pos += bpb;
                                let (x, y) = (bx * bw + bw - 1, by * bh);
                                let (x, y) = (x.min(e.width - 1), y.min(e.height - 1));
                                for t in [&lin, &til] {
                                    assert_eq!(
                                        t.texel_block(TexelAddr::new(
                                            level, layer, sample, x, y, z
                                        )),
                                        Some(want),
                                        "{d:?} l{level} a{layer} s{sample} ({x},{y},{z})"
                                    );
                                }
                            }
                        }
                    }
                    assert_eq!(
                        lin.texel_block(TexelAddr::new(level, layer, sample, e.width, 0, 0)),
                        None
                    );
                    assert_eq!(
                        til.texel_block(TexelAddr::new(level, layer, sample, 0, e.height, 0)),
                        None
                    );
                }
            }
        }
        assert_eq!(pos, n);
        assert_eq!(
            lin.texel_block(TexelAddr::new(d.levels, 0, 0, 0, 0, 0)),
            None
        );
        assert_eq!(
            til.texel_block(TexelAddr::new(0, d.layers, 0, 0, 0, 0)),
            None
        );
        assert_eq!(
            til.texel_block(TexelAddr::new(0, 0, d.samples, 0, 0, 0)),
            None
        );
    }
}
