use super::*;
use crate::stats::elo::score_to_elo;

fn games(a: usize, b: usize, wins: u32, draws: u32, losses: u32) -> Vec<Encounter> {
    let mut v = Vec::new();
    for (n, p) in [(wins, 1.0), (draws, 0.5), (losses, 0.0)] {
        for _ in 0..n {
            v.push(Encounter {
                a,
                b,
                points_a: p,
                games: 1,
            });
        }
    }
    v
}

/// The plain maximum-likelihood ratings (no prior).
fn point(agents: usize, enc: &[Encounter], anchor: Anchor) -> Vec<Option<f64>> {
    let opts = BtOptions {
        anchor,
        prior: 0.0,
        ..BtOptions::default()
    };
    let fit = bradley_terry(agents, enc, &opts).unwrap();
    assert!(fit.converged);
    fit.ratings.iter().map(|r| r.rating).collect()
}

// Two agents: the MLE is the logistic Elo of the score,
// R_a − R_b = 400·log10(s/(1−s)) = Elo(s); 7 W, 2 D, 3 L: s = 8/12.
#[test]
fn two_agents_match_the_logistic_elo() {
    let enc = games(0, 1, 7, 2, 3);
    let r = point(2, &enc, Anchor::Agent(1));
    let want = score_to_elo(8.0 / 12.0);
    assert!((r[0].unwrap() - want).abs() < 1e-4, "{r:?} {want}");
    assert_eq!(r[1], Some(0.0));
    let r = point(2, &enc, Anchor::Mean);
    assert!((r[0].unwrap() + r[1].unwrap()).abs() < 1e-9);
}

// Data generated exactly by ratings 0, 100, 300 (expected scores as
// counts × 1000 games): the MLE recovers them.
#[test]
fn recovers_consistent_ratings() {
    let truth = [0.0, 100.0, 300.0];
    let mut enc = Vec::new();
    for i in 0..3 {
        for j in i + 1..3 {
            let p = crate::stats::elo::elo_to_score(truth[i] - truth[j]);
            enc.push(Encounter {
                a: i,
                b: j,
                points_a: 1000.0 * p,
                games: 1000,
            });
        }
    }
    let r = point(3, &enc, Anchor::Agent(0));
    for i in 0..3 {
        assert!((r[i].unwrap() - truth[i]).abs() < 1e-3, "{r:?}");
    }
}

// OpenSpiel evaluation/elo_test.cc, TestMeeplePentathlon (from the VasE
// paper, arXiv:2312.03121): win matrix {{0,4,2},{1,0,2},{3,3,0}}; the
// first and last agents have provably equal ratings, the second is
// below both.
#[test]
fn openspiel_meeple_pentathlon() {
    let mut enc = games(0, 1, 4, 0, 1);
    enc.extend(games(0, 2, 2, 0, 3));
    enc.extend(games(1, 2, 2, 0, 3));
    let r: Vec<f64> = point(3, &enc, Anchor::Mean)
        .into_iter()
        .map(Option::unwrap)
        .collect();
    assert!((r[0] - r[2]).abs() < 1e-4, "{r:?}");
    assert!(r[1] < r[0] && r[1] < r[2]);
}

// OpenSpiel elo_test.cc, TestSCOPaperSec41Example (arXiv:2411.00119
// §4.1): win matrix {{0,5,2},{0,0,2},{3,3,0}}: agent 0 above agent 2,
// agent 1 below both. Agent 1 never scored against agent 0, but the
// group stays strongly connected through agent 2.
#[test]
fn openspiel_sco_example() {
    let mut enc = games(0, 1, 5, 0, 0);
    enc.extend(games(0, 2, 2, 0, 3));
    enc.extend(games(1, 2, 2, 0, 3));
    let r: Vec<f64> = point(3, &enc, Anchor::Mean)
        .into_iter()
        .map(Option::unwrap)
        .collect();
    assert!(r.iter().all(|x| x.is_finite()), "{r:?}");
    assert!(r[0] > r[2] && r[1] < r[0] && r[1] < r[2], "{r:?}");
}

