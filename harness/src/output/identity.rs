//! What a run's agents are: one digest per agent, kept in `meta.json`, that
//! changes when the agent may play differently. A rerun of a config whose
//! agent changed is refused ([`crate::output::resume`]), and shards of other agents
//! are not merged ([`crate::output::merge`]).
//!
//! - A built-in agent is its name, its parameters and arena's version.
//! - An external agent is the content of the files it runs:
//!   - every word of its command that names a regular file, relative to its
//!     working folder or absolute (the program too, unless it is looked up
//!     on `PATH`: `python3` or `java` are named by the config, not hashed);
//!   - the sources in its working folder: files whose extension is one of
//!     [`SOURCE_EXTENSIONS`], found by walking the folder in name order,
//!     skipping hidden entries (`.git`, `.venv`), the folders named in
//!     [`IGNORED_DIRS`], folders that hold a `meta.json` (a results folder)
//!     and links to folders; at most [`MAX_SOURCES`] files, after looking at
//!     at most [`MAX_ENTRIES`] folder entries.
//!
//! A file is hashed by its content (FNV-1a 64): whole up to [`WHOLE_FILE`]
//! bytes, a longer one by its length and its first and last [`EDGE`] bytes.
//! Names are relative to the working folder (a command word outside it
//! keeps the path it was given), so a copy with the same contents has the
//! same digest, whatever its files' times.

use crate::config::{AgentKind, RunConfig};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Extensions (lower case) of the files of a working folder that count as
/// an agent's sources.
pub const SOURCE_EXTENSIONS: &[&str] = &[
    "py", "pyx", "rs", "c", "h", "cc", "cpp", "cxx", "hh", "hpp", "hxx", "java", "class", "jar",
    "kt", "scala", "go", "js", "mjs", "cjs", "ts", "jl", "lua", "rb", "pl", "pm", "php", "sh",
    "hs", "ml", "cs", "fs", "swift", "zig", "nim", "d", "r", "m", "f90", "wasm",
];

/// Folders of a working folder that are not walked (build output, caches,
/// results), besides every hidden one.
pub const IGNORED_DIRS: &[&str] = &[
    "target",
    "build",
    "dist",
    "__pycache__",
    "node_modules",
    "venv",
    "results",
    "logs",
];

/// Most source files hashed per working folder (the first in walk order).
pub const MAX_SOURCES: usize = 1000;

/// Most folder entries looked at per working folder.
pub const MAX_ENTRIES: usize = 20_000;

/// Files up to this size (bytes) are hashed whole.
pub const WHOLE_FILE: u64 = 16 << 20;

/// Of a longer file, this many bytes at each end are hashed (with its length).
pub const EDGE: u64 = 1 << 20;

/// What one agent of a run is (an entry of `meta.json`'s `agents`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentIdentity {
    /// The agent's label.
    pub label: String,
    /// FNV-1a 64 (hex) of everything below.
    pub digest: String,
    /// A built-in agent: the arena version that plays it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arena_version: Option<String>,
    /// An external agent: each file hashed (its name, see the module
    /// documentation) with the hash of its content.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub files: BTreeMap<String, String>,
}

/// The file that marks a run's results folder (`meta.json`, as
/// `crate::output::meta::FILE`): such folders are not an agent's sources.
const RESULTS_FILE: &str = "meta.json";

/// The identities of `cfg`'s agents, in config order.
pub fn of(cfg: &RunConfig) -> Vec<AgentIdentity> {
    cfg.agents
        .iter()
        .map(|a| match &a.kind {
            AgentKind::BuiltIn { name, params } => {
                let version = env!("CARGO_PKG_VERSION").to_string();
                AgentIdentity {
                    label: a.label.clone(),
                    digest: crate::digest::hash(&format!(
                        "built-in\0{name}\0{params:?}\0{version}"
                    )),
                    arena_version: Some(version),
                    files: BTreeMap::new(),
                }
            }
            AgentKind::External(spec) => {
                let files = files_of(&spec.command, &spec.workdir);
                let listing: String = files
                    .iter()
                    .map(|(name, h)| format!("{name}\0{h}\n"))
                    .collect();
                AgentIdentity {
                    label: a.label.clone(),
                    digest: crate::digest::hash(&format!("external\0{listing}")),
                    arena_version: None,
                    files,
                }
            }
        })
        .collect()
}

