//! Titles keep their own numbers and day words.

use super::*;

/// Titles whose numbers and day words are their own: nothing is read from them and they stay.
#[rustfmt::skip]
#[test]
fn titles_keep_their_own_numbers_and_day_words() {
    cap("buy 2 and a half kilos of flour", NOW, "Buy 2 and a half kilos of flour", Nothing);
    cap("read chapter 21", NOW, "Read chapter 21", Nothing);
    cap("call May", NOW, "Call May", Nothing);
    cap("call Jan on monday", NOW, "Call Jan", At("Mon 2026-11-30 09:00"));
    cap("watch The Day After Tomorrow", NOW, "Watch The Day After Tomorrow", Nothing);
    cap("read Next Friday by Sam", NOW, "Read Next Friday by Sam", Nothing);
    cap("buy 12 eggs tomorrow", NOW, "Buy 12 eggs", At("Sat 2026-11-28 09:00"));
    cap("read chapter 21 tomorrow", NOW, "Read chapter 21", At("Sat 2026-11-28 09:00"));
    cap("finish the 3rd chapter by friday", NOW, "Finish the 3rd chapter", At("Fri 2026-12-04 09:00"));
    cap("call mom about the 2 tickets at 5pm", NOW, "Call mom about the 2 tickets", At("Fri 2026-11-27 17:00"));
    cap("get 8 hours of sleep", NOW, "Get 8 hours of sleep", Nothing);
    cap("run a half marathon", NOW, "Run a half marathon", Nothing);
    cap("plan the march madness pool", NOW, "Plan the march madness pool", Nothing);
    cap("email the UTC team tomorrow", NOW, "Email the UTC team", At("Sat 2026-11-28 09:00"));
    cap("book the night owl tour on saturday", NOW, "Book the night owl tour", At("Sat 2026-11-28 09:00"));
    cap("reply to the 3rd email", NOW, "Reply to the 3rd email", Nothing);
    cap("buy 1/2 cup of sugar", NOW, "Buy 1/2 cup of sugar", Nothing);
    cap("move the meeting from friday to monday", NOW, "Move the meeting from friday to", At("Mon 2026-11-30 09:00"));
    cap("plan the 4th of july party", NOW, "Plan the 4th of july party", Nothing);
    cap("buy tickets for the 7pm show", NOW, "Buy tickets for the 7pm show", Nothing);
    cap("book the 10am slot", NOW, "Book the 10am slot", Nothing);
    cap("leave work early on friday", NOW, "Leave work early", At("Fri 2026-12-04 09:00"));
    cap("submit the form ASAP", NOW, "Submit the form ASAP", Nothing);
    cap("plan a weekend trip", NOW, "Plan a weekend trip", Nothing);
    cap("discuss the end of year party", NOW, "Discuss the end of year party", Nothing);
    cap("call the friday club", NOW, "Call the friday club", Nothing);
    cap("visit the sunday market", NOW, "Visit the sunday market", Nothing);
    cap("walk the dog for 30 minutes", NOW, "Walk the dog for 30 minutes", Nothing);
    cap("sleep 8 hours", NOW, "Sleep 8 hours", Nothing);
    cap("meditate for 10 minutes tomorrow morning", NOW, "Meditate for 10 minutes", At("Sat 2026-11-28 09:00"));
    cap("read for an hour before bed", NOW, "Read for an hour before bed", Nothing);
    cap("take the 8:15 train", NOW, "Take the 8:15 train", Nothing);
    cap("catch the 7:40 bus tomorrow", NOW, "Catch the 7:40 bus", At("Sat 2026-11-28 09:00"));
    cap("buy a 2 hour parking ticket", NOW, "Buy a 2 hour parking ticket", Nothing);
    cap("midnight snack run", NOW, "Midnight snack run", Nothing);
    // A title's own last word stays when no time was cut after it.
    cap("try the jacket on", NOW, "Try the jacket on", Nothing);
    cap("check the boiler is switched on", NOW, "Check the boiler is switched on", Nothing);
    cap("turn the heating on at 6pm", NOW, "Turn the heating on", At("Fri 2026-11-27 18:00"));
    cap("pay rent on friday please", NOW, "Pay rent", At("Fri 2026-12-04 09:00"));
}
