//! Run-length encoding, shared by board lines (`4#|#.@-#`) and LURD
//! solutions (`3r2U`): a decimal count before a character repeats it, and a
//! count before a parenthesised group repeats the group (`2(lu)` = `lulu`).

/// How deep parentheses may nest (deeper input is an error, not a stack
/// overflow).
const MAX_DEPTH: usize = 32;

/// Expand the run-length encoding of `text`. The output may not exceed
/// `limit` characters. On error: the 1-based column (in characters) and a
/// message.
pub(crate) fn expand(text: &str, limit: usize) -> Result<String, (usize, String)> {
    expand_into(text, limit, String::new())
}

/// Expand `text` into any [`Out`]: the same grammar, limit and errors as
/// [`expand`], but a LURD solution can be expanded straight into moves.
pub(crate) fn expand_into<O: Out>(
    text: &str,
    limit: usize,
    mut out: O,
) -> Result<O, (usize, String)> {
    let chars: Vec<char> = text.chars().collect();
    let mut pos = 0;
    seq(&chars, &mut pos, 0, limit, &mut out)?;
    if pos < chars.len() {
        // `seq` stops only at the end or at a `)` it did not open.
        return Err((pos + 1, "`)` without a matching `(`".to_string()));
    }
    Ok(out)
}

/// Where an expansion goes. Repeats are copied in bulk (doubling copies),
/// never one element at a time: a count of ten million costs a few
/// `memcpy`s.
pub(crate) trait Out: Sized {
    /// The length so far, as the limit counts it.
    fn len(&self) -> usize;
    /// An empty `Out` for a group that starts at the current end.
    fn group(&self) -> Self;
    /// The length that `n` copies of `c` add.
    fn run_len(c: char, n: usize) -> usize;
    /// Append `n` copies of `c`.
    fn push_run(&mut self, c: char, n: usize);
    /// Append `n` copies of a group expanded into its own `Out`.
    fn push_group(&mut self, group: &Self, n: usize);
}

impl Out for String {
    fn len(&self) -> usize {
        String::len(self)
    }

    fn group(&self) -> Self {
        String::new()
    }

    fn run_len(c: char, n: usize) -> usize {
        n.saturating_mul(c.len_utf8())
    }

    fn push_run(&mut self, c: char, n: usize) {
        let mut buf = [0u8; 4];
        self.push_str(&c.encode_utf8(&mut buf).repeat(n));
    }

    fn push_group(&mut self, group: &Self, n: usize) {
        self.push_str(&group.repeat(n));
    }
}

/// Append `n` copies of `part` to `v`, doubling what is already copied.
pub(crate) fn push_repeated<T: Copy>(v: &mut Vec<T>, part: &[T], n: usize) {
    let total = part.len().saturating_mul(n);
    if total == 0 {
        return;
    }
    let start = v.len();
    v.reserve(total);
    v.extend_from_slice(part);
    while v.len() - start < total {
        let have = v.len() - start;
        v.extend_from_within(start..start + have.min(total - have));
    }
}

/// Whether `text` uses run-length encoding at all (digits or parentheses).
pub(crate) fn is_encoded(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_ascii_digit() || c == '(' || c == ')')
}

fn too_long(col: usize, limit: usize) -> (usize, String) {
    (
        col,
        format!("run-length expansion is longer than {limit} characters"),
    )
}

/// Expand a sequence until the end of the text or a `)` (not consumed).
fn seq<O: Out>(
    chars: &[char],
    pos: &mut usize,
    depth: usize,
    limit: usize,
    out: &mut O,
) -> Result<(), (usize, String)> {
    while *pos < chars.len() {
        let start = *pos;
        let mut count: Option<usize> = None;
        while *pos < chars.len() && chars[*pos].is_ascii_digit() {
            let d = chars[*pos] as usize - '0' as usize;
            let c = count.unwrap_or(0);
            count = Some(
                c.checked_mul(10)
                    .and_then(|c| c.checked_add(d))
                    .filter(|&c| c <= limit)
                    .ok_or_else(|| too_long(start + 1, limit))?,
            );
            *pos += 1;
        }
        if count == Some(0) {
            return Err((start + 1, "a run length must be at least 1".to_string()));
        }
        let n = count.unwrap_or(1);
        let Some(&c) = chars.get(*pos) else {
            return Err((
                start + 1,
                "a run length must be followed by a character or a `(` group".to_string(),
            ));
        };
        match c {
            ')' => {
                if count.is_some() {
                    return Err((
                        *pos + 1,
                        "a run length must be followed by a character or a `(` group".to_string(),
                    ));
                }
                return Ok(());
            }
            '(' => {
                if depth >= MAX_DEPTH {
                    return Err((
                        *pos + 1,
                        format!("parentheses nested deeper than {MAX_DEPTH}"),
                    ));
                }
                let open = *pos;
                *pos += 1;
                let mut group = out.group();
                seq(chars, pos, depth + 1, limit, &mut group)?;
                if chars.get(*pos) != Some(&')') {
                    return Err((open + 1, "`(` without a matching `)`".to_string()));
                }
                *pos += 1;
                if group.len().saturating_mul(n) + out.len() > limit {
                    return Err(too_long(start + 1, limit));
                }
                out.push_group(&group, n);
            }
            _ => {
                *pos += 1;
                if out.len().saturating_add(O::run_len(c, n)) > limit {
                    return Err(too_long(start + 1, limit));
                }
                out.push_run(c, n);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_groups_and_errors() {
        assert_eq!(expand("4#|#.@-#", 100).unwrap(), "####|#.@-#");
        assert_eq!(expand("3(.$2(+*))", 100).unwrap(), ".$+*+*.$+*+*.$+*+*");
        assert_eq!(expand("3r2U", 100).unwrap(), "rrrUU");
        assert_eq!(expand("12#", 100).unwrap().len(), 12);
        assert_eq!(expand("", 100).unwrap(), "");
        assert_eq!(expand("3", 100).unwrap_err().0, 1);
        assert_eq!(expand("ab0c", 100).unwrap_err().0, 3);
        assert_eq!(expand("a(b", 100).unwrap_err().0, 2);
        assert_eq!(expand("ab)", 100).unwrap_err().0, 3);
        assert_eq!(expand("2)", 100).unwrap_err().0, 2);
        assert!(expand("99999999999999999999999#", 100).is_err());
        assert!(expand("9(9(9(9(9(9(#))))))", 1000).is_err());
        let deep = "(".repeat(40) + "#" + &")".repeat(40);
        assert!(expand(&deep, 1000).is_err());
        assert!(is_encoded("3#") && is_encoded("(#)") && !is_encoded("#@$"));
        assert_eq!(expand("2é3(ab)", 100).unwrap(), "ééababab");
        assert!(expand("3é", 5).is_err() && expand("3é", 6).is_ok());
    }

    #[test]
    fn repeats_are_copied_whole() {
        for n in [0, 1, 2, 3, 7, 8, 9, 1000, 1023] {
            for part in [&[][..], &[1u8][..], &[1, 2, 3][..]] {
                let mut v = vec![9u8];
                push_repeated(&mut v, part, n);
                let want: Vec<u8> = std::iter::once(9)
                    .chain(std::iter::repeat_n(part, n).flatten().copied())
                    .collect();
                assert_eq!(v, want, "{part:?} x {n}");
            }
        }
        let long = expand("9999999r", 10_000_000).unwrap();
        assert_eq!(long.len(), 9_999_999);
        assert!(long.bytes().all(|b| b == b'r'));
    }
}
