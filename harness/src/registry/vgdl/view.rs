//! The JSON of a VGDL game: [`state_json`] (the view external agents and
//! the viewer get; docs/protocol.md) and [`trace_json`] (the reference
//! traces' record, field for field), and each sprite type's colour.

use super::VgdlPlay;
use games::vgdl::{parse, Rules, TraceAvatar, TracePlayer, VgdlGame};
use serde_json::{json, Map, Value};

/// A number as the reference traces write it: whole values without a
/// decimal point.
fn num(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

/// An avatar's JSON (`null` when there is none); with `cells`, its
/// `cell` `[row, column]` for cell size `block`.
fn avatar_json(a: Option<&TraceAvatar>, block: i32, cells: bool) -> Value {
    let Some(a) = a else {
        return Value::Null;
    };
    let resources: Map<String, Value> = a
        .resources
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    let mut v = json!({
        "x": a.x,
        "y": a.y,
        "orientation": [num(a.orientation.0), num(a.orientation.1)],
        "resources": resources,
        "health": a.health,
    });
    if cells {
        let block = block.max(1);
        v["cell"] = json!([a.y.div_euclid(block), a.x.div_euclid(block)]);
    }
    v
}

/// A player's avatar with its leaf `type` first, as the two-player
/// reference traces write it (`null` when there is none).
fn typed_avatar(p: &TracePlayer, block: i32, cells: bool) -> Value {
    let mut v = avatar_json(p.avatar.as_ref(), block, cells);
    if let (Some(o), Some(ty)) = (v.as_object_mut(), &p.avatar_type) {
        let mut typed = Map::new();
        typed.insert("type".into(), json!(ty));
        typed.extend(std::mem::take(o));
        *o = typed;
    }
    v
}

/// The state as GVGAI's reference traces record it: `tick`, `score`,
/// `over`, `winner`, `block`, `avatar` (`x`, `y` in pixels,
/// `orientation`, `resources`, `health`; `null` when there is no live
/// avatar) and `sprites` as sorted `[type, x, y]`. With several players,
/// as the two-player traces do: `score` and `winner` are per-player
/// lists, and `avatars` (one per player, with its `type`) replaces
/// `avatar`.
pub fn trace_json(game: &VgdlGame) -> Value {
    let t = game.trace();
    let sprites: Vec<Value> = t.sprites.iter().map(|(n, x, y)| json!([n, x, y])).collect();
    if game.state.players() > 1 {
        let players = game.state.trace_players();
        return json!({
            "tick": t.tick,
            "score": players.iter().map(|p| num(p.score)).collect::<Vec<_>>(),
            "over": t.over,
            "winner": players.iter().map(|p| p.winner).collect::<Vec<_>>(),
            "block": t.block,
            "avatars": players.iter().map(|p| typed_avatar(p, t.block, false)).collect::<Vec<_>>(),
            "sprites": sprites,
        });
    }
    json!({
        "tick": t.tick,
        "score": num(t.score),
        "over": t.over,
        "winner": t.winner,
        "block": t.block,
        "avatar": avatar_json(t.avatar.as_ref(), t.block, false),
        "sprites": sprites,
    })
}

/// The view of docs/protocol.md for `seat`: `grid[row][column]` lists the
/// types of the live sprites whose top-left corner is in that cell (in
/// GVGAI's sprite order, drawn last last), `avatar` with its `type`, its
/// `cell` `[row, column]` and its pixel position, and `colors` per type.
/// With several players, `score`, `winner` and `avatar` are the seat's
/// player's, `seat` names it and `players` lists every player's `score`,
/// `winner` and `avatar`.
pub fn state_json(p: &VgdlPlay, seat: usize) -> Value {
    let t = p.game.trace();
    let st = &p.game.state;
    let rules = &st.rules;
    let block = t.block.max(1);
    let (w, h) = (
        (st.screen.0 / block).max(0) as usize,
        (st.screen.1 / block).max(0) as usize,
    );
    let rank = |name: &str| {
        rules
            .sprite_order
            .iter()
            .position(|&ty| rules.types[ty as usize].name == name)
            .unwrap_or(usize::MAX)
    };
    let mut grid: Vec<Vec<Vec<&str>>> = vec![vec![Vec::new(); w]; h];
    for (name, x, y) in &t.sprites {
        let (c, r) = (x.div_euclid(block), y.div_euclid(block));
        if r >= 0 && c >= 0 && (r as usize) < h && (c as usize) < w {
            grid[r as usize][c as usize].push(name);
        }
    }
    for row in &mut grid {
        for cell in row {
            cell.sort_by_key(|n| rank(n));
        }
    }
    let colors: Map<String, Value> = rules
        .types
        .iter()
        .zip(p.info().colors())
        .map(|(ty, c)| (ty.name.clone(), json!(c)))
        .collect();
    if st.players() > 1 {
        let players: Vec<Value> = st
            .trace_players()
            .iter()
            .map(|pl| {
                json!({
                    "score": num(pl.score),
                    "winner": pl.winner,
                    "avatar": typed_avatar(pl, t.block, true),
                })
            })
            .collect();
        let me = players.get(seat).cloned().unwrap_or(Value::Null);
        return json!({
            "game": p.info().name,
            "tick": t.tick,
            "seat": seat,
            "score": me["score"],
            "over": p.is_over_json(),
            "winner": me["winner"],
            "block": t.block,
            "width": w,
            "height": h,
            "avatar": me["avatar"],
            "players": players,
            "grid": grid,
            "colors": colors,
        });
    }
    let mut avatar = avatar_json(t.avatar.as_ref(), t.block, true);
    if let Some(i) = st.avatar.and_then(|id| st.index_of(id)) {
        if avatar.is_object() {
            avatar["type"] = json!(rules.types[st.sprites[i].ty as usize].name);
        }
    }
    json!({
        "game": p.info().name,
        "tick": t.tick,
        "score": num(t.score),
        "over": p.is_over_json(),
        "winner": t.winner,
        "block": t.block,
        "width": w,
        "height": h,
        "avatar": avatar,
        "grid": grid,
        "colors": colors,
    })
}

impl VgdlPlay {
    fn is_over_json(&self) -> bool {
        games::Game::is_over(self)
    }
}

/// GVGAI's colour names (`Types.java`) as `#rrggbb`.
fn named_color(name: &str) -> Option<&'static str> {
    Some(match name {
        "GREEN" => "#00c800",
        "BLUE" => "#0000c8",
        "RED" => "#c80000",
        "GRAY" => "#5a5a5a",
        "WHITE" => "#fafafa",
        "BROWN" => "#8c7864",
        "BLACK" => "#000000",
        "ORANGE" => "#faa000",
        "YELLOW" => "#fafa00",
        "PINK" => "#fac8c8",
        "GOLD" => "#fad400",
        "LIGHTRED" => "#fa3232",
        "LIGHTORANGE" => "#fac864",
        "LIGHTBLUE" => "#3264fa",
        "LIGHTGREEN" => "#32fa32",
        "LIGHTGRAY" => "#969696",
        "DARKGRAY" => "#1e1e1e",
        "DARKBLUE" => "#141464",
        _ => return None,
    })
}

