//! Machine-wide allocation of the unprivileged uids that sandboxed agents
//! run under when arena runs as root.
//!
//! Every uid of the range [`UID_BASE`]`..`[`UID_BASE`]` + `[`UID_COUNT`] has a
//! lock file `<dir>/<uid>.lock` (`dir`: `/run/arena-uids`, or
//! `/tmp/arena-uids` where `/run` is not writable). An agent's uid is leased
//! by taking an exclusive `flock` on its file, held for the life of the agent
//! (the [`UidLease`]); a uid is skipped while another arena process holds its
//! lock, or while any process (zombies included) still runs under it. So no
//! two live agents on the machine share a uid, across concurrent arena runs,
//! and a uid is not reused while something of a previous agent survives.
//! The kernel drops a `flock` when its holder dies, so a killed arena leaves
//! no stale lease.

use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

/// First uid of the range.
pub const UID_BASE: u32 = 61000;
/// Number of uids in the range.
pub const UID_COUNT: u32 = 1000;

/// Why no uid could be leased.
#[derive(Debug, thiserror::Error)]
pub enum UidError {
    /// Neither lock folder could be created.
    #[error("cannot create a folder for the uid locks (/run/arena-uids, /tmp/arena-uids): {0}")]
    NoLockDir(std::io::Error),
    /// Every uid of the range is in use.
    #[error("all {UID_COUNT} sandbox uids ({UID_BASE}..) are in use")]
    Exhausted,
}

/// A uid held for one agent; the lock is released when this is dropped.
#[derive(Debug)]
pub struct UidLease {
    uid: u32,
    _lock: File,
}

impl UidLease {
    /// The leased uid (also used as the gid).
    pub fn uid(&self) -> u32 {
        self.uid
    }
}

fn lock_dir() -> Result<PathBuf, UidError> {
    use std::os::unix::fs::DirBuilderExt;
    let mut last = None;
    for d in ["/run/arena-uids", "/tmp/arena-uids"] {
        let p = PathBuf::from(d);
        match std::fs::DirBuilder::new().mode(0o700).create(&p) {
            Ok(()) => return Ok(p),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && p.is_dir() => return Ok(p),
            Err(e) => last = Some(e),
        }
    }
    Err(UidError::NoLockDir(
        last.unwrap_or_else(|| std::io::Error::other("no folder")),
    ))
}

/// Whether any process (zombies included) runs under `uid`.
pub fn uid_has_processes(uid: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(d) = std::fs::read_dir("/proc") else {
        return false;
    };
    d.filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .any(|e| e.metadata().is_ok_and(|m| m.uid() == uid))
}

/// Lease a uid no other live agent on this machine uses (see the module
/// documentation). Tries the range round-robin from where this process
/// left off.
pub fn lease() -> Result<UidLease, UidError> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let dir = lock_dir()?;
    for _ in 0..UID_COUNT {
        let uid = UID_BASE + NEXT.fetch_add(1, Ordering::Relaxed) % UID_COUNT;
        let Ok(file) = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(format!("{uid}.lock")))
        else {
            continue;
        };
        if rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_err() {
            continue;
        }
        if uid_has_processes(uid) {
            continue;
        }
        return Ok(UidLease { uid, _lock: file });
    }
    Err(UidError::Exhausted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leases_are_distinct_while_held_and_reusable_after() {
        let a = lease().unwrap();
        let b = lease().unwrap();
        assert_ne!(a.uid(), b.uid());
        assert!((UID_BASE..UID_BASE + UID_COUNT).contains(&a.uid()));
        // A lock held by another open file description blocks the uid.
        let dir = lock_dir().unwrap();
        let f = std::fs::File::open(dir.join(format!("{}.lock", a.uid()))).unwrap();
        assert!(
            rustix::fs::flock(&f, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_err()
        );
        let uid = a.uid();
        drop(a);
        assert!(
            rustix::fs::flock(&f, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_ok()
        );
        let _ = uid;
        drop(b);
    }
}
