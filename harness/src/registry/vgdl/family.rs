//! The family's registry entry ([`FAMILY`], answering for every
//! `gvgai:NAME`, `gvgai2p:NAME` and `vgdl:PATH`), one [`Info`] per game
//! (its compiled rules, sprite colours and levels), loaded once per name
//! and kept.

use super::VgdlPlay;
use crate::config::RunConfig;
use crate::error::HarnessError;
use crate::external::ProtocolKind;
use crate::play::runner::{EpisodeRecord, RunnerEvent};
use crate::play::schedule::Episode;
use crate::registry::arena_game::{all_agents, build_agent, ArenaGame, GameCommand, LevelInfo};
use crate::registry::args::{BenchArgs, GenerateArgs, PerftArgs, SolveArgs, TraceArgs, VerifyArgs};
use crate::registry::GameEntry;
use agents::AgentInfo;
use games::grid::ParseError;
use games::vgdl::{Vgdl, VgdlError, VgdlGame};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

include!(concat!(env!("OUT_DIR"), "/gvgai_games.rs"));

/// One of GVGAI's two sets of shipped grid games: the single-player games
/// (`gvgai:NAME`) or the two-player games (`gvgai2p:NAME`; ten names, e.g.
/// `aliens`, are in both sets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Set {
    /// GVGAI's 110 single-player grid games (`gridphysics/`).
    One,
    /// GVGAI's 60 two-player games (`2player/`).
    Two,
}

impl Set {
    /// Both sets, in `arena list`'s order.
    pub const ALL: [Set; 2] = [Set::One, Set::Two];

    /// The names' prefix, `gvgai:` or `gvgai2p:`.
    pub fn prefix(self) -> &'static str {
        match self {
            Set::One => "gvgai:",
            Set::Two => "gvgai2p:",
        }
    }

    /// Every game of the set at once: `gvgai:*` or `gvgai2p:*`.
    pub fn every_name(self) -> &'static str {
        match self {
            Set::One => "gvgai:*",
            Set::Two => "gvgai2p:*",
        }
    }

    /// The shipped games: (name, game text, level texts 0-4).
    fn games(self) -> &'static [(&'static str, &'static str, [&'static str; 5])] {
        match self {
            Set::One => SHIPPED,
            Set::Two => SHIPPED_2P,
        }
    }

    /// The folder of `games/data/gvgai/` the set is in.
    fn folder(self) -> &'static str {
        match self {
            Set::One => "gridphysics",
            Set::Two => "2player",
        }
    }

    /// The set whose prefix `name` starts with.
    fn of(name: &str) -> Option<Set> {
        Set::ALL.into_iter().find(|s| name.starts_with(s.prefix()))
    }

    /// The set whose every-game name `name` is.
    pub fn every_of(name: &str) -> Option<Set> {
        Set::ALL.into_iter().find(|s| name == s.every_name())
    }
}

/// The two-player games that load but are not trace-identical to GVGAI,
/// and why (docs/vgdl.md, "Two-player games"; `cargo test -p games --test
/// vgdl_traces_2p` replays the others' records).
const NOT_IDENTICAL_2P: &[(&str, &str)] = &[(
    "pacoban",
    "GVGAI itself is not reproducible from the seed (its RandomPathAltChasers pick one of two \
     target types with an unseeded new Random())",
)];

/// Where a game's numbered levels come from.
#[derive(Debug)]
enum Levels {
    /// GVGAI's five shipped levels.
    Shipped(&'static [&'static str; 5]),
    /// `STEM_lvlN.txt` in the game file's folder.
    Beside { dir: PathBuf, stem: String },
}

/// One VGDL game: its name, compiled rules, colours and levels.
#[derive(Debug)]
pub struct Info {
    /// `gvgai:NAME`, `gvgai2p:NAME` or `vgdl:PATH`.
    pub name: &'static str,
    vgdl: Vgdl,
    /// Per sprite type id: its colour as `#rrggbb`.
    colors: Vec<String>,
    levels: Levels,
}

/// `PATH:line:column: what` (the position left out where unknown).
fn located(path: &str, e: &ParseError) -> String {
    match (e.line, e.column) {
        (0, _) => format!("{path}: {}", e.message),
        (l, 0) => format!("{path}:{l}: {}", e.message),
        (l, c) => format!("{path}:{l}:{c}: {}", e.message),
    }
}