#[test]
fn an_agent_that_won_everything_is_plus_infinity() {
    let mut enc = games(0, 1, 5, 0, 0);
    enc.extend(games(0, 2, 5, 0, 0));
    enc.extend(games(1, 2, 6, 0, 4));
    let r = point(3, &enc, Anchor::Mean);
    assert_eq!(r[0], Some(f64::INFINITY));
    let (b, c) = (r[1].unwrap(), r[2].unwrap());
    assert!((b + c).abs() < 1e-9 && (b - c - score_to_elo(0.6)).abs() < 1e-4);
    // Anchored to the winner: nothing else is comparable in finite terms.
    let r = point(3, &enc, Anchor::Agent(0));
    assert_eq!(
        r,
        vec![Some(0.0), Some(f64::NEG_INFINITY), Some(f64::NEG_INFINITY)]
    );
}

#[test]
fn an_agent_that_lost_everything_is_minus_infinity() {
    let mut enc = games(0, 1, 3, 2, 3);
    enc.extend(games(2, 0, 0, 0, 4));
    enc.extend(games(2, 1, 0, 0, 4));
    let r = point(3, &enc, Anchor::Agent(0));
    assert_eq!(r[2], Some(f64::NEG_INFINITY));
    assert!(r[1].unwrap().abs() < 1e-6);
}

#[test]
fn all_draws_are_equal_ratings() {
    let mut enc = games(0, 1, 0, 4, 0);
    enc.extend(games(1, 2, 0, 4, 0));
    let r = point(3, &enc, Anchor::Mean);
    assert!(r.iter().all(|x| x.unwrap().abs() < 1e-6), "{r:?}");
}

#[test]
fn empty_and_unplayed_agents() {
    let fit = bradley_terry(3, &[], &BtOptions::default()).unwrap();
    assert!(fit
        .ratings
        .iter()
        .all(|r| r.rating.is_none() && r.interval.is_none()));
    // Agent 2 never played.
    let r = point(3, &games(0, 1, 1, 0, 1), Anchor::Mean);
    assert_eq!(r[2], None);
    assert!(r[0].is_some());
    // A single game: the winner is +∞ against the loser.
    let r = point(2, &games(0, 1, 1, 0, 0), Anchor::Agent(1));
    assert_eq!(r, vec![Some(f64::INFINITY), Some(0.0)]);
    // Two separate leagues: the other league has no rating.
    let mut enc = games(0, 1, 2, 0, 1);
    enc.extend(games(2, 3, 2, 1, 0));
    let r = point(4, &enc, Anchor::Agent(0));
    assert_eq!((r[2], r[3]), (None, None));
}

#[test]
fn bad_input_is_an_error() {
    let o = BtOptions::default();
    let e = |a, b, p, g| Encounter {
        a,
        b,
        points_a: p,
        games: g,
    };
    assert!(matches!(
        bradley_terry(2, &[e(0, 2, 1.0, 1)], &o),
        Err(BtError::AgentOutOfRange { .. })
    ));
    assert_eq!(
        bradley_terry(2, &[e(1, 1, 1.0, 1)], &o),
        Err(BtError::SelfPlay(0))
    );
    assert_eq!(
        bradley_terry(2, &[e(0, 1, 2.0, 1)], &o),
        Err(BtError::BadPoints(0))
    );
    assert_eq!(
        bradley_terry(2, &[e(0, 1, f64::NAN, 1)], &o),
        Err(BtError::BadPoints(0))
    );
    assert_eq!(
        bradley_terry(2, &[], &BtOptions { prior: -1.0, ..o }),
        Err(BtError::BadPrior(-1.0))
    );
    let o = BtOptions {
        anchor: Anchor::Agent(5),
        ..o
    };
    assert!(matches!(
        bradley_terry(2, &[], &o),
        Err(BtError::AnchorOutOfRange { .. })
    ));
}

