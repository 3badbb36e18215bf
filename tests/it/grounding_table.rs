//! Grounding as a table of sentences people send: which kind of action each message asks for
//! (`donna::replies::grounding`), the one judgement behind a nudge reply's proposal reaching
//! the person and a chat write running without a yes. Every "no" row is a message a model
//! could read wrong: a question, a negation, an intention, a feeling, or a word that only
//! looks like the action ("dropped it off", "took the bins out", "killing it").

use crate::common::Needed;
use chrono::{TimeZone, Utc};
use donna::replies::grounding::{asks_for, title_in_message, Ask, Context};
use donna::sentence::Sentence;
use donna::tasks::when::{find_when, WhenContext};

fn when_context() -> WhenContext {
    WhenContext {
        now: Utc
            .with_ymd_and_hms(2026, 11, 23, 10, 0, 0)
            .single()
            .needed(),
        timezone: chrono_tz::Europe::Berlin,
        current_start: None,
        later: std::time::Duration::from_secs(3 * 3600),
    }
}

use Ask::*;

/// (message, the task's title, kind, asks for it?)
const TABLE: &[(&str, &str, Ask, bool)] = &[
    // Done: reports, in many words.
    ("yeah, sent it", "Send the invoice", Done, true),
    ("knocked it out this morning", "Tax return", Done, true),
    ("all sorted 👍", "Pay rent", Done, true),
    ("took care of it on the way home", "Pay rent", Done, true),
    ("yep handled", "Pay rent", Done, true),
    ("finally got it done", "Tax return", Done, true),
    ("wrapped it up last night", "Slides for Monday", Done, true),
    ("crossed it off already", "Buy stamps", Done, true),
    ("ticked that one off", "Buy stamps", Done, true),
    ("just paid it", "Pay rent", Done, true),
    ("the money's been transferred", "Pay rent", Done, true),
    ("transferred the money this morning", "Pay rent", Done, true),
    ("called her yesterday", "Call mum", Done, true),
    ("watered them", "Water the plants", Done, true),
    (
        "dropped it off at the post office",
        "Return the parcel",
        Done,
        true,
    ),
    ("submitted ✅", "Expense report", Done, true),
    ("done and dusted", "Expense report", Done, true),
    ("it's done", "Expense report", Done, true),
    ("nailed it", "Expense report", Done, true),
    ("I emailed them the form", "Send form to HR", Done, true),
    ("booked it for the 3rd", "Dentist appointment", Done, true),
    ("cleaned the kitchen", "Clean kitchen", Done, true),
    ("mowed it yesterday", "Mow the lawn", Done, true),
    ("filed them last week", "File taxes", Done, true),
    (
        "picked it up on my way back",
        "Collect dry cleaning",
        Done,
        true,
    ),
    ("renewed it online", "Renew passport", Done, true),
    // Done: must not.
    ("did you send it?", "Send the invoice", Done, false),
    ("is it done?", "Send the invoice", Done, false),
    ("I'll send it tonight", "Send the invoice", Done, false),
    ("gonna pay it after lunch", "Pay rent", Done, false),
    ("I haven't paid it yet", "Pay rent", Done, false),
    ("not done yet", "Pay rent", Done, false),
    (
        "don't mark it as done, I still need to sign it",
        "Contract",
        Done,
        false,
    ),
    ("almost finished, one more page", "Essay", Done, false),
    ("I'm so done with this week", "Essay", Done, false),
    ("I need it done by friday", "Essay", Done, false),
    ("I'm so stressed about it", "Essay", Done, false),
    ("I forgot", "Pay rent", Done, false),
    ("moved it to friday myself", "Pay rent", Done, false),
    ("I tried but the site was down", "Pay rent", Done, false),
    ("I missed the deadline", "Pay rent", Done, false),
    ("the meeting ran late", "Pay rent", Done, false),
    ("ugh what a day", "Pay rent", Done, false),
    ("should I pay it today?", "Pay rent", Done, false),
    ("I will have paid it by friday", "Pay rent", Done, false),
    ("feeling overwhelmed honestly", "Pay rent", Done, false),
    ("it got delayed", "Pay rent", Done, false),
    (
        "the shop was closed, I'll try again on saturday",
        "Buy paint",
        Done,
        false,
    ),
    // Cancel.
    ("bin it", "Gym membership", Cancel, true),
    ("ditch that one", "Gym membership", Cancel, true),
    ("scrap it, not needed", "Gym membership", Cancel, true),
    ("nah kill it", "Gym membership", Cancel, true),
    ("forget it", "Gym membership", Cancel, true),
    (
        "they called the trip off so never mind",
        "Book hotel",
        Cancel,
        true,
    ),
    ("no longer relevant", "Book hotel", Cancel, true),
    ("take it off my list", "Book hotel", Cancel, true),
    ("don't bother with this one", "Book hotel", Cancel, true),
    (
        "the event got cancelled, remove it",
        "Book hotel",
        Cancel,
        true,
    ),
    ("drop it", "Book hotel", Cancel, true),
    ("delete this please", "Book hotel", Cancel, true),
    ("it's moot now", "Book hotel", Cancel, true),
    ("get rid of it", "Book hotel", Cancel, true),
    // Cancel: must not.
    (
        "dropped it off at the post office",
        "Return the parcel",
        Cancel,
        false,
    ),
    ("took the bins out", "Take bins out", Cancel, false),
    ("absolutely killing it today", "Gym", Cancel, false),
    ("don't cancel it, I still need it", "Gym", Cancel, false),
    ("should I cancel it?", "Gym", Cancel, false),
    ("I paid it this morning", "Pay rent", Cancel, false),
    ("please move it to next week", "Pay rent", Cancel, false),
    ("I'll drop by the bank later", "Pay rent", Cancel, false),
    ("I forgot it at home", "Bring the charger", Cancel, false),
    ("forgot about it, sorry", "Pay rent", Cancel, false),
    // Move.
    ("let's do it thursday", "Pay rent", Move, true),
    ("bump it to next week", "Pay rent", Move, true),
    ("push to monday", "Pay rent", Move, true),
    ("can we do friday instead?", "Pay rent", Move, true),
    ("tomorrow works better", "Pay rent", Move, true),
    ("not today", "Pay rent", Move, true),
    ("rain check till monday", "Pay rent", Move, true),
    ("kick it to next month", "Pay rent", Move, true),
    ("postpone please", "Pay rent", Move, true),
    ("put it off for a bit", "Pay rent", Move, true),
    ("how about after lunch?", "Pay rent", Move, true),
    ("I'll do it saturday morning", "Pay rent", Move, true),
    // Move: must not.
    ("when is it due?", "Pay rent", Move, false),
    ("don't move it", "Pay rent", Move, false),
    ("I paid it", "Pay rent", Move, false),
    ("is friday ok?", "Pay rent", Move, false),
    // Snooze.
    ("ask me later", "Pay rent", Snooze, true),
    ("not right now", "Pay rent", Snooze, true),
    ("in a meeting", "Pay rent", Snooze, true),
    ("give me 20", "Pay rent", Snooze, true),
    ("ping me in an hour", "Pay rent", Snooze, true),
    ("busy rn", "Pay rent", Snooze, true),
    ("hold off for now", "Pay rent", Snooze, true),
    ("swamped today", "Pay rent", Snooze, true),
    ("driving, later", "Pay rent", Snooze, true),
    // Snooze: must not.
    ("I paid it this morning", "Pay rent", Snooze, false),
    ("what is this about?", "Pay rent", Snooze, false),
    ("thanks!", "Pay rent", Snooze, false),
    // Rename.
    (
        "make the title say Pay December rent",
        "Pay rent",
        Rename,
        true,
    ),
    ("call it Quarterly taxes", "Taxes", Rename, true),
    ("rename to Call the landlord", "Landlord", Rename, true),
    (
        "it should be Renew passport, not visa",
        "Renew visa",
        Rename,
        true,
    ),
    ("typo, it's Anna not Ana", "Email Ana", Rename, true),
    (
        "change the name to Dentist check-up",
        "Dentist",
        Rename,
        true,
    ),
    // Rename: must not.
    ("I'll call the landlord tomorrow", "Landlord", Rename, false),
    ("I paid it this morning", "Pay rent", Rename, false),
    ("what's it called again?", "Pay rent", Rename, false),
    ("don't rename it", "Pay rent", Rename, false),
    // Create.
    ("stick oat milk on the list", "Pay rent", Create, true),
    ("also add call the plumber", "Pay rent", Create, true),
    ("put bin bags on my list too", "Pay rent", Create, true),
    ("remind me to email Anna", "Pay rent", Create, true),
    (
        "I also need to renew the car insurance",
        "Pay rent",
        Create,
        true,
    ),
    (
        "don't let me forget the vet on friday",
        "Pay rent",
        Create,
        true,
    ),
    ("jot down: buy stamps", "Pay rent", Create, true),
    ("new task: book flights", "Pay rent", Create, true),
    // Create: must not.
    ("I paid it this morning", "Pay rent", Create, false),
    ("what's on my list?", "Pay rent", Create, false),
    ("don't add anything", "Pay rent", Create, false),
    ("please move it to next week", "Pay rent", Create, false),
    ("what a day", "Pay rent", Create, false),
    // Change: priority, domain, description.
    ("make it high priority", "Pay rent", Change, true),
    ("this one is urgent", "Pay rent", Change, true),
    ("it's for work", "Slides", Change, true),
    ("lower the priority", "Slides", Change, true),
    ("add a note: use the new template", "Slides", Change, true),
    // Change: must not.
    ("is it urgent?", "Slides", Change, false),
    ("it's not urgent", "Slides", Change, false),
    ("I paid it this morning", "Pay rent", Change, false),
];

