//! The replay viewer: an HTML/JS page section that draws every game's
//! replays, with the replays embedded (each episode's gzip'd JSON line in
//! base64, unpacked by the browser's `DecompressionStream` when shown).
//! It is bundled into `report.html` and written alone by
//! `arena replay FILE --html OUT`.

use crate::error::HarnessError;
pub use crate::output::replay::ReplayMeta;
use crate::output::replay::{self, Replay};
use serde::Serialize;
use std::io::Read;
use std::path::Path;

/// The viewer's script.
pub const VIEWER_JS: &str = include_str!("viewer.js");
/// The style sheet of the report and the viewer.
pub const STYLE_CSS: &str = include_str!("style.css");

/// The viewer's index entry of a replay: `{episode, game, seed, level,
/// seats, steps, blob, line}`.
#[derive(Serialize)]
struct IndexEntry<'a> {
    episode: usize,
    game: &'a str,
    /// As text: JavaScript numbers lose a u64's low digits.
    seed: String,
    level: &'a str,
    seats: Vec<&'a str>,
    steps: usize,
    /// The member (in `blobs`) holding its line.
    blob: usize,
    /// Its line among the member's lines that are not blank.
    line: usize,
}

impl<'a> IndexEntry<'a> {
    fn of(meta: &'a ReplayMeta, (blob, line): (usize, usize)) -> Self {
        IndexEntry {
            blob,
            line,
            episode: meta.episode,
            game: &meta.game,
            seed: meta.seed.to_string(),
            level: &meta.level.spec,
            seats: meta.seats.iter().map(|s| s.agent.as_str()).collect(),
            steps: meta.steps,
        }
    }
}

/// Replays ready to embed: their metadata (the viewer's index is made of
/// it), where each one's line is, and the gzip members holding them, in
/// base64 (as [`replay::Index`] collects them).
#[derive(Default)]
pub struct Embedded(pub replay::Index);

impl std::ops::Deref for Embedded {
    type Target = replay::Index;
    fn deref(&self) -> &replay::Index {
        &self.0
    }
}

impl Embedded {
    /// Embed the replays of an [`replay::Index`] collected as they were
    /// written: the same as [`Embedded::of_file`] of the file they were
    /// written to, with the index's budget, without reading it back. Also
    /// the number of replays left out.
    pub fn of_index(index: replay::Index) -> (Self, usize) {
        let left_out = index.left_out;
        (Embedded(index), left_out)
    }

    /// Embed replays read in memory (`arena replay --html`), a member each.
    pub fn of_replays(replays: &[Replay]) -> Result<Self, HarnessError> {
        let mut index = replay::Index::new(usize::MAX);
        for r in replays {
            index.push_member(vec![ReplayMeta::of(r)], &replay::gzip_line(r));
        }
        Ok(Embedded(index))
    }

