//! Clicks on a nudge's buttons: "Done", "Snooze 1h" or "Tomorrow" under a nudge answers exactly
//! that nudge's task, in the chat the nudge went to, as the intent it stands for (done, snooze
//! for an hour, tomorrow): the room typing "done", "snooze 1h" or "tomorrow" would reach, without
//! reading those words (same inbox, same pipeline, so "undo" takes it back).
//!
//! Owns: deciding whether a click may answer (who, which nudge, still answerable), the
//! interaction's acknowledgement, and queueing its turn in the nudge's chat.
//! Takes: `Interaction`s from the channel's inbound queue (a click keeps its place among the
//! channel's messages; clicks on one message are handled one after another). Sends: the
//! callback to Discord; `Incoming` to the intake (the button's intent, the interaction id as the
//! message id, `answers_nudge` the button's nudge).
//! Who may answer: the people Donna works for (`discord.allowed_user_ids`), the same people
//! whose typed "done" in that chat acts on the task; anyone else is told so, privately.
//! Invariants:
//! - A click is acknowledged once, at once (a deferred update, or the private reason it changes
//!   nothing), after one store read: no turn and no model before it.
//! - A nudge is answered by one click: a second click (the first one's message is in the inbox
//!   before the next click of the channel is read), a click on an older nudge of the same task,
//!   or a click once the task is closed is told why, privately, and changes nothing. The turn
//!   checks again (`turn::context`), so a click that became stale on its way changes nothing.
//! - The interaction id is the message id: an interaction delivered twice is one message.

use rusqlite::Connection;
use twilight_model::application::interaction::Interaction;
use twilight_model::http::interaction::{InteractionResponse, InteractionResponseType};

use super::clicks::{ephemeral, respond};
use super::inbound::InboundWork;
use crate::conversation::{nudge_records, threads, Channel};
use crate::discord::nudge_buttons::{NudgeButton, NudgeRefusal};
use crate::store::StoreError;
use crate::tasks::repo;
use crate::turn::intake::Incoming;

impl InboundWork {
    /// A click on one of a nudge's buttons, by Discord user `user`.
    pub(super) async fn nudge_click(
        &self,
        interaction: &Interaction,
        user: u64,
        button: NudgeButton,
    ) {
        let refusal = if self.settings.allowed_user_ids.contains(&user) {
            let check = button.clone();
            match self.store.read(move |conn| may_answer(conn, &check)).await {
                Ok(answerable) => answerable,
                Err(error) => {
                    tracing::warn!(%error, "cannot check a click against its nudge");
                    return;
                }
            }
        } else {
            Err(NudgeRefusal::NotYours)
        };
        let thread_id = match refusal {
            Ok(thread_id) => thread_id,
            Err(refusal) => {
                tracing::debug!(?refusal, nudge = %button.nudge_id, "a click on a nudge changed nothing");
                respond(&self.http, interaction, ephemeral(&refusal.text())).await;
                return;
            }
        };
        let deferred = InteractionResponse {
            kind: InteractionResponseType::DeferredUpdateMessage,
            data: None,
        };
        respond(&self.http, interaction, deferred).await;
        let queued = self
            .intake
            .enqueue(
                Incoming::clicked(
                    Channel::Discord,
                    thread_id,
                    user.to_string(),
                    button.answer.intent(),
                )
                .with_message_id(interaction.id.get().to_string())
                .answering_nudge(button.nudge_id),
            )
            .await;
        match queued {
            Ok(pending) => self.deliver_after(pending, ()),
            Err(error) => tracing::warn!(%error, "a click on a nudge was refused"),
        }
    }
}

/// The chat whose turn answers the click, or why the click may not answer.
fn may_answer(
    conn: &Connection,
    button: &NudgeButton,
) -> Result<Result<String, NudgeRefusal>, StoreError> {
    let Some(nudge) =
        nudge_records::get(conn, &button.nudge_id)?.filter(|n| n.task_id == button.task_id)
    else {
        return Ok(Err(NudgeRefusal::Unknown));
    };
    let Some(task) = repo::get(conn, &nudge.task_id)? else {
        return Ok(Err(NudgeRefusal::Unknown));
    };
    if !task.status.is_open() {
        return Ok(Err(NudgeRefusal::Closed {
            title: task.title,
            status: task.status.as_str().to_string(),
        }));
    }
    if nudge_records::replaced(conn, &nudge)? {
        return Ok(Err(NudgeRefusal::Replaced { title: task.title }));
    }
    if nudge_records::answered(conn, &nudge.id, None)? {
        return Ok(Err(NudgeRefusal::Answered));
    }
    if !threads::get(conn, &nudge.thread_id)?.is_some_and(|thread| thread.open) {
        return Ok(Err(NudgeRefusal::Unknown));
    }
    Ok(Ok(nudge.thread_id))
}
