//! [`Batched`]: a channel's receiving end that collects messages in
//! batches while they keep coming, so that their senders seldom have to
//! wake it.
//!
//! A sender wakes a receiver only when the receiver is blocked waiting
//! (a futex wake, and a context switch on the receiver's side). A run's
//! thread, or the replay writer's, that handles each message faster than
//! the next one comes would block, and be woken, once per message. Instead,
//! once a message has come, [`Batched::recv`] takes what is queued without
//! blocking, and when nothing is, sleeps [`POLL`] (no sender wakes a
//! sleeper) and takes what came meanwhile; only when that finds nothing
//! either does it block until a sender wakes it. A message then waits at
//! most about [`POLL`] longer than it would have. [`Batched::drained`]
//! says when a batch is over (nothing is queued), which is when a reader
//! that buffers its output writes it.

use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

/// How long the receiver sleeps between batches while messages keep
/// coming.
pub const POLL: Duration = Duration::from_millis(1);

/// The receiving end of a channel, read in batches (see the module doc).
pub struct Batched<T> {
    rx: Receiver<T>,
    /// A message taken by [`Batched::drained`], given out next.
    next: Option<T>,
    /// Whether the last call received a message (then an empty queue is
    /// slept on before it is blocked on).
    busy: bool,
}

impl<T> Batched<T> {
    /// Read `rx` in batches.
    pub fn new(rx: Receiver<T>) -> Self {
        Batched {
            rx,
            next: None,
            busy: false,
        }
    }

    /// The next message; after `timeout` without one,
    /// [`RecvTimeoutError::Timeout`] (`None`: wait for as long as it
    /// takes); [`RecvTimeoutError::Disconnected`] once every sender is gone
    /// and the queue is empty.
    pub fn recv(&mut self, timeout: Option<Duration>) -> Result<T, RecvTimeoutError> {
        if let Some(m) = self.take()? {
            return Ok(m);
        }
        if std::mem::take(&mut self.busy) {
            std::thread::sleep(POLL);
            if let Some(m) = self.take()? {
                return Ok(m);
            }
        }
        let m = match timeout {
            Some(t) => self.rx.recv_timeout(t)?,
            None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected)?,
        };
        self.busy = true;
        Ok(m)
    }

    /// Whether nothing is queued now (a batch is over); a message that is
    /// queued stays the next one [`Batched::recv`] gives.
    pub fn drained(&mut self) -> bool {
        if self.next.is_none() {
            self.next = self.rx.try_recv().ok();
        }
        self.next.is_none()
    }

    /// A queued message, if any.
    fn take(&mut self) -> Result<Option<T>, RecvTimeoutError> {
        if let Some(m) = self.next.take() {
            self.busy = true;
            return Ok(Some(m));
        }
        match self.rx.try_recv() {
            Ok(m) => {
                self.busy = true;
                Ok(Some(m))
            }
            Err(TryRecvError::Empty) => Ok(None),
            Err(TryRecvError::Disconnected) => Err(RecvTimeoutError::Disconnected),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Instant;

    #[test]
    fn every_message_comes_once_in_order_and_the_end_is_seen() {
        let (tx, rx) = mpsc::channel();
        let sender = std::thread::spawn(move || {
            for i in 0..10_000u32 {
                tx.send(i).unwrap();
                if i % 1000 == 0 {
                    std::thread::sleep(Duration::from_millis(3));
                }
            }
        });
        let mut b = Batched::new(rx);
        let mut got: Vec<u32> = Vec::new();
        while let Ok(m) = b.recv(None) {
            got.push(m);
        }
        sender.join().unwrap();
        assert_eq!(got, (0..10_000).collect::<Vec<_>>());
    }

    #[test]
    fn drained_says_whether_a_message_is_queued_and_keeps_it_next() {
        let (tx, rx) = mpsc::channel();
        let mut b = Batched::new(rx);
        assert!(b.drained());
        tx.send(1).unwrap();
        tx.send(2).unwrap();
        assert!(!b.drained());
        assert!(!b.drained());
        assert_eq!(b.recv(None), Ok(1));
        assert!(!b.drained());
        assert_eq!(b.recv(None), Ok(2));
        assert!(b.drained());
        drop(tx);
        assert!(b.drained());
        assert_eq!(b.recv(None), Err(RecvTimeoutError::Disconnected));
    }

    #[test]
    fn an_idle_receiver_times_out_and_a_later_message_still_comes() {
        let (tx, rx) = mpsc::channel();
        let mut b = Batched::new(rx);
        tx.send(1).unwrap();
        assert_eq!(b.recv(Some(Duration::from_millis(5))), Ok(1));
        // Busy: the empty queue is slept on, then blocked on until the
        // timeout.
        let t = Instant::now();
        assert_eq!(
            b.recv(Some(Duration::from_millis(5))),
            Err(RecvTimeoutError::Timeout)
        );
        assert!(t.elapsed() >= POLL + Duration::from_millis(5));
        let late = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            tx.send(2).unwrap();
        });
        assert_eq!(b.recv(None), Ok(2));
        late.join().unwrap();
        assert_eq!(b.recv(None), Err(RecvTimeoutError::Disconnected));
    }
}
