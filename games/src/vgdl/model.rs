//! The compiled rules of a VGDL game: sprite types with their effective
//! class and typed parameters (GVGAI's defaults, GVGAI's inheritance),
//! effects, terminations and the level mapping, all resolved to indices.

use std::collections::HashMap;

/// A direction as GVGAI's `Direction` (two doubles).
pub type Dir = (f64, f64);
/// No direction.
pub const DNONE: Dir = (0.0, 0.0);
/// GVGAI's `DNIL` (a random missile's "not chosen yet").
pub const DNIL: Dir = (-1.0, -1.0);
/// Up, left, down, right: GVGAI's `DBASEDIRS` order.
pub const BASEDIRS: [Dir; 4] = [(0.0, -1.0), (-1.0, 0.0), (0.0, 1.0), (1.0, 0.0)];

/// The sprite classes this engine implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// `Immovable`.
    Immovable,
    /// `Passive`.
    Passive,
    /// `Door`.
    Door,
    /// `Resource`.
    Resource,
    /// `Flicker`.
    Flicker,
    /// `OrientedFlicker`.
    OrientedFlicker,
    /// `Missile`.
    Missile,
    /// `RandomMissile`.
    RandomMissile,
    /// `SpawnPoint`.
    SpawnPoint,
    /// `Bomber`.
    Bomber,
    /// `RandomBomber`.
    RandomBomber,
    /// `RandomNPC`.
    RandomNpc,
    /// `Chaser`.
    Chaser,
    /// `Fleeing`.
    Fleeing,
    /// `LOSChaser`.
    LosChaser,
    /// `PathChaser`.
    PathChaser,
    /// `PathAltChaser`.
    PathAltChaser,
    /// `RandomPathAltChaser`.
    RandomPathAltChaser,
    /// `Spreader`.
    Spreader,
    /// `Portal`.
    Portal,
    /// `BomberRandomMissile`.
    BomberRandomMissile,
    /// `SpawnPointMultiSprite`.
    SpawnPointMultiSprite,
    /// `MovingAvatar`.
    MovingAvatar,
    /// `HorizontalAvatar`.
    HorizontalAvatar,
    /// `VerticalAvatar`.
    VerticalAvatar,
    /// `FlakAvatar`.
    FlakAvatar,
    /// `OrientedAvatar`.
    OrientedAvatar,
    /// `ShootAvatar`.
    ShootAvatar,
    /// `ShootOnlyAvatar`.
    ShootOnlyAvatar,
    /// `MissileAvatar`.
    MissileAvatar,
    /// `OngoingAvatar`.
    OngoingAvatar,
    /// `OngoingShootAvatar`.
    OngoingShootAvatar,
    /// `OngoingTurningAvatar`.
    OngoingTurningAvatar,
}

impl Class {
    pub(crate) fn from_name(s: &str) -> Option<Class> {
        use Class::*;
        Some(match s {
            "Immovable" => Immovable,
            "Passive" => Passive,
            "Door" => Door,
            "Resource" => Resource,
            "Flicker" => Flicker,
            "OrientedFlicker" => OrientedFlicker,
            "Missile" => Missile,
            "RandomMissile" => RandomMissile,
            "SpawnPoint" => SpawnPoint,
            "Bomber" => Bomber,
            "RandomBomber" => RandomBomber,
            "RandomNPC" => RandomNpc,
            "Chaser" => Chaser,
            "Fleeing" => Fleeing,
            "LOSChaser" => LosChaser,
            "PathChaser" => PathChaser,
            "PathAltChaser" => PathAltChaser,
            "RandomPathAltChaser" => RandomPathAltChaser,
            "Spreader" => Spreader,
            "Portal" => Portal,
            "BomberRandomMissile" => BomberRandomMissile,
            "SpawnPointMultiSprite" => SpawnPointMultiSprite,
            "MovingAvatar" => MovingAvatar,
            "HorizontalAvatar" => HorizontalAvatar,
            "VerticalAvatar" => VerticalAvatar,
            "FlakAvatar" => FlakAvatar,
            "OrientedAvatar" => OrientedAvatar,
            "ShootAvatar" => ShootAvatar,
            "ShootOnlyAvatar" => ShootOnlyAvatar,
            "MissileAvatar" => MissileAvatar,
            "OngoingAvatar" => OngoingAvatar,
            "OngoingShootAvatar" => OngoingShootAvatar,
            "OngoingTurningAvatar" => OngoingTurningAvatar,
            _ => return None,
        })
    }

