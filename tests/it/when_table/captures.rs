//! The words of the time cut from a capture, leaving the title.

use super::*;

#[rustfmt::skip]
#[test]
fn the_words_of_the_time_are_cut_from_the_capture() {
    // deadline words
    check_span("call the bank by december 15", FRI, Leaves("call the bank", Deadline));
    check_span("submit report due next tuesday at 2pm", FRI, Leaves("submit report", Deadline));
    check_span("pay rent due friday", MON, Leaves("pay rent", Deadline));
    check_span("pay rent due by friday", MON, Leaves("pay rent", Deadline));
    check_span("pay rent due on friday", MON, Leaves("pay rent", Deadline));
    check_span("finish the essay before friday", MON, Leaves("finish the essay", Deadline));
    check_span("renew the passport until dec 15th", FRI, Leaves("renew the passport", Deadline));
    check_span("return the books till monday", FRI, Leaves("return the books", Deadline));
    check_span("send the deck by the weekend", FRI, Leaves("send the deck", Deadline));
    // start words, and none
    check_span("remind me to pay rent friday 9am", FRI, Leaves("remind me to pay rent", Start));
    check_span("call mom at 5pm", FRI, Leaves("call mom", Start));
    check_span("dentist on monday", FRI, Leaves("dentist", Start));
    check_span("stretch in 20 minutes", FRI, Leaves("stretch", Start));
    check_span("book a table for friday", FRI, Leaves("book a table", Start));
    check_span("water the plants this evening", FRI, Leaves("water the plants", Start));
    check_span("take out the trash tonight", FRI, Leaves("take out the trash", Start));
    check_span("call mom in the morning", FRI, Leaves("call mom", Start));
    check_span("pay rent around 10", FRI, Leaves("pay rent", Start));
    check_span("snooze 20 min", FRI, Leaves("snooze", Start));
    check_span("clean the garage this weekend", FRI, Leaves("clean the garage", Start));
    check_span("call grandma next week", FRI, Leaves("call grandma", Start));
    check_span("renew the lease in 2 days at 3pm", FRI, Leaves("renew the lease", Start));
    check_span("remind me at 9 to stretch", FRI, Leaves("remind me to stretch", Start));
    // the first piece decides: a start then a deadline word is a start
    check_span("at 9am on monday call the plumber", FRI, Leaves("call the plumber", Start));
    check_span("on monday, by 9am, call the plumber", FRI, Leaves(", call the plumber", Start));
    // a time in the middle of the sentence
    check_span("remind me tomorrow at 8 to call mom", FRI, Leaves("remind me to call mom", Start));
    check_span("email the team friday about the launch", FRI, Leaves("email the team about the launch", Start));
    check_span("check in on friday with anna", FRI, Leaves("check in with anna", Start));
    check_span("the day after tomorrow pick up the suit", FRI, Leaves("pick up the suit", Start));
    // two pieces apart, and two pieces side by side
    check_span("friday call the bank at 9am", FRI, Leaves("call the bank", Start));
    check_span("pay rent friday, 9am", FRI, Leaves("pay rent", Start));
    check_span("file taxes next week on friday", MON, Leaves("file taxes", Start));
    // words the reading did not use stay in the title
    check_span("call the guy I met yesterday tomorrow", FRI, Leaves("call the guy I met yesterday", Start));
    check_span("later, pay rent on friday", MON, Leaves("later, pay rent", Start));
    check_span("move the meeting from friday to monday", MON, Leaves("move the meeting from friday to", Start));
    // case and non-ASCII text survive the cut
    check_span("Remind me TOMORROW at 8 to call Mom", FRI, Leaves("Remind me to call Mom", Start));
    check_span("call Zoë tomorrow 🙂", FRI, Leaves("call Zoë 🙂", Start));
    check_span("İstanbul trip by dec 3", FRI, Leaves("İstanbul trip", Deadline));
    // no time at all
    check_span("remind me to call mom", FRI, NoTime);
    check_span("buy 8 eggs", FRI, NoTime);
    check_span("not tomorrow", FRI, NoTime);
    check_span("", FRI, NoTime);
    // a time that cannot be used
    check_span("pay rent at 3", FRI, SpanFails(WhenError::AmbiguousHour(3)));
    check_span("call mom feb 30", FRI, SpanFails(WhenError::NoSuchDate { day: 30, month: "February" }));
    check_span("dentist yesterday", FRI, SpanFails(WhenError::PastDate));
    check_span("pay rent friday or monday", FRI, SpanFails(WhenError::Conflicting));
}
