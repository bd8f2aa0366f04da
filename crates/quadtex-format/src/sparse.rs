//! Sparse residency: which tiles of a texture are backed by memory.
//!
//! Tiles use Vulkan's *standard sparse image block shapes* (64 KiB pages;
//! Vulkan spec "Standard Sparse Image Block Shapes"): 2D 256x256 texels at
//! 8 bits down to 64x64 at 128 bits, 3D 64x32x32 down to 16x16x16, and the
//! multisample table per sample count. Block-compressed formats use the
//! shape of the uncompressed texel size equal to their block size, counted
//! in blocks. 96-bit formats (no standard shape) use the 128-bit shape; 1D
//! kinds use one row of a 64 KiB page. Levels from the first one smaller
//! than a tile on any axis form one mip tail per layer, made resident as a
//! unit. Reads of non-resident texels are the sampler's business; this map
//! only answers "is it resident".

use crate::desc::TextureDesc;
use crate::error::{Error, Result};

#[derive(Clone, Debug)]
struct LevelTiles {
    offset: usize,
    extent: (u32, u32, u32),
    nx: u32,
    ny: u32,
    nz: u32,
}

/// Per-tile residency of one texture.
#[derive(Clone, Debug)]
pub struct Residency {
    tile: (u32, u32, u32),
    mip_tail_first: u32,
    layers: u32,
    levels: Vec<LevelTiles>,
    tiles: Vec<bool>,
    mip_tail: Vec<bool>,
}

/// The standard sparse block shape in blocks for a block size in bytes.
fn standard_shape(desc: &TextureDesc) -> (u32, u32, u32) {
    let bytes = desc.format.block_bytes();
    let i = match bytes {
        1 => 0,
        2 => 1,
        4 => 2,
        8 => 3,
        _ => 4,
    };
    if desc.kind.dimensions() == 1 {
        return (65536 / [1, 2, 4, 8, 16][i], 1, 1);
    }
    if desc.kind.dimensions() == 3 {
        return [
            (64, 32, 32),
            (32, 32, 32),
            (32, 32, 16),
            (32, 16, 16),
            (16, 16, 16),
        ][i];
    }
    let (w, h) = match desc.samples {
        2 => [(128, 256), (128, 128), (64, 128), (64, 64), (32, 64)][i],
        4 => [(128, 128), (128, 64), (64, 64), (64, 32), (32, 32)][i],
        8 => [(64, 128), (64, 64), (32, 64), (32, 32), (16, 32)][i],
        16 => [(64, 64), (64, 32), (32, 32), (32, 16), (16, 16)][i],
        _ => [(256, 256), (256, 128), (128, 128), (128, 64), (64, 64)][i],
    };
    (w, h, 1)
}

impl Residency {
    /// A map for `desc` with every tile and mip tail non-resident.
    pub fn new(desc: &TextureDesc) -> Residency {
        let (bw, bh) = desc.format.block_extent();
        let (sx, sy, sz) = standard_shape(desc);
        let tile = (sx * bw, sy * bh, sz);
        let mut levels = Vec::new();
        let mut offset = 0;
        let mut mip_tail_first = desc.levels;
        for l in 0..desc.levels {
            let e = desc.level_extent(l);
            if e.width < tile.0 || e.height < tile.1 || e.depth < tile.2 {
                mip_tail_first = l;
                break;
            }
            let (nx, ny, nz) = (
                e.width.div_ceil(tile.0),
                e.height.div_ceil(tile.1),
                e.depth.div_ceil(tile.2),
            );
            levels.push(LevelTiles {
                offset,
                extent: (e.width, e.height, e.depth),
                nx,
                ny,
                nz,
            });
            offset += (nx * ny * nz) as usize * desc.layers as usize;
        }
        Residency {
            tile,
            mip_tail_first,
            layers: desc.layers,
            levels,
            tiles: vec![false; offset],
            mip_tail: vec![false; desc.layers as usize],
        }
    }

    /// Tile shape in texels (width, height, depth).
    pub fn tile_shape(&self) -> (u32, u32, u32) {
        self.tile
    }

    /// The first level stored in the mip tail (the level count when none is).
    pub fn mip_tail_first_level(&self) -> u32 {
        self.mip_tail_first
    }

    /// Tiles per axis of `level`, or `None` for mip-tail and missing levels.
    pub fn tile_count(&self, level: u32) -> Option<(u32, u32, u32)> {
        self.levels.get(level as usize).map(|l| (l.nx, l.ny, l.nz))
    }

