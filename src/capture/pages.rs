//! Lists a page at a time: a list answer shows at most [`PAGE_SIZE`] items and says how many
//! more there are; the next page continues where the last one stopped, until "That's all."
//!
//! Owns: how a page looks (its heading with the count, numbered items that continue across
//! pages, the footer) and fitting it into one message: no page is longer than
//! [`MAX_PAGE_CHARS`], because titles too long for the page are cut with an ellipsis (never the
//! count, the numbers or the times).
//! Items are read when their page is shown: a task shows its title and time as they are then
//! (or its status, when it was closed since the list was asked).
//! Invariants: read-only; every item of a list is on exactly one page.

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use super::questions::{timing, Listed};
use crate::conversation::list_cursors::{ListCursor, ListItem};
use crate::store::StoreError;
use crate::tasks::repo;
use crate::tasks::when::WhenContext;

/// Most items on one page.
pub const PAGE_SIZE: usize = 20;

/// Longest page, in characters: below Discord's 2,000 with room to spare.
pub const MAX_PAGE_CHARS: usize = 1_900;

/// How a page tells that more items follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoreHint {
    /// In a chat: say "more".
    Say,
    /// Under a More button: the button says it.
    Button,
}

/// One page of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub text: String,
    /// How many items have been shown once this page is (the next page starts there).
    pub shown: usize,
    pub total: usize,
}

impl Page {
    pub fn has_more(&self) -> bool {
        self.shown < self.total
    }
}

/// A list answer: its first page, and the cursor "more" continues from when more items follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListAnswer {
    pub text: String,
    pub cursor: Option<ListCursor>,
}

/// The first page of what a question `listed`; with more to come, a cursor for the chat
/// `thread_id` (None: for a button), live until `expires_at`.
pub fn first_page(
    conn: &Connection,
    listed: Listed,
    thread_id: Option<&str>,
    ctx: &WhenContext,
    expires_at: DateTime<Utc>,
    hint: MoreHint,
) -> Result<ListAnswer, StoreError> {
    let (heading, items) = match listed {
        Listed::Nothing(text) => return Ok(ListAnswer { text, cursor: None }),
        Listed::Items { heading, items } => (heading, items),
    };
    let first = page(conn, &heading, &items, 0, ctx, hint)?;
    let cursor = first.has_more().then(|| ListCursor {
        id: crate::ids::new_id("lst"),
        thread_id: thread_id.map(str::to_string),
        heading,
        items,
        shown: first.shown,
        created_at: ctx.now,
        expires_at,
        asked_by: None,
    });
    Ok(ListAnswer {
        text: first.text,
        cursor,
    })
}

/// The page of `items` starting at item `from` (0-based).
pub fn page(
    conn: &Connection,
    heading: &str,
    items: &[ListItem],
    from: usize,
    ctx: &WhenContext,
    hint: MoreHint,
) -> Result<Page, StoreError> {
    let total = items.len();
    let from = from.min(total);
    let to = (from + PAGE_SIZE).min(total);
    let mut parts = vec![Part::Fixed(if from == 0 {
        format!("{heading} ({total}):")
    } else {
        format!("{heading} ({total}), {}-{to}:", from + 1)
    })];
    for (offset, item) in items[from..to].iter().enumerate() {
        parts.push(line(conn, from + offset + 1, item, ctx)?);
    }
    let left = total - to;
    if left > 0 {
        parts.push(Part::Fixed(match hint {
            MoreHint::Say => format!(
                "...and {left} more: say \"more\" for the next {}.",
                left.min(PAGE_SIZE)
            ),
            MoreHint::Button => format!("...and {left} more."),
        }));
    } else if from > 0 {
        parts.push(Part::Fixed("That's all.".to_string()));
    }
    Ok(Page {
        text: fit(parts, MAX_PAGE_CHARS),
        shown: to,
        total,
    })
}

