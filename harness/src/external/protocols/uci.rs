//! UCI and UCCI adapters for Xiangqi engines.
//!
//! - `protocol = "uci"` (Fairy-Stockfish, Sjaak II): `uci` → `uciok`; the
//!   engine's `option` lines are collected; the harness sets `UCI_Variant` to
//!   `xiangqi` when the engine offers that option, then the config's
//!   `options` (`setoption name N value V`), then `isready` → `readyok`.
//!   Each act: `position startpos moves <m1> ...` when the game began from
//!   the standard start (as cutechess and fastchess send it), otherwise
//!   `position fen <initial FEN> moves ...` with the engine's FEN letters
//!   ([`crate::external::FenLetters`]); then `go movetime <ms>`; the answer is `bestmove <m>`.
//!   Moves use rank numbering `1`..`10` (`h3e3`), converted from and to
//!   arena's ICCS numbering `0`..`9` (`h2e2`).
//! - `protocol = "ucci"` (ElephantEye, Fairy-Stockfish's UCCI mode): `ucci`
//!   → `ucciok`; options as `setoption <name> <value>` (UCCI option names
//!   have no spaces: a configured `Skill Level` is sent under the engine's
//!   own spelling, `Skill_Level`); `isready` → `readyok`; `position ...` as
//!   above with ICCS moves (`0`..`9`) and `go time <ms> movestogo 1`
//!   (milliseconds); `bestmove <m>`.
//!
//! Every configured option must be one the engine advertised before
//! `uciok` / `ucciok` (names compared ignoring case, a space matching an
//! underscore), with a value its type allows; otherwise the game cannot
//! start (`spawn-failed`, naming the options the engine offers), which
//! `arena run`'s pre-flight turns into exit code 2.
//!
//! Time: `movetime` is the soft budget left minus a safety margin (a fifth
//! of it by default, config key `movetime_margin`; at least 10 ms), at least
//! 1 ms, because engines overshoot. With `search = { nodes = N }` or
//! `search = { depth = N }` ([`crate::external::Search`]) each act is
//! `go nodes N` / `go depth N` instead (in both dialects): a search that
//! does not depend on time. At the end of the game the harness sends
//! `quit`.
//!
//! These adapters play Xiangqi: they implement `Protocol<Xiangqi>`, and
//! Xiangqi's [`crate::registry::ArenaGame`] impl is what offers them.

use crate::external::protocols::{Protocol, Step};
use crate::external::{EngineSettings, ProtocolKind};
use crate::play::outcome::Outcome;
use crate::play::player::{Failure, Phase};
use games::xiangqi::{Move, Xiangqi, START_FEN};
use games::Seat;
use std::time::Duration;

/// The `movetime` for a soft budget with `remaining` left, keeping back
/// `margin_permille` thousandths of it (at least 10 ms).
pub fn movetime(remaining: Duration, margin_permille: u32) -> u64 {
    let margin = (remaining * margin_permille / 1000).max(Duration::from_millis(10));
    (remaining.saturating_sub(margin).as_millis() as u64).max(1)
}

/// One option an engine advertises at start-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Its name as the engine spells it.
    pub name: String,
    /// `check`, `spin`, `combo`, `button`, `string` (or whatever the engine says).
    pub kind: String,
    /// A spin's bounds.
    pub min: Option<i64>,
    /// A spin's bounds.
    pub max: Option<i64>,
    /// A combo's values.
    pub vars: Vec<String>,
}

/// Parse an `option` line: UCI `option name <name> type <t> ...` or UCCI
/// `option <name> type <t> ...`. `None` for other lines.
pub fn parse_option(line: &str) -> Option<EngineOption> {
    let mut words = line.split_whitespace().peekable();
    if words.next() != Some("option") {
        return None;
    }
    if words.peek() == Some(&"name") {
        words.next();
    }
    let mut name = Vec::new();
    for w in words.by_ref() {
        if w == "type" {
            break;
        }
        name.push(w);
    }
    if name.is_empty() {
        return None;
    }
    let mut opt = EngineOption {
        name: name.join(" "),
        kind: words.next().unwrap_or("").to_string(),
        min: None,
        max: None,
        vars: Vec::new(),
    };
    let rest: Vec<&str> = words.collect();
    let keywords = ["default", "min", "max", "var"];
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let mut j = i + 1;
        while j < rest.len() && !keywords.contains(&rest[j]) {
            j += 1;
        }
        let value = rest[i + 1..j].join(" ");
        match key {
            "min" => opt.min = value.parse().ok(),
            "max" => opt.max = value.parse().ok(),
            "var" => opt.vars.push(value),
            _ => {}
        }
        i = j;
    }
    Some(opt)
}

