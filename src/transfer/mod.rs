//! Export and import: everything a person has told Donna to keep (tasks, automations, learned
//! preferences, people's time zones, and the chats their tasks belong to) as one JSON file
//! (`document`, its records in `records`), written from a running Donna (`export`: read-only, no lock) and read into a
//! stopped one (`import`: the data-dir lock, one transaction, added or updated by id).
//! Invariants: an export is one read snapshot, written to a temporary name and linked into
//! place (never a half file, never over an existing one); an import changes nothing unless the
//! whole file is valid and every row is written.

pub mod document;
pub mod export;
pub mod import;
mod records;

pub use document::{Document, Malformed, VERSION};
pub use export::{export, ExportError, ExportReport};
pub use import::{import, Counts, ImportError, ImportReport};
