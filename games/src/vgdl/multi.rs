//! Games for more than one player (GVGAI's `no_players=N`, its 60
//! two-player games): one avatar per player, a joint action per cycle, a
//! score and a win state per player.
//!
//! Player 0 lives in [`State::avatar`], [`State::score`] and
//! [`State::winner`] as in one-player games; players `1..N` in
//! [`State::others`], empty in one-player games, so those pay nothing.
//! What GVGAI does for N players, copied here:
//! - the level keeps the first N avatars it creates, and player `i` gets the
//!   `i`-th avatar found scanning the sprite order from its start (index 0
//!   excluded), each type's group in reverse creation order
//!   (`Game.createAvatars`);
//! - each cycle updates the live avatars in player order, each with its
//!   player's action, before every other sprite (`Game.tick`);
//! - every effect's score applies to every player: entry `i` of its
//!   `scoreChange` list, or the first entry when the list is shorter
//!   (`Effect.getScoreChange`);
//! - a termination sets every player's win state from entry `i` of its
//!   `win` list (`false` when missing), or, with `count_score=True`, a win
//!   for the players with the highest score unless every score is 0
//!   (`Termination.countScore`);
//! - an avatar transformed into another avatar stays its player's avatar
//!   (a sprite that is no player's avatar counts as player 0's, GVGAI's
//!   default `playerID`).

use super::engine::{State, Winner, MAX_TIMESTEPS};
use super::model::{Action, TermDef, TermKind};
use super::trace::{trace_avatar, TraceAvatar};

/// The most players a game may declare (`no_players`).
pub const MAX_PLAYERS: i32 = 8;

pub use super::engine::Player;

/// One player's part of a multi-player trace record.
#[derive(Clone, Debug, PartialEq)]
pub struct TracePlayer {
    /// The raw score.
    pub score: f64,
    /// `"win"`, `"loss"` or `"none"`.
    pub winner: &'static str,
    /// The live avatar (`None` when there is none or it is disabled).
    pub avatar: Option<TraceAvatar>,
    /// The live avatar's type name.
    pub avatar_type: Option<String>,
}

/// `Effect.getScoreChange(player)`: entry `player` of the comma list, or
/// the first when the list is shorter; 0 when it is not an integer.
pub(crate) fn score_of(text: &str, player: usize) -> i32 {
    let first = text.split(',').next();
    let entry = if player == 0 {
        first
    } else {
        // Java's `split` drops trailing empty strings.
        let len = text.trim_end_matches(',').split(',').count();
        if player < len {
            text.split(',').nth(player)
        } else {
            first
        }
    };
    entry.and_then(|v| v.parse::<i32>().ok()).unwrap_or(0)
}

/// An effect's score for every player (player 0's score, the others).
#[inline]
pub(crate) fn add_score(score: &mut f64, others: &mut [Player], text: &str) {
    *score += score_of(text, 0) as f64;
    for (k, o) in others.iter_mut().enumerate() {
        o.score += score_of(text, k + 1) as f64;
    }
}

/// `Termination.win(player)`: entry `player` of the `win` list is `true`.
fn win_of(text: Option<&str>, player: usize) -> bool {
    text.and_then(|w| w.split(',').nth(player))
        .is_some_and(|w| w.eq_ignore_ascii_case("true"))
}

impl State {
    /// Number of players.
    #[inline]
    pub fn players(&self) -> usize {
        1 + self.others.len()
    }

    /// Player `p`'s avatar sprite id.
    pub fn avatar_of(&self, p: usize) -> Option<u32> {
        if p == 0 {
            self.avatar
        } else {
            self.others.get(p - 1).and_then(|o| o.avatar)
        }
    }

    /// Player `p`'s score.
    pub fn score_of(&self, p: usize) -> f64 {
        if p == 0 {
            self.score
        } else {
            self.others.get(p - 1).map_or(0.0, |o| o.score)
        }
    }

    /// Player `p`'s win state.
    pub fn winner_of(&self, p: usize) -> Winner {
        if p == 0 {
            self.winner
        } else {
            self.others.get(p - 1).map_or(Winner::None, |o| o.winner)
        }
    }

    fn set_winner(&mut self, p: usize, w: Winner) {
        if p == 0 {
            self.winner = w;
        } else if let Some(o) = self.others.get_mut(p - 1) {
            o.winner = w;
        }
    }

    /// One game cycle with one action per player (`joint[p]`; a missing
    /// entry is NIL).
    pub fn cycle_joint(&mut self, joint: &[Action]) {
        for (k, o) in self.others.iter_mut().enumerate() {
            o.action = joint.get(k + 1).copied().unwrap_or(Action::Nil);
        }
        self.cycle(joint.first().copied().unwrap_or(Action::Nil));
    }