/// How option names compare: ignoring case, a space matching an underscore.
fn same_name(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.to_ascii_lowercase().replace(' ', "_");
    norm(a) == norm(b)
}

/// A bounded list of names an engine advertised, for an error message: at
/// most 24 of them, each cut at 40 characters, then how many more there are
/// (an engine's output is outside input: the detail must stay short).
fn listed<'a>(items: impl ExactSizeIterator<Item = &'a str>) -> String {
    const MAX_ITEMS: usize = 24;
    const MAX_CHARS: usize = 40;
    let total = items.len();
    let mut out: Vec<String> = items
        .take(MAX_ITEMS)
        .map(|s| match s.char_indices().nth(MAX_CHARS) {
            Some((i, _)) => format!("{}…", &s[..i]),
            None => s.to_string(),
        })
        .collect();
    if total > MAX_ITEMS {
        out.push(format!("and {} more", total - MAX_ITEMS));
    }
    out.join(", ")
}

/// Check a configured option against what the engine offers; the name and
/// value to send.
fn resolve_option(
    offered: &[EngineOption],
    key: &str,
    value: &str,
) -> Result<(String, Option<String>), String> {
    let Some(o) = offered.iter().find(|o| same_name(&o.name, key)) else {
        return Err(if offered.is_empty() {
            format!("options.{key}: the engine offers no options at all")
        } else {
            format!(
                "options.{key}: the engine has no such option; it offers {}",
                listed(offered.iter().map(|o| o.name.as_str()))
            )
        });
    };
    let bad = |why: String| Err(format!("options.{key} = {value:?}: {why}"));
    match o.kind.as_str() {
        "spin" => {
            let Ok(v) = value.trim().parse::<i64>() else {
                return bad(format!(
                    "{} is a spin option: expected a whole number",
                    o.name
                ));
            };
            let lo = o.min.unwrap_or(i64::MIN);
            let hi = o.max.unwrap_or(i64::MAX);
            if !(lo..=hi).contains(&v) {
                return bad(format!(
                    "outside the engine's range {}..{}",
                    o.min.map_or("".into(), |m| m.to_string()),
                    o.max.map_or("".into(), |m| m.to_string())
                ));
            }
            Ok((o.name.clone(), Some(v.to_string())))
        }
        "check" => match value.to_ascii_lowercase().as_str() {
            v @ ("true" | "false") => Ok((o.name.clone(), Some(v.to_string()))),
            _ => bad(format!(
                "{} is a check option: expected true or false",
                o.name
            )),
        },
        "combo" if !o.vars.is_empty() => {
            match o.vars.iter().find(|v| v.eq_ignore_ascii_case(value)) {
                Some(v) => Ok((o.name.clone(), Some(v.clone()))),
                None => bad(format!(
                    "expected one of {}",
                    listed(o.vars.iter().map(String::as_str))
                )),
            }
        }
        "button" => Ok((o.name.clone(), None)),
        _ => Ok((o.name.clone(), Some(value.to_string()))),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Hello,
    Ready,
}

/// A UCI or UCCI engine conversation.
pub struct Uci {
    dialect: ProtocolKind,
    settings: EngineSettings,
    offered: Vec<EngineOption>,
    stage: Stage,
    base_fen: String,
    base_moves: usize,
}

impl Uci {
    /// An adapter for `dialect` (`Uci` or `Ucci`) with the engine's settings.
    pub fn new(dialect: ProtocolKind, settings: &EngineSettings) -> Uci {
        Uci {
            dialect,
            settings: settings.clone(),
            offered: Vec::new(),
            stage: Stage::Hello,
            base_fen: String::new(),
            base_moves: 0,
        }
    }

    fn move_text(&self, m: Move) -> String {
        match self.dialect {
            ProtocolKind::Uci => m.fsf_uci(),
            _ => m.iccs(),
        }
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        match self.dialect {
            ProtocolKind::Uci => Move::parse_fsf_uci(text),
            _ => Move::parse_iccs(text),
        }
    }

    fn setoption(&self, name: &str, value: Option<&str>) -> String {
        match (self.dialect, value) {
            (ProtocolKind::Uci, Some(v)) => format!("setoption name {name} value {v}"),
            (ProtocolKind::Uci, None) => format!("setoption name {name}"),
            (_, Some(v)) => format!("setoption {name} {v}"),
            (_, None) => format!("setoption {name}"),
        }
    }

    /// The lines after `uciok` / `ucciok`, or why the configured options
    /// do not fit the engine.
    fn setup_lines(&self) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        let user_sets_variant = self
            .settings
            .options
            .iter()
            .any(|(k, _)| same_name(k, "UCI_Variant"));
        let variant = self
            .offered
            .iter()
            .find(|o| same_name(&o.name, "UCI_Variant"));
        if let (ProtocolKind::Uci, Some(v), false) = (self.dialect, variant, user_sets_variant) {
            if !v.vars.is_empty() && !v.vars.iter().any(|x| x == "xiangqi") {
                return Err(format!(
                    "the engine's UCI_Variant does not offer xiangqi (it offers {})",
                    listed(v.vars.iter().map(String::as_str))
                ));
            }
            out.push(self.setoption(&v.name, Some("xiangqi")));
        }
        let mut errors = Vec::new();
        for (k, v) in &self.settings.options {
            match resolve_option(&self.offered, k, v) {
                Ok((name, value)) => out.push(self.setoption(&name, value.as_deref())),
                Err(e) => errors.push(e),
            }
        }
        if !errors.is_empty() {
            return Err(errors.join("; "));
        }
        out.push("isready".to_string());
        Ok(out)
    }

    /// The `position` command for the game so far.
    fn position(&self, x: &Xiangqi) -> String {
        let mut pos = if self.base_fen == START_FEN {
            "position startpos".to_string()
        } else {
            format!(
                "position fen {}",
                self.settings.fen_letters.apply(&self.base_fen)
            )
        };
        let moves = &x.moves()[self.base_moves.min(x.moves().len())..];
        if !moves.is_empty() {
            pos.push_str(" moves");
            for &m in moves {
                pos.push(' ');
                pos.push_str(&self.move_text(m));
            }
        }
        pos
    }
}

