//! Mip chain generation.
//!
//! Each level is filtered from the one above it, per layer (cube face,
//! array layer), in linear light: sRGB texels decode to linear before
//! filtering and encode back after. The filter is a box that stays exact for
//! odd extents: halving an odd axis `2n+1 -> n` takes three source texels
//! with weights `(n-x)/(2n+1)`, `n/(2n+1)`, `(x+1)/(2n+1)`, so every source
//! texel contributes the same total weight (plain halving would drop the
//! last row or column). Axes are independent, so 3D levels use up to 27
//! taps. Large levels are filtered in parallel with rayon, a row per task.
//!
//! Not for integer or stencil formats (not filterable) and not for
//! block-compressed formats (re-encoding needs a compressor, which this
//! crate does not have): those give an `Unsupported` error. Depth formats
//! filter their depth aspect; a combined depth/stencil texel gets stencil 0
//! on generated levels.

use rayon::prelude::*;

use crate::error::{try_filled, Error, Result};
use crate::format::SampleType;
use crate::texel::{self, Texel};
use crate::texture::Texture;

/// Destination texel count above which a level is filtered in parallel.
const PARALLEL_TEXELS: usize = 1 << 14;

/// The taps `(source index, weight)` of destination index `x` when an axis
/// of `src` texels is halved (exact for odd sizes).
pub fn axis_taps(src: u32, x: u32) -> ([(u32, f32); 3], usize) {
    if src <= 1 {
        return ([(0, 1.0), (0, 0.0), (0, 0.0)], 1);
    }
    if src.is_multiple_of(2) {
        return ([(2 * x, 0.5), (2 * x + 1, 0.5), (0, 0.0)], 2);
    }
    let n = (src / 2) as f32;
    let s = src as f32;
    (
        [
            (2 * x, (n - x as f32) / s),
            (2 * x + 1, n / s),
            (2 * x + 2, (x as f32 + 1.0) / s),
        ],
        3,
    )
}

/// Index of texel `(x, y, z)` in a `w x h x _` level, row-major. In
/// `usize`: a valid level holds up to 2^32 texels (65536 x 65536), one past
/// what `u32` arithmetic can count.
fn texel_index(x: u32, y: u32, z: u32, w: u32, h: u32) -> usize {
    (z as usize * h as usize + y as usize) * w as usize + x as usize
}

/// Fills levels 1.. of every layer from level 0. Errors: `Unsupported`
/// formats (see the module docs) and
/// [`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory) when a level's
/// scratch cannot be allocated.
pub fn generate_mips(tex: &mut Texture) -> Result<()> {
    generate_with_threshold(tex, PARALLEL_TEXELS)
}

/// `tex` with its full mip chain: a copy with every level
/// ([`TextureDesc::max_levels`](crate::TextureDesc::max_levels)), level 0 of each layer and sample copied,
/// the rest made by [`generate_mips`] (a texture loaded from a PNG or
/// made from an image, one step from sampleable with mipmaps). A texture
/// that already has more than one level is copied as it is.
pub fn with_full_chain(tex: &Texture) -> Result<Texture> {
    let d = *tex.desc();
    if d.levels > 1 {
        return Ok(tex.clone());
    }
    let mut desc = d;
    desc.levels = d.max_levels();
    let mut out = Texture::new(desc, tex.layout())?;
    for layer in 0..d.layers {
        for sample in 0..d.samples {
            let bytes = tex
                .subresource_bytes(0, layer, sample)
                .ok_or_else(|| Error::out_of_range(format!("layer {layer} sample {sample}")))?;
            out.write_subresource_bytes(0, layer, sample, &bytes)?;
        }
    }
    generate_mips(&mut out)?;
    Ok(out)
}