    /// Embed the replays of a file (gzip members are embedded as they are,
    /// whatever number of lines each holds; plain JSON lines are compressed
    /// one by one), at most `budget` compressed bytes: the replays past it
    /// are left out (and counted in the second value).
    pub fn of_file(path: &Path, budget: usize) -> Result<(Self, usize), HarnessError> {
        let bytes = std::fs::read(path).map_err(|e| HarnessError::io(path, e))?;
        let mut index = replay::Index::new(budget);
        let meta = |line: &str| {
            serde_json::from_str::<ReplayMeta>(line).map_err(|x| {
                HarnessError::ResultsFolder(format!(
                    "{}: a replay does not parse: {x}",
                    path.display()
                ))
            })
        };
        if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut rest = &bytes[..];
            let mut inflate = Inflate::new();
            while rest.len() >= 2 && rest.starts_with(&[0x1f, 0x8b]) {
                let (text, left) = match inflate.member(rest) {
                    Some(Ok((text, len))) => (text, &rest[len..]),
                    Some(Err(why)) => {
                        return Err(HarnessError::ResultsFolder(format!(
                            "{}: {why}",
                            path.display()
                        )))
                    }
                    None => {
                        let mut dec = flate2::bufread::GzDecoder::new(rest);
                        let mut text = String::new();
                        dec.read_to_string(&mut text)
                            .map_err(|x| HarnessError::io(path, x))?;
                        (text, dec.into_inner())
                    }
                };
                let member = &rest[..rest.len() - left.len()];
                let metas = text
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(meta)
                    .collect::<Result<Vec<_>, _>>()?;
                if !metas.is_empty() {
                    index.push_member(metas, member);
                }
                if left.len() == rest.len() {
                    break;
                }
                rest = left;
            }
        } else {
            let text = String::from_utf8_lossy(&bytes);
            for l in text.lines().filter(|l| !l.trim().is_empty()) {
                let r: Replay = serde_json::from_str(l)
                    .map_err(|x| HarnessError::ResultsFolder(format!("{}: {x}", path.display())))?;
                index.push_member(vec![ReplayMeta::of(&r)], &replay::gzip_line(&r));
            }
        }
        let left_out = index.left_out;
        Ok((Embedded(index), left_out))
    }

    /// The `<script>` holding the data, `{"index": [...], "blobs": [...]}`
    /// (an index entry per replay, a blob per gzip member), JSON escaped for
    /// HTML.
    /// Written piece by piece; base64 needs neither JSON nor HTML escapes.
    pub fn script(&self) -> String {
        let mut s = String::new();
        self.push_script(&mut s);
        s
    }

    /// The bytes [`Embedded::script`] takes, about (the blobs and their
    /// quotes; the index is small beside them).
    pub fn script_len(&self) -> usize {
        self.blobs.iter().map(|b| b.len() + 3).sum::<usize>() + self.metas.len() * 160 + 100
    }

    /// [`Embedded::script`], appended to `s` (the blobs are copied once,
    /// into the page).
    pub fn push_script(&self, s: &mut String) {
        let index: Vec<IndexEntry> = self
            .metas
            .iter()
            .zip(&self.places)
            .map(|(m, &p)| IndexEntry::of(m, p))
            .collect();
        // Serializing plain structs of strings and numbers cannot fail.
        let index = serde_json::to_string(&index).unwrap_or_default();
        s.reserve(self.script_len());
        s.push_str("<script id=\"arena-replays\" type=\"application/json\">{\"index\":");
        s.push_str(&script_json(&index));
        s.push_str(",\"blobs\":[");
        for (i, b) in self.blobs.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push('"');
            s.push_str(b);
            s.push('"');
        }
        s.push_str("]}</script>\n");
    }
}

/// Reads gzip members with a plain header (no name, comment or extra
/// field: what [`replay::gzip_line`] writes) with one raw inflater, reset
/// per member; a new `GzDecoder` allocates and zeroes its state each time.
struct Inflate {
    raw: flate2::Decompress,
    out: Vec<u8>,
}

impl Inflate {
    fn new() -> Self {
        Inflate {
            raw: flate2::Decompress::new(false),
            out: Vec::new(),
        }
    }

    /// The text of the member at the start of `bytes` and the member's
    /// length; `None` when its header is not the plain one (the caller
    /// reads it with a `GzDecoder`), an error when it does not decompress
    /// or its CRC or size is wrong.
    fn member(&mut self, bytes: &[u8]) -> Option<Result<(String, usize), String>> {
        // RFC 1952: magic, deflate, no flags, then 6 bytes of time, XFL, OS.
        if bytes.len() < 18 || bytes[..4] != [0x1f, 0x8b, 8, 0] {
            return None;
        }
        let body = &bytes[10..];
        self.raw.reset(false);
        self.out.clear();
        loop {
            if self.out.capacity() - self.out.len() < 4096 {
                self.out.reserve(self.out.capacity().max(16384));
            }
            let read = self.raw.total_in() as usize;
            let before = (self.raw.total_in(), self.raw.total_out());
            match self.raw.decompress_vec(
                &body[read..],
                &mut self.out,
                flate2::FlushDecompress::None,
            ) {
                Ok(flate2::Status::StreamEnd) => break,
                Ok(_) if (self.raw.total_in(), self.raw.total_out()) == before => {
                    return Some(Err("a replay's gzip member is cut short".into()))
                }
                Ok(_) => {}
                Err(e) => return Some(Err(format!("a replay does not decompress: {e}"))),
            }
        }
        let end = 10 + self.raw.total_in() as usize;
        let Some(trailer) = bytes.get(end..end + 8) else {
            return Some(Err("a replay's gzip member is cut short".into()));
        };
        let mut crc = flate2::Crc::new();
        crc.update(&self.out);
        if trailer[..4] != crc.sum().to_le_bytes()
            || trailer[4..] != (self.out.len() as u32).to_le_bytes()
        {
            return Some(Err(
                "a replay's gzip member fails its CRC or size check".into()
            ));
        }
        match String::from_utf8(self.out.clone()) {
            Ok(text) => Some(Ok((text, end + 8))),
            Err(_) => Some(Err("a replay is not UTF-8 text".into())),
        }
    }
}

