//! The sampler inside someone else's renderer: no rasterizer, just a
//! texture, a sampler and 2x2 quads of coordinates, the way a software
//! renderer or GPU emulator hands them over.
//!
//! - build a mipmapped RGBA8 texture and a trilinear sampler, validate them;
//! - `QuadSampler::sample` on one quad, then `QuadSampler::sample_quads` on
//!   a batch (a row of quads, as a tile would issue them);
//! - `gather` (TLD4), `query_lod` (TMML) and `fetch` (`ld`) on the same
//!   texture.
//!
//! ```text
//! cargo run --release --example plug_in_sampler
//! ```

use std::sync::Arc;

use quadtex::format::{mip::generate_mips, Layout, Texture, TextureDesc, TextureFormat};
use quadtex::sampler::{
    gather, query_lod, AddressMode, FetchArgs, GatherArgs, Profile, Quad, QuadResult, QuadSampler,
    SampleArgs, SamplerHeader, TextureHeader,
};

/// Float RGBA of one lane (0 for lanes that did not run).
fn rgba(r: &QuadResult, lane: usize) -> [f32; 4] {
    r.texels[lane].map_or([0.0; 4], |t| t.to_f32())
}

/// A quad centred on `(u, v)` whose pixels are `step` apart in `u` and `v`:
/// lane order 0 = (x, y), 1 = (x+1, y), 2 = (x, y+1), 3 = (x+1, y+1).
fn quad_at(u: f32, v: f32, step: f32) -> Quad {
    Quad::new(std::array::from_fn(|l| {
        let (dx, dy) = ((l & 1) as f32, (l >> 1) as f32);
        [u + dx * step, v + dy * step, 0.0, 0.0]
    }))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A 64x64 RGBA8 texture: red rises left to right, green top to bottom,
    // blue is a 8x8 checker. Then its full mip chain.
    let (w, h) = (64u32, 64u32);
    let mut texels = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let checker = ((x / 8) + (y / 8)) % 2 == 0;
            texels.extend_from_slice(&[
                (x * 4) as u8,
                (y * 4) as u8,
                if checker { 255 } else { 0 },
                255,
            ]);
        }
    }
    // Linear: rows of texels, where the kernels read a footprint row's
    // two 4-byte texels as one load (`Layout::Tiled` reads them one by
    // one).
    let mut full = Texture::new(
        TextureDesc::d2(TextureFormat::Rgba8Unorm, w, h),
        Layout::Linear,
    )?;
    full.write_subresource_bytes(0, 0, 0, &texels)?;
    generate_mips(&mut full)?;
    let view = TextureHeader::new(Arc::new(full));
    let sampler = SamplerHeader::trilinear(AddressMode::Repeat);
    sampler.validate_with(&view)?;
    let profile = Profile::VULKAN;
    println!(
        "texture: {}x{}, {} levels",
        w,
        h,
        view.texture.desc().levels
    );

    // One QuadSampler per (view, sampler): the per-draw setup done once.
    let mut unit = QuadSampler::new(&view, &sampler, &profile);
    let args = SampleArgs::default();

    // One quad, one texel per pixel (LOD 0), at the texture's centre.
    let q = quad_at(0.5, 0.5, 1.0 / w as f32);
    let r = unit.sample(&args, &q);
    println!("sample at (0.5, 0.5), LOD 0: lane 0 = {:?}", rgba(&r, 0));

    // A batch: a row of 16 quads, minified 4x (LOD 2), as a tile would
    // issue them. sample_quads runs full quads several per SIMD register.
    let quads: Vec<Quad> = (0..16)
        .map(|i| quad_at(i as f32 / 16.0, 0.25, 4.0 / w as f32))
        .collect();
    let mut out = vec![QuadResult::EMPTY; quads.len()];
    unit.sample_quads(&args, &quads, &mut out);
    for (i, r) in out.iter().enumerate().step_by(5) {
        println!("sample_quads[{i:2}] lane 0 = {:?}", rgba(r, 0));
    }
    // The batch gives sample()'s bits.
    assert!(quads
        .iter()
        .zip(&out)
        .all(|(q, r)| unit.sample(&args, q).texels == r.texels));

    // Gather (TLD4): the red component of the 2x2 bilinear footprint,
    // in the order (i0, j1), (i1, j1), (i1, j0), (i0, j0).
    let g = gather(&view, &sampler, &profile, &GatherArgs::default(), &q);
    println!("gather red at (0.5, 0.5): {:?}", rgba(&g, 0));

    // query_lod (TMML): the level each footprint would read.
    for step in [1.0, 4.0, 16.0] {
        let lod = query_lod(
            &view,
            &sampler,
            &profile,
            &args,
            &quad_at(0.5, 0.5, step / w as f32),
        );
        let accessed = lod[0].map_or(f32::NAN, |l| l.accessed);
        println!("query_lod, {step:>2} texels per pixel: level {accessed:.2}");
    }

    // fetch (ld): integer texel coordinates, level 1, no filtering.
    let fetch_args = FetchArgs {
        icoords: [[0, 0, 0, 0], [31, 0, 0, 0], [0, 31, 0, 0], [31, 31, 0, 0]],
        level: [1; 4],
        ..FetchArgs::default()
    };
    let f = quadtex::sampler::fetch(&view, &fetch_args, 0xf);
    for lane in 0..4 {
        println!(
            "fetch level 1 texel {:?} = {:?}",
            &fetch_args.icoords[lane][..2],
            rgba(&f, lane)
        );
    }
    Ok(())
}
