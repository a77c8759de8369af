//! The report and the replay viewer in a real browser (issue 18): Debian's
//! headless `chromium` opens them from `file://` (no network), and the test
//! checks there are no console errors, that the viewer at tick k draws the
//! state `arena trace` prints at tick k (read from the DOM's `data-state`),
//! and that the last tick shows the outcome; and that a two-player report's
//! Summary and Ratings tables say what `summary.csv` and `ratings.csv`
//! hold. Screenshots are saved under `target/tmp/report-browser/`
//! (`.ci/setup-browser.sh` installs chromium).

mod common;
mod tools;
use common::arena;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The browser, if installed.
fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|p| p.join(name))
                    .find(|p| p.is_file())
            })
        })
}

/// Run headless chromium on `url` with `extra` flags: (stdout, stderr).
fn browse(chrome: &Path, url: &str, extra: &[&str]) -> (String, String) {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(chrome)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            "--disable-extensions",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let (mut so, mut se) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut so, &mut s).ok();
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut se, &mut s).ok();
        s
    });
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish with {url} in 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    (out.join().unwrap(), err.join().unwrap())
}

/// The page's console messages (chromium logs them as `:CONSOLE`).
fn console_lines(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains(":CONSOLE")).collect()
}

/// The value of attribute `name` of the element with id `id` in `dom`,
/// HTML-unescaped.
fn attr(dom: &str, id: &str, name: &str) -> Option<String> {
    let at = dom.find(&format!("id=\"{id}\""))?;
    let tag_start = dom[..at].rfind('<')?;
    let tag_end = at + dom[at..].find('>')?;
    let tag = &dom[tag_start..tag_end];
    let key = format!(" {name}=\"");
    let v = tag.find(&key)? + key.len();
    let end = tag[v..].find('"')?;
    Some(
        tag[v..v + end]
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&#39;", "'")
            .replace("&amp;", "&"),
    )
}

/// A page loaded without errors: no console messages, no `data-errors`.
fn assert_clean(what: &str, dom: &str, stderr: &str) {
    let console = console_lines(stderr);
    assert!(console.is_empty(), "{what}: console: {console:#?}");
    assert!(
        !dom.contains("data-errors="),
        "{what}: the page noted errors: {:?}",
        dom.find("data-errors=")
            .map(|i| &dom[i..(i + 300).min(dom.len())])
    );
    assert!(
        dom.contains("</html>") || dom.contains("</body>"),
        "{what}: no DOM"
    );
}

/// JSON equality with numbers compared as numbers (JavaScript writes 0.0 as 0).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Per game: a level `arena trace` loads the same way, its agents and a
/// game-length limit that keeps the run short. A game of the registry not
/// listed here is played on its first built-in level by `random` in every
/// seat for 40 ticks.
const SETTINGS: &[(&str, &str, &[&str], u32)] = &[
    ("bait", "0", &["random"], 40),
    ("snake", "seed:1", &["random-valid", "random-valid"], 60),
    ("sokoban", "microban:1", &["random"], 40),
    ("supply", "set:0", &["random"], 40),
    ("xiangqi", "start", &["greedy", "random"], 40),
    ("connect4", "start", &["random", "random"], 42),
];

/// Every game of the registry with its settings.
fn games() -> Vec<(&'static str, String, Vec<&'static str>, u32)> {
    harness::registry::GAMES
        .iter()
        .flat_map(|g| {
            // A family of games: three members stand for it (one of them
            // for two players).
            if g.members().is_empty() {
                vec![*g]
            } else {
                ["gvgai:bait", "gvgai:aliens", "gvgai2p:tron"]
                    .iter()
                    .map(|n| harness::registry::find(n).expect("a shipped game"))
                    .collect()
            }
        })
        .map(|g| match SETTINGS.iter().find(|s| s.0 == g.name()) {
            Some(&(name, level, agents, steps)) => {
                (name, level.to_string(), agents.to_vec(), steps)
            }
            None => {
                let level = g.levels().first().expect("a built-in level").name.clone();
                let players = g.players(&level, 7).expect("the level loads");
                (g.name(), level, vec!["random"; players], 40)
            }
        })
        .collect()
}