fn bad(detail: String) -> Failure {
    Failure {
        outcome: Outcome::BadOutput,
        detail,
    }
}

impl Protocol<Xiangqi> for Uci {
    fn request(
        &mut self,
        phase: Phase,
        x: &Xiangqi,
        _seat: Seat,
        remaining: Duration,
    ) -> Vec<String> {
        match phase {
            Phase::Init => {
                self.stage = Stage::Hello;
                self.offered.clear();
                self.base_fen = x.fen();
                self.base_moves = x.moves().len();
                vec![match self.dialect {
                    ProtocolKind::Uci => "uci".to_string(),
                    _ => "ucci".to_string(),
                }]
            }
            Phase::Act => {
                let ms = movetime(remaining, self.settings.margin_permille);
                let go = match (self.settings.search, self.dialect) {
                    (Some(search), _) => format!("go {}", search.go_args()),
                    (None, ProtocolKind::Uci) => format!("go movetime {ms}"),
                    (None, _) => format!("go time {ms} movestogo 1"),
                };
                vec![self.position(x), go]
            }
        }
    }

    fn answer(
        &mut self,
        phase: Phase,
        state: &Xiangqi,
        _seat: Seat,
        line: &str,
    ) -> Result<Step<Move>, Failure> {
        let line = line.trim();
        match phase {
            Phase::Init => {
                let ok = match self.dialect {
                    ProtocolKind::Uci => "uciok",
                    _ => "ucciok",
                };
                if self.stage == Stage::Hello {
                    if let Some(o) = parse_option(line) {
                        self.offered.push(o);
                    }
                    if line == ok {
                        self.stage = Stage::Ready;
                        return match self.setup_lines() {
                            Ok(lines) => Ok(Step::Continue(lines)),
                            Err(detail) => Err(Failure {
                                outcome: Outcome::SpawnFailed,
                                detail,
                            }),
                        };
                    }
                    Ok(Step::Continue(Vec::new()))
                } else if line == "readyok" {
                    Ok(Step::Done(None))
                } else {
                    Ok(Step::Continue(Vec::new()))
                }
            }
            Phase::Act => {
                let mut words = line.split_whitespace();
                match words.next() {
                    Some("bestmove") => {}
                    // UCCI engines answer `nobestmove` for a position they
                    // judge dead by their own rules (ElephantEye: neither
                    // side has a chariot, horse, cannon or soldier, or 100
                    // plies without a capture or a check); arena only asks
                    // while its rules let the game go on, so no move is
                    // played and the engine loses.
                    Some("nobestmove") => {
                        return Err(Failure {
                            outcome: Outcome::IllegalMove,
                            detail: format!(
                                "the engine answered nobestmove with {} legal moves left \
                                 (a position it judges over by its own rules; arena's rules play on)",
                                state.legal_moves().len()
                            ),
                        })
                    }
                    _ => return Ok(Step::Continue(Vec::new())),
                }
                let Some(text) = words.next() else {
                    return Err(bad("`bestmove` without a move".into()));
                };
                let Some(m) = self.parse_move(text) else {
                    return Err(Failure {
                        outcome: Outcome::IllegalMove,
                        detail: format!(
                            "bestmove `{}` is not a {} move",
                            text.chars().take(20).collect::<String>(),
                            self.dialect.as_str()
                        ),
                    });
                };
                Ok(Step::Done(Some(m)))
            }
        }
    }

