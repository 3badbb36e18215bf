//! A page of a list (or why there is none): the chat's list cursor moves with the page
//! (`turn::list_step`), so "more" continues where it stopped.

use crate::store::StoreError;

use super::super::list_step::{self, ListStep};
use super::super::result::TurnPath;
use super::answered::{Answered, At};

pub fn commit(
    at: &At<'_>,
    path: TurnPath,
    text: String,
    step: ListStep,
) -> Result<Answered, StoreError> {
    list_step::apply(at.conn, at.thread_id(), step, at.now)?;
    Ok(Answered::new(path, text))
}
