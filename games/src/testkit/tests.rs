//! The kit passes a correct toy game and catches each kind of violation in a
//! deliberately broken one.

use super::*;
use std::sync::atomic::{AtomicU32, AtomicU8, Ordering};
use std::sync::Arc;

/// Which rule of the [`Game`] contract the toy breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bug {
    None,
    NondeterministicAdvance,
    TickDoesNotCount,
    UnparseableName,
    IsLegalAcceptsInactiveSeat,
    IsLegalRefusesListed,
    IsLegalAcceptsUnlisted,
    FallbackIllegal,
    OverWithoutResult,
    LegalWhenOver,
    InactiveSeatHasActions,
    HashIgnoresEq,
    SharedState,
    WaitMoves,
    DuplicateAction,
    ClearsBuffer,
    NoActiveSeat,
    ActiveOutOfRange,
}

/// A walk on a ring of 5 cells: the seats take turns moving the marker left
/// (`L`, 0) or right (`R`, 1, not from cell 4). With one seat, `W` (2)
/// waits and is legal but unlisted. After 12 ticks seat 0 wins if the marker
/// is on an even cell.
#[derive(Clone, Debug)]
struct Toy {
    seats: usize,
    bug: Bug,
    pos: u8,
    /// The marker when `bug == SharedState` (clones share it).
    shared: Arc<AtomicU8>,
    tick: u32,
}

/// Source of "randomness" for the nondeterministic advance.
static NOISE: AtomicU32 = AtomicU32::new(0);

const END: u32 = 12;

impl Toy {
    fn new(seats: usize, bug: Bug) -> Toy {
        Toy {
            seats,
            bug,
            pos: 0,
            shared: Arc::new(AtomicU8::new(0)),
            tick: 0,
        }
    }
    fn pos(&self) -> u8 {
        if self.bug == Bug::SharedState {
            self.shared.load(Ordering::Relaxed)
        } else {
            self.pos
        }
    }
    fn to_move(&self) -> Seat {
        self.tick as usize % self.seats
    }
    /// The moves the rules allow (ignoring whose turn it is).
    fn moves(&self) -> &'static [u8] {
        if self.pos() == 4 {
            &[0]
        } else {
            &[0, 1]
        }
    }
}

impl PartialEq for Toy {
    fn eq(&self, o: &Self) -> bool {
        self.pos() == o.pos() && self.to_move() == o.to_move()
    }
}
impl Eq for Toy {}
impl Hash for Toy {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u8(self.pos());
        h.write_usize(self.to_move());
        if self.bug == Bug::HashIgnoresEq {
            h.write_u32(self.tick);
        }
    }
}

impl Game for Toy {
    type Action = u8;
    fn num_players(&self) -> usize {
        self.seats
    }
    fn is_active(&self, seat: Seat) -> bool {
        match self.bug {
            Bug::NoActiveSeat => false,
            Bug::ActiveOutOfRange => seat == self.to_move() || seat >= self.seats,
            _ => !self.is_over() && seat == self.to_move(),
        }
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<u8>) {
        if self.bug == Bug::ClearsBuffer {
            out.clear();
        }
        let listed = match self.bug {
            Bug::LegalWhenOver => seat == self.to_move(),
            Bug::InactiveSeatHasActions => !self.is_over() && seat < self.seats,
            _ => self.is_active(seat) && seat < self.seats,
        };
        if listed {
            out.extend_from_slice(self.moves());
            if self.bug == Bug::DuplicateAction {
                out.push(0);
            }
        }
    }
    fn is_legal(&self, seat: Seat, action: u8) -> bool {
        let wait = self.seats == 1 && action == 2;
        match self.bug {
            Bug::IsLegalAcceptsInactiveSeat => seat < self.seats && self.moves().contains(&action),
            Bug::IsLegalRefusesListed => self.is_active(seat) && action == 0,
            Bug::IsLegalAcceptsUnlisted => self.is_active(seat) && action < 2,
            _ => self.is_active(seat) && (self.moves().contains(&action) || wait),
        }
    }
    fn fallback_action(&self, _seat: Seat) -> u8 {
        if self.bug == Bug::FallbackIllegal {
            7
        } else if self.seats == 1 {
            2
        } else {
            0
        }
    }
    fn advance(&mut self, joint: &[u8]) {
        let step = match joint[self.to_move()] {
            0 => 4,
            1 => 1,
            _ if self.bug == Bug::WaitMoves => 1,
            _ => 0,
        };
        let noise = if self.bug == Bug::NondeterministicAdvance {
            (NOISE.fetch_add(1, Ordering::Relaxed) % 2) as u8
        } else {
            0
        };
        let pos = (self.pos() + step + noise) % 5;
        self.pos = pos;
        self.shared.store(pos, Ordering::Relaxed);
        if !(self.bug == Bug::TickDoesNotCount && joint[self.to_move()] == 1) {
            self.tick += 1;
        }
    }
    fn is_over(&self) -> bool {
        self.tick >= END
    }
    fn score(&self, seat: Seat) -> f64 {
        if self.result(seat) == PlayerResult::Win {
            1.0
        } else {
            0.0
        }
    }
    fn result(&self, seat: Seat) -> PlayerResult {
        if !self.is_over() || self.bug == Bug::OverWithoutResult {
            PlayerResult::Ongoing
        } else if self.pos().is_multiple_of(2) == (seat == 0) {
            PlayerResult::Win
        } else {
            PlayerResult::Loss
        }
    }
    fn tick(&self) -> u32 {
        self.tick
    }
    fn action_name(&self, action: u8) -> String {
        match action {
            0 => "L",
            1 => "R",
            2 => "W",
            _ => "?",
        }
        .to_string()
    }
    fn parse_action(&self, _seat: Seat, text: &str) -> Option<u8> {
        match text {
            "L" => Some(0),
            "R" if self.bug != Bug::UnparseableName => Some(1),
            "W" => Some(2),
            _ => None,
        }
    }
}