#[test]
fn report_and_viewer_work_in_a_browser() {
    let Some(chrome) = chromium() else {
        tools::skip("chromium is not installed (.ci/setup-browser.sh installs it)");
        return;
    };
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-browser");
    std::fs::create_dir_all(&shots).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (game, level, agents, max_steps) in games() {
        let level = level.as_str();
        let run = dir.path().join(game);
        let cfg = dir.path().join(format!("{game}.toml"));
        let mut text = format!(
            "name = \"{game}-browser\"\ngame = \"{game}\"\nlevels = [\"{level}\"]\nrepetitions = 1\nseed = 7\nconcurrency = 1\nmax_steps = {max_steps}\n[time]\nact = \"200ms\"\nact_hard = \"400ms\"\n"
        );
        for (i, a) in agents.iter().enumerate() {
            text.push_str(&format!(
                "[[agents]]\nagent = \"{a}\"\nname = \"{a}-{i}\"\n"
            ));
        }
        std::fs::write(&cfg, text).unwrap();
        let (code, _, err) = arena(&[
            "run",
            cfg.to_str().unwrap(),
            "--out",
            run.to_str().unwrap(),
            "-q",
        ]);
        assert_eq!(code, 0, "{game}: {err}");
        let replays = run.join("replays.jsonl.gz");
        let page = run.join("viewer.html");
        let (code, stdout, err) = arena(&[
            "replay",
            replays.to_str().unwrap(),
            "--episode",
            "0",
            "--html",
            page.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{game}: {stdout}{err}");
        assert!(stdout.contains("replays the same"), "{game}: {stdout}");

        // The recorded moves, for `arena trace`.
        let line = std::fs::read_to_string(run.join("moves.jsonl")).unwrap();
        let rec: Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
        let moves: Vec<String> = rec["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        assert!(!moves.is_empty(), "{game}: no moves");
        let url = format!("file://{}", page.display());

        // Tick k: the viewer draws what `arena trace` prints at tick k.
        let k = (moves.len() / 2).max(1);
        let (dom, stderr) = browse(
            &chrome,
            &format!("{url}#episode=0&tick={k}"),
            &["--dump-dom"],
        );
        assert_clean(game, &dom, &stderr);
        assert_eq!(
            attr(&dom, "viewer", "data-tick").as_deref(),
            Some(&*k.to_string()),
            "{game}"
        );
        assert_eq!(
            attr(&dom, "viewer", "data-drawn").as_deref(),
            Some("yes"),
            "{game}: the viewer has no drawing for it (harness/src/output/html/viewer.js)"
        );
        let shown: Value =
            serde_json::from_str(&attr(&dom, "viewer", "data-state").expect("data-state")).unwrap();
        let actions = format!("--actions={}", moves[..k].join(","));
        // The episode's seed, for games that draw random numbers (gvgai:aliens).
        let seed = format!("--seed={}", rec["seed"].as_u64().expect("seed"));
        let (code, trace, err) = arena(&["trace", game, "--level", level, &actions, &seed]);
        assert_eq!(code, 0, "{game}: {err}");
        let at_k: Value =
            serde_json::from_str(trace.lines().nth(k).expect("trace line k")).unwrap();
        for (key, want) in at_k.as_object().unwrap() {
            assert!(
                shown.get(key).is_some_and(|v| same(v, want)),
                "{game} tick {k}: key {key}: viewer {shown}, trace {at_k}"
            );
        }
        let (_, stderr) = browse(
            &chrome,
            &format!("{url}#episode=0&tick={k}"),
            &[
                "--window-size=1100,760",
                &format!(
                    "--screenshot={}",
                    shots.join(format!("{game}.png")).display()
                ),
            ],
        );
        assert!(console_lines(&stderr).is_empty(), "{game}: {stderr}");

        // The end: the outcome is shown.
        let (dom, stderr) = browse(
            &chrome,
            &format!("{url}#episode=0&tick=end"),
            &["--dump-dom"],
        );
        assert_clean(game, &dom, &stderr);
        assert_eq!(
            attr(&dom, "viewer", "data-tick").as_deref(),
            Some(&*moves.len().to_string()),
            "{game}"
        );
        let outcome = attr(&dom, "v-outcome", "data-outcome").unwrap_or_default();
        assert!(
            !outcome.is_empty()
                && outcome
                    .split('/')
                    .all(|r| ["win", "loss", "draw"].contains(&r)),
            "{game}: outcome `{outcome}`"
        );
        assert!(dom.contains("Outcome after"), "{game}");
        // The last frame states the result, not who is to move.
        let panel = dom
            .split_once("id=\"v-score\">")
            .and_then(|(_, rest)| rest.split_once("</div>"))
            .map(|(text, _)| text)
            .unwrap_or_default();
        assert!(
            panel.starts_with("game over: ") && !panel.contains("to move"),
            "{game}: `{panel}`"
        );

        // The report of the run opens, with its plots and a viewer link.
        if game == "connect4" || game == "bait" {
            let report = format!("file://{}", run.join("report.html").display());
            let (dom, stderr) = browse(&chrome, &report, &["--dump-dom"]);
            assert_clean(&format!("{game} report"), &dom, &stderr);
            assert!(dom.matches("<svg").count() >= 2, "{game}: plots");
            assert!(dom.contains("href=\"#episode=0\""), "{game}: a viewer link");
            let (_, stderr) = browse(
                &chrome,
                &report,
                &[
                    "--window-size=1200,1800",
                    &format!(
                        "--screenshot={}",
                        shots.join(format!("{game}-report.png")).display()
                    ),
                ],
            );
            assert!(console_lines(&stderr).is_empty(), "{game} report: {stderr}");
            let (dom, stderr) = browse(
                &chrome,
                &format!("{report}#episode=0&tick=end"),
                &["--dump-dom"],
            );
            assert_clean(&format!("{game} report viewer"), &dom, &stderr);
            assert!(dom.contains("Outcome after"), "{game}: the report's viewer");
        }
    }
    println!("screenshots: {}", shots.display());
}

/// `arena run` of the config `text` (written to `dir/c.toml`) into
/// `dir/run` with the extra flag `flag`, which must succeed: the run's
/// folder and what it printed.
fn run_config(dir: &Path, text: &str, flag: &str) -> (PathBuf, String) {
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, text).unwrap();
    let run = dir.join("run");
    let (code, stdout, err) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        run.to_str().unwrap(),
        flag,
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    (run, stdout)
}

/// The rows of `csv` text as maps from column name to cell (read by
/// header, independently of arena's row types).
fn csv_maps(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let head: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            head.iter()
                .cloned()
                .zip(rec.iter().map(str::to_string))
                .collect()
        })
        .collect()
}

