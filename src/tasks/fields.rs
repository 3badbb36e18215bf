//! The values a task may hold, checked in one place: every door that stores a task (the HTTP
//! API, the chat's actions and captures, `donna import`) calls these, so an import accepts
//! exactly what Donna would store through her own doors, and nothing else.
//!
//! Fields a person sets: a title ([`clean_title`]), a description ([`check_description`]), a
//! domain, a priority, an estimate in minutes ([`check_estimate`]), tags ([`check_tags`]).
//! Fields only Donna sets have stated bounds, checked on import with the rest of a stored
//! task (`tasks::stored`): counters within 0..=[`MAX_COUNT`] (and Donna's own counting
//! saturates there: [`count_one_more`]), ids through `ids::check`, learned preferences as the
//! capture writes them.
//! Invariants: pure; every refusal is told to the person or API caller as it is; a value that
//! passes is one no tick, list or feed can fail on.

use std::ops::RangeInclusive;

/// Life areas a task belongs to.
pub const DOMAINS: [&str; 3] = ["work", "personal", "family"];
pub const PRIORITY_RANGE: RangeInclusive<i64> = 1..=5;
pub const MAX_TITLE_CHARS: usize = 200;
pub const MAX_DESCRIPTION_CHARS: usize = 4_000;
/// An estimate, in minutes: at least a minute, at most 100,000 (about ten weeks).
pub const ESTIMATE_MINUTES: RangeInclusive<i64> = 1..=100_000;
/// The most tags a task has, and the longest tag.
pub const MAX_TAGS: usize = 10;
pub const MAX_TAG_CHARS: usize = 40;
/// The highest a counter (nudges sent, unanswered, reschedules) goes: it stays there.
pub const MAX_COUNT: i64 = 1_000_000;
/// The longest reason a learned preference gives ("filed under work, like '...'").
pub const MAX_REASON_CHARS: usize = 2 * MAX_TITLE_CHARS;

/// Why a task field was refused. The text is told to the person (or API caller) as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaskFieldError {
    #[error("title must not be empty")]
    EmptyTitle,
    #[error("title must be at most {MAX_TITLE_CHARS} characters")]
    TitleTooLong,
    #[error("title must not contain control characters")]
    TitleControl,
    #[error("title must have at least one visible character (letters, digits, punctuation or symbols); this one is only spaces or invisible characters")]
    TitleInvisible,
    #[error("domain must be one of {list}", list = DOMAINS.join(", "))]
    Domain,
    #[error("priority must be between {} and {}", PRIORITY_RANGE.start(), PRIORITY_RANGE.end())]
    Priority,
    #[error("description must be at most {MAX_DESCRIPTION_CHARS} characters")]
    DescriptionTooLong,
    #[error("description must not contain control characters other than line breaks and tabs")]
    DescriptionControl,
    #[error("estimated_duration_minutes must be between {} and {}", ESTIMATE_MINUTES.start(), ESTIMATE_MINUTES.end())]
    Estimate,
    #[error("tags must be at most {MAX_TAGS}, each at most {MAX_TAG_CHARS} characters without control characters")]
    Tags,
}

/// Checks a title: trimmed, not empty, not too long, no control characters, and something a
/// person can see (not only zero-width spaces, joiners, bidi marks, combining marks without a
/// letter, or spaces of any kind).
pub fn clean_title(title: &str) -> Result<String, TaskFieldError> {
    let title = title.trim();
    if title.is_empty() {
        return Err(TaskFieldError::EmptyTitle);
    }
    if title.chars().count() > MAX_TITLE_CHARS {
        return Err(TaskFieldError::TitleTooLong);
    }
    if title.chars().any(|c| c.is_control()) {
        return Err(TaskFieldError::TitleControl);
    }
    if !title.chars().any(is_visible) {
        return Err(TaskFieldError::TitleInvisible);
    }
    Ok(title.to_string())
}

/// Whether a character shows on its own: a letter, digit, punctuation mark or symbol (Unicode
/// general categories L, N, P, S), except the blank ones among them (the Hangul fillers and the
/// blank Braille pattern). Spaces, format characters (zero-width spaces and joiners, bidi
/// marks, the byte order mark), marks (which only decorate another character), private-use
/// and unassigned code points are not.
fn is_visible(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    const BLANK: [char; 5] = ['\u{115F}', '\u{1160}', '\u{3164}', '\u{FFA0}', '\u{2800}'];
    matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Letter
            | GeneralCategoryGroup::Number
            | GeneralCategoryGroup::Punctuation
            | GeneralCategoryGroup::Symbol
    ) && !BLANK.contains(&c)
}

