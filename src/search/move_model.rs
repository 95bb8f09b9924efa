//! The learned move model: one weight ("gamma", Coulom 2007) per value of each feature group of
//! [`move_features`](super::move_features); a move's strength is the product of its features'
//! gammas. The weights are learned by `tengen train-patterns` and kept in `move_model.txt`
//! beside this file, one `group value gamma` line each (shapes by canonical code in hex;
//! `shape rare` stands for the shapes too rarely seen to learn).

use super::move_features::{
    is_shape, Features, BIG_SHAPE, GROUPS, GROUP_NAMES, SHAPE, VALUES, WIDE_SHAPE,
};
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// The shapes' pooled weight's name in the table.
pub const RARE: &str = "rare";

/// The shapes of a group with too many codes for a table: the learned ones and the rest.
struct Hashed {
    known: FxHashMap<u32, f32>,
    rare: f32,
}

impl Hashed {
    fn gamma(&self, code: u32) -> f32 {
        self.known.get(&code).copied().unwrap_or(self.rare)
    }
}

pub struct MoveModel {
    /// By canonical 3x3 shape code.
    shapes: Box<[f32]>,
    /// The big and the wide shapes learned, and the weight of the others.
    hashed: [Hashed; 2],
    /// By group and value; value 0 (absent) weighs 1.
    values: [[f32; VALUES]; GROUPS],
}

impl MoveModel {
    /// The model learned from strong games, built into the binary.
    pub fn learned() -> &'static MoveModel {
        static MODEL: OnceLock<MoveModel> = OnceLock::new();
        MODEL.get_or_init(|| {
            MoveModel::parse(include_str!("move_model.txt")).expect("the built-in model parses")
        })
    }

    /// Reads a table; unknown groups, values out of range and malformed lines are errors.
    pub fn parse(text: &str) -> Result<MoveModel, String> {
        let mut values = [[1.0; VALUES]; GROUPS];
        let mut known = Vec::new();
        let mut rare = 1.0;
        // The big and the wide shapes, in group order from BIG_SHAPE.
        let mut hashed: [Hashed; 2] = std::array::from_fn(|_| Hashed {
            known: FxHashMap::default(),
            rare: 1.0,
        });
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || format!("line {}: expected `group value gamma`: {line}", number + 1);
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [group, value, gamma] = fields[..] else {
                return Err(bad());
            };
            let gamma: f32 = gamma
                .parse()
                .ok()
                .filter(|g: &f32| *g > 0.0)
                .ok_or_else(bad)?;
            let group = GROUP_NAMES
                .iter()
                .position(|&name| name == group)
                .ok_or_else(bad)?;
            if !is_shape(group) {
                let value: usize = value.parse().ok().filter(|&v| v < VALUES).ok_or_else(bad)?;
                values[group][value] = gamma;
                continue;
            }
            let code = match value {
                RARE => None,
                _ => {
                    let hex = value.strip_prefix("0x").ok_or_else(bad)?;
                    Some(u32::from_str_radix(hex, 16).map_err(|_| bad())?)
                }
            };
            match (group, code) {
                (SHAPE, None) => rare = gamma,
                (SHAPE, Some(code)) => known.push((u16::try_from(code).map_err(|_| bad())?, gamma)),
                (_, None) => hashed[group - BIG_SHAPE].rare = gamma,
                (_, Some(code)) => {
                    hashed[group - BIG_SHAPE].known.insert(code, gamma);
                }
            }
        }
        let mut shapes = vec![rare; 1 << 16].into_boxed_slice();
        for (code, gamma) in known {
            shapes[code as usize] = gamma;
        }
        Ok(MoveModel {
            shapes,
            hashed,
            values,
        })
    }

    /// The strength of a move with these features.
    #[inline]
    pub fn gamma(&self, f: &Features) -> f32 {
        let mut gamma = self.shapes[f.0[SHAPE] as usize]
            * self.hashed[0].gamma(f.0[BIG_SHAPE])
            * self.hashed[1].gamma(f.0[WIDE_SHAPE]);
        for group in WIDE_SHAPE + 1..GROUPS {
            gamma *= self.values[group][f.0[group] as usize];
        }
        gamma
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_table_parses() {
        let model = MoveModel::learned();
        assert!(model.gamma(&Features([0; GROUPS])) > 0.0);
    }

    #[test]
    fn gammas_multiply_and_unlisted_shapes_are_rare() {
        let model = MoveModel::parse(
            "shape 0x10 2\nshape rare 0.5\nbig_shape 0x7 4\nbig_shape rare 0.25\n\
             wide_shape 0x9 5\nwide_shape rare 2\ncapture 1 3\n",
        )
        .unwrap();
        let mut f = Features([0x10, 0x7, 0x9, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(model.gamma(&f), 120.0);
        f.0[SHAPE] = 0x11;
        assert_eq!(model.gamma(&f), 30.0);
        f.0[BIG_SHAPE] = 0x8;
        assert_eq!(model.gamma(&f), 1.875);
        f.0[WIDE_SHAPE] = 0x8;
        assert_eq!(model.gamma(&f), 0.75);
    }

    #[test]
    fn malformed_tables_are_refused() {
        for bad in [
            "shape 10 1",
            "shape 0x10000 1",
            "capture 16 1",
            "colour 1 1",
            "capture 1 -1",
            "capture 1",
        ] {
            assert!(MoveModel::parse(bad).is_err(), "{bad}");
        }
    }
}
