//! From the syntax tree to [`Rules`]: GVGAI's type registry (`wall` 0,
//! `avatar` 1, then declaration order), its inheritance of classes and
//! parameters, its parameter defaults and reflection rules, and the
//! resolution of every name.

use super::model::MoreEffect;
use super::model::*;
use super::multi::MAX_PLAYERS;
use super::names::{self, EFFECTS, SPRITE_CLASSES, TERMINATIONS};
use super::parse::{param, Description, Param, SpriteNode};
use super::VgdlError;
use crate::grid::ParseError;
use std::collections::HashMap;

/// Java's `String.hashCode`.
pub fn java_hash(s: &str) -> i64 {
    let mut h: i32 = 0;
    for c in s.encode_utf16() {
        h = h.wrapping_mul(31).wrapping_add(c as i32);
    }
    h as i64
}

fn perr(line: usize, column: usize, msg: impl Into<String>) -> VgdlError {
    VgdlError::Parse(ParseError::new(line, column, msg))
}

/// Typed parameter reading with GVGAI's reflection rules: a value that does
/// not fit the field's type leaves the default.
pub(crate) struct Params<'a>(pub &'a [Param]);

impl Params<'_> {
    fn raw(&self, k: &str) -> Option<&str> {
        param(self.0, k).map(|p| p.value.as_str())
    }
    fn int(&self, k: &str, d: i32) -> i32 {
        self.raw(k).and_then(java_int).unwrap_or(d)
    }
    fn double(&self, k: &str, d: f64) -> f64 {
        match self.raw(k) {
            Some(v) if names::is_types_constant(v) => d,
            Some(v) => java_int(v)
                .map(|i| i as f64)
                .or_else(|| v.parse::<f64>().ok())
                .unwrap_or(d),
            None => d,
        }
    }
    fn boolean(&self, k: &str, d: bool) -> bool {
        match self.raw(k) {
            Some(v) if v.eq_ignore_ascii_case("true") => true,
            Some(v) if v.eq_ignore_ascii_case("false") => false,
            _ => d,
        }
    }
    fn string(&self, k: &str) -> Option<String> {
        match self.raw(k) {
            Some(v)
                if java_int(v).is_some()
                    || v.parse::<f64>().is_ok()
                    || v.eq_ignore_ascii_case("true")
                    || v.eq_ignore_ascii_case("false")
                    || names::is_types_constant(v) =>
            {
                None
            }
            Some(v) => Some(v.to_string()),
            None => None,
        }
    }
    fn dir(&self, k: &str, d: Dir) -> Dir {
        match self.raw(k) {
            Some("UP") | Some("DUP") => (0.0, -1.0),
            Some("DOWN") | Some("DDOWN") => (0.0, 1.0),
            Some("LEFT") | Some("DLEFT") => (-1.0, 0.0),
            Some("RIGHT") | Some("DRIGHT") => (1.0, 0.0),
            Some("NONE") | Some("DNONE") => DNONE,
            Some("DNIL") => DNIL,
            _ => d,
        }
    }
}

/// `Integer.parseInt`.
fn java_int(v: &str) -> Option<i32> {
    let b = v.strip_prefix('+').unwrap_or(v);
    if b.is_empty() || b.starts_with('+') {
        return None;
    }
    v.parse::<i32>().ok()
}

struct Registry {
    names: Vec<String>,
    index: HashMap<String, u16>,
}

impl Registry {
    fn register(&mut self, name: &str) -> u16 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len() as u16;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        i
    }
    fn get(&self, name: &str) -> i32 {
        self.index.get(name).map(|&i| i as i32).unwrap_or(-1)
    }
}

/// An effect's `counter` and `counterElse` lists (GVGAI's default "0").
fn counter_lists(ps: &Params) -> (String, String) {
    (
        ps.raw("counter").unwrap_or("0").to_string(),
        ps.raw("counterElse").unwrap_or("0").to_string(),
    )
}