    /// Every effect's score for every player.
    #[inline]
    pub(crate) fn add_score(&mut self, text: &str) {
        add_score(&mut self.score, &mut self.others, text);
    }

    /// The other players' avatars' updates, in player order, after player
    /// 0's.
    pub(crate) fn tick_others(&mut self) {
        for k in 0..self.others.len() {
            let o = self.others[k];
            if let Some(i) = o.avatar.and_then(|id| self.index_of(id)) {
                if !self.sprites[i].disabled {
                    let s = &mut self.sprites[i];
                    s.lx = s.x;
                    s.ly = s.y;
                    s.lastmove += 1;
                    self.update_avatar(i, o.action);
                }
            }
        }
    }

    /// `setAvatar(new, playerID of old)`: the avatar sprite `old` became
    /// sprite `new`.
    pub(crate) fn replace_avatar(&mut self, old: u32, new: u32) {
        for o in self.others.iter_mut() {
            if o.avatar == Some(old) {
                o.avatar = Some(new);
                return;
            }
        }
        self.avatar = Some(new);
    }

    /// `removeScore`: the score of the player whose avatar is sprite `id`
    /// becomes 0.
    pub(crate) fn reset_score_of_avatar(&mut self, id: u32) {
        if self.avatar == Some(id) {
            self.score = 0.0;
        }
        for o in self.others.iter_mut() {
            if o.avatar == Some(id) {
                o.score = 0.0;
            }
        }
    }

    /// `clearAll`: a removed avatar is no player's any more.
    pub(crate) fn forget_killed_avatars(&mut self) {
        for k in 0..self.others.len() {
            if let Some(i) = self.others[k].avatar.and_then(|id| self.index_of(id)) {
                if self.sprites[i].killed {
                    self.others[k].avatar = None;
                }
            }
        }
    }

    /// A termination that fired: every player's win state.
    pub(crate) fn end_by(&mut self, t: &TermDef) {
        let n = self.players();
        if let TermKind::TimeoutCounters { compare, limits } = &t.kind {
            let wins = self.counter_wins(*compare, limits);
            for (p, won) in wins.into_iter().enumerate() {
                self.set_winner(p, if won { Winner::Win } else { Winner::Loss });
            }
        } else if t.count_score {
            let max0 = self.score_of(0);
            let mut max = max0;
            let mut all0 = max0 == 0.0;
            for p in 1..n {
                let s = self.score_of(p);
                if s != 0.0 {
                    all0 = false;
                    if s > max {
                        max = s;
                    }
                }
            }
            for p in 0..n {
                let won = !all0 && self.score_of(p) == max;
                self.set_winner(p, if won { Winner::Win } else { Winner::Loss });
            }
        } else {
            for p in 0..n {
                let won = win_of(t.win.as_deref(), p);
                self.set_winner(p, if won { Winner::Win } else { Winner::Loss });
            }
        }
    }

    /// `Timeout use_counter=True`'s win list (after `countScore`, which
    /// it replaces), as GVGAI writes it: with `limits`, its loop restarts
    /// the list for every player, so only the last player's entry is
    /// left, and it lands on player 0.
    fn counter_wins(&self, compare: bool, limits: &str) -> Vec<bool> {
        let n = self.players();
        let c = &self.counters;
        if compare {
            let first = c.first().copied().unwrap_or(0);
            let equal = c.iter().skip(1).all(|&v| v == first);
            (0..n).map(|p| (p == 0) != equal).collect()
        } else if n != c.len() {
            vec![false; n]
        } else {
            let last = n - 1;
            let limit = limits
                .split(',')
                .nth(last)
                .and_then(|v| v.parse::<i32>().ok())
                .unwrap_or(0);
            (0..n).map(|p| p == 0 && c[last] == limit).collect()
        }
    }

    /// `checkTimeOut` for the players after the first.
    pub(crate) fn time_out_others(&mut self) {
        if self.game_tick() >= MAX_TIMESTEPS {
            for o in self.others.iter_mut() {
                if o.winner != Winner::Win {
                    o.winner = Winner::Loss;
                }
            }
        }
    }

