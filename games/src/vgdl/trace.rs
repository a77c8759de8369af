//! The state in the shape of GVGAI's reference traces (`tick`, `score`,
//! `over`, `winner`, `block`, `avatar`, `sprites`), as a plain struct so
//! that callers serialise it as they like.

use super::engine::{State, Winner};

/// The avatar's part of a trace record.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceAvatar {
    /// Left edge, pixels.
    pub x: i32,
    /// Top edge, pixels.
    pub y: i32,
    /// Orientation `[dx, dy]` (`[0, 0]`: none).
    pub orientation: (f64, f64),
    /// Resources held, sorted by name (entries at 0 included).
    pub resources: Vec<(String, i32)>,
    /// `healthPoints`.
    pub health: i32,
}

/// One trace record.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceState {
    /// Actions applied so far.
    pub tick: u32,
    /// Player 0's raw score.
    pub score: f64,
    /// The game has ended.
    pub over: bool,
    /// `"win"`, `"loss"` or `"none"`.
    pub winner: &'static str,
    /// Cell size in pixels.
    pub block: i32,
    /// The live avatar (`None` when there is none or it is disabled).
    pub avatar: Option<TraceAvatar>,
    /// Every live sprite as (type name, x, y), sorted.
    pub sprites: Vec<(String, i32, i32)>,
}

/// The avatar with sprite id `id` as a trace records it (`None` when it
/// is gone or disabled).
pub(crate) fn trace_avatar(st: &State, id: u32) -> Option<TraceAvatar> {
    let names = |t: u16| st.rules.types[t as usize].name.clone();
    st.index_of(id)
        .filter(|&i| !st.sprites[i].disabled)
        .map(|i| {
            let s = st.sprites[i];
            let mut resources: Vec<(String, i32)> = st
                .resources
                .iter()
                .filter(|e| e.0 == s.id)
                .map(|e| (names(e.1), e.2))
                .collect();
            resources.sort();
            TraceAvatar {
                x: s.x,
                y: s.y,
                orientation: (s.ori.0 + 0.0, s.ori.1 + 0.0),
                resources,
                health: s.health,
            }
        })
}

pub(crate) fn trace(st: &State) -> TraceState {
    let names = |t: u16| st.rules.types[t as usize].name.clone();
    let avatar = st.avatar.and_then(|id| trace_avatar(st, id));
    let mut sprites: Vec<(String, i32, i32)> = st
        .sprites
        .iter()
        .filter(|s| !s.disabled && !s.killed)
        .map(|s| (names(s.ty), s.x, s.y))
        .collect();
    sprites.sort();
    TraceState {
        tick: st.ticks,
        score: st.score,
        over: st.ended,
        winner: match st.winner {
            Winner::None => "none",
            Winner::Win => "win",
            Winner::Loss => "loss",
        },
        block: st.block,
        avatar,
        sprites,
    }
}