impl Info {
    fn new(
        name: &'static str,
        path: &str,
        text: &str,
        levels: Levels,
    ) -> Result<Info, HarnessError> {
        let vgdl = Vgdl::parse(text).map_err(|e| {
            HarnessError::Config(match e {
                VgdlError::Parse(p) => located(path, &p),
                other => format!("{path}: {other}"),
            })
        })?;
        let colors = super::view::type_colors(text, vgdl.rules());
        Ok(Info {
            name,
            vgdl,
            colors,
            levels,
        })
    }

    /// The compiled game.
    pub fn vgdl(&self) -> &Vgdl {
        &self.vgdl
    }

    /// Per sprite type id, its colour (`#rrggbb`): the type's `color`
    /// parameter (GVGAI's colour names) or a stable hash of its name.
    pub fn colors(&self) -> &[String] {
        &self.colors
    }

    /// The numbered levels: (name, level text or the file it is in).
    fn numbered(&self) -> Vec<(String, Result<&'static str, PathBuf>)> {
        match &self.levels {
            Levels::Shipped(texts) => texts
                .iter()
                .enumerate()
                .map(|(i, t)| (i.to_string(), Ok(*t)))
                .collect(),
            Levels::Beside { dir, stem } => (0..5)
                .map(|i| (i.to_string(), Err(dir.join(format!("{stem}_lvl{i}.txt")))))
                .filter(|(_, p)| p.as_ref().is_err_and(|p| p.is_file()))
                .collect(),
        }
    }

    /// The built-in levels, for `arena list`.
    pub fn level_infos(&self) -> Vec<LevelInfo> {
        self.numbered()
            .into_iter()
            .map(|(name, src)| LevelInfo {
                description: match src {
                    Ok(t) => {
                        let lines: Vec<&str> = t.lines().collect();
                        let w = lines.first().map_or(0, |l| l.chars().count());
                        format!("GVGAI's level {name}, {w}x{}", lines.len())
                    }
                    Err(p) => p.display().to_string(),
                },
                name,
            })
            .collect()
    }

    /// Level `spec` (a number of [`Info::level_infos`] or a level file)
    /// with GVGAI's game seed `seed`.
    pub fn level(&self, spec: &str, seed: u64) -> Result<VgdlGame, HarnessError> {
        let numbered = self.numbered().into_iter().find(|(n, _)| n == spec);
        let (path, text) = match numbered {
            Some((_, Ok(text))) => (format!("{} level {spec}", self.name), text.to_string()),
            Some((_, Err(p))) => (p.display().to_string(), crate::error::read_text(&p)?),
            None if Path::new(spec).is_file() => {
                (spec.to_string(), crate::error::read_text(Path::new(spec))?)
            }
            None => {
                let names: Vec<String> = self.numbered().into_iter().map(|l| l.0).collect();
                return Err(HarnessError::BadLevel(format!(
                    "{} level `{spec}` is neither a built-in level ({}) nor a readable file",
                    self.name,
                    if names.is_empty() {
                        "none".into()
                    } else {
                        names.join(", ")
                    }
                )));
            }
        };
        self.vgdl
            .level(&text, seed as i64)
            .map_err(|e| HarnessError::BadLevel(located(&path, &e)))
    }
}