    /// Every player's score, win state and avatar as the two-player
    /// reference traces record them.
    pub fn trace_players(&self) -> Vec<TracePlayer> {
        (0..self.players())
            .map(|p| TracePlayer {
                score: self.score_of(p),
                winner: match self.winner_of(p) {
                    Winner::None => "none",
                    Winner::Win => "win",
                    Winner::Loss => "loss",
                },
                avatar: self.avatar_of(p).and_then(|id| trace_avatar(self, id)),
                avatar_type: self
                    .avatar_of(p)
                    .and_then(|id| self.index_of(id))
                    .filter(|&i| !self.sprites[i].disabled)
                    .map(|i| self.rules.types[self.sprites[i].ty as usize].name.clone()),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vgdl::Vgdl;
    use crate::{Game, PlayerResult};

    const TWO: &str = "BasicGame no_players=2 square_size=10
  SpriteSet
    floor > Immovable
    coin > Immovable
    avatar > MovingAvatar
      a1 >
      a2 >
  LevelMapping
    . > floor
    c > floor coin
    1 > floor a1
    2 > floor a2
  InteractionSet
    coin a1 > killSprite scoreChange=2,-1
    coin a2 > killSprite scoreChange=5
    a1 wall > removeScore
  TerminationSet
    SpriteCounter stype=coin limit=0 count_score=True
";

    fn play(game: &str, level: &str, joints: &[[Action; 2]]) -> crate::vgdl::VgdlGame {
        let mut g = Vgdl::parse(game).unwrap().level(level, 1).unwrap();
        for j in joints {
            g.advance(j);
        }
        g
    }

    #[test]
    fn scores_follow_score_lists_and_count_score_picks_the_winner() {
        use Action::*;
        let g = play(TWO, "1c.c2", &[[Right, Left]]);
        assert_eq!((g.score(0), g.score(1)), (7.0, 4.0));
        assert!(g.is_over());
        assert_eq!(g.result(0), PlayerResult::Win);
        assert_eq!(g.result(1), PlayerResult::Loss);
        // No coin at all: the counter ends the game at once, every score is
        // 0, so nobody wins.
        let g = play(TWO, "1..2", &[[Nil, Nil]]);
        assert!(g.is_over());
        assert_eq!(
            (g.result(0), g.result(1)),
            (PlayerResult::Loss, PlayerResult::Loss)
        );
    }

    #[test]
    fn remove_score_zeroes_only_its_avatars_player() {
        use Action::*;
        let g = play(TWO, "w1c.c2", &[[Right, Nil], [Left, Nil]]);
        assert_eq!((g.score(0), g.score(1), g.is_over()), (2.0, -1.0, false));
        let g = play(TWO, "w1c.c2", &[[Right, Nil], [Left, Nil], [Left, Nil]]);
        assert_eq!((g.score(0), g.score(1)), (0.0, -1.0));
        let g = play(
            TWO,
            "w1c.c2",
            &[[Right, Nil], [Left, Nil], [Left, Nil], [Nil, Left]],
        );
        // a1 still overlaps the wall: after a2's coin (+5 each), the later
        // pair zeroes player 0 again; player 1 has the highest score.
        assert_eq!((g.score(0), g.score(1)), (0.0, 4.0));
        assert_eq!(
            (g.result(0), g.result(1)),
            (PlayerResult::Loss, PlayerResult::Win)
        );
    }

    #[test]
    fn stop_counter_holds_the_other_terminations_back() {
        use Action::*;
        let game = TWO.replace(
            "    SpriteCounter stype=coin limit=0 count_score=True\n",
            "    StopCounter stype1=coin limit=1\n    SpriteCounter stype=floor limit=100 win=False,True\n",
        );
        let g = play(&game, "1c..2", &[[Nil, Nil]]);
        assert!(!g.is_over(), "one coin left: StopCounter stops the end");
        let g = play(&game, "1c..2", &[[Nil, Nil], [Right, Nil]]);
        assert!(g.is_over());
        assert_eq!(
            (g.result(0), g.result(1)),
            (PlayerResult::Loss, PlayerResult::Win)
        );
    }

    #[test]
    fn score_lists_follow_gvgai() {
        assert_eq!(score_of("3", 0), 3);
        assert_eq!(score_of("3", 1), 3);
        assert_eq!(score_of("3,-2", 1), -2);
        assert_eq!(score_of("3,-2", 0), 3);
        assert_eq!(score_of("x,2", 0), 0);
        assert_eq!(score_of("1,2", 5), 1);
        assert_eq!(score_of("4,", 1), 4);
    }

    #[test]
    fn win_lists_follow_gvgai() {
        assert!(win_of(Some("True,False"), 0));
        assert!(!win_of(Some("True,False"), 1));
        assert!(!win_of(Some("True"), 1));
        assert!(!win_of(None, 0));
        assert!(win_of(Some("false,TRUE"), 1));
    }
}
