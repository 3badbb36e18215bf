//! Zones and offsets named in the sentence.

use super::*;

#[rustfmt::skip]
#[test]
fn zones_and_offsets_named_in_the_sentence() {
    check("at 3pm UTC", NOW, At("Fri 2026-11-27 16:00"));
    check("3pm GMT", NOW, At("Fri 2026-11-27 16:00"));
    check("9am PST", NOW, At("Fri 2026-11-27 18:00"));
    check("9am PT", NOW, At("Fri 2026-11-27 18:00"));
    check("9am pacific time", NOW, At("Fri 2026-11-27 18:00"));
    check("noon pacific", NOW, At("Fri 2026-11-27 21:00"));
    check("3pm ET", NOW, At("Fri 2026-11-27 21:00"));
    check("3pm EST", NOW, At("Fri 2026-11-27 21:00"));
    check("3pm EDT", NOW, At("Fri 2026-11-27 21:00"));
    check("3pm eastern time", NOW, At("Fri 2026-11-27 21:00"));
    check("tomorrow 10am ET", NOW, At("Sat 2026-11-28 16:00"));
    check("3pm CT", NOW, At("Fri 2026-11-27 22:00"));
    check("3pm CET", NOW, At("Fri 2026-11-27 15:00"));
    check("3pm CEST", NOW, At("Fri 2026-11-27 15:00"));
    check("5pm BST", NOW, At("Fri 2026-11-27 18:00"));
    check("at 14:00 UTC+2", NOW, At("Fri 2026-11-27 13:00"));
    check("at 14:00 GMT+2", NOW, At("Fri 2026-11-27 13:00"));
    check("9:00 GMT-5", NOW, At("Fri 2026-11-27 15:00"));
    check("14:00 UTC +2", NOW, At("Fri 2026-11-27 13:00"));
    check("14:00 +02:00", NOW, At("Fri 2026-11-27 13:00"));
    check("10am America/New_York", NOW, At("Fri 2026-11-27 16:00"));
    check("10am america/new_york", NOW, At("Fri 2026-11-27 16:00"));
    check("5pm New York time", NOW, At("Fri 2026-11-27 23:00"));
    check("9am london time", NOW, At("Sat 2026-11-28 10:00"));
    check("3pm Tokyo time", NOW, At("Sat 2026-11-28 07:00"));
    check("9:30 UTC+5:30", NOW, At("Sat 2026-11-28 05:00"));
    check("friday 9am (PST)", NOW, At("Fri 2026-12-04 18:00"));
    check("tomorrow at 3pm my time", NOW, At("Sat 2026-11-28 15:00"));
    // Across a daylight saving change: New York is on summer time, Berlin not yet.
    check("tomorrow 3pm ET", "Mon 2027-03-15 10:00", At("Tue 2027-03-16 20:00"));
    // Read in another person's zone: said in theirs.
    check("3pm CET", "Fri 2026-11-27 10:00 America/New_York", At("Sat 2026-11-28 09:00"));
    // Ambiguous or unknown: asked.
    check("9am IST", NOW, Fails(WhenError::AmbiguousZone { written: "IST".into(), could_be: "India, Israel or Irish Standard Time", example: "Asia/Kolkata" }));
    check("3pm UTC+15", NOW, Fails(WhenError::UnknownZone("UTC+15".into())));
    check("PST 9am", NOW, unread("PST"));
    // Must not: the same letters not after a time.
    check("call the PST office", NOW, Nothing);
    check("email the UTC team", NOW, Nothing);
    check("meet at 5pm central station", NOW, At("Fri 2026-11-27 17:00"));
    check("read about Europe/Berlin", NOW, Nothing);
}
