//! Reading an automation command: a table of sentences read into a title, a schedule and a
//! first run, the sentences that are not automations, and the question for what is missing.

use super::*;

#[test]
fn automation_commands_are_read_into_a_title_a_schedule_and_a_first_run() {
    // Now: Monday 23 Nov 2026, 11:00 in Paris.
    let table: [(&str, &str, &str, &str, &str); 14] = [
        (
            "every monday at 9 remind me to submit the timesheet",
            "Submit the timesheet",
            "every Monday at 09:00",
            "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "Mon 30 Nov 09:00",
        ),
        (
            "every weekday at 7 remind me to stand up",
            "Stand up",
            "every weekday at 07:00",
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=0;BYSECOND=0",
            "Tue 24 Nov 07:00",
        ),
        (
            "every 2 weeks on friday remind me to water the plants",
            "Water the plants",
            "every other week on Friday at 09:00",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "Fri 27 Nov 09:00",
        ),
        (
            "on the 1st of every month remind me to pay rent",
            "Pay rent",
            "every month on the 1st at 09:00",
            "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "Tue 1 Dec 09:00",
        ),
        (
            "every day at 8pm remind me to take my pills",
            "Take my pills",
            "every day at 20:00",
            "FREQ=DAILY;BYHOUR=20;BYMINUTE=0;BYSECOND=0",
            "Mon 23 Nov 20:00",
        ),
        (
            "remind me every monday and thursday at 7:30 to call mom",
            "Call mom",
            "every Monday and Thursday at 07:30",
            "FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=7;BYMINUTE=30;BYSECOND=0",
            "Thu 26 Nov 07:30",
        ),
        (
            "Daily at 17:00: review the inbox",
            "Review the inbox",
            "every day at 17:00",
            "FREQ=DAILY;BYHOUR=17;BYMINUTE=0;BYSECOND=0",
            "Mon 23 Nov 17:00",
        ),
        (
            "every month on the 31st remind me to back up the laptop",
            "Back up the laptop",
            "every month on the 31st (or the month's last day) at 09:00",
            "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "Mon 30 Nov 09:00",
        ),
        (
            "please remind me each sunday to plan the week",
            "Plan the week",
            "every Sunday at 09:00",
            "FREQ=WEEKLY;BYDAY=SU;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "Sun 29 Nov 09:00",
        ),
        (
            "every Monday: Submit the timesheet to HR",
            "Submit the timesheet to HR",
            "every Monday at 09:00",
            "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "Mon 30 Nov 09:00",
        ),
        (
            "every other friday at 10am remind me to send the invoice",
            "Send the invoice",
            "every other week on Friday at 10:00",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=10;BYMINUTE=0;BYSECOND=0",
            "Fri 27 Nov 10:00",
        ),
        (
            "I want you to remind me every tuesday at noon to eat lunch",
            "Eat lunch",
            "every Tuesday at 12:00",
            "FREQ=WEEKLY;BYDAY=TU;BYHOUR=12;BYMINUTE=0;BYSECOND=0",
            "Tue 24 Nov 12:00",
        ),
        (
            "remind me to stretch every day at 11",
            "Stretch",
            "every day at 11:00",
            "FREQ=DAILY;BYHOUR=11;BYMINUTE=0;BYSECOND=0",
            // 11:00 is now: the first run is tomorrow's.
            "Tue 24 Nov 11:00",
        ),
        (
            "every 3 days at 21:30 remind me to water the cactus",
            "Water the cactus",
            "every 3 days at 21:30",
            "FREQ=DAILY;INTERVAL=3;BYHOUR=21;BYMINUTE=30;BYSECOND=0",
            "Mon 23 Nov 21:30",
        ),
    ];
    for (text, title, words, rrule, first) in table {
        let draft = draft(text);
        assert_eq!(draft.title, title, "{text:?}");
        assert_eq!(draft.schedule.words, words, "{text:?}");
        assert_eq!(draft.schedule.rrule, rrule, "{text:?}");
        assert_eq!(draft.schedule.timezone, Paris, "{text:?}");
        let run = draft
            .schedule
            .first_run_after(monday_10am())
            .unwrap_or_else(|e| panic!("{text:?}: {e}"))
            .unwrap_or_else(|| panic!("{text:?}: no first run"));
        assert_eq!(local(run), first, "{text:?}");
        assert_eq!(
            draft.schedule.dtstart, run,
            "{text:?}: DTSTART is the first run"
        );
    }
}

#[test]
fn questions_negations_reports_and_other_peoples_habits_are_not_automations() {
    for text in [
        "do I have something every monday?",
        "what do I have every weekday",
        "can you remind me every monday to submit the timesheet",
        "hey donna could you remind me every day at 8 to floss",
        "don't remind me every monday",
        "never remind me every day at 9 to smile",
        "stop reminding me every monday",
        "I go running every monday",
        "my boss reminds me every monday",
        "we meet every friday at 10",
        "every day is a struggle",
        "every time I open the fridge remind me to drink water",
        "remind me to call Alice tomorrow at 4",
        "add read the daily news",
        "list my tasks",
        "thanks!",
        "",
    ] {
        assert_eq!(
            read(text, monday_10am(), Paris),
            AutomationReading::NotAutomation,
            "{text:?}"
        );
    }
}

#[test]
fn an_automation_missing_something_asks_for_it() {
    let table = [
        (
            "every monday at 5 remind me to call the bank",
            "At 5 in the morning (05:00) or in the afternoon (17:00)?",
        ),
        (
            "every day at 6 remind me to run",
            "At 6 in the morning (06:00) or in the afternoon (18:00)?",
        ),
        (
            "every day at 6:30 remind me to run",
            "At 6:30 in the morning (06:30) or in the afternoon (18:30)?",
        ),
        (
            "every monday at 9",
            "What should I remind you of every Monday at 09:00?",
        ),
        (
            "on the 32nd of every month remind me to pay rent",
            "A month has no day 32",
        ),
        ("every day at 25 remind me to sleep", "there is no 25:00"),
        ("every 2 hours remind me to drink water", "not more often"),
        (
            "every second tuesday remind me to call the bank",
            "Every other Tuesday, or the second Tuesday of each month?",
        ),
    ];
    for (text, asked) in table {
        match read(text, monday_10am(), Paris) {
            AutomationReading::Unreadable(question) => {
                assert!(question.contains(asked), "{text:?}: {question:?}")
            }
            other => panic!("{text:?}: expected a question, got {other:?}"),
        }
    }
    // A leading zero is a 24-hour time, not a question.
    assert_eq!(
        draft("every day at 05:30 remind me to run").schedule.words,
        "every day at 05:30"
    );
}

#[test]
fn no_actions_file_may_name_the_internal_create_automation_handler() {
    let yaml =
        "actions:\n  sneaky:\n    description: Store a reminder.\n    handler: create_automation\n";
    match ActionRegistry::from_yaml(yaml) {
        Err(error) => assert!(error.to_string().contains("Donna's own handler"), "{error}"),
        Ok(_) => panic!("a model-visible action may not store automations"),
    }
}