    fn end(&mut self, _state: &Xiangqi, _seat: Seat) -> Vec<String> {
        vec!["quit".to_string()]
    }

    fn strict(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::{FenLetters, Search};
    use games::Game;

    fn lines(p: &mut Uci, state: &Xiangqi, phase: Phase, ms: u64) -> Vec<String> {
        p.request(phase, state, 0, Duration::from_millis(ms))
    }

    fn settings(options: &[(&str, &str)]) -> EngineSettings {
        EngineSettings {
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..EngineSettings::default()
        }
    }

    fn step(p: &mut Uci, g: &Xiangqi, l: &str) -> Result<Step<Move>, Failure> {
        Protocol::<Xiangqi>::answer(p, Phase::Init, g, 0, l)
    }

    #[test]
    fn uci_handshake_position_and_rank_conversion() {
        let mut g = Xiangqi::new();
        let mut p = Uci::new(ProtocolKind::Uci, &settings(&[("Skill Level", "0")]));
        assert_eq!(lines(&mut p, &g, Phase::Init, 1000), ["uci"]);
        assert!(matches!(step(&mut p, &g, "id name X"), Ok(Step::Continue(v)) if v.is_empty()));
        for l in [
            "option name UCI_Variant type combo default chess var chess var xiangqi",
            "option name Skill Level type spin default 20 min -20 max 20",
        ] {
            step(&mut p, &g, l).unwrap();
        }
        match step(&mut p, &g, "uciok").unwrap() {
            Step::Continue(v) => assert_eq!(
                v,
                [
                    "setoption name UCI_Variant value xiangqi",
                    "setoption name Skill Level value 0",
                    "isready"
                ]
            ),
            other => panic!("{other:?}"),
        }
        assert!(matches!(step(&mut p, &g, "readyok"), Ok(Step::Done(None))));
        // From the standard start: `startpos`, as cutechess and fastchess send it.
        assert_eq!(
            lines(&mut p, &g, Phase::Act, 100),
            ["position startpos", "go movetime 80"]
        );
        g.play_iccs(&["h2e2", "h9g7"]).unwrap();
        assert_eq!(
            lines(&mut p, &g, Phase::Act, 100),
            ["position startpos moves h3e3 h10g8", "go movetime 80"]
        );
        let a = Protocol::<Xiangqi>::answer(&mut p, Phase::Act, &g, 0, "info depth 3").unwrap();
        assert!(matches!(a, Step::Continue(_)));
        match Protocol::<Xiangqi>::answer(&mut p, Phase::Act, &g, 0, "bestmove b1c3 ponder x")
            .unwrap()
        {
            Step::Done(Some(m)) => assert_eq!(g.action_name(m), "b0c2"),
            other => panic!("{other:?}"),
        }
        let e =
            Protocol::<Xiangqi>::answer(&mut p, Phase::Act, &g, 0, "bestmove z9z9").unwrap_err();
        assert_eq!(e.outcome, Outcome::IllegalMove);
    }

    #[test]
    fn other_starts_are_sent_as_fen_with_the_engines_letters() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        let g = Xiangqi::from_fen(fen).unwrap();
        let sjaak = EngineSettings {
            fen_letters: FenLetters::parse("kaehrcp").unwrap(),
            ..EngineSettings::default()
        };
        let mut p = Uci::new(ProtocolKind::Uci, &sjaak);
        lines(&mut p, &g, Phase::Init, 1000);
        assert_eq!(
            lines(&mut p, &g, Phase::Act, 100)[0],
            "position fen rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b - - 1 1"
        );
        let mut p = Uci::new(ProtocolKind::Uci, &EngineSettings::default());
        lines(&mut p, &g, Phase::Init, 1000);
        assert_eq!(
            lines(&mut p, &g, Phase::Act, 100)[0],
            format!("position fen {fen}")
        );
        assert!(FenLetters::parse("KABNRC").is_err());
        assert!(FenLetters::parse("KABNRCA").unwrap_err().contains("twice"));
    }

