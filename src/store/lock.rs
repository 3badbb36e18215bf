//! The data-directory lock: only one process may use a `data_dir` at a time.
//!
//! Invariant: the lock is an OS advisory lock on `data_dir/donna.lock`, held as long as the
//! returned guard lives, and released by the OS if the process dies.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use super::error::StoreError;

/// Holds the lock until dropped.
#[derive(Debug)]
pub struct DataDirLock {
    _file: File,
    path: PathBuf,
}

impl DataDirLock {
    /// Creates `data_dir` if missing and takes its lock, or says who holds it.
    pub fn acquire(data_dir: &Path) -> Result<Self, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|source| StoreError::DataDir {
            path: data_dir.to_path_buf(),
            source,
        })?;
        let path = data_dir.join("donna.lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|source| StoreError::DataDir {
                path: path.clone(),
                source,
            })?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(StoreError::Locked {
                    path: data_dir.to_path_buf(),
                })
            }
            // Not "another process holds it": a file system without locks, say. Named as it is.
            Err(TryLockError::Error(source)) => return Err(StoreError::DataDir { path, source }),
        }
        Ok(Self { _file: file, path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}
