//! Paged answers to `/tasks` and `/pending`: the first page privately, with a "More" button
//! while items remain; a click on it replaces the private message with the next page (and a
//! More button for the page after, if any).
//!
//! Owns: the cursor of such an answer (saved with no chat: only its button names it, so a typed
//! "more" in the channel continues the chat's own last list, not this private one) and the
//! interaction answers.
//! Times are shown in the asker's zone (`people::zone_of`).
//! Invariants: read the store, write the cursor, answer within Discord's 3 seconds (no turn, no
//! model); every page stays within one message (`capture::pages`); a button of a list that is
//! gone is told so privately and changes nothing.

use chrono::Duration;
use twilight_model::application::interaction::Interaction;
use twilight_model::channel::message::MessageFlags;
use twilight_model::http::interaction::{
    InteractionResponse, InteractionResponseData, InteractionResponseType,
};

use super::clicks::{ephemeral, respond};
use super::inbound::InboundWork;
use crate::capture::pages::{self, MoreHint};
use crate::capture::questions;
use crate::capture::rules::Question;
use crate::conversation::list_cursors;
use crate::discord::more_button::{self, MoreButton, LIST_GONE};
use crate::tasks::when::WhenContext;

/// Said when the store cannot be read in time.
const CANNOT_LOOK: &str = "I can't look that up right now; try again in a moment.";

impl InboundWork {
    /// A read-only list, answered privately from the database, a page at a time.
    pub(super) async fn answer_list(&self, interaction: &Interaction, question: Question) {
        let ctx = self.list_context();
        let asker = asker(interaction);
        let expires_at =
            ctx.now + Duration::from_std(self.settings.list_expiry).unwrap_or(Duration::hours(1));
        let answer = self
            .store
            .write(move |conn| {
                let ctx = in_zone_of(conn, asker.as_deref(), ctx)?;
                let listed = questions::list(conn, question, None, ctx.now, ctx.timezone)?;
                let mut answer =
                    pages::first_page(conn, listed, None, &ctx, expires_at, MoreHint::Button)?;
                if let Some(cursor) = &mut answer.cursor {
                    // Its More button pages on only for the one who asked.
                    cursor.asked_by.clone_from(&asker);
                    list_cursors::save(conn, cursor, ctx.now)?;
                }
                Ok(answer)
            })
            .await;
        let answer = match answer {
            Ok(answer) => answer,
            Err(error) => {
                tracing::warn!(%error, "cannot answer a slash command");
                respond(&self.http, interaction, ephemeral(CANNOT_LOOK)).await;
                return;
            }
        };
        let components = answer
            .cursor
            .as_ref()
            .map(|cursor| more_button::row(&cursor.id, cursor.shown));
        let response = InteractionResponse {
            kind: InteractionResponseType::ChannelMessageWithSource,
            data: Some(InteractionResponseData {
                content: Some(answer.text),
                flags: Some(MessageFlags::EPHEMERAL),
                allowed_mentions: Some(Default::default()),
                components,
                ..InteractionResponseData::default()
            }),
        };
        respond(&self.http, interaction, response).await;
    }

    /// A click on "More": the page its button names, in place of the one shown.
    pub(super) async fn more_click(&self, interaction: &Interaction, button: MoreButton) {
        let ctx = self.list_context();
        let asker = asker(interaction);
        let cursor_id = button.cursor_id.clone();
        let page = self
            .store
            .write(move |conn| {
                let ctx = in_zone_of(conn, asker.as_deref(), ctx)?;
                let clicker = asker.as_deref().unwrap_or_default();
                let Some(cursor) = list_cursors::get(conn, &cursor_id)?
                    .filter(|cursor| cursor.is_live(ctx.now) && cursor.belongs_to(clicker))
                else {
                    return Ok(None);
                };
                let page = pages::page(
                    conn,
                    &cursor.heading,
                    &cursor.items,
                    button.from,
                    &ctx,
                    MoreHint::Button,
                )?;
                list_cursors::advance(conn, &cursor.id, page.shown)?;
                Ok(Some((cursor.id, page)))
            })
            .await;
        let (cursor_id, page) = match page {
            Ok(Some(found)) => found,
            Ok(None) => {
                respond(&self.http, interaction, ephemeral(LIST_GONE)).await;
                return;
            }
            Err(error) => {
                tracing::warn!(%error, "cannot show the next page of a list");
                respond(&self.http, interaction, ephemeral(CANNOT_LOOK)).await;
                return;
            }
        };
        // The last page takes the button away.
        let components = if page.has_more() {
            more_button::row(&cursor_id, page.shown)
        } else {
            Vec::new()
        };
        let response = InteractionResponse {
            kind: InteractionResponseType::UpdateMessage,
            data: Some(InteractionResponseData {
                content: Some(page.text),
                allowed_mentions: Some(Default::default()),
                components: Some(components),
                ..InteractionResponseData::default()
            }),
        };
        respond(&self.http, interaction, response).await;
    }

    fn list_context(&self) -> WhenContext {
        WhenContext {
            now: self.clock.now(),
            timezone: self.settings.timezone,
            current_start: None,
            later: std::time::Duration::from_secs(3 * 3600),
        }
    }
}

/// Who clicked or asked (their times are shown in their zone).
fn asker(interaction: &Interaction) -> Option<String> {
    interaction.author_id().map(|id| id.get().to_string())
}

/// `ctx` in the zone of `user` (the config's `timezone` when they set none).
fn in_zone_of(
    conn: &rusqlite::Connection,
    user: Option<&str>,
    ctx: WhenContext,
) -> Result<WhenContext, crate::store::StoreError> {
    let timezone = crate::people::zone_of(conn, user, ctx.timezone)?;
    Ok(WhenContext { timezone, ..ctx })
}
