//! Header and sampler pools, bindless handles, and PTX texturing modes.
//!
//! NVIDIA hardware names a texture by a 32-bit handle `samplerPtr[31:20] |
//! headerPtr[19:0]` (the SASS TLD4 reference, `.B`; docs/semantics.md §8),
//! either taken from a register (bindless) or fetched from a constant bank at
//! word `#tsPtrIdxU13 = {#smpU05, #tidU08}`. In header-binding mode (OpenGL's
//! `SetSamplerBinding.ViaHeaderBinding`) the header index doubles as the
//! sampler index. Any header index above the header pool's maximum, or sampler
//! index above the sampler pool's maximum, is an *invalid* texture: every lane
//! of every operation reads zeros (the SASS TLD4 reference; docs/semantics.md
//! §8, "Invalid textures"). Empty slots inside the pools are invalid too.
//!
//! PTX's unified and independent texturing modes (PTX ISA 9.7.10.1 and its
//! Table 34; docs/semantics.md §8) are [`TexturingMode`]: the same pools
//! with PTX's limits.

use crate::error::{Error, Result};
use crate::header::{SamplerHeader, TextureHeader};

/// A packed bindless handle: `samplerPtr[31:20] | headerPtr[19:0]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Handle(pub u32);

impl Handle {
    /// Packs a header index (20 bits) and a sampler index (12 bits);
    /// `None` if either does not fit.
    pub const fn new(header: u32, sampler: u32) -> Option<Handle> {
        if header >= 1 << 20 || sampler >= 1 << 12 {
            None
        } else {
            Some(Handle((sampler << 20) | header))
        }
    }

    /// `headerPtr[19:0]`.
    pub const fn header(self) -> u32 {
        self.0 & 0xf_ffff
    }

    /// `samplerPtr[31:20]`.
    pub const fn sampler(self) -> u32 {
        self.0 >> 20
    }
}

/// `#tsPtrIdxU13 = {#smpU05, #tidU08}`: the Fermi-style immediates packed
/// into the 13-bit constant-bank word index (the SASS TLD4 reference).
pub const fn ts_ptr_idx(tid: u8, smp: u8) -> u16 {
    (((smp & 0x1f) as u16) << 8) | tid as u16
}

/// Where sampler indices come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SamplerBinding {
    /// The handle's `samplerPtr` field names the sampler.
    #[default]
    Independent,
    /// `ViaHeaderBinding`: the header index is also the sampler index.
    ViaHeaderBinding,
}

/// PTX texturing modes and their limits (PTX ISA 9.7.10.1, Table 34,
/// `sm_3x+`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TexturingMode {
    /// `texmode_unified`: a `.texref` carries its sampler state; 256
    /// textures and 256 samplers.
    #[default]
    Unified,
    /// `texmode_independent`: `.texref` and `.samplerref` pair freely; 256
    /// textures, 32 samplers.
    Independent,
}

impl TexturingMode {
    /// `(textures, samplers, surfaces)` on `sm_3x` and later.
    pub const fn limits(self) -> (u32, u32, u32) {
        match self {
            TexturingMode::Unified => (256, 256, 16),
            TexturingMode::Independent => (256, 32, 16),
        }
    }

    /// `(textures, samplers, surfaces)` on `sm_1x` and `sm_2x`.
    pub const fn limits_sm2x(self) -> (u32, u32, u32) {
        match self {
            TexturingMode::Unified => (128, 128, 8),
            TexturingMode::Independent => (128, 16, 8),
        }
    }
}

/// What a handle or index names, for `istypep`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpaqueType {
    /// `.texref`.
    Texref,
    /// `.samplerref`.
    Samplerref,
    /// `.surfref`.
    Surfref,
}

/// The texture header pool, the sampler pool and the constant bank of
/// packed handles.
#[derive(Clone, Debug, Default)]
pub struct Pools {
    headers: Vec<Option<TextureHeader>>,
    samplers: Vec<Option<SamplerHeader>>,
    /// `SetTexHeaderPoolC.MaximumIndex`.
    pub header_max: u32,
    /// `SetSamplerHeaderPoolC.MaximumIndex`.
    pub sampler_max: u32,
    /// Sampler binding mode.
    pub binding: SamplerBinding,
    /// The constant bank the `#tsPtrIdxU13` form reads handles from.
    pub const_bank: Vec<u32>,
}

impl Pools {
    /// Empty pools.
    pub fn new() -> Pools {
        Pools::default()
    }

    /// Pools with a PTX texturing mode's limits as maxima.
    pub fn for_ptx(mode: TexturingMode) -> Pools {
        let (t, s, _) = mode.limits();
        Pools {
            header_max: t - 1,
            sampler_max: s - 1,
            binding: match mode {
                TexturingMode::Unified => SamplerBinding::ViaHeaderBinding,
                TexturingMode::Independent => SamplerBinding::Independent,
            },
            ..Pools::default()
        }
    }

    /// Stores a validated header at `index` (growing the pool and raising
    /// the maximum index if needed).
    pub fn set_header(&mut self, index: u32, header: TextureHeader) -> Result<()> {
        if index >= 1 << 20 {
            return Err(Error::invalid_index(format!(
                "header index {index} exceeds 20 bits"
            )));
        }
        header.validate()?;
        let i = index as usize;
        if self.headers.len() <= i {
            self.headers.resize(i + 1, None);
        }
        self.headers[i] = Some(header);
        self.header_max = self.header_max.max(index);
        Ok(())
    }

