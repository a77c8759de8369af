//! VGDL text to a syntax tree, read the way GVGAI's `VGDLParser` reads it:
//! everything after `#` is dropped, blocks are made by indentation (a tab is
//! one character of indent, as in GVGAI, whose tab replacement has no
//! effect), the first line is the game (`BasicGame key=value ...`), and its
//! children are the sections `SpriteSet`, `InteractionSet`, `LevelMapping`
//! and `TerminationSet`. Where GVGAI only logs a malformed line and goes on,
//! this parser returns an error with the line and column.

use crate::grid::ParseError;

/// A `key=value` parameter with the column (1-based) where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The name left of `=`.
    pub key: String,
    /// The text right of `=` (up to a second `=`, as GVGAI's `split("=")`).
    pub value: String,
    /// 1-based column of the key.
    pub column: usize,
}

/// A sprite declaration `name > [Class] [key=value ...]` and its children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpriteNode {
    /// The sprite type's name.
    pub name: String,
    /// The class named on this line, if any.
    pub class: Option<String>,
    /// 1-based column of the class name (0 when there is none).
    pub class_column: usize,
    /// Parameters set on this line.
    pub params: Vec<Param>,
    /// Nested declarations.
    pub children: Vec<SpriteNode>,
    /// 1-based line number.
    pub line: usize,
}

/// An interaction `a b [c ...] > effect [key=value ...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InteractionDecl {
    /// The first sprite type (or `EOS`/`TIME`).
    pub first: String,
    /// The second sprite types, one pair per entry.
    pub seconds: Vec<String>,
    /// 1-based columns of `first` and of each of `seconds`.
    pub columns: Vec<usize>,
    /// The effect's name.
    pub effect: String,
    /// 1-based column of the effect name.
    pub effect_column: usize,
    /// The effect's parameters.
    pub params: Vec<Param>,
    /// 1-based line number.
    pub line: usize,
}

/// A level mapping `c > type type ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MappingDecl {
    /// The level character.
    pub ch: char,
    /// The sprite types created in that cell, in order.
    pub types: Vec<String>,
    /// 1-based columns of each type name.
    pub columns: Vec<usize>,
    /// 1-based line number.
    pub line: usize,
}

/// A termination `Class key=value ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerminationDecl {
    /// The termination class.
    pub class: String,
    /// Its parameters.
    pub params: Vec<Param>,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column of the class name.
    pub column: usize,
}

/// A whole VGDL game description, before names are resolved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Description {
    /// The game class (`BasicGame`).
    pub game_class: String,
    /// The game line's parameters (`square_size`, `no_players` ...).
    pub game_params: Vec<Param>,
    /// Top-level sprite declarations (a tree).
    pub sprites: Vec<SpriteNode>,
    /// Interactions in file order.
    pub interactions: Vec<InteractionDecl>,
    /// Level mappings in file order.
    pub mappings: Vec<MappingDecl>,
    /// Terminations in file order.
    pub terminations: Vec<TerminationDecl>,
}

/// The last value given to `key` (GVGAI keeps parameters in a hash map, so a
/// repeated key keeps its last value).
pub fn param<'a>(params: &'a [Param], key: &str) -> Option<&'a Param> {
    params.iter().rev().find(|p| p.key == key)
}

/// One non-empty line: its indent, its tokens with 1-based columns.
#[derive(Clone, Debug)]
struct Line {
    number: usize,
    indent: usize,
    tokens: Vec<(String, usize)>,
}

/// Java's `\s` (what `Utils.formatString` collapses).
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0B' | '\x0C' | '\r')
}

fn lines(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    for (i, raw) in java_lines(text).into_iter().enumerate() {
        let code = raw.split('#').next().unwrap_or("");
        let chars: Vec<char> = code.chars().collect();
        // Java's trim() strips every char <= ' '.
        let Some(first) = chars.iter().position(|&c| c > ' ') else {
            continue;
        };
        let mut tokens = Vec::new();
        let mut k = first;
        while k < chars.len() {
            if is_space(chars[k]) {
                k += 1;
                continue;
            }
            let start = k;
            while k < chars.len() && !is_space(chars[k]) {
                k += 1;
            }
            tokens.push((chars[start..k].iter().collect::<String>(), start + 1));
        }
        out.push(Line {
            number: i + 1,
            indent: first,
            tokens,
        });
    }
    out
}

