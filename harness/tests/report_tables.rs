//! `report.html` says what the tables of its folder hold, without a
//! browser: the Ratings section of a real three-agent run shows, for every
//! agent, the Bradley–Terry interval that `ratings.csv` has (a column read
//! under another name would leave it blank, as `ci_low`/`ci_high` did for
//! `rating_lo`/`rating_hi`); `arena summarize` writes the same tables and
//! report again from the journal; and a renamed column of `ratings.csv` is
//! said in the report, never shown as zeros.

mod common;
use common::arena;
use std::collections::HashMap;
use std::path::Path;

const CONFIG: &str = "name = \"report-tables\"\ngame = \"connect4\"\nlevels = [\"start\"]\n\
repetitions = 2\nseed = 5\n[time]\nact = \"500ms\"\nact_hard = \"1s\"\n\
[[agents]]\nagent = \"random\"\nname = \"random-a\"\n\
[[agents]]\nagent = \"random\"\nname = \"random-b\"\n\
[[agents]]\nagent = \"random\"\nname = \"random-c\"\n";

/// The rows of a CSV file as maps from column name to cell.
fn csv_maps(path: &Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            headers
                .iter()
                .zip(rec.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The text of the cell `data-col="col"` in the row `<tr data-agent="agent">`
/// of the table `id` of `html`.
fn cell(html: &str, id: &str, agent: &str, col: &str) -> Option<String> {
    let table = &html[html.find(&format!("id=\"{id}\""))?..];
    let table = &table[..table.find("</table>")?];
    let row = &table[table.find(&format!("<tr data-agent=\"{agent}\""))?..];
    let row = &row[..row.find("</tr>")?];
    let at = row.find(&format!("data-col=\"{col}\">"))? + col.len() + 12;
    Some(row[at..at + row[at..].find("</td>")?].to_string())
}

/// The two ends of an interval cell `[+1.0, −2.5]`.
fn ends(text: &str) -> (f64, f64) {
    let num = |s: &str| -> f64 {
        let s = s.trim().replace('−', "-");
        s.parse()
            .unwrap_or_else(|_| panic!("not a number: {s:?} in {text:?}"))
    };
    let inner = text
        .trim()
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or_else(|| panic!("not an interval: {text:?}"));
    let (lo, hi) = inner.split_once(',').unwrap();
    (num(lo), num(hi))
}

fn check_ratings_shown(run: &Path) {
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    let bt: Vec<_> = csv_maps(&run.join("ratings.csv"))
        .into_iter()
        .filter(|r| r["kind"] == "bradley-terry")
        .collect();
    assert_eq!(bt.len(), 3, "a Bradley–Terry row per agent");
    for want in &bt {
        let agent = &want["agent"];
        let shown = cell(&html, "ratings-bt", agent, "rating_interval")
            .unwrap_or_else(|| panic!("no interval of {agent} in the report"));
        let (lo, hi) = ends(&shown);
        let csv_lo: f64 = want["rating_lo"].parse().unwrap();
        let csv_hi: f64 = want["rating_hi"].parse().unwrap();
        assert!(csv_lo < csv_hi, "{want:?}");
        assert!(
            (lo - csv_lo).abs() <= 0.051 && (hi - csv_hi).abs() <= 0.051,
            "{agent}: report shows {shown}, ratings.csv has [{csv_lo}, {csv_hi}]"
        );
    }
}

#[test]
fn the_report_shows_the_rating_intervals_of_ratings_csv() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let run = dir.path().join("run");
    let (code, out, err) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        run.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    check_ratings_shown(&run);

    // `arena summarize` writes the same tables and report from the journal.
    let files = [
        "episodes.csv",
        "moves.jsonl",
        "summary.csv",
        "crosstable.csv",
        "ratings.csv",
    ];
    let before: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(run.join(f)).unwrap())
        .collect();
    for f in files.iter().chain(&["report.html"]) {
        std::fs::remove_file(run.join(f)).unwrap();
    }
    let (code, out, err) = arena(&["summarize", run.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("12 of 12 episodes (finished)"), "{out}");
    assert!(out.contains("Bradley-Terry"), "ratings printed: {out}");
    for (f, was) in files.iter().zip(&before) {
        let now = std::fs::read(run.join(f)).unwrap();
        assert!(now == *was, "{f} differs after arena summarize");
    }
    check_ratings_shown(&run);

    // A renamed column is said in the report, not read as zeros.
    let ratings = std::fs::read_to_string(run.join("ratings.csv")).unwrap();
    std::fs::write(
        run.join("ratings.csv"),
        ratings.replacen("rating_lo", "ci_low", 1),
    )
    .unwrap();
    let (code, out, err) = arena(&["report", run.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert!(
        html.contains("ratings.csv does not read as arena&#39;s ratings.csv")
            || html.contains("ratings.csv does not read as arena's ratings.csv"),
        "the unreadable file is named"
    );
    assert!(cell(&html, "ratings-bt", "random-a", "rating_interval").is_none());
}
