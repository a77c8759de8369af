use super::*;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn z95_is_the_normal_quantile() {
    let z = Normal::standard().inverse_cdf(0.975);
    assert!(close(z, Z95, 1e-9), "{z}");
    assert!(close(NELO_PER_T, 800.0 / std::f64::consts::LN_10, 1e-9));
}

// fastchess app/tests/elo_test.cpp @74deac23, "EloWDL 1":
// Stats(wins 76, losses 89, draws 123): nElo −20.76 ± 40.13,
// LOS "15.53 %", score 0.477 (doctest epsilon 1 % relative).
#[test]
fn trinomial_fastchess_wdl_1() {
    let e = trinomial(Wdl::new(76, 123, 89)).unwrap();
    assert!(close(e.nelo, -20.76, 0.01), "{e:?}");
    assert!(close(e.nelo_error, 40.13, 0.01), "{e:?}");
    assert!(close(e.los * 100.0, 15.53, 0.005), "{e:?}");
    assert!(close(e.score, 0.477, 0.0005), "{e:?}");
}

// fastchess elo_test.cpp "EloWDL 2": Stats(136, 96, 111), i.e. wins 136,
// losses 96, draws 111: Elo 40.70 ± 30.43, nElo 49.77 ± 36.77,
// LOS "99.60 %", score 0.558.
#[test]
fn trinomial_fastchess_wdl_2() {
    let e = trinomial(Wdl::new(136, 111, 96)).unwrap();
    assert!(close(e.elo, 40.70, 0.01), "{e:?}");
    assert!(close(e.elo_error, 30.43, 0.01), "{e:?}");
    assert!(close(e.nelo, 49.77, 0.01), "{e:?}");
    assert!(close(e.nelo_error, 36.77, 0.01), "{e:?}");
    assert!(close(e.los * 100.0, 99.60, 0.005), "{e:?}");
    assert!(close(e.score, 0.558, 0.0005), "{e:?}");
    assert!(e.elo_lo < e.elo && e.elo < e.elo_hi);
}

// fastchess elo_test.cpp "EloWDL 3": wins 34, losses 356, draws 0:
// nElo −508.44 ± 34.48, score 0.087 (no draws).
#[test]
fn trinomial_fastchess_wdl_3_no_draws() {
    let e = trinomial(Wdl::new(34, 0, 356)).unwrap();
    assert!(close(e.nelo, -508.44, 0.01), "{e:?}");
    assert!(close(e.nelo_error, 34.48, 0.01), "{e:?}");
    assert!(close(e.score, 0.087, 0.0005), "{e:?}");
}

// fastchess elo_test.cpp "EloPentanomial 1": Stats(LL 34, LD 54, WL 31,
// DD 32, WD 64, WW 75): Elo 55.58 ± 27.65, nElo 57.94 ± 28.28,
// LOS "100.00 %", score 0.579.
#[test]
fn pentanomial_fastchess_1() {
    let e = pentanomial(Pentanomial::new([34, 54, 31 + 32, 64, 75])).unwrap();
    assert!(close(e.elo, 55.58, 0.01), "{e:?}");
    assert!(close(e.elo_error, 27.65, 0.01), "{e:?}");
    assert!(close(e.nelo, 57.94, 0.01), "{e:?}");
    assert!(close(e.nelo_error, 28.28, 0.01), "{e:?}");
    assert!(e.los * 100.0 >= 99.995, "{e:?}");
    assert!(close(e.score, 0.579, 0.0005), "{e:?}");
}

// fastchess elo_test.cpp "EloPentanomial 2": Stats(332, 433, 457, 41,
// 333, 334): Elo −8.64 ± 10.33, nElo −9.17 ± 10.96, LOS "5.05 %",
// score 0.488.
#[test]
fn pentanomial_fastchess_2() {
    let e = pentanomial(Pentanomial::new([332, 433, 457 + 41, 333, 334])).unwrap();
    assert!(close(e.elo, -8.64, 0.01), "{e:?}");
    assert!(close(e.elo_error, 10.33, 0.01), "{e:?}");
    assert!(close(e.nelo, -9.17, 0.01), "{e:?}");
    assert!(close(e.nelo_error, 10.96, 0.01), "{e:?}");
    assert!(close(e.los * 100.0, 5.05, 0.005), "{e:?}");
    assert!(close(e.score, 0.488, 0.0005), "{e:?}");
}

// fastchess elo_test.cpp "EloPentanomial 3": Stats(7895, 8757, 5485,
// 200, 568, 9999): Elo −21.04 ± 2.95, nElo −19.01 ± 2.65, LOS
// "0.00 %", score 0.470.
#[test]
fn pentanomial_fastchess_3() {
    let e = pentanomial(Pentanomial::new([7895, 8757, 5485 + 200, 568, 9999])).unwrap();
    assert!(close(e.elo, -21.04, 0.01), "{e:?}");
    assert!(close(e.elo_error, 2.95, 0.01), "{e:?}");
    assert!(close(e.nelo, -19.01, 0.01), "{e:?}");
    assert!(close(e.nelo_error, 2.65, 0.01), "{e:?}");
    assert!(e.los * 100.0 < 0.005, "{e:?}");
    assert!(close(e.score, 0.470, 0.0005), "{e:?}");
}