/// Per declared type during the SpriteSet walk.
struct Decl {
    class: Option<(String, usize, usize)>,
    params: Vec<Param>,
    itypes: Vec<u16>,
    subtypes: Vec<u16>,
}

/// Compiles a parsed description into [`Rules`].
pub fn compile(d: &Description) -> Result<Rules, VgdlError> {
    // A GameSpace without a ParameterSet (which the parser refuses) is a
    // BasicGame in GVGAI.
    if d.game_class != "BasicGame" && d.game_class != "GameSpace" {
        let what = format!(
            "unknown game class `{}`; expected BasicGame or GameSpace",
            d.game_class
        );
        return Err(perr(1, 1, what));
    }
    let gp = Params(&d.game_params);
    let no_players = gp.int("no_players", 1);
    if !(1..=MAX_PLAYERS).contains(&no_players) {
        return Err(VgdlError::Unsupported(vec![format!(
            "games for {no_players} players (no_players must be 1 to {MAX_PLAYERS})"
        )]));
    }
    let no_counters = gp.int("no_counters", 0).clamp(0, 64) as usize;
    let square_size = param(&d.game_params, "square_size").and_then(|p| java_int(&p.value));
    let mut reg = Registry {
        names: Vec::new(),
        index: HashMap::new(),
    };
    reg.register("wall");
    reg.register("avatar");
    let mut decls: HashMap<u16, Decl> = HashMap::new();
    let mut order: Vec<u16> = vec![0, 1];
    let mut singletons: Vec<u16> = Vec::new();
    walk(
        &d.sprites,
        None,
        &[],
        &[],
        &mut reg,
        &mut decls,
        &mut order,
        &mut singletons,
    );
    let n = reg.names.len();
    // Defaults for the implicit wall and avatar.
    decls.entry(0).or_insert_with(|| Decl {
        class: Some(("Immovable".into(), 0, 0)),
        params: vec![Param {
            key: "solid".into(),
            value: "True".into(),
            column: 0,
        }],
        itypes: vec![0],
        subtypes: vec![0],
    });
    decls.entry(1).or_insert_with(|| Decl {
        class: Some(("MovingAvatar".into(), 0, 0)),
        params: Vec::new(),
        itypes: vec![1],
        subtypes: vec![1],
    });
    let mut unsupported: Vec<String> = Vec::new();
    let mut types = Vec::with_capacity(n);
    for id in 0..n as u16 {
        let decl = decls.get(&id).expect("every registered type is declared");
        let class = match &decl.class {
            None => None,
            Some((c, line, col)) => match Class::from_name(c) {
                Some(k) => Some(k),
                None if SPRITE_CLASSES.contains(&c.as_str()) => {
                    unsupported.push(format!("sprite class {c} (line {line}, column {col})"));
                    None
                }
                None => {
                    return Err(perr(
                        *line,
                        *col,
                        format!(
                            "unknown sprite class `{c}`; GVGAI's classes are: {}",
                            SPRITE_CLASSES.join(", ")
                        ),
                    ))
                }
            },
        };
        types.push(type_def(
            &reg,
            &reg.names[id as usize],
            class,
            decl,
            singletons.contains(&id),
        ));
    }
    let continuous = decls.values().any(|d| {
        d.params
            .iter()
            .any(|p| p.key == "physicstype" && p.value == "CONT")
    });
    if continuous {
        unsupported.push("continuous physics (physicstype=CONT)".into());
    }
    let mut subtypes_fix = Vec::new();
    for (id, t) in types.iter().enumerate() {
        let mut s = t.subtypes.clone();
        if (id == 0 || id == 1) && !s.contains(&(id as u16)) {
            s.push(id as u16);
        }
        subtypes_fix.push(s);
    }
    for (t, s) in types.iter_mut().zip(subtypes_fix) {
        t.subtypes = s;
    }
    // Sprite order: avatar forced to the end.
    let mut sprite_order: Vec<u16> = order.iter().copied().filter(|&t| t != 1).collect();
    sprite_order.push(1);

    let mut effects = Vec::new();
    let mut pairs: Vec<(u16, u16, Vec<u16>)> = Vec::new();
    let mut eos: Vec<(u16, Vec<u16>)> = Vec::new();
    let mut time_effects: Vec<TimeDef> = Vec::new();
    for ic in &d.interactions {
        let timed = ic.first.eq_ignore_ascii_case("TIME")
            || ic.seconds.iter().any(|s| s.eq_ignore_ascii_case("TIME"));
        let ps = Params(&ic.params);
        let kind = match effect_kind(&ic.effect, &ps, &reg) {
            Ok(Some(k)) => k,
            Ok(None) => {
                if EFFECTS.contains(&ic.effect.as_str()) {
                    unsupported.push(format!(
                        "effect {} (line {}, column {})",
                        ic.effect, ic.line, ic.effect_column
                    ));
                    continue;
                }
                return Err(perr(
                    ic.line,
                    ic.effect_column,
                    format!(
                        "unknown effect `{}`; GVGAI's effects are: {}",
                        ic.effect,
                        EFFECTS.join(", ")
                    ),
                ));
            }
            Err(m) => return Err(perr(ic.line, ic.effect_column, m)),
        };
        let kind = if let EffectKind::AddTimer { .. } = kind {
            // The delegate is the `ftype` effect read from the same line.
            let ftype = ps.raw("ftype").unwrap_or("");
            let delegate = match effect_kind(ftype, &ps, &reg) {
                Ok(Some(k)) => k,
                Ok(None) => {
                    unsupported.push(format!("addTimer of {ftype} (line {})", ic.line));
                    continue;
                }
                Err(m) => return Err(perr(ic.line, ic.effect_column, m)),
            };
            effects.push(EffectDef {
                kind: delegate,
                score_change: ps.raw("scoreChange").unwrap_or("0").to_string(),
                prob: ps.double("prob", 1.0),
                hash: java_hash(ftype),
                counter: counter_lists(&ps),
            });
            time_effects.push(TimeDef {
                effect: effects.len() as u16 - 1,
                itype: None,
                timer: ps.int("timer", -1),
                repeating: ps.boolean("repeating", false),
                first: -1,
                score_change: ps.raw("scoreChange").unwrap_or("0").to_string(),
            });
            EffectKind::AddTimer {
                timer: time_effects.len() as u16 - 1,
            }
        } else {
            kind
        };
        let eff = effects.len() as u16;
        effects.push(EffectDef {
            kind,
            score_change: ps.raw("scoreChange").unwrap_or("0").to_string(),
            prob: ps.double("prob", 1.0),
            hash: java_hash(&ic.effect),
            counter: counter_lists(&ps),
        });
        if timed {
            let other = if ic.first.eq_ignore_ascii_case("TIME") {
                &ic.seconds[0]
            } else {
                &ic.first
            };
            let itype = match reg.get(other) {
                -1 => {
                    unsupported.push(format!(
                        "TIME effects without a sprite type (line {})",
                        ic.line
                    ));
                    continue;
                }
                i => i as u16,
            };
            if no_counters > 0 && (ps.raw("counter").is_some() || ps.raw("counterElse").is_some()) {
                unsupported.push(format!("counters of a TIME effect (line {})", ic.line));
            }
            let timer = ps.int("timer", -1);
            time_effects.push(TimeDef {
                effect: eff,
                itype: Some(itype),
                timer,
                repeating: ps.boolean("repeating", false),
                first: if ps.int("nextExecution", -1) != -1 {
                    timer
                } else {
                    -1
                },
                score_change: ps.raw("scoreChange").unwrap_or("0").to_string(),
            });
            continue;
        }
        let repeat = ps.int("repeat", 1).max(0) as usize;
        let o1 = reg.get(&ic.first);
        for (k, s2) in ic.seconds.iter().enumerate() {
            let o2 = reg.get(s2);
            if o1 != -1 && o2 != -1 {
                let (a, b) = (o1 as u16, o2 as u16);
                let slot = match pairs.iter().position(|p| p.0 == a && p.1 == b) {
                    Some(i) => i,
                    None => {
                        pairs.push((a, b, Vec::new()));
                        pairs.len() - 1
                    }
                };
                for _ in 0..repeat {
                    pairs[slot].2.push(eff);
                }
            } else if s2.eq_ignore_ascii_case("EOS") && o1 != -1 {
                eos.push((o1 as u16, vec![eff]));
            } else if ic.first.eq_ignore_ascii_case("EOS") && o2 != -1 {
                eos.push((o2 as u16, vec![eff]));
            } else {
                let (name, col) = if o1 == -1 {
                    (&ic.first, ic.columns[0])
                } else {
                    (s2, ic.columns[k + 1])
                };
                return Err(perr(
                    ic.line,
                    col,
                    format!(
                        "interaction names `{name}`, which is not a sprite type of the SpriteSet"
                    ),
                ));
            }
        }
    }
    // GVGAI keeps one list per type and runs it once per mention.
    let mut eos_lists: Vec<Vec<u16>> = vec![Vec::new(); n];
    for (t, e) in &eos {
        eos_lists[*t as usize].extend(e);
    }
    let eos: Vec<(u16, Vec<u16>)> = eos
        .iter()
        .map(|(t, _)| (*t, eos_lists[*t as usize].clone()))
        .collect();

    let mut terminations = Vec::new();
    for t in &d.terminations {
        let ps = Params(&t.params);
        let get = |k: &str| -> Result<i32, VgdlError> {
            match ps.string(k) {
                None => Ok(-1),
                Some(s) => match reg.get(&s) {
                    -1 => Err(perr(
                        t.line,
                        param(&t.params, k).map(|p| p.column).unwrap_or(t.column),
                        format!("termination names `{s}`, which is not a sprite type"),
                    )),
                    i => Ok(i),
                },
            }
        };
        let kind = match t.class.as_str() {
            "SpriteCounter" => TermKind::SpriteCounter(get("stype")?),
            "SpriteCounterMore" => TermKind::SpriteCounterMore(get("stype")?),
            "MultiSpriteCounter" => TermKind::MultiSpriteCounter(
                [get("stype1")?, get("stype2")?, get("stype3")?],
                ps.boolean("min", false),
            ),
            "Timeout" if ps.boolean("use_counter", false) => TermKind::TimeoutCounters {
                compare: ps.boolean("compare", false),
                limits: ps.raw("limits").unwrap_or("0").to_string(),
            },
            "Timeout" => TermKind::Timeout,
            "StopCounter" => TermKind::StopCounter(
                [get("stype1")?, get("stype2")?, get("stype3")?],
                ps.boolean("min", false),
            ),
            "MultiSpriteCounterSubTypes" => {
                TermKind::MultiSpriteCounterSubTypes(get("stype1")?, ps.int("subTypesNum", -1))
            }
            c if TERMINATIONS.contains(&c) => {
                unsupported.push(format!("termination {c} (line {})", t.line));
                continue;
            }
            c => {
                return Err(perr(
                    t.line,
                    t.column,
                    format!(
                        "unknown termination `{c}`; GVGAI's terminations are: {}",
                        TERMINATIONS.join(", ")
                    ),
                ))
            }
        };
        terminations.push(TermDef {
            kind,
            limit: ps.int("limit", 0),
            win: param(&t.params, "win").map(|p| p.value.clone()),
            count_score: ps.boolean("count_score", false),
        });
    }
    let mut mapping: HashMap<char, Vec<Result<u16, String>>> = HashMap::new();
    mapping.insert('w', vec![Ok(0)]);
    mapping.insert('A', vec![Ok(1)]);
    for m in &d.mappings {
        let v = m
            .types
            .iter()
            .map(|s| match reg.get(s) {
                -1 => Err(s.clone()),
                i => Ok(i as u16),
            })
            .collect();
        mapping.insert(m.ch, v);
    }
    if !unsupported.is_empty() {
        unsupported.dedup();
        return Err(VgdlError::Unsupported(unsupported));
    }
    let resource_limit = types
        .iter()
        .map(|t| {
            if t.class == Some(Class::Resource) {
                t.limit
            } else {
                0
            }
        })
        .collect();
    let effect_count = effects.len();
    let mut rules = Rules {
        types,
        sprite_order,
        effects,
        pairs,
        eos,
        time_effects,
        terminations,
        mapping,
        square_size,
        obstacles: param(&d.game_params, "obs")
            .map(|p| p.value.split(',').map(|x| reg.get(x)).collect()),
        resource_limit,
        effect_count,
        no_players: no_players as usize,
        no_counters,
        inert: Vec::new(),
        quiet: Vec::new(),
    };
    rules.inert = super::inert::inert_types(&rules);
    rules.quiet = super::inert::quiet_types(&rules);
    Ok(rules)
}

