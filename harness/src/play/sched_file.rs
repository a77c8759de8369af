//! A thread's `/proc/self/task/<tid>/schedstat`, opened once and read again
//! with `pread` at each look: its CPU time and run delay so far, for about
//! a microsecond (opening the file anew costs a path walk each time).

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::time::Duration;

/// An open `schedstat` of one thread of this process.
#[derive(Debug)]
pub struct SchedFile {
    file: File,
}

impl SchedFile {
    /// Open the `schedstat` of this process's thread `tid` (`None` where
    /// the kernel does not keep it, or the thread is gone).
    pub fn open(tid: i32) -> Option<SchedFile> {
        File::open(format!("/proc/self/task/{tid}/schedstat"))
            .ok()
            .map(|file| SchedFile { file })
    }

    /// The thread's CPU time and run delay so far (`None` where unreadable,
    /// e.g. the thread has ended).
    pub fn read(&self) -> Option<(Duration, Duration)> {
        let mut buf = [0u8; 96];
        let n = self.file.read_at(&mut buf, 0).ok()?;
        parse(std::str::from_utf8(&buf[..n]).ok()?)
    }
}

/// The first two fields of a `schedstat` line (ns on the CPU, ns waiting
/// for it).
fn parse(text: &str) -> Option<(Duration, Duration)> {
    let mut f = text.split_ascii_whitespace();
    let ran: u64 = f.next()?.parse().ok()?;
    let waited: u64 = f.next()?.parse().ok()?;
    Some((Duration::from_nanos(ran), Duration::from_nanos(waited)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reopened_read_sees_the_threads_cpu_time_grow_and_agrees_with_a_fresh_read() {
        let tid = crate::play::timing::run_delay::this_thread_id();
        let f = SchedFile::open(tid).expect("schedstat (Linux)");
        let (ran0, _) = f.read().unwrap();
        // 20 ms of this thread's CPU time, however loaded the machine.
        crate::play::timing::spin_cpu(Duration::from_millis(20));
        let (ran1, waited1) = f.read().unwrap();
        assert!(
            ran1 >= ran0 + Duration::from_millis(19),
            "{ran0:?} {ran1:?}"
        );
        let (fresh_ran, _) = crate::play::timing::run_delay::of_own_thread(tid).unwrap();
        assert!(fresh_ran >= ran1);
        let fresh_waited = crate::play::timing::run_delay::of_this_thread().unwrap();
        assert!(fresh_waited >= waited1);
        assert_eq!(
            parse("12 34 5\n"),
            Some((Duration::from_nanos(12), Duration::from_nanos(34)))
        );
        assert_eq!(parse("garbage"), None);
    }
}