/// Splits text into lines as `BufferedReader.readLine` does (`\n`, `\r` or
/// `\r\n` end a line; a final terminator adds no empty line).
pub fn java_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(&text[start..i]);
                i += 1;
                start = i;
            }
            b'\r' => {
                out.push(&text[start..i]);
                i += 1;
                if i < bytes.len() && bytes[i] == b'\n' {
                    i += 1;
                }
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < bytes.len() {
        out.push(&text[start..]);
    }
    out
}

/// A line with the lines nested under it.
#[derive(Debug)]
struct Tree {
    line: Line,
    children: Vec<Tree>,
}

/// Builds the indentation tree under the first line. A line goes under the
/// nearest preceding line that is less indented.
fn tree(lines: Vec<Line>) -> Result<Tree, ParseError> {
    let mut it = lines.into_iter();
    let Some(root) = it.next() else {
        return Err(ParseError::new(0, 0, "empty game description"));
    };
    let root_indent = root.indent;
    let mut root = Tree {
        line: root,
        children: Vec::new(),
    };
    for l in it {
        if l.indent <= root_indent {
            return Err(ParseError::new(
                l.number,
                l.indent + 1,
                "every line after the game line must be indented under it",
            ));
        }
        // Walk down the last children while they are less indented.
        let mut node = &mut root;
        loop {
            let go = matches!(node.children.last(), Some(c) if c.line.indent < l.indent);
            if !go {
                break;
            }
            node = node.children.last_mut().expect("checked");
        }
        node.children.push(Tree {
            line: l,
            children: Vec::new(),
        });
    }
    Ok(root)
}

fn kv(token: &str, column: usize, line: usize) -> Result<Param, ParseError> {
    let mut parts = token.split('=');
    let key = parts.next().unwrap_or("");
    let value = parts.next().unwrap_or("");
    if key.is_empty() || value.is_empty() {
        return Err(ParseError::new(
            line,
            column,
            format!("parameter `{token}` needs the form key=value"),
        ));
    }
    Ok(Param {
        key: key.to_string(),
        value: value.to_string(),
        column,
    })
}

/// Parses VGDL text into a [`Description`].
pub fn parse(text: &str) -> Result<Description, ParseError> {
    let root = tree(lines(text))?;
    let mut d = Description::default();
    let (class, col) = root.line.tokens[0].clone();
    let _ = col;
    d.game_class = class;
    for (t, c) in &root.line.tokens[1..] {
        if t.contains('=') {
            d.game_params.push(kv(t, *c, root.line.number)?);
        }
    }
    for section in &root.children {
        let (name, col) = &section.line.tokens[0];
        let n = section.line.number;
        if section.line.tokens.len() > 1 {
            return Err(ParseError::new(
                n,
                section.line.tokens[1].1,
                format!("a section line holds only its name, found more after `{name}`"),
            ));
        }
        match name.as_str() {
            "SpriteSet" => {
                for c in &section.children {
                    d.sprites.push(sprite(c)?);
                }
            }
            "InteractionSet" => {
                for c in &section.children {
                    no_children(c)?;
                    d.interactions.push(interaction(&c.line)?);
                }
            }
            "LevelMapping" => {
                for c in &section.children {
                    no_children(c)?;
                    d.mappings.push(mapping(&c.line)?);
                }
            }
            "TerminationSet" => {
                for c in &section.children {
                    no_children(c)?;
                    d.terminations.push(termination(&c.line)?);
                }
            }
            "ParameterSet" => {
                return Err(ParseError::new(
                    n,
                    *col,
                    "GameSpace's ParameterSet (the game-design track) is not supported",
                ))
            }
            _ => {
                return Err(ParseError::new(
                    n,
                    *col,
                    format!(
                        "unknown section `{name}`; expected SpriteSet, InteractionSet, LevelMapping or TerminationSet"
                    ),
                ))
            }
        }
    }
    Ok(d)
}

fn no_children(t: &Tree) -> Result<(), ParseError> {
    match t.children.first() {
        Some(c) => Err(ParseError::new(
            c.line.number,
            c.line.indent + 1,
            "this line is indented under a line that takes no block",
        )),
        None => Ok(()),
    }
}