    #[test]
    fn ucci_uses_iccs_numbering_and_the_engines_option_names() {
        let mut g = Xiangqi::new();
        let mut p = Uci::new(
            ProtocolKind::Ucci,
            &settings(&[("Skill Level", "3"), ("usemillisec", "TRUE")]),
        );
        assert_eq!(lines(&mut p, &g, Phase::Init, 1000), ["ucci"]);
        for l in [
            "option usemillisec type check default true",
            "option Skill_Level type spin default 20 min -20 max 20",
        ] {
            step(&mut p, &g, l).unwrap();
        }
        match step(&mut p, &g, "ucciok").unwrap() {
            Step::Continue(v) => assert_eq!(
                v,
                [
                    "setoption Skill_Level 3",
                    "setoption usemillisec true",
                    "isready"
                ]
            ),
            other => panic!("{other:?}"),
        }
        g.play_iccs(&["h2e2"]).unwrap();
        let l = lines(&mut p, &g, Phase::Act, 1000);
        assert_eq!(
            l,
            ["position startpos moves h2e2", "go time 800 movestogo 1"]
        );
    }

    #[test]
    fn nobestmove_with_legal_moves_left_is_an_illegal_move_that_says_so() {
        // ElephantEye answers `nobestmove` for a position it judges dead by
        // its own rules (here: neither side has a piece that can attack),
        // where arena's rules play on.
        let g = Xiangqi::from_fen("3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1").unwrap();
        let mut p = Uci::new(ProtocolKind::Ucci, &EngineSettings::default());
        lines(&mut p, &g, Phase::Init, 1000);
        let e = Protocol::<Xiangqi>::answer(&mut p, Phase::Act, &g, 0, "nobestmove").unwrap_err();
        assert_eq!(e.outcome, Outcome::IllegalMove);
        let n = g.legal_moves().len();
        assert!(n > 0);
        assert!(
            e.detail
                .contains(&format!("nobestmove with {n} legal moves left"))
                && e.detail.contains("arena's rules play on"),
            "{}",
            e.detail
        );
    }

