//! Samplers and views as description files write them (feature `serde`):
//! the one description that the probe format (`docs/probe-format.md`) and
//! scene files (`scenes/README.md`) share, and the one set of rules that
//! turns it into a [`SamplerHeader`] or changes a [`TextureHeader`].
//!
//! Names are Vulkan's, in snake case (`clamp_to_edge`, `lequal`, ...); a
//! name that is not known is an
//! [`ErrorKind::InvalidField`](crate::ErrorKind::InvalidField) error naming
//! the field (by the key path the caller gives, [`Error::field`]) and every
//! accepted spelling. Numbers
//! are [`Number`]s: a number, or in JSON, where non-finite values have no
//! spelling, the strings `"NaN"`, `"Infinity"` and `"-Infinity"`. Every
//! field is optional; a field that is absent keeps the value of the header
//! the caller starts from, so each file format keeps its own defaults.
//!
//! ```
//! use quadtex_sampler::desc::SamplerDesc;
//! use quadtex_sampler::{AddressMode, Filter, SamplerHeader};
//!
//! let d: SamplerDesc = serde_json::from_str(
//!     r#"{ "filter": "linear", "address": ["repeat", "clamp_to_edge"], "max_lod": "Infinity" }"#,
//! )?;
//! let h = d.to_header("sampler", SamplerHeader::default(), None)?;
//! assert_eq!(h.min_filter, Filter::Linear);
//! assert_eq!(h.address, [AddressMode::Repeat, AddressMode::ClampToEdge, AddressMode::ClampToEdge]);
//! assert_eq!(h.max_lod, f32::INFINITY);
//!
//! let bad: SamplerDesc = serde_json::from_str(r#"{ "compare": "lessish" }"#)?;
//! let e = bad.to_header("sampler", SamplerHeader::default(), None).unwrap_err();
//! assert!(e.to_string().starts_with("sampler.compare: unknown compare op `lessish`"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use quadtex_format::{SampleType, TextureFormat};
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

use crate::error::{Error, Result};
use crate::header::{
    AddressMode, BorderColor, CompareOp, Filter, MipmapMode, ReductionMode, SamplerHeader, Swizzle,
    TextureHeader,
};

/// A number as a description file writes it: any number, or one of the
/// strings `"NaN"`, `"Infinity"`, `"-Infinity"` (JSON has no spelling for
/// non-finite values). Read as `f64`; [`Number::to_f32`] rounds it once, as
/// Python's `np.float32(float(s))` does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number(pub f64);

