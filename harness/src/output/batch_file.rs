//! [`BatchFile`]: a results file appended to a batch at a time. A
//! reporter adds an episode's bytes to [`BatchFile::pending`] and writes
//! the batch with one `write` at [`crate::output::reporters::Event::CaughtUp`]
//! or the run's end ([`BatchFile::write_out`]); what is still pending when
//! it is dropped (a run that ended on an error) is written then.

use crate::error::HarnessError;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file and the bytes not written to it yet.
pub struct BatchFile {
    path: PathBuf,
    file: File,
    pending: Vec<u8>,
}

impl BatchFile {
    /// Appends to `file`, opened at `path` (for errors).
    pub fn new(path: &Path, file: File) -> Self {
        BatchFile {
            path: path.to_path_buf(),
            file,
            pending: Vec::new(),
        }
    }

    /// Creates (or empties) the file at `path`.
    pub fn create(path: &Path) -> Result<Self, HarnessError> {
        let file = File::create(path).map_err(|e| HarnessError::io(path, e))?;
        Ok(Self::new(path, file))
    }

    /// The bytes not written yet, to add to.
    pub fn pending(&mut self) -> &mut Vec<u8> {
        &mut self.pending
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// An error about this file.
    pub fn error(&self, e: std::io::Error) -> HarnessError {
        HarnessError::io(&self.path, e)
    }

    /// Write what is pending (one `write`); whether there was anything.
    pub fn write_out(&mut self) -> Result<bool, HarnessError> {
        if self.pending.is_empty() {
            return Ok(false);
        }
        let written = self.file.write_all(&self.pending);
        self.pending.clear();
        written.map_err(|e| self.error(e))?;
        Ok(true)
    }
}

impl Drop for BatchFile {
    fn drop(&mut self) {
        let _ = self.write_out();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_bytes_reach_the_file_when_written_out_or_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let mut f = BatchFile::create(&path).unwrap();
        f.pending().extend_from_slice(b"one\n");
        assert_eq!(std::fs::read(&path).unwrap(), b"");
        assert!(f.write_out().unwrap());
        assert!(!f.write_out().unwrap(), "nothing left to write");
        f.pending().extend_from_slice(b"two\n");
        drop(f);
        assert_eq!(std::fs::read(&path).unwrap(), b"one\ntwo\n");
    }
}
