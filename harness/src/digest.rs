//! The one content hash of the harness: FNV-1a 64, as 16 hex digits
//! (config fingerprints, agents' identities, submissions' digests,
//! pseudonyms). Not cryptographic: it tells versions apart, it does not
//! resist forgery.

/// FNV-1a 64 of `text`, as 16 lowercase hex digits.
pub fn hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}
