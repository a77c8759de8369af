use super::*;
use crate::stats::elo::{pentanomial, trinomial};

/// The two rows of one episode: `first` in seat 0, `second` in seat 1,
/// `result` from `first`'s side (`second` gets the reverse; `none` both).
fn episode(
    index: usize,
    level: &str,
    repetition: u32,
    first: &str,
    second: &str,
    result: &str,
) -> Vec<EpisodeRow> {
    let other = match result {
        "win" => "loss",
        "loss" => "win",
        r => r,
    };
    [(first, second, result), (second, first, other)]
        .into_iter()
        .enumerate()
        .map(|(seat, (agent, opponent, result))| EpisodeRow {
            run: "t".into(),
            game: "connect4".into(),
            level: level.into(),
            repetition,
            episode: index,
            seed: 0,
            seat,
            agent: agent.into(),
            opponent: opponent.into(),
            result: result.into(),
            outcome: "normal".into(),
            score: 0.0,
            steps: 10,
            total_ms: 0.0,
            cpu_ms: None,
            mean_act_ms: 0.0,
            max_act_ms: 0.0,
            p99_act_ms: 0.0,
            overruns: 0,
            expanded: None,
            detail: String::new(),
            leaked: 0,
            init_overrun: 0,
            pair: None,
            starved: 0,
            host: String::new(),
            cpu_model: String::new(),
        })
        .collect()
}

/// A round robin of `agents` over `reps` repetitions on one level, as the
/// schedule plays it (both seatings per repetition); `result(a, b, rep,
/// seat_of_a)` is `a`'s result.
fn round_robin(
    agents: &[&str],
    reps: u32,
    result: &dyn Fn(&str, &str, u32, usize) -> &'static str,
) -> Vec<EpisodeRow> {
    let mut rows = Vec::new();
    let mut index = 0;
    for rep in 0..reps {
        for i in 0..agents.len() {
            for j in i + 1..agents.len() {
                for (x, y) in [(agents[i], agents[j]), (agents[j], agents[i])] {
                    let seat_of_a = usize::from(x != agents[i]);
                    let r = result(agents[i], agents[j], rep, seat_of_a);
                    let r_x = if x == agents[i] {
                        r
                    } else {
                        match r {
                            "win" => "loss",
                            "loss" => "win",
                            other => other,
                        }
                    };
                    rows.extend(episode(index, "start", rep, x, y, r_x));
                    index += 1;
                }
            }
        }
    }
    rows
}

