//! Where "I'm in X now" takes a time zone from, through the running app over HTTP: a place
//! sets its zone; a compass word or the tail of an old alias zone ("the south" is no
//! Australia/South, "central" no Canada/Central) sets nothing; a place in several zones
//! ("Victoria", "Jersey") is asked about, and nothing changes until the person says which.

use crate::common;
use crate::common::Fields;
use crate::people::zone_of;

use common::start_bot;

enum Outcome {
    /// The zone is set to this.
    Sets(&'static str),
    /// Donna asks which zone, naming these; the zone stays.
    Asks(&'static [&'static str]),
    /// Not about the zone: nothing is set, nothing asked.
    Nothing,
}
use Outcome::{Asks, Nothing, Sets};

#[actix_rt::test]
async fn a_place_sets_its_zone_a_word_that_names_none_sets_nothing_and_an_ambiguous_one_asks() {
    let bot = start_bot("").await;
    let thread = bot.free_thread().await;
    let table = [
        ("I'm in the south now", Nothing),
        ("im in the east now", Nothing),
        ("I'm in central now", Nothing),
        ("I'm in the west now", Nothing),
        ("I'm in the north this week", Nothing),
        ("I'm in south now", Nothing),
        ("I'm in East now", Nothing),
        ("I'm in Universal now", Nothing),
        ("moved to the west", Nothing),
        (
            "I'm in Jersey now",
            Asks(&["Europe/Jersey", "America/New_York"]),
        ),
        (
            "I'm in Victoria now",
            Asks(&["Australia/Melbourne", "America/Vancouver"]),
        ),
        (
            "I moved to Georgia",
            Asks(&["Asia/Tbilisi", "America/New_York"]),
        ),
        (
            "I'm in Portland now",
            Asks(&["America/Los_Angeles", "America/New_York"]),
        ),
        (
            "I moved to Birmingham",
            Asks(&["Europe/London", "America/Chicago"]),
        ),
        (
            "ok so I'm in Springfield now",
            Asks(&["America/Chicago", "America/New_York"]),
        ),
        (
            "I'm in San Jose now",
            Asks(&["America/Los_Angeles", "America/Costa_Rica"]),
        ),
        (
            "moved to Hyderabad",
            Asks(&["Asia/Kolkata", "Asia/Karachi"]),
        ),
        (
            "I'm in Washington now",
            Asks(&["America/New_York", "America/Los_Angeles"]),
        ),
        // A country that spans zones: only the person knows which part.
        (
            "I'm in Canada now",
            Asks(&["America/Toronto", "America/Vancouver"]),
        ),
        (
            "i moved to the USA",
            Asks(&["America/New_York", "America/Los_Angeles"]),
        ),
        (
            "we're in Australia now",
            Asks(&["Australia/Sydney", "Australia/Perth"]),
        ),
        ("I'm in Washington DC now", Sets("America/New_York")),
        ("I'm in Seattle now", Sets("America/Los_Angeles")),
        ("I'm in Ireland now", Sets("Europe/Dublin")),
        ("moved to New Zealand", Sets("Pacific/Auckland")),
        ("I'm in Mexico City now", Sets("America/Mexico_City")),
        ("I'm in Melbourne now", Sets("Australia/Melbourne")),
        ("moved to Toronto", Sets("America/Toronto")),
        ("I'm in Adelaide now", Sets("Australia/Adelaide")),
        ("I'm in Sao Paulo now", Sets("America/Sao_Paulo")),
        ("I'm in Greenwich now", Sets("Europe/London")),
        ("I'm in Guernsey now", Sets("Europe/Guernsey")),
        ("my timezone is America/New_York", Sets("America/New_York")),
        ("my timezone is Australia/South", Sets("Australia/South")),
        ("my time zone is central", Sets("America/Chicago")),
        ("I'm on Eastern time now", Sets("America/New_York")),
        ("just moved to Lisbon", Sets("Europe/Lisbon")),
        // Must not: a thing moved, not the person.
        ("moved the meeting to Tokyo", Nothing),
        ("just checking in", Nothing),
        ("I'm in a call with Portland", Nothing),
        ("the Canada trip is next week", Nothing),
    ];
    for (i, (text, outcome)) in table.iter().enumerate() {
        let user = format!("traveller{i}");
        let result = bot.say_as(&thread, &user, text).await;
        let reply = result["reply"].text();
        match outcome {
            Sets(zone) => {
                assert_eq!(zone_of(&bot, &user).await, *zone, "{text}: {result}");
                assert!(
                    reply.starts_with("Your time zone is now"),
                    "{text}: {reply}"
                );
            }
            Asks(zones) => {
                assert_eq!(result["path"], "clarify", "{text}: {result}");
                for zone in *zones {
                    assert!(reply.contains(zone), "{text}: {reply:?} lacks {zone}");
                }
                assert_eq!(zone_of(&bot, &user).await, "UTC", "{text}: {result}");
            }
            Nothing => {
                assert!(!reply.contains("time zone"), "{text}: {reply:?}");
                assert_eq!(zone_of(&bot, &user).await, "UTC", "{text}: {result}");
            }
        }
    }
}
