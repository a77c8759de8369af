//! Test fixtures of a [`Searcher`]: a level's shared part with the
//! forward distances alone, and a plain `fess` configuration.

use super::super::board::DistTable;
use super::super::packing::Packing;
use super::*;

/// The shared part of board `b`: forward distances, and no backward
/// distances, packing orders, hotspots, plan or cells out of plan.
pub(crate) fn shared(b: Board) -> Arc<Shared> {
    let fdist = DistTable::to_targets(&b, &b.goals);
    Arc::new(Shared {
        board: b,
        fdist,
        bdist: None,
        packing: Packing::default(),
        hot: None,
        plan: None,
        oop: None,
        rooms: None,
        opener: None,
    })
}

/// `fess` with box moves, alternation, PI-corral pruning and corral
/// searches, at most 1,000,000 states; no goal zone, learning, boxes out
/// of plan or proofs.
pub(crate) fn fess() -> Config {
    Config {
        cost: Cost::Pushes,
        order: Order::Fess,
        pi_corrals: true,
        corral_nodes: 20,
        zone_nodes: 0,
        learn_nodes: 0,
        learn_at: 0,
        max_nodes: 1_000_000,
        macros: false,
        box_moves: true,
        best_pops: crate::sokoban::fess::FORWARD_BEST,
        stall: 0,
        greedy: 0,
        park: true,
        hotspots: false,
        opener: false,
        oop: false,
        rooms: false,
        one_advice: false,
        stranded: 0,
        near: 0,
        lazy: false,
        defer: false,
        prove: 0,
    }
}
