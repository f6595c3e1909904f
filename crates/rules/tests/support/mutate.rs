//! Broken data files for the loaders' property tests, shared by the rules,
//! campaign and battle crates' tests: shipped files with bytes flipped, cut
//! short, lines deleted or doubled, field values replaced; and text made up
//! from scratch. And what a loader's refusal of one must be:
//! `file:line:col: field: problem`.

use proptest::prelude::*;
use proptest::sample::Index;
use warbound_rules::data::{DataError, field_at};

/// One change to a file's text.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// A byte becomes another (the text read back as UTF-8, lossily).
    Flip(Index, u8),
    /// The text ends early.
    Truncate(Index),
    DeleteLine(Index),
    DuplicateLine(Index),
    /// A field's value (`key: value`) becomes this.
    Value(Index, String),
    /// A field's value becomes another field's value of the same file.
    Swap(Index, Index),
    /// A field's value becomes another field's value of its kind (a string,
    /// a number, a name, a bracketed value) of the same file.
    SwapLike(Index, Index),
    /// A number written as a field's value becomes this.
    Number(Index, i64),
}

/// A value as a field might be given one: numbers in and out of every
/// range, identifiers, strings, and values of the wrong shape.
pub fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        (-20i64..300).prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f32>().prop_map(|x| format!("{x:?}")),
        (1930u32..1950).prop_map(|n| n.to_string()),
        "[a-zA-Z_][a-zA-Z0-9_]{0,10}",
        "\"[ -!#-\\[\\]-~]{0,12}\"",
        Just("\"\"".to_owned()),
        Just("()".to_owned()),
        Just("[]".to_owned()),
        Just("Some(1)".to_owned()),
        Just("None".to_owned()),
        Just("true".to_owned()),
    ]
}

/// Any one change.
pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        1 => any::<Index>().prop_map(Mutation::Truncate),
        1 => any::<Index>().prop_map(Mutation::DeleteLine),
        1 => any::<Index>().prop_map(Mutation::DuplicateLine),
        3 => (any::<Index>(), value()).prop_map(|(i, v)| Mutation::Value(i, v)),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(i, j)| Mutation::Swap(i, j)),
    ]
}

/// A change that leaves the text well formed, most often: a value of its
/// kind where another was.
pub fn wrong_value() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<Index>(), any::<Index>()).prop_map(|(i, j)| Mutation::SwapLike(i, j)),
        (any::<Index>(), prop_oneof![-3i64..130, 1930i64..1950]).prop_map(|(i, n)| Mutation::Number(i, n)),
    ]
}

/// One to three changes of any kind, made in turn.
pub fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(mutation(), 1..=3)
}

/// One to three wrong values, made in turn.
pub fn wrong_values() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(wrong_value(), 1..=3)
}

/// Text made up from scratch: any characters, or RON's pieces in any order.
pub fn random_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("(".to_owned()),
        Just(")".to_owned()),
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just(",".to_owned()),
        Just(": ".to_owned()),
        Just("\n".to_owned()),
        Just("Some(".to_owned()),
        Just("// note\n".to_owned()),
        Just("/* c */".to_owned()),
        Just("#![enable(implicit_some)]".to_owned()),
        "[a-z_]{1,10}: ",
        value(),
    ];
    prop_oneof![any::<String>(), prop::collection::vec(piece, 0..60).prop_map(|p| p.concat())]
}

/// `text` with `changes` made.
pub fn apply(text: &str, changes: &[Mutation]) -> String {
    changes.iter().fold(text.to_owned(), |t, m| apply_one(&t, m))
}

