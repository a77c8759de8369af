//! Fuzzing checks: one function per parser family that reads outside
//! input, shared by the cargo-fuzz targets in `fuzz/` and by the regression
//! test `games/tests/fuzz_corpus.rs`, which replays every committed corpus
//! file and crash reproducer under the ordinary `cargo test`.
//!
//! Each check feeds arbitrary bytes to the parser (lossily decoded as
//! UTF-8) and, where the parser accepts them, checks cheap invariants: the
//! parsed value written back out and parsed again is the same. The parsers
//! themselves never panic on bad input; these checks **panic when an
//! invariant breaks**, which is how a fuzzer reports a bug. Not part of the
//! public API.

use crate::bait::{Bait, BaitAction};
use crate::sokoban::{self, Level, Sokoban};
use crate::supply::{self, SupplyMap};
use crate::vgdl::Vgdl;
use crate::xiangqi::{fsf_to_iccs, iccs_to_fsf, Move, Position, Xiangqi};
use crate::Game;
use std::sync::OnceLock;

fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Bait levels (GVGAI's character format) and action names: a level that
/// parses is printed with [`Bait::grid_string`] and parses back equal; the
/// strict parser accepts only what the open one accepts; a few ticks play
/// without panicking.
pub fn bait_level(data: &[u8]) {
    let t = text(data);
    let strict = Bait::parse(&t);
    let open = Bait::parse_open(&t);
    if let Ok(s) = &strict {
        assert_eq!(
            open.as_ref().ok(),
            Some(s),
            "parse accepts what parse_open refuses"
        );
    }
    if let Ok(s) = open {
        let printed = s.grid_string().replace('/', "\n");
        let again = Bait::parse_open(&printed).expect("a printed level parses");
        assert_eq!(again, s, "level changed by printing: {printed:?}");
        assert_eq!(again.grid_string(), s.grid_string());
        let mut g = s;
        for (k, b) in data.iter().take(32).enumerate() {
            let a = [
                BaitAction::Up,
                BaitAction::Down,
                BaitAction::Left,
                BaitAction::Right,
                BaitAction::Nil,
            ][(*b as usize + k) % 5];
            g.step_action(a);
        }
    }
    for line in t.lines() {
        if let Some(a) = BaitAction::parse(line) {
            assert_eq!(BaitAction::parse(a.name()), Some(a));
        }
    }
}

/// The board of a level without its title and position in the file.
fn board(l: &Level) -> (usize, usize, &[bool], &[bool], &[bool], usize) {
    (l.width, l.height, &l.walls, &l.goals, &l.boxes, l.player)
}

/// Sokoban level files (XSB, the letter set, run-length encoded rows,
/// titles and notes): the levels that parse are printed with
/// [`sokoban::print_levels`] and parse back to the same boards and titles;
/// each board written in letters parses back too; every level is turned
/// into a game and every `Solution` section is replayed on it.
pub fn sokoban_xsb(data: &[u8]) {
    let t = text(data);
    let Ok(entries) = sokoban::parse_collection(&t) else {
        return;
    };
    let levels: Vec<Level> = entries.iter().map(|e| e.level.clone()).collect();
    let printed = sokoban::print_levels(&levels);
    let again = sokoban::parse_levels(&printed).expect("printed levels parse");
    assert_eq!(again.len(), levels.len(), "printed: {printed:?}");
    for (a, b) in again.iter().zip(&levels) {
        assert_eq!(board(a), board(b), "board changed by printing: {printed:?}");
        assert_eq!(a.title, b.title, "title changed by printing: {printed:?}");
    }
    for e in &entries {
        let letters = e.level.to_letters();
        if !letters.contains('|') {
            let l = sokoban::parse_level(&letters).expect("a board in letters parses");
            assert_eq!(board(&l), board(&e.level), "letters: {letters:?}");
        }
        if let Ok(g) = Sokoban::from_level(&e.level) {
            assert_eq!(board(&g.to_level()), board(&e.level));
        }
        for s in &e.solutions {
            let _ = sokoban::replay(&e.level, s);
        }
    }
}

/// A small level to replay fuzzed LURD on (both pushes and walls nearby).
const LURD_LEVEL: &str = "#######\n#.  $ #\n# $@. #\n#  ## #\n#     #\n#######\n";

/// Run-length encoded LURD solutions: what parses is written out as plain
/// letters and parses back equal; replaying it on a small level counts
/// exactly the parsed moves when it succeeds.
///
/// A LURD may expand to millions of moves (the parser's limit is ten
/// million); the round trips, which parse it again, are only made for up to
/// [`ROUND_TRIP_MOVES`] moves, so that one input stays well under the
/// fuzzer's time limit in an instrumented build.
pub fn sokoban_rle_lurd(data: &[u8]) {
    let t = text(data);
    let parsed = sokoban::parse_lurd(&t);
    let Ok(moves) = parsed else {
        return;
    };
    if moves.len() > ROUND_TRIP_MOVES {
        return;
    }
    let plain: String = moves.iter().map(|&(d, push)| d.letter(push)).collect();
    assert_eq!(sokoban::parse_lurd(&plain).as_ref(), Ok(&moves));
    static LEVEL: OnceLock<Level> = OnceLock::new();
    let level = LEVEL
        .get_or_init(|| sokoban::parse_level(LURD_LEVEL).expect("the built-in LURD level parses"));
    if let Ok(r) = sokoban::replay(level, &t) {
        assert_eq!(r.moves, moves.len());
        assert!(r.pushes <= r.moves);
    }
}

/// The longest parsed LURD whose round trips [`sokoban_rle_lurd`] checks.
pub const ROUND_TRIP_MOVES: usize = 100_000;

/// Supply-maze instance files (integer and character forms, several
/// instances, comments) and move paths: each instance that parses is
/// written in both forms and parses back equal; each line that parses as a
/// path prints back the same and is checked on the first map.
pub fn supply_instance(data: &[u8]) {
    let t = text(data);
    let parsed = supply::parse_instances(&t);
    let single = SupplyMap::parse(&t);
    match &parsed {
        Ok(all) if all.len() == 1 => {
            assert_eq!(single.as_ref().ok(), Some(&all[0].map));
        }
        _ => assert!(
            single.is_err(),
            "SupplyMap::parse accepts what parse_instances refuses"
        ),
    }
    let maps: Vec<SupplyMap> = parsed
        .map(|all| all.into_iter().map(|i| i.map).collect())
        .unwrap_or_default();
    for m in &maps {
        for form in [m.to_int_text(), m.to_char_text()] {
            let back = SupplyMap::parse(&form).expect("a printed instance parses");
            assert_eq!(&back, m, "instance changed by printing: {form:?}");
        }
    }
    for line in t.lines().take(64) {
        if let Some(path) = supply::Dir::parse_path(line) {
            let s = supply::Dir::path_string(&path);
            assert_eq!(supply::Dir::parse_path(&s).as_ref(), Some(&path));
            if let Some(m) = maps.first() {
                if let Some(n) = m.check_path(&path) {
                    assert!(n <= path.len());
                }
            }
        }
    }
}

/// Xiangqi FEN and ICCS / Fairy-Stockfish moves. The first line is a FEN:
/// if it parses, its printed FEN parses to the same position and prints the
/// same. The other blank-separated words are moves: each that parses
/// prints back to itself in both numberings and is played if legal (from
/// the FEN, or the start position).
pub fn xiangqi_fen_iccs(data: &[u8]) {
    let t = text(data);
    let (first, rest) = t.split_once('\n').unwrap_or((&t, ""));
    let mut game = match Position::from_fen(first) {
        Ok(p) => {
            let fen = p.to_fen();
            let q = Position::from_fen(&fen).expect("a printed FEN parses");
            assert_eq!(q.to_fen(), fen);
            assert_eq!(q.hash(), p.hash());
            assert!(q == p, "position changed by printing: {fen}");
            Xiangqi::from_position(p)
        }
        Err(_) => Xiangqi::new(),
    };
    for word in rest.split_whitespace().take(64) {
        for (parsed, base) in [(Move::parse_iccs(word), 0), (Move::parse_fsf_uci(word), 1)] {
            let Some(m) = parsed else { continue };
            assert_eq!(Move::parse_iccs(&m.iccs()), Some(m));
            assert_eq!(Move::parse_fsf_uci(&m.fsf_uci()), Some(m));
            if base == 0 {
                assert_eq!(iccs_to_fsf(word), Some(m.fsf_uci()));
            } else {
                assert_eq!(fsf_to_iccs(word), Some(m.iccs()));
            }
            let legal = game.legal_moves().contains(&m);
            assert_eq!(
                game.play(m),
                legal,
                "play disagrees with legal_moves: {m:?}"
            );
        }
    }
    if game.is_over() {
        assert!(game.legal_moves().is_empty());
    }
}

/// The VGDL parser alone (cheap enough for tens of millions of runs): the
/// text before a line `---` is a game, the text after it a level. Parsing
/// never panics; an error's line lies within the text (or is 0: the whole
/// text); a game that parses builds the level or says where it is wrong,
/// again on a line of the level's text.
pub fn vgdl_parse(data: &[u8]) {
    let t = text(data);
    let (game, level) = match t.split_once("\n---\n") {
        Some((g, l)) => (g, Some(l)),
        None => (&*t, None),
    };
    // Lines as GVGAI's `readLine` ends them: `\n`, `\r` or `\r\n`.
    let lines = |s: &str| s.replace("\r\n", "\n").split(['\n', '\r']).count();
    match Vgdl::parse(game) {
        Err(crate::vgdl::VgdlError::Parse(e)) => {
            assert!(
                e.line <= lines(game),
                "error on line {} of {}: {e}",
                e.line,
                lines(game)
            );
        }
        Err(crate::vgdl::VgdlError::Unsupported(names)) => {
            assert!(!names.is_empty(), "unsupported, naming nothing");
        }
        Ok(v) => {
            if let Some(level) = level.filter(|l| l.len() <= 4096) {
                if let Err(e) = v.level(level, 0) {
                    assert!(
                        e.line <= lines(level),
                        "level error on line {}: {e}",
                        e.line
                    );
                }
            }
        }
    }
}

/// The level used by [`vgdl_game`] when the input has none.
const VGDL_LEVEL: &str = "wwwwww\nwA.1.w\nw.0..w\nwwwwww";

/// VGDL game descriptions and levels: the text before a line `---` is a
/// game, the text after it a level (a small default level otherwise).
/// Loading never panics; a game that loads builds the level, plays up to 64
/// actions chosen by the input's bytes, and a clone advanced with the same
/// action stays equal to the original; the trace's sprites stay sorted.
pub fn vgdl_game(data: &[u8]) {
    let t = text(data);
    let (game, level) = match t.split_once("\n---\n") {
        Some((g, l)) => (g, l),
        None => (&*t, VGDL_LEVEL),
    };
    let Ok(v) = Vgdl::parse(game) else {
        return;
    };
    if level.len() > 4096 {
        return;
    }
    let Ok(mut g) = v.level(level, data.len() as i64) else {
        return;
    };
    let mut legal = Vec::new();
    let mut work = 0;
    for (k, b) in data.iter().take(64).enumerate() {
        // Piles of thousands of overlapping sprites cost quadratic time in
        // GVGAI as here; they are not played further (fuzzer time limit).
        work += g.state.sprites.len();
        if g.is_over() || work > 20_000 {
            break;
        }
        legal.clear();
        g.legal_actions(0, &mut legal);
        assert!(!legal.is_empty(), "no legal action in a running game");
        let a = legal[(*b as usize + k) % legal.len()];
        let mut c = g.clone();
        g.advance(&[a]);
        c.advance(&[a]);
        assert_eq!(g.trace(), c.trace(), "a clone diverged");
    }
    let tr = g.trace();
    assert!(
        tr.sprites.windows(2).all(|w| w[0] <= w[1]),
        "trace not sorted"
    );
}
