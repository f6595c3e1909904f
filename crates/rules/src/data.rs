//! Loading RON data with errors a person can act on: `file:line:col: field: problem`.
//!
//! Every loader reports through [`DataError`]. The parser's own errors come
//! from [`from_ron`] (or [`from_ron_with`]) at the parser's line and column,
//! named by the field they fall in ([`field_at`]); what is wrong with a value
//! that parsed comes from [`DataError::field`] (or [`DataError::located`]),
//! placed at the line and column where that field is written ([`locate`]).
//!
//! Both read the text through a forgiving outline of the RON ([`outline`]):
//! fields, list items and tuples with where each is written. It never fails
//! and never panics, whatever the text: truncated files, stray brackets and
//! unterminated strings only make it stop early.

use std::fmt;

use serde::de::DeserializeOwned;

/// A data file that could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    /// The file as the user knows it (a path, or the built-in name).
    pub file: String,
    /// 1-based line and column of the problem; none for a file as a whole
    /// (one that cannot be read).
    pub position: Option<(usize, usize)>,
    /// `field: problem`, or the problem alone where no field is concerned.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, col)) => write!(f, "{}:{line}:{col}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for DataError {}

impl DataError {
    /// An error about a whole file, with no place in it (it cannot be read,
    /// it is not there).
    pub fn new(file: impl Into<String>, message: impl Into<String>) -> Self {
        Self { file: file.into(), position: None, message: message.into() }
    }

    /// `field: problem` in `file`, at the line and column where `field` (a
    /// path such as `sides[0].companies[1].start`) is written in `text`, or
    /// where `value` is written in it; see [`locate`].
    pub fn field(file: &str, text: &str, field: &str, value: Option<&str>, problem: impl fmt::Display) -> Self {
        Self::located(file, text, field, value, format!("{field}: {problem}"))
    }

    /// `message` in `file`, placed as [`DataError::field`] places it, for a
    /// loader whose messages name the field their own way.
    pub fn located(file: &str, text: &str, field: &str, value: Option<&str>, message: impl Into<String>) -> Self {
        Self { file: file.to_owned(), position: Some(locate(text, field, value)), message: message.into() }
    }

    /// The parser's error for `text` of `file`, at the parser's line and
    /// column, as `field: problem` when it falls inside a field.
    pub fn parse(file: &str, text: &str, error: &ron::error::SpannedError) -> Self {
        let at = (error.span.start.line, error.span.start.col);
        let message = match field_at(text, at) {
            Some(field) => format!("{field}: {}", error.code),
            None => error.code.to_string(),
        };
        Self { file: file.to_owned(), position: Some(at), message }
    }
}

/// Parses RON text from `file` into `T`.
pub fn from_ron<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, DataError> {
    from_ron_with(&ron::Options::default(), file, text)
}

/// Parses RON text from `file` into `T` with the parser's `options` (its
/// extensions: `implicit_some` and the like).
pub fn from_ron_with<T: DeserializeOwned>(options: &ron::Options, file: &str, text: &str) -> Result<T, DataError> {
    options.from_str(text).map_err(|e| DataError::parse(file, text, &e))
}

/// Where `field` is written in the RON `text`, as a 1-based line and column
/// (columns count characters, as the parser's do).
///
/// `field` is a path of struct fields and of list or tuple indices, the way
/// errors name them: `days`, `armies[1].battlegroups[0].start`,
/// `entries[3].armament[1].count`, `places[2].at.0`. A value wrapped in
/// `Some(…)` is looked into.
///
/// With `value` (an id, a board, an enum variant as written), the place is
/// where that value is written inside the field. Where the field is not
/// written (left to its default), the place is the nearest enclosing part
/// that is; a `value` then is looked for inside that part, then anywhere in
/// the file (its declaration as an `id:` first). Nothing found at all gives
/// where the text's data begins.
pub fn locate(text: &str, field: &str, value: Option<&str>) -> (usize, usize) {
    let root = outline(text);
    let mut node = &root;
    let mut at = root.start;
    let mut whole = true;
    for step in steps(field) {
        let Some(step) = step else {
            whole = false;
            break;
        };
        match node.step(&step) {
            Some(item) => {
                at = item.key.map_or(item.value.start, |(_, k)| k);
                node = &item.value;
            }
            None => {
                whole = false;
                break;
            }
        }
    }
    let found = value.filter(|v| !v.is_empty()).and_then(|v| {
        let inside = find_value(&text[node.start..node.end], v).map(|p| node.start + p);
        inside.or_else(|| if whole { None } else { declared(text, v).or_else(|| find_value(text, v)) })
    });
    line_col(text, found.unwrap_or(at))
}

