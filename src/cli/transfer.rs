//! `donna export OUT` and `donna import IN`: the one-shot commands around `crate::transfer`,
//! with their exit codes: 0 done; 1 could not (no database, OUT exists, Donna is running, a
//! write failed); 2 a config error or a file this Donna will not import (not a regular file, over
//! 256 MiB, not UTF-8; a newer version, malformed JSON, a wrong type or a value Donna would not
//! store, named by its JSON path and why).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::clock::{Clock, SystemClock};
use crate::config::LoadedConfig;
use crate::transfer::{self, Counts, ImportError};

fn loaded(path: Option<&Path>) -> Result<LoadedConfig, ExitCode> {
    LoadedConfig::load(path).map_err(|error| {
        eprintln!("config error: {error}");
        ExitCode::from(2)
    })
}

pub fn export(config: Option<PathBuf>, out: PathBuf) -> ExitCode {
    let loaded = match loaded(config.as_deref()) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    match transfer::export(&loaded.data_dir(), &out, SystemClock.now()) {
        Ok(report) => {
            println!(
                "export written: {} ({} tasks, {} automations, {} preferences, {} people)",
                report.out.display(),
                report.tasks,
                report.automations,
                report.preferences,
                report.people
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("donna export: {error}");
            ExitCode::from(1)
        }
    }
}

fn said(counts: Counts, what: &str) -> String {
    format!(
        "{what}: {} added, {} updated, {} unchanged",
        counts.added, counts.updated, counts.unchanged
    )
}

pub fn import(config: Option<PathBuf>, input: PathBuf) -> ExitCode {
    let loaded = match loaded(config.as_deref()) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    match transfer::import(&loaded.data_dir(), &input) {
        Ok(report) => {
            println!(
                "imported {}: {}; {}; {}; {}",
                input.display(),
                said(report.tasks, "tasks"),
                said(report.automations, "automations"),
                said(report.preferences, "preferences"),
                said(report.people, "people")
            );
            ExitCode::SUCCESS
        }
        Err(ImportError::Malformed(why)) => {
            eprintln!(
                "donna import: {} cannot be imported, nothing changed: {why}",
                input.display()
            );
            ExitCode::from(2)
        }
        Err(ImportError::NotImportable(why)) => {
            eprintln!("donna import: {why}; nothing changed");
            ExitCode::from(2)
        }
        Err(error) => {
            eprintln!("donna import: {error}; nothing changed");
            ExitCode::from(1)
        }
    }
}
