//! Every registry's listed parameters against its `make`: each agent is
//! built with each listed parameter at its listed default (read as
//! `--param key=value` reads it), one at a time and all together, and any
//! key it does not list (another agent's, or one no agent lists) is
//! rejected with [`AgentError::UnknownParam`].

use crate::params::{AgentError, AgentInfo, AgentParams, ParamValue};
use crate::{bait, fixtures, generic, snake, sokoban, supply, vgdl, xiangqi};
use games::bait::Bait;

/// A key no agent lists.
const UNLISTED: &str = "no_such_param";

/// Check registry `list` against `make`, which builds agent `name` with
/// the parameters given; returns how many listed parameters were checked.
fn check_registry(
    list: &[AgentInfo],
    make: impl Fn(&str, &AgentParams) -> Result<(), AgentError>,
) -> usize {
    let mut checked = 0;
    for info in list {
        let name = info.name;
        let keys = info.keys();
        for (i, key) in keys.iter().enumerate() {
            assert!(!keys[..i].contains(key), "{name} lists {key} twice");
        }
        make(name, &AgentParams::new()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut all = AgentParams::new();
        for p in info.params {
            let one = AgentParams::new().with(p.key, p.default_value());
            make(name, &one).unwrap_or_else(|e| panic!("{name}: {} = {}: {e}", p.key, p.default));
            all.insert(p.key, p.default_value());
            checked += 1;
        }
        make(name, &all).unwrap_or_else(|e| panic!("{name}, every default: {e}"));
        let others = list.iter().flat_map(|a| a.keys());
        for key in others.chain([UNLISTED]).filter(|k| info.param(k).is_none()) {
            let p = AgentParams::new().with(key, ParamValue::Int(1));
            match make(name, &p) {
                Err(AgentError::UnknownParam { key: k, .. }) if k == key => {}
                Err(e) => panic!("{name} with {key}: {e}"),
                Ok(()) => panic!("{name} accepts {key}, which it does not list"),
            }
        }
    }
    checked
}

#[test]
fn bait_registry() {
    let n = check_registry(bait::AGENTS, |name, p| bait::make(name, p, 0).map(drop));
    assert_eq!(n, 21);
}

#[test]
fn snake_registry() {
    let n = check_registry(snake::AGENTS, |name, p| snake::make(name, p, 0).map(drop));
    assert_eq!(n, 3);
}

#[test]
fn xiangqi_registry() {
    let n = check_registry(xiangqi::AGENTS, |name, p| {
        xiangqi::make(name, p, 0).map(drop)
    });
    assert_eq!(n, 4);
}

#[test]
fn supply_registry() {
    let n = check_registry(supply::AGENTS, |name, p| supply::make(name, p, 0).map(drop));
    assert_eq!(n, 0);
}

#[test]
fn generic_registry() {
    let n = check_registry(generic::AGENTS, |name, p| {
        generic::make::<Bait>(name, p, 0).map(drop)
    });
    assert_eq!(n, 5);
    // `uct`'s defaults are its configuration's.
    let uct = generic::AGENTS.iter().find(|a| a.name == "uct").unwrap();
    let default = generic::uct_config(&AgentParams::new()).unwrap();
    for p in uct.params {
        let one = AgentParams::new().with(p.key, p.default_value());
        let given = generic::uct_config(&one).unwrap();
        assert_eq!(
            given, default,
            "uct: {} is not {} by default",
            p.key, p.default
        );
    }
}

#[test]
fn fixtures_registry() {
    let n = check_registry(fixtures::FIXTURES, |name, p| {
        fixtures::make::<Bait>(name, p).map(drop)
    });
    assert_eq!(n, 4);
}

#[test]
fn sokoban_registry() {
    let n = check_registry(sokoban::AGENTS, |name, p| {
        sokoban::make(name, p, 0).map(drop)
    });
    assert_eq!(n, 28 + 3 + 4 + 2 + 3 + 22);
}

#[test]
fn vgdl_registry() {
    let n = check_registry(vgdl::AGENTS, |name, p| vgdl::make(name, p, 0).map(drop));
    assert_eq!(n, 3);
}