/// JSON text made safe inside a `<script>` element.
pub fn script_json(s: &str) -> String {
    s.replace("</", "<\\/").replace("<!--", "<\\!--")
}

/// Text escaped for HTML.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// The viewer's HTML (section, data, script). `standalone`: shown at once
/// (the first replay unless the URL names one), rather than when a link
/// of the report selects an episode.
pub fn section(embedded: &Embedded, standalone: bool) -> String {
    let mut s = String::new();
    push_section(&mut s, embedded, standalone);
    s
}

/// [`section`], appended to `s`.
pub fn push_section(s: &mut String, embedded: &Embedded, standalone: bool) {
    s.push_str(&format!(
        "<section id=\"viewer\" class=\"viewer\"{}>\n",
        if standalone {
            " data-standalone=\"1\""
        } else {
            " hidden"
        }
    ));
    s.push_str(
        r#"<h2>Replay viewer</h2>
<div class="vhead"><button id="v-close" title="back to the report (Escape)">close</button><select id="v-episode" aria-label="episode"></select><div id="v-title"></div></div>
<div class="vbody"><canvas id="v-board" width="10" height="10"></canvas>
<div class="vside"><div id="v-tick"></div><div id="v-actions"></div><div id="v-score"></div>
<table id="v-seats"></table><div id="v-outcome"></div></div></div>
<div class="vcontrols"><button id="v-first" title="first step (the start)">|&lt;</button><button id="v-prev" title="previous step (left arrow)">&lt;</button><button id="v-play" title="play / pause (space)">play</button><button id="v-next" title="next step (right arrow)">&gt;</button><button id="v-last" title="last step (the result)">&gt;|</button>
<input type="range" id="v-scrub" min="0" max="0" value="0" aria-label="step">
<label>speed <select id="v-speed"><option value="1">1 step/s</option><option value="4" selected>4 steps/s</option><option value="10">10 steps/s</option><option value="30">30 steps/s</option></select></label></div>
<p class="note">Keys: left / right arrow step, space plays. The URL fragment <code>#episode=N&amp;tick=K</code> (K a number or <code>end</code>) selects an episode and the state after K steps.</p>
<pre id="v-state" hidden></pre>
</section>
"#,
    );
    embedded.push_script(s);
    s.push_str("<script>\n");
    s.push_str(&script_json(VIEWER_JS));
    s.push_str("</script>\n");
}

