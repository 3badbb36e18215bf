//! Day-part words, and midnight said as the end of a day.

use super::*;

#[rustfmt::skip]
#[test]
fn day_part_words() {
    check("midnight", NOW, At("Sat 2026-11-28 00:00"));
    check("at midnight", NOW, At("Sat 2026-11-28 00:00"));
    check("tonight at midnight", NOW, At("Sat 2026-11-28 00:00"));
    check("midnight tonight", NOW, At("Sat 2026-11-28 00:00"));
    check("tomorrow at midnight", NOW, At("Sun 2026-11-29 00:00"));
    check("friday at midnight", NOW, At("Sat 2026-12-05 00:00"));
    check("12am", NOW, At("Sat 2026-11-28 00:00"));
    check("noon", NOW, At("Fri 2026-11-27 12:00"));
    check("at midday", NOW, At("Fri 2026-11-27 12:00"));
    check("12 noon", NOW, At("Fri 2026-11-27 12:00"));
    check("tomorrow at noon", NOW, At("Sat 2026-11-28 12:00"));
    check("first thing", NOW, At("Sat 2026-11-28 09:00"));
    check("first thing tomorrow", NOW, At("Sat 2026-11-28 09:00"));
    check("tomorrow first thing", NOW, At("Sat 2026-11-28 09:00"));
    check("first thing monday", NOW, At("Mon 2026-11-30 09:00"));
    check("first thing in the morning", NOW, At("Sat 2026-11-28 09:00"));
    check("lunchtime", NOW, At("Fri 2026-11-27 12:00"));
    check("at lunch tomorrow", NOW, At("Sat 2026-11-28 12:00"));
    check("tomorrow lunchtime", NOW, At("Sat 2026-11-28 12:00"));
    check("this afternoon", NOW, At("Fri 2026-11-27 14:00"));
    check("this evening", NOW, At("Fri 2026-11-27 18:00"));
    check("tonight", NOW, At("Fri 2026-11-27 20:00"));
    check("tomorrow night", NOW, At("Sat 2026-11-28 20:00"));
    check("saturday morning", NOW, At("Sat 2026-11-28 09:00"));
    check("half past 3 this afternoon", NOW, At("Fri 2026-11-27 15:30"));
    check("quarter to 5 in the afternoon", NOW, At("Fri 2026-11-27 16:45"));
    check("at 5 o'clock tonight", NOW, At("Fri 2026-11-27 17:00"));
    check("at 9 o'clock", NOW, At("Sat 2026-11-28 09:00"));
    check("at five pm", NOW, At("Fri 2026-11-27 17:00"));
    check("at 15h30", NOW, At("Fri 2026-11-27 15:30"));
    check("this morning", NOW, Fails(WhenError::PastTime));
    // h:mm without am/pm is read like a bare hour: the morning for 7..=11, asked for 1..=6.
    check("at 3:15", NOW, Fails(WhenError::AmbiguousTime("3:15".into())));
    check("tonight at 9:30", NOW, At("Fri 2026-11-27 21:30"));
    check("at 7:30", NOW, At("Sat 2026-11-28 07:30"));
    check("at 03:15", NOW, At("Sat 2026-11-28 03:15"));
    check("at 3:15pm", NOW, At("Fri 2026-11-27 15:15"));
    check("half past 3", NOW, Fails(WhenError::AmbiguousTime("3:30".into())));
    check("wed eve", NOW, At("Wed 2026-12-02 18:00"));
    check("tomorrow arvo", NOW, At("Sat 2026-11-28 14:00"));
    check("at 17.30", NOW, At("Fri 2026-11-27 17:30"));
    check("at 1730", NOW, At("Fri 2026-11-27 17:30"));
    check("at 5.30", NOW, Fails(WhenError::AmbiguousTime("5:30".into())));
    check("at 8 am sharp", NOW, At("Sat 2026-11-28 08:00"));
    check("at about 5pm", NOW, At("Fri 2026-11-27 17:00"));
    check("by around 6", NOW, Fails(WhenError::AmbiguousHour(6)));
    check("tonight around 8", NOW, At("Fri 2026-11-27 20:00"));
    check("tomorrow at 5ish", NOW, unread("5ish"));
    check("tomorrow before lunch", NOW, unread("before lunch"));
    check("tomorrow after work", NOW, unread("after work"));
    check("late tonight", NOW, unread("late"));
    // Must not: the same words describing things.
    check("night owl club", NOW, Nothing);
    check("buy morning glory seeds", NOW, Nothing);
    check("afternoon tea with gran", NOW, Nothing);
    check("eat lunch with anna", NOW, Nothing);
    check("lunch with anna tomorrow", NOW, At("Sat 2026-11-28 09:00"));
    check("the first thing I see", NOW, Nothing);
    check("first thing I need is coffee", NOW, Nothing);
    check("midnight snack", NOW, Nothing);
    check("noon meeting notes", NOW, Nothing);
    check("watch the 5 o'clock news", NOW, Nothing);
    check("buy tickets for the 7pm show", NOW, Nothing);
    check("tickets for sunday's matinee", NOW, At("Sun 2026-11-29 09:00"));
}

#[rustfmt::skip]
#[test]
fn midnight_is_said_as_the_end_of_a_day() {
    let ctx = context(NOW);
    let said = |text: &str| find_when(text, &ctx).map(|at| at.map(|at| describe(at, &ctx)));
    assert_eq!(said("midnight"), Ok(Some("tonight at midnight (00:00 Sat 28 Nov)".into())));
    assert_eq!(said("tomorrow at midnight"), Ok(Some("tomorrow at midnight (00:00 Sun 29 Nov)".into())));
    assert_eq!(said("friday at midnight"), Ok(Some("Friday 4 Dec at midnight (00:00 Sat 5 Dec)".into())));
    assert_eq!(said("12am"), Ok(Some("tonight at midnight (00:00 Sat 28 Nov)".into())));
    assert_eq!(said("noon"), Ok(Some("today at 12:00".into())));
}
