//! Tournament formats and rules: gauntlets, paired games from openings,
//! losing on time, per-seat cross-tables, and the errors of bad settings.

mod common;
use common::arena;
use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn rows(path: &Path) -> Vec<csv::StringRecord> {
    csv::Reader::from_path(path)
        .unwrap()
        .records()
        .map(|r| r.unwrap())
        .collect()
}

const BOOK: &str = "# two openings\n\
rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n\n\
rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 1 1\n";

#[test]
fn a_gauntlet_from_openings_plays_pairs_with_swapped_seats() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "book.fen", BOOK);
    let cfg = write(
        dir.path(),
        "g.toml",
        "game = \"xiangqi\"\nformat = \"gauntlet\"\nopenings = \"book.fen\"\nrepetitions = 2\n\
         max_steps = 40\nseed = 3\n[time]\nact = \"500ms\"\nact_hard = \"1s\"\n\
         [[agents]]\nagent = \"greedy\"\n[[agents]]\nagent = \"random\"\n\
         [[agents]]\nname = \"random2\"\nagent = \"random\"\n",
    );
    let out = dir.path().join("out");
    let (code, stdout, err) = arena(&["run", &cfg, "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("as first W-D-L"), "{stdout}");
    let eps = rows(&out.join("episodes.csv"));
    // 2 rounds x 2 opponents x 2 seatings, 2 rows each.
    assert_eq!(eps.len(), 16);
    // Only the seed agent meets the others.
    assert!(eps.iter().all(|r| &r[7] == "greedy" || &r[8] == "greedy"));
    // Each pair: the same opening and seed, seats swapped.
    let seat0: Vec<_> = eps.iter().filter(|r| &r[6] == "0").collect();
    for two in seat0.chunks(2) {
        assert_eq!(two[0][2], two[1][2], "opening");
        assert_eq!(two[0][5], two[1][5], "seed");
        assert_eq!(two[0][7], two[1][8], "seats swapped");
    }
    let levels: std::collections::BTreeSet<_> = eps.iter().map(|r| r[2].to_string()).collect();
    assert_eq!(levels.len(), 2, "both openings played: {levels:?}");
    let cross = std::fs::read_to_string(out.join("crosstable.csv")).unwrap();
    assert!(
        cross
            .lines()
            .next()
            .unwrap()
            .ends_with("first_wdl,second_wdl"),
        "{cross}"
    );
    // summarize rebuilds every table from the journal, ratings included.
    let ratings = std::fs::read_to_string(out.join("ratings.csv")).unwrap();
    assert!(ratings.lines().count() > 1, "{ratings}");
    std::fs::remove_file(out.join("ratings.csv")).unwrap();
    std::fs::remove_file(out.join("crosstable.csv")).unwrap();
    let (code, _, err) = arena(&["summarize", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(out.join("ratings.csv")).unwrap(),
        ratings
    );
    assert_eq!(
        std::fs::read_to_string(out.join("crosstable.csv")).unwrap(),
        cross
    );
}

#[test]
fn an_overrun_loses_on_time_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write(
        dir.path(),
        "t.toml",
        "game = \"xiangqi\"\nformat = \"round-robin\"\n[time]\nclock = \"wall\"\nact = \"20ms\"\nact_hard = \"400ms\"\n\
         on_overrun = \"loss\"\n[[agents]]\nagent = \"fixture-sleep\"\nname = \"slow\"\n\
         params = { ms = 60 }\n[[agents]]\nagent = \"random\"\n",
    );
    let out = dir.path().join("out");
    let (code, _, err) = arena(&["run", &cfg, "--out", out.to_str().unwrap(), "-q"]);
    assert_eq!(code, 0, "{err}");
    for r in rows(&out.join("episodes.csv")) {
        if &r[7] == "slow" {
            assert_eq!(&r[10], "time-forfeit", "{r:?}");
            assert_eq!(&r[9], "loss");
            assert!(r[20].contains("on_overrun = \"loss\""), "{r:?}");
        } else {
            assert_eq!(&r[9], "win", "{r:?}");
        }
    }
}

#[test]
fn bad_tournament_settings_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "book.fen", "# a comment\n\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\nnot a fen\n");
    write(dir.path(), "empty.fen", "# nothing\n\n");
    let base =
        "game = \"xiangqi\"\n[[agents]]\nagent = \"greedy\"\n[[agents]]\nagent = \"random\"\n";
    let cases = [
        (
            format!("openings = \"book.fen\"\n{base}"),
            "book.fen:4: not a xiangqi start",
        ),
        (
            format!("openings = \"empty.fen\"\n{base}"),
            "the openings file holds no opening",
        ),
        (
            format!("openings = \"book.fen\"\nlevels = [\"start\"]\n{base}"),
            "give either `levels` or `openings`",
        ),
        (
            format!("order = \"random\"\n{base}"),
            "order: only with `openings`",
        ),
        (
            format!("format = \"gauntlet\"\ngauntlet_seeds = 2\n{base}"),
            "a gauntlet needs 1 to 1 gauntlet_seeds",
        ),
        (
            format!("format = \"gauntlet\"\ngauntlet_seeds = 0\n{base}"),
            "gauntlet_seeds = 0: expected 1 or more",
        ),
        (
            format!("{base}[sprt]\nelo0 = 10\nelo1 = 5\n"),
            "sprt: elo0 must be less than elo1",
        ),
        (
            format!("{base}[sprt]\nelo0 = 0\nelo1 = 5\nalpha = 1.5\n"),
            "sprt: alpha must be strictly between 0 and 1",
        ),
        (
            format!("{base}[sprt]\nelo0 = 0\nelo1 = 5\nmodel = \"bayes\"\n"),
            "sprt: unknown model `bayes`",
        ),
        (
            format!("gauntlet_seeds = 1\n{base}"),
            "gauntlet_seeds: only with format = \"gauntlet\"",
        ),
        (
            base.replacen(
                "\n[[agents]]",
                "\n[time]\non_overrun = \"forfeit\"\n[[agents]]",
                1,
            ),
            "time.on_overrun = \"forfeit\": expected \"fallback\" or \"loss\"",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let cfg = write(dir.path(), &format!("c{i}.toml"), text);
        let (code, _, err) = arena(&[
            "run",
            &cfg,
            "--out",
            dir.path().join(format!("o{i}")).to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "case {i}: {err}");
        assert!(err.contains(want), "case {i}: {err}");
    }
}

#[test]
fn an_sprt_stops_the_run_and_meta_json_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write(
        dir.path(),
        "s.toml",
        "game = \"connect4\"\nrepetitions = 100\nseed = 7\n[time]\nact = \"1s\"\nact_hard = \"2s\"\n\
         [sprt]\nelo0 = 0\nelo1 = 200\n\
         [[agents]]\nagent = \"uct\"\nparams = { iterations = 300 }\n[[agents]]\nagent = \"random\"\n",
    );
    let out = dir.path().join("out");
    let (code, stdout, err) = arena(&["run", &cfg, "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains(": H1 accepted"), "{stdout}");
    let meta = std::fs::read_to_string(out.join("meta.json")).unwrap();
    assert!(meta.contains("\"status\": \"sprt-stopped\""), "{meta}");
    assert!(meta.contains("H1 accepted"), "{meta}");
    assert!(
        rows(&out.join("episodes.csv")).len() < 400,
        "it stopped early"
    );
}
