//! The public shape of a quad operation: four lanes of coordinates with
//! their masks, the LOD form, and the per-lane results.
//!
//! Lane order is fixed: 0 = (x, y), 1 = (x+1, y), 2 = (x, y+1),
//! 3 = (x+1, y+1), so coarse derivatives are `ddx = l1 - l0` and
//! `ddy = l2 - l0` (docs/architecture.md, convention 1; docs/semantics.md
//! §3).

use quadtex_format::{SampleType, Texel};

use crate::profile::{Derivatives, Profile, Residency};

/// Four lanes of texture coordinates and their masks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quad {
    /// Per lane `[s, t, r, layer]`: `[s, 0, 0, 0]` for 1D, `[s, 0, 0, layer]`
    /// for 1D arrays, `[s, t, 0, layer]` for 2D arrays, `[x, y, z, 0]` cube
    /// directions, `[x, y, z, cube]` for cube arrays.
    pub coords: [[f32; 4]; 4],
    /// Lanes that want a result (bit i = lane i).
    pub active: u8,
    /// Helper lanes: they run, feed derivatives and count as active for the
    /// partial-quad rule, but their results are discarded by the caller.
    pub helper: u8,
}

impl Quad {
    /// A full quad: all four lanes active, no helpers.
    pub fn new(coords: [[f32; 4]; 4]) -> Quad {
        Quad {
            coords,
            active: 0xf,
            helper: 0,
        }
    }

    /// Lanes that run: active or helper.
    pub fn running(&self) -> u8 {
        (self.active | self.helper) & 0xf
    }
}

/// How the level of detail is found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lod {
    /// From the quad's implicit derivatives (fine or coarse per profile).
    Implicit,
    /// Implicit, plus a per-lane shader bias.
    Bias([f32; 4]),
    /// Lambda = 0 (PTX `.base`, `textureLod(P, 0)`); sampler bias and clamps
    /// still apply.
    Base,
    /// An explicit lambda per lane (`.level`, `textureLod`).
    Level([f32; 4]),
    /// Explicit partial derivatives per lane of `(s, t, r)` (`.grad`).
    Grad {
        /// `d(s, t, r)/dx` per lane.
        ddx: [[f32; 3]; 4],
        /// `d(s, t, r)/dy` per lane.
        ddy: [[f32; 3]; 4],
    },
}

/// Everything a `sample` takes besides the quad and the headers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleArgs {
    /// The LOD form.
    pub lod: Lod,
    /// Texel offset `(i, j, k)`, already range-checked by the front-end.
    pub offset: [i32; 3],
    /// Depth reference per lane, for compare samplers.
    pub dref: Option<[f32; 4]>,
    /// Derivatives from all four lanes' registers, skipping the partial-quad
    /// rule (`.NDV`).
    pub ndv: bool,
    /// Override of the profile's implicit-derivative mode.
    pub derivatives: Option<Derivatives>,
}

impl Default for SampleArgs {
    fn default() -> Self {
        SampleArgs {
            lod: Lod::Implicit,
            offset: [0; 3],
            dref: None,
            ndv: false,
            derivatives: None,
        }
    }
}

/// The result of one quad operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuadResult {
    /// Per lane: the four components, or `None` for lanes that did not run.
    pub texels: [Option<Texel>; 4],
    /// Per lane: every texel the lane touched was resident.
    pub resident: [bool; 4],
}

impl QuadResult {
    /// No lane ran.
    pub const EMPTY: QuadResult = QuadResult {
        texels: [None; 4],
        resident: [false; 4],
    };

    /// Zeros for every running lane (invalid handles, docs/semantics.md §8).
    pub fn zeros(running: u8, ty: SampleType) -> QuadResult {
        let mut r = QuadResult::EMPTY;
        for lane in 0..4 {
            if running & (1 << lane) != 0 {
                r.texels[lane] = Some(Texel::zero(ty));
                r.resident[lane] = true;
            }
        }
        r
    }

    /// The residency predicate as `profile` reports it (PTX `p`: true when
    /// resident; SASS `Ps`: true on a fault).
    pub fn predicate(&self, profile: &Profile) -> [bool; 4] {
        match profile.residency {
            Residency::ResidentTrue => self.resident,
            Residency::FaultTrue => self.resident.map(|r| !r),
        }
    }
}