fn sprite(t: &Tree) -> Result<SpriteNode, ParseError> {
    let l = &t.line;
    let mut node = SpriteNode {
        name: l.tokens[0].0.clone(),
        class: None,
        class_column: 0,
        params: Vec::new(),
        children: Vec::new(),
        line: l.number,
    };
    let mut definition = false;
    for (tok, col) in &l.tokens[1..] {
        if tok.contains('=') {
            node.params.push(kv(tok, *col, l.number)?);
        } else if tok == ">" {
            definition = true;
        } else {
            node.class = Some(tok.clone());
            node.class_column = *col;
        }
    }
    if !definition || node.name.contains('>') || node.name.contains('=') {
        return Err(ParseError::new(
            l.number,
            l.tokens[0].1,
            "a sprite line reads `name > [Class] [key=value ...]`",
        ));
    }
    for c in &t.children {
        node.children.push(sprite(c)?);
    }
    Ok(node)
}

fn interaction(l: &Line) -> Result<InteractionDecl, ParseError> {
    let toks = &l.tokens;
    let Some(gt) = toks.iter().position(|(t, _)| t == ">") else {
        return Err(ParseError::new(
            l.number,
            toks[0].1,
            "an interaction reads `type type ... > effect [key=value ...]`",
        ));
    };
    if gt < 2 {
        return Err(ParseError::new(
            l.number,
            toks[gt].1,
            "an interaction needs two sprite types before `>`",
        ));
    }
    let mut effect = None;
    let mut params = Vec::new();
    for (tok, col) in &toks[gt + 1..] {
        if tok.contains('=') {
            params.push(kv(tok, *col, l.number)?);
        } else if tok != ">" {
            effect = Some((tok.clone(), *col));
        }
    }
    let Some((effect, effect_column)) = effect else {
        return Err(ParseError::new(
            l.number,
            toks[gt].1,
            "an interaction needs an effect after `>`",
        ));
    };
    Ok(InteractionDecl {
        first: toks[0].0.clone(),
        seconds: toks[1..gt].iter().map(|t| t.0.clone()).collect(),
        columns: toks[..gt].iter().map(|t| t.1).collect(),
        effect,
        effect_column,
        params,
        line: l.number,
    })
}

fn mapping(l: &Line) -> Result<MappingDecl, ParseError> {
    let toks = &l.tokens;
    if toks.len() < 2 || toks[1].0 != ">" || toks[0].0.chars().count() != 1 {
        return Err(ParseError::new(
            l.number,
            toks[0].1,
            "a level mapping reads `c > type type ...` with a single character c",
        ));
    }
    Ok(MappingDecl {
        ch: toks[0].0.chars().next().expect("one char"),
        types: toks[2..].iter().map(|t| t.0.clone()).collect(),
        columns: toks[2..].iter().map(|t| t.1).collect(),
        line: l.number,
    })
}

fn termination(l: &Line) -> Result<TerminationDecl, ParseError> {
    let mut params = Vec::new();
    for (tok, col) in &l.tokens[1..] {
        if tok.contains('=') {
            params.push(kv(tok, *col, l.number)?);
        } else {
            return Err(ParseError::new(
                l.number,
                *col,
                format!("unexpected `{tok}`: a termination reads `Class key=value ...`"),
            ));
        }
    }
    Ok(TerminationDecl {
        class: l.tokens[0].0.clone(),
        params,
        line: l.number,
        column: l.tokens[0].1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_blocks_comments_and_columns() {
        let text = "BasicGame square_size=10\n  SpriteSet # sprites\n    floor > Immovable\n    movable >\n      avatar > MovingAvatar speed=1\n      box > Passive\n  InteractionSet\n    avatar box > stepBack scoreChange=1\n  TerminationSet\n    SpriteCounter stype=box limit=0 win=True\n  LevelMapping\n    b > floor box\n";
        let d = parse(text).unwrap();
        assert_eq!(d.game_class, "BasicGame");
        assert_eq!(d.sprites.len(), 2);
        assert_eq!(
            d.sprites[1].children[0].class.as_deref(),
            Some("MovingAvatar")
        );
        assert_eq!(d.interactions[0].seconds, vec!["box".to_string()]);
        assert_eq!(d.interactions[0].effect_column, 18);
        assert_eq!(d.mappings[0].types, vec!["floor", "box"]);
        assert_eq!(
            param(&d.terminations[0].params, "limit").unwrap().value,
            "0"
        );
    }

    #[test]
    fn errors_carry_line_and_column() {
        let e = parse("BasicGame\n  SpriteSet\n    floor Immovable\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 5));
        let e = parse("BasicGame\n  Sprites\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        let e = parse("BasicGame\n  InteractionSet\n    a b > stepBack x=\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 20));
    }
}
