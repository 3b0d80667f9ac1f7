//! Errors and their locations. Every user-visible message format lives here.

use std::fmt;

/// Where in the *input* something went wrong.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    pub file: Option<String>,
    pub function: Option<String>,
    pub block: Option<String>,
    /// A value name (`%x`), a call (`call to 'foo'`), or a SPIR-V `%id` / word offset.
    pub value: Option<String>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(file) = &self.file {
            parts.push(file.clone());
        }
        if let Some(func) = &self.function {
            parts.push(format!("function '{func}'"));
        }
        if let Some(b) = &self.block {
            parts.push(format!("block '{b}'"));
        }
        if let Some(v) = &self.value {
            parts.push(v.clone());
        }
        write!(f, "{}", parts.join(": "))
    }
}

#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    #[error("cannot read input: {0}")]
    Io(String),
    #[error("cannot write output: {0}")]
    Output(String),
    #[error("malformed input: {0}")]
    Malformed(String),
    #[error("unsupported construct: {0}")]
    Unsupported(String),
    #[error("unknown OpenCL builtin '{name}' (demangled: {demangled})")]
    UnknownBuiltin { name: String, demangled: String },
    #[error(
        "{construct} needs SPIR-V {needs}, but the target {target} allows at most SPIR-V {allowed} \
         (use --target or --spirv-version to allow it)"
    )]
    VersionTooLow {
        construct: String,
        needs: String,
        target: String,
        allowed: String,
    },
    /// A resource limit (time, memory) stopped the work on this input.
    #[error("resource limit: {0}")]
    Limit(String),
    #[error("the round trip {0} changed the module")]
    RoundTripDiffers(String),
    #[error("internal error (please report): {0}")]
    Internal(String),
}

/// A translation error: what went wrong and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub location: Box<Location>,
}

impl Error {
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            kind,
            location: Box::default(),
        }
    }
    pub fn malformed(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Malformed(msg.into()))
    }
    pub fn unsupported(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unsupported(msg.into()))
    }
    pub fn internal(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Internal(msg.into()))
    }
    pub fn in_file(mut self, file: &str) -> Self {
        self.location.file.get_or_insert_with(|| file.to_string());
        self
    }
    pub fn in_function(mut self, name: &str) -> Self {
        self.location
            .function
            .get_or_insert_with(|| name.to_string());
        self
    }
    pub fn in_block(mut self, name: &str) -> Self {
        self.location.block.get_or_insert_with(|| name.to_string());
        self
    }
    pub fn at_value(mut self, what: impl Into<String>) -> Self {
        if self.location.value.is_none() {
            self.location.value = Some(what.into());
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let loc = self.location.to_string();
        if loc.is_empty() {
            write!(f, "error: {}", self.kind)
        } else {
            write!(f, "error: {loc}: {}", self.kind)
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An I/O error in a user's words: the common kinds said plainly, the rest as the system
/// says them without Rust's "(os error N)".
pub fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => "no such file or directory".into(),
        K::PermissionDenied => "permission denied".into(),
        K::AlreadyExists => "it already exists".into(),
        _ => {
            let text = e.to_string();
            match text.find(" (os error") {
                Some(at) => text[..at].to_string(),
                None => text,
            }
        }
    }
}

/// A fact of the input that the output does not keep: the translation went on without it.
/// docs/conventions.md's lossiness tables list the kinds; each translation reports the ones that happened
/// (the CLI as warnings, `migrate` in its report). Facts the output states differently but
/// equivalently are not losses and are not reported.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lost {
    /// Where in the input: a kernel or function, a value; `None` for the whole module.
    pub place: Option<String>,
    /// What was not kept, and why.
    pub fact: String,
}

impl Lost {
    pub fn module(fact: impl Into<String>) -> Self {
        Lost {
            place: None,
            fact: fact.into(),
        }
    }

    pub fn at(place: impl Into<String>, fact: impl Into<String>) -> Self {
        Lost {
            place: Some(place.into()),
            fact: fact.into(),
        }
    }
}

impl fmt::Display for Lost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.place {
            Some(place) => write!(f, "{place}: {}", self.fact),
            None => write!(f, "{}", self.fact),
        }
    }
}

/// Facts lost, each once, in a stable order.
pub fn sorted_losses(mut lost: Vec<Lost>) -> Vec<Lost> {
    lost.sort();
    lost.dedup();
    lost
}

/// The message a caught panic carried (`panic!` with a string or a format), for errors.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_file_function_and_construct() {
        let e = Error::unsupported("indirect call")
            .at_value("%call")
            .in_block("entry")
            .in_function("k")
            .in_file("a.bc");
        assert_eq!(
            e.to_string(),
            "error: a.bc: function 'k': block 'entry': %call: unsupported construct: indirect call"
        );
    }
}