/// The `<tr>` elements of the table with id `id` in `dom`, as their
/// opening tag and their `data-col` cells (column name to text).
fn table_rows(dom: &str, id: &str) -> Vec<(String, std::collections::HashMap<String, String>)> {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no table {id}"));
    let end = start + dom[start..].find("</table>").unwrap();
    let body = &dom[start..end];
    let body = &body[body.find("<tbody>").expect("a tbody")..];
    let mut out = Vec::new();
    for tr in body.split("<tr").skip(1) {
        let tag = tr[..tr.find('>').unwrap()].to_string();
        let mut cells = std::collections::HashMap::new();
        for td in tr.split("<td").skip(1) {
            let Some(at) = td.find("data-col=\"") else {
                continue;
            };
            let name = &td[at + 10..];
            let name = &name[..name.find('"').unwrap()];
            let text = &td[td.find('>').unwrap() + 1..td.find("</td>").unwrap()];
            cells.insert(name.to_string(), text.replace("&amp;", "&"));
        }
        out.push((tag, cells));
    }
    out
}

/// `(lo, hi)` of an interval cell `[lo, hi]` (`+12.3` form).
fn interval(text: &str) -> Option<(f64, f64)> {
    let inner = text.strip_prefix('[')?.strip_suffix(']')?;
    let (lo, hi) = inner.split_once(", ")?;
    Some((lo.parse().ok()?, hi.parse().ok()?))
}