#[allow(clippy::too_many_arguments)]
fn walk(
    nodes: &[SpriteNode],
    parent_class: Option<(String, usize, usize)>,
    parent_args: &[Param],
    parent_types: &[u16],
    reg: &mut Registry,
    decls: &mut HashMap<u16, Decl>,
    order: &mut Vec<u16>,
    singletons: &mut Vec<u16>,
) {
    for n in nodes {
        let id = reg.register(&n.name);
        let mut itypes = parent_types.to_vec();
        itypes.push(id);
        let own_class = n.class.clone().map(|c| (c, n.line, n.class_column));
        let class = parent_class.clone().or_else(|| own_class.clone());
        let mut args = parent_args.to_vec();
        args.extend(n.params.iter().cloned());
        if let Some(p) = param(&n.params, "singleton") {
            if p.value.eq_ignore_ascii_case("true") {
                singletons.push(id);
            }
        }
        let mut subtypes = itypes.clone();
        if n.children.is_empty() {
            order.retain(|&t| t != id);
            order.push(id);
        } else {
            let pc = own_class.or(parent_class.clone());
            walk(
                &n.children,
                pc,
                &args,
                &itypes,
                reg,
                decls,
                order,
                singletons,
            );
            for c in &n.children {
                let cid = reg.get(&c.name) as u16;
                if let Some(cd) = decls.get(&cid) {
                    for s in cd.subtypes.clone() {
                        if !subtypes.contains(&s) {
                            subtypes.push(s);
                        }
                    }
                }
            }
        }
        decls.insert(
            id,
            Decl {
                class,
                params: args,
                itypes,
                subtypes,
            },
        );
    }
}

