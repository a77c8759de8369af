//! Benchmark: grading the mock class of tests/grading.rs (30 submissions:
//! Python, C++ and Java, correct, broken and hostile) with one `arena grade`
//! command under bwrap, then grading it again (everything reused).
//! Prints wall time, games per second and the overhead per submission of
//! preparing it (copy, build, sandboxed start-up check).
//!
//!   cargo bench -p harness --bench grading

#[path = "../tests/mock_class/mod.rs"]
mod mock_class;
use std::process::Command;
use std::time::Instant;

fn figures(stdout: &str) -> (usize, f64, f64) {
    // "75 game(s); preparing 35.6 s, playing 28.5 s"
    let line = stdout
        .lines()
        .find(|l| l.contains("game(s); preparing"))
        .unwrap_or_else(|| panic!("no figures in:\n{stdout}"));
    let nums: Vec<f64> = line
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter_map(|t| t.parse().ok())
        .collect();
    (nums[0] as usize, nums[1], nums[2])
}

fn main() {
    let tmp = tempfile::Builder::new()
        .prefix("arena-grade-bench")
        .tempdir()
        .unwrap();
    let root = tmp.path();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let students = mock_class::write_class(root, listener.local_addr().unwrap().port());
    let n = students.len();
    println!("grading a mock class of {n} submissions (bwrap, -j 2)");
    println!(
        "{:<10} {:>8} {:>7} {:>11} {:>10} {:>12} {:>12}",
        "run", "wall s", "games", "prepare s", "play s", "games/s", "prep/sub ms"
    );
    for run in ["first", "again"] {
        let t = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["grade", "assignment.toml", "--submissions", "class"])
            .args(["--out", "out", "-j", "2", "-q"])
            .current_dir(root)
            .output()
            .unwrap();
        let wall = t.elapsed().as_secs_f64();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (games, prep, play) = figures(&String::from_utf8_lossy(&out.stdout));
        println!(
            "{run:<10} {wall:>8.1} {games:>7} {prep:>11.1} {play:>10.1} {:>12.1} {:>12.0}",
            if play > 0.0 { games as f64 / play } else { 0.0 },
            1000.0 * prep / n as f64
        );
    }
}