    /// Stores a validated sampler at `index`.
    pub fn set_sampler(&mut self, index: u32, sampler: SamplerHeader) -> Result<()> {
        if index >= 1 << 12 {
            return Err(Error::invalid_index(format!(
                "sampler index {index} exceeds 12 bits"
            )));
        }
        sampler.validate()?;
        let i = index as usize;
        if self.samplers.len() <= i {
            self.samplers.resize(i + 1, None);
        }
        self.samplers[i] = Some(sampler);
        self.sampler_max = self.sampler_max.max(index);
        Ok(())
    }

    /// The header a handle names, if valid.
    pub fn header(&self, h: Handle) -> Option<&TextureHeader> {
        let i = h.header();
        if i > self.header_max {
            return None;
        }
        self.headers.get(i as usize)?.as_ref()
    }

    /// The sampler a handle names, if valid (header binding uses the
    /// header index).
    pub fn sampler(&self, h: Handle) -> Option<&SamplerHeader> {
        let i = match self.binding {
            SamplerBinding::Independent => h.sampler(),
            SamplerBinding::ViaHeaderBinding => h.header(),
        };
        if i > self.sampler_max {
            return None;
        }
        self.samplers.get(i as usize)?.as_ref()
    }

    /// Both, or `None` for an invalid texture (every lane reads zeros).
    pub fn resolve(&self, h: Handle) -> Option<(&TextureHeader, &SamplerHeader)> {
        Some((self.header(h)?, self.sampler(h)?))
    }

    /// The handle at constant-bank word `ts_ptr_idx` (13 bits); a word past
    /// the bank reads 0, as unwritten constant memory does.
    pub fn bound_handle(&self, ts_ptr_idx: u16) -> Handle {
        Handle(
            self.const_bank
                .get((ts_ptr_idx & 0x1fff) as usize)
                .copied()
                .unwrap_or(0),
        )
    }

    /// `istypep`: whether `h` names a valid object of `ty`. Handles name
    /// textures (header) and samplers; there are no surfaces here.
    pub fn istypep(&self, ty: OpaqueType, h: Handle) -> bool {
        match ty {
            OpaqueType::Texref => self.header(h).is_some(),
            OpaqueType::Samplerref => self.sampler(h).is_some(),
            OpaqueType::Surfref => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat};
    use std::sync::Arc;

    fn header() -> TextureHeader {
        let t = Texture::new(
            TextureDesc::d2(TextureFormat::Rgba8Unorm, 4, 4),
            Layout::Linear,
        )
        .unwrap();
        TextureHeader::new(Arc::new(t))
    }

    #[test]
    fn handle_packs_sampler_high_and_header_low() {
        let h = Handle::new(0x12345, 0xabc).unwrap();
        assert_eq!(h.0, 0xabc1_2345);
        assert_eq!((h.header(), h.sampler()), (0x12345, 0xabc));
        assert!(Handle::new(1 << 20, 0).is_none());
        assert_eq!(ts_ptr_idx(0x05, 0x02), 0x205);
        assert_eq!(ts_ptr_idx(0xff, 0x3f), 0x1fff);
    }

    #[test]
    fn indices_past_the_pool_maximum_are_invalid() {
        let mut p = Pools::new();
        p.set_header(3, header()).unwrap();
        p.set_sampler(1, SamplerHeader::default()).unwrap();
        assert!(p.resolve(Handle::new(3, 1).unwrap()).is_some());
        assert!(
            p.resolve(Handle::new(2, 1).unwrap()).is_none(),
            "empty slot"
        );
        p.header_max = 2;
        assert!(
            p.resolve(Handle::new(3, 1).unwrap()).is_none(),
            "past MaximumIndex"
        );
        p.header_max = 3;
        p.sampler_max = 0;
        assert!(p.resolve(Handle::new(3, 1).unwrap()).is_none());
    }

    #[test]
    fn header_binding_uses_the_header_index_as_sampler() {
        let mut p = Pools::new();
        p.set_header(2, header()).unwrap();
        p.set_sampler(2, SamplerHeader::default()).unwrap();
        p.binding = SamplerBinding::ViaHeaderBinding;
        assert!(p.resolve(Handle::new(2, 0xfff).unwrap()).is_some());
        p.binding = SamplerBinding::Independent;
        assert!(p.resolve(Handle::new(2, 0xfff).unwrap()).is_none());
        p.const_bank = vec![0, Handle::new(2, 2).unwrap().0];
        assert_eq!(p.bound_handle(1), Handle::new(2, 2).unwrap());
        assert_eq!(p.bound_handle(0x1000), Handle(0));
        assert!(p.istypep(OpaqueType::Texref, Handle::new(2, 2).unwrap()));
        assert!(!p.istypep(OpaqueType::Texref, Handle::new(5, 2).unwrap()));
        assert!(!p.istypep(OpaqueType::Surfref, Handle::new(2, 2).unwrap()));
    }

    #[test]
    fn ptx_mode_limits_follow_table_34() {
        assert_eq!(TexturingMode::Independent.limits(), (256, 32, 16));
        assert_eq!(TexturingMode::Unified.limits_sm2x(), (128, 128, 8));
        let p = Pools::for_ptx(TexturingMode::Independent);
        assert_eq!((p.header_max, p.sampler_max), (255, 31));
    }
}