fn labels(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// The plain maximum likelihood (no virtual draws).
fn no_prior() -> RatingsOptions {
    RatingsOptions {
        prior: 0.0,
        ..RatingsOptions::default()
    }
}

#[test]
fn pair_rows_count_wdl_and_pentanomial() {
    // a vs b: a wins with seat 0, draws with seat 1 (pairs WD);
    // rep 2 a loses both (LL).
    let rows = round_robin(&["a", "b"], 3, &|_, _, rep, seat| match (rep, seat) {
        (2, _) => "loss",
        (_, 0) => "win",
        _ => "draw",
    });
    let out = ratings_rows(&labels(&["a", "b"]), &rows, &no_prior()).unwrap();
    assert_eq!(out.len(), 1, "two agents: no Bradley–Terry rows");
    let r = &out[0];
    assert_eq!(
        (r.kind.as_str(), r.agent.as_str(), r.opponent.as_str()),
        (KIND_PAIR, "a", "b")
    );
    assert_eq!(
        (r.games, r.wins, r.draws, r.losses),
        (6, Some(2), Some(2), Some(2))
    );
    assert_eq!(r.score, Some(0.5));
    assert_eq!(r.pairs, Some(3));
    assert_eq!(
        [
            r.penta_ll,
            r.penta_ld,
            r.penta_dd_wl,
            r.penta_wd,
            r.penta_ww
        ],
        [Some(1), Some(0), Some(0), Some(2), Some(0)]
    );
    let t = trinomial(Wdl::new(2, 2, 2)).unwrap();
    assert_eq!(r.elo, Some(r4(t.elo)));
    assert_eq!(
        (r.elo_lo, r.elo_hi),
        (Some(r4(t.elo_lo)), Some(r4(t.elo_hi)))
    );
    let p = pentanomial(Pentanomial::new([1, 0, 0, 2, 0])).unwrap();
    assert_eq!(r.nelo, Some(r4(p.nelo)));
    assert_eq!(
        (r.nelo_lo, r.nelo_hi),
        (
            Some(r4(p.nelo - p.nelo_error)),
            Some(r4(p.nelo + p.nelo_error))
        )
    );
    assert_eq!(
        (r.penta_elo_lo, r.penta_elo_hi),
        (Some(r4(p.elo_lo)), Some(r4(p.elo_hi)))
    );
    assert_eq!(r.penta_los, Some(r4(p.los)));
}

#[test]
fn unpaired_and_unfinished_games() {
    let mut rows = episode(0, "start", 0, "a", "b", "win");
    rows.extend(episode(1, "start", 0, "b", "a", "draw"));
    // No partner: same seating again on another level.
    rows.extend(episode(2, "other", 0, "a", "b", "win"));
    // Did not end: left out.
    rows.extend(episode(3, "start", 1, "a", "b", "none"));
    let out = ratings_rows(&labels(&["a", "b"]), &rows, &no_prior()).unwrap();
    let r = &out[0];
    assert_eq!(
        (r.games, r.wins, r.draws, r.losses),
        (3, Some(2), Some(1), Some(0))
    );
    assert_eq!(r.pairs, Some(1));
    assert_eq!(r.penta_wd, Some(1));
}

#[test]
fn no_pairs_leaves_pentanomial_empty_and_no_games_no_row() {
    let rows = episode(0, "start", 0, "a", "b", "loss");
    let out = ratings_rows(&labels(&["a", "b", "c"]), &rows, &no_prior()).unwrap();
    let pairs: Vec<_> = out.iter().filter(|r| r.kind == KIND_PAIR).collect();
    assert_eq!(pairs.len(), 1, "only a–b met");
    assert_eq!(pairs[0].pairs, Some(0));
    assert_eq!((pairs[0].penta_ww, pairs[0].nelo), (None, None));
    assert_eq!(pairs[0].elo, Some(f64::NEG_INFINITY));
    let c = out
        .iter()
        .find(|r| r.kind == KIND_BT && r.agent == "c")
        .unwrap();
    assert_eq!((c.games, c.rating, c.score), (0, None, None));
    assert!(ratings_rows(&[], &[], &no_prior()).unwrap().is_empty());
}

// Without a prior, the plain maximum likelihood: an agent that won
// everything is +inf and the others are rated among themselves.
#[test]
fn bradley_terry_rows_without_a_prior() {
    // strong beats everyone; mid and weak split: mid wins seat 0, draws seat 1.
    let rows = round_robin(
        &["strong", "mid", "weak"],
        4,
        &|a, b, _, seat| match (a, b) {
            ("strong", _) => "win",
            _ if seat == 0 => "win",
            _ => "draw",
        },
    );
    let opts = no_prior();
    let agents = labels(&["strong", "mid", "weak"]);
    let out = ratings_rows(&agents, &rows, &opts).unwrap();
    assert_eq!(out.iter().filter(|r| r.kind == KIND_PAIR).count(), 3);
    let bt: Vec<&RatingRow> = out.iter().filter(|r| r.kind == KIND_BT).collect();
    assert_eq!(bt.len(), 3);
    assert_eq!(bt[0].rating, Some(f64::INFINITY));
    assert_eq!(bt[0].score, Some(1.0));
    let (mid, weak) = (bt[1].rating.unwrap(), bt[2].rating.unwrap());
    assert!(
        (mid + weak).abs() < 1e-3,
        "mean anchor over the finite group"
    );
    // mid scores 0.75 against weak (pairs WD): Elo(0.75) apart.
    assert!(
        (mid - weak - elo::score_to_elo(0.75)).abs() < 0.01,
        "{mid} {weak}"
    );
    assert!(bt[1].rating_lo.unwrap() < mid && mid < bt[1].rating_hi.unwrap());
    assert_eq!((bt[0].rating_lo, bt[0].rating_hi), (None, None));

    // With the default prior every rating is finite, strictly inside its
    // interval, and the order is kept.
    let out = ratings_rows(&agents, &rows, &RatingsOptions::default()).unwrap();
    let bt: Vec<&RatingRow> = out.iter().filter(|r| r.kind == KIND_BT).collect();
    for r in &bt {
        let (x, lo, hi) = (
            r.rating.unwrap(),
            r.rating_lo.unwrap(),
            r.rating_hi.unwrap(),
        );
        assert!(
            lo.is_finite() && hi.is_finite() && lo < x && x < hi,
            "{r:?}"
        );
    }
    assert!(bt[0].rating > bt[1].rating && bt[1].rating > bt[2].rating);

    let anchored = RatingsOptions {
        anchor: Some("weak".into()),
        ..no_prior()
    };
    let out = ratings_rows(&agents, &rows, &anchored).unwrap();
    let weak = out
        .iter()
        .find(|r| r.kind == KIND_BT && r.agent == "weak")
        .unwrap();
    assert_eq!(weak.rating, Some(0.0));
    let bad = RatingsOptions {
        anchor: Some("nobody".into()),
        ..no_prior()
    };
    let err = ratings_rows(&agents, &rows, &bad).unwrap_err();
    assert!(err.to_string().contains("anchor `nobody`"), "{err}");
}

#[test]
fn terminal_table() {
    let rows = round_robin(
        &["strong", "mid", "weak"],
        2,
        &|a, _, _, seat| match (a, seat) {
            ("strong", _) => "win",
            (_, 0) => "win",
            _ => "loss",
        },
    );
    let out = ratings_rows(&labels(&["strong", "mid", "weak"]), &rows, &no_prior()).unwrap();
    let table = ratings_table(&out);
    let lines: Vec<&str> = table.lines().collect();
    assert!(
        lines[0].starts_with("agent") && lines[0].contains("Elo [95% CI]"),
        "{table}"
    );
    assert!(table.contains("+inf (won all)"), "{table}");
    assert!(table.contains("Bradley-Terry [95% CI]"), "{table}");
    // mid against weak: 1 win, 1 loss in 2 pairs: Elo 0 with its interval
    // as written.
    let mw = out
        .iter()
        .find(|r| r.agent == "mid" && r.opponent == "weak")
        .unwrap();
    let want = format!(
        "+0.0 [{}, {}]",
        show_elo(mw.elo_lo.unwrap()),
        show_elo(mw.elo_hi.unwrap())
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("mid ") && l.contains(&want)),
        "{want}\n{table}"
    );
    assert_eq!(ratings_table(&[]), "");
}

