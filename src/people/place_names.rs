//! The place names `zones` reads beside IANA's: big cities and countries no zone's name spells
//! ("Munich", "Germany"), words that name no place though an old alias zone ends in them ("the
//! south": no Australia/South), and places in more than one zone ("Victoria"), asked about.
//!
//! Invariant: data only; every zone named here is one chrono-tz knows (`zones` tests read each).

/// Big cities and countries with one zone that no IANA name spells.
pub(super) const PLACES: [(&str, &str); 47] = [
    ("san francisco", "America/Los_Angeles"),
    ("seattle", "America/Los_Angeles"),
    ("san diego", "America/Los_Angeles"),
    ("las vegas", "America/Los_Angeles"),
    ("portland", "America/Los_Angeles"),
    ("boston", "America/New_York"),
    ("washington", "America/New_York"),
    ("washington dc", "America/New_York"),
    ("miami", "America/New_York"),
    ("atlanta", "America/New_York"),
    ("philadelphia", "America/New_York"),
    ("dallas", "America/Chicago"),
    ("houston", "America/Chicago"),
    ("austin", "America/Chicago"),
    ("minneapolis", "America/Chicago"),
    ("new orleans", "America/Chicago"),
    ("salt lake city", "America/Denver"),
    ("montreal", "America/Toronto"),
    ("munich", "Europe/Berlin"),
    ("frankfurt", "Europe/Berlin"),
    ("hamburg", "Europe/Berlin"),
    ("cologne", "Europe/Berlin"),
    ("barcelona", "Europe/Madrid"),
    ("milan", "Europe/Rome"),
    ("florence", "Europe/Rome"),
    ("geneva", "Europe/Zurich"),
    ("manchester", "Europe/London"),
    ("edinburgh", "Europe/London"),
    ("greenwich", "Europe/London"),
    ("beijing", "Asia/Shanghai"),
    ("mumbai", "Asia/Kolkata"),
    ("delhi", "Asia/Kolkata"),
    ("new delhi", "Asia/Kolkata"),
    ("bangalore", "Asia/Kolkata"),
    ("bengaluru", "Asia/Kolkata"),
    ("osaka", "Asia/Tokyo"),
    ("kyoto", "Asia/Tokyo"),
    ("germany", "Europe/Berlin"),
    ("france", "Europe/Paris"),
    ("spain", "Europe/Madrid"),
    ("italy", "Europe/Rome"),
    ("netherlands", "Europe/Amsterdam"),
    ("uk", "Europe/London"),
    ("england", "Europe/London"),
    ("india", "Asia/Kolkata"),
    ("japan", "Asia/Tokyo"),
    ("china", "Asia/Shanghai"),
];

/// Words that name no place, though an old alias zone ends in them ("Australia/South",
/// "Brazil/East", "Universal"): compass words and the names of clocks. Said as a place ("I'm in
/// the south now"), they set nothing; so does a word of the zone table ("central", "zulu":
/// `tasks::when::abbreviation`), which names a clock, not a place.
pub(super) const NO_PLACE: [&str; 15] = [
    "north",
    "south",
    "east",
    "west",
    "centre",
    "center",
    "northern",
    "southern",
    "western",
    "atlantic",
    "general",
    "continental",
    "universal",
    "factory",
    "local",
];

/// Places people name that are in more than one zone: asked about, never guessed.
pub(super) const AMBIGUOUS: [(&str, &[&str]); 4] = [
    (
        "victoria",
        &["Australia/Melbourne", "America/Vancouver", "Indian/Mahe"],
    ),
    ("jersey", &["Europe/Jersey", "America/New_York"]),
    ("georgia", &["Asia/Tbilisi", "America/New_York"]),
    ("cordoba", &["America/Argentina/Cordoba", "Europe/Madrid"]),
];