    #[test]
    fn options_the_engine_does_not_offer_stop_the_game_naming_the_valid_ones() {
        let g = Xiangqi::new();
        let check = |opts: &[(&str, &str)], want: &str| {
            let mut p = Uci::new(ProtocolKind::Uci, &settings(opts));
            lines(&mut p, &g, Phase::Init, 1000);
            for l in [
                "option name Hash type spin default 48 min 1 max 4096",
                "option name Ponder type check default true",
                "option name Style type combo default a var a var b",
            ] {
                step(&mut p, &g, l).unwrap();
            }
            let e = step(&mut p, &g, "uciok").unwrap_err();
            assert_eq!(e.outcome, Outcome::SpawnFailed);
            assert!(e.detail.contains(want), "{}", e.detail);
        };
        check(
            &[("Skil Level", "3")],
            "options.Skil Level: the engine has no such option; it offers Hash, Ponder, Style",
        );
        check(&[("Hash", "9000")], "outside the engine's range 1..4096");
        check(&[("hash", "x")], "expected a whole number");
        check(&[("Ponder", "1")], "expected true or false");
        check(&[("Style", "c")], "expected one of a, b");
    }

    #[test]
    fn the_engines_lists_in_an_error_are_bounded() {
        // Found by the uci_answer fuzz target: an engine that advertises
        // hundreds of options (or UCI_Variant values) made a detail of
        // 4.7 KB; lists are cut at 24 names of at most 40 characters.
        let g = Xiangqi::new();
        let long = "x".repeat(300);
        let vars: String = (0..400).map(|i| format!(" var v{i}{long}")).collect();
        for (opts, extra) in [
            (vec![("Nope", "1")], String::new()),
            (
                vec![],
                format!("option name UCI_Variant type combo default v0{vars}"),
            ),
        ] {
            let mut p = Uci::new(ProtocolKind::Uci, &settings(&opts));
            lines(&mut p, &g, Phase::Init, 1000);
            for i in 0..400 {
                step(
                    &mut p,
                    &g,
                    &format!("option name O{i}{long} type check default true"),
                )
                .unwrap();
            }
            if !extra.is_empty() {
                step(&mut p, &g, &extra).unwrap();
            }
            let e = step(&mut p, &g, "uciok").unwrap_err();
            assert!(e.detail.len() < 2048, "{} bytes", e.detail.len());
            assert!(e.detail.contains("more"), "{}", e.detail);
        }
    }

    #[test]
    fn option_lines_parse_in_both_dialects() {
        let o =
            parse_option("option name Skill Level type spin default 20 min -20 max 20").unwrap();
        assert_eq!(
            (o.name.as_str(), o.kind.as_str(), o.min, o.max),
            ("Skill Level", "spin", Some(-20), Some(20))
        );
        let o = parse_option(
            "option idle type combo var none var small var medium var large default none",
        )
        .unwrap();
        assert_eq!(o.name, "idle");
        assert_eq!(o.vars, ["none", "small", "medium", "large"]);
        let o = parse_option("option Debug_Log_File type string default ").unwrap();
        assert_eq!(
            (o.name.as_str(), o.kind.as_str()),
            ("Debug_Log_File", "string")
        );
        assert!(parse_option("id name X").is_none());
    }

    #[test]
    fn a_fixed_search_replaces_the_time_in_both_dialects() {
        let g = Xiangqi::new();
        for (dialect, search, go) in [
            (ProtocolKind::Uci, Search::Nodes(20000), "go nodes 20000"),
            (ProtocolKind::Ucci, Search::Depth(8), "go depth 8"),
        ] {
            let s = EngineSettings {
                search: Some(search),
                ..EngineSettings::default()
            };
            let mut p = Uci::new(dialect, &s);
            lines(&mut p, &g, Phase::Init, 1000);
            // The budget does not change it.
            for ms in [10, 1000] {
                assert_eq!(lines(&mut p, &g, Phase::Act, ms)[1], go, "{dialect:?}");
            }
        }
        assert_eq!(
            Search::from_key("depth", 0),
            Err("depth = 0: expected 1 or more".into())
        );
        assert!(Search::from_key("movetime", 5).is_err());
    }

    #[test]
    fn movetime_keeps_a_margin() {
        assert_eq!(movetime(Duration::from_millis(40), 200), 30);
        assert_eq!(movetime(Duration::from_millis(1000), 200), 800);
        assert_eq!(movetime(Duration::from_millis(1000), 300), 700);
        assert_eq!(movetime(Duration::from_millis(5), 200), 1);
    }
}