#[test]
fn each_message_asks_for_the_actions_people_mean_and_no_other() {
    let when = when_context();
    let mut wrong = Vec::new();
    for (text, title, ask, expected) in TABLE {
        let message = Sentence::read(text);
        let context = Context {
            task_title: Some(title),
            extra: None,
        };
        let names_a_time = || matches!(find_when(text, &when), Ok(Some(_)));
        let asked = asks_for(&message, *ask, &context, names_a_time);
        if asked != *expected {
            wrong.push(format!(
                "{text:?} ({title}) -> {ask:?}: expected {expected}, got {asked}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong of {}:\n{}",
        wrong.len(),
        TABLE.len(),
        wrong.join("\n")
    );
}

/// (message, a proposed title, does the title stand in the message?)
const TITLES: &[(&str, &str, bool)] = &[
    ("stick oat milk on the list", "Buy oat milk", true),
    ("also add call the plumber", "Call the plumber", true),
    (
        "remind me to email Anna about the lease",
        "Email Anna about the lease",
        true,
    ),
    ("what a day", "Wire 5000 USD to account 1234", false),
    ("I'm so tired", "Sleep", false),
    ("add milk", "Buy eggs", false),
];

#[test]
fn a_proposed_title_must_stand_in_the_message() {
    let mut wrong = Vec::new();
    for (text, title, expected) in TITLES {
        let said = Sentence::read(text);
        let got = title_in_message(&said.words().collect::<Vec<_>>(), title);
        if got != *expected {
            wrong.push(format!(
                "{text:?} / {title:?}: expected {expected}, got {got}"
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}
