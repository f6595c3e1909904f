//! Loading RON data with errors a person can act on: file, line, column, what is wrong.

use std::fmt;

use serde::de::DeserializeOwned;

/// A data file that could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    /// The file as the user knows it (a path, or the built-in name).
    pub file: String,
    /// 1-based line and column of the problem, when the parser knows it.
    pub position: Option<(usize, usize)>,
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
    pub fn new(file: impl Into<String>, message: impl Into<String>) -> Self {
        Self { file: file.into(), position: None, message: message.into() }
    }
}

/// Parses RON text from `file` into `T`.
pub fn from_ron<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, DataError> {
    ron::from_str(text).map_err(|e| DataError {
        file: file.to_owned(),
        position: Some((e.span.start.line, e.span.start.col)),
        message: e.code.to_string(),
    })
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
    fn good_data_parses() {
        assert_eq!(from_ron::<Thing>("x.ron", "(size: 3)").unwrap().size, 3);
    }
}