impl Number {
    /// The value rounded once to `f32` (to nearest, ties to even).
    pub fn to_f32(self) -> f32 {
        self.0 as f32
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Number, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Number;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(r#"a number or "NaN", "Infinity", "-Infinity""#)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Number, E> {
                Ok(Number(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Number, E> {
                match v {
                    "NaN" => Ok(Number(f64::NAN)),
                    "Infinity" => Ok(Number(f64::INFINITY)),
                    "-Infinity" => Ok(Number(f64::NEG_INFINITY)),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// One address mode for every axis, or one to three modes (u, v, w; the
/// last repeats for the axes not given).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum AddressDesc {
    /// `"clamp_to_edge"`: every axis.
    One(String),
    /// `["repeat", "clamp_to_edge"]`: u, v, and w = v.
    PerAxis(Vec<String>),
}

/// A border colour: a Vulkan border colour name
/// (`float_opaque_black`, `int_opaque_white`, ...) or four numbers.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum BorderDesc {
    /// A `VkBorderColor` name without its prefix, in snake case.
    Name(String),
    /// Four numbers: floats for a float format (or when the format is not
    /// known), integer values for an integer format (negative values kept
    /// as the bits of an `i32`).
    Values(Vec<Number>),
}

/// A sampler as a probe case's `sampler` object or a scene's
/// `[samplers.NAME]` table writes it. Unknown fields are an error, so a
/// misspelt one cannot silently change the result.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SamplerDesc {
    /// `nearest` or `linear` for both minification and magnification.
    pub filter: Option<String>,
    /// `nearest` or `linear` when magnifying (after `filter`).
    pub mag_filter: Option<String>,
    /// `nearest` or `linear` when minifying (after `filter`).
    pub min_filter: Option<String>,
    /// `none` (the base level only), `nearest` or `linear`.
    pub mipmap_mode: Option<String>,
    /// Address modes: `repeat`, `mirrored_repeat`, `clamp_to_edge`,
    /// `clamp_to_border`, `mirror_clamp_to_edge`, `clamp_ogl`.
    pub address: Option<AddressDesc>,
    /// The u axis's mode (after `address`).
    pub address_u: Option<String>,
    /// The v axis's mode (after `address`).
    pub address_v: Option<String>,
    /// The w axis's mode (after `address`).
    pub address_w: Option<String>,
    /// The border colour (also spelt `border`).
    #[serde(alias = "border")]
    pub border_color: Option<BorderDesc>,
    /// A custom integer border colour, four register words; instead of
    /// `border_color`.
    pub border_int: Option<[u32; 4]>,
    /// The LOD bias (also spelt `lod_bias`).
    #[serde(alias = "lod_bias")]
    pub mip_lod_bias: Option<Number>,
    /// The lower LOD clamp.
    pub min_lod: Option<Number>,
    /// The upper LOD clamp.
    pub max_lod: Option<Number>,
    /// The anisotropy limit, 1 or more.
    pub max_anisotropy: Option<Number>,
    /// The depth compare op: `never`, `less`, `equal`, `lequal`, `greater`,
    /// `notequal`, `gequal`, `always`; absent for no compare.
    pub compare: Option<String>,
    /// Unnormalized (texel-space) coordinates.
    pub unnormalized: Option<bool>,
    /// Seamless cube filtering across faces.
    pub seamless_cube: Option<bool>,
    /// `weighted_average`, `min` or `max`.
    pub reduction: Option<String>,
}

/// The filter names.
pub const FILTERS: [(&str, Filter); 2] = [("nearest", Filter::Nearest), ("linear", Filter::Linear)];

/// The mipmap mode names.
pub const MIPMAP_MODES: [(&str, MipmapMode); 3] = [
    ("none", MipmapMode::None),
    ("nearest", MipmapMode::Nearest),
    ("linear", MipmapMode::Linear),
];

/// The address mode names.
pub const ADDRESS_MODES: [(&str, AddressMode); 6] = [
    ("repeat", AddressMode::Repeat),
    ("mirrored_repeat", AddressMode::MirroredRepeat),
    ("clamp_to_edge", AddressMode::ClampToEdge),
    ("clamp_to_border", AddressMode::ClampToBorder),
    ("mirror_clamp_to_edge", AddressMode::MirrorClampToEdge),
    ("clamp_ogl", AddressMode::ClampOgl),
];

/// The compare op names.
pub const COMPARE_OPS: [(&str, CompareOp); 8] = [
    ("never", CompareOp::Never),
    ("less", CompareOp::Less),
    ("equal", CompareOp::Equal),
    ("lequal", CompareOp::LessOrEqual),
    ("greater", CompareOp::Greater),
    ("notequal", CompareOp::NotEqual),
    ("gequal", CompareOp::GreaterOrEqual),
    ("always", CompareOp::Always),
];

/// The reduction mode names.
pub const REDUCTIONS: [(&str, ReductionMode); 3] = [
    ("weighted_average", ReductionMode::WeightedAverage),
    ("min", ReductionMode::Min),
    ("max", ReductionMode::Max),
];

/// The border colour names.
pub const BORDER_COLORS: [(&str, BorderColor); 6] = [
    (
        "float_transparent_black",
        BorderColor::FloatTransparentBlack,
    ),
    ("float_opaque_black", BorderColor::FloatOpaqueBlack),
    ("float_opaque_white", BorderColor::FloatOpaqueWhite),
    ("int_transparent_black", BorderColor::IntTransparentBlack),
    ("int_opaque_black", BorderColor::IntOpaqueBlack),
    ("int_opaque_white", BorderColor::IntOpaqueWhite),
];

/// `value` looked up among `names`; an unknown one is an
/// [`ErrorKind::InvalidField`](crate::ErrorKind::InvalidField) error at
/// `field` listing every accepted spelling.
pub fn parse_name<T: Copy>(value: &str, field: &str, what: &str, names: &[(&str, T)]) -> Result<T> {
    names
        .iter()
        .find(|(n, _)| *n == value)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let expected: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            invalid(
                field,
                format!(
                    "unknown {what} `{value}` (expected {})",
                    expected.join(", ")
                ),
            )
        })
}

fn invalid(field: &str, reason: impl Into<String>) -> Error {
    Error::invalid_field(field, reason)
}

impl SamplerDesc {
    /// `base` with the fields this description gives. `key` names the
    /// description in errors (`sampler`, `samplers.ground`); `format`, when
    /// known, decides how `border_color`'s numbers read (integer values for
    /// an integer format, floats otherwise). Order: `filter`, then
    /// `min_filter`/`mag_filter`; `address`, then `address_u/v/w`.
    ///
    /// Names and shapes are checked here; the values' ranges and their
    /// agreement with a view are [`SamplerHeader::validate`]'s and
    /// [`SamplerHeader::validate_with`]'s.
    pub fn to_header(
        &self,
        key: &str,
        base: SamplerHeader,
        format: Option<TextureFormat>,
    ) -> Result<SamplerHeader> {
        let k = |f: &str| format!("{key}.{f}");
        let mut h = base;
        if let Some(f) = &self.filter {
            let f = parse_name(f, &k("filter"), "filter", &FILTERS)?;
            h.min_filter = f;
            h.mag_filter = f;
        }
        if let Some(f) = &self.min_filter {
            h.min_filter = parse_name(f, &k("min_filter"), "filter", &FILTERS)?;
        }
        if let Some(f) = &self.mag_filter {
            h.mag_filter = parse_name(f, &k("mag_filter"), "filter", &FILTERS)?;
        }
        if let Some(m) = &self.mipmap_mode {
            h.mipmap_mode = parse_name(m, &k("mipmap_mode"), "mipmap mode", &MIPMAP_MODES)?;
        }
        match &self.address {
            None => {}
            Some(AddressDesc::One(a)) => {
                h.address = [parse_name(a, &k("address"), "address mode", &ADDRESS_MODES)?; 3];
            }
            Some(AddressDesc::PerAxis(a)) => {
                if a.is_empty() || a.len() > 3 {
                    return Err(invalid(
                        &k("address"),
                        format!("must have 1 to 3 modes, got {}", a.len()),
                    ));
                }
                for (i, slot) in h.address.iter_mut().enumerate() {
                    let name = &a[i.min(a.len() - 1)];
                    let field = k(&format!("address[{}]", i.min(a.len() - 1)));
                    *slot = parse_name(name, &field, "address mode", &ADDRESS_MODES)?;
                }
            }
        }
        for (i, (name, a)) in [
            ("address_u", &self.address_u),
            ("address_v", &self.address_v),
            ("address_w", &self.address_w),
        ]
        .into_iter()
        .enumerate()
        {
            if let Some(a) = a {
                h.address[i] = parse_name(a, &k(name), "address mode", &ADDRESS_MODES)?;
            }
        }
        match (&self.border_color, self.border_int) {
            (Some(_), Some(_)) => {
                return Err(invalid(
                    &k("border_int"),
                    "give border_color (border) or border_int, not both",
                ))
            }
            (Some(BorderDesc::Name(n)), None) => {
                h.border_color =
                    parse_name(n, &k("border_color"), "border colour", &BORDER_COLORS)?;
            }
            (Some(BorderDesc::Values(v)), None) => {
                h.border_color = border_values(v, &k("border_color"), format)?;
            }
            (None, Some(c)) => h.border_color = BorderColor::Int(c),
            (None, None) => {}
        }
        if let Some(v) = self.mip_lod_bias {
            h.mip_lod_bias = v.to_f32();
        }
        if let Some(v) = self.min_lod {
            h.min_lod = v.to_f32();
        }
        if let Some(v) = self.max_lod {
            h.max_lod = v.to_f32();
        }
        if let Some(v) = self.max_anisotropy {
            h.max_anisotropy = v.to_f32();
        }
        if let Some(c) = &self.compare {
            h.compare = Some(parse_name(c, &k("compare"), "compare op", &COMPARE_OPS)?);
        }
        if let Some(u) = self.unnormalized {
            h.unnormalized = u;
        }
        if let Some(u) = self.seamless_cube {
            h.seamless_cube = u;
        }
        if let Some(r) = &self.reduction {
            h.reduction = parse_name(r, &k("reduction"), "reduction mode", &REDUCTIONS)?;
        }
        Ok(h)
    }
}

/// Four numbers as a border colour for `format`.
fn border_values(v: &[Number], field: &str, format: Option<TextureFormat>) -> Result<BorderColor> {
    if v.len() != 4 {
        return Err(invalid(
            field,
            format!("must have 4 numbers, got {}", v.len()),
        ));
    }
    let integer = format.is_some_and(|f| f.sample_type() != SampleType::Float);
    if !integer {
        return Ok(BorderColor::Float([0, 1, 2, 3].map(|c| v[c].to_f32())));
    }
    // Integer formats: the numbers are integer values, kept as register
    // words (negative values as i32 bits).
    let mut bits = [0u32; 4];
    for (c, (o, x)) in bits.iter_mut().zip(v).enumerate() {
        let x = x.0;
        if x.fract() != 0.0 || !(i32::MIN as f64..=u32::MAX as f64).contains(&x) {
            let f = format.map_or(String::new(), |f| f.to_string());
            return Err(invalid(
                &format!("{field}[{c}]"),
                format!("{x} is not an integer in the i32 or u32 range ({f} is an integer format)"),
            ));
        }
        *o = if x < 0.0 { x as i32 as u32 } else { x as u32 };
    }
    Ok(BorderColor::Int(bits))
}

/// What a description may change of a view ([`TextureHeader`]): its
/// component swizzle, its levels and layers, and its LOD clamp. A probe
/// case's `view` object; a scene's texture table gives `swizzle` and
/// `min_lod_clamp`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewDesc {
    /// Four of `r`, `g`, `b`, `a`, `0`, `1` (`"bgra"`, `"rrr1"`, ...).
    pub swizzle: Option<String>,
    /// The view's first level.
    pub base_level: Option<u32>,
    /// How many levels it has; absent: the rest of the texture's.
    pub level_count: Option<u32>,
    /// The view's first layer.
    pub base_layer: Option<u32>,
    /// How many layers it has; absent: the rest of the texture's.
    pub layer_count: Option<u32>,
    /// `VK_EXT_image_view_min_lod`'s clamp, 0 or more.
    pub min_lod_clamp: Option<Number>,
}

impl ViewDesc {
    /// `view` with the fields this description gives; `key` names the
    /// description in errors. Ranges are [`TextureHeader::validate`]'s.
    pub fn apply(&self, key: &str, view: &mut TextureHeader) -> Result<()> {
        let d = *view.texture.desc();
        if let Some(sw) = &self.swizzle {
            view.swizzle = Swizzle::parse4(sw).ok_or_else(|| {
                invalid(
                    &format!("{key}.swizzle"),
                    format!("`{sw}` is not four of r, g, b, a, 0, 1"),
                )
            })?;
        }
        if let Some(b) = self.base_level {
            view.base_level = b;
        }
        view.level_count = self
            .level_count
            .unwrap_or(d.levels.saturating_sub(view.base_level));
        if let Some(b) = self.base_layer {
            view.base_layer = b;
        }
        view.layer_count = self
            .layer_count
            .unwrap_or(d.layers.saturating_sub(view.base_layer));
        if let Some(c) = self.min_lod_clamp {
            view.min_lod_clamp = c.to_f32();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(json: &str) -> SamplerDesc {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn every_name_round_trips_through_the_header_types() {
        for (n, m) in ADDRESS_MODES {
            assert_eq!(m.name(), n);
            assert_eq!(AddressMode::from_name(n), Some(m));
        }
        for (n, c) in COMPARE_OPS {
            assert_eq!(c.name(), n);
            assert_eq!(CompareOp::from_name(n), Some(c));
        }
    }

    #[test]
    fn fields_override_the_base_in_order() {
        let h = desc(r#"{"filter": "linear", "min_filter": "nearest", "address": "clamp_to_border", "address_v": "repeat"}"#)
            .to_header("s", SamplerHeader::default(), None)
            .unwrap();
        assert_eq!(
            (h.mag_filter, h.min_filter),
            (Filter::Linear, Filter::Nearest)
        );
        assert_eq!(
            h.address,
            [
                AddressMode::ClampToBorder,
                AddressMode::Repeat,
                AddressMode::ClampToBorder
            ]
        );
        // Absent fields keep the base's values.
        let base = SamplerHeader {
            mipmap_mode: MipmapMode::None,
            max_lod: 3.0,
            ..SamplerHeader::default()
        };
        let h = desc("{}").to_header("s", base, None).unwrap();
        assert_eq!(h, base);
    }

    #[test]
    fn border_numbers_follow_the_format() {
        let d = desc(r#"{"border_color": [-5, 7, 0, 1]}"#);
        let ints = d
            .to_header(
                "s",
                SamplerHeader::default(),
                Some(TextureFormat::Rgba32Sint),
            )
            .unwrap();
        assert_eq!(
            ints.border_color,
            BorderColor::Int([(-5i32) as u32, 7, 0, 1])
        );
        let floats = d.to_header("s", SamplerHeader::default(), None).unwrap();
        assert_eq!(
            floats.border_color,
            BorderColor::Float([-5.0, 7.0, 0.0, 1.0])
        );
        let e = desc(r#"{"border": [0.5, 0, 0, 1]}"#)
            .to_header(
                "s",
                SamplerHeader::default(),
                Some(TextureFormat::Rgba8Uint),
            )
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("s.border_color[0]: 0.5 is not an integer"),
            "{e}"
        );
        let e = desc(r#"{"border": [0, 0, 1]}"#)
            .to_header("s", SamplerHeader::default(), None)
            .unwrap_err();
        assert_eq!(e.to_string(), "s.border_color: must have 4 numbers, got 3");
        let named = desc(r#"{"border": "int_opaque_white"}"#)
            .to_header("s", SamplerHeader::default(), None)
            .unwrap();
        assert_eq!(named.border_color, BorderColor::IntOpaqueWhite);
        let both = desc(r#"{"border": "int_opaque_white", "border_int": [1, 2, 3, 4]}"#).to_header(
            "s",
            SamplerHeader::default(),
            None,
        );
        assert!(both.is_err());
    }

    #[test]
    fn bad_names_and_shapes_name_their_field() {
        let e = desc(r#"{"address": ["repeat", "wrap"]}"#)
            .to_header("sampler", SamplerHeader::default(), None)
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("sampler.address[1]: unknown address mode `wrap` (expected repeat,"),
            "{e}"
        );
        let e = desc(r#"{"address": []}"#)
            .to_header("sampler", SamplerHeader::default(), None)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "sampler.address: must have 1 to 3 modes, got 0"
        );
        assert!(serde_json::from_str::<SamplerDesc>(r#"{"filtr": "linear"}"#).is_err());
        assert!(serde_json::from_str::<SamplerDesc>(r#"{"min_lod": "nan"}"#).is_err());
        let h = desc(r#"{"lod_bias": "NaN"}"#)
            .to_header("s", SamplerHeader::default(), None)
            .unwrap();
        assert!(h.mip_lod_bias.is_nan());
        // Both spellings of one field: serde's duplicate-field error.
        assert!(
            serde_json::from_str::<SamplerDesc>(r#"{"mip_lod_bias": 1, "lod_bias": 1}"#).is_err()
        );
    }
}