    /// Whether the class is an avatar (a `MovingAvatar` subclass).
    pub fn is_avatar(self) -> bool {
        use Class::*;
        matches!(
            self,
            MovingAvatar
                | HorizontalAvatar
                | VerticalAvatar
                | FlakAvatar
                | OrientedAvatar
                | ShootAvatar
                | ShootOnlyAvatar
                | MissileAvatar
                | OngoingAvatar
                | OngoingShootAvatar
                | OngoingTurningAvatar
        )
    }

    /// Whether the class is a `SpawnPoint` (or subclass).
    pub fn is_spawner(self) -> bool {
        matches!(
            self,
            Class::SpawnPoint
                | Class::Bomber
                | Class::RandomBomber
                | Class::BomberRandomMissile
                | Class::SpawnPointMultiSprite
        )
    }
}

/// An avatar action, named as GVGAI names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// `ACTION_USE`.
    Use,
    /// `ACTION_LEFT`.
    Left,
    /// `ACTION_RIGHT`.
    Right,
    /// `ACTION_DOWN`.
    Down,
    /// `ACTION_UP`.
    Up,
    /// `ACTION_NIL`.
    Nil,
}

impl Action {
    /// GVGAI's name without the `ACTION_` prefix.
    pub fn name(self) -> &'static str {
        match self {
            Action::Use => "USE",
            Action::Left => "LEFT",
            Action::Right => "RIGHT",
            Action::Down => "DOWN",
            Action::Up => "UP",
            Action::Nil => "NIL",
        }
    }

    /// Parses a name produced by [`Action::name`].
    pub fn parse(s: &str) -> Option<Action> {
        Some(match s {
            "USE" => Action::Use,
            "LEFT" => Action::Left,
            "RIGHT" => Action::Right,
            "DOWN" => Action::Down,
            "UP" => Action::Up,
            "NIL" => Action::Nil,
            _ => return None,
        })
    }

    /// The movement direction of the action (`DNONE` for USE and NIL).
    pub fn dir(self) -> Dir {
        match self {
            Action::Left => (-1.0, 0.0),
            Action::Right => (1.0, 0.0),
            Action::Down => (0.0, 1.0),
            Action::Up => (0.0, -1.0),
            Action::Use | Action::Nil => DNONE,
        }
    }
}

/// One sprite type: its place in the hierarchy, effective class and
/// parameters after inheritance.
#[derive(Clone, Debug)]
pub struct TypeDef {
    /// The name from the SpriteSet.
    pub name: String,
    /// Effective class (`None` for a type that only groups others and has
    /// no class anywhere above it).
    pub class: Option<Class>,
    /// Ancestors then itself (GVGAI's `itypes`).
    pub itypes: Vec<u16>,
    /// GVGAI's `subtypes`: the ancestors, itself, then every descendant.
    pub subtypes: Vec<u16>,
    /// Declared `singleton=True` on its own line.
    pub singleton: bool,
    /// `speed`.
    pub speed: f64,
    /// `cooldown` (at least 1).
    pub cooldown: i32,
    /// Initial orientation.
    pub orientation: Dir,
    /// `is_oriented` after `postProcess`.
    pub is_oriented: bool,
    /// `is_static`.
    pub is_static: bool,
    /// `rotateInPlace`.
    pub rotate_in_place: bool,
    /// `stationary`.
    pub stationary: bool,
    /// `healthPoints`, `maxHealthPoints`, `limitHealthPoints`.
    pub health: (i32, i32, i32),
    /// `timeToLive` (-1: none).
    pub time_to_live: i32,
    /// Flicker `limit`, Resource `limit`.
    pub limit: i32,
    /// Resource `value`.
    pub value: i32,
    /// `stype` resolved (spawners, chasers, shooters: the first entry).
    pub itype: i32,
    /// ShootAvatar's `stype` list resolved.
    pub itypes_shoot: Vec<i32>,
    /// BomberRandomMissile `stypeMissile`, SpawnPointMultiSprite `stypes`.
    pub itype_list: Vec<i32>,
    /// Whether GVGAI's class has an `int itype` field (what
    /// `teleportToExit` reads from the portal).
    pub has_itype_field: bool,
    /// `ammo` list resolved (empty: no ammo needed).
    pub ammo: Vec<i32>,
    /// FlakAvatar `minAmmo`, `ammoCost`.
    pub min_ammo: i32,
    /// FlakAvatar `ammoCost`.
    pub ammo_cost: i32,
    /// SpawnPoint `prob`, Spreader `spreadprob`.
    pub prob: f64,
    /// SpawnPoint `total`.
    pub total: i32,
    /// SpawnPoint `spawnorientation`.
    pub spawn_orientation: Dir,
    /// RandomNPC `cons`.
    pub cons: i32,
    /// The alternate chasers' `stype1` resolved (GVGAI counts it twice).
    pub itype1: Vec<i32>,
    /// PathAltChaser `randomTarget`.
    pub random_target: bool,
    /// RandomPathAltChaser `epsilon`.
    pub epsilon: f64,
    /// Chaser `maxDistance`.
    pub max_distance: f32,
    /// OngoingTurningAvatar `spawnBehind` (GVGAI's default id 0: `wall`).
    pub spawn_behind: i32,
    /// The avatar's actions (without NIL).
    pub actions: Vec<Action>,
}

