//! arena's Xiangqi move generator checked against a real engine: Debian's
//! Fairy-Stockfish (installed by .ci/setup-external.sh). Random games are
//! played with arena's legal moves; at every position the set of legal
//! moves must equal Fairy-Stockfish's `go perft 1` list, and at every 8th
//! position the depth-2 totals must agree. Skipped, with the reason
//! printed, only when the engine is not installed.

mod tools;
use games::xiangqi::{fsf_to_iccs, MoveList, Position};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const ENGINE: &str = "/usr/games/fairy-stockfish";

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(ENGINE)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("fairy-stockfish starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut e = Engine {
            child,
            stdin,
            stdout,
        };
        e.send("uci");
        e.until("uciok");
        e.send("setoption name UCI_Variant value xiangqi");
        e.send("isready");
        e.until("readyok");
        e
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The lines up to and including the first starting with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            assert!(
                self.stdout.read_line(&mut l).unwrap() > 0,
                "the engine closed its output; so far: {lines:?}"
            );
            let l = l.trim_end().to_string();
            let done = l.starts_with(prefix);
            lines.push(l);
            if done {
                return lines;
            }
        }
    }

    /// Fairy-Stockfish's perft of `fen`: the root moves (converted to ICCS)
    /// and the total.
    fn perft(&mut self, fen: &str, depth: u32) -> (BTreeSet<String>, u64) {
        self.send(&format!("position fen {fen}"));
        self.send(&format!("go perft {depth}"));
        let lines = self.until("Nodes searched");
        let mut moves = BTreeSet::new();
        for l in &lines[..lines.len() - 1] {
            if let Some((m, _)) = l.split_once(": ") {
                if let Some(iccs) = fsf_to_iccs(m) {
                    moves.insert(iccs);
                }
            }
        }
        let total = lines
            .last()
            .and_then(|l| l.split(':').nth(1))
            .and_then(|n| n.trim().parse().ok())
            .expect("a node count");
        (moves, total)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// A small xorshift generator: the games are the same on every run.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn legal_moves_agree_with_fairy_stockfish_in_random_games() {
    if !Path::new(ENGINE).exists() {
        tools::skip(&format!(
            "{ENGINE} is not installed (apt-get install fairy-stockfish)"
        ));
        return;
    }
    let mut engine = Engine::start();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut positions, mut depth2, mut mates) = (0usize, 0usize, 0usize);
    for game in 0..30 {
        let mut pos = Position::start();
        for ply in 0..160 {
            let fen = pos.to_fen();
            let mut list = MoveList::new();
            pos.gen_legal(&mut list);
            let ours: BTreeSet<String> = list.as_slice().iter().map(|m| m.iccs()).collect();
            assert_eq!(ours.len(), list.len(), "duplicate moves at {fen}");
            let (theirs, n) = engine.perft(&fen, 1);
            assert_eq!(
                ours,
                theirs,
                "game {game}, ply {ply}, {fen}: arena only {:?}, Fairy-Stockfish only {:?}",
                ours.difference(&theirs).collect::<Vec<_>>(),
                theirs.difference(&ours).collect::<Vec<_>>()
            );
            assert_eq!(n as usize, ours.len(), "{fen}");
            positions += 1;
            if ply % 8 == 0 {
                let (_, total) = engine.perft(&fen, 2);
                assert_eq!(pos.perft(2), total, "perft 2 of {fen}");
                depth2 += 1;
            }
            if list.is_empty() {
                mates += 1;
                break;
            }
            let m = list.as_slice()[rng.below(list.len())];
            let _ = pos.make(m);
        }
    }
    println!(
        "{positions} positions agree with Fairy-Stockfish at depth 1, {depth2} at depth 2; \
         {mates} games ended without a legal move"
    );
    assert!(positions > 1000, "{positions}");
}