fn type_def(
    reg: &Registry,
    name: &str,
    class: Option<Class>,
    decl: &Decl,
    singleton: bool,
) -> TypeDef {
    use Class::*;
    let p = Params(&decl.params);
    let c = class.unwrap_or(Immovable);
    let default_speed = match c {
        MovingAvatar | HorizontalAvatar | VerticalAvatar | FlakAvatar | OrientedAvatar
        | ShootAvatar | ShootOnlyAvatar | MissileAvatar | OngoingAvatar | OngoingShootAvatar
        | OngoingTurningAvatar | Missile | RandomMissile | RandomNpc | Chaser | Fleeing
        | RandomBomber | LosChaser | PathChaser | PathAltChaser | RandomPathAltChaser => 1.0,
        _ => 0.0,
    };
    let oriented_class = matches!(
        c,
        Missile
            | RandomMissile
            | Bomber
            | RandomBomber
            | BomberRandomMissile
            | SpawnPointMultiSprite
            | OrientedFlicker
            | OrientedAvatar
            | ShootAvatar
            | ShootOnlyAvatar
            | MissileAvatar
            | OngoingAvatar
            | OngoingShootAvatar
            | OngoingTurningAvatar
    );
    let default_orientation = match c {
        OrientedAvatar
        | ShootAvatar
        | ShootOnlyAvatar
        | MissileAvatar
        | OngoingAvatar
        | OngoingShootAvatar
        | OngoingTurningAvatar
        | Bomber
        | RandomBomber
        | BomberRandomMissile
        | SpawnPointMultiSprite => (1.0, 0.0),
        RandomMissile => DNIL,
        _ => DNONE,
    };
    let orientation = p.dir("orientation", default_orientation);
    let is_static = p.boolean(
        "is_static",
        matches!(
            c,
            Immovable | Door | SpawnPoint | Portal | SpawnPointMultiSprite
        ),
    );
    let health = p.int("healthPoints", 0);
    let mut max_health = p.int("maxHealthPoints", 0);
    if max_health == 0 {
        max_health = health;
    }
    let health = health.min(max_health);
    let resolve = |s: Option<String>| -> i32 { s.map(|s| reg.get(&s)).unwrap_or(-1) };
    let stype = p.string("stype");
    let itypes_shoot = stype
        .as_deref()
        .map(|s| s.split(',').map(|x| reg.get(x)).collect())
        .unwrap_or_default();
    let ammo = p
        .string("ammo")
        .map(|s| s.split(',').map(|x| reg.get(x)).collect())
        .unwrap_or_default();
    let actions = match c {
        HorizontalAvatar => vec![Action::Left, Action::Right],
        VerticalAvatar => vec![Action::Up, Action::Down],
        ShootOnlyAvatar => vec![
            Action::Left,
            Action::Up,
            Action::Right,
            Action::Down,
            Action::Use,
        ],
        FlakAvatar => vec![Action::Use, Action::Left, Action::Right],
        ShootAvatar | OngoingShootAvatar => vec![
            Action::Use,
            Action::Left,
            Action::Right,
            Action::Down,
            Action::Up,
        ],
        MissileAvatar | OngoingAvatar | OngoingTurningAvatar | MovingAvatar | OrientedAvatar => {
            vec![Action::Left, Action::Right, Action::Down, Action::Up]
        }
        _ => Vec::new(),
    };
    TypeDef {
        name: name.to_string(),
        class,
        itypes: decl.itypes.clone(),
        subtypes: decl.subtypes.clone(),
        singleton,
        speed: p.double("speed", default_speed),
        cooldown: p.int("cooldown", if c.is_spawner() { 1 } else { 0 }).max(1),
        orientation,
        is_oriented: oriented_class || orientation != DNONE || p.boolean("is_oriented", false),
        is_static,
        rotate_in_place: p.boolean(
            "rotateInPlace",
            matches!(
                c,
                OrientedAvatar
                    | ShootAvatar
                    | ShootOnlyAvatar
                    | MissileAvatar
                    | OngoingAvatar
                    | OngoingShootAvatar
                    | OngoingTurningAvatar
            ),
        ),
        stationary: p.boolean("stationary", false),
        health: (health, max_health, p.int("limitHealthPoints", 1000)),
        time_to_live: p.int("timeToLive", -1),
        limit: p.int("limit", if c == Resource { 2 } else { 1 }),
        value: p.int("value", 1),
        itype: resolve(stype),
        itypes_shoot,
        itype_list: p
            .string(if c == SpawnPointMultiSprite {
                "stypes"
            } else {
                "stypeMissile"
            })
            .map(|s| s.split(',').map(|x| reg.get(x)).collect())
            .unwrap_or_else(|| vec![-1]),
        has_itype_field: matches!(
            c,
            Portal
                | SpawnPoint
                | Bomber
                | RandomBomber
                | BomberRandomMissile
                | Chaser
                | Fleeing
                | LosChaser
                | PathChaser
                | Spreader
                | FlakAvatar
        ),
        ammo,
        min_ammo: p.int("minAmmo", -1),
        ammo_cost: p.int("ammoCost", 1),
        prob: if c == Spreader {
            p.double("spreadprob", 1.0)
        } else {
            p.double("prob", 1.0)
        },
        total: p.int("total", 0),
        spawn_orientation: p.dir("spawnorientation", DNONE),
        cons: p.int("cons", 0),
        itype1: p
            .string("stype1")
            .map(|s| s.split(',').map(|x| reg.get(x)).collect())
            .unwrap_or_default(),
        random_target: p.boolean("randomTarget", false),
        epsilon: p.double("epsilon", 0.0),
        // A `float` field: reflection widens an int, but refuses a double.
        max_distance: p.int("maxDistance", -1) as f32,
        spawn_behind: p.string("spawnBehind").map(|s| reg.get(&s)).unwrap_or(0),
        actions,
    }
}

