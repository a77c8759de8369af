//! A fixed-capacity hash table from 64-bit position keys ([`Bait::key`]) to
//! `u32` values: the visited sets and transposition tables of the Bait
//! planners.
//!
//! Why not `std::collections::HashMap`: a search must never stall inside an
//! act, and a growing `HashMap` rehashes everything when it doubles (tens of
//! milliseconds at a few million entries, more than a whole act). This table
//! is allocated once at its final size with `calloc` (untouched pages cost
//! nothing), never rehashes, is cleared in O(1) by bumping a generation
//! stamp, and reports [`Insert::Full`] when its entry cap is reached so the
//! search can degrade instead of growing without bound. The keys are already
//! uniformly distributed (Zobrist), so they index the table directly with
//! linear probing at a load factor of at most one half.
//!
//! [`Bait::key`]: games::bait::Bait::key

/// What [`KeyTable::insert`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insert {
    /// The key was new and is now stored with the value.
    New,
    /// The key was already there, with this value (left unchanged).
    Seen(u32),
    /// The key is new but the table holds its maximum number of entries.
    Full,
}

/// A fixed-capacity map `u64 → u32` (see the module docs).
#[derive(Debug)]
pub struct KeyTable {
    /// Interleaved `[key, gen << 32 | value]` pairs; a slot is occupied when
    /// its generation is the current one.
    slots: Vec<u64>,
    mask: usize,
    len: usize,
    max_len: usize,
    /// The `max_len` the table was made with.
    limit: usize,
    gen: u32,
}

impl KeyTable {
    /// A table that holds up to `max_len` entries (at least 16).
    pub fn new(max_len: usize) -> Self {
        let max_len = max_len.max(16);
        let cap = (max_len * 2).next_power_of_two();
        KeyTable {
            slots: vec![0u64; cap * 2],
            mask: cap - 1,
            len: 0,
            max_len,
            limit: max_len,
            gen: 1,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The most entries the table takes.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// Remove every entry in O(1).
    pub fn clear(&mut self) {
        self.len = 0;
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            // After 2^32 clears the stamps could repeat: wipe once.
            self.slots.iter_mut().for_each(|s| *s = 0);
            self.gen = 1;
        }
    }

    /// The slot index of `key`: `Ok(i)` if present, `Err(i)` the free slot
    /// where it would go.
    #[inline]
    fn find(&self, key: u64) -> Result<usize, usize> {
        let mut i = (key ^ (key >> 32)) as usize & self.mask;
        loop {
            let meta = self.slots[2 * i + 1];
            if (meta >> 32) as u32 != self.gen {
                return Err(i);
            }
            if self.slots[2 * i] == key {
                return Ok(i);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The value stored for `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u32> {
        self.find(key).ok().map(|i| self.slots[2 * i + 1] as u32)
    }

    /// Store `key → value` if `key` is new and there is room.
    #[inline]
    pub fn insert(&mut self, key: u64, value: u32) -> Insert {
        match self.find(key) {
            Ok(i) => Insert::Seen(self.slots[2 * i + 1] as u32),
            Err(_) if self.len >= self.max_len => Insert::Full,
            Err(i) => {
                self.slots[2 * i] = key;
                self.slots[2 * i + 1] = (self.gen as u64) << 32 | value as u64;
                self.len += 1;
                Insert::New
            }
        }
    }

    /// Remove every entry in O(1) and take at most `len` entries from now
    /// on (at most the `max_len` the table was made with), using only the
    /// part of the table that needs: a search that expects few entries
    /// touches few pages of memory, and one that expects more grows into
    /// the table without allocating (nothing is rehashed: it is empty).
    pub fn reset(&mut self, len: usize) {
        self.clear();
        let full = self.slots.len() / 2;
        self.max_len = len.clamp(16, self.limit);
        self.mask = (self.max_len * 2).next_power_of_two().min(full) - 1;
    }

    /// Replace the value of a `key` already in the table; returns whether it was there.
    #[inline]
    pub fn set(&mut self, key: u64, value: u32) -> bool {
        match self.find(key) {
            Ok(i) => {
                self.slots[2 * i + 1] = (self.gen as u64) << 32 | value as u64;
                true
            }
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_set_clear_and_the_cap() {
        let mut t = KeyTable::new(20);
        assert_eq!(t.max_len(), 20);
        // Keys that collide on the low bits probe linearly.
        for k in 0..20u64 {
            assert_eq!(t.insert(k << 40, k as u32), Insert::New);
        }
        assert_eq!(t.len(), 20);
        assert_eq!(t.insert(5 << 40, 99), Insert::Seen(5));
        assert_eq!(t.insert(77, 1), Insert::Full);
        assert_eq!(t.get(77), None);
        assert!(t.set(5 << 40, 99));
        assert!(!t.set(78, 1));
        assert_eq!(t.get(5 << 40), Some(99));
        // reset: a smaller part of the table, then all of it again.
        t.reset(3);
        assert!(t.is_empty());
        assert_eq!(t.max_len(), 16);
        for k in 0..16u64 {
            assert_eq!(t.insert(k << 40 | 1, k as u32), Insert::New);
        }
        assert_eq!(t.insert(99, 1), Insert::Full);
        t.reset(1 << 40);
        assert_eq!(t.max_len(), 20, "at most what the table was made with");
        for k in 0..20u64 {
            assert_eq!(t.insert(k << 40 | 1, k as u32), Insert::New);
            assert_eq!(t.get(k << 40 | 1), Some(k as u32));
        }
        assert_eq!(t.insert(99, 1), Insert::Full);
        t.clear();
        assert!(t.is_empty());
        assert_eq!(t.get(5 << 40), None);
        assert_eq!(t.insert(0, 3), Insert::New);
        assert_eq!(t.get(0), Some(3));
    }
}
