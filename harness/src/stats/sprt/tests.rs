use super::*;

fn cfg(elo0: f64, elo1: f64, model: &str) -> SprtConfig {
    SprtConfig {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
        model: model.to_string(),
    }
}

/// fastchess `Stats(wins, losses, draws)`.
fn tri(wins: u64, losses: u64, draws: u64) -> SprtCounts {
    SprtCounts::Trinomial(Wdl::new(wins, draws, losses))
}

/// fastchess `Stats(ll, ld, wl, dd, wd, ww)`.
fn penta(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> SprtCounts {
    SprtCounts::Pentanomial(Pentanomial::new([ll, ld, wl + dd, wd, ww]))
}

/// doctest's `Approx(x).epsilon(0.01)`: 1 % of the larger magnitude.
fn approx(got: f64, want: f64) {
    let tol = 0.01 * got.abs().max(want.abs());
    assert!((got - want).abs() <= tol, "got {got}, want {want}");
}

fn llr_of(c: &SprtConfig, counts: SprtCounts) -> f64 {
    sprt_status(c, &counts).unwrap().llr
}

// Every case of fastchess app/tests/sprt_test.cpp @74deac23 except the
// BayesElo ones (model "bayesian", not offered here); alpha = beta =
// 0.05, same tolerance (doctest epsilon 0.01, relative).
#[test]
fn fastchess_normalized_trinomial() {
    approx(
        llr_of(&cfg(0.0, 2.0, "normalized"), tri(36433, 36027, 68692)),
        0.92,
    );
    approx(
        llr_of(&cfg(-1.75, 0.25, "normalized"), tri(10871, 10650, 20431)),
        2.30,
    );
    approx(
        llr_of(&cfg(0.0, 10.0, "normalized"), tri(4250, 0, 0)),
        120.56,
    );
}

#[test]
fn fastchess_logistic_trinomial() {
    approx(
        llr_of(&cfg(0.5, 2.5, "logistic"), tri(21404, 21184, 40708)),
        -1.57,
    );
    approx(
        llr_of(&cfg(0.0, 2.0, "logistic"), tri(57433, 57030, 106593)),
        -2.59,
    );
}

#[test]
fn fastchess_normalized_pentanomial() {
    approx(
        llr_of(
            &cfg(0.0, 2.0, "normalized"),
            penta(365, 16618, 36029, 200, 16974, 390),
        ),
        2.25,
    );
    approx(
        llr_of(
            &cfg(-1.75, 0.25, "normalized"),
            penta(127, 4883, 10311, 401, 5150, 104),
        ),
        3.01,
    );
    approx(
        llr_of(&cfg(0.0, 5.0, "normalized"), penta(0, 0, 0, 0, 0, 5550)),
        111.82,
    );
}

#[test]
fn fastchess_logistic_pentanomial() {
    approx(
        llr_of(
            &cfg(0.5, 2.5, "logistic"),
            penta(223, 9863, 20279, 1000, 10037, 246),
        ),
        -3.07,
    );
    approx(
        llr_of(
            &cfg(0.0, 2.0, "logistic"),
            penta(871, 26175, 55003, 980, 26678, 821),
        ),
        -4.98,
    );
}

// Reference LLRs of the normalized model, computed to 15 digits by an
// independent implementation: a Python script (mpmath, 40 digits) that
// takes each hypothesis' maximum-likelihood distribution from its KKT
// conditions (Van den Bergh, "Comments on normalized Elo" §4.1: p_k =
// p̂_k/(1 + θφ_k), φ_k = a_k − ½ − tσ(1 + ((a_k − μ)/σ)²)/2, μ = ½ + tσ),
// solved as a 2×2 system in (σ, θ) by mpmath.findroot from about 50 starts,
// keeping, of the solutions with positive weights and exactly the t-value,
// the most likely (t = 0: the secular equation for mean ½). It gives
// fastchess's figures above (0.92, 2.30, 120.56, 2.25, 3.01, 111.82).
const REFERENCE_NORMALIZED: [(&[u64], f64, f64, f64); 14] = [
    // [LL, LD, DD+WL, WD, WW] or [L, D, W], elo0, elo1, LLR.
    (&[1, 0, 4, 0, 7], 0.0, 300.0, 2.037_154_611_253_03),
    (&[0, 0, 0, 0, 6], 0.0, 300.0, 3.437_607_936_901_09),
    (&[0, 0, 0, 0, 6], -300.0, 0.0, 8.917_137_706_479_74),
    (&[5, 0, 3, 0, 4], 0.0, 300.0, -7.055_240_264_213_61),
    (&[1, 0, 4, 0, 7], -100.0, 900.0, -0.644_965_943_047_319),
    (&[2, 5, 11, 6, 1], -20.0, 20.0, -0.169_535_235_955_132),
    (
        &[365, 16618, 36229, 16974, 390],
        0.0,
        2.0,
        2.250_367_703_546_98,
    ),
    (
        &[127, 4883, 10712, 5150, 104],
        -1.75,
        0.25,
        3.010_154_196_603_69,
    ),
    (&[0, 0, 0, 0, 5550], 0.0, 5.0, 111.797_555_086_714),
    (&[3, 0, 9], 0.0, 300.0, 1.346_194_227_199_99),
    (&[12, 30, 41], -50.0, 50.0, 10.421_200_633_680_5),
    (&[36027, 68692, 36433], 0.0, 2.0, 0.923_293_450_949_526),
    (&[10650, 20431, 10871], -1.75, 0.25, 2.297_500_407_103_22),
    (&[0, 0, 4250], 0.0, 10.0, 120.548_267_741_203),
];

fn counts_of(c: &[u64]) -> SprtCounts {
    match *c {
        [l, d, w] => SprtCounts::Trinomial(Wdl::new(w, d, l)),
        [a, b, c, d, e] => SprtCounts::Pentanomial(Pentanomial::new([a, b, c, d, e])),
        _ => unreachable!(),
    }
}

#[test]
fn normalized_matches_an_independent_computation() {
    for (c, elo0, elo1, want) in REFERENCE_NORMALIZED {
        let got = llr(SprtModel::Normalized, elo0, elo1, &counts_of(c))
            .unwrap_or_else(|| panic!("{c:?} [{elo0}, {elo1}]: no LLR"));
        assert!(
            (got - want).abs() <= 1e-7 * want.abs().max(1.0),
            "{c:?} [{elo0}, {elo1}]: got {got}, want {want}"
        );
    }
}

// Connect Four (almost no draws, so LD and WD empty), uct against random:
// these counts once gave LLR −6.11 and −5.47, "H0 accepted".
#[test]
fn normalized_with_empty_cells_decides_right() {
    let c = cfg(0.0, 300.0, "normalized");
    let s = sprt_status(&c, &penta(1, 0, 4, 0, 0, 7)).unwrap();
    assert!((s.llr - 2.037_154_611).abs() < 1e-6, "{s:?}");
    assert_eq!(s.decision, SprtDecision::Continue);
    let s = sprt_status(&c, &penta(0, 0, 0, 0, 0, 6)).unwrap();
    assert!((s.llr - 3.437_607_937).abs() < 1e-6, "{s:?}");
    assert_eq!(s.decision, SprtDecision::AcceptH1);
}

// At t = 0 the constraint is a mean of ½ and nothing on σ: the search over
// σ must find the distribution the secular equation gives directly.
#[test]
fn t_value_zero_is_mean_one_half() {
    let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
    for counts in [
        [1.0, 1e-3, 4.0, 1e-3, 7.0],
        [1e-3, 1e-3, 1e-3, 1e-3, 6.0],
        [3.0, 10.0, 20.0, 12.0, 5.0],
        [50.0, 1e-3, 1e-3, 1e-3, 2.0],
    ] {
        let n: f64 = counts.iter().sum();
        let p_hat: Vec<f64> = counts.iter().map(|c| c / n).collect();
        let a = mle_t_value(&scores, &p_hat, 0.0).unwrap();
        let b = mle_expected(&scores, &p_hat, 0.5).unwrap();
        // Σ p̂ ln(p̂/p), what the LLR is made of, and each probability.
        let divergence =
            |p: &[f64]| -> f64 { (0..5).map(|k| p_hat[k] * (p_hat[k] / p[k]).ln()).sum() };
        assert!(
            (divergence(&a) - divergence(&b)).abs() < 1e-12,
            "{counts:?}: {a:?} {b:?}"
        );
        for k in 0..5 {
            assert!((a[k] / b[k] - 1.0).abs() < 1e-4, "{counts:?}: {a:?} {b:?}");
        }
    }
}

// Bounds: cutechess projects/lib/tests/sprt/tst_sprt.cpp @5e84232b gives
// ±4.6 for alpha = beta = 0.01 (ln(0.01/0.99) = −4.595); fastchess's
// default alpha = beta = 0.05 gives ±2.944.
#[test]
fn bounds_match_published_values() {
    let (lo, hi) = bounds(0.01, 0.01);
    assert!((lo + 4.6).abs() < 0.01 && (hi - 4.6).abs() < 0.01);
    let (lo, hi) = bounds(0.05, 0.05);
    assert!((lo + 2.944_438_979).abs() < 1e-6 && (hi - 2.944_438_979).abs() < 1e-6);
    let (lo, hi) = bounds(0.05, 0.1);
    assert!((lo - (0.1f64 / 0.95).ln()).abs() < 1e-12 && (hi - (0.9f64 / 0.05).ln()).abs() < 1e-12);
}

#[test]
fn decisions() {
    let c = cfg(0.0, 10.0, "normalized");
    let s = sprt_status(&c, &tri(4250, 0, 0)).unwrap();
    assert_eq!(s.decision, SprtDecision::AcceptH1);
    let s = sprt_status(&c, &tri(0, 4250, 0)).unwrap();
    assert_eq!(s.decision, SprtDecision::AcceptH0);
    assert!(s.llr < s.lower);
    let s = sprt_status(&c, &tri(5, 5, 10)).unwrap();
    assert_eq!(s.decision, SprtDecision::Continue);
    // fastchess "logistic pentanomial 2": LLR −4.98 < −2.94: H0.
    let s = sprt_status(
        &cfg(0.0, 2.0, "logistic"),
        &penta(871, 26175, 55003, 980, 26678, 821),
    )
    .unwrap();
    assert_eq!(s.decision, SprtDecision::AcceptH0);
}

#[test]
fn edge_counts() {
    for model in ["logistic", "normalized"] {
        let c = cfg(0.0, 5.0, model);
        let empty = sprt_status(&c, &SprtCounts::Trinomial(Wdl::default())).unwrap();
        assert_eq!((empty.llr, empty.decision), (0.0, SprtDecision::Continue));
        let empty = sprt_status(&c, &SprtCounts::Pentanomial(Pentanomial::default())).unwrap();
        assert_eq!(empty.llr, 0.0);
        // One game, all draws, all wins, all losses: finite, no panic.
        for counts in [
            tri(1, 0, 0),
            tri(0, 0, 1),
            tri(0, 0, 500),
            tri(500, 0, 0),
            tri(0, 500, 0),
            penta(0, 0, 0, 1, 0, 0),
            penta(0, 0, 0, 300, 0, 0),
            penta(300, 0, 0, 0, 0, 0),
        ] {
            let s = sprt_status(&c, &counts).unwrap();
            assert!(s.llr.is_finite(), "{model} {counts:?} {s:?}");
        }
        // Every game lost: H0; every game won: H1.
        assert_eq!(
            sprt_status(&c, &tri(0, 500, 0)).unwrap().decision,
            SprtDecision::AcceptH0
        );
        assert_eq!(
            sprt_status(&c, &tri(500, 0, 0)).unwrap().decision,
            SprtDecision::AcceptH1
        );
        // All draws: the score is exactly ½, which favours H0 (elo0 = 0).
        assert!(sprt_status(&c, &tri(0, 0, 500)).unwrap().llr < 0.0);
    }
}

#[test]
fn validation() {
    assert_eq!(cfg(0.0, 5.0, "logistic").validate(), Ok(()));
    assert_eq!(cfg(-3.0, 1.0, "normalized").validate(), Ok(()));
    let bad = |f: &dyn Fn(&mut SprtConfig)| {
        let mut c = cfg(0.0, 5.0, "normalized");
        f(&mut c);
        c.validate().unwrap_err()
    };
    assert_eq!(bad(&|c| c.alpha = 0.0), SprtConfigError::Alpha(0.0));
    assert_eq!(bad(&|c| c.alpha = 1.0), SprtConfigError::Alpha(1.0));
    assert!(matches!(
        bad(&|c| c.alpha = f64::NAN),
        SprtConfigError::Alpha(_)
    ));
    assert_eq!(bad(&|c| c.beta = -0.1), SprtConfigError::Beta(-0.1));
    assert!(matches!(
        bad(&|c| {
            c.alpha = 0.5;
            c.beta = 0.5
        }),
        SprtConfigError::AlphaPlusBeta(_)
    ));
    assert!(matches!(
        bad(&|c| c.elo0 = 5.0),
        SprtConfigError::EloOrder { .. }
    ));
    assert!(matches!(
        bad(&|c| c.elo0 = 6.0),
        SprtConfigError::EloOrder { .. }
    ));
    assert!(matches!(
        bad(&|c| c.elo1 = f64::INFINITY),
        SprtConfigError::EloRange { .. }
    ));
    assert!(matches!(
        bad(&|c| c.elo0 = f64::NAN),
        SprtConfigError::EloRange { .. }
    ));
    assert!(matches!(
        bad(&|c| c.elo1 = 5000.0),
        SprtConfigError::EloRange { .. }
    ));
    let e = bad(&|c| c.model = "bayesian".into());
    assert_eq!(e, SprtConfigError::UnknownModel("bayesian".into()));
    assert_eq!(
        e.to_string(),
        "sprt: unknown model `bayesian`; expected one of: logistic, normalized"
    );
    assert!(sprt_status(&cfg(5.0, 0.0, "logistic"), &tri(1, 1, 1)).is_err());
}

#[test]
fn config_from_toml() {
    let c: SprtConfig = toml::from_str("elo0 = 0\nelo1 = 5\n").unwrap();
    assert_eq!(c, cfg(0.0, 5.0, "normalized"));
    let c: SprtConfig =
        toml::from_str("elo0 = -1.5\nelo1 = 2.5\nalpha = 0.1\nbeta = 0.2\nmodel = \"logistic\"\n")
            .unwrap();
    assert_eq!((c.alpha, c.beta, c.model.as_str()), (0.1, 0.2, "logistic"));
    assert!(toml::from_str::<SprtConfig>("elo0 = 0\nelo1 = 5\nalpah = 0.1\n").is_err());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    // Any counts, any valid hypotheses: a finite LLR, Elo estimates without
    // NaN where documented finite or infinite.
    #[test]
    fn never_panics(c in proptest::array::uniform5(0u64..2000), elo0 in -500.0f64..500.0,
                    width in 0.1f64..100.0, logistic in proptest::bool::ANY) {
        let model = if logistic { "logistic" } else { "normalized" };
        let conf = cfg(elo0, elo0 + width, model);
        let m = model.parse::<SprtModel>().unwrap();
        proptest::prop_assert!(llr(m, elo0, elo0 + width, &tri(c[0], c[1], c[2])).is_some());
        let penta = SprtCounts::Pentanomial(Pentanomial::new(c));
        proptest::prop_assert!(llr(m, elo0, elo0 + width, &penta).is_some());
        let t = sprt_status(&conf, &tri(c[0], c[1], c[2])).unwrap();
        proptest::prop_assert!(t.llr.is_finite());
        let p = sprt_status(&conf, &SprtCounts::Pentanomial(Pentanomial::new(c))).unwrap();
        proptest::prop_assert!(p.llr.is_finite());
        for e in [
            crate::stats::elo::trinomial(Wdl::new(c[0], c[1], c[2])),
            crate::stats::elo::pentanomial(Pentanomial::new(c)),
        ]
        .into_iter()
        .flatten()
        {
            proptest::prop_assert!(!e.elo.is_nan() && !e.elo_lo.is_nan() && !e.elo_hi.is_nan());
            proptest::prop_assert!(!e.nelo.is_nan() && !e.los.is_nan() && !e.elo_error.is_nan());
            proptest::prop_assert!(e.elo_lo <= e.elo && e.elo <= e.elo_hi);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    // Small counts with empty cells (games without draws), any hypotheses
    // in range: the normalized LLR is always computed.
    #[test]
    fn normalized_llr_is_computed_with_empty_cells(
        c in proptest::array::uniform5(proptest::prop_oneof![proptest::strategy::Just(0u64), 0u64..30]),
        elo0 in -1000.0f64..999.0, width in 1.0f64..1000.0,
    ) {
        let elo1 = (elo0 + width).min(1000.0);
        let penta = SprtCounts::Pentanomial(Pentanomial::new(c));
        proptest::prop_assert!(llr(SprtModel::Normalized, elo0, elo1, &penta).is_some(), "{:?}", c);
        let tri = tri(c[0], c[1], c[2]);
        proptest::prop_assert!(llr(SprtModel::Normalized, elo0, elo1, &tri).is_some(), "{:?}", c);
    }
}

/// A case the property test below found: at nElo 922.24 the profile at
/// one σ of the grid lies so near the edge of the moment space that
/// Newton's method stalls; that σ is far from the answer, which must
/// still be found. The scan covers its neighbourhood.
#[test]
fn normalized_llr_is_computed_where_a_grid_point_stalls() {
    let penta = SprtCounts::Pentanomial(Pentanomial::new([16, 5, 23, 6, 24]));
    let stalled = llr(SprtModel::Normalized, 0.0, 922.24, &penta);
    assert!(stalled.is_some_and(|v| v < 0.0), "{stalled:?}");
    let missing: Vec<f64> = (0..4_000)
        .map(|i| 600.0 + i as f64 * 0.1)
        .filter(|&e| llr(SprtModel::Normalized, 663.96, e, &penta).is_none())
        .collect();
    assert!(missing.is_empty(), "no LLR at nElo {missing:?}");
}