/// The hashed files of an external agent run as `command` in `workdir`.
pub fn files_of(command: &[String], workdir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut walk = Walk {
        root: workdir,
        entries: 0,
        found: Vec::new(),
    };
    walk.dir(workdir);
    for path in walk.found {
        files.insert(name_in(workdir, &path), file_hash(&path));
    }
    for (i, word) in command.iter().enumerate() {
        if i == 0 && !word.contains('/') {
            continue;
        }
        let path = workdir.join(word);
        if std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            let name = match path.strip_prefix(workdir) {
                Ok(rel) if !has_parent(rel) => slashed(rel),
                _ => word.clone(),
            };
            files.insert(name, file_hash(&path));
        }
    }
    files
}

/// What changed between the agents of an earlier run (`old`) and now
/// (`new`), one "`label` changed (what)" per changed agent (agents matched
/// by label; an agent only in one list is the config's business).
pub fn changes(old: &[AgentIdentity], new: &[AgentIdentity]) -> Vec<String> {
    new.iter()
        .filter_map(|n| {
            let o = old.iter().find(|o| o.label == n.label)?;
            (o.digest != n.digest).then(|| format!("`{}` changed ({})", n.label, what(o, n)))
        })
        .collect()
}

/// Which of an agent's parts differ: arena's version, or its files (at most
/// three named).
fn what(old: &AgentIdentity, new: &AgentIdentity) -> String {
    if old.arena_version != new.arena_version {
        let v = |x: &Option<String>| x.clone().unwrap_or_else(|| "an external agent".into());
        return format!(
            "arena {} -> {}",
            v(&old.arena_version),
            v(&new.arena_version)
        );
    }
    let mut names: Vec<String> = Vec::new();
    for (name, h) in &new.files {
        match old.files.get(name) {
            Some(was) if was == h => {}
            Some(_) => names.push(name.clone()),
            None => names.push(format!("{name}, new")),
        }
    }
    for name in old.files.keys() {
        if !new.files.contains_key(name) {
            names.push(format!("{name}, gone"));
        }
    }
    match names.len() {
        0 => "its parameters".into(),
        1..=3 => names.join("; "),
        n => format!("{} and {} more files", names[..3].join("; "), n - 3),
    }
}

/// The source walk of one working folder.
struct Walk<'a> {
    root: &'a Path,
    entries: usize,
    found: Vec<PathBuf>,
}

impl Walk<'_> {
    fn dir(&mut self, dir: &Path) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).collect();
        entries.sort_by_key(|e| e.file_name());
        if dir != self.root && entries.iter().any(|e| e.file_name() == RESULTS_FILE) {
            return;
        }
        for e in entries {
            self.entries += 1;
            if self.entries > MAX_ENTRIES || self.found.len() >= MAX_SOURCES {
                return;
            }
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            if name.starts_with('.') {
                continue;
            }
            let Ok(ft) = e.file_type() else { continue };
            let path = e.path();
            if ft.is_dir() {
                if !IGNORED_DIRS.contains(&name) {
                    self.dir(&path);
                }
            } else if is_source(name) && std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
                self.found.push(path);
            }
        }
    }
}

fn is_source(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && SOURCE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
    })
}

fn has_parent(p: &Path) -> bool {
    p.components()
        .any(|c| matches!(c, std::path::Component::ParentDir))
}