/// A stable colour for a type without one: FNV-1a of its name as a hue.
fn hashed_color(name: &str) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h = (h ^ b as u32).wrapping_mul(0x0100_0193);
    }
    let hue = (h % 360) as f64;
    let (s, l) = (0.45, 0.62);
    let c = (1.0 - (2.0 * l - 1.0f64).abs()) * s;
    let x = c * (1.0 - ((hue / 60.0) % 2.0 - 1.0).abs());
    let (r, g, b) = match (hue / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    format!("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b))
}

/// Per type id of `rules`: the `color` its SpriteSet line (or the nearest
/// ancestor's) gives, else a stable hash of its name; `wall` and `avatar`
/// default to GVGAI's dark gray and white.
pub fn type_colors(text: &str, rules: &Rules) -> Vec<String> {
    let mut given: Vec<(String, String)> = Vec::new();
    fn walk(nodes: &[parse::SpriteNode], inherited: Option<&str>, out: &mut Vec<(String, String)>) {
        for n in nodes {
            let own = parse::param(&n.params, "color").map(|p| p.value.as_str());
            let c = own.or(inherited);
            if let Some(c) = c {
                out.push((n.name.clone(), c.to_string()));
            }
            walk(&n.children, c, out);
        }
    }
    if let Ok(d) = parse::parse(text) {
        walk(&d.sprites, None, &mut given);
    }
    rules
        .types
        .iter()
        .map(|ty| {
            let named = given
                .iter()
                .rev()
                .find(|(n, _)| *n == ty.name)
                .and_then(|(_, c)| named_color(c));
            match (named, ty.name.as_str()) {
                (Some(c), _) => c.to_string(),
                (None, "wall") => "#1e1e1e".to_string(),
                (None, "avatar") => "#fafafa".to_string(),
                (None, n) => hashed_color(n),
            }
        })
        .collect()
}
