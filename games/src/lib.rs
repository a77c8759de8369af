//! Pure game rules for arena, and the core traits every crate shares.
//!
//! This crate has no I/O, no clocks and no threads: level files come in as
//! `&str`, randomness comes in as a seeded RNG, time comes in through the
//! [`Timer`] trait that the harness implements. See [`api`] for the shape
//! every game shares (joint actions for simultaneous moves; alternating games
//! are the special case).

pub mod api;
pub mod bait;
pub mod connect4;
#[doc(hidden)]
pub mod fuzzing;
pub mod grid;
pub mod snake;
pub mod sokoban;
pub mod supply;
pub mod testkit;
pub mod vgdl;
pub mod xiangqi;

pub use api::{
    Agent, AgentStats, Game, Plan, PlayerResult, Seat, StepTimer, Timer, UnlimitedTimer,
};
