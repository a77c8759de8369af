//! Inert sprite types: sprites that never move and whose update does
//! nothing observable, so that a cycle can skip them.

use super::model::{Class, EffectKind, Rules};

/// Per type, whether its sprites are inert: an `Immovable` or `Door` that
/// is static (no passive movement), has no time to live, and is never the
/// first side of a pair, end-of-screen or timed effect (through any type
/// whose sprite group includes it), the only way an effect moves a sprite.
/// Such a sprite's update only copies its rectangle to its last rectangle
/// (equal already, unless an effect set the last rectangle: see
/// `State::stale_last`) and counts ticks since its last move, which only
/// its own moves read.
pub(crate) fn inert_types(rules: &Rules) -> Vec<bool> {
    unmoved_static_types(rules, |_| true)
}

/// Per type, whether its sprites are quiet: an `Immovable` or `Door` that
/// is static and has no time to live, and is never the first side of an
/// effect that moves it by its own movement rules (`pullWithIt`,
/// `bounceForward`, `turnAround`: the only readers of its ticks since its
/// last move). Such a sprite's update only copies its rectangle to its
/// last rectangle and counts ticks nothing reads, so a cycle updates only
/// those whose last rectangle differs (an effect moved them or set it).
/// Every inert type is quiet.
pub(crate) fn quiet_types(rules: &Rules) -> Vec<bool> {
    unmoved_static_types(rules, |kind| {
        matches!(
            kind,
            EffectKind::PullWithIt { .. } | EffectKind::BounceForward | EffectKind::TurnAround
        )
    })
}

/// Per type, whether it is a static `Immovable` or `Door` with no time to
/// live that is never (through any type whose sprite group includes it)
/// the first side of a pair, end-of-screen or timed effect whose kind
/// `counts`.
fn unmoved_static_types(rules: &Rules, counts: impl Fn(&EffectKind) -> bool) -> Vec<bool> {
    let n = rules.types.len();
    let mut first = vec![false; n];
    let mut mark = |t: u16, effects: &[u16]| {
        let counted = effects.iter().any(|&ef| {
            rules
                .effects
                .get(ef as usize)
                .is_some_and(|e| counts(&e.kind))
        });
        if counted {
            for &st in &rules.types[t as usize].subtypes {
                first[st as usize] = true;
            }
        }
    };
    for (t1, _, effects) in &rules.pairs {
        mark(*t1, effects);
    }
    for (t, effects) in &rules.eos {
        mark(*t, effects);
    }
    for te in &rules.time_effects {
        if let Some(t) = te.itype {
            mark(t, &[te.effect]);
        }
    }
    rules
        .types
        .iter()
        .enumerate()
        .map(|(k, t)| {
            matches!(t.class, Some(Class::Immovable | Class::Door))
                && t.is_static
                && t.time_to_live < 0
                && !first[k]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::vgdl::Vgdl;

    #[test]
    fn only_static_types_no_effect_moves_are_inert() {
        let game = "BasicGame\n  SpriteSet\n    floor > Immovable\n    rock > Immovable\n    mover > Immovable is_static=False\n    gone > Immovable timeToLive=5\n    door > Door\n    house > Immovable\n      hut >\n    box > Passive\n  LevelMapping\n    . > floor\n  InteractionSet\n    rock avatar > stepBack\n    house avatar > killSprite\n    box wall > stepBack\n  TerminationSet\n    Timeout limit=10 win=True\n";
        let v = Vgdl::parse(game).unwrap();
        let r = v.rules();
        let inert = |name: &str| {
            let k = r.types.iter().position(|t| t.name == name).unwrap();
            r.inert[k]
        };
        assert!(inert("floor") && inert("door") && inert("wall"));
        for t in ["rock", "mover", "gone", "house", "hut", "box", "avatar"] {
            assert!(!inert(t), "{t}");
        }
    }
}