/// The field written at `(line, col)` of the RON `text` (1-based, columns in
/// characters), as a path such as `sides[0].companies[1].start`; none where
/// the place is in no field (before, between or after the data).
pub fn field_at(text: &str, (line, col): (usize, usize)) -> Option<String> {
    // The parser's place may be the blank before what it refused.
    let offset = Lexer { text, bytes: text.as_bytes() }.trivia(offset_of(text, line, col));
    let root = outline(text);
    let mut node = &root;
    let mut path = String::new();
    while let Some((i, item)) = node.items.iter().enumerate().find(|(_, it)| it.start <= offset && offset < it.end) {
        match item.key {
            Some((key, _)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            // A variant's or `Some`'s contents belong to the field they are written in.
            None if node.name.is_none() || node.open == Some(b'[') => path.push_str(&format!("[{i}]")),
            None => {}
        }
        node = &item.value;
    }
    (!path.is_empty()).then_some(path)
}

/// The 1-based line and column (in characters) of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
}

/// The byte offset of 1-based `line` and `col` (in characters) in `text`,
/// clamped to the line's end and the text's.
fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let rest = &text[start..];
    let line_len = rest.find('\n').unwrap_or(rest.len());
    start + rest[..line_len].char_indices().nth(col.saturating_sub(1)).map_or(line_len, |(i, _)| i)
}

/// One step of a field path: a struct field or an index.
#[derive(Debug, PartialEq)]
enum Step<'p> {
    Key(&'p str),
    Index(usize),
}

/// The steps of `field`; a part that is no step (`a[x]`) is a `None`, where
/// the path stops being followed.
fn steps(field: &str) -> Vec<Option<Step<'_>>> {
    let mut out = Vec::new();
    for part in field.split('.').filter(|p| !p.is_empty()) {
        let (name, mut rest) = part.split_once('[').map_or((part, ""), |(n, r)| (n, r));
        if !name.is_empty() {
            out.push(Some(match name.parse::<usize>() {
                Ok(i) => Step::Index(i),
                Err(_) => Step::Key(name),
            }));
        }
        while !rest.is_empty() {
            let (index, after) = rest.split_once(']').unwrap_or((rest, ""));
            out.push(index.parse().ok().map(Step::Index));
            rest = after.strip_prefix('[').unwrap_or(if after.is_empty() { "" } else { "x" });
        }
    }
    out
}

/// Where `value` is written in `text`: quoted as a string, else as a whole word.
fn find_value(text: &str, value: &str) -> Option<usize> {
    let quoted = format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""));
    text.find(&quoted).or_else(|| {
        let word = |c: char| c.is_alphanumeric() || c == '_';
        text.match_indices(value)
            .map(|(i, _)| i)
            .find(|&i| !text[..i].ends_with(word) && !text[i + value.len()..].starts_with(word))
    })
}

/// Where `value` is declared as `id: "value"` in `text`.
fn declared(text: &str, value: &str) -> Option<usize> {
    let quoted = format!("\"{value}\"");
    text.match_indices(&quoted).map(|(i, _)| i).find(|&i| text[..i].trim_end().ends_with("id:"))
}