/// What an effect does, with its own parameters.
#[derive(Clone, Debug)]
pub enum EffectKind {
    /// An effect only the two-player games use (`more_effects.rs`).
    More(MoreEffect),
    /// `stepBack` (`pixelPerfect`: back only to the other sprite's edge).
    StepBack {
        /// `pixelPerfect`.
        pixel_perfect: bool,
    },
    /// `killSprite`.
    KillSprite,
    /// `killBoth`.
    KillBoth,
    /// `transformTo`.
    TransformTo {
        /// Target type.
        itype: u16,
        /// `killSecond`.
        kill_second: bool,
        /// `forceOrientation`.
        force_orientation: bool,
    },
    /// `undoAll`.
    UndoAll {
        /// `notStype` resolved.
        not_itypes: Vec<i32>,
    },
    /// `bounceForward`.
    BounceForward,
    /// `changeResource`.
    ChangeResource {
        /// Resource type.
        resource: i32,
        /// `value`.
        value: i32,
        /// `killResource`.
        kill_resource: bool,
    },
    /// `collectResource`.
    CollectResource {
        /// `killResource`.
        kill_resource: bool,
    },
    /// `killIfHasLess`.
    KillIfHasLess {
        /// Resource type.
        resource: i32,
        /// `limit`.
        limit: i32,
    },
    /// `killIfHasMore`.
    KillIfHasMore {
        /// Resource type.
        resource: i32,
        /// `limit`.
        limit: i32,
    },
    /// `killIfOtherHasMore`.
    KillIfOtherHasMore {
        /// Resource type.
        resource: i32,
        /// `limit`.
        limit: i32,
        /// `subtract`.
        subtract: bool,
    },
    /// `killAll`.
    KillAll {
        /// The type killed.
        itype: u16,
    },
    /// `addHealthPoints`.
    AddHealthPoints {
        /// `value`.
        value: i32,
        /// `killSecond`.
        kill_second: bool,
    },
    /// `subtractHealthPoints`.
    SubtractHealthPoints {
        /// `value`.
        value: i32,
        /// `stype` resolved (-1: sprite1).
        itype: i32,
        /// `limit`.
        limit: i32,
        /// `scoreChangeIfKilled`.
        score_if_killed: String,
    },
    /// `wrapAround`.
    WrapAround {
        /// `offset`.
        offset: f64,
    },
    /// `reverseDirection`.
    ReverseDirection,
    /// `turnAround`.
    TurnAround,
    /// `flipDirection`.
    FlipDirection,
    /// `attractGaze`.
    AttractGaze {
        /// `align`.
        align: bool,
    },
    /// `spawn`.
    Spawn {
        /// Spawned type.
        itype: u16,
    },
    /// `spawnIfHasMore` / `spawnIfHasLess`.
    SpawnIfHas {
        /// Spawned type.
        itype: u16,
        /// Resource type.
        resource: i32,
        /// `limit`.
        limit: i32,
        /// true: more, false: less.
        more: bool,
        /// `spend` (spawnIfHasMore only).
        spend: i32,
    },
    /// `transformToAll`.
    TransformToAll {
        /// Type transformed.
        itype: u16,
        /// Target type.
        itype_to: u16,
        /// `killSecond`.
        kill_second: bool,
        /// `forceOrientation`.
        force_orientation: bool,
    },
    /// `transformIfCount`.
    TransformIfCount {
        /// Target type.
        itype: u16,
        /// Type counted.
        count: i32,
        /// Target type when the count is out of range (`estype`).
        else_itype: i32,
        /// `geq`.
        geq: i32,
        /// `leq`.
        leq: i32,
        /// `killSecond`.
        kill_second: bool,
        /// `forceOrientation`.
        force_orientation: bool,
    },
    /// `transformToSingleton`.
    TransformToSingleton {
        /// New type.
        itype: u16,
        /// Type the existing ones turn back into.
        itype_other: u16,
        /// `takeOrientation`.
        take_orientation: bool,
    },
    /// `transformToRandomChild`.
    TransformToRandomChild {
        /// The parent type.
        itype: u16,
        /// `killSecond`.
        kill_second: bool,
        /// `forceOrientation`.
        force_orientation: bool,
    },
    /// `addHealthPointsToMax`.
    AddHealthPointsToMax {
        /// `value`.
        value: i32,
        /// `killSecond`.
        kill_second: bool,
    },
    /// `align`.
    Align {
        /// `orient`.
        orient: bool,
    },
    /// `setSpeedForAll`.
    SetSpeedForAll {
        /// The type (with subtypes).
        itype: u16,
        /// `value`.
        value: f64,
    },
    /// `teleportToExit`.
    TeleportToExit,
    /// `pullWithIt`.
    PullWithIt {
        /// `pixelPerfect`.
        pixel_perfect: bool,
    },
    /// `spawnAbove`, `spawnBelow`, `spawnLeft`, `spawnRight`: next to the
    /// second sprite.
    SpawnNext {
        /// Spawned type.
        itype: i32,
        /// The side.
        dir: (i32, i32),
        /// `stepBack`: from the second sprite's last position.
        step_back: bool,
    },
    /// `addTimer`: queues the timed effect `time_effects[timer]`.
    AddTimer {
        /// Index into [`Rules::time_effects`].
        timer: u16,
    },
    /// `killIfFrontal`.
    KillIfFrontal,
    /// `killIfNotFrontal`.
    KillIfNotFrontal,
    /// `killIfFromAbove`.
    KillIfFromAbove,
    /// `shieldFrom`.
    ShieldFrom {
        /// Shielded-from type.
        itype: u16,
        /// The effect name's hash.
        ftype: i64,
    },
    /// `cloneSprite`.
    CloneSprite,
    /// `collectResourceIfHeld`.
    CollectResourceIfHeld {
        /// `heldResource` resolved.
        held: i32,
        /// `value`.
        value: i32,
        /// `killResource`.
        kill_resource: bool,
    },
}