/// Item `number` as a line: a task with its time (or its status once closed), or a line.
fn line(
    conn: &Connection,
    number: usize,
    item: &ListItem,
    ctx: &WhenContext,
) -> Result<Part, StoreError> {
    Ok(match item {
        ListItem::Task(id) => match repo::get(conn, id)? {
            Some(task) => {
                let suffix = if task.status.is_open() {
                    timing(&task, ctx)
                } else {
                    format!(" ({} since)", task.status.as_str().replace('_', " "))
                };
                Part::Line {
                    prefix: format!("{number}. "),
                    title: task.title,
                    suffix,
                }
            }
            None => Part::Fixed(format!("{number}. (a task deleted since)")),
        },
        ListItem::Line(text) => Part::Line {
            prefix: String::new(),
            title: text.clone(),
            suffix: String::new(),
        },
    })
}

/// A piece of a message: kept whole, or a line whose `title` may be cut to fit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Fixed(String),
    Line {
        prefix: String,
        title: String,
        suffix: String,
    },
}

/// The parts as lines of at most `max` characters in all: when they do not fit, the longest
/// titles are cut (each to the same length, the longest that fits) and end in "…".
pub fn fit(parts: Vec<Part>, max: usize) -> String {
    let chars = |text: &str| text.chars().count();
    let newlines = parts.len().saturating_sub(1);
    let fixed: usize = newlines
        + parts
            .iter()
            .map(|part| match part {
                Part::Fixed(text) => chars(text),
                Part::Line { prefix, suffix, .. } => chars(prefix) + chars(suffix),
            })
            .sum::<usize>();
    let titles: Vec<usize> = parts
        .iter()
        .filter_map(|part| match part {
            Part::Line { title, .. } => Some(chars(title)),
            Part::Fixed(_) => None,
        })
        .collect();
    let budget = max.saturating_sub(fixed);
    let needed = |limit: usize| titles.iter().map(|len| (*len).min(limit)).sum::<usize>();
    let longest = titles.iter().copied().max().unwrap_or(0);
    // The longest limit whose titles fit the budget (at least one character each).
    let (mut low, mut high) = (1, longest.max(1));
    while low < high {
        let middle = (low + high).div_ceil(2);
        if needed(middle) <= budget {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    let limit = low;
    parts
        .into_iter()
        .map(|part| match part {
            Part::Fixed(text) => text,
            Part::Line {
                prefix,
                title,
                suffix,
            } => format!("{prefix}{}{suffix}", cut(&title, limit)),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` in at most `max` characters: cut with "…" when longer.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(title: &str) -> Part {
        Part::Line {
            prefix: "1. ".into(),
            title: title.into(),
            suffix: " (due today at 09:00)".into(),
        }
    }

    #[test]
    fn titles_are_cut_only_when_the_page_would_not_fit() {
        let short = fit(
            vec![Part::Fixed("Tasks (1):".into()), line("Pay rent")],
            100,
        );
        assert_eq!(short, "Tasks (1):\n1. Pay rent (due today at 09:00)");
        let long = "x".repeat(200);
        let parts: Vec<Part> = std::iter::once(Part::Fixed("Tasks (20):".into()))
            .chain((0..20).map(|_| line(&long)))
            .collect();
        let text = fit(parts, MAX_PAGE_CHARS);
        assert!(text.chars().count() <= MAX_PAGE_CHARS, "{}", text.len());
        assert!(text.contains("…"), "{text}");
        // Every line keeps its number and its time.
        assert_eq!(text.matches(" (due today at 09:00)").count(), 20);
    }

    #[test]
    fn a_cut_ends_in_an_ellipsis_within_the_limit() {
        assert_eq!(cut("Pay rent", 8), "Pay rent");
        assert_eq!(cut("Pay the rent", 8), "Pay the…");
        assert_eq!(cut("Renew passport", 6), "Renew…");
        assert_eq!(cut("ééééé", 3), "éé…");
    }
}
