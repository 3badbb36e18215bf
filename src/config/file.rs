//! Reading the config file and the rule files it names: only regular files, at most
//! [`MAX_FILE_BYTES`], never blocking on what is not a file. `donna import` reads its file the
//! same way, within its own [`Limit`] ([`read_text_within`]).
//!
//! Why: a rule file path may name anything. A FIFO would block the reader (before: every turn
//! and SIGTERM froze behind a reload), /dev/zero would grow a string to the memory limit, a
//! huge file would be parsed whole. The file is opened without blocking (`O_NONBLOCK`, which a
//! regular file ignores), its type and size are read from the open file itself (no window
//! between the check and the read), and at most one byte past the limit is read, in case it
//! grows meanwhile.
//! Invariant: an error names the path and the reason, never the file's contents.

use std::io::Read;
use std::path::Path;

/// The largest config or rule file read: 1 MiB (the shipped ones are a few KiB).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// What a kind of file may be, and how it is named in an error.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// The most bytes read.
    pub bytes: u64,
    /// `bytes` in words ("1 MiB").
    pub shown: &'static str,
    /// One such file ("a config or rule file").
    pub one: &'static str,
    /// Such files, as Donna reads them ("her config and rule files").
    pub these: &'static str,
}

/// Config and rule files.
pub const CONFIG_FILES: Limit = Limit {
    bytes: MAX_FILE_BYTES,
    shown: "1 MiB",
    one: "a config or rule file",
    these: "her config and rule files",
};

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{path} is {kind}, not a regular file; Donna reads {these} only from regular files")]
    NotRegular {
        path: String,
        kind: &'static str,
        these: &'static str,
    },
    #[error("{path} is larger than the limit of {shown} ({bytes} bytes) for {one}")]
    TooLarge {
        path: String,
        shown: &'static str,
        bytes: u64,
        one: &'static str,
    },
    #[error("{path} is not UTF-8 text")]
    NotText { path: String },
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

fn kind_of(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO for reading would wait for a writer; with O_NONBLOCK it returns at
        // once and the type check below refuses it.
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Reads a config or rule file as text, within the rules above. Blocking: call it off the
/// async runtime's threads.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    read_text_within(path, &CONFIG_FILES)
}

/// Reads a file as text within `limit`: a regular file (opened without blocking), at most
/// `limit.bytes`, UTF-8. Blocking.
pub fn read_text_within(path: &Path, limit: &Limit) -> Result<String, FileError> {
    let shown = path.display().to_string();
    let io = |source| FileError::Io {
        path: shown.clone(),
        source,
    };
    let too_large = |path: String| FileError::TooLarge {
        path,
        shown: limit.shown,
        bytes: limit.bytes,
        one: limit.one,
    };
    let file = open_without_blocking(path).map_err(io)?;
    let metadata = file.metadata().map_err(io)?;
    if !metadata.is_file() {
        return Err(FileError::NotRegular {
            path: shown,
            kind: kind_of(metadata.file_type()),
            these: limit.these,
        });
    }
    if metadata.len() > limit.bytes {
        return Err(too_large(shown));
    }
    let mut bytes = Vec::new();
    file.take(limit.bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > limit.bytes {
        return Err(too_large(shown));
    }
    String::from_utf8(bytes).map_err(|_| FileError::NotText { path: shown })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let small = dir.path().join("small.yaml");
        std::fs::write(&small, "llm:\n  provider: none\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            read_text(&small).ok().as_deref(),
            Some("llm:\n  provider: none\n")
        );
        let exact = dir.path().join("exact.yaml");
        std::fs::write(&exact, vec![b'#'; 1024 * 1024]).unwrap_or_else(|e| panic!("{e}"));
        assert!(read_text(&exact).is_ok(), "exactly 1 MiB is read");
        let big = dir.path().join("big.yaml");
        std::fs::write(&big, vec![b'#'; 2 * 1024 * 1024]).unwrap_or_else(|e| panic!("{e}"));
        let error = read_text(&big).map(|_| ()).unwrap_err_text();
        assert!(error.contains("1 MiB"), "{error}");
        let error = read_text(dir.path()).map(|_| ()).unwrap_err_text();
        assert!(error.contains("a directory"), "{error}");
        let error = read_text(Path::new("/dev/zero"))
            .map(|_| ())
            .unwrap_err_text();
        assert!(error.contains("a character device"), "{error}");
        let binary = dir.path().join("binary");
        std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap_or_else(|e| panic!("{e}"));
        let error = read_text(&binary).map(|_| ()).unwrap_err_text();
        assert!(error.contains("not UTF-8"), "{error}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let fifo = dir.path().join("fifo.yaml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|status| status.success()), "mkfifo");
        let error = read_text(&fifo).map(|_| ()).unwrap_err_text();
        assert!(error.contains("a FIFO"), "{error}");
    }

    trait ErrText {
        fn unwrap_err_text(self) -> String;
    }
    impl ErrText for Result<(), FileError> {
        fn unwrap_err_text(self) -> String {
            match self {
                Ok(()) => "read".to_string(),
                Err(error) => error.to_string(),
            }
        }
    }
}