#[test]
fn intervals_bracket_the_estimate_and_shrink_with_games() {
    let mut enc = games(0, 1, 30, 20, 10);
    enc.extend(games(1, 2, 25, 20, 15));
    enc.extend(games(0, 2, 35, 15, 10));
    let fit = bradley_terry(3, &enc, &BtOptions::default()).unwrap();
    let width = |f: &BtFit, i: usize| {
        let (lo, hi) = f.ratings[i].interval.unwrap();
        let x = f.ratings[i].rating.unwrap();
        assert!(lo < x && x < hi, "{:?}", f.ratings[i]);
        assert!(((x - lo) - (hi - x)).abs() < 1e-9, "symmetric");
        hi - lo
    };
    let w = width(&fit, 0);
    assert!(w < 300.0, "{w}");
    assert_eq!(fit.ratings[0].games, 120);
    assert_eq!(fit.ratings[0].points, 30.0 + 10.0 + 35.0 + 7.5);
    // Four times the games: about half the width.
    let four: Vec<Encounter> = enc.iter().flat_map(|e| [*e; 4]).collect();
    let fit4 = bradley_terry(3, &four, &BtOptions::default()).unwrap();
    let ratio = width(&fit4, 0) / w;
    assert!((ratio - 0.5).abs() < 0.02, "{ratio}");
    // Anchored to agent 1: no interval for the anchor, the others have one.
    let anchored = BtOptions {
        anchor: Anchor::Agent(1),
        ..BtOptions::default()
    };
    let fit = bradley_terry(3, &enc, &anchored).unwrap();
    assert_eq!(fit.ratings[1].rating, Some(0.0));
    assert_eq!(fit.ratings[1].interval, None);
    width(&fit, 0);
    width(&fit, 2);
}

// Two agents, no prior: the variance of R_a − R_b is that of the Elo of
// the score by the delta method, (400/ln 10)² / (n·s·(1−s)).
#[test]
fn two_agent_interval_is_the_delta_method() {
    let enc = games(0, 1, 7, 2, 3);
    let opts = BtOptions {
        anchor: Anchor::Agent(1),
        prior: 0.0,
        ..BtOptions::default()
    };
    let fit = bradley_terry(2, &enc, &opts).unwrap();
    let (lo, hi) = fit.ratings[0].interval.unwrap();
    let s: f64 = 8.0 / 12.0;
    let se = 400.0 / std::f64::consts::LN_10 / (12.0 * s * (1.0 - s)).sqrt();
    assert!(((hi - lo) / 2.0 - crate::stats::elo::Z95 * se).abs() < 1e-6);
}

// With the prior, separation gives finite ratings in the right order,
// each strictly inside its interval.
#[test]
fn a_prior_keeps_separated_agents_finite() {
    let chain = [
        games(0, 1, 3, 0, 0),
        games(1, 2, 3, 0, 0),
        games(0, 2, 3, 0, 0),
    ]
    .concat();
    let fit = bradley_terry(3, &chain, &BtOptions::default()).unwrap();
    assert!(fit.converged);
    let r: Vec<f64> = fit.ratings.iter().map(|r| r.rating.unwrap()).collect();
    assert!(r[0] > r[1] && r[1] > r[2], "{r:?}");
    assert!(r.iter().sum::<f64>().abs() < 1e-6);
    for x in &fit.ratings {
        let (lo, hi) = x.interval.unwrap();
        let v = x.rating.unwrap();
        assert!(
            lo.is_finite() && hi.is_finite() && lo < v && v < hi,
            "{x:?}"
        );
    }
    // Two separate leagues: the prior does not join them.
    let mut enc = games(0, 1, 2, 0, 1);
    enc.extend(games(2, 3, 2, 1, 0));
    let fit = bradley_terry(4, &enc, &BtOptions::default()).unwrap();
    assert!(fit.ratings[0].rating.is_some() && fit.ratings[2].rating.is_none());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
    // Any results among 4 agents: no panic, no NaN rating, intervals ordered.
    #[test]
    fn never_panics(results in proptest::collection::vec((0usize..4, 0usize..4, 0u8..3), 0..30),
                    anchor in 0usize..5) {
        let enc: Vec<Encounter> = results
            .iter()
            .filter(|(a, b, _)| a != b)
            .map(|&(a, b, r)| Encounter { a, b, points_a: f64::from(r) / 2.0, games: 1 })
            .collect();
        let opts = BtOptions {
            anchor: if anchor == 4 { Anchor::Mean } else { Anchor::Agent(anchor) },
            prior: if anchor % 2 == 0 { 2.0 } else { 0.0 },
            ..BtOptions::default()
        };
        let fit = bradley_terry(4, &enc, &opts).unwrap();
        for r in &fit.ratings {
            proptest::prop_assert!(r.rating.is_none_or(|x| !x.is_nan()));
            if let Some((lo, hi)) = r.interval {
                proptest::prop_assert!(lo <= hi);
            }
        }
    }
}
