//! Reading supply-maze files: one or more instances, integer or character
//! form (the format is documented in the parent module).

use super::{Cell, SupplyMap, MAX_CELLS};
use crate::grid::ParseError;

/// One instance read from a file, with where it was and its comments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The map.
    pub map: SupplyMap,
    /// 1-based line of its header `M N T`.
    pub line: usize,
    /// The comment lines just before the header (without the leading `;`,
    /// trimmed), e.g. `status: solvable 23` written by the generator.
    pub comments: Vec<String>,
}

impl Instance {
    /// The value of a `key: value` comment, e.g. `status`.
    pub fn comment_value(&self, key: &str) -> Option<&str> {
        self.comments.iter().find_map(|c| {
            let (k, v) = c.split_once(':')?;
            (k.trim() == key).then(|| v.trim())
        })
    }
}

/// A blank-separated token with its 1-based column (in characters).
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, column)
    let mut col = 0;
    for (b, ch) in line.char_indices() {
        col += 1;
        if ch.is_whitespace() {
            if let Some((sb, sc)) = start.take() {
                out.push((sc, &line[sb..b]));
            }
        } else if start.is_none() {
            start = Some((b, col));
        }
    }
    if let Some((sb, sc)) = start {
        out.push((sc, &line[sb..]));
    }
    out
}

fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with(';')
}

/// Parse the header `M N T` at line `ln`.
fn header(line: &str, ln: usize) -> Result<(usize, usize, u32), ParseError> {
    let toks = tokens(line);
    let what = ["rows M", "columns N", "food capacity T"];
    if toks.len() != 3 {
        let col = toks.get(3).map(|t| t.0).unwrap_or(0);
        return Err(ParseError::new(
            ln,
            col,
            format!(
                "expected an instance header `M N T` (rows, columns, food capacity), found {:?}",
                line.trim()
            ),
        ));
    }
    let mut v = [0u64; 3];
    for (k, &(col, t)) in toks.iter().enumerate() {
        v[k] = t.parse::<u32>().map_err(|_| {
            ParseError::new(
                ln,
                col,
                format!(
                    "{} must be a non-negative integer (at most {}), found `{t}`",
                    what[k],
                    u32::MAX
                ),
            )
        })? as u64;
    }
    let (m, n, t) = (v[0] as usize, v[1] as usize, v[2] as u32);
    if m == 0 || n == 0 {
        let col = if m == 0 { toks[0].0 } else { toks[1].0 };
        return Err(ParseError::new(
            ln,
            col,
            "rows M and columns N must be at least 1",
        ));
    }
    if (m as u64) * (n as u64) > MAX_CELLS as u64 {
        return Err(ParseError::new(
            ln,
            toks[0].0,
            format!("{m}x{n} is more than {MAX_CELLS} cells"),
        ));
    }
    if t < 1 {
        return Err(ParseError::new(
            ln,
            toks[2].0,
            "food capacity T must be at least 1",
        ));
    }
    Ok((m, n, t))
}

/// Parse every instance of `text` (see the module docs of
/// [`crate::supply`]). Errors name the line and column.
pub fn parse_instances(text: &str) -> Result<Vec<Instance>, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).trim_end())
        .collect();
    let mut out = Vec::new();
    let mut comments = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim().is_empty() {
            i += 1;
            continue;
        }
        if is_comment(line) {
            comments.push(line.trim_start()[1..].trim().to_string());
            i += 1;
            continue;
        }
        let hl = i + 1;
        let (m, n, t) = header(line, hl)?;
        let mut cells = Vec::with_capacity(m * n);
        // The form is decided by the first row: a digit first → integer form.
        let mut int_form: Option<bool> = None;
        let mut start: Option<(usize, usize)> = None;
        let mut exit: Option<(usize, usize)> = None;
        for r in 0..m {
            let ln = hl + 1 + r;
            let row = match lines.get(hl + r) {
                Some(l) if !l.trim().is_empty() => *l,
                _ => {
                    return Err(ParseError::new(
                        ln,
                        0,
                        format!(
                            "instance at line {hl} has only {r} of its {m} rows (header `M N T` says M = {m})"
                        ),
                    ))
                }
            };
            let ints = *int_form
                .get_or_insert_with(|| row.trim_start().starts_with(|c: char| c.is_ascii_digit()));
            let mut put = |cell: Cell, col: usize, r: usize, c: usize| -> Result<(), ParseError> {
                let slot = match cell {
                    Cell::Start => Some((&mut start, "start")),
                    Cell::Exit => Some((&mut exit, "exit")),
                    _ => None,
                };
                if let Some((slot, name)) = slot {
                    if let Some((pl, pc)) = *slot {
                        return Err(ParseError::new(
                            ln,
                            col,
                            format!(
                                "second {name} (row {}, column {}); the first is at line {pl}, column {pc}",
                                r + 1,
                                c + 1
                            ),
                        ));
                    }
                    *slot = Some((ln, col));
                }
                cells.push(cell);
                Ok(())
            };
            let count;
            if ints {
                let toks = tokens(row);
                count = toks.len();
                for (c, &(col, tok)) in toks.iter().enumerate() {
                    if c >= n {
                        return Err(ParseError::new(
                            ln,
                            col,
                            format!(
                                "row has {count} cells, expected N = {n} (header at line {hl})"
                            ),
                        ));
                    }
                    let cell = Cell::from_code(tok).ok_or_else(|| {
                        ParseError::new(
                            ln,
                            col,
                            format!(
                                "unknown cell `{tok}`; the integer form (decided by the instance's first row) uses 0 floor, 1 wall, 2 supply, 3 start, 4 exit"
                            ),
                        )
                    })?;
                    put(cell, col, r, c)?;
                }
            } else {
                count = row.chars().count();
                for (c, ch) in row.chars().enumerate() {
                    if c >= n {
                        return Err(ParseError::new(
                            ln,
                            c + 1,
                            format!(
                                "row has {count} cells, expected N = {n} (header at line {hl})"
                            ),
                        ));
                    }
                    let cell = Cell::from_char(ch).ok_or_else(|| {
                        ParseError::new(
                            ln,
                            c + 1,
                            format!(
                                "unknown cell {ch:?}; the character form (decided by the instance's first row) uses . floor, # wall, S supply, @ start, E exit"
                            ),
                        )
                    })?;
                    put(cell, c + 1, r, c)?;
                }
            }
            if count < n {
                return Err(ParseError::new(
                    ln,
                    row.chars().count() + 1,
                    format!("row has {count} cells, expected N = {n} (header at line {hl})"),
                ));
            }
        }
        let after = hl + m; // index of the line after the rows
        if let Some(l) = lines.get(after) {
            if !l.trim().is_empty() && !is_comment(l) {
                return Err(ParseError::new(
                    after + 1,
                    1,
                    format!(
                        "expected a blank line, a `;` comment or the end after the {m} rows of the instance at line {hl}; is M too small?"
                    ),
                ));
            }
        }
        if start.is_none() {
            return Err(ParseError::new(hl, 0, "instance has no start (3 or @)"));
        }
        if exit.is_none() {
            return Err(ParseError::new(hl, 0, "instance has no exit (4 or E)"));
        }
        let map =
            SupplyMap::from_cells(m, n, t, cells).map_err(|e| ParseError::new(hl, 0, e.message))?;
        out.push(Instance {
            map,
            line: hl,
            comments: std::mem::take(&mut comments),
        });
        i = after;
    }
    if out.is_empty() {
        return Err(ParseError::new(
            0,
            0,
            "no instance: expected a header line `M N T` followed by M rows",
        ));
    }
    Ok(out)
}