/// Loads game `name` (not cached).
fn load(name: &str) -> Result<Info, HarnessError> {
    if let Some(set) = Set::of(name) {
        let prefix = set.prefix();
        let game = &name[prefix.len()..];
        let Some((n, text, levels)) = set.games().iter().find(|g| g.0 == game) else {
            return Err(HarnessError::Config(format!(
                "unknown game `{name}`: GVGAI ships no game `{game}` (`arena list` shows the {} \
                 {prefix}NAME games)",
                set.games().len()
            )));
        };
        let path = format!("games/data/gvgai/{}/{n}.txt", set.folder());
        let name: &'static str = Box::leak(format!("{prefix}{n}").into_boxed_str());
        return Info::new(name, &path, text, Levels::Shipped(levels));
    }
    let Some(path) = name.strip_prefix("vgdl:") else {
        return Err(HarnessError::Config(format!(
            "`{name}` is not a VGDL game name"
        )));
    };
    let text = crate::error::read_text(Path::new(path))?;
    let p = Path::new(path);
    let levels = Levels::Beside {
        dir: p.parent().map(Path::to_path_buf).unwrap_or_default(),
        stem: p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let name: &'static str = Box::leak(name.to_string().into_boxed_str());
    Info::new(name, path, &text, levels)
}

/// The game called `name`, loaded once and kept for the process (its
/// file is read once: a run plays the rules it started with).
pub fn info(name: &str) -> Result<Arc<Info>, HarnessError> {
    static CACHE: Mutex<Option<HashMap<String, Arc<Info>>>> = Mutex::new(None);
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    let map = cache.get_or_insert_with(HashMap::new);
    if let Some(i) = map.get(name) {
        return Ok(Arc::clone(i));
    }
    let i = Arc::new(load(name)?);
    map.insert(name.to_string(), Arc::clone(&i));
    Ok(i)
}

/// The one line `arena list` shows for shipped game `name` of `set`:
/// whether it loads (every single-player game that loads replays all its
/// public reference records exactly: `cargo test -p games --test
/// vgdl_traces`; every two-player game that loads does too, `--test
/// vgdl_traces_2p`, but those of [`NOT_IDENTICAL_2P`]) or what the engine
/// lacks.
fn status(set: Set, name: &str, text: &str) -> String {
    if let Err(e) = Vgdl::parse(text) {
        return format!("does not load: {e}");
    }
    match set {
        Set::One => {
            "levels 0-4; trace-identical to GVGAI on all its public reference records (tested)"
                .into()
        }
        Set::Two => match NOT_IDENTICAL_2P.iter().find(|(n, _)| *n == name) {
            Some((_, why)) => format!("2 players; levels 0-4; not trace-identical: {why}"),
            None => "2 players; levels 0-4; trace-identical to GVGAI's two-player loop on all its \
                     reference records (tested)"
                .into(),
        },
    }
}

/// `arena bench gvgai:NAME`: the forward model's speed on each numbered
/// level, from GVGAI's game seed 1.
fn bench(args: &BenchArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let game = info(&args.game)?;
    let levels = game
        .level_infos()
        .into_iter()
        .map(|l| game.level(&l.name, 1).map(|g| (l.name, g)))
        .collect::<Result<Vec<_>, _>>()?;
    super::bench::bench(game.name, &levels, args.seconds, out)
}

/// The family's registry entry (its members are `VgdlEntry`s made by
/// [`GameEntry::instance`]).
pub static FAMILY: VgdlEntry = VgdlEntry {
    info: None,
    every: None,
};

/// `gvgai:*` and `gvgai2p:*`, every shipped game of a set at once: its
/// levels are `NAME:N` (level `N` of `gvgai:NAME`, or `gvgai2p:NAME`), and
/// a config's level `N` stands for level `N` of every game. A benchmark
/// over all games is one run of it.
static EVERY: [VgdlEntry; 2] = [
    VgdlEntry {
        info: None,
        every: Some(Set::One),
    },
    VgdlEntry {
        info: None,
        every: Some(Set::Two),
    },
];

/// The game and level a level of `gvgai:*` (`gvgai2p:*` for [`Set::Two`])
/// names: `NAME:N` is level `N` of `gvgai:NAME`.
pub fn split_every(set: Set, spec: &str) -> Result<(Arc<Info>, &str), HarnessError> {
    let Some((game, level)) = spec.split_once(':') else {
        return Err(HarnessError::BadLevel(format!(
            "{} level `{spec}`: name a game's level as NAME:N (e.g. aliens:0), \
             or give N for level N of every game",
            set.every_name()
        )));
    };
    Ok((info(&format!("{}{game}", set.prefix()))?, level))
}

/// A VGDL game in the registry: the family (`info` is `None`), one member,
/// or every shipped game of a set (`every`).
pub struct VgdlEntry {
    info: Option<Arc<Info>>,
    every: Option<Set>,
}

impl VgdlEntry {
    fn member(&self) -> Result<&Info, HarnessError> {
        self.info.as_deref().ok_or_else(|| {
            HarnessError::Config(format!(
                "`{}` is a family of games: name one, e.g. gvgai:aliens",
                self.name_of()
            ))
        })
    }
    fn name_of(&self) -> &'static str {
        match (&self.info, self.every) {
            (Some(i), _) => i.name,
            (None, Some(set)) => set.every_name(),
            (None, None) => VgdlPlay::NAME,
        }
    }
    /// Level `spec` of this member (of the game it names, for `gvgai:*`).
    fn level(&self, spec: &str, seed: u64) -> Result<VgdlGame, HarnessError> {
        if let Some(set) = self.every {
            let (game, level) = split_every(set, spec)?;
            return game.level(level, seed);
        }
        self.member()?.level(spec, seed)
    }
}

use crate::registry::arena_game::GameView;