// A three-agent round robin where one agent answers nonsense (every game
// lost to bad output, a separated Bradley–Terry case): the report's
// Summary shows the terminal's failure columns as summary.csv has them,
// and its Ratings tables have a row per line of ratings.csv, none blank,
// with their intervals.
#[test]
fn report_tables_say_what_the_csv_files_hold() {
    let Some(chrome) = chromium() else {
        tools::skip("chromium is not installed (.ci/setup-browser.sh installs it)");
        return;
    };
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-browser");
    std::fs::create_dir_all(&shots).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (run, stdout) = run_config(
        dir.path(),
        "name = \"ratings-browser\"\ngame = \"connect4\"\nlevels = [\"start\"]\nrepetitions = 2\nseed = 7\n\
         [time]\nact = \"500ms\"\nact_hard = \"1s\"\n\
         [[agents]]\nagent = \"random\"\nname = \"random-a\"\n\
         [[agents]]\nagent = \"random\"\nname = \"random-b\"\n\
         [[agents]]\nname = \"garbage\"\ncommand = [\"sh\", \"-c\", \"while read l; do echo nonsense; done\"]\n",
        "--allow-broken",
    );
    let report = format!("file://{}", run.join("report.html").display());
    let (dom, stderr) = browse(&chrome, &report, &["--dump-dom"]);
    assert_clean("ratings report", &dom, &stderr);

    // Summary: the failure columns, as the terminal and summary.csv count them.
    let summary = csv_maps(&run.join("summary.csv"));
    let shown = table_rows(&dom, "summary-table");
    assert_eq!(shown.len(), summary.len(), "a row per line of summary.csv");
    let n = |m: &std::collections::HashMap<String, String>, c: &str| -> u64 {
        m[c].parse().unwrap_or_else(|_| panic!("{c}: {:?}", m[c]))
    };
    let mut failures = 0;
    for (want, (tag, cells)) in summary.iter().zip(&shown) {
        assert!(
            tag.contains(&format!("data-agent=\"{}\"", want["agent"]))
                && tag.contains(&format!("data-level=\"{}\"", want["level"])),
            "{tag} {want:?}"
        );
        assert_eq!(n(cells, "dq"), n(want, "disqualifications"), "{want:?}");
        assert_eq!(n(cells, "crash"), n(want, "crashes"), "{want:?}");
        assert_eq!(n(cells, "illegal"), n(want, "illegal_moves"), "{want:?}");
        let fail = n(want, "bad_output") + n(want, "other_failures");
        assert_eq!(n(cells, "fail"), fail, "{want:?}");
        assert_eq!(n(cells, "episodes"), n(want, "episodes"), "{want:?}");
        failures += fail;
    }
    assert!(failures > 0, "the nonsense agent's games count as failures");
    // The CLI's table says the same.
    let cli_fail = stdout
        .lines()
        .find(|l| l.starts_with("garbage ") && l.contains(" all "))
        .and_then(|l| l.split_whitespace().last())
        .unwrap();
    assert_eq!(cli_fail, "8", "{stdout}");

    // Ratings: pairs apart from agents, a row per line, none blank.
    let ratings = csv_maps(&run.join("ratings.csv"));
    let pair_lines: Vec<_> = ratings.iter().filter(|r| r["kind"] == "pair").collect();
    let bt_lines: Vec<_> = ratings
        .iter()
        .filter(|r| r["kind"] == "bradley-terry")
        .collect();
    assert_eq!((pair_lines.len(), bt_lines.len()), (3, 3), "{ratings:?}");
    let pairs = table_rows(&dom, "ratings-pairs");
    assert_eq!(pairs.len(), pair_lines.len());
    for ((tag, cells), want) in pairs.iter().zip(&pair_lines) {
        assert!(
            tag.contains(&format!("data-opponent=\"{}\"", want["opponent"])),
            "{tag}"
        );
        for col in ["games", "score", "elo", "elo_interval", "los"] {
            assert!(!cells[col].is_empty(), "{col} blank in {tag}: {cells:?}");
        }
        match interval(&cells["elo_interval"]) {
            Some((lo, hi)) => {
                let csv_lo: f64 = want["elo_lo"].parse().unwrap();
                let csv_hi: f64 = want["elo_hi"].parse().unwrap();
                assert!(
                    (lo - csv_lo).abs() <= 0.051 && (hi - csv_hi).abs() <= 0.051,
                    "{cells:?} {want:?}"
                );
            }
            // An infinite Elo or end, in words.
            None => assert!(
                want["elo"].contains("inf")
                    || want["elo_lo"].contains("inf")
                    || want["elo_hi"].contains("inf"),
                "{cells:?} {want:?}"
            ),
        }
    }
    let agents = table_rows(&dom, "ratings-bt");
    assert_eq!(agents.len(), bt_lines.len());
    for ((tag, cells), want) in agents.iter().zip(&bt_lines) {
        assert!(
            tag.contains(&format!("data-agent=\"{}\"", want["agent"])),
            "{tag}"
        );
        let rating: f64 = cells["rating"]
            .parse()
            .unwrap_or_else(|_| panic!("{cells:?}"));
        let (lo, hi) = interval(&cells["rating_interval"]).unwrap_or_else(|| panic!("{cells:?}"));
        assert!(
            lo < rating && rating < hi,
            "estimate inside its interval: {cells:?}"
        );
        let csv_lo: f64 = want["rating_lo"].parse().unwrap();
        assert!((lo - csv_lo).abs() <= 0.051, "{cells:?} {want:?}");
    }
    // The agent that lost every game is rated, finite, last.
    assert!(agents[2].0.contains("garbage") && !agents[2].1["rating"].contains('∞'));
    assert!(
        dom.contains("none: every game won"),
        "infinite pair Elo in words"
    );

    let (_, stderr) = browse(
        &chrome,
        &report,
        &[
            "--window-size=1200,2200",
            &format!(
                "--screenshot={}",
                shots.join("ratings-report.png").display()
            ),
        ],
    );
    assert!(console_lines(&stderr).is_empty(), "{stderr}");
}