pub fn check_domain(domain: &str) -> Result<(), TaskFieldError> {
    if DOMAINS.contains(&domain) {
        Ok(())
    } else {
        Err(TaskFieldError::Domain)
    }
}

pub fn check_priority(priority: i64) -> Result<(), TaskFieldError> {
    if PRIORITY_RANGE.contains(&priority) {
        Ok(())
    } else {
        Err(TaskFieldError::Priority)
    }
}

/// A description as stored: trimmed, None when empty; refused when longer than
/// [`MAX_DESCRIPTION_CHARS`] or holding control characters other than line breaks and tabs.
pub fn check_description(description: Option<&str>) -> Result<Option<String>, TaskFieldError> {
    let Some(description) = description.map(str::trim) else {
        return Ok(None);
    };
    if description.is_empty() {
        return Ok(None);
    }
    if description.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(TaskFieldError::DescriptionTooLong);
    }
    if description
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        return Err(TaskFieldError::DescriptionControl);
    }
    Ok(Some(description.to_string()))
}

/// An estimate in minutes, within [`ESTIMATE_MINUTES`].
pub fn check_estimate(minutes: Option<i64>) -> Result<Option<i64>, TaskFieldError> {
    match minutes {
        Some(minutes) if !ESTIMATE_MINUTES.contains(&minutes) => Err(TaskFieldError::Estimate),
        other => Ok(other),
    }
}

/// Tags as stored: each trimmed and not empty, at most [`MAX_TAGS`] of at most
/// [`MAX_TAG_CHARS`] characters, no control characters.
pub fn check_tags(tags: &[String]) -> Result<Vec<String>, TaskFieldError> {
    let tags: Vec<String> = tags
        .iter()
        .map(|tag| tag.trim().to_string())
        .filter(|tag| !tag.is_empty())
        .collect();
    if tags.len() > MAX_TAGS
        || tags
            .iter()
            .any(|tag| tag.chars().count() > MAX_TAG_CHARS || tag.chars().any(char::is_control))
    {
        return Err(TaskFieldError::Tags);
    }
    Ok(tags)
}

/// A counter after one more, counted from within 0..=[`MAX_COUNT`] and saturating there
/// (never an overflow; a negative count, which no door stores, counts from 0).
pub fn count_one_more(count: i64) -> i64 {
    count.clamp(0, MAX_COUNT).saturating_add(1).min(MAX_COUNT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_saturates_within_its_bounds() {
        assert_eq!(count_one_more(i64::MAX), MAX_COUNT);
        assert_eq!(count_one_more(MAX_COUNT), MAX_COUNT);
        assert_eq!(count_one_more(-7), 1);
        assert_eq!(count_one_more(2), 3);
    }

    #[test]
    fn a_title_must_have_something_a_person_can_see() {
        // (title, accepted)
        let table = [
            ("Pay rent", true),
            ("🎉", true),
            ("!!!", true),
            ("日本語", true),
            ("e\u{301}", true),
            ("\u{200B}Pay rent", true),
            ("\u{200B}", false),
            ("\u{200B}\u{200C}\u{200D}", false),
            ("\u{2060}\u{FEFF}", false),
            (
                "\u{200E}\u{200F}\u{202A}\u{202E}\u{2066}\u{2069}\u{061C}",
                false,
            ),
            ("\u{301}\u{302}\u{20DD}", false),
            ("\u{00A0}\u{2003}\u{3000}\u{205F}", false),
            ("\u{00AD}\u{180E}", false),
            ("\u{3164}\u{115F}\u{2800}", false),
            ("\u{FE0F}\u{E0041}", false),
            ("\u{E000}", false),
        ];
        for (title, accepted) in table {
            let result = clean_title(title);
            assert_eq!(result.is_ok(), accepted, "{title:?}: {result:?}");
            if !accepted {
                assert!(
                    matches!(
                        result,
                        Err(TaskFieldError::TitleInvisible | TaskFieldError::EmptyTitle)
                    ),
                    "{title:?}: {result:?}"
                );
            }
        }
    }
}