fn two(bug: Bug) -> KitReport {
    check_game(&Toy::new(2, bug), &KitConfig::new(10, 100, 1))
}

fn one(bug: Bug) -> KitReport {
    check_game(
        &Toy::new(1, bug),
        &KitConfig::new(10, 100, 1).with_fallback(Fallback::UnlistedNoop),
    )
}

#[test]
fn a_correct_game_passes_and_the_report_counts_what_was_checked() {
    for r in [two(Bug::None), one(Bug::None)] {
        assert_eq!(r.playouts, 10);
        assert_eq!(r.finished, 10);
        assert_eq!(r.advances, 10 * END as u64);
        assert_eq!(r.states, 10 * (END as u64 + 1));
        assert!(r.equal_pairs > 0, "{r:?}");
    }
    // max_ticks stops a playout before the end.
    let r = check_game(&Toy::new(2, Bug::None), &KitConfig::new(3, 5, 9));
    assert_eq!((r.finished, r.advances), (0, 15));
    check_state(&Toy::new(2, Bug::None), &KitConfig::default());
}

#[test]
#[should_panic(expected = "advance is not deterministic")]
fn catches_a_nondeterministic_advance() {
    two(Bug::NondeterministicAdvance);
}

#[test]
#[should_panic(expected = "tick() went from")]
fn catches_a_tick_that_does_not_count() {
    two(Bug::TickDoesNotCount);
}

#[test]
#[should_panic(
    expected = "tick 0, seat 0, action `R`: parse_action(seat, action_name(a)) gave None instead of Some(1)"
)]
fn catches_an_unparseable_action_name() {
    two(Bug::UnparseableName);
}

#[test]
#[should_panic(
    expected = "seat 1, action `L`: is_legal accepts this action but the seat is not active"
)]
fn catches_is_legal_accepting_for_the_inactive_seat() {
    two(Bug::IsLegalAcceptsInactiveSeat);
}

#[test]
#[should_panic(expected = "action `R`: legal_actions lists this action but is_legal refuses it")]
fn catches_is_legal_refusing_a_listed_action() {
    two(Bug::IsLegalRefusesListed);
}

#[test]
#[should_panic(
    expected = "action `R`: is_legal accepts this action but legal_actions does not list it"
)]
fn catches_is_legal_accepting_an_action_legal_only_in_earlier_states() {
    two(Bug::IsLegalAcceptsUnlisted);
}

#[test]
#[should_panic(expected = "fallback_action is not legal")]
fn catches_an_illegal_fallback() {
    two(Bug::FallbackIllegal);
}

#[test]
#[should_panic(expected = "fallback_action is not among legal_actions (Fallback::Listed")]
fn an_unlisted_fallback_needs_the_option() {
    check_game(&Toy::new(1, Bug::None), &KitConfig::new(1, 10, 0));
}

#[test]
#[should_panic(expected = "playing it changed the position")]
fn catches_an_unlisted_fallback_that_is_no_noop() {
    one(Bug::WaitMoves);
}

#[test]
#[should_panic(
    expected = "tick 12, seat 0, action -: is_over() is true but result(seat) is Ongoing"
)]
fn catches_an_end_without_a_result() {
    two(Bug::OverWithoutResult);
}

#[test]
#[should_panic(expected = "the game is over but legal_actions lists actions")]
fn catches_legal_actions_in_a_finished_game() {
    two(Bug::LegalWhenOver);
}

#[test]
#[should_panic(
    expected = "seat 1, action `L`: the seat is not active but legal_actions lists actions"
)]
fn catches_legal_actions_of_an_inactive_seat() {
    two(Bug::InactiveSeatHasActions);
}

#[test]
#[should_panic(expected = "Hash and Eq disagree")]
fn catches_a_hash_that_disagrees_with_eq() {
    two(Bug::HashIgnoresEq);
}

#[test]
#[should_panic(expected = "advancing a clone changed the original state")]
fn catches_clones_that_share_state() {
    two(Bug::SharedState);
}

#[test]
#[should_panic(expected = "action `L`: legal_actions lists this action twice")]
fn catches_duplicate_legal_actions() {
    two(Bug::DuplicateAction);
}

#[test]
#[should_panic(expected = "legal_actions does not append to its buffer")]
fn catches_legal_actions_clearing_its_buffer() {
    two(Bug::ClearsBuffer);
}

#[test]
#[should_panic(expected = "the game is not over but no seat is active")]
fn catches_a_running_game_without_an_active_seat() {
    two(Bug::NoActiveSeat);
}

#[test]
#[should_panic(expected = "seat 2, action -: a seat number >= num_players() is active")]
fn catches_an_active_seat_out_of_range() {
    two(Bug::ActiveOutOfRange);
}

#[test]
fn failure_messages_name_the_playout_and_the_last_actions() {
    let err = std::panic::catch_unwind(|| two(Bug::OverWithoutResult)).unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert!(
        msg.contains("in playout 0 (KitConfig seed 1, rng seed 1; last joint actions: "),
        "{msg}"
    );
    // Two seats: each joint action names both entries.
    assert!(
        msg.contains("L/L") || msg.contains("R/L") || msg.contains("L/R") || msg.contains("R/R"),
        "{msg}"
    );
}