impl GameEntry for VgdlEntry {
    fn name(&self) -> &'static str {
        self.name_of()
    }
    fn description(&self) -> &'static str {
        VgdlPlay::DESCRIPTION
    }
    fn instance(&self, name: &str) -> Option<Result<&'static dyn GameEntry, HarnessError>> {
        if Set::of(name).is_none() && !name.starts_with("vgdl:") {
            return None;
        }
        if let Some(set) = Set::every_of(name) {
            return Some(Ok(&EVERY[set as usize]));
        }
        Some(info(name).map(|i| {
            static ENTRIES: Mutex<Vec<&'static VgdlEntry>> = Mutex::new(Vec::new());
            let mut entries = ENTRIES.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = entries.iter().find(|e| e.name_of() == i.name) {
                return *e as &'static dyn GameEntry;
            }
            let e: &'static VgdlEntry = Box::leak(Box::new(VgdlEntry {
                info: Some(i),
                every: None,
            }));
            entries.push(e);
            e as &'static dyn GameEntry
        }))
    }
    fn members(&self) -> Vec<(String, String)> {
        if self.info.is_some() || self.every.is_some() {
            return Vec::new();
        }
        Set::ALL
            .into_iter()
            .flat_map(|set| {
                set.games()
                    .iter()
                    .map(move |(n, text, _)| (format!("{}{n}", set.prefix()), status(set, n, text)))
            })
            .collect()
    }
    fn action_syntax(&self) -> &'static str {
        VgdlPlay::ACTION_SYNTAX
    }
    fn levels(&self) -> Vec<LevelInfo> {
        self.info
            .as_ref()
            .map_or_else(Vec::new, |i| i.level_infos())
    }
    fn default_levels(&self) -> Vec<String> {
        if self.every.is_some() {
            return self.expand_level("0");
        }
        self.levels().into_iter().map(|l| l.name).collect()
    }
    fn expand_level(&self, spec: &str) -> Vec<String> {
        if let Some(set) = self.every.filter(|_| !spec.contains(':')) {
            return set
                .games()
                .iter()
                .map(|(n, ..)| format!("{n}:{spec}"))
                .collect();
        }
        vec![spec.to_string()]
    }
    fn agents(&self) -> Vec<AgentInfo> {
        all_agents::<VgdlPlay>()
    }
    fn protocols(&self) -> &'static [ProtocolKind] {
        VgdlPlay::PROTOCOLS
    }
    fn players(&self, spec: &str, seed: u64) -> Result<usize, HarnessError> {
        self.level(spec, seed).map(|g| games::Game::num_players(&g))
    }
    fn check_level(&self, spec: &str, seed: u64) -> Result<(), HarnessError> {
        self.level(spec, seed).map(drop)
    }
    fn check_agent(&self, name: &str, params: &agents::AgentParams) -> Result<(), String> {
        build_agent::<VgdlPlay>(name, params, 0)
            .map(drop)
            .map_err(|e| e.to_string())
    }
    fn play(
        &self,
        cfg: &RunConfig,
        episodes: &[Episode],
        done: &[EpisodeRecord],
        stop: &(dyn Fn() -> bool + Sync),
        on_event: &mut dyn FnMut(RunnerEvent),
    ) -> Result<(), HarnessError> {
        if self.every.is_none() {
            self.member()?;
        }
        crate::play::runner::run_tournament::<VgdlPlay>(cfg, episodes, done, stop, on_event)
    }
    fn probe(&self, cfg: &RunConfig, agent: usize) -> Result<(), String> {
        crate::play::runner::probe::<VgdlPlay>(cfg, agent)
            .map_err(|f| format!("{}: {}", f.outcome, f.detail))
    }
    fn trace(&self, args: &TraceArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
        self.member()?;
        crate::registry::trace::<VgdlPlay>(args, out)
    }
    fn solve(&self) -> Option<GameCommand<SolveArgs>> {
        None
    }
    fn generate(&self) -> Option<GameCommand<GenerateArgs>> {
        None
    }
    fn verify(&self) -> Option<GameCommand<VerifyArgs>> {
        None
    }
    fn perft(&self) -> Option<GameCommand<PerftArgs>> {
        None
    }
    fn bench(&self) -> Option<GameCommand<BenchArgs>> {
        Some(bench)
    }
    fn replay(
        &self,
        level: &str,
        seed: u64,
        max_steps: Option<u32>,
        moves: &[String],
    ) -> Result<crate::registry::Replayed, HarnessError> {
        if let Some(set) = self.every {
            let (game, level) = split_every(set, level)?;
            return crate::registry::resim::replay::<VgdlPlay>(
                game.name, level, seed, max_steps, moves,
            );
        }
        let name = self.member()?.name;
        crate::registry::resim::replay::<VgdlPlay>(name, level, seed, max_steps, moves)
    }
}