    fn tile_index(&self, level: u32, layer: u32, tx: u32, ty: u32, tz: u32) -> Option<usize> {
        let l = self.levels.get(level as usize)?;
        (layer < self.layers && tx < l.nx && ty < l.ny && tz < l.nz).then(|| {
            l.offset
                + layer as usize * (l.nx * l.ny * l.nz) as usize
                + ((tz * l.ny + ty) * l.nx + tx) as usize
        })
    }

    /// Makes tile `(tx, ty, tz)` of (level, layer) resident or not.
    pub fn set_tile(
        &mut self,
        level: u32,
        layer: u32,
        tx: u32,
        ty: u32,
        tz: u32,
        resident: bool,
    ) -> Result<()> {
        let i = self.tile_index(level, layer, tx, ty, tz).ok_or_else(|| {
            Error::out_of_range(format!(
                "sparse tile ({tx}, {ty}, {tz}) of level {level} layer {layer}"
            ))
        })?;
        self.tiles[i] = resident;
        Ok(())
    }

    /// Makes the mip tail of `layer` resident or not.
    pub fn set_mip_tail(&mut self, layer: u32, resident: bool) -> Result<()> {
        let t = self
            .mip_tail
            .get_mut(layer as usize)
            .ok_or_else(|| Error::out_of_range(format!("mip tail of layer {layer}")))?;
        *t = resident;
        Ok(())
    }

    /// Makes everything resident or not.
    pub fn set_all(&mut self, resident: bool) {
        self.tiles.fill(resident);
        self.mip_tail.fill(resident);
    }

    /// Whether texel `(x, y, z)` of (level, layer) is resident; anything out
    /// of range is not.
    pub fn is_resident(&self, level: u32, layer: u32, x: u32, y: u32, z: u32) -> bool {
        if level >= self.mip_tail_first {
            return layer < self.layers
                && self.mip_tail.get(layer as usize).copied().unwrap_or(false);
        }
        let Some(l) = self.levels.get(level as usize) else {
            return false;
        };
        if x >= l.extent.0 || y >= l.extent.1 || z >= l.extent.2 {
            return false;
        }
        self.tile_index(
            level,
            layer,
            x / self.tile.0,
            y / self.tile.1,
            z / self.tile.2,
        )
        .is_some_and(|i| self.tiles[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::TextureFormat as F;

    #[test]
    fn standard_block_shapes() {
        let r = Residency::new(&TextureDesc::d2(F::Rgba8Unorm, 512, 512));
        assert_eq!(r.tile_shape(), (128, 128, 1));
        assert_eq!(r.tile_count(0), Some((4, 4, 1)));
        assert_eq!(r.mip_tail_first_level(), 3);
        assert_eq!(
            Residency::new(&TextureDesc::d2(F::R8Unorm, 256, 256)).tile_shape(),
            (256, 256, 1)
        );
        assert_eq!(
            Residency::new(&TextureDesc::d2(F::Rgba32Float, 64, 64)).tile_shape(),
            (64, 64, 1)
        );
        assert_eq!(
            Residency::new(&TextureDesc::d3(F::Rgba8Unorm, 64, 64, 64)).tile_shape(),
            (32, 32, 16)
        );
        assert_eq!(
            Residency::new(&TextureDesc::d2(F::Bc1RgbUnorm, 1024, 1024)).tile_shape(),
            (512, 256, 1)
        );
        assert_eq!(
            Residency::new(&TextureDesc::d2_ms(F::Rgba8Unorm, 256, 256, 4)).tile_shape(),
            (64, 64, 1)
        );
    }

    #[test]
    fn tiles_and_mip_tail_toggle_independently() {
        let mut r = Residency::new(&TextureDesc::d2(F::Rgba8Unorm, 300, 256));
        assert!(!r.is_resident(0, 0, 0, 0, 0));
        r.set_tile(0, 0, 2, 1, 0, true).unwrap();
        assert!(r.is_resident(0, 0, 299, 255, 0));
        assert!(r.is_resident(0, 0, 256, 128, 0));
        assert!(!r.is_resident(0, 0, 255, 128, 0));
        assert!(!r.is_resident(0, 0, 300, 128, 0), "outside the level");
        assert!(r.set_tile(0, 0, 3, 0, 0, true).is_err());
        assert_eq!(r.mip_tail_first_level(), 2);
        assert!(!r.is_resident(2, 0, 0, 0, 0));
        r.set_mip_tail(0, true).unwrap();
        assert!(r.is_resident(2, 0, 0, 0, 0));
        assert!(!r.is_resident(2, 1, 0, 0, 0));
        r.set_all(false);
        assert!(!r.is_resident(0, 0, 299, 255, 0));
    }
}