fn three_agent_config(dir: &Path) -> crate::config::RunConfig {
    let path = dir.join("c.toml");
    let text =
        "name = \"t\"\ngame = \"connect4\"\nlevels = [\"start\"]\nrepetitions = 2\nseed = 9\n\
                [[agents]]\nagent = \"random\"\nname = \"r1\"\n\
                [[agents]]\nagent = \"random\"\nname = \"r2\"\n\
                [[agents]]\nagent = \"random\"\nname = \"r3\"\n";
    std::fs::write(&path, text).unwrap();
    crate::registry::parse_config(text, &path).unwrap()
}

#[test]
fn reporter_writes_ratings_csv_on_run_finished() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = three_agent_config(dir.path());
    let rows = round_robin(&["r1", "r2", "r3"], 2, &|a, _, rep, _| match (a, rep) {
        ("r1", 0) => "draw",
        ("r1", _) => "win",
        _ => "loss",
    });
    let finished = Event::RunFinished {
        cfg: &cfg,
        rows: &rows,
        summary: &[],
        crosstable: &[],
        planned: rows.len() / 2,
        players: 2,
        complete: true,
    };
    let mut rep = RatingsCsv::new(dir.path());
    rep.report(&Event::Cancelled).unwrap();
    assert!(!dir.path().join("ratings.csv").exists());
    rep.report(&finished).unwrap();
    let text = std::fs::read_to_string(dir.path().join("ratings.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("kind,agent,opponent,games,wins,draws,losses,score"),
        "{text}"
    );
    assert_eq!(lines.len(), 1 + 3 + 3, "{text}");
    assert!(lines[1].starts_with("pair,r1,r2,4,2,2,0,0.75,"), "{text}");
    assert!(
        lines[4].starts_with("bradley-terry,r1,,8,,,,0.75,"),
        "{text}"
    );
    // r2 lost every game to r3: that pair's Elo is -inf.
    assert!(text.contains("inf"), "{text}");
    // The same on the anchor: r2 at 0.
    let mut rep = RatingsCsv::new(dir.path()).anchor("r2").prior(0.0);
    rep.report(&finished).unwrap();
    let text = std::fs::read_to_string(dir.path().join("ratings.csv")).unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with("bradley-terry,r2,,8,,,,") && l.contains(",0.0,")),
        "{text}"
    );
}

#[test]
fn reporter_skips_one_player_runs() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = three_agent_config(dir.path());
    let mut rep = RatingsCsv::new(dir.path());
    rep.report(&Event::RunFinished {
        cfg: &cfg,
        rows: &[],
        summary: &[],
        crosstable: &[],
        planned: 0,
        players: 1,
        complete: true,
    })
    .unwrap();
    assert!(!dir.path().join("ratings.csv").exists());
}

// A real (tiny) round robin through the run loop: the rows the runner
// makes pair up (every game of every pair of agents is in a pair).
#[test]
fn ratings_from_a_real_run() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = three_agent_config(dir.path());
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let mut reporters: Vec<Box<dyn Reporter>> = vec![Box::new(RatingsCsv::new(&out))];
    let result = crate::run::run_with(
        &cfg,
        &out,
        crate::output::resume::Resume::Auto,
        &mut reporters,
    )
    .unwrap();
    assert!(result.complete);
    let text = std::fs::read_to_string(out.join("ratings.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let header = rdr.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let recs: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    assert_eq!(recs.len(), 3 + 3, "{text}");
    for r in recs.iter().filter(|r| &r[0] == KIND_PAIR) {
        // 2 repetitions × 2 seatings = 4 games = 2 pairs per pair of agents.
        assert_eq!((&r[col("games")], &r[col("pairs")]), ("4", "2"), "{text}");
    }
}