fn slashed(p: &Path) -> String {
    p.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn name_in(root: &Path, path: &Path) -> String {
    slashed(path.strip_prefix(root).unwrap_or(path))
}

/// FNV-1a 64 over bytes, fed in pieces.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// The hash of a file's content (see the module documentation), hex;
/// `unreadable` when it cannot be read.
pub fn file_hash(path: &Path) -> String {
    let hashed = || -> std::io::Result<String> {
        let mut f = std::fs::File::open(path)?;
        let len = f.metadata()?.len();
        let mut h = Fnv::new();
        let mut buf = vec![0u8; 64 << 10];
        let mut take = |f: &mut std::fs::File, mut left: u64, h: &mut Fnv| -> std::io::Result<()> {
            while left > 0 {
                let want = left.min(buf.len() as u64) as usize;
                let n = f.read(&mut buf[..want])?;
                if n == 0 {
                    break;
                }
                h.update(&buf[..n]);
                left -= n as u64;
            }
            Ok(())
        };
        if len <= WHOLE_FILE {
            take(&mut f, u64::MAX, &mut h)?;
        } else {
            h.update(&len.to_le_bytes());
            take(&mut f, EDGE, &mut h)?;
            f.seek(SeekFrom::Start(len - EDGE))?;
            take(&mut f, EDGE, &mut h)?;
        }
        Ok(format!("{:016x}", h.0))
    };
    hashed().unwrap_or_else(|_| "unreadable".into())
}

#[cfg(test)]
mod tests {

    #[test]
    fn results_folders_are_marked_by_the_meta_file() {
        assert_eq!(RESULTS_FILE, crate::output::meta::FILE);
    }

    use super::*;

    fn write(p: &Path, text: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn the_files_of_an_agent_follow_the_rule() {
        let d = tempfile::tempdir().unwrap();
        let w = d.path().join("agent");
        write(&w.join("main.py"), "print(1)\n");
        write(&w.join("lib/util.py"), "x = 1\n");
        write(&w.join("weights.bin"), "0101");
        write(&w.join("notes.txt"), "mine");
        write(&w.join("__pycache__/util.cpython-312.pyc"), "x");
        write(&w.join("target/release/build.rs"), "fn main() {}");
        write(&w.join(".git/hooks/pre-commit.sh"), "exit 0");
        write(&w.join("out/meta.json"), "{}");
        write(&w.join("out/gen.py"), "# a results folder's file");
        write(&d.path().join("shared.py"), "y = 2\n");
        let command: Vec<String> = [
            "python3",
            "main.py",
            "--model",
            "weights.bin",
            "../shared.py",
        ]
        .map(String::from)
        .to_vec();
        let files = files_of(&command, &w);
        let names: Vec<&str> = files.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            ["../shared.py", "lib/util.py", "main.py", "weights.bin"]
        );
        assert_eq!(files["main.py"], crate::output::meta::hash("print(1)\n"));
        // A program with a `/` is a file of the working folder; without, it is
        // looked up on PATH and not hashed.
        write(&w.join("run"), "#!/bin/sh\n");
        assert!(files_of(&["./run".to_string()], &w).contains_key("run"));
        assert!(!files_of(&["run".to_string()], &w).contains_key("run"));
    }

    #[test]
    fn a_copy_with_the_same_contents_is_the_same_agent_and_an_edit_is_named() {
        let d = tempfile::tempdir().unwrap();
        let cfg = |dir: &Path| {
            write(&dir.join("a.toml"), "");
            crate::registry::parse_config(
                "game = \"bait\"\n[[agents]]\nname = \"mine\"\ncommand = [\"python3\", \"agent.py\"]\n\
                 [[agents]]\nagent = \"random\"\n",
                &dir.join("a.toml"),
            )
            .unwrap()
        };
        let (a, b) = (d.path().join("a"), d.path().join("b"));
        for dir in [&a, &b] {
            write(&dir.join("agent.py"), "import random\n");
            write(&dir.join("helper.py"), "K = 3\n");
        }
        let ia = of(&cfg(&a));
        assert_eq!(ia.len(), 2);
        assert_eq!(
            ia[1].arena_version.as_deref(),
            Some(env!("CARGO_PKG_VERSION"))
        );
        assert!(changes(&ia, &of(&cfg(&b))).is_empty());
        // Rewriting the same content changes nothing (times are not read).
        write(&a.join("agent.py"), "import random\n");
        assert!(changes(&ia, &of(&cfg(&a))).is_empty());
        write(&a.join("agent.py"), "import random  # faster\n");
        assert_eq!(changes(&ia, &of(&cfg(&a))), ["`mine` changed (agent.py)"]);
        std::fs::remove_file(a.join("helper.py")).unwrap();
        write(&a.join("extra.py"), "");
        assert_eq!(
            changes(&ia, &of(&cfg(&a))),
            ["`mine` changed (agent.py; extra.py, new; helper.py, gone)"]
        );
        // A built-in agent of another arena version.
        let mut older = ia.clone();
        older[1].arena_version = Some("0.0.1".into());
        older[1].digest = "0".into();
        assert_eq!(
            changes(&older, &ia),
            [format!(
                "`random` changed (arena 0.0.1 -> {})",
                env!("CARGO_PKG_VERSION")
            )]
        );
    }

    #[test]
    fn a_long_file_is_hashed_by_its_length_and_ends() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("big.bin");
        let mut data = vec![7u8; (WHOLE_FILE + 3 * EDGE) as usize];
        std::fs::write(&p, &data).unwrap();
        let h = file_hash(&p);
        // The middle is not read; an end and the length are.
        data[(WHOLE_FILE / 2) as usize] = 8;
        std::fs::write(&p, &data).unwrap();
        assert_eq!(file_hash(&p), h);
        *data.last_mut().unwrap() = 8;
        std::fs::write(&p, &data).unwrap();
        assert_ne!(file_hash(&p), h);
        data.push(7);
        std::fs::write(&p, &data).unwrap();
        assert_ne!(file_hash(&p), h);
        assert_eq!(file_hash(&d.path().join("none")), "unreadable");
    }
}