/// A value in the outline: a scalar, or a bracketed group (a struct, list,
/// tuple, map, or a variant's or `Some`'s contents) with its items.
#[derive(Debug)]
struct Node<'t> {
    /// Byte offsets: where the value begins (its name, if any) and ends.
    start: usize,
    end: usize,
    /// The name before the bracket: a variant, a struct's name, `Some`.
    name: Option<&'t str>,
    /// The opening bracket, for a group.
    open: Option<u8>,
    items: Vec<Item<'t>>,
}

/// An item of a group: a field (`key: value`) or an element of a list or tuple.
#[derive(Debug)]
struct Item<'t> {
    /// The field's name and where it is written.
    key: Option<(&'t str, usize)>,
    value: Node<'t>,
    /// From the item's first character to its comma or the group's end.
    start: usize,
    end: usize,
}

impl Node<'_> {
    fn scalar(start: usize, end: usize) -> Self {
        Self { start, end, name: None, open: None, items: Vec::new() }
    }

    /// The contents of `Some(…)`, else the node itself.
    fn unwrapped(&self) -> &Self {
        match (self.name, self.items.as_slice()) {
            (Some("Some"), [only]) if only.key.is_none() && only.value.open.is_some() => &only.value,
            _ => self,
        }
    }

    fn step(&self, step: &Step<'_>) -> Option<&Item<'_>> {
        let node = self.unwrapped();
        match *step {
            Step::Key(name) => node.items.iter().find(|i| i.key.is_some_and(|(k, _)| k == name)),
            Step::Index(i) => node.items.get(i),
        }
    }
}

/// Groups nested deeper than this are skipped whole, not looked into.
const MAX_DEPTH: usize = 128;

/// The outline of RON `text`: its data value (after any `#![enable(…)]`).
fn outline(text: &str) -> Node<'_> {
    let lexer = Lexer { text, bytes: text.as_bytes() };
    let mut i = lexer.trivia(0);
    // Attributes: `#![enable(implicit_some)]`.
    while lexer.bytes.get(i) == Some(&b'#') {
        let mut j = i + 1;
        if lexer.bytes.get(j) == Some(&b'!') {
            j += 1;
        }
        j = lexer.trivia(j);
        if lexer.bytes.get(j) != Some(&b'[') {
            break;
        }
        i = lexer.trivia(lexer.skip_group(j));
    }
    lexer.value(i, 0).0
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Token {
    Open(u8),
    Close,
    Comma,
    Colon,
    Ident,
    Str,
    Other,
    End,
}

struct Lexer<'t> {
    text: &'t str,
    bytes: &'t [u8],
}

impl<'t> Lexer<'t> {
    /// Past whitespace and comments (`// …`, nested `/* … */`) from `i`.
    fn trivia(&self, mut i: usize) -> usize {
        let b = self.bytes;
        loop {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            match (b.get(i), b.get(i + 1)) {
                (Some(b'/'), Some(b'/')) => i = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p),
                (Some(b'/'), Some(b'*')) => {
                    let mut depth = 0;
                    while i < b.len() {
                        match (b[i], b.get(i + 1)) {
                            (b'/', Some(b'*')) => {
                                depth += 1;
                                i += 2;
                            }
                            (b'*', Some(b'/')) => {
                                depth -= 1;
                                i += 2;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => i += 1,
                        }
                    }
                    i = i.min(b.len());
                }
                _ => return i,
            }
        }
    }

