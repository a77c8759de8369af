//! The report at scale (issue 18): a run of 10,000 Connect Four episodes
//! (random against random, played for real), then `report.html` written
//! again from its folder (target: under 5 s) and opened in headless
//! chromium (target: under 2 s to the end of the page's scripts, read from
//! the page's own `data-ready-ms`). Also the replay file's size per 1,000
//! ticks. Not a timed test: it prints the figures.
//! Run: `cargo bench -p harness --bench report`.

use harness::run::{run_config, ProgressMode};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

const EPISODES: usize = 10_000;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cfg_path = dir.path().join("bench.toml");
    std::fs::write(
        &cfg_path,
        format!(
            "name = \"report-bench\"\ngame = \"connect4\"\nlevels = [\"start\"]\nrepetitions = {}\nseed = 1\nconcurrency = 2\n\
             [[agents]]\nagent = \"random\"\nname = \"random-a\"\n[[agents]]\nagent = \"random\"\nname = \"random-b\"\n",
            EPISODES / 2
        ),
    )
    .expect("config written");
    let cfg = harness::registry::load_config(&cfg_path).expect("config loads");
    let out = dir.path().join("results");
    let t = Instant::now();
    let run = run_config(&cfg, &out, ProgressMode::Silent).expect("run");
    let played = run.rows.len() / 2;
    println!(
        "run: {played} episodes played and written (with replays and report) in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    let replays = out.join(harness::output::replay::FILE_NAME);
    let bytes = std::fs::metadata(&replays).map(|m| m.len()).unwrap_or(0);
    let ticks: f64 = run.rows.iter().map(|r| r.steps as f64).sum::<f64>() / 2.0;
    println!(
        "replays.jsonl.gz: {:.1} MB, {ticks:.0} ticks, {:.1} KB per 1,000 ticks (Connect Four)",
        bytes as f64 / 1e6,
        bytes as f64 / 1e3 / (ticks / 1000.0)
    );

    let t = Instant::now();
    let (path, left_out) = harness::output::html::write_report(&out).expect("report");
    let write_s = t.elapsed().as_secs_f64();
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "report.html: written in {write_s:.2} s (target < 5 s), {:.1} MB, {left_out} replays left out",
        size as f64 / 1e6
    );

    match chromium() {
        None => println!("browser: chromium not installed, not measured"),
        Some(chrome) => {
            let blank = dir.path().join("blank.html");
            std::fs::write(&blank, "<!DOCTYPE html><html><body>x</body></html>").unwrap();
            let (base, _) = open(&chrome, &blank);
            let (wall, dom) = open(&chrome, &path);
            let ready = attr(&dom, "data-ready-ms");
            println!(
                "browser: report loaded (parsed, scripts run) {} ms after navigation start (target < 2000 ms); \
                 chromium --dump-dom {wall:.2} s against {base:.2} s for a blank page",
                ready.unwrap_or_else(|| "?".into())
            );
        }
    }
}

fn chromium() -> Option<String> {
    ["chromium", "chromium-browser"].iter().find_map(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|_| c.to_string())
    })
}

fn open(chrome: &str, page: &Path) -> (f64, String) {
    let profile = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let out = Command::new(chrome)
        .args(["--headless", "--disable-gpu", "--no-sandbox", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    (
        t.elapsed().as_secs_f64(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn attr(dom: &str, name: &str) -> Option<String> {
    let key = format!("{name}=\"");
    let at = dom.find(&key)? + key.len();
    Some(dom[at..at + dom[at..].find('"')?].to_string())
}