#[test]
fn a_replay_in_a_member_with_others_shows_in_the_report() {
    let Some(chrome) = chromium() else {
        tools::skip("chromium is not installed (.ci/setup-browser.sh installs it)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (run, _) = run_config(
        dir.path(),
        "name = \"members\"\ngame = \"connect4\"\nrepetitions = 3\nseed = 5\n\
         [[agents]]\nagent = \"random\"\nname = \"a\"\n\
         [[agents]]\nagent = \"random\"\nname = \"b\"\n",
        "-q",
    );
    // Every replay in one gzip member, as the replay reporter writes the
    // replays made in one batch; the report read back embeds it as it is.
    let path = run.join("replays.jsonl.gz");
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(&path).unwrap()),
        &mut text,
    )
    .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6);
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut enc, text.as_bytes()).unwrap();
    std::fs::write(&path, enc.finish().unwrap()).unwrap();
    let (code, stdout, err) = arena(&["report", run.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{err}");
    // The fourth line's episode, at its end.
    let fourth: Value = serde_json::from_str(lines[3]).unwrap();
    let episode = fourth["episode"].as_u64().unwrap();
    let steps = fourth["ticks"].as_array().unwrap().len();
    let report = format!("file://{}", run.join("report.html").display());
    let (dom, stderr) = browse(
        &chrome,
        &format!("{report}#episode={episode}&tick=end"),
        &["--dump-dom"],
    );
    assert_clean("a shared member", &dom, &stderr);
    assert_eq!(
        attr(&dom, "viewer", "data-episode"),
        Some(episode.to_string())
    );
    assert_eq!(attr(&dom, "viewer", "data-tick"), Some(steps.to_string()));
    let shown: Value =
        serde_json::from_str(&attr(&dom, "viewer", "data-state").expect("data-state")).unwrap();
    assert_eq!(&shown, fourth["states"].as_array().unwrap().last().unwrap());
}