    /// The token at `i` (past trivia) and where it ends.
    fn token(&self, i: usize) -> (Token, usize) {
        let b = self.bytes;
        let Some(&c) = b.get(i) else { return (Token::End, b.len()) };
        let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        match c {
            b'(' | b'[' | b'{' => (Token::Open(c), i + 1),
            b')' | b']' | b'}' => (Token::Close, i + 1),
            b',' => (Token::Comma, i + 1),
            b':' => (Token::Colon, i + 1),
            b'"' => (Token::Str, self.string_end(i + 1)),
            b'\'' => (Token::Other, self.char_end(i)),
            b'b' if b.get(i + 1) == Some(&b'"') => (Token::Str, self.string_end(i + 2)),
            b'r' | b'b' if self.raw_string_at(i).is_some() => (Token::Str, self.raw_string_at(i).unwrap_or(b.len())),
            b'r' if b.get(i + 1) == Some(&b'#') && b.get(i + 2).is_some_and(|&c| ident(c)) => {
                let end = b[i + 2..].iter().position(|&c| !(ident(c) || matches!(c, b'.' | b'+' | b'-')));
                (Token::Ident, end.map_or(b.len(), |p| i + 2 + p))
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                (Token::Ident, b[i..].iter().position(|&c| !ident(c)).map_or(b.len(), |p| i + p))
            }
            _ => {
                let stop = |c: u8| c.is_ascii_whitespace() || b"()[]{},:\"'/".contains(&c);
                let end = b[i + 1..].iter().position(|&c| stop(c)).map_or(b.len(), |p| i + 1 + p);
                // Whole characters only.
                (Token::Other, (end..=b.len()).find(|&e| self.text.is_char_boundary(e)).unwrap_or(b.len()))
            }
        }
    }

