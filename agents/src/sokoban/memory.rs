//! What a solve's tables take in memory ([`Footprint`]), so that a
//! [`super::Solver`] can stop before they pass its budget
//! ([`super::SolveOptions::max_memory_mb`]).
//!
//! The tables grow by doubling, so a budget checked only against the
//! bytes held would be passed by up to one doubling of the largest table
//! between two looks. A footprint also counts what each table that is
//! near its capacity would add when it grows, and the solver adds room
//! for the states that may come before the next look ([`margin`]): it
//! stops when the bytes held and all that together would pass the budget.

use std::iter::Sum;
use std::mem::size_of;
use std::ops::Add;

/// States a solve's searches may store between two looks of its solver
/// (every [`super::POLL`] expansions): room for 1,024 children an
/// expansion, more than a box move search stores (about 90 on the
/// Sasquatch sets).
pub(crate) const ROOM: usize = 1 << 16;

/// The bytes that [`ROOM`] new states of `state_bytes` each may take
/// beyond the doubling of the tables near their capacity: a vector of
/// capacity `c` holding `n <= c` that gets `r` more grows to at most
/// `2 (n + r)`, so it adds at most `c + 2 r`.
pub(crate) fn margin(state_bytes: usize) -> Footprint {
    Footprint {
        held: 0,
        growth: ROOM.saturating_mul(state_bytes).saturating_mul(2),
    }
}

/// The bytes of a solve's tables: held now, and what the tables near their
/// capacity would add when they grow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Footprint {
    /// Bytes allocated now.
    pub held: usize,
    /// Bytes that the tables with less than [`ROOM`] states of room left
    /// would add by doubling (the old buffer is counted in `held`; more
    /// than doubling is in the solver's [`margin`]).
    pub growth: usize,
}

impl Footprint {
    /// A vector of `len` elements of `size` bytes in a buffer of `cap`,
    /// that may get `room` more elements before the next look.
    pub fn of(len: usize, cap: usize, size: usize, room: usize) -> Footprint {
        let grows = len.saturating_add(room) > cap;
        Footprint {
            held: cap.saturating_mul(size),
            growth: if grows { cap.saturating_mul(size) } else { 0 },
        }
    }

    /// [`Footprint::of`] a vector.
    pub fn of_vec<T>(v: &Vec<T>, room: usize) -> Footprint {
        Footprint::of(v.len(), v.capacity(), size_of::<T>(), room)
    }

    /// The bytes held and the growth together: what the tables may take
    /// before the next look.
    pub fn total(self) -> usize {
        self.held.saturating_add(self.growth)
    }
}

impl Add for Footprint {
    type Output = Footprint;

    fn add(self, o: Footprint) -> Footprint {
        Footprint {
            held: self.held.saturating_add(o.held),
            growth: self.growth.saturating_add(o.growth),
        }
    }
}

impl Sum for Footprint {
    fn sum<I: Iterator<Item = Footprint>>(iter: I) -> Footprint {
        iter.fold(Footprint::default(), Add::add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_counts_its_buffer_and_its_doubling_when_near_full() {
        let mut v: Vec<u64> = Vec::with_capacity(100);
        v.extend(0..10);
        // Room for 90 more: no growth before the next look if at most 90
        // come.
        let fp = Footprint::of_vec(&v, 90);
        assert_eq!(
            fp,
            Footprint {
                held: 800,
                growth: 0
            }
        );
        // 91 would make it double: its capacity again.
        let fp = Footprint::of_vec(&v, 91);
        assert_eq!(
            fp,
            Footprint {
                held: 800,
                growth: 800
            }
        );
        // More than its capacity to come: its doubling here, the rest in
        // the margin.
        assert_eq!(Footprint::of_vec(&v, 1000).total(), 1600);
        assert_eq!(margin(40).growth, 2 * ROOM * 40);
        // Sums add both parts.
        let two: Footprint = [fp, fp].into_iter().sum();
        assert_eq!(
            two,
            Footprint {
                held: 1600,
                growth: 1600
            }
        );
    }
}
