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