    /// The end of a string whose contents begin at `i`.
    fn string_end(&self, mut i: usize) -> usize {
        let b = self.bytes;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 2,
                b'"' => return i + 1,
                _ => i += 1,
            }
        }
        b.len()
    }

    /// The end of a char literal at `i` (`'a'`, `'\n'`), else of the lone `'`.
    fn char_end(&self, i: usize) -> usize {
        let rest = &self.text[i + 1..];
        let mut chars = rest.char_indices();
        let inner = match chars.next() {
            Some((_, '\\')) => chars.next().map(|(p, c)| p + c.len_utf8()),
            Some((_, '\'')) | None => None,
            Some((p, c)) => Some(p + c.len_utf8()),
        };
        match inner {
            Some(p) if rest[p..].starts_with('\'') => i + 1 + p + 1,
            _ => i + 1,
        }
    }

    /// The end of a raw string (`r"…"`, `r#"…"#`, `br"…"`) at `i`, if one is there.
    fn raw_string_at(&self, i: usize) -> Option<usize> {
        let b = self.bytes;
        let mut j = i + usize::from(b[i] == b'b');
        if b.get(j) != Some(&b'r') {
            return None;
        }
        j += 1;
        let hashes = b[j..].iter().take_while(|&&c| c == b'#').count();
        j += hashes;
        if b.get(j) != Some(&b'"') {
            return None;
        }
        let close = format!("\"{}", "#".repeat(hashes));
        Some(self.text[j + 1..].find(&close).map_or(b.len(), |p| j + 1 + p + close.len()))
    }

    /// The value at `i` and where the parse goes on.
    fn value(&self, i: usize, depth: usize) -> (Node<'t>, usize) {
        let i = self.trivia(i);
        match self.token(i) {
            (Token::Ident, end) => {
                let j = self.trivia(end);
                match self.token(j) {
                    (Token::Open(c), _) => {
                        let mut node = self.group(j, c, depth);
                        node.start = i;
                        node.name = Some(&self.text[i..end]);
                        let end = node.end;
                        (node, end)
                    }
                    _ => (Node::scalar(i, end), end),
                }
            }
            (Token::Open(c), _) => {
                let node = self.group(i, c, depth);
                let end = node.end;
                (node, end)
            }
            (Token::Str | Token::Other, end) => (Node::scalar(i, end), end),
            _ => (Node::scalar(i, i), i),
        }
    }

    /// The group whose bracket `open` is at `i`.
    fn group(&self, i: usize, open: u8, depth: usize) -> Node<'t> {
        if depth >= MAX_DEPTH {
            let end = self.skip_group(i);
            return Node { start: i, end, name: None, open: Some(open), items: Vec::new() };
        }
        let mut items = Vec::new();
        let mut at = i + 1;
        loop {
            at = self.trivia(at);
            match self.token(at) {
                (Token::End, end) => return Node { start: i, end, name: None, open: Some(open), items },
                (Token::Close, end) => return Node { start: i, end, name: None, open: Some(open), items },
                (Token::Comma, end) => at = end,
                (first, end) => {
                    let start = at;
                    let mut key = None;
                    if matches!(first, Token::Ident | Token::Str) {
                        let colon = self.trivia(end);
                        if self.token(colon).0 == Token::Colon {
                            let name = &self.text[start..end];
                            let name = name.strip_prefix("r#").unwrap_or(name);
                            key = Some((name.trim_matches('"'), start));
                            at = colon + 1;
                        }
                    }
                    let (value, after) = self.value(at, depth + 1);
                    let stop = self.junk(after, depth);
                    items.push(Item { key, value, start, end: stop });
                    at = match self.token(stop) {
                        (Token::Comma, end) => end,
                        _ => stop,
                    };
                }
            }
        }
    }

    /// Past anything that is not a comma or a group's end (what the parser
    /// would refuse), to the next of those at this level.
    fn junk(&self, mut i: usize, depth: usize) -> usize {
        loop {
            i = self.trivia(i);
            match self.token(i) {
                (Token::Comma | Token::Close | Token::End, _) => return i,
                (Token::Open(c), _) => i = self.group(i, c, depth + 1).end,
                (_, end) => i = end,
            }
        }
    }

    /// The end of the group whose bracket is at `i`, its insides skipped.
    fn skip_group(&self, i: usize) -> usize {
        let mut depth = 0usize;
        let mut at = i;
        loop {
            at = self.trivia(at);
            match self.token(at) {
                (Token::End, end) => return end,
                (Token::Open(_), end) => {
                    depth += 1;
                    at = end;
                }
                (Token::Close, end) => {
                    depth -= 1;
                    if depth == 0 {
                        return end;
                    }
                    at = end;
                }
                (_, end) => at = end,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Thing {
        size: u32,
    }

    #[test]
    fn error_names_file_line_and_problem() {
        let err = from_ron::<Thing>("x.ron", "(\n  size: \"big\",\n)").unwrap_err();
        assert_eq!(err.position.map(|p| p.0), Some(2));
        let shown = err.to_string();
        assert!(shown.starts_with("x.ron:2:"), "{shown}");
    }

    #[test]
    fn a_parse_error_in_a_field_names_the_field() {
        let err = from_ron::<Thing>("x.ron", "(\n  size: \"big\",\n)").unwrap_err();
        assert_eq!(err.position, Some((2, 8)), "the parser's place, before the value");
        assert!(err.to_string().starts_with("x.ron:2:8: size: "), "{err}");
        // Outside any field: the problem alone.
        let err = from_ron::<Thing>("x.ron", "").unwrap_err();
        assert!(!err.message.contains(": "), "{err}");
    }

    #[test]
    fn good_data_parses() {
        assert_eq!(from_ron::<Thing>("x.ron", "(size: 3)").unwrap().size, 3);
    }

    const NESTED: &str = r#"#![enable(implicit_some)]
// A comment with (brackets [ and "quotes
(
    name: "T",
    sides: [
        (name: "B", year: 1944, companies: [
            (id: "a", elements: [(id: "x", start: at(10, 5)), (id: "y", start: box(2))]),
        ]),
        /* (name: "ghost", year: 1900) */
        (name: "G", year: 1944, nested: Some((deep: [1, 2, 3]))),
    ],
    places: [(name: "the lane", at: (3.5, 4))],
)"#;

    #[test]
    fn a_field_path_is_found_at_its_line_and_column() {
        assert_eq!(locate(NESTED, "name", None), (4, 5));
        assert_eq!(locate(NESTED, "sides[0].year", None), (6, 21));
        assert_eq!(locate(NESTED, "sides[0].companies[0].elements[1].start", None), (7, 73));
        assert_eq!(locate(NESTED, "sides[1].year", None), (10, 21));
        assert_eq!(locate(NESTED, "sides[1].nested.deep[2]", None), (10, 60));
        assert_eq!(locate(NESTED, "places[0].at.1", None), (12, 43));
    }

    #[test]
    fn a_value_is_found_inside_its_field() {
        assert_eq!(locate(NESTED, "sides[0].companies[0].elements[1]", Some("y")), (7, 68));
        assert_eq!(locate(NESTED, "sides[0].companies[0].elements[0].start", Some("at")), (7, 51));
        // The year is written and holds no "B": the year it is.
        assert_eq!(locate(NESTED, "sides[0].year", Some("B")), (6, 21));
    }

    #[test]
    fn a_field_left_out_falls_back_to_what_encloses_it() {
        // No `quality` is written: the side itself, or its name inside it.
        assert_eq!(locate(NESTED, "sides[1].quality", None), (10, 9));
        assert_eq!(locate(NESTED, "sides[1].quality", Some("G")), (10, 16));
        // No sixth side: "y" inside the sides.
        assert_eq!(locate(NESTED, "sides[5]", Some("y")), (7, 68));
        // Not found inside what was found: its `id:` declaration anywhere.
        assert_eq!(locate(NESTED, "places[1]", Some("x")), (7, 39));
        assert_eq!(locate(NESTED, "sides[x].year", None), (5, 5));
        assert_eq!(locate(NESTED, "", None), (3, 1));
        assert_eq!(locate("", "a.b", Some("c")), (1, 1));
    }

    #[test]
    fn the_field_at_a_place_is_named_as_a_path() {
        assert_eq!(field_at(NESTED, (4, 5)).as_deref(), Some("name"));
        assert_eq!(field_at(NESTED, (7, 48)).as_deref(), Some("sides[0].companies[0].elements[0].start"));
        assert_eq!(field_at(NESTED, (10, 60)).as_deref(), Some("sides[1].nested.deep[2]"));
        assert_eq!(field_at(NESTED, (12, 43)).as_deref(), Some("places[0].at[1]"));
        // Between two items of a list (here a comment): the list.
        assert_eq!(field_at(NESTED, (9, 15)).as_deref(), Some("sides"));
        // The comment, the attribute, past the end: no field.
        assert_eq!(field_at(NESTED, (2, 5)), None);
        assert_eq!(field_at(NESTED, (1, 3)), None);
        assert_eq!(field_at(NESTED, (99, 1)), None);
    }

    #[test]
    fn a_commented_out_field_is_not_found() {
        let (line, _) = locate(NESTED, "sides[1].name", None);
        assert_eq!(line, 10, "the second side is the one after the comment");
    }

    #[test]
    fn broken_text_never_stops_the_outline() {
        let texts = [
            "(",
            ")",
            "((((",
            "]]]]",
            "(a: \"unterminated",
            "(a: r#\"raw",
            "(a: 'x",
            "(a: '\\",
            "/* open",
            "#![",
            "#!",
            "(a: [1, 2,, 3",
            "(:::)",
            "(a: b: c)",
            "(\"k\": 1, é: ü)",
            "(a: 1)) trailing (",
        ];
        for text in texts {
            for field in ["a", "a[1]", "k", "x.y[2].z"] {
                let (line, col) = locate(text, field, Some("b"));
                assert!(line >= 1 && col >= 1, "{text}");
            }
            for col in 1..=text.chars().count() + 1 {
                let _ = field_at(text, (1, col));
            }
        }
        let deep = "(".repeat(10_000) + &")".repeat(10_000);
        assert_eq!(locate(&deep, "[0][0][0]", None).0, 1);
        assert_eq!(field_at(&deep, (1, 5000)).map(|p| p.is_empty()), Some(false));
    }
}