/// One effect object (GVGAI shares one object between the pairs of a line).
#[derive(Clone, Debug)]
pub struct EffectDef {
    /// What it does.
    pub kind: EffectKind,
    /// `scoreChange` per player (GVGAI's comma list).
    pub score_change: String,
    /// `prob`.
    pub prob: f64,
    /// The effect name's Java `hashCode()` (for `shieldFrom`).
    pub hash: i64,
    /// `counter` and `counterElse`: what it adds to the game's counters
    /// (GVGAI's comma lists, one entry per counter).
    pub counter: (String, String),
}

/// A timed effect (`type TIME > effect timer=N [repeating=True]`).
#[derive(Clone, Debug)]
pub struct TimeDef {
    /// The effect it runs (an index into [`Rules::effects`]).
    pub effect: u16,
    /// The sprite type it runs on (with its subtypes); `None` for a timer
    /// queued by `addTimer`, which runs once, on no sprite.
    pub itype: Option<u16>,
    /// `timer`.
    pub timer: i32,
    /// `repeating`.
    pub repeating: bool,
    /// The first tick it runs at (`-1`: the first cycle; `timer` when
    /// `nextExecution` is given).
    pub first: i32,
    /// Its own `scoreChange` (always applied: the timed wrapper's
    /// `applyScore` never changes).
    pub score_change: String,
}

/// A termination.
#[derive(Clone, Debug)]
pub struct TermDef {
    /// What it counts.
    pub kind: TermKind,
    /// `limit`.
    pub limit: i32,
    /// `win` per player.
    pub win: Option<String>,
    /// `count_score`: the players with the highest non-zero score win
    /// instead.
    pub count_score: bool,
}