/// Write a standalone viewer page of `replays` to `path`.
pub fn write_standalone(path: &Path, replays: &[Replay]) -> Result<(), HarnessError> {
    let embedded = Embedded::of_replays(replays)?;
    let title = match replays.first() {
        Some(r) => format!("arena replay: {} ({})", r.run, r.game),
        None => "arena replay".to_string(),
    };
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\n<style>{css}</style></head>\n<body><header><h1>{t}</h1><div class=\"meta\">{n} episode(s); generated by arena {v}</div></header>\n<main>\n{viewer}</main></body></html>\n",
        t = esc(&title),
        css = STYLE_CSS,
        n = replays.len(),
        v = env!("CARGO_PKG_VERSION"),
        viewer = section(&embedded, true),
    );
    std::fs::write(path, html).map_err(|e| HarnessError::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use serde_json::json;
    use std::io::Write;

    /// A small replay of Connect Four, episode `n`.
    fn replay(n: usize) -> Replay {
        let moves: Vec<String> = ["4", "4", "3"].iter().map(|m| m.to_string()).collect();
        let sim = crate::registry::find("connect4")
            .unwrap()
            .replay("start", 1, None, &moves)
            .unwrap();
        let seat = |agent: &str| replay::SeatInfo {
            agent: agent.into(),
            player: "built-in random".into(),
            limits: replay::Limits {
                clock: "cpu".into(),
                act_ms: 40.0,
                act_hard_ms: 50.0,
                init_ms: 1000.0,
                init_hard_ms: 2000.0,
            },
            result: "none".into(),
            outcome: "normal".into(),
            detail: String::new(),
            score: 0.0,
            init_ms: 0.0,
            init_overrun: false,
            last_act_ms: None,
            leaked: 0,
        };
        Replay {
            schema: replay::SCHEMA.into(),
            run: "t".into(),
            game: "connect4".into(),
            level: replay::LevelRef {
                spec: "start".into(),
                text: None,
            },
            run_seed: 1,
            episode: n,
            repetition: 0,
            seed: 1,
            max_steps: None,
            seats: vec![seat("a"), seat("b")],
            ticks: moves
                .iter()
                .enumerate()
                .map(|(t, m)| replay::Tick {
                    actions: m.clone(),
                    act_ms: if t % 2 == 0 {
                        vec![Some(0.5), None]
                    } else {
                        vec![None, Some(0.25)]
                    },
                    overrun: vec![false, false],
                })
                .collect(),
            states: sim.states,
        }
    }

    #[test]
    fn members_with_any_header_are_embedded_as_written_and_a_bad_crc_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(replay::FILE_NAME);
        // Ours, one from flate2's encoder, one with a file name in its header.
        let ours = replay::gzip_line(&replay(0));
        let line = serde_json::to_string(&replay(1)).unwrap() + "\n";
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        enc.write_all(line.as_bytes()).unwrap();
        let theirs = enc.finish().unwrap();
        let line = serde_json::to_string(&replay(2)).unwrap() + "\n";
        let mut enc = flate2::GzBuilder::new()
            .filename("r.jsonl")
            .write(Vec::new(), flate2::Compression::fast());
        enc.write_all(line.as_bytes()).unwrap();
        let named = enc.finish().unwrap();
        // Two lines in one member, as the replay reporter writes a batch.
        let two = [replay(3), replay(4)]
            .iter()
            .map(|r| serde_json::to_string(r).unwrap() + "\n")
            .collect::<String>();
        let shared = replay::gzip_bytes(two.as_bytes());
        let all = [ours.clone(), theirs.clone(), named.clone(), shared.clone()].concat();
        std::fs::write(&path, &all).unwrap();
        let (e, left_out) = Embedded::of_file(&path, usize::MAX).unwrap();
        assert_eq!(left_out, 0);
        assert_eq!(
            e.metas.iter().map(|m| m.episode).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        assert_eq!(e.places, [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]);
        let one = replay(1);
        assert_eq!(e.metas[1].steps, one.ticks.len());
        let seat0: Vec<f64> = one.ticks.iter().filter_map(|t| t.act_ms[0]).collect();
        assert_eq!(e.metas[1].act_ms[0], seat0);
        let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
        assert_eq!(
            e.blobs,
            [b64(&ours), b64(&theirs), b64(&named), b64(&shared)]
        );
        assert_eq!(e.bytes, all.len());
        // A budget that the last member does not fit: its two replays are
        // left out.
        let (e, left_out) = Embedded::of_file(&path, all.len() - 1).unwrap();
        assert_eq!((e.metas.len(), e.blobs.len(), left_out), (3, 3, 2));

        // A flipped byte in the CRC of the first member.
        let mut bad = all.clone();
        let at = ours.len() - 8;
        bad[at] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        let err = match Embedded::of_file(&path, usize::MAX) {
            Ok(_) => panic!("a bad CRC was read"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains("CRC"), "{err}");
        // Cut short inside the deflate data.
        std::fs::write(&path, &all[..ours.len() / 2]).unwrap();
        assert!(Embedded::of_file(&path, usize::MAX).is_err());
    }

    #[test]
    fn the_script_is_the_json_of_the_index_and_the_blobs_escaped_for_html() {
        let mut r = replay(0);
        // Text that must be escaped in a `<script>`, and a seed past 2^53.
        r.seats[0].agent = "a</script><!--x".into();
        r.level.spec = "levels/</b>.txt".into();
        r.seed = u64::MAX - 1;
        let e = Embedded::of_replays(&[r.clone(), replay(0)]).unwrap();
        let index: Vec<serde_json::Value> = e
            .metas
            .iter()
            .enumerate()
            .map(|(i, m)| {
                json!({
                    "episode": m.episode,
                    "game": m.game,
                    "seed": m.seed.to_string(),
                    "level": m.level.spec,
                    "seats": m.seats.iter().map(|s| s.agent.as_str()).collect::<Vec<_>>(),
                    "steps": m.steps,
                    "blob": i,
                    "line": 0,
                })
            })
            .collect();
        let data = json!({ "index": index, "blobs": e.blobs });
        let expected = format!(
            "<script id=\"arena-replays\" type=\"application/json\">{}</script>\n",
            script_json(&data.to_string())
        );
        let got = e.script();
        assert_eq!(got, expected);
        assert!(got.contains("a<\\/script><\\!--x") && got.contains("\"18446744073709551614\""));
    }
}