fn apply_one(text: &str, change: &Mutation) -> String {
    match change {
        Mutation::Flip(i, byte) => {
            let mut bytes = text.as_bytes().to_vec();
            if !bytes.is_empty() {
                let at = i.index(bytes.len());
                bytes[at] = *byte;
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Mutation::Truncate(i) => {
            let mut at = i.index(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text[..at].to_owned()
        }
        Mutation::DeleteLine(i) | Mutation::DuplicateLine(i) => {
            let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
            if !lines.is_empty() {
                let at = i.index(lines.len());
                if matches!(change, Mutation::DeleteLine(_)) {
                    lines.remove(at);
                } else {
                    lines.insert(at, lines[at]);
                }
            }
            lines.concat()
        }
        Mutation::Value(i, value) => {
            let values = values(text);
            if values.is_empty() {
                return text.to_owned();
            }
            let (start, end) = values[i.index(values.len())];
            format!("{}{value}{}", &text[..start], &text[end..])
        }
        Mutation::Swap(i, j) | Mutation::SwapLike(i, j) => {
            let values = values(text);
            if values.is_empty() {
                return text.to_owned();
            }
            let (start, end) = values[i.index(values.len())];
            let like: Vec<_> = match change {
                Mutation::SwapLike(..) => values.iter().filter(|&&(s, _)| kind(text, s) == kind(text, start)).collect(),
                _ => values.iter().collect(),
            };
            let (from, to) = *like[j.index(like.len())];
            format!("{}{}{}", &text[..start], &text[from..to], &text[end..])
        }
        Mutation::Number(i, n) => {
            let numbers: Vec<_> = values(text).into_iter().filter(|&(s, _)| kind(text, s) == 1).collect();
            if numbers.is_empty() {
                return text.to_owned();
            }
            let (start, end) = numbers[i.index(numbers.len())];
            format!("{}{n}{}", &text[..start], &text[end..])
        }
    }
}

/// The kind of the value written at `start`: 0 a string, 1 a number, 2 a
/// name (with what it wraps), 3 a bracketed value.
fn kind(text: &str, start: usize) -> u8 {
    match text.as_bytes()[start] {
        b'"' => 0,
        c if c.is_ascii_digit() || c == b'-' => 1,
        b'(' | b'[' => 3,
        _ => 2,
    }
}

/// Where each field's value is written: after `key:`, a string, a bracketed
/// group (with the variant or struct name before it) or a bare word.
fn values(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    for (colon, _) in text.match_indices(':') {
        if colon == 0 || !word(bytes[colon - 1]) {
            continue;
        }
        let mut start = colon + 1;
        while start < bytes.len() && bytes[start] == b' ' {
            start += 1;
        }
        if let Some(end) = value_end(bytes, start) {
            out.push((start, end));
        }
    }
    out
}

/// The end of the value written at `start`, if one is there.
fn value_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || b"_.-+".contains(&bytes[i])) {
        i += 1;
    }
    match bytes.get(i) {
        Some(b'"') if i == start => {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            (j < bytes.len()).then_some(j + 1)
        }
        Some(b'(' | b'[') => {
            let mut depth = 0usize;
            let mut in_string = false;
            let mut j = i;
            while j < bytes.len() {
                match bytes[j] {
                    b'\\' if in_string => j += 1,
                    b'"' => in_string = !in_string,
                    b'(' | b'[' if !in_string => depth += 1,
                    b')' | b']' if !in_string => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => (i > start).then_some(i),
    }
}

/// Fails unless `error` is a refusal of `text` (the file `file`) a player can
/// act on: the file, a line and column inside the text, and, for a value
/// that parsed but is wrong (`parsed`), the field: `file:line:col: field:
/// problem`. A parser's error inside a field names that field too.
pub fn check_refusal(error: &DataError, file: &str, text: &str, parsed: bool) -> Result<(), TestCaseError> {
    let shown = error.to_string();
    prop_assert_eq!(&error.file, file, "{}", shown);
    let Some((line, col)) = error.position else {
        return Err(TestCaseError::fail(format!("no line: {shown}")));
    };
    let lines: Vec<&str> = text.split('\n').collect();
    prop_assert!((1..=lines.len()).contains(&line), "line {} of {}: {}", line, lines.len(), shown);
    let width = lines[line - 1].chars().count() + 1;
    prop_assert!((1..=width).contains(&col), "column {} of {}: {}", col, width, shown);
    prop_assert!(shown.starts_with(&format!("{file}:{line}:{col}: ")), "{}", shown);
    let problem = &error.message;
    if parsed {
        let field = problem.split_once(": ").map_or("", |(f, _)| f);
        let path = |c: char| c.is_ascii_alphanumeric() || "_.[]/".contains(c);
        prop_assert!(!field.is_empty() && field.chars().all(path), "no field named: {}", shown);
    } else if let Some(field) = field_at(text, (line, col)) {
        prop_assert!(problem.starts_with(&format!("{field}: ")), "the field {} is not named: {}", field, shown);
    }
    Ok(())
}