fn effect_kind(name: &str, p: &Params, reg: &Registry) -> Result<Option<EffectKind>, String> {
    let need = |k: &str| -> Result<u16, String> {
        match p.string(k) {
            None => Err(format!("`{name}` needs {k}=<sprite type>")),
            Some(s) => match reg.get(&s) {
                -1 => Err(format!("`{name}` names `{s}`, which is not a sprite type")),
                i => Ok(i as u16),
            },
        }
    };
    let opt = |k: &str| -> i32 { p.string(k).map(|s| reg.get(&s)).unwrap_or(-1) };
    Ok(Some(match name {
        "stepBack" => EffectKind::StepBack {
            pixel_perfect: p.boolean("pixelPerfect", false),
        },
        "killSprite" => EffectKind::KillSprite,
        "killBoth" => EffectKind::KillBoth,
        "transformTo" => EffectKind::TransformTo {
            itype: need("stype")?,
            kill_second: p.boolean("killSecond", false),
            force_orientation: p.boolean("forceOrientation", false),
        },
        "undoAll" => EffectKind::UndoAll {
            not_itypes: match p.string("notStype") {
                None => vec![-1],
                Some(s) => s.split(',').map(|x| reg.get(x)).collect(),
            },
        },
        "bounceForward" => EffectKind::BounceForward,
        "changeResource" => EffectKind::ChangeResource {
            resource: opt("resource"),
            value: p.int("value", 1),
            kill_resource: p.boolean("killResource", false),
        },
        "collectResource" => EffectKind::CollectResource {
            kill_resource: p.boolean("killResource", true),
        },
        "killIfHasLess" => EffectKind::KillIfHasLess {
            resource: need("resource")? as i32,
            limit: p.int("limit", 0),
        },
        "killIfHasMore" => EffectKind::KillIfHasMore {
            resource: need("resource")? as i32,
            limit: p.int("limit", 0),
        },
        "killIfOtherHasMore" => EffectKind::KillIfOtherHasMore {
            resource: opt("resource"),
            limit: p.int("limit", 0),
            subtract: p.boolean("subtract", false),
        },
        "killAll" => EffectKind::KillAll {
            itype: need("stype")?,
        },
        "addHealthPoints" => EffectKind::AddHealthPoints {
            value: p.int("value", 1),
            kill_second: p.boolean("killSecond", false),
        },
        "subtractHealthPoints" => EffectKind::SubtractHealthPoints {
            value: p.int("value", 1),
            itype: match p.string("stype") {
                None => -1,
                Some(_) => need("stype")? as i32,
            },
            limit: p.int("limit", 0),
            score_if_killed: p.raw("scoreChangeIfKilled").unwrap_or("0").to_string(),
        },
        "wrapAround" => EffectKind::WrapAround {
            offset: p.double("offset", 0.0),
        },
        "reverseDirection" => EffectKind::ReverseDirection,
        "turnAround" => EffectKind::TurnAround,
        "flipDirection" => EffectKind::FlipDirection,
        "attractGaze" => EffectKind::AttractGaze {
            align: p.boolean("align", false),
        },
        "spawn" => EffectKind::Spawn {
            itype: need("stype")?,
        },
        "spawnIfHasMore" | "spawnIfHasLess" => EffectKind::SpawnIfHas {
            itype: need("stype")?,
            resource: need("resource")? as i32,
            limit: p.int("limit", 0),
            more: name == "spawnIfHasMore",
            spend: p.int("spend", 0),
        },
        "transformToAll" => EffectKind::TransformToAll {
            itype: need("stype")?,
            itype_to: need("stypeTo")?,
            kill_second: p.boolean("killSecond", false),
            force_orientation: p.boolean("forceOrientation", false),
        },
        "transformIfCount" => EffectKind::TransformIfCount {
            itype: need("stype")?,
            count: opt("stypeCount"),
            else_itype: opt("estype"),
            geq: p.int("geq", 0),
            leq: p.int("leq", 10000),
            kill_second: p.boolean("killSecond", false),
            force_orientation: p.boolean("forceOrientation", false),
        },
        "transformToSingleton" => EffectKind::TransformToSingleton {
            itype: need("stype")?,
            itype_other: need("stype_other")?,
            take_orientation: p.boolean("takeOrientation", false),
        },
        "transformToRandomChild" => EffectKind::TransformToRandomChild {
            itype: need("stype")?,
            kill_second: p.boolean("killSecond", false),
            force_orientation: p.boolean("forceOrientation", false),
        },
        "addHealthPointsToMax" => EffectKind::AddHealthPointsToMax {
            value: p.int("value", 1),
            kill_second: p.boolean("killSecond", false),
        },
        "align" => EffectKind::Align {
            orient: p.boolean("orient", true),
        },
        "setSpeedForAll" => EffectKind::SetSpeedForAll {
            itype: need("stype")?,
            value: p.double("value", 0.0),
        },
        "teleportToExit" => EffectKind::TeleportToExit,
        "pullWithIt" => EffectKind::PullWithIt {
            pixel_perfect: p.boolean("pixelPerfect", false),
        },
        "spawnAbove" | "spawnBelow" | "spawnLeft" | "spawnRight" => EffectKind::SpawnNext {
            itype: opt("stype"),
            dir: match name {
                "spawnAbove" => (0, -1),
                "spawnBelow" => (0, 1),
                "spawnLeft" => (-1, 0),
                _ => (1, 0),
            },
            step_back: p.boolean("stepBack", false),
        },
        "addTimer" => EffectKind::AddTimer { timer: 0 },
        "killIfFrontal" => EffectKind::KillIfFrontal,
        "killIfNotFrontal" => EffectKind::KillIfNotFrontal,
        "killIfFromAbove" => EffectKind::KillIfFromAbove,
        "shieldFrom" => EffectKind::ShieldFrom {
            itype: need("stype")?,
            ftype: java_hash(p.raw("ftype").unwrap_or("")),
        },
        "cloneSprite" => EffectKind::CloneSprite,
        "collectResourceIfHeld" => EffectKind::CollectResourceIfHeld {
            held: opt("heldResource"),
            value: p.int("value", 1),
            kill_resource: p.boolean("killResource", true),
        },
        "increaseSpeedToAll" | "decreaseSpeedToAll" => EffectKind::More(MoreEffect::SpeedToAll {
            itype: need("stype")?,
            value: p.double("value", 0.1),
            increase: name == "increaseSpeedToAll",
        }),
        "removeScore" => EffectKind::More(MoreEffect::RemoveScore {
            itype: opt("stype"),
            kill_second: p.boolean("killSecond", false),
        }),
        "spawnBehind" => EffectKind::More(MoreEffect::SpawnBehind {
            itype: need("stype")?,
        }),
        "killIfFast" | "killIfSlow" => EffectKind::More(MoreEffect::KillIfSpeed {
            limit: p.double("limspeed", 1.0),
            fast: name == "killIfFast",
        }),
        "updateSpawnType" => EffectKind::More(MoreEffect::UpdateSpawnType {
            itype: need("stype")?,
            spawn: need("spawnPoint")?,
        }),
        _ => return Ok(None),
    }))
}