/// The termination classes this engine implements.
#[derive(Clone, Debug)]
pub enum TermKind {
    /// `SpriteCounter stype=..`: live sprites `<= limit`.
    SpriteCounter(i32),
    /// `SpriteCounterMore`: live sprites `>= limit`.
    SpriteCounterMore(i32),
    /// `MultiSpriteCounter stype1..3 [min=True]`.
    MultiSpriteCounter([i32; 3], bool),
    /// `Timeout`: `gameTick >= limit`.
    Timeout,
    /// `Timeout use_counter=True`: at `gameTick >= limit`, the players win
    /// by the game counters (`compare`: player 0 wins when they differ,
    /// the others when they are all equal; else counter `i` against entry
    /// `i` of `limits`).
    TimeoutCounters {
        /// `compare`.
        compare: bool,
        /// `limits`.
        limits: String,
    },
    /// `MultiSpriteCounterSubTypes stype1 subTypesNum`.
    MultiSpriteCounterSubTypes(i32, i32),
    /// `StopCounter stype1..3 [min=True]`: never ends the game; while
    /// the live count is `<= limit` (`min`) or `!= limit`, the sprite
    /// counters may end it (GVGAI's static `canEnd`).
    StopCounter([i32; 3], bool),
}

/// The whole compiled game.
#[derive(Clone, Debug)]
pub struct Rules {
    /// Sprite types by id (`wall` 0, `avatar` 1, then declaration order).
    pub types: Vec<TypeDef>,
    /// GVGAI's `spriteOrder` (avatar last).
    pub sprite_order: Vec<u16>,
    /// Effects by index.
    pub effects: Vec<EffectDef>,
    /// Pair effects: (type1, type2, effects) in order of first appearance.
    pub pairs: Vec<(u16, u16, Vec<u16>)>,
    /// End-of-screen effects: (type, effects), one entry per declaring line.
    pub eos: Vec<(u16, Vec<u16>)>,
    /// Timed (`TIME`) effects in file order.
    pub time_effects: Vec<TimeDef>,
    /// Terminations in file order.
    pub terminations: Vec<TermDef>,
    /// Level characters to sprite types (`Err(name)`: a name that is no
    /// sprite type, an error only when a level uses the character, as in
    /// GVGAI).
    pub mapping: HashMap<char, Vec<Result<u16, String>>>,
    /// `square_size` if set.
    pub square_size: Option<i32>,
    /// The `obs` types (obstacles of the path finder), if set.
    pub obstacles: Option<Vec<i32>>,
    /// Resource types: limit per type id (0 when not a resource).
    pub resource_limit: Vec<i32>,
    /// Whether any effect needs the per-effect mutable state.
    pub effect_count: usize,
    /// `no_counters`: the number of game counters.
    pub no_counters: usize,
    /// `no_players`: the number of players (avatars), 1 for GVGAI's
    /// single-player games.
    pub no_players: usize,
    /// Per type, whether its sprites are inert (a cycle skips their
    /// update; see `inert.rs`).
    pub inert: Vec<bool>,
    /// Per type, whether its sprites are quiet (a cycle updates only those
    /// an effect moved; see `inert.rs`).
    pub quiet: Vec<bool>,
}

/// An effect only the two-player games use, compiled (applied in
/// `more_effects.rs`).
#[derive(Clone, Debug)]
pub enum MoreEffect {
    /// `increaseSpeedToAll` / `decreaseSpeedToAll stype value`: every sprite
    /// of `stype` (and subtypes) speeds up or slows down by `value` (not
    /// below 0).
    SpeedToAll {
        /// `stype`.
        itype: u16,
        /// `value`.
        value: f64,
        /// `increaseSpeedToAll`.
        increase: bool,
    },
    /// `removeScore [stype] [killSecond]`: the score of the player whose
    /// avatar is the first sprite (or each avatar of the exact type
    /// `stype`) becomes 0.
    RemoveScore {
        /// `stype` (-1: none).
        itype: i32,
        /// `killSecond`.
        kill_second: bool,
    },
    /// `spawnBehind stype`: with probability `prob`, a sprite of `stype`
    /// where the second sprite was before its last move, if that is off
    /// its rectangle now.
    SpawnBehind {
        /// `stype`.
        itype: u16,
    },
    /// `killIfFast` / `killIfSlow limspeed`: the first sprite dies when the
    /// relative speed is above (below) `limspeed`.
    KillIfSpeed {
        /// `limspeed`.
        limit: f64,
        /// `killIfFast`.
        fast: bool,
    },
    /// `updateSpawnType stype spawnPoint`: every spawn point of type
    /// `spawnPoint` (and subtypes) spawns `stype` from now on.
    UpdateSpawnType {
        /// `stype`.
        itype: u16,
        /// `spawnPoint`.
        spawn: u16,
    },
}
