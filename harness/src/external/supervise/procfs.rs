//! Process scans over `/proc`: the members of a process group, and the
//! processes marked with a string (how tests check that nothing leaked).

/// Parse `/proc/<pid>/stat`: (state, process group).
fn stat_of(pid: i32) -> Option<(char, i32)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &s[s.rfind(')')? + 1..];
    let mut f = rest.split_whitespace();
    let state = f.next()?.chars().next()?;
    let _ppid = f.next()?;
    let pgrp = f.next()?.parse().ok()?;
    Some((state, pgrp))
}

fn all_pids() -> Vec<i32> {
    std::fs::read_dir("/proc")
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Live (non-zombie) members of process group `pgid`.
pub fn group_members(pgid: i32) -> Vec<i32> {
    all_pids()
        .into_iter()
        .filter(|&p| matches!(stat_of(p), Some((st, g)) if g == pgid && st != 'Z' && st != 'X'))
        .collect()
}

/// Live processes (other than the caller) whose command line or environment
/// contains `marker`: for tests that check no agent process leaked.
pub fn processes_with_marker(marker: &str) -> Vec<i32> {
    let me = std::process::id() as i32;
    let m = marker.as_bytes();
    let has = |bytes: &[u8]| bytes.windows(m.len()).any(|w| w == m);
    all_pids()
        .into_iter()
        .filter(|&p| p != me)
        .filter(|&p| matches!(stat_of(p), Some((st, _)) if st != 'Z' && st != 'X'))
        .filter(|&p| {
            std::fs::read(format!("/proc/{p}/cmdline"))
                .map(|b| has(&b))
                .unwrap_or(false)
                || std::fs::read(format!("/proc/{p}/environ"))
                    .map(|b| has(&b))
                    .unwrap_or(false)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn marker_scan_finds_live_processes_and_not_dead_ones() {
        let marker = format!("arena-marker-test-{}", std::process::id());
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .env("ARENA_TEST_MARKER", &marker)
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let until = Instant::now() + Duration::from_secs(2);
        let mut found = processes_with_marker(&marker);
        while !found.contains(&pid) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
            found = processes_with_marker(&marker);
        }
        assert!(found.contains(&pid), "{found:?} lacks {pid}");
        child.kill().unwrap();
        child.wait().unwrap();
        let left = processes_with_marker(&marker);
        assert!(!left.contains(&pid), "{left:?}");
    }
}
