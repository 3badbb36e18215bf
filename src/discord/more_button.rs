//! The "More" button under a paged `/tasks` or `/pending` answer: its custom id names the list
//! (a cursor, `conversation::list_cursors`) and where the next page starts, so a click shows
//! exactly that page (a second click on the same button shows the same page again, never skips
//! one).
//!
//! Invariant: a custom id is `more:<cursor id>:<first item>`; anything else is not a More
//! button and is read as nothing.

use twilight_model::channel::message::component::{ActionRow, Button, ButtonStyle};
use twilight_model::channel::message::Component;

/// A click on a More button: which list, from which item (0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoreButton {
    pub cursor_id: String,
    pub from: usize,
}

const PREFIX: &str = "more:";

/// Said when the list behind a More button is gone (expired, or replaced and swept).
pub const LIST_GONE: &str =
    "That list is too old to continue; ask again with /tasks or /pending. Nothing changed.";

pub fn custom_id(cursor_id: &str, from: usize) -> String {
    format!("{PREFIX}{cursor_id}:{from}")
}

/// Reads a custom id back; `None` for anything that is not a More button.
pub fn parse(custom_id: &str) -> Option<MoreButton> {
    let rest = custom_id.strip_prefix(PREFIX)?;
    let (cursor_id, from) = rest.rsplit_once(':')?;
    let from = from.parse().ok()?;
    let valid_id = !cursor_id.is_empty()
        && cursor_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    valid_id.then(|| MoreButton {
        cursor_id: cursor_id.to_string(),
        from,
    })
}

/// The action row with one "More" button showing the page from item `from`.
pub fn row(cursor_id: &str, from: usize) -> Vec<Component> {
    vec![Component::ActionRow(ActionRow {
        components: vec![Component::Button(Button {
            custom_id: Some(custom_id(cursor_id, from)),
            disabled: false,
            emoji: None,
            id: None,
            label: Some("More".to_string()),
            sku_id: None,
            style: ButtonStyle::Primary,
            url: None,
        })],
        id: None,
    })]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_more_button_names_its_list_and_page() {
        let id = custom_id("lst_0a1b", 20);
        assert_eq!(id, "more:lst_0a1b:20");
        assert_eq!(
            parse(&id),
            Some(MoreButton {
                cursor_id: "lst_0a1b".into(),
                from: 20
            })
        );
        for other in [
            "",
            "more:",
            "more::20",
            "more:lst_1:",
            "more:lst_1:-1",
            "more:lst 1:20",
            "more:lst_1:twenty",
            "plan:pln_1:yes",
        ] {
            assert_eq!(parse(other), None, "{other:?}");
        }
    }
}