// Independent check of the formula: 60 % score is
// −400·log10(1/0.6 − 1) = 70.4365 Elo; 75 % is 190.8485 Elo
// (the logistic curve; harness-anchors.md §5.1).
#[test]
fn logistic_curve_points() {
    assert!(close(score_to_elo(0.6), 70.4365, 1e-4));
    assert!(close(score_to_elo(0.75), 190.8485, 1e-4));
    assert_eq!(score_to_elo(0.5), 0.0);
    assert!(close(elo_to_score(score_to_elo(0.3)), 0.3, 1e-12));
    assert_eq!(score_to_elo(1.0), f64::INFINITY);
    assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    assert!(score_to_elo(1.5).is_nan() && score_to_elo(f64::NAN).is_nan());
}

#[test]
fn empty_input_is_none() {
    assert_eq!(trinomial(Wdl::default()), None);
    assert_eq!(pentanomial(Pentanomial::default()), None);
    assert_eq!(Wdl::default().score(), None);
    assert_eq!(Wdl::default().draw_ratio(), None);
}

#[test]
fn all_wins_and_all_losses() {
    let e = trinomial(Wdl::new(10, 0, 0)).unwrap();
    assert_eq!(e.score, 1.0);
    assert_eq!(e.elo, f64::INFINITY);
    assert_eq!(e.elo_lo, f64::INFINITY);
    assert_eq!(e.elo_error, f64::INFINITY);
    assert_eq!(e.nelo, f64::INFINITY);
    assert_eq!(e.los, 1.0);
    let e = trinomial(Wdl::new(0, 0, 10)).unwrap();
    assert_eq!(e.elo, f64::NEG_INFINITY);
    assert_eq!(e.elo_hi, f64::NEG_INFINITY);
    assert_eq!(e.los, 0.0);
    let e = pentanomial(Pentanomial::new([0, 0, 0, 0, 7])).unwrap();
    assert_eq!((e.elo, e.los), (f64::INFINITY, 1.0));
}

#[test]
fn all_draws() {
    let e = trinomial(Wdl::new(0, 12, 0)).unwrap();
    assert_eq!(
        (e.score, e.elo, e.elo_error, e.nelo, e.los),
        (0.5, 0.0, 0.0, 0.0, 0.5)
    );
    let e = pentanomial(Pentanomial::new([0, 0, 5, 0, 0])).unwrap();
    assert_eq!(
        (e.score, e.elo, e.elo_error, e.nelo, e.los),
        (0.5, 0.0, 0.0, 0.0, 0.5)
    );
}

#[test]
fn single_game() {
    let e = trinomial(Wdl::new(1, 0, 0)).unwrap();
    assert_eq!((e.samples, e.elo), (1, f64::INFINITY));
    let e = trinomial(Wdl::new(0, 1, 0)).unwrap();
    assert_eq!((e.samples, e.elo, e.los), (1, 0.0, 0.5));
}

#[test]
fn interval_clamped_near_the_edges() {
    // 9 wins, 1 loss: s = 0.9, SE = 0.3/√10 ≈ 0.095: s + 1.96·SE > 1.
    let e = trinomial(Wdl::new(9, 0, 1)).unwrap();
    assert!(e.elo.is_finite() && e.elo_lo.is_finite());
    assert_eq!(e.elo_hi, f64::INFINITY);
    assert_eq!(e.elo_error, f64::INFINITY);
}

#[test]
fn reversal_mirrors() {
    let w = Wdl::new(30, 20, 10);
    let (a, b) = (trinomial(w).unwrap(), trinomial(w.reversed()).unwrap());
    assert!(close(a.elo, -b.elo, 1e-9) && close(a.los, 1.0 - b.los, 1e-12));
    let p = Pentanomial::new([1, 4, 9, 6, 3]);
    let (a, b) = (pentanomial(p).unwrap(), pentanomial(p.reversed()).unwrap());
    assert!(close(a.nelo, -b.nelo, 1e-9));
}

#[test]
fn add_pair_orders_like_fishtest() {
    use GameResult::*;
    let mut p = Pentanomial::default();
    p.add_pair(Loss, Loss);
    p.add_pair(Draw, Loss);
    p.add_pair(Win, Loss);
    p.add_pair(Draw, Draw);
    p.add_pair(Draw, Win);
    p.add_pair(Win, Win);
    assert_eq!(p.counts, [1, 1, 2, 1, 1]);
    assert_eq!(p.pairs(), 6);
    assert_eq!(p.score(), Some(0.5));
}

// cutechess elo.cpp LOS = ½(1 + erf((W−L)/√(2(W+L)))): W = L gives ½;
// W 136, L 96: 40/√464 = 1.85695 → ½(1 + erf(1.85695)) = 0.995682
// (erf(1.85695) = 0.991364, Python's math.erf).
#[test]
fn cutechess_los() {
    assert_eq!(los_wins_losses(5, 5), 0.5);
    assert_eq!(los_wins_losses(0, 0), 0.5);
    assert!(close(los_wins_losses(136, 96), 0.995682, 5e-6));
    assert!(close(los_wins_losses(96, 136), 1.0 - 0.995682, 5e-6));
}