fn generate_with_threshold(tex: &mut Texture, parallel_texels: usize) -> Result<()> {
    let desc = *tex.desc();
    let f = desc.format;
    if f.is_compressed() {
        return Err(Error::unsupported(
            f,
            "mip generation needs an uncompressed format (no block encoder)",
        ));
    }
    let aspect = f.default_aspect();
    if f.aspect_sample_type(aspect) != SampleType::Float {
        return Err(Error::unsupported(
            f,
            "integer and stencil formats are not filterable",
        ));
    }
    let bpp = f.block_bytes() as usize;
    for layer in 0..desc.layers {
        for level in 1..desc.levels {
            let se = desc.level_extent(level - 1);
            let de = desc.level_extent(level);
            let src_bytes = tex
                .subresource_bytes(level - 1, layer, 0)
                .ok_or_else(|| Error::out_of_range(format!("level {} layer {layer}", level - 1)))?;
            let decode_row =
                |row: &[u8], out: &mut [[f32; 4]]| texel::decode_f32_row(f, aspect, row, out);
            let n_src = texel_index(0, 0, se.depth, se.width, se.height);
            let mut src = try_filled(n_src, [0f32; 4], "mip generation (decoded level)")?;
            let row_texels = se.width as usize;
            if n_src >= parallel_texels {
                src.par_chunks_mut(row_texels)
                    .zip(src_bytes.par_chunks(row_texels * bpp))
                    .try_for_each(|(o, r)| decode_row(r, o))?;
            } else {
                decode_row(&src_bytes, &mut src)?;
            }
            let drow = de.width as usize * bpp;
            let rows = de.height as usize * de.depth as usize;
            let mut dst = try_filled(drow * rows, 0u8, "mip generation (filtered level)")?;
            let fill_row = |(ri, out): (usize, &mut [u8])| -> Result<()> {
                let y = (ri % de.height as usize) as u32;
                let z = (ri / de.height as usize) as u32;
                let (ty, ny) = axis_taps(se.height, y);
                let (tz, nz) = axis_taps(se.depth, z);
                for x in 0..de.width {
                    let (tx, nx) = axis_taps(se.width, x);
                    let mut acc = [0f64; 4];
                    for &(sz, wz) in &tz[..nz] {
                        for &(sy, wy) in &ty[..ny] {
                            for &(sx, wx) in &tx[..nx] {
                                let w = (wx * wy * wz) as f64;
                                let s = src[texel_index(sx, sy, sz, se.width, se.height)];
                                for c in 0..4 {
                                    acc[c] += w * s[c] as f64;
                                }
                            }
                        }
                    }
                    let v = Texel::Float(acc.map(|a| a as f32));
                    let o = x as usize * bpp;
                    texel::encode(f, aspect, v, &mut out[o..o + bpp])?;
                }
                Ok(())
            };
            if dst.len() / bpp >= parallel_texels {
                dst.par_chunks_mut(drow)
                    .enumerate()
                    .try_for_each(fill_row)?;
            } else {
                dst.chunks_mut(drow).enumerate().try_for_each(fill_row)?;
            }
            tex.write_subresource_bytes(level, layer, 0, &dst)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desc::TextureDesc;
    use crate::format::{Aspect, TextureFormat as F};
    use crate::texture::{Layout, TexelAddr};

    #[test]
    fn odd_axis_taps_weigh_every_source_texel_equally() {
        // 5 -> 2: each of the 5 source texels gets total weight 2/5.
        let mut total = [0f32; 5];
        for x in 0..2 {
            let (t, n) = axis_taps(5, x);
            for &(i, w) in &t[..n] {
                total[i as usize] += w;
            }
        }
        for w in total {
            assert!((w - 0.4).abs() < 1e-6, "{total:?}");
        }
        assert_eq!(axis_taps(4, 1).0[..2], [(2, 0.5), (3, 0.5)]);
    }

    #[test]
    fn texel_indices_of_the_largest_levels_do_not_wrap() {
        // A 65536 x 65536 level (valid: 4 GiB of R8) has 2^32 texels, a
        // count that was computed in u32 and wrapped to 0, leaving the
        // decoded level empty and the filter indexing past it.
        assert_eq!(texel_index(0, 0, 1, 65536, 65536), 1 << 32);
        assert_eq!(texel_index(65535, 65535, 0, 65536, 65536), (1 << 32) - 1);
        // 3D: 2048 x 2048 x 1024 (2^32 texels), the last one.
        assert_eq!(
            texel_index(2047, 2047, 1023, 2048, 2048),
            (1usize << 32) - 1
        );
        assert_eq!(texel_index(3, 2, 1, 5, 4), 4 * 5 + 2 * 5 + 3);
    }

    #[test]
    fn npot_2d_chain_averages_exactly() {
        // 5x3 R32F with texel value = x + 10y: a linear ramp stays linear
        // under the exact odd-extent box, so level 1 (2x1) is the mean of
        // each third: x centres at 1.0 and 3.0 weighted... check by sums.
        let d = TextureDesc::d2(F::R32Float, 5, 3);
        let mut bytes = Vec::new();
        for y in 0..3 {
            for x in 0..5 {
                bytes.extend_from_slice(&((x + 10 * y) as f32).to_le_bytes());
            }
        }
        bytes.resize(d.total_bytes().unwrap() as usize, 0);
        let mut t = Texture::from_linear_bytes(d, Layout::Tiled, &bytes).unwrap();
        generate_mips(&mut t).unwrap();
        let at = |l, x| {
            t.read_texel(TexelAddr::new(l, 0, 0, x, 0, 0), Aspect::Color)
                .unwrap()
                .to_f32()[0]
        };
        // Level 1 x=0: x weights (2/5, 2/5, 1/5) over 0,1,2 -> 0.8; y is the mean 10.
        assert!((at(1, 0) - 10.8).abs() < 1e-5, "{}", at(1, 0));
        assert!((at(1, 1) - 13.2).abs() < 1e-5, "{}", at(1, 1));
        // Level 2 (1x1) is the mean of level 1 = mean of the whole image 12.
        assert!((at(2, 0) - 12.0).abs() < 1e-5, "{}", at(2, 0));
    }

    #[test]
    fn srgb_mips_average_in_linear_light() {
        let d = TextureDesc::d2(F::Rgba8Srgb, 2, 1);
        let mut t = Texture::from_linear_bytes(
            d,
            Layout::Linear,
            &[0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 0],
        )
        .unwrap();
        generate_mips(&mut t).unwrap();
        // Linear mean 0.5 encodes to sRGB 188 (0.735), not 128.
        assert_eq!(
            t.subresource_bytes(1, 0, 0).unwrap(),
            vec![188, 188, 188, 255]
        );
    }

    #[test]
    fn three_d_and_cube_layers_get_their_own_chains() {
        let d = TextureDesc::d3(F::R8Unorm, 8, 4, 2);
        let mut t = Texture::from_linear_bytes(
            d,
            Layout::Linear,
            &vec![200u8; d.total_bytes().unwrap() as usize],
        )
        .unwrap();
        generate_mips(&mut t).unwrap();
        assert_eq!(t.subresource_bytes(3, 0, 0).unwrap(), vec![200]);
        let d = TextureDesc::cube(F::R8Unorm, 4);
        let mut bytes = vec![0u8; d.total_bytes().unwrap() as usize];
        bytes[5 * 16..6 * 16].fill(60); // face -Z of level 0
        let mut t = Texture::from_linear_bytes(d, Layout::Tiled, &bytes).unwrap();
        generate_mips(&mut t).unwrap();
        assert_eq!(t.subresource_bytes(2, 5, 0).unwrap(), vec![60]);
        assert_eq!(t.subresource_bytes(2, 4, 0).unwrap(), vec![0]);
    }

    #[test]
    fn integer_and_compressed_formats_are_refused() {
        let mut t = Texture::new(TextureDesc::d2(F::Rgba8Uint, 4, 4), Layout::Linear).unwrap();
        let e = generate_mips(&mut t).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Unsupported);
        let mut t = Texture::new(TextureDesc::d2(F::Bc1RgbUnorm, 8, 8), Layout::Linear).unwrap();
        let e = generate_mips(&mut t).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Unsupported);
    }

    #[test]
    fn large_levels_take_the_parallel_path_and_match() {
        let d = TextureDesc::d2(F::Rgba16Float, 257, 129);
        let n = d.total_bytes().unwrap() as usize;
        let bytes: Vec<u8> = (0..n)
            .map(|i| if i % 2 == 1 { 0x3c } else { (i % 251) as u8 })
            .collect();
        let mut par = Texture::from_linear_bytes(d, Layout::Linear, &bytes).unwrap();
        generate_with_threshold(&mut par, 0).unwrap();
        let l1 = par.desc().level_extent(1);
        assert_eq!((l1.width, l1.height), (128, 64));
        let mut serial = Texture::from_linear_bytes(d, Layout::Tiled, &bytes).unwrap();
        generate_with_threshold(&mut serial, usize::MAX).unwrap();
        assert_eq!(par.to_linear_bytes(), serial.to_linear_bytes());
        assert_ne!(par.subresource_bytes(1, 0, 0), None);
    }
}
