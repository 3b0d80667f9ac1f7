//! Errors and their locations. Every user-visible message format lives here.

use std::fmt;

/// Where in the *input* something went wrong.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// The input file, as the user named it.
    pub file: Option<String>,
    /// The function or kernel, by its source name.
    pub function: Option<String>,
    /// The basic block, by its name or its place in the function.
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

/// What kind of failure an [`Error`] is; its text is the message a user reads.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input could not be read (the operating system's reason, in words).
    #[error("cannot read input: {0}")]
    Io(String),
    /// The output could not be written, or would overwrite an input.
    #[error("cannot write output: {0}")]
    Output(String),
    /// The input is not a valid module of its format (what is wrong, and where).
    #[error("malformed input: {0}")]
    Malformed(String),
    /// The input is valid, but holds a construct the target cannot express (named).
    #[error("unsupported construct: {0}")]
    Unsupported(String),
    #[error("unknown OpenCL builtin '{name}' (demangled: {demangled})")]
    /// A call to a function the input declares but does not define, that is no OpenCL C
    /// builtin: the module needs linking first.
    UnknownBuiltin {
        /// The name as the module spells it (mangled).
        name: String,
        /// The name demangled, with its parameter types.
        demangled: String,
    },
    /// The construct needs a newer SPIR-V than the target allows.
    #[error(
        "{construct} needs SPIR-V {needs}, but the target {target} allows at most SPIR-V {allowed} \
         (use --target or --spirv-version to allow it)"
    )]
    VersionTooLow {
        /// The construct, in OpenCL C's words.
        construct: String,
        /// The SPIR-V version it needs (`1.1`).
        needs: String,
        /// The target environment (`opencl2.1`).
        target: String,
        /// The highest SPIR-V version the target or `--spirv-version` allows.
        allowed: String,
    },
    /// A resource limit (time, memory) stopped the work on this input.
    #[error("resource limit: {0}")]
    Limit(String),
    /// `roundtrip` found the module changed by the named round trips.
    #[error("the round trip {0} changed the module")]
    RoundTripDiffers(String),
    /// A fault of ours, not of the input: please report it with the input.
    #[error("internal error (please report): {0}")]
    Internal(String),
}

/// A translation error: what went wrong and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Where in the input, as far as it is known.
    pub location: Box<Location>,
}

impl ErrorKind {
    /// An input that could not be read, in the words the library's own errors use (the
    /// common kinds said plainly, without Rust's "(os error N)").
    pub fn io(e: &std::io::Error) -> ErrorKind {
        ErrorKind::Io(io_words(e))
    }

    /// An output that could not be written, in the same words.
    pub fn output(e: &std::io::Error) -> ErrorKind {
        ErrorKind::Output(io_words(e))
    }
}

impl Error {
    /// An error of `kind` at no location yet.
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            kind,
            location: Box::default(),
        }
    }
    /// A [`ErrorKind::Malformed`] error.
    pub fn malformed(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Malformed(msg.into()))
    }
    /// A [`ErrorKind::Unsupported`] error.
    pub fn unsupported(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unsupported(msg.into()))
    }
    /// A [`ErrorKind::Internal`] error.
    pub fn internal(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Internal(msg.into()))
    }
    /// The error in `file`, unless a file is already named.
    pub fn in_file(mut self, file: &str) -> Self {
        self.location.file.get_or_insert_with(|| file.to_string());
        self
    }
    /// The error in the function `name`, unless a function is already named.
    pub fn in_function(mut self, name: &str) -> Self {
        self.location
            .function
            .get_or_insert_with(|| name.to_string());
        self
    }
    /// The error in the block `name`, unless a block is already named.
    pub fn in_block(mut self, name: &str) -> Self {
        self.location.block.get_or_insert_with(|| name.to_string());
        self
    }
    /// The error at `what` (a value, a call, an instruction), unless one is already named.
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

/// The result of everything that can fail with an [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An I/O error in a user's words: the common kinds said plainly, the rest as the system
/// says them without Rust's "(os error N)".
pub(crate) fn io_words(e: &std::io::Error) -> String {
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
    /// A fact of the whole module.
    pub fn module(fact: impl Into<String>) -> Self {
        Lost {
            place: None,
            fact: fact.into(),
        }
    }

    /// A fact of one place (a kernel, a function, a value).
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
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
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
